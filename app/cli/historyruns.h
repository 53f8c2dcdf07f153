// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/history.h"
#include "perfdb/database.h"

#include <QString>
#include <atomic>
#include <vector>

namespace parallax {

/// A history of database trials and what the caller should tell the user about how it was made.
struct DatabaseHistory {
    HistoryResult result;
    /// Non-empty when the stored rows could not be used and every trial was loaded: why.
    QString warning;
};

/// The history of the database trials `trials` ordered by `key` (a metadata key, "upload" or "id";
/// docs/SEMANTICS.md §9), for `parallax-cli history --db` and the GUI's history window: from the
/// stored derived rows when they hold the statistic exactly (no trial is loaded; the runs' `trial`
/// is null), else (or with `loadTrials`) from every trial loaded. A run without the key is an
/// error naming it; `cancel` stops loading between trials (the result is then an error).
DatabaseHistory databaseHistory(perfdb::Database& db, const std::vector<perfdb::TrialInfo>& trials, const QString& key,
    HistoryOptions options, bool loadTrials, const std::atomic_bool* cancel = nullptr);

} // namespace parallax
