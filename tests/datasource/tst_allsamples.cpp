// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Every profile in ../shared/data opens: the registry detects a reader for it (a directory such as a
// TAU profile directory or an HPCToolkit database is one sample, a file another) and that reader
// reads it without an error.
//
// Files that are not profiles are skipped by rule (notAProfile: documentation, licences and provenance
// records, measurement or viewer configuration, source code, and the expected-value dumps a folder's
// MANIFEST.md describes as such). Samples of formats no reader takes yet are listed in `pending`, each
// with the issue that adds its reader; the list may only shrink: a listed sample that becomes readable
// fails the test (take it off the list), and so does any other sample that does not read.
//
// The samples added on 2026-11-25 (tau2/ppk-drawgraph-scaling, tau2/ppk/matmult-heatmap.ppk, the
// sources beside tau2/tau-profiles-wrap-params, tau2/tauprofile-xml-merged/tauprofile.xml.csv,
// hatchet/tau-cpi-mpi) are also checked against their MANIFEST.md facts: counts through
// `parallax-cli info --json`, values through the reader.
#include "datasource/readers/readerregistry.h"
#include "tests/common/clirunner.h"
#include "tests/common/samplelist.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>
#include <algorithm>
#include <array>

using namespace parallax;
using namespace parallax::test;

namespace {

/// Empty when the unit reads, else why not.
QString readError(const QString& unit, QString* format = nullptr)
{
    const Reader* reader = ReaderRegistry::instance().detect(unit);
    if (!reader)
        return QStringLiteral("no reader recognises it");
    Progress progress;
    const auto result = reader->read(unit, ReadOptions {}, progress);
    if (!result)
        return QStringLiteral("%1: %2").arg(reader->name(), result.error().toString());
    if (format)
        *format = reader->name();
    return {};
}

/// `parallax-cli info --json PATH`, parsed; an empty object when the command fails.
QJsonObject cliInfo(const QString& path)
{
    const test::CliRun r = test::runCli({ QStringLiteral("info"), QStringLiteral("--json"), path });
    if (r.exitCode != 0) {
        qWarning("parallax-cli info %s: %s", qPrintable(path), r.err.constData());
        return {};
    }
    return QJsonDocument::fromJson(r.out).object();
}

std::shared_ptr<Trial> mustRead(const QString& path)
{
    const Reader* reader = ReaderRegistry::instance().detect(path);
    if (!reader)
        return nullptr;
    Progress progress;
    auto result = reader->read(path, ReadOptions {}, progress);
    if (!result) {
        qWarning("%s", qPrintable(result.error().toString()));
        return nullptr;
    }
    return result.value();
}

/// calls, subrs, exclusive, inclusive (metric 0) of an event on a thread; -1s when absent.
std::array<double, 4> timer(const Trial& t, ThreadKey key, const QString& event)
{
    const ThreadIndex ti = t.findThread(key);
    const EventId e = t.findEvent(event);
    if (!ti.isValid() || !e.isValid())
        return { -1, -1, -1, -1 };
    const RowView row = t.row(ti);
    const auto i = row.find(e);
    if (i < 0)
        return { -1, -1, -1, -1 };
    const auto k = static_cast<std::size_t>(i);
    return { row.calls[k], row.subrs[k], row.exclusive(0, k), row.inclusive(0, k) };
}

QString data(const char* relative) { return QStringLiteral(PARALLAX_DATA_DIR "/") + QLatin1String(relative); }

QJsonArray strings(std::initializer_list<const char*> list)
{
    QJsonArray a;
    for (const char* s : list)
        a.append(QLatin1String(s));
    return a;
}

} // namespace

class TestAllSamples : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rules_data();
    void rules();
    void everySampleOpens();
    void drawGraphScalingSeries();
    void matmultHeatmap();
    void wrapParamsBesideItsSources();
    void hatchetTauCpi();
    void mergedXmlAgainstItsCsv();
};

