// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// gprof2dot DOT reader (docs/FORMATS.md 8: hatchet/gprof2dot-cpi; the format Hatchet's from_gprof_dot reads).
//
// What the model gets
// -------------------
// gprof2dot turns a profile (gprof, callgrind, perf, ...) into a Graphviz call graph whose labels
// carry the numbers, all of them percentages of the program's total time:
//   node  label "[process\n][module\n]name\ntotal%\n(self%)\ncalls×"
//   edge  label "total%\ncalls×"   (the time spent in the callee on behalf of this caller)
// * One thread (0,0,0); one metric "TIME (% of total)", unit "%": values stay the percentages as
//   written (the absolute times are not in the file).
// * Each node is a flat event named by the name line of its label (the node id when the label has
//   no text line), in groups TAU_DEFAULT and its module (the line before the name) if any:
//     excl = self %, incl = total %, calls = the "N×" line (0 without one),
//     subrs = the sum of the calls of its outgoing edges.
//   Two nodes with one name: the second is named "name [module]" (or "name [node id]"), with a
//   warning. A node whose label has no total % (not a gprof2dot label) becomes an event without a
//   cell (no data, rather than zeros), with a warning; a file where no node has one is refused.
// * Each edge is the call-path event "caller => callee" (groups TAU_DEFAULT, TAU_CALLPATH):
//     incl = the edge's total %, calls = its "N×" line, subrs = 0,
//     excl = the callee's self % x min(1, edge total % / callee total %): gprof2dot gives no self
//            value per edge, so the callee's self time is shared among its callers in proportion
//            to the inclusive time they account for (exact when the callee has one caller; the
//            same proportional attribution gprof itself uses). Recorded in the metadata.
//   Parallel edges between one pair of nodes are summed, with a warning.
// * Roots are the nodes without incoming edges from other nodes; the model derives them from the
//   call paths, and the metadata "gprof2dot roots" lists them in file order, with the node and
//   edge counts and the graph name.
//
// How the bytes are read
// ----------------------
// The file (plain or gzip) is read whole (gprof2dot graphs are small) and parsed by a tokenizer and
// recursive-descent parser for the standard DOT grammar: strict/graph/digraph, statements separated
// by ';' or nothing, node/edge/graph attribute statements, ID '=' ID, subgraphs (also anonymous
// '{...}' as edge operands), ports, edge chains, attribute lists with ',' or ';', IDs as names,
// numerals, double-quoted strings (\" escapes, backslash-newline continuation, '+' concatenation)
// and HTML strings <...>; comments //, /* */ and '#' lines. Label escapes \n \l \r break lines, \N
// is the node id, \G the graph name, \\ a backslash. Only the first graph of a file is read (a
// warning says when there are more). Errors name the line and byte offset and what was expected.

#include "datasource/readers/dotreader.h"

#include "datasource/model/trialbuilder.h"
#include "datasource/readers/gzipinput.h"
#include "datasource/readers/textnumber.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <vector>

namespace parallax {

namespace {

constexpr std::size_t ChunkSize = std::size_t { 256 } * 1024;
/// Larger DOT files are refused: gprof2dot writes kilobytes, Graphviz would not lay this out.
constexpr qint64 MaxBytes = qint64(1) << 30;
/// Subgraph nesting accepted (the parser recurses once per level).
constexpr int MaxDepth = 200;

// ---- tokens ------------------------------------------------------------------------------------

enum class Kind { End, Id, String, Html, Punct, EdgeOp };

struct Token {
    Kind kind = Kind::End;
    QString text;
    qint64 line = 1;
    qint64 offset = 0;
    bool isIdLike() const { return kind == Kind::Id || kind == Kind::String || kind == Kind::Html; }
    bool is(char c) const { return kind == Kind::Punct && text.size() == 1 && text[0] == QLatin1Char(c); }
    bool isKeyword(const char* word) const
    {
        return kind == Kind::Id && text.compare(QLatin1String(word), Qt::CaseInsensitive) == 0;
    }
    QString describe() const
    {
        switch (kind) {
        case Kind::End:
            return QStringLiteral("the end of the file");
        case Kind::String:
            return QStringLiteral("the string \"%1\"").arg(text.left(60));
        case Kind::Html:
            return QStringLiteral("an HTML string");
        default:
            return quoted(text, 60);
        }
    }
};

class Lexer {
public:
    explicit Lexer(const QByteArray& data)
        : m_data(data)
    {
        if (m_data.startsWith("\xEF\xBB\xBF"))
            m_pos = 3;
    }

