// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/statistics.h"

#include <QString>
#include <initializer_list>
#include <optional>
#include <vector>

namespace parallax {

/// What number of an (event, thread) cell a view shows.
enum class ValueType {
    Exclusive,
    Inclusive,
    ExclusivePercent,
    InclusivePercent,
    Calls,
    Subroutines,
    ExclusivePerCall,
    InclusivePerCall,
};
inline constexpr int ValueTypeCount = 8;

/// A statistic across threads, shown as a pseudo-thread row (mean, total, ...).
enum class Statistic { MeanAll, MeanPresent, Total, Min, Max, StdDevAll, StdDevPresent };
inline constexpr int StatisticCount = 7;
/// The one order in which every view lists statistic rows (the overview, the event and thread
/// windows, the Statistics tab's Show menu): the means, the extremes, the spread, the total.
std::vector<Statistic> inStatisticOrder(std::initializer_list<Statistic> wanted);

QString valueTypeName(ValueType type);
QString statisticName(Statistic statistic);
/// Excl, incl and the per-call values are in the metric's unit; percentages, calls and subrs are not.
bool isMetricValued(ValueType type);
bool isPercent(ValueType type);

/// The value of the present cell at position i of thread t's row.
double cellValue(
    const Trial& trial, const TrialStatistics& stats, ThreadIndex t, std::size_t i, MetricId m, ValueType type);
/// The same for a row at hand (`row` is thread t's, Trial::row(t)): loops over a row's cells call this
/// one, which does not look the row up again for every cell.
double cellValue(
    const RowView& row, const TrialStatistics& stats, ThreadIndex t, std::size_t i, MetricId m, ValueType type);
/// The value of an event on a thread; nullopt when the event did not run there (absent is not 0).
std::optional<double> threadValue(
    const Trial& trial, const TrialStatistics& stats, ThreadIndex t, EventId e, MetricId m, ValueType type);
/// A statistic row's value (docs/SEMANTICS.md 2): on total and mean rows percent is 100*total/D and per
/// call is sum(excl)/sum(calls); on min/max/sd rows per call is that statistic of the per-thread
/// per-call values and percent is not shown (nullopt). nullopt also when nothing is defined.
std::optional<double> statisticValue(
    const Trial& trial, const TrialStatistics& stats, EventId e, MetricId m, ValueType type, Statistic statistic);

} // namespace parallax
