// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/comparison/scalingmodelsview.h"

#include "views/charts/chartexport.h"
#include "views/common/valueformatter.h"
#include "views/comparison/comparisonformat.h"
#include "views/comparison/growthoverlay.h"
#include "views/flame/flamegraphwidget.h"
#include "views/selectionstate.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>
#include <cmath>

namespace parallax {

namespace {

constexpr int SortRole = Qt::UserRole;
constexpr int PathRole = Qt::UserRole + 1;

/// Sorts by SortRole with NaN (no value) last in either order.
class ModelSortProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override
    {
        const QVariant a = left.data(SortRole);
        const QVariant b = right.data(SortRole);
        if (a.userType() == QMetaType::Double || b.userType() == QMetaType::Double) {
            const double x = a.toDouble();
            const double y = b.toDouble();
            const bool descending = sortOrder() == Qt::DescendingOrder;
            if (std::isnan(x) != std::isnan(y))
                return descending ? std::isnan(x) : std::isnan(y);
            return x < y;
        }
        return QString::localeAwareCompare(a.toString(), b.toString()) < 0;
    }
};

} // namespace

ScalingModelsView::ScalingModelsView(QWidget* parent)
    : QWidget(parent)
    , m_parameterBox(new QComboBox(this))
    , m_metricBox(new QComboBox(this))
    , m_valueBox(new QComboBox(this))
    , m_statisticBox(new QComboBox(this))
    , m_modelerBox(new QComboBox(this))
    , m_termsBox(new QComboBox(this))
    , m_targetBox(new QSpinBox(this))
    , m_flatBox(new QCheckBox(tr("Flat list"), this))
    , m_progress(new QProgressBar(this))
    , m_summary(new QLabel(this))
    , m_model(new QStandardItemModel(this))
    , m_proxy(new ModelSortProxy(this))
    , m_tree(new QTreeView(this))
    , m_state(new SelectionState(this))
    , m_flame(new FlameGraphWidget(m_state, this))
    , m_legend(new QLabel(this))
{
    m_parameterBox->setToolTip(tr("The parameter p of the models: each run's thread count, or a metadata key with a "
                                  "number in every run (e.g. mpi.world.size)"));
    // Long metadata keys and metric names are elided so the page fits 900 pixels.
    for (QComboBox* box : { m_parameterBox, m_metricBox }) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }
    m_valueBox->addItem(tr("Exclusive"), static_cast<int>(ScalingValue::Exclusive));
    m_valueBox->addItem(tr("Inclusive"), static_cast<int>(ScalingValue::Inclusive));
    m_valueBox->setToolTip(tr("The value the table models and sorts by (exclusive: the call path's own time, so the "
                              "top row is the call path whose own time dominates at P). The flame graph always shows "
                              "the inclusive predictions."));
    m_statisticBox->addItem(tr("Mean over threads"), static_cast<int>(ScalingStatistic::Mean));
    m_statisticBox->addItem(tr("Slowest thread"), static_cast<int>(ScalingStatistic::Max));
    m_statisticBox->setToolTip(tr("T(P): the mean over a run's threads (absent = 0) or the slowest thread's value"));
    m_modelerBox->addItem(tr("Basic modeler"), static_cast<int>(ModelerKind::Basic));
    m_modelerBox->addItem(tr("Refining modeler"), static_cast<int>(ModelerKind::Refining));
    m_modelerBox->setToolTip(tr("Extra-P's modeler: Basic (its default, 42 fixed terms p^i * log2(p)^j) or Refining "
                                "(exponents refined to fractions such as p^(7/3) * log2(p)^(1/2)); "
                                "docs/SEMANTICS.md §10.3, §10.7"));
    m_termsBox->addItem(tr("1 term"), 1);
    m_termsBox->addItem(tr("2 terms"), 2);
    m_termsBox->setToolTip(tr("Terms besides the constant: 1 (Extra-P's default) or 2, c0 + c1 * t1 + c2 * t2 over "
                              "every pair of the Basic modeler's terms (needs 4 parameter values; docs/SEMANTICS.md "
                              "§10.8). The Refining modeler keeps one term."));
    m_modelerBox->setCurrentIndex(m_modelerBox->findData(static_cast<int>(m_request.modeler)));
    m_termsBox->setCurrentIndex(m_termsBox->findData(m_request.terms));
    m_targetBox->setRange(1, 1000000000);
    m_targetBox->setGroupSeparatorShown(true);
    m_targetBox->setValue(static_cast<int>(m_request.target));
    m_targetBox->setToolTip(tr("Predict every call path's value at this parameter value P"));
    m_flatBox->setToolTip(tr("Every call path as one row, sorted by the prediction across the whole tree"));
    m_progress->setVisible(false);
    m_progress->setTextVisible(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_legend->setText(tr("<b>Colour = growth</b> = predicted at P / measured at the largest run, on a log scale: "
                         "%1 (÷100 or less full blue, ×100 or more full red; grey: not measured there). "
                         "Models: Extra-P's modelers (the Basic one with one term by default), docs/SEMANTICS.md §10.")
                          .arg(GrowthOverlay::legendHtml()));

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SortRole);
    m_tree->setModel(m_proxy);
    m_tree->setSortingEnabled(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(false);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->header()->setStretchLastSection(false);

    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(new QLabel(tr("Parameter:"), this));
    controls->addWidget(m_parameterBox);
    controls->addWidget(new QLabel(tr("Metric:"), this));
    controls->addWidget(m_metricBox);
    controls->addWidget(m_valueBox);
    controls->addWidget(m_statisticBox);
    controls->addStretch(1);
    auto* second = new QHBoxLayout;
    second->setContentsMargins(0, 0, 0, 0);
    second->addWidget(new QLabel(tr("Predict at P ="), this));
    second->addWidget(m_targetBox);
    second->addWidget(m_modelerBox);
    second->addWidget(m_termsBox);
    second->addWidget(m_flatBox);
    second->addWidget(m_progress, 1);
    second->addStretch(0);
    second->addWidget(newExportButton(this, tr("Save the page as PNG, SVG or PDF"),
        [this] { exportWidgetInteractively(this, this, QStringLiteral("scaling-models.png")); }));

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_tree);
    splitter->addWidget(m_flame);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(controls);
    layout->addLayout(second);
    layout->addWidget(m_summary);
    layout->addWidget(m_legend);
    layout->addWidget(splitter, 1);

    m_job.followProgress(
        this, [this](int step) { m_progress->setValue(step); },
        [this](const QString& text) { m_progress->setFormat(text); });
    connect(m_parameterBox, &QComboBox::activated, this, [this] { refit(); });
    connect(m_metricBox, &QComboBox::activated, this, [this] { refit(); });
    connect(m_statisticBox, &QComboBox::activated, this, [this] { refit(); });
    connect(m_modelerBox, &QComboBox::activated, this,
        [this] { setModeler(static_cast<ModelerKind>(m_modelerBox->currentData().toInt())); });
    connect(m_termsBox, &QComboBox::activated, this, [this] { setTerms(m_termsBox->currentData().toInt()); });
    connect(m_valueBox, &QComboBox::activated, this,
        [this] { setValue(static_cast<ScalingValue>(m_valueBox->currentData().toInt())); });
    connect(m_targetBox, &QSpinBox::valueChanged, this, [this](int target) {
        m_request.target = target;
        if (m_set && m_set->error.isEmpty() && !m_job.isRunning())
            show(ScalingModels::retarget(*m_set, target));
    });
    connect(m_flatBox, &QCheckBox::toggled, this, &ScalingModelsView::setFlat);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& index) {
        if (!m_set || !index.isValid())
            return;
        const QString path = m_proxy->mapToSource(index.siblingAtColumn(PathColumn)).data(PathRole).toString();
        for (std::size_t i = 0; i < m_set->rows.size(); ++i)
            if (m_set->rows[i].path == path && m_flame->tree())
                m_flame->zoomTo(m_set->rows[i].parent >= 0 ? static_cast<int>(i) : -1);
    });
    m_summary->setText(tr("Waiting for the runs' statistics…"));
}

