// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Faults of the experiment database (issue 18 §7, docs/FORMATS.md 7.7): the disk fills during an
// SQLite upload, the file or its folder is read-only, the file is corrupt, the PostgreSQL connection
// is cut during an upload or a load. Each gives an error that names the database and says what
// happened, never a crash, a hang or a partial trial, and the database works again afterwards.
#include "datasource/synth/synth.h"
#include "tests/common/measuredrun.h"
#include "tests/common/testutil.h"
#include "tests/perfdb/perfdbfixture.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QRandomGenerator>
#include <csignal>
#include <optional>
#include <sys/fsuid.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace parallax;
using namespace parallax::test;
using perfdb::Database;
using perfdb::DbResult;

namespace {

/// RLIMIT_FSIZE for this process while it lives, with SIGXFSZ ignored: a write that would grow any
/// file beyond `bytes` fails with EFBIG, as a full file system fails with ENOSPC. It holds for root
/// too and needs no privilege or mount, so the test runs the same everywhere.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        m_ok = getrlimit(RLIMIT_FSIZE, &m_old) == 0;
        m_oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit = m_old;
        limit.rlim_cur = bytes;
        m_ok = m_ok && m_oldHandler != SIG_ERR && setrlimit(RLIMIT_FSIZE, &limit) == 0;
    }
    ~FileSizeLimit()
    {
        setrlimit(RLIMIT_FSIZE, &m_old);
        std::signal(SIGXFSZ, m_oldHandler == SIG_ERR ? SIG_DFL : m_oldHandler);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;
    bool ok() const { return m_ok; }

private:
    rlimit m_old {};
    void (*m_oldHandler)(int) = SIG_ERR;
    bool m_ok = false;
};

/// File permissions as an unprivileged user meets them, on this thread, while it lives. The tests
/// run as root in CI, and root reads and writes any file whatever its mode; a filesystem uid other
/// than 0 drops the capabilities that allow it (CAP_DAC_OVERRIDE and the rest, capabilities(7)) from
/// this thread's effective set, until it is set back. Run by another user, it changes nothing: the
/// modes already hold. The files the test makes must then be reachable by "others" (mode bits).
class AsUnprivileged {
public:
    static constexpr uid_t Nobody = 65534;
    AsUnprivileged()
    {
        if (geteuid() != 0)
            return;
        setfsgid(Nobody);
        setfsuid(Nobody);
        m_active = true;
    }
    ~AsUnprivileged()
    {
        if (!m_active)
            return;
        setfsuid(0);
        setfsgid(0);
    }
    AsUnprivileged(const AsUnprivileged&) = delete;
    AsUnprivileged& operator=(const AsUnprivileged&) = delete;

private:
    bool m_active = false;
};

QByteArray fileHash(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return hash.result().toHex();
}

/// Every file in a folder with its size and content hash: what "nothing was written" compares.
QStringList folderState(const QString& folder)
{
    QStringList out;
    QDirIterator it(folder, QDir::Files | QDir::Hidden | QDir::System);
    while (it.hasNext()) {
        const QString path = it.next();
        out << QStringLiteral("%1 %2 %3")
                   .arg(QFileInfo(path).fileName())
                   .arg(QFileInfo(path).size())
                   .arg(QString::fromLatin1(fileHash(path)));
    }
    out.sort();
    return out;
}

/// SQLite's verdict on a database file: "ok", or what is wrong with it.
QString integrity(perfdb::SqlDatabase& db)
{
    auto rows = db.query("PRAGMA integrity_check");
    QStringList out;
    while (rows->next())
        out << rows->toText(0);
    return out.join(u'\n');
}

/// Ends every connection whose application_name is `tag` (what a server restart does to them, and
/// what an administrator's pg_terminate_backend does); returns how many there were.
qint64 terminate(perfdb::SqlDatabase& admin, const QString& tag)
{
    auto rows = admin.query("SELECT COUNT(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            "WHERE application_name = $1 AND pid <> pg_backend_pid()) t",
        { tag });
    return rows->next() ? rows->toInt(0) : -1;
}

