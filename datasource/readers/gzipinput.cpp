// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/gzipinput.h"

#include <algorithm>
#include <cstring>
#include <zlib.h>

namespace parallax {

struct GzipInput::Zlib {
    z_stream stream {};
    bool initialised = false;
};

GzipInput::GzipInput(Progress& progress, std::size_t chunk)
    : m_progress(progress)
    , m_in(chunk)
    , m_z(std::make_unique<Zlib>())
{
}

GzipInput::~GzipInput()
{
    if (m_z->initialised)
        inflateEnd(&m_z->stream);
}

QString GzipInput::open(const QString& path)
{
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot open: %1").arg(m_file.errorString());
    char head[2];
    m_gzip = m_file.peek(head, 2) == 2 && isGzipMagic(head);
    if (m_gzip) {
        if (inflateInit2(&m_z->stream, 16 + MAX_WBITS) != Z_OK)
            return QStringLiteral("cannot initialise zlib");
        m_z->initialised = true;
    }
    return {};
}

qint64 GzipInput::failed(const QString& message, qint64 offset)
{
    m_error = message;
    m_errorOffset = offset;
    return -1;
}

bool GzipInput::fillInput()
{
    z_stream& z = m_z->stream;
    // Keep the unread bytes: a member's end may leave one byte of the next member's magic.
    const std::size_t keep = z.avail_in;
    if (keep > 0 && z.next_in != reinterpret_cast<Bytef*>(m_in.data()))
        std::memmove(m_in.data(), z.next_in, keep);
    const qint64 n = m_file.read(m_in.data() + keep, static_cast<qint64>(m_in.size() - keep));
    if (n < 0) {
        failed(QStringLiteral("read error: %1").arg(m_file.errorString()), m_file.pos());
        return false;
    }
    if (n == 0)
        m_inputEof = true;
    m_compressedRead += n;
    m_progress.advance(n);
    z.next_in = reinterpret_cast<Bytef*>(m_in.data());
    z.avail_in = static_cast<uInt>(keep + static_cast<std::size_t>(n));
    return true;
}

qint64 GzipInput::read(char* dst, std::size_t max)
{
    if (!m_gzip) {
        const qint64 n = m_file.read(dst, static_cast<qint64>(max));
        if (n < 0)
            return failed(QStringLiteral("read error: %1").arg(m_file.errorString()), m_file.pos());
        m_produced += n;
        m_progress.advance(n);
        return n;
    }
    z_stream& z = m_z->stream;
    while (true) {
        if (z.avail_in < 2 && !m_inputEof && !fillInput())
            return -1;
        if (m_memberEnded) {
            if (z.avail_in == 0)
                return 0;
            if (z.avail_in >= 2 && isGzipMagic(reinterpret_cast<const char*>(z.next_in))) {
                inflateReset(&z);
                m_memberEnded = false;
                continue;
            }
            m_trailingGarbage = z.avail_in + std::max<qint64>(0, m_file.size() - m_file.pos());
            z.avail_in = 0;
            return 0;
        }
        if (z.avail_in == 0) {
            m_cutShort = true;
            return 0;
        }
        z.next_out = reinterpret_cast<Bytef*>(dst);
        z.avail_out = static_cast<uInt>(max);
        const int rc = inflate(&z, Z_NO_FLUSH);
        const std::size_t n = max - z.avail_out;
        m_produced += static_cast<qint64>(n);
        if (rc == Z_STREAM_END) {
            m_memberEnded = true;
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            const qint64 at = m_compressedRead - z.avail_in;
            return failed(QStringLiteral("corrupt gzip data at compressed byte %1 (%2)")
                              .arg(at)
                              .arg(z.msg ? QString::fromLatin1(z.msg) : QStringLiteral("zlib error %1").arg(rc)),
                at);
        }
        if (n > 0)
            return static_cast<qint64>(n);
        if (rc == Z_BUF_ERROR) {
            // No progress possible with the input at hand: more input, or the file is cut short.
            if (m_inputEof) {
                m_cutShort = true;
                return 0;
            }
            if (!fillInput())
                return -1;
        }
    }
}

} // namespace parallax
