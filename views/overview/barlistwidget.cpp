// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/overview/barlistwidget.h"

#include "views/charts/chartexport.h"
#include "views/common/job.h"
#include "views/viewsetup.h"

#include <QContextMenuEvent>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <utility>

namespace parallax {

namespace {

constexpr int Margin = 6;
constexpr int LabelGap = 8;
constexpr int TextGap = 4;
constexpr int SeparatorHeight = 6;
/// How many of the longest labels are measured (labels of equal length have similar widths).
constexpr std::size_t MeasuredLabels = 64;

/// Width of the widest of the strings, measuring only the longest ones: 16,384 thread labels
/// need not all go through the font engine.
template <typename Get>
int widestText(const std::vector<BarRow>& rows, std::size_t from, std::size_t to, const QFontMetrics& fm, Get get)
{
    if (from >= to)
        return 0;
    qsizetype longest = 0;
    for (std::size_t i = from; i < to; ++i)
        longest = std::max(longest, get(rows[i]).size());
    int width = 0;
    std::size_t measured = 0;
    for (std::size_t i = from; i < to && measured < MeasuredLabels; ++i) {
        const QString& text = get(rows[i]);
        if (text.size() + 2 < longest)
            continue;
        width = std::max(width, fm.horizontalAdvance(text));
        ++measured;
    }
    return width;
}

} // namespace

BarListWidget::BarListWidget(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    viewport()->setMouseTracking(true);
    viewport()->setBackgroundRole(QPalette::Base);
    viewport()->setAutoFillBackground(false);
    setFrameShape(QFrame::NoFrame);
}

BarListWidget::~BarListWidget() = default;

void BarListWidget::setData(std::shared_ptr<const BarListData> data)
{
    // The rows it replaces may be a 131,072-thread layout's: they are freed on a worker.
    releaseInBackground(std::exchange(m_data, std::move(data)));
    const int rows = rowCount();
    if (m_currentRow >= rows)
        m_currentRow = rows - 1;
    if (m_selectedRow >= rows)
        m_selectedRow = -1;
    measure();
    updateScrollBars();
    viewport()->update();
}

int BarListWidget::rowCount() const { return m_data ? static_cast<int>(m_data->rows.size()) : 0; }

void BarListWidget::setTitle(const QString& title)
{
    if (title == m_title)
        return;
    m_title = title;
    updateScrollBars();
    viewport()->update();
}

void BarListWidget::setPlaceholderText(const QString& text)
{
    m_placeholder = text;
    viewport()->update();
}

void BarListWidget::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    updateScrollBars();
    viewport()->update();
}

void BarListWidget::setHighlightedKey(std::uint32_t key)
{
    if (key == m_highlightedKey)
        return;
    m_highlightedKey = key;
    viewport()->update();
}

void BarListWidget::setSelectedRow(int row)
{
    if (row < 0 || row >= rowCount())
        row = -1;
    if (row == m_selectedRow)
        return;
    m_selectedRow = row;
    viewport()->update();
}

void BarListWidget::setCurrentRow(int row)
{
    if (row < -1 || row >= rowCount())
        row = -1;
    if (row == m_currentRow)
        return;
    m_currentRow = row;
    viewport()->update();
    Q_EMIT currentRowChanged(row);
}

void BarListWidget::setMaxLabelFraction(double fraction)
{
    m_maxLabelFraction = std::clamp(fraction, 0.05, 0.9);
    viewport()->update();
}

void BarListWidget::setToolTipProvider(std::function<QString(int, int)> provider)
{
    m_toolTipProvider = std::move(provider);
}

int BarListWidget::rowHeight() const { return fontMetrics().height() + 4; }

int BarListWidget::titleWidth() const { return std::max(40, viewport()->width() - 2 * Margin); }

