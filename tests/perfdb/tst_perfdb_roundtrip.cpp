// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Upload and load on both backends: the samples, odd names, synthesized trials and algebra results
// come back exactly; failed and cancelled uploads roll back; concurrent clients see only commits.
#include "algebra/operations.h"
#include "algebra/presence.h"
#include "datasource/synth/synth.h"
#include "perfdb/derivedstatistics.h"
#include "tests/common/testutil.h"
#include "tests/perfdb/perfdbfixture.h"

#include <atomic>
#include <cmath>
#include <thread>

using namespace parallax;
using namespace parallax::test;
using perfdb::Database;

namespace {

const std::vector<const char*> Samples = { "tau2/tau-profiles-callpath-cpi-4rank",
    "tau2/tau-profiles-workflow-xmain-8rank", "tau2/tau-profiles-openmp-2thread", "tau2/tau-profiles-wrap-params",
    "cubelib/test/test28/profile1", "cubelib/test/test28/profile2", "hatchet/tau-cpi-mpi", "tau2/ppk/ring-2rank.ppk",
    "tau2/ppk/ring-8rank.ppk", "tau2/ppk/gromacs-like-loadimbalance-8rank.ppk", "tau2/ppk/xgc-5metrics-16rank.ppk",
    "tau2/ppk/phases-callpath-1thread.ppk", "tau2/ppk/matmult-openmp-24thread-samples.ppk",
    "tau2/ppk/wrf-callpath-16rank.ppk", "cube/pycubexr/time.p4.n2000.x1.r0/profile.cubex",
    "hatchet/caliper-cpi-json/cpi-callpath-profile.json" };

} // namespace

class TestPerfdbRoundTrip : public PerfdbFixture {
    Q_OBJECT

private Q_SLOTS:
    void roundTripSamples_data() { backends("sample", Samples); }

    void roundTripSamples()
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

