// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

namespace parallax {

/// `parallax-cli diff|ratio|merge|mean|min|max|stddev|derive ...`: the algebra of runs
/// (docs/SEMANTICS.md 4) on trials read from files or from the database (`db:ID`), written to any
/// writable format or stored in the database (`-o db:`). One parser per command (`diff --help`).
/// Returns the exit code of cli::Exit (0 ok, 1 failure, 2 usage).
int runAlgebraCommand(const QString& command, const QStringList& args);

/// True for the command names runAlgebraCommand() takes.
bool isAlgebraCommand(const QString& command);

/// `parallax-cli cut PATH --root NAME|--prune NAME` and `select PATH --threads SPEC|--nodes SPEC|--where
/// KEY=VALUE` (algebra/cut.h), with -o, --to, --db and --json like the other algebra commands.
int runCutSelectCommand(const QString& command, const QStringList& args);

/// `parallax-cli convert IN OUT [--to FORMAT] [--format NAME] [--db LOCATION]`; the exit code.
int runConvert(const QStringList& args);

/// A trial from a path in any readable format (`format` forces a reader) or from the database
/// (`db:ID`, in `db` or $PARALLAX_DB or the default database); nullptr and `error` on failure.
std::shared_ptr<const Trial> loadTrialOperand(
    const QString& spec, const QString& db, const QString& format, QString* error);

/// Writes a derived trial where `-o OUT` asks, as the algebra commands do: a file or directory
/// (format from its name, or `to`), or `db:` to store it in `db` (application and experiment:
/// the trial's Application, else Parallax / Comparisons). Prints where it went (to stderr when
/// `json`, so standard output holds the JSON only); the exit code.
int writeDerivedTrial(const Trial& result, const QString& out, const QString& to, const QString& db, bool json);

/// A run's value of a parameter (`model --param`, `correlate --param`): its thread count for
/// "threads", else the number its metadata `key` holds. nullopt and `error` (naming `label`) when it
/// has no such key or the value is not a number.
std::optional<double> runParameter(const Trial& trial, const QString& key, const QString& label, QString* error);

} // namespace parallax
