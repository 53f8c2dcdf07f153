// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The ppk reader against the facts in ../shared/data/tau2/MANIFEST.md and docs/FORMATS.md 3, the ppk
// writer by round trips (ppk and TAU samples, a synthetic multi-metric trial, odd Unicode), and both
// against truncated, corrupted and hand-made bad streams.
#include "datasource/model/pooledatomics.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/ppkreader.h"
#include "datasource/writers/ppkwriter.h"
#include "datasource/writers/tauwriter.h"
#include "tests/common/ppkbytes.h"
#include "tests/common/readertest.h"
#include "tests/common/testutil.h"

#include <QTemporaryDir>
#include <QtEndian>
#include <bit>
#include <cstring>
#include <random>
#include <zlib.h>

using namespace parallax;
using namespace parallax::test;

namespace {

QString ppkPath(const char* name) { return dataPath(QStringLiteral("tau2/ppk/") + QLatin1String(name)); }

QByteArray gunzip(const QString& path)
{
    QByteArray out;
    gzFile f = gzopen(QFile::encodeName(path).constData(), "rb");
    if (!f)
        return out;
    char buf[65536];
    int n;
    while ((n = gzread(f, buf, sizeof buf)) > 0)
        out.append(buf, n);
    gzclose(f);
    return out;
}

/// Level 0 (stored blocks) is still gzip, and quick enough to write thousands of files.
void gzipTo(const QString& path, const QByteArray& data, int level = 1)
{
    gzFile f = gzopen(QFile::encodeName(path).constData(), level == 0 ? "wb0" : "wb1");
    QVERIFY(f);
    if (!data.isEmpty())
        QCOMPARE(gzwrite(f, data.constData(), static_cast<unsigned>(data.size())), static_cast<int>(data.size()));
    QCOMPARE(gzclose(f), Z_OK);
}

TrialResult readPpk(const QString& path, int threads = 0) { return readWith(PpkReader(), path, withThreads(threads)); }

std::shared_ptr<Trial> mustReadPpk(const QString& path, int threads = 0)
{
    return mustReadWith(PpkReader(), path, withThreads(threads));
}

QString describe(const TrialResult& result)
{
    return result.ok() ? QStringLiteral("a trial") : result.error().toString();
}

/// Bit-for-bit equal columns (ColumnView, CountView or vector of doubles).
template <typename A, typename B> bool sameBits(const A& a, const B& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::bit_cast<std::uint64_t>(static_cast<double>(a[i]))
            != std::bit_cast<std::uint64_t>(static_cast<double>(b[i])))
            return false;
    return true;
}

QList<QPair<QString, QString>> metadataPairs(const Trial& t, const std::vector<MetadataEntry>& entries, bool sorted)
{
    QList<QPair<QString, QString>> out;
    for (const auto& e : entries)
        out.append({ t.strings().get(e.key), t.strings().get(e.value) });
    if (sorted)
        std::sort(out.begin(), out.end());
    return out;
}

/// Everything a ppk can hold, compared exactly: doubles bit for bit, ids, names, groups, metadata.
/// `metadataInOrder` is false for trials that went through TAU files (whose metadata order differs).
void compareTrials(const Trial& a, const Trial& b, bool metadataInOrder = true)
{
    compareMetrics(a, b);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(a.threads(), b.threads());
    QCOMPARE(a.groupCount(), b.groupCount());
    for (std::size_t g = 0; g < a.groupCount(); ++g)
        QCOMPARE(a.groupName(GroupId(g)), b.groupName(GroupId(g)));
    compareEvents(a, b);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(a.atomicEventCount(), b.atomicEventCount());
    for (std::size_t u = 0; u < a.atomicEventCount(); ++u) {
        const AtomicEvent& ua = a.atomicEvent(AtomicEventId(u));
        const AtomicEvent& ub = b.atomicEvent(AtomicEventId(u));
        QCOMPARE(ua.name, ub.name);
        QCOMPARE(ua.rawName, ub.rawName);
        QCOMPARE(ua.baseName, ub.baseName);
        QCOMPARE(ua.context, ub.context);
    }
    for (std::size_t t = 0; t < a.threadCount(); ++t) {
        const RowView ra = a.row(ThreadIndex(t));
        const RowView rb = b.row(ThreadIndex(t));
        QCOMPARE(ra.events, rb.events);
        QVERIFY(sameBits(ra.calls, rb.calls));
        QVERIFY(sameBits(ra.subrs, rb.subrs));
        QVERIFY(sameBits(ra.excl, rb.excl));
        QVERIFY(sameBits(ra.incl, rb.incl));
        QVERIFY(ra.exclSqr.empty() && rb.exclSqr.empty());
        const AtomicRow& aa = a.atomicRow(ThreadIndex(t));
        const AtomicRow& ab = b.atomicRow(ThreadIndex(t));
        QCOMPARE(aa.events, ab.events);
        QVERIFY(sameBits(aa.count, ab.count));
        QVERIFY(sameBits(aa.max, ab.max));
        QVERIFY(sameBits(aa.min, ab.min));
        QVERIFY(sameBits(aa.mean, ab.mean));
        QVERIFY(sameBits(aa.sumSquares, ab.sumSquares));
        QCOMPARE(metadataPairs(a, a.threadMetadata(ThreadIndex(t)), !metadataInOrder),
            metadataPairs(b, b.threadMetadata(ThreadIndex(t)), !metadataInOrder));
    }
    QCOMPARE(metadataPairs(a, a.metadata(), !metadataInOrder), metadataPairs(b, b.metadata(), !metadataInOrder));
}

