// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QString>

namespace parallax {

/// Writes a trial as a CUBE 4 `.cubex` (docs/FORMATS.md 5.4): an uncompressed tar, written with
/// libarchive through QSaveFile, holding anchor.xml (metric tree, regions, call tree, system tree)
/// and one SPARSE <id>.index / <id>.data pair per metric with values. Reading the file back with
/// the CUBE reader gives the same call-path cells; what is rebuilt or lost is listed in §5.4.
class CubeWriter {
public:
    /// Returns an empty string on success, else what went wrong (naming the file).
    static QString write(const Trial& trial, const QString& path);

    /// The uniq_name suffix of the metric that carries a metric's other value (exclusive for an
    /// INCLUSIVE metric, inclusive for an EXCLUSIVE one) when the call tree does not give it exactly
    /// (TAU data, algebra results). The CUBE reader folds such a metric back into its base metric.
    static constexpr const char* OtherValueSuffix = ":parallax-other";
};

} // namespace parallax
