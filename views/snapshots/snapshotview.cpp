// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/snapshots/snapshotview.h"

#include "algebra/units.h"
#include "views/charts/chartexport.h"
#include "views/charts/chartstyle.h"
#include "views/charts/colors.h"
#include "views/charts/qcustomplotwrapper.h"
#include "views/charts/valueaxisticker.h"
#include "views/common/flowlayout.h"
#include "views/common/threadfinder.h"
#include "views/selectionstate.h"

#include <QComboBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace parallax {

namespace {

QString elided(const QString& name)
{
    return name.size() > 48 ? name.left(22) + QStringLiteral("…") + name.right(24) : name;
}

/// Seconds from the first snapshot's start (the first interval has none: its own end is time 0
/// of the series when the source gives no start).
double secondsOf(const SnapshotSeriesTable& table, std::size_t interval)
{
    const qint64 origin = table.intervals.front().timestamp;
    return static_cast<double>(table.intervals[interval].timestamp - origin) / 1e6;
}

bool hasTimes(const SnapshotSeriesTable& table)
{
    return std::all_of(
        table.intervals.begin(), table.intervals.end(), [](const SnapshotInterval& i) { return i.timestamp != 0; });
}

/// One event's heat map of `trial`, binned to at most `maxRows` rows of consecutive threads.
void binHeat(SnapshotView::Output& out, const SnapshotHeatMap& map, std::size_t maxRows)
{
    out.threadsPerRow = std::max<std::size_t>(1, (map.threads + maxRows - 1) / maxRows);
    out.heatRows = (map.threads + out.threadsPerRow - 1) / out.threadsPerRow;
    out.heat.assign(out.heatRows * map.intervals, 0.0);
    for (std::size_t row = 0; row < out.heatRows; ++row) {
        const std::size_t first = row * out.threadsPerRow;
        const std::size_t last = std::min(map.threads, first + out.threadsPerRow);
        for (std::size_t i = 0; i < map.intervals; ++i) {
            double sum = 0;
            for (std::size_t t = first; t < last; ++t)
                sum += map.value(t, i);
            out.heat[row * map.intervals + i] = sum / static_cast<double>(last - first);
        }
    }
    const auto [lo, hi] = std::minmax_element(out.heat.begin(), out.heat.end());
    out.heatMin = out.heat.empty() ? 0.0 : *lo;
    out.heatMax = out.heat.empty() ? 0.0 : *hi;
}

} // namespace

