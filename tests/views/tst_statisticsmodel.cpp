// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/readerregistry.h"
#include "views/statisticsmodel.h"
#include "views/viewsetup.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QBuffer>
#include <QCheckBox>
#include <QClipboard>
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QTreeView>
#include <memory>

using namespace parallax;

namespace {

const QLocale english(QLocale::English, QLocale::UnitedStates);

Metric metric(const QString& name, const QString& unit)
{
    Metric m;
    m.name = name;
    m.unit = unit;
    return m;
}

/// 4 threads, metric TIME (µs). "main" runs everywhere with inclusive 100 (80 on thread 1);
/// "work" runs on threads 0..2 only with exclusive 10, 20, 30 and calls 1, 1, 3.
std::shared_ptr<const Trial> fourThreadTrial()
{
    TrialBuilder b(QStringLiteral("four"));
    b.addMetric(metric(QStringLiteral("TIME"), QStringLiteral("us")));
    ThreadIndex t[4];
    for (int i = 0; i < 4; ++i)
        t[i] = b.addThread({ i, 0, 0 });
    const EventId main = b.addEvent(QStringLiteral("main"), { QStringLiteral("TAU_USER") });
    const EventId work = b.addEvent(QStringLiteral("work"), { QStringLiteral("TAU_USER"), QStringLiteral("MPI") });
    const EventId path = b.addEvent(QStringLiteral("main => work"), { QStringLiteral("TAU_CALLPATH") });
    const double mainIncl[4] = { 100, 80, 100, 100 };
    const double workExcl[3] = { 10, 20, 30 };
    const double workCalls[3] = { 1, 1, 3 };
    for (int i = 0; i < 4; ++i) {
        const double ex[] = { 1 };
        const double in[] = { mainIncl[i] };
        b.addInterval(t[i], main, 1, i < 3 ? 1 : 0, ex, in);
    }
    for (int i = 0; i < 3; ++i) {
        const double ex[] = { workExcl[i] };
        const double in[] = { workExcl[i] };
        b.addInterval(t[i], work, workCalls[i], 0, ex, in);
        b.addInterval(t[i], path, workCalls[i], 0, ex, in);
    }
    return b.build();
}

int rowOfName(const QAbstractItemModel* model, const QString& name)
{
    for (int row = 0; row < model->rowCount(); ++row)
        if (model->index(row, StatisticsModel::Name).data().toString() == name)
            return row;
    return -1;
}

double sortValue(const QAbstractItemModel* model, const QString& name, int column)
{
    const int row = rowOfName(model, name);
    if (row < 0)
        return qQNaN();
    return model->index(row, column).data(SortRole).toDouble();
}

QString shown(const QAbstractItemModel* model, const QString& name, int column)
{
    const int row = rowOfName(model, name);
    return row < 0 ? QStringLiteral("<no row>") : model->index(row, column).data().toString();
}

QStringList namesInOrder(const QAbstractItemModel* model)
{
    QStringList names;
    for (int row = 0; row < model->rowCount(); ++row)
        names.append(model->index(row, StatisticsModel::Name).data().toString());
    return names;
}

} // namespace

class TestStatisticsModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void statisticRows();
    void perCall();
    void percent();
    void singleThread();
    void callPathToggle();
    void formattingAndToolTips();
    void sortsOnSortRole();
    void searchAndExport();
    void realSample();
};

