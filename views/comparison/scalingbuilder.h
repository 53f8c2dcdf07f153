// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/statistics.h"
#include "datasource/model/trial.h"

#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

namespace parallax {

/// Which time of an event a scaling study follows.
enum class ScalingValue { Inclusive, Exclusive };
/// How a run's threads are summarised: the mean over all threads (absent = 0) or the slowest.
enum class ScalingStatistic { Mean, Max };

/// N runs of the same code at different thread counts, ordered by thread count (ties keep their
/// order), with their statistics. Immutable; built off the GUI thread.
struct ScalingSnapshot {
    std::vector<std::shared_ptr<const Trial>> trials;
    std::vector<std::shared_ptr<const TrialStatistics>> stats;
    /// Metrics every run has (by name), in the first run's order.
    QStringList metrics;
    /// Flat events of any run, by name, largest mean inclusive value (first metric) in the smallest
    /// run first.
    QStringList events;
};

/// One run in a series: P threads, the event's time T(P) and the relative efficiency
/// E(P) = T(P0)·P0 / (T(P)·P) against the smallest run P0.
struct ScalingPoint {
    std::size_t threads = 0;
    double time = 0;
    double efficiency = 0;
    /// False when the event did not run there (no time, no efficiency).
    bool present = false;
};

class ScalingBuilder {
public:
    /// Sorts the runs by thread count and computes their statistics (slow for big runs: call it
    /// on a worker thread).
    static std::shared_ptr<const ScalingSnapshot> build(std::vector<std::shared_ptr<const Trial>> trials);
    /// The series of one event (a flat event name) for a metric: one point per run. Efficiency is
    /// undefined (0, and present stays true for the time) when the smallest run lacks the event.
    static std::vector<ScalingPoint> series(const ScalingSnapshot& snapshot, const QString& event,
        const QString& metric, ScalingValue value = ScalingValue::Inclusive,
        ScalingStatistic statistic = ScalingStatistic::Mean);
    /// The first `count` events of snapshot.events (largest in the smallest run).
    static QStringList topEvents(const ScalingSnapshot& snapshot, int count = 5);
};

} // namespace parallax
