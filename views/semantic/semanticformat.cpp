// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/semantic/semanticformat.h"

#include "algebra/statistics.h"
#include "views/charts/colors.h"
#include "views/common/valueformatter.h"

#include <QCoreApplication>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace parallax::semanticview {

using namespace parallax::semantic;

QString policyBadge(const ResolvedEntity& entity)
{
    if (entity.isUnmapped())
        return QStringLiteral("(unmapped)");
    QStringList parts;
    auto has = [&](Policy p) { return (entity.policies >> static_cast<unsigned>(p)) & 1u; };
    if (has(Policy::Direct))
        parts << QStringLiteral("DIRECT");
    if (has(Policy::Amortize))
        parts << QStringLiteral("AMORTIZE ≈");
    if (has(Policy::Weighted))
        parts << QStringLiteral("WEIGHTED ≈");
    if (has(Policy::Aggregate) || entity.isAggregate())
        parts << QStringLiteral("AGGREGATE");
    return parts.join(QStringLiteral(", "));
}

QString shortBadge(const ResolvedEntity& entity)
{
    if (entity.isAggregate())
        return QStringLiteral("Σ");
    if (entity.estimate)
        return QStringLiteral("≈");
    return {};
}

QString scopeText(const Trial& trial, const Scope& scope)
{
    switch (scope.kind) {
    case Scope::Kind::Thread:
        if (scope.thread.isValid() && scope.thread.index() < trial.threadCount())
            return QCoreApplication::translate("SemanticView", "thread %1")
                .arg(trial.threadKey(scope.thread).toString());
        return QCoreApplication::translate("SemanticView", "thread ?");
    case Scope::Kind::Mean:
        return QCoreApplication::translate(
            "SemanticView", "mean over %n thread(s)", nullptr, static_cast<int>(trial.threadCount()));
    case Scope::Kind::Total:
        return QCoreApplication::translate(
            "SemanticView", "total over %n thread(s)", nullptr, static_cast<int>(trial.threadCount()));
    }
    return {};
}

QColor entityColor(const ResolvedEntity& entity)
{
    if (entity.isUnmapped())
        return QColor(0xa0, 0xa0, 0xa0);
    return eventColor(entity.id);
}

std::vector<int> entityDepths(const SemanticProfile& profile)
{
    const auto& entities = profile.entities();
    std::vector<int> depth(entities.size(), 0);
    // postOrder() lists children first: walk it backwards so that parents come first.
    const auto& order = profile.postOrder();
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const int parent = entities[static_cast<std::size_t>(*it)].parent;
        depth[static_cast<std::size_t>(*it)] = parent >= 0 ? depth[static_cast<std::size_t>(parent)] + 1 : 0;
    }
    return depth;
}

QString formatValue(const SemanticProfile* profile, MetricId m, TimeUnit unit, double value)
{
    if (!profile || m.index() >= profile->trial().metricCount())
        return formatNumber(value, groupingLocale());
    return formatMetricValue(value, profile->trial().metric(m), unit, groupingLocale());
}

QString formatValue(const SemanticProfile* profile, MetricId m, TimeUnit unit, double value, int decimals)
{
    if (!profile || m.index() >= profile->trial().metricCount())
        return formatNumber(value, groupingLocale());
    return formatMetricValue(value, profile->trial().metric(m), unit, groupingLocale(), decimals);
}

int columnDecimals(const SemanticProfile* profile, MetricId m, TimeUnit unit, const std::vector<double>& values)
{
    if (!profile || m.index() >= profile->trial().metricCount())
        return -1;
    return parallax::columnDecimals(values, profile->trial().metric(m).isTime(), unit);
}

int maxDepth(const SemanticProfile& profile)
{
    const auto depth = entityDepths(profile);
    return depth.empty() ? 0 : *std::max_element(depth.begin(), depth.end());
}

std::vector<Slice> cut(const SemanticProfile& profile, int depth)
{
    std::vector<Slice> slices;
    const auto depths = entityDepths(profile);
    const bool leaves = depth < 0;
    // Parents before children, so that a (self) part sits next to its entity's children.
    std::vector<int> order;
    std::vector<int> stack(profile.roots().rbegin(), profile.roots().rend());
    while (!stack.empty()) {
        const int r = stack.back();
        stack.pop_back();
        order.push_back(r);
        const auto& children = profile.entity(r).children;
        for (auto it = children.rbegin(); it != children.rend(); ++it)
            stack.push_back(*it);
    }
    for (int r : order) {
        const ResolvedEntity& e = profile.entity(r);
        const int d = depths[static_cast<std::size_t>(r)];
        const bool hasChildren = !e.children.empty();
        if (e.aggregatedMember && !hasChildren)
            continue; // n/a (aggregated): the aggregate holds the value
        if (!leaves && d > depth)
            continue;
        if ((leaves || d < depth) && hasChildren) {
            slices.push_back({ r, true, e.name + QCoreApplication::translate("SemanticView", " (self)"),
                entityColor(e).lighter(135) });
            continue;
        }
        slices.push_back({ r, false, e.name, entityColor(e) });
    }
    return slices;
}

