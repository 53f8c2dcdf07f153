// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The CUBE writer (docs/FORMATS.md 5.4): CUBE -> Parallax -> CUBE -> Parallax keeps every cell, TAU ->
// CUBE -> Parallax keeps every value of every call-tree event, on the real samples.
#include "datasource/readers/cubearchive.h"
#include "datasource/readers/progress.h"
#include "datasource/writers/cubewriter.h"
#include "datasource/writers/writerregistry.h"
#include "tests/common/readertest.h"
#include "tests/common/testutil.h"

#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>

using namespace parallax;
using namespace parallax::test;

namespace {

/// Metadata keys the CUBE reader derives from the file itself (format version, counts of the
/// regions and cnodes the file declares): they describe the written file, not the trial.
bool describesFile(const QString& key)
{
    return key == QLatin1String("CUBE format version") || key == QLatin1String("CUBE regions")
        || key == QLatin1String("CUBE topologies") || key == QLatin1String("CUBE misc members");
}

/// Every metric, thread, event and cell of two trials, bit for bit; metadata except describesFile().
void compareExactly(const Trial& a, const Trial& b)
{
    compareMetrics(a, b);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(a.threads(), b.threads());
    QCOMPARE(a.eventCount(), b.eventCount());
    QSet<std::size_t> heldTotals;
    QSet<QString> roots, deepLeaves;
    for (const IntervalEvent& e : a.events())
        if (e.isCallPath()) {
            roots.insert(e.name.section(QStringLiteral(" => "), 0, 0));
            deepLeaves.insert(e.name.section(QStringLiteral(" => "), -1));
        }
    for (std::size_t e = 0; e < a.eventCount(); ++e)
        if (!a.event(EventId(e)).isCallPath() && roots.contains(a.event(EventId(e)).name)
            && deepLeaves.contains(a.event(EventId(e)).name))
            heldTotals.insert(e);
    for (std::size_t e = 0; e < a.eventCount(); ++e) {
        QCOMPARE(a.event(EventId(e)).name, b.event(EventId(e)).name);
        // The regions' mod, begin and end (docs/SEMANTICS.md §12.1).
        QCOMPARE(sourceLocationOf(b, EventId(e)), sourceLocationOf(a, EventId(e)));
    }
    for (std::size_t t = 0; t < a.threadCount(); ++t) {
        const RowView ra = a.row(ThreadIndex(t));
        const RowView rb = b.row(ThreadIndex(t));
        QCOMPARE(ra.events, rb.events);
        const std::size_t n = ra.size();
        for (std::size_t i = 0; i < n; ++i) {
            // A call-tree root whose region also occurs deeper holds the flat totals (the reader's rule);
            // the writer subtracts the deeper cnodes and the reader adds them again: equal up to rounding.
            const bool rounded = heldTotals.contains(std::size_t(ra.events[i].index()));
            auto same = [&](double x, double y) { return rounded ? near(x, y, 1e-12) : x == y; };
            QVERIFY(same(ra.calls[i], rb.calls[i]));
            QVERIFY(same(ra.subrs[i], rb.subrs[i]));
            for (std::size_t m = 0; m < a.metricCount(); ++m) {
                QVERIFY2(same(ra.exclusive(m, i), rb.exclusive(m, i)), qPrintable(a.event(ra.events[i]).name));
                QVERIFY2(same(ra.inclusive(m, i), rb.inclusive(m, i)), qPrintable(a.event(ra.events[i]).name));
            }
        }
        for (const auto& e : a.threadMetadata(ThreadIndex(t)))
            QCOMPARE(b.metadataValue(a.strings().get(e.key), ThreadIndex(t)), a.strings().get(e.value));
    }
    for (const auto& e : a.metadata()) {
        const QString key = a.strings().get(e.key);
        if (describesFile(key))
            continue;
        QString want = a.strings().get(e.value);
        QString got = b.metadataValue(key);
        // A part of a composite dtype (RATE, TAU_ATOMIC...) is written as a plain metric of its own.
        static const QRegularExpression dtype(QStringLiteral("; dtype [^;]*"));
        if (key.startsWith(QLatin1String("CUBE metric ")) && want.contains(QLatin1String(", part "))) {
            want.remove(dtype);
            got.remove(dtype);
        }
        // An unsigned metric whose derived values are negative is written as DOUBLE (unsignedAsDouble()).
        static const QRegularExpression unsignedDType(QStringLiteral("; dtype UINT(8|16|32|64);"));
        if (key.startsWith(QLatin1String("CUBE metric ")) && got.contains(QLatin1String("; dtype DOUBLE;")))
            want.replace(unsignedDType, QStringLiteral("; dtype DOUBLE;"));
        QCOMPARE(got, want);
    }
}

std::shared_ptr<Trial> writeAndRead(const Trial& trial, const QTemporaryDir& dir, const QString& name)
{
    const QString path = dir.filePath(name);
    const QString error = WriterRegistry::instance().write(trial, path);
    if (!error.isEmpty()) {
        qWarning("%s", qPrintable(error));
        return nullptr;
    }
    return mustLoad(path);
}

/// The anchor.xml member of a written .cubex.
QByteArray anchorOf(const QString& path)
{
    Progress progress;
    cube::ArchiveReader reader(path, progress);
    while (const auto entry = reader.next())
        if (entry->name == QLatin1String("anchor.xml"))
            return reader.readAll(qint64(1) << 30);
    return {};
}

} // namespace

