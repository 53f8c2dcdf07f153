#include "app/cli/algebracommand.h"

#include "algebra/derivedmetric.h"
#include "algebra/matching.h"
#include "algebra/operations.h"
#include "algebra/statistics.h"
#include "algebra/units.h"
#include "app/cli/dbcommand.h"
#include "datasource/readers/readerregistry.h"
#include "datasource/writers/writerregistry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace parallax {

const char* const AlgebraUsage = R"(algebra of runs (SEMANTICS.md 4); the result is an ordinary trial:
  diff A B       A - B (A = baseline, B = candidate; positive = B is cheaper)
  ratio A B      A / B cell by cell (IEEE: x/0 = inf, 0/0 = NaN)
  mean X...      the mean of N runs        min X... | max X... | stddev X...
  merge X...     the metrics of several runs in one trial
  derive [--mode ieee|paraprof] (EXPR | --file FILE) X
                 a new metric, e.g. 'FLOPS = "PAPI_FP_OPS" / "TIME"'
  convert [--to FORMAT] [--format NAME] IN OUT
                 read IN in any format, write OUT (tau directory, .ppk, ...)
operands: a profile path in any format, or db:ID (a trial of --db LOCATION, $PARALLAX_DB or
  the default database)
options:
  -o OUT         write the result: a TAU directory, FILE.ppk, ... (--to FORMAT forces one), or
                 db: to store it in the database (--app A --exp E --name T)
  --match exact|no-source|normalized    event matching (default exact; normalized strips
                 source locations, parameters and signatures, for compiler vs source runs)
  --threads exact|union|collapse-process|collapse-all|by-order
                 thread sets that overlap or are disjoint: refuse (exact, the default), keep
                 the union, sum threads per process or into one, or map the i-th threads;
                 equal or nested sets are united by (node, context, thread), unless a
                 collapse is asked for, which always applies
  --absent zero|skip      mean/min/max/stddev: absent cells count as 0 (default) or are skipped
  --conflict error|first|last   merge: a metric several runs have (default error)
  --metric NAME  the metric of the printed table (default the first)
  --top N        rows of the printed table (default 15; 0 = none)
)";

namespace {

