// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/cubespace.h"
#include "algebra/units.h"

#include <QAbstractItemModel>
#include <QHash>
#include <memory>
#include <optional>
#include <vector>

namespace parallax {

class GrowthOverlay;
struct CallPathModel;

/// One pane of the CUBE browser (docs/SEMANTICS.md §6) as a tree model over a CubeSpace: the
/// value in the pane's mode, the name, and (call pane) the distribution across locations. Items
/// are made lazily (a 131,072-location system tree costs nothing until it is opened); the item id
/// is the index's internal id, so expansion and selection survive re-sorting.
class CubePaneModel : public QAbstractItemModel {
    Q_OBJECT
public:
    /// The Growth column (call pane, while growth models are attached) follows the others: growthColumn().
    enum Column { ValueColumn, NameColumn, DistributionColumn };
    enum class Sort { Tree, ValueDescending, Name };
    /// How a value's share of its mode's reference becomes a colour intensity.
    enum class Scale { Linear, Quadratic, Exponential };
    enum Role {
        ItemRole = Qt::UserRole + 1, ///< int: the item id
        ShareRole, ///< double in [-1, 1] or NaN: the value's share of the colour reference
        BoxRole, ///< QVariant holding a BoxStats (call pane, when computed)
    };

    CubePaneModel(CubePane pane, QObject* parent = nullptr);

    CubePane pane() const { return m_pane; }
    /// A new space (a new trial): resets the model.
    void setSpace(std::shared_ptr<const CubeSpace> space);
    const CubeSpace* space() const { return m_space.get(); }
    /// New values for the state they were computed for: updates every shown value.
    void setValues(std::shared_ptr<const CubeValues> values, const CubeState& state, double externalRoot);
    void setMode(CubeMode mode);
    CubeMode mode() const { return m_mode; }
    void setSort(Sort sort);
    Sort sort() const { return m_sort; }
    void setScale(Scale scale);
    /// Items whose |share| is below `percent` of the reference are left out of their parent's
    /// rows; their values stay in the parent's (an expanded parent then shows its own value plus
    /// the hidden children's), so what is shown still adds up.
    void setHideBelow(double percent);
    /// The box plots of call items (DistributionColumn); missing ones show nothing.
    void setBoxes(QHash<int, BoxStats> boxes);
    void setShowDistribution(bool on);
    /// How time values (µs) are shown; the selection's time unit.
    void setTimeUnit(TimeUnit unit);
    /// Call pane: growth at scale P (docs/SEMANTICS.md §10.6) as a column coloured by each call path's growth,
    /// its model in the tooltips; null removes the column.
    void setGrowth(std::shared_ptr<const GrowthOverlay> growth);
    /// The Growth column's index (after the distribution's), -1 without growth models.
    int growthColumn() const;
    /// The growth model row of a call item (its call path's, by name); nullptr without one.
    const CallPathModel* growthRow(int item) const;

    QModelIndex indexOfItem(int item, int column = NameColumn) const;
    int itemOf(const QModelIndex& index) const;
    /// The value text of an item ("12.345", "83.58 %", "—").
    QString valueText(int item) const;
    double modeValue(int item) const;
    /// The value an expanded item shows: its own value plus its hidden children's inclusive values.
    double shownValue(int item) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const std::vector<int>& rows(int parentItem) const;
    bool hidden(int item) const;
    double share(int item, bool shown) const;
    void relayout();
    void refreshAll();
    void computeDecimals();
    QVariant growthData(int item, int role) const;

    CubePane m_pane;
    std::shared_ptr<const CubeSpace> m_space;
    std::shared_ptr<const CubeValues> m_values;
    CubeState m_state;
    double m_externalRoot = 0;
    CubeMode m_mode = CubeMode::Absolute;
    Sort m_sort = Sort::Tree;
    Scale m_scale = Scale::Linear;
    double m_hideBelow = 0;
    bool m_showDistribution = false;
    TimeUnit m_timeUnit = TimeUnit::Milliseconds;
    QHash<int, int> m_decimals; ///< decimals by metric root (metric pane) or -1 (the others)
    QHash<int, BoxStats> m_boxes;
    mutable QHash<int, std::vector<int>> m_rows; ///< parent item (-1: roots) -> shown children in order
    mutable std::vector<int> m_rowOf; ///< item -> its row under its parent (-1: not computed / hidden)
    std::shared_ptr<const GrowthOverlay> m_growth;
    /// item -> its growth model row, -1 none, -2 not looked up yet (looked up as rows are shown).
    mutable std::vector<int> m_growthRows;
};

} // namespace parallax

Q_DECLARE_METATYPE(parallax::BoxStats)