QStringList BarListWidget::titleLines() const
{
    if (m_title.isEmpty())
        return {};
    const QStringList given = m_title.split(QLatin1Char('\n'));
    const int width = titleWidth();
    const QFontMetrics bold(boldFont(font()));
    const QFontMetrics normal(font());
    QStringList lines { bold.elidedText(given.first(), Qt::ElideRight, width) };
    auto fits = [&](const QString& text) { return normal.horizontalAdvance(text) <= width; };
    // Greedy: as many pieces on a line as fit; a piece too long alone is broken at its spaces.
    auto wrap = [&](const QStringList& pieces, const QString& separator, QStringList& out, auto& self) -> void {
        QString line;
        for (const QString& piece : pieces) {
            const QString candidate = line.isEmpty() ? piece : line + separator + piece;
            if (fits(candidate)) {
                line = candidate;
                continue;
            }
            // The separator stays at the end of the line (" ·"), without its trailing space.
            if (!line.isEmpty())
                out << line + QStringView(separator).chopped(separator.endsWith(QLatin1Char(' ')) ? 1 : 0).toString();
            line.clear();
            if (fits(piece) || !piece.contains(QLatin1Char(' '))) {
                line = piece;
                continue;
            }
            // Broken at its spaces; its last line stays open for the next piece and its separator.
            QStringList parts;
            self(piece.split(QLatin1Char(' ')), QStringLiteral(" "), parts, self);
            line = parts.isEmpty() ? QString() : parts.takeLast();
            out << parts;
        }
        if (!line.isEmpty())
            out << line;
    };
    for (int i = 1; i < given.size(); ++i)
        wrap(given[i].split(QStringLiteral(" · ")), QStringLiteral(" · "), lines, wrap);
    return lines;
}

BarListWidget::Geometry BarListWidget::barGeometry() const
{
    Geometry g;
    g.rowHeight = rowHeight();
    g.itemHeight = m_data && m_data->itemHeight > 0 ? m_data->itemHeight : g.rowHeight;
    // A title may have further lines (the event window's imbalance figures), drawn in the normal
    // font and wrapped to the width.
    const int titleLines = m_title.isEmpty() ? 1 : static_cast<int>(this->titleLines().size());
    g.titleHeight = (m_title.isEmpty() && !m_busy) ? 0 : titleLines * g.rowHeight + 4;
    g.pinnedTop = g.titleHeight;
    const auto pinned = m_data ? static_cast<int>(std::min(m_data->pinnedRows, m_data->rows.size())) : 0;
    g.pinnedHeight = pinned * g.rowHeight + (pinned > 0 ? SeparatorHeight : 0);
    g.scrollTop = g.pinnedTop + g.pinnedHeight;
    g.width = viewport()->width();
    g.height = viewport()->height();
    g.labelX = Margin;
    g.labelWidth = std::min(m_labelWidth, static_cast<int>(g.width * m_maxLabelFraction));
    g.barX = g.labelX + g.labelWidth + (g.labelWidth > 0 ? LabelGap : 0);
    const int textReserve = m_textWidth > 0 ? m_textWidth + TextGap + 2 : 0;
    g.barWidth = std::max(20, g.width - g.barX - textReserve - Margin);
    // Each pinned row's text fits after its own bar: end * barWidth + gap + text <= the room.
    for (const auto& [end, textWidth] : m_pinnedTexts) {
        const int room = g.width - g.barX - Margin - (textWidth > 0 ? textWidth + TextGap + 2 : 0);
        if (end > 0)
            g.barWidth = std::max(20, std::min(g.barWidth, static_cast<int>(room / end)));
    }
    return g;
}

int BarListWidget::barPixel(const Geometry& g, float x) const
{
    return g.barX + static_cast<int>(std::lround(static_cast<double>(x) * g.barWidth));
}

QRect BarListWidget::segmentRect(const Geometry& g, int y, int height, const BarSegment& segment) const
{
    int x0 = barPixel(g, segment.x0);
    int x1 = barPixel(g, segment.x1);
    if (x1 < x0)
        std::swap(x0, x1);
    // Rows of a line of text keep a 2 px gap above and below; compact rows (density) touch.
    const int inset = height >= 8 ? 2 : 0;
    return QRect(x0, y + inset, x1 - x0, height - 2 * inset);
}

int BarListWidget::heightOf(const Geometry& g, int row) const
{
    return m_data && row < static_cast<int>(m_data->pinnedRows) ? g.rowHeight : g.itemHeight;
}

int BarListWidget::rowTop(const Geometry& g, int row) const
{
    const auto pinned = static_cast<int>(m_data->pinnedRows);
    if (row < pinned)
        return g.pinnedTop + row * g.rowHeight;
    return g.scrollTop + (row - pinned) * g.itemHeight - verticalScrollBar()->value();
}

int BarListWidget::rowAt(const QPoint& pos) const
{
    if (!m_data || m_data->rows.empty())
        return -1;
    const Geometry g = barGeometry();
    const int y = pos.y();
    const auto pinned = static_cast<int>(std::min(m_data->pinnedRows, m_data->rows.size()));
    if (y < g.pinnedTop || y >= g.height)
        return -1;
    if (y < g.pinnedTop + pinned * g.rowHeight)
        return (y - g.pinnedTop) / g.rowHeight;
    if (y < g.scrollTop)
        return -1;
    const int row = pinned + (y - g.scrollTop + verticalScrollBar()->value()) / g.itemHeight;
    return row < rowCount() ? row : -1;
}

