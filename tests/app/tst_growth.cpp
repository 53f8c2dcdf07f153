// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Growth at scale P in the main window (issue 17 §2, docs/SEMANTICS.md §10.6) on LULESH at 27…343 ranks
// (Caliper, thicket/mpi_scaling_cali, parameter mpi.world.size): the models fitted for the main window
// are shown on the largest run; every node of its call tree finds its model by its path; the call tree's
// Model and Growth columns are the models and predictions of `parallax-cli model --json` (run here); the
// flame graph colours MPI_Comm_split (which dominates at 65,536 ranks) with its growth, full red; the CUBE
// browser's call pane has the same growth column; clearing removes them; and `parallax --growth --render`
// draws them headless.
#include "app/gui/growthcontroller.h"
#include "app/gui/mainwindow.h"
#include "tests/app/guirun.h"
#include "tests/common/clirunner.h"
#include "tests/common/luleshmodels.h"
#include "tests/common/testutil.h"
#include "views/callgraph/calltreemodel.h"
#include "views/comparison/growthoverlay.h"
#include "views/cube/cubebrowser.h"
#include "views/flame/flamegraphwidget.h"
#include "views/selectionstate.h"
#include "views/statisticspanel.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <cmath>
#include <map>

using namespace parallax;
using namespace parallax::test;

namespace {

const QString Param = QStringLiteral("mpi.world.size");

std::map<QString, CliModel> cliModels(bool exclusive) { return luleshCliModels(exclusive, 65536).second; }

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

/// The main window with the five runs open in it and the growth models attached (as the Trials dock's menu
/// does after its dialog).
struct GrowthWindow {
    MainWindow window;
    std::vector<TrialPtr> runs;

    explicit GrowthWindow(ScalingValue value)
    {
        window.setInteractive(false);
        window.resize(1400, 900);
        window.show();
        for (const QString& r : luleshRuns())
            runs.push_back(mustLoad(r));
        ScalingModelRequest request;
        request.parameter = Param;
        request.value = value;
        window.growthController()->fit(runs, request);
        window.growthController()->waitForResult();
    }
    SelectionState* state() const { return window.selection(); }
};

/// The frame of the flame graph laid out for a FlameTree node, -1 if none.
int frameOfNode(const FlameGraphWidget& flame, int node)
{
    const auto& frames = flame.flameLayout().frames;
    for (std::size_t i = 0; i < frames.size(); ++i)
        if (frames[i].node == node && !frames[i].sliver)
            return static_cast<int>(i);
    return -1;
}

} // namespace

