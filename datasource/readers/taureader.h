// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// TAU profile directories: profile.N.C.T files, or one MULTI__<metric> directory per metric
/// (docs/FORMATS.md 1). Files are parsed in parallel; names are interned once per trial.
class TauReader : public Reader {
public:
    TauReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
    /// One profile.N.C.T file read as a one-thread trial, as read() reads it with its directory (the
    /// trial named after the directory, event and user event ids in the file's order): the live
    /// directory re-reads only the files that changed and joins the threads (datasource/live/threadmerge.h).
    TrialResult readFile(const QString& file, const ReadOptions& options, Progress& progress) const;

    /// True for "profile.N.C.T" with non-negative integers; fills the key.
    static bool parseProfileFileName(const QString& fileName, ThreadKey& key);
    /// The metric name rules of docs/FORMATS.md 1.1 applied to line 1 of a file (no metadata).
    static QString metricNameFromHeader(const QString& firstLine);
};

} // namespace parallax
