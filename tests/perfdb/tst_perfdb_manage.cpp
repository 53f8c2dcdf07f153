// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Managing trials on both backends: listing and filters, renaming, metadata editing, deleting,
// TAUdb views as filters, and SQL injection through every filter.
#include "tests/common/testutil.h"
#include "tests/perfdb/perfdbfixture.h"

using namespace parallax;
using namespace parallax::test;

class TestPerfdbManage : public PerfdbFixture {
    Q_OBJECT

private Q_SLOTS:
    void manage_data() { backends(); }
    void manage()
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
        QCOMPARE(
            after[QStringLiteral("taudb_view_parameter")], beforeThird.at(QStringLiteral("taudb_view_parameter")) + 3);
        for (const QString& key : { QStringLiteral("taudb_view"), QStringLiteral("taudb_view_parameter") })
            after[key] = beforeThird.at(key);
        QVERIFY(after == beforeThird);
        QCOMPARE(ids({}), QList<qint64>({ a, b }));
        QVERIFY(!db.deleteTrial(c).ok());
        QVERIFY(!db.loadTrial(c, progress).ok());
        QVERIFY(db.loadTrial(b, progress).ok());
    }

    void views_data() { backends(); }
    void views()
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

    void injectionInFilters_data() { backends(); }
    void injectionInFilters()
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
};

QTEST_GUILESS_MAIN(TestPerfdbManage)
#include "tst_perfdb_manage.moc"
