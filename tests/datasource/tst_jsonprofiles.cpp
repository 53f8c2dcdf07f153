// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The JSON profile readers (timemory, Hatchet GraphFrame JSON and literal, pyinstrument) against
// the facts of ../shared/data/hatchet/MANIFEST.md, values read by hand from the samples, format
// detection among all JSON readers, and broken files.
#include "datasource/readers/hatchetjsonreader.h"
#include "datasource/readers/jsoninput.h"
#include "datasource/readers/pyinstrumentreader.h"
#include "datasource/readers/timemoryreader.h"
#include "tests/common/readertest.h"
#include "tests/common/testutil.h"
#include "tests/common/treecheck.h"

#include <QTemporaryDir>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

QString timemorySample() { return dataPath(QStringLiteral("hatchet/timemory/wall.tree.json")); }
QString hatchetSample() { return dataPath(QStringLiteral("hatchet/json/hatchet-graph-literal.json")); }
QString pyinstrumentSample()
{
    return dataPath(QStringLiteral("hatchet/pyinstrument-hatchet-json/pyinstrument-hatchet-profile.json"));
}

std::shared_ptr<Trial> mustRead(const Reader& reader, const QString& path) { return mustReadWith(reader, path); }

/// Exclusive / inclusive / calls of an event on a thread; -1e300 when absent.
double cell(const Trial& t, const ThreadKey& key, const QString& event, int what, std::size_t metric = 0)
{
    const Field field = what == 0 ? Field::Excl : what == 1 ? Field::Incl : Field::Calls;
    return fieldOf(t, t.findThread(key), event, field, metric);
}
double excl(const Trial& t, const ThreadKey& key, const QString& e) { return cell(t, key, e, 0); }
double incl(const Trial& t, const ThreadKey& key, const QString& e) { return cell(t, key, e, 1); }
double calls(const Trial& t, const ThreadKey& key, const QString& e) { return cell(t, key, e, 2); }

const QString Outer0 = QStringLiteral("unknown-hash=0 => generate_history@hatchet_tests.cpp:114/outer-loop-0");
const QString Outer1 = QStringLiteral("unknown-hash=0 => generate_history@hatchet_tests.cpp:114/outer-loop-1");
const QString Inner0 = QStringLiteral(" => generate_history@hatchet_tests.cpp:118/inner-loop-0");
const QString Inner1 = QStringLiteral(" => generate_history@hatchet_tests.cpp:118/inner-loop-1");

} // namespace

class TestJsonProfiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void detection_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("format");
        QTest::newRow("timemory") << timemorySample() << "timemory";
        QTest::newRow("hatchet") << hatchetSample() << "hatchet-json";
        QTest::newRow("pyinstrument") << pyinstrumentSample() << "pyinstrument";
    }

    void detection()
    {
        QFETCH(QString, path);
        QFETCH(QString, format);
        const Reader* detected = ReaderRegistry::instance().detect(path);
        QVERIFY(detected);
        QCOMPARE(detected->name(), format);
        // The other two JSON readers of this family say "not mine".
        const TimemoryReader timemory;
        const HatchetJsonReader hatchet;
        const PyinstrumentReader pyinstrument;
        QCOMPARE(timemory.sniff(path) > 0, format == QLatin1String("timemory"));
        QCOMPARE(hatchet.sniff(path) > 0, format == QLatin1String("hatchet-json"));
        QCOMPARE(pyinstrument.sniff(path) > 0, format == QLatin1String("pyinstrument"));
    }

    void noStealing()
    {
        // Caliper json-split, other formats' files and directories are not claimed by these readers.
        const TimemoryReader timemory;
        const HatchetJsonReader hatchet;
        const PyinstrumentReader pyinstrument;
        const QStringList others = {
            dataPath(QStringLiteral("hatchet/caliper-lulesh-json/lulesh-annotation-profile.json")),
            dataPath(QStringLiteral("hatchet/caliper-cpi-json/cpi-callpath-profile.json")),
            dataPath(QStringLiteral("hatchet/caliper-ordered-json/caliper-region-node-order.json")),
            dataPath(QStringLiteral("hatchet/tau-cpi-mpi")),
            dataPath(QStringLiteral("hatchet/tau-cpi-mpi/profile.0.0.0")),
            dataPath(QStringLiteral("hatchet/hpctoolkit-cpi-database")),
            dataPath(QStringLiteral("hatchet/hpctoolkit-cpi-database/experiment.xml")),
            dataPath(QStringLiteral("tau2/cube-scorep-cpi/profile.cubex")),
            dataPath(QStringLiteral("no-such-file.json")),
        };
        for (const QString& p : others) {
            QCOMPARE(timemory.sniff(p), 0);
            QCOMPARE(hatchet.sniff(p), 0);
            QCOMPARE(pyinstrument.sniff(p), 0);
        }
        // A generic JSON object is not claimed either.
        QTemporaryDir tmp;
        const QString generic = tmp.filePath(QStringLiteral("x.json"));
        writeFile(generic, R"J({"name": "x", "children": [], "time": 1, "graph": 2})J");
        QCOMPARE(timemory.sniff(generic), 0);
        QCOMPARE(pyinstrument.sniff(generic), 0);
        QCOMPARE(hatchet.sniff(generic), 0);
    }

    void timemoryFacts()
    {
        const auto trial = mustRead(TimemoryReader(), timemorySample());
        QVERIFY(trial);
        QCOMPARE(trial->provenance().reader, QStringLiteral("timemory"));
        // mpi_size 2: ranks 0 and 1, one tree each (threads combined by timemory, tids 0,1,2).
        QCOMPARE(trial->threadCount(), std::size_t(2));
        QVERIFY(trial->findThread({ 0, 0, 0 }).isValid());
        QVERIFY(trial->findThread({ 1, 0, 0 }).isValid());
        QCOMPARE(trial->metricCount(), std::size_t(1));
        QCOMPARE(trial->metric(MetricId(0u)).name, QStringLiteral("WALL_CLOCK"));
        QCOMPARE(trial->metric(MetricId(0u)).unit, QStringLiteral("sec"));
        QCOMPARE(trial->metadataValue(QStringLiteral("timemory WALL_CLOCK mpi_size")), QStringLiteral("2"));
        QCOMPARE(trial->metadataValue(QStringLiteral("timemory WALL_CLOCK process_count")), QStringLiteral("2"));
        QCOMPARE(trial->metadataValue(QStringLiteral("timemory WALL_CLOCK thread_count")), QStringLiteral("3"));
        QCOMPARE(trial->metadataValue(QStringLiteral("timemory WALL_CLOCK unit_repr")), QStringLiteral("sec"));
        QCOMPARE(trial->metadataValue(QStringLiteral("timemory tid"), trial->findThread({ 0, 0, 0 })),
            QStringLiteral("0,1,2"));
        QCOMPARE(trial->metadataValue(QStringLiteral("timemory pid"), trial->findThread({ 0, 0, 0 })),
            QStringLiteral("41379"));
        QCOMPARE(trial->metadataValue(QStringLiteral("timemory pid"), trial->findThread({ 1, 0, 0 })),
            QStringLiteral("41380"));
        // 15 tree nodes per rank (root, 2 outer loops x (1 + 2 inner loops x (1 + 2 leaves))):
        // 14 call paths and 7 distinct names.
        QCOMPARE(countEvents(*trial, true), std::size_t(14));
        QCOMPARE(trial->eventCount(), std::size_t(21));
        const ThreadKey r0 { 0, 0, 0 }, r1 { 1, 0, 0 };
        QCOMPARE(incl(*trial, r0, Outer0), 35.638487534999996);
        QCOMPARE(excl(*trial, r0, Outer0), 1.5015853749999977);
        QCOMPARE(calls(*trial, r0, Outer0), 6.0);
        QCOMPARE(incl(*trial, r1, Outer0), 33.403509927);
        QCOMPARE(incl(*trial, r0, Outer1 + Inner1), 13.489726017999999);
        QCOMPARE(excl(*trial, r0, Outer1 + Inner1), 12.688600136999998);
        QCOMPARE(calls(*trial, r0, Outer1 + Inner1), 4.0);
        QCOMPARE(incl(*trial, r1, Outer1 + Inner0 + QStringLiteral(" => generate_history/consume")), 0.200047171);
        QCOMPARE(incl(*trial, r0, QStringLiteral("unknown-hash=0")), 0.0);
        QCOMPARE(calls(*trial, r0, QStringLiteral("unknown-hash=0")), 0.0);
        // subrs = children's calls: outer-loop-0 has two inner loops of 6 calls each.
        const auto k = trial->row(trial->findThread(r0)).find(trial->findEvent(Outer0));
        QVERIFY(k >= 0);
        QCOMPARE(trial->row(trial->findThread(r0)).subrs[static_cast<std::size_t>(k)], 12.0);
        // Flat do-sleep on rank 0 = its four nodes.
        QVERIFY(closeTo(excl(*trial, r0, QStringLiteral("generate_history/do-sleep")),
            0.301238992 + 0.6013128050000001 + 0.200882199 + 0.401052995));
        // The nodes below the root are consistent: incl = excl + children's incl.
        QVERIFY(closeTo(incl(*trial, r0, Outer0),
            excl(*trial, r0, Outer0) + incl(*trial, r0, Outer0 + Inner0) + incl(*trial, r0, Outer0 + Inner1)));
        // The per-lap statistics as context events (14 nodes with laps; the root has none).
        QCOMPARE(trial->atomicEventCount(), std::size_t(14));
        const AtomicEventId a = trial->findAtomicEvent(QStringLiteral("WALL_CLOCK per call : ") + Outer0);
        QVERIFY(a.isValid());
        QCOMPARE(trial->atomicEvent(a).context, Outer0);
        const AtomicRow& ar = trial->atomicRow(trial->findThread(r0));
        const auto ai = ar.find(a);
        QVERIFY(ai >= 0);
        QCOMPARE(ar.count[static_cast<std::size_t>(ai)], 6.0);
        QCOMPARE(ar.min[static_cast<std::size_t>(ai)], 5.803666744);
        QCOMPARE(ar.max[static_cast<std::size_t>(ai)], 6.057226581);
        QCOMPARE(ar.mean[static_cast<std::size_t>(ai)], 5.9397479225);
        // sumsqr = stats.sqr as written; the model's sd is the population one, timemory's stddev
        // (0.1100115506011299) the sample one: sd * sqrt(n / (n - 1)).
        QCOMPARE(ar.sumSquares[static_cast<std::size_t>(ai)], 211.74414500338668);
        QVERIFY(closeTo(ar.stddev(static_cast<std::size_t>(ai)) * std::sqrt(6.0 / 5.0), 0.1100115506011299, 1e-6));
        // The root's 0 below its children's 58.6 s is reported, not altered.
        QCOMPARE(trial->warnings().size(), 1);
        QVERIFY2(trial->warnings().first().contains(QLatin1String("below the sum of their children")),
            qPrintable(trial->warnings().first()));
    }

    void hatchetGraphFrameFacts()
    {
        const auto trial = mustRead(HatchetJsonReader(), hatchetSample());
        QVERIFY(trial);
        QCOMPARE(trial->provenance().reader, QStringLiteral("hatchet-json"));
        QCOMPARE(trial->threadCount(), std::size_t(1));
        QCOMPARE(trial->metricCount(), std::size_t(1));
        QCOMPARE(trial->metric(MetricId(0u)).name, QStringLiteral("time"));
        // 24 dataframe rows, 24 graph nodes: 2 roots (foo, waldo) and 22 call paths; 13 names.
        QCOMPARE(trial->metadataValue(QStringLiteral("Hatchet graph nodes")), QStringLiteral("24"));
        QCOMPARE(trial->metadataValue(QStringLiteral("Hatchet dataframe rows")), QStringLiteral("24"));
        QCOMPARE(trial->metadataValue(QStringLiteral("Hatchet dataframe_indices")), QStringLiteral("node"));
        QCOMPARE(countEvents(*trial, true), std::size_t(22));
        QCOMPARE(trial->eventCount(), std::size_t(35));
        QCOMPARE(trial->cellCount(), std::size_t(35));
        const ThreadKey t0 {};
        QCOMPARE(incl(*trial, t0, QStringLiteral("foo")), 135.0);
        QCOMPARE(excl(*trial, t0, QStringLiteral("foo")), 0.0);
        QCOMPARE(incl(*trial, t0, QStringLiteral("foo => qux => quux => corge")), 55.0);
        QCOMPARE(excl(*trial, t0, QStringLiteral("foo => qux => quux => corge")), 10.0);
        QCOMPARE(incl(*trial, t0, QStringLiteral("foo => qux => quux => corge => bar => grault")), 10.0);
        QCOMPARE(incl(*trial, t0, QStringLiteral("foo => waldo => fred => xyzzy => thud => garply")), 15.0);
        QCOMPARE(incl(*trial, t0, QStringLiteral("waldo => bar => baz")), 5.0);
        // waldo is a root (node 20: 30/10) and foo's child (node 12: 55/0): its event holds the flat
        // totals, with a warning.
        QCOMPARE(incl(*trial, t0, QStringLiteral("waldo")), 85.0);
        QCOMPARE(excl(*trial, t0, QStringLiteral("waldo")), 10.0);
        QCOMPARE(trial->warnings().size(), 1);
        QVERIFY(trial->warnings().first().contains(QLatin1String("also occur deeper")));
        // Flat garply: three nodes of 15.
        QCOMPARE(excl(*trial, t0, QStringLiteral("garply")), 45.0);
        // No time lost: the call-tree nodes' exclusive values sum to the dataframe's 165.
        double sum = 0;
        const RowView row = trial->row(ThreadIndex(0u));
        for (std::size_t i = 0; i < row.size(); ++i)
            if (trial->event(row.events[i]).isCallPath())
                sum += row.exclusive(0, i);
        QCOMPARE(sum + excl(*trial, t0, QStringLiteral("foo")) + 10.0, 165.0); // + root waldo's own 10
    }

    void hatchetVariants()
    {
        QTemporaryDir tmp;
        // The literal form (GraphFrame.from_literal), with a sibling name clash.
        const QString literal = tmp.filePath(QStringLiteral("literal.json"));
        writeFile(
            literal, R"J([{"frame": {"name": "foo", "type": "function"}, "metrics": {"time (inc)": 130.0, "time": 0.0},
  "children": [
    {"frame": {"name": "bar"}, "metrics": {"time (inc)": 20.0, "time": 5.0},
     "children": [{"frame": {"name": "baz", "type": "function"}, "metrics": {"time (inc)": 5.0, "time": 5.0}},
                  {"frame": {"name": "grault"}, "metrics": {"time (inc)": 10.0, "time": 10.0}}]},
    {"frame": {"name": "bar"}, "metrics": {"time (inc)": 110.0, "time": 110.0}}
  ]}])J");
        QCOMPARE(HatchetJsonReader().sniff(literal), 90);
        QCOMPARE(ReaderRegistry::instance().detect(literal)->name(), QStringLiteral("hatchet-json"));
        auto trial = mustRead(HatchetJsonReader(), literal);
        QVERIFY(trial);
        QCOMPARE(trial->metadataValue(QStringLiteral("Hatchet form")), QStringLiteral("literal"));
        QCOMPARE(trial->metric(MetricId(0u)).name, QStringLiteral("time"));
        QCOMPARE(incl(*trial, {}, QStringLiteral("foo")), 130.0);
        QCOMPARE(incl(*trial, {}, QStringLiteral("foo => bar => grault")), 10.0);
        QCOMPARE(excl(*trial, {}, QStringLiteral("foo => bar [frame 4]")), 110.0);
        QCOMPARE(excl(*trial, {}, QStringLiteral("bar")), 5.0);
        checkTreeConsistency(*trial);

        // GraphFrame with ranks, an exclusive metric only, a DAG edge and a row of an unknown node.
        const QString ranks = tmp.filePath(QStringLiteral("ranks.json"));
        writeFile(ranks, R"J({"graph": [{"0": {"data": {"name": "main"}, "children": [1, 2]},
  "1": {"data": {"name": "solve"}, "children": [2]}, "2": {"data": {"name": "mpi"}, "children": []}}],
 "dataframe_indices": ["node", "rank"],
 "dataframe": [{"node": 0, "rank": 0, "time": 1}, {"node": 1, "rank": 0, "time": 2}, {"node": 2, "rank": 0, "time": 4},
               {"node": 0, "rank": 1, "time": 10}, {"node": 2, "rank": 1, "time": 40}, {"node": 7, "rank": 1, "time": 3}],
 "exclusive_metrics": ["time"], "inclusive_metrics": []})J");
        trial = mustRead(HatchetJsonReader(), ranks);
        QVERIFY(trial);
        QCOMPARE(trial->threadCount(), std::size_t(2));
        QCOMPARE(incl(*trial, { 0, 0, 0 }, QStringLiteral("main")), 7.0);
        QCOMPARE(incl(*trial, { 1, 0, 0 }, QStringLiteral("main")), 50.0);
        // Node 2 stays under the parent the depth-first walk reaches it from first (solve).
        QCOMPARE(incl(*trial, { 0, 0, 0 }, QStringLiteral("main => solve => mpi")), 4.0);
        QVERIFY(!trial->findEvent(QStringLiteral("main => mpi")).isValid());
        // solve has no row on rank 1, but its child has: present with nothing of its own.
        QCOMPARE(excl(*trial, { 1, 0, 0 }, QStringLiteral("main => solve")), 0.0);
        QCOMPARE(incl(*trial, { 1, 0, 0 }, QStringLiteral("main => solve")), 40.0);
        QCOMPARE(trial->warnings().size(), 2);
        checkTreeConsistency(*trial);

        // Without the metric lists the numeric columns are the metrics (the fuzzer's first find: the
        // column scan iterated two temporaries).
        const QString noLists = tmp.filePath(QStringLiteral("nolists.json"));
        writeFile(noLists,
            R"J({"graph": [{"0": {"data": {"name": "a"}, "children": [1]}, "1": {"data": {"name": "b"}, "children": []}}],
 "dataframe": [{"node": 0, "name": "a", "time (inc)": 3, "time": 1}, {"node": 1, "name": "b", "time (inc)": 2, "time": 2}]})J");
        trial = mustRead(HatchetJsonReader(), noLists);
        QVERIFY(trial);
        QCOMPARE(trial->metricCount(), std::size_t(1));
        QCOMPARE(trial->metric(MetricId(0u)).name, QStringLiteral("time"));
        QCOMPARE(incl(*trial, {}, QStringLiteral("a")), 3.0);
        QCOMPARE(excl(*trial, {}, QStringLiteral("a => b")), 2.0);
    }

    void pyinstrumentFacts()
    {
        const auto trial = mustRead(PyinstrumentReader(), pyinstrumentSample());
        QVERIFY(trial);
        QCOMPARE(trial->provenance().reader, QStringLiteral("pyinstrument"));
        QCOMPARE(trial->threadCount(), std::size_t(1));
        QCOMPARE(trial->metric(MetricId(0u)).name, QStringLiteral("time"));
        QCOMPARE(trial->metric(MetricId(0u)).unit, QStringLiteral("sec"));
        QCOMPARE(trial->metadataValue(QStringLiteral("pyinstrument frames")), QStringLiteral("111"));
        QCOMPARE(trial->metadataValue(QStringLiteral("pyinstrument duration")), QStringLiteral("0.478172"));
        QCOMPARE(trial->metadataValue(QStringLiteral("pyinstrument sample_count")), QStringLiteral("432"));
        QCOMPARE(trial->metadataValue(QStringLiteral("pyinstrument program")), QStringLiteral("examples.py"));
        // 111 frames: 110 call paths below the root; 105 (function, file) names plus one renamed.
        QCOMPARE(countEvents(*trial, true), std::size_t(110));
        QCOMPARE(trial->eventCount() - countEvents(*trial, true), std::size_t(106));
        QVERIFY(trial->findEvent(QStringLiteral("_format_strings pandas/io/formats/format.py [line 1435]")).isValid());
        // 44 distinct function names (Hatchet's "name" column).
        QSet<QString> functions;
        for (const auto& e : trial->events())
            if (!e.isCallPath())
                functions.insert(e.name.section(QLatin1Char(' '), 0, 0));
        QCOMPARE(functions.size(), 44);
        const ThreadKey t0 {};
        const QString root = QStringLiteral("<module> examples.py");
        QCOMPARE(incl(*trial, t0, root), 0.47815);
        QCOMPARE(QString::number(incl(*trial, t0, root), 'f', 3), QStringLiteral("0.478"));
        QCOMPARE(QString::number(excl(*trial, t0, root), 'f', 3), QStringLiteral("0.000"));
        QCOMPARE(QString::number(excl(*trial, t0, QStringLiteral("read hatchet/readers/caliper_reader.py")), 'f', 3),
            QStringLiteral("0.025"));
        QVERIFY(closeTo(excl(*trial, t0, QStringLiteral("read hatchet/readers/caliper_reader.py")), 0.02508));
        QCOMPARE(QString::number(incl(*trial, t0, QStringLiteral("from_caliper_json hatchet/graphframe.py")), 'f', 3),
            QStringLiteral("0.063"));
        QVERIFY(trial->eventInGroup(trial->findEvent(root), QStringLiteral("PYINSTRUMENT_APPLICATION")));
        checkTreeConsistency(*trial, 1e-6);
    }

    void badInput_data()
    {
        QTest::addColumn<int>("reader"); // 0 timemory, 1 hatchet, 2 pyinstrument
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const QByteArray tm = fileBytes(timemorySample());
        const QByteArray ht = fileBytes(hatchetSample());
        const QByteArray py = fileBytes(pyinstrumentSample());
        QTest::newRow("timemory truncated") << 0 << tm.left(tm.size() / 2) << "invalid JSON";
        QTest::newRow("hatchet truncated") << 1 << ht.left(ht.size() / 2) << "invalid JSON";
        QTest::newRow("pyinstrument truncated") << 2 << py.left(py.size() / 2) << "invalid JSON";
        QByteArray corrupt = py;
        corrupt.replace(corrupt.indexOf("\"time\": 0.339553"), 7, "\"ti\xff\x01: ");
        QTest::newRow("pyinstrument corrupted") << 2 << corrupt << "invalid JSON";
        QTest::newRow("timemory no mpi") << 0 << QByteArray(tm).replace("\"mpi\": [", "\"mpi\": 7, \"x\": [")
                                         << "expected an \"mpi\" array";
        QTest::newRow("timemory bad node")
            << 0 << QByteArray(tm).replace("\"prefix\": \"generate_history/do-sleep\"", "\"prefix\": 12")
            << "\"prefix\"";
        QTest::newRow("timemory not object") << 0 << QByteArray("{\"timemory\": [1, 2]}") << "\"timemory\" object";
        QTest::newRow("hatchet graph not array")
            << 1 << QByteArray(ht).replace("{\"graph\":[", "{\"graph\":7,\"x\":[") << "\"graph\"";
        QTest::newRow("hatchet row without node")
            << 1 << QByteArray(ht).replace("{\"node\":5,", "{\"nod\":5,") << "\"node\" id";
        QTest::newRow("pyinstrument root_frame string")
            << 2 << QByteArray(py).replace("\"root_frame\": {", "\"root_frame\": \"x\", \"y\": {") << "\"root_frame\"";
        QTest::newRow("pyinstrument frame without time")
            << 2 << QByteArray(py).replace("\"time\": 0.339553", "\"tim\": 0.339553") << "\"time\"";
        // Deeper than QJsonDocument's 1024 levels: 600 nested frames (2 levels each).
        QByteArray deep = "{\"sample_count\": 1, \"root_frame\": ";
        for (int i = 0; i < 600; ++i)
            deep += "{\"function\": \"f\", \"time\": 1, \"children\": [";
        for (int i = 0; i < 600; ++i)
            deep += "]}";
        deep += "}";
        QTest::newRow("pyinstrument too deep") << 2 << deep << "1024";
    }

    void badInput()
    {
        QFETCH(int, reader);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("bad.json"));
        writeFile(path, bytes);
        const TimemoryReader timemory;
        const HatchetJsonReader hatchet;
        const PyinstrumentReader pyinstrument;
        const Reader& r = reader == 0 ? static_cast<const Reader&>(timemory)
            : reader == 1             ? static_cast<const Reader&>(hatchet)
                                      : static_cast<const Reader&>(pyinstrument);
        const TrialResult result = readWith(r, path);
        QVERIFY2(!result.ok(), "broken input must not read");
        const ReadError& e = result.error();
        QCOMPARE(e.file, path);
        QVERIFY2(e.message.contains(message), qPrintable(e.toString()));
        QVERIFY2(e.line >= 1, qPrintable(e.toString()));
        QVERIFY2(e.byteOffset >= 0 && e.byteOffset <= bytes.size(), qPrintable(e.toString()));
    }

    void sizeLimitMessage()
    {
        // The limit itself is 512 MiB; check it is stated and that an absent file is an error.
        QVERIFY(JsonInput::MaxBytes >= qint64(256) << 20);
        const TrialResult r = readWith(PyinstrumentReader(), dataPath(QStringLiteral("no-such.json")));
        QVERIFY(!r.ok());
        QVERIFY(!r.error().message.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestJsonProfiles)
#include "tst_jsonprofiles.moc"
