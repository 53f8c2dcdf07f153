// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The communication matrix (docs/SEMANTICS.md 13) against the MANIFEST's matrix of the merged TAU
// XML sample, one context against sums computed here from the atomic records, the pipit ping-pong
// OTF2 trace, and small built trials for the context fallback, several threads per node and the
// received side.
#include "algebra/commmatrix.h"
#include "datasource/model/trialbuilder.h"
#include "tests/common/testutil.h"

#include <QRegularExpression>

using namespace parallax;
using namespace parallax::test;

namespace {

QString mpasXml() { return dataPath(QStringLiteral("tau2/tauprofile-xml-merged/tauprofile.xml")); }

/// tau2/MANIFEST.md, "communication matrix of tauprofile.xml": bytes, row = sender, column = receiver.
constexpr double MpasBytes[8][8] = {
    { 2468084, 133286780, 107148308, 889556, 944080, 30975432, 1027804, 73982448 },
    { 152742556, 389252, 33699536, 95665500, 36993720, 100624, 107872, 7228 },
    { 103392044, 37032028, 116, 144341000, 4648, 6948, 56775164, 26208420 },
    { 976140, 102767544, 135972252, 116, 77984, 4432, 6632, 2668 },
    { 1072744, 20848060, 2656, 3520, 116, 108987580, 7128, 7112 },
    { 31190540, 202504, 7124, 8504, 113777772, 116, 78060, 108484940 },
    { 1262872, 210108, 57081004, 3352, 7640, 6304, 116, 137743688 },
    { 71140904, 3544, 35203160, 5360, 6032, 101428232, 135734300, 116 },
};
constexpr double MpasRowTotals[8]
    = { 350722492, 319706288, 367760368, 239807768, 130928916, 253749560, 196315084, 343521648 };

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

/// Bytes per (sender node, receiver node) of the records named "Message size sent to node K : CONTEXT",
/// read by name here rather than through the algebra.
std::map<std::pair<int, int>, double> contextBytes(const Trial& t, const QString& context)
{
    static const QRegularExpression name(QStringLiteral(R"(^Message size sent to node (\d+) : (.*)$)"));
    std::map<std::pair<int, int>, double> out;
    for (std::size_t th = 0; th < t.threadCount(); ++th) {
        const AtomicRow& row = t.atomicRow(ThreadIndex(th));
        for (std::size_t i = 0; i < row.size(); ++i) {
            const auto m = name.match(t.atomicEvent(row.events[i]).name);
            if (m.hasMatch() && m.captured(2) == context)
                out[{ t.threads()[th].node, m.captured(1).toInt() }] += row.count[i] * row.mean[i];
        }
    }
    return out;
}

/// Adds a "Message size …" record (n messages of `size` bytes) to thread t.
void message(TrialBuilder& b, ThreadIndex t, const QString& name, double n, double size)
{
    b.addAtomic(t, b.addAtomicEvent(name), n, size, size, size, n * size * size);
}

} // namespace

class TestCommMatrix : public QObject {
    Q_OBJECT
private slots:
    void names()
    {
        const auto sent = parseCommEventName(QStringLiteral("Message size sent to node 12"));
        QVERIFY(sent && sent->side == CommSide::Sent && sent->peer == 12);
        const auto received = parseCommEventName(QStringLiteral("Message size received from node 3"));
        QVERIFY(received && received->side == CommSide::Received && received->peer == 3);
        QVERIFY(!parseCommEventName(QStringLiteral("Message size sent to all nodes")));
        QVERIFY(!parseCommEventName(QStringLiteral("Message size received from all nodes")));
        QVERIFY(!parseCommEventName(QStringLiteral("[GROUP=MAX_MARKER] Message size sent to node 0")));
        QVERIFY(!parseCommEventName(QStringLiteral("Message size for broadcast")));
        for (const CommQuantity q : { CommQuantity::Bytes, CommQuantity::Messages, CommQuantity::MeanSize })
            QCOMPARE(commQuantityOf(commQuantityName(q)), q);
        QVERIFY(!commQuantityOf(QStringLiteral("volume")));
    }

