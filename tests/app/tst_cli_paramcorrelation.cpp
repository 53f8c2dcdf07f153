// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// `parallax-cli correlate --param KEY RUN...` (issue 17 §3, docs/SEMANTICS.md §11.7): each event's
// value against a parameter of the runs. On six runs written with a planted relation per event (one
// grows with the problem size, one falls, one is constant, one ignores it) the strongest are found
// and signed right; on the real DrawGraph scaling runs (2…8 ranks, --param threads) and on the
// planted runs the coefficients equal SciPy's pearsonr/spearmanr (tests/app/paramcorrelation_oracle.py)
// to 1e-9; the errors name the run and the key.
#include "datasource/model/trialbuilder.h"
#include "datasource/writers/tauwriter.h"
#include "tests/common/clirunner.h"
#include "tests/common/testutil.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <random>

using namespace parallax;
using namespace parallax::test;

namespace {

/// A run of two ranks at problem size `size` (metadata "Size"): grows = 1000·size·(1 ± 1 %),
/// shrinks = 1e6/size, steady = 5000 on every run, noise = uniform, unrelated to the size.
QString writeRun(const QString& root, int size, std::mt19937_64& random, const QString& sizeText = {})
{
    std::normal_distribution<double> jitter(0.0, 0.01);
    std::uniform_real_distribution<double> uniform(1000.0, 2000.0);
    TrialBuilder b(QStringLiteral("size %1").arg(size));
    b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
    const EventId grows = b.addEvent(QStringLiteral("grows"), { QStringLiteral("TAU_USER") });
    const EventId shrinks = b.addEvent(QStringLiteral("shrinks"), { QStringLiteral("TAU_USER") });
    const EventId steady = b.addEvent(QStringLiteral("steady"), { QStringLiteral("TAU_USER") });
    const EventId noise = b.addEvent(QStringLiteral("noise"), { QStringLiteral("TAU_USER") });
    for (int rank = 0; rank < 2; ++rank) {
        const ThreadIndex t = b.addThread({ rank, 0, 0 });
        for (const auto& [e, v] :
            { std::pair { grows, 1000.0 * size * (1.0 + jitter(random)) }, std::pair { shrinks, 1.0e6 / size },
                std::pair { steady, 5000.0 }, std::pair { noise, uniform(random) } }) {
            const double values[1] = { v };
            b.addInterval(t, e, 1, 0, values, values);
        }
    }
    b.addMetadata(QStringLiteral("Size"), sizeText.isEmpty() ? QString::number(size) : sizeText);
    const QString dir = root + QStringLiteral("/size%1").arg(size);
    QDir().mkpath(dir);
    return TauWriter::write(*b.build(), dir).isEmpty() ? dir : QString();
}

QJsonObject jsonOf(const CliRun& r)
{
    if (r.exitCode != 0)
        qWarning() << r.err;
    return QJsonDocument::fromJson(r.out).object();
}

QJsonObject eventOf(const QJsonObject& doc, const QString& name)
{
    for (const auto& v : doc.value(QStringLiteral("events")).toArray())
        if (v.toObject().value(QStringLiteral("event")).toString() == name)
            return v.toObject();
    return {};
}

/// SciPy's verdict on a `--json` result; its output on failure.
void runOracle(const QByteArray& result)
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("result.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(result);
    file.close();
    QProcess p;
    p.start(QStringLiteral(PARALLAX_PYTHON3),
        { QStringLiteral(PARALLAX_SOURCE_DIR "/tests/app/paramcorrelation_oracle.py"), path });
    QVERIFY(p.waitForFinished(120000));
    const QByteArray out = p.readAllStandardOutput() + p.readAllStandardError();
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, out.constData());
    QVERIFY(out.contains("events compared"));
}

} // namespace

class TestCliParamCorrelation : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QStringList m_runs;

