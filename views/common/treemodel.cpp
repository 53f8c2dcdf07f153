// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/common/treemodel.h"

namespace parallax {

QModelIndex TreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= columnCount(parent))
        return {};
    if (parent.isValid() && (parent.model() != this || parent.column() != 0))
        return {};
    const std::vector<int>* children = childNodes(nodeOfIndex(parent));
    if (!children || static_cast<std::size_t>(row) >= children->size())
        return {};
    return createIndex(row, column, static_cast<quintptr>((*children)[static_cast<std::size_t>(row)]));
}

QModelIndex TreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    return createNodeIndex(parentNode(nodeOfIndex(child)));
}

int TreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    const std::vector<int>* children = childNodes(nodeOfIndex(parent));
    return children ? static_cast<int>(children->size()) : 0;
}

void TreeModel::emitAllDataChanged()
{
    const int columns = columnCount();
    if (columns <= 0)
        return;
    // Depth first: a level's rows, then the levels below each of them.
    std::vector<int> pending { NoNode };
    while (!pending.empty()) {
        const int node = pending.back();
        pending.pop_back();
        const std::vector<int>* children = childNodes(node);
        if (!children || children->empty())
            continue;
        const QModelIndex parent = createNodeIndex(node);
        Q_EMIT dataChanged(index(0, 0, parent), index(static_cast<int>(children->size()) - 1, columns - 1, parent));
        pending.insert(pending.end(), children->rbegin(), children->rend());
    }
}

std::vector<int>& NodeTreeModel::siblings(int parent)
{
    return parent == NoNode ? m_top : m_links[static_cast<std::size_t>(parent)].children;
}

int NodeTreeModel::addNode(int parent)
{
    const int node = static_cast<int>(m_links.size());
    // The new link first: it may move every node's children, so take the siblings after it.
    m_links.push_back(Link { parent, 0, {} });
    std::vector<int>& rows = siblings(parent);
    m_links.back().row = static_cast<int>(rows.size());
    rows.push_back(node);
    return node;
}

void NodeTreeModel::removeNode(int node)
{
    Link& link = m_links[static_cast<std::size_t>(node)];
    std::vector<int>& rows = siblings(link.parent);
    rows.erase(rows.begin() + link.row);
    for (std::size_t r = static_cast<std::size_t>(link.row); r < rows.size(); ++r)
        m_links[static_cast<std::size_t>(rows[r])].row = static_cast<int>(r);
    link.row = -1;
    link.children.clear();
}

void NodeTreeModel::clearNodes()
{
    m_top.clear();
    m_links.clear();
}

const std::vector<int>* NodeTreeModel::childNodes(int node) const
{
    if (node == NoNode)
        return &m_top;
    return static_cast<std::size_t>(node) < m_links.size() ? &m_links[static_cast<std::size_t>(node)].children
                                                           : nullptr;
}

int NodeTreeModel::parentNode(int node) const { return m_links[static_cast<std::size_t>(node)].parent; }

int NodeTreeModel::rowOfNode(int node) const { return m_links[static_cast<std::size_t>(node)].row; }

} // namespace parallax
