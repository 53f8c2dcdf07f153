// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// PostgreSQL specifics: connection strings as libpq reads them, passwords never shown (a role that
// must give one), database and schema names that need quoting.
#include "perfdb/databaselocation.h"
#include "perfdb/postgresdatabase.h"
#include "tests/common/testutil.h"
#include "tests/perfdb/perfdbfixture.h"

#include <QScopeGuard>
#include <QUrl>
#include <libpq-fe.h>

using namespace parallax;
using namespace parallax::test;
using perfdb::Database;
using perfdb::SqlDatabase;

namespace {

/// libpq's own reading of a connection string: keyword -> value for every option given.
std::map<QString, QString> libpqOptions(const QString& connection)
{
    std::map<QString, QString> out;
    char* error = nullptr;
    PQconninfoOption* options = PQconninfoParse(connection.toUtf8().constData(), &error);
    if (!options) {
        out[QStringLiteral("<error>")] = QString::fromUtf8(error ? error : "out of memory");
        PQfreemem(error);
        return out;
    }
    for (const PQconninfoOption* o = options; o->keyword; ++o)
        if (o->val)
            out[QString::fromUtf8(o->keyword)] = QString::fromUtf8(o->val);
    PQconninfoFree(options);
    return out;
}

/// Runs one statement as the test server's superuser; returns libpq's error or an empty string.
QString superuserExec(const QString& server, const QString& sql)
{
    const QByteArray conninfo = server.toUtf8();
    const char* keywords[] = { "dbname", nullptr };
    const char* values[] = { conninfo.constData(), nullptr };
    PGconn* conn = PQconnectdbParams(keywords, values, 1);
    QString error;
    if (PQstatus(conn) != CONNECTION_OK) {
        error = QString::fromUtf8(PQerrorMessage(conn));
    } else {
        PGresult* result = PQexec(conn, sql.toUtf8().constData());
        if (PQresultStatus(result) != PGRES_COMMAND_OK)
            error = QString::fromUtf8(PQresultErrorMessage(result));
        PQclear(result);
    }
    PQfinish(conn);
    return error;
}

} // namespace

