// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// CUBE reader (docs/FORMATS.md 5; docs/SEMANTICS.md 1.3, 1.4): sniff() and read(), which run the
// pieces below under guardedRead() (reader.h). Its parts, each a file pair in datasource/readers/:
//
// * cubedocument: the parsed document (metric, region, call and system trees, dense value arrays),
//   its checks and memory limits;
// * cubexml: the XML parser (CUBE 3 .cube and .cube.gz, the anchor.xml of a .cubex), with the filter
//   for bare '&' characters;
// * cubearchive: the members of a .cubex tar through libarchive, gzip-compressed members inflated;
// * cubedata: metric data types (plain and composite) and the .index/.data members;
// * cubeassembler: the Trial built from the document. What the model gets (metrics, call tree, flat
//   events, presence, system tree) is described at the top of cubeassembler.cpp.
//
// How the bytes are read
// ----------------------
// * XML is parsed incrementally in 256 KiB chunks (cubexml.cpp); a .cube.gz is inflated with zlib in
//   chunks (GzipInput: concatenated gzip members are one stream).
// * .cubex is read with libarchive straight from the tar, never extracted. anchor.xml is usually the
//   last member, and a .data member can come before its .index, so: pass 1 parses anchor.xml, keeps
//   the (small) .index members and decodes every .data member whose index and anchor are known; if
//   any .data member came too early, pass 2 re-reads the archive for those members only. The .index
//   and .data layouts, ZCUBEX.DATA included, are described in cubedata.cpp. Score-P 1.3's files hold
//   anchor.xml gzip-compressed inside the tar; a member that starts with the gzip magic is inflated
//   while it is parsed (cubearchive.cpp).
// * CUBE 3 <severity> rows hold one value per thread in thread Id order; a row with fewer values is
//   padded with zeros (as CubeLib does; test1.2/empty.cube has one), with a warning. More values than
//   threads, non-zero .data rows beyond the index, and members of unknown metrics are data that
//   belongs nowhere: a warning, an error under ReadOptions::strict. A .data member may end in zero
//   rows beyond its index (test0.0.cubex); those are ignored silently.
// * Limits, so that a corrupt file cannot exhaust memory, are described in cubedocument.cpp: real
//   profiles stay far below them; beyond them the read fails and says why.
//
// Errors name the file, the member, and the XML line or the byte offset in the member, and say what
// was expected there.

#include "datasource/readers/cubereader.h"

#include "datasource/model/trialbuilder.h"
#include "datasource/readers/cubearchive.h"
#include "datasource/readers/cubeassembler.h"
#include "datasource/readers/cubedata.h"
#include "datasource/readers/cubexml.h"
#include "datasource/readers/gzipinput.h"

#include <QFile>
#include <QFileInfo>
#include <QStringDecoder>
#include <map>
#include <optional>

