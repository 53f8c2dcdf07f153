// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// pycubexr's CSV dumps of a CUBE file (cube/pycubexr/*/incl.csv and excl.csv of the sample data): a
// header "Cnode ID, Thread ID,visits,time,..." and one line per (cnode, thread) with every metric's
// inclusive or exclusive value. The oracle of the CUBE browser's values: numbers nobody here wrote.

#include <QFile>
#include <QString>
#include <QStringList>
#include <climits>
#include <map>
#include <utility>
#include <vector>

namespace parallax::test {

/// One column of a dump: (cnode, thread) -> value. Empty when the file cannot be read or has no such
/// column.
inline std::map<std::pair<int, int>, double> pycubexrColumn(
    const QString& path, const QString& column = QStringLiteral("time"))
{
    std::map<std::pair<int, int>, double> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    const QStringList header = QString::fromUtf8(f.readLine()).trimmed().split(QLatin1Char(','));
    qsizetype col = -1;
    for (qsizetype i = 0; i < header.size(); ++i)
        if (header[i].trimmed() == column)
            col = i;
    while (!f.atEnd()) {
        const QStringList cells = QString::fromUtf8(f.readLine()).trimmed().split(QLatin1Char(','));
        if (cells.size() <= col || col < 0)
            continue;
        out[{ cells[0].toInt(), cells[1].toInt() }] = cells[col].toDouble();
    }
    return out;
}

/// One cnode's values of a column, by thread id (its locations in order).
inline std::vector<double> pycubexrCnode(const QString& path, int cnode, const QString& column = QStringLiteral("time"))
{
    const auto all = pycubexrColumn(path, column);
    std::vector<double> out;
    for (auto it = all.lower_bound({ cnode, INT_MIN }); it != all.end() && it->first.first == cnode; ++it)
        out.push_back(it->second);
    return out;
}

} // namespace parallax::test
