// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The snapshot reader (docs/FORMATS.md 4): finds the inputs (a directory of snapshot.N.C.T files or one
// merged tauprofile.xml[.gz]), parses them in parallel (snapshotparser) and assembles the trial: trial
// ids in the order of definition, one thread per (node, context, thread), the last snapshot as the
// profile and all of them as the time series, the derived blocks as provided statistics.
#include "datasource/readers/snapshotreader.h"

#include "datasource/model/trialbuilder.h"
#include "datasource/readers/snapshotdata.h"
#include "datasource/readers/snapshotparser.h"
#include "datasource/readers/snapshotstream.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <set>

namespace parallax {

using namespace snapshot;

namespace {

/// TAU's merged file in a directory (tauprofile.xml, else tauprofile.xml.gz), or an empty string.
QString mergedFileIn(const QDir& dir)
{
    for (const char* name : { "tauprofile.xml", "tauprofile.xml.gz" })
        if (QFileInfo(dir.filePath(QLatin1String(name))).isFile())
            return dir.filePath(QLatin1String(name));
    return {};
}

std::vector<QString> listSnapshots(const QDir& dir)
{
    std::vector<std::pair<ThreadKey, QString>> found;
    for (const QString& name : dir.entryList({ QStringLiteral("snapshot.*") }, QDir::Files | QDir::Readable)) {
        ThreadKey key;
        if (SnapshotReader::parseSnapshotFileName(name, key))
            found.emplace_back(key, dir.filePath(name));
    }
    std::sort(found.begin(), found.end());
    std::vector<QString> files;
    files.reserve(found.size());
    for (auto& f : found)
        files.push_back(std::move(f.second));
    return files;
}

/// A snapshot's rows with trial ids, metric-major over all `metricCount` metrics; a metric the
/// snapshot has no column for gets `missing`.
IntervalRow finalRow(const Snapshot& s, const std::vector<EventId>& events, const std::vector<MetricId>& metrics,
    std::size_t metricCount, double missing, std::size_t& missingCells)
{
    IntervalRow out;
    const std::size_t n = s.row.events.size();
    const std::size_t k = s.metrics.size();
    out.events.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        out.events[i] = events[s.row.events[i].index()];
    out.calls = s.row.calls;
    out.subrs = s.row.subrs;
    out.excl.assign(metricCount * n, missing);
    out.incl.assign(metricCount * n, missing);
    for (std::size_t c = 0; c < k; ++c) {
        const std::size_t m = metrics[s.metrics[c]].index();
        for (std::size_t i = 0; i < n; ++i) {
            out.excl[m * n + i] = s.row.excl[i * k + c];
            out.incl[m * n + i] = s.row.incl[i * k + c];
        }
    }
    missingCells += (metricCount - k) * n;
    return out;
}

/// The same, taking the snapshot's vectors over when the layouts agree (one metric column).
IntervalRow finalRow(Snapshot&& s, const std::vector<EventId>& events, const std::vector<MetricId>& metrics,
    std::size_t metricCount, std::size_t& missingCells)
{
    if (metricCount != 1 || s.metrics.size() != 1)
        return finalRow(s, events, metrics, metricCount, 0.0, missingCells);
    IntervalRow out;
    out.events = std::move(s.row.events);
    for (auto& e : out.events)
        e = events[e.index()];
    out.calls = std::move(s.row.calls);
    out.subrs = std::move(s.row.subrs);
    out.excl = std::move(s.row.excl);
    out.incl = std::move(s.row.incl);
    return out;
}

AtomicRow finalAtomicRow(Snapshot&& s, const std::vector<AtomicEventId>& atomics)
{
    AtomicRow out = std::move(s.atomicRow);
    for (auto& e : out.events)
        e = atomics[e.index()];
    return out;
}

AtomicRow finalAtomicRow(const Snapshot& s, const std::vector<AtomicEventId>& atomics)
{
    AtomicRow out = s.atomicRow;
    for (auto& e : out.events)
        e = atomics[e.index()];
    return out;
}

/// Counts the cells whose id occurs earlier in the row (TrialBuilder sums or pools them).
template <typename Id>
std::size_t countRepeats(const std::vector<Id>& ids, std::vector<std::uint32_t>& stamp, std::uint32_t& current)
{
    ++current;
    std::size_t repeats = 0;
    for (const Id id : ids) {
        if (id.index() >= stamp.size())
            stamp.resize(id.index() + 1, 0);
        if (stamp[id.index()] == current)
            ++repeats;
        stamp[id.index()] = current;
    }
    return repeats;
}

/// The first cell of each id, and whether the id occurs more than once.
template <typename Id> std::vector<std::pair<std::size_t, bool>> firstCells(const std::vector<Id>& ids)
{
    std::map<Id, std::size_t> first;
    std::vector<std::pair<std::size_t, bool>> cells;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const auto [it, added] = first.emplace(ids[i], cells.size());
        if (added)
            cells.emplace_back(i, false);
        else
            cells[it->second].second = true;
    }
    return cells;
}

/// In a provided statistics row, an event given twice (two definitions with one name) has no single
/// value: one cell stays, with NaN values. Returns the events concerned.
std::vector<EventId> blankRepeats(IntervalRow& row, std::size_t metricCount)
{
    const auto cells = firstCells(row.events);
    std::vector<EventId> blanked;
    if (cells.size() == row.events.size())
        return blanked;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::size_t n = row.events.size();
    const std::size_t m = cells.size();
    IntervalRow out;
    out.excl.resize(metricCount * m);
    out.incl.resize(metricCount * m);
    for (std::size_t j = 0; j < m; ++j) {
        const auto [i, repeated] = cells[j];
        out.events.push_back(row.events[i]);
        out.calls.push_back(repeated ? nan : row.calls[i]);
        out.subrs.push_back(repeated ? nan : row.subrs[i]);
        for (std::size_t metric = 0; metric < metricCount; ++metric) {
            out.excl[metric * m + j] = repeated ? nan : row.excl[metric * n + i];
            out.incl[metric * m + j] = repeated ? nan : row.incl[metric * n + i];
        }
        if (repeated)
            blanked.push_back(row.events[i]);
    }
    row = std::move(out);
    return blanked;
}

std::vector<AtomicEventId> blankRepeats(AtomicRow& row)
{
    const auto cells = firstCells(row.events);
    std::vector<AtomicEventId> blanked;
    if (cells.size() == row.events.size())
        return blanked;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    AtomicRow out;
    for (const auto& [i, repeated] : cells) {
        if (repeated) {
            out.append(row.events[i], nan, nan, nan, nan, nan);
            blanked.push_back(row.events[i]);
        } else {
            out.append(row.events[i], row.count[i], row.max[i], row.min[i], row.mean[i], row.sumSquares[i]);
        }
    }
    row = std::move(out);
    return blanked;
}

/// Parses the inputs and assembles the trial named `name`; `keepSeries`: every thread keeps its
/// snapshots as its time series, even a single one (else only when some thread has several).
TrialResult assembleTrial(const Reader& reader, const QString& path, const QString& name,
    const std::vector<QString>& files, bool keepSeries, const ReadOptions& options, Progress& progress);

} // namespace