/// A deterministic trial with what the samples lack: three metrics, full-precision doubles, raw
/// names with extra spaces, absent cells, context user events, per-thread metadata.
std::shared_ptr<Trial> generatedTrial(int threads, int events, int metrics, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> value(0.0, 1e7);
    TrialBuilder b(QStringLiteral("generated"));
    const char* const metricNames[] = { "TIME", "PAPI_TOT_CYC", "PAPI L1 DCM" };
    for (int m = 0; m < metrics; ++m)
        b.addMetric(Metric(QLatin1String(metricNames[m % 3]) + (m >= 3 ? QString::number(m) : QString()),
            m == 0 ? QStringLiteral("us") : QStringLiteral("count")));
    std::vector<EventId> ids;
    ids.push_back(b.addEvent(QStringLiteral("main() [{main.c} {1,1}-{9,1}]  "), { QStringLiteral("TAU_DEFAULT") }));
    for (int e = 1; e < events; ++e) {
        const QString flat = QStringLiteral("work_%1(int) C [{work.c} {%1,1}]").arg(e);
        ids.push_back(b.addEvent(flat, { e % 3 ? QStringLiteral("TAU_USER") : QStringLiteral("MPI") }));
        ids.push_back(b.addEvent(QStringLiteral("main() [{main.c} {1,1}-{9,1}]   => ") + flat + QStringLiteral("  "),
            { QStringLiteral("TAU_CALLPATH"), QStringLiteral("TAU_USER") }));
    }
    const AtomicEventId bytes = b.addAtomicEvent(QStringLiteral("Message size"));
    const AtomicEventId context = b.addAtomicEvent(
        QStringLiteral("Message size : main() [{main.c} {1,1}-{9,1}] => work_1(int) C [{work.c} {1,1}]"));
    b.addMetadata(QStringLiteral("Executable"), QStringLiteral("/bin/generated"));
    std::vector<double> excl(static_cast<std::size_t>(metrics)), incl(static_cast<std::size_t>(metrics));
    for (int t = 0; t < threads; ++t) {
        const ThreadIndex ti = b.addThread({ t / 4, 0, t % 4 });
        for (std::size_t e = 0; e < ids.size(); ++e) {
            if (e > 0 && rng() % 5 == 0)
                continue; // did not run here
            for (int m = 0; m < metrics; ++m) {
                excl[static_cast<std::size_t>(m)] = value(rng);
                incl[static_cast<std::size_t>(m)] = excl[static_cast<std::size_t>(m)] + value(rng);
            }
            b.addInterval(
                ti, ids[e], static_cast<double>(1 + rng() % 1000), static_cast<double>(rng() % 7), excl, incl);
        }
        b.addAtomic(ti, bytes, static_cast<double>(1 + rng() % 100), 4096, 4, value(rng), value(rng) * 1e3);
        if (t % 2)
            b.addAtomic(ti, context, 3, 80, 40, 60, 11200);
        b.addThreadMetadata(ti, QStringLiteral("pid"), QString::number(1000 + t));
        b.addThreadMetadata(ti, QStringLiteral("OS Name"), QStringLiteral("Linux")); // the same everywhere: trial-wide
    }
    return b.build();
}

struct Tiny {
    std::int32_t version = 2;
    std::int32_t compatible = 1;
    QByteArray functionName = "main()";
    std::int32_t groupIndex = 0;
    std::int32_t functionIndex = 1;
    std::int32_t userEventIndex = 0;
    std::int32_t headerSizeDelta = 0;
};

/// A small valid stream: metric TIME, groups {TAU_USER, MPI}, functions {main(), MPI_Send()}, one
/// user event, thread 0,0,0 with both functions and the user event. Fields can be spoiled.
QByteArray tinyStream(const Tiny& t = {})
{
    Bytes header;
    header.i32(0).i32(1).str("Hostname").str("node1").i32(1).i32(0).i32(0).i32(0).i32(1).str("pid").str("42");
    Bytes b;
    b.data = QByteArray("\0P\0P\0K", 6);
    b.i32(t.version).i32(t.compatible).i32(static_cast<std::int32_t>(header.data.size()) + t.headerSizeDelta);
    b.data += header.data;
    b.i32(1).str("TIME");
    b.i32(2).str("TAU_USER").str("MPI");
    b.i32(2).str(t.functionName).i32(1).i32(t.groupIndex).str("MPI_Send()").i32(1).i32(1);
    b.i32(1).str("Message size");
    b.i32(1).i32(0).i32(0).i32(0);
    b.i32(2);
    b.i32(0).f64(1).f64(1).f64(10).f64(30);
    b.i32(t.functionIndex).f64(4).f64(0).f64(20).f64(20);
    b.i32(1).i32(t.userEventIndex).i32(4).f64(8).f64(64).f64(24).f64(4416);
    return b.data;
}

} // namespace

