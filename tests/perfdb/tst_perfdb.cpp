// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The experiment database on both backends: every test has a "sqlite" row (a temporary file) and a
// "postgresql" row (a fresh database on the server PARALLAX_TEST_PG_URI names; ./test.sh starts one).
#include "algebra/operations.h"
#include "algebra/presence.h"
#include "algebra/semanticmodel.h"
#include "algebra/semanticprofile.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/synth/synth.h"
#include "perfdb/database.h"
#include "perfdb/databaselocation.h"
#include "perfdb/dbexception.h"
#include "perfdb/postgresdatabase.h"
#include "perfdb/sqldatabase.h"
#include "tests/common/testutil.h"

#include <QRandomGenerator>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QUrl>
#include <atomic>
#include <cmath>
#include <libpq-fe.h>
#include <limits>
#include <map>
#include <thread>

using namespace parallax;
using namespace parallax::test;
using perfdb::Database;
using perfdb::SqlDatabase;
using perfdb::SqlParams;

namespace {

/// The error of a result, or nothing (QVERIFY2 evaluates its message even when the check passes).
template <typename T> QByteArray why(const perfdb::DbResult<T>& result)
{
    return result.ok() ? QByteArray() : result.error().toString().toUtf8();
}

const char* const NoServer = "PARALLAX_TEST_PG_URI is not set: run ./test.sh, which starts a PostgreSQL server";

QStringList groupNames(const Trial& trial, const IntervalEvent& event)
{
    QStringList out;
    for (GroupId g : event.groups)
        out << trial.groupName(g);
    return out;
}

QString eventName(const Trial& trial, EventId e)
{
    return e.isValid() ? trial.event(e).name : QStringLiteral("<none>");
}

QList<QPair<QString, QString>> metadataOf(const Trial& trial, const std::vector<MetadataEntry>& entries)
{
    QList<QPair<QString, QString>> out;
    for (const MetadataEntry& entry : entries)
        out.append({ trial.strings().get(entry.key), trial.strings().get(entry.value) });
    return out;
}

bool same(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i]))))
            return false;
    return true;
}

/// Turns a fresh Parallax database into a plain TAUdb, as TAU's own tools create one: TAUdb's
/// tables (unpartitioned on PostgreSQL), static rows and views, and nothing of Parallax.
/// Returns what went wrong, or an empty string.
QString makePlainTaudb(perfdb::SqlDatabase& db)
{
    try {
        for (const char* view : { "interval_location_profile", "interval_total_summary", "interval_mean_summary",
                 "interval_event_value", "interval_event", "atomic_total_summary", "atomic_mean_summary",
                 "atomic_location_profile", "atomic_event_value", "atomic_event" })
            db.execScript(QByteArray("DROP VIEW IF EXISTS ") + view);
        for (const char* table :
            { "parallax_trial_semantic_model", "parallax_semantic_model", "parallax_counter_deviation",
                "parallax_counter_value", "parallax_counter", "parallax_event", "parallax_metric", "parallax_trial",
                "parallax_schema_version", "analysis_result", "analysis_settings", "taudb_view_parameter", "taudb_view",
                "secondary_metadata", "primary_metadata", "counter_value", "counter", "timer_value", "timer_call_data",
                "time_range", "timer_callpath", "timer_parameter", "timer_group", "timer", "metric", "thread", "trial",
                "derived_thread_type", "data_source", "schema_version" })
            db.execScript(QByteArray("DROP TABLE IF EXISTS ") + table);
        const bool sqlite = db.dialect() == perfdb::SqlDatabase::Dialect::Sqlite;
        db.execScript(
            perfdb::SqlDatabase::script(sqlite ? QStringLiteral("sqlite.sql") : QStringLiteral("postgresql.sql")));
        db.execScript(perfdb::SqlDatabase::script(QStringLiteral("static-rows.sql")));
        db.createCompatibilityViews();
    } catch (const perfdb::DbException& e) {
        return e.message();
    }
    return {};
}

/// Everything a trial holds, compared exactly; returns the first difference or an empty string.
QString modelDifference(const Trial& a, const Trial& b)
{
    auto differs = [](const QString& what) { return what; };
    if (a.name() != b.name())
        return differs(QStringLiteral("trial name %1 != %2").arg(a.name(), b.name()));
    if (a.metricCount() != b.metricCount())
        return differs(QStringLiteral("metric count"));
    for (std::size_t m = 0; m < a.metricCount(); ++m) {
        const Metric& x = a.metric(MetricId(m));
        const Metric& y = b.metric(MetricId(m));
        if (x.name != y.name || x.unit != y.unit || x.derived != y.derived || x.expression != y.expression
            || x.higherIsBetter != y.higherIsBetter)
            return differs(QStringLiteral("metric %1: %2 [%3] != %4 [%5]").arg(m).arg(x.name, x.unit, y.name, y.unit));
    }
    if (a.threads() != b.threads())
        return differs(QStringLiteral("threads"));
    if (a.groupCount() != b.groupCount())
        return differs(QStringLiteral("group count %1 != %2").arg(a.groupCount()).arg(b.groupCount()));
    for (std::size_t g = 0; g < a.groupCount(); ++g)
        if (a.groupName(GroupId(g)) != b.groupName(GroupId(g)))
            return differs(QStringLiteral("group %1").arg(g));
    if (a.eventCount() != b.eventCount())
        return differs(QStringLiteral("event count %1 != %2").arg(a.eventCount()).arg(b.eventCount()));
    for (std::size_t e = 0; e < a.eventCount(); ++e) {
        const IntervalEvent& x = a.event(EventId(e));
        const IntervalEvent& y = b.event(EventId(e));
        if (x.name != y.name)
            return differs(QStringLiteral("event %1: %2 != %3").arg(e).arg(x.name, y.name));
        if (x.rawName != y.rawName)
            return differs(QStringLiteral("event %1: raw name %2 != %3").arg(x.name, x.rawName, y.rawName));
        if (groupNames(a, x) != groupNames(b, y))
            return differs(QStringLiteral("event %1: groups %2 != %3")
                               .arg(x.name, groupNames(a, x).join(u'|'), groupNames(b, y).join(u'|')));
        if (x.depth != y.depth || eventName(a, x.parent) != eventName(b, y.parent)
            || eventName(a, x.leaf) != eventName(b, y.leaf))
            return differs(QStringLiteral("event %1: depth, parent or leaf").arg(x.name));
    }
    for (std::size_t t = 0; t < a.threadCount(); ++t) {
        const IntervalRow& x = a.row(ThreadIndex(t));
        const IntervalRow& y = b.row(ThreadIndex(t));
        const QString where = a.threadKey(ThreadIndex(t)).toString();
        if (x.events != y.events)
            return differs(QStringLiteral("thread %1: present events").arg(where));
        if (!same(x.calls, y.calls) || !same(x.subrs, y.subrs))
            return differs(QStringLiteral("thread %1: calls or subrs").arg(where));
        if (!same(x.excl, y.excl) || !same(x.incl, y.incl))
            return differs(QStringLiteral("thread %1: exclusive or inclusive values").arg(where));
        if (!same(x.exclSqr, y.exclSqr))
            return differs(QStringLiteral("thread %1: SumExclSqr").arg(where));
    }
    if (a.atomicEventCount() != b.atomicEventCount())
        return differs(QStringLiteral("user event count"));
    for (std::size_t u = 0; u < a.atomicEventCount(); ++u) {
        const AtomicEvent& x = a.atomicEvent(AtomicEventId(u));
        const AtomicEvent& y = b.atomicEvent(AtomicEventId(u));
        if (x.name != y.name || x.rawName != y.rawName || x.context != y.context)
            return differs(QStringLiteral("user event %1: %2 != %3").arg(u).arg(x.name, y.name));
    }
    for (std::size_t t = 0; t < a.threadCount(); ++t) {
        const AtomicRow& x = a.atomicRow(ThreadIndex(t));
        const AtomicRow& y = b.atomicRow(ThreadIndex(t));
        if (x.events != y.events || !same(x.count, y.count) || !same(x.max, y.max) || !same(x.min, y.min)
            || !same(x.mean, y.mean) || !same(x.sumSquares, y.sumSquares))
            return differs(QStringLiteral("thread %1: user event values").arg(a.threadKey(ThreadIndex(t)).toString()));
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!same({ x.stddev(i) }, { y.stddev(i) }))
                return differs(QStringLiteral("thread %1: user event %2 standard deviation %3 != %4")
                                   .arg(a.threadKey(ThreadIndex(t)).toString())
                                   .arg(i)
                                   .arg(x.stddev(i))
                                   .arg(y.stddev(i)));
    }
    if (metadataOf(a, a.metadata()) != metadataOf(b, b.metadata()))
        return differs(QStringLiteral("trial-wide metadata"));
    for (std::size_t t = 0; t < a.threadCount(); ++t)
        if (metadataOf(a, a.threadMetadata(ThreadIndex(t))) != metadataOf(b, b.threadMetadata(ThreadIndex(t))))
            return differs(QStringLiteral("metadata of thread %1").arg(a.threadKey(ThreadIndex(t)).toString()));
    return {};
}

/// Strings that break naive SQL, COPY text format or encodings.
const QStringList OddStrings = {
    QStringLiteral("it's \"quoted\""),
    QStringLiteral("x'; DROP TABLE trial; --"),
    QStringLiteral("semi;colon;"),
    QStringLiteral("back\\slash \\N \\. \\\\t"),
    QStringLiteral("tab\there"),
    QStringLiteral("new\nline\r\nand CR"),
    QStringLiteral("$1 $2 ? :name @p"),
    QString::fromUtf8("non-ASCII: Größe, 漢字, 😀"),
    QStringLiteral("%_ like wildcards"),
};

/// A multi-metric trial with odd names everywhere and the awkward cases of the model: a present
/// cell with 0 calls, fractional calls, extreme doubles, SumExclSqr on one thread only, a call
/// path whose prefix and middle component are not events, per-thread and trial-wide metadata.
std::shared_ptr<Trial> oddTrial()
{
    TrialBuilder builder(QStringLiteral("odd ") + OddStrings.join(u' '));
    builder.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
    builder.addMetric(Metric(OddStrings[1], QStringLiteral("count")));
    Metric derived(QStringLiteral("(PAPI/TIME)"), QString());
    derived.derived = true;
    derived.expression = QStringLiteral("\"PAPI\" / TIME");
    derived.higherIsBetter = true;
    builder.addMetric(derived);
    builder.addGroup(QStringLiteral("unused group ") + OddStrings[3]);

    std::vector<EventId> events;
    events.push_back(builder.addEvent(QStringLiteral(".TAU application"), { QStringLiteral("TAU_DEFAULT") }));
    for (const QString& odd : OddStrings)
        events.push_back(builder.addEvent(odd, { QStringLiteral("TAU_USER"), odd }, odd + QStringLiteral("  ")));
    events.push_back(builder.addEvent(QStringLiteral("int f(int) C [{f.c} {3,1}-{9,2}] [ <n> = <100>, <m> = <x> ]"),
        { QStringLiteral("TAU_PARAM"), QStringLiteral("TAU_USER") }));
    events.push_back(builder.addEvent(QStringLiteral(".TAU application => ") + OddStrings[1],
        { QStringLiteral("TAU_CALLPATH"), QStringLiteral("TAU_USER") },
        QStringLiteral(".TAU application   => ") + OddStrings[1]));
    // Neither ".TAU application => missing middle" nor "missing middle" is an event.
    events.push_back(builder.addEvent(
        QStringLiteral(".TAU application => missing middle => ") + OddStrings[7], { QStringLiteral("TAU_CALLPATH") }));

    const std::vector<AtomicEventId> userEvents { builder.addAtomicEvent(OddStrings[0]),
        builder.addAtomicEvent(OddStrings[5] + QStringLiteral(" : .TAU application => ") + OddStrings[1]),
        builder.addAtomicEvent(QStringLiteral("Message size"), QStringLiteral("Message  size ")) };

    const std::vector<ThreadKey> keys { { 0, 0, 0 }, { 0, 0, 3 }, { 0, 2, 1 }, { 7, 0, 0 } };
    std::vector<ThreadIndex> threads;
    for (const ThreadKey& key : keys)
        threads.push_back(builder.addThread(key));
    const double specials[]
        = { 0.0, 5e-324, 1e-300, 0.1 + 0.2, 1.7976931348623157e308, -2.5, 123456789.123456789, 1.0 / 3.0 };
    std::vector<IntervalRow> rows(threads.size());
    for (std::size_t t = 0; t < threads.size(); ++t) {
        IntervalRow& row = rows[t];
        for (std::size_t e = 0; e < events.size(); ++e) {
            if ((e + t) % 5 == 4)
                continue; // absent cells
            row.events.push_back(events[e]);
            row.calls.push_back(e == 2 && t == 1 ? 0.0 : static_cast<double>(e) + 0.5 * static_cast<double>(t));
            row.subrs.push_back(static_cast<double>(t * e) / 7.0);
        }
        const std::size_t n = row.events.size();
        for (std::size_t m = 0; m < 3; ++m)
            for (std::size_t i = 0; i < n; ++i) {
                row.excl.push_back(specials[(i + m + t) % std::size(specials)]);
                row.incl.push_back(1000.0 * static_cast<double>(m + 1) + static_cast<double>(i) / 3.0);
            }
        if (t == 2)
            for (std::size_t i = 0; i < 3 * n; ++i)
                row.exclSqr.push_back(static_cast<double>(i) * 1.5e10 + 0.25);
    }
    builder.setIntervalRows(std::move(rows));
    for (std::size_t t = 0; t < threads.size(); ++t) {
        for (std::size_t u = 0; u < userEvents.size(); ++u) {
            if (t == 3 && u == 1)
                continue;
            const double n = static_cast<double>(t + u + 1);
            builder.addAtomic(threads[t], userEvents[u], n, 4096.5 + static_cast<double>(t), 1.0 / 3.0,
                72.875 + static_cast<double>(u), 16808256.0 / 3.0 + static_cast<double>(t));
        }
    }
    builder.addMetadata(OddStrings[1], OddStrings[4]);
    builder.addMetadata(QStringLiteral("TAU_CALLPATH_DEPTH"), QStringLiteral("100"));
    builder.addMetadata(OddStrings[7], QString());
    builder.addMetadata(QStringLiteral("Shared"), QStringLiteral("trial-wide"));
    for (std::size_t t = 0; t < threads.size(); ++t) {
        builder.addThreadMetadata(threads[t], QStringLiteral("pid"), QString::number(4000 + t));
        builder.addThreadMetadata(threads[t], OddStrings[5], OddStrings[(t + 2) % OddStrings.size()]);
        if (t == 1)
            builder.addThreadMetadata(threads[t], QStringLiteral("Shared"), QStringLiteral("per-thread"), true);
    }
    return builder.build();
}

