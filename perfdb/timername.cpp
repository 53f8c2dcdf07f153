// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "perfdb/timername.h"

#include <QRegularExpression>

namespace parallax::perfdb {

namespace {

int number(const QString& text)
{
    bool ok = false;
    const int value = text.toInt(&ok);
    return ok ? value : 0;
}

} // namespace

TimerName::TimerName(const QString& name)
{
    // [{file} {l1,c1}-{l2,c2}], [{file} {line}], [{file} {line,col}] and [{file}]
    static const QRegularExpression location(QStringLiteral(
        R"(\[\{([^}]*)\}\s*(?:\{\s*(\d+)\s*(?:,\s*(\d+)\s*)?\}(?:\s*-\s*\{\s*(\d+)\s*(?:,\s*(\d+)\s*)?\})?)?\s*\])"));
    // [ <p1> = <v1>, <p2> = <v2> ]
    static const QRegularExpression parameterBlock(QStringLiteral(R"(\[\s*(<[^\]]*>)\s*\])"));
    static const QRegularExpression parameter(QStringLiteral(R"(<([^<>]*)>\s*=\s*<([^<>]*)>)"));

    qsizetype cut = name.size();
    const QRegularExpressionMatch where = location.match(name);
    if (where.hasMatch()) {
        cut = where.capturedStart();
        m_sourceFile = where.captured(1);
        m_line = number(where.captured(2));
        m_column = number(where.captured(3));
        m_lineEnd = number(where.captured(4));
        m_columnEnd = number(where.captured(5));
    }
    const QRegularExpressionMatch block = parameterBlock.match(name);
    if (block.hasMatch()) {
        cut = std::min(cut, block.capturedStart());
        auto it = parameter.globalMatch(block.captured(1));
        while (it.hasNext()) {
            const QRegularExpressionMatch p = it.next();
            m_parameters.emplace_back(p.captured(1).trimmed(), p.captured(2).trimmed());
        }
    }
    m_shortName = name.left(cut).trimmed();
    if (m_shortName.isEmpty())
        m_shortName = name;
}

} // namespace parallax::perfdb
