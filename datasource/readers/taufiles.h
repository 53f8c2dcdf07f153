// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// The per-file half of the TAU profile reader (taureader.cpp assembles the trial): the directory
// listing, the parallel parse of profile.N.C.T files into rows with temporary ids, and the tables
// of names the workers share. Internal to the datasource layer.

#include "datasource/model/names.h"
#include "datasource/model/trial.h"
#include "datasource/readers/progress.h"
#include "datasource/readers/reader.h"

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace parallax::taufiles {

struct StringViewHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
};

using StringIndex = std::unordered_map<std::string, std::uint32_t, StringViewHash, std::equal_to<>>;

/// Interns strings from many worker threads; ids are dense in order of first insertion. Each
/// string is stored once: the index holds views of the stored strings (a deque never moves them).
class ConcurrentStrings {
public:
    std::uint32_t intern(std::string_view s)
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_index.find(s);
        if (it != m_index.end())
            return it->second;
        const auto id = static_cast<std::uint32_t>(m_strings.size());
        m_index.emplace(m_strings.emplace_back(s), id);
        return id;
    }
    const std::string& get(std::uint32_t id) const { return m_strings[id]; }
    std::size_t size() const { return m_strings.size(); }
    /// The id of `s` when it was interned (not while workers intern).
    std::optional<std::uint32_t> find(std::string_view s) const
    {
        const auto it = m_index.find(s);
        return it == m_index.end() ? std::nullopt : std::optional<std::uint32_t>(it->second);
    }
    /// Room for about `count` strings, so that the index is not rebuilt while it grows (a
    /// 131,072-file trial interns each thread's pid, tid and time stamps).
    void reserve(std::size_t count)
    {
        std::lock_guard lock(m_mutex);
        m_index.reserve(count);
    }
    /// Frees the index once nothing is interned any more (then find() finds nothing).
    void dropIndex() { m_index = decltype(m_index)(); }
    /// Moves string `id` out, for a caller that needs it no more after this.
    std::string take(std::uint32_t id) { return std::move(m_strings[id]); }
    /// Frees everything once the ids have been resolved.
    void clear()
    {
        dropIndex();
        m_strings = decltype(m_strings)();
    }

private:
    std::mutex m_mutex;
    std::unordered_map<std::string_view, std::uint32_t> m_index;
    std::deque<std::string> m_strings;
};

/// Event names shared by all files of a trial: canonical name -> temporary id, with the first
/// raw spelling and every distinct GROUP string seen.
class EventTable {
public:
    struct Entry {
        std::string canonical;
        std::string raw;
        std::vector<std::string> groupStrings;
    };

    std::uint32_t intern(std::string_view raw, std::string_view groups)
    {
        std::string canonical = names::canonical(raw);
        std::lock_guard lock(m_mutex);
        auto it = m_index.find(canonical);
        std::uint32_t id;
        if (it == m_index.end()) {
            id = static_cast<std::uint32_t>(m_entries.size());
            m_entries.push_back({ canonical, std::string(raw), {} });
            m_index.emplace(std::move(canonical), id);
        } else {
            id = it->second;
        }
        addGroupsLocked(id, groups);
        return id;
    }

    void addGroups(std::uint32_t id, std::string_view groups)
    {
        std::lock_guard lock(m_mutex);
        addGroupsLocked(id, groups);
    }

    const std::deque<Entry>& entries() const { return m_entries; }

private:
    void addGroupsLocked(std::uint32_t id, std::string_view groups)
    {
        if (groups.empty())
            return;
        auto& g = m_entries[id].groupStrings;
        if (std::find(g.begin(), g.end(), groups) == g.end())
            g.emplace_back(groups);
    }

    std::mutex m_mutex;
    StringIndex m_index;
    std::deque<Entry> m_entries;
};

/// Per-worker cache in front of an EventTable: raw name -> (id, groups last seen).

struct FileWork {
    ThreadKey key;
    /// The path as the operating system spells it, for open(2); path() decodes it for messages
    /// (not kept decoded: 131,072 paths twice would be ~16 MB for a few error messages).
    QByteArray nativePath;
    QString path() const { return QFile::decodeName(nativePath); }
};

/// What few files have: a failure, warnings, odd values, duplicate names, metadata keys with a
/// timer context. Allocated only for a file that has one of them, so a clean file's result stays
/// small (docs/ARCHITECTURE.md, the TAU reader's memory).
struct FileNotes {
    ReadError error;
    std::vector<std::uint32_t> contextKeys;
    std::vector<std::string> duplicateNames;
    std::size_t duplicateAtomics = 0;
    std::size_t negativeValues = 0;
    std::string firstNegative;
    std::size_t nonFiniteValues = 0; // NaN or infinite numbers, kept as read
    std::string firstNonFinite;
    std::size_t negativeCounts = 0; // negative calls, subrs or numevents, kept as read
    std::string firstNegativeCount;
    QStringList warnings;
};

/// One file's parse, kept until the trial is assembled; the file's key and path are in its FileWork.
struct FileResult {
    /// The row packed into a worker's RowStore::Writer (when `packed`); temporary event ids.
    RowStore::Slot slot;
    AtomicRow atomicRow; // temporary atomic ids
    std::vector<std::pair<std::uint32_t, std::uint32_t>> metadata; // (key, value) in the string table
    std::uint32_t metricName = 0; // in the string table
    bool failed = false;
    bool packed = false;
    std::unique_ptr<FileNotes> notes;

    FileNotes& note()
    {
        if (!notes)
            notes = std::make_unique<FileNotes>();
        return *notes;
    }
};

struct Shared {
    EventTable events;
    EventTable atomics;
    ConcurrentStrings strings;
};

inline QString qs(const std::string& s) { return QString::fromStdString(s); }

/// The metric name rules of docs/FORMATS.md 1.1 applied to line 1 of a file.
QString metricFromLineOne(std::string_view line);

/// The profile.N.C.T files of one directory, sorted by thread key.
std::vector<FileWork> listProfiles(const QString& dir);

/// Parses all files of one metric directory in parallel, one result per file in the same order.
/// With `writers`, each worker packs every good file's row into a writer of its own as soon as it
/// is parsed (FileResult::slot), so the rows never exist twice; else each row lands in `rows`
/// (one per file, empty for a failed one).
std::vector<FileResult> parseFiles(const std::vector<FileWork>& files, Shared& shared, const ReadOptions& options,
    Progress& progress, std::vector<RowStore::Writer>* writers, std::vector<IntervalRow>* rows);

} // namespace parallax::taufiles
