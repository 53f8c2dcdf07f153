// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QStringList>

namespace parallax {

/// `parallax-cli history [--db LOC] (--app A [--exp E] | --where KEY=VALUE... | PATHS...)
/// --order-by KEY [--event NAME]... [--metric M] [--top N] [--fail-above PCT] [--json]`: the
/// performance history of a set of runs and its change points (algebra/history.h); exit code 3
/// when --fail-above finds the newest run regressed.
int runHistoryCommand(const QStringList& args);

} // namespace parallax
