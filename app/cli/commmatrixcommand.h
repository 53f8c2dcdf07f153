// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QStringList>

namespace parallax {

/// `parallax-cli commmatrix PATH [--quantity bytes|messages|mean] [--context C] [--received]
/// [--csv | --json]`: the sender × receiver communication matrix (docs/SEMANTICS.md 13); the exit
/// code (1 for a trial without point-to-point message events).
int runCommMatrixCommand(const QStringList& args);

} // namespace parallax
