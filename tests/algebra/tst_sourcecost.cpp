// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The source browser's per-line costs are the statistics table's numbers (docs/SEMANTICS.md §12).
#include "algebra/sourcecost.h"
#include "tests/common/testutil.h"

#include <QTest>

using namespace parallax;
using parallax::test::dataPath;

class TestSourceCost : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void wrapSample()
    {
        const auto trial = test::mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")));
        QVERIFY(trial);
        const auto index = SourceIndex::of(*trial);
        QCOMPARE(index.get(), SourceIndex::of(*trial).get()); // cached
        QStringList files;
        for (const auto& f : index->files())
            files << QStringLiteral("%1:%2").arg(f.name).arg(f.events);
        QCOMPARE(
            files, (QStringList { QStringLiteral("foo.c:1"), QStringLiteral("main.c:1"), QStringLiteral("wb.c:4") }));

        // wb.c: __wrap_dgemm and its three parameter profiles all begin at line 5 (MANIFEST values).
        const SourceFileCosts total = sourceFileCosts(*trial, QStringLiteral("wb.c"), MetricId(0u), Statistic::Total);
        QCOMPARE(total.events.size(), std::size_t(4));
        QCOMPARE(total.eventsAtLine(5).size(), std::size_t(4));
        QVERIFY(total.eventsAtLine(6).empty());
        const SourceEventCost& top = total.events[total.eventsAtLine(5).front()];
        QCOMPARE(trial->event(top.event).name, QStringLiteral("int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]"));
        QCOMPARE(top.exclusive, 58.0 + 64.0);
        QCOMPARE(top.inclusive, 58.0 + 64.0);
        QCOMPARE(top.location.endLine, 11);
        QCOMPARE(total.maxInclusive, 122.0);
        const auto small
            = trial->findEvent(QStringLiteral("int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}] [ <size> = <100000> ]"));
        QVERIFY(small.isValid());
        QCOMPARE(total.events[std::size_t(total.indexOf(small))].inclusive, 24.0);

        // Every statistic and metric: the same numbers as values.h's statisticValue (the table's).
        const auto stats = TrialStatistics::of(*trial);
        for (Statistic s : { Statistic::MeanAll, Statistic::Max, Statistic::Min, Statistic::StdDevAll }) {
            const SourceFileCosts costs = sourceFileCosts(*trial, QStringLiteral("main.c"), MetricId(0u), s);
            QCOMPARE(costs.events.size(), std::size_t(1));
            const EventId e = costs.events.front().event;
            QCOMPARE(costs.events.front().exclusive,
                *statisticValue(*trial, *stats, e, MetricId(0u), ValueType::Exclusive, s));
            QCOMPARE(costs.events.front().inclusive,
                *statisticValue(*trial, *stats, e, MetricId(0u), ValueType::Inclusive, s));
        }
        const SourceFileCosts mean
            = sourceFileCosts(*trial, QStringLiteral("/elsewhere/main.c"), MetricId(0u), Statistic::MeanAll);
        QCOMPARE(mean.events.size(), std::size_t(1));
        QCOMPARE(mean.events.front().inclusive, (1049725.0 + 1048975.0) / 2);
        QVERIFY(sourceFileCosts(*trial, QStringLiteral("dgemm.c"), MetricId(0u), Statistic::Total).events.empty());
    }

    // A call-path profile: only flat events carry costs (a call path's cost is its flat event's share).
    void callPathsNotCounted()
    {
        const auto trial = test::mustLoad(dataPath(QStringLiteral("tau2/ppk/matmult-openmp-24thread-samples.ppk")));
        QVERIFY(trial);
        const auto index = SourceIndex::of(*trial);
        QVERIFY(!index->files().empty());
        for (const auto& file : index->files()) {
            const SourceFileCosts costs = sourceFileCosts(*trial, file.name, MetricId(0u), Statistic::MeanAll);
            QVERIFY(costs.events.size() >= file.events);
            for (const auto& c : costs.events)
                QVERIFY(!trial->event(c.event).isCallPath());
            for (std::size_t i = 1; i < costs.events.size(); ++i)
                QVERIFY(costs.events[i - 1].location.beginLine <= costs.events[i].location.beginLine);
        }
    }
};

QTEST_GUILESS_MAIN(TestSourceCost)
#include "tst_sourcecost.moc"
