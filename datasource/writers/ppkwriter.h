// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QString>

namespace parallax {

/// Writes a trial as a ParaProf packed profile (docs/FORMATS.md 3): version 2, compatible version 1,
/// gzip'd. The trial-wide metadata is the trial map and each thread keeps its own entries (the
/// split of docs/FORMATS.md 1.3 that the model already holds); threads with negative ids (ParaProf's
/// derived threads) are not written. Reading the file back gives the same trial, with two limits of
/// the format: there is no SumExclSqr column, and a user event's sample count is an i32.
class PpkWriter {
public:
    /// Returns an empty string on success, else what went wrong (naming the file). The file is
    /// written under a temporary name and renamed, so a failure leaves no partial file.
    static QString write(const Trial& trial, const QString& file);
};

} // namespace parallax
