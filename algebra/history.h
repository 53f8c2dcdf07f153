// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/changepoint.h"
#include "algebra/values.h"
#include "datasource/model/trial.h"

#include <QString>
#include <QStringList>
#include <limits>
#include <memory>
#include <vector>

namespace parallax {

// The performance history of a set of runs (issue 17 §1, docs/SEMANTICS.md §9): the runs in the
// order of a key (a metadata value, an upload time), and per event the series of one statistic
// across them with the min–max band across threads, its change points, and the movers.

/// One run and the value it is ordered by.
struct HistoryInput {
    /// The run's trial; null for a run summarised from the database's stored rows
    /// (HistoryRunSummary), which is never loaded.
    std::shared_ptr<const Trial> trial;
    QString label; ///< how the run is named (path, db:ID, trial name)
    QString order; ///< the order key's value; empty: the run has none (an error)
    QString trialName; ///< the trial's name; empty: trial->name()
};

/// One event of one run as a history needs it (docs/SEMANTICS.md §9): the chosen statistic and the
/// min and max over the threads where the event ran. NaN where a value is not defined (the event
/// never ran: no min or max; a statistic that statisticValue() leaves undefined).
struct HistoryEventSummary {
    QString event;
    double value = std::numeric_limits<double>::quiet_NaN();
    double minimum = std::numeric_limits<double>::quiet_NaN();
    double maximum = std::numeric_limits<double>::quiet_NaN();
};

/// One run reduced to what a history needs of it: made from a loaded trial (summariseRun) or from
/// the database's derived rows (perfdb::Database::derivedValues, app/cli/historycommand.cpp); both
/// give the same numbers for the same trial.
struct HistoryRunSummary {
    HistoryInput run;
    bool hasMetric = false; ///< the run has the history's metric (else every value is NaN)
    bool higherIsBetter = false; ///< the metric says so (docs/SEMANTICS.md 4.6)
    std::vector<HistoryEventSummary> events; ///< every interval event of the run, each name once
};

struct HistoryOptions {
    QString metric; ///< by name; empty: the first run's first metric
    ValueType value = ValueType::Exclusive;
    Statistic statistic = Statistic::MeanAll;
    QStringList events; ///< these events; empty: the top `top`
    int top = 10; ///< the events with the largest mean of the statistic over the runs
    bool callPaths = false; ///< top N among call paths too (flat routines only by default)
    ChangePointOptions changes;
};

/// One point of a history: the runs that share one order value (repeated runs of one build), in
/// History::runs. Without repeats there is one point per run and point i is run i.
struct HistoryPoint {
    QString order; ///< the order value (the first run's spelling)
    std::vector<int> runs; ///< indices into History::runs
};

struct HistorySeries {
    QString event;
    /// Per point (History::points, in order): the statistic, the mean over the point's runs where
    /// the event is present; NaN where it is absent from all of them.
    std::vector<double> values;
    std::vector<double> minimum; ///< per point: the minimum over its runs' threads where the event ran
    std::vector<double> maximum; ///< per point: the maximum
    /// Per point the change points; `changes.noise` is the pooled standard deviation of the repeats
    /// when some point has two runs or more (changes.noiseFromRepeats), else the series' own.
    ChangePointResult changes;
    /// 100·(last − first)/first over the points where the event is present; NaN if undefined.
    double overallPercent = 0;
    /// The largest change between consecutive points (100·(v[i] − v[i−1])/v[i−1]) and where (i).
    double largestStepPercent = 0;
    int largestStepAt = -1;
    std::vector<double> runValues; ///< per run (History::runs): its own statistic; NaN where absent
};

struct History {
    std::vector<HistoryInput> runs; ///< in order
    bool numericOrder = false; ///< every order value is a number (sorted as numbers)
    QString metric;
    /// The metric says a higher value is better (a rate, docs/SEMANTICS.md 4.6): a fall is a regression.
    bool higherIsBetter = false;
    ValueType value = ValueType::Exclusive;
    Statistic statistic = Statistic::MeanAll;
    std::vector<HistorySeries> series; ///< the chosen or top events, largest first
    /// The distinct order values in order, each with its runs; as many as runs without repeats.
    std::vector<HistoryPoint> points;
    bool repeated = false; ///< some point has two runs or more
};

/// Orders the runs (as numbers when every value is one, else as text: ISO dates, commit counts
/// padded alike; ties keep the given order) and computes the series. An error names the run or the
/// event at fault: a run without an order value, a metric or an event none of the runs has.
struct HistoryResult {
    History history;
    QString error;
    bool ok() const { return error.isEmpty(); }
};
HistoryResult historyOf(std::vector<HistoryInput> runs, const HistoryOptions& options);

/// The same history from summaries of the runs (historyOf summarises its trials with summariseRun
/// and calls this). options.metric must name the metric (the summaries were made for it).
HistoryResult historyOfSummaries(std::vector<HistoryRunSummary> runs, const HistoryOptions& options);

/// What a history needs of one loaded run: per event of the trial its statistic (statisticValue)
/// and min and max of `value` of `metric` (absent from the trial: hasMetric false, values NaN).
HistoryRunSummary summariseRun(const HistoryInput& run, const QString& metric, ValueType value, Statistic statistic);

/// The order of runs by their order values (historyOf's rule: as numbers when every value is one,
/// else as text; ties keep the given order): the indices of `orders` in order. `numeric` tells which.
std::vector<std::size_t> historyOrder(const QStringList& orders, bool* numeric = nullptr);

/// The TAUdb derived thread (docs/FORMATS.md 2.1, perfdb/derivedstatistics.h) that holds exactly
/// this statistic of an event's exclusive, inclusive or calls values as historyOf computes it, or 0
/// when none does: MeanAll -6, MeanPresent -1, Total -2, Min -4, Max -5 (clamped at 0 by TAUdb:
/// exact when the minimum is not negative); the standard deviations -3/-7 use ParaProf's one-pass
/// formula, which differs from Parallax's two-pass one in the last bits, so they have none.
int derivedThreadOf(Statistic statistic, ValueType value);

} // namespace parallax
