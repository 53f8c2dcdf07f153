// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <memory>
#include <vector>

namespace parallax {

/// Which per-cell value a statistic is about.
enum class ValueKind {
    Exclusive,
    Inclusive,
    Calls,
    Subroutines,
    ExclusivePerCall, ///< excl/calls over threads with calls > 0 (its "all" figures use those threads too)
    InclusivePerCall, ///< incl/calls over threads with calls > 0 (its "all" figures use those threads too)
};

/// Statistics of one value across threads (docs/SEMANTICS.md 2).
struct Stat {
    double total = 0; ///< sum over present threads
    double sumSquares = 0; ///< sum of squares over present threads (for oneShotStdDev)
    double meanAll = 0; ///< total / N (absent counts as 0) — the default mean
    double meanPresent = 0; ///< total / |P|
    double min = 0; ///< over present threads (0 when none)
    double max = 0; ///< over present threads (0 when none)
    double sdAll = 0; ///< population sd over N values, absent = 0; 0 when N <= 1
    double sdPresent = 0; ///< population sd over |P| values; 0 when |P| <= 1
    std::size_t present = 0; ///< |P| (for per-call kinds: threads with calls > 0)
    ThreadIndex minThread; ///< a thread holding the minimum (the first one), invalid when none
    ThreadIndex maxThread; ///< a thread holding the maximum (the first one), invalid when none
    /// Load imbalance (docs/SEMANTICS.md 2.1), all against meanAll (absent threads count as 0, so an
    /// event that ran on one thread of N has max/mean = N); 0 when the denominator is 0.
    double maxOverMean = 0; ///< max / meanAll: 1 is perfect balance
    double imbalance = 0; ///< (max - meanAll) / max: the fraction of the slowest thread's time that is imbalance
    double cv = 0; ///< coefficient of variation sdAll / meanAll
    /// Lost time max − meanAll (docs/SEMANTICS.md 2.1), in the metric's unit: what the other threads
    /// wait for the slowest one at a synchronisation after the event, on average. The imbalance
    /// sorts rank by it after their ratio, so that of two equally imbalanced routines the costlier
    /// comes first. 0 when the event never ran.
    double lostTime() const { return present > 0 ? max - meanAll : 0.0; }
};

/// ParaProf's one-pass population std. dev. over `count` values, absent ones counting as 0:
/// sqrt(|sumSquares/count - (total/count)^2|), 0 when count <= 1. TAUdb's derived threads -3 and -7
/// are defined by it (docs/FORMATS.md 2.1); Parallax's own sdAll and sdPresent are two-pass
/// (docs/SEMANTICS.md 2) and can differ from it in the last bits.
double oneShotStdDev(const Stat& s, std::size_t count);

/// Statistics of a trial across threads, computed once per trial and cached on it. This is the one
/// statistics kernel: the tables and charts (through algebra/values), the user-event views and the
/// TAUdb derived threads written by perfdb (perfdb/derivedstatistics) all take their numbers from it.
class TrialStatistics {
public:
    /// The cached statistics of a trial (computed on first use, thread-safe).
    static std::shared_ptr<const TrialStatistics> of(const Trial& trial);

    explicit TrialStatistics(const Trial& trial);

    const Stat& stat(EventId e, MetricId m, ValueKind kind) const;
    /// T(t,m) = max over events of incl(t,e,m): the thread's top inclusive value (0 if none).
    double threadTopInclusive(ThreadIndex t, MetricId m) const { return m_top[m.index() * m_threads + t.index()]; }
    /// D = sum over threads of T(t,m).
    double sumTopInclusive(MetricId m) const { return m_sumTop[m.index()]; }
    /// The thread's largest inclusive value as TAUdb's percentages take it (docs/FORMATS.md 2.1): like
    /// T(t,m), but not raised to 0 when every value is negative, and NaN when the thread's first one is
    /// (0 when the thread has no events).
    double threadMaxInclusive(ThreadIndex t, MetricId m) const { return m_maxIncl[m.index() * m_threads + t.index()]; }
    /// Sum over threads of threadMaxInclusive: TAUdb's divider D for the derived rows.
    double sumMaxInclusive(MetricId m) const { return m_sumMaxIncl[m.index()]; }
    /// Percent of a per-thread value: 100 * v / T(t,m) (0 when T is 0).
    double threadPercent(double value, ThreadIndex t, MetricId m) const;
    /// Percent on the total and mean rows: 100 * total / D (0 when D is 0).
    double totalPercent(EventId e, MetricId m, ValueKind kind) const;

    /// Atomic event statistics of a per-thread field: count, max, min, mean, sd, the total
    /// count x mean, and the sum of squares (whose Stat::total pools all samples, docs/SEMANTICS.md 1.5).
    enum AtomicField { Count = 0, Max, Min, Mean, StdDev, Total, SumSquares };
    static constexpr std::size_t AtomicFieldCount = 7;
    const Stat& atomicStat(AtomicEventId u, AtomicField field) const;

    std::size_t threadCount() const { return m_threads; }

private:
    std::size_t index(EventId e, MetricId m, ValueKind kind) const;

    std::size_t m_threads = 0;
    std::size_t m_metrics = 0;
    std::size_t m_kindsPerEvent = 0;
    std::vector<Stat> m_stats;
    std::vector<double> m_top;
    std::vector<double> m_sumTop;
    std::vector<double> m_maxIncl;
    std::vector<double> m_sumMaxIncl;
    std::vector<Stat> m_atomic;
};

} // namespace parallax
