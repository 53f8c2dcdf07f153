// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// bench_flameview: the Flame Graph tab (views/flame, issue 16) offscreen at 1400 x 800, as JSON lines.
//   bench_flameview [--runs N]
// Cases as bench_flame: 16,384 threads x 100 call paths, 16 x 1,000 and 1 x 50,000. For each, with the
// trial's statistics and call tree cached ("after the tree exists"): the tree computed and laid out for
// the widget, one full paint of the frames, and a click-zoom (layout + paint), median of N runs.
#include "datasource/synth/synth.h"
#include "tests/bench/benchutil.h"
#include "views/flame/flamegraphwidget.h"
#include "views/selectionstate.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QPainter>
#include <cstdio>
#include <cstring>

using namespace parallax;
using namespace parallax::bench;

int main(int argc, char* argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int runs = 5;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: bench_flameview [--runs N]\n");
            return 1;
        }
    }
    struct Case {
        int threads;
        int paths;
    };
    for (const Case c : { Case { 16384, 100 }, Case { 16, 1000 }, Case { 1, 50000 } }) {
        SynthOptions so;
        so.threads = c.threads;
        so.events = c.paths + 1;
        so.callpathDepth = 4;
        so.userEvents = 0;
        const std::shared_ptr<const Trial> trial = synthesizeTrial(so);
        QElapsedTimer timer;
        timer.start();
        TrialStatistics::of(*trial);
        CallTree::of(*trial);
        const double cachesMs = ms(timer);

        SelectionState state;
        FlameGraphWidget widget(&state);
        widget.resize(1400, 800);
        widget.show();
        std::vector<double> build;
        std::vector<double> paint;
        std::vector<double> zoom;
        QImage image(widget.canvas()->size(), QImage::Format_ARGB32_Premultiplied);
        for (int r = 0; r < runs; ++r) {
            state.setTrial(nullptr);
            widget.updateNow();
            timer.restart();
            state.setTrial(trial);
            widget.updateNow(); // the tree in the background, then the layout
            build.push_back(ms(timer));
            timer.restart();
            widget.canvas()->render(&image);
            paint.push_back(ms(timer));
            // Zoom into the widest frame above the root, and back.
            int target = -1;
            for (const FlameFrame& f : widget.flameLayout().frames)
                if (f.depth == 1 && !f.sliver && (target < 0 || f.width > widget.tree()->node(target).inclusive))
                    target = f.node;
            timer.restart();
            widget.zoomTo(target);
            widget.canvas()->render(&image);
            zoom.push_back(ms(timer));
            widget.zoomTo(-1);
        }
        std::printf("{\"case\": \"%d threads x %d call paths\", \"frames_shown\": %zu, \"nodes\": %zu, "
                    "\"statistics_and_call_tree_ms\": %.1f, \"tree_and_layout_ms_median\": %.2f, "
                    "\"paint_ms_median\": %.2f, \"zoom_layout_and_paint_ms_median\": %.2f, \"runs\": %d, "
                    "\"load_average\": %.2f}\n",
            c.threads, c.paths, widget.flameLayout().frames.size(), widget.tree()->nodes().size(), cachesMs,
            median(build), median(paint), median(zoom), runs, loadAverage());
        std::fflush(stdout);
    }
    return 0;
}