/// A small semantic model over tau2/tau-profiles-wrap-params (docs/SEMANTICS.md 5.6): the parameterised
/// dgemm timers by size under "BLAS calls", the MPI group as one entity. `extra` adds version 2's
/// association for foo().
QByteArray wrapModel(bool extra)
{
    QByteArray json = R"({
  "format": "parallax-semantic-model", "version": 1, "name": "dgemm sizes", "source": "flat",
  "entities": [
    {"id": "blas", "kind": "library", "name": "BLAS calls"},
    {"id": "mpi", "kind": "layer", "name": "MPI"})";
    if (extra)
        json += R"(,
    {"id": "user", "kind": "layer", "name": "user code"})";
    json += R"(
  ],
  "associations": [
    {"id": "sizes", "select": {"regex": ".*__wrap_dgemm.*<size> = <(\\d+)>.*"},
     "target": {"template": {"id": "dgemm:{1}", "kind": "call size", "name": "dgemm n={1}", "parent": "blas",
                             "attrs": {"size": "{1}"}}},
     "policy": "DIRECT"},
    {"id": "mpi", "select": {"group": "MPI"}, "target": "mpi", "policy": "DIRECT"})";
    if (extra)
        json += R"(,
    {"id": "foo", "select": {"regex": "int foo\\(int\\).*"}, "target": "user", "policy": "DIRECT"})";
    json += R"(
  ]
}
)";
    return json;
}

/// Parses a stored model and attributes a trial with it; null (and a warning) on any error.
semantic::ProfilePtr attributeStored(const QByteArray& json, const TrialPtr& trial)
{
    const auto parsed = semantic::parseModel(json, QStringLiteral("stored model"));
    if (const auto* error = std::get_if<semantic::ModelError>(&parsed)) {
        qWarning("%s", qPrintable(error->toString()));
        return nullptr;
    }
    const auto profile = semantic::attribute(std::get<semantic::Model>(parsed), trial);
    if (const auto* error = std::get_if<semantic::AttributionError>(&profile)) {
        qWarning("%s", qPrintable(error->message));
        return nullptr;
    }
    return std::get<semantic::ProfilePtr>(profile);
}

/// Two semantic profiles of equal trials, compared exactly: the same entities (by id) with the same
/// own, roll-up, calls and subroutines on every thread and metric. Returns the first difference.
QString profileDifference(const semantic::SemanticProfile& a, const semantic::SemanticProfile& b)
{
    if (a.entities().size() != b.entities().size())
        return QStringLiteral("entity count %1 != %2").arg(a.entities().size()).arg(b.entities().size());
    if (a.threadCount() != b.threadCount() || a.metricCount() != b.metricCount())
        return QStringLiteral("threads or metrics");
    for (std::size_t i = 0; i < a.entities().size(); ++i) {
        const int r = static_cast<int>(i);
        const QString& id = a.entity(r).id;
        const int s = b.findEntity(id);
        if (s < 0)
            return QStringLiteral("entity %1 missing").arg(id);
        if (a.entity(r).name != b.entity(s).name)
            return QStringLiteral("entity %1: name").arg(id);
        for (std::size_t t = 0; t < a.threadCount(); ++t) {
            const ThreadIndex th(t);
            if (a.calls(r, th) != b.calls(s, th) || a.subroutines(r, th) != b.subroutines(s, th))
                return QStringLiteral("entity %1 thread %2: calls or subrs").arg(id).arg(t);
            for (std::size_t m = 0; m < a.metricCount(); ++m) {
                const MetricId mi(m);
                if (a.own(r, th, mi) != b.own(s, th, mi) || a.roll(r, th, mi) != b.roll(s, th, mi))
                    return QStringLiteral("entity %1 thread %2 metric %3: own %4/%5, roll %6/%7")
                        .arg(id)
                        .arg(t)
                        .arg(m)
                        .arg(a.own(r, th, mi))
                        .arg(b.own(s, th, mi))
                        .arg(a.roll(r, th, mi))
                        .arg(b.roll(s, th, mi));
            }
        }
    }
    return {};
}

const char* const Samples[] = { "tau2/tau-profiles-callpath-cpi-4rank", "tau2/tau-profiles-workflow-xmain-8rank",
    "tau2/tau-profiles-openmp-2thread", "tau2/tau-profiles-wrap-params", "cubelib/test/test28/profile1",
    "cubelib/test/test28/profile2", "hatchet/tau-cpi-mpi", "tau2/ppk/ring-2rank.ppk", "tau2/ppk/ring-8rank.ppk",
    "tau2/ppk/gromacs-like-loadimbalance-8rank.ppk", "tau2/ppk/xgc-5metrics-16rank.ppk",
    "tau2/ppk/phases-callpath-1thread.ppk", "tau2/ppk/matmult-openmp-24thread-samples.ppk",
    "tau2/ppk/wrf-callpath-16rank.ppk" };

} // namespace

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

class TestPerfdb : public QObject {
    Q_OBJECT

private:
    /// A new empty database for one test: a temporary SQLite file, or CREATE DATABASE on the server.
    QString freshLocation(const QString& backend);
    QString m_pgServer;
    QString m_pgPrefix;
    QStringList m_pgDatabases;
    QTemporaryDir m_temp;
    int m_count = 0;

    static void backends();
    static std::map<QString, qint64> tableCounts(SqlDatabase& db);

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void locations();
    void passwordsNeverShown();
    void quotedDatabaseAndSchemaNames();
    void createsSchema_data() { backends(); }
    void createsSchema();
    void roundTripSamples_data();
    void roundTripSamples();
    void roundTripOddNames_data() { backends(); }
    void roundTripOddNames();
    void roundTripSynthetic_data() { backends(); }
    void roundTripSynthetic();
    void roundTripAlgebraResults_data() { backends(); }
    void roundTripAlgebraResults();
    void rollbackOnFailure_data() { backends(); }
    void rollbackOnFailure();
    void rollbackOnCancel_data() { backends(); }
    void rollbackOnCancel();
    void refusesNewerSchema_data() { backends(); }
    void refusesNewerSchema();
    void migratesOlderSchema_data() { backends(); }
    void migratesOlderSchema();
    void migratesVersion1WithTrials_data() { backends(); }
    void migratesVersion1WithTrials();
    void compatibilityViews_data() { backends(); }
    void compatibilityViews();
    void foreignTaudb_data() { backends(); }
    void foreignTaudb();
    void taudbSqliteVariant();
    void concurrentUploads_data() { backends(); }
    void concurrentUploads();
    void manage_data() { backends(); }
    void manage();
    void views_data() { backends(); }
    void views();
    void injectionInFilters_data() { backends(); }
    void injectionInFilters();
    void semanticModelVersions_data() { backends(); }
    void semanticModelVersions();
    void semanticModelAttachments_data() { backends(); }
    void semanticModelAttachments();
    void migratesVersion2WithTrial_data() { backends(); }
    void migratesVersion2WithTrial();
    void semanticModelInForeignTaudb_data() { backends(); }
    void semanticModelInForeignTaudb();
    void readableByTau_data() { backends(); }
    void readableByTau();
    void migratesVersion3WithTrials_data() { backends(); }
    void migratesVersion3WithTrials();
};

