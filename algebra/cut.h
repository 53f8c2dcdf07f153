// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/operations.h"

#include <QString>
#include <QStringList>

namespace parallax {

/// CubeLib's cube_cut (docs/SEMANTICS.md 4.9) on the call tree of `trial` (algebra/calltree.h).
/// `root` (empty: none): the result's call tree is the subtree of the call-tree nodes named `root` (a
/// whole call path "a => b", else every node whose last component is `root`, their subtrees summed
/// path by path), re-rooted so that its paths start at root's leaf. `prune` (each a call path or a
/// leaf name): the subtrees of those nodes are removed and each removed inclusive value is added to
/// the parent's exclusive value (the parent's inclusive value, calls stay; its subrs lose the
/// removed calls). The result's flat events are rebuilt from its call tree (docs/SEMANTICS.md 1.4);
/// user events and metadata are kept. Provenance "cut", options "root=..." and "prune=...".
AlgebraResult cutCallTree(
    const Trial& trial, const QString& root, const QStringList& prune, const AlgebraOptions& options = {});

/// CubeLib's cube_part: the trial restricted to a set of threads (docs/SEMANTICS.md 4.9), all else
/// kept. `threads` "0-15,32" by thread index, `nodes` the same by node number, `where` "KEY=VALUE"
/// on per-thread (else trial-wide) metadata; the given criteria must all hold. Provenance "select".
AlgebraResult selectThreads(const Trial& trial, const QString& threads, const QString& nodes, const QString& where,
    const AlgebraOptions& options = {});

/// Parses "0-15,32" (whole numbers >= 0 and ascending ranges); std::nullopt and `error` when malformed.
std::optional<std::vector<std::pair<qint64, qint64>>> parseRanges(const QString& spec, QString* error);

} // namespace parallax
