// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Native Caliper .cali reader (docs/FORMATS.md 6.3). The mapping to the model is in caliprofile.cpp.
//
// How the bytes are read
// ----------------------
// * One record per line: comma-separated `key=value` fields; a field with several values joins them
//   with '='; a backslash makes the next character literal (Caliper escapes '\', ',' and '='). A
//   backslash at the end of a line is a broken escape (an error). Every line must end with '\n': a
//   last line without one was cut short (an error, "truncated"). Empty lines are skipped. The file
//   may be gzip-compressed.
// * `__rec=node,id=I,attr=A,data=D[,parent=P]` defines context-tree node I. Built-in nodes 0-10 are
//   implicit (docs/FORMATS.md 6.3, inferred from Caliper's metadata tree: 0-7 the types usr, int, uint,
//   string, addr, double, bool, type; 8 cali.attribute.name, 9 cali.attribute.type, 10
//   cali.attribute.prop). A node whose attr is 8 defines an attribute: its name is D, its type the
//   type node at the root of its parent chain, its properties the value of the prop (10) node in that
//   chain, and its alias and unit the attribute.alias / attribute.unit nodes in that chain. A node
//   must refer to an attribute and to an earlier parent (else an error naming the line); redefining
//   an id with other content is an error, repeating it identically is ignored.
// * Attributes with Caliper's nested property (256: function, loop, region, annotation,
//   mpi.function, ...) are regions: the nested nodes on a node's parent chain, root first, are its
//   region path. A node's region and mpi.rank are computed once, when it is defined, so a record
//   costs O(its fields), whatever the depth of the tree.
// * `__rec=ctx,ref=N1=N2..,attr=A1=A2..,data=V1=V2..` is one record: the region and rank come from
//   the referenced nodes' chains, the immediate (attr, data) pairs from the lists, which must have
//   the same length. Immediate values of numeric attributes (int, uint, double) are value columns;
//   mpi.rank is the rank; immediate values of other types are counted in a warning. Other
//   non-region context values on the chains (cali.channel, spot.channel, ...) become trial metadata
//   when they take one value in the whole file, else a warning says that records differing only
//   in them were combined.
// * `__rec=globals,ref=..,attr=..,data=..`: every (attribute, value) on the referenced chains and in
//   the immediate lists is trial metadata. Other record kinds are skipped with a warning.
// * Under ReadOptions::strict, skipped record kinds and non-numeric immediate values are errors.

#include "datasource/readers/calireader.h"

#include "datasource/readers/caliprofile.h"
#include "datasource/readers/gzipinput.h"
#include "datasource/readers/textnumber.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace parallax {

namespace {

constexpr std::size_t MaxLineBytes = std::size_t(256) << 20;
/// Caliper attribute properties (cali_attr_properties).
constexpr qint64 PropNested = 256;
constexpr qint64 PropHidden = 128;

enum BuiltIn : std::uint32_t {
    TypeUsr = 0,
    TypeInt = 1,
    TypeUint = 2,
    TypeString = 3,
    TypeAddr = 4,
    TypeDouble = 5,
    TypeBool = 6,
    TypeType = 7,
    AttrName = 8,
    AttrType = 9,
    AttrProp = 10,
    BuiltInCount = 11
};

struct AttributeInfo {
    std::string name;
    std::uint32_t type = TypeUsr; // a type node, or TypeUsr when unknown
    bool typeKnown = false;
    qint64 prop = 0;
    std::string alias;
    std::string unit;
    bool isRank = false;
    int column = -1; // value column, once used as an immediate number
};

struct Node {
    std::uint64_t id = 0;
    std::uint32_t attr = 0; // node index of the attribute definition
    std::int32_t parent = -1; // node index
    std::string data;
    std::int32_t attribute = -1; // AttributeInfo index when this node defines an attribute
    std::int32_t region = -1;
    qint64 rank = -1;
    std::int32_t anchor = -1; // nearest node (self included) holding another context value
    qint64 line = 0;
};

struct Token {
    std::uint32_t begin;
    std::uint32_t end;
};
struct Field {
    Token key;
    std::uint32_t firstValue;
    std::uint32_t valueCount;
};

class CaliParser {
public:
    CaliParser(CaliProfile& profile, QStringList& warnings, bool strict)
        : m_p(profile)
        , m_warnings(warnings)
        , m_strict(strict)
    {
        static const char* const typeNames[] = { "usr", "int", "uint", "string", "addr", "double", "bool", "type" };
        for (std::uint32_t i = 0; i < 8; ++i)
            addBuiltIn(i, AttrType, typeNames[i], -1);
        addBuiltIn(AttrName, AttrName, "cali.attribute.name", TypeString);
        addBuiltIn(AttrType, AttrName, "cali.attribute.type", TypeType);
        addBuiltIn(AttrProp, AttrName, "cali.attribute.prop", TypeInt);
        for (std::uint32_t i = AttrName; i <= AttrProp; ++i)
            defineAttribute(i);
    }