class TestPerfdbPostgres : public PerfdbFixture {
    Q_OBJECT

private Q_SLOTS:
    void locations()
    {
        QVERIFY(perfdb::isPostgresLocation(QStringLiteral("postgresql://u@h:5432/db")));
        QVERIFY(perfdb::isPostgresLocation(QStringLiteral("postgres://h/db")));
        QVERIFY(perfdb::isPostgresLocation(QStringLiteral("host=/tmp port=5432 dbname=x")));
        QVERIFY(!perfdb::isPostgresLocation(QStringLiteral("/home/u/a=b.sqlite")));
        QVERIFY(!perfdb::isPostgresLocation(QStringLiteral("sqlite:perf.db")));
        QVERIFY(!perfdb::isPostgresLocation(QString()));
        using perfdb::PostgresDatabase;
        // libpq parses (URI or keyword/value, percent-decoding, quoting); Parallax edits the options and
        // writes keyword/value strings. What libpq reads back is what was meant.
        const QString uri = QStringLiteral("postgresql://me:s3cret@host:5432/db");
        QCOMPARE(
            PostgresDatabase::withoutPassword(uri), QStringLiteral("user='me' dbname='db' host='host' port='5432'"));
        QCOMPARE(PostgresDatabase::withoutPassword(QStringLiteral("postgresql://me@host/db?password=s3cret&port=1")),
            QStringLiteral("user='me' dbname='db' host='host' port='1'"));
        QCOMPARE(PostgresDatabase::withoutPassword(QStringLiteral("host=h password='a b' dbname=x")),
            QStringLiteral("dbname='x' host='h'"));
        QCOMPARE(PostgresDatabase::withoutPassword(QStringLiteral("postgresql://me:p%40ss%20word@/d%20b?host=%2Ftmp")),
            QStringLiteral("user='me' dbname='d b' host='/tmp'"));
        QCOMPARE(PostgresDatabase::withDatabase(
                     QStringLiteral("postgresql://p@/postgres?host=/tmp&port=5"), QStringLiteral("other")),
            QStringLiteral("user='p' host='/tmp' port='5' dbname='other'"));
        QCOMPARE(PostgresDatabase::withDatabase(QStringLiteral("host=/tmp"), QStringLiteral("o'x")),
            QStringLiteral("host='/tmp' dbname='o\\'x'"));
        QCOMPARE(libpqOptions(PostgresDatabase::withDatabase(QStringLiteral("host=/tmp dbname=a"),
                     QStringLiteral("O'x \\ \"y\" = z")))[QStringLiteral("dbname")],
            QStringLiteral("O'x \\ \"y\" = z"));
        QCOMPARE(PostgresDatabase::withSchema(QStringLiteral("postgresql://p@/db?host=/tmp"), QStringLiteral("s1")),
            QStringLiteral("user='p' dbname='db' host='/tmp' options='-csearch_path=\"s1\"'"));
        // A schema name with capitals, blanks, quotes and a backslash: quoted for search_path, blanks and
        // backslashes escaped for libpq's options; the user's own options are kept.
        const QString schema = QStringLiteral("My \"Odd\" Schema\\1");
        const auto options = libpqOptions(
            PostgresDatabase::withSchema(QStringLiteral("host=/tmp options='-c work_mem=64MB'"), schema));
        QCOMPARE(options.at(QStringLiteral("options")),
            QStringLiteral("-c work_mem=64MB -csearch_path=\"My\\ \"\"Odd\"\"\\ Schema\\\\1\""));
        // Nothing of a malformed string is shown (libpq cannot tell where its password is).
        QCOMPARE(PostgresDatabase::withoutPassword(QStringLiteral("postgresql://me:se%zzcret@host/db")),
            QStringLiteral("(a malformed PostgreSQL connection string)"));
        // libpq's parse errors quote the bad token; it may be a password, so it is elided.
        for (const QString& bad :
            { QStringLiteral("host=/tmp user=me Secr3t-Word"), QStringLiteral("host=/tmp password='Secr3t-Word"),
                QStringLiteral("postgresql://me:Secr3t%zz-Word@h/db"),
                QStringLiteral("postgresql://me@h/db?password=Secr3t-Word&port=x%zz") }) {
            const auto opened = Database::open(bad);
            QVERIFY(!opened.ok());
            QVERIFY2(!opened.error().toString().contains(QLatin1String("Secr3t")), why(opened).constData());
            QVERIFY2(opened.error().toString().contains(QLatin1String("invalid PostgreSQL connection string")),
                why(opened).constData());
        }
        QCOMPARE(displayableLocation(uri), PostgresDatabase::withoutPassword(uri));
        QCOMPARE(displayableLocation(QStringLiteral("/tmp/p a.sqlite")), QStringLiteral("/tmp/p a.sqlite"));
    }

    void streamsAndFreshPartitions()
    {
        const QString location = freshLocation(QStringLiteral("postgresql"));
        QVERIFY2(!location.isEmpty(), NoServer);
        auto opened = Database::open(location);
        QVERIFY2(opened.ok(), why(opened).constData());
        auto& sql = dynamic_cast<SqlDatabase&>(*opened.value());
        // A stream's integers go into its SQL as literals, its text and doubles through settings:
        // values beyond 32 bits, negative ones and text with quotes all come back as given.
        sql.begin(false);
        {
            auto rows = sql.stream("SELECT CAST($1 AS BIGINT) + 1, $2, CAST($3 AS BIGINT), $4, $1",
                { qint64(5000000000), QStringLiteral("it's $1"), qint64(-7), 2.5 });
            QVERIFY(rows->next());
            QCOMPARE(rows->toInt(0), qint64(5000000001));
            QCOMPARE(rows->toText(1), QStringLiteral("it's $1"));
            QCOMPARE(rows->toInt(2), qint64(-7));
            QCOMPARE(rows->toDouble(3), 2.5);
            QCOMPARE(rows->toInt(4), qint64(5000000000));
            QVERIFY(!rows->next());
        }
        sql.rollback();
        // An upload leaves statistics of its partitions' keys, so that a load right after it
        // plans a whole-partition read with the real row count.
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        Progress progress;
        const auto id = opened.value()->uploadTrial(*trial, {}, progress);
        QVERIFY2(id.ok(), why(id).constData());
        const std::string suffix = "_t" + std::to_string(id.value());
        for (const auto& [table, key] :
            { std::pair { "timer_call_data", "id" }, std::pair { "timer_value", "timer_call_data" } }) {
            auto rows = sql.query("SELECT COUNT(*) FROM pg_stats WHERE tablename = $1 AND attname = $2",
                { QString::fromStdString(table + suffix), QString::fromLatin1(key) });
            QVERIFY(rows->next());
            QVERIFY2(rows->toInt(0) == 1, table);
        }
        auto rows = sql.query("SELECT reltuples FROM pg_class WHERE oid = to_regclass($1)",
            { QString::fromStdString("timer_call_data" + suffix) });
        QVERIFY(rows->next());
        QVERIFY(rows->toDouble(0) >= static_cast<double>(trial->cellCount()));
    }

