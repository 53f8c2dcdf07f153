// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/sourcelocation.h"

namespace parallax {

class Trial;

// The source browser's search roots and path remappings, remembered per trial in the settings
// (group "sourceBrowser/<SHA-1 of the trial's source path>": "trial", "roots", "remaps" as
// FROM=TO), plus the directories `parallax --source-root DIR` gives for the session.

/// The roots (the session's first) and remappings for a trial.
SourceSearch loadSourceSearch(const Trial& trial);
/// Remembers a trial's roots and remappings (the session's roots are not stored).
void saveSourceSearch(const Trial& trial, const SourceSearch& search);
/// Directories searched for every trial of this session (--source-root).
void addSessionSourceRoots(const QStringList& roots);

} // namespace parallax
