// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/sourcecommand.h"

#include "algebra/sourcecost.h"
#include "algebra/units.h"
#include "app/cli/algebracommand.h"
#include "app/cli/commandline.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace parallax {

using namespace cli;

namespace {

QJsonObject locationJson(const SourceLocation& loc)
{
    return QJsonObject { { QStringLiteral("file"), loc.file }, { QStringLiteral("beginLine"), loc.beginLine },
        { QStringLiteral("beginColumn"), loc.beginColumn }, { QStringLiteral("endLine"), loc.endLine },
        { QStringLiteral("endColumn"), loc.endColumn } };
}

int listFiles(const Trial& trial, bool json)
{
    const auto index = SourceIndex::of(trial);
    if (json) {
        QJsonArray files;
        for (const auto& f : index->files())
            files.append(QJsonObject {
                { QStringLiteral("file"), f.name }, { QStringLiteral("events"), static_cast<qint64>(f.events) } });
        printOut(QJsonDocument(QJsonObject { { QStringLiteral("files"), files } }).toJson());
        return ExitSuccess;
    }
    QString text;
    QTextStream out(&text);
    for (const auto& f : index->files())
        out << f.events << '\t' << f.name << '\n';
    out.flush();
    printOut(text);
    return ExitSuccess;
}

/// The file's lines with the costs of the events that begin on each, as the gutter shows them.
void writeAnnotated(QTextStream& out, const SourceFileCosts& costs, const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        warning(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
        return;
    }
    QTextStream in(&f);
    int line = 0;
    while (!in.atEnd()) {
        const QString text = in.readLine();
        ++line;
        const auto at = costs.eventsAtLine(line);
        QString excl;
        QString incl;
        if (!at.empty()) {
            excl = formatNumber(costs.events[at.front()].exclusive);
            incl = formatNumber(costs.events[at.front()].inclusive);
            if (at.size() > 1)
                incl += QStringLiteral(" +%1").arg(at.size() - 1);
        }
        out << QStringLiteral("%1 %2 %3 | %4\n").arg(line, 6).arg(excl, 14).arg(incl, 17).arg(text);
    }
}

} // namespace

