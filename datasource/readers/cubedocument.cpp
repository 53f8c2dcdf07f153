// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The CUBE document's checks once its structure is read (unique ids, callees that exist, locations in
// Id order) and the budget for its dense value arrays (docs/FORMATS.md 5).
//
// Limits, so that a corrupt file cannot exhaust memory: the dense value arrays (cnodes x locations
// per metric with data) may hold 16 Mi values plus 16 per byte of the file (x32 for gzip), the
// trial's cells likewise; at most 4096 metrics; call-path names up to 2^27 characters in all. Real
// profiles stay far below; beyond them the read fails and says why.

#include "datasource/readers/cubedocument.h"

#include <algorithm>

namespace parallax::cube {

namespace {

/// Upper bound on cnodes x locations: beyond it the dense value arrays could not be allocated.
constexpr qint64 MaxCells = qint64(1) << 31;

/// Fills `byId` (id -> position) from `items`, whose ids must be unique, and calls each(item) in
/// order; `what` names the items in the error.
template <typename T, typename Each>
void indexById(std::vector<T>& items, qint64 T::*line, const char* what, const QString& member,
    QHash<qint64, int>& byId, const Each& each)
{
    for (std::size_t i = 0; i < items.size(); ++i) {
        T& item = items[i];
        if (byId.contains(item.id))
            parseFail(QStringLiteral("%1: %2 id %3 is defined twice (expected unique %2 ids)")
                          .arg(where(member, item.*line), QLatin1String(what))
                          .arg(item.id),
                item.*line);
        byId.insert(item.id, static_cast<int>(i));
        each(item);
    }
}

} // namespace

QString where(const QString& member, qint64 line)
{
    return member.isEmpty() ? QStringLiteral("line %1").arg(line) : QStringLiteral("%1 line %2").arg(member).arg(line);
}

void finalizeStructure(CubeDocument& doc, const QString& member)
{
    if (doc.finalized)
        return;
    doc.finalized = true;
    if (doc.metrics.size() > MaxMetrics)
        parseFail(QStringLiteral("%1 metrics: more than this reader accepts (%2; corrupt file?)")
                      .arg(doc.metrics.size())
                      .arg(MaxMetrics));
    indexById(doc.metrics, &CubeMetric::line, "metric", member, doc.metricById, [](CubeMetric&) {});
    QHash<qint64, int> regionById;
    indexById(doc.regions, &CubeRegion::line, "region", member, regionById, [](CubeRegion& r) {
        bool ok = false;
        r.begin = parseInteger(r.beginText, &ok);
        if (!ok)
            r.begin = -1;
        r.end = parseInteger(r.endText, &ok);
        if (!ok)
            r.end = -1;
    });
    indexById(doc.cnodes, &CubeCnode::xmlLine, "cnode", member, doc.cnodeById, [&](CubeCnode& c) {
        const auto it = regionById.constFind(c.calleeId);
        if (it == regionById.cend())
            parseFail(QStringLiteral("%1: cnode %2 calls region %3, which is not defined (expected the id of a "
                                     "<region>)")
                          .arg(where(member, c.xmlLine))
                          .arg(c.id)
                          .arg(c.calleeId),
                c.xmlLine);
        c.region = it.value();
    });
    std::stable_sort(
        doc.locations.begin(), doc.locations.end(), [](const Location& a, const Location& b) { return a.id < b.id; });
    for (std::size_t i = 1; i < doc.locations.size(); ++i)
        if (doc.locations[i].id == doc.locations[i - 1].id)
            parseFail(QStringLiteral("%1: location (thread) Id %2 is defined twice (expected unique Ids)")
                          .arg(where(member, doc.locations[i].line))
                          .arg(doc.locations[i].id),
                doc.locations[i].line);
    if (static_cast<qint64>(doc.cnodes.size()) * static_cast<qint64>(doc.locations.size()) > MaxCells)
        parseFail(QStringLiteral("%1 cnodes x %2 locations is more than this reader can hold")
                      .arg(doc.cnodes.size())
                      .arg(doc.locations.size()));
}

void allocateStored(CubeDocument& doc, CubeMetric& m)
{
    if (!m.stored.empty())
        return;
    const auto cells = static_cast<qint64>(doc.cellCount());
    if (doc.cellsAllocated + cells > doc.cellBudget)
        parseFail(QStringLiteral("the values of %1 metric(s) need %2 cnodes x %3 locations each, more than this reader "
                                 "allows for a file of this size (corrupt file, or too large a profile)")
                      .arg(doc.cellsAllocated / std::max<qint64>(cells, 1) + 1)
                      .arg(doc.cnodes.size())
                      .arg(doc.locations.size()));
    doc.cellsAllocated += cells;
    m.stored.assign(static_cast<std::size_t>(cells), 0.0);
}

void dataWarning(QStringList& warnings, const QString& w, const ReadOptions& options)
{
    if (options.strict)
        parseFail(w + QStringLiteral(" (strict mode)"));
    warnings << w;
}

} // namespace parallax::cube
