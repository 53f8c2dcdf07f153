// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/semanticprofile.h"
#include "algebra/units.h"
#include "datasource/readers/reader.h"
#include "views/common/job.h"

#include <QMainWindow>
#include <QPointer>
#include <functional>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QFrame;
class QTabWidget;
class QTreeView;

namespace parallax {

class SelectionState;
class SemanticBarChart;
class SemanticMatrixView;
class SemanticProfileModel;
class SemanticInspector;
class ThreadFinder;
struct ViewSetup;

/// Where a semantic model comes from: a built-in model made for the trial ("group", "layer",
/// "phase", "parameter", "file"), a JSON file (docs/SEMANTICS.md 5.6), or a model given in code (the
/// rule editor's result).
struct SemanticModelSource {
    enum class Kind { None, Builtin, File, Given };
    Kind kind = Kind::None;
    QString name; ///< built-in name or file path
    std::optional<semantic::Model> model; ///< Given
    /// "builtin:NAME" or a file path (as `parallax --semantic` takes it).
    static SemanticModelSource fromArgument(const QString& argument);
    QString displayName() const;
};

/// The SEAA semantic views of one trial (issue 5) in a top-level window: a model chooser (built-in
/// models and "Open model file…"), metric, scope (a thread, the mean or the total), time unit and
/// group-by-attribute selectors, and tabs:
///   - Profile: the entity tree (SemanticProfileModel) beside the bar chart (SemanticBarChart);
///   - Matrix: entity × thread stacked bars (SemanticMatrixView);
///   - Inspector, Rules, Compare: placeholders for the mapping inspector, rule editor and semantic
///     comparison (setTabPage() puts the real widgets in).
/// Attribution runs in a QtConcurrent job; configuration errors and refusals (a non-linear model
/// on a derived trial) appear in a message bar. Selecting an entity selects its dominant event
/// (and the chart highlights it) in the given SelectionState, if that shows the same trial; an
/// event selected elsewhere selects its entity here.
class SemanticWindow : public QMainWindow {
    Q_OBJECT
public:
    enum class Tab { Profile, Matrix, Inspector, Rules, Compare };
    /// What --render semantic-NAME renders.
    enum class View { Bars, Tree, Matrix, Inspector, Rules };

    explicit SemanticWindow(
        std::shared_ptr<const Trial> trial, SelectionState* selection = nullptr, QWidget* parent = nullptr);
    ~SemanticWindow() override;

    /// A top-level window that deletes itself when closed, attributing with `source` (none: the
    /// first built-in model, if any).
    static SemanticWindow* open(std::shared_ptr<const Trial> trial, SelectionState* selection,
        const SemanticModelSource& source = {}, QWidget* parent = nullptr);

    const std::shared_ptr<const Trial>& trial() const { return m_trial; }
    /// Attributes the trial with a model from a source (off the GUI thread).
    void setModelSource(const SemanticModelSource& source);
    void setBuiltinModel(const QString& name);
    void setModelFile(const QString& path);
    void setModel(const semantic::Model& model);
    const SemanticModelSource& modelSource() const { return m_source; }

    void setMetric(MetricId metric);
    MetricId metric() const { return m_metric; }
    void setScope(const semantic::Scope& scope);
    const semantic::Scope& scope() const { return m_scope; }
    void setTimeUnit(TimeUnit unit);
    /// Group-by-attribute mode of the tree (empty: the entity tree).
    void setGroupByAttribute(const QString& key);

    /// The current semantic profile (null before the first result or after an error).
    const semantic::ProfilePtr& profile() const { return m_profile; }
    /// The last attribution error or model load error, else empty.
    QString errorMessage() const { return m_error; }
    bool isComputing() const { return m_job.isRunning(); }
    /// Blocks until the running attribution has finished and its result is shown.
    void waitForResult();

