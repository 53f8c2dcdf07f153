// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/gui/viewregistry.h"

#include "app/gui/databasepanel.h"
#include "app/gui/mainwindow.h"
#include "app/gui/sourcesettings.h"
#include "views/advisor/advisorview.h"
#include "views/callgraph/callgraphwidget.h"
#include "views/charts/chartexport.h"
#include "views/cluster/clusterview.h"
#include "views/cluster/correlationview.h"
#include "views/commmatrix/commmatrixview.h"
#include "views/common/toolwindow.h"
#include "views/comparison/comparisonflamepage.h"
#include "views/comparison/comparisonwindow.h"
#include "views/comparison/scalingmodelsview.h"
#include "views/comparison/scalingview.h"
#include "views/cube/cubebrowser.h"
#include "views/cube/distributionpanel.h"
#include "views/cube/topologyview.h"
#include "views/flame/flamegraphwidget.h"
#include "views/flame/sandwichwidget.h"
#include "views/history/historyview.h"
#include "views/overview/eventbarchart.h"
#include "views/overview/overviewwidget.h"
#include "views/overview/selectorbar.h"
#include "views/overview/threadbarchart.h"
#include "views/selectionstate.h"
#include "views/semantic/semanticwindow.h"
#include "views/snapshots/snapshotview.h"
#include "views/source/sourceview.h"
#include "views/statisticspanel.h"
#include "views/timeline/timelineview.h"
#include "views/trialsummarywidget.h"
#include "views/userevents/histogramwidget.h"
#include "views/userevents/usereventswidget.h"

#include <QCoreApplication>
#include <QDialog>
#include <QLayout>
#include <QTabWidget>
#include <QTimer>
#include <algorithm>

namespace parallax {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("parallax::ViewRegistry", text); }

template <typename T> T* widget(const RenderTarget& target, const char* name)
{
    return qobject_cast<T*>(target.main->viewWidget(QLatin1String(name)));
}

/// Shows a main-window view and exports it once shown.
void exportMain(const RenderTarget& target, const char* name, const RenderRequest& request)
{
    QWidget* w = target.main->viewWidget(QLatin1String(name));
    target.main->showView(w);
    target.main->exportShown(w, request);
}

/// The event and histogram views: the event NAME (optional) is selected first.
bool selectEvent(const RenderTarget& target, const RenderRequest& request)
{
    const auto& t = target.main->trial();
    const EventId e = request.argument.isEmpty() ? EventId() : t->findEvent(request.argument);
    if (!request.argument.isEmpty() && !e.isValid()) {
        request.done(tr("no event named '%1' in %2").arg(request.argument, t->name()));
        return false;
    }
    if (e.isValid())
        target.main->selection()->selectEvent(e);
    return true;
}

/// The CUBE browser's location tabs (0 topology, 1 distribution) for its default selection, the
/// tab alone at the requested size.
void renderCubeLocations(const RenderTarget& target, const RenderRequest& request, int tab)
{
    auto* cube = widget<CubeBrowser>(target, "cube");
    target.main->showView(cube);
    cube->updateNow();
    cube->finishComputing();
    cube->locationTabs()->setCurrentIndex(tab);
    QWidget* w = tab == 0 ? static_cast<QWidget*>(cube->topologyView()) : cube->distributionPanel();
    target.main->exportShown(w, request);
}

void renderComparison(const RenderTarget& target, ComparisonWindow::Tab tab, const RenderRequest& request)
{
    ComparisonWindow* window = target.comparison;
    window->renderTab(tab, request.fileName, request.size, [window, done = request.done](const QString& error) {
        QString message = error;
        if (message.isEmpty() && !window->errorMessage().isEmpty())
            message = window->errorMessage();
        done(message);
    });
}

void renderSemantic(const RenderTarget& target, SemanticWindow::View view, const RenderRequest& request)
{
    target.semantic->renderView(view, request.fileName, request.size, request.done);
}

