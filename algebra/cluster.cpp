// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/cluster.h"

#include "algebra/enumnames.h"
#include "algebra/parallelfor.h"
#include "algebra/statistics.h"
#include "datasource/synth/splitmix.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace parallax {

namespace {

constexpr std::array<EnumName<ClusterNormalisation>, 3> NormalisationNames { {
    { ClusterNormalisation::Raw, "raw" },
    { ClusterNormalisation::Share, "share" },
    { ClusterNormalisation::ZScore, "zscore" },
} };
constexpr std::array<EnumName<ClusterMethod>, 2> MethodNames { {
    { ClusterMethod::KMeans, "kmeans" },
    { ClusterMethod::Ward, "ward" },
} };

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstRowMap = Eigen::Map<const RowMatrix>;

constexpr std::size_t Block = 2048; ///< rows per parallel block (fixed, so sums are reduced in one order)

const double NaN = std::numeric_limits<double>::quiet_NaN();

bool cancelled(const ClusterOptions& o) { return o.cancel && o.cancel->load(std::memory_order_relaxed); }

double squaredDistance(const double* a, const double* b, std::size_t d)
{
    // Four running sums: independent additions the processor overlaps (no -ffast-math needed).
    double s[4] = { 0, 0, 0, 0 };
    std::size_t j = 0;
    for (; j + 4 <= d; j += 4)
        for (std::size_t u = 0; u < 4; ++u) {
            const double v = a[j + u] - b[j + u];
            s[u] += v * v;
        }
    for (; j < d; ++j) {
        const double v = a[j] - b[j];
        s[0] += v * v;
    }
    return (s[0] + s[1]) + (s[2] + s[3]);
}

/// `count` distinct indices of [0, n) drawn with the seed, sorted (all of them when count >= n).
std::vector<std::size_t> sampleRows(std::size_t n, std::size_t count, std::uint64_t seed)
{
    std::vector<std::size_t> rows(n);
    std::iota(rows.begin(), rows.end(), std::size_t(0));
    if (count >= n)
        return rows;
    SplitMix64 rng(seed ^ 0x5A17E5A17E5A17EULL);
    for (std::size_t i = 0; i < count; ++i) { // partial Fisher–Yates
        const std::size_t j = i + static_cast<std::size_t>(rng.next() % (n - i));
        std::swap(rows[i], rows[j]);
    }
    rows.resize(count);
    std::sort(rows.begin(), rows.end());
    return rows;
}

/// Σ over rows of xᵀx of the (optionally centred) rows: d × d, blocks reduced in a fixed order.
Eigen::MatrixXd gram(const ConstRowMap& x, const Eigen::RowVectorXd* centre, int workers)
{
    const std::size_t n = static_cast<std::size_t>(x.rows());
    const Eigen::Index d = x.cols();
    const std::size_t blocks = (n + Block - 1) / Block;
    std::vector<Eigen::MatrixXd> partial(blocks);
    parallelFor(n, Block, workers, [&](std::size_t begin, std::size_t end, std::size_t) {
        RowMatrix b = x.middleRows(static_cast<Eigen::Index>(begin), static_cast<Eigen::Index>(end - begin));
        if (centre)
            b.rowwise() -= *centre;
        partial[begin / Block].noalias() = b.transpose() * b;
    });
    Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(d, d);
    for (const auto& p : partial)
        sum += p;
    return sum;
}

/// The result's clusters from labels: numbered by size (largest first, ties by first member), with
/// centroids, raw means, sse and the representative.
void finishClusters(const ProfileMatrix& m, std::vector<int>& labels, int k, ClusterResult& r)
{
    const std::size_t n = m.rows;
    const std::size_t d = m.cols;
    std::vector<std::size_t> size(static_cast<std::size_t>(k), 0);
    std::vector<std::size_t> first(static_cast<std::size_t>(k), n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<std::size_t>(labels[i]);
        ++size[c];
        first[c] = std::min(first[c], i);
    }
    std::vector<int> order(static_cast<std::size_t>(k));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
        return size[ua] != size[ub] ? size[ua] > size[ub] : first[ua] < first[ub];
    });
    std::vector<int> renumber(static_cast<std::size_t>(k));
    for (int i = 0; i < k; ++i)
        renumber[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = i;
    for (int& l : labels)
        l = renumber[static_cast<std::size_t>(l)];

    r.k = k;
    r.clusters.assign(static_cast<std::size_t>(k), {});
    for (auto& c : r.clusters) {
        c.centroid.assign(d, 0.0);
        c.meanRaw.assign(d, 0.0);
    }
    for (std::size_t i = 0; i < n; ++i) {
        ThreadCluster& c = r.clusters[static_cast<std::size_t>(labels[i])];
        ++c.size;
        const double* v = &m.values[i * d];
        const double* w = &m.raw[i * d];
        for (std::size_t j = 0; j < d; ++j) {
            c.centroid[j] += v[j];
            c.meanRaw[j] += w[j];
        }
    }
    for (auto& c : r.clusters)
        for (std::size_t j = 0; j < d; ++j) {
            c.centroid[j] /= static_cast<double>(c.size);
            c.meanRaw[j] /= static_cast<double>(c.size);
        }
    std::vector<double> best(static_cast<std::size_t>(k), std::numeric_limits<double>::infinity());
    r.inertia = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const auto l = static_cast<std::size_t>(labels[i]);
        ThreadCluster& c = r.clusters[l];
        const double s = squaredDistance(&m.values[i * d], c.centroid.data(), d);
        c.sse += s;
        if (s < best[l]) {
            best[l] = s;
            c.representative = i;
        }
    }
    for (const auto& c : r.clusters)
        r.inertia += c.sse;
    r.labels = std::move(labels);
}

