// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "perfdb/derivedstatistics.h"

#include <algorithm>

namespace parallax::perfdb {

DerivedStatistics::DerivedStatistics(const Trial& trial)
    : m_stats(TrialStatistics::of(trial))
{
}

double DerivedStatistics::value(int code, const Stat& s) const
{
    switch (code) {
    case -1:
        return s.meanPresent;
    case -2:
        return s.total;
    case -3:
        return oneShotStdDev(s, s.present);
    case -4:
        return s.min;
    case -5:
        // ParaProf's MAX starts at 0 (docs/FORMATS.md 2.1).
        return std::max(0.0, s.max);
    case -6:
        return s.meanAll;
    case -7:
        return oneShotStdDev(s, m_stats->threadCount());
    default:
        return 0.0;
    }
}

double DerivedStatistics::percent(int code, const Stat& s, std::size_t metric) const
{
    const double divider = m_stats->sumMaxInclusive(MetricId(metric));
    if (code == -1 || code == -2 || code == -6)
        return divider != 0 ? s.total / divider * 100.0 : 0.0;
    const std::size_t threads = m_stats->threadCount();
    const double perThread = threads > 0 ? divider / static_cast<double>(threads) : 0.0;
    return perThread != 0 ? value(code, s) / perThread * 100.0 : 0.0;
}

} // namespace parallax::perfdb