    Token next()
    {
        skipSpaceAndComments();
        Token t;
        t.line = m_line;
        t.offset = m_pos;
        if (m_pos >= m_data.size())
            return t;
        const char c = m_data[m_pos];
        if (c == '"')
            return quotedString(t);
        if (c == '<')
            return html(t);
        if (c == '-' && m_pos + 1 < m_data.size() && (m_data[m_pos + 1] == '>' || m_data[m_pos + 1] == '-')) {
            t.kind = Kind::EdgeOp;
            t.text = QString::fromLatin1(m_data.constData() + m_pos, 2);
            m_pos += 2;
            return t;
        }
        if (c == '-' || c == '.' || isDigit(c))
            return numeral(t);
        if (isIdStart(c)) {
            const qsizetype begin = m_pos;
            while (m_pos < m_data.size() && (isIdStart(m_data[m_pos]) || isDigit(m_data[m_pos])))
                ++m_pos;
            t.kind = Kind::Id;
            t.text = QString::fromUtf8(m_data.constData() + begin, m_pos - begin);
            return t;
        }
        if (std::strchr("{}[];,=:+", c) && c != '\0') {
            t.kind = Kind::Punct;
            t.text = QString(QLatin1Char(c));
            ++m_pos;
            return t;
        }
        const QString shown = c >= 0x20 && c < 0x7f
            ? QString(QLatin1Char(c))
            : QStringLiteral("0x%1").arg(static_cast<unsigned char>(c), 2, 16, QLatin1Char('0'));
        throw ParseError {
            QStringLiteral(
                "unexpected character %1 (expected a DOT name, string, number or one of { } [ ] ; , = : -> --)")
                .arg(quoted(shown, 60)),
            m_line, m_pos
        };
    }

private:
    static bool isDigit(char c) { return c >= '0' && c <= '9'; }
    static bool isIdStart(char c)
    {
        const auto u = static_cast<unsigned char>(c);
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || u >= 0x80;
    }

    bool atLineStart() const
    {
        for (qsizetype i = m_pos - 1; i >= 0; --i) {
            if (m_data[i] == '\n')
                return true;
            if (m_data[i] != ' ' && m_data[i] != '\t' && m_data[i] != '\r')
                return false;
        }
        return true;
    }

    void skipSpaceAndComments()
    {
        const qsizetype n = m_data.size();
        while (m_pos < n) {
            const char c = m_data[m_pos];
            if (c == '\n') {
                ++m_line;
                ++m_pos;
            } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                ++m_pos;
            } else if ((c == '#' && atLineStart()) || (c == '/' && m_pos + 1 < n && m_data[m_pos + 1] == '/')) {
                // A '#' line (preprocessor output) or a '//' comment: up to the end of the line.
                while (m_pos < n && m_data[m_pos] != '\n')
                    ++m_pos;
            } else if (c == '/' && m_pos + 1 < n && m_data[m_pos + 1] == '*') {
                const qint64 line = m_line;
                const qint64 offset = m_pos;
                m_pos += 2;
                for (;;) {
                    if (m_pos + 1 >= n)
                        throw ParseError { QStringLiteral("the comment opened here is not closed (expected '*/')"),
                            line, offset };
                    if (m_data[m_pos] == '*' && m_data[m_pos + 1] == '/') {
                        m_pos += 2;
                        break;
                    }
                    if (m_data[m_pos] == '\n')
                        ++m_line;
                    ++m_pos;
                }
            } else {
                return;
            }
        }
    }

