// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/snapshotdata.h"
#include "datasource/readers/snapshotstream.h"

#include <QStringView>
#include <QXmlStreamReader>
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// The XML layer of the snapshot parser (docs/FORMATS.md 4.1): tokens of a SnapshotStream with the open
/// elements, the position of each start tag and piece of text, failures located by line and byte
/// offset in the input, and the rows of numbers of a data element. SnapshotParser adds the elements.

namespace parallax::snapshot {

struct Position {
    qint64 line = 0;
    qint64 column = 0;
};

/// The text of a data element (rows of numbers) as Latin-1, with the parser position at which
/// each piece of text started, so that a row can be located exactly.
struct DataText {
    std::string text;
    std::vector<std::pair<std::size_t, Position>> pieces;

    void append(QStringView s, const Position& at)
    {
        pieces.emplace_back(text.size(), at);
        const std::size_t base = text.size();
        text.resize(base + static_cast<std::size_t>(s.size()));
        char* out = text.data() + base;
        for (const QChar c : s)
            *out++ = c.unicode() < 0x80 ? static_cast<char>(c.unicode()) : '?';
    }

    Position positionOf(std::size_t offset) const
    {
        if (pieces.empty())
            return {};
        auto it = std::upper_bound(pieces.begin(), pieces.end(), offset,
            [](std::size_t o, const std::pair<std::size_t, Position>& p) { return o < p.first; });
        if (it != pieces.begin())
            --it;
        const std::size_t start = it->first;
        const std::string_view between(text.data() + start, offset - start);
        const auto newlines = std::count(between.begin(), between.end(), '\n');
        if (newlines == 0)
            return { it->second.line, it->second.column + static_cast<qint64>(offset - start) };
        const auto lastNl = between.rfind('\n');
        return { it->second.line + newlines, static_cast<qint64>(between.size() - lastNl - 1) };
    }
};

class SnapshotXml {
public:
    /// Elements nested deeper are refused (docs/FORMATS.md 11).
    static constexpr std::size_t MaxDepth = 1000;

    SnapshotXml(SnapshotStream& stream, Progress& progress, InputResult& result);

    /// Fills in the line and byte offset of a failure (re-reads the input for the offset).
    void locateFailure();

protected:
    using Token = QXmlStreamReader::TokenType;

    bool ok() const { return !m_result.failed; }
    Position here() const { return { m_xml.lineNumber(), m_xml.columnNumber() }; }

    /// The position of the first non-blank character of a text that starts at `start`.
    static Position firstNonSpace(Position start, QStringView text);

    void fail(const Position& at, const QString& message, bool atEnd = false);
    void failHere(const QString& message) { fail(here(), message); }
    /// For errors about the element just opened (its attributes, its children): its start tag.
    void failAtTag(const QString& message) { fail(m_elementStart, message); }

    /// The open elements below the synthetic root, as "<a> <b>".
    QString openElements() const;
    /// The input ended inside an element or a tag.
    void failTruncated(const QString& detail = {});
    /// QXmlStreamReader's error, as a truncation or as malformed XML.
    void failXml();

    /// The next token that matters; comments and foreign processing instructions are skipped, and
    /// m_stack follows the open elements (local names).
    Token next();

    /// Reads the content of the current element up to its end tag. onChild(name) is called at each
    /// child start tag and must consume the child; onText() at each piece of text.
    template <typename OnChild, typename OnText> void readContent(OnChild&& onChild, OnText&& onText)
    {
        while (ok()) {
            switch (next()) {
            case Token::StartElement:
                onChild(QString(m_stack.back())); // a copy: the stack changes while the child is read
                break;
            case Token::EndElement:
                return;
            case Token::Characters:
                onText();
                break;
            case Token::ProcessingInstruction:
                failTruncated();
                return;
            default:
                break;
            }
        }
    }

    /// Skips the current element, however deep (no recursion).
    void skipElement();

    /// Skips an element this parser does not know, noting where it was first seen.
    void unknownElement();
    /// The text of the current element (unknown children skipped).
    QString readText();
    /// The text of a data element, with positions.
    void readData(DataText& data);
    /// A non-negative integer attribute; fails (and returns nothing) when it is missing or not one.
    std::optional<std::uint64_t> idAttribute(QLatin1StringView attribute, const QString& element);
    /// A non-empty attribute; fails when it is missing.
    QString requiredAttribute(QLatin1StringView attribute, const QString& element, const QString& expected);

    /// Splits a row into whitespace-separated tokens.
    static void tokenize(std::string_view line, std::vector<std::string_view>& tokens);

    /// Calls onRow(tokens, offset) for each non-blank line of the text.
    template <typename OnRow> void forEachRow(const DataText& data, OnRow&& onRow)
    {
        const std::string_view text(data.text);
        std::size_t pos = 0;
        while (pos < text.size() && ok()) {
            const std::size_t nl = text.find('\n', pos);
            const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
            const std::string_view line = text.substr(pos, end - pos);
            tokenize(line, m_tokens);
            if (!m_tokens.empty())
                onRow(static_cast<std::size_t>(m_tokens.front().data() - text.data()));
            pos = end + 1;
        }
    }

    SnapshotStream& m_stream;
    Progress& m_progress;
    InputResult& m_result;
    QXmlStreamReader m_xml;
    std::vector<QString> m_stack;
    Position m_tokenStart;
    Position m_elementStart; // where the last start tag began
    Token m_lastToken = Token::NoToken;
    Position m_failPosition;
    bool m_failAtEnd = false;
    std::uint64_t m_tokenCount = 0;
    std::vector<std::string_view> m_tokens; // the tokens of the row forEachRow() is at
};

} // namespace parallax::snapshot
