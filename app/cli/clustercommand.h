// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QStringList>

namespace parallax {

/// `parallax-cli cluster PATH [--k K | --k-range A-B] [--metric M]... [--normalise raw|share|zscore]
/// [--method kmeans|ward] [--callpaths] [--pca] [--matrix FILE] [--json]`: the threads of a trial
/// clustered by their per-event profile (algebra/cluster.h, docs/SEMANTICS.md §11); the exit code.
int runClusterCommand(const QStringList& args);

/// `parallax-cli correlate PATH [--metric M] [--callpaths] [--top N] [--json]`: Pearson and Spearman
/// correlations across threads between events and with the thread's total; the exit code.
int runCorrelateCommand(const QStringList& args);

} // namespace parallax
