// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "perfdb/databaselocation.h"

#include "perfdb/database.h"
#include "perfdb/postgresdatabase.h"

#include <QDir>
#include <QStandardPaths>

namespace parallax {

QString defaultDatabasePath()
{
    QString base = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    if (base.isEmpty())
        base = QDir::homePath() + QStringLiteral("/.local/share");
    return base + QStringLiteral("/parallax/parallax.sqlite");
}

QString databaseLocation(const QString& option)
{
    if (!option.isEmpty())
        return option;
    if (qEnvironmentVariableIsSet("PARALLAX_DB"))
        return qEnvironmentVariable("PARALLAX_DB");
    return defaultDatabasePath();
}

QString displayableLocation(const QString& location)
{
    return perfdb::isPostgresLocation(location) ? perfdb::PostgresDatabase::withoutPassword(location) : location;
}

} // namespace parallax
