// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/flamecommand.h"

#include "algebra/flame.h"
#include "app/cli/algebracommand.h"
#include "app/cli/commandline.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

namespace parallax {

using namespace cli;

namespace {

QString sourceName(const FlameSource& source, const Trial& trial)
{
    if (source.thread.isValid())
        return QStringLiteral("thread %1").arg(trial.threadKey(source.thread).toString());
    return statisticName(source.statistic);
}

} // namespace

int runFlameCommand(const QStringList& args)
{
    Command cmd(QStringLiteral("flame"), QStringLiteral("PATH [B]"),
        QStringLiteral("The call tree as folded stacks, one line per call path with its exclusive (own) value:\n"
                       "'main;solve;MPI_Allreduce() 1234' (Brendan Gregg's format, for flamegraph.pl, inferno or\n"
                       "speedscope). With two runs A and B the union call tree, matched like the algebra's diff,\n"
                       "as 'path valueA valueB' (difffolded.pl's format). A ';' inside a name is written as ':',\n"
                       "a line break as a space; whole numbers are printed without decimals; call paths whose\n"
                       "values are all 0 are left out. The values add up to the sum of the exclusive values."));
    const auto metric
        = cmd.add({ QStringLiteral("metric") }, QStringLiteral("The metric (default the first)."), QStringLiteral("M"));
    const auto thread = cmd.add({ QStringLiteral("thread") },
        QStringLiteral("The values of one thread instead of a statistic across threads."), QStringLiteral("N,C,T"));
    const auto mean = cmd.add(
        { QStringLiteral("mean") }, QStringLiteral("The mean over all threads, absent counting as 0 (the default)."));
    const auto total = cmd.add({ QStringLiteral("total") }, QStringLiteral("The sum over all threads."));
    const auto minimum = cmd.add({ QStringLiteral("min") }, QStringLiteral("The minimum over the threads present."));
    const auto maximum = cmd.add({ QStringLiteral("max") }, QStringLiteral("The maximum over the threads present."));
    const auto folded = cmd.add({ QStringLiteral("folded") }, QStringLiteral("Print folded stacks (the default)."));
    const auto json = cmd.add({ QStringLiteral("json") },
        QStringLiteral("Print the laid-out frames (depth, x, width, inclusive and own values) as JSON."));
    const auto order = cmd.add({ QStringLiteral("order") },
        QStringLiteral("The order of siblings in --json: value (the default) or name."), QStringLiteral("ORDER"));
    const auto recursion = cmd.add({ QStringLiteral("merge-recursion") },
        QStringLiteral("Fold direct recursion (a routine calling itself) into one frame."));
    const auto match = cmd.add({ QStringLiteral("match") },
        QStringLiteral("Two runs: call-path matching exact (default), no-source, or normalized (for compiler vs "
                       "source instrumentation)."),
        QStringLiteral("MATCH"));
    const auto width = cmd.add({ QStringLiteral("width") },
        QStringLiteral("Two runs, --json: frame widths by a, b or max (the default)."), QStringLiteral("BY"));
    const auto format = cmd.add({ QStringLiteral("format") },
        QStringLiteral("Read with this reader instead of detecting the format."), QStringLiteral("NAME"));
    const auto db = cmd.add({ QStringLiteral("db") },
        QStringLiteral("The database for db:ID operands (default $PARALLAX_DB or the default database)."),
        QStringLiteral("LOCATION"));
    cmd.addArgument(QStringLiteral("PATH"), QStringLiteral("A profile in any format Parallax reads, or db:ID."));
    cmd.addArgument(QStringLiteral("B"), QStringLiteral("A second run: the differential form."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    if (!cmd.checkReader(cmd.value(format)))
        return ExitUsage;
    const QStringList positional = cmd.positional();
    if (positional.size() != 1 && positional.size() != 2)
        return cmd.usageError(QStringLiteral("give one PATH, or two runs A B"));
    for (const QString& p : positional)
        if (!cmd.checkOperand(p))
            return ExitUsage;
    if (cmd.isSet(json) && cmd.isSet(folded))
        return cmd.usageError(QStringLiteral("--folded and --json exclude each other"));
    int statistics = 0;
    FlameSource source;
    for (const auto& [option, statistic] :
        { std::pair { mean, Statistic::MeanAll }, std::pair { total, Statistic::Total },
            std::pair { minimum, Statistic::Min }, std::pair { maximum, Statistic::Max } })
        if (cmd.isSet(option)) {
            ++statistics;
            source.statistic = statistic;
        }
    if (statistics + (cmd.isSet(thread) ? 1 : 0) > 1)
        return cmd.usageError(QStringLiteral("give one of --thread, --mean, --total, --min, --max"));
    ThreadKey threadKey;
    if (cmd.isSet(thread)) {
        const auto key = cmd.threadKey(QStringLiteral("--thread"), cmd.value(thread));
        if (!key)
            return ExitUsage;
        threadKey = *key;
    }
    FlameOrder siblingOrder = FlameOrder::ByValue;
    if (cmd.isSet(order)) {
        if (cmd.value(order) == QLatin1String("name"))
            siblingOrder = FlameOrder::ByName;
        else if (cmd.value(order) != QLatin1String("value"))
            return cmd.usageError(QStringLiteral("--order takes value or name, not '%1'").arg(cmd.value(order)));
    }
    EventMatching matching;
    if (cmd.isSet(match)) {
        const QString m = cmd.value(match).toLower();
        if (m == QLatin1String("exact"))
            matching.policy = EventMatchPolicy::Exact;
        else if (m == QLatin1String("no-source") || m == QLatin1String("no_source"))
            matching.policy = EventMatchPolicy::NoSource;
        else if (m == QLatin1String("normalized") || m == QLatin1String("normalised") || m == QLatin1String("routine"))
            matching.policy = EventMatchPolicy::Routine;
        else
            return cmd.usageError(
                QStringLiteral("--match takes exact, no-source or normalized, not '%1'").arg(cmd.value(match)));
    }
    FlameWidth widthBy = FlameWidth::Max;
    if (cmd.isSet(width)) {
        const QString w = cmd.value(width).toLower();
        if (w == QLatin1String("a"))
            widthBy = FlameWidth::A;
        else if (w == QLatin1String("b"))
            widthBy = FlameWidth::B;
        else if (w != QLatin1String("max"))
            return cmd.usageError(QStringLiteral("--width takes a, b or max, not '%1'").arg(cmd.value(width)));
    }

    QString error;
    std::vector<std::shared_ptr<const Trial>> trials;
    for (const QString& p : positional) {
        auto t = loadTrialOperand(p, cmd.value(db), cmd.value(format), &error);
        if (!t)
            return failure(error);
        if (t->metricCount() == 0)
            return failure(QStringLiteral("%1 has no metrics").arg(p));
        trials.push_back(std::move(t));
    }
    const Trial& a = *trials.front();
    MetricId m(0u);
    if (cmd.isSet(metric)) {
        m = a.findMetric(cmd.value(metric));
        if (!m.isValid())
            return failure(QStringLiteral("%1 has no metric '%2'").arg(positional.front(), cmd.value(metric)));
        if (trials.size() == 2 && !trials[1]->findMetric(cmd.value(metric)).isValid())
            return failure(QStringLiteral("%1 has no metric '%2'").arg(positional[1], cmd.value(metric)));
    } else if (trials.size() == 2 && !trials[1]->findMetric(a.metric(m).name).isValid()) {
        return failure(QStringLiteral("%1 has no metric '%2' (the first metric of %3); choose one with --metric")
                           .arg(positional[1], a.metric(m).name, positional.front()));
    }
    if (cmd.isSet(thread)) {
        source.thread = a.findThread(threadKey);
        if (!source.thread.isValid())
            return failure(
                QStringLiteral("--thread %1: no such thread (N,C,T) in %2").arg(cmd.value(thread), positional.front()));
        if (trials.size() == 2 && !trials[1]->findThread(threadKey).isValid())
            return failure(
                QStringLiteral("--thread %1: no such thread (N,C,T) in %2").arg(cmd.value(thread), positional[1]));
    }

    QString text;
    QTextStream out(&text);
    if (trials.size() == 1) {
        const FlameTree tree = FlameTree::of(a, m, source, cmd.isSet(recursion));
        if (!tree.hasCallPaths())
            warning(
                QStringLiteral("%1 has no call paths (a flat profile): one frame per routine").arg(positional.front()));
        else if (tree.isTruncated())
            warning(QStringLiteral("%1: call paths were cut at TAU_CALLPATH_DEPTH = %2, so some stacks are suffixes of "
                                   "longer ones")
                        .arg(positional.front())
                        .arg(CallTree::of(a)->callPathDepthLimit()));
        if (!cmd.isSet(json)) {
            writeFolded(tree, out);
            out.flush();
            printOut(text);
            return ExitSuccess;
        }
        FlameLayoutOptions lo;
        lo.order = siblingOrder;
        const FlameLayout layout = layoutFlame(tree, lo);
        QJsonArray frames;
        for (const FlameFrame& f : layout.frames) {
            const auto& n = tree.node(f.node);
            frames.append(QJsonObject { { QStringLiteral("name"), n.name }, { QStringLiteral("depth"), f.depth },
                { QStringLiteral("parent"), f.parent }, { QStringLiteral("x"), f.x },
                { QStringLiteral("width"), f.width }, { QStringLiteral("inclusive"), jsonNumber(n.inclusive) },
                { QStringLiteral("self"), jsonNumber(n.self) } });
        }
        const QJsonObject doc { { QStringLiteral("trial"), a.name() }, { QStringLiteral("metric"), a.metric(m).name },
            { QStringLiteral("unit"), a.metric(m).unit }, { QStringLiteral("values"), sourceName(source, a) },
            { QStringLiteral("callPaths"), tree.hasCallPaths() }, { QStringLiteral("truncated"), tree.isTruncated() },
            { QStringLiteral("total"), layout.width }, { QStringLiteral("depth"), layout.depth },
            { QStringLiteral("frames"), frames } };
        printOut(QJsonDocument(doc).toJson(QJsonDocument::Indented));
        return ExitSuccess;
    }

    const Trial& b = *trials[1];
    const DiffFlameTree diff = DiffFlameTree::of(a, b, m, source, matching, widthBy);
    if (!cmd.isSet(json)) {
        diff.writeFolded(out);
        out.flush();
        printOut(text);
        return ExitSuccess;
    }
    FlameLayoutOptions lo;
    lo.order = siblingOrder;
    const FlameLayout layout = layoutFlame(diff.tree(), lo);
    QJsonArray frames;
    for (const FlameFrame& f : layout.frames) {
        const int i = f.node;
        frames.append(QJsonObject { { QStringLiteral("name"), diff.tree().node(i).name },
            { QStringLiteral("depth"), f.depth }, { QStringLiteral("parent"), f.parent }, { QStringLiteral("x"), f.x },
            { QStringLiteral("width"), f.width }, { QStringLiteral("a"), jsonNumber(diff.a(i).inclusive) },
            { QStringLiteral("b"), jsonNumber(diff.b(i).inclusive) },
            { QStringLiteral("selfA"), jsonNumber(diff.a(i).self) },
            { QStringLiteral("selfB"), jsonNumber(diff.b(i).self) },
            { QStringLiteral("delta"), jsonNumber(diff.delta(i)) },
            { QStringLiteral("deltaPercent"), jsonNumber(diff.deltaPercent(i)) },
            { QStringLiteral("only"),
                diff.onlyInA(i)       ? QStringLiteral("A")
                    : diff.onlyInB(i) ? QStringLiteral("B")
                                      : QString() } });
    }
    const QJsonObject doc { { QStringLiteral("a"), a.name() }, { QStringLiteral("b"), b.name() },
        { QStringLiteral("metric"), a.metric(m).name }, { QStringLiteral("values"), sourceName(source, a) },
        { QStringLiteral("match"), matching.toString() }, { QStringLiteral("total"), layout.width },
        { QStringLiteral("frames"), frames } };
    printOut(QJsonDocument(doc).toJson(QJsonDocument::Indented));
    return ExitSuccess;
}

} // namespace parallax
