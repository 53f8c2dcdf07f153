// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The comparison views of issue 5 on real data: ranks 0 and 1 of the cpi trial as two runs (A =
// baseline rank 0, B = candidate rank 1), and the ring benchmark at 2 and 8 ranks for scaling.
#include "algebra/statistics.h"
#include "algebra/verdict.h"
#include "datasource/model/trialbuilder.h"
#include "tests/common/imagecheck.h"
#include "tests/common/testutil.h"
#include "views/callgraph/callgraphnodeitem.h"
#include "views/callgraph/callgraphwidget.h"
#include "views/charts/qcustomplotwrapper.h"
#include "views/charts/valueaxisticker.h"
#include "views/comparison/comparisonbuilder.h"
#include "views/comparison/comparisonflamepage.h"
#include "views/comparison/comparisonformat.h"
#include "views/comparison/comparisonmodel.h"
#include "views/comparison/comparisonsummarywidget.h"
#include "views/comparison/comparisontreemodel.h"
#include "views/comparison/comparisonwindow.h"
#include "views/comparison/scalingbuilder.h"
#include "views/comparison/scalingview.h"
#include "views/comparison/sidebysideview.h"
#include "views/comparison/signeddifferenceview.h"
#include "views/flame/sandwichwidget.h"
#include "views/overview/barlistwidget.h"
#include "views/selectionstate.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>
#include <cmath>
#include <map>

using namespace parallax;
using parallax::test::colourCount;

namespace {

const QString cpiPath() { return test::dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")); }

std::shared_ptr<const Trial> cpi()
{
    static const std::shared_ptr<const Trial> trial = test::mustLoad(cpiPath());
    return trial;
}

/// One rank of a trial as a run of its own, with one thread keyed `key`. Events named in `drop` are
/// left out; `extra` adds an event (exclusive = inclusive = 1234 µs, 1 call) that only this run has.
std::shared_ptr<const Trial> singleRank(const Trial& source, int node, ThreadKey key, const QString& name,
    const QStringList& drop = {}, const QString& extra = {})
{
    TrialBuilder b(name);
    for (const Metric& m : source.metrics())
        b.addMetric(m);
    const ThreadIndex t = b.addThread(key);
    const ThreadIndex from = source.findThread({ node, 0, 0 });
    const RowView row = source.row(from);
    std::map<std::uint32_t, EventId> ids;
    for (std::size_t e = 0; e < source.eventCount(); ++e) {
        const IntervalEvent& event = source.event(EventId(e));
        QStringList groups;
        for (GroupId g : event.groups)
            groups << source.groupName(g);
        // Call paths whose components were dropped go too.
        bool dropped = false;
        for (const QString& d : drop)
            dropped = dropped || event.name == d || event.name.endsWith(QStringLiteral(" => ") + d)
                || event.name.contains(d + QStringLiteral(" => "));
        if (!dropped)
            ids[static_cast<std::uint32_t>(e)] = b.addEvent(event.name, groups);
    }
    const std::size_t metrics = source.metricCount();
    for (std::size_t i = 0; i < row.size(); ++i) {
        const auto it = ids.find(row.events[i].index());
        if (it == ids.end())
            continue;
        std::vector<double> excl(metrics), incl(metrics);
        for (std::size_t m = 0; m < metrics; ++m) {
            excl[m] = row.exclusive(m, i);
            incl[m] = row.inclusive(m, i);
        }
        b.addInterval(t, it->second, row.calls[i], row.subrs[i], excl, incl);
    }
    if (!extra.isEmpty()) {
        const EventId e = b.addEvent(extra, { QStringLiteral("TAU_USER") });
        std::vector<double> v(metrics, 1234.0);
        b.addInterval(t, e, 1, 0, v, v);
    }
    for (const MetadataEntry& entry : source.metadata())
        b.addMetadata(source.strings().get(entry.key), source.strings().get(entry.value));
    for (const MetadataEntry& entry : source.threadMetadata(from))
        b.addMetadata(source.strings().get(entry.key), source.strings().get(entry.value));
    return b.build();
}

double exclusiveOf(const Trial& trial, const QString& event)
{
    const EventId e = trial.findEvent(event);
    const auto i = trial.row(ThreadIndex(0u)).find(e);
    return i < 0 ? 0.0 : trial.row(ThreadIndex(0u)).exclusive(0, static_cast<std::size_t>(i));
}

double inclusiveOf(const Trial& trial, const QString& event)
{
    const EventId e = trial.findEvent(event);
    const auto i = trial.row(ThreadIndex(0u)).find(e);
    return i < 0 ? 0.0 : trial.row(ThreadIndex(0u)).inclusive(0, static_cast<std::size_t>(i));
}

double exclusiveOfThread(const Trial& trial, std::size_t thread, const QString& event)
{
    const EventId e = trial.findEvent(event);
    const auto i = trial.row(ThreadIndex(thread)).find(e);
    return i < 0 ? 0.0 : trial.row(ThreadIndex(thread)).exclusive(0, static_cast<std::size_t>(i));
}

/// A ready comparison window of rank 0 (A) and rank 1 (B).
std::unique_ptr<ComparisonWindow> window(
    std::shared_ptr<const Trial> a, std::shared_ptr<const Trial> b, const AlgebraOptions& options = {})
{
    auto w = std::make_unique<ComparisonWindow>(std::move(a), std::move(b), options);
    w->waitForResult();
    return w;
}

QString nameAt(const ComparisonModel& model, int row)
{
    return model.index(row, ComparisonModel::Name).data().toString();
}

} // namespace

class TestComparison : public QObject {
    Q_OBJECT

    std::shared_ptr<const Trial> m_a;
    std::shared_ptr<const Trial> m_b;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(cpi());
        m_a = singleRank(*cpi(), 0, { 0, 0, 0 }, QStringLiteral("cpi-rank0"));
        m_b = singleRank(*cpi(), 1, { 0, 0, 0 }, QStringLiteral("cpi-rank1"));
        QVERIFY(m_a->eventCount() > 10);
    }

    void relativeDifference()
    {
        // docs/SEMANTICS.md 4.6: A = 10, B = 8 gives Δ% = +20 %.
        QCOMPARE(RelativeDifference::of(10, 8).percent, 20.0);
        QCOMPARE(RelativeDifference::of(10, 8).kind, RelativeDifference::Value);
        QCOMPARE(RelativeDifference::of(0, 5).kind, RelativeDifference::New);
        QCOMPARE(RelativeDifference::of(5, 0).kind, RelativeDifference::Removed);
        QCOMPARE(RelativeDifference::of(5, 0).percent, 100.0);
        QCOMPARE(RelativeDifference::of(0, 0).kind, RelativeDifference::Blank);
        const QLocale english(QLocale::English, QLocale::UnitedStates);
        QCOMPARE(RelativeDifference::of(10, 8).text(english), QStringLiteral("+20.0 %"));
        QCOMPARE(RelativeDifference::of(8, 10).text(english), QStringLiteral("-25.0 %"));
    }

