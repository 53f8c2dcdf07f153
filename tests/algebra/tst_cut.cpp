// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// cut (cube_cut) and select (cube_part), docs/SEMANTICS.md 4.9, on real profiles; and the CLI with -o .cubex.
#include "algebra/cut.h"
#include "datasource/readers/readerregistry.h"
#include "tests/common/clirunner.h"
#include "tests/common/testutil.h"

#include <QTemporaryDir>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

QString cpi() { return dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")); }
QString scorep() { return dataPath(QStringLiteral("tau2/cube-scorep-cpi/profile.cubex")); }

bool near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max({ 1.0, std::fabs(a), std::fabs(b) }); }

/// A cell of `event` on thread t: {present, excl, incl, calls, subrs} of metric m.
struct Value {
    bool present = false;
    double excl = 0, incl = 0, calls = 0, subrs = 0;
};
Value valueOf(const Trial& trial, std::size_t t, const QString& event, std::size_t m = 0)
{
    const EventId e = trial.findEvent(event);
    if (!e.isValid())
        return {};
    const RowView row = trial.row(ThreadIndex(t));
    const auto i = row.find(e);
    if (i < 0)
        return {};
    return { true, row.exclusive(m, std::size_t(i)), row.inclusive(m, std::size_t(i)), row.calls[std::size_t(i)],
        row.subrs[std::size_t(i)] };
}

/// The sum of the exclusive values of every call-tree node (call paths and their roots) on thread t.
double callTreeExclusive(const Trial& trial, std::size_t t, std::size_t m = 0)
{
    QSet<QString> roots;
    for (const IntervalEvent& e : trial.events())
        if (e.isCallPath())
            roots.insert(e.name.section(QStringLiteral(" => "), 0, 0));
    double sum = 0;
    const RowView row = trial.row(ThreadIndex(t));
    for (std::size_t i = 0; i < row.size(); ++i) {
        const IntervalEvent& e = trial.event(row.events[i]);
        if (e.isCallPath() || roots.contains(e.name))
            sum += row.exclusive(m, i);
    }
    return sum;
}

} // namespace

