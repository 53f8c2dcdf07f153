// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/values.h"
#include "datasource/model/trial.h"
#include "views/callgraph/callgraph.h"
#include "views/callgraph/callgraphnodeitem.h"
#include "views/common/selectionview.h"

#include <QImage>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QGraphicsScene;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;
class QToolButton;

namespace parallax {

class CallGraphEdgeItem;
class CallGraphView;
class DotPlainLayout;
class DotRunner;

/// The call graph of the current trial (ParaProf's and KCachegrind's call graph): one box per
/// routine that occurs in call paths, one arrow per caller -> callee pair. The layered layout comes
/// from Graphviz `dot -Tplain`, run asynchronously as a separate process; the boxes are drawn here,
/// their width by one value (default: inclusive) and their colour by another (default: exclusive,
/// red = most), for one statistic across threads or the selected thread.
///
/// Follows the SelectionState: trial, metric, time unit, filters and the selected event (which is
/// highlighted and centred). Clicking a node selects its event there and highlights its callers
/// and callees. Says so instead of failing when the trial has no call paths or dot is missing.
class CallGraphWidget : public QWidget, public SelectionView {
    Q_OBJECT
public:
    /// Direction of the layers: Automatic picks the one that shows the graph larger in the view
    /// (wide fan-outs of wide boxes read better left to right).
    enum class Orientation { Automatic, TopToBottom, LeftToRight };

    /// How box colours show their value. Magnitude: sequential, light = least, dark red = most.
    /// Change, for a difference trial (Δ = A − B): diverging around 0, blue = improvement and red =
    /// regression by the metric's orientation (docs/SEMANTICS.md 4.6), intensity by |value| relative to
    /// the largest; box and edge widths then follow |value| as well.
    enum class ColorMode { Magnitude, Change };

    explicit CallGraphWidget(SelectionState* state, QWidget* parent = nullptr);
    ~CallGraphWidget() override;

    void setColorMode(ColorMode mode);
    /// Who the "no call-path events" message speaks of, with its verb ("A (…) and B (…) have");
    /// "The trial "NAME" has" by default.
    void setTrialLabel(const QString& label) { m_trialLabel = label; }
    ColorMode colorMode() const { return m_colorMode; }

    /// Values are this statistic across threads (the default is the mean over all threads).
    void setStatistic(Statistic statistic);
    /// Values are those of SelectionState::thread() (the statistic while no thread is selected).
    void setFollowSelectedThread(bool follow);
    /// Box width: a value of a metric; an invalid metric follows SelectionState::metric().
    void setSizeValue(ValueType type, MetricId metric = MetricId());
    /// Box colour: a value of a metric; an invalid metric follows SelectionState::metric().
    void setColorValue(ValueType type, MetricId metric = MetricId());
    /// The Graphviz program (a path or a name in PATH); "dot" by default.
    void setDotExecutable(const QString& program);
    void setOrientation(Orientation orientation);
    Orientation orientation() const { return m_orientation; }
    /// The direction used by the current layout (never Automatic).
    Orientation effectiveOrientation() const { return m_effectiveOrientation; }
    /// Which routines are shown (views/callgraph/callgraph.h): by default the hot part, at most 50
    /// routines; a graph that small is shown whole.
    void setFocus(const CallGraphFocus& focus);
    const CallGraphFocus& graphFocus() const { return m_focus; }
    void setFocusMode(CallGraphFocus::Mode mode);
    /// At most this many routines (the "Nodes" box; Show More adds 25).
    void setMaximumNodes(int count);
    /// Adds a routine's callers or callees to the shown ones (its node's context menu).
    void expandCallers(int node);
    void expandCallees(int node);
    /// Shows the neighbourhood of a routine (Focus Here).
    void focusOn(int node);
    /// The routines the current layout leaves out, and the share of the exclusive total it shows.
    int hiddenCount() const { return m_hiddenByCap; }
    double coveredShare() const { return m_covered; }
    /// The hottest path of the current layout, root first (routine names).
    QStringList hotPathNames() const;
    /// Edges whose label (calls) is drawn: dot placed it clear of boxes and of heavier edges' labels.
    int labelledEdgeCount() const;
    const CallGraph& graph() const { return m_graph; }

    /// Whether dot is working on a layout.
    bool isLayoutRunning() const;
    /// The message shown instead of the graph (no trial, no call paths, no dot, dot failed, ...);
    /// empty while the graph is shown.
    QString message() const;
    /// Node and edge items in the scene.
    int nodeCount() const { return m_nodeItemCount; }
    int edgeCount() const { return m_edgeItemCount; }
    QGraphicsScene* scene() const { return m_scene; }
    CallGraphView* view() const { return m_view; }
    QLineEdit* searchBox() const { return m_search; }

    /// The node item of a routine (full name as in the profile), or nullptr.
    CallGraphNodeItem* nodeItem(const QString& name) const;
    /// Does what a click on the routine's node does; false when it has no node.
    bool activateNode(const QString& name);
    /// The routine whose node is highlighted as selected; empty when none.
    QString selectedNodeName() const;
    /// Routines matching the search box.
    QStringList searchMatches() const;