    Token quotedString(Token t)
    {
        const qsizetype n = m_data.size();
        QByteArray bytes;
        ++m_pos;
        for (;;) {
            if (m_pos >= n)
                throw ParseError { QStringLiteral("the string opened here is not closed (expected '\"')"), t.line,
                    t.offset };
            const char c = m_data[m_pos];
            if (c == '"') {
                ++m_pos;
                break;
            }
            if (c == '\\' && m_pos + 1 < n) {
                const char d = m_data[m_pos + 1];
                if (d == '"') {
                    bytes += '"';
                    m_pos += 2;
                    continue;
                }
                if (d == '\n' || (d == '\r' && m_pos + 2 < n && m_data[m_pos + 2] == '\n')) {
                    m_pos += d == '\n' ? 2 : 3; // line continuation
                    ++m_line;
                    continue;
                }
                bytes += c;
                bytes += d; // other escapes belong to the label syntax
                m_pos += 2;
                if (d == '\n')
                    ++m_line;
                continue;
            }
            if (c == '\n')
                ++m_line;
            bytes += c;
            ++m_pos;
        }
        t.kind = Kind::String;
        t.text = QString::fromUtf8(bytes);
        return t;
    }

    Token html(Token t)
    {
        const qsizetype n = m_data.size();
        const qsizetype begin = ++m_pos;
        int depth = 1;
        while (depth > 0) {
            if (m_pos >= n)
                throw ParseError { QStringLiteral("the HTML string opened here is not closed (expected '>')"), t.line,
                    t.offset };
            const char c = m_data[m_pos++];
            if (c == '<')
                ++depth;
            else if (c == '>')
                --depth;
            else if (c == '\n')
                ++m_line;
        }
        t.kind = Kind::Html;
        t.text = QString::fromUtf8(m_data.constData() + begin, m_pos - 1 - begin);
        return t;
    }

    Token numeral(Token t)
    {
        const qsizetype begin = m_pos;
        if (m_data[m_pos] == '-')
            ++m_pos;
        int digits = 0;
        bool dot = false;
        while (m_pos < m_data.size()) {
            const char c = m_data[m_pos];
            if (isDigit(c)) {
                ++digits;
            } else if (c == '.' && !dot) {
                dot = true;
            } else {
                break;
            }
            ++m_pos;
        }
        if (digits == 0)
            throw ParseError { QStringLiteral("expected a number after %1")
                                   .arg(quoted(QString::fromLatin1(m_data.constData() + begin, m_pos - begin), 60)),
                t.line, t.offset };
        t.kind = Kind::Id;
        t.text = QString::fromLatin1(m_data.constData() + begin, m_pos - begin);
        return t;
    }

    const QByteArray& m_data;
    qsizetype m_pos = 0;
    qint64 m_line = 1;
};

// ---- the graph ---------------------------------------------------------------------------------

using Attributes = QHash<QString, QString>;

struct Node {
    QString id;
    Attributes attrs;
    qint64 line = 0;
};

struct Edge {
    int from = 0;
    int to = 0;
    Attributes attrs;
    qint64 line = 0;
};

struct Graph {
    QString name;
    bool directed = true;
    Attributes attrs;
    std::vector<Node> nodes;
    QHash<QString, int> nodeIndex;
    std::vector<Edge> edges;
    bool moreGraphs = false;
};

struct Scope {
    Attributes node;
    Attributes edge;
};

class Parser {
public:
    Parser(const QByteArray& data, Progress& progress, qint64 maxEdges)
        : m_lexer(data)
        , m_progress(progress)
        , m_maxEdges(maxEdges)
    {
        advance();
    }

    Graph parse()
    {
        if (m_tok.isKeyword("strict"))
            advance();
        if (m_tok.isKeyword("digraph"))
            m_graph.directed = true;
        else if (m_tok.isKeyword("graph"))
            m_graph.directed = false;
        else
            fail(QStringLiteral("expected 'digraph' or 'graph' at the start of a DOT file"));
        advance();
        if (m_tok.isIdLike()) {
            m_graph.name = idValue();
        }
        const Token open = m_tok;
        expect('{', QStringLiteral("'{' opening the graph"));
        Scope scope;
        std::vector<int> members;
        statements(scope, members, 0, open);
        advance(); // '}'
        m_graph.moreGraphs = m_tok.kind != Kind::End;
        return std::move(m_graph);
    }

private:
    [[noreturn]] void fail(const QString& message) const
    {
        throw ParseError { message + QStringLiteral(", found ") + m_tok.describe(), m_tok.line, m_tok.offset };
    }

    void advance()
    {
        m_tok = m_lexer.next();
        if ((++m_count & 0xfff) == 0 && m_progress.isCancelled())
            throw Cancelled {};
    }

    void expect(char c, const QString& what)
    {
        if (!m_tok.is(c))
            fail(QStringLiteral("expected %1").arg(what));
        advance();
    }

