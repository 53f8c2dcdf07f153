// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QFont>
#include <QGraphicsItem>
#include <QPainterPath>

namespace parallax {

/// One caller -> callee edge of the call graph: dot's spline, an arrowhead at the callee and an
/// optional label (the number of calls) where dot put it.
class CallGraphEdgeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 102 };

    /// points: dot's B-spline control points (p0, then three per cubic segment).
    CallGraphEdgeItem(int edge, const QVector<QPointF>& points, QGraphicsItem* parent = nullptr);

    int type() const override { return Type; }
    int edge() const { return m_edge; }

    void setLabel(const QString& label, const QPointF& position, const QFont& font);
    /// Line width in scene units (the edge weight).
    void setWidth(double width);
    /// Highlighted edges touch the selected node; dimmed ones do not.
    void setHighlighted(bool highlighted);
    void setDimmed(bool dimmed);
    bool isHighlighted() const { return m_highlighted; }
    bool isDimmed() const { return m_dimmed; }
    /// Edges known only from inside longer paths have no values; they are drawn dashed.
    void setDashed(bool dashed);
    /// On the hottest path: drawn thicker in hotPathColor().
    void setHotPath(bool on);
    bool isOnHotPath() const { return m_hotPath; }
    const QString& label() const { return m_label; }
    /// Where the label is drawn (scene coordinates); null without a label.
    QRectF labelRect() const { return m_labelRect; }

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    void rebuild();

    int m_edge;
    QVector<QPointF> m_points;
    QPainterPath m_path;
    QPolygonF m_arrow;
    QString m_label;
    QPointF m_labelPos;
    QFont m_font;
    QRectF m_labelRect;
    double m_width = 1.0;
    bool m_highlighted = false;
    bool m_dimmed = false;
    bool m_dashed = false;
    bool m_hotPath = false;
};

} // namespace parallax
