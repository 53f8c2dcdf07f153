// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The flame-graph model (algebra/flame.h, issue 16): the layout of a small tree, zoom, slivers,
// statistics that do not add up, search, direct recursion, the sandwich, the differential union tree
// and folded stacks; and, on every call-path sample of ../shared/data, that the folded values add
// up to the sum of the exclusive values over the call paths, summed from the trial's rows.
#include "algebra/flame.h"
#include "algebrafixture.h"
#include "tests/common/testutil.h"

#include <QTest>
#include <cmath>
#include <numeric>
#include <set>

using namespace parallax;
using namespace parallax::test;

namespace {

/// main 10 (self), main => a 30, main => a => c 20, main => b 60 on (0,0,0); main 20 and
/// main => b 20 on (1,0,0). Inclusive on thread 0: c 20, a 50, b 60, main 120; on thread 1: b 20,
/// main 40.
TrialP smallTrial()
{
    return treeTrial(QStringLiteral("small"),
        { { R0,
              { { QStringLiteral("main"), 10 }, { QStringLiteral("main => a"), 30 },
                  { QStringLiteral("main => a => c"), 20 }, { QStringLiteral("main => b"), 60 } } },
            { R1, { { QStringLiteral("main"), 20 }, { QStringLiteral("main => b"), 20 } } } });
}

/// Two runs of one code: A source-instrumented (signatures and source locations), B
/// compiler-instrumented; A calls old(), B fresh.
std::pair<TrialP, TrialP> instrumentedTwoWays()
{
    auto a = treeTrial(QStringLiteral("A"),
        { { R0,
            { { QStringLiteral("main"), 10 }, { QStringLiteral("main => int solve(int) C [{s.c} {3,1}-{9,1}]"), 50 },
                { QStringLiteral("main => int solve(int) C [{s.c} {3,1}-{9,1}] => MPI_Allreduce()"), 20 },
                { QStringLiteral("main => old()"), 5 } } } });
    auto b = treeTrial(QStringLiteral("B"),
        { { R0,
            { { QStringLiteral("main"), 10 }, { QStringLiteral("main => solve"), 40 },
                { QStringLiteral("main => solve => MPI_Allreduce"), 45 }, { QStringLiteral("main => fresh"), 7 } } } });
    return { std::move(a), std::move(b) };
}

int nodeNamed(const FlameTree& t, const QStringList& path)
{
    for (std::size_t i = 0; i < t.nodes().size(); ++i)
        if (t.path(static_cast<int>(i)) == path)
            return static_cast<int>(i);
    return -1;
}

const FlameFrame* frameOf(const FlameTree& t, const FlameLayout& l, const QStringList& path)
{
    const int n = nodeNamed(t, path);
    for (const FlameFrame& f : l.frames)
        if (f.node == n && n >= 0)
            return &f;
    return nullptr;
}

#define CHECK_FRAME(tree, layout, path, depth_, x_, width_)                                                            \
    do {                                                                                                               \
        const FlameFrame* f_ = frameOf((tree), (layout), (path));                                                      \
        QVERIFY2(f_, qPrintable((path).join(QLatin1Char(';'))));                                                       \
        QCOMPARE(f_->depth, depth_);                                                                                   \
        QVERIFY2(near(f_->x, x_) && near(f_->width, width_),                                                           \
            qPrintable(                                                                                                \
                QStringLiteral("%1: x %2 width %3").arg((path).join(QLatin1Char(';'))).arg(f_->x).arg(f_->width)));    \
    } while (0)

QString folded(const FlameTree& t)
{
    QString s;
    QTextStream out(&s);
    writeFolded(t, out);
    out.flush();
    return s;
}

QStringList p(std::initializer_list<const char*> names)
{
    QStringList out;
    for (const char* n : names)
        out << QString::fromUtf8(n);
    return out;
}

/// The call-path samples of ../shared/data (every format that records call paths), found through
/// the MANIFESTs and `parallax-cli info --json` (callpaths > 0).
const char* const callPathSamples[] = {
    "tau2/tau-profiles-callpath-cpi-4rank",
    "hatchet/tau-cpi-mpi",
    "tau2/ppk/phases-callpath-1thread.ppk",
    "tau2/ppk/wrf-callpath-16rank.ppk",
    "tau2/ppk/matmult-openmp-24thread-samples.ppk",
    "tau2/ppk/matmult-heatmap.ppk",
    "tau2/cube-scorep-cpi/profile.cubex",
    "cube/pycubexr/call_tree_test/call_tree_test.cubex",
    "cube/pycubexr/kripke.p8.d2.g32.r1/profile.cubex",
    "cube/pycubexr/time.p4.n2000.x1.r0/profile.cubex",
    "cube/scalasca-cube3/cubew-test3-template.cube",
    "cube/scalasca-cube3/kojak-example-ctest-pomp.cube",
    "cubelib/test/test33_CubeProxy/proxy.cubex",
    "cubelib/test/test28/template2.cube",
    "hatchet/hpctoolkit-cpi-database",
    "hatchet/caliper-cpi-json/cpi-callpath-profile.json",
    "hatchet/caliper-lulesh-cali/lulesh-annotation-profile.cali",
    "hatchet/caliper-lulesh-json/lulesh-annotation-profile.json",
    "hatchet/caliper-ordered-json/caliper-region-node-order.json",
    "thicket/mpi_scaling_cali/64_cores.cali",
    "hatchet/cprofile-hatchet-pstats/cprofile-cycle.pstats",
    "hatchet/cprofile-hatchet-pstats/cprofile-cycle-py2.pstats",
    "hatchet/pyinstrument-hatchet-json/pyinstrument-hatchet-profile.json",
    "hatchet/json/hatchet-graph-literal.json",
    "hatchet/timemory/wall.tree.json",
    "hatchet/gprof2dot-cpi/callgrind.dot.64042.0.1",
    "tau2/gprof-wrf/gprof.out",
    "gprof2dot/prof/gnu2.prof",
    "gprof2dot/prof/cycle.prof",
};

} // namespace

