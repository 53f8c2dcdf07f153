// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The Clusters and Correlation views (issue 17 §3): a trial with two planted groups of ranks
// (synth --groups 2) is clustered into exactly those groups; a click on a cluster's row puts exactly
// its threads into SelectionState's thread set, which the overview's rows and the CUBE browser's
// topology then highlight; a click on a scatter point selects its thread and its cluster; Back and
// Forward restore the set; the correlation heat map shows algebra's coefficients, on a real trial.
#include "algebra/cluster.h"
#include "datasource/synth/synth.h"
#include "tests/common/testutil.h"
#include "views/charts/qcustomplotwrapper.h"
#include "views/cluster/clusterview.h"
#include "views/cluster/correlationview.h"
#include "views/cube/cubebrowser.h"
#include "views/cube/topologyview.h"
#include "views/overview/barlistwidget.h"
#include "views/overview/overviewwidget.h"
#include "views/selectionstate.h"

#include <QTableWidget>
#include <QTest>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

std::shared_ptr<const Trial> plantedTrial()
{
    SynthOptions o;
    o.threads = 64;
    o.events = 30;
    o.groups = 2;
    o.seed = 7;
    o.threadsPerNode = 8;
    return synthesizeTrial(o);
}

/// The planted group of a thread (synth's per-thread metadata "Synth group").
int groupOf(const Trial& trial, std::size_t t)
{
    return trial.metadataValue(QStringLiteral("Synth group"), ThreadIndex(t)).toInt();
}

