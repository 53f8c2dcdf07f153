// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/advisor.h"

#include <QStringList>

namespace parallax {

/// `parallax-cli advise PATH [--baseline PATH] [--rules FILE] [--tau-select OUT [--merge]]
/// [--scorep-filter OUT] [--json] [--min-calls N] [--max-us-per-call X] [--present-only]
/// [--exclude NAME]... [--call-overhead-us X] [--match POLICY]`: the instrumentation advisor
/// (docs/SEMANTICS.md 7); the exit code.
int runAdviseCommand(const QStringList& args);

/// Reads a rules file (a TAU selective-instrumentation file or a Score-P filter, told apart by
/// SCOREP_REGION_NAMES_BEGIN / SCOREP_FILE_NAMES_BEGIN) into the options for `trial`: a TAU exclude
/// list and the flat events a Score-P filter excludes become user exclusions; a TAU include list
/// becomes names to keep. False and *error when it does not parse.
bool applyRulesFile(const QString& text, const Trial& trial, AdvisorOptions& options, QString* error);

} // namespace parallax
