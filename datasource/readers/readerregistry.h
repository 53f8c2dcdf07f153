// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

#include <memory>
#include <vector>

namespace parallax {

/// All readers Parallax knows. Adding a format is one reader file pair and one line in
/// ReaderRegistry::ReaderRegistry() (docs/HACKING.md §5.1).
class ReaderRegistry {
public:
    /// TAUdb data_source table id of a format TAUdb has no row for (docs/FORMATS.md §7.1).
    static constexpr int NoTaudbDataSource = 999;

    static const ReaderRegistry& instance();

    const Reader* find(const QString& name) const;
    /// The reader whose sniff() is most confident for the path, or nullptr.
    const Reader* detect(const QString& path) const;
    std::vector<const Reader*> readers() const;
    /// The TAUdb data_source table id (not the Java constant: docs/FORMATS.md §7.1) of the trials
    /// the named reader produces (case-insensitive; "cubex" is read as "cube"), or NoTaudbDataSource.
    int taudbDataSource(const QString& readerName) const;

    /// Reads a trial, with the named format or by detection. Errors name the path.
    TrialResult read(
        const QString& path, const ReadOptions& options, Progress& progress, const QString& format = {}) const;

private:
    ReaderRegistry();
    /// One registry line: the reader and its TAUdb data_source table id.
    void add(std::unique_ptr<Reader> reader, int taudbDataSource = NoTaudbDataSource);

    struct Entry {
        std::unique_ptr<Reader> reader;
        int taudbDataSource = NoTaudbDataSource;
    };
    std::vector<Entry> m_entries;
};

} // namespace parallax
