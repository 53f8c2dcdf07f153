// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/cube/boxplotdelegate.h"

#include "views/cube/cubepanemodel.h"

#include <QApplication>
#include <QPainter>

namespace parallax {

void BoxPlotDelegate::setRange(double low, double high)
{
    m_low = low;
    m_high = high > low ? high : low + 1;
}

void BoxPlotDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    QApplication::style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
    const QVariant v = index.data(CubePaneModel::BoxRole);
    if (!v.isValid())
        return;
    const auto b = v.value<BoxStats>();
    if (b.count == 0)
        return;
    const QRectF r = QRectF(option.rect).adjusted(4, 3, -4, -3);
    auto x = [&](double value) { return r.left() + (value - m_low) / (m_high - m_low) * r.width(); };
    const QColor ink
        = option.palette.color(option.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const double mid = r.center().y();
    painter->setPen(QPen(ink, 1));
    painter->drawLine(QPointF(x(b.lowWhisker), mid), QPointF(x(b.highWhisker), mid));
    painter->drawLine(QPointF(x(b.lowWhisker), r.top() + 2), QPointF(x(b.lowWhisker), r.bottom() - 2));
    painter->drawLine(QPointF(x(b.highWhisker), r.top() + 2), QPointF(x(b.highWhisker), r.bottom() - 2));
    QColor fill = option.palette.color(QPalette::Highlight);
    fill.setAlpha(90);
    const QRectF box(QPointF(x(b.q1), r.top()), QPointF(std::max(x(b.q3), x(b.q1) + 1), r.bottom()));
    painter->fillRect(box, fill);
    painter->drawRect(box);
    painter->setPen(QPen(ink, 2));
    painter->drawLine(QPointF(x(b.median), r.top()), QPointF(x(b.median), r.bottom()));
    painter->setPen(Qt::NoPen);
    painter->setBrush(ink);
    painter->drawEllipse(QPointF(x(b.mean), mid), 2.5, 2.5);
    // Outliers: a red tick at the extreme values beyond the whiskers.
    painter->setPen(QPen(QColor(0xd6, 0x27, 0x28), 1.5));
    if (b.min < b.lowWhisker)
        painter->drawLine(QPointF(x(b.min), r.top()), QPointF(x(b.min), r.bottom()));
    if (b.max > b.highWhisker)
        painter->drawLine(QPointF(x(b.max), r.top()), QPointF(x(b.max), r.bottom()));
    painter->restore();
}

QSize BoxPlotDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setWidth(std::max(s.width(), 160));
    return s;
}

} // namespace parallax