SnapshotView::SnapshotView(SelectionState* state, QWidget* parent)
    : QWidget(parent)
    , SelectionView(this, state,
          SelectionChange::Trial | SelectionChange::Metric | SelectionChange::Event | SelectionChange::TimeUnit)
{
    auto* layout = new QVBoxLayout(this);
    auto* bar = new FlowLayout;
    m_who = new QComboBox;
    // Item data: the Statistic over the threads, or -1 for one thread.
    for (const auto& [statistic, text] : { std::pair { Statistic::MeanAll, tr("Mean over the threads") },
             std::pair { Statistic::MeanPresent, tr("Mean over the threads with it") },
             std::pair { Statistic::Min, tr("Min over the threads") },
             std::pair { Statistic::Max, tr("Max over the threads") },
             std::pair { Statistic::StdDevAll, tr("Std. dev. over the threads") },
             std::pair { Statistic::Total, tr("Total over the threads") } })
        m_who->addItem(text, static_cast<int>(statistic));
    m_who->addItem(tr("One thread"), -1);
    m_who->setToolTip(tr("Per interval: a statistic of the threads' values (docs/SEMANTICS.md 1.11 and 2: min, max "
                         "and \"with it\" take the threads that have the event) or one thread's own"));
    m_finder = new ThreadFinder;
    m_finder->setPlaceholderText(tr("thread n,c,t"));
    m_finder->setEnabled(false);
    m_style = new QComboBox;
    m_style->addItem(tr("Stacked areas"));
    m_style->addItem(tr("Lines"));
    m_count = new QSpinBox;
    m_count->setRange(1, 40);
    m_count->setValue(8);
    m_count->setToolTip(tr("The largest events drawn; the rest are summed as \"other\" (stacked areas)"));
    m_from = new QSpinBox;
    m_to = new QSpinBox;
    for (QSpinBox* box : { m_from, m_to }) {
        box->setRange(0, 0);
        box->setToolTip(tr("The range of intervals: click the chart for one, shift-click to extend"));
    }
    m_open = new QPushButton(tr("Open as Trial"));
    m_open->setToolTip(tr("The profile of the selected intervals (the later snapshot minus the earlier one, made "
                          "with the algebra) as a new trial: every view shows that time window"));
    bar->addWidget(new QLabel(tr("Show:")));
    bar->addWidget(m_who);
    bar->addWidget(m_finder);
    bar->addWidget(m_style);
    bar->addWidget(new QLabel(tr("Events:")));
    bar->addWidget(m_count);
    bar->addWidget(new QLabel(tr("Intervals:")));
    bar->addWidget(m_from);
    bar->addWidget(new QLabel(tr("to")));
    bar->addWidget(m_to);
    bar->addWidget(m_open);
    bar->addWidget(newExportButton(this, tr("Save the view as PNG, SVG or PDF"),
        [this] { exportWidgetInteractively(this, this, QStringLiteral("timeseries.png")); }));
    layout->addLayout(bar);

    m_chart = new QCustomPlot;
    ChartStyle::apply(m_chart);
    m_chart->setMinimumSize(400, 220);
    m_chart->legend->setVisible(true);
    ChartStyle::placeLegendBeside(m_chart, m_chart->axisRect(), 0);
    m_rangeRect = new QCPItemRect(m_chart);
    m_rangeRect->setPen(Qt::NoPen);
    m_rangeRect->setBrush(QColor(30, 100, 220, 40));
    m_rangeRect->setLayer(QStringLiteral("background"));
    m_rangeRect->setVisible(false);

    auto* lower = new QWidget;
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    m_heatTitle = new QLabel;
    lowerLayout->addWidget(m_heatTitle);
    m_heat = new QCustomPlot;
    ChartStyle::apply(m_heat);
    m_heat->setMinimumSize(400, 160);
    m_map = new QCPColorMap(m_heat->xAxis, m_heat->yAxis);
    auto* scale = new QCPColorScale(m_heat);
    m_heat->plotLayout()->addElement(0, 1, scale);
    m_map->setColorScale(scale);
    QCPColorGradient gradient;
    gradient.clearColorStops();
    for (int i = 0; i <= 10; ++i)
        gradient.setColorStopAt(i / 10.0, sequentialColor(i / 10.0));
    m_map->setGradient(gradient);
    m_map->setInterpolate(false);
    m_heat->yAxis->setRangeReversed(true);
    m_heat->yAxis->setLabel(tr("thread (index)"));
    m_heatRect = new QCPItemRect(m_heat);
    m_heatRect->setPen(QPen(QColor(30, 100, 220), 2));
    m_heatRect->setBrush(Qt::NoBrush);
    m_heatRect->setVisible(false);
    lowerLayout->addWidget(m_heat, 1);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_chart);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    auto recompute = [this] {
        m_stale = true;
        scheduleUpdate(SelectionChange::View);
    };
    connect(m_who, &QComboBox::activated, this, [this, recompute](int index) {
        const bool one = m_who->itemData(index).toInt() < 0;
        m_finder->setEnabled(one);
        // Minima, maxima and deviations do not add up: lines, not stacked areas.
        const auto statistic = static_cast<Statistic>(m_who->itemData(index).toInt());
        if (!one && statistic != Statistic::MeanAll && statistic != Statistic::MeanPresent
            && statistic != Statistic::Total)
            setStyle(Style::Lines);
        if (!one || m_output.thread.isValid())
            recompute();
        else if (selection()->thread().isValid())
            setThread(selection()->thread());
    });
    connect(m_finder, &ThreadFinder::threadChosen, this, [this](ThreadIndex t) { setThread(t); });
    connect(m_style, &QComboBox::currentIndexChanged, this, [this] { draw(); });
    connect(m_count, &QSpinBox::valueChanged, this, [this] { draw(); });
    connect(m_from, &QSpinBox::valueChanged, this, [this](int v) {
        if (m_to->value() < v)
            m_to->setValue(v);
        drawRange();
    });
    connect(m_to, &QSpinBox::valueChanged, this, [this](int v) {
        if (m_from->value() > v)
            m_from->setValue(v);
        drawRange();
    });
    connect(m_open, &QPushButton::clicked, this, &SnapshotView::openRange);
    connect(m_chart, &QCustomPlot::mousePress, this, &SnapshotView::chartClicked);
    connect(m_heat, &QCustomPlot::mousePress, this, &SnapshotView::chartClicked);
    connect(m_chart, &QCustomPlot::legendClick, this, [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
        auto* plottable = dynamic_cast<QCPPlottableLegendItem*>(item);
        if (!plottable || !m_output.trial || selection()->trial() != m_output.trial)
            return;
        const QVariant id = plottable->plottable()->property("event");
        if (id.isValid())
            selection()->selectEvent(EventId(static_cast<std::size_t>(id.toULongLong())));
    });
    if (state->trial())
        scheduleUpdate(SelectionChange::Trial);
}

