// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/advisor.h"

#include "algebra/instrumentationfiles.h"
#include "algebra/statistics.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>

namespace parallax {

namespace {

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
constexpr double Unit2048 = 2048;

/// The factor from a metric's unit to µs, or NaN for a metric that is not time.
double toMicros(const QString& unit)
{
    const QString u = unit.trimmed().toLower();
    if (u == QLatin1String("us") || u == QLatin1String("usec") || u == QStringLiteral("µs"))
        return 1;
    if (u == QLatin1String("ms") || u == QLatin1String("msec"))
        return 1e3;
    if (u == QLatin1String("s") || u == QLatin1String("sec") || u == QLatin1String("seconds"))
        return 1e6;
    if (u == QLatin1String("ns") || u == QLatin1String("nsec"))
        return 1e-3;
    return NaN;
}

/// TIME, else the first metric in a time unit.
MetricId timeMetric(const Trial& trial)
{
    const MetricId byName = trial.findMetric(QStringLiteral("TIME"));
    if (byName.isValid())
        return byName;
    for (std::size_t m = 0; m < trial.metricCount(); ++m)
        if (!std::isnan(toMicros(trial.metrics()[m].unit)))
            return MetricId(static_cast<std::uint32_t>(m));
    return {};
}

QString number(double v) { return QString::number(v, 'g', 10); }

} // namespace

// ---- 7.1 -----------------------------------------------------------------------------------------

std::optional<StaticCallGraph> parseStaticCallGraph(const QByteArray& json, QString* error)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    const auto fail = [&](const QString& message) -> std::optional<StaticCallGraph> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (pe.error != QJsonParseError::NoError)
        return fail(QStringLiteral("not JSON: %1 at offset %2").arg(pe.errorString()).arg(pe.offset));
    if (!doc.isObject() || !doc.object().value(QLatin1String("procedures")).isObject())
        return fail(QStringLiteral("expected {\"procedures\": {NAME: W, ...}, \"calls\": [[CALLER, CALLEE, L], ...]}"));
    StaticCallGraph graph;
    const QJsonObject procs = doc.object().value(QLatin1String("procedures")).toObject();
    QSet<QString> known;
    for (auto it = procs.begin(); it != procs.end(); ++it) {
        if (!it.value().isDouble() || it.value().toDouble() < 0)
            return fail(QStringLiteral("procedure '%1': W must be a number ≥ 0").arg(it.key()));
        graph.procedures.push_back({ it.key(), it.value().toDouble() });
        known.insert(it.key());
    }
    const QJsonArray calls = doc.object().value(QLatin1String("calls")).toArray();
    for (const QJsonValue c : calls) {
        const QJsonArray a = c.toArray();
        if (a.size() != 3 || !a[0].isString() || !a[1].isString() || !a[2].isDouble() || a[2].toDouble() < 0)
            return fail(QStringLiteral("a call is [CALLER, CALLEE, L] with L ≥ 0"));
        for (int k = 0; k < 2; ++k)
            if (!known.contains(a[k].toString()))
                return fail(QStringLiteral("call names unknown procedure '%1'").arg(a[k].toString()));
        graph.calls.push_back({ a[0].toString(), a[1].toString(), a[2].toInt() });
    }
    return graph;
}

