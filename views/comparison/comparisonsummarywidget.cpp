// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/comparison/comparisonsummarywidget.h"

#include "algebra/verdict.h"
#include "views/comparison/comparisonformat.h"
#include "views/comparison/comparisonmodel.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QStandardItemModel>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax {

namespace {

QColor differingBackground() { return QColor(0xff, 0xe9, 0xa8); }

QLabel* heading(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setFont(boldFont(label->font()));
    return label;
}

/// Makes a small table exactly as tall as `rows` rows, so the metadata below gets the room.
void fitRows(QTreeWidget* tree, int rows)
{
    const int row = tree->topLevelItemCount() > 0 ? tree->sizeHintForRow(0) : tree->fontMetrics().height() + 4;
    tree->setFixedHeight(tree->header()->sizeHint().height() + rows * row + 2 * tree->frameWidth() + 2);
}

QTreeWidget* smallTable(const QStringList& headers, QWidget* parent)
{
    auto* tree = new QTreeWidget(parent);
    tree->setColumnCount(static_cast<int>(headers.size()));
    tree->setHeaderLabels(headers);
    tree->setRootIsDecorated(false);
    tree->setUniformRowHeights(true);
    tree->setAlternatingRowColors(true);
    tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    tree->header()->setStretchLastSection(false);
    tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < headers.size(); ++c) {
        tree->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
        tree->headerItem()->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    }
    return tree;
}

} // namespace

ComparisonSummaryWidget::ComparisonSummaryWidget(ComparisonModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_title(new QLabel(this))
    , m_speedUpLabel(new QLabel(this))
    , m_definition(new QLabel(this))
    , m_improvementsTitle(heading(QString(), this))
    , m_regressionsTitle(heading(QString(), this))
    , m_metadataModel(new QStandardItemModel(this))
    , m_onlyDiffering(new QCheckBox(tr("Only differing keys"), this))
    , m_metadataCount(new QLabel(this))
{
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);
    m_runs = smallTable({ tr("Run"), tr("A (baseline)"), tr("B (candidate)"), tr("Δ = A − B") }, this);
    m_runs->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_runs->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_runs->header()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_runs->setSelectionMode(QAbstractItemView::NoSelection);
    m_runs->setFocusPolicy(Qt::NoFocus);
    m_runs->setTextElideMode(Qt::ElideMiddle);
    QFont big = m_speedUpLabel->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    m_speedUpLabel->setFont(big);
    m_speedUpLabel->setTextFormat(Qt::RichText);
    m_definition->setWordWrap(true);
    m_definition->setTextFormat(Qt::RichText);
    m_definition->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    const QStringList topHeaders { tr("Event"), tr("A"), tr("B"), tr("Δ = A − B"), tr("Δ %") };
    m_improvementsTree = smallTable(topHeaders, this);
    m_regressionsTree = smallTable(topHeaders, this);

    auto* metadataView = new QTreeView;
    ViewSetupOptions options;
    options.placeholder = tr("Search metadata keys and values…");
    options.countNoun = tr("metadata key");
    options.countNounPlural = tr("metadata keys");
    options.filterColumn = -1;
    m_metadata = setupTreeView(metadataView, m_metadataModel, options);
    m_metadata.view->setRootIsDecorated(false);
    m_metadata.view->sortByColumn(0, Qt::AscendingOrder);
    m_metadata.view->setTextElideMode(Qt::ElideMiddle);
    m_metadataCount->setForegroundRole(QPalette::PlaceholderText);

    auto* speedBox = new QVBoxLayout;
    speedBox->setContentsMargins(8, 0, 0, 0);
    speedBox->addWidget(heading(tr("Speed-up"), this));
    speedBox->addWidget(m_speedUpLabel);
    speedBox->addWidget(m_definition, 1);
    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    auto* runsBox = new QVBoxLayout;
    runsBox->addWidget(heading(tr("Runs"), this));
    runsBox->addWidget(m_runs, 1);
    top->addLayout(runsBox, 3);
    top->addLayout(speedBox, 2);

    auto* lists = new QGridLayout;
    lists->setContentsMargins(0, 0, 0, 0);
    lists->addWidget(m_improvementsTitle, 0, 0);
    lists->addWidget(m_regressionsTitle, 0, 1);
    lists->addWidget(m_improvementsTree, 1, 0);
    lists->addWidget(m_regressionsTree, 1, 1);

    auto* metadataBar = new QHBoxLayout;
    metadataBar->setContentsMargins(0, 0, 0, 0);
    metadataBar->addWidget(heading(tr("Metadata"), this));
    metadataBar->addWidget(m_metadataCount, 1);
    metadataBar->addWidget(m_onlyDiffering);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(6);
    layout->addWidget(m_title);
    layout->addLayout(top);
    layout->addLayout(lists);
    layout->addLayout(metadataBar);
    layout->addWidget(m_metadata.widget, 1);

    connect(m_onlyDiffering, &QCheckBox::toggled, this, &ComparisonSummaryWidget::fillMetadata);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ComparisonSummaryWidget::rebuild);
    connect(m_model, &QAbstractItemModel::headerDataChanged, this, &ComparisonSummaryWidget::rebuild);
    rebuild();
}