    void line(std::string_view text, qint64 lineNo)
    {
        m_line = lineNo;
        if (!text.empty() && text.back() == '\r')
            text.remove_suffix(1);
        if (text.empty())
            return;
        split(text);
        if (m_fields.empty() || key(m_fields[0]) != "__rec" || m_fields[0].valueCount != 1)
            fail(QStringLiteral("expected a record starting with '__rec=' (node, ctx or globals), found '%1'")
                     .arg(QString::fromUtf8(
                         text.substr(0, 40).data(), qsizetype(std::min<std::size_t>(text.size(), 40)))));
        const std::string_view kind = value(m_fields[0], 0);
        if (kind == "node")
            nodeRecord();
        else if (kind == "ctx")
            ctxRecord();
        else if (kind == "globals")
            globalsRecord();
        else if (m_strict)
            fail(QStringLiteral("unknown record kind '%1' (strict: expected node, ctx or globals)").arg(q(kind)));
        else if (m_unknownKinds++ == 0)
            m_firstUnknownKind = QStringLiteral("'%1' at line %2")
                                     .arg(QString::fromUtf8(kind.data(), qsizetype(kind.size())))
                                     .arg(lineNo);
    }

    void finish()
    {
        if (m_unknownKinds > 0)
            m_warnings << QStringLiteral("%1 record(s) of unknown kind were skipped (first: %2)")
                              .arg(m_unknownKinds)
                              .arg(m_firstUnknownKind);
        if (!m_skippedImmediates.empty()) {
            QStringList names;
            std::size_t count = 0;
            for (const auto& [name, n] : m_skippedImmediates) {
                names << QString::fromStdString(name);
                count += n;
            }
            m_warnings << QStringLiteral("%1 immediate value(s) of non-numeric attributes were not loaded (%2)")
                              .arg(count)
                              .arg(names.join(QStringLiteral(", ")));
        }
        if (m_ambiguousRegions > 0)
            m_warnings << QStringLiteral("%1 ctx record(s) reference two different regions; the first one was used")
                              .arg(m_ambiguousRegions);
        contextMetadata();
        if (m_p.records.empty())
            fail0(QStringLiteral("no __rec=ctx records: the file holds no profile data"));
    }

private:
    [[noreturn]] void fail(const QString& message) const { throw ParseError::atLine(m_line, message); }
    [[noreturn]] void fail0(const QString& message) const { throw ParseError::atLine(0, message); }

    void addBuiltIn(std::uint32_t id, std::uint32_t attr, const char* data, int parent)
    {
        Node n;
        n.id = id;
        n.attr = attr;
        n.data = data;
        n.parent = parent;
        m_index.emplace(id, static_cast<std::uint32_t>(m_nodes.size()));
        m_nodes.push_back(std::move(n));
    }

    // --- Field splitting with Caliper's escapes ---

    void split(std::string_view text)
    {
        m_buf.clear();
        m_tokens.clear();
        m_fields.clear();
        bool inKey = true;
        std::uint32_t tokenStart = 0;
        Field field { { 0, 0 }, 0, 0 };
        auto endToken = [&]() {
            const Token t { tokenStart, static_cast<std::uint32_t>(m_buf.size()) };
            if (inKey) {
                field.key = t;
                field.firstValue = static_cast<std::uint32_t>(m_tokens.size());
            } else {
                m_tokens.push_back(t);
                ++field.valueCount;
            }
            tokenStart = static_cast<std::uint32_t>(m_buf.size());
        };
        for (std::size_t i = 0; i < text.size(); ++i) {
            const char c = text[i];
            if (c == '\\') {
                if (i + 1 == text.size())
                    fail(QStringLiteral("broken escape: '\\' at the end of the line (expected an escaped character)"));
                m_buf.push_back(text[++i]);
            } else if (c == ',') {
                endToken();
                m_fields.push_back(field);
                field = { { 0, 0 }, static_cast<std::uint32_t>(m_tokens.size()), 0 };
                inKey = true;
            } else if (c == '=') {
                endToken();
                inKey = false;
            } else {
                m_buf.push_back(c);
            }
        }
        endToken();
        m_fields.push_back(field);
    }

