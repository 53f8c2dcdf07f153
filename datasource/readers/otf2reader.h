// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/progress.h"
#include "datasource/readers/reader.h"

#include <QString>
#include <map>
#include <vector>

namespace parallax {

/// OTF2 traces (Score-P; docs/FORMATS.md, OTF2): the anchor file `*.otf2` or a directory holding
/// one. The global definitions are read once; then every location's events are replayed on a worker
/// (one OTF2 reader per worker) into a call-path profile: metric TIME (us), flat events and call paths
/// "a => b => c", MPI message sizes as atomic events "Message size sent to node N" / "Message size
/// received from node N", MPI collectives as TAU's "Message size for broadcast" etc. Format options
/// "from=T" and "to=T" (seconds since the trace start, or "Nticks") cut the profile of a window
/// (docs/SEMANTICS.md 1.10).
class Otf2Reader : public Reader {
public:
    Otf2Reader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
};

/// A coarse picture of a trace, to choose a window on (issue 19 §3, docs/SEMANTICS.md 1.10): the
/// trace's length cut into `bins` equal bins; per location (in the reader's thread order) and bin the
/// region that spent the most exclusive time in the bin (on top of the location's stack).
struct Otf2Timeline {
    QString anchor;
    double seconds = 0; ///< the trace's length (its clock properties)
    std::vector<QString> locations; ///< the locations' names
    std::vector<QString> regions; ///< the regions that dominate some bin or have time, by index
    std::size_t bins = 0;
    /// [location * bins + bin]: the index of the region with the most time in the bin; -1 when the
    /// location had no region open in it. Ties go to the lower index.
    std::vector<int> dominant;
    /// Per location, each region's exclusive seconds (the sum over the bins).
    std::vector<std::map<int, double>> exclusiveSeconds;
};

/// Replays the trace (every location on the worker threads, as the reader does) into a time line of
/// `bins` bins (1 to 100,000). A trace without clock properties has no length: an error.
Result<Otf2Timeline> readOtf2Timeline(const QString& path, std::size_t bins, Progress& progress);

} // namespace parallax
