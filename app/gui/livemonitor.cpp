// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/gui/livemonitor.h"

#include <QDirIterator>
#include <QLocale>
#include <QSet>

namespace parallax {

LiveMonitor::LiveMonitor(const QString& directory, const QString& format, QObject* parent)
    : QObject(parent)
    , m_directory(directory)
    , m_live(std::make_shared<LiveDirectory>(directory, format))
{
    m_soon.setSingleShot(true);
    connect(&m_soon, &QTimer::timeout, this, &LiveMonitor::poll);
    connect(&m_fallback, &QTimer::timeout, this, &LiveMonitor::poll);
    m_fallback.start(FallbackMs);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] { pollSoon(50); });
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, [this] { pollSoon(50); });
    pollSoon(0);
}

LiveMonitor::~LiveMonitor() { m_job.cancelAndWait(); }

QStringList LiveMonitor::listPaths(const QString& directory)
{
    QStringList paths { directory };
    QDirIterator it(directory, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        paths << it.next();
    return paths;
}

void LiveMonitor::watch(const QStringList& paths)
{
    // What the watcher has now: it drops a file that was replaced (TAU rewrites by rename).
    QSet<QString> watched;
    for (const QStringList& list : { m_watcher.files(), m_watcher.directories() })
        for (const QString& p : list)
            watched.insert(p);
    QStringList fresh;
    for (const QString& p : paths)
        if (!watched.contains(p))
            fresh << p;
    if (!fresh.isEmpty())
        m_watcher.addPaths(fresh);
}

void LiveMonitor::pollSoon(int delayMs)
{
    if (!m_soon.isActive() || m_soon.remainingTime() > delayMs)
        m_soon.start(delayMs);
}

void LiveMonitor::poll()
{
    if (m_job.isRunning()) {
        pollSoon(PollMs); // one look at a time; look again when it is done
        return;
    }
    // The look and the listing of what to watch both run on the worker: no file system walk here.
    m_job.start(
        [live = m_live](const std::atomic_bool&) {
            return Look { live->poll(), listPaths(live->directory()) };
        },
        [this](const Look& look) {
            const LiveDirectory::Update& update = look.update;
            watch(look.paths);
            m_waiting = update.waitingOn;
            m_error = update.error;
            if (!m_waiting.isEmpty())
                pollSoon(PollMs);
            if (update.trial) {
                m_trial = update.trial;
                m_lastUpdate = QDateTime::currentDateTime();
                Q_EMIT updated(m_trial);
            }
            Q_EMIT statusChanged(statusText());
        });
}

QString LiveMonitor::statusText() const
{
    QString text = tr("● Live: %1").arg(m_directory);
    if (m_lastUpdate.isValid())
        text += tr(" · updated %1").arg(QLocale().toString(m_lastUpdate.time(), QLocale::LongFormat));
    else
        text += tr(" · reading…");
    if (!m_waiting.isEmpty())
        text += tr(" · waiting for %1%2")
                    .arg(m_waiting.front(),
                        m_waiting.size() > 1 ? tr(" and %1 more").arg(m_waiting.size() - 1) : QString());
    if (!m_error.isEmpty())
        text += tr(" (%1)").arg(m_error);
    return text;
}

} // namespace parallax