    std::string_view token(Token t) const { return std::string_view(m_buf).substr(t.begin, t.end - t.begin); }
    std::string_view key(const Field& f) const { return token(f.key); }
    std::string_view value(const Field& f, std::uint32_t i) const { return token(m_tokens[f.firstValue + i]); }
    const Field* find(std::string_view name) const
    {
        for (std::size_t i = 1; i < m_fields.size(); ++i)
            if (key(m_fields[i]) == name)
                return &m_fields[i];
        return nullptr;
    }
    /// The field's values joined with '=' (node data, which should hold one value).
    std::string joined(const Field& f) const
    {
        std::string out;
        for (std::uint32_t i = 0; i < f.valueCount; ++i) {
            if (i > 0)
                out.push_back('=');
            out.append(value(f, i));
        }
        return out;
    }

    static QString q(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

    std::uint64_t number(std::string_view text, const char* what) const
    {
        std::uint64_t v = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
            fail(QStringLiteral("%1 '%2' is not a node id (expected a non-negative integer)")
                     .arg(QLatin1String(what), q(text)));
        return v;
    }

    std::uint32_t nodeIndex(std::uint64_t id, const char* what) const
    {
        const auto it = m_index.find(id);
        if (it == m_index.end())
            fail(QStringLiteral("%1 %2 refers to a node that is not defined before this line (dangling reference)")
                     .arg(QLatin1String(what))
                     .arg(id));
        return it->second;
    }

    void requireSingle(const Field* f, const char* what) const
    {
        if (!f)
            fail(QStringLiteral("node record without '%1='").arg(QLatin1String(what)));
        if (f->valueCount != 1)
            fail(QStringLiteral("'%1=' must hold one node id, not %2").arg(QLatin1String(what)).arg(f->valueCount));
    }

    const AttributeInfo& attributeOf(std::uint32_t attrNode) const
    {
        return m_attributes[static_cast<std::size_t>(m_nodes[attrNode].attribute)];
    }

    /// Resolves the attribute defined by node `n` (attr == 8) from its parent chain.
    void defineAttribute(std::uint32_t n)
    {
        AttributeInfo info;
        info.name = m_nodes[n].data;
        bool propSeen = false;
        int steps = 0;
        for (std::int32_t p = m_nodes[n].parent; p >= 0 && steps < 4096;
             p = m_nodes[static_cast<std::size_t>(p)].parent, ++steps) {
            const Node& a = m_nodes[static_cast<std::size_t>(p)];
            if (static_cast<std::uint32_t>(p) < 8 && a.parent < 0) {
                info.type = static_cast<std::uint32_t>(p);
                info.typeKnown = true;
                break;
            }
            if (a.attr == AttrProp && !propSeen) {
                qint64 prop = 0;
                std::from_chars(a.data.data(), a.data.data() + a.data.size(), prop);
                info.prop = prop;
                propSeen = true;
            } else if (m_nodes[a.attr].attribute >= 0) {
                const std::string& name = attributeOf(a.attr).name;
                if (name == "attribute.alias" && info.alias.empty())
                    info.alias = a.data;
                else if (name == "attribute.unit" && info.unit.empty())
                    info.unit = a.data;
            }
        }
        info.isRank = info.name == "mpi.rank";
        m_nodes[n].attribute = static_cast<std::int32_t>(m_attributes.size());
        m_attributes.push_back(std::move(info));
    }

    qint64 rankValue(std::string_view text) const
    {
        qint64 v = -1;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || v < 0
            || v > std::numeric_limits<int>::max())
            fail(QStringLiteral("mpi.rank '%1' is not a rank (expected an integer from 0 to %2)")
                     .arg(q(text))
                     .arg(std::numeric_limits<int>::max()));
        return v;
    }