bool SnapshotReader::parseSnapshotFileName(const QString& fileName, ThreadKey& key)
{
    return parseThreadFileName(fileName, QLatin1StringView("snapshot."), key);
}

int SnapshotReader::derivedThreadId(const QString& entity)
{
    static const std::pair<const char*, int> ids[]
        = { { "mean_no_null", -1 }, { "total", -2 }, { "stddev_no_null", -3 }, { "min_no_null", -4 },
              { "max_no_null", -5 }, { "mean_all", -6 }, { "stddev_all", -7 } };
    for (const auto& [name, id] : ids)
        if (entity == QLatin1String(name))
            return id;
    return 0;
}

SnapshotReader::SnapshotReader()
    : Reader({ QStringLiteral("snapshot"), QStringLiteral("TAU snapshot / merged XML profile"),
        { QStringLiteral("snapshot.*.*.*"), QStringLiteral("tauprofile.xml"), QStringLiteral("*.xml"),
            QStringLiteral("*.xml.gz") } })
{
}

int SnapshotReader::sniff(const QString& path) const
{
    const QFileInfo info(path);
    ThreadKey key;
    if (info.isDir()) {
        if (directoryHasFile(path, [&](std::string_view name) { return parseThreadFileName(name, "snapshot.", key); }))
            return 100;
        const QString merged = mergedFileIn(QDir(path));
        return merged.isEmpty() ? 0 : sniff(merged);
    }
    if (!info.isFile())
        return 0;
    const bool named = parseSnapshotFileName(info.fileName(), key) || info.fileName() == QLatin1String("tauprofile.xml")
        || info.fileName() == QLatin1String("tauprofile.xml.gz");
    // One of the first 10 lines (gzip-transparent) starts with <profile_xml> (docs/FORMATS.md 4.1).
    SnapshotStream raw(path, SnapshotStream::Mode::Raw, nullptr);
    if (raw.start().isNull()) {
        QByteArray head(4096, '\0');
        qint64 got = 0;
        while (got < head.size()) {
            const qint64 n = raw.read(head.data() + got, head.size() - got);
            if (n <= 0)
                break;
            got += n;
        }
        head.truncate(got);
        const QList<QByteArray> lines = head.split('\n');
        for (qsizetype i = 0; i < std::min<qsizetype>(10, lines.size()); ++i) {
            QByteArray line = lines[i];
            line.replace('\0', QByteArray());
            if (line.startsWith("\xEF\xBB\xBF"))
                line.remove(0, 3);
            line = line.trimmed();
            if (line.startsWith("<?xml")) {
                const qsizetype end = line.indexOf("?>");
                line = end >= 0 ? line.mid(end + 2).trimmed() : QByteArray();
            }
            if (line.startsWith("<profile_xml>") || line.startsWith("<profile_xml ") || line == "<profile_xml")
                return 100;
        }
    }
    return named ? 50 : 0; // named like one: let read() say what is wrong
}

