// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/comparison/scalingview.h"

#include "views/charts/chartexport.h"
#include "views/charts/chartstyle.h"
#include "views/charts/colors.h"
#include "views/charts/valueaxisticker.h"
#include "views/comparison/comparisonformat.h"
#include "views/comparison/scalingmodelsview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMouseEvent>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace parallax {

namespace {

void setUpRect(QCPAxisRect* rect, const QString& yLabel)
{
    rect->axis(QCPAxis::atBottom)->setScaleType(QCPAxis::stLogarithmic);
    rect->axis(QCPAxis::atBottom)->setLabel(QObject::tr("Threads P (log₂ scale)"));
    rect->axis(QCPAxis::atLeft)->setLabel(yLabel);
    rect->setRangeDrag(Qt::Orientations());
    rect->setRangeZoom(Qt::Orientations());
}

/// Event colours are tuned for bars; very light ones are darkened so that lines read on white.
QColor lineColor(const QString& event)
{
    const QColor colour = eventColor(event);
    return colour.lightness() > 180 ? colour.darker(150) : colour;
}

QSharedPointer<QCPAxisTickerText> threadTicker(const ScalingSnapshot& snapshot, const QLocale& locale)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    std::vector<std::size_t> seen;
    for (const auto& trial : snapshot.trials) {
        const std::size_t p = trial->threadCount();
        if (std::find(seen.begin(), seen.end(), p) != seen.end())
            continue;
        seen.push_back(p);
        ticker->addTick(static_cast<double>(p), locale.toString(static_cast<qulonglong>(p)));
    }
    return ticker;
}

/// The points of a model: one per thread count, the runs with the same count as repetitions.
std::vector<ModelPoint> modelPoints(const std::vector<ScalingPoint>& series)
{
    std::vector<ModelPoint> points;
    for (const ScalingPoint& s : series) {
        if (!s.present)
            continue;
        const double p = static_cast<double>(s.threads);
        auto it = std::find_if(points.begin(), points.end(), [p](const ModelPoint& q) { return q.p == p; });
        if (it == points.end())
            points.push_back(ModelPoint { p, { s.time } });
        else
            it->values.push_back(s.time);
    }
    return points;
}

QString shortLabel(const QString& name)
{
    return name.size() > 36 ? QString(name.left(17) + QStringLiteral("…") + name.right(17)) : name;
}

} // namespace

