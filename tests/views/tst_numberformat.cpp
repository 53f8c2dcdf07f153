// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Issue 14, section 3 ("one number format") on real trials: every value column (the statistics
// table, the call tree, the event and thread windows, the comparison and the semantic tables)
// chooses one decimals count from its values, so that small values keep their significant digits
// (never "0.000" for 0.4 µs in ms) and a column never mixes 0.000944 with 0.012; the semantic
// matrix's value axis has round ticks; signed changes read "+0.03 %", never "-0.0 %"; thread
// labels never carry digit grouping, even at 16,384 threads.
#include "algebra/semanticbuiltin.h"
#include "algebra/statistics.h"
#include "algebra/units.h"
#include "datasource/synth/synth.h"
#include "tests/common/semantictest.h"
#include "tests/common/testutil.h"
#include "views/callgraph/calltreemodel.h"
#include "views/common/threadfinder.h"
#include "views/common/valueformatter.h"
#include "views/comparison/comparisonmodel.h"
#include "views/comparison/comparisonwindow.h"
#include "views/overview/barlistwidget.h"
#include "views/overview/eventbarchart.h"
#include "views/overview/overviewwidget.h"
#include "views/overview/threadbarchart.h"
#include "views/selectionstate.h"
#include "views/semantic/semanticcomparisonmodel.h"
#include "views/semantic/semanticmatrixview.h"
#include "views/semantic/semanticprofilemodel.h"
#include "views/statisticsmodel.h"
#include "views/statisticspanel.h"
#include "views/viewsetup.h"

#include <QApplication>
#include <QCompleter>
#include <QRegularExpression>
#include <QTest>
#include <algorithm>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

const QLocale english(QLocale::English, QLocale::UnitedStates);

/// The OpenMP + sampling trial of 24 threads: its mean columns hold values far below a
/// microsecond beside seconds (a sample on one thread of 24).
QString sampledTrialPath() { return dataPath(QStringLiteral("tau2/ppk/matmult-heatmap.ppk")); }

/// The number of a cell's text: digit grouping, a leading "≈" or "+" and a trailing unit dropped.
double parseCell(QString text)
{
    text.remove(QLatin1Char(','));
    text.remove(QStringLiteral("≈"));
    text = text.trimmed();
    const qsizetype space = text.indexOf(QLatin1Char(' '));
    if (space > 0)
        text = text.left(space);
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok ? v : std::nan("");
}

/// Digits after the decimal point of a cell's number.
int decimalsOf(QString text)
{
    text = text.trimmed();
    const qsizetype space = text.indexOf(QLatin1Char(' '));
    if (space > 0)
        text = text.left(space);
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    return dot < 0 ? 0 : static_cast<int>(text.size() - dot - 1);
}

/// A column as shown: the cells' texts and their values in the unit shown (ms for time).
struct Column {
    QStringList texts;
    std::vector<double> values;
};

/// One decimals count for the whole column, and every non-zero value of at least a nanosecond
/// (0.000001 ms, the finest the format shows) reads back with 2 significant digits or exactly
/// (relative error at most 5 %). Returns the smallest non-zero value, so that the caller can
/// assert the column has a value the former three decimals showed as 0.000.
double checkColumn(const Column& c, const char* where)
{
    double smallest = 0;
    int decimals = -1;
    for (qsizetype i = 0; i < c.texts.size(); ++i) {
        const QString& text = c.texts[i];
        const double v = c.values[static_cast<std::size_t>(i)];
        if (text.isEmpty() || text == QStringLiteral("—") || !std::isfinite(v))
            continue;
        if (decimals < 0)
            decimals = decimalsOf(text);
        if (decimalsOf(text) != decimals)
            qFatal("%s: '%s' has %d decimals, the column %d", where, qPrintable(text), decimalsOf(text), decimals);
        if (v == 0 || std::fabs(v) < 5e-7)
            continue;
        smallest = smallest == 0 ? std::fabs(v) : std::min(smallest, std::fabs(v));
        const double shown = parseCell(text);
        // Down to 10 ns two significant digits; below, at least not zero.
        const bool ok = std::fabs(v) >= 1e-5 ? std::fabs(shown - v) <= 0.05 * std::fabs(v) : shown != 0;
        if (!ok)
            qFatal("%s: %.9g shows as '%s'", where, v, qPrintable(text));
    }
    return smallest;
}

/// Display texts and raw values (SortRole, µs) of a column of a tree or table, all rows.
void collect(const QAbstractItemModel& model, int column, const QModelIndex& parent, Column* out, double scale)
{
    for (int r = 0; r < model.rowCount(parent); ++r) {
        const QModelIndex index = model.index(r, column, parent);
        out->texts << index.data().toString();
        const QVariant raw = index.data(SortRole);
        out->values.push_back(raw.isValid() ? raw.toDouble() * scale : std::nan(""));
        const QModelIndex first = model.index(r, 0, parent);
        if (model.rowCount(first) > 0)
            collect(model, column, first, out, scale);
    }
}

} // namespace

