// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/statistics.h"

#include <memory>
#include <vector>

namespace parallax {

/// User-event figures that TrialStatistics::atomicStat does not provide: statistics across
/// threads of the per-thread total (count × mean), and the sum over threads of the sums of
/// squares, which gives the pooled std. dev. of all samples (docs/SEMANTICS.md 1.5). Computed once per
/// trial and cached on it.
class AtomicTotals {
public:
    static std::shared_ptr<const AtomicTotals> of(const Trial& trial);

    explicit AtomicTotals(const Trial& trial);

    /// Statistics of the per-thread total n·mean (same conventions as TrialStatistics).
    const Stat& total(AtomicEventId u) const { return m_totals[u.index()]; }
    /// Σ over threads of sumsqr.
    double sumSquares(AtomicEventId u) const { return m_sumSquares[u.index()]; }

private:
    std::vector<Stat> m_totals;
    std::vector<double> m_sumSquares;
};

} // namespace parallax
