// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/semantic/semanticmatrixview.h"

#include "views/charts/chartexport.h"
#include "views/charts/chartstyle.h"
#include "views/charts/valueaxisticker.h"
#include "views/common/valueformatter.h"
#include "views/semantic/semanticformat.h"
#include "views/semantic/semanticlevelbox.h"
#include "views/viewsetup.h"

#include <QAbstractScrollArea>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax {

std::pair<QVector<double>, QVector<QString>> semanticMatrixTicks(
    double maximum, const std::optional<Metric>& metric, TimeUnit unit, bool normalized)
{
    QVector<double> ticks;
    QVector<QString> labels;
    if (normalized) {
        for (int i = 0; i <= 4; ++i) {
            ticks << 25.0 * i;
            labels << QStringLiteral("%1 %").arg(25 * i);
        }
        return { ticks, labels };
    }
    ValueAxisTicker ticker;
    ticker.setMetric(metric, unit);
    if (!(maximum > 0))
        return { { 0.0 }, { ticker.label(0, groupingLocale()) } };
    ticker.setTickCount(4);
    QVector<double> all;
    QVector<QString> allLabels;
    ticker.generate(QCPRange(0, maximum), groupingLocale(), QLatin1Char('f'), 0, all, nullptr, &allLabels);
    for (qsizetype i = 0; i < all.size() && i < allLabels.size(); ++i)
        if (all[i] >= 0 && all[i] <= maximum * (1 + 1e-9)) {
            ticks << all[i];
            labels << allLabels[i];
        }
    return { ticks, labels };
}

using namespace parallax::semantic;

/// The bars: a scroll area whose viewport paints the visible threads (or pixel columns).
class SemanticMatrixCanvas : public QAbstractScrollArea {
public:
    explicit SemanticMatrixCanvas(SemanticMatrixView* view)
        : QAbstractScrollArea(view)
        , m_view(view)
    {
        setMouseTracking(true);
        viewport()->setMouseTracking(true);
        setMinimumHeight(160);
        setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
        setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        setFrameShape(QFrame::NoFrame);
    }

    /// The threads a pixel column (or a bar) covers: [first, last).
    struct Column {
        std::size_t first = 0;
        std::size_t last = 0;
        int x = 0;
        int width = 1;
    };

    void dataChanged()
    {
        m_cache.clear();
        updateScrollBar();
        viewport()->update();
    }

    double threadsPerColumn() const { return m_threadsPerColumn; }

    QRect plotRect() const
    {
        const QFontMetrics fm(font());
        const int left = fm.horizontalAdvance(QStringLiteral("000,000.000 ms")) + 10;
        return viewport()->rect().adjusted(left, 8, -10, -(fm.height() * 2 + 8));
    }

    std::vector<Column> columns() const
    {
        std::vector<Column> out;
        const std::size_t n = m_view->m_threads;
        const QRect plot = plotRect();
        if (n == 0 || plot.width() <= 0)
            return out;
        const int barWidth = m_view->m_barWidth;
        if (barWidth <= 0) {
            const auto cols = std::min<std::size_t>(n, static_cast<std::size_t>(plot.width()));
            out.reserve(cols);
            for (std::size_t c = 0; c < cols; ++c) {
                Column col;
                col.first = c * n / cols;
                col.last = (c + 1) * n / cols;
                col.x = plot.left() + static_cast<int>(c * static_cast<std::size_t>(plot.width()) / cols);
                const int next
                    = plot.left() + static_cast<int>((c + 1) * static_cast<std::size_t>(plot.width()) / cols);
                col.width = std::max(1, next - col.x);
                out.push_back(col);
            }
            return out;
        }
        const int offset = horizontalScrollBar()->value();
        const std::size_t first = static_cast<std::size_t>(offset / barWidth);
        for (std::size_t t = first; t < n; ++t) {
            const int x = plot.left() + static_cast<int>(t) * barWidth - offset;
            if (x > plot.right())
                break;
            out.push_back({ t, t + 1, x, barWidth });
        }
        return out;
    }

