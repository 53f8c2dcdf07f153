// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The CUBE browser's context menus (issue 15, section 3): "Re-root Here" and "Prune" on call paths,
// "Keep Only These" on locations, each a new trial computed in the background (algebra/cut.h). The new
// trials' values are checked against the source trial's cells, and against what the browser showed
// for the item before the operation.
#include "tests/common/testutil.h"
#include "views/cube/cubebrowser.h"
#include "views/cube/cubepanemodel.h"
#include "views/selectionstate.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

QString kojak() { return dataPath(QStringLiteral("cube/scalasca-cube3/kojak-example-ctest-pomp.cube")); }

bool near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max({ 1.0, std::fabs(a), std::fabs(b) }); }

/// {exclusive, inclusive} of `event` on thread t for metric m; nullopt when the thread has no cell.
std::optional<std::pair<double, double>> cell(const Trial& trial, std::size_t t, const QString& event, MetricId m)
{
    const EventId e = trial.findEvent(event);
    if (!e.isValid())
        return std::nullopt;
    const RowView row = trial.row(ThreadIndex(t));
    const auto i = row.find(e);
    if (i < 0)
        return std::nullopt;
    return std::make_pair(row.exclusive(m.index(), std::size_t(i)), row.inclusive(m.index(), std::size_t(i)));
}

/// Runs one operation and returns the trial it derived (null on failure).
template <typename Op> TrialPtr derive(CubeBrowser& browser, Op op)
{
    QSignalSpy derived(&browser, &CubeBrowser::trialDerived);
    op();
    browser.finishComputing();
    if (derived.count() != 1)
        return nullptr;
    return derived.front().front().value<TrialPtr>();
}

} // namespace

