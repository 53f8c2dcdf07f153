// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Overview benchmark (not a test): loads a trial, opens an OverviewWidget 1280x800 offscreen and
// prints JSON: time from the loaded trial to the first painted overview (statistics, layout and
// density rows included), the worst GUI-thread stall while scrolling, sorting and opening the event
// window (gui_stall_*; gui_stall_*_cpu: the GUI thread's own CPU time in its longest turn, which
// the machine's load does not inflate), the thread density aggregates for 800 pixel rows (median
// of 5), repaint after a scroll (median of 20), time to a repainted overview after a value type
// (and, with several metrics, metric) change, and resident memory.
//   bench_overview [DIR] [--screenshot FILE]     (DIR defaults to /tmp/parallax-bench-16384x101)

#include "datasource/readers/readerregistry.h"
#include "tests/bench/benchutil.h"
#include "views/overview/barlistwidget.h"
#include "views/overview/eventbarchart.h"
#include "views/overview/overviewbuilder.h"
#include "views/overview/overviewdensity.h"
#include "views/overview/overviewwidget.h"
#include "views/overview/threadbarchart.h"
#include "views/selectionstate.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScrollBar>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

using namespace parallax;
using namespace parallax::bench;

namespace {

/// Runs the event loop until the overview shows its next layout (every change made here schedules
/// one), then paints it.
void waitAndPaint(OverviewWidget& overview)
{
    QEventLoop loop;
    QObject::connect(&overview, &OverviewWidget::layoutChanged, &loop, &QEventLoop::quit);
    loop.exec();
    overview.barList()->viewport()->repaint();
}

/// CPU time of the calling thread so far.
double threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

/// The longest the GUI thread was blocked at a time: wall time, and the most CPU time the GUI
/// thread itself spent in one such stretch (the part that is the program's, not the machine's
/// load: on 2 cores shared with other work a turn's wall time also holds the time it waited for a
/// core).
struct Stall {
    double wallMs = 0;
    double cpuMs = 0;
    void add(const Stall& other)
    {
        wallMs = std::max(wallMs, other.wallMs);
        cpuMs = std::max(cpuMs, other.cpuMs);
    }
};

/// The longest stall (action included) until `done` holds: the action, then one event-loop turn
/// after another (each turn counted whole, so the figure errs high).
template <typename Action, typename Done> Stall worstStall(QApplication& app, Action action, Done done)
{
    QElapsedTimer timer;
    timer.start();
    double cpu = threadCpuMs();
    action();
    Stall worst { ms(timer), threadCpuMs() - cpu };
    QElapsedTimer total;
    total.start();
    while (!done() && total.elapsed() < 120000) {
        timer.restart();
        cpu = threadCpuMs();
        app.processEvents(QEventLoop::AllEvents);
        worst.add({ ms(timer), threadCpuMs() - cpu });
    }
    return worst;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QString dir = QStringLiteral("/tmp/parallax-bench-16384x101");
    QString screenshot;
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--screenshot") && i + 1 < args.size())
            screenshot = args[++i];
        else
            dir = args[i];
    }

    if (!synthesizeUnlessPresent(QStringLiteral(PARALLAX_CLI), dir, overviewTrialArguments()))
        return 1;

    QElapsedTimer timer;
    timer.start();
    const std::shared_ptr<const Trial> trial = readTrial(dir);
    if (!trial)
        return 1;
    const double loadMs = ms(timer);
    const double residentLoaded = residentMb();

    SelectionState state;
    OverviewWidget overview(&state);
    overview.resize(1280, 800);
    overview.show();
    app.processEvents();

    // Loaded trial -> first painted overview (statistics, layout in the background job, paint).
    const auto overviewSettled = [&] {
        return !overview.isUpdatePending() && !overview.isComputing()
            && (!overview.densityWanted() || overview.isDensityShown());
    };
    timer.restart();
    state.setTrial(trial);
    waitAndPaint(overview);
    while (!overviewSettled()) // the density rows follow the layout
        app.processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    overview.barList()->viewport()->repaint();
    const double firstPaintMs = ms(timer);
    const bool densityShown = overview.isDensityShown();
    const std::size_t densityRows = overview.density() ? overview.density()->rows.size() : 0;
    // Scrolling is over the per-thread rows (density rows all fit): the toggle, then its stall.
    Stall stallToggle = worstStall(
        app, [&] { overview.setDensity(false); }, overviewSettled);