void TestAllSamples::rules_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("profile");
    QTest::newRow("manifest") << QStringLiteral("cube/pycubexr/MANIFEST.md") << false;
    QTest::newRow("licence") << QStringLiteral("cube/scalasca-cube3/LICENSE-cubew-COPYING") << false;
    QTest::newRow("provenance") << QStringLiteral("extrap/PROVENANCE.tsv") << false;
    QTest::newRow("scorep.cfg") << QStringLiteral("cube/pycubexr/kripke.p8.d2.g32.r1/scorep.cfg") << false;
    QTest::newRow("cubegui ini") << QStringLiteral("extrap/cubeset/multi_parameter/mm.x1y1z1.r1/profile.ini") << false;
    QTest::newRow("source") << QStringLiteral("tau2/tau-profiles-wrap-params/dgemm.c") << false;
    QTest::newRow("csv ground truth") << QStringLiteral("cube/pycubexr/time.p4.n2000.x1.r0/excl.csv") << false;
    QTest::newRow("csv ground truth 2") << QStringLiteral("tau2/tauprofile-xml-merged/tauprofile.xml.csv") << false;
    QTest::newRow("expected stdout") << QStringLiteral("cubelib/test/test0.0/template.out") << false;
    QTest::newRow("misc payload") << QStringLiteral("cubelib/test/test2/template.data") << false;
    // A gold CSV a reader takes (Hatchet's dataframe) is read; a gprof ".out" is a profile.
    QTest::newRow("readable gold csv") << QStringLiteral("hatchet/hpctoolkit-cpi-graphframe.csv") << true;
    QTest::newRow("gprof .out") << QStringLiteral("tau2/gprof-wrf/gprof.out") << true;
    QTest::newRow("cubex") << QStringLiteral("cube/pycubexr/call_tree_test/call_tree_test.cubex") << true;
    QTest::newRow("cube3 next to a template.data") << QStringLiteral("cubelib/test/test2/template.cube") << true;
}

void TestAllSamples::rules()
{
    QFETCH(QString, path);
    QFETCH(bool, profile);
    const QString root = QStringLiteral(PARALLAX_DATA_DIR);
    const QFileInfo f(root + QLatin1Char('/') + path);
    QVERIFY2(f.isFile(), qPrintable(f.filePath()));
    const QString why = notAProfile(f, root);
    QVERIFY2(why.isEmpty() == profile, qPrintable(path + QStringLiteral(": ") + why));
}

void TestAllSamples::everySampleOpens()
{
    const QString root = QDir::cleanPath(QStringLiteral(PARALLAX_DATA_DIR));
    QVERIFY2(QFileInfo(root).isDir(), qPrintable(root));

    SampleUnits found = listSampleUnits(root);
    QStringList failures = found.failures;
    const QStringList& units = found.units;
    const QHash<QString, const Pending*>& pendingByPath = found.pending;
    const QMap<QString, int>& skipped = found.skipped;

    QMap<QString, int> byFormat;
    int stillPending = 0;
    for (const QString& unit : units) {
        const auto p = pendingByPath.constFind(unit);
        if (p != pendingByPath.cend()) {
            // Readable when the sample, or (for a directory) any file in it, reads.
            QString readable;
            QString format;
            if (readError(unit, &format).isEmpty())
                readable = unit;
            if (readable.isEmpty() && QFileInfo(unit).isDir()) {
                QDirIterator inner(unit, QDir::Files, QDirIterator::Subdirectories);
                while (readable.isEmpty() && inner.hasNext()) {
                    const QString f = inner.next();
                    if (readError(f, &format).isEmpty())
                        readable = f;
                }
            }
            if (!readable.isEmpty())
                failures << QStringLiteral(
                    "%1: listed as not yet readable (%2), but %3 now reads (%4): take it off the list")
                                .arg(relative(root, unit), QLatin1String((*p)->why), relative(root, readable), format);
            ++stillPending;
            continue;
        }
        QString format;
        const QString error = readError(unit, &format);
        if (!error.isEmpty()) {
            failures << QStringLiteral("%1: %2").arg(relative(root, unit), error);
            continue;
        }
        ++byFormat[format];
    }
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
    QString summary;
    int read = 0;
    for (auto it = byFormat.cbegin(); it != byFormat.cend(); ++it) {
        summary += QStringLiteral("%1: %2  ").arg(it.key()).arg(it.value());
        read += it.value();
    }
    QString skipSummary;
    for (auto it = skipped.cbegin(); it != skipped.cend(); ++it)
        skipSummary += QStringLiteral("%1: %2; ").arg(it.key()).arg(it.value());
    qInfo("%d samples read (%s), %d not yet readable (listed), non-profile files skipped: %s", read,
        qPrintable(summary), stillPending, qPrintable(skipSummary));
    QCOMPARE(stillPending, int(std::size(pending)));
    QVERIFY(read >= 101); // 101 profiles in the data folder on 2026-11-25
}

