// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/progress.h"

#include <QFile>
#include <QString>
#include <cstddef>
#include <memory>
#include <vector>

namespace parallax {

/// The two bytes every gzip member starts with (RFC 1952): `p` must hold at least two bytes.
inline bool isGzipMagic(const char* p)
{
    return static_cast<unsigned char>(p[0]) == 0x1f && static_cast<unsigned char>(p[1]) == 0x8b;
}

/// A file read in chunks as its uncompressed bytes: inflated with zlib when it starts with the
/// gzip magic (concatenated members are one stream, as gunzip reads them), passed through
/// otherwise. The readers' one way to take compressed input (ppk, .cube.gz). Progress advances by
/// the file bytes read, out of the file size.
class GzipInput {
public:
    explicit GzipInput(Progress& progress, std::size_t chunk = 256 * 1024);
    ~GzipInput();
    GzipInput(const GzipInput&) = delete;
    GzipInput& operator=(const GzipInput&) = delete;

    /// Empty on success, else why the file cannot be read.
    QString open(const QString& path);
    bool isGzip() const { return m_gzip; }

    /// Up to `max` uncompressed bytes into `dst`; 0 at the end of the data, -1 on an error.
    qint64 read(char* dst, std::size_t max);
    /// After read() returned -1: "read error: …" or "corrupt gzip data at compressed byte N (…)".
    const QString& error() const { return m_error; }
    /// After read() returned -1: the file offset of the error.
    qint64 errorOffset() const { return m_errorOffset; }

    /// Uncompressed bytes handed out so far.
    qint64 produced() const { return m_produced; }
    /// The gzip data ended inside a member (no end marker, so no CRC check): a truncated file.
    bool cutShort() const { return m_cutShort; }
    /// Bytes after the last gzip member that do not start another member.
    qint64 trailingGarbage() const { return m_trailingGarbage; }

private:
    bool fillInput();
    qint64 failed(const QString& message, qint64 offset);

    Progress& m_progress;
    QFile m_file;
    std::vector<char> m_in;
    struct Zlib;
    std::unique_ptr<Zlib> m_z;
    bool m_gzip = false;
    bool m_inputEof = false;
    bool m_memberEnded = false;
    bool m_cutShort = false;
    qint64 m_produced = 0;
    qint64 m_compressedRead = 0;
    qint64 m_trailingGarbage = 0;
    QString m_error;
    qint64 m_errorOffset = -1;
};

} // namespace parallax
