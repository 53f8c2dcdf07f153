// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/operations.h"
#include "algebra/units.h"
#include "views/common/job.h"
#include "views/comparison/comparisonbuilder.h"
#include "views/comparison/comparisonformat.h"

#include <QMainWindow>
#include <functional>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QSpinBox;
class QStackedWidget;
class QTabWidget;
class QTreeView;

namespace parallax {

class CallGraphWidget;
class ComparisonFlamePage;
class FlameGraphWidget;
class ComparisonModel;
class ComparisonSummaryWidget;
class ComparisonTreeModel;
class SelectionState;
class SideBySideView;
class SignedDifferenceView;
struct ViewSetup;

/// Visual comparison of two runs (issue 5): A is the baseline, B the candidate, and every number
/// follows docs/SEMANTICS.md 4.6 (Δ = A − B, a positive Δ of a lower-is-better metric is an
/// improvement). On construction it computes diff(A, B) with the given AlgebraOptions and the
/// per-event numbers in a QtConcurrent job, with a progress bar; then it shows five tabs:
///   - Side by side: per event A's and B's value as bars, Δ and Δ%, sortable, filterable;
///   - Signed difference: bars left and right of zero in the diverging colour map;
///   - Statistics tree: the union call tree with A, B, Δ, Δ% per call path;
///   - Call graph: the diff's call graph coloured by change;
///   - Flame graph: the differential flame graph, or A's and B's stacked (ComparisonFlamePage);
///   - Summary: metadata side by side, run times, speed-up, top improvements and regressions.
/// One bar of controls drives them all: metric, value (exclusive, inclusive, calls), threads
/// (mean, total or one thread), call paths, minimum difference, time unit, and the algebra's
/// match and thread policies (changing those recomputes the difference).
class ComparisonWindow : public QMainWindow {
    Q_OBJECT
public:
    enum class Tab { SideBySide, SignedDifference, Tree, CallGraph, Flame, Summary };

    /// Starts computing at once; the trials are shared, never copied.
    ComparisonWindow(std::shared_ptr<const Trial> a, std::shared_ptr<const Trial> b, const AlgebraOptions& options = {},
        QWidget* parent = nullptr);
    ~ComparisonWindow() override;

    /// Opens a comparison as a top-level window that deletes itself when closed (for menus, the
    /// trial manager's context menu and drag and drop onto a trial).
    static ComparisonWindow* open(std::shared_ptr<const Trial> a, std::shared_ptr<const Trial> b,
        const AlgebraOptions& options = {}, QWidget* parent = nullptr);

    const std::shared_ptr<const Trial>& trialA() const { return m_a; }
    const std::shared_ptr<const Trial>& trialB() const { return m_b; }
    /// New algebra options (match and thread policy): recomputes the difference.
    void setOptions(const AlgebraOptions& options);
    const AlgebraOptions& options() const { return m_options; }

    /// The display choices (the control bar does the same).
    bool setMetric(const QString& name);
    void setValue(CompareValue value);
    /// Thread: an index into snapshot()->threads.
    void setSource(CompareSource source, int thread = 0);
    void setIncludeCallPaths(bool include);
    /// Absolute thresholds are in the display unit (ms for time by default); percent compares |Δ%|.
    void setMinimumDifference(double threshold, bool percent);
    void setTimeUnit(TimeUnit unit);
    void setCurrentTab(Tab tab);
    Tab currentTab() const;
    /// "sidebyside", "signed", "tree", "callgraph", "summary" (as --render compare-NAME uses them).
    static std::optional<Tab> tabFromName(const QString& name);

    /// Whether the difference or a thread's values are being computed.
    bool isComputing() const;
    /// Blocks until the running jobs have finished and their results are shown (tests, headless
    /// rendering, benchmarks).
    void waitForResult();
    /// The comparison (null before the first result) and the numbers shown.
    const std::shared_ptr<const ComparisonSnapshot>& snapshot() const { return m_snapshot; }
    const std::shared_ptr<const ComparisonValues>& values() const { return m_values; }
    /// The algebra's error when it refused the comparison, else empty.
    QString errorMessage() const;

    /// Renders the whole window showing one tab to an image file (PNG, SVG or PDF by suffix) at the
    /// given size (invalid: the current size) once everything is computed, the call graph's layout
    /// included; calls done with an empty string or the error.
    void renderTab(
        Tab tab, const QString& fileName, const QSize& size, const std::function<void(const QString&)>& done);

