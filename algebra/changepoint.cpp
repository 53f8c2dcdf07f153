// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/changepoint.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>

namespace parallax {

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

struct BestSplit {
    int tau = -1; ///< relative to the segment
    double q = 0;
};

/// The largest Q̂ over the splits of `x` with at least `minSegment` points each side, in O(n²):
/// the within-side sums are updated as τ moves one point right.
BestSplit bestSplit(const std::vector<double>& x, int minSegment)
{
    const int n = static_cast<int>(x.size());
    BestSplit best;
    if (n < 2 * minSegment)
        return best;
    // rowToLeft[i] = Σ_{k<i} |x_i − x_k|, rowToRight[i] = Σ_{k>i} |x_i − x_k|.
    std::vector<double> rowToLeft(at(n), 0.0);
    std::vector<double> rowToRight(at(n), 0.0);
    double total = 0; // Σ_{i<k} |x_i − x_k|
    for (int i = 0; i < n; ++i)
        for (int k = i + 1; k < n; ++k) {
            const double d = std::abs(x[at(i)] - x[at(k)]);
            rowToRight[at(i)] += d;
            rowToLeft[at(k)] += d;
            total += d;
        }
    double left = 0; // Σ within x[0, τ)
    double right = total; // Σ within x[τ, n)
    for (int tau = 1; tau < n; ++tau) {
        // Point tau − 1 moves from the right side to the left.
        left += rowToLeft[at(tau - 1)];
        right -= rowToRight[at(tau - 1)];
        if (tau < minSegment || n - tau < minSegment)
            continue;
        const double m = tau;
        const double r = n - tau;
        const double between = total - left - right;
        const double withinLeft = m > 1 ? left / (m * (m - 1) / 2) : 0.0;
        const double withinRight = r > 1 ? right / (r * (r - 1) / 2) : 0.0;
        const double e = 2.0 * between / (m * r) - withinLeft - withinRight;
        const double q = m * r / (m + r) * e;
        if (best.tau < 0 || q > best.q) {
            best.tau = tau;
            best.q = q;
        }
    }
    return best;
}

double mean(const std::vector<double>& x, int from, int to)
{
    return std::accumulate(x.begin() + from, x.begin() + to, 0.0) / (to - from);
}

} // namespace

double energyStatistic(std::span<const double> values, int tau)
{
    const int n = static_cast<int>(values.size());
    if (tau <= 0 || tau >= n)
        return 0;
    double between = 0;
    double left = 0;
    double right = 0;
    for (int i = 0; i < n; ++i)
        for (int k = i + 1; k < n; ++k) {
            const double d = std::abs(values[at(i)] - values[at(k)]);
            if (k < tau)
                left += d;
            else if (i >= tau)
                right += d;
            else
                between += d;
        }
    const double m = tau;
    const double r = n - tau;
    const double e = 2.0 * between / (m * r) - (m > 1 ? left / (m * (m - 1) / 2) : 0.0)
        - (r > 1 ? right / (r * (r - 1) / 2) : 0.0);
    return m * r / (m + r) * e;
}

ChangePointResult detectChangePoints(std::span<const double> values, const ChangePointOptions& options)
{
    return detectChangePoints(values, options, nullptr);
}

