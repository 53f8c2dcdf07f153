// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The gprof2dot DOT reader against the facts in ../shared/data/hatchet/MANIFEST.md (gprof2dot-cpi)
// and docs/FORMATS.md 8, the DOT syntax on hand-made graphs, and damaged inputs.
#include "datasource/readers/dotreader.h"
#include "tests/common/readertest.h"
#include "tests/common/testutil.h"

#include <QSet>
#include <QTemporaryDir>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

QString cpi() { return dataPath(QStringLiteral("hatchet/gprof2dot-cpi/callgrind.dot.64042.0.1")); }

TrialResult readDot(const QString& path) { return readWith(DotReader(), path); }

std::shared_ptr<Trial> mustRead(const QString& path) { return mustReadWith(DotReader(), path); }

/// A field of an event's cell on the one thread.
double value(const Trial& t, const QString& event, Field field)
{
    return t.threadCount() != 1 ? Absent : fieldOf(t, ThreadIndex(0u), event, field);
}

double excl(const Trial& t, const char* e) { return value(t, QString::fromUtf8(e), Field::Excl); }
double incl(const Trial& t, const char* e) { return value(t, QString::fromUtf8(e), Field::Incl); }
double calls(const Trial& t, const char* e) { return value(t, QString::fromUtf8(e), Field::Calls); }
double subrs(const Trial& t, const char* e) { return value(t, QString::fromUtf8(e), Field::Subrs); }

/// The flat event with the largest value (exclusive or inclusive).
QString top(const Trial& t, bool inclusive)
{
    const RowView row = t.row(ThreadIndex(0u));
    double best = -1;
    QString name;
    for (std::size_t i = 0; i < row.size(); ++i) {
        if (t.event(row.events[i]).isCallPath())
            continue;
        const double v = inclusive ? row.inclusive(0, i) : row.exclusive(0, i);
        if (v > best) {
            best = v;
            name = t.event(row.events[i]).name;
        }
    }
    return name;
}

} // namespace

class TestDotReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void detection()
    {
        const Reader* r = ReaderRegistry::instance().detect(cpi());
        QVERIFY(r);
        QCOMPARE(r->name(), QStringLiteral("gprof2dot"));
        QCOMPARE(DotReader().sniff(cpi()), 100);
        QCOMPARE(DotReader().sniff(dataPath(QStringLiteral("gprof2dot/prof/gnu2.prof"))), 0);
        QCOMPARE(DotReader().sniff(dataPath(QStringLiteral("hatchet/tau-cpi-mpi/profile.0.0.0"))), 0);
        QTemporaryDir dir;
        const QString plain = dir.filePath(QStringLiteral("plain.gv"));
        writeText(plain, "/* a comment */\n// another\nstrict digraph G { a -> b }\n");
        QCOMPARE(DotReader().sniff(plain), 30);
    }

    void cpiFacts()
    {
        const auto t = mustRead(cpi());
        QVERIFY(t);
        QVERIFY2(t->warnings().isEmpty(), qPrintable(t->warnings().join(QLatin1Char('\n'))));
        QCOMPARE(t->threadCount(), std::size_t(1));
        QCOMPARE(t->threadKey(ThreadIndex(0u)), (ThreadKey { 0, 0, 0 }));
        QCOMPARE(t->metricCount(), std::size_t(1));
        QCOMPARE(t->metric(MetricId(0u)).name, QStringLiteral("TIME (% of total)"));
        QCOMPARE(t->metric(MetricId(0u)).unit, QStringLiteral("%"));
        // 105 nodes (105 distinct names), 107 edges.
        QCOMPARE(countEvents(*t, false), std::size_t(105));
        QCOMPARE(countEvents(*t, true), std::size_t(107));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof2dot nodes")), QStringLiteral("105"));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof2dot edges")), QStringLiteral("107"));
        QSet<QString> names;
        for (const auto& e : t->events())
            if (!e.isCallPath())
                names.insert(e.name);
        QCOMPARE(names.size(), 105);
        // Exactly these 7 roots.
        const QStringList roots = t->metadataValue(QStringLiteral("gprof2dot roots")).split(QStringLiteral(", "));
        QCOMPARE(QSet<QString>(roots.begin(), roots.end()),
            (QSet<QString> { QStringLiteral("psm_no_lock"), QStringLiteral("(below main)"),
                QStringLiteral("0x0000000000000ff0"), QStringLiteral("_dl_catch_error'2"),
                QStringLiteral("hwloc_topology_load"), QStringLiteral("ibv_get_device_list"),
                QStringLiteral("psm_allocate_vbufs") }));
        QCOMPARE(roots.size(), 7);
        // The roots are the flat events that no call path ends in.
        QSet<QString> leaves;
        for (const auto& e : t->events())
            if (e.isCallPath()
                && e.name.section(QStringLiteral(" => "), 0, 0) != e.name.section(QStringLiteral(" => "), 1))
                leaves.insert(t->event(e.leaf).name);
        QCOMPARE(names - leaves, QSet<QString>(roots.begin(), roots.end()));
        // Top self main 53.77 %; top total (below main) 97.95 %, main 97.94 %, PMPI_Reduce 33.84 %.
        QCOMPARE(top(*t, false), QStringLiteral("main"));
        QCOMPARE(excl(*t, "main"), 53.77);
        QCOMPARE(top(*t, true), QStringLiteral("(below main)"));
        QCOMPARE(incl(*t, "(below main)"), 97.95);
        QCOMPARE(excl(*t, "(below main)"), 0.0);
        QCOMPARE(calls(*t, "(below main)"), 0.0);
        QCOMPARE(incl(*t, "main"), 97.94);
        QCOMPARE(incl(*t, "PMPI_Reduce"), 33.84);
        // Labels: module\nname\ntotal%\n(self%)\ncalls×; the module is a group.
        QCOMPARE(incl(*t, "0x0000000000005a80"), 3.81);
        QCOMPARE(excl(*t, "0x0000000000005a80"), 0.80);
        QCOMPARE(calls(*t, "0x0000000000005a80"), 300021.0);
        QVERIFY(t->eventInGroup(t->findEvent(QStringLiteral("0x0000000000005a80")), QStringLiteral("libpsm2.so.2.1")));
        QVERIFY(t->eventInGroup(t->findEvent(QStringLiteral("(below main)")), QStringLiteral("libc-2.17.so")));
        // Edges: "total%\ncalls×".
        QCOMPARE(incl(*t, "(below main) => main"), 97.94);
        QCOMPARE(calls(*t, "(below main) => main"), 1.0);
        QCOMPARE(incl(*t, "0x0000000000005a80 => 0x000000000000ccf0"), 3.01);
        QCOMPARE(calls(*t, "0x0000000000005a80 => 0x000000000000ccf0"), 300015.0);
        // ccf0 has one caller: the edge's exclusive share is all of its self (0.77 %).
        QVERIFY(std::fabs(excl(*t, "0x0000000000005a80 => 0x000000000000ccf0") - 0.77) < 1e-12);
        QVERIFY(t->eventInGroup(t->findEvent(QStringLiteral("(below main) => main")), QStringLiteral("TAU_CALLPATH")));
        const IntervalEvent& edge = t->event(t->findEvent(QStringLiteral("(below main) => main")));
        QCOMPARE(edge.parent, t->findEvent(QStringLiteral("(below main)")));
        QCOMPARE(edge.leaf, t->findEvent(QStringLiteral("main")));
        // subrs: the calls on the outgoing edges.
        QCOMPARE(subrs(*t, "0x0000000000005a80"), 300015.0);
        QCOMPARE(subrs(*t, "vfscanf"), 3113.0);
        QCOMPARE(subrs(*t, "(below main)"), 1.0);
    }

    void syntax()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("syntax.dot"));
        writeText(path,
            "# preprocessor line\n"
            "/* block\n comment */ strict DiGraph \"G\" {\n"
            "  graph [rankdir=LR]; node [shape=box]\n"
            "  edge [fontname=Arial];\n"
            "  size = \"7,7\"\n"
            "  a [label=\"mod\\nf\\\"quoted\\\"\\n50.00%\\n(10.00%)\\n2\xc3\x97\"];\n"
            "  b [label=\"g\\n\" + \"30.00%\\n(30.00%)\\n4\xc3\x97\"]\n"
            "  c [label=<html <b>label</b>>]\n"
            "  \"a\":p1:n -> b [label=\"30.00%\\n4\xc3\x97\", weight=2] // comment\n"
            "  subgraph cluster0 { d [label=\"h\\n5.00%\\n(5.00%)\\n1\xc3\x97\"]; e; }\n"
            "  a -> { d } [label=\"5.00%\\n1\xc3\x97\"];\n"
            "  b -> b [label=\"1.00%\\n3\xc3\x97\"]\n"
            "  long [label=\"a very \\\n"
            "long name\\n1.00%\\n(1.00%)\\n1\xc3\x97\"]\n"
            "}\n");
        const auto t = mustRead(path);
        QVERIFY(t);
        QCOMPARE(incl(*t, "f\"quoted\""), 50.0);
        QCOMPARE(excl(*t, "f\"quoted\""), 10.0);
        QCOMPARE(calls(*t, "f\"quoted\""), 2.0);
        QCOMPARE(subrs(*t, "f\"quoted\""), 5.0);
        QVERIFY(t->eventInGroup(t->findEvent(QStringLiteral("f\"quoted\"")), QStringLiteral("mod")));
        QCOMPARE(incl(*t, "g"), 30.0);
        QCOMPARE(incl(*t, "f\"quoted\" => g"), 30.0);
        QCOMPARE(excl(*t, "f\"quoted\" => g"), 30.0);
        QCOMPARE(calls(*t, "f\"quoted\" => h"), 1.0);
        QCOMPARE(calls(*t, "g => g"), 3.0);
        QCOMPARE(incl(*t, "a very long name"), 1.0);
        // Nodes without gprof2dot labels are events without data, with warnings.
        QVERIFY(t->findEvent(QStringLiteral("html <b>label</b>")).isValid());
        QVERIFY(t->findEvent(QStringLiteral("e")).isValid());
        QCOMPARE(incl(*t, "e"), Absent);
        QVERIFY(hasWarning(*t, QStringLiteral("2 node(s) have no 'total%'")));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof2dot graph name")), QStringLiteral("G"));
        // Roots: f (a), c, e and long; b calls itself only, but a calls it.
        const QStringList roots = t->metadataValue(QStringLiteral("gprof2dot roots")).split(QStringLiteral(", "));
        QCOMPARE(roots,
            (QStringList { QStringLiteral("f\"quoted\""), QStringLiteral("html <b>label</b>"), QStringLiteral("e"),
                QStringLiteral("a very long name") }));
    }

    void sharedCallee()
    {
        // Two callers share the callee's self time in proportion to their inclusive share; parallel
        // edges are summed; a repeated name is made unique.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("shared.dot"));
        writeText(path,
            "digraph {\n"
            "  p [label=\"p\\n100.00%\\n(0.00%)\\n1\xc3\x97\"];\n"
            "  q [label=\"q\\n60.00%\\n(20.00%)\\n1\xc3\x97\"];\n"
            "  r [label=\"libx\\nr\\n40.00%\\n(40.00%)\\n3\xc3\x97\"];\n"
            "  r2 [label=\"liby\\nr\\n0.00%\\n(0.00%)\\n0\xc3\x97\"];\n"
            "  p -> q [label=\"60.00%\\n1\xc3\x97\"];\n"
            "  p -> r [label=\"5.00%\\n1\xc3\x97\"];\n"
            "  p -> r [label=\"5.00%\\n1\xc3\x97\"];\n"
            "  q -> r [label=\"30.00%\\n1\xc3\x97\"];\n"
            "}\n");
        const auto t = mustRead(path);
        QVERIFY(t);
        QCOMPARE(incl(*t, "p => r"), 10.0);
        QCOMPARE(calls(*t, "p => r"), 2.0);
        QVERIFY(std::fabs(excl(*t, "p => r") - 10.0) < 1e-9); // 40 % x 10/40
        QVERIFY(std::fabs(excl(*t, "q => r") - 30.0) < 1e-9); // 40 % x 30/40
        QCOMPARE(subrs(*t, "p"), 3.0);
        QVERIFY(t->findEvent(QStringLiteral("r [liby]")).isValid());
        QCOMPARE(incl(*t, "r"), 40.0);
        QVERIFY(hasWarning(*t, QStringLiteral("renamed: 'r [liby]'")));
        QVERIFY(hasWarning(*t, QStringLiteral("more than one edge")));
    }

    void byteOrderMarkInALabel()
    {
        // A byte-order mark inside a label line (the fuzzer's find): the name keeps no mark, and the
        // call path "p => q" has q as its leaf and p as its parent.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bom.dot"));
        writeText(path,
            "digraph {\n"
            "  p [label=\"p\\n100.00%\\n(50.00%)\\n1\xc3\x97\"];\n"
            "  q [label=\"libx\\n\xef\xbb\xbfq\\n50.00%\\n(50.00%)\\n2\xc3\x97\"];\n"
            "  p -> q [label=\"50.00%\\n2\xc3\x97\"];\n"
            "}\n");
        const auto t = mustRead(path);
        QVERIFY(t);
        const EventId path2 = t->findEvent(QStringLiteral("p => q"));
        QVERIFY(path2.isValid());
        QCOMPARE(t->event(path2).leaf, t->findEvent(QStringLiteral("q")));
        QCOMPARE(t->event(path2).parent, t->findEvent(QStringLiteral("p")));
        QVERIFY(t->event(path2).leaf.isValid());
        QCOMPARE(incl(*t, "p => q"), 50.0);
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<qint64>("line");
        QTest::addColumn<QString>("expected");
        QFile f(cpi());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray sample = f.readAll();
        QVERIFY(!sample.isEmpty());

        // Truncated: the graph is not closed / a string is not closed.
        QTest::newRow("truncated at a line end") << sample.left(sample.lastIndexOf("\t\"psm_update_mpistatus\""))
                                                 << qint64(1) << QStringLiteral("not closed (expected '}'");
        const qsizetype cut = sample.indexOf("label=\"libc-2.17.so\\nsprintf");
        QTest::newRow("truncated in a string") << sample.left(cut + 20) << qint64(sample.left(cut).count('\n') + 1)
                                               << QStringLiteral("string opened here is not closed");
        // Corrupted bytes: a stray character, an edge operator without its head.
        QByteArray stray = sample;
        stray.replace("\t\"(below main)\" -> main", "\t\"(below main)\" -> main @");
        QTest::newRow("stray character") << stray << qint64(6) << QStringLiteral("unexpected character '@'");
        QByteArray headless = sample;
        headless.replace("\tvfscanf -> \"_IO_vfscanf\"", "\tvfscanf -> ");
        QTest::newRow("edge without head")
            << headless << qint64(sample.left(sample.indexOf("\tvfscanf -> \"_IO_vfscanf\"")).count('\n') + 1)
            << QStringLiteral("expected a name, number or string");
        QByteArray comment = sample;
        comment.replace("edge [fontname=Arial];", "edge [fontname=Arial]; /* never closed");
        QTest::newRow("open comment") << comment << qint64(4) << QStringLiteral("comment opened here is not closed");
        // Wrong structure.
        QTest::newRow("not a graph") << QByteArray("Flat profile:\n") << qint64(1)
                                     << QStringLiteral("expected 'digraph' or 'graph'");
        QTest::newRow("missing brace") << QByteArray("digraph G\n a -> b }\n") << qint64(2)
                                       << QStringLiteral("expected '{'");
        QTest::newRow("bad attribute list") << QByteArray("digraph {\n a [label=\"x\" = ]\n}\n") << qint64(2)
                                            << QStringLiteral("expected a name, number or string");
        QTest::newRow("not gprof2dot") << QByteArray("digraph {\n\n  a -> b\n}\n") << qint64(3)
                                       << QStringLiteral("no node label in gprof2dot form");
        QTest::newRow("empty graph") << QByteArray("digraph { }") << qint64(0)
                                     << QStringLiteral("the graph has no nodes");
        QTest::newRow("empty file") << QByteArray() << qint64(1) << QStringLiteral("expected 'digraph' or 'graph'");
        QByteArray deep = "digraph {\n";
        for (int i = 0; i < 1000; ++i)
            deep += "{";
        QTest::newRow("nesting") << deep << qint64(2) << QStringLiteral("nested more than");
    }

    void badInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(qint64, line);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.dot"));
        writeText(path, bytes);
        const auto result = readDot(path);
        QVERIFY2(!result.ok(), "a damaged file must not read");
        const ReadError& e = result.error();
        QCOMPARE(e.file, path);
        QVERIFY2(e.message.contains(expected), qPrintable(e.toString()));
        QCOMPARE(e.line, line);
    }
};

QTEST_GUILESS_MAIN(TestDotReader)
#include "tst_dotreader.moc"
