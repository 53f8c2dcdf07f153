// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/snapshotseries.h"

#include <algorithm>
#include <numeric>

namespace parallax {

namespace {

/// A thread's snapshots as rows; a thread without a series has its profile as its one snapshot.
std::vector<RowView> snapshotRows(const Trial& trial, ThreadIndex t)
{
    std::vector<RowView> rows;
    for (const ProfileSnapshot& s : trial.timeSeries(t))
        rows.emplace_back(s.row);
    if (rows.empty())
        rows.push_back(trial.row(t));
    return rows;
}

} // namespace

double SnapshotSeriesTable::total(std::size_t row) const
{
    const auto first = values.begin() + static_cast<std::ptrdiff_t>(row * intervals.size());
    return std::accumulate(first, first + static_cast<std::ptrdiff_t>(intervals.size()), 0.0);
}

SnapshotSeriesTable snapshotSeries(const Trial& trial, MetricId metric, ThreadIndex thread)
{
    SnapshotSeriesTable table;
    std::vector<ThreadIndex> threads;
    if (thread.isValid())
        threads.push_back(thread);
    else
        for (std::size_t t = 0; t < trial.threadCount(); ++t)
            threads.emplace_back(t);
    if (threads.empty() || !metric.isValid())
        return table;

    // The labels: the chosen thread's, or the first longest series'.
    ThreadIndex reference = threads.front();
    for (ThreadIndex t : threads)
        if (trial.timeSeries(t).size() > trial.timeSeries(reference).size())
            reference = t;
    const auto& series = trial.timeSeries(reference);
    const std::size_t count = std::max<std::size_t>(series.size(), 1);
    for (std::size_t i = 0; i < count; ++i) {
        SnapshotInterval interval;
        interval.index = static_cast<int>(i);
        interval.label
            = i < series.size() && !series[i].name.isEmpty() ? series[i].name : QStringLiteral("snapshot %1").arg(i);
        interval.timestamp = i < series.size() ? series[i].timestamp : 0;
        interval.start = i > 0 && i - 1 < series.size() ? series[i - 1].timestamp : 0;
        table.intervals.push_back(interval);
    }

    // Snapshot i adds its value to interval i and takes it from interval i + 1: the differences.
    std::vector<double> sums(trial.eventCount() * count, 0.0);
    std::vector<char> present(trial.eventCount(), 0);
    const std::size_t m = metric.index();
    for (ThreadIndex t : threads) {
        const std::vector<RowView> rows = snapshotRows(trial, t);
        for (std::size_t i = 0; i < rows.size() && i < count; ++i) {
            const RowView& row = rows[i];
            if (row.excl.size() < (m + 1) * row.size())
                continue; // a row without this metric (an empty thread)
            for (std::size_t c = 0; c < row.size(); ++c) {
                const std::size_t e = row.events[c].index();
                const double v = row.exclusive(m, c);
                present[e] = 1;
                sums[e * count + i] += v;
                if (i + 1 < rows.size())
                    sums[e * count + i + 1] -= v;
            }
        }
    }
    const double divisor = static_cast<double>(threads.size());
    for (std::size_t e = 0; e < trial.eventCount(); ++e)
        if (present[e] && !trial.event(EventId(e)).isCallPath())
            table.events.emplace_back(e);
    auto totalOf = [&](EventId e) {
        const auto first = sums.begin() + static_cast<std::ptrdiff_t>(e.index() * count);
        return std::accumulate(first, first + static_cast<std::ptrdiff_t>(count), 0.0);
    };
    std::stable_sort(table.events.begin(), table.events.end(), [&](EventId a, EventId b) {
        const double ta = totalOf(a);
        const double tb = totalOf(b);
        return ta != tb ? ta > tb : trial.event(a).name < trial.event(b).name;
    });
    table.values.reserve(table.events.size() * count);
    for (EventId e : table.events)
        for (std::size_t i = 0; i < count; ++i)
            table.values.push_back(sums[e.index() * count + i] / divisor);
    return table;
}

} // namespace parallax
