// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// `parallax-cli cluster` and `correlate` (issue 17, section 3; docs/SEMANTICS.md §11): a synthetic trial
// with planted groups of ranks is clustered into exactly those groups; clusters, silhouettes, the PCA and
// the correlations agree with scikit-learn, SciPy and NumPy (tests/app/cluster_oracle.py) on the matrix
// Parallax writes with --matrix, on synthetic and on real samples; bad input is an error, not a crash.
#include "algebra/cluster.h"
#include "tests/common/clirunner.h"
#include "tests/common/testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

/// Runs the oracle script on a matrix and a result; its output on failure.
void runOracle(const QString& mode, const QString& matrix, const QByteArray& result, const QStringList& extra = {})
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString resultPath = dir.filePath(QStringLiteral("result.json"));
    writeText(resultPath, result);
    QProcess p;
    p.start(QStringLiteral(PARALLAX_PYTHON3),
        QStringList { QStringLiteral(PARALLAX_SOURCE_DIR "/tests/app/cluster_oracle.py"), mode, matrix, resultPath }
            + extra);
    QVERIFY(p.waitForFinished(300000));
    const QByteArray out = p.readAllStandardOutput() + p.readAllStandardError();
    qInfo().noquote() << QString::fromUtf8(out).trimmed();
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, out.constData());
    QVERIFY(out.count("ok    ") >= 3);
}

QJsonObject json(const CliRun& r)
{
    if (r.exitCode != 0)
        qWarning() << r.err;
    return QJsonDocument::fromJson(r.out).object();
}

} // namespace

