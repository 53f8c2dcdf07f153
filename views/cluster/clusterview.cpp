// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/cluster/clusterview.h"

#include "algebra/units.h"
#include "views/charts/chartexport.h"
#include "views/charts/chartstyle.h"
#include "views/charts/colors.h"
#include "views/cluster/clustershared.h"
#include "views/common/flowlayout.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax {

namespace {

enum Column { ColCluster, ColThreads, ColShare, ColRepresentative, ColSilhouette, ColCount };

/// Clusters' colours: the ranked qualitative palette, so cluster 1 and 2 differ most.
QColor clusterColor(int cluster)
{
    const auto& palette = rankedPalette();
    return QColor::fromRgb(palette[static_cast<std::size_t>(cluster) % palette.size()]);
}

/// How many events the profile chart shows.
constexpr std::size_t ProfileEvents = 12;

} // namespace

ClusterView::ClusterView(SelectionState* state, QWidget* parent)
    : QWidget(parent)
    , SelectionView(this, state, SelectionChange::Trial)
{
    auto* layout = new QVBoxLayout(this);
    auto* bar = new FlowLayout;
    m_method = new QComboBox;
    m_method->addItem(tr("k-means"), static_cast<int>(ClusterMethod::KMeans));
    m_method->addItem(tr("Ward"), static_cast<int>(ClusterMethod::Ward));
    m_method->setToolTip(tr("k-means (k-means++ seeds, the least inertia of several runs) or Ward's agglomerative "
                            "clustering (on a sample of 4,096 threads when there are more; docs/SEMANTICS.md §11)"));
    m_kMode = new QComboBox;
    m_kMode->addItem(tr("Best k by silhouette"));
    m_kMode->addItem(tr("k ="));
    m_k = new QSpinBox;
    m_k->setRange(1, 64);
    m_k->setValue(2);
    m_kMin = new QSpinBox;
    m_kMin->setRange(2, 64);
    m_kMin->setValue(2);
    m_kMax = new QSpinBox;
    m_kMax->setRange(2, 64);
    m_kMax->setValue(8);
    m_kMin->setToolTip(tr("The smallest k tried"));
    m_kMax->setToolTip(tr("The largest k tried"));
    m_metric = new QComboBox;
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_metric->setMaximumWidth(260);
    m_metric->setToolTip(tr("The metric whose values form the columns (or every metric)"));
    m_value = new QComboBox;
    m_value->addItem(tr("Exclusive"));
    m_value->addItem(tr("Inclusive"));
    m_normalisation = new QComboBox;
    m_normalisation->addItem(tr("Raw"), static_cast<int>(ClusterNormalisation::Raw));
    m_normalisation->addItem(tr("Per-thread share"), static_cast<int>(ClusterNormalisation::Share));
    m_normalisation->addItem(tr("Z-score"), static_cast<int>(ClusterNormalisation::ZScore));
    m_normalisation->setToolTip(tr("Raw values; each value as a share of the thread's sum; or each event "
                                   "centred and scaled to unit variance across threads"));
    m_callPaths = new QCheckBox(tr("Call paths"));
    m_callPaths->setToolTip(tr("Cluster by the call paths instead of the flat events"));
    auto label = [](const QString& text) { return new QLabel(text); };
    bar->addWidget(label(tr("Method:")));
    bar->addWidget(m_method);
    bar->addWidget(m_kMode);
    bar->addWidget(m_k);
    bar->addWidget(label(tr("k from")));
    bar->addWidget(m_kMin);
    bar->addWidget(label(tr("to")));
    bar->addWidget(m_kMax);
    bar->addWidget(label(tr("Metric:")));
    bar->addWidget(m_metric);
    bar->addWidget(label(tr("Value:")));
    bar->addWidget(m_value);
    bar->addWidget(label(tr("Rows:")));
    bar->addWidget(m_normalisation);
    bar->addWidget(m_callPaths);
    bar->addWidget(newExportButton(this, tr("Save the view as PNG, SVG or PDF"),
        [this] { exportWidgetInteractively(this, this, QStringLiteral("clusters.png")); }));
    layout->addLayout(bar);

    m_scatter = new QCustomPlot;
    ChartStyle::apply(m_scatter);
    m_scatter->setMinimumSize(300, 250);
    m_table = new QTableWidget(0, ColCount);
    m_table->setHorizontalHeaderLabels(
        { tr("Cluster"), tr("Threads"), tr("Share"), tr("Representative"), tr("Silhouette") });
    m_table->horizontalHeaderItem(ColRepresentative)
        ->setToolTip(tr("The member nearest the cluster's centroid (n,c,t)"));
    m_table->horizontalHeaderItem(ColSilhouette)
        ->setToolTip(tr("The mean silhouette of the cluster's members (on the sample the silhouette was taken on)"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_profile = new QCustomPlot;
    ChartStyle::apply(m_profile);
    m_profile->setMinimumSize(300, 200);

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_table);
    right->addWidget(m_profile);
    right->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_scatter);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({ 600, 600 });
    right->setSizes({ 250, 450 });
    layout->addWidget(split, 1);

    auto* statusRow = new QHBoxLayout;
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_progress = new QProgressBar;
    m_progress->setMaximumWidth(200);
    m_progress->hide();
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->hide();
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_progress);
    statusRow->addWidget(m_cancel);
    layout->addLayout(statusRow);

    auto changed = [this] {
        readControls();
        m_stale = true;
        scheduleUpdate(SelectionChange::View);
    };
    connect(m_method, &QComboBox::activated, this, changed);
    connect(m_kMode, &QComboBox::activated, this, changed);
    connect(m_k, &QSpinBox::editingFinished, this, changed);
    connect(m_kMin, &QSpinBox::editingFinished, this, changed);
    connect(m_kMax, &QSpinBox::editingFinished, this, changed);
    connect(m_metric, &QComboBox::activated, this, changed);
    connect(m_value, &QComboBox::activated, this, changed);
    connect(m_normalisation, &QComboBox::activated, this, changed);
    connect(m_callPaths, &QCheckBox::toggled, this, changed);
    connect(m_cancel, &QPushButton::clicked, this, &ClusterView::cancel);
    // Progress of a cancelled run may still arrive from the pool: only the running one's counts.
    m_job.followProgress(
        this,
        [this](int value) {
            if (m_job.isRunning())
                m_progress->setValue(value);
        },
        [this](const QString& text) {
            if (m_job.isRunning())
                m_status->setText(text);
        });
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) { selectCluster(row); });
    connect(m_scatter, &QCustomPlot::plottableClick, this,
        [this](QCPAbstractPlottable* plottable, int dataIndex, QMouseEvent*) {
            if (auto* graph = qobject_cast<QCPGraph*>(plottable))
                scatterClicked(graph, dataIndex);
        });
    readControls();
    if (state->trial())
        scheduleUpdate(SelectionChange::Trial);
}

