// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/history/historyview.h"

#include "views/charts/chartexport.h"
#include "views/charts/chartstyle.h"
#include "views/charts/colors.h"
#include "views/charts/valueaxisticker.h"
#include "views/common/flowlayout.h"
#include "views/common/valueformatter.h"
#include "views/comparison/comparisonformat.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace parallax {

namespace {

/// Event colours are tuned for bars; very light ones are darkened so that lines read on white.
QColor lineColor(const QString& event)
{
    const QColor colour = eventColor(event);
    return colour.lightness() > 180 ? colour.darker(150) : colour;
}

QString shortLabel(const QString& name, int length = 36)
{
    const int half = (length - 2) / 2;
    return name.size() > length ? QString(name.left(half) + QStringLiteral("…") + name.right(half)) : name;
}

/// A movers cell that sorts by a number (its Qt::UserRole) rather than by its text; NaN last.
class NumberItem : public QTableWidgetItem {
public:
    NumberItem(const QString& text, double value)
        : QTableWidgetItem(text)
    {
        setData(Qt::UserRole, value);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override
    {
        const double a = data(Qt::UserRole).toDouble();
        const double b = other.data(Qt::UserRole).toDouble();
        if (std::isnan(a) || std::isnan(b))
            return !std::isnan(a) && std::isnan(b);
        return a < b;
    }
};

enum MoverColumn { ColEvent, ColFirst, ColLast, ColOverall, ColStep, ColChanges, ColNoise, ColumnCount };

/// A change point is a regression when the value rose (a time) or fell (a rate).
bool isRegression(const ChangePoint& c, bool higherIsBetter) { return higherIsBetter ? c.percent < 0 : c.percent > 0; }

} // namespace

HistoryView::HistoryView(HistorySource source, QWidget* parent)
    : QWidget(parent)
    , m_source(std::move(source))
    , m_runs(new QLabel(this))
    , m_metricBox(new QComboBox(this))
    , m_valueBox(new QComboBox(this))
    , m_statisticBox(new QComboBox(this))
    , m_unitBox(new QComboBox(this))
    , m_topBox(new QSpinBox(this))
    , m_eventsEdit(new QLineEdit(this))
    , m_effectBox(new QDoubleSpinBox(this))
    , m_baselineBox(new QComboBox(this))
    , m_plot(new QCustomPlot(this))
    , m_movers(new QTableWidget(this))
    , m_definition(new QLabel(this))
{
    setWindowTitle(tr("Performance history"));
    for (const Metric& m : m_source.metrics)
        m_metricBox->addItem(m.name);
    m_valueBox->addItem(valueTypeName(ValueType::Exclusive), static_cast<int>(ValueType::Exclusive));
    m_valueBox->addItem(valueTypeName(ValueType::Inclusive), static_cast<int>(ValueType::Inclusive));
    for (Statistic s : { Statistic::MeanAll, Statistic::MeanPresent, Statistic::Max, Statistic::Min, Statistic::Total })
        m_statisticBox->addItem(statisticName(s), static_cast<int>(s));
    m_statisticBox->setToolTip(tr("The statistic over each run's threads that the lines follow"));
    for (TimeUnit unit : { TimeUnit::Microseconds, TimeUnit::Milliseconds, TimeUnit::Seconds }) {
        m_unitBox->addItem(unitLabel(Metric(QString(), QStringLiteral("us")), unit), static_cast<int>(unit));
        m_unitBox->setItemData(m_unitBox->count() - 1, timeUnitName(unit), Qt::ToolTipRole);
    }
    m_unitBox->setCurrentIndex(1);
    m_topBox->setRange(1, 100);
    m_topBox->setValue(10);
    m_topBox->setToolTip(tr("Follow the events with the largest mean of the statistic over the runs"));
    m_eventsEdit->setPlaceholderText(tr("Events (a;b;…), empty: the top N"));
    m_eventsEdit->setClearButtonEnabled(true);
    m_eventsEdit->setToolTip(tr("Follow these events instead of the top N: their names separated by ';'"));
    m_effectBox->setRange(0, 1000);
    m_effectBox->setDecimals(1);
    m_effectBox->setValue(1.0);
    m_effectBox->setSuffix(QStringLiteral(" %"));
    m_effectBox->setToolTip(tr("Change points smaller than this relative change are not marked"));
    m_baselineBox->setToolTip(tr("Clicking a run compares it with this run"));
    m_runs->setTextFormat(Qt::RichText);
    m_runs->setWordWrap(true);

    // The controls wrap onto a second row in a narrow window; a label stays with its field.
    auto* controls = new QWidget(this);
    auto* flow = new FlowLayout(controls, 10, 4);
    flow->setContentsMargins(0, 0, 0, 0);
    auto group = [this, flow](const QString& label, std::initializer_list<QWidget*> widgets) {
        auto* box = new QWidget(this);
        auto* row = new QHBoxLayout(box);
        row->setContentsMargins(0, 0, 0, 0);
        row->setSpacing(4);
        if (!label.isEmpty())
            row->addWidget(new QLabel(label, box));
        for (QWidget* w : widgets)
            row->addWidget(w);
        flow->addWidget(box);
    };
    m_eventsEdit->setMinimumWidth(220);
    group(tr("Metric:"), { m_metricBox, m_valueBox, m_statisticBox });
    group(tr("Unit:"), { m_unitBox });
    group(tr("Top:"), { m_topBox, m_eventsEdit });
    group(tr("Min. change:"), { m_effectBox });
    group(tr("Compare with:"), { m_baselineBox });
    group(QString(), { newExportButton(this, tr("Save the view as PNG, SVG or PDF"), [this] {
        exportWidgetInteractively(this, this, QStringLiteral("history.png"));
    }) });

    // The chart: a title row, the axis rect with the legend at the top of a column to its right.
    m_plot->setMinimumSize(400, 300);
    m_plot->setMouseTracking(true);
    QCPLayoutGrid* grid = m_plot->plotLayout();
    QCPAxisRect* rect = m_plot->axisRect();
    grid->take(rect);
    grid->simplify();
    m_title = ChartStyle::addTitle(m_plot, 0);
    grid->addElement(1, 0, rect);
    m_legend = m_plot->legend;
    ChartStyle::placeLegendBeside(m_plot, rect, 1);
    grid->setRowStretchFactor(0, 0.001);
    rect->setRangeDrag(Qt::Orientations());
    rect->setRangeZoom(Qt::Orientations());
    rect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<ValueAxisTicker>::create());
    ChartStyle::apply(m_plot);

