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

QColor PercentBarDelegate::barColor(const QPalette& palette, bool selected)
{
    const QColor base = palette.color(selected ? QPalette::Highlight : QPalette::Base);
    const QColor highlight = palette.color(QPalette::Highlight);
    const QColor text = palette.color(selected ? QPalette::HighlightedText : QPalette::Text);
    const bool dark = base.lightness() < 128;
    const auto mix = [&](double t) {
        const QColor tint = selected ? (dark ? QColor(Qt::white) : QColor(Qt::black)) : highlight;
        return QColor::fromRgbF(static_cast<float>(base.redF() + (tint.redF() - base.redF()) * t),
            static_cast<float>(base.greenF() + (tint.greenF() - base.greenF()) * t),
            static_cast<float>(base.blueF() + (tint.blueF() - base.blueF()) * t));
    };
    // On a light base a light tint (as the former 27 % highlight over white); on a dark base the
    // highlight must be mixed in more to be seen at all. Then back off until the text reads.
    double t = selected ? 0.25 : (dark ? 0.5 : 0.27);
    QColor bar = mix(t);
    while (t > 0.1 && std::abs(bar.lightness() - text.lightness()) < 100) {
        t -= 0.05;
        bar = mix(t);
    }
    return bar;
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
        const QColor color = barColor(opt.palette, opt.state & QStyle::State_Selected);
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
