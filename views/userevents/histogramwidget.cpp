// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/userevents/histogramwidget.h"

#include "algebra/statistics.h"
#include "algebra/units.h"
#include "views/charts/chartexport.h"
#include "views/charts/chartstyle.h"
#include "views/charts/colors.h"
#include "views/charts/qcustomplotwrapper.h"
#include "views/charts/valueaxisticker.h"
#include "views/common/toolwindow.h"
#include "views/selectionstate.h"

#include <QHBoxLayout>
#include <QSpinBox>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace parallax {

namespace {

bool isPerCall(ValueType type) { return type == ValueType::ExclusivePerCall || type == ValueType::InclusivePerCall; }

} // namespace

int HistogramWidget::Bins::binOf(double value) const
{
    if (counts.empty())
        return -1;
    if (!(width > 0))
        return 0;
    const double position = std::floor((value - low) / width);
    const double last = static_cast<double>(counts.size() - 1);
    return static_cast<int>(std::clamp(position, 0.0, last));
}

HistogramWidget::Bins HistogramWidget::computeBins(const std::vector<double>& values, int binCount)
{
    Bins bins;
    bins.counts.assign(static_cast<std::size_t>(std::clamp(binCount, MinBins, MaxBins)), 0);
    if (values.empty())
        return bins;
    const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
    double low = *lowest;
    double high = *highest;
    if (!(high > low)) {
        // One distinct value: give it a range to sit in the middle of.
        const double half = low != 0 ? std::abs(low) * 0.05 : 0.5;
        low -= half;
        high += half;
    }
    bins.low = low;
    bins.width = (high - low) / static_cast<double>(bins.counts.size());
    for (double v : values)
        ++bins.counts[static_cast<std::size_t>(bins.binOf(v))];
    return bins;
}

HistogramWidget::HistogramWidget(SelectionState* state, QWidget* parent)
    : QWidget(parent)
    , SelectionView(this, state, {})
    , m_state(state)
{
    const auto [layout, bar] = addControlBar(this, 4);
    layout->setContentsMargins(6, 4, 6, 4); // no control touches the dock's edge
    m_binBox = new QSpinBox(this);
    m_binBox->setRange(MinBins, MaxBins);
    m_binBox->setValue(m_binCount);
    m_binBox->setToolTip(tr("Number of equal-width bins between the smallest and the largest value"));
    addLabelled(bar, tr("&Bins:"), m_binBox);
    bar->addStretch(1);
    bar->addWidget(newExportButton(this, tr("Save the histogram as PNG, SVG or PDF"), [this] {
        QString name = QStringLiteral("histogram");
        if (m_state && m_state->trial() && m_state->event().isValid())
            name += QLatin1Char('-') + m_state->trial()->event(m_state->event()).name;
        ChartStyle::exportPlotInteractively(m_plot, this, imageFileName(name));
    }));

    m_plot = new QCustomPlot(this);
    m_plot->setMinimumSize(200, 150);
    m_title = ChartStyle::addTitle(m_plot);
    m_valueTicker = QSharedPointer<ValueAxisTicker>::create();
    m_plot->xAxis->setTicker(m_valueTicker);
    auto countTicker = QSharedPointer<QCPAxisTickerFixed>::create();
    countTicker->setTickStep(1.0);
    countTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->yAxis->setTicker(countTicker);
    m_plot->yAxis->setLabel(tr("Threads"));
    m_plot->xAxis->grid()->setVisible(false);
    m_bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_bars->setWidthType(QCPBars::wtPlotCoords);
    m_bars->setSelectable(QCP::stNone);
    m_selectedBar = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_selectedBar->setWidthType(QCPBars::wtPlotCoords);
    m_selectedBar->setSelectable(QCP::stNone);
    m_selectedLabel = new QCPItemText(m_plot);
    m_selectedLabel->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    m_selectedLabel->position->setType(QCPItemPosition::ptPlotCoords);
    m_selectedLabel->setPadding(QMargins(2, 0, 2, 2));
    m_selectedLabel->setVisible(false);
    m_plot->setMouseTracking(true);
    m_plot->installEventFilter(this);
    layout->addWidget(m_plot, 1);
    ChartStyle::apply(m_plot);

    connect(m_binBox, &QSpinBox::valueChanged, this, &HistogramWidget::setBinCount);
    connect(m_plot, &QCustomPlot::mouseMove, this, &HistogramWidget::showToolTip);

    rebuild();
}

