// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "perfdb/database.h"
#include "perfdb/databaselocation.h"

#include <QStringList>

namespace parallax {

/// `parallax-cli db ...`: init, load, list, rename, delete, meta, export, views, model (SEAA semantic
/// models: save, list, show, attach, detach, delete) and semantic (a stored trial's semantic profile).
/// One parser per command (`db load --help`). Returns the exit code of cli::Exit (0 ok, 1 failure,
/// 2 usage).
int runDbCommand(const QStringList& args);

/// Opens a database and loads trial `id` (for `pprof --db` and `info --db`).
perfdb::DbResult<std::shared_ptr<Trial>> loadTrialFromDatabase(const QString& location, qint64 id);

} // namespace parallax
