// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The Caliper readers (.cali and json-split) against every fact of ../shared/data/hatchet/MANIFEST.md
// (rows caliper-*) and ../shared/data/thicket/MANIFEST.md, docs/FORMATS.md 6.3 and 8, the call-tree
// consistency relations of docs/SEMANTICS.md 1.4, and hand-made fixtures and bad inputs.
#include "datasource/readers/calijsonreader.h"
#include "datasource/readers/caliprofile.h"
#include "datasource/readers/calireader.h"
#include "tests/common/readertest.h"
#include "tests/common/testutil.h"

#include <QTemporaryDir>
#include <cmath>
#include <limits>
#include <numeric>

using namespace parallax;
using namespace parallax::test;

namespace {

QString luleshJson() { return dataPath(QStringLiteral("hatchet/caliper-lulesh-json/lulesh-annotation-profile.json")); }
QString cpiJson() { return dataPath(QStringLiteral("hatchet/caliper-cpi-json/cpi-callpath-profile.json")); }
QString orderedJson()
{
    return dataPath(QStringLiteral("hatchet/caliper-ordered-json/caliper-region-node-order.json"));
}
QString orderedCali()
{
    return dataPath(QStringLiteral("hatchet/caliper-ordered-cali/230525-151052_1930517_eWbGeyrlBOPT.cali"));
}
QString orderedCaliThicket()
{
    return dataPath(QStringLiteral("thicket/caliper-ordered/230525-151052_1930517_eWbGeyrlBOPT.cali"));
}
QString luleshCali() { return dataPath(QStringLiteral("hatchet/caliper-lulesh-cali/lulesh-annotation-profile.cali")); }
QString scaling(int cores) { return dataPath(QStringLiteral("thicket/mpi_scaling_cali/%1_cores.cali").arg(cores)); }
QString rajaperf(int rep)
{
    return dataPath(QStringLiteral("thicket/rajaperf/quartz/gcc10.3.1_1048576/O3/%1/Base_Seq-default.cali").arg(rep));
}

const QString Unattributed = QStringLiteral("(unattributed)");

std::shared_ptr<Trial> mustRead(const QString& path)
{
    const Reader* reader = ReaderRegistry::instance().detect(path);
    if (!reader) {
        qWarning("no reader detects %s", qPrintable(path));
        return nullptr;
    }
    return mustReadWith(*reader, path);
}

double value(const Trial& t, int rank, const QString& event, const QString& metric, bool inclusive)
{
    const ThreadIndex ti = t.findThread({ rank, 0, 0 });
    const EventId e = t.findEvent(event);
    const MetricId m = t.findMetric(metric);
    if (!ti.isValid() || !e.isValid() || !m.isValid())
        return Absent;
    const RowView row = t.row(ti);
    const auto i = row.find(e);
    if (i < 0)
        return Absent;
    return inclusive ? row.inclusive(m.index(), std::size_t(i)) : row.exclusive(m.index(), std::size_t(i));
}
double excl(const Trial& t, int rank, const QString& event, const QString& metric = QStringLiteral("time"))
{
    return value(t, rank, event, metric, false);
}
double incl(const Trial& t, int rank, const QString& event, const QString& metric = QStringLiteral("time"))
{
    return value(t, rank, event, metric, true);
}

/// Flat region names in event order, without "(unattributed)".
QStringList flatNames(const Trial& t)
{
    QStringList out;
    for (const auto& e : t.events())
        if (!e.isCallPath() && e.name != Unattributed)
            out << e.name;
    return out;
}

int maxDepth(const Trial& t)
{
    int d = 0;
    for (const auto& e : t.events())
        d = std::max(d, e.depth);
    return d;
}

/// A provided statistic's inclusive time of an event (NaN when absent).
double provided(const Trial& t, int derivedId, const QString& event)
{
    const ProvidedStatistic* s = t.providedStatistic(derivedId);
    const EventId e = t.findEvent(event);
    const MetricId m = t.findMetric(QStringLiteral("time"));
    if (!s || !e.isValid() || !m.isValid())
        return std::numeric_limits<double>::quiet_NaN();
    const auto i = s->row.find(e);
    return i < 0 ? std::numeric_limits<double>::quiet_NaN() : s->row.inclusive(m.index(), std::size_t(i));
}

/// docs/SEMANTICS.md 1.4 on the call-path tree: incl = excl + sum of the children's incl, per thread.
void checkResiduals(const Trial& t)
{
    const MetricId m = t.findMetric(QStringLiteral("time"));
    QVERIFY(m.isValid());
    for (std::size_t ti = 0; ti < t.threadCount(); ++ti) {
        const RowView row = t.row(ThreadIndex(ti));
        std::vector<double> childSum(t.eventCount(), 0.0);
        for (std::size_t i = 0; i < row.size(); ++i) {
            const IntervalEvent& e = t.event(row.events[i]);
            if (e.isCallPath())
                childSum[e.parent.index()] += row.inclusive(m.index(), i);
        }
        for (std::size_t i = 0; i < row.size(); ++i) {
            const IntervalEvent& e = t.event(row.events[i]);
            const bool isTreeNode = e.isCallPath() || childSum[row.events[i].index()] != 0.0;
            if (!isTreeNode)
                continue;
            const double r
                = row.inclusive(m.index(), i) - row.exclusive(m.index(), i) - childSum[row.events[i].index()];
            QVERIFY2(std::fabs(r) <= 1e-6 * std::max(1.0, row.inclusive(m.index(), i)), qPrintable(e.name));
        }
    }
}

QString meta(const Trial& t, const char* key) { return t.metadataValue(QLatin1String(key)); }

} // namespace

class TestCaliReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void detection();
    void luleshJsonFacts();
    void cpiJsonSampling();
    void orderedJsonFacts();
    void orderedCaliFacts_data();
    void orderedCaliFacts();
    void luleshCaliFacts();
    void mpiScaling_data();
    void mpiScaling();
    void rajaperfFacts();
    void rajaperfAcrossRepetitions();
    void consistency_data();
    void consistency();
    void fixtureRanksAndRecursion();
    void fixtureEscapes();
    void fixtureRanklessRecords();
    void fixtureSkippedValuesAndStrict();
    void badCali_data();
    void badCali();
    void badJson_data();
    void badJson();
    void jsonOutOfRangeNumbers();
};

void TestCaliReader::detection()
{
    const auto& registry = ReaderRegistry::instance();
    for (const QString& path : { orderedCali(), luleshCali(), scaling(27), rajaperf(1) }) {
        const Reader* r = registry.detect(path);
        QVERIFY2(r && r->name() == QLatin1String("caliper"), qPrintable(path));
    }
    for (const QString& path : { luleshJson(), cpiJson(), orderedJson() }) {
        const Reader* r = registry.detect(path);
        QVERIFY2(r && r->name() == QLatin1String("caliper-json"), qPrintable(path));
    }
    // Not claimed by the other one.
    QCOMPARE(CaliReader().sniff(luleshJson()), 0);
    QCOMPARE(CaliJsonReader().sniff(orderedCali()), 0);
}

void TestCaliReader::luleshJsonFacts()
{
    const auto t = mustRead(luleshJson());
    QVERIFY(t);
    // 8 ranks (192 annotated rows + 8 path=null rows = 200), 24 names, root main.
    QCOMPARE(t->threadCount(), std::size_t(8));
    for (int r = 0; r < 8; ++r)
        QVERIFY(t->findThread({ r, 0, 0 }).isValid());
    QCOMPARE(flatNames(*t).size(), 24);
    QCOMPARE(flatNames(*t).front(), QStringLiteral("main"));
    QCOMPARE(t->metricCount(), std::size_t(1));
    QCOMPARE(t->metric(MetricId(0u)).name, QStringLiteral("time"));
    QCOMPARE(t->metric(MetricId(0u)).unit, QStringLiteral("us"));
    int annotated = 0;
    for (std::size_t ti = 0; ti < t->threadCount(); ++ti)
        for (EventId e : t->row(ThreadIndex(ti)).events)
            annotated += t->event(e).isCallPath() || t->event(e).name == QLatin1String("main") ? 1 : 0;
    QCOMPARE(annotated, 192);
    // tree("time") / tree("time (inc)") on rank 0 (hatchet tests/caliper.py).
    QCOMPARE(excl(*t, 0, QStringLiteral("main")), 121489.0);
    QCOMPARE(excl(*t, 0, QStringLiteral("LagrangeElements")), 663.0);
    QCOMPARE(excl(*t, 0, QStringLiteral("CalcTimeConstraintsForElems")), 21493.0);
    QCOMPARE(incl(*t, 0, QStringLiteral("EvalEOSForElems")), 662712.0);
    QCOMPARE(incl(*t, 0, QStringLiteral("LagrangeNodal")), 2895319.0);
    QCOMPARE(incl(*t, 0, QStringLiteral("main => LagrangeLeapFrog => LagrangeNodal")), 2895319.0);
    // Unattributed rows are kept: one per rank.
    QCOMPARE(excl(*t, 0, Unattributed), 21948.0);
    QCOMPARE(excl(*t, 1, Unattributed), 23349.0);
    // Top exclusive summed over ranks; the exclusive sum equals main's inclusive sum.
    QString top;
    double topValue = -1;
    double sumExcl = 0;
    double mainIncl = 0;
    for (const QString& name : flatNames(*t)) {
        double s = 0;
        for (int r = 0; r < 8; ++r) {
            const double v = excl(*t, r, name);
            s += v == Absent ? 0 : v;
        }
        sumExcl += s;
        if (s > topValue) {
            topValue = s;
            top = name;
        }
    }
    for (int r = 0; r < 8; ++r)
        mainIncl += incl(*t, r, QStringLiteral("main"));
    QCOMPARE(top, QStringLiteral("CalcFBHourglassForceForElems"));
    QCOMPARE(topValue, 9578883.0);
    QCOMPARE(excl(*t, 0, QStringLiteral("CalcFBHourglassForceForElems")), 1223331.0);
    QCOMPARE(sumExcl, 47119212.0);
    QCOMPARE(mainIncl, 47119212.0);
    QCOMPARE(meta(*t, "Caliper format"), QStringLiteral("json-split"));
    QVERIFY(t->warnings().isEmpty());
}

