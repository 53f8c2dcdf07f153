// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/modelcommand.h"

#include "algebra/perfmodel.h"
#include "algebra/statistics.h"
#include "algebra/units.h"
#include "app/cli/algebracommand.h"
#include "app/cli/commandline.h"
#include "datasource/readers/extrapreader.h"
#include "datasource/readers/textnumber.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace parallax {

using namespace cli;

namespace {

/// One fitted series: what it is, its points and its model.
struct Fitted {
    QString callpath;
    QString metric;
    std::vector<ModelPoint> points;
    PerformanceModel model;
    double prediction = std::numeric_limits<double>::quiet_NaN();
};

QJsonObject modelJson(const Fitted& f, const QString& parameter, std::optional<double> target)
{
    const PerformanceModel& m = f.model;
    QJsonArray terms;
    for (const ModelTerm& t : m.terms)
        terms.append(QJsonObject { { QStringLiteral("coefficient"), jsonNumber(t.coefficient) },
            { QStringLiteral("poly_exponent"), QStringLiteral("%1/%2").arg(t.numerator).arg(t.denominator) },
            { QStringLiteral("poly_exponent_value"), t.polyExponent() },
            { QStringLiteral("log_exponent"), t.logExponentValue() },
            { QStringLiteral("log_exponent_fraction"),
                QStringLiteral("%1/%2").arg(t.logExponent).arg(t.logDenominator) } });
    QJsonArray points;
    for (const ModelPoint& p : f.points) {
        QJsonArray values;
        for (double v : p.values)
            values.append(jsonNumber(v));
        points.append(QJsonObject { { QStringLiteral("p"), p.p }, { QStringLiteral("values"), values } });
    }
    QJsonObject o { { QStringLiteral("callpath"), f.callpath }, { QStringLiteral("metric"), f.metric },
        { QStringLiteral("model"), m.formula(parameter) }, { QStringLiteral("complexity"), m.complexity(parameter) },
        { QStringLiteral("constant"), jsonNumber(m.constant) }, { QStringLiteral("terms"), terms },
        { QStringLiteral("rss"), jsonNumber(m.rss) }, { QStringLiteral("smape"), jsonNumber(m.smape) },
        { QStringLiteral("adjusted_r2"), jsonNumber(m.adjustedR2) }, { QStringLiteral("points"), points },
        { QStringLiteral("few_points"), m.fewPoints },
        { QStringLiteral("few_points_for_terms"), m.fewPointsForTerms } };
    if (target)
        o.insert(QStringLiteral("prediction"), jsonNumber(f.prediction));
    return o;
}

QString number(double v) { return std::isfinite(v) ? QString::number(v, 'g', 6) : QStringLiteral("—"); }

/// The table of the text output: one block per series, the dominating (largest prediction, or
/// largest value at the largest p) first when ordered.
void writeText(QTextStream& out, const std::vector<Fitted>& fitted, const QString& parameter,
    std::optional<double> target, const QStringList& notes)
{
    for (const QString& n : notes)
        out << n << '\n';
    for (const Fitted& f : fitted) {
        out << f.callpath;
        if (!f.metric.isEmpty())
            out << "  [" << f.metric << ']';
        out << '\n';
        out << "  model:    " << f.model.formula(parameter) << '\n';
        out << "  growth:   O(" << f.model.complexity(parameter) << ")\n";
        out << "  fit:      RSS " << number(f.model.rss) << ", SMAPE " << number(f.model.smape) << " %, adjusted R² "
            << number(f.model.adjustedR2) << "  (" << f.model.points << " points"
            << (f.model.fewPoints ? QStringLiteral(", fewer than Extra-P's minimum of 5") : QString()) << ")\n";
        if (target)
            out << "  at " << parameter << " = " << number(*target) << ": " << number(f.prediction) << '\n';
    }
}

std::vector<ModelPoint> pointsOf(const ExtrapSeries& s)
{
    std::vector<ModelPoint> points;
    for (const auto& m : s.measurements)
        points.push_back(ModelPoint { m.coordinate.front(), m.values });
    return points;
}

} // namespace