ClusterView::~ClusterView() { m_job.cancelAndWait(); }

void ClusterView::readControls()
{
    m_options.method = static_cast<ClusterMethod>(m_method->currentData().toInt());
    m_options.k = m_kMode->currentIndex() == 0 ? 0 : m_k->value();
    m_options.kMin = std::min(m_kMin->value(), m_kMax->value());
    m_options.kMax = std::max(m_kMin->value(), m_kMax->value());
    m_options.pca = true;
    m_k->setEnabled(m_kMode->currentIndex() == 1);
    m_kMin->setEnabled(m_kMode->currentIndex() == 0);
    m_kMax->setEnabled(m_kMode->currentIndex() == 0);
    m_matrixOptions.normalisation = static_cast<ClusterNormalisation>(m_normalisation->currentData().toInt());
    m_matrixOptions.inclusive = m_value->currentIndex() == 1;
    m_matrixOptions.callPaths = m_callPaths->isChecked();
    m_matrixOptions.metrics.clear();
    const int metric = m_metric->currentData().toInt();
    const auto& trial = selection()->trial();
    if (trial && metric < 0)
        for (std::size_t m = 0; m < trial->metricCount(); ++m)
            m_matrixOptions.metrics.push_back(MetricId(m));
    else if (trial && metric >= 0 && static_cast<std::size_t>(metric) < trial->metricCount())
        m_matrixOptions.metrics.push_back(MetricId(static_cast<std::size_t>(metric)));
}

void ClusterView::setMethod(ClusterMethod method)
{
    m_method->setCurrentIndex(m_method->findData(static_cast<int>(method)));
    Q_EMIT m_method->activated(m_method->currentIndex());
}

void ClusterView::setK(int k)
{
    m_kMode->setCurrentIndex(k > 0 ? 1 : 0);
    if (k > 0)
        m_k->setValue(k);
    Q_EMIT m_kMode->activated(m_kMode->currentIndex());
}

void ClusterView::setKRange(int lo, int hi)
{
    m_kMin->setValue(lo);
    m_kMax->setValue(hi);
    Q_EMIT m_kMax->editingFinished();
}

