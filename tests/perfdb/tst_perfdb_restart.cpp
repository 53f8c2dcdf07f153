// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The PostgreSQL server restarts in the middle of an upload and of a load, and is down when a load
// starts (issue 18 §7, docs/FORMATS.md 7.7). The test runs its own throwaway cluster (initdb in a
// temporary folder, a Unix socket there, as the postgres user when run by root), because restarting
// the server that ./test.sh shares with the other tests would break them. Each case gives a clear
// error, leaves no partial trial, and the same Database works again once the server is back.
#include "datasource/synth/synth.h"
#include "tests/common/testutil.h"
#include "tests/perfdb/perfdbfixture.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <unistd.h>

using namespace parallax;
using namespace parallax::test;
using perfdb::Database;

namespace {

/// PostgreSQL's server programs: PARALLAX_TEST_PG_BIN, else the newest /usr/lib/postgresql/*/bin
/// (Debian's layout, where ./test.sh finds them too).
QString serverBin()
{
    QString given = qEnvironmentVariable("PARALLAX_TEST_PG_BIN");
    if (!given.isEmpty())
        return given;
    QStringList versions = QDir(QStringLiteral("/usr/lib/postgresql")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    std::sort(
        versions.begin(), versions.end(), [](const QString& a, const QString& b) { return a.toInt() < b.toInt(); });
    for (auto it = versions.rbegin(); it != versions.rend(); ++it) {
        QString bin = QStringLiteral("/usr/lib/postgresql/%1/bin").arg(*it);
        if (QFileInfo(bin + QStringLiteral("/pg_ctl")).isExecutable())
            return bin;
    }
    return {};
}

/// A private cluster for one test: initdb, start, restart, stop.
class PrivateServer {
public:
    PrivateServer()
    {
        m_bin = serverBin();
        if (m_bin.isEmpty() || !m_dir.isValid()) {
            m_error = QStringLiteral("no PostgreSQL server programs (install postgresql, or set PARALLAX_TEST_PG_BIN)");
            return;
        }
        if (geteuid() == 0) // initdb refuses root: the cluster belongs to the postgres user
            QProcess::execute(QStringLiteral("chown"), { QStringLiteral("postgres"), m_dir.path() });
        if (!run(QStringLiteral("initdb"),
                { QStringLiteral("-D"), data(), QStringLiteral("-A"), QStringLiteral("trust"), QStringLiteral("-U"),
                    QStringLiteral("postgres") }))
            return;
        start();
    }
    ~PrivateServer()
    {
        if (!m_bin.isEmpty())
            pgCtl({ QStringLiteral("stop"), QStringLiteral("-m"), QStringLiteral("immediate") });
    }
    PrivateServer(const PrivateServer&) = delete;
    PrivateServer& operator=(const PrivateServer&) = delete;

    const QString& error() const { return m_error; }
    QString uri() const
    {
        return QStringLiteral("postgresql://postgres@/postgres?host=%1&port=%2").arg(m_dir.path()).arg(Port);
    }
    bool start()
    {
        return pgCtl({ QStringLiteral("start"), QStringLiteral("-w"), QStringLiteral("-l"),
            m_dir.filePath(QStringLiteral("server.log")), QStringLiteral("-o"),
            QStringLiteral("-p %1 -k %2 -c listen_addresses=''").arg(Port).arg(m_dir.path()) });
    }
    bool stop()
    {
        return pgCtl({ QStringLiteral("stop"), QStringLiteral("-w"), QStringLiteral("-m"), QStringLiteral("fast") });
    }
    /// What an administrator's `pg_ctl restart -m fast` does: every session ends, the server comes back.
    bool restart()
    {
        return pgCtl({ QStringLiteral("restart"), QStringLiteral("-w"), QStringLiteral("-m"), QStringLiteral("fast"),
            QStringLiteral("-l"), m_dir.filePath(QStringLiteral("server.log")), QStringLiteral("-o"),
            QStringLiteral("-p %1 -k %2 -c listen_addresses=''").arg(Port).arg(m_dir.path()) });
    }

private:
    static constexpr int Port = 54391; // only names the socket file in the private folder

    QString data() const { return m_dir.filePath(QStringLiteral("data")); }
    bool pgCtl(QStringList args)
    {
        args.prepend(data());
        args.prepend(QStringLiteral("-D"));
        return run(QStringLiteral("pg_ctl"), args);
    }
    bool run(const QString& program, const QStringList& args)
    {
        QProcess process;
        const QString path = m_bin + QLatin1Char('/') + program;
        if (geteuid() == 0)
            process.start(QStringLiteral("runuser"),
                QStringList { QStringLiteral("-u"), QStringLiteral("postgres"), QStringLiteral("--"), path } + args);
        else
            process.start(path, args);
        if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit
            || process.exitCode() != 0) {
            m_error
                = QStringLiteral("%1 %2 failed: %3%4")
                      .arg(program, args.join(QLatin1Char(' ')), QString::fromLocal8Bit(process.readAllStandardError()),
                          QString::fromLocal8Bit(process.readAllStandardOutput()));
            return false;
        }
        return true;
    }

    QTemporaryDir m_dir { QDir::tempPath() + QStringLiteral("/parallax-pgrestart-XXXXXX") };
    QString m_bin;
    QString m_error;
};

/// The progress of an upload or a load that restarts the server when the operation enters `stage`.
class RestartAt {
public:
    RestartAt(PrivateServer& server, const QString& stage)
        : progress([this, &server, stage](const QString& current, qint64, qint64) {
            if (current == stage && !restarted) {
                restarted = true;
                if (!server.restart())
                    error = server.error();
            }
        })
    {
    }
    RestartAt(const RestartAt&) = delete;
    RestartAt& operator=(const RestartAt&) = delete;

