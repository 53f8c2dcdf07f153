// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/algebracommand.h"

#include "algebra/cut.h"
#include "algebra/derivedmetric.h"
#include "algebra/matching.h"
#include "algebra/operations.h"
#include "algebra/statistics.h"
#include "algebra/units.h"
#include "algebra/verdict.h"
#include "app/cli/commandline.h"
#include "app/cli/dbcommand.h"
#include "datasource/readers/readerregistry.h"
#include "datasource/readers/textnumber.h"
#include "datasource/writers/writerregistry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace parallax {

namespace {

using namespace cli;

int fail(const QString& message) { return failure(message); }

void print(const QString& text) { std::fputs(text.toLocal8Bit().constData(), stdout); }

struct Options {
    QString command;
    QStringList operands;
    QString out;
    QString to;
    QString format;
    QString db;
    QString app;
    QString exp;
    QString name;
    QString metric;
    QString expression;
    QString file;
    DerivedMode mode = DerivedMode::Ieee;
    AlgebraOptions algebra;
    int top = 15;
    /// diff: more runs of A's and of B's configuration (the noise of the verdict), and --json.
    QStringList runsA;
    QStringList runsB;
    bool json = false;
};

/// One of the words an enumerated option takes; a usage error naming the option, the value
/// and the words otherwise.
template <typename T>
std::optional<T> choice(const Command& cmd, const QCommandLineOption& option,
    std::initializer_list<std::pair<const char*, T>> words, T fallback)
{
    if (!cmd.isSet(option))
        return fallback;
    const QString v = cmd.value(option).toLower();
    QStringList names;
    for (const auto& [word, value] : words) {
        if (v == QLatin1String(word))
            return value;
        names << QString::fromLatin1(word);
    }
    names.removeDuplicates();
    cmd.usageError(QStringLiteral("%1: '%2' is not one of %3")
                       .arg(optionText(option), cmd.value(option), names.join(QStringLiteral(", "))));
    return std::nullopt;
}

/// Synopsis and description of each algebra command (its --help).
struct AlgebraCommandText {
    const char* name;
    const char* arguments;
    const char* description;
};
const AlgebraCommandText algebraTexts[] = {
    { "diff", "A B",
        "A - B (A = baseline, B = candidate; positive = B is cheaper), and a table of the largest\n"
        "changes: per event the mean exclusive value of A and B over the result's threads, Δ and\n"
        "Δ% = 100·(A−B)/A. The first line is the verdict: the speed-up S = T_A / T_B of the top-level\n"
        "event's inclusive value (mean over threads) and whether it exceeds the run-to-run noise\n"
        "(2 standard errors, from the thread-to-thread spread or from --runs-a/--runs-b)." },
    { "ratio", "A B", "A / B cell by cell (IEEE: x/0 = inf, 0/0 = NaN)." },
    { "mean", "X...", "The mean of N runs, cell by cell." },
    { "min", "X...", "The minimum of N runs, cell by cell." },
    { "max", "X...", "The maximum of N runs, cell by cell." },
    { "stddev", "X...", "The standard deviation of N runs, cell by cell." },
    { "merge", "X...", "The metrics of several runs in one trial." },
    { "derive", "(EXPR | --file FILE) X",
        "A new metric computed from the trial's metrics, e.g. 'IPC = \"PAPI_TOT_INS\" / \"PAPI_TOT_CYC\"':\n"
        "metric names in double quotes, numbers, + - * / and parentheses." },
};

const char* const OperandHelp
    = "Operands: a profile path in any format, or db:ID (a trial of --db LOCATION, $PARALLAX_DB or\n"
      "the default database). The result is an ordinary trial: -o writes or stores it.";

/// Parses the options of one algebra command; std::nullopt to run, else the exit code.
std::optional<int> parse(const QString& command, const QStringList& args, Options& o)
{
    const AlgebraCommandText* text = nullptr;
    for (const AlgebraCommandText& t : algebraTexts)
        if (command == QLatin1String(t.name))
            text = &t;
    Command cmd(command, QString::fromUtf8(text->arguments), QString::fromUtf8(text->description));
    cmd.setEpilogue(QString::fromUtf8(OperandHelp));
    const bool isDerive = command == QLatin1String("derive");
    const bool isDiff = command == QLatin1String("diff");
    const bool isMerge = command == QLatin1String("merge");
    const bool isSummary = command == QLatin1String("mean") || command == QLatin1String("min")
        || command == QLatin1String("max") || command == QLatin1String("stddev");
    const auto out = cmd.add({ QStringLiteral("o"), QStringLiteral("out") },
        QStringLiteral("Write the result: a TAU directory, FILE.ppk, ... (--to forces a format), or db: to "
                       "store it in the database (--app, --exp, --name)."),
        QStringLiteral("OUT"));
    const auto to = cmd.add({ QStringLiteral("to") },
        QStringLiteral("The format -o writes (see 'parallax-cli formats')."), QStringLiteral("FORMAT"));
    const auto format = cmd.add({ QStringLiteral("format") },
        QStringLiteral("Read the operands with this reader instead of detecting the format."), QStringLiteral("NAME"));
    const auto db = cmd.add({ QStringLiteral("db") },
        QStringLiteral("The database of db:ID operands and of -o db: (an SQLite file or postgresql://...)."),
        QStringLiteral("LOCATION"));
    const auto app = cmd.add({ QStringLiteral("app") },
        QStringLiteral("-o db: the application (default: the trial's, else Parallax)."), QStringLiteral("A"));
    const auto exp = cmd.add(
        { QStringLiteral("exp") }, QStringLiteral("-o db: the experiment (default Comparisons)."), QStringLiteral("E"));
    const auto name = cmd.add({ QStringLiteral("name") }, QStringLiteral("The result's name."), QStringLiteral("T"));
    const auto threads = cmd.add({ QStringLiteral("threads") },
        QStringLiteral("Thread sets that overlap or are disjoint: refuse them (exact, the default), keep the "
                       "union, sum threads per process or into one (collapse-process, collapse-all), or map the "
                       "i-th threads (by-order). Equal or nested sets are united by (node, context, thread) "
                       "unless a collapse is asked for, which always applies."),
        QStringLiteral("POLICY"));
    std::optional<QCommandLineOption> match, absent, conflict, metric, top, mode, file, runsA, runsB, json;
    if (!isDerive)
        match = cmd.add({ QStringLiteral("match") },
            QStringLiteral("Event matching: exact (default), no-source, or normalized (strips source "
                           "locations, parameters and signatures, for compiler vs source instrumentation)."),
            QStringLiteral("MATCH"));
    if (isSummary)
        absent = cmd.add({ QStringLiteral("absent") },
            QStringLiteral("Cells absent from a run count as 0 (zero, the default) or are skipped (skip)."),
            QStringLiteral("HOW"));
    if (isMerge)
        conflict = cmd.add({ QStringLiteral("conflict") },
            QStringLiteral("A metric several runs have: an error (error, the default), the first or the last "
                           "run's (first, last)."),
            QStringLiteral("WHICH"));
    if (isDiff) {
        metric = cmd.add({ QStringLiteral("metric") },
            QStringLiteral("The metric of the printed table (default the first)."), QStringLiteral("NAME"));
        top = cmd.add({ QStringLiteral("top") }, QStringLiteral("Rows of the printed table (default 15; 0 = none)."),
            QStringLiteral("N"));
        runsA = cmd.add({ QStringLiteral("runs-a") },
            QStringLiteral("Another run of A's configuration (repeatable): the verdict's noise then comes from the "
                           "spread between the runs."),
            QStringLiteral("RUN"));
        runsB = cmd.add({ QStringLiteral("runs-b") }, QStringLiteral("Another run of B's configuration (repeatable)."),
            QStringLiteral("RUN"));
        json = cmd.add({ QStringLiteral("json") },
            QStringLiteral("Print the verdict and the table as JSON (full-precision numbers) instead of text."));
    }
    if (isDerive) {
        mode = cmd.add({ QStringLiteral("mode") },
            QStringLiteral("ieee arithmetic (default) or paraprof's (a − b never below 0, x/0 = 0)."),
            QStringLiteral("MODE"));
        file = cmd.add({ QStringLiteral("file") }, QStringLiteral("Read the metric definitions from FILE."),
            QStringLiteral("FILE"));
    }
    if (const auto stop = cmd.parse(args))
        return stop;
    o.command = command;
    o.operands = cmd.positional();
    o.out = cmd.value(out);
    o.to = cmd.value(to);
    o.format = cmd.value(format);
    o.db = cmd.value(db);
    o.app = cmd.value(app);
    o.exp = cmd.value(exp);
    o.name = cmd.value(name);
    o.algebra.name = o.name;
    if (!cmd.checkReader(o.format))
        return ExitUsage;
    if (!cmd.checkWriter(o.to))
        return ExitUsage;
    const auto threadPolicy = choice<ThreadPolicy>(cmd, threads,
        { { "exact", ThreadPolicy::Strict }, { "union", ThreadPolicy::UnionByKey },
            { "collapse-process", ThreadPolicy::CollapseProcess }, { "collapse-all", ThreadPolicy::CollapseAll },
            { "by-order", ThreadPolicy::MapByOrder } },
        ThreadPolicy::Strict);
    if (!threadPolicy)
        return ExitUsage;
    o.algebra.threads = *threadPolicy;
    if (match) {
        const auto policy = choice<EventMatchPolicy>(cmd, *match,
            { { "exact", EventMatchPolicy::Exact }, { "no-source", EventMatchPolicy::NoSource },
                { "no_source", EventMatchPolicy::NoSource }, { "normalized", EventMatchPolicy::Routine },
                { "normalised", EventMatchPolicy::Routine }, { "routine", EventMatchPolicy::Routine } },
            EventMatchPolicy::Exact);
        if (!policy)
            return ExitUsage;
        o.algebra.match.policy = *policy;
    }
    if (absent) {
        const auto a = choice<AbsentCells>(
            cmd, *absent, { { "zero", AbsentCells::AsZero }, { "skip", AbsentCells::Skip } }, AbsentCells::AsZero);
        if (!a)
            return ExitUsage;
        o.algebra.absent = *a;
    }
    if (conflict) {
        const auto c = choice<MergeConflict>(cmd, *conflict,
            { { "error", MergeConflict::Error }, { "first", MergeConflict::FirstWins },
                { "last", MergeConflict::LastWins } },
            MergeConflict::Error);
        if (!c)
            return ExitUsage;
        o.algebra.conflict = *c;
    }
    if (metric)
        o.metric = cmd.value(*metric);
    if (runsA)
        o.runsA = cmd.values(*runsA);
    if (runsB)
        o.runsB = cmd.values(*runsB);
    if (json)
        o.json = cmd.isSet(*json);
    if (top) {
        const auto n = cmd.integer(*top, 0, std::numeric_limits<int>::max(), o.top);
        if (!n)
            return ExitUsage;
        o.top = static_cast<int>(*n);
    }
    if (mode && cmd.isSet(*mode)) {
        const auto m = derivedModeFromName(cmd.value(*mode));
        if (!m)
            return cmd.usageError(QStringLiteral("--mode: '%1' is not one of ieee, paraprof").arg(cmd.value(*mode)));
        o.mode = *m;
    }
    if (file)
        o.file = cmd.value(*file);
    // The operands each command takes.
    const bool binary = command == QLatin1String("diff") || command == QLatin1String("ratio");
    if (isDerive) {
        if (o.file.isEmpty()) {
            if (o.operands.size() != 2)
                return cmd.usageError(QStringLiteral("needs EXPR and one operand X (or --file FILE X)"));
            o.expression = o.operands.takeFirst();
        } else if (o.operands.size() != 1) {
            return cmd.usageError(QStringLiteral("with --file, needs one operand X"));
        }
    } else if (binary && o.operands.size() != 2) {
        return cmd.usageError(QStringLiteral("needs two operands, A (baseline) and B; got %1").arg(o.operands.size()));
    } else if (!binary && o.operands.isEmpty()) {
        return cmd.usageError(QStringLiteral("needs at least one operand"));
    }
    for (const QString& operand : std::as_const(o.operands))
        if (!cmd.checkOperand(operand))
            return ExitUsage;
    return std::nullopt;
}

/// A path in any readable format, or db:ID.
std::shared_ptr<const Trial> loadOperand(const QString& spec, const Options& o, QString* error)
{
    if (spec.startsWith(QLatin1String("db:"))) {
        bool ok = false;
        const qint64 id = spec.mid(3).toLongLong(&ok);
        if (!ok) {
            *error = QStringLiteral("%1: db: needs a trial number, as in db:12").arg(spec);
            return nullptr;
        }
        const auto stored = loadTrialFromDatabase(databaseLocation(o.db), id);
        if (!stored) {
            *error = stored.error().toString();
            return nullptr;
        }
        return stored.value();
    }
    ReadOptions options;
    Progress progress;
    auto read = ReaderRegistry::instance().read(spec, options, progress, o.format);
    if (!read) {
        *error = read.error().toString();
        return nullptr;
    }
    return read.value();
}

/// Writes or stores the result as -o asks; prints where it went.
int output(const Trial& result, const Options& o)
{
    if (o.out.isEmpty())
        return 0;
    if (o.out == QLatin1String("db:") || o.out == QLatin1String("db")) {
        const QString location = databaseLocation(o.db);
        auto opened = perfdb::Database::open(location);
        if (!opened)
            return fail(opened.error().toString());
        perfdb::UploadOptions upload;
        upload.application = o.app.isEmpty() ? result.metadataValue(QStringLiteral("Application")) : o.app;
        if (upload.application.isEmpty())
            upload.application = QStringLiteral("Parallax");
        upload.experiment = o.exp.isEmpty() ? QStringLiteral("Comparisons") : o.exp;
        upload.name = o.name;
        Progress progress;
        const auto id = opened.value()->uploadTrial(result, upload, progress);
        if (!id)
            return fail(id.error().toString());
        print(QStringLiteral("stored as trial %1 in %2 (%3 / %4)\n")
                  .arg(id.value())
                  .arg(opened.value()->location(), upload.application, upload.experiment));
        return 0;
    }
    const WriterInfo* writer
        = o.to.isEmpty() ? WriterRegistry::instance().forPath(o.out) : WriterRegistry::instance().find(o.to);
    if (!writer) {
        QStringList known;
        for (const WriterInfo* w : WriterRegistry::instance().writers())
            known.append(w->name);
        return fail(QStringLiteral("--to %1: Parallax writes %2").arg(o.to, known.join(QStringLiteral(", "))));
    }
    if (writer->directory && QFileInfo::exists(o.out) && !QDir(o.out).isEmpty())
        return fail(QStringLiteral("%1 exists and is not empty; choose a new directory").arg(o.out));
    if (!writer->directory && QFileInfo::exists(o.out))
        return fail(QStringLiteral("%1 exists; choose a new file name").arg(o.out));
    const QString error = writer->write(result, o.out);
    if (!error.isEmpty())
        return fail(error);
    // With --json standard output holds the JSON only.
    const QString wrote = QStringLiteral("wrote %1 (%2)\n").arg(o.out, writer->name);
    if (o.json)
        std::fputs(wrote.toLocal8Bit().constData(), stderr);
    else
        print(wrote);
    return 0;
}

} // namespace

