// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/semantic/semanticcomparison.h"

#include "algebra/operations.h"
#include "views/charts/chartstyle.h"
#include "views/charts/valueaxisticker.h"
#include "views/comparison/comparisonformat.h"
#include "views/semantic/semanticrender.h"
#include "views/viewsetup.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTreeView>
#include <QVBoxLayout>
#include <cmath>
#include <limits>

namespace parallax {

using namespace parallax::semantic;

namespace {

constexpr int maxBars = 30;

double rootTotal(const SemanticProfile& p, MetricId m, const Scope& scope)
{
    double sum = 0;
    for (int r : p.roots())
        sum += p.scoped(r, m, Quantity::Roll, scope);
    return sum;
}

/// Entities whose WEIGHTED weights come from trial metadata (what makes a model non-linear).
QStringList metadataWeightedAssociations(const Model& model)
{
    QStringList out;
    for (const Association& a : model.associations) {
        if (a.policy != Policy::Weighted)
            continue;
        for (const QString& id : a.target.ids) {
            const Entity* e = model.findEntity(id);
            if (e && e->attrs.value(a.weightAttr).kind == AttrValue::Kind::Metadata) {
                out << a.id;
                break;
            }
        }
    }
    return out;
}

} // namespace

SemanticComparison::SemanticComparison(QWidget* parent)
    : QWidget(parent)
    , m_disagreement(std::numeric_limits<double>::quiet_NaN())
    , m_table(new SemanticComparisonModel(this))
    , m_header(new QLabel(this))
    , m_linearity(new QLabel(this))
    , m_metricBox(new QComboBox(this))
    , m_scopeBox(new QComboBox(this))
    , m_threadBox(new QComboBox(this))
    , m_checkDiff(new QCheckBox(tr("Also attribute the diff trial A − B"), this))
    , m_stack(new QStackedWidget(this))
    , m_message(new QLabel(this))
    , m_plot(new QCustomPlot)
    , m_totals(new QLabel(this))
{
    setWindowTitle(tr("Semantic comparison"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::RichText);
    layout->addWidget(m_header);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Metric:"), this));
    controls->addWidget(m_metricBox);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Threads:"), this));
    m_scopeBox->addItem(tr("Mean over threads"), static_cast<int>(Scope::Kind::Mean));
    m_scopeBox->addItem(tr("Total over threads"), static_cast<int>(Scope::Kind::Total));
    m_scopeBox->addItem(tr("One thread"), static_cast<int>(Scope::Kind::Thread));
    controls->addWidget(m_scopeBox);
    controls->addWidget(m_threadBox);
    m_threadBox->setEnabled(false);
    controls->addSpacing(12);
    m_checkDiff->setToolTip(tr("Build diff(A, B) with the algebra, attribute it through the model and show that it "
                               "agrees with the semantic diff (linear models only)"));
    controls->addWidget(m_checkDiff);
    controls->addStretch(1);
    layout->addLayout(controls);

    m_linearity->setWordWrap(true);
    m_linearity->setTextFormat(Qt::RichText);
    layout->addWidget(m_linearity);

    auto* splitter = new QSplitter(Qt::Horizontal);
    auto* view = new QTreeView;
    ViewSetupOptions options;
    options.placeholder = tr("Filter entities…");
    options.countNoun = tr("entity");
    options.countNounPlural = tr("entities");
    m_setup = std::make_unique<ViewSetup>(setupTreeView(view, m_table, options));
    view->setRootIsDecorated(false);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->header()->setSortIndicator(-1, Qt::AscendingOrder);
    m_setup->proxy->sort(-1);
    splitter->addWidget(m_setup->widget);

    m_plot->setMinimumSize(320, 240);
    // Δ in the display unit already: round ticks with no needless decimals, digit grouping.
    m_plot->xAxis->setTicker(QSharedPointer<ValueAxisTicker>::create());
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->yAxis->setSubTicks(false);
    m_title = ChartStyle::addTitle(m_plot);
    ChartStyle::apply(m_plot);
    splitter->addWidget(m_plot);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 560, 440 });
    m_stack->addWidget(splitter);
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_message->setMargin(12);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stack->addWidget(m_message);
    layout->addWidget(m_stack, 1);

