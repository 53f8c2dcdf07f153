// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/snapshotreader.h"

#include "datasource/model/names.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/gzipinput.h"
#include "datasource/readers/snapshotstream.h"
#include "datasource/readers/textnumber.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <QThread>
#include <QXmlStreamReader>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

namespace parallax {

namespace {

constexpr qint64 ChunkSize = SnapshotStreamChunk;
constexpr std::uint32_t None = std::numeric_limits<std::uint32_t>::max();
constexpr int MaxMetadataDepth = 64;

/// Names shared by all inputs of one trial: canonical name -> dense temporary id. Thread-safe.
class NameTable {
public:
    struct Entry {
        QString name;
        QString raw;
        QStringList groups;
    };

    explicit NameTable(bool canonicalise)
        : m_canonicalise(canonicalise)
    {
    }

    std::uint32_t intern(const QString& raw, const QStringList& groups = {})
    {
        const QString name
            = m_canonicalise ? QString::fromStdString(names::canonical(raw.toStdString())) : raw.trimmed();
        std::lock_guard lock(m_mutex);
        std::uint32_t id;
        const auto it = m_index.constFind(name);
        if (it == m_index.cend()) {
            id = static_cast<std::uint32_t>(m_entries.size());
            m_entries.push_back({ name, raw, {} });
            m_index.insert(name, id);
        } else {
            id = it.value();
        }
        auto& known = m_entries[id].groups;
        for (const QString& g : groups)
            if (!known.contains(g))
                known << g;
        return id;
    }
    /// The source spelling of an id (while other inputs may still be parsed).
    QString raw(std::uint32_t id)
    {
        std::lock_guard lock(m_mutex);
        return m_entries[id].raw;
    }
    /// Only once parsing is over.
    const std::deque<Entry>& entries() const { return m_entries; }
    std::size_t size() const { return m_entries.size(); }

private:
    bool m_canonicalise;
    std::mutex m_mutex;
    QHash<QString, std::uint32_t> m_index;
    std::deque<Entry> m_entries;
};

struct Shared {
    NameTable metrics { false };
    NameTable events { true };
    NameTable atomics { true };
};

/// File-local id -> temporary id: dense for the small, packed ids TAU writes, hashed otherwise
/// (so that a few huge ids cannot make every scope allocate a large table).
class IdMap {
public:
    std::uint32_t find(std::uint64_t id) const
    {
        if (id < m_dense.size() && m_dense[id] != None)
            return m_dense[id];
        if (m_sparse.empty())
            return None;
        const auto it = m_sparse.find(id);
        return it == m_sparse.end() ? None : it->second;
    }
    void set(std::uint64_t id, std::uint32_t value)
    {
        ++m_count;
        if (id < std::max<std::uint64_t>(1024, 4 * m_count)) {
            if (id >= m_dense.size())
                m_dense.resize(id + 1, None);
            m_dense[id] = value;
        } else {
            m_sparse[id] = value;
        }
    }

private:
    std::uint64_t m_count = 0;
    std::vector<std::uint32_t> m_dense;
    std::unordered_map<std::uint64_t, std::uint32_t> m_sparse;
};

enum class Kind { Metric, Event, Atomic };

/// The definitions of one thread id (or "*"): they accumulate over fragments (docs/FORMATS.md 4.2).
struct Scope {
    IdMap ids[3];
    /// Per kind: temporary id -> the first file id defining it, to spot two ids with one name.
    std::unordered_map<std::uint32_t, std::uint64_t> firstId[3];
};

struct Snapshot {
    QString name;
    qint64 timestamp = 0;
    std::vector<std::uint32_t> metrics; // shared metric ids of the value columns
    IntervalRow row; // temporary event ids; excl/incl cell-major: [cell * metrics.size() + column]
    AtomicRow atomicRow; // temporary ids
    bool haveInterval = false;
    bool haveAtomic = false;
};

struct MetaEntry {
    QString key;
    QString value;
    bool context = false;
};

struct ThreadData {
    ThreadKey key;
    std::vector<std::pair<QString, QString>> metadata;
    QSet<QString> contextKeys;
    std::vector<Snapshot> snapshots;
};

struct Derived {
    QString entity;
    Snapshot data;
};

struct Position {
    qint64 line = 0;
    qint64 column = 0;
};

struct StreamResult {
    QString path;
    bool failed = false;
    bool cancelled = false;
    ReadError error;
    std::vector<ThreadData> threads;
    std::vector<Derived> derived;
    /// Temporary ids in the order this input defines them (for deterministic trial ids).
    std::vector<std::uint32_t> order[3];
    QStringList warnings;
    std::map<QString, QString> unknownElements; // name -> where first seen
    std::size_t negativeValues = 0;
    QString firstNegative;
    std::size_t sameNameDefinitions[3] = { 0, 0, 0 };
    QStringList sameNameExamples;
};

bool parseUnsigned(std::string_view token, std::uint64_t& out)
{
    const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
    return ec == std::errc() && ptr == token.data() + token.size() && !token.empty();
}

/// A number field: textnumber::parseDouble (std::from_chars; out-of-range text reads as strtod
/// reads it, +-inf or +-0).
bool parseDouble(std::string_view token, double& out)
{
    const auto v = textnumber::parseDouble(token);
    if (v)
        out = *v;
    return v.has_value();
}

/// "N.C.T" or "N.C.T.PID" (TAU's thread ids) -> key.
bool parseThreadId(QStringView id, ThreadKey& key)
{
    const auto parts = id.split(QLatin1Char('.'));
    if (parts.size() != 3 && parts.size() != 4)
        return false;
    int v[3];
    for (int i = 0; i < 3; ++i) {
        bool ok = false;
        v[i] = parts[i].toInt(&ok);
        if (!ok || v[i] < 0 || parts[i].startsWith(QLatin1Char('+')))
            return false;
    }
    key = { v[0], v[1], v[2] };
    return true;
}

QStringList splitGroups(const QString& groups)
{
    QStringList out;
    for (const QString& part : groups.split(QLatin1Char('|'))) {
        const QString g = part.trimmed();
        if (!g.isEmpty() && !out.contains(g))
            out << g;
    }
    return out;
}

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

class StreamParser {
public:
    StreamParser(SnapshotStream& stream, Shared& shared, Progress& progress, StreamResult& result)
        : m_stream(stream)
        , m_shared(shared)
        , m_progress(progress)
        , m_result(result)
    {
        m_xml.setNamespaceProcessing(false);
        m_xml.setDevice(&m_stream);
    }