std::vector<OpenUhScore> openUhScores(const StaticCallGraph& graph, double threshold)
{
    const std::size_t n = graph.procedures.size();
    QHash<QString, int> index;
    for (std::size_t i = 0; i < n; ++i)
        index.insert(graph.procedures[i].name, static_cast<int>(i));
    std::vector<std::vector<int>> callees(n);
    std::vector<OpenUhScore> out(n);
    for (std::size_t i = 0; i < n; ++i) {
        out[i].name = graph.procedures[i].name;
        out[i].weight = graph.procedures[i].weight;
    }
    for (const StaticCallSite& c : graph.calls) {
        const int from = index.value(c.caller, -1);
        const int to = index.value(c.callee, -1);
        if (from < 0 || to < 0)
            continue;
        callees[from].push_back(to);
        out[to].loopDepth = std::max(out[to].loopDepth, c.loopDepth);
    }
    // Tarjan's strongly connected components: they come out callees first (reverse topological).
    std::vector<int> order(n, -1);
    std::vector<int> low(n, 0);
    std::vector<int> component(n, -1);
    std::vector<bool> onStack(n, false);
    std::vector<int> stack;
    std::vector<std::vector<int>> components;
    int counter = 0;
    const std::function<void(int)> visit = [&](int v) {
        order[v] = low[v] = counter++;
        stack.push_back(v);
        onStack[v] = true;
        for (const int w : callees[v]) {
            if (order[w] < 0) {
                visit(w);
                low[v] = std::min(low[v], low[w]);
            } else if (onStack[w]) {
                low[v] = std::min(low[v], order[w]);
            }
        }
        if (low[v] == order[v]) {
            std::vector<int> members;
            int w = -1;
            do {
                w = stack.back();
                stack.pop_back();
                onStack[w] = false;
                component[w] = static_cast<int>(components.size());
                members.push_back(w);
            } while (w != v);
            components.push_back(std::move(members));
        }
    };
    for (std::size_t v = 0; v < n; ++v)
        if (order[v] < 0)
            visit(static_cast<int>(v));
    for (const auto& members : components)
        for (const int p : members) {
            OpenUhScore& s = out[p];
            s.instrumentedCallees = 0;
            for (const int q : callees[p])
                if (component[q] == component[p] || out[q].instrument)
                    ++s.instrumentedCallees;
            s.loop = (100.0 - s.loopDepth) * Unit2048;
            s.callsite = s.instrumentedCallees * Unit2048 * Unit2048;
            s.score = s.weight + s.callsite + s.loop;
            s.instrument = s.score >= threshold;
        }
    return out;
}

// ---- names ---------------------------------------------------------------------------------------

QString excludeListName(const QString& eventName)
{
    QString s = matchComponent(eventName.simplified(), EventMatchPolicy::NoSource).simplified();
    static const QString throttled = QStringLiteral("[THROTTLED]");
    if (s.endsWith(throttled))
        s = s.left(s.size() - throttled.size()).simplified();
    return s;
}

QStringList scorepPatterns(const QString& excludeName)
{
    const QString id = matchComponent(excludeName, EventMatchPolicy::Routine);
    if (id == excludeName || !excludeName.contains(QLatin1Char('(')))
        return { scorepEscape(excludeName) };
    // "int foo(int) C": Score-P names C routines "foo", C++ ones by their signature with or
    // without the return type; one pattern each (SEMANTICS 7.4).
    const QString e = scorepEscape(id);
    return { e, e + QStringLiteral("(*)"), QStringLiteral("*\\ ") + e + QStringLiteral("(*)") };
}

bool isThrottled(const Trial& trial, EventId e)
{
    return trial.event(e).name.trimmed().endsWith(QLatin1String("[THROTTLED]"))
        || trial.eventInGroup(e, QStringLiteral("TAU_DISABLE"));
}

ThrottleSettings throttleSettings(const Trial& trial)
{
    ThrottleSettings s;
    s.throttle = trial.metadataValue(QStringLiteral("TAU_THROTTLE"));
    s.numCalls = trial.metadataValue(QStringLiteral("TAU_THROTTLE_NUMCALLS"));
    s.perCall = trial.metadataValue(QStringLiteral("TAU_THROTTLE_PERCALL"));
    if (!trial.threads().empty()) {
        const ThreadIndex t0(0u);
        if (s.throttle.isEmpty())
            s.throttle = trial.metadataValue(QStringLiteral("TAU_THROTTLE"), t0);
        if (s.numCalls.isEmpty())
            s.numCalls = trial.metadataValue(QStringLiteral("TAU_THROTTLE_NUMCALLS"), t0);
        if (s.perCall.isEmpty())
            s.perCall = trial.metadataValue(QStringLiteral("TAU_THROTTLE_PERCALL"), t0);
    }
    return s;
}