    // The layout alone, statistics already cached.
    OverviewRequest request;
    request.trial = trial;
    request.metric = MetricId(0u);
    timer.restart();
    const auto layout = OverviewBuilder::build(request);
    const double layoutMs = ms(timer);
    // Thread density aggregates of that layout for an 800-pixel-row chart (a worker's job).
    const double densityMs = timeMedian(5, [&] { OverviewDensity::build(layout, 800); });

    // Repaint after a scroll: a page down (or a jump) then a synchronous paint of the viewport.
    BarListWidget* list = overview.barList();
    QScrollBar* bar = list->verticalScrollBar();
    std::vector<double> scrolls;
    for (int i = 0; i < 20; ++i) {
        timer.restart();
        const int step = i % 4 == 3 ? bar->maximum() / 7 : bar->pageStep();
        bar->setValue((bar->value() + step) % std::max(1, bar->maximum()));
        list->viewport()->repaint();
        scrolls.push_back(ms(timer));
    }
    std::vector<double> wheel;
    for (int i = 0; i < 20; ++i) {
        timer.restart();
        bar->setValue(bar->value() + 3 * bar->singleStep());
        list->viewport()->repaint();
        wheel.push_back(ms(timer));
    }

    // The worst GUI-thread stalls of the "Done when" (issue 18 §4): scroll, sort, event window.
    std::vector<double> scrollAll = scrolls;
    scrollAll.insert(scrollAll.end(), wheel.begin(), wheel.end());
    const double stallScrollMs = *std::max_element(scrollAll.begin(), scrollAll.end());
    stallToggle.add(worstStall(
        app, [&] { overview.setDensity(std::nullopt); }, overviewSettled));
    Stall stallSort;
    for (OverviewSort sort : { OverviewSort::BarTotal, OverviewSort::ThreadId }) {
        stallSort.add(worstStall(
            app, [&] { overview.setSort(sort, sort != OverviewSort::ThreadId); }, [&] { return overviewSettled(); }));
        list->viewport()->repaint();
    }
    Stall stallEventWindow;
    {
        EventBarChart shown(&state);
        shown.resize(1280, 800);
        stallEventWindow = worstStall(
            app,
            [&] {
                shown.show();
                state.selectEvent(EventId(std::size_t(0)));
            },
            [&] { return !shown.isUpdatePending() && !shown.isComputing() && shown.rowCount() > 0; });
        shown.barList()->viewport()->repaint();
    }

    // Value type change: new layout (background job) and its first paint.
    std::vector<double> valueChanges;
    const ValueType types[] = { ValueType::Calls, ValueType::Exclusive, ValueType::ExclusivePercent,
        ValueType::Exclusive, ValueType::Inclusive };
    for (ValueType type : types) {
        timer.restart();
        state.setValueType(type);
        waitAndPaint(overview);
        valueChanges.push_back(ms(timer));
    }
    std::vector<double> modeChanges;
    for (OverviewMode mode : { OverviewMode::Unstacked, OverviewMode::Normalised, OverviewMode::Stacked }) {
        timer.restart();
        overview.setMode(mode);
        waitAndPaint(overview);
        modeChanges.push_back(ms(timer));
    }
    std::vector<double> metricChanges;
    for (std::size_t m = 1; m < trial->metricCount() && m < 4; ++m) {
        timer.restart();
        state.setMetric(MetricId(m));
        waitAndPaint(overview);
        metricChanges.push_back(ms(timer));
    }
    // Selecting an event only re-outlines its segments.
    std::vector<double> selections;
    for (std::size_t e = 0; e < 10 && e < trial->eventCount(); ++e) {
        timer.restart();
        state.selectEvent(EventId(e));
        list->viewport()->repaint();
        selections.push_back(ms(timer));
    }

