// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/units.h"
#include "algebra/values.h"
#include "datasource/model/trial.h"
#include "views/common/treemodel.h"
#include "views/common/valueformatter.h"
#include "views/viewsetup.h"

#include <QLocale>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace parallax {

class CallTree;
class GrowthOverlay;
struct CallPathModel;
class TrialStatistics;

/// The statistics table as a call tree built from call-path events (docs/SEMANTICS.md 1.4), for one
/// metric and either one thread or one statistic across threads.
///
/// The Value column follows CUBE: a collapsed node shows its inclusive value (the node and all it
/// called), an expanded node its exclusive value (the rest is shown by its children). The model
/// cannot see the view, so the view reports expand/collapse through expand()/collapse() (connect
/// QTreeView::expanded/collapsed to them; indexes of proxies in between are mapped back).
/// Synthetic nodes (a path prefix that is not itself an event) are grey and have no values.
/// DisplayRole is formatted text, SortRole the raw double, ToolTipRole an explanation.
class CallTreeModel : public TreeModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Value, ///< inclusive when collapsed, exclusive when expanded
        Exclusive,
        Inclusive,
        ExclusivePercent,
        InclusivePercent,
        Calls,
        Subroutines,
        ExclusivePerCall,
        InclusivePerCall,
        /// Growth at scale P (SelectionState::growth(), docs/SEMANTICS.md §10.6): the call path's model of
        /// the chosen value (sorted by its prediction at P) and its growth (coloured); empty without models.
        GrowthModel,
        Growth,
        ColumnCount
    };
    /// The EventId index (unsigned int) of the node's event; no value for synthetic nodes.
    static constexpr int EventRole = SortRole + 1;
    /// The CallTree node index (int) of the row.
    static constexpr int NodeRole = SortRole + 2;
    /// Metric columns (and Value): the value as a percent (0..100) of the thread's top inclusive
    /// value, or of D on the total and mean; for an inline bar. No value where percent is undefined.
    static constexpr int PercentRole = SortRole + 3;

    explicit CallTreeModel(QObject* parent = nullptr);
    ~CallTreeModel() override;

    /// Replaces the trial (resets the model and the expansion state). An invalid metric selects
    /// the first one.
    void setTrial(std::shared_ptr<const Trial> trial, MetricId metric = MetricId());
    const std::shared_ptr<const Trial>& trial() const { return m_trial; }

    void setMetric(MetricId metric);
    MetricId metric() const { return m_metric; }

    /// Shows one statistic across threads (the default is the mean over all threads). Keeps the
    /// rows when already showing a statistic; leaving thread mode resets the model.
    void setStatistic(Statistic statistic);
    /// Shows the cells of one thread: only the nodes that ran there (or have descendants that did)
    /// are rows, so this resets the model. An invalid thread goes back to the current statistic.
    void setThread(ThreadIndex thread);
    bool isThreadMode() const { return m_thread.isValid(); }
    ThreadIndex thread() const { return m_thread; }
    Statistic statistic() const { return m_statistic; }

    void setTimeUnit(TimeUnit unit);
    /// Nodes whose event the filter rejects are hidden, unless a descendant passes (then the node
    /// stays as part of the path); an empty filter shows all.
    void setEventFilter(std::function<bool(EventId)> filter);
    TimeUnit timeUnit() const { return m_timeUnit; }
    /// Locale for the formatted numbers (defaults to the system locale, with digit grouping).
    void setLocale(const QLocale& locale);
    /// The growth-at-scale models the GrowthModel and Growth columns show (null: none, the columns are
    /// empty). A row finds its model by its call path's name.
    void setGrowth(std::shared_ptr<const GrowthOverlay> growth);
    const GrowthOverlay* growth() const { return m_growth.get(); }
    /// The model row of a node (nullptr: no growth models, or none of this call path).
    const CallPathModel* growthRow(int node) const;
    /// The " => " path of a node: its event's name, or a synthetic node's components.
    QString nodePath(int node) const;

    /// TAU_CALLPATH_DEPTH-limited paths: top-level rows may be suffixes, not true roots.
    bool isTruncated() const;
    /// A sentence for a banner above the view when isTruncated(), empty otherwise.
    QString truncationNote() const;

    /// The index of the row of a node (column 0), invalid if it has no row.
    QModelIndex indexOfNode(int node) const;
    /// The index of the row showing an event (its call-tree node), invalid if none.
    QModelIndex indexOfEvent(EventId event) const;
    int nodeAt(const QModelIndex& index) const;

    bool isExpanded(int node) const;

    /// The raw value of a column for a node (Value resolves to the own or the inclusive value).
    std::optional<double> nodeValue(int node, int column) const { return value(node, column); }
    /// What an expanded node shows as its own value: its exclusive value, less the inclusive values
    /// of its TAU sampling children ([CONTEXT]/[SAMPLE]/[SUMMARY] under an instrumented node), which
    /// break that exclusive time down by samples rather than being callees. So own + the children's
    /// inclusive values = inclusive in every tree (docs/SEMANTICS.md 6.1); negative when the samples
    /// exceed the measured exclusive time (sampling granularity), shown as such.
    std::optional<double> ownValue(int node, int exclusiveColumn = Exclusive) const;
    /// The sum of the inclusive values of a node's sampling children (0 when it has none).
    double sampledChildren(int node, int inclusiveColumn = Inclusive) const;
    bool hasSampledChildren(int node) const;
    /// The metric is one the profile declares non-additive (CUBE's minimum and maximum inclusive
    /// time, metadata "CUBE non-additive metrics"): its children do not add up to a node.
    bool isNonAdditive() const;
    /// own + the children's inclusive values − inclusive, when the profile's numbers do not add up at
    /// this node (beyond 1e-6 of its magnitude: rounding); nullopt when they do or cannot (no children,
    /// min/max/sd rows, non-additive metric). The expanded row's tooltip shows it, never hides it.
    std::optional<double> mismatch(int node) const;

