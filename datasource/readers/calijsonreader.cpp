// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Caliper json-split reader (docs/FORMATS.md 6.3). The mapping to the model is in caliprofile.cpp.
//
// How the bytes are read
// ----------------------
// * The whole (possibly gzip-compressed) file is parsed by a small recursive-descent JSON parser that
//   keeps byte offsets, so every error names its line and offset; QJsonDocument would not. Values
//   nest at most 256 deep. The data rows are stored compactly (one number per cell), not as a DOM.
// * Keys: "data" (rows), "columns", "column_metadata" ({is_value, attribute.alias, attribute.unit}),
//   "nodes" ({label, column, parent}); every other key is a global (strings as written, other values
//   as their JSON text). data, columns and nodes are required; without column_metadata a column is a
//   value column unless nodes name it.
// * Columns. mpi.rank gives the thread. The hierarchy column is source.function#callpath.address
//   when present (sampling profiles), else path, else the first node column. Its nodes are the
//   regions (group "function" for call paths, "region" for path, else the column name); a null
//   cell is unattributed time. Nodes of module#... columns add the module as a group of the row's
//   region. sourceloc#... columns follow Hatchet: a region whose rows name more than one source
//   location gets one child region per location, named "<file basename>:<line>" (Hatchet's
//   statement nodes), and those rows move there; a single location adds no region. Either way the
//   "file:line" label becomes the event's recorded source location (docs/SEMANTICS.md §12). Nodes of any other
//   non-value column are not mapped (a warning names the column).
// * Every row must have one cell per column; a node cell must be null or the index of a node of
//   that column; a value cell a number or null (absent); mpi.rank an integer from 0 to 2^31-1; a
//   node's parent an earlier node. Anything else is an error naming the line and the row or node.

#include "datasource/readers/calijsonreader.h"

#include "datasource/readers/caliprofile.h"
#include "datasource/readers/gzipinput.h"
#include "datasource/readers/textnumber.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace parallax {

namespace {

constexpr int MaxDepth = 256;
constexpr qint64 MaxFileBytes = qint64(4) << 30;

enum class CellKind : std::uint8_t { Null, Number, String, Other };

struct Cell {
    double number = 0;
    std::uint32_t string = 0; // index into strings for CellKind::String
    CellKind kind = CellKind::Null;
};

struct ColumnMeta {
    bool isValue = false;
    bool known = false;
    QString alias;
    QString unit;
};

struct JsonNode {
    QString label;
    QString column;
    qint64 parent = -1;
    qint64 offset = 0;
};

/// The json-split sections, parsed with their byte offsets.
class JsonSplitParser {
public:
    explicit JsonSplitParser(std::string_view text)
        : m_text(text)
    {
    }

    std::vector<Cell> cells;
    std::vector<std::uint32_t> rowStart; // rows.size() + 1 entries once parsed
    std::vector<qint64> rowOffset;
    std::vector<QString> strings;
    QStringList columns;
    qint64 columnsOffset = -1;
    std::vector<ColumnMeta> meta;
    qint64 metaOffset = -1;
    std::vector<JsonNode> nodes;
    qint64 nodesOffset = -1;
    qint64 dataOffset = -1;
    std::vector<std::pair<QString, QString>> globals;
    qint64 overflows = 0; ///< numbers beyond the range of a double (read as +-inf)
    qint64 firstOverflow = -1;
    QString firstOverflowText;

    void parse()
    {
        object(
            "'{' (a json-split file is one JSON object)",
            [&](const std::string& key, qint64 keyOffset) { member(key, keyOffset); },
            "',' or '}' after an object member");
        ws();
        if (m_pos != m_text.size())
            fail(pos(), QStringLiteral("unexpected data after the top-level object"));
    }

private:
    [[noreturn]] void fail(qint64 offset, const QString& message) const { throw ParseError::at(offset, message); }
    qint64 pos() const { return static_cast<qint64>(m_pos); }
    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }
    bool atEnd() const { return m_pos >= m_text.size(); }

