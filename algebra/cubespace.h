// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// The CUBE view of a trial (docs/SEMANTICS.md §6): three trees — metrics, call paths, locations —
// browsed in ordered panes. An item's value aggregates over the selections of the panes to its left
// (each selected item in its state: collapsed = inclusive, expanded = exclusive) and over everything
// in the panes to its right; value modes divide it by a reference.

#include "datasource/model/trial.h"

#include <QString>
#include <QStringList>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

namespace parallax {

class CallTree;

enum class CubePane : std::uint8_t { Metric = 0, Call = 1, System = 2 };

enum class CubeMode : std::uint8_t {
    Absolute,
    OwnRoot,
    MetricRoot,
    MetricSelection,
    CallRoot,
    CallSelection,
    SystemRoot,
    SystemSelection,
    Peer,
    PeerDistribution,
    External,
};

/// "absolute", "ownroot", ... (the CLI's and the settings' spelling) and the GUI's "Own root %".
QString cubeModeName(CubeMode mode);
QString cubeModeLabel(CubeMode mode);
std::optional<CubeMode> cubeModeFromName(const QString& name);
QStringList cubeModeNames();
QString cubePaneName(CubePane pane);
std::optional<CubePane> cubePaneFromName(const QString& name);

/// The three trees of one trial. Immutable; build it off the GUI thread (it walks every thread's
/// metadata once).
class CubeSpace {
public:
    enum class CallView : std::uint8_t { Tree, Flat };

    struct Item {
        int parent = -1;
        std::vector<int> children;
        int depth = 0;
        /// Metric pane: the model metric (index), or -1 for a folder without data ("Derived").
        /// Call pane: the CallTree node (tree view) or the flat event id (flat view).
        /// System pane: the thread index of a location, or -1 for a group (machine, node, process).
        int ref = -1;
    };

    /// What the metric tree knows of a metric besides its model entry (CUBE files bring these; TAU
    /// metrics have none). Read from the trial metadata "CUBE metric NAME" the CUBE reader writes
    /// (docs/FORMATS.md 5), so it survives the database and the writers.
    struct MetricInfo {
        QString uniqueName;
        QString kind; ///< EXCLUSIVE, INCLUSIVE, SIMPLE, ... ("" when unknown)
        QString url;
        QString description;
    };

    explicit CubeSpace(TrialPtr trial, CallView callView = CallView::Tree);

    const Trial& trial() const { return *m_trial; }
    const TrialPtr& trialPtr() const { return m_trial; }
    CallView callView() const { return m_callView; }
    const CallTree& callTree() const { return *m_tree; }

    const std::vector<Item>& items(CubePane pane) const { return m_items[index(pane)]; }
    const std::vector<int>& roots(CubePane pane) const { return m_roots[index(pane)]; }
    std::size_t size(CubePane pane) const { return items(pane).size(); }
    const Item& item(CubePane pane, int i) const { return items(pane)[static_cast<std::size_t>(i)]; }
    /// The item's name: metric name, call-path leaf (flat view: event name), machine / node /
    /// process / location name.
    QString label(CubePane pane, int i) const;
    /// The item's full name: metric name, the call path "a => b", the location's "n,c,t".
    QString path(CubePane pane, int i) const;
    /// System pane: "machine", "node", "process", "context" or "thread".
    QString systemLevel(int i) const;
    /// The ancestor of `i` at depth 0.
    int rootOf(CubePane pane, int i) const;
    /// The item whose label or path is `name` (paths first), or -1.
    int find(CubePane pane, const QString& name) const;
    /// The system item of a thread, or -1.
    int itemOfThread(ThreadIndex t) const;
    /// The call item of an event (tree view: its call-tree node; flat view: the flat event), or -1.
    int itemOfEvent(EventId e) const;

    const MetricInfo& metricInfo(MetricId m) const { return m_metricInfo[m.index()]; }

    /// What a call item's region is: its kind ("function", "loop", "MPI", "OpenMP", "parameter",
    /// "phase", "sample", "I/O"...) from the TAU or CUBE naming conventions and groups, and its source
    /// file and first line when the name carries TAU's `[{file} {line,col}-{line,col}]` or a CUBE
    /// `@file:line`.
    struct RegionInfo {
        QString kind;
        QString file;
        int line = 0;
    };
    RegionInfo regionInfo(int callItem) const;
    /// Items of `pane` at each depth (for the peer modes).
    const std::vector<std::vector<int>>& levels(CubePane pane) const { return m_levels[index(pane)]; }

    /// V(root metric named `metricName`; all call paths; all threads): the reference of External %
    /// when this trial is the external one. NaN when the trial has no such metric.
    double metricRootTotal(const QString& metricName) const;
    /// The same for a metric of this trial: its metric tree's root, every call path, every thread.
    double metricRootTotal(MetricId m) const;

    static std::size_t index(CubePane p) { return static_cast<std::size_t>(p); }

