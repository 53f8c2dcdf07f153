// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/overview/threadbarchart.h"

#include "algebra/statistics.h"
#include "views/charts/colors.h"
#include "views/common/threadfinder.h"
#include "views/overview/barlistwidget.h"
#include "views/overview/overviewbuilder.h"
#include "views/overview/selectorbar.h"
#include "views/overview/valuetext.h"
#include "views/selectionstate.h"

#include <QCheckBox>
#include <QComboBox>
#include <algorithm>

namespace parallax {

namespace {

constexpr int ThreadSource = -1;

} // namespace

ThreadBarChart::ThreadBarChart(SelectionState* state, QWidget* parent)
    : BarChartView(state, SelectionChange::Filters | SelectionChange::Thread, QStringLiteral("thread.png"), parent)
{
    m_sourceBox = new QComboBox(this);
    m_sourceBox->addItem(tr("Selected thread"), ThreadSource);
    for (Statistic s : inStatisticOrder({ Statistic::MeanAll, Statistic::MeanPresent, Statistic::Min, Statistic::Max,
             Statistic::StdDevAll, Statistic::Total }))
        m_sourceBox->addItem(statisticName(s), static_cast<int>(s));
    m_selectors->addWidget(m_sourceBox, tr("&Show:"));
    m_sortBox = new QComboBox(this);
    m_sortBox->addItem(tr("Largest first"), static_cast<int>(Sort::ValueDescending));
    m_sortBox->addItem(tr("Smallest first"), static_cast<int>(Sort::ValueAscending));
    m_sortBox->addItem(tr("Name"), static_cast<int>(Sort::Name));
    m_selectors->addWidget(m_sortBox, tr("S&ort:"));
    m_callPathBox = new QCheckBox(tr("&Call paths"), this);
    m_callPathBox->setToolTip(tr("Also show call-path events (a => b); their time is already in their flat events"));
    m_selectors->addWidget(m_callPathBox);
    m_threadFinder = new ThreadFinder(this);
    m_threadFinder->setTrial(m_state->trial());
    m_selectors->addWidget(m_threadFinder);
    connect(m_threadFinder, &ThreadFinder::threadChosen, this, [this](ThreadIndex t) {
        if (m_pinned.isValid()) {
            setPinnedThread(t);
            return;
        }
        setStatistic(std::nullopt);
        m_state->selectThread(t);
    });
    addExportButton();
    m_bars->setMaxLabelFraction(0.45);

    connect(m_sourceBox, &QComboBox::activated, this, [this](int index) {
        const int data = m_sourceBox->itemData(index).toInt();
        setStatistic(data == ThreadSource ? std::nullopt : std::optional<Statistic>(static_cast<Statistic>(data)));
    });
    connect(m_sortBox, &QComboBox::activated, this,
        [this](int index) { setSort(static_cast<Sort>(m_sortBox->itemData(index).toInt())); });
    connect(m_callPathBox, &QCheckBox::toggled, this, &ThreadBarChart::setShowCallPaths);

    syncSourceBox();
    scheduleUpdate();
}

void ThreadBarChart::selectionChanged(SelectionChanges changes)
{
    if (changes & SelectionChange::Trial) {
        m_pinned = ThreadIndex();
        m_threadFinder->setTrial(m_state->trial());
    } else if (changes & SelectionChange::Event) {
        applySelection(true);
    }
    if (changes & SelectionChange::Thread)
        syncSourceBox();
    if (m_pinned.isValid() || m_statistic)
        changes &= ~SelectionChanges(SelectionChange::Thread);
    BarChartView::selectionChanged(changes);
}

ThreadBarChart::~ThreadBarChart() = default;

void ThreadBarChart::setStatistic(std::optional<Statistic> statistic)
{
    m_statistic = statistic;
    syncSourceBox();
    scheduleUpdate();
}

void ThreadBarChart::setPinnedThread(ThreadIndex thread)
{
    m_pinned = thread;
    syncSourceBox();
    scheduleUpdate();
}

ThreadIndex ThreadBarChart::thread() const
{
    if (m_statistic)
        return {};
    return m_pinned.isValid() ? m_pinned : m_state->thread();
}

void ThreadBarChart::setSort(Sort sort)
{
    m_sortBox->setCurrentIndex(m_sortBox->findData(static_cast<int>(sort)));
    if (sort == m_sort)
        return;
    m_sort = sort;
    scheduleUpdate();
}

void ThreadBarChart::setShowCallPaths(bool show)
{
    {
        const QSignalBlocker block(m_callPathBox);
        m_callPathBox->setChecked(show);
    }
    if (show == m_showCallPaths)
        return;
    m_showCallPaths = show;
    scheduleUpdate();
}

void ThreadBarChart::syncSourceBox()
{
    const QSignalBlocker block(m_sourceBox);
    m_sourceBox->setCurrentIndex(m_sourceBox->findData(m_statistic ? static_cast<int>(*m_statistic) : ThreadSource));
    const auto& trial = m_state->trial();
    const ThreadIndex t = m_pinned.isValid() ? m_pinned : m_state->thread();
    const bool known = trial && t.isValid() && t.index() < trial->threadCount();
    m_sourceBox->setItemText(0,
        known ? (m_pinned.isValid() ? tr("Thread %1") : tr("Selected: %1")).arg(trial->threadKey(t).toString())
              : tr("Selected thread"));
}

void ThreadBarChart::doUpdate(SelectionChanges)
{
    m_rows.clear();
    m_where.clear();
    const auto& trial = m_state->trial();
    const MetricId m = m_state->metric();
    const ThreadIndex t = thread();
    const bool threadOk = trial && t.isValid() && t.index() < trial->threadCount();
    if (!trial || !m.isValid() || (!m_statistic && !threadOk)) {
        showPlaceholder(trial ? tr("Select a thread: click a thread's label in the overview, or choose a "
                                   "statistic under Show")
                              : tr("No trial"));
        return;
    }
    const auto stats = TrialStatistics::of(*trial);
    const ValueType type = m_state->valueType();
    const TimeUnit unit = m_state->timeUnit();
    const Metric& metric = trial->metric(m);
    const QLocale loc = locale();
    const auto wanted = [&](EventId e) {
        return m_state->isEventVisible(e) && (m_showCallPaths || OverviewBuilder::isStackable(*trial, e));
    };

    if (m_statistic) {
        const QString threads = trial->threadCount() == 1
            ? tr("1 thread")
            : tr("%1 threads").arg(loc.toString(static_cast<qulonglong>(trial->threadCount())));
        m_where = tr("%1 over %2").arg(statisticName(*m_statistic), threads);
        for (std::size_t i = 0; i < trial->eventCount(); ++i) {
            const EventId e(i);
            if (!wanted(e) || stats->stat(e, m, ValueKind::Exclusive).present == 0)
                continue;
            if (const auto v = parallax::statisticValue(*trial, *stats, e, m, type, *m_statistic))
                m_rows.push_back({ e, *v });
        }
    } else {
        m_where = tr("Thread %1 (n,c,t)").arg(trial->threadKey(t).toString());
        const RowView row = trial->row(t);
        for (std::size_t i = 0; i < row.size(); ++i)
            if (wanted(row.events[i]))
                m_rows.push_back({ row.events[i], cellValue(row, *stats, t, i, m, type) });
    }

    switch (m_sort) {
    case Sort::ValueDescending:
        std::stable_sort(m_rows.begin(), m_rows.end(), [](const Row& a, const Row& b) { return a.value > b.value; });
        break;
    case Sort::ValueAscending:
        std::stable_sort(m_rows.begin(), m_rows.end(), [](const Row& a, const Row& b) { return a.value < b.value; });
        break;
    case Sort::Name:
        std::stable_sort(m_rows.begin(), m_rows.end(), [&trial](const Row& a, const Row& b) {
            return QString::compare(trial->event(a.event).name, trial->event(b.event).name, Qt::CaseInsensitive) < 0;
        });
        break;
    }

    double lo = 0;
    double hi = 0;
    for (const Row& row : m_rows) {
        lo = std::min(lo, row.value);
        hi = std::max(hi, row.value);
    }
    const BarScale scale(lo, hi);
    std::vector<double> shown;
    shown.reserve(m_rows.size());
    for (const Row& row : m_rows)
        shown.push_back(row.value);
    const int decimals = listDecimals(shown, metric, type, unit);
    auto data = std::make_shared<BarListData>();
    data->labelAlignment = Qt::AlignLeft;
    data->origin = scale.origin();
    data->colors.assign(trial->eventCount(), 0xff808080u);
    data->rows.reserve(m_rows.size());
    data->segments.reserve(m_rows.size());
    for (const Row& row : m_rows) {
        const QString& name = trial->event(row.event).name;
        data->colors[row.event.index()] = eventColor(*trial, row.event).rgb();
        BarRow bar;
        bar.label = name;
        bar.id = row.event.index();
        scale.addSegment(*data, bar, row.value, row.event.index());
        bar.text = valueText(row.value, metric, type, unit, loc, decimals);
        data->rows.push_back(std::move(bar));
    }

    m_bars->setTitle(tr("%1 — %2, %3").arg(m_where, metric.name, valueTitle(metric, type, unit)));
    m_bars->setPlaceholderText(tr("No events to show (check the filters)"));
    m_bars->setData(std::move(data));
    applySelection(false);
}

void ThreadBarChart::applySelection(bool scroll)
{
    const EventId event = m_state->event();
    m_bars->setHighlightedKey(event.isValid() ? event.index() : BarSegment::NoKey);
    selectRow(rowOfEvent(event), scroll);
}

EventId ThreadBarChart::eventAt(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)].event : EventId();
}