ScalingView::ScalingView(std::vector<std::shared_ptr<const Trial>> trials, QWidget* parent)
    : QWidget(parent)
    , m_trials(std::move(trials))
    , m_runs(new QLabel(this))
    , m_metricBox(new QComboBox(this))
    , m_valueBox(new QComboBox(this))
    , m_statisticBox(new QComboBox(this))
    , m_unitBox(new QComboBox(this))
    , m_search(new QLineEdit(this))
    , m_events(new QListWidget(this))
    , m_plot(new QCustomPlot(this))
    , m_definition(new QLabel(this))
    , m_modelBox(new QCheckBox(tr("Model"), this))
    , m_targetBox(new QSpinBox(this))
    , m_modelTable(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_modelsPage(new ScalingModelsView(this))
{
    m_modelBox->setChecked(true);
    m_modelBox->setToolTip(tr("Fit Extra-P's performance model c₀ + c₁·P^i·log₂(P)^j to each event's T(P) "
                              "(the default modeler: the lowest leave-one-out SMAPE of 42 terms) and extrapolate it"));
    m_targetBox->setRange(1, 100000000);
    m_targetBox->setGroupSeparatorShown(true);
    m_targetBox->setToolTip(tr("Extrapolate the models to this number of threads"));
    setWindowTitle(tr("Scaling of %1").arg(countText(m_trials.size(), tr("run"), tr("runs"))));
    m_valueBox->addItem(tr("Inclusive"), static_cast<int>(ScalingValue::Inclusive));
    m_valueBox->addItem(tr("Exclusive"), static_cast<int>(ScalingValue::Exclusive));
    m_statisticBox->addItem(tr("Mean over threads"), static_cast<int>(ScalingStatistic::Mean));
    m_statisticBox->addItem(tr("Slowest thread"), static_cast<int>(ScalingStatistic::Max));
    m_statisticBox->setToolTip(
        tr("T(P): the mean over a run's P threads (absent = 0) or the largest value of any thread"));
    for (TimeUnit unit : { TimeUnit::Microseconds, TimeUnit::Milliseconds, TimeUnit::Seconds }) {
        m_unitBox->addItem(unitLabel(Metric(QString(), QStringLiteral("us")), unit), static_cast<int>(unit));
        m_unitBox->setItemData(m_unitBox->count() - 1, timeUnitName(unit), Qt::ToolTipRole);
    }
    m_unitBox->setCurrentIndex(1);
    m_search->setPlaceholderText(tr("Filter events…"));
    m_search->setClearButtonEnabled(true);
    m_events->setToolTip(tr("Tick the events to draw"));
    m_runs->setTextFormat(Qt::RichText);
    m_runs->setWordWrap(true);
    auto* top5 = new QPushButton(tr("Top 5"), this);
    top5->setToolTip(tr("The five events with the largest inclusive time in the smallest run"));

    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(new QLabel(tr("Metric:"), this));
    controls->addWidget(m_metricBox);
    controls->addWidget(new QLabel(tr("Value:"), this));
    controls->addWidget(m_valueBox);
    controls->addWidget(new QLabel(tr("T(P):"), this));
    controls->addWidget(m_statisticBox);
    controls->addWidget(new QLabel(tr("Unit:"), this));
    controls->addWidget(m_unitBox);
    controls->addWidget(m_modelBox);
    controls->addWidget(new QLabel(tr("Predict at P ="), this));
    controls->addWidget(m_targetBox);
    controls->addStretch(1);
    controls->addWidget(newExportButton(this, tr("Save the view as PNG, SVG or PDF"),
        [this] { exportWidgetInteractively(this, this, QStringLiteral("scaling.png")); }));

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto* searchRow = new QHBoxLayout;
    searchRow->addWidget(m_search, 1);
    searchRow->addWidget(top5);
    leftLayout->addLayout(searchRow);
    leftLayout->addWidget(m_events, 1);

    // One plot, two axis rects: rows title, time, title, efficiency; the legend right of the time.
    m_plot->setMinimumSize(400, 320);
    m_plot->setMouseTracking(true);
    QCPLayoutGrid* grid = m_plot->plotLayout();
    m_timeRect = m_plot->axisRect();
    grid->take(m_timeRect);
    grid->simplify();
    m_timeTitle = ChartStyle::addTitle(m_plot, 0);
    grid->addElement(1, 0, m_timeRect);
    m_efficiencyTitle = ChartStyle::addTitle(m_plot, 2);
    m_efficiencyRect = new QCPAxisRect(m_plot);
    grid->addElement(3, 0, m_efficiencyRect);
    m_legend = m_plot->legend;
    ChartStyle::placeLegendBeside(m_plot, m_timeRect, 1);
    grid->setRowStretchFactor(0, 0.001);
    grid->setRowStretchFactor(2, 0.001);
    auto* margins = new QCPMarginGroup(m_plot);
    m_timeRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_efficiencyRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    setUpRect(m_timeRect, tr("Time T(P)"));
    setUpRect(m_efficiencyRect, tr("Efficiency E(P)"));
    m_timeRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<ValueAxisTicker>::create());
    ChartStyle::apply(m_plot);
    auto* charts = new QWidget(this);
    auto* chartLayout = new QVBoxLayout(charts);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(m_plot, 1);
    m_modelTable->setTextFormat(Qt::RichText);
    m_modelTable->setWordWrap(true);
    m_modelTable->setTextInteractionFlags(Qt::TextSelectableByMouse);
    chartLayout->addWidget(m_modelTable);
    m_definition->setWordWrap(true);
    m_definition->setTextFormat(Qt::RichText);
    chartLayout->addWidget(m_definition);

    auto* splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(charts);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 4);
    splitter->setSizes({ 260, 900 });

    auto* chartsPage = new QWidget(this);
    auto* chartsPageLayout = new QVBoxLayout(chartsPage);
    chartsPageLayout->setContentsMargins(0, 0, 0, 0);
    chartsPageLayout->addLayout(controls);
    chartsPageLayout->addWidget(splitter, 1);
    m_tabs->addTab(chartsPage, tr("Charts"));
    m_tabs->addTab(m_modelsPage, tr("Models per call path"));
    m_tabs->setTabToolTip(1,
        tr("Extra-P's model of every call path, its prediction at a target P and its growth, as a call tree and a "
           "flame graph"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_runs);
    layout->addWidget(m_tabs, 1);

    connect(m_metricBox, &QComboBox::activated, this, [this] { replot(); });
    connect(m_valueBox, &QComboBox::activated, this,
        [this] { setValue(static_cast<ScalingValue>(m_valueBox->currentData().toInt())); });
    connect(m_statisticBox, &QComboBox::activated, this,
        [this] { setStatistic(static_cast<ScalingStatistic>(m_statisticBox->currentData().toInt())); });
    connect(m_unitBox, &QComboBox::activated, this,
        [this] { setTimeUnit(static_cast<TimeUnit>(m_unitBox->currentData().toInt())); });
    connect(m_events, &QListWidget::itemChanged, this, [this] { replot(); });
    connect(m_modelBox, &QCheckBox::toggled, this, [this] { replot(); });
    connect(m_targetBox, &QSpinBox::valueChanged, this, [this] { replot(); });
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        for (int i = 0; i < m_events->count(); ++i)
            m_events->item(i)->setHidden(
                !text.isEmpty() && !m_events->item(i)->text().contains(text, Qt::CaseInsensitive));
    });
    connect(top5, &QPushButton::clicked, this, [this] {
        if (m_snapshot)
            setSelectedEvents(ScalingBuilder::topEvents(*m_snapshot));
    });
    connect(m_plot, &QCustomPlot::mouseMove, this, &ScalingView::showToolTip);

    m_runs->setText(tr("Computing the statistics of %1…").arg(countText(m_trials.size(), tr("run"), tr("runs"))));
    m_job.start([trials = m_trials](const std::atomic_bool&) { return ScalingBuilder::build(trials); },
        [this](std::shared_ptr<const ScalingSnapshot> snapshot) { onFinished(std::move(snapshot)); });
    resize(1200, 800);
}

