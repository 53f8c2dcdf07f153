// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// algebra/cluster.h on docs/SEMANTICS.md §11.7's worked example: the normalisations, k-means and Ward,
// representatives, the silhouette and the choice of k, the PCA, Pearson and Spearman; errors and
// cancellation. The comparison with scikit-learn on synthetic and real trials is tst_cli_cluster.
#include "algebra/cluster.h"
#include "datasource/model/trialbuilder.h"

#include <QTest>
#include <cmath>

using namespace parallax;

namespace {

/// §11.7: four threads, events A and B.
std::shared_ptr<const Trial> example()
{
    TrialBuilder b(QStringLiteral("example"));
    b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
    const EventId a = b.addEvent(QStringLiteral("A"));
    const EventId e = b.addEvent(QStringLiteral("B"));
    const double values[4][2] = { { 10, 2 }, { 12, 2 }, { 2, 10 }, { 2, 12 } };
    for (int t = 0; t < 4; ++t) {
        const ThreadIndex ti = b.addThread({ t, 0, 0 });
        b.addInterval(
            ti, a, 1, 0, std::span<const double>(&values[t][0], 1), std::span<const double>(&values[t][0], 1));
        b.addInterval(
            ti, e, 1, 0, std::span<const double>(&values[t][1], 1), std::span<const double>(&values[t][1], 1));
    }
    return b.build();
}

bool near(double a, double b, double tol = 5e-6) { return std::fabs(a - b) <= tol; }

} // namespace

class TestCluster : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void normalisations()
    {
        const auto trial = example();
        ProfileMatrixOptions o;
        o.normalisation = ClusterNormalisation::Share;
        const auto share = buildProfileMatrix(*trial, o, nullptr);
        QVERIFY(share);
        QCOMPARE(share->rows, std::size_t(4));
        QCOMPARE(share->cols, std::size_t(2));
        QCOMPARE(share->value(0, 0), 10.0 / 12.0);
        QCOMPARE(share->value(1, 1), 2.0 / 14.0);
        QCOMPARE(share->raw[1 * 2 + 0], 12.0);
        o.normalisation = ClusterNormalisation::ZScore;
        const auto z = buildProfileMatrix(*trial, o, nullptr);
        QVERIFY(z && near(z->value(0, 0), 0.76835) && near(z->value(0, 0), 3.5 / std::sqrt(83.0 / 4)));
        QCOMPARE(parseClusterNormalisation(QStringLiteral("ZScore")), std::optional(ClusterNormalisation::ZScore));
        QVERIFY(!parseClusterNormalisation(QStringLiteral("log")));
        // No call paths in a flat profile.
        o.callPaths = true;
        QString error;
        QVERIFY(!buildProfileMatrix(*trial, o, &error));
        QVERIFY2(error.contains(QStringLiteral("no call paths")), qPrintable(error));
    }

    void kmeansAndWard()
    {
        const auto trial = example();
        const auto m = buildProfileMatrix(*trial, {}, nullptr);
        QVERIFY(m);
        for (const ClusterMethod method : { ClusterMethod::KMeans, ClusterMethod::Ward }) {
            ClusterOptions o;
            o.method = method;
            o.k = 2;
            o.pca = true;
            const ClusterResult r = clusterThreads(*m, o);
            QVERIFY2(r.ok(), qPrintable(r.error));
            QCOMPARE(r.k, 2);
            QCOMPARE(r.labels, (std::vector<int> { 0, 0, 1, 1 }));
            QCOMPARE(r.clusters[0].centroid, (std::vector<double> { 11, 2 }));
            QCOMPARE(r.clusters[1].centroid, (std::vector<double> { 2, 11 }));
            QCOMPARE(r.clusters[0].representative, std::size_t(0));
            QCOMPARE(r.clusters[1].representative, std::size_t(2));
            QCOMPARE(r.clusters[0].sse, 2.0);
            QCOMPARE(r.inertia, 4.0);
            QVERIFY(near(r.silhouette, 0.842865));
            // Each cluster's silhouette: the mean of its members' (0.83416 + 0.85157) / 2.
            QVERIFY(near(r.clusters[0].silhouette, 0.842865) && near(r.clusters[1].silhouette, 0.842865));
            QVERIFY(near(r.explained[0], 0.987952) && near(r.explained[1], 0.012048));
            QVERIFY(near(r.pcaX[0], 5.65685) && near(r.pcaY[0], -0.70711));
            QVERIFY(near(r.pcaX[3], -7.07107) && near(r.pcaY[3], 0.70711));
        }
        ClusterOptions range;
        range.kMin = 2;
        range.kMax = 3;
        const ClusterResult r = clusterThreads(*m, range);
        QCOMPARE(r.k, 2);
        QCOMPARE(r.silhouettes.size(), std::size_t(2));
        QVERIFY(near(r.silhouettes[1].second, 0.416762)); // {0,1}, {2}, {3}
        QVERIFY(near(silhouetteScore(*m, r.labels, {}), 0.842865));
    }

    void errorsAndCancel()
    {
        const auto trial = example();
        const auto m = buildProfileMatrix(*trial, {}, nullptr);
        ClusterOptions o;
        o.k = 5;
        QVERIFY(clusterThreads(*m, o).error.contains(QStringLiteral("not between 1 and the number of threads, 4")));
        o.k = 0;
        o.kMax = 4;
        QVERIFY(clusterThreads(*m, o).error.contains(QStringLiteral("needs at least 5 threads")));
        std::atomic_bool cancel { true };
        o.kMax = 3;
        o.cancel = &cancel;
        QVERIFY(clusterThreads(*m, o).cancelled);
    }

    void correlation()
    {
        const auto trial = example();
        const auto m = buildProfileMatrix(*trial, {}, nullptr);
        const CorrelationResult r = correlateColumns(*trial, *m);
        QCOMPARE(r.pearson[0], 1.0);
        QVERIFY(std::fabs(r.pearson[1] - (-81.0 / 83.0)) < 1e-15);
        QVERIFY(std::fabs(r.spearman[2] - (-4.0 / 4.5)) < 1e-15);
        QCOMPARE(r.total, (std::vector<double> { 10, 12, 10, 12 }));
        QVERIFY(std::fabs(r.pearsonTotal[0] - 2.0 / std::sqrt(83.0 * 4)) < 1e-15);
        QVERIFY(near(r.spearmanTotal[0], 0.235702));
        QCOMPARE(averageRanks({ 2.0, 2.0, 1.0 }), (std::vector<double> { 2.5, 2.5, 1.0 }));
    }
};

QTEST_MAIN(TestCluster)
#include "tst_cluster.moc"
