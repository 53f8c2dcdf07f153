// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// `parallax-cli history` (issue 17 §1): 30 nightly runs written as TAU profiles, with an 8 %
// regression planted in one routine from run 14 on, found at run 14 from the files and from a
// SQLite database; --fail-above gives exit code 3 then and 0 before the regression; the errors.
#include "datasource/writers/tauwriter.h"
#include "tests/common/clirunner.h"
#include "tests/common/nightlyruns.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <random>
#include <sqlite3.h>

using namespace parallax;
using namespace parallax::test;

namespace {

/// Night `night` of the nightly runs (tests/common/nightlyruns.h) written as a TAU profile directory.
QString writeNight(const QString& root, int night, std::mt19937_64& random)
{
    const auto trial = nightlyTrial(night, random);
    const QString dir = root + QStringLiteral("/night%1").arg(night);
    QDir().mkpath(dir);
    const QString error = TauWriter::write(*trial, dir);
    return error.isEmpty() ? dir : QString();
}

QJsonObject seriesOf(const QJsonObject& root, const QString& event)
{
    for (const auto v : root.value(QStringLiteral("series")).toArray())
        if (v.toObject().value(QStringLiteral("event")).toString() == event)
            return v.toObject();
    return {};
}

/// A run with 4 ranks whose solve takes `solve` µs on rank 0 (rank r: ·(1 + 0.05 r)), named `name`
/// and dated `date`; MPI_Allreduce 0.5 s. No randomness: the test knows every value.
QString writeRun(const QString& root, const QString& name, const QString& date, double solve)
{
    TrialBuilder b(name);
    b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
    const EventId main = b.addEvent(QStringLiteral("main"), { QStringLiteral("TAU_DEFAULT") });
    const EventId solveId = b.addEvent(QStringLiteral("solve"), { QStringLiteral("TAU_USER") });
    const EventId reduce = b.addEvent(QStringLiteral("MPI_Allreduce()"), { QStringLiteral("MPI") });
    for (int rank = 0; rank < 4; ++rank) {
        const ThreadIndex t = b.addThread({ rank, 0, 0 });
        const double sv[1] = { solve * (1.0 + 0.05 * rank) };
        const double rv[1] = { 0.5e6 };
        const double one[1] = { 0.1e6 };
        const double total[1] = { 0.1e6 + sv[0] + rv[0] };
        b.addInterval(t, main, 1, 2, one, total);
        b.addInterval(t, solveId, 10, 0, sv, sv);
        b.addInterval(t, reduce, 10, 0, rv, rv);
    }
    b.addMetadata(QStringLiteral("Date"), date);
    const QString dir = root + QLatin1Char('/') + name;
    QDir().mkpath(dir);
    const QString error = TauWriter::write(*b.build(), dir);
    return error.isEmpty() ? dir : QString();
}

} // namespace

