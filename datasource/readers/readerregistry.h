// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

#include <memory>
#include <vector>

namespace parallax {

/// All readers Parallax knows. Adding a format is one reader file and one line in
/// ReaderRegistry::ReaderRegistry().
class ReaderRegistry {
public:
    static const ReaderRegistry& instance();

    const Reader* find(const QString& name) const;
    /// The reader whose sniff() is most confident for the path, or nullptr.
    const Reader* detect(const QString& path) const;
    std::vector<const Reader*> readers() const;

    /// Reads a trial, with the named format or by detection. Errors name the path.
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress,
        const QString& format = {}) const;

private:
    ReaderRegistry();
    std::vector<std::unique_ptr<Reader>> m_readers;
};

} // namespace parallax
