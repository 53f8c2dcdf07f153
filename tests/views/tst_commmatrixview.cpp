// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The Communication view (issue 20 §3) on the merged TAU XML sample: the matrix and contexts it
// shows, the tooltip and click of a cell (the sender's thread and the pair selected), the quantity,
// context and side boxes, the CSV export; a trial without messages; and a generated 4,096-rank
// trial whose matrix and image are made on a worker while the GUI thread returns at once.
#include "algebra/commmatrix.h"
#include "datasource/model/trialbuilder.h"
#include "tests/common/testutil.h"
#include "views/commmatrix/commmatrixview.h"
#include "views/selectionstate.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace parallax;
using namespace parallax::test;

namespace {

QString mpasXml() { return dataPath(QStringLiteral("tau2/tauprofile-xml-merged/tauprofile.xml")); }

/// `ranks` threads (r,0,0); rank r sends r + 1 messages of 8 bytes to r + 1, r - 1 and r + 64 (mod
/// ranks), so the matrix has 3 cells per row.
std::shared_ptr<const Trial> ringTrial(int ranks)
{
    TrialBuilder b(QStringLiteral("ring"));
    b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
    std::vector<AtomicEventId> sent;
    sent.reserve(std::size_t(ranks));
    for (int k = 0; k < ranks; ++k)
        sent.push_back(b.addAtomicEvent(QStringLiteral("Message size sent to node %1").arg(k)));
    for (int r = 0; r < ranks; ++r) {
        const ThreadIndex t = b.addThread({ r, 0, 0 });
        const double n = r + 1;
        for (const int peer : { (r + 1) % ranks, (r + ranks - 1) % ranks, (r + 64) % ranks })
            b.addAtomic(t, sent[std::size_t(peer)], n, 8, 8, 8, n * 64);
    }
    return b.build();
}

} // namespace

