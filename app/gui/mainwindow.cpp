// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/gui/mainwindow.h"

#include "algebra/derivedmetric.h"
#include "algebra/statistics.h"
#include "app/gui/comparisonlauncher.h"
#include "app/gui/databasepanel.h"
#include "app/gui/growthcontroller.h"
#include "app/gui/helpdialogs.h"
#include "app/gui/loadjob.h"
#include "app/gui/startpage.h"
#include "datasource/readers/readerregistry.h"
#include "perfdb/databaselocation.h"
#include "views/callgraph/callgraphwidget.h"
#include "views/charts/chartexport.h"
#include "views/charts/colors.h"
#include "views/common/job.h"
#include "views/common/selectionview.h"
#include "views/comparison/comparisonwindow.h"
#include "views/comparison/scalingview.h"
#include "views/cube/cubebrowser.h"
#include "views/derived/derivedmetricdialog.h"
#include "views/grouplegend.h"
#include "views/overview/eventbarchart.h"
#include "views/overview/overviewwidget.h"
#include "views/overview/selectorbar.h"
#include "views/overview/threadbarchart.h"
#include "views/selectionstate.h"
#include "views/semantic/semanticwindow.h"
#include "views/snapshots/snapshotview.h"
#include "views/statisticspanel.h"
#include "views/timeline/timelineview.h"
#include "views/trialsummarywidget.h"
#include "views/userevents/histogramwidget.h"
#include "views/userevents/trialmanagermodel.h"
#include "views/userevents/usereventchart.h"
#include "views/userevents/usereventswidget.h"
#include "views/viewsetup.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QShowEvent>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <utility>