    /// An ID, numeral, quoted string (with '+' concatenation) or HTML string; consumes it.
    QString idValue()
    {
        if (!m_tok.isIdLike())
            fail(QStringLiteral("expected a name, number or string"));
        QString value = m_tok.text;
        const bool string = m_tok.kind == Kind::String;
        advance();
        while (string && m_tok.is('+')) {
            advance();
            if (m_tok.kind != Kind::String)
                fail(QStringLiteral("expected a quoted string after '+'"));
            value += m_tok.text;
            advance();
        }
        return value;
    }

    bool isStatementKeyword() const
    {
        return m_tok.isKeyword("node") || m_tok.isKeyword("edge") || m_tok.isKeyword("graph");
    }

    void statements(Scope& scope, std::vector<int>& members, int depth, const Token& open)
    {
        while (!m_tok.is('}')) {
            if (m_tok.kind == Kind::End)
                throw ParseError { QStringLiteral(
                                       "the '{' opened here is not closed (expected '}' before the end of the file)"),
                    open.line, open.offset };
            statement(scope, members, depth);
            if (m_tok.is(';') || m_tok.is(','))
                advance();
        }
    }

    void statement(Scope& scope, std::vector<int>& members, int depth)
    {
        if (isStatementKeyword()) {
            const QString keyword = m_tok.text.toLower();
            advance();
            if (!m_tok.is('['))
                fail(QStringLiteral("expected '[' after '%1'").arg(keyword));
            const Attributes attrs = attributeLists();
            Attributes& target = keyword == QLatin1String("node") ? scope.node
                : keyword == QLatin1String("edge")                ? scope.edge
                                                                  : m_scratch;
            if (keyword == QLatin1String("graph") && depth == 0)
                mergeInto(m_graph.attrs, attrs);
            else
                mergeInto(target, attrs);
            return;
        }
        if (m_tok.is('{') || m_tok.isKeyword("subgraph")) {
            std::vector<int> operand = subgraph(scope, depth);
            members.insert(members.end(), operand.begin(), operand.end());
            if (m_tok.kind == Kind::EdgeOp)
                edges(std::move(operand), scope, members, depth);
            return;
        }
        if (!m_tok.isIdLike() || (m_tok.kind == Kind::Id && (m_tok.isKeyword("digraph") || m_tok.isKeyword("strict"))))
            fail(QStringLiteral("expected a statement (a node, an edge, an attribute or a subgraph)"));
        const Token first = m_tok;
        const QString id = idValue();
        if (m_tok.is('=')) {
            advance();
            const QString value = idValue();
            if (depth == 0)
                m_graph.attrs.insert(id, value);
            return;
        }
        port();
        const int node = ensureNode(id, scope, first.line);
        members.push_back(node);
        if (m_tok.kind == Kind::EdgeOp) {
            edges({ node }, scope, members, depth);
            return;
        }
        if (m_tok.is('['))
            mergeInto(m_graph.nodes[static_cast<std::size_t>(node)].attrs, attributeLists());
    }

    void port()
    {
        for (int i = 0; i < 2 && m_tok.is(':'); ++i) {
            advance();
            idValue();
        }
    }

    std::vector<int> subgraph(const Scope& outer, int depth)
    {
        if (depth + 1 > MaxDepth)
            fail(QStringLiteral("subgraphs nested more than %1 deep (expected a flatter graph)").arg(MaxDepth));
        if (m_tok.isKeyword("subgraph")) {
            advance();
            if (m_tok.isIdLike())
                idValue();
        }
        const Token open = m_tok;
        expect('{', QStringLiteral("'{' opening the subgraph"));
        Scope scope = outer;
        std::vector<int> members;
        statements(scope, members, depth + 1, open);
        advance(); // '}'
        std::sort(members.begin(), members.end());
        members.erase(std::unique(members.begin(), members.end()), members.end());
        return members;
    }