    /// Mean of each slice over a column's threads (and of the thread totals), cached per layout.
    const std::vector<double>& columnValues(const std::vector<Column>& cols)
    {
        const std::size_t slices = m_view->m_slices.size();
        const std::size_t key
            = cols.empty() ? 0 : (cols.front().first * 1000003u + cols.size() * 31u + cols.back().last);
        if (key == m_cacheKey && m_cache.size() == cols.size() * (slices + 1))
            return m_cache;
        m_cacheKey = key;
        m_cache.assign(cols.size() * (slices + 1), 0.0);
        for (std::size_t c = 0; c < cols.size(); ++c) {
            const double count = static_cast<double>(cols[c].last - cols[c].first);
            double* out = &m_cache[c * (slices + 1)];
            for (std::size_t s = 0; s < slices; ++s) {
                const double* v = &m_view->m_values[s * m_view->m_threads];
                double sum = 0;
                for (std::size_t t = cols[c].first; t < cols[c].last; ++t)
                    sum += std::max(0.0, v[t]);
                out[s] = sum / count;
                out[slices] += out[s];
            }
        }
        return m_cache;
    }

    void updateScrollBar()
    {
        const int barWidth = m_view->m_barWidth;
        const QRect plot = plotRect();
        if (barWidth <= 0) {
            horizontalScrollBar()->setRange(0, 0);
            return;
        }
        const int total
            = static_cast<int>(std::min<std::size_t>(m_view->m_threads * static_cast<std::size_t>(barWidth), 1u << 30));
        horizontalScrollBar()->setRange(0, std::max(0, total - plot.width()));
        horizontalScrollBar()->setPageStep(plot.width());
        horizontalScrollBar()->setSingleStep(barWidth * 4);
    }

    /// (column, slice) under a point; slice -1 above the bar.
    std::pair<int, int> hit(const QPoint& pos)
    {
        const auto cols = columns();
        const QRect plot = plotRect();
        if (cols.empty() || !plot.contains(pos))
            return { -1, -1 };
        int c = -1;
        for (std::size_t i = 0; i < cols.size(); ++i)
            if (pos.x() >= cols[i].x && pos.x() < cols[i].x + cols[i].width) {
                c = static_cast<int>(i);
                break;
            }
        if (c < 0)
            return { -1, -1 };
        const auto& values = columnValues(cols);
        const std::size_t slices = m_view->m_slices.size();
        const double* v = &values[static_cast<std::size_t>(c) * (slices + 1)];
        const double scale = barScale();
        double y = plot.bottom();
        const double denom = m_view->m_normalized ? v[slices] : 1.0;
        for (std::size_t s = 0; s < slices; ++s) {
            const double h = denom > 0 ? v[s] / denom * scale : 0;
            if (pos.y() <= y && pos.y() > y - h)
                return { c, static_cast<int>(s) };
            y -= h;
        }
        return { c, -1 };
    }

    /// Pixels per value unit.
    double barScale() const
    {
        const QRect plot = plotRect();
        if (m_view->m_normalized)
            return plot.height();
        return m_max > 0 ? plot.height() / m_max : 0;
    }

