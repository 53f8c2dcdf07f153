// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// parallax-cli: the headless front end (no Widgets linked).
#include "app/cli/advisecommand.h"
#include "app/cli/algebracommand.h"
#include "app/cli/browsecommand.h"
#include "app/cli/clustercommand.h"
#include "app/cli/commandline.h"
#include "app/cli/commmatrixcommand.h"
#include "app/cli/dbcommand.h"
#include "app/cli/flamecommand.h"
#include "app/cli/historycommand.h"
#include "app/cli/imbalancereport.h"
#include "app/cli/inforeport.h"
#include "app/cli/modelcommand.h"
#include "app/cli/pprofreport.h"
#include "app/cli/semanticcommand.h"
#include "app/cli/snapshotscommand.h"
#include "app/cli/sourcecommand.h"
#include "datasource/readers/readerregistry.h"
#include "datasource/synth/synth.h"
#include "datasource/writers/tausnapshotwriter.h"
#include "datasource/writers/tauwriter.h"
#include "datasource/writers/writerregistry.h"
#include "parallax_version.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <clocale>
#include <csignal>
#include <cstdio>
#include <limits>
#include <string>

using namespace parallax;
using namespace parallax::cli;

namespace {

/// Format-specific reader options: --reader-option NAME before the command, or an option of
/// pprof and info (repeatable).
QStringList readerOptions;

QCommandLineOption addReaderOption(Command& cmd)
{
    return cmd.add({ QStringLiteral("O"), QStringLiteral("reader-option") },
        QStringLiteral("Pass a format option to the reader (repeatable), e.g. fixnames (gprof: drop AIX '.' prefixes "
                       "and Fortran '_' suffixes), from=SECONDS / to=SECONDS (otf2: the profile of a time window)."),
        QStringLiteral("NAME"));
}

TrialResult load(const QString& path, const QString& format, bool strict)
{
    ReadOptions options;
    options.strict = strict;
    options.formatOptions = readerOptions;
    Progress progress;
    return ReaderRegistry::instance().read(path, options, progress, format);
}

bool isInteger(const QString& s)
{
    bool ok = false;
    s.toLongLong(&ok, 10);
    return ok;
}

/// --db LOCATION and --id N of pprof and info: a stored trial instead of a path.
struct StoredTrialOptions {
    QCommandLineOption db;
    QCommandLineOption id;
};

StoredTrialOptions addStoredTrialOptions(Command& cmd)
{
    return { cmd.add({ QStringLiteral("db") },
                 QStringLiteral("Read the trial from this database (an SQLite file or postgresql://...; default "
                                "$PARALLAX_DB or the default SQLite database). Needs --id."),
                 QStringLiteral("LOCATION")),
        cmd.add({ QStringLiteral("id") }, QStringLiteral("The stored trial to read (see 'parallax-cli db list')."),
            QStringLiteral("N")) };
}

int runPprof(const QStringList& args)
{
    Command cmd(QStringLiteral("pprof"), QStringLiteral("[DIR] [node numbers...]"),
        QStringLiteral("Print a profile exactly as TAU's pprof prints it. DIR is a profile directory or any file\n"
                       "Parallax reads (default: $PROFILEDIR or the current directory)."));
    // TAU's pprof options, with its own descriptions; compacted as getopt allows (-sm, -n10).
    const auto a = cmd.add({ QStringLiteral("a") }, QStringLiteral("Show all location information available"));
    cmd.add({ QStringLiteral("c") }, QStringLiteral("Sort according to number of Calls"));
    cmd.add({ QStringLiteral("b") }, QStringLiteral("Sort according to number of suBroutines called by a function"));
    cmd.add({ QStringLiteral("m") }, QStringLiteral("Sort according to Milliseconds (exclusive time total)"));
    cmd.add({ QStringLiteral("t") },
        QStringLiteral("Sort according to Total milliseconds (inclusive time total)  (default)"));
    cmd.add({ QStringLiteral("e") }, QStringLiteral("Sort according to Exclusive time per call (msec/call)"));
    cmd.add({ QStringLiteral("i") }, QStringLiteral("Sort according to Inclusive time per call (total msec/call)"));
    cmd.add({ QStringLiteral("v") }, QStringLiteral("Sort according to Standard Deviation (excl usec)"));
    const auto r = cmd.add({ QStringLiteral("r") }, QStringLiteral("Reverse sorting order"));
    const auto s = cmd.add({ QStringLiteral("s") }, QStringLiteral("print only Summary profile information"));
    const auto n = cmd.add(
        { QStringLiteral("n") }, QStringLiteral("print only first <num> number of functions"), QStringLiteral("num"));
    const auto p = cmd.add({ QStringLiteral("p") }, QStringLiteral("suPpress conversion to hh:mm:ss:mmm format"));
    const auto l = cmd.add({ QStringLiteral("l") }, QStringLiteral("List all functions and exit"));
    const auto x = cmd.add({ QStringLiteral("x") }, QStringLiteral("also print min and max summaries"));
    const auto d = cmd.add({ QStringLiteral("d") },
        QStringLiteral("Dump output format (for tau_reduce): not supported, an error says so"));
    const auto f = cmd.add({ QStringLiteral("f") },
        QStringLiteral("profile file prefix: not supported, give the directory instead"), QStringLiteral("filename"));
    const auto metric = cmd.add({ QStringLiteral("metric") },
        QStringLiteral("The metric to print (default: the first)."), QStringLiteral("NAME"));
    const auto format = cmd.add({ QStringLiteral("format") },
        QStringLiteral("Read with this reader instead of detecting the format (see 'parallax-cli formats')."),
        QStringLiteral("NAME"));
    const auto stored = addStoredTrialOptions(cmd);
    const auto readerOption = addReaderOption(cmd);
    cmd.addArgument(QStringLiteral("DIR"), QStringLiteral("The profile to print."));
    cmd.addArgument(QStringLiteral("node numbers"),
        QStringLiteral("prints only info about all contexts/threads of given node numbers"));
    if (const auto stop = cmd.parse(args))
        return *stop;
    if (cmd.isSet(d))
        return cmd.usageError(QStringLiteral("-d (the dump format for racy/tau_reduce) is not supported"));
    if (cmd.isSet(f))
        return cmd.usageError(QStringLiteral("-f PREFIX is not supported: give the directory instead"));
    readerOptions += cmd.values(readerOption);

    PprofOptions options;
    // The sort keys in the order given: the last one wins, as with pprof's getopt loop.
    static const std::pair<const char*, PprofOptions::Sort> sortKeys[] = { { "c", PprofOptions::Sort::Calls },
        { "b", PprofOptions::Sort::Subroutines }, { "m", PprofOptions::Sort::Exclusive },
        { "t", PprofOptions::Sort::Inclusive }, { "e", PprofOptions::Sort::ExclusivePerCall },
        { "i", PprofOptions::Sort::InclusivePerCall }, { "v", PprofOptions::Sort::StdDev } };
    for (const QString& name : cmd.parser().optionNames())
        for (const auto& [key, sort] : sortKeys)
            if (name == QLatin1String(key))
                options.sort = sort;
    options.showLocations = cmd.isSet(a);
    options.reverse = cmd.isSet(r);
    options.summaryOnly = cmd.isSet(s);
    options.plainMsec = cmd.isSet(p);
    options.list = cmd.isSet(l);
    options.minMax = cmd.isSet(x);
    const auto max = cmd.integer(n, 0, std::numeric_limits<int>::max(), options.max);
    if (!max)
        return ExitUsage;
    options.max = static_cast<int>(*max);
    if (!cmd.checkReader(cmd.value(format)))
        return ExitUsage;

    const bool useDb = cmd.isSet(stored.id);
    if (cmd.isSet(stored.db) && !useDb)
        return cmd.usageError(QStringLiteral("--db needs --id N (see 'parallax-cli db list')"));
    const auto id = cmd.integer(stored.id, 0, std::numeric_limits<qint64>::max(), -1);
    if (!id)
        return ExitUsage;
    QStringList positional = cmd.positional();
    QString dir;
    // A leading non-number is the directory (not with --db); so is a lone argument naming a directory.
    if (!positional.isEmpty()
        && ((!isInteger(positional.first()) && !useDb)
            || (QFileInfo(positional.first()).isDir() && positional.size() == 1)))
        dir = positional.takeFirst();
    if (dir.isEmpty() && qEnvironmentVariableIsSet("PROFILEDIR")) {
        dir = qEnvironmentVariable("PROFILEDIR");
        options.prefix = qgetenv("PROFILEDIR").toStdString() + "/profile"; // pprof prints "$PROFILEDIR/profile.*"
    }
    if (dir.isEmpty())
        dir = QStringLiteral(".");
    for (const QString& node : positional) {
        const auto number = cmd.integer(QStringLiteral("node number"), node, 0, std::numeric_limits<int>::max());
        if (!number)
            return ExitUsage;
        options.nodes.push_back(static_cast<int>(*number));
    }

    std::shared_ptr<Trial> loaded;
    if (useDb) {
        const auto fromDb = loadTrialFromDatabase(cmd.value(stored.db), *id);
        if (!fromDb)
            return failure(fromDb.error().toString());
        loaded = fromDb.value();
    } else {
        const auto result = load(dir, cmd.value(format), false);
        if (!result)
            return failure(result.error().toString());
        loaded = result.value();
    }
    const Trial& trial = *loaded;
    for (const QString& w : trial.warnings())
        warning(w);
    const QString metricName = cmd.value(metric);
    if (!metricName.isEmpty()) {
        options.metric = trial.findMetric(metricName);
        if (!options.metric.isValid()) {
            QStringList names;
            for (const auto& m : trial.metrics())
                names << m.name;
            return failure(QStringLiteral("no metric '%1' in %2 (metrics: %3)")
                               .arg(metricName, useDb ? QStringLiteral("trial %1").arg(*id) : dir,
                                   names.join(QStringLiteral(", "))));
        }
    }
    QString error;
    const std::string text = pprofReport(trial, options, &error);
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (!error.isEmpty())
        return failure(error);
    return ExitSuccess;
}

int runInfo(const QStringList& args)
{
    Command cmd(QStringLiteral("info"), QStringLiteral("PATH | --db LOCATION --id N"),
        QStringLiteral("Print what a profile holds: the reader, thread shape, metrics, event and user-event\n"
                       "counts, groups, the ten events with the largest mean exclusive value, the warnings.\n"
                       "User events whose numbers on a thread come from several records of the profile (pooled\n"
                       "into one record) are listed under \"Pooled user events\" (JSON: pooled_user_events)."));
    const auto json = cmd.add({ QStringLiteral("json") },
        QStringLiteral("Print one JSON object (a stable interface for scripts, see the README)."));
    const auto strict = cmd.add({ QStringLiteral("strict") },
        QStringLiteral("Refuse a trial with any unreadable file (normally such files are skipped with a warning)."));
    const auto format = cmd.add({ QStringLiteral("format") },
        QStringLiteral("Read with this reader instead of detecting the format."), QStringLiteral("NAME"));
    const auto stored = addStoredTrialOptions(cmd);
    const auto readerOption = addReaderOption(cmd);
    cmd.addArgument(
        QStringLiteral("PATH"), QStringLiteral("A profile directory or file in any format Parallax reads."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    readerOptions += cmd.values(readerOption);
    if (!cmd.checkReader(cmd.value(format)))
        return ExitUsage;
    const QStringList positional = cmd.positional();
    if (cmd.isSet(stored.id)) {
        const auto id = cmd.integer(stored.id, 0, std::numeric_limits<qint64>::max(), -1);
        if (!id)
            return ExitUsage;
        if (!positional.isEmpty())
            return cmd.usageError(QStringLiteral("give a PATH or --id N, not both"));
        const auto fromDb = loadTrialFromDatabase(cmd.value(stored.db), *id);
        if (!fromDb)
            return failure(fromDb.error().toString());
        if (cmd.isSet(json))
            printOut(infoJson(*fromDb.value(), QStringLiteral("perfdb")));
        else
            printOut(infoText(*fromDb.value(), QStringLiteral("perfdb")));
        return ExitSuccess;
    }
    if (cmd.isSet(stored.db))
        return cmd.usageError(QStringLiteral("--db needs --id N (see 'parallax-cli db list')"));
    if (positional.isEmpty())
        return cmd.usageError(QStringLiteral("give a PATH (a profile directory or file), or --db LOCATION --id N"));
    if (positional.size() > 1)
        return cmd.usageError(QStringLiteral("one PATH only, got %1").arg(positional.size()));
    const QString& path = positional.first();
    const QString formatName = cmd.value(format);
    const Reader* reader
        = formatName.isEmpty() ? ReaderRegistry::instance().detect(path) : ReaderRegistry::instance().find(formatName);
    // The detected reader reads it: detection (which may list a big directory) runs once.
    const auto result = load(path, reader ? reader->name() : formatName, cmd.isSet(strict));
    if (!result)
        return failure(result.error().toString());
    const QString readerName = reader ? reader->name() : result.value()->provenance().reader;
    if (cmd.isSet(json))
        printOut(infoJson(*result.value(), readerName));
    else
        printOut(infoText(*result.value(), readerName));
    return ExitSuccess;
}

int runImbalance(const QStringList& args)
{
    Command cmd(QStringLiteral("imbalance"), QStringLiteral("PATH"),
        QStringLiteral("List the load imbalance of each event's exclusive value across the threads, as the\n"
                       "statistics table's imbalance columns show it: mean, max and the thread holding it,\n"
                       "max/mean, (max - mean)/max and the coefficient of variation."));
    const auto json = cmd.add({ QStringLiteral("json") }, QStringLiteral("Print one JSON object."));
    const auto metric = cmd.add(
        { QStringLiteral("metric") }, QStringLiteral("The metric (default: the first)."), QStringLiteral("NAME"));
    const auto sort = cmd.add({ QStringLiteral("sort") },
        QStringLiteral("Sort key, largest first: lost (max - mean, the default), maxmean, imbalance or cv."),
        QStringLiteral("KEY"));
    const auto top = cmd.add(
        { QStringLiteral("top") }, QStringLiteral("Rows to print (default 20, 0: all)."), QStringLiteral("N"));
    const auto callPaths
        = cmd.add({ QStringLiteral("callpaths") }, QStringLiteral("Also list call-path events (a => b)."));
    const auto format = cmd.add({ QStringLiteral("format") },
        QStringLiteral("Read with this reader instead of detecting the format."), QStringLiteral("NAME"));
    cmd.addArgument(
        QStringLiteral("PATH"), QStringLiteral("A profile directory or file in any format Parallax reads."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    if (!cmd.checkReader(cmd.value(format)))
        return ExitUsage;
    const QStringList positional = cmd.positional();
    if (positional.size() != 1)
        return cmd.usageError(QStringLiteral("give one PATH (a profile directory or file)"));
    ImbalanceOptions options;
    if (cmd.isSet(sort)) {
        options.sort = cmd.value(sort);
        if (!imbalanceSortKeys().contains(options.sort))
            return cmd.usageError(QStringLiteral("--sort takes %1, not '%2'")
                                      .arg(imbalanceSortKeys().join(QStringLiteral(", ")), options.sort));
    }
    const auto n = cmd.integer(top, 0, std::numeric_limits<int>::max(), 20);
    if (!n)
        return ExitUsage;
    options.top = static_cast<int>(*n);
    options.callPaths = cmd.isSet(callPaths);
    const auto result = load(positional.first(), cmd.value(format), false);
    if (!result)
        return failure(result.error().toString());
    const Trial& trial = *result.value();
    if (trial.metricCount() == 0)
        return failure(QStringLiteral("%1 has no metrics").arg(positional.first()));
    if (cmd.isSet(metric)) {
        options.metric = trial.findMetric(cmd.value(metric));
        if (!options.metric.isValid()) {
            QStringList names;
            for (const auto& m : trial.metrics())
                names << m.name;
            return failure(QStringLiteral("no metric '%1' in %2 (metrics: %3)")
                               .arg(cmd.value(metric), positional.first(), names.join(QStringLiteral(", "))));
        }
    }
    if (cmd.isSet(json))
        printOut(imbalanceJson(trial, options));
    else
        printOut(imbalanceText(trial, options));
    return ExitSuccess;
}

int runSynth(const QStringList& args)
{
    Command cmd(QStringLiteral("synth"), QStringLiteral("--threads T --events E OUT"),
        QStringLiteral("Write a deterministic synthetic TAU profile directory: MPI routines, C++ methods and\n"
                       "Fortran loops with source locations, a call tree whose inclusive times add up, load\n"
                       "imbalance, user events, per-thread metadata. The same options give the same files."));
    const auto threads = cmd.add({ QStringLiteral("threads") },
        QStringLiteral("Number of threads (1 to 10000000; required)."), QStringLiteral("T"));
    const auto events = cmd.add({ QStringLiteral("events") },
        QStringLiteral("Number of flat events, .TAU application included (1 to 1000000; required)."),
        QStringLiteral("E"));
    const auto depth = cmd.add({ QStringLiteral("callpath-depth") },
        QStringLiteral("Rooted call paths up to depth D (2 to 1000; default 0: none)."), QStringLiteral("D"));
    const auto metrics = cmd.add({ QStringLiteral("metrics") },
        QStringLiteral("Number of metrics (1 to 64; default 1); several give MULTI__ directories."),
        QStringLiteral("M"));
    const auto userEvents = cmd.add({ QStringLiteral("user-events") },
        QStringLiteral("Number of user events (0 to 1000; default 5)."), QStringLiteral("U"));
    const auto perNode = cmd.add({ QStringLiteral("threads-per-node") },
        QStringLiteral("Threads per node (default 1: one rank per thread)."), QStringLiteral("K"));
    const auto seed = cmd.add({ QStringLiteral("seed") },
        QStringLiteral("Seed of the generator (a whole number from 0; default 1)."), QStringLiteral("S"));
    const auto groups = cmd.add({ QStringLiteral("groups") },
        QStringLiteral("Planted groups of ranks (default 1: none): thread t is in group t*G/T, and group g's\n"
                       "events i >= 1 with i mod G = g cost 4 times as much (metadata 'Synth group')."),
        QStringLiteral("G"));
    const auto realistic = cmd.add({ QStringLiteral("realistic") },
        QStringLiteral("Name routines as TAU's PDT instrumentation does (C, C++ and templates, Fortran, with\n"
                       "signatures and source ranges) and write TAU's ~40-key metadata block in every file."));
    const auto snapshots = cmd.add({ QStringLiteral("snapshots") },
        QStringLiteral("Write TAU snapshot profiles (snapshot.N.C.T) with K cumulative snapshots per thread, the\n"
                       "last one the profile; each routine grows on its own curve (2 to 1000; default: none)."),
        QStringLiteral("K"));
    cmd.addArgument(QStringLiteral("OUT"), QStringLiteral("A new (or empty) directory to write."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    if (!cmd.isSet(threads) || !cmd.isSet(events))
        return cmd.usageError(QStringLiteral("--threads T and --events E are required"));
    SynthOptions o;
    const auto t = cmd.integer(threads, 1, 10'000'000, o.threads);
    const auto e = cmd.integer(events, 1, 1'000'000, o.events);
    const auto dd = t && e ? cmd.integer(depth, 0, 1000, o.callpathDepth) : std::nullopt;
    const auto m = dd ? cmd.integer(metrics, 1, 64, o.metrics) : std::nullopt;
    const auto u = m ? cmd.integer(userEvents, 0, 1000, o.userEvents) : std::nullopt;
    const auto k = u ? cmd.integer(perNode, 1, 10'000'000, o.threadsPerNode) : std::nullopt;
    const auto sd
        = k ? cmd.integer(seed, 0, std::numeric_limits<qint64>::max(), static_cast<qint64>(o.seed)) : std::nullopt;
    const auto g = sd ? cmd.integer(groups, 1, 10'000'000, o.groups) : std::nullopt;
    const auto sn = g ? cmd.integer(snapshots, 1, 1000, o.snapshots) : std::nullopt;
    if (!sn)
        return ExitUsage;
    if (cmd.isSet(snapshots) && *sn < 2)
        return cmd.usageError(QStringLiteral("--snapshots: %1 is too few (2 or more)").arg(*sn));
    if (*g > *t)
        return cmd.usageError(QStringLiteral("--groups %1: more groups than the %2 threads").arg(*g).arg(*t));
    if (*dd == 1)
        return cmd.usageError(QStringLiteral("--callpath-depth: 1 is not a depth (0 for none, or 2 and more)"));
    o.threads = static_cast<int>(*t);
    o.events = static_cast<int>(*e);
    o.callpathDepth = static_cast<int>(*dd);
    o.metrics = static_cast<int>(*m);
    o.userEvents = static_cast<int>(*u);
    o.threadsPerNode = static_cast<int>(*k);
    o.seed = static_cast<std::uint64_t>(*sd);
    o.groups = static_cast<int>(*g);
    o.realistic = cmd.isSet(realistic);
    o.snapshots = static_cast<int>(*sn);
    const QStringList positional = cmd.positional();
    if (positional.size() != 1)
        return cmd.usageError(positional.isEmpty()
                ? QStringLiteral("give the OUT directory")
                : QStringLiteral("one OUT directory only, got %1").arg(positional.size()));
    const QString& out = positional.first();
    if (QFileInfo(out).exists() && !QDir(out).isEmpty())
        return failure(QStringLiteral("synth: %1 exists and is not empty; choose a new directory").arg(out));
    QElapsedTimer timer;
    timer.start();
    const auto trial = synthesizeTrial(o);
    const QString error = o.snapshots > 1 ? TauSnapshotWriter::write(*trial, out) : TauWriter::write(*trial, out);
    if (!error.isEmpty())
        return failure(error);
    std::fprintf(stderr, "wrote %zu threads x %zu events (%zu metrics, %zu user events) to %s in %lld ms\n",
        trial->threadCount(), trial->eventCount(), trial->metricCount(), trial->atomicEventCount(),
        out.toLocal8Bit().constData(), static_cast<long long>(timer.elapsed()));
    return ExitSuccess;
}

int runFormats(const QStringList& args)
{
    Command cmd(QStringLiteral("formats"), QString(),
        QStringLiteral("List the readers (--format NAME) and writers (convert --to, -o) Parallax has."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    if (!cmd.positional().isEmpty())
        return cmd.usageError(QStringLiteral("takes no arguments, got '%1'").arg(cmd.positional().first()));
    for (const Reader* r : ReaderRegistry::instance().readers())
        std::printf("%-10s %s\n", r->name().toLatin1().constData(), r->description().toLocal8Bit().constData());
    std::printf("\nwriters (convert --to, -o):\n");
    for (const WriterInfo* w : WriterRegistry::instance().writers())
        std::printf("%-10s %s%s\n", w->name.toLatin1().constData(), w->description.toLocal8Bit().constData(),
            w->suffixes.isEmpty()
                ? ""
                : qPrintable(QStringLiteral(" (") + w->suffixes.join(QStringLiteral(", ")) + QLatin1Char(')')));
    return ExitSuccess;
}

/// Every command, in the order the help lists them: the dispatch and the help come from here.
struct CommandEntry {
    const char* name;
    const char* summary;
    int (*run)(const QString& name, const QStringList& args);
};

int showHelp(const QString&, const QStringList& args);

const CommandEntry commands[] = {
    { "pprof", "print a profile as TAU's pprof does, byte for byte",
        [](const QString&, const QStringList& a) { return runPprof(a); } },
    { "info", "what a profile holds: format, threads, metrics, events, top events, warnings",
        [](const QString&, const QStringList& a) { return runInfo(a); } },
    { "imbalance", "the load imbalance of each event across threads (max/mean, CV, max thread)",
        [](const QString&, const QStringList& a) { return runImbalance(a); } },
    { "synth", "write a deterministic synthetic TAU profile directory",
        [](const QString&, const QStringList& a) { return runSynth(a); } },
    { "formats", "list the readers and writers", [](const QString&, const QStringList& a) { return runFormats(a); } },
    { "db", "the experiment database: init, load, list, rename, delete, meta, export, views, model, semantic",
        [](const QString&, const QStringList& a) { return runDbCommand(a); } },
    { "diff", "A - B of two runs (A the baseline; positive = B is cheaper), with a table of the changes",
        runAlgebraCommand },
    { "ratio", "A / B cell by cell", runAlgebraCommand },
    { "mean", "the mean of several runs", runAlgebraCommand },
    { "min", "the minimum of several runs, cell by cell", runAlgebraCommand },
    { "max", "the maximum of several runs, cell by cell", runAlgebraCommand },
    { "stddev", "the standard deviation of several runs, cell by cell", runAlgebraCommand },
    { "merge", "the metrics of several runs in one trial", runAlgebraCommand },
    { "derive", "a new metric from an expression, e.g. 'IPC = \"PAPI_TOT_INS\" / \"PAPI_TOT_CYC\"'",
        runAlgebraCommand },
    { "cut", "re-root the call tree at a call path (--root) or prune subtrees into their parents (--prune)",
        runCutSelectCommand },
    { "select", "keep a set of threads (--threads 0-15,32, --nodes, --where KEY=VALUE)", runCutSelectCommand },
    { "convert", "read a profile in any format, write it in another",
        [](const QString&, const QStringList& a) { return runConvert(a); } },
    { "browse", "the CUBE view: metric, call and system trees for a selection, with value modes",
        [](const QString&, const QStringList& a) { return runBrowseCommand(a); } },
    { "flame", "the call tree as folded stacks for flame graphs (flamegraph.pl), or two runs' (difffolded)",
        [](const QString&, const QStringList& a) { return runFlameCommand(a); } },
    { "source", "the events located in a source file with their exclusive and inclusive values per line",
        [](const QString&, const QStringList& a) { return runSourceCommand(a); } },
    { "advise", "the instrumentation advisor: what to exclude and why, overhead, trace size, TAU/Score-P files",
        [](const QString&, const QStringList& a) { return runAdviseCommand(a); } },
    { "commmatrix", "the communication matrix: bytes, messages or mean size per sender and receiver rank",
        [](const QString&, const QStringList& a) { return runCommMatrixCommand(a); } },
    { "snapshots", "a trial with snapshots per interval: each event's value between consecutive snapshots",
        [](const QString&, const QStringList& a) { return runSnapshotsCommand(a); } },
    { "history", "a set of runs in order: per event the series across them, change points, regressions",
        [](const QString&, const QStringList& a) { return runHistoryCommand(a); } },
    { "cluster", "the threads of a trial clustered by their profiles (k-means, Ward), with representatives",
        [](const QString&, const QStringList& a) { return runClusterCommand(a); } },
    { "correlate", "Pearson and Spearman correlations of events across threads, and with the total",
        [](const QString&, const QStringList& a) { return runCorrelateCommand(a); } },
    { "model", "Extra-P's scaling models per call path, from runs at several scales or an Extra-P input file",
        [](const QString&, const QStringList& a) { return runModelCommand(a); } },
    { "semantic", "the semantic (SEAA) profile of a trial through a model, or two compared",
        [](const QString&, const QStringList& a) { return runSemanticCommand(a); } },
    { "help", "this text, or a command's help: help COMMAND", showHelp },
};

const CommandEntry* findCommand(const QString& name)
{
    for (const CommandEntry& c : commands)
        if (name == QLatin1String(c.name))
            return &c;
    return nullptr;
}

QString mainHelp()
{
    QString text = QStringLiteral(
        "Usage: parallax-cli [--no-cache] [--reader-option NAME]... COMMAND [options] [arguments]\n"
        "       parallax-cli COMMAND --help | help COMMAND | --help | --version\n"
        "The headless front end of Parallax: TAU's pprof, profile facts, the algebra of runs, semantic\n"
        "views and the experiment database, on every format Parallax reads.\n\nCommands:\n");
    for (const CommandEntry& c : commands)
        text += QStringLiteral("  %1 %2\n").arg(QLatin1String(c.name), -10).arg(QString::fromUtf8(c.summary));
    text += QStringLiteral(
        "\nOptions:\n"
        "  -h, --help              Print this help and exit.\n"
        "  -v, --version           Print the version and exit.\n"
        "  --no-cache              Parse profiles again instead of using the trial cache (also an\n"
        "                          option of every command; PARALLAX_NO_CACHE=1 does the same).\n"
        "  -O, --reader-option <NAME>\n"
        "                          Pass a format option to the reader of pprof and info (repeatable),\n"
        "                          e.g. fixnames (gprof: drop AIX '.' prefixes and Fortran '_' suffixes),\n"
        "                          from=SECONDS, to=SECONDS (otf2: the profile of a time window).\n"
        "\nOptions take their value as --opt VALUE or --opt=VALUE. Trials stored in the database are\n"
        "read with --db LOCATION --id N (pprof, info) or as db:ID operands (algebra, semantic);\n"
        "LOCATION is an SQLite file or postgresql://..., default $PARALLAX_DB or the default SQLite\n"
        "database. 'parallax-cli COMMAND --help' describes a command.\n\n");
    return text + exitStatusHelp();
}

int showHelp(const QString&, const QStringList& args)
{
    if (args.isEmpty()) {
        printOut(mainHelp());
        return ExitSuccess;
    }
    const CommandEntry* c = findCommand(args.first());
    if (c && args.first() == QLatin1String("help")) {
        printOut(mainHelp());
        return ExitSuccess;
    }
    if (!c) {
        std::fprintf(stderr, "parallax-cli help: unknown command '%s'\nTry 'parallax-cli --help' for the commands.\n",
            args.first().toLocal8Bit().constData());
        return ExitUsage;
    }
    // "help db load" is "db load --help".
    return c->run(args.first(), args.mid(1) << QStringLiteral("--help"));
}

} // namespace

int main(int argc, char* argv[])
{
    // Past a file size limit (ulimit -f) a write fails with EFBIG, which every writer reports,
    // instead of SIGXFSZ killing the program mid-write (docs/FORMATS.md 7.7).
    std::signal(SIGXFSZ, SIG_IGN);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("parallax-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PARALLAX_VERSION));
    // Numbers are printed with printf as pprof does: never with a locale's decimal comma.
    std::setlocale(LC_NUMERIC, "C");

    // The options before the command; everything from the command on is the command's.
    QCommandLineParser parser;
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
    const QCommandLineOption help({ QStringLiteral("h"), QStringLiteral("help") }, QString());
    const QCommandLineOption version({ QStringLiteral("v"), QStringLiteral("version") }, QString());
    const QCommandLineOption readerOption(
        { QStringLiteral("O"), QStringLiteral("reader-option") }, QString(), QStringLiteral("NAME"));
    const QCommandLineOption noCacheOption(QStringLiteral("no-cache"));
    parser.addOptions({ help, version, readerOption, noCacheOption });
    const bool parsed = parser.parse(QCoreApplication::arguments());
    if (parser.isSet(help)) {
        printOut(mainHelp());
        return ExitSuccess;
    }
    if (!parsed) {
        std::fprintf(stderr, "parallax-cli: %s\nTry 'parallax-cli --help' for more information.\n",
            parser.errorText().toLocal8Bit().constData());
        return ExitUsage;
    }
    if (parser.isSet(version)) {
        printOut(QStringLiteral("parallax-cli %1\n").arg(QCoreApplication::applicationVersion()));
        return ExitSuccess;
    }
    readerOptions = parser.values(readerOption);
    if (parser.isSet(noCacheOption))
        qputenv("PARALLAX_NO_CACHE", "1");
    QStringList args = parser.positionalArguments();
    if (args.isEmpty()) {
        std::fputs(mainHelp().toLocal8Bit().constData(), stderr);
        std::fputs("\nparallax-cli: no command given\n", stderr);
        return ExitUsage;
    }
    const QString command = args.takeFirst();
    const CommandEntry* entry = findCommand(command);
    if (!entry) {
        std::fprintf(stderr, "parallax-cli: unknown command '%s'\nTry 'parallax-cli --help' for the commands.\n",
            command.toLocal8Bit().constData());
        return ExitUsage;
    }
    if (!readerOptions.isEmpty() && command != QLatin1String("pprof") && command != QLatin1String("info"))
        warning(QStringLiteral("--reader-option is used by pprof and info only"));
    return entry->run(command, args);
}