ScalingView::~ScalingView() { m_job.watcher()->waitForFinished(); }

ScalingView* ScalingView::open(std::vector<std::shared_ptr<const Trial>> trials, QWidget* parent)
{
    auto* view = new ScalingView(std::move(trials), parent);
    view->setAttribute(Qt::WA_DeleteOnClose);
    view->setWindowFlag(Qt::Window);
    view->show();
    return view;
}

void ScalingView::waitForResult()
{
    m_job.waitAndDeliver();
    m_modelsPage->waitForResult();
}

void ScalingView::showModelsPage() { m_tabs->setCurrentWidget(m_modelsPage); }

void ScalingView::onFinished(std::shared_ptr<const ScalingSnapshot> snapshot)
{
    m_snapshot = std::move(snapshot);
    fillLists();
    replot();
    m_modelsPage->setSnapshot(m_snapshot);
    Q_EMIT ready();
}

void ScalingView::fillLists()
{
    const QLocale locale = groupingLocale();
    QStringList runs;
    for (const auto& trial : m_snapshot->trials)
        runs.append(
            tr("<b>%1</b> (P = %2)")
                .arg(trial->name().toHtmlEscaped(), locale.toString(static_cast<qulonglong>(trial->threadCount()))));
    m_runs->setText(
        tr("Scaling of %1, by thread count: ").arg(countText(m_snapshot->trials.size(), tr("run"), tr("runs")))
        + runs.join(QStringLiteral(" · ")));
    {
        const QSignalBlocker block(m_metricBox);
        m_metricBox->clear();
        m_metricBox->addItems(m_snapshot->metrics);
    }
    if (!m_snapshot->trials.empty()) {
        const QSignalBlocker block(m_targetBox);
        m_targetBox->setValue(
            static_cast<int>(std::min<std::size_t>(4 * m_snapshot->trials.back()->threadCount(), 100000000)));
    }
    const QStringList top = ScalingBuilder::topEvents(*m_snapshot);
    const QSignalBlocker block(m_events);
    m_events->clear();
    for (const QString& name : m_snapshot->events) {
        auto* item = new QListWidgetItem(name, m_events);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
        item->setCheckState(top.contains(name) ? Qt::Checked : Qt::Unchecked);
        QPixmap swatch(10, 10);
        swatch.fill(lineColor(name));
        item->setIcon(QIcon(swatch));
        item->setToolTip(name);
    }
}

