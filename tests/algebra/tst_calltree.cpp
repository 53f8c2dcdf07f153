// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The call tree derived from call-path names (docs/SEMANTICS.md 1.4) on the real samples.
#include "algebra/calltree.h"
#include "datasource/model/trialbuilder.h"
#include "tests/common/testutil.h"

using namespace parallax;
using namespace parallax::test;

class TestCallTree : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cpiHasOneRootWithSevenChildren()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("hatchet/tau-cpi-mpi")));
        QVERIFY(trial);
        const auto tree = CallTree::of(*trial);
        QCOMPARE(tree.get(), CallTree::of(*trial).get());
        QCOMPARE(tree->nodes().size(), std::size_t(12)); // root + 7 + MPI_Finalize's 4 children
        QCOMPARE(tree->roots().size(), std::size_t(1));
        const CallTree::Node& root = tree->nodes()[static_cast<std::size_t>(tree->roots().front())];
        QCOMPARE(root.label, QStringLiteral(".TAU application"));
        QCOMPARE(trial->event(root.event).name, QStringLiteral(".TAU application")); // length 1: the flat event
        QStringList children;
        for (int c : root.children)
            children << tree->nodes()[static_cast<std::size_t>(c)].label;
        children.sort();
        QCOMPARE(children,
            (QStringList { QStringLiteral("MPI_Bcast()"), QStringLiteral("MPI_Comm_rank()"),
                QStringLiteral("MPI_Comm_size()"), QStringLiteral("MPI_Finalize()"),
                QStringLiteral("MPI_Get_processor_name()"), QStringLiteral("MPI_Init()"),
                QStringLiteral("MPI_Reduce()") }));
        QVERIFY(!tree->isTruncated()); // TAU_CALLPATH_DEPTH = 100
        const int fin = tree->nodeOf(trial->findEvent(QStringLiteral(".TAU application => MPI_Finalize()")));
        QCOMPARE(tree->nodes()[static_cast<std::size_t>(fin)].children.size(), std::size_t(4));
        // Residual r = incl - excl - sum(children incl) = 0 on rank 0 (docs/SEMANTICS.md 1.4 example).
        const RowView row = trial->row(ThreadIndex(0u));
        auto incl = [&](int node) {
            return row.inclusive(
                0, static_cast<std::size_t>(row.find(tree->nodes()[static_cast<std::size_t>(node)].event)));
        };
        double children0 = 0;
        for (int c : root.children)
            children0 += incl(c);
        QCOMPARE(incl(tree->roots().front()) - 449.0 - children0, 0.0);
    }

    void profile2HasEightNodes()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("cubelib/test/test28/profile2")));
        QVERIFY(trial);
        const auto tree = CallTree::of(*trial);
        QCOMPARE(tree->nodes().size(), std::size_t(8));
        QCOMPARE(tree->roots().size(), std::size_t(1));
        QCOMPARE(tree->nodes()[static_cast<std::size_t>(tree->roots().front())].label,
            QStringLiteral("main() (calls f1, f5)"));
        int maxDepth = 0;
        for (const auto& n : tree->nodes()) {
            maxDepth = std::max(maxDepth, n.depth);
            QVERIFY(!n.isSynthetic());
        }
        QCOMPARE(maxDepth, 5);
    }

    void flatProfileGivesOneRootPerEvent()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("cubelib/test/test28/profile1")));
        QVERIFY(trial);
        QCOMPARE(CallTree::of(*trial)->roots().size(), std::size_t(195)); // like tau2cube's 195 root cnodes
    }

    /// Caliper writes a top-level region that called nothing (LULESH's MPI_Comm_split) only as a
    /// flat event: it is a root of its own, and every flat event has a node.
    void rootRegionsWithoutChildrenAreRoots()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("thicket/mpi_scaling_cali/27_cores.cali")));
        QVERIFY(trial);
        const auto tree = CallTree::of(*trial);
        bool split = false;
        for (int r : tree->roots()) {
            const auto& n = tree->nodes()[static_cast<std::size_t>(r)];
            split = split || (n.label == QLatin1String("MPI_Comm_split") && n.event.isValid());
        }
        QVERIFY(split);
        for (std::size_t e = 0; e < trial->eventCount(); ++e) {
            const EventId id(static_cast<std::uint32_t>(e));
            if (!trial->event(id).isCallPath())
                QVERIFY2(tree->nodeOf(id) >= 0
                        || std::any_of(tree->nodes().begin(), tree->nodes().end(),
                            [&](const auto& n) { return n.label == trial->event(id).name; }),
                    qPrintable(trial->event(id).name));
        }
    }

    void syntheticNodesAndTruncation()
    {
        TrialBuilder b(QStringLiteral("phases"));
        b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
        const ThreadIndex t = b.addThread({ 0, 0, 0 });
        const double v[] = { 1 };
        // Phase profile (docs/FORMATS.md 1.7): "Iteration 0 => IO Phase => write()"; "Iteration 0 => IO Phase" is
        // absent.
        b.addInterval(t, b.addEvent(QStringLiteral("Iteration 0"), { QStringLiteral("TAU_PHASE") }), 1, 1, v, v);
        b.addInterval(t,
            b.addEvent(QStringLiteral("Iteration 0 => IO Phase => write()"), { QStringLiteral("TAU_CALLPATH") }), 1, 0,
            v, v);
        b.addMetadata(QStringLiteral("TAU_CALLPATH_DEPTH"), QStringLiteral("3"));
        const auto trial = b.build();
        const auto tree = CallTree::of(*trial);
        QCOMPARE(tree->nodes().size(), std::size_t(3));
        const int leaf = tree->nodeOf(trial->findEvent(QStringLiteral("Iteration 0 => IO Phase => write()")));
        const auto& mid = tree->nodes()[static_cast<std::size_t>(tree->nodes()[static_cast<std::size_t>(leaf)].parent)];
        QCOMPARE(mid.label, QStringLiteral("IO Phase"));
        QVERIFY(mid.isSynthetic());
        QVERIFY(tree->isTruncated()); // a path of exactly TAU_CALLPATH_DEPTH components
    }
};

QTEST_GUILESS_MAIN(TestCallTree)
#include "tst_calltree.moc"