ScalingModelsView::~ScalingModelsView() { m_job.cancelAndWait(); }

void ScalingModelsView::setSnapshot(std::shared_ptr<const ScalingSnapshot> snapshot)
{
    m_snapshot = std::move(snapshot);
    {
        const QSignalBlocker a(m_parameterBox);
        const QSignalBlocker b(m_metricBox);
        m_parameterBox->clear();
        m_parameterBox->addItems(ScalingModels::parameters(*m_snapshot));
        m_metricBox->clear();
        m_metricBox->addItems(m_snapshot->metrics);
    }
    if (!m_snapshot->trials.empty()) {
        // The largest run gives the flame graph its metric and units.
        m_state->setTrial(m_snapshot->trials.back());
    }
    refit();
}

void ScalingModelsView::refit()
{
    if (!m_snapshot)
        return;
    m_request.parameter = m_parameterBox->count() ? m_parameterBox->currentText() : QStringLiteral("threads");
    m_request.metric = m_metricBox->currentText();
    m_request.statistic = static_cast<ScalingStatistic>(m_statisticBox->currentData().toInt());
    m_request.modeler = static_cast<ModelerKind>(m_modelerBox->currentData().toInt());
    m_request.terms = m_termsBox->currentData().toInt();
    m_request.target = m_targetBox->value();
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("Fitting models…"));
    m_progress->setVisible(true);
    m_job.startWithProgress(
        1000,
        [snapshot = m_snapshot, request = m_request](const std::atomic_bool& cancel, const auto& progress) {
            return ScalingModels::build(*snapshot, request, &cancel, [&progress](int done, int total) {
                progress(total > 0 ? 1000 * done / total : 1000,
                    QObject::tr("Fitting models: %1 of %2 call paths").arg(done).arg(total));
            });
        },
        [this](std::shared_ptr<const ScalingModelSet> set) { show(std::move(set)); });
    m_progress->setRange(0, 1000);
}

