// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <array>
#include <vector>

namespace parallax::perfdb {

/// The values of TAUdb's derived threads -1...-7 (docs/FORMATS.md 2.1) for every interval event of a
/// trial, computed in one pass (user events have no derived rows: TAU's reader would make a thread
/// of each, docs/FORMATS.md 7.2). perfdb cannot link the algebra, so the formulas live here:
/// -1 mean over the threads where the event is present, -2 total, -3 population std. dev. over
/// those threads (0 when at most one), -4/-5 min/max over them (-4 is 0 and -5 starts at 0 when
/// none), -6 mean over all N threads, -7 std. dev. over all N threads.
class DerivedStatistics {
public:
    static constexpr int CodeCount = 7;
    /// Thread ids -1...-7 in TAUdb's order.
    static constexpr std::array<int, CodeCount> Codes { -1, -2, -3, -4, -5, -6, -7 };

    explicit DerivedStatistics(const Trial& trial);

    /// Number of threads where the interval event is present.
    std::size_t present(EventId e) const { return m_present[e.index()]; }
    double calls(int code, EventId e) const { return value(code, e, 0); }
    double subrs(int code, EventId e) const { return value(code, e, 1); }
    double exclusive(int code, EventId e, std::size_t metric) const { return value(code, e, 2 + 2 * metric); }
    double inclusive(int code, EventId e, std::size_t metric) const { return value(code, e, 3 + 2 * metric); }
    /// Percent (0-100) of a derived row (docs/FORMATS.md 2.1): TOTAL and both means give total / D, where D
    /// is the sum of the threads' largest inclusive values; the other rows give value / (D / N).
    double exclusivePercent(int code, EventId e, std::size_t metric) const { return percent(code, e, 2 + 2 * metric); }
    double inclusivePercent(int code, EventId e, std::size_t metric) const { return percent(code, e, 3 + 2 * metric); }

private:
    struct Accumulator {
        double sum = 0;
        double sumSquares = 0;
        double min = 0;
        double max = 0;
        void add(double x, bool first);
    };
    double value(int code, EventId e, std::size_t quantity) const;
    double percent(int code, EventId e, std::size_t quantity) const;
    static double derive(int code, const Accumulator& a, std::size_t present, std::size_t threads);

    std::size_t m_threads = 0;
    std::size_t m_quantities = 0; ///< calls, subrs, then excl and incl of each metric
    std::vector<std::size_t> m_present;
    std::vector<Accumulator> m_values; ///< [event * m_quantities + quantity]
    std::vector<double> m_divider; ///< per metric: sum over threads of the largest inclusive value
};

} // namespace parallax::perfdb