struct KMeansRun {
    std::vector<int> labels;
    double inertia = std::numeric_limits<double>::infinity();
    int iterations = 0;
};

/// Lloyd's k-means from k-means++ seeds (one restart), with squared distances as
/// ‖x‖² − 2 x·c + ‖c‖² by blocks of a matrix product.
KMeansRun kmeansOnce(const ProfileMatrix& m, const std::vector<double>& rowNorms, int k, std::uint64_t seed,
    double tolerance, const ClusterOptions& o)
{
    const std::size_t n = m.rows;
    const auto d = static_cast<Eigen::Index>(m.cols);
    const ConstRowMap x(m.values.data(), static_cast<Eigen::Index>(n), d);
    const auto uk = static_cast<std::size_t>(k);
    const std::size_t blocks = (n + Block - 1) / Block;
    SplitMix64 rng(seed);

    // Greedy k-means++ (scikit-learn's): the first centre uniformly; each next one the best of
    // L = 2 + ⌊ln k⌋ rows drawn with probability ∝ D(x)², the one that lowers Σ D(x)² most. One pass
    // over the rows per centre: the candidates' distances by blocks of a matrix product.
    RowMatrix centres(k, d);
    std::vector<double> nearest(n);
    std::vector<double> blockSum(blocks);
    const auto trials = 2 + static_cast<Eigen::Index>(std::log(static_cast<double>(k)));
    // candidate t's min(nearest, D²) per row, and per block its sum
    std::vector<double> candidateNearest(n * static_cast<std::size_t>(trials));
    std::vector<double> trialSum(blocks * static_cast<std::size_t>(trials));
    auto distancesTo = [&](const std::vector<std::size_t>& candidates, bool first) {
        RowMatrix c(static_cast<Eigen::Index>(candidates.size()), d);
        for (std::size_t t = 0; t < candidates.size(); ++t)
            c.row(static_cast<Eigen::Index>(t)) = x.row(static_cast<Eigen::Index>(candidates[t]));
        const Eigen::VectorXd cNorms = c.rowwise().squaredNorm();
        const auto l = static_cast<std::size_t>(c.rows());
        parallelFor(n, Block, o.workers, [&](std::size_t begin, std::size_t end, std::size_t) {
            const auto rows = static_cast<Eigen::Index>(end - begin);
            const RowMatrix dots = x.middleRows(static_cast<Eigen::Index>(begin), rows) * c.transpose();
            for (std::size_t t = 0; t < l; ++t) {
                double sum = 0;
                for (Eigen::Index r = 0; r < rows; ++r) {
                    const std::size_t i = begin + static_cast<std::size_t>(r);
                    double dd = std::max(0.0,
                        rowNorms[i] - 2 * dots(r, static_cast<Eigen::Index>(t)) + cNorms(static_cast<Eigen::Index>(t)));
                    if (i == candidates[t])
                        dd = 0;
                    if (!first)
                        dd = std::min(dd, nearest[i]);
                    candidateNearest[i * l + t] = dd;
                    sum += dd;
                }
                trialSum[begin / Block * l + t] = sum;
            }
        });
    };
    auto choose = [&](std::size_t l, std::size_t t) { // candidate t of l becomes a centre
        for (std::size_t i = 0; i < n; ++i)
            nearest[i] = candidateNearest[i * l + t];
        for (std::size_t b = 0; b < blocks; ++b)
            blockSum[b] = trialSum[b * l + t];
    };
    auto draw = [&](double total) { // a row with probability ∝ nearest
        double target = rng.uniform() * total;
        std::size_t b = 0;
        while (b + 1 < blocks && target >= blockSum[b]) {
            target -= blockSum[b];
            ++b;
        }
        std::size_t pick = std::min(n, (b + 1) * Block) - 1;
        for (std::size_t i = b * Block; i < std::min(n, (b + 1) * Block); ++i) {
            if (target < nearest[i] && nearest[i] > 0) {
                pick = i;
                break;
            }
            target -= nearest[i];
        }
        return pick;
    };
    std::size_t pick = static_cast<std::size_t>(rng.next() % n);
    distancesTo({ pick }, true);
    choose(1, 0);
    centres.row(0) = x.row(static_cast<Eigen::Index>(pick));
    for (int c = 1; c < k; ++c) {
        const double total = std::accumulate(blockSum.begin(), blockSum.end(), 0.0);
        std::vector<std::size_t> candidates;
        for (Eigen::Index t = 0; t < trials; ++t)
            candidates.push_back(total > 0 ? draw(total) : (pick + 1 + static_cast<std::size_t>(t)) % n);
        distancesTo(candidates, false);
        double best = std::numeric_limits<double>::infinity();
        std::size_t winner = 0;
        for (std::size_t t = 0; t < candidates.size(); ++t) {
            double sum = 0;
            for (std::size_t b = 0; b < blocks; ++b)
                sum += trialSum[b * candidates.size() + t];
            if (sum < best) {
                best = sum;
                winner = t;
            }
        }
        pick = candidates[winner];
        choose(candidates.size(), winner);
        centres.row(c) = x.row(static_cast<Eigen::Index>(pick));
    }

    KMeansRun run;
    run.labels.assign(n, -1);
    std::vector<double> distance(n);
    std::vector<RowMatrix> sums(blocks);
    std::vector<std::vector<std::size_t>> counts(blocks);
    std::vector<std::size_t> changedIn(blocks);
    auto assign = [&]() {
        const Eigen::VectorXd centreNorms = centres.rowwise().squaredNorm();
        parallelFor(n, Block, o.workers, [&](std::size_t begin, std::size_t end, std::size_t) {
            const auto rows = static_cast<Eigen::Index>(end - begin);
            const RowMatrix dots = x.middleRows(static_cast<Eigen::Index>(begin), rows) * centres.transpose();
            RowMatrix& s = sums[begin / Block];
            s.setZero(k, d);
            auto& cnt = counts[begin / Block];
            cnt.assign(uk, 0);
            std::size_t changed = 0;
            for (Eigen::Index r = 0; r < rows; ++r) {
                const std::size_t i = begin + static_cast<std::size_t>(r);
                int best = 0;
                double bestDistance = std::numeric_limits<double>::infinity();
                for (int c = 0; c < k; ++c) {
                    const double dist = rowNorms[i] - 2 * dots(r, c) + centreNorms(c);
                    if (dist < bestDistance) {
                        bestDistance = dist;
                        best = c;
                    }
                }
                distance[i] = std::max(0.0, bestDistance);
                if (run.labels[i] != best) {
                    run.labels[i] = best;
                    ++changed;
                }
                s.row(best) += x.row(static_cast<Eigen::Index>(i));
                ++cnt[static_cast<std::size_t>(best)];
            }
            changedIn[begin / Block] = changed;
        });
        return std::accumulate(changedIn.begin(), changedIn.end(), std::size_t(0));
    };

    for (run.iterations = 1; run.iterations <= o.maxIterations; ++run.iterations) {
        if (cancelled(o))
            return run;
        const std::size_t changed = assign();
        if (changed == 0 && run.iterations > 1)
            break;
        RowMatrix sum = RowMatrix::Zero(k, d);
        std::vector<std::size_t> count(uk, 0);
        for (std::size_t b = 0; b < blocks; ++b) {
            sum += sums[b];
            for (std::size_t c = 0; c < uk; ++c)
                count[c] += counts[b][c];
        }
        RowMatrix next(k, d);
        for (int c = 0; c < k; ++c) {
            if (count[static_cast<std::size_t>(c)] > 0) {
                next.row(c) = sum.row(c) / static_cast<double>(count[static_cast<std::size_t>(c)]);
                continue;
            }
            // An empty cluster takes the row farthest from its centre.
            const auto far
                = static_cast<std::size_t>(std::max_element(distance.begin(), distance.end()) - distance.begin());
            next.row(c) = x.row(static_cast<Eigen::Index>(far));
            distance[far] = 0;
        }
        const double shift = (next - centres).squaredNorm();
        centres = next;
        if (shift <= tolerance) {
            assign();
            break;
        }
    }
    run.iterations = std::min(run.iterations, o.maxIterations);
    // Empty clusters cannot remain after the last assignment unless rows coincide; the inertia is exact.
    std::vector<double> part(blocks);
    parallelFor(n, Block, o.workers, [&](std::size_t begin, std::size_t end, std::size_t) {
        double s = 0;
        for (std::size_t i = begin; i < end; ++i)
            s += squaredDistance(&m.values[i * m.cols], centres.row(run.labels[i]).data(), m.cols);
        part[begin / Block] = s;
    });
    run.inertia = std::accumulate(part.begin(), part.end(), 0.0);
    return run;
}

