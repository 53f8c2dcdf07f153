// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/snapshotscommand.h"

#include "algebra/snapshotseries.h"
#include "algebra/units.h"
#include "app/cli/algebracommand.h"
#include "app/cli/commandline.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <algorithm>
#include <limits>
#include <optional>

namespace parallax {

using namespace cli;

namespace {

/// Seconds from the first snapshot to the end of `interval`, or "-" without timestamps.
QString secondsSinceFirst(const SnapshotSeriesTable& table, const SnapshotInterval& interval)
{
    const qint64 first = table.intervals.front().timestamp;
    if (first == 0 || interval.timestamp == 0)
        return QStringLiteral("-");
    return QString::number(static_cast<double>(interval.timestamp - first) / 1e6, 'f', 3);
}

QString textTable(
    const Trial& trial, const SnapshotSeriesTable& table, std::size_t rows, const QString& values, MetricId metric)
{
    const QLocale c = QLocale::c();
    QString text = QStringLiteral("%1: %2 (%3), exclusive, per interval between snapshots; %4\n")
                       .arg(trial.name(), trial.metric(metric).name, trial.metric(metric).unit, values);
    if (!trial.hasTimeSeries())
        text += QStringLiteral("(no snapshots: one interval, the whole profile)\n");
    text += QStringLiteral("\nEvents (total = the final value):\n");
    for (std::size_t r = 0; r < rows; ++r)
        text += QStringLiteral("  [%1] %2  (total %3)\n")
                    .arg(r + 1)
                    .arg(trial.event(table.events[r]).name, formatNumber(table.total(r), c));
    QStringList header { QStringLiteral("#"), QStringLiteral("snapshot"), QStringLiteral("time (s)") };
    for (std::size_t r = 0; r < rows; ++r)
        header << QStringLiteral("[%1]").arg(r + 1);
    std::vector<QStringList> lines { header };
    for (std::size_t i = 0; i < table.intervals.size(); ++i) {
        const SnapshotInterval& interval = table.intervals[i];
        QStringList line { QString::number(interval.index), interval.label, secondsSinceFirst(table, interval) };
        for (std::size_t r = 0; r < rows; ++r)
            line << formatNumber(table.value(r, i), c);
        lines.push_back(line);
    }
    std::vector<qsizetype> widths(static_cast<std::size_t>(header.size()), 0);
    for (const QStringList& line : lines)
        for (qsizetype k = 0; k < line.size(); ++k)
            widths[static_cast<std::size_t>(k)] = std::max(widths[static_cast<std::size_t>(k)], line[k].size());
    text += QLatin1Char('\n');
    for (const QStringList& line : lines) {
        QString out;
        for (qsizetype k = 0; k < line.size(); ++k) {
            const int w = static_cast<int>(widths[static_cast<std::size_t>(k)]);
            // The label left-aligned, the numbers right-aligned.
            out += (k == 1 ? line[k].leftJustified(w) : line[k].rightJustified(w)) + QStringLiteral("  ");
        }
        text += out.trimmed() + QLatin1Char('\n');
    }
    return text;
}

} // namespace

int runSnapshotsCommand(const QStringList& args)
{
    Command cmd(QStringLiteral("snapshots"), QStringLiteral("PATH | --order-by KEY PATH PATH..."),
        QStringLiteral("The per-interval table of a trial with snapshots (TAU snapshot profiles): interval i is\n"
                       "the difference between snapshot i and snapshot i-1 (the first interval is the first\n"
                       "snapshot), so an event's intervals add up to its final value. Per interval: the snapshot's\n"
                       "label, its time since the first snapshot, and the exclusive value of the metric for each\n"
                       "of the top events by total (flat events), for a statistic over the threads (the mean by\n"
                       "default) or one thread.\n"
                       "With --range A..B -o OUT it writes the profile of intervals A to B instead: snapshot B\n"
                       "minus snapshot A-1 for every thread and cell, an ordinary trial (any format, or db:).\n"
                       "With --order-by KEY and several PATHs, the trials are the snapshots of one run (e.g. TAU's\n"
                       "cumulative dumps) in the order of their metadata value KEY."));
    const auto event = cmd.add({ QStringLiteral("event") },
        QStringLiteral("Only this event (instead of the top events by total)."), QStringLiteral("NAME"));
    const auto metric
        = cmd.add({ QStringLiteral("metric") }, QStringLiteral("The metric (default the first)."), QStringLiteral("M"));
    const auto thread = cmd.add({ QStringLiteral("thread") },
        QStringLiteral("The values of one thread instead of the mean."), QStringLiteral("N,C,T"));
    const auto mean = cmd.add(
        { QStringLiteral("mean") }, QStringLiteral("The mean over all threads, absent counting as 0 (the default)."));
    const auto statistic = cmd.add({ QStringLiteral("statistic") },
        QStringLiteral("The statistic over the threads per interval: %1 (docs/SEMANTICS.md §1.11).")
            .arg(statisticNames()),
        QStringLiteral("NAME"));
    const auto top = cmd.add({ QStringLiteral("top") },
        QStringLiteral("How many events, by total (default 10; 0 for all)."), QStringLiteral("N"));
    const auto json = cmd.add({ QStringLiteral("json") }, QStringLiteral("Print the table as JSON."));
    const auto format = cmd.add({ QStringLiteral("format") },
        QStringLiteral("Read with this reader instead of detecting the format."), QStringLiteral("NAME"));
    const auto db = cmd.add({ QStringLiteral("db") },
        QStringLiteral("The database for a db:ID operand (default $PARALLAX_DB or the default database)."),
        QStringLiteral("LOCATION"));
    const auto orderBy = cmd.add({ QStringLiteral("order-by") },
        QStringLiteral("Several PATHs are one run's cumulative profiles: their snapshots in the order of this\n"
                       "metadata key (as numbers when every value is one, else as text)."),
        QStringLiteral("KEY"));
    const auto range = cmd.add({ QStringLiteral("range") },
        QStringLiteral("Write the profile of intervals A to B (0-based, as the table numbers them; A..A for one)."),
        QStringLiteral("A..B"));
    const auto out = cmd.add({ QStringLiteral("o"), QStringLiteral("out") },
        QStringLiteral("With --range: where to write the profile (a TAU directory, FILE.ppk, ..., or db:)."),
        QStringLiteral("OUT"));
    const auto to = cmd.add({ QStringLiteral("to") },
        QStringLiteral("The format -o writes (see 'parallax-cli formats')."), QStringLiteral("FORMAT"));
    cmd.addArgument(QStringLiteral("PATH"),
        QStringLiteral("A profile in any format Parallax reads, or db:ID (several with --order-by)."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    if (!cmd.checkReader(cmd.value(format)))
        return ExitUsage;
    const QStringList positional = cmd.positional();
    if (cmd.isSet(orderBy) ? positional.size() < 2 : positional.size() != 1)
        return cmd.usageError(cmd.isSet(orderBy) ? QStringLiteral("--order-by takes two or more PATHs")
                                                 : QStringLiteral("give one PATH (several with --order-by KEY)"));
    for (const QString& operand : positional)
        if (!cmd.checkOperand(operand))
            return ExitUsage;
    if (int(cmd.isSet(thread)) + int(cmd.isSet(mean)) + int(cmd.isSet(statistic)) > 1)
        return cmd.usageError(QStringLiteral("give one of --thread, --mean and --statistic"));
    Statistic over = Statistic::MeanAll;
    if (cmd.isSet(statistic)) {
        const auto st = statisticOf(cmd.value(statistic));
        if (!st)
            return cmd.usageError(
                QStringLiteral("--statistic: '%1' is none of %2").arg(cmd.value(statistic), statisticNames()));
        over = *st;
    }
    if (cmd.isSet(event) && cmd.isSet(top))
        return cmd.usageError(QStringLiteral("--event and --top exclude each other"));
    const auto count = cmd.integer(top, 0, std::numeric_limits<int>::max(), 10);
    if (!count || !cmd.checkWriter(cmd.value(to)))
        return ExitUsage;
    if (cmd.isSet(range) != cmd.isSet(out))
        return cmd.usageError(QStringLiteral("--range A..B and -o OUT go together"));
    std::optional<std::pair<int, int>> interval;
    if (cmd.isSet(range)) {
        const QStringList ends = cmd.value(range).split(QStringLiteral(".."));
        const auto first
            = ends.size() == 2 ? cmd.integer(QStringLiteral("--range"), ends[0], 0, 1000000) : std::nullopt;
        const auto last = first ? cmd.integer(QStringLiteral("--range"), ends[1], 0, 1000000) : std::nullopt;
        if (!last)
            return ends.size() == 2
                ? ExitUsage
                : cmd.usageError(QStringLiteral("--range %1: expected A..B, as in 2..5").arg(cmd.value(range)));
        interval = std::pair(static_cast<int>(*first), static_cast<int>(*last));
    }
    std::optional<ThreadKey> key;
    if (cmd.isSet(thread)) {
        key = cmd.threadKey(QStringLiteral("--thread"), cmd.value(thread));
        if (!key)
            return ExitUsage;
    }

    QString error;
    std::shared_ptr<const Trial> trial;
    if (cmd.isSet(orderBy)) {
        std::vector<std::shared_ptr<const Trial>> runs;
        for (const QString& operand : positional) {
            runs.push_back(loadTrialOperand(operand, cmd.value(db), cmd.value(format), &error));
            if (!runs.back())
                return failure(error);
        }
        const AlgebraResult series = snapshotsOfTrials(runs, cmd.value(orderBy));
        if (!series)
            return failure(series.error());
        trial = series.trial();
    } else {
        trial = loadTrialOperand(positional.front(), cmd.value(db), cmd.value(format), &error);
        if (!trial)
            return failure(error);
    }
    if (trial->metricCount() == 0)
        return failure(QStringLiteral("%1 has no metrics").arg(positional.front()));
    MetricId m(0u);
    if (cmd.isSet(metric)) {
        m = trial->findMetric(cmd.value(metric));
        if (!m.isValid())
            return failure(QStringLiteral("%1 has no metric '%2'").arg(positional.front(), cmd.value(metric)));
    }
    ThreadIndex t;
    if (key) {
        t = trial->findThread(*key);
        if (!t.isValid())
            return failure(
                QStringLiteral("--thread %1: no such thread (N,C,T) in %2").arg(cmd.value(thread), positional.front()));
    }
    if (interval) {
        const AlgebraResult profile = intervalProfile(*trial, interval->first, interval->second);
        if (!profile)
            return failure(profile.error());
        const Trial& p = *profile.trial();
        if (const int code = writeDerivedTrial(p, cmd.value(out), cmd.value(to), cmd.value(db), cmd.isSet(json)))
            return code;
        if (cmd.isSet(json))
            printOut(QJsonDocument(
                QJsonObject { { QStringLiteral("trial"), p.name() }, { QStringLiteral("first"), interval->first },
                    { QStringLiteral("last"), interval->second }, { QStringLiteral("out"), cmd.value(out) },
                    { QStringLiteral("threads"), static_cast<qint64>(p.threadCount()) },
                    { QStringLiteral("events"), static_cast<qint64>(p.eventCount()) } })
                         .toJson(QJsonDocument::Indented));
        return ExitSuccess;
    }
    if (!trial->hasTimeSeries())
        warning(QStringLiteral("%1 has no snapshots (one per thread): the table has one interval, the profile")
                    .arg(positional.front()));

    SnapshotSeriesTable table = snapshotSeries(*trial, m, t, over);
    std::size_t rows = table.events.size();
    if (cmd.isSet(event)) {
        const auto it = std::find_if(table.events.begin(), table.events.end(),
            [&](EventId e) { return trial->event(e).name == cmd.value(event); });
        if (it == table.events.end())
            return failure(
                QStringLiteral("%1 has no flat event '%2' in its snapshots").arg(positional.front(), cmd.value(event)));
        const std::size_t row = static_cast<std::size_t>(it - table.events.begin());
        const std::size_t n = table.intervals.size();
        table.events = { *it };
        table.values = std::vector<double>(table.values.begin() + static_cast<std::ptrdiff_t>(row * n),
            table.values.begin() + static_cast<std::ptrdiff_t>((row + 1) * n));
        rows = 1;
    } else if (*count > 0) {
        rows = std::min(rows, static_cast<std::size_t>(*count));
    }
    const QString values = t.isValid()
        ? QStringLiteral("thread %1").arg(trial->threadKey(t).toString())
        : QStringLiteral("%1 over %2 threads").arg(statisticName(over).toLower()).arg(trial->threadCount());

    if (!cmd.isSet(json)) {
        printOut(textTable(*trial, table, rows, values, m));
        return ExitSuccess;
    }
    QJsonArray intervals;
    for (const SnapshotInterval& i : table.intervals)
        intervals.append(QJsonObject { { QStringLiteral("index"), i.index }, { QStringLiteral("label"), i.label },
            { QStringLiteral("start"), QString::number(i.start) },
            { QStringLiteral("timestamp"), QString::number(i.timestamp) } });
    QJsonArray events;
    for (std::size_t r = 0; r < rows; ++r) {
        QJsonArray v;
        for (std::size_t i = 0; i < table.intervals.size(); ++i)
            v.append(jsonNumber(table.value(r, i)));
        events.append(QJsonObject { { QStringLiteral("name"), trial->event(table.events[r]).name },
            { QStringLiteral("total"), jsonNumber(table.total(r)) }, { QStringLiteral("values"), v } });
    }
    const QJsonObject doc { { QStringLiteral("trial"), trial->name() },
        { QStringLiteral("metric"), trial->metric(m).name }, { QStringLiteral("unit"), trial->metric(m).unit },
        { QStringLiteral("values"), values },
        { QStringLiteral("statistic"), t.isValid() ? QJsonValue() : QJsonValue(statisticName(over)) },
        { QStringLiteral("snapshots"), trial->hasTimeSeries() }, { QStringLiteral("intervals"), intervals },
        { QStringLiteral("events"), events } };
    printOut(QJsonDocument(doc).toJson(QJsonDocument::Indented));
    return ExitSuccess;
}

} // namespace parallax
