// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Extra-P performance models (issue 17, section 4): fitting 1,000 call paths over 7 scaling points
// (p = 2, 4, ..., 128; 3 repetitions each), series c0 + c1·p^i·log2(p)^j of random terms with 2 %
// noise (a fixed seed), on one thread and on every core, with one term (Extra-P's default) and with two
// (ModelOptions::maxTerms = 2, docs/SEMANTICS.md §10.8: 861 more hypotheses per series). Target: < 1 s.
// Median of --runs runs. --terms N measures only that term count.
// bench_model [--runs N] [--paths P] [--points K] [--terms 1|2]
#include "algebra/perfmodel.h"
#include "tests/bench/benchutil.h"

#include <QCoreApplication>
#include <QThreadPool>
#include <cmath>
#include <random>

using namespace parallax;
using namespace parallax::bench;

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int runs = 7, paths = 1000, pointsCount = 7, terms = 0;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--runs"))
            runs = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--paths"))
            paths = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--points"))
            pointsCount = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--terms"))
            terms = args[i + 1].toInt();
    }
    std::mt19937_64 rng(17);
    std::uniform_real_distribution<double> unit(0, 1);
    std::normal_distribution<double> noise(0, 0.02);
    const auto blocks = defaultBuildingBlocks(true);
    std::vector<std::vector<ModelPoint>> series;
    for (int c = 0; c < paths; ++c) {
        const ModelTerm& b = blocks[static_cast<std::size_t>(rng() % blocks.size())];
        const double c0 = 100 * unit(rng), c1 = 10 * unit(rng);
        std::vector<ModelPoint> points;
        for (int k = 1; k <= pointsCount; ++k) {
            const double p = std::ldexp(1.0, k);
            const double y = c0 + c1 * b.basis(p);
            points.push_back(ModelPoint { p, { y * (1 + noise(rng)), y * (1 + noise(rng)), y * (1 + noise(rng)) } });
        }
        series.push_back(std::move(points));
    }
    std::printf("bench_model: %d call paths x %d points (3 repetitions), load %.2f, %d cores\n", paths, pointsCount,
        loadAverage(), QThreadPool::globalInstance()->maxThreadCount());
    for (const int maxTerms : { 1, 2 }) {
        if (terms != 0 && terms != maxTerms)
            continue;
        ModelOptions options;
        options.maxTerms = maxTerms;
        for (const int workers : { 1, 0 }) {
            std::vector<double> times;
            std::size_t nonConstant = 0, twoTerms = 0;
            for (int r = 0; r < runs; ++r) {
                QElapsedTimer timer;
                timer.start();
                const auto models = fitPerformanceModels(series, options, workers);
                times.push_back(ms(timer));
                nonConstant = static_cast<std::size_t>(std::count_if(
                    models.begin(), models.end(), [](const PerformanceModel& m) { return !m.isConstant(); }));
                twoTerms = static_cast<std::size_t>(std::count_if(
                    models.begin(), models.end(), [](const PerformanceModel& m) { return m.terms.size() == 2; }));
            }
            std::printf("  %d term%s, fit %s: median %.1f ms (min %.1f, max %.1f, %d runs); %zu models with a term, "
                        "%zu with two\n",
                maxTerms, maxTerms == 1 ? " " : "s", workers == 1 ? "on 1 thread " : "on all cores", median(times),
                *std::min_element(times.begin(), times.end()), *std::max_element(times.begin(), times.end()), runs,
                nonConstant, twoTerms);
        }
    }
    return 0;
}