QStringList ComparisonSummaryWidget::differingMetadataKeys() const
{
    QStringList keys;
    if (const auto& snapshot = m_model->snapshot())
        for (const MetadataComparison& row : snapshot->metadata)
            if (row.differs())
                keys.append(row.key);
    return keys;
}

void ComparisonSummaryWidget::rebuild()
{
    const auto& snapshot = m_model->snapshot();
    const Metric* metric = m_model->metric();
    const auto& values = m_model->values();
    m_runs->clear();
    m_improvements.clear();
    m_regressions.clear();
    m_speedUp = 0;
    if (!snapshot || !snapshot->ok() || !metric || !values) {
        m_title->clear();
        m_speedUpLabel->clear();
        m_definition->clear();
        m_improvementsTree->clear();
        m_regressionsTree->clear();
        fillMetadata();
        return;
    }
    const QLocale locale = groupingLocale();
    const TimeUnit unit = m_model->timeUnit();
    const Trial& a = *snapshot->a;
    const Trial& b = *snapshot->b;
    m_title->setText(tr("Comparison of <b>A</b> (baseline) <b>%1</b> and <b>B</b> (candidate) <b>%2</b> — "
                        "Δ = A − B, so a positive Δ means B got cheaper. Metric: <b>%3</b>.")
                         .arg(a.name().toHtmlEscaped(), b.name().toHtmlEscaped(), metric->name.toHtmlEscaped()));

    // The runs.
    const auto m = static_cast<std::size_t>(values->query.metric);
    const RunTime& ta = snapshot->runTimeA[m];
    const RunTime& tb = snapshot->runTimeB[m];
    auto time = [&](double v, bool sign = false) {
        return compareText(v, *metric, CompareValue::Inclusive, unit, locale, sign);
    };
    auto count = [&](qulonglong v) { return locale.toString(v); };
    auto addRow = [this](const QString& label, const QString& va, const QString& vb, const QString& delta,
                      const QString& tip = {}) {
        auto* item = new QTreeWidgetItem(m_runs, { label, va, vb, delta });
        for (int c = 1; c < 4; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        item->setToolTip(0, tip.isEmpty() ? label : tip);
        item->setToolTip(1, va);
        item->setToolTip(2, vb);
        if (va != vb)
            item->setFont(0, boldFont(item->font(0)));
        return item;
    };
    addRow(tr("Trial"), a.name(), b.name(), QString());
    addRow(tr("Source"), a.provenance().source, b.provenance().source, QString());
    addRow(tr("Threads"), count(a.threadCount()), count(b.threadCount()),
        locale.toString(static_cast<qlonglong>(a.threadCount()) - static_cast<qlonglong>(b.threadCount())));
    addRow(tr("Interval events"), count(a.eventCount()), count(b.eventCount()),
        locale.toString(static_cast<qlonglong>(a.eventCount()) - static_cast<qlonglong>(b.eventCount())));
    addRow(tr("Slowest thread (%1)").arg(metric->name), time(ta.slowest), time(tb.slowest),
        time(ta.slowest - tb.slowest, true),
        tr("The largest inclusive value on any thread: the slowest thread's main / .TAU application time"));
    addRow(tr("Mean per thread"), time(ta.mean()), time(tb.mean()), time(ta.mean() - tb.mean(), true),
        tr("The threads' top inclusive values averaged over the run's threads"));
    addRow(tr("Thread-time (sum)"), time(ta.sum), time(tb.sum), time(ta.sum - tb.sum, true),
        tr("The threads' top inclusive values summed: the resources the run consumed"));
    int onlyA = 0;
    int onlyB = 0;
    for (const ComparisonEvent& event : snapshot->events) {
        onlyA += event.marker == Presence::Marker::LeftOnly ? 1 : 0;
        onlyB += event.marker == Presence::Marker::RightOnly ? 1 : 0;
    }
    addRow(tr("Matched events"), tr("%1 only in A ◀").arg(onlyA), tr("%1 only in B ▶").arg(onlyB),
        tr("%1 in all").arg(snapshot->events.size()),
        tr("Events matched by %1; ◀/▶: ran in one run only").arg(snapshot->options.match.toString()));

    fitRows(m_runs, m_runs->topLevelItemCount());

    // The speed-up: the verdict the window shows above the tabs (algebra/verdict.h), one definition.
    const SpeedupVerdict verdict = speedupVerdict({ snapshot->a }, { snapshot->b }, metric->name);
    m_speedUp = verdict.valid() ? verdict.speedUp : 0.0;
    if (m_speedUp > 0) {
        const bool faster = m_speedUp >= 1.0;
        const QColor colour = m_speedUp == 1.0 || !verdict.exceedsNoise() ? palette().color(QPalette::WindowText)
            : (faster != metric->higherIsBetter)                          ? improvementColor()
                                                                          : regressionColor();
        m_speedUpLabel->setText(QStringLiteral("<span style=\"color:%1\">S = %2</span>")
                                    .arg(colour.name(), locale.toString(m_speedUp, 'f', 3)));
        m_speedUpLabel->setToolTip(verdictHeadline(verdict));
        // The verdict above the tabs gives the definition too; here it is the tooltip.
        m_definition->setText(QStringLiteral("<b>%1.</b> S &gt; 1: B is faster than A; S &lt; 1: slower.")
                                  .arg(verdictHeadline(verdict).toHtmlEscaped()));
        m_definition->setToolTip(verdictDefinition(verdict));
    } else {
        m_speedUpLabel->setText(tr("S = —"));
        m_definition->setText(verdictHeadline(verdict).toHtmlEscaped());
    }

    // The top lists, among the rows the side-by-side table shows.
    const CompareValue value = m_model->value();
    const double sign = improvementSign(metric->higherIsBetter);
    std::vector<int> rows(static_cast<std::size_t>(m_model->rowCount()));
    std::iota(rows.begin(), rows.end(), 0);
    std::vector<int> better;
    std::vector<int> worse;
    for (int row : rows) {
        const double change = sign * m_model->entryAt(row).delta(value);
        if (change > 0)
            better.push_back(row);
        else if (change < 0)
            worse.push_back(row);
    }
    auto change = [&](int row) { return sign * m_model->entryAt(row).delta(value); };
    std::stable_sort(better.begin(), better.end(), [&](int x, int y) { return change(x) > change(y); });
    std::stable_sort(worse.begin(), worse.end(), [&](int x, int y) { return change(x) < change(y); });
    if (better.size() > TopCount)
        better.resize(TopCount);
    if (worse.size() > TopCount)
        worse.resize(TopCount);
    for (int row : better)
        m_improvements.push_back(m_model->eventAt(row));
    for (int row : worse)
        m_regressions.push_back(m_model->eventAt(row));
    QString what = compareValueName(value).toLower();
    if (value != CompareValue::Calls)
        what += QLatin1Char(' ') + metric->name;
    const QString source = compareSourceName(values->query.source).toLower();
    m_improvementsTitle->setText(
        QStringLiteral("<span style=\"color:%1\">%2</span>")
            .arg(improvementColor().name(), tr("Top %1 improvements (%2, %3)").arg(TopCount).arg(what, source)));
    m_regressionsTitle->setText(
        QStringLiteral("<span style=\"color:%1\">%2</span>")
            .arg(regressionColor().name(), tr("Top %1 regressions (%2, %3)").arg(TopCount).arg(what, source)));
    fillTop(m_improvementsTree, better);
    fillTop(m_regressionsTree, worse);
    fitRows(m_improvementsTree, TopCount);
    fitRows(m_regressionsTree, TopCount);
    fillMetadata();
}

void ComparisonSummaryWidget::fillTop(QTreeWidget* tree, const std::vector<int>& rows)
{
    tree->clear();
    const Metric* metric = m_model->metric();
    if (!metric)
        return;
    const QLocale locale = groupingLocale();
    const TimeUnit unit = m_model->timeUnit();
    const CompareValue value = m_model->value();
    const double sign = improvementSign(metric->higherIsBetter);
    const QString unitText = compareUnit(*metric, value, unit);
    const QString suffix = unitSuffix(unitText);
    tree->setHeaderLabels(
        { tr("Event"), comparePartHeader(ComparePart::A, suffix), comparePartHeader(ComparePart::B, suffix),
            comparePartHeader(ComparePart::Delta, suffix), comparePartHeader(ComparePart::DeltaPercent, suffix) });
    for (int c = 1; c < 5; ++c)
        tree->headerItem()->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    for (int row : rows) {
        const ComparisonEntry& entry = m_model->entryAt(row);
        const QString name = m_model->index(row, ComparisonModel::Name).data().toString();
        const QString marker = presenceText(entry.inA, entry.inB);
        auto* item = new QTreeWidgetItem(tree,
            { marker.isEmpty() ? name : QString(marker.left(1) + QLatin1Char(' ') + name),
                comparePartText(entry, ComparePart::A, *metric, value, unit, locale),
                comparePartText(entry, ComparePart::B, *metric, value, unit, locale),
                comparePartText(entry, ComparePart::Delta, *metric, value, unit, locale),
                comparePartText(entry, ComparePart::DeltaPercent, *metric, value, unit, locale) });
        for (int c = 1; c < 5; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        const QColor tint
            = changeTint(tintChange(entry, value, sign, m_model->colourBy(), std::max(m_model->maximumDelta(), 0.0)));
        item->setBackground(3, tint);
        item->setBackground(4, tint);
        item->setForeground(3, tintedTextColor(tint));
        item->setForeground(4, tintedTextColor(tint));
        const QString tip = m_model->index(row, ComparisonModel::Delta).data(Qt::ToolTipRole).toString();
        for (int c = 0; c < 5; ++c)
            item->setToolTip(c, tip);
    }
}

void ComparisonSummaryWidget::fillMetadata()
{
    m_metadataModel->clear();
    m_metadataModel->setHorizontalHeaderLabels({ tr("Key"), tr("A (baseline)"), tr("B (candidate)") });
    const auto& snapshot = m_model->snapshot();
    if (!snapshot) {
        m_metadataCount->clear();
        return;
    }
    int differing = 0;
    for (const MetadataComparison& row : snapshot->metadata) {
        const bool differs = row.differs();
        differing += differs ? 1 : 0;
        if (m_onlyDiffering->isChecked() && !differs)
            continue;
        QList<QStandardItem*> items { new QStandardItem(row.key),
            new QStandardItem(row.a.value_or(QStringLiteral("—"))),
            new QStandardItem(row.b.value_or(QStringLiteral("—"))) };
        for (QStandardItem* item : items) {
            item->setEditable(false);
            item->setData(item->text(), SortRole);
            item->setToolTip(item->text());
            if (differs) {
                item->setBackground(differingBackground());
                item->setForeground(tintedTextColor(differingBackground()));
            }
        }
        if (differs) {
            items[0]->setFont(boldFont(items[0]->font()));
            items[0]->setToolTip(!row.a ? tr("%1: only B has this key").arg(row.key)
                    : !row.b            ? tr("%1: only A has this key").arg(row.key)
                                        : tr("%1: the values differ").arg(row.key));
        }
        m_metadataModel->appendRow(items);
    }
    m_metadataCount->setText(
        tr("%1 of %2 trial-wide keys differ (highlighted)").arg(differing).arg(snapshot->metadata.size()));
    QHeaderView* header = m_metadata.view->header();
    header->resizeSection(0, 260);
    header->setSectionResizeMode(1, QHeaderView::Stretch);
    header->setSectionResizeMode(2, QHeaderView::Stretch);
}

} // namespace parallax