namespace parallax {

namespace {

constexpr int MaxRecent = 10;
/// From this width on, the right docks are shown from the start (fitDocksToWidth).
constexpr int WideWindow = 1700;

/// A combo box on the tool bar bound both ways to one setting of the selection state: choosing an
/// item sets it, and a change made elsewhere shows in the box without echoing back.
template <typename E>
QComboBox* addStateCombo(QToolBar* bar, QObject* context, SelectionState* state,
    const std::vector<std::pair<QString, E>>& items, const QString& toolTip, E current, void (SelectionState::*set)(E),
    void (SelectionState::*changed)(E))
{
    auto* combo = new QComboBox(bar);
    for (const auto& [name, value] : items)
        combo->addItem(name, static_cast<int>(value));
    combo->setCurrentIndex(combo->findData(static_cast<int>(current)));
    combo->setToolTip(toolTip);
    bar->addWidget(combo);
    QObject::connect(combo, &QComboBox::currentIndexChanged, context,
        [state, combo, set] { (state->*set)(static_cast<E>(combo->currentData().toInt())); });
    QObject::connect(state, changed, context, [combo](E value) {
        const QSignalBlocker blocker(combo);
        combo->setCurrentIndex(combo->findData(static_cast<int>(value)));
    });
    return combo;
}

QString plural(std::size_t n, const QString& one, const QString& many)
{
    QLocale locale;
    if (locale.language() == QLocale::C)
        locale = QLocale(QLocale::English, QLocale::UnitedStates);
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return QStringLiteral("%1 %2").arg(locale.toString(static_cast<qulonglong>(n)), n == 1 ? one : many);
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_job(new LoadJob(this))
    , m_state(new SelectionState(this))
    , m_trials(new TrialManagerModel(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowTitle(QStringLiteral("Parallax"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/parallax.svg")));
    setAcceptDrops(true);
    setDockNestingEnabled(true);

    createViews();
    createDocks();
    createActions();
    createToolBar();
    createStatusBar();
    m_defaultLayout = saveState();

    connect(m_job, &LoadJob::started, this, &MainWindow::onStarted);
    connect(m_job, &LoadJob::progress, this, &MainWindow::onProgress);
    connect(m_job, &LoadJob::loaded, this, &MainWindow::onLoaded);
    connect(m_job, &LoadJob::failed, this, &MainWindow::onFailed);
    connect(m_job, &LoadJob::unrecognised, this, &MainWindow::onUnrecognised);
    connect(m_job, &LoadJob::cancelled, this, &MainWindow::onCancelled);

    // Linked navigation: the views select in the state; the shell opens the matching windows.
    connect(m_overview, &OverviewWidget::eventActivated, this, [this] { showDock(m_eventDock); });
    connect(m_overview, &OverviewWidget::threadActivated, this, [this] {
        m_threadChart->setStatistic(std::nullopt);
        showDock(m_threadDock);
    });
    connect(m_overview, &OverviewWidget::statisticActivated, this, [this](Statistic statistic) {
        m_threadChart->setStatistic(statistic);
        showDock(m_threadDock);
    });
    connect(m_threadChart, &ThreadBarChart::eventActivated, this, [this] { showDock(m_eventDock); });
    connect(m_statistics, &StatisticsPanel::eventActivated, this, [this] { showDock(m_eventDock); });
    connect(m_eventChart, &EventBarChart::threadActivated, this, [this] {
        m_threadChart->setStatistic(std::nullopt);
        showDock(m_threadDock);
    });
    connect(m_state, &SelectionState::historyChanged, this, &MainWindow::updateHistoryActions);
    connect(m_state, &SelectionState::metricChanged, this, [this](MetricId m) {
        if (m.isValid() && m_metricCombo->currentIndex() != static_cast<int>(m.index())) {
            const QSignalBlocker blocker(m_metricCombo);
            m_metricCombo->setCurrentIndex(static_cast<int>(m.index()));
        }
    });
}

MainWindow::~MainWindow() = default;

const std::shared_ptr<const Trial>& MainWindow::trial() const { return m_state->trial(); }

void MainWindow::createViews()
{
    // The registry's views: the tabs here, the docks in createDocks().
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    for (const ViewInfo& v : renderViews()) {
        if (v.window != RenderWindow::Main || !v.create)
            continue;
        QWidget* widget = v.create(m_state);
        m_views[QLatin1String(v.name)] = widget;
        if (v.placement == ViewPlacement::Tab)
            m_tabs->addTab(widget, tr(v.title));
    }
    // Before the first trial: the start page (ways in, recent files) instead of empty tabs.
    m_central = new QStackedWidget(this);
    m_startPage = new StartPage(m_central);
    m_central->addWidget(m_startPage);
    m_central->addWidget(m_tabs);
    setCentralWidget(m_central);
    connect(m_startPage, &StartPage::openDirectoryRequested, this, &MainWindow::openDirectory);
    connect(m_startPage, &StartPage::openFileRequested, this, &MainWindow::openFile);
    connect(m_startPage, &StartPage::openSampleRequested, this, &MainWindow::openSample);
    connect(m_startPage, &StartPage::openRecentRequested, this, [this](const QString& path) { openPath(path); });
    connect(m_startPage, &StartPage::openDatabaseRequested, this,
        [this] { showView(viewWidget(QStringLiteral("databases"))); });
    m_overview = qobject_cast<OverviewWidget*>(m_views.at(QStringLiteral("overview")));
    m_statistics = qobject_cast<StatisticsPanel*>(m_views.at(QStringLiteral("table")));
    m_callGraph = qobject_cast<CallGraphWidget*>(m_views.at(QStringLiteral("callgraph")));
    m_userEvents = qobject_cast<UserEventsWidget*>(m_views.at(QStringLiteral("userevents")));
    m_summary = qobject_cast<TrialSummaryWidget*>(m_views.at(QStringLiteral("summary")));
    // The CUBE browser's External % refers to another open trial.
    if (auto* cube = qobject_cast<CubeBrowser*>(m_views.at(QStringLiteral("cube")))) {
        cube->setTrialSource([this] { return openTrials(); });
        // Re-root, Prune and Keep Only These make new trials, as the CLI's cut and select do.
        connect(cube, &CubeBrowser::trialDerived, this, [this](const TrialPtr& trial, const QString& description) {
            addDerivedTrial(trial, tr("Added %1").arg(description));
        });
        connect(cube, &CubeBrowser::operationFailed, this, [this](const QString& message) {
            m_statusLabel->setText(message);
            if (m_interactive)
                QMessageBox::warning(this, tr("CUBE Browser"), message);
        });
    }
    // The time series' Open as Trial: the profile of a range of intervals, as a new trial.
    if (auto* series = qobject_cast<SnapshotView*>(m_views.at(QStringLiteral("timeseries")))) {
        connect(series, &SnapshotView::trialDerived, this, [this](const TrialPtr& trial, const QString& description) {
            addDerivedTrial(trial, tr("Added %1").arg(description));
        });
        connect(series, &SnapshotView::operationFailed, this, [this](const QString& message) {
            m_statusLabel->setText(message);
            if (m_interactive)
                QMessageBox::warning(this, tr("Time Series"), message);
        });
    }
    // The time line's Open Window as Trial: the profile of a trace window, as a new trial.
    if (auto* timeline = qobject_cast<TimelineView*>(m_views.at(QStringLiteral("timeline")))) {
        connect(timeline, &TimelineView::trialDerived, this, [this](const TrialPtr& trial, const QString& description) {
            addDerivedTrial(trial, tr("Added %1").arg(description));
        });
        connect(timeline, &TimelineView::operationFailed, this, [this](const QString& message) {
            m_statusLabel->setText(message);
            if (m_interactive)
                QMessageBox::warning(this, tr("Timeline"), message);
        });
    }
    m_eventChart = qobject_cast<EventBarChart*>(m_views.at(QStringLiteral("event")));
    m_threadChart = qobject_cast<ThreadBarChart*>(m_views.at(QStringLiteral("thread")));
    m_histogram = qobject_cast<HistogramWidget*>(m_views.at(QStringLiteral("histogram")));
}

void MainWindow::createDocks()
{
    auto makeDock = [this](const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        dock->setWidget(widget);
        addDockWidget(area, dock);
        return dock;
    };
    m_trialView = new QTreeView;
    m_trialView->setModel(m_trials);
    m_trialView->setHeaderHidden(true);
    m_trialView->setRootIsDecorated(true);
    // Drag a trial onto a database in the Databases dock to upload it.
    m_trialView->setDragEnabled(true);
    m_trialView->setDragDropMode(QAbstractItemView::DragOnly);
    m_trialView->setDefaultDropAction(Qt::CopyAction);
    m_trialView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // ... and onto another trial to compare them (the dragged trial is the baseline A).
    m_trialView->viewport()->setAcceptDrops(true);
    m_trialView->viewport()->installEventFilter(this);
    connect(m_trialView, &QTreeView::clicked, this, &MainWindow::onTrialChosen);
    connect(m_trialView, &QTreeView::activated, this, &MainWindow::onTrialChosen);
    m_trialsDock = makeDock(tr("Trials"), QStringLiteral("trialsDock"), m_trialView, Qt::LeftDockWidgetArea);
    m_databases = new DatabasePanel;
    m_databases->setTrialSource(m_trials);
    m_databasesDock = makeDock(tr(findRenderView(QStringLiteral("databases"))->title), QStringLiteral("databasesDock"),
        m_databases, Qt::LeftDockWidgetArea);
    m_views[QStringLiteral("databases")] = m_databasesDock;
    m_trialView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_trialView, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const auto trial = m_trials->trialForIndex(m_trialView->indexAt(pos));
        if (!trial)
            return;
        QMenu menu(this);
        menu.addAction(tr("Show"), this, [this, trial] { showTrial(trial); });
        menu.addAction(tr("Upload to Database…"), this, [this, trial] { uploadDialog(trial); });
        menu.addAction(tr("Derive a Metric…"), this, [this, trial] { deriveMetricDialog(trial); });
        menu.addAction(tr("Semantic View…"), this, [this, trial] { openSemanticView(trial); });
        menu.addSeparator();
        // Comparison: this trial is the baseline A, the chosen one the candidate B.
        QMenu* compare = menu.addMenu(tr("Compare with"));
        for (const auto& other : openTrials())
            if (other != trial)
                compare->addAction(other->name(), this, [this, trial, other] { compareTrials(trial, other); });
        compare->addSeparator();
        compare->addAction(tr("A Profile on Disk…"), this, [this, trial] { openForComparison(trial); });
        std::vector<std::shared_ptr<const Trial>> selected;
        for (const QModelIndex& index : m_trialView->selectionModel()->selectedIndexes())
            if (auto t = m_trials->trialForIndex(index);
                t && std::find(selected.begin(), selected.end(), t) == selected.end())
                selected.push_back(t);
        if (selected.size() == 2)
            menu.addAction(tr("Compare the Two Selected Trials"), this,
                [this, selected] { compareTrials(selected[0], selected[1]); });
        QAction* scaling = menu.addAction(
            tr("Scaling View of the Selected Trials"), this, [this, selected] { ScalingView::open(selected, this); });
        scaling->setEnabled(selected.size() >= 2);
        // Growth at scale P: the runs' models per call path shown in this window's views (issue 17 §2).
        QAction* growth = menu.addAction(
            tr("Growth at Scale from the Selected Trials…"), this, [this, selected] { m_growth->ask(selected); });
        growth->setEnabled(selected.size() >= 2);
        QAction* history = menu.addAction(tr("Performance History of the Selected Trials…"), this,
            [this, selected] { openHistoryOfTrials(selected); });
        history->setEnabled(selected.size() >= 2);
        QAction* series = menu.addAction(
            tr("Time Series of the Selected Trials…"), this, [this, selected] { openSnapshotsOfTrials(selected); });
        series->setToolTip(tr("One run's cumulative profiles (e.g. TAU's dumps) as its snapshots, in the order of "
                              "a metadata key"));
        series->setEnabled(selected.size() >= 2);
        menu.exec(m_trialView->viewport()->mapToGlobal(pos));
    });
    connect(m_databases, &DatabasePanel::trialLoaded, this,
        [this](const std::shared_ptr<const Trial>& trial, const QString& source) { onLoaded(trial, source, -1); });
    // A profile dropped on a database is open too, like one dropped on the window.
    auto addLoaded = [this](std::shared_ptr<const Trial> trial, const QString& path) {
        addRecent(path);
        const int id = m_trials->addTrial(std::move(trial));
        m_trialView->expand(m_trials->indexForGroup(TrialManagerModel::FilesGroup));
        m_trialView->expand(m_trials->indexForTrial(id));
    };
    connect(m_databases, &DatabasePanel::fileLoaded, this, addLoaded);
    connect(m_databases, &DatabasePanel::progress, this, &MainWindow::onProgress);
    connect(m_databases, &DatabasePanel::busy, this, [this](bool running) {
        m_progressBar->setVisible(running);
        if (running)
            m_progressBar->setRange(0, 0);
    });
    connect(m_databases, &DatabasePanel::message, this, [this](const QString& text) { m_statusLabel->setText(text); });
    connect(m_databases, &DatabasePanel::failed, this, [this](const QString& message) {
        m_statusLabel->setText(message);
        Q_EMIT loadFailed(message);
        if (m_interactive)
            QMessageBox::warning(this, tr("Database"), message);
    });
    m_legend = new GroupLegend(m_state);
    m_groupsDock = makeDock(tr("Groups"), QStringLiteral("groupsDock"), m_legend, Qt::LeftDockWidgetArea);
    splitDockWidget(m_trialsDock, m_groupsDock, Qt::Vertical);
    tabifyDockWidget(m_trialsDock, m_databasesDock);
    m_trialsDock->raise();

    // The registry's docks, on the right, tabified in its order.
    QDockWidget* firstDock = nullptr;
    QDockWidget* previous = nullptr;
    for (const ViewInfo& v : renderViews()) {
        if (v.window != RenderWindow::Main || v.placement != ViewPlacement::Dock)
            continue;
        QWidget* widget = m_views.at(QLatin1String(v.name));
        QDockWidget* dock
            = makeDock(tr(v.title), QLatin1String(v.name) + QStringLiteral("Dock"), widget, Qt::RightDockWidgetArea);
        m_viewDocks[widget] = dock;
        if (previous)
            tabifyDockWidget(previous, dock);
        else
            firstDock = dock;
        previous = dock;
    }
    m_eventDock = m_viewDocks.at(m_eventChart);
    m_threadDock = m_viewDocks.at(m_threadChart);
    m_histogramDock = m_viewDocks.at(m_histogram);
    firstDock->raise();
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_openDirectoryAction = file->addAction(
        QIcon(QStringLiteral(":/icons/open.svg")), tr("Open &Directory…"), this, &MainWindow::openDirectory);
    m_openDirectoryAction->setShortcut(QKeySequence::Open);
    m_openDirectoryAction->setToolTip(
        tr("Open a profile directory (TAU profile.N.C.T files or MULTI__ metric directories)"));
    m_openFileAction
        = file->addAction(style()->standardIcon(QStyle::SP_FileIcon), tr("Open &File…"), this, &MainWindow::openFile);
    m_openFileAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("&Monitor Directory…"), this,
            [this] {
                const QString dir
                    = QFileDialog::getExistingDirectory(this, tr("Monitor a Directory a Running Application Writes"));
                if (!dir.isEmpty())
                    monitorDirectory(dir);
            })
        ->setToolTip(tr("Follow the profile or snapshot files a running application writes: each dump becomes a "
                        "snapshot of the time series, and the views follow"));
    file->addSeparator();
    file->addAction(tr("&Upload Trial to Database…"), this, [this] {
        if (trial())
            uploadDialog(trial());
    });
    file->addSeparator();
    file->addAction(tr("Open for &Comparison…"), this, [this] {
        if (trial())
            openForComparison(trial());
        else
            QMessageBox::information(
                this, tr("Compare"), tr("Open the baseline trial first, then the one to compare it with."));
    });
    file->addAction(tr("Compare &Trials…"), this, &MainWindow::compareDialog);
    QAction* derive = file->addAction(tr("&Derive a Metric…"), this, [this] {
        if (trial())
            deriveMetricDialog(trial());
    });
    derive->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    file->addSeparator();
    m_exportTableAction = file->addAction(tr("&Export Table as CSV…"), this, &MainWindow::exportTable);
    m_exportTableAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportImageAction = file->addAction(QIcon(QStringLiteral(":/icons/export.svg")),
        tr("Export &Image of the Current View…"), this, &MainWindow::exportCurrentImage);
    m_exportImageAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    file->addAction(tr("Save Window &Screenshot…"), this, [this] {
        exportWidgetInteractively(this, this, QDir(m_lastDirectory).filePath(QStringLiteral("parallax.png")));
    });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* find = edit->addAction(tr("&Find…"), this, [this] {
        m_filterEdit->setFocus(Qt::ShortcutFocusReason);
        m_filterEdit->selectAll();
    });
    find->setShortcut(QKeySequence::Find);
    edit->addAction(tr("Find in the &Table"), this, [this] {
        m_tabs->setCurrentWidget(m_statistics);
        m_statistics->focusSearch();
    });
    edit->addAction(tr("&Clear Filters"), m_state, &SelectionState::clearFilters);

    QMenu* go = menuBar()->addMenu(tr("&Go"));
    m_backAction
        = go->addAction(QIcon(QStringLiteral(":/icons/back.svg")), tr("&Back"), m_state, &SelectionState::back);
    m_backAction->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
    m_forwardAction = go->addAction(
        QIcon(QStringLiteral(":/icons/forward.svg")), tr("&Forward"), m_state, &SelectionState::forward);
    m_forwardAction->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));
    updateHistoryActions();

