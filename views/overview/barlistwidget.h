// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "views/overview/barlistdata.h"

#include <QAbstractScrollArea>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

class QMenu;

namespace parallax {

/// A virtualised list of horizontal bars: a label column on the left, one bar area, an optional
/// text after each bar's end. Only the visible rows are painted, so 16,384 and more rows scroll
/// smoothly; the data is an immutable BarListData computed elsewhere. The first pinnedRows rows
/// (statistics) stay at the top. Hovering shows a tooltip, clicking emits segmentClicked() or
/// labelClicked(), and Up/Down/PageUp/PageDown/Home/End move the current row (Enter activates).
class BarListWidget : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit BarListWidget(QWidget* parent = nullptr);
    ~BarListWidget() override;

    /// Replaces the data; keeps the scroll position and the current row where possible.
    void setData(std::shared_ptr<const BarListData> data);
    const std::shared_ptr<const BarListData>& data() const { return m_data; }
    int rowCount() const;

    /// A caption drawn above the rows (and in exported images).
    void setTitle(const QString& title);
    QString title() const { return m_title; }
    /// The title as drawn at the current width: the first line (bold) elided at the right if it
    /// must be, each further line (the event window's imbalance figures) wrapped at its " · "
    /// separators, or at spaces, so that it is read whole at any window width.
    QStringList titleLines() const;
    /// The width the title lines are drawn in.
    int titleWidth() const;
    /// Shown instead of the rows when there are none.
    void setPlaceholderText(const QString& text);
    /// Shows "Computing…" next to the title while a new layout is on its way.
    void setBusy(bool busy);
    /// The segments with this key get an outline (the selected event); BarSegment::NoKey for none.
    void setHighlightedKey(std::uint32_t key);
    std::uint32_t highlightedKey() const { return m_highlightedKey; }
    /// A row drawn as selected (the selected thread or event), -1 for none.
    void setSelectedRow(int row);
    int selectedRow() const { return m_selectedRow; }
    /// Rows drawn as members of the selected set of threads (a cluster): by row, non-zero marks;
    /// empty for none. A marked row gets a tinted background and a bar in the label's margin.
    void setMarkedRows(std::vector<char> marked);
    bool isRowMarked(int row) const
    {
        return row >= 0 && static_cast<std::size_t>(row) < m_marked.size() && m_marked[static_cast<std::size_t>(row)];
    }
    /// How many rows are marked.
    std::size_t markedRowCount() const;
    /// The keyboard's current row, -1 for none.
    void setCurrentRow(int row);
    int currentRow() const { return m_currentRow; }
    /// Scrolls so that the row is visible (pinned rows always are).
    void scrollToRow(int row);
    /// Widest share of the width the label column may take (long names are elided); default 0.3.
    void setMaxLabelFraction(double fraction);
    /// Builds the tooltip of a row and segment (segment -1: the label or empty bar area).
    void setToolTipProvider(std::function<QString(int row, int segment)> provider);
    /// Adds entries to the context menu for the row and segment under the mouse (-1: none), before
    /// the widget's actions and Export Image….
    void setMenuExtension(std::function<void(QMenu* menu, int row, int segment)> extend)
    {
        m_menuExtension = std::move(extend);
    }
    /// File name suggested by the context menu's Export Image… action.
    void setExportName(const QString& name) { m_exportName = name; }

    /// Height of a row of text (the pinned rows, and all rows unless the data sets itemHeight).
    int rowHeight() const;
    /// The row under a viewport position, -1 for none.
    int rowAt(const QPoint& pos) const;
    /// The segment (index into data()->segments) of a row under a viewport position, -1 for none.
    int segmentAt(int row, const QPoint& pos) const;
    /// The row's rectangle in viewport coordinates (may lie outside the viewport).
    QRect rowRect(int row) const;
    QRect labelRect(int row) const;
    /// A segment's rectangle in viewport coordinates, as painted.
    QRect segmentRect(int row, int segment) const;

    /// Writes the visible chart (title, pinned and visible rows) as PNG, SVG or PDF by suffix;
    /// returns an empty string or what went wrong.
    QString exportImage(const QString& fileName);

Q_SIGNALS:
    /// A click on a row's bar area; segment is an index into data()->segments or -1.
    void segmentClicked(int row, int segment);
    void labelClicked(int row);
    /// Enter/Return on the current row, or a double click on its label.
    void rowActivated(int row);
    void currentRowChanged(int row);
    /// Emitted before each paint, so an owner can bring pending data in (headless rendering).
    void aboutToPaint();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    bool viewportEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Geometry {
        int rowHeight = 0;
        /// Height of the rows after the pinned ones (BarListData::itemHeight or rowHeight).
        int itemHeight = 0;
        int titleHeight = 0;
        int pinnedTop = 0;
        int pinnedHeight = 0;
        int scrollTop = 0;
        int width = 0;
        int height = 0;
        int labelX = 0;
        int labelWidth = 0;
        int barX = 0;
        int barWidth = 0;
    };
    Geometry barGeometry() const;
    int barPixel(const Geometry& g, float x) const;
    QRect segmentRect(const Geometry& g, int y, int height, const BarSegment& segment) const;
    int heightOf(const Geometry& g, int row) const;
    int rowTop(const Geometry& g, int row) const;
    void paintRow(QPainter& painter, const Geometry& g, int row, int y) const;
    void measure();
    void updateScrollBars();
    void moveCurrent(int row);

    std::shared_ptr<const BarListData> m_data;
    QString m_title;
    QString m_placeholder;
    std::function<void(QMenu*, int, int)> m_menuExtension;
    QString m_exportName;
    bool m_busy = false;
    std::uint32_t m_highlightedKey = BarSegment::NoKey;
    int m_selectedRow = -1;
    std::vector<char> m_marked;
    int m_currentRow = -1;
    int m_labelWidth = 0;
    int m_textWidth = 0;
    /// The pinned rows' text widths with their bar ends: a long text after a short bar (the
    /// overview's Std. Dev. and Total rows) needs no room right of the longest bars.
    std::vector<std::pair<float, int>> m_pinnedTexts;
    double m_maxLabelFraction = 0.3;
    std::function<QString(int, int)> m_toolTipProvider;
};

} // namespace parallax