    void mpasManifest()
    {
        const auto t = mustLoad(mpasXml());
        QVERIFY(hasCommEvents(*t));
        const CommMatrix m = commMatrix(*t);
        QCOMPARE(m.ranks, (std::vector<int> { 0, 1, 2, 3, 4, 5, 6, 7 }));
        QCOMPARE(m.pairsFromContexts, std::size_t(0));
        for (std::size_t s = 0; s < 8; ++s) {
            for (std::size_t r = 0; r < 8; ++r)
                QVERIFY2(
                    near(m.cell(s, r).bytes, MpasBytes[s][r]), qPrintable(QStringLiteral("%1 -> %2").arg(s).arg(r)));
            QVERIFY(near(m.rowSum(s, CommQuantity::Bytes), MpasRowTotals[s]));
            double column = 0;
            for (std::size_t k = 0; k < 8; ++k)
                column += MpasBytes[k][s];
            QVERIFY(near(m.columnSum(s, CommQuantity::Bytes), column));
            // A click selects the rank's thread (n,0,0).
            QCOMPARE(t->threadKey(m.rankThreads[s]).node, int(s));
        }
        // The raw record rank 1 -> 0: 40,722 messages of mean 3750.860861450813 bytes.
        QCOMPARE(m.cell(1, 0).messages, 40722.0);
        QVERIFY(near(m.cell(1, 0).mean(), 3750.860861450813));
        QVERIFY(near(CommMatrix::value(m.cell(1, 0), CommQuantity::MeanSize), 3750.860861450813));
        // Self-sends: 120 messages on rank 0, 32 on rank 1, 29 × 4 bytes on ranks 2-7.
        QCOMPARE(m.cell(0, 0).messages, 120.0);
        QCOMPARE(m.cell(1, 1).messages, 32.0);
        for (std::size_t r = 2; r < 8; ++r) {
            QCOMPARE(m.cell(r, r).messages, 29.0);
            QVERIFY(near(m.cell(r, r).mean(), 4.0));
        }
        // The dense form holds the same cells.
        const std::vector<double> dense = m.dense(CommQuantity::Bytes);
        QCOMPARE(dense.size(), std::size_t(64));
        QVERIFY(near(dense[2 * 8 + 3], MpasBytes[2][3]));
        QCOMPARE(m.maxValue(CommQuantity::Bytes), 152742556.0);
        QCOMPARE(m.minPositiveValue(CommQuantity::Bytes), 116.0);
        // Row sums of messages and the row's mean size agree.
        for (std::size_t s = 0; s < 8; ++s)
            QVERIFY(near(m.rowSum(s, CommQuantity::MeanSize),
                m.rowSum(s, CommQuantity::Bytes) / m.rowSum(s, CommQuantity::Messages)));
        // The sample records no received side.
        QVERIFY(commMatrix(*t, {}, CommSide::Received).empty());
    }

    void mpasContexts()
    {
        const auto t = mustLoad(mpasXml());
        const QStringList contexts = commContexts(*t);
        QCOMPARE(contexts.size(), 13);
        QVERIFY(contexts.contains(QStringLiteral("se halo tracers => MPI_Isend()")));
        QVERIFY(contexts.contains(QStringLiteral("total time => MPI_Send()")));
        QVERIFY(std::is_sorted(contexts.begin(), contexts.end()));
        double contextTotal = 0;
        for (const QString& context : contexts) {
            const CommMatrix m = commMatrix(*t, context);
            const auto expected = contextBytes(*t, context);
            QVERIFY2(!expected.empty(), qPrintable(context));
            std::size_t nonEmpty = 0;
            for (std::size_t s = 0; s < m.size(); ++s)
                for (std::size_t r = 0; r < m.size(); ++r) {
                    const auto it = expected.find({ m.ranks[s], m.ranks[r] });
                    QVERIFY(near(m.cell(s, r).bytes, it == expected.end() ? 0.0 : it->second));
                    nonEmpty += m.cell(s, r).messages > 0 ? 1 : 0;
                }
            QCOMPARE(m.cells.size(), nonEmpty);
            for (std::size_t s = 0; s < m.size(); ++s)
                contextTotal += m.rowSum(s, CommQuantity::Bytes);
        }
        // Every message of this run was sent under exactly one of the contexts.
        double total = 0;
        for (const double v : MpasRowTotals)
            total += v;
        QVERIFY(near(contextTotal, total));
        QVERIFY(commMatrix(*t, QStringLiteral("no such context")).empty());
    }

