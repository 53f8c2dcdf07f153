// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "views/overview/barchartview.h"

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;

namespace parallax {

class ThreadFinder;

/// ParaProf's thread bar chart (the Thread window): every visible event of one thread, or of a
/// statistic pseudo-thread (mean, std. dev., min, max, total), sorted by the SelectionState's value
/// type (largest first by default), one bar per event in its colour with the value at the bar's
/// end. Clicking an event selects it (eventActivated); the selected event is outlined.
class ThreadBarChart : public BarChartView {
    Q_OBJECT
public:
    enum class Sort { ValueDescending, ValueAscending, Name };

    explicit ThreadBarChart(SelectionState* state, QWidget* parent = nullptr);
    ~ThreadBarChart() override;

    /// Shows a statistic pseudo-thread; nullopt shows a thread (the default).
    void setStatistic(std::optional<Statistic> statistic);
    std::optional<Statistic> statistic() const { return m_statistic; }
    /// Shows this thread whatever the selection; an invalid index follows SelectionState::thread().
    /// A new trial clears the pin.
    void setPinnedThread(ThreadIndex thread);
    /// The thread shown (pinned or selected; invalid when a statistic is shown or none is selected).
    ThreadIndex thread() const;
    void setSort(Sort sort);
    Sort sort() const { return m_sort; }
    /// Whether call-path events ("a => b") get bars; off by default, since their time is already in
    /// their flat events.
    void setShowCallPaths(bool show);
    bool showCallPaths() const { return m_showCallPaths; }

    // What is shown, row by row (after updateNow()).
    int rowCount() const { return static_cast<int>(m_rows.size()); }
    EventId eventAt(int row) const;
    EventId menuEventAt(int row, int segment) const override;
    /// The raw value of a row (µs for time).
    std::optional<double> valueAt(int row) const;
    int rowOfEvent(EventId event) const;

Q_SIGNALS:
    /// An event's bar or name was clicked (or Enter pressed on it); it is now selected.
    void eventActivated(parallax::EventId event);

private:
    struct Row {
        EventId event;
        double value = 0;
    };
    void selectionChanged(SelectionChanges changes) override;
    void doUpdate(SelectionChanges changes) override;
    void applySelection(bool scroll);
    void syncSourceBox();
    QString toolTip(int row, int segment) const override;
    void activate(int row) override;

    QComboBox* m_sourceBox = nullptr;
    ThreadFinder* m_threadFinder = nullptr;
    QComboBox* m_sortBox = nullptr;
    QCheckBox* m_callPathBox = nullptr;
    std::optional<Statistic> m_statistic;
    ThreadIndex m_pinned;
    Sort m_sort = Sort::ValueDescending;
    bool m_showCallPaths = false;
    std::vector<Row> m_rows;
    QString m_where;
};

} // namespace parallax