void HistogramWidget::selectionChanged(SelectionChanges changes)
{
    if (changes
        & (SelectionChange::Trial | SelectionChange::Metric | SelectionChange::ValueType | SelectionChange::TimeUnit
            | SelectionChange::Event))
        rebuild();
    if ((changes & SelectionChange::Thread) && !(changes & SelectionChange::Trial))
        updateHighlight();
}

HistogramWidget::~HistogramWidget() = default;

void HistogramWidget::setBinCount(int bins)
{
    bins = std::clamp(bins, MinBins, MaxBins);
    if (bins == m_binCount)
        return;
    m_binCount = bins;
    m_binBox->setValue(bins);
    rebuild();
    Q_EMIT binCountChanged(bins);
}

QString HistogramWidget::format(double value) const { return m_valueTicker->label(value, ChartStyle::locale()); }

QString HistogramWidget::formatWithUnit(double value) const
{
    const ValueType type = m_state->valueType();
    if (isPercent(type))
        return format(value) + QLatin1String(" %");
    if (!isMetricValued(type) || m_state->timeUnit() == TimeUnit::HoursMinutesSeconds)
        return format(value);
    const QString unit = unitLabel(m_state->trial()->metric(m_state->metric()), m_state->timeUnit());
    return unit.isEmpty() ? format(value) : format(value) + QLatin1Char(' ') + unit;
}

QString HistogramWidget::axisTitle() const
{
    const Trial& trial = *m_state->trial();
    const ValueType type = m_state->valueType();
    const Metric& metric = trial.metric(m_state->metric());
    if (isMetricValued(type)) {
        const QString unit = unitLabel(metric, m_state->timeUnit());
        const QString title = tr("%1 %2").arg(valueTypeName(type), metric.name);
        return unit.isEmpty() ? title : tr("%1 (%2)").arg(title, unit);
    }
    if (isPercent(type))
        return tr("%1 of the thread's top inclusive %2").arg(valueTypeName(type), metric.name);
    return valueTypeName(type);
}

void HistogramWidget::rebuild()
{
    m_present.clear();
    m_absent = 0;
    m_bars->data()->clear();
    const std::shared_ptr<const Trial> trial = m_state ? m_state->trial() : nullptr;
    const EventId event = m_state ? m_state->event() : EventId();
    const MetricId metric = m_state ? m_state->metric() : MetricId();
    const bool ready = trial && event.isValid() && event.index() < trial->eventCount() && metric.isValid()
        && metric.index() < trial->metricCount();
    if (!ready) {
        m_bins = computeBins({}, m_binCount);
        m_caption = trial ? tr("Select an interval event to see its distribution across threads")
                          : tr("Open a trial to see the distribution of an event across threads");
        ChartStyle::setTitle(m_title, tr("Histogram"), m_caption);
        m_plot->xAxis->setLabel(QString());
        m_plot->xAxis->setRange(0, 1);
        m_plot->yAxis->setRange(0, 1);
        updateHighlight();
        return;
    }

    const ValueType type = m_state->valueType();
    const auto stats = TrialStatistics::of(*trial);
    const std::size_t threads = trial->threadCount();
    std::size_t withoutCalls = 0;
    std::vector<double> values;
    values.reserve(threads);
    for (std::size_t i = 0; i < threads; ++i) {
        const ThreadIndex t(i);
        const RowView row = trial->row(t);
        const std::ptrdiff_t cell = row.find(event);
        if (cell < 0) {
            ++m_absent;
            continue;
        }
        if (isPerCall(type) && row.calls[static_cast<std::size_t>(cell)] == 0) {
            // Per call is undefined without calls (docs/SEMANTICS.md 2).
            ++m_absent;
            ++withoutCalls;
            continue;
        }
        const double v = cellValue(*trial, *stats, t, static_cast<std::size_t>(cell), metric, type);
        m_present.emplace_back(t, v);
        values.push_back(v);
    }
    m_bins = computeBins(values, m_binCount);

    m_valueTicker->setMetric(
        isMetricValued(type) ? std::optional<Metric>(trial->metric(metric)) : std::nullopt, m_state->timeUnit());
    m_plot->xAxis->setLabel(axisTitle());

    QVector<double> keys;
    QVector<double> counts;
    int highest = 0;
    for (std::size_t b = 0; b < m_bins.counts.size(); ++b) {
        keys.append(m_bins.low + m_bins.width * (static_cast<double>(b) + 0.5));
        counts.append(m_bins.counts[b]);
        highest = std::max(highest, m_bins.counts[b]);
    }
    m_bars->setData(keys, counts, true);
    m_bars->setWidth(m_bins.width);
    m_selectedBar->setWidth(m_bins.width);
    const QPalette palette = m_plot->palette();
    const QColor color = eventColor(*trial, event);
    m_bars->setBrush(color);
    m_bars->setPen(QPen(palette.color(QPalette::Base), 1));

    const QString have
        = isPerCall(type) ? tr("%1 of %2 threads have a per-call value") : tr("%1 of %2 threads have this event");
    m_caption = have.arg(m_present.size()).arg(threads);
    if (withoutCalls > 0)
        m_caption += tr(" (%1 ran it without calls)").arg(withoutCalls);
    if (!m_present.empty())
        m_caption += tr(" · %1 bins of %2").arg(m_bins.counts.size()).arg(formatWithUnit(m_bins.width));
    ChartStyle::setTitle(m_title, trial->event(event).name, m_caption);

    const double pad = m_bins.width * 0.5;
    m_plot->xAxis->setRange(m_bins.low - pad, m_bins.high() + pad);
    m_plot->yAxis->setRange(0, std::max(1.0, highest * 1.12 + 0.5));
    updateHighlight();
}

