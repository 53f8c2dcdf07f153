// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/live/livedirectory.h"

#include "datasource/model/trialbuilder.h"
#include "datasource/readers/readerregistry.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <algorithm>

namespace parallax {

namespace {

/// How a previous trial's ids map onto the new trial's.
struct IdMap {
    std::vector<EventId> events;
    std::vector<AtomicEventId> atomics;
    std::vector<std::ptrdiff_t> metrics; ///< new metric -> previous metric column, or -1
};

IntervalRow remapRow(const RowView& row, const IdMap& map, std::size_t oldMetrics)
{
    IntervalRow out;
    const std::size_t n = row.size();
    const std::size_t haveMetrics = n == 0 ? 0 : std::min(oldMetrics, row.excl.size() / n);
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

AtomicRow remapAtomics(const AtomicRow& row, const IdMap& map)
{
    AtomicRow out = row;
    for (AtomicEventId& e : out.events)
        e = map.atomics[e.index()];
    return out;
}

} // namespace

LiveDirectory::LiveDirectory(QString directory, QString format)
    : m_directory(std::move(directory))
    , m_format(std::move(format))
{
}

std::map<QString, LiveDirectory::Seen> LiveDirectory::scan() const
{
    std::map<QString, Seen> files;
    QDirIterator it(m_directory, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo info = it.fileInfo();
        // Editors' and writers' temporary files are not part of the profile.
        if (info.fileName().startsWith(QLatin1Char('.')) || info.fileName().endsWith(QLatin1Char('~')))
            continue;
        files[QDir(m_directory).relativeFilePath(info.filePath())] = { info.size(), info.lastModified() };
    }
    return files;
}

LiveDirectory::Update LiveDirectory::poll()
{
    Update update;
    const std::map<QString, Seen> now = scan();
    // What changed since the last read, and whether each change has settled since the last poll.
    bool changed = now.size() != m_lastRead.size();
    for (const auto& [name, seen] : now) {
        const auto read = m_lastRead.find(name);
        if (read != m_lastRead.end() && read->second == seen)
            continue;
        changed = true;
        const auto before = m_lastPoll.find(name);
        if (before == m_lastPoll.end() || !(before->second == seen) || seen.size == 0)
            update.waitingOn << name;
    }
    m_lastPoll = now;
    if (!changed || now.empty() || !update.waitingOn.isEmpty())
        return update;

    ReadOptions options;
    options.strict = true; // a half-written file fails the read instead of being skipped
    options.useCache = false;
    Progress progress;
    auto read = ReaderRegistry::instance().read(m_directory, options, progress, m_format);
    if (!read) {
        update.error = read.error().toString();
        const QString file = read.error().file;
        update.waitingOn << (file.isEmpty() ? m_directory : QDir(m_directory).relativeFilePath(file));
        return update;
    }
    QDateTime newest;
    for (const auto& [name, seen] : now)
        newest = std::max(newest, seen.modified);
    const std::shared_ptr<Trial> latest = read.value();
    m_lastRead = now;
    ++m_updates;
    m_trial = latest->hasTimeSeries() || !m_trial ? latest : appendProfile(*latest, newest);
    m_lastReadTime = newest;
    update.trial = m_trial;
    return update;
}

std::shared_ptr<const Trial> LiveDirectory::appendProfile(const Trial& latest, const QDateTime& time) const
{
    const Trial& previous = *m_trial;
    TrialBuilder builder(latest.name());
    Provenance provenance = latest.provenance();
    provenance.options << QStringLiteral("live");
    builder.setProvenance(provenance);
    builder.addDefinitionsOf(latest);
    // The previous trial's events, user events and metrics by name in the new one's ids (an event
    // the new profile lacks keeps its place: TAU's dumps are cumulative, so none should vanish).
    IdMap map;
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
            series.push_back({ QStringLiteral("update 1"), m_lastReadTime.toMSecsSinceEpoch() * 1000,
                remapRow(previous.row(old), map, previous.metricCount()), remapAtomics(previous.atomicRow(old), map) });
        }
        // A thread that appeared later starts with empty snapshots, so the indexes stay aligned.
        while (series.size() < earlier)
            series.insert(series.begin(),
                ProfileSnapshot {
                    QStringLiteral("update %1").arg(earlier - series.size()), 0, IntervalRow(), AtomicRow() });
        series.push_back(
            { QStringLiteral("update %1").arg(earlier + 1), time.toMSecsSinceEpoch() * 1000, rows[t], atomics[t] });
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
