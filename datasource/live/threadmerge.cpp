// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/live/threadmerge.h"

#include "datasource/model/trialbuilder.h"

#include <QHash>
#include <algorithm>
#include <map>
#include <tuple>

namespace parallax {

IntervalRow remapRow(const RowView& row, const TrialIdMap& map, std::size_t sourceMetrics)
{
    IntervalRow out;
    const std::size_t n = row.size();
    const std::size_t haveMetrics = n == 0 ? 0 : std::min(sourceMetrics, row.excl.size() / n);
    out.events.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        out.events.push_back(map.events[row.events[i].index()]);
        out.calls.push_back(row.calls[i]);
        out.subrs.push_back(row.subrs[i]);
    }
    out.excl.assign(map.metrics.size() * n, 0.0);
    out.incl.assign(map.metrics.size() * n, 0.0);
    for (std::size_t m = 0; m < map.metrics.size(); ++m) {
        const std::ptrdiff_t old = map.metrics[m];
        if (old < 0 || static_cast<std::size_t>(old) >= haveMetrics)
            continue;
        for (std::size_t i = 0; i < n; ++i) {
            out.excl[m * n + i] = row.exclusive(static_cast<std::size_t>(old), i);
            out.incl[m * n + i] = row.inclusive(static_cast<std::size_t>(old), i);
        }
    }
    return out;
}

AtomicRow remapAtomics(const AtomicRow& row, const TrialIdMap& map)
{
    AtomicRow out = row;
    for (AtomicEventId& e : out.events)
        e = map.atomics[e.index()];
    return out;
}

namespace {

/// Each warning once; warnings that differ only in a leading count ("2 duplicate user event records
/// were merged ...") become one with the sum, as the reader counts over all files.
QStringList joinedWarnings(const QStringList& warnings)
{
    QStringList out;
    std::vector<std::pair<qint64, QString>> counted; // (sum, rest) by place in `out`, or (-1, {})
    for (const QString& w : warnings) {
        const qsizetype space = w.indexOf(QLatin1Char(' '));
        bool number = false;
        const qint64 n = space > 0 ? w.left(space).toLongLong(&number) : 0;
        const QString rest = number ? w.mid(space) : QString();
        const auto same = std::find_if(counted.begin(), counted.end(), [&](const auto& c) {
            return number ? c.first >= 0 && c.second == rest : c.first < 0 && out[&c - counted.data()] == w;
        });
        if (same == counted.end()) {
            out << w;
            counted.emplace_back(number ? n : -1, rest);
        } else if (number) {
            same->first += n;
            out[same - counted.begin()] = QString::number(same->first) + rest;
        }
    }
    return out;
}

} // namespace

