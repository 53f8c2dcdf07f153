// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "app/gui/viewregistry.h"
#include "datasource/model/trial.h"

#include <QMainWindow>
#include <QStringList>
#include <functional>
#include <map>
#include <memory>

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QStackedWidget;
class QTabWidget;
class QTemporaryDir;
class QToolButton;
class QTreeView;

namespace parallax {

class CallGraphWidget;
class DatabasePanel;
class EventBarChart;
class GroupLegend;
class GrowthController;
struct ScalingModelRequest;
class HistogramWidget;
class LoadJob;
class OverviewWidget;
class SelectionState;
class StartPage;
class StatisticsPanel;
class ThreadBarChart;
class LiveMonitor;
class TrialManagerModel;
class TrialSummaryWidget;
class UserEventsWidget;

/// The application shell: the trial manager and group legend on the left, the linked views of the
/// current trial in tabs (overview, statistics, call graph, user events, summary) and docks (event,
/// thread, histogram), all following one SelectionState; loading in the status bar with Cancel;
/// recent files and the window layout kept in QSettings.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Loads a file or directory off the GUI thread; an empty format means auto-detection.
    void openPath(const QString& path, const QString& format = {});
    /// Follows a directory a running application writes (issue 19 §2, LiveMonitor): each update
    /// replaces the live trial in the Trials dock and, while it is the one shown, in the views,
    /// keeping the metric, event, thread and tab the user chose; the status bar says "Live".
    void monitorDirectory(const QString& directory, const QString& format = {});
    LiveMonitor* liveMonitor() const { return m_live; }
    /// Opens a trial stored in an experiment database (SQLite file or postgresql:// URI).
    void openFromDatabase(const QString& location, qint64 id);
    /// The formats of the reader registry, one per line with --format name and file patterns.
    static QString supportedFormatsText();
    /// Opens the bundled sample trial (4-rank cpi under TAU), copied out of the resources.
    void openSample();
    /// The semantic views of a trial; a database trial starts with the model attached to it.
    void openSemanticView(const std::shared_ptr<const Trial>& trial);
    /// `parallax --growth RUNS`: reads the runs (into the Trials dock), fits their per-call-path models
    /// over request.parameter (empty: the likeliest, a process count first), shows the run with the
    /// largest parameter value with its growth at request.target in the call tree, flame graph and CUBE
    /// browser, then emits trialShown() (loadFailed() when the runs cannot be read or modelled).
    void openGrowth(const QStringList& paths, const QString& format, const ScalingModelRequest& request);
    GrowthController* growthController() const { return m_growth; }
    /// Shows the Databases dock filtered by a search (key=value, view:NAME, name text).
    void searchDatabases(const QString& text);
    /// When false, load errors are not shown in message boxes (only signalled), for batch modes.
    void setInteractive(bool interactive) { m_interactive = interactive; }
    /// Shows a tab or dock by its --tab name (app/gui/viewregistry.h: overview, statistics,
    /// callgraph, userevents, summary, event, thread, histogram, databases); false for an unknown name.
    bool selectTab(const QString& name);

    /// Renders one view of the current trial to an image file (PNG, SVG, PDF by suffix), for
    /// `parallax --render`: a RenderWindow::Main view of the registry, drawn by its render function.
    /// Calls request.done with an empty string or an error, possibly later (the call graph waits
    /// for its layout, the Databases dock for its listing, the metadata editor for its reading).
    void renderView(const ViewInfo& view, const RenderRequest& request);

    /// For the registry's render functions: the widget made for a view (by its registry name; the
    /// Databases dock for "databases"), showing it (its tab or dock), and exporting it once shown.
    QWidget* viewWidget(const QString& name) const;
    void showView(QWidget* widget);
    void exportShown(QWidget* widget, const RenderRequest& request);
    DatabasePanel* databasePanel() const { return m_databases; }
    /// "location#id" of the last trial opened from a database, else empty.
    const QString& databaseSource() const { return m_databaseSource; }

    /// Restores recent files and the saved window layout (interactive sessions only).
    void restoreSettings();

