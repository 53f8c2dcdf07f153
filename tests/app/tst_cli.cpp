// The parallax-cli executable as a user runs it: exit codes, JSON, messages.
#include "tests/common/testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

using namespace parallax::test;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(PARALLAX_CLI), args);
    p.waitForFinished(120000);
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError() };
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void infoJson()
    {
        const Run r = cli({ QStringLiteral("info"), QStringLiteral("--json"), dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")) });
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

    void synthThenInfoAndPprof()
    {
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("synth"));
        Run r = cli({ QStringLiteral("synth"), QStringLiteral("--threads"), QStringLiteral("8"), QStringLiteral("--events"),
            QStringLiteral("20"), QStringLiteral("--callpath-depth"), QStringLiteral("2"), QStringLiteral("--user-events"),
            QStringLiteral("3"), QStringLiteral("--seed"), QStringLiteral("7"), out });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = cli({ QStringLiteral("info"), QStringLiteral("--json"), out });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QStringLiteral("threads")).toInt(), 8);
        QCOMPARE(o.value(QStringLiteral("events")).toInt(), 20);
        QCOMPARE(o.value(QStringLiteral("callpaths")).toInt(), 19);
        QCOMPARE(o.value(QStringLiteral("user_events")).toInt(), 3);
        r = cli({ QStringLiteral("pprof"), QStringLiteral("-s"), out });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("FUNCTION SUMMARY (mean):"));
        QVERIFY(r.out.contains(".TAU application"));
        // Writing into a directory that is not empty is refused.
        r = cli({ QStringLiteral("synth"), QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--events"), QStringLiteral("2"), out });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("not empty"));
    }

    void errors()
    {
        QTemporaryDir empty;
        Run r = cli({ QStringLiteral("info"), empty.path() });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("empty"), r.err.constData());
        r = cli({ QStringLiteral("pprof"), QStringLiteral("-h") });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("usage:"));
        r = cli({ QStringLiteral("frobnicate") });
        QCOMPARE(r.exitCode, 1);
        r = cli({ QStringLiteral("pprof"), QStringLiteral("--metric"), QStringLiteral("NOPE"), dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")) });
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
        Run r = cli({ QStringLiteral("db"), QStringLiteral("init"), QStringLiteral("--db"), db });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString app = QStringLiteral("cli-test-%1").arg(QCoreApplication::applicationPid());
        r = cli({ QStringLiteral("db"), QStringLiteral("load"), QStringLiteral("--db"), db, QStringLiteral("--app"), app,
            QStringLiteral("--exp"), QStringLiteral("scaling"), QStringLiteral("--name"), QStringLiteral("4 ranks; 'quoted'"), cpi });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("as trial "));
        r = cli({ QStringLiteral("db"), QStringLiteral("list"), QStringLiteral("--db"), db, QStringLiteral("--app"), app,
            QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonArray trials = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(trials.size(), 1);
        const QJsonObject t = trials.first().toObject();
        QCOMPARE(t.value(QStringLiteral("name")).toString(), QStringLiteral("4 ranks; 'quoted'"));
        QCOMPARE(t.value(QStringLiteral("experiment")).toString(), QStringLiteral("scaling"));
        QCOMPARE(t.value(QStringLiteral("threads")).toInt(), 4);
        const QString id = QString::number(t.value(QStringLiteral("id")).toInteger());
        // pprof of the stored trial prints exactly what pprof of the directory prints.
        const Run fromDir = cli({ QStringLiteral("pprof"), cpi });
        r = cli({ QStringLiteral("pprof"), QStringLiteral("--db"), db, QStringLiteral("--id"), id });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, fromDir.out);
        r = cli({ QStringLiteral("info"), QStringLiteral("--json"), QStringLiteral("--db"), db, QStringLiteral("--id"), id });
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("callpaths")).toInt(), 11);
        const QString out = tmp.filePath(QStringLiteral("export"));
        r = cli({ QStringLiteral("db"), QStringLiteral("export"), QStringLiteral("--db"), db, QStringLiteral("--id"), id, out });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(cli({ QStringLiteral("pprof"), out }).out, fromDir.out);
        r = cli({ QStringLiteral("db"), QStringLiteral("meta"), QStringLiteral("--db"), db, QStringLiteral("--id"), id,
            QStringLiteral("Compiler"), QStringLiteral("gcc 12") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = cli({ QStringLiteral("db"), QStringLiteral("list"), QStringLiteral("--db"), db, QStringLiteral("--where"),
            QStringLiteral("Compiler=gcc 12"), QStringLiteral("--app"), app, QStringLiteral("--json") });
        QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 1);
        r = cli({ QStringLiteral("db"), QStringLiteral("rename"), QStringLiteral("--db"), db, QStringLiteral("--id"), id,
            QStringLiteral("renamed") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = cli({ QStringLiteral("db"), QStringLiteral("delete"), QStringLiteral("--db"), db, QStringLiteral("--id"), id });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = cli({ QStringLiteral("db"), QStringLiteral("list"), QStringLiteral("--db"), db, QStringLiteral("--app"), app,
            QStringLiteral("--json") });
        QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 0);
        // Errors: a missing trial, a missing option.
        r = cli({ QStringLiteral("pprof"), QStringLiteral("--db"), db, QStringLiteral("--id"), QStringLiteral("999999") });
        QCOMPARE(r.exitCode, 2);
        r = cli({ QStringLiteral("db"), QStringLiteral("load"), QStringLiteral("--db"), db, cpi });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("--app and --exp"));
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
        QVERIFY(p.readAllStandardOutput().contains("f3() (sleeps 3 sec)"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
