// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/units.h"
#include "algebra/values.h"
#include "datasource/model/trial.h"
#include "views/overview/barlistdata.h"

#include <QLocale>
#include <atomic>
#include <memory>
#include <vector>

namespace parallax {

/// How the overview draws a thread's events.
enum class OverviewMode {
    Stacked, ///< one bar per thread, events end to end, all bars on one scale
    Unstacked, ///< each event in its own column (width by its largest value), as ParaProf's unstacked bars
    Normalised, ///< stacked, each bar stretched to 100 %
};

/// Order of the thread rows (the statistic rows always come first).
enum class OverviewSort {
    ThreadId, ///< n,c,t order
    SelectedEvent, ///< by the value of the selected event (threads without it last)
    BarTotal, ///< by the sum of the bar
    /// By the most imbalanced event (largest max − mean of the shown value, docs/SEMANTICS.md 2.1):
    /// its segments come first in every bar and the threads are ordered by its value.
    Imbalance,
};

/// Everything the overview layout depends on, copied so it can be computed on another thread.
struct OverviewRequest {
    std::shared_ptr<const Trial> trial;
    MetricId metric;
    ValueType valueType = ValueType::Exclusive;
    TimeUnit timeUnit = TimeUnit::Milliseconds;
    OverviewMode mode = OverviewMode::Stacked;
    OverviewSort sort = OverviewSort::ThreadId;
    bool descending = false;
    /// The event of OverviewSort::SelectedEvent.
    EventId sortEvent;
    /// Per event: whether it gets segments (filters passed, and not a call path whose flat event
    /// exists, since that would count its time twice). Empty means: every stackable event.
    std::vector<char> visible;
    bool showTotal = true;
    /// Print each bar's sum after its end (stacked and normalised modes).
    bool showValues = true;
    /// Whether the thread rows get their segments. A stacked overview shown as thread density rows
    /// (OverviewDensity, drawn from the trial's values) does not need them: the rows then keep their
    /// label, total, text and end, and the Min/Max thread rows their segments (131,072 threads ×
    /// 101 events: 13 M segments, 160 MB, less). Only Stacked mode honours false.
    bool threadSegments = true;
    QLocale locale;
};

/// The computed overview: the bars and what a view needs to map rows and segments back.
struct OverviewLayout {
    /// The trial the layout was computed from (its ids are only valid for it).
    std::shared_ptr<const Trial> trial;
    std::shared_ptr<const BarListData> bars;
    OverviewMode mode = OverviewMode::Stacked;
    /// The value type the segments show (stacked modes use stackableValueType()).
    ValueType valueType = ValueType::Exclusive;
    MetricId metric;
    /// Events in segment order (largest mean first); the same order in every bar.
    std::vector<EventId> order;
    /// The statistics of the first rows, in row order.
    std::vector<Statistic> statistics;
    /// Row of each thread (indexed by ThreadIndex).
    std::vector<int> rowOfThread;
    /// Sum of the values shown in each row.
    std::vector<double> rowTotals;
    /// Per statistic row: the thread whose bar it shows (the "Min thread" and "Max thread" rows
    /// are real threads, the shortest and longest bar), invalid for the others.
    std::vector<ThreadIndex> statisticThreads;
    /// OverviewSort::Imbalance: the event the threads are ordered by (invalid otherwise).
    EventId imbalanceEvent;
    /// Whether the thread rows have their segments (OverviewRequest::threadSegments).
    bool threadSegments = true;
    /// Stacked mode: a value v (in valueType units) is at bar coordinate (v − valueLow) / valueSpan.
    double valueLow = 0;
    double valueSpan = 1;
};

/// Computes the overview's bars from a trial: pure, thread-safe, no widgets, so big trials are laid
/// out in a QtConcurrent job while the GUI keeps painting the previous layout.
class OverviewBuilder {
public:
    /// The layout, or nullptr when cancel was set while computing.
    static std::shared_ptr<const OverviewLayout> build(
        const OverviewRequest& request, const std::atomic_bool* cancel = nullptr);
    /// Whether an event can take part in a stacked bar: flat events, and call paths whose flat
    /// event is missing from the trial.
    static bool isStackable(const Trial& trial, EventId event);
    /// The statistic rows, top to bottom.
    static std::vector<Statistic> statisticRows(bool withTotal);
    /// The label of a statistic row: Min and Max rows show the shortest and the longest thread
    /// bar ("Min thread", "Max thread"): a stacked bar of per-event minima is no thread's.
    static QString rowLabel(Statistic statistic);
    /// Whether the row of a statistic shows a real thread's bar.
    static bool isThreadRow(Statistic statistic) { return statistic == Statistic::Min || statistic == Statistic::Max; }
};

} // namespace parallax
