// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Comparison window benchmark (not a test): two generated 16,384-thread x 201-event trials in
// memory -> a ComparisonWindow (1400x900, offscreen) whose Side by side tab is painted. Prints JSON:
//   - cold: fresh trials each round (the difference, both runs' statistics, matching, per-event
//     numbers, first paint), median of 5;
//   - warm: the runs' statistics already cached, as for trials the main window has loaded (its
//     LoadJob computes them), median of 5;
//   - the stages of one cold build, the switch to one thread's values, and resident memory.
//   bench_comparison [DIR1 DIR2]   (default /tmp/parallax-bench-16384x201-s1 and -s2, generated
//                                   with parallax-cli synth --seed 1 / --seed 2 when missing)

#include "algebra/statistics.h"
#include "datasource/readers/readerregistry.h"
#include "tests/bench/benchutil.h"
#include "views/comparison/comparisonbuilder.h"
#include "views/comparison/comparisonmodel.h"
#include "views/comparison/comparisonwindow.h"
#include "views/comparison/sidebysideview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTreeView>
#include <algorithm>
#include <cstdio>
#include <unistd.h>
#include <vector>

using namespace parallax;
using namespace parallax::bench;

namespace {

/// Trials in memory -> the comparison computed and its first tab painted.
double openAndPaint(const std::shared_ptr<const Trial>& a, const std::shared_ptr<const Trial>& b, int* rows)
{
    QElapsedTimer timer;
    timer.start();
    ComparisonWindow window(a, b);
    window.resize(1400, 900);
    window.show();
    if (window.isComputing()) {
        QEventLoop loop;
        QObject::connect(&window, &ComparisonWindow::computed, &loop, &QEventLoop::quit);
        loop.exec();
    }
    window.sideBySideView()->view()->viewport()->repaint();
    const double elapsed = ms(timer);
    *rows = window.model()->rowCount();
    return elapsed;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QString dir1 = QStringLiteral("/tmp/parallax-bench-16384x201-s1");
    QString dir2 = QStringLiteral("/tmp/parallax-bench-16384x201-s2");
    const QStringList args = app.arguments();
    if (args.size() >= 3) {
        dir1 = args[1];
        dir2 = args[2];
    }
    auto ensure = [](const QString& dir, int seed) {
        return synthesizeUnlessPresent(QStringLiteral(PARALLAX_CLI), dir,
            { QStringLiteral("--threads"), QStringLiteral("16384"), QStringLiteral("--events"), QStringLiteral("201"),
                QStringLiteral("--seed"), QString::number(seed) });
    };
    if (!ensure(dir1, 1) || !ensure(dir2, 2)) {
        std::fprintf(stderr, "parallax-cli synth failed\n");
        return 1;
    }
    constexpr int rounds = 5;

    // Cold: fresh trials every round (nothing cached on them).
    std::vector<double> cold;
    std::vector<double> loads;
    int rows = 0;
    std::size_t threads = 0;
    std::size_t events = 0;
    for (int i = 0; i < rounds; ++i) {
        QElapsedTimer timer;
        timer.start();
        auto a = readTrial(dir1);
        auto b = readTrial(dir2);
        if (!a || !b)
            return 1;
        loads.push_back(ms(timer));
        threads = a->threadCount();
        events = a->eventCount();
        cold.push_back(openAndPaint(a, b, &rows));
    }

    // Warm: the same two trials with their statistics computed, as after the main window's load.
    auto a = readTrial(dir1);
    auto b = readTrial(dir2);
    if (!a || !b)
        return 1;
    TrialStatistics::of(*a);
    TrialStatistics::of(*b);
    std::vector<double> warm;
    warm.reserve(static_cast<std::size_t>(rounds));
    for (int i = 0; i < rounds; ++i)
        warm.push_back(openAndPaint(a, b, &rows));

    // The stages of one cold build.
    auto ca = readTrial(dir1);
    auto cb = readTrial(dir2);
    QJsonObject stages;
    QElapsedTimer stageTimer;
    stageTimer.start();
    QString current;
    auto snapshot = ComparisonBuilder::build(ca, cb, AlgebraOptions {}, [&](int, const QString& stage) {
        if (!current.isEmpty())
            stages.insert(current, ms(stageTimer));
        current = stage;
        stageTimer.restart();
    });
    stages.insert(current, ms(stageTimer));
    QElapsedTimer timer;
    timer.start();
    auto meanValues = ComparisonBuilder::values(*snapshot, ComparisonQuery {});
    const double meanValuesMs = ms(timer);
    ComparisonQuery threadQuery;
    threadQuery.source = CompareSource::Thread;
    threadQuery.thread = 8191;
    timer.restart();
    auto threadValues = ComparisonBuilder::values(*snapshot, threadQuery);
    const double threadValuesMs = ms(timer);

    QJsonObject out;
    out.insert(QStringLiteral("benchmark"), QStringLiteral("comparison"));
    out.insert(QStringLiteral("threads"), static_cast<qint64>(threads));
    out.insert(QStringLiteral("events"), static_cast<qint64>(events));
    out.insert(QStringLiteral("rows_shown"), rows);
    out.insert(QStringLiteral("rounds"), rounds);
    out.insert(QStringLiteral("load_both_ms_median"), median(loads));
    out.insert(QStringLiteral("open_to_first_paint_cold_ms_median"), median(cold));
    out.insert(QStringLiteral("open_to_first_paint_warm_ms_median"), median(warm));
    QJsonArray coldAll, warmAll;
    for (double v : cold)
        coldAll.append(v);
    for (double v : warm)
        warmAll.append(v);
    out.insert(QStringLiteral("cold_ms"), coldAll);
    out.insert(QStringLiteral("warm_ms"), warmAll);
    out.insert(QStringLiteral("build_stages_ms"), stages);
    out.insert(QStringLiteral("values_mean_ms"), meanValuesMs);
    out.insert(QStringLiteral("values_one_thread_ms"), threadValuesMs);
    out.insert(QStringLiteral("resident_mb"), residentMb());
    std::printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Indented).constData());
    return meanValues && threadValues ? 0 : 1;
}
