// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/callgraph/callgraphnodeitem.h"

#include <QFontMetricsF>
#include <QGuiApplication>
#include <QPainter>
#include <QPalette>

namespace parallax {

namespace {

constexpr double radius = 4.0;
/// Room around the box for the selection and search outlines.
constexpr double outline = 4.0;

QColor textOn(const QColor& fill)
{
    // Relative luminance decides between dark and light text, so labels stay readable on the
    // whole sequential map (light pink to dark red).
    const double l = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return l > 0.5 ? QColor(0x20, 0x20, 0x20) : QColor(Qt::white);
}

} // namespace

QColor hotPathColor() { return { 0xb7, 0x1c, 0x1c }; }

CallGraphNodeItem::CallGraphNodeItem(int node, const QRectF& rect, QGraphicsItem* parent)
    : QGraphicsItem(parent)
    , m_node(node)
    , m_rect(rect)
    , m_fill(0xee, 0xee, 0xee)
{
    setZValue(1);
    setAcceptHoverEvents(false);
}

void CallGraphNodeItem::setText(const QString& label, const QString& value)
{
    m_label = label;
    m_value = value;
    update();
}

void CallGraphNodeItem::setFont(const QFont& font)
{
    m_font = font;
    update();
}

void CallGraphNodeItem::setFill(const QColor& fill)
{
    m_fill = fill;
    update();
}

void CallGraphNodeItem::setEmphasis(Emphasis emphasis)
{
    if (emphasis == m_emphasis)
        return;
    m_emphasis = emphasis;
    setZValue(emphasis == Emphasis::Selected ? 3 : emphasis == Emphasis::Neighbour ? 2 : 1);
    update();
}

void CallGraphNodeItem::setSearchMatch(bool match)
{
    if (match == m_searchMatch)
        return;
    m_searchMatch = match;
    update();
}

QRectF CallGraphNodeItem::boundingRect() const { return m_rect.adjusted(-outline, -outline, outline, outline); }

QPainterPath CallGraphNodeItem::shape() const
{
    QPainterPath path;
    path.addRoundedRect(m_rect, radius, radius);
    return path;
}

void CallGraphNodeItem::setHotPath(bool on)
{
    if (on == m_hotPath)
        return;
    m_hotPath = on;
    update();
}

void CallGraphNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget)
{
    Q_UNUSED(option);
    Q_UNUSED(widget);
    const QPalette palette = QGuiApplication::palette();
    painter->setRenderHint(QPainter::Antialiasing);

    if (m_searchMatch) {
        painter->setPen(QPen(QColor(0xff, 0x98, 0x00), 3.0));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(m_rect.adjusted(-2.5, -2.5, 2.5, 2.5), radius + 2, radius + 2);
    }
    // Dimmed nodes fade towards the background but keep legible (grey) text.
    const bool dimmed = m_emphasis == Emphasis::Dimmed;
    const QColor base = palette.color(QPalette::Base);
    const QColor fill = dimmed ? QColor::fromRgbF((m_fill.redF() + 3 * base.redF()) / 4,
                            (m_fill.greenF() + 3 * base.greenF()) / 4, (m_fill.blueF() + 3 * base.blueF()) / 4)
                               : m_fill;
    QPen border(dimmed ? palette.color(QPalette::Mid) : m_fill.darker(170), 1.0);
    if (m_emphasis == Emphasis::Selected)
        border = QPen(palette.color(QPalette::Highlight), 3.0);
    else if (m_emphasis == Emphasis::Neighbour)
        border = QPen(palette.color(QPalette::Highlight).darker(120), 1.8);
    else if (m_hotPath) { // still findable, fainter, while another routine is selected
        QColor hot = hotPathColor();
        hot.setAlphaF(dimmed ? 0.45f : 1.0f);
        border = QPen(hot, 2.5);
    }
    painter->setPen(border);
    painter->setBrush(fill);
    painter->drawRoundedRect(m_rect, radius, radius);

    // Name on the first line, the size value on the second; both elided to the box.
    painter->setFont(m_font);
    painter->setPen(dimmed ? palette.color(QPalette::Disabled, QPalette::Text) : textOn(fill));
    const QFontMetricsF fm(m_font);
    const QRectF inner = m_rect.adjusted(4, 2, -4, -2);
    const double line = fm.height();
    const bool twoLines = !m_value.isEmpty() && inner.height() >= 2 * line - 1;
    const double top = inner.center().y() - (twoLines ? line : line / 2);
    const QRectF first(inner.left(), top, inner.width(), line);
    painter->drawText(first, Qt::AlignCenter, fm.elidedText(m_label, Qt::ElideMiddle, inner.width()));
    if (twoLines) {
        const QRectF second(inner.left(), top + line, inner.width(), line);
        painter->drawText(second, Qt::AlignCenter, fm.elidedText(m_value, Qt::ElideRight, inner.width()));
    }
}

} // namespace parallax