    int region(int parent, const std::string& attribute, const std::string& label)
    {
        const QString name = QString::fromStdString(label);
        const auto key = qMakePair(parent, name);
        const auto it = m_regionIndex.constFind(key);
        const QString group = QString::fromStdString(attribute);
        if (it != m_regionIndex.cend()) {
            auto& groups = m_p.regions[static_cast<std::size_t>(it.value())].groups;
            if (!groups.contains(group))
                groups << group;
            return it.value();
        }
        CaliProfile::Region r;
        r.name = name;
        r.parent = parent;
        r.groups << group;
        m_p.regions.push_back(std::move(r));
        const int index = static_cast<int>(m_p.regions.size() - 1);
        m_regionIndex.insert(key, index);
        return index;
    }

    // --- Records ---

    void nodeRecord()
    {
        const Field* idField = find("id");
        const Field* attrField = find("attr");
        const Field* dataField = find("data");
        const Field* parentField = find("parent");
        requireSingle(idField, "id");
        requireSingle(attrField, "attr");
        if (!dataField)
            fail(QStringLiteral("node record without 'data='"));
        Node n;
        n.id = number(value(*idField, 0), "id");
        n.attr = nodeIndex(number(value(*attrField, 0), "attr"), "attr");
        if (m_nodes[n.attr].attribute < 0)
            fail(QStringLiteral("attr=%1 is node '%2', not an attribute (expected a node defined with attr=8)")
                     .arg(m_nodes[n.attr].id)
                     .arg(QString::fromStdString(m_nodes[n.attr].data)));
        if (parentField) {
            requireSingle(parentField, "parent");
            n.parent = static_cast<std::int32_t>(nodeIndex(number(value(*parentField, 0), "parent"), "parent"));
        }
        n.data = joined(*dataField);
        n.line = m_line;
        const auto existing = m_index.find(n.id);
        if (existing != m_index.end()) {
            const Node& old = m_nodes[existing->second];
            if (old.attr == n.attr && old.parent == n.parent && old.data == n.data)
                return;
            fail(QStringLiteral("node id %1 is defined again with other content (first defined %2)")
                     .arg(n.id)
                     .arg(old.line > 0 ? QStringLiteral("at line %1").arg(old.line) : QStringLiteral("as a built-in")));
        }
        if (m_nodes.size() >= std::numeric_limits<std::int32_t>::max())
            fail(QStringLiteral("too many nodes"));
        const std::uint32_t index = static_cast<std::uint32_t>(m_nodes.size());
        const Node* parent = n.parent >= 0 ? &m_nodes[static_cast<std::size_t>(n.parent)] : nullptr;
        n.region = parent ? parent->region : -1;
        n.rank = parent ? parent->rank : -1;
        n.anchor = parent ? parent->anchor : -1;
        m_index.emplace(n.id, index);
        m_nodes.push_back(std::move(n));
        Node& node = m_nodes.back();
        if (node.attr == AttrName) {
            defineAttribute(index);
            return;
        }
        if (node.attr < BuiltInCount)
            return; // type and property nodes of attribute definitions
        const AttributeInfo& a = attributeOf(node.attr);
        if (a.prop & PropNested)
            node.region = region(node.region, a.name, node.data);
        else if (a.isRank)
            node.rank = rankValue(node.data);
        else
            node.anchor = static_cast<std::int32_t>(index);
    }

    int column(std::uint32_t attrNode)
    {
        AttributeInfo& a = m_attributes[static_cast<std::size_t>(m_nodes[attrNode].attribute)];
        if (a.column < 0) {
            CaliProfile::Column c;
            c.name = QString::fromStdString(a.name);
            c.alias = QString::fromStdString(a.alias);
            c.unit = QString::fromStdString(a.unit);
            c.integral = a.type == TypeInt || a.type == TypeUint;
            c.hidden = (a.prop & PropHidden) != 0;
            a.column = static_cast<int>(m_p.columns.size());
            m_p.columns.push_back(std::move(c));
        }
        return a.column;
    }

    /// The ids of a ref= field as node indices.
    void refs(const Field* f, std::vector<std::uint32_t>& out) const
    {
        out.clear();
        if (!f)
            return;
        for (std::uint32_t i = 0; i < f->valueCount; ++i)
            out.push_back(nodeIndex(number(value(*f, i), "ref"), "ref"));
    }

