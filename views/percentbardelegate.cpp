// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/percentbardelegate.h"

#include "views/viewsetup.h"

#include <QApplication>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace parallax {

PercentBarDelegate::PercentBarDelegate(QObject* parent, int role)
    : QStyledItemDelegate(parent)
    , m_role(role < 0 ? SortRole : role)
{
}

void PercentBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    const QWidget* widget = opt.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();

    // Background, selection and focus first, without text...
    const QString text = opt.text;
    opt.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    // ...then the bar...
    bool ok = false;
    const double percent = index.data(m_role).toDouble(&ok);
    if (ok && std::isfinite(percent) && percent > 0) {
        const QRect area = opt.rect.adjusted(2, 2, -2, -2);
        const int width = static_cast<int>(std::lround(area.width() * std::min(percent, 100.0) / 100.0));
        QColor color = opt.palette.color(QPalette::Highlight);
        color.setAlpha((opt.state & QStyle::State_Selected) ? 110 : 70);
        painter->fillRect(QRect(area.left(), area.top(), std::max(width, 1), area.height()), color);
    }

    // ...and the text on top.
    if (!text.isEmpty()) {
        const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget);
        const QPalette::ColorRole role
            = (opt.state & QStyle::State_Selected) ? QPalette::HighlightedText : QPalette::Text;
        const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
        const QRect inner = textRect.adjusted(margin, 0, -margin, 0);
        const QString elided = opt.fontMetrics.elidedText(text, opt.textElideMode, inner.width());
        style->drawItemText(painter, inner, static_cast<int>(opt.displayAlignment), opt.palette,
            opt.state & QStyle::State_Enabled, elided, role);
    }
}

} // namespace parallax
