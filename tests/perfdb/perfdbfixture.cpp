// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The shared fixture of the experiment-database tests; see perfdbfixture.h.
#include "tests/perfdb/perfdbfixture.h"

#include "algebra/semanticmodel.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/synth/synth.h"
#include "perfdb/dbexception.h"
#include "perfdb/postgresdatabase.h"

#include <QRandomGenerator>
#include <cmath>

namespace parallax::test {

namespace {

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

/// Equal columns (ColumnView, CountView or vector of doubles), NaN equal to NaN.
template <typename A, typename B> bool same(const A& a, const B& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i]))))
            return false;
    return true;
}

} // namespace

std::shared_ptr<Trial> mediumTrial(std::uint64_t seed)
{
    SynthOptions synth;
    synth.threads = 64;
    synth.threadsPerNode = 4;
    synth.events = 60;
    synth.callpathDepth = 2;
    synth.metrics = 2;
    synth.userEvents = 4;
    synth.seed = seed;
    return synthesizeTrial(synth);
}

QString randomTag()
{
    return QStringLiteral("%1").arg(QRandomGenerator::system()->generate(), 8, 16, QLatin1Char('0'));
}

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
        if (a.groupNames(x) != b.groupNames(y))
            return differs(QStringLiteral("event %1: groups %2 != %3")
                               .arg(x.name, a.groupNames(x).join(u'|'), b.groupNames(y).join(u'|')));
        if (x.depth != y.depth || eventName(a, x.parent) != eventName(b, y.parent)
            || eventName(a, x.leaf) != eventName(b, y.leaf))
            return differs(QStringLiteral("event %1: depth, parent or leaf").arg(x.name));
        if (sourceLocationOf(a, EventId(e)) != sourceLocationOf(b, EventId(e)))
            return differs(QStringLiteral("event %1: source location").arg(x.name));
    }
    for (std::size_t t = 0; t < a.threadCount(); ++t) {
        const RowView x = a.row(ThreadIndex(t));
        const RowView y = b.row(ThreadIndex(t));
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
            if (!same(std::vector<double> { x.stddev(i) }, std::vector<double> { y.stddev(i) }))
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

QString roundTripDifference(perfdb::Database& db, const Trial& trial, const perfdb::UploadOptions& options, qint64* id)
{
    Progress progress;
    const auto stored = db.uploadTrial(trial, options, progress);
    if (!stored.ok())
        return QStringLiteral("upload: ") + stored.error().toString();
    if (id)
        *id = stored.value();
    const auto loaded = db.loadTrial(stored.value(), progress);
    if (!loaded.ok())
        return QStringLiteral("load: ") + loaded.error().toString();
    return modelDifference(trial, *loaded.value());
}

qint64 scalar(perfdb::SqlDatabase& db, const std::string& sql, const perfdb::SqlParams& params)
{
    auto rows = db.query(sql, params);
    return rows->next() ? rows->toInt(0) : -1;
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
    threads.reserve(keys.size());
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

void PerfdbFixture::initTestCase()
{
    QVERIFY(m_temp.isValid());
    m_pgServer = qEnvironmentVariable("PARALLAX_TEST_PG_URI");
    m_pgPrefix = QStringLiteral("parallax_test_") + randomTag();
}

void PerfdbFixture::cleanupTestCase()
{
    for (const QString& name : std::as_const(m_pgDatabases)) {
        const auto dropped = perfdb::PostgresDatabase::dropDatabase(m_pgServer, name);
        if (!dropped.ok())
            qWarning("%s", why(dropped).constData());
    }
}

QString PerfdbFixture::freshLocation(const QString& backend)
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

void PerfdbFixture::backends(const char* column, const std::vector<const char*>& values)
{
    QTest::addColumn<QString>("backend");
    if (!column) {
        QTest::newRow("sqlite") << QStringLiteral("sqlite");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
        return;
    }
    QTest::addColumn<QString>(column);
    for (const char* backend : { "sqlite", "postgresql" })
        for (const char* value : values)
            QTest::addRow("%s %s", backend, value) << QString::fromLatin1(backend) << QString::fromLatin1(value);
}

std::map<QString, qint64> PerfdbFixture::tableCounts(perfdb::SqlDatabase& db)
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
        counts[QString::fromLatin1(table)] = scalar(db, std::string("SELECT COUNT(*) FROM ") + table);
    }
    return counts;
}

} // namespace parallax::test
