// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// timemory's hierarchical JSON output (*.tree.json, top-level key "timemory"): one metric per
/// component (WALL_CLOCK, ...), each with per-rank "mpi" arrays of call trees whose node records
/// carry inclusive and exclusive statistics. Parsed whole with QJsonDocument (see JsonInput for the
/// size limit). The mapping is described at the top of timemoryreader.cpp.
class TimemoryReader : public Reader {
public:
    TimemoryReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
};

} // namespace parallax