class TestNumberFormat : public QObject {
    Q_OBJECT
private:
    std::shared_ptr<const Trial> m_sampled;
    std::shared_ptr<const Trial> m_workflow;

private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(english);
        m_sampled = mustLoad(sampledTrialPath());
        m_workflow = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")));
        QVERIFY(m_sampled && m_workflow);
        QCOMPARE(m_sampled->threadCount(), std::size_t(24));
    }

    /// The rule itself: one decimals count, the fewest from three on at which each value keeps
    /// 2 significant digits or is exact (1 µs stays 0.001 ms).
    void columnDecimalsRule()
    {
        QCOMPARE(columnDecimals({ 0.944, 0.57, 12 }, true, TimeUnit::Milliseconds), 5);
        QCOMPARE(formatMetricValue(
                     0.57, Metric(QStringLiteral("TIME"), QStringLiteral("us")), TimeUnit::Milliseconds, english, 5),
            QStringLiteral("0.00057"));
        // 1 µs is exactly 0.001 ms; 0.5 µs needs a fourth decimal (0.0005), 0.1234 µs a fifth.
        QCOMPARE(columnDecimals({ 1, 17983, 27118.5 }, true, TimeUnit::Milliseconds), 3);
        QCOMPARE(columnDecimals({ 0.5, 17983 }, true, TimeUnit::Milliseconds), 4);
        QCOMPARE(columnDecimals({ 0.1234, 5 }, true, TimeUnit::Milliseconds), 5);
        QCOMPARE(columnDecimals({ 0, 0 }, true, TimeUnit::Milliseconds), 3);
        QCOMPARE(columnDecimals({ 17983, 2 }, true, TimeUnit::Microseconds), 0);
        QCOMPARE(columnDecimals({ 0.25, 2 }, true, TimeUnit::Microseconds), 2);
        // At most a nanosecond in ms; what is finer is not considered.
        QCOMPARE(columnDecimals({ 0.0012, 5 }, true, TimeUnit::Milliseconds), 6);
        QCOMPARE(columnDecimals({ 1e-7, 5 }, true, TimeUnit::Milliseconds), 3);
        // Rounding noise of a difference (1e-9 of the largest) does not widen the column.
        QCOMPARE(columnDecimals({ 1e-11, 5e6 }, true, TimeUnit::Milliseconds), 3);
        QCOMPARE(columnDecimals({ 3.5e9, 0.25 }, false, TimeUnit::Milliseconds), 2);
        QCOMPARE(columnDecimals({}, true, TimeUnit::HoursMinutesSeconds), -1);
    }

    /// The statistics table in its default mode (mean over all threads): the sampled trial's
    /// exclusive, inclusive and per-call columns keep the digits of their sub-microsecond means.
    void statisticsTable()
    {
        StatisticsModel model(m_sampled, MetricId(0u), RowMode::MeanAll);
        double tiny = 1;
        for (int column : { int(StatisticsModel::Exclusive), int(StatisticsModel::Inclusive),
                 int(StatisticsModel::ExclusivePerCall), int(StatisticsModel::Calls) }) {
            Column c;
            collect(model, column, {}, &c, column == StatisticsModel::Calls ? 1.0 : 1e-3);
            QVERIFY(!c.texts.isEmpty());
            const double smallest = checkColumn(c, "statistics table");
            if (column == StatisticsModel::Exclusive)
                tiny = smallest;
        }
        // A mean exclusive time the former format showed as 0.000 ms.
        QVERIFY2(tiny > 0 && tiny < 0.0005, qPrintable(QString::number(tiny)));
    }

    /// The call tree of the statistics panel, every node, mean over the cpi trial's 4 ranks: one
    /// decimals count per column, 2 significant digits. (Neither cpi's nor the sampled trial's
    /// tree holds a mean the former format lost digits of; the table above bites.)
    void callTree()
    {
        const auto cpi = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(cpi);
        CallTreeModel model;
        model.setTrial(cpi, MetricId(0u));
        model.setStatistic(Statistic::MeanAll);
        for (int column : { int(CallTreeModel::Value), int(CallTreeModel::Exclusive) }) {
            Column c;
            collect(model, column, {}, &c, 1e-3);
            QVERIFY(c.texts.size() > 10);
            QVERIFY(checkColumn(c, "call tree") > 0);
        }
    }

    /// The event window's bars (threads and statistics of one event) and the thread window's bars
    /// (the events of one thread) share one decimals count per list.
    void eventAndThreadWindows()
    {
        SelectionState state;
        state.setTrial(m_sampled);
        const auto stats = TrialStatistics::of(*m_sampled);
        // The event with the smallest non-zero mean exclusive time: its own bars are small.
        EventId smallestEvent;
        double smallestMean = 0;
        for (std::size_t e = 0; e < m_sampled->eventCount(); ++e) {
            const double mean = stats->stat(EventId(e), MetricId(0u), ValueKind::Exclusive).meanAll;
            if (mean > 0 && (smallestMean == 0 || mean < smallestMean)) {
                smallestMean = mean;
                smallestEvent = EventId(e);
            }
        }
        QVERIFY(smallestEvent.isValid());
        EventBarChart chart(&state);
        state.selectEvent(smallestEvent);
        chart.updateNow();
        Column bars;
        for (int row = 0; row < chart.rowCount(); ++row) {
            bars.texts << chart.barList()->data()->rows[static_cast<std::size_t>(row)].text;
            const std::optional<double> v = chart.valueAt(row);
            bars.values.push_back(v ? *v * 1e-3 : std::nan(""));
        }
        const double eventSmallest = checkColumn(bars, "event window");
        QVERIFY2(eventSmallest > 0 && eventSmallest < 0.0005, qPrintable(QString::number(eventSmallest)));

        // The thread with the smallest non-zero exclusive value of any event.
        ThreadIndex thread;
        double least = 0;
        for (std::size_t t = 0; t < m_sampled->threadCount(); ++t) {
            const RowView cells = m_sampled->row(ThreadIndex(t));
            for (std::size_t i = 0; i < cells.size(); ++i) {
                const double v = cells.exclusive(0, i);
                if (v > 0 && (least == 0 || v < least)) {
                    least = v;
                    thread = ThreadIndex(t);
                }
            }
        }
        QVERIFY(thread.isValid());
        ThreadBarChart window(&state);
        state.selectThread(thread);
        window.updateNow();
        Column events;
        for (int row = 0; row < window.rowCount(); ++row) {
            events.texts << window.barList()->data()->rows[static_cast<std::size_t>(row)].text;
            const std::optional<double> v = window.valueAt(row);
            events.values.push_back(v ? *v * 1e-3 : std::nan(""));
        }
        QVERIFY(checkColumn(events, "thread window") > 0);
    }

    /// The comparison table (A, B, Δ columns) of the sampled trial against itself: A's mean
    /// values far below a microsecond keep their digits; Δ is 0 throughout.
    void comparisonTable()
    {
        auto w = std::make_unique<ComparisonWindow>(m_sampled, m_sampled, AlgebraOptions {});
        w->waitForResult();
        QVERIFY(w->errorMessage().isEmpty());
        ComparisonModel* model = w->model();
        QVERIFY(model->rowCount() > 10);
        for (int column : { int(ComparisonModel::ValueA), int(ComparisonModel::ValueB) }) {
            Column c;
            collect(*model, column, {}, &c, 1e-3);
            const double smallest = checkColumn(c, "comparison table");
            QVERIFY2(smallest > 0 && smallest < 0.0005, qPrintable(QString::number(smallest)));
        }
        Column delta;
        collect(*model, ComparisonModel::Delta, {}, &delta, 1e-3);
        QCOMPARE(checkColumn(delta, "comparison Δ"), 0.0);
    }

    /// The semantic Profile tab with the built-in "group" model: Value and Own columns.
    void semanticProfileTable()
    {
        const auto built = semantic::makeBuiltinModel(QStringLiteral("group"), *m_sampled);
        QVERIFY(built);
        const auto profile = attributeOrDie(*built, m_sampled);
        SemanticProfileModel model;
        model.setProfile(profile);
        model.setMetric(MetricId(0u));
        // Calls too: TAU_DEFAULT's 0.042 calls per thread read 0.0 beside 246.2 before.
        for (int column :
            { int(SemanticProfileModel::Value), int(SemanticProfileModel::Own), int(SemanticProfileModel::Calls) }) {
            const double scale = column == SemanticProfileModel::Calls ? 1.0 : 1e-3;
            Column c;
            std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
                for (int r = 0; r < model.rowCount(parent); ++r) {
                    const QModelIndex index = model.index(r, column, parent);
                    c.texts << index.data().toString();
                    c.values.push_back(model.number(index) * scale);
                    walk(model.index(r, 0, parent));
                }
            };
            walk({});
            QVERIFY(c.texts.size() > 3);
            const double smallest = checkColumn(c, "semantic profile");
            // TAU_DEFAULT's mean 4.458 µs: 0.004 in three decimals, one significant digit.
            if (column == SemanticProfileModel::Value)
                QVERIFY2(smallest > 0 && smallest < 0.005, qPrintable(QString::number(smallest)));
        }
    }

    /// The semantic matrix's value axis: round ticks in the display unit, as many decimals as the
    /// step needs (the former axis drew max/4, max/2 ... as 62,623.672).
    void semanticMatrixAxis()
    {
        const auto built = semantic::makeBuiltinModel(QStringLiteral("layer"), *m_workflow);
        QVERIFY(built);
        SemanticMatrixView view;
        view.resize(900, 500);
        view.setProfile(attributeOrDie(*built, m_workflow));
        view.setMetric(m_workflow->findMetric(QStringLiteral("TIME")));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const double max = view.valueMaximum();
        QVERIFY(max > 0);
        const auto [ticks, labels] = view.valueAxis();
        QVERIFY2(ticks.size() >= 3, qPrintable(QString::number(ticks.size())));
        const double step = (ticks[1] - ticks[0]) * 1e-3; // in ms
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
        QVERIFY2(std::fabs(mantissa - std::round(mantissa * 2) / 2) < 1e-9, qPrintable(QString::number(step)));
        for (qsizetype i = 0; i < ticks.size(); ++i) {
            QVERIFY(ticks[i] >= 0 && ticks[i] <= max * (1 + 1e-9));
            QCOMPARE(parseCell(labels[i]), ticks[i] * 1e-3);
            // Whole steps of a millisecond or more: no decimals at all.
            if (step >= 1)
                QVERIFY2(!labels[i].contains(QLatin1Char('.')), qPrintable(labels[i]));
        }
        // The same function at 100 % for the normalized view.
        const auto normalized = semanticMatrixTicks(max, std::nullopt, TimeUnit::Milliseconds, true);
        QCOMPARE(normalized.second.last(), QStringLiteral("100 %"));
    }

    /// A semantic comparison's Δ%: a change of 0.03 % keeps its sign and digits; one rounding to
    /// zero reads "0.0 %", never "-0.0 %" (the values: a real entity's mean time).
    void signedPercent()
    {
        const auto built = semantic::makeBuiltinModel(QStringLiteral("layer"), *m_workflow);
        QVERIFY(built);
        const auto profile = attributeOrDie(*built, m_workflow);
        const double a = profile->scoped(
            profile->roots().front(), MetricId(0u), semantic::Quantity::Roll, semantic::Scope::mean());
        QVERIFY(a > 0);
        QCOMPARE(SemanticComparisonModel::deltaPercentText(a, a * (1 - 0.0003), english), QStringLiteral("+0.03 %"));
        QCOMPARE(SemanticComparisonModel::deltaPercentText(a, a * (1 + 0.00001), english), QStringLiteral("0.0 %"));
        QCOMPARE(SemanticComparisonModel::deltaPercentText(a, a * 1.25, english), QStringLiteral("-25.0 %"));
    }

    /// 16,384 threads: thread labels are "12075,0,0" in the finder's completer, the overview's rows,
    /// the event window's rows and the statistics table's max-thread column, never "12,075,0,0".
    void threadLabelsWithoutGrouping()
    {
        SynthOptions options;
        options.threads = 16384;
        options.events = 20;
        options.userEvents = 0;
        const std::shared_ptr<const Trial> big = synthesizeTrial(options);
        const QRegularExpression label(QStringLiteral("^\\d+,\\d+,\\d+$"));
        SelectionState state;
        StatisticsPanel panel(&state);
        state.setTrial(big);
        QAbstractItemModel* completions = panel.threadFinder()->threadCompleter()->model();
        QCOMPARE(completions->rowCount(), 16384);
        QCOMPARE(completions->index(12075, 0).data().toString(), QStringLiteral("12075,0,0"));
        for (int r = 0; r < completions->rowCount(); ++r)
            QVERIFY(label.match(completions->index(r, 0).data().toString()).hasMatch());

        OverviewWidget overview(&state);
        overview.resize(1200, 500);
        overview.updateNow();
        int threadRows = 0;
        for (const BarRow& row : overview.barList()->data()->rows)
            if (row.kind == BarRowKind::Item) {
                QVERIFY2(label.match(row.label).hasMatch(), qPrintable(row.label));
                ++threadRows;
            }
        QCOMPARE(threadRows, 16384);

        EventBarChart chart(&state);
        state.selectEvent(EventId(0u));
        chart.updateNow();
        for (const BarRow& row : chart.barList()->data()->rows)
            if (row.kind == BarRowKind::Item)
                QVERIFY2(label.match(row.label).hasMatch(), qPrintable(row.label));

        StatisticsModel model(big, MetricId(0u), RowMode::MeanAll);
        for (int r = 0; r < model.rowCount(); ++r) {
            const QString text = model.index(r, StatisticsModel::MaxThread).data().toString();
            QVERIFY2(label.match(text).hasMatch(), qPrintable(text));
        }
    }
};

QTEST_MAIN(TestNumberFormat)
#include "tst_numberformat.moc"
