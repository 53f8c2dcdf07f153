// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/calltree.h"
#include "algebra/matching.h"
#include "algebra/values.h"
#include "datasource/model/trial.h"

#include <QString>
#include <QTextStream>
#include <functional>
#include <memory>
#include <vector>

namespace parallax {

// The numbers behind flame graphs, icicles, the differential flame graph and the sandwich view
// (issue 16, docs/SEMANTICS.md §8): a FlameTree is the call tree with one inclusive and one own
// value per node for one metric and one statistic; layoutFlame() places its frames (x and width in
// the metric's units, so a view only scales); the folded-stack text of Brendan Gregg's flamegraph.pl
// and difffolded.pl is written from it. No drawing here.

/// Whose numbers a flame graph shows: a statistic across threads (MeanAll, Total, Min or Max of
/// values.h), or one thread when `thread` is valid.
struct FlameSource {
    Statistic statistic = Statistic::MeanAll;
    ThreadIndex thread;
};

/// The call tree with the values of one metric and one FlameSource.
class FlameTree {
public:
    struct Node {
        QString name; ///< the call-path component (the routine)
        EventId event; ///< the trial's call-path event; invalid for a synthetic or merged node
        int parent = -1;
        std::vector<int> children; ///< in the tree's order (call tree order)
        int depth = 0; ///< 0 for a root
        /// The node's inclusive value (a synthetic node: the sum of its children). Absent = 0.
        double inclusive = 0;
        /// The node's own (exclusive) value under the one own-value rule (CallTree::ownValue:
        /// exclusive less the TAU sampling children that break it down).
        double self = 0;
    };

    /// The tree of a trial. `mergeRecursion` folds direct recursion (a node named like its parent)
    /// into the parent: its own value is added to the parent's, its children become the parent's
    /// (merged by name with the parent's own children); inclusive values are not added twice.
    static FlameTree of(const Trial& trial, MetricId metric, FlameSource source = {}, bool mergeRecursion = false);

    const std::vector<Node>& nodes() const { return m_nodes; }
    const Node& node(int i) const { return m_nodes[static_cast<std::size_t>(i)]; }
    const std::vector<int>& roots() const { return m_roots; }
    /// The sum of the roots' inclusive values: the width of the whole graph.
    double total() const;
    /// The names from the root down to the node.
    QStringList path(int node) const;
    /// False for a flat profile (one root per routine, no call paths): a flame graph says so.
    bool hasCallPaths() const { return m_callPaths; }
    /// The trial's call paths were cut at TAU_CALLPATH_DEPTH (CallTree::isTruncated): roots may be
    /// suffixes of longer paths and total() overcounts.
    bool isTruncated() const { return m_truncated; }

    /// Builds a tree from nodes given parent first (node i's parent < i); fills roots and children
    /// and depths. For the differential and sandwich trees, and for tests.
    static FlameTree fromNodes(std::vector<Node> nodes, bool callPaths = true);

private:
    std::vector<Node> m_nodes;
    std::vector<int> m_roots;
    bool m_callPaths = true;
    bool m_truncated = false;
};

enum class FlameOrder {
    ByValue, ///< siblings by inclusive value, largest first (ties by name)
    ByName, ///< siblings by name (case-insensitive, then case-sensitive)
};

struct FlameLayoutOptions {
    FlameOrder order = FlameOrder::ByValue;
    /// Zoom: this node and its subtree fill the width; its ancestors are laid out above it as
    /// breadcrumb frames of the same width. -1: the whole tree.
    int zoom = -1;
    /// Frames narrower than this (in value units; a view passes total/pixels) are merged into one
    /// "sliver" frame per parent, placed after the parent's other children. 0: none merged.
    double minWidth = 0;
};

/// One placed frame.
struct FlameFrame {
    int node = -1; ///< the FlameTree node; -1 for a sliver
    int parent = -1; ///< the parent frame, -1 for the top frame(s)
    int depth = 0; ///< 0 = the root level (bottom of a flame graph, top of an icicle)
    double x = 0; ///< start, in value units, from 0
    double width = 0; ///< in value units
    bool sliver = false; ///< merged narrow frames
    int merged = 0; ///< how many frames a sliver stands for (their subtrees are not laid out)
    bool breadcrumb = false; ///< an ancestor of the zoomed frame
    /// The children's widths added up to more than this frame (Min, Max or a thread's values need not
    /// add up; the differential tree's max(A, B) neither): they were scaled to fit.
    bool childrenScaled = false;
};

struct FlameLayout {
    std::vector<FlameFrame> frames; ///< parents before children
    double width = 0; ///< the x range: [0, width)
    int depth = 0; ///< number of levels (max depth + 1)
};

/// Places the frames of a tree. Widths are the nodes' inclusive values (negative counts as 0); a
/// node's children start at its x, in the chosen order; if they add up to more than the node they
/// are scaled down to fit (FlameFrame::childrenScaled).
FlameLayout layoutFlame(const FlameTree& tree, const FlameLayoutOptions& options = {});

/// The result of a search.
struct FlameSearchResult {
    std::vector<int> nodes; ///< every matching node, in node order
    /// The summed inclusive value of the matches with no matching ancestor (nested matches are not
    /// counted twice), and its share of the searched tree (or subtree) in [0, 1].
    double value = 0;
    double share = 0;
};

/// The nodes whose name contains `text` (case-insensitive), under `within` (-1: the whole tree).
FlameSearchResult searchFlame(const FlameTree& tree, const QString& text, int within = -1);
/// The same with any predicate on the name.
FlameSearchResult searchFlame(
    const FlameTree& tree, const std::function<bool(const QString&)>& matches, int within = -1);

// ---- folded stacks ----

/// A frame name in folded-stack text: ';' (the separator) becomes ':' and line breaks become
/// spaces, so a line always has as many frames as the path has components (docs/FORMATS.md §9).
QString foldedFrameName(const QString& name);
/// A value in folded-stack text: a whole number without decimals, else fixed-point with up to six
/// decimals (trailing zeros dropped); never an exponent (flamegraph.pl reads neither).
QString foldedValue(double value);

/// One line per node with a non-zero own value: "a;b;c value" (the path from its root). The sum of
/// the values is the sum of the nodes' own values.
void writeFolded(const FlameTree& tree, QTextStream& out);

// ---- the differential flame graph ----

enum class FlameWidth { A, B, Max };

/// The union call tree of two runs. Call paths are matched component by component with the
/// algebra's event matching (matchKey(), docs/SEMANTICS.md 4.4), so a compiler- and a
/// source-instrumented run align under EventMatchPolicy::Routine.
class DiffFlameTree {
public:
    struct Side {
        double inclusive = 0;
        double self = 0;
        bool present = false; ///< the path exists in that run (node of its call tree)
    };