    void ws()
    {
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
                break;
            ++m_pos;
        }
    }

    void expect(char c, const char* what)
    {
        if (atEnd())
            fail(pos(), QStringLiteral("unexpected end of file (truncated?): expected %1").arg(QLatin1String(what)));
        if (m_text[m_pos] != c)
            fail(pos(),
                QStringLiteral("expected %1, found '%2'")
                    .arg(QLatin1String(what), QString(QLatin1Char(m_text[m_pos]))));
        ++m_pos;
    }

    std::uint32_t hex4()
    {
        if (m_text.size() - m_pos < 4)
            fail(pos(), QStringLiteral("unexpected end of file in a \\u escape (expected 4 hex digits)"));
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = m_text[m_pos++];
            v <<= 4;
            if (c >= '0' && c <= '9')
                v |= std::uint32_t(c - '0');
            else if (c >= 'a' && c <= 'f')
                v |= std::uint32_t(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                v |= std::uint32_t(c - 'A' + 10);
            else
                fail(pos() - 1, QStringLiteral("broken \\u escape: expected 4 hex digits"));
        }
        return v;
    }

    std::string string()
    {
        expect('"', "a string");
        std::string out;
        for (;;) {
            if (atEnd())
                fail(pos(), QStringLiteral("unexpected end of file inside a string (truncated?)"));
            const char c = m_text[m_pos++];
            if (c == '"')
                return out;
            if (static_cast<unsigned char>(c) < 0x20)
                fail(pos() - 1, QStringLiteral("control character inside a string (expected '\"' to end it)"));
            if (c != '\\') {
                out.push_back(c);
                continue;
            }
            if (atEnd())
                fail(pos(), QStringLiteral("unexpected end of file in an escape (truncated?)"));
            const char e = m_text[m_pos++];
            switch (e) {
            case '"':
            case '\\':
            case '/':
                out.push_back(e);
                break;
            case 'b':
                out.push_back('\b');
                break;
            case 'f':
                out.push_back('\f');
                break;
            case 'n':
                out.push_back('\n');
                break;
            case 'r':
                out.push_back('\r');
                break;
            case 't':
                out.push_back('\t');
                break;
            case 'u': {
                std::uint32_t cp = hex4();
                if (cp >= 0xD800 && cp < 0xDC00 && m_text.substr(m_pos, 2) == "\\u") {
                    m_pos += 2;
                    const std::uint32_t low = hex4();
                    if (low >= 0xDC00 && low < 0xE000)
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    else
                        cp = 0xFFFD;
                } else if (cp >= 0xD800 && cp < 0xE000) {
                    cp = 0xFFFD;
                }
                textnumber::appendUtf8(out, cp);
                break;
            }
            default:
                fail(pos() - 1, QStringLiteral("broken escape '\\%1' in a string").arg(QString(QLatin1Char(e))));
            }
        }
    }

    QString qstring() { return QString::fromStdString(string()); }

    double number()
    {
        const std::size_t start = m_pos;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')
                ++m_pos;
            else
                break;
        }
        const char* b = m_text.data() + start;
        const char* e = m_text.data() + m_pos;
        if (b != e && *b == '+')
            fail(static_cast<qint64>(start), QStringLiteral("malformed number"));
        textnumber::NumberRange range;
        const auto v = textnumber::parseDouble(std::string_view(b, static_cast<std::size_t>(e - b)), &range);
        if (!v)
            fail(static_cast<qint64>(start),
                QStringLiteral("expected a JSON value (a number, a string, null, an array or an object)"));
        if (range == textnumber::NumberRange::Overflow) {
            // Beyond the largest double: +-inf (strtod's and JSON.parse's answer), with a warning.
            if (overflows++ == 0) {
                firstOverflow = static_cast<qint64>(start);
                firstOverflowText = QString::fromLatin1(b, std::min<qsizetype>(e - b, 40));
            }
        }
        return *v;
    }

    bool literal(const char* word)
    {
        const std::size_t n = std::strlen(word);
        if (m_text.substr(m_pos, n) != word)
            return false;
        m_pos += n;
        return true;
    }

    /// Skips any value; returns its JSON text (for globals).
    std::string_view skip(int depth)
    {
        if (depth > MaxDepth)
            fail(pos(), QStringLiteral("values nested more than %1 deep").arg(MaxDepth));
        ws();
        const std::size_t start = m_pos;
        const char c = peek();
        if (atEnd())
            fail(pos(), QStringLiteral("unexpected end of file (truncated?): expected a value"));
        if (c == '"') {
            string();
        } else if (c == '{' || c == '[') {
            const char close = c == '{' ? '}' : ']';
            ++m_pos;
            ws();
            if (peek() == close) {
                ++m_pos;
            } else {
                for (;;) {
                    ws();
                    if (c == '{') {
                        string();
                        ws();
                        expect(':', "':' after an object key");
                    }
                    skip(depth + 1);
                    ws();
                    if (peek() == ',') {
                        ++m_pos;
                        continue;
                    }
                    expect(close, c == '{' ? "',' or '}'" : "',' or ']'");
                    break;
                }
            }
        } else if (!(literal("true") || literal("false") || literal("null"))) {
            number();
        }
        return m_text.substr(start, m_pos - start);
    }

    /// Calls item() for each element of an array.
    template <typename Item> void array(const char* what, const Item& item)
    {
        ws();
        expect('[', what);
        ws();
        if (peek() == ']') {
            ++m_pos;
            return;
        }
        for (;;) {
            ws();
            item();
            ws();
            if (peek() == ',') {
                ++m_pos;
                continue;
            }
            expect(']', "',' or ']'");
            return;
        }
    }

    /// Calls field(key, keyOffset) for each member of an object; field() parses the value. `what`
    /// is expected at the start, `next` after a member.
    template <typename Field> void object(const char* what, const Field& field, const char* next = "',' or '}'")
    {
        ws();
        expect('{', what);
        ws();
        if (peek() == '}') {
            ++m_pos;
            return;
        }
        for (;;) {
            ws();
            const qint64 keyOffset = pos();
            const std::string key = string();
            ws();
            expect(':', "':' after an object key");
            ws();
            field(key, keyOffset);
            ws();
            if (peek() == ',') {
                ++m_pos;
                continue;
            }
            expect('}', next);
            return;
        }
    }

    void once(qint64& offset, qint64 here, const char* key)
    {
        if (offset >= 0)
            fail(here, QStringLiteral("the key \"%1\" occurs twice").arg(QLatin1String(key)));
        offset = here;
    }

    void member(const std::string& key, qint64 keyOffset)
    {
        if (key == "data") {
            once(dataOffset, keyOffset, "data");
            rowStart.push_back(0);
            array("'[' (data is an array of rows)", [&] {
                rowOffset.push_back(pos());
                array("'[' (a data row is an array)", [&] { cells.push_back(cell()); });
                if (cells.size() >= std::numeric_limits<std::uint32_t>::max())
                    fail(pos(), QStringLiteral("too many data cells"));
                rowStart.push_back(static_cast<std::uint32_t>(cells.size()));
            });
        } else if (key == "columns") {
            once(columnsOffset, keyOffset, "columns");
            array("'[' (columns is an array of names)", [&] {
                if (peek() != '"')
                    fail(pos(), QStringLiteral("expected a column name (a string)"));
                columns << qstring();
            });
        } else if (key == "column_metadata") {
            once(metaOffset, keyOffset, "column_metadata");
            array("'[' (column_metadata is an array of objects)", [&] {
                ColumnMeta m;
                object("'{' (column metadata is an object)", [&](const std::string& k, qint64) {
                    if (k == "is_value") {
                        if (literal("true"))
                            m.isValue = true;
                        else if (literal("false"))
                            m.isValue = false;
                        else
                            fail(pos(), QStringLiteral("is_value must be true or false"));
                        m.known = true;
                    } else if (k == "attribute.alias" && peek() == '"') {
                        m.alias = qstring();
                    } else if (k == "attribute.unit" && peek() == '"') {
                        m.unit = qstring();
                    } else {
                        skip(1);
                    }
                });
                meta.push_back(std::move(m));
            });
        } else if (key == "nodes") {
            once(nodesOffset, keyOffset, "nodes");
            array("'[' (nodes is an array of objects)", [&] {
                JsonNode n;
                n.offset = pos();
                bool hasLabel = false;
                object("'{' (a node is an object)", [&](const std::string& k, qint64 at) {
                    if (k == "label") {
                        if (peek() == '"')
                            n.label = qstring();
                        else {
                            const std::string_view raw = skip(1);
                            n.label = QString::fromUtf8(raw.data(), static_cast<qsizetype>(raw.size()));
                        }
                        hasLabel = true;
                    } else if (k == "column") {
                        if (peek() != '"')
                            fail(pos(), QStringLiteral("a node's column must be a string"));
                        n.column = qstring();
                    } else if (k == "parent") {
                        const double p = peek() == 'n' && literal("null") ? -1.0 : number();
                        if (p != std::floor(p) || p < -1 || p > 4e9)
                            fail(at, QStringLiteral("a node's parent must be a node index"));
                        n.parent = static_cast<qint64>(p);
                    } else {
                        skip(1);
                    }
                });
                if (!hasLabel)
                    fail(n.offset, QStringLiteral("node %1 has no label").arg(nodes.size()));
                nodes.push_back(std::move(n));
            });
        } else {
            ws();
            const char c = peek();
            QString value;
            if (c == '"') {
                value = qstring();
            } else {
                const std::string_view raw = skip(1);
                value = QString::fromUtf8(raw.data(), static_cast<qsizetype>(raw.size()));
            }
            globals.emplace_back(QString::fromStdString(key), value);
        }
    }

    Cell cell()
    {
        Cell c;
        const char ch = peek();
        if (ch == 'n' && literal("null")) {
            c.kind = CellKind::Null;
        } else if (ch == '"') {
            c.kind = CellKind::String;
            c.string = static_cast<std::uint32_t>(strings.size());
            strings.push_back(qstring());
        } else if (ch == '[' || ch == '{' || ch == 't' || ch == 'f') {
            skip(1);
            c.kind = CellKind::Other;
        } else {
            c.kind = CellKind::Number;
            c.number = number();
        }
        return c;
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

/// Turns the parsed sections into a CaliProfile.
class JsonSplitInterpreter {
public:
    JsonSplitInterpreter(JsonSplitParser& json, CaliProfile& profile, QStringList& warnings)
        : m_j(json)
        , m_p(profile)
        , m_warnings(warnings)
    {
    }

    void run()
    {
        if (m_j.dataOffset < 0)
            fail(-1,
                QStringLiteral("no \"data\" key: not a Caliper json-split file (expected data, columns, "
                               "column_metadata and nodes)"));
        if (m_j.columnsOffset < 0)
            fail(-1, QStringLiteral("no \"columns\" key: not a Caliper json-split file"));
        if (m_j.nodesOffset < 0)
            fail(-1, QStringLiteral("no \"nodes\" key: not a Caliper json-split file"));
        const std::size_t C = static_cast<std::size_t>(m_j.columns.size());
        if (m_j.metaOffset >= 0 && m_j.meta.size() != C)
            fail(m_j.metaOffset,
                QStringLiteral("column_metadata has %1 entries for %2 columns").arg(m_j.meta.size()).arg(C));
        columns();
        regions();
        rows();
        m_p.globals = std::move(m_j.globals);
    }

private:
    [[noreturn]] void fail(qint64 offset, const QString& message) const { throw ParseError::at(offset, message); }

    void columns()
    {
        const std::size_t C = static_cast<std::size_t>(m_j.columns.size());
        QSet<QString> nodeColumns;
        for (const JsonNode& n : m_j.nodes)
            nodeColumns.insert(n.column);
        m_kind.assign(C, Kind::Ignored);
        m_valueColumn.assign(C, -1);
        for (std::size_t c = 0; c < C; ++c) {
            const QString& name = m_j.columns[static_cast<qsizetype>(c)];
            const bool isValue = m_j.metaOffset >= 0 ? m_j.meta[c].isValue : !nodeColumns.contains(name);
            if (name == QLatin1String("mpi.rank") || name == QLatin1String("rank")) {
                m_kind[c] = Kind::Rank;
            } else if (isValue) {
                m_kind[c] = Kind::Value;
                CaliProfile::Column col;
                col.name = name;
                if (m_j.metaOffset >= 0) {
                    col.alias = m_j.meta[c].alias;
                    col.unit = m_j.meta[c].unit;
                }
                m_valueColumn[c] = static_cast<int>(m_p.columns.size());
                m_p.columns.push_back(std::move(col));
            } else if (name.startsWith(QLatin1String("module#"))) {
                m_kind[c] = Kind::Module;
            } else if (name.startsWith(QLatin1String("sourceloc#"))) {
                m_kind[c] = Kind::SourceLoc;
            } else {
                m_kind[c] = Kind::Node;
            }
        }
        // The hierarchy: call paths, else path, else the first node column.
        auto pick = [&](const QString& name) {
            for (std::size_t c = 0; c < C; ++c)
                if (m_kind[c] == Kind::Node && m_j.columns[static_cast<qsizetype>(c)] == name)
                    return static_cast<int>(c);
            return -1;
        };
        m_primary = pick(QStringLiteral("source.function#callpath.address"));
        if (m_primary < 0)
            m_primary = pick(QStringLiteral("path"));
        for (std::size_t c = 0; c < C && m_primary < 0; ++c)
            if (m_kind[c] == Kind::Node)
                m_primary = static_cast<int>(c);
        if (m_primary >= 0) {
            m_kind[static_cast<std::size_t>(m_primary)] = Kind::Primary;
            m_primaryName = m_j.columns[m_primary];
        }
        QStringList ignored;
        for (std::size_t c = 0; c < C; ++c)
            if (m_kind[c] == Kind::Node)
                ignored << m_j.columns[static_cast<qsizetype>(c)];
        if (!ignored.isEmpty())
            m_warnings << QStringLiteral("node column(s) %1 are not the hierarchy (%2); their labels are not mapped")
                              .arg(ignored.join(QStringLiteral(", ")), m_primaryName);
    }

    void regions()
    {
        const std::size_t N = m_j.nodes.size();
        m_nodeRegion.assign(N, -1);
        const QString group = m_primaryName == QLatin1String("source.function#callpath.address")
            ? QStringLiteral("function")
            : m_primaryName == QLatin1String("path") ? QStringLiteral("region")
                                                     : m_primaryName;
        std::size_t foreignParents = 0;
        for (std::size_t i = 0; i < N; ++i) {
            const JsonNode& n = m_j.nodes[i];
            if (n.parent >= static_cast<qint64>(i))
                fail(n.offset,
                    QStringLiteral("node %1: parent %2 is not an earlier node (expected a smaller index)")
                        .arg(i)
                        .arg(n.parent));
            if (m_primary < 0 || n.column != m_primaryName)
                continue;
            CaliProfile::Region r;
            r.name = n.label;
            if (n.parent >= 0) {
                r.parent = m_nodeRegion[static_cast<std::size_t>(n.parent)];
                if (r.parent < 0)
                    ++foreignParents;
            }
            r.groups << group;
            m_nodeRegion[i] = static_cast<int>(m_p.regions.size());
            m_p.regions.push_back(std::move(r));
        }
        if (foreignParents > 0)
            m_warnings << QStringLiteral("%1 node(s) of the hierarchy column have a parent in another column; they "
                                         "are roots")
                              .arg(foreignParents);
    }

    /// A node cell: -1 for null, else a node index of the column.
    int nodeCell(const Cell& cell, std::size_t row, std::size_t c) const
    {
        if (cell.kind == CellKind::Null)
            return -1;
        const QString& column = m_j.columns[static_cast<qsizetype>(c)];
        if (cell.kind != CellKind::Number || cell.number != std::floor(cell.number) || cell.number < 0
            || cell.number >= double(m_j.nodes.size()))
            fail(m_j.rowOffset[row],
                QStringLiteral("data row %1: the %2 cell is not a node index (expected null or 0..%3)")
                    .arg(row)
                    .arg(column)
                    .arg(qint64(m_j.nodes.size()) - 1));
        const int node = static_cast<int>(cell.number);
        if (m_j.nodes[static_cast<std::size_t>(node)].column != column)
            fail(m_j.rowOffset[row],
                QStringLiteral("data row %1: node %2 belongs to the column '%3', not '%4'")
                    .arg(row)
                    .arg(node)
                    .arg(m_j.nodes[static_cast<std::size_t>(node)].column, column));
        return node;
    }

    static QString statementName(const QString& label)
    {
        const qsizetype colon = label.lastIndexOf(QLatin1Char(':'));
        if (colon <= 0)
            return label;
        const QString file = label.left(colon);
        return file.mid(file.lastIndexOf(QLatin1Char('/')) + 1) + label.mid(colon);
    }

    /// The location of a sourceloc node, "file:line" as Caliper's symbol lookup writes it; none for
    /// "UNKNOWN:0" and other labels that name no file.
    SourceLocation sourceLocation(int node) const
    {
        const auto location = parseSourceLocation(m_j.nodes[static_cast<std::size_t>(node)].label);
        return location && location->beginLine > 0 ? *location : SourceLocation();
    }

    void rows()
    {
        const std::size_t C = static_cast<std::size_t>(m_j.columns.size());
        const std::size_t R = m_j.rowOffset.size();
        std::vector<int> sourceLoc(R, -1);
        std::vector<std::uint8_t> fractional(m_p.columns.size(), 0);
        m_p.records.reserve(R);
        for (std::size_t row = 0; row < R; ++row) {
            const std::uint32_t first = m_j.rowStart[row];
            const std::uint32_t count = m_j.rowStart[row + 1] - first;
            if (count != C)
                fail(m_j.rowOffset[row],
                    QStringLiteral("data row %1 has %2 cells, expected %3 (one per column)")
                        .arg(row)
                        .arg(count)
                        .arg(C));
            CaliProfile::Record rec;
            rec.first = static_cast<std::uint32_t>(m_p.values.size());
            for (std::size_t c = 0; c < C; ++c) {
                const Cell& cell = m_j.cells[first + c];
                switch (m_kind[c]) {
                case Kind::Primary: {
                    const int node = nodeCell(cell, row, c);
                    rec.region = node < 0 ? -1 : m_nodeRegion[static_cast<std::size_t>(node)];
                    break;
                }
                case Kind::Rank:
                    if (cell.kind == CellKind::Null)
                        break;
                    if (cell.kind != CellKind::Number || cell.number != std::floor(cell.number) || cell.number < 0
                        || cell.number > std::numeric_limits<int>::max())
                        fail(m_j.rowOffset[row],
                            QStringLiteral("data row %1: mpi.rank is not a rank (expected an integer from 0 to %2)")
                                .arg(row)
                                .arg(std::numeric_limits<int>::max()));
                    rec.rank = static_cast<qint64>(cell.number);
                    break;
                case Kind::Value: {
                    double v = cell.number;
                    if (cell.kind == CellKind::Null)
                        break;
                    if (cell.kind == CellKind::String) {
                        const QString& s = m_j.strings[cell.string];
                        const QByteArray text = s.trimmed().toUtf8();
                        const auto parsed = textnumber::parseDouble(
                            std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
                        v = parsed.value_or(0.0);
                        if (!parsed)
                            fail(m_j.rowOffset[row],
                                QStringLiteral("data row %1: the value '%2' of column '%3' is not a number")
                                    .arg(row)
                                    .arg(s, m_j.columns[static_cast<qsizetype>(c)]));
                    } else if (cell.kind != CellKind::Number) {
                        fail(m_j.rowOffset[row],
                            QStringLiteral("data row %1: column '%2' holds a value that is not a number")
                                .arg(row)
                                .arg(m_j.columns[static_cast<qsizetype>(c)]));
                    }
                    const int vc = m_valueColumn[c];
                    if (v != std::floor(v))
                        fractional[static_cast<std::size_t>(vc)] = 1;
                    m_p.valueColumns.push_back(static_cast<std::uint32_t>(vc));
                    m_p.values.push_back(v);
                    break;
                }
                case Kind::Module:
                case Kind::SourceLoc:
                case Kind::Node:
                case Kind::Ignored: {
                    const int node = nodeCell(cell, row, c);
                    if (m_kind[c] == Kind::SourceLoc)
                        sourceLoc[row] = node;
                    else if (m_kind[c] == Kind::Module && node >= 0)
                        m_modules.emplace_back(row, node);
                    break;
                }
                }
            }
            rec.count = static_cast<std::uint32_t>(m_p.values.size()) - rec.first;
            m_p.records.push_back(rec);
        }
        for (std::size_t vc = 0; vc < m_p.columns.size(); ++vc)
            m_p.columns[vc].integral = !fractional[vc];
        // Modules are groups of the region.
        for (const auto& [row, node] : m_modules) {
            const int region = m_p.records[row].region;
            if (region < 0)
                continue;
            auto& groups = m_p.regions[static_cast<std::size_t>(region)].groups;
            const QString& label = m_j.nodes[static_cast<std::size_t>(node)].label;
            if (!groups.contains(label))
                groups << label;
        }
        // Source locations: a region with several becomes one child per location (Hatchet's rule).
        std::map<int, std::set<int>> locations;
        for (std::size_t row = 0; row < R; ++row)
            if (sourceLoc[row] >= 0 && m_p.records[row].region >= 0)
                locations[m_p.records[row].region].insert(sourceLoc[row]);
        std::map<std::pair<int, int>, int> child;
        for (const auto& [region, locs] : locations) {
            if (locs.size() < 2) {
                m_p.regions[static_cast<std::size_t>(region)].location = sourceLocation(*locs.begin());
                continue;
            }
            for (int loc : locs) {
                CaliProfile::Region r;
                r.name = statementName(m_j.nodes[static_cast<std::size_t>(loc)].label);
                r.location = sourceLocation(loc);
                r.parent = region;
                r.groups << QStringLiteral("statement");
                child[{ region, loc }] = static_cast<int>(m_p.regions.size());
                m_p.regions.push_back(std::move(r));
            }
        }
        for (std::size_t row = 0; row < R; ++row) {
            auto& rec = m_p.records[row];
            if (rec.region < 0 || sourceLoc[row] < 0)
                continue;
            const auto it = child.find({ rec.region, sourceLoc[row] });
            if (it != child.end())
                rec.region = it->second;
        }
    }

    enum class Kind { Ignored, Primary, Rank, Value, Module, SourceLoc, Node };

    JsonSplitParser& m_j;
    CaliProfile& m_p;
    QStringList& m_warnings;
    std::vector<Kind> m_kind;
    std::vector<int> m_valueColumn;
    int m_primary = -1;
    QString m_primaryName;
    std::vector<int> m_nodeRegion;
    std::vector<std::pair<std::size_t, int>> m_modules;
};

qint64 lineOf(const QByteArray& text, qint64 offset)
{
    if (offset < 0)
        return 0;
    const qint64 end = std::min<qint64>(offset, text.size());
    return 1 + std::count(text.constBegin(), text.constBegin() + end, '\n');
}

} // namespace

CaliJsonReader::CaliJsonReader()
    : Reader({ QStringLiteral("caliper-json"), QStringLiteral("Caliper json-split profile"),
        { QStringLiteral("*.json"), QStringLiteral("*.json.gz") } })
{
}

int CaliJsonReader::sniff(const QString& path) const
{
    const QByteArray head = fileHead(path, 4096).value_or(QByteArray());
    if (!head.trimmed().startsWith('{'))
        return 0;
    QByteArray tail;
    QFile file(path);
    if (file.open(QIODevice::ReadOnly) && file.size() > 8192 && file.seek(file.size() - 4096))
        tail = file.read(4096);
    const auto hasKey = [&](const char* key) { return head.contains(key) || tail.contains(key); };
    if (hasKey("\"column_metadata\"") && (hasKey("\"nodes\"") || hasKey("\"columns\"")))
        return 95;
    // cali-query writes "data" first, so in a large file the other keys are far from head and tail.
    static const QRegularExpression dataFirst(QStringLiteral("^\\s*\\{\\s*\"data\"\\s*:\\s*\\[\\s*[\\[\\]]"));
    if (dataFirst.match(QString::fromLatin1(head.left(256))).hasMatch())
        return 75;
    return 0;
}

TrialResult CaliJsonReader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    Q_UNUSED(options);
    QByteArray text;
    const ReadJob job { path, {}, QStringLiteral("out of memory (the profile is too large, or corrupt)"), {},
        [&text](qint64 offset) { return lineOf(text, offset); } };
    const QString notAFile = QStringLiteral("not a file; a Caliper json-split profile is one .json file");
    return readCaliFile(*this, job, notAFile, QStringLiteral("json-split"),
        QStringLiteral("Reading Caliper json-split"), progress,
        [&](GzipInput& input, CaliProfile& profile, QStringList& warnings) -> std::optional<ReadError> {
            std::vector<char> chunk(std::size_t { 256 } * 1024);
            for (;;) {
                if (progress.isCancelled())
                    throw Cancelled {};
                const qint64 n = input.read(chunk.data(), chunk.size());
                if (n < 0)
                    return ReadError { path, 0, input.errorOffset(), input.error() };
                if (n == 0)
                    break;
                if (text.size() + n > MaxFileBytes)
                    return ReadError { path, 0, text.size(), QStringLiteral("more than 4 GiB of JSON") };
                text.append(chunk.data(), n);
                // Not an object: the parser says so from the first chunk, without the rest (docs/FORMATS.md 11).
                if (text.size() == n && !text.trimmed().startsWith('{') && !text.trimmed().isEmpty())
                    break;
            }
            if (input.cutShort())
                return ReadError { path, 0, text.size(), QStringLiteral("the gzip data ends early (truncated file)") };
            JsonSplitParser json(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
            json.parse();
            if (json.overflows > 0)
                warnings << QStringLiteral("%1:%2: number %3 at byte %4 is beyond the range of a double; read as %5%6")
                                .arg(path)
                                .arg(lineOf(text, json.firstOverflow))
                                .arg(json.firstOverflowText)
                                .arg(json.firstOverflow)
                                .arg(json.firstOverflowText.startsWith(QLatin1Char('-')) ? QStringLiteral("-inf")
                                                                                         : QStringLiteral("inf"))
                                .arg(json.overflows > 1
                                        ? QStringLiteral(" (%1 such numbers in the file)").arg(json.overflows)
                                        : QString());
            JsonSplitInterpreter(json, profile, warnings).run();
            profile.sourceBytes = text.size();
            return std::nullopt;
        });
}

} // namespace parallax
