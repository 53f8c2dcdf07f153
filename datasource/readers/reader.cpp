// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/reader.h"

namespace parallax {

QString ReadError::toString() const
{
    QString where = file;
    if (line > 0)
        where += QLatin1Char(':') + QString::number(line);
    else if (byteOffset >= 0)
        where += QStringLiteral(" (byte %1)").arg(byteOffset);
    if (where.isEmpty())
        return message;
    return where + QStringLiteral(": ") + message;
}

} // namespace parallax