/// k-means with `restarts` seeds; the labels of least inertia, renumbered 0..k-1 over the non-empty clusters.
KMeansRun kmeans(const ProfileMatrix& m, int k, const ClusterOptions& o)
{
    const std::size_t n = m.rows;
    std::vector<double> rowNorms(n);
    for (std::size_t i = 0; i < n; ++i) {
        double s = 0;
        for (std::size_t j = 0; j < m.cols; ++j)
            s += m.values[i * m.cols + j] * m.values[i * m.cols + j];
        rowNorms[i] = s;
    }
    // scikit-learn's tolerance: 1e-4 × the mean of the columns' variances, on the centres' squared shift.
    const ConstRowMap x(m.values.data(), static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(m.cols));
    const Eigen::RowVectorXd mean = x.colwise().mean();
    const double variance = (x.rowwise() - mean).squaredNorm() / static_cast<double>(n);
    const double tolerance = 1e-4 * variance / static_cast<double>(std::max<std::size_t>(1, m.cols));
    KMeansRun best;
    const double work = static_cast<double>(n) * static_cast<double>(m.cols) * k;
    const int restarts = o.restarts > 0 ? o.restarts : work <= 5e7 ? 10 : 4;
    for (int r = 0; r < restarts; ++r) {
        KMeansRun run = kmeansOnce(
            m, rowNorms, k, o.seed + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(r + 1), tolerance, o);
        if (cancelled(o))
            return best;
        if (run.inertia < best.inertia)
            best = std::move(run);
    }
    return best;
}

