// parallax-cli: the headless front end (no Widgets linked).
#include "app/cli/algebracommand.h"
#include "app/cli/semanticcommand.h"
#include "app/cli/dbcommand.h"
#include "app/cli/inforeport.h"
#include "app/cli/pprofreport.h"
#include "app/cli/synth.h"
#include "datasource/readers/readerregistry.h"
#include "datasource/writers/tauwriter.h"
#include "datasource/writers/writerregistry.h"
#include "parallax_version.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

using namespace parallax;

namespace {

int fail(const QString& message, int code = 2)
{
    std::fprintf(stderr, "parallax-cli: %s\n", message.toLocal8Bit().constData());
    return code;
}

void printOut(const QByteArray& bytes)
{
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stdout);
}

const char* const Usage = R"(usage: parallax-cli <command> [options]

commands:
  pprof [-c|-b|-m|-t|-e|-i|-v] [-r] [-s] [-n N] [-l] [-p] [-a] [-x] [--metric NAME]
        [--format NAME] [DIR | --db LOCATION --id N] [node numbers]
                 print a profile like TAU's pprof (default DIR: $PROFILEDIR or .)
  info [--json] [--format NAME] [--strict] PATH | --db LOCATION --id N
                 format, threads, metrics, events, top events, warnings
  synth --threads T --events E [--callpath-depth D] [--metrics M]
        [--user-events U] [--threads-per-node K] [--seed S] OUT
                 write a deterministic synthetic TAU profile directory
  db <command>   the experiment database: init, load, list, rename, delete, meta,
                 export, views ('parallax-cli db help')
  diff|ratio|mean|merge|min|max|stddev|derive|convert
                 the algebra of runs and format conversion (below)
  semantic MODEL TRIAL [TRIAL_B]
                 the semantic (SEAA) profile of a trial, or of two compared (below)
  formats        list the readers and writers Parallax knows

pprof and info also read a stored trial: --db LOCATION --id N (LOCATION: an SQLite file or
postgresql://...; without it $PARALLAX_DB or the default SQLite database).
  help           this text

--reader-option NAME (global, repeatable) passes a format option to the reader of pprof and
info, e.g. --reader-option fixnames (gprof: drop AIX '.' prefixes and Fortran '_' suffixes).
)";

const char* const PprofUsage
    = R"(usage: parallax-cli pprof [-c|-b|-m|-t|-e|-i|-v] [-r] [-s] [-n num] [-l] [-p] [-a] [-x] [--metric NAME] [--format NAME] [DIR] [node numbers]
 -a : Show all location information available
 -c : Sort according to number of Calls
 -b : Sort according to number of suBroutines called by a function
 -m : Sort according to Milliseconds (exclusive time total)
 -t : Sort according to Total milliseconds (inclusive time total)  (default)
 -e : Sort according to Exclusive time per call (msec/call)
 -i : Sort according to Inclusive time per call (total msec/call)
 -v : Sort according to Standard Deviation (excl usec)
 -r : Reverse sorting order
 -s : print only Summary profile information
 -n <num> : print only first <num> number of functions
 -p : suPpress conversion to hh:mm:ss:mmm format
 -l : List all functions and exit
 -x : also print min and max summaries
 --metric NAME : the metric to print (default: the first)
 --format NAME : read with this reader instead of detecting the format
 [node numbers] : prints only info about all contexts/threads of given node numbers
)";

/// Format-specific reader options from the global --reader-option NAME (repeatable).
QStringList readerOptions;

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
    s.toInt(&ok);
    return ok;
}

