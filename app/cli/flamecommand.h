// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QStringList>

namespace parallax {

/// `parallax-cli flame PATH [B] [--metric M] [--thread N,C,T | --mean | --total | --min | --max]
/// [--folded | --json] [--match POLICY] [--merge-recursion] [--order value|name]`: the call tree as
/// folded stacks (flamegraph.pl's input; two runs: difffolded.pl's) or the laid-out frames as JSON
/// (algebra/flame.h); the exit code.
int runFlameCommand(const QStringList& args);

} // namespace parallax
