// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// `parallax-cli history` (issue 17 §1): 30 nightly runs written as TAU profiles, with an 8 %
// regression planted in one routine from run 14 on, found at run 14 from the files and from a
// SQLite database; --fail-above gives exit code 3 then and 0 before the regression; the errors.
#include "datasource/model/trialbuilder.h"
#include "datasource/writers/tauwriter.h"
#include "tests/common/clirunner.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <random>

using namespace parallax;
using namespace parallax::test;

namespace {

/// Night `night` (1-based) of a run with 4 ranks: main => solve (planted: 8 % slower from night
/// 14 on) and main => MPI_Allreduce, 1 % noise, written as a TAU profile directory. The date is
/// its metadata "Date" (ISO text, so the order is textual).
QString writeNight(const QString& root, int night, std::mt19937_64& random)
{
    std::normal_distribution<double> noise(0.0, 0.01);
    TrialBuilder b(QStringLiteral("night %1").arg(night));
    b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
    const EventId main = b.addEvent(QStringLiteral("main"), { QStringLiteral("TAU_DEFAULT") });
    const EventId solve = b.addEvent(QStringLiteral("solve"), { QStringLiteral("TAU_USER") });
    const EventId reduce = b.addEvent(QStringLiteral("MPI_Allreduce()"), { QStringLiteral("MPI") });
    const EventId mainSolve = b.addEvent(QStringLiteral("main => solve"), { QStringLiteral("TAU_USER") });
    const EventId mainReduce = b.addEvent(QStringLiteral("main => MPI_Allreduce()"), { QStringLiteral("MPI") });
    for (int rank = 0; rank < 4; ++rank) {
        const ThreadIndex t = b.addThread({ rank, 0, 0 });
        const double s = 2.0e6 * (1.0 + 0.05 * rank) * (1.0 + noise(random)) * (night >= 14 ? 1.08 : 1.0);
        const double r = 0.5e6 * (1.0 + noise(random));
        const double own = 0.1e6;
        const double one[1] = { own };
        const double total[1] = { own + s + r };
        b.addInterval(t, main, 1, 2, one, total);
        const double sv[1] = { s };
        const double rv[1] = { r };
        b.addInterval(t, solve, 10, 0, sv, sv);
        b.addInterval(t, mainSolve, 10, 0, sv, sv);
        b.addInterval(t, reduce, 10, 0, rv, rv);
        b.addInterval(t, mainReduce, 10, 0, rv, rv);
    }
    b.addMetadata(QStringLiteral("Date"), QStringLiteral("2026-10-%1").arg(night, 2, 10, QLatin1Char('0')));
    const QString dir = root + QStringLiteral("/night%1").arg(night);
    QDir().mkpath(dir);
    const QString error = TauWriter::write(*b.build(), dir);
    return error.isEmpty() ? dir : QString();
}

QJsonObject seriesOf(const QJsonObject& root, const QString& event)
{
    for (const auto v : root.value(QStringLiteral("series")).toArray())
        if (v.toObject().value(QStringLiteral("event")).toString() == event)
            return v.toObject();
    return {};
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
