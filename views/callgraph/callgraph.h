// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QHash>
#include <QString>
#include <cstdint>
#include <functional>
#include <vector>

namespace parallax {

/// The caller/callee graph of a trial, built from its call-path events: one node per routine
/// that appears as a component of a call path (the flat event of that name, when it exists), one
/// edge per pair of consecutive components. Unlike the call tree it needs no rooted paths, so it
/// is also right for depth-limited (truncated) call paths.
class CallGraph {
public:
    struct Node {
        QString name; ///< the routine (call-path component), as in the profile
        EventId event; ///< the flat event of that name; invalid if the profile has none
    };
    struct Edge {
        int from = -1;
        int to = -1;
        /// The call-path events that end with "from => to": their calls and values are the
        /// edge's weight. Empty when the pair only occurs inside longer paths.
        std::vector<EventId> paths;
    };

    CallGraph() = default;
    /// Builds the graph. With a filter, routines whose flat event fails it are left out, and so
    /// are their edges (routines without a flat event stay).
    explicit CallGraph(const Trial& trial, const std::function<bool(EventId)>& visible = {});

    const std::vector<Node>& nodes() const { return m_nodes; }
    const std::vector<Edge>& edges() const { return m_edges; }
    /// Whether the trial has call-path events at all (before filtering).
    bool hasCallPaths() const { return m_hasCallPaths; }
    /// The node of a routine name, or -1.
    int nodeOf(const QString& name) const { return m_byName.value(name, -1); }
    /// The node of an event: a flat event's own node, or a call path's last component; -1 if none.
    int nodeOfEvent(const Trial& trial, EventId event) const;

    /// A routine name shortened for a graph node: source locations ("[{file} {l,c}-{l,c}]"),
    /// parameter blocks, return types, argument lists and language tags are dropped
    /// ("int ns::foo(int) C [{f.c} {3,1}-{7,1}]" -> "ns::foo"), and a long name keeps its end.
    static QString shortName(const QString& name, int maxLength = 40);

private:
    std::vector<Node> m_nodes;
    std::vector<Edge> m_edges;
    QHash<QString, int> m_byName;
    bool m_hasCallPaths = false;
};

/// Which routines a call graph shows, so that it stays readable (a screen shows about 40-60 boxes
/// legibly; hundreds make a grey cloud).
struct CallGraphFocus {
    enum class Mode : std::uint8_t {
        /// The hot part: the hottest path, then the routines with the largest exclusive values, each
        /// with its heaviest chain of callers, until they carry `coverage` of the exclusive total.
        Hot,
        /// The selected routine (`centre`) and its callers and callees `depth` levels deep.
        Neighbourhood,
        /// Every routine, the largest inclusive first.
        All,
    };
    Mode mode = Mode::Hot;
    double coverage = 0.9;
    /// At most this many routines (pinned ones come on top).
    int maxNodes = 50;
    int centre = -1;
    int depth = 2;
    /// Routines the user added ("Expand Callers/Callees"): always shown.
    std::vector<int> pinned;
};

/// The routines a CallGraphFocus keeps, and the hottest path.
struct CallGraphSubset {
    std::vector<bool> shown; ///< by node
    int shownCount = 0;
    /// Σ exclusive of the shown routines / Σ exclusive of all (NaN when the total is not positive).
    double coveredShare = 0;
    /// From the root with the largest inclusive value down the heaviest caller -> callee edges.
    std::vector<int> hotPath;
    std::vector<int> hotEdges; ///< the edges between consecutive hotPath nodes
};

/// Chooses the routines to show. `inclusive` and `exclusive` by node and `edgeWeight` by edge (its
/// inclusive value) are magnitudes; NaN counts as 0.
CallGraphSubset selectCallGraph(const CallGraph& graph, const std::vector<double>& inclusive,
    const std::vector<double>& exclusive, const std::vector<double>& edgeWeight, const CallGraphFocus& focus);

} // namespace parallax
