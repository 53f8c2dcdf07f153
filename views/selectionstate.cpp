// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/selectionstate.h"

#include <algorithm>

namespace parallax {

SelectionState::SelectionState(QObject* parent)
    : QObject(parent)
{
}

void SelectionState::setTrial(std::shared_ptr<const Trial> trial)
{
    m_trial = std::move(trial);
    m_metric = m_trial && m_trial->metricCount() > 0 ? MetricId(0u) : MetricId();
    m_event = EventId();
    m_thread = ThreadIndex();
    m_hiddenGroups.clear();
    m_onlyGroup = GroupId();
    m_nameFilter.clear();
    m_nameIsRegex = false;
    m_history = { Entry {} };
    m_position = 0;
    Q_EMIT trialChanged();
    Q_EMIT metricChanged(m_metric);
    Q_EMIT filtersChanged();
    Q_EMIT historyChanged();
    Q_EMIT changed(SelectionChange::Trial | SelectionChange::Metric | SelectionChange::Event | SelectionChange::Thread
        | SelectionChange::Filters | SelectionChange::History);
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

void SelectionState::selectEvent(EventId event)
{
    assign(m_event, event, &SelectionState::eventSelected, SelectionChange::Event | SelectionChange::History);
}

void SelectionState::selectThread(ThreadIndex thread)
{
    assign(m_thread, thread, &SelectionState::threadSelected, SelectionChange::Thread | SelectionChange::History);
}

void SelectionState::record()
{
    // A new selection drops the forward part of the history, like a browser.
    if (m_history.empty())
        m_history.push_back({});
    m_history.resize(m_position + 1);
    m_history.push_back({ m_event, m_thread });
    m_position = m_history.size() - 1;
    Q_EMIT historyChanged();
}

void SelectionState::apply(const Entry& entry)
{
    const bool eventChanged = entry.event != m_event;
    const bool threadChanged = entry.thread != m_thread;
    m_event = entry.event;
    m_thread = entry.thread;
    if (eventChanged)
        Q_EMIT eventSelected(m_event);
    if (threadChanged)
        Q_EMIT threadSelected(m_thread);
    Q_EMIT historyChanged();
    SelectionChanges changes = SelectionChange::History;
    if (eventChanged)
        changes |= SelectionChange::Event;
    if (threadChanged)
        changes |= SelectionChange::Thread;
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
