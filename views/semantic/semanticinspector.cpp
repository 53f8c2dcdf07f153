// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/semantic/semanticinspector.h"

#include "views/semantic/semanticrender.h"
#include "views/viewsetup.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace parallax {

using namespace parallax::semantic;

SemanticInspector::SemanticInspector(QWidget* parent)
    : QWidget(parent)
    , m_model(new SemanticInspectorModel(this))
    , m_header(new QLabel(this))
    , m_banner(new QLabel(this))
    , m_metricBox(new QComboBox(this))
    , m_scopeBox(new QComboBox(this))
    , m_stack(new QStackedWidget(this))
    , m_message(new QLabel(this))
{
    setWindowTitle(tr("Mapping inspector"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);

    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_header);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Metric:"), this));
    controls->addWidget(m_metricBox);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Value:"), this));
    // Mean first and by default, as in the other semantic tabs and the main window's statistics.
    m_scopeBox->addItem(tr("Mean per thread"), static_cast<int>(SemanticInspectorModel::ValueScope::Mean));
    m_scopeBox->addItem(tr("Total over threads"), static_cast<int>(SemanticInspectorModel::ValueScope::Total));
    m_model->setValueScope(SemanticInspectorModel::ValueScope::Mean);
    controls->addWidget(m_scopeBox);
    controls->addSpacing(12);
    auto* expand = new QPushButton(tr("Expand all"), this);
    auto* collapse = new QPushButton(tr("Collapse"), this);
    controls->addWidget(expand);
    controls->addWidget(collapse);
    controls->addStretch(1);
    layout->addLayout(controls);

    m_banner->setWordWrap(true);
    m_banner->setTextFormat(Qt::RichText);
    m_banner->hide();
    layout->addWidget(m_banner);

    auto* tree = new QTreeView;
    ViewSetupOptions options;
    options.filterColumn = -1;
    options.placeholder = tr("Filter associations and events…");
    options.countNoun = tr("association");
    options.countNounPlural = tr("associations");
    m_setup = std::make_unique<ViewSetup>(setupTreeView(tree, m_model, options));
    tree->setUniformRowHeights(true);
    tree->setAlternatingRowColors(true);
    // Children are sorted by the proxy too, but the associations stay in file order by default.
    tree->header()->setSortIndicator(-1, Qt::AscendingOrder);
    m_setup->proxy->sort(-1);
    m_setup->proxy->setRecursiveFilteringEnabled(true);
    m_stack->addWidget(m_setup->widget);
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setMargin(12);
    m_stack->addWidget(m_message);
    layout->addWidget(m_stack, 1);

    connect(m_metricBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0)
            m_model->setMetric(MetricId(static_cast<std::uint32_t>(i)));
        updateHeader();
    });
    connect(m_scopeBox, &QComboBox::activated, this, [this](int) {
        const auto scope = static_cast<SemanticInspectorModel::ValueScope>(m_scopeBox->currentData().toInt());
        m_model->setValueScope(scope);
        Q_EMIT valueScopeChanged(scope);
    });
    connect(expand, &QPushButton::clicked, tree, &QTreeView::expandAll);
    connect(collapse, &QPushButton::clicked, tree, &QTreeView::collapseAll);
    connect(tree, &QTreeView::doubleClicked, this, [this](const QModelIndex& proxyIndex) {
        const QModelIndex index = m_setup->proxy->mapToSource(proxyIndex);
        const int event = index.data(SemanticInspectorModel::EventRole).toInt();
        if (event >= 0) {
            Q_EMIT eventActivated(EventId(static_cast<std::uint32_t>(event)));
            return;
        }
        const int association = index.data(SemanticInspectorModel::AssociationRole).toInt();
        const ProfilePtr p = m_model->profile();
        if (association >= 0 && p)
            Q_EMIT associationActivated(p->model().associations[static_cast<std::size_t>(association)].id);
    });
    updateHeader();
}

// A running job only reads shared, immutable data; Job lets it finish without us.
SemanticInspector::~SemanticInspector() = default;

QTreeView* SemanticInspector::treeView() const { return m_setup->view; }

void SemanticInspector::setModel(const Model& model, const TrialPtr& trial)
{
    start([model, trial]() {
        Result r;
        if (!trial) {
            r.error = tr("No trial.");
            return r;
        }
        auto result = attribute(model, trial);
        if (auto* error = std::get_if<AttributionError>(&result)) {
            r.error = error->message;
            return r;
        }
        r.snapshot = InspectorSnapshot::make(std::get<ProfilePtr>(result));
        return r;
    });
}