    void otf2PingPong_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("ping-pong-otf2") << dataPath(QStringLiteral("otf2/pipit/ping-pong-otf2"));
        QTest::newRow("ping-pong-otf2-papi") << dataPath(QStringLiteral("otf2/pipit/ping-pong-otf2-papi"));
    }

    void otf2PingPong()
    {
        QFETCH(QString, path);
        const auto t = mustLoad(path);
        // pipit's comm_matrix: 8 messages, 4,177,920 bytes each way, nothing to self.
        for (const CommSide side : { CommSide::Sent, CommSide::Received }) {
            const CommMatrix m = commMatrix(*t, {}, side);
            QCOMPARE(m.ranks, (std::vector<int> { 0, 1 }));
            QCOMPARE(m.cells.size(), std::size_t(2));
            QCOMPARE(m.cell(0, 1).bytes, 4177920.0);
            QCOMPARE(m.cell(1, 0).bytes, 4177920.0);
            QCOMPARE(m.cell(0, 1).messages, 8.0);
            QCOMPARE(m.cell(1, 0).messages, 8.0);
            QCOMPARE(m.cell(0, 0).messages, 0.0);
        }
        QVERIFY(commContexts(*t).isEmpty());
    }

    void contextFallbackAndThreads()
    {
        // Node 0 has two threads; node 1 records only context variants for peer 0, and a plain
        // event for peer 2; node 2 has no threads of its own but is a peer.
        TrialBuilder b(QStringLiteral("comm"));
        b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
        const ThreadIndex t00 = b.addThread({ 0, 0, 0 });
        const ThreadIndex t01 = b.addThread({ 0, 0, 1 });
        const ThreadIndex t10 = b.addThread({ 1, 0, 0 });
        message(b, t00, QStringLiteral("Message size sent to node 1"), 2, 100);
        message(b, t00, QStringLiteral("Message size sent to node 1 : main => MPI_Send()"), 2, 100);
        message(b, t01, QStringLiteral("Message size sent to node 1"), 3, 10);
        message(b, t10, QStringLiteral("Message size sent to node 0 : main => MPI_Send()"), 4, 50);
        message(b, t10, QStringLiteral("Message size sent to node 0 : main => MPI_Isend()"), 1, 200);
        message(b, t10, QStringLiteral("Message size sent to node 2"), 5, 8);
        message(b, t10, QStringLiteral("Message size sent to all nodes"), 9, 9);
        message(b, t10, QStringLiteral("Message size received from node 0"), 5, 46);
        const auto trial = b.build();

        const CommMatrix all = commMatrix(*trial);
        QCOMPARE(all.ranks, (std::vector<int> { 0, 1, 2 }));
        QCOMPARE(all.rankThreads[0], t00);
        QVERIFY(!all.rankThreads[2].isValid());
        // Both threads of node 0 add up: 2 × 100 + 3 × 10 bytes in 5 messages (the context
        // variant of thread (0,0,0) is already in its plain event).
        QCOMPARE(all.cell(0, 1).bytes, 230.0);
        QCOMPARE(all.cell(0, 1).messages, 5.0);
        QCOMPARE(all.cell(0, 1).mean(), 46.0);
        // Node 1 -> 0 from its two context variants: 200 + 200 bytes in 5 messages.
        QCOMPARE(all.cell(1, 0).bytes, 400.0);
        QCOMPARE(all.cell(1, 0).messages, 5.0);
        QCOMPARE(all.pairsFromContexts, std::size_t(1));
        QCOMPARE(all.cell(1, 2).bytes, 40.0);
        QCOMPARE(all.rowSum(1, CommQuantity::Bytes), 440.0);
        QCOMPARE(all.rowSum(1, CommQuantity::Messages), 10.0);
        QCOMPARE(all.columnSum(0, CommQuantity::Bytes), 400.0);
        QCOMPARE(all.columnSum(2, CommQuantity::MeanSize), 8.0);
        QCOMPARE(all.rowSum(2, CommQuantity::MeanSize), 0.0);

        QCOMPARE(commContexts(*trial),
            (QStringList { QStringLiteral("main => MPI_Isend()"), QStringLiteral("main => MPI_Send()") }));
        const CommMatrix send = commMatrix(*trial, QStringLiteral("main => MPI_Send()"));
        QCOMPARE(send.cell(0, 1).bytes, 200.0);
        QCOMPARE(send.cell(1, 0).bytes, 200.0);
        QCOMPARE(send.cells.size(), std::size_t(2));

        // The received side, laid out sender × receiver: node 1 received 5 messages from node 0,
        // the same as node 0's threads sent it.
        const CommMatrix received = commMatrix(*trial, {}, CommSide::Received);
        QCOMPARE(received.cells.size(), std::size_t(1));
        QCOMPARE(received.cell(0, 1).bytes, all.cell(0, 1).bytes);
        QCOMPARE(received.cell(0, 1).messages, all.cell(0, 1).messages);
    }

    void noCommunication()
    {
        const auto t = mustLoad(dataPath(QStringLiteral("hatchet/tau-cpi-mpi")));
        QVERIFY(!hasCommEvents(*t));
        const CommMatrix m = commMatrix(*t);
        QVERIFY(m.empty());
        QCOMPARE(m.size(), t->nodeCount());
        QVERIFY(commContexts(*t).isEmpty());
    }

    void cancelled()
    {
        const auto t = mustLoad(mpasXml());
        const std::atomic_bool stop { true };
        QVERIFY(commMatrix(*t, {}, CommSide::Sent, &stop).empty());
    }
};

QTEST_GUILESS_MAIN(TestCommMatrix)
#include "tst_commmatrix.moc"
