// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/instrumentationfiles.h"

#include <algorithm>
#include <set>
#include <string>

namespace parallax {

namespace {

/// Deduplicated, sorted bytewise by UTF-8 (docs/SEMANTICS.md 7.2).
QStringList sortedUnique(const QStringList& names)
{
    std::set<std::string> bytes;
    for (const QString& n : names) {
        const QString t = n.trimmed();
        if (!t.isEmpty())
            bytes.insert(t.toStdString());
    }
    QStringList out;
    out.reserve(static_cast<qsizetype>(bytes.size()));
    for (const std::string& s : bytes)
        out.append(QString::fromStdString(s));
    return out;
}

void appendList(QString& out, const char* begin, const char* end, const QStringList& names)
{
    if (names.isEmpty())
        return;
    out += QLatin1Char('\n') + QLatin1String(begin) + QLatin1Char('\n');
    for (const QString& n : sortedUnique(names))
        out += n + QLatin1Char('\n');
    out += QLatin1String(end) + QLatin1Char('\n');
}

} // namespace

TauSelectFile parseTauSelectFile(const QString& text, QString* error)
{
    TauSelectFile file;
    struct Section {
        const char* begin;
        const char* end;
        QStringList* list;
    };
    const Section sections[] = {
        { "BEGIN_EXCLUDE_LIST", "END_EXCLUDE_LIST", &file.exclude },
        { "BEGIN_INCLUDE_LIST", "END_INCLUDE_LIST", &file.include },
        { "BEGIN_FILE_EXCLUDE_LIST", "END_FILE_EXCLUDE_LIST", &file.fileExclude },
        { "BEGIN_FILE_INCLUDE_LIST", "END_FILE_INCLUDE_LIST", &file.fileInclude },
        { "BEGIN_INSTRUMENT_SECTION", "END_INSTRUMENT_SECTION", &file.other },
    };
    const Section* open = nullptr;
    int openLine = 0;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (!open) {
            if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
                continue;
            for (const Section& s : sections)
                if (line == QLatin1String(s.begin)) {
                    open = &s;
                    openLine = i + 1;
                }
            if (!open) {
                if (error)
                    *error = QStringLiteral("line %1: '%2' is outside a BEGIN_... / END_... list").arg(i + 1).arg(line);
                return file;
            }
            if (open->list == &file.other)
                file.other.append(line);
            continue;
        }
        if (line == QLatin1String(open->end)) {
            if (open->list == &file.other)
                file.other.append(line);
            open = nullptr;
            continue;
        }
        if (line.startsWith(QLatin1String("END_")) || line.startsWith(QLatin1String("BEGIN_"))) {
            if (error)
                *error = QStringLiteral("line %1: '%2' inside %3 (opened on line %4)")
                             .arg(i + 1)
                             .arg(line, QLatin1String(open->begin))
                             .arg(openLine);
            return file;
        }
        if (!line.isEmpty())
            open->list->append(line);
    }
    if (open && error)
        *error = QStringLiteral("%1 opened on line %2 is not closed by %3")
                     .arg(QLatin1String(open->begin))
                     .arg(openLine)
                     .arg(QLatin1String(open->end));
    return file;
}

QString tauExcludeBlock(const QStringList& names)
{
    QString out = QStringLiteral("\nBEGIN_EXCLUDE_LIST\n");
    for (const QString& n : sortedUnique(names))
        out += n + QLatin1Char('\n');
    out += QStringLiteral("END_EXCLUDE_LIST\n");
    return out;
}

QString writeTauSelectFile(const TauSelectFile& file)
{
    QString out = tauExcludeBlock(file.exclude);
    appendList(out, "BEGIN_INCLUDE_LIST", "END_INCLUDE_LIST", file.include);
    appendList(out, "BEGIN_FILE_EXCLUDE_LIST", "END_FILE_EXCLUDE_LIST", file.fileExclude);
    appendList(out, "BEGIN_FILE_INCLUDE_LIST", "END_FILE_INCLUDE_LIST", file.fileInclude);
    if (!file.other.isEmpty())
        out += QLatin1Char('\n') + file.other.join(QLatin1Char('\n')) + QLatin1Char('\n');
    return out;
}