    void edges(std::vector<int> left, const Scope& scope, std::vector<int>& members, int depth)
    {
        std::vector<std::vector<int>> chain;
        chain.push_back(std::move(left));
        const qint64 line = m_tok.line;
        while (m_tok.kind == Kind::EdgeOp) {
            advance();
            if (m_tok.is('{') || m_tok.isKeyword("subgraph")) {
                chain.push_back(subgraph(scope, depth));
            } else {
                const Token first = m_tok;
                const QString id = idValue();
                port();
                chain.push_back({ ensureNode(id, scope, first.line) });
            }
            members.insert(members.end(), chain.back().begin(), chain.back().end());
        }
        Attributes attrs = scope.edge;
        if (m_tok.is('['))
            mergeInto(attrs, attributeLists());
        for (std::size_t k = 1; k < chain.size(); ++k)
            for (int a : chain[k - 1])
                for (int b : chain[k]) {
                    if (static_cast<qint64>(m_graph.edges.size()) >= m_maxEdges)
                        throw ParseError { QStringLiteral(
                                               "more than %1 edges (expected a call graph of this file's size)")
                                               .arg(m_maxEdges),
                            line, -1 };
                    m_graph.edges.push_back({ a, b, attrs, line });
                }
    }

    Attributes attributeLists()
    {
        Attributes attrs;
        while (m_tok.is('[')) {
            advance();
            while (!m_tok.is(']')) {
                const QString key = idValue();
                QString value = QStringLiteral("true");
                if (m_tok.is('=')) {
                    advance();
                    value = idValue();
                }
                attrs.insert(key, value);
                if (m_tok.is(',') || m_tok.is(';'))
                    advance();
            }
            advance(); // ']'
        }
        return attrs;
    }

    static void mergeInto(Attributes& target, const Attributes& attrs)
    {
        for (auto it = attrs.cbegin(); it != attrs.cend(); ++it)
            target.insert(it.key(), it.value());
    }

    int ensureNode(const QString& id, const Scope& scope, qint64 line)
    {
        const auto it = m_graph.nodeIndex.constFind(id);
        if (it != m_graph.nodeIndex.cend())
            return it.value();
        const int index = static_cast<int>(m_graph.nodes.size());
        m_graph.nodes.push_back({ id, scope.node, line });
        m_graph.nodeIndex.insert(id, index);
        return index;
    }

