// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/history.h"

#include "algebra/statistics.h"

#include <QHash>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace parallax {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

double percentChange(double from, double to) { return from != 0 ? 100.0 * (to - from) / std::abs(from) : nan; }

std::size_t at(int i) { return static_cast<std::size_t>(i); }

} // namespace

std::vector<std::size_t> historyOrder(const QStringList& orders, bool* numeric)
{
    // Order: numbers as numbers when every value is one, else text.
    bool allNumbers = true;
    std::vector<double> numbers;
    numbers.reserve(static_cast<std::size_t>(orders.size()));
    for (const QString& o : orders) {
        bool ok = false;
        numbers.push_back(o.trimmed().toDouble(&ok));
        allNumbers = allNumbers && ok;
    }
    std::vector<std::size_t> order(static_cast<std::size_t>(orders.size()));
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (allNumbers)
            return numbers[a] < numbers[b];
        return orders[static_cast<qsizetype>(a)] < orders[static_cast<qsizetype>(b)];
    });
    if (numeric)
        *numeric = allNumbers;
    return order;
}

int derivedThreadOf(Statistic statistic, ValueType value)
{
    if (value != ValueType::Exclusive && value != ValueType::Inclusive && value != ValueType::Calls)
        return 0;
    switch (statistic) {
    case Statistic::MeanAll:
        return -6;
    case Statistic::MeanPresent:
        return -1;
    case Statistic::Total:
        return -2;
    case Statistic::Min:
        return -4;
    case Statistic::Max:
        return -5;
    case Statistic::StdDevAll:
    case Statistic::StdDevPresent:
        return 0;
    }
    return 0;
}

HistoryRunSummary summariseRun(const HistoryInput& run, const QString& metric, ValueType value, Statistic statistic)
{
    HistoryRunSummary s;
    s.run = run;
    if (!run.trial)
        return s;
    const Trial& t = *run.trial;
    if (s.run.trialName.isEmpty())
        s.run.trialName = t.name();
    const MetricId m = t.findMetric(metric);
    s.hasMetric = m.isValid();
    if (s.hasMetric)
        s.higherIsBetter = t.metric(m).higherIsBetter;
    const auto stats = TrialStatistics::of(t);
    QSet<QString> seen;
    s.events.reserve(t.eventCount());
    for (std::size_t k = 0; k < t.eventCount(); ++k) {
        const EventId e(k);
        const QString& name = t.event(e).name;
        if (seen.contains(name))
            continue; // findEvent finds the first
        seen.insert(name);
        HistoryEventSummary es;
        es.event = name;
        if (s.hasMetric) {
            auto get = [&](Statistic st) {
                const auto v = statisticValue(t, *stats, e, m, value, st);
                return v ? *v : nan;
            };
            es.value = get(statistic);
            es.minimum = get(Statistic::Min);
            es.maximum = get(Statistic::Max);
        }
        s.events.push_back(std::move(es));
    }
    return s;
}

HistoryResult historyOf(std::vector<HistoryInput> runs, const HistoryOptions& options)
{
    HistoryResult r;
    if (runs.empty()) {
        r.error = QStringLiteral("no runs to make a history of");
        return r;
    }
    for (const HistoryInput& in : runs) {
        if (!in.trial) {
            r.error = QStringLiteral("%1: no trial").arg(in.label);
            return r;
        }
        if (in.order.isEmpty()) {
            r.error = QStringLiteral("%1: no value of the order key").arg(in.label);
            return r;
        }
    }
    QStringList orders;
    for (const HistoryInput& in : runs)
        orders << in.order;
    const std::vector<std::size_t> order = historyOrder(orders);
    HistoryOptions o = options;
    if (o.metric.isEmpty())
        o.metric = runs[order.front()].trial->metric(MetricId(0u)).name;
    std::vector<HistoryRunSummary> summaries;
    summaries.reserve(runs.size());
    for (std::size_t i : order)
        summaries.push_back(summariseRun(runs[i], o.metric, o.value, o.statistic));
    return historyOfSummaries(std::move(summaries), o);
}