void TestCaliReader::cpiJsonSampling()
{
    const auto t = mustRead(cpiJson());
    QVERIFY(t);
    // Hatchet's 100 names: 60 function labels + 40 "file:line" statements of call-path nodes with
    // several source locations.
    QCOMPARE(flatNames(*t).size(), 100);
    QVERIFY(!t->findEvent(Unattributed).isValid());
    QCOMPARE(t->threadCount(), std::size_t(4));
    QVERIFY(t->findMetric(QStringLiteral("count")).isValid());
    QCOMPARE(t->metric(t->findMetric(QStringLiteral("time"))).unit, QStringLiteral("us"));
    for (const char* root : { "_start", "pthread_spin_lock", "log2" })
        QVERIFY2(t->findEvent(QLatin1String(root)).isValid(), root);
    QVERIFY(t->findEvent(QStringLiteral("UNKNOWN:0")).isValid());
    QVERIFY(t->findEvent(QStringLiteral("bcast_osu.c:2446")).isValid());
    // main's rows (module cpi, one source location): count 62 and time 309432 on rank 0.
    const QString main = QStringLiteral("_start => __libc_start_main => main");
    QCOMPARE(excl(*t, 0, main, QStringLiteral("count")), 62.0);
    QCOMPARE(excl(*t, 0, main), 309432.0);
    QCOMPARE(excl(*t, 3, main), 344782.0);
    QVERIFY(t->eventInGroup(t->findEvent(main), QStringLiteral("cpi")));
    // Nothing lost: the 108 rows sum to count 460 and time 2299906.
    double count = 0, time = 0;
    for (int r = 0; r < 4; ++r)
        for (const QString& name : flatNames(*t)) {
            const double c = excl(*t, r, name, QStringLiteral("count"));
            const double s = excl(*t, r, name);
            count += c == Absent ? 0 : c;
            time += s == Absent ? 0 : s;
        }
    QCOMPARE(count, 460.0);
    QCOMPARE(time, 2299906.0);
}

namespace {
const QStringList OrderedNames = { QStringLiteral("main"), QStringLiteral("lulesh.cycle"),
    QStringLiteral("TimeIncrement"), QStringLiteral("LagrangeLeapFrog"), QStringLiteral("LagrangeNodal"),
    QStringLiteral("CalcForceForNodes"), QStringLiteral("CalcVolumeForceForElems"),
    QStringLiteral("IntegrateStressForElems"), QStringLiteral("CalcHourglassControlForElems"),
    QStringLiteral("CalcFBHourglassForceForElems"), QStringLiteral("LagrangeElements"),
    QStringLiteral("CalcLagrangeElements"), QStringLiteral("CalcKinematicsForElems"), QStringLiteral("CalcQForElems"),
    QStringLiteral("CalcMonotonicQForElems"), QStringLiteral("ApplyMaterialPropertiesForElems"),
    QStringLiteral("EvalEOSForElems"), QStringLiteral("CalcEnergyForElems"),
    QStringLiteral("CalcTimeConstraintsForElems") };
}

void TestCaliReader::orderedJsonFacts()
{
    const auto t = mustRead(orderedJson());
    QVERIFY(t);
    QCOMPARE(flatNames(*t), OrderedNames);
    // "Node order" is consumed: the only metric is time (sec, exclusive).
    QCOMPARE(t->metricCount(), std::size_t(1));
    QVERIFY(!t->findMetric(QStringLiteral("Node order")).isValid());
    QCOMPARE(t->metric(MetricId(0u)).unit, QStringLiteral("sec"));
    const double times[] = { 0.018887, 0.000154, 0.000100, 0.000159, 0.038220, 0.005107, 0.004684, 0.161500, 0.163350,
        0.239820, 0.003603, 0.007004, 0.168298, 0.097482, 0.038570, 0.006099, 0.102499, 0.190896, 0.010730 };
    for (int i = 0; i < OrderedNames.size(); ++i)
        QVERIFY2(near(excl(*t, 0, OrderedNames[i]), times[i]), qPrintable(OrderedNames[i]));
    // The unattributed row has order 0: it is the first event.
    QCOMPARE(t->event(EventId(0u)).name, Unattributed);
    QVERIFY(near(excl(*t, 0, Unattributed), 0.009792));
    QCOMPARE(t->threadCount(), std::size_t(1));
    // 24 globals.
    const char* globals[] = { "mpi.world.size", "cali.caliper.version", "figure_of_merit", "elapsed_time",
        "Compiler Flags", "Built by", "Compiler Version", "Compiler Name", "region_balance", "region_cost",
        "num_regions", "problem_size", "iterations", "threads", "jobsize", "cluster", "cmdline", "libraries",
        "executablepath", "launchdate", "user", "cali.channel" };
    int found = 0;
    for (const char* key : globals)
        found += meta(*t, key).isNull() ? 0 : 1;
    // MANIFEST.md says "24 global metadata keys"; the file has 26 top-level keys, 4 of them the
    // json-split sections, so 22 globals (Hatchet's metadata has the same 22).
    QCOMPARE(found, 22);
    // + Caliper format, regions, records, profile, region attributes.
    QCOMPARE(t->metadata().size(), std::size_t(22 + 5));
    QCOMPARE(meta(*t, "Caliper regions"), QStringLiteral("19"));
    QCOMPARE(meta(*t, "Caliper records"), QStringLiteral("20"));
    QCOMPARE(meta(*t, "cluster"), QStringLiteral("quartz"));
    QCOMPARE(meta(*t, "cali.caliper.version"), QStringLiteral("2.10.0-dev"));
    QCOMPARE(meta(*t, "Compiler Flags"), QString());
}

void TestCaliReader::orderedCaliFacts_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("hatchet") << orderedCali();
    QTest::newRow("thicket") << orderedCaliThicket();
}