/// The tables this schema's uploads made, attached or not (PostgreSQL partitions of one trial).
qint64 partitionTables(perfdb::SqlDatabase& db)
{
    return scalar(db,
        "SELECT COUNT(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = current_schema() AND c.relname ~ '^timer_(call_data|value)_t[0-9]+$'");
}

void pgStages(const std::vector<const char*>& stages)
{
    QTest::addColumn<QString>("backend");
    QTest::addColumn<QString>("stage");
    for (const char* stage : stages)
        QTest::addRow("postgresql %s", stage) << QStringLiteral("postgresql") << QString::fromLatin1(stage);
}

} // namespace

class TestPerfdbFaults : public PerfdbFixture {
    Q_OBJECT

private Q_SLOTS:
    void diskFullDuringUpload_data()
    {
        QTest::addColumn<bool>("spill");
        // The pages of a transaction wait in SQLite's page cache until the commit writes them to the
        // write-ahead log; a small cache spills them during the upload's inserts instead.
        QTest::newRow("at the commit") << false;
        QTest::newRow("during the inserts") << true;
    }
    void diskFullDuringUpload()
    {
        QFETCH(bool, spill);
        const QString location = freshLocation(QStringLiteral("sqlite"));
        const auto kept = mustLoad(dataPath(QStringLiteral("hatchet/tau-cpi-mpi")));
        const auto trial = mediumTrial();
        QVERIFY(kept && trial);
        auto opened = Database::open(location);
        QVERIFY2(opened.ok(), why(opened).constData());
        Database& db = *opened.value();
        auto& sql = dynamic_cast<perfdb::SqlDatabase&>(db);
        Progress progress;
        const auto first = db.uploadTrial(*kept, {}, progress);
        QVERIFY2(first.ok(), why(first).constData());
        // Everything in the database file, the log empty: the upload must grow one of them.
        sql.execScript("PRAGMA wal_checkpoint(TRUNCATE)");
        if (spill)
            sql.execScript("PRAGMA cache_size = 20");
        const auto before = tableCounts(sql);
        const qint64 limit = QFileInfo(location).size() + qint64 { 64 } * 1024;
        std::optional<DbResult<qint64>> failed;
        {
            const FileSizeLimit full(static_cast<rlim_t>(limit));
            QVERIFY(full.ok());
            failed = db.uploadTrial(*trial, {}, progress);
        }
        QVERIFY2(!failed->ok(), "the upload must fail when the database cannot grow");
        const QString message = failed->error().toString();
        QVERIFY2(message.startsWith(location + QStringLiteral(": ")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("file too large")), qPrintable(message));
        // No partial trial, on this connection and on a new one, and SQLite finds the file sound.
        QVERIFY(tableCounts(sql) == before);
        opened = Database::open(location);
        QVERIFY2(opened.ok(), why(opened).constData());
        auto& reopened = dynamic_cast<perfdb::SqlDatabase&>(*opened.value());
        QCOMPARE(integrity(reopened), QStringLiteral("ok"));
        QVERIFY(tableCounts(reopened) == before);
        // With room again, the same upload works and the trial comes back whole.
        qint64 id = 0;
        const QString diff = roundTripDifference(reopened, *trial, {}, &id);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QCOMPARE(integrity(reopened), QStringLiteral("ok"));
        QCOMPARE(reopened.listTrials().value().size(), std::size_t(2));
    }

