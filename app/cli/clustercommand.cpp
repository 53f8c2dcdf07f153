// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/clustercommand.h"

#include "algebra/cluster.h"
#include "algebra/paramcorrelation.h"
#include "algebra/statistics.h"
#include "algebra/units.h"
#include "app/cli/algebracommand.h"
#include "app/cli/commandline.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QTextStream>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax {

using namespace cli;

namespace {

QJsonArray jsonArray(const std::vector<double>& values)
{
    QJsonArray a;
    for (double v : values)
        a.append(jsonNumber(v));
    return a;
}

/// The options both commands share.
struct MatrixArguments {
    QCommandLineOption metric { QStringList { QStringLiteral("metric") },
        QStringLiteral("A metric whose exclusive values form the columns (repeatable; default the first)."),
        QStringLiteral("M") };
    QCommandLineOption callPaths { QStringList { QStringLiteral("callpaths") },
        QStringLiteral("Columns are the call paths instead of the flat events.") };
    QCommandLineOption normalise { QStringList { QStringLiteral("normalise"), QStringLiteral("normalize") },
        QStringLiteral("raw (the default), share (of the thread's sum over the columns) or zscore (per column)."),
        QStringLiteral("MODE") };
    QCommandLineOption matrix { QStringList { QStringLiteral("matrix") },
        QStringLiteral("Also write the matrix (columns, threads, raw and normalised rows, each thread's total) as "
                       "JSON to FILE."),
        QStringLiteral("FILE") };
    QCommandLineOption format { QStringList { QStringLiteral("format") },
        QStringLiteral("Read with this reader instead of detecting the format."), QStringLiteral("NAME") };
    QCommandLineOption db { QStringList { QStringLiteral("db") },
        QStringLiteral("The database for db:ID operands (default $PARALLAX_DB or the default database)."),
        QStringLiteral("LOCATION") };
    bool normalises = false;
    void addTo(Command& cmd, bool withNormalise)
    {
        normalises = withNormalise;
        cmd.add(metric);
        cmd.add(callPaths);
        if (withNormalise)
            cmd.add(normalise);
        cmd.add(matrix);
        cmd.add(format);
        cmd.add(db);
    }
};

struct Loaded {
    std::shared_ptr<const Trial> trial;
    ProfileMatrix matrix;
};

/// Reads the one PATH and builds its matrix; the exit code when that failed.
std::optional<int> load(const Command& cmd, const MatrixArguments& a, Loaded* out)
{
    const auto path = cmd.onePath({ a.format, a.db });
    if (!path)
        return ExitUsage;
    ProfileMatrixOptions options;
    if (a.normalises && cmd.isSet(a.normalise)) {
        const auto n = parseClusterNormalisation(cmd.value(a.normalise));
        if (!n)
            return cmd.usageError(
                QStringLiteral("--normalise takes %1, not '%2'")
                    .arg(clusterNormalisationNames().join(QStringLiteral(", ")), cmd.value(a.normalise)));
        options.normalisation = *n;
    }
    options.callPaths = cmd.isSet(a.callPaths);
    QString error;
    out->trial = loadTrialOperand(*path, cmd.value(a.db), cmd.value(a.format), &error);
    if (!out->trial)
        return failure(error);
    for (const QString& name : cmd.values(a.metric)) {
        const MetricId m = out->trial->findMetric(name);
        if (!m.isValid())
            return failure(QStringLiteral("%1 has no metric '%2'").arg(*path, name));
        options.metrics.push_back(m);
    }
    auto matrix = buildProfileMatrix(*out->trial, options, &error);
    if (!matrix)
        return failure(QStringLiteral("%1: %2").arg(*path, error));
    out->matrix = std::move(*matrix);
    return std::nullopt;
}

QJsonArray columnNames(const Trial& trial, const ProfileMatrix& m)
{
    QJsonArray names;
    for (std::size_t c = 0; c < m.cols; ++c)
        names.append(m.columnName(trial, c));
    return names;
}

QJsonArray threadNames(const Trial& trial)
{
    QJsonArray threads;
    for (const ThreadKey& k : trial.threads())
        threads.append(k.toString());
    return threads;
}

/// --matrix FILE: what an independent computation needs to repeat ours.
std::optional<int> writeMatrix(const QString& path, const Trial& trial, const ProfileMatrix& m)
{
    QJsonArray raw, values, total;
    for (std::size_t i = 0; i < m.rows; ++i) {
        QJsonArray r, v;
        for (std::size_t c = 0; c < m.cols; ++c) {
            r.append(m.raw[i * m.cols + c]);
            v.append(m.values[i * m.cols + c]);
        }
        raw.append(r);
        values.append(v);
    }
    const auto stats = TrialStatistics::of(trial);
    for (std::size_t i = 0; i < m.rows; ++i)
        total.append(stats->threadTopInclusive(ThreadIndex(i), m.columns.front().metric));
    const QJsonObject doc { { QStringLiteral("trial"), trial.name() },
        { QStringLiteral("normalisation"), clusterNormalisationName(m.normalisation) },
        { QStringLiteral("columns"), columnNames(trial, m) }, { QStringLiteral("threads"), threadNames(trial) },
        { QStringLiteral("raw"), raw }, { QStringLiteral("values"), values }, { QStringLiteral("total"), total } };
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || f.write(QJsonDocument(doc).toJson(QJsonDocument::Compact)) < 0 || !f.flush())
        return failure(QStringLiteral("--matrix %1: cannot write (%2)").arg(path, f.errorString()));
    return std::nullopt;
}

