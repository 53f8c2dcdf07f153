// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/statistics.h"
#include "datasource/model/trialbuilder.h"
#include "tests/common/darkpalette.h"
#include "tests/common/imagecheck.h"
#include "tests/common/testutil.h"
#include "views/charts/colors.h"
#include "views/overview/barlistwidget.h"
#include "views/overview/eventbarchart.h"
#include "views/overview/overviewbuilder.h"
#include "views/overview/overviewwidget.h"
#include "views/overview/selectorbar.h"
#include "views/overview/threadbarchart.h"
#include "views/selectionstate.h"
#include "views/statisticspanel.h"

#include <QApplication>
#include <QComboBox>
#include <QImage>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <algorithm>

using namespace parallax;
using parallax::test::colourCount;

namespace {

const QLocale english(QLocale::English, QLocale::UnitedStates);

/// Saves an image when PARALLAX_SCREENSHOTS names a directory (to look at the views).
void keep(const QImage& image, const QString& name)
{
    const QString dir = qEnvironmentVariable("PARALLAX_SCREENSHOTS");
    if (!dir.isEmpty())
        image.save(dir + QLatin1Char('/') + name);
}

/// 4 threads; "main" everywhere, "work" on threads 0..2 only (exclusive 10, 20, 30), and a call
/// path "main => work" that must not be stacked twice.
std::shared_ptr<const Trial> literalTrial()
{
    TrialBuilder b(QStringLiteral("literal"));
    b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
    ThreadIndex t[4];
    for (int i = 0; i < 4; ++i)
        t[i] = b.addThread({ i, 0, 0 });
    const EventId main = b.addEvent(QStringLiteral("main"), { QStringLiteral("TAU_USER") });
    const EventId work = b.addEvent(QStringLiteral("work"), { QStringLiteral("MPI") });
    const EventId path = b.addEvent(QStringLiteral("main => work"), { QStringLiteral("TAU_CALLPATH") });
    const double workExcl[3] = { 10, 20, 30 };
    for (int i = 0; i < 4; ++i) {
        const double ex[] = { 5.0 + i };
        const double in[] = { 5.0 + i + (i < 3 ? workExcl[i] : 0) };
        b.addInterval(t[i], main, 1, i < 3 ? 1 : 0, ex, in);
    }
    for (int i = 0; i < 3; ++i) {
        const double ex[] = { workExcl[i] };
        b.addInterval(t[i], work, 1, 0, ex, ex);
        b.addInterval(t[i], path, 1, 0, ex, ex);
    }
    return b.build();
}

} // namespace

