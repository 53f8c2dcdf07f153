// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/live/snapshotappend.h"

#include "datasource/live/threadmerge.h"
#include "datasource/model/trialbuilder.h"

#include <algorithm>

namespace parallax {

std::shared_ptr<const Trial> appendSnapshot(const Trial& previous, const Trial& latest,
    const SnapshotStamp& previousStamp, const SnapshotStamp& latestStamp, const QStringList& provenanceOptions)
{
    TrialBuilder builder(latest.name());
    Provenance provenance = latest.provenance();
    provenance.options << provenanceOptions;
    builder.setProvenance(provenance);
    builder.addDefinitionsOf(latest);
    // The previous trial's events, user events and metrics by name in the new one's ids (an event
    // the new profile lacks keeps its place: TAU's dumps are cumulative, so none should vanish).
    TrialIdMap map;
    for (std::size_t e = 0; e < previous.eventCount(); ++e) {
        const IntervalEvent& event = previous.event(EventId(e));
        QStringList groups;
        for (const GroupId g : event.groups)
            groups << previous.groupName(g);
        map.events.push_back(builder.addEvent(event.name, groups, event.rawName));
    }
    for (std::size_t u = 0; u < previous.atomicEventCount(); ++u)
        map.atomics.push_back(builder.addAtomicEvent(previous.atomicEvent(AtomicEventId(u)).name));
    for (std::size_t m = 0; m < latest.metricCount(); ++m) {
        const MetricId old = previous.findMetric(latest.metric(MetricId(m)).name);
        map.metrics.push_back(old.isValid() ? static_cast<std::ptrdiff_t>(old.index()) : -1);
    }

    // The previous snapshots of each thread, then the new profile as the next one.
    std::size_t earlier = 1;
    for (std::size_t t = 0; t < previous.threadCount(); ++t)
        earlier = std::max(earlier, previous.timeSeries(ThreadIndex(t)).size());
    std::vector<IntervalRow> rows(latest.threadCount());
    std::vector<AtomicRow> atomics(latest.threadCount());
    for (std::size_t t = 0; t < latest.threadCount(); ++t) {
        const ThreadIndex ti(t);
        const ThreadIndex builderThread = builder.addThread(latest.threadKey(ti));
        rows[t] = latest.row(ti).toRow();
        atomics[t] = latest.atomicRow(ti);
        std::vector<ProfileSnapshot> series;
        const ThreadIndex old = previous.findThread(latest.threadKey(ti));
        if (old.isValid() && previous.hasTimeSeries()) {
            for (const ProfileSnapshot& s : previous.timeSeries(old))
                series.push_back({ s.name, s.timestamp, remapRow(s.row, map, previous.metricCount()),
                    remapAtomics(s.atomicRow, map) });
        } else if (old.isValid()) {
            series.push_back({ previousStamp.name, previousStamp.timestamp,
                remapRow(previous.row(old), map, previous.metricCount()), remapAtomics(previous.atomicRow(old), map) });
        }
        // A thread that appeared later starts with empty snapshots, so the indexes stay aligned.
        while (series.size() < earlier)
            series.insert(series.begin(),
                ProfileSnapshot {
                    QStringLiteral("update %1").arg(earlier - series.size()), 0, IntervalRow(), AtomicRow() });
        series.push_back({ latestStamp.name.isEmpty() ? QStringLiteral("update %1").arg(earlier + 1) : latestStamp.name,
            latestStamp.timestamp, rows[t], atomics[t] });
        builder.setTimeSeries(builderThread, std::move(series));
    }
    builder.setIntervalRows(std::move(rows));
    builder.setAtomicRows(std::move(atomics));
    const StringPool& strings = latest.strings();
    for (const MetadataEntry& e : latest.metadata())
        builder.addMetadata(strings.get(e.key), strings.get(e.value));
    for (std::size_t t = 0; t < latest.threadCount(); ++t)
        for (const MetadataEntry& e : latest.threadMetadata(ThreadIndex(t)))
            builder.addThreadMetadata(ThreadIndex(t), strings.get(e.key), strings.get(e.value), true);
    for (const QString& warning : latest.warnings())
        builder.addWarning(warning);
    return builder.build();
}

} // namespace parallax