    QMenu* view = menuBar()->addMenu(tr("&View"));
    // The registry's tabs (Ctrl+1, Ctrl+2...), then the docks: the shell's, then the registry's.
    int key = Qt::Key_1;
    for (const ViewInfo& v : renderViews()) {
        if (v.window != RenderWindow::Main || v.placement != ViewPlacement::Tab)
            continue;
        QWidget* widget = m_views.at(QLatin1String(v.name));
        QAction* a = view->addAction(
            tr(v.title).remove(QLatin1Char('&')), this, [this, widget] { m_tabs->setCurrentWidget(widget); });
        a->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(key++)));
    }
    view->addSeparator();
    for (QDockWidget* dock : { m_trialsDock, m_databasesDock, m_groupsDock })
        view->addAction(dock->toggleViewAction());
    for (const ViewInfo& v : renderViews())
        if (v.window == RenderWindow::Main && v.placement == ViewPlacement::Dock)
            view->addAction(m_viewDocks.at(m_views.at(QLatin1String(v.name)))->toggleViewAction());
    view->addSeparator();
    QAction* clearGrowth = view->addAction(tr("Clear &Growth at Scale"), this, [this] { m_growth->clear(); });
    clearGrowth->setToolTip(tr("Remove the growth-at-scale models from the call tree, flame graph and CUBE browser "
                               "(Trials dock › Growth at Scale from the Selected Trials… attaches them)"));
    clearGrowth->setEnabled(false);
    connect(m_state, &SelectionState::growthChanged, clearGrowth,
        [this, clearGrowth] { clearGrowth->setEnabled(m_state->growth() != nullptr); });
    view->addAction(tr("S&emantic View of the Current Trial…"), this, [this] {
        if (trial())
            openSemanticView(trial());
    });
    view->addSeparator();
    view->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* guide = help->addAction(tr("&User Guide"), this, [this] { showUserGuide(this); });
    guide->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showKeyboardShortcuts(menuBar(), this); });
    help->addSeparator();
    QAction* about = help->addAction(tr("&About Parallax"), this, &MainWindow::about);
    about->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::createToolBar()
{
    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonIconOnly);
    bar->addAction(m_openDirectoryAction);
    bar->addAction(m_backAction);
    bar->addAction(m_forwardAction);
    bar->addAction(m_exportImageAction);
    bar->addSeparator();

    bar->addWidget(new QLabel(tr(" Metric: "), bar));
    m_metricCombo = new QComboBox(bar);
    m_metricCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_metricCombo->setMinimumContentsLength(8);
    m_metricCombo->setToolTip(tr("The metric every view shows"));
    bar->addWidget(m_metricCombo);
    connect(m_metricCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            m_state->setMetric(MetricId(static_cast<std::size_t>(index)));
    });

    bar->addWidget(new QLabel(tr("  Value: "), bar));
    std::vector<std::pair<QString, ValueType>> valueTypes;
    valueTypes.reserve(ValueTypeCount);
    for (int v = 0; v < ValueTypeCount; ++v)
        valueTypes.emplace_back(valueTypeName(static_cast<ValueType>(v)), static_cast<ValueType>(v));
    m_valueCombo
        = addStateCombo(bar, this, m_state, valueTypes, tr("The value the charts show (the table shows them all)"),
            m_state->valueType(), &SelectionState::setValueType, &SelectionState::valueTypeChanged);

    bar->addWidget(new QLabel(tr("  Unit: "), bar));
    std::vector<std::pair<QString, TimeUnit>> units;
    units.reserve(4);
    for (TimeUnit u :
        { TimeUnit::Microseconds, TimeUnit::Milliseconds, TimeUnit::Seconds, TimeUnit::HoursMinutesSeconds })
        units.emplace_back(unitLabel(Metric(QString(), QStringLiteral("us")), u), u);
    m_unitCombo = addStateCombo(bar, this, m_state, units,
        tr("How time values are shown: µs (microseconds), ms (milliseconds), s (seconds) or h:m:s"),
        m_state->timeUnit(), &SelectionState::setTimeUnit, &SelectionState::timeUnitChanged);

    bar->addSeparator();
    m_filterEdit = new QLineEdit(bar);
    m_filterEdit->setPlaceholderText(tr("Filter events in every view (Ctrl+F)"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filterEdit->setMinimumWidth(240);
    m_filterEdit->setToolTip(tr("Case-insensitive text; start with / for a regular expression"));
    bar->addWidget(m_filterEdit);
    auto* debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(250);
    connect(m_filterEdit, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(debounce, &QTimer::timeout, this, [this] {
        const QString text = m_filterEdit->text();
        if (text.startsWith(QLatin1Char('/')))
            m_state->setNameFilter(text.mid(1), true);
        else
            m_state->setNameFilter(text, false);
    });
    connect(m_state, &SelectionState::filtersChanged, this, [this] {
        if (m_state->nameFilter().isEmpty() && !m_filterEdit->text().isEmpty()) {
            const QSignalBlocker blocker(m_filterEdit);
            m_filterEdit->clear();
        }
    });
}

void MainWindow::createStatusBar()
{
    m_statusLabel = new QLabel(tr("No trial loaded — File › Open Directory… or drop a profile directory here"), this);
    statusBar()->addWidget(m_statusLabel, 1);
    m_progressBar = new QProgressBar(this);
    m_progressBar->setMaximumWidth(220);
    m_progressBar->setVisible(false);
    statusBar()->addPermanentWidget(m_progressBar);
    m_cancelButton = new QToolButton(this);
    m_cancelButton->setText(tr("Cancel"));
    m_cancelButton->setToolTip(tr("Stop loading"));
    m_cancelButton->setVisible(false);
    connect(m_cancelButton, &QToolButton::clicked, m_job, &LoadJob::cancel);
    statusBar()->addPermanentWidget(m_cancelButton);
    m_growth = new GrowthController(m_state, statusBar(), this);
    connect(m_growth, &GrowthController::runsRead, this, [this](const std::vector<TrialPtr>& runs) {
        for (const TrialPtr& run : runs)
            m_trials->addTrial(run);
        m_trialView->expand(m_trials->indexForGroup(TrialManagerModel::FilesGroup));
    });
    connect(m_growth, &GrowthController::showRun, this, [this](const TrialPtr& run) { showTrial(run); });
    connect(m_growth, &GrowthController::attached, this, [this] {
        m_statusLabel->setText(tr("%1: the call tree (Statistics › Call Tree), the flame graph and the CUBE browser "
                                  "show each call path's model and growth")
                                   .arg(m_state->trial()->name()));
        if (std::exchange(m_growthLaunch, false))
            QTimer::singleShot(0, this, &MainWindow::trialShown);
    });
    connect(m_growth, &GrowthController::failed, this, [this](const QString& message) {
        m_statusLabel->setText(message);
        if (m_interactive)
            QMessageBox::warning(this, tr("Growth at Scale"), message);
        else
            Q_EMIT loadFailed(message);
    });
    m_warningsLabel = new QLabel(this);
    m_warningsLabel->setTextFormat(Qt::RichText);
    m_warningsLabel->setVisible(false);
    connect(m_warningsLabel, &QLabel::linkActivated, this, [this] { m_tabs->setCurrentWidget(m_summary); });
    statusBar()->addPermanentWidget(m_warningsLabel);
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    m_recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    m_lastDirectory = settings.value(QStringLiteral("lastDirectory"), QDir::homePath()).toString();
    updateRecentMenu();
    // The default SQLite database is always listed (created on first use); others were added.
    m_databases->addDatabase(defaultDatabasePath());
    for (const QString& location : settings.value(QStringLiteral("databases")).toStringList())
        m_databases->addDatabase(location);
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    m_layoutRestored = restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!std::exchange(m_shown, true) && !m_layoutRestored)
        fitDocksToWidth();
}

void MainWindow::fitDocksToWidth()
{
    // Trials and groups on the left; the tabs in the middle keep the rest, so that the statistics
    // table shows all its columns. The event, thread and histogram docks share the right side only
    // on a wide screen; below that they open (at rightDockWidth()) when an event or a thread is
    // activated, as ParaProf opens its event and thread windows.
    const int w = width();
    const int left = std::clamp(w * 12 / 100, 160, 240);
    if (w >= WideWindow) {
        resizeDocks({ m_trialsDock, m_eventDock }, { left, rightDockWidth() }, Qt::Horizontal);
        return;
    }
    for (QDockWidget* dock : { m_eventDock, m_threadDock, m_histogramDock })
        dock->hide();
    resizeDocks({ m_trialsDock }, { left }, Qt::Horizontal);
}

int MainWindow::rightDockWidth() const { return std::clamp(width() * 26 / 100, 300, 440); }

void MainWindow::saveSettings()
{
    QSettings settings;
    settings.setValue(QStringLiteral("recentFiles"), m_recent);
    settings.setValue(QStringLiteral("lastDirectory"), m_lastDirectory);
    QStringList databases;
    for (const QString& location : m_databases->locations())
        if (location != defaultDatabasePath() && !databases.contains(displayableLocation(location)))
            databases << displayableLocation(location);
    settings.setValue(QStringLiteral("databases"), databases); // locations only: never a password
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("windowState"), saveState());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_interactive)
        saveSettings();
    QMainWindow::closeEvent(event);
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultLayout);
    for (QDockWidget* dock :
        { m_trialsDock, m_databasesDock, m_groupsDock, m_eventDock, m_threadDock, m_histogramDock })
        dock->show();
    m_eventDock->raise();
    fitDocksToWidth();
}

