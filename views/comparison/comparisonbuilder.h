// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/calltree.h"
#include "algebra/matching.h"
#include "algebra/operations.h"
#include "algebra/presence.h"
#include "algebra/statistics.h"
#include "datasource/model/trial.h"

#include <QLocale>
#include <QString>
#include <QStringList>
#include <array>
#include <atomic>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

namespace parallax {

// The numbers behind the comparison views (issue 5): a snapshot computed once per pair of runs and
// options, on a worker thread, and the per-event values for one metric and one choice of threads.
// Views only read them.

/// The number of an event that a comparison shows.
enum class CompareValue { Exclusive = 0, Inclusive = 1, Calls = 2 };
inline constexpr int CompareValueCount = 3;
QString compareValueName(CompareValue value);

/// Over which threads of each run an event's number is taken.
enum class CompareSource {
    /// Each run's own mean over all its threads (docs/SEMANTICS.md 2, absent = 0): the number its own
    /// statistics window shows.
    Mean,
    /// Each run's total over all its threads (invariant under every thread policy).
    Total,
    /// One thread of the comparison (after the thread policy): the sum of the run's threads mapped
    /// to it, usually exactly one.
    Thread,
};
QString compareSourceName(CompareSource source);

/// Δ% of docs/SEMANTICS.md 4.6: 100·(A−B)/A, "new" when A = 0 < B, 100 % "removed" when B = 0 < A,
/// blank when both are 0.
struct RelativeDifference {
    enum Kind { Value, New, Removed, Blank };
    Kind kind = Blank;
    /// The percentage; -inf for New (the candidate added cost from nothing), 100 for Removed, 0 for
    /// Blank. Used for sorting and for the minimum-difference filter.
    double percent = 0;
    static RelativeDifference of(double a, double b);
    /// "+20.0 %", "new", "removed" or "".
    QString text(const QLocale& locale) const;
};

/// One metric of a comparison: the union of both runs' metrics by name.
struct ComparisonMetric {
    Metric metric; ///< A's definition when A has it, else B's
    MetricId inA;
    MetricId inB;
    MetricId inDiff;
};

/// One event of a comparison: a key of the event matching (docs/SEMANTICS.md 4.4), in both runs or one.
struct ComparisonEvent {
    QString name; ///< the match key (the canonical name under EXACT)
    EventId diff; ///< the event of the difference trial
    /// The events of each run that map to the key (several on a name collision; empty when absent).
    std::vector<EventId> inA;
    std::vector<EventId> inB;
    int depth = 1;
    bool isCallPath() const { return depth > 1; }
    /// Both, LeftOnly (◀, only in A) or RightOnly (▶, only in B), from the diff's presence markers.
    Presence::Marker marker = Presence::Marker::All;
};

/// What is known about the two runs' total times for one metric (for the summary page).
struct RunTime {
    std::size_t threads = 0;
    /// The run time: max over threads of the thread's top inclusive value (the slowest thread's
    /// main / .TAU application time).
    double slowest = 0;
    /// Sum over threads of the top inclusive values (the thread-time the run consumed).
    double sum = 0;
    double mean() const { return threads > 0 ? sum / static_cast<double>(threads) : 0.0; }
};

/// A trial-wide metadata key of either run.
struct MetadataComparison {
    QString key;
    std::optional<QString> a;
    std::optional<QString> b;
    bool differs() const { return a != b; }
};

/// Everything the comparison views need that does not depend on the metric or the threads chosen.
/// Immutable once built; shared between the views.
struct ComparisonSnapshot {
    std::shared_ptr<const Trial> a;
    std::shared_ptr<const Trial> b;
    AlgebraOptions options;
    /// The difference trial diff(A, B) = A − B; null when the algebra refused (see error).
    std::shared_ptr<const Trial> diff;
    QString error;
    bool ok() const { return diff != nullptr; }

