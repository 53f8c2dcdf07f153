// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/progress.h"
#include "datasource/readers/snapshotdata.h"

#include <QString>

namespace parallax::snapshot {

/// Parses one input (a snapshot.N.C.T file or a merged tauprofile.xml[.gz]) into `result`: its
/// <profile_xml> fragments (docs/FORMATS.md 4.1-4.3) streamed through a SnapshotStream, names interned in
/// `names` (shared by all inputs of the trial; several inputs may be parsed at once). A failure sets
/// result.failed and result.error (file, line, byte offset); problems that do not stop the read are
/// result.warnings.
void parseInput(const QString& path, Names& names, Progress& progress, InputResult& result);

} // namespace parallax::snapshot