    m_totals->setWordWrap(true);
    m_totals->setTextFormat(Qt::RichText);
    layout->addWidget(m_totals);

    connect(m_metricBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i < 0)
            return;
        m_metric = m_metricBox->itemText(i);
        restart(true, true);
    });
    connect(m_scopeBox, &QComboBox::currentIndexChanged, this, [this](int) {
        m_scope = static_cast<Scope::Kind>(m_scopeBox->currentData().toInt());
        m_threadBox->setEnabled(m_scope == Scope::Kind::Thread);
        if (m_scope == Scope::Kind::Thread && m_threadBox->currentIndex() >= 0 && m_a)
            m_thread = m_a->threadKey(ThreadIndex(static_cast<std::uint32_t>(m_threadBox->currentData().toInt())));
        restart(true, true);
        Q_EMIT scopeChanged(m_scope);
    });
    connect(m_threadBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i < 0 || !m_a)
            return;
        m_thread = m_a->threadKey(ThreadIndex(static_cast<std::uint32_t>(m_threadBox->currentData().toInt())));
        if (m_scope == Scope::Kind::Thread)
            restart(true, true);
    });
    connect(m_checkDiff, &QCheckBox::toggled, this, [this](bool) { restart(true, true); });
    connect(view, &QTreeView::doubleClicked, this, [this](const QModelIndex& proxyIndex) {
        const int row = m_setup->proxy->mapToSource(proxyIndex).row();
        if (row >= 0 && row < m_table->rowCount())
            Q_EMIT entityActivated(m_table->rows()[static_cast<std::size_t>(row)].diff.id);
    });
    updateHeader();
}

SemanticComparison::~SemanticComparison() = default; // Job lets a running computation finish without us

void SemanticComparison::setInput(const Model& model, TrialPtr a, TrialPtr b)
{
    m_model = model;
    m_a = std::move(a);
    m_b = std::move(b);
    inputChanged();
}

void SemanticComparison::setModel(const Model& model)
{
    m_model = model;
    inputChanged();
}

void SemanticComparison::setTrials(TrialPtr a, TrialPtr b)
{
    m_a = std::move(a);
    m_b = std::move(b);
    inputChanged();
}

void SemanticComparison::inputChanged()
{
    // New model or trials: the attributed profiles and the cached diff error are stale.
    m_pa.reset();
    m_pb.reset();
    m_pd.reset();
    m_cachedDiffError.clear();
    fillControls();
    restart(false, false);
}

void SemanticComparison::fillControls()
{
    {
        const QSignalBlocker block(m_metricBox);
        m_metricBox->clear();
        if (m_a)
            for (const Metric& m : m_a->metrics())
                m_metricBox->addItem(m.name);
        int i = m_metricBox->findText(m_metric);
        if (i < 0)
            i = 0;
        m_metricBox->setCurrentIndex(i);
        m_metric = m_metricBox->currentText();
    }
    {
        const QSignalBlocker block(m_threadBox);
        m_threadBox->clear();
        if (m_a && m_b)
            for (std::size_t t = 0; t < m_a->threadCount(); ++t) {
                const ThreadKey& key = m_a->threadKey(ThreadIndex(t));
                if (m_b->findThread(key).isValid())
                    m_threadBox->addItem(key.toString(), static_cast<int>(t));
            }
        const int i = m_threadBox->findText(m_thread.toString());
        m_threadBox->setCurrentIndex(i >= 0 ? i : 0);
    }
    {
        const QSignalBlocker block(m_checkDiff);
        const bool linear = isLinear();
        m_checkDiff->setEnabled(linear);
        if (!linear)
            m_checkDiff->setChecked(false);
    }
    m_linearity->setText(linearityText());
}

bool SemanticComparison::setMetric(const QString& name)
{
    const int i = m_metricBox->findText(name);
    if (i < 0)
        return false;
    m_metric = name;
    if (m_metricBox->currentIndex() == i)
        restart(true, true);
    else
        m_metricBox->setCurrentIndex(i);
    return true;
}

