// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/gui/semanticlauncher.h"

#include "app/gui/launchsupport.h"
#include "app/gui/viewregistry.h"
#include "datasource/readers/readerregistry.h"
#include "views/common/job.h"
#include "views/semantic/semanticwindow.h"

#include <QApplication>
#include <QMessageBox>
#include <QObject>
#include <cstdio>
#include <memory>

namespace parallax {

namespace {

/// "mean", "total" or "N,C,T" for a trial; false when the thread does not exist.
bool parseScope(const QString& text, const Trial& trial, semantic::Scope* scope)
{
    if (text.isEmpty() || text == QLatin1String("mean")) {
        *scope = semantic::Scope::mean();
        return true;
    }
    if (text == QLatin1String("total")) {
        *scope = semantic::Scope::total();
        return true;
    }
    const QStringList parts = text.split(QLatin1Char(','));
    if (parts.size() != 3)
        return false;
    const ThreadIndex t = trial.findThread({ parts[0].toInt(), parts[1].toInt(), parts[2].toInt() });
    if (!t.isValid())
        return false;
    *scope = semantic::Scope::ofThread(t);
    return true;
}

struct Session {
    SemanticLaunch launch;
    QSize size;
    QObject owner;
    Job<LoadedTrials> job { &owner };
    std::unique_ptr<SemanticWindow> rendered;
};

void onLoaded(Session& s, const LoadedTrials& loaded)
{
    const bool render = !s.launch.render.isEmpty();
    if (quitOnLoadError(loaded, !render))
        return;
    const std::shared_ptr<const Trial>& read = loaded.trials.front();
    const Trial& trial = *read;
    semantic::Scope scope;
    if (!parseScope(s.launch.scope, trial, &scope)) {
        printLaunchError(QStringLiteral("--semantic-scope: no thread %1 in %2 (expected mean, total or N,C,T)")
                             .arg(s.launch.scope, trial.name()));
        QCoreApplication::exit(1);
        return;
    }
    MetricId metric;
    if (!s.launch.metric.isEmpty()) {
        metric = trial.findMetric(s.launch.metric);
        if (!metric.isValid()) {
            printLaunchError(
                QStringLiteral("--semantic-metric: no metric %1 in %2").arg(s.launch.metric, trial.name()));
            QCoreApplication::exit(1);
            return;
        }
    }
    const auto source = SemanticModelSource::fromArgument(s.launch.model);
    SemanticWindow* window = nullptr;
    if (!render) {
        window = SemanticWindow::open(read, nullptr, source);
    } else {
        s.rendered = std::make_unique<SemanticWindow>(read);
        window = s.rendered.get();
        window->resize(s.size);
        window->show();
        window->setModelSource(source);
    }
    if (metric.isValid())
        window->setMetric(metric);
    window->setScope(scope);
    if (!render)
        return;
    RenderTarget target;
    target.semantic = window;
    renderAndQuit(s.launch.render, target, s.launch.out, s.size);
}

} // namespace

QString semanticRenderTargets() { return renderViewNames(RenderWindow::Semantic); }

int runSemanticLaunch(const SemanticLaunch& launch)
{
    if (launch.model.isEmpty() || launch.path.isEmpty()) {
        printLaunchError(QStringLiteral("--semantic needs a model (a JSON file or builtin:NAME) and one PATH"));
        return 2;
    }
    Session session;
    session.launch = launch;
    if (const int code = checkLaunchOptions(launch.render, launch.out, RenderWindow::Semantic,
            QStringLiteral("--semantic"), semanticRenderTargets(), launch.size, &session.size))
        return code;
    session.job.start(
        [path = launch.path, format = launch.format](const std::atomic_bool&) { return readTrials({ path }, format); },
        [&session](const LoadedTrials& loaded) { onLoaded(session, loaded); });
    const int code = QApplication::exec();
    session.job.cancelAndWait();
    session.rendered.reset();
    return code;
}

} // namespace parallax