    std::vector<ComparisonMetric> metrics;
    std::vector<ComparisonEvent> events;
    /// Comparison event of each diff event (by EventId index).
    std::vector<int> eventOfDiff;
    /// The comparison's threads (the diff's), and per thread the run threads mapped to it.
    std::vector<ThreadKey> threads;
    std::vector<std::vector<ThreadIndex>> threadsOfA;
    std::vector<std::vector<ThreadIndex>> threadsOfB;
    /// Per run event index: the comparison event, or -1 (dropped by the match policy).
    std::vector<int> eventMapA;
    std::vector<int> eventMapB;
    ThreadSetRelation relation = ThreadSetRelation::Identical;
    ThreadPolicy appliedPolicy = ThreadPolicy::Strict;

    std::shared_ptr<const TrialStatistics> statsA;
    std::shared_ptr<const TrialStatistics> statsB;
    /// The call tree of the diff (the union of both call trees).
    std::shared_ptr<const CallTree> tree;
    /// Per metric: the run times of A and B.
    std::vector<RunTime> runTimeA;
    std::vector<RunTime> runTimeB;
    /// Trial-wide metadata of both runs, sorted by key (the algebra's own bookkeeping keys left out).
    std::vector<MetadataComparison> metadata;
    /// Name collisions and events dropped by the match policy.
    QStringList warnings;

    /// The metric with this name, or -1.
    int findMetric(const QString& name) const;
    /// The comparison event with this name (match key), or -1.
    int findEvent(const QString& name) const;
    /// A metric's "lower is better" flag decides which sign is an improvement (docs/SEMANTICS.md 4.6).
    bool higherIsBetter(int metric) const;
};

/// Which numbers a view asks for.
struct ComparisonQuery {
    int metric = 0; ///< index into ComparisonSnapshot::metrics
    CompareSource source = CompareSource::Mean;
    int thread = 0; ///< index into ComparisonSnapshot::threads (CompareSource::Thread only)
    bool operator==(const ComparisonQuery&) const = default;
};

/// The numbers of one comparison event for a query.
struct ComparisonEntry {
    /// Per CompareValue; 0 where the run has no value.
    std::array<double, CompareValueCount> a {};
    std::array<double, CompareValueCount> b {};
    /// Whether the event ran in A / in B (on the chosen thread for CompareSource::Thread).
    bool inA = false;
    bool inB = false;
    double valueA(CompareValue v) const { return a[static_cast<std::size_t>(v)]; }
    double valueB(CompareValue v) const { return b[static_cast<std::size_t>(v)]; }
    /// Δ = A − B (an absent value counts as 0).
    double delta(CompareValue v) const { return valueA(v) - valueB(v); }
    RelativeDifference relative(CompareValue v) const { return RelativeDifference::of(valueA(v), valueB(v)); }
};

/// The per-event numbers for one query, indexed like ComparisonSnapshot::events.
struct ComparisonValues {
    ComparisonQuery query;
    std::vector<ComparisonEntry> entries;
};

/// Builds snapshots and values. Pure functions, safe on any thread.
class ComparisonBuilder {
public:
    /// Reports a stage (0-based step of stepCount()) and its name.
    using StageCallback = std::function<void(int step, const QString& stage)>;
    static int stepCount() { return 5; }

    /// Computes the difference and everything the views need. Never returns null; on an algebra
    /// error the snapshot has only a, b, options and error. Stops early (returning what it has)
    /// when `cancel` becomes true.
    static std::shared_ptr<const ComparisonSnapshot> build(std::shared_ptr<const Trial> a,
        std::shared_ptr<const Trial> b, const AlgebraOptions& options, const StageCallback& stage = {},
        const std::atomic_bool* cancel = nullptr);

    /// The per-event numbers for a query. Mean and total read the runs' cached statistics (cheap);
    /// one thread reads the rows of the run threads mapped to it.
    static std::shared_ptr<const ComparisonValues> values(
        const ComparisonSnapshot& snapshot, const ComparisonQuery& query);
};

} // namespace parallax