QStringList ScalingView::selectedEvents() const
{
    QStringList names;
    for (int i = 0; i < m_events->count(); ++i)
        if (m_events->item(i)->checkState() == Qt::Checked)
            names.append(m_events->item(i)->text());
    return names;
}

void ScalingView::setSelectedEvents(const QStringList& events)
{
    {
        const QSignalBlocker block(m_events);
        for (int i = 0; i < m_events->count(); ++i)
            m_events->item(i)->setCheckState(events.contains(m_events->item(i)->text()) ? Qt::Checked : Qt::Unchecked);
    }
    replot();
}

bool ScalingView::setMetric(const QString& name)
{
    const int index = m_metricBox->findText(name);
    if (index < 0)
        return false;
    m_metricBox->setCurrentIndex(index);
    replot();
    return true;
}

QString ScalingView::metric() const { return m_metricBox->currentText(); }

void ScalingView::setValue(ScalingValue value)
{
    m_value = value;
    m_valueBox->setCurrentIndex(m_valueBox->findData(static_cast<int>(value)));
    replot();
}

void ScalingView::setStatistic(ScalingStatistic statistic)
{
    m_statistic = statistic;
    m_statisticBox->setCurrentIndex(m_statisticBox->findData(static_cast<int>(statistic)));
    replot();
}

void ScalingView::setTimeUnit(TimeUnit unit)
{
    m_unit = unit;
    m_unitBox->setCurrentIndex(m_unitBox->findData(static_cast<int>(unit)));
    replot();
}

std::vector<ScalingPoint> ScalingView::series(const QString& event) const
{
    if (!m_snapshot || !selectedEvents().contains(event))
        return {};
    return ScalingBuilder::series(*m_snapshot, event, metric(), m_value, m_statistic);
}

PerformanceModel ScalingView::model(const QString& event) const
{
    for (std::size_t i = 0; i < m_graphEvents.size() && i < m_models.size(); ++i)
        if (m_graphEvents[i] == event)
            return m_models[i];
    return {};
}

void ScalingView::setShowModels(bool show) { m_modelBox->setChecked(show); }

void ScalingView::setTarget(int threads) { m_targetBox->setValue(threads); }

int ScalingView::target() const { return m_targetBox->value(); }

QString ScalingView::formatTime(double value) const
{
    const Trial* trial = m_snapshot && !m_snapshot->trials.empty() ? m_snapshot->trials.front().get() : nullptr;
    const MetricId m = trial ? trial->findMetric(metric()) : MetricId();
    if (!m.isValid())
        return groupingLocale().toString(value);
    return compareText(value, trial->metric(m), CompareValue::Inclusive, m_unit, groupingLocale());
}