void TestCaliReader::orderedCaliFacts()
{
    QFETCH(QString, path);
    const auto t = mustRead(path);
    QVERIFY(t);
    QCOMPARE(flatNames(*t), OrderedNames);
    const double total[] = { 1.250952, 1.229935, 0.000085, 1.229702, 0.604766, 0.566399, 0.561237, 0.161196, 0.395344,
        0.239849, 0.614079, 0.175102, 0.168127, 0.136318, 0.038575, 0.299062, 0.293046, 0.190395, 0.010707 };
    for (int i = 0; i < OrderedNames.size(); ++i) {
        QVERIFY2(near(incl(*t, 0, OrderedNames[i]), total[i]), qPrintable(OrderedNames[i]));
        // Min = Max = Avg = Total for one rank, kept as the source's statistics.
        QVERIFY2(near(provided(*t, -1, OrderedNames[i]), total[i]), qPrintable(OrderedNames[i]));
    }
    QVERIFY(near(incl(*t, 0, Unattributed), 0.003573));
    QVERIFY(near(provided(*t, -4, QStringLiteral("main")), 1.250952));
    QVERIFY(near(provided(*t, -5, QStringLiteral("main")), 1.250952));
    QVERIFY(near(provided(*t, -2, QStringLiteral("main")), 1.250952));
    QCOMPARE(t->providedStatistic(-1)->name, QStringLiteral("Avg time/rank"));
    // 20 ctx rows: 19 regions + 1 without a region; the statistics cover the 19 regions (call paths
    // and the root), the 18 unique flat names of non-roots, and the unattributed row.
    QCOMPARE(meta(*t, "Caliper regions"), QStringLiteral("19"));
    QCOMPARE(meta(*t, "Caliper records"), QStringLiteral("20"));
    QCOMPARE(t->providedStatistic(-1)->row.size(), std::size_t(19 + 18 + 1));
    QVERIFY(near(provided(*t, -1, QStringLiteral("main => lulesh.cycle")), 1.229935));
    QVERIFY(near(provided(*t, -1, Unattributed), 0.003573));
    QVERIFY(std::isnan(t->providedStatistic(-1)->row.excl[0]));
    QCOMPARE(t->threadCount(), std::size_t(1));
    QCOMPARE(t->event(EventId(0u)).name, Unattributed); // Node order 0
    QVERIFY(!t->findMetric(QStringLiteral("Node order")).isValid());
    QCOMPARE(t->metric(t->findMetric(QStringLiteral("time"))).unit, QStringLiteral("sec"));
    QCOMPARE(meta(*t, "cluster"), QStringLiteral("quartz"));
    QCOMPARE(meta(*t, "jobsize"), QStringLiteral("1"));
    QCOMPARE(meta(*t, "problem_size"), QStringLiteral("30"));
    QCOMPARE(meta(*t, "cali.caliper.version"), QStringLiteral("2.10.0-dev"));
    QCOMPARE(meta(*t, "spot.options"), QStringLiteral("node.order"));
    // An escaped ',' inside a value.
    QVERIFY(meta(*t, "spot.metrics").startsWith(QStringLiteral("min#inclusive#sum#time.duration,max#")));
    QCOMPARE(meta(*t, "cmdline"), QStringLiteral("[./lulesh2.0,-i,10,-P,spot]"));
    QCOMPARE(meta(*t, "spot.channel"), QStringLiteral("regionprofile"));
    QVERIFY(meta(*t, "Caliper hidden attributes").contains(QStringLiteral("avg.count#inclusive#sum#time.duration")));
}

void TestCaliReader::luleshCaliFacts()
{
    const auto t = mustRead(luleshCali());
    QVERIFY(t);
    QCOMPARE(flatNames(*t).size(), 19);
    QCOMPARE(maxDepth(*t), 8);
    QCOMPARE(countEvents(*t, true), std::size_t(18));
    QCOMPARE(meta(*t, "cali.caliper.version"), QStringLiteral("2.2.0-dev"));
    QCOMPARE(meta(*t, "cali.channel"), QStringLiteral("default"));
    // 20 ctx rows: 19 region paths and the record of the channel node alone (unattributed).
    int rows = 0;
    for (EventId e : t->row(ThreadIndex(0u)).events)
        rows += t->event(e).isCallPath() || t->event(e).name == QLatin1String("main")
            || t->event(e).name == Unattributed;
    QCOMPARE(rows, 20);
    QVERIFY(near(excl(*t, 0, Unattributed), 0.001297));
    // sum#time.duration is the exclusive time (double: seconds); count is additive; min/max/avg not.
    QCOMPARE(t->metric(t->findMetric(QStringLiteral("time"))).unit, QStringLiteral("sec"));
    QVERIFY(near(excl(*t, 0, QStringLiteral("main")), 0.025121));
    QVERIFY(near(excl(*t, 0, QStringLiteral("CalcEnergyForElems")), 0.095906));
    QCOMPARE(excl(*t, 0, QStringLiteral("main"), QStringLiteral("count")), 2.0);
    QCOMPARE(t->metric(t->findMetric(QStringLiteral("count"))).unit, QStringLiteral("count"));
    QVERIFY(near(excl(*t, 0, QStringLiteral("main"), QStringLiteral("min#time.duration")), 0.000285));
    QVERIFY(near(incl(*t, 0, QStringLiteral("main"), QStringLiteral("max#time.duration")), 0.024836));
    QVERIFY(meta(*t, "Caliper non-additive metrics").contains(QStringLiteral("avg#time.duration")));
    // main's inclusive time is the sum of all exclusive times under it.
    double sum = 0;
    for (const QString& name : flatNames(*t))
        sum += excl(*t, 0, name);
    QVERIFY(near(incl(*t, 0, QStringLiteral("main")), sum));
}

void TestCaliReader::mpiScaling_data()
{
    QTest::addColumn<int>("cores");
    QTest::addColumn<double>("avgMain");
    QTest::newRow("27") << 27 << 47.238297;
    QTest::newRow("64") << 64 << 55.112951;
    QTest::newRow("125") << 125 << 56.238243;
    QTest::newRow("216") << 216 << 42.838467;
    QTest::newRow("343") << 343 << 52.588103;
}