HistoryResult historyOfSummaries(std::vector<HistoryRunSummary> runs, const HistoryOptions& options)
{
    HistoryResult r;
    if (runs.empty()) {
        r.error = QStringLiteral("no runs to make a history of");
        return r;
    }
    for (const HistoryRunSummary& in : runs)
        if (in.run.order.isEmpty()) {
            r.error = QStringLiteral("%1: no value of the order key").arg(in.run.label);
            return r;
        }
    if (options.metric.isEmpty()) {
        r.error = QStringLiteral("no metric given for the summaries");
        return r;
    }
    QStringList orders;
    for (const HistoryRunSummary& in : runs)
        orders << in.run.order;
    bool numeric = false;
    const std::vector<std::size_t> order = historyOrder(orders, &numeric);
    {
        std::vector<HistoryRunSummary> sorted;
        sorted.reserve(runs.size());
        for (std::size_t i : order)
            sorted.push_back(std::move(runs[i]));
        runs = std::move(sorted);
    }

    History& h = r.history;
    h.numericOrder = numeric;
    h.value = options.value;
    h.statistic = options.statistic;
    h.metric = options.metric;
    const std::size_t n = runs.size();

    bool anyMetric = false;
    for (const HistoryRunSummary& s : runs)
        if (s.hasMetric) {
            if (!anyMetric)
                h.higherIsBetter = s.higherIsBetter;
            anyMetric = true;
        }
    if (!anyMetric) {
        r.error = QStringLiteral("none of the runs has the metric '%1'").arg(h.metric);
        return r;
    }

    // The points: runs with equal order values (as numbers, or as text) share one.
    for (std::size_t i = 0; i < n; ++i) {
        const QString& key = runs[i].run.order;
        const bool same = !h.points.empty()
            && (numeric ? key.trimmed().toDouble() == h.points.back().order.trimmed().toDouble()
                        : key == h.points.back().order);
        if (!same)
            h.points.push_back(HistoryPoint { key, {} });
        h.points.back().runs.push_back(static_cast<int>(i));
        h.repeated = h.repeated || h.points.back().runs.size() > 1;
    }
    const std::size_t points = h.points.size();

    // Per run: its events by name.
    std::vector<QHash<QString, const HistoryEventSummary*>> byName(n);
    for (std::size_t i = 0; i < n; ++i) {
        byName[i].reserve(static_cast<qsizetype>(runs[i].events.size()));
        for (const HistoryEventSummary& e : runs[i].events)
            byName[i].insert(e.event, &e);
    }

    QStringList events = options.events;
    if (events.isEmpty()) {
        // The top N by the mean of the statistic over the runs where the event ran.
        QHash<QString, std::pair<double, int>> sums;
        for (std::size_t i = 0; i < n; ++i) {
            if (!runs[i].hasMetric)
                continue;
            for (const HistoryEventSummary& e : runs[i].events) {
                if (!options.callPaths && e.event.contains(QLatin1String(" => ")))
                    continue;
                if (!std::isfinite(e.value))
                    continue;
                auto& [sum, count] = sums[e.event];
                sum += e.value;
                ++count;
            }
        }
        std::vector<std::pair<double, QString>> ranked;
        ranked.reserve(static_cast<std::size_t>(sums.size()));
        for (auto it = sums.cbegin(); it != sums.cend(); ++it)
            ranked.emplace_back(it.value().first / it.value().second, it.key());
        std::sort(ranked.begin(), ranked.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
        for (std::size_t k = 0; k < ranked.size() && static_cast<int>(k) < options.top; ++k)
            events << ranked[k].second;
    } else {
        for (const QString& e : events) {
            bool found = false;
            for (std::size_t i = 0; i < n && !found; ++i)
                found = byName[i].contains(e);
            if (!found) {
                r.error = QStringLiteral("none of the runs has the event '%1'").arg(e);
                return r;
            }
        }
    }

    for (const QString& event : events) {
        HistorySeries s;
        s.event = event;
        s.runValues.assign(n, nan);
        std::vector<double> runMin(n, nan);
        std::vector<double> runMax(n, nan);
        for (std::size_t i = 0; i < n; ++i) {
            if (!runs[i].hasMetric)
                continue;
            const HistoryEventSummary* e = byName[i].value(event);
            if (!e)
                continue;
            s.runValues[i] = e->value;
            runMin[i] = e->minimum;
            runMax[i] = e->maximum;
        }
        // Per point: the mean of its runs' values, the band over all of their threads; the
        // repeats' squared deviations from their point's mean for the pooled noise.
        s.values.assign(points, nan);
        s.minimum.assign(points, nan);
        s.maximum.assign(points, nan);
        RepeatNoise repeats;
        repeats.runs.assign(points, 0);
        double squares = 0;
        int freedom = 0;
        for (std::size_t p = 0; p < points; ++p) {
            double sum = 0;
            int count = 0;
            for (int i : h.points[p].runs) {
                const double v = s.runValues[at(i)];
                if (std::isfinite(v)) {
                    sum += v;
                    ++count;
                }
                if (std::isfinite(runMin[at(i)]))
                    s.minimum[p] = std::isfinite(s.minimum[p]) ? std::min(s.minimum[p], runMin[at(i)]) : runMin[at(i)];
                if (std::isfinite(runMax[at(i)]))
                    s.maximum[p] = std::isfinite(s.maximum[p]) ? std::max(s.maximum[p], runMax[at(i)]) : runMax[at(i)];
            }
            if (count == 0)
                continue;
            // One run: its own value, bit for bit (the mean of one value divides by 1).
            s.values[p] = sum / count;
            repeats.runs[p] = count;
            if (count > 1) {
                for (int i : h.points[p].runs) {
                    const double v = s.runValues[at(i)];
                    if (std::isfinite(v))
                        squares += (v - s.values[p]) * (v - s.values[p]);
                }
                freedom += count - 1;
            }
        }
        if (freedom > 0) {
            repeats.sigma = std::sqrt(squares / freedom);
            s.changes = detectChangePoints(s.values, options.changes, &repeats);
        } else {
            s.changes = detectChangePoints(s.values, options.changes);
        }
        int first = -1;
        int last = -1;
        int previous = -1;
        s.largestStepPercent = 0;
        for (int i = 0; i < static_cast<int>(points); ++i) {
            if (!std::isfinite(s.values[at(i)]))
                continue;
            if (first < 0)
                first = i;
            last = i;
            if (previous >= 0) {
                const double step = percentChange(s.values[at(previous)], s.values[at(i)]);
                if (std::isfinite(step) && (s.largestStepAt < 0 || std::abs(step) > std::abs(s.largestStepPercent))) {
                    s.largestStepPercent = step;
                    s.largestStepAt = i;
                }
            }
            previous = i;
        }
        s.overallPercent = first >= 0 && last > first ? percentChange(s.values[at(first)], s.values[at(last)]) : nan;
        h.series.push_back(std::move(s));
    }
    h.runs.reserve(n);
    for (HistoryRunSummary& s : runs)
        h.runs.push_back(std::move(s.run));
    return r;
}

} // namespace parallax
