// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/semanticcommand.h"

#include "algebra/semanticbuiltin.h"
#include "algebra/units.h"
#include "app/cli/algebracommand.h"
#include "app/cli/commandline.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace parallax {

using namespace semantic;

namespace {

int fail(const QString& message) { return cli::failure(message); }

/// The GUI's number format (algebra/units.h, as the semantic Profile tab shows it): time in ms,
/// counters with SI prefixes, with digit grouping.
QLocale textLocale() { return QLocale(QLocale::English, QLocale::UnitedStates); }

/// A value of a column sharing `decimals` (columnDecimals), in ms for time; "—" for no number.
QString number(double v, const Metric& metric, int decimals)
{
    if (!std::isfinite(v))
        return QStringLiteral("—");
    return formatMetricValue(v, metric, TimeUnit::Milliseconds, textLocale(), decimals);
}

/// Calls as the Profile tab writes them: the column's one decimals count (0 when all are whole).
QString callsText(double v, int decimals)
{
    if (!std::isfinite(v))
        return QStringLiteral("—");
    return formatCount(v, textLocale(), decimals);
}

QString percent(double v)
{
    return std::isfinite(v) ? withoutNegativeZero(textLocale().toString(v, 'f', 2)) + QStringLiteral(" %")
                            : QStringLiteral("—");
}

QString badge(const ResolvedEntity& e)
{
    if (e.isUnmapped())
        return QStringLiteral("unmapped");
    QStringList parts;
    for (const Policy p : { Policy::Direct, Policy::Amortize, Policy::Weighted, Policy::Aggregate })
        if (e.policies & (1u << static_cast<unsigned>(p)))
            parts << policyName(p);
    QString s = parts.join(QLatin1Char('+'));
    if (e.estimate)
        s += QStringLiteral(" ≈");
    return s;
}

QString classification(const SemanticProfile& p, const ResolvedEntity& e)
{
    return e.component >= 0 ? classificationShort(p.components()[static_cast<std::size_t>(e.component)].kind)
                            : QString();
}

MetricId metricOf(const SemanticProfile& p, const SemanticReportOptions& o)
{
    if (o.metric.isEmpty())
        return MetricId(0u);
    return p.trial().findMetric(o.metric);
}

QString scopeText(const SemanticProfile& p, const Scope& s)
{
    switch (s.kind) {
    case Scope::Kind::Thread:
        return QStringLiteral("thread %1").arg(p.trial().threadKey(s.thread).toString());
    case Scope::Kind::Mean:
        return QStringLiteral("mean over %1 thread(s)").arg(p.threadCount());
    case Scope::Kind::Total:
        return QStringLiteral("total over %1 thread(s)").arg(p.threadCount());
    }
    return {};
}

/// Children sorted by roll-up value, largest first.
std::vector<int> sortedChildren(const SemanticProfile& p, const std::vector<int>& ids, MetricId m, const Scope& s)
{
    std::vector<std::pair<double, int>> keyed;
    keyed.reserve(ids.size());
    for (int r : ids)
        keyed.emplace_back(p.scoped(r, m, Quantity::Roll, s), r);
    std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& a, const auto& b) {
        // (unmapped) last among the roots.
        const bool ua = p.entity(a.second).isUnmapped(), ub = p.entity(b.second).isUnmapped();
        if (ua != ub)
            return ub;
        return std::abs(a.first) > std::abs(b.first);
    });
    std::vector<int> out;
    out.reserve(keyed.size());
    for (const auto& [v, r] : keyed)
        out.push_back(r);
    return out;
}

} // namespace

