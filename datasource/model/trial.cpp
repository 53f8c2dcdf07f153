// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/model/trial.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace parallax {

std::ptrdiff_t AtomicRow::find(AtomicEventId e) const
{
    const auto it = std::lower_bound(events.begin(), events.end(), e);
    if (it == events.end() || *it != e)
        return -1;
    return it - events.begin();
}

double AtomicRow::stddev(std::size_t i) const
{
    if (i < stdDev.size())
        return stdDev[i];
    const double n = count[i];
    if (n <= 1)
        return 0.0;
    const double v = sumSquares[i] / n - mean[i] * mean[i];
    return v > 0 ? std::sqrt(v) : 0.0;
}

MetricId Trial::findMetric(const QString& name) const
{
    for (std::size_t i = 0; i < m_metrics.size(); ++i)
        if (m_metrics[i].name == name)
            return MetricId(i);
    return MetricId();
}

ThreadIndex Trial::findThread(const ThreadKey& key) const
{
    const auto it = std::lower_bound(m_threads.begin(), m_threads.end(), key);
    if (it == m_threads.end() || *it != key)
        return ThreadIndex();
    return ThreadIndex(static_cast<std::size_t>(it - m_threads.begin()));
}

std::size_t Trial::nodeCount() const
{
    std::size_t count = 0;
    for (std::size_t i = 0; i < m_threads.size(); ++i)
        if (i == 0 || m_threads[i].node != m_threads[i - 1].node)
            ++count;
    return count;
}

EventId Trial::findEvent(const QString& canonicalName) const { return m_eventIndex.value(canonicalName, EventId()); }

std::optional<SourceLocation> sourceLocationOf(const Trial& trial, EventId e)
{
    if (const SourceLocation* recorded = trial.recordedSourceLocation(e))
        return *recorded;
    return parseSourceLocation(trial.event(e).name);
}

AtomicEventId Trial::findAtomicEvent(const QString& name) const { return m_atomicIndex.value(name, AtomicEventId()); }

GroupId Trial::findGroup(const QString& name) const
{
    for (std::size_t i = 0; i < m_groups.size(); ++i)
        if (m_groups[i] == name)
            return GroupId(i);
    return GroupId();
}

QStringList Trial::groupNames(const IntervalEvent& e) const
{
    QStringList names;
    names.reserve(static_cast<qsizetype>(e.groups.size()));
    for (const GroupId g : e.groups)
        names << groupName(g);
    return names;
}

bool Trial::eventInGroup(EventId e, const QString& group) const
{
    const GroupId g = findGroup(group);
    if (!g.isValid())
        return false;
    const auto& groups = m_events[e.index()].groups;
    return std::find(groups.begin(), groups.end(), g) != groups.end();
}

QString Trial::metadataValue(const QString& key, ThreadIndex t) const
{
    const StringId k = m_strings.find(key);
    if (!k.isValid())
        return {};
    if (t.isValid()) {
        for (const auto& entry : m_threadMetadata[t.index()])
            if (entry.key == k)
                return m_strings.get(entry.value);
    }
    for (const auto& entry : m_metadata)
        if (entry.key == k)
            return m_strings.get(entry.value);
    return {};
}

const ProvidedStatistic* Trial::providedStatistic(int derivedId) const
{
    for (const auto& statistic : m_providedStatistics)
        if (statistic.derivedId == derivedId)
            return &statistic;
    return nullptr;
}

const std::vector<ProfileSnapshot>& Trial::timeSeries(ThreadIndex t) const
{
    static const std::vector<ProfileSnapshot> none;
    return t.index() < m_timeSeries.size() ? m_timeSeries[t.index()] : none;
}

Trial::CacheSlot& Trial::cacheSlot(std::type_index type) const
{
    std::lock_guard lock(m_cacheMutex);
    auto& slot = m_cache[type];
    if (!slot)
        slot = std::make_unique<CacheSlot>();
    return *slot;
}

} // namespace parallax
