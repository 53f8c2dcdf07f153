// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/model/trialbuilder.h"
#include "tests/common/imagecheck.h"
#include "tests/common/modelsearch.h"
#include "tests/common/testutil.h"
#include "views/charts/chartstyle.h"
#include "views/charts/qcustomplotwrapper.h"
#include "views/charts/threadaxisticker.h"
#include "views/selectionstate.h"
#include "views/userevents/histogramwidget.h"
#include "views/userevents/trialmanagermodel.h"
#include "views/userevents/usereventchart.h"
#include "views/userevents/usereventsmodel.h"
#include "views/userevents/usereventswidget.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QBuffer>
#include <QFileInfo>
#include <QImage>
#include <QSet>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <cmath>
#include <functional>

using namespace parallax;
using namespace parallax::test;

namespace {

const QString workflowDir = QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank");
const QString cpiDir = QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank");

/// Where the rendered images go: PARALLAX_RENDER_DIR if set (to look at them), else a temp dir.
QString renderPath(const QTemporaryDir& dir, const QString& name)
{
    const QString out = qEnvironmentVariable("PARALLAX_RENDER_DIR");
    return (out.isEmpty() ? dir.path() : out) + QLatin1Char('/') + name;
}

/// The top-level row of a name, or an invalid index.
QModelIndex topRow(const QAbstractItemModel& model, const QString& name) { return childNamed(model, {}, name); }

double cell(const QModelIndex& row, int column) { return row.siblingAtColumn(column).data(SortRole).toDouble(); }

bool near(double a, double b, double tolerance = 1e-9)
{
    return std::abs(a - b) <= tolerance * std::max(1.0, std::abs(b));
}

/// Threads 0..5; "a" on threads 0-3 (count 2, 4, 6, 8), "a : ctx" on thread 1 only, and "b : x"
/// and "b : y" without a context-free "b" (so "b" is a synthetic parent).
std::shared_ptr<const Trial> literalUserEventTrial()
{
    TrialBuilder b(QStringLiteral("literal"));
    b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
    ThreadIndex t[6];
    for (int i = 0; i < 6; ++i)
        t[i] = b.addThread({ i, 0, 0 });
    const AtomicEventId a = b.addAtomicEvent(QStringLiteral("a"));
    const AtomicEventId actx = b.addAtomicEvent(QStringLiteral("a : ctx"));
    const AtomicEventId bx = b.addAtomicEvent(QStringLiteral("b : x"));
    const AtomicEventId by = b.addAtomicEvent(QStringLiteral("b : y => z"));
    for (int i = 0; i < 4; ++i) {
        const double n = 2.0 * (i + 1);
        // samples all equal to 10 * (i + 1): sumsqr = n * v^2
        const double v = 10.0 * (i + 1);
        b.addAtomic(t[i], a, n, v, v, v, n * v * v);
    }
    b.addAtomic(t[1], actx, 1, 5, 5, 5, 25);
    b.addAtomic(t[2], bx, 3, 9, 1, 5, 107); // samples 1, 5, 9
    b.addAtomic(t[3], by, 1, 7, 7, 7, 49);
    return b.build();
}

/// A trial with one interval event whose exclusive TIME is given per thread (nullopt: absent).
std::shared_ptr<const Trial> intervalTrial(const std::vector<std::optional<double>>& values)
{
    TrialBuilder b(QStringLiteral("histogram"));
    b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
    const EventId e = b.addEvent(QStringLiteral("work"));
    const EventId main = b.addEvent(QStringLiteral("main"));
    for (std::size_t i = 0; i < values.size(); ++i) {
        const ThreadIndex t = b.addThread({ static_cast<int>(i), 0, 0 });
        const double big[] = { 1e9 };
        b.addInterval(t, main, 1, 1, big, big);
        if (values[i]) {
            const double v[] = { *values[i] };
            b.addInterval(t, e, 1, 0, v, v);
        }
    }
    return b.build();
}

/// A generated trial of many threads: "compute" with a bimodal time distribution and a user
/// event with a load-dependent message size, for readable screenshots at scale.
std::shared_ptr<const Trial> generatedTrial(int threads)
{
    TrialBuilder b(QStringLiteral("generated"));
    b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
    const EventId main = b.addEvent(QStringLiteral("main"));
    const EventId compute = b.addEvent(QStringLiteral("compute"));
    const AtomicEventId message = b.addAtomicEvent(QStringLiteral("Message size sent to all nodes"));
    quint32 seed = 12345;
    auto uniform = [&seed] {
        seed = seed * 1664525u + 1013904223u;
        return (seed >> 8) / double(1 << 24);
    };
    for (int i = 0; i < threads; ++i) {
        const ThreadIndex t = b.addThread({ i / 4, 0, i % 4 });
        double sum = 0;
        for (int k = 0; k < 6; ++k)
            sum += uniform();
        const double time = (i % 3 == 0 ? 2.6e6 : 1.8e6) + (sum - 3.0) * 1.5e5;
        const double ex[] = { time }, big[] = { 4e6 };
        b.addInterval(t, main, 1, 1, big, big);
        b.addInterval(t, compute, 100, 0, ex, ex);
        const double n = 100 + (i % 7) * 10;
        const double mean = 4096 + 2048 * std::sin(i / 9.0) + 512 * uniform();
        b.addAtomic(t, message, n, mean * 2, mean / 4, mean, n * mean * mean * 1.1);
    }
    return b.build();
}

} // namespace

class TestUserEvents : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void literalTree();
    void literalStatistics();
    void cpiSample();
    void workflowThread();
    void workflowContexts();
    void workflowAcrossThreads();
    void workflowPooledFlag();
    void columnPrecision();
    void modesUnderTester();
    void proxyAndCsv();
    void chartValues();
    void chartRenders();
    void darkPalette();
    void threadTicker();
    void histogramBins();
    void histogramWidget();
    void histogramRenders();
    void eventsWidget();
    void trialManager();
};

