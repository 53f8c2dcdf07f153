// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Reading the members of a .cubex (docs/FORMATS.md 5.3) with libarchive, part of the CUBE reader
// (cubereader.cpp): the tar is read straight from the file, never extracted; a member that starts
// with the gzip magic is inflated while it is read (Score-P 1.3 writes anchor.xml so).

#include "datasource/readers/cubearchive.h"

#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <archive.h>
#include <archive_entry.h>
#include <cstring>

namespace parallax::cube {

namespace {

QString archiveMessage(archive* a)
{
    const char* s = archive_error_string(a);
    return s ? QString::fromLocal8Bit(s) : QStringLiteral("unknown libarchive error");
}

/// A libarchive handle that reads tars; null when libarchive cannot make one.
std::unique_ptr<archive, ArchiveFree> openTar()
{
    std::unique_ptr<archive, ArchiveFree> a(archive_read_new());
    if (a)
        archive_read_support_format_tar(a.get());
    return a;
}

} // namespace

bool isTarHeader(const QByteArray& head) { return head.size() >= 262 && head.mid(257, 5) == "ustar"; }

bool tarHasAnchor(const QString& path)
{
    // A tar under another name: look for anchor.xml among the first members (headers only).
    const auto a = openTar();
    if (!a || archive_read_open_filename(a.get(), QFile::encodeName(path).constData(), 10240) != ARCHIVE_OK)
        return false;
    archive_entry* entry = nullptr;
    for (int i = 0; i < 256 && archive_read_next_header(a.get(), &entry) == ARCHIVE_OK; ++i) {
        const char* name = archive_entry_pathname(entry);
        if (name && (std::strcmp(name, "anchor.xml") == 0 || std::strcmp(name, "./anchor.xml") == 0))
            return true;
    }
    return false;
}

std::optional<std::pair<qint64, bool>> metricMember(const QString& name)
{
    const qsizetype dot = name.indexOf(QLatin1Char('.'));
    if (dot <= 0)
        return std::nullopt;
    const QStringView stem = QStringView(name).left(dot);
    const QStringView suffix = QStringView(name).mid(dot + 1);
    for (const QChar c : stem)
        if (!c.isDigit() || c.unicode() > 127)
            return std::nullopt;
    bool ok = false;
    const qint64 id = stem.toLongLong(&ok);
    if (!ok)
        return std::nullopt;
    if (suffix == u"index")
        return std::pair { id, false };
    if (suffix == u"data")
        return std::pair { id, true };
    return std::nullopt;
}

void ArchiveFree::operator()(archive* a) const { archive_read_free(a); }

ArchiveReader::ArchiveReader(const QString& path, Progress& progress)
    : m_archive(openTar())
    , m_progress(progress)
    , m_fileSize(QFileInfo(path).size())
{
    if (!m_archive)
        parseFail(QStringLiteral("cannot initialise libarchive"));
    if (archive_read_open_filename(m_archive.get(), QFile::encodeName(path).constData(), std::size_t { 64 } * 1024)
        != ARCHIVE_OK)
        parseFail(QStringLiteral("cannot open as a tar archive: %1 (expected a complete 512-byte tar header at byte "
                                 "0; the file has %2 bytes)")
                      .arg(archiveMessage(m_archive.get()))
                      .arg(QFileInfo(path).size()),
            0, 0);
}

std::optional<ArchiveEntry> ArchiveReader::next()
{
    throwIfCancelled(m_progress);
    archive_entry* entry = nullptr;
    const int rc = archive_read_next_header(m_archive.get(), &entry);
    reportProgress();
    if (rc == ARCHIVE_EOF)
        return std::nullopt;
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
        // Where this header should have started: after the previous member's padded data.
        const qint64 at = m_simpleHeader && m_headerPosition >= 0
            ? m_headerPosition + 512 + (std::max<qint64>(m_size, 0) + 511) / 512 * 512
            : archive_read_header_position(m_archive.get());
        if (!m_previous.isEmpty() && at >= 0 && m_fileSize < at)
            parseFail(QStringLiteral("member %1 runs past the end of the file: its %2 bytes of data start at archive "
                                     "byte %3, but the file has %4 bytes (truncated archive; %5)")
                          .arg(quoted(m_previous))
                          .arg(m_size)
                          .arg(at - (std::max<qint64>(m_size, 0) + 511) / 512 * 512)
                          .arg(m_fileSize)
                          .arg(archiveMessage(m_archive.get())),
                0, m_fileSize);
        parseFail(QStringLiteral("%1 (expected a tar header%2%3; the file has %4 bytes)")
                      .arg(archiveMessage(m_archive.get()),
                          m_previous.isEmpty() ? QString() : QStringLiteral(" after member %1").arg(quoted(m_previous)),
                          at >= 0 ? QStringLiteral(" at archive byte %1").arg(at) : QString())
                      .arg(m_fileSize),
            0, at);
    }
    const char* raw = archive_entry_pathname_utf8(entry);
    if (!raw)
        raw = archive_entry_pathname(entry);
    ArchiveEntry e;
    e.name = raw ? QString::fromUtf8(raw) : QString();
    while (e.name.startsWith(QLatin1String("./")))
        e.name.remove(0, 2);
    e.size = archive_entry_size_is_set(entry) ? archive_entry_size(entry) : -1;
    e.regular = archive_entry_filetype(entry) == AE_IFREG;
    m_member = e.name;
    m_previous = e.name;
    m_size = e.size;
    m_memberRead = 0;
    m_headerPosition = archive_read_header_position(m_archive.get());
    m_simpleHeader = e.name.toUtf8().size() < 100
        && (archive_format(m_archive.get()) == ARCHIVE_FORMAT_TAR_USTAR
            || archive_format(m_archive.get()) == ARCHIVE_FORMAT_TAR_GNUTAR);
    return e;
}

