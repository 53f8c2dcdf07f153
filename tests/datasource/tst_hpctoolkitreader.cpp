// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The HPCToolkit reader against Hatchet's gold dataframe for hatchet/hpctoolkit-cpi-database
// (../shared/data/hatchet/hpctoolkit-cpi-graphframe.csv: every "time" and "time (inc)" value of its
// 136 rows), the MANIFEST facts, a hand-made database with loops, inlined code and a call site
// that carries cost, and broken databases.
#include "datasource/readers/hpctoolkitreader.h"
#include "tests/common/readertest.h"
#include "tests/common/testutil.h"
#include "tests/common/treecheck.h"

#include <QTemporaryDir>
#include <QtEndian>
#include <cstring>
#include <map>

using namespace parallax;
using namespace parallax::test;

namespace {

QString database() { return dataPath(QStringLiteral("hatchet/hpctoolkit-cpi-database")); }

TrialResult readDb(const QString& path) { return readWith(HpcToolkitReader(), path); }

std::shared_ptr<Trial> mustRead(const QString& path) { return mustReadWith(HpcToolkitReader(), path); }

/// The call tree of the sample as Parallax names it: node id -> (parent node id, component).
/// Written by hand from experiment.xml: C call sites are folded, PF frames are named by their
/// procedure, S statements "file:line" with the file of the enclosing frame, and the later of two
/// sibling frames with the same name get "[node <id>]".
struct TreeNode {
    int nid;
    int parent;
    const char* name;
};
const TreeNode SampleTree[] = {
    { 2, 0, "<program root>" }, { 4, 2, "main" }, { 6, 4, "MPI_Init" }, { 8, 6, "PMPI_Init" },
    { 10, 8, "MPIR_Init_thread" }, { 12, 10, "MPID_Init" }, { 14, 12, "MPIDI_CH3_Init" }, { 16, 14, "psm_doinit" },
    { 18, 16, "<unknown procedure>" }, { 20, 18, "<unknown procedure>" }, { 22, 20, "<unknown procedure>" },
    { 24, 22, "pthread_create" }, { 25, 24, "<unknown file>:0" }, { 27, 4, "MPI_Finalize" },
    { 29, 27, "PMPI_Finalize" }, { 31, 29, "MPID_Finalize" }, { 33, 31, "MPIDI_CH3_Finalize" },
    { 35, 33, "psm_dofinalize" }, { 37, 35, "<unknown procedure>" }, { 39, 37, "<unknown procedure>" },
    { 41, 39, "<unknown procedure>" }, { 43, 41, "<unknown procedure>" }, { 44, 43, "<unknown file>:0" },
    { 46, 41, "<unknown procedure> [node 46]" }, { 47, 46, "<unknown file>:0" },
    { 49, 41, "<unknown procedure> [node 49]" }, { 51, 49, "<unknown procedure>" }, { 52, 51, "<unknown file>:0" },
    { 54, 49, "<unknown procedure> [node 54]" }, { 55, 54, "<unknown file>:0" }, { 56, 49, "<unknown file>:0" },
    { 58, 41, "__GI_sched_yield" }, { 59, 58, "interp.c:0" }, // Hatchet: "interp.c:0" (same)
    { 60, 41, "<unknown file>:0" }, // Hatchet: "interp.c:0" (its file is that of the last PF seen)
};

QString pathOf(int nid)
{
    for (const TreeNode& n : SampleTree)
        if (n.nid == nid)
            return n.parent == 0 ? QString::fromUtf8(n.name)
                                 : pathOf(n.parent) + QStringLiteral(" => ") + QString::fromUtf8(n.name);
    return {};
}

QStringList splitCsvLine(const QString& line)
{
    QStringList out;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            out << field;
            field.clear();
        } else {
            field += c;
        }
    }
    out << field;
    return out;
}

struct GoldRow {
    int rank;
    int nid;
    double incl;
    double excl;
    QString name, type, file, module;
};

