// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// `parallax-cli history` (issue 17 §1): 30 nightly runs written as TAU profiles, with an 8 %
// regression planted in one routine from run 14 on, found at run 14 from the files and from a
// SQLite database; --fail-above gives exit code 3 then and 0 before the regression; the errors.
#include "datasource/writers/tauwriter.h"
#include "tests/common/clirunner.h"
#include "tests/common/nightlyruns.h"

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
