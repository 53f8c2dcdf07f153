// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The TAU reader against the facts in ../shared/data/*/MANIFEST.md and small literal fixtures.
#include "datasource/model/pooledatomics.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/metadataparser.h"
#include "datasource/readers/taureader.h"
#include "tests/common/readertest.h"
#include "tests/common/testutil.h"

#include <QDir>
#include <QTemporaryDir>
#include <cmath>
#include <limits>
#include <map>

using namespace parallax;
using namespace parallax::test;

namespace {

QString topExclusive(const Trial& trial, ThreadIndex t)
{
    const RowView row = trial.row(t);
    double best = -1;
    QString name;
    for (std::size_t i = 0; i < row.size(); ++i) {
        if (trial.event(row.events[i]).isCallPath())
            continue;
        if (row.exclusive(0, i) > best) {
            best = row.exclusive(0, i);
            name = trial.event(row.events[i]).name;
        }
    }
    return name;
}

const char* const MinimalHeader = "# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>Metric "
                                  "Name</name><value>TIME</value></attribute></metadata>\n";

/// A MULTI__TIME and a MULTI__PAPI_TOT_CYC directory of `threads` files each, every file with the
/// given event lines (two events, then "0 aggregates" and what `timeTail` adds to the TIME files).
void writeTwoMetrics(const QString& dir, int threads, const QByteArray& timeEvents, const QByteArray& cycEvents,
    const QByteArray& timeTail = {})
{
    const QByteArray time = QByteArrayLiteral("2 templated_functions_MULTI_TIME\n") + MinimalHeader + timeEvents
        + "0 aggregates\n" + timeTail;
    QByteArray cyc = QByteArrayLiteral("2 templated_functions_MULTI_PAPI_TOT_CYC\n") + MinimalHeader + cycEvents
        + "0 aggregates\n";
    cyc.replace("<value>TIME</value>", "<value>PAPI_TOT_CYC</value>");
    for (int n = 0; n < threads; ++n) {
        writeText(QDir(dir).filePath(QStringLiteral("MULTI__TIME/profile.%1.0.0").arg(n)), time);
        writeText(QDir(dir).filePath(QStringLiteral("MULTI__PAPI_TOT_CYC/profile.%1.0.0").arg(n)), cyc);
    }
}

} // namespace

