// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The CUBE browser's location views (issue 15 §2): the topology heat map (one image pixel per cell,
// the values of the system pane, a click selecting the thread in the system pane and the main
// window) and the distribution panel (histogram counts summing to the locations, sorted values),
// on real CUBE and TAU data with pycubexr's dump as the oracle of the values.
#include "algebra/topology.h"
#include "tests/common/cubebrowsertest.h"
#include "tests/common/pycubexrdump.h"
#include "tests/common/testutil.h"
#include "views/cube/cubebrowser.h"
#include "views/cube/distributionpanel.h"
#include "views/cube/topologyview.h"
#include "views/selectionstate.h"

#include <QApplication>
#include <QHelpEvent>
#include <QLocale>
#include <QTest>
#include <QToolTip>
#include <algorithm>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

std::size_t total(const std::vector<std::size_t>& counts)
{
    std::size_t s = 0;
    for (std::size_t c : counts)
        s += c;
    return s;
}

} // namespace

class TestTopologyView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cubeCartHeatMapAndClick()
    {
        const QString dir = dataPath(QStringLiteral("cube/pycubexr/time.p4.n2000.x1.r0"));
        OpenedCubeBrowser opened(dir + QStringLiteral("/profile.cubex"), QSize(1400, 900), true);
        SelectionState& state = opened.state;
        CubeBrowser& browser = *opened.browser;
        const CubeSpace& space = *browser.space();
        browser.selectItem(CubePane::Metric, space.find(CubePane::Metric, QStringLiteral("Time")));
        browser.finishComputing();
        TopologyView* view = browser.topologyView();
        QCOMPARE(view->topology()->name, QStringLiteral("Process x Thread"));
        // One pixel per cell: 4 x 1.
        QCOMPARE(view->cellImage().size(), QSize(4, 1));
        // The colours follow the root's inclusive time per rank (pycubexr's dump): the largest
        // rank is the darkest/most intense end of the scale, and min/max are the dump's.
        const auto times = pycubexrCnode(dir + QStringLiteral("/incl.csv"), 0);
        QCOMPARE(times.size(), std::size_t(4));
        QVERIFY(std::abs(view->minimum() - *std::min_element(times.begin(), times.end())) < 1e-6);
        QVERIFY(std::abs(view->maximum() - *std::max_element(times.begin(), times.end())) < 1e-6);
        for (int x = 0; x < 4; ++x)
            QCOMPARE(view->threadAt(x, 0), state.trial()->findThread(ThreadKey { x, 0, 0 }));
        // Hovering cell (2, 0) names the location and its value.
        {
            const QPoint at = view->cellCentre(2, 0);
            QHelpEvent help(QEvent::ToolTip, at, view->canvas()->mapToGlobal(at));
            QApplication::sendEvent(view->canvas(), &help);
            const QString tip = QToolTip::text();
            QVERIFY2(tip.contains(QLatin1String("Master thread")) && tip.contains(QLatin1String("thread 2,0,0"))
                    && tip.contains(QLocale().toString(times[2], 'g', 6)),
                qPrintable(tip));
        }
        // A click on cell (2, 0) selects rank 2 in the system pane and the main window.
        const ThreadIndex rank2 = state.trial()->findThread(ThreadKey { 2, 0, 0 });
        QTest::mouseClick(view->canvas(), Qt::LeftButton, {}, view->cellCentre(2, 0));
        browser.finishComputing();
        QCOMPARE(state.thread(), rank2);
        QCOMPARE(browser.state().pane(CubePane::System).selected, std::vector<int> { space.itemOfThread(rank2) });
        // The distribution of the root across the 4 ranks.
        DistributionPanel* dist = browser.distributionPanel();
        QCOMPARE(total(dist->binCounts()), std::size_t(4));
        auto sorted = times;
        std::sort(sorted.begin(), sorted.end());
        QCOMPARE(dist->sortedValues().size(), std::size_t(4));
        for (std::size_t i = 0; i < 4; ++i)
            QVERIFY(std::abs(dist->sortedValues()[i] - sorted[i]) < 1e-6);
        // The largest value falls in the last bin, the smallest in the first.
        QVERIFY(dist->binCounts().front() >= 1);
        QVERIFY(dist->binCounts().back() >= 1);
    }

    void defaultGridAndTopologies()
    {
        OpenedCubeBrowser opened(
            dataPath(QStringLiteral("cube/scalasca-cube3/kojak-example-ctest-pomp.cube")), QSize(1400, 900), true);
        SelectionState& state = opened.state;
        CubeBrowser& browser = *opened.browser;
        TopologyView* view = browser.topologyView();
        QCOMPARE(view->topology()->source, Topology::Source::Default);
        QCOMPARE(view->cellImage().size(), QSize(6, 6)); // 32 threads on ceil(sqrt(32)) columns
        QVERIFY(!view->threadAt(5, 5).isValid()); // cells 32..35 hold no thread
        QCOMPARE(view->threadAt(3, 2), ThreadIndex(15u));
        QTest::mouseClick(view->canvas(), Qt::LeftButton, {}, view->cellCentre(3, 2));
        QCOMPARE(state.thread(), ThreadIndex(15u));
        QCOMPARE(total(browser.distributionPanel()->binCounts()), std::size_t(32));
        // The user's grid: 8 processes x 4 threads, down the columns first.
        QVERIFY(view->setUserGrid(QStringLiteral("8x4 yxz")));
        QCOMPARE(view->topology()->source, Topology::Source::User);
        QCOMPARE(view->cellImage().size(), QSize(8, 4));
        QCOMPARE(view->threadAt(1, 1), ThreadIndex(5u));
        QCOMPARE(view->topologies().size(), std::size_t(2));
        QVERIFY(view->setUserGrid(QStringLiteral("0x8")));
        QCOMPARE(view->topologies().size(), std::size_t(2)); // replaced, not added
        QCOMPARE(view->cellImage().size(), QSize(4, 8));
        QString error;
        QVERIFY(!view->setUserGrid(QStringLiteral("2x2x2"), &error));
        QVERIFY2(error.contains(QLatin1String("fewer cells than the 32 threads")), qPrintable(error));
        QVERIFY(!view->setUserGrid(QStringLiteral("eight by four"), &error));
        QVERIFY2(error.contains(QLatin1String("expected sizes like 64x0x1")), qPrintable(error));
        browser.distributionPanel()->setBins(7);
        QCOMPARE(browser.distributionPanel()->binCounts().size(), std::size_t(7));
        QCOMPARE(total(browser.distributionPanel()->binCounts()), std::size_t(32));
    }

    void tauCrayNetwork()
    {
        // The cpi sample ran its 4 ranks on nid01045, CRAY_PMI_X/Y/Z = 2, 4, 5: the view opens on slice 5.
        OpenedCubeBrowser opened(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")), QSize(1400, 900));
        CubeBrowser& browser = *opened.browser;
        TopologyView* view = browser.topologyView();
        QCOMPARE(view->topology()->name, QStringLiteral("Cray network (CRAY_PMI_X/Y/Z)"));
        QCOMPARE(view->cellImage().size(), QSize(3, 5));
        QVERIFY(view->threadAt(2, 4).isValid());
        QVERIFY(!view->threadAt(0, 0).isValid());
        QCOMPARE(total(browser.distributionPanel()->binCounts()), std::size_t(4));
    }

    void cube3SlicesAndProjection()
    {
        OpenedCubeBrowser opened(
            dataPath(QStringLiteral("cube/scalasca-cube3/cubew-test3-template.cube")), QSize(1400, 900));
        SelectionState& state = opened.state;
        CubeBrowser& browser = *opened.browser;
        TopologyView* view = browser.topologyView();
        QCOMPARE(view->topologies().size(), std::size_t(5));
        view->setTopology(2); // "Second": 3 x 3 x 9
        QCOMPARE(view->cellImage().size(), QSize(3, 3));
        const Trial& trial = *state.trial();
        // Slice 0 holds both placed threads: Id 2 at (0 1), Id 3 at (1 0).
        QCOMPARE(view->threadAt(0, 1), trial.findThread(ThreadKey { 2, 0, 2 }));
        QCOMPARE(view->threadAt(1, 0), trial.findThread(ThreadKey { 3, 0, 3 }));
        view->setSlice(1);
        QVERIFY(!view->threadAt(0, 1).isValid());
        // "Third": thread 5 lies in slice 2, thread 10 in slice 0; the projection shows both.
        // It opens on the slice of its first placed thread.
        view->setTopology(3);
        QCOMPARE(view->threadAt(0, 1), trial.findThread(ThreadKey { 5, 0, 5 }));
        QVERIFY(!view->threadAt(1, 0).isValid());
        view->setSlice(0);
        QVERIFY(!view->threadAt(0, 1).isValid());
        QCOMPARE(view->threadAt(1, 0), trial.findThread(ThreadKey { 10, 0, 10 }));
        view->setProjection(true);
        QCOMPARE(view->threadAt(0, 1), trial.findThread(ThreadKey { 5, 0, 5 }));
        QCOMPARE(view->threadAt(1, 0), trial.findThread(ThreadKey { 10, 0, 10 }));
    }
};

QTEST_MAIN(TestTopologyView)
#include "tst_topologyview.moc"