std::optional<double> ThreadBarChart::valueAt(int row) const
{
    if (row < 0 || row >= rowCount())
        return std::nullopt;
    return m_rows[static_cast<std::size_t>(row)].value;
}

int ThreadBarChart::rowOfEvent(EventId event) const
{
    if (!event.isValid())
        return -1;
    for (std::size_t r = 0; r < m_rows.size(); ++r)
        if (m_rows[r].event == event)
            return static_cast<int>(r);
    return -1;
}

QString ThreadBarChart::toolTip(int row, int) const
{
    const auto& trial = m_state->trial();
    if (isUpdatePending() || !trial || row < 0 || row >= rowCount())
        return {};
    const Row& r = m_rows[static_cast<std::size_t>(row)];
    return trial->event(r.event).name + QLatin1Char('\n') + m_where + QLatin1Char('\n')
        + valueTypeName(m_state->valueType()) + QStringLiteral(": ") + textAt(row);
}

EventId ThreadBarChart::menuEventAt(int row, int) const { return eventAt(row); }

void ThreadBarChart::activate(int row)
{
    if (isUpdatePending()) // rows of a previous trial or selection
        return;
    const EventId event = eventAt(row);
    if (!event.isValid())
        return;
    m_state->selectEvent(event);
    Q_EMIT eventActivated(event);
}

} // namespace parallax
