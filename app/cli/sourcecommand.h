// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QStringList>

namespace parallax {

/// `parallax-cli source PATH (--file F | --event E | --list) [--root DIR]... [--remap FROM=TO]...
/// [--metric M] [--statistic S] [--annotate] [--json]`: the events located in a source file with
/// their exclusive and inclusive values per line (docs/SEMANTICS.md §12); the exit code.
int runSourceCommand(const QStringList& args);

} // namespace parallax
