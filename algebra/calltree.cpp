// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/calltree.h"

#include <QHash>
#include <QSet>

namespace parallax {

bool CallTree::isSampleLabel(const QString& label)
{
    return label.startsWith(QLatin1String("[CONTEXT] ")) || label.startsWith(QLatin1String("[SAMPLE] "))
        || label.startsWith(QLatin1String("[SUMMARY] "));
}

std::shared_ptr<const CallTree> CallTree::of(const Trial& trial)
{
    return trial.cached<CallTree>([](const Trial& t) { return std::make_shared<const CallTree>(t); });
}

CallTree::CallTree(const Trial& trial)
    : m_nodeOfEvent(trial.eventCount(), -1)
{
    bool anyPath = false;
    int longest = 0;
    for (const auto& e : trial.events()) {
        anyPath = anyPath || e.isCallPath();
        longest = std::max(longest, e.depth);
    }
    QHash<QString, int> byPath;
    auto nodeFor = [&](const QString& path, auto&& self) -> int {
        const auto it = byPath.constFind(path);
        if (it != byPath.cend())
            return it.value();
        const qsizetype sep = path.lastIndexOf(QLatin1String(" => "));
        Node node;
        node.label = sep < 0 ? path : path.mid(sep + 4);
        node.event = trial.findEvent(path);
        if (sep >= 0) {
            node.parent = self(path.left(sep), self);
            const Node& parent = m_nodes[static_cast<std::size_t>(node.parent)];
            node.depth = parent.depth + 1;
            node.sampleBreakdown = isSampleLabel(node.label) && !isSampleLabel(parent.label);
        }
        const int id = static_cast<int>(m_nodes.size());
        m_nodes.push_back(node);
        if (node.parent >= 0)
            m_nodes[static_cast<std::size_t>(node.parent)].children.push_back(id);
        else
            m_roots.push_back(id);
        if (node.event.isValid())
            m_nodeOfEvent[node.event.index()] = id;
        byPath.insert(path, id);
        return id;
    };
    // A flat event that no call path names (a top-level region that called nothing, as Caliper
    // writes them) is a root of its own: leaving it out would drop its time from every tree view.
    QSet<QString> inPaths;
    if (anyPath)
        for (const auto& e : trial.events())
            if (e.isCallPath())
                for (const QString& part : e.name.split(QLatin1String(" => ")))
                    inPaths.insert(part);
    for (const auto& e : trial.events())
        if (e.isCallPath() || !anyPath || !inPaths.contains(e.name))
            nodeFor(e.name, nodeFor);

    bool ok = false;
    m_depthLimit = trial.metadataValue(QStringLiteral("TAU_CALLPATH_DEPTH")).toInt(&ok);
    if (!ok)
        m_depthLimit = 0;
    m_truncated = anyPath && m_depthLimit > 0 && longest >= m_depthLimit;
}

bool CallTree::hasSampleBreakdown(int node) const
{
    for (int c : m_nodes[static_cast<std::size_t>(node)].children)
        if (m_nodes[static_cast<std::size_t>(c)].sampleBreakdown)
            return true;
    return false;
}

double CallTree::sampleBreakdown(int node, const std::function<std::optional<double>(int)>& inclusive) const
{
    double sum = 0;
    for (int c : m_nodes[static_cast<std::size_t>(node)].children)
        if (m_nodes[static_cast<std::size_t>(c)].sampleBreakdown)
            sum += inclusive(c).value_or(0.0);
    return sum;
}

} // namespace parallax