    void run()
    {
        Token t = next();
        if (t == Token::StartDocument)
            t = next();
        if (!ok())
            return;
        if (t != Token::StartElement || m_stack.size() != 1) {
            failHere(QStringLiteral("expected a <profile_xml> fragment"));
            return;
        }
        bool sawFragment = false;
        while (ok()) {
            t = next();
            switch (t) {
            case Token::StartElement:
                if (m_stack.back() == QLatin1String("profile_xml")) {
                    sawFragment = true;
                    parseFragment();
                } else if (!sawFragment) {
                    failAtTag(
                        QStringLiteral("expected <profile_xml>, found <%1>: not a TAU snapshot or merged XML profile")
                            .arg(m_stack.back()));
                } else {
                    unknownElement();
                }
                break;
            case Token::Characters:
                if (!m_xml.isWhitespace())
                    fail(firstNonSpace(m_tokenStart, m_xml.text()),
                        QStringLiteral("unexpected text %1 between fragments: expected <profile_xml>")
                            .arg(quoted(m_xml.text().trimmed(), 60)));
                break;
            case Token::ProcessingInstruction: // the end of the input
                t = next();
                if (ok() && (t != Token::EndElement || !m_stack.empty())) {
                    failHere(QStringLiteral("unexpected <?%1?> in the input").arg(SnapshotStreamEndMarker));
                    return;
                }
                t = next(); // EndDocument, or an error for content after a stray root end tag
                if (!ok())
                    return;
                if (!sawFragment)
                    fail({ m_stream.inputNewlines() + 1, 0 },
                        QStringLiteral("no <profile_xml> fragment: not a TAU snapshot or merged XML profile"), true);
                return;
            case Token::EndElement:
                failHere(QStringLiteral("unexpected end tag </%1>: expected <profile_xml>").arg(SnapshotStreamRoot));
                return;
            default:
                break;
            }
        }
    }

private:
    using Token = QXmlStreamReader::TokenType;

    bool ok() const { return !m_result.failed; }
    Position here() const { return { m_xml.lineNumber(), m_xml.columnNumber() }; }

    /// The position of the first non-blank character of a text that starts at `start`.
    static Position firstNonSpace(Position start, QStringView text)
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

    void fail(const Position& at, const QString& message, bool atEnd = false)
    {
        if (m_result.failed)
            return;
        m_result.failed = true;
        m_result.error.file = m_result.path;
        m_result.error.message = message;
        m_failPosition = at;
        m_failAtEnd = atEnd;
    }
    void failHere(const QString& message) { fail(here(), message); }
    /// For errors about the element just opened (its attributes, its children): its start tag.
    void failAtTag(const QString& message) { fail(m_elementStart, message); }

public:
    /// Fills in the line and byte offset of a failure (re-reads the input for the offset).
    void locateFailure()
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

private:
    QString openElements() const
    {
        QStringList names;
        for (std::size_t i = 1; i < m_stack.size(); ++i)
            names << QLatin1Char('<') + m_stack[i] + QLatin1Char('>');
        return names.join(QLatin1Char(' '));
    }

    void failTruncated(const QString& detail = {})
    {
        const QString open = openElements();
        fail({ m_stream.inputNewlines() + 1, 0 },
            (open.isEmpty() ? QStringLiteral("the input ends inside a tag (truncated file?)")
                            : QStringLiteral("the input ends inside %1 (truncated file?): expected </%2>")
                                  .arg(open, m_stack.back()))
                + detail,
            true);
    }

    void failXml()
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

    /// The next token that matters; comments and foreign processing instructions are skipped, and
    /// m_stack follows the open elements (local names).
    Token next()
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
    void skipElement()
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

    void unknownElement()
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

    QString readText()
    {
        QString text;
        readContent([&](const QString&) { unknownElement(); }, [&] { text += m_xml.text(); });
        return text;
    }

    void readData(DataText& data)
    {
        data.text.clear();
        data.pieces.clear();
        readContent([&](const QString&) { unknownElement(); }, [&] { data.append(m_xml.text(), m_tokenStart); });
    }

    std::optional<std::uint64_t> idAttribute(QLatin1StringView attribute, const QString& element)
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

    QString requiredAttribute(QLatin1StringView attribute, const QString& element, const QString& expected)
    {
        const QStringView value = m_xml.attributes().value(attribute);
        if (value.isEmpty()) {
            failAtTag(QStringLiteral("<%1> without the attribute %2: expected %3").arg(element, attribute, expected));
            return {};
        }
        return value.toString();
    }

    ThreadData& threadFor(const ThreadKey& key)
    {
        const auto [it, added] = m_threadIndex.emplace(key, m_result.threads.size());
        if (added) {
            m_result.threads.emplace_back();
            m_result.threads.back().key = key;
        }
        return m_result.threads[it->second];
    }

    void parseFragment()
    {
        readContent(
            [&](const QString& name) {
                if (name == QLatin1String("thread"))
                    parseThread();
                else if (name == QLatin1String("definitions"))
                    parseDefinitions();
                else if (name == QLatin1String("profile"))
                    parseProfile();
                else if (name == QLatin1String("derivedentity"))
                    parseDerivedEntity();
                else if (name.endsWith(QLatin1String("derivedprofile")))
                    parseDerivedProfile();
                else
                    unknownElement();
            },
            [&] {
                if (!m_xml.isWhitespace() && !m_warnedText) {
                    m_warnedText = true;
                    m_result.warnings << QStringLiteral("%1:%2: text %3 directly inside <profile_xml> was ignored")
                                             .arg(m_result.path)
                                             .arg(m_tokenStart.line)
                                             .arg(quoted(m_xml.text().trimmed(), 60));
                }
            });
    }

    void parseThread()
    {
        const QString id
            = requiredAttribute(QLatin1StringView("id"), QStringLiteral("thread"), QStringLiteral("id=\"N.C.T.PID\""));
        if (!ok())
            return;
        ThreadKey key;
        const auto attrs = m_xml.attributes();
        int v[3];
        bool all = true;
        const QLatin1StringView fields[]
            = { QLatin1StringView("node"), QLatin1StringView("context"), QLatin1StringView("thread") };
        for (int i = 0; i < 3; ++i) {
            const QStringView s = attrs.value(fields[i]);
            bool okInt = false;
            v[i] = s.trimmed().toInt(&okInt);
            if (!s.isNull() && (!okInt || v[i] < 0)) {
                failAtTag(
                    QStringLiteral("<thread %1=%2>: expected a non-negative integer").arg(fields[i], quoted(s, 60)));
                return;
            }
            all = all && okInt;
        }
        if (all)
            key = { v[0], v[1], v[2] };
        else if (!parseThreadId(id, key)) {
            failAtTag(
                QStringLiteral("<thread id=%1> lacks node, context and thread attributes, and the id is not N.C.T.PID")
                    .arg(quoted(id, 60)));
            return;
        }
        const auto [it, added] = m_idKeys.emplace(id, key);
        if (!added && it->second != key) {
            failAtTag(QStringLiteral("thread id %1 is declared as thread %2 and as thread %3")
                          .arg(quoted(id, 60), it->second.toString(), key.toString()));
            return;
        }
        ThreadData& thread = threadFor(key);
        const std::size_t index = static_cast<std::size_t>(&thread - m_result.threads.data());
        readContent(
            [&](const QString& name) {
                if (name == QLatin1String("metadata"))
                    parseMetadata(index);
                else
                    unknownElement();
            },
            [] {});
    }

