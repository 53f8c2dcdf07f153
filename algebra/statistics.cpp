// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/statistics.h"

#include "algebra/parallelfor.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace parallax {

namespace {

/// Accumulates one statistic in two passes: sums first, squared deviations second. Min and max start
/// from the first value (so a leading NaN stays, as in ParaProf's derived rows).
struct Accumulator {
    double total = 0;
    double sumSquares = 0;
    double min = 0;
    double max = 0;
    std::size_t present = 0;
    double devPresent = 0;
    double devAll = 0;
    std::uint32_t minThread = ThreadIndex::InvalidValue;
    std::uint32_t maxThread = ThreadIndex::InvalidValue;

    void add(double v, std::size_t thread)
    {
        total += v;
        sumSquares += v * v;
        if (present == 0 || v < min) {
            min = v;
            minThread = static_cast<std::uint32_t>(thread);
        }
        if (present == 0 || v > max) {
            max = v;
            maxThread = static_cast<std::uint32_t>(thread);
        }
        ++present;
    }
};

Stat finish(const Accumulator& a, std::size_t n)
{
    Stat s;
    s.total = a.total;
    s.sumSquares = a.sumSquares;
    s.present = a.present;
    s.meanAll = n > 0 ? a.total / static_cast<double>(n) : 0.0;
    s.meanPresent = a.present > 0 ? a.total / static_cast<double>(a.present) : 0.0;
    s.min = a.present > 0 ? a.min : 0.0;
    s.max = a.present > 0 ? a.max : 0.0;
    s.minThread = ThreadIndex(a.minThread);
    s.maxThread = ThreadIndex(a.maxThread);
    // Absent threads count as zeros in the "all" deviation.
    const double absent = static_cast<double>(n - a.present);
    const double devAll = a.devAll + absent * s.meanAll * s.meanAll;
    s.sdAll = n > 1 ? std::sqrt(devAll / static_cast<double>(n)) : 0.0;
    s.sdPresent = a.present > 1 ? std::sqrt(a.devPresent / static_cast<double>(a.present)) : 0.0;
    s.maxOverMean = s.meanAll != 0 ? s.max / s.meanAll : 0.0;
    s.imbalance = s.max != 0 ? (s.max - s.meanAll) / s.max : 0.0;
    s.cv = s.meanAll != 0 ? s.sdAll / s.meanAll : 0.0;
    return s;
}

constexpr std::size_t kindCount = 6;

} // namespace

double oneShotStdDev(const Stat& s, std::size_t count)
{
    if (count <= 1)
        return 0.0;
    const double n = static_cast<double>(count);
    const double mean = s.total / n;
    return std::sqrt(std::abs(s.sumSquares / n - mean * mean));
}

std::shared_ptr<const TrialStatistics> TrialStatistics::of(const Trial& trial)
{
    return trial.cached<TrialStatistics>([](const Trial& t) { return std::make_shared<const TrialStatistics>(t); });
}

std::size_t TrialStatistics::index(EventId e, MetricId m, ValueKind kind) const
{
    const auto k = static_cast<std::size_t>(kind);
    if (kind == ValueKind::Calls || kind == ValueKind::Subroutines)
        return e.index() * m_kindsPerEvent + (k - 2);
    // per metric: excl, incl, exclPerCall, inclPerCall
    const std::size_t slot = kind == ValueKind::Exclusive ? 0
        : kind == ValueKind::Inclusive                    ? 1
        : kind == ValueKind::ExclusivePerCall             ? 2
                                                          : 3;
    return e.index() * m_kindsPerEvent + 2 + std::size_t { m.index() } * 4 + slot;
}

