// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/live/livedirectory.h"

#include "datasource/live/snapshotappend.h"
#include "datasource/readers/readerregistry.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <algorithm>

namespace parallax {

LiveDirectory::LiveDirectory(QString directory, QString format)
    : m_directory(std::move(directory))
    , m_format(std::move(format))
{
}

std::map<QString, LiveDirectory::Seen> LiveDirectory::scan() const
{
    std::map<QString, Seen> files;
    QDirIterator it(m_directory, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo info = it.fileInfo();
        // Editors' and writers' temporary files are not part of the profile.
        if (info.fileName().startsWith(QLatin1Char('.')) || info.fileName().endsWith(QLatin1Char('~')))
            continue;
        files[QDir(m_directory).relativeFilePath(info.filePath())] = { info.size(), info.lastModified() };
    }
    return files;
}

LiveDirectory::Update LiveDirectory::poll()
{
    Update update;
    const std::map<QString, Seen> now = scan();
    // What changed since the last read, and whether each change has settled since the last poll.
    bool changed = now.size() != m_lastRead.size();
    for (const auto& [name, seen] : now) {
        const auto read = m_lastRead.find(name);
        if (read != m_lastRead.end() && read->second == seen)
            continue;
        changed = true;
        const auto before = m_lastPoll.find(name);
        if (before == m_lastPoll.end() || !(before->second == seen) || seen.size == 0)
            update.waitingOn << name;
    }
    m_lastPoll = now;
    if (!changed || now.empty() || !update.waitingOn.isEmpty())
        return update;

    ReadOptions options;
    options.strict = true; // a half-written file fails the read instead of being skipped
    options.useCache = false;
    Progress progress;
    auto read = ReaderRegistry::instance().read(m_directory, options, progress, m_format);
    if (!read) {
        update.error = read.error().toString();
        const QString file = read.error().file;
        update.waitingOn << (file.isEmpty() ? m_directory : QDir(m_directory).relativeFilePath(file));
        return update;
    }
    QDateTime newest;
    for (const auto& [name, seen] : now)
        newest = std::max(newest, seen.modified);
    const std::shared_ptr<Trial> latest = read.value();
    m_lastRead = now;
    ++m_updates;
    if (latest->hasTimeSeries() || !m_trial) {
        m_trial = latest;
    } else {
        // TAU's dumps are cumulative: the new profile is the next snapshot of the run.
        const SnapshotStamp previous { QStringLiteral("update 1"), m_lastReadTime.toMSecsSinceEpoch() * 1000 };
        m_trial = appendSnapshot(
            *m_trial, *latest, previous, { QString(), newest.toMSecsSinceEpoch() * 1000 }, { QStringLiteral("live") });
    }
    m_lastReadTime = newest;
    update.trial = m_trial;
    return update;
}

} // namespace parallax