void TestCaliReader::mpiScaling()
{
    QFETCH(int, cores);
    QFETCH(double, avgMain);
    const auto t = mustRead(scaling(cores));
    QVERIFY(t);
    QCOMPARE(meta(*t, "mpi.world.size"), QString::number(cores));
    QVERIFY(near(provided(*t, -1, QStringLiteral("main")), avgMain));
    // 46 ctx rows = 45 regions (8 roots, 37 call paths, depth <= 8, 32 names) + 1 unattributed.
    QCOMPARE(meta(*t, "Caliper regions"), QStringLiteral("45"));
    QCOMPARE(meta(*t, "Caliper records"), QStringLiteral("46"));
    QCOMPARE(countEvents(*t, true), std::size_t(37));
    QCOMPARE(flatNames(*t).size(), 32);
    QVERIFY(!std::isnan(provided(*t, -1, Unattributed)));
    // MPI_Allreduce is a root and also under TimeIncrement: a warning says its event holds flat totals.
    QVERIFY(t->warnings().join(QLatin1Char(' ')).contains(QStringLiteral("root region(s) also occur deeper")));
    QCOMPARE(maxDepth(*t), 8);
    QVERIFY(t->findEvent(Unattributed).isValid());
    QVERIFY(
        t->findEvent(QStringLiteral("main => lulesh.cycle => LagrangeLeapFrog => LagrangeNodal => CalcForceForNodes "
                                    "=> MPI_Wait"))
            .isValid());
    QVERIFY(t->eventInGroup(t->findEvent(QStringLiteral("MPI_Bcast")), QStringLiteral("mpi.function")));
    QVERIFY(t->eventInGroup(t->findEvent(QStringLiteral("lulesh.cycle")), QStringLiteral("loop")));
    // One aggregate thread holding Total time (the sum over ranks).
    QCOMPARE(t->threadCount(), std::size_t(1));
    QCOMPARE(meta(*t, "cluster"), QStringLiteral("opal"));
    QCOMPARE(meta(*t, "compiler"), QStringLiteral("intel"));
    QCOMPARE(meta(*t, "problem_size"), QStringLiteral("30"));
    QCOMPARE(meta(*t, "cali.caliper.version"), QStringLiteral("2.5.0"));
    if (cores == 27) {
        QVERIFY(near(provided(*t, -4, QStringLiteral("main")), 47.226995));
        QVERIFY(near(provided(*t, -5, QStringLiteral("main")), 47.248547));
        QVERIFY(near(provided(*t, -2, QStringLiteral("main")), 1275.434023));
        QVERIFY(near(incl(*t, 0, QStringLiteral("main")), 1275.434023));
        QVERIFY(near(incl(*t, 0, Unattributed), 0.053702));
    }
    if (cores == 343)
        QVERIFY(near(incl(*t, 0, QStringLiteral("main")), 18037.719346));
}

void TestCaliReader::rajaperfFacts()
{
    const auto t = mustRead(rajaperf(1));
    QVERIFY(t);
    QCOMPARE(meta(*t, "Caliper regions"), QStringLiteral("74")); // + 1 unattributed record
    QCOMPARE(meta(*t, "Caliper records"), QStringLiteral("75"));
    QCOMPARE(t->providedStatistic(-1)->row.size(), std::size_t(74 + 73 + 1));
    QCOMPARE(flatNames(*t).size(), 74);
    QCOMPARE(flatNames(*t).front(), QStringLiteral("RAJAPerf"));
    QCOMPARE(countEvents(*t, true), std::size_t(73));
    QVERIFY(maxDepth(*t) <= 3);
    QVERIFY(near(provided(*t, -1, QStringLiteral("RAJAPerf")), 103.47638));
    QVERIFY(near(incl(*t, 0, QStringLiteral("RAJAPerf")), 103.47638));
    // Per-kernel attributes are non-additive metrics named by their alias.
    for (const char* m :
        { "BlockSize", "Bytes/Rep", "Flops/Rep", "Iterations/Rep", "Kernels/Rep", "ProblemSize", "Reps" })
        QVERIFY2(t->findMetric(QLatin1String(m)).isValid(), m);
    QCOMPARE(excl(*t, 0, QStringLiteral("RAJAPerf"), QStringLiteral("Reps")), 2500.0);
    QCOMPARE(excl(*t, 0, QStringLiteral("RAJAPerf"), QStringLiteral("ProblemSize")), 1135363.0);
    QCOMPARE(excl(*t, 0, QStringLiteral("RAJAPerf => Basic => Basic_COPY8"), QStringLiteral("Bytes/Rep")), 134217728.0);
    QCOMPARE(incl(*t, 0, QStringLiteral("RAJAPerf => Basic => Basic_COPY8"), QStringLiteral("Bytes/Rep")), 134217728.0);
    QCOMPARE(excl(*t, 0, QStringLiteral("Basic_DAXPY"), QStringLiteral("Reps")), 500.0);
    QCOMPARE(meta(*t, "variant"), QStringLiteral("Base_Seq"));
    QCOMPARE(meta(*t, "tuning"), QStringLiteral("default"));
    QCOMPARE(meta(*t, "compiler"), QStringLiteral("g++-10.3.1"));
    QCOMPARE(meta(*t, "cluster"), QStringLiteral("quartz"));
    QVERIFY(!t->findMetric(QStringLiteral("Node order")).isValid());
}