void SemanticInspector::setProfile(const ProfilePtr& profile)
{
    start([profile]() {
        Result r;
        r.snapshot = InspectorSnapshot::make(profile);
        return r;
    });
}

void SemanticInspector::start(std::function<Result()> job)
{
    m_header->setText(tr("Attributing…"));
    // A newer start() supersedes a running one: its result is dropped.
    m_job.start([job = std::move(job)](const std::atomic_bool&) { return job(); },
        [this](const Result& result) { apply(result); });
}

bool SemanticInspector::isComputing() const { return m_job.isRunning(); }

void SemanticInspector::waitForResult() { m_job.waitAndDeliver(); }

void SemanticInspector::apply(const Result& result)
{
    m_error = result.error;
    if (!result.error.isEmpty() || !result.snapshot || !result.snapshot->profile) {
        m_model->setSnapshot(nullptr);
        m_message->setText(
            tr("<b>The model cannot be applied to this trial.</b><br>%1").arg(result.error.toHtmlEscaped()));
        m_stack->setCurrentWidget(m_message);
        m_banner->hide();
        updateHeader();
        Q_EMIT computed(false);
        return;
    }
    const QString keepMetric = !m_pendingMetric.isEmpty() ? m_pendingMetric : m_metricBox->currentText();
    m_model->setSnapshot(result.snapshot);
    fillMetrics();
    if (!keepMetric.isEmpty())
        setMetric(keepMetric);
    m_stack->setCurrentWidget(m_setup->widget);
    const QString banner = warningText();
    m_banner->setText(banner);
    // Yellow for warnings; notes alone in the window's own colours.
    m_banner->setStyleSheet(hasProblems()
            ? QStringLiteral("QLabel { background: #fff3cd; color: #6b4500; border: 1px solid #e0b040; "
                             "border-radius: 3px; padding: 4px; }")
            : QStringLiteral("QLabel { border: 1px solid palette(mid); border-radius: 3px; padding: 4px; }"));
    m_banner->setVisible(!banner.isEmpty());
    expandWarnings();
    QTreeView* tree = m_setup->view;
    tree->header()->resizeSection(SemanticInspectorModel::Name, 240);
    for (int c = SemanticInspectorModel::Selector; c < SemanticInspectorModel::Warnings; ++c)
        tree->resizeColumnToContents(c);
    for (int c : { SemanticInspectorModel::Selector, SemanticInspectorModel::Targets })
        tree->header()->resizeSection(c, std::min(tree->header()->sectionSize(c), 190));
    updateHeader();
    Q_EMIT computed(true);
}

void SemanticInspector::fillMetrics()
{
    const ProfilePtr p = m_model->profile();
    const QSignalBlocker block(m_metricBox);
    m_metricBox->clear();
    if (!p)
        return;
    for (const Metric& m : p->trial().metrics())
        m_metricBox->addItem(m.name);
    m_metricBox->setCurrentIndex(static_cast<int>(m_model->metric().index()));
}

bool SemanticInspector::setMetric(const QString& name)
{
    const ProfilePtr p = m_model->profile();
    if (!p) {
        m_pendingMetric = name;
        return true;
    }
    const MetricId m = p->trial().findMetric(name);
    if (!m.isValid())
        return false;
    m_pendingMetric.clear();
    m_metricBox->setCurrentIndex(static_cast<int>(m.index()));
    m_model->setMetric(m);
    updateHeader();
    return true;
}

void SemanticInspector::setValueScope(SemanticInspectorModel::ValueScope scope)
{
    const QSignalBlocker block(m_scopeBox);
    m_scopeBox->setCurrentIndex(m_scopeBox->findData(static_cast<int>(scope)));
    m_model->setValueScope(scope);
}

void SemanticInspector::setTimeUnit(TimeUnit unit) { m_model->setTimeUnit(unit); }

bool SemanticInspector::hasProblems() const
{
    const ProfilePtr p = m_model->profile();
    return p && std::any_of(p->warnings().begin(), p->warnings().end(), [](const Warning& w) { return !w.note; });
}

