// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "perfdb/database.h"

#include "perfdb/databaselocation.h"
#include "perfdb/dbexception.h"
#include "perfdb/postgresdatabase.h"
#include "perfdb/sqlitedatabase.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace parallax::perfdb {

bool isPostgresLocation(const QString& location)
{
    const QString text = location.trimmed();
    if (text.startsWith(QLatin1String("postgresql://")) || text.startsWith(QLatin1String("postgres://")))
        return true;
    // libpq keyword strings start with "keyword=" (a file path starts with / . ~ or a name
    // without "=" before its first separator).
    static const QRegularExpression keyword(QStringLiteral(R"(^[A-Za-z_]+\s*=)"));
    return keyword.match(text).hasMatch();
}

DbResult<std::unique_ptr<Database>> Database::open(const QString& location)
{
    QString where = location.trimmed();
    try {
        if (isPostgresLocation(where))
            return std::unique_ptr<Database>(PostgresDatabase::open(where));
        if (where.startsWith(QLatin1String("sqlite:"))) {
            where = where.mid(7);
            if (where.startsWith(QLatin1String("//")))
                where = where.mid(2);
        }
        if (where.isEmpty())
            where = defaultDatabasePath();
        const QFileInfo file(where);
        if (!QDir().mkpath(file.absolutePath()))
            return DbError { where, QStringLiteral("cannot create the folder %1").arg(file.absolutePath()) };
        return std::unique_ptr<Database>(SqliteDatabase::open(where));
    } catch (const DbException& e) {
        return DbError { isPostgresLocation(where) ? PostgresDatabase::withoutPassword(where) : where, e.message() };
    }
}

} // namespace parallax::perfdb