void ScalingView::replot()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_graphEvents.clear();
    m_models.clear();
    if (!m_snapshot || m_snapshot->trials.empty())
        return;
    const QLocale locale = groupingLocale();
    const Trial& smallest = *m_snapshot->trials.front();
    const MetricId m = smallest.findMetric(metric());
    QCPAxis* timeX = m_timeRect->axis(QCPAxis::atBottom);
    QCPAxis* timeY = m_timeRect->axis(QCPAxis::atLeft);
    QCPAxis* efficiencyX = m_efficiencyRect->axis(QCPAxis::atBottom);
    QCPAxis* efficiencyY = m_efficiencyRect->axis(QCPAxis::atLeft);
    auto ticker = threadTicker(*m_snapshot, locale);
    timeX->setTicker(ticker);
    efficiencyX->setTicker(ticker);
    if (auto valueTicker = timeY->ticker().dynamicCast<ValueAxisTicker>())
        valueTicker->setMetric(m.isValid() ? std::optional<Metric>(smallest.metric(m)) : std::nullopt, m_unit);
    const QString unit = m.isValid() ? compareUnit(smallest.metric(m), CompareValue::Inclusive, m_unit) : QString();
    const QString valueName = m_value == ScalingValue::Inclusive ? tr("inclusive") : tr("exclusive");
    const QString statisticName
        = m_statistic == ScalingStatistic::Mean ? tr("mean over threads") : tr("slowest thread");
    timeY->setLabel(unit.isEmpty() ? tr("T(P)") : tr("T(P) (%1)").arg(unit));
    efficiencyY->setLabel(tr("E(P)"));

    double maxTime = 0;
    double maxEfficiency = 1.0;
    const double p0 = static_cast<double>(smallest.threadCount());
    const double pMax = static_cast<double>(m_snapshot->trials.back()->threadCount());
    for (const QString& event : selectedEvents()) {
        const auto points = ScalingBuilder::series(*m_snapshot, event, metric(), m_value, m_statistic);
        QVector<double> x, t, xe, e;
        for (const ScalingPoint& p : points) {
            if (!p.present)
                continue;
            x.append(static_cast<double>(p.threads));
            t.append(p.time);
            maxTime = std::max(maxTime, p.time);
            if (p.efficiency > 0) {
                xe.append(static_cast<double>(p.threads));
                e.append(p.efficiency);
                maxEfficiency = std::max(maxEfficiency, p.efficiency);
            }
        }
        const QColor colour = lineColor(event);
        const QPen pen(colour, 2);
        const QCPScatterStyle scatter(QCPScatterStyle::ssDisc, colour, colour, 7);
        QCPGraph* time = m_plot->addGraph(timeX, timeY);
        time->setData(x, t, true);
        time->setPen(pen);
        time->setScatterStyle(scatter);
        time->setName(shortLabel(event));
        QCPGraph* efficiency = m_plot->addGraph(efficiencyX, efficiencyY);
        efficiency->setData(xe, e, true);
        efficiency->setPen(pen);
        efficiency->setScatterStyle(scatter);
        efficiency->removeFromLegend();
        m_graphEvents.push_back(event);
        m_models.push_back(m_modelBox->isChecked() ? fitPerformanceModel(modelPoints(points)) : PerformanceModel {});
    }
    // The models' curves after every event's two graphs (the tooltip reads graphs 2i and 2i+1 only):
    // dashed, from the smallest run to the target, sampled evenly on the log axis; a hollow marker at
    // the target.
    const bool models = m_modelBox->isChecked();
    const double targetP = static_cast<double>(m_targetBox->value());
    const double right = models ? std::max(pMax, targetP) : pMax;
    // The formulas are shown in the unit of the axis: a time model (µs) is scaled like its values.
    double toUnit = 1;
    if (m.isValid() && smallest.metric(m).unit == QLatin1String("us"))
        toUnit = m_unit == TimeUnit::Microseconds ? 1.0 : m_unit == TimeUnit::Milliseconds ? 1e-3 : 1e-6;
    const QString formulaUnit = m_unit == TimeUnit::HoursMinutesSeconds && toUnit != 1 ? tr("s") : unit;
    QStringList rows;
    for (std::size_t i = 0; models && i < m_graphEvents.size(); ++i) {
        const PerformanceModel& model = m_models[i];
        if (!model.valid)
            continue;
        const QString& event = m_graphEvents[i];
        const QColor colour = lineColor(event);
        QVector<double> x, t, e;
        const double from = std::min(p0, targetP);
        const int samples = 80;
        for (int k = 0; k <= samples; ++k) {
            const double p = from * std::pow(right / from, static_cast<double>(k) / samples);
            const double v = model.evaluate(p);
            x.append(p);
            t.append(v);
            maxTime = std::max(maxTime, v);
        }
        QCPGraph* curve = m_plot->addGraph(timeX, timeY);
        curve->setData(x, t, true);
        curve->setPen(QPen(colour, 1.5, Qt::DashLine));
        curve->removeFromLegend();
        const auto points = ScalingBuilder::series(*m_snapshot, event, metric(), m_value, m_statistic);
        if (!points.empty() && points.front().present && points.front().time > 0) {
            // E(P) of the model: T(P₀)·P₀ / (f(P)·P)
            QVector<double> xe;
            for (double p : x) {
                const double v = model.evaluate(p);
                if (v > 0) {
                    xe.append(p);
                    e.append(points.front().time * p0 / (v * p));
                }
            }
            QCPGraph* curveE = m_plot->addGraph(efficiencyX, efficiencyY);
            curveE->setData(xe, e, true);
            curveE->setPen(QPen(colour, 1.5, Qt::DashLine));
            curveE->removeFromLegend();
        }
        QCPGraph* marker = m_plot->addGraph(timeX, timeY);
        marker->setData(QVector<double> { targetP }, QVector<double> { model.evaluate(targetP) }, true);
        marker->setLineStyle(QCPGraph::lsNone);
        marker->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(colour, 2), Qt::white, 9));
        marker->removeFromLegend();
        rows.append(tr("<tr><td><span style=\"color:%1\">■</span> %2</td><td><tt>%3</tt></td><td align=right>%4 %</td>"
                       "<td align=right>%5</td><td align=right>%6</td></tr>")
                        .arg(
                            colour.name(), shortLabel(event).toHtmlEscaped(),
                            [&] {
                                PerformanceModel shown = model;
                                shown.constant *= toUnit;
                                for (ModelTerm& t : shown.terms)
                                    t.coefficient *= toUnit;
                                return shown.formula(QStringLiteral("P"), 5).toHtmlEscaped();
                            }(),
                            locale.toString(model.smape, 'g', 4), locale.toString(model.adjustedR2, 'f', 4),
                            formatTime(model.evaluate(targetP)).toHtmlEscaped()
                                + (model.fewPoints ? QStringLiteral(" *") : QString())));
    }
    if (models && !rows.isEmpty()) {
        bool few = false;
        for (const PerformanceModel& model : m_models)
            few = few || (model.valid && model.fewPoints);
        m_modelTable->setText(
            tr("<b>Models</b> (Extra-P's default modeler: the term c₁·P^i·log₂(P)^j with the lowest leave-one-out "
               "SMAPE, docs/SEMANTICS.md §10; dashed, extrapolated to P = %1)"
               "<table cellspacing=0 cellpadding=2><tr><th align=left>event</th><th align=left>T(P) %4 =</th>"
               "<th>SMAPE</th><th>adj. R²</th><th>T(%1)</th></tr>%2</table>%3")
                .arg(locale.toString(targetP), rows.join(QString()),
                    few ? tr("* fewer than 5 thread counts (Extra-P's minimum): a weak model") : QString(),
                    formulaUnit.isEmpty() ? QString() : QStringLiteral("(%1)").arg(formulaUnit.toHtmlEscaped())));
        m_modelTable->setVisible(true);
    } else {
        m_modelTable->clear();
        m_modelTable->setVisible(false);
    }
    if (models)
        ticker->addTick(targetP, locale.toString(targetP));
    const double lo = std::min(p0, models ? targetP : p0) / 1.35;
    const double hi = std::max(right, p0 * 2) * 1.35;
    timeX->setRange(lo, hi);
    efficiencyX->setRange(lo, hi);
    timeY->setRange(0, maxTime > 0 ? maxTime * 1.12 : 1.0);
    efficiencyY->setRange(0, std::ceil(maxEfficiency * 11.0) / 10.0);
    const QColor reference = ChartStyle::referenceColor(palette());
    auto* ideal = new QCPItemStraightLine(m_plot);
    ideal->setClipAxisRect(m_efficiencyRect);
    ideal->point1->setAxes(efficiencyX, efficiencyY);
    ideal->point2->setAxes(efficiencyX, efficiencyY);
    ideal->point1->setCoords(lo, 1.0);
    ideal->point2->setCoords(hi, 1.0);
    ideal->setPen(QPen(reference, 1, Qt::DashLine));
    auto* idealLabel = new QCPItemText(m_plot);
    idealLabel->setClipAxisRect(m_efficiencyRect);
    idealLabel->position->setAxes(efficiencyX, efficiencyY);
    idealLabel->position->setCoords(lo, 1.0);
    idealLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    idealLabel->setText(tr(" ideal (E = 1)"));
    idealLabel->setColor(reference);

    m_legend->setVisible(!m_graphEvents.empty());
    ChartStyle::apply(m_plot);
    ChartStyle::setTitle(
        m_timeTitle, tr("Time against threads"), tr("%1 %2, %3 of each run").arg(valueName, metric(), statisticName));
    ChartStyle::setTitle(m_efficiencyTitle,
        tr("Relative efficiency E(P) = T(P₀)·P₀ / (T(P)·P) against the smallest run (P₀ = %1)")
            .arg(locale.toString(p0)),
        m_graphEvents.empty() ? tr("Tick events in the list") : tr("1 = perfect strong scaling"));
    m_definition->setText(
        tr("<b>Definitions.</b> P = number of threads of a run; T(P) = the event's %1 value of %2 in that run (%3); "
           "P₀ = %4, the smallest run. <b>Relative efficiency E(P) = T(P₀)·P₀ / (T(P)·P)</b>: 1 = the thread-time "
           "spent in the event stays what it was in the smallest run (perfect strong scaling); below 1 = more total "
           "thread-time than at P₀ (overhead, or a weak-scaling run); above 1 = less (superlinear).")
            .arg(valueName, metric().toHtmlEscaped(), statisticName, locale.toString(p0)));
    m_plot->replot();
}