QString SemanticInspector::warningText() const
{
    const ProfilePtr p = m_model->profile();
    if (!p || p->warnings().empty())
        return {};
    // Problems first, then notes (events matched twice and resolved by priority).
    std::vector<const Warning*> ordered;
    for (const Warning& w : p->warnings())
        if (!w.note)
            ordered.push_back(&w);
    const auto problems = ordered.size();
    for (const Warning& w : p->warnings())
        if (w.note)
            ordered.push_back(&w);
    QStringList items;
    constexpr std::size_t shown = 6;
    for (std::size_t i = 0; i < ordered.size() && i < shown; ++i) {
        const Warning& w = *ordered[i];
        const QString message = (w.note ? tr("note: ") : QString()) + w.message;
        items << (w.association.isEmpty()
                ? message.toHtmlEscaped()
                : QStringLiteral("<b>%1</b>: %2").arg(w.association.toHtmlEscaped(), message.toHtmlEscaped()));
    }
    if (ordered.size() > shown)
        items << tr("and %1 more (see the Warnings column)").arg(ordered.size() - shown);
    const auto notes = ordered.size() - problems;
    // Only problems earn the warning sign; notes alone (events resolved by priority) read as plain news.
    QString head = problems == 0 ? tr("No warnings")
        : problems == 1          ? QStringLiteral("⚠ ") + tr("1 warning")
                                 : QStringLiteral("⚠ ") + tr("%1 warnings").arg(problems);
    if (notes)
        head += notes == 1 ? tr(", 1 note") : tr(", %1 notes").arg(notes);
    return head + QStringLiteral(":<br>") + items.join(QStringLiteral("<br>"));
}

void SemanticInspector::expandWarnings()
{
    QTreeView* tree = m_setup->view;
    QSortFilterProxyModel* proxy = m_setup->proxy;
    for (int row = 0; row < proxy->rowCount(); ++row) {
        const QModelIndex index = proxy->index(row, 0);
        const auto kind
            = static_cast<SemanticInspectorModel::RowKind>(index.data(SemanticInspectorModel::KindRole).toInt());
        // Notes (matches resolved by priority) stay collapsed: on a typical model every broad association
        // has them, and expanding them all buries the associations under their lost events.
        const bool warned = index.data(SemanticInspectorModel::ProblemRole).toBool();
        const bool smallUnmapped = kind == SemanticInspectorModel::RowKind::Unmapped && proxy->rowCount(index) <= 8;
        if (warned || smallUnmapped)
            tree->expand(index);
    }
    for (int row = 0; row < proxy->rowCount(); ++row) {
        const QModelIndex index = proxy->index(row, 0);
        for (int c = 0; c < proxy->rowCount(index); ++c) {
            const QModelIndex child = proxy->index(c, 0, index);
            if (static_cast<SemanticInspectorModel::RowKind>(child.data(SemanticInspectorModel::KindRole).toInt())
                == SemanticInspectorModel::RowKind::Warning)
                tree->setFirstColumnSpanned(c, index, true);
        }
    }
}

void SemanticInspector::updateHeader()
{
    const ProfilePtr p = m_model->profile();
    if (!p) {
        m_header->setText(m_job.isRunning() ? tr("Attributing…") : tr("No semantic profile."));
        return;
    }
    const Trial& trial = p->trial();
    const MetricId m = m_model->metric();
    double attributed = 0;
    if (const auto& s = m_model->snapshot(); s && m.index() < s->sourceTotals.size())
        attributed = s->sourceTotals[m.index()];
    int unmapped = 0;
    for (const Edge& e : p->edges())
        unmapped += e.association < 0 ? 1 : 0;
    const double error = p->conservationError();
    const QString metricName = m.index() < trial.metricCount() ? trial.metric(m).name : QString();
    const QString total = formatMetricValue(attributed, trial.metric(m), m_model->timeUnit()) + QLatin1Char(' ')
        + unitLabel(trial.metric(m), m_model->timeUnit());
    const QString conservation = error < 1e-9
        ? tr("Conservation: Σ entities = Σ source events = %1 (%2, all threads) ✓")
              .arg(total, metricName.toHtmlEscaped())
        : tr("Conservation is off by %1 (relative)").arg(error, 0, 'g', 3);
    m_header->setText(tr("<b>%1</b> on <b>%2</b> — %3 associations, %4 source events (%5 unmapped), %6 entities, "
                         "%7 components. %8")
                          .arg(p->model().name.toHtmlEscaped(), trial.name().toHtmlEscaped())
                          .arg(p->model().associations.size())
                          .arg(p->sourceEvents().size())
                          .arg(unmapped)
                          .arg(p->entities().size())
                          .arg(p->components().size())
                          .arg(conservation));
}

QString SemanticInspector::render(const QString& fileName, const QSize& size)
{
    waitForResult();
    return semanticview::renderWidgetToFile(this, fileName, size);
}

} // namespace parallax