class TestGrowth : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// The models are fitted over the runs and shown on the largest; every node of its call tree has its
    /// row; the tree's columns are the CLI's models, predictions and growths.
    void treeColumnsAreTheCli()
    {
        GrowthWindow w(ScalingValue::Exclusive);
        const GrowthOverlay* growth = w.state()->growth().get();
        QVERIFY(growth);
        QCOMPARE(growth->runs(), std::size_t(5));
        QCOMPARE(growth->set().request.parameter, Param);
        QCOMPARE(growth->target(), 65536.0);
        QCOMPARE(growth->description(),
            QStringLiteral("growth at P = 65,536 over 5 runs, parameter mpi.world.size (exclusive time)"));
        // The run with the largest parameter value is shown.
        QCOMPARE(ScalingModels::parameterValue(*w.state()->trial(), Param), 343.0);

        auto* panel = qobject_cast<StatisticsPanel*>(w.window.viewWidget(QStringLiteral("table")));
        QVERIFY(panel);
        panel->setTreeMode(true);
        CallTreeModel* model = panel->treeModel();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(!panel->currentView()->header()->isSectionHidden(CallTreeModel::GrowthModel));
        QVERIFY(!panel->currentView()->header()->isSectionHidden(CallTreeModel::Growth));
        QCOMPARE(
            model->headerData(CallTreeModel::Growth, Qt::Horizontal).toString(), QStringLiteral("Growth at 65,536"));

        const auto cli = cliModels(true);
        QVERIFY(cli.size() >= 45);
        // Every node of the largest run's call tree maps to a model row, and each row is the CLI's.
        int checked = 0;
        bool sawCommSplit = false;
        std::vector<QModelIndex> stack;
        for (int r = 0; r < model->rowCount(); ++r)
            stack.push_back(model->index(r, 0));
        while (!stack.empty()) {
            const QModelIndex index = stack.back();
            stack.pop_back();
            for (int r = 0; r < model->rowCount(index); ++r)
                stack.push_back(model->index(r, 0, index));
            const int node = model->nodeAt(index);
            const QString path = model->nodePath(node);
            const CallPathModel* row = model->growthRow(node);
            QVERIFY2(row, qPrintable(QStringLiteral("no model row for ") + path));
            QCOMPARE(row->path, path);
            const auto it = cli.find(path);
            QVERIFY2(it != cli.end(), qPrintable(QStringLiteral("the CLI has no model of ") + path));
            const CallPathModel::Side& s = row->exclusive;
            QCOMPARE(s.model.formula(Param), it->second.formula);
            const QModelIndex modelCell = index.siblingAtColumn(CallTreeModel::GrowthModel);
            const QModelIndex growthCell = index.siblingAtColumn(CallTreeModel::Growth);
            QCOMPARE(modelCell.data().toString(), s.model.formula(Param, 3));
            // The Model column sorts by the prediction at P, the Growth column by the growth.
            QVERIFY2(close(modelCell.data(SortRole).toDouble(), it->second.prediction), qPrintable(path));
            const double cliGrowth = it->second.prediction / it->second.measuredAtLargest;
            QVERIFY2(close(growthCell.data(SortRole).toDouble(), cliGrowth), qPrintable(path));
            QCOMPARE(growthCell.data().toString(), GrowthOverlay::growthText(cliGrowth));
            QCOMPARE(growthCell.data(Qt::BackgroundRole).value<QColor>(), ScalingModels::growthColour(cliGrowth));
            QVERIFY(growthCell.data(Qt::ToolTipRole).toString().contains(s.model.formula(Param, 4)));
            ++checked;
            if (path == QLatin1String("MPI_Comm_split")) {
                sawCommSplit = true;
                // docs/SEMANTICS.md §10.6's worked example: ×943,159 at 65,536 ranks, full red.
                QVERIFY(std::abs(cliGrowth / 943159.0 - 1) < 1e-5);
                QCOMPARE(growthCell.data().toString(), QStringLiteral("×943,159"));
            }
        }
        QVERIFY(sawCommSplit);
        QVERIFY2(checked >= 45, qPrintable(QString::number(checked)));

        // Clearing the models hides the columns again and empties them.
        w.window.growthController()->clear();
        QVERIFY(!w.state()->growth());
        QVERIFY(panel->currentView()->header()->isSectionHidden(CallTreeModel::Growth));
        QVERIFY(model->index(0, CallTreeModel::Growth).data().toString().isEmpty());
    }

    /// The flame graph's frames take their call path's inclusive growth: MPI_Comm_split full red; a frame
    /// without a model is grey. Clearing goes back to the event colours.
    void flameColoursByGrowth()
    {
        GrowthWindow w(ScalingValue::Exclusive);
        auto* flame = qobject_cast<FlameGraphWidget*>(w.window.viewWidget(QStringLiteral("flame")));
        QVERIFY(flame);
        w.window.showView(flame);
        flame->updateNow();
        QCOMPARE(flame->colouring(), FlameGraphWidget::Colouring::Growth);
        const FlameTree* tree = flame->tree();
        QVERIFY(tree);
        const auto inclusive = cliModels(false);
        int commSplit = -1;
        int compared = 0;
        for (std::size_t n = 0; n < tree->nodes().size(); ++n) {
            const int node = static_cast<int>(n);
            const QString path = tree->path(node).join(QStringLiteral(" => "));
            if (path == QLatin1String("MPI_Comm_split"))
                commSplit = node;
            const int frame = frameOfNode(*flame, node);
            if (frame < 0)
                continue;
            const auto it = inclusive.find(path);
            QVERIFY2(it != inclusive.end(), qPrintable(path));
            const double growth = it->second.prediction / it->second.measuredAtLargest;
            QCOMPARE(flame->frameColour(frame), ScalingModels::growthColour(growth));
            QVERIFY(flame->growthRow(node));
            ++compared;
        }
        QVERIFY(compared >= 10);
        // MPI_Comm_split measures 9 s of main's 18,038 s at 343 ranks, narrower than a pixel: zoomed into, it is
        // the whole width, full red (×100 or more).
        QVERIFY(commSplit >= 0);
        flame->zoomTo(commSplit);
        const int frame = frameOfNode(*flame, commSplit);
        QVERIFY(frame >= 0);
        QCOMPARE(flame->frameColour(frame), ScalingModels::growthColour(1e6));
        QCOMPARE(flame->frameColour(frame),
            ScalingModels::growthColour(inclusive.at(QStringLiteral("MPI_Comm_split")).prediction
                / inclusive.at(QStringLiteral("MPI_Comm_split")).measuredAtLargest));

        w.window.growthController()->clear();
        flame->updateNow();
        QCOMPARE(flame->colouring(), FlameGraphWidget::Colouring::Event);
    }

    /// The CUBE browser's call pane gets a Growth column with the same growths and colours.
    void cubeCallPaneHasGrowth()
    {
        GrowthWindow w(ScalingValue::Exclusive);
        auto* cube = qobject_cast<CubeBrowser*>(w.window.viewWidget(QStringLiteral("cube")));
        QVERIFY(cube);
        w.window.showView(cube);
        cube->updateNow();
        cube->finishComputing();
        CubePaneModel* calls = cube->model(CubePane::Call);
        QAbstractItemModelTester tester(calls, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int column = calls->growthColumn();
        QCOMPARE(column, CubePaneModel::DistributionColumn + 1);
        QCOMPARE(calls->columnCount(), column + 1);
        QCOMPARE(calls->headerData(column, Qt::Horizontal).toString(), QStringLiteral("Growth at 65,536"));
        const auto cli = cliModels(true);
        const CubeSpace* space = cube->space();
        int compared = 0;
        for (int item = 0; item < static_cast<int>(space->size(CubePane::Call)); ++item) {
            const QModelIndex index = calls->indexOfItem(item, column);
            if (!index.isValid())
                continue;
            const auto it = cli.find(space->path(CubePane::Call, item));
            QVERIFY2(it != cli.end(), qPrintable(space->path(CubePane::Call, item)));
            const double growth = it->second.prediction / it->second.measuredAtLargest;
            QCOMPARE(index.data().toString(), GrowthOverlay::growthText(growth));
            QCOMPARE(index.data(Qt::BackgroundRole).value<QColor>(), ScalingModels::growthColour(growth));
            ++compared;
        }
        QVERIFY(compared >= 3);
        const int split = space->find(CubePane::Call, QStringLiteral("MPI_Comm_split"));
        QVERIFY(split >= 0);
        QCOMPARE(calls->indexOfItem(split, column).data(Qt::BackgroundRole).value<QColor>(),
            ScalingModels::growthColour(1e6));
        QVERIFY(calls->indexOfItem(split, CubePaneModel::NameColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("Exclusive model: ")));

        w.window.growthController()->clear();
        cube->updateNow();
        QCOMPARE(calls->growthColumn(), -1);
        QCOMPARE(calls->columnCount(), CubePaneModel::DistributionColumn + 1);
    }

    /// Inclusive: the columns follow the CLI without --exclusive.
    void inclusiveValue()
    {
        GrowthWindow w(ScalingValue::Inclusive);
        auto* panel = qobject_cast<StatisticsPanel*>(w.window.viewWidget(QStringLiteral("table")));
        CallTreeModel* model = panel->treeModel();
        const auto cli = cliModels(false);
        QString top;
        QString cliTop;
        double best = -1;
        double cliBest = -1;
        for (int r = 0; r < model->rowCount(); ++r) {
            const QModelIndex index = model->index(r, 0);
            const QString path = model->nodePath(model->nodeAt(index));
            const auto it = cli.find(path);
            QVERIFY(it != cli.end());
            const double predicted = index.siblingAtColumn(CallTreeModel::GrowthModel).data(SortRole).toDouble();
            QVERIFY(close(predicted, it->second.prediction));
            if (predicted > best) {
                best = predicted;
                top = path;
            }
            if (it->second.prediction > cliBest) {
                cliBest = it->second.prediction;
                cliTop = path;
            }
        }
        // Sorted by the Model column, the root that dominates at P inclusively is the CLI's.
        QCOMPARE(top, cliTop);
        QVERIFY(w.state()->growth()->description().contains(QStringLiteral("(inclusive time)")));
    }

    /// A parameter the runs do not have is an error, not models.
    void missingParameter()
    {
        MainWindow window;
        window.setInteractive(false);
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        std::vector<TrialPtr> runs;
        for (const QString& r : luleshRuns().mid(0, 2))
            runs.push_back(mustLoad(r));
        ScalingModelRequest request;
        request.parameter = QStringLiteral("no.such.key");
        window.growthController()->fit(runs, request);
        window.growthController()->waitForResult();
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.front().front().toString().contains(QStringLiteral("no.such.key")));
        QVERIFY(!window.selection()->growth());
    }

    /// `parallax --growth --render flame|tree|cube RUNS`: the largest run's views with the growth, headless;
    /// the flame graph has MPI_Comm_split's full red.
    void renderHeadless_data()
    {
        QTest::addColumn<QString>("view");
        QTest::newRow("flame") << QStringLiteral("flame");
        QTest::newRow("tree") << QStringLiteral("tree");
        QTest::newRow("cube") << QStringLiteral("cube");
    }
    void renderHeadless()
    {
        QFETCH(QString, view);
        QTemporaryDir dir;
        const QString out = dir.filePath(view + QStringLiteral(".png"));
        const GuiRun run = runGui(
            QStringList { QStringLiteral("--growth"), QStringLiteral("--param"), Param, QStringLiteral("--render"),
                view, QStringLiteral("--out"), out, QStringLiteral("--size"), QStringLiteral("1400x900") }
            + luleshRuns());
        QVERIFY2(run.code == 0, run.err.constData());
        const QString problem = renderedImageProblem(out, QSize(1400, 900), 8);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const QImage image(out);
        const QRgb red = ScalingModels::growthColour(1e6).rgb();
        int redPixels = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                redPixels += image.pixel(x, y) == red ? 1 : 0;
        QVERIFY2(redPixels > 20, qPrintable(QString::number(redPixels)));
    }

    void launchErrors()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("x.png"));
        // One run is not a study; --param without --growth is a usage error; a missing key fails.
        GuiRun run = runGui({ QStringLiteral("--growth"), QStringLiteral("--render"), QStringLiteral("flame"),
            QStringLiteral("--out"), out, luleshRuns().front() });
        QCOMPARE(run.code, 2);
        QVERIFY(run.err.contains("--growth needs two or more runs"));
        run = runGui({ QStringLiteral("--param"), Param, luleshRuns().front() });
        QCOMPARE(run.code, 2);
        QVERIFY(run.err.contains("--param applies to --growth"));
        run = runGui(QStringList { QStringLiteral("--growth"), QStringLiteral("--param"), QStringLiteral("nope"),
                         QStringLiteral("--render"), QStringLiteral("flame"), QStringLiteral("--out"), out }
            + luleshRuns());
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains("no numeric metadata value 'nope'"), run.err.constData());
    }
};

QTEST_MAIN(TestGrowth)
#include "tst_growth.moc"