void TestAllSamples::drawGraphScalingSeries()
{
    // tau2/MANIFEST.md "ppk-drawgraph-scaling": MPI ring on 2/4/6/8 ranks.
    const std::vector<std::vector<double>> mainIncl { { 2150087, 2145468 }, { 2055200, 2054506, 2046988, 2053087 },
        { 2079094, 2080449, 2079497, 2078946, 2071756, 2072123 },
        { 2077489, 2078021, 2075746, 2070450, 2074839, 2073862, 2062578, 2061188 } };
    const double funcExcl0[] = { 1000134, 1000311, 1000381, 1000125 };
    const QString main = QStringLiteral("int main(int, char **) C [{ring.c} {46,1}-{56,1}]");
    const QString func = QStringLiteral("void func(int, int) C [{ring.c} {7,1}-{44,1}]");
    for (int i = 0; i < 4; ++i) {
        const int ranks = 2 * (i + 1);
        const QString path = data("tau2/ppk-drawgraph-scaling/") + QStringLiteral("%1.ppk").arg(ranks);
        const QJsonObject o = cliInfo(path);
        QCOMPARE(o.value(QStringLiteral("format")).toString(), QStringLiteral("ppk"));
        QCOMPARE(o.value(QStringLiteral("threads")).toInt(), ranks);
        QCOMPARE(o.value(QStringLiteral("nodes")).toInt(), ranks);
        QCOMPARE(o.value(QStringLiteral("metrics")).toArray(), strings({ "Time" }));
        QCOMPARE(
            o.value(QStringLiteral("groups")).toArray(), strings({ "COMPUTATIONOMPUTATION", "MPI", "TAU_DEFAULT" }));
        QCOMPARE(o.value(QStringLiteral("events")).toInt(), 10);
        QCOMPARE(o.value(QStringLiteral("callpaths")).toInt(), 0);
        QCOMPARE(o.value(QStringLiteral("user_events")).toInt(), 3);
        const QJsonObject metadata = o.value(QStringLiteral("metadata")).toObject();
        QCOMPARE(metadata.size(), 21);
        QVERIFY(metadata.value(QStringLiteral("TAU Version")).toString().contains(QLatin1String("2.18.1")));
        QVERIFY(o.value(QStringLiteral("warnings")).toArray().isEmpty());

        const auto t = mustRead(path);
        QVERIFY(t);
        for (const char* e : { "MPI_Barrier()", "MPI_Bcast()", "MPI_Comm_rank()", "MPI_Comm_size()", "MPI_Finalize()",
                 "MPI_Init()", "MPI_Recv()", "MPI_Send()" })
            QVERIFY2(t->findEvent(QLatin1String(e)).isValid(), e);
        for (const char* u :
            { "Message size for broadcast", "Message size received from all nodes", "Message size sent to all nodes" })
            QVERIFY2(t->findAtomicEvent(QLatin1String(u)).isValid(), u);
        for (int r = 0; r < ranks; ++r) {
            QCOMPARE(timer(*t, ThreadKey { r, 0, 0 }, main)[3], mainIncl[i][r]);
            QCOMPARE(timer(*t, ThreadKey { r, 0, 0 }, QStringLiteral("MPI_Send()"))[0], r % 2 == 0 ? 6.0 : 3.0);
        }
        QCOMPARE(timer(*t, ThreadKey { 0, 0, 0 }, func)[2], funcExcl0[i]);
        if (ranks == 2) {
            const AtomicRow& row = t->atomicRow(t->findThread(ThreadKey { 0, 0, 0 }));
            const auto k = row.find(t->findAtomicEvent(QStringLiteral("Message size sent to all nodes")));
            QVERIFY(k >= 0);
            const auto j = static_cast<std::size_t>(k);
            QCOMPARE(row.count[j], 6.0);
            QCOMPARE(row.min[j], 40.0);
            QCOMPARE(row.max[j], 80.0);
            QCOMPARE(row.mean[j], 60.0);
            QCOMPARE(row.sumSquares[j], 24000.0);
        }
    }
}