int runPprof(const QStringList& args)
{
    PprofOptions options;
    QString dir;
    QString format;
    QString metricName;
    QString dbLocation;
    QString dbId;
    QStringList positional;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        if (a == QLatin1String("--metric") || a == QLatin1String("--format") || a == QLatin1String("--db")
            || a == QLatin1String("--id")) {
            if (i + 1 >= args.size())
                return fail(QStringLiteral("%1 needs a value").arg(a), 1);
            const QString value = args[++i];
            if (a == QLatin1String("--metric"))
                metricName = value;
            else if (a == QLatin1String("--format"))
                format = value;
            else if (a == QLatin1String("--db"))
                dbLocation = value;
            else
                dbId = value;
            continue;
        }
        if (a.size() < 2 || a[0] != QLatin1Char('-') || isInteger(a)) {
            positional << a;
            continue;
        }
        // getopt-style clusters: "-sm", "-n10", "-n 10".
        for (int k = 1; k < a.size(); ++k) {
            const char c = a[k].toLatin1();
            switch (c) {
            case 'a':
                options.showLocations = true;
                break;
            case 'c':
                options.sort = PprofOptions::Sort::Calls;
                break;
            case 'b':
                options.sort = PprofOptions::Sort::Subroutines;
                break;
            case 'm':
                options.sort = PprofOptions::Sort::Exclusive;
                break;
            case 't':
                options.sort = PprofOptions::Sort::Inclusive;
                break;
            case 'e':
                options.sort = PprofOptions::Sort::ExclusivePerCall;
                break;
            case 'i':
                options.sort = PprofOptions::Sort::InclusivePerCall;
                break;
            case 'v':
                options.sort = PprofOptions::Sort::StdDev;
                break;
            case 'r':
                options.reverse = true;
                break;
            case 's':
                options.summaryOnly = true;
                break;
            case 'p':
                options.plainMsec = true;
                break;
            case 'l':
                options.list = true;
                break;
            case 'x':
                options.minMax = true;
                break;
            case 'n': {
                QString value = a.mid(k + 1);
                if (value.isEmpty()) {
                    if (i + 1 >= args.size()) {
                        std::fputs(PprofUsage, stderr);
                        return 1;
                    }
                    value = args[++i];
                }
                options.max = std::atoi(value.toLatin1().constData());
                k = static_cast<int>(a.size());
                break;
            }
            case 'd':
                return fail(QStringLiteral("pprof -d (the dump format for racy/tau_reduce) is not supported"), 1);
            case 'f':
                return fail(QStringLiteral("pprof -f PREFIX is not supported: give the directory instead"), 1);
            default:
                std::fputs(PprofUsage, stderr);
                return 1;
            }
        }
    }
    const bool useDb = !dbId.isEmpty();
    if (!dbLocation.isEmpty() && !useDb)
        return fail(QStringLiteral("pprof: --db needs --id N (see 'parallax-cli db list')"), 1);
    if (!positional.isEmpty() && !isInteger(positional.first()) && !useDb)
        dir = positional.takeFirst();
    else if (!positional.isEmpty() && QFileInfo(positional.first()).isDir() && positional.size() == 1)
        dir = positional.takeFirst();
    if (dir.isEmpty())
        dir = qEnvironmentVariableIsSet("PROFILEDIR") ? qEnvironmentVariable("PROFILEDIR") : QStringLiteral(".");
    for (const QString& p : positional) {
        if (!isInteger(p))
            return fail(QStringLiteral("pprof: '%1' is not a node number").arg(p), 1);
        options.nodes.push_back(p.toInt());
    }
    std::shared_ptr<Trial> loaded;
    if (useDb) {
        bool ok = false;
        const qint64 id = dbId.toLongLong(&ok);
        if (!ok)
            return fail(QStringLiteral("pprof: --id needs a trial number, got '%1'").arg(dbId), 1);
        const auto stored = loadTrialFromDatabase(dbLocation, id);
        if (!stored)
            return fail(stored.error().toString());
        loaded = stored.value();
    } else {
        const auto result = load(dir, format, false);
        if (!result)
            return fail(result.error().toString());
        loaded = result.value();
    }
    const Trial& trial = *loaded;
    for (const QString& w : trial.warnings())
        std::fprintf(stderr, "parallax-cli: warning: %s\n", w.toLocal8Bit().constData());
    if (!metricName.isEmpty()) {
        options.metric = trial.findMetric(metricName);
        if (!options.metric.isValid()) {
            QStringList names;
            for (const auto& m : trial.metrics())
                names << m.name;
            return fail(QStringLiteral("no metric '%1' in %2 (metrics: %3)")
                            .arg(metricName, dir, names.join(QStringLiteral(", "))),
                1);
        }
    }
    const std::string text = pprofReport(trial, options);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

