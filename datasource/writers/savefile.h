// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// What the writers share (docs/HACKING.md §5.2): writing through QSaveFile, so that a failure leaves
// no half-written file, and buffered text output to it.
#pragma once

#include <QSaveFile>
#include <QString>
#include <cstddef>
#include <string>

namespace parallax {

/// A failure inside a writer's body: what went wrong, without the file (writeSaved() adds it).
struct WriteFailure {
    QString message;
};

/// Writes `file` through QSaveFile: body(QSaveFile&) writes and throws WriteFailure on an error.
/// Returns an empty string on success, else the error naming the file.
template <typename Body> QString writeSaved(const QString& file, Body&& body)
{
    QSaveFile save(file);
    if (!save.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: cannot write: %2").arg(file, save.errorString());
    try {
        body(save);
    } catch (const WriteFailure& failure) {
        save.cancelWriting();
        return QStringLiteral("%1: %2").arg(file, failure.message);
    }
    if (!save.commit())
        return QStringLiteral("%1: write failed: %2").arg(file, save.errorString());
    return {};
}

/// Text output to a QSaveFile through a buffer written in blocks of about FlushSize bytes (the CSV
/// and JSON writers).
class BufferedOut {
public:
    static constexpr std::size_t FlushSize = 1 << 20;

    explicit BufferedOut(QSaveFile& file)
        : m_file(file)
    {
        m_buffer.reserve(FlushSize + 4096);
    }

    std::string& buffer() { return m_buffer; }
    void maybeFlush()
    {
        if (m_buffer.size() >= FlushSize)
            flush();
    }
    /// Writes the buffer out; throws WriteFailure when the file does not take it.
    void flush()
    {
        const auto n = static_cast<qint64>(m_buffer.size());
        if (n > 0 && m_file.write(m_buffer.data(), n) != n)
            throw WriteFailure { QStringLiteral("write failed: %1").arg(m_file.errorString()) };
        m_buffer.clear();
    }

protected:
    QSaveFile& m_file;
    std::string m_buffer;
};

} // namespace parallax
