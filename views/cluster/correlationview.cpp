// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/cluster/correlationview.h"

#include "views/charts/chartexport.h"
#include "views/charts/chartstyle.h"
#include "views/charts/colors.h"
#include "views/cluster/clustershared.h"
#include "views/common/flowlayout.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax {

namespace {

QString elided(const QString& name)
{
    return name.size() > 34 ? name.left(15) + QStringLiteral("…") + name.right(18) : name;
}

} // namespace

CorrelationView::CorrelationView(SelectionState* state, QWidget* parent)
    : QWidget(parent)
    , SelectionView(this, state, SelectionChange::Trial)
{
    auto* layout = new QVBoxLayout(this);
    auto* bar = new FlowLayout;
    m_method = new QComboBox;
    m_method->addItem(tr("Pearson"));
    m_method->addItem(tr("Spearman"));
    m_method->setToolTip(tr("Pearson's r of the values, or Spearman's ρ (Pearson's r of their average ranks)"));
    m_metric = new QComboBox;
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_metric->setMaximumWidth(260);
    m_value = new QComboBox;
    m_value->addItem(tr("Exclusive"));
    m_value->addItem(tr("Inclusive"));
    m_callPaths = new QCheckBox(tr("Call paths"));
    m_count = new QSpinBox;
    m_count->setRange(2, 200);
    m_count->setValue(20);
    m_count->setToolTip(tr("The heat map shows this many events, the largest by mean value"));
    bar->addWidget(new QLabel(tr("Coefficient:")));
    bar->addWidget(m_method);
    bar->addWidget(new QLabel(tr("Metric:")));
    bar->addWidget(m_metric);
    bar->addWidget(new QLabel(tr("Value:")));
    bar->addWidget(m_value);
    bar->addWidget(m_callPaths);
    bar->addWidget(new QLabel(tr("Events shown:")));
    bar->addWidget(m_count);
    bar->addWidget(newExportButton(this, tr("Save the view as PNG, SVG or PDF"),
        [this] { exportWidgetInteractively(this, this, QStringLiteral("correlation.png")); }));
    layout->addLayout(bar);

    m_plot = new QCustomPlot;
    ChartStyle::apply(m_plot);
    m_plot->setMinimumSize(400, 300);
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    auto* scale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(0, 1, scale);
    scale->setLabel(tr("correlation"));
    m_map->setColorScale(scale);
    QCPColorGradient gradient;
    gradient.clearColorStops();
    for (int i = 0; i <= 10; ++i)
        gradient.setColorStopAt(i / 10.0, divergingColor(i / 5.0 - 1.0));
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(QColor(0xbd, 0xbd, 0xbd));
    m_map->setGradient(gradient);
    m_map->setDataRange(QCPRange(-1, 1));
    m_map->setInterpolate(false);
    m_plot->xAxis->setTickLabelRotation(60);
    m_plot->yAxis->setRangeReversed(true);

    m_table = new QTableWidget(0, 3);
    m_table->setHorizontalHeaderLabels({ tr("Event"), tr("r with total"), tr("ρ with total") });
    m_table->horizontalHeaderItem(1)->setToolTip(tr("Pearson's r of the event's value and the thread's total"));
    m_table->horizontalHeaderItem(2)->setToolTip(tr("Spearman's ρ of the event's value and the thread's total"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* caption = new QLabel(tr("<b>Events that correlate with the thread's total</b>"));
    caption->setToolTip(tr("The thread's total: its largest inclusive value of the metric (the main routine's)"));
    rightLayout->addWidget(caption);
    rightLayout->addWidget(m_table);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_plot);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({ 700, 450 });
    layout->addWidget(split, 1);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    auto recompute = [this] {
        m_stale = true;
        scheduleUpdate(SelectionChange::View);
    };
    connect(m_metric, &QComboBox::activated, this, recompute);
    connect(m_value, &QComboBox::activated, this, recompute);
    connect(m_callPaths, &QCheckBox::toggled, this, recompute);
    connect(m_method, &QComboBox::currentIndexChanged, this, [this] { draw(); });
    connect(m_count, &QSpinBox::valueChanged, this, [this] { draw(); });
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (row < 0 || static_cast<std::size_t>(row) >= m_ranked.size() || !m_output.matrix
            || selection()->trial() != m_output.trial)
            return;
        selection()->selectEvent(m_output.matrix->columns[m_ranked[static_cast<std::size_t>(row)]].event);
    });
    if (state->trial())
        scheduleUpdate(SelectionChange::Trial);
}

CorrelationView::~CorrelationView() { m_job.cancelAndWait(); }

void CorrelationView::setSpearman(bool spearman) { m_method->setCurrentIndex(spearman ? 1 : 0); }

bool CorrelationView::isSpearman() const { return m_method->currentIndex() == 1; }

void CorrelationView::setShownEvents(int count) { m_count->setValue(count); }

void CorrelationView::setInclusive(bool inclusive)
{
    m_value->setCurrentIndex(inclusive ? 1 : 0);
    Q_EMIT m_value->activated(m_value->currentIndex());
}

void CorrelationView::doUpdate(SelectionChanges changes)
{
    if (changes & SelectionChange::Trial) {
        fillMetricBox(m_metric, selection()->trial());
        m_job.cancel(); // a run for the previous trial shows nothing
        m_output = {};
        m_stale = true;
        draw();
    }
    if (!m_stale || (!isVisible() && !isUpdatingNow()))
        return;
    start();
}

void CorrelationView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        scheduleUpdate(SelectionChange::View);
}