    void immediates(const Field*& attrs, const Field*& data) const
    {
        attrs = find("attr");
        data = find("data");
        const std::uint32_t na = attrs ? attrs->valueCount : 0;
        const std::uint32_t nd = data ? data->valueCount : 0;
        if (na != nd)
            fail(QStringLiteral("%1 attribute(s) but %2 value(s): attr= and data= must have the same length "
                                "(truncated or corrupted record?)")
                     .arg(na)
                     .arg(nd));
    }

    void ctxRecord()
    {
        refs(find("ref"), m_refs);
        const Field* attrs = nullptr;
        const Field* data = nullptr;
        immediates(attrs, data);
        CaliProfile::Record rec;
        rec.line = m_line;
        for (std::uint32_t r : m_refs) {
            const Node& n = m_nodes[r];
            if (n.region >= 0) {
                if (rec.region < 0)
                    rec.region = n.region;
                else if (rec.region != n.region)
                    ++m_ambiguousRegions;
            }
            if (n.rank >= 0)
                rec.rank = n.rank;
            if (n.anchor >= 0)
                m_anchors.insert(static_cast<std::uint32_t>(n.anchor));
        }
        rec.first = static_cast<std::uint32_t>(m_p.values.size());
        const std::uint32_t count = attrs ? attrs->valueCount : 0;
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::uint32_t attr = nodeIndex(number(value(*attrs, i), "attr"), "attr");
            if (m_nodes[attr].attribute < 0)
                fail(QStringLiteral("attr %1 is not an attribute").arg(m_nodes[attr].id));
            const AttributeInfo& a = attributeOf(attr);
            const std::string_view text = value(*data, i);
            if (a.isRank) {
                rec.rank = rankValue(text);
                continue;
            }
            const bool numeric = a.type == TypeInt || a.type == TypeUint || a.type == TypeDouble || !a.typeKnown;
            textnumber::NumberRange range;
            const auto number = textnumber::parseDouble(text, &range);
            const bool parsed = number && range == textnumber::NumberRange::InRange;
            const double v = parsed ? *number : 0.0;
            if (!numeric || (!a.typeKnown && !parsed)) {
                if (m_strict)
                    fail(QStringLiteral("immediate value of the non-numeric attribute '%1' (strict: not loaded)")
                             .arg(QString::fromStdString(a.name)));
                ++m_skippedImmediates[a.name];
                continue;
            }
            if (!parsed)
                fail(QStringLiteral("value '%1' of attribute '%2' is not a number")
                         .arg(q(text), QString::fromStdString(a.name)));
            if (m_p.values.size() >= std::numeric_limits<std::uint32_t>::max() - 1)
                fail(QStringLiteral("too many values"));
            const int c = column(attr);
            if (!a.typeKnown && v != std::floor(v))
                m_p.columns[static_cast<std::size_t>(c)].integral = false;
            m_p.valueColumns.push_back(static_cast<std::uint32_t>(c));
            m_p.values.push_back(v);
        }
        rec.count = static_cast<std::uint32_t>(m_p.values.size()) - rec.first;
        m_p.records.push_back(rec);
    }

    /// Calls `visit` for the value nodes (not built-in, not attributes) from node `start` up to its
    /// root, stopping at the first node already in `visited` (the rest of that chain was visited).
    template <typename Visit>
    void forEachValueUp(std::uint32_t start, std::unordered_set<std::uint32_t>& visited, const Visit& visit) const
    {
        for (std::int32_t p = static_cast<std::int32_t>(start); p >= 0;
             p = m_nodes[static_cast<std::size_t>(p)].parent) {
            if (!visited.insert(static_cast<std::uint32_t>(p)).second)
                break;
            const Node& n = m_nodes[static_cast<std::size_t>(p)];
            if (n.attr >= BuiltInCount && n.attribute < 0)
                visit(n);
        }
    }