    void diskFullThroughTheCli()
    {
        // As a user meets it: `parallax-cli db load` under a file size limit (ulimit -f), with SIGXFSZ
        // at its default action in the child, so the program must ignore it to report the error.
        const QString location = freshLocation(QStringLiteral("sqlite"));
        const QString small = dataPath(QStringLiteral("hatchet/tau-cpi-mpi"));
        const QString large = dataPath(QStringLiteral("tau2/ppk/wrf-callpath-16rank.ppk"));
        auto load = [&](const QString& path, qint64 limit) {
            return runCliMeasured(
                { QStringLiteral("db"), QStringLiteral("load"), QStringLiteral("--db"), location,
                    QStringLiteral("--app"), QStringLiteral("a"), QStringLiteral("--exp"), QStringLiteral("e"), path },
                { 60, limit });
        };
        QCOMPARE(load(small, 0).exitCode, 0);
        const MeasuredRun full = load(large, QFileInfo(location).size() + qint64 { 64 } * 1024);
        QCOMPARE(full.signal, 0);
        QCOMPARE(full.exitCode, 1);
        const QString err = QString::fromUtf8(full.err);
        QVERIFY2(err.startsWith(QStringLiteral("parallax-cli: ") + location + QStringLiteral(": file too large")),
            qPrintable(err));
        QVERIFY2(full.out.isEmpty(), full.out.constData());
        {
            auto opened = Database::open(location);
            QVERIFY2(opened.ok(), why(opened).constData());
            QCOMPARE(integrity(dynamic_cast<perfdb::SqlDatabase&>(*opened.value())), QStringLiteral("ok"));
            QCOMPARE(opened.value()->listTrials().value().size(), std::size_t(1));
        }
        QCOMPARE(load(large, 0).exitCode, 0);
        auto opened = Database::open(location);
        QVERIFY2(opened.ok(), why(opened).constData());
        QCOMPARE(opened.value()->listTrials().value().size(), std::size_t(2));
    }