class TestOverview : public QObject {
    Q_OBJECT

private:
    std::shared_ptr<const Trial> m_cpi;
    EventId m_open;

private Q_SLOTS:
    /// Every view lists the statistic rows in one order: Mean, Mean (present), Min, Max,
    /// Std. Dev., Std. Dev. (present), Total (the ones it has).
    void statisticRowsInOneOrder()
    {
        const auto trial = test::mustLoad(test::dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")));
        QVERIFY(trial);
        SelectionState state;
        const QStringList order = { statisticName(Statistic::MeanAll), statisticName(Statistic::MeanPresent),
            statisticName(Statistic::Min), statisticName(Statistic::Max), statisticName(Statistic::StdDevAll),
            statisticName(Statistic::StdDevPresent), statisticName(Statistic::Total) };
        // Positions in `order` of the entries of `names` that start with a statistic's name.
        const auto positions = [&order](const QStringList& names) {
            QList<int> found;
            for (const QString& name : names) {
                int best = -1;
                for (int i = 0; i < order.size(); ++i)
                    if (name.startsWith(order[i]) && (best < 0 || order[i].size() > order[best].size()))
                        best = i;
                if (best >= 0)
                    found << best;
            }
            return found;
        };
        const auto ascending = [](const QList<int>& p) { return std::is_sorted(p.begin(), p.end()) && p.size() >= 4; };

        StatisticsPanel panel(&state);
        EventBarChart event(&state);
        ThreadBarChart thread(&state);
        state.setTrial(trial);
        state.selectEvent(trial->findEvent(QStringLiteral("MPI_Barrier()")));
        event.updateNow();
        QStringList combo;
        for (int i = 0; i < panel.modeCombo()->count(); ++i)
            combo << panel.modeCombo()->itemText(i);
        QVERIFY2(ascending(positions(combo)), qPrintable(combo.join(u'|')));
        QStringList eventRows;
        for (int row = 0; row < 4; ++row)
            eventRows << event.labelAt(row);
        QVERIFY2(ascending(positions(eventRows)), qPrintable(eventRows.join(u'|')));
        QStringList sources;
        for (QComboBox* box : thread.findChildren<QComboBox*>())
            if (box->findText(statisticName(Statistic::Total)) >= 0)
                for (int i = 0; i < box->count(); ++i)
                    sources << box->itemText(i);
        QVERIFY2(ascending(positions(sources)), qPrintable(sources.join(u'|')));
        QStringList overviewRows;
        for (Statistic s : OverviewBuilder::statisticRows(true))
            overviewRows << statisticName(s);
        QVERIFY2(ascending(positions(overviewRows)), qPrintable(overviewRows.join(u'|')));
    }

    void initTestCase()
    {
        QLocale::setDefault(english);
        m_cpi = test::mustLoad(test::dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(m_cpi);
        m_open = m_cpi->findEvent(QStringLiteral("MPI_File_open()"));
        QVERIFY(m_open.isValid());
    }

    void overviewRowsAndOrder()
    {
        SelectionState state;
        state.setTrial(m_cpi);
        OverviewWidget overview(&state);
        overview.resize(1000, 600);
        overview.updateNow();
        const auto layout = overview.overviewLayout();
        QVERIFY(layout);
        const auto& bars = *layout->bars;
        // Mean, Min thread, Max thread, Std. Dev., Total (the one statistic order), then the 4 ranks (issue 14: the Min
        // and Max rows are the shortest and longest thread bars, tst_honest checks them).
        QCOMPARE(bars.pinnedRows, std::size_t(5));
        QCOMPARE(bars.rows.size(), std::size_t(9));
        const QStringList statistics = { QStringLiteral("Mean"), QStringLiteral("Min thread"),
            QStringLiteral("Max thread"), QStringLiteral("Std. Dev."), QStringLiteral("Total") };
        for (int r = 0; r < 5; ++r) {
            QCOMPARE(bars.rows[static_cast<std::size_t>(r)].label, statistics[r]);
            QVERIFY(overview.statisticAtRow(r).has_value());
        }
        for (int t = 0; t < 4; ++t) {
            QCOMPARE(bars.rows[static_cast<std::size_t>(5 + t)].label, QStringLiteral("%1,0,0").arg(t));
            QCOMPARE(overview.threadAtRow(5 + t), ThreadIndex(static_cast<std::uint32_t>(t)));
            QCOMPARE(overview.rowOfThread(ThreadIndex(static_cast<std::uint32_t>(t))), 5 + t);
        }

        // Flat events only (12 of them), largest mean first, one colour each.
        QCOMPARE(layout->order.size(), std::size_t(12));
        QCOMPARE(layout->order.front(), m_open);
        const auto stats = TrialStatistics::of(*m_cpi);
        const MetricId m(0u);
        for (std::size_t i = 0; i + 1 < layout->order.size(); ++i)
            QVERIFY(stats->stat(layout->order[i], m, ValueKind::Exclusive).meanAll
                >= stats->stat(layout->order[i + 1], m, ValueKind::Exclusive).meanAll);
        std::vector<int> rank(m_cpi->eventCount(), -1);
        for (std::size_t i = 0; i < layout->order.size(); ++i) {
            QVERIFY(!m_cpi->event(layout->order[i]).isCallPath());
            rank[layout->order[i].index()] = static_cast<int>(i);
        }
        for (const BarRow& row : bars.rows) {
            int previous = -1;
            float x = 0;
            for (std::uint32_t k = row.firstSegment; k < row.firstSegment + row.segmentCount; ++k) {
                const BarSegment& s = bars.segments[k];
                QVERIFY(rank[s.key] > previous); // same order in every bar
                previous = rank[s.key];
                QCOMPARE(bars.color(s.key), eventColor(*m_cpi, EventId(s.key)).rgb()); // the trial's ranked colours
                QVERIFY(s.x0 >= x - 1e-6f && s.x1 >= s.x0); // end to end
                x = s.x1;
            }
        }
        // A thread's stacked exclusive values add up to its top inclusive value (.TAU application).
        QCOMPARE(layout->rowTotals[5], 51781.0);
        QCOMPARE(bars.rows[5].text, QStringLiteral("51.781 ms"));
        // The widest bar reaches the right edge; the Total row is a number only (issue 14).
        float widest = 0;
        for (std::size_t r = 0; r < bars.rows.size(); ++r)
            widest = std::max(widest, bars.rows[r].end);
        QVERIFY(qFuzzyCompare(widest, 1.0f));
        QCOMPARE(bars.rows[4].segmentCount, 0u);
        QVERIFY(qFuzzyCompare(layout->rowTotals[4], 4 * layout->rowTotals[0]));
    }

    void overviewRendersAndClicks()
    {
        SelectionState state;
        state.setTrial(m_cpi);
        OverviewWidget overview(&state);
        overview.resize(900, 420);
        // Not shown: grab() must lay out and paint on its own.
        const QImage image = overview.grab().toImage();
        keep(image, QStringLiteral("overview.png"));
        QCOMPARE(image.size(), QSize(900, 420));
        QVERIFY(colourCount(image) >= 8);

        BarListWidget* list = overview.barList();
        const auto& bars = *list->data();
        const int row = overview.rowOfThread(ThreadIndex(1u));
        const BarRow& r = bars.rows[static_cast<std::size_t>(row)];
        // The first segment of rank 1 is MPI_File_open(), in its colour on screen.
        const int segment = static_cast<int>(r.firstSegment);
        QCOMPARE(overview.eventOfSegment(segment), m_open);
        const QRect rect = list->segmentRect(row, segment);
        QVERIFY(rect.width() > 10);
        const QPoint inWidget = list->viewport()->mapTo(&overview, rect.center());
        QCOMPARE(image.pixel(inWidget), eventColor(*m_cpi, m_open).rgb());
        // Every segment wide enough to see shows its event's colour.
        for (std::uint32_t k = r.firstSegment; k < r.firstSegment + r.segmentCount; ++k) {
            const QRect s = list->segmentRect(row, static_cast<int>(k));
            if (s.width() >= 3)
                QCOMPARE(image.pixel(list->viewport()->mapTo(&overview, s.center())), bars.color(bars.segments[k].key));
        }

        // Clicking a segment selects its event; clicking a label selects the thread.
        QSignalSpy events(&overview, &OverviewWidget::eventActivated);
        QSignalSpy threads(&overview, &OverviewWidget::threadActivated);
        const int second = segment + 1;
        const EventId secondEvent = overview.eventOfSegment(second);
        QVERIFY(secondEvent.isValid() && secondEvent != m_open);
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->segmentRect(row, second).center());
        QCOMPARE(state.event(), secondEvent);
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.first().first().value<EventId>(), secondEvent);
        QCOMPARE(list->highlightedKey(), secondEvent.index());
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->segmentRect(row, segment).center());
        QCOMPARE(state.event(), m_open);