int BarListWidget::segmentAt(int row, const QPoint& pos) const
{
    if (row < 0 || row >= rowCount())
        return -1;
    const Geometry g = barGeometry();
    const BarRow& r = m_data->rows[static_cast<std::size_t>(row)];
    const int y = rowTop(g, row);
    int nearest = -1;
    int nearestDistance = 3; // thin segments can be hit from 2 px away
    for (std::uint32_t i = r.firstSegment; i < r.firstSegment + r.segmentCount; ++i) {
        const QRect rect = segmentRect(g, y, heightOf(g, row), m_data->segments[i]);
        if (rect.width() > 0 && pos.x() >= rect.left() && pos.x() < rect.left() + rect.width())
            return static_cast<int>(i);
        const int distance = pos.x() < rect.left() ? rect.left() - pos.x() : pos.x() - (rect.left() + rect.width()) + 1;
        if (distance < nearestDistance) {
            nearestDistance = distance;
            nearest = static_cast<int>(i);
        }
    }
    return nearest;
}

QRect BarListWidget::rowRect(int row) const
{
    if (row < 0 || row >= rowCount())
        return {};
    const Geometry g = barGeometry();
    return QRect(0, rowTop(g, row), g.width, heightOf(g, row));
}

QRect BarListWidget::labelRect(int row) const
{
    if (row < 0 || row >= rowCount())
        return {};
    const Geometry g = barGeometry();
    return QRect(g.labelX, rowTop(g, row), g.labelWidth, heightOf(g, row));
}

QRect BarListWidget::segmentRect(int row, int segment) const
{
    if (row < 0 || row >= rowCount() || segment < 0 || static_cast<std::size_t>(segment) >= m_data->segments.size())
        return {};
    const Geometry g = barGeometry();
    return segmentRect(g, rowTop(g, row), heightOf(g, row), m_data->segments[static_cast<std::size_t>(segment)]);
}

void BarListWidget::scrollToRow(int row)
{
    if (!m_data || row < static_cast<int>(m_data->pinnedRows) || row >= rowCount())
        return;
    const Geometry g = barGeometry();
    const int top = (row - static_cast<int>(m_data->pinnedRows)) * g.itemHeight;
    const int visible = g.height - g.scrollTop;
    QScrollBar* bar = verticalScrollBar();
    if (top < bar->value())
        bar->setValue(top);
    else if (top + g.itemHeight > bar->value() + visible)
        bar->setValue(top + g.itemHeight - visible);
}

void BarListWidget::measure()
{
    m_labelWidth = 0;
    m_textWidth = 0;
    m_pinnedTexts.clear();
    if (!m_data)
        return;
    const auto& rows = m_data->rows;
    const std::size_t pinned = std::min(m_data->pinnedRows, rows.size());
    const QFontMetrics fm = fontMetrics();
    const QFontMetrics bold(boldFont(font()));
    const auto label = [](const BarRow& r) -> const QString& { return r.label; };
    const auto text = [](const BarRow& r) -> const QString& { return r.text; };
    m_labelWidth = std::max(widestText(rows, 0, pinned, bold, label), widestText(rows, pinned, rows.size(), fm, label));
    // The pinned rows' texts are fitted after their own bars (barGeometry): a long text after a short
    // bar or none (the overview's Std. Dev. and Total) takes no room from the thread bars.
    m_pinnedTexts.clear();
    for (std::size_t i = 0; i < pinned; ++i)
        m_pinnedTexts.emplace_back(rows[i].end, rows[i].text.isEmpty() ? 0 : fm.horizontalAdvance(rows[i].text));
    m_textWidth = widestText(rows, pinned, rows.size(), fm, text);
    if (m_labelWidth > 0)
        m_labelWidth += 2;
}

void BarListWidget::updateScrollBars()
{
    const Geometry g = barGeometry();
    const int scrolled = m_data ? rowCount() - static_cast<int>(std::min(m_data->pinnedRows, m_data->rows.size())) : 0;
    const int content = scrolled * g.itemHeight;
    const int visible = std::max(0, g.height - g.scrollTop);
    QScrollBar* bar = verticalScrollBar();
    bar->setRange(0, std::max(0, content - visible));
    bar->setPageStep(std::max(g.itemHeight, visible - g.rowHeight));
    bar->setSingleStep(std::max(g.itemHeight, g.rowHeight));
}

