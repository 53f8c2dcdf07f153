// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// `parallax-cli commmatrix` (issue 20 §3): the JSON and CSV of the merged TAU XML sample against the
// algebra's matrix and the MANIFEST's row totals, a context, the mean size, the OTF2 ping-pong, a
// trial without messages, and the usage errors.
#include "algebra/commmatrix.h"
#include "tests/common/clirunner.h"
#include "tests/common/testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace parallax;
using namespace parallax::test;

namespace {

QString mpasXml() { return dataPath(QStringLiteral("tau2/tauprofile-xml-merged/tauprofile.xml")); }

QJsonObject runJson(const QStringList& args)
{
    const CliRun r = runCli(QStringList { QStringLiteral("commmatrix"), QStringLiteral("--json") } + args);
    if (r.exitCode != 0)
        qWarning("%s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

} // namespace

class TestCliCommMatrix : public QObject {
    Q_OBJECT
private slots:
    void jsonMatchesTheAlgebra()
    {
        const QJsonObject o = runJson({ mpasXml() });
        QCOMPARE(o.value(QStringLiteral("quantity")).toString(), QStringLiteral("bytes"));
        QCOMPARE(o.value(QStringLiteral("side")).toString(), QStringLiteral("sent"));
        QVERIFY(o.value(QStringLiteral("context")).isNull());
        const QJsonArray ranks = o.value(QStringLiteral("ranks")).toArray();
        QCOMPARE(ranks.size(), 8);
        const auto trial = mustLoad(mpasXml());
        const CommMatrix m = commMatrix(*trial);
        const QStringList contexts = commContexts(*trial);
        QCOMPARE(o.value(QStringLiteral("contexts")).toArray(), QJsonArray::fromStringList(contexts));
        const QJsonArray matrix = o.value(QStringLiteral("matrix")).toArray();
        QCOMPARE(matrix.size(), 8);
        for (qsizetype s = 0; s < 8; ++s) {
            QCOMPARE(ranks.at(s).toInt(), int(s));
            const QJsonArray row = matrix.at(s).toArray();
            QCOMPARE(row.size(), 8);
            for (qsizetype r = 0; r < 8; ++r)
                QVERIFY(near(row.at(r).toDouble(), m.cell(std::size_t(s), std::size_t(r)).bytes));
        }
        // MANIFEST row totals; column sums are the matrix's.
        const double totals[]
            = { 350722492, 319706288, 367760368, 239807768, 130928916, 253749560, 196315084, 343521648 };
        const QJsonArray rowSums = o.value(QStringLiteral("rowSums")).toArray();
        const QJsonArray columnSums = o.value(QStringLiteral("columnSums")).toArray();
        for (qsizetype s = 0; s < 8; ++s) {
            QVERIFY(near(rowSums.at(s).toDouble(), totals[s]));
            double column = 0;
            for (qsizetype k = 0; k < 8; ++k)
                column += matrix.at(k).toArray().at(s).toDouble();
            QVERIFY(near(columnSums.at(s).toDouble(), column));
        }
        // The cells carry all three quantities: rank 1 -> 0 is 40,722 messages.
        const QJsonArray cells = o.value(QStringLiteral("cells")).toArray();
        QCOMPARE(cells.size(), 64);
        const QJsonObject c = cells.at(8).toObject();
        QCOMPARE(c.value(QStringLiteral("sender")).toInt(), 1);
        QCOMPARE(c.value(QStringLiteral("receiver")).toInt(), 0);
        QCOMPARE(c.value(QStringLiteral("messages")).toDouble(), 40722.0);
        QVERIFY(near(c.value(QStringLiteral("mean")).toDouble(), 3750.860861450813));
    }

    void contextAndMean()
    {
        const QString context = QStringLiteral("se halo tracers => MPI_Isend()");
        const QJsonObject o = runJson(
            { QStringLiteral("--quantity"), QStringLiteral("mean"), QStringLiteral("--context"), context, mpasXml() });
        QCOMPARE(o.value(QStringLiteral("context")).toString(), context);
        QCOMPARE(o.value(QStringLiteral("quantity")).toString(), QStringLiteral("mean"));
        const CommMatrix m = commMatrix(*mustLoad(mpasXml()), context);
        QVERIFY(!m.empty());
        const QJsonArray matrix = o.value(QStringLiteral("matrix")).toArray();
        for (const CommCell& c : m.cells)
            QVERIFY(near(matrix.at(c.sender).toArray().at(c.receiver).toDouble(), c.bytes / c.messages));
        for (std::size_t s = 0; s < m.size(); ++s)
            QVERIFY(near(o.value(QStringLiteral("rowSums")).toArray().at(qsizetype(s)).toDouble(),
                m.rowBytes[s] / m.rowMessages[s]));
    }

    void csv()
    {
        const CliRun r = runCli({ QStringLiteral("commmatrix"), QStringLiteral("--csv"), mpasXml() });
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 10); // header, 8 senders, column sums
        QCOMPARE(lines.front(), QByteArray("sender/receiver,0,1,2,3,4,5,6,7,row sum"));
        const QList<QByteArray> rank1 = lines.at(2).split(',');
        QCOMPARE(rank1.size(), 10);
        QCOMPARE(rank1.front(), QByteArray("1"));
        QVERIFY(near(rank1.at(1).toDouble(), 152742556));
        QVERIFY(near(rank1.at(9).toDouble(), 319706288));
        QVERIFY(lines.back().startsWith("column sum,"));
        QVERIFY(near(lines.back().split(',').at(1).toDouble(), 364245884));
    }

    void otf2()
    {
        const QJsonObject o = runJson({ QStringLiteral("--quantity"), QStringLiteral("messages"),
            dataPath(QStringLiteral("otf2/pipit/ping-pong-otf2")) });
        QCOMPARE(
            o.value(QStringLiteral("matrix")).toArray(), (QJsonArray { QJsonArray { 0, 8 }, QJsonArray { 8, 0 } }));
        const QJsonObject received
            = runJson({ QStringLiteral("--received"), dataPath(QStringLiteral("otf2/pipit/ping-pong-otf2")) });
        QCOMPARE(received.value(QStringLiteral("side")).toString(), QStringLiteral("received"));
        QCOMPARE(received.value(QStringLiteral("matrix")).toArray(),
            (QJsonArray { QJsonArray { 0, 4177920 }, QJsonArray { 4177920, 0 } }));
    }

    void text()
    {
        const CliRun r = runCli({ QStringLiteral("commmatrix"), mpasXml() });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("8 ranks, 64 sender-receiver pairs"));
        QVERIFY(r.out.contains("152,742,556"));
        QVERIFY(r.out.contains("contexts (--context): initialize => MPI_Isend()"));
    }

    void nothingToShow()
    {
        CliRun r = runCli({ QStringLiteral("commmatrix"), dataPath(QStringLiteral("hatchet/tau-cpi-mpi")) });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("no point-to-point message events"), r.err.constData());
        r = runCli({ QStringLiteral("commmatrix"), QStringLiteral("--context"), QStringLiteral("nowhere"), mpasXml() });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("no message context 'nowhere'"));
        r = runCli({ QStringLiteral("commmatrix"), QStringLiteral("--received"), mpasXml() });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("no received messages"));
    }

    void usage()
    {
        CliRun r = runCli(
            { QStringLiteral("commmatrix"), QStringLiteral("--quantity"), QStringLiteral("volume"), mpasXml() });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--quantity takes bytes, messages or mean"));
        r = runCli({ QStringLiteral("commmatrix"), QStringLiteral("--csv"), QStringLiteral("--json"), mpasXml() });
        QCOMPARE(r.exitCode, 2);
        r = runCli({ QStringLiteral("commmatrix") });
        QCOMPARE(r.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliCommMatrix)
#include "tst_cli_commmatrix.moc"
