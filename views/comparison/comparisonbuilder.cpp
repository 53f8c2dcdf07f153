// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/comparison/comparisonbuilder.h"

#include "views/comparison/comparisonformat.h"

#include <QCoreApplication>
#include <QLocale>
#include <algorithm>
#include <cmath>
#include <map>

namespace parallax {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("ComparisonBuilder", text); }

bool cancelled(const std::atomic_bool* cancel) { return cancel && cancel->load(std::memory_order_relaxed); }

RunTime runTime(const Trial& trial, const TrialStatistics& stats, MetricId metric)
{
    RunTime time;
    time.threads = trial.threadCount();
    if (!metric.isValid())
        return time;
    for (std::size_t t = 0; t < trial.threadCount(); ++t)
        time.slowest = std::max(time.slowest, stats.threadTopInclusive(ThreadIndex(t), metric));
    time.sum = stats.sumTopInclusive(metric);
    return time;
}

std::map<QString, QString> trialMetadata(const Trial& trial)
{
    std::map<QString, QString> result;
    for (const MetadataEntry& entry : trial.metadata()) {
        const QString key = trial.strings().get(entry.key);
        if (!Presence::isPresenceKey(key))
            result[key] = trial.strings().get(entry.value);
    }
    return result;
}

} // namespace

QString compareValueName(CompareValue value) { return valueColumnHeader(valueColumnOf(value), QString()); }

QString compareSourceName(CompareSource source)
{
    switch (source) {
    case CompareSource::Mean:
        return tr("Mean over threads");
    case CompareSource::Total:
        return tr("Total over threads");
    case CompareSource::Thread:
        return tr("One thread");
    }
    return {};
}

RelativeDifference RelativeDifference::of(double a, double b)
{
    RelativeDifference r;
    if (a == 0 && b == 0)
        return r;
    if (a == 0) {
        r.kind = New;
        r.percent = b > 0 ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
        return r;
    }
    r.percent = 100.0 * (a - b) / a;
    r.kind = b == 0 && a > 0 ? Removed : Value;
    return r;
}

QString RelativeDifference::text(const QLocale& locale) const
{
    switch (kind) {
    case Value:
        return formatPercentChange(percent, locale);
    case New:
        return tr("new");
    case Removed:
        return tr("removed");
    case Blank:
        return {};
    }
    return {};
}

int ComparisonSnapshot::findMetric(const QString& name) const
{
    for (std::size_t m = 0; m < metrics.size(); ++m)
        if (metrics[m].metric.name == name)
            return static_cast<int>(m);
    return -1;
}

int ComparisonSnapshot::findEvent(const QString& name) const
{
    if (diff) {
        const EventId e = diff->findEvent(name);
        if (e.isValid() && e.index() < eventOfDiff.size())
            return eventOfDiff[e.index()];
    }
    for (std::size_t k = 0; k < events.size(); ++k)
        if (events[k].name == name)
            return static_cast<int>(k);
    return -1;
}

bool ComparisonSnapshot::higherIsBetter(int metric) const
{
    return metric >= 0 && static_cast<std::size_t>(metric) < metrics.size()
        && metrics[static_cast<std::size_t>(metric)].metric.higherIsBetter;
}

