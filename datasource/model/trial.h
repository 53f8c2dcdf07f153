// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/ids.h"
#include "datasource/model/pooledatomics.h"
#include "datasource/model/rowstore.h"
#include "datasource/model/sourcelocation.h"
#include "datasource/model/stringpool.h"

#include <QString>
#include <QStringList>
#include <algorithm>
#include <any>
#ifndef Q_MOC_RUN // Qt 6.4's moc cannot parse libstdc++ 12's <compare>/<concepts>
#include <compare>
#endif
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <optional>
#include <typeindex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace parallax {

/// One (node, context, thread) triple.
struct ThreadKey {
    int node = 0;
    int context = 0;
    int thread = 0;
    auto operator<=>(const ThreadKey&) const = default;
    QString toString() const { return QStringLiteral("%1,%2,%3").arg(node).arg(context).arg(thread); }
};

struct Metric {
    Metric() = default;
    Metric(const QString& metricName, const QString& metricUnit)
        : name(metricName)
        , unit(metricUnit)
    {
    }

    QString name;
    /// "us" for TAU time metrics, "count" for counters, "" when unknown (docs/SEMANTICS.md 1.2).
    QString unit;
    bool derived = false;
    QString expression;
    bool higherIsBetter = false;
    bool isTime() const { return unit == QLatin1String("us"); }
};

/// An interval event: a flat routine or a call path "a => b => c" (canonical name).
struct IntervalEvent {
    QString name;
    /// The name exactly as the source wrote it (first occurrence); used for pprof compatibility.
    QString rawName;
    std::vector<GroupId> groups;
    /// Number of call-path components (1 for a flat event).
    int depth = 1;
    /// The event whose name is this path without its last component, if it exists.
    EventId parent;
    /// The flat event named like the last component, if it exists.
    EventId leaf;
    bool isCallPath() const { return depth > 1; }
};

/// An atomic (user) event; "event : context" names are context events.
struct AtomicEvent {
    QString name;
    QString rawName;
    QString baseName;
    QString context;
    bool hasContext() const { return !context.isEmpty(); }
};

struct AtomicRow {
    std::vector<AtomicEventId> events;
    std::vector<double> count;
    std::vector<double> max;
    std::vector<double> min;
    std::vector<double> mean;
    std::vector<double> sumSquares;
    /// Explicit standard deviations, one per record, for records whose sd cannot be derived from
    /// sumSquares (algebra results such as a diff, docs/SEMANTICS.md 4.3); empty for measured data.
    std::vector<double> stdDev;

    std::size_t size() const { return events.size(); }
    /// Appends a record (without an explicit standard deviation).
    void append(AtomicEventId e, double count_, double max_, double min_, double mean_, double sumSquares_)
    {
        events.push_back(e);
        count.push_back(count_);
        max.push_back(max_);
        min.push_back(min_);
        mean.push_back(mean_);
        sumSquares.push_back(sumSquares_);
    }
    /// Reserves room for `n` records (without explicit standard deviations).
    void reserve(std::size_t n)
    {
        events.reserve(n);
        for (auto* column : { &count, &max, &min, &mean, &sumSquares })
            column->reserve(n);
    }
    std::ptrdiff_t find(AtomicEventId e) const;
    /// stdDev[i] when given, else sqrt(max(0, sumsqr/n - mean^2)); 0 when n <= 1 (docs/SEMANTICS.md 1.5).
    double stddev(std::size_t i) const;
};

struct MetadataEntry {
    StringId key;
    StringId value;
};

/// A statistics row that the source provides ready-made (the derived blocks of TAU merged XML,
/// docs/FORMATS.md 4.3), kept as written rather than recomputed. Parallax's own statistics
/// (algebra/statistics.h) do not use these; they are for display and cross-checking.
struct ProvidedStatistic {
    /// The source's name for the row: "total", "mean_all", "mean_no_null", "stddev_all", ...
    QString name;
    /// ParaProf's derived-thread id (docs/FORMATS.md 2.1): -1 mean (present threads), -2 total,
    /// -3 sd (present), -4 min, -5 max, -6 mean (all threads), -7 sd (all); 0 for another name.
    int derivedId = 0;
    /// Cells by event id, laid out like a thread's rows. A count the source marks as unknown
    /// (negative) and a value that cannot be attributed to one event are NaN.
    IntervalRow row;
    AtomicRow atomicRow;
};

