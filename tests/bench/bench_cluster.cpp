// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// bench_cluster: clustering and correlation of threads (algebra/cluster.h, issue 17 section 3) on a
// synthesized trial, as JSON lines.
//   bench_cluster [--runs N] [--threads T] [--events E] [--groups G]
// Default 131,072 threads x 200 flat events in 8 planted groups (`parallax-cli synth --groups 8`). Once:
// synthesis and the matrix (raw and z-score). Median of N runs: k-means k = 8 (4 restarts, the default,
// and 1), Ward k = 8 (on its 4,096-thread sample), the silhouette choice over k = 2..10 (2,000-thread
// sample), the 2-D PCA, and the Pearson/Spearman correlations. Memory: the matrix's bytes and the
// process's peak resident set.
#include "algebra/cluster.h"
#include "tests/bench/benchutil.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThreadPool>
#include <cstdio>
#include <cstring>
#include <functional>

using namespace parallax;
using namespace parallax::bench;

namespace {

struct Timing {
    double medianMs = 0;
    double minMs = 0;
    double maxMs = 0;
};

Timing timing(int runs, const std::function<void()>& f)
{
    const std::vector<double> t = timeRuns(runs, f);
    return { median(t), *std::min_element(t.begin(), t.end()), *std::max_element(t.begin(), t.end()) };
}

void print(const char* what, const Timing& t, const QString& extra = {})
{
    std::printf("{\"bench\":\"cluster\",\"case\":\"%s\",\"median_ms\":%.1f,\"min_ms\":%.1f,\"max_ms\":%.1f,"
                "\"peak_rss_mb\":%.0f,\"load\":%.2f%s}\n",
        what, t.medianMs, t.minMs, t.maxMs, peakRssMb(), loadAverage(), qPrintable(extra));
    std::fflush(stdout);
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const char* usage = "bench_cluster [--runs N] [--threads T] [--events E] [--groups G]";
    SynthBenchOptions bo;
    bo.threads = 131072;
    bo.events = 200;
    SynthOptions so;
    so.groups = 8;
    so.userEvents = 0;
    if (!parseSynthBenchOptions(argc, argv, bo, usage, [&](const char* name, const auto& value) {
            if (std::strcmp(name, "--groups") != 0)
                return false;
            so.groups = std::max(1, std::atoi(value()));
            return true;
        }))
        return 1;
    if (!bo.directories.empty()) {
        std::fprintf(stderr, "usage: %s\n", usage);
        return 1;
    }
    const int runs = bo.runs;
    so.threads = bo.threads;
    so.events = bo.events;
    QElapsedTimer timer;
    timer.start();
    std::shared_ptr<const Trial> trial = synthesizeTrial(so);
    const double synthMs = ms(timer);
    const double trialRss = residentMb();
    ProfileMatrixOptions mo;
    std::optional<ProfileMatrix> raw;
    const Timing build = timing(runs, [&] { raw = buildProfileMatrix(*trial, mo, nullptr); });
    mo.normalisation = ClusterNormalisation::ZScore;
    const auto z = buildProfileMatrix(*trial, mo, nullptr);
    if (!raw || !z) {
        std::fprintf(stderr, "bench_cluster: no matrix\n");
        return 1;
    }
    std::printf("{\"bench\":\"cluster\",\"case\":\"input\",\"threads\":%zu,\"columns\":%zu,\"groups\":%d,"
                "\"synth_ms\":%.0f,\"trial_rss_mb\":%.0f,\"matrix_mb\":%.1f,\"cores\":%d,\"runs\":%d}\n",
        raw->rows, raw->cols, so.groups, synthMs, trialRss,
        static_cast<double>(2 * raw->rows * raw->cols * sizeof(double)) / (1024.0 * 1024.0),
        QThreadPool::globalInstance()->maxThreadCount(), runs);
    print("matrix raw", build);

    ClusterOptions o;
    o.k = 8;
    ClusterResult r;
    const Timing km = timing(runs, [&] { r = clusterThreads(*z, o); }); // before r is read below
    // The planted groups are consecutive blocks of threads: is every block one cluster?
    bool planted = r.k == so.groups;
    for (std::size_t i = 0; i < r.labels.size() && planted; ++i) {
        const std::size_t first = i * static_cast<std::size_t>(so.groups) / r.labels.size() * r.labels.size()
            / static_cast<std::size_t>(so.groups);
        planted = r.labels[i] == r.labels[first];
    }
    print("kmeans k=8 zscore 4 restarts", km,
        QStringLiteral(",\"iterations\":%1,\"inertia\":%2,\"silhouette\":%3,\"largest\":%4,\"smallest\":%5,"
                       "\"planted_groups_found\":%6")
            .arg(r.iterations)
            .arg(r.inertia, 0, 'g', 8)
            .arg(r.silhouette, 0, 'f', 4)
            .arg(r.clusters.front().size)
            .arg(r.clusters.back().size)
            .arg(planted ? QStringLiteral("true") : QStringLiteral("false")));
    const double kmeansRss = residentMb();
    o.restarts = 1;
    Timing t = timing(runs, [&] { r = clusterThreads(*z, o); });
    print("kmeans k=8 zscore 1 restart", t,
        QStringLiteral(",\"iterations\":%1,\"rss_mb\":%2").arg(r.iterations).arg(kmeansRss, 0, 'f', 0));
    o.restarts = 4;
    t = timing(runs, [&] { r = clusterThreads(*raw, o); });
    print("kmeans k=8 raw 4 restarts", t, QStringLiteral(",\"iterations\":%1").arg(r.iterations));
    ClusterOptions w = o;
    w.method = ClusterMethod::Ward;
    t = timing(runs, [&] { r = clusterThreads(*z, w); });
    print("ward k=8 zscore (4096 sample)", t, QStringLiteral(",\"ward_rows\":%1").arg(r.wardRows));
    ClusterOptions range;
    range.restarts = 1;
    t = timing(std::min(runs, 3), [&] { r = clusterThreads(*z, range); });
    print("kmeans k=2..10 by silhouette (1 restart)", t,
        QStringLiteral(",\"k\":%1,\"silhouette_rows\":%2").arg(r.k).arg(r.silhouetteRows));
    std::vector<double> x, y;
    double explained[2];
    t = timing(runs, [&] { principalComponents(*z, &x, &y, explained); });
    print("pca 2-D", t,
        QStringLiteral(",\"explained\":[%1,%2]").arg(explained[0], 0, 'f', 4).arg(explained[1], 0, 'f', 4));
    print("correlate pearson+spearman", timing(std::min(runs, 3), [&] { correlateColumns(*trial, *raw); }));
    return 0;
}
