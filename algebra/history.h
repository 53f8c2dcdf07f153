// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/changepoint.h"
#include "algebra/values.h"
#include "datasource/model/trial.h"

#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

namespace parallax {

// The performance history of a set of runs (issue 17 §1, docs/SEMANTICS.md §9): the runs in the
// order of a key (a metadata value, an upload time), and per event the series of one statistic
// across them with the min–max band across threads, its change points, and the movers.

/// One run and the value it is ordered by.
struct HistoryInput {
    std::shared_ptr<const Trial> trial;
    QString label; ///< how the run is named (path, db:ID, trial name)
    QString order; ///< the order key's value; empty: the run has none (an error)
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

struct HistorySeries {
    QString event;
    std::vector<double> values; ///< per run (in order): the statistic; NaN where the event is absent
    std::vector<double> minimum; ///< per run: the minimum over the threads where it ran
    std::vector<double> maximum; ///< per run: the maximum
    ChangePointResult changes;
    /// 100·(last − first)/first over the runs where the event is present; NaN if undefined.
    double overallPercent = 0;
    /// The largest change between consecutive runs (100·(v[i] − v[i−1])/v[i−1]) and where (i).
    double largestStepPercent = 0;
    int largestStepAt = -1;
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

} // namespace parallax