    void setMaximum(double max) { m_max = max; }
    std::pair<QVector<double>, QVector<QString>> valueTicks() const
    {
        const Trial& trial = m_view->m_profile->trial();
        const std::optional<Metric> metric = m_view->m_metric.index() < trial.metricCount()
            ? std::optional<Metric>(trial.metric(m_view->m_metric))
            : std::nullopt;
        return semanticMatrixTicks(m_max, metric, m_view->m_unit, m_view->m_normalized);
    }
    double maximum() const { return m_max; }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QAbstractScrollArea::resizeEvent(event);
        updateScrollBar();
    }
    void scrollContentsBy(int, int) override { viewport()->update(); }

    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(viewport());
        const QPalette pal = palette();
        painter.fillRect(viewport()->rect(), pal.base());
        const QRect plot = plotRect();
        const auto cols = columns();
        const std::size_t slices = m_view->m_slices.size();
        const QFontMetrics fm(font());
        painter.setPen(pal.color(QPalette::WindowText));
        if (cols.empty() || slices == 0) {
            painter.drawText(viewport()->rect(), Qt::AlignCenter, QObject::tr("No semantic profile"));
            return;
        }
        const auto& values = columnValues(cols);
        m_threadsPerColumn
            = m_view->m_barWidth > 0 ? 1.0 : static_cast<double>(m_view->m_threads) / static_cast<double>(cols.size());
        const double scale = barScale();
        // Value axis: round ticks (0, 25,000, 50,000; never 62,623.672) by the charts' ticker.
        QColor grid = pal.color(QPalette::Mid);
        grid.setAlpha(120);
        const auto [tickValues, tickLabels] = valueTicks();
        for (qsizetype i = 0; i < tickValues.size(); ++i) {
            const double fraction = m_view->m_normalized ? tickValues[i] / 100.0 : tickValues[i] / m_max;
            const int y = plot.bottom() - static_cast<int>(std::lround(plot.height() * fraction));
            painter.setPen(QPen(grid, 1, tickValues[i] == 0 ? Qt::SolidLine : Qt::DotLine));
            painter.drawLine(plot.left(), y, plot.right(), y);
            painter.setPen(pal.color(QPalette::WindowText));
            painter.drawText(QRect(0, y - fm.height() / 2, plot.left() - 6, fm.height()),
                Qt::AlignRight | Qt::AlignVCenter, tickLabels[i]);
        }
        // Bars: thin columns are drawn without gaps, wide bars with a 1 px gap.
        for (std::size_t c = 0; c < cols.size(); ++c) {
            const double* v = &values[c * (slices + 1)];
            const double denom = m_view->m_normalized ? v[slices] : 1.0;
            if (denom <= 0)
                continue;
            double y = plot.bottom() + 1;
            const int w = cols[c].width > 3 ? cols[c].width - 1 : cols[c].width;
            for (std::size_t s = 0; s < slices; ++s) {
                const double h = v[s] / denom * scale;
                if (h <= 0)
                    continue;
                const double top = y - h;
                const int y0 = static_cast<int>(std::lround(top));
                const int y1 = static_cast<int>(std::lround(y));
                if (y1 > y0)
                    painter.fillRect(QRect(cols[c].x, y0, w, y1 - y0), m_view->m_slices[s].color);
                y = top;
            }
            const ThreadIndex hl = m_view->m_highlight;
            if (hl.isValid() && hl.index() >= cols[c].first && hl.index() < cols[c].last) {
                painter.setPen(QPen(ChartStyle::highlightColor(pal), 2));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(QRect(cols[c].x - 1, plot.top(), w + 1, plot.height()));
            }
        }
        // Thread labels: as many as fit without overlapping.
        painter.setPen(pal.color(QPalette::WindowText));
        const Trial& trial = m_view->m_profile->trial();
        const int labelWidth = fm.horizontalAdvance(QStringLiteral("00000,0,0")) + 12;
        int lastRight = -1000000;
        for (std::size_t c = 0; c < cols.size(); ++c) {
            const int centre = cols[c].x + cols[c].width / 2;
            if (centre - labelWidth / 2 < lastRight || centre + labelWidth / 2 > viewport()->width())
                continue;
            const QString label = trial.threadKey(ThreadIndex(cols[c].first)).toString();
            painter.drawLine(centre, plot.bottom() + 1, centre, plot.bottom() + 4);
            painter.drawText(
                QRect(centre - labelWidth / 2, plot.bottom() + 4, labelWidth, fm.height()), Qt::AlignHCenter, label);
            lastRight = centre + labelWidth / 2;
        }
        QString axis = QObject::tr("Thread (n,c,t) — %n thread(s)", nullptr, static_cast<int>(m_view->m_threads));
        if (m_threadsPerColumn > 1.0)
            axis += QObject::tr(", each pixel column shows the mean of %1 threads").arg(m_threadsPerColumn, 0, 'f', 1);
        painter.drawText(
            QRect(plot.left(), plot.bottom() + 4 + fm.height(), plot.width(), fm.height()), Qt::AlignHCenter, axis);
    }

    bool viewportEvent(QEvent* event) override
    {
        if (event->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(event);
            const auto [c, s] = hit(help->pos());
            if (c < 0) {
                QToolTip::hideText();
                return true;
            }
            QToolTip::showText(help->globalPos(), tooltip(c, s), viewport());
            return true;
        }
        return QAbstractScrollArea::viewportEvent(event);
    }

    void mouseReleaseEvent(QMouseEvent* event) override
    {
        const auto [c, s] = hit(event->position().toPoint());
        if (c < 0)
            return;
        const auto cols = columns();
        const Column& col = cols[static_cast<std::size_t>(c)];
        if (col.last - col.first == 1)
            Q_EMIT m_view->threadClicked(ThreadIndex(col.first));
        if (s >= 0)
            Q_EMIT m_view->entityClicked(m_view->m_slices[static_cast<std::size_t>(s)].entity);
    }

