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
    double meanAll = 0; ///< total / N (absent counts as 0) — the default mean
    double meanPresent = 0; ///< total / |P|
    double min = 0; ///< over present threads (0 when none)
    double max = 0; ///< over present threads (0 when none)
    double sdAll = 0; ///< population sd over N values, absent = 0; 0 when N <= 1
    double sdPresent = 0; ///< population sd over |P| values; 0 when |P| <= 1
    std::size_t present = 0; ///< |P| (for per-call kinds: threads with calls > 0)
    ThreadIndex minThread; ///< a thread holding the minimum (the first one), invalid when none
    ThreadIndex maxThread; ///< a thread holding the maximum (the first one), invalid when none
};

/// Statistics of a trial across threads, computed once per trial and cached on it.
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
    /// Percent of a per-thread value: 100 * v / T(t,m) (0 when T is 0).
    double threadPercent(double value, ThreadIndex t, MetricId m) const;
    /// Percent on the total and mean rows: 100 * total / D (0 when D is 0).
    double totalPercent(EventId e, MetricId m, ValueKind kind) const;

    /// Atomic event statistics; field 0..4 = count, max, min, mean, sd (per thread).
    enum AtomicField { Count = 0, Max, Min, Mean, StdDev };
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
    std::vector<Stat> m_atomic;
};

} // namespace parallax
