// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/values.h"
#include "datasource/model/trial.h"

#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

namespace parallax {

// Across runs (issue 17 §3, docs/SEMANTICS.md §11.7): how an event's value follows a parameter of
// the runs — a metadata key such as a problem size or a power cap, or the thread count — as Pearson's
// and Spearman's correlation over the runs where the event ran.

struct ParameterRun {
    std::shared_ptr<const Trial> trial;
    QString label; ///< how the run is named (path, db:ID)
    double parameter = 0; ///< the parameter's value in this run
};

struct ParameterCorrelationOptions {
    QString metric; ///< by name; empty: the first run's first metric
    ValueType value = ValueType::Exclusive;
    Statistic statistic = Statistic::MeanAll;
    QStringList events; ///< these events; empty: every flat event (and call paths when callPaths)
    bool callPaths = false;
};

struct EventParameterCorrelation {
    QString event;
    std::vector<double> values; ///< per run (in the given order): the statistic; NaN where absent
    int runs = 0; ///< the runs where the event ran (the pairs correlated)
    double pearson = 0; ///< NaN when fewer than 3 runs or a constant series
    double spearman = 0; ///< Pearson of the average ranks; NaN likewise
};

struct ParameterCorrelation {
    std::vector<ParameterRun> runs;
    QString metric;
    ValueType value = ValueType::Exclusive;
    Statistic statistic = Statistic::MeanAll;
    /// By |Pearson| descending (NaN last, then by name).
    std::vector<EventParameterCorrelation> events;
};

struct ParameterCorrelationResult {
    ParameterCorrelation correlation;
    QString error;
    bool ok() const { return error.isEmpty(); }
};

/// The correlation of each event's statistic with the runs' parameter. An error names what is at
/// fault: fewer than three runs, a metric or an event none of them has.
ParameterCorrelationResult correlateWithParameter(
    std::vector<ParameterRun> runs, const ParameterCorrelationOptions& options);

} // namespace parallax
