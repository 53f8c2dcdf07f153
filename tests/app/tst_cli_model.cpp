// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// `parallax-cli model` (issue 17, section 2): Extra-P input files give Extra-P's models (transcribed
// from Extra-P 291ac81's output, as tst_perfmodel), runs give per call path the series of their
// statistics (read back from the trials here) and the model of that series, the prediction at
// --target, the dominating call path first; and the errors.
#include "algebra/perfmodel.h"
#include "algebra/statistics.h"
#include "datasource/writers/tauwriter.h"
#include "tests/common/clirunner.h"
#include "tests/common/testutil.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

QJsonObject runJson(const QStringList& args)
{
    const CliRun r = runCli(args);
    if (r.exitCode != 0)
        qWarning("%s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-6 * std::max(std::abs(a), std::abs(b)); }

} // namespace

class TestCliModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void extrapFile()
    {
        const QJsonObject doc = runJson({ QStringLiteral("model"), QStringLiteral("--extrap"),
            dataPath(QStringLiteral("extrap/text/one_parameter_6.txt")), QStringLiteral("--json"),
            QStringLiteral("--target"), QStringLiteral("32000") });
        QCOMPARE(doc.value(QStringLiteral("format")).toString(), QStringLiteral("text"));
        const QJsonArray models = doc.value(QStringLiteral("models")).toArray();
        QCOMPARE(models.size(), 4);
        // Extra-P: met1 "4.068"; met3 "2.1822526315789204 + 1.0121669702114525e-06 * p^(2)" with SMAPE
        // 14.719088619853498 and adjusted R² 0.9985732058774331.
        QCOMPARE(models[0].toObject().value(QStringLiteral("model")).toString(), QStringLiteral("4.068"));
        const QJsonObject met3 = models[2].toObject();
        QCOMPARE(met3.value(QStringLiteral("callpath")).toString(), QStringLiteral("met3"));
        QCOMPARE(met3.value(QStringLiteral("complexity")).toString(), QStringLiteral("p^(2)"));
        QVERIFY(near(met3.value(QStringLiteral("constant")).toDouble(), 2.1822526315789204));
        const QJsonObject term = met3.value(QStringLiteral("terms")).toArray()[0].toObject();
        QVERIFY(near(term.value(QStringLiteral("coefficient")).toDouble(), 1.0121669702114525e-06));
        QCOMPARE(term.value(QStringLiteral("poly_exponent")).toString(), QStringLiteral("2/1"));
        QCOMPARE(term.value(QStringLiteral("log_exponent")).toInt(), 0);
        QVERIFY(near(met3.value(QStringLiteral("smape")).toDouble(), 14.719088619853498));
        QVERIFY(near(met3.value(QStringLiteral("adjusted_r2")).toDouble(), 0.9985732058774331));
        QVERIFY(near(met3.value(QStringLiteral("prediction")).toDouble(),
            2.1822526315789204 + 1.0121669702114525e-06 * 32000.0 * 32000.0));

        // The text form names the model, the growth and the fit.
        const CliRun text = runCli({ QStringLiteral("model"), QStringLiteral("--extrap"),
            dataPath(QStringLiteral("extrap/json/input_1.JSON")), QStringLiteral("--target"), QStringLiteral("1024") });
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("sweep  [time]\n  model:    1.4"), text.out.constData());
        QVERIFY2(text.out.contains(" * x^(1)\n  growth:   O(x^(1))"), text.out.constData());
        QVERIFY2(text.out.contains("at x = 1024: 513.5"), text.out.constData());
    }

    void runsByMetadataKey()
    {
        // LULESH at 27..343 ranks (Caliper), the parameter from the metadata key mpi.world.size
        // (the MANIFEST: 27/64/125/216/343).
        QStringList runs;
        for (const char* n : { "343", "27", "125", "64", "216" })
            runs << dataPath(QStringLiteral("thicket/mpi_scaling_cali/%1_cores.cali").arg(QLatin1String(n)));
        const QJsonObject doc = runJson(
            QStringList { QStringLiteral("model"), QStringLiteral("--param"), QStringLiteral("mpi.world.size"),
                QStringLiteral("--json"), QStringLiteral("--target"), QStringLiteral("4096") }
            + runs);
        const QJsonArray models = doc.value(QStringLiteral("models")).toArray();
        QVERIFY(models.size() > 10);
        // Each series is the trials' mean inclusive value of the event, by mpi.world.size ascending,
        // and its model is the model of that series.
        std::vector<std::shared_ptr<Trial>> trials;
        for (const QString& r : runs)
            trials.push_back(mustLoad(r));
        double previous = std::numeric_limits<double>::infinity();
        int checked = 0;
        for (const auto& v : models) {
            const QJsonObject m = v.toObject();
            const double prediction = m.value(QStringLiteral("prediction")).toDouble();
            QVERIFY(prediction <= previous); // the dominating call path first
            previous = prediction;
            const QString event = m.value(QStringLiteral("callpath")).toString();
            std::vector<ModelPoint> expected;
            for (const auto& t : trials) {
                const EventId e = t->findEvent(event);
                if (!e.isValid())
                    continue;
                const Stat& s
                    = TrialStatistics::of(*t)->stat(e, t->findMetric(QStringLiteral("time")), ValueKind::Inclusive);
                if (s.present == 0)
                    continue;
                expected.push_back({ t->metadataValue(QStringLiteral("mpi.world.size")).toDouble(), { s.meanAll } });
            }
            std::sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) { return a.p < b.p; });
            const QJsonArray points = m.value(QStringLiteral("points")).toArray();
            QCOMPARE(points.size(), static_cast<qsizetype>(expected.size()));
            for (qsizetype k = 0; k < points.size(); ++k) {
                QCOMPARE(points[k].toObject().value(QStringLiteral("p")).toDouble(), expected[k].p);
                QCOMPARE(points[k].toObject().value(QStringLiteral("values")).toArray()[0].toDouble(),
                    expected[k].values[0]);
            }
            const PerformanceModel fit = fitPerformanceModel(expected);
            QCOMPARE(m.value(QStringLiteral("model")).toString(), fit.formula(QStringLiteral("mpi.world.size")));
            QVERIFY(std::abs(prediction - fit.evaluate(4096)) <= 1e-9 * std::abs(prediction));
            ++checked;
        }
        QCOMPARE(checked, models.size());
        const QJsonObject first = models[0].toObject();
        QCOMPARE(first.value(QStringLiteral("points")).toArray().size(), 5);
        QCOMPARE(
            first.value(QStringLiteral("points")).toArray()[0].toObject().value(QStringLiteral("p")).toDouble(), 27.0);
    }

    void runsByThreads()
    {
        // DrawGraph's ring at 2, 4, 6 and 8 threads: p is each run's thread count.
        QStringList runs;
        for (const char* n : { "2", "4", "6", "8" })
            runs << dataPath(QStringLiteral("tau2/ppk-drawgraph-scaling/%1.ppk").arg(QLatin1String(n)));
        const QJsonObject doc
            = runJson(QStringList { QStringLiteral("model"), QStringLiteral("--param"), QStringLiteral("threads"),
                          QStringLiteral("--json"), QStringLiteral("--exclusive"), QStringLiteral("--event"),
                          QStringLiteral("MPI_Recv()") }
                + runs);
        const QJsonArray models = doc.value(QStringLiteral("models")).toArray();
        QCOMPARE(models.size(), 1);
        const QJsonArray points = models[0].toObject().value(QStringLiteral("points")).toArray();
        QCOMPARE(points.size(), 4);
        for (int k = 0; k < 4; ++k) {
            const auto t = mustLoad(runs[k]);
            QCOMPARE(points[k].toObject().value(QStringLiteral("p")).toDouble(), double(t->threadCount()));
            const Stat& s = TrialStatistics::of(*t)->stat(
                t->findEvent(QStringLiteral("MPI_Recv()")), MetricId(0u), ValueKind::Exclusive);
            QCOMPARE(points[k].toObject().value(QStringLiteral("values")).toArray()[0].toDouble(), s.meanAll);
        }
        QCOMPARE(models[0].toObject().value(QStringLiteral("few_points")).toBool(), true);
    }

    /// Issue 17's "done when": runs at 2…256 ranks where an all-to-all grows as p·log₂p and the compute as
    /// 50 + 0.01·p (per rank, exact values): the models recover both laws, and the all-to-all, smaller at
    /// every measured scale, is the call path that dominates at 65,536 ranks.
    void dominatingCallPathAtScale()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QStringList runs;
        for (int p = 2; p <= 256; p *= 2) {
            TrialBuilder b(QStringLiteral("run-%1").arg(p));
            b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
            const EventId main = b.addEvent(QStringLiteral("main"), { QStringLiteral("TAU_DEFAULT") });
            const EventId compute = b.addEvent(QStringLiteral("main => compute"), { QStringLiteral("TAU_CALLPATH") });
            const EventId alltoall
                = b.addEvent(QStringLiteral("main => MPI_Alltoall()"), { QStringLiteral("TAU_CALLPATH") });
            const double c = (50 + 0.01 * p) * 1e6;
            const double a = 0.002 * p * std::log2(p) * 1e6;
            for (int rank = 0; rank < p; ++rank) {
                const ThreadIndex t = b.addThread({ rank, 0, 0 });
                const double one[1] = { 1e6 };
                const double total[1] = { 1e6 + c + a };
                const double cv[1] = { c };
                const double av[1] = { a };
                b.addInterval(t, main, 1, 2, one, total);
                b.addInterval(t, compute, 1, 0, cv, cv);
                b.addInterval(t, alltoall, 1, 0, av, av);
            }
            const QString out = dir.filePath(QStringLiteral("p%1").arg(p));
            QDir().mkpath(out);
            QCOMPARE(TauWriter::write(*b.build(), out), QString());
            runs << out;
        }
        const QJsonObject doc
            = runJson(QStringList { QStringLiteral("model"), QStringLiteral("--param"), QStringLiteral("threads"),
                          QStringLiteral("--exclusive"), QStringLiteral("--target"), QStringLiteral("65536"),
                          QStringLiteral("--json") }
                + runs);
        const QJsonArray models = doc.value(QStringLiteral("models")).toArray();
        QVERIFY(models.size() >= 3);
        // Listed by the prediction at the target: the all-to-all first.
        const QJsonObject top = models[0].toObject();
        QCOMPARE(top.value(QStringLiteral("callpath")).toString(), QStringLiteral("main => MPI_Alltoall()"));
        QCOMPARE(top.value(QStringLiteral("points")).toArray().size(), 8);
        QVERIFY2(top.value(QStringLiteral("model")).toString().endsWith(QLatin1String(" * p^(1) * log2(p)^(1)")),
            qPrintable(top.value(QStringLiteral("model")).toString()));
        const double expected = 0.002 * 65536 * 16 * 1e6; // µs, the metric's unit
        QVERIFY2(std::abs(top.value(QStringLiteral("prediction")).toDouble() - expected) <= 1e-6 * expected,
            qPrintable(QString::number(top.value(QStringLiteral("prediction")).toDouble(), 'g', 12)));
        for (const auto& v : models) {
            const QJsonObject m = v.toObject();
            if (m.value(QStringLiteral("callpath")).toString() != QLatin1String("main => compute"))
                continue;
            QVERIFY2(m.value(QStringLiteral("model")).toString().endsWith(QLatin1String(" * p^(1)")),
                qPrintable(m.value(QStringLiteral("model")).toString()));
            const double compute = (50 + 0.01 * 65536) * 1e6;
            QVERIFY(std::abs(m.value(QStringLiteral("prediction")).toDouble() - compute) <= 1e-6 * compute);
            // Larger than the all-to-all at every measured scale, smaller at the target.
            QVERIFY(50 + 0.01 * 256 > 0.002 * 256 * 8);
            QVERIFY(
                m.value(QStringLiteral("prediction")).toDouble() < top.value(QStringLiteral("prediction")).toDouble());
            return;
        }
        QFAIL("no model of main => compute");
    }

    void refiningModeler()
    {
        // --modeler refining: Extra-P's RefiningModeler. A random series at p = 10..50 (gen_random.py,
        // seed 17, r10) for which Extra-P's RefiningModeler chose -29.468822810805808 + 19.530490860173156 *
        // log2(p)^(1/3) (SMAPE 14.15733830676385, adjusted R² 0.8461771428683781), a log exponent no
        // Basic building block has.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("r10.txt"));
        writeText(file,
            "PARAMETER p\nPOINTS 10 20 30 40 50\nMETRIC time\nREGION r10\nDATA -0.32519996771813475\n"
            "DATA 2.5019752540193365\nDATA 3.0727277146460765\nDATA 5.438169317397635\nDATA 4.981996404020765\n");
        QJsonObject doc = runJson({ QStringLiteral("model"), QStringLiteral("--extrap"), file,
            QStringLiteral("--modeler"), QStringLiteral("refining"), QStringLiteral("--json") });
        QCOMPARE(doc.value(QStringLiteral("modeler")).toString(), QStringLiteral("refining"));
        QJsonObject m = doc.value(QStringLiteral("models")).toArray()[0].toObject();
        QCOMPARE(m.value(QStringLiteral("complexity")).toString(), QStringLiteral("log2(p)^(1/3)"));
        QVERIFY(near(m.value(QStringLiteral("constant")).toDouble(), -29.468822810805808));
        const QJsonObject term = m.value(QStringLiteral("terms")).toArray()[0].toObject();
        QVERIFY(near(term.value(QStringLiteral("coefficient")).toDouble(), 19.530490860173156));
        QCOMPARE(term.value(QStringLiteral("poly_exponent")).toString(), QStringLiteral("0/1"));
        QCOMPARE(term.value(QStringLiteral("log_exponent_fraction")).toString(), QStringLiteral("1/3"));
        QVERIFY(near(term.value(QStringLiteral("log_exponent")).toDouble(), 1.0 / 3.0));
        QVERIFY(near(m.value(QStringLiteral("smape")).toDouble(), 14.15733830676385));
        QVERIFY(near(m.value(QStringLiteral("adjusted_r2")).toDouble(), 0.8461771428683781));
        QVERIFY(m.value(QStringLiteral("model")).toString().endsWith(QLatin1String(" * log2(p)^(1/3)")));
        // The default stays Extra-P's default, the Basic modeler, which has no log2(p)^(1/3).
        doc = runJson({ QStringLiteral("model"), QStringLiteral("--extrap"), file, QStringLiteral("--json") });
        QCOMPARE(doc.value(QStringLiteral("modeler")).toString(), QStringLiteral("basic"));
        m = doc.value(QStringLiteral("models")).toArray()[0].toObject();
        QVERIFY(m.value(QStringLiteral("complexity")).toString() != QStringLiteral("log2(p)^(1/3)"));
        // The text form.
        const CliRun text = runCli(
            { QStringLiteral("model"), QStringLiteral("--extrap"), file, QStringLiteral("--modeler=refining") });
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("growth:   O(log2(p)^(1/3))"), text.out.constData());
        // An unknown modeler is a usage error naming the choices.
        const CliRun bad = runCli({ QStringLiteral("model"), QStringLiteral("--extrap"), file,
            QStringLiteral("--modeler"), QStringLiteral("x") });
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--modeler takes 'basic' or 'refining', not 'x'"), bad.err.constData());
    }

    void twoTerms()
    {
        // --terms 2 (docs/SEMANTICS.md §10.8): 3 + 0.5·p + 2·log2(p)² at p = 2..128 is found with both terms,
        // as Extra-P prints a two-term model; --json says the modeler and the terms.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("planted.txt"));
        QByteArray text = "PARAMETER p\nPOINTS 2 4 8 16 32 64 128\nMETRIC time\nREGION planted\n";
        for (double p : { 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0 })
            text += "DATA " + QByteArray::number(3 + 0.5 * p + 2 * std::log2(p) * std::log2(p), 'g', 17) + '\n';
        writeText(file, text);
        // a second file: three points only
        const QString shortFile = dir.filePath(QStringLiteral("short.txt"));
        writeText(shortFile, "PARAMETER p\nPOINTS 2 4 8\nMETRIC time\nREGION r\nDATA 5\nDATA 9\nDATA 20\n");
        QJsonObject doc = runJson({ QStringLiteral("model"), QStringLiteral("--extrap"), file,
            QStringLiteral("--terms"), QStringLiteral("2"), QStringLiteral("--json") });
        QCOMPARE(doc.value(QStringLiteral("modeler")).toString(), QStringLiteral("basic"));
        QCOMPARE(doc.value(QStringLiteral("terms")).toInt(), 2);
        QJsonObject m = doc.value(QStringLiteral("models")).toArray()[0].toObject();
        QCOMPARE(m.value(QStringLiteral("complexity")).toString(), QStringLiteral("p^(1) + log2(p)^(2)"));
        const QJsonArray terms = m.value(QStringLiteral("terms")).toArray();
        QCOMPARE(terms.size(), 2);
        QVERIFY(near(terms[0].toObject().value(QStringLiteral("coefficient")).toDouble(), 0.5));
        QVERIFY(near(terms[1].toObject().value(QStringLiteral("coefficient")).toDouble(), 2));
        QVERIFY(near(m.value(QStringLiteral("constant")).toDouble(), 3));
        QVERIFY2(m.value(QStringLiteral("model"))
                     .toString()
                     .contains(QRegularExpression(QStringLiteral(
                         "^[23]\\.\\d+ \\+ 0\\.[45]\\d* \\* p\\^\\(1\\) \\+ [12]\\.\\d+ \\* log2\\(p\\)\\^\\(2\\)$"))),
            qPrintable(m.value(QStringLiteral("model")).toString()));
        QCOMPARE(m.value(QStringLiteral("few_points_for_terms")).toBool(), false);
        // One term by default.
        doc = runJson({ QStringLiteral("model"), QStringLiteral("--extrap"), file, QStringLiteral("--json") });
        QCOMPARE(doc.value(QStringLiteral("terms")).toInt(), 1);
        QCOMPARE(
            doc.value(QStringLiteral("models")).toArray()[0].toObject().value(QStringLiteral("terms")).toArray().size(),
            1);
        // Three points: one term, said so.
        CliRun r = runCli({ QStringLiteral("model"), QStringLiteral("--extrap"), shortFile, QStringLiteral("--terms"),
            QStringLiteral("2") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("1 of 1 series have fewer than 4 points, which two terms need"), r.out.constData());
        doc = runJson({ QStringLiteral("model"), QStringLiteral("--extrap"), shortFile, QStringLiteral("--terms"),
            QStringLiteral("2"), QStringLiteral("--json") });
        QCOMPARE(doc.value(QStringLiteral("models"))
                     .toArray()[0]
                     .toObject()
                     .value(QStringLiteral("few_points_for_terms"))
                     .toBool(),
            true);
        // Usage: 1 or 2, and two terms are the Basic modeler's.
        r = runCli({ QStringLiteral("model"), QStringLiteral("--extrap"), file, QStringLiteral("--terms"),
            QStringLiteral("3") });
        QCOMPARE(r.exitCode, 2);
        r = runCli({ QStringLiteral("model"), QStringLiteral("--extrap"), file, QStringLiteral("--terms"),
            QStringLiteral("2"), QStringLiteral("--modeler"), QStringLiteral("refining") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--terms 2 takes the Basic modeler"), r.err.constData());
    }

    void errors()
    {
        // Two parameters: read, but not modelled, said so.
        CliRun r = runCli({ QStringLiteral("model"), QStringLiteral("--extrap"),
            dataPath(QStringLiteral("extrap/text/two_parameter_4.txt")) });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("2 parameters (p, q); Parallax models single-parameter experiments only"),
            r.err.constData());
        // Every Caliper run keeps one thread: the thread count does not scale.
        QStringList runs;
        for (const char* n : { "27", "64" })
            runs << dataPath(QStringLiteral("thicket/mpi_scaling_cali/%1_cores.cali").arg(QLatin1String(n)));
        r = runCli(
            QStringList { QStringLiteral("model"), QStringLiteral("--param"), QStringLiteral("threads") } + runs);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("every run has the thread count = 1"), r.err.constData());
        r = runCli(
            QStringList { QStringLiteral("model"), QStringLiteral("--param"), QStringLiteral("no.such.key") } + runs);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("has no metadata key 'no.such.key'"), r.err.constData());
        // A bad file names its line.
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.txt"));
        writeText(bad, "PARAMETER p\nPOINTS 1 2 3\nREGION r\nDATA 1\nDATA one\n");
        r = runCli({ QStringLiteral("model"), QStringLiteral("--extrap"), bad });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains(QByteArray(bad.toUtf8() + ":5: DATA: 'one' is not a finite number")), r.err.constData());
        // Usage.
        QCOMPARE(runCli({ QStringLiteral("model") }).exitCode, 2);
        QCOMPARE(runCli({ QStringLiteral("model"), QStringLiteral("--extrap"), bad, QStringLiteral("--param"),
                            QStringLiteral("threads") })
                     .exitCode,
            2);
        QCOMPARE(runCli({ QStringLiteral("model"), QStringLiteral("--extrap"), bad, QStringLiteral("--target"),
                            QStringLiteral("-4") })
                     .exitCode,
            2);
    }
};

QTEST_GUILESS_MAIN(TestCliModel)
#include "tst_cli_model.moc"