void CorrelationView::finishUpdate() { m_job.waitAndDeliver(); }

void CorrelationView::start()
{
    m_stale = false;
    const TrialPtr trial = selection()->trial();
    if (!trial) {
        m_job.cancel();
        present({});
        return;
    }
    ProfileMatrixOptions options;
    options.metrics.push_back(MetricId(static_cast<std::size_t>(std::max(0, m_metric->currentData().toInt()))));
    options.inclusive = m_value->currentIndex() == 1;
    options.callPaths = m_callPaths->isChecked();
    m_status->setText(tr("Correlating the events of %1 threads…")
                          .arg(QLocale().toString(static_cast<qulonglong>(trial->threadCount()))));
    m_job.start(
        [trial, options](const std::atomic_bool&) {
            Output out;
            out.trial = trial;
            auto matrix = buildProfileMatrix(*trial, options, &out.error);
            if (!matrix)
                return out;
            out.matrix = std::make_shared<const ProfileMatrix>(std::move(*matrix));
            out.result = std::make_shared<const CorrelationResult>(correlateColumns(*trial, *out.matrix));
            return out;
        },
        [this](Output out) { present(std::move(out)); });
}

void CorrelationView::present(Output output)
{
    m_output = std::move(output);
    if (!m_output.trial)
        m_status->setText(tr("No trial"));
    else if (!m_output.error.isEmpty())
        m_status->setText(tr("Cannot correlate: %1").arg(m_output.error));
    else
        m_status->setText(tr("%1 columns across %2 threads; grey: a constant series (no correlation defined)")
                              .arg(QLocale().toString(static_cast<qulonglong>(m_output.matrix->cols)),
                                  QLocale().toString(static_cast<qulonglong>(m_output.matrix->rows))));
    draw();
}

double CorrelationView::heatMapValue(std::size_t i, std::size_t j) const
{
    return m_map->data()->cell(static_cast<int>(j), static_cast<int>(i));
}

void CorrelationView::draw()
{
    m_shown.clear();
    m_ranked.clear();
    const QSignalBlocker block(m_table);
    m_table->setRowCount(0);
    const auto& r = m_output.result;
    const auto& m = m_output.matrix;
    if (!r || !m) {
        m_map->data()->clear();
        m_plot->replot();
        return;
    }
    const Trial& trial = *m_output.trial;
    const bool spearman = isSpearman();
    const std::vector<double>& coefficients = spearman ? r->spearman : r->pearson;
    // The heat map: the largest columns by mean value.
    const std::vector<double> mean = columnMeans(*m);
    std::vector<std::size_t> order(m->cols);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return mean[a] > mean[b]; });
    order.resize(std::min(order.size(), static_cast<std::size_t>(m_count->value())));
    m_shown = order;
    const auto n = static_cast<int>(order.size());
    m_map->data()->setSize(n, n);
    m_map->data()->setRange(QCPRange(0, n - 1), QCPRange(0, n - 1));
    auto* xTicks = new QCPAxisTickerText;
    auto* yTicks = new QCPAxisTickerText;
    for (int i = 0; i < n; ++i) {
        const QString name = elided(m->columnName(trial, order[static_cast<std::size_t>(i)]));
        xTicks->addTick(i, name);
        yTicks->addTick(i, name);
        for (int j = 0; j < n; ++j)
            m_map->data()->setCell(
                j, i, coefficients[order[static_cast<std::size_t>(i)] * r->cols + order[static_cast<std::size_t>(j)]]);
    }
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(xTicks));
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(yTicks));
    m_plot->xAxis->setRange(-0.5, n - 0.5);
    m_plot->yAxis->setRange(-0.5, n - 0.5);
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->yAxis->grid()->setVisible(false);
    m_map->colorScale()->setLabel(spearman ? tr("Spearman's ρ") : tr("Pearson's r"));
    m_plot->replot();

    // The ranked list: by |coefficient with the total|, the chosen kind; NaN last.
    const std::vector<double>& total = spearman ? r->spearmanTotal : r->pearsonTotal;
    m_ranked.resize(m->cols);
    std::iota(m_ranked.begin(), m_ranked.end(), std::size_t(0));
    std::stable_sort(m_ranked.begin(), m_ranked.end(), [&](std::size_t a, std::size_t b) {
        const double x = std::isnan(total[a]) ? -1 : std::fabs(total[a]);
        const double y = std::isnan(total[b]) ? -1 : std::fabs(total[b]);
        return x > y;
    });
    const QLocale locale;
    auto number = [&](double v) {
        auto* item = new QTableWidgetItem(std::isnan(v) ? tr("—") : locale.toString(v, 'f', 3));
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (!std::isnan(v))
            item->setBackground(divergingColor(std::clamp(v, -1.0, 1.0) * 0.6));
        return item;
    };
    m_table->setRowCount(static_cast<int>(m_ranked.size()));
    for (std::size_t i = 0; i < m_ranked.size(); ++i) {
        const std::size_t c = m_ranked[i];
        auto* name = new QTableWidgetItem(m->columnName(trial, c));
        name->setToolTip(name->text());
        m_table->setItem(static_cast<int>(i), 0, name);
        m_table->setItem(static_cast<int>(i), 1, number(r->pearsonTotal[c]));
        m_table->setItem(static_cast<int>(i), 2, number(r->spearmanTotal[c]));
    }
    m_table->resizeColumnToContents(1);
    m_table->resizeColumnToContents(2);
}

QString CorrelationView::exportImage(const QString& fileName)
{
    updateNow();
    return exportWidget(this, fileName);
}

} // namespace parallax