std::size_t ArchiveReader::read(char* dst, std::size_t max)
{
    throwIfCancelled(m_progress);
    const la_ssize_t n = archive_read_data(m_archive.get(), dst, max);
    reportProgress();
    if (n < 0)
        parseFail(QStringLiteral("member %1, byte %2: %3 (expected %4 bytes of %5; the file has %6 bytes)")
                      .arg(quoted(m_member))
                      .arg(m_memberRead)
                      .arg(archiveMessage(m_archive.get()))
                      .arg(m_size)
                      .arg(m_member == QLatin1String("anchor.xml") ? QStringLiteral("XML") : QStringLiteral("data"))
                      .arg(m_fileSize),
            0, archiveOffset(m_memberRead));
    m_memberRead += n;
    return static_cast<std::size_t>(n);
}

QByteArray ArchiveReader::readAll(qint64 limit)
{
    QByteArray out;
    char buffer[65536];
    while (true) {
        const std::size_t n = read(buffer, sizeof buffer);
        if (n == 0)
            break;
        if (out.size() + static_cast<qint64>(n) > limit)
            parseFail(QStringLiteral("member %1 is larger than %2 bytes (expected a small index)")
                          .arg(quoted(m_member))
                          .arg(limit));
        out.append(buffer, static_cast<qsizetype>(n));
    }
    return out;
}

void ArchiveReader::reportProgress()
{
    const la_int64_t pos = archive_filter_bytes(m_archive.get(), -1);
    if (pos > m_lastPosition) {
        m_progress.advance(pos - m_lastPosition);
        m_lastPosition = pos;
    }
}

ArchiveMemberSource::ArchiveMemberSource(ArchiveReader& reader, const QString& member)
    : m_reader(reader)
    , m_member(member)
    , m_in(ChunkSize)
{
}

ArchiveMemberSource::~ArchiveMemberSource()
{
    if (m_gzip)
        inflateEnd(&m_z);
}

std::size_t ArchiveMemberSource::read(char* dst, std::size_t max)
{
    if (!m_started) {
        m_started = true;
        while (m_buffered < 2 && refill(m_buffered)) { }
        if (m_buffered >= 2 && isGzipMagic(m_in.data())) {
            if (inflateInit2(&m_z, 16 + MAX_WBITS) != Z_OK)
                parseFail(QStringLiteral("cannot initialise zlib"));
            m_gzip = true;
            m_z.next_in = reinterpret_cast<Bytef*>(m_in.data());
            m_z.avail_in = static_cast<uInt>(m_buffered);
        }
    }
    if (!m_gzip) {
        if (m_taken < m_buffered) {
            const std::size_t n = std::min(max, m_buffered - m_taken);
            std::memcpy(dst, m_in.data() + m_taken, n);
            m_taken += n;
            return n;
        }
        return m_reader.read(dst, max);
    }
    while (true) {
        if (m_z.avail_in == 0 && !m_eof) {
            m_consumed += static_cast<qint64>(m_buffered);
            m_buffered = 0;
            refill(0);
            m_z.next_in = reinterpret_cast<Bytef*>(m_in.data());
            m_z.avail_in = static_cast<uInt>(m_buffered);
        }
        if (m_memberEnded) {
            if (m_z.avail_in == 0)
                return 0;
            if (m_z.avail_in == 1 && !m_eof) {
                // One byte of a possible next gzip header: keep it and read on.
                const char keep = static_cast<char>(*m_z.next_in);
                m_consumed += static_cast<qint64>(m_buffered) - 1;
                m_in[0] = keep;
                m_buffered = 1;
                refill(1);
                m_z.next_in = reinterpret_cast<Bytef*>(m_in.data());
                m_z.avail_in = static_cast<uInt>(m_buffered);
                continue;
            }
            if (m_z.avail_in >= 2 && isGzipMagic(reinterpret_cast<const char*>(m_z.next_in))) {
                inflateReset(&m_z);
                m_memberEnded = false;
                continue;
            }
            parseFail(QStringLiteral("member %1, compressed byte %2: data after the end of the gzip stream (expected "
                                     "another gzip member or the end of the member)")
                          .arg(quoted(m_member))
                          .arg(position()),
                0, m_reader.archiveOffset(position()));
        }
        if (m_z.avail_in == 0)
            parseFail(QStringLiteral("member %1, compressed byte %2: the gzip stream ends early (truncated member; "
                                     "expected the rest of the compressed data)")
                          .arg(quoted(m_member))
                          .arg(position()),
                0, m_reader.archiveOffset(position()));
        m_z.next_out = reinterpret_cast<Bytef*>(dst);
        m_z.avail_out = static_cast<uInt>(max);
        const int rc = inflate(&m_z, Z_NO_FLUSH);
        const std::size_t n = max - m_z.avail_out;
        if (rc == Z_STREAM_END)
            m_memberEnded = true;
        else if (rc != Z_OK && rc != Z_BUF_ERROR)
            parseFail(QStringLiteral("member %1, compressed byte %2: corrupt gzip data (%3)")
                          .arg(quoted(m_member))
                          .arg(position())
                          .arg(m_z.msg ? QString::fromLatin1(m_z.msg) : QStringLiteral("zlib error %1").arg(rc)),
                0, m_reader.archiveOffset(position()));
        if (n > 0)
            return n;
    }
}

bool ArchiveMemberSource::refill(std::size_t from)
{
    const std::size_t n = m_reader.read(m_in.data() + from, m_in.size() - from);
    m_buffered = from + n;
    if (n == 0)
        m_eof = true;
    return n > 0;
}

} // namespace parallax::cube