/// The render function of one comparison tab or one semantic view (a registry entry's `render`).
template <ComparisonWindow::Tab tab> void renderComparisonTab(const RenderTarget& target, const RenderRequest& request)
{
    renderComparison(target, tab, request);
}
/// The scaling window's "Models per call path" page, or its flame graph alone.
template <bool flameOnly> void renderScalingModels(const RenderTarget& target, const RenderRequest& request)
{
    ScalingView* view = target.scaling;
    view->showModelsPage();
    view->waitForResult();
    ScalingModelsView* page = view->modelsPage();
    if (!page->message().isEmpty()) {
        request.done(page->message());
        return;
    }
    QTimer::singleShot(100, view, [view, page, request] {
        view->resize(request.size);
        if (view->layout())
            view->layout()->activate();
        page->waitForResult();
        request.done(flameOnly ? page->flame()->exportImage(request.fileName, request.size)
                               : exportWidget(view, request.fileName));
    });
}

/// A window drawn whole once its background job is done (the scaling and history windows), at the
/// requested size.
template <typename View, View* RenderTarget::*slot>
void renderWholeWindow(const RenderTarget& target, const RenderRequest& request)
{
    View* view = target.*slot;
    view->waitForResult();
    QTimer::singleShot(100, view, [view, request] {
        view->resize(request.size);
        if (view->layout())
            view->layout()->activate();
        request.done(view->exportImage(request.fileName));
    });
}

template <SemanticWindow::View view> void renderSemanticView(const RenderTarget& target, const RenderRequest& request)
{
    renderSemantic(target, view, request);
}