void MainWindow::openPath(const QString& path, const QString& format)
{
    m_lastDirectory = QFileInfo(path).absolutePath();
    m_job->start(path, format);
}

void MainWindow::openFromDatabase(const QString& location, qint64 id)
{
    m_databases->addDatabase(location);
    m_databases->openTrial(location, id);
}

void MainWindow::searchDatabases(const QString& text)
{
    showDock(m_databasesDock);
    m_databases->setSearchText(text);
}

bool MainWindow::selectTab(const QString& name)
{
    const ViewInfo* v = findTabView(name);
    if (!v || v->window != RenderWindow::Main)
        return false;
    showView(viewWidget(QLatin1String(v->name)));
    return true;
}

QWidget* MainWindow::viewWidget(const QString& name) const
{
    const auto it = m_views.find(name);
    return it == m_views.end() ? nullptr : it->second;
}

void MainWindow::showView(QWidget* widget)
{
    if (auto* dock = qobject_cast<QDockWidget*>(widget))
        showDock(dock);
    else if (const auto it = m_viewDocks.find(widget); it != m_viewDocks.end())
        showDock(it->second);
    else
        m_tabs->setCurrentWidget(widget);
}

void MainWindow::showDock(QDockWidget* dock)
{
    const bool opening = dock->isHidden() && !dock->isFloating();
    dock->show();
    dock->raise();
    if (opening && dockWidgetArea(dock) == Qt::RightDockWidgetArea)
        resizeDocks({ dock }, { rightDockWidth() }, Qt::Horizontal);
}

