// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/selectionstate.h"

#include <algorithm>

namespace parallax {

SelectionState::SelectionState(QObject* parent)
    : QObject(parent)
{
}

void SelectionState::setTrial(std::shared_ptr<const Trial> trial, bool continuesPrevious)
{
    // A continuation keeps the filters: the groups by name in the new trial.
    QStringList hidden;
    QString only;
    if (continuesPrevious && m_trial && trial) {
        for (std::uint32_t g : std::as_const(m_hiddenGroups))
            hidden << m_trial->groupName(GroupId(g));
        if (m_onlyGroup.isValid())
            only = m_trial->groupName(m_onlyGroup);
    }
    m_continues = continuesPrevious && m_trial && trial;
    m_trial = std::move(trial);
    m_metric = m_trial && m_trial->metricCount() > 0 ? MetricId(0u) : MetricId();
    m_event = EventId();
    m_thread = ThreadIndex();
    m_threads.clear();
    m_threadMask.clear();
    m_hiddenGroups.clear();
    m_onlyGroup = GroupId();
    if (!m_continues) {
        m_nameFilter.clear();
        m_nameIsRegex = false;
    }
    for (const QString& name : std::as_const(hidden))
        if (const GroupId g = m_trial->findGroup(name); g.isValid())
            m_hiddenGroups.insert(g.index());
    if (!only.isEmpty())
        m_onlyGroup = m_trial->findGroup(only);
    m_history = { Entry {} };
    m_position = 0;
    Q_EMIT trialChanged();
    Q_EMIT metricChanged(m_metric);
    Q_EMIT filtersChanged();
    Q_EMIT historyChanged();
    Q_EMIT changed(SelectionChange::Trial | SelectionChange::Metric | SelectionChange::Event | SelectionChange::Thread
        | SelectionChange::ThreadSet | SelectionChange::Filters | SelectionChange::History);
}

template <typename T>
void SelectionState::assign(T& field, T value, void (SelectionState::*notify)(T), SelectionChanges change)
{
    if (value == field)
        return;
    field = value;
    if (change & SelectionChange::History)
        record();
    Q_EMIT(this->*notify)(value);
    Q_EMIT changed(change);
}

void SelectionState::setMetric(MetricId metric)
{
    if (!m_trial || !metric.isValid() || metric.index() >= m_trial->metricCount())
        return;
    assign(m_metric, metric, &SelectionState::metricChanged, SelectionChange::Metric);
}

void SelectionState::setValueType(ValueType type)
{
    assign(m_valueType, type, &SelectionState::valueTypeChanged, SelectionChange::ValueType);
}

void SelectionState::setTimeUnit(TimeUnit unit)
{
    assign(m_timeUnit, unit, &SelectionState::timeUnitChanged, SelectionChange::TimeUnit);
}

void SelectionState::setGrowth(std::shared_ptr<const GrowthOverlay> growth)
{
    if (growth == m_growth)
        return;
    m_growth = std::move(growth);
    Q_EMIT growthChanged();
    Q_EMIT changed(SelectionChange::Growth);
}

void SelectionState::selectEvent(EventId event)
{
    assign(m_event, event, &SelectionState::eventSelected, SelectionChange::Event | SelectionChange::History);
}

void SelectionState::selectThread(ThreadIndex thread)
{
    assign(m_thread, thread, &SelectionState::threadSelected, SelectionChange::Thread | SelectionChange::History);
}

bool SelectionState::isThreadSelected(ThreadIndex thread) const
{
    return thread.isValid() && thread.index() < m_threadMask.size() && m_threadMask[thread.index()];
}

void SelectionState::selectThreads(std::vector<ThreadIndex> threads)
{
    const std::size_t count = m_trial ? m_trial->threadCount() : 0;
    std::erase_if(threads, [count](ThreadIndex t) { return !t.isValid() || t.index() >= count; });
    std::sort(threads.begin(), threads.end(), [](ThreadIndex a, ThreadIndex b) { return a.index() < b.index(); });
    threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
    if (threads == m_threads)
        return;
    setThreadSet(std::move(threads));
    record();
    Q_EMIT threadsSelected();
    Q_EMIT changed(SelectionChange::ThreadSet | SelectionChange::History);
}

void SelectionState::setThreadSet(std::vector<ThreadIndex> threads)
{
    m_threads = std::move(threads);
    m_threadMask.assign(m_threads.empty() || !m_trial ? 0 : m_trial->threadCount(), false);
    for (ThreadIndex t : m_threads)
        m_threadMask[t.index()] = true;
}

void SelectionState::record()
{
    // A new selection drops the forward part of the history, like a browser.
    if (m_history.empty())
        m_history.push_back({});
    m_history.resize(m_position + 1);
    m_history.push_back({ m_event, m_thread,
        m_threads.empty() ? nullptr : std::make_shared<const std::vector<ThreadIndex>>(m_threads) });
    m_position = m_history.size() - 1;
    Q_EMIT historyChanged();
}

void SelectionState::apply(const Entry& entry)
{
    const bool eventChanged = entry.event != m_event;
    const bool threadChanged = entry.thread != m_thread;
    static const std::vector<ThreadIndex> none;
    const std::vector<ThreadIndex>& threads = entry.threads ? *entry.threads : none;
    const bool setChanged = threads != m_threads;
    m_event = entry.event;
    m_thread = entry.thread;
    if (setChanged)
        setThreadSet(threads);
    if (eventChanged)
        Q_EMIT eventSelected(m_event);
    if (threadChanged)
        Q_EMIT threadSelected(m_thread);
    if (setChanged)
        Q_EMIT threadsSelected();
    Q_EMIT historyChanged();
    SelectionChanges changes = SelectionChange::History;
    if (eventChanged)
        changes |= SelectionChange::Event;
    if (threadChanged)
        changes |= SelectionChange::Thread;
    if (setChanged)
        changes |= SelectionChange::ThreadSet;
    Q_EMIT changed(changes);
}

void SelectionState::back()
{
    if (!canGoBack())
        return;
    --m_position;
    apply(m_history[m_position]);
}

void SelectionState::forward()
{
    if (!canGoForward())
        return;
    ++m_position;
    apply(m_history[m_position]);
}

void SelectionState::hideGroup(GroupId group, bool hide)
{
    if (!group.isValid())
        return;
    if (hide)
        m_hiddenGroups.insert(group.index());
    else
        m_hiddenGroups.remove(group.index());
    Q_EMIT filtersChanged();
    Q_EMIT changed(SelectionChange::Filters);
}

void SelectionState::showOnlyGroup(GroupId group)
{
    m_onlyGroup = group;
    Q_EMIT filtersChanged();
    Q_EMIT changed(SelectionChange::Filters);
}

void SelectionState::setNameFilter(const QString& text, bool regex)
{
    m_nameFilter = text;
    m_nameIsRegex = regex;
    if (regex)
        m_nameRegex = QRegularExpression(text, QRegularExpression::CaseInsensitiveOption);
    Q_EMIT filtersChanged();
    Q_EMIT changed(SelectionChange::Filters);
}

void SelectionState::clearFilters()
{
    m_hiddenGroups.clear();
    m_onlyGroup = GroupId();
    m_nameFilter.clear();
    m_nameIsRegex = false;
    Q_EMIT filtersChanged();
    Q_EMIT changed(SelectionChange::Filters);
}

bool SelectionState::isEventVisible(EventId event) const
{
    if (!m_trial || !event.isValid())
        return false;
    const IntervalEvent& e = m_trial->event(event);
    if (m_onlyGroup.isValid() && std::find(e.groups.begin(), e.groups.end(), m_onlyGroup) == e.groups.end())
        return false;
    for (GroupId g : e.groups)
        if (m_hiddenGroups.contains(g.index()))
            return false;
    if (m_nameFilter.isEmpty())
        return true;
    if (m_nameIsRegex)
        return !m_nameRegex.isValid() || m_nameRegex.match(e.name).hasMatch();
    return e.name.contains(m_nameFilter, Qt::CaseInsensitive);
}

} // namespace parallax