    int fail(const QString& message, int code = 2)
    {
        std::fprintf(stderr, "parallax-cli: %s\n", message.toLocal8Bit().constData());
        return code;
    }

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
    };

    /// Parses the options every algebra command shares; returns an error text or an empty string.
    QString parse(const QStringList& args, Options& o)
    {
        for (int i = 0; i < args.size(); ++i) {
            const QString& a = args[i];
            auto value = [&](QString& target) {
                if (i + 1 >= args.size())
                    return false;
                target = args[++i];
                return true;
            };
            QString v;
            if (a == QLatin1String("-o") || a == QLatin1String("--out")) {
                if (!value(o.out))
                    return QStringLiteral("%1 needs an output path").arg(a);
            } else if (a == QLatin1String("--to")) {
                if (!value(o.to))
                    return QStringLiteral("--to needs a format");
            } else if (a == QLatin1String("--format")) {
                if (!value(o.format))
                    return QStringLiteral("--format needs a reader name");
            } else if (a == QLatin1String("--db")) {
                if (!value(o.db))
                    return QStringLiteral("--db needs a location");
            } else if (a == QLatin1String("--app")) {
                if (!value(o.app))
                    return QStringLiteral("--app needs a name");
            } else if (a == QLatin1String("--exp")) {
                if (!value(o.exp))
                    return QStringLiteral("--exp needs a name");
            } else if (a == QLatin1String("--name")) {
                if (!value(o.name))
                    return QStringLiteral("--name needs a name");
                o.algebra.name = o.name;
            } else if (a == QLatin1String("--metric")) {
                if (!value(o.metric))
                    return QStringLiteral("--metric needs a metric name");
            } else if (a == QLatin1String("--file")) {
                if (!value(o.file))
                    return QStringLiteral("--file needs a definition file");
            } else if (a == QLatin1String("--top")) {
                bool ok = false;
                if (!value(v) || (o.top = v.toInt(&ok), !ok) || o.top < 0)
                    return QStringLiteral("--top needs a count from 0");
            } else if (a == QLatin1String("--mode")) {
                if (!value(v))
                    return QStringLiteral("--mode needs ieee or paraprof");
                const auto mode = derivedModeFromName(v);
                if (!mode)
                    return QStringLiteral("--mode %1: use ieee or paraprof").arg(v);
                o.mode = *mode;
            } else if (a == QLatin1String("--match")) {
                if (!value(v))
                    return QStringLiteral("--match needs exact, no-source or normalized");
                const QString m = v.toLower();
                if (m == QLatin1String("exact"))
                    o.algebra.match.policy = EventMatchPolicy::Exact;
                else if (m == QLatin1String("no-source") || m == QLatin1String("no_source"))
                    o.algebra.match.policy = EventMatchPolicy::NoSource;
                else if (m == QLatin1String("normalized") || m == QLatin1String("normalised")
                    || m == QLatin1String("routine"))
                    o.algebra.match.policy = EventMatchPolicy::Routine;
                else
                    return QStringLiteral("--match %1: use exact, no-source or normalized").arg(v);
            } else if (a == QLatin1String("--threads")) {
                if (!value(v))
                    return QStringLiteral("--threads needs a policy");
                const QString t = v.toLower();
                if (t == QLatin1String("exact"))
                    o.algebra.threads = ThreadPolicy::Strict;
                else if (t == QLatin1String("union"))
                    o.algebra.threads = ThreadPolicy::UnionByKey;
                else if (t == QLatin1String("collapse-process"))
                    o.algebra.threads = ThreadPolicy::CollapseProcess;
                else if (t == QLatin1String("collapse-all"))
                    o.algebra.threads = ThreadPolicy::CollapseAll;
                else if (t == QLatin1String("by-order"))
                    o.algebra.threads = ThreadPolicy::MapByOrder;
                else
                    return QStringLiteral("--threads %1: use exact, union, collapse-process, collapse-all or by-order")
                        .arg(v);
            } else if (a == QLatin1String("--absent")) {
                if (!value(v) || (v != QLatin1String("zero") && v != QLatin1String("skip")))
                    return QStringLiteral("--absent needs zero or skip");
                o.algebra.absent = v == QLatin1String("skip") ? AbsentCells::Skip : AbsentCells::AsZero;
            } else if (a == QLatin1String("--conflict")) {
                if (!value(v))
                    return QStringLiteral("--conflict needs error, first or last");
                if (v == QLatin1String("error"))
                    o.algebra.conflict = MergeConflict::Error;
                else if (v == QLatin1String("first"))
                    o.algebra.conflict = MergeConflict::FirstWins;
                else if (v == QLatin1String("last"))
                    o.algebra.conflict = MergeConflict::LastWins;
                else
                    return QStringLiteral("--conflict %1: use error, first or last").arg(v);
            } else if (a.startsWith(QLatin1Char('-')) && a.size() > 1) {
                return QStringLiteral("unknown option %1").arg(a);
            } else {
                o.operands.append(a);
            }
        }
        return {};
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
            return fail(QStringLiteral("--to %1: Parallax writes %2").arg(o.to, known.join(QStringLiteral(", "))), 1);
        }
        if (writer->directory && QFileInfo::exists(o.out) && !QDir(o.out).isEmpty())
            return fail(QStringLiteral("%1 exists and is not empty; choose a new directory").arg(o.out), 1);
        if (!writer->directory && QFileInfo::exists(o.out))
            return fail(QStringLiteral("%1 exists; choose a new file name").arg(o.out), 1);
        const QString error = writer->write(result, o.out);
        if (!error.isEmpty())
            return fail(error);
        print(QStringLiteral("wrote %1 (%2)\n").arg(o.out, writer->name));
        return 0;
    }

    QString number(double v)
    {
        if (std::isnan(v))
            return QStringLiteral("NaN");
        if (std::isinf(v))
            return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
        return QString::number(v, 'g', 6);
    }

    /// Δ% of SEMANTICS.md 4.6: 100·(A−B)/A, "new" if A = 0 < B, blank if both 0.
    QString deltaPercent(double a, double b)
    {
        if (a == 0 && b == 0)
            return {};
        if (a == 0)
            return QStringLiteral("new");
        if (b == 0 && a > 0)
            return QStringLiteral("removed");
        return QString::asprintf("%+.1f%%", 100.0 * (a - b) / a);
    }

    /// The table `diff` prints: per event, the mean exclusive value per thread of A and B, Δ and Δ%,
    /// largest |Δ| first.
    void printDiffTable(const Trial& a, const Trial& b, const Trial& diff, const Options& o)
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
        const QString metricName = diff.metric(metric).name;
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
            QString a;
            QString b;
            QString percent;
        };
        std::vector<Row> rows;
        for (std::size_t e = 0; e < diff.eventCount(); ++e) {
            const QString& name = diff.event(EventId(e)).name;
            const double delta = stats->stat(EventId(e), metric, ValueKind::Exclusive).total / n;
            const bool inA = av.contains(name);
            const bool inB = bv.contains(name);
            rows.push_back({ name, delta, inA ? number(av.value(name)) : QStringLiteral("-"),
                inB ? number(bv.value(name)) : QStringLiteral("-"), deltaPercent(av.value(name), bv.value(name)) });
        }
        std::stable_sort(
            rows.begin(), rows.end(), [](const Row& x, const Row& y) { return std::abs(x.delta) > std::abs(y.delta); });
        const QString unit = diff.metric(metric).unit;
        print(QStringLiteral("\n%1%2: exclusive, mean over the result's %3 thread(s); Δ = A − B, positive = B cheaper "
                             "(SEMANTICS.md 4.6)\n")
                  .arg(metricName, unit.isEmpty() ? QString() : QStringLiteral(" [") + unit + QStringLiteral("]"))
                  .arg(diff.threadCount()));
        print(QStringLiteral("%1 %2 %3 %4  %5\n")
                  .arg(QStringLiteral("A"), 12)
                  .arg(QStringLiteral("B"), 12)
                  .arg(QStringLiteral("Δ"), 12)
                  .arg(QStringLiteral("Δ%"), 9)
                  .arg(QStringLiteral("event")));
        const std::size_t shown = std::min<std::size_t>(rows.size(), static_cast<std::size_t>(o.top));
        for (std::size_t i = 0; i < shown; ++i)
            print(QStringLiteral("%1 %2 %3 %4  %5\n")
                      .arg(rows[i].a, 12)
                      .arg(rows[i].b, 12)
                      .arg(number(rows[i].delta), 12)
                      .arg(rows[i].percent, 9)
                      .arg(rows[i].name));
    }

    void printSummary(const Trial& result)
    {
        print(QStringLiteral("%1: %2 threads, %3 events, %4 metrics (%5)\n")
                  .arg(result.name())
                  .arg(result.threadCount())
                  .arg(result.eventCount())
                  .arg(result.metricCount())
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
    o.command = command;
    const QString error = parse(args, o);
    if (!error.isEmpty())
        return fail(command + QStringLiteral(": ") + error + QStringLiteral(" (see parallax-cli help)"), 1);
    const bool binary = command == QLatin1String("diff") || command == QLatin1String("ratio");
    if (command == QLatin1String("derive")) {
        // derive EXPR X, or derive --file FILE X.
        if (o.file.isEmpty()) {
            if (o.operands.size() != 2)
                return fail(QStringLiteral("derive: usage: derive [--mode ieee|paraprof] (EXPR | --file FILE) X"), 1);
            o.expression = o.operands.takeFirst();
        } else if (o.operands.size() != 1) {
            return fail(QStringLiteral("derive: usage: derive [--mode ieee|paraprof] (EXPR | --file FILE) X"), 1);
        }
    } else if (binary && o.operands.size() != 2) {
        return fail(QStringLiteral("%1: needs two operands, A (baseline) and B").arg(command), 1);
    } else if (!binary && o.operands.isEmpty()) {
        return fail(QStringLiteral("%1: needs at least one operand").arg(command), 1);
    }

    std::vector<std::shared_ptr<const Trial>> operands;
    for (const QString& spec : o.operands) {
        QString loadError;
        auto trial = loadOperand(spec, o, &loadError);
        if (!trial)
            return fail(loadError);
        operands.push_back(std::move(trial));
    }

    // An explicit collapse applies whatever the thread sets are (SEMANTICS.md 4.5 consults the
    // policy only for overlapping or disjoint sets; asking for it is asking for the aggregate).
    if (o.algebra.threads == ThreadPolicy::CollapseProcess || o.algebra.threads == ThreadPolicy::CollapseAll) {
        for (auto& operand : operands) {
            const AlgebraResult collapsed = remapThreads(*operand, o.algebra.threads);
            if (!collapsed)
                return fail(collapsed.error());
            operand = collapsed.trial();
        }
    }

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
    printSummary(trial);
    const int written = output(trial, o);
    if (written != 0)
        return written;
    if (command == QLatin1String("diff"))
        printDiffTable(*operands[0], *operands[1], trial, o);
    return 0;
}

int runConvert(const QStringList& args)
{
    QString to;
    QString format;
    QStringList paths;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        if (a == QLatin1String("--to") && i + 1 < args.size())
            to = args[++i];
        else if (a == QLatin1String("--format") && i + 1 < args.size())
            format = args[++i];
        else if (a.startsWith(QLatin1Char('-')))
            return fail(QStringLiteral("convert: unknown option %1").arg(a), 1);
        else
            paths.append(a);
    }
    if (paths.size() != 2)
        return fail(QStringLiteral("convert: usage: convert [--to FORMAT] [--format NAME] IN OUT"), 1);
    Options o;
    o.format = format;
    o.to = to;
    o.out = paths[1];
    QString error;
    const auto trial = loadOperand(paths[0], o, &error);
    if (!trial)
        return fail(error);
    return output(*trial, o);
}

std::shared_ptr<const Trial> loadTrialOperand(const QString& spec, const QString& db, const QString& format, QString* error)
{
    Options o;
    o.db = db;
    o.format = format;
    return loadOperand(spec, o, error);
}

} // namespace parallax
