// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/common/columnfit.h"

#include <QFontMetrics>
#include <QHeaderView>
#include <QStyle>
#include <QTreeView>
#include <algorithm>

namespace parallax {

void fitColumnToContent(QTreeView* view, int column)
{
    const QHeaderView* header = view->header();
    const QStyle* style = header->style();
    const int margin = style->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    const int arrow = style->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, header);
    const QFontMetrics metrics(header->font());
    int title = 0;
    for (const QString& line : view->model()->headerData(column, Qt::Horizontal).toString().split(u'\n'))
        title = std::max(title, metrics.horizontalAdvance(line));
    const int cells = static_cast<const QAbstractItemView*>(view)->sizeHintForColumn(column);
    view->setColumnWidth(column, std::max(cells, title + 4 * margin + arrow));
}

} // namespace parallax
