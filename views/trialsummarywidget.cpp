// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/trialsummarywidget.h"

#include "algebra/statistics.h"
#include "algebra/units.h"
#include "views/common/valueformatter.h"
#include "views/viewsetup.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QSet>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace parallax {

namespace {

enum Scope { TrialWide = 0, OneThread = 1 };

QLabel* valueLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    return label;
}

QString number(std::size_t n) { return groupingLocale().toString(static_cast<qulonglong>(n)); }

QStandardItem* textItem(const QString& text)
{
    auto* item = new QStandardItem(text);
    item->setEditable(false);
    item->setData(text, SortRole);
    item->setToolTip(text);
    return item;
}

} // namespace

TrialSummaryWidget::TrialSummaryWidget(QWidget* parent)
    : QWidget(parent)
{
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(splitter);

    // Left: the facts and the warnings.
    auto* left = new QWidget(splitter);
    auto* leftLayout = new QVBoxLayout(left);
    auto* facts = new QGroupBox(tr("Trial"), left);
    auto* form = new QFormLayout(facts);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_name = valueLabel(facts);
    m_source = valueLabel(facts);
    m_reader = valueLabel(facts);
    m_threads = valueLabel(facts);
    m_metrics = valueLabel(facts);
    m_events = valueLabel(facts);
    m_atomics = valueLabel(facts);
    m_groups = valueLabel(facts);
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("Source:"), m_source);
    form->addRow(tr("Reader:"), m_reader);
    form->addRow(tr("Threads:"), m_threads);
    form->addRow(tr("Metrics:"), m_metrics);
    form->addRow(tr("Interval events:"), m_events);
    form->addRow(tr("Atomic events:"), m_atomics);
    form->addRow(tr("Groups:"), m_groups);
    facts->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    leftLayout->addWidget(facts);

    // The ten flat events with the largest mean exclusive value of the first metric.
    auto* topBox = new QGroupBox(tr("Top events (mean exclusive, first metric)"), left);
    auto* topLayout = new QVBoxLayout(topBox);
    m_top = new QTreeWidget(topBox);
    m_top->setColumnCount(3);
    m_top->setHeaderLabels({ tr("Event"), tr("Mean exclusive"), tr("%") });
    m_top->setRootIsDecorated(false);
    m_top->setTextElideMode(Qt::ElideMiddle);
    m_top->header()->setStretchLastSection(false);
    m_top->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_top->setMinimumHeight(m_top->fontMetrics().height() * 8);
    topLayout->addWidget(m_top);
    leftLayout->addWidget(topBox);

    m_warningsTitle = new QLabel(left);
    m_warningsTitle->setMargin(4);
    m_warnings = new QListWidget(left);
    m_warnings->setWordWrap(true);
    m_warnings->setAlternatingRowColors(true);
    m_warnings->setSelectionMode(QAbstractItemView::ExtendedSelection);
    leftLayout->addWidget(m_warningsTitle);
    leftLayout->addWidget(m_warnings, 1);
    // Takes the spare height when there is no warnings list to give it to.
    leftLayout->addStretch(0);

    // Right: the metadata table.
    auto* right = new QWidget(splitter);
    auto* rightLayout = new QVBoxLayout(right);
    auto* scopeBar = new QHBoxLayout;
    auto* metadataTitle = new QLabel(tr("<b>Metadata</b>"), right);
    m_scope = new QComboBox(right);
    m_scope->addItem(tr("Trial-wide"));
    m_scope->addItem(tr("Per-thread keys of thread"));
    m_scope->setToolTip(tr("Trial-wide keys are the same on every thread; per-thread keys differ between threads"));
    m_thread = new QSpinBox(right);
    m_thread->setToolTip(tr("Thread index (0-based, in n,c,t order)"));
    m_thread->setEnabled(false);
    m_threadKey = new QLabel(right);
    scopeBar->addWidget(metadataTitle);
    scopeBar->addStretch(1);
    scopeBar->addWidget(m_scope);
    scopeBar->addWidget(m_thread);
    scopeBar->addWidget(m_threadKey);
    rightLayout->addLayout(scopeBar);
    m_perThreadNote = new QLabel(right);
    m_perThreadNote->setWordWrap(true);
    m_perThreadNote->setForegroundRole(QPalette::PlaceholderText);
    rightLayout->addWidget(m_perThreadNote);

    m_metadata = new QStandardItemModel(0, 2, this);
    m_metadata->setHorizontalHeaderLabels({ tr("Key"), tr("Value") });
    m_metadataView = new QTreeView(right);
    ViewSetupOptions options;
    options.filterColumn = -1;
    options.placeholder = tr("Search keys and values…");
    options.countNoun = tr("metadata key");
    options.countNounPlural = tr("metadata keys");
    options.sortColumn = 0;
    options.sortOrder = Qt::AscendingOrder;
    const ViewSetup setup = setupTreeView(m_metadataView, m_metadata, options);
    m_metadataView->setRootIsDecorated(false);
    m_metadataView->setTextElideMode(Qt::ElideRight);
    m_metadataView->header()->setStretchLastSection(true);
    rightLayout->addWidget(setup.widget, 1);

    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);

    connect(m_scope, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_thread->setEnabled(index == OneThread);
        showMetadata();
    });
    connect(m_thread, &QSpinBox::valueChanged, this, [this] { showMetadata(); });

    setTrial(nullptr);
}