class TestCubeOperations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<TrialPtr>("parallax::TrialPtr"); }

    void reRootHere()
    {
        SelectionState state;
        state.setTrial(mustLoad(kojak()));
        CubeBrowser browser(&state);
        browser.updateNow();
        browser.finishComputing();
        const CubeSpace& space = *browser.space();
        const QString p2pPath = QStringLiteral("main => parallel => p2p");
        const int p2p = space.find(CubePane::Call, p2pPath);
        QVERIFY(p2p >= 0);
        browser.selectItem(CubePane::Metric, space.find(CubePane::Metric, QStringLiteral("Time")));
        browser.selectItem(CubePane::Call, p2p);
        browser.finishComputing();
        const double shown = browser.model(CubePane::Call)->shownValue(p2p); // collapsed: inclusive
        QVERIFY(shown > 0);

        const TrialPtr cut = derive(browser, [&] { browser.reRoot(p2p); });
        QVERIFY(cut);
        QVERIFY(cut->name().contains(QStringLiteral("re-rooted at main => parallel => p2p")));
        QCOMPARE(cut->threadCount(), state.trial()->threadCount());
        // Per thread, the new root is the old call path: the same inclusive and exclusive time.
        const MetricId time = state.trial()->findMetric(QStringLiteral("Time"));
        const MetricId cutTime = cut->findMetric(QStringLiteral("Time"));
        QVERIFY(time.isValid() && cutTime.isValid());
        double total = 0;
        for (std::size_t t = 0; t < cut->threadCount(); ++t) {
            const auto before = cell(*state.trial(), t, p2pPath, time);
            const auto after = cell(*cut, t, QStringLiteral("p2p"), cutTime);
            QCOMPARE(before.has_value(), after.has_value());
            if (!before)
                continue;
            QVERIFY(near(before->first, after->first));
            QVERIFY(near(before->second, after->second));
            total += after->second;
        }
        QVERIFY(near(total, shown));
        // Nothing outside the subtree is left.
        for (const IntervalEvent& e : cut->events())
            QVERIFY2(e.name.startsWith(QStringLiteral("p2p")) || !e.isCallPath(), qPrintable(e.name));

        // Browsing the new trial: one call root, p2p, with the value the old browser showed.
        state.setTrial(cut);
        browser.updateNow();
        browser.finishComputing();
        const CubeSpace& after = *browser.space();
        QCOMPARE(after.roots(CubePane::Call).size(), std::size_t(1));
        const int root = after.roots(CubePane::Call).front();
        QCOMPARE(after.label(CubePane::Call, root), QStringLiteral("p2p"));
        browser.selectItem(CubePane::Metric, after.find(CubePane::Metric, QStringLiteral("Time")));
        browser.finishComputing();
        QVERIFY(near(browser.model(CubePane::Call)->shownValue(root), shown));
    }

    void pruneFoldsIntoParent()
    {
        SelectionState state;
        state.setTrial(mustLoad(kojak()));
        CubeBrowser browser(&state);
        browser.updateNow();
        browser.finishComputing();
        const CubeSpace& space = *browser.space();
        const QString parentPath = QStringLiteral("main => parallel");
        const QString p2pPath = QStringLiteral("main => parallel => p2p");
        const int p2p = space.find(CubePane::Call, p2pPath);
        const int main = space.roots(CubePane::Call).front();
        QVERIFY(p2p >= 0);
        // Pruning p2p and a descendant of it prunes p2p once.
        std::vector<int> items { p2p };
        if (!space.item(CubePane::Call, p2p).children.empty())
            items.push_back(space.item(CubePane::Call, p2p).children.front());
        const TrialPtr pruned = derive(browser, [&] { browser.prune(items); });
        QVERIFY(pruned);
        QVERIFY(!pruned->findEvent(p2pPath).isValid());
        const Trial& source = *state.trial();
        for (std::size_t m = 0; m < source.metricCount(); ++m) {
            const MetricId sm(m);
            const MetricId pm = pruned->findMetric(source.metric(sm).name);
            QVERIFY(pm.isValid());
            for (std::size_t t = 0; t < source.threadCount(); ++t) {
                const auto parent = cell(source, t, parentPath, sm);
                const auto child = cell(source, t, p2pPath, sm);
                const auto after = cell(*pruned, t, parentPath, pm);
                if (!parent)
                    continue;
                QVERIFY(after);
                // The parent's inclusive stays; its own value gains the pruned inclusive.
                QVERIFY(near(after->second, parent->second));
                QVERIFY(near(after->first, parent->first + (child ? child->second : 0.0)));
            }
        }
        // A root has no parent to fold into: the operation fails with the algebra's reason.
        QSignalSpy failed(&browser, &CubeBrowser::operationFailed);
        QVERIFY(!derive(browser, [&] { browser.prune({ main }); }));
        QCOMPARE(failed.count(), 1);
        QVERIFY2(failed.front().front().toString().contains(QStringLiteral("root")),
            qPrintable(failed.front().front().toString()));
    }

    void keepOnlyTheseLocations()
    {
        SelectionState state;
        state.setTrial(mustLoad(kojak()));
        CubeBrowser browser(&state);
        browser.updateNow();
        browser.finishComputing();
        const CubeSpace& space = *browser.space();
        // Two locations of different processes, and a whole process.
        const int loc3 = space.itemOfThread(ThreadIndex(3u));
        const int process = space.item(CubePane::System, space.itemOfThread(ThreadIndex(20u))).parent;
        QCOMPARE(space.systemLevel(process), QStringLiteral("process"));
        const std::vector<std::size_t> threads = browser.threadsUnder({ loc3, process });
        QVERIFY(threads.size() >= 2);
        QCOMPARE(threads.front(), std::size_t(3));
        QVERIFY(std::is_sorted(threads.begin(), threads.end()));

        browser.selectItem(CubePane::Metric, space.find(CubePane::Metric, QStringLiteral("Time")));
        browser.finishComputing();
        const TrialPtr kept = derive(browser, [&] { browser.keepOnly({ loc3, process }); });
        QVERIFY(kept);
        QCOMPARE(kept->threadCount(), threads.size());
        // Each kept thread is the old one, cell for cell.
        const Trial& source = *state.trial();
        const MetricId time = source.findMetric(QStringLiteral("Time"));
        for (std::size_t i = 0; i < threads.size(); ++i) {
            QCOMPARE(kept->threadKey(ThreadIndex(i)), source.threadKey(ThreadIndex(threads[i])));
            QCOMPARE(kept->row(ThreadIndex(i)).size(), source.row(ThreadIndex(threads[i])).size());
            const auto a = cell(source, threads[i], QStringLiteral("main"), time);
            const auto b = cell(*kept, i, QStringLiteral("main"), kept->findMetric(QStringLiteral("Time")));
            QCOMPARE(a.has_value(), b.has_value());
            if (a)
                QCOMPARE(a->second, b->second);
        }
    }

    void flatViewReRootsAtTheRegion()
    {
        SelectionState state;
        state.setTrial(mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"))));
        CubeBrowser browser(&state);
        browser.setFlat(true);
        browser.updateNow();
        browser.finishComputing();
        const CubeSpace& space = *browser.space();
        QCOMPARE(space.callView(), CubeSpace::CallView::Flat);
        const int region = space.find(CubePane::Call, QStringLiteral("MPI_Finalize()"));
        QVERIFY(region >= 0);
        const TrialPtr cut = derive(browser, [&] { browser.reRoot(region); });
        QVERIFY(cut);
        // The region's own flat event is the new root; every call path starts with it.
        QVERIFY(cut->findEvent(QStringLiteral("MPI_Finalize()")).isValid());
        for (const IntervalEvent& e : cut->events())
            if (e.isCallPath())
                QVERIFY2(e.name.startsWith(QStringLiteral("MPI_Finalize()")), qPrintable(e.name));
        const MetricId m(std::size_t(0));
        for (std::size_t t = 0; t < cut->threadCount(); ++t) {
            const auto a = cell(*state.trial(), t, QStringLiteral("MPI_Finalize()"), m);
            const auto b = cell(*cut, t, QStringLiteral("MPI_Finalize()"), m);
            QCOMPARE(a.has_value(), b.has_value());
            if (a)
                QVERIFY(near(a->second, b->second));
        }
    }
};

QTEST_MAIN(TestCubeOperations)
#include "tst_cubeoperations.moc"
