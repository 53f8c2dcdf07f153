// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/advisecommand.h"

#include "algebra/instrumentationfiles.h"
#include "algebra/units.h"
#include "app/cli/algebracommand.h"
#include "app/cli/commandline.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QTextStream>
#include <cmath>
#include <functional>

namespace parallax {

using namespace cli;

namespace {

/// The flat events whose source file (sourceLocationOf, docs/SEMANTICS.md §12) a file rule excludes.
void excludeByFile(const Trial& trial, AdvisorOptions& options, const std::function<bool(const QString&)>& excludes)
{
    for (std::size_t e = 0; e < trial.eventCount(); ++e) {
        if (trial.event(EventId(e)).isCallPath())
            continue;
        const auto location = sourceLocationOf(trial, EventId(e));
        if (location && excludes(location->file))
            options.userExclude.append(excludeListName(trial.event(EventId(e)).name));
    }
}

} // namespace

bool applyRulesFile(const QString& text, const Trial& trial, AdvisorOptions& options, QString* error)
{
    if (text.contains(QLatin1String("SCOREP_REGION_NAMES_BEGIN"))
        || text.contains(QLatin1String("SCOREP_FILE_NAMES_BEGIN"))) {
        QString e;
        const ScorepFilter filter = parseScorepFilter(text, &e);
        if (!e.isEmpty()) {
            *error = e;
            return false;
        }
        for (const IntervalEvent& ev : trial.events()) {
            if (ev.isCallPath())
                continue;
            const QString name = excludeListName(ev.name);
            const QString id = matchComponent(name, EventMatchPolicy::Routine);
            if (scorepFilterExcludes(filter, name) || scorepFilterExcludes(filter, id))
                options.userExclude.append(name);
        }
        excludeByFile(trial, options, [&](const QString& f) { return scorepFilterExcludesFile(filter, f); });
        return true;
    }
    QString e;
    const TauSelectFile file = parseTauSelectFile(text, &e);
    if (!e.isEmpty()) {
        *error = e;
        return false;
    }
    options.userExclude.append(file.exclude);
    options.keep.append(file.include);
    excludeByFile(trial, options, [&](const QString& f) { return tauSelectExcludesFile(file, f); });
    return true;
}

namespace {

QString count(double v) { return std::isnan(v) ? QStringLiteral("-") : formatNumber(v); }

QString percent(double fraction)
{
    return std::isnan(fraction) ? QStringLiteral("-") : formatPercentChange(100 * fraction);
}

bool writeFile(const QString& path, const QString& text, QString* error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text.toUtf8()) < 0 || !f.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

QJsonObject adviceJson(const Advice& a)
{
    QJsonArray suggestions;
    for (const Suggestion& s : a.suggestions)
        suggestions.append(QJsonObject { { QStringLiteral("name"), s.name },
            { QStringLiteral("event"),
                s.event.isValid() ? QJsonValue(static_cast<qint64>(s.event.index())) : QJsonValue() },
            { QStringLiteral("reasons"),
                QJsonArray::fromStringList(reasonText(s.reasons).split(QStringLiteral(", "))) },
            { QStringLiteral("why"), s.why }, { QStringLiteral("meanCalls"), jsonNumber(s.meanCalls) },
            { QStringLiteral("meanInclusiveUs"), jsonNumber(s.meanInclusiveMicros) },
            { QStringLiteral("usPerCall"), jsonNumber(s.microsPerCall) },
            { QStringLiteral("visits"), jsonNumber(s.visits) },
            { QStringLiteral("traceBytes"), jsonNumber(s.traceBytes) },
            { QStringLiteral("timeSavedUs"), jsonNumber(s.timeSavedMicros) },
            { QStringLiteral("scorep"), QJsonArray::fromStringList(s.scorep) } });
    QJsonArray previews;
    for (const RulePreview& p : rulePreviews(a))
        previews.append(QJsonObject {
            { QStringLiteral("rule"),
                p.reason == (ReasonLightweight | ReasonThrottled | ReasonUser | ReasonOpenUh) ? QStringLiteral("all")
                                                                                              : reasonText(p.reason) },
            { QStringLiteral("routines"), p.routines }, { QStringLiteral("visits"), jsonNumber(p.visits) },
            { QStringLiteral("traceBytes"), jsonNumber(p.traceBytes) },
            { QStringLiteral("timeSavedUs"), jsonNumber(p.timeSavedMicros) } });
    QJsonArray processes;
    for (std::size_t i = 0; i < a.trace.processes.size(); ++i)
        processes.append(QJsonObject { { QStringLiteral("node"), a.trace.processes[i] },
            { QStringLiteral("before"), jsonNumber(a.trace.before[i]) },
            { QStringLiteral("after"), jsonNumber(a.trace.after[i]) } });
    QJsonObject doc { { QStringLiteral("trial"), a.trialName }, { QStringLiteral("metric"), a.metricName },
        { QStringLiteral("threads"), static_cast<qint64>(a.threads) },
        { QStringLiteral("rule"),
            QJsonObject { { QStringLiteral("minCalls"), a.rule.minCalls },
                { QStringLiteral("maxUsPerCall"), a.rule.maxMicrosPerCall },
                { QStringLiteral("mean"),
                    a.rule.presentOnlyMean ? QStringLiteral("present") : QStringLiteral("all") } } },
        { QStringLiteral("throttle"),
            QJsonObject { { QStringLiteral("TAU_THROTTLE"), a.throttle.throttle },
                { QStringLiteral("TAU_THROTTLE_NUMCALLS"), a.throttle.numCalls },
                { QStringLiteral("TAU_THROTTLE_PERCALL"), a.throttle.perCall } } },
        { QStringLiteral("suggestions"), suggestions }, { QStringLiteral("rules"), previews },
        { QStringLiteral("throttled"), QJsonArray::fromStringList(a.throttledWarnings) },
        { QStringLiteral("kept"), QJsonArray::fromStringList(a.kept) },
        { QStringLiteral("unknownUserNames"), QJsonArray::fromStringList(a.unknownUserNames) },
        { QStringLiteral("exclude"), QJsonArray::fromStringList(a.excludeNames()) },
        { QStringLiteral("trace"),
            QJsonObject { { QStringLiteral("regions"), static_cast<qint64>(a.trace.regions) },
                { QStringLiteral("bytesPerVisit"), a.trace.bytesPerVisit },
                { QStringLiteral("totalBefore"), jsonNumber(a.trace.totalBefore) },
                { QStringLiteral("totalAfter"), jsonNumber(a.trace.totalAfter) },
                { QStringLiteral("maxBefore"), jsonNumber(a.trace.maxBefore) },
                { QStringLiteral("maxAfter"), jsonNumber(a.trace.maxAfter) },
                { QStringLiteral("processes"), processes } } },
        { QStringLiteral("warnings"), QJsonArray::fromStringList(a.warnings) } };
    if (a.overhead) {
        const OverheadReport& o = *a.overhead;
        QJsonArray rows;
        for (const OverheadRow& r : o.rows)
            rows.append(QJsonObject { { QStringLiteral("name"), r.name },
                { QStringLiteral("instrumented"), jsonNumber(r.instrumented) },
                { QStringLiteral("baseline"), jsonNumber(r.baseline) },
                { QStringLiteral("overhead"), jsonNumber(r.overhead) },
                { QStringLiteral("calls"), jsonNumber(r.calls) } });
        doc.insert(QStringLiteral("overhead"),
            QJsonObject { { QStringLiteral("baseline"), o.baselineName },
                { QStringLiteral("totalInstrumented"), jsonNumber(o.totalInstrumented) },
                { QStringLiteral("totalBaseline"), jsonNumber(o.totalBaseline) },
                { QStringLiteral("total"), jsonNumber(o.total) },
                { QStringLiteral("visitsInstrumented"), jsonNumber(o.visitsInstrumented) },
                { QStringLiteral("visitsBaseline"), jsonNumber(o.visitsBaseline) },
                { QStringLiteral("usPerCall"), jsonNumber(o.perCallMicros) }, { QStringLiteral("regions"), rows },
                { QStringLiteral("collisions"), QJsonArray::fromStringList(o.collisions) } });
    }
    if (!a.openUh.empty()) {
        QJsonArray scores;
        for (const OpenUhScore& s : a.openUh)
            scores.append(QJsonObject { { QStringLiteral("name"), s.name }, { QStringLiteral("W"), s.weight },
                { QStringLiteral("L"), s.loopDepth }, { QStringLiteral("C"), s.instrumentedCallees },
                { QStringLiteral("score"), s.score }, { QStringLiteral("instrument"), s.instrument } });
        doc.insert(QStringLiteral("openUH"), scores);
    }
    return doc;
}

void writeText(const Advice& a, QTextStream& out)
{
    out << "Instrumentation advice for " << a.trialName << " (" << a.threads << " threads, metric "
        << (a.metricName.isEmpty() ? QStringLiteral("-") : a.metricName) << ")\n";
    out << "Lightweight rule: mean calls >= " << formatNumber(a.rule.minCalls)
        << " and inclusive us/call <= " << formatNumber(a.rule.maxMicrosPerCall) << " (mean over "
        << (a.rule.presentOnlyMean ? "the threads that ran it" : "all threads") << ")\n";
    if (a.throttle.recorded())
        out << "TAU throttling: TAU_THROTTLE=" << a.throttle.throttle << " NUMCALLS=" << a.throttle.numCalls
            << " PERCALL=" << a.throttle.perCall << " us\n";
    for (const QString& w : a.throttledWarnings)
        out << "warning: " << w << "\n";
    out << "\nSuggested exclusions (" << a.suggestions.size() << "):\n";
    out << QStringLiteral("%1 %2 %3 %4 %5 %6  %7\n")
               .arg(QStringLiteral("reason"), -22)
               .arg(QStringLiteral("calls(mean)"), 12)
               .arg(QStringLiteral("us/call"), 10)
               .arg(QStringLiteral("visits"), 12)
               .arg(QStringLiteral("trace"), 11)
               .arg(QStringLiteral("saved us"), 10)
               .arg(QStringLiteral("name"));
    for (const Suggestion& s : a.suggestions)
        out << QStringLiteral("%1 %2 %3 %4 %5 %6  %7\n")
                   .arg(reasonText(s.reasons), -22)
                   .arg(count(s.meanCalls), 12)
                   .arg(count(s.microsPerCall), 10)
                   .arg(count(s.visits), 12)
                   .arg(formatBytes(s.traceBytes), 11)
                   .arg(count(s.timeSavedMicros), 10)
                   .arg(s.name);
    for (const QString& u : a.unknownUserNames)
        out << QStringLiteral("%1 %2  %3 (not in the trial)\n")
                   .arg(QStringLiteral("user"), -22)
                   .arg(QString(), 68)
                   .arg(u);
    for (const QString& k : a.kept)
        out << "kept (the rules include it): " << k << "\n";
    out << "\nWhat each rule removes:\n";
    for (const RulePreview& p : rulePreviews(a)) {
        const bool all = p.reason == (ReasonLightweight | ReasonThrottled | ReasonUser | ReasonOpenUh);
        out << QStringLiteral("  %1 %2, %3 visits, %4 of trace, %5 us saved per thread\n")
                   .arg(all ? QStringLiteral("all:") : reasonText(p.reason) + QLatin1Char(':'), -13)
                   .arg(countText(
                       static_cast<qulonglong>(p.routines), QStringLiteral("routine"), QStringLiteral("routines")))
                   .arg(count(p.visits), formatBytes(p.traceBytes), count(p.timeSavedMicros));
    }
    out << "\nTrace size estimate (" << a.trace.regions << " regions, " << formatNumber(a.trace.bytesPerVisit)
        << " bytes per visit):\n"
        << "  total   " << formatBytes(a.trace.totalBefore) << " -> " << formatBytes(a.trace.totalAfter)
        << " with the filter\n"
        << "  max_buf " << formatBytes(a.trace.maxBefore) << " -> " << formatBytes(a.trace.maxAfter)
        << " (largest process)\n";
    if (a.overhead) {
        const OverheadReport& o = *a.overhead;
        out << "\nOverhead against " << o.baselineName << ": " << percent(o.total) << " (" << count(o.totalInstrumented)
            << " us full vs " << count(o.totalBaseline) << " us selective, mean per thread); " << count(o.perCallMicros)
            << " us per measured call\n";
        out << QStringLiteral("%1 %2 %3  %4\n")
                   .arg(QStringLiteral("full us"), 14)
                   .arg(QStringLiteral("selective us"), 14)
                   .arg(QStringLiteral("overhead"), 12)
                   .arg(QStringLiteral("region"));
        for (const OverheadRow& r : o.rows)
            out << QStringLiteral("%1 %2 %3  %4\n")
                       .arg(count(r.instrumented), 14)
                       .arg(count(r.baseline), 14)
                       .arg(percent(r.overhead), 12)
                       .arg(r.name);
    }
    if (!a.openUh.empty()) {
        out << "\nOpenUH scores (T = " << formatNumber(OpenUhDefaultThreshold) << "):\n";
        for (const OpenUhScore& s : a.openUh)
            out << QStringLiteral("  %1 %2  %3\n")
                       .arg(QString::number(s.score, 'f', 0), 12)
                       .arg(s.instrument ? QStringLiteral("instrument") : QStringLiteral("skip      "), s.name);
    }
    for (const QString& w : a.warnings)
        out << "warning: " << w << "\n";
}

} // namespace

int runAdviseCommand(const QStringList& args)
{
    Command cmd(QStringLiteral("advise"), QStringLiteral("PATH"),
        QStringLiteral("The instrumentation advisor (docs/SEMANTICS.md 7): routines to leave uninstrumented because\n"
                       "they are lightweight (many calls, little time per call), throttled by TAU, or chosen by\n"
                       "you; what each rule removes; the trace size before and after (scorep-score's estimate);\n"
                       "with --baseline the overhead (T_full - T_base) / T_base in total and per region. Writes\n"
                       "a TAU selective-instrumentation file and a Score-P filter file."));
    const auto baseline = cmd.add({ QStringLiteral("baseline") },
        QStringLiteral("A less instrumented (or uninstrumented) run of the same program: the overhead."),
        QStringLiteral("PATH"));
    const auto rules = cmd.add({ QStringLiteral("rules") },
        QStringLiteral("A TAU selective-instrumentation file or a Score-P filter: its exclusions are added, a TAU "
                       "include list is never excluded."),
        QStringLiteral("FILE"));
    const auto tauSelect = cmd.add({ QStringLiteral("tau-select") },
        QStringLiteral("Write the TAU exclude list (BEGIN_EXCLUDE_LIST ... END_EXCLUDE_LIST) to OUT."),
        QStringLiteral("OUT"));
    const auto merge = cmd.add({ QStringLiteral("merge") },
        QStringLiteral("With --tau-select: keep an existing OUT and append the names it does not exclude yet."));
    const auto scorep = cmd.add({ QStringLiteral("scorep-filter") },
        QStringLiteral("Write a Score-P filter file (SCOREP_REGION_NAMES_BEGIN EXCLUDE ...) to OUT."),
        QStringLiteral("OUT"));
    const auto json = cmd.add({ QStringLiteral("json") }, QStringLiteral("Print the advice as JSON."));
    const auto minCalls = cmd.add({ QStringLiteral("min-calls") },
        QStringLiteral("The rule's N: mean calls >= N (default 100000)."), QStringLiteral("N"));
    const auto maxPerCall = cmd.add({ QStringLiteral("max-us-per-call") },
        QStringLiteral("The rule's X: mean inclusive us per call <= X (default 10)."), QStringLiteral("X"));
    const auto present = cmd.add({ QStringLiteral("present-only") },
        QStringLiteral("The rule's means over the threads that ran the routine instead of all threads."));
    const auto exclude = cmd.add({ QStringLiteral("exclude") },
        QStringLiteral("Add a routine to the exclude list (repeatable)."), QStringLiteral("NAME"));
    const auto callCost = cmd.add({ QStringLiteral("call-overhead-us") },
        QStringLiteral("The cost of one measured call in us, for the time saved (default: from --baseline)."),
        QStringLiteral("X"));
    const auto match = cmd.add({ QStringLiteral("match") },
        QStringLiteral("Matching against the baseline: exact (default), no-source, or normalized."),
        QStringLiteral("MATCH"));
    const auto source = cmd.addTrialSource();
    cmd.addArgument(QStringLiteral("PATH"), QStringLiteral("The instrumented run: a profile in any format, or db:ID."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    const auto path = cmd.onePath(source);
    if (!path || (cmd.isSet(baseline) && !cmd.checkOperand(cmd.value(baseline))))
        return ExitUsage;
    if (cmd.isSet(merge) && !cmd.isSet(tauSelect))
        return cmd.usageError(QStringLiteral("--merge needs --tau-select"));
    AdvisorOptions options;
    const auto positiveNumber = [&](const QCommandLineOption& o, double* out) {
        if (!cmd.isSet(o))
            return true;
        bool ok = false;
        const double v = cmd.value(o).toDouble(&ok);
        if (!ok || !(v >= 0) || std::isinf(v)) {
            cmd.usageError(QStringLiteral("%1 takes a number >= 0, not '%2'").arg(optionText(o), cmd.value(o)));
            return false;
        }
        *out = v;
        return true;
    };
    double cost = 0;
    if (!positiveNumber(minCalls, &options.rule.minCalls) || !positiveNumber(maxPerCall, &options.rule.maxMicrosPerCall)
        || !positiveNumber(callCost, &cost))
        return ExitUsage;
    if (cmd.isSet(callCost))
        options.callOverheadMicros = cost;
    options.rule.presentOnlyMean = cmd.isSet(present);
    options.userExclude = cmd.values(exclude);
    if (cmd.isSet(match)) {
        const QString m = cmd.value(match).toLower();
        if (m == QLatin1String("no-source") || m == QLatin1String("no_source"))
            options.matching.policy = EventMatchPolicy::NoSource;
        else if (m == QLatin1String("normalized") || m == QLatin1String("normalised") || m == QLatin1String("routine"))
            options.matching.policy = EventMatchPolicy::Routine;
        else if (m != QLatin1String("exact"))
            return cmd.usageError(
                QStringLiteral("--match takes exact, no-source or normalized, not '%1'").arg(cmd.value(match)));
    }

    QString error;
    const auto trial = loadTrialOperand(*path, cmd.value(source.db), cmd.value(source.format), &error);
    if (!trial)
        return failure(error);
    std::shared_ptr<const Trial> base;
    if (cmd.isSet(baseline)) {
        base = loadTrialOperand(cmd.value(baseline), cmd.value(source.db), cmd.value(source.format), &error);
        if (!base)
            return failure(error);
    }
    if (cmd.isSet(rules)) {
        QFile f(cmd.value(rules));
        if (!f.open(QIODevice::ReadOnly))
            return failure(QStringLiteral("cannot read %1: %2").arg(cmd.value(rules), f.errorString()));
        if (!applyRulesFile(QString::fromUtf8(f.readAll()), *trial, options, &error))
            return failure(QStringLiteral("%1: %2").arg(cmd.value(rules), error));
    }
    const Advice advice = advise(*trial, base.get(), options);

    if (cmd.isSet(tauSelect)) {
        QString text = tauSelectText(advice);
        const QString path = cmd.value(tauSelect);
        if (cmd.isSet(merge) && QFile::exists(path)) {
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly))
                return failure(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
            QStringList conflicts;
            text = mergeTauSelectFile(QString::fromUtf8(f.readAll()), advice.excludeNames(), &conflicts, &error);
            if (!error.isEmpty())
                return failure(QStringLiteral("%1: %2").arg(path, error));
            for (const QString& c : conflicts)
                warning(QStringLiteral("%1 includes '%2': not excluded").arg(path, c));
        }
        if (!writeFile(path, text, &error))
            return failure(error);
    }
    if (cmd.isSet(scorep) && !writeFile(cmd.value(scorep), scorepFilterText(advice), &error))
        return failure(error);

    if (cmd.isSet(json)) {
        printOut(QJsonDocument(adviceJson(advice)).toJson(QJsonDocument::Indented));
        return ExitSuccess;
    }
    QString text;
    QTextStream out(&text);
    writeText(advice, out);
    out.flush();
    printOut(text);
    return ExitSuccess;
}

} // namespace parallax
