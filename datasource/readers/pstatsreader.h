// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// Python profiles as cProfile / profile / pstats dump them (`marshal` of the stats dict, Python 2
/// and 3): one thread, metric TIME (us), one flat event per function ("func [{file} {line}]") and
/// one call-path event "caller => callee" per caller edge. The marshal decoder and the mapping are
/// described at the top of pstatsreader.cpp.
class PstatsReader : public Reader {
public:
    PstatsReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
};

} // namespace parallax