void TestStatisticsModel::statisticRows()
{
    StatisticsModel model(fourThreadTrial(), MetricId(0u));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 3); // main, work, main => work
    QCOMPARE(model.columnCount(), int(StatisticsModel::ColumnCount));

    const QString work = QStringLiteral("work");
    // docs/SEMANTICS.md §2 example: present on 3 of 4 threads with 10, 20, 30.
    QCOMPARE(sortValue(&model, work, StatisticsModel::Exclusive), 15.0);
    model.setRowMode(RowMode::MeanPresent);
    QCOMPARE(sortValue(&model, work, StatisticsModel::Exclusive), 20.0);
    model.setRowMode(RowMode::Total);
    QCOMPARE(sortValue(&model, work, StatisticsModel::Exclusive), 60.0);
    model.setRowMode(RowMode::Min);
    QCOMPARE(sortValue(&model, work, StatisticsModel::Exclusive), 10.0);
    model.setRowMode(RowMode::Max);
    QCOMPARE(sortValue(&model, work, StatisticsModel::Exclusive), 30.0);
    model.setRowMode(RowMode::StdDevAll);
    QVERIFY(qAbs(sortValue(&model, work, StatisticsModel::Exclusive) - 11.1803) < 1e-4);
    model.setRowMode(RowMode::StdDevPresent);
    QVERIFY(qAbs(sortValue(&model, work, StatisticsModel::Exclusive) - 8.1650) < 1e-4);

    model.setRowMode(RowMode::Total);
    QCOMPARE(sortValue(&model, work, StatisticsModel::Calls), 5.0);
    QCOMPARE(sortValue(&model, work, StatisticsModel::ThreadsPresent), 3.0);
    QCOMPARE(shown(&model, work, StatisticsModel::ThreadsPresent), QStringLiteral("3 / 4"));
    QCOMPARE(shown(&model, work, StatisticsModel::Groups), QStringLiteral("TAU_USER, MPI"));
    model.setRowMode(RowMode::MeanAll);
    QCOMPARE(sortValue(&model, QStringLiteral("main"), StatisticsModel::Subroutines), 0.75);
}

void TestStatisticsModel::perCall()
{
    StatisticsModel model(fourThreadTrial(), MetricId(0u));
    const QString work = QStringLiteral("work");
    // Total and mean rows: Σexcl / Σcalls = 60 / 5, the same on all three.
    for (RowMode mode : { RowMode::MeanAll, RowMode::MeanPresent, RowMode::Total }) {
        model.setRowMode(mode);
        QCOMPARE(sortValue(&model, work, StatisticsModel::ExclusivePerCall), 12.0);
    }
    // Min/max rows: statistics of the per-thread per-call values 10, 20, 10.
    model.setRowMode(RowMode::Min);
    QCOMPARE(sortValue(&model, work, StatisticsModel::ExclusivePerCall), 10.0);
    model.setRowMode(RowMode::Max);
    QCOMPARE(sortValue(&model, work, StatisticsModel::ExclusivePerCall), 20.0);
}

void TestStatisticsModel::percent()
{
    // docs/SEMANTICS.md §2 percent example: T(0) = 100, T(1) = 80; excl 20 and 30.
    TrialBuilder b(QStringLiteral("percent"));
    const MetricId m = b.addMetric(metric(QStringLiteral("TIME"), QStringLiteral("us")));
    const ThreadIndex t0 = b.addThread({ 0, 0, 0 });
    const ThreadIndex t1 = b.addThread({ 1, 0, 0 });
    const EventId top = b.addEvent(QStringLiteral("top"));
    const EventId e = b.addEvent(QStringLiteral("e"));
    const double top0[] = { 100 }, top1[] = { 80 }, zero[] = { 0 }, e0[] = { 20 }, e1[] = { 30 };
    b.addInterval(t0, top, 1, 1, zero, top0);
    b.addInterval(t1, top, 1, 1, zero, top1);
    b.addInterval(t0, e, 1, 0, e0, e0);
    b.addInterval(t1, e, 1, 0, e1, e1);
    StatisticsModel model(b.build(), m);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLocale(english);

    const QString name = QStringLiteral("e");
    for (RowMode mode : { RowMode::MeanAll, RowMode::MeanPresent, RowMode::Total }) {
        model.setRowMode(mode);
        QVERIFY(qAbs(sortValue(&model, name, StatisticsModel::ExclusivePercent) - 100.0 * 50 / 180) < 1e-9);
        QCOMPARE(shown(&model, name, StatisticsModel::ExclusivePercent), QStringLiteral("27.78"));
    }
    for (RowMode mode : { RowMode::Min, RowMode::Max, RowMode::StdDevAll, RowMode::StdDevPresent }) {
        model.setRowMode(mode);
        QCOMPARE(shown(&model, name, StatisticsModel::ExclusivePercent), QString());
        QCOMPARE(shown(&model, name, StatisticsModel::InclusivePercent), QString());
    }
    model.setRowMode(RowMode::Thread, t0);
    QCOMPARE(sortValue(&model, name, StatisticsModel::ExclusivePercent), 20.0);
    model.setRowMode(RowMode::Thread, t1);
    QCOMPARE(sortValue(&model, name, StatisticsModel::ExclusivePercent), 37.5);
    QCOMPARE(shown(&model, name, StatisticsModel::ExclusivePercent), QStringLiteral("37.50"));
}