    /// The run B of the Compare tab (this window's trial is A); Compare follows the applied model.
    void setComparisonTrial(TrialPtr b);
    void showComparisonError(const QString& message);
    /// Adds a tab and returns its index: the one line a new semantic view needs.
    int addTab(QWidget* page, const QString& title);
    /// Puts a page in place of a tab's current page (e.g. a placeholder); the old page is deleted.
    void setTabPage(Tab tab, QWidget* page);
    QWidget* tabPage(Tab tab) const;
    void setCurrentTab(Tab tab);
    QTabWidget* tabs() const { return m_tabs; }

    /// Selects an entity in the tree and chart (and its dominant event in the linked selection).
    void selectEntity(int entity);
    int selectedEntity() const { return m_selectedEntity; }

    /// "bars", "tree", "matrix", "inspector", "rules" (as --render semantic-NAME uses them).
    static std::optional<View> viewFromName(const QString& name);
    /// Renders one view to an image (PNG, SVG or PDF by suffix) once attribution is done; calls
    /// done with an empty string or the error (an attribution error is an error).
    void renderView(
        View view, const QString& fileName, const QSize& size, const std::function<void(const QString&)>& done);

    SemanticProfileModel* profileModel() const { return m_model; }
    QTreeView* treeView() const;
    SemanticBarChart* barChart() const { return m_chart; }
    SemanticMatrixView* matrixView() const { return m_matrix; }
    SemanticInspector* inspector() const;
    class SemanticComparison* comparison() const;
    /// "Go to thread n,c,t" for the one-thread scope; shown (with its label) only on that scope.
    ThreadFinder* threadFinder() const { return m_threadFinder; }

Q_SIGNALS:
    /// A new profile is shown (null when attribution failed); h8's widgets follow this.
    void profileChanged(const parallax::semantic::ProfilePtr& profile);
    /// Attribution finished: ok, or failed (errorMessage()).
    void computed(bool ok);
    /// The user selected an entity (-1: none).
    void entitySelected(int entity);

private:
    struct Result {
        semantic::ProfilePtr profile;
        QString error;
    };
    void buildUi();
    void fillModelBox();
    void start();
    void onFinished(const Result& result);
    void showMessage(const QString& text, bool error);
    void applyProfile();
    /// The Profile tree's columns at their content width (numbers, two-line headers); the entity name
    /// takes the rest (fitNameColumn).
    void resizeTreeColumns();
    void fillSelectors();
    void onEventSelected(EventId event);

    std::shared_ptr<const Trial> m_trial;
    SelectionState* m_selection = nullptr;
    SemanticModelSource m_source;
    semantic::ProfilePtr m_profile;
    QString m_error;
    MetricId m_metric { 0u };
    semantic::Scope m_scope = semantic::Scope::mean();
    TimeUnit m_unit = TimeUnit::Milliseconds;
    int m_selectedEntity = -1;
    bool m_syncing = false;
    QStringList m_files;

    Job<Result> m_job { this };
    /// Reads run B of the Compare tab.
    Job<TrialResult> m_readB { this };
    QComboBox* m_modelBox = nullptr;
    QComboBox* m_metricBox = nullptr;
    QComboBox* m_scopeBox = nullptr;
    ThreadFinder* m_threadFinder = nullptr;
    QLabel* m_threadLabel = nullptr;
    /// The thread the one-thread scope shows (the last one chosen).
    ThreadIndex m_thread = ThreadIndex(0u);
    QPointer<SemanticInspector> m_inspector;
    QComboBox* m_unitBox = nullptr;
    QComboBox* m_groupBox = nullptr;
    QFrame* m_messageBar = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_status = nullptr;
    QTabWidget* m_tabs = nullptr;
    SemanticProfileModel* m_model = nullptr;
    /// Tab pages a test may replace (setTabPage deletes the old one).
    QPointer<class SemanticComparison> m_comparison;
    TrialPtr m_comparisonTrial;
    bool m_rulesEdited = false;
    std::unique_ptr<ViewSetup> m_tree;
    SemanticBarChart* m_chart = nullptr;
    SemanticMatrixView* m_matrix = nullptr;
};

} // namespace parallax