void ScalingModelsView::waitForResult() { m_job.waitAndDeliver(); }

void ScalingModelsView::show(std::shared_ptr<const ScalingModelSet> set)
{
    m_progress->setVisible(false);
    if (!set || set->cancelled)
        return;
    if (set->error.isEmpty() && (set->request.target != m_request.target || set->request.value != m_request.value)) {
        // The target or the value changed while fitting.
        auto copy = std::make_shared<ScalingModelSet>(*set);
        copy->request.value = m_request.value;
        set = ScalingModels::retarget(*copy, m_request.target);
    }
    m_set = std::move(set);
    if (const Trial* t = m_snapshot && !m_snapshot->trials.empty() ? m_snapshot->trials.back().get() : nullptr) {
        const MetricId m = t->findMetric(m_set->metric);
        if (m.isValid())
            m_state->setMetric(m);
    }
    fillTree();
    fillFlame();
    Q_EMIT ready();
}

QString ScalingModelsView::formatValue(double value) const
{
    if (!std::isfinite(value))
        return QStringLiteral("—");
    const Trial* trial = m_snapshot && !m_snapshot->trials.empty() ? m_snapshot->trials.back().get() : nullptr;
    const MetricId m = trial && m_set ? trial->findMetric(m_set->metric) : MetricId();
    if (!m.isValid())
        return groupingLocale().toString(value, 'g', 6);
    return compareText(value, trial->metric(m), CompareValue::Inclusive, m_unit, groupingLocale());
}

