// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// SelectionState (the one state every view follows) and the group legend that drives its filters.
#include "tests/common/testutil.h"
#include "views/callgraph/calltreemodel.h"
#include "views/grouplegend.h"
#include "views/statisticspanel.h"
#include "views/selectionstate.h"

#include <QListWidget>
#include <QTreeView>
#include <QSignalSpy>

using namespace parallax;
using namespace parallax::test;

class TestSelection : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void historyBackAndForward()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        SelectionState state;
        QSignalSpy events(&state, &SelectionState::eventSelected);
        state.setTrial(trial);
        QCOMPARE(state.metric(), MetricId(0u));
        QVERIFY(!state.canGoBack());
        const EventId open = trial->findEvent(QStringLiteral("MPI_File_open()"));
        const EventId init = trial->findEvent(QStringLiteral("MPI_Init()"));
        state.selectEvent(open);
        state.selectThread(ThreadIndex(2u));
        state.selectEvent(init);
        QCOMPARE(events.count(), 2);
        QVERIFY(state.canGoBack());
        state.back();
        QCOMPARE(state.event(), open);
        QCOMPARE(state.thread(), ThreadIndex(2u));
        state.back();
        QCOMPARE(state.thread(), ThreadIndex());
        state.forward();
        state.forward();
        QCOMPARE(state.event(), init);
        QVERIFY(!state.canGoForward());
        // A new selection after going back drops the forward history.
        state.back();
        state.selectEvent(trial->findEvent(QStringLiteral("MPI_Bcast()")));
        QVERIFY(!state.canGoForward());
    }

    void filters()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        SelectionState state;
        state.setTrial(trial);
        const EventId path = trial->findEvent(QStringLiteral(".TAU application => MPI_Init()"));
        const EventId flat = trial->findEvent(QStringLiteral("MPI_Init()"));
        const EventId root = trial->findEvent(QStringLiteral(".TAU application"));
        QVERIFY(state.isEventVisible(path));
        state.hideGroup(trial->findGroup(QStringLiteral("TAU_CALLPATH")));
        QVERIFY(!state.isEventVisible(path));
        QVERIFY(state.isEventVisible(flat));
        state.clearFilters();
        state.showOnlyGroup(trial->findGroup(QStringLiteral("TAU_DEFAULT")));
        QVERIFY(state.isEventVisible(root));
        QVERIFY(!state.isEventVisible(flat));
        state.clearFilters();
        state.setNameFilter(QStringLiteral("mpi_init"));
        QVERIFY(state.isEventVisible(flat));
        QVERIFY(!state.isEventVisible(root));
        state.setNameFilter(QStringLiteral("^MPI_(Init|Bcast)\\(\\)$"), true);
        QVERIFY(state.isEventVisible(flat));
        QVERIFY(!state.isEventVisible(path));
    }

    void filtersReachTheTables()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        SelectionState state;
        StatisticsPanel panel(&state);
        state.setTrial(trial);
        QCOMPARE(panel.flatModel()->rowCount(), 23);
        state.setNameFilter(QStringLiteral("File_open"));
        QCOMPARE(panel.flatModel()->rowCount(), 2); // the flat event and its call path
        // The tree keeps the path to the match: root -> MPI_Finalize() -> MPI_File_open().
        CallTreeModel* tree = panel.treeModel();
        QCOMPARE(tree->rowCount(), 1);
        const QModelIndex root = tree->index(0, 0);
        QCOMPARE(tree->rowCount(root), 1);
        const QModelIndex fin = tree->index(0, 0, root);
        QCOMPARE(tree->data(fin).toString(), QStringLiteral("MPI_Finalize()"));
        QCOMPARE(tree->rowCount(fin), 1);
        state.clearFilters();
        QCOMPARE(panel.flatModel()->rowCount(), 23);
        QCOMPARE(tree->rowCount(tree->index(0, 0)), 7);
        // Selecting an event elsewhere selects its row here.
        state.selectEvent(trial->findEvent(QStringLiteral("MPI_Init()")));
        const QModelIndex current = panel.currentView()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(current.sibling(current.row(), 0).data().toString(), QStringLiteral("MPI_Init()"));
    }

    void legendDrivesFilters()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        SelectionState state;
        GroupLegend legend(&state);
        state.setTrial(trial);
        auto* list = legend.findChild<QListWidget*>();
        QVERIFY(list);
        QCOMPARE(list->count(), 3); // MPI, TAU_CALLPATH, TAU_DEFAULT
        QCOMPARE(list->item(1)->text(), QStringLiteral("TAU_CALLPATH (11)"));
        QSignalSpy spy(&state, &SelectionState::filtersChanged);
        list->item(1)->setCheckState(Qt::Unchecked);
        QCOMPARE(spy.count(), 1);
        QVERIFY(!state.isEventVisible(trial->findEvent(QStringLiteral(".TAU application => MPI_Init()"))));
        state.clearFilters();
        QCOMPARE(list->item(1)->checkState(), Qt::Checked);
    }
};

QTEST_MAIN(TestSelection)
#include "tst_selection.moc"
