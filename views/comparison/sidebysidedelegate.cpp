// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/comparison/sidebysidedelegate.h"

#include "views/comparison/comparisonformat.h"
#include "views/comparison/comparisonmodel.h"

#include <QApplication>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace parallax {

SideBySideBarDelegate::SideBySideBarDelegate(QObject* parent)
    : QStyledItemDelegate(parent)
{
}

void SideBySideBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget* widget = opt.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const QRect area = opt.rect.adjusted(4, 2, -6, -2);
    if (area.width() < 4 || area.height() < 4)
        return;
    const int half = area.height() / 2;
    auto bar = [&](int role, int top, int height, const QColor& colour) {
        bool ok = false;
        const double fraction = index.data(role).toDouble(&ok);
        if (!ok || !std::isfinite(fraction))
            return;
        int width = static_cast<int>(std::lround(area.width() * std::clamp(fraction, 0.0, 1.0)));
        if (width == 0 && fraction > 0)
            width = 1; // a tiny value is still a value
        painter->fillRect(QRect(area.left(), top, width, height), colour);
    };
    bar(ComparisonModel::BarARole, area.top(), half, baselineColor());
    bar(ComparisonModel::BarBRole, area.top() + half, area.height() - half, candidateColor());
}

QSize SideBySideBarDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.setWidth(std::max(size.width(), 160));
    return size;
}

} // namespace parallax