SnapshotView::~SnapshotView()
{
    m_job.cancelAndWait();
    m_rangeJob.cancelAndWait();
}

void SnapshotView::setStyle(Style style) { m_style->setCurrentIndex(style == Style::Lines ? 1 : 0); }

void SnapshotView::setThread(ThreadIndex thread)
{
    const QSignalBlocker block(m_who);
    m_who->setCurrentIndex(thread.isValid() ? m_who->count() - 1 : 0);
    m_finder->setEnabled(thread.isValid());
    const TrialPtr& trial = selection()->trial();
    if (thread.isValid() && trial && thread.index() < trial->threadCount())
        m_finder->setText(trial->threadKey(thread).toString());
    m_pendingThread = thread;
    m_threadTrial = trial;
    m_stale = true;
    scheduleUpdate(SelectionChange::View);
}

void SnapshotView::setStatistic(Statistic statistic)
{
    const int index = m_who->findData(static_cast<int>(statistic));
    if (index < 0)
        return;
    m_who->setCurrentIndex(index);
    Q_EMIT m_who->activated(index);
}

void SnapshotView::setRange(int first, int last)
{
    m_from->setValue(first);
    m_to->setValue(last);
    m_from->setValue(first);
}

int SnapshotView::rangeFirst() const { return m_from->value(); }

int SnapshotView::rangeLast() const { return m_to->value(); }

void SnapshotView::doUpdate(SelectionChanges changes)
{
    if (changes & SelectionChange::Trial) {
        m_finder->setTrial(selection()->trial());
        m_job.cancel(); // a run for the previous trial shows nothing
        m_rangeJob.cancel();
        m_output = {};
        if (m_threadTrial != selection()->trial()) { // a thread chosen for another trial
            m_pendingThread = {};
            m_threadTrial.reset();
            const QSignalBlocker block(m_who);
            m_who->setCurrentIndex(0);
            m_finder->clear();
            m_finder->setEnabled(false);
        }
        m_stale = true;
        draw();
    }
    if (changes & SelectionChange::Metric)
        m_stale = true;
    // Another event changes the heat map only when it has intervals and is not the one drawn.
    if ((changes & SelectionChange::Event) && m_output.trial && selection()->event() != m_output.event) {
        const auto& events = m_output.table.events;
        if (std::find(events.begin(), events.end(), selection()->event()) != events.end())
            m_stale = true;
    }
    if (changes & SelectionChange::TimeUnit)
        draw();
    if (!m_stale || (!isVisible() && !isUpdatingNow()))
        return;
    start();
}

void SnapshotView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        scheduleUpdate(SelectionChange::View);
}

void SnapshotView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (m_output.trial)
        draw(); // the axis labels that fit change with the width
}

void SnapshotView::finishUpdate() { m_job.waitAndDeliver(); }