void ScalingView::showToolTip(QMouseEvent* event)
{
    if (!m_snapshot)
        return;
    const QPointF pos = event->position();
    double best = 10.0;
    QString text;
    for (int g = 0; g < m_plot->graphCount() && static_cast<std::size_t>(g / 2) < m_graphEvents.size(); ++g) {
        const QCPGraph* graph = m_plot->graph(g);
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
            const QPointF point = graph->coordsToPixels(it->key, it->value);
            const double distance = std::hypot(point.x() - pos.x(), point.y() - pos.y());
            if (distance >= best)
                continue;
            best = distance;
            const QString& name = m_graphEvents[static_cast<std::size_t>(g / 2)];
            const auto points = ScalingBuilder::series(*m_snapshot, name, metric(), m_value, m_statistic);
            for (std::size_t r = 0; r < points.size(); ++r) {
                if (static_cast<double>(points[r].threads) != it->key || !points[r].present)
                    continue;
                text = tr("%1\n%2: P = %3 threads\nT(P) = %4")
                           .arg(name, m_snapshot->trials[r]->name())
                           .arg(points[r].threads)
                           .arg(formatTime(points[r].time));
                if (points[r].efficiency > 0)
                    text += QLatin1Char('\n')
                        + tr("E(P) = T(P₀)·P₀ / (T(P)·P) = %1·%2 / (%3·%4) = %5")
                              .arg(formatTime(points.front().time))
                              .arg(points.front().threads)
                              .arg(formatTime(points[r].time))
                              .arg(points[r].threads)
                              .arg(groupingLocale().toString(points[r].efficiency, 'f', 3));
                break;
            }
        }
    }
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

QString ScalingView::exportImage(const QString& fileName)
{
    waitForResult();
    return exportWidget(this, fileName);
}

} // namespace parallax
