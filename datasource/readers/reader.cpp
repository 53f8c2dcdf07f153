// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/reader.h"

#include "datasource/model/trialbuilder.h"

#include <QFileInfo>

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

bool parseThreadFileName(const QString& fileName, QLatin1StringView prefix, ThreadKey& key)
{
    if (!fileName.startsWith(prefix))
        return false;
    const QStringList parts = fileName.mid(prefix.size()).split(QLatin1Char('.'));
    if (parts.size() != 3)
        return false;
    int v[3];
    for (int i = 0; i < 3; ++i) {
        bool ok = false;
        if (parts[i].isEmpty() || !parts[i].at(0).isDigit())
            return false;
        v[i] = parts[i].toInt(&ok);
        if (!ok || v[i] < 0)
            return false;
    }
    key = ThreadKey { v[0], v[1], v[2] };
    return true;
}

TrialResult finishRead(const Reader& reader, const ReadJob& job, TrialBuilder& builder, const QStringList& warnings)
{
    for (const QString& w : warnings)
        builder.addWarning(w);
    Provenance provenance;
    provenance.operation = QStringLiteral("read");
    provenance.source = job.source.isEmpty() ? QFileInfo(job.path).absoluteFilePath() : job.source;
    provenance.reader = reader.name();
    provenance.options = job.options;
    builder.setProvenance(provenance);
    return builder.build();
}

} // namespace parallax