void TestAllSamples::matmultHeatmap()
{
    // tau2/MANIFEST.md "ppk/matmult-heatmap.ppk": OpenMP + EBS sampling, 24 threads of one process.
    const QString path = data("tau2/ppk/matmult-heatmap.ppk");
    const QJsonObject o = cliInfo(path);
    QCOMPARE(o.value(QStringLiteral("threads")).toInt(), 24);
    QCOMPARE(o.value(QStringLiteral("nodes")).toInt(), 1);
    QCOMPARE(o.value(QStringLiteral("metrics")).toArray(), strings({ "TIME" }));
    QCOMPARE(o.value(QStringLiteral("groups")).toArray(),
        strings({ "OpenMP", "TAU_CALLPATH", "TAU_CALLPATH_DERIVED", "TAU_DEFAULT", "TAU_DERIVED", "TAU_SAMPLE",
            "TAU_SAMPLE_CONTEXT", "TAU_USER" }));
    QCOMPARE(o.value(QStringLiteral("events")).toInt() + o.value(QStringLiteral("callpaths")).toInt(), 51);
    QCOMPARE(o.value(QStringLiteral("user_events")).toInt(), 0);
    const QJsonObject metadata = o.value(QStringLiteral("metadata")).toObject();
    QCOMPARE(metadata.size(), 133);
    QVERIFY(metadata.value(QStringLiteral("TAU Version")).toString().contains(QLatin1String("2.22.2")));
    const auto t = mustRead(path);
    QVERIFY(t);
    const auto main
        = timer(*t, ThreadKey { 0, 0, 0 }, QStringLiteral("int main(int, char **) C [{matmult.c} {225,1}-{301,1}]"));
    QCOMPARE(main, (std::array<double, 4> { 1, 1, 107, 2506795 }));
    QVERIFY(
        t->findEvent(
             QStringLiteral(
                 "OpenMP_PARALLEL_REGION: [OPENMP] compute [{/home/users/khuck/src/tau2/examples/mm/matmult.c} {86}]"))
            .isValid());
    QVERIFY(t->findEvent(
                 QStringLiteral("[SAMPLE] compute.omp_fn.2 [{/home/users/khuck/src/tau2/examples/mm/matmult.c} {93}]"))
                .isValid());
}