/// Ward's agglomerative clustering of the rows `rows` into k clusters by the nearest-neighbour chain
/// on squared Euclidean distances updated with Lance–Williams; labels per entry of `rows`.
std::vector<int> wardLabels(
    const ProfileMatrix& m, const std::vector<std::size_t>& rows, int k, const ClusterOptions& o)
{
    const std::size_t n = rows.size();
    auto at = [n](std::size_t i, std::size_t j) { // condensed index, i != j
        if (i > j)
            std::swap(i, j);
        return n * i - i * (i + 1) / 2 + (j - i - 1);
    };
    std::vector<double> dist(n * (n - 1) / 2);
    parallelFor(n, 64, o.workers, [&](std::size_t begin, std::size_t end, std::size_t) {
        for (std::size_t i = begin; i < end; ++i)
            for (std::size_t j = i + 1; j < n; ++j)
                dist[at(i, j)] = squaredDistance(&m.values[rows[i] * m.cols], &m.values[rows[j] * m.cols], m.cols);
    });
    struct Merge {
        std::size_t a, b;
        double height;
    };
    std::vector<Merge> merges;
    merges.reserve(n - 1);
    std::vector<double> weight(n, 1.0);
    std::vector<char> active(n, 1);
    std::vector<std::size_t> chain;
    std::size_t firstActive = 0;
    while (merges.size() + 1 < n) {
        if (cancelled(o))
            return {};
        if (chain.empty()) {
            while (!active[firstActive])
                ++firstActive;
            chain.push_back(firstActive);
        }
        const std::size_t a = chain.back();
        const std::size_t previous = chain.size() >= 2 ? chain[chain.size() - 2] : n;
        std::size_t b = previous;
        double bd = previous < n ? dist[at(a, previous)] : std::numeric_limits<double>::infinity();
        for (std::size_t j = 0; j < n; ++j)
            if (active[j] && j != a && dist[at(a, j)] < bd) {
                bd = dist[at(a, j)];
                b = j;
            }
        if (b != previous) {
            chain.push_back(b);
            continue;
        }
        chain.pop_back();
        chain.pop_back();
        const std::size_t keep = std::min(a, b), drop = std::max(a, b);
        merges.push_back({ a, b, bd });
        const double na = weight[a], nb = weight[b];
        for (std::size_t j = 0; j < n; ++j) {
            if (!active[j] || j == a || j == b)
                continue;
            const double nj = weight[j];
            dist[at(keep, j)] = ((na + nj) * dist[at(a, j)] + (nb + nj) * dist[at(b, j)] - nj * bd) / (na + nb + nj);
        }
        weight[keep] = na + nb;
        active[drop] = 0;
    }
    // Ward's heights never decrease along the tree, so cutting at k clusters is the n − k lowest merges.
    std::stable_sort(merges.begin(), merges.end(), [](const Merge& l, const Merge& r) { return l.height < r.height; });
    std::vector<std::size_t> parent(n);
    std::iota(parent.begin(), parent.end(), std::size_t(0));
    auto find = [&](std::size_t i) {
        while (parent[i] != i)
            i = parent[i] = parent[parent[i]];
        return i;
    };
    for (std::size_t i = 0; i + static_cast<std::size_t>(k) < n; ++i) {
        const std::size_t ra = find(merges[i].a), rb = find(merges[i].b);
        parent[std::max(ra, rb)] = std::min(ra, rb);
    }
    std::vector<int> labels(n, -1);
    std::vector<int> id(n, -1);
    int next = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t root = find(i);
        if (id[root] < 0)
            id[root] = next++;
        labels[i] = id[root];
    }
    return labels;
}

/// Labels for every row from Ward on `options.wardSample` rows: the sample's clusters, then every row
/// to the nearest of their centroids.
std::vector<int> ward(const ProfileMatrix& m, int k, const ClusterOptions& o, std::size_t* used)
{
    const std::vector<std::size_t> rows = sampleRows(m.rows, std::max<std::size_t>(o.wardSample, 2), o.seed);
    *used = rows.size();
    std::vector<int> sampleLabels = wardLabels(m, rows, k, o);
    if (sampleLabels.empty())
        return {};
    if (rows.size() == m.rows)
        return sampleLabels;
    std::vector<double> centroid(static_cast<std::size_t>(k) * m.cols, 0.0);
    std::vector<std::size_t> count(static_cast<std::size_t>(k), 0);
    for (std::size_t s = 0; s < rows.size(); ++s) {
        const auto l = static_cast<std::size_t>(sampleLabels[s]);
        ++count[l];
        for (std::size_t j = 0; j < m.cols; ++j)
            centroid[l * m.cols + j] += m.values[rows[s] * m.cols + j];
    }
    for (std::size_t l = 0; l < count.size(); ++l)
        for (std::size_t j = 0; j < m.cols; ++j)
            centroid[l * m.cols + j] /= static_cast<double>(count[l]);
    std::vector<int> labels(m.rows);
    parallelFor(m.rows, Block, o.workers, [&](std::size_t begin, std::size_t end, std::size_t) {
        for (std::size_t i = begin; i < end; ++i) {
            int best = 0;
            double bd = std::numeric_limits<double>::infinity();
            for (int c = 0; c < k; ++c) {
                const double dd
                    = squaredDistance(&m.values[i * m.cols], &centroid[static_cast<std::size_t>(c) * m.cols], m.cols);
                if (dd < bd) {
                    bd = dd;
                    best = c;
                }
            }
            labels[i] = best;
        }
    });
    return labels;
}

