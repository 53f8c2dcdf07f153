// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// SelectionState (the one state every view follows) and the group legend that drives its filters.
#include "tests/common/testutil.h"
#include "views/callgraph/calltreemodel.h"
#include "views/common/job.h"
#include "views/common/selectionview.h"
#include "views/common/treemodel.h"
#include "views/grouplegend.h"
#include "views/selectionstate.h"
#include "views/statisticspanel.h"

#include <QAbstractItemModelTester>
#include <QListWidget>
#include <QSignalSpy>
#include <QThread>
#include <QThreadPool>
#include <QTreeView>
#include <algorithm>

using namespace parallax;
using namespace parallax::test;

namespace {

// A SelectionView that records the updates it receives.
class RecordingView : public QObject, public SelectionView {
public:
    RecordingView(SelectionState* state, SelectionChanges interest)
        : SelectionView(this, state, interest)
    {
    }
    std::vector<SelectionChanges> updates;

protected:
    void doUpdate(SelectionChanges changes) override { updates.push_back(changes); }
};

/// The same, as a widget: its updates wait until it is shown.
class RecordingWidget : public QWidget, public SelectionView {
public:
    RecordingWidget(SelectionState* state, SelectionChanges interest)
        : SelectionView(this, state, interest)
    {
    }
    std::vector<SelectionChanges> updates;

protected:
    void doUpdate(SelectionChanges changes) override { updates.push_back(changes); }
};

} // namespace