/// One snapshot of one thread's profile (TAU snapshot XML): the values as of `timestamp`.
struct ProfileSnapshot {
    /// The source's name for the snapshot (TAU writes "final" for the last one); may be empty.
    QString name;
    /// Microseconds since the epoch; 0 when the source gives none.
    qint64 timestamp = 0;
    IntervalRow row;
    AtomicRow atomicRow;
};

/// Where a trial came from: the source and reader, or the algebra operation and its operands.
struct Provenance {
    QString operation; // "read" for measured trials
    QString source;
    QString reader;
    QStringList operands;
    QStringList options;
};

/// One run: immutable once built; shared as std::shared_ptr<const Trial>.
class Trial {
public:
    const QString& name() const { return m_name; }
    bool isDerived() const { return m_provenance.operation != QLatin1String("read"); }
    const Provenance& provenance() const { return m_provenance; }

    // Metrics
    std::size_t metricCount() const { return m_metrics.size(); }
    const Metric& metric(MetricId m) const { return m_metrics[m.index()]; }
    const std::vector<Metric>& metrics() const { return m_metrics; }
    MetricId findMetric(const QString& name) const;

    // Threads
    std::size_t threadCount() const { return m_threads.size(); }
    const ThreadKey& threadKey(ThreadIndex t) const { return m_threads[t.index()]; }
    const std::vector<ThreadKey>& threads() const { return m_threads; }
    ThreadIndex findThread(const ThreadKey& key) const;
    std::size_t nodeCount() const;

    // Interval events
    std::size_t eventCount() const { return m_events.size(); }
    const IntervalEvent& event(EventId e) const { return m_events[e.index()]; }
    const std::vector<IntervalEvent>& events() const { return m_events; }
    EventId findEvent(const QString& canonicalName) const;
    /// The source location the reader recorded for an event apart from its name (a CUBE region's
    /// mod/begin/end, a Caliper sourceloc), or nullptr. Use sourceLocationOf(), which falls back
    /// to the name (docs/SEMANTICS.md §12).
    const SourceLocation* recordedSourceLocation(EventId e) const
    {
        return e.index() < m_sourceLocations.size() && !m_sourceLocations[e.index()].file.isEmpty()
            ? &m_sourceLocations[e.index()]
            : nullptr;
    }
    /// True when some event has a recorded source location.
    bool hasRecordedSourceLocations() const { return !m_sourceLocations.empty(); }
    RowView row(ThreadIndex t) const { return m_rows.row(t.index()); }
    /// Number of present (thread, event) cells.
    std::size_t cellCount() const { return m_rows.cellCount(); }
    /// Bytes holding the interval cells (RowStore::bytes), for the benchmarks.
    std::size_t cellBytes() const { return m_rows.bytes(); }

    // Atomic events
    std::size_t atomicEventCount() const { return m_atomicEvents.size(); }
    const AtomicEvent& atomicEvent(AtomicEventId e) const { return m_atomicEvents[e.index()]; }
    const std::vector<AtomicEvent>& atomicEvents() const { return m_atomicEvents; }
    AtomicEventId findAtomicEvent(const QString& name) const;
    const AtomicRow& atomicRow(ThreadIndex t) const { return m_atomicRows[t.index()]; }
    /// The (thread, user event) cells the builder pooled from several records of the source, with
    /// their record counts (docs/SEMANTICS.md 1.5); empty when there were none.
    const PooledAtomicCells& pooledAtomicCells() const { return m_pooledAtomicCells; }