    m_movers->setColumnCount(ColumnCount);
    m_movers->setHorizontalHeaderLabels({ tr("Event"), tr("First run"), tr("Last run"), tr("Δ% first → last"),
        tr("Largest step"), tr("Change points"), tr("Noise σ") });
    m_movers->horizontalHeaderItem(ColOverall)
        ->setToolTip(tr("100·(last − first)/first over the runs where the event ran"));
    m_movers->horizontalHeaderItem(ColStep)->setToolTip(
        tr("The largest relative change between two consecutive runs, and the run it happened at"));
    m_movers->horizontalHeaderItem(ColChanges)
        ->setToolTip(tr("Change points (E-divisive means, docs/SEMANTICS.md §9): run, Δ% of the level, p-value"));
    m_movers->horizontalHeaderItem(ColNoise)->setToolTip(
        tr("The pooled standard deviation within the segments between change points (the noise of the series)"));
    m_movers->verticalHeader()->setVisible(false);
    m_movers->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_movers->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_movers->setSelectionMode(QAbstractItemView::SingleSelection);
    m_movers->horizontalHeader()->setSectionResizeMode(ColEvent, QHeaderView::Stretch);
    m_movers->horizontalHeader()->setSectionResizeMode(ColChanges, QHeaderView::ResizeToContents);
    m_movers->setSortingEnabled(true);
    m_movers->setAlternatingRowColors(true);

