// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/paramcorrelation.h"

#include "algebra/cluster.h"
#include "algebra/statistics.h"

#include <QSet>
#include <algorithm>
#include <cmath>
#include <limits>

namespace parallax {

ParameterCorrelationResult correlateWithParameter(
    std::vector<ParameterRun> runs, const ParameterCorrelationOptions& options)
{
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    ParameterCorrelationResult r;
    if (runs.size() < 3) {
        r.error = QStringLiteral("a correlation across runs needs at least 3 runs, got %1").arg(runs.size());
        return r;
    }
    for (const ParameterRun& run : runs)
        if (!run.trial) {
            r.error = QStringLiteral("%1: no trial").arg(run.label);
            return r;
        }
    ParameterCorrelation& c = r.correlation;
    c.value = options.value;
    c.statistic = options.statistic;
    c.metric = options.metric.isEmpty() ? runs.front().trial->metric(MetricId(0u)).name : options.metric;
    const std::size_t n = runs.size();
    std::vector<MetricId> metrics(n);
    std::vector<std::shared_ptr<const TrialStatistics>> stats(n);
    bool anyMetric = false;
    for (std::size_t i = 0; i < n; ++i) {
        metrics[i] = runs[i].trial->findMetric(c.metric);
        anyMetric = anyMetric || metrics[i].isValid();
        stats[i] = TrialStatistics::of(*runs[i].trial);
    }
    if (!anyMetric) {
        r.error = QStringLiteral("none of the runs has the metric '%1'").arg(c.metric);
        return r;
    }

    // The events: those asked for (each must exist somewhere), else every flat event of any run.
    QStringList events;
    QSet<QString> seen;
    for (std::size_t i = 0; i < n; ++i) {
        const Trial& t = *runs[i].trial;
        for (std::size_t k = 0; k < t.eventCount(); ++k) {
            const QString& name = t.event(EventId(k)).name;
            if (seen.contains(name))
                continue;
            seen.insert(name);
            if (options.events.isEmpty() && (options.callPaths || !name.contains(QLatin1String(" => "))))
                events << name;
        }
    }
    for (const QString& e : options.events) {
        if (!seen.contains(e)) {
            r.error = QStringLiteral("none of the runs has the event '%1'").arg(e);
            return r;
        }
        events << e;
    }

    for (const QString& name : events) {
        EventParameterCorrelation e;
        e.event = name;
        e.values.assign(n, nan);
        std::vector<double> x;
        std::vector<double> y;
        for (std::size_t i = 0; i < n; ++i) {
            const Trial& t = *runs[i].trial;
            const EventId id = t.findEvent(name);
            if (!id.isValid() || !metrics[i].isValid())
                continue;
            const auto v = statisticValue(t, *stats[i], id, metrics[i], options.value, options.statistic);
            if (!v || !std::isfinite(*v))
                continue;
            e.values[i] = *v;
            x.push_back(runs[i].parameter);
            y.push_back(*v);
        }
        e.runs = static_cast<int>(x.size());
        e.pearson = x.size() >= 3 ? pearsonCorrelation(x, y) : nan;
        e.spearman = x.size() >= 3 ? pearsonCorrelation(averageRanks(x), averageRanks(y)) : nan;
        c.events.push_back(std::move(e));
    }
    std::stable_sort(
        c.events.begin(), c.events.end(), [](const EventParameterCorrelation& a, const EventParameterCorrelation& b) {
            const bool fa = std::isfinite(a.pearson);
            const bool fb = std::isfinite(b.pearson);
            if (fa != fb)
                return fa;
            if (fa && std::abs(a.pearson) != std::abs(b.pearson))
                return std::abs(a.pearson) > std::abs(b.pearson);
            return a.event < b.event;
        });
    c.runs = std::move(runs);
    return r;
}

} // namespace parallax