void TestStatisticsModel::singleThread()
{
    StatisticsModel model(fourThreadTrial(), MetricId(0u));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRowMode(RowMode::Thread, ThreadIndex(2u));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(sortValue(&model, QStringLiteral("work"), StatisticsModel::Exclusive), 30.0);
    QCOMPARE(sortValue(&model, QStringLiteral("work"), StatisticsModel::ExclusivePerCall), 10.0);
    QCOMPARE(sortValue(&model, QStringLiteral("work"), StatisticsModel::ExclusivePercent), 30.0);
    // Thread 3 never ran "work": it has no row there rather than a row of zeros.
    model.setRowMode(RowMode::Thread, ThreadIndex(3u));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(rowOfName(&model, QStringLiteral("work")), -1);
    model.setRowMode(RowMode::MeanAll);
    QCOMPARE(model.rowCount(), 3);
    // An invalid thread is ignored.
    model.setRowMode(RowMode::Thread, ThreadIndex(99u));
    QCOMPARE(model.rowMode(), RowMode::MeanAll);
}

void TestStatisticsModel::callPathToggle()
{
    StatisticsModel model(fourThreadTrial(), MetricId(0u));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setIncludeCallPaths(false);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(rowOfName(&model, QStringLiteral("main => work")), -1);
    model.setRowMode(RowMode::Thread, ThreadIndex(0u));
    QCOMPARE(model.rowCount(), 2);
    model.setIncludeCallPaths(true);
    QCOMPARE(model.rowCount(), 3);
}

void TestStatisticsModel::formattingAndToolTips()
{
    TrialBuilder b(QStringLiteral("format"));
    const MetricId time = b.addMetric(metric(QStringLiteral("TIME"), QStringLiteral("us")));
    const MetricId cycles = b.addMetric(metric(QStringLiteral("PAPI_TOT_CYC"), QStringLiteral("count")));
    const ThreadIndex t = b.addThread({ 0, 0, 0 });
    const EventId e = b.addEvent(QStringLiteral("solve"));
    const double ex[] = { 1234567, 9876543210 };
    const double in[] = { 2345678.9, 9876543210 };
    b.addInterval(t, e, 12345, 0, ex, in);
    StatisticsModel model(b.build(), time);
    model.setLocale(english);
    const QString solve = QStringLiteral("solve");

    // Time: µs in the data, ms on screen with microsecond decimals; counts grouped.
    QCOMPARE(shown(&model, solve, StatisticsModel::Exclusive), QStringLiteral("1,234.567"));
    QCOMPARE(shown(&model, solve, StatisticsModel::Inclusive), QStringLiteral("2,345.679"));
    // Issue 14: the Mean row's counts share two decimals (means are rarely whole).
    QCOMPARE(shown(&model, solve, StatisticsModel::Calls), QStringLiteral("12,345.00"));
    QCOMPARE(sortValue(&model, solve, StatisticsModel::Exclusive), 1234567.0);
    QCOMPARE(model.headerData(StatisticsModel::Exclusive, Qt::Horizontal).toString(), QStringLiteral("Exclusive (ms)"));
    QCOMPARE(model.index(0, StatisticsModel::Exclusive).data(Qt::TextAlignmentRole).toInt(),
        int(Qt::AlignRight | Qt::AlignVCenter));

    const QString tip = model.index(0, StatisticsModel::Exclusive).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("Mean over all 1 thread (absent = 0)")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("1234567 µs")), qPrintable(tip));
    QVERIFY(!model.index(0, StatisticsModel::ExclusivePercent).data(Qt::ToolTipRole).toString().isEmpty());
    QVERIFY(!model.index(0, StatisticsModel::ExclusivePerCall).data(Qt::ToolTipRole).toString().isEmpty());

    model.setMetric(cycles);
    // Issue 14: counters of a million and more with an SI prefix, four significant digits.
    QCOMPARE(shown(&model, solve, StatisticsModel::Exclusive), QStringLiteral("9.877 G"));
    model.setRowMode(RowMode::Total);
    QCOMPARE(shown(&model, solve, StatisticsModel::Calls), QStringLiteral("12,345"));
    QCOMPARE(model.headerData(StatisticsModel::Exclusive, Qt::Horizontal).toString(), QStringLiteral("Exclusive"));
}