    void parseMetadata(std::size_t threadIndex)
    {
        std::vector<MetaEntry> entries;
        readContent(
            [&](const QString& name) {
                if (name == QLatin1String("attribute"))
                    parseAttribute(0, entries);
                else
                    unknownElement();
            },
            [] {});
        ThreadData& thread = m_result.threads[threadIndex];
        for (auto& entry : entries) {
            if (entry.context)
                thread.contextKeys.insert(entry.key);
            auto existing = std::find_if(
                thread.metadata.begin(), thread.metadata.end(), [&](const auto& kv) { return kv.first == entry.key; });
            if (existing != thread.metadata.end())
                existing->second = std::move(entry.value); // a later block wins (rank 0 is written twice)
            else
                thread.metadata.emplace_back(std::move(entry.key), std::move(entry.value));
        }
    }

    /// One <attribute> (docs/FORMATS.md 1.3): nested objects give "parent/child" keys, arrays "[a, b]",
    /// as the TAU profile reader does.
    void parseAttribute(int depth, std::vector<MetaEntry>& out)
    {
        if (depth > MaxMetadataDepth) {
            failAtTag(QStringLiteral("metadata nested deeper than %1 levels").arg(MaxMetadataDepth));
            return;
        }
        QString name;
        bool haveName = false;
        bool context = false;
        QString text;
        QStringList array;
        bool isArray = false;
        std::vector<MetaEntry> nested;
        bool haveNested = false;
        readContent(
            [&](const QString& child) {
                if (child == QLatin1String("name")) {
                    name = readText();
                    haveName = true;
                } else if (child == QLatin1String("timer_context")) {
                    context = true;
                    skipElement();
                } else if (child == QLatin1String("call_number") || child == QLatin1String("timestamp")) {
                    skipElement();
                } else if (child == QLatin1String("value")) {
                    readContent(
                        [&](const QString& v) {
                            if (v == QLatin1String("attribute")) {
                                haveNested = true;
                                parseAttribute(depth + 1, nested);
                            } else if (v == QLatin1String("array_element")) {
                                array << readText();
                                isArray = true;
                            } else {
                                unknownElement();
                            }
                        },
                        [&] { text += m_xml.text(); });
                } else {
                    unknownElement();
                }
            },
            [] {});
        if (!ok())
            return;
        if (!haveName) {
            if (!m_warnedNameless) {
                m_warnedNameless = true;
                m_result.warnings << QStringLiteral("%1:%2: a metadata <attribute> without <name> was ignored")
                                         .arg(m_result.path)
                                         .arg(m_xml.lineNumber());
            }
            return;
        }
        for (auto& n : nested)
            out.push_back({ name + QLatin1Char('/') + n.key, std::move(n.value), context || n.context });
        if (isArray)
            out.push_back({ name, QLatin1Char('[') + array.join(QStringLiteral(", ")) + QLatin1Char(']'), context });
        else if (!haveNested)
            out.push_back({ name, text, context });
    }

    void parseDefinitions()
    {
        const QString scopeName = requiredAttribute(QLatin1StringView("thread"), QStringLiteral("definitions"),
            QStringLiteral("thread=\"N.C.T.PID\" or thread=\"*\""));
        if (!ok())
            return;
        Scope& scope = m_scopes[scopeName];
        readContent(
            [&](const QString& name) {
                if (name == QLatin1String("metric"))
                    parseDefinition(scope, scopeName, Kind::Metric, name);
                else if (name == QLatin1String("event"))
                    parseDefinition(scope, scopeName, Kind::Event, name);
                else if (name == QLatin1String("userevent"))
                    parseDefinition(scope, scopeName, Kind::Atomic, name);
                else
                    unknownElement();
            },
            [] {});
    }

    void parseDefinition(Scope& scope, const QString& scopeName, Kind kind, const QString& element)
    {
        const Position at = m_elementStart;
        const auto id = idAttribute(QLatin1StringView("id"), element);
        if (!id)
            return;
        QString name;
        bool haveName = false;
        QString groups;
        readContent(
            [&](const QString& child) {
                if (child == QLatin1String("name")) {
                    name = readText();
                    haveName = true;
                } else if (child == QLatin1String("group") && kind == Kind::Event) {
                    groups = readText();
                } else if (child == QLatin1String("units") && kind == Kind::Metric) {
                    readText(); // TAU writes "unknown"; the unit follows from the name (docs/FORMATS.md 1.1)
                } else {
                    unknownElement();
                }
            },
            [] {});
        if (!ok())
            return;
        if (!haveName) {
            fail(at, QStringLiteral("<%1 id=\"%2\"> has no <name>").arg(element).arg(*id));
            return;
        }
        const int k = static_cast<int>(kind);
        NameTable& table = kind == Kind::Metric ? m_shared.metrics
            : kind == Kind::Event               ? m_shared.events
                                                : m_shared.atomics;
        const std::uint32_t temp = table.intern(name, splitGroups(groups));
        const std::uint32_t existing = scope.ids[k].find(*id);
        if (existing != None && existing != temp) {
            fail(at,
                QStringLiteral("<%1 id=\"%2\"> is defined twice for thread %3, as %4 and as %5")
                    .arg(element)
                    .arg(*id)
                    .arg(quoted(scopeName, 60), quoted(table.raw(existing), 60), quoted(name, 60)));
            return;
        }
        if (existing == None) {
            scope.ids[k].set(*id, temp);
            m_result.order[k].push_back(temp);
            const auto [it, added] = scope.firstId[k].emplace(temp, *id);
            if (!added) {
                ++m_result.sameNameDefinitions[k];
                if (m_result.sameNameExamples.size() < 3)
                    m_result.sameNameExamples << QStringLiteral("%1 ids %2 and %3 are both %4")
                                                     .arg(element)
                                                     .arg(it->second)
                                                     .arg(*id)
                                                     .arg(quoted(name, 60));
            }
        }
    }

    const Scope* findScope(const QString& name) const
    {
        const auto it = m_scopes.find(name);
        return it == m_scopes.end() ? nullptr : &it->second;
    }

    static std::uint32_t lookup(const Scope* own, const Scope* global, Kind kind, std::uint64_t id)
    {
        const int k = static_cast<int>(kind);
        std::uint32_t temp = own ? own->ids[k].find(id) : None;
        if (temp == None && global)
            temp = global->ids[k].find(id);
        return temp;
    }