    /// The whole graph as an image (scale 2 gives a sharp picture for reports); null when no
    /// graph is shown.
    QImage renderImage(double scale = 1.0) const;
    /// Writes the whole graph to a PNG, SVG or PDF file (by suffix); empty string or the error.
    QString exportImage(const QString& fileName) const;

public Q_SLOTS:
    /// Builds the graph again and lays it out (e.g. after installing Graphviz).
    void relayout();
    void zoomIn();
    void zoomOut();
    void fitToView();
    /// Asks for a file name and exports the graph.
    void exportInteractively();

Q_SIGNALS:
    /// A layout attempt ended: ok when the graph is shown, false when a message is shown instead.
    void layoutFinished(bool ok);

private:
    void selectionChanged(SelectionChanges changes) override;
    void doUpdate(SelectionChanges changes) override;
    void onTrialChanged();
    void onEventSelected(EventId event);
    void scheduleLayout();
    void startLayout();
    void onLayoutReady(const DotPlainLayout& layout);
    void onLayoutFailed(const QString& message);
    void showMessage(const QString& message);
    void clearScene();
    void populateMetricCombos();
    void syncControls();
    void recolour();
    void applyHighlight();
    void highlightNode(int node, bool centre);
    void applySearch();
    void nextMatch();
    void updateInfo();

    MetricId sizeMetric() const;
    MetricId colorMetric() const;
    bool usesThread() const;
    std::optional<double> valueOf(EventId event, MetricId metric, ValueType type) const;
    std::optional<double> edgeValue(const CallGraph::Edge& edge, MetricId metric, ValueType type) const;
    QString formatValue(double value, MetricId metric, ValueType type) const;
    QString describeValue(MetricId metric, ValueType type) const;
    QString sourceName() const;
    QByteArray dotSource(const CallGraph& graph, std::vector<bool>& shown, int& hidden);
    void showNodeMenu(int node, const QPoint& globalPos);
    void syncFocusControls();
    Orientation chooseOrientation(const CallGraph& graph, const std::vector<bool>& shown,
        const std::vector<double>& widths, double height, const std::vector<int>& minlen) const;

    SelectionState* m_state;
    std::shared_ptr<const Trial> m_trial;
    CallGraph m_graph;
    /// The graph being laid out; it replaces m_graph when its layout arrives.
    CallGraph m_pendingGraph;
    std::vector<bool> m_pendingShown;
    int m_pendingHidden = 0;

    Statistic m_statistic = Statistic::MeanAll;
    bool m_followThread = false;
    QString m_trialLabel;
    ValueType m_sizeType = ValueType::Inclusive;
    MetricId m_sizeMetric;
    ValueType m_colorType = ValueType::Exclusive;
    MetricId m_colorMetric;
    CallGraphFocus m_focus;
    /// The hottest path of the pending and current layouts (nodes and edges).
    CallGraphSubset m_pendingSubset;
    std::vector<int> m_hotPath;
    std::vector<int> m_hotEdges;
    double m_covered = 0;
    /// The focus centre and the pinned routines by name (node numbers change with the filters).
    QString m_centreName;
    QStringList m_pinnedNames;
    ColorMode m_colorMode = ColorMode::Magnitude;
    Orientation m_orientation = Orientation::Automatic;
    Orientation m_effectiveOrientation = Orientation::TopToBottom;
    Orientation m_pendingOrientation = Orientation::TopToBottom;
    bool m_fitAfterLayout = true;
    bool m_activating = false;

    /// Per graph node: shown in the current layout, and its item (nullptr when not shown).
    std::vector<bool> m_shown;
    std::vector<CallGraphNodeItem*> m_nodeItems;
    std::vector<CallGraphEdgeItem*> m_edgeItems;
    int m_nodeItemCount = 0;
    int m_edgeItemCount = 0;
    int m_hiddenByCap = 0;
    int m_selectedNode = -1;
    int m_matchCursor = -1;

    DotRunner* m_dot;
    QGraphicsScene* m_scene;
    CallGraphView* m_view;
    QStackedWidget* m_stack;
    QLabel* m_message;
    QLabel* m_status;
    QLabel* m_info;
    QLabel* m_legend;
    QLabel* m_legendLow;
    QLabel* m_legendHigh;
    QComboBox* m_source;
    QComboBox* m_orientationCombo;
    QComboBox* m_sizeTypeCombo;
    QComboBox* m_sizeMetricCombo;
    QComboBox* m_colorTypeCombo;
    QComboBox* m_colorMetricCombo;
    QLineEdit* m_search;
    QLabel* m_matches;
    QComboBox* m_showCombo;
    QSpinBox* m_nodesSpin;
    QSpinBox* m_depthSpin;
    QToolButton* m_moreButton;
};

} // namespace parallax