void MainWindow::onStarted(const QString& path)
{
    m_statusLabel->setText(tr("Loading %1…").arg(QDir::toNativeSeparators(path)));
    m_progressBar->setRange(0, 0);
    m_progressBar->setVisible(true);
    m_cancelButton->setVisible(true);
}

void MainWindow::onProgress(const QString& stage, qint64 done, qint64 total)
{
    m_statusLabel->setText(
        (total > 0 ? tr("%1: %2 of %3 files").arg(stage).arg(done).arg(total) : stage) + QStringLiteral("…"));
    const qint64 scale = total > 1000000 ? total / 1000000 + 1 : 1;
    m_progressBar->setRange(0, total > 0 ? static_cast<int>(total / scale) : 0);
    m_progressBar->setValue(total > 0 ? static_cast<int>(done / scale) : 0);
}

void MainWindow::endProgress()
{
    m_progressBar->setVisible(false);
    m_cancelButton->setVisible(false);
}

void MainWindow::onLoaded(const std::shared_ptr<const Trial>& trial, const QString& path, qint64 elapsedMs)
{
    endProgress();
    int group = TrialManagerModel::FilesGroup;
    if (elapsedMs >= 0) {
        addRecent(path); // database trials are reopened from the Databases tree
    } else {
        // Trials opened from a database are listed under that database ("location#id").
        const QString location = path.section(QLatin1Char('#'), 0, -2);
        m_databaseSource = path;
        auto it = m_databaseGroups.find(location);
        if (it == m_databaseGroups.end())
            it = m_databaseGroups
                     .emplace(location,
                         m_trials->addGroup(displayableLocation(location),
                             tr("Trials opened from %1").arg(displayableLocation(location))))
                     .first;
        group = it->second;
    }
    const int id = m_trials->addTrial(trial, group);
    if (m_compareBaseline) // File › Open for Comparison: this trial is the candidate B
        compareTrials(std::exchange(m_compareBaseline, nullptr), trial);
    m_trialView->expand(m_trials->indexForGroup(group));
    m_trialView->setCurrentIndex(m_trials->indexForTrial(id));
    m_trialView->expand(m_trials->indexForTrial(id));
    showTrial(trial);
    m_statusLabel->setText(tr("%1, %2, %3 — loaded %4")
                               .arg(plural(trial->threadCount(), tr("thread"), tr("threads")),
                                   plural(trial->eventCount(), tr("event"), tr("events")),
                                   plural(trial->metricCount(), tr("metric"), tr("metrics")))
                               .arg(elapsedMs < 0           ? QStringLiteral("from %1").arg(path)
                                       : trial->fromCache() ? tr("in %1 ms from the trial cache").arg(elapsedMs)
                                                            : tr("in %1 ms").arg(elapsedMs)));
    // Let the views lay out before anyone grabs the window.
    QTimer::singleShot(0, this, &MainWindow::trialShown);
}

