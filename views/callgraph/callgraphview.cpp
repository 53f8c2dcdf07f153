// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/callgraph/callgraphview.h"

#include "views/callgraph/callgraphnodeitem.h"

#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace parallax {

namespace {

constexpr double minZoom = 0.05;
constexpr double maxZoom = 8.0;
constexpr double step = 1.25;

} // namespace

CallGraphView::CallGraphView(QWidget* parent)
    : QGraphicsView(parent)
{
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setViewportUpdateMode(QGraphicsView::BoundingRectViewportUpdate);
    setFocusPolicy(Qt::StrongFocus);
}

double CallGraphView::zoom() const { return transform().m11(); }

void CallGraphView::zoomBy(double factor)
{
    const double current = zoom();
    const double target = std::clamp(current * factor, minZoom, maxZoom);
    m_autoFit = false;
    if (std::abs(target - current) < 1e-9)
        return;
    scale(target / current, target / current);
    Q_EMIT zoomChanged(zoom());
}

void CallGraphView::fitAll()
{
    m_autoFit = true;
    fit();
}

void CallGraphView::fit()
{
    if (!scene() || scene()->items().isEmpty())
        return;
    const QRectF rect = scene()->sceneRect();
    fitInView(rect, Qt::KeepAspectRatio);
    // A small graph stays at its natural size instead of being blown up.
    if (zoom() > 1.0)
        setTransform(QTransform());
    else if (zoom() < minZoom)
        setTransform(QTransform::fromScale(minZoom, minZoom));
    centerOn(rect.center());
    Q_EMIT zoomChanged(zoom());
}

void CallGraphView::resetZoom()
{
    m_autoFit = false;
    setTransform(QTransform());
    Q_EMIT zoomChanged(zoom());
}

void CallGraphView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    if (m_autoFit)
        fit();
}

void CallGraphView::wheelEvent(QWheelEvent* event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        const double steps = event->angleDelta().y() / 120.0;
        if (steps != 0)
            zoomBy(std::pow(step, steps));
        event->accept();
        return;
    }
    QGraphicsView::wheelEvent(event);
}

void CallGraphView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(step);
        event->accept();
        return;
    case Qt::Key_Minus:
        zoomBy(1 / step);
        event->accept();
        return;
    default:
        break;
    }
    QGraphicsView::keyPressEvent(event);
}

void CallGraphView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        m_pressPos = event->position().toPoint();
        m_pressed = true;
    }
    QGraphicsView::mousePressEvent(event);
}

void CallGraphView::mouseReleaseEvent(QMouseEvent* event)
{
    QGraphicsView::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton || !m_pressed)
        return;
    m_pressed = false;
    // A click, not the end of a pan.
    if ((event->position().toPoint() - m_pressPos).manhattanLength() > 4)
        return;
    const QList<QGraphicsItem*> hits = items(event->position().toPoint());
    for (QGraphicsItem* item : hits) {
        if (item->type() == CallGraphNodeItem::Type) {
            Q_EMIT nodeClicked(static_cast<CallGraphNodeItem*>(item)->node());
            return;
        }
    }
    Q_EMIT backgroundClicked();
}

void CallGraphView::contextMenuEvent(QContextMenuEvent* event)
{
    for (QGraphicsItem* item : items(event->pos()))
        if (item->type() == CallGraphNodeItem::Type) {
            Q_EMIT nodeContextMenu(static_cast<CallGraphNodeItem*>(item)->node(), event->globalPos());
            event->accept();
            return;
        }
    QGraphicsView::contextMenuEvent(event);
}

} // namespace parallax
