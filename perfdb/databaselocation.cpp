#include "perfdb/databaselocation.h"

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

} // namespace parallax