int runSourceCommand(const QStringList& args)
{
    Command cmd(QStringLiteral("source"), QStringLiteral("PATH"),
        QStringLiteral("The events located in a source file (TAU's [{file} {line,col}-{line,col}], CUBE/Score-P\n"
                       "regions' mod and lines, Caliper sourceloc, pstats and HPCToolkit file:line names) with their "
                       "exclusive and inclusive values of one\n"
                       "metric and statistic: the statistics table's numbers, by first line (docs/SEMANTICS.md §12).\n"
                       "The file is found as the source browser finds it: the recorded path, the remappings, then\n"
                       "the trial's directory and each --root (the recorded path and its trailing parts)."));
    const auto file = cmd.add({ QStringLiteral("file") },
        QStringLiteral("The recorded file name (as --list prints it, or a trailing part of it)."), QStringLiteral("F"));
    const auto event = cmd.add({ QStringLiteral("event") },
        QStringLiteral("An event (exact name): its file, with the event marked."), QStringLiteral("E"));
    const auto list = cmd.add({ QStringLiteral("list") }, QStringLiteral("List the recorded files and their events."));
    const auto root = cmd.add(
        { QStringLiteral("root") }, QStringLiteral("A directory to search (repeatable)."), QStringLiteral("DIR"));
    const auto remap = cmd.add({ QStringLiteral("remap") },
        QStringLiteral("Replace a recorded path prefix, e.g. /g/g17/user/src=~/src (repeatable)."),
        QStringLiteral("FROM=TO"));
    const auto metric
        = cmd.add({ QStringLiteral("metric") }, QStringLiteral("The metric (default the first)."), QStringLiteral("M"));
    const auto statistic = cmd.add({ QStringLiteral("statistic") },
        QStringLiteral("mean (default), mean-present, total, min, max, sd or sd-present."), QStringLiteral("S"));
    const auto annotate = cmd.add({ QStringLiteral("annotate") },
        QStringLiteral("Print the file's lines with the costs beside them (needs the file)."));
    const auto json = cmd.add({ QStringLiteral("json") }, QStringLiteral("Print JSON."));
    const auto source = cmd.addTrialSource();
    cmd.addArgument(QStringLiteral("PATH"), QStringLiteral("A profile in any format Parallax reads, or db:ID."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    const auto path = cmd.onePath(source);
    if (!path)
        return ExitUsage;
    if (int(cmd.isSet(file)) + int(cmd.isSet(event)) + int(cmd.isSet(list)) != 1)
        return cmd.usageError(QStringLiteral("give one of --file, --event, --list"));
    if (cmd.isSet(annotate) && cmd.isSet(json))
        return cmd.usageError(QStringLiteral("--annotate and --json exclude each other"));
    Statistic stat = Statistic::MeanAll;
    if (cmd.isSet(statistic)) {
        const auto st = statisticOf(cmd.value(statistic));
        if (!st)
            return cmd.usageError(
                QStringLiteral("--statistic: '%1' is none of %2").arg(cmd.value(statistic), statisticNames()));
        stat = *st;
    }
    SourceSearch search;
    for (const QString& rule : cmd.values(remap)) {
        const auto r = parseRemap(rule);
        if (!r)
            return cmd.usageError(QStringLiteral("--remap takes FROM=TO, not '%1'").arg(rule));
        search.remaps.push_back(*r);
    }

    QString error;
    const auto trial = loadTrialOperand(*path, cmd.value(source.db), cmd.value(source.format), &error);
    if (!trial)
        return failure(error);
    if (cmd.isSet(list))
        return listFiles(*trial, cmd.isSet(json));
    if (trial->metricCount() == 0)
        return failure(QStringLiteral("%1 has no metrics").arg(*path));
    MetricId m(0u);
    if (cmd.isSet(metric)) {
        m = trial->findMetric(cmd.value(metric));
        if (!m.isValid())
            return failure(QStringLiteral("%1 has no metric '%2'").arg(*path, cmd.value(metric)));
    }
    EventId selected;
    QString recorded = cmd.value(file);
    if (cmd.isSet(event)) {
        selected = trial->findEvent(cmd.value(event));
        if (!selected.isValid())
            return failure(QStringLiteral("%1 has no event '%2'").arg(*path, cmd.value(event)));
        const auto& loc = SourceIndex::of(*trial)->location(selected);
        if (!loc)
            return failure(QStringLiteral("the event '%1' has no source location").arg(cmd.value(event)));
        recorded = loc->file;
    }
    const SourceFileCosts costs = sourceFileCosts(*trial, recorded, m, stat);
    if (costs.events.empty())
        return failure(
            QStringLiteral("no event of %1 is located in '%2' (--list shows the files)").arg(*path, recorded));
    if (const QString own = trialSourceRoot(trial->provenance().source); !own.isEmpty())
        search.roots << own;
    search.roots << cmd.values(root);
    const SourceFileLookup found = locateSourceFile(costs, search);

    const Metric& metricInfo = trial->metric(m);
    if (cmd.isSet(json)) {
        QJsonArray events;
        for (const SourceEventCost& c : costs.events)
            events.append(QJsonObject { { QStringLiteral("event"), trial->event(c.event).name },
                { QStringLiteral("location"), locationJson(c.location) },
                { QStringLiteral("exclusive"), jsonNumber(c.exclusive) },
                { QStringLiteral("inclusive"), jsonNumber(c.inclusive) },
                { QStringLiteral("selected"), c.event == selected } });
        const QJsonObject root { { QStringLiteral("file"), recorded }, { QStringLiteral("path"), found.path },
            { QStringLiteral("found"), !found.path.isEmpty() },
            { QStringLiteral("tried"), QJsonArray::fromStringList(found.tried) },
            { QStringLiteral("metric"), metricInfo.name }, { QStringLiteral("unit"), metricInfo.unit },
            { QStringLiteral("statistic"), statisticName(stat) }, { QStringLiteral("events"), events } };
        printOut(QJsonDocument(root).toJson());
        return ExitSuccess;
    }
    QString text;
    QTextStream out(&text);
    out << "File: " << recorded << '\n';
    if (found.path.isEmpty())
        out << "Not found; tried: " << found.tried.join(QStringLiteral(", ")) << '\n';
    else
        out << "Path: " << found.path << '\n';
    out << "Metric: " << metricInfo.name
        << (metricInfo.unit.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(metricInfo.unit))
        << ", statistic: " << statisticName(stat) << "\n\n";
    if (cmd.isSet(annotate) && !found.path.isEmpty()) {
        writeAnnotated(out, costs, found.path);
    } else {
        out << QStringLiteral("%1 %2 %3 %4  %5\n")
                   .arg(QStringLiteral("line"), 6)
                   .arg(QStringLiteral("to"), 6)
                   .arg(QStringLiteral("exclusive"), 14)
                   .arg(QStringLiteral("inclusive"), 14)
                   .arg(QStringLiteral("event"));
        for (const SourceEventCost& c : costs.events)
            out << QStringLiteral("%1 %2 %3 %4 %5%6\n")
                       .arg(c.location.beginLine, 6)
                       .arg(c.location.endLine, 6)
                       .arg(formatNumber(c.exclusive), 14)
                       .arg(formatNumber(c.inclusive), 14)
                       .arg(c.event == selected ? QLatin1Char('*') : QLatin1Char(' '))
                       .arg(trial->event(c.event).name);
    }
    out.flush();
    printOut(text);
    return found.path.isEmpty() && cmd.isSet(annotate) ? ExitFailure : ExitSuccess;
}

} // namespace parallax
