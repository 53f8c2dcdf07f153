// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Issue 14, sections 1 and 4 on real trials: overview rows no thread can have are gone (Min/Max rows
// are real threads, Total is a number), the imbalance columns and sorts find the most imbalanced
// routine, and "go to thread n,c,t" reaches a thread of the 16,384-thread synthetic trial without a
// combo item per thread.
#include "algebra/statistics.h"
#include "datasource/synth/synth.h"
#include "tests/common/darkpalette.h"
#include "tests/common/testutil.h"
#include "views/charts/colors.h"
#include "views/common/threadfinder.h"
#include "views/overview/barlistwidget.h"
#include "views/overview/eventbarchart.h"
#include "views/overview/eventlegend.h"
#include "views/overview/overviewwidget.h"
#include "views/overview/threadbarchart.h"
#include "views/percentbardelegate.h"
#include "views/selectionstate.h"
#include "views/statisticspanel.h"

#include <QApplication>
#include <QComboBox>
#include <QCompleter>
#include <QHeaderView>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QTreeView>
#include <cmath>
#include <cstdlib>

using namespace parallax;
using namespace parallax::test;

namespace {

const QLocale english(QLocale::English, QLocale::UnitedStates);

} // namespace

class TestHonest : public QObject {
    Q_OBJECT
private:
    std::shared_ptr<const Trial> m_workflow;
    std::shared_ptr<const Trial> m_gromacs;

private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(english);
        m_workflow = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")));
        m_gromacs = mustLoad(dataPath(QStringLiteral("tau2/ppk/gromacs-like-loadimbalance-8rank.ppk")));
        QVERIFY(m_workflow && m_gromacs);
    }

    /// The 8-rank workflow: Min and Max rows are the shortest and longest thread bars, Total is a
    /// number only (before: a Min bar of per-event minima longer than the mean and a Total bar as
    /// long as Max on a hidden scale).
    void overviewRowsAreThreads()
    {
        SelectionState state;
        state.setTrial(m_workflow);
        OverviewWidget overview(&state);
        overview.resize(1200, 600);
        overview.updateNow();
        const auto layout = overview.overviewLayout();
        QVERIFY(layout);
        const BarListData& bars = *layout->bars;
        const QStringList labels = { QStringLiteral("Mean"), QStringLiteral("Min thread"), QStringLiteral("Max thread"),
            QStringLiteral("Std. Dev."), QStringLiteral("Total") };
        QCOMPARE(bars.pinnedRows, std::size_t(5));
        for (int r = 0; r < 5; ++r)
            QCOMPARE(bars.rows[static_cast<std::size_t>(r)].label, labels[r]);
        const std::size_t threads = m_workflow->threadCount();
        QCOMPARE(threads, std::size_t(8));
        double shortest = 1e300;
        double longest = -1e300;
        std::size_t shortestThread = 0;
        std::size_t longestThread = 0;
        for (std::size_t t = 0; t < threads; ++t) {
            const double total = layout->rowTotals[static_cast<std::size_t>(layout->rowOfThread[t])];
            if (total < shortest) {
                shortest = total;
                shortestThread = t;
            }
            if (total > longest) {
                longest = total;
                longestThread = t;
            }
        }
        QCOMPARE(layout->rowTotals[1], shortest);
        QCOMPARE(layout->rowTotals[2], longest);
        QCOMPARE(layout->statisticThreads[1], ThreadIndex(shortestThread));
        QCOMPARE(layout->statisticThreads[2], ThreadIndex(longestThread));
        QCOMPARE(overview.threadOfStatisticRow(2), ThreadIndex(longestThread));
        // The Max thread row is that thread's bar, segment for segment.
        const BarRow& maxRow = bars.rows[2];
        const BarRow& threadRow = bars.rows[static_cast<std::size_t>(layout->rowOfThread[longestThread])];
        QCOMPARE(maxRow.segmentCount, threadRow.segmentCount);
        for (std::uint32_t k = 0; k < maxRow.segmentCount; ++k) {
            QCOMPARE(bars.segments[maxRow.firstSegment + k].key, bars.segments[threadRow.firstSegment + k].key);
            QCOMPARE(bars.segments[maxRow.firstSegment + k].x0, bars.segments[threadRow.firstSegment + k].x0);
            QCOMPARE(bars.segments[maxRow.firstSegment + k].x1, bars.segments[threadRow.firstSegment + k].x1);
        }
        QVERIFY(maxRow.text.contains(m_workflow->threadKey(ThreadIndex(longestThread)).toString()));
        // No row is longer than the longest thread; the mean is between the shortest and longest.
        for (const BarRow& row : bars.rows)
            QVERIFY(row.end <= maxRow.end + 1e-6f);
        QVERIFY(layout->rowTotals[0] >= shortest && layout->rowTotals[0] <= longest);
        // Std. Dev.: the segments are per event; the text also gives the deviation of the bars.
        {
            double mean = 0;
            for (std::size_t t = 0; t < threads; ++t)
                mean += layout->rowTotals[static_cast<std::size_t>(layout->rowOfThread[t])] / double(threads);
            double var = 0;
            for (std::size_t t = 0; t < threads; ++t) {
                const double d = layout->rowTotals[static_cast<std::size_t>(layout->rowOfThread[t])] - mean;
                var += d * d / double(threads);
            }
            const QString sd = english.toString(std::sqrt(var) / 1000, 'f', 3) + QStringLiteral(" ms");
            QVERIFY2(bars.rows[3].text.endsWith(QStringLiteral("of the bars ") + sd), qPrintable(bars.rows[3].text));
        }
        // Total: a number, no bar; its sum is N times the mean.
        const BarRow& total = bars.rows[4];
        QCOMPARE(total.segmentCount, 0u);
        QVERIFY(std::abs(layout->rowTotals[4] - 8 * layout->rowTotals[0]) <= 1e-9 * layout->rowTotals[4]);
        QVERIFY2(total.text.contains(QStringLiteral("number only")), qPrintable(total.text));
        QVERIFY(overview.barList()->labelRect(4).isValid());
        overview.show();
        const QString dir = qEnvironmentVariable("PARALLAX_SCREENSHOTS");
        if (!dir.isEmpty())
            overview.grab().save(dir + QStringLiteral("/overview-rows.png"));
        // Clicking the Max thread label selects that thread.
        QTest::mouseClick(
            overview.barList()->viewport(), Qt::LeftButton, {}, overview.barList()->labelRect(2).center());
        QCOMPARE(state.thread(), ThreadIndex(longestThread));
    }

    /// The statistics table's imbalance columns: sorting on "Imbalance %" puts the event with the
    /// largest (max − mean)/max first, in one click on the header.
    void imbalanceColumnsSort()
    {
        SelectionState state;
        StatisticsPanel panel(&state);
        state.setTrial(m_gromacs);
        panel.setTreeMode(false);
        QTreeView* view = panel.currentView();
        const auto stats = TrialStatistics::of(*m_gromacs);
        const MetricId m(0u);
        for (int column : { int(StatisticsModel::ImbalancePercent), int(StatisticsModel::MaxOverMean),
                 int(StatisticsModel::CoefficientOfVariation) }) {
            // The header click (sortIndicatorChanged) the user does.
            view->header()->setSortIndicator(column, Qt::DescendingOrder);
            QCOMPARE(view->header()->sortIndicatorSection(), column);
            const QModelIndex top = view->model()->index(0, 0);
            const EventId shown(view->model()->data(top, StatisticsModel::EventRole).toUInt());
            double best = -1;
            for (std::size_t e = 0; e < m_gromacs->eventCount(); ++e) {
                const Stat& s = stats->stat(EventId(e), m, ValueKind::Exclusive);
                if (s.present == 0)
                    continue;
                const double v = column == StatisticsModel::ImbalancePercent ? s.imbalance
                    : column == StatisticsModel::MaxOverMean                 ? s.maxOverMean
                                                                             : s.cv;
                best = std::max(best, v);
            }
            const Stat& s = stats->stat(shown, m, ValueKind::Exclusive);
            const double v = column == StatisticsModel::ImbalancePercent ? s.imbalance
                : column == StatisticsModel::MaxOverMean                 ? s.maxOverMean
                                                                         : s.cv;
            QCOMPARE(v, best);
            QVERIFY(best > 0);
        }
        view->header()->setSortIndicator(StatisticsModel::ImbalancePercent, Qt::DescendingOrder);
        const QString dir = qEnvironmentVariable("PARALLAX_SCREENSHOTS");
        if (!dir.isEmpty()) {
            panel.resize(1400, 700);
            panel.show();
            view->header()->setSectionHidden(StatisticsModel::ExclusivePerCall, true);
            view->header()->setSectionHidden(StatisticsModel::InclusivePerCall, true);
            view->header()->setSectionHidden(StatisticsModel::Subroutines, true);
            view->setColumnWidth(StatisticsModel::Name, 260);
            view->scrollTo(view->model()->index(0, StatisticsModel::MaxThread));
            panel.grab().save(dir + QStringLiteral("/imbalance-columns.png"));
            panel.hide();
        }
        // The cells: the max thread as n,c,t and the figures the kernel computed.
        StatisticsModel* model = panel.flatModel();
        const EventId e = m_gromacs->findEvent(QStringLiteral("MPI_Alltoall()"));
        QVERIFY(e.isValid());
        const int row = model->rowOf(e);
        const Stat& s = stats->stat(e, m, ValueKind::Exclusive);
        QCOMPARE(model->index(row, StatisticsModel::MaxThread).data().toString(),
            m_gromacs->threadKey(s.maxThread).toString());
        QCOMPARE(model->index(row, StatisticsModel::MaxOverMean).data(SortRole).toDouble(), s.maxOverMean);
        QCOMPARE(model->index(row, StatisticsModel::ImbalancePercent).data(SortRole).toDouble(), 100 * s.imbalance);
        QVERIFY(model->index(row, StatisticsModel::ImbalancePercent)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("on thread %1").arg(m_gromacs->threadKey(s.maxThread).toString())));
        QCOMPARE(model->headerData(StatisticsModel::ImbalancePercent, Qt::Horizontal).toString(),
            QStringLiteral("Imbalance %"));
    }

    /// "Lost time" (max − mean) sorts the routine costing the most waiting first, and breaks the ties
    /// of the Imbalance % sort: on the 16-rank WRF run 315 of its 1,139 routines tie (those that ran on
    /// one rank have 93.75 %); sorted by event id alone, 34 neighbours were in the wrong order.
    void lostTimeColumnAndTieBreak()
    {
        const auto wrf = mustLoad(dataPath(QStringLiteral("tau2/ppk/wrf-callpath-16rank.ppk")));
        QVERIFY(wrf);
        const std::vector<std::shared_ptr<const Trial>> trials { wrf, m_gromacs };
        for (const std::shared_ptr<const Trial>& trial : trials) {
            SelectionState state;
            StatisticsPanel panel(&state);
            state.setTrial(trial);
            panel.setTreeMode(false);
            QTreeView* view = panel.currentView();
            const auto stats = TrialStatistics::of(*trial);
            const MetricId m(0u);
            StatisticsModel* model = panel.flatModel();
            QCOMPARE(model->headerData(StatisticsModel::LostTime, Qt::Horizontal).toString(),
                QStringLiteral("Lost time (ms)"));
            // Sorting by Lost time: the largest max − mean first.
            view->header()->setSortIndicator(StatisticsModel::LostTime, Qt::DescendingOrder);
            double best = 0;
            for (std::size_t e = 0; e < trial->eventCount(); ++e)
                if (model->rowOf(EventId(e)) >= 0)
                    best = std::max(best, stats->stat(EventId(e), m, ValueKind::Exclusive).lostTime());
            const EventId top(view->model()->index(0, 0).data(StatisticsModel::EventRole).toUInt());
            const Stat& t = stats->stat(top, m, ValueKind::Exclusive);
            QCOMPARE(t.lostTime(), best);
            QCOMPARE(t.lostTime(), t.max - t.meanAll);
            QVERIFY(best > 0);
            // The cell in ms, as the header says.
            QCOMPARE(view->model()->index(0, StatisticsModel::LostTime).data(SortRole).toDouble(), best);
            // Imbalance %: equal ratios are ordered by lost time, largest first.
            view->header()->setSortIndicator(StatisticsModel::ImbalancePercent, Qt::DescendingOrder);
            int ties = 0;
            for (int r = 1; r < view->model()->rowCount(); ++r) {
                const QModelIndex prev = view->model()->index(r - 1, StatisticsModel::ImbalancePercent);
                const QModelIndex cur = view->model()->index(r, StatisticsModel::ImbalancePercent);
                if (prev.data(SortRole).toDouble() != cur.data(SortRole).toDouble())
                    continue;
                const double a = view->model()->index(r - 1, StatisticsModel::LostTime).data(SortRole).toDouble();
                const double b = view->model()->index(r, StatisticsModel::LostTime).data(SortRole).toDouble();
                QVERIFY2(a >= b,
                    qPrintable(QStringLiteral("%1: row %2 lost %3 before %4").arg(trial->name()).arg(r).arg(a).arg(b)));
                ties += a > b ? 1 : 0;
            }
            qInfo("%s: %d ties of Imbalance %% broken by lost time", qPrintable(trial->name()), ties);
            if (trial == wrf)
                QVERIFY(ties > 30);
        }
    }

    /// The event window states the event's imbalance; the overview's Imbalance sort puts the most
    /// imbalanced event (largest max − mean) first in every bar and orders the threads by it.
    void eventWindowAndOverviewSort()
    {
        SelectionState state;
        state.setTrial(m_gromacs);
        const auto stats = TrialStatistics::of(*m_gromacs);
        const MetricId m(0u);
        OverviewWidget overview(&state);
        overview.resize(1200, 600);
        overview.setSort(OverviewSort::Imbalance, true);
        overview.updateNow();
        const auto layout = overview.overviewLayout();
        QVERIFY(layout && layout->imbalanceEvent.isValid());
        const EventId worst = layout->imbalanceEvent;
        double best = -1;
        for (EventId e : layout->order) {
            const Stat& s = stats->stat(e, m, ValueKind::Exclusive);
            best = std::max(best, s.lostTime());
        }
        const Stat& w = stats->stat(worst, m, ValueKind::Exclusive);
        QCOMPARE(w.lostTime(), best);
        // The sort's tooltip names its definition: the statistics table's Lost time column.
        bool named = false;
        for (QComboBox* box : overview.findChildren<QComboBox*>())
            for (int i = 0; i < box->count(); ++i)
                named = named
                    || (box->itemText(i) == QStringLiteral("Imbalance")
                        && box->itemData(i, Qt::ToolTipRole).toString().startsWith(QStringLiteral("By lost time")));
        QVERIFY(named);
        QCOMPARE(layout->order.front(), worst);
        QVERIFY(overview.barList()->title().contains(m_gromacs->event(worst).name));
        // Threads ordered by the worst event's value, largest first: the max thread leads.
        QCOMPARE(overview.threadAtRow(int(layout->statistics.size())), w.maxThread);

        EventBarChart chart(&state);
        state.selectEvent(worst);
        chart.updateNow();
        const QString text = chart.imbalanceText();
        QVERIFY2(text.contains(english.toString(w.maxOverMean, 'f', 2))
                && text.contains(m_gromacs->threadKey(w.maxThread).toString()),
            qPrintable(text));
        QVERIFY(chart.barList()->title().contains(text));
    }

    /// The thread finder reads n,c,t (or n) and refuses what the trial does not have.
    void threadFinderParses()
    {
        const ThreadIndex t = m_workflow->findThread({ 5, 0, 0 });
        QCOMPARE(ThreadFinder::parse(*m_workflow, QStringLiteral("5,0,0")), std::optional<ThreadIndex>(t));
        QCOMPARE(ThreadFinder::parse(*m_workflow, QStringLiteral(" 5 , 0 , 0 ")), std::optional<ThreadIndex>(t));
        QCOMPARE(ThreadFinder::parse(*m_workflow, QStringLiteral("5")), std::optional<ThreadIndex>(t));
        QCOMPARE(ThreadFinder::parse(*m_workflow, QStringLiteral("8,0,0")), std::nullopt);
        QCOMPARE(ThreadFinder::parse(*m_workflow, QStringLiteral("five")), std::nullopt);
    }

    /// 16,384 threads: the Show selector has no item per thread, and typing "12075,0,0" + Enter in
    /// the finder of the statistics panel, the overview and the thread window reaches that thread.
    void goToThreadAt16K()
    {
        SynthOptions options;
        options.threads = 16384;
        options.events = 20;
        options.userEvents = 0;
        const std::shared_ptr<const Trial> big = synthesizeTrial(options);
        QCOMPARE(big->threadCount(), std::size_t(16384));
        const ThreadIndex target = big->findThread({ 12075, 0, 0 });
        QVERIFY(target.isValid());

        SelectionState state;
        StatisticsPanel panel(&state);
        state.setTrial(big);
        QVERIFY(panel.modeCombo()->count() < 16);
        QCOMPARE(panel.threadFinder()->threadCompleter()->model()->rowCount(), 16384);
        panel.show();
        QTest::keyClicks(panel.threadFinder(), QStringLiteral("12075,0,0"));
        QTest::keyClick(panel.threadFinder(), Qt::Key_Return);
        QCOMPARE(panel.flatModel()->rowMode(), RowMode::Thread);
        QCOMPARE(panel.flatModel()->thread(), target);
        QVERIFY(panel.modeCombo()->currentText().startsWith(QStringLiteral("Thread")));
        const QString dir = qEnvironmentVariable("PARALLAX_SCREENSHOTS");
        if (!dir.isEmpty()) {
            panel.resize(1200, 400);
            panel.grab().save(dir + QStringLiteral("/goto-thread-statistics.png"));
        }
        panel.hide();

        OverviewWidget overview(&state);
        overview.resize(1200, 500);
        overview.show();
        overview.updateNow();
        state.selectThread(ThreadIndex(0u));
        QTest::keyClicks(overview.threadFinder(), QStringLiteral("12075,0,0"));
        QTest::keyClick(overview.threadFinder(), Qt::Key_Return);
        QCOMPARE(state.thread(), target);
        overview.updateNow();
        QCOMPARE(overview.barList()->selectedRow(), overview.rowOfThread(target));
        if (!dir.isEmpty()) {
            overview.grab().save(dir + QStringLiteral("/goto-thread-overview.png"));
        }

        ThreadBarChart window(&state);
        state.selectThread(ThreadIndex(1u));
        auto* finder = window.findChild<ThreadFinder*>();
        QVERIFY(finder);
        QTest::keyClicks(finder, QStringLiteral("12075"));
        QTest::keyClick(finder, Qt::Key_Return);
        QCOMPARE(state.thread(), target);
        QCOMPARE(window.thread(), target);
    }

    /// The overview's colour legend: the 15 largest events of the mean bar with their colours, the
    /// other 598 of the 613 in one "other" line; clicking an entry selects the event.
    void legendListsTopEvents()
    {
        SelectionState state;
        state.setTrial(m_gromacs);
        OverviewWidget overview(&state);
        overview.resize(1200, 600);
        overview.updateNow();
        const auto layout = overview.overviewLayout();
        EventLegend* legend = overview.legend();
        QCOMPARE(legend->listedCount(), 15);
        QCOMPARE(legend->otherCount(), int(layout->order.size()) - 15);
        QVERIFY(legend->item(15)->text().contains(QStringLiteral("other (%1 events)").arg(legend->otherCount())));
        // The first entry is the event of the largest mean, in its bar colour.
        const EventId first = layout->order.front();
        QVERIFY(legend->item(0)->text().endsWith(m_gromacs->event(first).name));
        const QImage icon = legend->item(0)->icon().pixmap(14, 14).toImage();
        QCOMPARE(icon.pixelColor(7, 7).rgb(), QColor(layout->bars->color(first.index())).rgb());
        QTest::mouseClick(legend->viewport(), Qt::LeftButton, {}, legend->visualItemRect(legend->item(1)).center());
        QCOMPARE(state.event(), layout->order[1]);
    }

    /// A dark palette: percent bars are seen on the dark base and keep the text readable; the
    /// warnings link is not Qt's default blue on dark grey.
    void darkPaletteContrast()
    {
        const QPalette dark = test::darkPalette();
        const QColor bar = PercentBarDelegate::barColor(dark, false);
        QVERIFY2(std::abs(bar.lightness() - 0x1e) >= 40, qPrintable(bar.name()));
        QVERIFY(std::abs(bar.lightness() - 0xee) >= 100);
        const QColor selected = PercentBarDelegate::barColor(dark, true);
        QVERIFY(std::abs(selected.lightness() - dark.color(QPalette::Highlight).lightness()) >= 15);
        QVERIFY(std::abs(selected.lightness() - 0xff) >= 100);
        // Drawn: a 54 % bar of .TAU application in the statistics table is that colour.
        SelectionState state;
        StatisticsPanel panel(&state);
        panel.setPalette(dark);
        state.setTrial(m_workflow);
        panel.resize(1400, 500);
        panel.show();
        QTreeView* view = panel.currentView();
        view->header()->setSortIndicator(StatisticsModel::ExclusivePercent, Qt::DescendingOrder);
        const QImage image = panel.grab().toImage();
        const QString dir = qEnvironmentVariable("PARALLAX_SCREENSHOTS");
        if (!dir.isEmpty())
            image.save(dir + QStringLiteral("/statistics-dark.png"));
        const QRect cell = view->visualRect(view->model()->index(0, StatisticsModel::ExclusivePercent));
        const double percent = view->model()->index(0, StatisticsModel::ExclusivePercent).data(SortRole).toDouble();
        QVERIFY(percent > 20);
        const QPoint inside = view->viewport()->mapTo(&panel, QPoint(cell.left() + 4, cell.top() + 3));
        QCOMPARE(image.pixelColor(inside).rgb(), bar.rgb());
        // The link of the warnings label.
        const QColor link = readableLinkColor(dark);
        QVERIFY(std::abs(link.lightness() - 0x2b) >= 100);
        QPalette light;
        light.setColor(QPalette::Window, QColor(0xef, 0xef, 0xef));
        light.setColor(QPalette::Link, QColor(0x00, 0x00, 0xff));
        QCOMPARE(readableLinkColor(light), QColor(0x00, 0x00, 0xff)); // already readable: kept
    }
};

QTEST_MAIN(TestHonest)
#include "tst_honest.moc"