/// Euclidean distances between the sampled rows, from their Gram matrix.
Eigen::MatrixXd sampleDistances(const ProfileMatrix& m, const std::vector<std::size_t>& rows)
{
    const auto s = static_cast<Eigen::Index>(rows.size());
    RowMatrix x(s, static_cast<Eigen::Index>(m.cols));
    for (Eigen::Index i = 0; i < s; ++i)
        for (std::size_t j = 0; j < m.cols; ++j)
            x(i, static_cast<Eigen::Index>(j)) = m.values[rows[static_cast<std::size_t>(i)] * m.cols + j];
    // Exact differences for small samples; the Gram form (‖a‖² − 2a·b + ‖b‖²) loses digits only when
    // rows nearly coincide, where a silhouette does not depend on them.
    Eigen::MatrixXd d(s, s);
    if (s <= 512) {
        for (Eigen::Index i = 0; i < s; ++i)
            for (Eigen::Index j = 0; j < s; ++j)
                d(i, j) = (x.row(i) - x.row(j)).norm();
        return d;
    }
    const Eigen::VectorXd norms = x.rowwise().squaredNorm();
    d.noalias() = -2.0 * x * x.transpose();
    d.colwise() += norms;
    d.rowwise() += norms.transpose();
    d = d.cwiseMax(0.0).cwiseSqrt();
    d.diagonal().setZero();
    return d;
}

double silhouetteOf(
    const Eigen::MatrixXd& d, const std::vector<int>& labels, int k, std::vector<double>* perRow = nullptr)
{
    if (perRow)
        perRow->assign(static_cast<std::size_t>(d.rows()), 0.0);
    const auto s = static_cast<std::size_t>(d.rows());
    std::vector<double> count(static_cast<std::size_t>(k), 0.0);
    for (int l : labels)
        ++count[static_cast<std::size_t>(l)];
    double sum = 0;
    std::vector<double> to(static_cast<std::size_t>(k));
    for (std::size_t i = 0; i < s; ++i) {
        std::fill(to.begin(), to.end(), 0.0);
        for (std::size_t j = 0; j < s; ++j)
            to[static_cast<std::size_t>(labels[j])] += d(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
        const auto own = static_cast<std::size_t>(labels[i]);
        if (count[own] <= 1)
            continue; // a row alone scores 0
        const double a = to[own] / (count[own] - 1);
        double b = std::numeric_limits<double>::infinity();
        for (std::size_t c = 0; c < to.size(); ++c)
            if (c != own && count[c] > 0)
                b = std::min(b, to[c] / count[c]);
        if (!std::isfinite(b))
            continue;
        const double top = std::max(a, b);
        const double si = top > 0 ? (b - a) / top : 0.0;
        sum += si;
        if (perRow)
            (*perRow)[i] = si;
    }
    return s > 0 ? sum / static_cast<double>(s) : NaN;
}

/// Compact labels restricted to `rows` (clusters numbered as they appear) and their count.
int compactLabels(const std::vector<int>& labels, const std::vector<std::size_t>& rows, std::vector<int>* out)
{
    std::vector<int> id;
    out->resize(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto l = static_cast<std::size_t>(labels[rows[i]]);
        if (l >= id.size())
            id.resize(l + 1, -1);
        if (id[l] < 0)
            id[l] = static_cast<int>(std::count_if(id.begin(), id.end(), [](int v) { return v >= 0; }));
        (*out)[i] = id[l];
    }
    return static_cast<int>(std::count_if(id.begin(), id.end(), [](int v) { return v >= 0; }));
}

/// The rows `rows` of the matrix (values and raw values), as a matrix of their own.
ProfileMatrix sampledMatrix(const ProfileMatrix& m, const std::vector<std::size_t>& rows)
{
    ProfileMatrix sub;
    sub.normalisation = m.normalisation;
    sub.columns = m.columns;
    sub.cols = m.cols;
    sub.rows = rows.size();
    sub.values.resize(sub.rows * sub.cols);
    sub.raw.resize(sub.rows * sub.cols);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::copy_n(&m.values[rows[i] * m.cols], m.cols, &sub.values[i * m.cols]);
        std::copy_n(&m.raw[rows[i] * m.cols], m.cols, &sub.raw[i * m.cols]);
    }
    return sub;
}

/// One clustering into k clusters (labels not yet numbered by size).
std::vector<int> clusterInto(const ProfileMatrix& m, int k, const ClusterOptions& o, ClusterResult& r)
{
    if (o.method == ClusterMethod::Ward)
        return ward(m, k, o, &r.wardRows);
    KMeansRun run = kmeans(m, k, o);
    r.iterations = run.iterations;
    return std::move(run.labels);
}

double pearsonOf(const double* x, const double* y, std::size_t n)
{
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < n; ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= static_cast<double>(n);
    my /= static_cast<double>(n);
    double sxy = 0, sxx = 0, syy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : NaN;
}

/// Pearson between the columns of a row-major n × d matrix (NaN for a constant column).
std::vector<double> pearsonMatrix(const std::vector<double>& data, std::size_t n, std::size_t d, int workers)
{
    const ConstRowMap x(data.data(), static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
    const Eigen::RowVectorXd mean = x.colwise().mean();
    const Eigen::MatrixXd g = gram(x, &mean, workers);
    std::vector<double> r(d * d);
    for (std::size_t i = 0; i < d; ++i)
        for (std::size_t j = 0; j < d; ++j) {
            const double sii = g(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i));
            const double sjj = g(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(j));
            r[i * d + j] = !(sii > 0 && sjj > 0) ? NaN
                : i == j
                ? 1.0
                : std::clamp(
                    g(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) / std::sqrt(sii * sjj), -1.0, 1.0);
        }
    return r;
}

} // namespace