    Progress progress;
    bool restarted = false;
    QString error;
};

/// What is wrong with the error of an operation the restart broke, or an empty string.
template <typename Result> QString lostConnectionProblem(const Result& failed, const Database& db)
{
    if (failed.ok())
        return QStringLiteral("the operation succeeded");
    const QString message = failed.error().toString();
    if (!message.startsWith(db.location() + QStringLiteral(": "))
        || !message.contains(QLatin1String("lost the connection to the PostgreSQL server")))
        return QStringLiteral("unexpected message: ") + message;
    return {};
}

} // namespace

class TestPerfdbRestart : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Every test gets a fresh server and a Database on it holding one stored trial.
    void init()
    {
        m_server = std::make_unique<PrivateServer>();
        QVERIFY2(m_server->error().isEmpty(), qPrintable(m_server->error()));
        auto opened = Database::open(m_server->uri());
        QVERIFY2(opened.ok(), why(opened).constData());
        m_db = std::move(opened.value());
        m_stored = mediumTrial(1);
        const auto id = m_db->uploadTrial(*m_stored, {}, m_quiet);
        QVERIFY2(id.ok(), why(id).constData());
        m_storedId = id.value();
    }
    void cleanup()
    {
        m_db.reset();
        m_server.reset();
    }

    void restartDuringUpload_data()
    {
        QTest::addColumn<QString>("stage");
        for (const char* stage : { "Uploading: call data", "Uploading: metadata", "Uploading: committing" })
            QTest::newRow(stage) << QString::fromLatin1(stage);
    }
    void restartDuringUpload()
    {
        QFETCH(QString, stage);
        RestartAt restart(*m_server, stage);
        const auto second = mediumTrial(2);
        const auto failed = m_db->uploadTrial(*second, {}, restart.progress);
        QVERIFY(restart.restarted);
        QVERIFY2(restart.error.isEmpty(), qPrintable(restart.error));
        const QString problem = lostConnectionProblem(failed, *m_db);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // After the restart the database holds the first trial only, whole; the next upload works
        // on the same Database, which connects again.
        QCOMPARE(m_db->listTrials().value().size(), std::size_t(1));
        qint64 id = 0;
        const QString diff = roundTripDifference(*m_db, *second, {}, &id);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QCOMPARE(m_db->listTrials().value().size(), std::size_t(2));
        QVERIFY(storedTrialLoads());
    }

    void restartDuringLoad_data()
    {
        QTest::addColumn<QString>("stage");
        for (const char* stage : { "Loading: structure", "Loading: call data", "Loading: metadata" })
            QTest::newRow(stage) << QString::fromLatin1(stage);
    }
    void restartDuringLoad()
    {
        QFETCH(QString, stage);
        RestartAt restart(*m_server, stage);
        const auto failed = m_db->loadTrial(m_storedId, restart.progress);
        QVERIFY(restart.restarted);
        QVERIFY2(restart.error.isEmpty(), qPrintable(restart.error));
        const QString problem = lostConnectionProblem(failed, *m_db);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(storedTrialLoads());
    }

    void serverDownThenBack()
    {
        QVERIFY2(m_server->stop(), qPrintable(m_server->error()));
        const auto failed = m_db->loadTrial(m_storedId, m_quiet);
        QVERIFY(!failed.ok());
        const QString message = failed.error().toString();
        QVERIFY2(message.startsWith(m_db->location() + QStringLiteral(": ")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("PostgreSQL")), qPrintable(message));
        QVERIFY2(m_server->start(), qPrintable(m_server->error()));
        QVERIFY(storedTrialLoads());
    }

private:
    /// The stored trial loads whole on the same Database.
    bool storedTrialLoads()
    {
        const auto loaded = m_db->loadTrial(m_storedId, m_quiet);
        if (!loaded.ok()) {
            qWarning("%s", why(loaded).constData());
            return false;
        }
        const QString diff = modelDifference(*m_stored, *loaded.value());
        if (!diff.isEmpty())
            qWarning("%s", qPrintable(diff));
        return diff.isEmpty();
    }

    std::unique_ptr<PrivateServer> m_server;
    std::unique_ptr<Database> m_db;
    std::shared_ptr<Trial> m_stored;
    qint64 m_storedId = 0;
    Progress m_quiet;
};

QTEST_GUILESS_MAIN(TestPerfdbRestart)
#include "tst_perfdb_restart.moc"