TrialResult SnapshotReader::read(const QString& inputPath, const ReadOptions& options, Progress& progress) const
{
    QFileInfo info(inputPath);
    QString path = inputPath;
    ThreadKey fileKey;
    if (info.isFile() && parseSnapshotFileName(info.fileName(), fileKey)) {
        path = info.absolutePath(); // a snapshot file stands for its whole directory, as profile.N.C.T does
        info = QFileInfo(path);
    }
    std::vector<QString> files;
    if (info.isDir() && listSnapshots(QDir(path)).empty() && !mergedFileIn(QDir(path)).isEmpty()) {
        path = mergedFileIn(QDir(path)); // a directory holding one merged file stands for it
        info = QFileInfo(path);
    }
    if (info.isDir()) {
        files = listSnapshots(QDir(path));
        if (files.empty())
            return ReadError { path, 0, -1,
                QStringLiteral("no TAU snapshot files here: expected files named snapshot.N.C.T (N, C, T non-negative "
                               "integers)") };
    } else if (info.isFile()) {
        files.push_back(path);
    } else {
        return ReadError { path, 0, -1, QStringLiteral("no such file or directory") };
    }
    return assembleTrial(*this, path, info.fileName(), files, false, options, progress);
}

TrialResult SnapshotReader::readFile(const QString& file, const ReadOptions& options, Progress& progress) const
{
    const QFileInfo info(file);
    if (!info.isFile())
        return ReadError { file, 0, -1, QStringLiteral("no such file") };
    return assembleTrial(*this, file, info.dir().dirName(), { file }, true, options, progress);
}