void clickRow(QTableWidget* table, int row)
{
    const QRect rect = table->visualItemRect(table->item(row, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
}

} // namespace

class TestClusterView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void plantedGroupsAndSelection()
    {
        const auto trial = plantedTrial();
        SelectionState state;
        ClusterView view(&state);
        view.resize(1200, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        OverviewWidget overview(&state);
        overview.resize(800, 1400);
        overview.show();
        CubeBrowser cube(&state);
        cube.resize(1200, 800);
        cube.show();
        state.setTrial(trial);
        view.updateNow();
        QVERIFY(!view.isComputing());

        // Two clusters, chosen by the silhouette over 2-8, exactly the planted groups.
        const auto& r = view.output().result;
        QVERIFY(r && r->ok());
        QCOMPARE(r->k, 2);
        QCOMPARE(r->silhouettes.size(), std::size_t(7));
        QCOMPARE(view.clusterTable()->rowCount(), 2);
        for (std::size_t t = 0; t < 64; ++t)
            QCOMPARE(r->labels[t] == r->labels[0], groupOf(*trial, t) == groupOf(*trial, 0));
        QCOMPARE(view.clusterTable()->item(0, 1)->text(), QStringLiteral("32"));
        QCOMPARE(view.clusterTable()->item(1, 1)->text(), QStringLiteral("32"));
        // The representative thread is a member; silhouettes are high for well-separated groups.
        for (int c = 0; c < 2; ++c) {
            QCOMPARE(r->labels[r->clusters[static_cast<std::size_t>(c)].representative], c);
            QVERIFY(r->clusters[static_cast<std::size_t>(c)].silhouette > 0.5);
        }
        // The scatter: one graph per cluster with its members, plus the selected thread's mark.
        QCOMPARE(view.scatterPlot()->graphCount(), 3);
        QCOMPARE(view.scatterPlot()->graph(0)->dataCount() + view.scatterPlot()->graph(1)->dataCount(), 64);

        // A click on cluster 1's row: exactly its threads, in every view.
        clickRow(view.clusterTable(), 0);
        const std::vector<ThreadIndex> members = view.clusterThreads(0);
        QCOMPARE(members.size(), std::size_t(32));
        QCOMPARE(state.selectedThreads(), members);
        const int group = groupOf(*trial, members.front().index());
        for (std::size_t t = 0; t < 64; ++t)
            QCOMPARE(state.isThreadSelected(ThreadIndex(t)), groupOf(*trial, t) == group);
        // The overview marks exactly those rows.
        overview.updateNow();
        QCOMPARE(overview.barList()->markedRowCount(), std::size_t(32));
        for (std::size_t t = 0; t < 64; ++t)
            QCOMPARE(overview.barList()->isRowMarked(overview.rowOfThread(ThreadIndex(t))),
                state.isThreadSelected(ThreadIndex(t)));
        // The topology (nodes × cores of 8 threads each) marks exactly their cells.
        cube.updateNow();
        cube.finishComputing();
        QApplication::processEvents();
        TopologyView* topology = cube.topologyView();
        QVERIFY(topology->topology());
        QCOMPARE(topology->markedCellCount(), std::size_t(32));
        const QImage& image = topology->cellImage();
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const ThreadIndex t = topology->threadAt(x, y);
                if (t.isValid())
                    QCOMPARE(topology->isCellMarked(x, y), state.isThreadSelected(t));
            }

        // Cluster 2 replaces the set; Back restores cluster 1's, Forward cluster 2's again.
        clickRow(view.clusterTable(), 1);
        QCOMPARE(state.selectedThreads(), view.clusterThreads(1));
        QCOMPARE(view.currentCluster(), 1);
        state.back();
        QCOMPARE(state.selectedThreads(), members);
        overview.updateNow();
        QCOMPARE(overview.barList()->markedRowCount(), std::size_t(32));
        QVERIFY(overview.barList()->isRowMarked(overview.rowOfThread(members.front())));
        state.forward();
        QCOMPARE(state.selectedThreads(), view.clusterThreads(1));
        state.clearSelectedThreads();
        QVERIFY(state.selectedThreads().empty());
        overview.updateNow();
        cube.updateNow();
        QCOMPARE(overview.barList()->markedRowCount(), std::size_t(0));
        QCOMPARE(topology->markedCellCount(), std::size_t(0));

        // A click on a scatter point: that thread and its cluster's threads. Take a thread whose
        // point no other lies within 6 pixels of, so the click cannot hit another.
        view.scatterPlot()->replot();
        ThreadIndex lone;
        for (std::size_t t = 0; t < 64 && !lone.isValid(); ++t) {
            const QPoint p = view.scatterPosition(ThreadIndex(t));
            bool alone = view.scatterPlot()->rect().contains(p);
            for (std::size_t u = 0; u < 64 && alone; ++u)
                if (u != t && (view.scatterPosition(ThreadIndex(u)) - p).manhattanLength() < 12)
                    alone = false;
            if (alone)
                lone = ThreadIndex(t);
        }
        QVERIFY2(lone.isValid(), "no scatter point stands alone");
        QTest::mouseClick(view.scatterPlot(), Qt::LeftButton, {}, view.scatterPosition(lone));
        QCOMPARE(state.thread(), lone);
        const int cluster = r->labels[lone.index()];
        QCOMPARE(view.currentCluster(), cluster);
        QCOMPARE(state.selectedThreads(), view.clusterThreads(cluster));
        // A single thread's selection keeps working as before and keeps the set.
        state.selectThread(ThreadIndex(3u));
        QCOMPARE(state.thread(), ThreadIndex(3u));
        QCOMPARE(state.selectedThreads(), view.clusterThreads(cluster));
    }

    void methodsAndNormalisations()
    {
        const auto trial = plantedTrial();
        SelectionState state;
        ClusterView view(&state);
        state.setTrial(trial);
        for (ClusterMethod method : { ClusterMethod::KMeans, ClusterMethod::Ward })
            for (ClusterNormalisation n :
                { ClusterNormalisation::Raw, ClusterNormalisation::Share, ClusterNormalisation::ZScore }) {
                view.setMethod(method);
                view.setNormalisation(n);
                view.setK(2);
                view.updateNow();
                const auto& r = view.output().result;
                QVERIFY(r && r->ok());
                QCOMPARE(r->k, 2);
                QCOMPARE(view.output().matrix->normalisation, n);
                for (std::size_t t = 0; t < 64; ++t)
                    QCOMPARE(r->labels[t] == r->labels[0], groupOf(*trial, t) == groupOf(*trial, 0));
            }
        // k = 3 gives three clusters; the view's result is algebra's for the same options.
        view.setK(3);
        view.updateNow();
        QCOMPARE(view.output().result->k, 3);
        QCOMPARE(view.clusterTable()->rowCount(), 3);
        ClusterOptions o;
        o.method = ClusterMethod::Ward;
        o.k = 3;
        const ClusterResult direct = clusterThreads(*view.output().matrix, o);
        QCOMPARE(view.output().result->labels, direct.labels);
    }

    void cancelStopsTheJob()
    {
        SynthOptions so;
        so.threads = 4096;
        so.events = 120;
        so.groups = 3;
        const auto trial = synthesizeTrial(so);
        SelectionState state;
        ClusterView view(&state);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setKRange(2, 12);
        state.setTrial(trial);
        QTRY_VERIFY(view.isComputing());
        view.cancel();
        QVERIFY(!view.isComputing());
        QTest::qWait(50);
        QVERIFY(!view.output().result);
        QVERIFY(view.statusLabel()->text().contains(QStringLiteral("Cancelled")));
    }

    void correlationMatrixIsAlgebras()
    {
        // A real trial: WRF on 16 ranks.
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/ppk/wrf-callpath-16rank.ppk")));
        QVERIFY(trial);
        SelectionState state;
        CorrelationView view(&state);
        view.resize(1200, 800);
        state.setTrial(trial);
        view.setShownEvents(15);
        view.updateNow();
        QVERIFY(view.output().result);
        QString error;
        const auto matrix = buildProfileMatrix(*trial, {}, &error);
        QVERIFY2(matrix, qPrintable(error));
        const CorrelationResult expected = correlateColumns(*trial, *matrix);
        QCOMPARE(view.shownColumns().size(), std::size_t(15));
        for (bool spearman : { false, true }) {
            view.setSpearman(spearman);
            const auto& want = spearman ? expected.spearman : expected.pearson;
            std::size_t finite = 0;
            for (std::size_t i = 0; i < 15; ++i)
                for (std::size_t j = 0; j < 15; ++j) {
                    const double v = want[view.shownColumns()[i] * expected.cols + view.shownColumns()[j]];
                    const double shown = view.heatMapValue(i, j);
                    if (std::isnan(v)) {
                        QVERIFY(std::isnan(shown));
                    } else {
                        QCOMPARE(shown, v);
                        ++finite;
                    }
                    if (i == j && !std::isnan(v))
                        QVERIFY(std::fabs(v - 1.0) < 1e-12);
                }
            QVERIFY(finite > 100);
            // The ranked list: |coefficient with the total|, largest first.
            const auto& total = spearman ? expected.spearmanTotal : expected.pearsonTotal;
            const auto& ranked = view.rankedColumns();
            QCOMPARE(ranked.size(), expected.cols);
            for (std::size_t i = 1; i < ranked.size(); ++i)
                if (!std::isnan(total[ranked[i]]))
                    QVERIFY(std::fabs(total[ranked[i - 1]]) >= std::fabs(total[ranked[i]]));
        }
        // A click on a ranked event selects it.
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        clickRow(view.rankedTable(), 0);
        QCOMPARE(state.event(), matrix->columns[view.rankedColumns()[0]].event);
    }
};

QTEST_MAIN(TestClusterView)
#include "tst_clusterview.moc"
