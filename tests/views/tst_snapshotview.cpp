// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The Time Series view (issue 19 §1): a trial with snapshots written as TAU snapshot files and read
// back (synth --snapshots through the snapshot writer and reader) is drawn as stacked intervals
// whose top equals the sum over every event of the mean interval value; the heat map's cells are
// the means of their threads' interval values (snapshotHeatMap, tested against the snapshot rows in
// tst_snapshotseries); a click selects an interval, shift-click extends the range; Open as Trial
// hands over the profile of the range, equal to the later snapshot minus the earlier one; a legend
// click selects the event whose heat map is drawn. A trial without snapshots shows one interval.
#include "datasource/synth/synth.h"
#include "datasource/writers/tausnapshotwriter.h"
#include "tests/common/testutil.h"
#include "views/charts/qcustomplotwrapper.h"
#include "views/selectionstate.h"
#include "views/snapshots/snapshotview.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::max(std::abs(a), std::abs(b))); }

/// The pixel position of interval `i` in a plot of the view.
QPoint intervalPoint(QCustomPlot* plot, int i)
{
    return QPoint(static_cast<int>(plot->xAxis->coordToPixel(i)), plot->axisRect()->center().y());
}

} // namespace

class TestSnapshotView : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::shared_ptr<const Trial> m_trial;