    void parseProfile()
    {
        const QString threadId = requiredAttribute(
            QLatin1StringView("thread"), QStringLiteral("profile"), QStringLiteral("thread=\"N.C.T.PID\""));
        if (!ok())
            return;
        ThreadKey key;
        const auto known = m_idKeys.find(threadId);
        if (known != m_idKeys.end()) {
            key = known->second;
        } else if (!parseThreadId(threadId, key)) {
            failAtTag(QStringLiteral(
                "<profile thread=%1> names a thread that no <thread> element declares, and the id is not N.C.T.PID")
                          .arg(quoted(threadId, 60)));
            return;
        }
        const std::size_t index = static_cast<std::size_t>(&threadFor(key) - m_result.threads.data());
        const Scope* own = findScope(threadId);
        const Scope* global = findScope(QStringLiteral("*"));
        Snapshot snapshot;
        readContent(
            [&](const QString& name) {
                if (name == QLatin1String("name")) {
                    snapshot.name = readText();
                } else if (name == QLatin1String("timestamp")) {
                    const Position at = m_elementStart;
                    const QString text = readText();
                    bool okTime = false;
                    snapshot.timestamp = text.trimmed().toLongLong(&okTime);
                    if (!okTime && ok())
                        fail(at,
                            QStringLiteral(
                                "<timestamp>%1</timestamp>: expected microseconds since the epoch as an integer")
                                .arg(text.left(40)));
                } else if (name == QLatin1String("interval_data")) {
                    parseIntervalData(snapshot, own, global, threadId, false);
                } else if (name == QLatin1String("atomic_data")) {
                    parseAtomicData(snapshot, own, global, threadId, false);
                } else {
                    unknownElement();
                }
            },
            [] {});
        if (ok())
            m_result.threads[index].snapshots.push_back(std::move(snapshot));
    }

    void parseDerivedEntity()
    {
        requiredAttribute(QLatin1StringView("id"), QStringLiteral("derivedentity"),
            QStringLiteral("id=\"total\", id=\"mean_all\", ..."));
        readContent([&](const QString&) { unknownElement(); }, [] {});
    }

    void parseDerivedProfile()
    {
        const QString element = m_stack.back();
        Derived derived;
        derived.entity = requiredAttribute(
            QLatin1StringView("derivedentity"), element, QStringLiteral("derivedentity=\"total\", \"mean_all\", ..."));
        if (!ok())
            return;
        const Scope* global = findScope(QStringLiteral("*"));
        readContent(
            [&](const QString& name) {
                if (name == QLatin1String("derivedinterval_data") || name == QLatin1String("interval_data"))
                    parseIntervalData(derived.data, nullptr, global, QStringLiteral("*"), true);
                else if (name == QLatin1String("derivedatomic_data") || name == QLatin1String("atomic_data"))
                    parseAtomicData(derived.data, nullptr, global, QStringLiteral("*"), true);
                else
                    unknownElement();
            },
            [] {});
        if (ok())
            m_result.derived.push_back(std::move(derived));
    }

    /// Splits a row into whitespace-separated tokens.
    static void tokenize(std::string_view line, std::vector<std::string_view>& tokens)
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

    void parseIntervalData(
        Snapshot& snapshot, const Scope* own, const Scope* global, const QString& threadId, bool derived)
    {
        const QString element = m_stack.back();
        if (snapshot.haveInterval) {
            failAtTag(QStringLiteral("a second <%1> in one profile: expected one").arg(element));
            return;
        }
        snapshot.haveInterval = true;
        const QStringView list = m_xml.attributes().value(QLatin1StringView("metrics"));
        if (list.isNull()) {
            failAtTag(QStringLiteral("<%1> without the attribute metrics: expected metrics=\"0 1 ...\" (the metric "
                                     "ids of the value columns)")
                          .arg(element));
            return;
        }
        for (const QStringView part : list.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            bool okId = false;
            const qulonglong id = part.toULongLong(&okId);
            const std::uint32_t temp = okId ? lookup(own, global, Kind::Metric, id) : None;
            if (temp == None) {
                failAtTag(okId ? QStringLiteral("unknown metric id %1 in <%2 metrics=%3>: no <metric id=\"%1\"> in "
                                                "the definitions for thread %4 or '*'")
                                     .arg(id)
                                     .arg(element, quoted(list, 60), quoted(threadId, 60))
                               : QStringLiteral("<%1 metrics=%2>: expected metric ids (non-negative integers)")
                                     .arg(element, quoted(list, 60)));
                return;
            }
            if (std::find(snapshot.metrics.begin(), snapshot.metrics.end(), temp) != snapshot.metrics.end()) {
                failAtTag(
                    QStringLiteral("<%1 metrics=%2> lists metric %3 twice").arg(element, quoted(list, 60)).arg(id));
                return;
            }
            snapshot.metrics.push_back(temp);
        }
        DataText& data = m_data;
        readData(data);
        if (!ok())
            return;
        const std::size_t k = snapshot.metrics.size();
        const std::size_t want = 3 + 2 * k;
        IntervalRow& row = snapshot.row;
        const auto lines = static_cast<std::size_t>(std::count(data.text.begin(), data.text.end(), '\n')) + 1;
        row.events.reserve(lines);
        row.calls.reserve(lines);
        row.subrs.reserve(lines);
        row.excl.reserve(lines * k);
        row.incl.reserve(lines * k);
        double values[2];
        forEachRow(data, [&](std::size_t offset) {
            if (m_tokens.size() != want) {
                fail(data.positionOf(offset),
                    QStringLiteral("expected %1 numbers in a row of <%2> (event id, calls, subrs, then exclusive "
                                   "and inclusive for each of the %3 metric(s)), found %4")
                        .arg(want)
                        .arg(element)
                        .arg(k)
                        .arg(m_tokens.size()));
                return;
            }
            std::uint64_t id = 0;
            if (!parseUnsigned(m_tokens[0], id)) {
                fail(data.positionOf(offset),
                    QStringLiteral("expected an event id (a non-negative integer) in <%1>, found %2")
                        .arg(element, quoted(m_tokens[0], 60)));
                return;
            }
            const std::uint32_t temp = lookup(own, global, Kind::Event, id);
            if (temp == None) {
                fail(data.positionOf(offset),
                    QStringLiteral(
                        "unknown event id %1 in <%2>: no <event id=\"%1\"> in the definitions for thread %3%4")
                        .arg(id)
                        .arg(element, quoted(threadId, 60), own ? QStringLiteral(" or '*'") : QString()));
                return;
            }
            static const char* const fieldNames[] = { "calls", "subrs", "exclusive", "inclusive" };
            for (int f = 0; f < 2; ++f) {
                if (!parseDouble(m_tokens[1 + f], values[f])) {
                    fail(data.positionOf(offset),
                        QStringLiteral("expected a number for %1 of event %2, found %3")
                            .arg(QLatin1String(fieldNames[f]))
                            .arg(id)
                            .arg(quoted(m_tokens[1 + f], 60)));
                    return;
                }
            }
            const std::size_t base = row.excl.size();
            row.excl.resize(base + k);
            row.incl.resize(base + k);
            bool negative = values[0] < 0 || values[1] < 0;
            for (std::size_t c = 0; c < k; ++c) {
                for (int f = 0; f < 2; ++f) {
                    double v = 0;
                    const std::string_view token = m_tokens[3 + 2 * c + static_cast<std::size_t>(f)];
                    if (!parseDouble(token, v)) {
                        fail(data.positionOf(offset),
                            QStringLiteral("expected a number for %1 (metric column %2) of event %3, found %4")
                                .arg(QLatin1String(fieldNames[2 + f]))
                                .arg(c)
                                .arg(id)
                                .arg(quoted(token, 60)));
                        return;
                    }
                    (f == 0 ? row.excl : row.incl)[base + c] = v;
                    negative = negative || v < 0;
                }
            }
            if (derived) {
                // A negative count in a derived row means "unknown" (docs/FORMATS.md 4.3).
                for (double& v : values)
                    if (v < 0)
                        v = std::numeric_limits<double>::quiet_NaN();
            } else if (negative) {
                if (m_result.negativeValues++ == 0)
                    m_result.firstNegative = QStringLiteral("%1:%2 (event id %3, thread %4)")
                                                 .arg(QFileInfo(m_result.path).fileName())
                                                 .arg(data.positionOf(offset).line)
                                                 .arg(id)
                                                 .arg(quoted(threadId, 60));
            }
            row.events.push_back(EventId(temp));
            row.calls.push_back(values[0]);
            row.subrs.push_back(values[1]);
        });
    }