void ClusterView::setNormalisation(ClusterNormalisation normalisation)
{
    m_normalisation->setCurrentIndex(m_normalisation->findData(static_cast<int>(normalisation)));
    Q_EMIT m_normalisation->activated(m_normalisation->currentIndex());
}

void ClusterView::setInclusive(bool inclusive)
{
    m_value->setCurrentIndex(inclusive ? 1 : 0);
    Q_EMIT m_value->activated(m_value->currentIndex());
}

void ClusterView::setCallPaths(bool callPaths) { m_callPaths->setChecked(callPaths); }

void ClusterView::selectionChanged(SelectionChanges changes)
{
    if ((changes & (SelectionChange::ThreadSet | SelectionChange::Thread)) && !(changes & SelectionChange::Trial))
        styleScatter();
    SelectionView::selectionChanged(changes);
}

void ClusterView::doUpdate(SelectionChanges changes)
{
    if (changes & SelectionChange::Trial) {
        fillMetricBox(m_metric, selection()->trial(), tr("All metrics"));
        m_job.cancel(); // a run for the previous trial shows nothing
        readControls();
        m_output = {};
        m_current = -1;
        m_stale = true;
        fillTable();
        drawScatter();
        drawProfile();
    }
    if (!m_stale)
        return;
    // A hidden tab computes when it is shown (a 131,072-thread trial costs seconds).
    if (!isVisible() && !isUpdatingNow())
        return;
    start();
}

void ClusterView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        scheduleUpdate(SelectionChange::View);
}

void ClusterView::finishUpdate() { m_job.waitAndDeliver(); }

void ClusterView::start()
{
    m_stale = false;
    const TrialPtr trial = selection()->trial();
    if (!trial) {
        m_job.cancel();
        present({});
        return;
    }
    const ProfileMatrixOptions matrixOptions = m_matrixOptions;
    ClusterOptions options = m_options;
    // A small trial: k at most one less than its threads (a silhouette needs two clusters and a
    // cluster with two members).
    const int most = std::max(1, static_cast<int>(std::min<std::size_t>(trial->threadCount(), 1u << 20)) - 1);
    options.kMax = std::min(options.kMax, most);
    options.kMin = std::min(options.kMin, options.kMax);
    if (options.k > 0)
        options.k = std::min(options.k, static_cast<int>(std::min<std::size_t>(trial->threadCount(), 1u << 20)));
    if (options.k == 0 && options.kMax < 2)
        options.k = 1;
    const int steps = (options.k == 0 ? options.kMax - options.kMin + 1 : 1) + 2;
    m_progress->setRange(0, steps);
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    m_status->setText(
        tr("Clustering %1 threads…").arg(QLocale().toString(static_cast<qulonglong>(trial->threadCount()))));
    m_job.startWithProgress(
        steps,
        [trial, matrixOptions, options, steps](const std::atomic_bool& cancel, const Job<Output>::Progress& progress) {
            QElapsedTimer timer;
            timer.start();
            Output out;
            out.trial = trial;
            progress(0, tr("Building the thread × event matrix…"));
            auto matrix = buildProfileMatrix(*trial, matrixOptions, &out.error);
            if (!matrix)
                return out;
            out.matrix = std::make_shared<const ProfileMatrix>(std::move(*matrix));
            ClusterOptions o = options;
            o.cancel = &cancel;
            o.progress = [&progress, steps](int step, int) {
                progress(step + 1, tr("Clustering: step %1 of %2…").arg(step + 1).arg(steps));
            };
            progress(1, tr("Clustering…"));
            auto result = std::make_shared<ClusterResult>(parallax::clusterThreads(*out.matrix, o));
            if (!result->error.isEmpty())
                out.error = result->error;
            out.result = std::move(result);
            out.seconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
            return out;
        },
        [this](Output out) { present(std::move(out)); });
}

void ClusterView::cancel()
{
    if (!m_job.isRunning())
        return;
    m_job.cancel();
    m_progress->hide();
    m_cancel->hide();
    m_status->setText(tr("Cancelled. Change a setting to cluster again."));
}

