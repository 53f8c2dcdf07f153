// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/units.h"
#include "views/common/treemodel.h"
#include "views/common/valueformatter.h"
#include "views/comparison/comparisonbuilder.h"
#include "views/comparison/comparisonformat.h"
#include "views/viewsetup.h"

#include <QLocale>
#include <memory>
#include <optional>
#include <vector>

namespace parallax {

/// The "Statistics tree" tab: the call tree of the difference trial (the union of both runs' call
/// trees, docs/SEMANTICS.md 4.4) with A, B, Δ = A − B and Δ% per call path, inclusive and exclusive,
/// for the comparison's metric and thread choice. Δ cells are tinted blue (improvement) or red
/// (regression) by the size of the change; ◀/▶ mark paths that ran in one run only. Synthetic
/// nodes (a prefix that is not itself an event) are grey and have no values.
/// The exclusive columns show each node's OWN value by the rule of every tree view (docs/SEMANTICS.md
/// 6.1, CallTree::ownValue): under TAU sampling the [CONTEXT]/[SAMPLE]/[SUMMARY] children break down
/// the parent's exclusive time, so the parent's own value is its exclusive value less them, and own +
/// the children's inclusive values = inclusive holds for A, for B and for Δ.
/// DisplayRole is text, SortRole the raw number, ToolTipRole an explanation.
class ComparisonTreeModel : public TreeModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Marker,
        InclusiveA,
        InclusiveB,
        InclusiveDelta,
        InclusivePercent,
        ExclusiveA,
        ExclusiveB,
        ExclusiveDelta,
        ExclusivePercent,
        ColumnCount
    };
    /// The comparison event index (int) of a row; no value for synthetic nodes.
    static constexpr int EventRole = SortRole + 1;
    /// The call-tree node (int) of a row.
    static constexpr int NodeRole = SortRole + 2;

    explicit ComparisonTreeModel(QObject* parent = nullptr);

    void setSnapshot(std::shared_ptr<const ComparisonSnapshot> snapshot);
    void setValues(std::shared_ptr<const ComparisonValues> values);
    void setTimeUnit(TimeUnit unit);

    /// The row of a comparison event (column 0), invalid when it has no node.
    QModelIndex indexOfEvent(int event) const;
    /// The comparison event of a node, -1 for synthetic nodes.
    int eventOfNode(int node) const;
    /// The numbers a node's row shows (exclusive = own value, see above); null for synthetic nodes.
    const ComparisonEntry* entryOf(int node) const;
    /// Whether a node's exclusive columns are its own value less a sampling breakdown.
    bool hasSampleBreakdown(int node) const;
    /// How the Δ and Δ% cells are tinted (by Δ% by default).
    void setColourBy(ColourBy by);
    ColourBy colourBy() const { return m_colourBy; }

    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    const std::vector<int>* childNodes(int node) const override;
    int parentNode(int node) const override;
    int rowOfNode(int node) const override;

private:
    void rebuild();
    /// The profile's numbers of a node's event (exclusive as measured); null for synthetic nodes.
    const ComparisonEntry* measuredEntryOf(int node) const;
    const Metric* metric() const;
    QString toolTip(int node, int column) const;
    double tint(const ComparisonEntry& entry, CompareValue value) const;

    std::shared_ptr<const ComparisonSnapshot> m_snapshot;
    std::shared_ptr<const ComparisonValues> m_values;
    TimeUnit m_unit = TimeUnit::Milliseconds;
    QLocale m_locale;
    /// Each node's row under its parent; the largest |Δ| per value kind (tint scale).
    std::vector<int> m_row;
    /// The decimals of each column over the tree's nodes (comparePartDecimals).
    ColumnDecimalsCache m_decimals;
    int decimalsOf(int column) const;
    double m_maxDelta[2] = { 0, 0 };
    /// Per node: the shown numbers (own exclusive values), empty for synthetic nodes.
    std::vector<std::optional<ComparisonEntry>> m_shown;
    ColourBy m_colourBy = ColourBy::Percent;
};

} // namespace parallax
