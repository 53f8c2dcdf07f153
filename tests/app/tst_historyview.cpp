// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The history window (issue 17 §1, views/history/historyview.h, app/gui/historylauncher.h) on 30
// nightly runs with an 8 % regression planted in 'solve' from night 14: the change point is found
// and marked on the chart (▲ at night 14, its band and its label), the movers table lists it, a
// point under the mouse is the run, a click asks for the comparison with the previous run or the
// chosen baseline and opens the comparison window; the same history from a SQLite database (the
// runs loaded back, a clicked run's trial read from it); a run without the order key is an error.
#include "app/gui/databasepanel.h"
#include "app/gui/historylauncher.h"
#include "perfdb/database.h"
#include "tests/common/nightlyruns.h"
#include "views/charts/qcustomplotwrapper.h"
#include "views/comparison/comparisonwindow.h"

#include <QApplication>
#include <QInputDialog>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <random>

using namespace parallax;
using namespace parallax::test;

namespace {

/// The 30 nights, in a shuffled order (the history orders them by Date).
std::vector<std::shared_ptr<const Trial>> nights()
{
    std::mt19937_64 random(20261014);
    std::vector<std::shared_ptr<const Trial>> trials;
    for (int night = 1; night <= 30; ++night)
        trials.push_back(nightlyTrial(night, random));
    std::shuffle(trials.begin(), trials.end(), random);
    return trials;
}

const HistorySeries* seriesOf(const History& h, const QString& event)
{
    for (const HistorySeries& s : h.series)
        if (s.event == event)
            return &s;
    return nullptr;
}

/// The line graph of an event (the one named like it in the legend).
QCPGraph* lineOf(QCustomPlot* plot, const QString& event)
{
    for (int g = 0; g < plot->graphCount(); ++g)
        if (plot->graph(g)->name() == event)
            return plot->graph(g);
    return nullptr;
}

} // namespace