class TestTauReader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void callpathCpi()
    {
        for (const QString& dir :
            { QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"), QStringLiteral("hatchet/tau-cpi-mpi") }) {
            const auto trial = mustLoad(dataPath(dir));
            QVERIFY(trial);
            QCOMPARE(trial->threadCount(), std::size_t(4));
            QCOMPARE(trial->eventCount() - countEvents(*trial, true), std::size_t(12));
            QCOMPARE(countEvents(*trial, true), std::size_t(11));
            for (std::size_t t = 0; t < 4; ++t)
                QCOMPARE(trial->row(ThreadIndex(t)).size(), std::size_t(23));
            QCOMPARE(trial->metricCount(), std::size_t(1));
            QCOMPARE(trial->metric(MetricId(0u)).name, QStringLiteral("TIME"));
            QCOMPARE(trial->metric(MetricId(0u)).unit, QStringLiteral("us"));
            const double rootIncl[] = { 51781, 55329, 54029, 52908 };
            const double fileOpen[] = { 27490, 26904, 27029, 27051 };
            const double finalize[] = { 4458, 4894, 4903, 4906 };
            for (int n = 0; n < 4; ++n) {
                QCOMPARE(inclOf(*trial, n, QStringLiteral(".TAU application")), rootIncl[n]);
                QCOMPARE(exclOf(*trial, n, QStringLiteral("MPI_File_open()")), fileOpen[n]);
                QCOMPARE(exclOf(*trial, n, QStringLiteral("MPI_Finalize()")), finalize[n]);
                QCOMPARE(topExclusive(*trial, trial->findThread({ n, 0, 0 })), QStringLiteral("MPI_File_open()"));
                // Root inclusive = sum of flat exclusive (MANIFEST).
                double sum = 0;
                const RowView row = trial->row(trial->findThread({ n, 0, 0 }));
                for (std::size_t i = 0; i < row.size(); ++i)
                    if (!trial->event(row.events[i]).isCallPath())
                        sum += row.exclusive(0, i);
                QCOMPARE(sum, rootIncl[n]);
            }
            QCOMPARE(exclOf(*trial, 0, QStringLiteral(".TAU application")), 449.0);
            QCOMPARE(exclOf(*trial, 1, QStringLiteral("MPI_Bcast()")), 333.0);
            // Call paths: normalised names, parent and leaf links, groups.
            const EventId path
                = trial->findEvent(QStringLiteral(".TAU application => MPI_Finalize() => MPI_File_open()"));
            QVERIFY(path.isValid());
            const IntervalEvent& ev = trial->event(path);
            QCOMPARE(ev.depth, 3);
            QCOMPARE(trial->event(ev.parent).name, QStringLiteral(".TAU application => MPI_Finalize()"));
            QCOMPARE(trial->event(ev.leaf).name, QStringLiteral("MPI_File_open()"));
            QVERIFY(trial->eventInGroup(path, QStringLiteral("TAU_CALLPATH")));
            QVERIFY(trial->eventInGroup(path, QStringLiteral("MPI")));
            QVERIFY(trial->event(path).rawName.contains(QStringLiteral("MPI_Finalize()   =>")));
            // User events.
            QCOMPARE(trial->atomicEventCount(), std::size_t(2));
            const AtomicEventId bcast = trial->findAtomicEvent(QStringLiteral("Message size for broadcast"));
            const AtomicEventId reduce = trial->findAtomicEvent(QStringLiteral("Message size for reduce"));
            QVERIFY(bcast.isValid() && reduce.isValid());
            const AtomicRow& arow = trial->atomicRow(ThreadIndex(0u));
            QCOMPARE(arow.count[static_cast<std::size_t>(arow.find(bcast))], 1.0);
            QCOMPARE(arow.max[static_cast<std::size_t>(arow.find(bcast))], 4.0);
            QCOMPARE(arow.mean[static_cast<std::size_t>(arow.find(reduce))], 8.0);
            QVERIFY(trial->warnings().isEmpty());
            QCOMPARE(trial->metadataValue(QStringLiteral("TAU_CALLPATH_DEPTH")), QStringLiteral("100"));
            QVERIFY(trial->metadataValue(QStringLiteral("Metric Name")).isNull()); // used, then removed
        }
    }

    void workflowContextEventsAndMarkers()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")));
        QVERIFY(trial);
        // Only rank 0 carries the full metadata block: it is trial-wide; timestamps stay per rank.
        QCOMPARE(trial->metadataValue(QStringLiteral("CPU Cores")), QStringLiteral("14"));
        QVERIFY(trial->metadataValue(QStringLiteral("pid")).isNull());
        QVERIFY(!trial->metadataValue(QStringLiteral("pid"), ThreadIndex(3u)).isNull());
        QCOMPARE(trial->threadCount(), std::size_t(8));
        QVERIFY(trial->eventCount() <= 27);
        const AtomicEventId ctx = trial->findAtomicEvent(
            QStringLiteral("[GROUP=MAX_MARKER] Message size for broadcast : ADIOS open => MPI_Bcast()"));
        QVERIFY(ctx.isValid());
        QVERIFY(trial->atomicEvent(ctx).hasContext());
        QCOMPARE(trial->atomicEvent(ctx).context, QStringLiteral("ADIOS open => MPI_Bcast()"));
        QCOMPARE(trial->atomicEvent(ctx).baseName, QStringLiteral("[GROUP=MAX_MARKER] Message size for broadcast"));
        // The context itself may contain " : " (split at the first one).
        const AtomicEventId nested = trial->findAtomicEvent(
            QStringLiteral("[GROUP=MIN_MARKER] ADIOS data size : ADIOS group size : ADIOS group size"));
        QVERIFY(nested.isValid());
        QCOMPARE(trial->atomicEvent(nested).context, QStringLiteral("ADIOS group size : ADIOS group size"));
        // Rank 1: "Message size for broadcast" 64 4096 4 72.875 16808256 (docs/FORMATS.md 1.5).
        const ThreadIndex r1 = trial->findThread({ 1, 0, 0 });
        const AtomicRow& row = trial->atomicRow(r1);
        const auto i = row.find(trial->findAtomicEvent(QStringLiteral("Message size for broadcast")));
        QVERIFY(i >= 0);
        QCOMPARE(row.count[static_cast<std::size_t>(i)], 64.0);
        QCOMPARE(row.max[static_cast<std::size_t>(i)], 4096.0);
        QCOMPARE(row.min[static_cast<std::size_t>(i)], 4.0);
        QCOMPARE(row.mean[static_cast<std::size_t>(i)], 72.875);
        QVERIFY(std::abs(row.stddev(static_cast<std::size_t>(i)) - 507.265) < 1e-3);
        // Rank 1 repeats "[GROUP=MIN_MARKER] ADIOS data size : ADIOS group size": merged, with a warning.
        const auto dup
            = row.find(trial->findAtomicEvent(QStringLiteral("[GROUP=MIN_MARKER] ADIOS data size : ADIOS group size")));
        QVERIFY(dup >= 0);
        QCOMPARE(row.count[static_cast<std::size_t>(dup)], 2.0);
        QCOMPARE(row.sumSquares[static_cast<std::size_t>(dup)], 2 * 70361093975104.0);
        bool warned = false;
        for (const QString& w : trial->warnings())
            warned = warned || w.contains(QStringLiteral("duplicate user event"));
        QVERIFY2(warned, qPrintable(trial->warnings().join(QLatin1Char('\n'))));
        // The trial says which cells were pooled, not only that some were: every rank repeats one line,
        // "[GROUP=MIN_MARKER] …" on ranks 0, 1, 6, 7 and "[GROUP=MAX_MARKER] …" on ranks 2-5 (checked
        // with sort | uniq -d on the userevents sections), each pooled from 2 records.
        const PooledAtomicCells& pooled = trial->pooledAtomicCells();
        QCOMPARE(pooled.cells().size(), std::size_t(8));
        const AtomicEventId minMarker
            = trial->findAtomicEvent(QStringLiteral("[GROUP=MIN_MARKER] ADIOS data size : ADIOS group size"));
        const AtomicEventId maxMarker
            = trial->findAtomicEvent(QStringLiteral("[GROUP=MAX_MARKER] ADIOS data size : ADIOS group size"));
        for (int rank = 0; rank < 8; ++rank) {
            const ThreadIndex t = trial->findThread({ rank, 0, 0 });
            const bool min = rank <= 1 || rank >= 6;
            QCOMPARE(pooled.records(t, min ? minMarker : maxMarker), 2u);
            QCOMPARE(pooled.records(t, min ? maxMarker : minMarker), 0u);
        }
        QCOMPARE(pooled.cellsOf(minMarker).size(), std::size_t(4));
        QCOMPARE(pooled.records(r1, trial->findAtomicEvent(QStringLiteral("Message size for broadcast"))), 0u);
        // A sample without duplicates records nothing.
        const auto cpi = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(cpi && cpi->pooledAtomicCells().empty());
    }

    void builderRecordsPooledCells()
    {
        // TrialBuilder::addAtomic (the path of the readers that add records one by one): three records
        // of one event on one thread pool into one cell of 3 records; a single record is not pooled.
        TrialBuilder b(QStringLiteral("pooled"));
        const ThreadIndex t0 = b.addThread({ 0, 0, 0 });
        const ThreadIndex t1 = b.addThread({ 1, 0, 0 });
        const AtomicEventId u = b.addAtomicEvent(QStringLiteral("bytes"));
        b.addAtomic(t1, u, 2, 10, 1, 5, 60);
        b.addAtomic(t1, u, 1, 7, 7, 7, 49);
        b.addAtomic(t1, u, 1, 3, 3, 3, 9);
        b.addAtomic(t0, u, 4, 8, 2, 4, 80);
        const auto trial = b.build();
        const PooledAtomicCells& pooled = trial->pooledAtomicCells();
        QCOMPARE(pooled.cells().size(), std::size_t(1));
        QCOMPARE(pooled.records(t1, u), 3u);
        QCOMPARE(pooled.records(t0, u), 0u);
        const AtomicRow& row = trial->atomicRow(t1);
        QCOMPARE(row.count[0], 4.0);
        QCOMPARE(row.min[0], 1.0);
        QCOMPARE(row.max[0], 10.0);
        QCOMPARE(row.mean[0], 5.0); // (2·5 + 7 + 3) / 4
        QCOMPARE(row.sumSquares[0], 118.0);
    }

    void openmpTwoThreadsAndMetadata()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-openmp-2thread")));
        QVERIFY(trial);
        QCOMPARE(trial->threadCount(), std::size_t(2));
        QCOMPARE(trial->threadKey(ThreadIndex(0u)), (ThreadKey { 0, 0, 0 }));
        QCOMPARE(trial->threadKey(ThreadIndex(1u)), (ThreadKey { 0, 0, 1 }));
        QCOMPARE(trial->nodeCount(), std::size_t(1));
        QCOMPARE(trial->row(ThreadIndex(0u)).size(), std::size_t(2));
        QCOMPARE(trial->row(ThreadIndex(1u)).size(), std::size_t(2));
        QCOMPARE(trial->metadataValue(QStringLiteral("Hostname")), QStringLiteral("dyna6-195.cs.uoregon.edu"));
        QCOMPARE(trial->metadataValue(QStringLiteral("OS Name")), QStringLiteral("Darwin"));
        QCOMPARE(trial->metadataValue(QStringLiteral("TAU_CALLPATH")), QStringLiteral("off"));
        QVERIFY(trial->metadata().size() > 20);
        // TAU copied thread 0's metadata into thread 1: every key is trial-wide.
        QCOMPARE(trial->threadMetadata(ThreadIndex(0u)).size(), std::size_t(0));
        QCOMPARE(trial->threadMetadata(ThreadIndex(1u)).size(), std::size_t(0));
        QCOMPARE(exclOf(*trial, 0, QStringLiteral("compute OpenMP region")), 1080268.0);
        QCOMPARE(
            trial->row(ThreadIndex(1u))
                .exclusive(0,
                    static_cast<std::size_t>(
                        trial->row(ThreadIndex(1u)).find(trial->findEvent(QStringLiteral("compute OpenMP region"))))),
            1120473.0);
    }

    void wrapParams()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")));
        QVERIFY(trial);
        QCOMPARE(trial->threadCount(), std::size_t(2));
        QCOMPARE(trial->eventCount(), std::size_t(8));
        const EventId p
            = trial->findEvent(QStringLiteral("int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}] [ <size> = <100> ]"));
        QVERIFY(p.isValid());
        QVERIFY(trial->eventInGroup(p, QStringLiteral("TAU_PARAM")));
        QVERIFY(trial->eventInGroup(p, QStringLiteral("TAU_USER")));
        QCOMPARE(trial->atomicEventCount(), std::size_t(0));
        QCOMPARE(exclOf(*trial, 1, QStringLiteral("int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]")), 64.0);
    }

    void cubelibTest28()
    {
        const auto p1 = mustLoad(dataPath(QStringLiteral("cubelib/test/test28/profile1")));
        QVERIFY(p1);
        QCOMPARE(p1->eventCount(), std::size_t(195));
        QCOMPARE(countEvents(*p1, true), std::size_t(0));
        QCOMPARE(p1->metric(MetricId(0u)).name, QStringLiteral("BGP Timers")); // text after _MULTI_, spaces kept
        QCOMPARE(topExclusive(*p1, ThreadIndex(0u)), QStringLiteral("RATX_I [{getrates_i.pp.f} {1013,7}-{1964,9}]"));
        QVERIFY(std::abs(exclOf(*p1, 0, QStringLiteral("RATX_I [{getrates_i.pp.f} {1013,7}-{1964,9}]")) - 478345065.35)
            < 0.01);
        QVERIFY(std::abs(inclOf(*p1, 0, QStringLiteral("S3D [{main.pp.f90} {4,3}-{130,17}]")) - 3115316612.87) < 0.01);
        double sum = 0;
        const RowView row = p1->row(ThreadIndex(0u));
        for (std::size_t i = 0; i < row.size(); ++i)
            sum += row.exclusive(0, i);
        QVERIFY(std::abs(sum - 3115316612.87) < 0.01); // the MANIFEST rounds to two decimals
        QCOMPARE(p1->atomicEventCount(), std::size_t(4));
        const AtomicRow& arow = p1->atomicRow(ThreadIndex(0u));
        const auto b = arow.find(p1->findAtomicEvent(QStringLiteral("Message size for broadcast")));
        QVERIFY(b >= 0);
        QCOMPARE(arow.count[static_cast<std::size_t>(b)], 156.0);
        QCOMPARE(arow.max[static_cast<std::size_t>(b)], 79728.0);
        QVERIFY(std::abs(arow.mean[static_cast<std::size_t>(b)] - 565.436) < 1e-3);

        const auto p2 = mustLoad(dataPath(QStringLiteral("cubelib/test/test28/profile2")));
        QVERIFY(p2);
        QCOMPARE(p2->eventCount(), std::size_t(13));
        QCOMPARE(countEvents(*p2, true), std::size_t(7));
        QCOMPARE(exclOf(*p2, 0, QStringLiteral("f3() (sleeps 3 sec)")), 6002109.0);
        QCOMPARE(inclOf(*p2, 0, QStringLiteral("main() (calls f1, f5)")), 20007991.0); // Java-style 2.0007991E7
        QCOMPARE(inclOf(*p2, 0, QStringLiteral("f1() (sleeps 1 sec, calls f2, f4)")), 15006810.0);
    }

    void fileStandsForDirectory()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank/profile.2.0.0")));
        QVERIFY(trial);
        QCOMPARE(trial->threadCount(), std::size_t(4));
    }

    void multiMetricDirectories()
    {
        QTemporaryDir dir;
        writeTwoMetrics(dir.path(), 2,
            "\"main\" 1 1 10 30 0 GROUP=\"TAU_DEFAULT\"\n\"work\" 5 0 20 20 0 GROUP=\"TAU_USER\"\n",
            "\"main\" 1 1 1000 3000 0 GROUP=\"TAU_DEFAULT\"\n\"work\" 5 0 2000 2000 0 GROUP=\"TAU_USER\"\n",
            "1 userevents\n# eventname numevents max min mean sumsqr\n\"bytes\" 2 8 4 6 80\n");
        const auto trial = mustLoad(dir.path());
        QVERIFY(trial);
        QCOMPARE(trial->metricCount(), std::size_t(2));
        // Directories are taken in name order: MULTI__PAPI_TOT_CYC before MULTI__TIME.
        QCOMPARE(trial->metric(MetricId(0u)).name, QStringLiteral("PAPI_TOT_CYC"));
        QCOMPARE(trial->metric(MetricId(0u)).unit, QStringLiteral("count"));
        QCOMPARE(trial->metric(MetricId(1u)).name, QStringLiteral("TIME"));
        QCOMPARE(exclOf(*trial, 1, QStringLiteral("work"), 0), 2000.0);
        QCOMPARE(exclOf(*trial, 1, QStringLiteral("work"), 1), 20.0);
        QCOMPARE(inclOf(*trial, 0, QStringLiteral("main"), 1), 30.0);
        const RowView row = trial->row(ThreadIndex(0u));
        QCOMPARE(row.calls[static_cast<std::size_t>(row.find(trial->findEvent(QStringLiteral("work"))))], 5.0);
        QVERIFY(trial->warnings().isEmpty());
    }

    void multiMetricDirectoriesWithDifferentCells()
    {
        // A cell missing from one metric directory: the row is the union, the missing values are 0,
        // calls and subrs come from the first directory (name order) holding the cell, one warning.
        QTemporaryDir dir;
        writeTwoMetrics(dir.path(), 40,
            "\"main\" 1 1 10 30 0 GROUP=\"TAU_DEFAULT\"\n\"onlyTime\" 7 0 20 20 0 GROUP=\"TAU_USER\"\n",
            "\"onlyCyc\" 3 2 500 900 0 GROUP=\"TAU_USER\"\n\"main\" 1 1 1000 3000 0 GROUP=\"TAU_DEFAULT\"\n");
        for (int workers : { 1, 2 }) {
            const auto trial = mustReadWith(TauReader(), dir.path(), withThreads(workers));
            QVERIFY(trial);
            QCOMPARE(trial->threadCount(), std::size_t(40));
            QCOMPARE(trial->eventCount(), std::size_t(3));
            for (std::size_t t = 0; t < 40; ++t) {
                const RowView row = trial->row(ThreadIndex(t));
                QCOMPARE(row.size(), std::size_t(3));
                QVERIFY(std::is_sorted(row.events.begin(), row.events.end()));
                const auto at = [&](const char* name) {
                    return static_cast<std::size_t>(row.find(trial->findEvent(QString::fromLatin1(name))));
                };
                QCOMPARE(row.exclusive(0, at("onlyCyc")), 500.0); // PAPI_TOT_CYC is metric 0
                QCOMPARE(row.exclusive(1, at("onlyCyc")), 0.0);
                QCOMPARE(row.inclusive(0, at("onlyTime")), 0.0);
                QCOMPARE(row.inclusive(1, at("onlyTime")), 20.0);
                QCOMPARE(row.calls[at("onlyTime")], 7.0);
                QCOMPARE(row.subrs[at("onlyCyc")], 2.0);
                QCOMPARE(row.inclusive(0, at("main")), 3000.0);
                QCOMPARE(row.inclusive(1, at("main")), 30.0);
            }
            const QString warnings = trial->warnings().join(QLatin1Char('\n'));
            QVERIFY2(warnings.contains(QStringLiteral("80 (thread, event) cell(s) are missing from some metric "
                                                      "directories; their values there are 0")),
                qPrintable(warnings));
        }
    }

    void multiPrefixIsCaseSensitive()
    {
        // Extra-P's scaling sets keep CUBE runs in "multi_parameter/" folders: no TAU metric directory
        // (QDir matched "MULTI_*" case-insensitively, so extrap/cubeset was taken for a TAU trial).
        QCOMPARE(TauReader().sniff(dataPath(QStringLiteral("extrap/cubeset"))), 1);
        QTemporaryDir dir;
        writeText(dir.filePath(QStringLiteral("multi_parameter/notes.txt")), "not TAU\n");
        QCOMPARE(TauReader().sniff(dir.path()), 1);
        Progress progress;
        const auto r = TauReader().read(dir.path(), ReadOptions {}, progress);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("no TAU profiles here")), qPrintable(r.error().toString()));
        writeText(dir.filePath(QStringLiteral("MULTI__TIME/profile.0.0.0")),
            QByteArrayLiteral("1 templated_functions_MULTI_TIME\n") + MinimalHeader
                + "\"f\" 1 0 1 1 0 GROUP=\"g\"\n0 aggregates\n");
        QCOMPARE(TauReader().sniff(dir.path()), 100);
    }

    void metricNameRules()
    {
        QCOMPARE(TauReader::metricNameFromHeader(QStringLiteral("4 templated_functions_MULTI_BGP Timers")),
            QStringLiteral("BGP Timers"));
        QCOMPARE(TauReader::metricNameFromHeader(QStringLiteral("4 templated_functions_hw_counters")),
            QStringLiteral("Hardware Counter"));
        QCOMPARE(TauReader::metricNameFromHeader(QStringLiteral("4 templated_functions")), QStringLiteral("Time"));
        QTemporaryDir dir;
        writeText(dir.filePath(QStringLiteral("profile.0.0.0")),
            "1 templated_functions\n# Name Calls Subrs Excl Incl ProfileCalls\n\"f\" 1 0 1 1 0 GROUP=\"g\"\n0 "
            "aggregates\n");
        const auto trial = mustLoad(dir.path());
        QVERIFY(trial);
        QCOMPARE(trial->metric(MetricId(0u)).name, QStringLiteral("Time"));
        QCOMPARE(trial->metric(MetricId(0u)).unit, QStringLiteral("us"));
    }

    void variantsAndOddities()
    {
        QTemporaryDir dir;
        // SumExclSqr column, ProfileCalls lines to skip, a duplicate event, a negative value,
        // a quote inside a name, Java-style numbers, CRLF line ends, no trailing newline.
        writeText(dir.filePath(QStringLiteral("profile.0.0.0")),
            "4 templated_functions_MULTI_TIME\r\n"
            "# Name Calls Subrs Excl Incl SumExclSqr ProfileCalls # <metadata><attribute><name>Metric "
            "Name</name><value>TIME</value></attribute>"
            "<attribute><name>Note</name><value>a &amp; b &lt;c&gt;&#xa;next</value></attribute>"
            "<attribute><name>Ctx</name><timer_context>main</timer_context><call_number>1</call_number><timestamp>5</"
            "timestamp><value>v</value></attribute></metadata>\r\n"
            "\"main\" 1 2 10 100 100 0 GROUP=\"TAU_DEFAULT\"\r\n"
            "\"f(\"x\")\" 2 0 30 30 500 2 GROUP=\"TAU_USER\"\r\n"
            "5 5\r\n6 6\r\n"
            "\"g\" 1.0 0.0 -5.0 2.0E1 25 0 GROUP=\"TAU_USER\"\r\n"
            "\"g  \" 1 0 7 7 49 0 GROUP=\"TAU_USER | EXTRA\"\r\n"
            "0 aggregates");
        const auto trial = mustLoad(dir.path());
        QVERIFY(trial);
        QCOMPARE(trial->eventCount(), std::size_t(3));
        QCOMPARE(exclOf(*trial, 0, QStringLiteral("f(\"x\")")), 30.0);
        // Duplicates summed, negative kept.
        QCOMPARE(exclOf(*trial, 0, QStringLiteral("g")), 2.0);
        QCOMPARE(inclOf(*trial, 0, QStringLiteral("g")), 27.0);
        QVERIFY(trial->eventInGroup(trial->findEvent(QStringLiteral("g")), QStringLiteral("EXTRA")));
        const RowView row = trial->row(ThreadIndex(0u));
        QVERIFY(!row.exclSqr.empty());
        QCOMPARE(row.exclSqr[static_cast<std::size_t>(row.find(trial->findEvent(QStringLiteral("f(\"x\")"))))], 500.0);
        const QString warnings = trial->warnings().join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(QStringLiteral("duplicate event names were summed")), qPrintable(warnings));
        QVERIFY2(warnings.contains(QStringLiteral("negative")), qPrintable(warnings));
        QCOMPARE(trial->metadataValue(QStringLiteral("Note")), QStringLiteral("a & b <c>\nnext"));
        QCOMPARE(trial->metadataValue(QStringLiteral("Ctx"), ThreadIndex(0u)), QStringLiteral("v"));
        QVERIFY(trial->threadMetadata(ThreadIndex(0u)).size() == 1); // timer-context key stays per thread
    }

    void nonFiniteValuesAndNegativeCountsKeptWithWarnings()
    {
        // docs/SEMANTICS.md 1.4: odd values are kept as read, and the warning names the file and line.
        QTemporaryDir dir;
        writeText(dir.filePath(QStringLiteral("profile.0.0.0")),
            QByteArrayLiteral("3 templated_functions_MULTI_TIME\n") + MinimalHeader
                + "\"main\" 1 1 5 nan 0 GROUP=\"g\"\n"
                  "\"f\" -2 0 INF -inf 0 GROUP=\"g\"\n"
                  "\"h\" 1 -1 1 1 0 GROUP=\"g\"\n"
                  "0 aggregates\n"
                  "2 userevents\n"
                  "# eventname numevents max min mean sumsqr\n"
                  "\"u\" -3 1 1 1 3\n"
                  "\"w\" 2 -nan 1 1 2\n");
        writeText(dir.filePath(QStringLiteral("profile.1.0.0")),
            QByteArrayLiteral("1 templated_functions_MULTI_TIME\n") + MinimalHeader
                + "\"main\" 1 0 1 Infinity 0 GROUP=\"g\"\n0 aggregates\n");
        const auto trial = mustLoad(dir.path());
        QVERIFY(trial);
        QVERIFY(std::isnan(inclOf(*trial, 0, QStringLiteral("main"))));
        QCOMPARE(exclOf(*trial, 0, QStringLiteral("f")), std::numeric_limits<double>::infinity());
        QCOMPARE(inclOf(*trial, 0, QStringLiteral("f")), -std::numeric_limits<double>::infinity());
        QCOMPARE(inclOf(*trial, 1, QStringLiteral("main")), std::numeric_limits<double>::infinity());
        const RowView row = trial->row(ThreadIndex(0u));
        QCOMPARE(row.calls[static_cast<std::size_t>(row.find(trial->findEvent(QStringLiteral("f"))))], -2.0);
        QCOMPARE(row.subrs[static_cast<std::size_t>(row.find(trial->findEvent(QStringLiteral("h"))))], -1.0);
        const AtomicRow& atomic = trial->atomicRow(ThreadIndex(0u));
        QCOMPARE(atomic.size(), std::size_t(2));
        bool sawNegativeCount = false;
        bool sawNan = false;
        for (std::size_t i = 0; i < atomic.size(); ++i) {
            sawNegativeCount = sawNegativeCount || atomic.count[i] == -3.0;
            sawNan = sawNan || std::isnan(atomic.max[i]);
        }
        QVERIFY(sawNegativeCount && sawNan);
        const QStringList warnings = trial->warnings();
        const QString all = warnings.join(QLatin1Char('\n'));
        // main incl, f excl, f incl, w max on rank 0; main incl on rank 1.
        QVERIFY2(all.contains(QStringLiteral("5 NaN or infinite value(s) in 2 file(s), kept as they are (first: ")
                     + QFileInfo(dir.path()).fileName() + QStringLiteral("/profile.0.0.0 line 3 'main' Incl)")),
            qPrintable(all));
        // f calls, h subrs, u numevents.
        QVERIFY2(
            all.contains(QStringLiteral(
                             "3 negative count(s) (calls, subrs or numevents) in 1 file(s), kept as they are (first: ")
                + QFileInfo(dir.path()).fileName() + QStringLiteral("/profile.0.0.0 line 4 'f' Calls)")),
            qPrintable(all));
        // -inf as an inclusive time is also a negative time.
        QVERIFY2(
            all.contains(QStringLiteral("1 negative exclusive or inclusive value(s) in 1 file(s)")), qPrintable(all));
    }

    void finiteValuesGiveNoOddityWarning()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")));
        QVERIFY(trial);
        const QString all = trial->warnings().join(QLatin1Char('\n'));
        QVERIFY2(!all.contains(QStringLiteral("NaN or infinite")) && !all.contains(QStringLiteral("negative count")),
            qPrintable(all));
    }

    void oldFormatWithoutColumnHeader()
    {
        QTemporaryDir dir;
        writeText(
            dir.filePath(QStringLiteral("profile.3.0.0")), "1 templated_functions\n\"f\" 1 0 1 1 0\n0 aggregates\n");
        const auto trial = mustLoad(dir.path());
        QVERIFY(trial);
        QCOMPARE(trial->threadKey(ThreadIndex(0u)), (ThreadKey { 3, 0, 0 }));
        QCOMPARE(exclOf(*trial, 3, QStringLiteral("f")), 1.0);
    }

    void metadataTrialWideAndPerThread()
    {
        QTemporaryDir dir;
        for (int n = 0; n < 3; ++n) {
            QByteArray header = QByteArrayLiteral("# Name Calls Subrs Excl Incl ProfileCalls # <metadata>"
                                                  "<attribute><name>Metric Name</name><value>TIME</value></attribute>"
                                                  "<attribute><name>Hostname</name><value>nid001</value></attribute>"
                                                  "<attribute><name>Timestamp</name><value>T</value></attribute>");
            header.replace(
                QByteArray("<value>T</value>"), QByteArray("<value>" + QByteArray::number(100 + n) + "</value>"));
            if (n == 0)
                header += "<attribute><name>Only0</name><value>x</value></attribute>";
            if (n == 1)
                header += "<attribute><name>Only1</name><value>y</value></attribute>";
            header += "</metadata>\n";
            writeText(dir.filePath(QStringLiteral("profile.%1.0.0").arg(n)),
                QByteArrayLiteral("1 templated_functions_MULTI_TIME\n") + header
                    + "\"f\" 1 0 1 1 0 GROUP=\"g\"\n0 aggregates\n");
        }
        const auto trial = mustLoad(dir.path());
        QVERIFY(trial);
        // ParaProf's rule: same value wherever present and held by the first thread -> trial-wide.
        QCOMPARE(trial->metadata().size(), std::size_t(2)); // Hostname, Only0
        QCOMPARE(trial->metadataValue(QStringLiteral("Hostname")), QStringLiteral("nid001"));
        QCOMPARE(trial->metadataValue(QStringLiteral("Only0")), QStringLiteral("x"));
        QCOMPARE(trial->metadataValue(QStringLiteral("Timestamp"), ThreadIndex(2u)), QStringLiteral("102"));
        QVERIFY(trial->metadataValue(QStringLiteral("Timestamp")).isNull());
        // A key the first thread lacks stays with the threads that have it.
        QCOMPARE(trial->metadataValue(QStringLiteral("Only1"), ThreadIndex(1u)), QStringLiteral("y"));
        QVERIFY(trial->metadataValue(QStringLiteral("Only1"), ThreadIndex(2u)).isNull());
        QCOMPARE(trial->threadMetadata(ThreadIndex(0u)).size(), std::size_t(1));
        QCOMPARE(trial->threadMetadata(ThreadIndex(1u)).size(), std::size_t(2));
    }

    void skippedFileLeavesEachThreadItsOwnData()
    {
        // The reader hands each file's user events, metadata and notes to the builder in thread
        // order and frees them as it goes: with a file skipped in the middle and the files listed
        // out of key order (10 before 2 by name), every thread must still get its own.
        QTemporaryDir dir;
        const int ranks[] = { 0, 1, 2, 10, 11 };
        for (int n : ranks) {
            const QByteArray excl = n == 10 ? QByteArray("-1") : QByteArray::number(n * 10);
            QByteArray text = QByteArrayLiteral("1 templated_functions_MULTI_TIME\n"
                                                "# Name Calls Subrs Excl Incl ProfileCalls # <metadata>"
                                                "<attribute><name>Metric Name</name><value>TIME</value></attribute>"
                                                "<attribute><name>Rank</name><value>r")
                + QByteArray::number(n)
                + "</value></attribute><attribute><name>Host</name><value>h</value></attribute></metadata>\n"
                  "\"f\" 1 0 "
                + excl + " 100 0 GROUP=\"g\"\n0 aggregates\n1 userevents\n# eventname numevents max min mean sumsqr\n"
                + "\"u\" " + QByteArray::number(n + 1) + " 1 1 1 1\n";
            if (n == 2)
                text.replace("\"f\" 1 0 20", "\"f\" 1 0 twenty");
            writeText(dir.filePath(QStringLiteral("profile.%1.0.0").arg(n)), text);
        }
        for (int threads : { 1, 2 }) {
            const auto trial = mustReadWith(TauReader(), dir.path(), withThreads(threads));
            QVERIFY(trial);
            QCOMPARE(trial->threadCount(), std::size_t(4));
            const int kept[] = { 0, 1, 10, 11 };
            for (std::size_t t = 0; t < 4; ++t) {
                const int n = kept[t];
                const ThreadIndex ti(t);
                QCOMPARE(trial->threadKey(ti), (ThreadKey { n, 0, 0 }));
                QCOMPARE(trial->metadataValue(QStringLiteral("Rank"), ti), QStringLiteral("r%1").arg(n));
                QCOMPARE(trial->threadMetadata(ti).size(), std::size_t(1)); // Host is trial-wide
                QCOMPARE(exclOf(*trial, n, QStringLiteral("f")), n == 10 ? -1.0 : n * 10.0);
                const AtomicRow& atomic = trial->atomicRow(ti);
                QCOMPARE(atomic.size(), std::size_t(1));
                QCOMPARE(atomic.count[0], double(n + 1));
            }
            QCOMPARE(trial->metadataValue(QStringLiteral("Host")), QStringLiteral("h"));
            const QString warnings = trial->warnings().join(QLatin1Char('\n'));
            QVERIFY2(warnings.contains(QStringLiteral("skipped 1 unreadable profile file(s)"))
                    && warnings.contains(QStringLiteral("profile.2.0.0:3")),
                qPrintable(warnings));
            QVERIFY2(warnings.contains(QStringLiteral("1 negative exclusive or inclusive value(s) in 1 file(s)"))
                    && warnings.contains(QStringLiteral("/profile.10.0.0 line 3 f")),
                qPrintable(warnings));
        }
    }

    void metadataChunksAgreeWithTheWholeBlockParser()
    {
        // The reader reuses an <attribute> chunk equal to the one at the same place in the previous
        // file of its worker, parses plain chunks without the XML parser, and sends anything else
        // through parseTauMetadata. Whatever the path, every thread must hold what
        // parseTauMetadata finds in its own file (a repeated key keeps its last value).
        const QByteArray plain = "<attribute><name>Host</name><value>nid001</value></attribute>"
                                 "<attribute><name>Cores</name><value>64</value></attribute>";
        const QByteArray entity = "<attribute><name>Note</name><value>a &amp; b</value></attribute>";
        const QByteArray nested = "<attribute><name>Env</name><value><attribute><name>PATH</name><value>/bin</value>"
                                  "</attribute></value></attribute>";
        const QByteArray context = "<attribute><name>Phase</name><timer_context>main</timer_context>"
                                   "<value>solve</value></attribute>";
        const QByteArray cdata = "<attribute><name>Cmd</name><value><![CDATA[a </attribute> b]]></value></attribute>";
        QTemporaryDir dir;
        std::vector<QByteArray> blocks;
        for (int n = 0; n < 24; ++n) {
            QByteArray block = "<metadata>";
            if (n % 7 == 3)
                block += "<attribute><name>Shift</name><value>" + QByteArray::number(n) + "</value></attribute>";
            block += "<attribute><name>Metric Name</name><value>TIME</value></attribute>" + plain;
            block += "<attribute><name>Rank</name><value>" + QByteArray::number(n) + "</value></attribute>";
            if (n % 2 == 0)
                block += entity;
            if (n % 3 == 0)
                block += nested;
            if (n % 4 == 1)
                block += context;
            if (n % 5 == 2)
                block += cdata;
            if (n % 6 == 5) // the same key twice in one file: the last value counts
                block
                    += "<attribute><name>Host</name><value>nid" + QByteArray::number(900 + n) + "</value></attribute>";
            block += n == 11 ? QByteArray("<attribute><name>Broken</name><value>x</valu></attribute></metadata>")
                             : QByteArray("</metadata>");
            blocks.push_back(block);
            writeText(dir.filePath(QStringLiteral("profile.%1.0.0").arg(n)),
                QByteArrayLiteral("1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls # ")
                    + block + "\n\"f\" 1 0 1 1 0 GROUP=\"g\"\n0 aggregates\n");
        }
        for (int threads : { 1, 2 }) {
            const auto trial = mustReadWith(TauReader(), dir.path(), withThreads(threads));
            QVERIFY(trial);
            QCOMPARE(trial->threadCount(), blocks.size());
            for (std::size_t n = 0; n < blocks.size(); ++n) {
                const auto parsed = parseTauMetadata(std::string_view(blocks[n].constData(), blocks[n].size()));
                QCOMPARE(parsed.error.empty(), n != 11);
                std::map<std::string, std::string> expected;
                for (const auto& attr : parsed.attributes)
                    if (attr.key != "Metric Name")
                        expected[attr.key] = attr.value;
                QVERIFY(expected.size() >= 3); // Host, Cores, Rank at least
                for (const auto& [key, value] : expected)
                    QCOMPARE(trial->metadataValue(QString::fromStdString(key), ThreadIndex(n)).toStdString(), value);
                // Nothing else: every per-thread entry is one of the file's own.
                for (const auto& entry : trial->threadMetadata(ThreadIndex(n))) {
                    const auto it = expected.find(trial->strings().get(entry.key).toStdString());
                    QVERIFY(it != expected.end());
                    QCOMPARE(trial->strings().get(entry.value).toStdString(), it->second);
                }
            }
            QVERIFY(trial->warnings()
                        .join(QLatin1Char('\n'))
                        .contains(QStringLiteral("profile.11.0.0:2: metadata block is malformed")));
        }
    }

    void emptyThreadIsAThread()
    {
        QTemporaryDir dir;
        writeText(dir.filePath(QStringLiteral("profile.0.0.0")),
            QByteArrayLiteral("1 templated_functions_MULTI_TIME\n") + MinimalHeader
                + "\"f\" 1 0 1 1 0 GROUP=\"g\"\n0 aggregates\n");
        writeText(dir.filePath(QStringLiteral("profile.1.0.0")),
            QByteArrayLiteral("0 templated_functions_MULTI_TIME\n") + MinimalHeader + "0 aggregates\n");
        writeText(dir.filePath(QStringLiteral("profile.x.0.0")), "ignored: the ids do not parse\n");
        const auto trial = mustLoad(dir.path());
        QVERIFY(trial);
        QCOMPARE(trial->threadCount(), std::size_t(2));
        QCOMPARE(trial->row(ThreadIndex(1u)).size(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestTauReader)
#include "tst_taureader.moc"