    /// `metricA` of A, and B's metric of the same name (none: B's values are 0). Nodes whose key
    /// is dropped by the matching (TAU_PARAM under Routine) are left out with their subtrees.
    static DiffFlameTree of(const Trial& a, const Trial& b, MetricId metricA, FlameSource source = {},
        const EventMatching& matching = {}, FlameWidth width = FlameWidth::Max);
    /// The union of two given trees (node names matched by their keys). With the trials, nodes of
    /// their call-path events dropped by the matching are left out as in of().
    static DiffFlameTree ofTrees(const FlameTree& a, const FlameTree& b, const EventMatching& matching = {},
        FlameWidth width = FlameWidth::Max, const Trial* trialA = nullptr, const Trial* trialB = nullptr);

    /// The union tree; its inclusive and self values are those of the chosen width (A, B, max).
    const FlameTree& tree() const { return m_tree; }
    const Side& a(int node) const { return m_a[static_cast<std::size_t>(node)]; }
    const Side& b(int node) const { return m_b[static_cast<std::size_t>(node)]; }
    /// Δ = A − B of the inclusive values (docs/SEMANTICS.md 4.6).
    double delta(int node) const { return a(node).inclusive - b(node).inclusive; }
    /// Δ% = 100·(A − B)/A; NaN when A = 0.
    double deltaPercent(int node) const;
    bool onlyInA(int node) const { return a(node).present && !b(node).present; }
    bool onlyInB(int node) const { return b(node).present && !a(node).present; }
    /// The match keys' paths (a node's names are its keys' components).
    FlameWidth width() const { return m_width; }

    /// One line per node where either own value is non-zero: "a;b;c valueA valueB".
    void writeFolded(QTextStream& out) const;

private:
    FlameTree m_tree;
    std::vector<Side> m_a;
    std::vector<Side> m_b;
    FlameWidth m_width = FlameWidth::Max;
};

// ---- the sandwich (callers and callees of one routine) ----

/// A routine merged over every call path in which it appears. Occurrences nested in another
/// occurrence of the routine (recursion) are inside that one's inclusive value and are not counted
/// again: inclusive sums the outermost occurrences only; self sums every occurrence.
struct Sandwich {
    QString routine;
    int occurrences = 0; ///< nodes named like the routine
    double inclusive = 0;
    double self = 0;
    /// The callers, inverted: the root is the routine (inclusive), its children its direct callers,
    /// theirs the callers' callers; a node's inclusive is the routine's inclusive reached that way.
    FlameTree callers;
    /// The callees: the root is the routine, below it the outermost occurrences' subtrees merged
    /// by name path.
    FlameTree callees;
};

/// The sandwich of the nodes named `routine` (exactly). No occurrence: occurrences == 0 and empty trees.
Sandwich sandwichOf(const FlameTree& tree, const QString& routine);
/// The sandwich of the nodes whose name `isRoutine` accepts, its two roots named `routine`.
Sandwich sandwichOf(
    const FlameTree& tree, const std::function<bool(const QString&)>& isRoutine, const QString& routine);

/// The sandwich of one routine in a comparison: each run's sandwich of the nodes whose match key is
/// `key` (so "MPI_Allreduce()" of a compiler-instrumented run meets "MPI_Allreduce" under Routine),
/// and the union of their callers and of their callees as differential trees (A, B, Δ per frame).
struct DiffSandwich {
    QString routine; ///< the match key
    Sandwich a;
    Sandwich b;
    DiffFlameTree callers;
    DiffFlameTree callees;
};
DiffSandwich diffSandwichOf(const Trial& a, const Trial& b, MetricId metricA, const QString& key,
    FlameSource source = {}, const EventMatching& matching = {}, FlameWidth width = FlameWidth::Max);

} // namespace parallax