QString clusterNormalisationName(ClusterNormalisation n) { return enumName(NormalisationNames, n); }
std::optional<ClusterNormalisation> parseClusterNormalisation(const QString& name)
{
    return enumFromName(NormalisationNames, name, Qt::CaseInsensitive);
}
QStringList clusterNormalisationNames() { return enumNames(NormalisationNames); }
QString clusterMethodName(ClusterMethod m) { return enumName(MethodNames, m); }
std::optional<ClusterMethod> parseClusterMethod(const QString& name)
{
    return enumFromName(MethodNames, name, Qt::CaseInsensitive);
}
QStringList clusterMethodNames() { return enumNames(MethodNames); }

QString ProfileMatrix::columnName(const Trial& trial, std::size_t c) const
{
    const ProfileColumn& col = columns[c];
    const bool severalMetrics = std::any_of(
        columns.begin(), columns.end(), [&](const ProfileColumn& o) { return o.metric != columns.front().metric; });
    const QString& event = trial.event(col.event).name;
    return severalMetrics ? QStringLiteral("%1 [%2]").arg(event, trial.metric(col.metric).name) : event;
}

std::optional<ProfileMatrix> buildProfileMatrix(const Trial& trial, const ProfileMatrixOptions& options, QString* error)
{
    auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (trial.threadCount() == 0)
        return fail(QStringLiteral("%1 has no threads").arg(trial.name()));
    if (trial.metricCount() == 0)
        return fail(QStringLiteral("%1 has no metrics").arg(trial.name()));
    std::vector<MetricId> metrics = options.metrics;
    if (metrics.empty())
        metrics.push_back(MetricId(0u));
    for (MetricId mid : metrics)
        if (!mid.isValid() || mid.index() >= trial.metricCount())
            return fail(QStringLiteral("%1 has no metric %2").arg(trial.name()).arg(mid.index()));

    // The events of the chosen kind that are present on some thread.
    const std::size_t events = trial.eventCount();
    std::vector<char> present(events, 0);
    for (std::size_t t = 0; t < trial.threadCount(); ++t)
        for (EventId e : trial.row(ThreadIndex(t)).events)
            present[e.index()] = 1;
    std::vector<EventId> chosen;
    for (std::size_t e = 0; e < events; ++e)
        if (present[e] && trial.events()[e].isCallPath() == options.callPaths)
            chosen.push_back(EventId(e));
    if (chosen.empty())
        return fail(options.callPaths
                ? QStringLiteral("%1 has no call paths to cluster by (a flat profile: leave out --callpaths)")
                      .arg(trial.name())
                : QStringLiteral("%1 has no flat events with values").arg(trial.name()));

    ProfileMatrix m;
    m.normalisation = options.normalisation;
    m.rows = trial.threadCount();
    std::vector<std::ptrdiff_t> column(events * trial.metricCount(), -1);
    for (MetricId mid : metrics)
        for (EventId e : chosen) {
            column[mid.index() * events + e.index()] = static_cast<std::ptrdiff_t>(m.columns.size());
            m.columns.push_back({ e, mid });
        }
    m.cols = m.columns.size();
    m.raw.assign(m.rows * m.cols, 0.0);
    parallelFor(m.rows, 1024, 0, [&](std::size_t begin, std::size_t end, std::size_t) {
        for (std::size_t t = begin; t < end; ++t) {
            const RowView row = trial.row(ThreadIndex(t));
            for (MetricId mid : metrics)
                for (std::size_t i = 0; i < row.size(); ++i) {
                    const std::ptrdiff_t c = column[mid.index() * events + row.events[i].index()];
                    if (c >= 0)
                        m.raw[t * m.cols + static_cast<std::size_t>(c)]
                            = options.inclusive ? row.inclusive(mid.index(), i) : row.exclusive(mid.index(), i);
                }
        }
    });
    for (double v : m.raw)
        if (!std::isfinite(v))
            return fail(QStringLiteral("%1 has a value that is not a number (NaN or infinite); a clustering needs "
                                       "finite values")
                            .arg(trial.name()));

    m.values = m.raw;
    if (options.normalisation == ClusterNormalisation::Share) {
        for (std::size_t t = 0; t < m.rows; ++t)
            for (std::size_t mi = 0; mi < metrics.size(); ++mi) {
                double* v = &m.values[t * m.cols + mi * chosen.size()];
                double sum = 0;
                for (std::size_t j = 0; j < chosen.size(); ++j)
                    sum += v[j];
                for (std::size_t j = 0; j < chosen.size(); ++j)
                    v[j] = sum != 0 ? v[j] / sum : 0.0;
            }
    } else if (options.normalisation == ClusterNormalisation::ZScore) {
        // Row by row (the matrix is row-major): the columns' means, then their squared deviations.
        std::vector<double> mean(m.cols, 0.0), ss(m.cols, 0.0);
        for (std::size_t t = 0; t < m.rows; ++t)
            for (std::size_t c = 0; c < m.cols; ++c)
                mean[c] += m.values[t * m.cols + c];
        for (double& v : mean)
            v /= static_cast<double>(m.rows);
        for (std::size_t t = 0; t < m.rows; ++t)
            for (std::size_t c = 0; c < m.cols; ++c)
                ss[c] += (m.values[t * m.cols + c] - mean[c]) * (m.values[t * m.cols + c] - mean[c]);
        for (std::size_t c = 0; c < m.cols; ++c)
            ss[c] = std::sqrt(ss[c] / static_cast<double>(m.rows)); // the population standard deviation
        for (std::size_t t = 0; t < m.rows; ++t)
            for (std::size_t c = 0; c < m.cols; ++c) {
                double& v = m.values[t * m.cols + c];
                v = ss[c] > 0 ? (v - mean[c]) / ss[c] : 0.0;
            }
    }
    return m;
}