class TestPpkReader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void manifestCounts_data()
    {
        // MANIFEST.md and docs/FORMATS.md 8 give most counts; the ones marked (D) are not there and come
        // from an independent Python decoder of the same files (every byte consumed, none left).
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("metrics");
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("functions");
        QTest::addColumn<int>("groups");
        QTest::addColumn<int>("userEvents");
        QTest::addColumn<int>("trialKeys");
        QTest::addColumn<int>("profiles"); // function profiles: present (thread, event) cells
        const QStringList time { QStringLiteral("TIME") };
        const QStringList ringTime { QStringLiteral("Time") };
        QTest::newRow("ring-2rank") << ppkPath("ring-2rank.ppk") << ringTime << 2 << 10 << 3 << 3 << 21 << 20 /* D */;
        QTest::newRow("ring-8rank") << ppkPath("ring-8rank.ppk") << ringTime << 8 << 10 << 3 << 3 << 21 << 80 /* D */;
        QTest::newRow("gromacs") << ppkPath("gromacs-like-loadimbalance-8rank.ppk") << time << 8 << 613 << 4 << 5 << 26
                                 << 3511;
        QTest::newRow("xgc") << ppkPath("xgc-5metrics-16rank.ppk")
                             << QStringList { QStringLiteral("PAPI_FP_INS"), QStringLiteral("PAPI_TOT_CYC"),
                                    QStringLiteral("PAPI_L1_DCM"), QStringLiteral("PAPI_BR_MSP"),
                                    QStringLiteral("PAPI_TOT_INS") }
                             << 16 << 42 << 2 << 4 << 50 /* D */ << 657 /* D */;
        QTest::newRow("phases") << ppkPath("phases-callpath-1thread.ppk") << time << 1 << 1512 << 4 /* D */ << 0
                                << 37 /* D */ << 1512 /* D */;
        QTest::newRow("matmult") << ppkPath("matmult-openmp-24thread-samples.ppk") << time << 24 << 51 << 8 << 0 << 133
                                 << 694 /* D */;
        QTest::newRow("wrf") << ppkPath("wrf-callpath-16rank.ppk") << time << 16 << 2973 << 5 << 4 << 27 /* D */
                             << 45143;
    }
    void manifestCounts()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, metrics);
        QFETCH(int, threads);
        QFETCH(int, functions);
        QFETCH(int, groups);
        QFETCH(int, userEvents);
        QFETCH(int, trialKeys);
        QFETCH(int, profiles);
        QCOMPARE(PpkReader().sniff(file), 100);
        QCOMPARE(ReaderRegistry::instance().detect(file)->name(), QStringLiteral("ppk"));
        const auto trial = mustLoad(file);
        QVERIFY(trial);
        QStringList names;
        for (const Metric& m : trial->metrics())
            names << m.name;
        QCOMPARE(names, metrics);
        for (const Metric& m : trial->metrics())
            QCOMPARE(m.unit,
                m.name.toUpper().contains(QLatin1String("TIME")) ? QStringLiteral("us") : QStringLiteral("count"));
        QCOMPARE(trial->threadCount(), std::size_t(threads));
        QCOMPARE(trial->eventCount(), std::size_t(functions));
        QCOMPARE(trial->groupCount(), std::size_t(groups));
        QCOMPARE(trial->atomicEventCount(), std::size_t(userEvents));
        // The trial-wide keys of the file; the 1.3 rule moves none of the per-thread ones.
        QCOMPARE(trial->metadata().size(), std::size_t(trialKeys));
        QCOMPARE(trial->cellCount(), std::size_t(profiles));
        QVERIFY2(trial->warnings().isEmpty(), qPrintable(trial->warnings().join(QLatin1Char('\n'))));
        QCOMPARE(trial->provenance().reader, QStringLiteral("ppk"));
        QCOMPARE(trial->provenance().operation, QStringLiteral("read"));
        QCOMPARE(trial->provenance().source, QFileInfo(file).absoluteFilePath());
    }

    void ringTwoRanks()
    {
        const QString file = ppkPath("ring-2rank.ppk");
        const QByteArray raw = gunzip(file);
        // docs/FORMATS.md 3: version 2, compatible 1, headerSize 1028.
        QCOMPARE(raw.left(18), QByteArray::fromHex("00500050004b 00000002 00000001 00000404"));
        const auto trial = mustReadPpk(file);
        QVERIFY(trial);
        QCOMPARE(exclOf(*trial, 0, QStringLiteral("MPI_Init()")), 1147712.0);
        const QString main = QStringLiteral("int main(int, char **) C [{ring.c} {46,1}-{56,1}]");
        QCOMPARE(exclOf(*trial, 0, main), 125.0);
        QCOMPARE(inclOf(*trial, 0, main), 2150087.0);
        const ThreadIndex t0 = trial->findThread({ 0, 0, 0 });
        const auto i = static_cast<std::size_t>(trial->row(t0).find(trial->findEvent(main)));
        QCOMPARE(trial->row(t0).calls[i], 1.0);
        QCOMPARE(trial->row(t0).subrs[i], 5.0);
        // User events are min, max, mean in a ppk.
        const AtomicEventId sent = trial->findAtomicEvent(QStringLiteral("Message size sent to all nodes"));
        QVERIFY(sent.isValid());
        const AtomicRow& row = trial->atomicRow(t0);
        const auto k = static_cast<std::size_t>(row.find(sent));
        QCOMPARE(row.count[k], 6.0);
        QCOMPARE(row.min[k], 40.0);
        QCOMPARE(row.max[k], 80.0);
        QCOMPARE(row.mean[k], 60.0);
        QCOMPARE(row.sumSquares[k], 24000.0);
        QCOMPARE(row.stddev(k), 20.0);
        // Metadata: 21 trial keys, 3 per thread (docs/FORMATS.md 3 bytes: "CPU Cores" = "2" first).
        QCOMPARE(trial->strings().get(trial->metadata().front().key), QStringLiteral("CPU Cores"));
        QCOMPARE(trial->metadataValue(QStringLiteral("CPU Cores")), QStringLiteral("2"));
        for (std::size_t t = 0; t < 2; ++t) {
            QCOMPARE(trial->threadMetadata(ThreadIndex(t)).size(), std::size_t(3));
            QVERIFY(!trial->metadataValue(QStringLiteral("pid"), ThreadIndex(t)).isEmpty());
        }
        QVERIFY(trial->metadataValue(QStringLiteral("pid"), ThreadIndex(0u))
            != trial->metadataValue(QStringLiteral("pid"), ThreadIndex(1u)));
    }

    void wrfNamesAreCanonical()
    {
        const auto trial = mustReadPpk(ppkPath("wrf-callpath-16rank.ppk"));
        QVERIFY(trial);
        const QString raw = QStringLiteral("CALL_PKG_AND_DIST [{module_io.f90} {21989,1}-{22095,32}]   => "
                                           "CALL_PKG_AND_DIST_INT [{module_io.f90} {22225,1}-{22279,36}]");
        const QString canonical = QStringLiteral("CALL_PKG_AND_DIST [{module_io.f90} {21989,1}-{22095,32}] => "
                                                 "CALL_PKG_AND_DIST_INT [{module_io.f90} {22225,1}-{22279,36}]");
        QVERIFY(!trial->findEvent(raw).isValid());
        const EventId e = trial->findEvent(canonical);
        QVERIFY(e.isValid());
        QCOMPARE(trial->event(e).rawName, raw);
        QCOMPARE(trial->event(e).depth, 2);
        QCOMPARE(trial->event(trial->event(e).parent).name,
            QStringLiteral("CALL_PKG_AND_DIST [{module_io.f90} {21989,1}-{22095,32}]"));
        QCOMPARE(trial->event(trial->event(e).leaf).name,
            QStringLiteral("CALL_PKG_AND_DIST_INT [{module_io.f90} {22225,1}-{22279,36}]"));
        QCOMPARE(exclOf(*trial, 0, canonical), 32238.0);
        QCOMPARE(inclOf(*trial, 0, canonical), 78967.0);
        // 1834 call paths, every one stored with non-canonical spacing (docs/FORMATS.md 8).
        QCOMPARE(countEvents(*trial, true), std::size_t(1834));
        std::size_t respaced = 0;
        for (const auto& ev : trial->events())
            respaced += ev.rawName != ev.name ? 1 : 0;
        QCOMPARE(respaced, std::size_t(1834));
        QVERIFY(trial->findGroup(QStringLiteral("TAU_DISABLE")).isValid());
        QCOMPARE(trial->metadataValue(QStringLiteral("TAU_CALLPATH")), QStringLiteral("on"));
        QCOMPARE(trial->threadMetadata(ThreadIndex(0u)).size(), std::size_t(8));
    }

    void xgcSnapshotAndMetrics()
    {
        const auto trial = mustReadPpk(ppkPath("xgc-5metrics-16rank.ppk"));
        QVERIFY(trial);
        QCOMPARE(trial->metadataValue(QStringLiteral("File Type Name")), QStringLiteral("TAU Snapshot"));
        QCOMPARE(trial->metadataValue(QStringLiteral("File Type Index")), QStringLiteral("2"));
        // Thread 1 carries only its timestamps and pid; thread 0 also has its host and CPU MHz.
        QCOMPARE(trial->threadMetadata(trial->findThread({ 1, 0, 0 })).size(), std::size_t(3));
        QCOMPARE(trial->threadMetadata(trial->findThread({ 0, 0, 0 })).size(), std::size_t(7));
        QVERIFY(trial->metadataValue(QStringLiteral("Hostname"), trial->findThread({ 1, 0, 0 })).isNull());
        QCOMPARE(
            trial->metadataValue(QStringLiteral("Hostname"), trial->findThread({ 0, 0, 0 })), QStringLiteral("cn121"));
        QCOMPARE(
            trial->metadataValue(QStringLiteral("Hostname"), trial->findThread({ 2, 0, 0 })), QStringLiteral("cn120"));
        // Five metric columns per cell, each distinct: the records are transposed correctly.
        const RowView row = trial->row(ThreadIndex(0u));
        QVERIFY(row.size() > 0);
        QCOMPARE(row.excl.size(), row.size() * 5);
    }

    void phasesAndSamples()
    {
        const auto phases = mustReadPpk(ppkPath("phases-callpath-1thread.ppk"));
        QVERIFY(phases);
        std::size_t inPhase = 0;
        QStringList plain;
        for (std::size_t e = 0; e < phases->eventCount(); ++e) {
            if (phases->eventInGroup(EventId(e), QStringLiteral("TAU_PHASE")))
                ++inPhase;
            else if (!phases->event(EventId(e)).isCallPath())
                plain << phases->event(EventId(e)).name;
        }
        plain.sort();
        QCOMPARE(inPhase, std::size_t(252));
        QCOMPARE(countEvents(*phases, true), std::size_t(1254));
        QCOMPARE(plain,
            (QStringList { QStringLiteral("f1()"), QStringLiteral("f2()"), QStringLiteral("f3()"),
                QStringLiteral("f4()"), QStringLiteral("input"), QStringLiteral("output") }));
        QVERIFY(phases->findEvent(QStringLiteral("Iteration 0 => f1()")).isValid());

        const auto mm = mustReadPpk(ppkPath("matmult-openmp-24thread-samples.ppk"));
        QVERIFY(mm);
        for (int t = 0; t < 24; ++t)
            QCOMPARE(mm->threadKey(ThreadIndex(static_cast<std::uint32_t>(t))), (ThreadKey { 0, 0, t }));
        QCOMPARE(countEvents(*mm, true), std::size_t(19));
        for (const char* g : { "TAU_SAMPLE", "TAU_SAMPLE_CONTEXT", "TAU_CALLPATH_DERIVED", "TAU_DERIVED" })
            QVERIFY2(mm->findGroup(QLatin1String(g)).isValid(), g);
    }

    void gromacsPerThreadMetadata()
    {
        const auto trial = mustReadPpk(ppkPath("gromacs-like-loadimbalance-8rank.ppk"));
        QVERIFY(trial);
        for (std::size_t t = 0; t < 8; ++t)
            QCOMPARE(trial->threadMetadata(ThreadIndex(t)).size(), std::size_t(9));
        QCOMPARE(trial->metadataValue(QStringLiteral("File Type Name")), QStringLiteral("Tau profiles"));
    }

    void pipelinedAndSingleThreadedAgree()
    {
        for (const char* f : { "wrf-callpath-16rank.ppk", "xgc-5metrics-16rank.ppk" }) {
            const auto a = mustReadPpk(ppkPath(f), 1);
            const auto b = mustReadPpk(ppkPath(f), 2); // inflating on a second thread
            QVERIFY(a && b);
            compareTrials(*a, *b);
        }
    }

    void uncompressedFileReads()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("raw.ppk"));
        writeText(path, gunzip(ppkPath("xgc-5metrics-16rank.ppk")));
        QCOMPARE(PpkReader().sniff(path), 100);
        const auto raw = mustReadPpk(path);
        const auto gz = mustReadPpk(ppkPath("xgc-5metrics-16rank.ppk"));
        QVERIFY(raw && gz);
        compareTrials(*raw, *gz);
        // gzip under another name: sniffed by inflating the first bytes.
        const QString other = dir.filePath(QStringLiteral("profile.bin"));
        QVERIFY(QFile::copy(ppkPath("ring-2rank.ppk"), other));
        QCOMPARE(PpkReader().sniff(other), 90);
        QCOMPARE(ReaderRegistry::instance().detect(other)->name(), QStringLiteral("ppk"));
        gzipTo(dir.filePath(QStringLiteral("text.gz")), "hello, world");
        QCOMPARE(PpkReader().sniff(dir.filePath(QStringLiteral("text.gz"))), 0);
    }

    void progressAndCancel()
    {
        qint64 total = 0;
        QStringList stages;
        Progress progress([&](const QString& stage, qint64, qint64 t) {
            total = std::max(total, t);
            if (stages.isEmpty() || stages.back() != stage)
                stages << stage;
        });
        const QString file = ppkPath("wrf-callpath-16rank.ppk");
        QVERIFY(PpkReader().read(file, {}, progress).ok());
        // Progress counts compressed bytes read, out of the file size.
        QCOMPARE(total, QFileInfo(file).size());
        QCOMPARE(stages,
            (QStringList { QStringLiteral("Reading ParaProf packed profile"), QStringLiteral("Building the trial") }));

        Progress cancelled;
        cancelled.cancel();
        const auto result = PpkReader().read(file, {}, cancelled);
        QVERIFY(!result.ok());
        QCOMPARE(result.error().message, QStringLiteral("cancelled"));
    }

    // ---- round trips ---------------------------------------------------------------------------

    void roundTripPpkSamples_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString& f :
            QDir(dataPath(QStringLiteral("tau2/ppk"))).entryList({ QStringLiteral("*.ppk") }, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(f)) << dataPath(QStringLiteral("tau2/ppk/") + f);
    }
    void roundTripPpkSamples()
    {
        QFETCH(QString, file);
        const auto original = mustReadPpk(file);
        QVERIFY(original);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("again.ppk"));
        QCOMPARE(PpkWriter::write(*original, out), QString());
        const auto again = mustReadPpk(out);
        QVERIFY(again);
        compareTrials(*original, *again);
        QVERIFY(again->warnings().isEmpty());
        // The decoded streams agree in size too: nothing added or dropped.
        QCOMPARE(gunzip(out).size(), gunzip(file).size());
    }

    void roundTripTauDirectories_data()
    {
        QTest::addColumn<QString>("dir");
        const QDir tau2(dataPath(QStringLiteral("tau2")));
        const QStringList dirs = tau2.entryList({ QStringLiteral("tau-profiles-*") }, QDir::Dirs, QDir::Name);
        QVERIFY(dirs.size() >= 4);
        for (const QString& d : dirs)
            QTest::newRow(qPrintable(d)) << tau2.filePath(d);
    }
    void roundTripTauDirectories()
    {
        QFETCH(QString, dir);
        const auto tau = mustLoad(dir);
        QVERIFY(tau);
        QCOMPARE(tau->provenance().reader, QStringLiteral("tau"));
        QTemporaryDir tmp;
        const QString ppk = tmp.filePath(QStringLiteral("trial.ppk"));
        QCOMPARE(PpkWriter::write(*tau, ppk), QString());
        const auto fromPpk = mustLoad(ppk);
        QVERIFY(fromPpk);
        QCOMPARE(fromPpk->provenance().reader, QStringLiteral("ppk"));
        // Same numbers in the same units as the TAU directory (TIME in microseconds).
        compareTrials(*tau, *fromPpk);
        // And back to TAU profiles.
        const QString tauAgain = tmp.filePath(QStringLiteral("tau"));
        QCOMPARE(TauWriter::write(*fromPpk, tauAgain), QString());
        const auto again = mustLoad(tauAgain);
        QVERIFY(again);
        compareTrials(*tau, *again, false);
    }

    void roundTripGeneratedMultiMetric()
    {
        const auto trial = generatedTrial(12, 40, 3, 7);
        QCOMPARE(trial->metricCount(), std::size_t(3));
        QVERIFY(countEvents(*trial, true) > 0);
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("generated.ppk"));
        QCOMPARE(PpkWriter::write(*trial, out), QString());
        const auto again = mustReadPpk(out);
        QVERIFY(again);
        compareTrials(*trial, *again);
        QVERIFY(again->warnings().isEmpty());
        const auto single = mustReadPpk(out, 1);
        QVERIFY(single);
        compareTrials(*trial, *single);
        const auto pipelined = mustReadPpk(out, 2);
        QVERIFY(pipelined);
        compareTrials(*trial, *pipelined);
    }

    void unicodeRoundTrip()
    {
        // U+0000 inside a name, a non-BMP character (two surrogates), Latin-1 and CJK.
        const QString nul = QStringLiteral("zero") + QChar(0) + QStringLiteral("byte()");
        const QString emoji
            = QStringLiteral("smile ") + QString::fromUcs4(U"\U0001F600") + QStringLiteral(" [{f.c} {1,1}]");
        const QString cjk = QStringLiteral("計算() => caf\u00e9()");
        TrialBuilder b(QStringLiteral("unicode"));
        b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
        const ThreadIndex t = b.addThread({ 0, 0, 0 });
        const ThreadIndex derived = b.addThread({ -1, -1, -1 });
        const EventId e1 = b.addEvent(nul, { QStringLiteral("gr\u00fcppe") });
        const EventId e2 = b.addEvent(emoji, { QStringLiteral("TAU_USER") });
        const EventId e3 = b.addEvent(cjk, { QStringLiteral("TAU_CALLPATH") });
        const double one[] = { 1.5 };
        const double two[] = { -0.0 };
        b.addInterval(t, e1, 1, 0, one, one);
        b.addInterval(t, e2, 2, 1, two, one);
        b.addInterval(t, e3, 3, 0, one, two);
        b.addInterval(derived, e1, 1, 0, one, one);
        const AtomicEventId u = b.addAtomicEvent(QStringLiteral("bytes : ") + emoji);
        b.addAtomic(t, u, 3, 9, 1, 5, 107);
        b.addMetadata(QStringLiteral("note"),
            QStringLiteral("a") + QChar(0) + QStringLiteral("b ") + QString::fromUcs4(U"\U0001D11E"));
        b.addThreadMetadata(t, QStringLiteral("host"), QStringLiteral("n\u00f8de"));
        const auto trial = b.build();
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("u.ppk"));
        QCOMPARE(PpkWriter::write(*trial, out), QString());
        const QByteArray bytes = gunzip(out);
        QVERIFY(bytes.contains(QByteArray("zero\xC0\x80"
                                          "byte()")));
        QVERIFY(bytes.contains(QByteArray("smile \xED\xA0\xBD\xED\xB8\x80")));
        QVERIFY(!bytes.contains(QByteArray("\xF0\x9F\x98\x80"))); // not standard UTF-8
        const auto again = mustReadPpk(out);
        QVERIFY(again);
        // The derived thread (negative ids) is not written.
        QCOMPARE(again->threadCount(), std::size_t(1));
        QCOMPARE(again->threadKey(ThreadIndex(0u)), (ThreadKey { 0, 0, 0 }));
        QCOMPARE(again->event(EventId(0u)).name, nul);
        QCOMPARE(again->event(EventId(0u)).name.size(), qsizetype(11));
        QCOMPARE(again->event(EventId(1u)).name, emoji);
        QCOMPARE(again->event(EventId(2u)).name, cjk);
        QCOMPARE(again->atomicEvent(AtomicEventId(0u)).context, emoji);
        QCOMPARE(again->metadataValue(QStringLiteral("note")), trial->metadataValue(QStringLiteral("note")));
        QCOMPARE(again->metadataValue(QStringLiteral("host"), ThreadIndex(0u)), QStringLiteral("n\u00f8de"));
        QVERIFY(
            sameBits(again->row(ThreadIndex(0u)).excl, trial->row(trial->findThread({ 0, 0, 0 })).excl)); // -0.0 kept
        QCOMPARE(again->atomicRow(ThreadIndex(0u)).min[0], 1.0);
        QCOMPARE(again->atomicRow(ThreadIndex(0u)).max[0], 9.0);
    }

    void writerRefusesWhatThePpkCannotHold()
    {
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("long.ppk"));
        {
            TrialBuilder b(QStringLiteral("long"));
            b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
            const ThreadIndex t = b.addThread({ 0, 0, 0 });
            const EventId e = b.addEvent(QString(70000, QLatin1Char('x')));
            const double v[] = { 1 };
            b.addInterval(t, e, 1, 0, v, v);
            const auto trial = b.build();
            const QString error = PpkWriter::write(*trial, out);
            QVERIFY(error.contains(out));
            QVERIFY2(error.contains(QStringLiteral("function name 'xxxx")) && error.contains(QStringLiteral("65535")),
                qPrintable(error));
            QVERIFY(!QFileInfo::exists(out));
            QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden).size(), 0); // no temporary left
        }
        {
            // 3-byte characters: 21846 × 3 = 65538 bytes, too long although under 65535 characters.
            TrialBuilder b(QStringLiteral("wide"));
            b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
            b.addThread({ 0, 0, 0 });
            b.addMetadata(QStringLiteral("wide"), QString(21846, QChar(0x8A08)));
            const QString error = PpkWriter::write(*b.build(), out);
            QVERIFY2(error.contains(QStringLiteral("value of metadata key 'wide'")), qPrintable(error));
        }
        {
            TrialBuilder b(QStringLiteral("fraction"));
            b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
            const ThreadIndex t = b.addThread({ 3, 0, 0 });
            b.addAtomic(t, b.addAtomicEvent(QStringLiteral("bytes")), 2.5, 1, 1, 1, 1);
            const QString error = PpkWriter::write(*b.build(), out);
            QVERIFY2(error.contains(QStringLiteral("'bytes' on thread 3,0,0 has 2.5 samples")), qPrintable(error));
        }
        const QString error = PpkWriter::write(
            *mustReadPpk(ppkPath("ring-2rank.ppk")), tmp.filePath(QStringLiteral("no/such/dir/x.ppk")));
        QVERIFY2(error.contains(QStringLiteral("no/such/dir/x.ppk")), qPrintable(error));
    }

    // ---- bad input -----------------------------------------------------------------------------

    void truncatedStreams_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("step");
        QTest::newRow("ring-2rank") << ppkPath("ring-2rank.ppk") << 7;
        QTest::newRow("xgc") << ppkPath("xgc-5metrics-16rank.ppk") << 97;
        QTest::newRow("gromacs") << ppkPath("gromacs-like-loadimbalance-8rank.ppk") << 97;
        QTest::newRow("matmult") << ppkPath("matmult-openmp-24thread-samples.ppk") << 97;
    }
    void truncatedStreams()
    {
        QFETCH(QString, file);
        QFETCH(int, step);
        const QByteArray full = gunzip(file);
        QVERIFY(full.size() > 1000);
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("cut.ppk"));
        int checked = 0;
        for (qsizetype cut = 0; cut < full.size(); cut += step) {
            QFile::remove(path); // a new file each time: rewriting one in place makes ext4 flush it
            gzipTo(path, full.left(cut), cut % 2 ? 0 : 1);
            const auto result = readPpk(path, cut % 3 ? 1 : 2);
            QVERIFY2(!result.ok(), qPrintable(QStringLiteral("cut at %1 read as a trial").arg(cut)));
            const ReadError& e = result.error();
            QCOMPARE(e.file, path);
            QVERIFY2(e.byteOffset >= 0 && e.byteOffset <= cut, qPrintable(e.toString()));
            QVERIFY2(e.message.contains(QStringLiteral("uncompressed stream")), qPrintable(e.toString()));
            QVERIFY2(e.message.contains(QStringLiteral("expected")), qPrintable(e.toString()));
            ++checked;
        }
        QVERIFY(checked > 10);
        // The last byte missing, as a raw (uncompressed) file too.
        writeText(path, full.left(full.size() - 1));
        const auto raw = readPpk(path);
        QVERIFY(!raw.ok());
        QVERIFY2(raw.error().message.contains(QStringLiteral("of the file")), qPrintable(raw.error().toString()));
        // The error points at the start of the last, incomplete item (at most a 40-byte record).
        QVERIFY2(raw.error().byteOffset >= full.size() - 41 && raw.error().byteOffset < full.size() - 1,
            qPrintable(raw.error().toString()));
    }

    void truncatedGzip()
    {
        QFile f(ppkPath("wrf-callpath-16rank.ppk"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray compressed = f.readAll();
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("cut.ppk"));
        for (const int threads : { 1, 2 }) {
            for (const qsizetype cut :
                { qsizetype(5), qsizetype(100), compressed.size() / 2, compressed.size() - 200 }) {
                QFile::remove(path);
                writeText(path, compressed.left(cut));
                const auto result = readPpk(path, threads);
                QVERIFY(!result.ok());
                QVERIFY2(result.error().message.contains(QStringLiteral("cut short")),
                    qPrintable(result.error().toString()));
                QVERIFY(result.error().byteOffset >= 0);
            }
            // Only the 8-byte trailer (CRC, size) missing: every record is there; a warning says so.
            QFile::remove(path);
            writeText(path, compressed.left(compressed.size() - 8));
            const auto nearlyAll = readPpk(path, threads);
            QVERIFY(nearlyAll.ok());
            QVERIFY(nearlyAll.value()->warnings().join(QLatin1Char(' ')).contains(QStringLiteral("cut short")));
        }
    }

    void flippedBytes()
    {
        const QByteArray full = gunzip(ppkPath("ring-2rank.ppk"));
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("flip.ppk"));
        int errors = 0;
        int trials = 0;
        for (qsizetype i = 0; i < full.size(); ++i) {
            QByteArray bad = full;
            bad[i] = static_cast<char>(bad[i] ^ 0xA5);
            QFile::remove(path);
            writeText(path, bad);
            const auto result = readPpk(path, 1);
            if (result.ok()) {
                ++trials; // a changed value or name: still a trial
            } else {
                ++errors;
                QVERIFY(!result.error().message.isEmpty());
                QVERIFY2(result.error().byteOffset >= 0, qPrintable(result.error().toString()));
            }
        }
        QVERIFY(errors > 100);
        QVERIFY(trials > 100);
        // Flipped bytes in the compressed file: corrupt gzip data, reported.
        QFile f(ppkPath("gromacs-like-loadimbalance-8rank.ppk"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray compressed = f.readAll();
        int gzipErrors = 0;
        for (qsizetype i = 20; i < compressed.size(); i += 1013) {
            QByteArray bad = compressed;
            bad[i] = static_cast<char>(bad[i] ^ 0xFF);
            QFile::remove(path);
            writeText(path, bad);
            const auto result = readPpk(path, i % 2 ? 1 : 2);
            if (!result.ok() && result.error().message.contains(QStringLiteral("gzip")))
                ++gzipErrors;
        }
        QVERIFY(gzipErrors > 10);
    }

    void handMadeStreams()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("tiny.ppk"));
        auto expectError = [&](const QByteArray& stream, const QStringList& parts) {
            gzipTo(path, stream);
            const auto result = readPpk(path);
            QVERIFY2(!result.ok(), "a bad stream must not read as a trial");
            const QString message = result.error().toString();
            QVERIFY2(message.contains(path), qPrintable(message));
            for (const QString& p : parts)
                QVERIFY2(message.contains(p), qPrintable(QStringLiteral("'%1' not in: %2").arg(p, message)));
        };

        // The valid one first.
        gzipTo(path, tinyStream());
        auto good = readPpk(path);
        QVERIFY2(good.ok(), qPrintable(describe(good)));
        const Trial& t = *good.value();
        QCOMPARE(t.eventCount(), std::size_t(2));
        QCOMPARE(exclOf(t, 0, QStringLiteral("MPI_Send()")), 20.0);
        QVERIFY(t.eventInGroup(t.findEvent(QStringLiteral("MPI_Send()")), QStringLiteral("MPI")));
        QCOMPARE(t.metadataValue(QStringLiteral("Hostname")), QStringLiteral("node1"));
        QCOMPARE(t.metadataValue(QStringLiteral("pid"), ThreadIndex(0u)), QStringLiteral("42"));
        QCOMPARE(t.atomicRow(ThreadIndex(0u)).max[0], 64.0);

        Tiny spoilt;
        spoilt.compatible = 3;
        expectError(tinyStream(spoilt),
            { QStringLiteral("compatible version"), QStringLiteral("version 3"), QStringLiteral("byte 10 ") });
        spoilt = {};
        spoilt.version = 0;
        expectError(tinyStream(spoilt), { QStringLiteral("unsupported packed profile version 0") });
        spoilt = {};
        spoilt.functionIndex = 5000;
        expectError(tinyStream(spoilt),
            { QStringLiteral("function index 5000 out of range 0..1"), QStringLiteral("thread 0,0,0") });
        spoilt = {};
        spoilt.functionIndex = -1;
        expectError(tinyStream(spoilt), { QStringLiteral("function index -1 out of range 0..1") });
        spoilt = {};
        spoilt.groupIndex = 2;
        expectError(tinyStream(spoilt), { QStringLiteral("group index 2 of function 0 ('main()') out of range 0..1") });
        spoilt = {};
        spoilt.userEventIndex = 1;
        expectError(tinyStream(spoilt), { QStringLiteral("user event index 1 out of range 0..0") });
        spoilt = {};
        spoilt.functionName = QByteArray("bad\xFFname");
        expectError(tinyStream(spoilt), { QStringLiteral("invalid modified UTF-8 in function name 1 of 2") });
        spoilt.functionName = QByteArray("cut\xE4\xB8");
        expectError(tinyStream(spoilt),
            { QStringLiteral("invalid modified UTF-8"), QStringLiteral("runs past the end of the string") });
        spoilt = {};
        spoilt.headerSizeDelta = -4;
        expectError(tinyStream(spoilt), { QStringLiteral("past the end of the header block") });

        // Modified UTF-8 decodes: C0 80 is U+0000, surrogate triples pair up.
        spoilt = {};
        spoilt.functionName = QByteArray("a\xC0\x80"
                                         "b \xED\xA0\xBD\xED\xB8\x80");
        gzipTo(path, tinyStream(spoilt));
        good = readPpk(path);
        QVERIFY(good.ok());
        QCOMPARE(good.value()->event(EventId(0u)).name,
            QStringLiteral("a") + QChar(0) + QStringLiteral("b ") + QString::fromUcs4(U"\U0001F600"));
        // An unpaired surrogate (Java allows it) is replaced, with a warning.
        spoilt.functionName = QByteArray("lone \xED\xA0\xBD");
        gzipTo(path, tinyStream(spoilt));
        good = readPpk(path);
        QVERIFY(good.ok());
        QCOMPARE(good.value()->event(EventId(0u)).name, QStringLiteral("lone \uFFFD"));
        QVERIFY(good.value()->warnings().join(QLatin1Char(' ')).contains(QStringLiteral("unpaired")));

        // Version 1: the block after compatibleVersion is skipped; nothing else changes.
        {
            QByteArray v1 = tinyStream();
            v1[9] = 1; // version
            const auto good2 = (gzipTo(path, v1), readPpk(path));
            QVERIFY2(good2.ok(), qPrintable(describe(good2)));
            QVERIFY(good2.value()->metadata().empty());
            QCOMPARE(good2.value()->eventCount(), std::size_t(2));
        }

        // Counts that would allocate gigabytes fail at the end of the data instead.
        {
            Bytes b;
            b.data = QByteArray("\0P\0P\0K", 6);
            b.i32(2).i32(1).i32(12).i32(0).i32(0).i32(0);
            b.i32(0).i32(0).i32(0x7FFFFFFF).str("f()").i32(0);
            expectError(b.data,
                { QStringLiteral("expected the u16 length of function name 2 of 2147483647"),
                    QStringLiteral("byte 51 ") });
        }
        {
            Bytes b;
            b.data = QByteArray("\0P\0P\0K", 6);
            b.i32(2).i32(1).i32(12).i32(0).i32(0).i32(0);
            b.i32(0x7FFFFFFF).str("TIME");
            expectError(b.data,
                { QStringLiteral("the metric count 2147483647 is more than this reader accepts (4096)"),
                    QStringLiteral("byte 30 ") });
        }
        {
            QByteArray huge = tinyStream();
            const qsizetype at = huge.indexOf(QByteArray("Message size")) + 12 + 4 + 12; // thread count, key
            Bytes n;
            n.i32(0x7FFFFFFF);
            huge.replace(at, 4, n.data);
            // The records run on into the user event section; the fourth finds the end of the data.
            expectError(huge, { QStringLiteral("expected function profile 4 of 2147483647 of thread 0,0,0") });
        }
        {
            Bytes b;
            b.data = QByteArray("\0P\0P\0K", 6);
            b.i32(2).i32(1).i32(-5);
            expectError(b.data, { QStringLiteral("i32 header size is negative (-5)"), QStringLiteral("byte 14 ") });
        }
        {
            Bytes b;
            b.data = QByteArray("\0P\0P\0K", 6);
            b.i32(2).i32(1).i32(100).i32(0).i32(1);
            b.data.append("\xFF\xF0", 2);
            expectError(b.data,
                { QStringLiteral(
                    "expected 65520 bytes of trial metadata key 1 of 1, but the string runs past the end") });
        }

        // Trailing bytes: read, with a warning.
        gzipTo(path, tinyStream() + QByteArray("junk"));
        good = readPpk(path);
        QVERIFY(good.ok());
        QVERIFY(good.value()
                    ->warnings()
                    .join(QLatin1Char(' '))
                    .contains(QStringLiteral("4 byte(s) after the last thread")));

        // Not a ppk at all.
        writeText(path, "2 templated_functions_MULTI_TIME\n");
        QCOMPARE(PpkReader().sniff(path), 0);
        expectError("2 templated_functions_MULTI_TIME\n",
            { QStringLiteral("not a ParaProf packed profile"), QStringLiteral("32 20 74 65 6d 70") });
        writeText(path, "");
        const auto empty = readPpk(path);
        QVERIFY(!empty.ok());
        QVERIFY2(empty.error().message.contains(QStringLiteral("found no data")), qPrintable(empty.error().toString()));
        const auto dir = readPpk(tmp.path());
        QVERIFY(!dir.ok());
    }

    void duplicateUserEventRecordsArePooled()
    {
        // No ppk in ../shared/data repeats a user event on a thread, so a fixture: tinyStream() ends with
        // thread 0,0,0's user-event section, one record of "Message size" (i32 count, then i32 index,
        // i32 samples, f64 min, max, mean, sumsqr: 44 bytes). Two records of that event instead: the
        // reader pools them (docs/SEMANTICS.md 1.5) and the trial says which cell and from how many.
        QByteArray data = tinyStream();
        data.chop(44);
        Bytes tail;
        tail.i32(2);
        tail.i32(0).i32(4).f64(8).f64(64).f64(24).f64(4416);
        tail.i32(0).i32(2).f64(4).f64(100).f64(50).f64(5016);
        data += tail.data;
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("duplicate-user-event.ppk"));
        gzipTo(path, data);
        const auto result = readPpk(path);
        QVERIFY2(result.ok(), qPrintable(describe(result)));
        const Trial& t = *result.value();
        const AtomicEventId u = t.findAtomicEvent(QStringLiteral("Message size"));
        const AtomicRow& row = t.atomicRow(ThreadIndex(0u));
        QCOMPARE(row.size(), std::size_t(1));
        QCOMPARE(row.count[0], 6.0);
        QCOMPARE(row.min[0], 4.0);
        QCOMPARE(row.max[0], 100.0);
        QCOMPARE(row.mean[0], (4 * 24.0 + 2 * 50.0) / 6);
        QCOMPARE(row.sumSquares[0], 9432.0);
        const PooledAtomicCells& pooled = t.pooledAtomicCells();
        QCOMPARE(pooled.cells().size(), std::size_t(1));
        QCOMPARE(pooled.records(ThreadIndex(0u), u), 2u);
        QVERIFY2(t.warnings().join(QLatin1Char('\n')).contains(QStringLiteral("duplicate user event profile")),
            qPrintable(t.warnings().join(QLatin1Char('\n'))));
        // The stream as tinyStream() writes it (one record): nothing pooled.
        gzipTo(path, tinyStream());
        const auto single = readPpk(path);
        QVERIFY2(single.ok(), qPrintable(describe(single)));
        QVERIFY(single.value()->pooledAtomicCells().empty());
    }

    void duplicatesAreMergedWithWarnings()
    {
        // Two functions that normalise to one name, listed on the same thread: summed, and said so.
        Bytes b;
        b.data = QByteArray("\0P\0P\0K", 6);
        b.i32(2).i32(1).i32(12).i32(0).i32(0).i32(0);
        b.i32(1).str("TIME").i32(0);
        b.i32(2).str("f()").i32(0).str("f()  ").i32(0);
        b.i32(0);
        b.i32(1).i32(0).i32(0).i32(0).i32(2);
        b.i32(0).f64(1).f64(0).f64(10).f64(10);
        b.i32(1).f64(2).f64(0).f64(5).f64(5);
        b.i32(0);
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("dup.ppk"));
        gzipTo(path, b.data);
        const auto result = readPpk(path);
        QVERIFY2(result.ok(), qPrintable(describe(result)));
        const Trial& t = *result.value();
        QCOMPARE(t.eventCount(), std::size_t(1));
        QCOMPARE(exclOf(t, 0, QStringLiteral("f()")), 15.0);
        QCOMPARE(t.row(ThreadIndex(0u)).calls[0], 3.0);
        const QString warnings = t.warnings().join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(QStringLiteral("same as another after normalisation")), qPrintable(warnings));
        QVERIFY2(warnings.contains(QStringLiteral("duplicate function profile")), qPrintable(warnings));

        // One thread in two records, two metrics under one name: merged, renamed, and said so.
        Bytes m;
        m.data = QByteArray("\0P\0P\0K", 6);
        m.i32(2).i32(1).i32(12).i32(0).i32(0).i32(0);
        m.i32(2).str("TIME").str("TIME").i32(0);
        m.i32(2).str("f()").i32(0).str("g()").i32(0);
        m.i32(0);
        m.i32(2);
        m.i32(0).i32(0).i32(0).i32(1);
        m.i32(0).f64(1).f64(0).f64(1).f64(2).f64(3).f64(4);
        m.i32(0);
        m.i32(0).i32(0).i32(0).i32(2);
        m.i32(0).f64(2).f64(0).f64(10).f64(20).f64(30).f64(40);
        m.i32(1).f64(1).f64(0).f64(5).f64(6).f64(7).f64(8);
        m.i32(0);
        gzipTo(path, m.data);
        const auto merged = readPpk(path);
        QVERIFY2(merged.ok(), qPrintable(describe(merged)));
        const Trial& u = *merged.value();
        QCOMPARE(u.metricCount(), std::size_t(2));
        QCOMPARE(u.metric(MetricId(1u)).name, QStringLiteral("TIME (2)"));
        QCOMPARE(u.threadCount(), std::size_t(1));
        QCOMPARE(exclOf(u, 0, QStringLiteral("f()"), 0), 11.0);
        QCOMPARE(inclOf(u, 0, QStringLiteral("f()"), 0), 22.0);
        QCOMPARE(exclOf(u, 0, QStringLiteral("f()"), 1), 33.0);
        QCOMPARE(inclOf(u, 0, QStringLiteral("f()"), 1), 44.0);
        QCOMPARE(exclOf(u, 0, QStringLiteral("g()"), 0), 5.0);
        QCOMPARE(inclOf(u, 0, QStringLiteral("g()"), 1), 8.0);
        QCOMPARE(u.row(ThreadIndex(0u)).calls[0], 3.0);
        const QString mergedWarnings = u.warnings().join(QLatin1Char('\n'));
        QVERIFY2(mergedWarnings.contains(QStringLiteral("repeat an earlier thread")), qPrintable(mergedWarnings));
        QVERIFY2(mergedWarnings.contains(QStringLiteral("'TIME' appears twice")), qPrintable(mergedWarnings));
    }
};

QTEST_GUILESS_MAIN(TestPpkReader)
#include "tst_ppkreader.moc"
