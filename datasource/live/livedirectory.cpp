// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/live/livedirectory.h"

#include "datasource/live/snapshotappend.h"
#include "datasource/live/threadmerge.h"
#include "datasource/model/poolwait.h"
#include "datasource/readers/readerregistry.h"
#include "datasource/readers/snapshotreader.h"
#include "datasource/readers/taureader.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentMap>
#include <algorithm>
#include <numeric>

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

LiveDirectory::Kind LiveDirectory::kindOf(const std::map<QString, Seen>& now) const
{
    // The readers' own rules: profile.N.C.T files in the directory make it a TAU profile directory
    // (MULTI__ subdirectories are then not read), snapshot.N.C.T files a snapshot directory.
    bool profiles = false;
    bool snapshots = false;
    for (const auto& [name, seen] : now) {
        ThreadKey key;
        profiles = profiles || TauReader::parseProfileFileName(name, key);
        snapshots = snapshots || SnapshotReader::parseSnapshotFileName(name, key);
    }
    if (profiles && !snapshots && (m_format.isEmpty() || m_format == QLatin1String("tau")))
        return Kind::Profiles;
    if (snapshots && !profiles && (m_format.isEmpty() || m_format == QLatin1String("snapshot")))
        return Kind::Snapshots;
    return Kind::Whole;
}

void LiveDirectory::parse(Kind kind, const std::vector<std::pair<QString, Seen>>& names)
{
    ReadOptions options;
    options.strict = true; // a half-written file fails its read instead of being half used
    options.useCache = false;
    options.threads = 1; // the files are read in parallel, each on one thread
    std::vector<Parsed> parsed(names.size());
    std::vector<std::size_t> indices(names.size());
    std::iota(indices.begin(), indices.end(), std::size_t { 0 });
    const TauReader tau;
    const SnapshotReader snapshot;
    waitInPool([&] {
        QtConcurrent::blockingMap(indices, [&](std::size_t i) {
            Progress progress;
            const QString path = QDir(m_directory).filePath(names[i].first);
            const TrialResult read = kind == Kind::Profiles ? tau.readFile(path, options, progress)
                                                            : snapshot.readFile(path, options, progress);
            Parsed& p = parsed[i];
            p.seen = names[i].second;
            if (kind == Kind::Profiles)
                TauReader::parseProfileFileName(names[i].first, p.key);
            else
                SnapshotReader::parseSnapshotFileName(names[i].first, p.key);
            if (read)
                p.trial = read.value();
            else
                p.error = read.error();
        });
    });
    for (std::size_t i = 0; i < names.size(); ++i)
        m_parsed[names[i].first] = std::move(parsed[i]);
    m_filesParsedLastPoll = static_cast<int>(names.size());
    m_filesParsed += static_cast<qint64>(names.size());
}

std::shared_ptr<Trial> LiveDirectory::join(Kind kind, QString* error) const
{
    std::vector<const Parsed*> files;
    files.reserve(m_parsed.size());
    for (const auto& [name, p] : m_parsed)
        files.push_back(&p);
    // The readers' file order: by thread key.
    std::sort(files.begin(), files.end(), [](const Parsed* a, const Parsed* b) { return a->key < b->key; });
    std::vector<const Trial*> parts;
    parts.reserve(files.size());
    for (const Parsed* p : files)
        parts.push_back(p->trial.get());
    // TAU profile files of one directory measure one metric; a mix is the reader's error to give.
    if (kind == Kind::Profiles)
        for (const Trial* part : parts)
            if (part->metricCount() != 1
                || part->metric(MetricId(std::size_t { 0 })).name
                    != parts.front()->metric(MetricId(std::size_t { 0 })).name) {
                *error = QStringLiteral("a mix of metrics");
                return nullptr;
            }
    Provenance provenance = parts.front()->provenance();
    provenance.source = QFileInfo(m_directory).absoluteFilePath();
    return mergeThreads(parts.front()->name(), provenance, parts, error);
}

