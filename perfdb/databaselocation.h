// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>

namespace parallax {

/// Where the embedded SQLite experiment database lives by default:
/// $XDG_DATA_HOME/parallax/parallax.sqlite (usually ~/.local/share/parallax/parallax.sqlite).
QString defaultDatabasePath();
/// The database a program uses: `option` (parallax-cli --db, parallax.db.connect(location)) when not
/// empty, else $PARALLAX_DB, else defaultDatabasePath().
QString databaseLocation(const QString& option);

/// A database location fit to show, log or store in settings: a PostgreSQL connection string
/// (URI or keyword/value) without its password, as libpq parses it; anything else (a SQLite
/// path) unchanged. The password then comes from PGPASSWORD or ~/.pgpass, never from Parallax.
QString displayableLocation(const QString& location);

} // namespace parallax
