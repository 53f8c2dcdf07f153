// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// OTF2 traces (Score-P; docs/FORMATS.md, OTF2): the anchor file `*.otf2` or a directory holding
/// one. The global definitions are read once; then every location's events are replayed on a worker
/// (one OTF2 reader per worker) into a call-path profile: metric TIME (us), flat events and call paths
/// "a => b => c", MPI message sizes as atomic events "Message size sent to node N" / "Message size
/// received from node N". Format options "from=T" and "to=T" (seconds since the trace start, or
/// "Nticks") cut the profile of a window (docs/SEMANTICS.md 1.10).
class Otf2Reader : public Reader {
public:
    Otf2Reader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
};

} // namespace parallax