class TestCut : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pruneFoldsIntoParent_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("prune");
        QTest::addColumn<QString>("parent");
        QTest::newRow("tau") << cpi() << QStringLiteral(".TAU application => MPI_Finalize()")
                             << QStringLiteral(".TAU application");
        QTest::newRow("scorep") << scorep() << QStringLiteral("cpi => main => iteration")
                                << QStringLiteral("cpi => main");
    }
    /// Totals are unchanged; the parent's inclusive value too; its exclusive value grows by the pruned
    /// inclusive value; the subtree is gone.
    void pruneFoldsIntoParent()
    {
        QFETCH(QString, path);
        QFETCH(QString, prune);
        QFETCH(QString, parent);
        const auto trial = mustLoad(path);
        QVERIFY(trial);
        const AlgebraResult result = cutCallTree(*trial, {}, { prune });
        QVERIFY2(result, qPrintable(result.error()));
        const Trial& cut = *result.trial();
        QCOMPARE(cut.provenance().operation, QStringLiteral("cut"));
        QVERIFY(cut.provenance().options.contains(QStringLiteral("prune=") + prune));
        QCOMPARE(cut.threads(), trial->threads());
        QVERIFY(!cut.findEvent(prune).isValid());
        for (const IntervalEvent& e : cut.events())
            QVERIFY2(!e.name.startsWith(prune + QStringLiteral(" => ")), qPrintable(e.name));
        int checked = 0;
        for (std::size_t t = 0; t < trial->threadCount(); ++t)
            for (std::size_t m = 0; m < trial->metricCount(); ++m) {
                if (trial->metadataValue(QStringLiteral("CUBE non-additive metrics"))
                        .split(QStringLiteral(", "))
                        .contains(trial->metric(MetricId(m)).name))
                    continue;
                const Value before = valueOf(*trial, t, parent, m);
                const Value pruned = valueOf(*trial, t, prune, m);
                const Value after = valueOf(cut, t, parent, m);
                QVERIFY(before.present && after.present);
                QCOMPARE(after.incl, before.incl);
                QVERIFY(near(after.excl, before.excl + (pruned.present ? pruned.incl : 0.0)));
                QCOMPARE(after.calls, before.calls);
                QVERIFY(near(callTreeExclusive(cut, t, m), callTreeExclusive(*trial, t, m)));
                ++checked;
            }
        QCOMPARE(checked, int(trial->threadCount() * (trial->metricCount() > 1 ? trial->metricCount() - 2 : 1)));
    }

    /// The re-rooted tree starts at NAME: its root's inclusive value is NAME's, every path starts with it.
    void rootReRoots()
    {
        const auto trial = mustLoad(scorep());
        QVERIFY(trial);
        const QString name = QStringLiteral("cpi => main => iteration");
        const AlgebraResult result = cutCallTree(*trial, name, {});
        QVERIFY2(result, qPrintable(result.error()));
        const Trial& cut = *result.trial();
        for (const IntervalEvent& e : cut.events())
            if (e.isCallPath())
                QVERIFY2(e.name.startsWith(QStringLiteral("iteration => ")), qPrintable(e.name));
        const std::size_t time = trial->findMetric(QStringLiteral("Time")).index();
        for (std::size_t t = 0; t < trial->threadCount(); ++t) {
            const Value before = valueOf(*trial, t, name, time);
            const Value root = valueOf(cut, t, QStringLiteral("iteration"), time);
            QVERIFY(before.present && root.present);
            QCOMPARE(root.incl, before.incl);
            QCOMPARE(root.excl, before.excl);
            QCOMPARE(root.calls, before.calls);
            const Value child = valueOf(cut, t, QStringLiteral("iteration => MPI_Bcast"), time);
            const Value original = valueOf(*trial, t, name + QStringLiteral(" => MPI_Bcast"), time);
            QCOMPARE(child.present, original.present);
            QCOMPARE(child.incl, original.incl);
            // Totals of the re-rooted tree = the subtree's inclusive value.
            QVERIFY(near(callTreeExclusive(cut, t, time), before.incl));
        }
        // By region name: every node of the region (here one).
        const AlgebraResult byRegion = cutCallTree(*trial, QStringLiteral("iteration"), {});
        QVERIFY(byRegion);
        QCOMPARE(byRegion.trial()->eventCount(), cut.eventCount());
    }

    void errors()
    {
        const auto trial = mustLoad(cpi());
        QVERIFY(trial);
        QVERIFY(cutCallTree(*trial, QStringLiteral("no such"), {}).error().contains(QStringLiteral("\"no such\"")));
        QVERIFY(cutCallTree(*trial, {}, { QStringLiteral("nope") }).error().contains(QStringLiteral("\"nope\"")));
        QVERIFY(
            cutCallTree(*trial, {}, { QStringLiteral(".TAU application") }).error().contains(QStringLiteral("root")));
        QVERIFY(!selectThreads(*trial, QStringLiteral("2-1"), {}, {}));
        QVERIFY(selectThreads(*trial, QStringLiteral("7"), {}, {}).error().contains(QStringLiteral("0-3")));
        QVERIFY(selectThreads(*trial, {}, {}, QStringLiteral("novalue")).error().contains(QStringLiteral("KEY=VALUE")));
    }

    /// select keeps exactly those threads' cells, user events and metadata.
    void selectKeepsThreads()
    {
        const auto trial = mustLoad(cpi());
        QVERIFY(trial);
        const AlgebraResult result = selectThreads(*trial, QStringLiteral("1-2,3"), {}, {});
        QVERIFY2(result, qPrintable(result.error()));
        const Trial& s = *result.trial();
        QCOMPARE(s.provenance().operation, QStringLiteral("select"));
        QCOMPARE(s.threadCount(), std::size_t(3));
        for (std::size_t i = 0; i < 3; ++i) {
            const ThreadIndex from(i + 1);
            QCOMPARE(s.threadKey(ThreadIndex(i)), trial->threadKey(from));
            QCOMPARE(s.row(ThreadIndex(i)).events, trial->row(from).events);
            QCOMPARE(s.row(ThreadIndex(i)).excl, trial->row(from).excl);
            QCOMPARE(s.row(ThreadIndex(i)).incl, trial->row(from).incl);
            QCOMPARE(s.row(ThreadIndex(i)).calls, trial->row(from).calls);
            QCOMPARE(s.atomicRow(ThreadIndex(i)).count, trial->atomicRow(from).count);
            QCOMPARE(s.metadataValue(QStringLiteral("Hostname"), ThreadIndex(i)),
                trial->metadataValue(QStringLiteral("Hostname"), from));
        }
        const AlgebraResult byNode = selectThreads(*trial, {}, QStringLiteral("0,3"), {});
        QVERIFY(byNode);
        QCOMPARE(byNode.trial()->threadCount(), std::size_t(2));
        QCOMPARE(byNode.trial()->threadKey(ThreadIndex(std::size_t(1))).node, 3);
        // By metadata: the Score-P process names.
        const auto cube = mustLoad(scorep());
        QVERIFY(cube);
        const AlgebraResult rank = selectThreads(*cube, {}, {}, QStringLiteral("CUBE process=MPI Rank 2"));
        QVERIFY2(rank, qPrintable(rank.error()));
        QCOMPARE(rank.trial()->threadCount(), std::size_t(1));
        QCOMPARE(rank.trial()->threadKey(ThreadIndex(std::size_t(0))).node, 2);
        QCOMPARE(rank.trial()->row(ThreadIndex(std::size_t(0))).excl, cube->row(ThreadIndex(std::size_t(2))).excl);
    }

    /// The CLI: cut and select with -o FILE.cubex, read back.
    void command()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("cut.cubex"));
        CliRun r = runCli({ QStringLiteral("cut"), scorep(), QStringLiteral("--prune"), QStringLiteral("iteration"),
            QStringLiteral("-o"), out });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("wrote"));
        const auto back = mustLoad(out);
        QVERIFY(back);
        QVERIFY(!back->findEvent(QStringLiteral("cpi => main => iteration")).isValid());
        QVERIFY(back->findEvent(QStringLiteral("cpi => main")).isValid());
        r = runCli({ QStringLiteral("select"), cpi(), QStringLiteral("--threads"), QStringLiteral("0"),
            QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("\"threads\": 1"));
        r = runCli({ QStringLiteral("cut"), cpi(), QStringLiteral("--root"), QStringLiteral("nosuch") });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("nosuch"));
    }
};

QTEST_GUILESS_MAIN(TestCut)
#include "tst_cut.moc"