double silhouetteScore(
    const ProfileMatrix& matrix, const std::vector<int>& labels, const std::vector<std::size_t>& rows)
{
    std::vector<std::size_t> all = rows;
    if (all.empty()) {
        all.resize(matrix.rows);
        std::iota(all.begin(), all.end(), std::size_t(0));
    }
    std::vector<int> compact;
    const int k = compactLabels(labels, all, &compact);
    if (k < 2)
        return NaN;
    return silhouetteOf(sampleDistances(matrix, all), compact, k);
}

void principalComponents(
    const ProfileMatrix& matrix, std::vector<double>* px, std::vector<double>* py, double explained[2], int workers)
{
    const std::size_t n = matrix.rows;
    const auto d = static_cast<Eigen::Index>(matrix.cols);
    const ConstRowMap x(matrix.values.data(), static_cast<Eigen::Index>(n), d);
    const Eigen::RowVectorXd mean = x.colwise().mean();
    const Eigen::MatrixXd g = gram(x, &mean, workers);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(g);
    const Eigen::VectorXd lambda = solver.eigenvalues().cwiseMax(0.0); // ascending
    const double total = lambda.sum();
    Eigen::VectorXd axis[2];
    for (int a = 0; a < 2; ++a) {
        const Eigen::Index col = d - 1 - a;
        if (col < 0) {
            axis[a] = Eigen::VectorXd::Zero(d);
            explained[a] = 0;
            continue;
        }
        axis[a] = solver.eigenvectors().col(col);
        // The sign: the largest loading positive (the first of those equal to it within 1e-9).
        const double largest = axis[a].cwiseAbs().maxCoeff();
        Eigen::Index first = 0;
        while (first + 1 < d && std::fabs(axis[a](first)) < largest * (1 - 1e-9))
            ++first;
        if (axis[a](first) < 0)
            axis[a] = -axis[a];
        explained[a] = total > 0 ? lambda(col) / total : 0.0;
    }
    px->assign(n, 0.0);
    py->assign(n, 0.0);
    parallelFor(n, Block, workers, [&](std::size_t begin, std::size_t end, std::size_t) {
        for (std::size_t i = begin; i < end; ++i) {
            const Eigen::RowVectorXd c = x.row(static_cast<Eigen::Index>(i)) - mean;
            (*px)[i] = c.dot(axis[0]);
            (*py)[i] = c.dot(axis[1]);
        }
    });
}

ClusterResult clusterThreads(const ProfileMatrix& m, const ClusterOptions& o)
{
    ClusterResult r;
    r.silhouette = NaN;
    const auto n = static_cast<long long>(m.rows);
    if (m.rows == 0 || m.cols == 0) {
        r.error
            = QStringLiteral("nothing to cluster: the matrix has %1 threads and %2 columns").arg(m.rows).arg(m.cols);
        return r;
    }
    if (o.k != 0 && (o.k < 1 || o.k > n)) {
        r.error = QStringLiteral("k = %1 is not between 1 and the number of threads, %2").arg(o.k).arg(n);
        return r;
    }
    if (o.k == 0) {
        if (o.kMin < 2 || o.kMax < o.kMin) {
            r.error = QStringLiteral("the k range %1-%2 is not a range of 2 and more").arg(o.kMin).arg(o.kMax);
            return r;
        }
        if (o.kMax > n - 1) {
            r.error = QStringLiteral("the k range %1-%2 needs at least %3 threads (the silhouette needs k < threads), "
                                     "not %4")
                          .arg(o.kMin)
                          .arg(o.kMax)
                          .arg(o.kMax + 1)
                          .arg(n);
            return r;
        }
    }
    const std::vector<std::size_t> sample = sampleRows(m.rows, std::max<std::size_t>(2, o.silhouetteSample), o.seed);
    Eigen::MatrixXd distances;
    auto silhouetteFor = [&](const std::vector<int>& labels) {
        if (distances.size() == 0)
            distances = sampleDistances(m, sample);
        std::vector<int> compact;
        const int kk = compactLabels(labels, sample, &compact);
        return kk >= 2 ? silhouetteOf(distances, compact, kk) : NaN;
    };

    std::vector<int> labels;
    int k = o.k;
    const bool sampledSearch = k == 0 && o.kSearchSample > 0 && m.rows > o.kSearchSample;
    const int steps = (k == 0 ? o.kMax - o.kMin + 1 : 1) + (sampledSearch ? 1 : 0) + (o.pca ? 1 : 0);
    int step = 0;
    auto report = [&] {
        if (o.progress)
            o.progress(++step, steps);
    };
    if (sampledSearch) {
        // The k range on a sample of the threads, then the chosen k on all of them (§11.4).
        const ProfileMatrix sub = sampledMatrix(m, sampleRows(m.rows, o.kSearchSample, o.seed));
        ClusterOptions so = o;
        so.pca = false;
        so.kSearchSample = 0;
        so.progress = [&](int, int) { report(); };
        ClusterResult search = clusterThreads(sub, so);
        if (search.cancelled) {
            r.cancelled = true;
            return r;
        }
        if (!search.error.isEmpty()) {
            r.error = search.error;
            return r;
        }
        // The sample's clusters are numbered by size, and may have lost an empty one: the k tried is the
        // best silhouette's (the first of equals), or the smallest when every silhouette was NaN.
        k = o.kMin;
        double best = -std::numeric_limits<double>::infinity();
        for (const auto& [kk, s] : search.silhouettes)
            if (s > best) {
                best = s;
                k = kk;
            }
        r.silhouettes = std::move(search.silhouettes);
        r.kSearchRows = sub.rows;
        labels = clusterInto(m, k, o, r);
        report();
    } else if (k == 0) {
        r.kSearchRows = m.rows;
        double best = -std::numeric_limits<double>::infinity();
        for (int kk = o.kMin; kk <= o.kMax; ++kk) {
            ClusterResult trial;
            std::vector<int> l = clusterInto(m, kk, o, trial);
            if (cancelled(o)) {
                r.cancelled = true;
                return r;
            }
            const double s = silhouetteFor(l);
            report();
            r.silhouettes.emplace_back(kk, s);
            if (s > best) { // ties keep the smaller k
                best = s;
                k = kk;
                labels = std::move(l);
                r.iterations = trial.iterations;
                r.wardRows = trial.wardRows;
            }
        }
        if (labels.empty()) { // every silhouette NaN
            k = o.kMin;
            labels = clusterInto(m, k, o, r);
        }
    } else {
        labels = clusterInto(m, k, o, r);
        report();
    }
    if (cancelled(o)) {
        r.cancelled = true;
        return r;
    }
    // Empty clusters (coinciding rows) are dropped: k is the number of distinct labels.
    std::vector<int> id(static_cast<std::size_t>(k), -1);
    int used = 0;
    for (int& l : labels) {
        int& slot = id[static_cast<std::size_t>(l)];
        if (slot < 0)
            slot = used++;
        l = slot;
    }
    r.silhouetteRows = sample.size();
    finishClusters(m, labels, used, r);
    r.silhouette = silhouetteFor(r.labels);
    if (!std::isnan(r.silhouette)) {
        // Each cluster's silhouette: the mean over its members among the sampled rows.
        std::vector<int> compact;
        const int kk = compactLabels(r.labels, sample, &compact);
        std::vector<double> perRow;
        silhouetteOf(distances, compact, kk, &perRow);
        std::vector<double> sum(r.clusters.size(), 0.0);
        std::vector<std::size_t> count(r.clusters.size(), 0);
        for (std::size_t i = 0; i < sample.size(); ++i) {
            const auto c = static_cast<std::size_t>(r.labels[sample[i]]);
            sum[c] += perRow[i];
            ++count[c];
        }
        for (std::size_t c = 0; c < r.clusters.size(); ++c)
            r.clusters[c].silhouette = count[c] > 0 ? sum[c] / static_cast<double>(count[c]) : NaN;
    }
    if (o.pca) {
        principalComponents(m, &r.pcaX, &r.pcaY, r.explained, o.workers);
        report();
    }
    return r;
}