    void parseAtomicData(
        Snapshot& snapshot, const Scope* own, const Scope* global, const QString& threadId, bool derived)
    {
        const QString element = m_stack.back();
        if (snapshot.haveAtomic) {
            failAtTag(QStringLiteral("a second <%1> in one profile: expected one").arg(element));
            return;
        }
        snapshot.haveAtomic = true;
        DataText& data = m_data;
        readData(data);
        if (!ok())
            return;
        AtomicRow& row = snapshot.atomicRow;
        forEachRow(data, [&](std::size_t offset) {
            if (m_tokens.size() != 6) {
                fail(data.positionOf(offset),
                    QStringLiteral("expected 6 numbers in a row of <%1> (user event id, numevents, max, min, mean, "
                                   "sumsqr), found %2")
                        .arg(element)
                        .arg(m_tokens.size()));
                return;
            }
            std::uint64_t id = 0;
            if (!parseUnsigned(m_tokens[0], id)) {
                fail(data.positionOf(offset),
                    QStringLiteral("expected a user event id (a non-negative integer) in <%1>, found %2")
                        .arg(element, quoted(m_tokens[0], 60)));
                return;
            }
            const std::uint32_t temp = lookup(own, global, Kind::Atomic, id);
            if (temp == None) {
                fail(data.positionOf(offset),
                    QStringLiteral("unknown user event id %1 in <%2>: no <userevent id=\"%1\"> in the definitions "
                                   "for thread %3%4")
                        .arg(id)
                        .arg(element, quoted(threadId, 60), own ? QStringLiteral(" or '*'") : QString()));
                return;
            }
            static const char* const fieldNames[] = { "numevents", "max", "min", "mean", "sumsqr" };
            double v[5];
            for (int f = 0; f < 5; ++f) {
                if (!parseDouble(m_tokens[1 + static_cast<std::size_t>(f)], v[f])) {
                    fail(data.positionOf(offset),
                        QStringLiteral("expected a number for %1 of user event %2, found %3")
                            .arg(QLatin1String(fieldNames[f]))
                            .arg(id)
                            .arg(quoted(m_tokens[1 + static_cast<std::size_t>(f)], 60)));
                    return;
                }
            }
            if (derived && v[0] < 0)
                v[0] = std::numeric_limits<double>::quiet_NaN();
            row.events.push_back(AtomicEventId(temp));
            row.count.push_back(v[0]);
            row.max.push_back(v[1]); // max before min in the file (docs/FORMATS.md 4.2)
            row.min.push_back(v[2]);
            row.mean.push_back(v[3]);
            row.sumSquares.push_back(v[4]);
        });
    }

