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

} // namespace parallax