namespace {
TrialResult assembleTrial(const Reader& reader, const QString& path, const QString& name,
    const std::vector<QString>& files, bool keepSeries, const ReadOptions& options, Progress& progress)
{
    qint64 totalBytes = 0;
    for (const QString& f : files)
        totalBytes += QFileInfo(f).size();
    progress.setStage(QStringLiteral("Reading TAU snapshot XML"), totalBytes);

    Names shared;
    std::vector<InputResult> results(files.size());
    std::atomic<std::size_t> nextFile { 0 };
    auto work = [&] {
        while (!progress.isCancelled()) {
            const std::size_t i = nextFile.fetch_add(1);
            if (i >= files.size())
                break;
            parseInput(files[i], shared, progress, results[i]);
        }
    };
    const int workers = std::max(1,
        std::min<int>(
            options.threads > 0 ? options.threads : QThread::idealThreadCount(), static_cast<int>(files.size())));
    std::vector<QFuture<void>> futures;
    for (int w = 1; w < workers; ++w)
        futures.push_back(QtConcurrent::run(work));
    work();
    for (auto& f : futures)
        f.waitForFinished();
    if (progress.isCancelled())
        return ReadError { path, 0, -1, QStringLiteral("cancelled") };

    // Unreadable inputs: fatal for a single file, in strict mode or when nothing is left; else skipped.
    QStringList warnings;
    std::vector<InputResult*> good;
    QStringList reasons;
    for (auto& r : results) {
        if (!r.failed) {
            good.push_back(&r);
            continue;
        }
        if (files.size() == 1 || options.strict)
            return r.error;
        reasons << r.error.toString();
    }
    if (good.empty())
        return results.front().error;
    if (!reasons.isEmpty())
        warnings << QStringLiteral(
            "skipped %1 unreadable snapshot file(s); the trial has the threads of the other %2: %3")
                        .arg(reasons.size())
                        .arg(good.size())
                        .arg(reasons.mid(0, 10).join(QStringLiteral("; "))
                            + (reasons.size() > 10 ? QStringLiteral("; ...") : QString()));

    progress.setStage(QStringLiteral("Building the trial"), 0);
    TrialBuilder builder(name.isEmpty() ? path : name);

    // Trial ids follow the order of definition, input by input: deterministic however the inputs
    // were scheduled.
    std::vector<MetricId> metricIds(shared.metrics.size());
    std::vector<EventId> eventIds(shared.events.size());
    std::vector<AtomicEventId> atomicIds(shared.atomics.size());
    for (const InputResult* r : good) {
        for (const std::uint32_t temp : r->order[0]) {
            if (metricIds[temp].isValid())
                continue;
            const QString& name = shared.metrics.entries()[temp].name;
            metricIds[temp] = builder.addMetric(Metric(
                name, name.toUpper().contains(QLatin1String("TIME")) ? QStringLiteral("us") : QStringLiteral("count")));
        }
        for (const std::uint32_t temp : r->order[1]) {
            if (eventIds[temp].isValid())
                continue;
            const auto& e = shared.events.entries()[temp];
            eventIds[temp] = builder.addEvent(e.name, e.groups, e.raw);
        }
        for (const std::uint32_t temp : r->order[2]) {
            if (!atomicIds[temp].isValid())
                atomicIds[temp]
                    = builder.addAtomicEvent(shared.atomics.entries()[temp].name, shared.atomics.entries()[temp].raw);
        }
    }
    std::size_t metricCount = 0;
    for (const MetricId m : metricIds)
        if (m.isValid())
            metricCount = std::max<std::size_t>(metricCount, m.index() + 1);

    // Threads: one per (node, context, thread) over all inputs.
    std::map<ThreadKey, std::pair<const InputResult*, ThreadData*>> threads;
    for (InputResult* r : good) {
        for (ThreadData& td : r->threads) {
            const auto [it, added] = threads.emplace(td.key, std::make_pair(static_cast<const InputResult*>(r), &td));
            if (!added)
                return ReadError { r->path, 0, -1,
                    QStringLiteral("thread %1 is also in %2: each thread must come from one file")
                        .arg(td.key.toString(), it->second.first->path) };
        }
    }
    const bool series = keepSeries || std::any_of(threads.begin(), threads.end(), [](const auto& t) {
        return t.second.second->snapshots.size() > 1;
    });
    std::vector<IntervalRow> rows;
    std::vector<AtomicRow> atomicRows;
    rows.reserve(threads.size());
    atomicRows.reserve(threads.size());
    std::size_t missingMetricCells = 0;
    std::size_t intervalRepeats = 0;
    std::size_t atomicRepeats = 0;
    std::size_t emptyThreads = 0;
    std::vector<std::uint32_t> eventStamp;
    std::vector<std::uint32_t> atomicStamp;
    std::uint32_t eventCurrent = 0;
    std::uint32_t atomicCurrent = 0;
    for (const auto& [key, source] : threads) {
        const ThreadIndex t = builder.addThread(key);
        ThreadData& td = *source.second;
        for (const auto& [k, v] : td.metadata)
            builder.addThreadMetadata(t, k, v, td.contextKeys.contains(k));
        if (td.snapshots.empty()) {
            rows.emplace_back();
            atomicRows.emplace_back();
            ++emptyThreads;
            continue;
        }
        if (series) {
            std::vector<ProfileSnapshot> points;
            points.reserve(td.snapshots.size());
            for (const Snapshot& s : td.snapshots) {
                std::size_t ignored = 0;
                points.push_back({ s.name, s.timestamp, finalRow(s, eventIds, metricIds, metricCount, 0.0, ignored),
                    finalAtomicRow(s, atomicIds) });
            }
            builder.setTimeSeries(t, std::move(points));
        }
        // The last snapshot is the profile (docs/FORMATS.md 4.1).
        rows.push_back(finalRow(std::move(td.snapshots.back()), eventIds, metricIds, metricCount, missingMetricCells));
        atomicRows.push_back(finalAtomicRow(std::move(td.snapshots.back()), atomicIds));
        td.snapshots.clear();
        intervalRepeats += countRepeats(rows.back().events, eventStamp, eventCurrent);
        atomicRepeats += countRepeats(atomicRows.back().events, atomicStamp, atomicCurrent);
    }
    builder.setIntervalRows(std::move(rows));
    builder.setAtomicRows(std::move(atomicRows));

    // Derived blocks, as the file gives them (docs/FORMATS.md 4.3).
    std::vector<ProvidedStatistic> provided;
    std::set<QString> blankedNames;
    for (const InputResult* r : good) {
        for (const Derived& d : r->derived) {
            ProvidedStatistic p;
            p.name = d.entity;
            p.derivedId = SnapshotReader::derivedThreadId(d.entity);
            std::size_t ignored = 0;
            p.row
                = finalRow(d.data, eventIds, metricIds, metricCount, std::numeric_limits<double>::quiet_NaN(), ignored);
            p.atomicRow = finalAtomicRow(d.data, atomicIds);
            for (const EventId e : blankRepeats(p.row, metricCount))
                blankedNames.insert(shared.events
                                        .entries()[static_cast<std::size_t>(
                                            std::find(eventIds.begin(), eventIds.end(), e) - eventIds.begin())]
                                        .name);
            for (const AtomicEventId e : blankRepeats(p.atomicRow))
                blankedNames.insert(shared.atomics
                                        .entries()[static_cast<std::size_t>(
                                            std::find(atomicIds.begin(), atomicIds.end(), e) - atomicIds.begin())]
                                        .name);
            auto same = std::find_if(
                provided.begin(), provided.end(), [&](const ProvidedStatistic& q) { return q.name == p.name; });
            if (same != provided.end()) {
                warnings << QStringLiteral("%1: the derived data '%2' is given more than once; the last one is kept")
                                .arg(r->path, p.name);
                *same = std::move(p);
            } else {
                provided.push_back(std::move(p));
            }
        }
    }
    if (threads.empty() && provided.empty())
        return ReadError { path, 0, -1,
            QStringLiteral("no thread profiles and no derived data: expected <profile> or <derivedprofile> elements") };
    for (auto& p : provided)
        builder.addProvidedStatistic(std::move(p));

    // Warnings, each once for the whole trial.
    std::map<QString, QString> unknown;
    std::size_t negative = 0;
    QString firstNegative;
    std::size_t sameName[3] = { 0, 0, 0 };
    QStringList sameNameExamples;
    for (const InputResult* r : good) {
        warnings << r->warnings;
        unknown.insert(r->unknownElements.begin(), r->unknownElements.end());
        if (r->negativeValues > 0 && firstNegative.isEmpty())
            firstNegative = r->firstNegative;
        negative += r->negativeValues;
        for (int k = 0; k < 3; ++k)
            sameName[k] += r->sameNameDefinitions[k];
        if (sameNameExamples.size() < 3)
            sameNameExamples << r->sameNameExamples.mid(0, 3 - sameNameExamples.size());
    }
    for (const auto& [element, where] : unknown)
        warnings << QStringLiteral("unknown element <%1> skipped wherever it occurs (first at %2)").arg(element, where);
    if (sameName[1] + sameName[2] > 0)
        warnings << QStringLiteral("%1 event and %2 user event definition(s) repeat a name defined under another id; "
                                   "their data are merged by name (%3)")
                        .arg(sameName[1])
                        .arg(sameName[2])
                        .arg(sameNameExamples.join(QStringLiteral("; ")));
    if (intervalRepeats > 0)
        warnings << QStringLiteral(
            "%1 interval record(s) of events defined twice under one name were summed (calls, subrs, excl, incl)")
                        .arg(intervalRepeats);
    if (atomicRepeats > 0)
        warnings << QStringLiteral("%1 user event record(s) of events defined twice under one name were pooled (count, "
                                   "min, max, mean, sum of squares)")
                        .arg(atomicRepeats);
    if (!blankedNames.empty()) {
        QStringList names;
        for (const QString& n : blankedNames)
            names << QLatin1Char('\'') + n + QLatin1Char('\'');
        warnings << QStringLiteral(
            "the provided statistics of %1 are unknown (NaN): the file gives them per definition, not per name")
                        .arg(names.join(QStringLiteral(", ")));
    }
    if (negative > 0)
        warnings << QStringLiteral("%1 row(s) with negative values, kept as they are (first: %2)")
                        .arg(negative)
                        .arg(firstNegative);
    if (missingMetricCells > 0)
        warnings << QStringLiteral("%1 (thread, event) value(s) have no column for some metric; they are 0")
                        .arg(missingMetricCells);
    if (emptyThreads > 0)
        warnings << QStringLiteral("%1 thread(s) are declared without any profile; they are kept with no events")
                        .arg(emptyThreads);
    return finishRead(reader, ReadJob { path }, builder, warnings);
}
} // namespace

} // namespace parallax