    ComparisonModel* model() const { return m_model; }
    /// How the Δ and Δ% cells of every tab are tinted (the toolbar's "Colour by"); the application
    /// remembers the choice (colourByChanged is emitted when the user changes it).
    void setColourBy(ColourBy by);
    ColourBy colourBy() const;
    /// The verdict line above the tabs (speed-up, its definition, within noise or not).
    QString verdictText() const;
    SideBySideView* sideBySideView() const { return m_sideBySide; }
    SignedDifferenceView* signedDifferenceView() const { return m_signed; }
    ComparisonTreeModel* treeModel() const { return m_treeModel; }
    QTreeView* treeView() const;
    CallGraphWidget* callGraph() const { return m_callGraph; }
    /// The differential flame graph (views/flame/flamegraphwidget.h) and its tab.
    FlameGraphWidget* flameGraph() const;
    ComparisonFlamePage* flamePage() const { return m_flamePage; }
    /// Shows a call path (match keys from the root) in the side-by-side, signed-difference,
    /// statistics-tree and call-graph tabs: what a click on a flame frame does.
    void showCallPath(const QStringList& path);
    /// The call path last shown by showCallPath().
    const QStringList& shownCallPath() const { return m_shownPath; }
    ComparisonSummaryWidget* summary() const { return m_summary; }

Q_SIGNALS:
    /// A comparison finished: ok, or the algebra refused it (errorMessage()).
    void computed(bool ok);
    /// New numbers are shown (after any change of metric or threads).
    void valuesChanged();
    /// The user chose another "Colour by" in the toolbar.
    void colourByChanged(ColourBy by);

private:
    struct Result {
        std::shared_ptr<const ComparisonSnapshot> snapshot;
        std::shared_ptr<const ComparisonValues> values;
    };
    void buildControls();
    void start();
    void applySnapshot(const Result& result);
    void requestValues();
    void applyValues(std::shared_ptr<const ComparisonValues> values);
    ComparisonQuery query() const;
    void syncCallGraph();
    void syncFlame();
    void prepareCallGraph();
    void onGraphReady(const std::shared_ptr<const Trial>& diff);
    void updateHeader();
    void updateThreadLabel();
    void updateThresholdUnit();
    void applyThreshold();

    std::shared_ptr<const Trial> m_a;
    std::shared_ptr<const Trial> m_b;
    AlgebraOptions m_options;
    std::shared_ptr<const ComparisonSnapshot> m_snapshot;
    std::shared_ptr<const ComparisonValues> m_values;
    QString m_metricName;
    CompareSource m_source = CompareSource::Mean;
    int m_thread = 0;

    /// The difference and the first numbers (with progress).
    Job<Result> m_job { this };
    /// One thread's numbers.
    Job<std::shared_ptr<const ComparisonValues>> m_valuesJob { this };
    /// The statistics the call graph reads; the result is the difference they belong to.
    Job<std::shared_ptr<const Trial>> m_graphJob { this };
    bool m_graphPrepared = false;

    QLabel* m_header = nullptr;
    QComboBox* m_metricBox = nullptr;
    QComboBox* m_valueBox = nullptr;
    QComboBox* m_sourceBox = nullptr;
    QSpinBox* m_threadSpin = nullptr;
    QLabel* m_threadLabel = nullptr;
    QComboBox* m_unitBox = nullptr;
    QCheckBox* m_callPathsBox = nullptr;
    QDoubleSpinBox* m_thresholdSpin = nullptr;
    QComboBox* m_thresholdMode = nullptr;
    QComboBox* m_colourByBox = nullptr;
    QComboBox* m_matchBox = nullptr;
    QComboBox* m_policyBox = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_stage = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_verdict = nullptr;
    QTabWidget* m_tabs = nullptr;

    ComparisonModel* m_model = nullptr;
    SideBySideView* m_sideBySide = nullptr;
    SignedDifferenceView* m_signed = nullptr;
    ComparisonTreeModel* m_treeModel = nullptr;
    std::unique_ptr<ViewSetup> m_tree;
    SelectionState* m_graphState = nullptr;
    CallGraphWidget* m_callGraph = nullptr;
    ComparisonFlamePage* m_flamePage = nullptr;
    bool m_flameCompared = false; ///< the flame page shows this snapshot's A and B
    QStringList m_shownPath;
    ComparisonSummaryWidget* m_summary = nullptr;

    void updateVerdict();
};

} // namespace parallax