int writeDerivedTrial(const Trial& result, const QString& out, const QString& to, const QString& db, bool json)
{
    Options o;
    o.out = out;
    o.to = to;
    o.db = db;
    o.json = json;
    return output(result, o);
}

namespace {

/// The locale of the CLI's text numbers: the GUI's format (digit grouping, '.' decimals).
QLocale textLocale() { return QLocale(QLocale::English, QLocale::UnitedStates); }

/// Δ% of docs/SEMANTICS.md 4.6: 100·(A−B)/A, "new" if A = 0 < B, blank if both 0.
QString deltaPercent(double a, double b)
{
    if (a == 0 && b == 0)
        return {};
    if (a == 0)
        return QStringLiteral("new");
    if (b == 0 && a > 0)
        return QStringLiteral("removed");
    return formatPercentChange(100.0 * (a - b) / a, textLocale());
}

/// The verdict of `diff`: A (with --runs-a) against B (with --runs-b); nullopt after an error
/// loading a run (printed).
std::optional<SpeedupVerdict> diffVerdict(
    const std::shared_ptr<const Trial>& a, const std::shared_ptr<const Trial>& b, const Options& o, QString* error)
{
    std::vector<std::shared_ptr<const Trial>> as { a };
    std::vector<std::shared_ptr<const Trial>> bs { b };
    for (const auto& [specs, runs] : { std::pair { &o.runsA, &as }, std::pair { &o.runsB, &bs } }) {
        for (const QString& spec : *specs) {
            auto run = loadOperand(spec, o, error);
            if (!run)
                return std::nullopt;
            runs->push_back(std::move(run));
        }
    }
    return speedupVerdict(as, bs, o.metric);
}

QJsonObject verdictJson(const SpeedupVerdict& v)
{
    QJsonObject o;
    o.insert(QStringLiteral("metric"), v.metric);
    o.insert(QStringLiteral("event"), v.event);
    o.insert(QStringLiteral("definition"),
        QStringLiteral("T = inclusive value of the top-level event per thread, mean "
                       "over threads (and runs); speed_up = T_A / T_B"));
    o.insert(QStringLiteral("t_a"), v.meanA);
    o.insert(QStringLiteral("t_b"), v.meanB);
    o.insert(QStringLiteral("se_a"), v.seA);
    o.insert(QStringLiteral("se_b"), v.seB);
    o.insert(QStringLiteral("threads_a"), static_cast<qint64>(v.threadsA));
    o.insert(QStringLiteral("threads_b"), static_cast<qint64>(v.threadsB));
    o.insert(QStringLiteral("runs_a"), static_cast<qint64>(v.runsA));
    o.insert(QStringLiteral("runs_b"), static_cast<qint64>(v.runsB));
    o.insert(QStringLiteral("speed_up"), v.speedUp);
    o.insert(QStringLiteral("noise_known"), v.noiseKnown);
    o.insert(QStringLiteral("noise"), v.noiseKnown ? QJsonValue(v.noise) : QJsonValue());
    o.insert(QStringLiteral("noise_source"), v.fromRuns ? QStringLiteral("runs") : QStringLiteral("threads"));
    o.insert(QStringLiteral("exceeds_noise"), v.exceedsNoise());
    o.insert(QStringLiteral("text"), verdictHeadline(v));
    return o;
}

/// The table `diff` prints: per event, the mean exclusive value per thread of A and B, Δ and Δ%,
/// largest |Δ| first; with --json, an array of rows in `json`.
void printDiffTable(const Trial& a, const Trial& b, const Trial& diff, const Options& o, QJsonArray* json)
{
    if (o.top == 0 || diff.metricCount() == 0)
        return;
    MetricId metric(0u);
    if (!o.metric.isEmpty()) {
        bool found = false;
        for (std::size_t m = 0; m < diff.metricCount(); ++m)
            if (diff.metric(MetricId(m)).name == o.metric) {
                metric = MetricId(m);
                found = true;
            }
        if (!found) {
            std::fprintf(stderr, "parallax-cli: no metric %s in the result; the table shows %s\n",
                o.metric.toLocal8Bit().constData(), diff.metric(metric).name.toLocal8Bit().constData());
        }
    }
    const Metric& shownMetric = diff.metric(metric);
    const QString metricName = shownMetric.name;
    // A's and B's values per matching key (events several of one trial map to are summed).
    const EventMatch match = matchEvents({ &a, &b }, o.algebra.match);
    // Totals over the result's threads N: A, B and the diff are then means over the same N, so
    // that Δ = A − B holds in every row also when the thread sets differ.
    const double n = static_cast<double>(std::max<std::size_t>(1, diff.threadCount()));
    auto side = [&](const Trial& t, std::size_t operand) {
        QHash<QString, double> values;
        std::ptrdiff_t m = -1;
        for (std::size_t i = 0; i < t.metricCount(); ++i)
            if (t.metric(MetricId(i)).name == metricName)
                m = static_cast<std::ptrdiff_t>(i);
        const auto stats = TrialStatistics::of(t);
        for (std::size_t e = 0; e < t.eventCount(); ++e) {
            const std::uint32_t k = match.map[operand][e];
            if (k == EventMatch::Dropped)
                continue;
            double& v = values[match.keys[k]];
            if (m >= 0)
                v += stats->stat(EventId(e), MetricId(static_cast<std::size_t>(m)), ValueKind::Exclusive).total / n;
        }
        return values;
    };
    const QHash<QString, double> av = side(a, 0);
    const QHash<QString, double> bv = side(b, 1);
    const auto stats = TrialStatistics::of(diff);
    struct Row {
        QString name;
        double delta;
        bool inA;
        bool inB;
        double a;
        double b;
    };
    std::vector<Row> rows;
    for (std::size_t e = 0; e < diff.eventCount(); ++e) {
        const QString& name = diff.event(EventId(e)).name;
        const double delta = stats->stat(EventId(e), metric, ValueKind::Exclusive).total / n;
        rows.push_back({ name, delta, av.contains(name), bv.contains(name), av.value(name), bv.value(name) });
    }
    std::stable_sort(
        rows.begin(), rows.end(), [](const Row& x, const Row& y) { return std::abs(x.delta) > std::abs(y.delta); });
    const std::size_t shown = std::min<std::size_t>(rows.size(), static_cast<std::size_t>(o.top));
    if (json) {
        for (std::size_t i = 0; i < shown; ++i) {
            const Row& r = rows[i];
            QJsonObject row;
            row.insert(QStringLiteral("event"), r.name);
            row.insert(QStringLiteral("a"), r.inA ? QJsonValue(r.a) : QJsonValue());
            row.insert(QStringLiteral("b"), r.inB ? QJsonValue(r.b) : QJsonValue());
            row.insert(QStringLiteral("delta"), r.delta);
            row.insert(QStringLiteral("delta_percent"),
                r.a != 0 ? QJsonValue(100.0 * (r.a - r.b) / r.a) : QJsonValue(deltaPercent(r.a, r.b)));
            json->append(row);
        }
        return;
    }
    // The GUI's number format: time in ms with 3 decimals, counters with SI prefixes.
    const QLocale locale = textLocale();
    const QString unit = shownMetric.isTime() ? QStringLiteral("ms") : unitLabel(shownMetric, TimeUnit::Milliseconds);
    // Time in any unit (Caliper's seconds too) gets "faster", as in the verdict.
    const bool timeLike = shownMetric.isTime()
        || QStringList { QStringLiteral("s"), QStringLiteral("sec"), QStringLiteral("ms") }.contains(shownMetric.unit);
    // One decimals count per column, as the GUI's comparison tables: the smallest value keeps 2
    // significant digits. Means over threads are fractional: counts below a million get at least two.
    std::vector<double> as;
    std::vector<double> bs;
    std::vector<double> deltas;
    for (std::size_t i = 0; i < shown; ++i) {
        if (rows[i].inA)
            as.push_back(rows[i].a);
        if (rows[i].inB)
            bs.push_back(rows[i].b);
        deltas.push_back(rows[i].delta);
    }
    auto decimalsOf = [&](const std::vector<double>& values) {
        const int d = columnDecimals(values, shownMetric.isTime(), TimeUnit::Milliseconds);
        return shownMetric.isTime() ? d : std::max(d, 2);
    };
    const int aDecimals = decimalsOf(as);
    const int bDecimals = decimalsOf(bs);
    const int deltaDecimals = decimalsOf(deltas);
    auto text = [&](double v, bool sign, int decimals) {
        const QString t = formatMetricValue(v, shownMetric, TimeUnit::Milliseconds, locale, decimals);
        const bool zero
            = std::none_of(t.begin(), t.end(), [](QChar c) { return c.isDigit() && c != QLatin1Char('0'); });
        return sign && !zero && v > 0 ? QLatin1Char('+') + t : t;
    };
    print(QStringLiteral("\n%1%2: exclusive, mean over the result's %3; Δ = A − B, positive = B %4\n")
              .arg(metricName, unit.isEmpty() ? QString() : QStringLiteral(" (") + unit + QStringLiteral(")"))
              .arg(countText(diff.threadCount(), QStringLiteral("thread"), QStringLiteral("threads")),
                  timeLike ? QStringLiteral("faster") : QStringLiteral("lower")));
    print(QStringLiteral("%1 %2 %3 %4  %5\n")
              .arg(QStringLiteral("A"), 14)
              .arg(QStringLiteral("B"), 14)
              .arg(QStringLiteral("Δ"), 14)
              .arg(QStringLiteral("Δ%"), 11)
              .arg(QStringLiteral("event")));
    for (std::size_t i = 0; i < shown; ++i)
        print(QStringLiteral("%1 %2 %3 %4  %5\n")
                  .arg(rows[i].inA ? text(rows[i].a, false, aDecimals) : QStringLiteral("-"), 14)
                  .arg(rows[i].inB ? text(rows[i].b, false, bDecimals) : QStringLiteral("-"), 14)
                  .arg(text(rows[i].delta, true, deltaDecimals), 14)
                  .arg(deltaPercent(rows[i].a, rows[i].b), 11)
                  .arg(rows[i].name));
}

void printSummary(const Trial& result)
{
    print(QStringLiteral("%1: %2, %3, %4 (%5)\n")
              .arg(result.name())
              .arg(countText(result.threadCount(), QStringLiteral("thread"), QStringLiteral("threads")))
              .arg(countText(result.eventCount(), QStringLiteral("event"), QStringLiteral("events")))
              .arg(countText(result.metricCount(), QStringLiteral("metric"), QStringLiteral("metrics")))
              .arg([&] {
                  QStringList names;
                  for (std::size_t m = 0; m < result.metricCount(); ++m)
                      names.append(result.metric(MetricId(m)).name);
                  return names.join(QStringLiteral(", "));
              }()));
    for (const QString& warning : result.warnings())
        std::fprintf(stderr, "warning: %s\n", warning.toLocal8Bit().constData());
}

} // namespace

