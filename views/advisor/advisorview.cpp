// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/advisor/advisorview.h"

#include "algebra/instrumentationfiles.h"
#include "algebra/units.h"
#include "datasource/readers/readerregistry.h"
#include "views/charts/chartexport.h"
#include "views/selectionstate.h"
#include "views/viewsetup.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace parallax {

namespace {

constexpr unsigned AllReasons = ReasonLightweight | ReasonThrottled | ReasonUser | ReasonOpenUh;

QString number(double v) { return std::isnan(v) ? QStringLiteral("—") : formatNumber(v); }

QString percent(double fraction)
{
    return std::isnan(fraction) ? QStringLiteral("—") : formatPercentChange(100 * fraction);
}

/// A cell showing `text` that sorts on `value`.
QStandardItem* cell(const QString& text, const QVariant& value, const QString& tip = {})
{
    auto* item = new QStandardItem(text);
    item->setData(value, SortRole);
    item->setEditable(false);
    if (!tip.isEmpty())
        item->setToolTip(tip);
    if (value.typeId() == QMetaType::Double)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QStandardItem* numberCell(double v, const QString& text = {})
{
    return cell(text.isEmpty() ? number(v) : text, std::isnan(v) ? QVariant(-1.0) : QVariant(v));
}

QTreeView* table(QStandardItemModel* model, const QStringList& headers, QWidget** container, const QString& noun,
    const QString& nouns, int sortColumn)
{
    model->setHorizontalHeaderLabels(headers);
    auto* view = new QTreeView;
    ViewSetupOptions o;
    o.filterColumn = -1;
    o.sortColumn = sortColumn;
    o.countNoun = noun;
    o.countNounPlural = nouns;
    const ViewSetup setup = setupTreeView(view, model, o);
    *container = setup.widget;
    view->setRootIsDecorated(false);
    return view;
}

QString writeText(const QString& path, const QString& text)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text.toUtf8()) < 0 || !f.commit())
        return QObject::tr("Cannot write %1: %2").arg(path, f.errorString());
    return {};
}

} // namespace