    SnapshotStream& m_stream;
    Shared& m_shared;
    Progress& m_progress;
    StreamResult& m_result;
    QXmlStreamReader m_xml;
    std::vector<QString> m_stack;
    Position m_tokenStart;
    Position m_elementStart; // where the last start tag began
    Token m_lastToken = Token::NoToken;
    Position m_failPosition;
    bool m_failAtEnd = false;
    std::uint64_t m_tokenCount = 0;
    std::map<QString, Scope> m_scopes;
    std::map<QString, ThreadKey> m_idKeys;
    std::map<ThreadKey, std::size_t> m_threadIndex;
    std::vector<std::string_view> m_tokens;
    DataText m_data; // reused: one data element at a time
    bool m_warnedText = false;
    bool m_warnedNameless = false;
};

void parseInput(const QString& path, Shared& shared, Progress& progress, StreamResult& result)
{
    result.path = path;
    SnapshotStream stream(path, SnapshotStream::Mode::Wrapped, &progress);
    const QString openError = stream.start();
    if (!openError.isNull()) {
        result.failed = true;
        result.error = ReadError { path, 0, -1, openError };
        return;
    }
    StreamParser parser(stream, shared, progress, result);
    parser.run();
    if (result.failed) {
        parser.locateFailure();
        return;
    }
    if (stream.cutShort())
        result.warnings << QStringLiteral(
            "%1: the gzip stream is cut short after the last fragment (no end marker, so no checksum was verified)")
                               .arg(path);
    if (stream.trailingBytes() > 0)
        result.warnings << QStringLiteral("%1: %2 byte(s) of non-gzip data after the compressed stream were ignored")
                               .arg(path)
                               .arg(stream.trailingBytes());
}

/// TAU's merged file in a directory (tauprofile.xml, else tauprofile.xml.gz), or an empty string.
QString mergedFileIn(const QDir& dir)
{
    for (const char* name : { "tauprofile.xml", "tauprofile.xml.gz" })
        if (QFileInfo(dir.filePath(QLatin1String(name))).isFile())
            return dir.filePath(QLatin1String(name));
    return {};
}

std::vector<QString> listSnapshots(const QDir& dir)
{
    std::vector<std::pair<ThreadKey, QString>> found;
    for (const QString& name : dir.entryList({ QStringLiteral("snapshot.*") }, QDir::Files | QDir::Readable)) {
        ThreadKey key;
        if (SnapshotReader::parseSnapshotFileName(name, key))
            found.emplace_back(key, dir.filePath(name));
    }
    std::sort(found.begin(), found.end());
    std::vector<QString> files;
    for (auto& f : found)
        files.push_back(std::move(f.second));
    return files;
}

/// A snapshot's rows with trial ids, metric-major over all `metricCount` metrics; a metric the
/// snapshot has no column for gets `missing`.
IntervalRow finalRow(const Snapshot& s, const std::vector<EventId>& events, const std::vector<MetricId>& metrics,
    std::size_t metricCount, double missing, std::size_t& missingCells)
{
    IntervalRow out;
    const std::size_t n = s.row.events.size();
    const std::size_t k = s.metrics.size();
    out.events.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        out.events[i] = events[s.row.events[i].index()];
    out.calls = s.row.calls;
    out.subrs = s.row.subrs;
    out.excl.assign(metricCount * n, missing);
    out.incl.assign(metricCount * n, missing);
    for (std::size_t c = 0; c < k; ++c) {
        const std::size_t m = metrics[s.metrics[c]].index();
        for (std::size_t i = 0; i < n; ++i) {
            out.excl[m * n + i] = s.row.excl[i * k + c];
            out.incl[m * n + i] = s.row.incl[i * k + c];
        }
    }
    missingCells += (metricCount - k) * n;
    return out;
}

/// The same, taking the snapshot's vectors over when the layouts agree (one metric column).
IntervalRow finalRow(Snapshot&& s, const std::vector<EventId>& events, const std::vector<MetricId>& metrics,
    std::size_t metricCount, std::size_t& missingCells)
{
    if (metricCount != 1 || s.metrics.size() != 1)
        return finalRow(s, events, metrics, metricCount, 0.0, missingCells);
    IntervalRow out;
    out.events = std::move(s.row.events);
    for (auto& e : out.events)
        e = events[e.index()];
    out.calls = std::move(s.row.calls);
    out.subrs = std::move(s.row.subrs);
    out.excl = std::move(s.row.excl);
    out.incl = std::move(s.row.incl);
    return out;
}

AtomicRow finalAtomicRow(Snapshot&& s, const std::vector<AtomicEventId>& atomics)
{
    AtomicRow out = std::move(s.atomicRow);
    for (auto& e : out.events)
        e = atomics[e.index()];
    return out;
}

AtomicRow finalAtomicRow(const Snapshot& s, const std::vector<AtomicEventId>& atomics)
{
    AtomicRow out = s.atomicRow;
    for (auto& e : out.events)
        e = atomics[e.index()];
    return out;
}

/// Counts the cells whose id occurs earlier in the row (TrialBuilder sums or pools them).
template <typename Id>
std::size_t countRepeats(const std::vector<Id>& ids, std::vector<std::uint32_t>& stamp, std::uint32_t& current)
{
    ++current;
    std::size_t repeats = 0;
    for (const Id id : ids) {
        if (id.index() >= stamp.size())
            stamp.resize(id.index() + 1, 0);
        if (stamp[id.index()] == current)
            ++repeats;
        stamp[id.index()] = current;
    }
    return repeats;
}

/// The first cell of each id, and whether the id occurs more than once.
template <typename Id> std::vector<std::pair<std::size_t, bool>> firstCells(const std::vector<Id>& ids)
{
    std::map<Id, std::size_t> first;
    std::vector<std::pair<std::size_t, bool>> cells;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const auto [it, added] = first.emplace(ids[i], cells.size());
        if (added)
            cells.emplace_back(i, false);
        else
            cells[it->second].second = true;
    }
    return cells;
}

/// In a provided statistics row, an event given twice (two definitions with one name) has no single
/// value: one cell stays, with NaN values. Returns the events concerned.
std::vector<EventId> blankRepeats(IntervalRow& row, std::size_t metricCount)
{
    const auto cells = firstCells(row.events);
    std::vector<EventId> blanked;
    if (cells.size() == row.events.size())
        return blanked;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::size_t n = row.events.size();
    const std::size_t m = cells.size();
    IntervalRow out;
    out.excl.resize(metricCount * m);
    out.incl.resize(metricCount * m);
    for (std::size_t j = 0; j < m; ++j) {
        const auto [i, repeated] = cells[j];
        out.events.push_back(row.events[i]);
        out.calls.push_back(repeated ? nan : row.calls[i]);
        out.subrs.push_back(repeated ? nan : row.subrs[i]);
        for (std::size_t metric = 0; metric < metricCount; ++metric) {
            out.excl[metric * m + j] = repeated ? nan : row.excl[metric * n + i];
            out.incl[metric * m + j] = repeated ? nan : row.incl[metric * n + i];
        }
        if (repeated)
            blanked.push_back(row.events[i]);
    }
    row = std::move(out);
    return blanked;
}

std::vector<AtomicEventId> blankRepeats(AtomicRow& row)
{
    const auto cells = firstCells(row.events);
    std::vector<AtomicEventId> blanked;
    if (cells.size() == row.events.size())
        return blanked;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    AtomicRow out;
    for (const auto& [i, repeated] : cells) {
        out.events.push_back(row.events[i]);
        out.count.push_back(repeated ? nan : row.count[i]);
        out.max.push_back(repeated ? nan : row.max[i]);
        out.min.push_back(repeated ? nan : row.min[i]);
        out.mean.push_back(repeated ? nan : row.mean[i]);
        out.sumSquares.push_back(repeated ? nan : row.sumSquares[i]);
        if (repeated)
            blanked.push_back(row.events[i]);
    }
    row = std::move(out);
    return blanked;
}

} // namespace