void TestCaliReader::rajaperfAcrossRepetitions()
{
    const double expected[] = { 103.476380, 98.826122, 101.362518, 95.987373 };
    std::vector<double> avg;
    for (int rep = 1; rep <= 4; ++rep) {
        const auto t = mustRead(rajaperf(rep));
        QVERIFY(t);
        avg.push_back(provided(*t, -1, QStringLiteral("RAJAPerf")));
        QVERIFY(near(avg.back(), expected[rep - 1]));
        QCOMPARE(meta(*t, "Caliper records"), QStringLiteral("75"));
    }
    const double mean = std::accumulate(avg.begin(), avg.end(), 0.0) / 4;
    double ss = 0;
    for (double v : avg)
        ss += (v - mean) * (v - mean);
    QVERIFY(std::fabs(mean - 99.913098) < 5e-7);
    QVERIFY(std::fabs(std::sqrt(ss / 3) - 3.234740) < 5e-7);
    QVERIFY(std::fabs(std::sqrt(ss / 4) - 2.801367) < 5e-7);
}

void TestCaliReader::consistency_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("lulesh-json") << luleshJson();
    QTest::newRow("cpi-json") << cpiJson();
    QTest::newRow("ordered-json") << orderedJson();
    QTest::newRow("ordered-cali") << orderedCali();
    QTest::newRow("lulesh-cali") << luleshCali();
    QTest::newRow("27_cores") << scaling(27);
    QTest::newRow("rajaperf") << rajaperf(2);
}

void TestCaliReader::consistency()
{
    QFETCH(QString, path);
    const auto t = mustRead(path);
    QVERIFY(t);
    checkResiduals(*t);
    for (const auto& e : t->events())
        if (e.isCallPath())
            QVERIFY2(e.parent.isValid() && e.leaf.isValid(), qPrintable(e.name));
}

namespace {

/// A small .cali: attributes (function nested, mpi.rank, sum#time.duration double) and regions
/// a => b => a (recursion) with exclusive times per rank as immediates.
QByteArray fixtureCali()
{
    return "__rec=node,id=12,attr=10,data=268,parent=3\n"
           "__rec=node,id=13,attr=8,data=function,parent=12\n"
           "__rec=node,id=14,attr=10,data=21,parent=5\n"
           "__rec=node,id=15,attr=8,data=sum#time.duration,parent=14\n"
           "__rec=node,id=16,attr=10,data=20,parent=1\n"
           "__rec=node,id=17,attr=8,data=mpi.rank,parent=16\n"
           "__rec=node,id=20,attr=13,data=a\n"
           "__rec=node,id=21,attr=13,data=b,parent=20\n"
           "__rec=node,id=22,attr=13,data=a,parent=21\n"
           "__rec=ctx,ref=20,attr=17=15,data=0=1.5\n"
           "__rec=ctx,ref=21,attr=17=15,data=0=2\n"
           "__rec=ctx,ref=22,attr=17=15,data=0=4\n"
           "__rec=ctx,ref=22,attr=17=15,data=3=8\n"
           "__rec=ctx,attr=17=15,data=3=0.25\n"
           "__rec=globals,attr=13,data=x\n";
}

std::shared_ptr<Trial> readText(
    const QTemporaryDir& dir, const QString& name, const QByteArray& text, TrialResult* out = nullptr)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return nullptr;
    f.write(text);
    f.close();
    const bool json = name.endsWith(QLatin1String(".json"));
    TrialResult r = json ? readWith(CaliJsonReader(), path) : readWith(CaliReader(), path);
    if (out)
        *out = r;
    if (!r.ok()) {
        qWarning("%s", qPrintable(r.error().toString()));
        return nullptr;
    }
    return r.value();
}

} // namespace

void TestCaliReader::fixtureRanksAndRecursion()
{
    QTemporaryDir dir;
    const auto t = readText(dir, QStringLiteral("f.cali"), fixtureCali());
    QVERIFY(t);
    // Ranks 0 and 3 only: sparse threads.
    QCOMPARE(t->threadCount(), std::size_t(2));
    QVERIFY(t->findThread({ 3, 0, 0 }).isValid());
    // Inclusive values from the tree: a => b => a = 4, b = 2 + 4, a = 1.5 + 6.
    QCOMPARE(incl(*t, 0, QStringLiteral("a => b => a")), 4.0);
    QCOMPARE(incl(*t, 0, QStringLiteral("a => b")), 6.0);
    QCOMPARE(excl(*t, 0, QStringLiteral("a")), 5.5); // flat: 1.5 + 4
    QCOMPARE(incl(*t, 0, QStringLiteral("a")), 7.5); // flat: outermost a only
    QCOMPARE(t->row(ThreadIndex(0u)).calls[0], 0.0);
    // Rank 3 ran a => b => a only: its ancestors are present with exclusive 0.
    QCOMPARE(excl(*t, 3, QStringLiteral("a => b")), 0.0);
    QCOMPARE(incl(*t, 3, QStringLiteral("a => b")), 8.0);
    QCOMPARE(excl(*t, 3, QStringLiteral("a")), 8.0);
    QCOMPARE(incl(*t, 3, QStringLiteral("a")), 8.0);
    QCOMPARE(excl(*t, 3, Unattributed), 0.25);
    QCOMPARE(excl(*t, 0, Unattributed), Absent);
    QCOMPARE(meta(*t, "function"), QStringLiteral("x"));
    QCOMPARE(meta(*t, "Caliper profile"), QStringLiteral("per rank"));
    // The same profile as json-split, with a string cell and nulls.
    const QByteArray json = R"({"data": [[1.5, 0, 0], [2, 0, 1], [4, 0, 2], [8, 3, 2], ["0.25", 3, null]],
        "columns": ["sum#time.duration", "mpi.rank", "path"],
        "column_metadata": [{"is_value": true}, {"is_value": true}, {"is_value": false}],
        "nodes": [{"label": "a", "column": "path"}, {"label": "b", "column": "path", "parent": 0},
                  {"label": "a", "column": "path", "parent": 1}],
        "cluster": "test\u00e9", "n": [1, 2]})";
    const auto j = readText(dir, QStringLiteral("f.json"), json);
    QVERIFY(j);
    QCOMPARE(incl(*j, 0, QStringLiteral("a")), 7.5);
    QCOMPARE(incl(*j, 3, QStringLiteral("a => b")), 8.0);
    QCOMPARE(excl(*j, 3, Unattributed), 0.25);
    QCOMPARE(j->metric(MetricId(0u)).unit, QStringLiteral("sec"));
    QCOMPARE(meta(*j, "cluster"), QString(QStringLiteral("test") + QChar(0xe9)));
    QCOMPARE(meta(*j, "n"), QStringLiteral("[1, 2]"));
}