// The registry. Main-window tabs come first in their tab order, then its docks; the other
// windows' views follow, grouped by window (--help lists them in this order).
const ViewInfo table[] = {
    { RenderWindow::Main, "overview", "", "", "one stacked bar per thread under the mean, min, max and total rows",
        "overview", QT_TRANSLATE_NOOP("parallax::MainWindow", "&Overview"), ViewPlacement::Tab,
        [](SelectionState* state) -> QWidget* {
            auto* overview = new OverviewWidget(state);
            // The main toolbar holds the metric, value and unit selectors for the tabs; the
            // docks keep their own, since they can float as windows of their own.
            overview->selectorBar()->setSelectorVisible(SelectorBar::MetricSelector, false);
            overview->selectorBar()->setSelectorVisible(SelectorBar::ValueSelector, false);
            overview->selectorBar()->setSelectorVisible(SelectorBar::UnitSelector, false);
            return overview;
        },
        [](const RenderTarget& target, const RenderRequest& request) {
            auto* overview = widget<OverviewWidget>(target, "overview");
            target.main->showView(overview);
            // At the export's size from the start, and kept there: the window grows until the tab has
            // it, so density rows are computed once, for the height they are drawn at.
            if (request.size.isValid()) {
                QWidget* window = overview->window();
                window->resize(window->size() + request.size - overview->size());
                if (window->layout())
                    window->layout()->activate();
                if (overview->size() != request.size) { // narrower than the window's minimum allows
                    overview->updateNow();
                    target.main->exportShown(overview, request);
                    return;
                }
                overview->updateNow();
                // One turn of the event loop shows or hides the scroll bars for the rows now shown;
                // the size stays, so there is nothing to wait for.
                QTimer::singleShot(0, overview, [overview, request] {
                    overview->updateNow();
                    request.done(exportWidget(overview, request.fileName));
                });
                return;
            }
            overview->updateNow();
            target.main->exportShown(overview, request);
        } },
    { RenderWindow::Main, "table", "", "statistics", "the Statistics tab: pprof-style columns per event", "statistics",
        QT_TRANSLATE_NOOP("parallax::MainWindow", "&Statistics"), ViewPlacement::Tab,
        [](SelectionState* state) -> QWidget* { return new StatisticsPanel(state); },
        [](const RenderTarget& target, const RenderRequest& request) { exportMain(target, "table", request); } },
    { RenderWindow::Main, "tree", "", "", "the Statistics tab as a call tree", "", "", ViewPlacement::None, nullptr,
        [](const RenderTarget& target, const RenderRequest& request) {
            widget<StatisticsPanel>(target, "table")->setTreeMode(true);
            exportMain(target, "table", request);
        } },
    { RenderWindow::Main, "callgraph", "", "", "the call graph laid out by Graphviz dot", "callgraph",
        QT_TRANSLATE_NOOP("parallax::MainWindow", "Call &Graph"), ViewPlacement::Tab,
        [](SelectionState* state) -> QWidget* { return new CallGraphWidget(state); },
        [](const RenderTarget& target, const RenderRequest& request) {
            // The layout comes from dot, asynchronously.
            auto* graph = widget<CallGraphWidget>(target, "callgraph");
            target.main->showView(graph);
            auto connection = std::make_shared<QMetaObject::Connection>();
            *connection = QObject::connect(graph, &CallGraphWidget::layoutFinished, target.main,
                [connection, main = target.main, graph, request](bool) {
                    QObject::disconnect(*connection);
                    main->exportShown(graph, request);
                });
            graph->relayout();
        } },
    { RenderWindow::Main, "flame", "", "", "the flame graph of the call tree (root at the bottom)", "flame",
        QT_TRANSLATE_NOOP("parallax::MainWindow", "&Flame Graph"), ViewPlacement::Tab,
        [](SelectionState* state) -> QWidget* {
            auto* flame = new FlameGraphWidget(state);
            QObject::connect(flame, &FlameGraphWidget::sandwichRequested, flame,
                [flame, state](const QString& routine) { SandwichWidget::open(state, routine, flame); });
            return flame;
        },
        [](const RenderTarget& target, const RenderRequest& request) {
            auto* flame = widget<FlameGraphWidget>(target, "flame");
            flame->setStyle(FlameGraphWidget::Style::Flame);
            target.main->showView(flame);
            flame->updateNow(); // computes the tree and waits for it
            exportMain(target, "flame", request);
        } },
    { RenderWindow::Main, "icicle", "", "", "the call tree as an icicle (the flame graph upside down)", "", "",
        ViewPlacement::None, nullptr,
        [](const RenderTarget& target, const RenderRequest& request) {
            auto* flame = widget<FlameGraphWidget>(target, "flame");
            flame->setStyle(FlameGraphWidget::Style::Icicle);
            target.main->showView(flame);
            flame->updateNow(); // computes the tree and waits for it
            exportMain(target, "flame", request);
        } },
    { RenderWindow::Main, "sandwich", "NAME", "", "the callers and callees of one routine, merged over its call paths",
        "", "", ViewPlacement::None, nullptr,
        [](const RenderTarget& target, const RenderRequest& request) {
            if (request.argument.isEmpty()) {
                request.done(tr("sandwich needs the routine: --render sandwich NAME"));
                return;
            }
            auto* sandwich = new SandwichWidget(target.main->selection(), request.argument, target.main);
            sandwich->setWindowFlag(Qt::Window);
            sandwich->resize(request.size.isValid() ? request.size : QSize(1400, 900));
            sandwich->show();
            sandwich->updateNow();
            if (!sandwich->sandwich() || sandwich->sandwich()->occurrences == 0) {
                request.done(tr("no routine named '%1' in the call paths of %2")
                                 .arg(request.argument, target.main->trial()->name()));
                sandwich->deleteLater();
                return;
            }
            RenderRequest r = request;
            r.done = [sandwich, done = request.done](const QString& error) {
                sandwich->deleteLater();
                done(error);
            };
            target.main->exportShown(sandwich, r);
        } },
    { RenderWindow::Main, "source", "NAME", "",
        "the source browser at an event's file and lines, with per-line costs (--source-root DIR to search)", "source",
        QT_TRANSLATE_NOOP("parallax::MainWindow", "So&urce"), ViewPlacement::Tab,
        [](SelectionState* state) -> QWidget* {
            auto* view = new SourceView(state);
            view->setSearchStore({ loadSourceSearch, saveSourceSearch });
            return view;
        },
        [](const RenderTarget& target, const RenderRequest& request) {
            if (!selectEvent(target, request))
                return;
            auto* view = widget<SourceView>(target, "source");
            target.main->showView(view);
            view->updateNow(); // reads the file and waits for it
            if (view->recordedFile().isEmpty()) {
                request.done(tr("the event '%1' has no source location").arg(request.argument));
                return;
            }
            exportMain(target, "source", request);
        } },
    { RenderWindow::Main, "cube", "", "", "the CUBE browser: metric, call path and location trees with value modes",
        "cube", QT_TRANSLATE_NOOP("parallax::MainWindow", "C&UBE"), ViewPlacement::Tab,
        [](SelectionState* state) -> QWidget* { return new CubeBrowser(state); },
        [](const RenderTarget& target, const RenderRequest& request) {
            // Opened a few levels, so the picture shows the three trees rather than three roots.
            auto* cube = widget<CubeBrowser>(target, "cube");
            target.main->showView(cube);
            cube->updateNow();
            cube->expandToDepth(CubePane::Metric, 2);
            cube->expandToDepth(CubePane::Call, 3);
            cube->expandToDepth(CubePane::System, 2);
            // An expanded metric shows its own part (often 0 for a CUBE "Time"): select its first
            // child instead, e.g. Execution of KOJAK's Time.
            const auto& selected = cube->state().pane(CubePane::Metric).selected;
            if (!selected.empty() && cube->state().pane(CubePane::Metric).isExpanded(selected.front())) {
                const auto& children = cube->space()->item(CubePane::Metric, selected.front()).children;
                if (!children.empty())
                    cube->selectItem(CubePane::Metric, children.front());
            }
            cube->finishComputing();
            exportMain(target, "cube", request);
        } },
    { RenderWindow::Main, "topology", "", "",
        "the CUBE browser's topology: the selection's values on the locations' grid", "", "", ViewPlacement::None,
        nullptr,
        [](const RenderTarget& target, const RenderRequest& request) { renderCubeLocations(target, request, 0); } },
    { RenderWindow::Main, "distribution", "", "",
        "the CUBE browser's distribution of the selected call path across the locations", "", "", ViewPlacement::None,
        nullptr,
        [](const RenderTarget& target, const RenderRequest& request) { renderCubeLocations(target, request, 1); } },
    { RenderWindow::Main, "userevents", "", "", "the User Events tab", "userevents",
        QT_TRANSLATE_NOOP("parallax::MainWindow", "&User Events"), ViewPlacement::Tab,
        [](SelectionState* state) -> QWidget* { return new UserEventsWidget(state); },
        [](const RenderTarget& target, const RenderRequest& request) { exportMain(target, "userevents", request); } },
    { RenderWindow::Main, "summary", "", "", "the Summary tab: source, threads, metrics, warnings, metadata", "summary",
        QT_TRANSLATE_NOOP("parallax::MainWindow", "Su&mmary"), ViewPlacement::Tab,
        [](SelectionState*) -> QWidget* { return new TrialSummaryWidget; },
        [](const RenderTarget& target, const RenderRequest& request) { exportMain(target, "summary", request); } },
    { RenderWindow::Main, "clusters", "", "", "the threads clustered by their profiles: PCA scatter, clusters, profile",
        "clusters", QT_TRANSLATE_NOOP("parallax::MainWindow", "C&lusters"), ViewPlacement::Tab,
        [](SelectionState* state) -> QWidget* { return new ClusterView(state); },
        [](const RenderTarget& target, const RenderRequest& request) {
            auto* view = widget<ClusterView>(target, "clusters");
            target.main->showView(view);
            view->updateNow(); // clusters and waits for it
            exportMain(target, "clusters", request);
        } },
    { RenderWindow::Main, "correlation", "", "", "the event × event correlation across threads, and with the total",
        "correlation", QT_TRANSLATE_NOOP("parallax::MainWindow", "Co&rrelation"), ViewPlacement::Tab,
        [](SelectionState* state) -> QWidget* { return new CorrelationView(state); },
        [](const RenderTarget& target, const RenderRequest& request) {
            auto* view = widget<CorrelationView>(target, "correlation");
            target.main->showView(view);
            view->updateNow();
            exportMain(target, "correlation", request);
        } },
    { RenderWindow::Main, "advisor", "[BASELINE]", "",
        "the instrumentation advisor: what to exclude and why, trace size, overhead against a BASELINE run", "advisor",
        QT_TRANSLATE_NOOP("parallax::MainWindow", "&Advisor"), ViewPlacement::Tab,
        [](SelectionState* state) -> QWidget* { return new AdvisorView(state); },
        [](const RenderTarget& target, const RenderRequest& request) {
            auto* view = widget<AdvisorView>(target, "advisor");
            if (!request.argument.isEmpty())
                view->setBaselinePath(request.argument);
            target.main->showView(view);
            view->updateNow(); // computes the advice (and reads the baseline) and waits for it
            exportMain(target, "advisor", request);
        } },
    { RenderWindow::Main, "commmatrix", "", "",
        "the communication matrix: bytes, messages or mean size per sender and receiver rank (--quantity, --context)",
        "commmatrix", QT_TRANSLATE_NOOP("parallax::MainWindow", "Co&mmunication"), ViewPlacement::Tab,
        [](SelectionState* state) -> QWidget* { return new CommMatrixView(state); },
        [](const RenderTarget& target, const RenderRequest& request) {
            auto* view = widget<CommMatrixView>(target, "commmatrix");
            if (!request.quantity.isEmpty()) {
                const auto q = commQuantityOf(request.quantity);
                if (!q) {
                    request.done(tr("--quantity takes bytes, messages or mean, not '%1'").arg(request.quantity));
                    return;
                }
                view->setQuantity(*q);
            }
            target.main->showView(view);
            if (!request.context.isEmpty() && !view->setContext(request.context)) {
                request.done(tr("no message context '%1' in %2").arg(request.context, target.main->trial()->name()));
                return;
            }
            view->updateNow(); // computes the matrix and its image and waits for them
            exportMain(target, "commmatrix", request);
        } },
    { RenderWindow::Main, "timeseries", "", "snapshots",
        "the time series of a trial with snapshots: each event per interval, a thread × interval heat map",
        "timeseries", QT_TRANSLATE_NOOP("parallax::MainWindow", "T&ime Series"), ViewPlacement::Tab,
        [](SelectionState* state) -> QWidget* { return new SnapshotView(state); },
        [](const RenderTarget& target, const RenderRequest& request) {
            auto* view = widget<SnapshotView>(target, "timeseries");
            target.main->showView(view);
            view->updateNow(); // computes the series and waits for it
            exportMain(target, "timeseries", request);
        } },
    { RenderWindow::Main, "timeline", "", "",
        "an OTF2 trace's time line: per location and time bin the dominant region, to choose a window on", "timeline",
        QT_TRANSLATE_NOOP("parallax::MainWindow", "Time&line"), ViewPlacement::Tab,
        [](SelectionState* state) -> QWidget* { return new TimelineView(state); },
        [](const RenderTarget& target, const RenderRequest& request) {
            auto* view = widget<TimelineView>(target, "timeline");
            target.main->showView(view);
            view->updateNow(); // replays the trace and waits for it
            exportMain(target, "timeline", request);
        } },
    { RenderWindow::Main, "event", "NAME", "", "one event across all threads", "event",
        QT_TRANSLATE_NOOP("parallax::MainWindow", "Event"), ViewPlacement::Dock,
        [](SelectionState* state) -> QWidget* { return new EventBarChart(state); },
        [](const RenderTarget& target, const RenderRequest& request) {
            if (selectEvent(target, request))
                exportMain(target, "event", request);
        } },
    { RenderWindow::Main, "thread", "N,C,T", "", "all events of one thread", "thread",
        QT_TRANSLATE_NOOP("parallax::MainWindow", "Thread"), ViewPlacement::Dock,
        [](SelectionState* state) -> QWidget* { return new ThreadBarChart(state); },
        [](const RenderTarget& target, const RenderRequest& request) {
            const auto& t = target.main->trial();
            const QStringList parts = request.argument.split(QLatin1Char(','));
            bool ok = parts.size() == 3;
            ThreadKey key;
            if (ok)
                key = { parts[0].toInt(&ok), parts.value(1).toInt(), parts.value(2).toInt() };
            const ThreadIndex ti = ok ? t->findThread(key) : ThreadIndex();
            if (!ti.isValid()) {
                request.done(tr("no thread '%1' in %2 (expected N,C,T)").arg(request.argument, t->name()));
                return;
            }
            target.main->selection()->selectThread(ti);
            exportMain(target, "thread", request);
        } },
    { RenderWindow::Main, "histogram", "NAME", "", "the distribution of one event across threads", "histogram",
        QT_TRANSLATE_NOOP("parallax::MainWindow", "Histogram"), ViewPlacement::Dock,
        [](SelectionState* state) -> QWidget* { return new HistogramWidget(state); },
        [](const RenderTarget& target, const RenderRequest& request) {
            if (selectEvent(target, request))
                exportMain(target, "histogram", request);
        } },
    { RenderWindow::Main, "databases", "", "", "the Databases dock (with --search)", "databases",
        QT_TRANSLATE_NOOP("parallax::MainWindow", "Databases"), ViewPlacement::Shell, nullptr,
        [](const RenderTarget& target, const RenderRequest& request) {
            QWidget* dock = target.main->viewWidget(QStringLiteral("databases"));
            target.main->showView(dock);
            DatabasePanel* panel = target.main->databasePanel();
            if (!panel->isBusy()) {
                target.main->exportShown(dock, request);
                return;
            }
            // Listing (through the search) runs on worker threads.
            auto connection = std::make_shared<QMetaObject::Connection>();
            *connection = QObject::connect(panel, &DatabasePanel::busy, target.main,
                [connection, main = target.main, dock, request](bool running) {
                    if (running)
                        return;
                    QObject::disconnect(*connection);
                    main->exportShown(dock, request);
                });
        } },
    { RenderWindow::Main, "metadata", "", "", "the metadata editor of the --db/--id trial", "", "", ViewPlacement::None,
        nullptr,
        [](const RenderTarget& target, const RenderRequest& request) {
            const QString source = target.main->databaseSource();
            if (source.isEmpty()) {
                request.done(tr("the metadata editor needs a trial opened from a database (--db LOCATION --id N)"));
                return;
            }
            // The editor reads the metadata on a worker thread, then opens.
            DatabasePanel* panel = target.main->databasePanel();
            auto connection = std::make_shared<QMetaObject::Connection>();
            *connection = QObject::connect(
                panel, &DatabasePanel::metadataEditorShown, target.main, [connection, request](QDialog* dialog) {
                    QObject::disconnect(*connection);
                    QTimer::singleShot(100, dialog, [dialog, request] {
                        if (request.size.isValid())
                            dialog->resize(request.size);
                        dialog->layout()->activate();
                        request.done(exportWidget(dialog, request.fileName));
                    });
                });
            panel->editMetadata(
                source.section(QLatin1Char('#'), 0, -2), source.section(QLatin1Char('#'), -1).toLongLong());
        } },
    { RenderWindow::Compare, "compare-sidebyside", "", "", "A's and B's bars per event with Δ and Δ%", "", "",
        ViewPlacement::None, nullptr, renderComparisonTab<ComparisonWindow::Tab::SideBySide> },
    { RenderWindow::Compare, "compare-signed", "", "",
        "the signed difference around zero (blue: B cheaper, red: regression)", "", "", ViewPlacement::None, nullptr,
        renderComparisonTab<ComparisonWindow::Tab::SignedDifference> },
    { RenderWindow::Compare, "compare-tree", "", "", "the union call tree with A, B, Δ and Δ%", "", "",
        ViewPlacement::None, nullptr, renderComparisonTab<ComparisonWindow::Tab::Tree> },
    { RenderWindow::Compare, "compare-callgraph", "", "", "the difference's call graph, coloured by change", "", "",
        ViewPlacement::None, nullptr, renderComparisonTab<ComparisonWindow::Tab::CallGraph> },
    { RenderWindow::Compare, "compare-flame", "", "",
        "the differential flame graph: the union call tree, width max(A, B), colour Δ = A − B", "", "",
        ViewPlacement::None, nullptr, renderComparisonTab<ComparisonWindow::Tab::Flame> },
    { RenderWindow::Compare, "compare-flame-stacked", "", "",
        "A's flame graph above B's, coloured by Δ = A − B and zoomed together", "", "", ViewPlacement::None, nullptr,
        [](const RenderTarget& target, const RenderRequest& request) {
            target.comparison->flamePage()->setArrangement(ComparisonFlamePage::Arrangement::Stacked);
            renderComparison(target, ComparisonWindow::Tab::Flame, request);
        } },
    { RenderWindow::Compare, "compare-sandwich", "NAME", "",
        "the sandwich of one routine in the comparison: callers and callees with A, B and Δ", "", "",
        ViewPlacement::None, nullptr,
        [](const RenderTarget& target, const RenderRequest& request) {
            if (request.argument.isEmpty()) {
                request.done(tr("compare-sandwich needs the routine: --render compare-sandwich NAME"));
                return;
            }
            ComparisonWindow* window = target.comparison;
            window->waitForResult();
            if (!window->errorMessage().isEmpty()) {
                request.done(window->errorMessage());
                return;
            }
            SandwichWidget* sandwich = window->flamePage()->openSandwich(request.argument);
            if (!sandwich) {
                request.done(tr("the comparison has no runs to take a sandwich of"));
                return;
            }
            sandwich->resize(request.size.isValid() ? request.size : QSize(1400, 900));
            sandwich->updateNow();
            const DiffSandwich* d = sandwich->diffSandwich();
            if (!d || (d->a.occurrences == 0 && d->b.occurrences == 0)) {
                request.done(tr("no routine named '%1' in the call paths of either run").arg(request.argument));
                sandwich->close();
                return;
            }
            renderWhenSettled(
                sandwich, request.size, 100,
                [sandwich, file = request.fileName] { return exportWidget(sandwich, file); },
                [sandwich, done = request.done](const QString& error) {
                    sandwich->close();
                    done(error);
                });
        } },
    { RenderWindow::Compare, "compare-summary", "", "",
        "metadata side by side, speed-up, top improvements and regressions", "", "", ViewPlacement::None, nullptr,
        renderComparisonTab<ComparisonWindow::Tab::Summary> },
    { RenderWindow::Scaling, "scaling", "", "", "time and relative efficiency against the smallest run, per event", "",
        "", ViewPlacement::None, nullptr, renderWholeWindow<ScalingView, &RenderTarget::scaling> },
    { RenderWindow::Scaling, "scaling-models", "", "",
        "every call path's model, prediction at P and growth: call tree and flame graph", "", "", ViewPlacement::None,
        nullptr, renderScalingModels<false> },
    { RenderWindow::Scaling, "scaling-models-flame", "", "",
        "the flame graph of the call paths' predicted values at P, coloured by growth", "", "", ViewPlacement::None,
        nullptr, renderScalingModels<true> },
    { RenderWindow::Semantic, "semantic-bars", "", "", "the semantic profile as a sorted bar chart", "", "",
        ViewPlacement::None, nullptr, renderSemanticView<SemanticWindow::View::Bars> },
    { RenderWindow::Semantic, "semantic-tree", "", "", "the entity tree with values, policies and mapping classes", "",
        "", ViewPlacement::None, nullptr, renderSemanticView<SemanticWindow::View::Tree> },
    { RenderWindow::Semantic, "semantic-matrix", "", "", "one stacked bar per thread coloured by entity", "", "",
        ViewPlacement::None, nullptr, renderSemanticView<SemanticWindow::View::Matrix> },
    { RenderWindow::Semantic, "semantic-inspector", "", "",
        "the mapping inspector: associations, events, weights, warnings", "", "", ViewPlacement::None, nullptr,
        renderSemanticView<SemanticWindow::View::Inspector> },
    { RenderWindow::Semantic, "semantic-rules", "", "", "the model's JSON in the rule editor", "", "",
        ViewPlacement::None, nullptr, renderSemanticView<SemanticWindow::View::Rules> },
    { RenderWindow::History, "history", "", "",
        "per event the statistic across the runs, its min-max band, change points and the movers", "", "",
        ViewPlacement::None, nullptr, renderWholeWindow<HistoryView, &RenderTarget::history> },
};