AdvisorView::AdvisorView(SelectionState* state, QWidget* parent)
    : QWidget(parent)
    , SelectionView(this, state, SelectionChange::Trial | SelectionChange::Event)
    , m_suggestions(new QStandardItemModel(this))
    , m_preview(new QStandardItemModel(this))
    , m_overhead(new QStandardItemModel(this))
{
    const LightweightRule defaults;
    m_minCalls = new QDoubleSpinBox;
    m_minCalls->setRange(0, 1e15);
    m_minCalls->setDecimals(0);
    m_minCalls->setValue(defaults.minCalls);
    m_minCalls->setToolTip(tr("N: a routine is lightweight when its mean calls are at least N (SEMANTICS 7.2)"));
    m_maxPerCall = new QDoubleSpinBox;
    m_maxPerCall->setRange(0, 1e12);
    m_maxPerCall->setDecimals(3);
    m_maxPerCall->setValue(defaults.maxMicrosPerCall);
    m_maxPerCall->setSuffix(QStringLiteral(" µs"));
    m_maxPerCall->setToolTip(tr("X: … and its mean inclusive time per call is at most X µs"));
    m_presentOnly = new QCheckBox(tr("Mean over threads that ran it"));
    m_presentOnly->setToolTip(tr("The rule's means over the threads where the routine ran, instead of all threads"));
    m_addSelected = new QPushButton(tr("Add selected routine"));
    m_addSelected->setToolTip(tr("Put the routine selected in any view on the exclude list"));
    m_clearUser = new QPushButton(tr("Clear added"));
    m_baselineButton = new QPushButton(tr("Baseline…"));
    m_baselineButton->setToolTip(tr("A less instrumented run of the same program: the overhead, full vs selective"));
    m_writeTau = new QPushButton(tr("Write TAU file…"));
    m_mergeTau = new QCheckBox(tr("merge"));
    m_mergeTau->setToolTip(tr("Keep an existing file and append the routines it does not exclude yet"));
    m_writeScorep = new QPushButton(tr("Write Score-P filter…"));
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Calls ≥")));
    controls->addWidget(m_minCalls);
    controls->addWidget(new QLabel(tr("per call ≤")));
    controls->addWidget(m_maxPerCall);
    controls->addWidget(m_presentOnly);
    controls->addSpacing(12);
    controls->addWidget(m_addSelected);
    controls->addWidget(m_clearUser);
    controls->addWidget(m_baselineButton);
    controls->addStretch(1);
    controls->addWidget(m_writeTau);
    controls->addWidget(m_mergeTau);
    controls->addWidget(m_writeScorep);

    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    QWidget* suggestionsBox = nullptr;
    m_suggestionsView = table(m_suggestions,
        { tr("Routine"), tr("Reason"), tr("Calls (mean)"), tr("µs/call"), tr("Visits"), tr("Trace"), tr("Saved µs"),
            tr("Why") },
        &suggestionsBox, tr("routine"), tr("routines"), 4);
    QWidget* previewBox = nullptr;
    m_previewView = table(m_preview, { tr("Rule"), tr("Routines"), tr("Visits"), tr("Trace"), tr("Saved µs/thread") },
        &previewBox, tr("rule"), tr("rules"), 2);
    QWidget* overheadBox = nullptr;
    m_overheadView = table(m_overhead, { tr("Region"), tr("Full µs"), tr("Selective µs"), tr("Overhead"), tr("Calls") },
        &overheadBox, tr("region"), tr("regions"), 3);
    m_overheadView->header()->setStretchLastSection(false);
    m_previewView->header()->setStretchLastSection(false);
    m_overheadTitle = new QLabel;
    m_overheadTitle->setWordWrap(true);

    auto* lower = new QWidget;
    auto* lowerLayout = new QHBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    auto* left = new QVBoxLayout;
    left->addWidget(new QLabel(tr("<b>What each rule removes</b>")));
    left->addWidget(previewBox, 1);
    left->addWidget(m_summary);
    auto* right = new QVBoxLayout;
    right->addWidget(m_overheadTitle);
    right->addWidget(overheadBox, 1);
    lowerLayout->addLayout(left, 1);
    lowerLayout->addLayout(right, 1);

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(suggestionsBox);
    splitter->addWidget(lower);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_status);
    layout->addWidget(splitter, 1);

    const auto changed = [this] { invalidate(); };
    connect(m_minCalls, &QDoubleSpinBox::editingFinished, this, changed);
    connect(m_maxPerCall, &QDoubleSpinBox::editingFinished, this, changed);
    connect(m_presentOnly, &QCheckBox::toggled, this, changed);
    connect(m_addSelected, &QPushButton::clicked, this, [this] {
        const auto& trial = selection()->trial();
        const EventId e = selection()->event();
        if (trial && e.isValid()) {
            // A call path stands for its routine, the leaf.
            const IntervalEvent& ev = trial->event(e);
            addUserRoutine(ev.isCallPath() && ev.leaf.isValid() ? trial->event(ev.leaf).name : ev.name);
        }
    });
    connect(m_clearUser, &QPushButton::clicked, this, [this] {
        m_user.clear();
        invalidate();
    });
    connect(m_baselineButton, &QPushButton::clicked, this, &AdvisorView::chooseBaseline);
    connect(m_writeTau, &QPushButton::clicked, this, &AdvisorView::saveTau);
    connect(m_writeScorep, &QPushButton::clicked, this, &AdvisorView::saveScorep);
    connect(m_suggestionsView, &QTreeView::clicked, this, [this](const QModelIndex& index) {
        const QModelIndex source = qobject_cast<const QSortFilterProxyModel*>(index.model())->mapToSource(index);
        const QVariant event = m_suggestions->item(source.row(), 0)->data(Qt::UserRole + 7);
        if (event.isValid())
            selection()->selectEvent(EventId(event.toUInt()));
    });
    m_addSelected->setEnabled(false);
    if (state->trial())
        scheduleUpdate(SelectionChange::Trial);
}

AdvisorView::~AdvisorView() { m_job.cancelAndWait(); }

void AdvisorView::setRule(const LightweightRule& rule)
{
    m_minCalls->setValue(rule.minCalls);
    m_maxPerCall->setValue(rule.maxMicrosPerCall);
    m_presentOnly->setChecked(rule.presentOnlyMean);
    invalidate();
}

LightweightRule AdvisorView::rule() const
{
    LightweightRule r;
    r.minCalls = m_minCalls->value();
    r.maxMicrosPerCall = m_maxPerCall->value();
    r.presentOnlyMean = m_presentOnly->isChecked();
    return r;
}

void AdvisorView::setBaselinePath(const QString& path)
{
    m_baselinePath = path;
    if (path != m_loadedBaselinePath)
        m_baseline.reset();
    invalidate();
}

void AdvisorView::addUserRoutine(const QString& name)
{
    if (name.isEmpty() || m_user.contains(name))
        return;
    m_user.append(name);
    invalidate();
}

void AdvisorView::invalidate()
{
    m_stale = true;
    scheduleUpdate(SelectionChange::View);
}

void AdvisorView::selectionChanged(SelectionChanges changes)
{
    if (changes & (SelectionChange::Event | SelectionChange::Trial))
        m_addSelected->setEnabled(selection()->trial() && selection()->event().isValid());
    SelectionView::selectionChanged(changes);
}