/// Thread indices as ranges: "0-3,8,10-11".
QString indexRanges(const std::vector<std::size_t>& indices)
{
    QStringList parts;
    for (std::size_t i = 0; i < indices.size();) {
        std::size_t j = i;
        while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1)
            ++j;
        parts << (j == i ? QString::number(indices[i]) : QStringLiteral("%1-%2").arg(indices[i]).arg(indices[j]));
        i = j + 1;
    }
    return parts.join(QLatin1Char(','));
}

} // namespace

int runClusterCommand(const QStringList& args)
{
    Command cmd(QStringLiteral("cluster"), QStringLiteral("PATH"),
        QStringLiteral("Cluster the threads of a trial by their per-event profile (docs/SEMANTICS.md §11): one row\n"
                       "per thread of exclusive values, normalised, then k-means (k-means++ seeds, several\n"
                       "restarts, the least inertia wins) or Ward's agglomerative clustering. Without --k the k\n"
                       "of --k-range (default 2-10) with the largest mean silhouette. Prints each cluster's size,\n"
                       "representative thread (the member nearest the centroid), threads and top events."));
    MatrixArguments a;
    a.addTo(cmd, true);
    const auto kOption
        = cmd.add({ QStringLiteral("k") }, QStringLiteral("The number of clusters."), QStringLiteral("K"));
    const auto range = cmd.add({ QStringLiteral("k-range") },
        QStringLiteral("Choose k in A-B by the silhouette (the default, 2-10)."), QStringLiteral("A-B"));
    const auto method = cmd.add(
        { QStringLiteral("method") }, QStringLiteral("kmeans (the default) or ward."), QStringLiteral("METHOD"));
    const auto restarts = cmd.add({ QStringLiteral("restarts") },
        QStringLiteral("k-means runs from different seeds (1 to 100; default 10, or 4 when threads x columns\n"
                       "x k is above 5e7)."),
        QStringLiteral("N"));
    const auto kSample = cmd.add({ QStringLiteral("k-sample") },
        QStringLiteral("Without --k, on more threads than N: try the k range on a sample of N threads, then cluster\n"
                       "all threads with the chosen k (default 16384; 0: the whole range on all threads)."),
        QStringLiteral("N"));
    const auto seed = cmd.add({ QStringLiteral("seed") },
        QStringLiteral("The seed of the k-means++ seeding and of the samples (default 1)."), QStringLiteral("S"));
    const auto pca = cmd.add({ QStringLiteral("pca") },
        QStringLiteral("--json: also each thread's coordinates on the first two principal components."));
    const auto top = cmd.add({ QStringLiteral("top") },
        QStringLiteral("Text: the events listed per cluster (default 5)."), QStringLiteral("N"));
    const auto json = cmd.add({ QStringLiteral("json") },
        QStringLiteral("Print the clusters (centroids, representative, per-thread labels) as JSON."));
    cmd.addArgument(QStringLiteral("PATH"), QStringLiteral("A profile in any format Parallax reads, or db:ID."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    ClusterOptions o;
    if (cmd.isSet(kOption) && cmd.isSet(range))
        return cmd.usageError(QStringLiteral("--k and --k-range exclude each other"));
    if (cmd.isSet(kOption)) {
        const auto k = cmd.integer(kOption, 1, 1'000'000, 0);
        if (!k)
            return ExitUsage;
        o.k = static_cast<int>(*k);
    }
    if (cmd.isSet(range)) {
        const QStringList parts = cmd.value(range).split(QLatin1Char('-'));
        if (parts.size() != 2)
            return cmd.usageError(QStringLiteral("--k-range: '%1' is not A-B (e.g. 2-10)").arg(cmd.value(range)));
        const auto lo = cmd.integer(QStringLiteral("--k-range"), parts[0], 2, 1'000'000);
        const auto hi = lo ? cmd.integer(QStringLiteral("--k-range"), parts[1], *lo, 1'000'000) : std::nullopt;
        if (!hi)
            return ExitUsage;
        o.kMin = static_cast<int>(*lo);
        o.kMax = static_cast<int>(*hi);
    }
    if (cmd.isSet(method)) {
        const auto m = parseClusterMethod(cmd.value(method));
        if (!m)
            return cmd.usageError(QStringLiteral("--method takes %1, not '%2'")
                                      .arg(clusterMethodNames().join(QStringLiteral(", ")), cmd.value(method)));
        o.method = *m;
    }
    const auto r = cmd.integer(restarts, 1, 100, 0);
    const auto s = r ? cmd.integer(seed, 0, std::numeric_limits<qint64>::max(), 1) : std::nullopt;
    const auto t = s ? cmd.integer(top, 0, 1'000'000, 5) : std::nullopt;
    const auto ks = t ? cmd.integer(kSample, 0, std::numeric_limits<qint64>::max(),
                        static_cast<qint64>(ClusterOptions().kSearchSample))
                      : std::nullopt;
    if (!ks)
        return ExitUsage;
    if (*ks > 0 && *ks <= o.kMax)
        return cmd.usageError(
            QStringLiteral("--k-sample %1 must be above the largest k tried, %2 (or 0)").arg(*ks).arg(o.kMax));
    o.kSearchSample = static_cast<std::size_t>(*ks);
    o.restarts = cmd.isSet(restarts) ? static_cast<int>(*r) : 0;
    o.seed = static_cast<std::uint64_t>(*s);
    o.pca = cmd.isSet(pca);

    Loaded in;
    if (const auto stop = load(cmd, a, &in))
        return *stop;
    const Trial& trial = *in.trial;
    const ProfileMatrix& m = in.matrix;
    if (o.k > static_cast<int>(m.rows))
        return failure(QStringLiteral("%1: --k %2 is more clusters than its %3 threads")
                           .arg(cmd.positional().front())
                           .arg(o.k)
                           .arg(m.rows));
    if (cmd.isSet(a.matrix))
        if (const auto stop = writeMatrix(cmd.value(a.matrix), trial, m))
            return *stop;
    const ClusterResult result = clusterThreads(m, o);
    if (!result.ok())
        return failure(QStringLiteral("%1: %2").arg(cmd.positional().front(), result.error));

    QStringList metricNames;
    for (const ProfileColumn& c : m.columns)
        if (!metricNames.contains(trial.metric(c.metric).name))
            metricNames << trial.metric(c.metric).name;
    if (cmd.isSet(json)) {
        QJsonArray clusters;
        for (std::size_t c = 0; c < result.clusters.size(); ++c) {
            const ThreadCluster& cl = result.clusters[c];
            clusters.append(QJsonObject { { QStringLiteral("cluster"), static_cast<int>(c) },
                { QStringLiteral("size"), static_cast<qint64>(cl.size) },
                { QStringLiteral("representative"), trial.threadKey(ThreadIndex(cl.representative)).toString() },
                { QStringLiteral("representativeIndex"), static_cast<qint64>(cl.representative) },
                { QStringLiteral("sse"), jsonNumber(cl.sse) }, { QStringLiteral("centroid"), jsonArray(cl.centroid) },
                { QStringLiteral("meanRaw"), jsonArray(cl.meanRaw) } });
        }
        QJsonArray labels;
        for (int l : result.labels)
            labels.append(l);
        QJsonArray silhouettes;
        for (const auto& [k, v] : result.silhouettes)
            silhouettes.append(
                QJsonObject { { QStringLiteral("k"), k }, { QStringLiteral("silhouette"), jsonNumber(v) } });
        QJsonObject doc { { QStringLiteral("trial"), trial.name() },
            { QStringLiteral("metrics"), QJsonArray::fromStringList(metricNames) },
            { QStringLiteral("normalisation"), clusterNormalisationName(m.normalisation) },
            { QStringLiteral("method"), clusterMethodName(o.method) },
            { QStringLiteral("callPaths"), cmd.isSet(a.callPaths) },
            { QStringLiteral("threadCount"), static_cast<qint64>(m.rows) },
            { QStringLiteral("columns"), columnNames(trial, m) }, { QStringLiteral("k"), result.k },
            { QStringLiteral("inertia"), jsonNumber(result.inertia) },
            { QStringLiteral("iterations"), result.iterations },
            { QStringLiteral("silhouette"), jsonNumber(result.silhouette) },
            { QStringLiteral("silhouetteRows"), static_cast<qint64>(result.silhouetteRows) },
            { QStringLiteral("silhouettes"), silhouettes },
            { QStringLiteral("kSearchRows"), static_cast<qint64>(result.kSearchRows) },
            { QStringLiteral("wardRows"), static_cast<qint64>(result.wardRows) },
            { QStringLiteral("clusters"), clusters }, { QStringLiteral("threads"), threadNames(trial) },
            { QStringLiteral("labels"), labels } };
        if (o.pca)
            doc.insert(QStringLiteral("pca"),
                QJsonObject { { QStringLiteral("explained"),
                                  QJsonArray { jsonNumber(result.explained[0]), jsonNumber(result.explained[1]) } },
                    { QStringLiteral("x"), jsonArray(result.pcaX) }, { QStringLiteral("y"), jsonArray(result.pcaY) } });
        printOut(QJsonDocument(doc).toJson(QJsonDocument::Indented));
        return ExitSuccess;
    }

    QString text;
    QTextStream out(&text);
    const QLocale locale;
    out << QStringLiteral("%1: %2 threads x %3 columns (%4, %5%6), %7")
               .arg(trial.name())
               .arg(m.rows)
               .arg(m.cols)
               .arg(metricNames.join(QStringLiteral(", ")), clusterNormalisationName(m.normalisation),
                   cmd.isSet(a.callPaths) ? QStringLiteral(", call paths") : QString(), clusterMethodName(o.method))
        << '\n';
    out << QStringLiteral("k = %1, inertia %2, silhouette %3%4")
               .arg(result.k)
               .arg(result.inertia, 0, 'g', 6)
               .arg(std::isfinite(result.silhouette) ? QString::number(result.silhouette, 'f', 4) : QStringLiteral("-"))
               .arg(result.silhouetteRows < m.rows
                       ? QStringLiteral(" (on a sample of %1 threads)").arg(result.silhouetteRows)
                       : QString())
        << '\n';
    if (!result.silhouettes.empty()) {
        QStringList tried;
        for (const auto& [k, v] : result.silhouettes)
            tried << QStringLiteral("k=%1: %2")
                         .arg(k)
                         .arg(std::isfinite(v) ? QString::number(v, 'f', 4) : QStringLiteral("-"));
        out << QStringLiteral("silhouettes: ") << tried.join(QStringLiteral(", "))
            << (result.kSearchRows < m.rows
                       ? QStringLiteral(" (k tried on a sample of %1 threads)").arg(result.kSearchRows)
                       : QString())
            << '\n';
    }
    for (std::size_t c = 0; c < result.clusters.size(); ++c) {
        const ThreadCluster& cl = result.clusters[c];
        std::vector<std::size_t> members;
        for (std::size_t i = 0; i < result.labels.size(); ++i)
            if (result.labels[i] == static_cast<int>(c))
                members.push_back(i);
        out << '\n'
            << QStringLiteral("cluster %1: %2 threads, representative %3 (#%4)")
                   .arg(c)
                   .arg(cl.size)
                   .arg(trial.threadKey(ThreadIndex(cl.representative)).toString())
                   .arg(cl.representative)
            << '\n';
        const QString ranges = indexRanges(members);
        out << QStringLiteral("  threads #")
            << (ranges.size() > 200 ? ranges.left(200) + QStringLiteral("...") : ranges) << '\n';
        std::vector<std::size_t> order(m.cols);
        std::iota(order.begin(), order.end(), std::size_t(0));
        std::stable_sort(
            order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return cl.meanRaw[x] > cl.meanRaw[y]; });
        for (std::size_t i = 0; i < std::min<std::size_t>(order.size(), static_cast<std::size_t>(*t)); ++i) {
            const std::size_t col = order[i];
            const Metric& metric = trial.metric(m.columns[col].metric);
            out << QStringLiteral("  %1 %2  %3")
                       .arg(formatMetricValue(cl.meanRaw[col], metric, TimeUnit::Milliseconds, locale), 16)
                       .arg(unitLabel(metric, TimeUnit::Milliseconds), -5)
                       .arg(m.columnName(trial, col))
                << '\n';
        }
    }
    out.flush();
    printOut(text);
    return ExitSuccess;
}

namespace {

/// `correlate --param KEY RUN...`: each event's statistic against a parameter of the runs.
int correlateRuns(const Command& cmd, const MatrixArguments& a, const QCommandLineOption& param,
    const QCommandLineOption& event, const QCommandLineOption& inclusive, const QCommandLineOption& maximum, int top,
    bool json)
{
    if (!cmd.checkReader(cmd.value(a.format)))
        return ExitUsage;
    if (cmd.isSet(a.matrix))
        return cmd.usageError(QStringLiteral("--matrix is for one trial's threads, not with --param"));
    const QStringList paths = cmd.positional();
    if (paths.size() < 3)
        return cmd.usageError(
            QStringLiteral("--param correlates across runs: give at least 3 runs, got %1").arg(paths.size()));
    for (const QString& p : paths)
        if (!cmd.checkOperand(p))
            return ExitUsage;
    const QString key = cmd.value(param);
    std::vector<ParameterRun> runs;
    for (const QString& path : paths) {
        QString error;
        ParameterRun run;
        run.trial = loadTrialOperand(path, cmd.value(a.db), cmd.value(a.format), &error);
        if (!run.trial)
            return failure(error);
        const auto value = runParameter(*run.trial, key, path, &error);
        if (!value)
            return failure(error);
        run.label = path;
        run.parameter = *value;
        runs.push_back(std::move(run));
    }
    ParameterCorrelationOptions options;
    const QStringList metrics = cmd.values(a.metric);
    if (metrics.size() > 1)
        return cmd.usageError(QStringLiteral("--param correlates one metric; give --metric once"));
    options.metric = metrics.value(0);
    options.value = cmd.isSet(inclusive) ? ValueType::Inclusive : ValueType::Exclusive;
    options.statistic = cmd.isSet(maximum) ? Statistic::Max : Statistic::MeanAll;
    options.events = cmd.values(event);
    options.callPaths = cmd.isSet(a.callPaths);
    const ParameterCorrelationResult result = correlateWithParameter(std::move(runs), options);
    if (!result.ok())
        return failure(result.error);
    const ParameterCorrelation& c = result.correlation;
    if (json) {
        QJsonArray runArray;
        for (const ParameterRun& run : c.runs)
            runArray.append(QJsonObject { { QStringLiteral("run"), run.label },
                { QStringLiteral("trial"), run.trial->name() }, { QStringLiteral("parameter"), run.parameter } });
        QJsonArray events;
        for (const EventParameterCorrelation& e : c.events)
            events.append(
                QJsonObject { { QStringLiteral("event"), e.event }, { QStringLiteral("values"), jsonArray(e.values) },
                    { QStringLiteral("runs"), e.runs }, { QStringLiteral("pearson"), jsonNumber(e.pearson) },
                    { QStringLiteral("spearman"), jsonNumber(e.spearman) } });
        const QJsonObject doc { { QStringLiteral("parameter"), key }, { QStringLiteral("metric"), c.metric },
            { QStringLiteral("value"), valueTypeName(c.value) },
            { QStringLiteral("statistic"), statisticName(c.statistic) }, { QStringLiteral("runs"), runArray },
            { QStringLiteral("events"), events } };
        printOut(QJsonDocument(doc).toJson(QJsonDocument::Indented));
        return ExitSuccess;
    }
    QString text;
    QTextStream out(&text);
    auto number = [](double v) { return std::isfinite(v) ? QString::number(v, 'f', 4) : QStringLiteral("-"); };
    out << QStringLiteral("%1 runs; correlation of the %2 %3 of %4 with %5")
               .arg(c.runs.size())
               .arg(statisticName(c.statistic), valueTypeName(c.value).toLower(), c.metric, key)
        << '\n'
        << QStringLiteral("%1 %2 %3  %4")
               .arg(QStringLiteral("Pearson"), 8)
               .arg(QStringLiteral("Spearman"), 8)
               .arg(QStringLiteral("Runs"), 4)
               .arg(QStringLiteral("Event"))
        << '\n';
    for (std::size_t i = 0; i < c.events.size() && static_cast<int>(i) < top; ++i) {
        const EventParameterCorrelation& e = c.events[i];
        out << QStringLiteral("%1 %2 %3  %4")
                   .arg(number(e.pearson), 8)
                   .arg(number(e.spearman), 8)
                   .arg(e.runs, 4)
                   .arg(e.event)
            << '\n';
    }
    out.flush();
    printOut(text);
    return ExitSuccess;
}

} // namespace

int runCorrelateCommand(const QStringList& args)
{
    Command cmd(QStringLiteral("correlate"), QStringLiteral("PATH"),
        QStringLiteral("Correlations across the threads of a trial (docs/SEMANTICS.md §11.6): Pearson and\n"
                       "Spearman (average ranks for ties) between the events' exclusive values, and of each\n"
                       "event with the thread's total (its largest inclusive value). Text: the events most\n"
                       "correlated with the total, and the strongest pairs."));
    MatrixArguments a;
    a.addTo(cmd, false);
    const auto top = cmd.add({ QStringLiteral("top") },
        QStringLiteral("Text: the events and pairs listed (default 10)."), QStringLiteral("N"));
    const auto param = cmd.add({ QStringLiteral("param") },
        QStringLiteral("Across runs instead: each event's mean value over a run's threads against this parameter of\n"
                       "the runs (a numeric metadata key, or 'threads' for the thread count); 3 or more PATHs."),
        QStringLiteral("KEY"));
    const auto event = cmd.add({ QStringLiteral("event") },
        QStringLiteral("With --param: only this event (repeatable; default every flat event)."),
        QStringLiteral("NAME"));
    const auto inclusive = cmd.add(
        { QStringLiteral("inclusive") }, QStringLiteral("With --param: inclusive values instead of exclusive."));
    const auto maximum = cmd.add({ QStringLiteral("max") },
        QStringLiteral("With --param: the slowest thread's value instead of the mean over threads."));
    const auto json = cmd.add(
        { QStringLiteral("json") }, QStringLiteral("Print both matrices and the correlations with the total as JSON."));
    cmd.addArgument(QStringLiteral("PATH"),
        QStringLiteral("A profile in any format Parallax reads, or db:ID (3 or more with --param)."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    const auto t = cmd.integer(top, 0, 1'000'000, 10);
    if (!t)
        return ExitUsage;
    if (cmd.isSet(param))
        return correlateRuns(cmd, a, param, event, inclusive, maximum, static_cast<int>(*t), cmd.isSet(json));
    if (cmd.isSet(event) || cmd.isSet(inclusive) || cmd.isSet(maximum))
        return cmd.usageError(QStringLiteral("--event, --inclusive and --max are for --param"));
    Loaded in;
    if (const auto stop = load(cmd, a, &in))
        return *stop;
    const Trial& trial = *in.trial;
    const ProfileMatrix& m = in.matrix;
    if (m.rows < 2)
        return failure(QStringLiteral("%1: one thread; a correlation across threads needs two or more")
                           .arg(cmd.positional().front()));
    if (cmd.isSet(a.matrix))
        if (const auto stop = writeMatrix(cmd.value(a.matrix), trial, m))
            return *stop;
    const CorrelationResult r = correlateColumns(trial, m);
    const std::size_t d = m.cols;
    if (cmd.isSet(json)) {
        QJsonArray pearson, spearman;
        for (std::size_t i = 0; i < d; ++i) {
            pearson.append(jsonArray({ r.pearson.begin() + static_cast<std::ptrdiff_t>(i * d),
                r.pearson.begin() + static_cast<std::ptrdiff_t>((i + 1) * d) }));
            spearman.append(jsonArray({ r.spearman.begin() + static_cast<std::ptrdiff_t>(i * d),
                r.spearman.begin() + static_cast<std::ptrdiff_t>((i + 1) * d) }));
        }
        const QJsonObject doc { { QStringLiteral("trial"), trial.name() },
            { QStringLiteral("threadCount"), static_cast<qint64>(m.rows) },
            { QStringLiteral("columns"), columnNames(trial, m) }, { QStringLiteral("pearson"), pearson },
            { QStringLiteral("spearman"), spearman }, { QStringLiteral("pearsonTotal"), jsonArray(r.pearsonTotal) },
            { QStringLiteral("spearmanTotal"), jsonArray(r.spearmanTotal) } };
        printOut(QJsonDocument(doc).toJson(QJsonDocument::Indented));
        return ExitSuccess;
    }
    QString text;
    QTextStream out(&text);
    auto number = [](double v) { return std::isfinite(v) ? QString::number(v, 'f', 4) : QStringLiteral("-"); };
    out << QStringLiteral("%1: %2 threads x %3 events; correlation with the thread's total")
               .arg(trial.name())
               .arg(m.rows)
               .arg(d)
        << '\n'
        << QStringLiteral("%1 %2  %3")
               .arg(QStringLiteral("Pearson"), 8)
               .arg(QStringLiteral("Spearman"), 8)
               .arg(QStringLiteral("Event"))
        << '\n';
    auto magnitude = [](double v) { return std::isfinite(v) ? std::fabs(v) : -1.0; };
    std::vector<std::size_t> order(d);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
        [&](std::size_t x, std::size_t y) { return magnitude(r.pearsonTotal[x]) > magnitude(r.pearsonTotal[y]); });
    for (std::size_t i = 0; i < std::min<std::size_t>(d, static_cast<std::size_t>(*t)); ++i)
        out << QStringLiteral("%1 %2  %3")
                   .arg(number(r.pearsonTotal[order[i]]), 8)
                   .arg(number(r.spearmanTotal[order[i]]), 8)
                   .arg(m.columnName(trial, order[i]))
            << '\n';
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    for (std::size_t i = 0; i < d; ++i)
        for (std::size_t j = i + 1; j < d; ++j)
            if (std::isfinite(r.pearson[i * d + j]))
                pairs.emplace_back(i, j);
    std::stable_sort(pairs.begin(), pairs.end(), [&](const auto& x, const auto& y) {
        return std::fabs(r.pearson[x.first * d + x.second]) > std::fabs(r.pearson[y.first * d + y.second]);
    });
    out << '\n' << QStringLiteral("Strongest pairs (Pearson, Spearman):") << '\n';
    for (std::size_t i = 0; i < std::min<std::size_t>(pairs.size(), static_cast<std::size_t>(*t)); ++i) {
        const auto [x, y] = pairs[i];
        out << QStringLiteral("%1 %2  %3  ~  %4")
                   .arg(number(r.pearson[x * d + y]), 8)
                   .arg(number(r.spearman[x * d + y]), 8)
                   .arg(m.columnName(trial, x), m.columnName(trial, y))
            << '\n';
    }
    out.flush();
    printOut(text);
    return ExitSuccess;
}

} // namespace parallax