class TestCubeWriter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void registered()
    {
        const WriterInfo* writer = WriterRegistry::instance().forPath(QStringLiteral("/tmp/x.CUBEX"));
        QVERIFY(writer);
        QCOMPARE(writer->name, QStringLiteral("cube"));
    }

    void cubeRoundTrip_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* f : { "tau2/cube-scorep-cpi/profile.cubex", "cube/pycubexr/kripke.p8.d2.g32.r1/profile.cubex",
                 "cube/pycubexr/call_tree_test/call_tree_test.cubex", "cube/pycubexr/time.p4.n2000.x1.r0/profile.cubex",
                 "cube/pycubexr/test_only_files/cube-values_example.cubex",
                 "cube/scalasca-cube3/kojak-example-ctest-pomp.cube", "cube/scalasca-cube3/cubew-test3-template.cube",
                 "cubelib/test/test33_CubeProxy/proxy.cubex", "cubelib/test/test32/example.cube",
                 "cubelib/test/test1.1/template.cube", "cubelib/test/test2/template.cube",
                 "cubelib/test/test0.0/test0.0.cubex", "cubelib/test/test28/template1.cube",
                 "cubelib/test/test28/template2.cube" })
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    /// CUBE -> Parallax -> CUBE -> Parallax: the two trials are the same, cell by cell.
    void cubeRoundTrip()
    {
        QFETCH(QString, file);
        const auto original = mustLoad(dataPath(file));
        QVERIFY(original);
        QTemporaryDir dir;
        const auto again = writeAndRead(*original, dir, QStringLiteral("a.cubex"));
        QVERIFY(again);
        compareExactly(*original, *again);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(again->hasRecordedSourceLocations(), original->hasRecordedSourceLocations());
        // And once more: the written file is a fixed point.
        const auto third = writeAndRead(*again, dir, QStringLiteral("b.cubex"));
        QVERIFY(third);
        compareExactly(*again, *third);
        QCOMPARE(fileBytes(dir.filePath(QStringLiteral("a.cubex"))).size(),
            fileBytes(dir.filePath(QStringLiteral("b.cubex"))).size());
    }

    void tauRoundTrip_data()
    {
        QTest::addColumn<QString>("dir");
        for (const char* d : { "tau2/tau-profiles-callpath-cpi-4rank", "tau2/tau-profiles-workflow-xmain-8rank",
                 "tau2/tau-profiles-openmp-2thread", "tau2/tau-profiles-wrap-params", "cubelib/test/test28/profile1" })
            QTest::newRow(d) << QString::fromLatin1(d);
    }
    /// TAU -> CUBE -> Parallax: every present value (calls, exclusive, inclusive of every metric) of every
    /// call-tree event (call paths, and the flat events that are call-tree roots or the whole trial
    /// when it has no call paths) comes back, bit for bit; the metrics come back in order, Visits after them.
    void tauRoundTrip()
    {
        QFETCH(QString, dir);
        const auto original = mustLoad(dataPath(dir));
        QVERIFY(original);
        QTemporaryDir out;
        const auto again = writeAndRead(*original, out, QStringLiteral("t.cubex"));
        QVERIFY(again);
        QCOMPARE(again->threads(), original->threads());
        for (std::size_t m = 0; m < original->metricCount(); ++m) {
            const MetricId k = again->findMetric(original->metric(MetricId(m)).name);
            QCOMPARE(k.index(), m); // the trial's metrics first, in order; Visits after them
            QCOMPARE(again->metric(k).unit, original->metric(MetricId(m)).unit);
        }
        QVERIFY(again->findMetric(QStringLiteral("Visits")).isValid());
        QSet<QString> roots;
        bool callPaths = false;
        for (const IntervalEvent& e : original->events())
            if (e.isCallPath()) {
                roots.insert(e.name.section(QStringLiteral(" => "), 0, 0));
                callPaths = true;
            }
        std::size_t checked = 0;
        for (std::size_t e = 0; e < original->eventCount(); ++e) {
            const IntervalEvent& event = original->event(EventId(e));
            if (callPaths && !event.isCallPath() && !roots.contains(event.name))
                continue; // a flat event the reader rebuilds from the call tree
            const EventId f = again->findEvent(event.name);
            QVERIFY2(f.isValid(), qPrintable(event.name));
            for (std::size_t t = 0; t < original->threadCount(); ++t) {
                const RowView ra = original->row(ThreadIndex(t));
                const RowView rb = again->row(ThreadIndex(t));
                const auto i = ra.find(EventId(e));
                const auto j = rb.find(f);
                QCOMPARE(j >= 0, i >= 0);
                if (i < 0)
                    continue;
                QCOMPARE(rb.calls[std::size_t(j)], ra.calls[std::size_t(i)]);
                for (std::size_t m = 0; m < original->metricCount(); ++m) {
                    const std::size_t k = again->findMetric(original->metric(MetricId(m)).name).index();
                    QCOMPARE(rb.exclusive(k, std::size_t(j)), ra.exclusive(m, std::size_t(i)));
                    QCOMPARE(rb.inclusive(k, std::size_t(j)), ra.inclusive(m, std::size_t(i)));
                }
                ++checked;
            }
        }
        QVERIFY(checked > 0);
        // The trial-wide metadata are <attr>s.
        for (const auto& e : original->metadata())
            QCOMPARE(again->metadataValue(original->strings().get(e.key)), original->strings().get(e.value));
    }

    void cubelibSyntax_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("roots");
        QTest::addColumn<int>("murls");
        QTest::newRow("TAU cpi: no mirrors, leaf cnodes") << "tau2/tau-profiles-callpath-cpi-4rank" << 1 << 0;
        QTest::newRow("TAU flat: 27 roots") << "tau2/tau-profiles-workflow-xmain-8rank" << 27 << 0;
        QTest::newRow("CUBE 3 with a mirror") << "cube/scalasca-cube3/kojak-example-ctest-pomp.cube" << 1 << 1;
        QTest::newRow("Score-P with a topology") << "cube/pycubexr/time.p4.n2000.x1.r0/profile.cubex" << 1 << 3;
        QTest::newRow("CubeLib proxy: 8 roots") << "cubelib/test/test33_CubeProxy/proxy.cubex" << 8 << 0;
    }
    /// anchor.xml in the form CubeLib's parser takes (checked with CubeLib 4.8.2's cube_dump, docs/FORMATS.md
    /// 5.4): its scanner is a lexer of fixed tokens, so an element with no content must be written
    /// <name></name> (<cnode .../> and <mirrors/> were rejected: "syntax error, unexpected error, expecting
    /// </doc>"); only <attr/>, <dim/> and <parameter/> may be empty elements. Several call-tree roots are
    /// plain sibling <cnode>s, which CubeLib reads.
    void cubelibSyntax()
    {
        QFETCH(QString, file);
        QFETCH(int, roots);
        QFETCH(int, murls);
        const auto trial = mustLoad(dataPath(file));
        QVERIFY(trial);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("x.cubex"));
        const QString error = CubeWriter::write(*trial, path);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString anchor = QString::fromUtf8(anchorOf(path));
        QVERIFY(anchor.contains(QLatin1String("<cube version=\"4.4\">")));
        static const QRegularExpression emptyElement(QStringLiteral("<([A-Za-z_]+)[^<>]*/>"));
        QSet<QString> empty;
        for (auto it = emptyElement.globalMatch(anchor); it.hasNext();)
            empty.insert(it.next().captured(1));
        const QSet<QString> allowed { QStringLiteral("attr"), QStringLiteral("dim"), QStringLiteral("parameter") };
        QVERIFY2((empty - allowed).isEmpty(), qPrintable(QStringList((empty - allowed).values()).join(u' ')));
        QCOMPARE(anchor.count(QLatin1String("<cnode ")), anchor.count(QLatin1String("</cnode>")));
        QCOMPARE(anchor.count(QLatin1String("<mirrors>")), 1);
        QCOMPARE(anchor.count(QLatin1String("</mirrors>")), 1);
        QCOMPARE(anchor.count(QLatin1String("<murl>")), murls);
        // Roots: the <cnode>s directly inside <program>, after the regions.
        int depth = 0;
        int rootCount = 0;
        static const QRegularExpression cnodeTag(QStringLiteral("<cnode |</cnode>"));
        for (auto it = cnodeTag.globalMatch(anchor); it.hasNext();) {
            if (it.next().captured(0) == QLatin1String("</cnode>")) {
                --depth;
            } else if (depth++ == 0) {
                ++rootCount;
            }
        }
        QCOMPARE(rootCount, roots);
    }

    /// An INCLUSIVE metric stored in an unsigned dtype whose exclusive values (incl - children's incl) are
    /// negative: CubeLib 4.8.2 computes them in the dtype's arithmetic, and cube_dump showed main's
    /// exclusive UINT16 value 1 - (5 + 9) as 65523. Such a metric is written as DOUBLE; a signed one, and
    /// an unsigned one whose derived values fit, keeps its dtype.
    void unsignedAsDouble()
    {
        const auto trial
            = mustLoad(dataPath(QStringLiteral("cube/pycubexr/test_only_files/cube-values_example.cubex")));
        QVERIFY(trial);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v.cubex"));
        const QString error = CubeWriter::write(*trial, path);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString anchor = QString::fromUtf8(anchorOf(path));
        auto dtypeOf = [&](const QString& name) {
            const QRegularExpression re(QStringLiteral("<disp_name>%1</disp_name>\\s*<uniq_name>[^<]*</uniq_name>\\s*"
                                                       "<dtype>([^<]*)</dtype>")
                                            .arg(QRegularExpression::escape(name)));
            return re.match(anchor).captured(1);
        };
        for (const char* name : { "UINT8", "UINT16", "UINT32", "UINT64" })
            QCOMPARE(dtypeOf(QLatin1String(name)), QStringLiteral("DOUBLE"));
        for (const char* name : { "INT8", "INT16", "INT32", "INT64" })
            QCOMPARE(dtypeOf(QLatin1String(name)), QLatin1String(name));
        // The stored values are main 1..4, foo 5..8, bar 9..12 on locations 0..3: main's exclusive value is
        // 1 - 14 = -13 on location 0, in the file and read back.
        const MetricId uint16 = trial->findMetric(QStringLiteral("UINT16"));
        const EventId main = trial->findEvent(QStringLiteral("main"));
        QVERIFY(uint16.isValid() && main.isValid());
        const RowView row = trial->row(ThreadIndex(std::size_t(0)));
        QCOMPARE(row.exclusive(uint16.index(), std::size_t(row.find(main))), -13.0);
        const auto again = mustLoad(path);
        QVERIFY(again);
        const RowView back = again->row(ThreadIndex(std::size_t(0)));
        QCOMPARE(back.exclusive(again->findMetric(QStringLiteral("UINT16")).index(),
                     std::size_t(back.find(again->findEvent(QStringLiteral("main"))))),
            -13.0);
    }

    void errors()
    {
        QTemporaryDir dir;
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        const QString path = dir.filePath(QStringLiteral("no/such/dir/x.cubex"));
        const QString error = CubeWriter::write(*trial, path);
        QVERIFY2(error.contains(path), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestCubeWriter)
#include "tst_cubewriter.moc"
