// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/common/callpathelide.h"

#include <QApplication>
#include <QFontMetrics>
#include <QPainter>
#include <QStringList>
#include <QStyle>

namespace parallax {

QString elideCallPath(const QString& name, const QFontMetrics& metrics, int width)
{
    if (metrics.horizontalAdvance(name) <= width)
        return name;
    static const QString arrow = QStringLiteral(" => ");
    const QStringList parts = name.split(arrow);
    if (parts.size() < 2)
        return metrics.elidedText(name, Qt::ElideMiddle, width);
    const QString gap = QStringLiteral("…");
    const QString& leaf = parts.last();
    // The root, the gap, then callers from the leaf upwards while they fit.
    QString tail = leaf;
    QString best;
    for (qsizetype i = parts.size() - 2; i >= 1; --i) {
        const QString candidate = parts.first() + arrow + gap + arrow + tail;
        if (metrics.horizontalAdvance(candidate) > width)
            break;
        best = candidate;
        tail = parts[i] + arrow + tail;
    }
    if (!best.isEmpty())
        return best;
    // Without the root: the gap and the leaf; the leaf itself elided when that is still too wide.
    const QString prefix = gap + arrow;
    QString shortForm = prefix + leaf;
    if (metrics.horizontalAdvance(shortForm) <= width)
        return shortForm;
    return prefix + metrics.elidedText(leaf, Qt::ElideMiddle, width - metrics.horizontalAdvance(prefix));
}

void CallPathNameDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    const QWidget* widget = opt.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget);
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    opt.text = elideCallPath(opt.text, opt.fontMetrics, textRect.width() - 2 * margin);
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
}

} // namespace parallax
