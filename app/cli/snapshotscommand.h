// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QStringList>

namespace parallax {

/// `parallax-cli snapshots PATH [--event NAME] [--metric M] [--thread N,C,T | --mean] [--top N]
/// [--json]`: the per-interval table of a trial with snapshots (algebra/snapshotseries.h,
/// docs/SEMANTICS.md 1.11); the exit code.
int runSnapshotsCommand(const QStringList& args);

} // namespace parallax