void ClusterView::present(Output output)
{
    m_progress->hide();
    m_cancel->hide();
    m_output = std::move(output);
    const auto& r = m_output.result;
    m_current = r && r->ok() && !r->clusters.empty() ? 0 : -1;
    if (!m_output.trial) {
        m_status->setText(tr("No trial"));
    } else if (!m_output.error.isEmpty()) {
        m_status->setText(tr("Cannot cluster: %1").arg(m_output.error));
    } else if (r && r->cancelled) {
        m_status->setText(tr("Cancelled."));
    } else if (r) {
        const QLocale locale;
        QString text = tr("%1: %2 threads × %3 columns (%4), %5 clusters, silhouette %6")
                           .arg(clusterMethodName(m_options.method))
                           .arg(locale.toString(static_cast<qulonglong>(m_output.matrix->rows)))
                           .arg(locale.toString(static_cast<qulonglong>(m_output.matrix->cols)))
                           .arg(clusterNormalisationName(m_output.matrix->normalisation))
                           .arg(r->k)
                           .arg(std::isnan(r->silhouette) ? tr("—") : locale.toString(r->silhouette, 'f', 3));
        if (r->silhouetteRows < m_output.matrix->rows)
            text += tr(" (on a sample of %1)").arg(locale.toString(static_cast<qulonglong>(r->silhouetteRows)));
        if (!r->silhouettes.empty()) {
            QStringList tried;
            for (const auto& [k, s] : r->silhouettes)
                tried << QStringLiteral("k=%1: %2").arg(k).arg(std::isnan(s) ? tr("—") : locale.toString(s, 'f', 3));
            text += tr("; tried %1").arg(tried.join(QStringLiteral(", ")));
            if (r->kSearchRows < m_output.matrix->rows)
                text += tr(" on a sample of %1 threads").arg(locale.toString(static_cast<qulonglong>(r->kSearchRows)));
        }
        text += tr("; %1 s").arg(locale.toString(m_output.seconds, 'f', 2));
        m_status->setText(text);
    }
    fillTable();
    drawScatter();
    drawProfile();
    Q_EMIT clusteringShown();
}

std::vector<ThreadIndex> ClusterView::clusterThreads(int cluster) const
{
    std::vector<ThreadIndex> threads;
    const auto& r = m_output.result;
    if (!r || cluster < 0)
        return threads;
    for (std::size_t t = 0; t < r->labels.size(); ++t)
        if (r->labels[t] == cluster)
            threads.emplace_back(t);
    return threads;
}

void ClusterView::fillTable()
{
    const QSignalBlocker block(m_table);
    const auto& r = m_output.result;
    const bool ok = r && r->ok();
    m_table->setRowCount(ok ? static_cast<int>(r->clusters.size()) : 0);
    if (!ok)
        return;
    const QLocale locale;
    const Trial& trial = *m_output.trial;
    const auto rows = static_cast<double>(r->labels.size());
    for (std::size_t c = 0; c < r->clusters.size(); ++c) {
        const ThreadCluster& cl = r->clusters[c];
        const int row = static_cast<int>(c);
        auto* name = new QTableWidgetItem(tr("Cluster %1").arg(c + 1));
        name->setData(Qt::DecorationRole, clusterColor(row));
        m_table->setItem(row, ColCluster, name);
        auto number = [&](const QString& text) {
            auto* item = new QTableWidgetItem(text);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            return item;
        };
        m_table->setItem(row, ColThreads, number(locale.toString(static_cast<qulonglong>(cl.size))));
        m_table->setItem(row, ColShare,
            number(locale.toString(100.0 * static_cast<double>(cl.size) / rows, 'f', 1) + QStringLiteral(" %")));
        m_table->setItem(
            row, ColRepresentative, new QTableWidgetItem(trial.threadKey(ThreadIndex(cl.representative)).toString()));
        m_table->setItem(
            row, ColSilhouette, number(std::isnan(cl.silhouette) ? tr("—") : locale.toString(cl.silhouette, 'f', 3)));
    }
    m_table->resizeColumnsToContents();
    if (m_current >= 0)
        m_table->selectRow(m_current);
}