        const int row3 = overview.rowOfThread(ThreadIndex(3u));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->labelRect(row3).center());
        QCOMPARE(state.thread(), ThreadIndex(3u));
        QCOMPARE(threads.size(), 1);
        QCOMPARE(list->selectedRow(), row3);

        // A statistic label asks for its pseudo-thread.
        QSignalSpy statistics(&overview, &OverviewWidget::statisticActivated);
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->labelRect(0).center());
        QCOMPARE(statistics.size(), 1);
        QCOMPARE(statistics.first().first().value<Statistic>(), Statistic::MeanAll);

        // Keyboard: Down moves the current row, Enter opens the thread.
        list->setFocus();
        list->setCurrentRow(overview.rowOfThread(ThreadIndex(0u)));
        QTest::keyClick(list, Qt::Key_Down);
        QCOMPARE(list->currentRow(), overview.rowOfThread(ThreadIndex(1u)));
        QTest::keyClick(list, Qt::Key_Return);
        QCOMPARE(state.thread(), ThreadIndex(1u));
        QTest::keyClick(list, Qt::Key_End);
        QCOMPARE(list->currentRow(), list->rowCount() - 1);
        QTest::keyClick(list, Qt::Key_Home);
        QCOMPARE(list->currentRow(), 0);

        // Tooltip text of a segment: event, where, value with unit, percent of the bar.
        state.selectThread(ThreadIndex());
    }

    void overviewModesSortsFilters()
    {
        SelectionState state;
        state.setTrial(m_cpi);
        OverviewWidget overview(&state);
        overview.resize(900, 420);

        // Normalised: every bar ends at 100 %.
        overview.setMode(OverviewMode::Normalised);
        overview.updateNow();
        for (const BarRow& row : overview.overviewLayout()->bars->rows)
            if (row.label != QLatin1String("Total")) // a number only (issue 14)
                QVERIFY(qFuzzyCompare(row.end, 1.0f));

        // Unstacked: one column per event, segments stay in their column; no Total row.
        overview.setMode(OverviewMode::Unstacked);
        overview.updateNow();
        {
            const auto& bars = *overview.overviewLayout()->bars;
            QCOMPARE(bars.pinnedRows, std::size_t(4));
            QVERIFY(!bars.guides.empty());
            std::map<std::uint32_t, float> column;
            for (const BarRow& row : bars.rows)
                for (std::uint32_t k = row.firstSegment; k < row.firstSegment + row.segmentCount; ++k) {
                    const BarSegment& s = bars.segments[k];
                    if (column.count(s.key))
                        QCOMPARE(column[s.key], s.x0);
                    column[s.key] = s.x0;
                    QVERIFY(s.x1 <= 1.0f + 1e-6f);
                }
            QCOMPARE(column.size(), std::size_t(12));
            keep(overview.grab().toImage(), QStringLiteral("overview-unstacked.png"));
        }

        // Sorted by the selected event, largest first: ranks 0 (27490), 3 (27051), 2 (27029), 1 (26904).
        overview.setMode(OverviewMode::Stacked);
        state.selectEvent(m_open);
        overview.setSort(OverviewSort::SelectedEvent, true);
        overview.updateNow();
        const int expected[] = { 0, 3, 2, 1 };
        for (int i = 0; i < 4; ++i)
            QCOMPARE(overview.threadAtRow(5 + i), ThreadIndex(static_cast<std::uint32_t>(expected[i])));
        overview.setSort(OverviewSort::ThreadId, true);
        overview.updateNow();
        QCOMPARE(overview.threadAtRow(5), ThreadIndex(3u));

        // Filters: only the events passing the name filter get segments.
        overview.setSort(OverviewSort::ThreadId, false);
        state.setNameFilter(QStringLiteral("MPI_File"));
        overview.updateNow();
        QCOMPARE(overview.overviewLayout()->order, std::vector<EventId> { m_open });
        state.clearFilters();

        // Another value type changes the title; inclusive values stack as exclusive.
        state.setValueType(ValueType::Inclusive);
        overview.updateNow();
        QCOMPARE(overview.overviewLayout()->valueType, ValueType::Exclusive);
        QVERIFY(overview.barList()->title().contains(QStringLiteral("stacked instead of inclusive")));
        state.setValueType(ValueType::Calls);
        overview.updateNow();
        QCOMPARE(overview.overviewLayout()->valueType, ValueType::Calls);
        QCOMPARE(overview.overviewLayout()->rowTotals[5], 12.0); // 12 flat events, 1 call each
    }

    void overviewInBackground()
    {
        SelectionState state;
        OverviewWidget overview(&state);
        overview.setAsyncThreshold(0);
        overview.resize(800, 400);
        QSignalSpy changed(&overview, &OverviewWidget::layoutChanged);
        state.setTrial(m_cpi);
        QTRY_VERIFY(overview.overviewLayout() && overview.overviewLayout()->bars->rows.size() == 9);
        QVERIFY(!overview.isComputing());
        // A superseded job's result is dropped: only the newest layout arrives.
        overview.setMode(OverviewMode::Normalised);
        overview.setMode(OverviewMode::Unstacked);
        QTRY_VERIFY(overview.overviewLayout()->mode == OverviewMode::Unstacked && !overview.isComputing());
        overview.setMode(OverviewMode::Stacked);
        overview.updateNow();
        QCOMPARE(overview.overviewLayout()->mode, OverviewMode::Stacked);
        QVERIFY(!overview.isComputing());
    }

    void tooltipsExplainSegments()
    {
        SelectionState state;
        state.setTrial(m_cpi);
        OverviewWidget overview(&state);
        overview.resize(900, 420);
        overview.show();
        QVERIFY(QTest::qWaitForWindowExposed(&overview));
        overview.updateNow();
        BarListWidget* list = overview.barList();
        const int row = overview.rowOfThread(ThreadIndex(0u));
        const int segment = static_cast<int>(list->data()->rows[static_cast<std::size_t>(row)].firstSegment);
        const QPoint pos = list->segmentRect(row, segment).center();
        QHelpEvent help(QEvent::ToolTip, pos, list->viewport()->mapToGlobal(pos));
        QApplication::sendEvent(list->viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        const QString text = QToolTip::text();
        QVERIFY2(text.contains(QStringLiteral("MPI_File_open()")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Thread 0,0,0")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Exclusive: 27.490 ms")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("53.09 % of this bar")), qPrintable(text)); // 27490 / 51781
        QToolTip::hideText();
    }

    void darkPaletteIsReadable()
    {
        SelectionState state;
        state.setTrial(m_cpi);
        OverviewWidget overview(&state);
        const QPalette dark = test::darkPalette();
        overview.setPalette(dark);
        overview.resize(900, 420);
        const QImage image = overview.grab().toImage();
        keep(image, QStringLiteral("overview-dark.png"));
        BarListWidget* list = overview.barList();
        const QRect label = list->labelRect(overview.rowOfThread(ThreadIndex(0u)));
        // The background is dark, the label's text light.
        QCOMPARE(
            QColor(image.pixel(list->viewport()->mapTo(&overview, QPoint(2, label.center().y())))).lightness(), 0x1e);
        int light = 0;
        for (int x = label.left(); x <= label.right(); ++x)
            for (int y = label.top(); y <= label.bottom(); ++y)
                if (QColor(image.pixel(list->viewport()->mapTo(&overview, QPoint(x, y)))).lightness() > 180)
                    ++light;
        QVERIFY(light > 10);
    }

    void newTrialDropsOldIds()
    {
        SelectionState state;
        state.setTrial(m_cpi);
        OverviewWidget overview(&state);
        EventBarChart event(&state);
        ThreadBarChart thread(&state);
        state.selectEvent(m_open);
        state.selectThread(ThreadIndex(3u));
        overview.updateNow();
        event.updateNow();
        thread.updateNow();
        QVERIFY(overview.eventOfSegment(0).isValid());
        QCOMPARE(event.rowCount(), 8);
        QCOMPARE(thread.rowCount(), 12);
        const auto literal = literalTrial();
        state.setTrial(literal);
        // Until the new layout is in, nothing maps back to ids of the previous trial.
        QVERIFY(!overview.eventOfSegment(0).isValid());
        QVERIFY(!overview.threadAtRow(5).isValid());
        overview.updateNow();
        event.updateNow();
        thread.updateNow();
        QCOMPARE(overview.overviewLayout()->trial, literal);
        QCOMPARE(overview.barList()->rowCount(), 9);
        QCOMPARE(event.rowCount(), 0); // the selection was reset with the trial
        QCOMPARE(thread.rowCount(), 0);
    }

    void callPathsAreNotStackedTwice()
    {
        const auto trial = literalTrial();
        SelectionState state;
        state.setTrial(trial);
        OverviewWidget overview(&state);
        overview.updateNow();
        const auto layout = overview.overviewLayout();
        QCOMPARE(layout->order.size(), std::size_t(2));
        QCOMPARE(layout->rowTotals[5], 15.0); // main 5 + work 10 on thread 0
        QCOMPARE(layout->rowTotals[8], 8.0); // thread 3 has no work
    }

    void eventBarChart()
    {
        SelectionState state;
        state.setTrial(m_cpi);
        state.setTimeUnit(TimeUnit::Milliseconds);
        EventBarChart chart(&state);
        chart.resize(800, 360);
        chart.updateNow();
        QCOMPARE(chart.rowCount(), 0);
        state.selectEvent(m_open);
        chart.updateNow();
        QCOMPARE(chart.event(), m_open);
        QCOMPARE(chart.rowCount(), 8);
        const double expected[] = { 27490, 26904, 27029, 27051 };
        for (std::uint32_t t = 0; t < 4; ++t) {
            QCOMPARE(chart.threadValue(ThreadIndex(t)), std::optional<double>(expected[t]));
            QCOMPARE(chart.threadAt(4 + static_cast<int>(t)), ThreadIndex(t));
        }
        QCOMPARE(chart.textAt(chart.rowOfThread(ThreadIndex(0u))), QStringLiteral("27.490 ms"));
        QCOMPARE(
            chart.statisticValue(Statistic::MeanAll), std::optional<double>((27490 + 26904 + 27029 + 27051) / 4.0));
        QCOMPARE(chart.statisticValue(Statistic::Max), std::optional<double>(27490));
        QCOMPARE(chart.statisticValue(Statistic::Min), std::optional<double>(26904));
        QCOMPARE(chart.statisticAt(0), std::optional<Statistic>(Statistic::MeanAll));
        QCOMPARE(chart.statisticAt(1), std::optional<Statistic>(Statistic::Min));
        QCOMPARE(chart.statisticAt(2), std::optional<Statistic>(Statistic::Max));
        QCOMPARE(chart.statisticAt(3), std::optional<Statistic>(Statistic::StdDevAll));

        // The selectors are bound to the state.
        chart.selectorBar()->unitBox()->setCurrentIndex(0);
        Q_EMIT chart.selectorBar()->unitBox()->activated(0);
        QCOMPARE(state.timeUnit(), TimeUnit::Microseconds);
        chart.updateNow();
        // Issue 14 §3: one decimals count per list; the mean (27,118.50 µs) and std. dev. rows are
        // fractional, so every row of the list shows two decimals.
        QCOMPARE(chart.textAt(4), QStringLiteral("27,490.00 µs"));
        state.setValueType(ValueType::Calls);
        QCOMPARE(chart.selectorBar()->valueBox()->currentText(), valueTypeName(ValueType::Calls));
        chart.updateNow();
        QCOMPARE(chart.textAt(4), QStringLiteral("1"));
        state.setValueType(ValueType::Exclusive);
        state.setTimeUnit(TimeUnit::Milliseconds);

        chart.selectorBar()->setSelectorVisible(SelectorBar::MetricSelector, false);
        QVERIFY(!chart.selectorBar()->metricBox()->isVisibleTo(&chart));
        QVERIFY(chart.selectorBar()->valueBox()->isVisibleTo(&chart));

        // Sorted by value.
        chart.setSort(EventBarChart::Sort::ValueDescending);
        chart.updateNow();
        QCOMPARE(chart.threadAt(4), ThreadIndex(0u));
        QCOMPARE(chart.threadAt(7), ThreadIndex(1u));
        chart.setSort(EventBarChart::Sort::ValueAscending);
        chart.updateNow();
        QCOMPARE(chart.threadAt(4), ThreadIndex(1u));

        const QImage image = chart.grab().toImage();
        keep(image, QStringLiteral("event-window.png"));
        QCOMPARE(image.size(), QSize(800, 360));
        QVERIFY(colourCount(image) >= 4);
        BarListWidget* list = chart.barList();
        const int row = chart.rowOfThread(ThreadIndex(2u));
        const QRect bar
            = list->segmentRect(row, static_cast<int>(list->data()->rows[static_cast<std::size_t>(row)].firstSegment));
        QCOMPARE(image.pixel(list->viewport()->mapTo(&chart, bar.center())), eventColor(*m_cpi, m_open).rgb());

        QSignalSpy threads(&chart, &EventBarChart::threadActivated);
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, bar.center());
        QCOMPARE(state.thread(), ThreadIndex(2u));
        QCOMPARE(threads.size(), 1);
        QCOMPARE(list->selectedRow(), row);
    }

    void eventBarChartAbsentIsNotZero()
    {
        const auto trial = literalTrial();
        SelectionState state;
        state.setTrial(trial);
        EventBarChart chart(&state);
        chart.setPinnedEvent(trial->findEvent(QStringLiteral("work")));
        chart.updateNow();
        QCOMPARE(chart.threadValue(ThreadIndex(3u)), std::nullopt);
        QCOMPARE(chart.textAt(chart.rowOfThread(ThreadIndex(3u))), QStringLiteral("—"));
        QCOMPARE(chart.threadValue(ThreadIndex(0u)), std::optional<double>(10));
        // Absent threads sort last either way.
        chart.setSort(EventBarChart::Sort::ValueAscending);
        chart.updateNow();
        QCOMPARE(chart.threadAt(chart.rowCount() - 1), ThreadIndex(3u));
        chart.setSort(EventBarChart::Sort::ValueDescending);
        chart.updateNow();
        QCOMPARE(chart.threadAt(chart.rowCount() - 1), ThreadIndex(3u));
        // Percent is not defined on spread rows: shown as "—".
        state.setValueType(ValueType::ExclusivePercent);
        chart.updateNow();
        QCOMPARE(chart.statisticValue(Statistic::Max), std::nullopt);
        QCOMPARE(chart.textAt(1), QStringLiteral("—"));
    }

    void threadBarChart()
    {
        SelectionState state;
        state.setTrial(m_cpi);
        ThreadBarChart chart(&state);
        chart.resize(900, 360);
        chart.updateNow();
        QCOMPARE(chart.rowCount(), 0); // no thread selected yet
        state.selectThread(ThreadIndex(0u));
        chart.updateNow();
        QCOMPARE(chart.thread(), ThreadIndex(0u));
        QCOMPARE(chart.rowCount(), 12);
        QCOMPARE(chart.eventAt(0), m_open);
        QCOMPARE(chart.valueAt(0), std::optional<double>(27490));
        QCOMPARE(chart.textAt(0), QStringLiteral("27.490 ms"));
        for (int r = 0; r + 1 < chart.rowCount(); ++r)
            QVERIFY(*chart.valueAt(r) >= *chart.valueAt(r + 1));

        const QImage image = chart.grab().toImage();
        keep(image, QStringLiteral("thread-window.png"));
        QCOMPARE(image.size(), QSize(900, 360));
        QVERIFY(colourCount(image) >= 8);

        // Clicking a bar selects its event.
        BarListWidget* list = chart.barList();
        QSignalSpy events(&chart, &ThreadBarChart::eventActivated);
        const int row = 1;
        const QRect bar = list->segmentRect(row, static_cast<int>(list->data()->rows[1].firstSegment));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, bar.center());
        QCOMPARE(state.event(), chart.eventAt(1));
        QCOMPARE(events.size(), 1);
        QCOMPARE(list->selectedRow(), 1);

        // Call paths on demand; the pseudo-threads.
        chart.setShowCallPaths(true);
        chart.updateNow();
        QCOMPARE(chart.rowCount(), 23);
        chart.setShowCallPaths(false);
        chart.setStatistic(Statistic::MeanAll);
        chart.updateNow();
        QCOMPARE(chart.rowCount(), 12);
        QCOMPARE(chart.eventAt(0), m_open);
        QCOMPARE(chart.valueAt(0), std::optional<double>((27490 + 26904 + 27029 + 27051) / 4.0));
        chart.setSort(ThreadBarChart::Sort::ValueAscending);
        chart.updateNow();
        QCOMPARE(chart.eventAt(chart.rowCount() - 1), m_open);
        keep(chart.grab().toImage(), QStringLiteral("thread-window-mean.png"));
    }

    void exportsImages()
    {
        SelectionState state;
        state.setTrial(m_cpi);
        state.selectEvent(m_open);
        state.selectThread(ThreadIndex(0u));
        OverviewWidget overview(&state);
        EventBarChart event(&state);
        ThreadBarChart thread(&state);
        overview.resize(800, 400);
        event.resize(800, 400);
        thread.resize(800, 400);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const char* suffix : { "png", "svg", "pdf" }) {
            const QString base = dir.path() + QLatin1Char('/');
            const QString ext = QLatin1String(suffix);
            QCOMPARE(overview.exportImage(base + QStringLiteral("overview.") + ext), QString());
            QCOMPARE(event.exportImage(base + QStringLiteral("event.") + ext), QString());
            QCOMPARE(thread.exportImage(base + QStringLiteral("thread.") + ext), QString());
            for (const char* name : { "overview", "event", "thread" })
                QVERIFY(QFileInfo(base + QLatin1String(name) + QLatin1Char('.') + ext).size() > 500);
        }
        QImage png(dir.path() + QStringLiteral("/overview.png"));
        QVERIFY(colourCount(png) >= 8);
        QVERIFY(QFile(dir.path() + QStringLiteral("/event.svg")).open(QIODevice::ReadOnly));
    }

    void manyRowsScroll()
    {
        // 5,000 threads x 20 events: only the visible rows are painted; scrolling keeps working.
        TrialBuilder b(QStringLiteral("many"));
        b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
        std::vector<EventId> events;
        events.reserve(20);
        for (int e = 0; e < 20; ++e)
            events.push_back(b.addEvent(QStringLiteral("event %1").arg(e)));
        for (int t = 0; t < 5000; ++t) {
            const ThreadIndex ti = b.addThread({ t, 0, 0 });
            for (int e = 0; e < 20; ++e) {
                const double v[] = { 1.0 + (t * 7 + e * 13) % 50 };
                b.addInterval(ti, events[static_cast<std::size_t>(e)], 1, 0, v, v);
            }
        }
        SelectionState state;
        state.setTrial(b.build());
        OverviewWidget overview(&state);
        overview.resize(800, 500);
        overview.setDensity(false); // 5,000 threads would get density rows: this is about scrolling threads
        overview.show();
        QVERIFY(QTest::qWaitForWindowExposed(&overview));
        overview.updateNow();
        BarListWidget* list = overview.barList();
        QCOMPARE(list->rowCount(), 5005);
        QVERIFY(list->verticalScrollBar()->maximum() > 4000 * list->rowHeight());
        state.selectThread(ThreadIndex(4321u));
        const QRect rect = list->rowRect(overview.rowOfThread(ThreadIndex(4321u)));
        QVERIFY(list->viewport()->rect().contains(rect)); // scrolled to it
        QCOMPARE(list->rowAt(rect.center()), overview.rowOfThread(ThreadIndex(4321u)));
        const QImage image = overview.grab().toImage();
        QVERIFY(colourCount(image) >= 10);
        list->verticalScrollBar()->setValue(list->verticalScrollBar()->maximum());
        QCOMPARE(list->rowAt(list->rowRect(list->rowCount() - 1).center()), list->rowCount() - 1);
    }
};

QTEST_MAIN(TestOverview)
#include "tst_overview.moc"