QString displayName(const ViewInfo& v)
{
    QString s = QLatin1String(v.name);
    if (*v.argument)
        s += QLatin1Char(' ') + QLatin1String(v.argument);
    return s;
}

bool named(const char* text, const QString& name)
{
    return *text && name.compare(QLatin1String(text), Qt::CaseInsensitive) == 0;
}

} // namespace

std::span<const ViewInfo> renderViews() { return table; }

const ViewInfo* findRenderView(const QString& name)
{
    for (const ViewInfo& v : table)
        if (named(v.name, name) || named(v.alias, name))
            return &v;
    return nullptr;
}

const ViewInfo* findTabView(const QString& name)
{
    for (const ViewInfo& v : table)
        if (*v.tab && (named(v.tab, name) || named(v.name, name) || named(v.alias, name)))
            return &v;
    return nullptr;
}

QString renderViewNames(RenderWindow window)
{
    QStringList names;
    for (const ViewInfo& v : table)
        if (v.window == window)
            names << displayName(v);
    return names.join(QStringLiteral(", "));
}

QString renderWindowLaunch(RenderWindow window)
{
    // In the order of RenderWindow.
    static const char* const launches[] = { "PATH (or --db LOCATION --id N)", "--compare A B", "--scaling A B C...",
        "--semantic MODEL PATH", "--history --order-by KEY A B C... (or --db LOCATION --app A)" };
    return QString::fromLatin1(launches[static_cast<int>(window)]);
}

QString tabViewNames(bool markDefault)
{
    QStringList names;
    for (const ViewInfo& v : table)
        if (*v.tab)
            names << QLatin1String(v.tab);
    if (names.isEmpty())
        return {};
    if (markDefault)
        names.first() += QStringLiteral(" (default)");
    const QString last = names.takeLast();
    return names.isEmpty() ? last : names.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

QString renderViewsHelp()
{
    int width = 0;
    for (const ViewInfo& v : table)
        width = std::max(width, static_cast<int>(displayName(v).size()));
    QString text = QStringLiteral("Views for --render VIEW --out FILE (PNG, SVG or PDF by the suffix):\n");
    bool first = true;
    RenderWindow window = RenderWindow::Main;
    for (const ViewInfo& v : table) {
        if (first || v.window != window)
            text += QStringLiteral(" with %1:\n").arg(renderWindowLaunch(v.window));
        first = false;
        window = v.window;
        QString description = QString::fromUtf8(v.description);
        if (*v.alias)
            description += QStringLiteral(" (also '%1')").arg(QLatin1String(v.alias));
        text += QStringLiteral("  %1  %2\n").arg(displayName(v), -width).arg(description);
    }
    return text;
}

} // namespace parallax