    void passwordsNeverShown()
    {
        // A role that must give a password (test.sh's pg_hba.conf: trust for postgres only,
        // scram-sha-256 for every other role), owning a database of its own.
        QVERIFY2(!m_pgServer.isEmpty(), NoServer);
        using perfdb::PostgresDatabase;
        const QString tag = randomTag();
        const QString role = QStringLiteral("parallax_pw_") + tag;
        const QString database = QStringLiteral("parallax_pw_db_") + tag;
        const QString password = QStringLiteral("Right-Pw-") + tag;
        const QString wrong = QStringLiteral("Wr0ng-Secret-") + tag;
        QString error
            = superuserExec(m_pgServer, QStringLiteral("CREATE ROLE %1 LOGIN PASSWORD '%2'").arg(role, password));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        auto dropRole = qScopeGuard([&] {
            superuserExec(m_pgServer, QStringLiteral("DROP DATABASE IF EXISTS %1").arg(database));
            superuserExec(m_pgServer, QStringLiteral("DROP ROLE IF EXISTS %1").arg(role));
        });
        error = superuserExec(m_pgServer, QStringLiteral("CREATE DATABASE %1 OWNER %2").arg(database, role));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const auto server = libpqOptions(m_pgServer);
        const QString host = server.count(QStringLiteral("host")) ? server.at(QStringLiteral("host")) : QString();
        const QString port = server.count(QStringLiteral("port")) ? server.at(QStringLiteral("port")) : QString();
        auto asUri = [&](const QString& pw) {
            return QStringLiteral("postgresql://%1%2@/%3?host=%4&port=%5")
                .arg(role, pw.isEmpty() ? QString() : QLatin1Char(':') + QString::fromUtf8(QUrl::toPercentEncoding(pw)),
                    database, QString::fromUtf8(QUrl::toPercentEncoding(host)), port);
        };
        auto asKeywords = [&](const QString& pw) {
            return QStringLiteral("host='%1' port=%2 dbname=%3 user=%4%5")
                .arg(host, port, database, role, pw.isEmpty() ? QString() : QStringLiteral(" password='%1'").arg(pw));
        };
        auto refused = [&](const QString& location, const QString& secret, const char* how) {
            const auto opened = Database::open(location);
            if (opened.ok())
                return QStringLiteral("%1: a wrong password was accepted (the test server must require passwords for "
                                      "roles other than postgres, as test.sh's pg_hba.conf does)")
                    .arg(QLatin1String(how));
            const QString text = opened.error().toString();
            if (text.contains(secret))
                return QStringLiteral("%1: the error shows the password: %2").arg(QLatin1String(how), text);
            if (!text.contains(QLatin1String("password authentication failed")))
                return QStringLiteral("%1: unexpected error: %2").arg(QLatin1String(how), text);
            if (!text.contains(database))
                return QStringLiteral("%1: the error does not name the database: %2").arg(QLatin1String(how), text);
            return QString();
        };
        // Wrong passwords: in the URI, in a keyword string, and in PGPASSWORD.
        QString bad = refused(asUri(wrong), wrong, "URI");
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        bad = refused(asKeywords(wrong), wrong, "keyword string");
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        {
            qputenv("PGPASSWORD", wrong.toUtf8());
            auto unset = qScopeGuard([] { qunsetenv("PGPASSWORD"); });
            bad = refused(asUri(QString()), wrong, "PGPASSWORD");
            QVERIFY2(bad.isEmpty(), qPrintable(bad));
        }
        // A malformed string with a password in it: libpq's parse error quotes the bad token.
        const QString malformed
            = asUri(QString()).replace(QStringLiteral("@/"), QStringLiteral(":Pw%zz") + wrong + QStringLiteral("@/"));
        const auto broken = Database::open(malformed);
        QVERIFY(!broken.ok());
        QVERIFY2(!broken.error().toString().contains(wrong), why(broken).constData());
        QVERIFY2(broken.error().toString().contains(QLatin1String("percent-encoded")), why(broken).constData());

        // The right password, each way: the location shown and recorded has no password.
        Progress progress;
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-openmp-2thread")));
        QVERIFY(trial);
        for (const QString& location : { asUri(password), asKeywords(password) }) {
            auto opened = Database::open(location);
            QVERIFY2(opened.ok(), why(opened).constData());
            Database& db = *opened.value();
            QVERIFY2(!db.location().contains(password), qPrintable(db.location()));
            QCOMPARE(libpqOptions(db.location()).at(QStringLiteral("dbname")), database);
            QCOMPARE(libpqOptions(db.location()).count(QStringLiteral("password")), std::size_t(0));
            QVERIFY(!displayableLocation(location).contains(password));
            const auto id = db.uploadTrial(*trial, {}, progress);
            QVERIFY2(id.ok(), why(id).constData());
            const auto loaded = db.loadTrial(id.value(), progress);
            QVERIFY2(loaded.ok(), why(loaded).constData());
            QVERIFY(!loaded.value()->provenance().source.contains(password));
            // An error after connecting names the location without the password too.
            const auto missing = db.loadTrial(id.value() + 1000, progress);
            QVERIFY(!missing.ok());
            QVERIFY2(!missing.error().toString().contains(password), why(missing).constData());
        }
        {
            qputenv("PGPASSWORD", password.toUtf8());
            auto unset = qScopeGuard([] { qunsetenv("PGPASSWORD"); });
            auto opened = Database::open(asUri(QString()));
            QVERIFY2(opened.ok(), why(opened).constData());
            QVERIFY(!opened.value()->location().contains(password));
        }
    }

