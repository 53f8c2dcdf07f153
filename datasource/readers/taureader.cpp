// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/taureader.h"

#include "datasource/model/names.h"
#include "datasource/model/poolwait.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/taufiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>
#include <QtConcurrent/QtConcurrentMap>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace parallax {

namespace {

using namespace taufiles;

struct MetricDir {
    QString label; // "" for a single-metric directory, else the MULTI__ directory name
    std::vector<FileWork> files;
};

QString fileLabel(const QString& path)
{
    const QFileInfo info(path);
    return info.dir().dirName() + QLatin1Char('/') + info.fileName();
}

/// Parses the listed files and assembles the trial of `path` (the directory read() lists, or the
/// directory of the one file readFile() reads).
TrialResult assembleTrial(const Reader& reader, const QString& path, std::vector<MetricDir>& metricDirs,
    const ReadOptions& options, Progress& progress);
} // namespace

bool TauReader::parseProfileFileName(const QString& fileName, ThreadKey& key)
{
    return parseThreadFileName(fileName, QLatin1StringView("profile."), key);
}

QString TauReader::metricNameFromHeader(const QString& firstLine)
{
    const QByteArray utf8 = firstLine.toUtf8();
    return taufiles::metricFromLineOne(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())));
}

TauReader::TauReader()
    : Reader({ QStringLiteral("tau"), QStringLiteral("TAU profile directory (profile.N.C.T, MULTI__*)"),
        { QStringLiteral("profile.*.*.*") } })
{
}

int TauReader::sniff(const QString& path) const
{
    const QFileInfo info(path);
    ThreadKey key;
    if (info.isFile())
        return parseProfileFileName(info.fileName(), key) ? 90 : 0;
    if (!info.isDir())
        return 0;
    if (directoryHasFile(path, [&](std::string_view name) { return parseThreadFileName(name, "profile.", key); }))
        return 100;
    const QDir dir(path);
    // Case-sensitive (QDir matches name filters case-insensitively by default): Extra-P's scaling
    // sets have "multi_parameter/" folders of CUBE profiles, which are no TAU metric directories.
    if (!dir.entryList({ QStringLiteral("MULTI_*") }, QDir::Dirs | QDir::NoDotAndDotDot | QDir::CaseSensitive)
             .isEmpty())
        return 100;
    return 1; // any directory: TAU is the directory format, and its error says what is missing
}

TrialResult TauReader::read(const QString& inputPath, const ReadOptions& options, Progress& progress) const
{
    QFileInfo info(inputPath);
    QString path = inputPath;
    if (info.isFile()) {
        ThreadKey key;
        if (!parseProfileFileName(info.fileName(), key))
            return ReadError { inputPath, 0, -1,
                QStringLiteral("not a TAU profile file: expected a name like profile.0.0.0") };
        path = info.absolutePath(); // a profile file stands for its whole directory
        info = QFileInfo(path);
    }
    if (!info.isDir())
        return ReadError { path, 0, -1, QStringLiteral("not a directory") };
    const QDir dir(path);

    progress.setStage(QStringLiteral("Listing TAU profiles"), 0);
    // Discover the metric directories (docs/FORMATS.md 1.1).
    std::vector<MetricDir> metricDirs;
    std::vector<FileWork> single = listProfiles(path);
    if (!single.empty()) {
        metricDirs.push_back({ QString(), std::move(single) });
    } else {
        QStringList multi = dir.entryList(
            { QStringLiteral("MULTI_*") }, QDir::Dirs | QDir::NoDotAndDotDot | QDir::CaseSensitive, QDir::Name);
        for (const QString& sub : multi) {
            auto files = listProfiles(dir.filePath(sub));
            if (files.empty())
                return ReadError { dir.filePath(sub), 0, -1,
                    QStringLiteral("metric directory without profile.N.C.T files") };
            metricDirs.push_back({ sub, std::move(files) });
        }
    }
    if (metricDirs.empty()) {
        const QStringList all = dir.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
        if (all.isEmpty())
            return ReadError { path, 0, -1,
                QStringLiteral("the directory is empty; expected TAU profile files profile.N.C.T or MULTI__<metric> "
                               "directories") };
        QStringList shown = all.mid(0, 5);
        return ReadError { path, 0, -1,
            QStringLiteral("no TAU profiles here: expected files named profile.N.C.T (N, C, T non-negative integers) "
                           "or MULTI__<metric> directories; found %1%2")
                .arg(shown.join(QStringLiteral(", ")), all.size() > 5 ? QStringLiteral(", ...") : QString()) };
    }
    return assembleTrial(*this, path, metricDirs, options, progress);
}