class TestCliCluster : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_planted; ///< 64 ranks in two planted groups, 30 events
    QString m_three; ///< 90 ranks in three planted groups

    QString synth(const QString& name, const QStringList& options)
    {
        const QString out = m_dir.filePath(name);
        const CliRun r = runCli(QStringList { QStringLiteral("synth") } + options + QStringList { out });
        return r.exitCode == 0 ? out : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_planted = synth(QStringLiteral("planted"),
            { QStringLiteral("--threads"), QStringLiteral("64"), QStringLiteral("--events"), QStringLiteral("30"),
                QStringLiteral("--groups"), QStringLiteral("2"), QStringLiteral("--seed"), QStringLiteral("7") });
        m_three = synth(QStringLiteral("three"),
            { QStringLiteral("--threads"), QStringLiteral("90"), QStringLiteral("--events"), QStringLiteral("40"),
                QStringLiteral("--groups"), QStringLiteral("3"), QStringLiteral("--callpath-depth"),
                QStringLiteral("4") });
        QVERIFY(!m_planted.isEmpty() && !m_three.isEmpty());
    }

    /// The planted groups come back exactly, by every method, normalisation and the silhouette's choice of k.
    void plantedGroups()
    {
        const auto trial = mustLoad(m_planted);
        QVERIFY(trial);
        QCOMPARE(trial->metadataValue(QStringLiteral("Synth group"), ThreadIndex(40u)), QStringLiteral("1"));
        for (const QString& method : { QStringLiteral("kmeans"), QStringLiteral("ward") })
            for (const QString& norm : { QStringLiteral("raw"), QStringLiteral("share"), QStringLiteral("zscore") }) {
                const QJsonObject o = json(runCli({ QStringLiteral("cluster"), QStringLiteral("--json"),
                    QStringLiteral("--method"), method, QStringLiteral("--normalise"), norm, m_planted }));
                QCOMPARE(o.value(QStringLiteral("k")).toInt(), 2); // chosen by the silhouette over 2-10
                QCOMPARE(o.value(QStringLiteral("silhouettes")).toArray().size(), 9);
                const QJsonArray labels = o.value(QStringLiteral("labels")).toArray();
                QCOMPARE(labels.size(), 64);
                const int first = labels[0].toInt();
                for (int t = 0; t < 64; ++t)
                    QVERIFY2((labels[t].toInt() == first) == (t < 32),
                        qPrintable(QStringLiteral("%1 %2: thread %3").arg(method, norm).arg(t)));
                const QJsonArray clusters = o.value(QStringLiteral("clusters")).toArray();
                QCOMPARE(clusters[0].toObject().value(QStringLiteral("size")).toInt(), 32);
                QCOMPARE(clusters[1].toObject().value(QStringLiteral("size")).toInt(), 32);
                // Planted: group g's events i with i mod 2 = g cost 4 times as much.
                const QJsonArray columns = o.value(QStringLiteral("columns")).toArray();
                const QJsonObject c0 = clusters[first].toObject();
                const QJsonObject c1 = clusters[1 - first].toObject();
                int heavier = 0;
                for (qsizetype c = 0; c < columns.size(); ++c) {
                    const EventId e = trial->findEvent(columns[c].toString());
                    QVERIFY(e.isValid());
                    const double a = c0.value(QStringLiteral("meanRaw")).toArray()[c].toDouble();
                    const double b = c1.value(QStringLiteral("meanRaw")).toArray()[c].toDouble();
                    if (e.index() >= 1)
                        heavier += (e.index() % 2 == 0) == (a > 2 * b) ? 1 : 0;
                }
                QCOMPARE(heavier, 29);
            }
        // The text form names the clusters' threads.
        const CliRun text
            = runCli({ QStringLiteral("cluster"), QStringLiteral("--k"), QStringLiteral("2"), m_planted });
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("cluster 0: 32 threads") && text.out.contains("threads #0-31")
                && text.out.contains("threads #32-63"),
            text.out.constData());
    }

    /// Three planted groups of call paths, against scikit-learn: k-means, Ward, silhouettes, PCA.
    void oracleSynthetic()
    {
        for (const QString& method : { QStringLiteral("kmeans"), QStringLiteral("ward") }) {
            const QString matrix = m_dir.filePath(QStringLiteral("three-%1.json").arg(method));
            const CliRun r = runCli({ QStringLiteral("cluster"), QStringLiteral("--json"), QStringLiteral("--pca"),
                QStringLiteral("--callpaths"), QStringLiteral("--normalise"), QStringLiteral("zscore"),
                QStringLiteral("--method"), method, QStringLiteral("--k-range"), QStringLiteral("2-5"),
                QStringLiteral("--matrix"), matrix, m_three });
            QCOMPARE(r.exitCode, 0);
            const QJsonObject o = json(r);
            QCOMPARE(o.value(QStringLiteral("k")).toInt(), 3);
            QCOMPARE(o.value(QStringLiteral("columns")).toArray().size(), 39); // call paths only
            const QJsonArray labels = o.value(QStringLiteral("labels")).toArray();
            for (int t = 0; t < 90; ++t)
                QCOMPARE(labels[t].toInt(), labels[qsizetype(t / 30) * 30].toInt());
            runOracle(QStringLiteral("cluster"), matrix, r.out, { QStringLiteral("--inertia") });
            if (QTest::currentTestFailed())
                return;
        }
        const QString matrix = m_dir.filePath(QStringLiteral("three-corr.json"));
        const CliRun c = runCli(
            { QStringLiteral("correlate"), QStringLiteral("--json"), QStringLiteral("--matrix"), matrix, m_three });
        QCOMPARE(c.exitCode, 0);
        runOracle(QStringLiteral("correlate"), matrix, c.out);
    }

    /// Real samples: Ward (deterministic) and the correlations agree with the oracle; k-means finds an
    /// inertia no worse than scikit-learn's ten seeds.
    void oracleRealSamples()
    {
        struct Case {
            const char* path;
            const char* normalise;
            int k;
        };
        for (const Case& cs : { Case { "tau2/ppk/wrf-callpath-16rank.ppk", "share", 3 },
                 Case { "tau2/ppk/gromacs-like-loadimbalance-8rank.ppk", "zscore", 2 },
                 Case { "tau2/ppk/matmult-openmp-24thread-samples.ppk", "raw", 4 } }) {
            const QString path = dataPath(QString::fromLatin1(cs.path));
            for (const QString& method : { QStringLiteral("kmeans"), QStringLiteral("ward") }) {
                const QString matrix = m_dir.filePath(QStringLiteral("real.json"));
                const CliRun r = runCli({ QStringLiteral("cluster"), QStringLiteral("--json"), QStringLiteral("--pca"),
                    QStringLiteral("--normalise"), QString::fromLatin1(cs.normalise), QStringLiteral("--method"),
                    method, QStringLiteral("--k"), QString::number(cs.k), QStringLiteral("--matrix"), matrix, path });
                QVERIFY2(r.exitCode == 0, r.err.constData());
                // k-means on real (not well-separated) data: the same optimum, judged by the inertia.
                runOracle(QStringLiteral("cluster"), matrix, r.out,
                    method == QLatin1String("kmeans")
                        ? QStringList { QStringLiteral("--ari-min"), QStringLiteral("0"), QStringLiteral("--inertia") }
                        : QStringList {});
                if (QTest::currentTestFailed())
                    return;
            }
            const QString matrix = m_dir.filePath(QStringLiteral("real-corr.json"));
            const CliRun c = runCli(
                { QStringLiteral("correlate"), QStringLiteral("--json"), QStringLiteral("--matrix"), matrix, path });
            QVERIFY2(c.exitCode == 0, c.err.constData());
            runOracle(QStringLiteral("correlate"), matrix, c.out);
            if (QTest::currentTestFailed())
                return;
        }
    }

    /// Average ranks as scipy.stats.rankdata, and the silhouette's sampling on many threads.
    void ranksAndSampling()
    {
        const std::vector<double> ranks = averageRanks({ 3.0, 1.0, 3.0, 2.0, 3.0 });
        QCOMPARE(ranks, (std::vector<double> { 4.0, 1.0, 4.0, 2.0, 4.0 }));
        const QString many = synth(QStringLiteral("many"),
            { QStringLiteral("--threads"), QStringLiteral("5000"), QStringLiteral("--events"), QStringLiteral("20"),
                QStringLiteral("--groups"), QStringLiteral("2"), QStringLiteral("--user-events"),
                QStringLiteral("0") });
        QVERIFY(!many.isEmpty());
        for (const QString& method : { QStringLiteral("kmeans"), QStringLiteral("ward") }) {
            const QJsonObject o = json(runCli({ QStringLiteral("cluster"), QStringLiteral("--json"),
                QStringLiteral("--method"), method, QStringLiteral("--k-range"), QStringLiteral("2-4"), many }));
            QCOMPARE(o.value(QStringLiteral("k")).toInt(), 2);
            QCOMPARE(o.value(QStringLiteral("silhouetteRows")).toInt(), 2000);
            QCOMPARE(o.value(QStringLiteral("wardRows")).toInt(), method == QLatin1String("ward") ? 4096 : 0);
            QCOMPARE(o.value(QStringLiteral("kSearchRows")).toInt(), 5000);
            const QJsonArray labels = o.value(QStringLiteral("labels")).toArray();
            for (int t = 0; t < 5000; ++t)
                QVERIFY((labels[t].toInt() == labels[0].toInt()) == (t < 2500));
        }
        // The k range tried on a sample of 1,000 threads (§11.4): the same k and the same two groups on
        // all 5,000, with silhouettes of the sample's clusterings.
        const QJsonObject sampled
            = json(runCli({ QStringLiteral("cluster"), QStringLiteral("--json"), QStringLiteral("--k-range"),
                QStringLiteral("2-4"), QStringLiteral("--k-sample"), QStringLiteral("1000"), many }));
        QCOMPARE(sampled.value(QStringLiteral("k")).toInt(), 2);
        QCOMPARE(sampled.value(QStringLiteral("kSearchRows")).toInt(), 1000);
        QCOMPARE(sampled.value(QStringLiteral("silhouetteRows")).toInt(), 2000);
        QCOMPARE(sampled.value(QStringLiteral("silhouettes")).toArray().size(), 3);
        const QJsonArray labels = sampled.value(QStringLiteral("labels")).toArray();
        QCOMPARE(labels.size(), 5000);
        for (int t = 0; t < 5000; ++t)
            QVERIFY((labels[t].toInt() == labels[0].toInt()) == (t < 2500));
        QCOMPARE(runCli({ QStringLiteral("cluster"), QStringLiteral("--k-range"), QStringLiteral("2-4"),
                            QStringLiteral("--k-sample"), QStringLiteral("3"), many })
                     .exitCode,
            2);
    }

    void badInput()
    {
        const QString ring = dataPath(QStringLiteral("tau2/ppk/ring-2rank.ppk"));
        struct Case {
            QStringList args;
            int exit = 0;
            const char* message = nullptr;
        };
        const Case cases[] = {
            { { QStringLiteral("--k"), QStringLiteral("3"), ring }, 1, "--k 3 is more clusters than its 2 threads" },
            { { QStringLiteral("--k"), QStringLiteral("0"), ring }, 2, "0 is out of range" },
            { { QStringLiteral("--k-range"), QStringLiteral("2-3"), ring }, 1, "needs at least 4 threads" },
            { { QStringLiteral("--k-range"), QStringLiteral("5-2"), ring }, 2, "--k-range" },
            { { QStringLiteral("--k-range"), QStringLiteral("two"), ring }, 2, "is not A-B" },
            { { QStringLiteral("--k"), QStringLiteral("2"), QStringLiteral("--k-range"), QStringLiteral("2-3"), ring },
                2, "exclude each other" },
            { { QStringLiteral("--normalise"), QStringLiteral("log"), ring }, 2,
                "--normalise takes raw, share, zscore" },
            { { QStringLiteral("--method"), QStringLiteral("dbscan"), ring }, 2, "--method takes kmeans, ward" },
            { { QStringLiteral("--metric"), QStringLiteral("NOPE"), ring }, 1, "no metric 'NOPE'" },
            { { QStringLiteral("--callpaths"), QStringLiteral("--k"), QStringLiteral("2"), ring }, 1,
                "has no call paths to cluster by" },
            { { m_dir.filePath(QStringLiteral("absent")) }, 1, "absent" },
        };
        for (const Case& c : cases) {
            const CliRun r = runCli(QStringList { QStringLiteral("cluster") } + c.args);
            QVERIFY2(r.exitCode == c.exit,
                qPrintable(c.args.join(QLatin1Char(' ')) + QLatin1Char(' ') + QString::fromUtf8(r.err)));
            QVERIFY2(r.err.contains(c.message), r.err.constData());
        }
        // The text of correlate: no warning, the events most correlated with the total first.
        const CliRun text = runCli({ QStringLiteral("correlate"), QStringLiteral("--top"), QStringLiteral("3"),
            dataPath(QStringLiteral("tau2/ppk/wrf-callpath-16rank.ppk")) });
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.err.isEmpty(), text.err.constData());
        QVERIFY(text.out.contains("16 threads x 1139 events; correlation with the thread's total"));
        QVERIFY(text.out.contains("0.9995   0.6853  WRF_BDYIN"));
        const CliRun one
            = runCli({ QStringLiteral("correlate"), dataPath(QStringLiteral("tau2/ppk/phases-callpath-1thread.ppk")) });
        QCOMPARE(one.exitCode, 1);
        QVERIFY2(one.err.contains("a correlation across threads needs two or more"), one.err.constData());
        const CliRun groups = runCli({ QStringLiteral("synth"), QStringLiteral("--threads"), QStringLiteral("2"),
            QStringLiteral("--events"), QStringLiteral("5"), QStringLiteral("--groups"), QStringLiteral("3"),
            m_dir.filePath(QStringLiteral("toomany")) });
        QCOMPARE(groups.exitCode, 2);
        QVERIFY(groups.err.contains("more groups than the 2 threads"));
    }
};

QTEST_MAIN(TestCliCluster)
#include "tst_cli_cluster.moc"
