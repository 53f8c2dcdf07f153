// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Upload and load of a big trial through the experiment database, on SQLite (a temporary file) and,
// when a URI is given, on PostgreSQL. Prints one JSON object per step on stdout, the time of each
// upload/load stage on stderr, and checks that the loaded trial equals the uploaded one.
//   bench_perfdb [DIR] [POSTGRESQL_URI]     (DIR defaults to /tmp/parallax-bench-16384x101,
//                                            generated with parallax-cli synth when missing)
//   PARALLAX_BENCH_KEEP=FILE bench_perfdb ...   keeps the trial (SQLite in FILE) for profiling
//   bench_perfdb --load LOCATION ID             times one load
#include "datasource/readers/readerregistry.h"
#include "perfdb/database.h"
#include "tests/bench/benchutil.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <cstdio>

using namespace parallax;
using namespace parallax::bench;

namespace {

void print(const QJsonObject& object)
{
    std::printf("%s\n", QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

/// Exact comparison of the values that matter for the benchmark: every cell and user event.
QString compare(const Trial& a, const Trial& b)
{
    if (a.threadCount() != b.threadCount() || a.eventCount() != b.eventCount() || a.cellCount() != b.cellCount()
        || a.metricCount() != b.metricCount() || a.atomicEventCount() != b.atomicEventCount())
        return QStringLiteral("shape differs");
    for (std::size_t t = 0; t < a.threadCount(); ++t) {
        const RowView x = a.row(ThreadIndex(t));
        const RowView y = b.row(ThreadIndex(t));
        for (std::size_t i = 0; i < x.size(); ++i) {
            if (a.event(x.events[i]).name != b.event(y.events[i]).name || x.calls[i] != y.calls[i]
                || x.subrs[i] != y.subrs[i])
                return QStringLiteral("cell differs on thread %1").arg(t);
        }
        if (x.excl != y.excl || x.incl != y.incl)
            return QStringLiteral("values differ on thread %1").arg(t);
        const AtomicRow& u = a.atomicRow(ThreadIndex(t));
        const AtomicRow& v = b.atomicRow(ThreadIndex(t));
        if (u.count != v.count || u.max != v.max || u.min != v.min || u.mean != v.mean || u.sumSquares != v.sumSquares)
            return QStringLiteral("user events differ on thread %1").arg(t);
    }
    return {};
}

bool run(const QString& backend, const QString& location, const Trial& trial, qint64 rawBytes, const QString& file)
{
    QElapsedTimer timer;
    timer.start();
    auto opened = perfdb::Database::open(location);
    if (!opened.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(opened.error().toString()));
        return false;
    }
    const double openSeconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    qint64 id = 0;
    {
        auto& db = *opened.value();
        StageClock clock;
        Progress progress(clock.callback());
        perfdb::UploadOptions options;
        options.application = QStringLiteral("bench");
        options.experiment = QStringLiteral("perfdb");
        auto uploaded = db.uploadTrial(trial, options, progress);
        clock.stop();
        if (!uploaded.ok()) {
            std::fprintf(stderr, "%s\n", qPrintable(uploaded.error().toString()));
            return false;
        }
        id = uploaded.value();
        const perfdb::TransferStats stats = db.lastTransfer();
        print({ { QStringLiteral("backend"), backend }, { QStringLiteral("step"), QStringLiteral("upload") },
            { QStringLiteral("seconds"), stats.seconds }, { QStringLiteral("rows"), stats.rows },
            { QStringLiteral("rows_per_second"), static_cast<double>(stats.rows) / stats.seconds },
            { QStringLiteral("open_seconds"), openSeconds } });
    }
    opened.value().reset(); // closing checkpoints the SQLite WAL into the file
    if (!file.isEmpty()) {
        const qint64 bytes = QFileInfo(file).size();
        print({ { QStringLiteral("backend"), backend }, { QStringLiteral("step"), QStringLiteral("size") },
            { QStringLiteral("database_bytes"), bytes }, { QStringLiteral("raw_bytes"), rawBytes },
            { QStringLiteral("ratio"), static_cast<double>(bytes) / static_cast<double>(rawBytes) } });
    }
    opened = perfdb::Database::open(location);
    if (!opened.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(opened.error().toString()));
        return false;
    }
    auto& db = *opened.value();
    StageClock clock;
    Progress progress(clock.callback());
    auto loaded = db.loadTrial(id, progress);
    clock.stop();
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(loaded.error().toString()));
        return false;
    }
    const perfdb::TransferStats stats = db.lastTransfer();
    const QString difference = compare(trial, *loaded.value());
    print({ { QStringLiteral("backend"), backend }, { QStringLiteral("step"), QStringLiteral("load") },
        { QStringLiteral("seconds"), stats.seconds }, { QStringLiteral("rows"), stats.rows },
        { QStringLiteral("rows_per_second"), static_cast<double>(stats.rows) / stats.seconds },
        { QStringLiteral("identical"), difference.isEmpty() }, { QStringLiteral("difference"), difference } });
    if (qEnvironmentVariableIsSet("PARALLAX_BENCH_KEEP")) // keep the database (file name) for --load
        return difference.isEmpty();
    timer.restart();
    const auto deleted = db.deleteTrial(id);
    print({ { QStringLiteral("backend"), backend }, { QStringLiteral("step"), QStringLiteral("delete") },
        { QStringLiteral("seconds"), static_cast<double>(timer.nsecsElapsed()) / 1e9 },
        { QStringLiteral("ok"), deleted.ok() } });
    return difference.isEmpty() && deleted.ok();
}

} // namespace

