// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/callgraph/callgraphedgeitem.h"

#include "views/callgraph/callgraphnodeitem.h"

#include <QFontMetricsF>
#include <QGuiApplication>
#include <QPainter>
#include <QPainterPathStroker>
#include <QPalette>
#include <QStyleOptionGraphicsItem>
#include <cmath>

namespace parallax {

namespace {

/// dot leaves this much room (arrowsize 1 = 10 points) between the spline end and the node.
constexpr double arrowLength = 10.0;

} // namespace

CallGraphEdgeItem::CallGraphEdgeItem(int edge, const QVector<QPointF>& points, QGraphicsItem* parent)
    : QGraphicsItem(parent)
    , m_edge(edge)
    , m_points(points)
{
    setZValue(0);
    rebuild();
}

void CallGraphEdgeItem::rebuild()
{
    prepareGeometryChange();
    m_path = QPainterPath();
    m_arrow.clear();
    if (m_points.isEmpty())
        return;
    m_path.moveTo(m_points[0]);
    qsizetype i = 1;
    for (; i + 2 < m_points.size(); i += 3)
        m_path.cubicTo(m_points[i], m_points[i + 1], m_points[i + 2]);
    for (; i < m_points.size(); ++i)
        m_path.lineTo(m_points[i]);

    // The arrowhead continues the last segment up to the callee's border.
    const QPointF end = m_points.back();
    QPointF direction;
    for (qsizetype k = m_points.size() - 2; k >= 0; --k) {
        direction = end - m_points[k];
        if (std::hypot(direction.x(), direction.y()) > 1e-6)
            break;
    }
    const double length = std::hypot(direction.x(), direction.y());
    if (length > 1e-6) {
        const QPointF unit = direction / length;
        const QPointF normal(-unit.y(), unit.x());
        const double half = 3.5 + m_width / 2;
        const QPointF tip = end + unit * arrowLength;
        m_arrow << tip << end + normal * half << end - normal * half;
    }
    if (!m_label.isEmpty()) {
        const QFontMetricsF fm(m_font);
        const QSizeF size(fm.horizontalAdvance(m_label) + 4, fm.height());
        m_labelRect = QRectF(m_labelPos - QPointF(size.width() / 2, size.height() / 2), size);
    } else {
        m_labelRect = QRectF();
    }
}

void CallGraphEdgeItem::setLabel(const QString& label, const QPointF& position, const QFont& font)
{
    m_label = label;
    m_labelPos = position;
    m_font = font;
    rebuild();
    update();
}

void CallGraphEdgeItem::setWidth(double width)
{
    m_width = width;
    rebuild();
    update();
}

void CallGraphEdgeItem::setHighlighted(bool highlighted)
{
    if (highlighted == m_highlighted)
        return;
    m_highlighted = highlighted;
    setZValue(highlighted ? 0.5 : 0);
    update();
}

void CallGraphEdgeItem::setDimmed(bool dimmed)
{
    if (dimmed == m_dimmed)
        return;
    m_dimmed = dimmed;
    setOpacity(dimmed ? 0.2 : 1.0);
    update();
}

void CallGraphEdgeItem::setDashed(bool dashed)
{
    m_dashed = dashed;
    update();
}

QRectF CallGraphEdgeItem::boundingRect() const
{
    const double margin = m_width + 6;
    QRectF rect = m_path.boundingRect().united(m_arrow.boundingRect());
    rect = rect.adjusted(-margin, -margin, margin, margin);
    if (!m_labelRect.isNull())
        rect = rect.united(m_labelRect);
    return rect;
}

QPainterPath CallGraphEdgeItem::shape() const
{
    QPainterPathStroker stroker;
    stroker.setWidth(m_width + 6);
    QPainterPath shape = stroker.createStroke(m_path);
    shape.addPolygon(m_arrow);
    return shape;
}

void CallGraphEdgeItem::setHotPath(bool on)
{
    if (on == m_hotPath)
        return;
    m_hotPath = on;
    update();
}

void CallGraphEdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget)
{
    Q_UNUSED(option);
    Q_UNUSED(widget);
    const QPalette palette = QGuiApplication::palette();
    QColor colour = palette.color(QPalette::Text);
    colour.setAlphaF(0.55f);
    double width = m_width;
    if (m_hotPath) {
        colour = hotPathColor();
        colour.setAlphaF(m_dimmed ? 0.45f : 1.0f);
        width += 1.5;
    }
    if (m_highlighted) {
        colour = palette.color(QPalette::Highlight);
        width += 1.0;
    }
    painter->setRenderHint(QPainter::Antialiasing);
    QPen pen(colour, width, m_dashed ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap, Qt::RoundJoin);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(m_path);
    painter->setPen(Qt::NoPen);
    painter->setBrush(colour);
    painter->drawPolygon(m_arrow);
    // A label shrunk below legibility (the whole graph fitted into the window) is left out.
    const double lod = QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform());
    if (!m_label.isEmpty()
        && lod * (m_font.pixelSize() > 0 ? m_font.pixelSize() : m_font.pointSizeF() * 4 / 3) >= 6.0) {
        painter->setFont(m_font);
        painter->setPen(m_highlighted ? palette.color(QPalette::Highlight) : palette.color(QPalette::Text));
        painter->drawText(m_labelRect, Qt::AlignCenter, m_label);
    }
}

} // namespace parallax