void TrialSummaryWidget::setRow(QLabel* label, const QString& text, const QString& toolTip)
{
    label->setText(text);
    label->setToolTip(toolTip);
}

void TrialSummaryWidget::setTrial(std::shared_ptr<const Trial> trial)
{
    m_trial = std::move(trial);
    const Trial* t = m_trial.get();
    const QString none = tr("—");
    if (!t) {
        for (QLabel* label : { m_name, m_source, m_reader, m_threads, m_metrics, m_events, m_atomics, m_groups })
            setRow(label, none);
        m_warnings->clear();
        m_warningsTitle->setText(tr("Warnings"));
        m_warningsTitle->setStyleSheet(QString());
        m_thread->setRange(0, 0);
        m_perThreadNote->clear();
        showMetadata();
        return;
    }

    const Provenance& provenance = t->provenance();
    setRow(m_name, t->name());
    if (t->isDerived()) {
        setRow(m_source, tr("%1 of %2").arg(provenance.operation, provenance.operands.join(QLatin1String(", "))),
            provenance.options.join(QLatin1Char(' ')));
    } else {
        setRow(m_source, provenance.source.isEmpty() ? none : provenance.source);
    }
    setRow(m_reader, provenance.reader.isEmpty() ? none : provenance.reader);

    // Contexts and threads per node tell MPI-only runs from threaded ones at a glance.
    QSet<int> contexts;
    std::size_t maxThread = 0;
    for (const ThreadKey& key : t->threads()) {
        contexts.insert(key.context);
        maxThread = std::max(maxThread, static_cast<std::size_t>(key.thread) + 1);
    }
    // Shape: nodes x contexts x threads (the set is sparse, so these are the largest counts).
    QString threads = tr("%1 threads: %2 nodes × %3 × %4")
                          .arg(number(t->threadCount()), number(t->nodeCount()),
                              contexts.size() == 1 ? tr("1 context") : tr("up to %1 contexts").arg(contexts.size()),
                              maxThread == 1 ? tr("1 thread") : tr("up to %1 threads").arg(number(maxThread)));
    setRow(m_threads, threads);

    m_top->clear();
    const QLocale locale = groupingLocale();
    if (t->metricCount() > 0) {
        const auto stats = TrialStatistics::of(*t);
        const MetricId m(0u);
        std::vector<std::pair<double, EventId>> top;
        for (std::size_t e = 0; e < t->eventCount(); ++e)
            if (!t->event(EventId(e)).isCallPath())
                top.emplace_back(stats->stat(EventId(e), m, ValueKind::Exclusive).meanAll, EventId(e));
        std::stable_sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        if (top.size() > 10)
            top.resize(10);
        for (const auto& [value, e] : top) {
            auto* item = new QTreeWidgetItem(m_top);
            item->setText(0, t->event(e).name);
            item->setToolTip(0, t->event(e).name);
            item->setText(1,
                formatMetricValue(value, t->metric(m), TimeUnit::Milliseconds, locale)
                    + (t->metric(m).isTime() ? QStringLiteral(" ms") : QString()));
            item->setText(2, locale.toString(stats->totalPercent(e, m, ValueKind::Exclusive), 'f', 2));
            item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
            item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        }
        m_top->resizeColumnToContents(1);
        m_top->resizeColumnToContents(2);
    }

    QStringList metrics;
    for (const Metric& metric : t->metrics()) {
        QString text = metric.name;
        if (!metric.unit.isEmpty())
            text += QStringLiteral(" [") + (metric.isTime() ? QStringLiteral("µs") : metric.unit) + QLatin1Char(']');
        if (metric.derived)
            text += tr(" = %1").arg(metric.expression);
        metrics.append(text);
    }
    setRow(m_metrics, metrics.isEmpty() ? none : metrics.join(QLatin1String(", ")));

    std::size_t callPaths = 0;
    for (const IntervalEvent& event : t->events())
        callPaths += event.isCallPath() ? 1 : 0;
    setRow(m_events,
        tr("%1 (%2 flat, %3 call paths); %4 present cells")
            .arg(number(t->eventCount()), number(t->eventCount() - callPaths), number(callPaths),
                number(t->cellCount())));

    std::size_t contextEvents = 0;
    for (const AtomicEvent& event : t->atomicEvents())
        contextEvents += event.hasContext() ? 1 : 0;
    setRow(m_atomics,
        contextEvents > 0
            ? tr("%1 (%2 with call-path context)").arg(number(t->atomicEventCount()), number(contextEvents))
            : number(t->atomicEventCount()));

    QStringList groups;
    for (std::size_t g = 0; g < t->groupCount(); ++g)
        groups.append(t->groupName(GroupId(g)));
    groups.sort(Qt::CaseInsensitive);
    setRow(m_groups,
        groups.isEmpty() ? none
                         : QStringLiteral("%1: %2").arg(number(groups.size()), groups.join(QLatin1String(", "))));

    m_warnings->clear();
    m_warnings->addItems(t->warnings());
    if (t->warnings().isEmpty()) {
        m_warningsTitle->setText(tr("No warnings: the reader found nothing unusual."));
        m_warningsTitle->setStyleSheet(QString());
        m_warnings->setVisible(false);
    } else {
        m_warningsTitle->setText(
            tr("⚠ %1 warning(s) while reading: these values may not be what you expect").arg(t->warnings().size()));
        m_warningsTitle->setStyleSheet(QStringLiteral(
            "QLabel { background: #fff3cd; color: #664d03; border: 1px solid #e0c36c; border-radius: 3px; }"));
        m_warnings->setVisible(true);
    }

    // Per-thread keys: how many distinct keys vary between threads.
    QSet<StringId> perThreadKeys;
    for (std::size_t i = 0; i < t->threadCount(); ++i)
        for (const MetadataEntry& entry : t->threadMetadata(ThreadIndex(i)))
            perThreadKeys.insert(entry.key);
    if (perThreadKeys.isEmpty()) {
        m_perThreadNote->setText(tr("%1 trial-wide keys; no per-thread keys.").arg(number(t->metadata().size())));
    } else {
        m_perThreadNote->setText(tr("%1 trial-wide keys; %2 further keys differ between threads — choose "
                                    "\"Per-thread keys of thread\" to see one thread's values.")
                                     .arg(number(t->metadata().size()), number(perThreadKeys.size())));
    }
    m_scope->setEnabled(t->threadCount() > 0);
    {
        const QSignalBlocker blocker(m_thread);
        m_thread->setRange(0, t->threadCount() > 0 ? static_cast<int>(t->threadCount()) - 1 : 0);
        m_thread->setValue(0);
    }
    showMetadata();
}

void TrialSummaryWidget::showMetadata()
{
    m_metadata->removeRows(0, m_metadata->rowCount());
    m_threadKey->clear();
    const Trial* t = m_trial.get();
    if (!t)
        return;
    const bool oneThread = m_scope->currentIndex() == OneThread && t->threadCount() > 0;
    const std::vector<MetadataEntry>* entries = &t->metadata();
    if (oneThread) {
        const ThreadIndex thread(static_cast<std::size_t>(m_thread->value()));
        m_threadKey->setText(tr("(n,c,t %1)").arg(t->threadKey(thread).toString()));
        entries = &t->threadMetadata(thread);
    }
    const StringPool& strings = t->strings();
    for (const MetadataEntry& entry : *entries)
        m_metadata->appendRow({ textItem(strings.get(entry.key)), textItem(strings.get(entry.value)) });
    m_metadataView->resizeColumnToContents(0);
    m_metadataView->setColumnWidth(0, std::min(m_metadataView->columnWidth(0), 320));
}

} // namespace parallax
