// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/units.h"
#include "algebra/values.h"
#include "datasource/model/trial.h"

#include <QFlags>
#include <QObject>
#include <QRegularExpression>
#include <QSet>
#include <memory>
#include <vector>

namespace parallax {

/// What changed in a SelectionState (a bitmask: one change signal carries all of them), as
/// KCachegrind's TraceItemView::changeType. `View` is for a view's own settings (sort, mode):
/// SelectionState never emits it, views schedule themselves with it.
enum class SelectionChange : unsigned {
    Trial = 1u << 0,
    Metric = 1u << 1,
    ValueType = 1u << 2,
    TimeUnit = 1u << 3,
    Event = 1u << 4,
    Thread = 1u << 5,
    Filters = 1u << 6,
    History = 1u << 7,
    View = 1u << 8,
    /// The selected set of threads (a cluster; selectThreads()).
    ThreadSet = 1u << 9,
    /// The growth-at-scale models shown (setGrowth()).
    Growth = 1u << 10,
};
Q_DECLARE_FLAGS(SelectionChanges, SelectionChange)

} // namespace parallax

// At global scope, as Qt's own: inside the namespace it would hide the global operator| of other
// flag enums (QCP::Interaction) from code in namespace parallax.
Q_DECLARE_OPERATORS_FOR_FLAGS(parallax::SelectionChanges)

namespace parallax {

class GrowthOverlay;

/// The one selection and navigation state every view follows (ParaProf's "event system"): the
/// current trial, metric, value type and time unit, the selected event and thread, the group and
/// name filters, and Back/Forward history of selections. Views read it and call the setters; they
/// never talk to each other directly.
class SelectionState : public QObject {
    Q_OBJECT
public:
    explicit SelectionState(QObject* parent = nullptr);

    const std::shared_ptr<const Trial>& trial() const { return m_trial; }
    MetricId metric() const { return m_metric; }
    ValueType valueType() const { return m_valueType; }
    TimeUnit timeUnit() const { return m_timeUnit; }
    EventId event() const { return m_event; }
    ThreadIndex thread() const { return m_thread; }
    /// The selected set of threads (a cluster of the Clusters view), by thread index ascending;
    /// empty when none. Independent of thread(): a click on one thread keeps the set.
    const std::vector<ThreadIndex>& selectedThreads() const { return m_threads; }
    /// Whether a thread is in the selected set.
    bool isThreadSelected(ThreadIndex thread) const;

    /// Replaces the trial: resets metric (first), event, thread, filters and history. With
    /// `continuesPrevious` (a live update of the same run) the name filter and the group filters
    /// (by group name) stay, and trialContinuesPrevious() tells the views to keep their scroll
    /// positions and zoom.
    void setTrial(std::shared_ptr<const Trial> trial, bool continuesPrevious = false);
    /// Whether the current trial is a newer state of the one before it (setTrial's flag), so a
    /// view that catches up with the trial change later still knows.
    bool trialContinuesPrevious() const { return m_continues; }
    void setMetric(MetricId metric);
    void setValueType(ValueType type);
    void setTimeUnit(TimeUnit unit);
    /// Selects an event (invalid clears); recorded in the history.
    void selectEvent(EventId event);
    /// Selects a thread (invalid clears); recorded in the history.
    void selectThread(ThreadIndex thread);
    /// Selects a set of threads (sorted, duplicates and out-of-range indices dropped; empty
    /// clears); recorded in the history. Emits threadsSelected and SelectionChange::ThreadSet.
    void selectThreads(std::vector<ThreadIndex> threads);
    void clearSelectedThreads() { selectThreads({}); }

    /// Filters: hidden groups, an "only this group" group, and a name pattern (plain text match,
    /// case-insensitive, or a regular expression).
    void hideGroup(GroupId group, bool hide = true);
    void showOnlyGroup(GroupId group); ///< invalid group clears
    void setNameFilter(const QString& text, bool regex = false);
    void clearFilters();
    const QSet<std::uint32_t>& hiddenGroups() const { return m_hiddenGroups; }
    GroupId onlyGroup() const { return m_onlyGroup; }
    QString nameFilter() const { return m_nameFilter; }
    /// Whether an event passes the group and name filters (every view uses this).
    bool isEventVisible(EventId event) const;

    /// The per-call-path models of a scaling study shown as "growth at scale P" by the call tree, the
    /// flame graph and the CUBE browser (views/comparison/growthoverlay.h); null when none. A new trial
    /// keeps them: they match call paths by name, so every run of the study shows them.
    const std::shared_ptr<const GrowthOverlay>& growth() const { return m_growth; }
    /// Attaches (null: clears) the growth models; emits growthChanged and SelectionChange::Growth.
    void setGrowth(std::shared_ptr<const GrowthOverlay> growth);

    bool canGoBack() const { return m_position > 0; }
    bool canGoForward() const { return m_position + 1 < m_history.size(); }
    void back();
    void forward();

Q_SIGNALS:
    /// Everything a setter changed, emitted once per call after the individual signals below.
    /// Views follow this one (views/common/selectionview.h); the individual signals remain for
    /// the main window's menus and actions.
    void changed(parallax::SelectionChanges changes);
    void trialChanged();
    void metricChanged(parallax::MetricId metric);
    void valueTypeChanged(parallax::ValueType type);
    void timeUnitChanged(parallax::TimeUnit unit);
    void eventSelected(parallax::EventId event);
    void threadSelected(parallax::ThreadIndex thread);
    void threadsSelected();
    void filtersChanged();
    void historyChanged();
    void growthChanged();

private:
    struct Entry {
        EventId event;
        ThreadIndex thread;
        std::shared_ptr<const std::vector<ThreadIndex>> threads; ///< the selected set (null: none)
    };
    /// Sets `field` to `value` and announces it: `notify(value)`, then changed(change); a change
    /// with SelectionChange::History is recorded in the history first. Nothing when equal.
    template <typename T> void assign(T& field, T value, void (SelectionState::*notify)(T), SelectionChanges change);
    void record();
    void setThreadSet(std::vector<ThreadIndex> threads);
    void apply(const Entry& entry);

    std::shared_ptr<const Trial> m_trial;
    MetricId m_metric;
    ValueType m_valueType = ValueType::Exclusive;
    TimeUnit m_timeUnit = TimeUnit::Milliseconds;
    EventId m_event;
    ThreadIndex m_thread;
    std::vector<ThreadIndex> m_threads;
    std::vector<bool> m_threadMask; ///< by thread index: in m_threads
    QSet<std::uint32_t> m_hiddenGroups;
    GroupId m_onlyGroup;
    bool m_continues = false;
    QString m_nameFilter;
    QRegularExpression m_nameRegex;
    bool m_nameIsRegex = false;
    std::shared_ptr<const GrowthOverlay> m_growth;
    std::vector<Entry> m_history;
    std::size_t m_position = 0;
};

} // namespace parallax