void TestUserEvents::initTestCase() { QApplication::setStyle(QStringLiteral("Fusion")); }

void TestUserEvents::literalTree()
{
    UserEventsModel model(literalUserEventTrial());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 2);
    const QModelIndex a = topRow(model, QStringLiteral("a"));
    const QModelIndex b = topRow(model, QStringLiteral("b"));
    QVERIFY(a.isValid() && b.isValid());
    QCOMPARE(model.rowCount(a), 1);
    QCOMPARE(model.rowCount(b), 2);
    QVERIFY(childNamed(model, b, QStringLiteral("y => z")).isValid());
    QCOMPARE(childNamed(model, b, QStringLiteral("y => z")).data(UserEventsModel::FullNameRole).toString(),
        QStringLiteral("b : y => z"));
    // "b" has no context-free record: a grey synthetic parent without values.
    QVERIFY(!model.atomicEventAt(b).isValid());
    QVERIFY(b.data(UserEventsModel::AtomicEventRole).isNull());
    QVERIFY(b.data(Qt::ForegroundRole).isValid());
    QCOMPARE(b.siblingAtColumn(UserEventsModel::Count).data().toString(), QString());
    QVERIFY(b.data(Qt::ToolTipRole).toString().contains(QStringLiteral("only with a context")));
    QVERIFY(model.atomicEventAt(a).isValid());
    QVERIFY(model.indexOf(model.atomicEventAt(a)) == a);

    // On thread 1, "a" and "a : ctx" are recorded, "b" not at all.
    model.setRowMode(RowMode::Thread, ThreadIndex(1u));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.rowCount(model.index(0, 0)), 1);
    // On thread 2 only "a" and "b : x": "b" is synthetic there too.
    model.setRowMode(RowMode::Thread, ThreadIndex(2u));
    QCOMPARE(model.rowCount(), 2);
    const QModelIndex b2 = topRow(model, QStringLiteral("b"));
    QCOMPARE(model.rowCount(b2), 1);
    const QModelIndex x = model.index(0, 0, b2);
    QCOMPARE(x.data().toString(), QStringLiteral("x"));
    QCOMPARE(cell(x, UserEventsModel::Count), 3.0);
    QCOMPARE(cell(x, UserEventsModel::Total), 15.0);
    // sd of 1, 5, 9 = sqrt(107/3 - 25)
    QVERIFY(near(cell(x, UserEventsModel::StdDev), std::sqrt(107.0 / 3 - 25)));
    QVERIFY(
        x.siblingAtColumn(UserEventsModel::StdDev).data(Qt::ToolTipRole).toString().contains(QStringLiteral("107")));
    // Thread 5 has no user events at all.
    model.setRowMode(RowMode::Thread, ThreadIndex(5u));
    QCOMPARE(model.rowCount(), 0);
    // Invalid threads are ignored.
    model.setRowMode(RowMode::Thread, ThreadIndex(99u));
    QCOMPARE(model.thread(), ThreadIndex(5u));
}

void TestUserEvents::literalStatistics()
{
    UserEventsModel model(literalUserEventTrial());
    const QModelIndex a = topRow(model, QStringLiteral("a"));
    // "a": counts 2, 4, 6, 8 on threads 0-3 of 6; means 10, 20, 30, 40; totals 20, 80, 180, 320.
    QCOMPARE(cell(a, UserEventsModel::Count), 20.0 / 6);
    QCOMPARE(cell(a, UserEventsModel::Mean), 100.0 / 6);
    QCOMPARE(cell(a, UserEventsModel::Total), 600.0 / 6);
    QCOMPARE(cell(a, UserEventsModel::ThreadsPresent), 4.0);
    QCOMPARE(a.siblingAtColumn(UserEventsModel::ThreadsPresent).data().toString(), QStringLiteral("4 / 6"));
    QVERIFY(a.siblingAtColumn(UserEventsModel::Count)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("Mean over all 6 threads (absent = 0)")));
    model.setRowMode(RowMode::MeanPresent);
    QCOMPARE(cell(a, UserEventsModel::Count), 5.0);
    QCOMPARE(cell(a, UserEventsModel::Total), 150.0);
    model.setRowMode(RowMode::Min);
    QCOMPARE(cell(a, UserEventsModel::Max), 10.0);
    QCOMPARE(cell(a, UserEventsModel::Total), 20.0);
    model.setRowMode(RowMode::Max);
    QCOMPARE(cell(a, UserEventsModel::Min), 40.0);
    QCOMPARE(cell(a, UserEventsModel::Total), 320.0);
    model.setRowMode(RowMode::StdDevPresent);
    // totals 20, 80, 180, 320: mean 150, population sd sqrt((130² + 70² + 30² + 170²) / 4)
    QVERIFY(near(cell(a, UserEventsModel::Total), std::sqrt((130.0 * 130 + 70 * 70 + 30 * 30 + 170 * 170) / 4)));
    model.setRowMode(RowMode::StdDevAll);
    // over 6 values with two zeros: mean 100
    QVERIFY(near(cell(a, UserEventsModel::Total),
        std::sqrt((80.0 * 80 + 20 * 20 + 80 * 80 + 220 * 220 + 100 * 100 + 100 * 100) / 6)));
    // Total pools all samples: 20 samples, smallest 10, largest 40, mean 600 / 20.
    model.setRowMode(RowMode::Total);
    QCOMPARE(cell(a, UserEventsModel::Count), 20.0);
    QCOMPARE(cell(a, UserEventsModel::Min), 10.0);
    QCOMPARE(cell(a, UserEventsModel::Max), 40.0);
    QCOMPARE(cell(a, UserEventsModel::Mean), 30.0);
    QCOMPARE(cell(a, UserEventsModel::Total), 600.0);
    // pooled sumsqr = 2·100 + 4·400 + 6·900 + 8·1600 = 20000: sd = sqrt(20000/20 − 900) = 10
    QVERIFY(near(cell(a, UserEventsModel::StdDev), 10.0));
    QVERIFY(a.siblingAtColumn(UserEventsModel::Min).data(Qt::ToolTipRole).toString().contains(QStringLiteral("0,0,0")));
}

