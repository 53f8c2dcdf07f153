// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The CUBE browser's three panes and value modes (docs/SEMANTICS.md §6): the worked example of §6 on
// trial A of §4.7(a), the metric and system trees of real CUBE files, and the values against
// pycubexr's CSV dumps of the same files (the oracle: numbers nobody here wrote).
#include "algebra/calltree.h"
#include "algebra/cubespace.h"
#include "algebra/derivedmetric.h"
#include "algebra/operations.h"
#include "datasource/synth/synth.h"
#include "tests/algebra/algebrafixture.h"
#include "tests/common/pycubexrdump.h"
#include "tests/common/testutil.h"

#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

bool relNear(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::max({ 1.0, std::abs(a), std::abs(b) });
}

} // namespace

class TestCubeSpace : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void workedExample()
    {
        // docs/SEMANTICS.md §6, trial A of §4.7(a), metric time.
        const CubeSpace a(cubeA());
        const CubeSpace b(cubeB());
        QCOMPARE(a.size(CubePane::Metric), std::size_t(1));
        QCOMPARE(a.roots(CubePane::Call).size(), std::size_t(1));
        const int main = a.find(CubePane::Call, QStringLiteral("main"));
        const int solve = a.find(CubePane::Call, QStringLiteral("main => solve"));
        const int recv = a.find(CubePane::Call, QStringLiteral("main => solve => MPI_Recv"));
        const int io = a.find(CubePane::Call, QStringLiteral("main => io"));
        QVERIFY(main >= 0 && solve >= 0 && recv >= 0 && io >= 0);
        CubeState s = CubeState::defaults(a);
        CubeValues v = computeCube(a, s);
        QCOMPARE(v.value(CubePane::Call, main, s), 33.5);
        s.pane(CubePane::Call).setExpanded(main, true);
        v = computeCube(a, s);
        QCOMPARE(v.value(CubePane::Call, main, s), 2.0);
        QCOMPARE(v.value(CubePane::Call, solve, s), 28.0);
        s.pane(CubePane::Call).setExpanded(solve, true);
        v = computeCube(a, s);
        QCOMPARE(v.value(CubePane::Call, solve, s), 22.0);
        QCOMPARE(v.value(CubePane::Call, recv, s), 6.0);
        QCOMPARE(v.value(CubePane::Call, io, s), 3.5);
        // Fully expanded: the visible values sum to the root.
        QCOMPARE(v.value(CubePane::Call, main, s) + v.value(CubePane::Call, solve, s) + v.value(CubePane::Call, recv, s)
                + v.value(CubePane::Call, io, s),
            33.5);

        // solve collapsed: 28; Metric root % = Own root % = 83.58 %; External % vs B = 127.27 %.
        s.pane(CubePane::Call).setExpanded(solve, false);
        v = computeCube(a, s);
        QCOMPARE(cubeModeValue(a, s, v, CubePane::Call, solve, CubeMode::Absolute), 28.0);
        QCOMPARE(qRound(100 * cubeModeValue(a, s, v, CubePane::Call, solve, CubeMode::MetricRoot)), 8358);
        QCOMPARE(qRound(100 * cubeModeValue(a, s, v, CubePane::Call, solve, CubeMode::OwnRoot)), 8358);
        const double external = b.metricRootTotal(QStringLiteral("time"));
        QCOMPARE(external, 22.0);
        QCOMPARE(qRound(100 * cubeModeValue(a, s, v, CubePane::Call, solve, CubeMode::External, external)), 12727);

        // System pane with MPI_Recv selected: r0 4, r1 2.
        s.pane(CubePane::Call).selected = { recv };
        v = computeCube(a, s);
        const int r0 = a.itemOfThread(ThreadIndex(0u));
        const int r1 = a.itemOfThread(ThreadIndex(1u));
        QCOMPARE(v.value(CubePane::System, r0, s), 4.0);
        QCOMPARE(v.value(CubePane::System, r1, s), 2.0);
        auto pct = [&](int item, CubeMode mode) {
            return qRound(100 * cubeModeValue(a, s, v, CubePane::System, item, mode));
        };
        QCOMPARE(pct(r0, CubeMode::CallSelection), 6667);
        QCOMPARE(pct(r1, CubeMode::CallSelection), 3333);
        QCOMPARE(pct(r0, CubeMode::CallRoot), 1194);
        QCOMPARE(pct(r1, CubeMode::CallRoot), 597);
        QCOMPARE(pct(r0, CubeMode::Peer), 10000);
        QCOMPARE(pct(r1, CubeMode::Peer), 5000);
        QCOMPARE(pct(r0, CubeMode::PeerDistribution), 10000);
        QCOMPARE(pct(r1, CubeMode::PeerDistribution), 0);
        // Own root % of a location: its share of the whole system (one machine) under the left selections.
        QCOMPARE(pct(r0, CubeMode::OwnRoot), 6667);
        QCOMPARE(pct(r1, CubeMode::OwnRoot), 3333);
        QCOMPARE(pct(r0, CubeMode::SystemRoot), 6667);
        QCOMPARE(a.roots(CubePane::System).size(), std::size_t(1));

        // Modes with no reference at the position show "—" (NaN): nothing is left of the metric pane.
        QVERIFY(std::isnan(cubeModeValue(a, s, v, CubePane::Metric, 0, CubeMode::CallRoot)));
        QVERIFY(std::isnan(cubeModeValue(a, s, v, CubePane::Call, solve, CubeMode::SystemSelection)));
        QVERIFY(std::isnan(cubeModeValue(a, s, v, CubePane::Call, solve, CubeMode::Peer)));
    }

    void paneOrderChangesWhatIsSummed()
    {
        // Order call | system | metric: the system pane sums over the selected call path only.
        const CubeSpace a(cubeA());
        CubeState s = CubeState::defaults(a);
        s.order = { CubePane::Call, CubePane::System, CubePane::Metric };
        const int io = a.find(CubePane::Call, QStringLiteral("main => io"));
        s.pane(CubePane::Call).selected = { io };
        const CubeValues v = computeCube(a, s);
        QCOMPARE(v.value(CubePane::System, a.itemOfThread(ThreadIndex(0u)), s), 3.0);
        QCOMPARE(v.value(CubePane::System, a.itemOfThread(ThreadIndex(1u)), s), 0.5);
        // The call pane, leftmost, sums over every location.
        QCOMPARE(v.value(CubePane::Call, io, s), 3.5);
        // Metric root % has no reference left of the metric pane.
        QVERIFY(std::isnan(cubeModeValue(a, s, v, CubePane::Call, io, CubeMode::MetricRoot)));
        QVERIFY(!std::isnan(cubeModeValue(a, s, v, CubePane::Metric, 0, CubeMode::MetricRoot)));
    }

    void derivedFolderHasNoValue()
    {
        // A derived metric (2 x TIME) on a real TAU trial sits in the "Derived" folder.
        const auto source = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        const AlgebraResult derived = deriveMetric(*source, QStringLiteral("Twice = \"TIME\" * 2"));
        QVERIFY2(derived, qPrintable(derived.error()));
        const CubeSpace space(derived.trial());
        const int folder = space.find(CubePane::Metric, QStringLiteral("Derived"));
        const int time = space.find(CubePane::Metric, QStringLiteral("TIME"));
        const int twice = space.find(CubePane::Metric, QStringLiteral("Twice"));
        QVERIFY(folder >= 0 && time >= 0 && twice >= 0);
        QCOMPARE(space.item(CubePane::Metric, folder).ref, -1);
        QCOMPARE(space.item(CubePane::Metric, twice).parent, folder);
        QCOMPARE(space.item(CubePane::Metric, time).parent, -1);

        CubeState s = CubeState::defaults(space);
        const int root = space.roots(CubePane::Call).front();
        s.pane(CubePane::Metric).selected = { time };
        const double timeRoot = computeCube(space, s).value(CubePane::Call, root, s);
        QVERIFY(timeRoot > 0);
        // The derived metric itself: twice the time, on every pane.
        s.pane(CubePane::Metric).selected = { twice };
        CubeValues v = computeCube(space, s);
        QCOMPARE(v.value(CubePane::Call, root, s), 2 * timeRoot);
        QVERIFY(std::isnan(v.value(CubePane::Metric, folder, s))); // the folder shows —
        // Only the folder: nothing is measured, so the call and system panes have no value.
        s.pane(CubePane::Metric).selected = { folder };
        v = computeCube(space, s);
        QVERIFY(std::isnan(v.value(CubePane::Call, root, s)));
        QVERIFY(std::isnan(v.value(CubePane::System, space.roots(CubePane::System).front(), s)));
        for (double x : cubeLocationValues(space, s, root))
            QVERIFY(std::isnan(x));
        // Beside a metric the folder adds nothing.
        s.pane(CubePane::Metric).selected = { time, folder };
        QCOMPARE(computeCube(space, s).value(CubePane::Call, root, s), timeRoot);
    }

    void signedValuesOfADiff()
    {
        // §4.7(a): diff A − B has root 11.5 and main => io is 30.43 % of it.
        const AlgebraResult diff = difference(*cubeA(), *cubeB());
        QVERIFY2(diff, qPrintable(diff.error()));
        const CubeSpace d(diff.trial());
        CubeState s = CubeState::defaults(d);
        const CubeValues v = computeCube(d, s);
        const int root = d.roots(CubePane::Call).front();
        QCOMPARE(v.value(CubePane::Call, root, s), 11.5);
        const int io = d.find(CubePane::Call, QStringLiteral("main => io"));
        QCOMPARE(qRound(100 * cubeModeValue(d, s, v, CubePane::Call, io, CubeMode::OwnRoot)), 3043);
        const int compute = d.find(CubePane::Call, QStringLiteral("main => solve => compute_new"));
        QCOMPARE(v.value(CubePane::Call, compute, s), -2.0);
    }

    void rootRegionCalledDeeperCountsOnce()
    {
        // As TAU writes an OpenMP region: a root on the worker (rank 1), a callee of main on the master
        // (rank 0), whose flat event "work" holds both. The root item is the flat event less the deeper
        // call, so the call pane's roots add up to the whole (1 + 5 + 4).
        const auto trial = treeTrial(QStringLiteral("omp"),
            { { R0,
                  { { QStringLiteral("main"), 1 }, { QStringLiteral("main => work"), 5 },
                      { QStringLiteral("work"), 5 } } },
                { R1, { { QStringLiteral("work"), 4 } } } });
        const CubeSpace space(trial);
        QCOMPARE(space.roots(CubePane::Call).size(), std::size_t(1)); // "work" alone has no path
        const auto withPath = treeTrial(QStringLiteral("omp2"),
            { { R0,
                  { { QStringLiteral("main"), 1 }, { QStringLiteral("main => work"), 5 }, { QStringLiteral("work"), 5 },
                      { QStringLiteral("work => spin"), 0 } } },
                { R1, { { QStringLiteral("work"), 4 }, { QStringLiteral("work => spin"), 0 } } } });
        const CubeSpace two(withPath);
        QCOMPARE(two.roots(CubePane::Call).size(), std::size_t(2));
        const int work = two.find(CubePane::Call, QStringLiteral("work"));
        const int main = two.find(CubePane::Call, QStringLiteral("main"));
        CubeState s = CubeState::defaults(two);
        CubeValues v = computeCube(two, s);
        QCOMPARE(v.value(CubePane::Call, work, s), 4.0);
        QCOMPARE(v.value(CubePane::Call, main, s), 6.0);
        QCOMPARE(v.metricRoot, 10.0);
        s.pane(CubePane::Call).setExpanded(work, true);
        s.pane(CubePane::Call).selected = { work };
        v = computeCube(two, s);
        QCOMPARE(v.value(CubePane::Call, work, s), 4.0);
        QCOMPARE(v.value(CubePane::System, two.itemOfThread(ThreadIndex(0u)), s), 0.0);
        QCOMPARE(v.value(CubePane::System, two.itemOfThread(ThreadIndex(1u)), s), 4.0);
    }

    void metricTreeOfKojak()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("cube/scalasca-cube3/kojak-example-ctest-pomp.cube")));
        QVERIFY(trial);
        const CubeSpace space(trial);
        QCOMPARE(space.size(CubePane::Metric), std::size_t(47));
        QCOMPARE(space.roots(CubePane::Metric).size(), std::size_t(7)); // MANIFEST: 7 roots, depth 6
        QCOMPARE(space.levels(CubePane::Metric).size(), std::size_t(7));
        // Time > Execution > MPI > Communication > P2P > Late Sender.
        const int late = space.find(CubePane::Metric, QStringLiteral("Late Sender"));
        QVERIFY(late >= 0);
        QStringList chain;
        for (int i = late; i >= 0; i = space.item(CubePane::Metric, i).parent)
            chain.prepend(space.label(CubePane::Metric, i));
        QCOMPARE(chain.join(QStringLiteral(" > ")),
            QStringLiteral("Time > Execution > MPI > Communication > P2P > Late Sender"));
        const auto& info = space.metricInfo(MetricId(static_cast<std::size_t>(space.item(CubePane::Metric, late).ref)));
        QCOMPARE(info.uniqueName, QStringLiteral("11Late Sender"));
        QCOMPARE(info.description, QStringLiteral("Time a receiving process is waiting for a message"));
        QVERIFY(info.url.endsWith(QLatin1String("patterns-2.2.html#mpi_late_sender")));
        QVERIFY(!info.url.contains(QLatin1String("@mirror@")));

        // Stored values are inclusive along the metric tree: expanding Time leaves its own part, and
        // Time's own part plus its children's collapsed values is Time.
        CubeState s = CubeState::defaults(space);
        const int time = space.find(CubePane::Metric, QStringLiteral("Time"));
        QCOMPARE(s.pane(CubePane::Metric).selected, std::vector<int> { time });
        CubeValues v = computeCube(space, s);
        const double whole = v.value(CubePane::Metric, time, s);
        QVERIFY(whole > 0);
        s.pane(CubePane::Metric).setExpanded(time, true);
        v = computeCube(space, s);
        double sum = v.value(CubePane::Metric, time, s);
        for (int c : space.item(CubePane::Metric, time).children)
            sum += v.value(CubePane::Metric, c, s);
        QVERIFY2(relNear(sum, whole), qPrintable(QStringLiteral("%1 vs %2").arg(sum).arg(whole)));
        // Selecting the expanded Time: the call pane shows Time's own part only.
        const int root = space.roots(CubePane::Call).front();
        QVERIFY(relNear(v.value(CubePane::Call, root, s), v.value(CubePane::Metric, time, s)));

        // The system tree: 8 nodes' 32 threads in processes; a machine above them.
        QCOMPARE(space.levels(CubePane::System).back().size(), std::size_t(32));
        int processes = 0;
        for (std::size_t i = 0; i < space.size(CubePane::System); ++i)
            processes += space.item(CubePane::System, static_cast<int>(i)).ref < 0
                && space.systemLevel(static_cast<int>(i)) == QLatin1String("process");
        QCOMPARE(processes, 8);
        QCOMPARE(space.systemLevel(space.roots(CubePane::System).front()), QStringLiteral("machine"));
    }

    void valuesMatchPycubexrDumps()
    {
        // time.p4.n2000.x1.r0: pycubexr's incl.csv / excl.csv per (cnode, thread).
        const QString dir = dataPath(QStringLiteral("cube/pycubexr/time.p4.n2000.x1.r0"));
        const auto trial = mustLoad(dir + QStringLiteral("/profile.cubex"));
        QVERIFY(trial);
        const CubeSpace space(trial);
        const auto incl = pycubexrColumn(dir + QStringLiteral("/incl.csv"), QStringLiteral("time"));
        const auto excl = pycubexrColumn(dir + QStringLiteral("/excl.csv"), QStringLiteral("time"));
        QVERIFY(incl.size() > 100);
        CubeState s = CubeState::defaults(space);
        s.pane(CubePane::Metric).selected = { space.find(CubePane::Metric, QStringLiteral("Time")) };
        const int root = space.roots(CubePane::Call).front();
        QCOMPARE(space.label(CubePane::Call, root), QStringLiteral("bg_time"));
        CubeValues v = computeCube(space, s);
        double total = 0;
        for (int t = 0; t < 4; ++t) {
            const int loc = space.itemOfThread(ThreadIndex(static_cast<std::size_t>(t)));
            QVERIFY2(relNear(v.value(CubePane::System, loc, s), incl.at({ 0, t }), 1e-6),
                qPrintable(QString::number(v.value(CubePane::System, loc, s))));
            total += incl.at({ 0, t });
        }
        QVERIFY(relNear(v.value(CubePane::Call, root, s), total, 1e-6));
        QVERIFY(relNear(v.metricRoot, total, 1e-6));
        // Expanded: each location shows the root's exclusive time.
        s.pane(CubePane::Call).setExpanded(root, true);
        v = computeCube(space, s);
        const std::vector<double> perThread = cubeLocationValues(space, s, root);
        for (int t = 0; t < 4; ++t) {
            const int loc = space.itemOfThread(ThreadIndex(static_cast<std::size_t>(t)));
            QVERIFY(relNear(v.value(CubePane::System, loc, s), excl.at({ 0, t }), 1e-4));
            QVERIFY(relNear(perThread[static_cast<std::size_t>(t)], excl.at({ 0, t }), 1e-4));
        }
        // Every call item, fully expanded, sums to the root over all locations.
        for (std::size_t i = 0; i < space.size(CubePane::Call); ++i)
            s.pane(CubePane::Call).setExpanded(static_cast<int>(i), true);
        v = computeCube(space, s);
        double sum = 0;
        for (std::size_t i = 0; i < space.size(CubePane::Call); ++i)
            sum += v.value(CubePane::Call, static_cast<int>(i), s);
        QVERIFY(relNear(sum, total, 1e-6)); // the CSV prints six decimals
    }

    void sampledTreesAddUp()
    {
        // A TAU sampling trial: expanded nodes show their own value (docs/SEMANTICS.md 6.1), so each
        // root's fully expanded subtree still sums to the root's inclusive value.
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/ppk/matmult-openmp-24thread-samples.ppk")));
        QVERIFY(trial);
        const CubeSpace space(trial);
        CubeState s = CubeState::defaults(space);
        const CubeValues collapsed = computeCube(space, s);
        for (std::size_t i = 0; i < space.size(CubePane::Call); ++i)
            s.pane(CubePane::Call).setExpanded(static_cast<int>(i), true);
        const CubeValues v = computeCube(space, s);
        QVERIFY(space.roots(CubePane::Call).size() > 1);
        // Σ over threads of calls and subrs by event: a node whose subroutine calls exceed its
        // children's calls has callees without call-path records (TAU's sampling trials record only
        // the sampling paths; tst_treeinvariant counts the same nodes), so its subtree cannot add up.
        std::vector<double> calls(trial->eventCount()), subrs(trial->eventCount());
        for (std::size_t t = 0; t < trial->threadCount(); ++t) {
            const RowView row = trial->row(ThreadIndex(t));
            for (std::size_t i = 0; i < row.size(); ++i) {
                calls[row.events[i].index()] += row.calls[i];
                subrs[row.events[i].index()] += row.subrs[i];
            }
        }
        const auto& nodes = space.callTree().nodes();
        int complete = 0;
        int breakdowns = 0;
        for (int r : space.roots(CubePane::Call)) {
            double sum = 0;
            bool whole = true;
            auto walk = [&](int i, auto&& self) -> void {
                sum += v.value(CubePane::Call, i, s);
                const CallTree::Node& n = nodes[static_cast<std::size_t>(space.item(CubePane::Call, i).ref)];
                breakdowns += n.sampleBreakdown;
                double childCalls = 0;
                for (int c : space.item(CubePane::Call, i).children) {
                    const CallTree::Node& child = nodes[static_cast<std::size_t>(space.item(CubePane::Call, c).ref)];
                    if (!child.sampleBreakdown && child.event.isValid())
                        childCalls += calls[child.event.index()];
                    self(c, self);
                }
                if (n.event.isValid() && !CallTree::isSampleLabel(n.label) && childCalls < subrs[n.event.index()])
                    whole = false;
            };
            walk(r, walk);
            if (!whole)
                continue;
            ++complete;
            const double root = collapsed.value(CubePane::Call, r, CubeState::defaults(space));
            QVERIFY2(relNear(sum, root, 1e-9),
                qPrintable(QStringLiteral("%1: %2 vs %3").arg(space.label(CubePane::Call, r)).arg(sum).arg(root)));
        }
        QVERIFY(complete >= 2);
        QVERIFY(breakdowns > 0);
        // Threads: one location per TAU thread under one machine.
        QCOMPARE(space.levels(CubePane::System).back().size(), trial->threadCount());
        QCOMPARE(space.roots(CubePane::System).size(), std::size_t(1));
    }

    void incrementalEqualsFull()
    {
        // Reusing the panes whose inputs did not change gives the values a full computation gives,
        // through a sequence of clicks, expansions and order changes on a real CUBE file.
        const auto trial = mustLoad(dataPath(QStringLiteral("cube/scalasca-cube3/kojak-example-ctest-pomp.cube")));
        QVERIFY(trial);
        const CubeSpace space(trial);
        CubeState state = CubeState::defaults(space);
        CubeValues values = computeCube(space, state);
        std::uint64_t x = 12345;
        auto next = [&](std::size_t n) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            return static_cast<int>((x >> 33) % n);
        };
        int reused = 0;
        for (int step = 0; step < 200; ++step) {
            const CubeState before = state;
            const auto pane = static_cast<CubePane>(next(3));
            const int item = next(space.size(pane));
            switch (next(4)) {
            case 0:
                state.pane(pane).selected = { item };
                break;
            case 1:
                state.pane(pane).setExpanded(item, !state.pane(pane).isExpanded(item));
                break;
            case 2:
                state.pane(pane).selected.push_back(item);
                break;
            default:
                std::swap(
                    state.order[static_cast<std::size_t>(next(3))], state.order[static_cast<std::size_t>(next(3))]);
            }
            const CubeValues incremental = computeCube(space, state, &values, &before);
            const CubeValues full = computeCube(space, state);
            for (std::size_t p = 0; p < 3; ++p) {
                reused += cubePaneInputsEqual(state, before, static_cast<CubePane>(p));
                for (std::size_t i = 0; i < full.inclusive[p].size(); ++i) {
                    const bool same = (std::isnan(full.inclusive[p][i]) && std::isnan(incremental.inclusive[p][i]))
                        || full.inclusive[p][i] == incremental.inclusive[p][i];
                    QVERIFY2(same, qPrintable(QStringLiteral("step %1 pane %2 item %3").arg(step).arg(p).arg(i)));
                }
            }
            values = incremental;
        }
        QVERIFY(reused > 100); // the reuse happened
    }

    void regionKindsAndSources()
    {
        const CubeSpace kojak(mustLoad(dataPath(QStringLiteral("cube/scalasca-cube3/kojak-example-ctest-pomp.cube"))));
        const int loop = kojak.find(CubePane::Call, QStringLiteral("!$omp for @ctest-pomp.c:53"));
        QVERIFY(loop >= 0);
        QCOMPARE(kojak.regionInfo(loop).kind, QStringLiteral("OpenMP"));
        QCOMPARE(kojak.regionInfo(loop).file, QStringLiteral("ctest-pomp.c"));
        QCOMPARE(kojak.regionInfo(loop).line, 53);
        QCOMPARE(
            kojak.regionInfo(kojak.find(CubePane::Call, QStringLiteral("MPI_Barrier"))).kind, QStringLiteral("MPI"));
        QCOMPARE(kojak.regionInfo(kojak.find(CubePane::Call, QStringLiteral("step"))).kind, QStringLiteral("function"));
        // TAU's source locations and loops (the synthetic generator writes both).
        SynthOptions o;
        o.threads = 2;
        o.events = 40;
        o.callpathDepth = 2;
        const CubeSpace synth(synthesizeTrial(o), CubeSpace::CallView::Flat);
        int loops = 0;
        int located = 0;
        for (int i = 0; i < static_cast<int>(synth.size(CubePane::Call)); ++i) {
            const auto r = synth.regionInfo(i);
            loops += r.kind == QLatin1String("loop");
            located += !r.file.isEmpty() && r.line > 0;
        }
        QVERIFY(loops > 0);
        QVERIFY(located > loops);
    }

    void boxStatsAreTukeys()
    {
        // NumPy: np.percentile([1, 2, 3, 4, 100], [25, 50, 75]) = 2, 3, 4; fences 0.5 and 5.5.
        const BoxStats b = boxStats({ 4, 2, 100, 1, 3 });
        QCOMPARE(b.q1, 2.0);
        QCOMPARE(b.median, 3.0);
        QCOMPARE(b.q3, 4.0);
        QCOMPARE(b.min, 1.0);
        QCOMPARE(b.max, 100.0);
        QCOMPARE(b.highWhisker, 4.0);
        QCOMPARE(b.lowWhisker, 1.0);
        QCOMPARE(b.outliers, std::size_t(1));
        QCOMPARE(b.mean, 22.0);
        // Interpolated quartiles: np.percentile([1, 2, 3, 4], [25, 50, 75]) = 1.75, 2.5, 3.25.
        const BoxStats even = boxStats({ 3, 1, 4, 2 });
        QCOMPARE(even.q1, 1.75);
        QCOMPARE(even.median, 2.5);
        QCOMPARE(even.q3, 3.25);
        QCOMPARE(even.outliers, std::size_t(0));
        QCOMPARE(boxStats({}).count, std::size_t(0));
    }

    void modeNamesRoundTrip()
    {
        for (const QString& name : cubeModeNames()) {
            const auto mode = cubeModeFromName(name);
            QVERIFY(mode);
            QCOMPARE(cubeModeName(*mode), name);
            QCOMPARE(cubeModeFromName(cubeModeLabel(*mode)), mode);
        }
        QVERIFY(!cubeModeFromName(QStringLiteral("percent")));
    }
};

QTEST_GUILESS_MAIN(TestCubeSpace)
#include "tst_cubespace.moc"
