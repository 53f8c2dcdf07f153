// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QStringList>

namespace parallax {

/// `parallax-cli browse PATH [--metric M] [--call NAME] [--threads SPEC] [--expand none|all|DEPTH]
/// [--mode MODE] [--external OTHER] [--order metric,call,system] [--flat] [--json]`: the three
/// panes of the CUBE browser (docs/SEMANTICS.md §6) for one selection; the exit code.
int runBrowseCommand(const QStringList& args);

} // namespace parallax