TrialStatistics::TrialStatistics(const Trial& trial)
    : m_threads(trial.threadCount())
    , m_metrics(trial.metricCount())
    , m_kindsPerEvent(2 + 4 * trial.metricCount())
{
    (void)kindCount;
    const std::size_t events = trial.eventCount();
    std::vector<Accumulator> acc(events * m_kindsPerEvent);
    m_top.assign(m_metrics * m_threads, 0.0);
    m_sumTop.assign(m_metrics, 0.0);
    m_maxIncl.assign(m_metrics * m_threads, 0.0);
    m_sumMaxIncl.assign(m_metrics, 0.0);

    // Every accumulator sums its values in thread order (bit-identical to a serial pass); the
    // workers split the events, and each finds its range in a row (sorted by event id) by bisection.
    auto visit = [&](std::size_t e0, std::size_t e1, auto&& fn) {
        for (std::size_t t = 0; t < m_threads; ++t) {
            const RowView row = trial.row(ThreadIndex(t));
            const std::size_t n = row.size();
            const auto first = std::lower_bound(row.events.begin(), row.events.end(), EventId(e0),
                [](EventId a, EventId b) { return a.index() < b.index(); });
            for (auto i = static_cast<std::size_t>(first - row.events.begin()); i < n && row.events[i].index() < e1;
                 ++i) {
                // Slots per event: calls, subrs, then per metric excl, incl, excl/call, incl/call
                // (the layout index() describes).
                const std::size_t base = row.events[i].index() * m_kindsPerEvent;
                const double calls = row.calls[i];
                fn(base, calls, t);
                fn(base + 1, row.subrs[i], t);
                for (std::size_t m = 0; m < m_metrics; ++m) {
                    const std::size_t slot = base + 2 + m * 4;
                    const double ex = row.excl[m * n + i];
                    const double in = row.incl[m * n + i];
                    fn(slot, ex, t);
                    fn(slot + 1, in, t);
                    if (calls > 0) {
                        fn(slot + 2, ex / calls, t);
                        fn(slot + 3, in / calls, t);
                    }
                }
            }
        }
    };
    // Per-call values exist only where calls > 0: their "all threads" figures use those threads.
    auto isPerCall = [&](std::size_t k) {
        const std::size_t slot = k % m_kindsPerEvent;
        return slot >= 2 && (slot - 2) % 4 >= 2;
    };
    auto population = [&](std::size_t k) { return isPerCall(k) ? acc[k].present : m_threads; };
    m_stats.resize(acc.size());
    const std::size_t workers = parallelWorkers(events, 1, 0);
    const std::size_t eventBlock = std::max<std::size_t>(1, (events + workers - 1) / workers);
    parallelFor(events, eventBlock, 0, [&](std::size_t e0, std::size_t e1, std::size_t) {
        visit(e0, e1, [&](std::size_t k, double v, std::size_t t) { acc[k].add(v, t); });
        const std::size_t k0 = e0 * m_kindsPerEvent;
        const std::size_t k1 = e1 * m_kindsPerEvent;
        std::vector<double> meanPresent(k1 - k0), meanAll(k1 - k0);
        for (std::size_t k = k0; k < k1; ++k) {
            meanPresent[k - k0] = acc[k].present ? acc[k].total / static_cast<double>(acc[k].present) : 0.0;
            meanAll[k - k0] = population(k) ? acc[k].total / static_cast<double>(population(k)) : 0.0;
        }
        visit(e0, e1, [&](std::size_t k, double v, std::size_t) {
            const double dp = v - meanPresent[k - k0];
            const double da = v - meanAll[k - k0];
            acc[k].devPresent += dp * dp;
            acc[k].devAll += da * da;
        });
        for (std::size_t k = k0; k < k1; ++k)
            m_stats[k] = finish(acc[k], population(k));
    });

    parallelFor(m_threads, 1024, 0, [&](std::size_t t0, std::size_t t1, std::size_t) {
        for (std::size_t t = t0; t < t1; ++t) {
            const RowView row = trial.row(ThreadIndex(t));
            const std::size_t n = row.size();
            for (std::size_t m = 0; m < m_metrics; ++m) {
                double top = 0.0;
                double maxIncl = 0.0;
                for (std::size_t i = 0; i < n; ++i) {
                    top = std::max(top, row.incl[m * n + i]);
                    maxIncl = i == 0 ? row.incl[m * n + i] : std::max(maxIncl, row.incl[m * n + i]);
                }
                m_top[m * m_threads + t] = top;
                m_maxIncl[m * m_threads + t] = maxIncl;
            }
        }
    });
    for (std::size_t m = 0; m < m_metrics; ++m)
        for (std::size_t t = 0; t < m_threads; ++t) {
            m_sumTop[m] += m_top[m * m_threads + t];
            m_sumMaxIncl[m] += m_maxIncl[m * m_threads + t];
        }

    // Atomic events: statistics of each per-thread field.
    const std::size_t atomics = trial.atomicEventCount();
    std::vector<Accumulator> aacc(atomics * AtomicFieldCount);
    auto visitAtomic = [&](auto&& fn) {
        for (std::size_t t = 0; t < m_threads; ++t) {
            const AtomicRow& row = trial.atomicRow(ThreadIndex(t));
            for (std::size_t i = 0; i < row.size(); ++i) {
                const std::size_t base = row.events[i].index() * AtomicFieldCount;
                fn(base + Count, row.count[i], t);
                fn(base + Max, row.max[i], t);
                fn(base + Min, row.min[i], t);
                fn(base + Mean, row.mean[i], t);
                fn(base + StdDev, row.stddev(i), t);
                fn(base + Total, row.count[i] * row.mean[i], t);
                fn(base + SumSquares, row.sumSquares[i], t);
            }
        }
    };
    visitAtomic([&](std::size_t k, double v, std::size_t t) { aacc[k].add(v, t); });
    std::vector<double> amp(aacc.size()), ama(aacc.size());
    for (std::size_t k = 0; k < aacc.size(); ++k) {
        amp[k] = aacc[k].present ? aacc[k].total / static_cast<double>(aacc[k].present) : 0.0;
        ama[k] = m_threads ? aacc[k].total / static_cast<double>(m_threads) : 0.0;
    }
    visitAtomic([&](std::size_t k, double v, std::size_t) {
        aacc[k].devPresent += (v - amp[k]) * (v - amp[k]);
        aacc[k].devAll += (v - ama[k]) * (v - ama[k]);
    });
    m_atomic.resize(aacc.size());
    for (std::size_t k = 0; k < aacc.size(); ++k)
        m_atomic[k] = finish(aacc[k], m_threads);
}

const Stat& TrialStatistics::stat(EventId e, MetricId m, ValueKind kind) const { return m_stats[index(e, m, kind)]; }

const Stat& TrialStatistics::atomicStat(AtomicEventId u, AtomicField field) const
{
    return m_atomic[u.index() * AtomicFieldCount + static_cast<std::size_t>(field)];
}

double TrialStatistics::threadPercent(double value, ThreadIndex t, MetricId m) const
{
    const double top = threadTopInclusive(t, m);
    return top != 0 ? 100.0 * value / top : 0.0;
}

double TrialStatistics::totalPercent(EventId e, MetricId m, ValueKind kind) const
{
    const double d = sumTopInclusive(m);
    return d != 0 ? 100.0 * stat(e, m, kind).total / d : 0.0;
}

} // namespace parallax