int runInfo(const QStringList& args)
{
    bool json = false;
    bool strict = false;
    QString format;
    QString path;
    QString dbLocation;
    QString dbId;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        if (a == QLatin1String("--json"))
            json = true;
        else if (a == QLatin1String("--strict"))
            strict = true;
        else if (a == QLatin1String("--format") && i + 1 < args.size())
            format = args[++i];
        else if (a == QLatin1String("--db") && i + 1 < args.size())
            dbLocation = args[++i];
        else if (a == QLatin1String("--id") && i + 1 < args.size())
            dbId = args[++i];
        else if (a.startsWith(QLatin1Char('-')))
            return fail(QStringLiteral("info: unknown option %1").arg(a), 1);
        else if (path.isEmpty())
            path = a;
        else
            return fail(QStringLiteral("info: one PATH only"), 1);
    }
    if (!dbId.isEmpty()) {
        bool ok = false;
        const qint64 id = dbId.toLongLong(&ok);
        if (!ok)
            return fail(QStringLiteral("info: --id needs a trial number, got '%1'").arg(dbId), 1);
        const auto stored = loadTrialFromDatabase(dbLocation, id);
        if (!stored)
            return fail(stored.error().toString());
        if (json)
            printOut(infoJson(*stored.value(), QStringLiteral("perfdb")));
        else
            printOut(infoText(*stored.value(), QStringLiteral("perfdb")).toUtf8());
        return 0;
    }
    if (path.isEmpty())
        return fail(QStringLiteral("info: give a PATH (a profile directory or file), or --db LOCATION --id N"), 1);
    const Reader* reader
        = format.isEmpty() ? ReaderRegistry::instance().detect(path) : ReaderRegistry::instance().find(format);
    const auto result = load(path, format, strict);
    if (!result)
        return fail(result.error().toString());
    const QString readerName = reader ? reader->name() : result.value()->provenance().reader;
    if (json)
        printOut(infoJson(*result.value(), readerName));
    else
        printOut(infoText(*result.value(), readerName).toUtf8());
    return 0;
}