namespace {

/// A NodeTreeModel over names: "a/b/c" adds c under b under a (in the order given).
class PathTreeModel : public NodeTreeModel {
public:
    explicit PathTreeModel(const QStringList& paths)
    {
        for (const QString& path : paths) {
            int parent = NoNode;
            for (const QString& part : path.split(QLatin1Char('/'))) {
                int found = NoNode;
                for (int child : *childNodes(parent))
                    if (m_names[static_cast<std::size_t>(child)] == part)
                        found = child;
                if (found == NoNode) {
                    found = addNode(parent);
                    m_names.push_back(part);
                }
                parent = found;
            }
        }
    }
    /// Removes a top-level row.
    void removeTop(int row)
    {
        beginRemoveRows({}, row, row);
        removeNode(topNodes()[static_cast<std::size_t>(row)]);
        endRemoveRows();
    }
    int columnCount(const QModelIndex& = {}) const override { return 1; }
    QVariant data(const QModelIndex& index, int role) const override
    {
        if (role != Qt::DisplayRole || !index.isValid())
            return {};
        return m_names[static_cast<std::size_t>(nodeOfIndex(index))];
    }

private:
    std::vector<QString> m_names;
};

/// The rows of a model as "name(children...)" in row order.
QString dump(const QAbstractItemModel& model, const QModelIndex& parent = {})
{
    QStringList rows;
    for (int r = 0; r < model.rowCount(parent); ++r) {
        const QModelIndex index = model.index(r, 0, parent);
        QString row = index.data().toString();
        if (index.parent() != parent)
            row += QStringLiteral("!parent");
        if (model.rowCount(index) > 0)
            row += QLatin1Char('(') + dump(model, index) + QLatin1Char(')');
        rows << row;
    }
    return rows.join(QLatin1Char(' '));
}

} // namespace

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

    /// The selected set of threads (a cluster): sorted without duplicates or unknown threads, one
    /// ThreadSet change per real change, kept apart from the single thread, in the history, and
    /// cleared with the trial.
    void threadSet()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        SelectionState s;
        s.setTrial(trial);
        QSignalSpy changed(&s, &SelectionState::changed);
        QSignalSpy sets(&s, &SelectionState::threadsSelected);
        s.selectThreads({ ThreadIndex(3u), ThreadIndex(1u), ThreadIndex(3u), ThreadIndex(99u), ThreadIndex() });
        QCOMPARE(s.selectedThreads(), (std::vector<ThreadIndex> { ThreadIndex(1u), ThreadIndex(3u) }));
        QVERIFY(s.isThreadSelected(ThreadIndex(1u)) && !s.isThreadSelected(ThreadIndex(2u)));
        QVERIFY(!s.isThreadSelected(ThreadIndex(99u)));
        QCOMPARE(sets.size(), 1);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed[0][0].value<SelectionChanges>(),
            SelectionChanges(SelectionChange::ThreadSet | SelectionChange::History));
        s.selectThreads({ ThreadIndex(1u), ThreadIndex(3u) }); // the same set: nothing
        QCOMPARE(changed.size(), 1);
        s.selectThread(ThreadIndex(2u)); // the single thread keeps the set
        QCOMPARE(s.thread(), ThreadIndex(2u));
        QCOMPARE(s.selectedThreads().size(), std::size_t(2));
        s.clearSelectedThreads();
        QVERIFY(s.selectedThreads().empty());
        s.back(); // the set and thread 2
        QCOMPARE(s.selectedThreads().size(), std::size_t(2));
        QCOMPARE(s.thread(), ThreadIndex(2u));
        s.back(); // the set, no thread
        QVERIFY(!s.thread().isValid());
        QCOMPARE(s.selectedThreads().size(), std::size_t(2));
        s.back(); // the start: nothing
        QVERIFY(s.selectedThreads().empty());
        QVERIFY(changed.last()[0].value<SelectionChanges>() & SelectionChange::ThreadSet);
        s.forward();
        QCOMPARE(s.selectedThreads().size(), std::size_t(2));
        s.setTrial(trial);
        QVERIFY(s.selectedThreads().empty() && !s.isThreadSelected(ThreadIndex(1u)));
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
        // Flat events by default (ParaProf hides TAU_CALLPATH too); the button adds the call paths.
        QCOMPARE(panel.flatModel()->rowCount(), 12);
        QVERIFY(!panel.showsCallPaths());
        panel.setShowCallPaths(true);
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

    void oneChangeSignalWithABitmask()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        SelectionState state;
        QSignalSpy changed(&state, &SelectionState::changed);
        state.setTrial(trial);
        QCOMPARE(changed.count(), 1);
        const auto all = changed.takeFirst().at(0).value<SelectionChanges>();
        QVERIFY(all.testFlag(SelectionChange::Trial) && all.testFlag(SelectionChange::Metric)
            && all.testFlag(SelectionChange::Filters) && !all.testFlag(SelectionChange::View));
        state.selectThread(ThreadIndex(1u));
        QCOMPARE(
            changed.takeFirst().at(0).value<SelectionChanges>(), SelectionChange::Thread | SelectionChange::History);
        state.setTimeUnit(TimeUnit::Seconds);
        state.setTimeUnit(TimeUnit::Seconds); // no change, no signal
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.takeFirst().at(0).value<SelectionChanges>(), SelectionChanges(SelectionChange::TimeUnit));
    }

    void selectionViewCoalescesBursts()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        SelectionState state;
        RecordingView view(&state, SelectionChange::Trial | SelectionChange::ValueType | SelectionChange::TimeUnit);
        state.setTrial(trial);
        state.setValueType(ValueType::Inclusive);
        state.setTimeUnit(TimeUnit::Seconds);
        state.selectThread(ThreadIndex(1u)); // not of interest
        QVERIFY(view.updates.empty()); // nothing until the event loop turns
        QVERIFY(view.isUpdatePending());
        QCoreApplication::processEvents();
        QCOMPARE(view.updates.size(), std::size_t(1));
        QCOMPARE(view.updates[0], SelectionChange::Trial | SelectionChange::ValueType | SelectionChange::TimeUnit);
        QCoreApplication::processEvents();
        QCOMPARE(view.updates.size(), std::size_t(1));
        state.selectThread(ThreadIndex(2u));
        QCoreApplication::processEvents();
        QCOMPARE(view.updates.size(), std::size_t(1));
        // updateNow() brings a scheduled update forward; the queued call then has nothing to do.
        view.scheduleUpdate();
        view.updateNow();
        QCOMPARE(view.updates.size(), std::size_t(2));
        QCOMPARE(view.updates[1], SelectionChanges(SelectionChange::View));
        QCoreApplication::processEvents();
        QCOMPARE(view.updates.size(), std::size_t(2));
    }

    /// A hidden widget view (a background tab, a closed dock) does not compute: its update waits for
    /// its show event, with every change since (issue 18 §4); updateNow() still updates it.
    void hiddenViewUpdatesWhenShown()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        SelectionState state;
        // A hidden child of a window on screen, as a background tab.
        QWidget window;
        auto* child = new RecordingWidget(&state, SelectionChange::Trial | SelectionChange::ValueType);
        child->setParent(&window);
        child->hide();
        window.show();
        RecordingWidget& view = *child;
        state.setTrial(trial);
        QCoreApplication::processEvents();
        QVERIFY(view.updates.empty());
        QVERIFY(view.isUpdatePending());
        state.setValueType(ValueType::Inclusive);
        QCoreApplication::processEvents();
        QVERIFY(view.updates.empty());
        view.show();
        QCoreApplication::processEvents();
        QCOMPARE(view.updates.size(), std::size_t(1));
        QCOMPARE(view.updates[0], SelectionChange::Trial | SelectionChange::ValueType);
        QVERIFY(!view.isUpdatePending());
        // Shown, it follows at once; hidden again, it waits again.
        state.setValueType(ValueType::Exclusive);
        QCoreApplication::processEvents();
        QCOMPARE(view.updates.size(), std::size_t(2));
        view.hide();
        state.setValueType(ValueType::Calls);
        QCoreApplication::processEvents();
        QCOMPARE(view.updates.size(), std::size_t(2));
        view.updateNow();
        QCOMPARE(view.updates.size(), std::size_t(3));
        QVERIFY(!view.isUpdatePending());
    }

    void jobDropsSupersededResults()
    {
        QObject owner;
        Job<int> job(&owner);
        std::vector<int> delivered;
        std::atomic_bool release = false;
        // The first run waits until released, then reports whether it saw the cancel flag.
        job.start(
            [&release](const std::atomic_bool& cancel) {
                while (!release.load())
                    QThread::msleep(1);
                return cancel.load() ? -1 : 1;
            },
            [&delivered](int v) { delivered.push_back(v); });
        const auto first = job.generation();
        job.start([](const std::atomic_bool&) { return 2; }, [&delivered](int v) { delivered.push_back(v); });
        QCOMPARE(job.generation(), first + 1);
        release = true;
        QTRY_VERIFY(!job.isRunning());
        QCOMPARE(delivered, std::vector<int>({ 2 })); // the superseded run's result never arrives
        job.start([](const std::atomic_bool&) { return 3; }, [&delivered](int v) { delivered.push_back(v); });
        job.waitAndDeliver();
        QCOMPARE(delivered, std::vector<int>({ 2, 3 }));
        job.start([](const std::atomic_bool&) { return 4; }, [&delivered](int v) { delivered.push_back(v); });
        job.cancel();
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QCOMPARE(delivered, std::vector<int>({ 2, 3 }));
    }

    void jobReportsProgress()
    {
        QObject owner;
        Job<int> job(&owner);
        std::vector<int> steps;
        QStringList texts;
        job.followProgress(
            &owner, [&steps](int step) { steps.push_back(step); }, [&texts](const QString& text) { texts << text; });
        std::vector<int> delivered;
        std::atomic_bool release = false;
        // A superseded run with progress is dropped like any other.
        job.startWithProgress(
            3,
            [&release](const std::atomic_bool& cancel, const Job<int>::Progress&) {
                while (!release.load())
                    QThread::msleep(1);
                return cancel.load() ? -1 : 1;
            },
            [&delivered](int v) { delivered.push_back(v); });
        job.startWithProgress(
            3,
            [](const std::atomic_bool&, const Job<int>::Progress& progress) {
                progress(1, QStringLiteral("reading"));
                progress(3, QStringLiteral("done"));
                return 7;
            },
            [&delivered](int v) { delivered.push_back(v); });
        release = true;
        QTRY_VERIFY(!job.isRunning());
        QCOMPARE(delivered, std::vector<int>({ 7 }));
        QCOMPARE(job.watcher()->progressMaximum(), 3);
        QTRY_VERIFY(!steps.empty() && steps.back() == 3);
        QTRY_VERIFY(!texts.isEmpty() && texts.last() == QLatin1String("done"));
        // cancelAndWait() returns once the run has ended, and its result never arrives.
        std::atomic_bool ended = false;
        job.start(
            [&ended](const std::atomic_bool& cancel) {
                while (!cancel.load())
                    QThread::msleep(1);
                ended = true;
                return 8;
            },
            [&delivered](int v) { delivered.push_back(v); });
        job.cancelAndWait();
        QVERIFY(ended.load());
        QVERIFY(!job.isRunning());
        QCoreApplication::processEvents();
        QCOMPARE(delivered, std::vector<int>({ 7 }));
    }

    void runInBackgroundDeliversEveryRun()
    {
        QObject owner;
        std::vector<int> delivered;
        const auto record = [&delivered](int v) { delivered.push_back(v); };
        // Unlike Job<T>, a second run does not supersede the first: both results arrive.
        QFuture<int> first = runInBackground(
            &owner, [] { return 1; }, record);
        QFuture<int> second = runInBackground(
            &owner, [] { return 2; }, record);
        first.waitForFinished();
        second.waitForFinished();
        QTRY_COMPARE(delivered.size(), std::size_t(2));
        std::sort(delivered.begin(), delivered.end());
        QCOMPARE(delivered, std::vector<int>({ 1, 2 }));
        // A context deleted before the run ends receives nothing.
        auto* gone = new QObject;
        std::atomic_bool release = false;
        QFuture<int> third = runInBackground(
            gone,
            [&release] {
                while (!release.load())
                    QThread::msleep(1);
                return 3;
            },
            record);
        delete gone;
        release = true;
        third.waitForFinished();
        QCoreApplication::processEvents();
        QCOMPARE(delivered, std::vector<int>({ 1, 2 }));
    }

    void nodeTreeModelKeepsItsTree()
    {
        // Enough nodes that the node table grows (and moves) while children are added.
        QStringList paths { QStringLiteral("a/b/c"), QStringLiteral("a/d"), QStringLiteral("e") };
        for (int i = 0; i < 40; ++i)
            paths << QStringLiteral("a/b/x%1").arg(i);
        paths << QStringLiteral("e/f") << QStringLiteral("g/h/i");
        PathTreeModel model(paths);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QStringList xs;
        for (int i = 0; i < 40; ++i)
            xs << QStringLiteral("x%1").arg(i);
        QCOMPARE(dump(model), QStringLiteral("a(b(c %1) d) e(f) g(h(i))").arg(xs.join(QLatin1Char(' '))));
        // Removing a row moves the rows below it up; the others keep their places.
        const QPersistentModelIndex g = model.index(2, 0);
        model.removeTop(1);
        QCOMPARE(dump(model), QStringLiteral("a(b(c %1) d) g(h(i))").arg(xs.join(QLatin1Char(' '))));
        QCOMPARE(g.row(), 1);
        QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("g"));
        QCOMPARE(model.index(0, 0, model.index(0, 0, model.index(1, 0))).data().toString(), QStringLiteral("i"));
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
