// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QString>
#include <functional>

namespace parallax {

/// Writes a trial as a TAU profile directory: profile.N.C.T files for one metric, one
/// MULTI__<metric> directory per metric otherwise. Reading the result gives the same trial.
class TauWriter {
public:
    /// Returns an empty string on success, else what went wrong (naming the file).
    static QString write(const Trial& trial, const QString& directory);

    /// Writes one file per thread, PREFIX.N.C.T in `directory`, in parallel (the files are
    /// independent): `write(thread, path)` returns an empty string or the error; the first error is
    /// returned. The TAU profile and snapshot writers' loop.
    static QString writeThreadFiles(const Trial& trial, const QString& directory, const QString& prefix,
        const std::function<QString(ThreadIndex, const QString&)>& write);

    /// The MULTI__ directory name for a metric: `/ \ ? % * : | " < > =` and space become '_'.
    static QString multiDirectoryName(const QString& metric);
};

} // namespace parallax