int runModelCommand(const QStringList& args)
{
    Command cmd(QStringLiteral("model"), QStringLiteral("[RUNS...]"),
        QStringLiteral("Extra-P's performance model of each call path: f(p) = c0 + c1 * p^i * log2(p)^j, chosen\n"
                       "as Extra-P's default single-parameter modeler chooses it (docs/SEMANTICS.md §10): the\n"
                       "constant model or the one of 42 terms with the lowest leave-one-out SMAPE (or, with\n"
                       "--modeler refining, Extra-P's Refining modeler with fractional exponents; with --terms 2,\n"
                       "also c0 + c1 * t1 + c2 * t2 over every pair of the 42 terms, §10.8). Either an\n"
                       "Extra-P input file (--extrap, text or JSON), or runs of any format Parallax reads that\n"
                       "differ in one parameter (--param): the thread count, or a metadata key. Runs with the\n"
                       "same parameter value are repetitions; the model fits their mean (or --median)."));
    const auto extrap = cmd.add({ QStringLiteral("extrap") },
        QStringLiteral("An Extra-P input file (text: PARAMETER/POINTS/REGION/METRIC/DATA lines, or JSON)."),
        QStringLiteral("FILE"));
    const auto param = cmd.add({ QStringLiteral("param") },
        QStringLiteral("The parameter of the runs: 'threads' (the number of threads of each run) or a metadata "
                       "key with a numeric value."),
        QStringLiteral("threads|KEY"));
    const auto event = cmd.add({ QStringLiteral("event") },
        QStringLiteral("Model only this event (call path or routine name; repeatable). Default: every event."),
        QStringLiteral("NAME"));
    const auto metric
        = cmd.add({ QStringLiteral("metric") }, QStringLiteral("The metric (default the first)."), QStringLiteral("M"));
    const auto exclusive
        = cmd.add({ QStringLiteral("exclusive") }, QStringLiteral("Model the exclusive value (default: inclusive)."));
    const auto maximum = cmd.add({ QStringLiteral("max") },
        QStringLiteral("Model the slowest thread's value (default: the mean over all threads)."));
    const auto modeler = cmd.add({ QStringLiteral("modeler") },
        QStringLiteral("Extra-P's single-parameter modeler: 'basic' (its default: 42 fixed terms) or 'refining'\n"
                       "(exponents refined to fractions such as p^(3/4) * log2(p)^(1/2); docs/SEMANTICS.md §10.7)."),
        QStringLiteral("basic|refining"));
    const auto terms = cmd.add({ QStringLiteral("terms") },
        QStringLiteral("Terms besides the constant: 1 (Extra-P's default) or 2, which also tries every pair of the\n"
                       "Basic modeler's 42 terms (docs/SEMANTICS.md §10.8; needs 4 points per series)."),
        QStringLiteral("1|2"));
    const auto median = cmd.add({ QStringLiteral("median") },
        QStringLiteral("Fit the median of the repetitions at a point instead of their mean."));
    const auto target = cmd.add({ QStringLiteral("target") },
        QStringLiteral("Predict each model's value at this parameter value, and order by it."), QStringLiteral("P"));
    const auto top = cmd.add(
        { QStringLiteral("top") }, QStringLiteral("Print only the first N models (text)."), QStringLiteral("N"));
    const auto json = cmd.add({ QStringLiteral("json") }, QStringLiteral("Print the models as JSON."));
    const auto format = cmd.add({ QStringLiteral("format") },
        QStringLiteral("Read the runs with this reader instead of detecting the format."), QStringLiteral("NAME"));
    const auto db = cmd.add({ QStringLiteral("db") },
        QStringLiteral("The database for db:ID runs (default $PARALLAX_DB or the default database)."),
        QStringLiteral("LOCATION"));
    cmd.addArgument(QStringLiteral("RUNS"), QStringLiteral("Profiles in any format Parallax reads, or db:ID."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    if (cmd.isSet(extrap) == cmd.isSet(param))
        return cmd.usageError(QStringLiteral("give either --extrap FILE or --param threads|KEY with runs"));
    std::optional<double> targetValue;
    if (cmd.isSet(target)) {
        const auto v = textnumber::parseDoubleInRange(cmd.value(target).toStdString());
        if (!v || !std::isfinite(*v) || *v <= 0)
            return cmd.usageError(QStringLiteral("--target takes a positive number, not '%1'").arg(cmd.value(target)));
        targetValue = *v;
    }
    const auto topCount = cmd.integer(top, 1, std::numeric_limits<int>::max(), std::numeric_limits<int>::max());
    if (!topCount)
        return ExitUsage;
    ModelOptions options;
    if (cmd.isSet(modeler)) {
        const QString name = cmd.value(modeler);
        if (name == QLatin1String("refining"))
            options.modeler = ModelerKind::Refining;
        else if (name != QLatin1String("basic"))
            return cmd.usageError(QStringLiteral("--modeler takes 'basic' or 'refining', not '%1'").arg(name));
    }
    const auto termCount = cmd.integer(terms, 1, 2, 1);
    if (!termCount)
        return ExitUsage;
    options.maxTerms = static_cast<int>(*termCount);
    if (options.maxTerms == 2 && options.modeler == ModelerKind::Refining)
        return cmd.usageError(QStringLiteral("--terms 2 takes the Basic modeler; the Refining one keeps one term"));
    if (cmd.isSet(median))
        options.measure = ModelMeasure::Median;

    std::vector<Fitted> fitted;
    QString parameter;
    QStringList notes;
    QJsonObject doc;
    if (cmd.isSet(extrap)) {
        if (!cmd.positional().isEmpty())
            return cmd.usageError(QStringLiteral("--extrap takes no runs, got '%1'").arg(cmd.positional().first()));
        for (const auto& o : { param, event, metric, exclusive, maximum, format, db })
            if (cmd.isSet(o))
                return cmd.usageError(QStringLiteral("%1 applies to runs, not to --extrap").arg(optionText(o)));
        QString error;
        const auto experiment = readExtrapFile(cmd.value(extrap), &error);
        if (!experiment)
            return failure(error);
        doc.insert(QStringLiteral("file"), cmd.value(extrap));
        doc.insert(QStringLiteral("format"), experiment->format);
        doc.insert(QStringLiteral("parameters"), QJsonArray::fromStringList(experiment->parameters));
        if (experiment->parameters.size() != 1) {
            // Extra-P's multi-parameter modeler is not reproduced.
            return failure(QStringLiteral("%1: %2 parameters (%3); Parallax models single-parameter experiments only "
                                          "(the multi-parameter modeler of Extra-P is not implemented)")
                               .arg(cmd.value(extrap))
                               .arg(experiment->parameters.size())
                               .arg(experiment->parameters.join(QStringLiteral(", "))));
        }
        parameter = experiment->parameters.front();
        for (const ExtrapSeries& s : experiment->series) {
            Fitted f;
            f.callpath = s.callpath;
            f.metric = s.metric;
            f.points = pointsOf(s);
            fitted.push_back(std::move(f));
        }
    } else {
        const QStringList runs = cmd.positional();
        if (runs.size() < 2)
            return cmd.usageError(QStringLiteral("--param needs at least two runs"));
        if (!cmd.checkReader(cmd.value(format)))
            return ExitUsage;
        for (const QString& r : runs)
            if (!cmd.checkOperand(r))
                return ExitUsage;
        const QString key = cmd.value(param);
        const bool byThreads = key == QLatin1String("threads");
        parameter = byThreads ? QStringLiteral("p") : key;
        const ValueKind kind = cmd.isSet(exclusive) ? ValueKind::Exclusive : ValueKind::Inclusive;
        // series by event name, in the order first seen
        std::map<QString, std::size_t> index;
        QString metricName = cmd.value(metric);
        for (const QString& r : runs) {
            QString error;
            const auto trial = loadTrialOperand(r, cmd.value(db), cmd.value(format), &error);
            if (!trial)
                return failure(error);
            if (trial->metricCount() == 0)
                return failure(QStringLiteral("%1 has no metrics").arg(r));
            if (metricName.isEmpty())
                metricName = trial->metric(MetricId(0u)).name;
            const MetricId m = trial->findMetric(metricName);
            if (!m.isValid())
                return failure(QStringLiteral("%1 has no metric '%2'").arg(r, metricName));
            const auto parsed = runParameter(*trial, key, r, &error);
            if (!parsed)
                return failure(error);
            const double p = *parsed;
            const auto stats = TrialStatistics::of(*trial);
            for (std::size_t e = 0; e < trial->eventCount(); ++e) {
                const EventId id(static_cast<std::uint32_t>(e));
                const QString& name = trial->event(id).name;
                if (cmd.isSet(event) && !cmd.values(event).contains(name))
                    continue;
                const Stat& s = stats->stat(id, m, kind);
                if (s.present == 0)
                    continue;
                const double v = cmd.isSet(maximum) ? s.max : s.meanAll;
                const auto [it, added] = index.try_emplace(name, fitted.size());
                if (added) {
                    Fitted f;
                    f.callpath = name;
                    f.metric = metricName;
                    fitted.push_back(std::move(f));
                }
                auto& points = fitted[it->second].points;
                auto at = std::find_if(points.begin(), points.end(), [&](const ModelPoint& q) { return q.p == p; });
                if (at == points.end())
                    points.push_back(ModelPoint { p, { v } });
                else
                    at->values.push_back(v);
            }
        }
        if (cmd.isSet(event))
            for (const QString& name : cmd.values(event))
                if (!index.count(name))
                    return failure(QStringLiteral("no run has an event '%1'").arg(name));
        std::vector<double> distinct;
        for (const Fitted& f : fitted)
            for (const ModelPoint& q : f.points)
                if (std::find(distinct.begin(), distinct.end(), q.p) == distinct.end())
                    distinct.push_back(q.p);
        if (distinct.size() < 2)
            return failure(QStringLiteral("every run has %1 = %2: nothing scales (%3)")
                               .arg(byThreads ? QStringLiteral("the thread count") : key,
                                   distinct.empty() ? QStringLiteral("?") : QString::number(distinct.front()),
                                   byThreads ? QStringLiteral("these runs keep one thread each; choose a metadata key "
                                                              "with --param KEY, e.g. the MPI size")
                                             : QStringLiteral("choose another --param")));
        doc.insert(QStringLiteral("runs"), QJsonArray::fromStringList(runs));
        doc.insert(QStringLiteral("parameters"), QJsonArray { byThreads ? QStringLiteral("threads") : key });
        doc.insert(QStringLiteral("value"),
            kind == ValueKind::Exclusive ? QStringLiteral("exclusive") : QStringLiteral("inclusive"));
        doc.insert(QStringLiteral("statistic"), cmd.isSet(maximum) ? QStringLiteral("max") : QStringLiteral("mean"));
        for (Fitted& f : fitted)
            std::sort(
                f.points.begin(), f.points.end(), [](const ModelPoint& a, const ModelPoint& b) { return a.p < b.p; });
    }

    std::vector<std::vector<ModelPoint>> series;
    series.reserve(fitted.size());
    for (const Fitted& f : fitted)
        series.push_back(f.points);
    const std::vector<PerformanceModel> models = fitPerformanceModels(series, options);
    for (std::size_t i = 0; i < fitted.size(); ++i) {
        fitted[i].model = models[i];
        if (targetValue)
            fitted[i].prediction = fitted[i].model.evaluate(*targetValue);
    }
    std::size_t few = 0;
    for (const Fitted& f : fitted)
        if (f.model.fewPoints)
            ++few;
    const auto fewForTerms = static_cast<std::size_t>(
        std::count_if(fitted.begin(), fitted.end(), [](const Fitted& f) { return f.model.fewPointsForTerms; }));
    if (fewForTerms)
        notes << QStringLiteral("note: %1 of %2 series have fewer than 4 points, which two terms need; they were "
                                "modelled with one term")
                     .arg(fewForTerms)
                     .arg(fitted.size());
    if (few)
        notes << QStringLiteral("note: %1 of %2 series have fewer than 5 points (Extra-P's minimum); their models "
                                "are fitted anyway and are weak")
                     .arg(few)
                     .arg(fitted.size());
    if (cmd.isSet(param)) {
        // The dominating call path first: by the prediction at the target, else by the value at the largest p.
        auto key = [&](const Fitted& f) {
            if (targetValue)
                return f.prediction;
            return f.points.empty() ? 0.0 : f.model.evaluate(f.points.back().p);
        };
        std::stable_sort(
            fitted.begin(), fitted.end(), [&](const Fitted& a, const Fitted& b) { return key(a) > key(b); });
    }

    if (cmd.isSet(json)) {
        QJsonArray models;
        for (const Fitted& f : fitted)
            models.append(modelJson(f, parameter, targetValue));
        doc.insert(QStringLiteral("modeler"),
            options.modeler == ModelerKind::Refining ? QStringLiteral("refining") : QStringLiteral("basic"));
        doc.insert(QStringLiteral("terms"), options.maxTerms);
        doc.insert(QStringLiteral("measure"),
            options.measure == ModelMeasure::Median ? QStringLiteral("median") : QStringLiteral("mean"));
        if (targetValue)
            doc.insert(QStringLiteral("target"), *targetValue);
        doc.insert(QStringLiteral("models"), models);
        printOut(QJsonDocument(doc).toJson(QJsonDocument::Indented));
        return ExitSuccess;
    }
    if (fitted.size() > static_cast<std::size_t>(*topCount))
        fitted.resize(static_cast<std::size_t>(*topCount));
    QString text;
    QTextStream out(&text);
    writeText(out, fitted, parameter, targetValue, notes);
    out.flush();
    printOut(text);
    return ExitSuccess;
}

} // namespace parallax