void MainWindow::showTrial(const std::shared_ptr<const Trial>& trial, bool continuesPrevious)
{
    if (trial == m_state->trial())
        return;
    m_state->setTrial(trial, continuesPrevious);
    m_central->setCurrentWidget(m_tabs);
    setWindowTitle(QStringLiteral("Parallax — %1").arg(trial->name()));
    {
        const QSignalBlocker blocker(m_metricCombo);
        fillMetricCombo();
    }
    m_summary->setTrial(trial);
    // Start with the event that costs most (largest mean exclusive value, flat events): the event,
    // histogram and call-graph views then have something to show at once.
    if (trial->metricCount() > 0) {
        const auto stats = TrialStatistics::of(*trial);
        EventId top;
        double best = -1;
        for (std::size_t e = 0; e < trial->eventCount(); ++e) {
            const EventId id(e);
            const double v = stats->stat(id, MetricId(0u), ValueKind::Exclusive).meanAll;
            if (!trial->event(id).isCallPath() && v > best) {
                best = v;
                top = id;
            }
        }
        m_state->selectEvent(top);
    }
    const auto warnings = static_cast<std::size_t>(trial->warnings().size());
    m_warningsLabel->setVisible(warnings > 0);
    if (warnings > 0) {
        // The link keeps its contrast on a dark palette (issue 14).
        QPalette linkPalette = m_warningsLabel->palette();
        linkPalette.setColor(QPalette::Link, readableLinkColor(linkPalette));
        m_warningsLabel->setPalette(linkPalette);
        m_warningsLabel->setText(
            QStringLiteral("<a href=\"#warnings\">⚠ %1</a>").arg(plural(warnings, tr("warning"), tr("warnings"))));
    }
}