private:
    QString tooltip(int c, int s)
    {
        const auto cols = columns();
        const auto& values = columnValues(cols);
        const std::size_t slices = m_view->m_slices.size();
        const Column& col = cols[static_cast<std::size_t>(c)];
        const Trial& trial = m_view->m_profile->trial();
        const double* v = &values[static_cast<std::size_t>(c) * (slices + 1)];
        QString text = col.last - col.first == 1
            ? QObject::tr("<b>thread %1</b>").arg(trial.threadKey(ThreadIndex(col.first)).toString())
            : QObject::tr("<b>threads %1 … %2</b> (mean of %3)")
                  .arg(trial.threadKey(ThreadIndex(col.first)).toString(),
                      trial.threadKey(ThreadIndex(col.last - 1)).toString())
                  .arg(col.last - col.first);
        text += QObject::tr("<br>attributed total %1").arg(m_view->format(v[slices]));
        if (s >= 0) {
            const auto& slice = m_view->m_slices[static_cast<std::size_t>(s)];
            const double share = v[slices] > 0 ? 100.0 * v[s] / v[slices] : 0;
            text += QStringLiteral("<br><span style=\"color:%1\">■</span> %2: %3 (%4 %)")
                        .arg(slice.color.name(), slice.label.toHtmlEscaped(), m_view->format(v[s]))
                        .arg(share, 0, 'f', 1);
            const QString badge = semanticview::policyBadge(m_view->m_profile->entity(slice.entity));
            if (!badge.isEmpty())
                text += QStringLiteral(" — ") + badge.toHtmlEscaped();
        }
        return text;
    }

    SemanticMatrixView* m_view;
    std::vector<double> m_cache;
    std::size_t m_cacheKey = 0;
    double m_threadsPerColumn = 1;
    double m_max = 0;
};

SemanticMatrixView::SemanticMatrixView(QWidget* parent)
    : SemanticLevelView(SemanticLevelBox::LeavesAt::Last, tr("&Colour by:"),
        tr("Which entities colour the bars: a level of the entity tree, or the leaves"), parent)
{
    m_widthBox = new QComboBox(this);
    m_widthBox->addItem(tr("Fit all threads"), 0);
    for (int w : { 2, 4, 8, 16, 32 })
        m_widthBox->addItem(tr("%1 px per thread").arg(w), w);
    m_widthBox->setToolTip(tr("Fit: every thread in the width (when there are more threads than pixels, a column "
                              "shows the mean of its threads); a fixed width scrolls"));
    m_normalizedBox = new QCheckBox(tr("100 %"), this);
    m_normalizedBox->setToolTip(tr("Show each thread's bar as shares of its attributed total"));
    m_controls->addWidget(m_widthBox);
    m_controls->addWidget(m_normalizedBox);
    m_controls->addStretch(1);
    m_controls->addWidget(newExportButton(
        this, {}, [this] { exportWidgetInteractively(this, this, QStringLiteral("semantic-matrix.png")); }));
    m_title = new QLabel(this);
    m_title->setContentsMargins(6, 2, 6, 0);
    m_title->setWordWrap(true);
    m_title->setFont(boldFont(m_title->font()));
    m_layout->addWidget(m_title);
    m_legend = new QLabel(this);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_legend->setContentsMargins(6, 0, 6, 2);
    m_legend->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* legendScroll = new QScrollArea(this);
    legendScroll->setWidget(m_legend);
    legendScroll->setWidgetResizable(true);
    legendScroll->setFrameShape(QFrame::NoFrame);
    legendScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    legendScroll->setMaximumHeight(96);
    legendScroll->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    m_layout->addWidget(legendScroll);
    m_canvas = new SemanticMatrixCanvas(this);
    m_layout->addWidget(m_canvas, 1);

    connect(m_widthBox, &QComboBox::activated, this, [this] { setBarWidth(m_widthBox->currentData().toInt()); });
    connect(m_normalizedBox, &QCheckBox::toggled, this, &SemanticMatrixView::setNormalized);
    fillLevels();
    rebuild();
}

