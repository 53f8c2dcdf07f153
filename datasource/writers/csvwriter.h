// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QString>

namespace parallax {

/// Writes a trial as one CSV table (RFC 4180, UTF-8) with a `kind` column: one `interval` row per
/// thread x event x metric, and rows for everything else a trial holds, so that CsvReader reads
/// back the same trial (the layout is documented at the top of csvwriter.cpp).
class CsvWriter {
public:
    /// Returns an empty string on success, else what went wrong (naming the file). The file is
    /// written under a temporary name and renamed, so a failure leaves no partial file.
    static QString write(const Trial& trial, const QString& file);
};

} // namespace parallax
