// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QStyledItemDelegate>

namespace parallax {

/// Draws a row's distribution across locations (CubePaneModel::BoxRole) as a horizontal box plot:
/// whiskers at the most extreme values within 1.5 IQR, the box from the first to the third quartile,
/// the median as a bar, the mean as a dot and outliers as ticks at the ends. All rows share one scale
/// (setRange), so rows compare by position.
class BoxPlotDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void setRange(double low, double high);
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    double m_low = 0;
    double m_high = 1;
};

} // namespace parallax