void TestCaliReader::fixtureEscapes()
{
    QTemporaryDir dir;
    QByteArray text = fixtureCali();
    text.replace("data=b,parent=20", "data=b\\,c\\=d\\\\e => f,parent=20");
    const auto t = readText(dir, QStringLiteral("e.cali"), text);
    QVERIFY(t);
    QVERIFY2(
        t->findEvent(QStringLiteral("b,c=d\\e = > f")).isValid(), qPrintable(flatNames(*t).join(QLatin1Char('|'))));
    QCOMPARE(incl(*t, 0, QStringLiteral("a => b,c=d\\e = > f")), 6.0);
}

void TestCaliReader::fixtureRanklessRecords()
{
    QTemporaryDir dir;
    QByteArray text = fixtureCali();
    text.replace("__rec=ctx,ref=21,attr=17=15,data=0=2\n", "__rec=ctx,ref=21,attr=15,data=2\n");
    const auto t = readText(dir, QStringLiteral("r.cali"), text);
    QVERIFY(t);
    QCOMPARE(incl(*t, 0, QStringLiteral("a => b")), 6.0);
    // The record without mpi.rank, and the root a that also occurs as a => b => a.
    QCOMPARE(t->warnings().size(), 2);
    QVERIFY(t->warnings().join(QLatin1Char(' ')).contains(QStringLiteral("1 record(s) have no mpi.rank")));
}

void TestCaliReader::fixtureSkippedValuesAndStrict()
{
    QTemporaryDir dir;
    QByteArray text = fixtureCali();
    // A string-typed immediate (not a metric) and a record kind this reader does not know.
    text.replace("__rec=globals",
        "__rec=node,id=30,attr=8,data=note,parent=3\n__rec=ctx,ref=20,attr=30,data=hi\n"
        "__rec=snapshot,ref=20\n__rec=globals");
    const auto t = readText(dir, QStringLiteral("s.cali"), text);
    QVERIFY(t);
    const QString warnings = t->warnings().join(QLatin1Char(' '));
    QVERIFY2(warnings.contains(QStringLiteral("1 immediate value(s) of non-numeric attributes were not loaded (note)")),
        qPrintable(warnings));
    QVERIFY2(
        warnings.contains(QStringLiteral("1 record(s) of unknown kind were skipped (first: 'snapshot' at line 17)")),
        qPrintable(warnings));
    const QString path = dir.filePath(QStringLiteral("s.cali"));
    ReadOptions strict;
    strict.strict = true;
    Progress progress;
    const TrialResult r = CaliReader().read(path, strict, progress);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().line, qint64(16));
    QVERIFY(r.error().message.contains(QStringLiteral("'note'")));
}

void TestCaliReader::badCali_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");
    const QByteArray good = fixtureCali();
    QTest::newRow("truncated") << good.left(good.indexOf("data=0=4") + 7) << 12 << QStringLiteral("truncated");
    QByteArray escape = good;
    escape.replace("data=0=2\n", "data=0=2\\\n");
    QTest::newRow("broken escape") << escape << 11 << QStringLiteral("escape");
    QByteArray dangling = good;
    dangling.replace("data=a,parent=21", "data=a,parent=99");
    QTest::newRow("dangling parent") << dangling << 9 << QStringLiteral("99");
    QByteArray danglingRef = good;
    danglingRef.replace("ref=22,attr=17=15,data=3=8", "ref=23,attr=17=15,data=3=8");
    QTest::newRow("dangling ref") << danglingRef << 13 << QStringLiteral("23");
    QByteArray mismatch = good;
    mismatch.replace("attr=17=15,data=0=1.5", "attr=17=15,data=0");
    QTest::newRow("attr/data length") << mismatch << 10 << QStringLiteral("same length");
    QByteArray notRecord = good;
    notRecord.replace("__rec=node,id=14,", "\x01\x02garbage,id=14,");
    QTest::newRow("corrupted bytes") << notRecord << 3 << QStringLiteral("__rec=");
    QByteArray number = good;
    number.replace("data=0=4", "data=0=4x");
    QTest::newRow("not a number") << number << 12 << QStringLiteral("not a number");
    QByteArray notAttr = good;
    notAttr.replace("id=20,attr=13", "id=20,attr=12");
    QTest::newRow("attr not an attribute") << notAttr << 7 << QStringLiteral("not an attribute");
    QByteArray redefined = good;
    redefined.replace("__rec=node,id=21,attr=13,data=b,parent=20", "__rec=node,id=20,attr=13,data=b,parent=20");
    QTest::newRow("redefined node") << redefined << 8 << QStringLiteral("defined again");
    QByteArray rank = good;
    rank.replace("data=3=8", "data=-3=8");
    QTest::newRow("bad rank") << rank << 13 << QStringLiteral("mpi.rank");
    QTest::newRow("empty") << QByteArray() << 0 << QStringLiteral("no __rec=ctx");
}