    m_definition->setWordWrap(true);
    m_definition->setTextFormat(Qt::RichText);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_plot);
    auto* lower = new QWidget(this);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(m_movers, 1);
    lowerLayout->addWidget(m_definition);
    splitter->addWidget(lower);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({ 560, 260 });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_runs);
    layout->addWidget(controls);
    layout->addWidget(splitter, 1);

    for (QComboBox* box : { m_metricBox, m_valueBox, m_statisticBox })
        connect(box, &QComboBox::activated, this, [this] { recompute(); });
    connect(m_unitBox, &QComboBox::activated, this,
        [this] { setTimeUnit(static_cast<TimeUnit>(m_unitBox->currentData().toInt())); });
    connect(m_topBox, &QSpinBox::valueChanged, this, [this] { recompute(); });
    connect(m_effectBox, &QDoubleSpinBox::valueChanged, this, [this] { recompute(); });
    connect(m_eventsEdit, &QLineEdit::editingFinished, this, [this] { recompute(); });
    connect(m_baselineBox, &QComboBox::activated, this, [this] { m_baseline = m_baselineBox->currentData().toInt(); });
    connect(m_movers, &QTableWidget::itemSelectionChanged, this, [this] {
        const auto rows = m_movers->selectionModel()->selectedRows();
        if (!rows.isEmpty())
            if (const QTableWidgetItem* item = m_movers->item(rows.front().row(), ColEvent))
                selectEvent(item->data(Qt::UserRole).toString());
    });
    connect(m_plot, &QCustomPlot::mouseMove, this, &HistoryView::showToolTip);
    connect(m_plot, &QCustomPlot::mousePress, this, &HistoryView::onPlotClick);

    resize(1300, 900);
    recompute();
}

HistoryView::~HistoryView() { m_job.watcher()->waitForFinished(); }

HistoryView* HistoryView::open(HistorySource source, QWidget* parent)
{
    auto* view = new HistoryView(std::move(source), parent);
    view->setAttribute(Qt::WA_DeleteOnClose);
    view->setWindowFlag(Qt::Window);
    view->show();
    return view;
}

void HistoryView::waitForResult() { m_job.waitAndDeliver(); }

