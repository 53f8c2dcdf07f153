// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace parallax {

/// The call tree derived from " => " names (docs/SEMANTICS.md 1.4): each distinct component sequence is
/// a node whose parent is the sequence without its last component. A node of length 1 takes its
/// values from the flat event of that name; a node whose path is not itself an event is synthetic
/// (no data). A trial without call paths gives one root per flat event; with call paths, a flat
/// event that no path names (a top-level region that called nothing, as Caliper writes them) is a
/// root of its own.
class CallTree {
public:
    struct Node {
        QString label; ///< the last component
        EventId event; ///< invalid for a synthetic node
        int parent = -1;
        std::vector<int> children;
        int depth = 1;
        /// A TAU sampling (EBS) node, "[CONTEXT] …", "[SAMPLE] …" or "[SUMMARY] …", under an
        /// instrumented (non-sampled) parent: its inclusive value is a breakdown of the parent's
        /// EXCLUSIVE time by the samples taken there, not a callee. Own value + children =
        /// inclusive holds when the parent's own value is its exclusive minus these children
        /// (docs/SEMANTICS.md 6.1).
        bool sampleBreakdown = false;
        bool isSynthetic() const { return !event.isValid(); }
    };

    /// The cached tree of a trial.
    static std::shared_ptr<const CallTree> of(const Trial& trial);
    explicit CallTree(const Trial& trial);

    const std::vector<Node>& nodes() const { return m_nodes; }
    const std::vector<int>& roots() const { return m_roots; }
    /// Whether a call-tree label is a TAU sampling node ("[CONTEXT] ", "[SAMPLE] ", "[SUMMARY] ").
    static bool isSampleLabel(const QString& label);

    /// Whether a node has sampling children (Node::sampleBreakdown) that break down its exclusive time.
    bool hasSampleBreakdown(int node) const;
    /// The sum of the inclusive values of a node's sampling children (0 when it has none), each
    /// child's value given by `inclusive` (nullopt: did not run, counts as 0).
    double sampleBreakdown(int node, const std::function<std::optional<double>(int)>& inclusive) const;
    /// The one own-value rule of every tree view (docs/SEMANTICS.md 6.1): a node's own value is its
    /// exclusive value less its sampling children's inclusive values, so own + the children's
    /// inclusive values = inclusive. Negative when the samples exceed the measured exclusive time.
    double ownValue(int node, double exclusive, const std::function<std::optional<double>(int)>& inclusive) const
    {
        return exclusive - sampleBreakdown(node, inclusive);
    }

    /// The node of an event, or -1 (a flat event that only appears inside paths has none).
    int nodeOf(EventId e) const { return e.index() < m_nodeOfEvent.size() ? m_nodeOfEvent[e.index()] : -1; }
    /// TAU_CALLPATH_DEPTH = d and some path has exactly d components: nodes may be depth-limited
    /// suffixes rather than rooted paths, so totals must use flat events.
    bool isTruncated() const { return m_truncated; }
    int callPathDepthLimit() const { return m_depthLimit; }

private:
    std::vector<Node> m_nodes;
    std::vector<int> m_roots;
    std::vector<int> m_nodeOfEvent;
    bool m_truncated = false;
    int m_depthLimit = 0;
};

} // namespace parallax