    void globalsRecord()
    {
        refs(find("ref"), m_refs);
        const Field* attrs = nullptr;
        const Field* data = nullptr;
        immediates(attrs, data);
        std::unordered_set<std::uint32_t> visited;
        for (std::uint32_t r : m_refs) {
            std::vector<std::pair<QString, QString>> chain;
            forEachValueUp(r, visited, [&](const Node& n) {
                chain.emplace_back(QString::fromStdString(attributeOf(n.attr).name), QString::fromStdString(n.data));
            });
            m_p.globals.insert(m_p.globals.end(), chain.rbegin(), chain.rend());
        }
        const std::uint32_t count = attrs ? attrs->valueCount : 0;
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::uint32_t attr = nodeIndex(number(value(*attrs, i), "attr"), "attr");
            if (m_nodes[attr].attribute < 0)
                fail(QStringLiteral("attr %1 is not an attribute").arg(m_nodes[attr].id));
            m_p.globals.emplace_back(QString::fromStdString(attributeOf(attr).name), q(value(*data, i)));
        }
    }

    /// Non-region context values of the ctx records: metadata when constant, else a warning.
    void contextMetadata()
    {
        std::map<std::string, std::unordered_set<std::string>> values;
        std::unordered_set<std::uint32_t> visited;
        for (std::uint32_t anchor : m_anchors)
            forEachValueUp(anchor, visited, [&](const Node& n) {
                const AttributeInfo& a = attributeOf(n.attr);
                if (!(a.prop & PropNested) && !a.isRank)
                    values[a.name].insert(n.data);
            });
        QSet<QString> globals;
        for (const auto& g : m_p.globals)
            globals.insert(g.first);
        QStringList varying;
        for (const auto& [name, set] : values) {
            const QString key = QString::fromStdString(name);
            if (set.size() == 1) {
                if (!globals.contains(key))
                    m_p.globals.emplace_back(key, QString::fromStdString(*set.begin()));
            } else {
                varying << QStringLiteral("%1 (%2 values)").arg(key).arg(set.size());
            }
        }
        if (!varying.isEmpty())
            m_warnings << QStringLiteral("context attribute(s) %1 vary between records; records that differ only in "
                                         "them were combined")
                              .arg(varying.join(QStringLiteral(", ")));
    }

    CaliProfile& m_p;
    QStringList& m_warnings;
    bool m_strict = false;
    qint64 m_line = 0;

    std::string m_buf;
    std::vector<Token> m_tokens;
    std::vector<Field> m_fields;
    std::vector<std::uint32_t> m_refs;

    std::vector<Node> m_nodes;
    std::unordered_map<std::uint64_t, std::uint32_t> m_index;
    std::vector<AttributeInfo> m_attributes;
    QHash<QPair<int, QString>, int> m_regionIndex;
    std::unordered_set<std::uint32_t> m_anchors;
    std::map<std::string, std::size_t> m_skippedImmediates;
    std::size_t m_unknownKinds = 0;
    QString m_firstUnknownKind;
    std::size_t m_ambiguousRegions = 0;
};

} // namespace

CaliReader::CaliReader()
    : Reader({ QStringLiteral("caliper"), QStringLiteral("Caliper profile (.cali)"),
        { QStringLiteral("*.cali"), QStringLiteral("*.cali.gz") } })
{
}

int CaliReader::sniff(const QString& path) const
{
    const auto head = fileHead(path, 64);
    if (!head)
        return 0;
    const QString lower = QFileInfo(path).fileName().toLower();
    const bool named = lower.endsWith(QLatin1String(".cali")) || lower.endsWith(QLatin1String(".cali.gz"));
    if (head->startsWith("__rec="))
        return 100;
    if (head->size() >= 2 && isGzipMagic(head->constData()))
        return named ? 60 : 0;
    return named ? 40 : 0;
}

TrialResult CaliReader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    const ReadJob job { path, {}, QStringLiteral("out of memory (the profile is too large, or corrupt)") };
    const QString notAFile = QStringLiteral("not a file; a Caliper profile is one .cali file");
    return readCaliFile(*this, job, notAFile, QStringLiteral("cali"), QStringLiteral("Reading Caliper records"),
        progress, [&](GzipInput& input, CaliProfile& profile, QStringList& warnings) -> std::optional<ReadError> {
            CaliParser parser(profile, warnings, options.strict);
            const LineEnd end = forEachLine(input, progress, std::size_t { 256 } * 1024, MaxLineBytes,
                [&](std::string_view line, qint64 number) { parser.line(line, number); });
            const qint64 lineNo = end.lines;
            const std::string& pending = end.tail;
            if (input.cutShort())
                return ReadError { path, lineNo + 1, -1, QStringLiteral("the gzip data ends early (truncated file)") };
            if (!pending.empty())
                return ReadError { path, lineNo + 1, -1,
                    QStringLiteral("the file ends inside a record (no newline after the last line): truncated file?") };
            parser.finish();
            profile.sourceBytes = input.produced();
            return std::nullopt;
        });
}

} // namespace parallax