void AdvisorView::doUpdate(SelectionChanges changes)
{
    if (changes & SelectionChange::Trial) {
        m_job.cancel();
        m_user.clear();
        m_advice.reset();
        m_stale = true;
        fillSuggestions();
        fillPreview();
        fillOverhead();
    }
    if (!m_stale)
        return;
    if (!isVisible() && !isUpdatingNow())
        return;
    start();
}

void AdvisorView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        scheduleUpdate(SelectionChange::View);
}

void AdvisorView::finishUpdate() { m_job.waitAndDeliver(); }

void AdvisorView::start()
{
    m_stale = false;
    const auto trial = selection()->trial();
    if (!trial) {
        m_job.cancel();
        present({});
        return;
    }
    AdvisorOptions options;
    options.rule = rule();
    options.userExclude = m_user;
    const QString baselinePath = m_baselinePath;
    const std::shared_ptr<const Trial> loaded = m_baseline;
    m_status->setText(baselinePath.isEmpty() || loaded ? tr("Computing the advice…")
                                                       : tr("Reading the baseline %1…").arg(baselinePath));
    m_job.start(
        [trial, options, baselinePath, loaded](const std::atomic_bool& cancel) {
            Output out;
            out.baseline = loaded;
            if (!baselinePath.isEmpty() && !loaded) {
                ReadOptions ro;
                Progress progress;
                const TrialResult r = ReaderRegistry::instance().read(baselinePath, ro, progress);
                if (!r.ok())
                    out.error = r.error().toString();
                else
                    out.baseline = r.value();
            }
            if (cancel)
                return out;
            out.advice = std::make_shared<const Advice>(advise(*trial, out.baseline.get(), options));
            return out;
        },
        [this, baselinePath](const Output& out) {
            if (out.baseline) {
                m_baseline = out.baseline;
                m_loadedBaselinePath = baselinePath;
            }
            present(out);
        });
}

void AdvisorView::present(const Output& output)
{
    m_advice = output.advice;
    QStringList status;
    if (!output.error.isEmpty())
        status << tr("Baseline: %1").arg(output.error);
    if (m_advice) {
        const Advice& a = *m_advice;
        status << tr("%1 suggested for exclusion from %2 (%3 threads, metric %4).")
                      .arg(countText(a.suggestions.size(), tr("routine"), tr("routines")), a.trialName)
                      .arg(a.threads)
                      .arg(a.metricName.isEmpty() ? QStringLiteral("—") : a.metricName);
        if (a.throttle.recorded())
            status << tr("TAU throttling: TAU_THROTTLE=%1, NUMCALLS %2, PERCALL %3 µs.")
                          .arg(a.throttle.throttle, a.throttle.numCalls, a.throttle.perCall);
        for (const QString& w : a.throttledWarnings)
            status << QStringLiteral("⚠ ") + w;
        for (const QString& w : a.warnings)
            status << QStringLiteral("⚠ ") + w;
        if (!a.unknownUserNames.isEmpty())
            status << tr("Added but not in this trial (still written): %1")
                          .arg(a.unknownUserNames.join(QStringLiteral(", ")));
    }
    m_status->setText(status.join(QLatin1Char('\n')));
    m_writeTau->setEnabled(m_advice != nullptr);
    m_writeScorep->setEnabled(m_advice != nullptr);
    fillSuggestions();
    fillPreview();
    fillOverhead();
    Q_EMIT adviceShown();
}

void AdvisorView::fillSuggestions()
{
    m_suggestions->removeRows(0, m_suggestions->rowCount());
    if (!m_advice)
        return;
    for (const Suggestion& s : m_advice->suggestions) {
        QList<QStandardItem*> row { cell(s.name, s.name, s.scorep.join(QLatin1Char(' '))),
            cell(reasonText(s.reasons), reasonText(s.reasons)), numberCell(s.meanCalls), numberCell(s.microsPerCall),
            numberCell(s.visits), numberCell(s.traceBytes, formatBytes(s.traceBytes)), numberCell(s.timeSavedMicros),
            cell(s.why, s.why, s.why) };
        row.front()->setData(s.event.index(), Qt::UserRole + 7);
        m_suggestions->appendRow(row);
    }
    for (const QString& u : m_advice->unknownUserNames)
        m_suggestions->appendRow({ cell(u, u), cell(tr("user"), QStringLiteral("user")), numberCell(NAN),
            numberCell(NAN), numberCell(0), numberCell(0, formatBytes(0)), numberCell(NAN),
            cell(tr("added by you; not in this trial"), QString()) });
    for (int c = 0; c < 7; ++c)
        m_suggestionsView->resizeColumnToContents(c);
    m_suggestionsView->setColumnWidth(0, std::clamp(m_suggestionsView->columnWidth(0), 160, 420));
}