QString mergeTauSelectFile(const QString& existing, const QStringList& exclude, QStringList* conflicts, QString* error)
{
    QString parseError;
    const TauSelectFile old = parseTauSelectFile(existing, &parseError);
    if (!parseError.isEmpty()) {
        if (error)
            *error = parseError;
        return existing;
    }
    QStringList added;
    for (const QString& n : sortedUnique(exclude)) {
        if (old.exclude.contains(n))
            continue;
        if (old.include.contains(n)) {
            if (conflicts)
                conflicts->append(n);
            continue;
        }
        added.append(n);
    }
    if (added.isEmpty())
        return existing;
    QString out = existing;
    if (!out.isEmpty() && !out.endsWith(QLatin1Char('\n')))
        out += QLatin1Char('\n');
    return out + tauExcludeBlock(added);
}

ScorepFilter parseScorepFilter(const QString& text, QString* error)
{
    ScorepFilter filter;
    enum class Block { None, Regions, Files } block = Block::None;
    ScorepFilterRule* rule = nullptr;
    bool afterKeyword = false; // INCLUDE/EXCLUDE just read: MANGLED may follow
    int lineNo = 1;
    const auto fail = [&](const QString& message) {
        if (error && error->isEmpty())
            *error = QStringLiteral("line %1: %2").arg(lineNo).arg(message);
    };
    qsizetype i = 0;
    const qsizetype n = text.size();
    while (i < n) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('\n')) {
            ++lineNo;
            ++i;
            continue;
        }
        if (c.isSpace()) {
            ++i;
            continue;
        }
        if (c == QLatin1Char('#')) {
            while (i < n && text.at(i) != QLatin1Char('\n'))
                ++i;
            continue;
        }
        // A token: up to unescaped whitespace or '#'; escapes are kept for the matcher.
        QString token;
        bool escaped = false;
        while (i < n) {
            const QChar d = text.at(i);
            if (d == QLatin1Char('\\') && i + 1 < n) {
                token += d;
                token += text.at(i + 1);
                if (text.at(i + 1) == QLatin1Char('\n'))
                    ++lineNo;
                escaped = true;
                i += 2;
                continue;
            }
            if (d.isSpace() || d == QLatin1Char('#'))
                break;
            token += d;
            ++i;
        }
        if (!escaped && token == QLatin1String("SCOREP_REGION_NAMES_BEGIN")) {
            if (block != Block::None)
                fail(QStringLiteral("SCOREP_REGION_NAMES_BEGIN inside a block"));
            block = Block::Regions;
            rule = nullptr;
        } else if (!escaped && token == QLatin1String("SCOREP_FILE_NAMES_BEGIN")) {
            if (block != Block::None)
                fail(QStringLiteral("SCOREP_FILE_NAMES_BEGIN inside a block"));
            block = Block::Files;
            rule = nullptr;
        } else if (!escaped
            && (token == QLatin1String("SCOREP_REGION_NAMES_END") || token == QLatin1String("SCOREP_FILE_NAMES_END"))) {
            const Block expected = token == QLatin1String("SCOREP_REGION_NAMES_END") ? Block::Regions : Block::Files;
            if (block != expected)
                fail(QStringLiteral("%1 without its BEGIN").arg(token));
            block = Block::None;
            rule = nullptr;
        } else if (!escaped && (token == QLatin1String("INCLUDE") || token == QLatin1String("EXCLUDE"))) {
            if (block == Block::None) {
                fail(QStringLiteral("%1 outside SCOREP_REGION_NAMES_BEGIN/SCOREP_FILE_NAMES_BEGIN").arg(token));
                return filter;
            }
            auto& rules = block == Block::Regions ? filter.regions : filter.files;
            rules.push_back({ token == QLatin1String("EXCLUDE"), false, {} });
            rule = &rules.back();
            afterKeyword = true;
            continue;
        } else if (!escaped && afterKeyword && token == QLatin1String("MANGLED") && block == Block::Regions) {
            rule->mangled = true;
        } else {
            if (!rule) {
                fail(QStringLiteral("'%1' is not inside an INCLUDE or EXCLUDE rule").arg(token));
                return filter;
            }
            rule->patterns.append(token);
        }
        afterKeyword = false;
    }
    if (block != Block::None)
        fail(QStringLiteral("a SCOREP_..._BEGIN block is not closed"));
    return filter;
}

QString scorepEscape(const QString& name)
{
    QString out;
    out.reserve(name.size() + 8);
    for (const QChar c : name) {
        if (c.isSpace() || c == QLatin1Char('\\') || c == QLatin1Char('*') || c == QLatin1Char('?')
            || c == QLatin1Char('[') || c == QLatin1Char(']') || c == QLatin1Char('#'))
            out += QLatin1Char('\\');
        out += c;
    }
    return out;
}