namespace {

int benchMain(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() == 4 && args[1] == QLatin1String("--load")) {
        // Profiling aid: bench_perfdb --load LOCATION ID loads one stored trial and times it.
        auto opened = perfdb::Database::open(args[2]);
        if (!opened.ok())
            return 1;
        StageClock clock;
        Progress progress(clock.callback());
        auto loaded = opened.value()->loadTrial(args[3].toLongLong(), progress);
        clock.stop();
        print({ { QStringLiteral("step"), QStringLiteral("load") }, { QStringLiteral("ok"), loaded.ok() },
            { QStringLiteral("seconds"), opened.value()->lastTransfer().seconds } });
        return loaded.ok() ? 0 : 1;
    }
    const QString dir = args.size() > 1 ? args[1] : QStringLiteral("/tmp/parallax-bench-16384x101");
    const QString pg = args.size() > 2 ? args[2] : QString();
    if (!synthesizeUnlessPresent(QStringLiteral(PARALLAX_CLI), dir, overviewTrialArguments()))
        return 1;
    QElapsedTimer timer;
    timer.start();
    ReadOptions readOptions;
    Progress readProgress;
    auto read = ReaderRegistry::instance().read(dir, readOptions, readProgress);
    if (!read.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(read.error().toString()));
        return 1;
    }
    const Trial& trial = *read.value();
    const qint64 rawBytes = inputBytes(dir);
    print({ { QStringLiteral("data"), dir }, { QStringLiteral("threads"), static_cast<qint64>(trial.threadCount()) },
        { QStringLiteral("events"), static_cast<qint64>(trial.eventCount()) },
        { QStringLiteral("cells"), static_cast<qint64>(trial.cellCount()) }, { QStringLiteral("raw_bytes"), rawBytes },
        { QStringLiteral("read_seconds"), static_cast<double>(timer.nsecsElapsed()) / 1e9 } });

    bool ok = true;
    {
        QTemporaryDir temp;
        QString file = temp.filePath(QStringLiteral("bench.sqlite"));
        if (qEnvironmentVariableIsSet("PARALLAX_BENCH_KEEP"))
            file = qEnvironmentVariable("PARALLAX_BENCH_KEEP");
        ok = run(QStringLiteral("sqlite"), file, trial, rawBytes, file) && ok;
    }
    if (!pg.isEmpty())
        ok = run(QStringLiteral("postgresql"), pg, trial, rawBytes, QString()) && ok;
    return ok ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    // A database error the steps do not report as a value (DbException) ends the run with a message.
    try {
        return benchMain(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_perfdb: %s\n", e.what());
    } catch (...) {
        std::fprintf(stderr, "bench_perfdb: unknown exception\n");
    }
    return 1;
}