QWidget* SemanticMatrixView::canvas() const { return m_canvas; }

double SemanticMatrixView::threadsPerColumn() const { return m_canvas->threadsPerColumn(); }

std::pair<QVector<double>, QVector<QString>> SemanticMatrixView::valueAxis() const
{
    if (!m_profile)
        return {};
    return m_canvas->valueTicks();
}

double SemanticMatrixView::valueMaximum() const { return m_canvas->maximum(); }

void SemanticMatrixView::resetForProfile() { m_highlight = ThreadIndex(); }

void SemanticMatrixView::setNormalized(bool normalized)
{
    m_normalized = normalized;
    const QSignalBlocker block(m_normalizedBox);
    m_normalizedBox->setChecked(normalized);
    m_canvas->dataChanged();
}

void SemanticMatrixView::setBarWidth(int pixels)
{
    m_barWidth = std::max(0, pixels);
    const QSignalBlocker block(m_widthBox);
    const int i = m_widthBox->findData(m_barWidth);
    if (i >= 0)
        m_widthBox->setCurrentIndex(i);
    m_canvas->dataChanged();
}

void SemanticMatrixView::highlightThread(ThreadIndex thread)
{
    m_highlight = thread;
    m_canvas->viewport()->update();
}

void SemanticMatrixView::rebuild()
{
    m_slices.clear();
    m_values.clear();
    m_threadTotals.clear();
    m_threads = 0;
    if (!m_profile || m_metric.index() >= m_profile->metricCount()) {
        m_title->setText(tr("No semantic profile"));
        m_legend->clear();
        m_canvas->setMaximum(0);
        m_canvas->dataChanged();
        return;
    }
    const SemanticProfile& p = *m_profile;
    m_threads = p.threadCount();
    auto slices = semanticview::cut(p, m_level);
    // Per slice and thread; then order the slices by their total, largest at the bottom.
    std::vector<double> values(slices.size() * m_threads);
    std::vector<double> totals(slices.size(), 0);
    for (std::size_t s = 0; s < slices.size(); ++s)
        for (std::size_t t = 0; t < m_threads; ++t) {
            const double v = semanticview::sliceValue(p, slices[s], ThreadIndex(t), m_metric);
            values[s * m_threads + t] = v;
            totals[s] += v;
        }
    std::vector<std::size_t> order(slices.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return totals[a] > totals[b]; });
    m_values.resize(values.size());
    m_threadTotals.assign(m_threads, 0);
    QStringList legend;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const std::size_t s = order[i];
        if (totals[s] == 0)
            continue; // nothing to draw on any thread
        const std::size_t k = m_slices.size();
        m_slices.push_back(slices[s]);
        std::copy_n(&values[s * m_threads], m_threads, &m_values[k * m_threads]);
        for (std::size_t t = 0; t < m_threads; ++t)
            m_threadTotals[t] += std::max(0.0, values[s * m_threads + t]);
        legend << QStringLiteral("<span style=\"color:%1\">■</span>&nbsp;%2")
                      .arg(slices[s].color.name(),
                          slices[s].label.toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));
    }
    m_values.resize(m_slices.size() * m_threads);
    m_legend->setText(legend.join(QStringLiteral(" &nbsp; ")));
    const double max = m_threadTotals.empty() ? 0 : *std::max_element(m_threadTotals.begin(), m_threadTotals.end());
    m_canvas->setMaximum(max);
    const Trial& trial = p.trial();
    m_title->setText(
        tr("%1 — %2 per thread, stacked by %3 (%n thread(s))", nullptr, static_cast<int>(m_threads))
            .arg(p.model().name.isEmpty() ? tr("semantic model") : p.model().name, trial.metric(m_metric).name,
                m_level < 0 ? tr("leaf entity") : tr("entity at level %1").arg(m_level + 1)));
    m_canvas->dataChanged();
}

QString SemanticMatrixView::exportImage(const QString& fileName) { return exportWidget(this, fileName); }

} // namespace parallax
