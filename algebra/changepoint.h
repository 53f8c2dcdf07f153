// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace parallax {

// Change points of a performance history (issue 17, docs/SEMANTICS.md §9): E-divisive means
// (Matteson and James, "A Nonparametric Approach for Multiple Change Point Analysis of Multivariate
// Data", JASA 109(505), 2014), as MongoDB runs it on its performance CI (Daly et al., "Change Point
// Detection in Software Performance Testing", ICPE 2020): the series is split recursively where the
// energy statistic between the two sides is largest, and a split is kept only if a permutation test
// finds it significant. A minimum relative effect then drops the changes too small to matter.

struct ChangePointOptions {
    double alpha = 0.05; ///< the permutation test's significance level
    int permutations = 199; ///< permutations per test (p has a resolution of 1/(permutations + 1))
    int minSegment = 3; ///< points on each side of a split at least
    double minEffectPercent = 1.0; ///< |Δ%| below this is no change point
    std::uint64_t seed = 0x5eed5eedULL; ///< the permutations' random numbers (results are reproducible)
};

struct ChangePoint {
    int index = 0; ///< the first point of the new level
    double before = 0; ///< the mean of the segment before
    double after = 0; ///< the mean of the segment from `index` on
    /// 100·(after − before)/before: for a lower-is-better metric (time) > 0 is a regression.
    double percent = 0;
    double pValue = 1; ///< the permutation test's p
};

struct ChangePointResult {
    std::vector<ChangePoint> changes; ///< by index
    /// The pooled standard deviation within the segments between the change points (the noise of
    /// the series once its level shifts are taken out); 0 with fewer than two points per segment.
    /// With repeats (RepeatNoise): the repeats' pooled standard deviation instead.
    double noise = 0;
    bool noiseFromRepeats = false; ///< `noise` is RepeatNoise::sigma
};

/// The noise of one run measured by repeats (docs/SEMANTICS.md §9): each value of the series is the
/// mean of `runs[i]` repeated runs at one order value, whose scatter has the standard deviation
/// `sigma` (the pooled within-group standard deviation). A split is then kept only when its
/// permutation test and a two-sided z-test of the difference of the two sides' means against this
/// noise (standard error σ·√(Σ 1/(m²·kᵢ) + Σ 1/(r²·kⱼ))) both give p ≤ alpha; its p is the larger.
struct RepeatNoise {
    double sigma = 0;
    std::vector<int> runs; ///< per value: how many runs it is the mean of (≥ 1)
};

/// The change points of `values` in order (NaN points are left out and the indices are those of
/// `values`). Fewer than 2·minSegment points: none.
ChangePointResult detectChangePoints(std::span<const double> values, const ChangePointOptions& options = {});
/// The same with the noise measured by repeated runs (null: as above).
ChangePointResult detectChangePoints(
    std::span<const double> values, const ChangePointOptions& options, const RepeatNoise* repeats);

/// The energy statistic Q̂(τ) of splitting `values` before index `tau` (Matteson and James, eq. 5,
/// with exponent 1): mn/(m+n) · (2/(mn)·Σ|x−y| − Σ|x−x'|/C(m,2) − Σ|y−y'|/C(n,2)). For tests.
double energyStatistic(std::span<const double> values, int tau);

} // namespace parallax
