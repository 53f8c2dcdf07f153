// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The CUBE reader on the real samples, against the facts in ../shared/data/{cubelib,tau2,cube/*,extrap}/MANIFEST.md
// and docs/FORMATS.md 5, values checked by hand against the raw .data bytes, and the call-tree
// consistency relations of docs/SEMANTICS.md 1.4; detection, progress and cancellation. The pycubexr
// ground truth is in tst_cubereader_pycubexr.cpp, hand-made unusual and bad input in
// tst_cubereader_handmade.cpp.
#include "tests/datasource/cubetestutil.h"

#include <QTemporaryDir>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

class TestCubeReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sniffAndDetect_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* f : { "test0.0/test0.0.cube", "test0.0/test0.0.cubex", "test1.1/template.cube",
                 "test1.2/empty.cube", "test1.2/no_structure.cube", "test2/template.cube", "test28/template1.cube",
                 "test28/template2.cube", "test32/example.cube", "test33_CubeProxy/proxy.cubex" })
            QTest::newRow(f) << cubelib(f);
        QTest::newRow("scorep") << scorep();
    }
    void sniffAndDetect()
    {
        QFETCH(QString, file);
        QCOMPARE(CubeReader().sniff(file), 100);
        const Reader* r = ReaderRegistry::instance().detect(file);
        QVERIFY(r);
        QCOMPARE(r->name(), QStringLiteral("cube"));
        QVERIFY2(load(file).ok(), qPrintable(describe(load(file))));
    }

    void sniffOthers()
    {
        CubeReader reader;
        QCOMPARE(reader.sniff(dataPath(QStringLiteral("hatchet/tau-cpi-mpi"))), 0);
        QCOMPARE(reader.sniff(dataPath(QStringLiteral("hatchet/tau-cpi-mpi/profile.0.0.0"))), 0);
        QCOMPARE(reader.sniff(dataPath(QStringLiteral("tau2/ppk/ring-2rank.ppk"))), 0);
        QCOMPARE(reader.sniff(cubelib("test2/template.data")), 0);
        QCOMPARE(reader.name(), QStringLiteral("cube"));
        QCOMPARE(reader.description(), QStringLiteral("CUBE profile (Score-P, Scalasca)"));
        QCOMPARE(reader.filePatterns(),
            QStringList({ QStringLiteral("*.cubex"), QStringLiteral("*.cube"), QStringLiteral("*.cube.gz") }));
        // A tar under another name is recognised by its anchor.xml; a .cubex that is no tar still
        // goes to this reader, which says what is wrong.
        QTemporaryDir dir;
        const QString tarPath = dir.filePath(QStringLiteral("profile.tar"));
        writeFile(tarPath, fileBytes(cubelib("test0.0/test0.0.cubex")));
        QCOMPARE(reader.sniff(tarPath), 95);
        const QString other = dir.filePath(QStringLiteral("other.tar"));
        writeFile(other, makeTar({ { QStringLiteral("x.txt"), "x" } }));
        QCOMPARE(reader.sniff(other), 0);
        const QString fake = dir.filePath(QStringLiteral("fake.cubex"));
        writeFile(fake, "hello");
        QCOMPARE(reader.sniff(fake), 50);
        const auto r = readCube(fake);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("not a tar archive")), qPrintable(describe(r)));
        QCOMPARE(r.error().file, fake);
    }

    // ---- tau2/cube-scorep-cpi (MANIFEST + docs/FORMATS.md 8) ---------------------------------------------

    void scorepFacts()
    {
        const auto t = mustRead(scorep());
        QVERIFY(t);
        QCOMPARE(t->metadataValue(QStringLiteral("Creator")), QStringLiteral("Score-P 7.1"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE format version")), QStringLiteral("4.4"));
        QCOMPARE(metricNames(*t),
            QStringList({ QStringLiteral("Visits"), QStringLiteral("Time"), QStringLiteral("Minimum Inclusive Time"),
                QStringLiteral("Maximum Inclusive Time"), QStringLiteral("Hits"), QStringLiteral("bytes_put"),
                QStringLiteral("bytes_get"), QStringLiteral("io_bytes_read"), QStringLiteral("io_bytes_written"),
                QStringLiteral("bytes_sent"), QStringLiteral("bytes_received") }));
        QCOMPARE(t->metric(t->findMetric(QStringLiteral("Time"))).unit, QStringLiteral("sec"));
        QCOMPARE(t->metric(t->findMetric(QStringLiteral("Visits"))).unit, QStringLiteral("count"));
        QCOMPARE(t->metric(t->findMetric(QStringLiteral("bytes_sent"))).unit, QStringLiteral("bytes"));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE metric Time")).contains(QLatin1String("type INCLUSIVE")));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE metric Visits")).contains(QLatin1String("type EXCLUSIVE")));
        // 387 regions, 11 cnodes, 4 locations.
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE regions")), QStringLiteral("387"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("11"));
        QCOMPARE(t->threads(), std::vector<ThreadKey>({ { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 0 } }));
        // Machine and node names: the same on every thread, so trial-wide; process names per thread.
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE machine")), QStringLiteral("machine Linux"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE node")), QStringLiteral("node quartz1"));
        QCOMPARE(
            t->metadataValue(QStringLiteral("CUBE process"), t->findThread({ 2, 0, 0 })), QStringLiteral("MPI Rank 2"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE thread"), t->findThread({ 2, 0, 0 })),
            QStringLiteral("Master thread"));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE misc members")).contains(QLatin1String("remapping.spec")));
        // 11 cnodes: the root (a flat event) and 10 call paths; 11 flat events (10 regions, one of them
        // MPI_Bcast twice: region 20 keeps the name, region 386 gets its source location).
        QCOMPARE(countEvents(*t, true), std::size_t(10));
        QCOMPARE(countEvents(*t, false), std::size_t(11));
        const QString bcast2 = QStringLiteral(
            "MPI_Bcast [{/g/g92/cankur1/tools/scorep/scorep-7.1/src/adapters/mpi/SCOREP_Mpi_Coll.c} {719}-{740}]");
        QVERIFY(t->findEvent(bcast2).isValid());
        QVERIFY(t->findEvent(QStringLiteral("cpi => main => iteration => ") + bcast2).isValid());
        QVERIFY(hasWarning(*t, QStringLiteral("share their name")));
        QVERIFY(t->eventInGroup(t->findEvent(QStringLiteral("MPI_Init")), QStringLiteral("mpi")));
        QVERIFY(
            t->eventInGroup(t->findEvent(QStringLiteral("cpi => main => MPI_Init")), QStringLiteral("TAU_CALLPATH")));
        QCOMPARE(t->provenance().reader, QStringLiteral("cube"));
        QCOMPARE(t->provenance().source, QFileInfo(scorep()).absoluteFilePath());

        // Rank 0 inclusive time (docs/FORMATS.md 8).
        const QString time = QStringLiteral("Time");
        QVERIFY(std::fabs(incl(*t, 0, QStringLiteral("cpi"), time) - 5.055626) < 5e-7);
        QVERIFY(std::fabs(incl(*t, 0, QStringLiteral("cpi => main"), time) - 5.055581) < 5e-7);
        QVERIFY(std::fabs(incl(*t, 0, QStringLiteral("cpi => main => MPI_Init"), time) - 0.506504) < 5e-7);
        QVERIFY(std::fabs(incl(*t, 0, QStringLiteral("cpi => main => iteration"), time) - 4.539142) < 5e-7);
        // Rank 0 visits to iteration: the calls, and the Visits metric.
        QCOMPARE(cell(*t, { 0, 0, 0 }, QStringLiteral("cpi => main => iteration"), QStringLiteral("calls")), 100082.0);
        QCOMPARE(excl(*t, 0, QStringLiteral("cpi => main => iteration"), QStringLiteral("Visits")), 100082.0);
        // bytes_sent rows {6,7}: MPI_Bcast [800000,0,0,0]; MPI_Reduce 400000 on each rank.
        const QString sent = QStringLiteral("bytes_sent");
        const QString bcast = QStringLiteral("cpi => main => iteration => MPI_Bcast");
        const QString reduce = QStringLiteral("cpi => main => iteration => MPI_Reduce");
        QCOMPARE(excl(*t, 0, bcast, sent), 800000.0);
        for (int r = 1; r < 4; ++r)
            QCOMPARE(excl(*t, r, bcast, sent), 0.0); // present (visited), nothing sent
        for (int r = 0; r < 4; ++r)
            QCOMPARE(excl(*t, r, reduce, sent), 400000.0);
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi"), sent), 800000.0 + 400000.0);
        // Metrics without .data members (5-8) are all zero.
        for (const char* m : { "bytes_put", "bytes_get", "io_bytes_read", "io_bytes_written" })
            QCOMPARE(cnodeSum(*t, QLatin1String(m)), 0.0);
        checkConsistency(*t);
    }

    void scorepHandValues()
    {
        // Raw doubles of 1.data (INCLUSIVE time, sibling-block rows 0,1,2,3,4,5,8,9,6,7,10) and
        // 0.data (EXCLUSIVE visits, pre-order rows), decoded by hand from the member bytes.
        const auto t = mustRead(scorep());
        QVERIFY(t);
        const QString time = QStringLiteral("Time");
        const double cpi = 5.055625617385637, main = 5.0555813527782085, init = 0.5065039521570334,
                     size = 0.0030605724957162082, rank = 0.0003665794505637287, iteration = 4.539142315657635,
                     cold = 0.0020281095124839916, finalize = 0.004361493084857271, bcast = 2.045318423534962,
                     reduce = 2.114011346227246;
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi"), time), cpi);
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi => main => iteration.cold.1"), time), cold);
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi => main => MPI_Finalize"), time), finalize);
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi => main => iteration => MPI_Bcast"), time), bcast);
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi => main => iteration => MPI_Reduce"), time), reduce);
        QVERIFY(closeTo(excl(*t, 0, QStringLiteral("cpi"), time), cpi - main));
        QVERIFY(closeTo(excl(*t, 0, QStringLiteral("cpi => main"), time),
            main - (init + size + rank + iteration + cold + finalize)));
        QVERIFY(closeTo(excl(*t, 0, QStringLiteral("cpi => main"), time), 0.000118330419918));
        QVERIFY(closeTo(excl(*t, 0, QStringLiteral("cpi => main => iteration"), time), 0.3798125458954269));
        // The sampled MPI_Bcast (cnode 10) ran on rank 1 only: visits row 8 = (0,1,0,0), time row 10.
        const QString bcast2 = QStringLiteral("cpi => main => iteration => MPI_Bcast [{/g/g92/cankur1/tools/scorep/"
                                              "scorep-7.1/src/adapters/mpi/SCOREP_Mpi_Coll.c} {719}-{740}]");
        QCOMPARE(incl(*t, 0, bcast2, time), Absent);
        QCOMPARE(incl(*t, 1, bcast2, time), 4.174784125470135e-05);
        QCOMPARE(cell(*t, { 1, 0, 0 }, bcast2, QStringLiteral("calls")), 1.0);
        // Visits on rank 3: main 100123 (row 1), iteration.cold.1 24 (row 9 -> cnode 8).
        QCOMPARE(excl(*t, 3, QStringLiteral("cpi => main"), QStringLiteral("Visits")), 100123.0);
        QCOMPARE(excl(*t, 3, QStringLiteral("cpi => main => iteration.cold.1"), QStringLiteral("Visits")), 24.0);
        QCOMPARE(cell(*t, { 3, 0, 0 }, QStringLiteral("cpi => main"), QStringLiteral("subrs")),
            1.0 + 1 + 1 + 100095 + 24 + 1);
        // Hits (EXCLUSIVE, pre-order): iteration 95 on rank 3, MPI_Bcast 4/24/113/125.
        QCOMPARE(excl(*t, 3, QStringLiteral("cpi => main => iteration"), QStringLiteral("Hits")), 95.0);
        QCOMPARE(excl(*t, 2, QStringLiteral("cpi => main => iteration => MPI_Bcast"), QStringLiteral("Hits")), 113.0);
        // Flat events: MPI_Bcast is region 20 only; main equals its single path.
        QCOMPARE(excl(*t, 0, QStringLiteral("MPI_Bcast"), QStringLiteral("Hits")), 4.0);
        QCOMPARE(incl(*t, 0, QStringLiteral("main"), time), main);
    }

    void scorepNonAdditive()
    {
        const auto t = mustRead(scorep());
        QVERIFY(t);
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE non-additive metrics")),
            QStringLiteral("Minimum Inclusive Time, Maximum Inclusive Time"));
        // excl = incl = the stored per-cnode value (2.data / 3.data, pre-order rows).
        const QString minTime = QStringLiteral("Minimum Inclusive Time");
        const QString maxTime = QStringLiteral("Maximum Inclusive Time");
        const QString path = QStringLiteral("cpi => main => iteration => MPI_Bcast");
        QCOMPARE(excl(*t, 0, path, minTime), 3.773285607080648e-05);
        QCOMPARE(incl(*t, 0, path, minTime), 3.773285607080648e-05);
        QCOMPARE(excl(*t, 0, path, maxTime), 0.0027380691219425356);
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi"), maxTime), 5.055625617385637);
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi => main"), minTime), 9.874232523690097e-06);
    }

    // ---- cubelib samples ------------------------------------------------------------------------------

    void test00CubeAndCubex()
    {
        const auto x = mustRead(cubelib("test0.0/test0.0.cube"));
        const auto y = mustRead(cubelib("test0.0/test0.0.cubex"));
        const auto z = mustRead(cubelib("test2/template.cube")); // same content (MANIFEST)
        QVERIFY(x && y && z);
        for (const auto& t : { x, y, z }) {
            QCOMPARE(metricNames(*t),
                QStringList({ QStringLiteral("Time"), QStringLiteral("User time"), QStringLiteral("System time") }));
            QCOMPARE(t->threads(), std::vector<ThreadKey>({ { 0, 0, 0 }, { 1, 0, 1 } }));
            QVERIFY(t->metadataValue(QStringLiteral("CUBE metric User time")).contains(QLatin1String("parent Time")));
            QCOMPARE(t->metadataValue(QStringLiteral("description")), QStringLiteral("a simple example"));
            QCOMPARE(t->metadataValue(QStringLiteral("CUBE machine")), QStringLiteral("MSC"));
            QCOMPARE(t->metadataValue(QStringLiteral("CUBE node")), QStringLiteral("Athena"));
            QCOMPARE(t->metadataValue(QStringLiteral("CUBE process"), t->findThread({ 1, 0, 1 })),
                QStringLiteral("Process 1"));
            QVERIFY(t->metadataValue(QStringLiteral("CUBE topologies")).contains(QLatin1String("5 (periodic) x 5")));
            QVERIFY(hasWarning(*t, QStringLiteral("no Visits metric")));
            const ThreadKey t0 { 0, 0, 0 }, t1 { 1, 0, 1 };
            const QString time = QStringLiteral("Time");
            const QString user = QStringLiteral("User time");
            const QString sys = QStringLiteral("System time");
            // Uniq_name1: main [4,0], foo [5,9]; Uniq_name2: main [2,1], foo [0,3]; Uniq_name3: foo [0,323].
            QCOMPARE(cell(*t, t0, QStringLiteral("main"), time), 4.0);
            QCOMPARE(cell(*t, t1, QStringLiteral("main"), time), 0.0);
            QCOMPARE(cell(*t, t0, QStringLiteral("main => foo"), time), 5.0);
            QCOMPARE(cell(*t, t1, QStringLiteral("main => foo"), time), 9.0);
            QCOMPARE(cell(*t, t0, QStringLiteral("main"), time, true), 9.0);
            QCOMPARE(cell(*t, t1, QStringLiteral("main"), time, true), 9.0);
            QCOMPARE(cell(*t, t0, QStringLiteral("main"), user), 2.0);
            QCOMPARE(cell(*t, t1, QStringLiteral("main => foo"), user), 3.0);
            QCOMPARE(cell(*t, t1, QStringLiteral("main => foo"), sys), 323.0);
            QCOMPARE(cell(*t, t1, QStringLiteral("main"), sys, true), 323.0);
            QCOMPARE(cell(*t, t0, QStringLiteral("main => foo"), QStringLiteral("calls")), 0.0);
            // bar is zero everywhere: absent; foo on thread 0 is present (Time 5).
            QCOMPARE(cell(*t, t0, QStringLiteral("main => bar"), time), Absent);
            QVERIFY(t->findEvent(QStringLiteral("bar")).isValid());
            checkConsistency(*t);
        }
        // The cubex keeps its misc members (docs/FORMATS.md 5.3: they must be preserved).
        QVERIFY(
            y->metadataValue(QStringLiteral("CUBE misc Humpty Dumpty")).startsWith(QLatin1String("Humpty Dumpty sat")));
        QVERIFY(y->metadataValue(QStringLiteral("CUBE misc Jabberwocky")).contains(QLatin1String("bryllyg")));
        QCOMPARE(y->metadataValue(QStringLiteral("CUBE format version")), QStringLiteral("4.0"));
        QCOMPARE(x->metadataValue(QStringLiteral("CUBE format version")), QStringLiteral("3.0"));
        const QByteArray expected = fileBytes(cubelib("test0.0/template.out"));
        QVERIFY(expected.contains(y->metadataValue(QStringLiteral("CUBE misc Humpty Dumpty")).trimmed().toUtf8()));
    }

    void test11RawAmpersand()
    {
        const QString file = cubelib("test1.1/template.cube");
        const auto t = mustRead(file);
        QVERIFY(t);
        QVERIFY2(hasWarning(*t, QStringLiteral("bare '&'")), qPrintable(t->warnings().join(QLatin1Char('\n'))));
        QVERIFY(hasWarning(*t, QStringLiteral("first at line 1268")));
        QCOMPARE(t->metricCount(), std::size_t(47));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE regions")), QStringLiteral("176"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("21"));
        QCOMPARE(t->threadCount(), std::size_t(32));
        for (int p = 0; p < 8; ++p)
            for (int th = 0; th < 4; ++th)
                QVERIFY(t->findThread({ p, 0, th }).isValid());
        // Region 172: the raw '&' and the entities around it.
        const QString region = QStringLiteral("parallel \" < --&--' & ggg> & >>");
        QVERIFY(t->findEvent(region).isValid());
        QVERIFY(t->findEvent(QStringLiteral("main => ") + region).isValid());
        // Σ Time = 9.609755 = Execution 4.892569 + Overhead 0.003509 + Idle Threads 4.713678 (metric tree
        // stored inclusively); Σ Visits 2576; top cnode `step` 864 visits.
        const double time = cnodeSum(*t, QStringLiteral("Time"));
        QVERIFY2(std::fabs(time - 9.609755) < 5e-7, qPrintable(QString::number(time, 'g', 12)));
        QVERIFY(std::fabs(cnodeSum(*t, QStringLiteral("Execution")) - 4.892569) < 5e-7);
        QVERIFY(std::fabs(cnodeSum(*t, QStringLiteral("Overhead")) - 0.003509) < 5e-7);
        QVERIFY(std::fabs(cnodeSum(*t, QStringLiteral("Idle Threads")) - 4.713678) < 1e-6);
        QVERIFY(closeTo(time,
            cnodeSum(*t, QStringLiteral("Execution")) + cnodeSum(*t, QStringLiteral("Overhead"))
                + cnodeSum(*t, QStringLiteral("Idle Threads"))));
        QCOMPARE(cnodeSum(*t, QStringLiteral("Visits")), 2576.0);
        QCOMPARE(callsSum(*t), 2576.0);
        double step = 0;
        for (std::size_t th = 0; th < t->threadCount(); ++th) {
            const RowView row = t->row(ThreadIndex(th));
            const auto i = row.find(t->findEvent(QStringLiteral("step")));
            if (i >= 0)
                step += row.calls[static_cast<std::size_t>(i)];
        }
        QCOMPARE(step, 864.0);
        // Duplicate disp_names are told apart by uniq_name.
        QVERIFY(t->findMetric(QStringLiteral("Barrier (15Barrier)")).isValid());
        QVERIFY(t->findMetric(QStringLiteral("Barrier (22Barrier)")).isValid());
        checkConsistency(*t);

        // equal.cube is byte-identical; not_equal2 negates three values; not_equal1 renames metrics.
        const auto same = mustRead(cubelib("test1.1/equal.cube"));
        const auto data = mustRead(cubelib("test1.1/not_equal2.cube"));
        const auto dims = mustRead(cubelib("test1.1/not_equal1.cube"));
        QVERIFY(same && data && dims);
        std::size_t differing = 0;
        for (std::size_t th = 0; th < t->threadCount(); ++th) {
            QCOMPARE(same->row(ThreadIndex(th)).excl, t->row(ThreadIndex(th)).excl);
            const auto& a = t->row(ThreadIndex(th)).excl;
            const auto& b = data->row(ThreadIndex(th)).excl;
            QCOMPARE(a.size(), b.size());
            for (std::size_t i = 0; i < a.size(); ++i)
                differing += a[i] != b[i] ? 1 : 0;
        }
        QVERIFY(differing >= 3);
        QVERIFY(dims->metadataValue(QStringLiteral("CUBE metric API")).contains(QLatin1String("28API_"))
            || dims->metadataValue(QStringLiteral("CUBE metric Critical")).contains(QLatin1String("Critical_")));
    }

    void test12EmptyAndNoStructure()
    {
        const auto empty = mustRead(cubelib("test1.2/empty.cube"));
        QVERIFY(empty);
        QCOMPARE(empty->threadCount(), std::size_t(32));
        QCOMPARE(empty->metricCount(), std::size_t(47));
        QCOMPARE(empty->cellCount(), std::size_t(0)); // every value 0: nothing ran
        QVERIFY(hasWarning(*empty, QStringLiteral("fewer values than threads")));
        QVERIFY(hasWarning(*empty, QStringLiteral("bare '&'")));
        QVERIFY(readCube(cubelib("test1.2/empty.cube"), true).ok()); // short rows are not data loss
        const auto none = mustRead(cubelib("test1.2/no_structure.cube"));
        QVERIFY(none);
        QCOMPARE(none->threadCount(), std::size_t(0));
        QCOMPARE(none->metricCount(), std::size_t(0));
        QCOMPARE(none->eventCount(), std::size_t(0));
        QVERIFY(!none->metadataValue(QStringLiteral("CUBE format version")).isEmpty());
        const auto nonEmpty = mustRead(cubelib("test1.2/non_empty1.cube"));
        QVERIFY(nonEmpty);
        QVERIFY(nonEmpty->cellCount() > 0);
    }

    void test28Tau2Cube()
    {
        const auto t1 = mustRead(cubelib("test28/template1.cube"));
        QVERIFY(t1);
        QCOMPARE(t1->metadataValue(QStringLiteral("CUBE_CT_AGGR")), QStringLiteral("MAX"));
        QCOMPARE(metricNames(*t1), QStringList({ QStringLiteral("BGP"), QStringLiteral("CALLS") }));
        QCOMPARE(t1->metadataValue(QStringLiteral("CUBE regions")), QStringLiteral("195"));
        QCOMPARE(t1->eventCount(), std::size_t(195)); // every region a root cnode: 195 flat events
        QCOMPARE(t1->threadCount(), std::size_t(1));
        const QString s3d = QStringLiteral("S3D [{main.pp.f90} {4,3}-{130,17}]");
        const QString getrates = QStringLiteral("GETRATES_I [{getrates_i.pp.f} {40,7}-{99,9}]");
        QCOMPARE(excl(*t1, 0, s3d, QStringLiteral("BGP")), 3115316612.0);
        QCOMPARE(excl(*t1, 0, getrates, QStringLiteral("BGP")), 1769934105.0);
        QCOMPARE(excl(*t1, 0, getrates, QStringLiteral("CALLS")), 1350000.0);

        const auto t2 = mustRead(cubelib("test28/template2.cube"));
        QVERIFY(t2);
        const QString main = QStringLiteral("main() (calls f1, f5)");
        const QString f1 = main + QStringLiteral(" => f1() (sleeps 1 sec, calls f2, f4)");
        const QString f2 = QStringLiteral("f2() (sleeps 2 sec, calls f3)");
        const QString f3 = QStringLiteral("f3() (sleeps 3 sec)");
        const QString f4 = QStringLiteral("f4() (sleeps 4 sec, calls f2)");
        QCOMPARE(t2->eventCount(), std::size_t(6 + 7));
        // TIME rows 0,1,2,3,4,2,3,5 are exclusive; Σ 20 = main incl.
        QCOMPARE(incl(*t2, 0, main, QStringLiteral("TIME")), 20.0);
        QCOMPARE(excl(*t2, 0, f1 + QStringLiteral(" => ") + f2, QStringLiteral("TIME")), 2.0);
        QCOMPARE(incl(*t2, 0, f1 + QStringLiteral(" => ") + f4, QStringLiteral("TIME")), 4.0 + 2 + 3);
        QCOMPARE(excl(*t2, 0, f2, QStringLiteral("TIME")), 4.0); // flat: two call paths
        QCOMPARE(incl(*t2, 0, f2, QStringLiteral("TIME")), 10.0);
        QCOMPARE(excl(*t2, 0, f3, QStringLiteral("TIME")), 6.0);
        // CALLS rows -1,-1,0,1,0,0,1,1: stored as differences, so inclusive values are call counts.
        QCOMPARE(excl(*t2, 0, main, QStringLiteral("CALLS")), -1.0);
        QCOMPARE(incl(*t2, 0, main, QStringLiteral("CALLS")), 1.0);
        QCOMPARE(incl(*t2, 0, f1 + QStringLiteral(" => ") + f4, QStringLiteral("CALLS")), 1.0);
        QCOMPARE(cnodeSum(*t2, QStringLiteral("TIME")), 20.0);
        QCOMPARE(cnodeSum(*t2, QStringLiteral("CALLS")), 1.0);
        checkConsistency(*t2);
    }

    void test32Negative()
    {
        const auto t = mustRead(cubelib("test32/example.cube"));
        QVERIFY(t);
        QCOMPARE(t->metricCount(), std::size_t(4));
        QCOMPARE(t->threadCount(), std::size_t(2));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("3"));
        QVERIFY(closeTo(cnodeSum(*t, QStringLiteral("Time")), 6827.1));
        QVERIFY(closeTo(cnodeSum(*t, QStringLiteral("User time")), -691.3));
        QVERIFY(closeTo(cnodeSum(*t, QStringLiteral("NEWTime")), 49));
        QVERIFY(closeTo(cnodeSum(*t, QStringLiteral("NEW User time")), 339));
        QVERIFY(t->findEvent(QStringLiteral("<<init>>foo")).isValid());
        const ThreadIndex t0 = t->findThread({ 0, 0, 0 });
        QVERIFY(t0.isValid());
        QCOMPARE(cell(*t, t->threadKey(t0), QStringLiteral("main"), QStringLiteral("Time")), -1123.4);
        double foo = 0;
        for (std::size_t th = 0; th < t->threadCount(); ++th)
            foo += cell(*t, t->threadKey(ThreadIndex(th)), QStringLiteral("<<init>>foo"), QStringLiteral("Time"));
        QVERIFY(closeTo(foo, 3691.3));
        QVERIFY(
            t->metadataValue(QStringLiteral("CUBE metric NEW User time")).contains(QLatin1String("parent NEWTime")));
        checkConsistency(*t);
    }

    void test33DenseProxy()
    {
        const auto t = mustRead(cubelib("test33_CubeProxy/proxy.cubex"));
        QVERIFY(t);
        QCOMPARE(metricNames(*t), QStringList({ QStringLiteral("Time"), QStringLiteral("Visits") }));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("236"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE regions")), QStringLiteral("236"));
        QCOMPARE(t->threadCount(), std::size_t(1));
        // 236 cnodes: 8 roots (MPI, OpenMP, ...) with 228 children; 236 flat events.
        QCOMPARE(countEvents(*t, true), std::size_t(228));
        QCOMPARE(countEvents(*t, false), std::size_t(236));
        QCOMPARE(cnodeSum(*t, QStringLiteral("Time")), 228.0);
        QCOMPARE(cnodeSum(*t, QStringLiteral("Visits")), 228.0);
        QVERIFY(t->warnings().isEmpty());
        checkConsistency(*t);
    }

    void gzipped()
    {
        QTemporaryDir dir;
        const QString plain = cubelib("test1.1/template.cube");
        const QString gz = dir.filePath(QStringLiteral("template.cube.gz"));
        writeFile(gz, gzip(fileBytes(plain)));
        QCOMPARE(CubeReader().sniff(gz), 100);
        const auto a = mustRead(plain);
        const auto b = mustRead(gz);
        QVERIFY(a && b);
        QCOMPARE(a->eventCount(), b->eventCount());
        for (std::size_t th = 0; th < a->threadCount(); ++th)
            QCOMPARE(a->row(ThreadIndex(th)).excl, b->row(ThreadIndex(th)).excl);
        QVERIFY(hasWarning(*b, QStringLiteral("first at line 1268")));
        // Two gzip members are one stream.
        const QByteArray all = fileBytes(cubelib("test0.0/test0.0.cube"));
        const QString two = dir.filePath(QStringLiteral("two.cube.gz"));
        writeFile(two, gzip(all.left(1000)) + gzip(all.mid(1000)));
        const auto c = mustRead(two);
        QVERIFY(c);
        QCOMPARE(cell(*c, { 1, 0, 1 }, QStringLiteral("main => foo"), QStringLiteral("System time")), 323.0);
        // Truncated gzip: the XML ends early.
        const QString cut = dir.filePath(QStringLiteral("cut.cube.gz"));
        writeFile(cut, gzip(fileBytes(plain)).left(9000));
        const auto r = readCube(cut);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("truncated")), qPrintable(describe(r)));
        QVERIFY(r.error().line > 0);
        // Corrupt deflate data.
        QByteArray bad = gzip(fileBytes(plain));
        for (qsizetype i = 200; i < 260; ++i)
            bad[i] = static_cast<char>(bad[i] ^ 0x5a);
        const QString corrupt = dir.filePath(QStringLiteral("corrupt.cube.gz"));
        writeFile(corrupt, bad);
        const auto rc = readCube(corrupt);
        QVERIFY(!rc.ok());
        QVERIFY2(rc.error().message.contains(QLatin1String("gzip")) || rc.error().line > 0, qPrintable(describe(rc)));
    }

    void progressAndCancel()
    {
        QStringList stages;
        qint64 lastDone = 0;
        Progress progress([&](const QString& stage, qint64 done, qint64) {
            if (stages.isEmpty() || stages.last() != stage)
                stages << stage;
            lastDone = std::max(lastDone, done);
        });
        const auto r = CubeReader().read(scorep(), ReadOptions(), progress);
        QVERIFY(r.ok());
        QVERIFY2(stages.contains(QStringLiteral("Reading CUBE archive")), qPrintable(stages.join(QLatin1Char(','))));
        QVERIFY(stages.contains(QStringLiteral("Reading CUBE severities"))); // anchor.xml is last: 2 passes
        QVERIFY(stages.contains(QStringLiteral("Building the trial")));
        for (const QString& file : { scorep(), cubelib("test1.1/template.cube") }) {
            Progress cancelled;
            cancelled.cancel();
            const auto c = CubeReader().read(file, ReadOptions(), cancelled);
            QVERIFY(!c.ok());
            QCOMPARE(c.error().message, QStringLiteral("cancelled"));
        }
    }

    // ---- cube/scalasca-cube3 (MANIFEST.md): pattern metrics, Cartesian topologies ------------------

    void cube3PatternMetricsAndTopologies()
    {
        const auto t = mustRead(cube3("cubew-test3-template.cube"));
        QVERIFY(t);
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE format version")), QStringLiteral("3.0"));
        QCOMPARE(t->metadataValue(QStringLiteral("description")), QStringLiteral("a simple example"));
        QCOMPARE(t->metadataValue(QStringLiteral("experiment time")), QStringLiteral("November 1st, 2004"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE mirrors")).count(QLatin1String("kojak/")), 4);
        QCOMPARE(t->metricCount(), std::size_t(40));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE regions")), QStringLiteral("169"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("300"));
        QCOMPARE(t->threadCount(), std::size_t(64));
        // Pattern metrics: display name, unique name, dtype, unit, URL, description.
        const QString barrier = t->metadataValue(QStringLiteral("CUBE metric Wait at Barrier"));
        for (const char* part : { "uniq_name mpi_barrier_wait", "dtype FLOAT", "uom sec",
                 "url http://www.cs.utk.edu/sys.html", "Waiting time in front of MPI barriers" })
            QVERIFY2(barrier.contains(QLatin1String(part)), qPrintable(barrier));
        // "@mirror@" is the first <murl>.
        QVERIFY2(t->metadataValue(QStringLiteral("CUBE metric Time"))
                     .contains(QLatin1String("url http://icl.cs.utk.edu/software/kojak/patterns-2.1.html#execution")),
            qPrintable(t->metadataValue(QStringLiteral("CUBE metric Time"))));
        // Display names used twice are told apart by uniq_name; the hierarchy is kept.
        QVERIFY(t->findMetric(QStringLiteral("Late Sender (mpi_latesender)")).isValid());
        QVERIFY(t->findMetric(QStringLiteral("Late Sender (mpi_cls_count)")).isValid());
        QCOMPARE(t->metric(t->findMetric(QStringLiteral("Late Sender (mpi_cls_count)"))).unit, QStringLiteral("count"));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE metric Messages in Wrong Order (mpi_latesender_wo)"))
                    .contains(QLatin1String("parent Late Sender (mpi_latesender)")));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE metric Late Sender (mpi_latesender)"))
                    .contains(QLatin1String("Time a receiving process is waiting for a message")));
        // Four named topologies, one with 14 dimensions.
        QString third = QStringLiteral("Third: 3 (periodic)");
        for (int d = 1; d < 14; ++d)
            third += QStringLiteral(" x 3");
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE topologies")),
            QStringLiteral("My Topology 1: 5 (periodic) x 5; Application topology 3: 3 (periodic) x 3; Second: 3 "
                           "(periodic) x 3 x 3 x 3; ")
                + third);
        // Severities: metric 0 (Time) on cnode 0 starts 0 1 2 3; metric 4 (mpi_latesender) 4 5 6 7. The
        // root's region UNKNOWN is also cnode 169 (rows 169 170 ... and 173 174 ...), so its event holds
        // the flat totals of both (docs/SEMANTICS.md 1.4), with a warning.
        QVERIFY(hasWarning(*t, QStringLiteral("1 call-tree root(s) also occur deeper")));
        for (int l = 0; l < 4; ++l) {
            const ThreadKey key { l, 0, l };
            QCOMPARE(cell(*t, key, QStringLiteral("UNKNOWN"), QStringLiteral("Time")), double(l + 169 + l));
            QCOMPARE(cell(*t, key, QStringLiteral("UNKNOWN"), QStringLiteral("Late Sender (mpi_latesender)")),
                double(4 + l + 173 + l));
        }
    }

    void cube3KojakPatterns()
    {
        const auto t = mustRead(cube3("kojak-example-ctest-pomp.cube"));
        QVERIFY(t);
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE_CT_AGGR")), QStringLiteral("SUM"));
        QCOMPARE(t->metricCount(), std::size_t(47));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE regions")), QStringLiteral("176"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("21"));
        QCOMPARE(t->threadCount(), std::size_t(32)); // 8 processes x 4 threads
        QVERIFY(t->findThread(ThreadKey { 7, 0, 3 }).isValid());
        QVERIFY(t->metadataValue(QStringLiteral("CUBE topologies")).isEmpty()); // an empty <topologies>
        // KOJAK unique names (id + display name), pattern hierarchy, URLs from the mirror.
        const QString lateSender = t->metadataValue(QStringLiteral("CUBE metric Late Sender"));
        QVERIFY2(lateSender.contains(QLatin1String("uniq_name 11Late Sender"))
                && lateSender.contains(QLatin1String("parent P2P"))
                && lateSender.contains(QLatin1String(
                    "url http://icl.cs.utk.edu/projectsfiles/kojak/software/kojak/patterns-2.2.html#mpi_late_sender")),
            qPrintable(lateSender));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE metric P2P")).contains(QLatin1String("parent Communication")));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE metric Wait at Barrier (26Wait at Barrier)"))
                    .contains(QLatin1String("parent Implict")));
        for (const char* e :
            { "main => parallel => sequential => !$omp parallel @ctest-pomp.c:48 => !$omp for @ctest-pomp.c:53 => step",
                "main => parallel => p2p => MPI_Wait", "main => MPI_Finalize => TRACING" })
            QVERIFY2(t->findEvent(QLatin1String(e)).isValid(), e);
        // 0Time on cnode 0 (main), and 17Wait at Barrier only on cnodes 12 and 14 (both MPI_Barrier).
        for (int th = 0; th < 4; ++th) {
            QCOMPARE(
                cell(*t, ThreadKey { 0, 0, th }, QStringLiteral("main"), QStringLiteral("Time")), 0.000181790997885);
            QCOMPARE(
                cell(*t, ThreadKey { 1, 0, th }, QStringLiteral("main"), QStringLiteral("Time")), 0.000236111001868);
        }
        const QString wait = QStringLiteral("Wait at Barrier (17Wait at Barrier)");
        QCOMPARE(
            cell(*t, ThreadKey { 0, 0, 0 }, QStringLiteral("main => parallel => MPI_Barrier"), wait), 0.0403733120002);
        QCOMPARE(
            cell(*t, ThreadKey { 1, 0, 0 }, QStringLiteral("main => parallel => MPI_Barrier"), wait), 0.042913903002);
        const double elsewhere = cell(*t, ThreadKey { 0, 0, 0 }, QStringLiteral("main => MPI_Init"), wait);
        QVERIFY(elsewhere == 0 || elsewhere == Absent);
        checkConsistency(*t);
    }

    // ---- extrap/cubeset (MANIFEST.md C): Score-P 1.3 .cubex with a gzip anchor.xml and ZCUBEX.DATA ---

    void extrapCompressedCubex()
    {
        const QString file = dataPath(QStringLiteral("extrap/cubeset/multi_parameter/mm.x25y25z25.r1/profile.cubex"));
        const auto t = mustRead(file);
        QVERIFY(t);
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE anchor.xml compression")), QStringLiteral("gzip"));
        QCOMPARE(t->metadataValue(QStringLiteral("Creator")), QStringLiteral("Score-P 1.3"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("4"));
        QCOMPARE(t->threadCount(), std::size_t(1));
        const QList<TarMember> members = readTar(fileBytes(file));
        QVERIFY(member(members, QStringLiteral("1.data"))->data.startsWith("ZCUBEX.DATA"));
        // Values (MANIFEST, verified there with pycubexr), to the digits given.
        QVERIFY(std::fabs(excl(*t, 0, QStringLiteral("main"), QStringLiteral("Time")) - 1.2093e-05) <= 5e-10);
        QVERIFY(std::fabs(incl(*t, 0, QStringLiteral("main"), QStringLiteral("Time")) - 4.5026e-05) <= 5e-10);
        QVERIFY(
            std::fabs(incl(*t, 0, QStringLiteral("main => init_mat"), QStringLiteral("Time")) - 1.5117e-05) <= 5e-10);
        QVERIFY(
            std::fabs(incl(*t, 0, QStringLiteral("main => zero_mat"), QStringLiteral("Time")) - 1.655e-06) <= 5e-10);
        QVERIFY(
            std::fabs(incl(*t, 0, QStringLiteral("main => mat_mul"), QStringLiteral("Time")) - 1.6161e-05) <= 5e-10);
        checkConsistency(*t);
        // Every run of the 3x3x3 grid reads.
        for (const char* x : { "1", "10", "25" })
            for (const char* y : { "1", "10", "25" })
                for (const char* z : { "1", "10", "25" }) {
                    const QString run
                        = dataPath(QStringLiteral("extrap/cubeset/multi_parameter/mm.x%1y%2z%3.r1/profile.cubex")
                                       .arg(QLatin1String(x), QLatin1String(y), QLatin1String(z)));
                    QVERIFY2(readCube(run).ok(), qPrintable(describe(readCube(run))));
                }
    }

    void extrapSimpleThreaded()
    {
        // 2 processes x 2 threads; every value scales linearly with f (MANIFEST C).
        for (int f : { 1, 5 }) {
            const auto t = mustRead(
                dataPath(QStringLiteral("extrap/cubeset/simple_threaded/example.f%1/cube-example%1.cubex").arg(f)));
            QVERIFY(t);
            const ThreadKey keys[] = { { 0, 0, 0 }, { 0, 0, 1 }, { 1, 0, 0 }, { 1, 0, 1 } };
            const double foo[] = { 5.0, 0, 4.9, 0 }, bar[] = { 4.2, 0, 4.1, 0 }, omp[] = { 3.5, 3.2, 3.4, 3.1 },
                         main[] = { 14.0, 3.2, 13.9, 3.1 };
            auto value = [&](ThreadKey k, const char* event, const char* metric, bool inclusive) {
                const double v = cell(*t, k, QLatin1String(event), QLatin1String(metric), inclusive);
                return v == Absent ? 0.0 : v;
            };
            for (int l = 0; l < 4; ++l) {
                QVERIFY(closeTo(value(keys[l], "main => foo", "Time", true), f * foo[l]));
                QVERIFY(closeTo(value(keys[l], "main => bar", "Time", true), f * bar[l]));
                QVERIFY(closeTo(value(keys[l], "main => omp parallel", "Time", true), f * omp[l]));
                QVERIFY(closeTo(value(keys[l], "main", "Time", true), f * main[l]));
                QCOMPARE(value(keys[l], "main => omp parallel", "Visits", true), 6.0 * f);
            }
            QCOMPARE(value(keys[0], "main => foo", "Visits", true), 8.0);
            QCOMPARE(value(keys[0], "main => bar", "Visits", true), 7.0 * f);
            QCOMPARE(value(keys[0], "main => zero", "Visits", true), 1.0);
        }
    }

    void sniffTextAboutCube()
    {
        // A MANIFEST.md that quotes <cube version="4.4"> is no CUBE file (it used to sniff as one).
        QTemporaryDir dir;
        const QString md = dir.filePath(QStringLiteral("MANIFEST.md"));
        writeFile(md, "# notes\n\n| producer | `<cube version=\"4.4\">`; Cube 4.8.2 |\n");
        QCOMPARE(CubeReader().sniff(md), 0);
        QVERIFY(!ReaderRegistry::instance().detect(md)
            || ReaderRegistry::instance().detect(md)->name() != QLatin1String("cube"));
        QCOMPARE(CubeReader().sniff(dataPath(QStringLiteral("cube/pycubexr/MANIFEST.md"))), 0);
        // XML with a byte-order mark, or white space first, still is.
        const QString bom = dir.filePath(QStringLiteral("bom.xml"));
        writeFile(bom, "\xEF\xBB\xBF\n  <?xml version=\"1.0\"?>\n<cube version=\"3.0\"></cube>\n");
        QCOMPARE(CubeReader().sniff(bom), 100);
    }

    void registryLoad()
    {
        const auto r = load(scorep());
        QVERIFY2(r.ok(), qPrintable(describe(r)));
        QCOMPARE(r.value()->provenance().reader, QStringLiteral("cube"));
        QVERIFY(ReaderRegistry::instance().find(QStringLiteral("cube")));
    }
};

QTEST_GUILESS_MAIN(TestCubeReader)
#include "tst_cubereader.moc"