    void readOnlyFile()
    {
        // Readable by everyone, written by nobody: a trial stored before the file was made read-only.
        QTemporaryDir dir;
        QVERIFY(QFile::setPermissions(dir.path(),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup
                | QFile::ReadOther | QFile::ExeOther));
        const QString path = dir.filePath(QStringLiteral("archive.sqlite"));
        const auto trial = mustLoad(dataPath(QStringLiteral("hatchet/tau-cpi-mpi")));
        QVERIFY(trial);
        qint64 id = 0;
        {
            auto opened = Database::open(path);
            QVERIFY2(opened.ok(), why(opened).constData());
            Progress progress;
            const auto stored = opened.value()->uploadTrial(*trial, {}, progress);
            QVERIFY2(stored.ok(), why(stored).constData());
            id = stored.value();
        }
        QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));
        const QStringList state = folderState(dir.path());
        {
            const AsUnprivileged user;
            // The premise: this thread cannot write the file (else the test proves nothing).
            QFile probe(path);
            QVERIFY(!probe.open(QIODevice::ReadWrite));
            // Reading a read-only database works...
            auto opened = Database::open(path);
            QVERIFY2(opened.ok(), why(opened).constData());
            Database& db = *opened.value();
            QCOMPARE(db.listTrials().value().size(), std::size_t(1));
            Progress progress;
            const auto loaded = db.loadTrial(id, progress);
            QVERIFY2(loaded.ok(), why(loaded).constData());
            QCOMPARE(modelDifference(*trial, *loaded.value()), QString());
            // ...and every write is refused, naming the file and why.
            const auto upload = db.uploadTrial(*trial, {}, progress);
            QVERIFY(!upload.ok());
            const QString message = upload.error().toString();
            QVERIFY2(message.startsWith(path + QStringLiteral(": ")), qPrintable(message));
            QVERIFY2(message.contains(QLatin1String("read-only")), qPrintable(message));
            for (const DbResult<perfdb::Done>& change : { db.renameTrial(id, QStringLiteral("x")),
                     db.setMetadata(id, QStringLiteral("k"), QStringLiteral("v")), db.deleteTrial(id) }) {
                QVERIFY(!change.ok());
                QVERIFY2(change.error().message.contains(QLatin1String("read-only")), why(change).constData());
            }
        }
        // Nothing written: not the file, and no journal or shared-memory file beside it.
        QCOMPARE(folderState(dir.path()), state);
    }

    void readOnlyFolder()
    {
        // A writable database file in a folder nobody may write: SQLite cannot make its write-ahead
        // log there, so it cannot even read; nor can a new database be made there.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("shared.sqlite"));
        const auto trial = mustLoad(dataPath(QStringLiteral("hatchet/tau-cpi-mpi")));
        QVERIFY(trial);
        {
            auto opened = Database::open(path);
            QVERIFY2(opened.ok(), why(opened).constData());
            Progress progress;
            QVERIFY(opened.value()->uploadTrial(*trial, {}, progress).ok());
        }
        const auto all = QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther;
        QVERIFY(QFile::setPermissions(path, all | QFile::WriteOwner | QFile::WriteGroup | QFile::WriteOther));
        QVERIFY(QFile::setPermissions(dir.path(), all | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther));
        const QStringList state = folderState(dir.path());
        {
            const AsUnprivileged user;
            QFile probe(dir.filePath(QStringLiteral("probe")));
            QVERIFY(!probe.open(QIODevice::WriteOnly));
            const auto opened = Database::open(path);
            QVERIFY(!opened.ok());
            const QString message = opened.error().toString();
            QVERIFY2(message.startsWith(path + QStringLiteral(": ")), qPrintable(message));
            QVERIFY2(message.contains(QLatin1String("folder is not writable")), qPrintable(message));
            const QString fresh = dir.filePath(QStringLiteral("new.sqlite"));
            const auto created = Database::open(fresh);
            QVERIFY(!created.ok());
            const QString refused = created.error().toString();
            QVERIFY2(refused.startsWith(fresh + QStringLiteral(": ")), qPrintable(refused));
            QVERIFY2(
                refused.contains(QLatin1String("cannot create the database file: its folder")), qPrintable(refused));
        }
        QCOMPARE(folderState(dir.path()), state);
        QVERIFY(QFile::setPermissions(dir.path(), all | QFile::WriteOwner | QFile::ExeOwner));
    }

    void corruptFile_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::newRow("random middle pages") << QStringLiteral("middle");
        QTest::newRow("truncated to half") << QStringLiteral("half");
        QTest::newRow("truncated to 50 bytes") << QStringLiteral("header");
    }
    void corruptFile()
    {
        QFETCH(QString, damage);
        const QString location = freshLocation(QStringLiteral("sqlite"));
        const auto trial = mediumTrial();
        QVERIFY(trial);
        {
            auto opened = Database::open(location);
            QVERIFY2(opened.ok(), why(opened).constData());
            Progress progress;
            for (int i = 0; i < 3; ++i)
                QVERIFY(opened.value()->uploadTrial(*trial, {}, progress).ok());
        }
        QVERIFY(!QFileInfo::exists(location + QStringLiteral("-wal"))); // closed cleanly, all in the file
        QFile file(location);
        QVERIFY(file.open(QIODevice::ReadWrite));
        const qint64 size = file.size();
        constexpr qint64 page = 4096;
        QVERIFY(size > 100 * page);
        if (damage == QLatin1String("middle")) {
            QRandomGenerator random(18);
            QByteArray bytes(page, Qt::Uninitialized);
            for (qint64 at = size / 4 / page * page; at < size * 3 / 4; at += page) {
                random.fillRange(reinterpret_cast<quint32*>(bytes.data()), page / 4);
                QVERIFY(file.seek(at));
                QCOMPARE(file.write(bytes), page);
            }
        } else {
            QVERIFY(file.resize(damage == QLatin1String("half") ? size / 2 / page * page : 50));
        }
        file.close();
        // Refused at the open or at a load, with a message; never a crash, never a trial.
        auto opened = Database::open(location);
        QStringList refusals;
        if (!opened.ok()) {
            refusals << opened.error().toString();
        } else {
            Database& db = *opened.value();
            const auto listed = db.listTrials();
            if (!listed.ok())
                refusals << listed.error().toString();
            for (qint64 id = 1; id <= 3; ++id) {
                Progress progress;
                const auto loaded = db.loadTrial(id, progress);
                if (!loaded.ok())
                    refusals << loaded.error().toString();
                else
                    QCOMPARE(modelDifference(*trial, *loaded.value()), QString()); // its pages were spared
            }
        }
        QVERIFY2(!refusals.isEmpty(), "a damaged database must be refused somewhere");
        for (const QString& message : std::as_const(refusals)) {
            QVERIFY2(message.startsWith(location + QStringLiteral(": ")), qPrintable(message));
            QVERIFY2(message.contains(QLatin1String("corrupt")) || message.contains(QLatin1String("not an SQLite")),
                qPrintable(message));
        }
    }

    void connectionCutDuringUpload_data()
    {
        pgStages({ "Uploading: trial", "Uploading: call data", "Uploading: values", "Uploading: metadata",
            "Uploading: committing" });
    }
    void connectionCutDuringUpload()
    {
        QFETCH(QString, backend);
        QFETCH(QString, stage);
        const QString base = freshLocation(backend);
        QVERIFY2(!base.isEmpty(), NoServer);
        // The uploading connection is told apart from the watching one by its application name.
        const QString tag = QStringLiteral("parallax_fault_") + randomTag();
        const QString location = base + QStringLiteral(" application_name=") + tag;
        auto opened = Database::open(location);
        QVERIFY2(opened.ok(), why(opened).constData());
        Database& db = *opened.value();
        auto watching = Database::open(base);
        QVERIFY2(watching.ok(), why(watching).constData());
        auto& watcher = dynamic_cast<perfdb::SqlDatabase&>(*watching.value());
        const auto kept = mustLoad(dataPath(QStringLiteral("hatchet/tau-cpi-mpi")));
        const auto trial = mediumTrial();
        QVERIFY(kept && trial);
        Progress quiet;
        QVERIFY(db.uploadTrial(*kept, {}, quiet).ok());
        const auto before = tableCounts(watcher);
        const qint64 partitions = partitionTables(watcher);
        qint64 cut = 0;
        Progress progress([&](const QString& current, qint64, qint64) {
            if (current == stage && cut == 0)
                cut = terminate(watcher, tag);
        });
        const auto failed = db.uploadTrial(*trial, {}, progress);
        QCOMPARE(cut, qint64(1));
        QVERIFY(!failed.ok());
        const QString message = failed.error().toString();
        QVERIFY2(message.contains(QLatin1String("lost the connection to the PostgreSQL server")), qPrintable(message));
        QVERIFY2(message.startsWith(db.location() + QStringLiteral(": ")), qPrintable(message));
        // Nothing of it stored, not even a detached partition; the trial list is as it was.
        QVERIFY(tableCounts(watcher) == before);
        QCOMPARE(partitionTables(watcher), partitions);
        QCOMPARE(watching.value()->listTrials().value().size(), std::size_t(1));
        // The next upload works, on the same Database (it connects again) and whole.
        qint64 id = 0;
        const QString diff = roundTripDifference(db, *trial, {}, &id);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QCOMPARE(watching.value()->listTrials().value().size(), std::size_t(2));
    }

    void connectionCutDuringLoad_data()
    {
        pgStages({ "Loading: structure", "Loading: call data", "Loading: user events", "Loading: metadata" });
    }
    void connectionCutDuringLoad()
    {
        QFETCH(QString, backend);
        QFETCH(QString, stage);
        const QString base = freshLocation(backend);
        QVERIFY2(!base.isEmpty(), NoServer);
        const QString tag = QStringLiteral("parallax_fault_") + randomTag();
        auto opened = Database::open(base + QStringLiteral(" application_name=") + tag);
        QVERIFY2(opened.ok(), why(opened).constData());
        Database& db = *opened.value();
        auto watching = Database::open(base);
        QVERIFY2(watching.ok(), why(watching).constData());
        auto& watcher = dynamic_cast<perfdb::SqlDatabase&>(*watching.value());
        const auto trial = mediumTrial();
        Progress quiet;
        const auto id = db.uploadTrial(*trial, {}, quiet);
        QVERIFY2(id.ok(), why(id).constData());
        // Every connection of the loading client ends (its helper for the parallel reads too), as
        // when the server restarts: the load fails and gives no trial.
        qint64 cut = 0;
        Progress progress([&](const QString& current, qint64, qint64) {
            if (current == stage && cut == 0)
                cut = terminate(watcher, tag);
        });
        const auto failed = db.loadTrial(id.value(), progress);
        QVERIFY(cut >= 1);
        QVERIFY(!failed.ok());
        const QString message = failed.error().toString();
        QVERIFY2(message.contains(QLatin1String("lost the connection to the PostgreSQL server")), qPrintable(message));
        // The next load, on the same Database, gives the whole trial; the list is unchanged.
        const auto loaded = db.loadTrial(id.value(), quiet);
        QVERIFY2(loaded.ok(), why(loaded).constData());
        QCOMPARE(modelDifference(*trial, *loaded.value()), QString());
        QCOMPARE(watching.value()->listTrials().value().size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestPerfdbFaults)
#include "tst_perfdb_faults.moc"