std::shared_ptr<const ComparisonSnapshot> ComparisonBuilder::build(std::shared_ptr<const Trial> a,
    std::shared_ptr<const Trial> b, const AlgebraOptions& options, const StageCallback& stage,
    const std::atomic_bool* cancel)
{
    auto s = std::make_shared<ComparisonSnapshot>();
    s->a = std::move(a);
    s->b = std::move(b);
    s->options = options;
    if (!s->a || !s->b) {
        s->error = tr("Two trials are needed for a comparison.");
        return s;
    }
    const Trial& ta = *s->a;
    const Trial& tb = *s->b;
    auto report = [&](int step, const QString& name) {
        if (stage)
            stage(step, name);
    };

    report(0, tr("Computing the difference A − B"));
    const AlgebraResult result = difference(ta, tb, options);
    if (!result) {
        s->error = result.error();
        return s;
    }
    if (cancelled(cancel))
        return s;

    report(1, tr("Matching events and threads"));
    const std::vector<const Trial*> operands { &ta, &tb };
    const EventMatch match = matchEvents(operands, options.match);
    QString threadError;
    const auto mapping = mapThreads(operands, options.threads, &threadError);
    if (!mapping) {
        s->error = threadError;
        return s;
    }
    const Trial& diff = *result.trial();
    s->relation = mapping->relation;
    s->appliedPolicy = mapping->applied;
    s->threads = mapping->threads;
    s->threadsOfA.assign(s->threads.size(), {});
    s->threadsOfB.assign(s->threads.size(), {});
    for (std::size_t t = 0; t < ta.threadCount(); ++t)
        s->threadsOfA[mapping->map[0][t]].push_back(ThreadIndex(t));
    for (std::size_t t = 0; t < tb.threadCount(); ++t)
        s->threadsOfB[mapping->map[1][t]].push_back(ThreadIndex(t));

    // Events: the match keys, which are the diff's events.
    const auto presence = Presence::of(diff);
    s->events.resize(match.keys.size());
    s->eventOfDiff.assign(diff.eventCount(), -1);
    for (std::size_t k = 0; k < match.keys.size(); ++k) {
        ComparisonEvent& event = s->events[k];
        event.name = match.keys[k];
        event.diff = diff.findEvent(match.keys[k]);
        if (event.diff.isValid()) {
            s->eventOfDiff[event.diff.index()] = static_cast<int>(k);
            event.depth = diff.event(event.diff).depth;
        } else {
            event.depth = static_cast<int>(match.keys[k].count(QStringLiteral(" => "))) + 1;
        }
    }
    s->eventMapA.assign(ta.eventCount(), -1);
    s->eventMapB.assign(tb.eventCount(), -1);
    for (std::size_t e = 0; e < ta.eventCount(); ++e) {
        const std::uint32_t k = match.map[0][e];
        if (k != EventMatch::Dropped) {
            s->eventMapA[e] = static_cast<int>(k);
            s->events[k].inA.push_back(EventId(e));
        }
    }
    for (std::size_t e = 0; e < tb.eventCount(); ++e) {
        const std::uint32_t k = match.map[1][e];
        if (k != EventMatch::Dropped) {
            s->eventMapB[e] = static_cast<int>(k);
            s->events[k].inB.push_back(EventId(e));
        }
    }
    for (ComparisonEvent& event : s->events) {
        if (presence && !presence->isEmpty() && event.diff.isValid()) {
            event.marker = presence->eventMarker(event.diff);
        } else {
            event.marker = event.inA.empty() ? Presence::Marker::RightOnly
                : event.inB.empty()          ? Presence::Marker::LeftOnly
                                             : Presence::Marker::All;
        }
    }
    s->warnings = match.collisions;
    if (match.dropped > 0)
        s->warnings << tr("%1 events dropped by the match policy (TAU_PARAM events under ROUTINE)").arg(match.dropped);
    if (cancelled(cancel))
        return s;

    // Metrics: the diff's (the union by name).
    for (std::size_t m = 0; m < diff.metricCount(); ++m) {
        ComparisonMetric metric;
        metric.inDiff = MetricId(m);
        metric.inA = ta.findMetric(diff.metric(MetricId(m)).name);
        metric.inB = tb.findMetric(diff.metric(MetricId(m)).name);
        metric.metric = metric.inA.isValid() ? ta.metric(metric.inA)
            : metric.inB.isValid()           ? tb.metric(metric.inB)
                                             : diff.metric(MetricId(m));
        s->metrics.push_back(metric);
    }

    report(2, tr("Statistics of A"));
    s->statsA = TrialStatistics::of(ta);
    if (cancelled(cancel))
        return s;
    report(3, tr("Statistics of B"));
    s->statsB = TrialStatistics::of(tb);
    if (cancelled(cancel))
        return s;

    report(4, tr("Call tree and run times"));
    s->tree = CallTree::of(diff);
    for (const ComparisonMetric& metric : s->metrics) {
        s->runTimeA.push_back(runTime(ta, *s->statsA, metric.inA));
        s->runTimeB.push_back(runTime(tb, *s->statsB, metric.inB));
    }
    const auto metaA = trialMetadata(ta);
    const auto metaB = trialMetadata(tb);
    std::map<QString, MetadataComparison> meta;
    for (const auto& [key, value] : metaA) {
        meta[key].key = key;
        meta[key].a = value;
    }
    for (const auto& [key, value] : metaB) {
        meta[key].key = key;
        meta[key].b = value;
    }
    for (auto& [key, row] : meta)
        s->metadata.push_back(std::move(row));

    s->diff = result.trial();
    return s;
}