void ScalingModelsView::fillTree()
{
    m_model->clear();
    const QLocale locale = groupingLocale();
    const QString p = m_set ? m_set->parameterName : QStringLiteral("p");
    const QString largest = m_set ? locale.toString(m_set->largest) : QString();
    const QString target = locale.toString(m_request.target);
    m_model->setHorizontalHeaderLabels({ tr("Call path"), tr("Model f(%1)").arg(p), tr("SMAPE %"), tr("Adj. R²"),
        tr("Measured at %1").arg(largest), tr("Predicted at %1").arg(target), tr("Growth") });
    m_model->horizontalHeaderItem(MeasuredColumn)
        ->setToolTip(tr("The value measured at the largest parameter value, %1 = %2").arg(p, largest));
    m_model->horizontalHeaderItem(PredictedColumn)->setToolTip(tr("The model's value at %1 = %2").arg(p, target));
    if (!m_set || !m_set->error.isEmpty()) {
        m_summary->setText(m_set ? tr("<b>No models:</b> %1").arg(m_set->error.toHtmlEscaped()) : QString());
        return;
    }
    const ScalingValue value = m_set->request.value;
    // Times (µs) in the unit of the largest measured value: s from 1 s, ms from 1 ms, else µs.
    double largestMeasured = 0;
    for (const CallPathModel& row : m_set->rows)
        if (std::isfinite(row.side(value).measured))
            largestMeasured = std::max(largestMeasured, std::abs(row.side(value).measured));
    m_unit = largestMeasured >= 1e6 ? TimeUnit::Seconds
        : largestMeasured >= 1e3    ? TimeUnit::Milliseconds
                                    : TimeUnit::Microseconds;
    auto rowItems = [&](const CallPathModel& row) {
        const CallPathModel::Side& s = row.side(value);
        QList<QStandardItem*> items;
        auto* name = new QStandardItem(m_flat ? row.path : row.label);
        name->setData(row.path, PathRole);
        name->setData(m_flat ? row.path : row.label, SortRole);
        name->setToolTip(row.path);
        items << name;
        auto add = [&](const QString& text, const QVariant& sort, Qt::Alignment align = Qt::AlignRight) {
            auto* item = new QStandardItem(text);
            item->setData(sort, SortRole);
            item->setTextAlignment(align | Qt::AlignVCenter);
            items << item;
        };
        const bool fitted = !row.synthetic && s.model.valid;
        add(fitted ? s.model.formula(p, 4) : tr("(no data)"), fitted ? s.model.formula(p) : QString(), Qt::AlignLeft);
        add(fitted ? locale.toString(s.model.smape, 'f', 2) : QStringLiteral("—"), fitted ? s.model.smape : qQNaN());
        add(fitted ? locale.toString(s.model.adjustedR2, 'f', 4) : QStringLiteral("—"),
            fitted ? s.model.adjustedR2 : qQNaN());
        add(formatValue(s.measured), s.measured);
        add(formatValue(s.predicted), fitted ? s.predicted : qQNaN());
        add(GrowthOverlay::growthText(s.growth), s.growth);
        const QColor colour = row.synthetic ? QColor() : ScalingModels::growthColour(s.growth);
        for (QStandardItem* item : items) {
            item->setEditable(false);
            if (colour.isValid()) {
                item->setBackground(colour);
                item->setForeground(tintedTextColor(colour));
            }
        }
        if (fitted)
            items[ModelColumn]->setToolTip(s.model.formula(p) + QStringLiteral("\n")
                + tr("%1 points%2")
                      .arg(s.model.points)
                      .arg(s.model.fewPoints ? tr(", fewer than Extra-P's minimum of 5") : QString())
                + (s.model.fewPointsForTerms ? tr("; fewer than the 4 two terms need: one term") : QString()));
        return items;
    };
    std::vector<QStandardItem*> itemOf(m_set->rows.size(), nullptr);
    for (std::size_t i = 0; i < m_set->rows.size(); ++i) {
        const CallPathModel& row = m_set->rows[i];
        if (m_flat && row.synthetic)
            continue;
        const auto items = rowItems(row);
        itemOf[i] = items.front();
        if (!m_flat && row.parent >= 0 && itemOf[static_cast<std::size_t>(row.parent)])
            itemOf[static_cast<std::size_t>(row.parent)]->appendRow(items);
        else
            m_model->appendRow(items);
    }
    m_tree->sortByColumn(PredictedColumn, Qt::DescendingOrder);
    m_tree->header()->setSectionResizeMode(PathColumn, QHeaderView::Interactive);
    m_tree->setColumnWidth(PathColumn, m_flat ? 420 : 260);
    for (int c = ModelColumn; c <= GrowthColumn; ++c)
        m_tree->resizeColumnToContents(c);
    m_tree->setColumnWidth(ModelColumn, std::min(m_tree->columnWidth(ModelColumn), 330));

    // The dominating call path: expanded to, selected and named.
    const QString valueName = value == ScalingValue::Inclusive ? tr("inclusive") : tr("exclusive");
    if (m_set->top < 0) {
        m_summary->setText(tr("No call path has a model."));
        return;
    }
    const CallPathModel& top = m_set->rows[static_cast<std::size_t>(m_set->top)];
    const QModelIndex source = m_model->indexFromItem(itemOf[static_cast<std::size_t>(m_set->top)]);
    const QModelIndex shown = m_proxy->mapFromSource(source);
    for (QModelIndex up = shown.parent(); up.isValid(); up = up.parent())
        m_tree->expand(up);
    {
        const QSignalBlocker block(m_tree->selectionModel());
        m_tree->setCurrentIndex(shown);
    }
    m_tree->scrollTo(shown);
    const CallPathModel::Side& s = top.side(value);
    std::size_t fitted = 0;
    for (const CallPathModel& row : m_set->rows)
        fitted += row.synthetic ? 0 : 1;
    m_summary->setText(
        tr("<b>Dominates at %1 = %2</b> (%3 %4, %5): <b>%6</b> — predicted %7, measured %8 at %1 = %9, growth %10; "
           "model <tt>%11</tt>. %12 call paths modelled over %13 = %14.")
            .arg(p.toHtmlEscaped(), target, valueName, m_set->metric.toHtmlEscaped(),
                m_set->request.statistic == ScalingStatistic::Mean ? tr("mean over threads") : tr("slowest thread"),
                top.path.toHtmlEscaped(), formatValue(s.predicted), formatValue(s.measured), largest,
                GrowthOverlay::growthText(s.growth), s.model.formula(p, 4).toHtmlEscaped())
            .arg(fitted)
            .arg(m_set->request.parameter.toHtmlEscaped(),
                [&] {
                    QStringList v;
                    for (double x : m_set->parameterValues)
                        v << locale.toString(x);
                    return v.join(QStringLiteral(", "));
                }())
        + (m_set->parameterValues.size() < 5
                ? tr(" <i>Fewer than 5 parameter values (Extra-P's minimum): the models are weak.</i>")
                : QString()));
}

