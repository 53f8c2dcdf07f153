// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/statistics.h"
#include "datasource/synth/synth.h"
#include "views/overview/barlistwidget.h"
#include "views/overview/overviewbuilder.h"
#include "views/overview/overviewdensity.h"
#include "views/overview/overviewwidget.h"
#include "views/overview/valuetext.h"
#include "views/selectionstate.h"

#include <QApplication>
#include <QHelpEvent>
#include <QScrollBar>
#include <QTest>
#include <QToolTip>
#include <algorithm>
#include <limits>

using namespace parallax;

namespace {

const QLocale english(QLocale::English, QLocale::UnitedStates);

std::shared_ptr<const Trial> synthTrial()
{
    SynthOptions o;
    o.threads = 1000;
    o.events = 20;
    o.callpathDepth = 2;
    return synthesizeTrial(o);
}

/// An overview of `trial` on screen, 1000 x 500, in English.
struct ShownOverview {
    explicit ShownOverview(std::shared_ptr<const Trial> trial)
    {
        state.setTrial(std::move(trial));
        overview.setLocale(english);
        overview.resize(1000, 500);
        overview.show();
    }
    SelectionState state;
    OverviewWidget overview { &state };
};

std::shared_ptr<const OverviewLayout> layoutOf(const std::shared_ptr<const Trial>& trial, OverviewSort sort)
{
    OverviewRequest request;
    request.trial = trial;
    request.metric = MetricId(std::size_t(0));
    request.sort = sort;
    request.descending = sort != OverviewSort::ThreadId; // largest bars first; threads in n,c,t order
    request.locale = english;
    return OverviewBuilder::build(request);
}

} // namespace

