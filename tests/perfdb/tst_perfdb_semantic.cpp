// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Semantic models in the database on both backends (docs/SEMANTICS.md 5): versions, attachments to
// trials (attributed again after loading), and models in a foreign TAUdb.
#include "algebra/semanticmodel.h"
#include "tests/common/testutil.h"
#include "tests/perfdb/perfdbfixture.h"

#include <thread>

using namespace parallax;
using namespace parallax::test;
using perfdb::Database;
using perfdb::SqlDatabase;

namespace {

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

} // namespace

class TestPerfdbSemantic : public PerfdbFixture {
    Q_OBJECT

private Q_SLOTS:
    void semanticModelVersions_data() { backends(); }
    void semanticModelVersions()
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

    void semanticModelAttachments_data() { backends(); }
    void semanticModelAttachments()
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

    void semanticModelInForeignTaudb_data() { backends(); }
    void semanticModelInForeignTaudb()
    {
        OPEN_FRESH_TAUDB(foreign);
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
};

QTEST_GUILESS_MAIN(TestPerfdbSemantic)
#include "tst_perfdb_semantic.moc"
