// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/overview/eventbarchart.h"

#include "algebra/statistics.h"
#include "views/charts/colors.h"
#include "views/overview/barlistwidget.h"
#include "views/overview/selectorbar.h"
#include "views/overview/valuetext.h"
#include "views/selectionstate.h"

#include <QComboBox>
#include <algorithm>

namespace parallax {

EventBarChart::EventBarChart(SelectionState* state, QWidget* parent)
    : BarChartView(state, SelectionChange::Event, QStringLiteral("event.png"), parent)
{
    m_sortBox = new QComboBox(this);
    m_sortBox->addItem(tr("Thread"), static_cast<int>(Sort::ThreadId));
    m_sortBox->addItem(tr("Smallest first"), static_cast<int>(Sort::ValueAscending));
    m_sortBox->addItem(tr("Largest first"), static_cast<int>(Sort::ValueDescending));
    m_selectors->addWidget(m_sortBox, tr("S&ort:"));
    addExportButton();
    connect(m_sortBox, &QComboBox::activated, this,
        [this](int index) { setSort(static_cast<Sort>(m_sortBox->itemData(index).toInt())); });
    scheduleUpdate();
}

void EventBarChart::selectionChanged(SelectionChanges changes)
{
    if (changes & SelectionChange::Trial)
        m_pinned = EventId(); // an id of the previous trial
    else if (changes & SelectionChange::Thread)
        applySelection(true);
    if (m_pinned.isValid())
        changes &= ~SelectionChanges(SelectionChange::Event);
    BarChartView::selectionChanged(changes);
}

EventBarChart::~EventBarChart() = default;

void EventBarChart::setPinnedEvent(EventId event)
{
    m_pinned = event;
    scheduleUpdate();
}

EventId EventBarChart::event() const { return m_pinned.isValid() ? m_pinned : m_state->event(); }

void EventBarChart::setSort(Sort sort)
{
    m_sortBox->setCurrentIndex(m_sortBox->findData(static_cast<int>(sort)));
    if (sort == m_sort)
        return;
    m_sort = sort;
    scheduleUpdate();
}

void EventBarChart::doUpdate(SelectionChanges)
{
    m_job.cancel();
    m_bars->setBusy(false);
    m_rows.clear();
    m_rowOfThread.clear();
    const auto& trial = m_state->trial();
    const MetricId m = m_state->metric();
    EventId e = event();
    if (trial && e.isValid() && e.index() >= trial->eventCount())
        e = EventId();
    m_shown = e;
    if (!trial || !e.isValid() || !m.isValid()) {
        showPlaceholder(
            trial ? tr("Select an event: click a bar segment in the overview or a row of a table") : tr("No trial"));
        return;
    }
    // O(threads): on a worker for big trials, so opening the window or sorting never stalls the GUI.
    auto work = [trial, e, m, type = m_state->valueType(), unit = m_state->timeUnit(), loc = locale(), sort = m_sort](
                    const std::atomic_bool& cancel) { return compute(trial, e, m, type, unit, loc, sort, &cancel); };
    if (isUpdatingNow() || trial->cellCount() <= AsyncCells) {
        const std::atomic_bool never { false };
        apply(work(never));
        return;
    }
    m_bars->setBusy(true);
    m_job.start(std::move(work), [this](const std::shared_ptr<const Computed>& computed) {
        m_bars->setBusy(false);
        if (computed)
            apply(computed);
    });
}

void EventBarChart::finishUpdate() { m_job.waitAndDeliver(); }

std::shared_ptr<const EventBarChart::Computed> EventBarChart::compute(const std::shared_ptr<const Trial>& trial,
    EventId e, MetricId m, ValueType type, TimeUnit unit, const QLocale& loc, Sort sort, const std::atomic_bool* cancel)
{
    auto out = std::make_shared<Computed>();
    auto& rows = out->rows;
    const auto stats = TrialStatistics::of(*trial);
    const Metric& metric = trial->metric(m);

    for (Statistic s : inStatisticOrder({ Statistic::MeanAll, Statistic::Min, Statistic::Max, Statistic::StdDevAll }))
        rows.push_back({ ThreadIndex(), s, parallax::statisticValue(*trial, *stats, e, m, type, s) });
    const std::size_t pinned = rows.size();
    std::vector<Row> threads(trial->threadCount());
    for (std::size_t t = 0; t < threads.size(); ++t)
        threads[t]
            = { ThreadIndex(t), std::nullopt, parallax::threadValue(*trial, *stats, ThreadIndex(t), e, m, type) };
    if (cancel->load(std::memory_order_relaxed))
        return nullptr;
    if (sort != Sort::ThreadId) {
        const bool descending = sort == Sort::ValueDescending;
        std::stable_sort(threads.begin(), threads.end(), [descending](const Row& a, const Row& b) {
            if (!a.value || !b.value)
                return a.value.has_value() && !b.value.has_value(); // absent threads last
            return descending ? *a.value > *b.value : *a.value < *b.value;
        });
    }
    rows.insert(rows.end(), threads.begin(), threads.end());
    out->rowOfThread.assign(trial->threadCount(), -1);
    for (std::size_t r = pinned; r < rows.size(); ++r)
        out->rowOfThread[rows[r].thread.index()] = static_cast<int>(r);

    double lo = 0;
    double hi = 0;
    for (const Row& row : rows)
        if (row.value) {
            lo = std::min(lo, *row.value);
            hi = std::max(hi, *row.value);
        }
    const BarScale scale(lo, hi);
    std::vector<double> shown;
    for (const Row& row : rows)
        if (row.value)
            shown.push_back(*row.value);
    const int decimals = listDecimals(shown, metric, type, unit);
    auto data = std::make_shared<BarListData>();
    data->origin = scale.origin();
    data->colors = { eventColor(*trial, e).rgb() };
    data->pinnedRows = pinned;
    data->rows.reserve(rows.size());
    data->segments.reserve(rows.size());
    for (const Row& row : rows) {
        if (cancel->load(std::memory_order_relaxed))
            return nullptr;
        BarRow bar;
        bar.kind = row.statistic ? BarRowKind::Summary : BarRowKind::Item;
        bar.label = row.statistic ? statisticName(*row.statistic) : trial->threadKey(row.thread).toString();
        bar.id = row.statistic ? static_cast<std::uint32_t>(*row.statistic) : row.thread.index();
        if (row.value) {
            scale.addSegment(*data, bar, *row.value, 0);
            bar.text = valueText(*row.value, metric, type, unit, loc, decimals);
        } else {
            bar.firstSegment = static_cast<std::uint32_t>(data->segments.size());
            bar.end = scale.origin();
            bar.text = absentText();
        }
        data->rows.push_back(std::move(bar));
    }
    out->data = std::move(data);
    out->imbalance = imbalanceSummary(*trial, *stats, e, m, type, loc);
    out->title = tr("%1 — %2, %3").arg(trial->event(e).name, metric.name, valueTitle(metric, type, unit))
        + QStringLiteral("\n") + out->imbalance;
    return out;
}

void EventBarChart::apply(const std::shared_ptr<const Computed>& computed)
{
    if (!computed)
        return;
    m_rows = computed->rows;
    m_rowOfThread = computed->rowOfThread;
    m_imbalance = computed->imbalance;
    m_bars->setTitle(computed->title);
    m_bars->setData(computed->data);
    applySelection(false);
}

QString EventBarChart::imbalanceSummary(
    const Trial& trial, const TrialStatistics& stats, EventId e, MetricId m, ValueType type, const QLocale& locale)
{
    // The imbalance of the values the bars show (percentages: of the values they are taken of).
    ValueKind kind = ValueKind::Exclusive;
    QString of = tr("exclusive");
    switch (type) {
    case ValueType::Inclusive:
    case ValueType::InclusivePercent:
        kind = ValueKind::Inclusive;
        of = tr("inclusive");
        break;
    case ValueType::Calls:
        kind = ValueKind::Calls;
        of = tr("calls");
        break;
    case ValueType::Subroutines:
        kind = ValueKind::Subroutines;
        of = tr("subroutine calls");
        break;
    case ValueType::ExclusivePerCall:
        kind = ValueKind::ExclusivePerCall;
        of = tr("exclusive per call");
        break;
    case ValueType::InclusivePerCall:
        kind = ValueKind::InclusivePerCall;
        of = tr("inclusive per call");
        break;
    default:
        break;
    }
    const Stat& s = stats.stat(e, m, kind);
    if (s.present == 0)
        return tr("Imbalance: the event never ran");
    return tr("Imbalance of %1: max/mean %2 · (max − mean)/max %3 % · CV %4 · max on thread %5")
        .arg(of, locale.toString(s.maxOverMean, 'f', 2), locale.toString(100.0 * s.imbalance, 'f', 1),
            locale.toString(s.cv, 'f', 2), trial.threadKey(s.maxThread).toString());
}

void EventBarChart::applySelection(bool scroll) { selectRow(rowOfThread(m_state->thread()), scroll); }

ThreadIndex EventBarChart::threadAt(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)].thread : ThreadIndex();
}

