// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/historycommand.h"

#include "algebra/history.h"
#include "app/cli/algebracommand.h"
#include "app/cli/commandline.h"
#include "app/cli/dbcommand.h"
#include "app/cli/historyruns.h"
#include "perfdb/database.h"
#include "perfdb/trialsearch.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QTextStream>
#include <cmath>
#include <optional>

namespace parallax {

using namespace cli;

namespace {

/// The exit code of a detected regression at the newest run (documented in --help and the README).
constexpr int ExitRegression = 3;

QJsonArray jsonNumbers(const std::vector<double>& values)
{
    QJsonArray a;
    for (double v : values)
        a.append(jsonNumber(v));
    return a;
}

QString number(double v) { return std::isfinite(v) ? QString::number(v, 'g', 6) : QStringLiteral("-"); }

QString percent(double p)
{
    return std::isfinite(p) ? QStringLiteral("%1%2 %").arg(p > 0 ? QStringLiteral("+") : QString()).arg(p, 0, 'f', 1)
                            : QStringLiteral("-");
}

/// Why the newest run counts as regressed by more than `threshold` percent, or empty.
/// Either the newest run belongs to a level that began with a regression change point above the
/// threshold, or the newest value alone lies above the level of the runs before it by more than the
/// threshold and by more than three standard deviations of that level (a regression is then
/// caught the night it lands, before it has the three runs a change point needs).
QString newestRegression(const HistorySeries& s, const History& h, double threshold, bool higherIsBetter)
{
    const double sign = higherIsBetter ? -1.0 : 1.0;
    if (!s.changes.changes.empty()) {
        const ChangePoint& c = s.changes.changes.back();
        if (sign * c.percent > threshold)
            return QStringLiteral("%1: a change point at run %2 (%3) of %4 (p = %5)")
                .arg(s.event)
                .arg(c.index + 1)
                .arg(h.points[static_cast<std::size_t>(c.index)].order, percent(c.percent))
                .arg(c.pValue, 0, 'f', 3);
    }
    // The newest point against the level since the last change point.
    const int n = static_cast<int>(s.values.size());
    if (n < 4 || !std::isfinite(s.values.back()))
        return {};
    const int from = s.changes.changes.empty() ? 0 : s.changes.changes.back().index;
    std::vector<double> level;
    for (int i = from; i < n - 1; ++i)
        if (std::isfinite(s.values[static_cast<std::size_t>(i)]))
            level.push_back(s.values[static_cast<std::size_t>(i)]);
    if (level.size() < 3)
        return {};
    double mean = 0;
    for (double v : level)
        mean += v;
    mean /= static_cast<double>(level.size());
    double squares = 0;
    for (double v : level)
        squares += (v - mean) * (v - mean);
    const double sd = std::sqrt(squares / static_cast<double>(level.size() - 1));
    const double newest = s.values.back();
    const double change = mean != 0 ? 100.0 * (newest - mean) / std::abs(mean) : 0.0;
    if (sign * change > threshold && sign * (newest - mean) > 3 * sd)
        return QStringLiteral("%1: the newest run (%2) is %3 against the %4 runs before it (> 3 standard deviations)")
            .arg(s.event, h.points.back().order, percent(change))
            .arg(level.size());
    return {};
}

} // namespace

int runHistoryCommand(const QStringList& args)
{
    Command cmd(QStringLiteral("history"), QStringLiteral("[PATH...]"),
        QStringLiteral(
            "The performance history of a set of runs: the runs ordered by a metadata key (numbers as\n"
            "numbers, else as text: ISO dates sort right), and per event the series of a statistic across\n"
            "them (mean exclusive time by default) with the min-max band across threads, the change\n"
            "points of each series (E-divisive means with a permutation test, docs/SEMANTICS.md §9) and\n"
            "the movers. The runs are PATHs (profiles or db:ID), or the database's trials of an\n"
            "application/experiment, metadata filter or search. With --fail-above PCT the exit code is 3 when the\n"
            "newest run is regressed by more than PCT percent in any series shown, for CI pipelines."));
    const auto db = cmd.add({ QStringLiteral("db") },
        QStringLiteral("The database (default $PARALLAX_DB or the default database)."), QStringLiteral("LOCATION"));
    const auto app = cmd.add(
        { QStringLiteral("app") }, QStringLiteral("The database's trials of this application."), QStringLiteral("A"));
    const auto exp
        = cmd.add({ QStringLiteral("exp") }, QStringLiteral("... and of this experiment."), QStringLiteral("E"));
    const auto where = cmd.add({ QStringLiteral("where") },
        QStringLiteral("The database's trials whose metadata KEY is VALUE (repeatable)."), QStringLiteral("KEY=VALUE"));
    const auto searchText = cmd.add({ QStringLiteral("search") },
        QStringLiteral("The database's trials this search selects, as the GUI's Databases search field takes it:\n"
                       "key=value terms, view:NAME, words of the trial name (all must hold)."),
        QStringLiteral("TEXT"));
    const auto orderBy = cmd.add({ QStringLiteral("order-by") },
        QStringLiteral("The metadata key the runs are ordered by; 'upload' (the database's upload time) or 'id'."),
        QStringLiteral("KEY"));
    const auto event = cmd.add({ QStringLiteral("event") },
        QStringLiteral("An event to follow (repeatable; default the top N)."), QStringLiteral("NAME"));
    const auto top = cmd.add({ QStringLiteral("top") },
        QStringLiteral("The events with the largest mean value over the runs (default 10)."), QStringLiteral("N"));
    const auto metric
        = cmd.add({ QStringLiteral("metric") }, QStringLiteral("The metric (default the first)."), QStringLiteral("M"));
    const auto inclusive
        = cmd.add({ QStringLiteral("inclusive") }, QStringLiteral("Inclusive values instead of exclusive."));
    const auto statistic = cmd.add({ QStringLiteral("statistic") },
        QStringLiteral("The statistic across threads: mean (over all threads, the default), mean-present, total,\n"
                       "min, max, sd or sd-present (docs/SEMANTICS.md §2)."),
        QStringLiteral("NAME"));
    const auto loadTrials = cmd.add({ QStringLiteral("load-trials") },
        QStringLiteral("With the database: load every trial instead of reading its stored derived rows (the same\n"
                       "numbers, slower; the default for a statistic without a derived row)."));
    const auto callPaths = cmd.add({ QStringLiteral("call-paths") }, QStringLiteral("Call paths among the top N."));
    const auto minEffect = cmd.add({ QStringLiteral("min-effect") },
        QStringLiteral("Change points smaller than this many percent are not reported (default 1)."),
        QStringLiteral("PCT"));
    const auto failAbove = cmd.add({ QStringLiteral("fail-above") },
        QStringLiteral("Exit with 3 when the newest run is regressed by more than PCT percent."),
        QStringLiteral("PCT"));
    const auto higher = cmd.add(
        { QStringLiteral("higher-is-better") }, QStringLiteral("The metric is a rate: a fall is a regression."));
    const auto format = cmd.add({ QStringLiteral("format") },
        QStringLiteral("Read the PATHs with this reader instead of detecting the format."), QStringLiteral("NAME"));
    const auto json = cmd.add({ QStringLiteral("json") }, QStringLiteral("Print the history as JSON."));
    cmd.addArgument(QStringLiteral("PATH"), QStringLiteral("Runs: profiles in any format Parallax reads, or db:ID."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    if (!cmd.checkReader(cmd.value(format)))
        return ExitUsage;
    const QStringList paths = cmd.positional();
    const bool fromDb = cmd.isSet(app) || cmd.isSet(exp) || cmd.isSet(where) || cmd.isSet(searchText);
    if (fromDb == !paths.isEmpty())
        return cmd.usageError(
            QStringLiteral("give the runs as PATHs or as --app/--exp/--where/--search, one of the two"));
    if (!cmd.isSet(orderBy))
        return cmd.usageError(QStringLiteral("--order-by KEY is needed: the metadata key the runs are ordered by"));
    for (const QString& p : paths)
        if (!cmd.checkOperand(p))
            return ExitUsage;
    HistoryOptions options;
    options.metric = cmd.value(metric);
    options.value = cmd.isSet(inclusive) ? ValueType::Inclusive : ValueType::Exclusive;
    options.events = cmd.values(event);
    options.callPaths = cmd.isSet(callPaths);
    if (cmd.isSet(statistic)) {
        const auto st = statisticOf(cmd.value(statistic));
        if (!st)
            return cmd.usageError(
                QStringLiteral("--statistic: '%1' is none of mean, mean-present, total, min, max, sd, "
                               "sd-present")
                    .arg(cmd.value(statistic)));
        options.statistic = *st;
    }
    const auto topN = cmd.integer(top, 1, 100000, 10);
    if (!topN)
        return ExitUsage;
    options.top = static_cast<int>(*topN);
    auto real = [&](const QCommandLineOption& o, double fallback) -> std::optional<double> {
        if (!cmd.isSet(o))
            return fallback;
        bool ok = false;
        const double v = cmd.value(o).toDouble(&ok);
        if (!ok || !std::isfinite(v) || v < 0) {
            cmd.usageError(
                QStringLiteral("%1: '%2' is not a percentage (a number from 0)").arg(optionText(o), cmd.value(o)));
            return std::nullopt;
        }
        return v;
    };
    const auto effect = real(minEffect, 1.0);
    const auto threshold = real(failAbove, 0.0);
    if (!effect || !threshold)
        return ExitUsage;
    options.changes.minEffectPercent = *effect;
    const QString key = cmd.value(orderBy);

    // The runs and their order values.
    std::vector<HistoryInput> runs;
    QString error;
    std::optional<HistoryResult> fromDatabase;
    if (fromDb) {
        const QString location = databaseLocation(cmd.value(db));
        auto opened = perfdb::Database::open(location);
        if (!opened)
            return failure(opened.error().toString());
        auto pairs = cmd.keyValues(where);
        if (!pairs)
            return ExitUsage;
        perfdb::TrialSearch search = perfdb::TrialSearch::parse(cmd.value(searchText));
        if (cmd.isSet(app))
            search.metadata.emplace_back(QStringLiteral("Application"), cmd.value(app));
        if (cmd.isSet(exp))
            search.metadata.emplace_back(QStringLiteral("Experiment"), cmd.value(exp));
        search.metadata.insert(search.metadata.end(), pairs->begin(), pairs->end());
        const auto listing = perfdb::searchTrials(*opened.value(), search);
        if (!listing)
            return failure(listing.error().toString());
        if (listing.value().trials.empty())
            return failure(QStringLiteral("no trials in %1 match: %2").arg(location, search.describe()));
        DatabaseHistory d
            = databaseHistory(*opened.value(), listing.value().trials, key, options, cmd.isSet(loadTrials));
        if (!d.warning.isEmpty())
            warning(QStringLiteral("history: %1").arg(d.warning));
        fromDatabase = std::move(d.result);
    } else {
        for (const QString& p : paths) {
            auto t = loadTrialOperand(p, cmd.value(db), cmd.value(format), &error);
            if (!t)
                return failure(error);
            HistoryInput in;
            in.trial = t;
            in.label = p;
            in.order = t->metadataValue(key);
            runs.push_back(std::move(in));
        }
    }
    for (const HistoryInput& in : runs)
        if (in.order.isEmpty())
            return failure(QStringLiteral("%1 has no metadata '%2' to order it by").arg(in.label, key));
    const HistoryResult result = fromDatabase ? std::move(*fromDatabase) : historyOf(std::move(runs), options);
    if (!result.ok())
        return failure(result.error);
    const History& h = result.history;

    // A rate (the metric says so, or --higher-is-better): a fall is a regression.
    const bool higherIsBetter = cmd.isSet(higher) || h.higherIsBetter;
    QStringList regressions;
    if (cmd.isSet(failAbove))
        for (const HistorySeries& s : h.series) {
            const QString why = newestRegression(s, h, *threshold, higherIsBetter);
            if (!why.isEmpty())
                regressions << why;
        }

    if (cmd.isSet(json)) {
        QJsonArray runArray;
        for (const HistoryInput& in : h.runs)
            runArray.append(QJsonObject { { QStringLiteral("run"), in.label }, { QStringLiteral("order"), in.order },
                { QStringLiteral("trial"), in.trial && in.trialName.isEmpty() ? in.trial->name() : in.trialName } });
        QJsonArray pointArray;
        for (const HistoryPoint& p : h.points) {
            QJsonArray members;
            for (int i : p.runs)
                members.append(i);
            pointArray.append(
                QJsonObject { { QStringLiteral("order"), p.order }, { QStringLiteral("runs"), members } });
        }
        QJsonArray seriesArray;
        for (const HistorySeries& s : h.series) {
            QJsonArray changes;
            for (const ChangePoint& c : s.changes.changes) {
                const bool worse = higherIsBetter ? c.percent < 0 : c.percent > 0;
                changes.append(QJsonObject { { QStringLiteral("index"), c.index },
                    { QStringLiteral("order"), h.points[static_cast<std::size_t>(c.index)].order },
                    { QStringLiteral("before"), c.before }, { QStringLiteral("after"), c.after },
                    { QStringLiteral("percent"), jsonNumber(c.percent) }, { QStringLiteral("p"), c.pValue },
                    { QStringLiteral("kind"), worse ? QStringLiteral("regression") : QStringLiteral("improvement") } });
            }
            seriesArray.append(QJsonObject { { QStringLiteral("event"), s.event },
                { QStringLiteral("values"), jsonNumbers(s.values) }, { QStringLiteral("min"), jsonNumbers(s.minimum) },
                { QStringLiteral("max"), jsonNumbers(s.maximum) }, { QStringLiteral("noise"), s.changes.noise },
                { QStringLiteral("noise_from_repeats"), s.changes.noiseFromRepeats },
                { QStringLiteral("run_values"), jsonNumbers(s.runValues) },
                { QStringLiteral("overall_percent"), jsonNumber(s.overallPercent) },
                { QStringLiteral("largest_step_percent"), jsonNumber(s.largestStepPercent) },
                { QStringLiteral("largest_step_at"), s.largestStepAt }, { QStringLiteral("changes"), changes } });
        }
        QJsonObject root { { QStringLiteral("order_by"), key }, { QStringLiteral("numeric_order"), h.numericOrder },
            { QStringLiteral("metric"), h.metric }, { QStringLiteral("value"), valueTypeName(h.value) },
            { QStringLiteral("statistic"), statisticName(h.statistic) }, { QStringLiteral("runs"), runArray },
            { QStringLiteral("points"), pointArray }, { QStringLiteral("repeated"), h.repeated },
            { QStringLiteral("series"), seriesArray } };
        if (cmd.isSet(failAbove))
            root.insert(QStringLiteral("regressions"), QJsonArray::fromStringList(regressions));
        printOut(QJsonDocument(root).toJson(QJsonDocument::Indented));
    } else {
        QString text;
        QTextStream out(&text);
        out << QStringLiteral("%1 runs at %2 points ordered by %3; %4 %5 of %6\n")
                   .arg(h.runs.size())
                   .arg(h.points.size())
                   .arg(key, statisticName(h.statistic), valueTypeName(h.value), h.metric);
        for (std::size_t i = 0; i < h.points.size(); ++i) {
            QStringList labels;
            for (int r : h.points[i].runs)
                labels << h.runs[static_cast<std::size_t>(r)].label;
            out << QStringLiteral("  %1  %2  %3\n")
                       .arg(i + 1, 3)
                       .arg(h.points[i].order, labels.join(QStringLiteral(", ")));
        }
        for (const HistorySeries& s : h.series) {
            out << QStringLiteral("\n%1 (noise %2%3; first to last %4; largest step %5 at point %6)\n")
                       .arg(s.event, number(s.changes.noise),
                           s.changes.noiseFromRepeats ? QStringLiteral(" from the repeats") : QString(),
                           percent(s.overallPercent), percent(s.largestStepPercent))
                       .arg(s.largestStepAt + 1);
            out << QStringLiteral("  point  value  min  max\n");
            for (std::size_t i = 0; i < s.values.size(); ++i)
                out << QStringLiteral("  %1  %2  %3  %4\n")
                           .arg(i + 1, 3)
                           .arg(number(s.values[i]), number(s.minimum[i]), number(s.maximum[i]));
            for (const ChangePoint& c : s.changes.changes) {
                const bool worse = higherIsBetter ? c.percent < 0 : c.percent > 0;
                out << QStringLiteral("  %1 at run %2 (%3): %4 -> %5 (%6), p = %7\n")
                           .arg(worse ? QStringLiteral("REGRESSION") : QStringLiteral("improvement"))
                           .arg(c.index + 1)
                           .arg(h.points[static_cast<std::size_t>(c.index)].order, number(c.before), number(c.after),
                               percent(c.percent))
                           .arg(c.pValue, 0, 'f', 3);
            }
        }
        for (const QString& r : regressions)
            out << QStringLiteral("\nREGRESSED above %1 %: %2\n").arg(*threshold).arg(r);
        out.flush();
        printOut(text);
    }
    return regressions.isEmpty() ? ExitSuccess : ExitRegression;
}

} // namespace parallax
