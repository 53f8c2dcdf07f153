// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// CUBE XML (docs/FORMATS.md 5.1, 5.2): CUBE 3 .cube/.cube.gz and the anchor.xml of a .cubex, parsed
// incrementally into a CubeDocument (metrics, regions, call tree, system tree, topologies and CUBE 3
// <severity> matrices). The bytes come from a ByteSource: a file (FileSource, gzip inflated) or an
// archive member (cubearchive.h).

#include "datasource/readers/cubedocument.h"
#include "datasource/readers/gzipinput.h"

namespace parallax::cube {

/// Bytes for the XML parser.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    /// Up to `max` bytes; 0 at the end. Throws ParseError.
    virtual std::size_t read(char* dst, std::size_t max) = 0;
};

/// A file, inflated when it starts with the gzip magic (GzipInput), with its errors as ParseError.
class FileSource : public ByteSource {
public:
    FileSource(const QString& path, Progress& progress);

    bool isGzip() const { return m_input.isGzip(); }
    bool cutShort() const { return m_input.cutShort(); }
    qint64 trailingGarbage() const { return m_input.trailingGarbage(); }

    std::size_t read(char* dst, std::size_t max) override;

private:
    Progress& m_progress;
    GzipInput m_input;
};

/// What parseXml() noticed besides the document.
struct XmlParseStats {
    /// Bare '&' characters read as "&amp;", and the line of the first.
    std::size_t escapedAmpersands = 0;
    qint64 firstEscapeLine = 0;
    /// Severity rows with fewer (more) values than threads, and the line of the first one.
    std::size_t shortRows = 0;
    qint64 firstShortRow = 0;
    std::size_t longRows = 0;
    qint64 firstLongRow = 0;
};

/// Streams CUBE XML (3 or 4) from `source` into `doc`, including CUBE 3 <severity> matrices, and
/// checks the structure (finalizeStructure). `member` names the archive member in messages (empty for
/// a plain file). Throws ParseError (with the line) or Cancelled.
XmlParseStats parseXml(ByteSource& source, CubeDocument& doc, Progress& progress, const QString& member);

/// The one warning about escaped bare '&'s, if there were any.
void ampersandWarning(const XmlParseStats& stats, const QString& member, QStringList& warnings);

} // namespace parallax::cube