double sliceValue(const SemanticProfile& p, const Slice& s, ThreadIndex t, MetricId m)
{
    return s.self ? p.own(s.entity, t, m) : p.roll(s.entity, t, m);
}

double sliceValue(const SemanticProfile& p, const Slice& s, MetricId m, const Scope& scope)
{
    return p.scoped(s.entity, m, s.self ? Quantity::Own : Quantity::Roll, scope);
}

namespace {

/// A per-thread number of the scope's thread, or its sum over all threads.
template <typename PerThread> double threadSum(const SemanticProfile& p, const Scope& scope, PerThread perThread)
{
    if (scope.kind == Scope::Kind::Thread)
        return perThread(scope.thread);
    double sum = 0;
    for (std::size_t t = 0; t < p.threadCount(); ++t)
        sum += perThread(ThreadIndex(t));
    return sum;
}

} // namespace

double sourceTotal(const SemanticProfile& p, MetricId m, const Scope& scope)
{
    const double sum = threadSum(p, scope, [&](ThreadIndex t) { return p.sourceTotal(t, m); });
    if (scope.kind == Scope::Kind::Mean && p.threadCount() > 0)
        return sum / static_cast<double>(p.threadCount());
    return sum;
}

double attributedTotal(const SemanticProfile& p, MetricId m, const Scope& scope)
{
    double sum = 0;
    for (std::size_t r = 0; r < p.entities().size(); ++r)
        sum += p.scoped(static_cast<int>(r), m, Quantity::Own, scope);
    return sum;
}

double scopeTop(const SemanticProfile& p, MetricId m, const Scope& scope)
{
    return threadSum(p, scope, [&](ThreadIndex t) { return p.threadTop(t, m); });
}

double eventExclusive(const Trial& trial, EventId e, MetricId m, const Scope& scope)
{
    if (scope.kind == Scope::Kind::Thread) {
        if (!scope.thread.isValid() || scope.thread.index() >= trial.threadCount())
            return 0;
        const RowView row = trial.row(scope.thread);
        const std::ptrdiff_t i = row.find(e);
        return i < 0 ? 0.0 : row.exclusive(m.index(), static_cast<std::size_t>(i));
    }
    // Cached per trial (the attribution job computes it off the GUI thread).
    const Stat& stat = TrialStatistics::of(trial)->stat(e, m, ValueKind::Exclusive);
    return scope.kind == Scope::Kind::Total ? stat.total : stat.meanAll;
}

namespace {
void collectSubtree(const SemanticProfile& p, int r, std::vector<int>& out)
{
    out.push_back(r);
    const ResolvedEntity& e = p.entity(r);
    for (int c : e.children)
        collectSubtree(p, c, out);
    // An aggregate's members have no own values; the events went to the aggregate.
    for (int member : e.members)
        if (member != r)
            out.push_back(member);
}
} // namespace

std::vector<EventId> contributingEvents(const SemanticProfile& p, int entity)
{
    if (entity < 0)
        return {};
    std::vector<int> subtree;
    collectSubtree(p, entity, subtree);
    std::vector<char> in(p.entities().size(), 0);
    for (int r : subtree)
        in[static_cast<std::size_t>(r)] = 1;
    // A member of an aggregate: the aggregates it belongs to carry its events.
    for (std::size_t r = 0; r < p.entities().size(); ++r)
        for (int member : p.entity(static_cast<int>(r)).members)
            if (in[static_cast<std::size_t>(member)])
                in[r] = 1;
    std::vector<EventId> events;
    for (const Edge& edge : p.edges())
        if (edge.entity >= 0 && in[static_cast<std::size_t>(edge.entity)]
            && (events.empty() || events.back() != edge.event)
            && std::find(events.begin(), events.end(), edge.event) == events.end())
            events.push_back(edge.event);
    return events;
}

EventId dominantEvent(const SemanticProfile& p, int entity, MetricId m)
{
    const auto events = contributingEvents(p, entity);
    EventId best;
    double bestValue = -1;
    for (EventId e : events) {
        const double v = std::abs(eventExclusive(p.trial(), e, m, Scope::total()));
        if (v > bestValue) {
            bestValue = v;
            best = e;
        }
    }
    return best;
}

} // namespace parallax::semanticview