void TestAllSamples::wrapParamsBesideItsSources()
{
    // tau2/MANIFEST.md "tau-profiles-wrap-params": the sources now sit beside the profiles (and are
    // skipped as such); the 8 timers and their values per rank.
    const QString dir = data("tau2/tau-profiles-wrap-params");
    for (const char* source : { "main.c", "foo.c", "wb.c", "dgemm.c", "README" })
        QVERIFY2(
            !notAProfile(QFileInfo(dir + QLatin1Char('/') + QLatin1String(source)), QStringLiteral(PARALLAX_DATA_DIR))
                 .isEmpty(),
            source);
    const QJsonObject o = cliInfo(dir);
    QCOMPARE(o.value(QStringLiteral("format")).toString(), QStringLiteral("tau"));
    QCOMPARE(o.value(QStringLiteral("threads")).toInt(), 2);
    QCOMPARE(o.value(QStringLiteral("metrics")).toArray(), strings({ "TIME" }));
    QCOMPARE(o.value(QStringLiteral("events")).toInt(), 8);
    QCOMPARE(o.value(QStringLiteral("callpaths")).toInt(), 0);
    QCOMPARE(o.value(QStringLiteral("user_events")).toInt(), 0);
    const QJsonObject top = o.value(QStringLiteral("top_exclusive")).toArray().first().toObject();
    QCOMPARE(top.value(QStringLiteral("name")).toString(), QStringLiteral("MPI_Init()"));
    QCOMPARE(top.value(QStringLiteral("value")).toDouble(), (1047345 + 1046279) / 2.0);
    const auto t = mustRead(dir);
    QVERIFY(t);
    const QString wrap = QStringLiteral("int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]");
    const struct {
        QString name;
        std::array<double, 4> rank0, rank1;
    } timers[] = {
        { QStringLiteral("int main(int, char **) C [{main.c} {5,1}-{17,1}]"), { 1, 6, 51, 1049725 },
            { 1, 6, 81, 1048975 } },
        { QStringLiteral("MPI_Init()"), { 1, 0, 1047345, 1047345 }, { 1, 0, 1046279, 1046279 } },
        { QStringLiteral("int foo(int) C [{foo.c} {3,1}-{7,1}]"), { 1, 0, 15, 15 }, { 1, 0, 21, 21 } },
        { wrap, { 3, 0, 58, 58 }, { 3, 0, 64, 64 } },
        { wrap + QStringLiteral(" [ <size> = <100> ]"), { 1, 0, 28, 28 }, { 1, 0, 40, 40 } },
        { wrap + QStringLiteral(" [ <size> = <10000> ]"), { 1, 0, 18, 18 }, { 1, 0, 12, 12 } },
        { wrap + QStringLiteral(" [ <size> = <100000> ]"), { 1, 0, 12, 12 }, { 1, 0, 12, 12 } },
        { QStringLiteral("MPI_Finalize()"), { 1, 0, 2256, 2256 }, { 1, 0, 2530, 2530 } },
    };
    for (const auto& timerFacts : timers) {
        QCOMPARE(timer(*t, ThreadKey { 0, 0, 0 }, timerFacts.name), timerFacts.rank0);
        QCOMPARE(timer(*t, ThreadKey { 1, 0, 0 }, timerFacts.name), timerFacts.rank1);
    }
    QVERIFY(t->eventInGroup(t->findEvent(wrap + QStringLiteral(" [ <size> = <100> ]")), QStringLiteral("TAU_PARAM")));
}

