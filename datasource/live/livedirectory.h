// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"
#include "datasource/readers/reader.h"

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
/// written is not read), it reads what changed strictly (a half-written file fails its read, which is
/// retried when the file changes again, and the previous trial stays) and returns the new trial.
/// What is read again:
/// - a directory of profile.N.C.T files (format "" or "tau") or of snapshot.N.C.T files (format ""
///   or "snapshot"), when fewer than half of its files changed: only the files whose size or time
///   changed, each on its own (TauReader::readFile, SnapshotReader::readFile, in parallel); the
///   others' reads are kept between polls, keyed by (file name, size, time), and the trial is joined
///   from all of them (mergeThreads), the same trial a read of the whole directory gives. A snapshot
///   file that grew is parsed again whole. A removed file's thread leaves the trial. Other files in
///   the directory are not looked at. When half of the files or more changed (a dump rewrites every
///   file), the directory is read whole, which is faster; the first poll after that with fewer
///   changes reads each unchanged file once, so that the ones after it read only what changed;
/// - any other directory (MULTI__ metric directories, a merged tauprofile.xml, other formats): the
///   whole directory through the ReaderRegistry, when any file in it changed.
/// The trial:
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
    /// How many files the last poll parsed (the whole directory's files when it read it whole, the
    /// unchanged files too when it read them again after a whole read).
    int filesParsedLastPoll() const { return m_filesParsedLastPoll; }
    /// How many files all polls parsed.
    qint64 filesParsed() const { return m_filesParsed; }

private:
    struct Seen {
        qint64 size = -1;
        QDateTime modified;
        bool operator==(const Seen&) const = default;
    };
    /// The directory's files (relative paths) with their size and time.
    std::map<QString, Seen> scan() const;
    /// One file's strict read of its own, kept while the file stays as it was.
    struct Parsed {
        Seen seen;
        ThreadKey key;
        std::shared_ptr<const Trial> trial;
        ReadError error; ///< when the read failed (trial null)
    };
    enum class Kind { Whole, Profiles, Snapshots };
    /// How the files `now` are read: file by file when they are TAU profile or snapshot files only.
    Kind kindOf(const std::map<QString, Seen>& now) const;
    /// Parses `names` (relative paths) in parallel into m_parsed.
    void parse(Kind kind, const std::vector<std::pair<QString, Seen>>& names);
    /// The trial joined from m_parsed; an error when the files cannot be joined (read whole then).
    std::shared_ptr<Trial> join(Kind kind, QString* error) const;
    /// The whole directory through the ReaderRegistry.
    TrialResult readWhole(const std::map<QString, Seen>& now);

    QString m_directory;
    QString m_format;
    std::map<QString, Seen> m_lastPoll; ///< the files as the previous poll saw them
    std::map<QString, Seen> m_lastRead; ///< the files as the last successful read saw them
    std::map<QString, Parsed> m_parsed; ///< file by file: each file's last read
    std::shared_ptr<const Trial> m_trial;
    QDateTime m_lastReadTime; ///< the newest file's time at the last read
    int m_updates = 0;
    int m_filesParsedLastPoll = 0;
    qint64 m_filesParsed = 0;
};

} // namespace parallax
