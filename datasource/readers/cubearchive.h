// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// Access to a CUBE 4 .cubex (docs/FORMATS.md 5.3): a tar read with libarchive straight from the file,
// never extracted, one member at a time; a member that starts with the gzip magic (anchor.xml of
// Score-P 1.3) is inflated while it is read. Errors name the member and the archive byte offset.

#include "datasource/readers/cubexml.h"

#include <QByteArray>
#include <memory>
#include <optional>
#include <utility>
#include <zlib.h>

struct archive;

namespace parallax::cube {

/// Whether a file's first bytes are a tar header ("ustar" at byte 257).
bool isTarHeader(const QByteArray& head);

/// Whether a tar (under any name) holds a member anchor.xml among its first 256 members, reading
/// headers only (the CUBE reader's sniff()).
bool tarHasAnchor(const QString& path);

/// "12.index" -> (12, false), "12.data" -> (12, true); nullopt for other names.
std::optional<std::pair<qint64, bool>> metricMember(const QString& name);

/// Frees a libarchive handle.
struct ArchiveFree {
    void operator()(archive* a) const;
};

/// A member of the archive, as its tar header describes it.
struct ArchiveEntry {
    /// The path without leading "./".
    QString name;
    /// -1 when the header does not say.
    qint64 size = -1;
    /// A regular file (not a directory, link, ...).
    bool regular = false;
};

/// One pass over the members of a .cubex with libarchive.
class ArchiveReader {
public:
    /// Opens the archive; throws ParseError when it is not a tar.
    ArchiveReader(const QString& path, Progress& progress);

    /// The next member; nullopt at the end of the archive.
    std::optional<ArchiveEntry> next();

    /// Reads the current member; 0 at its end.
    std::size_t read(char* dst, std::size_t max);

    /// The archive offset of a byte of the current member, when the tar header layout makes it
    /// certain (one 512-byte ustar/GNU header); else the offset within the member.
    qint64 archiveOffset(qint64 inMember) const
    {
        return m_simpleHeader && m_headerPosition >= 0 ? m_headerPosition + 512 + inMember : inMember;
    }

    /// The rest of the current member; an error when it has more than `limit` bytes.
    QByteArray readAll(qint64 limit);

private:
    void reportProgress();

    std::unique_ptr<archive, ArchiveFree> m_archive;
    Progress& m_progress;
    QString m_member;
    QString m_previous;
    qint64 m_fileSize = 0;
    qint64 m_memberRead = 0;
    qint64 m_size = 0;
    qint64 m_headerPosition = -1;
    bool m_simpleHeader = false;
    qint64 m_lastPosition = 0;
};

/// The current archive member, inflated when it starts with the gzip magic: CubeW built with zlib
/// writes anchor.xml gzip-compressed inside the tar (Score-P 1.3, Extra-P's cubeset samples).
/// Concatenated gzip members are one stream, as gunzip reads them.
class ArchiveMemberSource : public ByteSource {
public:
    ArchiveMemberSource(ArchiveReader& reader, const QString& member);
    ~ArchiveMemberSource() override;
    ArchiveMemberSource(const ArchiveMemberSource&) = delete;
    ArchiveMemberSource& operator=(const ArchiveMemberSource&) = delete;

    /// Whether the member was gzip-compressed (known after the first read).
    bool isGzip() const { return m_gzip; }

    std::size_t read(char* dst, std::size_t max) override;

private:
    /// Appends member bytes to m_in after `from`; false at the end of the member.
    bool refill(std::size_t from);
    /// The member offset of the next compressed byte.
    qint64 position() const { return m_consumed + static_cast<qint64>(m_buffered) - m_z.avail_in; }

    ArchiveReader& m_reader;
    QString m_member;
    std::vector<char> m_in;
    std::size_t m_buffered = 0;
    std::size_t m_taken = 0;
    qint64 m_consumed = 0;
    bool m_started = false;
    bool m_gzip = false;
    bool m_eof = false;
    bool m_memberEnded = false;
    z_stream m_z {};
};

} // namespace parallax::cube
