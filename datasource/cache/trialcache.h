// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// A binary cache of read trials for fast reopen (docs/FORMATS.md §13).
#pragma once

#include "datasource/model/trial.h"

#include <QByteArray>
#include <QIODevice>
#include <QString>
#include <memory>

namespace parallax {

/// Serialises a Trial to the cache file format and back, and keeps the cache directory.
class TrialCache {
public:
    /// $PARALLAX_CACHE_DIR, else $XDG_CACHE_HOME/parallax, else ~/.cache/parallax.
    static QString directory();
    /// False when PARALLAX_NO_CACHE is set to a non-empty value other than "0".
    static bool enabledByEnvironment();

    /// The key of a source: canonical path, reader, options, size and mtime of every file.
    /// `totalBytes` receives the sources' total size.
    static QByteArray sourceKey(
        const QString& path, const QString& reader, const QString& options, qint64* totalBytes = nullptr);

    /// The whole file: header and payload.
    static QByteArray serialize(const Trial& trial, const QByteArray& key);
    /// Writes the entry to `device` as it goes (seekable: the header is written last); throws WriteFailure.
    static void writeEntry(const Trial& trial, const QByteArray& key, QIODevice& device);
    /// The trial in `data` if it is a valid cache file for `key`; else nullptr and `error` says why.
    /// The trial's rows live in a copy of `data` (load() instead reads them in the mapped file).
    static std::shared_ptr<Trial> deserialize(const QByteArray& data, const QByteArray& key, QString* error);
    /// The checksum the header records for a payload (XXH3-64 of the XXH3-64 of each 16 MiB block).
    static quint64 checksum(const char* payload, qint64 size);

    /// Loads the cached trial of `key`, or nullptr. A damaged entry is removed with a warning on
    /// stderr, and `discarded` (when given) receives a sentence saying so.
    static std::shared_ptr<Trial> load(const QByteArray& key, QString* discarded = nullptr);
    /// Adds a warning to a trial (used for the sentence of load() on a freshly parsed trial).
    static void addWarning(Trial& trial, const QString& warning);
    /// Writes the entry atomically and evicts the oldest entries over PARALLAX_CACHE_MAX_BYTES.
    static void store(const Trial& trial, const QByteArray& key);
    /// store() on a thread of its own at the lowest CPU priority, which keeps the trial alive until
    /// it is written. The trial must not be modified meanwhile.
    static void storeInBackground(std::shared_ptr<const Trial> trial, const QByteArray& key);
    /// Blocks until every storeInBackground() has finished (also run by an exit handler).
    static void waitForPendingStores();
    /// Sources smaller than this are not cached (PARALLAX_CACHE_MIN_BYTES; default 32 MiB).
    static qint64 minimumSourceBytes();
    /// The file of an entry.
    static QString entryPath(const QByteArray& key);

private:
    /// Decodes the file at `data` (8-byte aligned), whose memory `owner` keeps alive; the trial's
    /// rows point into it. `mapped`: a read-only file mapping whose pages may be given back.
    static std::shared_ptr<Trial> decode(const char* data, qint64 size, const std::shared_ptr<const void>& owner,
        const QByteArray& key, QString* error, bool mapped);
    /// Hands the rows found in a cache file to the trial: the only place that touches its row store.
    static void adoptRows(Trial& trial, const std::shared_ptr<const void>& owner, std::size_t bytes,
        const std::vector<RowStore::Slot>& rowSlots);
};

} // namespace parallax
