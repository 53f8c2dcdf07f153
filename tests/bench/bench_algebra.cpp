// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// bench_algebra: times the cross-experiment algebra on two big trials and prints JSON lines.
//   bench_algebra [--runs N] [--threads T] [--events E] [--workers W] [--modes diff,mean,...] [DIR_A DIR_B]
// Without directories, two trials are synthesized in memory like `parallax-cli synth --threads T
// --events E --seed 1` and `--seed 2` (defaults 16384 x 201); with them, both are read first.
// Modes: diff, mean, ratio, merge (of the two runs' metrics, LAST_WINS), derive; default diff,mean.
// Each mode prints every run and the median; the first run also hashes the operands for the
// provenance (cached afterwards), so it is reported separately as well.
#include "algebra/derivedmetric.h"
#include "algebra/operations.h"
#include "datasource/readers/readerregistry.h"
#include "datasource/synth/synth.h"
#include "tests/bench/benchutil.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QStringList>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <vector>

using namespace parallax;
using namespace parallax::bench;

namespace {

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    SynthBenchOptions o;
    QStringList modes { QStringLiteral("diff"), QStringLiteral("mean") };
    const bool parsed = parseSynthBenchOptions(argc, argv, o,
        "bench_algebra [--runs N] [--threads T] [--events E] [--workers W] [--modes diff,mean,ratio,merge,derive] "
        "[DIR_A DIR_B]",
        [&](const char* name, auto value) {
            if (std::strcmp(name, "--modes") != 0)
                return false;
            modes = QString::fromLocal8Bit(value()).split(QLatin1Char(','), Qt::SkipEmptyParts);
            return true;
        });
    if (!parsed)
        return 1;
    const std::vector<const char*>& dirs = o.directories;
    if (!dirs.empty() && dirs.size() != 2) {
        std::fprintf(stderr, "bench_algebra: give two directories or none\n");
        return 1;
    }

    QElapsedTimer timer;
    timer.start();
    const std::shared_ptr<const Trial> a = synthBenchTrial(dirs.empty() ? nullptr : dirs[0], o, 1);
    const std::shared_ptr<const Trial> b = synthBenchTrial(dirs.empty() ? nullptr : dirs[1], o, 2);
    if (!a || !b)
        return 2;
    std::printf("{\"operands\":\"%s\",\"threads\":[%zu,%zu],\"events\":[%zu,%zu],\"cells\":[%zu,%zu],"
                "\"prepare_wall_s\":%.3f,\"cores\":%u}\n",
        dirs.empty() ? "synthesized seeds 1 and 2" : "read", a->threadCount(), b->threadCount(), a->eventCount(),
        b->eventCount(), a->cellCount(), b->cellCount(), static_cast<double>(timer.nsecsElapsed()) / 1e9,
        std::thread::hardware_concurrency());

    AlgebraOptions options;
    options.workers = o.workers;
    for (const QString& mode : modes) {
        std::vector<double> wall, cpu;
        double first = 0;
        std::size_t cells = 0, resultEvents = 0;
        for (int r = 0; r < o.runs; ++r) {
            const double cpu0 = cpuSeconds();
            timer.restart();
            AlgebraResult result = AlgebraResult::failure(QStringLiteral("unknown mode ") + mode);
            if (mode == QLatin1String("diff"))
                result = difference(*a, *b, options);
            else if (mode == QLatin1String("mean"))
                result = mean({ a, b }, options);
            else if (mode == QLatin1String("ratio"))
                result = ratio(*a, *b, options);
            else if (mode == QLatin1String("merge")) {
                AlgebraOptions o = options;
                o.conflict = MergeConflict::LastWins;
                result = merge({ a, b }, o);
            } else if (mode == QLatin1String("derive"))
                result = deriveMetric(*a, QStringLiteral("MS = TIME / 1000"));
            const double seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
            cpu.push_back(cpuSeconds() - cpu0);
            if (!result) {
                std::fprintf(stderr, "bench_algebra: %s\n", qPrintable(result.error()));
                return 2;
            }
            cells = result.trial()->cellCount();
            resultEvents = result.trial()->eventCount();
            if (r == 0)
                first = seconds;
            wall.push_back(seconds);
            std::printf("{\"mode\":\"%s\",\"run\":%d,\"wall_s\":%.3f,\"cpu_s\":%.3f}\n", qPrintable(mode), r + 1,
                seconds, cpu.back());
            std::fflush(stdout);
        }
        std::printf("{\"mode\":\"%s\",\"runs\":%d,\"median_wall_s\":%.3f,\"median_cpu_s\":%.3f,\"first_wall_s\":%.3f,"
                    "\"result_events\":%zu,\"result_cells\":%zu,\"peak_rss_mb\":%.1f,\"loadavg_1min\":%.2f}\n",
            qPrintable(mode), o.runs, median(wall), median(cpu), first, resultEvents, cells, peakRssMb(),
            loadAverage());
    }
    return 0;
}
