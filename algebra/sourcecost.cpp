// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/sourcecost.h"

#include <QHash>
#include <algorithm>

namespace parallax {

std::shared_ptr<const SourceIndex> SourceIndex::of(const Trial& trial)
{
    return trial.cached<SourceIndex>([](const Trial& t) { return std::make_shared<const SourceIndex>(t); });
}

SourceIndex::SourceIndex(const Trial& trial)
    : m_locations(trial.eventCount())
{
    QHash<QString, std::size_t> fileIndex;
    for (std::size_t i = 0; i < trial.eventCount(); ++i) {
        const IntervalEvent& event = trial.events()[i];
        m_locations[i] = sourceLocationOf(trial, EventId(i));
        // A call path's location is its leaf's, which the flat event of the leaf has too.
        if (!m_locations[i] || event.isCallPath())
            continue;
        auto it = fileIndex.constFind(m_locations[i]->file);
        if (it == fileIndex.constEnd()) {
            it = fileIndex.insert(m_locations[i]->file, m_files.size());
            m_files.push_back({ m_locations[i]->file, 0 });
        }
        ++m_files[it.value()].events;
    }
    std::sort(m_files.begin(), m_files.end(), [](const File& a, const File& b) { return a.name < b.name; });
}

std::vector<std::size_t> SourceFileCosts::eventsAtLine(int line) const
{
    std::vector<std::size_t> out;
    const auto first = std::lower_bound(
        events.begin(), events.end(), line, [](const SourceEventCost& c, int l) { return c.location.beginLine < l; });
    for (auto it = first; it != events.end() && it->location.beginLine == line; ++it)
        out.push_back(static_cast<std::size_t>(it - events.begin()));
    return out;
}

std::ptrdiff_t SourceFileCosts::indexOf(EventId e) const
{
    const auto it = std::find_if(events.begin(), events.end(), [e](const SourceEventCost& c) { return c.event == e; });
    return it == events.end() ? -1 : it - events.begin();
}

SourceFileLookup locateSourceFile(const SourceFileCosts& costs, const SourceSearch& search)
{
    QStringList names { costs.file };
    for (const SourceEventCost& c : costs.events)
        if (!names.contains(c.location.file))
            names << c.location.file;
    SourceFileLookup result;
    for (const QString& name : names) {
        SourceFileLookup one = findSourceFile(name, search);
        for (const QString& path : one.tried)
            if (!result.tried.contains(path))
                result.tried << path;
        if (!one.path.isEmpty()) {
            result.path = one.path;
            break;
        }
    }
    return result;
}

SourceFileCosts sourceFileCosts(const Trial& trial, const QString& file, MetricId metric, Statistic statistic)
{
    SourceFileCosts out;
    out.file = file;
    out.metric = metric;
    out.statistic = statistic;
    if (!metric.isValid() || metric.index() >= trial.metricCount())
        return out;
    const auto index = SourceIndex::of(trial);
    const auto stats = TrialStatistics::of(trial);
    for (std::size_t i = 0; i < trial.eventCount(); ++i) {
        const EventId e(static_cast<std::uint32_t>(i));
        const auto& loc = index->location(e);
        if (!loc || trial.event(e).isCallPath() || !sameSourceFile(loc->file, file))
            continue;
        SourceEventCost cost { e, *loc, 0, 0 };
        cost.exclusive = statisticValue(trial, *stats, e, metric, ValueType::Exclusive, statistic).value_or(0.0);
        cost.inclusive = statisticValue(trial, *stats, e, metric, ValueType::Inclusive, statistic).value_or(0.0);
        out.maxExclusive = std::max(out.maxExclusive, cost.exclusive);
        out.maxInclusive = std::max(out.maxInclusive, cost.inclusive);
        out.events.push_back(std::move(cost));
    }
    std::sort(out.events.begin(), out.events.end(), [](const SourceEventCost& a, const SourceEventCost& b) {
        if (a.location.beginLine != b.location.beginLine)
            return a.location.beginLine < b.location.beginLine;
        return a.inclusive > b.inclusive;
    });
    return out;
}

} // namespace parallax