    // Groups
    std::size_t groupCount() const { return m_groups.size(); }
    const QString& groupName(GroupId g) const { return m_groups[g.index()]; }
    /// The names of an event's groups, in its order.
    QStringList groupNames(const IntervalEvent& e) const;
    GroupId findGroup(const QString& name) const;
    bool eventInGroup(EventId e, const QString& group) const;

    // Metadata
    const StringPool& strings() const { return m_strings; }
    const std::vector<MetadataEntry>& metadata() const { return m_metadata; }
    const std::vector<MetadataEntry>& threadMetadata(ThreadIndex t) const { return m_threadMetadata[t.index()]; }
    /// The per-thread value if the thread has one, else the trial-wide value, else a null string.
    QString metadataValue(const QString& key, ThreadIndex t = ThreadIndex()) const;

    const QStringList& warnings() const { return m_warnings; }
    /// True when the trial was read from the binary trial cache (docs/FORMATS.md §13)
    /// rather than parsed from its sources.
    bool fromCache() const { return m_fromCache; }

    // Source-provided statistics and snapshot series (TAU snapshot / merged XML); empty otherwise.
    const std::vector<ProvidedStatistic>& providedStatistics() const { return m_providedStatistics; }
    /// The provided statistic with this derived-thread id (see ProvidedStatistic), or nullptr.
    const ProvidedStatistic* providedStatistic(int derivedId) const;
    bool hasTimeSeries() const { return !m_timeSeries.empty(); }
    /// Every snapshot of a thread, oldest first; the last one holds the same values as row(t) and
    /// atomicRow(t). Empty when the source has a single snapshot per thread.
    const std::vector<ProfileSnapshot>& timeSeries(ThreadIndex t) const;

    /// A value derived from this trial (statistics, call tree...), computed once on first use and
    /// shared afterwards. Thread-safe; the trial itself stays unchanged.
    template <typename T>
    std::shared_ptr<const T> cached(const std::function<std::shared_ptr<const T>(const Trial&)>& make) const
    {
        std::call_once(
            cacheSlot(typeid(T)).once, [&] { cacheSlot(typeid(T)).value = std::shared_ptr<const void>(make(*this)); });
        return std::static_pointer_cast<const T>(cacheSlot(typeid(T)).value);
    }

private:
    friend class TrialBuilder;
    friend class TrialCache;
    struct CacheSlot {
        std::once_flag once;
        std::shared_ptr<const void> value;
    };
    CacheSlot& cacheSlot(std::type_index type) const;

    QString m_name;
    Provenance m_provenance;
    std::vector<Metric> m_metrics;
    std::vector<ThreadKey> m_threads;
    std::vector<IntervalEvent> m_events;
    /// By event id; empty when no event has a recorded location, else one per event (empty file: none).
    std::vector<SourceLocation> m_sourceLocations;
    RowStore m_rows;
    std::vector<AtomicEvent> m_atomicEvents;
    std::vector<AtomicRow> m_atomicRows;
    PooledAtomicCells m_pooledAtomicCells;
    std::vector<QString> m_groups;
    StringPool m_strings;
    std::vector<MetadataEntry> m_metadata;
    std::vector<std::vector<MetadataEntry>> m_threadMetadata;
    QStringList m_warnings;
    bool m_fromCache = false;
    std::vector<ProvidedStatistic> m_providedStatistics;
    std::vector<std::vector<ProfileSnapshot>> m_timeSeries; // per thread; empty without a series
    QHash<QString, EventId> m_eventIndex;
    QHash<QString, AtomicEventId> m_atomicIndex;

    mutable std::mutex m_cacheMutex;
    mutable std::unordered_map<std::type_index, std::unique_ptr<CacheSlot>> m_cache;
};

using TrialPtr = std::shared_ptr<const Trial>;

/// Where an event's code is (docs/SEMANTICS.md §12): the location the reader recorded, else the
/// one its name carries (parseSourceLocation), else nullopt. Every view, command and rule that
/// needs an event's source location calls this.
std::optional<SourceLocation> sourceLocationOf(const Trial& trial, EventId e);

} // namespace parallax
