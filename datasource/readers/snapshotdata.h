// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/names.h"
#include "datasource/model/trial.h"
#include "datasource/readers/reader.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

/// What the snapshot parser (snapshotparser) hands the snapshot reader (snapshotreader): the names
/// shared by all inputs of a trial and, per input, its threads, snapshots and derived blocks with
/// temporary ids (docs/FORMATS.md 4).

namespace parallax::snapshot {

/// No temporary id.
constexpr std::uint32_t None = std::numeric_limits<std::uint32_t>::max();

/// Names shared by all inputs of one trial: canonical name -> dense temporary id. Thread-safe.
class NameTable {
public:
    struct Entry {
        QString name;
        QString raw;
        QStringList groups;
    };

    explicit NameTable(bool canonicalise)
        : m_canonicalise(canonicalise)
    {
    }

    std::uint32_t intern(const QString& raw, const QStringList& groups = {})
    {
        const QString name
            = m_canonicalise ? QString::fromStdString(names::canonical(raw.toStdString())) : raw.trimmed();
        std::lock_guard lock(m_mutex);
        std::uint32_t id;
        const auto it = m_index.constFind(name);
        if (it == m_index.cend()) {
            id = static_cast<std::uint32_t>(m_entries.size());
            m_entries.push_back({ name, raw, {} });
            m_index.insert(name, id);
        } else {
            id = it.value();
        }
        auto& known = m_entries[id].groups;
        for (const QString& g : groups)
            if (!known.contains(g))
                known << g;
        return id;
    }
    /// The source spelling of an id (while other inputs may still be parsed).
    QString raw(std::uint32_t id)
    {
        std::lock_guard lock(m_mutex);
        return m_entries[id].raw;
    }
    /// Only once parsing is over.
    const std::deque<Entry>& entries() const { return m_entries; }
    std::size_t size() const { return m_entries.size(); }

private:
    bool m_canonicalise;
    std::mutex m_mutex;
    QHash<QString, std::uint32_t> m_index;
    std::deque<Entry> m_entries;
};

struct Names {
    NameTable metrics { false };
    NameTable events { true };
    NameTable atomics { true };
};

struct Snapshot {
    QString name;
    qint64 timestamp = 0;
    std::vector<std::uint32_t> metrics; // shared metric ids of the value columns
    IntervalRow row; // temporary event ids; excl/incl cell-major: [cell * metrics.size() + column]
    AtomicRow atomicRow; // temporary ids
    bool haveInterval = false;
    bool haveAtomic = false;
};

struct ThreadData {
    ThreadKey key;
    std::vector<std::pair<QString, QString>> metadata;
    QSet<QString> contextKeys;
    std::vector<Snapshot> snapshots;
};

struct Derived {
    QString entity;
    Snapshot data;
};

/// One input (a snapshot file or a merged file) as parsed.
struct InputResult {
    QString path;
    bool failed = false;
    bool cancelled = false;
    ReadError error;
    std::vector<ThreadData> threads;
    std::vector<Derived> derived;
    /// Temporary ids in the order this input defines them (for deterministic trial ids).
    std::vector<std::uint32_t> order[3];
    QStringList warnings;
    std::map<QString, QString> unknownElements; // name -> where first seen
    std::size_t negativeValues = 0;
    QString firstNegative;
    std::size_t sameNameDefinitions[3] = { 0, 0, 0 };
    QStringList sameNameExamples;
};

} // namespace parallax::snapshot