void AdvisorView::fillPreview()
{
    m_preview->removeRows(0, m_preview->rowCount());
    if (!m_advice) {
        m_summary->clear();
        return;
    }
    for (const RulePreview& p : rulePreviews(*m_advice))
        m_preview->appendRow(
            { cell(p.reason == AllReasons ? tr("all (the filter)") : reasonText(p.reason), static_cast<int>(p.reason)),
                numberCell(p.routines), numberCell(p.visits), numberCell(p.traceBytes, formatBytes(p.traceBytes)),
                numberCell(p.timeSavedMicros) });
    const TraceEstimate& t = m_advice->trace;
    m_summary->setText(tr("<b>Trace size</b> (%1 regions, %2 bytes per visit): total %3 → %4 with the filter; "
                          "largest process (max_buf) %5 → %6.%7")
                           .arg(t.regions)
                           .arg(formatNumber(t.bytesPerVisit))
                           .arg(formatBytes(t.totalBefore), formatBytes(t.totalAfter), formatBytes(t.maxBefore),
                               formatBytes(t.maxAfter))
                           .arg(std::isnan(m_advice->timeSavedMicros())
                                   ? tr(" Time saved needs a baseline (the cost of a measured call).")
                                   : QString()));
    for (int c = 0; c < m_preview->columnCount(); ++c)
        m_previewView->resizeColumnToContents(c);
}

void AdvisorView::fillOverhead()
{
    m_overhead->removeRows(0, m_overhead->rowCount());
    if (!m_advice || !m_advice->overhead) {
        m_overheadTitle->setText(tr("<b>Overhead</b>: choose a baseline (a selective or uninstrumented run of the "
                                    "same program) to see full vs selective per region."));
        return;
    }
    const OverheadReport& o = *m_advice->overhead;
    m_overheadTitle->setText(tr("<b>Overhead</b> against %1: %2 (%3 µs full vs %4 µs selective, mean per thread); "
                                "%5 µs per measured call")
                                 .arg(o.baselineName, percent(o.total), number(o.totalInstrumented),
                                     number(o.totalBaseline), number(o.perCallMicros)));
    for (const OverheadRow& r : o.rows)
        m_overhead->appendRow({ cell(r.name, r.name), numberCell(r.instrumented), numberCell(r.baseline),
            numberCell(r.overhead, percent(r.overhead)), numberCell(r.calls) });
    for (int c = 1; c < m_overhead->columnCount(); ++c)
        m_overheadView->resizeColumnToContents(c);
    fitNameColumn(m_overheadView, 0, 160);
}

void AdvisorView::chooseBaseline()
{
    const QString path = QFileDialog::getExistingDirectory(this, tr("Baseline run (a profile directory)"),
        m_baselinePath.isEmpty() ? QString() : QFileInfo(m_baselinePath).absolutePath());
    if (!path.isEmpty())
        setBaselinePath(path);
}

QString AdvisorView::writeTauSelect(const QString& path, bool merge) const
{
    if (!m_advice)
        return tr("No advice yet");
    QString text = tauSelectText(*m_advice);
    if (merge && QFile::exists(path)) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return tr("Cannot read %1: %2").arg(path, f.errorString());
        QString error;
        text = mergeTauSelectFile(QString::fromUtf8(f.readAll()), m_advice->excludeNames(), nullptr, &error);
        if (!error.isEmpty())
            return tr("%1: %2").arg(path, error);
    }
    return writeText(path, text);
}

QString AdvisorView::writeScorepFilter(const QString& path) const
{
    return m_advice ? writeText(path, scorepFilterText(*m_advice)) : tr("No advice yet");
}

void AdvisorView::saveTau()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("TAU selective-instrumentation file"),
        QStringLiteral("select.tau"), tr("TAU select files (*.tau *.txt);;All files (*)"), nullptr,
        m_mergeTau->isChecked() ? QFileDialog::DontConfirmOverwrite : QFileDialog::Options());
    if (path.isEmpty())
        return;
    const QString error = writeTauSelect(path, m_mergeTau->isChecked());
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Write TAU file"), error);
}

void AdvisorView::saveScorep()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Score-P filter file"), QStringLiteral("scorep.filter"),
        tr("Score-P filters (*.filter *.filt);;All files (*)"));
    if (path.isEmpty())
        return;
    const QString error = writeScorepFilter(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Write Score-P filter"), error);
}

QString AdvisorView::exportImage(const QString& fileName)
{
    updateNow();
    return exportWidget(this, fileName);
}

} // namespace parallax
