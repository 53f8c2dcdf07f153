// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/semanticprofile.h"
#include "algebra/units.h"
#include "views/common/treemodel.h"
#include "views/common/valueformatter.h"

#include <QStringList>
#include <optional>
#include <vector>

namespace parallax {

/// The semantic profile of one trial (docs/SEMANTICS.md 5) as a tree: one row per entity under its
/// parent, `(unmapped)` as a root, a synthetic "(self)" child for an entity that has children and a
/// non-zero own value (so that the displayed children sum to the parent), "n/a (aggregated)" for
/// members of an AGGREGATE. In group-by-attribute mode the top rows are the values of one attribute
/// (groupByAttribute, Σ own) with their entities as children.
///
/// Numbers follow one metric and one scope (a thread, the mean over all threads, or the total).
/// DisplayRole is formatted text, SortRole the raw number (NaN-free: n/a sorts as -inf), ToolTipRole
/// an explanation, DecorationRole of the Entity column the entity's colour (as in the charts).
class SemanticProfileModel : public NodeTreeModel {
    Q_OBJECT
public:
    enum Column {
        Entity,
        Kind,
        Own, ///< own(r) = Σ_e w(e,r)·excl(e)
        Value, ///< roll(r) = own(r) + Σ children roll(c)
        Calls, ///< own calls (fractional under AMORTIZE / WEIGHTED)
        PercentTotal, ///< 100·roll/T
        PercentParent, ///< 100·roll/roll(parent)
        Inclusive, ///< incl(r), "not derivable" when NaN
        Policy, ///< DIRECT / AMORTIZE ≈ / WEIGHTED ≈ / AGGREGATE
        Classification, ///< Table 2: 1:1, 1:n, n:1, n:m
        ColumnCount
    };
    enum class RowKind { Entity, Self, Group, GroupMember };
    enum Role {
        EntityRole = Qt::UserRole + 20, ///< int: the entity index (for Self rows: the entity itself), -1 for groups
        RowKindRole, ///< int(RowKind)
        NotAvailableRole, ///< bool: the cell is "n/a (aggregated)" or "not derivable"
    };

    explicit SemanticProfileModel(QObject* parent = nullptr);

    /// A new profile (null clears); keeps metric by name and the scope kind where possible.
    void setProfile(semantic::ProfilePtr profile);
    const semantic::ProfilePtr& profile() const { return m_profile; }
    void setMetric(MetricId metric);
    MetricId metric() const { return m_metric; }
    void setScope(const semantic::Scope& scope);
    const semantic::Scope& scope() const { return m_scope; }
    void setTimeUnit(TimeUnit unit);
    TimeUnit timeUnit() const { return m_unit; }
    /// Group-by-attribute mode with this key; empty: the entity tree.
    void setGroupByAttribute(const QString& key);
    const QString& groupByAttribute() const { return m_groupKey; }
    /// Every attribute key some entity of the profile has, sorted.
    QStringList attributeKeys() const;

    RowKind rowKind(const QModelIndex& index) const;
    /// The entity of a row (for a Self row: the entity whose own value it is); -1 for a group row.
    int entityAt(const QModelIndex& index) const;
    /// The row of an entity (column 0), invalid when not shown (group mode shows every entity once).
    QModelIndex indexOfEntity(int entity) const;
    /// The raw number of a cell (NaN when n/a or not a number column).
    double number(const QModelIndex& index) const;
    /// Formats a metric value in the current unit.
    QString formatValue(double value, int column) const;
    /// The one decimals count of a value column (Own, Value, Inclusive) over the rows, cached.
    int decimalsOf(int column) const;

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    /// What a row (a tree node) shows.
    struct Node {
        RowKind kind = RowKind::Entity;
        int entity = -1;
        int group = -1;
        // Values for the current metric and scope (NaN = n/a).
        double own = 0;
        double value = 0;
        double calls = 0;
        double percentTotal = 0;
        double percentParent = 0;
        double inclusive = 0;
        bool aggregated = false; ///< n/a (aggregated)
    };
    void rebuild();
    void recompute();
    void emitAllChanged();
    int addRow(Node node, int parent);
    const Node* nodeAt(const QModelIndex& index) const;
    QString tooltip(const Node& node, int column) const;

    semantic::ProfilePtr m_profile;
    MetricId m_metric { 0u };
    semantic::Scope m_scope = semantic::Scope::mean();
    TimeUnit m_unit = TimeUnit::Milliseconds;
    QString m_groupKey;
    std::vector<semantic::AttributeGroup> m_groups;
    std::vector<Node> m_nodes; ///< by tree node
    std::vector<int> m_entityNode; ///< per entity: its node, -1 when not shown
    ColumnDecimalsCache m_decimals; ///< decimalsOf() per column
};

} // namespace parallax