void TestUserEvents::cpiSample()
{
    const auto trial = mustLoad(dataPath(cpiDir));
    QVERIFY(trial);
    UserEventsModel model(trial, RowMode::Thread, trial->findThread({ 0, 0, 0 }));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(trial->atomicEventCount(), std::size_t(2));
    QCOMPARE(model.rowCount(), 2);
    const QModelIndex bcast = topRow(model, QStringLiteral("Message size for broadcast"));
    QVERIFY(bcast.isValid());
    QCOMPARE(model.rowCount(bcast), 0);
    QCOMPARE(cell(bcast, UserEventsModel::Count), 1.0);
    QCOMPARE(cell(bcast, UserEventsModel::Max), 4.0);
    QCOMPARE(cell(bcast, UserEventsModel::Min), 4.0);
    QCOMPARE(cell(bcast, UserEventsModel::StdDev), 0.0);
    QVERIFY(topRow(model, QStringLiteral("Message size for reduce")).isValid());
}

void TestUserEvents::workflowThread()
{
    const auto trial = mustLoad(dataPath(workflowDir));
    QVERIFY(trial);
    QCOMPARE(trial->threadCount(), std::size_t(8));
    const ThreadIndex t1 = trial->findThread({ 1, 0, 0 });
    UserEventsModel model(trial, RowMode::Thread, t1);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
    const QModelIndex bcast = topRow(model, QStringLiteral("Message size for broadcast"));
    QVERIFY(bcast.isValid());
    QCOMPARE(cell(bcast, UserEventsModel::Count), 64.0);
    QCOMPARE(cell(bcast, UserEventsModel::Max), 4096.0);
    QCOMPARE(cell(bcast, UserEventsModel::Min), 4.0);
    QCOMPARE(cell(bcast, UserEventsModel::Mean), 72.875);
    QVERIFY(near(cell(bcast, UserEventsModel::StdDev), 507.265, 1e-6));
    QCOMPARE(cell(bcast, UserEventsModel::Total), 4664.0);
    QCOMPARE(bcast.siblingAtColumn(UserEventsModel::Max).data().toString(), QStringLiteral("4,096"));
    QCOMPARE(bcast.siblingAtColumn(UserEventsModel::Mean).data().toString(), QStringLiteral("72.88"));
    const QString sdTip = bcast.siblingAtColumn(UserEventsModel::StdDev).data(Qt::ToolTipRole).toString();
    QVERIFY2(sdTip.contains(QStringLiteral("16808256")) && sdTip.contains(QStringLiteral("1,0,0")), qPrintable(sdTip));
    QVERIFY(bcast.siblingAtColumn(UserEventsModel::Total)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("64 × 72.875 = 4664")));
    // Rank 1 has 26 records; the duplicate "[GROUP=MIN_MARKER] ADIOS data size : ADIOS group size" is
    // merged into one user event (docs/FORMATS.md 1.5), so 25 user events are on the thread.
    int records = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex top = model.index(row, 0);
        records += (model.atomicEventAt(top).isValid() ? 1 : 0) + model.rowCount(top);
    }
    QCOMPARE(records, 25);
}

void TestUserEvents::workflowContexts()
{
    const auto trial = mustLoad(dataPath(workflowDir));
    QVERIFY(trial);
    UserEventsModel model(trial);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QModelIndex marker = topRow(model, QStringLiteral("[GROUP=MAX_MARKER] Message size for broadcast"));
    QVERIFY(marker.isValid());
    QVERIFY(model.atomicEventAt(marker).isValid());
    QVERIFY(model.rowCount(marker) >= 2);
    const QModelIndex open = childNamed(model, marker, QStringLiteral("ADIOS open => MPI_Bcast()"));
    QVERIFY(open.isValid());
    QVERIFY(childNamed(model, marker, QStringLiteral("MPI_Bcast()")).isValid());
    QCOMPARE(open.data(UserEventsModel::FullNameRole).toString(),
        QStringLiteral("[GROUP=MAX_MARKER] Message size for broadcast : ADIOS open => MPI_Bcast()"));
    QVERIFY(open.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Context event")));
    // The context may itself contain " : " (split at the first one).
    const QModelIndex minData = topRow(model, QStringLiteral("[GROUP=MIN_MARKER] ADIOS data size"));
    QVERIFY(minData.isValid());
    QVERIFY(childNamed(model, minData, QStringLiteral("ADIOS group size : ADIOS group size")).isValid());
    // No user event is a top-level row and a child at once; every context row is under its base name.
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex top = model.index(row, 0);
        for (int c = 0; c < model.rowCount(top); ++c) {
            const AtomicEvent& event = trial->atomicEvent(model.atomicEventAt(model.index(c, 0, top)));
            QVERIFY(event.hasContext());
            QCOMPARE(event.baseName, top.data().toString());
        }
    }
}

