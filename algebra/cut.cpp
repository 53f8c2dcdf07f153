// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/cut.h"

#include "algebra/calltree.h"
#include "algebra/contenthash.h"
#include "algebra/operationplan.h"
#include "datasource/model/trialbuilder.h"

#include <QDateTime>
#include <QHash>
#include <QSet>
#include <algorithm>

namespace parallax {

namespace {

using namespace detail;

const QLatin1String Sep(" => ");

struct Cell {
    bool present = false;
    double calls = 0, subrs = 0;
    std::vector<double> excl, incl;
};

/// A call tree with one cell per thread and node, built path by path.
struct Tree {
    struct Node {
        QString label;
        QString path;
        int parent = -1;
        std::vector<int> children;
        std::vector<Cell> cells;
        bool removed = false;
    };
    std::vector<Node> nodes;
    std::vector<int> roots;
    QHash<QString, int> byPath;
    std::size_t threads = 0;
    std::size_t metrics = 0;

    int add(const QString& path, const QString& label, int parent)
    {
        const auto it = byPath.constFind(path);
        if (it != byPath.cend())
            return it.value();
        Node n;
        n.label = label;
        n.path = path;
        n.parent = parent;
        n.cells.resize(threads);
        nodes.push_back(std::move(n));
        const int id = int(nodes.size()) - 1;
        (parent < 0 ? roots : nodes[std::size_t(parent)].children).push_back(id);
        byPath.insert(path, id);
        return id;
    }
    void addCell(Cell& into, const Cell& from) const
    {
        if (!from.present)
            return;
        if (!into.present) {
            into = from;
            return;
        }
        into.calls += from.calls;
        into.subrs += from.subrs;
        for (std::size_t m = 0; m < metrics; ++m) {
            into.excl[m] += from.excl[m];
            into.incl[m] += from.incl[m];
        }
    }
    /// The nodes a name means: the node of that whole path, else every node with that leaf,
    /// outermost only (a match inside another match is part of it).
    std::vector<int> find(const QString& name) const
    {
        const auto it = byPath.constFind(name);
        if (it != byPath.cend() && !nodes[std::size_t(it.value())].removed)
            return { it.value() };
        std::vector<int> out;
        std::vector<std::pair<int, bool>> stack; // node, inside a match
        for (auto r = roots.rbegin(); r != roots.rend(); ++r)
            stack.emplace_back(*r, false);
        while (!stack.empty()) {
            const auto [n, inside] = stack.back();
            stack.pop_back();
            const Node& node = nodes[std::size_t(n)];
            if (node.removed)
                continue;
            const bool match = node.label == name;
            if (match && !inside)
                out.push_back(n);
            for (auto c = node.children.rbegin(); c != node.children.rend(); ++c)
                stack.emplace_back(*c, inside || match);
        }
        return out;
    }
};

Tree treeOf(const Trial& trial)
{
    Tree tree;
    tree.threads = trial.threadCount();
    tree.metrics = trial.metricCount();
    const auto calls = CallTree::of(trial);
    // CallTree nodes are created parents first.
    std::vector<int> id(calls->nodes().size(), -1);
    for (std::size_t i = 0; i < calls->nodes().size(); ++i) {
        const CallTree::Node& n = calls->nodes()[i];
        const int parent = n.parent >= 0 ? id[std::size_t(n.parent)] : -1;
        const QString path = parent >= 0 ? tree.nodes[std::size_t(parent)].path + Sep + n.label : n.label;
        id[i] = tree.add(path, n.label, parent);
        if (!n.event.isValid())
            continue;
        for (std::size_t t = 0; t < tree.threads; ++t) {
            const RowView row = trial.row(ThreadIndex(t));
            const auto at = row.find(n.event);
            if (at < 0)
                continue;
            Cell& c = tree.nodes[std::size_t(id[i])].cells[t];
            c.present = true;
            c.calls = row.calls[std::size_t(at)];
            c.subrs = row.subrs[std::size_t(at)];
            c.excl.resize(tree.metrics);
            c.incl.resize(tree.metrics);
            for (std::size_t m = 0; m < tree.metrics; ++m) {
                c.excl[m] = row.exclusive(m, std::size_t(at));
                c.incl[m] = row.inclusive(m, std::size_t(at));
            }
        }
    }
    return tree;
}

/// The subtrees of `at` in `source`, their paths starting at the leaf of each, summed path by path.
Tree reRooted(const Tree& source, const std::vector<int>& at)
{
    Tree tree;
    tree.threads = source.threads;
    tree.metrics = source.metrics;
    for (const int top : at) {
        std::vector<std::pair<int, int>> stack { { top, -1 } }; // source node, result parent
        while (!stack.empty()) {
            const auto [n, parent] = stack.back();
            stack.pop_back();
            const Tree::Node& node = source.nodes[std::size_t(n)];
            const QString path = parent < 0 ? node.label : tree.nodes[std::size_t(parent)].path + Sep + node.label;
            const int id = tree.add(path, node.label, parent);
            for (std::size_t t = 0; t < tree.threads; ++t)
                tree.addCell(tree.nodes[std::size_t(id)].cells[t], node.cells[t]);
            for (auto c = node.children.rbegin(); c != node.children.rend(); ++c)
                stack.emplace_back(*c, id);
        }
    }
    return tree;
}

std::vector<int> preOrder(const Tree& tree)
{
    std::vector<int> out;
    std::vector<int> stack(tree.roots.rbegin(), tree.roots.rend());
    while (!stack.empty()) {
        const int n = stack.back();
        stack.pop_back();
        const Tree::Node& node = tree.nodes[std::size_t(n)];
        if (node.removed)
            continue;
        out.push_back(n);
        for (auto c = node.children.rbegin(); c != node.children.rend(); ++c)
            stack.push_back(*c);
    }
    return out;
}

void copyAtomics(TrialBuilder& builder, const Trial& source, const std::vector<std::size_t>& kept)
{
    for (std::size_t u = 0; u < source.atomicEventCount(); ++u)
        builder.addAtomicEvent(source.atomicEvent(AtomicEventId(u)).name, source.atomicEvent(AtomicEventId(u)).rawName);
    std::vector<AtomicRow> rows;
    rows.reserve(kept.size());
    for (const std::size_t t : kept)
        rows.push_back(source.atomicRow(ThreadIndex(t)));
    builder.setAtomicRows(std::move(rows));
}

} // namespace

AlgebraResult cutCallTree(
    const Trial& trial, const QString& root, const QStringList& prune, const AlgebraOptions& options)
{
    if (root.isEmpty() && prune.isEmpty())
        return AlgebraResult::failure(QStringLiteral("cut: give --root NAME or --prune NAME"));
    Tree tree = treeOf(trial);
    QStringList provenanceOptions;
    if (!root.isEmpty()) {
        const std::vector<int> at = tree.find(root);
        if (at.empty())
            return AlgebraResult::failure(
                QStringLiteral("cut: %1 has no call path or region named \"%2\"").arg(trial.name(), root));
        tree = reRooted(tree, at);
        provenanceOptions << QStringLiteral("root=") + root;
    }
    for (const QString& name : prune) {
        const std::vector<int> at = tree.find(name);
        if (at.empty())
            return AlgebraResult::failure(
                QStringLiteral("cut: %1 has no call path or region named \"%2\" to prune").arg(trial.name(), name));
        for (const int n : at) {
            Tree::Node& node = tree.nodes[std::size_t(n)];
            if (node.parent < 0)
                return AlgebraResult::failure(
                    QStringLiteral("cut: \"%1\" is a root of the call tree: there is no parent to fold it into")
                        .arg(node.path));
            Tree::Node& parent = tree.nodes[std::size_t(node.parent)];
            for (std::size_t t = 0; t < tree.threads; ++t) {
                const Cell& c = node.cells[t];
                if (!c.present)
                    continue;
                Cell& p = parent.cells[t];
                if (!p.present) { // a parent that did not run: it gets the pruned inclusive as its own
                    p.present = true;
                    p.excl.assign(tree.metrics, 0.0);
                    p.incl = c.incl;
                }
                p.subrs -= c.calls;
                for (std::size_t m = 0; m < tree.metrics; ++m)
                    p.excl[m] += c.incl[m];
            }
            std::vector<int> stack { n };
            while (!stack.empty()) {
                const int k = stack.back();
                stack.pop_back();
                tree.nodes[std::size_t(k)].removed = true;
                for (const int child : tree.nodes[std::size_t(k)].children)
                    stack.push_back(child);
            }
        }
        provenanceOptions << QStringLiteral("prune=") + name;
    }

    // The result: call-tree events in pre-order, each leaf's flat event before its first path.
    const std::vector<int> order = preOrder(tree);
    TrialBuilder builder(options.name.isEmpty() ? QStringLiteral("cut(%1)").arg(trial.name()) : options.name);
    for (const Metric& m : trial.metrics())
        builder.addMetric(m);
    std::vector<std::size_t> kept(trial.threadCount());
    for (std::size_t t = 0; t < kept.size(); ++t) {
        kept[t] = t;
        builder.addThread(trial.threadKey(ThreadIndex(t)));
    }
    QSet<QString> rootLabels;
    for (const int r : tree.roots)
        if (!tree.nodes[std::size_t(r)].removed)
            rootLabels.insert(tree.nodes[std::size_t(r)].label);
    auto groupsOf = [&](const QString& name) {
        const EventId e = trial.findEvent(name);
        return e.isValid() ? trial.groupNames(trial.event(e)) : QStringList();
    };
    // An event keeps the source location the reader recorded for its label (docs/SEMANTICS.md §12).
    auto located = [&](EventId id, const QString& label) {
        const EventId e = trial.findEvent(label);
        if (const SourceLocation* location = e.isValid() ? trial.recordedSourceLocation(e) : nullptr)
            builder.setSourceLocation(id, *location);
        return id;
    };
    std::vector<EventId> eventOf(tree.nodes.size());
    QHash<QString, EventId> flat; // labels that are no root: their flat event
    for (const int n : order) {
        const Tree::Node& node = tree.nodes[std::size_t(n)];
        if (node.parent < 0) {
            eventOf[std::size_t(n)] = located(builder.addEvent(node.label, groupsOf(node.label)), node.label);
            continue;
        }
        if (!rootLabels.contains(node.label) && !flat.contains(node.label))
            flat.insert(node.label, located(builder.addEvent(node.label, groupsOf(node.label)), node.label));
        QStringList groups = groupsOf(node.label);
        if (!groups.contains(QStringLiteral("TAU_CALLPATH")))
            groups.prepend(QStringLiteral("TAU_CALLPATH"));
        eventOf[std::size_t(n)] = located(builder.addEvent(node.path, groups), node.label);
    }
    // Flat values (docs/SEMANTICS.md 1.4): exclusive, calls and subrs summed over the nodes of a label,
    // inclusive over the outermost ones.
    std::vector<std::vector<Cell>> flatCells(static_cast<std::size_t>(flat.size()) + 1);
    QHash<QString, int> flatIndex;
    for (auto it = flat.cbegin(); it != flat.cend(); ++it)
        flatIndex.insert(it.key(), int(flatIndex.size()));
    for (auto& cells : flatCells)
        cells.resize(tree.threads);
    {
        QHash<QString, int> open;
        std::vector<int> path;
        for (const int n : order) {
            const Tree::Node& node = tree.nodes[std::size_t(n)];
            while (!path.empty() && path.back() != node.parent) {
                --open[tree.nodes[std::size_t(path.back())].label];
                path.pop_back();
            }
            const auto fi = flatIndex.constFind(node.label);
            if (node.parent >= 0 && fi != flatIndex.cend()) {
                const bool outermost = open.value(node.label) == 0;
                for (std::size_t t = 0; t < tree.threads; ++t) {
                    const Cell& c = node.cells[t];
                    if (!c.present)
                        continue;
                    Cell& f = flatCells[std::size_t(fi.value())][t];
                    if (!f.present) {
                        f.present = true;
                        f.excl.assign(tree.metrics, 0.0);
                        f.incl.assign(tree.metrics, 0.0);
                    }
                    f.calls += c.calls;
                    f.subrs += c.subrs;
                    for (std::size_t m = 0; m < tree.metrics; ++m) {
                        f.excl[m] += c.excl[m];
                        if (outermost)
                            f.incl[m] += c.incl[m];
                    }
                }
            }
            ++open[node.label];
            path.push_back(n);
        }
    }
    for (std::size_t t = 0; t < tree.threads; ++t) {
        for (const int n : order) {
            const Cell& c = tree.nodes[std::size_t(n)].cells[t];
            if (c.present)
                builder.addInterval(ThreadIndex(t), eventOf[std::size_t(n)], c.calls, c.subrs, c.excl, c.incl);
        }
        for (auto it = flat.cbegin(); it != flat.cend(); ++it) {
            const Cell& f = flatCells[std::size_t(flatIndex.value(it.key()))][t];
            if (f.present)
                builder.addInterval(ThreadIndex(t), it.value(), f.calls, f.subrs, f.excl, f.incl);
        }
    }
    copyAtomics(builder, trial, kept);
    finishUnaryResult(builder, trial, kept, QStringLiteral("cut"), provenanceOptions);
    return AlgebraResult(builder.build());
}

std::optional<std::vector<std::pair<qint64, qint64>>> parseRanges(const QString& spec, QString* error)
{
    std::vector<std::pair<qint64, qint64>> out;
    for (const QString& part : spec.split(QLatin1Char(','))) {
        const QStringList ends = part.trimmed().split(QLatin1Char('-'));
        bool ok1 = false, ok2 = false;
        const qint64 lo = ends.value(0).trimmed().toLongLong(&ok1);
        const qint64 hi = ends.size() == 2 ? ends[1].trimmed().toLongLong(&ok2) : lo;
        if (!ok1 || (ends.size() == 2 && !ok2) || ends.size() > 2 || lo < 0 || hi < lo) {
            *error = QStringLiteral("\"%1\" in \"%2\" is not a number N >= 0 or a range N-M with N <= M")
                         .arg(part.trimmed(), spec);
            return std::nullopt;
        }
        out.emplace_back(lo, hi);
    }
    return out;
}

AlgebraResult selectThreads(const Trial& trial, const QString& threads, const QString& nodes, const QString& where,
    const AlgebraOptions& options)
{
    if (threads.isEmpty() && nodes.isEmpty() && where.isEmpty())
        return AlgebraResult::failure(QStringLiteral("select: give --threads, --nodes or --where"));
    QString error;
    std::optional<std::vector<std::pair<qint64, qint64>>> threadRanges, nodeRanges;
    if (!threads.isEmpty() && !(threadRanges = parseRanges(threads, &error)))
        return AlgebraResult::failure(QStringLiteral("select: --threads: ") + error);
    if (!nodes.isEmpty() && !(nodeRanges = parseRanges(nodes, &error)))
        return AlgebraResult::failure(QStringLiteral("select: --nodes: ") + error);
    QString key, value;
    if (!where.isEmpty()) {
        const qsizetype eq = where.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return AlgebraResult::failure(QStringLiteral("select: --where \"%1\" is not KEY=VALUE").arg(where));
        key = where.left(eq);
        value = where.mid(eq + 1);
    }
    auto inRanges = [](const std::vector<std::pair<qint64, qint64>>& ranges, qint64 v) {
        return std::any_of(ranges.begin(), ranges.end(), [&](const auto& r) { return v >= r.first && v <= r.second; });
    };
    if (threadRanges)
        for (const auto& [lo, hi] : *threadRanges)
            if (hi >= qint64(trial.threadCount()))
                return AlgebraResult::failure(QStringLiteral("select: --threads %1: %2 has threads 0-%3")
                                                  .arg(threads, trial.name())
                                                  .arg(qint64(trial.threadCount()) - 1));
    std::vector<std::size_t> kept;
    for (std::size_t t = 0; t < trial.threadCount(); ++t) {
        const ThreadIndex ti(t);
        if (threadRanges && !inRanges(*threadRanges, qint64(t)))
            continue;
        if (nodeRanges && !inRanges(*nodeRanges, trial.threadKey(ti).node))
            continue;
        if (!key.isEmpty() && trial.metadataValue(key, ti) != value)
            continue;
        kept.push_back(t);
    }
    if (kept.empty())
        return AlgebraResult::failure(QStringLiteral("select: no thread of %1 matches").arg(trial.name()));
    TrialBuilder builder(options.name.isEmpty() ? QStringLiteral("select(%1)").arg(trial.name()) : options.name);
    builder.addDefinitionsOf(trial);
    std::vector<IntervalRow> rows;
    for (const std::size_t t : kept) {
        builder.addThread(trial.threadKey(ThreadIndex(t)));
        rows.push_back(trial.row(ThreadIndex(t)).toRow());
    }
    builder.setIntervalRows(std::move(rows));
    std::vector<AtomicRow> atomics;
    atomics.reserve(kept.size());
    for (const std::size_t t : kept)
        atomics.push_back(trial.atomicRow(ThreadIndex(t)));
    builder.setAtomicRows(std::move(atomics));
    QStringList o;
    if (!threads.isEmpty())
        o << QStringLiteral("threads=") + threads;
    if (!nodes.isEmpty())
        o << QStringLiteral("nodes=") + nodes;
    if (!where.isEmpty())
        o << QStringLiteral("where=") + where;
    o << QStringLiteral("kept=%1 of %2 threads").arg(kept.size()).arg(trial.threadCount());
    finishUnaryResult(builder, trial, kept, QStringLiteral("select"), o);
    return AlgebraResult(builder.build());
}

} // namespace parallax