QString semanticReport(const SemanticProfile& p, const SemanticReportOptions& o)
{
    const MetricId m = metricOf(p, o);
    if (!m.isValid())
        return QStringLiteral("no metric '%1' in this trial\n").arg(o.metric);
    const Scope& s = o.scope;
    QString out;
    // The unit the values are shown in, as the GUI names it: "ms" for time.
    const QString unit = unitLabel(p.trial().metric(m), TimeUnit::Milliseconds);
    out += QStringLiteral("Semantic profile of '%1' through '%2' (%3 source, metric %4%5, %6)\n")
               .arg(p.trial().name(), p.model().name,
                   p.model().source == SourceSet::Flat ? QStringLiteral("flat") : QStringLiteral("call-path"),
                   p.trial().metric(m).name, unit.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(unit),
                   scopeText(p, s));
    const Metric& metric = p.trial().metric(m);
    struct Row {
        QString name, kind, value, calls, total, parent, incl, policy, map;
    };
    /// The numbers of a row's value and inclusive cells, formatted once their columns' decimals
    /// are known; NaN where the cell has text of its own.
    struct Numbers {
        double value;
        double incl;
        double calls;
        QString prefix;
    };
    constexpr double none = std::numeric_limits<double>::quiet_NaN();
    std::vector<Row> rows;
    std::vector<Numbers> numbers;
    rows.push_back({ QStringLiteral("Entity"), QStringLiteral("Kind"), QStringLiteral("Value"), QStringLiteral("Calls"),
        QStringLiteral("%Total"), QStringLiteral("%Parent"), QStringLiteral("Inclusive"), QStringLiteral("Policy"),
        QStringLiteral("Map") });
    numbers.push_back({ none, none, none, QString() });
    std::function<void(int, int)> walk = [&](int r, int depth) {
        const ResolvedEntity& e = p.entity(r);
        const QString indent(qsizetype { depth } * 2, QLatin1Char(' '));
        const bool na = e.aggregatedMember && !p.entity(r).policies && p.scoped(r, m, Quantity::Roll, s) == 0;
        const QString approx = e.estimate ? QStringLiteral("≈") : QString();
        Row row { indent + e.name, e.kind, na ? QStringLiteral("n/a (aggregated)") : QString(), QString(),
            na ? QString() : percent(p.percentOfTotal(r, m, s)), na ? QString() : percent(p.percentOfParent(r, m, s)),
            p.inclusiveDerivable(r) ? QString() : QStringLiteral("not derivable"), badge(e), classification(p, e) };
        rows.push_back(row);
        numbers.push_back({ na ? none : p.scoped(r, m, Quantity::Roll, s),
            p.inclusiveDerivable(r) ? p.scoped(r, m, Quantity::Inclusive, s) : none,
            na ? none : p.scoped(r, m, Quantity::Calls, s), approx });
        const std::vector<int> kids = sortedChildren(p, e.children, m, s);
        for (int c : kids)
            walk(c, depth + 1);
        const double own = p.scoped(r, m, Quantity::Own, s);
        if (!e.children.empty() && own != 0) {
            const double roll = p.scoped(r, m, Quantity::Roll, s);
            Row self { indent + QStringLiteral("  (self)"), QString(), QString(), QString(), QString(),
                roll != 0 ? percent(100 * own / roll) : QStringLiteral("—"), QString(), QString(), QString() };
            rows.push_back(self);
            numbers.push_back({ own, none, p.scoped(r, m, Quantity::Calls, s), approx });
        }
    };
    for (int r : sortedChildren(p, p.roots(), m, s))
        walk(r, 0);
    // One decimals count per column (the Profile tab's rule): the smallest value keeps 2
    // significant digits.
    std::vector<double> valueNumbers;
    std::vector<double> inclNumbers;
    std::vector<double> callNumbers;
    for (const Numbers& n : numbers) {
        valueNumbers.push_back(n.value);
        inclNumbers.push_back(n.incl);
        callNumbers.push_back(n.calls);
    }
    const int valueDecimals = columnDecimals(valueNumbers, metric.isTime(), TimeUnit::Milliseconds);
    const int inclDecimals = columnDecimals(inclNumbers, metric.isTime(), TimeUnit::Milliseconds);
    const int callDecimals = columnDecimals(callNumbers, false, TimeUnit::Milliseconds);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (std::isfinite(numbers[i].value))
            rows[i].value = numbers[i].prefix + number(numbers[i].value, metric, valueDecimals);
        if (std::isfinite(numbers[i].incl))
            rows[i].incl = number(numbers[i].incl, metric, inclDecimals);
        if (std::isfinite(numbers[i].calls))
            rows[i].calls = numbers[i].prefix + callsText(numbers[i].calls, callDecimals);
    }
    std::vector<int> width(9, 0);
    for (const Row& r : rows) {
        const QString cells[] = { r.name, r.kind, r.value, r.calls, r.total, r.parent, r.incl, r.policy, r.map };
        for (int i = 0; i < 9; ++i)
            width[static_cast<std::size_t>(i)]
                = std::max(width[static_cast<std::size_t>(i)], static_cast<int>(cells[i].size()));
    }
    width[0] = std::min(width[0], 60);
    for (const Row& r : rows) {
        const QString cells[] = { r.name, r.kind, r.value, r.calls, r.total, r.parent, r.incl, r.policy, r.map };
        QString line;
        for (int i = 0; i < 9; ++i) {
            const int w = width[static_cast<std::size_t>(i)];
            QString c = cells[i];
            if (i == 0 && c.size() > w)
                c = c.left(w - 1) + QStringLiteral("…");
            line += i >= 2 && i <= 6 ? c.rightJustified(w) : c.leftJustified(w);
            line += QStringLiteral("  ");
        }
        while (line.endsWith(QLatin1Char(' ')))
            line.chop(1);
        out += line + QLatin1Char('\n');
    }
    double sum = 0, source = 0;
    for (int r : p.roots())
        sum += p.scoped(r, m, Quantity::Roll, s);
    for (std::size_t t = 0; t < p.threadCount(); ++t) {
        if (s.kind == Scope::Kind::Thread && ThreadIndex(t) != s.thread)
            continue;
        source += p.sourceTotal(ThreadIndex(t), m);
    }
    if (s.kind == Scope::Kind::Mean && p.threadCount())
        source /= static_cast<double>(p.threadCount());
    out += QStringLiteral(
        "Total %1 = Σ exclusive of the %2 source events %3; conservation %4 (largest relative error %5)\n")
               .arg(number(sum, metric, valueDecimals) + (unit.isEmpty() ? QString() : QLatin1Char(' ') + unit))
               .arg(p.sourceEvents().size())
               .arg(number(source, metric, valueDecimals) + (unit.isEmpty() ? QString() : QLatin1Char(' ') + unit))
               .arg(p.conservationError() < 1e-9 ? QStringLiteral("holds") : QStringLiteral("FAILS"))
               .arg(p.conservationError() < 1e-9 ? QStringLiteral("below 1e-9")
                                                 : formatNumber(p.conservationError(), textLocale()));
    int counts[4] = { 0, 0, 0, 0 };
    for (const Component& c : p.components())
        ++counts[static_cast<int>(c.kind)];
    out += QStringLiteral("Mapping: %1 component(s): %2 one-to-one, %3 one-to-many, %4 many-to-one, %5 many-to-many\n")
               .arg(p.components().size())
               .arg(counts[0])
               .arg(counts[1])
               .arg(counts[2])
               .arg(counts[3]);
    if (!o.groupBy.isEmpty()) {
        out += QStringLiteral("By attribute '%1':\n").arg(o.groupBy);
        for (const AttributeGroup& g : groupByAttribute(p, o.groupBy, m, s))
            out += QStringLiteral("  %1  %2  (%3 entities)\n")
                       .arg(g.value.leftJustified(30), number(g.own, metric, valueDecimals).rightJustified(14))
                       .arg(g.entities.size());
    }
    QStringList warnings;
    int notes = 0;
    for (const Warning& w : p.warnings()) {
        if (w.note)
            ++notes;
        else
            warnings << QStringLiteral("  %1%2\n")
                            .arg(w.association.isEmpty() ? QString() : w.association + QStringLiteral(": "), w.message);
    }
    out += warnings.isEmpty() ? QStringLiteral("Warnings: none\n")
                              : QStringLiteral("Warnings:\n") + warnings.join(QString());
    if (notes > 0)
        out += QStringLiteral(
            "Notes: %1 association(s) match events that a higher-priority association wins (see --json or the "
            "mapping inspector)\n")
                   .arg(notes);
    return out;
}

