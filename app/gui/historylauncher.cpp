// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/gui/historylauncher.h"

#include "app/cli/historyruns.h"
#include "app/gui/comparisonlauncher.h"
#include "app/gui/launchsupport.h"
#include "app/gui/viewregistry.h"
#include "perfdb/database.h"
#include "perfdb/trialsearch.h"
#include "views/common/job.h"
#include "views/comparison/comparisonwindow.h"

#include <QApplication>
#include <QMessageBox>
#include <QProgressDialog>

namespace parallax {

namespace {

QString runsText(std::size_t n) { return countText(n, QObject::tr("run"), QObject::tr("runs")); }

/// The launch's state until the event loop ends.
struct Session {
    HistoryLaunch launch;
    QSize size;
    QObject owner;
    Job<HistorySource> job { &owner };
    std::unique_ptr<QProgressDialog> progress;
    std::unique_ptr<HistoryView> rendered;
};

void onSource(Session& s, const HistorySource& source)
{
    s.progress.reset();
    const bool render = !s.launch.render.isEmpty();
    if (!source.compute) {
        printLaunchError(source.description);
        if (!render)
            QMessageBox::critical(nullptr, QObject::tr("Parallax"), source.description);
        QCoreApplication::exit(1);
        return;
    }
    if (!render) {
        openHistory(source);
        return;
    }
    s.rendered = std::make_unique<HistoryView>(source);
    s.rendered->resize(s.size);
    s.rendered->show();
    s.rendered->waitForResult();
    if (!s.rendered->error().isEmpty()) {
        printLaunchError(s.rendered->error());
        QCoreApplication::exit(1);
        return;
    }
    RenderTarget target;
    target.history = s.rendered.get();
    renderAndQuit(s.launch.render, target, s.launch.out, s.size);
}

} // namespace

HistorySource historyOfTrials(
    std::vector<std::shared_ptr<const Trial>> trials, QStringList labels, const QString& orderKey)
{
    HistorySource source;
    source.description = runsText(trials.size());
    source.orderKey = orderKey;
    if (!trials.empty())
        source.metrics = trials.front()->metrics();
    std::vector<HistoryInput> runs;
    for (std::size_t i = 0; i < trials.size(); ++i) {
        HistoryInput in;
        in.trial = trials[i];
        in.label = i < static_cast<std::size_t>(labels.size()) ? labels[static_cast<qsizetype>(i)] : trials[i]->name();
        in.order = trials[i]->metadataValue(orderKey);
        runs.push_back(std::move(in));
    }
    source.compute = [runs = std::move(runs), orderKey](const HistoryOptions& options, const std::atomic_bool&) {
        for (const HistoryInput& in : runs)
            if (in.order.isEmpty())
                return HistoryResult { {},
                    QObject::tr("%1 has no metadata '%2' to order it by").arg(in.label, orderKey) };
        return historyOf(runs, options);
    };
    return source;
}

perfdb::TrialSearch withMetadata(perfdb::TrialSearch search, const QString& application, const QString& experiment,
    const std::vector<std::pair<QString, QString>>& where)
{
    if (!application.isEmpty())
        search.metadata.emplace_back(QStringLiteral("Application"), application);
    if (!experiment.isEmpty())
        search.metadata.emplace_back(QStringLiteral("Experiment"), experiment);
    search.metadata.insert(search.metadata.end(), where.begin(), where.end());
    return search;
}

HistorySource historyOfDatabase(
    const QString& location, const perfdb::TrialSearch& search, const QString& orderKey, std::vector<Metric> metrics)
{
    HistorySource source;
    source.description
        = QObject::tr("%1 in %2").arg(search.isEmpty() ? QObject::tr("every trial") : search.describe(), location);
    source.orderKey = orderKey;
    source.metrics = std::move(metrics);
    source.compute = [location, search, orderKey](const HistoryOptions& options, const std::atomic_bool& cancel) {
        HistoryResult failed;
        auto db = perfdb::Database::open(location);
        if (!db) {
            failed.error = db.error().toString();
            return failed;
        }
        const auto listing = perfdb::searchTrials(*db.value(), search);
        if (!listing) {
            failed.error = listing.error().toString();
            return failed;
        }
        if (listing.value().trials.empty()) {
            failed.error = QObject::tr("no trials in %1 match: %2").arg(location, search.describe());
            return failed;
        }
        // The stored rows when they hold the statistic (no trial is loaded), else every trial.
        return databaseHistory(*db.value(), listing.value().trials, orderKey, options, false, &cancel).result;
    };
    source.trialOf = [location](const HistoryInput& run, QString* error) -> std::shared_ptr<const Trial> {
        if (run.trial)
            return run.trial;
        bool ok = false;
        const qint64 id = run.label.section(QLatin1Char(' '), 0, 0).mid(3).toLongLong(&ok);
        auto db = perfdb::Database::open(location);
        if (!ok || !db) {
            *error = ok ? db.error().toString() : QObject::tr("%1 is not a database trial").arg(run.label);
            return nullptr;
        }
        Progress progress;
        auto loaded = db.value()->loadTrial(id, progress);
        if (!loaded) {
            *error = QStringLiteral("db:%1: %2").arg(id).arg(loaded.error().toString());
            return nullptr;
        }
        return loaded.value();
    };
    return source;
}

HistoryView* openHistory(HistorySource source, QWidget* parent)
{
    auto trialOf = source.trialOf;
    HistoryView* view = HistoryView::open(std::move(source), parent);
    auto* job = new Job<std::pair<LoadedTrials, QString>>(view);
    QObject::connect(view, &QObject::destroyed, [job] { delete job; });
    QObject::connect(view, &HistoryView::compareRequested, view, [view, job, trialOf](int a, int b) {
        const History* h = view->history();
        if (!h)
            return;
        const HistoryInput runA = h->runs[static_cast<std::size_t>(a)];
        const HistoryInput runB = h->runs[static_cast<std::size_t>(b)];
        if ((runA.trial && runB.trial) || !trialOf) {
            rememberComparisonChoices(ComparisonWindow::open(runA.trial, runB.trial));
            return;
        }
        view->setCursor(Qt::BusyCursor);
        job->start(
            [runA, runB, trialOf](const std::atomic_bool&) {
                std::pair<LoadedTrials, QString> loaded;
                for (const HistoryInput* run : { &runA, &runB }) {
                    auto trial = trialOf(*run, &loaded.first.error);
                    if (!trial)
                        return loaded;
                    loaded.first.trials.push_back(std::move(trial));
                }
                return loaded;
            },
            [view](std::pair<LoadedTrials, QString> loaded) {
                view->unsetCursor();
                if (!loaded.first.error.isEmpty()) {
                    QMessageBox::warning(view, QObject::tr("Parallax"), loaded.first.error);
                    return;
                }
                rememberComparisonChoices(ComparisonWindow::open(loaded.first.trials[0], loaded.first.trials[1]));
            });
    });
    return view;
}

int runHistoryLaunch(const HistoryLaunch& launch)
{
    const bool fromDb = !launch.application.isEmpty() || !launch.experiment.isEmpty() || !launch.where.empty()
        || !launch.search.isEmpty();
    if (fromDb == !launch.paths.isEmpty()) {
        printLaunchError(
            QStringLiteral("--history needs its runs as PATHs or as --app/--exp/--where/--search, one of the two"));
        return 2;
    }
    if (launch.orderBy.isEmpty()) {
        printLaunchError(QStringLiteral("--history needs --order-by KEY: the metadata key the runs are ordered by"));
        return 2;
    }
    if (!fromDb && launch.paths.size() < 2) {
        printLaunchError(QStringLiteral("--history needs at least two runs; got %1").arg(launch.paths.size()));
        return 2;
    }
    Session session;
    session.launch = launch;
    if (const int code = checkLaunchOptions(launch.render, launch.out, RenderWindow::History,
            QStringLiteral("--history"), renderViewNames(RenderWindow::History), launch.size, &session.size))
        return code;
    if (launch.render.isEmpty()) {
        session.progress = std::make_unique<QProgressDialog>(QObject::tr("Reading the runs…"), QString(), 0, 0);
        session.progress->setWindowTitle(QObject::tr("Parallax"));
        session.progress->setMinimumDuration(300);
    }
    // The runs are read (files) or the first database trial is (its metrics), off the GUI thread; an
    // error comes back as a source without compute whose description is the message.
    session.job.start(
        [launch, fromDb](const std::atomic_bool&) {
            HistorySource failed;
            if (!fromDb) {
                const LoadedTrials loaded = readTrials(launch.paths, launch.format);
                if (!loaded.error.isEmpty()) {
                    failed.description = loaded.error;
                    return failed;
                }
                return historyOfTrials(loaded.trials, launch.paths, launch.orderBy);
            }
            auto db = perfdb::Database::open(launch.database);
            if (!db) {
                failed.description = db.error().toString();
                return failed;
            }
            const perfdb::TrialSearch search = withMetadata(
                perfdb::TrialSearch::parse(launch.search), launch.application, launch.experiment, launch.where);
            const auto listing = perfdb::searchTrials(*db.value(), search);
            if (!listing || listing.value().trials.empty()) {
                failed.description = listing
                    ? QObject::tr("no trials in %1 match: %2").arg(launch.database, search.describe())
                    : listing.error().toString();
                return failed;
            }
            Progress progress;
            auto first = db.value()->loadTrial(listing.value().trials.front().id, progress);
            if (!first) {
                failed.description = first.error().toString();
                return failed;
            }
            return historyOfDatabase(launch.database, search, launch.orderBy, first.value()->metrics());
        },
        [&session](const HistorySource& source) { onSource(session, source); });
    const int code = QApplication::exec();
    session.job.cancelAndWait();
    return code;
}

} // namespace parallax