namespace parallax {

using namespace cube;

namespace {

/// Misc members up to this size whose bytes are UTF-8 text are kept as trial metadata.
constexpr qint64 MaxKeptMiscMember = qint64 { 64 } * 1024;

/// A member that is neither anchor.xml nor a metric's .index/.data: kept as trial metadata "CUBE misc
/// <name>" when it is small UTF-8 text. Returns its entry for "CUBE misc members".
QString keepMiscMember(ArchiveReader& reader, const ArchiveEntry& member, TrialBuilder& builder)
{
    QString entry = QStringLiteral("%1 (%2 bytes)").arg(member.name).arg(member.size);
    if (member.size < 0 || member.size > MaxKeptMiscMember)
        return entry + QStringLiteral(", not kept");
    const QByteArray bytes = reader.readAll(MaxKeptMiscMember);
    QStringDecoder decoder(QStringDecoder::Utf8);
    const QString text = decoder.decode(bytes);
    if (decoder.hasError() || bytes.contains('\0'))
        return entry + QStringLiteral(", binary, not kept");
    builder.addMetadata(QStringLiteral("CUBE misc ") + member.name, text);
    return entry;
}

/// Frees the values of the metrics that do not become model metrics.
void dropUnimportedValues(CubeDocument& doc)
{
    for (auto& m : doc.metrics)
        if (!m.imported)
            m.stored.clear();
}

/// A CUBE 3 (or 4) XML file, plain or gzip-compressed.
void readXmlFile(
    const QString& path, CubeDocument& doc, QStringList& warnings, Progress& progress, const ReadOptions& options)
{
    FileSource source(path, progress);
    const XmlParseStats stats = parseXml(source, doc, progress, QString());
    ampersandWarning(stats, QString(), warnings);
    countWarning(warnings, stats.shortRows,
        QStringLiteral("%1 severity row(s) have fewer values than threads (first at line %2); the missing values "
                       "are 0"),
        QString::number(stats.firstShortRow));
    if (stats.longRows > 0)
        dataWarning(warnings,
            QStringLiteral("%1 severity row(s) have more values than threads (first at line %2); the extra values "
                           "belong to no thread and were ignored")
                .arg(stats.longRows)
                .arg(stats.firstLongRow),
            options);
    if (source.cutShort())
        warnings << QStringLiteral("the gzip stream is cut short after the end of the XML (no checksum verified)");
    countWarning(warnings, source.trailingGarbage(),
        QStringLiteral("%1 byte(s) of non-gzip data after the compressed stream were ignored"));
    classifyMetrics(doc, warnings, options);
    if (doc.major == 4 && !doc.hasSeverity)
        warnings << QStringLiteral("CUBE 4 XML outside a .cubex archive: there are no .data members, so every "
                                   "value is 0");
    dropUnimportedValues(doc);
}

/// A .cubex: anchor.xml and the .index/.data pairs, in one pass or two (see the top of this file).
void readCubex(const QString& path, CubeDocument& doc, TrialBuilder& builder, QStringList& warnings, Progress& progress,
    const ReadOptions& options)
{
    struct Pending {
        QByteArray index;
        QString indexMember;
        QString dataMember;
        bool dataDone = false;
        bool dataDeferred = false;
    };
    std::map<qint64, Pending> members;
    std::map<qint64, IndexInfo> indexes;
    QStringList misc;
    bool anchor = false;
    QStringList listed;
    auto decodeIfReady = [&](ArchiveReader& reader, qint64 id, Pending& p) {
        const auto it = doc.metricById.constFind(id);
        CubeMetric& metric = doc.metrics[static_cast<std::size_t>(it.value())];
        auto idx = indexes.find(id);
        if (idx == indexes.end())
            idx = indexes.emplace(id, parseIndex(p.index, p.indexMember, doc.cnodes.size(), warnings)).first;
        QStringList dataWarnings;
        decodeDataMember(reader, doc, metric, idx->second, p.dataMember, dataWarnings);
        for (const QString& w : dataWarnings)
            dataWarning(warnings, w, options);
        p.dataDone = true;
    };
    auto usable = [&](qint64 id) {
        const auto it = doc.metricById.constFind(id);
        if (it == doc.metricById.cend())
            return false;
        const CubeMetric& m = doc.metrics[static_cast<std::size_t>(it.value())];
        return m.imported || !m.componentMetrics.empty();
    };

    progress.setStage(QStringLiteral("Reading CUBE archive"), QFileInfo(path).size());
    {
        ArchiveReader reader(path, progress);
        while (const std::optional<ArchiveEntry> entry = reader.next()) {
            const QString& name = entry->name;
            if (listed.size() < 8)
                listed << quoted(name);
            if (!entry->regular)
                continue;
            if (name == QLatin1String("anchor.xml")) {
                if (anchor)
                    parseFail(QStringLiteral("a second member 'anchor.xml' (expected one)"));
                anchor = true;
                ArchiveMemberSource source(reader, name);
                const XmlParseStats stats = parseXml(source, doc, progress, QStringLiteral("anchor.xml"));
                if (source.isGzip())
                    builder.addMetadata(QStringLiteral("CUBE anchor.xml compression"), QStringLiteral("gzip"));
                ampersandWarning(stats, QStringLiteral("anchor.xml"), warnings);
                classifyMetrics(doc, warnings, options);
                // Members seen before the anchor can be checked now.
                for (auto& [id, p] : members)
                    if (!p.dataMember.isEmpty() && !p.dataDone && usable(id))
                        p.dataDeferred = true;
                continue;
            }
            const auto kind = metricMember(name);
            if (!kind) {
                misc << keepMiscMember(reader, *entry, builder);
                continue;
            }
            const auto [id, isData] = *kind;
            Pending& p = members[id];
            if (isData) {
                if (!p.dataMember.isEmpty())
                    parseFail(QStringLiteral("a second member %1 (expected one per metric)").arg(quoted(name)));
                p.dataMember = name;
                if (anchor && usable(id) && !p.indexMember.isEmpty())
                    decodeIfReady(reader, id, p);
                else if (!anchor || usable(id))
                    p.dataDeferred = true;
            } else {
                if (!p.indexMember.isEmpty())
                    parseFail(QStringLiteral("a second member %1 (expected one per metric)").arg(quoted(name)));
                p.indexMember = name;
                p.index = reader.readAll(qint64(1) << 32);
            }
        }
    }
    if (!anchor)
        parseFail(QStringLiteral("no member 'anchor.xml' (expected a .cubex tar holding anchor.xml; found %1)")
                      .arg(listed.isEmpty() ? QStringLiteral("no members") : listed.join(QStringLiteral(", "))));

    bool secondPass = false;
    for (auto& [id, p] : members) {
        if (!usable(id)) {
            const auto it = doc.metricById.constFind(id);
            const QString what = p.dataMember.isEmpty() ? p.indexMember : p.dataMember;
            if (it == doc.metricById.cend())
                dataWarning(warnings,
                    QStringLiteral("member %1 belongs to no metric of anchor.xml (no metric id %2); ignored")
                        .arg(quoted(what))
                        .arg(id),
                    options);
            else if (!p.dataMember.isEmpty()) {
                const CubeMetric& m = doc.metrics[static_cast<std::size_t>(it.value())];
                const QString w = QStringLiteral("member %1 belongs to metric %2, which is not imported; ignored")
                                      .arg(quoted(what), quoted(m.dispName));
                if (m.kind == MetricKind::Derived)
                    warnings << w;
                else
                    dataWarning(warnings, w, options);
            }
            p.dataDeferred = false;
            continue;
        }
        if (p.dataMember.isEmpty())
            parseFail(QStringLiteral("member %1 has no matching '%2.data' (expected both members of a metric)")
                          .arg(quoted(p.indexMember))
                          .arg(id));
        if (p.indexMember.isEmpty())
            parseFail(QStringLiteral("member %1 has no matching '%2.index' (expected both members of a metric)")
                          .arg(quoted(p.dataMember))
                          .arg(id));
        if (!p.dataDone)
            secondPass = true;
    }
    if (secondPass) {
        progress.setStage(QStringLiteral("Reading CUBE severities"), QFileInfo(path).size());
        ArchiveReader reader(path, progress);
        while (const std::optional<ArchiveEntry> entry = reader.next()) {
            const auto kind = entry->regular ? metricMember(entry->name) : std::nullopt;
            if (!kind || !kind->second)
                continue;
            auto it = members.find(kind->first);
            if (it == members.end() || it->second.dataDone || !usable(kind->first)
                || it->second.dataMember != entry->name)
                continue;
            decodeIfReady(reader, kind->first, it->second);
        }
        for (const auto& [id, p] : members)
            if (usable(id) && !p.dataDone)
                parseFail(QStringLiteral("member %1 was not found again on the second pass over the archive (was the "
                                         "file modified while reading?)")
                              .arg(quoted(p.dataMember)));
    }
    if (!misc.isEmpty())
        builder.addMetadata(QStringLiteral("CUBE misc members"), misc.join(QStringLiteral("; ")));
    dropUnimportedValues(doc);
}

/// Whether a chunk of XML starts a CUBE document: markup from the first byte (after a UTF-8 byte-order
/// mark and white space) and a <cube version...> tag. Text that only mentions the tag, such as a
/// MANIFEST.md describing a CUBE file, is not CUBE.
bool hasCubeTag(const QByteArray& text)
{
    qsizetype first = text.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    while (first < text.size()
        && (text[first] == ' ' || text[first] == '\t' || text[first] == '\r' || text[first] == '\n'))
        ++first;
    if (first >= text.size() || text[first] != '<')
        return false;
    qsizetype at = 0;
    while ((at = text.indexOf("<cube", at)) >= 0) {
        at += 5;
        qsizetype i = at;
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
            ++i;
        if (i > at && text.mid(i, 7) == "version")
            return true;
    }
    return false;
}

} // namespace

CubeReader::CubeReader()
    : Reader({ QStringLiteral("cube"), QStringLiteral("CUBE profile (Score-P, Scalasca)"),
        { QStringLiteral("*.cubex"), QStringLiteral("*.cube"), QStringLiteral("*.cube.gz") } })
{
}

int CubeReader::sniff(const QString& path) const
{
    const auto read = fileHead(path, 4096);
    if (!read)
        return 0;
    const QByteArray& head = *read;
    const QString lower = QFileInfo(path).fileName().toLower();
    const bool cubexName = lower.endsWith(QLatin1String(".cubex"));
    const bool cubeName = lower.endsWith(QLatin1String(".cube")) || lower.endsWith(QLatin1String(".cube.gz"));
    if (isTarHeader(head)) {
        if (cubexName)
            return 100;
        return tarHasAnchor(path) ? 95 : 0;
    }
    if (head.size() >= 2 && isGzipMagic(head.constData()))
        return hasCubeTag(gunzipPrefix(head, 4096)) ? 100 : cubeName ? 30 : 0;
    if (hasCubeTag(head))
        return 100;
    if (cubexName)
        return 50; // so that read() explains what is wrong with it
    return cubeName ? 40 : 0;
}

TrialResult CubeReader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    const QFileInfo info(path);
    if (!info.isFile())
        return ReadError { path, 0, -1,
            QStringLiteral("not a file; a CUBE profile is one .cubex, .cube or .cube.gz file") };
    TrialBuilder builder(info.fileName());
    QStringList warnings;
    CubeDocument doc;
    const ReadJob job { path, {}, QStringLiteral("out of memory (the profile is too large, or corrupt)"), {}, {} };
    return guardedRead(*this, job, builder, warnings, [&]() -> std::optional<ReadError> {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return ReadError { path, 0, -1, QStringLiteral("cannot open: %1").arg(file.errorString()) };
        const QByteArray head = file.read(512);
        file.close();
        // Dense arrays: 16 Mi values, plus 16 per byte of the file (32 x that for gzip, which
        // compresses XML about tenfold).
        const bool gzipped = head.size() >= 2 && isGzipMagic(head.constData());
        doc.cellBudget = (qint64(1) << 24) + 16 * info.size() * (gzipped ? 32 : 1);
        if (isTarHeader(head)) {
            readCubex(path, doc, builder, warnings, progress, options);
        } else if (info.fileName().toLower().endsWith(QLatin1String(".cubex"))) {
            return ReadError { path, 0, 0,
                QStringLiteral("not a tar archive: no 'ustar' magic at byte 257 (expected a .cubex, a tar holding "
                               "anchor.xml)") };
        } else {
            progress.setStage(QStringLiteral("Reading CUBE XML"), info.size());
            readXmlFile(path, doc, warnings, progress, options);
        }
        if (!doc.unknownElements.isEmpty())
            warnings << QStringLiteral("unknown elements were ignored: %1")
                            .arg(doc.unknownElements.join(QStringLiteral(", ")));
        progress.setStage(QStringLiteral("Building the trial"), 0);
        assembleTrial(doc, builder, warnings, progress, options);
        return std::nullopt;
    });
}

} // namespace parallax