std::vector<double> averageRanks(const std::vector<double>& values)
{
    const std::size_t n = values.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    std::vector<double> ranks(n);
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i;
        while (j + 1 < n && values[order[j + 1]] == values[order[i]])
            ++j;
        const double rank = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
        for (std::size_t t = i; t <= j; ++t)
            ranks[order[t]] = rank;
        i = j + 1;
    }
    return ranks;
}

double pearsonCorrelation(const std::vector<double>& x, const std::vector<double>& y)
{
    if (x.size() != y.size() || x.size() < 2)
        return NaN;
    return pearsonOf(x.data(), y.data(), x.size());
}

CorrelationResult correlateColumns(const Trial& trial, const ProfileMatrix& m, int workers)
{
    CorrelationResult r;
    r.cols = m.cols;
    const std::size_t n = m.rows;
    if (m.cols == 0 || n == 0)
        return r;
    r.pearson = pearsonMatrix(m.raw, n, m.cols, workers);
    // Ranks per column, then Pearson of the ranks.
    std::vector<double> ranks(n * m.cols);
    parallelFor(m.cols, 1, workers, [&](std::size_t begin, std::size_t end, std::size_t) {
        std::vector<double> column(n);
        for (std::size_t c = begin; c < end; ++c) {
            for (std::size_t i = 0; i < n; ++i)
                column[i] = m.raw[i * m.cols + c];
            const std::vector<double> rk = averageRanks(column);
            for (std::size_t i = 0; i < n; ++i)
                ranks[i * m.cols + c] = rk[i];
        }
    });
    r.spearman = pearsonMatrix(ranks, n, m.cols, workers);

    const auto stats = TrialStatistics::of(trial);
    const MetricId metric = m.columns.front().metric;
    r.total.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        r.total[i] = stats->threadTopInclusive(ThreadIndex(i), metric);
    const std::vector<double> totalRanks = averageRanks(r.total);
    r.pearsonTotal.resize(m.cols);
    r.spearmanTotal.resize(m.cols);
    parallelFor(m.cols, 1, workers, [&](std::size_t begin, std::size_t end, std::size_t) {
        std::vector<double> column(n), rank(n);
        for (std::size_t c = begin; c < end; ++c) {
            for (std::size_t i = 0; i < n; ++i) {
                column[i] = m.raw[i * m.cols + c];
                rank[i] = ranks[i * m.cols + c];
            }
            r.pearsonTotal[c] = pearsonOf(column.data(), r.total.data(), n);
            r.spearmanTotal[c] = pearsonOf(rank.data(), totalRanks.data(), n);
        }
    });
    return r;
}

} // namespace parallax