#define OPEN_FRESH(db)                                                                                                 \
    QFETCH(QString, backend);                                                                                          \
    const QString location = freshLocation(backend);                                                                   \
    QVERIFY2(!location.isEmpty(), NoServer);                                                                           \
    auto opened_##db = Database::open(location);                                                                       \
    QVERIFY2(opened_##db.ok(), why(opened_##db).constData());                                                          \
    Database& db = *opened_##db.value();                                                                               \
    SqlDatabase& sql_##db = dynamic_cast<SqlDatabase&>(db);                                                            \
    (void)sql_##db

void TestPerfdb::backends()
{
    QTest::addColumn<QString>("backend");
    QTest::newRow("sqlite") << QStringLiteral("sqlite");
    QTest::newRow("postgresql") << QStringLiteral("postgresql");
}

void TestPerfdb::initTestCase()
{
    QVERIFY(m_temp.isValid());
    m_pgServer = qEnvironmentVariable("PARALLAX_TEST_PG_URI");
    m_pgPrefix
        = QStringLiteral("parallax_test_%1").arg(QRandomGenerator::system()->generate(), 8, 16, QLatin1Char('0'));
}

void TestPerfdb::cleanupTestCase()
{
    for (const QString& name : std::as_const(m_pgDatabases)) {
        const auto dropped = perfdb::PostgresDatabase::dropDatabase(m_pgServer, name);
        if (!dropped.ok())
            qWarning("%s", why(dropped).constData());
    }
}

QString TestPerfdb::freshLocation(const QString& backend)
{
    ++m_count;
    if (backend == QLatin1String("sqlite"))
        return m_temp.filePath(QStringLiteral("test%1.sqlite").arg(m_count));
    if (m_pgServer.isEmpty())
        return {};
    // One database for the run (dropped at the end), one schema in it per test: schemas are cheap
    // to make, while each DROP DATABASE costs a checkpoint.
    using perfdb::PostgresDatabase;
    if (m_pgDatabases.isEmpty()) {
        const auto created = PostgresDatabase::createDatabase(m_pgServer, m_pgPrefix);
        if (!created.ok()) {
            qWarning("%s", qPrintable(created.error().toString()));
            return {};
        }
        m_pgDatabases.append(m_pgPrefix);
    }
    const QString database = PostgresDatabase::withDatabase(m_pgServer, m_pgPrefix);
    const QString schema = QStringLiteral("test_%1").arg(m_count);
    const auto created = PostgresDatabase::createSchema(database, schema);
    if (!created.ok()) {
        qWarning("%s", qPrintable(created.error().toString()));
        return {};
    }
    return PostgresDatabase::withSchema(database, schema);
}

std::map<QString, qint64> TestPerfdb::tableCounts(SqlDatabase& db)
{
    static const char* const tables[] = { "trial", "thread", "metric", "timer", "timer_group", "timer_parameter",
        "timer_callpath", "time_range", "timer_call_data", "timer_value", "counter", "counter_value",
        "primary_metadata", "secondary_metadata", "taudb_view", "taudb_view_parameter", "parallax_trial",
        "parallax_metric", "parallax_event", "parallax_counter", "parallax_counter_deviation",
        "parallax_semantic_model", "parallax_trial_semantic_model" };
    std::map<QString, qint64> counts;
    for (const char* table : tables) {
        if (!db.tableExists(table))
            continue;
        auto rows = db.query(std::string("SELECT COUNT(*) FROM ") + table);
        counts[QString::fromLatin1(table)] = rows->next() ? rows->toInt(0) : -1;
    }
    return counts;
}

void TestPerfdb::locations()
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
    QCOMPARE(PostgresDatabase::withoutPassword(uri), QStringLiteral("user='me' dbname='db' host='host' port='5432'"));
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
    QCOMPARE(libpqOptions(PostgresDatabase::withDatabase(
                 QStringLiteral("host=/tmp dbname=a"), QStringLiteral("O'x \\ \"y\" = z")))[QStringLiteral("dbname")],
        QStringLiteral("O'x \\ \"y\" = z"));
    QCOMPARE(PostgresDatabase::withSchema(QStringLiteral("postgresql://p@/db?host=/tmp"), QStringLiteral("s1")),
        QStringLiteral("user='p' dbname='db' host='/tmp' options='-csearch_path=\"s1\"'"));
    // A schema name with capitals, blanks, quotes and a backslash: quoted for search_path, blanks and
    // backslashes escaped for libpq's options; the user's own options are kept.
    const QString schema = QStringLiteral("My \"Odd\" Schema\\1");
    const auto options
        = libpqOptions(PostgresDatabase::withSchema(QStringLiteral("host=/tmp options='-c work_mem=64MB'"), schema));
    QCOMPARE(options.at(QStringLiteral("options")),
        QStringLiteral("-c work_mem=64MB -csearch_path=\"My\\ \"\"Odd\"\"\\ Schema\\\\1\""));
    // Nothing of a malformed string is shown (libpq cannot tell where its password is).
    QCOMPARE(PostgresDatabase::withoutPassword(QStringLiteral("postgresql://me:se%zzcret@host/db")),
        QStringLiteral("(a malformed PostgreSQL connection string)"));
    // libpq's parse errors quote the bad token; it may be a password, so it is elided.
    for (const QString& bad : { QStringLiteral("host=/tmp user=me Secr3t-Word"),
             QStringLiteral("host=/tmp password='Secr3t-Word"), QStringLiteral("postgresql://me:Secr3t%zz-Word@h/db"),
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

void TestPerfdb::passwordsNeverShown()
{
    // A role that must give a password (test.sh's pg_hba.conf: trust for postgres only,
    // scram-sha-256 for every other role), owning a database of its own.
    QVERIFY2(!m_pgServer.isEmpty(), NoServer);
    using perfdb::PostgresDatabase;
    const QString tag = QStringLiteral("%1").arg(QRandomGenerator::system()->generate(), 8, 16, QLatin1Char('0'));
    const QString role = QStringLiteral("parallax_pw_") + tag;
    const QString database = QStringLiteral("parallax_pw_db_") + tag;
    const QString password = QStringLiteral("Right-Pw-") + tag;
    const QString wrong = QStringLiteral("Wr0ng-Secret-") + tag;
    QString error = superuserExec(m_pgServer, QStringLiteral("CREATE ROLE %1 LOGIN PASSWORD '%2'").arg(role, password));
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

void TestPerfdb::quotedDatabaseAndSchemaNames()
{
    // A database and a schema whose names need quoting everywhere: capitals, blanks, quotes.
    QVERIFY2(!m_pgServer.isEmpty(), NoServer);
    using perfdb::PostgresDatabase;
    const QString tag = QStringLiteral("%1").arg(QRandomGenerator::system()->generate(), 8, 16, QLatin1Char('0'));
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

void TestPerfdb::createsSchema()
{
    OPEN_FRESH(db);
    QCOMPARE(db.backend(), backend);
    QCOMPARE(db.schemaVersion(), SqlDatabase::CurrentSchemaVersion);
    for (const char* table : { "schema_version", "data_source", "derived_thread_type", "trial", "thread", "metric",
             "timer", "timer_group", "timer_parameter", "timer_callpath", "time_range", "timer_call_data",
             "timer_value", "counter", "counter_value", "primary_metadata", "secondary_metadata", "taudb_view",
             "taudb_view_parameter", "interval_event", "interval_event_value", "interval_location_profile",
             "interval_total_summary", "interval_mean_summary", "atomic_event", "atomic_event_value",
             "atomic_location_profile", "atomic_total_summary", "atomic_mean_summary", "parallax_schema_version" })
        QVERIFY2(sql_db.tableExists(table), table);
    auto rows = sql_db.query("SELECT version, description FROM schema_version");
    QVERIFY(rows->next());
    QCOMPARE(rows->toInt(0), qint64(2));
    QCOMPARE(rows->toText(1), QStringLiteral("Changes after Nov. 9, 2012 release"));
    rows = sql_db.query("SELECT COUNT(*), MIN(id), MAX(id) FROM derived_thread_type");
    QVERIFY(rows->next());
    QCOMPARE(rows->toInt(0), qint64(7));
    QCOMPARE(rows->toInt(1), qint64(-7));
    QCOMPARE(rows->toInt(2), qint64(-1));
    rows = sql_db.query("SELECT name FROM data_source WHERE id = $1", { 1 });
    QVERIFY(rows->next());
    QCOMPARE(rows->toText(0), QStringLiteral("TAU profiles"));
    rows = sql_db.query("SELECT p.table_name, p.column_name, p.operator, p.value FROM taudb_view v "
                        "JOIN taudb_view_parameter p ON p.taudb_view = v.id WHERE v.name = 'All Trials'");
    QVERIFY(rows->next());
    QCOMPARE(rows->toText(1), QStringLiteral("total_threads"));
    QCOMPARE(rows->toText(2), QStringLiteral(">"));
    QCOMPARE(rows->toText(3), QStringLiteral("-1"));
    // Opening again finds the schema as it is.
    auto again = Database::open(location);
    QVERIFY2(again.ok(), why(again).constData());
    QCOMPARE(again.value()->schemaVersion(), SqlDatabase::CurrentSchemaVersion);
    auto listed = again.value()->listTrials();
    QVERIFY(listed.ok());
    QVERIFY(listed.value().empty());
}

void TestPerfdb::roundTripSamples_data()
{
    QTest::addColumn<QString>("backend");
    QTest::addColumn<QString>("sample");
    for (const char* backend : { "sqlite", "postgresql" })
        for (const char* sample : Samples)
            QTest::addRow("%s %s", backend, sample) << QString::fromLatin1(backend) << QString::fromLatin1(sample);
}

void TestPerfdb::roundTripSamples()
{
    QFETCH(QString, sample);
    const auto trial = mustLoad(dataPath(sample));
    QVERIFY(trial);
    OPEN_FRESH(db);
    Progress progress;
    perfdb::UploadOptions options;
    options.application = QStringLiteral("samples");
    options.experiment = sample;
    const auto id = db.uploadTrial(*trial, options, progress);
    QVERIFY2(id.ok(), why(id).constData());
    QVERIFY(db.lastTransfer().rows > 0);
    // Load through a second connection, as another client would.
    auto other = Database::open(location);
    QVERIFY2(other.ok(), why(other).constData());
    const auto loaded = other.value()->loadTrial(id.value(), progress);
    QVERIFY2(loaded.ok(), why(loaded).constData());
    const QString diff = modelDifference(*trial, *loaded.value());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    const Provenance& provenance = loaded.value()->provenance();
    QCOMPARE(provenance.operation, QStringLiteral("read"));
    QCOMPARE(provenance.reader, QStringLiteral("perfdb"));
    QCOMPARE(provenance.source, db.location() + QStringLiteral("#") + QString::number(id.value()));
    QVERIFY(!db.location().contains(QLatin1String("password")));
}

void TestPerfdb::roundTripOddNames()
{
    const auto trial = oddTrial();
    OPEN_FRESH(db);
    Progress progress;
    perfdb::UploadOptions options;
    options.application = OddStrings[1];
    options.experiment = OddStrings[3] + OddStrings[4] + OddStrings[5];
    const auto id = db.uploadTrial(*trial, options, progress);
    QVERIFY2(id.ok(), why(id).constData());
    const auto loaded = db.loadTrial(id.value(), progress);
    QVERIFY2(loaded.ok(), why(loaded).constData());
    const QString diff = modelDifference(*trial, *loaded.value());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    // The trial as listed, with its odd application and experiment; and the schema is intact.
    const auto info = db.trialInfo(id.value());
    QVERIFY2(info.ok(), why(info).constData());
    QCOMPARE(info.value().name, trial->name());
    QCOMPARE(info.value().application, options.application);
    QCOMPARE(info.value().experiment, options.experiment);
    QCOMPARE(
        info.value().metrics, QStringList({ QStringLiteral("TIME"), OddStrings[1], QStringLiteral("(PAPI/TIME)") }));
    QCOMPARE(info.value().threads, qint64(4));
    QCOMPARE(info.value().nodes, qint64(2));
    QVERIFY(sql_db.tableExists("trial"));
    // The timer rows TAUdb readers use: short name, source location, parameters.
    auto rows = sql_db.query("SELECT short_name, source_file, line_number, column_number, line_number_end, "
                             "column_number_end FROM timer WHERE trial = $1 AND name = $2",
        { id.value(), QStringLiteral("int f(int) C [{f.c} {3,1}-{9,2}] [ <n> = <100>, <m> = <x> ]") });
    QVERIFY(rows->next());
    QCOMPARE(rows->toText(0), QStringLiteral("int f(int) C"));
    QCOMPARE(rows->toText(1), QStringLiteral("f.c"));
    QCOMPARE(rows->toInt(2), qint64(3));
    QCOMPARE(rows->toInt(3), qint64(1));
    QCOMPARE(rows->toInt(4), qint64(9));
    QCOMPARE(rows->toInt(5), qint64(2));
    rows = sql_db.query("SELECT p.parameter_name, p.parameter_value FROM timer_parameter p JOIN timer t "
                        "ON p.timer = t.id WHERE t.trial = $1 ORDER BY p.parameter_name",
        { id.value() });
    QVERIFY(rows->next());
    QCOMPARE(rows->toText(0), QStringLiteral("m"));
    QCOMPARE(rows->toText(1), QStringLiteral("x"));
    QVERIFY(rows->next());
    QCOMPARE(rows->toText(0), QStringLiteral("n"));
    QCOMPARE(rows->toText(1), QStringLiteral("100"));
    // The middle component that is no event got its own flat timer (docs/FORMATS.md 7.4 step 6).
    rows = sql_db.query(
        "SELECT COUNT(*) FROM timer WHERE trial = $1 AND name = $2", { id.value(), QStringLiteral("missing middle") });
    QVERIFY(rows->next());
    QCOMPARE(rows->toInt(0), qint64(1));
}

void TestPerfdb::roundTripSynthetic()
{
    SynthOptions synth;
    synth.threads = 24;
    synth.threadsPerNode = 4;
    synth.events = 30;
    synth.callpathDepth = 4;
    synth.metrics = 3;
    synth.userEvents = 7;
    synth.seed = 7;
    const auto trial = synthesizeTrial(synth);
    OPEN_FRESH(db);
    Progress progress;
    const auto id = db.uploadTrial(*trial, {}, progress);
    QVERIFY2(id.ok(), why(id).constData());
    const auto loaded = db.loadTrial(id.value(), progress);
    QVERIFY2(loaded.ok(), why(loaded).constData());
    // A synthesized trial is "derived" (provenance synth); everything else must match.
    const QString diff = modelDifference(*trial, *loaded.value());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    const auto info = db.trialInfo(id.value());
    QVERIFY(info.ok());
    QCOMPARE(info.value().dataSource, QStringLiteral("Other"));
    QVERIFY(info.value().application.isEmpty());
}

void TestPerfdb::roundTripAlgebraResults()
{
    // Closure (docs/SEMANTICS.md 4.8): a difference and a mean are ordinary trials; stored and loaded
    // back they are the same, negative values, explicit user-event deviations and presence
    // markers included, and the operation on the loaded operands gives the same result.
    const auto a = mustLoad(dataPath(QStringLiteral("tau2/ppk/ring-2rank.ppk")));
    const auto b = mustLoad(dataPath(QStringLiteral("tau2/ppk/ring-8rank.ppk")));
    QVERIFY(a && b);
    const AlgebraResult diff = parallax::difference(*a, *b);
    QVERIFY2(diff, qPrintable(diff.error()));
    const AlgebraResult average = mean({ a, b });
    QVERIFY2(average, qPrintable(average.error()));
    OPEN_FRESH(db);
    Progress progress;
    for (const auto& result : { diff.trial(), average.trial() }) {
        const auto id = db.uploadTrial(*result, {}, progress);
        QVERIFY2(id.ok(), why(id).constData());
        const auto loaded = db.loadTrial(id.value(), progress);
        QVERIFY2(loaded.ok(), why(loaded).constData());
        const QString diffText = modelDifference(*result, *loaded.value());
        QVERIFY2(diffText.isEmpty(), qPrintable(diffText));
        const auto markers = Presence::of(*loaded.value());
        QCOMPARE(markers->operandCount(), std::size_t(2));
        QVERIFY(loaded.value()->warnings().isEmpty());
    }
    // A user event's deviation in the diff is a difference of deviations, not derivable from a
    // sum of squares: it must have come back explicitly.
    bool explicitDeviation = false;
    for (std::size_t t = 0; t < diff.trial()->threadCount(); ++t)
        explicitDeviation = explicitDeviation || !diff.trial()->atomicRow(ThreadIndex(t)).stdDev.empty();
    QVERIFY(explicitDeviation);
}

void TestPerfdb::rollbackOnFailure()
{
    const auto trial = mustLoad(dataPath(QStringLiteral("hatchet/tau-cpi-mpi")));
    QVERIFY(trial);
    OPEN_FRESH(db);
    Progress progress;
    // One trial that stays, and the number of rows a full upload writes.
    const auto kept = db.uploadTrial(*trial, {}, progress);
    QVERIFY2(kept.ok(), why(kept).constData());
    const qint64 rows = db.lastTransfer().rows;
    QVERIFY(rows > 100);
    const auto before = tableCounts(sql_db);
    const auto listed = db.listTrials();
    QVERIFY(listed.ok());
    for (const qint64 failAfter : { qint64(1), qint64(2), qint64(10), rows / 4, rows / 2, rows - 5, rows - 1, rows }) {
        perfdb::UploadOptions options;
        options.name = QStringLiteral("doomed");
        options.failAfterRows = failAfter;
        const auto id = db.uploadTrial(*trial, options, progress);
        QVERIFY2(!id.ok(), qPrintable(QStringLiteral("failAfterRows %1 did not fail").arg(failAfter)));
        QVERIFY(id.error().message.contains(QLatin1String("simulated failure")));
        QVERIFY(tableCounts(sql_db) == before);
        const auto after = db.listTrials();
        QVERIFY(after.ok());
        QCOMPARE(after.value().size(), listed.value().size());
    }
    // Still usable afterwards, by this and another connection.
    const auto id = db.uploadTrial(*trial, {}, progress);
    QVERIFY2(id.ok(), why(id).constData());
    auto other = Database::open(location);
    QVERIFY(other.ok());
    QCOMPARE(other.value()->listTrials().value().size(), listed.value().size() + 1);
}

void TestPerfdb::rollbackOnCancel()
{
    const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")));
    QVERIFY(trial);
    OPEN_FRESH(db);
    const auto before = tableCounts(sql_db);
    for (const QString& stage : { QStringLiteral("Uploading: trial"), QStringLiteral("Uploading: call data"),
             QStringLiteral("Uploading: values"), QStringLiteral("Uploading: metadata") }) {
        Progress* self = nullptr;
        QStringList stages;
        Progress progress([&](const QString& current, qint64, qint64) {
            if (!stages.contains(current))
                stages.append(current);
            if (current == stage)
                self->cancel();
        });
        self = &progress;
        const auto id = db.uploadTrial(*trial, {}, progress);
        QVERIFY2(!id.ok(), qPrintable(stage));
        QVERIFY(id.error().message.contains(QLatin1String("cancelled")));
        QVERIFY(stages.contains(stage));
        QVERIFY(tableCounts(sql_db) == before);
    }
    // A cancelled load returns an error too; an uncancelled one works.
    Progress progress;
    const auto id = db.uploadTrial(*trial, {}, progress);
    QVERIFY(id.ok());
    Progress cancelled;
    cancelled.cancel();
    QVERIFY(!db.loadTrial(id.value(), cancelled).ok());
    QVERIFY(db.loadTrial(id.value(), progress).ok());
}

void TestPerfdb::refusesNewerSchema()
{
    OPEN_FRESH(db);
    sql_db.exec("UPDATE parallax_schema_version SET version = $1", { SqlDatabase::CurrentSchemaVersion + 41 });
    const auto again = Database::open(location);
    QVERIFY(!again.ok());
    const QString expected = QStringLiteral("was written by a newer Parallax (schema %1, this one reads up to %2)")
                                 .arg(SqlDatabase::CurrentSchemaVersion + 41)
                                 .arg(SqlDatabase::CurrentSchemaVersion);
    QVERIFY2(again.error().toString().contains(expected), why(again).constData());
}

void TestPerfdb::migratesOlderSchema()
{
    OPEN_FRESH(db);
    // Make it a version-0 Parallax database: TAUdb plus parallax_schema_version, no side tables.
    for (const char* table : { "parallax_trial_semantic_model", "parallax_semantic_model", "parallax_counter_deviation",
             "parallax_counter", "parallax_event", "parallax_metric", "parallax_trial" })
        sql_db.execScript(QByteArray("DROP TABLE IF EXISTS ") + table);
    sql_db.exec("UPDATE parallax_schema_version SET version = $1", { 0 });
    auto again = Database::open(location);
    QVERIFY2(again.ok(), why(again).constData());
    auto& migrated = dynamic_cast<SqlDatabase&>(*again.value());
    QCOMPARE(migrated.schemaVersion(), SqlDatabase::CurrentSchemaVersion);
    QVERIFY(migrated.hasParallaxTables());
    auto rows = migrated.query("SELECT version FROM parallax_schema_version");
    QVERIFY(rows->next());
    QCOMPARE(rows->toInt(0), qint64(SqlDatabase::CurrentSchemaVersion));
    rows.reset();
    const auto trial = oddTrial();
    Progress progress;
    const auto id = migrated.uploadTrial(*trial, {}, progress);
    QVERIFY2(id.ok(), why(id).constData());
    const auto loaded = migrated.loadTrial(id.value(), progress);
    QVERIFY(loaded.ok());
    const QString diff = modelDifference(*trial, *loaded.value());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestPerfdb::migratesVersion1WithTrials()
{
    OPEN_FRESH(db);
    // A version-1 database with a trial in it: TAUdb's plain tables plus the side tables, as
    // Parallax 0.1 wrote them. Built as a foreign TAUdb that gets an upload, then marked version 1.
    QCOMPARE(makePlainTaudb(sql_db), QString());
    const auto first = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
    QVERIFY(first);
    qint64 firstId = 0;
    {
        auto v1 = Database::open(location);
        QVERIFY2(v1.ok(), why(v1).constData());
        Progress progress;
        const auto id = v1.value()->uploadTrial(*first, {}, progress);
        QVERIFY2(id.ok(), why(id).constData());
        firstId = id.value();
        auto& raw = dynamic_cast<SqlDatabase&>(*v1.value());
        raw.execScript("CREATE TABLE parallax_schema_version (version INTEGER NOT NULL)");
        raw.exec("INSERT INTO parallax_schema_version (version) VALUES ($1)", { 1 });
    }
    auto again = Database::open(location);
    QVERIFY2(again.ok(), why(again).constData());
    auto& migrated = dynamic_cast<SqlDatabase&>(*again.value());
    QCOMPARE(migrated.schemaVersion(), SqlDatabase::CurrentSchemaVersion);
    if (backend == QLatin1String("postgresql")) {
        // Schema 2: both big tables partitioned, the old rows kept as one partition.
        auto rows = migrated.query("SELECT COUNT(*) FROM pg_class WHERE relkind = 'p' AND oid IN "
                                   "(to_regclass('timer_call_data'), to_regclass('timer_value'))");
        QVERIFY(rows->next());
        QCOMPARE(rows->toInt(0), qint64(2));
        QVERIFY(migrated.tableExists("parallax_call_data_legacy"));
    }
    Progress progress;
    const auto back = migrated.loadTrial(firstId, progress);
    QVERIFY2(back.ok(), why(back).constData());
    QString diff = modelDifference(*first, *back.value());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    // New uploads go into their own partition; the compatibility views see old and new rows.
    const auto second = oddTrial();
    const auto secondId = migrated.uploadTrial(*second, {}, progress);
    QVERIFY2(secondId.ok(), why(secondId).constData());
    if (backend == QLatin1String("postgresql"))
        QVERIFY(migrated.tableExists("timer_call_data_t" + std::to_string(secondId.value())));
    const auto secondBack = migrated.loadTrial(secondId.value(), progress);
    QVERIFY2(secondBack.ok(), why(secondBack).constData());
    diff = modelDifference(*second, *secondBack.value());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    auto rows = migrated.query("SELECT COUNT(DISTINCT trial) FROM interval_event");
    QVERIFY(rows->next());
    QCOMPARE(rows->toInt(0), qint64(2));
    rows.reset();
    QVERIFY(migrated.deleteTrial(secondId.value()).ok());
    if (backend == QLatin1String("postgresql"))
        QVERIFY(!migrated.tableExists("timer_call_data_t" + std::to_string(secondId.value())));
    QVERIFY(migrated.deleteTrial(firstId).ok());
    rows = migrated.query("SELECT (SELECT COUNT(*) FROM timer_call_data) + (SELECT COUNT(*) FROM timer_value)");
    QVERIFY(rows->next());
    QCOMPARE(rows->toInt(0), qint64(0));
}

void TestPerfdb::compatibilityViews()
{
    const auto trial = mustLoad(dataPath(QStringLiteral("hatchet/tau-cpi-mpi")));
    QVERIFY(trial);
    OPEN_FRESH(db);
    Progress progress;
    const auto uploaded = db.uploadTrial(*trial, {}, progress);
    QVERIFY2(uploaded.ok(), why(uploaded).constData());
    const qint64 id = uploaded.value();
    const bool sqlite = backend == QLatin1String("sqlite");
    // The whole call-path name of every timer_callpath node of the trial, and the node of a name.
    QHash<qint64, QString> pathOf;
    {
        QHash<qint64, std::pair<qint64, QString>> nodes; // id -> parent, timer name
        auto rows = sql_db.query("SELECT c.id, c.parent, t.name FROM timer_callpath c JOIN timer t ON c.timer = t.id "
                                 "WHERE t.trial = $1",
            { id });
        while (rows->next())
            nodes.insert(rows->toInt(0), { rows->isNull(1) ? 0 : rows->toInt(1), rows->toText(2) });
        for (auto it = nodes.cbegin(); it != nodes.cend(); ++it) {
            QString name = it.value().second;
            for (qint64 parent = it.value().first; parent != 0; parent = nodes.value(parent).first)
                name = nodes.value(parent).second + QStringLiteral(" => ") + name;
            pathOf.insert(it.key(), name);
        }
    }
    auto nodeOf = [&](const QString& name) { return pathOf.key(name, -1); };
    auto value = [&](const char* view, const QString& event, const char* column) {
        const std::string sql
            = std::string("SELECT DISTINCT s.") + column + " FROM " + view + " s WHERE s.interval_event = $1";
        auto rows = sql_db.query(sql, { nodeOf(event) });
        return rows->next() ? rows->toDouble(0) : std::numeric_limits<double>::quiet_NaN();
    };
    // docs/SEMANTICS.md 2: MPI_File_open() exclusive 27490, 26904, 27029, 27051 -> mean 27118.5.
    QCOMPARE(value("interval_mean_summary", QStringLiteral("MPI_File_open()"), "exclusive"), 27118.5);
    QCOMPARE(value("interval_total_summary", QStringLiteral("MPI_File_open()"), "exclusive"), 108474.0);
    // docs/FORMATS.md 2.1: MPI_Finalize() excl TOTAL 19161, MEAN 4790.25, STDDEV 191.875, MIN 4458, MAX 4906.
    // Derived rows have node = context = thread = the code; real rows are picked on node 0.
    auto derived = [&](int thread, const char* column) {
        const std::string sql = std::string("SELECT DISTINCT v.") + column
            + " FROM interval_event_value v WHERE v.interval_event = $1 AND v.thread = $2 AND v.node = $3";
        auto rows = sql_db.query(sql, { nodeOf(QStringLiteral("MPI_Finalize()")), thread, thread < 0 ? thread : 0 });
        return rows->next() ? rows->toDouble(0) : std::numeric_limits<double>::quiet_NaN();
    };
    QCOMPARE(derived(-2, "exclusive"), 19161.0);
    QCOMPARE(derived(-1, "exclusive"), 4790.25);
    QVERIFY(std::abs(derived(-3, "exclusive") - 191.875) < 1e-3); // printed rounded in docs/FORMATS.md
    QCOMPARE(derived(-7, "exclusive"), derived(-3, "exclusive")); // present on every thread
    QCOMPARE(derived(-4, "exclusive"), 4458.0);
    QCOMPARE(derived(-5, "exclusive"), 4906.0);
    QCOMPARE(derived(-6, "exclusive"), 4790.25);
    QVERIFY(std::abs(derived(-2, "exclusive_percentage") - 8.9518) < 1e-4);
    QVERIFY(std::abs(derived(0, "exclusive_percentage") - 8.6093) < 1e-4);
    QCOMPARE(derived(0, "call"), 1.0);
    QCOMPARE(derived(0, "inclusive_per_call"), derived(0, "inclusive"));
    auto count = [&](const std::string& sql, const SqlParams& params) {
        auto rows = sql_db.query(sql, params);
        return rows->next() ? rows->toInt(0) : -1;
    };
    // interval_event: one row per node (and group); PostgreSQL names the whole call path, SQLite the
    // node's timer (a recursive view would make SQLite before 3.8.3 refuse the database).
    const QString path = QStringLiteral(".TAU application => MPI_Finalize() => MPI_File_open()");
    QVERIFY(nodeOf(path) > 0);
    auto nameOf = [&](qint64 node) {
        auto rows = sql_db.query("SELECT DISTINCT name FROM interval_event WHERE id = $1", { node });
        return rows->next() ? rows->toText(0) : QString();
    };
    QCOMPARE(nameOf(nodeOf(path)), sqlite ? QStringLiteral("MPI_File_open()") : path);
    QCOMPARE(count("SELECT COUNT(DISTINCT id) FROM interval_event WHERE trial = $1", { id }),
        static_cast<qint64>(pathOf.size()));
    for (auto it = pathOf.cbegin(); it != pathOf.cend(); ++it)
        QCOMPARE(nameOf(it.key()), sqlite ? it.value().section(QStringLiteral(" => "), -1) : it.value());
    // Every real cell of the model, and nothing else, is in interval_location_profile.
    QCOMPARE(count("SELECT COUNT(*) FROM interval_location_profile v JOIN (SELECT DISTINCT id, trial FROM "
                   "interval_event) e ON e.id = v.interval_event WHERE e.trial = $1",
                 { id }),
        static_cast<qint64>(trial->cellCount() * trial->metricCount()));
    auto rows = sql_db.query("SELECT DISTINCT v.interval_event, v.node, v.context, v.thread, v.exclusive, v.inclusive, "
                             "v.call, v.subroutines FROM interval_location_profile v JOIN interval_event e "
                             "ON e.id = v.interval_event WHERE e.trial = $1",
        { id });
    int checked = 0;
    while (rows->next()) {
        const EventId e = trial->findEvent(pathOf.value(rows->toInt(0)));
        const ThreadIndex t = trial->findThread(
            { static_cast<int>(rows->toInt(1)), static_cast<int>(rows->toInt(2)), static_cast<int>(rows->toInt(3)) });
        QVERIFY(e.isValid() && t.isValid());
        const auto i = trial->row(t).find(e);
        QVERIFY(i >= 0);
        const auto k = static_cast<std::size_t>(i);
        QCOMPARE(rows->toDouble(4), trial->row(t).exclusive(0, k));
        QCOMPARE(rows->toDouble(5), trial->row(t).inclusive(0, k));
        QCOMPARE(rows->toDouble(6), trial->row(t).calls[k]);
        QCOMPARE(rows->toDouble(7), trial->row(t).subrs[k]);
        ++checked;
    }
    QCOMPARE(checked, static_cast<int>(trial->cellCount()));
    rows.reset();
    // User events: atomic_event and atomic_event_value with the sum of squares as TAU writes it
    // in standard_deviation; the summaries computed from the real threads (counter_value has no
    // rows for derived threads).
    QCOMPARE(count("SELECT COUNT(*) FROM atomic_event WHERE trial = $1", { id }),
        static_cast<qint64>(trial->atomicEventCount()));
    QCOMPARE(count("SELECT COUNT(*) FROM counter_value v JOIN thread h ON h.id = v.thread WHERE h.trial = $1 "
                   "AND h.thread_index < 0",
                 { id }),
        0);
    const QString broadcast = QStringLiteral("Message size for broadcast");
    const AtomicEventId u = trial->findAtomicEvent(broadcast);
    QVERIFY(u.isValid());
    double n = 0, squares = 0, present = 0;
    for (std::size_t t = 0; t < trial->threadCount(); ++t) {
        const AtomicRow& r = trial->atomicRow(ThreadIndex(t));
        const auto i = r.find(u);
        if (i < 0)
            continue;
        n += r.count[static_cast<std::size_t>(i)];
        squares += r.sumSquares[static_cast<std::size_t>(i)];
        ++present;
    }
    QVERIFY(present > 1);
    rows
        = sql_db.query("SELECT v.sample_count, v.mean_value, v.standard_deviation FROM atomic_location_profile v "
                       "JOIN atomic_event e ON e.id = v.atomic_event WHERE e.trial = $1 AND e.name = $2 AND v.node = 0",
            { id, broadcast });
    QVERIFY(rows->next());
    QCOMPARE(rows->toDouble(0), 1.0);
    QCOMPARE(rows->toDouble(1), 4.0);
    QCOMPARE(rows->toDouble(2), 16.0); // one sample of 4: the sum of squares, not the deviation 0
    auto summary = [&](const char* view, const char* column) {
        auto r = sql_db.query(std::string("SELECT s.") + column + " FROM " + view
                + " s JOIN atomic_event e ON e.id = s.atomic_event WHERE e.trial = $1 AND e.name = $2",
            { id, broadcast });
        return r->next() ? r->toDouble(0) : std::numeric_limits<double>::quiet_NaN();
    };
    QCOMPARE(summary("atomic_total_summary", "sample_count"), n);
    QCOMPARE(summary("atomic_total_summary", "standard_deviation"), squares);
    QVERIFY(std::abs(summary("atomic_mean_summary", "sample_count") - n / present) < 1e-12);
    QCOMPARE(count("SELECT COUNT(*) FROM atomic_total_summary s JOIN atomic_event e ON e.id = s.atomic_event "
                   "WHERE e.trial = $1",
                 { id }),
        static_cast<qint64>(trial->atomicEventCount()));
    QCOMPARE(count("SELECT COUNT(*) FROM atomic_mean_summary s JOIN atomic_event e ON e.id = s.atomic_event "
                   "WHERE e.trial = $1",
                 { id }),
        static_cast<qint64>(trial->atomicEventCount()));
    if (sqlite) {
        // SQLite 3.7 (TAU's JDBC driver) parses the views: no column lists, no WITH.
        rows = sql_db.query("SELECT name, sql FROM sqlite_master WHERE type = 'view'");
        int views = 0;
        while (rows->next()) {
            const QString sql = rows->toText(1);
            QVERIFY2(
                QRegularExpression(QStringLiteral("^CREATE VIEW \\w+ AS\\s"), QRegularExpression::CaseInsensitiveOption)
                    .match(sql)
                    .hasMatch(),
                qPrintable(sql));
            QVERIFY2(!sql.contains(QLatin1String("WITH"), Qt::CaseInsensitive), qPrintable(sql));
            ++views;
        }
        QCOMPARE(views, 10);
    }
}

void TestPerfdb::foreignTaudb()
{
    OPEN_FRESH(db);
    // Make it a plain TAUdb: no Parallax tables at all.
    QCOMPARE(makePlainTaudb(sql_db), QString());
    auto reopened = Database::open(location);
    QVERIFY2(reopened.ok(), why(reopened).constData());
    auto& foreign = dynamic_cast<SqlDatabase&>(*reopened.value());
    QCOMPARE(foreign.schemaVersion(), 0);
    QVERIFY(!foreign.hasParallaxTables());

    // A trial as TAU's Java loader writes it (docs/FORMATS.md 7.4): calls > 0 only, derived threads,
    // counter_value.standard_deviation holding the sum of squares, secondary_metadata with UUIDs.
    foreign.begin(true);
    auto one = [&](const std::string& sql, const SqlParams& params) {
        auto rows = foreign.query(sql, params);
        return rows->next() ? rows->toInt(0) : -1;
    };
    const qint64 trial = one("INSERT INTO trial (name, data_source, node_count, contexts_per_node, "
                             "threads_per_context, total_threads) VALUES ($1, 1, 2, 1, 1, 2) RETURNING id",
        { QStringLiteral("java trial") });
    const qint64 metric
        = one("INSERT INTO metric (trial, name, derived) VALUES ($1, 'TIME', FALSE) RETURNING id", { trial });
    const QString fooName = QStringLiteral("foo() [{foo.c} {3,1}-{7,1}]");
    const qint64 mainTimer = one("INSERT INTO timer (trial, name, short_name, source_file, line_number, "
                                 "line_number_end, column_number, column_number_end) VALUES ($1, 'main()', "
                                 "'main()', NULL, 0, 0, 0, 0) RETURNING id",
        { trial });
    const qint64 fooTimer = one("INSERT INTO timer (trial, name, short_name, source_file, line_number, "
                                "line_number_end, column_number, column_number_end) VALUES ($1, $2, 'foo()', "
                                "'foo.c', 3, 7, 1, 1) RETURNING id",
        { trial, fooName });
    foreign.exec("INSERT INTO timer_group (timer, group_name) VALUES ($1, 'TAU_DEFAULT')", { mainTimer });
    foreign.exec("INSERT INTO timer_group (timer, group_name) VALUES ($1, 'TAU_USER')", { fooTimer });
    std::vector<qint64> threads;
    for (int node : { 0, 1, -1, -2 })
        threads.push_back(one("INSERT INTO thread (trial, node_rank, context_rank, thread_rank, thread_index) "
                              "VALUES ($1, $2, $3, $4, $5) RETURNING id",
            { trial, node, node < 0 ? node : 0, node < 0 ? node : 0, node }));
    const qint64 mainNode
        = one("INSERT INTO timer_callpath (timer, parent) VALUES ($1, NULL) RETURNING id", { mainTimer });
    const qint64 fooNode
        = one("INSERT INTO timer_callpath (timer, parent) VALUES ($1, NULL) RETURNING id", { fooTimer });
    const qint64 pathNode
        = one("INSERT INTO timer_callpath (timer, parent) VALUES ($1, $2) RETURNING id", { fooTimer, mainNode });
    auto cell = [&](qint64 node, qint64 thread, int calls, int subrs, double excl, double incl) {
        const qint64 data = one("INSERT INTO timer_call_data (timer_callpath, thread, calls, subroutines, time_range) "
                                "VALUES ($1, $2, $3, $4, NULL) RETURNING id",
            { node, thread, calls, subrs });
        foreign.exec("INSERT INTO timer_value (timer_call_data, metric, inclusive_value, exclusive_value, "
                     "inclusive_percent, exclusive_percent, sum_exclusive_squared) VALUES ($1, $2, $3, $4, 0, 0, NULL)",
            { data, metric, incl, excl });
    };
    cell(mainNode, threads[0], 1, 2, 10.5, 100.0);
    cell(fooNode, threads[0], 2, 0, 89.5, 89.5);
    cell(pathNode, threads[0], 2, 0, 89.5, 89.5);
    cell(mainNode, threads[1], 1, 1, 20.0, 50.0);
    cell(fooNode, threads[1], 1, 0, 30.0, 30.0);
    cell(pathNode, threads[1], 1, 0, 30.0, 30.0);
    cell(mainNode, threads[2], 1, 1, 15.25, 75.0); // MEAN: not a thread of the model
    const qint64 counter = one(
        "INSERT INTO counter (trial, name) VALUES ($1, 'Message size : main() => foo()') RETURNING id", { trial });
    foreign.exec("INSERT INTO counter_value (counter, timer_callpath, thread, sample_count, maximum_value, "
                 "minimum_value, mean_value, standard_deviation) VALUES ($1, NULL, $2, 4, 10, 1, 4, 120)",
        { counter, threads[0] });
    foreign.exec("INSERT INTO primary_metadata (trial, name, value) VALUES ($1, 'Application', 'legacy'), "
                 "($1, 'TAU Version', '2.35')",
        { trial });
    foreign.exec("INSERT INTO secondary_metadata (id, trial, thread, timer_callpath, time_range, parent, name, value, "
                 "is_array) VALUES ('5f2b7c1e-0000-4000-8000-000000000001', $1, $2, NULL, NULL, NULL, 'pid', '100', "
                 "FALSE), ('5f2b7c1e-0000-4000-8000-000000000002', $1, $3, NULL, NULL, NULL, 'pid', '101', FALSE)",
        { trial, threads[0], threads[1] });
    foreign.commit();

    Progress progress;
    const auto loaded = foreign.loadTrial(trial, progress);
    QVERIFY2(loaded.ok(), why(loaded).constData());
    const Trial& t = *loaded.value();
    QCOMPARE(t.name(), QStringLiteral("java trial"));
    QCOMPARE(t.threadCount(), std::size_t(2));
    QCOMPARE(t.metricCount(), std::size_t(1));
    QCOMPARE(t.metric(MetricId(0u)).unit, QStringLiteral("us"));
    QCOMPARE(t.eventCount(), std::size_t(3));
    const EventId path = t.findEvent(QStringLiteral("main() => ") + fooName);
    QVERIFY(path.isValid());
    QCOMPARE(groupNames(t, t.event(path)), QStringList({ QStringLiteral("TAU_CALLPATH"), QStringLiteral("TAU_USER") }));
    QCOMPARE(
        groupNames(t, t.event(t.findEvent(QStringLiteral("main()")))), QStringList { QStringLiteral("TAU_DEFAULT") });
    QCOMPARE(exclOf(t, 0, QStringLiteral("main()")), 10.5);
    QCOMPARE(inclOf(t, 1, QStringLiteral("main()")), 50.0);
    QCOMPARE(exclOf(t, 1, QStringLiteral("main() => ") + fooName), 30.0);
    QCOMPARE(t.row(ThreadIndex(0u)).calls[static_cast<std::size_t>(t.row(ThreadIndex(0u)).find(path))], 2.0);
    QCOMPARE(t.atomicEventCount(), std::size_t(1));
    QCOMPARE(t.atomicEvent(AtomicEventId(0u)).context, QStringLiteral("main() => foo()"));
    const AtomicRow& atomic = t.atomicRow(ThreadIndex(0u));
    QCOMPARE(atomic.size(), std::size_t(1));
    QCOMPARE(atomic.count[0], 4.0);
    QCOMPARE(atomic.sumSquares[0], 120.0); // the Java quirk, read as TAU wrote it
    QCOMPARE(atomic.stddev(0), std::sqrt(120.0 / 4 - 16.0));
    QVERIFY(t.atomicRow(ThreadIndex(1u)).size() == 0);
    QCOMPARE(t.metadataValue(QStringLiteral("TAU Version")), QStringLiteral("2.35"));
    QCOMPARE(t.metadataValue(QStringLiteral("Application")), QStringLiteral("legacy"));
    QCOMPARE(t.metadataValue(QStringLiteral("pid"), ThreadIndex(1u)), QStringLiteral("101"));
    const auto listed = foreign.listTrials();
    QVERIFY(listed.ok());
    QCOMPARE(listed.value().size(), std::size_t(1));
    QCOMPARE(listed.value()[0].application, QStringLiteral("legacy"));
    QVERIFY(listed.value()[0].uploaded.isEmpty());

    // A Parallax upload into the foreign TAUdb adds the side tables and round-trips exactly; the
    // database stays foreign (no parallax_schema_version).
    const auto odd = oddTrial();
    const auto id = foreign.uploadTrial(*odd, {}, progress);
    QVERIFY2(id.ok(), why(id).constData());
    QVERIFY(foreign.hasParallaxTables());
    QVERIFY(!foreign.tableExists("parallax_schema_version"));
    const auto back = foreign.loadTrial(id.value(), progress);
    QVERIFY(back.ok());
    const QString diff = modelDifference(*odd, *back.value());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    QVERIFY(foreign.loadTrial(trial, progress).ok());
    QVERIFY(foreign.deleteTrial(trial).ok());
    QCOMPARE(foreign.listTrials().value().size(), std::size_t(1));
}

void TestPerfdb::taudbSqliteVariant()
{
    // TAU's own SQLite DDL (docs/FORMATS.md 7.3; there is no PostgreSQL counterpart, foreignTaudb covers
    // that server): numbered secondary_metadata rows with timer_call_data and call_number columns,
    // a typed time_range. Parallax reads what TAU wrote there and uploads into it.
    const QString location = freshLocation(QStringLiteral("sqlite"));
    {
        auto opened = Database::open(location);
        QVERIFY2(opened.ok(), why(opened).constData());
        auto& db = dynamic_cast<SqlDatabase&>(*opened.value());
        QCOMPARE(makePlainTaudb(db), QString());
        db.execScript("DROP TABLE secondary_metadata");
        db.execScript("DROP TABLE time_range");
        db.execScript("CREATE TABLE time_range_type (id INT PRIMARY KEY, name VARCHAR NOT NULL)");
        db.execScript(
            "INSERT INTO time_range_type VALUES (1, 'TIMESTAMP'), (2, 'ITERATION NUMBER'), (3, 'CALL NUMBER')");
        db.execScript("CREATE TABLE time_range (id INTEGER PRIMARY KEY AUTOINCREMENT, type INT NOT NULL REFERENCES "
                      "time_range_type(id), start INT NOT NULL, \"end\" INT)");
        db.execScript("CREATE TABLE secondary_metadata (id INTEGER PRIMARY KEY AUTOINCREMENT, trial INT NOT NULL "
                      "REFERENCES trial(id), thread INT REFERENCES thread(id), timer_call_data INT REFERENCES "
                      "timer_call_data(id), call_number INT, time_range INT REFERENCES time_range(id), parent INT "
                      "REFERENCES secondary_metadata(id), name VARCHAR NOT NULL, value VARCHAR, is_array BOOLEAN "
                      "DEFAULT FALSE)");
        db.execScript("CREATE INDEX secondary_metadata_index ON secondary_metadata (trial, name, thread, parent)");
        // A trial as TAU wrote it: one thread, one timer, a numbered per-thread metadata row.
        db.begin(true);
        db.execScript("INSERT INTO trial (id, name, data_source, node_count, contexts_per_node, threads_per_context, "
                      "total_threads) VALUES (1, 'tau sqlite', 1, 1, 1, 1, 1)");
        db.execScript("INSERT INTO metric (id, trial, name, derived) VALUES (1, 1, 'TIME', 0)");
        db.execScript("INSERT INTO timer (id, trial, name, short_name) VALUES (1, 1, 'main()', 'main()')");
        db.execScript("INSERT INTO timer_group (timer, group_name) VALUES (1, 'TAU_DEFAULT')");
        db.execScript("INSERT INTO thread (id, trial, node_rank, context_rank, thread_rank, thread_index) "
                      "VALUES (1, 1, 0, 0, 0, 0)");
        db.execScript("INSERT INTO timer_callpath (id, timer, parent) VALUES (1, 1, NULL)");
        db.execScript(
            "INSERT INTO timer_call_data (id, timer_callpath, thread, calls, subroutines) VALUES (1, 1, 1, 1, 0)");
        db.execScript("INSERT INTO timer_value (timer_call_data, metric, inclusive_value, exclusive_value, "
                      "inclusive_percent, exclusive_percent) VALUES (1, 1, 42.5, 42.5, 100, 100)");
        db.execScript("INSERT INTO primary_metadata (trial, name, value) VALUES (1, 'Application', 'tau')");
        db.execScript("INSERT INTO secondary_metadata (trial, thread, name, value) VALUES (1, 1, 'pid', '7')");
        db.commit();
    }
    auto reopened = Database::open(location);
    QVERIFY2(reopened.ok(), why(reopened).constData());
    Database& db = *reopened.value();
    QCOMPARE(db.schemaVersion(), 0);
    Progress progress;
    const auto tau = db.loadTrial(1, progress);
    QVERIFY2(tau.ok(), why(tau).constData());
    QCOMPARE(exclOf(*tau.value(), 0, QStringLiteral("main()")), 42.5);
    QCOMPARE(tau.value()->metadataValue(QStringLiteral("pid"), ThreadIndex(0u)), QStringLiteral("7"));

    // Uploads keep every per-thread metadata row, numbered by SQLite, and round-trip exactly.
    for (const QString& sample : { QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank"),
             QStringLiteral("tau2/tau-profiles-openmp-2thread") }) {
        const auto trial = mustLoad(dataPath(sample));
        QVERIFY(trial);
        const auto id = db.uploadTrial(*trial, {}, progress);
        QVERIFY2(id.ok(), why(id).constData());
        const auto back = db.loadTrial(id.value(), progress);
        QVERIFY2(back.ok(), why(back).constData());
        const QString diff = modelDifference(*trial, *back.value());
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QVERIFY(db.deleteTrial(id.value()).ok());
    }
    QCOMPARE(db.listTrials().value().size(), std::size_t(1));
}

void TestPerfdb::concurrentUploads()
{
    OPEN_FRESH(db);
    const auto first = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")));
    const auto second = mustLoad(dataPath(QStringLiteral("hatchet/tau-cpi-mpi")));
    QVERIFY(first && second);
    // Two clients upload at the same time, each on its own connection and thread. While one is
    // between its first rows and its commit, a third connection must not see its trial.
    std::atomic<int> sawUncommitted { 0 };
    std::atomic<int> peeks { 0 };
    qint64 ids[2] = { 0, 0 };
    QString errors[2];
    auto upload = [&](int which, std::shared_ptr<Trial> trial, const QString& name) {
        auto opened = Database::open(location);
        if (!opened.ok()) {
            errors[which] = opened.error().toString();
            return;
        }
        Progress progress([&](const QString& stage, qint64, qint64) {
            if (stage != QLatin1String("Uploading: values"))
                return;
            auto observer = Database::open(location);
            if (!observer.ok())
                return;
            const auto listed = observer.value()->listTrials();
            ++peeks;
            if (listed.ok())
                for (const auto& info : listed.value())
                    if (info.name == name)
                        ++sawUncommitted;
        });
        perfdb::UploadOptions options;
        options.name = name;
        options.application = QStringLiteral("concurrent");
        options.experiment = name;
        const auto id = opened.value()->uploadTrial(*trial, options, progress);
        if (id.ok())
            ids[which] = id.value();
        else
            errors[which] = id.error().toString();
    };
    std::thread a(upload, 0, first, QStringLiteral("client one"));
    std::thread b(upload, 1, second, QStringLiteral("client two"));
    a.join();
    b.join();
    QVERIFY2(errors[0].isEmpty(), qPrintable(errors[0]));
    QVERIFY2(errors[1].isEmpty(), qPrintable(errors[1]));
    QVERIFY(ids[0] != ids[1]);
    QCOMPARE(peeks.load(), 2);
    QCOMPARE(sawUncommitted.load(), 0);
    Progress progress;
    const auto one = db.loadTrial(ids[0], progress);
    const auto two = db.loadTrial(ids[1], progress);
    QVERIFY(one.ok() && two.ok());
    QCOMPARE(one.value()->name(), QStringLiteral("client one"));
    QCOMPARE(two.value()->name(), QStringLiteral("client two"));
    QCOMPARE(one.value()->cellCount(), first->cellCount());
    QCOMPARE(two.value()->cellCount(), second->cellCount());
    QCOMPARE(one.value()->row(ThreadIndex(1u)).excl, first->row(ThreadIndex(1u)).excl);
    QCOMPARE(two.value()->row(ThreadIndex(3u)).incl, second->row(ThreadIndex(3u)).incl);
    // One Application view for both, an Experiment view for each.
    const auto views = db.views();
    QVERIFY(views.ok());
    QStringList names;
    for (const perfdb::View& view : views.value())
        names << view.name;
    names.sort();
    QCOMPARE(names,
        QStringList({ QStringLiteral("All Trials"), QStringLiteral("Application-concurrent"),
            QStringLiteral("Experiment-client one"), QStringLiteral("Experiment-client two") }));
}

void TestPerfdb::manage()
{
    const auto cpi = mustLoad(dataPath(QStringLiteral("hatchet/tau-cpi-mpi")));
    const auto wrap = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")));
    const auto openmp = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-openmp-2thread")));
    QVERIFY(cpi && wrap && openmp);
    OPEN_FRESH(db);
    Progress progress;
    auto upload = [&](const Trial& trial, const char* app, const char* exp, const char* name) {
        perfdb::UploadOptions options;
        options.application = QString::fromLatin1(app);
        options.experiment = QString::fromLatin1(exp);
        options.name = QString::fromLatin1(name);
        const auto id = db.uploadTrial(trial, options, progress);
        return id.ok() ? id.value() : 0;
    };
    const qint64 a = upload(*cpi, "A", "E1", "cpi one");
    const qint64 b = upload(*wrap, "A", "E2", "wrap two");
    const auto beforeThird = tableCounts(sql_db);
    const qint64 c = upload(*openmp, "B", "E1", "openmp three");
    QVERIFY(a && b && c);

    auto ids = [&](const perfdb::TrialFilter& filter) {
        QList<qint64> out;
        const auto listed = db.listTrials(filter);
        if (listed.ok())
            for (const auto& info : listed.value())
                out << info.id;
        else
            qWarning("%s", why(listed).constData());
        return out;
    };
    const auto all = db.listTrials();
    QVERIFY(all.ok());
    QCOMPARE(all.value().size(), std::size_t(3));
    const perfdb::TrialInfo& first = all.value()[0];
    QCOMPARE(first.id, a);
    QCOMPARE(first.name, QStringLiteral("cpi one"));
    QCOMPARE(first.application, QStringLiteral("A"));
    QCOMPARE(first.experiment, QStringLiteral("E1"));
    QCOMPARE(first.threads, qint64(4));
    QCOMPARE(first.nodes, qint64(4));
    QCOMPARE(first.metrics, QStringList { QStringLiteral("TIME") });
    QCOMPARE(first.dataSource, QStringLiteral("TAU profiles"));
    QVERIFY(QDateTime::fromString(first.uploaded, Qt::ISODate).isValid());

    perfdb::TrialFilter filter;
    filter.application = QStringLiteral("A");
    QCOMPARE(ids(filter), QList<qint64>({ a, b }));
    filter.experiment = QStringLiteral("E1");
    QCOMPARE(ids(filter), QList<qint64> { a });
    filter = {};
    filter.experiment = QStringLiteral("E1");
    QCOMPARE(ids(filter), QList<qint64>({ a, c }));
    filter = {};
    filter.nameContains = QStringLiteral("THREE");
    QCOMPARE(ids(filter), QList<qint64> { c });
    filter = {};
    filter.metadata.emplace_back(QStringLiteral("TAU_CALLPATH_DEPTH"), QStringLiteral("100"));
    QCOMPARE(ids(filter), QList<qint64>({ a, c }));
    filter.metadata.emplace_back(QStringLiteral("Experiment"), QStringLiteral("E1"));
    filter.metadata.emplace_back(QStringLiteral("Application"), QStringLiteral("B"));
    QCOMPARE(ids(filter), QList<qint64> { c });

    // The upload's own keys are listed but not part of the loaded trial.
    auto loaded = db.loadTrial(a, progress);
    QVERIFY(loaded.ok());
    QVERIFY(loaded.value()->metadataValue(QStringLiteral("Application")).isNull());
    QVERIFY(modelDifference(*cpi, *loaded.value()).startsWith(QLatin1String("trial name")));

    QVERIFY(db.trialInfo(a).ok());
    QVERIFY(!db.trialInfo(a + b + c + 1000).ok());
    QVERIFY(db.renameTrial(a, OddStrings[1]).ok());
    QCOMPARE(db.trialInfo(a).value().name, OddStrings[1]);
    QVERIFY(!db.renameTrial(a + b + c + 1000, QStringLiteral("x")).ok());

    QVERIFY(db.setMetadata(a, QStringLiteral("Experiment"), QStringLiteral("E9")).ok());
    QCOMPARE(db.trialInfo(a).value().experiment, QStringLiteral("E9"));
    QVERIFY(db.setMetadata(a, QStringLiteral("Note"), OddStrings[5]).ok());
    loaded = db.loadTrial(a, progress);
    QCOMPARE(loaded.value()->metadataValue(QStringLiteral("Note")), OddStrings[5]);
    QCOMPARE(loaded.value()->name(), OddStrings[1]);
    QVERIFY(db.setMetadata(a, QStringLiteral("Note"), QString()).ok());
    loaded = db.loadTrial(a, progress);
    QVERIFY(loaded.value()->metadataValue(QStringLiteral("Note")).isNull());
    QVERIFY(!db.setMetadata(a + b + c + 1000, QStringLiteral("Note"), QStringLiteral("x")).ok());

    // Several changes in one transaction (the GUI's metadata editor): all or none.
    const std::vector<std::pair<QString, QString>> changes { { QStringLiteral("Compiler"), OddStrings[2] },
        { QStringLiteral("Experiment"), QStringLiteral("E10") },
        { QStringLiteral("Compiler flags"), QStringLiteral("-O3") } };
    QVERIFY(db.updateMetadata(a, changes).ok());
    auto stored = db.trialMetadata(a);
    QVERIFY(stored.ok());
    auto valueOf = [&](const QString& key) {
        for (const auto& [k, v] : stored.value())
            if (k == key)
                return v;
        return QString();
    };
    QCOMPARE(valueOf(QStringLiteral("Compiler")), OddStrings[2]);
    QCOMPARE(valueOf(QStringLiteral("Experiment")), QStringLiteral("E10"));
    QVERIFY(std::is_sorted(stored.value().begin(), stored.value().end()));
    QVERIFY(db.updateMetadata(
                  a, { { QStringLiteral("Compiler flags"), QString() }, { QStringLiteral("Compiler"), QString() } })
                .ok());
    stored = db.trialMetadata(a);
    QVERIFY(valueOf(QStringLiteral("Compiler flags")).isNull());
    QVERIFY(!db.updateMetadata(a + b + c + 1000, changes).ok());
    QVERIFY(!db.trialMetadata(a + b + c + 1000).ok());

    // Deleting removes every row of the trial, and only those; the Application/Experiment views
    // its upload made stay, as with TAU's tools (they are filters, other trials may match them).
    QVERIFY(db.deleteTrial(c).ok());
    auto after = tableCounts(sql_db);
    QCOMPARE(after[QStringLiteral("taudb_view")], beforeThird.at(QStringLiteral("taudb_view")) + 2);
    QCOMPARE(after[QStringLiteral("taudb_view_parameter")], beforeThird.at(QStringLiteral("taudb_view_parameter")) + 3);
    for (const QString& key : { QStringLiteral("taudb_view"), QStringLiteral("taudb_view_parameter") })
        after[key] = beforeThird.at(key);
    QVERIFY(after == beforeThird);
    QCOMPARE(ids({}), QList<qint64>({ a, b }));
    QVERIFY(!db.deleteTrial(c).ok());
    QVERIFY(!db.loadTrial(c, progress).ok());
    QVERIFY(db.loadTrial(b, progress).ok());
}

void TestPerfdb::views()
{
    const auto cpi = mustLoad(dataPath(QStringLiteral("hatchet/tau-cpi-mpi")));
    const auto wrap = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")));
    QVERIFY(cpi && wrap);
    OPEN_FRESH(db);
    Progress progress;
    perfdb::UploadOptions options;
    options.application = QStringLiteral("A");
    const qint64 a = db.uploadTrial(*cpi, options, progress).value();
    const qint64 b = db.uploadTrial(*wrap, options, progress).value();
    options.application = QStringLiteral("B");
    const qint64 c = db.uploadTrial(*wrap, options, progress).value();

    // The seed view, and the Application views the uploads made (as TAU's loader makes them).
    const auto seeded = db.views();
    QVERIFY(seeded.ok());
    QCOMPARE(seeded.value().size(), std::size_t(3));
    QCOMPARE(seeded.value()[1].name, QStringLiteral("Application-A"));
    QCOMPARE(seeded.value()[2].name, QStringLiteral("Application-B"));
    const perfdb::View all = seeded.value()[0];
    QCOMPARE(all.name, QStringLiteral("All Trials"));
    QCOMPARE(all.parent, qint64(0));
    QCOMPARE(all.conjoin, QStringLiteral("and"));

    auto addView = [&](qint64 parent, const QString& name, const char* conjoin) {
        auto rows = sql_db.query("INSERT INTO taudb_view (parent, name, conjoin) VALUES ($1, $2, $3) RETURNING id",
            { parent, name, QString::fromLatin1(conjoin) });
        return rows->next() ? rows->toInt(0) : 0;
    };
    auto addParameter
        = [&](qint64 view, const char* table, const QString& column, const char* op, const QString& value) {
              sql_db.exec("INSERT INTO taudb_view_parameter (taudb_view, table_name, column_name, operator, value) "
                          "VALUES ($1, $2, $3, $4, $5)",
                  { view, QString::fromLatin1(table), column, QString::fromLatin1(op), value });
          };
    const qint64 appA = addView(all.id, QStringLiteral("Application A"), "and");
    addParameter(appA, "primary_metadata", QStringLiteral("Application"), "=", QStringLiteral("A"));
    const qint64 big = addView(appA, QStringLiteral("more than 3 threads"), "and");
    addParameter(big, "trial", QStringLiteral("total_threads"), ">", QStringLiteral("3"));
    const qint64 either = addView(all.id, QStringLiteral("cpi or B"), "or");
    addParameter(either, "trial", QStringLiteral("name"), "like", QStringLiteral("%cpi%"));
    addParameter(either, "primary_metadata", QStringLiteral("Application"), "=", QStringLiteral("B"));
    const qint64 broken = addView(all.id, QStringLiteral("broken"), "and");
    addParameter(broken, "trial", QStringLiteral("name; DROP TABLE trial"), "=", QStringLiteral("x"));
    const qint64 badOp = addView(all.id, QStringLiteral("bad operator"), "and");
    addParameter(badOp, "trial", QStringLiteral("name"), "= 1 OR 1 =", QStringLiteral("x"));

    auto ids = [&](qint64 view) {
        QList<qint64> out;
        perfdb::TrialFilter filter;
        filter.view = view;
        const auto listed = db.listTrials(filter);
        if (!listed.ok())
            return QList<qint64> { -1 };
        for (const auto& info : listed.value())
            out << info.id;
        return out;
    };
    QCOMPARE(ids(all.id), QList<qint64>({ a, b, c }));
    QCOMPARE(ids(appA), QList<qint64>({ a, b }));
    QCOMPARE(ids(big), QList<qint64> { a });
    QCOMPARE(ids(either), QList<qint64>({ a, c }));
    QCOMPARE(ids(broken), QList<qint64> { -1 });
    QCOMPARE(ids(badOp), QList<qint64> { -1 });
    QCOMPARE(ids(987654), QList<qint64> { -1 });
    QCOMPARE(ids(seeded.value()[1].id), QList<qint64>({ a, b }));
    QCOMPARE(ids(seeded.value()[2].id), QList<qint64> { c });
    const auto listed = db.views();
    QVERIFY(listed.ok());
    QCOMPARE(listed.value().size(), std::size_t(8));
    QCOMPARE(listed.value()[4].parent, appA);
    QVERIFY(sql_db.tableExists("trial"));
}

void TestPerfdb::injectionInFilters()
{
    const auto cpi = mustLoad(dataPath(QStringLiteral("hatchet/tau-cpi-mpi")));
    QVERIFY(cpi);
    OPEN_FRESH(db);
    Progress progress;
    perfdb::UploadOptions options;
    options.application = OddStrings[1];
    options.name = OddStrings[0];
    const auto id = db.uploadTrial(*cpi, options, progress);
    QVERIFY(id.ok());
    for (const QString& odd : OddStrings) {
        perfdb::TrialFilter filter;
        filter.application = odd;
        filter.experiment = odd;
        filter.metadata.emplace_back(odd, odd);
        filter.nameContains = odd;
        auto listed = db.listTrials(filter);
        QVERIFY2(listed.ok(), why(listed).constData());
        QVERIFY(listed.value().empty());
        // Stored as metadata, the same string finds the trial again, and only as itself.
        QVERIFY(db.setMetadata(id.value(), odd, odd).ok());
        perfdb::TrialFilter exact;
        exact.metadata.emplace_back(odd, odd);
        listed = db.listTrials(exact);
        QVERIFY(listed.ok());
        QCOMPARE(listed.value().size(), std::size_t(1));
        exact.metadata.front().second = odd + QLatin1Char('%');
        QVERIFY(db.listTrials(exact).value().empty());
    }
    perfdb::TrialFilter filter;
    filter.application = OddStrings[1];
    filter.nameContains = OddStrings[0];
    const auto listed = db.listTrials(filter);
    QVERIFY(listed.ok());
    QCOMPARE(listed.value().size(), std::size_t(1));
    QVERIFY(sql_db.tableExists("trial"));
    QCOMPARE(db.listTrials().value().size(), std::size_t(1));
}

void TestPerfdb::semanticModelVersions()
{
    OPEN_FRESH(db);
    QVERIFY(sql_db.tableExists("parallax_semantic_model"));
    QVERIFY(sql_db.tableExists("parallax_trial_semantic_model"));
    auto listed = db.semanticModels();
    QVERIFY2(listed.ok(), why(listed).constData());
    QVERIFY(listed.value().empty());

    const QByteArray v1 = wrapModel(false);
    const QByteArray v2 = wrapModel(true);
    const auto first = db.saveSemanticModel(QStringLiteral("dgemm sizes"), v1, QStringLiteral("first cut"));
    QVERIFY2(first.ok(), why(first).constData());
    QCOMPARE(first.value().version, 1);
    // The same name again is the next version; the first one stays as it was.
    const auto second = db.saveSemanticModel(QStringLiteral("dgemm sizes"), v2, OddStrings[1]);
    QVERIFY2(second.ok(), why(second).constData());
    QCOMPARE(second.value().version, 2);
    QVERIFY(second.value().id != first.value().id);
    // Another name starts at 1; odd names are data, not SQL.
    const auto other = db.saveSemanticModel(OddStrings[0], v1);
    QVERIFY2(other.ok(), why(other).constData());
    QCOMPARE(other.value().version, 1);
    QVERIFY(!db.saveSemanticModel(QStringLiteral("  "), v1).ok());
    QVERIFY(!db.saveSemanticModel(QStringLiteral("empty"), QByteArray()).ok());

    // Listed by name, then version, through a second connection.
    auto again = Database::open(location);
    QVERIFY2(again.ok(), why(again).constData());
    listed = again.value()->semanticModels();
    QVERIFY2(listed.ok(), why(listed).constData());
    QCOMPARE(listed.value().size(), std::size_t(3));
    const perfdb::SemanticModelInfo& a = listed.value()[0];
    const perfdb::SemanticModelInfo& b = listed.value()[1];
    const perfdb::SemanticModelInfo& c = listed.value()[2];
    QCOMPARE(a.name, QStringLiteral("dgemm sizes"));
    QCOMPARE(a.version, 1);
    QCOMPARE(a.id, first.value().id);
    QCOMPARE(a.comment, QStringLiteral("first cut"));
    QCOMPARE(a.attachedTrials, qint64(0));
    QCOMPARE(b.name, QStringLiteral("dgemm sizes"));
    QCOMPARE(b.version, 2);
    QCOMPARE(b.comment, OddStrings[1]);
    QCOMPARE(c.name, OddStrings[0]);
    QVERIFY(c.comment.isEmpty());
    for (const auto& info : listed.value()) {
        const QDateTime created = QDateTime::fromString(info.created, Qt::ISODate);
        QVERIFY2(created.isValid() && info.created.endsWith(u'Z'), qPrintable(info.created));
        QVERIFY(std::abs(created.secsTo(QDateTime::currentDateTimeUtc())) < 600);
    }

    // By id, by name (the latest) and by name and version: the JSON text exactly as saved.
    auto byId = db.semanticModel(first.value().id);
    QVERIFY2(byId.ok(), why(byId).constData());
    QCOMPARE(byId.value().json, v1);
    QCOMPARE(byId.value().info.version, 1);
    auto latest = db.semanticModelByName(QStringLiteral("dgemm sizes"));
    QVERIFY2(latest.ok(), why(latest).constData());
    QCOMPARE(latest.value().info.id, second.value().id);
    QCOMPARE(latest.value().info.version, 2);
    QCOMPARE(latest.value().json, v2);
    auto older = db.semanticModelByName(QStringLiteral("dgemm sizes"), 1);
    QVERIFY2(older.ok(), why(older).constData());
    QCOMPARE(older.value().info.id, first.value().id);
    QCOMPARE(older.value().json, v1);
    QCOMPARE(db.semanticModelByName(OddStrings[0]).value().info.id, other.value().id);
    // What was stored parses back into the model that was saved.
    const auto parsed = semantic::parseModel(latest.value().json);
    QVERIFY(std::holds_alternative<semantic::Model>(parsed));
    QCOMPARE(std::get<semantic::Model>(parsed).associations.size(), std::size_t(3));

    const auto missingVersion = db.semanticModelByName(QStringLiteral("dgemm sizes"), 3);
    QVERIFY(!missingVersion.ok());
    QVERIFY2(missingVersion.error().message.contains(QLatin1String("version 3")), why(missingVersion).constData());
    QVERIFY(!db.semanticModelByName(QStringLiteral("dgemm")).ok());
    QVERIFY(!db.semanticModel(other.value().id + 100).ok());

    // Deleting a version that nothing uses; the next save still counts on from the highest.
    QVERIFY(db.deleteSemanticModel(second.value().id).ok());
    QVERIFY(!db.semanticModel(second.value().id).ok());
    QCOMPARE(db.semanticModelByName(QStringLiteral("dgemm sizes")).value().info.version, 1);
    QVERIFY(!db.deleteSemanticModel(second.value().id).ok());
    const auto third = db.saveSemanticModel(QStringLiteral("dgemm sizes"), v2);
    QVERIFY2(third.ok(), why(third).constData());
    QCOMPARE(third.value().version, 2);
    QCOMPARE(db.semanticModels().value().size(), std::size_t(3));

    // Two clients saving the same name at once get distinct, consecutive versions.
    std::vector<int> versions[2];
    QString failures[2];
    std::thread writers[2];
    for (int w = 0; w < 2; ++w)
        writers[w] = std::thread([&, w] {
            auto own = Database::open(location);
            if (!own.ok()) {
                failures[w] = own.error().toString();
                return;
            }
            for (int i = 0; i < 5; ++i) {
                const auto saved = own.value()->saveSemanticModel(QStringLiteral("race"), v1);
                if (!saved.ok()) {
                    failures[w] = saved.error().toString();
                    return;
                }
                versions[w].push_back(saved.value().version);
            }
        });
    for (std::thread& t : writers)
        t.join();
    QVERIFY2(failures[0].isEmpty() && failures[1].isEmpty(), qPrintable(failures[0] + failures[1]));
    std::vector<int> all = versions[0];
    all.insert(all.end(), versions[1].begin(), versions[1].end());
    std::sort(all.begin(), all.end());
    QCOMPARE(all, std::vector<int>({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }));
}

void TestPerfdb::semanticModelAttachments()
{
    const auto wrap = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")));
    const auto cpi = mustLoad(dataPath(QStringLiteral("hatchet/tau-cpi-mpi")));
    QVERIFY(wrap && cpi);
    OPEN_FRESH(db);
    Progress progress;
    const auto trial = db.uploadTrial(*wrap, {}, progress);
    QVERIFY2(trial.ok(), why(trial).constData());
    const auto otherTrial = db.uploadTrial(*cpi, {}, progress);
    QVERIFY2(otherTrial.ok(), why(otherTrial).constData());
    const auto v1 = db.saveSemanticModel(QStringLiteral("dgemm sizes"), wrapModel(false));
    const auto v2 = db.saveSemanticModel(QStringLiteral("dgemm sizes"), wrapModel(true));
    QVERIFY2(v1.ok() && v2.ok(), why(v1).constData());
    const qint64 id = trial.value();

    QVERIFY(db.semanticModelsOfTrial(id).value().empty());
    auto attached = db.attachSemanticModel(id, v1.value().id);
    QVERIFY2(attached.ok(), why(attached).constData());
    QVERIFY(db.attachSemanticModel(id, v2.value().id).ok());
    QVERIFY(db.attachSemanticModel(id, v1.value().id).ok()); // again: nothing changes
    QVERIFY(db.attachSemanticModel(otherTrial.value(), v2.value().id).ok());
    QVERIFY(!db.attachSemanticModel(id + otherTrial.value() + 100, v1.value().id).ok());
    QVERIFY(!db.attachSemanticModel(id, v2.value().id + 100).ok());
    auto rows = sql_db.query("SELECT COUNT(*) FROM parallax_trial_semantic_model");
    QVERIFY(rows->next());
    QCOMPARE(rows->toInt(0), qint64(3));
    rows.reset();

    const auto listed = db.semanticModels();
    QVERIFY(listed.ok());
    QCOMPARE(listed.value().size(), std::size_t(2));
    QCOMPARE(listed.value()[0].attachedTrials, qint64(1));
    QCOMPARE(listed.value()[1].attachedTrials, qint64(2));

    // Load the trial and its models back, through another connection, and attribute: the same
    // semantic profile as the trial read from disk.
    auto again = Database::open(location);
    QVERIFY2(again.ok(), why(again).constData());
    const auto models = again.value()->semanticModelsOfTrial(id);
    QVERIFY2(models.ok(), why(models).constData());
    QCOMPARE(models.value().size(), std::size_t(2));
    QCOMPARE(models.value()[0].info.id, v1.value().id);
    QCOMPARE(models.value()[1].info.id, v2.value().id);
    QCOMPARE(models.value()[0].json, wrapModel(false));
    QVERIFY(QDateTime::fromString(models.value()[0].info.attached, Qt::ISODate).isValid());
    const auto loaded = again.value()->loadTrial(id, progress);
    QVERIFY2(loaded.ok(), why(loaded).constData());
    for (const auto& stored : models.value()) {
        const auto fromDb = attributeStored(stored.json, loaded.value());
        const auto fromDisk = attributeStored(stored.json, wrap);
        QVERIFY(fromDb && fromDisk);
        const QString diff = profileDifference(*fromDisk, *fromDb);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QVERIFY(fromDb->conservationError() < 1e-12);
        // The numbers themselves (profile.0.0.0 and profile.1.0.0, TIME in µs).
        const int mpi = fromDb->findEntity(QStringLiteral("mpi"));
        const int size100 = fromDb->findEntity(QStringLiteral("dgemm:100"));
        const int blas = fromDb->findEntity(QStringLiteral("blas"));
        QVERIFY(mpi >= 0 && size100 >= 0 && blas >= 0);
        const ThreadIndex t0 = loaded.value()->findThread({ 0, 0, 0 });
        const ThreadIndex t1 = loaded.value()->findThread({ 1, 0, 0 });
        QCOMPARE(fromDb->roll(mpi, t0, MetricId(0u)), 1047345.0 + 2256.0);
        QCOMPARE(fromDb->roll(mpi, t1, MetricId(0u)), 1046279.0 + 2530.0);
        QCOMPARE(fromDb->roll(size100, t1, MetricId(0u)), 40.0);
        QCOMPARE(fromDb->roll(blas, t0, MetricId(0u)), 28.0 + 18.0 + 12.0);
        QCOMPARE(fromDb->findEntity(QStringLiteral("user")) >= 0, stored.info.version == 2);
    }

    // An attached version cannot be deleted without force; the message says where it is used.
    const auto refused = db.deleteSemanticModel(v2.value().id);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().message.contains(QLatin1String("is attached to 2 trials"))
            && refused.error().message.contains(QString::number(otherTrial.value())),
        why(refused).constData());
    QVERIFY(db.semanticModel(v2.value().id).ok());
    QCOMPARE(db.semanticModelsOfTrial(id).value().size(), std::size_t(2));

    // Detach; detaching again is an error.
    QVERIFY(db.detachSemanticModel(id, v1.value().id).ok());
    QVERIFY(!db.detachSemanticModel(id, v1.value().id).ok());
    QCOMPARE(db.semanticModelsOfTrial(id).value().size(), std::size_t(1));

    // Deleting a trial removes its attachments, and only its own.
    QVERIFY(db.deleteTrial(id).ok());
    rows = sql_db.query("SELECT COUNT(*), MIN(trial) FROM parallax_trial_semantic_model");
    QVERIFY(rows->next());
    QCOMPARE(rows->toInt(0), qint64(1));
    QCOMPARE(rows->toInt(1), otherTrial.value());
    rows.reset();
    QVERIFY(!db.semanticModelsOfTrial(id).ok());
    QCOMPARE(db.semanticModels().value()[1].attachedTrials, qint64(1));

    // Forced: detached everywhere and deleted, in one go.
    QVERIFY(!db.deleteSemanticModel(v2.value().id).ok());
    const auto forced = db.deleteSemanticModel(v2.value().id, true);
    QVERIFY2(forced.ok(), why(forced).constData());
    QVERIFY(!db.semanticModel(v2.value().id).ok());
    QVERIFY(db.semanticModelsOfTrial(otherTrial.value()).value().empty());
    QVERIFY(db.deleteSemanticModel(v1.value().id).ok());
    QVERIFY(db.semanticModels().value().empty());
}

void TestPerfdb::migratesVersion2WithTrial()
{
    OPEN_FRESH(db);
    // A version-2 database with a trial in it: everything of schema 3 but the semantic tables.
    const auto wrap = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")));
    QVERIFY(wrap);
    Progress progress;
    const auto id = db.uploadTrial(*wrap, {}, progress);
    QVERIFY2(id.ok(), why(id).constData());
    sql_db.execScript("DROP TABLE parallax_trial_semantic_model");
    sql_db.execScript("DROP TABLE parallax_semantic_model");
    sql_db.exec("UPDATE parallax_schema_version SET version = $1", { 2 });

    auto again = Database::open(location);
    QVERIFY2(again.ok(), why(again).constData());
    auto& migrated = dynamic_cast<SqlDatabase&>(*again.value());
    QCOMPARE(migrated.schemaVersion(), SqlDatabase::CurrentSchemaVersion);
    QVERIFY(migrated.hasParallaxTables());
    QVERIFY(migrated.tableExists("parallax_semantic_model"));
    QVERIFY(migrated.tableExists("parallax_trial_semantic_model"));
    auto rows = migrated.query("SELECT version FROM parallax_schema_version");
    QVERIFY(rows->next());
    QCOMPARE(rows->toInt(0), qint64(SqlDatabase::CurrentSchemaVersion));
    QVERIFY(!rows->next());
    rows.reset();
    // The old trial is intact and takes a model.
    const auto loaded = migrated.loadTrial(id.value(), progress);
    QVERIFY2(loaded.ok(), why(loaded).constData());
    const QString diff = modelDifference(*wrap, *loaded.value());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    const auto saved = migrated.saveSemanticModel(QStringLiteral("dgemm sizes"), wrapModel(true));
    QVERIFY2(saved.ok(), why(saved).constData());
    QCOMPARE(saved.value().version, 1);
    QVERIFY(migrated.attachSemanticModel(id.value(), saved.value().id).ok());
    const auto models = migrated.semanticModelsOfTrial(id.value());
    QVERIFY(models.ok());
    QCOMPARE(models.value().size(), std::size_t(1));
    QVERIFY(attributeStored(models.value()[0].json, loaded.value()));
    // The trial still deletes cleanly, attachments with it.
    QVERIFY(migrated.deleteTrial(id.value()).ok());
    QCOMPARE(tableCounts(migrated)[QStringLiteral("parallax_trial_semantic_model")], qint64(0));
}

void TestPerfdb::semanticModelInForeignTaudb()
{
    OPEN_FRESH(db);
    QCOMPARE(makePlainTaudb(sql_db), QString());
    auto reopened = Database::open(location);
    QVERIFY2(reopened.ok(), why(reopened).constData());
    auto& foreign = dynamic_cast<SqlDatabase&>(*reopened.value());
    QCOMPARE(foreign.schemaVersion(), 0);
    // Nothing stored yet: empty answers, no tables made by reading.
    QVERIFY(foreign.semanticModels().ok());
    QVERIFY(foreign.semanticModels().value().empty());
    QVERIFY(!foreign.semanticModelByName(QStringLiteral("dgemm sizes")).ok());
    QVERIFY(!foreign.deleteSemanticModel(1).ok());
    QVERIFY(!foreign.tableExists("parallax_semantic_model"));
    // The first save adds the side tables (as the first upload does); it stays a foreign TAUdb.
    const auto saved = foreign.saveSemanticModel(QStringLiteral("dgemm sizes"), wrapModel(false));
    QVERIFY2(saved.ok(), why(saved).constData());
    QVERIFY(foreign.tableExists("parallax_semantic_model"));
    QVERIFY(foreign.hasParallaxTables());
    QVERIFY(!foreign.tableExists("parallax_schema_version"));
    const auto wrap = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")));
    QVERIFY(wrap);
    Progress progress;
    const auto id = foreign.uploadTrial(*wrap, {}, progress);
    QVERIFY2(id.ok(), why(id).constData());
    QVERIFY(foreign.attachSemanticModel(id.value(), saved.value().id).ok());
    QCOMPARE(foreign.semanticModelsOfTrial(id.value()).value().size(), std::size_t(1));
    auto other = Database::open(location);
    QVERIFY2(other.ok(), why(other).constData());
    QCOMPARE(other.value()->schemaVersion(), 0);
    QCOMPARE(other.value()->semanticModels().value().size(), std::size_t(1));
}

void TestPerfdb::readableByTau()
{
    // What TAU's own reader needs (docs/FORMATS.md 7.2): counter_value rows for real threads only (it makes
    // a thread of each), the sum of squares in standard_deviation, and the Application/Experiment
    // views TAU's loader makes for -a/-x, so that ParaProf's tree shows the trial under them.
    const auto xmain = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")));
    QVERIFY(xmain);
    QVERIFY(xmain->atomicEventCount() > 0);
    OPEN_FRESH(db);
    Progress progress;
    perfdb::UploadOptions options;
    options.application = QStringLiteral("xmain's app");
    options.experiment = QStringLiteral("8 ranks");
    const auto first = db.uploadTrial(*xmain, options, progress);
    QVERIFY2(first.ok(), why(first).constData());
    auto count = [&](const std::string& sql, const SqlParams& params) {
        auto rows = sql_db.query(sql, params);
        return rows->next() ? rows->toInt(0) : -1;
    };
    QCOMPARE(count("SELECT COUNT(DISTINCT v.thread) FROM counter_value v JOIN thread h ON h.id = v.thread "
                   "WHERE h.trial = $1",
                 { first.value() }),
        qint64(8));
    QCOMPARE(count("SELECT COUNT(*) FROM counter_value v JOIN thread h ON h.id = v.thread WHERE h.trial = $1 "
                   "AND (h.thread_index < 0 OR h.node_rank < 0)",
                 { first.value() }),
        0);
    // Every stored standard_deviation is the record's sum of squares, bit for bit.
    {
        auto rows = sql_db.query("SELECT c.name, h.node_rank, h.context_rank, h.thread_rank, v.standard_deviation "
                                 "FROM counter_value v JOIN counter c ON c.id = v.counter JOIN thread h "
                                 "ON h.id = v.thread WHERE c.trial = $1",
            { first.value() });
        std::size_t checked = 0;
        while (rows->next()) {
            const ThreadIndex t = xmain->findThread({ static_cast<int>(rows->toInt(1)),
                static_cast<int>(rows->toInt(2)), static_cast<int>(rows->toInt(3)) });
            QVERIFY(t.isValid());
            const AtomicRow& r = xmain->atomicRow(t);
            const auto i = r.find(xmain->findAtomicEvent(rows->toText(0)));
            QVERIFY(i >= 0);
            QCOMPARE(rows->toDouble(4), r.sumSquares[static_cast<std::size_t>(i)]);
            ++checked;
        }
        std::size_t records = 0;
        for (std::size_t t = 0; t < xmain->threadCount(); ++t)
            records += xmain->atomicRow(ThreadIndex(t)).size();
        QCOMPARE(checked, records);
    }
    // TAU's views: "Application-A" at the top with Application = A, "Experiment-E" under it.
    struct ViewRow {
        qint64 id;
        qint64 parent;
        QString name;
        QStringList rules;
    };
    auto viewRows = [&] {
        std::vector<ViewRow> out;
        auto rows = sql_db.query("SELECT id, parent, name, conjoin FROM taudb_view ORDER BY id");
        while (rows->next())
            out.push_back({ rows->toInt(0), rows->isNull(1) ? 0 : rows->toInt(1), rows->toText(2), {} });
        rows.reset();
        for (ViewRow& v : out) {
            auto p = sql_db.query("SELECT table_name, column_name, operator, value FROM taudb_view_parameter "
                                  "WHERE taudb_view = $1 ORDER BY column_name",
                { v.id });
            while (p->next())
                v.rules << QStringList { p->toText(0), p->toText(1), p->toText(2), p->toText(3) }.join(u'|');
        }
        return out;
    };
    auto views = viewRows();
    QCOMPARE(views.size(), std::size_t(3));
    QCOMPARE(views[1].name, QStringLiteral("Application-xmain's app"));
    QCOMPARE(views[1].parent, qint64(0));
    QCOMPARE(views[1].rules, QStringList { QStringLiteral("primary_metadata|Application|=|xmain's app") });
    QCOMPARE(views[2].name, QStringLiteral("Experiment-8 ranks"));
    QCOMPARE(views[2].parent, views[1].id);
    // TAU's loader repeats the Application rule in an Experiment view it makes with its Application view.
    QCOMPARE(views[2].rules,
        QStringList({ QStringLiteral("primary_metadata|Application|=|xmain's app"),
            QStringLiteral("primary_metadata|Experiment|=|8 ranks") }));
    // The same application and experiment again: no new views; a new experiment: one view, one rule.
    QVERIFY(db.uploadTrial(*xmain, options, progress).ok());
    QCOMPARE(viewRows().size(), std::size_t(3));
    options.experiment = QStringLiteral("again");
    const auto third = db.uploadTrial(*xmain, options, progress);
    QVERIFY(third.ok());
    views = viewRows();
    QCOMPARE(views.size(), std::size_t(4));
    QCOMPARE(views[3].name, QStringLiteral("Experiment-again"));
    QCOMPARE(views[3].parent, views[1].id);
    QCOMPARE(views[3].rules, QStringList { QStringLiteral("primary_metadata|Experiment|=|again") });
    // Parallax's own view filter selects the trials the views name.
    perfdb::TrialFilter filter;
    filter.view = views[3].id;
    const auto listed = db.listTrials(filter);
    QVERIFY2(listed.ok(), why(listed).constData());
    QCOMPARE(listed.value().size(), std::size_t(1));
    QCOMPARE(listed.value()[0].id, third.value());
    filter.view = views[1].id;
    QCOMPARE(db.listTrials(filter).value().size(), std::size_t(3));
    // No application, no views.
    QVERIFY(db.uploadTrial(*xmain, {}, progress).ok());
    QCOMPARE(viewRows().size(), std::size_t(4));
    // And the trial comes back exactly.
    const auto back = db.loadTrial(first.value(), progress);
    QVERIFY2(back.ok(), why(back).constData());
    const QString diff = modelDifference(*xmain, *back.value());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestPerfdb::migratesVersion3WithTrials()
{
    // A version-3 database with trials in it, as Parallax 0.3 wrote them: true deviations in
    // counter_value.standard_deviation (explicit ones of an algebra result included), the exact sum
    // of squares in parallax_counter_value, counter_value rows for the derived threads, views in
    // the `CREATE VIEW v (columns)` form, no Application/Experiment views. Made from schema-4
    // uploads by undoing schema 4.
    const auto xmain = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")));
    const auto a = mustLoad(dataPath(QStringLiteral("tau2/ppk/ring-2rank.ppk")));
    const auto b = mustLoad(dataPath(QStringLiteral("tau2/ppk/ring-8rank.ppk")));
    QVERIFY(xmain && a && b);
    const AlgebraResult diff = parallax::difference(*a, *b);
    QVERIFY2(diff, qPrintable(diff.error()));
    OPEN_FRESH(db);
    Progress progress;
    perfdb::UploadOptions options;
    options.application = QStringLiteral("workflow");
    options.experiment = QStringLiteral("xmain");
    const auto xmainId = db.uploadTrial(*xmain, options, progress);
    QVERIFY2(xmainId.ok(), why(xmainId).constData());
    const auto diffId = db.uploadTrial(*diff.trial(), {}, progress);
    QVERIFY2(diffId.ok(), why(diffId).constData());
    const bool sqlite = backend == QLatin1String("sqlite");
    sql_db.begin(true);
    sql_db.execScript(sqlite ? "CREATE TABLE parallax_counter_value (counter INTEGER NOT NULL, thread INTEGER NOT "
                               "NULL, sum_squares REAL)"
                             : "CREATE TABLE parallax_counter_value (counter INT NOT NULL, thread INT NOT NULL, "
                               "sum_squares DOUBLE PRECISION)");
    sql_db.execScript("INSERT INTO parallax_counter_value (counter, thread, sum_squares) SELECT counter, thread, "
                      "standard_deviation FROM counter_value");
    for (const auto& [id, trial] : { std::pair<qint64, TrialPtr> { xmainId.value(), xmain },
             std::pair<qint64, TrialPtr> { diffId.value(), diff.trial() } }) {
        std::vector<std::tuple<qint64, qint64, double>> updates; // counter, thread, deviation
        auto rows = sql_db.query("SELECT v.counter, v.thread, c.name, h.node_rank, h.context_rank, h.thread_rank "
                                 "FROM counter_value v JOIN counter c ON c.id = v.counter JOIN thread h "
                                 "ON h.id = v.thread WHERE c.trial = $1",
            { id });
        while (rows->next()) {
            const ThreadIndex t = trial->findThread({ static_cast<int>(rows->toInt(3)),
                static_cast<int>(rows->toInt(4)), static_cast<int>(rows->toInt(5)) });
            const AtomicRow& r = trial->atomicRow(t);
            const auto i = r.find(trial->findAtomicEvent(rows->toText(2)));
            QVERIFY(i >= 0);
            updates.emplace_back(rows->toInt(0), rows->toInt(1), r.stddev(static_cast<std::size_t>(i)));
        }
        rows.reset();
        for (const auto& [counter, thread, sd] : updates)
            sql_db.exec("UPDATE counter_value SET standard_deviation = $3 WHERE counter = $1 AND thread = $2",
                { counter, thread, sd });
        // Rows for the derived threads, as the old uploader wrote them.
        sql_db.exec("INSERT INTO counter_value (counter, timer_callpath, thread, sample_count, maximum_value, "
                    "minimum_value, mean_value, standard_deviation) SELECT c.id, NULL, h.id, 1, 2, 3, 4, 5 "
                    "FROM counter c JOIN thread h ON h.trial = c.trial WHERE c.trial = $1 AND h.thread_index < 0",
            { id });
    }
    sql_db.execScript("DROP TABLE parallax_counter_deviation");
    sql_db.execScript("DELETE FROM taudb_view_parameter WHERE taudb_view IN (SELECT id FROM taudb_view "
                      "WHERE name <> 'All Trials')");
    sql_db.execScript("DELETE FROM taudb_view WHERE name <> 'All Trials'");
    sql_db.dropCompatibilityViews();
    sql_db.execScript("CREATE VIEW atomic_event (id, trial, name, group_name, source_file, line_number) AS "
                      "SELECT c.id, c.trial, c.name, NULL, NULL, NULL FROM counter c");
    sql_db.exec("UPDATE parallax_schema_version SET version = $1", { 3 });
    sql_db.commit();
    QCOMPARE(tableCounts(sql_db)[QStringLiteral("taudb_view")], qint64(1));
    auto count = [&](SqlDatabase& d, const std::string& sql) {
        auto rows = d.query(sql);
        return rows->next() ? rows->toInt(0) : -1;
    };
    QVERIFY(count(sql_db,
                "SELECT COUNT(*) FROM counter_value v JOIN thread h ON h.id = v.thread "
                "WHERE h.thread_index < 0")
        > 0);

    auto again = Database::open(location);
    QVERIFY2(again.ok(), why(again).constData());
    auto& migrated = dynamic_cast<SqlDatabase&>(*again.value());
    QCOMPARE(migrated.schemaVersion(), SqlDatabase::CurrentSchemaVersion);
    QVERIFY(migrated.hasParallaxTables());
    QVERIFY(!migrated.tableExists("parallax_counter_value"));
    QCOMPARE(count(migrated,
                 "SELECT COUNT(*) FROM counter_value v JOIN thread h ON h.id = v.thread "
                 "WHERE h.thread_index < 0"),
        qint64(0));
    // Sums of squares where the deviations were; the diff's explicit deviations kept aside.
    {
        auto rows = migrated.query("SELECT c.name, h.node_rank, h.context_rank, h.thread_rank, v.standard_deviation "
                                   "FROM counter_value v JOIN counter c ON c.id = v.counter JOIN thread h "
                                   "ON h.id = v.thread WHERE c.trial = $1",
            { xmainId.value() });
        int checked = 0;
        while (rows->next()) {
            const ThreadIndex t = xmain->findThread({ static_cast<int>(rows->toInt(1)),
                static_cast<int>(rows->toInt(2)), static_cast<int>(rows->toInt(3)) });
            const AtomicRow& r = xmain->atomicRow(t);
            QCOMPARE(rows->toDouble(4),
                r.sumSquares[static_cast<std::size_t>(r.find(xmain->findAtomicEvent(rows->toText(0))))]);
            ++checked;
        }
        QVERIFY(checked > 0);
    }
    QVERIFY(count(migrated, "SELECT COUNT(*) FROM parallax_counter_deviation") > 0);
    QCOMPARE(count(migrated,
                 "SELECT COUNT(*) FROM parallax_counter_deviation d JOIN counter c ON c.id = d.counter "
                 "WHERE c.trial = "
                     + std::to_string(xmainId.value())),
        qint64(0));
    // Both trials come back exactly, explicit deviations included.
    for (const auto& [id, trial] : { std::pair<qint64, TrialPtr> { xmainId.value(), xmain },
             std::pair<qint64, TrialPtr> { diffId.value(), diff.trial() } }) {
        const auto loaded = migrated.loadTrial(id, progress);
        QVERIFY2(loaded.ok(), why(loaded).constData());
        const QString difference = modelDifference(*trial, *loaded.value());
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
    }
    // The views made again (SQLite: in the form SQLite 3.7 parses), and TAU's Application views.
    QVERIFY(migrated.tableExists("atomic_total_summary"));
    if (sqlite) {
        auto rows = migrated.query("SELECT sql FROM sqlite_master WHERE type = 'view'");
        int views = 0;
        while (rows->next()) {
            QVERIFY2(!rows->toText(0).contains(QLatin1String("atomic_event (")), qPrintable(rows->toText(0)));
            ++views;
        }
        QCOMPARE(views, 10);
    }
    const auto views = migrated.views();
    QVERIFY(views.ok());
    QCOMPARE(views.value().size(), std::size_t(3));
    QCOMPARE(views.value()[1].name, QStringLiteral("Application-workflow"));
    QCOMPARE(views.value()[2].name, QStringLiteral("Experiment-xmain"));
    QCOMPARE(views.value()[2].parent, views.value()[1].id);
    perfdb::TrialFilter filter;
    filter.view = views.value()[2].id;
    const auto listed = migrated.listTrials(filter);
    QVERIFY2(listed.ok(), why(listed).constData());
    QCOMPARE(listed.value().size(), std::size_t(1));
    QCOMPARE(listed.value()[0].id, xmainId.value());
    // Opening again changes nothing; new uploads and deletes work.
    auto third = Database::open(location);
    QVERIFY2(third.ok(), why(third).constData());
    QCOMPARE(third.value()->views().value().size(), std::size_t(3));
    QVERIFY(migrated.deleteTrial(diffId.value()).ok());
    QCOMPARE(count(migrated, "SELECT COUNT(*) FROM parallax_counter_deviation"), qint64(0));
}

QTEST_GUILESS_MAIN(TestPerfdb)
#include "tst_perfdb.moc"