    Lexer m_lexer;
    Progress& m_progress;
    qint64 m_maxEdges;
    Token m_tok;
    qint64 m_count = 0;
    Graph m_graph;
    Attributes m_scratch;
};

// ---- labels ------------------------------------------------------------------------------------

/// The lines of a label, with the escapes \n \l \r (line breaks), \N, \G and \\ resolved.
QStringList labelLines(const QString& label, const QString& nodeId, const QString& graphName)
{
    QStringList lines;
    QString current;
    for (qsizetype i = 0; i < label.size(); ++i) {
        const QChar c = label[i];
        if (c == QLatin1Char('\n')) {
            lines << current;
            current.clear();
            continue;
        }
        if (c != QLatin1Char('\\') || i + 1 >= label.size()) {
            current += c;
            continue;
        }
        const QChar d = label[++i];
        if (d == QLatin1Char('n') || d == QLatin1Char('l') || d == QLatin1Char('r')) {
            lines << current;
            current.clear();
        } else if (d == QLatin1Char('N')) {
            current += nodeId;
        } else if (d == QLatin1Char('G')) {
            current += graphName;
        } else {
            current += d;
        }
    }
    if (!current.isEmpty() || lines.isEmpty())
        lines << current;
    return lines;
}

/// textnumber::parseDouble on a label's digits; finite values only.
bool decimal(QStringView n, double& value)
{
    const QByteArray text = n.toLatin1();
    const auto parsed
        = textnumber::parseDouble(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    if (!parsed || !std::isfinite(*parsed))
        return false;
    value = *parsed;
    return true;
}

/// "12.5%" -> 12.5.
bool percent(QStringView s, double& value)
{
    if (!s.endsWith(QLatin1Char('%')) || s.size() < 2)
        return false;
    const QStringView n = s.chopped(1);
    for (QChar c : n)
        if (!(c.isDigit() || c == QLatin1Char('.')))
            return false;
    return decimal(n, value);
}

/// "300021×" -> 300021 (also "x", and U+FFFD for a Latin-1 "×" read as UTF-8).
bool callCount(QStringView s, double& value)
{
    if (s.size() < 2)
        return false;
    const QChar last = s.back();
    if (last != QChar(0x00D7) && last != QLatin1Char('x') && last != QChar(QChar::ReplacementCharacter))
        return false;
    const QStringView n = s.chopped(1);
    for (QChar c : n)
        if (!c.isDigit())
            return false;
    return decimal(n, value);
}

struct Values {
    bool hasTotal = false;
    bool hasSelf = false;
    bool hasCalls = false;
    double total = 0;
    double self = 0;
    double calls = 0;
    int unknown = 0;
};

/// Splits label lines into text lines (before the first value line) and values.
Values labelValues(const QStringList& lines, QStringList& text)
{
    Values v;
    bool inValues = false;
    for (const QString& raw : lines) {
        const QStringView line = QStringView(raw).trimmed();
        double x = 0;
        if (!v.hasSelf && line.startsWith(QLatin1Char('(')) && line.endsWith(QLatin1Char(')'))
            && percent(line.mid(1, line.size() - 2), x)) {
            v.hasSelf = true;
            v.self = x;
            inValues = true;
        } else if (!v.hasTotal && percent(line, x)) {
            v.hasTotal = true;
            v.total = x;
            inValues = true;
        } else if (!v.hasCalls && callCount(line, x)) {
            v.hasCalls = true;
            v.calls = x;
            inValues = true;
        } else if (inValues) {
            ++v.unknown;
        } else {
            text << line.toString();
        }
    }
    return v;
}

QString safeName(QString name)
{
    name.replace(QLatin1String("=>"), QLatin1String("= >"));
    // A byte-order mark inside a label is no part of a name, and the canonical call-path form
    // would not keep it the same in "a => name" and "name" (the fuzzer found one).
    name.remove(QChar(0xFEFF));
    return name.trimmed();
}

QString listed(const QStringList& names, int max = 10)
{
    QStringList shown;
    for (const QString& n : names.mid(0, max))
        shown << quoted(n, 60);
    return shown.join(QStringLiteral(", ")) + (names.size() > max ? QStringLiteral(", ...") : QString());
}

void buildTrial(const Graph& g, TrialBuilder& builder, QStringList& warnings)
{
    const std::size_t n = g.nodes.size();
    std::vector<Values> values(n);
    std::vector<QString> names(n);
    std::vector<QString> modules(n);
    QHash<QString, int> byName;
    QStringList renamed;
    QStringList valueless;
    QStringList noSelf;
    int unknownLines = 0;
    const Node* firstNode = n > 0 ? &g.nodes.front() : nullptr;
    for (std::size_t i = 0; i < n; ++i) {
        const Node& node = g.nodes[i];
        const QString label = node.attrs.value(QStringLiteral("label"), QStringLiteral("\\N"));
        QStringList text;
        values[i] = labelValues(labelLines(label, node.id, g.name), text);
        unknownLines += values[i].unknown;
        QString name = text.isEmpty() || text.back().trimmed().isEmpty() ? node.id : text.back();
        if (text.size() >= 2)
            modules[i] = text[text.size() - 2].trimmed();
        name = safeName(name);
        if (name.isEmpty())
            name = QStringLiteral("(node %1)").arg(i);
        if (byName.contains(name)) {
            const QString first = name;
            name = QStringLiteral("%1 [%2]").arg(first, modules[i].isEmpty() ? safeName(node.id) : modules[i]);
            for (int k = 2; byName.contains(name); ++k)
                name = QStringLiteral("%1 [%2] #%3")
                           .arg(first, modules[i].isEmpty() ? safeName(node.id) : modules[i])
                           .arg(k);
            renamed << name;
        }
        byName.insert(name, static_cast<int>(i));
        names[i] = name;
        if (!values[i].hasTotal)
            valueless << names[i];
        else if (!values[i].hasSelf)
            noSelf << names[i];
    }
    if (n == 0 || valueless.size() == static_cast<qsizetype>(n))
        throw ParseError {
            QStringLiteral("no node label in gprof2dot form 'name\\ntotal%\\n(self%)\\ncalls×'%1")
                .arg(firstNode
                        ? QStringLiteral(" (the first node, %1, has the label %2)")
                              .arg(quoted(firstNode->id, 60),
                                  quoted(firstNode->attrs.value(QStringLiteral("label"), QStringLiteral("\\N")), 60))
                        : QStringLiteral(" (the graph has no nodes)")),
            firstNode ? firstNode->line : 0, -1
        };

    // Edges: merge parallel ones, find the roots and the callers' subrs.
    struct EdgeValue {
        bool hasTotal = false;
        double total = 0;
        double calls = 0;
        int count = 0;
    };
    std::map<std::pair<int, int>, EdgeValue> edges;
    std::vector<bool> called(n, false);
    std::vector<double> subrs(n, 0.0);
    int edgesWithout = 0;
    for (const Edge& e : g.edges) {
        QStringList text;
        const Values v = labelValues(labelLines(e.attrs.value(QStringLiteral("label")), QString(), g.name), text);
        EdgeValue& ev = edges[{ e.from, e.to }];
        ++ev.count;
        if (!v.hasTotal)
            ++edgesWithout;
        ev.hasTotal = ev.hasTotal || v.hasTotal;
        ev.total += v.total;
        ev.calls += v.calls;
        subrs[static_cast<std::size_t>(e.from)] += v.calls;
        if (e.from != e.to)
            called[static_cast<std::size_t>(e.to)] = true;
    }

    const QStringList defaultGroup { QStringLiteral("TAU_DEFAULT") };
    const QStringList pathGroups { QStringLiteral("TAU_DEFAULT"), QStringLiteral("TAU_CALLPATH") };
    const ThreadIndex t = builder.addThread({ 0, 0, 0 });
    QStringList roots;
    for (std::size_t i = 0; i < n; ++i) {
        QStringList groups = defaultGroup;
        if (!modules[i].isEmpty())
            groups << modules[i];
        const EventId id = builder.addEvent(names[i], groups);
        if (!called[i])
            roots << names[i];
        const Values& v = values[i];
        if (!v.hasTotal)
            continue;
        const double excl[] = { v.self };
        const double incl[] = { v.total };
        builder.addInterval(t, id, v.calls, subrs[i], excl, incl);
    }
    int parallel = 0;
    for (const auto& [key, ev] : edges) {
        if (ev.count > 1)
            ++parallel;
        const EventId id = builder.addEvent(names[static_cast<std::size_t>(key.first)] + QStringLiteral(" => ")
                + names[static_cast<std::size_t>(key.second)],
            pathGroups);
        if (!ev.hasTotal)
            continue;
        const Values& callee = values[static_cast<std::size_t>(key.second)];
        const double share = callee.total > 0 ? std::min(1.0, ev.total / callee.total) : 0.0;
        const double excl[] = { callee.self * share };
        const double incl[] = { ev.total };
        builder.addInterval(t, id, ev.calls, 0.0, excl, incl);
    }

    builder.addMetadata(QStringLiteral("gprof2dot nodes"), QString::number(n));
    builder.addMetadata(QStringLiteral("gprof2dot edges"), QString::number(g.edges.size()));
    builder.addMetadata(QStringLiteral("gprof2dot roots"), roots.join(QStringLiteral(", ")));
    if (!g.name.isEmpty())
        builder.addMetadata(QStringLiteral("gprof2dot graph name"), g.name);
    builder.addMetadata(QStringLiteral("gprof2dot edge exclusive"),
        QStringLiteral("estimated: callee self % x min(1, edge total % / callee total %)"));

    if (!renamed.isEmpty())
        warnings << QStringLiteral("%1 node(s) repeat the name of an earlier node and were renamed: %2")
                        .arg(renamed.size())
                        .arg(listed(renamed));
    if (!valueless.isEmpty())
        warnings << QStringLiteral("%1 node(s) have no 'total%' line in their label; they are events without data: %2")
                        .arg(valueless.size())
                        .arg(listed(valueless));
    if (!noSelf.isEmpty())
        warnings << QStringLiteral("%1 node(s) have no '(self%)' line in their label; their exclusive value is 0: %2")
                        .arg(noSelf.size())
                        .arg(listed(noSelf));
    if (edgesWithout > 0)
        warnings << QStringLiteral("%1 edge(s) have no 'total%' line in their label; their call paths have no data")
                        .arg(edgesWithout);
    if (parallel > 0)
        warnings << QStringLiteral("%1 pair(s) of nodes are joined by more than one edge; their values were summed")
                        .arg(parallel);
    if (unknownLines > 0)
        warnings << QStringLiteral("%1 label line(s) after the values were not understood and were ignored")
                        .arg(unknownLines);
    if (!g.directed)
        warnings << QStringLiteral(
            "the graph is undirected ('graph', not 'digraph'); edges were read from left to right");
}

/// Skips white space and comments at the start of a DOT text; returns the position of the first token.
qsizetype firstToken(const QByteArray& head)
{
    qsizetype i = head.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    while (i < head.size()) {
        const char c = head[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            ++i;
        } else if (head.mid(i, 2) == "//" || c == '#') {
            const qsizetype nl = head.indexOf('\n', i);
            if (nl < 0)
                return head.size();
            i = nl + 1;
        } else if (head.mid(i, 2) == "/*") {
            const qsizetype end = head.indexOf("*/", i + 2);
            if (end < 0)
                return head.size();
            i = end + 2;
        } else {
            break;
        }
    }
    return i;
}

/// The first token (16 bytes of it) opens a graph.
bool opensGraph(const QByteArray& token)
{
    const QByteArray start = token.toLower();
    return start.startsWith("digraph") || start.startsWith("graph") || start.startsWith("strict");
}

} // namespace

DotReader::DotReader()
    : Reader({ QStringLiteral("gprof2dot"), QStringLiteral("gprof2dot call graph (Graphviz DOT)"),
        { QStringLiteral("*.dot"), QStringLiteral("*.gv"), QStringLiteral("*.dot.*") } })
{
}

int DotReader::sniff(const QString& path) const
{
    const auto read = fileHead(path, 8192);
    if (!read)
        return 0;
    const QByteArray& head = *read;
    if (!opensGraph(head.mid(firstToken(head), 16)))
        return 0;
    // gprof2dot's labels: "...\n12.34%\n(5.67%)\n89×".
    if (head.contains("%\\n(") && head.contains("%)\\n"))
        return 100;
    return 30; // a DOT file, but not recognisably gprof2dot's
}

TrialResult DotReader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    (void)options; // no format options (ReadOptions::formatOptions is ignored)
    const ReadJob job { path, {}, QStringLiteral("out of memory (the file is too large, or corrupt)") };
    const QString notAFile = QStringLiteral("not a file; a gprof2dot call graph is one DOT file");
    return guardedFileRead(
        *this, job, notAFile, [&](TrialBuilder& builder, QStringList& warnings) -> std::optional<ReadError> {
            progress.setStage(QStringLiteral("Reading DOT"), QFileInfo(path).size());
            GzipInput input(progress, ChunkSize);
            input.openOrThrow(path);
            QByteArray data;
            bool opened = false;
            for (;;) {
                const qsizetype old = data.size();
                if (old > MaxBytes)
                    return ReadError { path, 0, old,
                        QStringLiteral("more than %1 bytes of DOT (expected a gprof2dot call graph)").arg(MaxBytes) };
                data.resize(old + static_cast<qsizetype>(ChunkSize));
                const qint64 got = input.read(data.data() + old, ChunkSize);
                if (got < 0)
                    return ReadError { path, 0, input.errorOffset(), input.error() };
                data.resize(old + static_cast<qsizetype>(got));
                if (got == 0)
                    break;
                if (progress.isCancelled())
                    throw Cancelled {};
                // Once the first token is in, a file that opens no graph is not read further: the
                // parser reports it from what is there (docs/FORMATS.md 11).
                if (!opened) {
                    const qsizetype at = firstToken(data);
                    if (at + 16 <= data.size()) {
                        if (!opensGraph(data.mid(at, 16)))
                            break;
                        opened = true;
                    }
                }
            }
            if (input.cutShort())
                warnings << QStringLiteral("the gzip stream is cut short (no end marker): the file may be truncated");
            progress.setStage(QStringLiteral("Parsing DOT"), 0);
            // Edges are bounded by the file size (subgraph operands multiply them).
            Parser parser(data, progress, 65536 + 16 * static_cast<qint64>(data.size()));
            const Graph graph = parser.parse();
            if (graph.moreGraphs)
                warnings << QStringLiteral("the file holds more than one graph; only the first was read");
            progress.setStage(QStringLiteral("Building the trial"), 0);
            builder.addMetric(Metric(QStringLiteral("TIME (% of total)"), QStringLiteral("%")));
            buildTrial(graph, builder, warnings);
            return std::nullopt;
        });
}

} // namespace parallax