void HistogramWidget::updateHighlight()
{
    m_selectedBar->data()->clear();
    m_selectedLabel->setVisible(false);
    const ThreadIndex selected = m_state ? m_state->thread() : ThreadIndex();
    const auto it = std::find_if(m_present.begin(), m_present.end(),
        [selected](const std::pair<ThreadIndex, double>& p) { return p.first == selected; });
    if (selected.isValid() && it != m_present.end()) {
        // The selected thread's bin in the highlight colour, labelled with the thread.
        const int bin = m_bins.binOf(it->second);
        const double key = m_bins.low + m_bins.width * (bin + 0.5);
        const double count = m_bins.counts[static_cast<std::size_t>(bin)];
        m_selectedBar->addData(key, count);
        const QPalette palette = m_plot->palette();
        m_selectedBar->setBrush(ChartStyle::highlightColor(palette));
        m_selectedBar->setPen(QPen(palette.color(QPalette::Base), 1));
        m_selectedLabel->position->setCoords(key, count);
        m_selectedLabel->setText(m_state->trial()->threadKey(selected).toString());
        m_selectedLabel->setColor(palette.color(QPalette::Text));
        m_selectedLabel->setVisible(true);
    }
    m_plot->replot();
}

void HistogramWidget::showToolTip(QMouseEvent* event)
{
    const QPointF pos = event->position();
    if (m_present.empty() || !m_plot->axisRect()->rect().contains(pos.toPoint())) {
        QToolTip::hideText();
        return;
    }
    const double x = m_plot->xAxis->pixelToCoord(pos.x());
    if (x < m_bins.low || x > m_bins.high()) {
        QToolTip::hideText();
        return;
    }
    const int bin = m_bins.binOf(x);
    const Trial& trial = *m_state->trial();
    QStringList threads;
    int listed = 0;
    for (const auto& [t, v] : m_present) {
        if (m_bins.binOf(v) != bin)
            continue;
        if (listed++ < 12)
            threads.append(trial.threadKey(t).toString());
    }
    if (listed > 12)
        threads.append(tr("… %1 more").arg(listed - 12));
    const double from = m_bins.low + m_bins.width * bin;
    QString text = tr("%1 – %2: %n thread(s)", nullptr, m_bins.counts[static_cast<std::size_t>(bin)])
                       .arg(format(from), formatWithUnit(from + m_bins.width));
    if (!threads.isEmpty())
        text += QLatin1Char('\n') + threads.join(QLatin1String("  "));
    QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

QString HistogramWidget::exportImage(const QString& fileName, int width, int height)
{
    return ChartStyle::exportPlot(m_plot, fileName, width, height);
}

bool HistogramWidget::eventFilter(QObject* watched, QEvent* event)
{
    // The plot's own palette event: the widget's arrives before the children have the new palette.
    if (watched == m_plot && event->type() == QEvent::PaletteChange) {
        ChartStyle::apply(m_plot);
        rebuild();
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace parallax