void ClusterView::drawScatter()
{
    m_scatter->clearPlottables();
    m_scatter->clearItems();
    m_graphs.clear();
    m_pointThreads.clear();
    m_threadMark = nullptr;
    const auto& r = m_output.result;
    if (!r || !r->ok() || r->pcaX.empty()) {
        m_scatter->replot();
        return;
    }
    const std::size_t k = r->clusters.size();
    m_pointThreads.assign(k, {});
    for (std::size_t t = 0; t < r->labels.size(); ++t)
        m_pointThreads[static_cast<std::size_t>(r->labels[t])].push_back(static_cast<std::uint32_t>(t));
    for (std::size_t c = 0; c < k; ++c) {
        auto& threads = m_pointThreads[c];
        // QCPGraph keeps its points sorted by key: sort them so, and the data index maps to a thread.
        std::stable_sort(
            threads.begin(), threads.end(), [&](std::uint32_t a, std::uint32_t b) { return r->pcaX[a] < r->pcaX[b]; });
        QVector<double> x, y;
        x.reserve(static_cast<qsizetype>(threads.size()));
        y.reserve(static_cast<qsizetype>(threads.size()));
        for (std::uint32_t t : threads) {
            x.push_back(r->pcaX[t]);
            y.push_back(r->pcaY[t]);
        }
        QCPGraph* g = m_scatter->addGraph();
        g->setName(tr("Cluster %1 (%2)").arg(c + 1).arg(QLocale().toString(static_cast<qulonglong>(threads.size()))));
        g->setLineStyle(QCPGraph::lsNone);
        g->setData(x, y, true);
        g->setAdaptiveSampling(false);
        m_graphs.push_back(g);
    }
    if (!m_scatter->layer(QStringLiteral("current"))) {
        m_scatter->addLayer(QStringLiteral("current"), m_scatter->layer(QStringLiteral("main")), QCustomPlot::limAbove);
        m_scatter->addLayer(
            QStringLiteral("thread"), m_scatter->layer(QStringLiteral("current")), QCustomPlot::limAbove);
    }
    m_threadMark = m_scatter->addGraph();
    m_threadMark->setLayer(QStringLiteral("thread"));
    m_threadMark->setLineStyle(QCPGraph::lsNone);
    m_threadMark->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2), Qt::NoBrush, 14));
    m_threadMark->removeFromLegend();
    m_threadMark->setSelectable(QCP::stNone);
    const QLocale locale;
    m_scatter->xAxis->setLabel(tr("PC 1 (%1 % of the variance)").arg(locale.toString(100 * r->explained[0], 'f', 1)));
    m_scatter->yAxis->setLabel(tr("PC 2 (%1 % of the variance)").arg(locale.toString(100 * r->explained[1], 'f', 1)));
    m_scatter->legend->setVisible(k <= 16);
    m_scatter->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_scatter->rescaleAxes();
    for (QCPAxis* axis : { m_scatter->xAxis, m_scatter->yAxis }) {
        const QCPRange range = axis->range();
        const double pad = range.size() > 0 ? range.size() * 0.05 : 1.0;
        axis->setRange(range.lower - pad, range.upper + pad);
    }
    styleScatter();
}

void ClusterView::styleScatter()
{
    if (m_graphs.empty())
        return;
    // The selected set's cluster (or the current one) full size; the others lighter.
    const auto& selected = selection()->selectedThreads();
    const std::size_t points = m_output.result ? m_output.result->labels.size() : 0;
    const double size = points > 20000 ? 3 : points > 2000 ? 5 : 8;
    for (std::size_t c = 0; c < m_graphs.size(); ++c) {
        QColor color = clusterColor(static_cast<int>(c));
        const bool highlighted = static_cast<int>(c) == m_current && !selected.empty();
        if (!selected.empty() && !highlighted)
            color.setAlpha(110);
        m_graphs[c]->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, highlighted ? size + 2 : size));
    }
    // The current cluster on top of the others.
    for (std::size_t c = 0; c < m_graphs.size(); ++c)
        m_graphs[c]->setLayer(static_cast<int>(c) == m_current ? QStringLiteral("current") : QStringLiteral("main"));
    m_threadMark->data()->clear();
    const ThreadIndex t = selection()->thread();
    const auto& r = m_output.result;
    if (t.isValid() && r && t.index() < r->pcaX.size() && selection()->trial() == m_output.trial)
        m_threadMark->addData(r->pcaX[t.index()], r->pcaY[t.index()]);
    m_scatter->replot();
}