class TestCliHistory : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QStringList m_nights; ///< written in a shuffled order: history orders them by Date

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        std::mt19937_64 random(2026);
        std::vector<int> order(30);
        for (int i = 0; i < 30; ++i)
            order[std::size_t(i)] = i + 1;
        std::shuffle(order.begin(), order.end(), random);
        QMap<int, QString> byNight;
        for (int night : order) {
            const QString dir = writeNight(m_dir.path(), night, random);
            QVERIFY(!dir.isEmpty());
            byNight.insert(night, dir);
        }
        for (int night : order)
            m_nights << byNight.value(night);
    }

    void regressionFoundInFiles()
    {
        QStringList args { QStringLiteral("history"), QStringLiteral("--order-by"), QStringLiteral("Date"),
            QStringLiteral("--fail-above"), QStringLiteral("5"), QStringLiteral("--json") };
        args << m_nights;
        const CliRun r = runCli(args);
        QVERIFY2(r.exitCode == 3, r.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(root.value(QStringLiteral("numeric_order")).toBool(), false);
        const QJsonArray runs = root.value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 30);
        QCOMPARE(runs.first().toObject().value(QStringLiteral("order")).toString(), QStringLiteral("2026-10-01"));
        QCOMPARE(runs.last().toObject().value(QStringLiteral("order")).toString(), QStringLiteral("2026-10-30"));
        const QJsonObject solve = seriesOf(root, QStringLiteral("solve"));
        const QJsonArray changes = solve.value(QStringLiteral("changes")).toArray();
        QCOMPARE(changes.size(), 1);
        const QJsonObject c = changes.first().toObject();
        QCOMPARE(c.value(QStringLiteral("index")).toInt(), 13); // run 14
        QCOMPARE(c.value(QStringLiteral("order")).toString(), QStringLiteral("2026-10-14"));
        QCOMPARE(c.value(QStringLiteral("kind")).toString(), QStringLiteral("regression"));
        QVERIFY(std::abs(c.value(QStringLiteral("percent")).toDouble() - 8.0) < 1.5);
        // The unchanged routine has no change point; the regression list names solve only.
        QVERIFY(seriesOf(root, QStringLiteral("MPI_Allreduce()")).value(QStringLiteral("changes")).toArray().isEmpty());
        const QJsonArray regressions = root.value(QStringLiteral("regressions")).toArray();
        QVERIFY(!regressions.isEmpty());
        for (const auto v : regressions)
            QVERIFY2(v.toString().startsWith(QLatin1String("solve")) || v.toString().startsWith(QLatin1String("main")),
                qPrintable(v.toString()));
        // The band: min ≤ value ≤ max on every run.
        const QJsonArray values = solve.value(QStringLiteral("values")).toArray();
        for (int i = 0; i < 30; ++i) {
            const double v = values[i].toDouble();
            QVERIFY(solve.value(QStringLiteral("min")).toArray()[i].toDouble() <= v);
            QVERIFY(solve.value(QStringLiteral("max")).toArray()[i].toDouble() >= v);
        }
    }

    void noRegressionBeforeIt()
    {
        // Nights 1–13 only: no change, exit 0; a higher threshold than the change: exit 0 too.
        QStringList early;
        for (const QString& n : m_nights) {
            const int night = QDir(n).dirName().mid(5).toInt();
            if (night < 14)
                early << n;
        }
        QStringList args { QStringLiteral("history"), QStringLiteral("--order-by"), QStringLiteral("Date"),
            QStringLiteral("--event"), QStringLiteral("solve"), QStringLiteral("--fail-above"), QStringLiteral("5") };
        const CliRun r = runCli(args + early);
        QVERIFY2(r.exitCode == 0, r.out.constData());
        const CliRun high = runCli(QStringList { QStringLiteral("history"), QStringLiteral("--order-by"),
                                       QStringLiteral("Date"), QStringLiteral("--event"), QStringLiteral("solve"),
                                       QStringLiteral("--fail-above"), QStringLiteral("20") }
            + m_nights);
        QVERIFY2(high.exitCode == 0, high.out.constData());
        QVERIFY(high.out.contains("REGRESSION at run 14 (2026-10-14)"));
    }

    void regressionFoundInTheDatabase()
    {
        const QString db = m_dir.filePath(QStringLiteral("nightly.db"));
        for (const QString& n : m_nights) {
            const CliRun load = runCli(
                { QStringLiteral("db"), QStringLiteral("load"), QStringLiteral("--db"), db, QStringLiteral("--app"),
                    QStringLiteral("nightly"), QStringLiteral("--exp"), QStringLiteral("cpu"), n });
            QVERIFY2(load.exitCode == 0, load.err.constData());
        }
        const CliRun r = runCli({ QStringLiteral("history"), QStringLiteral("--db"), db, QStringLiteral("--app"),
            QStringLiteral("nightly"), QStringLiteral("--order-by"), QStringLiteral("Date"), QStringLiteral("--event"),
            QStringLiteral("solve"), QStringLiteral("--fail-above"), QStringLiteral("5"), QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 3, r.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(root.value(QStringLiteral("runs")).toArray().size(), 30);
        const QJsonArray changes = seriesOf(root, QStringLiteral("solve")).value(QStringLiteral("changes")).toArray();
        QCOMPARE(changes.size(), 1);
        QCOMPARE(changes.first().toObject().value(QStringLiteral("order")).toString(), QStringLiteral("2026-10-14"));
    }

    void storedRowsGiveTheLoadedNumbers_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::newRow("sqlite") << QStringLiteral("sqlite");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
    }

    /// `history --db` reads the stored derived rows (no trial loaded) and prints exactly what loading
    /// every trial prints, for each statistic that has a derived row, inclusive values, call paths and
    /// repeated runs; a statistic without one (sd) says so on stderr and loads. Both backends.
    void storedRowsGiveTheLoadedNumbers()
    {
        QFETCH(QString, backend);
        QString db = m_dir.filePath(QStringLiteral("stored.sqlite"));
        if (backend == QLatin1String("postgresql")) {
            db = qEnvironmentVariable("PARALLAX_TEST_PG_URI");
            if (db.isEmpty())
                QFAIL("PARALLAX_TEST_PG_URI is not set: run ./test.sh, which starts a PostgreSQL server");
        }
        const QString app = QStringLiteral("history-%1-%2").arg(QCoreApplication::applicationPid()).arg(backend);
        // The 30 nights and a second run of nights 3 and 20 (repeats share a point).
        QStringList runs = m_nights;
        std::mt19937_64 random(7);
        const QString again = m_dir.filePath(QStringLiteral("again"));
        runs << writeNight(again, 3, random) << writeNight(again, 20, random);
        for (const QString& n : runs) {
            const CliRun load = runCli({ QStringLiteral("db"), QStringLiteral("load"), QStringLiteral("--db"), db,
                QStringLiteral("--app"), app, QStringLiteral("--exp"), QStringLiteral("nightly"), n });
            QVERIFY2(load.exitCode == 0, load.err.constData());
        }
        const QStringList base { QStringLiteral("history"), QStringLiteral("--db"), db, QStringLiteral("--app"), app,
            QStringLiteral("--order-by"), QStringLiteral("Date"), QStringLiteral("--json") };
        const QList<QStringList> variants { {}, { QStringLiteral("--statistic"), QStringLiteral("mean-present") },
            { QStringLiteral("--statistic"), QStringLiteral("total") },
            { QStringLiteral("--statistic"), QStringLiteral("min") },
            { QStringLiteral("--statistic"), QStringLiteral("max"), QStringLiteral("--inclusive") },
            { QStringLiteral("--call-paths"), QStringLiteral("--top"), QStringLiteral("4") },
            { QStringLiteral("--event"), QStringLiteral("main => solve"), QStringLiteral("--fail-above"),
                QStringLiteral("5") } };
        for (const QStringList& v : variants) {
            const CliRun stored = runCli(base + v);
            const CliRun loaded = runCli(base + v + QStringList { QStringLiteral("--load-trials") });
            QVERIFY2(stored.exitCode == loaded.exitCode, qPrintable(v.join(QLatin1Char(' '))));
            QVERIFY2(stored.exitCode == 0 || stored.exitCode == 3, stored.err.constData());
            QVERIFY2(stored.err.isEmpty(), stored.err.constData()); // no fallback
            QVERIFY(!stored.out.isEmpty());
            QVERIFY2(stored.out == loaded.out, qPrintable(v.join(QLatin1Char(' '))));
        }
        // The repeats: 32 runs at 30 points, nights 3 and 20 with two runs each.
        const QJsonObject root = QJsonDocument::fromJson(runCli(base).out).object();
        QCOMPARE(root.value(QStringLiteral("runs")).toArray().size(), 32);
        const QJsonArray points = root.value(QStringLiteral("points")).toArray();
        QCOMPARE(points.size(), 30);
        QCOMPARE(points[2].toObject().value(QStringLiteral("runs")).toArray().size(), 2);
        QCOMPARE(points[19].toObject().value(QStringLiteral("runs")).toArray().size(), 2);
        QVERIFY(root.value(QStringLiteral("repeated")).toBool());
        const QJsonObject solve = seriesOf(root, QStringLiteral("solve"));
        QVERIFY(solve.value(QStringLiteral("noise_from_repeats")).toBool());
        const QJsonArray changes = solve.value(QStringLiteral("changes")).toArray();
        QCOMPARE(changes.size(), 1);
        QCOMPARE(changes.first().toObject().value(QStringLiteral("order")).toString(), QStringLiteral("2026-10-14"));
        // A statistic without a derived row: said on stderr, every trial loaded, the same output.
        const QStringList sd = base + QStringList { QStringLiteral("--statistic"), QStringLiteral("sd") };
        const CliRun fallback = runCli(sd);
        QVERIFY2(fallback.exitCode == 0, fallback.err.constData());
        QVERIFY2(fallback.err.contains("has no derived row in the database"), fallback.err.constData());
        QVERIFY2(fallback.err.contains("loading every trial"), fallback.err.constData());
        QCOMPARE(fallback.out, runCli(sd + QStringList { QStringLiteral("--load-trials") }).out);
    }

    /// A trial TAU's Java loader wrote has TAUdb's derived rows but no parallax_trial row, and TAU's
    /// rows differ from Parallax's (docs/SEMANTICS.md §9): the history says so and loads every trial, and
    /// gives what loading the trials gives. The trial is made to look so by deleting its row (TAU's
    /// loader itself is a manual check: ../shared/tools/taudb-interop).
    void trialsTauWroteAreLoaded()
    {
        const QString db = m_dir.filePath(QStringLiteral("tau-written.sqlite"));
        for (int i = 0; i < 6; ++i) {
            const CliRun load = runCli(
                { QStringLiteral("db"), QStringLiteral("load"), QStringLiteral("--db"), db, QStringLiteral("--app"),
                    QStringLiteral("nightly"), QStringLiteral("--exp"), QStringLiteral("tau"), m_nights[i] });
            QVERIFY2(load.exitCode == 0, load.err.constData());
        }
        const QStringList history { QStringLiteral("history"), QStringLiteral("--db"), db, QStringLiteral("--app"),
            QStringLiteral("nightly"), QStringLiteral("--order-by"), QStringLiteral("Date"), QStringLiteral("--json") };
        const CliRun before = runCli(history);
        QVERIFY2(before.exitCode == 0 && before.err.isEmpty(), before.err.constData()); // the stored rows

        sqlite3* handle = nullptr;
        QCOMPARE(sqlite3_open(db.toUtf8().constData(), &handle), SQLITE_OK);
        char* message = nullptr;
        const int rc
            = sqlite3_exec(handle, "DELETE FROM parallax_trial WHERE trial = (SELECT max(trial) FROM parallax_trial)",
                nullptr, nullptr, &message);
        const QString error = QString::fromUtf8(message ? message : "");
        sqlite3_free(message);
        const int changed = sqlite3_changes(handle);
        sqlite3_close(handle);
        QVERIFY2(rc == SQLITE_OK, qPrintable(error));
        QCOMPARE(changed, 1);

        const CliRun after = runCli(history);
        QVERIFY2(after.exitCode == 0, after.err.constData());
        QVERIFY2(after.err.contains("was not written by Parallax"), after.err.constData());
        QVERIFY2(after.err.contains("loading every trial"), after.err.constData());
        QVERIFY(!after.out.isEmpty());
        QCOMPARE(after.out, runCli(history + QStringList { QStringLiteral("--load-trials") }).out);
        QCOMPARE(after.out, before.out);
    }

    /// Three runs per night (issue 17 §1: the noise from repeated runs at the same order key): one
    /// point per night, their mean; the band over all their threads; the planted 8 % regression
    /// still found at night 14, now against the repeats' noise.
    void repeatsShareAPoint()
    {
        QTemporaryDir dir;
        std::mt19937_64 random(99);
        QStringList runs;
        for (int repeat = 0; repeat < 3; ++repeat)
            for (int night = 1; night <= 30; ++night) {
                const QString d = writeNight(dir.filePath(QStringLiteral("r%1").arg(repeat)), night, random);
                QVERIFY(!d.isEmpty());
                runs << d;
            }
        const CliRun r = runCli(QStringList { QStringLiteral("history"), QStringLiteral("--order-by"),
                                    QStringLiteral("Date"), QStringLiteral("--event"), QStringLiteral("solve"),
                                    QStringLiteral("--fail-above"), QStringLiteral("5"), QStringLiteral("--json") }
            + runs);
        QVERIFY2(r.exitCode == 3, r.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(root.value(QStringLiteral("runs")).toArray().size(), 90);
        const QJsonArray points = root.value(QStringLiteral("points")).toArray();
        QCOMPARE(points.size(), 30);
        const QJsonObject solve = seriesOf(root, QStringLiteral("solve"));
        const QJsonArray values = solve.value(QStringLiteral("values")).toArray();
        const QJsonArray runValues = solve.value(QStringLiteral("run_values")).toArray();
        QCOMPARE(values.size(), 30);
        QCOMPARE(runValues.size(), 90);
        // Each point: three runs of its night (the order value), the mean of their values.
        double squares = 0;
        for (int p = 0; p < 30; ++p) {
            const QJsonObject point = points[p].toObject();
            QCOMPARE(point.value(QStringLiteral("order")).toString(),
                QStringLiteral("2026-10-%1").arg(p + 1, 2, 10, QLatin1Char('0')));
            const QJsonArray members = point.value(QStringLiteral("runs")).toArray();
            QCOMPARE(members.size(), 3);
            double sum = 0;
            for (const auto m : members)
                sum += runValues[m.toInt()].toDouble();
            const double mean = sum / 3;
            QVERIFY(std::abs(values[p].toDouble() - mean) <= 1e-9 * mean);
            for (const auto m : members)
                squares += (runValues[m.toInt()].toDouble() - mean) * (runValues[m.toInt()].toDouble() - mean);
        }
        // The noise: the pooled standard deviation of the repeats, 30 groups of 3 (60 degrees of freedom).
        QVERIFY(solve.value(QStringLiteral("noise_from_repeats")).toBool());
        const double noise = solve.value(QStringLiteral("noise")).toDouble();
        QVERIFY2(std::abs(noise - std::sqrt(squares / 60)) <= 1e-9 * noise, qPrintable(QString::number(noise)));
        // The band spans the threads of all three runs: at least each run's own min and max.
        const QJsonArray changes = solve.value(QStringLiteral("changes")).toArray();
        QCOMPARE(changes.size(), 1);
        QCOMPARE(changes.first().toObject().value(QStringLiteral("index")).toInt(), 13);
        QCOMPARE(changes.first().toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("regression"));
        QVERIFY(std::abs(changes.first().toObject().value(QStringLiteral("percent")).toDouble() - 8.0) < 1.0);
        // One night alone: the band of the point is the min and max over its three runs' threads.
        const QJsonObject first = QJsonDocument::fromJson(
            runCli(QStringList { QStringLiteral("history"), QStringLiteral("--order-by"), QStringLiteral("Date"),
                       QStringLiteral("--event"), QStringLiteral("solve"), QStringLiteral("--json") }
                + QStringList { runs[0], runs[30], runs[60] })
                .out)
                                      .object();
        const QJsonObject one = seriesOf(first, QStringLiteral("solve"));
        double lo = 1e300;
        double hi = -1e300;
        for (const QString& run : { runs[0], runs[30], runs[60] }) {
            const QJsonObject single = seriesOf(
                QJsonDocument::fromJson(
                    runCli({ QStringLiteral("history"), QStringLiteral("--order-by"), QStringLiteral("Date"),
                               QStringLiteral("--event"), QStringLiteral("solve"), QStringLiteral("--json"), run })
                        .out)
                    .object(),
                QStringLiteral("solve"));
            lo = std::min(lo, single.value(QStringLiteral("min")).toArray()[0].toDouble());
            hi = std::max(hi, single.value(QStringLiteral("max")).toArray()[0].toDouble());
        }
        QCOMPARE(one.value(QStringLiteral("min")).toArray()[0].toDouble(), lo);
        QCOMPARE(one.value(QStringLiteral("max")).toArray()[0].toDouble(), hi);
    }

    /// A 3 % step that the series of means shows cleanly is no change point when the repeats
    /// scatter by ±5 % (docs/SEMANTICS.md §9's example: z = 1.8, p = 0.072 > 0.05); the middle
    /// run of each night alone (no repeats) has it.
    void repeatsNoiseHidesASmallStep()
    {
        QTemporaryDir dir;
        QStringList all;
        QStringList middle;
        for (int night = 1; night <= 12; ++night)
            for (int repeat = 0; repeat < 3; ++repeat) {
                const double level = 2.0e6 * (night >= 7 ? 1.03 : 1.0);
                const QString d = writeRun(dir.path(), QStringLiteral("n%1r%2").arg(night).arg(repeat),
                    QStringLiteral("2026-11-%1").arg(night, 2, 10, QLatin1Char('0')),
                    level * (1.0 + 0.05 * (repeat - 1)));
                QVERIFY(!d.isEmpty());
                all << d;
                if (repeat == 1)
                    middle << d;
            }
        const QStringList args { QStringLiteral("history"), QStringLiteral("--order-by"), QStringLiteral("Date"),
            QStringLiteral("--event"), QStringLiteral("solve"), QStringLiteral("--json") };
        const QJsonObject single
            = seriesOf(QJsonDocument::fromJson(runCli(args + middle).out).object(), QStringLiteral("solve"));
        const QJsonArray found = single.value(QStringLiteral("changes")).toArray();
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().toObject().value(QStringLiteral("index")).toInt(), 6);
        QVERIFY(!single.value(QStringLiteral("noise_from_repeats")).toBool());
        const CliRun r = runCli(args + all);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject repeated = seriesOf(QJsonDocument::fromJson(r.out).object(), QStringLiteral("solve"));
        QVERIFY(repeated.value(QStringLiteral("changes")).toArray().isEmpty());
        QVERIFY(repeated.value(QStringLiteral("noise_from_repeats")).toBool());
        // σ = 5 % of each night's mean: 0.05 · 2.15e6 before the step, 0.05 · 2.2145e6 after; pooled
        // over 6 + 6 nights: √((6·a² + 6·b²)/12).
        const double a = 0.05 * 2.0e6 * 1.075;
        const double b = a * 1.03;
        QVERIFY(std::abs(repeated.value(QStringLiteral("noise")).toDouble() - std::sqrt((a * a + b * b) / 2)) < 1.0);
        // The means themselves are the clean step.
        const QJsonArray values = repeated.value(QStringLiteral("values")).toArray();
        QCOMPARE(values.size(), 12);
        QVERIFY(std::abs(values[0].toDouble() - 2.0e6 * 1.075) < 1e-3);
        QVERIFY(std::abs(values[11].toDouble() - 2.0e6 * 1.075 * 1.03) < 1e-3);
    }

    void errors()
    {
        const CliRun noOrder = runCli(QStringList { QStringLiteral("history") } + m_nights.mid(0, 3));
        QCOMPARE(noOrder.exitCode, 2);
        QVERIFY(noOrder.err.contains("--order-by"));
        const CliRun noKey
            = runCli(QStringList { QStringLiteral("history"), QStringLiteral("--order-by"), QStringLiteral("Nope") }
                + m_nights.mid(0, 3));
        QCOMPARE(noKey.exitCode, 1);
        QVERIFY2(noKey.err.contains("has no metadata 'Nope' to order it by"), noKey.err.constData());
        const CliRun noEvent = runCli(QStringList { QStringLiteral("history"), QStringLiteral("--order-by"),
                                          QStringLiteral("Date"), QStringLiteral("--event"), QStringLiteral("nothing") }
            + m_nights.mid(0, 3));
        QCOMPARE(noEvent.exitCode, 1);
        QVERIFY(noEvent.err.contains("none of the runs has the event 'nothing'"));
        const CliRun both = runCli(QStringList { QStringLiteral("history"), QStringLiteral("--order-by"),
                                       QStringLiteral("Date"), QStringLiteral("--app"), QStringLiteral("x") }
            + m_nights.mid(0, 1));
        QCOMPARE(both.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliHistory)
#include "tst_cli_history.moc"
