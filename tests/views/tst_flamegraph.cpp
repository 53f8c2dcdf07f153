// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The flame graph view (issue 16, section 1) on real profiles: frames placed by the flame model,
// flame and icicle, click to zoom with breadcrumbs, the linked selection both ways, search with its
// share, the colourings, slivers on a wide tree, the message of a flat profile, vector export.
#include "algebra/cut.h"
#include "algebra/statistics.h"
#include "algebra/values.h"
#include "tests/common/testutil.h"
#include "views/charts/colors.h"
#include "views/flame/flamegraphwidget.h"
#include "views/flame/sandwichwidget.h"
#include "views/selectionstate.h"

#include <QApplication>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

QString kojak() { return dataPath(QStringLiteral("cube/scalasca-cube3/kojak-example-ctest-pomp.cube")); }

/// The laid-out frame of the node whose path is `path` ("main => parallel"), or -1.
int frameOf(const FlameGraphWidget& w, const QString& path)
{
    const auto& frames = w.flameLayout().frames;
    for (std::size_t i = 0; i < frames.size(); ++i)
        if (frames[i].node >= 0 && w.tree()->path(frames[i].node).join(QStringLiteral(" => ")) == path)
            return static_cast<int>(i);
    return -1;
}

} // namespace

class TestFlameGraph : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void framesZoomAndSelection()
    {
        SelectionState state;
        state.setTrial(mustLoad(kojak()));
        FlameGraphWidget w(&state);
        w.resize(1200, 600);
        w.show();
        w.updateNow();
        QVERIFY(w.tree());
        QVERIFY(w.message().isEmpty());
        const QWidget* canvas = w.canvas();

        // The root fills the width at the bottom; a child sits on it with its share of the width.
        const int main = frameOf(w, QStringLiteral("main"));
        const int parallel = frameOf(w, QStringLiteral("main => parallel"));
        QVERIFY(main >= 0 && parallel >= 0);
        QVERIFY(std::abs(w.frameRect(main).width() - canvas->width()) < 1.0);
        QVERIFY(std::abs(w.frameRect(main).bottom() - canvas->height()) < 2.0);
        QVERIFY(w.frameRect(parallel).bottom() <= w.frameRect(main).top());
        const auto& mainNode = w.tree()->node(w.flameLayout().frames[std::size_t(main)].node);
        const auto& parallelNode = w.tree()->node(w.flameLayout().frames[std::size_t(parallel)].node);
        QVERIFY(std::abs(w.frameRect(parallel).width() / w.frameRect(main).width()
                    - parallelNode.inclusive / mainNode.inclusive)
            < 1e-9);
        // Icicle: the same frames, the root on top.
        w.setStyle(FlameGraphWidget::Style::Icicle);
        QVERIFY(w.frameRect(main).top() < 1.0);
        QVERIFY(w.frameRect(parallel).top() >= w.frameRect(main).bottom());
        w.setStyle(FlameGraphWidget::Style::Flame);

        // A click zooms into the frame and selects its event in every view.
        const int parallelNodeId = w.flameLayout().frames[std::size_t(parallel)].node;
        QTest::mouseClick(w.canvas(), Qt::LeftButton, {}, w.frameRect(parallel).center().toPoint());
        QCOMPARE(w.zoomNode(), parallelNodeId);
        QCOMPARE(state.event(), state.trial()->findEvent(QStringLiteral("main => parallel")));
        const int zoomed = frameOf(w, QStringLiteral("main => parallel"));
        QVERIFY(std::abs(w.frameRect(zoomed).width() - canvas->width()) < 1.0);
        // main is a breadcrumb now: clicking it goes back to it.
        const int crumb = frameOf(w, QStringLiteral("main"));
        QVERIFY(w.flameLayout().frames[std::size_t(crumb)].breadcrumb);
        QTest::mouseClick(w.canvas(), Qt::LeftButton, {}, w.frameRect(crumb).center().toPoint());
        QCOMPARE(w.zoomNode(), w.flameLayout().frames[std::size_t(frameOf(w, QStringLiteral("main")))].node);
        w.zoomTo(-1);

        // The main window selects an event: its frames are outlined.
        const EventId p2p = state.trial()->findEvent(QStringLiteral("main => parallel => p2p"));
        QVERIFY(p2p.isValid());
        state.selectEvent(p2p);
        w.updateNow();
        const int p2pFrame = frameOf(w, QStringLiteral("main => parallel => p2p"));
        QVERIFY(p2pFrame >= 0);
        QVERIFY(w.isSelectedNode(w.flameLayout().frames[std::size_t(p2pFrame)].node));
        QVERIFY(!w.isSelectedNode(parallelNodeId));

        // Search: the matches with no matching ancestor, as a share of the whole.
        w.search(QStringLiteral("MPI_"));
        double outermost = 0;
        for (int n : w.searchResult().nodes) {
            bool nested = false;
            for (int a = w.tree()->node(n).parent; a >= 0; a = w.tree()->node(a).parent)
                nested = nested || w.tree()->node(a).name.contains(QLatin1String("MPI_"), Qt::CaseInsensitive);
            outermost += nested ? 0.0 : w.tree()->node(n).inclusive;
        }
        QVERIFY(!w.searchResult().nodes.empty());
        QVERIFY(std::abs(w.searchResult().share - outermost / w.tree()->total()) < 1e-12);
        w.search(QString());

        // Colourings: by event (the colour of every view), by group, by self heat.
        const int barrier = frameOf(w, QStringLiteral("main => parallel => MPI_Barrier"));
        QVERIFY(barrier >= 0);
        QCOMPARE(w.frameColour(barrier),
            eventColor(*state.trial(), state.trial()->findEvent(QStringLiteral("MPI_Barrier"))));
        w.setColouring(FlameGraphWidget::Colouring::Group);
        QCOMPARE(w.frameColour(barrier), QColor(0x42, 0x85, 0xc8));
        w.setColouring(FlameGraphWidget::Colouring::SelfHeat);
        const auto& b = w.tree()->node(w.flameLayout().frames[std::size_t(barrier)].node);
        QCOMPARE(w.frameColour(barrier), sequentialColor(std::clamp(b.self / b.inclusive, 0.0, 1.0)));

        // A vector SVG with the frames' names.
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("flame.svg"));
        QCOMPARE(w.exportImage(svg), QString());
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains(">main<") || text.contains(">main "));
    }

    void slivers()
    {
        // WRF's 2,161 call paths on 600 pixels: the narrow frames merge into slivers, widths still add up.
        SelectionState state;
        state.setTrial(mustLoad(dataPath(QStringLiteral("tau2/ppk/wrf-callpath-16rank.ppk"))));
        FlameGraphWidget w(&state);
        w.resize(600, 400);
        w.show();
        w.updateNow();
        QVERIFY(w.tree());
        int slivers = 0;
        double roots = 0;
        for (const FlameFrame& f : w.flameLayout().frames) {
            slivers += f.sliver ? 1 : 0;
            if (f.depth == 0)
                roots += f.width;
        }
        QVERIFY(slivers > 0);
        QVERIFY(w.flameLayout().frames.size() < w.tree()->nodes().size() / 2);
        QVERIFY(std::abs(roots - w.tree()->total()) <= 1e-9 * w.tree()->total());
    }

    void differentialFlameGraph()
    {
        // A: the KOJAK run; B: the same without p2p (pruned into its parent): p2p's frames ran only in A.
        const auto a = mustLoad(kojak());
        const AlgebraResult pruned = cutCallTree(*a, {}, { QStringLiteral("main => parallel => p2p") });
        QVERIFY2(pruned, qPrintable(pruned.error()));
        const TrialPtr& b = pruned.trial();
        SelectionState state;
        state.setTrial(a);
        FlameGraphWidget w(&state);
        w.resize(1200, 600);
        w.show();
        w.setComparison(b, {});
        w.updateNow();
        const DiffFlameTree* d = w.diffTree();
        QVERIFY(d);
        const MetricId time = a->findMetric(QStringLiteral("Time"));
        QCOMPARE(state.metric(), time);
        // Each side's values are that run's own flame tree's, path by path.
        const FlameTree ta = FlameTree::of(*a, time);
        const FlameTree tb = FlameTree::of(*b, b->findMetric(QStringLiteral("Time")));
        auto byPath = [](const FlameTree& t) {
            QHash<QString, double> m;
            for (std::size_t i = 0; i < t.nodes().size(); ++i)
                m.insert(t.path(static_cast<int>(i)).join(QLatin1Char(';')), t.nodes()[i].inclusive);
            return m;
        };
        const auto va = byPath(ta);
        const auto vb = byPath(tb);
        int onlyA = 0;
        for (std::size_t i = 0; i < d->tree().nodes().size(); ++i) {
            const int n = static_cast<int>(i);
            const QString path = d->tree().path(n).join(QLatin1Char(';'));
            QCOMPARE(d->a(n).present, va.contains(path));
            QCOMPARE(d->b(n).present, vb.contains(path));
            if (d->a(n).present)
                QCOMPARE(d->a(n).inclusive, va.value(path));
            if (d->b(n).present)
                QCOMPARE(d->b(n).inclusive, vb.value(path));
            if (d->onlyInA(n)) {
                ++onlyA;
                QVERIFY2(path.startsWith(QLatin1String("main;parallel;p2p")), qPrintable(path));
            }
        }
        QVERIFY(onlyA >= 5); // p2p and its four callees
        // Colour: no change on main (B keeps p2p's time in parallel's own), blue where B is cheaper.
        const int mainFrame = frameOf(w, QStringLiteral("main"));
        const int mainNode = w.flameLayout().frames[std::size_t(mainFrame)].node;
        QVERIFY(std::abs(d->delta(mainNode)) <= 1e-12 * d->a(mainNode).inclusive);
        const int p2p = frameOf(w, QStringLiteral("main => parallel => p2p"));
        QVERIFY(p2p >= 0);
        const int node = w.flameLayout().frames[std::size_t(p2p)].node;
        QVERIFY(d->delta(node) > 0); // only in A: B is cheaper there
        QCOMPARE(w.frameColour(p2p),
            divergingColor(-std::clamp(
                d->delta(node) /
                    [&] {
                        double m = 0;
                        for (std::size_t i = 0; i < d->tree().nodes().size(); ++i)
                            m = std::max(m, std::abs(d->delta(static_cast<int>(i))));
                        return m;
                    }(),
                -1.0, 1.0)));
        // Below the threshold a change is drawn neutral.
        w.setChangeThreshold(1000);
        QCOMPARE(w.frameColour(p2p), QColor(0xee, 0xee, 0xee));
        w.setChangeThreshold(0);
        // By Δ%: p2p lost all its time in B (Δ% = 100): full blue whatever its size.
        QVERIFY(std::abs(d->deltaPercent(node) - 100.0) < 1e-9);
        w.setChangeScale(FlameGraphWidget::ChangeScale::Percent);
        QCOMPARE(w.frameColour(p2p), divergingColor(-1.0));
        // A metric where higher is better: less in B is a regression, red.
        w.setChangeScale(FlameGraphWidget::ChangeScale::Percent, true);
        QCOMPARE(w.frameColour(p2p), divergingColor(1.0));
    }

    void sandwichOfAComparison()
    {
        // A: the KOJAK run; B: without p2p. MPI_Barrier is called from parallel and p2p in A, from
        // parallel only in B (p2p's barrier time is in parallel's own).
        const auto a = mustLoad(kojak());
        const AlgebraResult pruned = cutCallTree(*a, {}, { QStringLiteral("main => parallel => p2p") });
        QVERIFY2(pruned, qPrintable(pruned.error()));
        SelectionState state;
        state.setTrial(a);
        state.setMetric(a->findMetric(QStringLiteral("Time")));
        SandwichWidget w(&state, QStringLiteral("MPI_Barrier"));
        w.resize(1200, 700);
        w.show(); // the frames are laid out for the canvas width
        w.setComparison(pruned.trial(), {});
        w.updateNow();
        const DiffSandwich* d = w.diffSandwich();
        QVERIFY(d);
        QCOMPARE(d->a.occurrences, 2);
        QCOMPARE(d->b.occurrences, 1);
        const DiffFlameTree* callers = w.callers()->diffTree();
        QVERIFY(callers);
        const int root = callers->tree().roots().front();
        QVERIFY(std::abs(callers->a(root).inclusive - d->a.inclusive) <= 1e-12 * d->a.inclusive);
        QVERIFY(std::abs(callers->b(root).inclusive - d->b.inclusive) <= 1e-12 * d->a.inclusive);
        // The butterfly: p2p calls it only in A (◀); parallel in both.
        QCOMPARE(w.butterfly()->columnCount(), 5);
        QTreeWidgetItem* up = w.butterfly()->topLevelItem(0);
        QStringList names;
        for (int i = 0; i < up->childCount(); ++i)
            names << up->child(i)->text(0);
        names.sort();
        QCOMPARE(names, QStringList({ QStringLiteral("parallel"), QStringLiteral("◀ p2p") }));
        // The p2p caller's frame is blue (B is cheaper there: it does not exist).
        int p2pFrame = -1;
        for (std::size_t i = 0; i < w.callers()->flameLayout().frames.size(); ++i) {
            const int n = w.callers()->flameLayout().frames[i].node;
            if (n >= 0 && callers->tree().node(n).name == QStringLiteral("p2p") && callers->tree().node(n).depth == 1)
                p2pFrame = static_cast<int>(i);
        }
        QVERIFY(p2pFrame >= 0);
        const QColor c = w.callers()->frameColour(p2pFrame);
        QVERIFY2(c.blue() > c.red(), qPrintable(c.name()));
    }

    void sandwichOfARoutine()
    {
        // MPI_Barrier is called from parallel and from p2p: two callers, no callees.
        SelectionState state;
        state.setTrial(mustLoad(kojak()));
        const Trial& t = *state.trial();
        const MetricId time = t.findMetric(QStringLiteral("Time"));
        state.setMetric(time);
        SandwichWidget w(&state, QStringLiteral("MPI_Barrier"));
        w.resize(1200, 700);
        w.updateNow();
        QVERIFY(w.sandwich());
        QCOMPARE(w.sandwich()->occurrences, 2);
        const auto stats = TrialStatistics::of(t);
        auto mean = [&](const char* path) {
            return statisticValue(
                t, *stats, t.findEvent(QLatin1String(path)), time, ValueType::Inclusive, Statistic::MeanAll)
                .value_or(-1);
        };
        const double viaParallel = mean("main => parallel => MPI_Barrier");
        const double viaP2p = mean("main => parallel => p2p => MPI_Barrier");
        QVERIFY(viaParallel > 0 && viaP2p > 0);
        QVERIFY(std::abs(w.sandwich()->inclusive - (viaParallel + viaP2p)) <= 1e-12 * w.sandwich()->inclusive);
        // The callers' flame: the routine at its root, as wide as its inclusive value.
        QVERIFY(w.callers()->tree());
        QCOMPARE(w.callers()->tree()->node(w.callers()->tree()->roots().front()).name, QStringLiteral("MPI_Barrier"));
        QVERIFY(std::abs(w.callers()->tree()->total() - w.sandwich()->inclusive) <= 1e-12 * w.sandwich()->inclusive);
        // The butterfly: two callers, each with the time it brings; no callee.
        QTreeWidgetItem* callers = w.butterfly()->topLevelItem(0);
        QTreeWidgetItem* callees = w.butterfly()->topLevelItem(1);
        QCOMPARE(callers->childCount(), 2);
        QCOMPARE(callees->childCount(), 0);
        QStringList names;
        for (int i = 0; i < callers->childCount(); ++i)
            names << callers->child(i)->text(0);
        names.sort();
        QCOMPARE(names, QStringList({ QStringLiteral("p2p"), QStringLiteral("parallel") }));
        // A routine that does not occur says so.
        SandwichWidget none(&state, QStringLiteral("no_such_routine"));
        none.updateNow();
        QCOMPARE(none.sandwich()->occurrences, 0);
    }

    void flatProfileSaysSo()
    {
        SelectionState state;
        state.setTrial(mustLoad(dataPath(QStringLiteral("tau2/ppk/ring-2rank.ppk"))));
        FlameGraphWidget w(&state);
        w.updateNow();
        QVERIFY2(w.message().contains(QLatin1String("no call paths")), qPrintable(w.message()));
    }
};

QTEST_MAIN(TestFlameGraph)
#include "tst_flamegraph.moc"
