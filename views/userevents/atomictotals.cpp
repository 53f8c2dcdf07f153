// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/userevents/atomictotals.h"

#include <cmath>

namespace parallax {

std::shared_ptr<const AtomicTotals> AtomicTotals::of(const Trial& trial)
{
    return trial.cached<AtomicTotals>(
        [](const Trial& t) -> std::shared_ptr<const AtomicTotals> { return std::make_shared<AtomicTotals>(t); });
}

AtomicTotals::AtomicTotals(const Trial& trial)
    : m_totals(trial.atomicEventCount())
    , m_sumSquares(trial.atomicEventCount(), 0.0)
{
    const std::size_t threads = trial.threadCount();
    const double n = static_cast<double>(threads);
    for (std::size_t t = 0; t < threads; ++t) {
        const AtomicRow& row = trial.atomicRow(ThreadIndex(t));
        for (std::size_t i = 0; i < row.size(); ++i) {
            const std::size_t u = row.events[i].index();
            const double v = row.count[i] * row.mean[i];
            Stat& s = m_totals[u];
            if (s.present == 0 || v < s.min) {
                s.min = v;
                s.minThread = ThreadIndex(t);
            }
            if (s.present == 0 || v > s.max) {
                s.max = v;
                s.maxThread = ThreadIndex(t);
            }
            s.total += v;
            ++s.present;
            m_sumSquares[u] += row.sumSquares[i];
        }
    }
    for (Stat& s : m_totals) {
        s.meanAll = threads ? s.total / n : 0.0;
        s.meanPresent = s.present ? s.total / static_cast<double>(s.present) : 0.0;
    }
    // Second pass for the deviations (two-pass is exact enough for byte counts in the 1e17 range).
    std::vector<double> devAll(m_totals.size(), 0.0);
    std::vector<double> devPresent(m_totals.size(), 0.0);
    for (std::size_t t = 0; t < threads; ++t) {
        const AtomicRow& row = trial.atomicRow(ThreadIndex(t));
        for (std::size_t i = 0; i < row.size(); ++i) {
            const std::size_t u = row.events[i].index();
            const double v = row.count[i] * row.mean[i];
            devAll[u] += (v - m_totals[u].meanAll) * (v - m_totals[u].meanAll);
            devPresent[u] += (v - m_totals[u].meanPresent) * (v - m_totals[u].meanPresent);
        }
    }
    for (std::size_t u = 0; u < m_totals.size(); ++u) {
        Stat& s = m_totals[u];
        // Absent threads count as 0 in the "all" figures.
        devAll[u] += static_cast<double>(threads - s.present) * s.meanAll * s.meanAll;
        s.sdAll = threads > 1 ? std::sqrt(devAll[u] / n) : 0.0;
        s.sdPresent = s.present > 1 ? std::sqrt(devPresent[u] / static_cast<double>(s.present)) : 0.0;
    }
}

} // namespace parallax
