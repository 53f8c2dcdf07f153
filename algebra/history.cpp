// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/history.h"

#include "algebra/statistics.h"

#include <QHash>
#include <algorithm>
#include <cmath>
#include <limits>

namespace parallax {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

double percentChange(double from, double to) { return from != 0 ? 100.0 * (to - from) / std::abs(from) : nan; }

} // namespace

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
    // Order: numbers as numbers when every value is one, else text.
    bool numeric = true;
    for (const HistoryInput& in : runs) {
        bool ok = false;
        in.order.trimmed().toDouble(&ok);
        numeric = numeric && ok;
    }
    std::stable_sort(runs.begin(), runs.end(), [numeric](const HistoryInput& a, const HistoryInput& b) {
        if (numeric)
            return a.order.trimmed().toDouble() < b.order.trimmed().toDouble();
        return a.order < b.order;
    });

    History& h = r.history;
    h.numericOrder = numeric;
    h.value = options.value;
    h.statistic = options.statistic;
    h.metric = options.metric.isEmpty() ? runs.front().trial->metric(MetricId(0u)).name : options.metric;
    const std::size_t n = runs.size();

    // Per run: its metric and statistics.
    std::vector<MetricId> metrics(n);
    std::vector<std::shared_ptr<const TrialStatistics>> stats(n);
    bool anyMetric = false;
    for (std::size_t i = 0; i < n; ++i) {
        metrics[i] = runs[i].trial->findMetric(h.metric);
        anyMetric = anyMetric || metrics[i].isValid();
        stats[i] = TrialStatistics::of(*runs[i].trial);
    }
    for (std::size_t i = 0; i < n; ++i)
        if (metrics[i].isValid()) {
            h.higherIsBetter = runs[i].trial->metric(metrics[i]).higherIsBetter;
            break;
        }
    if (!anyMetric) {
        r.error = QStringLiteral("none of the runs has the metric '%1'").arg(h.metric);
        return r;
    }

    auto seriesOf = [&](const QString& event) {
        HistorySeries s;
        s.event = event;
        s.values.assign(n, nan);
        s.minimum.assign(n, nan);
        s.maximum.assign(n, nan);
        for (std::size_t i = 0; i < n; ++i) {
            const Trial& t = *runs[i].trial;
            const EventId e = t.findEvent(event);
            if (!e.isValid() || !metrics[i].isValid())
                continue;
            auto value = [&](Statistic st) {
                const auto v = statisticValue(t, *stats[i], e, metrics[i], options.value, st);
                return v ? *v : nan;
            };
            s.values[i] = value(options.statistic);
            s.minimum[i] = value(Statistic::Min);
            s.maximum[i] = value(Statistic::Max);
        }
        return s;
    };

    QStringList events = options.events;
    if (events.isEmpty()) {
        // The top N by the mean of the statistic over the runs where the event ran.
        QHash<QString, std::pair<double, int>> sums;
        for (std::size_t i = 0; i < n; ++i) {
            const Trial& t = *runs[i].trial;
            if (!metrics[i].isValid())
                continue;
            for (std::size_t k = 0; k < t.eventCount(); ++k) {
                const EventId e(k);
                const QString& name = t.event(e).name;
                if (!options.callPaths && name.contains(QLatin1String(" => ")))
                    continue;
                const auto v = statisticValue(t, *stats[i], e, metrics[i], options.value, options.statistic);
                if (!v || !std::isfinite(*v))
                    continue;
                auto& [sum, count] = sums[name];
                sum += *v;
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
            for (const HistoryInput& in : runs)
                found = found || in.trial->findEvent(e).isValid();
            if (!found) {
                r.error = QStringLiteral("none of the runs has the event '%1'").arg(e);
                return r;
            }
        }
    }

    for (const QString& e : events) {
        HistorySeries s = seriesOf(e);
        s.changes = detectChangePoints(s.values, options.changes);
        int first = -1;
        int last = -1;
        int previous = -1;
        s.largestStepPercent = 0;
        for (int i = 0; i < static_cast<int>(n); ++i) {
            if (!std::isfinite(s.values[static_cast<std::size_t>(i)]))
                continue;
            if (first < 0)
                first = i;
            last = i;
            if (previous >= 0) {
                const double step = percentChange(
                    s.values[static_cast<std::size_t>(previous)], s.values[static_cast<std::size_t>(i)]);
                if (std::isfinite(step) && (s.largestStepAt < 0 || std::abs(step) > std::abs(s.largestStepPercent))) {
                    s.largestStepPercent = step;
                    s.largestStepAt = i;
                }
            }
            previous = i;
        }
        s.overallPercent = first >= 0 && last > first
            ? percentChange(s.values[static_cast<std::size_t>(first)], s.values[static_cast<std::size_t>(last)])
            : nan;
        h.series.push_back(std::move(s));
    }
    h.runs = std::move(runs);
    return r;
}

} // namespace parallax