class TestOverviewDensity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rowsCoverEveryThreadOnceInEqualRuns()
    {
        const auto layout = layoutOf(synthTrial(), OverviewSort::BarTotal);
        QVERIFY(layout);
        const auto density = OverviewDensity::build(layout, 64);
        QVERIFY(density);
        QCOMPARE(density->rows.size(), std::size_t(64));
        std::size_t next = 0;
        for (const auto& row : density->rows) {
            QCOMPARE(row.firstRow, next);
            QVERIFY(row.threadCount() == 15 || row.threadCount() == 16); // 1000 / 64 = 15.6
            next = row.lastRow;
        }
        QCOMPARE(next, std::size_t(1000));
        // Fewer threads than pixel rows: one thread per row.
        QCOMPARE(OverviewDensity::build(layout, 5000)->rows.size(), std::size_t(1000));
    }

    void minMeanMaxEqualTheTrialsValues()
    {
        const auto trial = synthTrial();
        const auto layout = layoutOf(trial, OverviewSort::BarTotal);
        const auto density = OverviewDensity::build(layout, 64);
        QVERIFY(density);
        const auto stats = TrialStatistics::of(*trial);
        const std::size_t firstThreadRow = layout->statistics.size();
        for (const std::size_t d : { std::size_t(0), std::size_t(17), std::size_t(63) }) {
            const auto& row = density->rows[d];
            // The threads of the row, found from the layout's rows, values straight from the trial.
            std::vector<ThreadIndex> threads;
            for (std::size_t t = 0; t < trial->threadCount(); ++t) {
                const auto at = static_cast<std::size_t>(layout->rowOfThread[t]) - firstThreadRow;
                if (at >= row.firstRow && at < row.lastRow)
                    threads.emplace_back(t);
            }
            QCOMPARE(threads.size(), row.threadCount());
            for (std::size_t e = 0; e < layout->order.size(); ++e) {
                double lo = std::numeric_limits<double>::infinity();
                double hi = -lo;
                double sum = 0;
                for (ThreadIndex t : threads) {
                    const auto v = threadValue(*trial, *stats, t, layout->order[e], layout->metric, layout->valueType);
                    lo = std::min(lo, v.value_or(0.0));
                    hi = std::max(hi, v.value_or(0.0));
                    sum += v.value_or(0.0);
                }
                const std::size_t i = density->index(d, e);
                QCOMPARE(density->min[i], lo);
                QCOMPARE(density->max[i], hi);
                QVERIFY(qAbs(density->mean[i] - sum / static_cast<double>(threads.size())) <= 1e-9 * qAbs(hi));
                QVERIFY(density->min[i] <= density->mean[i] && density->mean[i] <= density->max[i]);
            }
        }
        // Sorted by bar total, descending: the first row's mean bar is longer than the last row's.
        double first = 0;
        double last = 0;
        for (std::size_t e = 0; e < layout->order.size(); ++e) {
            first += density->mean[density->index(0, e)];
            last += density->mean[density->index(63, e)];
        }
        QVERIFY(first > last);
    }

    void layoutWithoutThreadSegmentsDrawsTheSameDensity()
    {
        // A stacked layout made for density rows skips the thread rows' segments; everything else,
        // and the density drawn from it, is the full layout's.
        const auto trial = synthTrial();
        OverviewRequest request;
        request.trial = trial;
        request.metric = MetricId(std::size_t(0));
        request.sort = OverviewSort::BarTotal;
        request.descending = true;
        request.locale = english;
        const auto full = OverviewBuilder::build(request);
        request.threadSegments = false;
        const auto compact = OverviewBuilder::build(request);
        QVERIFY(full && compact);
        QVERIFY(full->threadSegments);
        QVERIFY(!compact->threadSegments);
        QCOMPARE(compact->rowOfThread, full->rowOfThread);
        QCOMPARE(compact->rowTotals, full->rowTotals);
        QCOMPARE(compact->order, full->order);
        QCOMPARE(compact->statisticThreads, full->statisticThreads);
        const BarListData& a = *full->bars;
        const BarListData& b = *compact->bars;
        QCOMPARE(b.rows.size(), a.rows.size());
        QCOMPARE(b.origin, a.origin);
        const std::size_t pinned = full->statistics.size();
        QVERIFY(b.segments.size() < a.segments.size() / 10);
        for (std::size_t r = 0; r < a.rows.size(); ++r) {
            QCOMPARE(b.rows[r].label, a.rows[r].label);
            QCOMPARE(b.rows[r].text, a.rows[r].text);
            QCOMPARE(b.rows[r].id, a.rows[r].id);
            QCOMPARE(b.rows[r].end, a.rows[r].end); // bit for bit: the same float arithmetic
            if (r >= pinned) {
                QCOMPARE(b.rows[r].segmentCount, 0u);
                continue;
            }
            // The statistic rows, the Min and Max thread's bars included, keep their segments.
            QCOMPARE(b.rows[r].segmentCount, a.rows[r].segmentCount);
            for (std::uint32_t k = 0; k < a.rows[r].segmentCount; ++k) {
                const BarSegment& x = a.segments[a.rows[r].firstSegment + k];
                const BarSegment& y = b.segments[b.rows[r].firstSegment + k];
                QCOMPARE(y.key, x.key);
                QCOMPARE(y.x0, x.x0);
                QCOMPARE(y.x1, x.x1);
            }
        }
        QVERIFY(a.rows[pinned + 3].segmentCount > 0);
        const auto fromFull = OverviewDensity::build(full, 64);
        const auto fromCompact = OverviewDensity::build(compact, 64);
        QVERIFY(fromFull && fromCompact);
        QCOMPARE(fromCompact->mean, fromFull->mean);
        QCOMPARE(fromCompact->bars->ranges, fromFull->bars->ranges);
        QCOMPARE(fromCompact->bars->segments.size(), fromFull->bars->segments.size());
        for (std::size_t k = 0; k < fromFull->bars->segments.size(); ++k) {
            QCOMPARE(fromCompact->bars->segments[k].key, fromFull->bars->segments[k].key);
            QVERIFY(qAbs(fromCompact->bars->segments[k].x1 - fromFull->bars->segments[k].x1) < 1e-6f);
        }
        // Other modes lay out every segment whatever is asked.
        request.mode = OverviewMode::Normalised;
        QVERIFY(OverviewBuilder::build(request)->threadSegments);
    }

    void switchesOnWhenThreadsOutnumberPixelRows()
    {
        const auto trial = synthTrial();
        QVERIFY(OverviewDensity::wanted(trial->threadCount(), 600));
        QVERIFY(!OverviewDensity::wanted(trial->threadCount(), 1000));
        QVERIFY(!OverviewDensity::wanted(trial->threadCount(), 0));
    }

    void toolTipNamesTheThreadRangeAndTheValues()
    {
        const auto trial = synthTrial();
        const auto layout = layoutOf(trial, OverviewSort::ThreadId);
        const auto density = OverviewDensity::build(layout, 100);
        QVERIFY(density);
        // Thread-id order: row 3 holds threads 30..39.
        const auto& row = density->rows[3];
        QCOMPARE(row.firstRow, std::size_t(30));
        QCOMPARE(row.lastRow, std::size_t(40));
        const QString range = density->toolTip(3, density->eventCount(), TimeUnit::Milliseconds, english);
        QCOMPARE(range,
            QStringLiteral("Threads %1 … %2 (10 threads, rows 31–40)")
                .arg(trial->threadKey(ThreadIndex(std::size_t(30))).toString(),
                    trial->threadKey(ThreadIndex(std::size_t(39))).toString()));
        const std::size_t i = density->index(3, 0);
        const Metric& metric = trial->metric(MetricId(std::size_t(0)));
        const auto fmt
            = [&](double v) { return valueText(v, metric, layout->valueType, TimeUnit::Milliseconds, english); };
        const QString text = density->toolTip(3, 0, TimeUnit::Milliseconds, english);
        QCOMPARE(text,
            range
                + QStringLiteral("\n%1: min %2, mean %3, max %4")
                      .arg(trial->event(layout->order[0]).name, fmt(density->min[i]), fmt(density->mean[i]),
                          fmt(density->max[i])));
        QVERIFY(density->min[i] < density->max[i]);
    }

    void overviewSwitchesToDensityRowsAndBack()
    {
        const auto trial = synthTrial();
        ShownOverview shown(trial);
        OverviewWidget& overview = shown.overview;
        QVERIFY(QTest::qWaitForWindowExposed(&overview));
        overview.updateNow();
        // 1,000 threads, a few hundred pixels: density rows, all of them in view without scrolling.
        const int pixelRows = overview.densityPixelRows();
        QVERIFY(pixelRows > 10 && pixelRows < 1000);
        QVERIFY(overview.densityWanted());
        QVERIFY(overview.isDensityShown());
        // Made for density rows: no thread segments.
        QVERIFY(!overview.overviewLayout()->threadSegments);
        const auto density = overview.density();
        QVERIFY(density);
        QCOMPARE(density->layout, overview.overviewLayout());
        const std::size_t pinned = overview.overviewLayout()->statistics.size();
        QCOMPARE(density->rows.size(), static_cast<std::size_t>(pixelRows));
        QCOMPARE(static_cast<std::size_t>(overview.barList()->rowCount()), pinned + density->rows.size());
        QCOMPARE(overview.barList()->verticalScrollBar()->maximum(), 0);
        // Each density row is RowPixels high, one under the other.
        const int last = overview.barList()->rowCount() - 1;
        QCOMPARE(overview.barList()->rowRect(last).height(), OverviewDensity::RowPixels);
        QVERIFY(overview.barList()->rowRect(last).bottom() < overview.barList()->viewport()->height());
        QCOMPARE(overview.barList()->rowRect(last).top() - overview.barList()->rowRect(last - 1).top(),
            OverviewDensity::RowPixels);
        // A thread's row is the density row whose run holds it.
        const ThreadIndex t(std::size_t(500));
        const int row = overview.rowOfThread(t);
        const auto run = density->densityRow(row);
        QVERIFY(run);
        const auto at = static_cast<std::size_t>(overview.overviewLayout()->rowOfThread[t.index()]) - pinned;
        QVERIFY(density->rows[*run].firstRow <= at && at < density->rows[*run].lastRow);
        QVERIFY(!overview.threadAtRow(row).isValid()); // a run, not a thread

        // The toggle: per-thread rows, then back to the automatic choice.
        overview.setDensity(false);
        overview.updateNow();
        QVERIFY(!overview.isDensityShown());
        QCOMPARE(static_cast<std::size_t>(overview.barList()->rowCount()), pinned + trial->threadCount());
        QCOMPARE(overview.threadAtRow(overview.rowOfThread(t)), t);
        // The thread rows drawn now have their segments (a new layout was made for them).
        QVERIFY(overview.overviewLayout()->threadSegments);
        QVERIFY(overview.barList()->data()->rows[static_cast<std::size_t>(overview.rowOfThread(t))].segmentCount > 0);
        overview.setDensity(std::nullopt);
        overview.updateNow();
        QVERIFY(overview.isDensityShown());

        // Taller than the threads need: no density, by itself.
        overview.resize(1000, 3400);
        overview.updateNow();
        QVERIFY(!overview.densityWanted());
        QVERIFY(!overview.isDensityShown());
        QCOMPARE(static_cast<std::size_t>(overview.barList()->rowCount()), pinned + trial->threadCount());
    }

    void overviewDensityTooltipAndBars()
    {
        const auto trial = synthTrial();
        ShownOverview shown(trial);
        OverviewWidget& overview = shown.overview;
        QVERIFY(QTest::qWaitForWindowExposed(&overview));
        overview.updateNow();
        QVERIFY(overview.isDensityShown());
        const auto layout = overview.overviewLayout();
        // The aggregates computed directly from the same layout and row count.
        const auto direct = OverviewDensity::build(layout, overview.densityPixelRows());
        QVERIFY(direct);
        const auto density = overview.density();
        QCOMPARE(density->rows.size(), direct->rows.size());
        QCOMPARE(density->mean, direct->mean);
        BarListWidget* list = overview.barList();
        const std::size_t pinned = layout->statistics.size();
        const std::size_t d = density->rows.size() / 2;
        const int row = static_cast<int>(pinned + d);
        const BarRow& bar = list->data()->rows[static_cast<std::size_t>(row)];
        QVERIFY(bar.segmentCount > 0);
        const int segment = static_cast<int>(bar.firstSegment);
        const EventId event = overview.eventOfSegment(segment);
        const std::size_t e = direct->eventIndex(event);
        QVERIFY(e < direct->eventCount());
        // The drawn bar is the mean of its threads' bars, on the layout's scale.
        double meanEnd = 0;
        for (std::size_t k = direct->rows[d].firstRow; k < direct->rows[d].lastRow; ++k)
            meanEnd += layout->bars->rows[pinned + k].end - layout->bars->origin;
        meanEnd /= static_cast<double>(direct->rows[d].threadCount());
        QVERIFY2(qAbs(bar.end - layout->bars->origin - meanEnd) < 1e-4,
            qPrintable(QStringLiteral("%1 vs %2").arg(bar.end).arg(meanEnd)));
        const QPoint pos = list->segmentRect(row, segment).center();
        QHelpEvent help(QEvent::ToolTip, pos, list->viewport()->mapToGlobal(pos));
        QApplication::sendEvent(list->viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        const QString text = QToolTip::text();
        QCOMPARE(text, direct->toolTip(d, e, TimeUnit::Milliseconds, english));
        const auto& r = direct->rows[d];
        const QString first = trial->threadKey(ThreadIndex(layout->bars->rows[pinned + r.firstRow].id)).toString();
        const QString last = trial->threadKey(ThreadIndex(layout->bars->rows[pinned + r.lastRow - 1].id)).toString();
        QVERIFY2(text.startsWith(QStringLiteral("Threads %1 … %2 (").arg(first, last)), qPrintable(text));
        const Metric& metric = trial->metric(layout->metric);
        const auto fmt
            = [&](double v) { return valueText(v, metric, layout->valueType, TimeUnit::Milliseconds, english); };
        const std::size_t i = direct->index(d, e);
        QVERIFY2(text.endsWith(QStringLiteral("%1: min %2, mean %3, max %4")
                                   .arg(trial->event(event).name, fmt(direct->min[i]), fmt(direct->mean[i]),
                                       fmt(direct->max[i]))),
            qPrintable(text));
        QToolTip::hideText();
        // Thread order: the whisker spans the run's bar ends, which hold the drawn mean bar's end.
        const auto [lo, hi] = list->data()->ranges[static_cast<std::size_t>(row)];
        QVERIFY(lo <= bar.end + 1e-6f && bar.end <= hi + 1e-6f);
        QVERIFY(lo < hi);
    }
};

QTEST_MAIN(TestOverviewDensity)
#include "tst_overviewdensity.moc"
