// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The call-tree statistics table and the call graph (issue 3, items 5 and 6) on the real samples.
#include "datasource/model/trialbuilder.h"
#include "datasource/synth/synth.h"
#include "tests/common/modelsearch.h"
#include "tests/common/testutil.h"
#include "views/callgraph/callgraph.h"
#include "views/callgraph/callgraphedgeitem.h"
#include "views/callgraph/callgraphnodeitem.h"
#include "views/callgraph/callgraphview.h"
#include "views/callgraph/callgraphwidget.h"
#include "views/callgraph/calltreemodel.h"
#include "views/callgraph/dotplainlayout.h"
#include "views/selectionstate.h"
#include "views/viewsetup.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QGraphicsScene>
#include <QHeaderView>
#include <QImage>
#include <QLineEdit>
#include <QPalette>
#include <QSet>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeView>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

const QString cpiPath = QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank");

/// A tree view of the model, sorted on `sortColumn` descending, that tells the model what it
/// expands and collapses (the CUBE mode of the Value column).
ViewSetup expandingTreeView(CallTreeModel& model, int sortColumn)
{
    auto* view = new QTreeView;
    const ViewSetup setup = setupTreeView(view, &model, { 0, {}, sortColumn, Qt::DescendingOrder });
    QObject::connect(view, &QTreeView::expanded, &model, &CallTreeModel::expand);
    QObject::connect(view, &QTreeView::collapsed, &model, &CallTreeModel::collapse);
    return setup;
}

QStringList childNames(const QAbstractItemModel& model, const QModelIndex& parent)
{
    QStringList names;
    for (int r = 0; r < model.rowCount(parent); ++r)
        names.append(model.index(r, 0, parent).data().toString());
    return names;
}

int countRows(const QAbstractItemModel& model, const QModelIndex& parent = QModelIndex())
{
    int n = 0;
    for (int r = 0; r < model.rowCount(parent); ++r)
        n += 1 + countRows(model, model.index(r, 0, parent));
    return n;
}

double sortValue(const QModelIndex& index, int column)
{
    return index.siblingAtColumn(column).data(SortRole).toDouble();
}

Metric timeMetric()
{
    Metric m;
    m.name = QStringLiteral("TIME");
    m.unit = QStringLiteral("us");
    return m;
}

/// One thread: main => a => b recorded only as the full path, so "main => a" is synthetic.
/// With depthLimit, TAU_CALLPATH_DEPTH is set (3 makes the tree truncated).
std::shared_ptr<const Trial> syntheticTrial(int depthLimit = 0)
{
    TrialBuilder b(QStringLiteral("synthetic"));
    b.addMetric(timeMetric());
    const ThreadIndex t = b.addThread({ 0, 0, 0 });
    const EventId main = b.addEvent(QStringLiteral("main"));
    const EventId a = b.addEvent(QStringLiteral("a"));
    const EventId bb = b.addEvent(QStringLiteral("b"));
    const EventId path = b.addEvent(QStringLiteral("main => a => b"), { QStringLiteral("TAU_CALLPATH") });
    const double ten[] = { 10 };
    const double hundred[] = { 100 };
    const double five[] = { 5 };
    b.addInterval(t, main, 1, 1, ten, hundred);
    b.addInterval(t, a, 1, 1, ten, ten);
    b.addInterval(t, bb, 2, 0, five, five);
    b.addInterval(t, path, 2, 0, five, five);
    if (depthLimit > 0)
        b.addMetadata(QStringLiteral("TAU_CALLPATH_DEPTH"), QString::number(depthLimit));
    return b.build();
}

/// Pixels that differ from the top-left (background) pixel.
int foregroundPixels(const QImage& image)
{
    const QRgb background = image.pixel(0, 0);
    int n = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            n += image.pixel(x, y) != background ? 1 : 0;
    return n;
}

QString writeScript(const QTemporaryDir& dir, const QString& name, const QByteArray& text)
{
    QString path = dir.filePath(name);
    writeText(path, "#!/bin/sh\n" + text);
    QFile::setPermissions(path, QFile::permissions(path) | QFileDevice::ExeOwner | QFileDevice::ExeUser);
    return path;
}

} // namespace