void TestUserEvents::workflowAcrossThreads()
{
    const auto trial = mustLoad(dataPath(workflowDir));
    QVERIFY(trial);
    UserEventsModel model(trial);
    // By hand from profile.[0-7].0.0: "[GROUP=MAX_MARKER] Message size for all-to-all" is recorded on
    // ranks 1, 3, 5, 6, 7 only, once each, with the values 45, 30, 30, 30, 45.
    const QModelIndex marker = topRow(model, QStringLiteral("[GROUP=MAX_MARKER] Message size for all-to-all"));
    QVERIFY(marker.isValid());
    QCOMPARE(cell(marker, UserEventsModel::ThreadsPresent), 5.0);
    QCOMPARE(cell(marker, UserEventsModel::Max), 180.0 / 8); // absent ranks count as 0
    QCOMPARE(cell(marker, UserEventsModel::Count), 5.0 / 8);
    QVERIFY(marker.siblingAtColumn(UserEventsModel::Max)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("Mean over all 8 threads (absent = 0)")));
    model.setRowMode(RowMode::MeanPresent);
    QCOMPARE(cell(marker, UserEventsModel::Max), 36.0);
    model.setRowMode(RowMode::StdDevAll);
    // 45, 30, 30, 30, 45, 0, 0, 0: mean 22.5, Σ(x − 22.5)² = 2700
    QVERIFY(near(cell(marker, UserEventsModel::Max), std::sqrt(2700.0 / 8)));
    model.setRowMode(RowMode::Min);
    QCOMPARE(cell(marker, UserEventsModel::Max), 30.0);
    model.setRowMode(RowMode::Max);
    QCOMPARE(cell(marker, UserEventsModel::Max), 45.0);

    // "Message size for all-to-all" (300 samples on every rank): per-rank means 27.333, 32.333,
    // 18.667, 22, 18.667, 22, 22, 27 sum to 190; totals n·mean sum to 57000; sumsqr to 1504200.
    const QModelIndex all = topRow(model, QStringLiteral("Message size for all-to-all"));
    model.setRowMode(RowMode::MeanAll);
    QVERIFY(near(cell(all, UserEventsModel::Mean), 190.0 / 8));
    QVERIFY(near(cell(all, UserEventsModel::Total), 57000.0 / 8));
    QCOMPARE(cell(all, UserEventsModel::Count), 300.0);
    model.setRowMode(RowMode::Total);
    QCOMPARE(cell(all, UserEventsModel::Count), 2400.0);
    QCOMPARE(cell(all, UserEventsModel::Min), 18.0);
    QCOMPARE(cell(all, UserEventsModel::Max), 45.0);
    QVERIFY(near(cell(all, UserEventsModel::Mean), 23.75));
    QVERIFY(near(cell(all, UserEventsModel::Total), 57000.0));
    QVERIFY(near(cell(all, UserEventsModel::StdDev), std::sqrt(1504200.0 / 2400 - 23.75 * 23.75), 1e-6));
}

void TestUserEvents::workflowPooledFlag()
{
    // Every rank of the workflow sample repeats one "[GROUP=MIN/MAX_MARKER] ADIOS data size : ADIOS
    // group size" line (MIN on ranks 0, 1, 6, 7; MAX on 2-5): those rows are flagged where the numbers are.
    const auto trial = mustLoad(dataPath(workflowDir));
    QVERIFY(trial);
    const ThreadIndex t1 = trial->findThread({ 1, 0, 0 });
    UserEventsModel model(trial, RowMode::Thread, t1);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QModelIndex minData = topRow(model, QStringLiteral("[GROUP=MIN_MARKER] ADIOS data size"));
    QVERIFY(minData.isValid());
    const QModelIndex pooled = childNamed(model, minData, QStringLiteral("ADIOS group size"));
    QVERIFY(pooled.isValid());
    const QModelIndex flag = pooled.siblingAtColumn(UserEventsModel::Pooled);
    QCOMPARE(flag.data().toString(), QStringLiteral("\u26A0 \u00D72"));
    QCOMPARE(flag.data(SortRole).toDouble(), 2.0);
    const QString tip = flag.data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("2 records")) && tip.contains(QStringLiteral("1,0,0"))
            && tip.contains(QStringLiteral("counts summed")) && tip.contains(QStringLiteral("count-weighted mean"))
            && tip.contains(QStringLiteral("sums of squares added")),
        qPrintable(tip));
    // Its numbers are the pooled record: 2 samples, the sum of both.
    QCOMPARE(cell(pooled, UserEventsModel::Count), 2.0);
    // A row read from one record has no flag.
    const QModelIndex bcast = topRow(model, QStringLiteral("Message size for broadcast"));
    QCOMPARE(bcast.siblingAtColumn(UserEventsModel::Pooled).data().toString(), QString());
    QCOMPARE(bcast.siblingAtColumn(UserEventsModel::Pooled).data(SortRole).toDouble(), 0.0);
    QCOMPARE(model.headerData(UserEventsModel::Pooled, Qt::Horizontal).toString(), QStringLiteral("Pooled"));
    // On rank 2 the MAX marker's line is the repeated one, not the MIN marker's.
    model.setRowMode(RowMode::Thread, trial->findThread({ 2, 0, 0 }));
    const QModelIndex maxData = topRow(model, QStringLiteral("[GROUP=MAX_MARKER] ADIOS data size"));
    QCOMPARE(childNamed(model, maxData, QStringLiteral("ADIOS group size"))
                 .siblingAtColumn(UserEventsModel::Pooled)
                 .data()
                 .toString(),
        QStringLiteral("\u26A0 \u00D72"));
    // Across threads: on how many threads the record was pooled, and where.
    for (RowMode mode : { RowMode::MeanAll, RowMode::Total, RowMode::Max }) {
        model.setRowMode(mode);
        const QModelIndex across = childNamed(model,
            topRow(model, QStringLiteral("[GROUP=MIN_MARKER] ADIOS data size")), QStringLiteral("ADIOS group size"));
        QVERIFY(across.isValid());
        const QModelIndex f = across.siblingAtColumn(UserEventsModel::Pooled);
        QCOMPARE(f.data().toString(), QStringLiteral("\u26A0 on 4 threads"));
        QCOMPARE(f.data(SortRole).toDouble(), 4.0);
        const QString t = f.data(Qt::ToolTipRole).toString();
        QVERIFY2(t.contains(QStringLiteral("On 4 of 8 threads"))
                && t.contains(QStringLiteral("2 records on thread 0,0,0"))
                && t.contains(QStringLiteral("2 records on thread 7,0,0"))
                && t.contains(QStringLiteral("counts summed")),
            qPrintable(t));
        QCOMPARE(topRow(model, QStringLiteral("Message size for broadcast"))
                     .siblingAtColumn(UserEventsModel::Pooled)
                     .data()
                     .toString(),
            QString());
    }
}