void BarListWidget::paintEvent(QPaintEvent* event)
{
    Q_EMIT aboutToPaint();
    QPainter painter(viewport());
    const QPalette& pal = palette();
    const Geometry g = barGeometry();
    painter.fillRect(event->rect(), pal.color(QPalette::Base));

    if (g.titleHeight > 0) {
        painter.setFont(boldFont(font()));
        painter.setPen(pal.color(QPalette::Text));
        const QRect titleRect(Margin, 2, g.width - 2 * Margin, g.rowHeight);
        const QStringList lines = titleLines();
        if (!lines.isEmpty())
            painter.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter, lines.first());
        painter.setFont(font());
        for (int i = 1; i < lines.size(); ++i) {
            const QRect lineRect = titleRect.translated(0, i * g.rowHeight);
            painter.drawText(lineRect, Qt::AlignLeft | Qt::AlignVCenter,
                QFontMetrics(painter.font()).elidedText(lines[i], Qt::ElideRight, lineRect.width()));
        }
        if (m_busy) {
            painter.setPen(pal.color(QPalette::PlaceholderText));
            painter.fillRect(QRect(g.width - 120, 2, 120, g.rowHeight), pal.color(QPalette::Base));
            painter.drawText(titleRect, Qt::AlignRight | Qt::AlignVCenter, tr("Computing…"));
        }
    }

    if (rowCount() == 0) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(QRect(0, g.titleHeight, g.width, g.height - g.titleHeight), Qt::AlignCenter | Qt::TextWordWrap,
            m_placeholder);
        return;
    }

    // Guides (unstacked columns) and the zero line behind the bars.
    QColor guide = pal.color(QPalette::Text);
    guide.setAlpha(40);
    painter.setPen(guide);
    for (float x : m_data->guides) {
        const int px = barPixel(g, x);
        painter.drawLine(px, g.pinnedTop, px, g.height);
    }
    if (m_data->origin > 0) {
        guide.setAlpha(120);
        painter.setPen(guide);
        const int px = barPixel(g, m_data->origin);
        painter.drawLine(px, g.pinnedTop, px, g.height);
    }

    const auto pinned = static_cast<int>(std::min(m_data->pinnedRows, m_data->rows.size()));
    for (int row = 0; row < pinned; ++row)
        paintRow(painter, g, row, g.pinnedTop + row * g.rowHeight);
    if (pinned > 0) {
        QColor line = pal.color(QPalette::Text);
        line.setAlpha(90);
        painter.setPen(line);
        const int y = g.pinnedTop + pinned * g.rowHeight + SeparatorHeight / 2;
        painter.drawLine(0, y, g.width, y);
    }

    painter.setClipRect(QRect(0, g.scrollTop, g.width, std::max(0, g.height - g.scrollTop)));
    const int value = verticalScrollBar()->value();
    const int first = value / g.itemHeight;
    int y = g.scrollTop + first * g.itemHeight - value;
    const QRect dirty = event->rect();
    for (int row = pinned + first; row < rowCount() && y < g.height; ++row, y += g.itemHeight) {
        if (y + g.itemHeight <= dirty.top() || y > dirty.bottom())
            continue;
        paintRow(painter, g, row, y);
    }
    if (g.itemHeight < g.rowHeight) {
        // Compact rows: a label every few rows, drawn over its row's band like an axis tick.
        const int every = (g.rowHeight + g.itemHeight - 1) / g.itemHeight * 2;
        painter.setPen(pal.color(QPalette::Text));
        const QFontMetrics fm(painter.font());
        for (int row = pinned + first - first % every; row < rowCount(); row += every) {
            const int top = g.scrollTop + (row - pinned) * g.itemHeight - value;
            if (top > g.height)
                break;
            const QString& label = m_data->rows[static_cast<std::size_t>(row)].label;
            if (g.labelWidth > 0 && !label.isEmpty() && row >= pinned + first)
                painter.drawText(QRect(g.labelX, top, g.labelWidth, g.rowHeight), m_data->labelAlignment | Qt::AlignTop,
                    fm.elidedText(label, Qt::ElideMiddle, g.labelWidth));
        }
    }
}

void BarListWidget::setMarkedRows(std::vector<char> marked)
{
    if (marked == m_marked)
        return;
    m_marked = std::move(marked);
    viewport()->update();
}

