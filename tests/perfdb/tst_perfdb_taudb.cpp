// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// TAUdb compatibility on both backends: the compatibility views' figures, a TAUdb written by TAU's
// Java loader and by TAU's SQLite DDL, and what TAU's own reader needs of a Parallax upload
// (docs/FORMATS.md 7).
#include "tests/common/testutil.h"
#include "tests/perfdb/perfdbfixture.h"

#include <QRegularExpression>
#include <cmath>
#include <limits>

using namespace parallax;
using namespace parallax::test;
using perfdb::Database;
using perfdb::SqlDatabase;
using perfdb::SqlParams;

class TestPerfdbTaudb : public PerfdbFixture {
    Q_OBJECT

private Q_SLOTS:
    void compatibilityViews_data() { backends(); }
    void compatibilityViews()
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
            auto rows
                = sql_db.query("SELECT c.id, c.parent, t.name FROM timer_callpath c JOIN timer t ON c.timer = t.id "
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
            auto rows
                = sql_db.query(sql, { nodeOf(QStringLiteral("MPI_Finalize()")), thread, thread < 0 ? thread : 0 });
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
        // interval_event: one row per node (and group); PostgreSQL names the whole call path, SQLite the
        // node's timer (a recursive view would make SQLite before 3.8.3 refuse the database).
        const QString path = QStringLiteral(".TAU application => MPI_Finalize() => MPI_File_open()");
        QVERIFY(nodeOf(path) > 0);
        auto nameOf = [&](qint64 node) {
            auto rows = sql_db.query("SELECT DISTINCT name FROM interval_event WHERE id = $1", { node });
            return rows->next() ? rows->toText(0) : QString();
        };
        QCOMPARE(nameOf(nodeOf(path)), sqlite ? QStringLiteral("MPI_File_open()") : path);
        QCOMPARE(scalar(sql_db, "SELECT COUNT(DISTINCT id) FROM interval_event WHERE trial = $1", { id }),
            static_cast<qint64>(pathOf.size()));
        for (auto it = pathOf.cbegin(); it != pathOf.cend(); ++it)
            QCOMPARE(nameOf(it.key()), sqlite ? it.value().section(QStringLiteral(" => "), -1) : it.value());
        // Every real cell of the model, and nothing else, is in interval_location_profile.
        QCOMPARE(scalar(sql_db,
                     "SELECT COUNT(*) FROM interval_location_profile v JOIN (SELECT DISTINCT id, trial FROM "
                     "interval_event) e ON e.id = v.interval_event WHERE e.trial = $1",
                     { id }),
            static_cast<qint64>(trial->cellCount() * trial->metricCount()));
        auto rows
            = sql_db.query("SELECT DISTINCT v.interval_event, v.node, v.context, v.thread, v.exclusive, v.inclusive, "
                           "v.call, v.subroutines FROM interval_location_profile v JOIN interval_event e "
                           "ON e.id = v.interval_event WHERE e.trial = $1",
                { id });
        int checked = 0;
        while (rows->next()) {
            const EventId e = trial->findEvent(pathOf.value(rows->toInt(0)));
            const ThreadIndex t = trial->findThread({ static_cast<int>(rows->toInt(1)),
                static_cast<int>(rows->toInt(2)), static_cast<int>(rows->toInt(3)) });
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
        QCOMPARE(scalar(sql_db, "SELECT COUNT(*) FROM atomic_event WHERE trial = $1", { id }),
            static_cast<qint64>(trial->atomicEventCount()));
        QCOMPARE(scalar(sql_db,
                     "SELECT COUNT(*) FROM counter_value v JOIN thread h ON h.id = v.thread WHERE h.trial = $1 "
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
        rows = sql_db.query(
            "SELECT v.sample_count, v.mean_value, v.standard_deviation FROM atomic_location_profile v "
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
        QCOMPARE(scalar(sql_db,
                     "SELECT COUNT(*) FROM atomic_total_summary s JOIN atomic_event e ON e.id = s.atomic_event "
                     "WHERE e.trial = $1",
                     { id }),
            static_cast<qint64>(trial->atomicEventCount()));
        QCOMPARE(scalar(sql_db,
                     "SELECT COUNT(*) FROM atomic_mean_summary s JOIN atomic_event e ON e.id = s.atomic_event "
                     "WHERE e.trial = $1",
                     { id }),
            static_cast<qint64>(trial->atomicEventCount()));
        if (sqlite) {
            // SQLite 3.7 (TAU's JDBC driver) parses the views: no column lists, no WITH.
            rows = sql_db.query("SELECT name, sql FROM sqlite_master WHERE type = 'view'");
            int views = 0;
            while (rows->next()) {
                const QString sql = rows->toText(1);
                QVERIFY2(QRegularExpression(
                             QStringLiteral("^CREATE VIEW \\w+ AS\\s"), QRegularExpression::CaseInsensitiveOption)
                             .match(sql)
                             .hasMatch(),
                    qPrintable(sql));
                QVERIFY2(!sql.contains(QLatin1String("WITH"), Qt::CaseInsensitive), qPrintable(sql));
                ++views;
            }
            QCOMPARE(views, 10);
        }
    }

    void foreignTaudb_data() { backends(); }
    void foreignTaudb()
    {
        // A plain TAUdb: no Parallax tables at all.
        OPEN_FRESH_TAUDB(foreign);
        QVERIFY(!foreign.hasParallaxTables());

        // A trial as TAU's Java loader writes it (docs/FORMATS.md 7.4): calls > 0 only, derived threads,
        // counter_value.standard_deviation holding the sum of squares, secondary_metadata with UUIDs.
        foreign.begin(true);
        const qint64 trial = scalar(foreign,
            "INSERT INTO trial (name, data_source, node_count, contexts_per_node, "
            "threads_per_context, total_threads) VALUES ($1, 1, 2, 1, 1, 2) RETURNING id",
            { QStringLiteral("java trial") });
        const qint64 metric = scalar(
            foreign, "INSERT INTO metric (trial, name, derived) VALUES ($1, 'TIME', FALSE) RETURNING id", { trial });
        const QString fooName = QStringLiteral("foo() [{foo.c} {3,1}-{7,1}]");
        const qint64 mainTimer = scalar(foreign,
            "INSERT INTO timer (trial, name, short_name, source_file, line_number, "
            "line_number_end, column_number, column_number_end) VALUES ($1, 'main()', "
            "'main()', NULL, 0, 0, 0, 0) RETURNING id",
            { trial });
        const qint64 fooTimer = scalar(foreign,
            "INSERT INTO timer (trial, name, short_name, source_file, line_number, "
            "line_number_end, column_number, column_number_end) VALUES ($1, $2, 'foo()', "
            "'foo.c', 3, 7, 1, 1) RETURNING id",
            { trial, fooName });
        foreign.exec("INSERT INTO timer_group (timer, group_name) VALUES ($1, 'TAU_DEFAULT')", { mainTimer });
        foreign.exec("INSERT INTO timer_group (timer, group_name) VALUES ($1, 'TAU_USER')", { fooTimer });
        std::vector<qint64> threads;
        for (int node : { 0, 1, -1, -2 })
            threads.push_back(scalar(foreign,
                "INSERT INTO thread (trial, node_rank, context_rank, thread_rank, thread_index) "
                "VALUES ($1, $2, $3, $4, $5) RETURNING id",
                { trial, node, node < 0 ? node : 0, node < 0 ? node : 0, node }));
        const qint64 mainNode = scalar(
            foreign, "INSERT INTO timer_callpath (timer, parent) VALUES ($1, NULL) RETURNING id", { mainTimer });
        const qint64 fooNode = scalar(
            foreign, "INSERT INTO timer_callpath (timer, parent) VALUES ($1, NULL) RETURNING id", { fooTimer });
        const qint64 pathNode = scalar(
            foreign, "INSERT INTO timer_callpath (timer, parent) VALUES ($1, $2) RETURNING id", { fooTimer, mainNode });
        auto cell = [&](qint64 node, qint64 thread, int calls, int subrs, double excl, double incl) {
            const qint64 data = scalar(foreign,
                "INSERT INTO timer_call_data (timer_callpath, thread, calls, subroutines, time_range) "
                "VALUES ($1, $2, $3, $4, NULL) RETURNING id",
                { node, thread, calls, subrs });
            foreign.exec(
                "INSERT INTO timer_value (timer_call_data, metric, inclusive_value, exclusive_value, "
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
        const qint64 counter = scalar(foreign,
            "INSERT INTO counter (trial, name) VALUES ($1, 'Message size : main() => foo()') RETURNING id", { trial });
        foreign.exec("INSERT INTO counter_value (counter, timer_callpath, thread, sample_count, maximum_value, "
                     "minimum_value, mean_value, standard_deviation) VALUES ($1, NULL, $2, 4, 10, 1, 4, 120)",
            { counter, threads[0] });
        foreign.exec("INSERT INTO primary_metadata (trial, name, value) VALUES ($1, 'Application', 'legacy'), "
                     "($1, 'TAU Version', '2.35')",
            { trial });
        foreign.exec(
            "INSERT INTO secondary_metadata (id, trial, thread, timer_callpath, time_range, parent, name, value, "
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
        QCOMPARE(
            t.groupNames(t.event(path)), QStringList({ QStringLiteral("TAU_CALLPATH"), QStringLiteral("TAU_USER") }));
        QCOMPARE(t.groupNames(t.event(t.findEvent(QStringLiteral("main()")))),
            QStringList { QStringLiteral("TAU_DEFAULT") });
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

    void taudbSqliteVariant()
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
            db.execScript(
                "INSERT INTO trial (id, name, data_source, node_count, contexts_per_node, threads_per_context, "
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
            qint64 id = 0;
            const QString diff = roundTripDifference(db, *trial, {}, &id);
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
            QVERIFY(db.deleteTrial(id).ok());
        }
        QCOMPARE(db.listTrials().value().size(), std::size_t(1));
    }

    void readableByTau_data() { backends(); }
    void readableByTau()
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
        QCOMPARE(scalar(sql_db,
                     "SELECT COUNT(DISTINCT v.thread) FROM counter_value v JOIN thread h ON h.id = v.thread "
                     "WHERE h.trial = $1",
                     { first.value() }),
            qint64(8));
        QCOMPARE(scalar(sql_db,
                     "SELECT COUNT(*) FROM counter_value v JOIN thread h ON h.id = v.thread WHERE h.trial = $1 "
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
};

QTEST_GUILESS_MAIN(TestPerfdbTaudb)
#include "tst_perfdb_taudb.moc"
