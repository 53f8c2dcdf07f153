// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/gui/loadjob.h"

#include "algebra/statistics.h"
#include "app/gui/launchsupport.h"
#include "datasource/readers/progress.h"
#include "datasource/readers/readerregistry.h"
#include "views/common/job.h"

#include <QElapsedTimer>
#include <algorithm>
#include <exception>

namespace parallax {

struct LoadJob::Job {
    quint64 generation = 0;
    QString path;
    std::unique_ptr<Progress> progress;
    QFuture<Outcome> future;
};

LoadJob::LoadJob(QObject* parent)
    : QObject(parent)
{
}

LoadJob::~LoadJob()
{
    // Workers call back into this object through queued progress events; wait until they are done
    // so that no worker outlives it. A cancelled TAU read stops after the file it is parsing.
    for (const auto& job : m_jobs)
        job->progress->cancel();
    for (const auto& job : m_jobs)
        job->future.waitForFinished();
}

LoadJob::Outcome LoadJob::run(const QString& path, const QString& format, Progress& progress)
{
    QElapsedTimer timer;
    timer.start();
    Outcome outcome;
    // The window never modifies a trial it shows: a new cache entry is written while it is drawn.
    ReadOptions options;
    options.storeInBackground = true;
    TrialResult result = ReaderRegistry::instance().read(path, options, progress, format);
    if (progress.isCancelled()) {
        outcome.cancelled = true;
        return outcome;
    }
    if (!result.ok()) {
        outcome.error = result.error().toString();
        outcome.unrecognised = result.error().unrecognised;
        return outcome;
    }
    std::shared_ptr<const Trial> trial = std::move(result.value());
    reportTiming("trial read");
    // The views read statistics on first paint; compute them here, off the GUI thread.
    progress.setStage(tr("Computing statistics"), 1);
    TrialStatistics::of(*trial);
    progress.advance();
    reportTiming("statistics computed");
    outcome.trial = std::move(trial);
    outcome.elapsedMs = timer.elapsed();
    return outcome;
}

void LoadJob::start(const QString& path, const QString& format)
{
    if (m_current)
        m_current->progress->cancel(); // superseded: its result will be dropped
    auto job = std::make_shared<Job>();
    job->generation = ++m_generation;
    job->path = path;
    const quint64 generation = job->generation;
    job->progress = std::make_unique<Progress>([this, generation](const QString& stage, qint64 done, qint64 total) {
        // Called on worker threads: hop to the GUI thread, and drop reports of superseded jobs there.
        QMetaObject::invokeMethod(
            this,
            [this, generation, stage, done, total] {
                if (m_current && m_current->generation == generation)
                    Q_EMIT progress(stage, done, total);
            },
            Qt::QueuedConnection);
    });
    m_current = job;
    m_path = path;
    m_jobs.push_back(job);

    Progress* progress = job->progress.get();
    job->future = runInBackground(
        this,
        [path, format, progress] {
            try {
                return run(path, format, *progress);
            } catch (const std::exception& e) {
                // Readers report errors as values; this is the last line for std::bad_alloc and friends.
                Outcome outcome;
                outcome.error = path + QStringLiteral(": ") + QString::fromLocal8Bit(e.what());
                return outcome;
            }
        },
        [this, job](const Outcome&) { finished(job); });
    Q_EMIT started(path);
}

void LoadJob::cancel()
{
    if (m_current)
        m_current->progress->cancel();
}

void LoadJob::finished(const std::shared_ptr<Job>& job)
{
    m_jobs.erase(std::remove(m_jobs.begin(), m_jobs.end(), job), m_jobs.end());
    if (job != m_current)
        return; // superseded by a newer start()
    m_current.reset();
    const Outcome outcome = job->future.result();
    if (outcome.cancelled)
        Q_EMIT cancelled(job->path);
    else if (outcome.unrecognised)
        Q_EMIT unrecognised(outcome.error, job->path);
    else if (!outcome.error.isEmpty())
        Q_EMIT failed(outcome.error, job->path);
    else
        Q_EMIT loaded(outcome.trial, job->path, outcome.elapsedMs);
}

} // namespace parallax
