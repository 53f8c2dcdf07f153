// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Topologies (algebra/topology.h, issue 15 §2) on real data: the CUBE <cart> coordinates the reader
// keeps (against the MANIFESTs of cube/pycubexr and cube/scalasca-cube3), TAU's Cray coordinates of
// the cpi sample (against its own CRAY_NODENAME, which spells the same cabinet position), the
// default and user grids.
#include "algebra/topology.h"
#include "tests/common/testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace parallax;
using namespace parallax::test;

namespace {

const Topology* named(const std::vector<Topology>& all, const QString& name)
{
    for (const auto& t : all)
        if (t.name == name)
            return &t;
    return nullptr;
}

ThreadIndex threadOf(const Trial& trial, int node, int thread)
{
    return trial.findThread(ThreadKey { node, 0, thread });
}

using Cell = std::array<int, 3>;

} // namespace

class TestTopology : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pycubexrCart()
    {
        // MANIFEST: <cart name="Process x Thread"> dims Process 4, Thread 1, not periodic; locId i -> (i 0).
        const auto trial = mustLoad(dataPath(QStringLiteral("cube/pycubexr/time.p4.n2000.x1.r0/profile.cubex")));
        const QJsonObject def
            = QJsonDocument::fromJson(trial->metadataValue(QStringLiteral("CUBE topology 0")).toUtf8()).object();
        QCOMPARE(def.value(QStringLiteral("name")).toString(), QStringLiteral("Process x Thread"));
        const QJsonArray dims = def.value(QStringLiteral("dims")).toArray();
        QCOMPARE(dims.size(), 2);
        QCOMPARE(dims[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("Process"));
        QCOMPARE(dims[0].toObject().value(QStringLiteral("size")).toInt(), 4);
        QCOMPARE(dims[0].toObject().value(QStringLiteral("periodic")).toBool(), false);
        QCOMPARE(dims[1].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("Thread"));
        QCOMPARE(dims[1].toObject().value(QStringLiteral("size")).toInt(), 1);
        QVERIFY(trial->metadataValue(QStringLiteral("CUBE topology 1")).isNull());
        const auto all = topologies(*trial);
        QCOMPARE(all.size(), std::size_t(2)); // the cart and the default grid
        const Topology& cart = all.front();
        QCOMPARE(cart.name, QStringLiteral("Process x Thread"));
        QCOMPARE(cart.source, Topology::Source::Cube);
        QCOMPARE(cart.dims, (std::array<int, 3> { 4, 1, 1 }));
        QCOMPARE(cart.axisNames[0], QStringLiteral("Process"));
        for (int rank = 0; rank < 4; ++rank) {
            const ThreadIndex t = threadOf(*trial, rank, 0);
            QVERIFY(t.isValid());
            QCOMPARE(trial->metadataValue(QStringLiteral("CUBE coordinates 0"), t), QStringLiteral("%1 0").arg(rank));
            QCOMPARE(cart.coords[t.index()], (Cell { rank, 0, 0 }));
        }
        QCOMPARE(all.back().source, Topology::Source::Default);
    }

    void pycubexrSingleLocation()
    {
        // MANIFEST: cart "Process x Thread", Process 1, Thread 1 (1 location).
        const auto trial = mustLoad(dataPath(QStringLiteral("cube/pycubexr/call_tree_test/call_tree_test.cubex")));
        const auto all = topologies(*trial);
        const Topology* cart = named(all, QStringLiteral("Process x Thread"));
        QVERIFY(cart);
        QCOMPARE(cart->dims, (std::array<int, 3> { 1, 1, 1 }));
        QCOMPARE(cart->placedCount(), std::size_t(1));
        QCOMPARE(cart->coords[0], (Cell { 0, 0, 0 }));
    }

    void cube3Carts()
    {
        // MANIFEST: 4 carts keyed by thrdId (thread Id i has process and thread rank i).
        const auto trial = mustLoad(dataPath(QStringLiteral("cube/scalasca-cube3/cubew-test3-template.cube")));
        const auto all = topologies(*trial);
        QCOMPARE(all.size(), std::size_t(5));
        auto at = [&](const Topology& t, int id) { return t.coords[threadOf(*trial, id, id).index()]; };
        const Topology& first = all[0];
        QCOMPARE(first.name, QStringLiteral("My Topology 1"));
        QCOMPARE(first.dims, (std::array<int, 3> { 5, 5, 1 }));
        QCOMPARE(first.periodic, (std::array<bool, 3> { true, false, false }));
        QCOMPARE(first.placedCount(), std::size_t(1));
        QCOMPARE(at(first, 1), (Cell { 0, 0, 0 }));
        const Topology& second = all[1];
        QCOMPARE(second.name, QStringLiteral("Application topology 3"));
        QCOMPARE(second.dims, (std::array<int, 3> { 3, 3, 1 }));
        QCOMPARE(second.placedCount(), std::size_t(2));
        QCOMPARE(at(second, 0), (Cell { 0, 1, 0 }));
        QCOMPARE(at(second, 1), (Cell { 1, 0, 0 }));
        QVERIFY(!second.placed(threadOf(*trial, 2, 2)));
        // 4 dims 3x3x3x3: the last two fold into z (9 slices).
        const Topology& third = all[2];
        QCOMPARE(third.name, QStringLiteral("Second"));
        QCOMPARE(third.dims, (std::array<int, 3> { 3, 3, 9 }));
        QCOMPARE(at(third, 2), (Cell { 0, 1, 0 }));
        QCOMPARE(at(third, 3), (Cell { 1, 0, 0 }));
        // 14 dims of 3: thread 5 at (0 1 0 ... 0 2): z = 2; thread 10 at (1 0 ... 0).
        const Topology& fourth = all[3];
        QCOMPARE(fourth.name, QStringLiteral("Third"));
        QCOMPARE(fourth.dims[2], 531441); // 3^12
        QCOMPARE(at(fourth, 5), (Cell { 0, 1, 2 }));
        QCOMPARE(at(fourth, 10), (Cell { 1, 0, 0 }));
        QCOMPARE(trial->metadataValue(QStringLiteral("CUBE coordinates 3"), threadOf(*trial, 5, 5)),
            QStringLiteral("0 1 0 0 0 0 0 0 0 0 0 0 0 2"));
        QVERIFY(trial->metadataValue(QStringLiteral("CUBE topology 3")).contains(QLatin1String("\"periodic\":true")));
    }

    void tauCrayCoordinates()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QCOMPARE(trial->threadCount(), std::size_t(4));
        const auto all = topologies(*trial);
        const Topology* network = named(all, QStringLiteral("Cray network (CRAY_PMI_X/Y/Z)"));
        QVERIFY(network);
        QCOMPARE(network->source, Topology::Source::Physical);
        QCOMPARE(network->placedCount(), std::size_t(4));
        // Every rank ran on nid01045: CRAY_PMI_X/Y/Z = 2, 4, 5.
        for (std::size_t t = 0; t < 4; ++t)
            QCOMPARE(network->coords[t], (Cell { 2, 4, 5 }));
        QCOMPARE(network->dims, (std::array<int, 3> { 3, 5, 6 }));
        // The cabinet position, against CRAY_NODENAME "c<column>-<row>c<cage>s<slot>n<node>".
        const Topology* cabinet = named(all, QStringLiteral("Cray cabinets (column; cage.slot; row.node)"));
        QVERIFY(cabinet);
        for (std::size_t t = 0; t < 4; ++t) {
            const QString node = trial->metadataValue(QStringLiteral("CRAY_NODENAME"), ThreadIndex(t));
            const auto m = QRegularExpression(QStringLiteral("^c(\\d+)-(\\d+)c(\\d+)s(\\d+)n(\\d+)$")).match(node);
            QVERIFY2(m.hasMatch(), qPrintable(node));
            const int column = m.captured(1).toInt(), row = m.captured(2).toInt(), cage = m.captured(3).toInt(),
                      slot = m.captured(4).toInt(), n = m.captured(5).toInt();
            QCOMPARE(cabinet->coords[t], (Cell { column, cage * 16 + slot, row * 4 + n }));
        }
        QCOMPARE(all.back().source, Topology::Source::Default);
    }

    void defaultAndUserGrids()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("cube/scalasca-cube3/kojak-example-ctest-pomp.cube")));
        QCOMPARE(trial->threadCount(), std::size_t(32));
        const auto all = topologies(*trial);
        QCOMPARE(all.size(), std::size_t(1)); // no <cart> content, no physical coordinates
        const Topology& grid = all.front();
        QCOMPARE(grid.dims, (std::array<int, 3> { 6, 6, 1 })); // ceil(sqrt(32)) = 6 columns
        for (int i = 0; i < 32; ++i)
            QCOMPARE(grid.coords[static_cast<std::size_t>(i)], (Cell { i % 6, i / 6, 0 }));
        // 8 processes x 4 threads, down the columns first.
        const auto square = userGrid(*trial, { 0, 0, 1 }, QStringLiteral("xyz"));
        QVERIFY(square);
        QCOMPARE(square->dims, grid.dims);
        QCOMPARE(square->coords, grid.coords);
        const auto user = userGrid(*trial, { 0, 4, 1 }, QStringLiteral("yxz"));
        QVERIFY(user);
        QCOMPARE(user->dims, (std::array<int, 3> { 8, 4, 1 }));
        QCOMPARE(user->coords[5], (Cell { 1, 1, 0 }));
        QCOMPARE(user->coords[31], (Cell { 7, 3, 0 }));
        const auto cube = userGrid(*trial, { 2, 4, 4 }, QStringLiteral("zyx"));
        QVERIFY(cube);
        QCOMPARE(cube->coords[17], (Cell { 1, 0, 1 })); // 17 = z 1 + 4 (y 0 + 4 x 1)
        QString error;
        QVERIFY(!userGrid(*trial, { 2, 2, 2 }, QStringLiteral("xyz"), &error));
        QVERIFY2(error.contains(QLatin1String("fewer cells than the 32 threads")), qPrintable(error));
        QVERIFY(!userGrid(*trial, { 0, 0, 0 }, QStringLiteral("xxz"), &error));
        QVERIFY2(error.contains(QLatin1String("permutation of xyz")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestTopology)
#include "tst_topology.moc"
