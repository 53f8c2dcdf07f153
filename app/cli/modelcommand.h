// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QStringList>

namespace parallax {

/// `parallax-cli model --extrap FILE [--json]` and `parallax-cli model --param threads|KEY RUNS...
/// [--event NAME]... [--metric M] [--exclusive] [--max] [--target P] [--median] [--json]`: Extra-P's
/// performance model of each call path (algebra/perfmodel.h, docs/SEMANTICS.md §10); the exit code.
int runModelCommand(const QStringList& args);

} // namespace parallax