class TestHistoryView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void changePointMarked()
    {
        HistoryView view(historyOfTrials(nights(), {}, QStringLiteral("Date")));
        view.resize(1300, 900);
        view.show();
        view.waitForResult();
        QVERIFY2(view.error().isEmpty(), qPrintable(view.error()));
        const History* h = view.history();
        QVERIFY(h);
        QCOMPARE(h->runs.size(), std::size_t(30));
        QCOMPARE(h->runs.front().order, QStringLiteral("2026-10-01"));
        const HistorySeries* solve = seriesOf(*h, QStringLiteral("solve"));
        QVERIFY(solve);
        QCOMPARE(solve->changes.changes.size(), std::size_t(1));
        const ChangePoint& c = solve->changes.changes.front();
        QCOMPARE(c.index, 13); // night 14
        QVERIFY2(c.percent > 6 && c.percent < 10, qPrintable(QString::number(c.percent)));
        // The selected event is the one with a change point: its band and its ▲ marker are drawn.
        QCOMPARE(view.selectedEvent(), QStringLiteral("solve"));
        QCustomPlot* plot = view.plot();
        bool marker = false;
        bool band = false;
        for (int g = 0; g < plot->graphCount(); ++g) {
            const QCPGraph* graph = plot->graph(g);
            if (graph->scatterStyle().shape() == QCPScatterStyle::ssTriangle && graph->data()->size() == 1
                && graph->data()->constBegin()->key == 13.0)
                marker = qFuzzyCompare(graph->data()->constBegin()->value, solve->values[13]);
            if (graph->channelFillGraph()) {
                band = graph->data()->size() == 30;
                QCOMPARE(graph->data()->at(13)->value, solve->maximum[13]);
                QCOMPARE(graph->channelFillGraph()->data()->at(13)->value, solve->minimum[13]);
            }
        }
        QVERIFY(marker);
        QVERIFY(band);
        bool labelled = false;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)))
                labelled = labelled || text->text().startsWith(QStringLiteral("regression +"));
        QVERIFY(labelled);
        // No change point in MPI_Allreduce (noise only): no marker at all for it.
        QVERIFY(seriesOf(*h, QStringLiteral("MPI_Allreduce()"))->changes.changes.empty());

        // The movers: one row per series, solve's change point with the run it happened at.
        QTableWidget* movers = view.movers();
        QCOMPARE(movers->rowCount(), static_cast<int>(h->series.size()));
        bool listed = false;
        for (int r = 0; r < movers->rowCount(); ++r)
            if (movers->item(r, 0)->text() == QLatin1String("solve"))
                listed = movers->item(r, 5)->text().contains(QStringLiteral("at 2026-10-14"))
                    && movers->item(r, 5)->text().startsWith(QStringLiteral("▲ +"));
        QVERIFY(listed);

        // Another statistic: the slowest thread's value is the band's top.
        HistoryOptions options = view.options();
        options.statistic = Statistic::Max;
        view.setOptions(options);
        view.waitForResult();
        const HistorySeries* max = seriesOf(*view.history(), QStringLiteral("solve"));
        QVERIFY(max);
        QCOMPARE(max->values[20], max->maximum[20]);
    }

    void hoverAndClickCompare()
    {
        HistoryView view(historyOfTrials(nights(), {}, QStringLiteral("Date")));
        view.resize(1300, 900);
        view.show();
        view.waitForResult();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCustomPlot* plot = view.plot();
        plot->replot();
        QCPGraph* solve = lineOf(plot, QStringLiteral("solve"));
        QVERIFY(solve);
        const QPointF point = solve->coordsToPixels(13, solve->data()->at(13)->value);
        QString event;
        QCOMPARE(view.pointAt(point, &event), 13);
        QCOMPARE(event, QStringLiteral("solve"));
        QCOMPARE(view.pointAt(point + QPointF(0, 40)), -1);

        QSignalSpy spy(&view, &HistoryView::compareRequested);
        QTest::mouseClick(plot, Qt::LeftButton, {}, point.toPoint());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), 12);
        QCOMPARE(spy.at(0).at(1).toInt(), 13);
        view.setBaseline(0);
        QTest::mouseClick(plot, Qt::LeftButton, {}, point.toPoint());
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.at(1).at(0).toInt(), 0);
        QVERIFY(!view.requestComparison(0)); // the baseline itself
        view.setBaseline(-1);
        QVERIFY(!view.requestComparison(0)); // nothing before the first run
        QCOMPARE(spy.count(), 2);
    }

    void clickOpensComparison()
    {
        HistoryView* view = openHistory(historyOfTrials(nights(), {}, QStringLiteral("Date")));
        view->waitForResult();
        QVERIFY(view->requestComparison(13));
        ComparisonWindow* window = nullptr;
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* c = qobject_cast<ComparisonWindow*>(w))
                window = c;
        QVERIFY(window);
        QCOMPARE(window->trialA()->name(), QStringLiteral("night 13"));
        QCOMPARE(window->trialB()->name(), QStringLiteral("night 14"));
        window->close();
        view->close();
    }

    void fromTheDatabase()
    {
        QTemporaryDir dir;
        const QString location = dir.filePath(QStringLiteral("nightly.db"));
        const auto trials = nights();
        {
            auto db = perfdb::Database::open(location);
            QVERIFY2(db, qPrintable(db ? QString() : db.error().toString()));
            for (const auto& t : trials) {
                perfdb::UploadOptions options;
                options.application = QStringLiteral("nightly");
                options.experiment = QStringLiteral("cpu");
                Progress progress;
                QVERIFY(db.value()->uploadTrial(*t, options, progress));
            }
        }
        std::vector<Metric> metrics { trials.front()->metric(MetricId(0u)) };
        HistorySource source = historyOfDatabase(location,
            withMetadata({}, QStringLiteral("nightly"), QStringLiteral("cpu")), QStringLiteral("Date"), metrics);
        HistoryView fromDb(source);
        fromDb.waitForResult();
        QVERIFY2(fromDb.error().isEmpty(), qPrintable(fromDb.error()));
        HistoryView fromFiles(historyOfTrials(trials, {}, QStringLiteral("Date")));
        fromFiles.waitForResult();
        const HistorySeries* a = seriesOf(*fromDb.history(), QStringLiteral("solve"));
        const HistorySeries* b = seriesOf(*fromFiles.history(), QStringLiteral("solve"));
        QVERIFY(a && b);
        QCOMPARE(a->values.size(), b->values.size());
        for (std::size_t i = 0; i < a->values.size(); ++i)
            QVERIFY(std::abs(a->values[i] - b->values[i]) <= 1e-9 * b->values[i]);
        QCOMPARE(a->changes.changes.size(), std::size_t(1));
        QCOMPARE(a->changes.changes.front().index, 13);
        QVERIFY(fromDb.history()->runs[13].label.startsWith(QStringLiteral("db:")));
        // A clicked run's trial, read back from the database when the history does not carry it.
        HistoryInput run = fromDb.history()->runs[13];
        run.trial.reset();
        QString error;
        const auto trial = source.trialOf(run, &error);
        QVERIFY2(trial, qPrintable(error));
        QCOMPARE(trial->name(), QStringLiteral("night 14"));

        // The Databases dock's "Performance History…" on the experiment: the order key is asked for
        // (Date offered first), then the window opens on the database's runs.
        DatabasePanel panel;
        QSignalSpy opened(&panel, &DatabasePanel::historyOpened);
        HistoryView* fromPanel = nullptr;
        connect(&panel, &DatabasePanel::historyOpened, this, [&fromPanel](HistoryView* view) { fromPanel = view; });
        QStringList offered;
        QTimer answer;
        answer.setInterval(20);
        connect(&answer, &QTimer::timeout, &answer, [&answer, &offered] {
            if (auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget())) {
                answer.stop();
                offered = dialog->comboBoxItems();
                QCOMPARE(dialog->textValue(), QStringLiteral("Date"));
                dialog->accept();
            }
        });
        answer.start();
        UploadTarget target;
        target.location = location;
        target.application = QStringLiteral("nightly");
        target.experiment = QStringLiteral("cpu");
        panel.openHistoryOf(target);
        QVERIFY(opened.wait(20000));
        QVERIFY(offered.contains(QStringLiteral("upload")) && offered.contains(QStringLiteral("Date")));
        QVERIFY(fromPanel);
        fromPanel->waitForResult();
        QVERIFY2(fromPanel->error().isEmpty(), qPrintable(fromPanel->error()));
        QCOMPARE(seriesOf(*fromPanel->history(), QStringLiteral("solve"))->changes.changes.front().index, 13);
        fromPanel->close();
    }

    void runWithoutTheKey()
    {
        HistoryView view(historyOfTrials(nights(), {}, QStringLiteral("Build")));
        view.waitForResult();
        QVERIFY(!view.history());
        QVERIFY2(view.error().contains(QStringLiteral("has no metadata 'Build'")), qPrintable(view.error()));
    }
};

QTEST_MAIN(TestHistoryView)
#include "tst_historyview.moc"
