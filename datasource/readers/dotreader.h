// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// Graphviz DOT call graphs written by gprof2dot (the format Hatchet's "gprof" reader reads): node
/// labels "[module\n]name\ntotal%\n(self%)\ncalls×", edge labels "total%\ncalls×". One thread
/// (0,0,0), metric "TIME (% of total)" in percent; nodes become flat events, edges call-path events
/// "caller => callee". The DOT parser takes the whole standard syntax (quoted strings, HTML strings,
/// subgraphs, attribute lists, comments); the mapping is described at the top of dotreader.cpp.
class DotReader : public Reader {
public:
    DotReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
};

} // namespace parallax
