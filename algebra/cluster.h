// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// Clustering and correlation of the threads of one trial (PerfExplorer's analyses, docs/SEMANTICS.md §11):
// the thread × event matrix, its normalisations, k-means, Ward's agglomerative clustering, the 2-D PCA,
// the silhouette, and the event × event correlations across threads.

#include "datasource/model/trial.h"

#include <QString>
#include <QStringList>
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

namespace parallax {

/// How a row of the matrix is scaled (docs/SEMANTICS.md §11.1).
enum class ClusterNormalisation {
    Raw, ///< the exclusive values as measured
    Share, ///< each value divided by the thread's sum over the columns of its metric
    ZScore, ///< each column centred on its mean and divided by its population standard deviation
};
QString clusterNormalisationName(ClusterNormalisation n);
std::optional<ClusterNormalisation> parseClusterNormalisation(const QString& name);
QStringList clusterNormalisationNames();

enum class ClusterMethod { KMeans, Ward };
QString clusterMethodName(ClusterMethod m);
std::optional<ClusterMethod> parseClusterMethod(const QString& name);
QStringList clusterMethodNames();

/// Which values form the matrix.
struct ProfileMatrixOptions {
    std::vector<MetricId> metrics; ///< the columns' metrics, in order; empty: the first metric
    bool callPaths = false; ///< call paths (depth > 1) instead of flat events as the columns
    bool inclusive = false; ///< the inclusive instead of the exclusive values (docs/SEMANTICS.md §11.1)
    ClusterNormalisation normalisation = ClusterNormalisation::Raw;
};

/// One column: an event's exclusive value of a metric.
struct ProfileColumn {
    EventId event;
    MetricId metric;
};

/// The thread × event matrix of one trial (docs/SEMANTICS.md §11.1): one row per thread in the trial's
/// order, one column per (metric, event) with a present cell on at least one thread; an absent cell is 0.
struct ProfileMatrix {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::vector<ProfileColumn> columns;
    std::vector<double> raw; ///< row-major rows × cols: the exclusive values
    std::vector<double> values; ///< row-major rows × cols: the normalised values the methods work on
    ClusterNormalisation normalisation = ClusterNormalisation::Raw;
    double value(std::size_t r, std::size_t c) const { return values[r * cols + c]; }
    /// "EVENT" for one metric, "EVENT [METRIC]" with several.
    QString columnName(const Trial& trial, std::size_t c) const;
};

/// The matrix, or nothing with `error` set (no threads, no metric, no event of the chosen kind).
std::optional<ProfileMatrix> buildProfileMatrix(
    const Trial& trial, const ProfileMatrixOptions& options, QString* error);

struct ClusterOptions {
    ClusterMethod method = ClusterMethod::KMeans;
    int k = 0; ///< the number of clusters; 0: the k of [kMin, kMax] with the largest silhouette
    int kMin = 2;
    int kMax = 10;
    /// k-means runs from different k-means++ seeds; the one of least inertia wins. 0: 10 (scikit-learn's
    /// n_init) when rows × columns × k ≤ 5·10⁷, else 4 (docs/SEMANTICS.md §11.2).
    int restarts = 0;
    int maxIterations = 300;
    std::uint64_t seed = 1;
    std::size_t silhouetteSample = 2000; ///< the silhouette of more threads is taken on a sample of this many
    std::size_t wardSample = 4096; ///< Ward on more threads clusters a sample of this many, then assigns the rest
    /// Choosing k (k = 0) on more threads: the k range is tried on a sample of this many threads, and only
    /// the chosen k is clustered on all of them (docs/SEMANTICS.md §11.4). 0: always on all threads.
    std::size_t kSearchSample = 16384;
    bool pca = false; ///< also project the rows onto the first two principal components
    int workers = 0; ///< threads for parallelFor (0: Qt's global pool)
    const std::atomic_bool* cancel = nullptr; ///< checked between iterations
    /// Called (on the computing thread) after each step: a k tried, the final clustering, the PCA;
    /// `steps` is their number. Unset: nothing is reported.
    std::function<void(int step, int steps)> progress;
};

/// One cluster of the result.
struct ThreadCluster {
    std::size_t size = 0;
    std::vector<double> centroid; ///< mean of the members' normalised rows
    std::vector<double> meanRaw; ///< mean of the members' exclusive values (the profile in the metric's unit)
    std::size_t representative = 0; ///< the member nearest the centroid (row index = thread index)
    double sse = 0; ///< Σ over members of the squared distance to the centroid
    /// The mean silhouette of the members among the rows the silhouette was taken on (NaN: none
    /// of them, or fewer than two clusters).
    double silhouette = std::numeric_limits<double>::quiet_NaN();
};

struct ClusterResult {
    QString error; ///< non-empty when the clustering could not run
    bool cancelled = false;
    int k = 0;
    std::vector<int> labels; ///< per row: 0..k-1, clusters numbered by size (largest first)
    std::vector<ThreadCluster> clusters;
    double inertia = 0; ///< Σ of the clusters' sse
    int iterations = 0; ///< Lloyd iterations of the winning k-means run (0 for Ward)
    double silhouette = 0; ///< of the result (NaN when not computed: k given and k < 2 or every row alone)
    std::vector<std::pair<int, double>> silhouettes; ///< per k tried when k was chosen
    std::size_t kSearchRows = 0; ///< rows the k range was tried on when k was chosen (all, or the sample)
    std::size_t silhouetteRows = 0; ///< rows the silhouette was taken on (all, or the sample)
    std::size_t wardRows = 0; ///< rows Ward's linkage ran on (all, or the sample)
    std::vector<double> pcaX, pcaY; ///< per row, when ClusterOptions::pca
    double explained[2] = { 0, 0 }; ///< the components' shares of the total variance
    bool ok() const { return error.isEmpty() && !cancelled; }
};

/// Clusters the rows of the matrix (docs/SEMANTICS.md §11.2–§11.5).
ClusterResult clusterThreads(const ProfileMatrix& matrix, const ClusterOptions& options);

/// The mean silhouette of the rows `rows` (all rows when empty) under `labels`, with Euclidean
/// distances between normalised rows (scikit-learn's silhouette_score; a row alone in its cluster scores 0).
double silhouetteScore(
    const ProfileMatrix& matrix, const std::vector<int>& labels, const std::vector<std::size_t>& rows);

/// The first two principal components of the normalised rows: per row x, y, and the shares of variance.
void principalComponents(
    const ProfileMatrix& matrix, std::vector<double>* x, std::vector<double>* y, double explained[2], int workers = 0);

/// Correlations across threads (docs/SEMANTICS.md §11.6): between the columns, and of each column with
/// the thread's total (its largest inclusive value of the column's metric). NaN where a series is constant.
struct CorrelationResult {
    std::size_t cols = 0;
    std::vector<double> pearson; ///< cols × cols
    std::vector<double> spearman; ///< cols × cols
    std::vector<double> total; ///< per row: the thread's total of the first column's metric
    std::vector<double> pearsonTotal; ///< per column
    std::vector<double> spearmanTotal; ///< per column
};
CorrelationResult correlateColumns(const Trial& trial, const ProfileMatrix& matrix, int workers = 0);

/// Average ranks (1-based; ties share the mean of their ranks), as scipy.stats.rankdata.
std::vector<double> averageRanks(const std::vector<double>& values);

/// Pearson's r of two series of the same length (NaN when either is constant or shorter than 2).
double pearsonCorrelation(const std::vector<double>& x, const std::vector<double>& y);

} // namespace parallax