ChangePointResult detectChangePoints(
    std::span<const double> values, const ChangePointOptions& options, const RepeatNoise* repeats)
{
    // The finite points and where they came from.
    std::vector<double> x;
    std::vector<int> origin;
    std::vector<double> inverseRuns; // per finite point: 1/k, k the runs it is the mean of
    for (std::size_t i = 0; i < values.size(); ++i)
        if (std::isfinite(values[i])) {
            x.push_back(values[i]);
            origin.push_back(static_cast<int>(i));
            const int k = repeats && i < repeats->runs.size() ? std::max(1, repeats->runs[i]) : 1;
            inverseRuns.push_back(1.0 / k);
        }
    const int n = static_cast<int>(x.size());
    const int minSegment = std::max(1, options.minSegment);
    std::mt19937_64 random(options.seed);

    // Binary segmentation: split the segment with the most significant split first (as
    // e.divisive does), until no segment has a significant one.
    std::vector<int> cuts { 0, n }; // segment boundaries, sorted
    std::vector<std::pair<int, double>> found; // (cut, p)
    struct Tested {
        int cut = -1; ///< absolute; -1: no split
        double q = 0;
        double p = 1;
    };
    std::map<std::pair<int, int>, Tested> tested; // by segment: a segment is tested once
    auto test = [&](int from, int to) {
        std::vector<double> segment(x.begin() + from, x.begin() + to);
        const BestSplit split = bestSplit(segment, minSegment);
        Tested t;
        if (split.tau < 0 || split.q <= 0)
            return t;
        // Permutation test: how often does a shuffled segment split as well?
        int asGood = 0;
        std::vector<double> shuffled = segment;
        for (int r = 0; r < options.permutations; ++r) {
            std::shuffle(shuffled.begin(), shuffled.end(), random);
            if (bestSplit(shuffled, minSegment).q >= split.q)
                ++asGood;
        }
        t.cut = from + split.tau;
        t.q = split.q;
        t.p = (1.0 + asGood) / (1.0 + options.permutations);
        if (repeats) {
            // The z-test against the repeats' noise: the two sides' means of point means, each point
            // the mean of k runs with the standard deviation sigma.
            const double m = t.cut - from;
            const double r = to - t.cut;
            double left = 0;
            double right = 0;
            for (int i = from; i < t.cut; ++i)
                left += inverseRuns[at(i)];
            for (int i = t.cut; i < to; ++i)
                right += inverseRuns[at(i)];
            const double se = repeats->sigma * std::sqrt(left / (m * m) + right / (r * r));
            const double difference = std::abs(mean(x, t.cut, to) - mean(x, from, t.cut));
            const double pz = se > 0 ? std::erfc(difference / se / std::sqrt(2.0)) : (difference > 0 ? 0.0 : 1.0);
            t.p = std::max(t.p, pz);
        }
        return t;
    };
    for (;;) {
        int bestCut = -1;
        double bestP = 1;
        double bestQ = -1;
        for (std::size_t s = 0; s + 1 < cuts.size(); ++s) {
            const std::pair<int, int> key(cuts[s], cuts[s + 1]);
            auto it = tested.find(key);
            if (it == tested.end())
                it = tested.emplace(key, test(key.first, key.second)).first;
            const Tested& t = it->second;
            if (t.cut >= 0 && t.p <= options.alpha && (t.p < bestP || (t.p == bestP && t.q > bestQ))) {
                bestCut = t.cut;
                bestP = t.p;
                bestQ = t.q;
            }
        }
        if (bestCut < 0)
            break;
        cuts.insert(std::upper_bound(cuts.begin(), cuts.end(), bestCut), bestCut);
        found.emplace_back(bestCut, bestP);
    }
    std::sort(found.begin(), found.end());

    ChangePointResult result;
    // Each change compares the segments on either side of it (between the neighbouring cuts).
    for (const auto& [cut, p] : found) {
        const auto it = std::lower_bound(cuts.begin(), cuts.end(), cut);
        const int from = *(it - 1);
        const int to = *(it + 1);
        ChangePoint c;
        c.index = origin[at(cut)];
        c.before = mean(x, from, cut);
        c.after = mean(x, cut, to);
        c.percent = c.before != 0 ? 100.0 * (c.after - c.before) / std::abs(c.before) : 0.0;
        c.pValue = p;
        if (std::abs(c.percent) >= options.minEffectPercent)
            result.changes.push_back(c);
    }
    // The noise: pooled standard deviation within the segments.
    double squares = 0;
    int freedom = 0;
    for (std::size_t s = 0; s + 1 < cuts.size(); ++s) {
        const int from = cuts[s];
        const int to = cuts[s + 1];
        if (to - from < 2)
            continue;
        const double mu = mean(x, from, to);
        for (int i = from; i < to; ++i)
            squares += (x[at(i)] - mu) * (x[at(i)] - mu);
        freedom += to - from - 1;
    }
    result.noise = freedom > 0 ? std::sqrt(squares / freedom) : 0.0;
    if (repeats) {
        result.noise = repeats->sigma;
        result.noiseFromRepeats = true;
    }
    return result;
}

} // namespace parallax
