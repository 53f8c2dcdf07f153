// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// CUBE browser benchmark (not a test, issue 15 section 5): a synthesized trial like `parallax-cli synth
// --threads T --events 101 --callpath-depth 2` (or DIR), then prints JSON: building the three trees,
// one computation of every pane's values, a selection change (median of --runs), the box plots of
// the shown call rows, and the browser widget offscreen from the trial to its first values and from a
// click to the new values; the topology heat map and the distribution panel of one call row (alone,
// and in the widget from the trial to the topology image and the box-plot column); resident memory
// of the trial and of the browser's trees and values.
//   bench_cube [--threads T] [--runs N] [DIR]        (default 16,384 threads)

#include "algebra/cubespace.h"
#include "algebra/topology.h"
#include "tests/bench/benchutil.h"
#include "views/cube/cubebrowser.h"
#include "views/cube/distributionpanel.h"
#include "views/cube/topologyview.h"
#include "views/selectionstate.h"

#include <QApplication>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTreeView>

using namespace parallax;
using namespace parallax::bench;

namespace {

void waitForValues(CubeBrowser& browser)
{
    QEventLoop loop;
    QObject::connect(&browser, &CubeBrowser::valuesShown, &loop, &QEventLoop::quit);
    loop.exec();
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    SynthBenchOptions o;
    o.threads = 16384;
    o.events = 101;
    if (!parseSynthBenchOptions(
            argc, argv, o, "bench_cube [--threads T] [--runs N] [DIR]", [](const char*, auto&&) { return false; }))
        return 2;

    const double residentStart = residentMb();
    QElapsedTimer timer;
    timer.start();
    std::shared_ptr<const Trial> trial;
    if (!o.directories.empty()) {
        trial = readTrial(QString::fromLocal8Bit(o.directories.front()));
    } else {
        SynthOptions synth;
        synth.threads = o.threads;
        synth.events = o.events;
        synth.callpathDepth = 2;
        trial = synthesizeTrial(synth);
    }
    if (!trial)
        return 1;
    const double trialMs = ms(timer);
    const double residentTrial = residentMb();

    // The engine alone.
    std::vector<double> spaces, computes, changes, boxes;
    std::shared_ptr<const CubeSpace> space;
    for (int r = 0; r < o.runs; ++r) {
        timer.restart();
        space = std::make_shared<const CubeSpace>(trial);
        spaces.push_back(ms(timer));
    }
    const double residentSpace = residentMb();
    CubeState state = CubeState::defaults(*space);
    for (int r = 0; r < o.runs; ++r) {
        timer.restart();
        const CubeValues v = computeCube(*space, state);
        computes.push_back(ms(timer));
    }
    // A click on another call path: the system pane's values change.
    const auto& children = space->item(CubePane::Call, space->roots(CubePane::Call).front()).children;
    for (int r = 0; r < o.runs; ++r) {
        state.pane(CubePane::Call).selected = { children[static_cast<std::size_t>(r) % children.size()] };
        timer.restart();
        const CubeValues v = computeCube(*space, state);
        changes.push_back(ms(timer));
    }
    // Box plots of the 40 rows a pane shows.
    for (int r = 0; r < o.runs; ++r) {
        timer.restart();
        for (std::size_t k = 0; k < std::min<std::size_t>(40, children.size()); ++k)
            boxStats(cubeLocationValues(*space, state, children[k]));
        boxes.push_back(ms(timer));
    }

    // The location views alone: the topologies, the heat map image of one row's values, the
    // distribution panel (histogram and sorted plot).
    std::vector<double> topos, images, dists;
    const std::vector<double> rowValues = cubeLocationValues(*space, state, children.front());
    for (int r = 0; r < o.runs; ++r) {
        timer.restart();
        const auto all = topologies(*trial);
        topos.push_back(ms(timer));
        TopologyView view;
        view.resize(1200, 800);
        view.setTrial(trial);
        timer.restart();
        view.setValues(rowValues, QStringLiteral("row"));
        view.canvas()->repaint();
        images.push_back(ms(timer));
        DistributionPanel panel;
        panel.resize(1200, 400);
        timer.restart();
        panel.setValues(rowValues, QStringLiteral("row"));
        panel.repaint();
        dists.push_back(ms(timer));
    }

    // The widget: trial -> first values shown, then clicks on call paths -> new values shown.
    SelectionState selection;
    CubeBrowser browser(&selection);
    browser.resize(1600, 900);
    browser.show();
    app.processEvents();
    timer.restart();
    selection.setTrial(trial);
    waitForValues(browser);
    const double firstMs = ms(timer);
    // ... and on to the topology image drawn and the box-plot column computed.
    browser.finishComputing();
    browser.topologyView()->canvas()->repaint();
    browser.tree(CubePane::Call)->viewport()->repaint();
    const double firstLocationsMs = ms(timer);
    const double residentBrowser = residentMb();
    std::vector<double> clicks;
    for (int r = 0; r < o.runs; ++r) {
        timer.restart();
        browser.selectItem(CubePane::Call, children[static_cast<std::size_t>(r + 1) % children.size()]);
        waitForValues(browser);
        browser.tree(CubePane::System)->viewport()->repaint();
        browser.tree(CubePane::Call)->viewport()->repaint();
        clicks.push_back(ms(timer));
    }

    QJsonObject out;
    out.insert(QStringLiteral("threads"), static_cast<qint64>(trial->threadCount()));
    out.insert(QStringLiteral("events"), static_cast<qint64>(trial->eventCount()));
    out.insert(QStringLiteral("cells"), static_cast<qint64>(trial->cellCount()));
    out.insert(QStringLiteral("call_items"), static_cast<qint64>(space->size(CubePane::Call)));
    out.insert(QStringLiteral("system_items"), static_cast<qint64>(space->size(CubePane::System)));
    out.insert(QStringLiteral("runs"), o.runs);
    out.insert(QStringLiteral("trial_ms"), trialMs);
    out.insert(QStringLiteral("space_build_ms_median"), median(spaces));
    out.insert(QStringLiteral("compute_all_panes_ms_median"), median(computes));
    out.insert(QStringLiteral("selection_change_ms_median"), median(changes));
    out.insert(QStringLiteral("box_plots_40_rows_ms_median"), median(boxes));
    out.insert(QStringLiteral("topologies_ms_median"), median(topos));
    out.insert(QStringLiteral("topology_image_ms_median"), median(images));
    out.insert(QStringLiteral("distribution_panel_ms_median"), median(dists));
    out.insert(QStringLiteral("widget_first_values_ms"), firstMs);
    out.insert(QStringLiteral("widget_first_topology_and_box_column_ms"), firstLocationsMs);
    out.insert(QStringLiteral("widget_click_to_repaint_ms_median"), median(clicks));
    out.insert(QStringLiteral("resident_trial_mb"), residentTrial - residentStart);
    out.insert(QStringLiteral("resident_space_mb"), residentSpace - residentTrial);
    out.insert(QStringLiteral("resident_browser_mb"), residentBrowser - residentSpace);
    out.insert(QStringLiteral("load_average"), loadAverage());
    std::printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Indented).constData());
    return 0;
}