std::size_t BarListWidget::markedRowCount() const
{
    return static_cast<std::size_t>(std::count(m_marked.begin(), m_marked.end(), char(1)));
}

void BarListWidget::paintRow(QPainter& painter, const Geometry& g, int row, int y) const
{
    const BarRow& r = m_data->rows[static_cast<std::size_t>(row)];
    const QPalette& pal = palette();
    const int h = heightOf(g, row);
    const QRect full(0, y, g.width, h);
    if (isRowMarked(row)) {
        QColor marked(0xff, 0x98, 0x00); // the set's amber, apart from the selection's highlight
        marked.setAlpha(60);
        painter.fillRect(full, marked);
        painter.fillRect(QRect(0, y, 4, h), QColor(0xe6, 0x51, 0x00));
    }
    if (row == m_selectedRow) {
        QColor selected = pal.color(QPalette::Highlight);
        selected.setAlpha(70);
        painter.fillRect(full, selected);
    }

    if (g.labelWidth > 0 && !r.label.isEmpty() && h >= g.rowHeight) {
        const bool summary = r.kind == BarRowKind::Summary;
        if (summary)
            painter.setFont(boldFont(font()));
        const QFontMetrics fm(painter.font());
        painter.setPen(pal.color(QPalette::Text));
        painter.drawText(QRect(g.labelX, y, g.labelWidth, g.rowHeight), m_data->labelAlignment | Qt::AlignVCenter,
            fm.elidedText(r.label, Qt::ElideMiddle, g.labelWidth));
        if (summary)
            painter.setFont(font());
    }

    int highlighted = -1;
    for (std::uint32_t i = r.firstSegment; i < r.firstSegment + r.segmentCount; ++i) {
        const BarSegment& s = m_data->segments[i];
        QRect rect = segmentRect(g, y, h, s);
        // A one-pixel gap keeps neighbours of similar colour apart; thin segments stay solid.
        if (rect.width() >= 6 && r.segmentCount > 1)
            rect.setWidth(rect.width() - 1);
        else if (rect.width() == 0 && r.segmentCount == 1 && s.x1 != s.x0)
            rect.setWidth(1); // a lone non-zero value stays visible
        if (rect.width() > 0)
            painter.fillRect(rect, QColor::fromRgb(m_data->color(s.key)));
        if (s.key == m_highlightedKey && m_highlightedKey != BarSegment::NoKey)
            highlighted = static_cast<int>(i);
    }
    if (highlighted >= 0 && h >= g.rowHeight) { // compact rows: an outline would hide the bars
        QRect rect = segmentRect(g, y, h, m_data->segments[static_cast<std::size_t>(highlighted)]);
        if (rect.width() < 4)
            rect.adjust(-(4 - rect.width()) / 2 - 1, 0, (4 - rect.width()) / 2 + 1, 0);
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(pal.color(QPalette::Base), 3));
        painter.drawRect(rect.adjusted(0, -1, 0, 1));
        painter.setPen(QPen(pal.color(QPalette::Text), 2));
        painter.drawRect(rect.adjusted(0, -1, 0, 1));
    }

    if (static_cast<std::size_t>(row) < m_data->ranges.size()) {
        // A whisker: the range of the values a summary row stands for (thread density).
        const auto [lo, hi] = m_data->ranges[static_cast<std::size_t>(row)];
        if (hi > lo) {
            QColor whisker = pal.color(QPalette::Text);
            whisker.setAlpha(150);
            painter.setPen(whisker);
            const int mid = y + h / 2;
            painter.drawLine(barPixel(g, lo), mid, barPixel(g, hi), mid);
            painter.drawLine(barPixel(g, hi), y, barPixel(g, hi), y + h - 1);
        }
    }

    if (!r.text.isEmpty() && h >= g.rowHeight) {
        const int x = barPixel(g, std::max(r.end, m_data->origin)) + TextGap;
        painter.setPen(pal.color(QPalette::Text));
        painter.drawText(QRect(x, y, std::max(0, g.width - x), h), Qt::AlignLeft | Qt::AlignVCenter, r.text);
    }

    if (row == m_currentRow && hasFocus()) {
        QPen pen(pal.color(QPalette::Highlight), 1, Qt::DotLine);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(full.adjusted(0, 0, -1, -1));
    }
}

void BarListWidget::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

void BarListWidget::scrollContentsBy(int, int) { viewport()->update(); }