void MainWindow::onTrialChosen(const QModelIndex& index)
{
    const auto trial = m_trials->trialForIndex(index);
    if (!trial)
        return;
    showTrial(trial);
    const MetricId metric = m_trials->metricForIndex(index);
    if (metric.isValid())
        m_state->setMetric(metric);
    else
        m_tabs->setCurrentWidget(m_summary); // a trial row shows the trial's summary page
}

void MainWindow::onFailed(const QString& message, const QString& path)
{
    endProgress();
    m_statusLabel->setText(tr("Could not load %1").arg(QDir::toNativeSeparators(path)));
    Q_EMIT loadFailed(message);
    if (m_interactive)
        QMessageBox::critical(this, tr("Could not load the profile"), message);
}

void MainWindow::onUnrecognised(const QString& message, const QString& path)
{
    endProgress();
    const QString name = QFileInfo(path).fileName();
    m_statusLabel->setText(tr("%1 is not a profile Parallax can read").arg(name));
    Q_EMIT loadFailed(message);
    if (!m_interactive)
        return;
    QMessageBox box(QMessageBox::Warning, tr("Not a profile"), tr("%1 is not a profile Parallax can read.").arg(name),
        QMessageBox::Ok, this);
    box.setInformativeText(tr("Parallax recognises a format by the file's name and first bytes. If this is a "
                              "profile, choose its format: File ▸ Open File… and pick it in the list of file "
                              "types, or start <tt>parallax --format NAME %1</tt>.")
                               .arg(QDir::toNativeSeparators(path).toHtmlEscaped()));
    box.setTextFormat(Qt::PlainText);
    box.setDetailedText(supportedFormatsText());
    // QMessageBox sizes itself to its text; a spacer gives the hint and the format list room to
    // read (without it the dialog is 350 px wide and the path breaks mid-word).
    if (auto* grid = qobject_cast<QGridLayout*>(box.layout()))
        grid->addItem(new QSpacerItem(560, 0, QSizePolicy::Minimum, QSizePolicy::Expanding), grid->rowCount(), 0, 1,
            grid->columnCount());
    box.exec();
}

QString MainWindow::supportedFormatsText()
{
    QStringList lines { tr("Formats Parallax reads (NAME for --format: description, file names):") };
    for (const Reader* reader : ReaderRegistry::instance().readers())
        lines << QStringLiteral("%1: %2 (%3)")
                     .arg(reader->name(), reader->description(), reader->filePatterns().join(QLatin1Char(' ')));
    return lines.join(QLatin1Char('\n'));
}

void MainWindow::onCancelled(const QString& path)
{
    endProgress();
    m_statusLabel->setText(tr("Loading %1 cancelled").arg(QDir::toNativeSeparators(path)));
}

void MainWindow::fillMetricCombo()
{
    m_metricCombo->clear();
    const auto& t = trial();
    if (!t) {
        m_metricCombo->setEnabled(false);
        return;
    }
    for (std::size_t m = 0; m < t->metricCount(); ++m) {
        const Metric& metric = t->metric(MetricId(m));
        m_metricCombo->addItem(metric.name);
        m_metricCombo->setItemData(static_cast<int>(m),
            metric.isTime() ? tr("%1 (time, µs in the data)").arg(metric.name)
                            : tr("%1 (%2)").arg(metric.name, metric.unit.isEmpty() ? tr("unit unknown") : metric.unit),
            Qt::ToolTipRole);
    }
    m_metricCombo->setCurrentIndex(m_state->metric().isValid() ? static_cast<int>(m_state->metric().index()) : 0);
    m_metricCombo->setEnabled(t->metricCount() > 1);
}

void MainWindow::updateHistoryActions()
{
    if (m_backAction)
        m_backAction->setEnabled(m_state->canGoBack());
    if (m_forwardAction)
        m_forwardAction->setEnabled(m_state->canGoForward());
}

void MainWindow::addRecent(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_recent.removeAll(absolute);
    m_recent.prepend(absolute);
    while (m_recent.size() > MaxRecent)
        m_recent.removeLast();
    updateRecentMenu();
    if (m_interactive) {
        QSettings settings;
        settings.setValue(QStringLiteral("recentFiles"), m_recent);
    }
}

void MainWindow::openSample()
{
    // The readers work on real files: copy the sample out of the resources once per session.
    if (!m_sampleDir) {
        m_sampleDir = std::make_unique<QTemporaryDir>();
        const QString target = QDir(m_sampleDir->path()).filePath(QStringLiteral("tau-cpi-4rank"));
        const QDir source(QStringLiteral(":/sample/tau-cpi-4rank"));
        bool ok = m_sampleDir->isValid() && QDir().mkpath(target) && !source.entryList(QDir::Files).isEmpty();
        for (const QString& name : source.entryList(QDir::Files)) {
            const QString destination = QDir(target).filePath(name);
            ok = ok && QFile::copy(source.filePath(name), destination);
            // Resource copies are read-only; the user may want to edit or delete them.
            QFile::setPermissions(destination, QFile::permissions(destination) | QFileDevice::WriteOwner);
        }
        if (!ok) {
            m_sampleDir.reset();
            onFailed(tr("could not extract the bundled sample trial"), QStringLiteral(":/sample/tau-cpi-4rank"));
            return;
        }
        m_samplePath = target;
    }
    openPath(m_samplePath);
}

