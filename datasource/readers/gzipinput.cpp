// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/gzipinput.h"

#include <QFileInfo>
#include <algorithm>
#include <cstring>
#include <new>
#include <zlib.h>

namespace parallax {

std::optional<QByteArray> fileHead(const QString& path, qint64 max)
{
    if (!QFileInfo(path).isFile())
        return std::nullopt;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    return file.read(max);
}

QByteArray gunzipPrefix(const QByteArray& compressed, qsizetype max)
{
    z_stream z {};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return {};
    QByteArray out(max, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.constData()));
    z.avail_in = static_cast<uInt>(compressed.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(max);
    int rc = Z_OK;
    while (z.avail_out > 0 && rc == Z_OK)
        rc = inflate(&z, Z_NO_FLUSH);
    out.truncate(max - static_cast<qsizetype>(z.avail_out));
    inflateEnd(&z);
    return out;
}

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

void GzipInput::openOrThrow(const QString& path)
{
    const QString error = open(path);
    if (!error.isEmpty())
        throw ParseError { error };
}

std::size_t GzipInput::readOrThrow(char* dst, std::size_t max)
{
    const qint64 n = read(dst, max);
    if (n < 0)
        throw ParseError::at(m_produced, m_error);
    return static_cast<std::size_t>(n);
}

GzipPipe::GzipPipe(GzipInput& input, std::size_t chunk, int chunks)
    : m_input(input)
{
    for (int i = 0; i < chunks; ++i)
        m_free.emplace_back(chunk);
    m_thread = std::thread([this] { produce(); });
}

GzipPipe::~GzipPipe()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    m_thread.join();
}

std::size_t GzipPipe::read(char* dst, std::size_t max)
{
    while (m_currentPos == m_currentSize) {
        std::unique_lock lock(m_mutex);
        if (!m_current.empty()) {
            m_free.push_back(std::move(m_current));
            m_current = {};
            m_cv.notify_all();
        }
        m_cv.wait(lock, [&] { return !m_full.empty() || m_finished; });
        if (m_full.empty()) {
            if (m_error)
                throw *m_error;
            return 0;
        }
        m_current = std::move(m_full.front().first);
        m_currentSize = m_full.front().second;
        m_currentPos = 0;
        m_full.pop_front();
    }
    const std::size_t n = std::min(max, m_currentSize - m_currentPos);
    std::memcpy(dst, m_current.data() + m_currentPos, n);
    m_currentPos += n;
    return n;
}

void GzipPipe::produce()
{
    while (true) {
        std::vector<char> buffer;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [&] { return !m_free.empty() || m_stop; });
            if (m_stop)
                break;
            buffer = std::move(m_free.back());
            m_free.pop_back();
        }
        std::size_t n = 0;
        bool end = false;
        try {
            // Fill the chunk: fewer, larger hand-overs.
            while (n < buffer.size()) {
                const std::size_t got = m_input.readOrThrow(buffer.data() + n, buffer.size() - n);
                if (got == 0) {
                    end = true;
                    break;
                }
                n += got;
            }
        } catch (const ParseError& e) {
            std::lock_guard lock(m_mutex);
            if (n > 0)
                m_full.emplace_back(std::move(buffer), n);
            m_error = e;
            m_finished = true;
            m_cv.notify_all();
            break;
        } catch (const std::bad_alloc&) {
            std::lock_guard lock(m_mutex);
            m_error = ParseError::at(-1, QStringLiteral("out of memory while inflating"));
            m_finished = true;
            m_cv.notify_all();
            break;
        }
        std::lock_guard lock(m_mutex);
        if (n > 0)
            m_full.emplace_back(std::move(buffer), n);
        else
            m_free.push_back(std::move(buffer));
        if (end)
            m_finished = true;
        m_cv.notify_all();
        if (end)
            break;
    }
}

} // namespace parallax