    /// Call pane, tree view: the deeper items of a root's region. A root is a flat event (docs/SEMANTICS.md
    /// 1.4), which also holds the region's calls from inside the tree (a TAU OpenMP region is a root on
    /// the workers and a child of main on the master); the root item is the flat event less those:
    /// inclusive less the outermost deeper items, exclusive less all of them. Empty for other items.
    const std::vector<int>& deeperOutermost(int item) const;
    const std::vector<int>& deeperAll(int item) const;

private:
    void buildMetricTree();
    void buildCallTree();
    void buildSystemTree();
    void finish(CubePane pane);
    void computeRootTotals();
    int addItem(CubePane pane, int parent, int ref);

    TrialPtr m_trial;
    CallView m_callView;
    std::shared_ptr<const CallTree> m_tree;
    std::array<std::vector<Item>, 3> m_items;
    std::array<std::vector<int>, 3> m_roots;
    std::array<std::vector<std::vector<int>>, 3> m_levels;
    std::vector<MetricInfo> m_metricInfo;
    std::vector<int> m_itemOfThread;
    std::vector<int> m_itemOfEvent;
    std::vector<std::vector<int>> m_deeperOutermost; ///< by call item (roots only)
    std::vector<std::vector<int>> m_deeperAll;
    std::vector<QString> m_groupLabels; ///< system groups' labels, by item
    std::vector<std::uint8_t> m_systemLevel; ///< by item: 0 machine .. 4 thread
    mutable std::vector<double> m_rootTotals; ///< by metric, NaN until computed
};

/// The user's state of one pane: which items are selected and which are expanded.
struct CubePaneState {
    std::vector<int> selected;
    std::vector<std::uint8_t> expanded; ///< by item; missing = collapsed
    bool isExpanded(int i) const
    {
        return static_cast<std::size_t>(i) < expanded.size() && expanded[static_cast<std::size_t>(i)] != 0;
    }
    void setExpanded(int i, bool on);
};

struct CubeState {
    std::array<CubePane, 3> order { CubePane::Metric, CubePane::Call, CubePane::System };
    std::array<CubePaneState, 3> panes; ///< by CubePane
    CubePaneState& pane(CubePane p) { return panes[CubeSpace::index(p)]; }
    const CubePaneState& pane(CubePane p) const { return panes[CubeSpace::index(p)]; }
    /// Position of a pane in the order (0 = leftmost).
    int position(CubePane p) const;
    /// The default state of a space: the first metric root and the first call root selected, the
    /// system roots selected, everything collapsed.
    static CubeState defaults(const CubeSpace& space);
};

/// Every item's collapsed (inclusive) and expanded (exclusive) value for one state.
struct CubeValues {
    std::array<std::vector<double>, 3> inclusive; ///< by CubePane, by item
    std::array<std::vector<double>, 3> exclusive;
    /// V(root of the first selected metric; all call paths; all threads), for Metric root %.
    double metricRoot = std::numeric_limits<double>::quiet_NaN();

    /// The value an item shows in its state.
    double value(CubePane pane, int i, const CubeState& state) const
    {
        const auto& v = state.pane(pane).isExpanded(i) ? exclusive : inclusive;
        return v[CubeSpace::index(pane)][static_cast<std::size_t>(i)];
    }
};

/// Computes every pane's values for a state (docs/SEMANTICS.md §6). One pass over the trial's cells
/// per pane; the selections of each pane are the sums of their items in their states.
/// With the values of an earlier state, the panes whose inputs are unchanged (cubePaneInputsEqual)
/// are copied instead of computed: a click in the call pane recomputes only the panes to its right.
CubeValues computeCube(const CubeSpace& space, const CubeState& state, const CubeValues* previous = nullptr,
    const CubeState* previousState = nullptr);
/// Whether a pane's values are the same in both states: the same order, and the same selections
/// (with the selected items' expansion states) in the panes that are its inputs.
bool cubePaneInputsEqual(const CubeState& a, const CubeState& b, CubePane pane);

/// An item's value in a mode: 100 · value / reference, or the value itself for Absolute; NaN ("—")
/// when the mode has no reference at the item's position or the reference is 0. `externalRoot` is
/// the external trial's metricRootTotal of the selected metric (External %).
/// `shown` replaces the item's value in its state (the browser's hidden children add to an
/// expanded parent's).
double cubeModeValue(const CubeSpace& space, const CubeState& state, const CubeValues& values, CubePane pane, int i,
    CubeMode mode, double externalRoot = std::numeric_limits<double>::quiet_NaN(),
    std::optional<double> shown = std::nullopt);

/// The value of a call item (in its state, under the metric selection) on every thread, for the
/// distribution column and panel. Requires the metric pane left of the call pane (else the metric
/// selection is used all the same).
std::vector<double> cubeLocationValues(const CubeSpace& space, const CubeState& state, int callItem);

/// A box plot of values across locations: Tukey's quartiles (linear interpolation, as NumPy's
/// default), whiskers at the most extreme values within 1.5 IQR, and the outliers beyond.
struct BoxStats {
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0, mean = 0;
    double lowWhisker = 0, highWhisker = 0;
    std::size_t count = 0, outliers = 0;
};
BoxStats boxStats(std::vector<double> values);

} // namespace parallax
