// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// bench_commmatrix: the Communication tab (views/commmatrix, issue 20 §3) on a generated trial,
// offscreen at 1400 x 900, as JSON lines.
//   bench_commmatrix [--ranks N] [--peers P] [--runs R]
// N ranks (default 4,096), each sending to P peers (default 256: its neighbours r ± 1, … spread
// over the ranks), one "Message size sent to node K" record a pair. Figures (median of R runs): the
// matrix (algebra/commmatrix.h, all threads), the heat-map image, the view from the trial to the
// painted tab, a repaint, a hover (tooltip and repaint).
#include "algebra/commmatrix.h"
#include "datasource/model/trialbuilder.h"
#include "tests/bench/benchutil.h"
#include "views/commmatrix/commmatrixview.h"
#include "views/selectionstate.h"

#include <QApplication>
#include <QElapsedTimer>
#include <cstdio>
#include <cstring>

using namespace parallax;
using namespace parallax::bench;

int main(int argc, char* argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int ranks = 4096;
    int peers = 256;
    int runs = 5;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--ranks") == 0 && i + 1 < argc)
            ranks = std::max(2, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--peers") == 0 && i + 1 < argc)
            peers = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: bench_commmatrix [--ranks N] [--peers P] [--runs R]\n");
            return 1;
        }
    }
    peers = std::min(peers, ranks - 1);
    QElapsedTimer timer;
    timer.start();
    TrialBuilder b(QStringLiteral("commmatrix-bench"));
    b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
    std::vector<AtomicEventId> sent;
    sent.reserve(std::size_t(ranks));
    for (int k = 0; k < ranks; ++k)
        sent.push_back(b.addAtomicEvent(QStringLiteral("Message size sent to node %1").arg(k)));
    for (int r = 0; r < ranks; ++r) {
        const ThreadIndex t = b.addThread({ r, 0, 0 });
        for (int p = 1; p <= peers; ++p) {
            const int offset = p % 2 ? (p + 1) / 2 : ranks - p / 2; // +1, -1, +2, -2, …
            const double size = 64.0 * (1 + (r + p) % 97);
            b.addAtomic(t, sent[std::size_t((r + offset) % ranks)], p, size, size, size, p * size * size);
        }
    }
    const auto trial = b.build();
    const double buildMs = ms(timer);

    CommMatrix matrix;
    const double matrixMs = timeMedian(runs, [&] { matrix = commMatrix(*trial); });
    QImage image;
    const double imageMs
        = timeMedian(runs, [&] { image = CommMatrixPlot::imageOf(matrix, CommQuantity::Bytes, true); });

    std::vector<double> open, repaint, hover;
    for (int r = 0; r < runs; ++r) {
        SelectionState state;
        CommMatrixView view(&state);
        view.resize(1400, 900);
        view.show();
        timer.restart();
        state.setTrial(trial);
        view.updateNow();
        view.grab();
        open.push_back(ms(timer));
        timer.restart();
        view.grab();
        repaint.push_back(ms(timer));
        timer.restart();
        const QPoint p = view.plot()->pointOf(std::size_t(ranks) / 2, std::size_t(ranks) / 2 + 1);
        const QString tip = view.plot()->toolTipAt(p);
        view.plot()->grab();
        hover.push_back(ms(timer));
        if (tip.isEmpty())
            return 1;
    }
    std::printf("{\"bench\":\"commmatrix\",\"ranks\":%d,\"peers\":%d,\"cells\":%zu,\"runs\":%d,"
                "\"build_trial_ms\":%.1f,\"matrix_ms\":%.3f,\"image_ms\":%.3f,\"image_side\":%d,"
                "\"open_to_painted_ms\":%.3f,\"repaint_ms\":%.3f,\"hover_ms\":%.3f,\"rss_mb\":%.1f,\"load\":%.2f}\n",
        ranks, peers, matrix.cells.size(), runs, buildMs, matrixMs, imageMs, image.width(), median(open),
        median(repaint), median(hover), residentMb(), loadAverage());
    return 0;
}
