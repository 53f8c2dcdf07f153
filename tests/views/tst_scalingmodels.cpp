// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The scaling window's "Models per call path" page (issue 17 §2, docs/SEMANTICS.md §10.6) on LULESH at
// 27…343 ranks (Caliper, thicket/mpi_scaling_cali): every call path's model and prediction are those of
// `parallax-cli model --param mpi.world.size --target P --json` (run here), the call path that dominates
// at P is the CLI's first that is a call path of the tree, rows and flame frames are coloured by growth,
// and the flame graph's frames are the predicted inclusive values.
#include "tests/common/clirunner.h"
#include "tests/common/luleshmodels.h"
#include "tests/common/testutil.h"
#include "views/comparison/scalingmodelsview.h"
#include "views/comparison/scalingview.h"
#include "views/flame/flamegraphwidget.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTest>
#include <QTreeView>
#include <cmath>
#include <map>

using namespace parallax;
using namespace parallax::test;

namespace {

bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

/// Checks every fitted row of the page against the CLI's models; returns the CLI's first call path that
/// is a row of the page.
QString checkAgainstCli(const ScalingModelsView& page, bool exclusive, int target, const QStringList& options = {})
{
    const auto [order, byPath] = luleshCliModels(exclusive, target, options);
    const ScalingModelSet* set = page.modelSet();
    if (!set || order.isEmpty())
        return QStringLiteral("(no models)");
    QSet<QString> rows;
    for (const CallPathModel& row : set->rows) {
        if (row.synthetic)
            continue;
        rows.insert(row.path);
        const CallPathModel::Side& s = exclusive ? row.exclusive : row.inclusive;
        const auto it = byPath.find(row.path);
        if (it == byPath.end())
            return QStringLiteral("the CLI has no model of ") + row.path;
        if (it->second.formula != s.model.formula(QStringLiteral("mpi.world.size")))
            return row.path + QStringLiteral(": ") + it->second.formula + QStringLiteral(" vs ")
                + s.model.formula(QStringLiteral("mpi.world.size"));
        if (!close(it->second.prediction, s.predicted))
            return row.path + QStringLiteral(": prediction %1 vs %2").arg(it->second.prediction).arg(s.predicted);
    }
    for (const QString& path : order)
        if (rows.contains(path))
            return path;
    return {};
}

/// The item of the page's tree model with this call path.
QStandardItem* itemOf(QStandardItemModel* model, const QString& path, QStandardItem* parent = nullptr)
{
    const int rows = parent ? parent->rowCount() : model->rowCount();
    for (int r = 0; r < rows; ++r) {
        QStandardItem* item = parent ? parent->child(r) : model->item(r);
        if (item->data(Qt::UserRole + 1).toString() == path)
            return item;
        if (QStandardItem* found = itemOf(model, path, item))
            return found;
    }
    return nullptr;
}

} // namespace

class TestScalingModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void luleshAgreesWithCli()
    {
        std::vector<std::shared_ptr<const Trial>> trials;
        for (const QString& r : luleshRuns())
            trials.push_back(mustLoad(r));
        ScalingView view(trials);
        view.resize(1400, 900);
        view.waitForResult();
        ScalingModelsView* page = view.modelsPage();
        // Every Caliper run keeps one thread: the parameter is the MPI size from the metadata.
        QVERIFY(!page->parameters().contains(QStringLiteral("threads")));
        QCOMPARE(page->parameter(), QStringLiteral("mpi.world.size"));
        QCOMPARE(page->target(), 65536);
        QCOMPARE(page->value(), ScalingValue::Exclusive);
        const ScalingModelSet* set = page->modelSet();
        QVERIFY(set && set->error.isEmpty());
        QCOMPARE(set->parameterValues, (std::vector<double> { 27, 64, 125, 216, 343 }));
        // The regions of the MANIFEST (45) and the unattributed rest, each with 5 points.
        std::size_t fitted = 0;
        for (const CallPathModel& row : set->rows)
            if (!row.synthetic) {
                ++fitted;
                QCOMPARE(row.exclusive.points.size(), std::size_t(5));
            }
        QVERIFY2(fitted >= 45, qPrintable(QString::number(fitted)));

        // Exclusive at 65,536 ranks: the same models and predictions as the CLI, and the same top.
        const QString top = checkAgainstCli(*page, true, 65536);
        QCOMPARE(page->topPath(), top);
        // A root region without children (a root of its own, as in algebra/calltree.h) is a row: the
        // CLI names it first.
        QCOMPARE(top, QStringLiteral("MPI_Comm_split"));
        QVERIFY(page->summary()->text().contains(QStringLiteral("<b>MPI_Comm_split</b>")));
        // The top row is the current row of the tree, and the first of its level (sorted by prediction).
        const QModelIndex current = page->tree()->currentIndex();
        QCOMPARE(current.siblingAtColumn(0).data().toString(), top);
        QCOMPARE(current.row(), 0);

        // Another target: the predictions follow (no refit), the top is again the CLI's.
        page->setTarget(1024);
        QVERIFY(!page->isComputing());
        QCOMPARE(page->topPath(), checkAgainstCli(*page, true, 1024));
        // Inclusive: the CLI without --exclusive.
        page->setValue(ScalingValue::Inclusive);
        const QString inclusiveTop = checkAgainstCli(*page, false, 1024);
        QCOMPARE(page->topPath(), inclusiveTop);
        QCOMPARE(inclusiveTop, QStringLiteral("main"));
    }

    void modelerAndTermsAgreeWithCli()
    {
        // The Modeler and Terms controls refit; every row equals `parallax-cli model --modeler refining` and
        // `--terms 2` (docs/SEMANTICS.md §10.7, §10.8).
        std::vector<std::shared_ptr<const Trial>> trials;
        for (const QString& r : luleshRuns())
            trials.push_back(mustLoad(r));
        ScalingView view(trials);
        view.waitForResult();
        ScalingModelsView* page = view.modelsPage();
        QCOMPARE(page->modeler(), ModelerKind::Basic);
        QCOMPARE(page->terms(), 1);
        page->waitForResult();
        std::map<QString, QString> basic;
        for (const CallPathModel& row : page->modelSet()->rows)
            if (!row.synthetic)
                basic[row.path] = row.exclusive.model.formula();

        page->setModeler(ModelerKind::Refining);
        page->waitForResult();
        QCOMPARE(page->modelSet()->request.modeler, ModelerKind::Refining);
        QCOMPARE(page->topPath(),
            checkAgainstCli(*page, true, 65536, { QStringLiteral("--modeler"), QStringLiteral("refining") }));
        // The Refining modeler finds fractional exponents the Basic one has not for some call path.
        int changed = 0;
        for (const CallPathModel& row : page->modelSet()->rows)
            if (!row.synthetic && row.exclusive.model.formula() != basic[row.path])
                ++changed;
        QVERIFY2(changed > 0, "the Refining models equal the Basic ones");

        page->setTerms(2);
        page->waitForResult();
        QCOMPARE(page->modeler(), ModelerKind::Basic);
        QCOMPARE(page->modelSet()->request.terms, 2);
        QCOMPARE(
            page->topPath(), checkAgainstCli(*page, true, 65536, { QStringLiteral("--terms"), QStringLiteral("2") }));
        page->setTarget(1024);
        QCOMPARE(
            page->topPath(), checkAgainstCli(*page, true, 1024, { QStringLiteral("--terms"), QStringLiteral("2") }));
        int twoTerms = 0;
        for (const CallPathModel& row : page->modelSet()->rows)
            twoTerms += !row.synthetic && row.exclusive.model.terms.size() == 2 ? 1 : 0;
        QVERIFY2(twoTerms > 0, "no call path has a two-term model");
        // The table shows them: the model column's text has both terms.
        bool shown = false;
        for (const CallPathModel& row : page->modelSet()->rows)
            if (!row.synthetic && row.exclusive.model.terms.size() == 2)
                if (QStandardItem* item = itemOf(page->itemModel(), row.path))
                    shown = shown
                        || page->itemModel()
                                ->indexFromItem(item)
                                .siblingAtColumn(ScalingModelsView::ModelColumn)
                                .data()
                                .toString()
                                .count(QStringLiteral(" + "))
                            >= 2;
        QVERIFY(shown);
        // Inclusive too.
        page->setValue(ScalingValue::Inclusive);
        QCOMPARE(
            page->topPath(), checkAgainstCli(*page, false, 1024, { QStringLiteral("--terms"), QStringLiteral("2") }));
        // Back to one term: the Basic models again.
        page->setTerms(1);
        page->waitForResult();
        for (const CallPathModel& row : page->modelSet()->rows)
            if (!row.synthetic)
                QCOMPARE(row.exclusive.model.formula(), basic[row.path]);
    }

    void colourFollowsGrowth()
    {
        std::vector<std::shared_ptr<const Trial>> trials;
        for (const QString& r : luleshRuns())
            trials.push_back(mustLoad(r));
        ScalingView view(trials);
        view.waitForResult();
        ScalingModelsView* page = view.modelsPage();
        // The colour scale: white at 1, red above, blue below, saturating at ×100 and ÷100.
        const QColor one = ScalingModels::growthColour(1.0);
        QVERIFY(one.red() == one.blue() && one.lightness() > 240);
        QVERIFY(ScalingModels::growthColour(10).red() > ScalingModels::growthColour(10).blue());
        QVERIFY(ScalingModels::growthColour(10).lightness() > ScalingModels::growthColour(100).lightness());
        QCOMPARE(ScalingModels::growthColour(100), ScalingModels::growthColour(1e6));
        QVERIFY(ScalingModels::growthColour(0.1).blue() > ScalingModels::growthColour(0.1).red());
        QCOMPARE(ScalingModels::growthColour(-3), ScalingModels::growthColour(1e-6));

        // At the smallest scale some call paths shrink (blue) and some grow (red); each row's colour is
        // its growth's, growth = predicted / measured at 343.
        for (int target : { 27, 65536 }) {
            page->setTarget(target);
            const ScalingModelSet* set = page->modelSet();
            int red = 0;
            int blue = 0;
            for (const CallPathModel& row : set->rows) {
                if (row.synthetic)
                    continue;
                const CallPathModel::Side& s = row.exclusive;
                QVERIFY(close(s.growth, s.predicted / s.measured));
                QStandardItem* item = itemOf(page->itemModel(), row.path);
                QVERIFY(item);
                const QColor c = item->background().color();
                QCOMPARE(c, ScalingModels::growthColour(s.growth));
                if (s.growth > 1.05)
                    QVERIFY2(c.red() > c.blue(), qPrintable(row.path));
                if (s.growth < 0.95)
                    QVERIFY2(c.blue() > c.red(), qPrintable(row.path));
                red += s.growth > 1.05 ? 1 : 0;
                blue += s.growth < 0.95 ? 1 : 0;
            }
            if (target == 27)
                QVERIFY(red > 0 && blue > 0);
            else
                QVERIFY(red > blue);
        }

        // The flame graph: node i is row i, as wide as the predicted inclusive value, coloured by its growth.
        FlameGraphWidget* flame = page->flame();
        flame->resize(1200, 500);
        const ScalingModelSet* set = page->modelSet();
        const FlameTree* tree = flame->tree();
        QVERIFY(tree);
        QCOMPARE(tree->nodes().size(), set->rows.size());
        for (std::size_t i = 0; i < set->rows.size(); ++i)
            if (!set->rows[i].synthetic)
                QCOMPARE(tree->nodes()[i].inclusive, std::max(0.0, set->rows[i].inclusive.predicted));
        QCOMPARE(flame->style(), FlameGraphWidget::Style::Flame);
        int checked = 0;
        for (std::size_t f = 0; f < flame->flameLayout().frames.size(); ++f) {
            const FlameFrame& frame = flame->flameLayout().frames[f];
            if (frame.sliver || frame.node < 0)
                continue;
            QCOMPARE(flame->frameColour(static_cast<int>(f)),
                ScalingModels::growthColour(set->rows[static_cast<std::size_t>(frame.node)].inclusive.growth));
            ++checked;
        }
        QVERIFY2(checked >= 4, qPrintable(QString::number(checked)));
    }

    void parameters()
    {
        // DrawGraph's ring at 2, 4, 6 and 8 ranks: the thread count varies and is the parameter.
        std::vector<std::shared_ptr<const Trial>> trials;
        for (const char* n : { "8", "2", "6", "4" })
            trials.push_back(
                mustLoad(dataPath(QStringLiteral("tau2/ppk-drawgraph-scaling/%1.ppk").arg(QLatin1String(n)))));
        ScalingView view(trials);
        view.waitForResult();
        ScalingModelsView* page = view.modelsPage();
        QCOMPARE(page->parameter(), QStringLiteral("threads"));
        const ScalingModelSet* set = page->modelSet();
        QVERIFY(set && set->error.isEmpty());
        QCOMPARE(set->parameterValues, (std::vector<double> { 2, 4, 6, 8 }));
        QCOMPARE(set->parameterName, QStringLiteral("p"));
        // A TAU flat profile with call paths: the flat routines inside paths are no rows of their own.
        QVERIFY(set->rows.size() > 3);
        for (const CallPathModel& root : set->rows) {
            if (root.parent >= 0 || !root.children.empty())
                continue;
            for (const CallPathModel& row : set->rows)
                QVERIFY2(row.parent < 0 || row.label != root.path, qPrintable(root.path));
        }

        // Two Caliper runs by thread count: nothing scales, said so.
        ScalingSnapshot snapshot;
        for (const char* n : { "27", "64" })
            snapshot.trials.push_back(
                mustLoad(dataPath(QStringLiteral("thicket/mpi_scaling_cali/%1_cores.cali").arg(QLatin1String(n)))));
        for (const auto& t : snapshot.trials)
            snapshot.stats.push_back(TrialStatistics::of(*t));
        snapshot.metrics = QStringList { QStringLiteral("time") };
        ScalingModelRequest request;
        const auto bad = ScalingModels::build(snapshot, request);
        QVERIFY2(
            bad->error.contains(QStringLiteral("every run has 1 threads: nothing scales")), qPrintable(bad->error));
        request.parameter = QStringLiteral("no.such.key");
        QVERIFY(ScalingModels::build(snapshot, request)->error.contains(QStringLiteral("no numeric metadata value")));
        QCOMPARE(ScalingModels::parameters(snapshot).value(0), QStringLiteral("mpi.world.size"));
    }
};

QTEST_MAIN(TestScalingModels)
#include "tst_scalingmodels.moc"