HistoryOptions HistoryView::options() const
{
    HistoryOptions o;
    o.metric = m_metricBox->currentText();
    o.value = static_cast<ValueType>(m_valueBox->currentData().toInt());
    o.statistic = static_cast<Statistic>(m_statisticBox->currentData().toInt());
    o.top = m_topBox->value();
    for (const QString& name : m_eventsEdit->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
        if (!name.trimmed().isEmpty())
            o.events << name.trimmed();
    o.changes.minEffectPercent = m_effectBox->value();
    return o;
}

void HistoryView::setOptions(const HistoryOptions& options)
{
    const QSignalBlocker b1(m_metricBox), b2(m_valueBox), b3(m_statisticBox), b4(m_topBox), b5(m_eventsEdit),
        b6(m_effectBox);
    if (!options.metric.isEmpty())
        m_metricBox->setCurrentIndex(std::max(0, m_metricBox->findText(options.metric)));
    m_valueBox->setCurrentIndex(std::max(0, m_valueBox->findData(static_cast<int>(options.value))));
    m_statisticBox->setCurrentIndex(std::max(0, m_statisticBox->findData(static_cast<int>(options.statistic))));
    m_topBox->setValue(options.top);
    m_eventsEdit->setText(options.events.join(QStringLiteral("; ")));
    m_effectBox->setValue(options.changes.minEffectPercent);
    recompute();
}

void HistoryView::setTimeUnit(TimeUnit unit)
{
    m_unit = unit;
    m_unitBox->setCurrentIndex(std::max(0, m_unitBox->findData(static_cast<int>(unit))));
    fillMovers();
    replot();
}

void HistoryView::recompute()
{
    if (!m_source.compute)
        return;
    m_runs->setText(tr("Computing the history of %1…").arg(m_source.description.toHtmlEscaped()));
    m_job.start([compute = m_source.compute, options = options()](
                    const std::atomic_bool& cancel) { return compute(options, cancel); },
        [this](const HistoryResult& result) { onFinished(result); });
}

void HistoryView::onFinished(const HistoryResult& result)
{
    m_error = result.error;
    m_history = result.ok() ? std::make_shared<const History>(result.history) : nullptr;
    if (!m_history) {
        m_runs->setText(tr("<span style=\"color:#b00020\">%1</span>").arg(m_error.toHtmlEscaped()));
    } else {
        const History& h = *m_history;
        QString order = h.points.empty() ? QString() : h.points.front().order;
        if (h.points.size() > 1)
            order += QStringLiteral(" … ") + h.points.back().order;
        if (h.repeated)
            order += tr("; %1 at %2 (repeated runs share a point)")
                         .arg(countText(h.runs.size(), tr("run"), tr("runs")))
                         .arg(countText(h.points.size(), tr("order value"), tr("order values")));
        m_runs->setText(tr("<b>%1</b>, ordered by <b>%2</b> (%3): %4")
                            .arg(m_source.description.toHtmlEscaped(), m_source.orderKey.toHtmlEscaped(),
                                h.numericOrder ? tr("as numbers") : tr("as text"), order.toHtmlEscaped()));
        // Keep the selected event if it is still drawn, else the first with a change point, else the first.
        if (!series(m_selected)) {
            m_selected.clear();
            for (const HistorySeries& s : h.series)
                if (!s.changes.changes.empty()) {
                    m_selected = s.event;
                    break;
                }
            if (m_selected.isEmpty() && !h.series.empty())
                m_selected = h.series.front().event;
        }
    }
    fillBaselines();
    fillMovers();
    replot();
    Q_EMIT ready();
}

const HistorySeries* HistoryView::series(const QString& event) const
{
    if (!m_history || event.isEmpty())
        return nullptr;
    for (const HistorySeries& s : m_history->series)
        if (s.event == event)
            return &s;
    return nullptr;
}

const Metric* HistoryView::metric() const
{
    const QString name = m_history ? m_history->metric : m_metricBox->currentText();
    for (const Metric& m : m_source.metrics)
        if (m.name == name)
            return &m;
    return nullptr;
}

QString HistoryView::formatValue(double value) const
{
    if (!std::isfinite(value))
        return tr("absent");
    const Metric* m = metric();
    if (!m)
        return groupingLocale().toString(value, 'g', 6);
    return compareText(value, *m, CompareValue::Inclusive, m_unit, groupingLocale());
}

void HistoryView::fillBaselines()
{
    const QSignalBlocker block(m_baselineBox);
    m_baselineBox->clear();
    m_baselineBox->addItem(tr("the previous run"), -1);
    if (m_history)
        for (std::size_t i = 0; i < m_history->runs.size(); ++i)
            m_baselineBox->addItem(
                QStringLiteral("%1 (%2)").arg(shortLabel(m_history->runs[i].order, 24), m_history->runs[i].label),
                static_cast<int>(i));
    if (!m_history || m_baseline >= static_cast<int>(m_history->runs.size()))
        m_baseline = -1;
    m_baselineBox->setCurrentIndex(std::max(0, m_baselineBox->findData(m_baseline)));
}

void HistoryView::setBaseline(int run)
{
    m_baseline = m_history && run >= 0 && run < static_cast<int>(m_history->runs.size()) ? run : -1;
    m_baselineBox->setCurrentIndex(std::max(0, m_baselineBox->findData(m_baseline)));
}

int HistoryView::baselineOf(int point) const
{
    if (m_baseline >= 0)
        return m_baseline;
    // The previous point's first run.
    return point > 0 ? m_history->points[static_cast<std::size_t>(point - 1)].runs.front() : -1;
}

bool HistoryView::requestComparison(int point)
{
    if (!m_history || point < 0 || point >= static_cast<int>(m_history->points.size()))
        return false;
    const int run = m_history->points[static_cast<std::size_t>(point)].runs.front();
    const int base = baselineOf(point);
    if (base < 0 || base == run)
        return false;
    Q_EMIT compareRequested(base, run);
    return true;
}

void HistoryView::selectEvent(const QString& event)
{
    if (!series(event) || event == m_selected)
        return;
    m_selected = event;
    for (int r = 0; r < m_movers->rowCount(); ++r)
        if (const QTableWidgetItem* item = m_movers->item(r, ColEvent); item && item->data(Qt::UserRole) == event) {
            const QSignalBlocker block(m_movers);
            m_movers->selectRow(r);
        }
    replot();
}

void HistoryView::fillMovers()
{
    const QSignalBlocker block(m_movers);
    m_movers->setSortingEnabled(false);
    m_movers->clearContents();
    m_movers->setRowCount(0);
    if (!m_history)
        return;
    const History& h = *m_history;
    const QLocale locale = groupingLocale();
    const bool higher = h.higherIsBetter;
    const double sign = improvementSign(higher);
    auto tinted = [&](QTableWidgetItem* item, double percent) {
        if (!std::isfinite(percent) || percent == 0)
            return;
        // Δ% / 100 clamped, as the comparison's cells (improvement positive).
        const double change = std::clamp(-percent / 100.0 * sign, -1.0, 1.0);
        const QColor background = changeTint(change);
        item->setBackground(background);
        item->setForeground(tintedTextColor(background));
    };
    m_movers->setRowCount(static_cast<int>(h.series.size()));
    int row = 0;
    for (const HistorySeries& s : h.series) {
        double first = NAN;
        double last = NAN;
        for (double v : s.values)
            if (std::isfinite(v)) {
                if (std::isnan(first))
                    first = v;
                last = v;
            }
        auto* name = new QTableWidgetItem(s.event);
        name->setData(Qt::UserRole, s.event);
        name->setToolTip(s.event);
        QPixmap swatch(10, 10);
        swatch.fill(lineColor(s.event));
        name->setIcon(QIcon(swatch));
        m_movers->setItem(row, ColEvent, name);
        m_movers->setItem(row, ColFirst, new NumberItem(formatValue(first), first));
        m_movers->setItem(row, ColLast, new NumberItem(formatValue(last), last));
        auto* overall = new NumberItem(
            std::isfinite(s.overallPercent) ? formatPercentChange(s.overallPercent, locale) : QStringLiteral("–"),
            std::isfinite(s.overallPercent) ? std::abs(s.overallPercent) : NAN);
        tinted(overall, s.overallPercent);
        m_movers->setItem(row, ColOverall, overall);
        const bool step = s.largestStepAt > 0 && s.largestStepAt < static_cast<int>(h.points.size());
        auto* stepItem
            = new NumberItem(step ? tr("%1 at %2")
                                        .arg(formatPercentChange(s.largestStepPercent, locale),
                                            shortLabel(h.points[static_cast<std::size_t>(s.largestStepAt)].order, 24))
                                  : QStringLiteral("–"),
                step ? std::abs(s.largestStepPercent) : NAN);
        tinted(stepItem, step ? s.largestStepPercent : NAN);
        m_movers->setItem(row, ColStep, stepItem);
        QStringList changes;
        double worst = 0;
        for (const ChangePoint& c : s.changes.changes) {
            const QString at = c.index < static_cast<int>(h.points.size())
                ? shortLabel(h.points[static_cast<std::size_t>(c.index)].order, 24)
                : QString::number(c.index);
            changes << tr("%1 %2 at %3 (p = %4)")
                           .arg(isRegression(c, higher) ? QStringLiteral("▲") : QStringLiteral("▼"),
                               formatPercentChange(c.percent, locale), at, locale.toString(c.pValue, 'g', 2));
            if (std::abs(c.percent) > std::abs(worst))
                worst = c.percent;
        }
        auto* changeItem = new NumberItem(changes.isEmpty() ? tr("none") : changes.join(QStringLiteral("; ")),
            changes.isEmpty() ? 0.0 : std::abs(worst));
        changeItem->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        tinted(changeItem, worst);
        m_movers->setItem(row, ColChanges, changeItem);
        m_movers->setItem(row, ColNoise, new NumberItem(formatValue(s.changes.noise), s.changes.noise));
        ++row;
    }
    m_movers->setSortingEnabled(true);
    m_movers->sortItems(ColOverall, Qt::DescendingOrder);
    for (int r = 0; r < m_movers->rowCount(); ++r)
        if (m_movers->item(r, ColEvent)->data(Qt::UserRole).toString() == m_selected)
            m_movers->selectRow(r);
    m_movers->resizeColumnsToContents();
    m_movers->horizontalHeader()->setSectionResizeMode(ColEvent, QHeaderView::Stretch);
}

void HistoryView::replot()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_lines.clear();
    QCPAxisRect* rect = m_plot->axisRect();
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    if (!m_history || m_history->runs.empty()) {
        ChartStyle::setTitle(m_title, tr("Performance history"), m_error);
        m_legend->setVisible(false);
        m_plot->replot();
        return;
    }
    const History& h = *m_history;
    const QLocale locale = groupingLocale();
    const Metric* m = metric();
    if (auto ticker = y->ticker().dynamicCast<ValueAxisTicker>())
        ticker->setMetric(m ? std::optional<Metric>(*m) : std::nullopt, m_unit);
    const QString unit = m ? compareUnit(*m, CompareValue::Inclusive, m_unit) : QString();
    y->setLabel(
        unit.isEmpty() ? statisticName(h.statistic) : QStringLiteral("%1 (%2)").arg(statisticName(h.statistic), unit));

    // The runs along x by their position, labelled with their order values (as many as fit).
    const int n = static_cast<int>(h.points.size());
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int every = std::max(1, (n + 15) / 16);
    bool longLabels = false;
    for (int i = 0; i < n; i += every) {
        const QString label = shortLabel(h.points[static_cast<std::size_t>(i)].order, 20);
        longLabels = longLabels || label.size() > 8;
        ticker->addTick(i, label);
    }
    x->setTicker(ticker);
    x->setTickLabelRotation(longLabels && n > 6 ? -30 : 0);
    x->setLabel(tr("Run, ordered by %1").arg(m_source.orderKey));
    x->setRange(-0.5, n - 0.5);

    double top = 0;
    const HistorySeries* selected = series(m_selected);
    // The band of the selected event first, under the lines: the maximum graph filled down to the minimum.
    if (selected) {
        QVector<double> keys, lows, highs;
        for (int i = 0; i < n; ++i) {
            keys.append(i);
            lows.append(selected->minimum[static_cast<std::size_t>(i)]);
            highs.append(selected->maximum[static_cast<std::size_t>(i)]);
            if (std::isfinite(highs.back()))
                top = std::max(top, highs.back());
        }
        QColor fill = lineColor(selected->event);
        fill.setAlpha(45);
        QCPGraph* low = m_plot->addGraph(x, y);
        low->setData(keys, lows, true);
        low->setPen(QPen(fill.darker(110), 1, Qt::DotLine));
        low->removeFromLegend();
        QCPGraph* high = m_plot->addGraph(x, y);
        high->setData(keys, highs, true);
        high->setPen(QPen(fill.darker(110), 1, Qt::DotLine));
        high->setBrush(fill);
        high->setChannelFillGraph(low);
        high->setName(tr("min–max over threads"));
        high->removeFromLegend();
    }
    for (const HistorySeries& s : h.series) {
        QVector<double> keys, values;
        for (int i = 0; i < n; ++i) {
            keys.append(i);
            values.append(s.values[static_cast<std::size_t>(i)]);
            if (std::isfinite(values.back()))
                top = std::max(top, values.back());
        }
        const bool isSelected = &s == selected;
        const QColor colour = lineColor(s.event);
        QCPGraph* line = m_plot->addGraph(x, y);
        line->setData(keys, values, true);
        line->setPen(QPen(colour, isSelected ? 3.0 : 1.5));
        line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, colour, isSelected ? 7 : 5));
        line->setName(shortLabel(s.event));
        m_lines.emplace_back(line, s.event);
    }
    // The change points of every event: ▲ regression, ▼ improvement at the first run of the new level;
    // for the selected event also a dashed line between the levels and a label with Δ% and p.
    const QColor regression = regressionColor();
    const QColor improvement = improvementColor();
    for (const HistorySeries& s : h.series) {
        const bool isSelected = &s == selected;
        for (const ChangePoint& c : s.changes.changes) {
            if (c.index < 0 || c.index >= n)
                continue;
            const bool worse = isRegression(c, h.higherIsBetter);
            const QColor colour = worse ? regression : improvement;
            QCPGraph* marker = m_plot->addGraph(x, y);
            marker->setData(QVector<double> { static_cast<double>(c.index) },
                QVector<double> { s.values[static_cast<std::size_t>(c.index)] }, true);
            marker->setLineStyle(QCPGraph::lsNone);
            const bool up = c.percent > 0;
            marker->setScatterStyle(
                QCPScatterStyle(up ? QCPScatterStyle::ssTriangle : QCPScatterStyle::ssTriangleInverted,
                    QPen(colour.darker(120), 1.5), colour, isSelected ? 15 : 11));
            marker->removeFromLegend();
            if (!isSelected)
                continue;
            auto* divider = new QCPItemStraightLine(m_plot);
            divider->setClipAxisRect(rect);
            divider->point1->setAxes(x, y);
            divider->point2->setAxes(x, y);
            divider->point1->setCoords(c.index - 0.5, 0);
            divider->point2->setCoords(c.index - 0.5, 1);
            divider->setPen(QPen(colour, 1.5, Qt::DashLine));
            auto* label = new QCPItemText(m_plot);
            label->setClipAxisRect(rect);
            label->position->setType(QCPItemPosition::ptPlotCoords);
            label->position->setAxes(x, y);
            label->position->setCoords(c.index - 0.45, 0);
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
            label->setText(
                tr("%1 %2 (p = %3)\n%4 → %5")
                    .arg(worse ? tr("regression") : tr("improvement"), formatPercentChange(c.percent, locale),
                        locale.toString(c.pValue, 'g', 2), formatValue(c.before), formatValue(c.after)));
            label->setColor(colour.darker(130));
            label->setPadding(QMargins(3, 2, 3, 2));
            label->setBrush(QBrush(QColor(255, 255, 255, 210)));
        }
    }
    y->setRange(0, top > 0 ? top * 1.12 : 1.0);
    // Labels sit just above the axis: place them once the range is known.
    for (int i = 0; i < m_plot->itemCount(); ++i)
        if (auto* label = qobject_cast<QCPItemText*>(m_plot->item(i)))
            label->position->setCoords(label->position->key(), top * 0.03);

    m_legend->setVisible(!m_lines.empty());
    ChartStyle::apply(m_plot);
    const QString statistic
        = tr("%1 %2 of %3").arg(statisticName(h.statistic), valueTypeName(h.value).toLower(), h.metric);
    ChartStyle::setTitle(m_title, tr("Performance history of %1").arg(countText(h.runs.size(), tr("run"), tr("runs"))),
        selected ? tr("%1; the band: min–max over the threads of %2").arg(statistic, shortLabel(selected->event, 60))
                 : statistic);
    m_definition->setText(
        tr("<b>Definitions</b> (docs/SEMANTICS.md §9). Each line: the %1 over each run's threads. The band: the "
           "smallest and the largest value of a thread where the event ran. <b>Change points</b> (E-divisive means "
           "with a %2-permutation test, α = %3, at least %4 runs per level, |Δ%| ≥ %5): ▲ the level rose, ▼ it "
           "fell; red is a regression, blue an improvement%6. Hover a point for the run; click it to compare the "
           "run with %7.")
            .arg(statistic.toHtmlEscaped())
            .arg(ChangePointOptions().permutations)
            .arg(locale.toString(ChangePointOptions().alpha))
            .arg(ChangePointOptions().minSegment)
            .arg(formatPercentChange(m_effectBox->value(), locale).remove(QLatin1Char('+')))
            .arg(h.higherIsBetter ? tr(" (the metric is a rate: higher is better)") : QString())
            .arg(m_baseline >= 0 ? tr("the chosen baseline") : tr("the run before it")));
    m_plot->replot();
}