void SemanticComparison::setScope(Scope::Kind kind, const ThreadKey& thread)
{
    m_thread = thread;
    {
        const QSignalBlocker block(m_threadBox);
        const int t = m_threadBox->findText(thread.toString());
        if (t >= 0)
            m_threadBox->setCurrentIndex(t);
    }
    m_scope = kind;
    {
        const QSignalBlocker block(m_scopeBox);
        m_scopeBox->setCurrentIndex(m_scopeBox->findData(static_cast<int>(kind)));
    }
    m_threadBox->setEnabled(kind == Scope::Kind::Thread);
    restart(true, true);
}

void SemanticComparison::setCheckDiffTrial(bool check)
{
    if (!isLinear())
        return;
    if (m_checkDiff->isChecked() == check)
        return;
    m_checkDiff->setChecked(check); // restarts
}

bool SemanticComparison::checksDiffTrial() const { return m_checkDiff->isChecked() && isLinear(); }

QString SemanticComparison::linearityText() const
{
    if (!m_model)
        return {};
    if (m_model->isLinear()) {
        return tr("Each trial is attributed with its own weights, then the entities are compared: Δ = S(A) − S(B). "
                  "This model is <b>linear</b> (DIRECT, AMORTIZE, AGGREGATE, literal weights), so attributing the "
                  "difference trial gives the same numbers: S(A − B) = S(A) − S(B).");
    }
    const QStringList weighted = metadataWeightedAssociations(*m_model);
    return QStringLiteral("<span style='color:#6b4500'>⚠ ")
        + tr("This model is <b>not linear</b>: %1 takes WEIGHTED weights from each trial's metadata. The weights of A "
             "and B differ, so mapping the difference trial A − B with one set of weights would misattribute the "
             "change. Only per-trial attribution is used: each trial is mapped with "
             "its own weights, and the entity values are subtracted.")
              .arg(weighted.isEmpty() ? tr("an association")
                                      : tr("association(s) %1").arg(weighted.join(QStringLiteral(", "))))
        + QStringLiteral("</span>");
}

void SemanticComparison::restart(bool keepProfiles, bool keepDiff)
{
    if (!m_model || !m_a || !m_b)
        return;
    Input input;
    input.model = m_model;
    input.a = m_a;
    input.b = m_b;
    input.metric = m_metric;
    input.scope = m_scope;
    input.thread = m_thread;
    input.checkDiff = checksDiffTrial();
    if (keepProfiles) {
        input.pa = m_pa;
        input.pb = m_pb;
    }
    if (keepDiff) {
        input.pd = m_pd;
        input.diffError = m_cachedDiffError;
    }
    // A newer restart() supersedes a running computation: its result is dropped.
    m_job.start(
        [input](const std::atomic_bool&) { return compute(input); }, [this](const Result& result) { apply(result); });
    updateHeader();
}

