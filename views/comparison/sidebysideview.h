// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "views/viewsetup.h"

#include <QWidget>
#include <vector>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTreeView;

namespace parallax {

class ComparisonModel;

/// The "Side by side" tab of the comparison window: the ComparisonModel in a sortable, searchable
/// table (setupTreeView), with the A and B bars drawn by SideBySideBarDelegate, a legend naming the
/// two runs and a sort choice (also by clicking a column header).
class SideBySideView : public QWidget {
    Q_OBJECT
public:
    enum class Sort {
        Magnitude, ///< largest |Δ| first (the default)
        Delta, ///< Δ = A − B, largest first
        RelativeDelta, ///< Δ%, largest first
        ValueA,
        ValueB,
        Name,
    };

    explicit SideBySideView(QWidget* parent = nullptr);

    ComparisonModel* model() const { return m_model; }
    QTreeView* view() const { return m_setup.view; }
    QSortFilterProxyModel* proxy() const { return m_setup.proxy; }
    /// Sorts the rows (descending for numbers, ascending for names unless told otherwise).
    void setSort(Sort sort, Qt::SortOrder order = Qt::DescendingOrder);
    Sort sort() const { return m_sort; }
    /// The comparison events of the rows in the order shown (sorted and searched).
    std::vector<int> shownEvents() const;
    /// Writes the legend again (after another "Colour by").
    void updateLegend();
    /// Names the runs in the legend.
    void setRunNames(const QString& a, const QString& b);

Q_SIGNALS:
    /// A row was double-clicked or Enter pressed on it (a comparison event index).
    void eventActivated(int event);

private:
    void syncSortBox();

    ComparisonModel* m_model;
    ViewSetup m_setup;
    QLabel* m_legend;
    QString m_runA;
    QString m_runB;
    QComboBox* m_sortBox;
    Sort m_sort = Sort::Magnitude;
    bool m_sorting = false;
};

} // namespace parallax
