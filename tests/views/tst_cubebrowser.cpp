// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The CUBE browser (issue 15, section 1): three coupled panes over real CUBE and TAU files, the
// values against pycubexr's CSV dumps, expansion switching inclusive to own values, the link to the
// main window's selection, value modes, hiding with exact sums, pane order, and the model's
// consistency under QAbstractItemModelTester.
#include "tests/common/cubebrowsertest.h"
#include "tests/common/pycubexrdump.h"
#include "tests/common/testutil.h"
#include "views/cube/cubebrowser.h"
#include "views/cube/cubepanemodel.h"
#include "views/selectionstate.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QTest>
#include <QTreeView>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

double sum(const std::vector<double>& v)
{
    double s = 0;
    for (double x : v)
        s += x;
    return s;
}

double valueOf(const CubePaneModel* m, int item) { return m->shownValue(item); }

} // namespace

class TestCubeBrowser : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void panesMatchPycubexr()
    {
        const QString dir = dataPath(QStringLiteral("cube/pycubexr/time.p4.n2000.x1.r0"));
        OpenedCubeBrowser opened(dir + QStringLiteral("/profile.cubex"), QSize(1400, 800));
        CubeBrowser& browser = *opened.browser;
        QVERIFY(browser.space());
        QAbstractItemModelTester tester(
            browser.model(CubePane::Call), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester systemTester(
            browser.model(CubePane::System), QAbstractItemModelTester::FailureReportingMode::QtTest);

        // Select Time; the call root bg_time collapsed: its inclusive time over the 4 ranks.
        const CubeSpace& space = *browser.space();
        browser.selectItem(CubePane::Metric, space.find(CubePane::Metric, QStringLiteral("Time")));
        browser.finishComputing();
        const int root = space.roots(CubePane::Call).front();
        const auto incl = pycubexrCnode(dir + QStringLiteral("/incl.csv"), 0);
        const auto excl = pycubexrCnode(dir + QStringLiteral("/excl.csv"), 0);
        QCOMPARE(incl.size(), std::size_t(4));
        QVERIFY(std::abs(valueOf(browser.model(CubePane::Call), root) - sum(incl)) < 1e-5);
        // The box plot of the root: the four ranks' inclusive times.
        const QVariant box = browser.model(CubePane::Call)
                                 ->indexOfItem(root, CubePaneModel::DistributionColumn)
                                 .data(CubePaneModel::BoxRole);
        QVERIFY(box.isValid());
        QVERIFY(std::abs(box.value<BoxStats>().max - *std::max_element(incl.begin(), incl.end())) < 1e-5);
        QCOMPARE(box.value<BoxStats>().count, std::size_t(4));

        // Expanding the root switches it to its own value; the locations follow.
        browser.tree(CubePane::Call)->expand(browser.model(CubePane::Call)->indexOfItem(root, 0));
        browser.finishComputing();
        QVERIFY(browser.state().pane(CubePane::Call).isExpanded(root));
        QVERIFY(std::abs(valueOf(browser.model(CubePane::Call), root) - sum(excl)) < 1e-4);
        for (std::size_t t = 0; t < 4; ++t) {
            const int loc = space.itemOfThread(ThreadIndex(t));
            browser.selectItem(CubePane::System, loc); // opens the machine, node and process
        }
        browser.finishComputing();
        for (std::size_t t = 0; t < 4; ++t)
            QVERIFY(std::abs(valueOf(browser.model(CubePane::System), space.itemOfThread(ThreadIndex(t))) - excl[t])
                < 1e-4);
        // The system tree shows the location groups by name.
        QCOMPARE(space.systemLevel(space.item(CubePane::System, space.itemOfThread(ThreadIndex(0u))).parent),
            QStringLiteral("process"));
    }

    void linkedToTheMainSelection()
    {
        OpenedCubeBrowser opened(dataPath(QStringLiteral("cube/scalasca-cube3/kojak-example-ctest-pomp.cube")));
        SelectionState& state = opened.state;
        CubeBrowser& browser = *opened.browser;
        const CubeSpace& space = *browser.space();
        // The main window selects an event: the call pane follows.
        const EventId step = state.trial()->findEvent(QStringLiteral(
            "main => parallel => sequential => !$omp parallel @ctest-pomp.c:48 => !$omp for @ctest-pomp.c:53 => step"));
        QVERIFY(step.isValid());
        state.selectEvent(step);
        browser.updateNow();
        QCOMPARE(browser.state().pane(CubePane::Call).selected, std::vector<int> { space.itemOfEvent(step) });
        // The browser selects a call path: the main window's event follows.
        const int p2p = space.find(CubePane::Call, QStringLiteral("main => parallel => p2p"));
        QVERIFY(p2p >= 0);
        browser.selectItem(CubePane::Call, p2p);
        QCOMPARE(state.event(), state.trial()->findEvent(QStringLiteral("main => parallel => p2p")));
        // A location: the main window's thread.
        const int loc = space.itemOfThread(ThreadIndex(5u));
        browser.selectItem(CubePane::System, loc);
        QCOMPARE(state.thread(), ThreadIndex(5u));
        state.selectThread(ThreadIndex(9u));
        browser.updateNow();
        QCOMPARE(
            browser.state().pane(CubePane::System).selected, std::vector<int> { space.itemOfThread(ThreadIndex(9u)) });
    }

    void modesHidingAndOrder()
    {
        OpenedCubeBrowser opened(dataPath(QStringLiteral("cube/scalasca-cube3/kojak-example-ctest-pomp.cube")));
        CubeBrowser& browser = *opened.browser;
        const CubeSpace& space = *browser.space();
        CubePaneModel* call = browser.model(CubePane::Call);
        const int main = space.roots(CubePane::Call).front();
        // Metric root %: the collapsed root of the call tree is 100 % of Time.
        browser.setMode(CubePane::Call, CubeMode::MetricRoot);
        QCOMPARE(call->valueText(main), QLocale().toString(100.0, 'f', 2) + QStringLiteral(" %"));
        QCOMPARE(
            call->headerData(CubePaneModel::ValueColumn, Qt::Horizontal).toString(), QStringLiteral("Metric root %"));
        // External %: against another run's total of the same metric (here the same file read again,
        // so the collapsed root is 100 %; without an external trial the mode has no reference).
        browser.setMode(CubePane::Call, CubeMode::External);
        QCOMPARE(call->valueText(main), QStringLiteral("—"));
        browser.setExternalTrial(
            mustLoad(dataPath(QStringLiteral("cube/scalasca-cube3/kojak-example-ctest-pomp.cube"))));
        browser.finishComputing();
        QCOMPARE(call->valueText(main), QLocale().toString(100.0, 'f', 2) + QStringLiteral(" %"));
        browser.setExternalTrial(nullptr);
        QCOMPARE(call->valueText(main), QStringLiteral("—"));
        // Peer modes exist in the system pane only.
        QVERIFY(browser.findChildren<QComboBox*>().size() >= 6);

        // Hide below 20 %: main's small children vanish, and the expanded main shows its own
        // value plus theirs, so the shown values still add up to main's inclusive value.
        browser.setMode(CubePane::Call, CubeMode::Absolute);
        const double whole = call->shownValue(main);
        browser.tree(CubePane::Call)->expand(call->indexOfItem(main, 0));
        browser.finishComputing();
        call->setHideBelow(20);
        const QModelIndex mainIndex = call->indexOfItem(main, 0);
        const int shownChildren = call->rowCount(mainIndex);
        QVERIFY(shownChildren > 0);
        QVERIFY(static_cast<std::size_t>(shownChildren) < space.item(CubePane::Call, main).children.size());
        double shown = call->shownValue(main);
        for (int r = 0; r < shownChildren; ++r)
            shown += call->shownValue(call->itemOf(call->index(r, 0, mainIndex)));
        QVERIFY2(std::abs(shown - whole) <= 1e-9 * std::abs(whole),
            qPrintable(QStringLiteral("%1 vs %2").arg(shown).arg(whole)));
        call->setHideBelow(0);
        QCOMPARE(call->rowCount(call->indexOfItem(main, 0)), int(space.item(CubePane::Call, main).children.size()));

        // Sorting by value: children in descending order.
        call->setSort(CubePaneModel::Sort::ValueDescending);
        const QModelIndex m = call->indexOfItem(main, 0);
        for (int r = 1; r < call->rowCount(m); ++r)
            QVERIFY(call->shownValue(call->itemOf(call->index(r - 1, 0, m)))
                >= call->shownValue(call->itemOf(call->index(r, 0, m))));

        // Order system | call | metric: the call pane now sums over the selected location only.
        browser.selectItem(CubePane::System, space.itemOfThread(ThreadIndex(0u)));
        browser.setOrder({ CubePane::System, CubePane::Call, CubePane::Metric });
        browser.finishComputing();
        QCOMPARE(browser.state().order[0], CubePane::System);
        browser.tree(CubePane::Call)->collapse(call->indexOfItem(main, 0));
        browser.finishComputing();
        QVERIFY(call->shownValue(main) < whole / 4); // one of 32 threads
        QVERIFY(call->shownValue(main) > 0);
    }

    void tauTrialOpensCollapsed()
    {
        // A TAU trial: one metric level, a machine with one node per host, ranks, threads.
        OpenedCubeBrowser opened(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        SelectionState& state = opened.state;
        CubeBrowser& browser = *opened.browser;
        const CubeSpace& space = *browser.space();
        QCOMPARE(space.roots(CubePane::System).size(), std::size_t(1));
        QCOMPARE(browser.model(CubePane::System)->rowCount(), 1);
        QCOMPARE(space.levels(CubePane::System).back().size(), state.trial()->threadCount());
        QVERIFY(!browser.state().pane(CubePane::System).isExpanded(space.roots(CubePane::System).front()));
        QCOMPARE(browser.model(CubePane::Metric)->rowCount(), int(state.trial()->metricCount()));
    }
};

QTEST_MAIN(TestCubeBrowser)
#include "tst_cubebrowser.moc"
