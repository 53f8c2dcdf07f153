// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/common/flowlayout.h"

#include <QWidget>
#include <QWidgetItem>
#include <algorithm>
#include <utility>
#include <vector>

namespace parallax {

FlowLayout::FlowLayout(QWidget* parent, int hSpacing, int vSpacing)
    : QLayout(parent)
    , m_hSpacing(hSpacing)
    , m_vSpacing(vSpacing)
{
}

FlowLayout::~FlowLayout()
{
    while (QLayoutItem* item = takeAt(0))
        delete item;
}

void FlowLayout::addItem(QLayoutItem* item)
{
    m_entries.append({ item, false, std::exchange(m_pendingBreak, false) });
    invalidate();
}

void FlowLayout::insertWidget(int index, QWidget* widget)
{
    addChildWidget(widget);
    const Entry entry { new QWidgetItem(widget), false, false };
    if (index < 0 || index >= m_entries.size())
        m_entries.append(entry);
    else
        m_entries.insert(index, entry);
    invalidate();
}

void FlowLayout::addStretchWidget(QWidget* widget)
{
    addWidget(widget);
    m_entries.last().stretch = true;
}

void FlowLayout::addLineBreak() { m_pendingBreak = true; }

int FlowLayout::count() const { return static_cast<int>(m_entries.size()); }

QLayoutItem* FlowLayout::itemAt(int index) const
{
    return index >= 0 && index < m_entries.size() ? m_entries[index].item : nullptr;
}

QLayoutItem* FlowLayout::takeAt(int index)
{
    if (index < 0 || index >= m_entries.size())
        return nullptr;
    QLayoutItem* item = m_entries.takeAt(index).item;
    invalidate();
    return item;
}

Qt::Orientations FlowLayout::expandingDirections() const { return {}; }

bool FlowLayout::hasHeightForWidth() const { return true; }

int FlowLayout::heightForWidth(int width) const { return doLayout(QRect(0, 0, width, 0), false); }

QSize FlowLayout::minimumSize() const
{
    // As narrow as the widest single item: everything else wraps.
    QSize size;
    for (const Entry& e : m_entries)
        if (!e.item->isEmpty())
            size = size.expandedTo(e.stretch ? e.item->minimumSize() : e.item->sizeHint());
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const
{
    // One line when there is room for it.
    int width = 0;
    int height = 0;
    for (const Entry& e : m_entries) {
        if (e.item->isEmpty())
            continue;
        const QSize hint = e.item->sizeHint();
        width += (width > 0 ? m_hSpacing : 0) + hint.width();
        height = std::max(height, hint.height());
    }
    const QMargins m = contentsMargins();
    return { width + m.left() + m.right(), height + m.top() + m.bottom() };
}

void FlowLayout::setGeometry(const QRect& rect)
{
    QLayout::setGeometry(rect);
    doLayout(rect, true);
}

int FlowLayout::doLayout(const QRect& rect, bool apply) const
{
    const QRect area = rect.marginsRemoved(contentsMargins());
    // Lines first (which items, their height), then the geometry, so that items of one line share
    // its vertical centre and a stretch item takes what is left of its line.
    struct Line {
        int first;
        int last; // exclusive
        int width;
        int height;
    };
    std::vector<Line> lines;
    Line line { 0, 0, 0, 0 };
    for (int i = 0; i < m_entries.size(); ++i) {
        const Entry& e = m_entries[i];
        if (e.item->isEmpty()) {
            line.last = i + 1;
            continue;
        }
        const QSize hint = e.stretch ? e.item->minimumSize().expandedTo(QSize(120, 0)) : e.item->sizeHint();
        const int needed = (line.width > 0 ? m_hSpacing : 0) + hint.width();
        if (line.width > 0 && (e.breakBefore || line.width + needed > area.width())) {
            lines.push_back(line);
            line = { i, i, 0, 0 };
        }
        line.width += (line.width > 0 ? m_hSpacing : 0) + hint.width();
        line.height = std::max(line.height, e.stretch ? e.item->sizeHint().height() : hint.height());
        line.last = i + 1;
    }
    if (line.last > line.first)
        lines.push_back(line);

    int y = area.y();
    for (const Line& l : lines) {
        int x = area.x();
        for (int i = l.first; i < l.last; ++i) {
            const Entry& e = m_entries[i];
            if (e.item->isEmpty())
                continue;
            QSize size = e.stretch ? e.item->minimumSize().expandedTo(QSize(120, 0)) : e.item->sizeHint();
            if (e.stretch)
                size.setWidth(std::max(size.width(), area.right() + 1 - x));
            size.setHeight(e.stretch ? e.item->sizeHint().height() : size.height());
            if (apply)
                e.item->setGeometry(QRect(QPoint(x, y + (l.height - size.height()) / 2), size));
            x += size.width() + m_hSpacing;
        }
        y += l.height + m_vSpacing;
    }
    if (!lines.empty())
        y -= m_vSpacing;
    return y - rect.y() + contentsMargins().bottom();
}

} // namespace parallax
