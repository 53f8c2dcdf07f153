// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QGraphicsView>

namespace parallax {

/// The graphics view of the call graph: drag to pan, Ctrl+wheel (or + and -) to zoom around the
/// pointer, click a node to activate it.
class CallGraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit CallGraphView(QWidget* parent = nullptr);

    /// Multiplies the zoom by factor, within [0.05, 8].
    void zoomBy(double factor);
    /// Shows the whole scene (never magnifies beyond 100 %), and keeps doing so when the view is
    /// resized until the user zooms.
    void fitAll();
    void resetZoom();
    double zoom() const;

Q_SIGNALS:
    /// A click (not a drag) on a node item; node is CallGraphNodeItem::node().
    void nodeClicked(int node);
    /// A click on the empty background.
    void backgroundClicked();
    /// A right click (or the context-menu key) on a node, at a global position.
    void nodeContextMenu(int node, const QPoint& globalPos);
    void zoomChanged(double zoom);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void fit();

    bool m_autoFit = false;
    QPoint m_pressPos;
    bool m_pressed = false;
};

} // namespace parallax