class TestCommMatrixView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void mpas()
    {
        SelectionState state;
        const auto trial = mustLoad(mpasXml());
        state.setTrial(trial);
        CommMatrixView view(&state);
        view.resize(1000, 700);
        view.show();
        view.updateNow();
        QVERIFY(view.matrix());
        const CommMatrix expected = commMatrix(*trial);
        QCOMPARE(view.matrix()->ranks, expected.ranks);
        QCOMPARE(view.matrix()->cells.size(), expected.cells.size());
        QCOMPARE(view.contexts(), commContexts(*trial));
        QCOMPARE(view.plot()->image().size(), QSize(8, 8));
        QVERIFY(view.message().contains(QStringLiteral("8 ranks")));

        // The tooltip of the cell 1 -> 0: 40,722 messages.
        const CommMatrixPlot* plot = view.plot();
        const QPoint p = plot->pointOf(1, 0);
        QCOMPARE(plot->cellAt(p), (std::optional<std::pair<std::size_t, std::size_t>>({ 1, 0 })));
        const QString tip = plot->toolTipAt(p);
        QVERIFY2(tip.contains(QStringLiteral("sender rank 1 → receiver rank 0")), qPrintable(tip));
        const CommCell c = expected.cell(1, 0);
        QVERIFY(tip.contains(formatCommValue(c.messages, CommQuantity::Messages)));
        QVERIFY(tip.contains(formatCommValue(c.bytes, CommQuantity::Bytes)));
        QVERIFY(tip.contains(formatCommValue(c.mean(), CommQuantity::MeanSize)));
        QVERIFY(plot->toolTipAt(QPoint(1, 1)).isEmpty());

        // A click on 2 -> 5 selects rank 2's thread, and the pair as the selected threads.
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, plot->pointOf(2, 5));
        QCOMPARE(state.thread(), trial->findThread({ 2, 0, 0 }));
        std::vector<ThreadIndex> pair { trial->findThread({ 2, 0, 0 }), trial->findThread({ 5, 0, 0 }) };
        std::sort(pair.begin(), pair.end());
        QCOMPARE(state.selectedThreads(), pair);

        // Another quantity keeps the matrix and makes a new picture; a context computes anew.
        const CommMatrix* before = view.matrix();
        view.setQuantity(CommQuantity::MeanSize);
        view.setLogScale(true);
        view.updateNow();
        QCOMPARE(view.matrix(), before);
        QCOMPARE(view.quantity(), CommQuantity::MeanSize);
        QVERIFY(view.setContext(QStringLiteral("se halo tracers => MPI_Isend()")));
        view.updateNow();
        QCOMPARE(view.matrix()->context, QStringLiteral("se halo tracers => MPI_Isend()"));
        QCOMPARE(view.matrix()->cells.size(), commMatrix(*trial, view.context()).cells.size());
        QVERIFY(!view.setContext(QStringLiteral("nowhere")));

        // CSV of what is shown.
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("m.csv"));
        QCOMPARE(view.exportCsv(csv), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), commMatrixCsv(*view.matrix(), CommQuantity::MeanSize));

        // The received side: this sample records none.
        view.setSide(CommSide::Received);
        view.updateNow();
        QVERIFY(view.matrix()->empty());
        QVERIFY(view.message().contains(QStringLiteral("no received messages")));
        QVERIFY(!view.exportCsv(csv).isEmpty());
    }

    void colours()
    {
        // Empty cells differ from the smallest value; larger values are darker.
        const QColor empty = CommMatrixPlot::colorOf(0, 1, 100, false);
        const QColor small = CommMatrixPlot::colorOf(1, 1, 100, false);
        const QColor large = CommMatrixPlot::colorOf(100, 1, 100, false);
        QVERIFY(empty != small);
        QVERIFY(large.lightness() < small.lightness());
        // The log scale spreads small values apart.
        QVERIFY(CommMatrixPlot::colorOf(10, 1, 100, true).lightness()
            < CommMatrixPlot::colorOf(10, 1, 100, false).lightness());
    }

    void noMessages()
    {
        SelectionState state;
        state.setTrial(mustLoad(dataPath(QStringLiteral("hatchet/tau-cpi-mpi"))));
        CommMatrixView view(&state);
        view.show();
        view.updateNow();
        QVERIFY(!view.matrix());
        QVERIFY(view.message().contains(QStringLiteral("no point-to-point message events")));
        QVERIFY(view.plot()->image().isNull());
    }

    void manyRanksOnAWorker()
    {
        constexpr int Ranks = 4096;
        const auto trial = ringTrial(Ranks);
        SelectionState state;
        CommMatrixView view(&state);
        view.resize(900, 700);
        view.show();
        state.setTrial(trial);
        // Only the view's queued update: it starts the job and returns before the matrix exists.
        QCoreApplication::sendPostedEvents(&view, QEvent::MetaCall);
        QVERIFY(view.isComputing());
        QVERIFY(!view.matrix());
        QTRY_VERIFY_WITH_TIMEOUT(view.matrix() != nullptr, 60000);
        const CommMatrix& m = *view.matrix();
        QCOMPARE(m.size(), std::size_t(Ranks));
        QCOMPARE(m.cells.size(), std::size_t(3 * Ranks));
        QCOMPARE(m.cell(100, 164).messages, 101.0);
        QCOMPARE(m.rowSum(100, CommQuantity::Bytes), 3 * 101 * 8.0);
        QCOMPARE(m.columnSum(0, CommQuantity::Messages), double(Ranks) + 2.0 + double(Ranks - 63));
        // 4,096 ranks in a 2,048-pixel image: two ranks a pixel, each pixel the largest of its block.
        QCOMPARE(view.plot()->image().size(), QSize(CommMatrixPlot::MaxImageSide, CommMatrixPlot::MaxImageSide));
        QVERIFY(view.message().contains(QStringLiteral("2 ranks share a pixel")));
        const QColor busy = view.plot()->image().pixelColor(50, 50); // ranks 100/101 -> 100/101
        const QColor idle = view.plot()->image().pixelColor(1000, 50);
        QVERIFY(busy != idle);
        // A screen pixel holds several ranks: hover and click take the rank under the mouse, near
        // the cell aimed at, and agree with each other.
        const QPoint p = view.plot()->pointOf(4000, 4001);
        const auto cell = view.plot()->cellAt(p);
        QVERIFY(cell);
        const double ranksPerPixel = double(Ranks) / view.plot()->width();
        QVERIFY(std::abs(double(cell->first) - 4000) <= ranksPerPixel + 1);
        QVERIFY(view.plot()->toolTipAt(p).contains(QStringLiteral("sender rank %1 ").arg(cell->first)));
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, p);
        QCOMPARE(std::size_t(trial->threadKey(state.thread()).node), cell->first);
    }
};

QTEST_MAIN(TestCommMatrixView)
#include "tst_commmatrixview.moc"
