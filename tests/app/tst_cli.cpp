// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The parallax-cli executable as a user runs it: exit codes, JSON, messages, the help of every
// command, option syntax (--opt=value, compacted pprof options), numbers and unknown options.
#include "app/cli/pprofreport.h"
#include "parallax_version.h"
#include "tests/common/clirunner.h"
#include "tests/common/testutil.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <cmath>

using namespace parallax::test;

namespace {

/// Every command and subcommand, as typed before --help.
const QList<QStringList> everyCommand = {
    { QStringLiteral("pprof") },
    { QStringLiteral("info") },
    { QStringLiteral("imbalance") },
    { QStringLiteral("browse") },
    { QStringLiteral("flame") },
    { QStringLiteral("source") },
    { QStringLiteral("advise") },
    { QStringLiteral("commmatrix") },
    { QStringLiteral("snapshots") },
    { QStringLiteral("history") },
    { QStringLiteral("cluster") },
    { QStringLiteral("correlate") },
    { QStringLiteral("model") },
    { QStringLiteral("synth") },
    { QStringLiteral("formats") },
    { QStringLiteral("db") },
    { QStringLiteral("diff") },
    { QStringLiteral("ratio") },
    { QStringLiteral("mean") },
    { QStringLiteral("min") },
    { QStringLiteral("max") },
    { QStringLiteral("stddev") },
    { QStringLiteral("merge") },
    { QStringLiteral("cut") },
    { QStringLiteral("select") },
    { QStringLiteral("derive") },
    { QStringLiteral("convert") },
    { QStringLiteral("semantic") },
    { QStringLiteral("db"), QStringLiteral("init") },
    { QStringLiteral("db"), QStringLiteral("load") },
    { QStringLiteral("db"), QStringLiteral("list") },
    { QStringLiteral("db"), QStringLiteral("rename") },
    { QStringLiteral("db"), QStringLiteral("delete") },
    { QStringLiteral("db"), QStringLiteral("meta") },
    { QStringLiteral("db"), QStringLiteral("export") },
    { QStringLiteral("db"), QStringLiteral("views") },
    { QStringLiteral("db"), QStringLiteral("semantic") },
    { QStringLiteral("db"), QStringLiteral("model") },
    { QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("save") },
    { QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("list") },
    { QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("show") },
    { QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("attach") },
    { QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("detach") },
    { QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("delete") },
};

/// The command names a help text lists under "Commands:" (the first word of each indented line).
QStringList listedCommands(const QByteArray& help)
{
    QStringList names;
    bool inList = false;
    for (const QByteArray& line : help.split('\n')) {
        if (line == "Commands:") {
            inList = true;
            continue;
        }
        if (inList && line.isEmpty())
            break;
        if (inList && line.startsWith("  ") && !line.startsWith("   "))
            names << QString::fromUtf8(line.trimmed().split(' ').first());
    }
    return names;
}

const QByteArray exitStatusLine = "Exit status: 0 success, 1 the work failed";

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void infoJson()
    {
        const CliRun r = runCli({ QStringLiteral("info"), QStringLiteral("--json"),
            dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")) });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QStringLiteral("format")).toString(), QStringLiteral("tau"));
        QCOMPARE(o.value(QStringLiteral("threads")).toInt(), 4);
        QCOMPARE(o.value(QStringLiteral("nodes")).toInt(), 4);
        QCOMPARE(o.value(QStringLiteral("metrics")).toArray(), QJsonArray { QStringLiteral("TIME") });
        QCOMPARE(o.value(QStringLiteral("events")).toInt(), 12);
        QCOMPARE(o.value(QStringLiteral("callpaths")).toInt(), 11);
        QCOMPARE(o.value(QStringLiteral("user_events")).toInt(), 2);
        QVERIFY(o.value(QStringLiteral("groups")).toArray().contains(QStringLiteral("MPI")));
        const QJsonObject top = o.value(QStringLiteral("top_exclusive")).toArray().first().toObject();
        QCOMPARE(top.value(QStringLiteral("name")).toString(), QStringLiteral("MPI_File_open()"));
        QCOMPARE(top.value(QStringLiteral("value")).toDouble(), 27118.5);
        QVERIFY(o.value(QStringLiteral("warnings")).toArray().isEmpty());
    }

    void infoPooledUserEvents()
    {
        // Each rank of the workflow sample repeats one "[GROUP=MIN/MAX_MARKER] ADIOS data size : ADIOS
        // group size" line: 8 cells pooled from 2 records, listed by --json and by the text output.
        const QString path = dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank"));
        CliRun r = runCli({ QStringLiteral("info"), QStringLiteral("--json"), path });
        QCOMPARE(r.exitCode, 0);
        const QJsonArray pooled
            = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("pooled_user_events")).toArray();
        QCOMPARE(pooled.size(), 8);
        QSet<QString> threads;
        for (const auto& v : pooled) {
            const QJsonObject cell = v.toObject();
            QCOMPARE(cell.value(QStringLiteral("pooled_records")).toInt(), 2);
            threads.insert(cell.value(QStringLiteral("thread")).toString());
        }
        QCOMPARE(threads.size(), 8);
        const QJsonObject rank1 = pooled.at(1).toObject();
        QCOMPARE(rank1.value(QStringLiteral("thread")).toString(), QStringLiteral("1,0,0"));
        QCOMPARE(rank1.value(QStringLiteral("event")).toString(),
            QStringLiteral("[GROUP=MIN_MARKER] ADIOS data size : ADIOS group size"));
        QCOMPARE(pooled.at(2).toObject().value(QStringLiteral("event")).toString(),
            QStringLiteral("[GROUP=MAX_MARKER] ADIOS data size : ADIOS group size"));
        r = runCli({ QStringLiteral("info"), path });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("Pooled user events: 8 cells"), r.out.constData());
        QVERIFY2(r.out.contains("  thread 1,0,0       2 records pooled  [GROUP=MIN_MARKER] ADIOS data size : ADIOS "
                                "group size\n"),
            r.out.constData());
        // A trial without duplicates has an empty list and no such section.
        r = runCli({ QStringLiteral("info"), QStringLiteral("--json"),
            dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")) });
        const QJsonValue none = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("pooled_user_events"));
        QVERIFY(none.isArray() && none.toArray().isEmpty());
        r = runCli({ QStringLiteral("info"), dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")) });
        QVERIFY(!r.out.contains("Pooled user events"));
    }

    void synthThenInfoAndPprof()
    {
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("synth"));
        CliRun r = runCli({ QStringLiteral("synth"), QStringLiteral("--threads"), QStringLiteral("8"),
            QStringLiteral("--events"), QStringLiteral("20"), QStringLiteral("--callpath-depth"), QStringLiteral("2"),
            QStringLiteral("--user-events"), QStringLiteral("3"), QStringLiteral("--seed"), QStringLiteral("7"), out });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli({ QStringLiteral("info"), QStringLiteral("--json"), out });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QStringLiteral("threads")).toInt(), 8);
        QCOMPARE(o.value(QStringLiteral("events")).toInt(), 20);
        QCOMPARE(o.value(QStringLiteral("callpaths")).toInt(), 19);
        QCOMPARE(o.value(QStringLiteral("user_events")).toInt(), 3);
        r = runCli({ QStringLiteral("pprof"), QStringLiteral("-s"), out });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("FUNCTION SUMMARY (mean):"));
        QVERIFY(r.out.contains(".TAU application"));
        // Writing into a directory that is not empty is refused.
        r = runCli({ QStringLiteral("synth"), QStringLiteral("--threads"), QStringLiteral("1"),
            QStringLiteral("--events"), QStringLiteral("2"), out });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("not empty"));
    }

    void errors()
    {
        QTemporaryDir empty;
        CliRun r = runCli({ QStringLiteral("info"), empty.path() });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("empty"), r.err.constData());
        r = runCli({ QStringLiteral("pprof"), QStringLiteral("-h") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("Usage: parallax-cli pprof [options] [DIR] [node numbers...]\n"));
        r = runCli({ QStringLiteral("frobnicate") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("unknown command 'frobnicate'"), r.err.constData());
        r = runCli({ QStringLiteral("pprof"), QStringLiteral("--metric"), QStringLiteral("NOPE"),
            dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")) });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("no metric 'NOPE'"));
    }

    void databaseCommands_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::newRow("sqlite") << QStringLiteral("sqlite");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
    }

    /// The README's database walk-through, as a user types it, on both backends.
    void databaseCommands()
    {
        QFETCH(QString, backend);
        QTemporaryDir tmp;
        QString db = tmp.filePath(QStringLiteral("perf.sqlite"));
        if (backend == QLatin1String("postgresql")) {
            db = qEnvironmentVariable("PARALLAX_TEST_PG_URI");
            if (db.isEmpty())
                QFAIL("PARALLAX_TEST_PG_URI is not set: run ./test.sh, which starts a PostgreSQL server");
        }
        const QString cpi = dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"));
        CliRun r = runCli({ QStringLiteral("db"), QStringLiteral("init"), QStringLiteral("--db"), db });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString app = QStringLiteral("cli-test-%1").arg(QCoreApplication::applicationPid());
        r = runCli({ QStringLiteral("db"), QStringLiteral("load"), QStringLiteral("--db"), db, QStringLiteral("--app"),
            app, QStringLiteral("--exp"), QStringLiteral("scaling"), QStringLiteral("--name"),
            QStringLiteral("4 ranks; 'quoted'"), cpi });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("as trial "));
        r = runCli({ QStringLiteral("db"), QStringLiteral("list"), QStringLiteral("--db"), db, QStringLiteral("--app"),
            app, QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonArray trials = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(trials.size(), 1);
        const QJsonObject t = trials.first().toObject();
        QCOMPARE(t.value(QStringLiteral("name")).toString(), QStringLiteral("4 ranks; 'quoted'"));
        QCOMPARE(t.value(QStringLiteral("experiment")).toString(), QStringLiteral("scaling"));
        QCOMPARE(t.value(QStringLiteral("threads")).toInt(), 4);
        const QString id = QString::number(t.value(QStringLiteral("id")).toInteger());
        // pprof of the stored trial prints exactly what pprof of the directory prints.
        const CliRun fromDir = runCli({ QStringLiteral("pprof"), cpi });
        r = runCli({ QStringLiteral("pprof"), QStringLiteral("--db"), db, QStringLiteral("--id"), id });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, fromDir.out);
        r = runCli({ QStringLiteral("info"), QStringLiteral("--json"), QStringLiteral("--db"), db,
            QStringLiteral("--id"), id });
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("callpaths")).toInt(), 11);
        const QString out = tmp.filePath(QStringLiteral("export"));
        r = runCli({ QStringLiteral("db"), QStringLiteral("export"), QStringLiteral("--db"), db, QStringLiteral("--id"),
            id, out });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(runCli({ QStringLiteral("pprof"), out }).out, fromDir.out);
        // The same trial as a ParaProf packed profile (chosen by the suffix) reads back the same.
        const QString ppk = tmp.filePath(QStringLiteral("export.ppk"));
        r = runCli({ QStringLiteral("db"), QStringLiteral("export"), QStringLiteral("--db"), db, QStringLiteral("--id"),
            id, ppk });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("(ppk)"));
        QCOMPARE(runCli({ QStringLiteral("pprof"), ppk }).out, fromDir.out);
        r = runCli({ QStringLiteral("db"), QStringLiteral("export"), QStringLiteral("--db"), db, QStringLiteral("--id"),
            id, QStringLiteral("--format"), QStringLiteral("nope"), tmp.filePath(QStringLiteral("x")) });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("'nope'") && r.err.contains("Parallax writes tau, ppk"), r.err.constData());
        r = runCli({ QStringLiteral("db"), QStringLiteral("meta"), QStringLiteral("--db"), db, QStringLiteral("--id"),
            id, QStringLiteral("Compiler"), QStringLiteral("gcc 12") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli(
            { QStringLiteral("db"), QStringLiteral("list"), QStringLiteral("--db"), db, QStringLiteral("--where"),
                QStringLiteral("Compiler=gcc 12"), QStringLiteral("--app"), app, QStringLiteral("--json") });
        QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 1);
        r = runCli({ QStringLiteral("db"), QStringLiteral("rename"), QStringLiteral("--db"), db, QStringLiteral("--id"),
            id, QStringLiteral("renamed") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli(
            { QStringLiteral("db"), QStringLiteral("delete"), QStringLiteral("--db"), db, QStringLiteral("--id"), id });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli({ QStringLiteral("db"), QStringLiteral("list"), QStringLiteral("--db"), db, QStringLiteral("--app"),
            app, QStringLiteral("--json") });
        QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 0);
        // Errors: a missing trial, a missing option.
        r = runCli(
            { QStringLiteral("pprof"), QStringLiteral("--db"), db, QStringLiteral("--id"), QStringLiteral("999999") });
        QCOMPARE(r.exitCode, 1);
        r = runCli({ QStringLiteral("db"), QStringLiteral("load"), QStringLiteral("--db"), db, cpi });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--app and --exp"));
    }

    /// SEAA semantic models in the database (SQLite): save (checked first), list, attach, and the
    /// semantic profile of a stored trial.
    void semanticModelCommands()
    {
        QTemporaryDir tmp;
        const QString db = tmp.filePath(QStringLiteral("semantic.sqlite"));
        const QString model = tmp.filePath(QStringLiteral("dgemm.json"));
        const QByteArray json = R"({
  "format": "parallax-semantic-model", "version": 1, "name": "dgemm sizes", "source": "flat",
  "entities": [{"id": "blas", "kind": "library", "name": "BLAS calls"}, {"id": "mpi", "kind": "layer", "name": "MPI"}],
  "associations": [
    {"id": "sizes", "select": {"regex": ".*__wrap_dgemm.*<size> = <(\\d+)>.*"},
     "target": {"template": {"id": "dgemm:{1}", "kind": "size", "name": "dgemm n={1}", "parent": "blas"}},
     "policy": "DIRECT"},
    {"id": "mpi", "select": {"group": "MPI"}, "target": "mpi", "policy": "DIRECT"}
  ]
}
)";
        writeText(model, json);
        const QString bad = tmp.filePath(QStringLiteral("bad.json"));
        writeText(bad, QByteArray(json).replace(R"("name": "MPI"})", R"("name": "MPI", "parent": "nowhere"})"));
        CliRun r = runCli({ QStringLiteral("db"), QStringLiteral("load"), QStringLiteral("--db"), db,
            QStringLiteral("--app"), QStringLiteral("a"), QStringLiteral("--exp"), QStringLiteral("e"),
            dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")) });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("as trial 1 "));
        // An invalid model is refused before it is stored; the message names the file and line.
        r = runCli(
            { QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("save"), QStringLiteral("--db"), db, bad });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("bad.json:3") && r.err.contains("nowhere"), r.err.constData());
        r = runCli({ QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("save"), QStringLiteral("--db"), db,
            model, QStringLiteral("--comment"), QStringLiteral("first") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("\"dgemm sizes\" version 1 (id 1)"), r.out.constData());
        r = runCli({ QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("save"), QStringLiteral("--db"), db,
            model, QStringLiteral("--name"), QStringLiteral("dgemm sizes") });
        QVERIFY2(r.out.contains("\"dgemm sizes\" version 2 (id 2)"), r.out.constData());
        r = runCli({ QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("attach"), QStringLiteral("--db"),
            db, QStringLiteral("1"), QStringLiteral("dgemm sizes@1") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli({ QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("list"), QStringLiteral("--db"), db,
            QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonArray models = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(models.size(), 2);
        QCOMPARE(models[0].toObject().value(QStringLiteral("version")).toInt(), 1);
        QCOMPARE(models[0].toObject().value(QStringLiteral("comment")).toString(), QStringLiteral("first"));
        QCOMPARE(models[0].toObject().value(QStringLiteral("attached_trials")).toInt(), 1);
        QCOMPARE(models[1].toObject().value(QStringLiteral("attached_trials")).toInt(), 0);
        r = runCli({ QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("show"), QStringLiteral("--db"), db,
            QStringLiteral("dgemm sizes") });
        QCOMPARE(r.out, json);
        // The stored trial's semantic profile with its attached model: MPI's mean over the two
        // ranks is (1047345 + 2256 + 1046279 + 2530) / 2 µs; dgemm n=100 is (28 + 40) / 2.
        r = runCli({ QStringLiteral("db"), QStringLiteral("semantic"), QStringLiteral("--db"), db, QStringLiteral("1"),
            QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonArray profiles = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(profiles.size(), 1);
        QCOMPARE(
            profiles[0].toObject().value(QStringLiteral("model")).toObject().value(QStringLiteral("version")).toInt(),
            1);
        QMap<QString, double> roll;
        const QJsonArray entities = profiles[0]
                                        .toObject()
                                        .value(QStringLiteral("profile"))
                                        .toObject()
                                        .value(QStringLiteral("entities"))
                                        .toArray();
        for (const auto& e : entities)
            roll.insert(e.toObject().value(QStringLiteral("id")).toString(),
                e.toObject().value(QStringLiteral("roll")).toDouble());
        QCOMPARE(roll.value(QStringLiteral("mpi")), 1049205.0);
        QCOMPARE(roll.value(QStringLiteral("dgemm:100")), 34.0);
        QCOMPARE(roll.value(QStringLiteral("blas")), (28.0 + 18 + 12 + 40 + 12 + 12) / 2);
        // As text: the report `parallax-cli semantic` prints for the profile directory itself.
        r = runCli(
            { QStringLiteral("db"), QStringLiteral("semantic"), QStringLiteral("--db"), db, QStringLiteral("1") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.startsWith("trial 1, semantic model \"dgemm sizes\" version 1 (id 1)\n"), r.out.constData());
        const CliRun fromDisk
            = runCli({ QStringLiteral("semantic"), model, dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")) });
        QVERIFY2(fromDisk.exitCode == 0, fromDisk.err.constData());
        QCOMPARE(r.out.mid(r.out.indexOf('\n') + 1), fromDisk.out);
        // An attached model is not deleted without --force.
        r = runCli({ QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("delete"), QStringLiteral("--db"),
            db, QStringLiteral("1") });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("attached to trial 1"), r.err.constData());
        r = runCli({ QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("delete"), QStringLiteral("--db"),
            db, QStringLiteral("1"), QStringLiteral("--force") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli(
            { QStringLiteral("db"), QStringLiteral("semantic"), QStringLiteral("--db"), db, QStringLiteral("1") });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no semantic model attached"), r.err.constData());
        // Named on the command line instead of attached.
        r = runCli({ QStringLiteral("db"), QStringLiteral("semantic"), QStringLiteral("--db"), db, QStringLiteral("1"),
            QStringLiteral("dgemm sizes") });
        QVERIFY2(r.exitCode == 0 && r.out.contains("version 2"), r.err.constData());
    }

    void semanticCommand()
    {
        const QString workflow = dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank"));
        const QString model = QStringLiteral(PARALLAX_SOURCE_DIR "/tests/data/semantic/workflow-io.json");
        // JSON: per entity, and the whole run conserved (Σ roots = Σ flat exclusive).
        CliRun r = runCli(
            { QStringLiteral("semantic"), model, workflow, QStringLiteral("--json"), QStringLiteral("--total") });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QStringLiteral("model")).toString(), QStringLiteral("workflow: communication and output"));
        QCOMPARE(o.value(QStringLiteral("threads")).toInt(), 8);
        QVERIFY(o.value(QStringLiteral("conservation_error")).toDouble() < 1e-12);
        QHash<QString, QJsonObject> entities;
        for (const auto& v : o.value(QStringLiteral("entities")).toArray())
            entities.insert(v.toObject().value(QStringLiteral("id")).toString(), v.toObject());
        QVERIFY(entities.contains(QStringLiteral("adios:close")));
        QCOMPARE(entities.value(QStringLiteral("adios:close")).value(QStringLiteral("parent")).toString(),
            QStringLiteral("output"));
        QCOMPARE(entities.value(QStringLiteral("adios:close")).value(QStringLiteral("classification")).toString(),
            QStringLiteral("one-to-one"));
        QCOMPARE(entities.value(QStringLiteral("comm")).value(QStringLiteral("classification")).toString(),
            QStringLiteral("many-to-one"));
        const double total = o.value(QStringLiteral("total")).toDouble();
        const double parts = entities.value(QStringLiteral("comm")).value(QStringLiteral("roll")).toDouble()
            + entities.value(QStringLiteral("output")).value(QStringLiteral("roll")).toDouble()
            + entities.value(QStringLiteral("app")).value(QStringLiteral("roll")).toDouble()
            + entities.value(QStringLiteral("(unmapped)")).value(QStringLiteral("roll")).toDouble();
        QVERIFY(std::abs(parts - total) <= 1e-9 * total);
        QCOMPARE(entities.value(QStringLiteral("(unmapped)")).value(QStringLiteral("roll")).toDouble(), 0.0);
        // The table, for one thread, with a built-in model; --save-model writes it as a file that
        // loads back.
        QTemporaryDir dir;
        const QString saved = dir.filePath(QStringLiteral("layer.json"));
        r = runCli({ QStringLiteral("semantic"), QStringLiteral("builtin:layer"), workflow, QStringLiteral("--thread"),
            QStringLiteral("0,0,0"), QStringLiteral("--save-model"), saved });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("through 'By software layer'") && r.out.contains("thread 0,0,0"), r.out.constData());
        QVERIFY2(r.out.contains("MPI") && r.out.contains("I/O") && r.out.contains("User code"), r.out.constData());
        QVERIFY2(r.out.contains("conservation holds"), r.out.constData());
        r = runCli(
            { QStringLiteral("semantic"), saved, workflow, QStringLiteral("--thread"), QStringLiteral("0,0,0") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("MPI"));
        // A semantic comparison of a run with itself is zero everywhere.
        r = runCli({ QStringLiteral("semantic"), model, workflow, workflow, QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonArray rows = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("rows")).toArray();
        QVERIFY(rows.size() >= 4);
        for (const auto& v : rows)
            QCOMPARE(v.toObject().value(QStringLiteral("diff")).toDouble(), 0.0);
        // Errors: a bad model names its file and line; an unknown built-in lists the built-ins.
        r = runCli({ QStringLiteral("semantic"),
            QStringLiteral(PARALLAX_SOURCE_DIR "/tests/data/semantic/bad-duplicate.json"), workflow });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("bad-duplicate.json:7: entities[1].id: duplicate entity id 'comm'"), r.err.constData());
        r = runCli({ QStringLiteral("semantic"), QStringLiteral("builtin:stack"), workflow });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("group, layer, phase, parameter, file"), r.err.constData());
        r = runCli({ QStringLiteral("semantic"), model });
        QCOMPARE(r.exitCode, 2);
    }

    // Issue 14: `semantic` and `imbalance` print the GUI's number format: time in ms (the header
    // says so), one decimals count per column chosen so that the smallest value keeps 2 significant
    // digits (the sampled trial's group means go far below a microsecond), no exponent notation;
    // the JSON keeps the full numbers in µs and is the oracle.
    void semanticAndImbalanceNumberFormat()
    {
        const QString sampled = dataPath(QStringLiteral("tau2/ppk/matmult-heatmap.ppk"));
        CliRun json = runCli(
            { QStringLiteral("semantic"), QStringLiteral("builtin:group"), sampled, QStringLiteral("--json") });
        QVERIFY2(json.exitCode == 0, json.err.constData());
        CliRun text = runCli({ QStringLiteral("semantic"), QStringLiteral("builtin:group"), sampled });
        QVERIFY2(text.exitCode == 0, text.err.constData());
        const QString out = QString::fromUtf8(text.out);
        QVERIFY2(out.contains(QStringLiteral("metric TIME (ms)")), text.out.constData());
        QVERIFY2(!out.contains(QStringLiteral("[us]")) && !out.contains(QStringLiteral("e-0"))
                && !out.contains(QStringLiteral("e+")),
            text.out.constData());
        const QStringList lines = out.split(QLatin1Char('\n'));
        int checked = 0;
        int decimals = -1;
        double smallest = 0;
        for (const auto& v : QJsonDocument::fromJson(json.out).object().value(QStringLiteral("entities")).toArray()) {
            const QJsonObject e = v.toObject();
            const double roll = e.value(QStringLiteral("roll")).toDouble() / 1e3; // ms
            const QString name = e.value(QStringLiteral("name")).toString();
            if (!(roll > 1e-5) || name.isEmpty())
                continue;
            for (const QString& line : lines) {
                if (!line.trimmed().startsWith(name + QStringLiteral("  ")))
                    continue;
                // The value is the first number after the name and the kind.
                const QStringList tokens = line.trimmed().mid(name.size()).split(QLatin1Char(' '), Qt::SkipEmptyParts);
                for (QString token : tokens) {
                    token.remove(QLatin1Char(',')).remove(QStringLiteral("≈"));
                    bool ok = false;
                    const double shown = token.toDouble(&ok);
                    if (!ok)
                        continue;
                    QVERIFY2(std::abs(shown - roll) <= 0.05 * roll,
                        qPrintable(line + QStringLiteral(" vs ") + QString::number(roll)));
                    const int d = token.contains(QLatin1Char('.'))
                        ? int(token.size() - token.indexOf(QLatin1Char('.')) - 1)
                        : 0;
                    QVERIFY2(decimals < 0 || d == decimals, qPrintable(line));
                    decimals = d;
                    smallest = smallest == 0 ? roll : std::min(smallest, roll);
                    ++checked;
                    break;
                }
                break;
            }
        }
        QVERIFY2(checked >= 3, text.out.constData());
        // TAU_DEFAULT's 4.458 µs: three decimals in ms would leave one significant digit (0.004).
        QVERIFY2(smallest < 0.005 && decimals > 3, qPrintable(QString::number(smallest)));
        // A semantic comparison of a run with itself: Δ% "0.0 %" (never "-0.0 %"), unit named.
        text = runCli({ QStringLiteral("semantic"), QStringLiteral("builtin:group"), sampled, sampled });
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QVERIFY2(text.out.contains("metric TIME (ms)") && text.out.contains("0.0 %") && !text.out.contains("-0.0 %"),
            text.out.constData());

        // imbalance: the mean column in ms against the JSON's µs.
        json = runCli({ QStringLiteral("imbalance"), sampled, QStringLiteral("--json") });
        QVERIFY2(json.exitCode == 0, json.err.constData());
        text = runCli({ QStringLiteral("imbalance"), sampled });
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QVERIFY2(text.out.contains("exclusive TIME (ms)"), text.out.constData());
        const QStringList rows = QString::fromUtf8(text.out).split(QLatin1Char('\n'));
        const QJsonArray events = QJsonDocument::fromJson(json.out).object().value(QStringLiteral("events")).toArray();
        QVERIFY(events.size() >= 3);
        for (qsizetype i = 0; i < events.size() && i + 2 < rows.size(); ++i) {
            const double mean = events[i].toObject().value(QStringLiteral("mean")).toDouble() / 1e3;
            QString first = rows[i + 2].trimmed().section(QLatin1Char(' '), 0, 0);
            first.remove(QLatin1Char(','));
            if (mean > 1e-5)
                QVERIFY2(std::abs(first.toDouble() - mean) <= 0.05 * mean, qPrintable(rows[i + 2]));
        }
    }

    // Issue 14: `info` prints the GUI's units and number format: counters with SI prefixes, time in
    // ms with three decimals, singular and plural right, no exponent notation.
    void infoNumberFormat()
    {
        CliRun r = runCli({ QStringLiteral("info"), dataPath(QStringLiteral("tau2/ppk/xgc-5metrics-16rank.ppk")) });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("Threads:      16 on 16 nodes"), r.out.constData());
        QVERIFY2(r.out.contains("Top events by mean exclusive PAPI_FP_INS:"), r.out.constData());
        // XGC2's mean exclusive PAPI_FP_INS, 318,732,314,647.06, with its prefix.
        QVERIFY2(
            QRegularExpression(QStringLiteral("\\n\\s+318\\.7 G  XGC2 ")).match(QString::fromUtf8(r.out)).hasMatch(),
            r.out.constData());
        QVERIFY(!r.out.contains("e+"));
        r = runCli({ QStringLiteral("info"), dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")) });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("Top events by mean exclusive TIME (ms):"), r.out.constData());
        // MPI_File_open(): mean exclusive 27,118.5 µs (docs/SEMANTICS.md's example) in ms.
        QVERIFY2(r.out.contains("27.119  MPI_File_open()"), r.out.constData());
        QVERIFY(!r.out.contains("(s)"));
    }

    // Issue 14: the verdict of `diff` (speed-up, its definition, noise) against an independent
    // computation: /usr/bin/python3 reads the per-rank main inclusive times that MANIFEST.md states
    // for the DrawGraph scaling runs, and the RAJAPerf repetitions' times, and computes the means,
    // standard errors and the speed-up itself.
    void diffVerdict()
    {
        const QString two = dataPath(QStringLiteral("tau2/ppk-drawgraph-scaling/2.ppk"));
        const QString four = dataPath(QStringLiteral("tau2/ppk-drawgraph-scaling/4.ppk"));
        const QString manifest = dataPath(QStringLiteral("tau2/MANIFEST.md"));
        QProcess python;
        python.start(QStringLiteral("/usr/bin/python3"),
            { QStringLiteral("-c"), QStringLiteral(R"(
import json, math, re, statistics, sys
rows = {}
for line in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r"\|\s*(\d+)\.ppk\s*\|\s*\d+\s*\|\s*([\d, ]+)\|", line)
    if m:
        rows[m.group(1)] = [float(x) for x in m.group(2).split(",")]
a, b = rows["2"], rows["4"]
se = lambda xs: statistics.stdev(xs) / math.sqrt(len(xs))
ma, mb = statistics.mean(a), statistics.mean(b)
print(json.dumps({"t_a": ma, "t_b": mb, "se_a": se(a), "se_b": se(b), "speed_up": ma / mb,
                  "noise": 2 * math.sqrt(se(a) ** 2 + se(b) ** 2)}))
)"),
                manifest });
        QVERIFY(python.waitForFinished(30000));
        QCOMPARE(python.exitCode(), 0);
        const QJsonObject oracle = QJsonDocument::fromJson(python.readAllStandardOutput()).object();
        QVERIFY2(oracle.value(QStringLiteral("t_a")).toDouble() > 2e6, "the manifest's table was not found");

        CliRun r = runCli({ QStringLiteral("diff"), QStringLiteral("--json"), two, four });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        const QJsonObject v = doc.value(QStringLiteral("verdict")).toObject();
        QVERIFY2(!v.isEmpty(), r.out.constData());
        // The manifest rounds to whole microseconds.
        for (const char* key : { "t_a", "t_b", "se_a", "se_b", "noise" })
            QVERIFY2(
                std::abs(v.value(QLatin1String(key)).toDouble() - oracle.value(QLatin1String(key)).toDouble()) < 1.0,
                key);
        QVERIFY(std::abs(v.value(QStringLiteral("speed_up")).toDouble()
                    - oracle.value(QStringLiteral("speed_up")).toDouble())
            < 1e-6);
        QCOMPARE(v.value(QStringLiteral("event")).toString(),
            QStringLiteral("int main(int, char **) C [{ring.c} {46,1}-{56,1}]"));
        QCOMPARE(v.value(QStringLiteral("noise_source")).toString(), QStringLiteral("threads"));
        // 2 ranks: 2,147.778 ms, 4 ranks: 2,052.445 ms; S = 1.046, far above the ranks' spread.
        QVERIFY(v.value(QStringLiteral("exceeds_noise")).toBool());
        QVERIFY(v.value(QStringLiteral("text")).toString().startsWith(QStringLiteral("B is 1.05× faster than A")));
        // The rows keep full precision (not the text format).
        const QJsonArray rows = doc.value(QStringLiteral("rows")).toArray();
        QVERIFY(!rows.isEmpty());
        bool fractional = false;
        for (const auto& row : rows)
            fractional |= std::fmod(row.toObject().value(QStringLiteral("a")).toDouble(), 1.0) != 0;
        QVERIFY(fractional);

        // The text: the verdict first, with its definition, numbers in ms with 3 decimals.
        r = runCli({ QStringLiteral("diff"), two, four });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString text = QString::fromUtf8(r.out);
        QVERIFY2(text.startsWith(QStringLiteral("Verdict: B is 1.05× faster than A: the difference 95.332 ms exceeds "
                                                "the run-to-run noise")),
            r.out.constData());
        QVERIFY2(text.contains(QStringLiteral("T = total inclusive Time of the top-level event")), r.out.constData());
        QVERIFY2(text.contains(QStringLiteral("mean over threads")), r.out.constData());
        QVERIFY2(
            text.contains(QStringLiteral("Time (ms): exclusive, mean over the result's 4 threads")), r.out.constData());
        QVERIFY(!text.contains(QLatin1Char('e') + QLatin1Char('+')));
        QVERIFY(!text.contains(QStringLiteral("-0.0 %")));
        // Δ% with its sign, as the GUI writes it.
        QVERIFY(QRegularExpression(QStringLiteral("[+-]\\d+\\.\\d %")).match(text).hasMatch());

        // RAJAPerf: four repetitions of one configuration. Runs 1 and 2 against 3 and 4 differ by
        // less than the spread between the repetitions: "within noise".
        const QString raja
            = dataPath(QStringLiteral("thicket/rajaperf/quartz/gcc10.3.1_1048576/O3/%1/Base_Seq-default.cali"));
        r = runCli({ QStringLiteral("diff"), QStringLiteral("--json"), raja.arg(1), raja.arg(3),
            QStringLiteral("--runs-a"), raja.arg(2), QStringLiteral("--runs-b"), raja.arg(4) });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject rv = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("verdict")).toObject();
        // The oracle: the repetitions' RAJAPerf times as the thicket MANIFEST.md states them.
        QProcess rajaPython;
        rajaPython.start(QStringLiteral("/usr/bin/python3"),
            { QStringLiteral("-c"), QStringLiteral(R"(
import json, math, re, statistics, sys
text = open(sys.argv[1], encoding="utf-8").read()
reps = [float(x) for x in re.search(r"Avg time/rank per rep = ([\d., ]+?) ⇒", text).group(1).split(",")]
a, b = reps[0:2], reps[2:4]
se = lambda xs: statistics.stdev(xs) / math.sqrt(len(xs))
ma, mb = statistics.mean(a), statistics.mean(b)
print(json.dumps({"t_a": ma, "t_b": mb, "speed_up": ma / mb, "noise": 2 * math.sqrt(se(a) ** 2 + se(b) ** 2)}))
)"),
                dataPath(QStringLiteral("thicket/MANIFEST.md")) });
        QVERIFY(rajaPython.waitForFinished(30000));
        QCOMPARE(rajaPython.exitCode(), 0);
        const QJsonObject rajaOracle = QJsonDocument::fromJson(rajaPython.readAllStandardOutput()).object();
        QVERIFY(rajaOracle.value(QStringLiteral("t_a")).toDouble() > 90);
        for (const char* key : { "t_a", "t_b", "speed_up", "noise" })
            QVERIFY2(std::abs(rv.value(QLatin1String(key)).toDouble() - rajaOracle.value(QLatin1String(key)).toDouble())
                    < 1e-5,
                key);
        QCOMPARE(rv.value(QStringLiteral("event")).toString(), QStringLiteral("RAJAPerf"));
        QCOMPARE(rv.value(QStringLiteral("runs_a")).toInt(), 2);
        QCOMPARE(rv.value(QStringLiteral("runs_b")).toInt(), 2);
        QCOMPARE(rv.value(QStringLiteral("noise_source")).toString(), QStringLiteral("runs"));
        QVERIFY2(!rv.value(QStringLiteral("exceeds_noise")).toBool(), r.out.constData());
        QVERIFY2(
            rv.value(QStringLiteral("text")).toString().contains(QStringLiteral("within noise")), r.out.constData());
        // The same pair without the repetitions: one thread per run, so the noise is unknown.
        r = runCli({ QStringLiteral("diff"), raja.arg(1), raja.arg(3) });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("noise unknown"), r.out.constData());
    }

    void algebraCommands()
    {
        QTemporaryDir tmp;
        const QString ring2 = dataPath(QStringLiteral("tau2/ppk/ring-2rank.ppk"));
        const QString ring8 = dataPath(QStringLiteral("tau2/ppk/ring-8rank.ppk"));
        const auto a = mustLoad(ring2);
        const auto b = mustLoad(ring8);
        QVERIFY(a && b);
        auto total = [](const parallax::Trial& t, const QString& event) {
            double sum = 0;
            for (std::size_t i = 0; i < t.threadCount(); ++i)
                sum += exclOf(t, static_cast<int>(t.threadKey(parallax::ThreadIndex(i)).node), event);
            return sum;
        };
        const QString init = QStringLiteral("MPI_Init()");

        // 2 ranks against 8, collapsed into one thread: the totals' difference, written as ppk.
        const QString collapsed = tmp.filePath(QStringLiteral("collapsed.ppk"));
        CliRun r = runCli({ QStringLiteral("diff"), QStringLiteral("--threads"), QStringLiteral("collapse-all"), ring2,
            ring8, QStringLiteral("-o"), collapsed });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // Issue 14: singular and plural right, and the sign convention in words.
        QVERIFY2(r.out.contains("1 thread, 10 events, 1 metric"), r.out.constData());
        QVERIFY2(r.out.contains("Δ = A − B, positive = B faster"), r.out.constData());
        QVERIFY(!r.out.contains("SEMANTICS.md"));
        const auto d = mustLoad(collapsed);
        QVERIFY(d);
        QCOMPARE(d->threadCount(), std::size_t(1));
        QCOMPARE(exclOf(*d, 0, init), total(*a, init) - total(*b, init));

        // Without a collapse the 2 ranks are a subset of the 8: the union by key, 8 threads, and
        // ranks 2..7 count as 0 on the left.
        const QString bykey = tmp.filePath(QStringLiteral("bykey"));
        r = runCli({ QStringLiteral("diff"), ring2, ring8, QStringLiteral("-o"), bykey, QStringLiteral("--top"),
            QStringLiteral("0") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto k = mustLoad(bykey);
        QVERIFY(k);
        QCOMPARE(k->threadCount(), std::size_t(8));
        QCOMPARE(exclOf(*k, 1, init), exclOf(*a, 1, init) - exclOf(*b, 1, init));
        QCOMPARE(exclOf(*k, 5, init), -exclOf(*b, 5, init));

        // diff(X, X) is all zeros.
        const QString zero = tmp.filePath(QStringLiteral("zero.ppk"));
        r = runCli({ QStringLiteral("diff"), ring8, ring8, QStringLiteral("-o"), zero });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto z = mustLoad(zero);
        QVERIFY(z);
        for (std::size_t t = 0; t < z->threadCount(); ++t)
            for (double v : z->row(parallax::ThreadIndex(t)).excl)
                QCOMPARE(v, 0.0);

        // Operands and results in the database: db:ID in, -o db: out, the same numbers.
        const QString db = tmp.filePath(QStringLiteral("algebra.sqlite"));
        r = runCli({ QStringLiteral("db"), QStringLiteral("load"), QStringLiteral("--db"), db, QStringLiteral("--app"),
            QStringLiteral("ring"), QStringLiteral("--exp"), QStringLiteral("scaling"), ring2, ring8 });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli({ QStringLiteral("diff"), QStringLiteral("--db"), db, QStringLiteral("--threads"),
            QStringLiteral("collapse-all"), QStringLiteral("db:1"), QStringLiteral("db:2"), QStringLiteral("-o"),
            QStringLiteral("db:") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("stored as trial 3"), r.out.constData());
        QCOMPARE(
            runCli({ QStringLiteral("pprof"), QStringLiteral("--db"), db, QStringLiteral("--id"), QStringLiteral("3") })
                .out,
            runCli({ QStringLiteral("pprof"), collapsed }).out);

        // derive: a new metric in the same trial, cell by cell.
        const QString xgc = dataPath(QStringLiteral("tau2/ppk/xgc-5metrics-16rank.ppk"));
        const QString derived = tmp.filePath(QStringLiteral("derived.ppk"));
        r = runCli({ QStringLiteral("derive"), QStringLiteral("IPC = \"PAPI_TOT_INS\" / \"PAPI_TOT_CYC\""), xgc,
            QStringLiteral("-o"), derived });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto x = mustLoad(xgc);
        const auto y = mustLoad(derived);
        QVERIFY(x && y);
        QCOMPARE(y->metricCount(), x->metricCount() + 1);
        QCOMPARE(y->metric(parallax::MetricId(x->metricCount())).name, QStringLiteral("IPC"));
        const QString event = x->event(x->row(parallax::ThreadIndex(3u)).events[0]).name;
        QCOMPARE(exclOf(*y, 3, event, x->metricCount()), exclOf(*x, 3, event, 4) / exclOf(*x, 3, event, 1));

        // convert: ppk from a TAU directory prints the same profile.
        const QString cpi = dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"));
        const QString converted = tmp.filePath(QStringLiteral("cpi.ppk"));
        r = runCli({ QStringLiteral("convert"), cpi, converted });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(runCli({ QStringLiteral("pprof"), converted }).out, runCli({ QStringLiteral("pprof"), cpi }).out);
        // ... and so do CSV and JSON (by suffix, or --to), listed by `formats`.
        for (const QString& format : { QStringLiteral("csv"), QStringLiteral("json") }) {
            const QString bySuffix = tmp.filePath(QStringLiteral("cpi.") + format);
            r = runCli({ QStringLiteral("convert"), cpi, bySuffix });
            QVERIFY2(r.exitCode == 0 && r.out.contains(QByteArray("(" + format.toLatin1() + ")")), r.err.constData());
            QCOMPARE(runCli({ QStringLiteral("pprof"), bySuffix }).out, runCli({ QStringLiteral("pprof"), cpi }).out);
            const QString byOption = tmp.filePath(QStringLiteral("cpi-") + format + QStringLiteral(".txt"));
            r = runCli({ QStringLiteral("convert"), QStringLiteral("--to"), format, bySuffix, byOption });
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QCOMPARE(runCli({ QStringLiteral("pprof"), byOption }).out, runCli({ QStringLiteral("pprof"), cpi }).out);
            QVERIFY2(runCli({ QStringLiteral("formats") }).out.contains(format.toLatin1()), "formats lists the writer");
        }

        // Errors say what to do.
        r = runCli({ QStringLiteral("merge"), ring2, ring2 });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("more than one operand"), r.err.constData());
        r = runCli({ QStringLiteral("derive"), QStringLiteral("X = \"PAPI_TOT_INS\" /"), xgc });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("column"), r.err.constData());
        r = runCli({ QStringLiteral("diff"), ring2 });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("two operands"));
        r = runCli({ QStringLiteral("diff"), QStringLiteral("--threads"), QStringLiteral("sideways"), ring2, ring8 });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("'sideways'") && r.err.contains("collapse-process"));
        r = runCli({ QStringLiteral("diff"), ring2, ring8, QStringLiteral("-o"), collapsed });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("exists"));
    }

    void pprofFromProfileDirEnvironment()
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PROFILEDIR"), dataPath(QStringLiteral("cubelib/test/test28/profile2")));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(PARALLAX_CLI), { QStringLiteral("pprof"), QStringLiteral("-m") });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY(out.contains("f3() (sleeps 3 sec)"));
        // pprof names the prefix it reads: "$PROFILEDIR/profile".
        const QByteArray first = QByteArray("Reading Profile files in ")
            + dataPath(QStringLiteral("cubelib/test/test28/profile2")).toUtf8() + QByteArray("/profile.*\n");
        QVERIFY2(out.startsWith(first), out.left(200).constData());
        // pprof fails when the first node number given has no profile.N.0.0, after its first line.
        p.start(QStringLiteral(PARALLAX_CLI), { QStringLiteral("pprof"), QStringLiteral("3"), QStringLiteral("0") });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(p.readAllStandardOutput().endsWith("/profile.*\n"));
        QVERIFY(p.readAllStandardError().contains("profile.3.0.0"));
    }

    void versionAndHelp()
    {
        CliRun r = runCli({ QStringLiteral("--version") });
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("parallax-cli " PARALLAX_VERSION "\n"));
        QVERIFY(r.err.isEmpty());
        QCOMPARE(runCli({ QStringLiteral("-v") }).out, r.out);
        r = runCli({ QStringLiteral("--help") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        QVERIFY2(r.out.startsWith("Usage: parallax-cli "), r.out.constData());
        QVERIFY(r.out.contains(exitStatusLine));
        QVERIFY(r.out.contains("2 usage error"));
        // The top-level list names every command (and help) and nothing else.
        QStringList expected;
        for (const QStringList& c : everyCommand)
            if (c.size() == 1)
                expected << c.first();
        expected << QStringLiteral("help");
        QStringList listed = listedCommands(r.out);
        listed.sort();
        expected.sort();
        QCOMPARE(listed, expected);
        QCOMPARE(runCli({ QStringLiteral("help") }).out, r.out);
        QCOMPARE(runCli({ QStringLiteral("-h") }).out, r.out);
        // No command: the same text on standard error, and a usage error.
        const CliRun none = runCli({});
        QCOMPARE(none.exitCode, 2);
        QVERIFY(none.out.isEmpty());
        QVERIFY(none.err.startsWith(r.out));
        // The db and db model help lists every subcommand of the table.
        const CliRun db = runCli({ QStringLiteral("db"), QStringLiteral("--help") });
        QCOMPARE(db.exitCode, 0);
        QCOMPARE(listedCommands(db.out),
            QStringList({ QStringLiteral("init"), QStringLiteral("load"), QStringLiteral("list"),
                QStringLiteral("rename"), QStringLiteral("delete"), QStringLiteral("meta"), QStringLiteral("export"),
                QStringLiteral("views"), QStringLiteral("model"), QStringLiteral("semantic") }));
        QVERIFY(db.out.contains("PGPASSWORD"));
        const CliRun model = runCli({ QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("--help") });
        QCOMPARE(listedCommands(model.out),
            QStringList({ QStringLiteral("save"), QStringLiteral("list"), QStringLiteral("show"),
                QStringLiteral("attach"), QStringLiteral("detach"), QStringLiteral("delete") }));
    }

    void commandHelp_data()
    {
        QTest::addColumn<QStringList>("command");
        for (const QStringList& c : everyCommand)
            QTest::newRow(qPrintable(c.join(QLatin1Char(' ')))) << c;
    }

    /// COMMAND --help, COMMAND -h and help COMMAND: the command's help on standard output, exit 0.
    void commandHelp()
    {
        QFETCH(QStringList, command);
        const CliRun r = runCli(QStringList(command) << QStringLiteral("--help"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        const QByteArray usage = "Usage: parallax-cli " + command.join(QLatin1Char(' ')).toUtf8() + ' ';
        QVERIFY2(r.out.startsWith(usage), r.out.constData());
        QVERIFY2(r.out.contains(exitStatusLine), r.out.constData());
        QCOMPARE(runCli(QStringList(command) << QStringLiteral("-h")).out, r.out);
        QCOMPARE(runCli(QStringList { QStringLiteral("help") } + command).out, r.out);
        // --help wins over the rest of the line, even an unknown option.
        const CliRun withJunk
            = runCli(QStringList(command) << QStringLiteral("--no-such-option") << QStringLiteral("--help"));
        if (command.last() != QLatin1String("db") && command.last() != QLatin1String("model"))
            QCOMPARE(withJunk.out, r.out);
    }

    void optionValueForms()
    {
        // --opt=value and --opt value are the same.
        const QString cpi = dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"));
        const CliRun separate
            = runCli({ QStringLiteral("info"), QStringLiteral("--format"), QStringLiteral("tau"), cpi });
        const CliRun joined = runCli({ QStringLiteral("info"), QStringLiteral("--format=tau"), cpi });
        QCOMPARE(separate.exitCode, 0);
        QCOMPARE(joined.out, separate.out);
        QTemporaryDir tmp;
        const QStringList synthSeparate = { QStringLiteral("synth"), QStringLiteral("--threads"), QStringLiteral("3"),
            QStringLiteral("--events"), QStringLiteral("9"), QStringLiteral("--seed"), QStringLiteral("4"),
            QStringLiteral("--metrics"), QStringLiteral("2"), tmp.filePath(QStringLiteral("a")) };
        const QStringList synthJoined
            = { QStringLiteral("synth"), QStringLiteral("--threads=3"), QStringLiteral("--events=9"),
                  QStringLiteral("--seed=4"), QStringLiteral("--metrics=2"), tmp.filePath(QStringLiteral("b")) };
        QCOMPARE(runCli(synthSeparate).exitCode, 0);
        QCOMPARE(runCli(synthJoined).exitCode, 0);
        const CliRun a = runCli({ QStringLiteral("pprof"), QStringLiteral("--metric"), QStringLiteral("TIME"),
            tmp.filePath(QStringLiteral("a")) });
        const CliRun b
            = runCli({ QStringLiteral("pprof"), QStringLiteral("--metric=TIME"), tmp.filePath(QStringLiteral("b")) });
        QCOMPARE(a.exitCode, 0);
        QVERIFY(a.out
            != runCli({ QStringLiteral("pprof"), tmp.filePath(QStringLiteral("a")) }).out); // not the first metric
        QCOMPARE(b.out, a.out);
        // Options after the operands, and -o OUT as -oOUT.
        const QString ring2 = dataPath(QStringLiteral("tau2/ppk/ring-2rank.ppk"));
        const CliRun top
            = runCli({ QStringLiteral("diff"), ring2, ring2, QStringLiteral("--top"), QStringLiteral("3") });
        QCOMPARE(top.exitCode, 0);
        QCOMPARE(runCli({ QStringLiteral("diff"), QStringLiteral("--top=3"), ring2, ring2 }).out, top.out);
        const QString out = tmp.filePath(QStringLiteral("d.ppk"));
        QCOMPARE(runCli({ QStringLiteral("diff"), ring2, ring2, QStringLiteral("-o") + out }).exitCode, 0);
        QVERIFY(QFileInfo::exists(out));
        // --reader-option before the command or as an option of pprof (gprof: fixnames).
        const QString gprof = dataPath(QStringLiteral("tau2/gprof-wrf/gprof.out"));
        const CliRun fixed = runCli({ QStringLiteral("--reader-option"), QStringLiteral("fixnames"),
            QStringLiteral("pprof"), QStringLiteral("-s"), gprof });
        QCOMPARE(fixed.exitCode, 0);
        QVERIFY(fixed.out != runCli({ QStringLiteral("pprof"), QStringLiteral("-s"), gprof }).out);
        QCOMPARE(
            runCli({ QStringLiteral("pprof"), QStringLiteral("-s"), gprof, QStringLiteral("--reader-option=fixnames") })
                .out,
            fixed.out);
    }

    void badNumbers_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named");
        const QString cpi = dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"));
        const QString out = QStringLiteral("/nonexistent-parallax-dir/out");
        const QString db = QStringLiteral("/nonexistent-parallax-dir/x.sqlite");
        auto row = [](const char* name, const QStringList& args, const char* named) {
            QTest::newRow(name) << args << QString::fromUtf8(named);
        };
        row("pprof -n ten", { QStringLiteral("pprof"), QStringLiteral("-n"), QStringLiteral("ten"), cpi }, "-n: 'ten'");
        row("pprof -n5x", { QStringLiteral("pprof"), QStringLiteral("-sn5x"), cpi }, "-n: '5x'");
        row("pprof -n -3", { QStringLiteral("pprof"), QStringLiteral("-n"), QStringLiteral("-3"), cpi },
            "-n: -3 is out of range");
        row("pprof node", { QStringLiteral("pprof"), cpi, QStringLiteral("0"), QStringLiteral("seven") },
            "node number: 'seven'");
        row("pprof --id",
            { QStringLiteral("pprof"), QStringLiteral("--db"), db, QStringLiteral("--id"), QStringLiteral("12x") },
            "--id: '12x'");
        row("info --id=", { QStringLiteral("info"), QStringLiteral("--db"), db, QStringLiteral("--id=x") },
            "--id: 'x'");
        row("synth --threads=abc",
            { QStringLiteral("synth"), QStringLiteral("--threads=abc"), QStringLiteral("--events"), QStringLiteral("3"),
                out },
            "--threads: 'abc'");
        row("synth --threads 0",
            { QStringLiteral("synth"), QStringLiteral("--threads"), QStringLiteral("0"), QStringLiteral("--events"),
                QStringLiteral("3"), out },
            "--threads: 0 is out of range");
        row("synth --events 1e3",
            { QStringLiteral("synth"), QStringLiteral("--threads"), QStringLiteral("2"), QStringLiteral("--events"),
                QStringLiteral("1e3"), out },
            "--events: '1e3'");
        row("synth --seed -1",
            { QStringLiteral("synth"), QStringLiteral("--threads"), QStringLiteral("2"), QStringLiteral("--events"),
                QStringLiteral("3"), QStringLiteral("--seed"), QStringLiteral("-1"), out },
            "--seed: -1 is out of range");
        row("synth --callpath-depth 1",
            { QStringLiteral("synth"), QStringLiteral("--threads"), QStringLiteral("2"), QStringLiteral("--events"),
                QStringLiteral("3"), QStringLiteral("--callpath-depth"), QStringLiteral("1"), out },
            "--callpath-depth: 1");
        row("diff --top", { QStringLiteral("diff"), QStringLiteral("--top"), QStringLiteral("many"), cpi, cpi },
            "--top: 'many'");
        row("diff db:x", { QStringLiteral("diff"), QStringLiteral("--db"), db, QStringLiteral("db:x"), cpi }, "db:x");
        row("db list --view",
            { QStringLiteral("db"), QStringLiteral("list"), QStringLiteral("--db"), db, QStringLiteral("--view"),
                QStringLiteral("v") },
            "--view: 'v'");
        row("db delete --id 1.5",
            { QStringLiteral("db"), QStringLiteral("delete"), QStringLiteral("--db"), db, QStringLiteral("--id"),
                QStringLiteral("1.5") },
            "--id: '1.5'");
        row("db model attach",
            { QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("attach"), QStringLiteral("--db"), db,
                QStringLiteral("abc"), QStringLiteral("m") },
            "TRIAL_ID: 'abc'");
        row("db semantic",
            { QStringLiteral("db"), QStringLiteral("semantic"), QStringLiteral("--db"), db, QStringLiteral("-4") },
            "Unknown option '4'");
        row("semantic --thread",
            { QStringLiteral("semantic"), QStringLiteral("builtin:layer"), cpi, QStringLiteral("--thread"),
                QStringLiteral("0,x,0") },
            "--thread: 'x'");
        row("semantic --thread N,C",
            { QStringLiteral("semantic"), QStringLiteral("builtin:layer"), cpi, QStringLiteral("--thread=0,0") },
            "--thread: '0,0' is not N,C,T");
    }

    /// A bad number is a usage error naming the option and the value, found before anything is
    /// read or written (the database is not even created).
    void badNumbers()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        const CliRun r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains(named.toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains("--help"), r.err.constData());
        QVERIFY(!QFileInfo::exists(QStringLiteral("/nonexistent-parallax-dir")));
    }

    void unknownOptions_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named");
        const QString cpi = dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"));
        auto row = [](const char* name, const QStringList& args, const char* named) {
            QTest::newRow(name) << args << QString::fromUtf8(named);
        };
        row("top level", { QStringLiteral("--frobnicate"), QStringLiteral("pprof") }, "Unknown option 'frobnicate'");
        row("pprof -q", { QStringLiteral("pprof"), QStringLiteral("-sq"), cpi }, "Unknown option 'q'");
        row("pprof --bogus=1", { QStringLiteral("pprof"), QStringLiteral("--bogus=1"), cpi }, "Unknown option 'bogus'");
        row("pprof -d", { QStringLiteral("pprof"), QStringLiteral("-d"), cpi }, "-d (the dump format");
        row("pprof -f", { QStringLiteral("pprof"), QStringLiteral("-f"), QStringLiteral("profile"), cpi },
            "-f PREFIX is not supported");
        row("info --jsn", { QStringLiteral("info"), QStringLiteral("--jsn"), cpi }, "Unknown option 'jsn'");
        row("info --format", { QStringLiteral("info"), QStringLiteral("--format"), QStringLiteral("nope"), cpi },
            "no reader named 'nope'");
        row("mean --top", { QStringLiteral("mean"), QStringLiteral("--top"), QStringLiteral("3"), cpi },
            "Unknown option 'top'");
        row("diff --absent", { QStringLiteral("diff"), QStringLiteral("--absent"), QStringLiteral("skip"), cpi, cpi },
            "Unknown option 'absent'");
        row("diff --match", { QStringLiteral("diff"), QStringLiteral("--match=fuzzy"), cpi, cpi }, "--match: 'fuzzy'");
        row("derive --mode",
            { QStringLiteral("derive"), QStringLiteral("--mode"), QStringLiteral("exact"), QStringLiteral("X = 1"),
                cpi },
            "--mode: 'exact'");
        row("convert --to",
            { QStringLiteral("convert"), QStringLiteral("--to"), QStringLiteral("xls"), cpi, QStringLiteral("x.xls") },
            "--to xls");
        row("semantic --frob",
            { QStringLiteral("semantic"), QStringLiteral("--frob"), QStringLiteral("builtin:layer"), cpi },
            "Unknown option 'frob'");
        row("db list --jason", { QStringLiteral("db"), QStringLiteral("list"), QStringLiteral("--jason") },
            "Unknown option 'jason'");
        row("db model list --force",
            { QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("list"), QStringLiteral("--force") },
            "Unknown option 'force'");
        row("db frob", { QStringLiteral("db"), QStringLiteral("frob") }, "unknown command 'frob'");
        row("missing value",
            { QStringLiteral("synth"), QStringLiteral("--events"), QStringLiteral("3"), QStringLiteral("--threads") },
            "Missing value after '--threads'");
        row("missing argument",
            { QStringLiteral("db"), QStringLiteral("rename"), QStringLiteral("--id"), QStringLiteral("1") },
            "needs --id N NAME");
    }

    /// Unknown options (and commands) are usage errors that name them.
    void unknownOptions()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        QTemporaryDir tmp;
        QProcess p;
        // A database of our own, never the user's: nothing may be created in it.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PARALLAX_DB"), tmp.filePath(QStringLiteral("untouched.sqlite")));
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(tmp.path());
        p.start(QStringLiteral(PARALLAX_CLI), args);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardOutput().isEmpty());
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains(named.toUtf8()), err.constData());
        QVERIFY(!QFileInfo::exists(tmp.filePath(QStringLiteral("untouched.sqlite"))));
    }

    /// The work itself fails: exit status 1 and a message naming what could not be done.
    void workFailures()
    {
        QTemporaryDir tmp;
        const QString missing = tmp.filePath(QStringLiteral("no-such-profile"));
        CliRun r = runCli({ QStringLiteral("pprof"), missing });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no-such-profile"), r.err.constData());
        r = runCli({ QStringLiteral("info"), QStringLiteral("--json"), missing });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("no-such-profile"), r.err.constData());
        r = runCli({ QStringLiteral("convert"), missing, tmp.filePath(QStringLiteral("x.ppk")) });
        QCOMPARE(r.exitCode, 1);
        r = runCli({ QStringLiteral("semantic"), tmp.filePath(QStringLiteral("no-model.json")),
            dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")) });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no-model.json"), r.err.constData());
        // A database that cannot be opened, a trial that is not in it.
        // (its directory would be a regular file)
        QFile plain(tmp.filePath(QStringLiteral("plain")));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.close();
        r = runCli({ QStringLiteral("db"), QStringLiteral("list"), QStringLiteral("--db"),
            tmp.filePath(QStringLiteral("plain/x.sqlite")) });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("x.sqlite"), r.err.constData());
        const QString db = tmp.filePath(QStringLiteral("perf.sqlite"));
        QCOMPARE(runCli({ QStringLiteral("db"), QStringLiteral("init"), QStringLiteral("--db"), db }).exitCode, 0);
        r = runCli({ QStringLiteral("db"), QStringLiteral("export"), QStringLiteral("--db"), db, QStringLiteral("--id"),
            QStringLiteral("42"), tmp.filePath(QStringLiteral("out")) });
        QCOMPARE(r.exitCode, 1);
        r = runCli(
            { QStringLiteral("info"), QStringLiteral("--db"), db, QStringLiteral("--id"), QStringLiteral("42") });
        QCOMPARE(r.exitCode, 1);
        r = runCli({ QStringLiteral("db"), QStringLiteral("model"), QStringLiteral("show"), QStringLiteral("--db"), db,
            QStringLiteral("nothing") });
        QCOMPARE(r.exitCode, 1);
    }

    void pprofCompactedOptions_data()
    {
        QTest::addColumn<QString>("sample");
        for (const char* s : { "tau2/tau-profiles-callpath-cpi-4rank", "tau2/tau-profiles-workflow-xmain-8rank",
                 "tau2/tau-profiles-openmp-2thread", "cubelib/test/test28/profile2" })
            QTest::newRow(s) << QString::fromLatin1(s);
    }

    /// pprof's options as getopt takes them: compacted (-sm, -n10, -smn5), separated, after the
    /// directory, the last sort key winning, trailing node numbers; each line prints exactly what
    /// the report of the same PprofOptions prints.
    void pprofCompactedOptions()
    {
        QFETCH(QString, sample);
        const QString dir = dataPath(sample);
        const auto trial = mustLoad(dir);
        QVERIFY(trial);
        using Sort = parallax::PprofOptions::Sort;
        struct Case {
            QStringList compacted;
            QStringList separated;
            parallax::PprofOptions options;
        };
        auto opts = [](Sort sort, bool summary, int max, bool reverse, bool minMax, std::vector<int> nodes) {
            parallax::PprofOptions o;
            o.sort = sort;
            o.summaryOnly = summary;
            o.max = max;
            o.reverse = reverse;
            o.minMax = minMax;
            o.nodes = std::move(nodes);
            return o;
        };
        const int all = parallax::PprofOptions().max;
        const QList<Case> cases = {
            { { QStringLiteral("-sm"), dir }, { QStringLiteral("-s"), QStringLiteral("-m"), dir },
                opts(Sort::Exclusive, true, all, false, false, {}) },
            { { QStringLiteral("-n10"), dir }, { QStringLiteral("-n"), QStringLiteral("10"), dir },
                opts(Sort::Inclusive, false, 10, false, false, {}) },
            { { QStringLiteral("-smn5"), dir },
                { dir, QStringLiteral("-s"), QStringLiteral("-m"), QStringLiteral("-n"), QStringLiteral("5") },
                opts(Sort::Exclusive, true, 5, false, false, {}) },
            { { QStringLiteral("-crx"), dir, QStringLiteral("0") },
                { QStringLiteral("-c"), QStringLiteral("-r"), QStringLiteral("-x"), dir, QStringLiteral("0") },
                opts(Sort::Calls, false, all, true, true, { 0 }) },
            // Node 0 first: pprof fails (as TAU's does) when the first node given has no profile.N.0.0,
            // and the single-node samples have no node 1.
            { { QStringLiteral("-mc"), dir, QStringLiteral("0"), QStringLiteral("1") },
                { QStringLiteral("-m"), QStringLiteral("-c"), dir, QStringLiteral("0"), QStringLiteral("1") },
                opts(Sort::Calls, false, all, false, false, { 0, 1 }) },
            { { QStringLiteral("-ebn3"), dir },
                { QStringLiteral("-e"), QStringLiteral("-b"), QStringLiteral("-n3"), dir },
                opts(Sort::Subroutines, false, 3, false, false, {}) },
            { { QStringLiteral("-siv"), dir },
                { QStringLiteral("-s"), QStringLiteral("-i"), QStringLiteral("-v"), dir },
                opts(Sort::StdDev, true, all, false, false, {}) },
        };
        for (const Case& c : cases) {
            const CliRun compacted = runCli(QStringList { QStringLiteral("pprof") } + c.compacted);
            const CliRun separated = runCli(QStringList { QStringLiteral("pprof") } + c.separated);
            QVERIFY2(compacted.exitCode == 0, compacted.err.constData());
            QCOMPARE(separated.exitCode, 0);
            const std::string expected = parallax::pprofReport(*trial, c.options);
            QCOMPARE(compacted.out, QByteArray::fromStdString(expected));
            QCOMPARE(separated.out, compacted.out);
        }
        // The options do something: -sm and -n2 change the text.
        const QByteArray plain = runCli({ QStringLiteral("pprof"), dir }).out;
        QVERIFY(plain != runCli({ QStringLiteral("pprof"), QStringLiteral("-sm"), dir }).out);
        QVERIFY(runCli({ QStringLiteral("pprof"), QStringLiteral("-n2"), dir }).out.size() < plain.size());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
