// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>
#include <QStringView>
#include <QSyntaxHighlighter>
#include <cstdint>
#include <vector>

namespace parallax {

// The source browser's small syntax highlighter (issue 20 §1): keywords, comments, strings, numbers
// and C preprocessor lines of C, C++, Fortran (free and fixed form) and Python. The tokenizer is a
// pure function of one line and the state the line starts in (inside a C block comment, a Python
// triple-quoted string), so the states of all lines are computed on a worker when the file is read
// and the highlighter formats only the lines that are shown: a 100,000-line file costs nothing on
// the GUI thread beyond its visible lines.

enum class SourceLanguage { Plain, C, Cpp, Fortran, FortranFixed, Python };

/// The language of a file by its suffix (.c .h; .cpp .cc .cxx .hpp .hh .cu; .f90 .f95 .f03 .F90...;
/// .f .for .f77 .F fixed form; .py); Plain otherwise.
SourceLanguage sourceLanguageOf(const QString& fileName);

enum class SourceToken : std::uint8_t { Keyword, Comment, String, Number, Preprocessor };

struct SourceTokenRange {
    int start = 0;
    int length = 0;
    SourceToken token = SourceToken::Keyword;
    bool operator==(const SourceTokenRange&) const = default;
};

/// The states a line can start in.
enum SourceLineState : std::uint8_t { NormalState = 0, InBlockComment = 1, InTripleSingle = 2, InTripleDouble = 3 };

/// Tokenizes one line that starts in `state`: appends its ranges to `out` (when not null) and
/// returns the state the next line starts in.
int tokenizeSourceLine(SourceLanguage language, QStringView line, int state, std::vector<SourceTokenRange>* out);

/// The start state of every line of `text` (lines split at '\n').
std::vector<std::uint8_t> sourceLineStates(SourceLanguage language, QStringView text);

/// Formats the blocks it is asked to (ensureHighlighted), from precomputed start states.
class SourceHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    SourceHighlighter(QTextDocument* document, SourceLanguage language, std::vector<std::uint8_t> startStates);
    /// Formats the blocks first..last (block numbers) that are not formatted yet.
    void ensureHighlighted(int first, int last);
    /// How many blocks have been formatted (tests: the highlighting is lazy).
    std::size_t highlightedCount() const { return m_count; }

protected:
    void highlightBlock(const QString& text) override;

private:
    SourceLanguage m_language;
    std::vector<std::uint8_t> m_start;
    std::vector<bool> m_wanted;
    std::size_t m_count = 0;
};

} // namespace parallax
