// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <cstddef>
#include <vector>

namespace parallax {

class TrialBuilder;

/// Turns a call tree given node by node (one name component per node) into the model's interval
/// events the way TAU names them, and per-thread node values into interval rows. Shared by the
/// readers of tree-shaped profiles (HPCToolkit, timemory, Hatchet JSON, pyinstrument).
///
/// * Every node becomes the call-path event "root => ... => node" (group TAU_CALLPATH); a root is
///   a flat event of one component.
/// * Every distinct component becomes a flat event: excl, calls and subrs are the sums over its
///   nodes, incl the sum over its outermost nodes (no ancestor with the same component), so
///   recursion is not counted twice (docs/SEMANTICS.md 1.4).
/// * Siblings with the same component: when their distinguishers differ (e.g. "node 46" for two
///   HPCToolkit frames that are both "<unknown procedure>"), the later ones are renamed
///   "name [distinguisher]" and stay separate events; otherwise they become one event whose values
///   are summed, and a warning says how many nodes were merged.
/// * subrs of a node = the sum of its children's calls.
class CallTreeEvents {
public:
    static constexpr std::size_t NoParent = static_cast<std::size_t>(-1);

    /// Per-thread node values; excl/incl are node-major: [node * metricCount + metric].
    struct ThreadValues {
        std::vector<double> excl;
        std::vector<double> incl;
        std::vector<double> calls;
        std::vector<char> present;
        void reset(std::size_t nodes, std::size_t metrics)
        {
            excl.assign(nodes * metrics, 0.0);
            incl.assign(nodes * metrics, 0.0);
            calls.assign(nodes, 0.0);
            present.assign(nodes, 0);
        }
    };

    explicit CallTreeEvents(std::size_t metricCount);

    /// Adds a node; nodes must come in depth-first pre-order (a parent before its children, and
    /// a node's subtree before its next sibling). Returns the node's index.
    std::size_t addNode(
        std::size_t parent, const QString& name, const QString& distinguisher = {}, const QStringList& groups = {});
    std::size_t nodeCount() const { return m_nodes.size(); }
    std::size_t parent(std::size_t node) const { return m_nodes[node].parent; }
    std::size_t metricCount() const { return m_metricCount; }
    /// For readers that learn the metrics after the tree (set it before computing values).
    void setMetricCount(std::size_t metrics) { m_metricCount = metrics; }

    /// Creates the events in the builder. Returns false (with `error` set) when the call-path
    /// names would exceed the budget (a pathological tree, e.g. 100,000 nested frames).
    bool createEvents(TrialBuilder& builder, QStringList& warnings, QString& error);
    EventId pathEvent(std::size_t node) const { return m_pathEvent[node]; }
    EventId flatEvent(std::size_t node) const { return m_flatEvent[node]; }
    /// The call-path name of a node (after createEvents()).
    QString pathName(std::size_t node) const;

    /// Exclusive values from inclusive ones: excl = incl - sum of the children's incl (per metric),
    /// for every node (the children of absent nodes count too).
    void exclusiveFromInclusive(ThreadValues& values) const;
    /// Inclusive values from exclusive ones: incl = excl + sum of the children's incl.
    void inclusiveFromExclusive(ThreadValues& values) const;

    /// One thread's row: the present nodes' values summed into their path and flat events.
    IntervalRow makeRow(const ThreadValues& values);

    /// Components longer than this are cut (with a warning); path names in all are limited to
    /// MaxPathCharacters.
    static constexpr qsizetype MaxComponentLength = 4096;
    static constexpr qint64 MaxPathCharacters = qint64(1) << 27;

private:
    struct Node {
        std::size_t parent;
        QString name;
        QString distinguisher;
        QStringList groups;
    };

    std::size_t m_metricCount;
    std::vector<Node> m_nodes;
    std::vector<EventId> m_pathEvent;
    std::vector<EventId> m_flatEvent;
    std::vector<char> m_outermost;
    std::vector<QString> m_component;
    std::vector<int> m_slot; // scratch for makeRow, one per event
};

} // namespace parallax