std::optional<Statistic> EventBarChart::statisticAt(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)].statistic : std::nullopt;
}

std::optional<double> EventBarChart::valueAt(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)].value : std::nullopt;
}

int EventBarChart::rowOfThread(ThreadIndex thread) const
{
    if (!thread.isValid() || thread.index() >= m_rowOfThread.size())
        return -1;
    return m_rowOfThread[thread.index()];
}

std::optional<double> EventBarChart::threadValue(ThreadIndex thread) const { return valueAt(rowOfThread(thread)); }

std::optional<double> EventBarChart::statisticValue(Statistic statistic) const
{
    for (const Row& row : m_rows)
        if (row.statistic == statistic)
            return row.value;
    return std::nullopt;
}

QString EventBarChart::toolTip(int row, int) const
{
    const auto& trial = m_state->trial();
    if (isUpdatePending() || !trial || row < 0 || row >= rowCount() || !m_shown.isValid())
        return {};
    const Row& r = m_rows[static_cast<std::size_t>(row)];
    const QString where = r.statistic ? statisticName(*r.statistic)
                                      : tr("Thread %1 (n,c,t)").arg(trial->threadKey(r.thread).toString());
    QString text = trial->event(m_shown).name + QLatin1Char('\n') + where + QLatin1Char('\n')
        + valueTypeName(m_state->valueType()) + QStringLiteral(": ") + textAt(row);
    if (!r.value && !r.statistic)
        text += QLatin1Char('\n') + tr("The event did not run on this thread.");
    return text;
}

void EventBarChart::activate(int row)
{
    if (isUpdatePending()) // rows of a previous trial or selection
        return;
    const ThreadIndex thread = threadAt(row);
    if (!thread.isValid())
        return;
    m_state->selectThread(thread);
    Q_EMIT threadActivated(thread);
}

} // namespace parallax
