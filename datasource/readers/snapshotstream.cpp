// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/snapshotstream.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace parallax {

SnapshotStream::SnapshotStream(const QString& path, Mode mode, Progress* progress)
    : m_path(path)
    , m_mode(mode)
    , m_input(progress ? *progress : m_noProgress, static_cast<std::size_t>(SnapshotStreamChunk))
{
}

QString SnapshotStream::start()
{
    QString error = m_input.open(m_path);
    if (!error.isEmpty())
        return error;
    QIODevice::open(QIODevice::ReadOnly | QIODevice::Unbuffered);
    return {};
}

qint64 SnapshotStream::readData(char* data, qint64 maxlen)
{
    if (m_mode == Mode::Raw)
        return readInput(data, maxlen);
    qint64 done = 0;
    while (done < maxlen) {
        if (m_pos < m_buf.size()) {
            const qint64 n = std::min<qint64>(maxlen - done, m_buf.size() - m_pos);
            std::memcpy(data + done, m_buf.constData() + m_pos, static_cast<std::size_t>(n));
            m_pos += n;
            done += n;
            continue;
        }
        if (!refill())
            break;
    }
    if (done == 0 && !m_input.error().isEmpty())
        return -1;
    return done;
}

void SnapshotStream::cleanInput(qsizetype from)
{
    char* begin = m_buf.data() + from;
    char* end = m_buf.data() + m_buf.size();
    if (std::memchr(begin, 0, static_cast<std::size_t>(end - begin)))
        end = std::remove(begin, end, '\0');
    m_newlines += std::count(begin, end, '\n');
    m_buf.truncate(end - m_buf.data());
}

bool SnapshotStream::refill()
{
    m_pos = 0;
    // The next chunk of input into m_buf: its size, or -1 (m_buf emptied) on an error.
    const auto readChunk = [this] {
        m_buf.resize(SnapshotStreamChunk);
        const qint64 n = readInput(m_buf.data(), SnapshotStreamChunk);
        if (n < 0)
            m_buf.clear();
        return n;
    };
    switch (m_phase) {
    case Phase::Start: {
        const qint64 n = readChunk();
        if (n < 0)
            return false;
        m_buf.truncate(n);
        // A BOM and an XML declaration must stay at the very start of the document.
        qsizetype head = m_buf.startsWith("\xEF\xBB\xBF") ? 3 : 0;
        if (m_buf.mid(head, 5) == "<?xml") {
            const qsizetype end = m_buf.indexOf("?>", head);
            if (end >= 0) {
                m_headChars = end + 2 - head;
                head = end + 2;
            }
        }
        const QByteArray rest = m_buf.mid(head);
        m_buf.truncate(head);
        m_newlines += std::count(m_buf.begin(), m_buf.end(), '\n');
        m_buf += '<' + QByteArray(SnapshotStreamRoot.data(), SnapshotStreamRoot.size()) + '>';
        const qsizetype from = m_buf.size();
        m_buf += rest;
        cleanInput(from);
        m_phase = Phase::Body;
        return true;
    }
    case Phase::Body: {
        const qint64 n = readChunk();
        if (n < 0)
            return false;
        if (n == 0) {
            m_buf = "\n<?" + QByteArray(SnapshotStreamEndMarker.data(), SnapshotStreamEndMarker.size()) + "?></"
                + QByteArray(SnapshotStreamRoot.data(), SnapshotStreamRoot.size()) + ">\n";
            m_phase = Phase::Done;
            return true;
        }
        m_buf.truncate(n);
        cleanInput(0);
        return true;
    }
    case Phase::Done:
        m_buf.clear();
        return false;
    }
    return false;
}

qint64 SnapshotStream::readInput(char* out, qint64 max)
{
    const qint64 n = m_input.read(out, static_cast<std::size_t>(max));
    if (n > 0)
        m_inputBytes += n;
    return n;
}

/// The byte offset in the (uncompressed) input of a QXmlStreamReader position: line is 1-based and
/// column counts UTF-16 units of the cleaned input. Re-reads the input, so it is for errors only.
qint64 locateInSnapshotInput(const QString& path, qint64 line, qint64 column)
{
    SnapshotStream raw(path, SnapshotStream::Mode::Raw, nullptr);
    if (!raw.start().isNull())
        return -1;
    std::vector<char> buf(static_cast<std::size_t>(SnapshotStreamChunk));
    qint64 offset = 0;
    qint64 currentLine = 1;
    qint64 col = 0;
    for (;;) {
        const qint64 n = raw.read(buf.data(), SnapshotStreamChunk);
        if (n <= 0)
            return offset;
        const char* p = buf.data();
        const char* end = p + n;
        while (p < end && currentLine < line) {
            const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
            if (!nl) {
                offset += end - p;
                p = end;
                break;
            }
            offset += static_cast<const char*>(nl) + 1 - p;
            p = static_cast<const char*>(nl) + 1;
            ++currentLine;
        }
        for (; p < end; ++p, ++offset) {
            const auto c = static_cast<unsigned char>(*p);
            if (col >= column || c == '\n')
                return offset;
            if (c == 0 || (c & 0xC0) == 0x80)
                continue; // removed before parsing / inside a UTF-8 sequence
            col += c >= 0xF0 ? 2 : 1;
        }
    }
}

} // namespace parallax