SemanticComparison::Result SemanticComparison::compute(const Input& input)
{
    Result r;
    if (!input.model || !input.a || !input.b) {
        r.error = tr("A model and two trials are needed.");
        return r;
    }
    const Model& model = *input.model;
    auto attributeOne = [&](const TrialPtr& trial, const QString& which, const ProfilePtr& cached, ProfilePtr& out) {
        if (cached) {
            out = cached;
            return true;
        }
        auto result = attribute(model, trial);
        if (auto* error = std::get_if<AttributionError>(&result)) {
            r.error = tr("%1 (%2) cannot be attributed through '%3': %4")
                          .arg(which, trial->name(), model.name, error->message);
            return false;
        }
        out = std::get<ProfilePtr>(result);
        return true;
    };
    if (!attributeOne(input.a, QStringLiteral("A"), input.pa, r.pa)
        || !attributeOne(input.b, QStringLiteral("B"), input.pb, r.pb))
        return r;

    const QString metric
        = input.metric.isEmpty() && input.a->metricCount() ? input.a->metric(MetricId(0u)).name : input.metric;
    const MetricId ma = input.a->findMetric(metric), mb = input.b->findMetric(metric);
    if (!ma.isValid() || !mb.isValid()) {
        r.error = tr("%1 has no metric '%2'.").arg(!ma.isValid() ? QStringLiteral("A") : QStringLiteral("B"), metric);
        return r;
    }
    r.metric = input.a->metric(ma);
    Scope sa = Scope::mean(), sb = Scope::mean();
    if (input.scope == Scope::Kind::Total) {
        sa = sb = Scope::total();
    } else if (input.scope == Scope::Kind::Thread) {
        const ThreadIndex ta = input.a->findThread(input.thread), tb = input.b->findThread(input.thread);
        if (!ta.isValid() || !tb.isValid()) {
            r.error = tr("%1 has no thread %2.")
                          .arg(!ta.isValid() ? QStringLiteral("A") : QStringLiteral("B"), input.thread.toString());
            return r;
        }
        sa = Scope::ofThread(ta);
        sb = Scope::ofThread(tb);
    }
    for (DiffRow& d : semanticDifference(*r.pa, *r.pb, metric, sa, sb))
        r.rows.push_back({ std::move(d), false, 0 });
    r.totalA = rootTotal(*r.pa, ma, sa);
    r.totalB = rootTotal(*r.pb, mb, sb);

    // The linearity check: attribute diff(A, B) itself. Never for a non-linear model (example F).
    if (input.checkDiff && model.isLinear()) {
        r.diffTried = true;
        r.pd = input.pd;
        r.diffError = input.diffError;
        if (!r.pd && r.diffError.isEmpty()) {
            const AlgebraResult diff = difference(*input.a, *input.b);
            if (!diff.ok()) {
                r.diffError = tr("the algebra cannot build diff(A, B): %1").arg(diff.error());
            } else {
                auto result = attribute(model, diff.trial());
                if (auto* error = std::get_if<AttributionError>(&result))
                    r.diffError = tr("the diff trial cannot be attributed: %1").arg(error->message);
                else
                    r.pd = std::get<ProfilePtr>(result);
            }
        }
        if (r.pd) {
            const Trial& d = r.pd->trial();
            const MetricId md = d.findMetric(metric);
            Scope sd = input.scope == Scope::Kind::Total ? Scope::total() : Scope::mean();
            bool ok = md.isValid();
            if (input.scope == Scope::Kind::Thread) {
                const ThreadIndex td = d.findThread(input.thread);
                ok = ok && td.isValid();
                sd = Scope::ofThread(td);
            }
            if (!ok) {
                r.diffError = tr("the diff trial has no metric '%1' or thread %2").arg(metric, input.thread.toString());
            } else {
                r.haveMapped = true;
                double worst = 0;
                for (SemanticComparisonRow& row : r.rows) {
                    const int e = r.pd->findEntity(row.diff.id);
                    row.haveMapped = true;
                    row.mapped = e >= 0 ? r.pd->scoped(e, md, Quantity::Roll, sd) : 0;
                    worst = std::max(worst, std::abs(row.mapped - row.diff.diff));
                }
                r.disagreement = worst;
            }
        }
    }
    return r;
}

void SemanticComparison::waitForResult()
{
    while (m_job.isRunning()) // a result may start the next computation
        m_job.waitAndDeliver();
}

