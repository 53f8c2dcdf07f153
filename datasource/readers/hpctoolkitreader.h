// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// HPCToolkit experiment databases as written by hpcprof-mpi (docs/FORMATS.md 6.4): a directory with
/// experiment.xml (metric, load-module, file and procedure tables and the calling-context tree)
/// and one binary *.metric-db per rank and thread. experiment.xml is parsed incrementally with
/// QXmlStreamReader; each metric-db is read and decoded on its own. Ranks become threads
/// (rank, 0, thread); procedure frames, statements and loops become call-path events (call sites
/// are folded into their callee, as Hatchet does). The conventions are described at the top of
/// hpctoolkitreader.cpp.
class HpcToolkitReader : public Reader {
public:
    HpcToolkitReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
};

} // namespace parallax
