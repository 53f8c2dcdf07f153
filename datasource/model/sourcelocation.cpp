// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/model/sourcelocation.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace parallax {

namespace {

/// "5,1" → (5, 1); "86" → (86, 0); false when it is not one or two whole numbers.
bool parseLineColumn(QStringView text, int& line, int& column)
{
    const qsizetype comma = text.indexOf(QLatin1Char(','));
    bool ok = false;
    line = (comma < 0 ? text : text.left(comma)).trimmed().toInt(&ok);
    if (!ok || line < 0)
        return false;
    column = 0;
    if (comma >= 0) {
        column = text.mid(comma + 1).trimmed().toInt(&ok);
        if (!ok || column < 0)
            return false;
    }
    return true;
}

/// TAU's `[{file} {l,c}-{l,c}]` and its shorter forms, the last one in the component.
std::optional<SourceLocation> parseTauLocation(QStringView leaf)
{
    const qsizetype open = leaf.lastIndexOf(QLatin1String("[{"));
    if (open < 0)
        return std::nullopt;
    const qsizetype fileEnd = leaf.indexOf(QLatin1Char('}'), open + 2);
    if (fileEnd < 0)
        return std::nullopt;
    const qsizetype close = leaf.indexOf(QLatin1Char(']'), fileEnd);
    if (close < 0)
        return std::nullopt;
    SourceLocation loc;
    loc.file = leaf.mid(open + 2, fileEnd - open - 2).trimmed().toString();
    if (loc.file.isEmpty())
        return std::nullopt;
    // The rest: "", " {86}", " {5,1}-{11,1}", " {5}-{11}".
    const QStringView rest = leaf.mid(fileEnd + 1, close - fileEnd - 1).trimmed();
    if (rest.isEmpty())
        return loc;
    const qsizetype firstEnd = rest.indexOf(QLatin1Char('}'));
    if (!rest.startsWith(QLatin1Char('{')) || firstEnd < 0
        || !parseLineColumn(rest.mid(1, firstEnd - 1), loc.beginLine, loc.beginColumn))
        return loc; // a file without readable lines is still a file
    loc.endLine = loc.beginLine;
    const QStringView tail = rest.mid(firstEnd + 1).trimmed();
    if (tail.startsWith(QLatin1String("-{")) && tail.endsWith(QLatin1Char('}'))) {
        int line = 0;
        int column = 0;
        if (parseLineColumn(tail.mid(2, tail.size() - 3), line, column) && line >= loc.beginLine) {
            loc.endLine = line;
            loc.endColumn = column;
        }
    }
    return loc;
}

} // namespace

std::optional<SourceLocation> parseSourceLocation(QStringView eventName)
{
    const qsizetype arrow = eventName.lastIndexOf(QLatin1String("=>"));
    const QStringView leaf = (arrow < 0 ? eventName : eventName.mid(arrow + 2)).trimmed();
    if (!leaf.contains(QLatin1Char('[')) && !leaf.contains(QLatin1Char(':')))
        return std::nullopt; // the common case, without the regular expression
    if (auto loc = parseTauLocation(leaf))
        return loc;
    // HPCToolkit's statements and loops (datasource/readers/hpctoolkitreader.cpp).
    static const QRegularExpression hpctoolkit(QStringLiteral(R"(^(?:Loop@)?([^\s:()\[\]]+\.\w+):(\d+)$)"));
    const auto m = hpctoolkit.match(leaf.toString());
    if (!m.hasMatch())
        return std::nullopt;
    SourceLocation loc;
    loc.file = m.captured(1);
    loc.beginLine = loc.endLine = m.capturedView(2).toInt();
    return loc;
}

SourceFileLookup findSourceFile(const QString& recorded, const SourceSearch& search)
{
    SourceFileLookup result;
    const QString name = QDir::fromNativeSeparators(recorded.trimmed());
    if (name.isEmpty())
        return result;
    auto tryPath = [&result](const QString& path) {
        const QString clean = QDir::cleanPath(path);
        if (result.tried.contains(clean))
            return false;
        result.tried << clean;
        if (QFileInfo(clean).isFile()) {
            result.path = clean;
            return true;
        }
        return false;
    };
    const bool absolute = QDir::isAbsolutePath(name);
    if (absolute && tryPath(name))
        return result;
    for (const auto& [from, to] : search.remaps) {
        const QString prefix = QDir::cleanPath(QDir::fromNativeSeparators(from));
        if (prefix.isEmpty() || !name.startsWith(prefix))
            continue;
        const QString rest = name.mid(prefix.size());
        if (!rest.isEmpty() && !rest.startsWith(QLatin1Char('/')) && !prefix.endsWith(QLatin1Char('/')))
            continue; // "/src" does not remap "/src2/a.c"
        QString local = QDir::fromNativeSeparators(to);
        if (local.startsWith(QLatin1Char('~')))
            local = QDir::homePath() + local.mid(1);
        if (tryPath(local + QLatin1Char('/') + rest))
            return result;
    }
    const QStringList parts = name.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (const QString& root : search.roots) {
        if (root.isEmpty())
            continue;
        const QDir dir(root);
        if (!absolute && tryPath(dir.filePath(name)))
            return result;
        for (qsizetype i = 0; i < parts.size(); ++i)
            if (tryPath(dir.filePath(parts.mid(i).join(QLatin1Char('/')))))
                return result;
    }
    return result;
}

QString trialSourceRoot(const QString& trialSource)
{
    const QFileInfo info(trialSource);
    if (info.isDir())
        return info.absoluteFilePath();
    if (info.isFile())
        return info.absolutePath();
    return {};
}

std::optional<std::pair<QString, QString>> parseRemap(const QString& rule)
{
    const qsizetype eq = rule.indexOf(QLatin1Char('='));
    if (eq <= 0 || eq == rule.size() - 1)
        return std::nullopt;
    return std::pair { rule.left(eq).trimmed(), rule.mid(eq + 1).trimmed() };
}

bool sameSourceFile(const QString& a, const QString& b)
{
    const QString x = QDir::fromNativeSeparators(a);
    const QString y = QDir::fromNativeSeparators(b);
    if (x == y)
        return true;
    const QString& longer = x.size() > y.size() ? x : y;
    const QString& shorter = x.size() > y.size() ? y : x;
    return !shorter.isEmpty() && longer.endsWith(shorter)
        && longer.at(longer.size() - shorter.size() - 1) == QLatin1Char('/');
}

} // namespace parallax