/// The number of decimals of a displayed number ("16,484.00" -> 2, "3,636" -> 0).
int decimalsOf(const QString& text)
{
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    return dot < 0 ? 0 : static_cast<int>(text.size() - dot - 1);
}

void TestUserEvents::columnPrecision()
{
    // Each numeric column shows one precision: on rank 1 the Total of "Message size for all-reduce"
    // is 1016 × 16.2244094488189 = 16484 (up to rounding), a whole number like "Message size for
    // all-gather"'s 3636, so neither reads "16,484.00" beside "3,636".
    const auto trial = mustLoad(dataPath(workflowDir));
    QVERIFY(trial);
    UserEventsModel model(trial, RowMode::Thread, trial->findThread({ 1, 0, 0 }));
    model.setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
    QCOMPARE(topRow(model, QStringLiteral("Message size for all-reduce"))
                 .siblingAtColumn(UserEventsModel::Total)
                 .data()
                 .toString(),
        QStringLiteral("16,484"));
    QCOMPARE(topRow(model, QStringLiteral("Message size for all-gather"))
                 .siblingAtColumn(UserEventsModel::Total)
                 .data()
                 .toString(),
        QStringLiteral("3,636"));
    // In every mode, every column: the same decimals down the column, counts of a thread as integers.
    int fractionalColumns = 0;
    for (RowMode mode : { RowMode::Thread, RowMode::MeanAll, RowMode::MeanPresent, RowMode::Total, RowMode::Min,
             RowMode::Max, RowMode::StdDevAll }) {
        model.setRowMode(mode, trial->findThread({ 1, 0, 0 }));
        for (int column = UserEventsModel::Count; column <= UserEventsModel::Total; ++column) {
            QSet<int> decimals;
            QStringList texts;
            std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
                for (int row = 0; row < model.rowCount(parent); ++row) {
                    const QModelIndex index = model.index(row, column, parent);
                    const QString text = index.data().toString();
                    if (!text.isEmpty()) {
                        decimals.insert(decimalsOf(text));
                        texts << text;
                    }
                    walk(model.index(row, 0, parent));
                }
            };
            walk({});
            QVERIFY2(decimals.size() == 1,
                qPrintable(QStringLiteral("%1, column %2: %3")
                               .arg(UserEventsModel::rowModeName(mode))
                               .arg(column)
                               .arg(texts.join(QStringLiteral(" | ")))));
            fractionalColumns += *decimals.begin() > 0 ? 1 : 0;
            if (mode == RowMode::Thread && column == UserEventsModel::Count)
                QCOMPARE(*decimals.begin(), 0);
        }
    }
    QVERIFY(fractionalColumns > 0); // the means over threads have fractions: the check saw both kinds
}

