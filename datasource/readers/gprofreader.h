// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// gprof text output (docs/FORMATS.md 6.1): GNU, AIX and BSD layouts, flat profile and/or call graph,
/// several reports in one file. Read line by line (plain or gzip). Each report becomes one thread
/// (report k -> k,0,0) with metric TIME in microseconds; functions become flat events, call-graph
/// arcs "caller => callee" call-path events. The mapping (and how cycles are represented) is
/// described at the top of gprofreader.cpp. Format option "fixnames" removes AIX/Fortran name
/// decorations (a leading "." or ".*", a trailing "_").
class GprofReader : public Reader {
public:
    GprofReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
};

} // namespace parallax
