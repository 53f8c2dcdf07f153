// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QString>

namespace parallax {

/// Writes a trial as a TAU profile directory: profile.N.C.T files for one metric, one
/// MULTI__<metric> directory per metric otherwise. Reading the result gives the same trial.
class TauWriter {
public:
    /// Returns an empty string on success, else what went wrong (naming the file).
    static QString write(const Trial& trial, const QString& directory);

    /// The MULTI__ directory name for a metric: `/ \ ? % * : | " < > =` and space become '_'.
    static QString multiDirectoryName(const QString& metric);
};

} // namespace parallax