// ---- 7.5 -----------------------------------------------------------------------------------------

int otf2RegionRefBytes(std::size_t regions)
{
    std::uint64_t largest = regions > 0 ? regions - 1 : 0;
    int bytes = 0;
    while (largest > 0) {
        ++bytes;
        largest >>= 8;
    }
    return 1 + bytes;
}

double bytesPerVisit(std::size_t regions)
{
    constexpr double timestamp = 9; // record id + 8-byte time
    const double enter = 1 + otf2RegionRefBytes(regions); // record id + compressed region reference
    return 2 * timestamp + 2 * enter;
}

// ---- Advice --------------------------------------------------------------------------------------

QStringList Advice::excludeNames(unsigned reasons) const
{
    QStringList out;
    for (const Suggestion& s : suggestions)
        if (s.reasons & reasons)
            out.append(s.name);
    if (reasons & ReasonUser)
        out.append(unknownUserNames);
    return out;
}

QStringList Advice::scorepPatterns(unsigned reasons) const
{
    QStringList out;
    for (const QString& n : excludeNames(reasons))
        if (!n.startsWith(QLatin1String("_Z")))
            out.append(parallax::scorepPatterns(n));
    return out;
}

QStringList Advice::scorepMangled(unsigned reasons) const
{
    QStringList out;
    for (const QString& n : excludeNames(reasons))
        if (n.startsWith(QLatin1String("_Z")))
            out.append(n);
    return out;
}

double Advice::visitsRemoved(unsigned reasons) const
{
    double v = 0;
    for (const Suggestion& s : suggestions)
        if (s.reasons & reasons)
            v += s.visits;
    return v;
}

double Advice::timeSavedMicros(unsigned reasons) const
{
    double t = 0;
    for (const Suggestion& s : suggestions)
        if (s.reasons & reasons)
            t += s.timeSavedMicros;
    return t;
}

QString reasonText(unsigned reasons)
{
    QStringList parts;
    if (reasons & ReasonLightweight)
        parts << QStringLiteral("lightweight");
    if (reasons & ReasonThrottled)
        parts << QStringLiteral("throttled");
    if (reasons & ReasonUser)
        parts << QStringLiteral("user");
    if (reasons & ReasonOpenUh)
        parts << QStringLiteral("OpenUH");
    return parts.join(QStringLiteral(", "));
}

std::vector<RulePreview> rulePreviews(const Advice& advice)
{
    std::vector<RulePreview> out;
    const unsigned all = ReasonLightweight | ReasonThrottled | ReasonUser | ReasonOpenUh;
    for (const unsigned r :
        { unsigned(ReasonLightweight), unsigned(ReasonThrottled), unsigned(ReasonUser), unsigned(ReasonOpenUh), all }) {
        RulePreview p;
        p.reason = r;
        for (const Suggestion& s : advice.suggestions)
            if (s.reasons & r) {
                ++p.routines;
                p.visits += s.visits;
                p.traceBytes += s.traceBytes;
                p.timeSavedMicros += s.timeSavedMicros;
            }
        if (p.routines > 0 || r == all)
            out.push_back(p);
    }
    return out;
}

QString tauSelectText(const Advice& advice) { return tauExcludeBlock(advice.excludeNames()); }

QString scorepFilterText(const Advice& advice)
{
    return writeScorepFilter(advice.scorepPatterns(), advice.scorepMangled(), {});
}