class TestFlame : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void layoutOfASmallTree()
    {
        const auto trial = smallTrial();
        const FlameTree t = FlameTree::of(*trial, MetricId(0u), { Statistic::Total, {} });
        QVERIFY(t.hasCallPaths());
        QCOMPARE(t.roots().size(), std::size_t(1));
        QVERIFY(near(t.total(), 160)); // 120 + 40
        const int a = nodeNamed(t, p({ "main", "a" }));
        QVERIFY(a >= 0);
        QVERIFY(near(t.node(a).inclusive, 50));
        QVERIFY(near(t.node(a).self, 30));

        // By value: b (80) before a (50) under main; c under a.
        const FlameLayout byValue = layoutFlame(t);
        QVERIFY(near(byValue.width, 160));
        QCOMPARE(byValue.depth, 3);
        QCOMPARE(byValue.frames.size(), std::size_t(4));
        CHECK_FRAME(t, byValue, p({ "main" }), 0, 0.0, 160.0);
        CHECK_FRAME(t, byValue, p({ "main", "b" }), 1, 0.0, 80.0);
        CHECK_FRAME(t, byValue, p({ "main", "a" }), 1, 80.0, 50.0);
        CHECK_FRAME(t, byValue, p({ "main", "a", "c" }), 2, 80.0, 20.0);
        // By name: a first.
        const FlameLayout byName = layoutFlame(t, { FlameOrder::ByName, -1, 0 });
        CHECK_FRAME(t, byName, p({ "main", "a" }), 1, 0.0, 50.0);
        CHECK_FRAME(t, byName, p({ "main", "b" }), 1, 50.0, 80.0);
        CHECK_FRAME(t, byName, p({ "main", "a", "c" }), 2, 0.0, 20.0);
        for (const FlameFrame& f : byValue.frames)
            QVERIFY(!f.sliver && !f.breadcrumb && !f.childrenScaled);
    }

    void zoomFillsTheWidth()
    {
        const auto trial = smallTrial();
        const FlameTree t = FlameTree::of(*trial, MetricId(0u), { Statistic::Total, {} });
        const int a = nodeNamed(t, p({ "main", "a" }));
        const FlameLayout z = layoutFlame(t, { FlameOrder::ByValue, a, 0 });
        QVERIFY(near(z.width, 50));
        QCOMPARE(z.frames.size(), std::size_t(3)); // main (breadcrumb), a, c; b is outside
        QVERIFY(z.frames[0].breadcrumb);
        CHECK_FRAME(t, z, p({ "main" }), 0, 0.0, 50.0);
        CHECK_FRAME(t, z, p({ "main", "a" }), 1, 0.0, 50.0);
        CHECK_FRAME(t, z, p({ "main", "a", "c" }), 2, 0.0, 20.0);
        QVERIFY(!frameOf(t, z, p({ "main", "b" })));
    }

    void narrowFramesBecomeOneSliverPerParent()
    {
        const auto trial = smallTrial();
        const FlameTree t = FlameTree::of(*trial, MetricId(0u), { Statistic::Total, {} });
        const FlameLayout l = layoutFlame(t, { FlameOrder::ByValue, -1, 55 });
        // a (50) is narrower than 55: a sliver after b; its child c is not laid out.
        CHECK_FRAME(t, l, p({ "main", "b" }), 1, 0.0, 80.0);
        QVERIFY(!frameOf(t, l, p({ "main", "a" })));
        QVERIFY(!frameOf(t, l, p({ "main", "a", "c" })));
        int slivers = 0;
        for (const FlameFrame& f : l.frames)
            if (f.sliver) {
                ++slivers;
                QCOMPARE(f.node, -1);
                QCOMPARE(f.merged, 1);
                QCOMPARE(f.depth, 1);
                QVERIFY(near(f.x, 80) && near(f.width, 50));
                QCOMPARE(l.frames[static_cast<std::size_t>(f.parent)].node, nodeNamed(t, p({ "main" })));
            }
        QCOMPARE(slivers, 1);

        // 50,000 nodes (built directly: the fixture's trial builder is quadratic in the paths of one
        // parent): a wide tree stays a few frames.
        std::vector<FlameTree::Node> big(1);
        big[0].name = QStringLiteral("main");
        big[0].inclusive = 1e6 + 50000;
        for (int i = 0; i < 50000; ++i) {
            FlameTree::Node n;
            n.name = QStringLiteral("f%1").arg(i);
            n.parent = 0;
            n.inclusive = n.self = 1.0 + (i == 0 ? 1e6 - 1 : 0);
            big.push_back(n);
        }
        const FlameTree bt = FlameTree::fromNodes(std::move(big));
        QCOMPARE(bt.nodes().size(), std::size_t(50001));
        QCOMPARE(bt.node(50000).depth, 1);
        const FlameLayout bl = layoutFlame(bt, { FlameOrder::ByValue, -1, bt.total() / 1000 });
        QCOMPARE(bl.frames.size(), std::size_t(3)); // main, f0, one sliver of 49,999
        QCOMPARE(bl.frames[2].merged, 49999);
        QVERIFY(near(bl.frames[2].width, 49999));
    }

    void statisticsAndThreads()
    {
        const auto trial = smallTrial();
        // Mean over all threads (absent = 0): main (120+40)/2, a 25, b 40, c 10.
        const FlameTree mean = FlameTree::of(*trial, MetricId(0u));
        QVERIFY(near(mean.total(), 80));
        QVERIFY(near(mean.node(nodeNamed(mean, p({ "main", "a" }))).inclusive, 25));
        QVERIFY(near(mean.node(nodeNamed(mean, p({ "main", "b" }))).inclusive, 40));
        // One thread: (1,0,0) has no a; "did not run" is 0 wide.
        const FlameTree t1 = FlameTree::of(*trial, MetricId(0u), { Statistic::MeanAll, ThreadIndex(1u) });
        QVERIFY(near(t1.total(), 40));
        QVERIFY(near(t1.node(nodeNamed(t1, p({ "main", "a" }))).inclusive, 0));
        QVERIFY(near(t1.node(nodeNamed(t1, p({ "main" }))).self, 20));
        // Min over the threads present does not add up: main 40, a 50, b 20; the children are scaled.
        const FlameTree mn = FlameTree::of(*trial, MetricId(0u), { Statistic::Min, {} });
        const FlameLayout l = layoutFlame(mn);
        QVERIFY(l.frames[0].childrenScaled);
        QVERIFY(near(l.frames[0].width, 40));
        double children = 0;
        for (const FlameFrame& f : l.frames)
            if (f.depth == 1)
                children += f.width;
        QVERIFY(near(children, 40));
        CHECK_FRAME(mn, l, p({ "main", "a" }), 1, 0.0, 40.0 * 50 / 70);
    }

    void searchCountsNestedMatchesOnce()
    {
        const auto trial = treeTrial(QStringLiteral("rec"),
            { { R0,
                { { QStringLiteral("main"), 1 }, { QStringLiteral("main => f"), 5 },
                    { QStringLiteral("main => f => f"), 3 }, { QStringLiteral("main => f => f => g"), 2 },
                    { QStringLiteral("main => f => g"), 4 }, { QStringLiteral("main => h"), 5 } } } });
        const FlameTree t = FlameTree::of(*trial, MetricId(0u));
        QVERIFY(near(t.total(), 20));
        const FlameSearchResult f = searchFlame(t, QStringLiteral("F"));
        QCOMPARE(f.nodes.size(), std::size_t(2));
        QVERIFY(near(f.value, 14)); // the outer f only: 5 + 3 + 2 + 4
        QVERIFY(near(f.share, 0.7));
        const FlameSearchResult g = searchFlame(t, QStringLiteral("g"));
        QCOMPARE(g.nodes.size(), std::size_t(2));
        QVERIFY(near(g.value, 6));
        // Within the inner f: g is 2 of its 5.
        const FlameSearchResult inner = searchFlame(t, QStringLiteral("g"), nodeNamed(t, p({ "main", "f", "f" })));
        QVERIFY(near(inner.value, 2) && near(inner.share, 0.4));
        QVERIFY(searchFlame(t, QStringLiteral("nothing")).nodes.empty());
    }

    void directRecursionMerges()
    {
        const auto trial = treeTrial(QStringLiteral("rec"),
            { { R0,
                { { QStringLiteral("main"), 1 }, { QStringLiteral("main => f"), 5 },
                    { QStringLiteral("main => f => f"), 3 }, { QStringLiteral("main => f => f => g"), 2 },
                    { QStringLiteral("main => f => g"), 4 } } } });
        const FlameTree merged = FlameTree::of(*trial, MetricId(0u), {}, true);
        QCOMPARE(merged.nodes().size(), std::size_t(3)); // main, f, g
        const auto& f = merged.node(nodeNamed(merged, p({ "main", "f" })));
        QVERIFY(near(f.inclusive, 14) && near(f.self, 8));
        const auto& g = merged.node(nodeNamed(merged, p({ "main", "f", "g" })));
        QVERIFY(near(g.inclusive, 6) && near(g.self, 6));
        QVERIFY(!g.event.isValid()); // two call paths in one frame
        QCOMPARE(folded(merged), QStringLiteral("main 1\nmain;f 8\nmain;f;g 6\n"));
        // Unmerged: every path as it is.
        QCOMPARE(folded(FlameTree::of(*trial, MetricId(0u))),
            QStringLiteral("main 1\nmain;f 5\nmain;f;f 3\nmain;f;f;g 2\nmain;f;g 4\n"));
    }

    void sandwichMergesEveryCallPath()
    {
        // g is called from a and from b (and b from main directly and through a); f recurses.
        const auto trial = treeTrial(QStringLiteral("sw"),
            { { R0,
                { { QStringLiteral("main"), 1 }, { QStringLiteral("main => a"), 2 },
                    { QStringLiteral("main => a => g"), 3 }, { QStringLiteral("main => a => b"), 1 },
                    { QStringLiteral("main => a => b => g"), 4 }, { QStringLiteral("main => b"), 1 },
                    { QStringLiteral("main => b => g"), 5 }, { QStringLiteral("main => b => g => x"), 6 },
                    { QStringLiteral("main => f"), 1 }, { QStringLiteral("main => f => f"), 2 },
                    { QStringLiteral("main => f => f => x"), 3 } } } });
        const FlameTree t = FlameTree::of(*trial, MetricId(0u));
        const Sandwich g = sandwichOf(t, QStringLiteral("g"));
        QCOMPARE(g.occurrences, 3);
        QVERIFY(near(g.inclusive, 3 + 4 + 11));
        QVERIFY(near(g.self, 12));
        // Callers (inverted): g <- a 3, g <- b 15 (4 via a, 11 from main); b <- a 4, b <- main 11.
        const FlameTree& callers = g.callers;
        QCOMPARE(callers.roots().size(), std::size_t(1));
        QVERIFY(near(callers.total(), 18));
        QVERIFY(near(callers.node(nodeNamed(callers, p({ "g", "a" }))).inclusive, 3));
        QVERIFY(near(callers.node(nodeNamed(callers, p({ "g", "b" }))).inclusive, 15));
        QVERIFY(near(callers.node(nodeNamed(callers, p({ "g", "b", "a" }))).inclusive, 4));
        QVERIFY(near(callers.node(nodeNamed(callers, p({ "g", "b", "main" }))).inclusive, 11));
        QVERIFY(near(callers.node(nodeNamed(callers, p({ "g", "b", "a", "main" }))).inclusive, 4));
        QVERIFY(near(callers.node(nodeNamed(callers, p({ "g", "b" }))).self, 0));
        // Callees: g's own 12 and x 6 below it.
        QVERIFY(near(g.callees.total(), 18));
        QVERIFY(near(g.callees.node(nodeNamed(g.callees, p({ "g", "x" }))).inclusive, 6));
        QVERIFY(near(g.callees.node(nodeNamed(g.callees, p({ "g" }))).self, 12));

        // Recursion: f's inclusive is the outer f's (6), not 6 + 5; self 1 + 2.
        const Sandwich f = sandwichOf(t, QStringLiteral("f"));
        QCOMPARE(f.occurrences, 2);
        QVERIFY(near(f.inclusive, 6) && near(f.self, 3));
        QVERIFY(near(f.callees.node(nodeNamed(f.callees, p({ "f", "f" }))).inclusive, 5));
        QVERIFY(near(f.callees.node(nodeNamed(f.callees, p({ "f", "f", "x" }))).inclusive, 3));
        QVERIFY(near(f.callers.node(nodeNamed(f.callers, p({ "f", "main" }))).inclusive, 6));
        QCOMPARE(f.callers.nodes().size(), std::size_t(2));
        QCOMPARE(sandwichOf(t, QStringLiteral("nowhere")).occurrences, 0);
    }

    void differentialAlignsCallPaths()
    {
        // A is source-instrumented (signatures and source locations), B compiler-instrumented.
        const auto [a, b] = instrumentedTwoWays();
        EventMatching routine;
        routine.policy = EventMatchPolicy::Routine;
        const DiffFlameTree d = DiffFlameTree::of(*a, *b, MetricId(0u), {}, routine, FlameWidth::Max);
        const FlameTree& t = d.tree();
        QCOMPARE(t.nodes().size(), std::size_t(5)); // main, solve, MPI_Allreduce, old, fresh
        const int solve = nodeNamed(t, p({ "main", "solve" }));
        const int allreduce = nodeNamed(t, p({ "main", "solve", "MPI_Allreduce" }));
        const int old = nodeNamed(t, p({ "main", "old" }));
        const int fresh = nodeNamed(t, p({ "main", "fresh" }));
        QVERIFY(solve >= 0 && allreduce >= 0 && old >= 0 && fresh >= 0);
        QVERIFY(near(d.a(solve).inclusive, 70) && near(d.b(solve).inclusive, 85));
        QVERIFY(near(d.delta(solve), -15));
        QVERIFY(near(d.deltaPercent(solve), 100.0 * -15 / 70));
        QVERIFY(near(d.delta(allreduce), -25));
        QVERIFY(d.onlyInA(old) && !d.onlyInB(old) && d.b(old).inclusive == 0);
        QVERIFY(d.onlyInB(fresh) && std::isnan(d.deltaPercent(fresh)));
        QVERIFY(!d.onlyInA(solve) && !d.onlyInB(solve));
        QVERIFY(near(t.node(solve).inclusive, 85)); // width by max(A, B)
        QVERIFY(near(t.node(nodeNamed(t, p({ "main" }))).inclusive, 102)); // A 85, B 102
        // Width by A: fresh is 0 wide.
        const DiffFlameTree byA = DiffFlameTree::of(*a, *b, MetricId(0u), {}, routine, FlameWidth::A);
        QVERIFY(near(byA.tree().node(nodeNamed(byA.tree(), p({ "main", "fresh" }))).inclusive, 0));
        QVERIFY(near(byA.tree().total(), 85));
        // difffolded: "path A B", own values.
        QString text;
        QTextStream out(&text);
        d.writeFolded(out);
        out.flush();
        QCOMPARE(text,
            QStringLiteral(
                "main 10 10\nmain;solve 50 40\nmain;solve;MPI_Allreduce 20 45\nmain;old 5 0\nmain;fresh 0 7\n"));
        // Under EXACT nothing but main aligns.
        const DiffFlameTree exact = DiffFlameTree::of(*a, *b, MetricId(0u));
        QCOMPARE(exact.tree().nodes().size(), std::size_t(7));
        QVERIFY(exact.onlyInB(nodeNamed(exact.tree(), p({ "main", "solve" }))));
    }

    void sandwichOfAComparison()
    {
        // "int solve(int) C [...]" of A is "solve" of B under ROUTINE.
        const auto [a, b] = instrumentedTwoWays();
        EventMatching routine;
        routine.policy = EventMatchPolicy::Routine;
        const DiffSandwich solve = diffSandwichOf(*a, *b, MetricId(0u), QStringLiteral("solve"), {}, routine);
        QCOMPARE(solve.a.occurrences, 1);
        QCOMPARE(solve.b.occurrences, 1);
        QVERIFY(near(solve.a.inclusive, 70) && near(solve.b.inclusive, 85));
        // Callers: solve <- main in both; callees: MPI_Allreduce 20 in A, 45 in B, aligned by key.
        const DiffFlameTree& up = solve.callers;
        const int root = up.tree().roots().front();
        QCOMPARE(up.tree().node(root).name, QStringLiteral("solve"));
        QVERIFY(near(up.delta(root), -15));
        const int main = nodeNamed(up.tree(), p({ "solve", "main" }));
        QVERIFY(main >= 0 && near(up.a(main).inclusive, 70) && near(up.b(main).inclusive, 85));
        QCOMPARE(up.tree().nodes().size(), std::size_t(2));
        const DiffFlameTree& down = solve.callees;
        const int allreduce = nodeNamed(down.tree(), p({ "solve", "MPI_Allreduce" }));
        QVERIFY(allreduce >= 0);
        QVERIFY(near(down.a(allreduce).inclusive, 20) && near(down.b(allreduce).inclusive, 45));
        QVERIFY(!down.onlyInA(allreduce) && !down.onlyInB(allreduce));
        QVERIFY(near(down.tree().node(allreduce).inclusive, 45)); // width max(A, B)
        // Each side is that run's own sandwich (values and shape).
        const Sandwich own = sandwichOf(FlameTree::of(*b, MetricId(0u)), QStringLiteral("solve"));
        QVERIFY(near(own.inclusive, solve.b.inclusive) && near(own.self, solve.b.self));
        QCOMPARE(own.callees.nodes().size(), solve.b.callees.nodes().size());
        // A routine of one run only: its frames are marked so.
        const DiffSandwich old = diffSandwichOf(*a, *b, MetricId(0u), QStringLiteral("old"), {}, routine);
        QCOMPARE(old.a.occurrences, 1);
        QCOMPARE(old.b.occurrences, 0);
        QVERIFY(old.callers.onlyInA(old.callers.tree().roots().front()));
        QVERIFY(old.callers.onlyInA(nodeNamed(old.callers.tree(), p({ "old", "main" }))));
        // Under EXACT the key is the name: A's decorated solve is not B's solve.
        const DiffSandwich exact = diffSandwichOf(*a, *b, MetricId(0u), QStringLiteral("solve"));
        QCOMPARE(exact.a.occurrences, 0);
        QCOMPARE(exact.b.occurrences, 1);
    }

    void foldedFormat()
    {
        QCOMPARE(foldedValue(3), QStringLiteral("3"));
        QCOMPARE(foldedValue(12.5), QStringLiteral("12.5"));
        QCOMPARE(foldedValue(0.1 + 0.2), QStringLiteral("0.3"));
        QCOMPARE(foldedValue(1e15), QStringLiteral("1000000000000000"));
        QCOMPARE(foldedValue(2.5e-7), QStringLiteral("0")); // below a millionth
        QCOMPARE(foldedValue(-4), QStringLiteral("-4"));
        QCOMPARE(foldedFrameName(QStringLiteral("a;b\nc")), QStringLiteral("a:b c"));
        // A name with ';' stays one frame; values of zero are left out.
        const auto trial = treeTrial(QStringLiteral("names"),
            { { R0,
                { { QStringLiteral("main"), 0 }, { QStringLiteral("main => x;y"), 2.25 },
                    { QStringLiteral("main => z"), 0 } } } });
        QCOMPARE(folded(FlameTree::of(*trial, MetricId(0u))), QStringLiteral("main;x:y 2.25\n"));
    }

    void foldedSumsEqualExclusiveOnEverySample_data()
    {
        QTest::addColumn<QString>("path");
        for (const char* s : callPathSamples)
            QTest::newRow(s) << dataPath(QString::fromUtf8(s));
    }

    /// The test: Σ folded values = Σ exclusive over the call paths, for the mean, the total and
    /// one thread, every metric; each line is one call path and carries that path's exclusive value.
    /// The expected sums come from the trial's rows, not through the statistics kernel or the tree.
    void foldedSumsEqualExclusiveOnEverySample()
    {
        QFETCH(QString, path);
        const auto trial = mustLoad(path);
        QVERIFY(trial);
        const auto callTree = CallTree::of(*trial);
        bool anyPath = false;
        for (const auto& e : trial->events())
            anyPath = anyPath || e.isCallPath();
        QVERIFY2(anyPath, "not a call-path sample");
        // The events of the tree, and the sampling children that break their parent's time down.
        std::vector<bool> inTree(trial->eventCount(), false);
        std::vector<bool> breakdown(trial->eventCount(), false);
        for (const auto& n : callTree->nodes())
            if (n.event.isValid()) {
                inTree[n.event.index()] = true;
                breakdown[n.event.index()] = n.sampleBreakdown;
            }
        const std::size_t threads = trial->threadCount();
        const std::size_t metrics = std::min<std::size_t>(trial->metricCount(), 4);
        for (std::size_t m = 0; m < metrics; ++m) {
            // Σ over cells: exclusive of every tree event less the breakdown children's inclusive.
            std::vector<double> perThread(threads, 0.0);
            for (std::size_t t = 0; t < threads; ++t) {
                const RowView row = trial->row(ThreadIndex(t));
                for (std::size_t i = 0; i < row.size(); ++i) {
                    const EventId e = row.events[i];
                    if (!inTree[e.index()])
                        continue;
                    perThread[t] += row.exclusive(m, i);
                    if (breakdown[e.index()]) // its inclusive is inside its parent's exclusive
                        perThread[t] -= row.inclusive(m, i);
                }
            }
            const double sum = std::accumulate(perThread.begin(), perThread.end(), 0.0);
            struct Case {
                FlameSource source;
                double expected;
                const char* name;
            };
            const std::vector<Case> cases { { { Statistic::Total, {} }, sum, "total" },
                { { Statistic::MeanAll, {} }, threads ? sum / static_cast<double>(threads) : 0.0, "mean" },
                { { Statistic::MeanAll, ThreadIndex(0u) }, perThread.empty() ? 0.0 : perThread[0], "thread 0" } };
            for (const Case& c : cases) {
                const FlameTree tree = FlameTree::of(*trial, MetricId(m), c.source);
                const QString text = folded(tree);
                double foldedSum = 0;
                std::set<QString> paths;
                for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
                    const qsizetype space = line.lastIndexOf(QLatin1Char(' '));
                    QVERIFY2(space > 0, qPrintable(line));
                    bool ok = false;
                    const double v = line.mid(space + 1).toDouble(&ok);
                    QVERIFY2(ok, qPrintable(line));
                    QVERIFY2(!line.mid(space + 1).contains(QLatin1Char('e')), qPrintable(line));
                    foldedSum += v;
                    QVERIFY2(paths.insert(line.left(space)).second, qPrintable(QStringLiteral("twice: ") + line));
                }
                const double tol
                    = 1e-6 * std::max(1.0, std::fabs(c.expected)) + 1e-6 * static_cast<double>(paths.size());
                QVERIFY2(std::fabs(foldedSum - c.expected) <= tol,
                    qPrintable(QStringLiteral("%1, metric %2, %3: folded %4, exclusive %5")
                                   .arg(path, trial->metric(MetricId(m)).name, QLatin1String(c.name))
                                   .arg(foldedSum, 0, 'f', 6)
                                   .arg(c.expected, 0, 'f', 6)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestFlame)
#include "tst_flame.moc"
