// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/snapshotseries.h"

#include "algebra/history.h"
#include "algebra/operationplan.h"
#include "datasource/live/snapshotappend.h"
#include "datasource/model/trialbuilder.h"

#include <QDateTime>
#include <algorithm>
#include <cmath>
#include <limits>
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

/// The thread with the longest series (its names label the snapshots).
ThreadIndex longestSeries(const Trial& trial)
{
    ThreadIndex reference(std::size_t { 0 });
    for (std::size_t t = 1; t < trial.threadCount(); ++t)
        if (trial.timeSeries(ThreadIndex(t)).size() > trial.timeSeries(reference).size())
            reference = ThreadIndex(t);
    return reference;
}

QString snapshotLabel(const Trial& trial, std::size_t index)
{
    const auto& series
        = trial.threadCount() > 0 ? trial.timeSeries(longestSeries(trial)) : std::vector<ProfileSnapshot>();
    return index < series.size() && !series[index].name.isEmpty() ? series[index].name
                                                                  : QStringLiteral("snapshot %1").arg(index);
}

/// Every thread as of its snapshot `index` (its last one when its series is shorter).
std::shared_ptr<const Trial> snapshotTrial(const Trial& trial, std::size_t index, const QString& name)
{
    TrialBuilder builder(name);
    builder.addDefinitionsOf(trial);
    std::vector<IntervalRow> rows(trial.threadCount());
    std::vector<AtomicRow> atomics(trial.threadCount());
    std::vector<std::size_t> kept(trial.threadCount());
    for (std::size_t t = 0; t < trial.threadCount(); ++t) {
        const ThreadIndex ti(t);
        builder.addThread(trial.threadKey(ti));
        kept[t] = t;
        const auto& series = trial.timeSeries(ti);
        if (series.empty()) {
            rows[t] = trial.row(ti).toRow();
            atomics[t] = trial.atomicRow(ti);
        } else {
            const ProfileSnapshot& s = series[std::min(index, series.size() - 1)];
            rows[t] = s.row;
            atomics[t] = s.atomicRow;
        }
    }
    builder.setIntervalRows(std::move(rows));
    builder.setAtomicRows(std::move(atomics));
    detail::finishUnaryResult(builder, trial, kept, QStringLiteral("snapshot"),
        { QStringLiteral("snapshot=%1").arg(index), QStringLiteral("label=") + snapshotLabel(trial, index) });
    return builder.build();
}

} // namespace

double SnapshotSeriesTable::total(std::size_t row) const
{
    const auto first = values.begin() + static_cast<std::ptrdiff_t>(row * intervals.size());
    return std::accumulate(first, first + static_cast<std::ptrdiff_t>(intervals.size()), 0.0);
}

