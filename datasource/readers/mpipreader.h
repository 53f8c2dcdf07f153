// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// mpiP text reports (docs/FORMATS.md 6.2; mpiP 3.x): one thread per MPI task, metric TIME (us), the
/// application event ".MpiP.Application", one call-path event per call site ("frame [{file} {line}]
/// => ... => MPI_Call"), flat MPI_* events, and per-call-site user events for call durations, sent
/// message sizes and I/O sizes. The mapping is described at the top of mpipreader.cpp.
class MpipReader : public Reader {
public:
    MpipReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
};

} // namespace parallax
