// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// bench_sourceview: the source browser (views/source, issue 20 §1) on a generated C file, offscreen
// at 1400 x 900, as JSON lines.
//   bench_sourceview [--lines N] [--events E] [--runs R]
// A file of N lines (default 100,000) and a one-thread TAU profile with E events (default 1,000)
// located in it. Figures (median of R runs): the worker's parts (the costs, reading the file, the
// highlighter's line states, the laid-out document with its highlighter), the GUI thread's part (the
// document into the editor, marking the region, the visible lines highlighted), a paint at the top, a jump to the last
// event and its paint, and the whole open from the selection to the painted view.
#include "algebra/sourcecost.h"
#include "tests/bench/benchutil.h"
#include "views/selectionstate.h"
#include "views/source/sourceeditor.h"
#include "views/source/sourcehighlighter.h"
#include "views/source/sourceview.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <cstdio>
#include <cstring>

using namespace parallax;
using namespace parallax::bench;

int main(int argc, char* argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("PARALLAX_NO_CACHE", "1");
    QApplication app(argc, argv);
    int lines = 100000;
    int events = 1000;
    int runs = 5;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--lines") == 0 && i + 1 < argc)
            lines = std::max(10, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--events") == 0 && i + 1 < argc)
            events = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: bench_sourceview [--lines N] [--events E] [--runs R]\n");
            return 1;
        }
    }
    QTemporaryDir tmp;
    QByteArray text;
    for (int i = 1; i <= lines; ++i)
        text += i % 50 == 0 ? QByteArray("/* block\n")
            : i % 50 == 1   ? QByteArray("   comment */ int x;\n")
                            : "    a[" + QByteArray::number(i) + "] = b[i] * 2.0 + \"s\"; // c\n";
    QFile src(tmp.filePath(QStringLiteral("big.c")));
    if (!src.open(QIODevice::WriteOnly) || src.write(text) != text.size())
        return 1;
    src.close();
    QByteArray profile
        = QByteArray::number(events) + " templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n";
    for (int e = 0; e < events; ++e) {
        const int line = 1 + static_cast<int>(static_cast<qint64>(e) * (lines - 10) / events);
        profile += "\"loop" + QByteArray::number(e) + " [{big.c} {" + QByteArray::number(line) + ",1}-{"
            + QByteArray::number(line + 5) + ",1}]\" 1 0 " + QByteArray::number(e + 1) + " "
            + QByteArray::number(2 * e + 1) + " 0 GROUP=\"TAU_USER\"\n";
    }
    profile += "0 aggregates\n";
    QDir().mkpath(tmp.filePath(QStringLiteral("run")));
    QFile pf(tmp.filePath(QStringLiteral("run/profile.0.0.0")));
    if (!pf.open(QIODevice::WriteOnly) || pf.write(profile) != profile.size())
        return 1;
    pf.close();
    const auto trial = readTrial(tmp.filePath(QStringLiteral("run")));
    if (!trial)
        return 1;
    const QString file = tmp.filePath(QStringLiteral("big.c"));

    const double costsMs
        = timeMedian(runs, [&] { sourceFileCosts(*trial, QStringLiteral("big.c"), MetricId(0u), Statistic::MeanAll); });
    QString content;
    const double readMs = timeMedian(runs, [&] {
        QFile f(file);
        f.open(QIODevice::ReadOnly);
        content = QString::fromUtf8(f.readAll());
    });
    std::vector<std::uint8_t> states;
    const double statesMs = timeMedian(runs, [&] { states = sourceLineStates(SourceLanguage::C, content); });

    std::vector<double> build, setText, paintTop, jump, open;
    for (int r = 0; r < runs; ++r) {
        SelectionState state;
        state.setTrial(trial);
        SourceView view(&state);
        view.setSearchStore({ [&](const Trial&) { return SourceSearch { { tmp.path() }, {} }; }, {} });
        view.resize(1400, 900);
        view.show();
        QElapsedTimer timer;
        timer.start();
        state.selectEvent(EventId(0u));
        view.updateNow();
        QApplication::processEvents();
        view.grab();
        open.push_back(ms(timer));
        // The GUI thread's part alone, on a fresh editor.
        SourceEditor editor;
        editor.resize(1400, 900);
        editor.show();
        timer.restart();
        auto document = SourceEditor::buildDocument(content, file, editor.font(), editor.thread());
        build.push_back(ms(timer));
        timer.restart();
        editor.setSource(std::move(document));
        editor.setCosts(
            view.editor()->costs() ? std::make_shared<const SourceFileCosts>(*view.editor()->costs()) : nullptr, trial,
            TimeUnit::Milliseconds);
        editor.markRegion(1, 6);
        editor.highlightVisible();
        setText.push_back(ms(timer));
        timer.restart();
        editor.grab();
        paintTop.push_back(ms(timer));
        timer.restart();
        editor.markRegion(lines - 15, lines - 10);
        editor.grab();
        jump.push_back(ms(timer));
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete); // the replaced documents
    }
    std::printf("{\"bench\":\"sourceview\",\"lines\":%d,\"events\":%d,\"bytes\":%lld,\"runs\":%d,"
                "\"worker_costs_ms\":%.3f,\"worker_read_ms\":%.3f,\"worker_line_states_ms\":%.3f,"
                "\"worker_document_ms\":%.3f,\"gui_show_document_ms\":%.3f,\"paint_top_ms\":%.3f,\"jump_to_end_and_"
                "paint_ms\":%.3f,"
                "\"open_to_painted_ms\":%.3f,\"rss_mb\":%.1f}\n",
        lines, events, static_cast<long long>(text.size()), runs, costsMs, readMs, statesMs, median(build),
        median(setText), median(paintTop), median(jump), median(open), residentMb());
    return 0;
}