SnapshotSeriesTable snapshotSeries(const Trial& trial, MetricId metric, ThreadIndex thread, Statistic statistic)
{
    SnapshotSeriesTable table;
    table.statistic = thread.isValid() ? Statistic::MeanAll : statistic;
    statistic = table.statistic; // one thread: its own values
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

    // Per thread, snapshot i adds its value to interval i and takes it from interval i + 1: the
    // thread's differences, for the events it has (its "touched" rows of a dense scratch matrix).
    const std::size_t events = trial.eventCount();
    const std::size_t m = metric.index();
    std::vector<double> own(events * count, 0.0);
    std::vector<char> touched(events, 0);
    std::vector<std::size_t> touchedList;
    const auto forEachThread = [&](auto&& visit) {
        for (ThreadIndex t : threads) {
            const std::vector<RowView> rows = snapshotRows(trial, t);
            for (std::size_t i = 0; i < rows.size() && i < count; ++i) {
                const RowView& row = rows[i];
                if (row.excl.size() < (m + 1) * row.size())
                    continue; // a row without this metric (an empty thread)
                for (std::size_t c = 0; c < row.size(); ++c) {
                    const std::size_t e = row.events[c].index();
                    const double v = row.exclusive(m, c);
                    if (!touched[e]) {
                        touched[e] = 1;
                        touchedList.push_back(e);
                    }
                    own[e * count + i] += v;
                    if (i + 1 < rows.size() && i + 1 < count)
                        own[e * count + i + 1] -= v;
                }
            }
            for (std::size_t e : touchedList) {
                visit(e, own.data() + e * count);
                std::fill_n(own.begin() + static_cast<std::ptrdiff_t>(e * count), count, 0.0);
                touched[e] = 0;
            }
            touchedList.clear();
        }
    };
    // Over the threads that have the event (P, docs/SEMANTICS.md 2): sums, extremes, and, for the
    // deviations, a second pass around the mean.
    std::vector<double> sums(events * count, 0.0);
    std::vector<double> lows(events * count, std::numeric_limits<double>::infinity());
    std::vector<double> highs(events * count, -std::numeric_limits<double>::infinity());
    std::vector<std::size_t> present(events, 0);
    forEachThread([&](std::size_t e, const double* d) {
        ++present[e];
        for (std::size_t i = 0; i < count; ++i) {
            sums[e * count + i] += d[i];
            lows[e * count + i] = std::min(lows[e * count + i], d[i]);
            highs[e * count + i] = std::max(highs[e * count + i], d[i]);
        }
    });
    const auto all = static_cast<double>(threads.size());
    const bool presentOnly = statistic == Statistic::MeanPresent || statistic == Statistic::StdDevPresent;
    const auto population = [&](std::size_t e) { return presentOnly ? static_cast<double>(present[e]) : all; };
    std::vector<double> result(events * count, 0.0);
    switch (statistic) {
    case Statistic::Total:
        result = sums;
        break;
    case Statistic::Min:
        result = lows;
        break;
    case Statistic::Max:
        result = highs;
        break;
    case Statistic::MeanAll:
    case Statistic::MeanPresent:
        for (std::size_t e = 0; e < events; ++e)
            for (std::size_t i = 0; present[e] && i < count; ++i)
                result[e * count + i] = sums[e * count + i] / population(e);
        break;
    case Statistic::StdDevAll:
    case Statistic::StdDevPresent: {
        std::vector<double> squares(events * count, 0.0);
        forEachThread([&](std::size_t e, const double* d) {
            for (std::size_t i = 0; i < count; ++i) {
                const double deviation = d[i] - sums[e * count + i] / population(e);
                squares[e * count + i] += deviation * deviation;
            }
        });
        for (std::size_t e = 0; e < events; ++e) {
            const double n = population(e);
            for (std::size_t i = 0; present[e] && i < count && n > 1; ++i) {
                // The absent threads are values 0 for the "all" deviation.
                const double mean = sums[e * count + i] / n;
                const double absent = n - static_cast<double>(present[e]);
                result[e * count + i] = std::sqrt((squares[e * count + i] + absent * mean * mean) / n);
            }
        }
        break;
    }
    }
    for (std::size_t e = 0; e < events; ++e)
        if (present[e] && !trial.event(EventId(e)).isCallPath())
            table.events.emplace_back(e);
    auto totalOf = [&](EventId e) {
        const auto first = result.begin() + static_cast<std::ptrdiff_t>(e.index() * count);
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
            table.values.push_back(result[e.index() * count + i]);
    return table;
}

std::size_t snapshotCount(const Trial& trial)
{
    return trial.threadCount() > 0 ? std::max<std::size_t>(trial.timeSeries(longestSeries(trial)).size(), 1) : 1;
}

SnapshotHeatMap snapshotHeatMap(const Trial& trial, MetricId metric, EventId event)
{
    SnapshotHeatMap map;
    map.threads = trial.threadCount();
    map.intervals = snapshotCount(trial);
    map.values.assign(map.threads * map.intervals, 0.0);
    if (!metric.isValid() || !event.isValid())
        return map;
    const std::size_t m = metric.index();
    bool first = true;
    for (std::size_t t = 0; t < map.threads; ++t) {
        const std::vector<RowView> rows = snapshotRows(trial, ThreadIndex(t));
        double previous = 0;
        for (std::size_t i = 0; i < map.intervals; ++i) {
            // After a thread's last snapshot its value stays: the later intervals are 0.
            double cumulative = previous;
            if (i < rows.size() && rows[i].excl.size() >= (m + 1) * rows[i].size()) {
                const std::ptrdiff_t c = rows[i].find(event);
                cumulative = c < 0 ? 0.0 : rows[i].exclusive(m, static_cast<std::size_t>(c));
            }
            const double v = cumulative - previous;
            previous = cumulative;
            map.values[t * map.intervals + i] = v;
            if (std::isfinite(v)) {
                map.minimum = first ? v : std::min(map.minimum, v);
                map.maximum = first ? v : std::max(map.maximum, v);
                first = false;
            }
        }
    }
    return map;
}

AlgebraResult intervalProfile(const Trial& trial, int first, int last)
{
    const auto count = static_cast<int>(snapshotCount(trial));
    if (first < 0 || last < first || last >= count)
        return AlgebraResult::failure(QStringLiteral("no interval %1..%2 in %3: it has %4 snapshot%5 (0..%6)")
                                          .arg(first)
                                          .arg(last)
                                          .arg(trial.name())
                                          .arg(count)
                                          .arg(count == 1 ? QString() : QStringLiteral("s"))
                                          .arg(count - 1));
    const auto at = [&](int index) {
        return snapshotTrial(trial, static_cast<std::size_t>(index),
            QStringLiteral("%1 @ %2").arg(trial.name(), snapshotLabel(trial, static_cast<std::size_t>(index))));
    };
    const auto end = at(last);
    if (first == 0)
        return AlgebraResult(end);
    AlgebraOptions options;
    options.name = QStringLiteral("%1 [%2 .. %3]")
                       .arg(trial.name(), snapshotLabel(trial, static_cast<std::size_t>(first)),
                           snapshotLabel(trial, static_cast<std::size_t>(last)));
    return difference(*end, *at(first - 1), options);
}

AlgebraResult snapshotsOfTrials(const std::vector<std::shared_ptr<const Trial>>& trials, const QString& key)
{
    if (trials.size() < 2)
        return AlgebraResult::failure(
            QStringLiteral("a time series of trials needs two or more, got %1").arg(trials.size()));
    QStringList values;
    for (const auto& trial : trials) {
        values << trial->metadataValue(key).trimmed();
        if (values.back().isEmpty())
            return AlgebraResult::failure(
                QStringLiteral("%1 has no metadata '%2' to order it by").arg(trial->name(), key));
    }
    const std::vector<std::size_t> order = historyOrder(values);
    const auto stamp = [&](std::size_t i) {
        const QString& v = values[static_cast<qsizetype>(i)];
        SnapshotStamp s { v, 0 };
        bool number = false;
        const double us = v.toDouble(&number);
        if (number && us >= 978307200e6 && us < 4102444800e6) // 2001 .. 2100, µs since the epoch
            s.timestamp = static_cast<qint64>(us);
        else if (const QDateTime time = QDateTime::fromString(v, Qt::ISODateWithMs); time.isValid())
            s.timestamp = time.toMSecsSinceEpoch() * 1000;
        return s;
    };
    const QStringList options { QStringLiteral("series=%1").arg(key) };
    std::shared_ptr<const Trial> series
        = appendSnapshot(*trials[order[0]], *trials[order[1]], stamp(order[0]), stamp(order[1]), options);
    for (std::size_t k = 2; k < order.size(); ++k)
        series = appendSnapshot(*series, *trials[order[k]], {}, stamp(order[k]), options);
    return AlgebraResult(series);
}

} // namespace parallax
