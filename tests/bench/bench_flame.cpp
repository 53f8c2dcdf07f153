// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// bench_flame: the flame-graph model (algebra/flame.h, issue 16) on synthesized trials, as JSON lines.
//   bench_flame [--runs N] [--pixels P]
// Cases (like `parallax-cli synth --callpath-depth 4`): 16,384 threads x 100 call paths, 16 threads x
// 1,000 call paths, and 1 thread x 50,000 call paths. For each: the statistics and call tree (once,
// cold), then, median of N runs with them cached: the FlameTree (values per call path), the layout
// (all frames, and with frames narrower than 1/P of the width merged into slivers), folded stacks,
// a search, the sandwich of the most frequent routine, and the differential tree against a second copy (every path
// aligns).
#include "algebra/flame.h"
#include "algebra/statistics.h"
#include "tests/bench/benchutil.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHash>
#include <cstdio>
#include <cstring>
#include <functional>

using namespace parallax;
using namespace parallax::bench;

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    int runs = 5;
    double pixels = 1400;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--pixels") == 0 && i + 1 < argc)
            pixels = std::max(1.0, std::atof(argv[++i]));
        else {
            std::fprintf(stderr, "usage: bench_flame [--runs N] [--pixels P]\n");
            return 1;
        }
    }
    struct Case {
        int threads;
        int paths;
    };
    for (const Case c : { Case { 16384, 100 }, Case { 16, 1000 }, Case { 1, 50000 } }) {
        SynthOptions so;
        so.threads = c.threads;
        so.events = c.paths + 1;
        so.callpathDepth = 4;
        so.userEvents = 0;
        QElapsedTimer timer;
        timer.start();
        so.seed = 1;
        const std::shared_ptr<const Trial> a = synthesizeTrial(so);
        // B: the same code again (a second trial object, so nothing is shared through the caches).
        const std::shared_ptr<const Trial> b = synthesizeTrial(so);
        const double synthMs = ms(timer);
        timer.restart();
        TrialStatistics::of(*a);
        CallTree::of(*a);
        TrialStatistics::of(*b);
        CallTree::of(*b);
        const double cachesMs = ms(timer);

        FlameTree tree = FlameTree::of(*a, MetricId(0u));
        const double treeMs = timeMedian(runs, [&] { tree = FlameTree::of(*a, MetricId(0u)); });
        FlameLayout all;
        const double layoutMs = timeMedian(runs, [&] { all = layoutFlame(tree); });
        FlameLayout sliced;
        const double sliverMs = timeMedian(runs, [&] {
            sliced = layoutFlame(tree, { FlameOrder::ByValue, -1, tree.total() / pixels });
        });
        QString folded;
        const double foldedMs = timeMedian(runs, [&] {
            folded.clear();
            QTextStream out(&folded);
            writeFolded(tree, out);
        });
        QHash<QString, int> count;
        for (const auto& n : tree.nodes())
            ++count[n.name];
        QString frequent;
        int most = 0;
        for (auto it = count.cbegin(); it != count.cend(); ++it)
            if (it.value() > most || (it.value() == most && it.key() < frequent))
                most = it.value(), frequent = it.key();
        FlameSearchResult found;
        const double searchMs = timeMedian(runs, [&] { found = searchFlame(tree, QStringLiteral("MPI_")); });
        Sandwich sw;
        const double sandwichMs = timeMedian(runs, [&] { sw = sandwichOf(tree, frequent); });
        std::size_t diffNodes = 0;
        const double diffMs
            = timeMedian(runs, [&] { diffNodes = DiffFlameTree::of(*a, *b, MetricId(0u)).tree().nodes().size(); });
        std::printf("{\"bench\":\"flame\",\"threads\":%d,\"call_paths\":%d,\"nodes\":%zu,\"frames\":%zu,"
                    "\"frames_sliced\":%zu,\"pixels\":%.0f,\"synth_ms\":%.1f,\"stats_and_calltree_ms\":%.1f,"
                    "\"flametree_ms\":%.2f,\"layout_ms\":%.2f,\"layout_sliced_ms\":%.2f,\"folded_ms\":%.2f,"
                    "\"folded_bytes\":%lld,\"search_ms\":%.2f,\"search_share\":%.3f,\"sandwich_ms\":%.2f,"
                    "\"sandwich_routine_occurrences\":%d,\"diff_ms\":%.2f,\"diff_nodes\":%zu,\"runs\":%d,"
                    "\"load\":%.2f,\"peak_rss_mb\":%.0f}\n",
            c.threads, c.paths, tree.nodes().size(), all.frames.size(), sliced.frames.size(), pixels, synthMs, cachesMs,
            treeMs, layoutMs, sliverMs, foldedMs, static_cast<long long>(folded.toUtf8().size()), searchMs, found.share,
            sandwichMs, sw.occurrences, diffMs, diffNodes, runs, loadAverage(), peakRssMb());
        std::fflush(stdout);
    }
    return 0;
}