int HistoryView::pointAt(const QPointF& position, QString* event) const
{
    double best = 10.0;
    int point = -1;
    for (const auto& [graph, name] : m_lines) {
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
            if (!std::isfinite(it->value))
                continue;
            const QPointF pixel = graph->coordsToPixels(it->key, it->value);
            const double distance = std::hypot(pixel.x() - position.x(), pixel.y() - position.y());
            if (distance >= best)
                continue;
            best = distance;
            point = static_cast<int>(std::lround(it->key));
            if (event)
                *event = name;
        }
    }
    return point;
}

void HistoryView::showToolTip(QMouseEvent* event)
{
    QString name;
    const int point = m_history ? pointAt(event->position(), &name) : -1;
    const HistorySeries* s = series(name);
    if (point < 0 || !s) {
        QToolTip::hideText();
        return;
    }
    const History& h = *m_history;
    const auto r = static_cast<std::size_t>(point);
    const QLocale locale = groupingLocale();
    const HistoryPoint& p = h.points[r];
    QStringList runs;
    for (int i : p.runs) {
        const auto k = static_cast<std::size_t>(i);
        runs << (p.runs.size() > 1 && k < s->runValues.size()
                ? QStringLiteral("%1: %2").arg(h.runs[k].label, formatValue(s->runValues[k]))
                : h.runs[k].label);
    }
    QString text = tr("%1\n%2\n%3 = %4\n%5 = %6 (threads: %7 – %8)")
                       .arg(name, runs.join(QLatin1Char('\n')), m_source.orderKey, p.order,
                           statisticName(h.statistic) + (p.runs.size() > 1 ? tr(", mean of the runs") : QString()),
                           formatValue(s->values[r]), formatValue(s->minimum[r]), formatValue(s->maximum[r]));
    if (point > 0 && std::isfinite(s->values[r - 1]) && s->values[r - 1] != 0 && std::isfinite(s->values[r]))
        text += QLatin1Char('\n')
            + tr("%1 against the point before")
                  .arg(formatPercentChange(100.0 * (s->values[r] - s->values[r - 1]) / s->values[r - 1], locale));
    for (const ChangePoint& c : s->changes.changes)
        if (c.index == point)
            text += QLatin1Char('\n')
                + tr("Change point: %1 (p = %2)")
                      .arg(formatPercentChange(c.percent, locale), locale.toString(c.pValue));
    const int base = baselineOf(point);
    if (base >= 0 && base != p.runs.front())
        text += QLatin1Char('\n')
            + tr("Click: compare %1 with %2")
                  .arg(h.runs[static_cast<std::size_t>(p.runs.front())].label,
                      h.runs[static_cast<std::size_t>(base)].label);
    QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

void HistoryView::onPlotClick(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_history)
        return;
    QString name;
    const int point = pointAt(event->position(), &name);
    if (point < 0)
        return;
    selectEvent(name);
    requestComparison(point);
}

QString HistoryView::exportImage(const QString& fileName)
{
    waitForResult();
    return exportWidget(this, fileName);
}

} // namespace parallax
