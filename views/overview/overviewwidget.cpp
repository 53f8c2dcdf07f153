// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/overview/overviewwidget.h"

#include "algebra/statistics.h"
#include "views/common/threadfinder.h"
#include "views/overview/barlistwidget.h"
#include "views/overview/eventlegend.h"
#include "views/overview/selectorbar.h"
#include "views/overview/valuetext.h"
#include "views/selectionstate.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QScrollBar>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

namespace parallax {

OverviewWidget::OverviewWidget(SelectionState* state, QWidget* parent)
    : BarChartView(state, SelectionChange::Filters | SelectionChange::Event, QStringLiteral("overview.png"), parent)
{
    m_modeBox = new QComboBox(this);
    m_modeBox->addItem(tr("Stacked"), static_cast<int>(OverviewMode::Stacked));
    m_modeBox->addItem(tr("Unstacked"), static_cast<int>(OverviewMode::Unstacked));
    m_modeBox->addItem(tr("Normalised"), static_cast<int>(OverviewMode::Normalised));
    m_modeBox->setToolTip(tr("Stacked: events end to end on one scale; unstacked: one column per event; "
                             "normalised: every bar stretched to 100 %"));
    m_selectors->addWidget(m_modeBox, tr("&Bars:"));
    m_sortBox = new QComboBox(this);
    m_sortBox->addItem(tr("Thread"), static_cast<int>(OverviewSort::ThreadId));
    m_sortBox->addItem(tr("Selected event"), static_cast<int>(OverviewSort::SelectedEvent));
    m_sortBox->addItem(tr("Bar total"), static_cast<int>(OverviewSort::BarTotal));
    m_sortBox->addItem(tr("Imbalance"), static_cast<int>(OverviewSort::Imbalance));
    m_sortBox->setItemData(m_sortBox->count() - 1,
        tr("By lost time (the statistics table's \"Lost time\" column): the event with the largest max − mean over "
           "all threads (absent = 0), i.e. the longest wait of the other threads for the slowest one, first in every "
           "bar, threads ordered by its value"),
        Qt::ToolTipRole);
    m_selectors->addWidget(m_sortBox, tr("S&ort:"));
    m_descendingBox = new QCheckBox(tr("&Descending"), this);
    m_selectors->addWidget(m_descendingBox);
    m_densityBox = new QCheckBox(tr("Thread de&nsity"), this);
    m_densityBox->setToolTip(tr("One thin row per run of threads (in the sort order): the stacked mean of each event "
                                "over the run, a whisker from the shortest to the longest bar of the run; chosen by "
                                "itself when there are more threads than rows fit"));
    m_selectors->addWidget(m_densityBox);
    m_bars->viewport()->installEventFilter(this);
    connect(m_densityBox, &QCheckBox::toggled, this, [this](bool on) { setDensity(on); });
    m_threadFinder = new ThreadFinder(this);
    m_threadFinder->setTrial(m_state->trial());
    m_selectors->addWidget(m_threadFinder);
    // The chosen thread is selected: its row is scrolled to and outlined.
    connect(m_threadFinder, &ThreadFinder::threadChosen, this, [this](ThreadIndex t) { m_state->selectThread(t); });
    addExportButton();
    m_bars->setPlaceholderText(tr("No trial"));
    // The colour legend beside the bars: the top events by their share of the mean bar, the rest "other".
    m_legend = new EventLegend(this);
    if (auto* box = qobject_cast<QVBoxLayout*>(layout())) {
        box->removeWidget(m_bars);
        auto* row = new QHBoxLayout;
        row->setContentsMargins(0, 0, 0, 0);
        row->addWidget(m_bars, 1);
        row->addWidget(m_legend);
        box->addLayout(row, 1);
    }
    connect(m_legend, &EventLegend::eventClicked, this, [this](EventId e) {
        m_state->selectEvent(e);
        Q_EMIT eventActivated(e);
    });

    connect(m_modeBox, &QComboBox::activated, this,
        [this](int index) { setMode(static_cast<OverviewMode>(m_modeBox->itemData(index).toInt())); });
    connect(m_sortBox, &QComboBox::activated, this, [this](int index) {
        const auto sort = static_cast<OverviewSort>(m_sortBox->itemData(index).toInt());
        // Values read best largest first; ids smallest first.
        setSort(sort, sort != OverviewSort::ThreadId);
    });
    connect(m_descendingBox, &QCheckBox::toggled, this, [this](bool on) { setSort(m_sort, on); });

    if (m_state->trial())
        scheduleUpdate();
}

OverviewWidget::~OverviewWidget() = default;

void OverviewWidget::selectionChanged(SelectionChanges changes)
{
    if (changes & SelectionChange::Trial) {
        m_threadFinder->setTrial(m_state->trial());
        // A newer state of the same run (live monitoring) keeps the density choice, and the scroll
        // position once its bars arrive (apply); another trial starts afresh.
        if (m_state->trialContinuesPrevious()) {
            if (!m_keptScroll)
                m_keptScroll = QPoint(m_bars->horizontalScrollBar()->value(), m_bars->verticalScrollBar()->value());
        } else {
            m_densityChoice.reset();
            m_keptScroll.reset();
        }
    }
    if ((changes & SelectionChange::Event) && !(changes & SelectionChange::Trial)) {
        const EventId event = m_state->event();
        m_bars->setHighlightedKey(event.isValid() ? event.index() : BarSegment::NoKey);
        if (m_sort != OverviewSort::SelectedEvent)
            changes &= ~SelectionChanges(SelectionChange::Event);
    }
    if ((changes & SelectionChange::Thread) && !(changes & SelectionChange::Trial))
        applySelection(true);
    if ((changes & SelectionChange::ThreadSet) && !(changes & SelectionChange::Trial))
        applyThreadSet();
    BarChartView::selectionChanged(changes);
}

void OverviewWidget::setMode(OverviewMode mode)
{
    m_modeBox->setCurrentIndex(m_modeBox->findData(static_cast<int>(mode)));
    if (mode == m_mode)
        return;
    m_mode = mode;
    scheduleUpdate(SelectionChange::View);
}

void OverviewWidget::setSort(OverviewSort sort, bool descending)
{
    m_sortBox->setCurrentIndex(m_sortBox->findData(static_cast<int>(sort)));
    {
        const QSignalBlocker block(m_descendingBox);
        m_descendingBox->setChecked(descending);
    }
    if (sort == m_sort && descending == m_descending)
        return;
    m_sort = sort;
    m_descending = descending;
    scheduleUpdate(SelectionChange::View);
}

void OverviewWidget::setShowTotal(bool show)
{
    if (show == m_showTotal)
        return;
    m_showTotal = show;
    scheduleUpdate(SelectionChange::View);
}

void OverviewWidget::setShowValues(bool show)
{
    if (show == m_showValues)
        return;
    m_showValues = show;
    scheduleUpdate(SelectionChange::View);
}

void OverviewWidget::setAsyncThreshold(std::size_t cells) { m_asyncThreshold = cells; }

OverviewRequest OverviewWidget::makeRequest() const
{
    OverviewRequest request;
    request.trial = m_state->trial();
    request.metric = m_state->metric();
    request.valueType = m_state->valueType();
    request.timeUnit = m_state->timeUnit();
    request.mode = m_mode;
    request.sort = m_sort;
    request.descending = m_descending;
    request.sortEvent = m_state->event();
    request.showTotal = m_showTotal;
    request.showValues = m_showValues;
    request.locale = locale();
    if (request.trial) {
        const Trial& trial = *request.trial;
        request.visible.resize(trial.eventCount());
        for (std::size_t i = 0; i < trial.eventCount(); ++i) {
            const EventId e(i);
            request.visible[i] = OverviewBuilder::isStackable(trial, e) && m_state->isEventVisible(e);
        }
        // Density rows are drawn from the trial's values: a stacked layout shown as density rows
        // needs no per-thread segments (showBars() asks for them when density goes off).
        request.threadSegments = m_mode != OverviewMode::Stacked
            || !densityWantedFor(trial.threadCount(), OverviewBuilder::statisticRows(m_showTotal).size());
    }
    return request;
}

void OverviewWidget::doUpdate(SelectionChanges changes)
{
    if (!changes && m_layout && m_layout->trial == m_state->trial() && !m_job.isRunning()) {
        showBars(); // a new height: other density rows, the layout stays
        return;
    }
    m_job.cancel();
    m_bars->setBusy(false);
    const bool synchronous = isUpdatingNow();

    OverviewRequest request = makeRequest();
    const std::size_t cells = request.trial ? request.trial->cellCount() : 0;
    if (synchronous || cells <= m_asyncThreshold) {
        apply(OverviewBuilder::build(request));
        return;
    }
    if (m_layout && m_layout->trial != request.trial && !m_state->trialContinuesPrevious()) {
        // Another trial: its predecessor's bars would be misleading while the new ones compute. (A
        // newer state of the same run keeps them, and with them the scroll position, until the
        // new bars replace them.)
        releaseInBackground(std::exchange(m_layout, nullptr));
        m_bars->setData(nullptr);
        m_bars->setTitle({});
        m_bars->setPlaceholderText(
            tr("Laying out %1 threads…").arg(locale().toString(static_cast<qulonglong>(request.trial->threadCount()))));
    }
    m_bars->setBusy(true);
    // The job owns copies of everything it reads; a superseded job is cancelled and its result
    // dropped.
    m_job.start([request = std::move(request)](
                    const std::atomic_bool& cancel) { return OverviewBuilder::build(request, &cancel); },
        [this](std::shared_ptr<const OverviewLayout> layout) {
            m_bars->setBusy(false);
            if (layout)
                apply(std::move(layout));
        });
}

void OverviewWidget::finishUpdate()
{
    m_job.waitAndDeliver();
    m_densityJob.waitAndDeliver();
}

void OverviewWidget::setDensity(std::optional<bool> on)
{
    m_densityChoice = on;
    showBars();
    applySelection(true);
    applyThreadSet();
}

int OverviewWidget::densityPixelRows() const { return densityPixelRows(m_layout ? m_layout->statistics.size() : 0); }

int OverviewWidget::densityPixelRows(std::size_t pinned) const
{
    // The viewport less the statistic rows and up to three title lines, so that the rows do not
    // depend on the title they make (and all of them are in view).
    return OverviewDensity::pixelRowsFor(
        m_bars->viewport()->height() - (static_cast<int>(pinned) + 3) * m_bars->rowHeight() - 4);
}

bool OverviewWidget::densityWantedFor(std::size_t threads, std::size_t pinned) const
{
    if (threads == 0)
        return false;
    // A chart not on screen has no pixel rows yet: it decides when shown.
    return m_densityChoice.value_or(
        m_bars->viewport()->isVisible() && OverviewDensity::wanted(threads, densityPixelRows(pinned)));
}

bool OverviewWidget::densityWanted() const
{
    return m_layout && densityWantedFor(m_layout->rowOfThread.size(), m_layout->statistics.size());
}

bool OverviewWidget::isDensityShown() const
{
    return m_density && m_layout && m_density->layout == m_layout && m_bars->data() == m_density->bars;
}

void OverviewWidget::showBars()
{
    const bool wanted = densityWanted();
    {
        const QSignalBlocker block(m_densityBox);
        m_densityBox->setChecked(wanted);
    }
    if (!wanted || !m_layout) {
        m_densityJob.cancel();
        m_bars->setBusy(m_job.isRunning()); // a cancelled density job leaves no "Computing…" behind
        m_bars->setData(m_layout ? m_layout->bars : nullptr);
        updateTitle();
        // A layout made for density rows has no thread segments: the thread rows need a new one.
        if (m_layout && !m_layout->threadSegments)
            scheduleUpdate(SelectionChange::View);
        return;
    }
    const int rows = densityPixelRows();
    if (m_density && m_density->layout == m_layout
        && m_density->rows.size() == std::min(m_layout->rowOfThread.size(), static_cast<std::size_t>(rows))) {
        m_densityJob.cancel();
        m_bars->setBusy(m_job.isRunning());
        m_bars->setData(m_density->bars);
        updateTitle();
        return;
    }
    const auto done = [this](std::shared_ptr<const OverviewDensity> density) {
        m_bars->setBusy(false);
        if (!density)
            return;
        releaseInBackground(std::exchange(m_density, std::move(density)));
        m_bars->setData(m_density->bars);
        updateTitle();
        applySelection(false);
        applyThreadSet();
        Q_EMIT layoutChanged();
    };
    if (isUpdatingNow() || m_layout->trial->cellCount() <= m_asyncThreshold) {
        done(OverviewDensity::build(m_layout, rows));
        return;
    }
    // Until the density arrives the thread rows (virtualised) stand in.
    if (!m_bars->data())
        m_bars->setData(m_layout->bars);
    m_bars->setBusy(true);
    m_densityJob.start([layout = m_layout, rows](
                           const std::atomic_bool& cancel) { return OverviewDensity::build(layout, rows, &cancel); },
        done);
}

bool OverviewWidget::eventFilter(QObject* watched, QEvent* event)
{
    // A new height asks for other density rows (or none); the cached ones serve the same height.
    // An update without changes: showBars() alone, on the next turn (or now, in updateNow()).
    if (watched == m_bars->viewport() && (event->type() == QEvent::Resize || event->type() == QEvent::Show) && m_layout
        && (densityWanted() || isDensityShown()))
        scheduleUpdate(SelectionChanges());
    return BarChartView::eventFilter(watched, event);
}

void OverviewWidget::apply(std::shared_ptr<const OverviewLayout> layout)
{
    releaseInBackground(std::exchange(m_layout, std::move(layout)));
    showBars();
    const EventId event = m_state->event();
    m_bars->setHighlightedKey(event.isValid() ? event.index() : BarSegment::NoKey);
    m_bars->setPlaceholderText(m_state->trial() ? tr("No events to show (check the filters)") : tr("No trial"));
    updateTitle();
    updateLegend();
    applySelection(false);
    applyThreadSet();
    if (m_keptScroll && m_layout && m_layout->trial == m_state->trial()) {
        m_bars->horizontalScrollBar()->setValue(m_keptScroll->x());
        m_bars->verticalScrollBar()->setValue(m_keptScroll->y());
        m_keptScroll.reset();
    }
    Q_EMIT layoutChanged();
}

void OverviewWidget::updateLegend()
{
    std::vector<EventLegend::Entry> entries;
    const auto& trial = m_state->trial();
    if (trial && m_layout && m_layout->metric.isValid() && m_layout->trial == trial) {
        const auto stats = TrialStatistics::of(*trial);
        entries.reserve(m_layout->order.size());
        for (EventId e : m_layout->order)
            entries.push_back({ e, trial->event(e).name,
                statisticValue(*trial, *stats, e, m_layout->metric, m_layout->valueType, Statistic::MeanAll)
                    .value_or(0.0),
                m_layout->bars->color(e.index()) });
    }
    m_legend->setEntries(std::move(entries));
}

void OverviewWidget::updateTitle()
{
    const auto& trial = m_state->trial();
    if (!trial || !m_layout || !m_layout->metric.isValid()) {
        m_bars->setTitle({});
        return;
    }
    const Metric& metric = trial->metric(m_layout->metric);
    QString value = valueTitle(metric, m_layout->valueType, m_state->timeUnit());
    if (m_layout->valueType != m_state->valueType())
        value += tr(", stacked instead of %1").arg(valueTypeName(m_state->valueType()).toLower());
    const QString mode = m_layout->mode == OverviewMode::Stacked ? tr("stacked")
        : m_layout->mode == OverviewMode::Unstacked              ? tr("unstacked")
                                                                 : tr("normalised");
    const QString threads = trial->threadCount() == 1
        ? tr("1 thread")
        : tr("%1 threads").arg(locale().toString(static_cast<qulonglong>(trial->threadCount())));
    QString title = tr("%1 — %2 — %3 bars — %4 (n,c,t)").arg(metric.name, value, mode, threads);
    if (isDensityShown())
        title += tr("\nThread density: %1 rows of ≈ %2 threads, each their mean bar, a whisker from their shortest to "
                    "their longest bar")
                     .arg(locale().toString(static_cast<qulonglong>(m_density->rows.size())),
                         locale().toString(static_cast<qulonglong>(
                             (trial->threadCount() + m_density->rows.size() - 1) / m_density->rows.size())));
    if (m_layout->imbalanceEvent.isValid() && m_layout->imbalanceEvent.index() < trial->eventCount()) {
        const auto stats = TrialStatistics::of(*trial);
        const EventId e = m_layout->imbalanceEvent;
        const auto max = statisticValue(*trial, *stats, e, m_layout->metric, m_layout->valueType, Statistic::Max);
        const auto mean = statisticValue(*trial, *stats, e, m_layout->metric, m_layout->valueType, Statistic::MeanAll);
        title += QLatin1Char('\n')
            + tr("Most imbalanced: %1 (max − mean %2), first in every bar; threads by its value")
                  .arg(trial->event(e).name,
                      valueText(max.value_or(0.0) - mean.value_or(0.0), metric, m_layout->valueType,
                          m_state->timeUnit(), locale()));
    }
    m_bars->setTitle(title);
}

void OverviewWidget::applySelection(bool scroll) { selectRow(rowOfThread(m_state->thread()), scroll); }

void OverviewWidget::applyThreadSet()
{
    const auto& threads = m_state->selectedThreads();
    std::vector<char> marked;
    if (!threads.empty() && isCurrent()) {
        marked.assign(m_bars->data()->rows.size(), 0);
        for (ThreadIndex t : threads) {
            const int row = rowOfThread(t);
            if (row >= 0)
                marked[static_cast<std::size_t>(row)] = 1;
        }
    }
    m_bars->setMarkedRows(std::move(marked));
}

bool OverviewWidget::isCurrent() const
{
    return m_layout && m_layout->trial == m_state->trial() && (m_layout->bars == m_bars->data() || isDensityShown());
}

int OverviewWidget::rowOfThread(ThreadIndex thread) const
{
    if (!isCurrent() || !thread.isValid() || thread.index() >= m_layout->rowOfThread.size())
        return -1;
    const int row = m_layout->rowOfThread[thread.index()];
    if (!isDensityShown() || row < 0)
        return row;
    // The density row whose run holds the thread's row.
    const auto pinned = m_layout->statistics.size();
    const auto at = static_cast<std::size_t>(row) - pinned;
    const auto& runs = m_density->rows;
    const auto it = std::upper_bound(runs.begin(), runs.end(), at,
        [](std::size_t value, const OverviewDensity::Row& run) { return value < run.lastRow; });
    return it == runs.end() ? -1 : static_cast<int>(pinned + static_cast<std::size_t>(it - runs.begin()));
}

ThreadIndex OverviewWidget::threadAtRow(int row) const
{
    const auto& data = m_bars->data();
    if (!isCurrent() || row < 0 || static_cast<std::size_t>(row) >= data->rows.size())
        return {};
    const BarRow& r = data->rows[static_cast<std::size_t>(row)];
    return r.kind == BarRowKind::Item && !isDensityShown() ? ThreadIndex(r.id) : ThreadIndex();
}

std::optional<Statistic> OverviewWidget::statisticAtRow(int row) const
{
    const auto& data = m_bars->data();
    if (!isCurrent() || row < 0 || static_cast<std::size_t>(row) >= data->rows.size())
        return std::nullopt;
    const BarRow& r = data->rows[static_cast<std::size_t>(row)];
    if (r.kind != BarRowKind::Summary)
        return std::nullopt;
    return static_cast<Statistic>(r.id);
}

ThreadIndex OverviewWidget::threadOfStatisticRow(int row) const
{
    if (!statisticAtRow(row) || static_cast<std::size_t>(row) >= m_layout->statisticThreads.size())
        return {};
    return m_layout->statisticThreads[static_cast<std::size_t>(row)];
}

EventId OverviewWidget::eventOfSegment(int segment) const
{
    const auto& data = m_bars->data();
    if (!isCurrent() || segment < 0 || static_cast<std::size_t>(segment) >= data->segments.size())
        return {};
    return EventId(data->segments[static_cast<std::size_t>(segment)].key);
}

QString OverviewWidget::toolTip(int row, int segment) const
{
    const auto& trial = m_state->trial();
    if (!trial || !isCurrent() || !m_layout->metric.isValid())
        return {};
    if (isDensityShown()) {
        if (const auto run = m_density->densityRow(row)) {
            const std::size_t event = m_density->eventIndex(eventOfSegment(segment));
            QString text = m_density->toolTip(*run, event, m_state->timeUnit(), locale());
            if (event >= m_density->eventCount())
                text += QLatin1Char('\n') + tr("Click the label to show these threads' own rows");
            return text;
        }
    }
    const ThreadIndex rowThread = threadOfStatisticRow(row);
    const ThreadIndex thread = rowThread.isValid() ? rowThread : threadAtRow(row);
    std::optional<Statistic> statistic;
    if (!rowThread.isValid())
        statistic = statisticAtRow(row);
    QString where = thread.isValid() ? tr("Thread %1 (n,c,t)").arg(trial->threadKey(thread).toString())
        : statistic                  ? statisticName(*statistic)
                                     : QString();
    if (rowThread.isValid())
        where = tr("%1: thread %2 (n,c,t), the %3 bar of all threads, as that thread has it.\n"
                   "The per-event %4 over the threads where each event ran are in the statistics table (no "
                   "thread has all of them, so they are not stacked here).")
                    .arg(OverviewBuilder::rowLabel(*statisticAtRow(row)), trial->threadKey(rowThread).toString(),
                        *statisticAtRow(row) == Statistic::Min ? tr("shortest") : tr("longest"),
                        *statisticAtRow(row) == Statistic::Min ? tr("minima") : tr("maxima"));
    else if (statistic == Statistic::Total)
        where = tr("Total: the sum over all %1 threads, shown as a number only (it is N times the mean; a bar on the "
                   "threads' scale would not fit, and one on its own scale would read as comparable)")
                    .arg(locale().toString(static_cast<qulonglong>(trial->threadCount())));
    else if (statistic == Statistic::StdDevAll)
        where = tr("Std. Dev.: each segment is that event's standard deviation over all %1 threads (absent = 0); "
                   "their sum is not the deviation of the thread bars, which the text after the row gives")
                    .arg(locale().toString(static_cast<qulonglong>(trial->threadCount())));
    else if (statistic == Statistic::MeanAll)
        where = tr("Mean over all %1 threads (absent = 0): each segment is the event's mean, and the bar is the mean "
                   "of the thread bars")
                    .arg(locale().toString(static_cast<qulonglong>(trial->threadCount())));
    const Metric& metric = trial->metric(m_layout->metric);
    const TimeUnit unit = m_state->timeUnit();
    const QLocale loc = locale();
    const double rowTotal = m_layout->rowTotals[static_cast<std::size_t>(row)];
    if (segment < 0) {
        const QString sum = valueText(rowTotal, metric, m_layout->valueType, unit, loc);
        const QString hint = thread.isValid() ? tr("Click the label to open this thread")
                                              : tr("Click the label to open this statistic");
        return where + QLatin1Char('\n') + tr("Sum of the bar: %1").arg(sum) + QLatin1Char('\n') + hint;
    }
    const EventId event = eventOfSegment(segment);
    if (!event.isValid() || event.index() >= trial->eventCount())
        return {};
    const auto stats = TrialStatistics::of(*trial);
    std::optional<double> value;
    if (thread.isValid())
        value = threadValue(*trial, *stats, thread, event, m_layout->metric, m_layout->valueType);
    else if (statistic)
        value = statisticValue(*trial, *stats, event, m_layout->metric, m_layout->valueType, *statistic);
    QString text = trial->event(event).name + QLatin1Char('\n') + where + QLatin1Char('\n')
        + valueTypeName(m_layout->valueType) + QStringLiteral(": ")
        + (value ? valueText(*value, metric, m_layout->valueType, unit, loc) : absentText());
    if (value && rowTotal != 0 && m_layout->mode != OverviewMode::Unstacked)
        text += QLatin1Char('\n') + tr("%1 % of this bar").arg(loc.toString(100.0 * *value / rowTotal, 'f', 2));
    return text;
}

void OverviewWidget::activateSegment(int, int segment)
{
    const EventId event = eventOfSegment(segment);
    if (!event.isValid())
        return;
    m_state->selectEvent(event);
    Q_EMIT eventActivated(event);
}

void OverviewWidget::activate(int row)
{
    if (isDensityShown()) {
        if (const auto run = m_density->densityRow(row)) {
            // A density row opens onto its threads: their own rows, the first one selected.
            const std::size_t barRow = m_layout->statistics.size() + m_density->rows[*run].firstRow;
            const ThreadIndex first(m_layout->bars->rows[barRow].id);
            setDensity(false);
            m_state->selectThread(first);
            Q_EMIT threadActivated(first);
            return;
        }
    }
    const ThreadIndex rowThread = threadOfStatisticRow(row);
    const ThreadIndex thread = rowThread.isValid() ? rowThread : threadAtRow(row);
    if (thread.isValid()) {
        m_state->selectThread(thread);
        Q_EMIT threadActivated(thread);
        return;
    }
    if (const auto statistic = statisticAtRow(row))
        Q_EMIT statisticActivated(*statistic);
}

} // namespace parallax
