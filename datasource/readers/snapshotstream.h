// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/gzipinput.h"
#include "datasource/readers/progress.h"

#include <QByteArray>
#include <QIODevice>
#include <QLatin1StringView>
#include <QString>

namespace parallax {

/// The synthetic root around the concatenated fragments, and the processing instruction written
/// after the input: meeting it outside every fragment means the input ended cleanly.
constexpr QLatin1StringView SnapshotStreamRoot("parallax_snapshot_stream");
constexpr QLatin1StringView SnapshotStreamEndMarker("parallax-end-of-input");
/// Bytes read from the file at a time.
constexpr qint64 SnapshotStreamChunk = qint64 { 256 } * 1024;

/// The bytes of one input as QXmlStreamReader sees them (docs/FORMATS.md 4.1): inflated when the file is
/// gzip (members may be concatenated), NUL bytes removed (TAU's merged writer leaves some between
/// fragments), and the fragments wrapped in one synthetic root so that they form one document. A
/// BOM and an XML declaration stay in front of the root. After the input come a newline and the end
/// marker, then the closing root tag. In raw mode the bytes are only inflated (to locate errors).
class SnapshotStream : public QIODevice {
public:
    enum class Mode { Wrapped, Raw };

    SnapshotStream(const QString& path, Mode mode, Progress* progress);

    /// Opens the file; returns an error message, or a null string.
    QString start();

    bool isSequential() const override { return true; }
    bool isGzip() const { return m_input.isGzip(); }
    /// A read error or corrupt gzip data; empty otherwise.
    const QString& streamError() const { return m_input.error(); }
    /// The gzip data ended inside a member: the file is truncated.
    bool cutShort() const { return m_input.cutShort(); }
    /// Bytes after the last gzip member that do not start another member.
    qint64 trailingBytes() const { return m_input.trailingGarbage(); }
    /// Newlines and bytes (NULs included) of the input delivered so far.
    qint64 inputNewlines() const { return m_newlines; }
    qint64 inputBytes() const { return m_inputBytes; }
    /// UTF-16 units on line 1 before the synthetic root tag (an XML declaration).
    qint64 headChars() const { return m_headChars; }
    static qint64 rootTagChars() { return SnapshotStreamRoot.size() + 2; }

protected:
    qint64 readData(char* data, qint64 maxlen) override;
    qint64 writeData(const char*, qint64) override { return -1; }

private:
    enum class Phase { Start, Body, Done };

    /// Removes NUL bytes from m_buf[from..] and counts the newlines there.
    void cleanInput(qsizetype from);

    /// The next part of the wrapped input into m_buf; false at its end or on an error.
    bool refill();

    /// The next bytes of the input (inflated if gzip); 0 at the end, -1 on error.
    qint64 readInput(char* out, qint64 max);

    QString m_path;
    Mode m_mode;
    Progress m_noProgress; ///< when the caller watches none
    GzipInput m_input;

    Phase m_phase = Phase::Start;
    QByteArray m_buf;
    qsizetype m_pos = 0;
    qint64 m_newlines = 0;
    qint64 m_inputBytes = 0;
    qint64 m_headChars = 0;
};

/// The byte offset in the (uncompressed) input of a QXmlStreamReader position: line is 1-based and
/// column counts UTF-16 units of the cleaned input. Re-reads the input, so it is for errors only.
qint64 locateInSnapshotInput(const QString& path, qint64 line, qint64 column);

} // namespace parallax
