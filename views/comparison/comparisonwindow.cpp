// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/comparison/comparisonwindow.h"

#include "algebra/enumnames.h"
#include "algebra/verdict.h"
#include "views/callgraph/callgraphwidget.h"
#include "views/charts/chartexport.h"
#include "views/common/toolwindow.h"
#include "views/comparison/comparisonflamepage.h"
#include "views/comparison/comparisonformat.h"
#include "views/comparison/comparisonmodel.h"
#include "views/comparison/comparisonsummarywidget.h"
#include "views/comparison/comparisontreemodel.h"
#include "views/comparison/sidebysideview.h"
#include "views/comparison/signeddifferenceview.h"
#include "views/overview/barlistwidget.h"
#include "views/selectionstate.h"
#include "views/viewsetup.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QProgressBar>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

namespace parallax {

namespace {

const ThreadPolicy policies[] = { ThreadPolicy::Strict, ThreadPolicy::UnionByKey, ThreadPolicy::CollapseProcess,
    ThreadPolicy::CollapseAll, ThreadPolicy::MapByOrder };
const EventMatchPolicy matchPolicies[]
    = { EventMatchPolicy::Exact, EventMatchPolicy::NoSource, EventMatchPolicy::Routine };

/// The metric a comparison starts with: a time metric if there is one (TIME, then the first).
int defaultMetric(const ComparisonSnapshot& snapshot)
{
    for (std::size_t m = 0; m < snapshot.metrics.size(); ++m)
        if (snapshot.metrics[m].metric.isTime() && snapshot.metrics[m].inA.isValid()
            && snapshot.metrics[m].inB.isValid())
            return static_cast<int>(m);
    return 0;
}

QString relationText(ThreadSetRelation relation)
{
    switch (relation) {
    case ThreadSetRelation::Identical:
        return QObject::tr("identical thread sets");
    case ThreadSetRelation::Subset:
        return QObject::tr("one thread set contains the other");
    case ThreadSetRelation::Overlap:
        return QObject::tr("overlapping thread sets");
    case ThreadSetRelation::Disjoint:
        return QObject::tr("disjoint thread sets");
    }
    return {};
}

} // namespace

ComparisonWindow::ComparisonWindow(
    std::shared_ptr<const Trial> a, std::shared_ptr<const Trial> b, const AlgebraOptions& options, QWidget* parent)
    : QMainWindow(parent)
    , m_a(std::move(a))
    , m_b(std::move(b))
    , m_options(options)
{
    setWindowTitle(tr("Compare %1 (A) with %2 (B)").arg(m_a ? m_a->name() : QString(), m_b ? m_b->name() : QString()));
    buildControls();
    m_job.followProgress(
        m_progress, [this](int step) { m_progress->setValue(step); },
        [this](const QString& stage) { m_stage->setText(stage); });
    resize(1300, 850);
    start();
}

ComparisonWindow::~ComparisonWindow()
{
    // Jobs read the trials through shared pointers they own; waiting keeps shutdown tidy.
    m_job.cancelAndWait();
    m_valuesJob.cancelAndWait();
    m_graphJob.cancelAndWait();
}

ComparisonWindow* ComparisonWindow::open(
    std::shared_ptr<const Trial> a, std::shared_ptr<const Trial> b, const AlgebraOptions& options, QWidget* parent)
{
    auto* window = new ComparisonWindow(std::move(a), std::move(b), options, parent);
    showToolWindow(window, parent);
    return window;
}

void ComparisonWindow::buildControls()
{
    QVBoxLayout* layout = addCentralLayout(this);
    QWidget* central = centralWidget();

    // Header: the two runs, and the algebra's options.
    m_header = new QLabel(central);
    m_header->setTextFormat(Qt::RichText);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Long trial names must not set the window's minimum width.
    m_header->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_header->setMinimumWidth(100);
    m_matchBox = new QComboBox(central);
    for (EventMatchPolicy policy : matchPolicies)
        m_matchBox->addItem(eventMatchPolicyName(policy), static_cast<int>(policy));
    m_matchBox->setToolTip(
        tr("How events are matched across the runs: EXACT names, NO_SOURCE (source locations "
           "dropped) or ROUTINE (like tau_diff: the routine name only). Recomputes the difference."));
    m_policyBox = new QComboBox(central);
    for (ThreadPolicy policy : policies)
        m_policyBox->addItem(threadPolicyName(policy), static_cast<int>(policy));
    m_policyBox->setToolTip(tr("What to do when the runs' thread sets overlap or are disjoint: "
                               "STRICT refuses, UNION_BY_KEY keeps both, COLLAPSE_PROCESS / COLLAPSE_ALL sum threads, "
                               "MAP_BY_ORDER pairs the i-th threads. Recomputes the difference."));
    auto* header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->addWidget(m_header, 1);
    header->addWidget(new QLabel(tr("Match:"), central));
    header->addWidget(m_matchBox);
    header->addWidget(new QLabel(tr("Threads:"), central));
    header->addWidget(m_policyBox);
    layout->addLayout(header);

    // What to show.
    m_metricBox = new QComboBox(central);
    m_metricBox->setToolTip(tr("The metric compared (the union of both runs' metrics)"));
    m_valueBox = new QComboBox(central);
    for (CompareValue value : { CompareValue::Exclusive, CompareValue::Inclusive, CompareValue::Calls })
        m_valueBox->addItem(compareValueName(value), static_cast<int>(value));
    m_sourceBox = new QComboBox(central);
    m_sourceBox->addItem(tr("Mean"), static_cast<int>(CompareSource::Mean));
    m_sourceBox->addItem(tr("Total"), static_cast<int>(CompareSource::Total));
    m_sourceBox->addItem(tr("One thread"), static_cast<int>(CompareSource::Thread));
    m_sourceBox->setToolTip(tr("Mean: each run's mean over all its threads (absent = 0), as its own statistics show; "
                               "Total: the sum over threads; One thread: the chosen thread of the comparison"));
    m_threadSpin = new QSpinBox(central);
    m_threadSpin->setToolTip(tr("The thread (by position in the comparison's sorted thread list)"));
    m_threadLabel = new QLabel(central);
    m_threadLabel->setMinimumWidth(60);
    m_unitBox = new QComboBox(central);
    for (TimeUnit unit : { TimeUnit::Microseconds, TimeUnit::Milliseconds, TimeUnit::Seconds }) {
        m_unitBox->addItem(unitLabel(Metric(QString(), QStringLiteral("us")), unit), static_cast<int>(unit));
        m_unitBox->setItemData(m_unitBox->count() - 1, timeUnitName(unit), Qt::ToolTipRole);
    }
    m_unitBox->setToolTip(tr("The unit of time values"));
    m_unitBox->setCurrentIndex(1);
    m_callPathsBox = new QCheckBox(tr("Call paths"), central);
    m_callPathsBox->setToolTip(tr("Also show call-path events (\"a => b\"), not only flat events"));
    m_thresholdSpin = new QDoubleSpinBox(central);
    m_thresholdSpin->setRange(0, 1e9);
    m_thresholdSpin->setMaximumWidth(110);
    m_thresholdSpin->setDecimals(3);
    m_thresholdSpin->setSpecialValueText(tr("none"));
    m_thresholdSpin->setToolTip(tr("Hide events whose |Δ| (or |Δ%|) is smaller"));
    m_thresholdMode = new QComboBox(central);
    m_thresholdMode->setToolTip(tr("The minimum difference is absolute (in the display unit) or relative (Δ%)"));
    m_colourByBox = new QComboBox(central);
    m_colourByBox->addItem(tr("Δ %"), static_cast<int>(ColourBy::Percent));
    m_colourByBox->setItemData(0,
        tr("The relative change: a change of 100 % or more is full colour, whatever its absolute size"),
        Qt::ToolTipRole);
    m_colourByBox->addItem(tr("Δ"), static_cast<int>(ColourBy::Delta));
    m_colourByBox->setItemData(1,
        tr("The absolute change over the largest |Δ| shown: the rows that cost or save the most are the deepest"),
        Qt::ToolTipRole);
    m_colourByBox->setToolTip(tr("What the colour intensity of the Δ and Δ % cells measures (blue = B better than A, "
                                 "red = B worse): the relative change Δ % or the absolute change Δ"));

    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    auto add = [controls](const QString& label, QWidget* widget) { addLabelled(controls, label, widget); };
    add(tr("&Metric:"), m_metricBox);
    add(tr("&Value:"), m_valueBox);
    add(tr("&Over threads:"), m_sourceBox);
    add({}, m_threadSpin);
    add({}, m_threadLabel);
    add(tr("&Unit:"), m_unitBox);
    controls->addSpacing(6);
    add({}, m_callPathsBox);
    controls->addSpacing(6);
    add(tr("Min. |&Δ|:"), m_thresholdSpin);
    add({}, m_thresholdMode);
    controls->addStretch(1);
    // Beside Match and Threads, where the header line has room (the controls line fills 900 px).
    auto* colourLabel = new QLabel(tr("C&olour by:"), central);
    colourLabel->setBuddy(m_colourByBox);
    header->addWidget(colourLabel);
    header->addWidget(m_colourByBox);
    layout->addLayout(controls);

    // Progress.
    m_progress = new QProgressBar(central);
    m_progress->setRange(0, ComparisonBuilder::stepCount());
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(10);
    m_stage = new QLabel(central);
    m_stage->setForegroundRole(QPalette::PlaceholderText);
    auto* progress = new QHBoxLayout;
    progress->setContentsMargins(0, 0, 0, 0);
    progress->addWidget(m_stage);
    progress->addWidget(m_progress, 1);
    layout->addLayout(progress);

    // The verdict first, above every tab (algebra/verdict.h).
    m_verdict = new QLabel(central);
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdict->setContentsMargins(4, 2, 4, 4);
    layout->addWidget(m_verdict);

    // The tabs.
    m_sideBySide = new SideBySideView(central);
    // The side-by-side table's model drives the signed difference and the summary too.
    m_model = m_sideBySide->model();
    m_signed = new SignedDifferenceView(m_model, central);
    m_treeModel = new ComparisonTreeModel(this);
    auto* treeView = new QTreeView;
    ViewSetupOptions treeOptions;
    treeOptions.placeholder = tr("Search call paths…");
    treeOptions.countNoun = tr("call-tree root");
    treeOptions.countNounPlural = tr("call-tree roots");
    treeOptions.sortColumn = ComparisonTreeModel::InclusiveA;
    m_tree = std::make_unique<ViewSetup>(setupTreeView(treeView, m_treeModel, treeOptions));
    treeView->header()->resizeSection(ComparisonTreeModel::Name, 300);
    treeView->header()->resizeSection(ComparisonTreeModel::Marker, 60);
    // Room for signed seven-digit values and four-digit percentages ("-13,993.2 %"), not "-13,993.…".
    const int percentWidth
        = std::max(75, treeView->fontMetrics().horizontalAdvance(QStringLiteral("-13,993.0 %")) + 16);
    const int valueWidth
        = std::max(105, treeView->fontMetrics().horizontalAdvance(QStringLiteral("-8,888,888.888")) + 16);
    for (int c = ComparisonTreeModel::InclusiveA; c < ComparisonTreeModel::ColumnCount; ++c)
        treeView->header()->resizeSection(c,
            c == ComparisonTreeModel::InclusivePercent || c == ComparisonTreeModel::ExclusivePercent ? percentWidth
                                                                                                     : valueWidth);
    auto* treePage = new QWidget(central);
    auto* treeLayout = new QVBoxLayout(treePage);
    treeLayout->setContentsMargins(4, 4, 4, 4);
    auto* treeNote = new QLabel(tr("The union of both call trees. Δ = A − B per call path; blue = improvement, red = "
                                   "regression; ◀/▶: ran only in A / only in B."),
        treePage);
    treeNote->setForegroundRole(QPalette::PlaceholderText);
    treeLayout->addWidget(treeNote);
    treeLayout->addWidget(m_tree->widget, 1);

    m_graphState = new SelectionState(this);
    m_callGraph = new CallGraphWidget(m_graphState, central);
    m_callGraph->setColorMode(CallGraphWidget::ColorMode::Change);
    m_callGraph->setSizeValue(ValueType::Inclusive);
    m_callGraph->setColorValue(ValueType::Exclusive);
    auto* graphPage = new QWidget(central);
    auto* graphLayout = new QVBoxLayout(graphPage);
    graphLayout->setContentsMargins(0, 4, 0, 0);
    auto* graphNote
        = new QLabel(tr("The call graph of the difference trial diff(A, B) = A − B: box colour = change "
                        "(blue = improvement, red = regression), box width = |Δ| of the width value. Values "
                        "are statistics of the difference over the comparison's threads."),
            graphPage);
    graphNote->setWordWrap(true);
    graphNote->setContentsMargins(4, 0, 4, 0);
    graphNote->setForegroundRole(QPalette::PlaceholderText);
    graphLayout->addWidget(graphNote);
    graphLayout->addWidget(m_callGraph, 1);

    m_flamePage = new ComparisonFlamePage(central);

    m_summary = new ComparisonSummaryWidget(m_model, central);

    m_tabs = new QTabWidget(central);
    m_tabs->addTab(m_sideBySide, tr("Side by side"));
    m_tabs->addTab(m_signed, tr("Signed difference"));
    m_tabs->addTab(treePage, tr("Statistics tree"));
    m_tabs->addTab(graphPage, tr("Call graph"));
    m_tabs->addTab(m_flamePage, tr("Flame graph"));
    // The summary scrolls rather than forcing the window taller than the screen (the verdict above
    // the tabs takes two lines).
    auto* summaryScroll = new QScrollArea(central);
    summaryScroll->setWidget(m_summary);
    summaryScroll->setWidgetResizable(true);
    summaryScroll->setFrameShape(QFrame::NoFrame);
    m_tabs->addTab(summaryScroll, tr("Summary"));
    m_tabs->setDocumentMode(true);

    m_message = new QLabel(central);
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setMargin(24);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stack = new QStackedWidget(central);
    m_stack->addWidget(m_tabs);
    m_stack->addWidget(m_message);
    layout->addWidget(m_stack, 1);

    // Behaviour.
    connect(m_matchBox, &QComboBox::activated, this, [this] {
        AlgebraOptions options = m_options;
        options.match.policy = static_cast<EventMatchPolicy>(m_matchBox->currentData().toInt());
        setOptions(options);
    });
    connect(m_policyBox, &QComboBox::activated, this, [this] {
        AlgebraOptions options = m_options;
        options.threads = static_cast<ThreadPolicy>(m_policyBox->currentData().toInt());
        setOptions(options);
    });
    connect(m_metricBox, &QComboBox::activated, this, [this] { setMetric(m_metricBox->currentText()); });
    connect(m_valueBox, &QComboBox::activated, this,
        [this] { setValue(static_cast<CompareValue>(m_valueBox->currentData().toInt())); });
    connect(m_sourceBox, &QComboBox::activated, this,
        [this] { setSource(static_cast<CompareSource>(m_sourceBox->currentData().toInt()), m_threadSpin->value()); });
    connect(m_threadSpin, &QSpinBox::valueChanged, this, [this](int thread) {
        if (m_source == CompareSource::Thread)
            setSource(CompareSource::Thread, thread);
        else
            updateThreadLabel();
    });
    connect(m_unitBox, &QComboBox::activated, this,
        [this] { setTimeUnit(static_cast<TimeUnit>(m_unitBox->currentData().toInt())); });
    connect(m_callPathsBox, &QCheckBox::toggled, this, &ComparisonWindow::setIncludeCallPaths);
    connect(m_thresholdSpin, &QDoubleSpinBox::valueChanged, this, &ComparisonWindow::applyThreshold);
    connect(m_thresholdMode, &QComboBox::activated, this, &ComparisonWindow::applyThreshold);
    connect(m_colourByBox, &QComboBox::activated, this, [this] {
        setColourBy(static_cast<ColourBy>(m_colourByBox->currentData().toInt()));
        Q_EMIT colourByChanged(colourBy());
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (currentTab() == Tab::CallGraph)
            prepareCallGraph();
    });
    auto select = [this](int event) {
        // Double-clicking an event in a flat view shows it in the tree.
        const QModelIndex source = m_treeModel->indexOfEvent(event);
        if (!source.isValid())
            return;
        const QModelIndex index = m_tree->proxy->mapFromSource(source);
        m_tree->view->scrollTo(index);
        m_tree->view->setCurrentIndex(index);
        setCurrentTab(Tab::Tree);
    };
    connect(m_flamePage, &ComparisonFlamePage::frameActivated, this, &ComparisonWindow::showCallPath);
    connect(m_sideBySide, &SideBySideView::eventActivated, this, select);
    connect(m_signed, &SignedDifferenceView::eventActivated, this, select);

    updateThresholdUnit();
    updateHeader();
}

QTreeView* ComparisonWindow::treeView() const { return m_tree->view; }

FlameGraphWidget* ComparisonWindow::flameGraph() const { return m_flamePage->flame(); }

void ComparisonWindow::setOptions(const AlgebraOptions& options)
{
    m_options = options;
    start();
}

void ComparisonWindow::start()
{
    {
        const QSignalBlocker blockMatch(m_matchBox);
        const QSignalBlocker blockPolicy(m_policyBox);
        m_matchBox->setCurrentIndex(m_matchBox->findData(static_cast<int>(m_options.match.policy)));
        m_policyBox->setCurrentIndex(m_policyBox->findData(static_cast<int>(m_options.threads)));
    }
    m_progress->setValue(0);
    m_progress->show();
    m_stage->setText(tr("Comparing…"));
    m_stage->show();
    m_tabs->setEnabled(false);
    m_graphPrepared = false;

    const QString metric = m_metricName;
    const CompareSource source = m_source;
    const int thread = m_thread;
    m_job.startWithProgress(
        ComparisonBuilder::stepCount(),
        [a = m_a, b = m_b, options = m_options, metric, source, thread](
            const std::atomic_bool& cancel, const Job<Result>::Progress& progress) {
            Result result;
            result.snapshot = ComparisonBuilder::build(a, b, options, progress, &cancel);
            if (result.snapshot->ok() && !cancel.load()) {
                ComparisonQuery query;
                const int m = result.snapshot->findMetric(metric);
                query.metric = m >= 0 ? m : defaultMetric(*result.snapshot);
                query.source = source;
                query.thread
                    = std::clamp(thread, 0, std::max(0, static_cast<int>(result.snapshot->threads.size()) - 1));
                result.values = ComparisonBuilder::values(*result.snapshot, query);
            }
            progress(ComparisonBuilder::stepCount(), tr("Done"));
            return result;
        },
        [this](const Result& result) {
            m_progress->hide();
            m_stage->hide();
            applySnapshot(result);
        });
}

void ComparisonWindow::applySnapshot(const Result& result)
{
    m_snapshot = result.snapshot;
    m_flameCompared = false;
    if (!m_snapshot || !m_snapshot->ok()) {
        const QString error = m_snapshot ? m_snapshot->error : tr("The comparison was cancelled.");
        QString text = tr("<b>A and B cannot be compared with these options.</b><br><br>%1").arg(error.toHtmlEscaped());
        if (error.contains(QLatin1String("thread policy"), Qt::CaseInsensitive))
            text += tr("<br><br>Choose a thread policy in <b>Threads:</b> above (for example MAP_BY_ORDER to pair the "
                       "i-th thread of A with the i-th thread of B, or COLLAPSE_ALL to compare whole runs).");
        m_message->setText(text);
        m_stack->setCurrentWidget(m_message);
        m_model->setSnapshot(nullptr);
        m_treeModel->setSnapshot(nullptr);
        m_graphState->setTrial(nullptr);
        updateHeader();
        Q_EMIT computed(false);
        return;
    }
    m_stack->setCurrentWidget(m_tabs);
    m_tabs->setEnabled(true);
    {
        const QSignalBlocker block(m_metricBox);
        m_metricBox->clear();
        for (const ComparisonMetric& metric : m_snapshot->metrics) {
            QString tip = metric.metric.name;
            if (!metric.inA.isValid())
                tip += tr(" (only in B)");
            else if (!metric.inB.isValid())
                tip += tr(" (only in A)");
            m_metricBox->addItem(metric.metric.name);
            m_metricBox->setItemData(m_metricBox->count() - 1, tip, Qt::ToolTipRole);
        }
        if (result.values)
            m_metricBox->setCurrentIndex(result.values->query.metric);
    }
    {
        const QSignalBlocker block(m_threadSpin);
        m_threadSpin->setRange(0, std::max(0, static_cast<int>(m_snapshot->threads.size()) - 1));
        m_threadSpin->setValue(std::clamp(m_thread, 0, m_threadSpin->maximum()));
    }
    if (result.values) {
        m_metricName = m_snapshot->metrics[static_cast<std::size_t>(result.values->query.metric)].metric.name;
        m_thread = result.values->query.thread;
    }
    updateHeader();
    updateThreadLabel();
    m_sideBySide->setRunNames(m_a->name(), m_b->name());
    m_model->setSnapshot(m_snapshot);
    m_treeModel->setSnapshot(m_snapshot);
    m_graphState->setTrial(nullptr);
    applyValues(result.values);
    m_tree->view->expandToDepth(0);
    if (currentTab() == Tab::CallGraph)
        prepareCallGraph();
    Q_EMIT computed(true);
}

ComparisonQuery ComparisonWindow::query() const
{
    ComparisonQuery q;
    if (!m_snapshot)
        return q;
    const int m = m_snapshot->findMetric(m_metricName);
    q.metric = m >= 0 ? m : defaultMetric(*m_snapshot);
    q.source = m_source;
    q.thread = std::clamp(m_thread, 0, std::max(0, static_cast<int>(m_snapshot->threads.size()) - 1));
    return q;
}

void ComparisonWindow::requestValues()
{
    if (!m_snapshot || !m_snapshot->ok() || m_job.isRunning())
        return;
    const ComparisonQuery q = query();
    if (m_values && m_values->query == q && !m_valuesJob.isRunning())
        return;
    if (q.source != CompareSource::Thread) {
        // Mean and total read the cached statistics: a few hundred additions.
        m_valuesJob.cancel();
        applyValues(ComparisonBuilder::values(*m_snapshot, q));
        return;
    }
    // One thread of the comparison may stand for many run threads (collapse policies): off the GUI thread.
    m_stage->setText(tr("Reading thread %1…").arg(m_snapshot->threads[static_cast<std::size_t>(q.thread)].toString()));
    m_stage->show();
    m_valuesJob.start(
        [snapshot = m_snapshot, q](const std::atomic_bool&) { return ComparisonBuilder::values(*snapshot, q); },
        [this](std::shared_ptr<const ComparisonValues> values) {
            m_stage->hide();
            if (values && m_snapshot && values->entries.size() == m_snapshot->events.size() && values->query == query())
                applyValues(std::move(values));
        });
}

void ComparisonWindow::applyValues(std::shared_ptr<const ComparisonValues> values)
{
    m_values = std::move(values);
    m_model->setValues(m_values);
    m_treeModel->setValues(m_values);
    updateThresholdUnit();
    syncCallGraph();
    syncFlame();
    updateVerdict();
    Q_EMIT valuesChanged();
}

void ComparisonWindow::updateVerdict()
{
    if (!m_snapshot || !m_snapshot->ok()) {
        m_verdict->clear();
        return;
    }
    const SpeedupVerdict v = speedupVerdict({ m_a }, { m_b }, m_metricName);
    const bool improvement = v.valid() && v.speedUp != 1.0 && (v.speedUp > 1.0) != v.higherIsBetter;
    const QColor colour = !v.exceedsNoise() ? palette().color(QPalette::WindowText)
        : improvement                       ? improvementColor()
                                            : regressionColor();
    m_verdict->setText(QStringLiteral("<b><span style=\"color:%1\">%2.</span></b><br><small>%3 Δ = A − B in every "
                                      "table: positive = B %4 than A.</small>")
                           .arg(colour.name(), verdictHeadline(v).toHtmlEscaped(),
                               verdictShortDefinition(v).toHtmlEscaped(), v.timeLike ? tr("faster") : tr("lower")));
    m_verdict->setToolTip(
        tr("%1\n\nA (baseline) = %2\nB (candidate) = %3").arg(verdictDefinition(v), m_a->name(), m_b->name()));
}

QString ComparisonWindow::verdictText() const { return m_verdict->text(); }

bool ComparisonWindow::setMetric(const QString& name)
{
    if (m_snapshot && m_snapshot->findMetric(name) < 0)
        return false;
    m_metricName = name;
    if (m_snapshot) {
        const QSignalBlocker block(m_metricBox);
        m_metricBox->setCurrentIndex(m_snapshot->findMetric(name));
    }
    requestValues();
    return true;
}

void ComparisonWindow::setValue(CompareValue value)
{
    {
        const QSignalBlocker block(m_valueBox);
        m_valueBox->setCurrentIndex(m_valueBox->findData(static_cast<int>(value)));
    }
    m_model->setValue(value);
    updateThresholdUnit();
    syncCallGraph();
}

void ComparisonWindow::setSource(CompareSource source, int thread)
{
    m_source = source;
    m_thread = thread;
    {
        const QSignalBlocker blockSource(m_sourceBox);
        const QSignalBlocker blockThread(m_threadSpin);
        m_sourceBox->setCurrentIndex(m_sourceBox->findData(static_cast<int>(source)));
        m_threadSpin->setValue(thread);
    }
    updateThreadLabel();
    requestValues();
}

void ComparisonWindow::setIncludeCallPaths(bool include)
{
    {
        const QSignalBlocker block(m_callPathsBox);
        m_callPathsBox->setChecked(include);
    }
    m_model->setIncludeCallPaths(include);
}

void ComparisonWindow::setMinimumDifference(double threshold, bool percent)
{
    {
        const QSignalBlocker blockSpin(m_thresholdSpin);
        const QSignalBlocker blockMode(m_thresholdMode);
        m_thresholdSpin->setValue(threshold);
        m_thresholdMode->setCurrentIndex(percent ? 1 : 0);
    }
    applyThreshold();
}

void ComparisonWindow::applyThreshold()
{
    const bool percent = m_thresholdMode->currentIndex() == 1;
    const double amount = m_thresholdSpin->value();
    const Metric* metric = m_model->metric();
    const double threshold
        = percent || !metric ? amount : fromDisplayUnit(amount, *metric, m_model->value(), m_model->timeUnit());
    m_model->setMinimumDifference(threshold, percent);
}

void ComparisonWindow::setColourBy(ColourBy by)
{
    {
        const QSignalBlocker block(m_colourByBox);
        m_colourByBox->setCurrentIndex(m_colourByBox->findData(static_cast<int>(by)));
    }
    m_model->setColourBy(by);
    m_treeModel->setColourBy(by);
    m_flamePage->setChangeScale(
        by == ColourBy::Percent ? FlameGraphWidget::ChangeScale::Percent : FlameGraphWidget::ChangeScale::Delta);
    m_summary->refresh();
    m_sideBySide->updateLegend();
}

ColourBy ComparisonWindow::colourBy() const { return m_model->colourBy(); }

void ComparisonWindow::setTimeUnit(TimeUnit unit)
{
    {
        const QSignalBlocker block(m_unitBox);
        m_unitBox->setCurrentIndex(m_unitBox->findData(static_cast<int>(unit)));
    }
    m_model->setTimeUnit(unit);
    m_treeModel->setTimeUnit(unit);
    m_graphState->setTimeUnit(unit);
    updateThresholdUnit();
    applyThreshold();
}

void ComparisonWindow::updateThresholdUnit()
{
    const Metric* metric = m_model->metric();
    const QString unit = metric ? compareUnit(*metric, m_model->value(), m_model->timeUnit()) : QString();
    const int index = std::max(0, m_thresholdMode->currentIndex());
    const QSignalBlocker block(m_thresholdMode);
    m_thresholdMode->clear();
    m_thresholdMode->addItem(unit.isEmpty() ? tr("absolute") : unit);
    m_thresholdMode->addItem(tr("%"));
    m_thresholdMode->setCurrentIndex(index);
    m_unitBox->setEnabled(!metric || metric->isTime());
}

void ComparisonWindow::updateThreadLabel()
{
    const bool thread = m_source == CompareSource::Thread;
    m_threadSpin->setVisible(thread);
    m_threadLabel->setVisible(thread);
    if (m_snapshot && static_cast<std::size_t>(m_threadSpin->value()) < m_snapshot->threads.size()) {
        const auto t = static_cast<std::size_t>(m_threadSpin->value());
        m_threadLabel->setText(tr("(n,c,t) %1").arg(m_snapshot->threads[t].toString()));
        m_threadLabel->setToolTip(tr("%1 of A and %2 of B map to this thread")
                                      .arg(countText(m_snapshot->threadsOfA[t].size(), tr("thread"), tr("threads")))
                                      .arg(m_snapshot->threadsOfB[t].size()));
    } else {
        m_threadLabel->clear();
    }
}

void ComparisonWindow::updateHeader()
{
    auto run = [](const char* letter, const char* role, const std::shared_ptr<const Trial>& trial) {
        if (!trial)
            return QString();
        return tr("<b>%1</b> (%2): <b>%3</b> · %4")
            .arg(QLatin1String(letter), QLatin1String(role), trial->name().toHtmlEscaped(),
                countText(trial->threadCount(), tr("thread"), tr("threads")));
    };
    QString text
        = run("A", "baseline", m_a) + QStringLiteral(" &nbsp;&nbsp;vs&nbsp;&nbsp; ") + run("B", "candidate", m_b);
    if (m_snapshot && m_snapshot->ok()) {
        text += QStringLiteral(" &nbsp;·&nbsp; <span style=\"color:gray\">%1</span>")
                    .arg(relationText(m_snapshot->relation));
        if (!m_snapshot->warnings.isEmpty())
            m_header->setToolTip(m_snapshot->warnings.join(QLatin1Char('\n')));
    }
    m_header->setText(text);
}

void ComparisonWindow::prepareCallGraph()
{
    if (!m_snapshot || !m_snapshot->ok() || m_graphPrepared || m_graphJob.isRunning())
        return;
    // The call graph reads the difference's statistics; they are computed here, off the GUI thread.
    m_graphJob.start(
        [diff = m_snapshot->diff](const std::atomic_bool&) {
            TrialStatistics::of(*diff);
            CallTree::of(*diff);
            return diff;
        },
        [this](const std::shared_ptr<const Trial>& diff) { onGraphReady(diff); });
}

void ComparisonWindow::onGraphReady(const std::shared_ptr<const Trial>& diff)
{
    if (!m_snapshot || !m_snapshot->ok())
        return;
    if (diff != m_snapshot->diff) {
        // Prepared for a superseded comparison: prepare the current one.
        if (currentTab() == Tab::CallGraph)
            prepareCallGraph();
        return;
    }
    m_graphPrepared = true;
    // The difference has call paths when either run has: without, both lack them (named).
    m_callGraph->setTrialLabel(tr("Both A (\"%1\") and B (\"%2\") have").arg(m_a->name(), m_b->name()));
    m_graphState->setTrial(m_snapshot->diff);
    syncCallGraph();
}

void ComparisonWindow::syncCallGraph()
{
    if (!m_graphPrepared || !m_snapshot || !m_snapshot->ok() || !m_values)
        return;
    const ComparisonQuery q = m_values->query;
    const ComparisonMetric& metric = m_snapshot->metrics[static_cast<std::size_t>(q.metric)];
    m_graphState->setMetric(metric.inDiff);
    m_callGraph->setColorValue(valueColumnOf(m_model->value()));
    switch (q.source) {
    case CompareSource::Mean:
        m_callGraph->setStatistic(Statistic::MeanAll);
        break;
    case CompareSource::Total:
        m_callGraph->setStatistic(Statistic::Total);
        break;
    case CompareSource::Thread:
        m_graphState->selectThread(
            m_snapshot->diff->findThread(m_snapshot->threads[static_cast<std::size_t>(q.thread)]));
        m_callGraph->setFollowSelectedThread(true);
        break;
    }
}

void ComparisonWindow::syncFlame()
{
    if (!m_snapshot || !m_snapshot->ok() || !m_values)
        return;
    const ComparisonQuery q = m_values->query;
    const ComparisonMetric& metric = m_snapshot->metrics[static_cast<std::size_t>(q.metric)];
    if (!m_flameCompared) {
        m_flamePage->setRuns(m_a, m_b, m_options.match, m_a->name(), m_b->name());
        m_flameCompared = true;
    }
    m_flamePage->setMetric(metric.inA, m_snapshot->higherIsBetter(q.metric));
    m_flamePage->setChangeScale(colourBy() == ColourBy::Percent ? FlameGraphWidget::ChangeScale::Percent
                                                                : FlameGraphWidget::ChangeScale::Delta);
    switch (q.source) {
    case CompareSource::Mean:
        m_flamePage->setSource(FlameGraphWidget::Source::Mean);
        break;
    case CompareSource::Total:
        m_flamePage->setSource(FlameGraphWidget::Source::Total);
        break;
    case CompareSource::Thread:
        m_flamePage->setSource(FlameGraphWidget::Source::SelectedThread,
            m_a->findThread(m_snapshot->threads[static_cast<std::size_t>(q.thread)]));
        break;
    }
}

void ComparisonWindow::showCallPath(const QStringList& path)
{
    if (!m_snapshot || !m_snapshot->ok() || path.isEmpty())
        return;
    // The call path's comparison event (the union tree's names are match keys) and its routine's.
    const int callPath = m_snapshot->findEvent(path.join(QStringLiteral(" => ")));
    const int routine = m_snapshot->findEvent(path.last());
    m_shownPath = path;
    if (callPath >= 0) {
        const QModelIndex source = m_treeModel->indexOfEvent(callPath);
        if (source.isValid()) {
            const QModelIndex index = m_tree->proxy->mapFromSource(source);
            m_tree->view->scrollTo(index);
            m_tree->view->setCurrentIndex(index);
        }
    }
    // The flat tabs list call paths only when asked to: else the routine's row.
    int row = callPath >= 0 ? m_model->rowOf(callPath) : -1;
    int event = callPath;
    if (row < 0 && routine >= 0) {
        row = m_model->rowOf(routine);
        event = routine;
    }
    if (row >= 0) {
        const QModelIndex index = m_sideBySide->proxy()->mapFromSource(m_model->index(row, 0));
        m_sideBySide->view()->scrollTo(index);
        m_sideBySide->view()->setCurrentIndex(index);
        const auto& bars = m_signed->shownEvents();
        const auto it = std::find(bars.begin(), bars.end(), event);
        if (it != bars.end()) {
            const int bar = static_cast<int>(it - bars.begin());
            m_signed->barList()->setSelectedRow(bar);
            m_signed->barList()->scrollToRow(bar);
        }
    }
    // The call graph's node is the routine (of the difference trial).
    if (routine >= 0) {
        const EventId diffEvent = m_snapshot->events[static_cast<std::size_t>(routine)].diff;
        if (diffEvent.isValid() && m_graphState->trial() == m_snapshot->diff)
            m_graphState->selectEvent(diffEvent);
    }
}

void ComparisonWindow::setCurrentTab(Tab tab) { m_tabs->setCurrentIndex(static_cast<int>(tab)); }

ComparisonWindow::Tab ComparisonWindow::currentTab() const { return static_cast<Tab>(m_tabs->currentIndex()); }

std::optional<ComparisonWindow::Tab> ComparisonWindow::tabFromName(const QString& name)
{
    // The names are those of --render compare-NAME (app/gui/viewregistry.h).
    static constexpr auto names = std::to_array<EnumName<Tab>>(
        { { Tab::SideBySide, "sidebyside" }, { Tab::SignedDifference, "signed" }, { Tab::Tree, "tree" },
            { Tab::CallGraph, "callgraph" }, { Tab::Flame, "flame" }, { Tab::Summary, "summary" } });
    return enumFromName(names, name, Qt::CaseInsensitive);
}

bool ComparisonWindow::isComputing() const
{
    return m_job.isRunning() || m_valuesJob.isRunning() || m_graphJob.isRunning();
}

void ComparisonWindow::waitForResult()
{
    // The finished signals arrive through the event loop; deliver the results now.
    m_job.waitAndDeliver();
    m_valuesJob.waitAndDeliver();
    m_graphJob.waitAndDeliver();
}

QString ComparisonWindow::errorMessage() const
{
    return m_snapshot && !m_snapshot->ok() ? m_snapshot->error : QString();
}

void ComparisonWindow::renderTab(
    Tab tab, const QString& fileName, const QSize& size, const std::function<void(const QString&)>& done)
{
    waitForResult();
    setCurrentTab(tab);
    if (size.isValid())
        resize(size);
    auto finish = [this, fileName, size, done] {
        renderWhenSettled(
            this, size, 100, [this, fileName] { return exportWidget(this, fileName); }, done);
    };
    if (tab == Tab::Flame)
        m_flamePage->updateNow(); // the trees in the background, waited for
    if (tab != Tab::CallGraph || !m_snapshot || !m_snapshot->ok()) {
        finish();
        return;
    }
    // The layout comes from dot, asynchronously.
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(m_callGraph, &CallGraphWidget::layoutFinished, this, [this, connection, finish](bool) {
        QObject::disconnect(*connection);
        m_callGraph->fitToView();
        finish();
    });
    if (m_graphPrepared)
        m_callGraph->relayout();
    else
        prepareCallGraph();
}

} // namespace parallax