TrialResult TauReader::readFile(const QString& file, const ReadOptions& options, Progress& progress) const
{
    const QFileInfo info(file);
    ThreadKey key;
    if (!info.isFile() || !parseProfileFileName(info.fileName(), key))
        return ReadError { file, 0, -1, QStringLiteral("not a TAU profile file: expected a name like profile.0.0.0") };
    std::vector<MetricDir> metricDirs { { QString(), { FileWork { key, QFile::encodeName(info.filePath()) } } } };
    return assembleTrial(*this, info.absolutePath(), metricDirs, options, progress);
}

namespace {
TrialResult assembleTrial(const Reader& reader, const QString& path, std::vector<MetricDir>& metricDirs,
    const ReadOptions& options, Progress& progress)
{
    qint64 totalFiles = 0;
    for (const auto& md : metricDirs)
        totalFiles += static_cast<qint64>(md.files.size());
    progress.setStage(QStringLiteral("Reading TAU profiles"), totalFiles);

    Shared shared;
    std::vector<std::vector<FileResult>> results;
    // One metric directory (nearly always): the workers pack each row as soon as it is parsed, so the
    // trial's cells exist once (docs/ARCHITECTURE.md, the trial's cells). Several: rows are merged first.
    const bool packRows = metricDirs.size() == 1;
    std::vector<RowStore::Writer> writers;
    std::vector<std::vector<IntervalRow>> unpacked(metricDirs.size()); // the rows, when not packed
    for (std::size_t d = 0; d < metricDirs.size(); ++d) {
        results.push_back(parseFiles(metricDirs[d].files, shared, options, progress, packRows ? &writers : nullptr,
            packRows ? nullptr : &unpacked[d]));
        if (progress.isCancelled())
            return ReadError { path, 0, -1, QStringLiteral("cancelled") };
    }
    const std::vector<FileWork>& files = metricDirs[0].files;

    TrialBuilder builder(QFileInfo(path).fileName().isEmpty() ? path : QFileInfo(path).fileName());
    QStringList warnings;

    // Failed files: fatal in strict mode or when nothing is left, else skipped with a warning.
    std::set<ThreadKey> dropped;
    for (std::size_t d = 0; d < results.size(); ++d) {
        for (std::size_t i = 0; i < results[d].size(); ++i) {
            if (!results[d][i].failed)
                continue;
            if (options.strict)
                return results[d][i].notes->error;
            dropped.insert(metricDirs[d].files[i].key);
        }
    }
    // Metric names: one per directory, all directories distinct.
    std::vector<QString> metricNames;
    for (std::size_t d = 0; d < results.size(); ++d) {
        QString name;
        QString namedBy;
        std::uint32_t nameId = 0;
        for (std::size_t i = 0; i < results[d].size(); ++i) {
            const FileResult& r = results[d][i];
            if (r.failed)
                continue;
            if (name.isNull()) {
                name = qs(shared.strings.get(r.metricName));
                nameId = r.metricName;
                namedBy = metricDirs[d].files[i].path();
            } else if (r.metricName != nameId) {
                const QString filePath = metricDirs[d].files[i].path();
                return ReadError { QFileInfo(filePath).absolutePath(), 0, -1,
                    QStringLiteral(
                        "a mix of metrics that cannot be merged into one trial: %1 measures '%2' but %3 measures '%4'")
                        .arg(fileLabel(namedBy), name, fileLabel(filePath), qs(shared.strings.get(r.metricName))) };
            }
        }
        for (std::size_t e = 0; e < metricNames.size(); ++e) {
            if (!name.isNull() && metricNames[e] == name)
                return ReadError { path, 0, -1,
                    QStringLiteral("a mix of metrics that cannot be merged: %1 and %2 both hold metric '%3'")
                        .arg(metricDirs[e].label, metricDirs[d].label, name) };
        }
        metricNames.push_back(name);
    }
    // Thread sets must agree across metric directories.
    if (results.size() > 1) {
        std::set<ThreadKey> first;
        for (const auto& f : metricDirs[0].files)
            first.insert(f.key);
        for (std::size_t d = 1; d < metricDirs.size(); ++d) {
            std::set<ThreadKey> keys;
            for (const auto& f : metricDirs[d].files)
                keys.insert(f.key);
            if (keys != first) {
                std::vector<ThreadKey> diff;
                std::set_symmetric_difference(
                    first.begin(), first.end(), keys.begin(), keys.end(), std::back_inserter(diff));
                const ThreadKey k = diff.front();
                const bool inFirst = first.count(k) > 0;
                return ReadError { path, 0, -1,
                    QStringLiteral("a mix of metrics that cannot be merged: %1 has profile.%2.%3.%4 but %5 does not")
                        .arg(inFirst ? metricDirs[0].label : metricDirs[d].label)
                        .arg(k.node)
                        .arg(k.context)
                        .arg(k.thread)
                        .arg(inFirst ? metricDirs[d].label : metricDirs[0].label) };
            }
        }
    }
    std::size_t goodThreads = 0;
    for (const auto& f : files)
        if (!dropped.count(f.key))
            ++goodThreads;
    if (goodThreads == 0) {
        for (const auto& r : results[0])
            if (r.failed)
                return r.notes->error;
    }
    if (!dropped.empty()) {
        QStringList reasons;
        for (const auto& dirResults : results)
            for (const auto& r : dirResults)
                if (r.failed)
                    reasons << r.notes->error.toString();
        warnings << QStringLiteral("skipped %1 unreadable profile file(s); the trial has the other %2 thread(s): %3")
                        .arg(reasons.size())
                        .arg(goodThreads)
                        .arg(reasons.mid(0, 10).join(QStringLiteral("; "))
                            + (reasons.size() > 10 ? QStringLiteral("; ...") : QString()));
    }

    for (const QString& m : metricNames) {
        Metric metric;
        metric.name = m.isNull() ? QStringLiteral("Time") : m;
        metric.unit
            = metric.name.toUpper().contains(QLatin1String("TIME")) ? QStringLiteral("us") : QStringLiteral("count");
        builder.addMetric(metric);
    }

    // Event ids follow first appearance, scanning the files in thread order: deterministic, and
    // rows that list events in the same order as earlier files need no sorting.
    progress.setStage(QStringLiteral("Building the trial"), 0);
    const auto& eventEntries = shared.events.entries();
    std::vector<EventId> remap(eventEntries.size());
    std::size_t unmapped = remap.size(); // usually the first file has them all: stop scanning then
    for (std::size_t d = 0; d < results.size() && unmapped > 0; ++d)
        for (std::size_t i = 0; i < results[d].size() && unmapped > 0; ++i) {
            const FileResult& r = results[d][i];
            if (r.failed)
                continue;
            const RowView view = r.packed ? RowStore::view(r.slot) : RowView(unpacked[d][i]);
            for (EventId temp : view.events) {
                if (remap[temp.index()].isValid())
                    continue;
                const auto& e = eventEntries[temp.index()];
                QStringList groups;
                for (const auto& g : e.groupStrings)
                    for (const QString& part : qs(g).split(QLatin1Char('|')))
                        if (!part.trimmed().isEmpty() && !groups.contains(part.trimmed()))
                            groups << part.trimmed();
                remap[temp.index()] = builder.addEvent(qs(e.canonical), groups, qs(e.raw));
                --unmapped;
            }
        }
    const auto& atomicEntries = shared.atomics.entries();
    std::vector<AtomicEventId> atomicRemap(atomicEntries.size());
    for (const auto& r : results[0]) {
        if (r.failed)
            continue;
        for (AtomicEventId temp : r.atomicRow.events)
            if (!atomicRemap[temp.index()].isValid())
                atomicRemap[temp.index()] = builder.addAtomicEvent(
                    qs(atomicEntries[temp.index()].canonical), qs(atomicEntries[temp.index()].raw));
    }

    progress.setStage(QStringLiteral("Building the trial: rows"), 0);
    // Packed rows: each distinct event list is remapped once and sorted in place; the rows sharing
    // a list that needed sorting get their values permuted the same way. A list with two cells of
    // one event (a duplicate name) goes the slow way: unpacked, summed, packed again.
    std::unordered_map<const EventId*, std::vector<std::uint32_t>> listOrder;
    std::unordered_set<const EventId*> listDuplicates;
    for (const auto& writer : writers)
        for (const RowStore::Slot& list : writer.lists()) {
            EventId* const ids = list.events;
            const std::size_t n = list.size;
            bool increasing = true;
            for (std::size_t k = 0; k < n; ++k) {
                ids[k] = remap[ids[k].index()];
                if (k > 0 && !(ids[k - 1] < ids[k]))
                    increasing = false;
            }
            if (increasing)
                continue;
            std::vector<std::uint32_t> order(n);
            std::iota(order.begin(), order.end(), 0u);
            std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return ids[a] < ids[b]; });
            if (std::adjacent_find(order.begin(), order.end(), [&](auto a, auto b) { return ids[a] == ids[b]; })
                != order.end()) {
                listDuplicates.insert(ids);
                continue;
            }
            const std::vector<EventId> before(ids, ids + n);
            for (std::size_t k = 0; k < n; ++k)
                ids[k] = before[order[k]];
            listOrder.emplace(ids, std::move(order));
        }
    // Remap and sort every row (in parallel), then merge the metric directories.
    for (std::size_t d = 0; d < results.size(); ++d) {
        auto& dirResults = results[d];
        waitInPool([&] {
            QtConcurrent::blockingMap(dirResults, [&](FileResult& r) {
                if (r.failed)
                    return;
                if (r.packed) {
                    const auto order = listOrder.find(r.slot.events);
                    if (order != listOrder.end())
                        r.slot.permuteValues(order->second);
                } else {
                    IntervalRow& row = unpacked[d][static_cast<std::size_t>(&r - dirResults.data())];
                    for (auto& e : row.events)
                        e = remap[e.index()];
                    normaliseIntervalRow(row, 1);
                }
                for (auto& e : r.atomicRow.events)
                    e = atomicRemap[e.index()];
            });
        });
    }
    if (!listDuplicates.empty()) {
        RowStore::Writer repacked(1);
        for (auto& r : results[0]) {
            if (!r.packed || !listDuplicates.count(r.slot.events))
                continue;
            IntervalRow row = RowStore::view(r.slot).toRow();
            normaliseIntervalRow(row, 1);
            r.slot = repacked.append(row);
        }
        writers.push_back(std::move(repacked));
    }

    // The rows go to the builder before the threads, so that it keeps no per-thread rows of its own.
    const std::size_t metricCount = results.size();
    builder.reserveThreads(goodThreads);
    std::vector<IntervalRow> rows;
    std::vector<std::size_t> kept; // the file of each row
    kept.reserve(goodThreads);
    for (std::size_t i = 0; i < files.size(); ++i)
        if (!dropped.count(files[i].key))
            kept.push_back(i);
    if (packRows) {
        RowStore store;
        store.reserve(goodThreads);
        for (auto& writer : writers)
            store.adopt(std::move(writer));
        for (std::size_t i : kept)
            store.push(results[0][i].slot);
        builder.setRowStore(std::move(store));
    } else {
        rows.reserve(goodThreads);
        for (std::size_t i : kept)
            rows.push_back(std::move(unpacked[0][i]));
    }

    // One pass in thread order: the thread, its notes, its user events and its metadata, each freed
    // from the file's result as soon as the builder has it. Metadata of the first metric directory;
    // keys with a timer context stay per thread. The strings enter the trial's pool in the order the
    // threads use them (deterministic), each converted to QString once, when first used.
    progress.setStage(QStringLiteral("Building the trial: threads and metadata"), 0);
    // A result of the algebra (a difference, a ratio) has negative values, negative counts, NaN
    // and infinities by design (docs/SEMANTICS.md 3): its metadata names the operation, and then they
    // are no oddity worth a warning.
    const std::optional<std::uint32_t> operationKey = shared.strings.find("Parallax operation");
    shared.strings.dropIndex(); // each string is moved out when the pool takes it
    std::vector<StringId> stringMap(shared.strings.size());
    auto poolId = [&](std::uint32_t temp) {
        if (!stringMap[temp].isValid())
            stringMap[temp] = builder.strings().intern(qs(shared.strings.take(temp)));
        return stringMap[temp];
    };
    bool algebraResult = false;
    std::size_t duplicateFiles = 0;
    QStringList duplicateExamples;
    std::size_t negativeFiles = 0;
    std::size_t negativeTotal = 0;
    QString negativeExample;
    std::size_t nonFiniteFiles = 0;
    std::size_t nonFiniteTotal = 0;
    QString nonFiniteExample;
    std::size_t negativeCountFiles = 0;
    std::size_t negativeCountTotal = 0;
    QString negativeCountExample;
    std::size_t duplicateAtomicTotal = 0;
    for (std::size_t i : kept) {
        FileResult& base = results[0][i];
        const ThreadIndex thread = builder.addThread(files[i].key);
        builder.setAtomicRow(thread, std::move(base.atomicRow));
        std::vector<MetadataEntry> entries; // keys are distinct: the workers kept a repeated key's last value
        entries.reserve(base.metadata.size());
        for (const auto& [k, v] : base.metadata) {
            entries.push_back({ poolId(k), poolId(v) });
            algebraResult = algebraResult || k == operationKey;
        }
        builder.setThreadMetadataEntries(thread, std::move(entries));
        base.metadata = decltype(base.metadata)(); // `= {}` would keep the capacity
        for (std::size_t d = 0; d < metricCount; ++d) {
            FileResult& r = results[d][i];
            if (!r.notes)
                continue;
            const FileNotes& notes = *r.notes;
            const QString filePath = metricDirs[d].files[i].path();
            warnings << notes.warnings;
            if (!notes.duplicateNames.empty()) {
                ++duplicateFiles;
                if (duplicateExamples.size() < 5)
                    duplicateExamples << fileLabel(filePath) + QStringLiteral(" '") + qs(notes.duplicateNames.front())
                            + QLatin1Char('\'');
            }
            if (notes.negativeValues > 0) {
                ++negativeFiles;
                negativeTotal += notes.negativeValues;
                if (negativeExample.isEmpty())
                    negativeExample = fileLabel(filePath) + QLatin1Char(' ') + qs(notes.firstNegative);
            }
            if (notes.nonFiniteValues > 0) {
                ++nonFiniteFiles;
                nonFiniteTotal += notes.nonFiniteValues;
                if (nonFiniteExample.isEmpty())
                    nonFiniteExample = fileLabel(filePath) + QLatin1Char(' ') + qs(notes.firstNonFinite);
            }
            if (notes.negativeCounts > 0) {
                ++negativeCountFiles;
                negativeCountTotal += notes.negativeCounts;
                if (negativeCountExample.isEmpty())
                    negativeCountExample = fileLabel(filePath) + QLatin1Char(' ') + qs(notes.firstNegativeCount);
            }
            if (d == 0) {
                duplicateAtomicTotal += notes.duplicateAtomics;
                for (auto k : notes.contextKeys)
                    builder.forcePerThreadKey(poolId(k));
            }
            r.notes.reset();
        }
    }
    results = decltype(results)();
    shared.strings.clear();
    // Several metric directories: each thread's row is the union of its cells in every metric,
    // merged on every core (calls and subrs from the first metric holding the cell).
    std::atomic<std::size_t> missingMetricCells { 0 };
    if (metricCount > 1) {
        std::vector<std::size_t> indices(rows.size());
        std::iota(indices.begin(), indices.end(), std::size_t { 0 });
        waitInPool([&] {
            QtConcurrent::blockingMap(indices, [&](std::size_t slot) {
                const std::size_t i = kept[slot];
                std::vector<EventId> all;
                for (std::size_t d = 0; d < metricCount; ++d) {
                    const auto& events = d == 0 ? rows[slot].events : unpacked[d][i].events;
                    all.insert(all.end(), events.begin(), events.end());
                }
                std::sort(all.begin(), all.end());
                all.erase(std::unique(all.begin(), all.end()), all.end());
                IntervalRow merged;
                const std::size_t n = all.size();
                merged.events = all;
                merged.calls.assign(n, 0.0);
                merged.subrs.assign(n, 0.0);
                merged.excl.assign(n * metricCount, 0.0);
                merged.incl.assign(n * metricCount, 0.0);
                std::vector<bool> haveCalls(n, false);
                for (std::size_t d = 0; d < metricCount; ++d)
                    if (!(d == 0 ? rows[slot] : unpacked[d][i]).exclSqr.empty())
                        merged.exclSqr.assign(n * metricCount, 0.0);
                std::size_t missing = 0;
                for (std::size_t d = 0; d < metricCount; ++d) {
                    const IntervalRow& src = d == 0 ? rows[slot] : unpacked[d][i];
                    std::size_t k = 0;
                    for (std::size_t c = 0; c < n; ++c) {
                        if (k < src.events.size() && src.events[k] == all[c]) {
                            merged.excl[d * n + c] = src.excl[k];
                            merged.incl[d * n + c] = src.incl[k];
                            if (!src.exclSqr.empty())
                                merged.exclSqr[d * n + c] = src.exclSqr[k];
                            if (!haveCalls[c]) {
                                merged.calls[c] = src.calls[k];
                                merged.subrs[c] = src.subrs[k];
                                haveCalls[c] = true;
                            }
                            ++k;
                        } else {
                            ++missing;
                        }
                    }
                }
                rows[slot] = std::move(merged);
                for (std::size_t d = 1; d < metricCount; ++d)
                    unpacked[d][i] = IntervalRow();
                missingMetricCells += missing;
            });
        });
    }
    if (!packRows)
        builder.setIntervalRows(std::move(rows));

    if (duplicateFiles > 0)
        warnings << QStringLiteral(
            "duplicate event names were summed in %1 file(s) (excl, incl, calls, subrs), e.g. %2")
                        .arg(duplicateFiles)
                        .arg(duplicateExamples.join(QStringLiteral(", ")));
    if (duplicateAtomicTotal > 0)
        warnings << QStringLiteral(
            "%1 duplicate user event records were merged (pooled count, min, max, mean, sum of squares)")
                        .arg(duplicateAtomicTotal);
    if (negativeTotal > 0 && !algebraResult)
        warnings << QStringLiteral(
            "%1 negative exclusive or inclusive value(s) in %2 file(s), kept as they are (first: %3)")
                        .arg(negativeTotal)
                        .arg(negativeFiles)
                        .arg(negativeExample);
    if (nonFiniteTotal > 0 && !algebraResult)
        warnings << QStringLiteral("%1 NaN or infinite value(s) in %2 file(s), kept as they are (first: %3)")
                        .arg(nonFiniteTotal)
                        .arg(nonFiniteFiles)
                        .arg(nonFiniteExample);
    if (negativeCountTotal > 0 && !algebraResult)
        warnings << QStringLiteral(
            "%1 negative count(s) (calls, subrs or numevents) in %2 file(s), kept as they are (first: %3)")
                        .arg(negativeCountTotal)
                        .arg(negativeCountFiles)
                        .arg(negativeCountExample);
    if (missingMetricCells > 0)
        warnings << QStringLiteral(
            "%1 (thread, event) cell(s) are missing from some metric directories; their values there are 0")
                        .arg(missingMetricCells.load());
    progress.setStage(QStringLiteral("Building the trial: finishing"), 0);
    return finishRead(reader, ReadJob { path }, builder, warnings);
}
} // namespace

} // namespace parallax
