// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/operations.h"
#include "algebra/values.h"
#include "datasource/model/trial.h"

#include <QString>
#include <vector>

namespace parallax {

// The per-interval values of a trial with snapshots (TAU snapshot profiles: Trial::timeSeries), as
// docs/SEMANTICS.md 1.11 defines them: interval i is the difference between snapshot i and snapshot
// i - 1 (snapshot -1 being all zero), so the intervals of an event add up to its final value. Used by
// `parallax-cli snapshots` and meant for the time-series view.

/// One interval: it ends at snapshot `index` (its label and timestamp).
struct SnapshotInterval {
    int index = 0;
    /// The source's name for the snapshot ("final" for TAU's last); "snapshot N" when it has none.
    QString label;
    /// Microseconds since the epoch when the interval ends (0: unknown); `start` when it begins
    /// (the previous snapshot's timestamp; 0 for the first interval).
    qint64 timestamp = 0;
    qint64 start = 0;
};

/// The exclusive value of one metric per flat event and interval, for one thread or a statistic
/// over all threads.
struct SnapshotSeriesTable {
    /// The statistic over the threads (MeanAll for one thread: its own values).
    Statistic statistic = Statistic::MeanAll;
    std::vector<SnapshotInterval> intervals;
    /// The flat events present in some snapshot, by total (the sum over the intervals, which is
    /// the final value) descending, then by name.
    std::vector<EventId> events;
    /// values[row * intervals.size() + interval]
    std::vector<double> values;

    double value(std::size_t row, std::size_t interval) const { return values[row * intervals.size() + interval]; }
    double total(std::size_t row) const;
};

/// The table of `metric` for thread `thread`, or, when `thread` is invalid, of `statistic` over the
/// threads per interval, as docs/SEMANTICS.md 1.11 and 2 define it: the total, mean and deviation
/// "all" count absent as 0, min, max and the "present" ones take the threads that have the event in
/// some snapshot (a thread with fewer snapshots than the longest series has 0 in the intervals after
/// its last one). The labels and timestamps are those of `thread`, or of the first thread with the
/// longest series. A trial without a time series has one interval, its profile.
SnapshotSeriesTable snapshotSeries(
    const Trial& trial, MetricId metric, ThreadIndex thread = {}, Statistic statistic = Statistic::MeanAll);

/// The number of snapshots of the trial: the longest thread series (1 for a trial without one, whose
/// profile is its one snapshot).
std::size_t snapshotCount(const Trial& trial);

/// One event's exclusive value of `metric` per thread and interval (the same differences as
/// snapshotSeries), for the thread x time heat map.
struct SnapshotHeatMap {
    std::size_t threads = 0;
    std::size_t intervals = 0;
    /// values[thread * intervals + interval]; 0 where the thread lacks the event.
    std::vector<double> values;
    double minimum = 0;
    double maximum = 0;

    double value(std::size_t thread, std::size_t interval) const { return values[thread * intervals + interval]; }
};
SnapshotHeatMap snapshotHeatMap(const Trial& trial, MetricId metric, EventId event);

/// The profile of intervals `first`..`last` (inclusive, 0-based) as an ordinary trial (docs/
/// SEMANTICS.md 1.11): each thread's snapshot `last` minus its snapshot `first - 1`, made with the
/// algebra's diff, so every view, writer and the database take it. A thread with a shorter series
/// keeps its last snapshot for the later indexes. `first` = 0 gives snapshot `last` itself (a
/// "snapshot" result); the whole range gives the final profile. Fails for indexes outside
/// 0 <= first <= last < snapshotCount(trial).
AlgebraResult intervalProfile(const Trial& trial, int first, int last);

/// A set of trials of one run (cumulative profiles: TAU's dumps, a run's checkpoints) as one trial
/// with snapshots, ordered by the metadata value `key` (as numbers when every value is one, else as
/// text: historyOrder's rule), so its intervals are the differences between consecutive trials
/// (docs/SEMANTICS.md 1.11). Snapshot i is named by its trial's value; its timestamp is the value
/// when that is a time (ISO 8601, or a number of µs since the epoch after 2001 as TAU's
/// "Timestamp" keys). The final profile is the last trial's (appendSnapshot matches names). Fails
/// for fewer than two trials or a trial without the key, naming it.
AlgebraResult snapshotsOfTrials(const std::vector<std::shared_ptr<const Trial>>& trials, const QString& key);

} // namespace parallax