namespace {

/// Calls of flat events summed over all threads, and Σ_t T(t) of the metric.
struct RunTotals {
    double visits = 0;
    double sumTop = 0;
};

RunTotals runTotals(const Trial& trial, MetricId m)
{
    RunTotals r;
    const auto stats = TrialStatistics::of(trial);
    for (std::size_t e = 0; e < trial.eventCount(); ++e)
        if (!trial.events()[e].isCallPath())
            r.visits += stats->stat(EventId(static_cast<std::uint32_t>(e)), m, ValueKind::Calls).total;
    r.sumTop = stats->sumTopInclusive(m);
    return r;
}

OverheadReport overheadOf(const Trial& trial, MetricId m, double scale, const Trial& base,
    const EventMatching& matching, QStringList& warnings)
{
    OverheadReport r;
    r.baselineName = base.name();
    MetricId bm = base.findMetric(trial.metric(m).name);
    if (!bm.isValid())
        bm = timeMetric(base);
    const double baseScale = bm.isValid() ? toMicros(base.metric(bm).unit) : NaN;
    if (!bm.isValid() || std::isnan(baseScale)) {
        warnings.append(QStringLiteral("the baseline %1 has no time metric: no overhead").arg(base.name()));
        r.total = NaN;
        r.perCallMicros = NaN;
        return r;
    }
    const auto si = TrialStatistics::of(trial);
    const auto sb = TrialStatistics::of(base);
    const RunTotals ti = runTotals(trial, m);
    const RunTotals tb = runTotals(base, bm);
    const double ni = std::max<double>(1, static_cast<double>(trial.threadCount()));
    const double nb = std::max<double>(1, static_cast<double>(base.threadCount()));
    r.totalInstrumented = ti.sumTop / ni * scale;
    r.totalBaseline = tb.sumTop / nb * baseScale;
    r.total = r.totalBaseline > 0 ? (r.totalInstrumented - r.totalBaseline) / r.totalBaseline : NaN;
    r.visitsInstrumented = ti.visits;
    r.visitsBaseline = tb.visits;
    r.perCallMicros
        = ti.visits > tb.visits ? (ti.sumTop * scale - tb.sumTop * baseScale) / (ti.visits - tb.visits) : NaN;

    const EventMatch match = matchEvents({ &trial, &base }, matching);
    r.collisions = match.collisions;
    std::vector<OverheadRow> rows(match.keys.size());
    std::vector<char> inA(rows.size(), 0);
    std::vector<char> inB(rows.size(), 0);
    for (std::size_t k = 0; k < rows.size(); ++k)
        rows[k].name = match.keys[k];
    for (int op = 0; op < 2; ++op) {
        const Trial& t = op == 0 ? trial : base;
        const MetricId mm = op == 0 ? m : bm;
        const double sc = op == 0 ? scale : baseScale;
        const auto& st = op == 0 ? si : sb;
        for (std::size_t e = 0; e < t.eventCount(); ++e) {
            const std::uint32_t k = match.map[op][e];
            if (k == EventMatch::Dropped || t.events()[e].isCallPath())
                continue;
            const EventId id(static_cast<std::uint32_t>(e));
            const double v = st->stat(id, mm, ValueKind::Inclusive).meanAll * sc;
            if (op == 0) {
                rows[k].instrumented += v;
                rows[k].calls += st->stat(id, mm, ValueKind::Calls).meanAll;
                inA[k] = 1;
            } else {
                rows[k].baseline += v;
                inB[k] = 1;
            }
        }
    }
    std::vector<OverheadRow> both;
    std::vector<OverheadRow> rest;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        if (!inA[k] && !inB[k])
            continue;
        OverheadRow& row = rows[k];
        if (!inA[k])
            row.instrumented = NaN;
        if (!inB[k])
            row.baseline = NaN;
        row.overhead = inA[k] && inB[k] && row.baseline > 0 ? (row.instrumented - row.baseline) / row.baseline : NaN;
        (inA[k] && inB[k] ? both : rest).push_back(std::move(row));
    }
    std::stable_sort(both.begin(), both.end(), [](const OverheadRow& a, const OverheadRow& b) {
        return a.instrumented - a.baseline > b.instrumented - b.baseline;
    });
    r.rows = std::move(both);
    r.rows.insert(r.rows.end(), std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()));
    return r;
}

} // namespace