private Q_SLOTS:
    void initTestCase()
    {
        std::mt19937_64 random(11);
        for (int size : { 40, 10, 60, 20, 50, 30 })
            m_runs << writeRun(m_dir.path(), size, random);
        QVERIFY(!m_runs.contains(QString()));
    }

    void plantedRelations()
    {
        const CliRun r = runCli(QStringList { QStringLiteral("correlate"), QStringLiteral("--param"),
                                    QStringLiteral("Size"), QStringLiteral("--json") }
            + m_runs);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = jsonOf(r);
        QCOMPARE(doc.value(QStringLiteral("runs")).toArray().size(), 6);
        QCOMPARE(
            doc.value(QStringLiteral("runs")).toArray().at(0).toObject().value(QStringLiteral("parameter")).toDouble(),
            40.0);
        const QJsonObject grows = eventOf(doc, QStringLiteral("grows"));
        QVERIFY(grows.value(QStringLiteral("pearson")).toDouble() > 0.99);
        QCOMPARE(grows.value(QStringLiteral("spearman")).toDouble(), 1.0);
        const QJsonObject shrinks = eventOf(doc, QStringLiteral("shrinks"));
        QVERIFY(shrinks.value(QStringLiteral("pearson")).toDouble() < -0.8); // 1/size: monotone, not linear
        QCOMPARE(shrinks.value(QStringLiteral("spearman")).toDouble(), -1.0);
        // A constant series has no correlation (null), and is listed last.
        const QJsonObject steady = eventOf(doc, QStringLiteral("steady"));
        QVERIFY(steady.value(QStringLiteral("pearson")).isNull());
        QCOMPARE(
            doc.value(QStringLiteral("events")).toArray().last().toObject().value(QStringLiteral("event")).toString(),
            QStringLiteral("steady"));
        // The strongest first.
        QCOMPARE(
            doc.value(QStringLiteral("events")).toArray().first().toObject().value(QStringLiteral("event")).toString(),
            QStringLiteral("grows"));
        runOracle(r.out);

        // The text lists the same order; --event restricts.
        const CliRun text = runCli(
            QStringList { QStringLiteral("correlate"), QStringLiteral("--param"), QStringLiteral("Size") } + m_runs);
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("6 runs; correlation of the Mean exclusive of TIME with Size"));
        QVERIFY(text.out.indexOf("grows") < text.out.indexOf("shrinks"));
        const CliRun one
            = runCli(QStringList { QStringLiteral("correlate"), QStringLiteral("--param"), QStringLiteral("Size"),
                         QStringLiteral("--event"), QStringLiteral("noise"), QStringLiteral("--json") }
                + m_runs);
        QCOMPARE(jsonOf(one).value(QStringLiteral("events")).toArray().size(), 1);
        runOracle(one.out);
    }

    void realScalingRuns()
    {
        const QString dir = dataPath(QStringLiteral("tau2/ppk-drawgraph-scaling"));
        const CliRun r = runCli({ QStringLiteral("correlate"), QStringLiteral("--param"), QStringLiteral("threads"),
            QStringLiteral("--json"), dir + QStringLiteral("/2.ppk"), dir + QStringLiteral("/4.ppk"),
            dir + QStringLiteral("/6.ppk"), dir + QStringLiteral("/8.ppk") });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = jsonOf(r);
        QJsonArray parameters;
        for (const auto& v : doc.value(QStringLiteral("runs")).toArray())
            parameters.append(v.toObject().value(QStringLiteral("parameter")));
        QCOMPARE(parameters, (QJsonArray { 2, 4, 6, 8 }));
        QVERIFY(doc.value(QStringLiteral("events")).toArray().size() >= 5);
        runOracle(r.out);
    }

    void errors()
    {
        const CliRun two
            = runCli(QStringList { QStringLiteral("correlate"), QStringLiteral("--param"), QStringLiteral("Size") }
                + m_runs.mid(0, 2));
        QCOMPARE(two.exitCode, 2);
        QVERIFY(two.err.contains("give at least 3 runs, got 2"));
        const CliRun noKey
            = runCli(QStringList { QStringLiteral("correlate"), QStringLiteral("--param"), QStringLiteral("Power") }
                + m_runs.mid(0, 3));
        QCOMPARE(noKey.exitCode, 1);
        QVERIFY2(noKey.err.contains("has no metadata key 'Power'"), noKey.err.constData());
        std::mt19937_64 random(3);
        QTemporaryDir dir;
        const QString odd = writeRun(dir.path(), 70, random, QStringLiteral("large"));
        const CliRun notNumber
            = runCli(QStringList { QStringLiteral("correlate"), QStringLiteral("--param"), QStringLiteral("Size") }
                + m_runs.mid(0, 2) + QStringList { odd });
        QCOMPARE(notNumber.exitCode, 1);
        QVERIFY2(notNumber.err.contains("metadata 'Size' is 'large', not a number"), notNumber.err.constData());
        const CliRun missing = runCli(QStringList { QStringLiteral("correlate"), QStringLiteral("--param"),
                                          QStringLiteral("Size"), QStringLiteral("--event"), QStringLiteral("nothing") }
            + m_runs);
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("none of the runs has the event 'nothing'"));
        const CliRun matrix = runCli(QStringList { QStringLiteral("correlate"), QStringLiteral("--param"),
                                         QStringLiteral("Size"), QStringLiteral("--matrix"), QStringLiteral("m.json") }
            + m_runs);
        QCOMPARE(matrix.exitCode, 2);
        const CliRun stray = runCli({ QStringLiteral("correlate"), QStringLiteral("--inclusive"), m_runs.front() });
        QCOMPARE(stray.exitCode, 2);
        QVERIFY(stray.err.contains("are for --param"));
    }
};

QTEST_GUILESS_MAIN(TestCliParamCorrelation)
#include "tst_cli_paramcorrelation.moc"