    // The Event window (one bar per thread) and the Thread window of the mean pseudo-thread.
    EventBarChart eventChart(&state);
    eventChart.resize(1280, 800);
    std::vector<double> eventBuilds;
    for (std::size_t e = 0; e < 5 && e < trial->eventCount(); ++e) {
        state.selectEvent(EventId(e * 7));
        timer.restart();
        eventChart.updateNow();
        eventBuilds.push_back(ms(timer));
    }
    ThreadBarChart threadChart(&state);
    threadChart.resize(1280, 800);
    threadChart.setStatistic(Statistic::MeanAll);
    timer.restart();
    threadChart.updateNow();
    const double threadBuildMs = ms(timer);

    if (!screenshot.isEmpty())
        overview.exportImage(screenshot);

    QJsonObject out;
    out[QStringLiteral("data")] = dir;
    out[QStringLiteral("threads")] = static_cast<qint64>(trial->threadCount());
    out[QStringLiteral("events")] = static_cast<qint64>(trial->eventCount());
    out[QStringLiteral("stacked_events")] = static_cast<qint64>(layout->order.size());
    out[QStringLiteral("segments")] = static_cast<qint64>(layout->bars->segments.size());
    out[QStringLiteral("cores")] = static_cast<qint64>(sysconf(_SC_NPROCESSORS_ONLN));
    out[QStringLiteral("viewport")]
        = QStringLiteral("%1x%2").arg(list->viewport()->width()).arg(list->viewport()->height());
    out[QStringLiteral("load_ms")] = loadMs;
    out[QStringLiteral("first_paint_ms")] = firstPaintMs;
    out[QStringLiteral("density_shown")] = densityShown;
    out[QStringLiteral("density_rows")] = static_cast<qint64>(densityRows);
    out[QStringLiteral("gui_stall_scroll_max_ms")] = stallScrollMs;
    out[QStringLiteral("gui_stall_sort_max_ms")] = stallSort.wallMs;
    out[QStringLiteral("gui_stall_sort_cpu_max_ms")] = stallSort.cpuMs;
    out[QStringLiteral("gui_stall_density_toggle_max_ms")] = stallToggle.wallMs;
    out[QStringLiteral("gui_stall_density_toggle_cpu_max_ms")] = stallToggle.cpuMs;
    out[QStringLiteral("gui_stall_event_window_max_ms")] = stallEventWindow.wallMs;
    out[QStringLiteral("gui_stall_event_window_cpu_max_ms")] = stallEventWindow.cpuMs;
    out[QStringLiteral("layout_only_ms")] = layoutMs;
    out[QStringLiteral("density_800_rows_median_ms")] = densityMs;
    out[QStringLiteral("repaint_after_page_scroll_median_ms")] = median(scrolls);
    out[QStringLiteral("repaint_after_page_scroll_max_ms")] = *std::max_element(scrolls.begin(), scrolls.end());
    out[QStringLiteral("repaint_after_wheel_scroll_median_ms")] = median(wheel);
    out[QStringLiteral("value_type_change_to_paint_median_ms")] = median(valueChanges);
    out[QStringLiteral("mode_change_to_paint_median_ms")] = median(modeChanges);
    out[QStringLiteral("metric_change_to_paint_median_ms")]
        = metricChanges.empty() ? QJsonValue() : QJsonValue(median(metricChanges));
    out[QStringLiteral("select_event_repaint_median_ms")] = median(selections);
    out[QStringLiteral("event_window_build_median_ms")] = median(eventBuilds);
    out[QStringLiteral("thread_window_mean_build_ms")] = threadBuildMs;
    out[QStringLiteral("rss_after_load_mb")] = residentLoaded;
    out[QStringLiteral("rss_with_overview_mb")] = residentMb();
    out[QStringLiteral("peak_rss_mb")] = peakRssMb();
    std::printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Compact).constData());
    return 0;
}