TrialResult LiveDirectory::readWhole(const std::map<QString, Seen>& now)
{
    ReadOptions options;
    options.strict = true; // a half-written file fails the read instead of being skipped
    options.useCache = false;
    Progress progress;
    m_parsed.clear(); // the next poll with few changes reads every file once
    m_filesParsedLastPoll = static_cast<int>(now.size());
    m_filesParsed += static_cast<qint64>(now.size());
    return ReaderRegistry::instance().read(m_directory, options, progress, m_format);
}

LiveDirectory::Update LiveDirectory::poll()
{
    Update update;
    m_filesParsedLastPoll = 0;
    const std::map<QString, Seen> now = scan();
    const Kind kind = kindOf(now);
    // The files that make the trial: file by file, the profile or snapshot files only.
    std::map<QString, Seen> considered;
    for (const auto& [name, seen] : now) {
        ThreadKey key;
        if (kind == Kind::Whole || (kind == Kind::Profiles && TauReader::parseProfileFileName(name, key))
            || (kind == Kind::Snapshots && SnapshotReader::parseSnapshotFileName(name, key)))
            considered.emplace(name, seen);
    }
    // What changed since the last read, and whether each change has settled since the last poll.
    std::size_t changedFiles = 0;
    for (const auto& [name, seen] : m_lastRead)
        changedFiles += considered.count(name) ? 0 : 1; // removed
    for (const auto& [name, seen] : considered) {
        const auto read = m_lastRead.find(name);
        const auto before = m_lastPoll.find(name);
        const bool settled = before != m_lastPoll.end() && before->second == seen && seen.size > 0;
        if (read == m_lastRead.end() || !(read->second == seen)) {
            ++changedFiles;
            if (!settled)
                update.waitingOn << name;
        }
    }
    m_lastPoll = now;
    if (changedFiles == 0 || considered.empty())
        return update;

    // File by file when fewer than half of the files changed; else the whole directory at once (a
    // dump that rewrote every file: the reader's one parallel pass is several times faster than as
    // many reads of one file, bench_live).
    const bool fileByFile = kind != Kind::Whole && changedFiles * 2 <= considered.size();
    std::shared_ptr<Trial> latest;
    if (fileByFile) {
        // Every settled file without a read of its present size and time is read now: the changed
        // ones, and after a whole read the unchanged ones (so the next change reads one file), even
        // while other files are still being written.
        std::vector<std::pair<QString, Seen>> toParse;
        for (const auto& [name, seen] : considered) {
            const auto parsed = m_parsed.find(name);
            if ((parsed == m_parsed.end() || !(parsed->second.seen == seen)) && !update.waitingOn.contains(name))
                toParse.emplace_back(name, seen);
        }
        parse(kind, toParse);
        for (auto it = m_parsed.begin(); it != m_parsed.end();) {
            if (!considered.count(it->first)) {
                it = m_parsed.erase(it); // a removed file
                continue;
            }
            if (!it->second.trial && !update.waitingOn.contains(it->first)) {
                update.waitingOn << it->first;
                if (update.error.isEmpty())
                    update.error = it->second.error.toString();
            }
            ++it;
        }
        if (!update.waitingOn.isEmpty())
            return update;
        QString error;
        latest = join(kind, &error);
        if (!latest)
            update.error = error;
    }
    if (!update.waitingOn.isEmpty())
        return update;
    if (!latest) {
        // Read whole: another format, or files that do not join (the reader's error says why).
        auto read = readWhole(considered);
        if (!read) {
            update.error = read.error().toString();
            const QString file = read.error().file;
            update.waitingOn << (file.isEmpty() ? m_directory : QDir(m_directory).relativeFilePath(file));
            return update;
        }
        latest = read.value();
    }
    QDateTime newest;
    for (const auto& [name, seen] : considered)
        newest = std::max(newest, seen.modified);
    m_lastRead = considered;
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