void SemanticComparison::apply(const Result& result)
{
    m_error = result.error;
    if (result.pa)
        m_pa = result.pa;
    if (result.pb)
        m_pb = result.pb;
    if (result.diffTried) {
        m_pd = result.pd;
        m_cachedDiffError = result.diffError;
    }
    m_diffError = result.diffTried ? result.diffError : QString();
    m_disagreement = result.haveMapped ? result.disagreement : std::numeric_limits<double>::quiet_NaN();
    if (!m_error.isEmpty()) {
        m_table->setRows({}, Metric(), false);
        m_message->setText(tr("<b>No semantic comparison.</b><br>%1").arg(m_error.toHtmlEscaped()));
        m_stack->setCurrentWidget(m_message);
        m_totals->clear();
        m_barIds.clear();
        updateHeader();
        Q_EMIT computed(false);
        return;
    }
    m_totalA = result.totalA;
    m_totalB = result.totalB;
    m_table->setRows(result.rows, result.metric, result.haveMapped);
    m_setup->view->setColumnHidden(SemanticComparisonModel::MappedDiff, !result.haveMapped);
    for (int c = 0; c < SemanticComparisonModel::ColumnCount; ++c)
        m_setup->view->resizeColumnToContents(c);
    m_setup->view->header()->resizeSection(SemanticComparisonModel::Entity,
        std::min(m_setup->view->header()->sectionSize(SemanticComparisonModel::Entity), 260));
    m_stack->setCurrentIndex(0);
    rebuildChart();

    // Totals: Σ over the roots = Σ own over all entities, (unmapped) included.
    const QLocale locale = groupingLocale();
    const double delta = m_totalA - m_totalB;
    int onlyA = 0, onlyB = 0, changed = 0;
    for (const SemanticComparisonRow& row : m_table->rows()) {
        onlyA += row.diff.inA && !row.diff.inB ? 1 : 0;
        onlyB += row.diff.inB && !row.diff.inA ? 1 : 0;
        changed += row.diff.diff != 0 ? 1 : 0;
    }
    QString totals
        = tr("<b>Totals</b> (Σ over root entities, (unmapped) included): A = %1 %4, B = %2 %4, Δ = %3 %4")
              .arg(m_table->number(m_totalA), m_table->number(m_totalB), m_table->number(delta, true), m_table->unit());
    const QString pct = SemanticComparisonModel::deltaPercentText(m_totalA, m_totalB, locale);
    if (!pct.isEmpty())
        totals += QStringLiteral(" (%1)").arg(pct);
    totals += tr(" — %1 entities, %2 changed, %3 only in A, %4 only in B.")
                  .arg(m_table->rowCount())
                  .arg(changed)
                  .arg(onlyA)
                  .arg(onlyB);
    if (result.diffTried) {
        if (!m_diffError.isEmpty())
            totals += QStringLiteral("<br><span style='color:#b00000'>")
                + tr("Diff trial: %1").arg(m_diffError.toHtmlEscaped()) + QStringLiteral("</span>");
        else if (result.haveMapped) {
            const bool agrees = m_disagreement <= 1e-9 * std::max({ 1.0, std::abs(m_totalA), std::abs(m_totalB) });
            totals += QStringLiteral("<br>")
                + (agrees ? tr(
                       "<span style='color:#1a6b1a'>✓ The attributed diff trial agrees: max |S(A − B) − Δ| = %1 %2 "
                       "(the model is linear).</span>")
                          : tr("<span style='color:#b00000'>✗ The attributed diff trial disagrees: max |S(A − B) − Δ| "
                               "= %1 %2.</span>"))
                      .arg(locale.toString(m_disagreement, 'g', 3),
                          m_table->metric().isTime() ? tr("µs") : m_table->metric().unit);
        }
    }
    m_totals->setText(totals);
    updateHeader();
    Q_EMIT computed(true);
}

