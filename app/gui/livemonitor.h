// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/live/livedirectory.h"
#include "views/common/job.h"

#include <QDateTime>
#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>
#include <memory>

namespace parallax {

/// `parallax --monitor DIR` and File ▸ Monitor Directory… (issue 19 §2): follows a directory a running
/// application writes. A QFileSystemWatcher on the directory, its subdirectories and files asks for a
/// look at once; a timer looks every second anyway (network file systems send no notifications); a
/// change that has not settled is looked at again after PollMs. Each look is LiveDirectory::poll() on
/// a worker thread, one at a time; a new trial arrives through updated(), the state through status().
class LiveMonitor : public QObject {
    Q_OBJECT
public:
    static constexpr int PollMs = 250;
    static constexpr int FallbackMs = 1000;

    LiveMonitor(const QString& directory, const QString& format, QObject* parent = nullptr);
    ~LiveMonitor() override;

    const QString& directory() const { return m_directory; }
    /// The newest trial (null before the first read).
    std::shared_ptr<const Trial> trial() const { return m_trial; }
    /// When the last trial arrived (invalid before the first).
    const QDateTime& lastUpdate() const { return m_lastUpdate; }
    /// "Live: DIR · updated 12:03:04 · waiting for profile.3.0.0", for the status bar.
    QString statusText() const;

Q_SIGNALS:
    void updated(const std::shared_ptr<const Trial>& trial);
    void statusChanged(const QString& text);

private:
    void pollSoon(int delayMs);
    void poll();
    /// The directory, its subdirectories and files (for the watcher); run on the worker.
    static QStringList listPaths(const QString& directory);
    /// Watches the paths not watched yet.
    void watch(const QStringList& paths);
    struct Look {
        LiveDirectory::Update update;
        QStringList paths;
    };

    QString m_directory;
    std::shared_ptr<LiveDirectory> m_live;
    QFileSystemWatcher m_watcher;
    QTimer m_fallback;
    QTimer m_soon;
    Job<Look> m_job { this };
    std::shared_ptr<const Trial> m_trial;
    QDateTime m_lastUpdate;
    QStringList m_waiting;
    QString m_error;
};

} // namespace parallax