    const std::shared_ptr<const Trial>& trial() const;
    SelectionState* selection() const { return m_state; }
    /// The trials as the snapshots of one run in the order of a metadata key (asked for when empty),
    /// a new trial shown in the Time Series tab.
    void openSnapshotsOfTrials(const std::vector<std::shared_ptr<const Trial>>& trials, QString key = {});

Q_SIGNALS:
    /// The loaded trial is in the views (emitted after the first layout pass is queued).
    void trialShown();
    void loadFailed(const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void createViews();
    void createDocks();
    void createActions();
    void createToolBar();
    void createStatusBar();
    void saveSettings();

    void onStarted(const QString& path);
    void onProgress(const QString& stage, qint64 done, qint64 total);
    void onLoaded(const std::shared_ptr<const Trial>& trial, const QString& path, qint64 elapsedMs);
    void onFailed(const QString& message, const QString& path);
    void onCancelled(const QString& path);
    void onUnrecognised(const QString& message, const QString& path);
    void endProgress();

    /// `continuesPrevious`: the trial is a newer state of the one shown (live monitoring), see
    /// SelectionState::setTrial.
    void showTrial(const std::shared_ptr<const Trial>& trial, bool continuesPrevious = false);
    void showLiveTrial(const std::shared_ptr<const Trial>& trial);
    void onTrialChosen(const QModelIndex& index);
    void fillMetricCombo();
    void updateHistoryActions();
    void showDock(QDockWidget* dock);
    void addRecent(const QString& path);
    void updateRecentMenu();

    void uploadDialog(std::shared_ptr<const Trial> trial);
    void openDirectory();
    /// Every trial in the Trials dock, in its order.
    std::vector<std::shared_ptr<const Trial>> openTrials() const;
    /// Opens a comparison window: A is the baseline, B the candidate.
    void compareTrials(std::shared_ptr<const Trial> a, std::shared_ptr<const Trial> b);
    /// Asks for the metadata key to order them by, then opens the performance history of open trials.
    void openHistoryOfTrials(const std::vector<std::shared_ptr<const Trial>>& trials);
    /// Asks for a metadata key every trial has (empty: cancelled or none).
    QString chooseOrderKey(const std::vector<std::shared_ptr<const Trial>>& trials, const QString& title);
    /// Asks for a profile directory, loads it and compares `baseline` with it.
    void openForComparison(std::shared_ptr<const Trial> baseline);
    void compareDialog();
    /// The derived-metric editor; the result (a copy with the new metrics) joins the Trials dock.
    void deriveMetricDialog(const std::shared_ptr<const Trial>& source);
    /// A trial computed from open ones (derived metrics, the CUBE browser's cut and select) joins the
    /// Trials dock under Files and becomes the current trial.
    void addDerivedTrial(const std::shared_ptr<const Trial>& trial, const QString& message);
    void openFile();
    void exportTable();
    void exportCurrentImage();
    void resetLayout();
    /// The default dock widths for the window's width: the main table keeps most of it.
    void fitDocksToWidth();
    int rightDockWidth() const;
    void about();

    LoadJob* m_job = nullptr;
    GrowthController* m_growth = nullptr;
    bool m_growthLaunch = false; ///< openGrowth(): trialShown() once the models are attached
    SelectionState* m_state = nullptr;
    TrialManagerModel* m_trials = nullptr;
    bool m_interactive = true;
    QString m_lastDirectory;
    QStringList m_recent;
    QByteArray m_defaultLayout;
    bool m_layoutRestored = false; ///< a saved window state was restored: keep its dock sizes
    bool m_shown = false;
    std::function<void()> m_afterLoad;

    QTabWidget* m_tabs = nullptr;
    QStackedWidget* m_central = nullptr; ///< the start page, then the tabs
    StartPage* m_startPage = nullptr;
    std::unique_ptr<QTemporaryDir> m_sampleDir;
    QString m_samplePath;
    std::map<QString, QWidget*> m_views; ///< by registry name: the widget made for the view
    std::map<QWidget*, QDockWidget*> m_viewDocks; ///< the dock of each docked view
    OverviewWidget* m_overview = nullptr;
    StatisticsPanel* m_statistics = nullptr;
    CallGraphWidget* m_callGraph = nullptr;
    UserEventsWidget* m_userEvents = nullptr;
    TrialSummaryWidget* m_summary = nullptr;
    EventBarChart* m_eventChart = nullptr;
    ThreadBarChart* m_threadChart = nullptr;
    HistogramWidget* m_histogram = nullptr;
    GroupLegend* m_legend = nullptr;
    QTreeView* m_trialView = nullptr;
    std::shared_ptr<const Trial> m_compareBaseline; ///< set by Open for Comparison until the load ends
    DatabasePanel* m_databases = nullptr;
    std::map<QString, int> m_databaseGroups;
    QString m_databaseSource; ///< "location#id" of the last trial opened from a database
    QDockWidget* m_databasesDock = nullptr;

    QDockWidget* m_trialsDock = nullptr;
    QDockWidget* m_groupsDock = nullptr;
    QDockWidget* m_eventDock = nullptr;
    QDockWidget* m_threadDock = nullptr;
    QDockWidget* m_histogramDock = nullptr;

    QComboBox* m_metricCombo = nullptr;
    QComboBox* m_valueCombo = nullptr;
    QComboBox* m_unitCombo = nullptr;
    QLineEdit* m_filterEdit = nullptr;
    QAction* m_backAction = nullptr;
    QAction* m_forwardAction = nullptr;
    QAction* m_openDirectoryAction = nullptr;
    QAction* m_openFileAction = nullptr;
    QAction* m_exportTableAction = nullptr;
    QAction* m_exportImageAction = nullptr;
    QMenu* m_recentMenu = nullptr;

    QLabel* m_statusLabel = nullptr;
    LiveMonitor* m_live = nullptr;
    QLabel* m_liveLabel = nullptr;
    int m_liveTrialId = -1;
    QLabel* m_warningsLabel = nullptr;
    QProgressBar* m_progressBar = nullptr;
    QToolButton* m_cancelButton = nullptr;
};

} // namespace parallax
