// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QDateTime>
#include <QString>
#include <QStringList>
#include <map>
#include <memory>

namespace parallax {

/// A profile directory that a running application is still writing (issue 19 §2): TAU profile files
/// rewritten at every dump (TAU_PROFILE / TAU_DB_DUMP, cumulative values), or snapshot files that grow
/// a fragment per snapshot. poll() looks at the directory once; when the files changed since the last
/// read and every changed file has kept its size and time for one poll (so a file still being
/// written is not read), it reads the whole directory strictly (a half-written file fails the read,
/// which is retried at the next poll, and the previous trial stays) and returns the new trial:
/// - snapshot files: the trial as read, its snapshots the time series;
/// - profile files: the new profile appended to the series of the profiles read before (each dump is
///   one snapshot, named "update N", time = the newest file's modification time), events and user
///   events matched by name, so each dump's intervals are what happened since the previous dump and
///   nothing is counted twice (docs/SEMANTICS.md 1.11).
/// Not thread-safe: one poll at a time (a worker thread may run it).
class LiveDirectory {
public:
    explicit LiveDirectory(QString directory, QString format = {});

    struct Update {
        /// The new trial; null when nothing new was read this time.
        std::shared_ptr<const Trial> trial;
        /// Changed files that are not read yet: still changing, or unreadable as written so far.
        QStringList waitingOn;
        /// The read's error when the directory could not be read as it is now (retried next poll).
        QString error;
    };
    Update poll();

    const QString& directory() const { return m_directory; }
    /// The newest trial read (null before the first).
    const std::shared_ptr<const Trial>& trial() const { return m_trial; }
    /// How many times the directory was read into a new trial.
    int updates() const { return m_updates; }

private:
    struct Seen {
        qint64 size = -1;
        QDateTime modified;
        bool operator==(const Seen&) const = default;
    };
    std::map<QString, Seen> scan() const;

    QString m_directory;
    QString m_format;
    std::map<QString, Seen> m_lastPoll; ///< the files as the previous poll saw them
    std::map<QString, Seen> m_lastRead; ///< the files as the last successful read saw them
    std::shared_ptr<const Trial> m_trial;
    QDateTime m_lastReadTime; ///< the newest file's time at the last read
    int m_updates = 0;
};

} // namespace parallax
