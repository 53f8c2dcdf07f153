// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/gui/comparisonlauncher.h"

#include "app/gui/launchsupport.h"
#include "app/gui/viewregistry.h"
#include "datasource/readers/readerregistry.h"
#include "views/charts/chartexport.h"
#include "views/common/job.h"
#include "views/comparison/comparisonwindow.h"
#include "views/comparison/scalingview.h"

#include <QApplication>
#include <QLayout>
#include <QMessageBox>
#include <QObject>
#include <QProgressDialog>
#include <QSettings>
#include <QTimer>
#include <cstdio>
#include <memory>
#include <vector>

namespace parallax {

namespace {

/// Everything the launch keeps alive until the event loop ends.
struct Session {
    ComparisonLaunch launch;
    QSize size;
    QObject owner;
    Job<LoadedTrials> job { &owner };
    std::unique_ptr<QProgressDialog> progress;
    std::unique_ptr<ComparisonWindow> renderedWindow;
    std::unique_ptr<ScalingView> renderedScaling;
};

/// Shows a window made for --render at the session's size, renders the view from it and quits;
/// `slot` is where RenderTarget expects a window of its kind.
template <typename Window>
void renderFrom(
    Session& s, std::unique_ptr<Window>& holder, std::unique_ptr<Window> window, Window* RenderTarget::*slot)
{
    holder = std::move(window);
    holder->resize(s.size);
    holder->show();
    RenderTarget target;
    target.*slot = holder.get();
    renderAndQuit(s.launch.render, target, s.launch.out, s.size, s.launch.argument);
}

void onLoaded(Session& s, const LoadedTrials& loaded)
{
    s.progress.reset();
    const bool render = !s.launch.render.isEmpty();
    if (quitOnLoadError(loaded, !render))
        return;
    const auto& t = loaded.trials;
    if (s.launch.mode == ComparisonLaunch::Mode::Compare) {
        if (render)
            renderFrom(s, s.renderedWindow, std::make_unique<ComparisonWindow>(t[0], t[1]), &RenderTarget::comparison);
        else
            rememberComparisonChoices(ComparisonWindow::open(t[0], t[1]));
        return;
    }
    if (render)
        renderFrom(s, s.renderedScaling, std::make_unique<ScalingView>(t), &RenderTarget::scaling);
    else
        ScalingView::open(t);
}

} // namespace

void rememberComparisonChoices(ComparisonWindow* window)
{
    if (!window)
        return;
    static const QString key = QStringLiteral("comparison/colourBy");
    window->setColourBy(colourByFromKey(QSettings().value(key).toString()));
    QObject::connect(
        window, &ComparisonWindow::colourByChanged, [](ColourBy by) { QSettings().setValue(key, colourByKey(by)); });
}

QString comparisonRenderTargets()
{
    return QStringLiteral("%1 (with --compare) or %2 (with --scaling)")
        .arg(renderViewNames(RenderWindow::Compare), renderViewNames(RenderWindow::Scaling));
}

int runComparisonLaunch(const ComparisonLaunch& launch)
{
    const bool compare = launch.mode == ComparisonLaunch::Mode::Compare;
    if (compare && launch.paths.size() != 2) {
        printLaunchError(QStringLiteral("--compare needs two trials, A (the baseline) and B (the candidate); got %1")
                             .arg(launch.paths.size()));
        return 2;
    }
    if (!compare && launch.paths.size() < 2) {
        printLaunchError(QStringLiteral("--scaling needs at least two trials; got %1").arg(launch.paths.size()));
        return 2;
    }
    Session session;
    session.launch = launch;
    if (const int code
        = checkLaunchOptions(launch.render, launch.out, compare ? RenderWindow::Compare : RenderWindow::Scaling,
            compare ? QStringLiteral("--compare") : QStringLiteral("--scaling"), comparisonRenderTargets(), launch.size,
            &session.size))
        return code;
    if (launch.render.isEmpty()) {
        session.progress = std::make_unique<QProgressDialog>(
            QObject::tr("Reading %n trial(s)…", nullptr, static_cast<int>(launch.paths.size())), QString(), 0, 0);
        session.progress->setWindowTitle(QObject::tr("Parallax"));
        session.progress->setMinimumDuration(300);
    }
    session.job.start(
        [paths = launch.paths, format = launch.format](const std::atomic_bool&) { return readTrials(paths, format); },
        [&session](const LoadedTrials& loaded) { onLoaded(session, loaded); });
    const int code = QApplication::exec();
    session.job.cancelAndWait();
    return code;
}

} // namespace parallax