public Q_SLOTS:
    /// Tells the model a row was expanded or collapsed in a view (the index may belong to a proxy
    /// model over this one); the Value column of that row changes.
    void setExpanded(const QModelIndex& index, bool expanded);
    void expand(const QModelIndex& index) { setExpanded(index, true); }
    void collapse(const QModelIndex& index) { setExpanded(index, false); }

public:
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    const std::vector<int>* childNodes(int node) const override;
    int parentNode(int node) const override;
    int rowOfNode(int node) const override;

private:
    void rebuild();
    bool isTime() const;
    /// The raw value of a column for a node (Value resolves to exclusive or inclusive).
    std::optional<double> value(int node, int column) const;
    QString display(int node, int column) const;
    bool fractional() const;
    /// The one decimals count of a value column over the shown nodes (valueColumnDecimals), cached.
    int decimalsOf(int column) const;
    QString toolTip(int node, int column) const;
    QString rawText(double v, bool metricValue) const;
    QString sourceDescription() const;
    QVariant growthData(int node, int column, int role) const;
    const IntervalEvent* eventOf(int node) const;

    std::shared_ptr<const Trial> m_trial;
    std::shared_ptr<const TrialStatistics> m_stats;
    std::shared_ptr<const CallTree> m_tree;
    MetricId m_metric;
    Statistic m_statistic = Statistic::MeanAll;
    ThreadIndex m_thread;
    TimeUnit m_timeUnit = TimeUnit::Milliseconds;
    QLocale m_locale;

    /// The rows: per node, its shown children; the shown roots; each node's row in its parent
    /// (-1 when the node is not shown).
    std::vector<std::vector<int>> m_children;
    std::vector<int> m_roots;
    std::vector<int> m_row;
    /// Thread mode: the position of each node's cell in the thread's IntervalRow, or -1.
    std::vector<std::ptrdiff_t> m_cell;
    std::vector<bool> m_expanded;
    /// decimalsOf() per column; cleared by a change of nodes, metric, statistic or unit.
    ColumnDecimalsCache m_decimals;
    std::function<bool(EventId)> m_filter;
    std::shared_ptr<const GrowthOverlay> m_growth;
    /// By node: the index of its model row, -1 none, -2 not looked up yet (looked up as rows are shown).
    mutable std::vector<int> m_growthRows;
};

} // namespace parallax