bool isAlgebraCommand(const QString& command)
{
    static const QStringList names { QStringLiteral("diff"), QStringLiteral("ratio"), QStringLiteral("mean"),
        QStringLiteral("merge"), QStringLiteral("min"), QStringLiteral("max"), QStringLiteral("stddev"),
        QStringLiteral("derive") };
    return names.contains(command);
}

int runAlgebraCommand(const QString& command, const QStringList& args)
{
    Options o;
    if (const auto stop = parse(command, args, o))
        return *stop;

    std::vector<std::shared_ptr<const Trial>> operands;
    for (const QString& spec : o.operands) {
        QString loadError;
        auto trial = loadOperand(spec, o, &loadError);
        if (!trial)
            return fail(loadError);
        operands.push_back(std::move(trial));
    }

    if (QString collapseError; !collapseOperandThreads(operands, o.algebra.threads, &collapseError))
        return fail(collapseError);

    AlgebraResult result(nullptr);
    if (command == QLatin1String("diff"))
        result = difference(*operands[0], *operands[1], o.algebra);
    else if (command == QLatin1String("ratio"))
        result = ratio(*operands[0], *operands[1], o.algebra);
    else if (command == QLatin1String("mean"))
        result = mean(operands, o.algebra);
    else if (command == QLatin1String("merge"))
        result = merge(operands, o.algebra);
    else if (command == QLatin1String("min"))
        result = summary(operands, Summary::Minimum, o.algebra);
    else if (command == QLatin1String("max"))
        result = summary(operands, Summary::Maximum, o.algebra);
    else if (command == QLatin1String("stddev"))
        result = summary(operands, Summary::StdDev, o.algebra);
    else if (!o.file.isEmpty())
        result = deriveMetricsFromFile(*operands[0], o.file, o.mode);
    else
        result = deriveMetric(*operands[0], o.expression, o.mode);
    if (!result)
        return fail(result.error());
    const Trial& trial = *result.trial();
    std::optional<SpeedupVerdict> verdict;
    if (command == QLatin1String("diff")) {
        QString loadError;
        verdict = diffVerdict(operands[0], operands[1], o, &loadError);
        if (!verdict)
            return fail(loadError);
    }
    if (o.json) {
        QJsonObject doc;
        doc.insert(QStringLiteral("verdict"), verdictJson(*verdict));
        doc.insert(QStringLiteral("threads"), static_cast<qint64>(trial.threadCount()));
        doc.insert(QStringLiteral("events"), static_cast<qint64>(trial.eventCount()));
        QJsonArray rows;
        printDiffTable(*operands[0], *operands[1], trial, o, &rows);
        doc.insert(QStringLiteral("rows"), rows);
        const int written = output(trial, o);
        if (written != 0)
            return written;
        print(QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented)));
        return 0;
    }
    if (verdict)
        print(QStringLiteral("Verdict: %1.\n  %2\n").arg(verdictHeadline(*verdict), verdictDefinition(*verdict)));
    printSummary(trial);
    const int written = output(trial, o);
    if (written != 0)
        return written;
    if (command == QLatin1String("diff"))
        printDiffTable(*operands[0], *operands[1], trial, o, nullptr);
    return 0;
}