QByteArray semanticJson(const SemanticProfile& p, const SemanticReportOptions& o)
{
    const MetricId m = metricOf(p, o);
    const Scope& s = o.scope;
    auto num = [](double v) { return std::isfinite(v) ? QJsonValue(v) : QJsonValue(); };
    QJsonObject root;
    root.insert(QStringLiteral("model"), p.model().name);
    root.insert(QStringLiteral("trial"), p.trial().name());
    root.insert(QStringLiteral("source"),
        p.model().source == SourceSet::Flat ? QStringLiteral("flat") : QStringLiteral("callpath"));
    if (!m.isValid()) {
        root.insert(QStringLiteral("error"), QStringLiteral("no metric '%1'").arg(o.metric));
        return QJsonDocument(root).toJson(QJsonDocument::Indented);
    }
    root.insert(QStringLiteral("metric"), p.trial().metric(m).name);
    root.insert(QStringLiteral("unit"), p.trial().metric(m).unit);
    root.insert(QStringLiteral("scope"),
        s.kind == Scope::Kind::Thread     ? p.trial().threadKey(s.thread).toString()
            : s.kind == Scope::Kind::Mean ? QStringLiteral("mean")
                                          : QStringLiteral("total"));
    root.insert(QStringLiteral("threads"), static_cast<qint64>(p.threadCount()));
    QJsonArray entities;
    for (std::size_t i = 0; i < p.entities().size(); ++i) {
        const int r = static_cast<int>(i);
        const ResolvedEntity& e = p.entity(r);
        QJsonObject j;
        j.insert(QStringLiteral("id"), e.id);
        j.insert(QStringLiteral("name"), e.name);
        j.insert(QStringLiteral("kind"), e.kind);
        j.insert(QStringLiteral("parent"), e.parent >= 0 ? QJsonValue(p.entity(e.parent).id) : QJsonValue());
        static const char* origins[] = { "declared", "template", "aggregate", "unmapped" };
        j.insert(QStringLiteral("origin"), QString::fromLatin1(origins[static_cast<int>(e.origin)]));
        j.insert(QStringLiteral("own"), num(p.scoped(r, m, Quantity::Own, s)));
        j.insert(QStringLiteral("roll"), num(p.scoped(r, m, Quantity::Roll, s)));
        j.insert(QStringLiteral("calls"), num(p.scoped(r, m, Quantity::Calls, s)));
        j.insert(QStringLiteral("subroutines"), num(p.scoped(r, m, Quantity::Subroutines, s)));
        j.insert(QStringLiteral("inclusive"),
            p.inclusiveDerivable(r) ? num(p.scoped(r, m, Quantity::Inclusive, s)) : QJsonValue());
        j.insert(QStringLiteral("percent_total"), num(p.percentOfTotal(r, m, s)));
        j.insert(QStringLiteral("percent_parent"), num(p.percentOfParent(r, m, s)));
        QJsonArray policies;
        for (const Policy pol : { Policy::Direct, Policy::Amortize, Policy::Weighted, Policy::Aggregate })
            if (e.policies & (1u << static_cast<unsigned>(pol)))
                policies.append(policyName(pol));
        j.insert(QStringLiteral("policies"), policies);
        j.insert(QStringLiteral("estimate"), e.estimate);
        j.insert(QStringLiteral("aggregated_member"), e.aggregatedMember);
        if (e.isAggregate()) {
            QJsonArray members;
            for (int mem : e.members)
                members.append(p.entity(mem).id);
            j.insert(QStringLiteral("members"), members);
        }
        j.insert(QStringLiteral("classification"),
            e.component >= 0
                ? QJsonValue(classificationName(p.components()[static_cast<std::size_t>(e.component)].kind))
                : QJsonValue());
        QJsonObject attrs;
        for (auto it = e.attrs.cbegin(); it != e.attrs.cend(); ++it)
            attrs.insert(
                it.key(), it->kind == AttrValue::Kind::Number ? QJsonValue(it->number) : QJsonValue(it->toString()));
        if (!attrs.isEmpty())
            j.insert(QStringLiteral("attrs"), attrs);
        std::size_t present = 0;
        for (std::size_t t = 0; t < p.threadCount(); ++t)
            present += p.subtreePresent(r, ThreadIndex(t)) ? 1 : 0;
        j.insert(QStringLiteral("present_threads"), static_cast<qint64>(present));
        entities.append(j);
    }
    root.insert(QStringLiteral("entities"), entities);
    double sum = 0;
    for (int r : p.roots())
        sum += p.scoped(r, m, Quantity::Roll, s);
    root.insert(QStringLiteral("total"), num(sum));
    root.insert(QStringLiteral("conservation_error"), p.conservationError());
    QJsonArray components;
    for (const Component& c : p.components()) {
        QJsonArray events, ids;
        for (EventId e : c.events)
            events.append(p.trial().event(e).name);
        for (int r : c.entities)
            ids.append(p.entity(r).id);
        components.append(QJsonObject { { QStringLiteral("classification"), classificationName(c.kind) },
            { QStringLiteral("events"), events }, { QStringLiteral("entities"), ids } });
    }
    root.insert(QStringLiteral("components"), components);
    QJsonArray associations;
    for (std::size_t i = 0; i < p.associationReports().size(); ++i) {
        const AssociationReport& a = p.associationReports()[i];
        QJsonArray targets, events;
        for (int r : a.targets)
            targets.append(p.entity(r).id);
        for (EventId e : a.events)
            events.append(p.trial().event(e).name);
        associations.append(QJsonObject { { QStringLiteral("id"), p.model().associations[i].id },
            { QStringLiteral("policy"), policyName(p.model().associations[i].policy) },
            { QStringLiteral("events"), events }, { QStringLiteral("targets"), targets },
            { QStringLiteral("contributed_total"), num(a.contributed.empty() ? 0.0 : a.contributed[m.index()]) } });
    }
    root.insert(QStringLiteral("associations"), associations);
    if (!o.groupBy.isEmpty()) {
        QJsonArray groups;
        for (const AttributeGroup& g : groupByAttribute(p, o.groupBy, m, s))
            groups.append(QJsonObject { { QStringLiteral("value"), g.value }, { QStringLiteral("own"), num(g.own) },
                { QStringLiteral("entities"), static_cast<qint64>(g.entities.size()) } });
        root.insert(QStringLiteral("group_by"),
            QJsonObject { { QStringLiteral("key"), o.groupBy }, { QStringLiteral("groups"), groups } });
    }
    QJsonArray warnings;
    for (const Warning& w : p.warnings())
        warnings.append(QJsonObject { { QStringLiteral("association"), w.association },
            { QStringLiteral("message"), w.message }, { QStringLiteral("note"), w.note } });
    root.insert(QStringLiteral("warnings"), warnings);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

std::variant<Model, QString> loadSemanticModel(const QString& spec, const Trial& trial)
{
    if (spec.startsWith(QLatin1String("builtin:"))) {
        const QString name = spec.mid(8);
        if (auto model = makeBuiltinModel(name, trial))
            return *model;
        QStringList names;
        for (const BuiltinModel& b : builtinModels())
            names << b.name;
        return QStringLiteral("unknown built-in model '%1' (built in: %2)").arg(name, names.join(QStringLiteral(", ")));
    }
    auto loaded = loadModelFile(spec);
    if (auto* error = std::get_if<ModelError>(&loaded))
        return error->toString();
    return std::get<Model>(loaded);
}

int runSemanticCommand(const QStringList& args)
{
    using namespace cli;
    Command cmd(QStringLiteral("semantic"), QStringLiteral("MODEL TRIAL [TRIAL_B]"),
        QStringLiteral("The semantic (SEAA) profile of TRIAL through MODEL: per entity its value\n"
                       "(roll-up), calls, % of total, % of parent, inclusive where derivable, the policy that\n"
                       "produced it (≈ marks estimates) and its Table-2 mapping class. With TRIAL_B, the semantic\n"
                       "comparison A − B (each trial attributed with its own weights first)."));
    const auto jsonOption = cmd.add({ QStringLiteral("json") }, QStringLiteral("Print JSON instead of the table."));
    const auto metricOption = cmd.add(
        { QStringLiteral("metric") }, QStringLiteral("The metric (default the first)."), QStringLiteral("NAME"));
    const auto thread = cmd.add({ QStringLiteral("thread") }, QStringLiteral("One thread."), QStringLiteral("N,C,T"));
    cmd.add({ QStringLiteral("mean") }, QStringLiteral("The mean over all threads (default)."));
    cmd.add({ QStringLiteral("total") }, QStringLiteral("The total over all threads."));
    const auto groupBy = cmd.add({ QStringLiteral("group-by") },
        QStringLiteral("Also sum the entities by the value of their attribute KEY."), QStringLiteral("KEY"));
    const auto saveModelOption = cmd.add({ QStringLiteral("save-model") },
        QStringLiteral("Write the model (e.g. a built-in made for this trial) as a JSON file."),
        QStringLiteral("FILE"));
    const auto formatOption = cmd.add({ QStringLiteral("format") },
        QStringLiteral("Read the trials with this reader instead of detecting the format."), QStringLiteral("NAME"));
    const auto dbOption = cmd.add(
        { QStringLiteral("db") }, QStringLiteral("The database of db:ID trials."), QStringLiteral("LOCATION"));
    cmd.addArgument(
        QStringLiteral("MODEL"), QStringLiteral("A model file (JSON) or builtin:group|layer|phase|parameter|file."));
    cmd.addArgument(QStringLiteral("TRIAL"), QStringLiteral("A profile path in any format, or db:ID."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    const QStringList positional = cmd.positional();
    if (positional.size() < 2 || positional.size() > 3)
        return cmd.usageError(
            QStringLiteral("needs MODEL and one or two TRIALs, got %1 argument(s)").arg(positional.size()));
    for (qsizetype i = 1; i < positional.size(); ++i)
        if (!cmd.checkOperand(positional[i]))
            return ExitUsage;
    SemanticReportOptions options;
    const bool json = cmd.isSet(jsonOption);
    options.metric = cmd.value(metricOption);
    options.groupBy = cmd.value(groupBy);
    const QString format = cmd.value(formatOption);
    const QString db = cmd.value(dbOption);
    const QString saveModel = cmd.value(saveModelOption);
    if (!cmd.checkReader(format))
        return ExitUsage;
    // --mean, --total and --thread: the last one given wins.
    QString threadSpec;
    for (const QString& name : cmd.parser().optionNames()) {
        if (name == QLatin1String("mean"))
            options.scope = Scope::mean(), threadSpec.clear();
        else if (name == QLatin1String("total"))
            options.scope = Scope::total(), threadSpec.clear();
        else if (name == QLatin1String("thread"))
            threadSpec = cmd.value(thread);
    }
    ThreadKey threadKey;
    if (!threadSpec.isEmpty()) {
        const auto key = cmd.threadKey(QStringLiteral("--thread"), threadSpec);
        if (!key)
            return ExitUsage;
        threadKey = *key;
    }
    QString error;
    std::vector<TrialPtr> trials;
    for (qsizetype i = 1; i < positional.size(); ++i) {
        TrialPtr t = loadTrialOperand(positional[i], db, format, &error);
        if (!t)
            return fail(error);
        trials.push_back(std::move(t));
    }
    auto loaded = loadSemanticModel(positional[0], *trials.front());
    if (auto* message = std::get_if<QString>(&loaded))
        return fail(*message);
    const Model model = std::get<Model>(loaded);
    if (!saveModel.isEmpty()) {
        QFile f(saveModel);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(toJson(model)) < 0)
            return fail(QStringLiteral("%1: %2").arg(saveModel, f.errorString()));
    }
    std::vector<ProfilePtr> profiles;
    for (const TrialPtr& t : trials) {
        auto result = attribute(model, t);
        if (auto* e = std::get_if<AttributionError>(&result))
            return fail(QStringLiteral("%1: %2").arg(t->name(), e->message));
        profiles.push_back(std::get<ProfilePtr>(result));
    }
    if (!threadSpec.isEmpty()) {
        const ThreadIndex t = trials.front()->findThread(threadKey);
        if (!t.isValid())
            return fail(
                QStringLiteral("--thread %1: no such thread (N,C,T) in %2").arg(threadSpec, trials.front()->name()));
        options.scope = Scope::ofThread(t);
    }
    if (!options.metric.isEmpty() && !trials.front()->findMetric(options.metric).isValid())
        return fail(QStringLiteral("no metric '%1' in %2").arg(options.metric, trials.front()->name()));
    if (profiles.size() == 1) {
        const QByteArray text
            = json ? semanticJson(*profiles.front(), options) : semanticReport(*profiles.front(), options).toUtf8();
        std::fwrite(text.constData(), 1, static_cast<std::size_t>(text.size()), stdout);
        return 0;
    }
    // Semantic comparison: per-trial attribution first, then the difference (docs/SEMANTICS.md 5.5).
    const QString metric = options.metric.isEmpty() ? trials.front()->metric(MetricId(0u)).name : options.metric;
    Scope scopeB = options.scope;
    if (options.scope.kind == Scope::Kind::Thread) {
        scopeB.thread = trials[1]->findThread(trials.front()->threadKey(options.scope.thread));
        if (!scopeB.thread.isValid())
            return fail(QStringLiteral("--thread %1: no such thread in %2").arg(threadSpec, trials[1]->name()));
    }
    const auto rows = semanticDifference(*profiles[0], *profiles[1], metric, options.scope, scopeB);
    if (json) {
        QJsonArray out;
        for (const DiffRow& r : rows)
            out.append(QJsonObject { { QStringLiteral("id"), r.id }, { QStringLiteral("name"), r.name },
                { QStringLiteral("parent"), r.parentId }, { QStringLiteral("a"), r.a }, { QStringLiteral("b"), r.b },
                { QStringLiteral("diff"), r.diff }, { QStringLiteral("in_a"), r.inA },
                { QStringLiteral("in_b"), r.inB }, { QStringLiteral("estimate"), r.estimate } });
        const QByteArray text = QJsonDocument(
            QJsonObject { { QStringLiteral("model"), model.name }, { QStringLiteral("a"), trials[0]->name() },
                { QStringLiteral("b"), trials[1]->name() }, { QStringLiteral("metric"), metric },
                { QStringLiteral("rows"),
                    out } }).toJson(QJsonDocument::Indented);
        std::fwrite(text.constData(), 1, static_cast<std::size_t>(text.size()), stdout);
        return 0;
    }
    // The GUI's number format: time in ms, one decimals count per column, signed changes "+0.03 %".
    const Metric& shown = trials.front()->metric(trials.front()->findMetric(metric));
    const QString unit = unitLabel(shown, TimeUnit::Milliseconds);
    QString out = QStringLiteral(
        "Semantic comparison through '%1', metric %2%3, %4: A = %5, B = %6; Δ = A − B (positive = B is cheaper)\n")
                      .arg(model.name, metric, unit.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(unit),
                          scopeText(*profiles[0], options.scope), trials[0]->name(), trials[1]->name());
    int nameWidth = 6;
    std::vector<double> as;
    std::vector<double> bs;
    std::vector<double> diffs;
    for (const DiffRow& r : rows) {
        nameWidth = std::max(nameWidth, std::min(60, static_cast<int>(r.name.size())));
        if (r.inA)
            as.push_back(r.a);
        if (r.inB)
            bs.push_back(r.b);
        diffs.push_back(r.diff);
    }
    const int aDecimals = columnDecimals(as, shown.isTime(), TimeUnit::Milliseconds);
    const int bDecimals = columnDecimals(bs, shown.isTime(), TimeUnit::Milliseconds);
    const int diffDecimals = columnDecimals(diffs, shown.isTime(), TimeUnit::Milliseconds);
    out += QStringLiteral("%1  %2  %3  %4  %5\n")
               .arg(QStringLiteral("Entity").leftJustified(nameWidth), QStringLiteral("A").rightJustified(14),
                   QStringLiteral("B").rightJustified(14), QStringLiteral("Δ").rightJustified(14),
                   QStringLiteral("Δ%").rightJustified(11));
    for (const DiffRow& r : rows) {
        const QString pct = r.a != 0 ? formatPercentChange(100 * r.diff / r.a, textLocale()) : QStringLiteral("—");
        QString name = r.name.left(nameWidth);
        if (!r.inA)
            name = QString(QStringLiteral("▶ ") + r.name).left(nameWidth);
        else if (!r.inB)
            name = QString(QStringLiteral("◀ ") + r.name).left(nameWidth);
        QString diff = number(r.diff, shown, diffDecimals);
        if (r.diff > 0
            && std::any_of(diff.begin(), diff.end(), [](QChar c) { return c.isDigit() && c != QLatin1Char('0'); }))
            diff.prepend(QLatin1Char('+'));
        out += QStringLiteral("%1  %2  %3  %4  %5%6\n")
                   .arg(name.leftJustified(nameWidth),
                       (r.inA ? number(r.a, shown, aDecimals) : QStringLiteral("—")).rightJustified(14),
                       (r.inB ? number(r.b, shown, bDecimals) : QStringLiteral("—")).rightJustified(14),
                       diff.rightJustified(14), pct.rightJustified(11), r.estimate ? QStringLiteral("  ≈") : QString());
    }
    if (!model.isLinear())
        out += QStringLiteral(
            "The model takes WEIGHTED weights from each trial's metadata: each trial was attributed with its own "
            "weights, then compared.\n");
    const QByteArray text = out.toUtf8();
    std::fwrite(text.constData(), 1, static_cast<std::size_t>(text.size()), stdout);
    return 0;
}

} // namespace parallax