void TestUserEvents::modesUnderTester()
{
    const auto trial = mustLoad(dataPath(workflowDir));
    QVERIFY(trial);
    UserEventsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrial(trial);
    for (RowMode mode : { RowMode::MeanAll, RowMode::MeanPresent, RowMode::Total, RowMode::Min, RowMode::Max,
             RowMode::StdDevAll, RowMode::StdDevPresent }) {
        model.setRowMode(mode);
        QCOMPARE(model.rowMode(), mode);
        for (int row = 0; row < model.rowCount(); ++row)
            for (int column = 0; column < UserEventsModel::ColumnCount; ++column) {
                const QModelIndex index = model.index(row, column);
                QVERIFY(!index.data(Qt::ToolTipRole).toString().isEmpty());
                QVERIFY(index.data(SortRole).isValid());
            }
        QVERIFY(!model.headerData(UserEventsModel::Mean, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
    }
    for (std::size_t t = 0; t < trial->threadCount(); ++t)
        model.setRowMode(RowMode::Thread, ThreadIndex(t));
    model.setTrial(nullptr);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.rowMode(), RowMode::MeanAll);
    model.setTrial(literalUserEventTrial());
    QCOMPARE(model.rowCount(), 2);
}

void TestUserEvents::proxyAndCsv()
{
    const auto trial = mustLoad(dataPath(workflowDir));
    QVERIFY(trial);
    UserEventsModel model(trial);
    QTreeView view;
    const ViewSetup setup = setupTreeView(&view, &model);
    QAbstractItemModelTester tester(setup.proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // Sorting by Max descending puts the ADIOS sizes (≈ 24–40 MB) first.
    view.sortByColumn(UserEventsModel::Max, Qt::DescendingOrder);
    QVERIFY(setup.proxy->index(0, 0).data().toString().contains(QStringLiteral("ADIOS data size")));
    // Searching keeps matching context rows under their parents.
    setup.proxy->setFilterFixedString(QStringLiteral("ADIOS open"));
    QVERIFY(setup.proxy->rowCount() >= 1);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QVERIFY(ViewSetup::writeCsv(&view, &buffer));
    const QString csv = QString::fromUtf8(buffer.data());
    QVERIFY2(csv.startsWith(QStringLiteral("Name,Count,Min,Max,Mean,Std. Dev.,Total,Threads")), qPrintable(csv));
    QVERIFY(csv.contains(QStringLiteral("ADIOS open => MPI_Bcast()")));
}

void TestUserEvents::chartValues()
{
    const auto trial = mustLoad(dataPath(workflowDir));
    QVERIFY(trial);
    SelectionState state;
    UserEventChart chart(&state);
    QVERIFY(!chart.userEvent().isValid());
    state.setTrial(trial);
    QVERIFY(chart.userEvent().isValid()); // starts at the first user event
    QSignalSpy changed(&chart, &UserEventChart::userEventChanged);
    const AtomicEventId marker
        = trial->findAtomicEvent(QStringLiteral("[GROUP=MAX_MARKER] Message size for all-to-all"));
    QVERIFY(marker.isValid());
    chart.setUserEvent(marker);
    QCOMPARE(changed.count(), 1);
    chart.setField(UserEventChart::Field::Max);
    QCOMPARE(chart.values().size(), std::size_t(8));
    QVERIFY(!chart.values()[0]); // rank 0 has no record
    QCOMPARE(*chart.values()[1], 45.0);
    QCOMPARE(*chart.values()[3], 30.0);
    const Stat s = chart.fieldStatistics();
    QCOMPARE(s.meanAll, 22.5);
    QCOMPARE(s.min, 30.0);
    QCOMPARE(s.max, 45.0);
    auto* bars = qobject_cast<QCPBars*>(chart.plot()->plottable(0));
    QVERIFY(bars);
    QCOMPARE(bars->data()->size(), 5); // one plottable, one bar per present thread
    QCOMPARE(chart.plot()->plottableCount(), 2); // the bars and the selected-thread highlight

    chart.setField(UserEventChart::Field::Total);
    QCOMPARE(*chart.values()[1], 45.0);
    const AtomicEventId bcast = trial->findAtomicEvent(QStringLiteral("Message size for broadcast"));
    chart.setUserEvent(bcast);
    QCOMPARE(*chart.values()[1], 4664.0);
    chart.setField(UserEventChart::Field::StdDev);
    QVERIFY(near(*chart.values()[1], 507.265, 1e-6));

    // Sorting orders bars by value; clicking is covered by selectThread highlighting.
    chart.setUserEvent(trial->findAtomicEvent(QStringLiteral("Message size for all-to-all")));
    chart.setField(UserEventChart::Field::Mean);
    chart.setSortedByValue(true);
    QCOMPARE(bars->data()->size(), 8);
    QVERIFY(bars->data()->at(0)->value >= bars->data()->at(7)->value);
    state.selectThread(ThreadIndex(1u));
    auto* selected = qobject_cast<QCPBars*>(chart.plot()->plottable(1));
    QCOMPARE(selected->data()->size(), 1);
    QVERIFY(near(selected->data()->at(0)->value, 32.33333333333334));
    QCOMPARE(selected->data()->at(0)->key, 0.0); // rank 1 has the largest mean
}

void TestUserEvents::chartRenders()
{
    QTemporaryDir dir;
    const auto trial = mustLoad(dataPath(workflowDir));
    QVERIFY(trial);
    SelectionState state;
    state.setTrial(trial);
    UserEventChart chart(&state);
    chart.resize(900, 520);
    chart.show();
    chart.setUserEvent(trial->findAtomicEvent(QStringLiteral("Message size for all-to-all")));
    chart.setField(UserEventChart::Field::Mean);
    state.selectThread(ThreadIndex(2u));
    const QString png = renderPath(dir, QStringLiteral("user-event-chart.png"));
    QCOMPARE(chart.exportImage(png), QString());
    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), chart.plot()->size());
    QVERIFY(colourCount(image) > 8);
    // The bar colour is on the image.
    QCOMPARE(chart.exportImage(renderPath(dir, QStringLiteral("user-event-chart.svg"))), QString());
    QCOMPARE(chart.exportImage(renderPath(dir, QStringLiteral("user-event-chart.pdf"))), QString());
    QVERIFY(QFileInfo(renderPath(dir, QStringLiteral("user-event-chart.svg"))).size() > 1000);
    QVERIFY(QFileInfo(renderPath(dir, QStringLiteral("user-event-chart.pdf"))).size() > 1000);
    QVERIFY(!chart.exportImage(renderPath(dir, QStringLiteral("chart.xyz"))).isEmpty());

    // Many threads: still one plottable, and labels thinned to what fits.
    SelectionState big;
    big.setTrial(generatedTrial(1024));
    UserEventChart many(&big);
    many.resize(1000, 520);
    many.show();
    QCOMPARE(many.exportImage(renderPath(dir, QStringLiteral("user-event-chart-1024.png"))), QString());
    QCOMPARE(many.plot()->plottableCount(), 2);
    QVERIFY(many.plot()->xAxis->tickVector().size() < 100);
    QVERIFY(colourCount(QImage(renderPath(dir, QStringLiteral("user-event-chart-1024.png")))) > 8);
}

void TestUserEvents::darkPalette()
{
    QTemporaryDir dir;
    const auto trial = mustLoad(dataPath(workflowDir));
    QVERIFY(trial);
    SelectionState state;
    state.setTrial(trial);
    state.selectEvent(trial->findEvent(QStringLiteral("MPI_Bcast()")));
    UserEventChart chart(&state);
    HistogramWidget histogram(&state);
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::Mid, QColor(0x55, 0x55, 0x55));
    for (QWidget* widget : { static_cast<QWidget*>(&chart), static_cast<QWidget*>(&histogram) }) {
        widget->resize(800, 450);
        widget->setPalette(dark);
        widget->show();
    }
    const QString chartPng = renderPath(dir, QStringLiteral("user-event-chart-dark.png"));
    const QString histogramPng = renderPath(dir, QStringLiteral("histogram-dark.png"));
    QCOMPARE(chart.exportImage(chartPng), QString());
    QCOMPARE(histogram.exportImage(histogramPng), QString());
    for (const auto& [png, plot] :
        { std::pair { chartPng, chart.plot() }, std::pair { histogramPng, histogram.plot() } }) {
        const QImage image(png);
        QVERIFY(image.pixelColor(2, 2).lightness() < 80); // background from the palette
        const QRect rect = plot->axisRect()->rect();
        QVERIFY(image.pixelColor(rect.left() + 3, rect.top() + 3).lightness() < 80);
        QCOMPARE(plot->xAxis->tickLabelColor(), QColor(0xe0, 0xe0, 0xe0));
    }
}

void TestUserEvents::threadTicker()
{
    QCOMPARE(ThreadAxisTicker::stepFor(8, 20), 1.0);
    QCOMPARE(ThreadAxisTicker::stepFor(1024, 40), 50.0);
    QCOMPARE(ThreadAxisTicker::stepFor(16384, 30), 1000.0);
    QCOMPARE(ThreadAxisTicker::stepFor(100, 10), 10.0);
    QCOMPARE(ThreadAxisTicker::stepFor(101, 10), 20.0);
}