std::shared_ptr<const ComparisonValues> ComparisonBuilder::values(
    const ComparisonSnapshot& snapshot, const ComparisonQuery& query)
{
    auto values = std::make_shared<ComparisonValues>();
    values->query = query;
    values->entries.resize(snapshot.events.size());
    if (!snapshot.ok() || query.metric < 0 || static_cast<std::size_t>(query.metric) >= snapshot.metrics.size())
        return values;
    const ComparisonMetric& metric = snapshot.metrics[static_cast<std::size_t>(query.metric)];
    constexpr auto excl = static_cast<std::size_t>(CompareValue::Exclusive);
    constexpr auto incl = static_cast<std::size_t>(CompareValue::Inclusive);
    constexpr auto calls = static_cast<std::size_t>(CompareValue::Calls);

    if (query.source != CompareSource::Thread) {
        const bool mean = query.source == CompareSource::Mean;
        auto pick = [mean](const Stat& s) { return mean ? s.meanAll : s.total; };
        auto fill = [&](const TrialStatistics& stats, const std::vector<EventId>& events, MetricId m,
                        std::array<double, CompareValueCount>& out, bool& present) {
            for (EventId e : events) {
                // Calls do not depend on the metric; a run without the metric still has them.
                out[calls] += pick(stats.stat(e, MetricId(0u), ValueKind::Calls));
                if (m.isValid()) {
                    out[excl] += pick(stats.stat(e, m, ValueKind::Exclusive));
                    out[incl] += pick(stats.stat(e, m, ValueKind::Inclusive));
                }
            }
            present = !events.empty() && m.isValid();
        };
        for (std::size_t k = 0; k < snapshot.events.size(); ++k) {
            const ComparisonEvent& event = snapshot.events[k];
            ComparisonEntry& entry = values->entries[k];
            fill(*snapshot.statsA, event.inA, metric.inA, entry.a, entry.inA);
            fill(*snapshot.statsB, event.inB, metric.inB, entry.b, entry.inB);
            // An event only defined (no cell anywhere) did not run.
            if (entry.inA && event.marker == Presence::Marker::RightOnly)
                entry.inA = false;
            if (entry.inB && event.marker == Presence::Marker::LeftOnly)
                entry.inB = false;
        }
        return values;
    }

    if (query.thread < 0 || static_cast<std::size_t>(query.thread) >= snapshot.threads.size())
        return values;
    const auto t = static_cast<std::size_t>(query.thread);
    auto fill = [&](const Trial& trial, const std::vector<ThreadIndex>& threads, const std::vector<int>& eventMap,
                    MetricId m, bool left) {
        for (ThreadIndex thread : threads) {
            const RowView row = trial.row(thread);
            for (std::size_t i = 0; i < row.size(); ++i) {
                const int k = eventMap[row.events[i].index()];
                if (k < 0)
                    continue;
                ComparisonEntry& entry = values->entries[static_cast<std::size_t>(k)];
                auto& out = left ? entry.a : entry.b;
                out[calls] += row.calls[i];
                if (m.isValid()) {
                    out[excl] += row.exclusive(m.index(), i);
                    out[incl] += row.inclusive(m.index(), i);
                }
                (left ? entry.inA : entry.inB) = true;
            }
        }
    };
    fill(*snapshot.a, snapshot.threadsOfA[t], snapshot.eventMapA, metric.inA, true);
    fill(*snapshot.b, snapshot.threadsOfB[t], snapshot.eventMapB, metric.inB, false);
    return values;
}

} // namespace parallax