void ClusterView::drawProfile()
{
    m_profile->clearPlottables();
    m_profile->plotLayout()->simplify();
    const auto& r = m_output.result;
    if (!r || !r->ok() || m_current < 0 || !m_output.matrix) {
        m_profile->replot();
        return;
    }
    const ProfileMatrix& m = *m_output.matrix;
    const Trial& trial = *m_output.trial;
    const ThreadCluster& cl = r->clusters[static_cast<std::size_t>(m_current)];
    // The overall mean per column, to read the cluster against.
    const std::vector<double> mean = columnMeans(m);
    std::vector<std::size_t> order(m.cols);
    std::iota(order.begin(), order.end(), std::size_t(0));
    const std::size_t shown = std::min(order.size(), ProfileEvents);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
        [&](std::size_t a, std::size_t b) { return cl.meanRaw[a] > cl.meanRaw[b]; });
    order.resize(shown);
    // One unit for the chart: the first column's metric, time in the selection's unit.
    const Metric& metric = trial.metric(m.columns.empty() ? MetricId(0u) : m.columns.front().metric);
    const TimeUnit unit = selection()->timeUnit();
    const double factor = !metric.isTime() ? 1.0
        : unit == TimeUnit::Seconds        ? 1e-6
        : unit == TimeUnit::Milliseconds   ? 1e-3
                                           : 1.0;
    auto* ticker = new QCPAxisTickerText;
    QVector<double> keys, clusterValues, meanValues;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const double key = static_cast<double>(order.size() - i); // largest at the top
        keys << key;
        clusterValues << cl.meanRaw[order[i]] * factor;
        meanValues << mean[order[i]] * factor;
        QString name = m.columnName(trial, order[i]);
        if (name.size() > 40)
            name = name.left(18) + QStringLiteral("…") + name.right(20);
        ticker->addTick(key, name);
    }
    auto* all = new QCPBars(m_profile->yAxis, m_profile->xAxis);
    all->setName(tr("All threads (mean)"));
    all->setPen(Qt::NoPen);
    all->setBrush(QColor(0xbd, 0xbd, 0xbd));
    all->setWidth(0.38);
    auto* bars = new QCPBars(m_profile->yAxis, m_profile->xAxis);
    bars->setName(tr("Cluster %1 (mean)").arg(m_current + 1));
    bars->setPen(Qt::NoPen);
    bars->setBrush(clusterColor(m_current));
    bars->setWidth(0.38);
    QVector<double> upper, lower;
    for (double k : keys) {
        upper << k + 0.2;
        lower << k - 0.2;
    }
    bars->setData(upper, clusterValues);
    all->setData(lower, meanValues);
    m_profile->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(ticker));
    m_profile->yAxis->setRange(0.4, static_cast<double>(order.size()) + 0.6);
    m_profile->yAxis->grid()->setVisible(false);
    const QString unitText = unitLabel(metric, unit);
    m_profile->xAxis->setLabel(
        tr("%1 %2 per thread").arg(m_matrixOptions.inclusive ? tr("Inclusive") : tr("Exclusive"), metric.name)
        + (unitText.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(unitText)));
    m_profile->xAxis->rescale();
    m_profile->xAxis->setRangeLower(0);
    m_profile->xAxis->setRangeUpper(m_profile->xAxis->range().upper * 1.05);
    m_profile->legend->setVisible(true);
    m_profile->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    m_profile->replot();
}

void ClusterView::selectCluster(int cluster)
{
    const auto& r = m_output.result;
    if (!r || !r->ok() || cluster < 0 || static_cast<std::size_t>(cluster) >= r->clusters.size())
        return;
    if (cluster != m_current) {
        m_current = cluster;
        const QSignalBlocker block(m_table);
        m_table->selectRow(cluster);
        drawProfile();
    }
    if (selection()->trial() == m_output.trial)
        selection()->selectThreads(clusterThreads(cluster));
    styleScatter();
}

void ClusterView::scatterClicked(QCPGraph* graph, int dataIndex)
{
    const auto it = std::find(m_graphs.begin(), m_graphs.end(), graph);
    if (it == m_graphs.end())
        return;
    const auto c = static_cast<std::size_t>(it - m_graphs.begin());
    if (dataIndex < 0 || static_cast<std::size_t>(dataIndex) >= m_pointThreads[c].size())
        return;
    selectCluster(static_cast<int>(c));
    if (selection()->trial() == m_output.trial)
        selection()->selectThread(ThreadIndex(m_pointThreads[c][static_cast<std::size_t>(dataIndex)]));
}

QPoint ClusterView::scatterPosition(ThreadIndex thread) const
{
    const auto& r = m_output.result;
    if (!r || !thread.isValid() || thread.index() >= r->pcaX.size())
        return { -1, -1 };
    const double x = m_scatter->xAxis->coordToPixel(r->pcaX[thread.index()]);
    const double y = m_scatter->yAxis->coordToPixel(r->pcaY[thread.index()]);
    return QPoint(static_cast<int>(std::lround(x)), static_cast<int>(std::lround(y)));
}

QString ClusterView::exportImage(const QString& fileName)
{
    updateNow();
    return exportWidget(this, fileName);
}

} // namespace parallax
