// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/comparison/scalingbuilder.h"

#include <QHash>
#include <algorithm>

namespace parallax {

std::shared_ptr<const ScalingSnapshot> ScalingBuilder::build(std::vector<std::shared_ptr<const Trial>> trials)
{
    auto s = std::make_shared<ScalingSnapshot>();
    trials.erase(std::remove(trials.begin(), trials.end(), nullptr), trials.end());
    std::stable_sort(
        trials.begin(), trials.end(), [](const auto& x, const auto& y) { return x->threadCount() < y->threadCount(); });
    s->trials = std::move(trials);
    if (s->trials.empty())
        return s;
    for (const auto& trial : s->trials)
        s->stats.push_back(TrialStatistics::of(*trial));

    const Trial& first = *s->trials.front();
    for (const Metric& metric : first.metrics()) {
        const bool everywhere = std::all_of(
            s->trials.begin(), s->trials.end(), [&](const auto& t) { return t->findMetric(metric.name).isValid(); });
        if (everywhere)
            s->metrics.append(metric.name);
    }

    // Flat events of every run, ranked by the smallest run's mean inclusive value.
    QHash<QString, double> rank;
    QStringList names;
    for (std::size_t r = 0; r < s->trials.size(); ++r) {
        const Trial& trial = *s->trials[r];
        const MetricId m = s->metrics.isEmpty() ? MetricId() : trial.findMetric(s->metrics.front());
        for (std::size_t e = 0; e < trial.eventCount(); ++e) {
            const IntervalEvent& event = trial.event(EventId(e));
            if (event.isCallPath() || rank.contains(event.name))
                continue;
            double value = -1; // events absent from the smallest run come last
            if (r == 0 && m.isValid())
                value = s->stats[r]->stat(EventId(e), m, ValueKind::Inclusive).meanAll;
            rank.insert(event.name, value);
            names.append(event.name);
        }
    }
    std::stable_sort(
        names.begin(), names.end(), [&](const QString& x, const QString& y) { return rank.value(x) > rank.value(y); });
    s->events = names;
    return s;
}

std::vector<ScalingPoint> ScalingBuilder::series(const ScalingSnapshot& snapshot, const QString& event,
    const QString& metric, ScalingValue value, ScalingStatistic statistic)
{
    std::vector<ScalingPoint> points;
    const ValueKind kind = value == ScalingValue::Inclusive ? ValueKind::Inclusive : ValueKind::Exclusive;
    for (std::size_t r = 0; r < snapshot.trials.size(); ++r) {
        const Trial& trial = *snapshot.trials[r];
        ScalingPoint point;
        point.threads = trial.threadCount();
        const EventId e = trial.findEvent(event);
        const MetricId m = trial.findMetric(metric);
        if (e.isValid() && m.isValid()) {
            const Stat& stat = snapshot.stats[r]->stat(e, m, kind);
            if (stat.present > 0) {
                point.present = true;
                point.time = statistic == ScalingStatistic::Mean ? stat.meanAll : stat.max;
            }
        }
        points.push_back(point);
    }
    if (!points.empty() && points.front().present) {
        const double reference = points.front().time * static_cast<double>(points.front().threads);
        for (ScalingPoint& point : points)
            if (point.present && point.time > 0 && point.threads > 0)
                point.efficiency = reference / (point.time * static_cast<double>(point.threads));
    }
    return points;
}

QStringList ScalingBuilder::topEvents(const ScalingSnapshot& snapshot, int count)
{
    return snapshot.events.mid(0, count);
}

} // namespace parallax