bool SnapshotReader::parseSnapshotFileName(const QString& fileName, ThreadKey& key)
{
    if (!fileName.startsWith(QLatin1String("snapshot.")))
        return false;
    const QStringList parts = fileName.mid(9).split(QLatin1Char('.'));
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

int SnapshotReader::derivedThreadId(const QString& entity)
{
    static const std::pair<const char*, int> ids[]
        = { { "mean_no_null", -1 }, { "total", -2 }, { "stddev_no_null", -3 }, { "min_no_null", -4 },
              { "max_no_null", -5 }, { "mean_all", -6 }, { "stddev_all", -7 } };
    for (const auto& [name, id] : ids)
        if (entity == QLatin1String(name))
            return id;
    return 0;
}

int SnapshotReader::sniff(const QString& path) const
{
    const QFileInfo info(path);
    ThreadKey key;
    if (info.isDir()) {
        for (const QString& name : QDir(path).entryList({ QStringLiteral("snapshot.*") }, QDir::Files))
            if (parseSnapshotFileName(name, key))
                return 100;
        const QString merged = mergedFileIn(QDir(path));
        return merged.isEmpty() ? 0 : sniff(merged);
    }
    if (!info.isFile())
        return 0;
    const bool named = parseSnapshotFileName(info.fileName(), key) || info.fileName() == QLatin1String("tauprofile.xml")
        || info.fileName() == QLatin1String("tauprofile.xml.gz");
    // One of the first 10 lines (gzip-transparent) starts with <profile_xml> (docs/FORMATS.md 4.1).
    SnapshotStream raw(path, SnapshotStream::Mode::Raw, nullptr);
    if (raw.start().isNull()) {
        QByteArray head(4096, '\0');
        qint64 got = 0;
        while (got < head.size()) {
            const qint64 n = raw.read(head.data() + got, head.size() - got);
            if (n <= 0)
                break;
            got += n;
        }
        head.truncate(got);
        const QList<QByteArray> lines = head.split('\n');
        for (qsizetype i = 0; i < std::min<qsizetype>(10, lines.size()); ++i) {
            QByteArray line = lines[i];
            line.replace('\0', QByteArray());
            if (line.startsWith("\xEF\xBB\xBF"))
                line.remove(0, 3);
            line = line.trimmed();
            if (line.startsWith("<?xml")) {
                const qsizetype end = line.indexOf("?>");
                line = end >= 0 ? line.mid(end + 2).trimmed() : QByteArray();
            }
            if (line.startsWith("<profile_xml>") || line.startsWith("<profile_xml ") || line == "<profile_xml")
                return 100;
        }
    }
    return named ? 50 : 0; // named like one: let read() say what is wrong
}

TrialResult SnapshotReader::read(const QString& inputPath, const ReadOptions& options, Progress& progress) const
{
    QFileInfo info(inputPath);
    QString path = inputPath;
    ThreadKey fileKey;
    if (info.isFile() && parseSnapshotFileName(info.fileName(), fileKey)) {
        path = info.absolutePath(); // a snapshot file stands for its whole directory, as profile.N.C.T does
        info = QFileInfo(path);
    }
    std::vector<QString> files;
    if (info.isDir() && listSnapshots(QDir(path)).empty() && !mergedFileIn(QDir(path)).isEmpty()) {
        path = mergedFileIn(QDir(path)); // a directory holding one merged file stands for it
        info = QFileInfo(path);
    }
    if (info.isDir()) {
        files = listSnapshots(QDir(path));
        if (files.empty())
            return ReadError { path, 0, -1,
                QStringLiteral("no TAU snapshot files here: expected files named snapshot.N.C.T (N, C, T non-negative "
                               "integers)") };
    } else if (info.isFile()) {
        files.push_back(path);
    } else {
        return ReadError { path, 0, -1, QStringLiteral("no such file or directory") };
    }

    qint64 totalBytes = 0;
    for (const QString& f : files)
        totalBytes += QFileInfo(f).size();
    progress.setStage(QStringLiteral("Reading TAU snapshot XML"), totalBytes);

    Shared shared;
    std::vector<StreamResult> results(files.size());
    std::atomic<std::size_t> nextFile { 0 };
    auto work = [&] {
        while (!progress.isCancelled()) {
            const std::size_t i = nextFile.fetch_add(1);
            if (i >= files.size())
                break;
            parseInput(files[i], shared, progress, results[i]);
        }
    };
    const int workers = std::max(1,
        std::min<int>(
            options.threads > 0 ? options.threads : QThread::idealThreadCount(), static_cast<int>(files.size())));
    std::vector<QFuture<void>> futures;
    for (int w = 1; w < workers; ++w)
        futures.push_back(QtConcurrent::run(work));
    work();
    for (auto& f : futures)
        f.waitForFinished();
    if (progress.isCancelled())
        return ReadError { path, 0, -1, QStringLiteral("cancelled") };

    // Unreadable inputs: fatal for a single file, in strict mode or when nothing is left; else skipped.
    QStringList warnings;
    std::vector<StreamResult*> good;
    QStringList reasons;
    for (auto& r : results) {
        if (!r.failed) {
            good.push_back(&r);
            continue;
        }
        if (files.size() == 1 || options.strict)
            return r.error;
        reasons << r.error.toString();
    }
    if (good.empty())
        return results.front().error;
    if (!reasons.isEmpty())
        warnings << QStringLiteral(
            "skipped %1 unreadable snapshot file(s); the trial has the threads of the other %2: %3")
                        .arg(reasons.size())
                        .arg(good.size())
                        .arg(reasons.mid(0, 10).join(QStringLiteral("; "))
                            + (reasons.size() > 10 ? QStringLiteral("; ...") : QString()));

    progress.setStage(QStringLiteral("Building the trial"), 0);
    TrialBuilder builder(info.fileName().isEmpty() ? path : info.fileName());

    // Trial ids follow the order of definition, input by input: deterministic however the inputs
    // were scheduled.
    std::vector<MetricId> metricIds(shared.metrics.size());
    std::vector<EventId> eventIds(shared.events.size());
    std::vector<AtomicEventId> atomicIds(shared.atomics.size());
    for (const StreamResult* r : good) {
        for (const std::uint32_t temp : r->order[0]) {
            if (metricIds[temp].isValid())
                continue;
            const QString& name = shared.metrics.entries()[temp].name;
            metricIds[temp] = builder.addMetric(Metric(
                name, name.toUpper().contains(QLatin1String("TIME")) ? QStringLiteral("us") : QStringLiteral("count")));
        }
        for (const std::uint32_t temp : r->order[1]) {
            if (eventIds[temp].isValid())
                continue;
            const auto& e = shared.events.entries()[temp];
            eventIds[temp] = builder.addEvent(e.name, e.groups, e.raw);
        }
        for (const std::uint32_t temp : r->order[2]) {
            if (!atomicIds[temp].isValid())
                atomicIds[temp]
                    = builder.addAtomicEvent(shared.atomics.entries()[temp].name, shared.atomics.entries()[temp].raw);
        }
    }
    std::size_t metricCount = 0;
    for (const MetricId m : metricIds)
        if (m.isValid())
            metricCount = std::max<std::size_t>(metricCount, m.index() + 1);

    // Threads: one per (node, context, thread) over all inputs.
    std::map<ThreadKey, std::pair<const StreamResult*, ThreadData*>> threads;
    for (StreamResult* r : good) {
        for (ThreadData& td : r->threads) {
            const auto [it, added] = threads.emplace(td.key, std::make_pair(static_cast<const StreamResult*>(r), &td));
            if (!added)
                return ReadError { r->path, 0, -1,
                    QStringLiteral("thread %1 is also in %2: each thread must come from one file")
                        .arg(td.key.toString(), it->second.first->path) };
        }
    }
    const bool series = std::any_of(
        threads.begin(), threads.end(), [](const auto& t) { return t.second.second->snapshots.size() > 1; });
    std::vector<IntervalRow> rows;
    std::vector<AtomicRow> atomicRows;
    rows.reserve(threads.size());
    atomicRows.reserve(threads.size());
    std::size_t missingMetricCells = 0;
    std::size_t intervalRepeats = 0;
    std::size_t atomicRepeats = 0;
    std::size_t emptyThreads = 0;
    std::vector<std::uint32_t> eventStamp;
    std::vector<std::uint32_t> atomicStamp;
    std::uint32_t eventCurrent = 0;
    std::uint32_t atomicCurrent = 0;
    for (const auto& [key, source] : threads) {
        const ThreadIndex t = builder.addThread(key);
        ThreadData& td = *source.second;
        for (const auto& [k, v] : td.metadata)
            builder.addThreadMetadata(t, k, v, td.contextKeys.contains(k));
        if (td.snapshots.empty()) {
            rows.emplace_back();
            atomicRows.emplace_back();
            ++emptyThreads;
            continue;
        }
        if (series) {
            std::vector<ProfileSnapshot> points;
            points.reserve(td.snapshots.size());
            for (const Snapshot& s : td.snapshots) {
                std::size_t ignored = 0;
                points.push_back({ s.name, s.timestamp, finalRow(s, eventIds, metricIds, metricCount, 0.0, ignored),
                    finalAtomicRow(s, atomicIds) });
            }
            builder.setTimeSeries(t, std::move(points));
        }
        // The last snapshot is the profile (docs/FORMATS.md 4.1).
        rows.push_back(finalRow(std::move(td.snapshots.back()), eventIds, metricIds, metricCount, missingMetricCells));
        atomicRows.push_back(finalAtomicRow(std::move(td.snapshots.back()), atomicIds));
        td.snapshots.clear();
        intervalRepeats += countRepeats(rows.back().events, eventStamp, eventCurrent);
        atomicRepeats += countRepeats(atomicRows.back().events, atomicStamp, atomicCurrent);
    }
    builder.setIntervalRows(std::move(rows));
    builder.setAtomicRows(std::move(atomicRows));

    // Derived blocks, as the file gives them (docs/FORMATS.md 4.3).
    std::vector<ProvidedStatistic> provided;
    std::set<QString> blankedNames;
    for (const StreamResult* r : good) {
        for (const Derived& d : r->derived) {
            ProvidedStatistic p;
            p.name = d.entity;
            p.derivedId = derivedThreadId(d.entity);
            std::size_t ignored = 0;
            p.row
                = finalRow(d.data, eventIds, metricIds, metricCount, std::numeric_limits<double>::quiet_NaN(), ignored);
            p.atomicRow = finalAtomicRow(d.data, atomicIds);
            for (const EventId e : blankRepeats(p.row, metricCount))
                blankedNames.insert(shared.events
                                        .entries()[static_cast<std::size_t>(
                                            std::find(eventIds.begin(), eventIds.end(), e) - eventIds.begin())]
                                        .name);
            for (const AtomicEventId e : blankRepeats(p.atomicRow))
                blankedNames.insert(shared.atomics
                                        .entries()[static_cast<std::size_t>(
                                            std::find(atomicIds.begin(), atomicIds.end(), e) - atomicIds.begin())]
                                        .name);
            auto same = std::find_if(
                provided.begin(), provided.end(), [&](const ProvidedStatistic& q) { return q.name == p.name; });
            if (same != provided.end()) {
                warnings << QStringLiteral("%1: the derived data '%2' is given more than once; the last one is kept")
                                .arg(r->path, p.name);
                *same = std::move(p);
            } else {
                provided.push_back(std::move(p));
            }
        }
    }
    if (threads.empty() && provided.empty())
        return ReadError { path, 0, -1,
            QStringLiteral("no thread profiles and no derived data: expected <profile> or <derivedprofile> elements") };
    for (auto& p : provided)
        builder.addProvidedStatistic(std::move(p));

    // Warnings, each once for the whole trial.
    std::map<QString, QString> unknown;
    std::size_t negative = 0;
    QString firstNegative;
    std::size_t sameName[3] = { 0, 0, 0 };
    QStringList sameNameExamples;
    for (const StreamResult* r : good) {
        warnings << r->warnings;
        unknown.insert(r->unknownElements.begin(), r->unknownElements.end());
        if (r->negativeValues > 0 && firstNegative.isEmpty())
            firstNegative = r->firstNegative;
        negative += r->negativeValues;
        for (int k = 0; k < 3; ++k)
            sameName[k] += r->sameNameDefinitions[k];
        if (sameNameExamples.size() < 3)
            sameNameExamples << r->sameNameExamples.mid(0, 3 - sameNameExamples.size());
    }
    for (const auto& [element, where] : unknown)
        warnings << QStringLiteral("unknown element <%1> skipped wherever it occurs (first at %2)").arg(element, where);
    if (sameName[1] + sameName[2] > 0)
        warnings << QStringLiteral("%1 event and %2 user event definition(s) repeat a name defined under another id; "
                                   "their data are merged by name (%3)")
                        .arg(sameName[1])
                        .arg(sameName[2])
                        .arg(sameNameExamples.join(QStringLiteral("; ")));
    if (intervalRepeats > 0)
        warnings << QStringLiteral(
            "%1 interval record(s) of events defined twice under one name were summed (calls, subrs, excl, incl)")
                        .arg(intervalRepeats);
    if (atomicRepeats > 0)
        warnings << QStringLiteral("%1 user event record(s) of events defined twice under one name were pooled (count, "
                                   "min, max, mean, sum of squares)")
                        .arg(atomicRepeats);
    if (!blankedNames.empty()) {
        QStringList names;
        for (const QString& n : blankedNames)
            names << QLatin1Char('\'') + n + QLatin1Char('\'');
        warnings << QStringLiteral(
            "the provided statistics of %1 are unknown (NaN): the file gives them per definition, not per name")
                        .arg(names.join(QStringLiteral(", ")));
    }
    if (negative > 0)
        warnings << QStringLiteral("%1 row(s) with negative values, kept as they are (first: %2)")
                        .arg(negative)
                        .arg(firstNegative);
    if (missingMetricCells > 0)
        warnings << QStringLiteral("%1 (thread, event) value(s) have no column for some metric; they are 0")
                        .arg(missingMetricCells);
    if (emptyThreads > 0)
        warnings << QStringLiteral("%1 thread(s) are declared without any profile; they are kept with no events")
                        .arg(emptyThreads);
    return finishRead(*this, ReadJob { path }, builder, warnings);
}

} // namespace parallax