void BarListWidget::changeEvent(QEvent* event)
{
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        measure();
        updateScrollBars();
        viewport()->update();
    }
}

void BarListWidget::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) {
        QAbstractScrollArea::mousePressEvent(event);
        return;
    }
    const QPoint pos = event->position().toPoint();
    const int row = rowAt(pos);
    if (row < 0)
        return;
    setCurrentRow(row);
    const Geometry g = barGeometry();
    if (pos.x() < g.barX - LabelGap / 2)
        Q_EMIT labelClicked(row);
    else
        Q_EMIT segmentClicked(row, segmentAt(row, pos));
}

void BarListWidget::mouseDoubleClickEvent(QMouseEvent* event)
{
    // On a label only: a bar's single click has already done its work.
    const QPoint pos = event->position().toPoint();
    const int row = rowAt(pos);
    if (event->button() == Qt::LeftButton && row >= 0 && pos.x() < barGeometry().barX - LabelGap / 2)
        Q_EMIT rowActivated(row);
}

void BarListWidget::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    const int row = rowAt(pos);
    const Geometry g = barGeometry();
    const bool onLabel = row >= 0 && pos.x() < g.barX - LabelGap / 2 && pos.x() >= g.labelX;
    const bool onSegment = row >= 0 && !onLabel && segmentAt(row, pos) >= 0;
    viewport()->setCursor(onLabel || onSegment ? Qt::PointingHandCursor : Qt::ArrowCursor);
    QAbstractScrollArea::mouseMoveEvent(event);
}

void BarListWidget::moveCurrent(int row)
{
    if (rowCount() == 0)
        return;
    row = std::clamp(row, 0, rowCount() - 1);
    setCurrentRow(row);
    scrollToRow(row);
}

void BarListWidget::keyPressEvent(QKeyEvent* event)
{
    const Geometry g = barGeometry();
    const int page = std::max(1, (g.height - g.scrollTop) / std::max(1, g.itemHeight) - 1);
    switch (event->key()) {
    case Qt::Key_Up:
        moveCurrent(m_currentRow < 0 ? 0 : m_currentRow - 1);
        break;
    case Qt::Key_Down:
        moveCurrent(m_currentRow + 1);
        break;
    case Qt::Key_PageUp:
        moveCurrent(m_currentRow - page);
        break;
    case Qt::Key_PageDown:
        moveCurrent(m_currentRow + page);
        break;
    case Qt::Key_Home:
        moveCurrent(0);
        break;
    case Qt::Key_End:
        moveCurrent(rowCount() - 1);
        break;
    case Qt::Key_Enter:
    case Qt::Key_Return:
        if (m_currentRow >= 0)
            Q_EMIT rowActivated(m_currentRow);
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    event->accept();
}

void BarListWidget::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    if (m_menuExtension && m_data) {
        const QPoint pos = viewport()->mapFromGlobal(event->globalPos()); // from the viewport or the frame
        const int row = rowAt(pos);
        const int before = static_cast<int>(menu.actions().size());
        m_menuExtension(&menu, row, row >= 0 ? segmentAt(row, pos) : -1);
        if (menu.actions().size() > before)
            menu.addSeparator();
    }
    const auto extra = actions();
    menu.addActions(extra);
    if (!extra.isEmpty())
        menu.addSeparator();
    QAction* exportAction = menu.addAction(tr("Export Image…"));
    connect(exportAction, &QAction::triggered, this, [this] {
        exportWidgetInteractively(viewport(), this, m_exportName.isEmpty() ? tr("chart.png") : m_exportName);
    });
    menu.exec(event->globalPos());
}

bool BarListWidget::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int row = rowAt(help->pos());
        if (row >= 0) {
            const Geometry g = barGeometry();
            const int segment = help->pos().x() >= g.barX - LabelGap / 2 ? segmentAt(row, help->pos()) : -1;
            QString text;
            if (m_toolTipProvider)
                text = m_toolTipProvider(row, segment);
            else {
                const BarRow& r = m_data->rows[static_cast<std::size_t>(row)];
                text = r.text.isEmpty() ? r.label : r.label + QStringLiteral(": ") + r.text;
            }
            if (!text.isEmpty()) {
                const QRect area = segment >= 0 ? segmentRect(row, segment) : rowRect(row);
                QToolTip::showText(help->globalPos(), text, viewport(), area);
                return true;
            }
        }
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

QString BarListWidget::exportImage(const QString& fileName) { return exportWidget(viewport(), fileName); }

} // namespace parallax