void TestAllSamples::hatchetTauCpi()
{
    // hatchet/MANIFEST.md "tau-cpi-mpi": one root, 12 tree nodes, MPI_File_open on top everywhere.
    const QString dir = data("hatchet/tau-cpi-mpi");
    const QJsonObject o = cliInfo(dir);
    QCOMPARE(o.value(QStringLiteral("threads")).toInt(), 4);
    QCOMPARE(o.value(QStringLiteral("metrics")).toArray(), strings({ "TIME" }));
    QCOMPARE(o.value(QStringLiteral("events")).toInt(), 12);
    QCOMPARE(o.value(QStringLiteral("callpaths")).toInt(), 11);
    QCOMPARE(o.value(QStringLiteral("user_events")).toInt(), 2);
    const QJsonObject top = o.value(QStringLiteral("top_exclusive")).toArray().first().toObject();
    QCOMPARE(top.value(QStringLiteral("name")).toString(), QStringLiteral("MPI_File_open()"));
    QCOMPARE(top.value(QStringLiteral("value")).toDouble(), (27490 + 26904 + 27029 + 27051) / 4.0);
    const auto t = mustRead(dir);
    QVERIFY(t);
    const double rootIncl[] = { 51781, 55329, 54029, 52908 };
    const double open[] = { 27490, 26904, 27029, 27051 };
    for (int r = 0; r < 4; ++r) {
        QCOMPARE(timer(*t, ThreadKey { r, 0, 0 }, QStringLiteral(".TAU application"))[3], rootIncl[r]);
        QCOMPARE(timer(*t, ThreadKey { r, 0, 0 }, QStringLiteral("MPI_File_open()"))[2], open[r]);
    }
    // Rank 0 and 1 as Hatchet's tests print them (exclusive time).
    QCOMPARE(timer(*t, ThreadKey { 0, 0, 0 }, QStringLiteral(".TAU application"))[2], 449.0);
    QCOMPARE(timer(*t, ThreadKey { 0, 0, 0 }, QStringLiteral("MPI_Finalize()"))[2], 4458.0);
    QCOMPARE(timer(*t, ThreadKey { 1, 0, 0 }, QStringLiteral("MPI_Bcast()"))[2], 333.0);
    for (const char* child : { "MPI_Init()", "MPI_Comm_size()", "MPI_Comm_rank()", "MPI_Get_processor_name()",
             "MPI_Bcast()", "MPI_Reduce()", "MPI_Finalize()" })
        QVERIFY2(t->findEvent(QStringLiteral(".TAU application => ") + QLatin1String(child)).isValid(), child);
    for (const char* child : { "MPI_Info_create()", "MPI_File_open()", "MPI_Info_free()", "MPI_Comm_get_attr()" })
        QVERIFY2(
            t->findEvent(QStringLiteral(".TAU application => MPI_Finalize() => ") + QLatin1String(child)).isValid(),
            child);
}

void TestAllSamples::mergedXmlAgainstItsCsv()
{
    // tau2/MANIFEST.md: tauprofile.xml.csv holds, per rank (pid = node), the exclusive TIME of five
    // events and three metadata values. Every value is compared; event names have '_' for ' '.
    const QString xml = data("tau2/tauprofile-xml-merged/tauprofile.xml");
    const QJsonObject o = cliInfo(xml);
    QCOMPARE(o.value(QStringLiteral("format")).toString(), QStringLiteral("snapshot"));
    QCOMPARE(o.value(QStringLiteral("threads")).toInt(), 8);
    QCOMPARE(o.value(QStringLiteral("events")).toInt(), 79);
    const auto t = mustRead(xml);
    QVERIFY(t);
    QFile csv(xml + QStringLiteral(".csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList header = lines.first().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QCOMPARE(header.first(), QStringLiteral("pid"));
    int compared = 0;
    for (qsizetype l = 1; l < lines.size(); ++l) {
        const QStringList cols = lines[l].split(QLatin1Char(' '), Qt::SkipEmptyParts);
        QCOMPARE(cols.size(), header.size());
        const ThreadKey key { cols[0].toInt(), 0, 0 };
        const ThreadIndex ti = t->findThread(key);
        QVERIFY2(ti.isValid(), qPrintable(key.toString()));
        for (qsizetype c = 1; c < header.size(); ++c) {
            const double expected = cols[c].toDouble();
            QString event = header[c];
            if (!t->findEvent(event).isValid())
                event.replace(QLatin1Char('_'), QLatin1Char(' '));
            if (t->findEvent(event).isValid()) {
                QCOMPARE(timer(*t, key, event)[2], expected);
            } else {
                // A metadata column; the two all-zero ones are not in the profile.
                const QString value = t->metadataValue(header[c], ti);
                if (value.isNull())
                    QCOMPARE(expected, 0.0);
                else
                    QCOMPARE(value.toDouble(), expected);
            }
            ++compared;
        }
    }
    QCOMPARE(compared, 8 * 10);
    const auto timestep = timer(*t, ThreadKey { 0, 0, 0 }, QStringLiteral("se timestep"));
    QCOMPARE(timestep[0], 120.0);
    QCOMPARE(timestep[3], 14733792.0);
    QCOMPARE(timer(*t, ThreadKey { 4, 0, 0 }, QStringLiteral("MPI_Wait()"))[0], 163093.0);
}

QTEST_GUILESS_MAIN(TestAllSamples)
#include "tst_allsamples.moc"