    void sideBySideNumbersAreTheRuns()
    {
        auto w = window(m_a, m_b);
        QVERIFY(w->errorMessage().isEmpty());
        ComparisonModel* model = w->model();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model->value(), CompareValue::Exclusive);
        QVERIFY(!model->includeCallPaths());
        // Every flat event of the cpi ranks ran in both.
        int flat = 0;
        for (const IntervalEvent& event : m_a->events())
            flat += event.isCallPath() ? 0 : 1;
        QCOMPARE(model->rowCount(), flat);
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString name = nameAt(*model, row);
            const double a = exclusiveOf(*m_a, name);
            const double b = exclusiveOf(*m_b, name);
            // One thread each: the mean over threads is the cell itself, exactly.
            QCOMPARE(model->index(row, ComparisonModel::ValueA).data(SortRole).toDouble(), a);
            QCOMPARE(model->index(row, ComparisonModel::ValueB).data(SortRole).toDouble(), b);
            const double delta = model->index(row, ComparisonModel::Delta).data(SortRole).toDouble();
            QCOMPARE(delta, a - b);
            QCOMPARE(model->index(row, ComparisonModel::Marker).data().toString(), QString());
        }
        // The golden cpi numbers: MPI_Init() excl 17983 µs on rank 0 and 21441 on rank 1.
        const int init = model->rowOf(w->snapshot()->findEvent(QStringLiteral("MPI_Init()")));
        QVERIFY(init >= 0);
        QCOMPARE(model->index(init, ComparisonModel::ValueA).data().toString(), QStringLiteral("17.983"));
        QCOMPARE(model->index(init, ComparisonModel::ValueB).data().toString(), QStringLiteral("21.441"));
        QCOMPARE(model->index(init, ComparisonModel::Delta).data().toString(), QStringLiteral("-3.458"));
        QCOMPARE(model->index(init, ComparisonModel::DeltaPercent).data().toString(), QStringLiteral("-19.2 %"));
        QVERIFY(model->index(init, ComparisonModel::Delta)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("regression")));

        // Inclusive, and call paths.
        w->setValue(CompareValue::Inclusive);
        w->setIncludeCallPaths(true);
        QCOMPARE(model->rowCount(), static_cast<int>(m_a->eventCount()));
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString name = nameAt(*model, row);
            QCOMPARE(model->index(row, ComparisonModel::ValueA).data(SortRole).toDouble(), inclusiveOf(*m_a, name));
            QCOMPARE(model->index(row, ComparisonModel::Delta).data(SortRole).toDouble(),
                inclusiveOf(*m_a, name) - inclusiveOf(*m_b, name));
        }
        // Calls.
        w->setValue(CompareValue::Calls);
        const int reduce = model->rowOf(w->snapshot()->findEvent(QStringLiteral("MPI_Reduce()")));
        QCOMPARE(model->index(reduce, ComparisonModel::ValueA).data(SortRole).toDouble(), 1.0);
    }

    void totalAndMeanOverThreads()
    {
        // The whole 4-rank trial against rank 0 alone (a subset): mean = total / N of each run.
        auto w = window(cpi(), m_a);
        QVERIFY(w->errorMessage().isEmpty());
        ComparisonModel* model = w->model();
        const auto stats = TrialStatistics::of(*cpi());
        const EventId open = cpi()->findEvent(QStringLiteral("MPI_File_open()"));
        const int row = model->rowOf(w->snapshot()->findEvent(QStringLiteral("MPI_File_open()")));
        QCOMPARE(model->index(row, ComparisonModel::ValueA).data(SortRole).toDouble(), 27118.5); // docs/SEMANTICS.md 2
        QCOMPARE(model->index(row, ComparisonModel::ValueA).data(SortRole).toDouble(),
            stats->stat(open, MetricId(0u), ValueKind::Exclusive).meanAll);
        QCOMPARE(model->index(row, ComparisonModel::ValueB).data(SortRole).toDouble(), 27490.0);
        w->setSource(CompareSource::Total);
        QCOMPARE(model->index(row, ComparisonModel::ValueA).data(SortRole).toDouble(), 108474.0);
        QCOMPARE(model->index(row, ComparisonModel::Delta).data(SortRole).toDouble(), 108474.0 - 27490.0);
        // One thread: (2,0,0) only exists in A.
        w->setSource(CompareSource::Thread, 2);
        w->waitForResult();
        QCOMPARE(w->values()->query.source, CompareSource::Thread);
        QCOMPARE(w->snapshot()->threads[2], (ThreadKey { 2, 0, 0 }));
        const int r2 = model->rowOf(w->snapshot()->findEvent(QStringLiteral("MPI_File_open()")));
        QCOMPARE(model->index(r2, ComparisonModel::ValueA).data(SortRole).toDouble(), 27029.0);
        QCOMPARE(model->index(r2, ComparisonModel::ValueB).data().toString(), QStringLiteral("—"));
        QCOMPARE(model->index(r2, ComparisonModel::Marker).data().toString(), QStringLiteral("◀ only A"));
        QCOMPARE(model->index(r2, ComparisonModel::DeltaPercent).data().toString(), QStringLiteral("removed"));
    }

    void sortOrders()
    {
        auto w = window(m_a, m_b);
        SideBySideView* view = w->sideBySideView();
        ComparisonModel* model = w->model();
        auto entry = [&](int event) { return w->values()->entries[static_cast<std::size_t>(event)]; };
        auto checkDescending = [&](auto key) {
            const auto events = view->shownEvents();
            QCOMPARE(static_cast<int>(events.size()), model->rowCount());
            for (std::size_t i = 1; i < events.size(); ++i)
                QVERIFY2(key(events[i - 1]) >= key(events[i]), qPrintable(QString::number(i)));
        };
        QCOMPARE(view->sort(), SideBySideView::Sort::Magnitude);
        checkDescending([&](int e) { return std::fabs(entry(e).delta(CompareValue::Exclusive)); });
        view->setSort(SideBySideView::Sort::ValueA);
        checkDescending([&](int e) { return entry(e).valueA(CompareValue::Exclusive); });
        view->setSort(SideBySideView::Sort::ValueB);
        checkDescending([&](int e) { return entry(e).valueB(CompareValue::Exclusive); });
        view->setSort(SideBySideView::Sort::Delta);
        checkDescending([&](int e) { return entry(e).delta(CompareValue::Exclusive); });
        view->setSort(SideBySideView::Sort::RelativeDelta);
        checkDescending([&](int e) { return entry(e).relative(CompareValue::Exclusive).percent; });
        // The largest |Δ| of cpi rank 0 vs 1 is MPI_Init (−3.458 ms); the largest Δ MPI_File_open.
        view->setSort(SideBySideView::Sort::Magnitude);
        QCOMPARE(w->snapshot()->events[static_cast<std::size_t>(view->shownEvents().front())].name,
            QStringLiteral("MPI_Init()"));
        view->setSort(SideBySideView::Sort::Delta);
        QCOMPARE(w->snapshot()->events[static_cast<std::size_t>(view->shownEvents().front())].name,
            QStringLiteral("MPI_File_open()"));
        // Ascending by name.
        view->setSort(SideBySideView::Sort::Name, Qt::AscendingOrder);
        const auto events = view->shownEvents();
        for (std::size_t i = 1; i < events.size(); ++i)
            QVERIFY(w->snapshot()->events[events[i - 1]].name.compare(
                        w->snapshot()->events[events[i]].name, Qt::CaseInsensitive)
                <= 0);
    }

    // Issue 14: the verdict first, its noise, Δ% colours, the sort indicator and the headers, on the
    // DrawGraph ring at 2 and 4 ranks. Hand computation from the per-rank main inclusive times
    // MANIFEST.md lists: T_A = (2150087 + 2145468) / 2 = 2,147,777.5 µs, T_B = (2055200 + 2054506 +
    // 2046988 + 2053087) / 4 = 2,052,445.25 µs, S = 1.0464; the ranks' standard errors (2,309.5 µs
    // and 1,871.5 µs) give a noise of ± 5,945 µs, far below the 95,332 µs difference.
    void verdictAndChangeColours()
    {
        const auto a = test::mustLoad(test::dataPath(QStringLiteral("tau2/ppk-drawgraph-scaling/2.ppk")));
        const auto b = test::mustLoad(test::dataPath(QStringLiteral("tau2/ppk-drawgraph-scaling/4.ppk")));
        QVERIFY(a && b);
        auto w = window(a, b);
        QVERIFY(w->errorMessage().isEmpty());
        const QString verdict = w->verdictText();
        QVERIFY2(verdict.contains(QStringLiteral("B is 1.05× faster than A: the difference 95.332 ms exceeds the "
                                                 "run-to-run noise")),
            qPrintable(verdict));
        QVERIFY2(verdict.contains(QStringLiteral("2,147.778 ms / 2,052.445 ms")), qPrintable(verdict));
        QVERIFY2(verdict.contains(QStringLiteral("mean over threads")), qPrintable(verdict));
        QVERIFY2(verdict.contains(QStringLiteral("positive = B faster than A")), qPrintable(verdict));
        const SpeedupVerdict v = speedupVerdict(
            std::vector<std::shared_ptr<const Trial>> { a }, std::vector<std::shared_ptr<const Trial>> { b });
        QVERIFY(std::abs(v.speedUp - 2147777.5 / 2052445.25) < 1e-9);
        QVERIFY(std::abs(v.noise - 5945) < 25);
        QVERIFY(v.exceedsNoise());
        // A run against itself: no difference, within noise.
        auto same = window(a, a);
        QVERIFY2(same->verdictText().contains(QStringLiteral("within noise")), qPrintable(same->verdictText()));

        // Δ% colours: MPI_Barrier went from 0.035 ms to 13.289 ms (−37,868.6 %): the deepest red,
        // whatever MPI_Init's larger absolute Δ; MPI_Init's +9.5 % a light blue.
        ComparisonModel* model = w->model();
        auto row = [&](const QString& name) {
            for (int r = 0; r < model->rowCount(); ++r)
                if (nameAt(*model, r) == name)
                    return r;
            return -1;
        };
        const int barrier = row(QStringLiteral("MPI_Barrier()"));
        const int init = row(QStringLiteral("MPI_Init()"));
        QVERIFY(barrier >= 0 && init >= 0);
        QCOMPARE(model->index(barrier, ComparisonModel::DeltaPercent).data().toString(), QStringLiteral("-37,868.6 %"));
        const QColor deep
            = model->index(barrier, ComparisonModel::DeltaPercent).data(Qt::BackgroundRole).value<QBrush>().color();
        QCOMPARE(deep, changeTint(-1.0));
        // Saturated, not pale: the full regression hue, with white text on it.
        QCOMPARE(deep, regressionColor());
        QCOMPARE(model->index(barrier, ComparisonModel::DeltaPercent).data(Qt::ForegroundRole).value<QBrush>().color(),
            QColor(Qt::white));
        QCOMPARE(model->index(barrier, ComparisonModel::Delta).data(Qt::BackgroundRole).value<QBrush>().color(), deep);
        const double initPercent = model->entryAt(init).relative(CompareValue::Exclusive).percent;
        const QColor light
            = model->index(init, ComparisonModel::DeltaPercent).data(Qt::BackgroundRole).value<QBrush>().color();
        QCOMPARE(light, changeTint(initPercent / 100));
        QVERIFY(qGray(light.rgb()) > qGray(deep.rgb()) + 60); // +9.5 % is light
        QCOMPARE(model->index(init, ComparisonModel::DeltaPercent).data(Qt::ForegroundRole).value<QBrush>().color(),
            QColor(0x20, 0x20, 0x20));

        // "Colour by: Δ": MPI_Init's +108.6 ms (the largest |Δ|) is the deepest blue, MPI_Barrier's
        // −13.3 ms a light red; the toolbar's combo switches every tab, and back.
        QCOMPARE(model->colourBy(), ColourBy::Percent);
        QComboBox* byBox = nullptr;
        for (QComboBox* c : w->findChildren<QComboBox*>())
            if (c->toolTip().startsWith(QStringLiteral("What the colour intensity")))
                byBox = c;
        QVERIFY(byBox);
        QCOMPARE(byBox->count(), 2);
        QSignalSpy chosen(w.get(), &ComparisonWindow::colourByChanged);
        byBox->setCurrentIndex(1);
        Q_EMIT byBox->activated(1);
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(model->colourBy(), ColourBy::Delta);
        QCOMPARE(w->treeModel()->colourBy(), ColourBy::Delta);
        bool legendSays = false;
        for (QLabel* l : w->sideBySideView()->findChildren<QLabel*>())
            legendSays = legendSays || l->text().contains(QStringLiteral("intensity = |Δ| of the largest"));
        QVERIFY(legendSays);
        const double initDelta = model->entryAt(init).delta(CompareValue::Exclusive);
        QCOMPARE(std::fabs(initDelta), model->maximumDelta());
        QCOMPARE(model->index(init, ComparisonModel::Delta).data(Qt::BackgroundRole).value<QBrush>().color(),
            changeTint(1.0));
        const double barrierDelta = model->entryAt(barrier).delta(CompareValue::Exclusive);
        const QColor byDelta
            = model->index(barrier, ComparisonModel::DeltaPercent).data(Qt::BackgroundRole).value<QBrush>().color();
        QCOMPARE(byDelta, changeTint(barrierDelta / model->maximumDelta()));
        QVERIFY(byDelta != deep);
        QVERIFY(qGray(byDelta.rgb()) > qGray(deep.rgb()) + 60);
        w->setColourBy(ColourBy::Percent);
        QCOMPARE(byBox->currentIndex(), 0);
        QCOMPARE(model->index(barrier, ComparisonModel::DeltaPercent).data(Qt::BackgroundRole).value<QBrush>().color(),
            deep);
        QCOMPARE(colourByFromKey(colourByKey(ColourBy::Delta)), ColourBy::Delta);
        QCOMPARE(colourByFromKey(QStringLiteral("nonsense")), ColourBy::Percent);
        // No "-0.0 %" and no "-0.000" anywhere in the table.
        for (int r = 0; r < model->rowCount(); ++r)
            for (int c : { ComparisonModel::ValueA, ComparisonModel::ValueB, ComparisonModel::Delta,
                     ComparisonModel::DeltaPercent }) {
                const QString text = model->index(r, c).data().toString();
                QVERIFY2(
                    !QRegularExpression(QStringLiteral("^[+-]0[.,]0+( %)?$")).match(text).hasMatch(), qPrintable(text));
            }

        // Headers in words, and the sign convention in the Δ tooltips.
        QCOMPARE(
            model->headerData(ComparisonModel::ValueA, Qt::Horizontal).toString(), QStringLiteral("A (baseline) (ms)"));
        QCOMPARE(
            model->headerData(ComparisonModel::DeltaPercent, Qt::Horizontal).toString(), QStringLiteral("Δ % of A"));
        QVERIFY(model->headerData(ComparisonModel::DeltaPercent, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("Positive: B faster than A")));
        // Sorted by |Δ|, which has no column: no header shows a sort indicator; by Δ, the Δ column does.
        SideBySideView* view = w->sideBySideView();
        QCOMPARE(view->sort(), SideBySideView::Sort::Magnitude);
        QVERIFY(!view->view()->header()->isSortIndicatorShown());
        view->setSort(SideBySideView::Sort::RelativeDelta);
        QVERIFY(view->view()->header()->isSortIndicatorShown());
        QCOMPARE(view->view()->header()->sortIndicatorSection(), int(ComparisonModel::DeltaPercent));
        // "◀ only A" and a signed seven-digit Δ fit their columns.
        const QFontMetrics fm(view->view()->font());
        QVERIFY(view->view()->header()->sectionSize(ComparisonModel::Marker)
            >= fm.horizontalAdvance(QStringLiteral("◀ only A")));
        QVERIFY(view->view()->header()->sectionSize(ComparisonModel::Delta)
            >= fm.horizontalAdvance(QStringLiteral("-293,654.123")));
    }

    // Issue 14: round axis ticks without needless decimals, counters with one SI prefix.
    void axisTickLabels()
    {
        auto words = [](std::initializer_list<const char*> list) {
            QStringList out;
            for (const char* w : list)
                out << QString::fromUtf8(w);
            return out;
        };
        ValueAxisTicker ticker;
        const QLocale en(QLocale::English, QLocale::UnitedStates);
        ticker.setMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")), TimeUnit::Milliseconds);
        QCOMPARE(ticker.labels({ 0, 5e6, 1e7, 1.5e7, 2e7, 2.5e7 }, en),
            words({ "0", "5,000", "10,000", "15,000", "20,000", "25,000" }));
        QCOMPARE(ticker.labels({ 1.0475e6, 1.05e6, 1.0525e6 }, en), words({ "1,047.5", "1,050.0", "1,052.5" }));
        ticker.setMetric(Metric(QStringLiteral("PAPI_FP_INS"), QStringLiteral("count")), TimeUnit::Milliseconds);
        QCOMPARE(ticker.labels({ 0, 1e11, 2e11, 3e11 }, en), words({ "0", "100 G", "200 G", "300 G" }));
        QCOMPARE(ticker.labels({ 0, 2.5e8, 5e8 }, en), words({ "0", "250 M", "500 M" }));
        QCOMPARE(ticker.labels({ 0, 0.25, 0.5 }, en), words({ "0.00", "0.25", "0.50" }));

        // QCustomPlot's own ticks over the real spread of MPI_Init on the 8-rank ring (1,048 to
        // 1,068 ms; the histogram there read "1,050.000"): whole milliseconds, no ".000".
        const auto ring = test::mustLoad(test::dataPath(QStringLiteral("tau2/ppk/ring-8rank.ppk")));
        QVERIFY(ring);
        double lo = 1e300;
        double hi = -1e300;
        for (std::size_t t = 0; t < ring->threadCount(); ++t) {
            const double v = exclusiveOfThread(*ring, t, QStringLiteral("MPI_Init()"));
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        QVERIFY(hi > lo && lo > 1e6);
        QCustomPlot plot;
        plot.setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
        plot.resize(1200, 300);
        auto axisTicker = QSharedPointer<ValueAxisTicker>::create();
        axisTicker->setMetric(ring->metric(MetricId(0u)), TimeUnit::Milliseconds);
        plot.xAxis->setTicker(axisTicker);
        plot.xAxis->setRange(lo, hi);
        plot.replot();
        const QVector<QString> labels = plot.xAxis->tickVectorLabels();
        QVERIFY(labels.size() >= 3);
        for (const QString& label : labels)
            QVERIFY2(QRegularExpression(QStringLiteral("^1,0[4-7]\\d$")).match(label).hasMatch(), qPrintable(label));
    }

    void minimumDifferenceFilter()
    {
        auto w = window(m_a, m_b);
        ComparisonModel* model = w->model();
        const int all = model->rowCount();
        auto expected = [&](auto pass) {
            int n = 0;
            for (std::size_t k = 0; k < w->snapshot()->events.size(); ++k)
                if (!w->snapshot()->events[k].isCallPath() && pass(w->values()->entries[k]))
                    ++n;
            return n;
        };
        // 0.1 ms absolute (the display unit is ms): |Δ| >= 100 µs.
        w->setMinimumDifference(0.1, false);
        QCOMPARE(model->minimumDifference(), 100.0);
        QVERIFY(model->rowCount() < all);
        QCOMPARE(model->rowCount(),
            expected([](const ComparisonEntry& e) { return std::fabs(e.delta(CompareValue::Exclusive)) >= 100.0; }));
        for (int row = 0; row < model->rowCount(); ++row)
            QVERIFY(std::fabs(model->index(row, ComparisonModel::Delta).data(SortRole).toDouble()) >= 100.0);
        QCOMPARE(model->unfilteredRowCount(), all);
        // 10 % relative.
        w->setMinimumDifference(10, true);
        QCOMPARE(model->rowCount(), expected([](const ComparisonEntry& e) {
            return std::fabs(e.relative(CompareValue::Exclusive).percent) >= 10.0;
        }));
        for (int row = 0; row < model->rowCount(); ++row)
            QVERIFY(std::fabs(model->index(row, ComparisonModel::DeltaPercent).data(SortRole).toDouble()) >= 10.0);
        // The signed view and the summary follow the filter.
        QCOMPARE(static_cast<int>(w->signedDifferenceView()->shownEvents().size()), model->rowCount());
        w->setMinimumDifference(0, false);
        QCOMPARE(model->rowCount(), all);
    }

    void presenceMarkers()
    {
        // B lost MPI_Reduce() (and its call path) and gained new_kernel().
        auto b = singleRank(*cpi(), 1, { 0, 0, 0 }, QStringLiteral("cpi-rank1-changed"),
            { QStringLiteral("MPI_Reduce()") }, QStringLiteral("new_kernel()"));
        auto w = window(m_a, b);
        QVERIFY(w->errorMessage().isEmpty());
        ComparisonModel* model = w->model();
        const auto& snapshot = *w->snapshot();
        const int reduce = snapshot.findEvent(QStringLiteral("MPI_Reduce()"));
        const int added = snapshot.findEvent(QStringLiteral("new_kernel()"));
        QVERIFY(reduce >= 0 && added >= 0);
        QCOMPARE(snapshot.events[static_cast<std::size_t>(reduce)].marker, Presence::Marker::LeftOnly);
        QCOMPARE(snapshot.events[static_cast<std::size_t>(added)].marker, Presence::Marker::RightOnly);
        const int both = snapshot.findEvent(QStringLiteral("MPI_Init()"));
        QCOMPARE(snapshot.events[static_cast<std::size_t>(both)].marker, Presence::Marker::All);

        const int r = model->rowOf(reduce);
        QCOMPARE(model->index(r, ComparisonModel::Marker).data().toString(), QStringLiteral("◀ only A"));
        QCOMPARE(model->index(r, ComparisonModel::ValueB).data().toString(), QStringLiteral("—"));
        QCOMPARE(model->index(r, ComparisonModel::Delta).data(SortRole).toDouble(),
            exclusiveOf(*m_a, QStringLiteral("MPI_Reduce()")));
        QCOMPARE(model->index(r, ComparisonModel::DeltaPercent).data().toString(), QStringLiteral("removed"));
        const int n = model->rowOf(added);
        QCOMPARE(model->index(n, ComparisonModel::Marker).data().toString(), QStringLiteral("▶ only B"));
        QCOMPARE(model->index(n, ComparisonModel::ValueA).data().toString(), QStringLiteral("—"));
        QCOMPARE(model->index(n, ComparisonModel::Delta).data(SortRole).toDouble(), -1234.0);
        QCOMPARE(model->index(n, ComparisonModel::DeltaPercent).data().toString(), QStringLiteral("new"));
        QVERIFY(model->index(n, ComparisonModel::DeltaPercent).data(SortRole).toDouble() < -1e300);

        // The signed view marks them before the name; the tree too.
        const auto& rows = w->signedDifferenceView()->barList()->data()->rows;
        bool left = false;
        bool right = false;
        for (const BarRow& row : rows) {
            left = left || row.label == QStringLiteral("◀ MPI_Reduce()");
            right = right || row.label == QStringLiteral("▶ new_kernel()");
        }
        QVERIFY(left && right);
        // (The tree is built from call paths; a flat-only event such as new_kernel() has no node.)
        const QModelIndex node
            = w->treeModel()->indexOfEvent(snapshot.findEvent(QStringLiteral(".TAU application => MPI_Reduce()")));
        QVERIFY(node.isValid());
        QCOMPARE(node.siblingAtColumn(ComparisonTreeModel::Marker).data().toString(), QStringLiteral("◀ only A"));
        QCOMPARE(node.siblingAtColumn(ComparisonTreeModel::InclusiveB).data().toString(), QStringLiteral("—"));
    }

    void signedDifference()
    {
        auto w = window(m_a, m_b);
        SignedDifferenceView* view = w->signedDifferenceView();
        const auto& events = view->shownEvents();
        QCOMPARE(static_cast<int>(events.size()), w->model()->rowCount());
        for (std::size_t i = 1; i < events.size(); ++i)
            QVERIFY(w->values()->entries[events[i - 1]].delta(CompareValue::Exclusive)
                >= w->values()->entries[events[i]].delta(CompareValue::Exclusive));
        // docs/SEMANTICS.md 4.6: Δ = A − B > 0 (right) means the candidate got cheaper: an improvement.
        QVERIFY(view->rightLegend().contains(QStringLiteral("B faster than A (improvement)")));
        QVERIFY(view->leftLegend().contains(QStringLiteral("B slower than A (regression)")));
        // Bars grow from the origin: right for positive Δ, left for negative.
        const auto& data = *view->barList()->data();
        for (std::size_t i = 0; i < data.rows.size(); ++i) {
            const double delta = w->values()->entries[events[i]].delta(CompareValue::Exclusive);
            const BarSegment& s = data.segments[data.rows[i].firstSegment];
            QCOMPARE(s.x0, data.origin);
            if (delta > 0)
                QVERIFY(s.x1 > data.origin);
            if (delta < 0)
                QVERIFY(s.x1 < data.origin);
            // Blue for improvements, red for regressions.
            const QColor c = QColor::fromRgb(data.color(s.key));
            if (delta > 0)
                QVERIFY(c.blue() > c.red());
            if (delta < 0)
                QVERIFY(c.red() > c.blue());
        }
        // The most negative Δ (MPI_Init) is the last bar.
        QCOMPARE(w->snapshot()->events[static_cast<std::size_t>(events.back())].name, QStringLiteral("MPI_Init()"));
    }

    void statisticsTree()
    {
        auto w = window(m_a, m_b);
        ComparisonTreeModel* model = w->treeModel();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QString path = QStringLiteral(".TAU application => MPI_Init()");
        const QModelIndex index = model->indexOfEvent(w->snapshot()->findEvent(path));
        QVERIFY(index.isValid());
        QCOMPARE(index.data().toString(), QStringLiteral("MPI_Init()"));
        QCOMPARE(index.parent().data().toString(), QStringLiteral(".TAU application"));
        auto value = [&](int column) { return index.siblingAtColumn(column).data(SortRole).toDouble(); };
        QCOMPARE(value(ComparisonTreeModel::InclusiveA), inclusiveOf(*m_a, path));
        QCOMPARE(value(ComparisonTreeModel::InclusiveB), inclusiveOf(*m_b, path));
        QCOMPARE(value(ComparisonTreeModel::InclusiveDelta), inclusiveOf(*m_a, path) - inclusiveOf(*m_b, path));
        QCOMPARE(value(ComparisonTreeModel::ExclusiveDelta), exclusiveOf(*m_a, path) - exclusiveOf(*m_b, path));
        QCOMPARE(
            index.siblingAtColumn(ComparisonTreeModel::InclusivePercent).data().toString(), QStringLiteral("-19.2 %"));
        // A regression is tinted red.
        const QColor tint = index.siblingAtColumn(ComparisonTreeModel::InclusiveDelta)
                                .data(Qt::BackgroundRole)
                                .value<QBrush>()
                                .color();
        QVERIFY(tint.red() > tint.blue());
        // The root's inclusive Δ is the difference of the runs' totals: 51,781 − 55,329 µs.
        const QModelIndex root = model->index(0, 0);
        QCOMPARE(root.data().toString(), QStringLiteral(".TAU application"));
        QCOMPARE(root.siblingAtColumn(ComparisonTreeModel::InclusiveDelta).data(SortRole).toDouble(),
            inclusiveOf(*m_a, QStringLiteral(".TAU application"))
                - inclusiveOf(*m_b, QStringLiteral(".TAU application")));
        // The metric switch reaches the tree.
        w->setTimeUnit(TimeUnit::Microseconds);
        QCOMPARE(root.siblingAtColumn(ComparisonTreeModel::InclusiveA).data().toString(), QStringLiteral("51,781"));
    }

    void summary()
    {
        auto w = window(m_a, m_b);
        ComparisonSummaryWidget* s = w->summary();
        // Differing metadata keys, computed independently.
        QStringList expected;
        std::map<QString, QString> a, b;
        for (const MetadataEntry& e : m_a->metadata())
            a[m_a->strings().get(e.key)] = m_a->strings().get(e.value);
        for (const MetadataEntry& e : m_b->metadata())
            b[m_b->strings().get(e.key)] = m_b->strings().get(e.value);
        std::map<QString, bool> keys;
        for (const auto& [k, v] : a)
            keys[k] = !b.count(k) || b[k] != v;
        for (const auto& [k, v] : b)
            keys[k] = !a.count(k) || a[k] != v;
        for (const auto& [k, differs] : keys)
            if (differs)
                expected << k;
        QVERIFY(!expected.isEmpty());
        QCOMPARE(s->differingMetadataKeys(), expected);
        QVERIFY(expected.contains(QStringLiteral("Timestamp")));
        // The highlighted rows are those.
        const QAbstractItemModel* meta = s->metadataView()->model();
        int highlighted = 0;
        for (int row = 0; row < meta->rowCount(); ++row)
            highlighted += meta->index(row, 0).data(Qt::BackgroundRole).isValid() ? 1 : 0;
        QCOMPARE(highlighted, static_cast<int>(expected.size()));

        // Speed-up: T = the largest inclusive value on any thread (51,781 vs 55,329 µs).
        QCOMPARE(s->speedUp(), 51781.0 / 55329.0);

        // Top lists: the largest improvements are the largest positive Δ, regressions the most negative.
        std::vector<std::pair<double, QString>> deltas;
        for (const IntervalEvent& event : m_a->events())
            if (!event.isCallPath())
                deltas.emplace_back(exclusiveOf(*m_a, event.name) - exclusiveOf(*m_b, event.name), event.name);
        std::sort(deltas.begin(), deltas.end());
        QStringList regressions, improvements;
        for (const auto& [d, name] : deltas)
            if (d < 0 && regressions.size() < ComparisonSummaryWidget::TopCount)
                regressions << name;
        for (auto it = deltas.rbegin(); it != deltas.rend(); ++it)
            if (it->first > 0 && improvements.size() < ComparisonSummaryWidget::TopCount)
                improvements << it->second;
        auto names = [&](const std::vector<int>& events) {
            QStringList list;
            for (int e : events)
                list << w->snapshot()->events[static_cast<std::size_t>(e)].name;
            return list;
        };
        QCOMPARE(names(s->topImprovements()), improvements);
        QCOMPARE(names(s->topRegressions()), regressions);
        QCOMPARE(regressions.front(), QStringLiteral("MPI_Init()"));
        QCOMPARE(improvements.front(), QStringLiteral("MPI_File_open()"));
    }

    void identity()
    {
        // diff(X, X): every Δ is 0 and every marker is "both".
        auto w = window(cpi(), cpi());
        ComparisonModel* model = w->model();
        w->setIncludeCallPaths(true);
        QCOMPARE(model->rowCount(), static_cast<int>(cpi()->eventCount()));
        for (int row = 0; row < model->rowCount(); ++row) {
            QCOMPARE(model->index(row, ComparisonModel::Delta).data(SortRole).toDouble(), 0.0);
            QCOMPARE(model->index(row, ComparisonModel::Marker).data().toString(), QString());
        }
        QVERIFY(w->summary()->topImprovements().empty());
        QCOMPARE(w->summary()->speedUp(), 1.0);
    }

    void threadPolicies()
    {
        // Rank 0 as (0,0,0) and rank 1 as (1,0,0): disjoint sets, refused by default.
        auto b = singleRank(*cpi(), 1, { 1, 0, 0 }, QStringLiteral("cpi-rank1-as-1"));
        auto w = window(m_a, b);
        QVERIFY(w->errorMessage().contains(QStringLiteral("disjoint")));
        QVERIFY(!w->snapshot()->ok());
        QCOMPARE(w->model()->rowCount(), 0);
        QSignalSpy computed(w.get(), &ComparisonWindow::computed);
        AlgebraOptions options;
        options.threads = ThreadPolicy::MapByOrder;
        w->setOptions(options);
        w->waitForResult();
        QCOMPARE(computed.count(), 1);
        QVERIFY(w->errorMessage().isEmpty());
        const int init = w->model()->rowOf(w->snapshot()->findEvent(QStringLiteral("MPI_Init()")));
        QCOMPARE(w->model()->index(init, ComparisonModel::Delta).data(SortRole).toDouble(), 17983.0 - 21441.0);
        // One thread under MAP_BY_ORDER: B's (1,0,0) is paired with A's (0,0,0).
        w->setSource(CompareSource::Thread, 0);
        w->waitForResult();
        QCOMPARE(w->model()->index(init, ComparisonModel::ValueB).data(SortRole).toDouble(), 21441.0);
    }

    void callGraphByChange()
    {
        auto w = window(m_a, m_b);
        w->resize(1200, 800);
        QSignalSpy layout(w->callGraph(), &CallGraphWidget::layoutFinished);
        w->setCurrentTab(ComparisonWindow::Tab::CallGraph);
        w->waitForResult();
        QVERIFY(layout.wait(20000));
        QCOMPARE(w->callGraph()->colorMode(), CallGraphWidget::ColorMode::Change);
        if (!w->callGraph()->message().isEmpty())
            QSKIP("Graphviz dot is not installed");
        CallGraphNodeItem* init = w->callGraph()->nodeItem(QStringLiteral("MPI_Init()"));
        CallGraphNodeItem* open = w->callGraph()->nodeItem(QStringLiteral("MPI_File_open()"));
        QVERIFY(init && open);
        // MPI_Init got slower (a regression, red); MPI_File_open faster (an improvement, blue).
        QVERIFY(init->fill().red() > init->fill().blue());
        QVERIFY(open->fill().blue() > open->fill().red());
    }

    void flameGraphLinksStacksAndSandwiches()
    {
        auto w = window(m_a, m_b);
        w->resize(1200, 800);
        w->setCurrentTab(ComparisonWindow::Tab::Flame);
        w->flamePage()->updateNow();
        FlameGraphWidget* f = w->flameGraph();
        QVERIFY(f->diffTree());
        QCOMPARE(f->diffTree()->width(), FlameWidth::Max);
        // The toolbar's "Colour by" drives the flame's colour scale.
        w->setColourBy(ColourBy::Delta);
        QCOMPARE(f->changeScale(), FlameGraphWidget::ChangeScale::Delta);
        w->setColourBy(ColourBy::Percent);
        QCOMPARE(f->changeScale(), FlameGraphWidget::ChangeScale::Percent);

        // Clicking a call path's frame shows it in the other tabs.
        const FlameTree& t = f->diffTree()->tree();
        int frame = -1;
        for (std::size_t i = 0; i < f->flameLayout().frames.size() && frame < 0; ++i) {
            const FlameFrame& fr = f->flameLayout().frames[i];
            if (fr.node >= 0 && t.node(fr.node).depth == 1 && t.node(fr.node).name == QStringLiteral("MPI_Init()"))
                frame = static_cast<int>(i);
        }
        QVERIFY(frame >= 0);
        const int node = f->flameLayout().frames[std::size_t(frame)].node;
        const QStringList path = t.path(node);
        QTest::mouseClick(f->canvas(), Qt::LeftButton, {}, f->frameRect(frame).center().toPoint());
        QCOMPARE(w->shownCallPath(), path);
        const ComparisonSnapshot& snap = *w->snapshot();
        const int callPath = snap.findEvent(path.join(QStringLiteral(" => ")));
        const int routine = snap.findEvent(QStringLiteral("MPI_Init()"));
        QVERIFY(callPath >= 0 && routine >= 0 && callPath != routine);
        auto* treeProxy = qobject_cast<QSortFilterProxyModel*>(w->treeView()->model());
        QVERIFY(treeProxy);
        QCOMPARE(treeProxy->mapToSource(w->treeView()->currentIndex()), w->treeModel()->indexOfEvent(callPath));
        const int shown = w->model()->rowOf(callPath) >= 0 ? callPath : routine;
        const QModelIndex row = w->sideBySideView()->proxy()->mapToSource(w->sideBySideView()->view()->currentIndex());
        QVERIFY(row.isValid());
        QCOMPARE(w->model()->eventAt(row.row()), shown);
        const int bar = w->signedDifferenceView()->barList()->selectedRow();
        QVERIFY(bar >= 0);
        QCOMPARE(w->signedDifferenceView()->shownEvents()[std::size_t(bar)], shown);

        // Stacked: A's shape above B's, zoomed together on the same call path.
        ComparisonFlamePage* page = w->flamePage();
        page->setArrangement(ComparisonFlamePage::Arrangement::Stacked);
        page->updateNow();
        FlameGraphWidget* fb = page->flameB();
        QVERIFY(fb && fb->isVisibleTo(page));
        QVERIFY(f->diffTree() && fb->diffTree());
        QCOMPARE(f->diffTree()->width(), FlameWidth::A);
        QCOMPARE(fb->diffTree()->width(), FlameWidth::B);
        QCOMPARE(f->zoomNode(), node); // the click zoomed A's graph; B's followed when computed
        QCOMPARE(fb->zoomNode(), node);
        QCOMPARE(fb->tree()->path(fb->zoomNode()), path);
        fb->zoomTo(-1);
        QCOMPARE(f->zoomNode(), -1);
        // Each graph is one run's shape: A's total is A's root value, B's is B's.
        const FlameTree ta = FlameTree::of(*m_a, page->selection()->metric());
        QVERIFY(std::abs(f->tree()->total() - ta.total()) <= 1e-9 * ta.total());
        page->setArrangement(ComparisonFlamePage::Arrangement::Differential);
        page->updateNow();
        QCOMPARE(f->diffTree()->width(), FlameWidth::Max);
        QVERIFY(!fb->isVisibleTo(page));

        // The sandwich of a routine in the comparison, from a frame's context menu.
        Q_EMIT f->sandwichRequested(QStringLiteral("MPI_Init()"));
        SandwichWidget* s = page->lastSandwich();
        QVERIFY(s);
        s->updateNow();
        const DiffSandwich* d = s->diffSandwich();
        QVERIFY(d);
        const Sandwich ownA = sandwichOf(ta, QStringLiteral("MPI_Init()"));
        QCOMPARE(d->a.occurrences, ownA.occurrences);
        QVERIFY(std::abs(d->a.inclusive - ownA.inclusive) <= 1e-9 * ownA.inclusive);
        QVERIFY(d->b.occurrences >= 1);
        QVERIFY(s->callers()->diffTree());
        QCOMPARE(s->butterfly()->columnCount(), 5);
        s->close();
    }

    void rendersEveryTab()
    {
        auto w = window(m_a, m_b);
        for (auto tab : { ComparisonWindow::Tab::SideBySide, ComparisonWindow::Tab::SignedDifference,
                 ComparisonWindow::Tab::Tree, ComparisonWindow::Tab::Summary }) {
            w->setCurrentTab(tab);
            w->resize(1000, 700);
            const QImage image = w->grab().toImage();
            QCOMPARE(image.size(), QSize(1000, 700));
            QVERIFY(colourCount(image) > 8);
        }
        QCOMPARE(ComparisonWindow::tabFromName(QStringLiteral("signed")), ComparisonWindow::Tab::SignedDifference);
        QVERIFY(!ComparisonWindow::tabFromName(QStringLiteral("nope")));
    }

    void scalingEfficiency()
    {
        auto two = test::mustLoad(test::dataPath(QStringLiteral("tau2/ppk/ring-2rank.ppk")));
        auto eight = test::mustLoad(test::dataPath(QStringLiteral("tau2/ppk/ring-8rank.ppk")));
        QVERIFY(two && eight);
        // Given out of order: the builder sorts by thread count.
        const auto snapshot = ScalingBuilder::build({ eight, two });
        QCOMPARE(snapshot->trials.front()->threadCount(), std::size_t(2));
        QCOMPARE(snapshot->trials.back()->threadCount(), std::size_t(8));
        QCOMPARE(snapshot->metrics, QStringList { QStringLiteral("Time") });
        const QStringList top = ScalingBuilder::topEvents(*snapshot);
        QCOMPARE(top.size(), 5);

        // Independently: sum of the inclusive cells per run; E = (Σ2/2·2) / (Σ8/8·8) = Σ2/Σ8.
        auto sum = [](const Trial& trial, const QString& name) {
            const EventId e = trial.findEvent(name);
            double s = 0;
            for (std::size_t t = 0; t < trial.threadCount(); ++t) {
                const auto i = trial.row(ThreadIndex(t)).find(e);
                if (i >= 0)
                    s += trial.row(ThreadIndex(t)).inclusive(0, static_cast<std::size_t>(i));
            }
            return s;
        };
        // The top event has the largest mean inclusive time in the 2-rank run.
        for (const IntervalEvent& event : two->events())
            if (!event.isCallPath())
                QVERIFY(sum(*two, event.name) <= sum(*two, top.front()));
        for (const QString& name : top) {
            const auto points = ScalingBuilder::series(*snapshot, name, QStringLiteral("Time"));
            QCOMPARE(points.size(), std::size_t(2));
            QVERIFY(points[0].present && points[1].present);
            QVERIFY(qFuzzyCompare(points[0].time, sum(*two, name) / 2));
            QVERIFY(qFuzzyCompare(points[1].time, sum(*eight, name) / 8));
            QCOMPARE(points[0].efficiency, 1.0);
            QVERIFY(qFuzzyCompare(points[1].efficiency, sum(*two, name) / sum(*eight, name)));
        }
        // main() of the ring: 2 ranks × 2.144 s vs 8 ranks × 2.065 s ⇒ E(8) ≈ 0.26 (weak scaling).
        const auto main = ScalingBuilder::series(*snapshot, top.front(), QStringLiteral("Time"));
        QVERIFY(main[1].efficiency > 0.2 && main[1].efficiency < 0.3);
        // Slowest thread instead of the mean.
        const auto slowest = ScalingBuilder::series(
            *snapshot, top.front(), QStringLiteral("Time"), ScalingValue::Inclusive, ScalingStatistic::Max);
        QVERIFY(slowest[0].time >= main[0].time);

        ScalingView view({ eight, two });
        view.resize(1200, 800);
        view.waitForResult();
        QCOMPARE(view.selectedEvents().size(), 5);
        const auto shown = view.series(top.front());
        QCOMPARE(shown.size(), std::size_t(2));
        QCOMPARE(shown[1].efficiency, main[1].efficiency);
        // Models on (the default): per event also its model's curve, its efficiency curve and the target
        // marker; off: time and efficiency per event.
        QVERIFY(view.plot()->graphCount() > 10);
        view.setShowModels(false);
        QCOMPARE(view.plot()->graphCount(), 10); // time and efficiency per event
        QVERIFY(!view.model(top.front()).valid);
        view.setSelectedEvents({ top.front() });
        QCOMPARE(view.plot()->graphCount(), 2);
        const QImage image = view.grab().toImage();
        QVERIFY(colourCount(image) > 8);
    }

    void scalingModels()
    {
        // DrawGraph's ring at 2, 4, 6 and 8 ranks: each drawn event's model is Extra-P's model of its
        // T(P) (algebra/perfmodel.h, tested against Extra-P in tst_perfmodel), extrapolated to the target
        // (default 4 × the largest P = 32), drawn as a curve through the model's values.
        std::vector<std::shared_ptr<const Trial>> runs;
        for (const char* n : { "8", "2", "6", "4" })
            runs.push_back(test::mustLoad(
                test::dataPath(QStringLiteral("tau2/ppk-drawgraph-scaling/%1.ppk").arg(QLatin1String(n)))));
        ScalingView view(runs);
        view.resize(1400, 900);
        view.waitForResult();
        QCOMPARE(view.target(), 32);
        const QString event = QStringLiteral("MPI_Recv()");
        view.setSelectedEvents({ event });
        const auto series = view.series(event);
        QCOMPARE(series.size(), std::size_t(4));
        std::vector<ModelPoint> points;
        points.reserve(series.size());
        for (const ScalingPoint& p : series)
            points.push_back(ModelPoint { static_cast<double>(p.threads), { p.time } });
        QCOMPARE(points.front().p, 2.0);
        const PerformanceModel expected = fitPerformanceModel(points);
        const PerformanceModel shown = view.model(event);
        QVERIFY(shown.valid);
        QCOMPARE(shown.formula(), expected.formula());
        QVERIFY(shown.fewPoints); // 4 thread counts
        // graphs: time, efficiency, then the model's curve (2 ... 32), its efficiency, the target marker
        QCOMPARE(view.plot()->graphCount(), 5);
        const QCPGraph* curve = view.plot()->graph(2);
        QCOMPARE(curve->data()->constBegin()->key, 2.0);
        QVERIFY(std::abs((curve->data()->constEnd() - 1)->key - 32.0) < 1e-9);
        for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it)
            QVERIFY(std::abs(it->value - expected.evaluate(it->key)) <= 1e-9 * std::max(1.0, std::abs(it->value)));
        const QCPGraph* marker = view.plot()->graph(4);
        QCOMPARE(marker->data()->size(), 1);
        QCOMPARE(marker->data()->constBegin()->key, 32.0);
        QCOMPARE(marker->data()->constBegin()->value, expected.evaluate(32));
        view.setTarget(1024);
        QCOMPARE(view.plot()->graph(4)->data()->constBegin()->value, expected.evaluate(1024));
        QVERIFY(view.timeRect()->axis(QCPAxis::atBottom)->range().upper > 1024);
    }
};

QTEST_MAIN(TestComparison)
#include "tst_comparison.moc"
