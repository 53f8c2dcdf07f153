#pragma once

#include "datasource/model/trial.h"
#include "views/viewsetup.h"

#include <QMainWindow>
#include <QPointer>
#include <memory>

class QAction;
class QComboBox;
class QLabel;
class QProgressDialog;
class QSpinBox;
class QTabWidget;
class QTreeView;

namespace parallax {

class LoadJob;
class StatisticsModel;
class TrialSummaryWidget;

/// The main window: one trial's statistics table and summary, a metric and row-mode toolbar,
/// and the File menu (open, CSV export, screenshot).
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Loads a file or directory off the GUI thread; an empty format means auto-detection.
    void openPath(const QString& path, const QString& format = {});
    /// When false, load errors are not shown in message boxes (only signalled), for --screenshot.
    void setInteractive(bool interactive) { m_interactive = interactive; }
    /// Shows the "statistics" or "summary" tab; false for an unknown name.
    bool selectTab(const QString& name);

    const std::shared_ptr<const Trial>& trial() const { return m_trial; }
    QTreeView* statisticsView() const { return m_view; }

Q_SIGNALS:
    /// The loaded trial is in the views (emitted after the first layout pass is queued).
    void trialShown();
    void loadFailed(const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createToolBar();
    void createCentralWidget();

    void onStarted(const QString& path);
    void onProgress(const QString& stage, qint64 done, qint64 total);
    void onLoaded(std::shared_ptr<const Trial> trial, const QString& path, qint64 elapsedMs);
    void onFailed(const QString& message, const QString& path);
    void onCancelled(const QString& path);
    void closeProgress();

    void fillMetricCombo();
    void fillRowModeCombo();
    void applyRowMode();
    void updateThreadLabel();
    void resizeColumns();

    void openDirectory();
    void openFile();
    void exportCsv();
    void saveScreenshot();
    void about();

    LoadJob* m_job = nullptr;
    std::shared_ptr<const Trial> m_trial;
    QString m_format;
    bool m_interactive = true;
    QString m_lastDirectory;

    StatisticsModel* m_model = nullptr;
    QTreeView* m_view = nullptr;
    ViewSetup m_setup;
    TrialSummaryWidget* m_summary = nullptr;
    QTabWidget* m_tabs = nullptr;

    QComboBox* m_metricCombo = nullptr;
    QComboBox* m_modeCombo = nullptr;
    QSpinBox* m_threadSpin = nullptr;
    QLabel* m_threadLabel = nullptr;
    QAction* m_threadSpinAction = nullptr;
    QAction* m_threadLabelAction = nullptr;
    QAction* m_callPathsAction = nullptr;
    QAction* m_openDirectoryAction = nullptr;
    QAction* m_openFileAction = nullptr;
    QAction* m_exportCsvAction = nullptr;
    QAction* m_screenshotAction = nullptr;

    QPointer<QProgressDialog> m_progress;
    QLabel* m_statusLabel = nullptr;
    QLabel* m_warningsLabel = nullptr;
};

} // namespace parallax
