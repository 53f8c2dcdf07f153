// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QColor>
#include <QFont>
#include <QGraphicsItem>

namespace parallax {

/// The colour that marks the hottest path (nodes' borders and edges).
QColor hotPathColor();

/// One routine of the call graph: a rounded box filled by a colour value, with the short name and
/// the size value as text. The box size comes from the layout (dot), which got it from the view.
class CallGraphNodeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 101 };
    /// How the node takes part in the highlight of a selected node.
    enum class Emphasis { Normal, Selected, Neighbour, Dimmed };

    CallGraphNodeItem(int node, const QRectF& rect, QGraphicsItem* parent = nullptr);

    int type() const override { return Type; }
    int node() const { return m_node; }

    void setText(const QString& label, const QString& value);
    void setFont(const QFont& font);
    void setFill(const QColor& fill);
    QColor fill() const { return m_fill; }
    void setEmphasis(Emphasis emphasis);
    Emphasis emphasis() const { return m_emphasis; }
    void setSearchMatch(bool match);
    bool isSearchMatch() const { return m_searchMatch; }
    /// On the hottest path (a heavy dark-red border).
    void setHotPath(bool on);
    bool isOnHotPath() const { return m_hotPath; }
    const QString& label() const { return m_label; }

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    int m_node;
    QRectF m_rect;
    QString m_label;
    QString m_value;
    QFont m_font;
    QColor m_fill;
    Emphasis m_emphasis = Emphasis::Normal;
    bool m_searchMatch = false;
    bool m_hotPath = false;
};

} // namespace parallax