std::vector<GoldRow> goldRows()
{
    std::vector<GoldRow> rows;
    QFile f(dataPath(QStringLiteral("hatchet/hpctoolkit-cpi-graphframe.csv")));
    if (!f.open(QIODevice::ReadOnly))
        return rows;
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList header = splitCsvLine(lines.value(0));
    if (header
        != QStringList { QStringLiteral("node"), QStringLiteral("rank"), QStringLiteral("time (inc)"),
            QStringLiteral("time"), QStringLiteral("nid"), QStringLiteral("name"), QStringLiteral("type"),
            QStringLiteral("file"), QStringLiteral("line"), QStringLiteral("module") })
        return rows;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList c = splitCsvLine(lines[i]);
        if (c.size() != 10)
            return {};
        rows.push_back({ c[1].toInt(), c[4].toInt(), c[2].toDouble(), c[3].toDouble(), c[5], c[6], c[7], c[9] });
    }
    return rows;
}

double value(const Trial& t, const ThreadKey& key, const QString& event, bool inclusive)
{
    return fieldOf(t, t.findThread(key), event, inclusive ? Field::Incl : Field::Excl);
}

/// A metric-db: magic, u32 nodes, u32 metrics, then rows of big-endian doubles.
QByteArray metricDb(const std::vector<std::vector<double>>& rows, std::size_t metrics)
{
    QByteArray out("HPCPROF-metricdb__00.10b");
    char word[4];
    qToBigEndian<quint32>(static_cast<quint32>(rows.size()), word);
    out.append(word, 4);
    qToBigEndian<quint32>(static_cast<quint32>(metrics), word);
    out.append(word, 4);
    for (const auto& row : rows)
        for (std::size_t m = 0; m < metrics; ++m) {
            const double v = m < row.size() ? row[m] : 0.0;
            quint64 bits;
            std::memcpy(&bits, &v, 8);
            char b[8];
            qToBigEndian<quint64>(bits, b);
            out.append(b, 8);
        }
    return out;
}

/// A small database: main (a/main.c) with a statement, a loop holding a statement and a call site
/// (which carries 3 units of its own) that calls foo (b/foo.c), and inlined code (Pr) of bar.
QByteArray fixtureXml(bool withInclusive = true)
{
    QByteArray xml = R"X(<?xml version="1.0"?>
<HPCToolkitExperiment version="2.0">
<Header n="fix"><Info/></Header>
<SecCallPathProfile i="0" n="fix">
<SecHeader>
  <MetricTable>
    <Metric i="2" n="PAPI_TOT_CYC:Sum (I)" v="derived-incr" t="inclusive" partner="3"/>
    <Metric i="3" n="PAPI_TOT_CYC:Sum (E)" v="derived-incr" t="exclusive" partner="2"/>
  </MetricTable>
  <MetricDBTable>
)X";
    if (withInclusive)
        xml += R"X(    <MetricDB i="0" n="PAPI_TOT_CYC (I)" t="inclusive" partner="1" db-glob="*.metric-db" db-id="0" db-num-metrics="2" db-header-sz="24"/>
)X";
    xml += R"X(    <MetricDB i="1" n="PAPI_TOT_CYC (E)" t="exclusive" partner="0" db-glob="*.metric-db" db-id="1" db-num-metrics="2" db-header-sz="24"/>
  </MetricDBTable>
  <LoadModuleTable><LoadModule i="1" n="/bin/fix"/></LoadModuleTable>
  <FileTable><File i="1" n="a/main.c"/><File i="2" n="b/foo.c"/></FileTable>
  <ProcedureTable><Procedure i="1" n="main"/><Procedure i="2" n="foo"/><Procedure i="3" n="bar"/></ProcedureTable>
</SecHeader>
<SecCallPathProfileData>
<PF i="2" s="1" n="1" f="1" l="5" lm="1">
<S i="3" l="7"/>
<L i="4" l="9-12" f="1">
<S i="5" l="10"/>
<C i="6" l="11">
<PF i="7" n="2" f="2" l="1" lm="1">
<S i="8" l="2"/>
</PF>
</C>
</L>
<Pr i="9" n="3" f="2" l="20" a="1">
<S i="10" l="21"/>
</Pr>
</PF>
</SecCallPathProfileData>
</SecCallPathProfile>
</HPCToolkitExperiment>
)X";
    return xml;
}