private Q_SLOTS:
    void initTestCase()
    {
        SynthOptions o;
        o.threads = 1500; // more threads than the heat map has rows: rows are bin means
        o.events = 30;
        o.callpathDepth = 3;
        o.snapshots = 6;
        o.realistic = true;
        QCOMPARE(TauSnapshotWriter::write(*synthesizeTrial(o), m_dir.path()), QString());
        m_trial = mustLoad(m_dir.path());
        QVERIFY(m_trial);
        QVERIFY(m_trial->hasTimeSeries());
    }

    void seriesHeatMapAndRange()
    {
        SelectionState state;
        SnapshotView view(&state);
        view.resize(1300, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        state.setTrial(m_trial);
        view.updateNow();
        QVERIFY(!view.isComputing());
        const SnapshotView::Output& out = view.output();
        QCOMPARE(out.trial, m_trial);
        QCOMPARE(out.table.intervals.size(), std::size_t(6));
        QCOMPARE(out.table.intervals.back().label, QStringLiteral("final"));

        // Stacked areas: 8 events and "other"; the top of the stack is every event's interval.
        QCOMPARE(view.shownEvents().size(), std::size_t(8));
        QCustomPlot* chart = view.chart();
        QCOMPARE(chart->graphCount(), 9);
        QVERIFY(chart->graph(8)->name().startsWith(QStringLiteral("other (")));
        const SnapshotSeriesTable mean = snapshotSeries(*m_trial, state.metric());
        for (std::size_t i = 0; i < 6; ++i) {
            double sum = 0;
            for (std::size_t r = 0; r < mean.events.size(); ++r)
                sum += mean.value(r, i);
            // Each interval is a step: points 2i and 2i + 1 at i -/+ 0.5.
            for (int k : { 0, 1 }) {
                const auto top = chart->graph(8)->data()->at(static_cast<int>(2 * i) + k);
                QCOMPARE(top->key, static_cast<double>(i) + k - 0.5);
                QVERIFY(near(top->value, sum));
                QVERIFY(near(chart->graph(0)->data()->at(static_cast<int>(2 * i) + k)->value, mean.value(0, i)));
            }
        }
        // The intervals differ from event to event (each grows on its own curve).
        QVERIFY(!near(mean.value(0, 0) / mean.value(0, 5), mean.value(1, 0) / mean.value(1, 5)));

        // The heat map: 1500 threads in 750 rows of 2, each the mean of its two threads.
        QCOMPARE(out.event, mean.events.front());
        QCOMPARE(out.threadsPerRow, std::size_t(2));
        QCOMPARE(out.heatRows, std::size_t(750));
        const SnapshotHeatMap full = snapshotHeatMap(*m_trial, state.metric(), out.event);
        for (std::size_t row : { std::size_t(0), std::size_t(321), std::size_t(749) })
            for (std::size_t i = 0; i < 6; ++i)
                QVERIFY(near(out.heat[row * 6 + i], (full.value(2 * row, i) + full.value(2 * row + 1, i)) / 2));

        // Lines: one graph per shown event, no "other".
        view.setStyle(SnapshotView::Style::Lines);
        QCOMPARE(chart->graphCount(), 8);
        QVERIFY(near(chart->graph(1)->data()->at(3)->value, mean.value(1, 3)));

        // A click selects interval 2; a shift-click on 4 extends the range to 2..4.
        QTest::mouseClick(chart, Qt::LeftButton, {}, intervalPoint(chart, 2));
        QCOMPARE(view.rangeFirst(), 2);
        QCOMPARE(view.rangeLast(), 2);
        QTest::mouseClick(chart, Qt::LeftButton, Qt::ShiftModifier, intervalPoint(chart, 4));
        QCOMPARE(view.rangeFirst(), 2);
        QCOMPARE(view.rangeLast(), 4);

        // Open as Trial: snapshot 4 minus snapshot 1, for every thread and cell.
        QSignalSpy derived(&view, &SnapshotView::trialDerived);
        view.openRange();
        view.waitForRange();
        QCOMPARE(derived.count(), 1);
        const auto profile = derived.front().at(0).value<TrialPtr>();
        QVERIFY(profile);
        QVERIFY(derived.front().at(1).toString().contains(QStringLiteral("intervals 2 to 4")));
        QCOMPARE(profile->threadCount(), m_trial->threadCount());
        for (std::size_t t : { std::size_t(0), std::size_t(777), std::size_t(1499) }) {
            const auto& series = m_trial->timeSeries(ThreadIndex(t));
            const IntervalRow& end = series[4].row;
            const IntervalRow& begin = series[1].row;
            const RowView row = profile->row(profile->findThread(m_trial->threadKey(ThreadIndex(t))));
            for (std::size_t c = 0; c < end.size(); ++c) {
                const std::ptrdiff_t at = row.find(profile->findEvent(m_trial->event(end.events[c]).name));
                QVERIFY(at >= 0);
                const std::ptrdiff_t b = begin.find(end.events[c]);
                QVERIFY(b >= 0);
                QVERIFY(near(row.exclusive(0, static_cast<std::size_t>(at)),
                    end.exclusive(0, c) - begin.exclusive(0, static_cast<std::size_t>(b))));
            }
        }

        // A legend click selects the event; the heat map follows it.
        view.setStyle(SnapshotView::Style::Stacked);
        chart->replot();
        auto* item = chart->legend->itemWithPlottable(chart->graph(2));
        QVERIFY(item);
        QTest::mouseClick(chart, Qt::LeftButton, {}, item->outerRect().center());
        QCOMPARE(state.event(), mean.events[2]);
        view.updateNow();
        QCOMPARE(view.output().event, mean.events[2]);
    }

    void oneThreadAndNoSnapshots()
    {
        SelectionState state;
        SnapshotView view(&state);
        view.resize(1000, 700);
        view.show();
        state.setTrial(m_trial);
        const ThreadIndex t(std::size_t { 17 });
        view.setThread(t);
        view.updateNow();
        QCOMPARE(view.output().thread, t);
        const SnapshotSeriesTable one = snapshotSeries(*m_trial, state.metric(), t);
        QCOMPARE(view.output().table.values, one.values);

        // A statistic over the threads: the table of that statistic, drawn as lines (maxima do
        // not stack); the thread box is off until "One thread" again.
        view.setStyle(SnapshotView::Style::Stacked);
        view.setStatistic(Statistic::Max);
        view.updateNow();
        QVERIFY(!view.output().thread.isValid());
        QCOMPARE(view.output().table.statistic, Statistic::Max);
        const SnapshotSeriesTable max = snapshotSeries(*m_trial, state.metric(), ThreadIndex(), Statistic::Max);
        QCOMPARE(view.output().table.values, max.values);
        QCOMPARE(view.chart()->graphCount(), static_cast<int>(view.shownEvents().size())); // lines: no "other"
        QVERIFY(near(view.chart()->graph(0)->data()->at(3)->value, max.value(0, 3))); // lines: a point per interval
        view.setThread(t);
        view.updateNow();
        QCOMPARE(view.output().table.values, one.values);

        // A trial without snapshots: one interval, its profile.
        const auto plain = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(plain);
        state.setTrial(plain);
        view.updateNow();
        QCOMPARE(view.output().table.intervals.size(), std::size_t(1));
        QVERIFY(!view.output().thread.isValid());
        QVERIFY(view.chart()->graphCount() > 0);
    }
};

QTEST_MAIN(TestSnapshotView)
#include "tst_snapshotview.moc"
