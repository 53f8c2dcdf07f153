// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The experiment database's schema on both backends: what a new database holds, refusing a newer
// schema, and the migrations from every older Parallax schema with trials in it (docs/FORMATS.md 7).
#include "algebra/operations.h"
#include "tests/common/testutil.h"
#include "tests/perfdb/perfdbfixture.h"

using namespace parallax;
using namespace parallax::test;
using perfdb::Database;
using perfdb::SqlDatabase;

// NOLINTBEGIN(bugprone-macro-parentheses): the argument names the variable the macro declares.
/// The database at `location` opened again, which migrates it, as `migrated` (a SqlDatabase&) of the
/// current schema version.
#define OPEN_MIGRATED(migrated)                                                                                        \
    auto opened_##migrated = Database::open(location);                                                                 \
    QVERIFY2(opened_##migrated.ok(), why(opened_##migrated).constData());                                              \
    auto& migrated = dynamic_cast<SqlDatabase&>(*opened_##migrated.value());                                           \
    QCOMPARE(migrated.schemaVersion(), SqlDatabase::CurrentSchemaVersion)
// NOLINTEND(bugprone-macro-parentheses)

class TestPerfdbSchema : public PerfdbFixture {
    Q_OBJECT

private Q_SLOTS:
    void createsSchema_data() { backends(); }
    void createsSchema()
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

    void refusesNewerSchema_data() { backends(); }
    void refusesNewerSchema()
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

    void migratesOlderSchema_data() { backends(); }
    void migratesOlderSchema()
    {
        OPEN_FRESH(db);
        // Make it a version-0 Parallax database: TAUdb plus parallax_schema_version, no side tables.
        for (const char* table :
            { "parallax_trial_semantic_model", "parallax_semantic_model", "parallax_counter_deviation",
                "parallax_counter", "parallax_event", "parallax_metric", "parallax_trial" })
            sql_db.execScript(QByteArray("DROP TABLE IF EXISTS ") + table);
        sql_db.exec("UPDATE parallax_schema_version SET version = $1", { 0 });
        OPEN_MIGRATED(migrated);
        QVERIFY(migrated.hasParallaxTables());
        auto rows = migrated.query("SELECT version FROM parallax_schema_version");
        QVERIFY(rows->next());
        QCOMPARE(rows->toInt(0), qint64(SqlDatabase::CurrentSchemaVersion));
        rows.reset();
        const QString diff = roundTripDifference(migrated, *oddTrial());
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    void migratesVersion1WithTrials_data() { backends(); }
    void migratesVersion1WithTrials()
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
        OPEN_MIGRATED(migrated);
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

    void migratesVersion2WithTrial_data() { backends(); }
    void migratesVersion2WithTrial()
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

        OPEN_MIGRATED(migrated);
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

    void migratesVersion3WithTrials_data() { backends(); }
    void migratesVersion3WithTrials()
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
        QVERIFY(scalar(sql_db,
                    "SELECT COUNT(*) FROM counter_value v JOIN thread h ON h.id = v.thread "
                    "WHERE h.thread_index < 0")
            > 0);

        OPEN_MIGRATED(migrated);
        QVERIFY(migrated.hasParallaxTables());
        QVERIFY(!migrated.tableExists("parallax_counter_value"));
        QCOMPARE(scalar(migrated,
                     "SELECT COUNT(*) FROM counter_value v JOIN thread h ON h.id = v.thread "
                     "WHERE h.thread_index < 0"),
            qint64(0));
        // Sums of squares where the deviations were; the diff's explicit deviations kept aside.
        {
            auto rows
                = migrated.query("SELECT c.name, h.node_rank, h.context_rank, h.thread_rank, v.standard_deviation "
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
        QVERIFY(scalar(migrated, "SELECT COUNT(*) FROM parallax_counter_deviation") > 0);
        QCOMPARE(scalar(migrated,
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
        QCOMPARE(scalar(migrated, "SELECT COUNT(*) FROM parallax_counter_deviation"), qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestPerfdbSchema)
#include "tst_perfdb_schema.moc"