int runCutSelectCommand(const QString& command, const QStringList& args)
{
    const bool cut = command == QLatin1String("cut");
    Command cmd(command, QStringLiteral("PATH"),
        cut ? QStringLiteral(
            "CubeLib's cube_cut on the call tree of PATH (a file or db:ID): --root NAME re-roots it at\n"
            "a call path (or every node of a region), --prune NAME removes subtrees and adds their\n"
            "inclusive values to the parents' exclusive values (docs/SEMANTICS.md 4.9).")
            : QStringLiteral(
                "CubeLib's cube_part: PATH (a file or db:ID) restricted to a set of threads: --threads by\n"
                "thread index, --nodes by node number, --where on thread metadata (docs/SEMANTICS.md 4.9)."));
    const QCommandLineOption none(QStringLiteral("unused"));
    QCommandLineOption root = none, prune = none, threads = none, nodes = none, where = none;
    if (cut) {
        root = cmd.add({ QStringLiteral("root") },
            QStringLiteral("Re-root the call tree at NAME (a call path or a region)."), QStringLiteral("NAME"));
        prune = cmd.add({ QStringLiteral("prune") },
            QStringLiteral("Remove the subtrees at NAME, folded into their parents (repeatable)."),
            QStringLiteral("NAME"));
    } else {
        threads = cmd.add({ QStringLiteral("threads") }, QStringLiteral("Thread indices to keep, e.g. 0-15,32."),
            QStringLiteral("SPEC"));
        nodes = cmd.add(
            { QStringLiteral("nodes") }, QStringLiteral("Node numbers to keep, e.g. 0-3."), QStringLiteral("SPEC"));
        where = cmd.add({ QStringLiteral("where") }, QStringLiteral("Keep the threads whose metadata KEY is VALUE."),
            QStringLiteral("KEY=VALUE"));
    }
    const auto out = cmd.add({ QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("Write the result (format from the name, or --to), or db: to store it."), QStringLiteral("OUT"));
    const auto to = cmd.add({ QStringLiteral("to") }, QStringLiteral("The format to write."), QStringLiteral("FORMAT"));
    const auto db = cmd.add(
        { QStringLiteral("db") }, QStringLiteral("The database of db:ID and -o db:."), QStringLiteral("LOCATION"));
    const auto json = cmd.add({ QStringLiteral("json") }, QStringLiteral("Print the summary as JSON."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    const QStringList paths = cmd.positional();
    if (paths.size() != 1)
        return cmd.usageError(QStringLiteral("needs one PATH, got %1 argument(s)").arg(paths.size()));
    if (!cmd.checkOperand(paths[0]) || !cmd.checkWriter(cmd.value(to)))
        return ExitUsage;
    Options o;
    o.out = cmd.value(out);
    o.to = cmd.value(to);
    o.db = cmd.value(db);
    o.json = cmd.isSet(json);
    QString error;
    const auto trial = loadOperand(paths[0], o, &error);
    if (!trial)
        return fail(error);
    const AlgebraResult result = cut ? cutCallTree(*trial, cmd.value(root), cmd.values(prune))
                                     : selectThreads(*trial, cmd.value(threads), cmd.value(nodes), cmd.value(where));
    if (!result)
        return fail(result.error());
    const Trial& r = *result.trial();
    if (o.json) {
        QJsonObject doc;
        doc.insert(QStringLiteral("name"), r.name());
        doc.insert(QStringLiteral("operation"), r.provenance().operation);
        doc.insert(QStringLiteral("options"), QJsonArray::fromStringList(r.provenance().options));
        doc.insert(QStringLiteral("threads"), static_cast<qint64>(r.threadCount()));
        doc.insert(QStringLiteral("events"), static_cast<qint64>(r.eventCount()));
        doc.insert(QStringLiteral("metrics"), static_cast<qint64>(r.metricCount()));
        const int written = output(r, o);
        if (written != 0)
            return written;
        print(QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented)));
        return 0;
    }
    printSummary(r);
    return output(r, o);
}

int runConvert(const QStringList& args)
{
    Command cmd(QStringLiteral("convert"), QStringLiteral("IN OUT"),
        QStringLiteral("Read IN in any format Parallax reads (or db:ID), write OUT in the format its name says\n"
                       "(a TAU directory, FILE.ppk, .csv, .json...) or --to FORMAT."));
    const auto to = cmd.add({ QStringLiteral("to") },
        QStringLiteral("The format to write (see 'parallax-cli formats')."), QStringLiteral("FORMAT"));
    const auto format = cmd.add({ QStringLiteral("format") },
        QStringLiteral("Read IN with this reader instead of detecting the format."), QStringLiteral("NAME"));
    const auto db = cmd.add(
        { QStringLiteral("db") }, QStringLiteral("The database of a db:ID input."), QStringLiteral("LOCATION"));
    if (const auto stop = cmd.parse(args))
        return *stop;
    const QStringList paths = cmd.positional();
    if (paths.size() != 2)
        return cmd.usageError(QStringLiteral("needs IN and OUT, got %1 argument(s)").arg(paths.size()));
    if (!cmd.checkOperand(paths[0]))
        return ExitUsage;
    Options o;
    o.format = cmd.value(format);
    o.to = cmd.value(to);
    o.db = cmd.value(db);
    o.out = paths[1];
    if (!cmd.checkReader(o.format))
        return ExitUsage;
    if (!cmd.checkWriter(o.to))
        return ExitUsage;
    QString error;
    const auto trial = loadOperand(paths[0], o, &error);
    if (!trial)
        return fail(error);
    return output(*trial, o);
}

std::optional<double> runParameter(const Trial& trial, const QString& key, const QString& label, QString* error)
{
    if (key == QLatin1String("threads"))
        return static_cast<double>(trial.threadCount());
    const QString text = trial.metadataValue(key);
    if (text.isNull()) {
        *error = QStringLiteral("%1 has no metadata key '%2'").arg(label, key);
        return std::nullopt;
    }
    const auto v = textnumber::parseDoubleInRange(text.trimmed().toStdString());
    if (!v || !std::isfinite(*v)) {
        *error = QStringLiteral("%1: metadata '%2' is '%3', not a number").arg(label, key, text.left(60));
        return std::nullopt;
    }
    return *v;
}

std::shared_ptr<const Trial> loadTrialOperand(
    const QString& spec, const QString& db, const QString& format, QString* error)
{
    Options o;
    o.db = db;
    o.format = format;
    return loadOperand(spec, o, error);
}

} // namespace parallax