void TestUserEvents::histogramBins()
{
    const std::vector<double> oneToTen { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
    HistogramWidget::Bins bins = HistogramWidget::computeBins(oneToTen, 5);
    QCOMPARE(bins.counts, (std::vector<int> { 2, 2, 2, 2, 2 }));
    QCOMPARE(bins.low, 1.0);
    QCOMPARE(bins.width, 1.8);
    QCOMPARE(bins.high(), 10.0);
    bins = HistogramWidget::computeBins(oneToTen, 1);
    QCOMPARE(bins.counts, (std::vector<int> { 10 }));
    bins = HistogramWidget::computeBins(oneToTen, 10);
    QCOMPARE(bins.counts, std::vector<int>(10, 1));
    // Clamped to 1..100 bins.
    QCOMPARE(HistogramWidget::computeBins(oneToTen, 0).counts.size(), std::size_t(1));
    QCOMPARE(HistogramWidget::computeBins(oneToTen, 500).counts.size(), std::size_t(100));
    // All equal: one bar in the middle.
    bins = HistogramWidget::computeBins({ 7, 7, 7 }, 5);
    QCOMPARE(bins.counts, (std::vector<int> { 0, 0, 3, 0, 0 }));
    bins = HistogramWidget::computeBins({}, 4);
    QCOMPARE(bins.counts, std::vector<int>(4, 0));
    // Negative values (differences) bin the same way.
    bins = HistogramWidget::computeBins({ -10, -5, 0, 5, 10 }, 2);
    QCOMPARE(bins.counts, (std::vector<int> { 2, 3 }));
}

void TestUserEvents::histogramWidget()
{
    // 6 threads, "work" on 4 of them with 10, 20, 30, 40 µs.
    const auto trial = intervalTrial({ 10.0, std::nullopt, 20.0, 30.0, std::nullopt, 40.0 });
    SelectionState state;
    HistogramWidget histogram(&state);
    QCOMPARE(histogram.presentThreads(), std::size_t(0));
    QVERIFY(!histogram.caption().isEmpty());
    state.setTrial(trial);
    QVERIFY(histogram.caption().contains(QStringLiteral("Select")));
    state.selectEvent(trial->findEvent(QStringLiteral("work")));
    QCOMPARE(histogram.presentThreads(), std::size_t(4));
    QCOMPARE(histogram.absentThreads(), std::size_t(2));
    QVERIFY2(histogram.caption().startsWith(QStringLiteral("4 of 6 threads have this event")),
        qPrintable(histogram.caption()));
    QSignalSpy spy(&histogram, &HistogramWidget::binCountChanged);
    histogram.setBinCount(3);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(histogram.bins().counts, (std::vector<int> { 1, 1, 2 }));
    histogram.setBinCount(0);
    QCOMPARE(histogram.binCount(), 1);
    QCOMPARE(histogram.bins().counts, (std::vector<int> { 4 }));
    histogram.setBinCount(1000);
    QCOMPARE(histogram.binCount(), 100);
    histogram.setBinCount(2);
    QCOMPARE(histogram.bins().counts, (std::vector<int> { 2, 2 }));
    auto* bars = qobject_cast<QCPBars*>(histogram.plot()->plottable(0));
    QCOMPARE(bars->data()->size(), 2);
    QCOMPARE(bars->data()->at(0)->value, 2.0);

    // The axis follows the time unit and the value type.
    state.setTimeUnit(TimeUnit::Microseconds);
    QCOMPARE(histogram.plot()->xAxis->label(), QStringLiteral("Exclusive TIME (µs)"));
    state.setValueType(ValueType::Calls);
    QCOMPARE(histogram.plot()->xAxis->label(), QStringLiteral("Calls"));
    QCOMPARE(histogram.bins().counts, (std::vector<int> { 0, 4 })); // all 1 call: the middle
    state.setValueType(ValueType::ExclusivePercent);
    QCOMPARE(histogram.presentThreads(), std::size_t(4));
    // The selected thread's bin is highlighted.
    state.setValueType(ValueType::Exclusive);
    state.selectThread(ThreadIndex(5u));
    auto* selected = qobject_cast<QCPBars*>(histogram.plot()->plottable(1));
    QCOMPARE(selected->data()->size(), 1);
    QCOMPARE(selected->data()->at(0)->key, bars->data()->at(1)->key);
    state.selectThread(ThreadIndex(1u)); // absent there: nothing highlighted
    QCOMPARE(selected->data()->size(), 0);
}

void TestUserEvents::histogramRenders()
{
    QTemporaryDir dir;
    SelectionState state;
    const auto trial = generatedTrial(1024);
    state.setTrial(trial);
    state.selectEvent(trial->findEvent(QStringLiteral("compute")));
    state.setTimeUnit(TimeUnit::Seconds);
    HistogramWidget histogram(&state);
    histogram.resize(900, 520);
    histogram.show();
    histogram.setBinCount(40);
    state.selectThread(ThreadIndex(3u));
    QCOMPARE(histogram.presentThreads(), std::size_t(1024));
    const QString png = renderPath(dir, QStringLiteral("histogram.png"));
    QCOMPARE(histogram.exportImage(png), QString());
    const QImage image(png);
    QCOMPARE(image.size(), histogram.plot()->size());
    QVERIFY(colourCount(image) > 8);
    QCOMPARE(histogram.exportImage(renderPath(dir, QStringLiteral("histogram.svg"))), QString());
    QCOMPARE(histogram.exportImage(renderPath(dir, QStringLiteral("histogram.pdf"))), QString());

    // A real sample: MPI_Bcast() across the 8 workflow ranks.
    const auto workflow = mustLoad(dataPath(workflowDir));
    QVERIFY(workflow);
    state.setTrial(workflow);
    state.selectEvent(workflow->findEvent(QStringLiteral("MPI_Bcast()")));
    histogram.setBinCount(8);
    QCOMPARE(histogram.presentThreads() + histogram.absentThreads(), std::size_t(8));
    QCOMPARE(histogram.exportImage(renderPath(dir, QStringLiteral("histogram-workflow.png"))), QString());
    QVERIFY(colourCount(QImage(renderPath(dir, QStringLiteral("histogram-workflow.png")))) > 8);
}

void TestUserEvents::eventsWidget()
{
    QTemporaryDir dir;
    const auto trial = mustLoad(dataPath(workflowDir));
    QVERIFY(trial);
    SelectionState state;
    UserEventsWidget widget(&state);
    state.setTrial(trial);
    widget.resize(1000, 800);
    widget.show();
    QCOMPARE(widget.model()->rowMode(), RowMode::MeanAll);
    QVERIFY(widget.model()->rowCount() > 10);
    // Choosing a row charts that user event.
    const QModelIndex source
        = widget.model()->indexOf(trial->findAtomicEvent(QStringLiteral("Message size for all-to-all")));
    widget.table().view->setCurrentIndex(widget.table().proxy->mapFromSource(source));
    QCOMPARE(widget.chart()->userEvent(), trial->findAtomicEvent(QStringLiteral("Message size for all-to-all")));
    // Thread mode follows the selected thread.
    widget.setRowMode(RowMode::Thread);
    QCOMPARE(widget.model()->thread(), ThreadIndex(0u));
    state.selectThread(ThreadIndex(1u));
    QCOMPARE(widget.model()->thread(), ThreadIndex(1u));
    QCOMPARE(widget.chart()->userEvent(), trial->findAtomicEvent(QStringLiteral("Message size for all-to-all")));
    // Rank 1's pooled row carries its flag in the table (to look at: PARALLAX_RENDER_DIR).
    QVERIFY(widget.grab().save(renderPath(dir, QStringLiteral("user-events-thread.png"))));
    widget.setRowMode(RowMode::MeanAll);
    QCOMPARE(widget.model()->rowMode(), RowMode::MeanAll);
    const QString png = renderPath(dir, QStringLiteral("user-events.png"));
    QVERIFY(widget.grab().save(png));
    QVERIFY(colourCount(QImage(png)) > 8);
}

void TestUserEvents::trialManager()
{
    TrialManagerModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 1);
    const QModelIndex files = model.index(0, 0);
    QCOMPARE(files.data().toString(), QStringLiteral("Files"));
    QCOMPARE(files.data(TrialManagerModel::TrialRole).toInt(), -1);
    QVERIFY(!model.trialForIndex(files));
    QCOMPARE(model.addTrial(nullptr), -1);

    const auto cpi = mustLoad(dataPath(cpiDir));
    const auto literal = literalUserEventTrial();
    QVERIFY(cpi);
    const int a = model.addTrial(cpi);
    const int b = model.addTrial(literal);
    QVERIFY(a >= 0 && b >= 0 && a != b);
    QCOMPARE(model.rowCount(files), 2);
    QCOMPARE(model.trial(a), std::shared_ptr<const Trial>(cpi));
    const QModelIndex ta = model.index(0, 0, files);
    QCOMPARE(ta, model.indexForTrial(a));
    QCOMPARE(ta.data().toString(), cpi->name());
    QCOMPARE(ta.data(TrialManagerModel::TrialRole).toInt(), a);
    QCOMPARE(ta.data(TrialManagerModel::KindRole).toInt(), int(TrialManagerModel::TrialKind));
    const QString tip = ta.data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(cpi->provenance().source) && tip.contains(QStringLiteral("4 threads")), qPrintable(tip));
    QCOMPARE(model.trialForIndex(ta), std::shared_ptr<const Trial>(cpi));
    QVERIFY(!model.metricForIndex(ta).isValid());
    QCOMPARE(model.rowCount(ta), int(cpi->metricCount()));
    const QModelIndex metric = model.index(0, 0, ta);
    QCOMPARE(metric.data().toString(), cpi->metric(MetricId(0u)).name);
    QCOMPARE(model.metricForIndex(metric), MetricId(0u));
    QCOMPARE(model.trialForIndex(metric), std::shared_ptr<const Trial>(cpi));
    QCOMPARE(metric.data(TrialManagerModel::TrialRole).toInt(), a);
    QCOMPARE(metric.data(TrialManagerModel::MetricRole).toInt(), 0);
    QCOMPARE(model.parent(metric), ta);
    QCOMPARE(model.indexForMetric(a, MetricId(0u)), metric);

    // Removing the first keeps the id of the second; ids are not reused.
    QVERIFY(model.removeTrial(a));
    QVERIFY(!model.removeTrial(a));
    QVERIFY(!model.trial(a));
    QCOMPARE(model.rowCount(files), 1);
    QCOMPARE(model.index(0, 0, files).data(TrialManagerModel::TrialRole).toInt(), b);
    const int c = model.addTrial(cpi);
    QVERIFY(c != a && c != b);
    QCOMPARE(model.trialIds(), (std::vector<int> { b, c }));

    // A second group (a database connection, later).
    const int db = model.addGroup(QStringLiteral("postgresql://server/taudb"));
    QCOMPARE(model.rowCount(), 2);
    const int d = model.addTrial(literal, db);
    QCOMPARE(model.parent(model.indexForTrial(d)), model.indexForGroup(db));
    QCOMPARE(model.addTrial(literal, 42), -1);
    QCOMPARE(model.trialIds(), (std::vector<int> { b, c, d }));
    QVERIFY(model.removeTrial(b));
    QVERIFY(model.removeTrial(c));
    QVERIFY(model.removeTrial(d));
    QCOMPARE(model.rowCount(files), 0);
}

QTEST_MAIN(TestUserEvents)
#include "tst_userevents.moc"
