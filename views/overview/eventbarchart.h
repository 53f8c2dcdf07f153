// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "views/common/job.h"
#include "views/overview/barchartview.h"

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLocale;

namespace parallax {

class TrialStatistics;

/// ParaProf's function bar chart (the Event window): one event across all threads, one bar per
/// thread under pinned Mean, Max, Min and Std. Dev. rows, in the event's colour, with the value
/// printed at the bar's end ("—" where the event did not run: absent is not 0). Metric, value type
/// and time unit come from the SelectionState (a small selector bar changes them); threads sort by
/// id or by value. Clicking a thread selects it (threadActivated).
class EventBarChart : public BarChartView {
    Q_OBJECT
public:
    enum class Sort { ThreadId, ValueAscending, ValueDescending };

    explicit EventBarChart(SelectionState* state, QWidget* parent = nullptr);
    ~EventBarChart() override;

    /// Shows this event whatever the selection; an invalid id follows SelectionState::event()
    /// (the default). A new trial clears the pin.
    void setPinnedEvent(EventId event);
    /// The event shown (pinned or selected).
    EventId event() const;
    void setSort(Sort sort);
    Sort sort() const { return m_sort; }

    /// Whether the rows of a big trial are being computed in the background.
    bool isComputing() const { return m_job.isRunning(); }

    // What is shown, row by row (after updateNow()); rows 0..3 are the statistics.
    int rowCount() const { return static_cast<int>(m_rows.size()); }
    /// The thread of a row (invalid for a statistic row).
    ThreadIndex threadAt(int row) const;
    std::optional<Statistic> statisticAt(int row) const;
    /// The raw value of a row (µs for time), nullopt where absent or undefined.
    std::optional<double> valueAt(int row) const;
    /// The value of a thread, nullopt where the event did not run.
    std::optional<double> threadValue(ThreadIndex thread) const;
    std::optional<double> statisticValue(Statistic statistic) const;
    int rowOfThread(ThreadIndex thread) const;
    /// The line under the title with the event's load imbalance (max/mean, (max − mean)/max, CV and
    /// the thread of the max, docs/SEMANTICS.md 2.1) of the values shown.
    QString imbalanceText() const { return m_imbalance; }
    static QString imbalanceSummary(
        const Trial& trial, const TrialStatistics& stats, EventId e, MetricId m, ValueType type, const QLocale& locale);

Q_SIGNALS:
    /// A thread's label or bar was clicked (or Enter pressed on it); it is now selected.
    void threadActivated(parallax::ThreadIndex thread);

private:
    struct Row {
        ThreadIndex thread;
        std::optional<Statistic> statistic;
        std::optional<double> value;
    };
    void selectionChanged(SelectionChanges changes) override;
    /// What a doUpdate() computes: O(threads), so on a worker for trials over AsyncCells cells.
    struct Computed {
        std::vector<Row> rows;
        std::vector<int> rowOfThread;
        std::shared_ptr<const BarListData> data;
        QString imbalance;
        QString title;
    };
    static constexpr std::size_t AsyncCells = 100000;
    void doUpdate(SelectionChanges changes) override;
    void finishUpdate() override;
    static std::shared_ptr<const Computed> compute(const std::shared_ptr<const Trial>& trial, EventId e, MetricId m,
        ValueType type, TimeUnit unit, const QLocale& loc, Sort sort, const std::atomic_bool* cancel);
    void apply(const std::shared_ptr<const Computed>& computed);
    void applySelection(bool scroll);
    QString toolTip(int row, int segment) const override;
    void activate(int row) override;

    QComboBox* m_sortBox = nullptr;
    EventId m_pinned;
    EventId m_shown;
    Sort m_sort = Sort::ThreadId;
    std::vector<Row> m_rows;
    std::vector<int> m_rowOfThread;
    QString m_imbalance;
    Job<std::shared_ptr<const Computed>> m_job { this };
};

} // namespace parallax
