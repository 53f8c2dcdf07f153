// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>
#include <utility>
#include <vector>

namespace parallax::perfdb {

/// What TAUdb's timer row keeps of a flat event name (docs/FORMATS.md 1.6, 7.4): the short name (the
/// text before a `[{file} ...]` location or a `[ <p> = <v> ]` parameter block), the source file and
/// its line/column range (missing numbers are 0), and the parameters.
class TimerName {
public:
    explicit TimerName(const QString& name);

    const QString& shortName() const { return m_shortName; }
    bool hasSourceFile() const { return !m_sourceFile.isNull(); }
    const QString& sourceFile() const { return m_sourceFile; }
    int line() const { return m_line; }
    int lineEnd() const { return m_lineEnd; }
    int column() const { return m_column; }
    int columnEnd() const { return m_columnEnd; }
    const std::vector<std::pair<QString, QString>>& parameters() const { return m_parameters; }

private:
    QString m_shortName;
    QString m_sourceFile;
    int m_line = 0;
    int m_lineEnd = 0;
    int m_column = 0;
    int m_columnEnd = 0;
    std::vector<std::pair<QString, QString>> m_parameters;
};

} // namespace parallax::perfdb