/// (incl, excl) per node id 1..10, scaled.
std::vector<std::vector<double>> fixtureRows(double scale)
{
    const std::vector<std::vector<double>> rows = {
        { 78, 0 }, // 1: the implicit root
        { 78, 38 }, // 2: main (its frame: 10 + 20 + 3 + 5)
        { 10, 10 }, // 3: main.c:7
        { 63, 23 }, // 4: loop (20 + 3)
        { 20, 20 }, // 5: main.c:10
        { 43, 3 }, // 6: call site with its own 3
        { 40, 40 }, // 7: foo
        { 40, 40 }, // 8: foo.c:2
        { 5, 5 }, // 9: bar (inlined)
        { 5, 5 }, // 10: foo.c:21
    };
    std::vector<std::vector<double>> out = rows;
    for (auto& r : out)
        for (double& v : r)
            v *= scale;
    return out;
}

void writeFixture(const QString& dir, bool withInclusive = true)
{
    QDir().mkpath(dir);
    writeFile(dir + QStringLiteral("/experiment.xml"), fixtureXml(withInclusive));
    writeFile(dir + QStringLiteral("/1.fix-000000-000-0a0b0c0d-100-0.metric-db"), metricDb(fixtureRows(1), 2));
    writeFile(dir + QStringLiteral("/1.fix-000000-001-0a0b0c0d-100-0.metric-db"), metricDb(fixtureRows(2), 2));
    writeFile(dir + QStringLiteral("/1.fix-000001-000-0a0b0c0e-101-0.metric-db"), metricDb(fixtureRows(3), 2));
}

const QString DbRank0 = QStringLiteral("1.cpi-000000-000-a8c00270-160443-0.metric-db");

} // namespace

class TestHpcToolkitReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sniffAndDetect()
    {
        const HpcToolkitReader reader;
        QCOMPARE(reader.sniff(database()), 100);
        QCOMPARE(reader.sniff(database() + QStringLiteral("/experiment.xml")), 100);
        QCOMPARE(reader.sniff(database() + QLatin1Char('/') + DbRank0), 100);
        QCOMPARE(reader.sniff(dataPath(QStringLiteral("hatchet/tau-cpi-mpi"))), 0);
        QCOMPARE(reader.sniff(dataPath(QStringLiteral("hatchet/timemory/wall.tree.json"))), 0);
        const Reader* detected = ReaderRegistry::instance().detect(database());
        QVERIFY(detected);
        QCOMPARE(detected->name(), QStringLiteral("hpctoolkit"));
        detected = ReaderRegistry::instance().detect(database() + QStringLiteral("/experiment.xml"));
        QVERIFY(detected);
        QCOMPARE(detected->name(), QStringLiteral("hpctoolkit"));
    }

    void goldDataframe()
    {
        const auto trial = mustRead(database());
        QVERIFY(trial);
        const std::vector<GoldRow> gold = goldRows();
        QCOMPARE(gold.size(), std::size_t(136));
        QSet<int> nids;
        int compared = 0;
        double sumExcl = 0;
        for (const GoldRow& row : gold) {
            nids.insert(row.nid);
            const QString path = pathOf(row.nid);
            QVERIFY2(!path.isEmpty(), qPrintable(QStringLiteral("gold node %1 is not in the tree table").arg(row.nid)));
            const ThreadKey key { row.rank, 0, 0 };
            const QString where = QStringLiteral("rank %1 nid %2 (%3)").arg(row.rank).arg(row.nid).arg(path);
            QVERIFY2(value(*trial, key, path, true) == row.incl,
                qPrintable(where
                    + QStringLiteral(": time (inc) %1, read %2").arg(row.incl).arg(value(*trial, key, path, true))));
            QVERIFY2(value(*trial, key, path, false) == row.excl,
                qPrintable(
                    where + QStringLiteral(": time %1, read %2").arg(row.excl).arg(value(*trial, key, path, false))));
            sumExcl += value(*trial, key, path, false);
            ++compared;
        }
        QCOMPARE(compared, 136);
        QCOMPARE(nids.size(), 34);
        QCOMPARE(sumExcl, 3998242.0);
        // Exactly the gold's 34 nodes are the call tree (33 call paths and the root).
        QCOMPARE(countEvents(*trial, true), std::size_t(33));
        for (const TreeNode& n : SampleTree)
            QVERIFY2(trial->findEvent(pathOf(n.nid)).isValid(), qPrintable(pathOf(n.nid)));
        // <program root> inclusive per rank.
        const double rootIncl[] = { 999238, 999390, 1000306, 999308 };
        for (int r = 0; r < 4; ++r)
            QCOMPARE(value(*trial, { r, 0, 0 }, QStringLiteral("<program root>"), true), rootIncl[r]);
        // Hatchet's tree("time (inc)") shows "17989.000 interp.c:0 interp.c" (rank 0: node 59 under
        // __GI_sched_yield) and "999238.000 230:psm_dofinalize".
        QCOMPARE(value(*trial, { 0, 0, 0 }, pathOf(59), true), 17989.0);
        QCOMPARE(value(*trial, { 0, 0, 0 }, pathOf(35), true), 999238.0);
    }

    void sampleFacts()
    {
        const auto trial = mustRead(database());
        QVERIFY(trial);
        QCOMPARE(trial->threadCount(), std::size_t(4));
        for (int r = 0; r < 4; ++r)
            QVERIFY(trial->findThread({ r, 0, 0 }).isValid());
        QCOMPARE(trial->metricCount(), std::size_t(1));
        QCOMPARE(trial->metric(MetricId(0u)).name, QStringLiteral("CPUTIME (usec)"));
        QCOMPARE(trial->metric(MetricId(0u)).unit, QStringLiteral("us"));
        QCOMPARE(trial->provenance().reader, QStringLiteral("hpctoolkit"));
        // Reader tables: 5 load modules, 12 files, 16 procedures; 59 CCT nodes (ids 2..60).
        QCOMPARE(trial->metadataValue(QStringLiteral("HPCToolkit load modules")), QStringLiteral("5"));
        QCOMPARE(trial->metadataValue(QStringLiteral("HPCToolkit files")), QStringLiteral("12"));
        QCOMPARE(trial->metadataValue(QStringLiteral("HPCToolkit procedures")), QStringLiteral("16"));
        QCOMPARE(trial->metadataValue(QStringLiteral("HPCToolkit CCT nodes")), QStringLiteral("59"));
        QCOMPARE(trial->metadataValue(QStringLiteral("HPCToolkit version")), QStringLiteral("2.0"));
        QCOMPARE(trial->metadataValue(QStringLiteral("HPCToolkit program")), QStringLiteral("cpi"));
        // The dataframe's 5 modules and 11 distinct files are those of the 16 procedures' frames.
        QSet<QString> files, modules;
        int locations = 0;
        const QString prefix = QStringLiteral("HPCToolkit location ");
        for (const MetadataEntry& m : trial->metadata()) {
            const QString key = trial->strings().get(m.key);
            if (!key.startsWith(prefix))
                continue;
            ++locations;
            const QString v = trial->strings().get(m.value);
            const qsizetype in = v.lastIndexOf(QLatin1String(" in "));
            modules.insert(v.mid(in + 4));
            files.insert(v.left(v.lastIndexOf(QLatin1Char(':'), in)));
        }
        QCOMPARE(locations, 16);
        QCOMPARE(modules.size(), 5);
        QCOMPARE(files.size(), 11);
        QCOMPARE(
            trial->metadataValue(QStringLiteral("HPCToolkit location main")), QStringLiteral("./src/cpi.c:19 in cpi"));
        QCOMPARE(trial->metadataValue(QStringLiteral("HPCToolkit location PMPI_Init")),
            QStringLiteral("/tmp/dpkg-mkdeb.gouoc49UG7/src/mvapich/src/build/../src/mpi/init/init.c:198 in "
                           "/usr/local/tools/mvapich2-intel-debug-2.2/lib/libmpi.so.12.0.5"));
        // 21 flat events: 16 procedures... minus none, plus statements and renamed siblings.
        QCOMPARE(countEvents(*trial, false), std::size_t(21));
        QCOMPARE(trial->eventCount(), std::size_t(54));
        QCOMPARE(trial->atomicEventCount(), std::size_t(0));
        QVERIFY(trial->eventInGroup(trial->findEvent(QStringLiteral("main")), QStringLiteral("HPCTOOLKIT_PROCEDURE")));
        QVERIFY(trial->eventInGroup(
            trial->findEvent(QStringLiteral("interp.c:0")), QStringLiteral("HPCTOOLKIT_STATEMENT")));
        QVERIFY(trial->eventInGroup(trial->findEvent(pathOf(59)), QStringLiteral("TAU_CALLPATH")));
        // One warning: the renamed siblings.
        QCOMPARE(trial->warnings().size(), 1);
        QVERIFY(trial->warnings().first().startsWith(QStringLiteral("3 call-tree node(s)")));
        // Flat events follow the flat rule (outermost inclusive) and the tree is consistent.
        checkTreeConsistency(*trial);
        // Flat <unknown procedure> on rank 0: exclusive 0 (statements hold the samples); inclusive
        // = its outermost frames 18 (0) and 37 (999238).
        QCOMPARE(value(*trial, { 0, 0, 0 }, QStringLiteral("<unknown procedure>"), true), 999238.0);
        // Flat <unknown file>:0 = its seven statement nodes.
        double expected = 0;
        for (const GoldRow& g : goldRows())
            if (g.rank == 0 && g.type == QLatin1String("S")
                && pathOf(g.nid).endsWith(QLatin1String("<unknown file>:0")))
                expected += g.excl;
        QCOMPARE(value(*trial, { 0, 0, 0 }, QStringLiteral("<unknown file>:0"), false), expected);
        // Per-thread metadata from the file names.
        QCOMPARE(trial->metadataValue(QStringLiteral("HPCToolkit metric-db"), trial->findThread({ 0, 0, 0 })), DbRank0);
        QCOMPARE(trial->metadataValue(QStringLiteral("HPCToolkit pid"), trial->findThread({ 3, 0, 0 })),
            QStringLiteral("160446"));
    }

    void viaRegistryAndFile()
    {
        // experiment.xml and a metric-db name the whole database.
        for (const QString& p :
            QStringList { database() + QStringLiteral("/experiment.xml"), database() + QLatin1Char('/') + DbRank0 }) {
            const auto trial = mustLoad(p);
            QVERIFY(trial);
            QCOMPARE(trial->threadCount(), std::size_t(4));
            QCOMPARE(value(*trial, { 2, 0, 0 }, QStringLiteral("<program root>"), true), 1000306.0);
        }
    }

    void fixtureLoopsInlinedCallSite()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("db"));
        writeFixture(dir);
        const auto trial = mustRead(dir);
        QVERIFY(trial);
        QCOMPARE(trial->threadCount(), std::size_t(3));
        QVERIFY(trial->findThread({ 0, 0, 1 }).isValid());
        QVERIFY(trial->findThread({ 1, 0, 0 }).isValid());
        QCOMPARE(trial->metric(MetricId(0u)).name, QStringLiteral("PAPI_TOT_CYC"));
        QCOMPARE(trial->metric(MetricId(0u)).unit, QStringLiteral("count"));
        QVERIFY2(trial->warnings().isEmpty(), qPrintable(trial->warnings().join(QLatin1Char('\n'))));
        const QString loop = QStringLiteral("main => Loop@main.c:9");
        struct Expect {
            QString name;
            double excl, incl;
        };
        const Expect expect[] = {
            { QStringLiteral("main"), 0, 78 },
            { QStringLiteral("main => main.c:7"), 10, 10 },
            { loop, 3, 63 }, // the call site's own 3 stay on the enclosing loop
            { loop + QStringLiteral(" => main.c:10"), 20, 20 },
            { loop + QStringLiteral(" => foo"), 0, 40 },
            { loop + QStringLiteral(" => foo => foo.c:2"), 40, 40 },
            { QStringLiteral("main => bar"), 0, 5 },
            { QStringLiteral("main => bar => foo.c:21"), 5, 5 },
            { QStringLiteral("foo.c:2"), 40, 40 },
        };
        for (int thread = 0; thread < 3; ++thread) {
            const ThreadKey key = thread == 0 ? ThreadKey { 0, 0, 0 }
                : thread == 1                 ? ThreadKey { 0, 0, 1 }
                                              : ThreadKey { 1, 0, 0 };
            const double scale = thread + 1;
            for (const Expect& e : expect) {
                QCOMPARE(value(*trial, key, e.name, false), e.excl * scale);
                QCOMPARE(value(*trial, key, e.name, true), e.incl * scale);
            }
        }
        QCOMPARE(trial->eventCount(), std::size_t(8 + 7));
        QVERIFY(trial->eventInGroup(trial->findEvent(loop), QStringLiteral("HPCTOOLKIT_LOOP")));
        checkTreeConsistency(*trial);

        // The same database with the exclusive column only: the inclusive values follow from it.
        const QString dir2 = tmp.filePath(QStringLiteral("db2"));
        writeFixture(dir2, false);
        const auto excl = mustRead(dir2);
        QVERIFY(excl);
        QVERIFY2(excl->warnings().isEmpty(), qPrintable(excl->warnings().join(QLatin1Char('\n'))));
        for (const Expect& e : expect) {
            QCOMPARE(value(*excl, { 1, 0, 0 }, e.name, false), e.excl * 3);
            QCOMPARE(value(*excl, { 1, 0, 0 }, e.name, true), e.incl * 3);
        }

        // A metric-db whose values do not add up is read, with a warning.
        const QString dir3 = tmp.filePath(QStringLiteral("db3"));
        writeFixture(dir3);
        auto rows = fixtureRows(1);
        rows[6][1] = 41; // foo exclusive 41, but its statement holds 40 and foo has no other scope
        writeFile(dir3 + QStringLiteral("/1.fix-000000-000-0a0b0c0d-100-0.metric-db"), metricDb(rows, 2));
        const auto odd = mustRead(dir3);
        QVERIFY(odd);
        QCOMPARE(odd->warnings().size(), 1);
        QVERIFY(odd->warnings().first().contains(QLatin1String("do not add up")));
    }

    void badInput_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("file"); // the file the error must name (relative to the db)
        QTest::addColumn<bool>("hasLine");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<QString>("message");
        QTest::newRow("no experiment.xml") << "noxml"
                                           << "" << false << qint64(-1) << "no experiment.xml";
        QTest::newRow("truncated xml") << "truncxml"
                                       << "experiment.xml" << true << qint64(-1) << "malformed XML";
        QTest::newRow("wrong root") << "wrongroot"
                                    << "experiment.xml" << true << qint64(-1) << "HPCToolkitExperiment";
        QTest::newRow("node without id") << "noid"
                                         << "experiment.xml" << true << qint64(-1) << "node id attribute i";
        QTest::newRow("duplicate id") << "dupid"
                                      << "experiment.xml" << true << qint64(-1) << "occurs twice";
        QTest::newRow("no metric table") << "nometricdb"
                                         << "experiment.xml" << false << qint64(-1) << "MetricDBTable";
        QTest::newRow("no metric-db files") << "nodb"
                                            << "" << false << qint64(-1) << "no metric-db files";
        QTest::newRow("bad magic") << "magic"
                                   << "1.fix-000000-000-0a0b0c0d-100-0.metric-db" << false << qint64(0)
                                   << "HPCPROF-metricdb__";
        QTest::newRow("truncated db") << "truncdb"
                                      << "1.fix-000000-000-0a0b0c0d-100-0.metric-db" << false << qint64(100)
                                      << "need exactly 192";
        QTest::newRow("short header") << "header"
                                      << "1.fix-000000-000-0a0b0c0d-100-0.metric-db" << false << qint64(20)
                                      << "truncated header";
        QTest::newRow("too few nodes") << "fewnodes"
                                       << "1.fix-000000-000-0a0b0c0d-100-0.metric-db" << false << qint64(24)
                                       << "node id 10";
        QTest::newRow("wrong columns") << "columns"
                                       << "1.fix-000000-000-0a0b0c0d-100-0.metric-db" << false << qint64(28)
                                       << "3 metric column(s)";
        QTest::newRow("byte order") << "endian"
                                    << "1.fix-000000-000-0a0b0c0d-100-0.metric-db" << false << qint64(23)
                                    << "byte order";
    }

    void badInput()
    {
        QFETCH(QString, what);
        QFETCH(QString, file);
        QFETCH(bool, hasLine);
        QFETCH(qint64, offset);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("db"));
        writeFixture(dir);
        const QString xml = dir + QStringLiteral("/experiment.xml");
        const QString db0 = dir + QStringLiteral("/1.fix-000000-000-0a0b0c0d-100-0.metric-db");
        const QByteArray text = fixtureXml();
        if (what == QLatin1String("noxml"))
            QVERIFY(QFile::remove(xml));
        else if (what == QLatin1String("truncxml"))
            writeFile(xml, text.left(text.indexOf("<S i=\"5\"") + 3));
        else if (what == QLatin1String("wrongroot"))
            writeFile(xml,
                QByteArray(text)
                    .replace("<HPCToolkitExperiment version", "<Experiment version")
                    .replace("</HPCToolkitExperiment>", "</Experiment>"));
        else if (what == QLatin1String("noid"))
            writeFile(xml, QByteArray(text).replace("<S i=\"5\" l=\"10\"/>", "<S l=\"10\"/>"));
        else if (what == QLatin1String("dupid"))
            writeFile(xml, QByteArray(text).replace("<S i=\"5\" l=\"10\"/>", "<S i=\"3\" l=\"10\"/>"));
        else if (what == QLatin1String("nometricdb"))
            writeFile(
                xml, text.left(text.indexOf("  <MetricDBTable>")) + text.mid(text.indexOf("  <LoadModuleTable>")));
        else if (what == QLatin1String("nodb"))
            for (const QString& f : QDir(dir).entryList({ QStringLiteral("*.metric-db") }))
                QVERIFY(QFile::remove(dir + QLatin1Char('/') + f));
        else if (what == QLatin1String("magic")) {
            QByteArray b = fileBytes(db0);
            b[3] = 'X';
            writeFile(db0, b);
        } else if (what == QLatin1String("truncdb"))
            writeFile(db0, fileBytes(db0).left(100));
        else if (what == QLatin1String("header"))
            writeFile(db0, fileBytes(db0).left(20));
        else if (what == QLatin1String("fewnodes"))
            writeFile(db0, metricDb(std::vector<std::vector<double>>(9, { 1.0, 1.0 }), 2));
        else if (what == QLatin1String("columns"))
            writeFile(db0, metricDb(fixtureRows(1), 3));
        else if (what == QLatin1String("endian")) {
            QByteArray b = fileBytes(db0);
            b[23] = 'x';
            writeFile(db0, b);
        }
        const TrialResult result = readDb(dir);
        QVERIFY2(!result.ok(), "a broken database must not read");
        const ReadError& e = result.error();
        QVERIFY2(e.message.contains(message), qPrintable(e.toString()));
        QCOMPARE(e.file, file.isEmpty() ? dir : dir + QLatin1Char('/') + file);
        if (hasLine)
            QVERIFY2(e.line > 0, qPrintable(e.toString()));
        QCOMPARE(e.byteOffset, offset);
        QVERIFY(!e.toString().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestHpcToolkitReader)
#include "tst_hpctoolkitreader.moc"