void SnapshotView::start()
{
    m_stale = false;
    const TrialPtr trial = selection()->trial();
    if (!trial || trial->metricCount() == 0) {
        m_job.cancel();
        present({});
        return;
    }
    const MetricId metric = selection()->metric().isValid() ? selection()->metric() : MetricId(std::size_t { 0 });
    const bool one = m_who->currentData().toInt() < 0;
    const ThreadIndex thread = one ? m_pendingThread : ThreadIndex();
    const Statistic statistic = one ? Statistic::MeanAll : static_cast<Statistic>(m_who->currentData().toInt());
    const EventId wanted = selection()->event();
    if (m_output.trial != trial) // a recomputation keeps the picture and its caption until it is done
        m_status->setText(tr("Computing the intervals of %1 threads…")
                              .arg(QLocale().toString(static_cast<qulonglong>(trial->threadCount()))));
    m_job.start(
        [trial, metric, thread, statistic, wanted](const std::atomic_bool&) {
            Output out;
            out.trial = trial;
            out.metric = metric;
            out.thread = thread;
            out.table = snapshotSeries(*trial, metric, thread, statistic);
            // The heat map's event: the selected one if it has intervals, else the largest.
            const auto& events = out.table.events;
            out.event = std::find(events.begin(), events.end(), wanted) != events.end() ? wanted
                : events.empty()                                                        ? EventId()
                                                                                        : events.front();
            if (out.event.isValid())
                binHeat(out, snapshotHeatMap(*trial, metric, out.event), MaxHeatRows);
            return out;
        },
        [this](Output out) { present(std::move(out)); });
}

void SnapshotView::present(Output output)
{
    const bool sameTrial = m_output.trial && m_output.trial == output.trial
        && m_output.table.intervals.size() == output.table.intervals.size();
    m_output = std::move(output);
    const int count = static_cast<int>(m_output.table.intervals.size());
    {
        const QSignalBlocker a(m_from);
        const QSignalBlocker b(m_to);
        m_from->setRange(0, std::max(0, count - 1));
        m_to->setRange(0, std::max(0, count - 1));
        if (!sameTrial) {
            m_from->setValue(0);
            m_to->setValue(std::max(0, count - 1));
        }
    }
    m_open->setEnabled(m_output.trial && count > 0);
    if (!m_output.trial) {
        m_status->setText(tr("No trial"));
    } else if (!m_output.trial->hasTimeSeries()) {
        m_status->setText(tr("%1 has one snapshot, its profile, so there is one interval. TAU writes a series with "
                             "TAU_PROFILE_FORMAT=snapshot and TAU_PROFILE_SNAPSHOT(); parallax-cli synth --snapshots K "
                             "makes one.")
                              .arg(m_output.trial->name()));
    } else {
        const QLocale locale;
        const Trial& trial = *m_output.trial;
        QString who = m_output.thread.isValid()
            ? tr("thread %1").arg(trial.threadKey(m_output.thread).toString())
            : tr("the %1 over %2 threads")
                  .arg(statisticName(m_output.table.statistic).toLower(),
                      locale.toString(static_cast<qulonglong>(trial.threadCount())));
        m_status->setText(
            tr("%1 intervals between snapshots of %2; %3, exclusive %4 per interval. Click an interval (shift-click "
               "to extend) and Open as Trial for the profile of that time window; click a legend entry for its "
               "heat map.")
                .arg(count)
                .arg(trial.name(), who, trial.metric(m_output.metric).name));
    }
    draw();
}

