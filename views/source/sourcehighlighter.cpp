// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/source/sourcehighlighter.h"

#include <QFileInfo>
#include <QSet>
#include <QTextBlock>
#include <QTextCharFormat>
#include <QTextDocument>

namespace parallax {

namespace {

QSet<QString> words(std::initializer_list<const char*> list)
{
    QSet<QString> set;
    for (const char* w : list)
        set.insert(QLatin1String(w));
    return set;
}

const QSet<QString>& keywords(SourceLanguage language)
{
    static const QSet<QString> c = words({ "auto", "break", "case", "char", "const", "continue", "default", "do",
        "double", "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
        "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned",
        "void", "volatile", "while", "_Bool", "bool", "true", "false", "NULL" });
    static const QSet<QString> cpp = c
        + words({ "class", "namespace", "template", "typename", "public", "private", "protected", "virtual", "override",
            "final", "new", "delete", "this", "using", "try", "catch", "throw", "nullptr", "constexpr", "decltype",
            "noexcept", "operator", "friend", "explicit", "mutable", "static_cast", "dynamic_cast", "reinterpret_cast",
            "const_cast", "concept", "requires", "co_await", "co_return", "co_yield" });
    // Fortran is case-insensitive: its words are compared in lower case.
    static const QSet<QString> fortran = words({ "program", "end", "subroutine", "function", "module", "use",
        "implicit", "none", "integer", "real", "double", "precision", "complex", "logical", "character", "parameter",
        "dimension", "allocatable", "allocate", "deallocate", "intent", "in", "out", "inout", "call", "do", "enddo",
        "if", "then", "else", "elseif", "endif", "select", "case", "contains", "return", "stop", "write", "read",
        "print", "format", "go", "to", "goto", "continue", "type", "interface", "pure", "elemental", "recursive",
        "result", "save", "common", "data", "while", "exit", "cycle", "where", "forall", "associate", "block", "public",
        "private", "pointer", "target", "optional", "include" });
    static const QSet<QString> python
        = words({ "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def",
            "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
            "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "self" });
    static const QSet<QString> none;
    switch (language) {
    case SourceLanguage::C:
        return c;
    case SourceLanguage::Cpp:
        return cpp;
    case SourceLanguage::Fortran:
    case SourceLanguage::FortranFixed:
        return fortran;
    case SourceLanguage::Python:
        return python;
    case SourceLanguage::Plain:
        break;
    }
    return none;
}

bool isWordChar(QChar ch) { return ch.isLetterOrNumber() || ch == QLatin1Char('_'); }

struct Scanner {
    SourceLanguage language = SourceLanguage::Plain;
    QStringView line;
    std::vector<SourceTokenRange>* out = nullptr;

    void add(qsizetype start, qsizetype end, SourceToken token) const
    {
        if (out && end > start)
            out->push_back({ static_cast<int>(start), static_cast<int>(end - start), token });
    }
    bool cFamily() const { return language == SourceLanguage::C || language == SourceLanguage::Cpp; }
    bool fortran() const { return language == SourceLanguage::Fortran || language == SourceLanguage::FortranFixed; }

    /// The end of a quoted string starting at `i` (after its closing quote, or the line's end).
    qsizetype stringEnd(qsizetype i) const
    {
        const QChar quote = line[i];
        for (qsizetype j = i + 1; j < line.size(); ++j) {
            if (line[j] == QLatin1Char('\\') && !fortran())
                ++j;
            else if (line[j] == quote)
                return j + 1;
        }
        return line.size();
    }

    /// Ends a multi-line construct that the line starts in; returns where scanning goes on, or -1
    /// when it runs past the line's end.
    qsizetype finishOpen(int state) const
    {
        const QLatin1String close = state == InBlockComment ? QLatin1String("*/")
            : state == InTripleSingle                       ? QLatin1String("'''")
                                                            : QLatin1String("\"\"\"");
        const qsizetype end = line.indexOf(close);
        const SourceToken token = state == InBlockComment ? SourceToken::Comment : SourceToken::String;
        if (end < 0) {
            add(0, line.size(), token);
            return -1;
        }
        add(0, end + close.size(), token);
        return end + close.size();
    }

    int run(int state) const
    {
        qsizetype i = 0;
        if (state != NormalState) {
            i = finishOpen(state);
            if (i < 0)
                return state;
        }
        if (language == SourceLanguage::FortranFixed && !line.isEmpty() && QStringView(u"cC*!").contains(line[0])) {
            add(0, line.size(), SourceToken::Comment);
            return NormalState;
        }
        if (cFamily()) {
            const QStringView trimmed = line.trimmed();
            if (trimmed.startsWith(QLatin1Char('#'))) {
                const qsizetype hash = line.indexOf(QLatin1Char('#'));
                qsizetype end = hash + 1;
                while (end < line.size() && (line[end].isSpace() || isWordChar(line[end])))
                    ++end;
                add(hash, end, SourceToken::Preprocessor);
                i = end;
            }
        }
        const QSet<QString>& keys = keywords(language);
        while (i < line.size()) {
            const QChar ch = line[i];
            if (cFamily() && line.mid(i).startsWith(QLatin1String("//"))) {
                add(i, line.size(), SourceToken::Comment);
                return NormalState;
            }
            if (cFamily() && line.mid(i).startsWith(QLatin1String("/*"))) {
                const qsizetype end = line.indexOf(QLatin1String("*/"), i + 2);
                if (end < 0) {
                    add(i, line.size(), SourceToken::Comment);
                    return InBlockComment;
                }
                add(i, end + 2, SourceToken::Comment);
                i = end + 2;
                continue;
            }
            if ((fortran() && ch == QLatin1Char('!'))
                || (language == SourceLanguage::Python && ch == QLatin1Char('#'))) {
                add(i, line.size(), SourceToken::Comment);
                return NormalState;
            }
            if (language == SourceLanguage::Python
                && (line.mid(i).startsWith(QLatin1String("'''")) || line.mid(i).startsWith(QLatin1String("\"\"\"")))) {
                const QStringView close = line.mid(i, 3);
                const qsizetype end = line.indexOf(close, i + 3);
                if (end < 0) {
                    add(i, line.size(), SourceToken::String);
                    return ch == QLatin1Char('\'') ? InTripleSingle : InTripleDouble;
                }
                add(i, end + 3, SourceToken::String);
                i = end + 3;
                continue;
            }
            if (ch == QLatin1Char('"') || ch == QLatin1Char('\'')) {
                const qsizetype end = stringEnd(i);
                add(i, end, SourceToken::String);
                i = end;
                continue;
            }
            if (ch.isDigit() || (ch == QLatin1Char('.') && i + 1 < line.size() && line[i + 1].isDigit())) {
                qsizetype end = i + 1;
                while (end < line.size()
                    && (isWordChar(line[end]) || line[end] == QLatin1Char('.')
                        || ((line[end] == QLatin1Char('+') || line[end] == QLatin1Char('-'))
                            && QStringView(u"eEdD").contains(line[end - 1]))))
                    ++end;
                add(i, end, SourceToken::Number);
                i = end;
                continue;
            }
            if (isWordChar(ch)) {
                qsizetype end = i + 1;
                while (end < line.size() && isWordChar(line[end]))
                    ++end;
                const QStringView word = line.mid(i, end - i);
                if (keys.contains(fortran() ? word.toString().toLower() : word.toString()))
                    add(i, end, SourceToken::Keyword);
                i = end;
                continue;
            }
            ++i;
        }
        return NormalState;
    }
};

QTextCharFormat formatOf(SourceToken token)
{
    QTextCharFormat f;
    switch (token) {
    case SourceToken::Keyword:
        f.setForeground(QColor(0x1f, 0x4e, 0xa6));
        f.setFontWeight(QFont::Bold);
        break;
    case SourceToken::Comment:
        f.setForeground(QColor(0x70, 0x80, 0x70));
        f.setFontItalic(true);
        break;
    case SourceToken::String:
        f.setForeground(QColor(0x2e, 0x7d, 0x32));
        break;
    case SourceToken::Number:
        f.setForeground(QColor(0x9c, 0x27, 0xb0));
        break;
    case SourceToken::Preprocessor:
        f.setForeground(QColor(0x00, 0x83, 0x8f));
        break;
    }
    return f;
}

} // namespace

SourceLanguage sourceLanguageOf(const QString& fileName)
{
    const QString suffix = QFileInfo(fileName).suffix();
    const QString lower = suffix.toLower();
    if (lower == QLatin1String("c") && suffix == QLatin1String("c"))
        return SourceLanguage::C;
    if (lower == QLatin1String("h"))
        return SourceLanguage::C;
    static const QStringList cpp { QStringLiteral("cpp"), QStringLiteral("cc"), QStringLiteral("cxx"),
        QStringLiteral("hpp"), QStringLiteral("hh"), QStringLiteral("hxx"), QStringLiteral("cu"), QStringLiteral("c++"),
        QStringLiteral("inl") };
    if (cpp.contains(lower) || suffix == QLatin1String("C"))
        return SourceLanguage::Cpp;
    static const QStringList fixed { QStringLiteral("f"), QStringLiteral("for"), QStringLiteral("f77"),
        QStringLiteral("ftn") };
    if (fixed.contains(lower))
        return SourceLanguage::FortranFixed;
    static const QStringList free { QStringLiteral("f90"), QStringLiteral("f95"), QStringLiteral("f03"),
        QStringLiteral("f08"), QStringLiteral("f18") };
    if (free.contains(lower))
        return SourceLanguage::Fortran;
    if (lower == QLatin1String("py") || lower == QLatin1String("pyx"))
        return SourceLanguage::Python;
    return SourceLanguage::Plain;
}

int tokenizeSourceLine(SourceLanguage language, QStringView line, int state, std::vector<SourceTokenRange>* out)
{
    if (language == SourceLanguage::Plain)
        return NormalState;
    return Scanner { language, line, out }.run(state);
}

std::vector<std::uint8_t> sourceLineStates(SourceLanguage language, QStringView text)
{
    std::vector<std::uint8_t> states;
    int state = NormalState;
    qsizetype start = 0;
    while (true) {
        states.push_back(static_cast<std::uint8_t>(state));
        const qsizetype end = text.indexOf(QLatin1Char('\n'), start);
        const QStringView line = text.mid(start, (end < 0 ? text.size() : end) - start);
        // Only a line that can open or close a multi-line construct needs the tokenizer.
        if (state != NormalState || line.contains(QLatin1String("/*")) || line.contains(QLatin1String("'''"))
            || line.contains(QLatin1String("\"\"\"")))
            state = tokenizeSourceLine(language, line, state, nullptr);
        if (end < 0)
            break;
        start = end + 1;
    }
    return states;
}

SourceHighlighter::SourceHighlighter(
    QTextDocument* document, SourceLanguage language, std::vector<std::uint8_t> startStates)
    : QSyntaxHighlighter(document)
    , m_language(language)
    , m_start(std::move(startStates))
    , m_wanted(m_start.size(), false)
{
}

void SourceHighlighter::ensureHighlighted(int first, int last)
{
    if (m_language == SourceLanguage::Plain || !document())
        return;
    first = std::max(first, 0);
    last = std::min(last, static_cast<int>(m_wanted.size()) - 1);
    for (int n = first; n <= last; ++n) {
        if (m_wanted[static_cast<std::size_t>(n)])
            continue;
        m_wanted[static_cast<std::size_t>(n)] = true;
        ++m_count;
        rehighlightBlock(document()->findBlockByNumber(n));
    }
}

void SourceHighlighter::highlightBlock(const QString& text)
{
    const int n = currentBlock().blockNumber();
    if (n < 0 || static_cast<std::size_t>(n) >= m_wanted.size() || !m_wanted[static_cast<std::size_t>(n)])
        return;
    std::vector<SourceTokenRange> ranges;
    tokenizeSourceLine(m_language, text, m_start[static_cast<std::size_t>(n)], &ranges);
    for (const SourceTokenRange& r : ranges)
        setFormat(r.start, r.length, formatOf(r.token));
}

} // namespace parallax
