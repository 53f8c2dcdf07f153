// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// `parallax-cli browse`: the headless CUBE browser (issue 15, section 4). The values are checked
// against pycubexr's CSV dumps of the same file (incl.csv, excl.csv: per cnode and location) and the
// MANIFEST's metric tree of the KOJAK file; errors name what was wrong.
#include "tests/common/clirunner.h"
#include "tests/common/pycubexrdump.h"
#include "tests/common/testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <cmath>

using namespace parallax::test;

namespace {

QJsonArray pane(const QJsonObject& o, const char* name)
{
    return o.value(QStringLiteral("panes")).toObject().value(QLatin1String(name)).toArray();
}

} // namespace

class TestCliBrowse : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void locationsMatchPycubexr()
    {
        const QString dir = dataPath(QStringLiteral("cube/pycubexr/time.p4.n2000.x1.r0"));
        for (const bool expanded : { false, true }) {
            QStringList args { QStringLiteral("browse"), QStringLiteral("--json"), QStringLiteral("--metric"),
                QStringLiteral("Time"), QStringLiteral("--call"), QStringLiteral("bg_time"), QStringLiteral("--expand"),
                QStringLiteral("all"), dir + QStringLiteral("/profile.cubex") };
            if (!expanded) // only the system tree expanded: the root call path stays collapsed
                args = { QStringLiteral("browse"), QStringLiteral("--json"), QStringLiteral("--metric"),
                    QStringLiteral("Time"), QStringLiteral("--call"), QStringLiteral("bg_time"),
                    QStringLiteral("--expand"), QStringLiteral("0"), QStringLiteral("--mode"),
                    QStringLiteral("callselection"), dir + QStringLiteral("/profile.cubex") };
            const CliRun r = runCli(args);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const QJsonObject o = QJsonDocument::fromJson(r.out).object();
            const QJsonArray system = pane(o, "system");
            const std::vector<double> want
                = pycubexrCnode(dir + (expanded ? QStringLiteral("/excl.csv") : QStringLiteral("/incl.csv")), 0);
            QCOMPARE(want.size(), std::size_t(4));
            if (!expanded) {
                // Collapsed machine: the sum of the four ranks; 100 % of the selected call path.
                QCOMPARE(system.size(), 1);
                const QJsonObject machine = system[0].toObject();
                QCOMPARE(machine.value(QStringLiteral("state")).toString(), QStringLiteral("collapsed"));
                QVERIFY(std::abs(
                            machine.value(QStringLiteral("value")).toDouble() - (want[0] + want[1] + want[2] + want[3]))
                    < 1e-5);
                QCOMPARE(qRound(machine.value(QStringLiteral("mode_value")).toDouble()), 100);
                continue;
            }
            int locations = 0;
            for (const auto& v : system) {
                const QJsonObject item = v.toObject();
                if (item.value(QStringLiteral("level")).toString() != QLatin1String("thread"))
                    continue;
                QVERIFY(
                    std::abs(item.value(QStringLiteral("value")).toDouble() - want[static_cast<std::size_t>(locations)])
                    < 1e-5);
                ++locations;
            }
            QCOMPARE(locations, 4);
        }
    }

    void metricTreeAndModes()
    {
        const QString path = dataPath(QStringLiteral("cube/scalasca-cube3/kojak-example-ctest-pomp.cube"));
        const CliRun r = runCli({ QStringLiteral("browse"), QStringLiteral("--json"), QStringLiteral("--expand"),
            QStringLiteral("all"), QStringLiteral("--metric"), QStringLiteral("Late Sender"), QStringLiteral("--mode"),
            QStringLiteral("metricroot"), path });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonArray metrics = pane(o, "metric");
        QCOMPARE(metrics.size(), 47);
        QHash<int, QJsonObject> byId;
        for (const auto& v : metrics)
            byId.insert(v.toObject().value(QStringLiteral("id")).toInt(), v.toObject());
        QJsonObject late;
        for (const auto& v : metrics)
            if (v.toObject().value(QStringLiteral("selected")).toBool())
                late = v.toObject();
        QCOMPARE(late.value(QStringLiteral("name")).toString(), QStringLiteral("Late Sender"));
        QStringList chain;
        for (QJsonObject i = late;;) {
            chain.prepend(i.value(QStringLiteral("name")).toString());
            if (i.value(QStringLiteral("parent")).isNull())
                break;
            i = byId.value(i.value(QStringLiteral("parent")).toInt());
        }
        QCOMPARE(chain.join(QStringLiteral(" > ")),
            QStringLiteral("Time > Execution > MPI > Communication > P2P > Late Sender"));
        // Every metric's mode value is its share of its own tree's root: a root without children
        // (Visits) is 100 %; an expanded root shows its own part, and its tree's shares add up to 100 %.
        QHash<int, double> treeShare;
        auto rootOf = [&](QJsonObject i) {
            while (!i.value(QStringLiteral("parent")).isNull())
                i = byId.value(i.value(QStringLiteral("parent")).toInt());
            return i.value(QStringLiteral("id")).toInt();
        };
        for (const auto& v : metrics) {
            const QJsonObject m = v.toObject();
            if (m.value(QStringLiteral("state")).toString() == QLatin1String("leaf")
                && m.value(QStringLiteral("parent")).isNull() && m.value(QStringLiteral("value")).toDouble() != 0)
                QCOMPARE(qRound(m.value(QStringLiteral("mode_value")).toDouble()), 100);
            if (!m.value(QStringLiteral("mode_value")).isNull())
                treeShare[rootOf(m)] += m.value(QStringLiteral("mode_value")).toDouble();
        }
        const int time = rootOf(late);
        QVERIFY2(std::abs(treeShare.value(time) - 100.0) < 1e-6, qPrintable(QString::number(treeShare.value(time))));
        // The call pane, fully expanded, shows own values that add up to the selected metric's total.
        double sum = 0;
        for (const auto& v : pane(o, "call"))
            sum += v.toObject().value(QStringLiteral("value")).toDouble();
        double system = 0;
        for (const auto& v : pane(o, "system"))
            if (v.toObject().value(QStringLiteral("level")).toString() == QLatin1String("thread"))
                system += v.toObject().value(QStringLiteral("value")).toDouble();
        QVERIFY(std::abs(sum - system) <= 1e-9 * std::max(1.0, std::abs(sum)));
    }

    void textAndErrors()
    {
        const QString path = dataPath(QStringLiteral("cube/pycubexr/time.p4.n2000.x1.r0/profile.cubex"));
        CliRun r = runCli({ QStringLiteral("browse"), path });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("Metric pane"));
        QVERIFY(r.out.contains("+ bg_time"));
        r = runCli({ QStringLiteral("browse"), QStringLiteral("--metric"), QStringLiteral("Nope"), path });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("has no metric 'Nope'"), r.err.constData());
        r = runCli({ QStringLiteral("browse"), QStringLiteral("--mode"), QStringLiteral("percent"), path });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--mode takes absolute, ownroot"));
        r = runCli({ QStringLiteral("browse"), QStringLiteral("--order"), QStringLiteral("call,call,system"), path });
        QCOMPARE(r.exitCode, 2);
        r = runCli({ QStringLiteral("browse"), QStringLiteral("--threads"), QStringLiteral("0-9"), path });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("the trial has threads 0-3"), r.err.constData());
        // External % against itself: the selected root is 100 %.
        r = runCli(
            { QStringLiteral("browse"), QStringLiteral("--json"), QStringLiteral("--metric"), QStringLiteral("Time"),
                QStringLiteral("--mode"), QStringLiteral("external"), QStringLiteral("--external"), path, path });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(qRound(pane(o, "call")[0].toObject().value(QStringLiteral("mode_value")).toDouble()), 100);
    }
};

QTEST_GUILESS_MAIN(TestCliBrowse)
#include "tst_cli_browse.moc"