void SemanticComparison::rebuildChart()
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_barIds.clear();
    const Metric& metric = m_table->metric();
    const double scale = fromDisplayUnit(1.0, metric, CompareValue::Exclusive, m_table->timeUnit());
    std::vector<const SemanticComparisonRow*> shown;
    double largest = 0;
    for (const SemanticComparisonRow& row : m_table->rows())
        largest = std::max(largest, std::max(std::abs(row.diff.a), std::abs(row.diff.b)));
    for (const SemanticComparisonRow& row : m_table->rows()) { // already sorted by |Δ|
        if (std::abs(row.diff.diff) <= 1e-12 * std::max(1.0, largest))
            continue;
        shown.push_back(&row);
        if (static_cast<int>(shown.size()) >= maxBars)
            break;
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    auto* better = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    auto* worse = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    const double sign = improvementSign(metric.higherIsBetter);
    better->setName(tr("improvement"));
    worse->setName(tr("regression"));
    better->setBrush(improvementColor());
    better->setPen(QPen(improvementColor().darker(130)));
    worse->setBrush(regressionColor());
    worse->setPen(QPen(regressionColor().darker(130)));
    better->setWidth(0.7);
    worse->setWidth(0.7);
    double maxAbs = 0;
    const int n = static_cast<int>(shown.size());
    // At least a dozen bar bands, so that a few bars stay thin and sit at the top.
    const int bands = std::max(n, 12);
    QFont small = m_plot->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    for (int i = 0; i < n; ++i) {
        const SemanticComparisonRow& row = *shown[static_cast<std::size_t>(i)];
        const double key = bands - 1 - i;
        const double value = row.diff.diff / scale;
        (row.diff.diff * sign > 0 ? better : worse)->addData(key, value);
        maxAbs = std::max(maxAbs, std::abs(value));
        QString label = row.diff.name.isEmpty() ? row.diff.id : row.diff.name;
        if (label.size() > 36)
            label = label.left(35) + QStringLiteral("…");
        if (row.diff.estimate)
            label += QStringLiteral(" ≈");
        if (row.diff.inA != row.diff.inB)
            label += row.diff.inA ? QStringLiteral(" ◀") : QStringLiteral(" ▶");
        ticker->addTick(key, label);
        m_barIds << row.diff.id;
        auto* text = new QCPItemText(m_plot);
        text->position->setType(QCPItemPosition::ptPlotCoords);
        text->position->setAxes(m_plot->xAxis, m_plot->yAxis);
        text->position->setCoords(value, key);
        text->setPositionAlignment(Qt::AlignVCenter | (value >= 0 ? Qt::AlignLeft : Qt::AlignRight));
        text->setPadding(QMargins(3, 0, 3, 0));
        text->setFont(small);
        text->setColor(palette().color(QPalette::WindowText));
        text->setText(m_table->number(row.diff.diff, true));
        text->setClipToAxisRect(false);
    }
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setRange(-0.7, bands - 1 + 0.7);
    if (maxAbs == 0)
        maxAbs = 1;
    // Room for the value labels on both sides of zero.
    m_plot->xAxis->setRange(-maxAbs * 1.3, maxAbs * 1.3);
    const QString unit = m_table->unit();
    m_plot->xAxis->setLabel(unit.isEmpty() ? tr("Δ = A − B") : tr("Δ = A − B (%1)").arg(unit));
    ChartStyle::apply(m_plot);
    QPen zero(palette().color(QPalette::WindowText), 1);
    m_plot->xAxis->grid()->setZeroLinePen(zero);
    QString subtitle;
    if (n == 0)
        subtitle = tr("no entity changes");
    else
        subtitle
            = tr("%1 largest |Δ| of %2 entities; blue = improvement, red = regression").arg(n).arg(m_table->rowCount());
    ChartStyle::setTitle(m_title, tr("Semantic difference by entity (%1)").arg(metric.name), subtitle);
    m_plot->replot();
}

void SemanticComparison::updateHeader()
{
    if (!m_model || !m_a || !m_b) {
        m_header->setText(tr("Choose a model and two trials."));
        return;
    }
    QString scope;
    switch (m_scope) {
    case Scope::Kind::Mean:
        scope = tr("mean over threads");
        break;
    case Scope::Kind::Total:
        scope = tr("total over threads");
        break;
    case Scope::Kind::Thread:
        scope = tr("thread %1").arg(m_thread.toString());
        break;
    }
    m_header->setText(tr("<b>%1</b>: A = <b>%2</b> (baseline) vs B = <b>%3</b> (candidate), %4%5")
                          .arg(m_model->name.toHtmlEscaped(), m_a->name().toHtmlEscaped(), m_b->name().toHtmlEscaped(),
                              scope, m_job.isRunning() ? tr(" — computing…") : QString()));
    m_linearity->setText(linearityText());
}

QString SemanticComparison::render(const QString& fileName, const QSize& size)
{
    waitForResult();
    if (size.isValid())
        resize(size);
    m_plot->replot();
    return semanticview::renderWidgetToFile(this, fileName, size);
}

} // namespace parallax