std::shared_ptr<Trial> mergeThreads(
    const QString& name, const Provenance& provenance, const std::vector<const Trial*>& parts, QString* error)
{
    TrialBuilder builder(name);
    builder.setProvenance(provenance);
    // Definitions part by part, each in its own id order: the order of first appearance.
    for (const Trial* part : parts)
        for (std::size_t m = 0; m < part->metricCount(); ++m)
            builder.addMetric(part->metric(MetricId(m)));
    std::vector<TrialIdMap> maps(parts.size());
    // Most parts define the same events: each name (with its groups) goes to the builder once.
    QHash<QString, std::pair<EventId, QStringList>> knownEvents;
    QHash<QString, AtomicEventId> knownAtomics;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        const Trial& part = *parts[p];
        TrialIdMap& map = maps[p];
        map.events.reserve(part.eventCount());
        for (std::size_t e = 0; e < part.eventCount(); ++e) {
            const IntervalEvent& event = part.event(EventId(e));
            auto known = knownEvents.find(event.name);
            const auto sameGroups = [&] {
                const QStringList& names = known->second;
                return std::equal(names.begin(), names.end(), event.groups.begin(), event.groups.end(),
                    [&](const QString& n, GroupId g) { return n == part.groupName(g); });
            };
            if (known == knownEvents.end() || !sameGroups()) {
                QStringList groups = part.groupNames(event);
                const EventId id = builder.addEvent(event.name, groups, event.rawName);
                known = knownEvents.insert(event.name, { id, std::move(groups) });
            }
            map.events.push_back(known->first);
        }
        map.atomics.reserve(part.atomicEventCount());
        for (std::size_t u = 0; u < part.atomicEventCount(); ++u) {
            const AtomicEvent& event = part.atomicEvent(AtomicEventId(u));
            auto known = knownAtomics.find(event.name);
            if (known == knownAtomics.end())
                known = knownAtomics.insert(event.name, builder.addAtomicEvent(event.name, event.rawName));
            map.atomics.push_back(*known);
        }
    }
    // The metric columns, now that every part's metrics are in.
    {
        std::vector<QString> metricNames;
        for (const Trial* part : parts)
            for (std::size_t m = 0; m < part->metricCount(); ++m)
                if (std::find(metricNames.begin(), metricNames.end(), part->metric(MetricId(m)).name)
                    == metricNames.end())
                    metricNames.push_back(part->metric(MetricId(m)).name);
        for (std::size_t p = 0; p < parts.size(); ++p)
            for (const QString& metric : metricNames) {
                const MetricId own = parts[p]->findMetric(metric);
                maps[p].metrics.push_back(own.isValid() ? static_cast<std::ptrdiff_t>(own.index()) : -1);
            }
    }

    // Threads in key order, each from the one part that has it.
    std::vector<std::tuple<ThreadKey, std::size_t, ThreadIndex>> threads;
    bool series = false;
    for (std::size_t p = 0; p < parts.size(); ++p)
        for (std::size_t t = 0; t < parts[p]->threadCount(); ++t) {
            threads.emplace_back(parts[p]->threadKey(ThreadIndex(t)), p, ThreadIndex(t));
            series = series || parts[p]->timeSeries(ThreadIndex(t)).size() > 1;
        }
    std::sort(
        threads.begin(), threads.end(), [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
    for (std::size_t i = 1; i < threads.size(); ++i)
        if (std::get<0>(threads[i - 1]) == std::get<0>(threads[i])) {
            if (error)
                *error = QStringLiteral("thread %1 is in two files").arg(std::get<0>(threads[i]).toString());
            return nullptr;
        }
    builder.reserveThreads(threads.size());
    std::vector<IntervalRow> rows;
    std::vector<AtomicRow> atomics;
    rows.reserve(threads.size());
    atomics.reserve(threads.size());
    for (const auto& [key, p, t] : threads) {
        const Trial& part = *parts[p];
        const TrialIdMap& map = maps[p];
        const ThreadIndex thread = builder.addThread(key);
        rows.push_back(remapRow(part.row(t), map, part.metricCount()));
        atomics.push_back(remapAtomics(part.atomicRow(t), map));
        if (series) {
            std::vector<ProfileSnapshot> points;
            for (const ProfileSnapshot& s : part.timeSeries(t))
                points.push_back({ s.name, s.timestamp, remapRow(RowView(s.row), map, part.metricCount()),
                    remapAtomics(s.atomicRow, map) });
            builder.setTimeSeries(thread, std::move(points));
        }
        // The part's trial-wide keys are the thread's own when the part has one thread; the keys the
        // part keeps per thread stay so (TrialBuilder chooses the trial-wide keys again).
        const StringPool& strings = part.strings();
        if (part.threadCount() == 1)
            for (const MetadataEntry& e : part.metadata())
                builder.addThreadMetadata(thread, strings.get(e.key), strings.get(e.value));
        for (const MetadataEntry& e : part.threadMetadata(t))
            builder.addThreadMetadata(thread, strings.get(e.key), strings.get(e.value), part.threadCount() == 1);
    }
    builder.setIntervalRows(std::move(rows));
    builder.setAtomicRows(std::move(atomics));
    // A part with several threads: its trial-wide keys apply to all of them.
    for (std::size_t p = 0; p < parts.size(); ++p)
        if (parts[p]->threadCount() > 1)
            for (const MetadataEntry& e : parts[p]->metadata())
                builder.addMetadata(parts[p]->strings().get(e.key), parts[p]->strings().get(e.value));

    std::vector<ProvidedStatistic> provided;
    QStringList warnings;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        for (const ProvidedStatistic& s : parts[p]->providedStatistics()) {
            ProvidedStatistic mine { s.name, s.derivedId, remapRow(RowView(s.row), maps[p], parts[p]->metricCount()),
                remapAtomics(s.atomicRow, maps[p]) };
            const auto same = std::find_if(
                provided.begin(), provided.end(), [&](const ProvidedStatistic& q) { return q.name == s.name; });
            if (same != provided.end())
                *same = std::move(mine);
            else
                provided.push_back(std::move(mine));
        }
        warnings << parts[p]->warnings();
    }
    for (ProvidedStatistic& s : provided)
        builder.addProvidedStatistic(std::move(s));
    for (const QString& w : joinedWarnings(warnings))
        builder.addWarning(w);
    return builder.build();
}

} // namespace parallax