void SnapshotView::draw()
{
    m_chart->clearGraphs();
    m_shown.clear();
    const SnapshotSeriesTable& table = m_output.table;
    const auto n = table.intervals.size();
    if (!m_output.trial || n == 0 || !m_output.metric.isValid()) {
        m_chart->replot();
        m_map->data()->clear();
        m_heatTitle->clear();
        m_heat->replot();
        return;
    }
    const Trial& trial = *m_output.trial;
    const Metric& metric = trial.metric(m_output.metric);
    const TimeUnit unit = selection()->timeUnit();
    const bool stacked = m_style->currentIndex() == 0;
    const std::size_t shown = std::min(table.events.size(), static_cast<std::size_t>(m_count->value()));
    m_shown.assign(table.events.begin(), table.events.begin() + static_cast<std::ptrdiff_t>(shown));

    // Stacked, an interval's value holds over the whole interval: a step from i - 0.5 to i + 0.5
    // (points 2i and 2i + 1). Lines: one point per interval, at its centre.
    const std::size_t perInterval = stacked ? 2 : 1;
    QVector<double> x(static_cast<qsizetype>(n * perInterval));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < perInterval; ++k)
            x[static_cast<qsizetype>(std::size_t { i * perInterval + k })]
                = static_cast<double>(i) + (stacked ? static_cast<double>(k) - 0.5 : 0.0);
    std::vector<double> base(n, 0.0);
    QCPGraph* below = nullptr;
    auto addSeries = [&](const QString& name, const QColor& color, const std::vector<double>& values, EventId event) {
        QVector<double> y(x.size());
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < perInterval; ++k)
                y[static_cast<qsizetype>(std::size_t { i * perInterval + k })]
                    = stacked ? base[i] + values[i] : values[i];
        QCPGraph* graph = m_chart->addGraph();
        graph->setName(elided(name));
        graph->setData(x, y, true);
        if (event.isValid())
            graph->setProperty("event", QVariant::fromValue(static_cast<qulonglong>(event.index())));
        if (stacked) {
            graph->setPen(QPen(color.darker(130), 1));
            QColor fill = color;
            fill.setAlpha(200);
            graph->setBrush(fill);
            graph->setChannelFillGraph(below);
            below = graph;
            for (std::size_t i = 0; i < n; ++i)
                base[i] += values[i];
        } else {
            graph->setPen(QPen(color, 2));
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
        }
    };
    std::vector<double> values(n);
    for (std::size_t r = 0; r < shown; ++r) {
        for (std::size_t i = 0; i < n; ++i)
            values[i] = table.value(r, i);
        addSeries(trial.event(table.events[r]).name, eventColor(trial, table.events[r]), values, table.events[r]);
    }
    if (stacked && shown < table.events.size()) {
        std::fill(values.begin(), values.end(), 0.0);
        for (std::size_t r = shown; r < table.events.size(); ++r)
            for (std::size_t i = 0; i < n; ++i)
                values[i] += table.value(r, i);
        addSeries(tr("other (%1 events)").arg(table.events.size() - shown), QColor(0xbd, 0xbd, 0xbd), values, {});
    }

    // The x axis: each interval's snapshot name and, with timestamps, its end in seconds.
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const bool times = hasTimes(table);
    // As many labels as fit, about 95 pixels each (the width of "iteration 10").
    m_chart->replot(QCustomPlot::rpImmediateRefresh); // lays out the legend: the axis rect's width is known
    const int width = m_chart->axisRect()->width();
    const auto fit = static_cast<std::size_t>(std::max(2, width / 95));
    const std::size_t step = std::max<std::size_t>(1, (n + fit - 1) / fit);
    const QLocale locale = ChartStyle::locale();
    for (std::size_t i = 0; i < n; i += step) {
        QString label = elided(table.intervals[i].label);
        if (times)
            label += QStringLiteral("\n") + locale.toString(secondsOf(table, i), 'f', 1) + QStringLiteral(" s");
        ticker->addTick(static_cast<double>(i), label);
    }
    for (QCustomPlot* plot : { m_chart, m_heat }) {
        plot->xAxis->setTicker(ticker);
        plot->xAxis->setRange(-0.5, static_cast<double>(n) - 0.5);
        plot->xAxis->setLabel(times ? tr("snapshot (seconds after the first)") : tr("snapshot"));
    }
    auto valueTicker = QSharedPointer<ValueAxisTicker>::create();
    valueTicker->setMetric(metric, unit);
    m_chart->yAxis->setTicker(valueTicker);
    m_chart->yAxis->setLabel(tr("%1 per interval (%2)").arg(metric.name, unitLabel(metric, unit)));
    m_chart->rescaleAxes(true);
    m_chart->xAxis->setRange(-0.5, static_cast<double>(n) - 0.5);
    const QCPRange y = m_chart->yAxis->range();
    m_chart->yAxis->setRange(std::min(0.0, y.lower), y.upper + 0.05 * std::max(1e-12, y.upper - y.lower));
    drawHeat();
    drawRange();
}