void TestCaliReader::badCali()
{
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(QString, message);
    QTemporaryDir dir;
    TrialResult r = ReadError {};
    readText(dir, QStringLiteral("bad.cali"), text, &r);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().file, dir.filePath(QStringLiteral("bad.cali")));
    QCOMPARE(r.error().line, qint64(line));
    QVERIFY2(r.error().message.contains(message), qPrintable(r.error().toString()));
    QVERIFY(r.error().toString().contains(QStringLiteral("bad.cali")));
}

void TestCaliReader::badJson_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");
    const QByteArray good
        = "{\"data\": [\n[1.5, 0, 0],\n[2, 0, 1]\n],\n\"columns\": [\"sum#time.duration\", \"mpi.rank\", "
          "\"path\"],\n\"column_metadata\": [{\"is_value\": true}, {\"is_value\": true}, {\"is_value\": "
          "false}],\n\"nodes\": [{\"label\": \"a\", \"column\": \"path\"},\n{\"label\": \"b\", \"column\": "
          "\"path\", \"parent\": 0}]}\n";
    QTest::newRow("truncated") << good.left(good.size() - 20) << 8 << QStringLiteral("end of file");
    QByteArray row = good;
    row.replace("[2, 0, 1]", "[2, 0]");
    QTest::newRow("short row") << row << 3 << QStringLiteral("2 cells, expected 3");
    QByteArray index = good;
    index.replace("[2, 0, 1]", "[2, 0, 7]");
    QTest::newRow("bad node index") << index << 3 << QStringLiteral("not a node index");
    QByteArray parent = good;
    parent.replace("\"parent\": 0", "\"parent\": 5");
    QTest::newRow("forward parent") << parent << 8 << QStringLiteral("not an earlier node");
    QByteArray escape = good;
    escape.replace("\"label\": \"b\"", "\"label\": \"b\\q\"");
    QTest::newRow("broken escape") << escape << 8 << QStringLiteral("escape");
    QByteArray garbage = good;
    garbage.replace("[1.5, 0, 0]", "[1.5, 0, 0}");
    QTest::newRow("corrupted bytes") << garbage << 2 << QStringLiteral("expected");
    QByteArray noNodes = good;
    noNodes.replace("\"nodes\"", "\"nodez\"");
    QTest::newRow("wrong structure") << noNodes << 0 << QStringLiteral("no \"nodes\"");
    QByteArray rank = good;
    rank.replace("[1.5, 0, 0]", "[1.5, 0.5, 0]");
    QTest::newRow("bad rank") << rank << 2 << QStringLiteral("mpi.rank");
    QByteArray meta = good;
    meta.replace("{\"is_value\": true}, {\"is_value\": true}, ", "{\"is_value\": true}, ");
    QTest::newRow("metadata count") << meta << 6 << QStringLiteral("2 entries for 3 columns");
}

void TestCaliReader::badJson()
{
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(QString, message);
    QTemporaryDir dir;
    TrialResult r = ReadError {};
    readText(dir, QStringLiteral("bad.json"), text, &r);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().file, dir.filePath(QStringLiteral("bad.json")));
    QCOMPARE(r.error().line, qint64(line));
    QVERIFY2(r.error().message.contains(message), qPrintable(r.error().toString()));
}

void TestCaliReader::jsonOutOfRangeNumbers()
{
    // 1e400 is beyond the largest double: it reads as inf (strtod's and JSON.parse's answer; it used
    // to read as 0), with a warning naming the file, the line and the byte. -1e400 is -inf;
    // 1e-400 is 0, which is the nearest double and needs no warning.
    const QByteArray text = "{\"data\": [\n[1.5, 0, 0],\n[1e400, 0, 1],\n[-1e400, 1, 1],\n[1e-400, 1, 0]\n],\n"
                            "\"columns\": [\"sum#time.duration\", \"mpi.rank\", \"path\"],\n\"column_metadata\": "
                            "[{\"is_value\": true}, {\"is_value\": true}, {\"is_value\": false}],\n\"nodes\": "
                            "[{\"label\": \"a\", \"column\": \"path\"},\n{\"label\": \"b\", \"column\": "
                            "\"path\", \"parent\": 0}]}\n";
    QTemporaryDir dir;
    const auto t = readText(dir, QStringLiteral("big.json"), text);
    QVERIFY(t);
    const double inf = std::numeric_limits<double>::infinity();
    QCOMPARE(excl(*t, 0, QStringLiteral("a => b")), inf);
    QCOMPARE(excl(*t, 1, QStringLiteral("a => b")), -inf);
    QCOMPARE(excl(*t, 0, QStringLiteral("a")), 1.5);
    QCOMPARE(excl(*t, 1, QStringLiteral("a")), 0.0);
    const QString warnings = t->warnings().join(QLatin1Char('\n'));
    const qint64 byte = text.indexOf("1e400");
    QVERIFY2(warnings.contains(QStringLiteral("%1:3: number 1e400 at byte %2 is beyond the range of a double; read "
                                              "as inf (2 such numbers in the file)")
                                   .arg(dir.filePath(QStringLiteral("big.json")))
                                   .arg(byte)),
        qPrintable(warnings));
}

QTEST_GUILESS_MAIN(TestCaliReader)
#include "tst_calireader.moc"
