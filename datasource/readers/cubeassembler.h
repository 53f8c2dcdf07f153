// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// Building the Trial from a parsed CUBE document (docs/FORMATS.md 5, docs/SEMANTICS.md 1.3, 1.4):
// metrics, threads from the system tree, call-path and flat events from the call tree, the rows of
// present cells and the metadata. The mapping is described at the top of cubeassembler.cpp.

#include "datasource/readers/cubedocument.h"

namespace parallax {
class TrialBuilder;
}

namespace parallax::cube {

/// Fills `builder` from `doc` (whose metrics are classified and whose values are read); warnings go
/// to `warnings`. Throws ParseError when the trial would exceed the reader's limits, Cancelled.
void assembleTrial(
    CubeDocument& doc, TrialBuilder& builder, QStringList& warnings, Progress& progress, const ReadOptions& options);

} // namespace parallax::cube
