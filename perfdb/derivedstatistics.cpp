// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "perfdb/derivedstatistics.h"

#include <algorithm>
#include <cmath>

namespace parallax::perfdb {

void DerivedStatistics::Accumulator::add(double x, bool first)
{
    sum += x;
    sumSquares += x * x;
    min = first ? x : std::min(min, x);
    max = first ? x : std::max(max, x);
}

DerivedStatistics::DerivedStatistics(const Trial& trial)
    : m_threads(trial.threadCount())
    , m_quantities(2 + 2 * trial.metricCount())
    , m_present(trial.eventCount(), 0)
    , m_values(trial.eventCount() * m_quantities)
    , m_divider(trial.metricCount(), 0.0)
{
    const std::size_t metrics = trial.metricCount();
    for (std::size_t t = 0; t < m_threads; ++t) {
        const IntervalRow& row = trial.row(ThreadIndex(t));
        const std::size_t n = row.size();
        for (std::size_t m = 0; m < metrics; ++m) {
            double top = 0;
            for (std::size_t i = 0; i < n; ++i)
                top = i == 0 ? row.inclusive(m, i) : std::max(top, row.inclusive(m, i));
            m_divider[m] += top;
        }
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t e = row.events[i].index();
            const bool first = m_present[e]++ == 0;
            Accumulator* a = &m_values[e * m_quantities];
            a[0].add(row.calls[i], first);
            a[1].add(row.subrs[i], first);
            for (std::size_t m = 0; m < metrics; ++m) {
                a[2 + 2 * m].add(row.exclusive(m, i), first);
                a[3 + 2 * m].add(row.inclusive(m, i), first);
            }
        }
    }
}

double DerivedStatistics::derive(int code, const Accumulator& a, std::size_t present, std::size_t threads)
{
    const double k = static_cast<double>(present);
    const double n = static_cast<double>(threads);
    switch (code) {
    case -1:
        return present > 0 ? a.sum / k : 0.0;
    case -2:
        return a.sum;
    case -3: {
        if (present <= 1)
            return 0.0;
        const double mean = a.sum / k;
        return std::sqrt(std::abs(a.sumSquares / k - mean * mean));
    }
    case -4:
        return present > 0 ? a.min : 0.0;
    case -5:
        // ParaProf's MAX starts at 0 (docs/FORMATS.md 2.1).
        return present > 0 ? std::max(0.0, a.max) : 0.0;
    case -6:
        return threads > 0 ? a.sum / n : 0.0;
    case -7: {
        if (threads <= 1)
            return 0.0;
        const double mean = a.sum / n;
        return std::sqrt(std::abs(a.sumSquares / n - mean * mean));
    }
    default:
        return 0.0;
    }
}

double DerivedStatistics::value(int code, EventId e, std::size_t quantity) const
{
    return derive(code, m_values[e.index() * m_quantities + quantity], m_present[e.index()], m_threads);
}

double DerivedStatistics::percent(int code, EventId e, std::size_t quantity) const
{
    const double divider = m_divider[(quantity - 2) / 2];
    if (code == -1 || code == -2 || code == -6)
        return divider != 0 ? value(-2, e, quantity) / divider * 100.0 : 0.0;
    const double perThread = m_threads > 0 ? divider / static_cast<double>(m_threads) : 0.0;
    return perThread != 0 ? value(code, e, quantity) / perThread * 100.0 : 0.0;
}

} // namespace parallax::perfdb