void ScalingModelsView::fillFlame()
{
    // Without models there is no flame graph (showTree(nullptr) would draw the largest run's own).
    const bool fitted = m_set && m_set->error.isEmpty();
    m_flame->setVisible(fitted);
    if (!fitted)
        return;
    m_flame->showTree(ScalingModels::predictedFlameTree(*m_set));
    const QLocale locale = groupingLocale();
    std::vector<QColor> colours;
    std::vector<QString> notes;
    colours.reserve(m_set->rows.size());
    notes.reserve(m_set->rows.size());
    const QString p = m_set->parameterName;
    for (const CallPathModel& row : m_set->rows) {
        const CallPathModel::Side& s = row.inclusive;
        colours.push_back(row.synthetic ? QColor(0xd0, 0xd0, 0xd0) : ScalingModels::growthColour(s.growth));
        notes.push_back(row.synthetic || !s.model.valid
                ? tr("No model (no run measured this call path itself)")
                : tr("Inclusive model: %1\nPredicted at %2 = %3: %4; measured at %2 = %5: %6; growth %7")
                      .arg(s.model.formula(p, 4), p, locale.toString(m_request.target), formatValue(s.predicted),
                          locale.toString(m_set->largest), formatValue(s.measured),
                          GrowthOverlay::growthText(s.growth)));
    }
    m_flame->setNodeColours(std::move(colours), std::move(notes), tr("Growth"));
}

bool ScalingModelsView::setParameter(const QString& parameter)
{
    const int i = m_parameterBox->findText(parameter);
    if (i < 0)
        return false;
    m_parameterBox->setCurrentIndex(i);
    refit();
    return true;
}

QString ScalingModelsView::parameter() const { return m_parameterBox->currentText(); }

QStringList ScalingModelsView::parameters() const
{
    QStringList list;
    for (int i = 0; i < m_parameterBox->count(); ++i)
        list << m_parameterBox->itemText(i);
    return list;
}

bool ScalingModelsView::setMetric(const QString& metric)
{
    const int i = m_metricBox->findText(metric);
    if (i < 0)
        return false;
    m_metricBox->setCurrentIndex(i);
    refit();
    return true;
}

void ScalingModelsView::setValue(ScalingValue value)
{
    m_request.value = value;
    m_valueBox->setCurrentIndex(m_valueBox->findData(static_cast<int>(value)));
    if (m_set && m_set->error.isEmpty() && !m_job.isRunning()) {
        auto set = std::make_shared<ScalingModelSet>(*m_set);
        set->request.value = value;
        show(ScalingModels::retarget(*set, m_request.target));
    }
}

void ScalingModelsView::setStatistic(ScalingStatistic statistic)
{
    m_statisticBox->setCurrentIndex(m_statisticBox->findData(static_cast<int>(statistic)));
    refit();
}

void ScalingModelsView::setModeler(ModelerKind modeler)
{
    m_modelerBox->setCurrentIndex(m_modelerBox->findData(static_cast<int>(modeler)));
    // The Refining modeler keeps one term (Extra-P's RefiningModeler).
    if (modeler == ModelerKind::Refining)
        m_termsBox->setCurrentIndex(m_termsBox->findData(1));
    m_termsBox->setEnabled(modeler == ModelerKind::Basic);
    refit();
}

void ScalingModelsView::setTerms(int terms)
{
    if (terms == 2) { // two terms are the Basic modeler's
        m_modelerBox->setCurrentIndex(m_modelerBox->findData(static_cast<int>(ModelerKind::Basic)));
        m_termsBox->setEnabled(true);
    }
    m_termsBox->setCurrentIndex(m_termsBox->findData(terms == 2 ? 2 : 1));
    refit();
}

void ScalingModelsView::setTarget(int target) { m_targetBox->setValue(target); }

int ScalingModelsView::target() const { return m_targetBox->value(); }

void ScalingModelsView::setFlat(bool flat)
{
    m_flat = flat;
    {
        const QSignalBlocker block(m_flatBox);
        m_flatBox->setChecked(flat);
    }
    fillTree();
}

QString ScalingModelsView::topPath() const
{
    return m_set && m_set->top >= 0 ? m_set->rows[static_cast<std::size_t>(m_set->top)].path : QString();
}

QString ScalingModelsView::exportImage(const QString& fileName)
{
    waitForResult();
    return exportWidget(this, fileName);
}

} // namespace parallax