void MainWindow::updateRecentMenu()
{
    if (m_startPage)
        m_startPage->setRecentFiles(m_recent);
    m_recentMenu->clear();
    for (const QString& path : std::as_const(m_recent))
        m_recentMenu->addAction(QDir::toNativeSeparators(path), this, [this, path] { openPath(path); });
    m_recentMenu->setEnabled(!m_recent.isEmpty());
    if (!m_recent.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear Menu"), this, [this] {
            m_recent.clear();
            updateRecentMenu();
        });
    }
}

void MainWindow::uploadDialog(std::shared_ptr<const Trial> trial)
{
    // The panel asks where to (the same dialog as a drop on a database), then uploads with a
    // progress dialog.
    m_databasesDock->show();
    m_databasesDock->raise();
    m_databases->uploadInteractively(std::move(trial));
}

void MainWindow::openDirectory()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Profile Directory"), m_lastDirectory);
    if (!dir.isEmpty())
        openPath(dir);
}

void MainWindow::openFile()
{
    // The first filter detects the format; choosing a format's own filter reads the file with that
    // reader whatever its name (the dialog's format choice, like --format).
    QStringList filters;
    QStringList patterns;
    std::map<QString, QString> formatOfFilter;
    for (const Reader* reader : ReaderRegistry::instance().readers()) {
        const QString filter
            = QStringLiteral("%1 (%2)").arg(reader->description(), reader->filePatterns().join(QLatin1Char(' ')));
        filters.append(filter);
        formatOfFilter[filter] = reader->name();
        patterns.append(reader->filePatterns());
    }
    patterns.removeDuplicates();
    filters.prepend(tr("Any profile, format detected (%1)").arg(patterns.join(QLatin1Char(' '))));
    filters.append(tr("All files, format detected (*)"));
    // The format combo names the formats; their many patterns would cut its text off (issue 14).
    QFileDialog dialog(this, tr("Open Profile File"), m_lastDirectory);
    dialog.setFileMode(QFileDialog::ExistingFile);
    dialog.setNameFilters(filters);
    dialog.setOption(QFileDialog::HideNameFilterDetails);
    dialog.resize(std::max(dialog.sizeHint().width(), 900), std::max(dialog.sizeHint().height(), 540));
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return;
    const QString file = dialog.selectedFiles().constFirst();
    const QString chosen = dialog.selectedNameFilter();
    const auto it = formatOfFilter.find(chosen);
    openPath(file, it == formatOfFilter.end() ? QString() : it->second);
}

void MainWindow::exportTable()
{
    QTreeView* view = m_statistics->currentView();
    QString name = m_statistics->suggestedCsvName();
    if (m_tabs->currentWidget() == m_userEvents) {
        view = m_userEvents->table().view;
        name = QStringLiteral("user-events.csv");
    }
    ViewSetup::exportCsvInteractively(view, this, QDir(m_lastDirectory).filePath(name));
}

void MainWindow::exportCurrentImage()
{
    QWidget* widget = m_tabs->currentWidget();
    if (widget == m_callGraph) {
        m_callGraph->exportInteractively(); // the whole graph, not only the visible part
        return;
    }
    QString name = QStringLiteral("parallax-view.png");
    if (widget == m_overview)
        name = QStringLiteral("overview.png");
    else if (widget == m_callGraph)
        name = QStringLiteral("call-graph.png");
    exportWidgetInteractively(widget, this, QDir(m_lastDirectory).filePath(name));
}

void MainWindow::renderView(const ViewInfo& view, const RenderRequest& request)
{
    if (!trial()) {
        request.done(tr("no trial loaded"));
        return;
    }
    if (view.window != RenderWindow::Main) {
        request.done(tr("'%1' is not a view of the main window (its views: %2)")
                         .arg(QLatin1String(view.name), renderViewNames(RenderWindow::Main)));
        return;
    }
    RenderTarget target;
    target.main = this;
    view.render(target, request);
}

void MainWindow::exportShown(QWidget* widget, const RenderRequest& request)
{
    QTimer::singleShot(100, widget, [widget, request] {
        // Render at the requested size: resize, lay out the children, and export before the
        // window's layout gets a chance to size the widget back.
        if (request.size.isValid()) {
            widget->resize(request.size);
            if (widget->layout())
                widget->layout()->activate();
            // Views that lay out by their size (the overview's density rows) catch up with it.
            QList<QWidget*> widgets = widget->findChildren<QWidget*>();
            widgets.prepend(widget);
            for (auto* child : widgets)
                if (auto* view = dynamic_cast<SelectionView*>(child); view && view->isUpdatePending())
                    view->updateNow();
        }
        request.done(exportWidget(widget, request.fileName));
    });
}

void MainWindow::about()
{
    QStringList formats;
    for (const Reader* reader : ReaderRegistry::instance().readers())
        formats.append(reader->description());
    QMessageBox::about(this, tr("About Parallax"),
        tr("<h3>Parallax %1</h3>"
           "<p>A viewer for parallel performance profiles: an overview of every thread, one event "
           "across threads, one thread's events, statistics flat or as a call tree, the call graph, "
           "user events — all linked, and every number able to explain itself (hover it).</p>"
           "<p>Formats: %2</p>"
           "<p>Licensed under the GNU General Public License, version 3 or later.<br>"
           "Built with Qt %3.</p>")
            .arg(QApplication::applicationVersion(), formats.join(QLatin1String(", ")).toHtmlEscaped(),
                QString::fromLatin1(qVersion())));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    for (const QUrl& url : urls) {
        if (url.isLocalFile()) {
            openPath(url.toLocalFile());
            event->acceptProposedAction();
        }
    }
}

} // namespace parallax