int runSynth(const QStringList& args)
{
    SynthOptions o;
    QString out;
    bool haveThreads = false, haveEvents = false;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        auto number = [&](long long& v) {
            if (i + 1 >= args.size())
                return false;
            bool ok = false;
            v = args[++i].toLongLong(&ok);
            return ok && v >= 0;
        };
        long long v = 0;
        if (a == QLatin1String("--threads")) {
            if (!number(v) || v < 1 || v > 10'000'000)
                return fail(QStringLiteral("synth: --threads needs a count from 1"), 1);
            o.threads = static_cast<int>(v);
            haveThreads = true;
        } else if (a == QLatin1String("--events")) {
            if (!number(v) || v < 1 || v > 1'000'000)
                return fail(QStringLiteral("synth: --events needs a count from 1"), 1);
            o.events = static_cast<int>(v);
            haveEvents = true;
        } else if (a == QLatin1String("--callpath-depth")) {
            if (!number(v) || v == 1 || v > 1000)
                return fail(QStringLiteral("synth: --callpath-depth needs 0 (none) or a depth from 2"), 1);
            o.callpathDepth = static_cast<int>(v);
        } else if (a == QLatin1String("--metrics")) {
            if (!number(v) || v < 1 || v > 64)
                return fail(QStringLiteral("synth: --metrics needs a count from 1 to 64"), 1);
            o.metrics = static_cast<int>(v);
        } else if (a == QLatin1String("--user-events")) {
            if (!number(v) || v > 1000)
                return fail(QStringLiteral("synth: --user-events needs a count from 0 to 1000"), 1);
            o.userEvents = static_cast<int>(v);
        } else if (a == QLatin1String("--threads-per-node")) {
            if (!number(v) || v < 1)
                return fail(QStringLiteral("synth: --threads-per-node needs a count from 1"), 1);
            o.threadsPerNode = static_cast<int>(v);
        } else if (a == QLatin1String("--seed")) {
            if (!number(v))
                return fail(QStringLiteral("synth: --seed needs a non-negative number"), 1);
            o.seed = static_cast<std::uint64_t>(v);
        } else if (a.startsWith(QLatin1Char('-'))) {
            return fail(QStringLiteral("synth: unknown option %1").arg(a), 1);
        } else if (out.isEmpty()) {
            out = a;
        } else {
            return fail(QStringLiteral("synth: one OUT directory only"), 1);
        }
    }
    if (!haveThreads || !haveEvents || out.isEmpty())
        return fail(QStringLiteral("synth: usage: synth --threads T --events E [--callpath-depth D] [--metrics M] "
                                   "[--user-events U] [--seed S] OUT"),
            1);
    if (QFileInfo(out).exists() && !QDir(out).isEmpty())
        return fail(QStringLiteral("synth: %1 exists and is not empty; choose a new directory").arg(out), 1);
    QElapsedTimer timer;
    timer.start();
    const auto trial = synthesizeTrial(o);
    const QString error = TauWriter::write(*trial, out);
    if (!error.isEmpty())
        return fail(error);
    std::fprintf(stderr, "wrote %zu threads x %zu events (%zu metrics, %zu user events) to %s in %lld ms\n",
        trial->threadCount(), trial->eventCount(), trial->metricCount(), trial->atomicEventCount(),
        out.toLocal8Bit().constData(), static_cast<long long>(timer.elapsed()));
    return 0;
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("parallax"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PARALLAX_VERSION));
    // Numbers are printed with printf as pprof does: never with a locale's decimal comma.
    std::setlocale(LC_NUMERIC, "C");
    QStringList args = QCoreApplication::arguments().mid(1);
    if (args.isEmpty() || args.first() == QLatin1String("help") || args.first() == QLatin1String("--help")
        || args.first() == QLatin1String("-h")) {
        std::fputs(Usage, args.isEmpty() ? stderr : stdout);
        std::fputs("\n", args.isEmpty() ? stderr : stdout);
        std::fputs(AlgebraUsage, args.isEmpty() ? stderr : stdout);
        std::fputs("\n", args.isEmpty() ? stderr : stdout);
        std::fputs(SemanticUsage, args.isEmpty() ? stderr : stdout);
        return args.isEmpty() ? 1 : 0;
    }
    // Global options, anywhere on the line.
    for (int i = 0; i < args.size();) {
        if (args[i] != QLatin1String("--reader-option")) {
            ++i;
            continue;
        }
        if (i + 1 >= args.size())
            return fail(QStringLiteral("--reader-option needs a NAME (e.g. fixnames for gprof)"), 1);
        readerOptions << args[i + 1];
        args.remove(i, 2);
    }
    if (args.isEmpty())
        return fail(QStringLiteral("no command (see parallax-cli help)"), 1);
    const QString command = args.takeFirst();
    if (!readerOptions.isEmpty() && command != QLatin1String("pprof") && command != QLatin1String("info"))
        std::fprintf(stderr, "parallax-cli: warning: --reader-option is used by pprof and info only\n");
    if (command == QLatin1String("pprof"))
        return runPprof(args);
    if (command == QLatin1String("info"))
        return runInfo(args);
    if (command == QLatin1String("synth"))
        return runSynth(args);
    if (command == QLatin1String("db"))
        return runDbCommand(args);
    if (isAlgebraCommand(command))
        return runAlgebraCommand(command, args);
    if (command == QLatin1String("convert"))
        return runConvert(args);
    if (command == QLatin1String("semantic"))
        return runSemanticCommand(args);
    if (command == QLatin1String("formats")) {
        for (const Reader* r : ReaderRegistry::instance().readers())
            std::printf("%-10s %s\n", r->name().toLatin1().constData(), r->description().toLocal8Bit().constData());
        std::printf("\nwriters (convert --to, -o):\n");
        for (const WriterInfo* w : WriterRegistry::instance().writers())
            std::printf("%-10s %s%s\n", w->name.toLatin1().constData(), w->description.toLocal8Bit().constData(),
                w->suffixes.isEmpty()
                    ? ""
                    : qPrintable(QStringLiteral(" (") + w->suffixes.join(QStringLiteral(", ")) + QLatin1Char(')')));
        return 0;
    }
    std::fputs(Usage, stderr);
    return fail(QStringLiteral("unknown command '%1'").arg(command), 1);
}
