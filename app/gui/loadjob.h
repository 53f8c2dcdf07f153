// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QFuture>
#include <QObject>
#include <QString>
#include <memory>
#include <vector>

namespace parallax {

class Progress;

/// Loads a trial on the thread pool: reads it with the ReaderRegistry and computes its statistics,
/// so that the GUI thread only receives a finished, immutable snapshot.
///
/// Starting a new load supersedes (and cancels) the running one; a superseded job's progress and
/// result are dropped. The destructor cancels and waits for outstanding jobs.
class LoadJob : public QObject {
    Q_OBJECT
public:
    explicit LoadJob(QObject* parent = nullptr);
    ~LoadJob() override;

    /// Starts loading path (a file or a directory); an empty format means auto-detection.
    void start(const QString& path, const QString& format = {});
    /// Cancels the current job; cancelled() follows when the worker has stopped.
    void cancel();
    bool isRunning() const { return m_current != nullptr; }
    QString path() const { return m_path; }

Q_SIGNALS:
    void started(const QString& path);
    /// Throttled progress of the current job (queued from the worker threads).
    void progress(const QString& stage, qint64 done, qint64 total);
    void loaded(std::shared_ptr<const Trial> trial, const QString& path, qint64 elapsedMs);
    /// The reader's error, naming the file and the line (ReadError::toString()).
    void failed(const QString& message, const QString& path);
    /// No reader recognised the path (ReadError::unrecognised); `message` is the reader registry's.
    void unrecognised(const QString& message, const QString& path);
    void cancelled(const QString& path);

private:
    struct Job;
    struct Outcome {
        std::shared_ptr<const Trial> trial;
        QString error;
        bool unrecognised = false;
        bool cancelled = false;
        qint64 elapsedMs = 0;
    };
    static Outcome run(const QString& path, const QString& format, Progress& progress);
    void finished(const std::shared_ptr<Job>& job);

    std::shared_ptr<Job> m_current;
    /// Every job whose worker may still run (current and superseded), waited for on destruction.
    std::vector<std::shared_ptr<Job>> m_jobs;
    quint64 m_generation = 0;
    QString m_path;
};

} // namespace parallax
