// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/statistics.h"

#include <array>
#include <memory>

namespace parallax::perfdb {

/// The values of TAUdb's derived threads -1...-7 (docs/FORMATS.md 2.1) for every interval event of a
/// trial, read from the trial's cross-thread statistics (TrialStatistics, the one statistics kernel;
/// user events have no derived rows: TAU's reader would make a thread of each, docs/FORMATS.md 7.2):
/// -1 mean over the threads where the event is present, -2 total, -3 population std. dev. over
/// those threads by ParaProf's one-pass formula (0 when at most one), -4/-5 min/max over them (-4 is 0
/// and -5 starts at 0 when none), -6 mean over all N threads, -7 std. dev. over all N threads.
class DerivedStatistics {
public:
    static constexpr int CodeCount = 7;
    /// Thread ids -1...-7 in TAUdb's order.
    static constexpr std::array<int, CodeCount> Codes { -1, -2, -3, -4, -5, -6, -7 };

    explicit DerivedStatistics(const Trial& trial);

    /// Number of threads where the interval event is present.
    std::size_t present(EventId e) const { return m_stats->stat(e, MetricId(0u), ValueKind::Calls).present; }
    double calls(int code, EventId e) const { return value(code, stat(e, 0, ValueKind::Calls)); }
    double subrs(int code, EventId e) const { return value(code, stat(e, 0, ValueKind::Subroutines)); }
    double exclusive(int code, EventId e, std::size_t metric) const
    {
        return value(code, stat(e, metric, ValueKind::Exclusive));
    }
    double inclusive(int code, EventId e, std::size_t metric) const
    {
        return value(code, stat(e, metric, ValueKind::Inclusive));
    }
    /// Percent (0-100) of a derived row (docs/FORMATS.md 2.1): TOTAL and both means give total / D, where D
    /// is the sum of the threads' largest inclusive values; the other rows give value / (D / N).
    double exclusivePercent(int code, EventId e, std::size_t metric) const
    {
        return percent(code, stat(e, metric, ValueKind::Exclusive), metric);
    }
    double inclusivePercent(int code, EventId e, std::size_t metric) const
    {
        return percent(code, stat(e, metric, ValueKind::Inclusive), metric);
    }
    /// The real thread's largest inclusive value, the divider of its percentages (docs/FORMATS.md 2.1).
    double threadMaxInclusive(ThreadIndex t, std::size_t metric) const
    {
        return m_stats->threadMaxInclusive(t, MetricId(metric));
    }

private:
    const Stat& stat(EventId e, std::size_t metric, ValueKind kind) const
    {
        return m_stats->stat(e, MetricId(metric), kind);
    }
    double value(int code, const Stat& s) const;
    double percent(int code, const Stat& s, std::size_t metric) const;

    std::shared_ptr<const TrialStatistics> m_stats;
};

} // namespace parallax::perfdb