QString writeScorepFilter(const QStringList& exclude, const QStringList& excludeMangled, const QStringList& include)
{
    QString out = QStringLiteral("SCOREP_REGION_NAMES_BEGIN\n");
    if (!exclude.isEmpty()) {
        out += QStringLiteral("  EXCLUDE\n");
        for (const QString& p : sortedUnique(exclude))
            out += QStringLiteral("    ") + p + QLatin1Char('\n');
    }
    if (!excludeMangled.isEmpty()) {
        out += QStringLiteral("  EXCLUDE MANGLED\n");
        for (const QString& p : sortedUnique(excludeMangled))
            out += QStringLiteral("    ") + scorepEscape(p) + QLatin1Char('\n');
    }
    if (!include.isEmpty()) {
        out += QStringLiteral("  INCLUDE\n");
        for (const QString& p : sortedUnique(include))
            out += QStringLiteral("    ") + scorepEscape(p) + QLatin1Char('\n');
    }
    out += QStringLiteral("SCOREP_REGION_NAMES_END\n");
    return out;
}

namespace {

bool matchFrom(const QString& p, qsizetype pi, const QString& s, qsizetype si)
{
    while (pi < p.size()) {
        const QChar c = p.at(pi);
        if (c == QLatin1Char('*')) {
            while (pi < p.size() && p.at(pi) == QLatin1Char('*'))
                ++pi;
            if (pi == p.size())
                return true;
            for (qsizetype k = si; k <= s.size(); ++k)
                if (matchFrom(p, pi, s, k))
                    return true;
            return false;
        }
        if (si >= s.size())
            return false;
        if (c == QLatin1Char('?')) {
            ++pi;
            ++si;
            continue;
        }
        if (c == QLatin1Char('[')) {
            const qsizetype close = p.indexOf(QLatin1Char(']'), pi + 2);
            if (close > 0) {
                qsizetype k = pi + 1;
                const bool negate = p.at(k) == QLatin1Char('!') || p.at(k) == QLatin1Char('^');
                if (negate)
                    ++k;
                bool hit = false;
                for (; k < close; ++k) {
                    if (k + 2 < close && p.at(k + 1) == QLatin1Char('-')) {
                        hit = hit || (s.at(si) >= p.at(k) && s.at(si) <= p.at(k + 2));
                        k += 2;
                    } else {
                        hit = hit || s.at(si) == p.at(k);
                    }
                }
                if (hit == negate)
                    return false;
                pi = close + 1;
                ++si;
                continue;
            }
        }
        QChar literal = c;
        if (c == QLatin1Char('\\') && pi + 1 < p.size())
            literal = p.at(++pi);
        if (s.at(si) != literal)
            return false;
        ++pi;
        ++si;
    }
    return si == s.size();
}

} // namespace

bool matchesScorepPattern(const QString& pattern, const QString& name) { return matchFrom(pattern, 0, name, 0); }

bool scorepFilterExcludes(const ScorepFilter& filter, const QString& name, const QString& mangledName)
{
    bool excluded = false;
    for (const ScorepFilterRule& r : filter.regions) {
        const QString& subject = r.mangled && !mangledName.isEmpty() ? mangledName : name;
        if (std::any_of(r.patterns.begin(), r.patterns.end(),
                [&](const QString& p) { return matchesScorepPattern(p, subject); }))
            excluded = r.exclude;
    }
    return excluded;
}

bool scorepFilterExcludesFile(const ScorepFilter& filter, const QString& file)
{
    bool excluded = false;
    for (const ScorepFilterRule& r : filter.files)
        if (std::any_of(
                r.patterns.begin(), r.patterns.end(), [&](const QString& p) { return matchesScorepPattern(p, file); }))
            excluded = r.exclude;
    return excluded;
}

bool tauSelectExcludesFile(const TauSelectFile& file, const QString& sourceFile)
{
    const QString base = sourceFile.section(QLatin1Char('/'), -1);
    const auto matches = [&](const QStringList& entries) {
        return std::any_of(entries.begin(), entries.end(), [&](const QString& entry) {
            return matchesScorepPattern(entry, sourceFile) || matchesScorepPattern(entry, base);
        });
    };
    return matches(file.fileExclude) || (!file.fileInclude.isEmpty() && !matches(file.fileInclude));
}

} // namespace parallax