    // A location the reader recorded apart from the name (a CUBE region's mod/begin/end) goes into
    // TAUdb's timer columns and comes back from them (docs/FORMATS.md 7.4). cubelib test0.0's
    // MANIFEST: foo is /ICL/CUBE/example.c lines 1-10, and main, foo, bar are all in that file.
    void roundTripSourceLocations_data() { backends(); }
    void roundTripSourceLocations()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("cubelib/test/test0.0/test0.0.cubex")));
        QVERIFY(trial);
        QVERIFY(trial->recordedSourceLocation(trial->findEvent(QStringLiteral("foo"))));
        OPEN_FRESH(db);
        qint64 id = 0;
        const QString diff = roundTripDifference(db, *trial, {}, &id); // compares sourceLocationOf of every event
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        const perfdb::SqlParams trialId { id };
        QCOMPARE(scalar(sql_db, "SELECT line_number FROM timer WHERE trial = $1 AND name = 'foo'", trialId), 1);
        QCOMPARE(scalar(sql_db, "SELECT line_number_end FROM timer WHERE trial = $1 AND name = 'foo'", trialId), 10);
        QCOMPARE(scalar(sql_db, "SELECT COUNT(*) FROM timer WHERE trial = $1 AND source_file = '/ICL/CUBE/example.c'",
                     trialId),
            3);
    }

    void roundTripOddNames_data() { backends(); }
    void roundTripOddNames()
    {
        const auto trial = oddTrial();
        OPEN_FRESH(db);
        perfdb::UploadOptions options;
        options.application = OddStrings[1];
        options.experiment = OddStrings[3] + OddStrings[4] + OddStrings[5];
        qint64 id = 0;
        const QString diff = roundTripDifference(db, *trial, options, &id);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        // The trial as listed, with its odd application and experiment; and the schema is intact.
        const auto info = db.trialInfo(id);
        QVERIFY2(info.ok(), why(info).constData());
        QCOMPARE(info.value().name, trial->name());
        QCOMPARE(info.value().application, options.application);
        QCOMPARE(info.value().experiment, options.experiment);
        QCOMPARE(info.value().metrics,
            QStringList({ QStringLiteral("TIME"), OddStrings[1], QStringLiteral("(PAPI/TIME)") }));
        QCOMPARE(info.value().threads, qint64(4));
        QCOMPARE(info.value().nodes, qint64(2));
        QVERIFY(sql_db.tableExists("trial"));
        // The timer rows TAUdb readers use: short name, source location, parameters.
        auto rows = sql_db.query("SELECT short_name, source_file, line_number, column_number, line_number_end, "
                                 "column_number_end FROM timer WHERE trial = $1 AND name = $2",
            { id, QStringLiteral("int f(int) C [{f.c} {3,1}-{9,2}] [ <n> = <100>, <m> = <x> ]") });
        QVERIFY(rows->next());
        QCOMPARE(rows->toText(0), QStringLiteral("int f(int) C"));
        QCOMPARE(rows->toText(1), QStringLiteral("f.c"));
        QCOMPARE(rows->toInt(2), qint64(3));
        QCOMPARE(rows->toInt(3), qint64(1));
        QCOMPARE(rows->toInt(4), qint64(9));
        QCOMPARE(rows->toInt(5), qint64(2));
        rows = sql_db.query("SELECT p.parameter_name, p.parameter_value FROM timer_parameter p JOIN timer t "
                            "ON p.timer = t.id WHERE t.trial = $1 ORDER BY p.parameter_name",
            { id });
        QVERIFY(rows->next());
        QCOMPARE(rows->toText(0), QStringLiteral("m"));
        QCOMPARE(rows->toText(1), QStringLiteral("x"));
        QVERIFY(rows->next());
        QCOMPARE(rows->toText(0), QStringLiteral("n"));
        QCOMPARE(rows->toText(1), QStringLiteral("100"));
        // The middle component that is no event got its own flat timer (docs/FORMATS.md 7.4 step 6).
        rows = sql_db.query(
            "SELECT COUNT(*) FROM timer WHERE trial = $1 AND name = $2", { id, QStringLiteral("missing middle") });
        QVERIFY(rows->next());
        QCOMPARE(rows->toInt(0), qint64(1));
    }

    void roundTripSynthetic_data() { backends(); }
    void roundTripSynthetic()
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
        // A synthesized trial is "derived" (provenance synth); everything else must match.
        qint64 id = 0;
        const QString diff = roundTripDifference(db, *trial, {}, &id);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        const auto info = db.trialInfo(id);
        QVERIFY(info.ok());
        QCOMPARE(info.value().dataSource, QStringLiteral("Other"));
        QVERIFY(info.value().application.isEmpty());
    }

    void derivedValuesOfManyTrials_data() { backends(); }
    /// Database::derivedValues (what `history --db` reads instead of loading, docs/SEMANTICS.md §9):
    /// for two trials at once (odd names, call paths whose prefix is no event, three metrics), the
    /// events named and ordered as loadTrial names them, and each derived row exactly the
    /// DerivedStatistics of the loaded trial (NaN where an event never ran); one metadata value, the
    /// upload's own keys hidden as in the loaded trial; a missing trial is an error naming it.
    void derivedValuesOfManyTrials()
    {
        SynthOptions synth;
        synth.threads = 12;
        synth.events = 20;
        synth.callpathDepth = 3;
        synth.metrics = 3;
        synth.seed = 11;
        const std::vector<std::shared_ptr<Trial>> trials { oddTrial(), synthesizeTrial(synth) };
        OPEN_FRESH(db);
        std::vector<qint64> ids;
        for (const auto& t : trials) {
            Progress progress;
            perfdb::UploadOptions options;
            options.application = QStringLiteral("app");
            const auto id = db.uploadTrial(*t, options, progress);
            QVERIFY2(id.ok(), why(id).constData());
            ids.push_back(id.value());
        }
        QVERIFY(db.setMetadata(ids[1], QStringLiteral("Night"), QStringLiteral("7")).ok());
        const std::vector<int> codes { -6, -1, -2, -4, -5, -4 };
        for (const auto column :
            { perfdb::DerivedColumn::Exclusive, perfdb::DerivedColumn::Inclusive, perfdb::DerivedColumn::Calls }) {
            for (const QString& key : { QStringLiteral("Night"), QStringLiteral("Application") }) {
                const auto read = db.derivedValues(ids, QStringLiteral("TIME"), column, codes, key);
                QVERIFY2(read.ok(), why(read).constData());
                QCOMPARE(read.value().size(), std::size_t(2));
                for (std::size_t k = 0; k < 2; ++k) {
                    const perfdb::DerivedTrialValues& v = read.value()[k];
                    Progress progress;
                    const auto loaded = db.loadTrial(ids[k], progress);
                    QVERIFY2(loaded.ok(), why(loaded).constData());
                    const Trial& t = *loaded.value();
                    QCOMPARE(v.trial, ids[k]);
                    QCOMPARE(v.name, t.name());
                    QVERIFY(v.parallax);
                    QVERIFY(v.hasMetric);
                    QCOMPARE(v.metrics.size(), qsizetype(t.metricCount()));
                    QCOMPARE(v.metadataValue, t.metadataValue(key));
                    QCOMPARE(v.events.size(), qsizetype(t.eventCount()));
                    const perfdb::DerivedStatistics stats(t);
                    const std::size_t metric = t.findMetric(QStringLiteral("TIME")).index();
                    for (std::size_t e = 0; e < t.eventCount(); ++e) {
                        const EventId event(e);
                        QCOMPARE(v.events[qsizetype(e)], t.event(event).name);
                        for (std::size_t c = 0; c < codes.size(); ++c) {
                            const double got = v.values[c][e];
                            if (stats.present(event) == 0) {
                                QVERIFY(std::isnan(got));
                                continue;
                            }
                            const double want = column == perfdb::DerivedColumn::Exclusive
                                ? stats.exclusive(codes[c], event, metric)
                                : column == perfdb::DerivedColumn::Inclusive ? stats.inclusive(codes[c], event, metric)
                                                                             : stats.calls(codes[c], event);
                            QVERIFY2(got == want || (std::isnan(got) && std::isnan(want)),
                                qPrintable(QStringLiteral("%1 row %2: %3 != %4")
                                               .arg(t.event(event).name)
                                               .arg(codes[c])
                                               .arg(got, 0, 'g', 17)
                                               .arg(want, 0, 'g', 17)));
                        }
                    }
                }
                QCOMPARE(
                    read.value()[1].metadataValue, key == QLatin1String("Night") ? QStringLiteral("7") : QString());
            }
        }
        // A metric a trial lacks: no values, hasMetric false.
        const auto none = db.derivedValues(ids, QStringLiteral("nope"), perfdb::DerivedColumn::Exclusive, codes);
        QVERIFY2(none.ok(), why(none).constData());
        QVERIFY(!none.value()[0].hasMetric);
        for (const auto& row : none.value()[0].values)
            for (double x : row)
                QVERIFY(std::isnan(x));
        const auto missing
            = db.derivedValues({ ids[0], 987654 }, QStringLiteral("TIME"), perfdb::DerivedColumn::Exclusive, codes);
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error().message.contains(QLatin1String("there is no trial 987654")),
            qPrintable(missing.error().message));
    }

    void roundTripAlgebraResults_data() { backends(); }
    void roundTripAlgebraResults()
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

    void rollbackOnFailure_data() { backends(); }
    void rollbackOnFailure()
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
        for (const qint64 failAfter :
            { qint64(1), qint64(2), qint64(10), rows / 4, rows / 2, rows - 5, rows - 1, rows }) {
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

    void rollbackOnCancel_data() { backends(); }
    void rollbackOnCancel()
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

    void concurrentUploads_data() { backends(); }
    void concurrentUploads()
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
        auto upload = [&](int which, const std::shared_ptr<Trial>& trial, const QString& name) {
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
};

QTEST_GUILESS_MAIN(TestPerfdbRoundTrip)
#include "tst_perfdb_roundtrip.moc"
