// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/snapshotxml.h"

#include <QFileInfo>
#include <QStringList>

namespace parallax::snapshot {

SnapshotXml::SnapshotXml(SnapshotStream& stream, Progress& progress, InputResult& result)
    : m_stream(stream)
    , m_progress(progress)
    , m_result(result)
{
    m_xml.setNamespaceProcessing(false);
    m_xml.setDevice(&m_stream);
}

Position SnapshotXml::firstNonSpace(Position start, QStringView text)
{
    for (const QChar c : text) {
        if (!c.isSpace())
            break;
        if (c == QLatin1Char('\n')) {
            ++start.line;
            start.column = 0;
        } else {
            ++start.column;
        }
    }
    return start;
}

void SnapshotXml::fail(const Position& at, const QString& message, bool atEnd)
{
    if (m_result.failed)
        return;
    m_result.failed = true;
    m_result.error.file = m_result.path;
    m_result.error.message = message;
    m_failPosition = at;
    m_failAtEnd = atEnd;
}

void SnapshotXml::locateFailure()
{
    if (!m_result.failed || m_result.cancelled)
        return;
    ReadError& e = m_result.error;
    if (!m_stream.streamError().isEmpty()) {
        // Corrupt gzip data or a read error: the stream's message wins over what the parser saw.
        e.message
            = m_stream.streamError() + QStringLiteral(" (after %1 uncompressed bytes)").arg(m_stream.inputBytes());
        e.line = m_stream.inputNewlines() + 1;
        e.byteOffset = m_stream.inputBytes();
        return;
    }
    if (m_stream.cutShort())
        e.message += QStringLiteral("; the gzip stream is cut short: truncated file");
    if (m_failAtEnd) {
        e.line = m_stream.inputNewlines() + 1;
        e.byteOffset = m_stream.inputBytes();
    } else {
        Position at = m_failPosition;
        if (at.line == 1 && at.column > m_stream.headChars())
            at.column = std::max(m_stream.headChars(), at.column - SnapshotStream::rootTagChars());
        e.line = at.line;
        e.byteOffset = locateInSnapshotInput(m_result.path, at.line, at.column);
    }
    if (m_stream.isGzip())
        e.message += QStringLiteral(" (line and byte offset in the uncompressed stream)");
}

QString SnapshotXml::openElements() const
{
    QStringList names;
    for (std::size_t i = 1; i < m_stack.size(); ++i)
        names << QLatin1Char('<') + m_stack[i] + QLatin1Char('>');
    return names.join(QLatin1Char(' '));
}

void SnapshotXml::failTruncated(const QString& detail)
{
    const QString open = openElements();
    fail({ m_stream.inputNewlines() + 1, 0 },
        (open.isEmpty() ? QStringLiteral("the input ends inside a tag (truncated file?)")
                        : QStringLiteral("the input ends inside %1 (truncated file?): expected </%2>")
                              .arg(open, m_stack.back()))
            + detail,
        true);
}

void SnapshotXml::failXml()
{
    const Position at = here();
    const QString why = m_xml.errorString();
    if (m_xml.error() == QXmlStreamReader::PrematureEndOfDocumentError || at.line > m_stream.inputNewlines() + 1) {
        // The error is in the synthetic end: the input stopped inside an element or a tag.
        failTruncated(QStringLiteral(" (XML parser: %1)").arg(why));
        return;
    }
    const QString open = openElements();
    fail(at,
        open.isEmpty() ? QStringLiteral("malformed XML: %1").arg(why)
                       : QStringLiteral("malformed XML inside %1: %2").arg(open, why));
}

SnapshotXml::Token SnapshotXml::next()
{
    if (!ok())
        return Token::Invalid;
    for (;;) {
        if ((++m_tokenCount & 1023) == 0 && m_progress.isCancelled()) {
            m_result.cancelled = true;
            fail(here(), QStringLiteral("cancelled"));
            return Token::Invalid;
        }
        m_lastToken = m_xml.tokenType();
        m_tokenStart = here();
        const Token t = m_xml.readNext();
        switch (t) {
        case Token::Invalid:
            failXml();
            return t;
        case Token::StartElement: {
            // Text ends at the next '<', which the reader has consumed by then.
            m_elementStart = m_tokenStart;
            if (m_lastToken == Token::Characters && m_elementStart.column > 0)
                --m_elementStart.column;
            const QStringView q = m_xml.qualifiedName();
            const qsizetype colon = q.indexOf(QLatin1Char(':'));
            // A snapshot is a few levels deep; deeper nesting costs memory for nothing (docs/FORMATS.md 11).
            if (m_stack.size() >= MaxDepth) {
                fail(m_elementStart,
                    QStringLiteral("<%1> is nested more than %2 elements deep (a snapshot is a few levels deep)")
                        .arg(q)
                        .arg(MaxDepth));
                return Token::Invalid;
            }
            m_stack.push_back((colon >= 0 ? q.mid(colon + 1) : q).toString());
            return t;
        }
        case Token::EndElement:
            if (!m_stack.empty())
                m_stack.pop_back();
            return t;
        case Token::ProcessingInstruction:
            if (m_xml.processingInstructionTarget() == SnapshotStreamEndMarker)
                return t;
            continue;
        case Token::Comment:
        case Token::DTD:
        case Token::EntityReference:
            continue;
        default:
            return t;
        }
    }
}

void SnapshotXml::skipElement()
{
    int depth = 1;
    while (ok() && depth > 0) {
        switch (next()) {
        case Token::StartElement:
            ++depth;
            break;
        case Token::EndElement:
            --depth;
            break;
        case Token::ProcessingInstruction:
            failTruncated();
            return;
        default:
            break;
        }
    }
}

void SnapshotXml::unknownElement()
{
    const QString& name = m_stack.back();
    if (!m_result.unknownElements.count(name))
        m_result.unknownElements.emplace(name,
            QStringLiteral("%1:%2 in %3")
                .arg(QFileInfo(m_result.path).fileName())
                .arg(m_xml.lineNumber())
                .arg(openElements()));
    skipElement();
}

QString SnapshotXml::readText()
{
    QString text;
    readContent([&](const QString&) { unknownElement(); }, [&] { text += m_xml.text(); });
    return text;
}

void SnapshotXml::readData(DataText& data)
{
    data.text.clear();
    data.pieces.clear();
    readContent([&](const QString&) { unknownElement(); }, [&] { data.append(m_xml.text(), m_tokenStart); });
}

std::optional<std::uint64_t> SnapshotXml::idAttribute(QLatin1StringView attribute, const QString& element)
{
    const QStringView value = m_xml.attributes().value(attribute);
    bool okId = false;
    const qulonglong id = value.trimmed().toULongLong(&okId);
    if (!okId) {
        failAtTag(value.isNull()
                ? QStringLiteral("<%1> without the attribute %2: expected %2=\"<non-negative integer>\"")
                      .arg(element, attribute)
                : QStringLiteral("<%1 %2=%3>: expected a non-negative integer id")
                      .arg(element, attribute, quoted(value, 60)));
        return std::nullopt;
    }
    return id;
}

QString SnapshotXml::requiredAttribute(QLatin1StringView attribute, const QString& element, const QString& expected)
{
    const QStringView value = m_xml.attributes().value(attribute);
    if (value.isEmpty()) {
        failAtTag(QStringLiteral("<%1> without the attribute %2: expected %3").arg(element, attribute, expected));
        return {};
    }
    return value.toString();
}

void SnapshotXml::tokenize(std::string_view line, std::vector<std::string_view>& tokens)
{
    tokens.clear();
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            ++i;
        if (i >= line.size())
            break;
        std::size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r')
            ++j;
        tokens.push_back(line.substr(i, j - i));
        i = j;
    }
}

} // namespace parallax::snapshot