void TestStatisticsModel::sortsOnSortRole()
{
    // 9 < 10 < 100 numerically; as text "10" < "100" < "9". Both a count and a time metric.
    TrialBuilder b(QStringLiteral("sort"));
    const MetricId count = b.addMetric(metric(QStringLiteral("COUNT"), QStringLiteral("count")));
    const MetricId time = b.addMetric(metric(QStringLiteral("TIME"), QStringLiteral("us")));
    const ThreadIndex t = b.addThread({ 0, 0, 0 });
    const char* names[] = { "c100", "a9", "b10" };
    const double values[] = { 100, 9, 10 };
    for (int i = 0; i < 3; ++i) {
        const EventId e = b.addEvent(QString::fromLatin1(names[i]));
        const double ex[] = { values[i], values[i] * 1000 };
        b.addInterval(t, e, values[i], 0, ex, ex);
    }
    StatisticsModel model(b.build(), count);
    auto* view = new QTreeView; // owned by setup.widget
    ViewSetupOptions options;
    options.sortColumn = StatisticsModel::Exclusive;
    options.sortOrder = Qt::AscendingOrder;
    const ViewSetup setup = setupTreeView(view, &model, options);
    std::unique_ptr<QWidget> owner(setup.widget);
    QAbstractItemModelTester tester(setup.proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

    const QStringList numeric = { QStringLiteral("a9"), QStringLiteral("b10"), QStringLiteral("c100") };
    QCOMPARE(namesInOrder(setup.proxy), numeric);
    model.setMetric(time);
    QCOMPARE(namesInOrder(setup.proxy), numeric);
    view->sortByColumn(StatisticsModel::Calls, Qt::DescendingOrder);
    QCOMPARE(namesInOrder(setup.proxy),
        (QStringList { QStringLiteral("c100"), QStringLiteral("b10"), QStringLiteral("a9") }));
    view->sortByColumn(StatisticsModel::Name, Qt::AscendingOrder);
    QCOMPARE(namesInOrder(setup.proxy), numeric);
    // Switching the row mode re-sorts what is shown (dataChanged on a dynamic proxy).
    view->sortByColumn(StatisticsModel::Exclusive, Qt::DescendingOrder);
    model.setRowMode(RowMode::Thread, ThreadIndex(0u));
    QCOMPARE(namesInOrder(setup.proxy),
        (QStringList { QStringLiteral("c100"), QStringLiteral("b10"), QStringLiteral("a9") }));
}

void TestStatisticsModel::searchAndExport()
{
    StatisticsModel model(fourThreadTrial(), MetricId(0u));
    model.setLocale(english);
    auto* view = new QTreeView; // owned by setup.widget
    ViewSetupOptions options;
    options.sortColumn = StatisticsModel::Exclusive;
    const ViewSetup setup = setupTreeView(view, &model, options);
    std::unique_ptr<QWidget> owner(setup.widget);
    QAbstractItemModelTester tester(setup.proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(setup.proxy->sortRole(), SortRole);

    // Debounced, case-insensitive fixed-string search on the name column.
    setup.search->setText(QStringLiteral("WORK"));
    QCOMPARE(setup.proxy->rowCount(), 3); // not yet: 250 ms debounce
    QTRY_COMPARE(setup.proxy->rowCount(), 2);
    setup.search->setText(QStringLiteral("^work$"));
    QTRY_COMPARE(setup.proxy->rowCount(), 0);
    setup.regex->setChecked(true); // applies at once
    QCOMPARE(setup.proxy->rowCount(), 1);
    setup.search->setText(QStringLiteral("(")); // invalid: the last good filter stays
    QTest::qWait(400);
    QCOMPARE(setup.proxy->rowCount(), 1);
    setup.search->clear();
    QTRY_COMPARE(setup.proxy->rowCount(), 3);

    // CSV of what is shown: visible columns only, rows in view order.
    view->header()->setSectionHidden(StatisticsModel::Groups, true);
    view->header()->setSectionHidden(StatisticsModel::Subroutines, true);
    setup.search->setText(QStringLiteral("work"));
    QTRY_COMPARE(setup.proxy->rowCount(), 2);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QString error;
    QVERIFY2(ViewSetup::writeCsv(view, &buffer, &error), qPrintable(error));
    const QStringList lines = QString::fromUtf8(buffer.data()).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    // The imbalance columns (issue 14) are exported too: work is 10, 20, 30 and absent on 4 threads
    // (lost time = max − mean = 30 − 15 µs = 0.015 ms, the column added for the imbalance sorts).
    QCOMPARE(lines[0],
        QStringLiteral("Name,Exclusive (ms),Inclusive (ms),Excl %,Incl %,Calls,Excl/call (ms),Incl/call (ms),Max/Mean,"
                       "Imbalance %,Lost time (ms),CV,Max Thread,Threads"));
    // "work" and "main => work" tie on exclusive time; either may come first.
    const QString workLine = lines[1].startsWith(QStringLiteral("work,")) ? lines[1] : lines[2];
    QCOMPARE(workLine,
        QStringLiteral("work,0.015,0.015,15.79,15.79,1.25,0.012,0.012,2.00,50.00,0.015,0.75,\"2,0,0\",3 / 4"));

    // Ctrl+C text: selected rows, tab-separated, visible columns.
    view->selectAll();
    const QString text = ViewSetup::selectionAsText(view);
    QCOMPARE(text.count(QLatin1Char('\n')), 2);
    QVERIFY(
        text.startsWith(QStringLiteral("work\t0.015\t")) || text.startsWith(QStringLiteral("main => work\t0.015\t")));
    QCOMPARE(text.split(QLatin1Char('\n')).first().count(QLatin1Char('\t')), 13); // 14 visible columns (with Lost time)
    QApplication::clipboard()->clear();
    QTest::keyClick(view, Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QApplication::clipboard()->text(), text);
}

void TestStatisticsModel::realSample()
{
    const QString path = QStringLiteral(PARALLAX_DATA_DIR "/tau2/tau-profiles-callpath-cpi-4rank");
    Progress progress;
    const TrialResult result = ReaderRegistry::instance().read(path, ReadOptions {}, progress);
    QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().toString()));
    StatisticsModel model(result.value(), MetricId(0u));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLocale(english);

    const QString open = QStringLiteral("MPI_File_open()");
    QCOMPARE(sortValue(&model, open, StatisticsModel::Exclusive), 27118.5);
    QCOMPARE(shown(&model, open, StatisticsModel::Exclusive), QStringLiteral("27.119"));
    QCOMPARE(sortValue(&model, QStringLiteral(".TAU application"), StatisticsModel::Exclusive), 426.5);
    QCOMPARE(sortValue(&model, QStringLiteral(".TAU application"), StatisticsModel::Inclusive), 53511.75);
    const QString tip
        = model.index(rowOfName(&model, open), StatisticsModel::Exclusive).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("Mean over all 4 threads (absent = 0)"))
            && tip.contains(QStringLiteral("27118.5 µs")),
        qPrintable(tip));
    model.setRowMode(RowMode::Min);
    QCOMPARE(sortValue(&model, open, StatisticsModel::Exclusive), 26904.0);
    model.setRowMode(RowMode::Max);
    QCOMPARE(sortValue(&model, open, StatisticsModel::Exclusive), 27490.0);
    model.setRowMode(RowMode::StdDevAll);
    QVERIFY(qAbs(sortValue(&model, open, StatisticsModel::Exclusive) - 221.692) < 1e-3);
    // Rank 0: 27490 / 51781 = 53.09 %.
    model.setRowMode(RowMode::Thread, ThreadIndex(0u));
    QCOMPARE(shown(&model, open, StatisticsModel::ExclusivePercent), QStringLiteral("53.09"));
}

QTEST_MAIN(TestStatisticsModel)
#include "tst_statisticsmodel.moc"