    void quotedDatabaseAndSchemaNames()
    {
        // A database and a schema whose names need quoting everywhere: capitals, blanks, quotes.
        QVERIFY2(!m_pgServer.isEmpty(), NoServer);
        using perfdb::PostgresDatabase;
        const QString tag = randomTag();
        const QString databaseName = QStringLiteral("Parallax \"Odd\" DB 'x' ") + tag;
        const QString schemaName = QStringLiteral("My \"Schema\" With Blanks 'q' \\ ") + tag;
        const auto created = PostgresDatabase::createDatabase(m_pgServer, databaseName);
        QVERIFY2(created.ok(), why(created).constData());
        // Dropped when the test ends, after every connection below is closed.
        const auto drop = qScopeGuard([&] {
            const auto dropped = PostgresDatabase::dropDatabase(m_pgServer, databaseName);
            if (!dropped.ok())
                qWarning("%s", why(dropped).constData());
        });
        const QString database = PostgresDatabase::withDatabase(m_pgServer, databaseName);
        const auto schema = PostgresDatabase::createSchema(database, schemaName);
        QVERIFY2(schema.ok(), why(schema).constData());
        const QString location = PostgresDatabase::withSchema(database, schemaName);

        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        Progress progress;
        perfdb::UploadOptions options;
        options.application = QStringLiteral("quoted names");
        std::optional<qint64> id;
        {
            auto opened = Database::open(location);
            QVERIFY2(opened.ok(), why(opened).constData());
            const auto stored = opened.value()->uploadTrial(*trial, options, progress);
            QVERIFY2(stored.ok(), why(stored).constData());
            id = stored.value();
            auto& sql = dynamic_cast<SqlDatabase&>(*opened.value());
            auto rows = sql.query("SELECT current_database(), current_schema()");
            QVERIFY(rows->next());
            QCOMPARE(rows->toText(0), databaseName);
            QCOMPARE(rows->toText(1), schemaName);
            rows = sql.query("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = $1 AND table_name = "
                             "'trial'",
                { schemaName });
            QVERIFY(rows->next());
            QCOMPARE(rows->toInt(0), qint64(1));
            // Nothing of Parallax's went to public.
            rows = sql.query("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'");
            QVERIFY(rows->next());
            QCOMPARE(rows->toInt(0), qint64(0));
        }
        // Loaded back through a fresh connection from the same location.
        auto other = Database::open(location);
        QVERIFY2(other.ok(), why(other).constData());
        const auto loaded = other.value()->loadTrial(*id, progress);
        QVERIFY2(loaded.ok(), why(loaded).constData());
        const QString diff = modelDifference(*trial, *loaded.value());
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        const auto listed = other.value()->trialInfo(*id);
        QVERIFY2(listed.ok(), why(listed).constData());
        QCOMPARE(listed.value().application, options.application);
    }
};

QTEST_GUILESS_MAIN(TestPerfdbPostgres)
#include "tst_perfdb_postgres.moc"
