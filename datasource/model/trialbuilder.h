// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QSet>
#include <map>
#include <optional>
#include <span>

namespace parallax {

/// Assembles a Trial. Readers, the algebra and tests fill it, then build() sorts, merges
/// duplicate cells, resolves call paths and returns the immutable trial.
/// Sorts one interval row by event id and sums duplicate cells; returns how many were merged.
std::size_t normaliseIntervalRow(IntervalRow& row, std::size_t metricCount);

class TrialBuilder {
public:
    explicit TrialBuilder(const QString& name);

    void setProvenance(const Provenance& provenance) { m_trial->m_provenance = provenance; }
    void setName(const QString& name) { m_trial->m_name = name; }

    MetricId addMetric(const Metric& metric);
    ThreadIndex addThread(const ThreadKey& key);
    /// Room for `n` threads, so that adding them one by one does not grow the per-thread tables
    /// past what they hold (a 131,072-thread trial would otherwise carry up to twice the room).
    void reserveThreads(std::size_t n);
    std::size_t threadCount() const { return m_trial->m_threads.size(); }

    /// Adds (or finds) an interval event. The name is normalised (rule W); `rawName` keeps the
    /// source spelling when it differs. Groups are merged with those already known.
    EventId addEvent(const QString& name, const QStringList& groups = {}, const QString& rawName = {});
    /// Records an event's source location apart from its name (docs/SEMANTICS.md §12); a location
    /// without a file clears it.
    void setSourceLocation(EventId e, SourceLocation location);
    AtomicEventId addAtomicEvent(const QString& name, const QString& rawName = {});
    GroupId addGroup(const QString& name);
    /// Adds the metrics, interval events (names, groups, raw names, recorded source locations) and atomic events of
    /// `source` in its order, so that on an empty builder every id is the same as in `source`.
    void addDefinitionsOf(const Trial& source);

    /// Adds a present cell. `excl` and `incl` hold one value per metric (missing metrics are 0).
    /// Adding the same cell twice sums it (and records a warning).
    void addInterval(ThreadIndex t, EventId e, double calls, double subrs, std::span<const double> excl,
        std::span<const double> incl);
    /// Adds an atomic record; a duplicate is pooled (docs/SEMANTICS.md 1.5).
    void addAtomic(
        ThreadIndex t, AtomicEventId e, double count, double max, double min, double mean, double sumSquares);

    /// Bulk path for readers: replaces the rows (one per thread, in thread-index order). Rows may
    /// be unsorted and contain duplicates; build() handles both.
    void setIntervalRows(std::vector<IntervalRow> rows);
    void setAtomicRows(std::vector<AtomicRow> rows);
    /// One thread's atomic row (thread `t` must exist), moved in as is; build() pools duplicates.
    void setAtomicRow(ThreadIndex t, AtomicRow row) { m_trial->m_atomicRows[t.index()] = std::move(row); }
    /// Bulk path for readers that pack rows themselves (one per thread, in thread-index order): the
    /// rows must be sorted by event id without duplicates (RowStore::Writer, docs/ARCHITECTURE.md).
    void setRowStore(RowStore store);

    void addMetadata(const QString& key, const QString& value);
    /// Per-thread metadata. build() moves a key to the trial-wide map when the first thread has
    /// it and no thread has it with another value or forcePerThread (ParaProf's rule, docs/FORMATS.md 1.3).
    void addThreadMetadata(ThreadIndex t, const QString& key, const QString& value, bool forcePerThread = false);
    void addWarning(const QString& warning) { m_trial->m_warnings.append(warning); }
    /// Bulk path for readers: the trial's string pool, and raw per-thread entries using its ids.
    StringPool& strings() { return m_trial->m_strings; }
    void setThreadMetadataEntries(ThreadIndex t, std::vector<MetadataEntry> entries)
    {
        m_rawThreadMetadata[t.index()] = std::move(entries);
    }
    void forcePerThreadKey(StringId key) { m_forcedPerThreadKeys.insert(key); }

    /// A statistics row given by the source (event ids of this builder); build() sorts its cells.
    void addProvidedStatistic(ProvidedStatistic statistic)
    {
        m_trial->m_providedStatistics.push_back(std::move(statistic));
    }
    /// The snapshots of a thread, oldest first (the last should hold the thread's row); build()
    /// sorts their cells like the thread rows.
    void setTimeSeries(ThreadIndex t, std::vector<ProfileSnapshot> series);

    std::shared_ptr<Trial> build();

private:
    void ensureRows();
    void finishEvents();
    void finishRows();
    void finishThreads();
    void finishMetadata();

    std::shared_ptr<Trial> m_trial;
    std::vector<IntervalRow> m_rows;
    std::optional<RowStore> m_store;
    QHash<QString, GroupId> m_groupIndex;
    QSet<StringId> m_forcedPerThreadKeys;
    std::vector<std::vector<MetadataEntry>> m_rawThreadMetadata;
    bool m_cellMajor = false;
    bool m_atomicAppended = false;
    std::map<ThreadKey, ThreadIndex> m_threadIndex;
};

} // namespace parallax