void SnapshotView::drawHeat()
{
    const Output& o = m_output;
    const std::size_t n = o.table.intervals.size();
    if (!o.event.isValid() || o.heatRows == 0 || n == 0) {
        m_map->data()->clear();
        m_heatTitle->setText(tr("No event to map"));
        m_heat->replot();
        return;
    }
    const Trial& trial = *o.trial;
    const Metric& metric = trial.metric(o.metric);
    const QLocale locale;
    m_heatTitle->setText(o.threadsPerRow > 1
            ? tr("<b>%1</b> per thread and interval (a row: the mean of %2 threads)")
                  .arg(elided(trial.event(o.event).name).toHtmlEscaped(),
                      locale.toString(static_cast<qulonglong>(o.threadsPerRow)))
            : tr("<b>%1</b> per thread and interval").arg(elided(trial.event(o.event).name).toHtmlEscaped()));
    // QCPColorMap spans no width with one cell: one interval (or one row) is drawn as two halves.
    const std::size_t cols = std::max<std::size_t>(n, 2);
    const std::size_t rows = std::max<std::size_t>(o.heatRows, 2);
    m_map->data()->setSize(static_cast<int>(cols), static_cast<int>(rows));
    const double threads = static_cast<double>(trial.threadCount());
    const double rowHeight = static_cast<double>(o.threadsPerRow);
    m_map->data()->setRange(n > 1 ? QCPRange(0, static_cast<double>(n) - 1) : QCPRange(-0.25, 0.25),
        o.heatRows > 1 ? QCPRange(rowHeight / 2, threads - rowHeight / 2) : QCPRange(threads / 4, threads * 3 / 4));
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t i = 0; i < cols; ++i)
            m_map->data()->setCell(
                static_cast<int>(i), static_cast<int>(r), o.heat[std::min(r, o.heatRows - 1) * n + std::min(i, n - 1)]);
    m_map->setDataRange(QCPRange(o.heatMin, o.heatMax > o.heatMin ? o.heatMax : o.heatMin + 1));
    m_map->colorScale()->setLabel(tr("%1 (%2)").arg(metric.name, unitLabel(metric, TimeUnit::Microseconds)));
    m_heat->yAxis->setRange(0, threads);
    m_heat->replot();
}

void SnapshotView::drawRange()
{
    const double from = m_from->value() - 0.5;
    const double to = m_to->value() + 0.5;
    m_rangeRect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_rangeRect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_rangeRect->topLeft->setCoords(from, 0);
    m_rangeRect->bottomRight->setCoords(to, 1);
    m_heatRect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_heatRect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_heatRect->topLeft->setCoords(from, 0);
    m_heatRect->bottomRight->setCoords(to, 1);
    // The whole series selected (the default) needs no shading.
    const auto n = static_cast<int>(m_output.table.intervals.size());
    const bool partial = n > 1 && (m_from->value() > 0 || m_to->value() < n - 1);
    m_rangeRect->setVisible(partial);
    m_heatRect->setVisible(partial);
    m_chart->replot();
    m_heat->replot();
}

void SnapshotView::chartClicked(QMouseEvent* event)
{
    const auto n = static_cast<int>(m_output.table.intervals.size());
    if (n == 0)
        return;
    auto* plot = qobject_cast<QCustomPlot*>(sender());
    if (!plot || !plot->axisRect()->rect().contains(event->pos()))
        return;
    const int i = std::clamp(static_cast<int>(std::lround(plot->xAxis->pixelToCoord(event->pos().x()))), 0, n - 1);
    if (event->modifiers() & Qt::ShiftModifier)
        setRange(std::min(i, m_from->value()), std::max(i, m_to->value()));
    else
        setRange(i, i);
}

void SnapshotView::openRange()
{
    const TrialPtr trial = m_output.trial;
    if (!trial)
        return;
    const int first = m_from->value();
    const int last = m_to->value();
    const auto& intervals = m_output.table.intervals;
    const QString description = first == last
        ? tr("the profile of interval %1 (%2) of %3").arg(first).arg(intervals[std::size_t(first)].label, trial->name())
        : tr("the profile of intervals %1 to %2 (%3 to %4) of %5")
              .arg(first)
              .arg(last)
              .arg(intervals[std::size_t(first)].label, intervals[std::size_t(last)].label, trial->name());
    m_status->setText(tr("Making %1…").arg(description));
    m_rangeJob.start(
        [trial, first, last, description](const std::atomic_bool&) {
            Derived d;
            d.description = description;
            const AlgebraResult r = intervalProfile(*trial, first, last);
            d.trial = r.trial();
            d.error = r.error();
            return d;
        },
        [this](const Derived& d) {
            if (!d.trial) {
                m_status->setText(d.error);
                Q_EMIT operationFailed(d.error);
                return;
            }
            Q_EMIT trialDerived(d.trial, d.description);
        });
}

QString SnapshotView::exportImage(const QString& fileName)
{
    updateNow();
    return exportWidget(this, fileName);
}

} // namespace parallax