class TestCallGraph : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // ---- CallTreeModel ------------------------------------------------------------------------

    void cpiThreadZeroTree()
    {
        const auto trial = mustLoad(dataPath(cpiPath));
        QVERIFY(trial);
        CallTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
        model.setTrial(trial);
        model.setThread(trial->findThread({ 0, 0, 0 }));
        QVERIFY(model.isThreadMode());
        QVERIFY(!model.isTruncated());
        QVERIFY(model.truncationNote().isEmpty());

        QCOMPARE(model.rowCount(), 1);
        const QModelIndex root = model.index(0, 0);
        QCOMPARE(root.data().toString(), QStringLiteral(".TAU application"));
        QStringList children = childNames(model, root);
        children.sort();
        QCOMPARE(children,
            (QStringList { QStringLiteral("MPI_Bcast()"), QStringLiteral("MPI_Comm_rank()"),
                QStringLiteral("MPI_Comm_size()"), QStringLiteral("MPI_Finalize()"),
                QStringLiteral("MPI_Get_processor_name()"), QStringLiteral("MPI_Init()"),
                QStringLiteral("MPI_Reduce()") }));
        const QModelIndex finalize = childNamed(model, root, QStringLiteral("MPI_Finalize()"));
        QVERIFY(finalize.isValid());
        QCOMPARE(model.rowCount(finalize), 4);
        QCOMPARE(countRows(model), 12);

        // Columns of the root on rank 0 (docs/SEMANTICS.md 1.4 example).
        QCOMPARE(sortValue(root, CallTreeModel::Exclusive), 449.0);
        QCOMPARE(sortValue(root, CallTreeModel::Inclusive), 51781.0);
        QCOMPARE(sortValue(root, CallTreeModel::Calls), 1.0);
        QCOMPARE(sortValue(root, CallTreeModel::Subroutines), 7.0);
        QCOMPARE(sortValue(finalize, CallTreeModel::Exclusive), 4458.0);
        QCOMPARE(sortValue(finalize, CallTreeModel::InclusivePerCall), 32304.0);
        QCOMPARE(sortValue(root, CallTreeModel::InclusivePercent), 100.0);
        QCOMPARE(root.siblingAtColumn(CallTreeModel::Value).data(CallTreeModel::PercentRole).toDouble(), 100.0);
        QVERIFY(!root.data(CallTreeModel::PercentRole).isValid());
        QCOMPARE(root.siblingAtColumn(CallTreeModel::Inclusive).data().toString(), QStringLiteral("51.781"));
        // Issue 14: one thread's calls are whole numbers; over threads (mean) the column shares two
        // decimals, as in the statistics table.
        QCOMPARE(root.siblingAtColumn(CallTreeModel::Calls).data().toString(), QStringLiteral("1"));
        model.setThread(ThreadIndex());
        model.setStatistic(Statistic::MeanAll);
        const QModelIndex meanRoot = model.index(0, 0);
        QCOMPARE(meanRoot.siblingAtColumn(CallTreeModel::Calls).data().toString(), QStringLiteral("1.00"));
        QCOMPARE(meanRoot.siblingAtColumn(CallTreeModel::Subroutines).data().toString(), QStringLiteral("7.00"));
        model.setThread(trial->findThread({ 0, 0, 0 }));

        // CUBE value mode: collapsed = inclusive, expanded = exclusive.
        const QModelIndex value = root.siblingAtColumn(CallTreeModel::Value);
        QCOMPARE(value.data(SortRole).toDouble(), 51781.0);
        QVERIFY(value.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Collapsed")));
        model.setTimeUnit(TimeUnit::Microseconds);
        QCOMPARE(value.data().toString(), QStringLiteral("51,781"));
        QVERIFY(model.headerData(CallTreeModel::Value, Qt::Horizontal).toString().contains(QStringLiteral("µs")));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setExpanded(root, true);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(0).value<QModelIndex>(), value);
        QCOMPARE(value.data(SortRole).toDouble(), 449.0);
        QCOMPARE(value.data().toString(), QStringLiteral("449"));
        QCOMPARE(value.data(CallTreeModel::PercentRole).toDouble(),
            root.siblingAtColumn(CallTreeModel::ExclusivePercent).data(SortRole).toDouble());
        QVERIFY(value.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Expanded")));
        model.setExpanded(root, false);
        QCOMPARE(value.data(SortRole).toDouble(), 51781.0);
        // A leaf has nothing to expand into: it always shows its inclusive value.
        const QModelIndex init = childNamed(model, root, QStringLiteral("MPI_Init()"));
        QCOMPARE(sortValue(init, CallTreeModel::Value), 17983.0);

        // Navigation roles.
        QCOMPARE(
            root.data(CallTreeModel::EventRole).toUInt(), trial->findEvent(QStringLiteral(".TAU application")).index());
        const EventId finalizePath = trial->findEvent(QStringLiteral(".TAU application => MPI_Finalize()"));
        QCOMPARE(model.indexOfEvent(finalizePath), finalize);
    }

    void cpiMeanValues()
    {
        const auto trial = mustLoad(dataPath(cpiPath));
        QVERIFY(trial);
        CallTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrial(trial);
        model.setThread(trial->findThread({ 0, 0, 0 }));
        model.setStatistic(Statistic::MeanAll); // leaves thread mode
        QVERIFY(!model.isThreadMode());
        const QModelIndex root = model.index(0, 0);
        const QModelIndex finalize = childNamed(model, root, QStringLiteral("MPI_Finalize()"));
        const QModelIndex open = childNamed(model, finalize, QStringLiteral("MPI_File_open()"));
        QVERIFY(open.isValid());
        QCOMPARE(sortValue(open, CallTreeModel::Exclusive), 27118.5);
        QVERIFY(open.siblingAtColumn(CallTreeModel::Exclusive)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("mean over all 4 threads")));
        // Switching statistics keeps the rows.
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setStatistic(Statistic::Total);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(sortValue(open, CallTreeModel::Exclusive), 4 * 27118.5);
        model.setStatistic(Statistic::Max);
        QVERIFY(std::isinf(open.siblingAtColumn(CallTreeModel::ExclusivePercent).data(SortRole).toDouble()));
        QVERIFY(open.siblingAtColumn(CallTreeModel::ExclusivePercent).data().toString().isEmpty());
    }

    void viewReportsExpansionThroughProxy()
    {
        const auto trial = mustLoad(dataPath(cpiPath));
        QVERIFY(trial);
        CallTreeModel model;
        model.setTrial(trial);
        model.setThread(trial->findThread({ 0, 0, 0 }));
        const ViewSetup setup = expandingTreeView(model, CallTreeModel::Value);
        QTreeView* view = setup.view;
        QAbstractItemModelTester tester(setup.proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QModelIndex root = setup.proxy->index(0, 0);
        QCOMPARE(root.siblingAtColumn(CallTreeModel::Value).data(SortRole).toDouble(), 51781.0);
        view->expand(root);
        QCOMPARE(root.siblingAtColumn(CallTreeModel::Value).data(SortRole).toDouble(), 449.0);
        // Sorted on the value column, descending: MPI_Finalize() (32304) comes first.
        QCOMPARE(setup.proxy->index(0, 0, root).data().toString(), QStringLiteral("MPI_Finalize()"));
        view->collapse(root);
        QCOMPARE(root.siblingAtColumn(CallTreeModel::Value).data(SortRole).toDouble(), 51781.0);
        // Search keeps the ancestors of a match.
        setup.proxy->setFilterFixedString(QStringLiteral("File_open"));
        QCOMPARE(setup.proxy->rowCount(), 1);
        delete setup.widget;
    }

    void profile2HasEightNodes()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("cubelib/test/test28/profile2")));
        QVERIFY(trial);
        CallTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrial(trial);
        QCOMPARE(countRows(model), 8);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("main() (calls f1, f5)"));
        model.setThread(ThreadIndex(0u));
        QCOMPARE(countRows(model), 8);
        QCOMPARE(sortValue(model.index(0, 0), CallTreeModel::Value), 20007991.0);
    }

    void syntheticNodesAreGreyWithoutValues()
    {
        CallTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrial(syntheticTrial());
        model.setThread(ThreadIndex(0u));
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex main = model.index(0, 0);
        const QModelIndex a = model.index(0, 0, main);
        const QModelIndex b = model.index(0, 0, a);
        QCOMPARE(a.data().toString(), QStringLiteral("a"));
        QCOMPARE(b.data().toString(), QStringLiteral("b"));
        const QColor grey = QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
        for (int c = 0; c < CallTreeModel::ColumnCount; ++c)
            QCOMPARE(a.siblingAtColumn(c).data(Qt::ForegroundRole).value<QBrush>().color(), grey);
        QVERIFY(!main.data(Qt::ForegroundRole).isValid());
        QVERIFY(a.siblingAtColumn(CallTreeModel::Value).data().toString().isEmpty());
        QVERIFY(std::isinf(a.siblingAtColumn(CallTreeModel::Inclusive).data(SortRole).toDouble()));
        QVERIFY(!a.data(CallTreeModel::EventRole).isValid());
        QVERIFY(a.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Synthetic")));
        QCOMPARE(sortValue(b, CallTreeModel::Calls), 2.0);
        QCOMPARE(sortValue(b, CallTreeModel::ExclusivePerCall), 2.5);
    }

    void truncatedTreeSaysSo()
    {
        CallTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrial(syntheticTrial(3));
        QVERIFY(model.isTruncated());
        QVERIFY(model.truncationNote().contains(QStringLiteral("TAU_CALLPATH_DEPTH = 3")));
        QVERIFY(model.headerData(CallTreeModel::Name, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("not rooted")));
        QVERIFY(model.headerData(CallTreeModel::Name, Qt::Horizontal).toString().contains(QStringLiteral("truncated")));
        QVERIFY(model.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("TAU_CALLPATH_DEPTH")));
        model.setTrial(syntheticTrial(10));
        QVERIFY(!model.isTruncated());
    }

    // ---- Graph data and the dot plain format --------------------------------------------------

    void graphFromCallPaths()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("cubelib/test/test28/profile2")));
        QVERIFY(trial);
        const CallGraph graph(*trial);
        QVERIFY(graph.hasCallPaths());
        QCOMPARE(graph.nodes().size(), std::size_t(6)); // main, f1..f5
        QCOMPARE(graph.edges().size(), std::size_t(6)); // main->f1, f1->f2, f2->f3, f1->f4, f4->f2, main->f5
        const int f2 = graph.nodeOf(QStringLiteral("f2() (sleeps 2 sec, calls f3)"));
        const int f3 = graph.nodeOf(QStringLiteral("f3() (sleeps 3 sec)"));
        QVERIFY(f2 >= 0 && f3 >= 0);
        for (const auto& edge : graph.edges())
            if (edge.from == f2 && edge.to == f3)
                QCOMPARE(edge.paths.size(), std::size_t(2)); // reached through f1 and through f4
        QCOMPARE(
            graph.nodeOfEvent(*trial, trial->findEvent(QStringLiteral("main() (calls f1, f5) => f5() (sleeps 5 sec)"))),
            graph.nodeOf(QStringLiteral("f5() (sleeps 5 sec)")));

        const auto flat = mustLoad(dataPath(QStringLiteral("cubelib/test/test28/profile1")));
        QVERIFY(flat);
        QVERIFY(!CallGraph(*flat).hasCallPaths());

        QCOMPARE(CallGraph::shortName(QStringLiteral("BC_FLUX [{bc_flux.pp.f90} {21,1}-{390,22}]")),
            QStringLiteral("BC_FLUX"));
        QCOMPARE(CallGraph::shortName(QStringLiteral("int foo(int) C [{foo.c} {3,1}-{7,1}]")), QStringLiteral("foo"));
        QCOMPARE(CallGraph::shortName(QStringLiteral("std::vector<int, A<b> > ns::f<x y>::run(int)")),
            QStringLiteral("ns::f<x y>::run"));
        QCOMPARE(CallGraph::shortName(QStringLiteral("int __wrap_dgemm(int) C [ <size> = <100> ]")),
            QStringLiteral("__wrap_dgemm"));
        QCOMPARE(CallGraph::shortName(QStringLiteral("MPI_Init()")), QStringLiteral("MPI_Init"));
        QCOMPARE(CallGraph::shortName(QStringLiteral(".TAU application")), QStringLiteral(".TAU application"));
        QCOMPARE(CallGraph::shortName(QStringLiteral("[SAMPLE] foo(int)")), QStringLiteral("[SAMPLE] foo(int)"));
        QCOMPARE(CallGraph::shortName(QStringLiteral("abcdefghijklmnopqrstuvwxyz"), 9), QStringLiteral("…stuvwxyz"));
    }

    void parsesDotPlain()
    {
        const QByteArray plain = "graph 1 3 2\n"
                                 "node n0 1.5 1.75 1 0.5 \"\" solid box black lightgrey\n"
                                 "node \"a b\" 1.5 0.25 2 0.5 \"x \\\"y\\\"\" solid box black lightgrey\n"
                                 "edge n0 \"a b\" 4 1.5 1.5 1.5 1.2 1.5 0.9 1.5 0.6 \"1,000\" 1.7 1 solid black\n"
                                 "edge \"a b\" n0 4 1 1 1 1 1 1 1 1 solid black\n"
                                 "stop\n";
        DotPlainLayout layout;
        QString error;
        QVERIFY2(layout.parse(plain, &error), qPrintable(error));
        QCOMPARE(layout.size(), QSizeF(216, 144));
        QCOMPARE(layout.nodes().size(), 2);
        QCOMPARE(layout.nodes()[1].name, QStringLiteral("a b"));
        // Centre (1.5, 1.75) in, y up -> (108, 18) pt, y down.
        QCOMPARE(layout.nodes()[0].rect, QRectF(108 - 36, 18 - 18, 72, 36));
        QCOMPARE(layout.edges().size(), 2);
        QCOMPARE(layout.edges()[0].points.size(), 4);
        QCOMPARE(layout.edges()[0].label, QStringLiteral("1,000"));
        QCOMPARE(layout.edges()[0].labelPos, QPointF(1.7 * 72, 72));
        QVERIFY(layout.edges()[1].label.isEmpty());
        QCOMPARE(DotPlainLayout::tokenize(QStringLiteral("node \"x \\\"y\\\"\" 1")),
            (QStringList { QStringLiteral("node"), QStringLiteral("x \"y\""), QStringLiteral("1") }));

        QVERIFY(!layout.parse("graph 1 1 1\nnode n0 1 x 1 1\nstop\n", &error));
        QVERIFY(error.contains(QStringLiteral("line 2")));
        QVERIFY(!layout.parse("graph 1 1 1\n", &error));
        QVERIFY(error.contains(QStringLiteral("stop")));
    }

    // ---- CallGraphWidget ----------------------------------------------------------------------

    void cpiGraph()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("dot")).isEmpty())
            QFAIL("Graphviz dot is not installed: ./test.sh installs it (package graphviz)");
        const auto trial = mustLoad(dataPath(cpiPath));
        QVERIFY(trial);
        SelectionState state;
        CallGraphWidget widget(&state);
        widget.resize(1100, 750);
        widget.show();
        QSignalSpy finished(&widget, &CallGraphWidget::layoutFinished);
        state.setTrial(trial);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().at(0).toBool(), true);
        QVERIFY2(widget.message().isEmpty(), qPrintable(widget.message()));
        QCOMPARE(widget.nodeCount(), 12);
        QCOMPARE(widget.edgeCount(), 11);
        int nodes = 0;
        int edges = 0;
        for (QGraphicsItem* item : widget.scene()->items()) {
            nodes += item->type() == CallGraphNodeItem::Type ? 1 : 0;
            edges += item->type() == CallGraphEdgeItem::Type ? 1 : 0;
        }
        QCOMPARE(nodes, 12);
        QCOMPARE(edges, 11);

        // Width by inclusive: the root is the widest box; labels fit (File_open is wider than its name).
        CallGraphNodeItem* root = widget.nodeItem(QStringLiteral(".TAU application"));
        CallGraphNodeItem* open = widget.nodeItem(QStringLiteral("MPI_File_open()"));
        CallGraphNodeItem* rank = widget.nodeItem(QStringLiteral("MPI_Comm_rank()"));
        QVERIFY(root && open && rank);
        QVERIFY(root->boundingRect().width() > open->boundingRect().width());
        QVERIFY(open->boundingRect().width() > rank->boundingRect().width());
        // Layered: the root before its callees, in the direction chosen for this view.
        if (widget.effectiveOrientation() == CallGraphWidget::Orientation::TopToBottom)
            QVERIFY(root->sceneBoundingRect().center().y() < open->sceneBoundingRect().center().y());
        else
            QVERIFY(root->sceneBoundingRect().center().x() < open->sceneBoundingRect().center().x());

        // A click on a node selects its event everywhere and highlights callers and callees.
        CallGraphNodeItem* finalize = widget.nodeItem(QStringLiteral("MPI_Finalize()"));
        QVERIFY(finalize);
        widget.view()->centerOn(finalize);
        const QPoint pos = widget.view()->mapFromScene(finalize->sceneBoundingRect().center());
        QTest::mouseClick(widget.view()->viewport(), Qt::LeftButton, {}, pos);
        QCOMPARE(state.event(), trial->findEvent(QStringLiteral("MPI_Finalize()")));
        QCOMPARE(widget.selectedNodeName(), QStringLiteral("MPI_Finalize()"));
        using Emphasis = CallGraphNodeItem::Emphasis;
        QCOMPARE(finalize->emphasis(), Emphasis::Selected);
        QCOMPARE(root->emphasis(), Emphasis::Neighbour);
        QCOMPARE(open->emphasis(), Emphasis::Neighbour);
        QCOMPARE(rank->emphasis(), Emphasis::Dimmed);
        int highlighted = 0;
        for (QGraphicsItem* item : widget.scene()->items())
            if (item->type() == CallGraphEdgeItem::Type)
                highlighted += static_cast<CallGraphEdgeItem*>(item)->isHighlighted() ? 1 : 0;
        QCOMPARE(highlighted, 5); // root -> Finalize, Finalize -> its 4 callees

        // The selection made elsewhere (a call path here) highlights the callee's node.
        state.selectEvent(trial->findEvent(QStringLiteral(".TAU application => MPI_Init()")));
        QCOMPARE(widget.selectedNodeName(), QStringLiteral("MPI_Init()"));
        QVERIFY(widget.activateNode(QStringLiteral("MPI_Bcast()")));
        QCOMPARE(state.event(), trial->findEvent(QStringLiteral("MPI_Bcast()")));

        // Search highlights matching nodes.
        widget.searchBox()->setText(QStringLiteral("info"));
        QStringList matches = widget.searchMatches();
        matches.sort();
        QCOMPARE(matches, (QStringList { QStringLiteral("MPI_Info_create()"), QStringLiteral("MPI_Info_free()") }));
        widget.searchBox()->clear();
        QVERIFY(widget.searchMatches().isEmpty());

        // Zoom.
        const double zoom = widget.view()->zoom();
        widget.zoomIn();
        QVERIFY(widget.view()->zoom() > zoom);
        widget.zoomOut();
        QCOMPARE(widget.view()->zoom(), zoom);

        // Rendering and export.
        const QImage image = widget.renderImage();
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 200 && image.height() > 100);
        QVERIFY(foregroundPixels(image) > 500);
        QTemporaryDir dir;
        for (const QString& name : { QStringLiteral("g.png"), QStringLiteral("g.svg"), QStringLiteral("g.pdf") }) {
            const QString error = widget.exportImage(dir.filePath(name));
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QVERIFY(QFileInfo(dir.filePath(name)).size() > 1000);
        }
        QVERIFY(!widget.exportImage(dir.filePath(QStringLiteral("g.bmpx"))).isEmpty());

        // Other values: width by calls relays out; colour only recolours.
        finished.clear();
        widget.setColorValue(ValueType::Calls);
        QVERIFY(!widget.isLayoutRunning());
        widget.setSizeValue(ValueType::Exclusive);
        QVERIFY(finished.wait(30000));
        QCOMPARE(widget.nodeCount(), 12);
        finished.clear();
        widget.setFollowSelectedThread(true);
        state.selectThread(trial->findThread({ 2, 0, 0 }));
        QVERIFY(finished.wait(30000));
        QCOMPARE(widget.nodeCount(), 12);

        // Both directions.
        for (auto orientation :
            { CallGraphWidget::Orientation::LeftToRight, CallGraphWidget::Orientation::TopToBottom }) {
            finished.clear();
            widget.setOrientation(orientation);
            QVERIFY(finished.wait(30000));
            QCOMPARE(widget.effectiveOrientation(), orientation);
            const QPointF a = widget.nodeItem(QStringLiteral(".TAU application"))->sceneBoundingRect().center();
            const QPointF b = widget.nodeItem(QStringLiteral("MPI_File_open()"))->sceneBoundingRect().center();
            QVERIFY(orientation == CallGraphWidget::Orientation::LeftToRight ? a.x() < b.x() : a.y() < b.y());
        }

        // Filters apply: hiding the MPI group leaves the application alone.
        finished.clear();
        state.hideGroup(trial->findGroup(QStringLiteral("MPI")));
        QVERIFY(finished.wait(30000));
        QCOMPARE(widget.nodeCount(), 1);
        QCOMPARE(widget.edgeCount(), 0);

        if (qEnvironmentVariableIsSet("PARALLAX_SCREENSHOTS")) {
            finished.clear();
            state.clearFilters();
            widget.setFollowSelectedThread(false);
            widget.setSizeValue(ValueType::Inclusive);
            widget.setColorValue(ValueType::Exclusive);
            widget.setOrientation(CallGraphWidget::Orientation::Automatic);
            QVERIFY(finished.wait(30000));
            widget.activateNode(QStringLiteral("MPI_Finalize()"));
            const QString out = qEnvironmentVariable("PARALLAX_SCREENSHOTS");
            widget.resize(1000, 420);
            QCoreApplication::processEvents();
            widget.fitToView();
            QVERIFY(widget.grab().save(out + QStringLiteral("/call-graph.png")));
            QVERIFY(widget.renderImage(2.0).save(out + QStringLiteral("/call-graph-scene.png")));
        }
    }

    void flatTrialSaysNoCallPaths()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("cubelib/test/test28/profile1")));
        QVERIFY(trial);
        SelectionState state;
        CallGraphWidget widget(&state);
        QSignalSpy finished(&widget, &CallGraphWidget::layoutFinished);
        state.setTrial(trial);
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), false);
        QVERIFY2(widget.message().contains(QStringLiteral("no call-path events")), qPrintable(widget.message()));
        QCOMPARE(widget.nodeCount(), 0);
        QVERIFY(widget.renderImage().isNull());
    }

    void missingOrFailingDot()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("cubelib/test/test28/profile2")));
        QVERIFY(trial);
        SelectionState state;
        CallGraphWidget widget(&state);
        QSignalSpy finished(&widget, &CallGraphWidget::layoutFinished);
        widget.setDotExecutable(QStringLiteral("/nonexistent/bin/dot"));
        state.setTrial(trial);
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.last().at(0).toBool(), false);
        QVERIFY2(widget.message().contains(QStringLiteral("not found")), qPrintable(widget.message()));

        QTemporaryDir dir;
        finished.clear();
        widget.setDotExecutable(
            writeScript(dir, QStringLiteral("baddot"), "echo 'Error: syntax error in line 3' >&2\nexit 2\n"));
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.last().at(0).toBool(), false);
        QVERIFY2(widget.message().contains(QStringLiteral("exit code 2")), qPrintable(widget.message()));
        QVERIFY(widget.message().contains(QStringLiteral("syntax error in line 3")));

        finished.clear();
        widget.setDotExecutable(writeScript(dir, QStringLiteral("junkdot"), "echo 'graph 1 1 1'\necho 'bogus'\n"));
        QVERIFY(finished.wait(10000));
        QVERIFY2(widget.message().contains(QStringLiteral("unknown statement")), qPrintable(widget.message()));
    }

    void supersededLayoutIsKilled()
    {
        const QString dot = QStandardPaths::findExecutable(QStringLiteral("dot"));
        if (dot.isEmpty())
            QFAIL("Graphviz dot is not installed: ./test.sh installs it (package graphviz)");
        const auto trial = mustLoad(dataPath(QStringLiteral("cubelib/test/test28/profile2")));
        QVERIFY(trial);
        QTemporaryDir dir;
        SelectionState state;
        CallGraphWidget widget(&state);
        QSignalSpy finished(&widget, &CallGraphWidget::layoutFinished);
        widget.setDotExecutable(
            writeScript(dir, QStringLiteral("slowdot"), "sleep 2\nexec " + dot.toUtf8() + " \"$@\"\n"));
        state.setTrial(trial);
        QTRY_VERIFY(widget.isLayoutRunning());
        QTest::qWait(100);
        widget.relayout(); // supersedes the run in progress
        QVERIFY(finished.wait(30000));
        QTest::qWait(2500); // the first run would have finished by now
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().at(0).toBool(), true);
        QCOMPARE(widget.nodeCount(), 6);
        QCOMPARE(widget.edgeCount(), 6);
    }

    /// Issue 16 section 4: the hot part of a graph of several hundred routines, as the widget shows it.
    void readableSubsetOfALargeGraph()
    {
        SynthOptions o;
        o.threads = 16;
        o.events = 600;
        o.callpathDepth = 4;
        const auto trial = synthesizeTrial(o);
        const CallGraph graph(*trial);
        QVERIFY(graph.nodes().size() >= 500);
        const auto stats = TrialStatistics::of(*trial);
        const MetricId m(std::size_t(0));
        const auto nan = std::nan("");
        std::vector<double> incl(graph.nodes().size(), nan);
        std::vector<double> excl(graph.nodes().size(), nan);
        for (std::size_t i = 0; i < graph.nodes().size(); ++i) {
            const EventId e = graph.nodes()[i].event;
            incl[i] = statisticValue(*trial, *stats, e, m, ValueType::Inclusive, Statistic::MeanAll).value_or(nan);
            excl[i] = statisticValue(*trial, *stats, e, m, ValueType::Exclusive, Statistic::MeanAll).value_or(nan);
        }
        std::vector<double> weight(graph.edges().size(), nan);
        for (std::size_t e = 0; e < graph.edges().size(); ++e) {
            double w = 0;
            for (EventId p : graph.edges()[e].paths)
                w += statisticValue(*trial, *stats, p, m, ValueType::Inclusive, Statistic::MeanAll).value_or(0);
            weight[e] = graph.edges()[e].paths.empty() ? nan : w;
        }
        auto callers = [&](int n) {
            std::vector<int> out;
            for (const auto& e : graph.edges())
                if (e.to == n && e.from != n)
                    out.push_back(e.from);
            return out;
        };

        CallGraphFocus focus; // the hot part, at most 50
        const CallGraphSubset hot = selectCallGraph(graph, incl, excl, weight, focus);
        QVERIFY(hot.shownCount <= 50 && hot.shownCount >= 40);
        // Connected: every shown routine but the root has a shown caller.
        const int root = graph.nodeOf(QStringLiteral(".TAU application"));
        QVERIFY(root >= 0);
        for (std::size_t i = 0; i < hot.shown.size(); ++i)
            if (hot.shown[i] && static_cast<int>(i) != root) {
                const auto c = callers(static_cast<int>(i));
                QVERIFY2(std::any_of(c.begin(), c.end(), [&](int k) { return hot.shown[std::size_t(k)]; }),
                    qPrintable(graph.nodes()[i].name));
            }
        // The hottest path: from the root, each step the heaviest edge out of the routine.
        QVERIFY(hot.hotPath.size() >= 2);
        QCOMPARE(hot.hotPath.front(), root);
        QCOMPARE(hot.hotEdges.size() + 1, hot.hotPath.size());
        for (std::size_t k = 0; k < hot.hotEdges.size(); ++k) {
            const auto& edge = graph.edges()[std::size_t(hot.hotEdges[k])];
            QCOMPARE(edge.from, hot.hotPath[k]);
            QCOMPARE(edge.to, hot.hotPath[k + 1]);
            for (std::size_t e = 0; e < graph.edges().size(); ++e)
                if (graph.edges()[e].from == edge.from && std::isfinite(weight[e]))
                    QVERIFY(weight[e] <= weight[std::size_t(hot.hotEdges[k])]);
        }
        // More room: the routines kept carry 90 % of the exclusive time, and not many more.
        focus.maxNodes = 100000;
        const CallGraphSubset all = selectCallGraph(graph, incl, excl, weight, focus);
        QVERIFY(all.coveredShare >= 0.9);
        QVERIFY(all.shownCount < static_cast<int>(graph.nodes().size()));
        QVERIFY(hot.coveredShare < all.coveredShare);
        // Around a routine, one level: it, its callers and its callees, nothing else.
        const int centre = hot.hotPath[1];
        CallGraphFocus around;
        around.mode = CallGraphFocus::Mode::Neighbourhood;
        around.centre = centre;
        around.depth = 1;
        around.maxNodes = 1000;
        const CallGraphSubset near = selectCallGraph(graph, incl, excl, weight, around);
        QSet<int> expected { centre };
        for (const auto& e : graph.edges()) {
            if (e.from == centre)
                expected.insert(e.to);
            if (e.to == centre)
                expected.insert(e.from);
        }
        QCOMPARE(near.shownCount, int(expected.size()));
        for (int k : expected)
            QVERIFY(near.shown[std::size_t(k)]);
        // Pinned routines are shown whatever the cap.
        CallGraphFocus pinned;
        pinned.maxNodes = 5;
        int smallest = 0;
        for (std::size_t i = 0; i < incl.size(); ++i)
            if (std::isfinite(incl[i]) && incl[i] < incl[std::size_t(smallest)])
                smallest = static_cast<int>(i);
        pinned.pinned = { smallest };
        const CallGraphSubset withPin = selectCallGraph(graph, incl, excl, weight, pinned);
        QVERIFY(withPin.shown[std::size_t(smallest)]);
        QCOMPARE(withPin.shownCount, 6);

        // The widget: the hot part laid out, the path marked, labels clear of boxes and of each other.
        if (QStandardPaths::findExecutable(QStringLiteral("dot")).isEmpty())
            QFAIL("Graphviz dot is not installed: ./test.sh installs it (package graphviz)");
        SelectionState state;
        CallGraphWidget widget(&state);
        widget.resize(1400, 900);
        widget.show();
        QSignalSpy finished(&widget, &CallGraphWidget::layoutFinished);
        state.setTrial(trial);
        QVERIFY(finished.wait(30000));
        QCOMPARE(widget.nodeCount(), hot.shownCount);
        QCOMPARE(widget.hiddenCount(), int(graph.nodes().size()) - hot.shownCount);
        QCOMPARE(widget.hotPathNames().front(), QStringLiteral(".TAU application"));
        int marked = 0;
        std::vector<QRectF> taken;
        for (QGraphicsItem* item : widget.scene()->items()) {
            if (item->type() == CallGraphNodeItem::Type) {
                marked += static_cast<CallGraphNodeItem*>(item)->isOnHotPath() ? 1 : 0;
                taken.push_back(item->boundingRect());
            }
        }
        QCOMPARE(marked, int(hot.hotPath.size()));
        int labels = 0;
        for (QGraphicsItem* item : widget.scene()->items())
            if (item->type() == CallGraphEdgeItem::Type) {
                const QRectF r = static_cast<CallGraphEdgeItem*>(item)->labelRect();
                if (static_cast<CallGraphEdgeItem*>(item)->label().isEmpty())
                    continue;
                ++labels;
                for (const QRectF& t : taken)
                    QVERIFY(!t.intersects(r));
                taken.push_back(r);
            }
        QCOMPARE(labels, widget.labelledEdgeCount());
        QVERIFY(labels > 0);
        const QString dir = qEnvironmentVariable("PARALLAX_SCREENSHOTS");
        if (!dir.isEmpty())
            QVERIFY(widget.grab().save(dir + QStringLiteral("/callgraph-hot.png")));

        // A box's menu: Expand Callees adds the hidden callees; Focus Here shows the neighbourhood.
        const int before = widget.nodeCount();
        int hub = -1;
        std::size_t most = 0;
        for (int n : hot.hotPath) {
            std::size_t hidden = 0;
            for (const auto& e : graph.edges())
                hidden += e.from == n && e.to != n && !hot.shown[std::size_t(e.to)] ? 1 : 0;
            if (hidden > most) {
                most = hidden;
                hub = n;
            }
        }
        QVERIFY(hub >= 0);
        widget.expandCallees(hub);
        QVERIFY(finished.wait(30000));
        QCOMPARE(widget.nodeCount(), before + int(most));
        widget.setMaximumNodes(1000);
        widget.focusOn(centre);
        QVERIFY(finished.wait(30000));
        QCOMPARE(widget.graphFocus().mode, CallGraphFocus::Mode::Neighbourhood);
        around.depth = widget.graphFocus().depth;
        QCOMPARE(widget.nodeCount(), selectCallGraph(graph, incl, excl, weight, around).shownCount);
        QVERIFY(widget.nodeCount() > near.shownCount);
    }

    /// A real graph with a wide fan-out (WRF, 1,139 routines): the callees of a routine that calls
    /// many are staggered over several layers, so no layer is a long row of boxes.
    void wideFanOutIsStaggered()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("dot")).isEmpty())
            QFAIL("Graphviz dot is not installed: ./test.sh installs it (package graphviz)");
        SelectionState state;
        CallGraphWidget widget(&state);
        widget.resize(1400, 900);
        widget.setOrientation(CallGraphWidget::Orientation::TopToBottom);
        widget.show();
        QSignalSpy finished(&widget, &CallGraphWidget::layoutFinished);
        state.setTrial(mustLoad(dataPath(QStringLiteral("tau2/ppk/wrf-callpath-16rank.ppk"))));
        QVERIFY(finished.wait(30000));
        QVERIFY(widget.nodeCount() <= 50);
        // SOLVE_EM calls a dozen and more of the shown routines.
        const int solve = widget.graph().nodeOf(QStringLiteral("SOLVE_EM [{solve_em.f90} {3,1}-{4234,23}]"));
        QVERIFY(solve >= 0);
        int callees = 0;
        QHash<int, int> byRow; // boxes per layer (rounded centre y): 17 in one row without the staggering
        for (QGraphicsItem* item : widget.scene()->items())
            if (item->type() == CallGraphNodeItem::Type) {
                const int node = static_cast<CallGraphNodeItem*>(item)->node();
                for (const auto& e : widget.graph().edges())
                    callees += e.from == solve && e.to == node && node != solve ? 1 : 0;
                ++byRow[qRound(item->sceneBoundingRect().center().y())];
            }
        QVERIFY2(callees >= 12, qPrintable(QString::number(callees)));
        int widest = 0;
        for (int count : byRow)
            widest = std::max(widest, count);
        QVERIFY2(widest <= 12, qPrintable(QString::number(widest)));
    }

    void callTreeScreenshot()
    {
        // Writes to PARALLAX_SCREENSHOTS when set (for the README), else to a temporary folder.
        const auto trial = mustLoad(dataPath(cpiPath));
        QVERIFY(trial);
        CallTreeModel model;
        model.setTrial(trial);
        model.setThread(trial->findThread({ 0, 0, 0 }));
        const ViewSetup setup = expandingTreeView(model, CallTreeModel::Inclusive);
        QTreeView* view = setup.view;
        setup.widget->resize(1000, 200);
        setup.widget->show();
        view->expandAll();
        // CUBE mode: the expanded root shows its exclusive value, collapsed MPI_Finalize() its inclusive.
        const QModelIndex root = setup.proxy->index(0, 0);
        view->collapse(setup.proxy->index(0, 0, root));
        QCOMPARE(setup.proxy->index(0, 0, root).data().toString(), QStringLiteral("MPI_Finalize()"));
        for (int c = 0; c < CallTreeModel::ColumnCount; ++c)
            view->resizeColumnToContents(c);
        QTemporaryDir temporary;
        const QString folder = qEnvironmentVariableIsSet("PARALLAX_SCREENSHOTS")
            ? qEnvironmentVariable("PARALLAX_SCREENSHOTS")
            : temporary.path();
        const QImage image = setup.widget->grab().toImage();
        QCOMPARE(image.size(), QSize(1000, 200));
        QVERIFY(image.save(folder + QStringLiteral("/call-tree.png")));
        delete setup.widget;
    }
};

QTEST_MAIN(TestCallGraph)
#include "tst_callgraph.moc"
