// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QAbstractItemModel>
#include <vector>

namespace parallax {

/// The base of the tree models whose rows are nodes numbered 0..n-1 (a call tree, an entity
/// tree), in the spirit of KDAB hotspot's TreeModel: index(), parent() and rowCount()
/// are written here once, on three questions a subclass answers about its nodes
/// (the shown children of a node or of the root, a node's parent, a node's row under it). A
/// subclass gives columnCount(), data() and headerData(). The node number is the index's
/// internalId(); only column 0 has children.
class TreeModel : public QAbstractItemModel {
public:
    using QAbstractItemModel::QAbstractItemModel;

    QModelIndex index(int row, int column, const QModelIndex& parent = QModelIndex()) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = QModelIndex()) const override;

protected:
    static constexpr int NoNode = -1;

    /// The shown children of `node` in row order (NoNode: the top-level rows); nullptr when the
    /// model is empty or the node unknown.
    virtual const std::vector<int>* childNodes(int node) const = 0;
    /// The parent of a shown node, NoNode for a top-level one.
    virtual int parentNode(int node) const = 0;
    /// The row of a shown node under its parent.
    virtual int rowOfNode(int node) const = 0;

    /// The node of an index of this model (NoNode for the root or an invalid index).
    static int nodeOfIndex(const QModelIndex& index)
    {
        return index.isValid() ? static_cast<int>(index.internalId()) : NoNode;
    }
    /// The index of a shown node.
    QModelIndex createNodeIndex(int node, int column = 0) const
    {
        return node < 0 ? QModelIndex() : createIndex(rowOfNode(node), column, static_cast<quintptr>(node));
    }
    /// Emits dataChanged for every row range of every level, all columns (the values changed, the
    /// rows did not: a tree view keeps its expanded rows, a sorting proxy re-sorts each level).
    void emitAllDataChanged();
};

/// A TreeModel that keeps the shape of its tree itself: a subclass adds its nodes in row order
/// (addNode) and keeps what each shows in a vector of its own, indexed by the node number.
class NodeTreeModel : public TreeModel {
public:
    using TreeModel::TreeModel;

protected:
    /// Appends a node as the last row under `parent` (NoNode: a top-level row) and returns its
    /// number: 0, 1, 2, ... in the order of the calls since clearNodes().
    int addNode(int parent);
    /// Takes a shown node out of its parent's rows (between beginRemoveRows and endRemoveRows); the
    /// rows below it move up. Its number is not reused, so a stale index of it finds no row.
    void removeNode(int node);
    /// Forgets every node (between beginResetModel and endResetModel).
    void clearNodes();
    std::size_t nodeCount() const { return m_links.size(); }
    /// The top-level nodes in row order.
    const std::vector<int>& topNodes() const { return m_top; }

    const std::vector<int>* childNodes(int node) const override;
    int parentNode(int node) const override;
    int rowOfNode(int node) const override;

private:
    struct Link {
        int parent = NoNode;
        int row = 0; ///< -1 once removed
        std::vector<int> children;
    };
    std::vector<int>& siblings(int parent);

    std::vector<int> m_top;
    std::vector<Link> m_links;
};

} // namespace parallax