Advice advise(const Trial& trial, const Trial* baseline, const AdvisorOptions& options)
{
    Advice a;
    a.trialName = trial.name();
    a.threads = trial.threadCount();
    a.rule = options.rule;
    a.throttle = throttleSettings(trial);
    const MetricId m = timeMetric(trial);
    if (!m.isValid()) {
        a.warnings.append(
            QStringLiteral("%1 has no time metric: the lightweight rule and the overhead need one").arg(trial.name()));
        a.metricToMicros = NaN;
    } else {
        a.metricName = trial.metric(m).name;
        a.metricToMicros = toMicros(trial.metric(m).unit);
        if (std::isnan(a.metricToMicros))
            a.metricToMicros = 1; // TIME without a unit: TAU's µs
    }
    if (baseline && m.isValid())
        a.overhead = overheadOf(trial, m, a.metricToMicros, *baseline, options.matching, a.warnings);
    double perCall = options.callOverheadMicros.value_or(NaN);
    if (!options.callOverheadMicros && a.overhead)
        perCall = a.overhead->perCallMicros;

    // Region definitions: the flat events.
    std::vector<EventId> flat;
    for (std::size_t e = 0; e < trial.eventCount(); ++e)
        if (!trial.events()[e].isCallPath())
            flat.push_back(EventId(static_cast<std::uint32_t>(e)));
    a.trace.regions = flat.size();
    a.trace.bytesPerVisit = bytesPerVisit(flat.size());

    // The user's names, in exclude-list spelling.
    std::set<QString> userNames;
    for (const QString& n : options.userExclude)
        if (!excludeListName(n).isEmpty())
            userNames.insert(excludeListName(n));
    std::set<QString> keep;
    for (const QString& n : options.keep)
        keep.insert(excludeListName(n));
    std::set<QString> matchedUser;

    const std::vector<OpenUhScore> scores = [&] {
        const QString json = trial.metadataValue(QLatin1String(StaticCallGraphKey));
        if (json.isEmpty())
            return std::vector<OpenUhScore> {};
        QString error;
        const auto graph = parseStaticCallGraph(json.toUtf8(), &error);
        if (!graph) {
            a.warnings.append(QStringLiteral("metadata '%1': %2").arg(QLatin1String(StaticCallGraphKey), error));
            return std::vector<OpenUhScore> {};
        }
        return openUhScores(*graph, options.openUhThreshold);
    }();
    a.openUh = scores;
    QHash<QString, const OpenUhScore*> skipByName;
    for (const OpenUhScore& s : scores)
        if (!s.instrument)
            skipByName.insert(s.name, &s);

    const auto stats = TrialStatistics::of(trial);
    const double n = std::max<double>(1, static_cast<double>(trial.threadCount()));
    std::map<QString, Suggestion> byName;
    std::vector<QString> flatNames(trial.eventCount());
    for (const EventId e : flat) {
        const QString name = excludeListName(trial.event(e).name);
        flatNames[e.index()] = name;
        unsigned reasons = 0;
        QStringList why;
        double meanCalls = 0;
        double meanIncl = 0;
        double perCallUs = NaN;
        double visits = 0;
        if (m.isValid()) {
            const Stat& calls = stats->stat(e, m, ValueKind::Calls);
            const Stat& incl = stats->stat(e, m, ValueKind::Inclusive);
            visits = calls.total;
            meanCalls = options.rule.presentOnlyMean ? calls.meanPresent : calls.meanAll;
            meanIncl = (options.rule.presentOnlyMean ? incl.meanPresent : incl.meanAll) * a.metricToMicros;
            perCallUs = meanCalls > 0 ? meanIncl / meanCalls : NaN;
            if (meanCalls >= options.rule.minCalls && meanCalls > 0 && perCallUs <= options.rule.maxMicrosPerCall) {
                reasons |= ReasonLightweight;
                why.append(QStringLiteral("lightweight: %1 calls (mean) ≥ %2 and %3 µs per call ≤ %4")
                               .arg(number(meanCalls), number(options.rule.minCalls), number(perCallUs),
                                   number(options.rule.maxMicrosPerCall)));
            }
        } else {
            for (std::size_t t = 0; t < trial.threadCount(); ++t) {
                const RowView row = trial.row(ThreadIndex(static_cast<std::uint32_t>(t)));
                const std::ptrdiff_t i = row.find(e);
                if (i >= 0)
                    visits += row.calls[static_cast<std::size_t>(i)];
            }
        }
        if (isThrottled(trial, e)) {
            reasons |= ReasonThrottled;
            why.append(QStringLiteral("throttled by TAU: measurement stopped, its later time is in its callers"));
            a.throttledWarnings.append(
                QStringLiteral("'%1' is throttled (TAU_THROTTLE%2): TAU stopped measuring it, so the time of its later "
                               "calls is counted in its callers' exclusive time")
                    .arg(trial.event(e).name,
                        a.throttle.recorded() ? QStringLiteral(" %1, NUMCALLS %2, PERCALL %3 µs")
                                                    .arg(a.throttle.throttle, a.throttle.numCalls, a.throttle.perCall)
                                              : QString()));
        }
        if (userNames.count(name)) {
            reasons |= ReasonUser;
            matchedUser.insert(name);
            why.append(QStringLiteral("selected by the user"));
        }
        if (const OpenUhScore* s = skipByName.value(matchComponent(name, EventMatchPolicy::Routine))) {
            reasons |= ReasonOpenUh;
            why.append(QStringLiteral("OpenUH score %1 < %2").arg(number(s->score), number(options.openUhThreshold)));
        }
        if (!reasons)
            continue;
        if (keep.count(name)) {
            a.kept.append(name);
            continue;
        }
        Suggestion& s = byName[name];
        if (!s.event.isValid()) {
            s.event = e;
            s.name = name;
            s.meanCalls = meanCalls;
            s.meanInclusiveMicros = meanIncl;
            s.microsPerCall = perCallUs;
        } else {
            // Two events with one exclude-list name (the same routine, two source locations): the
            // file lists it once; the counts add.
            s.meanCalls += meanCalls;
            s.meanInclusiveMicros += meanIncl;
            s.microsPerCall = s.meanCalls > 0 ? s.meanInclusiveMicros / s.meanCalls : NaN;
        }
        s.reasons |= reasons;
        for (const QString& w : why)
            if (!s.why.contains(w))
                s.why += (s.why.isEmpty() ? QString() : QStringLiteral("; ")) + w;
        s.visits += visits;
    }
    for (auto& [name, s] : byName) {
        s.scorep = name.startsWith(QLatin1String("_Z")) ? QStringList { scorepEscape(name) } : scorepPatterns(name);
        s.traceBytes = s.visits * a.trace.bytesPerVisit;
        s.timeSavedMicros = s.visits / n * perCall;
        a.suggestions.push_back(s);
    }
    for (const QString& u : userNames)
        if (!matchedUser.count(u) && !keep.count(u))
            a.unknownUserNames.append(u);

    // 7.5: bytes per process before and after excluding the suggestions.
    std::vector<char> excluded(trial.eventCount(), 0);
    for (const EventId e : flat)
        if (byName.count(flatNames[e.index()]))
            excluded[e.index()] = 1;
    std::map<std::int32_t, std::pair<double, double>> perProcess;
    for (std::size_t t = 0; t < trial.threadCount(); ++t) {
        const ThreadIndex ti(static_cast<std::uint32_t>(t));
        const RowView row = trial.row(ti);
        auto& [before, after] = perProcess[trial.threadKey(ti).node];
        for (std::size_t i = 0; i < row.size(); ++i) {
            const EventId e = row.events[i];
            if (trial.event(e).isCallPath())
                continue;
            const double bytes = row.calls[i] * a.trace.bytesPerVisit;
            before += bytes;
            if (!excluded[e.index()])
                after += bytes;
        }
    }
    for (const auto& [node, ba] : perProcess) {
        a.trace.processes.push_back(node);
        a.trace.before.push_back(ba.first);
        a.trace.after.push_back(ba.second);
        a.trace.totalBefore += ba.first;
        a.trace.totalAfter += ba.second;
        a.trace.maxBefore = std::max(a.trace.maxBefore, ba.first);
        a.trace.maxAfter = std::max(a.trace.maxAfter, ba.second);
    }
    return a;
}

} // namespace parallax
