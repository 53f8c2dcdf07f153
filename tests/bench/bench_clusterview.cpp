// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// bench_clusterview: the Clusters and Correlation tabs (views/cluster, issue 17 §3) offscreen at 1400 x 900,
// as JSON lines. bench_clusterview [--runs N] [--threads T] [--events E]
// A synthesized trial (default 131,072 threads x 200 events, 8 planted groups): the Clusters view with
// k = 8 (k-means, raw) from the trial to the drawn scatter, table and profile, and with the best k of
// 2-8 by silhouette; the Correlation view (Pearson and Spearman matrices and the ranked list); median of N.
#include "datasource/synth/synth.h"
#include "tests/bench/benchutil.h"
#include "views/cluster/clusterview.h"
#include "views/cluster/correlationview.h"
#include "views/selectionstate.h"

#include <QApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace parallax;
using namespace parallax::bench;

int main(int argc, char* argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    SynthBenchOptions o;
    o.runs = 3;
    o.threads = 131072;
    o.events = 200;
    if (!parseSynthBenchOptions(argc, argv, o, "bench_clusterview [--runs N] [--threads T] [--events E]",
            [](const char*, const auto&) { return false; }))
        return 1;
    const int runs = o.runs;
    SynthOptions so;
    so.threads = std::max(2, o.threads);
    so.events = std::max(2, o.events);
    so.groups = 8;
    so.userEvents = 0;
    const std::shared_ptr<const Trial> trial = synthesizeTrial(so);
    auto run = [&](const char* name, auto make) {
        std::vector<double> seconds;
        for (int r = 0; r < runs; ++r) {
            SelectionState state;
            auto view = make(&state);
            view->resize(1400, 900);
            view->show();
            QElapsedTimer timer;
            timer.start();
            state.setTrial(trial);
            view->updateNow();
            view->repaint();
            seconds.push_back(static_cast<double>(timer.nsecsElapsed()) * 1e-9);
        }
        std::printf("{\"bench\":\"%s\",\"threads\":%d,\"events\":%d,\"runs\":%d,\"median_s\":%.3f,\"load\":%.2f}\n",
            name, so.threads, so.events, runs, bench::median(seconds), bench::loadAverage());
        std::fflush(stdout);
    };
    run("clusters_kmeans_k8", [](SelectionState* s) {
        auto v = std::make_unique<ClusterView>(s);
        v->setK(8);
        return v;
    });
    run("clusters_best_k_2_8", [](SelectionState* s) { return std::make_unique<ClusterView>(s); });
    run("correlation", [](SelectionState* s) { return std::make_unique<CorrelationView>(s); });
    return 0;
}
