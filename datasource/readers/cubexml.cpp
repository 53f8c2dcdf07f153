// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The CUBE XML parser (docs/FORMATS.md 5.1, 5.2), part of the CUBE reader (cubereader.cpp).
//
// * XML (CUBE 3 .cube, .cube.gz, and anchor.xml) is parsed incrementally with QXmlStreamReader, fed
//   in 256 KiB chunks through a filter that escapes a bare '&' (one that does not start &amp; &lt;
//   &gt; &quot; &apos; or a character reference) as &amp; outside CDATA, comments and processing
//   instructions. Real writers leave such '&'s raw (docs/FORMATS.md 5.1); each load that needed it gets one
//   warning with the count and the first line. Escaping does not change line numbers.
// * CUBE 3 <severity> rows hold one value per thread in thread Id order; missing values stay 0, values
//   beyond the threads are dropped. Both kinds of row are counted here (XmlParseStats) and reported
//   by the reader (cubereader.cpp).
//
// Errors name the member (for anchor.xml), the XML line and column, and say what was expected there.

#include "datasource/readers/cubexml.h"

#include "datasource/readers/textnumber.h"

#include <QXmlStreamReader>
#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace parallax::cube {

namespace {

/// XML elements nested deeper are refused (docs/FORMATS.md 11): a call tree of about 1,000 levels,
/// more than the model's call-path names hold, and the bound on what a hostile file costs.
constexpr std::size_t MaxDepth = 1000;

} // namespace

FileSource::FileSource(const QString& path, Progress& progress)
    : m_progress(progress)
    , m_input(progress, ChunkSize)
{
    const QString error = m_input.open(path);
    if (!error.isEmpty())
        parseFail(error);
}

std::size_t FileSource::read(char* dst, std::size_t max)
{
    throwIfCancelled(m_progress);
    const qint64 n = m_input.read(dst, max);
    if (n < 0)
        parseFail(m_input.error(), 0, m_input.errorOffset());
    return static_cast<std::size_t>(n);
}

namespace {

// ---- the '&' filter ------------------------------------------------------------------------------

/// Escapes a bare '&' (docs/FORMATS.md 5.1) in a byte stream of XML. A tail that cannot be judged yet
/// (an '&' or '<' too close to the end of the chunk) is held back until the next chunk.
class AmpersandFilter {
public:
    /// Appends the filtered form of `data` to `out`. `last` flushes everything.
    void push(const char* data, std::size_t n, std::string& out, bool last)
    {
        if (!m_pending.empty()) {
            m_pending.append(data, n);
            std::string buffer;
            buffer.swap(m_pending);
            process(buffer.data(), buffer.size(), out, last);
        } else {
            process(data, n, out, last);
        }
    }

    std::size_t escaped() const { return m_escaped; }
    qint64 firstLine() const { return m_firstLine; }

private:
    enum class State { Text, CData, Comment, Pi };

    static bool startsWith(const char* p, std::size_t avail, const char* literal)
    {
        const std::size_t len = std::strlen(literal);
        return avail >= len && std::memcmp(p, literal, len) == 0;
    }

    /// 1: an entity or character reference starts at p ('&'); 0: a bare '&'; -1: undecided (more bytes needed).
    static int isReference(const char* p, std::size_t avail)
    {
        static const char* const named[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
        bool undecided = false;
        for (const char* name : named) {
            const std::size_t len = std::strlen(name);
            const std::size_t k = std::min(len, avail);
            if (std::memcmp(p, name, k) == 0) {
                if (k == len)
                    return 1;
                undecided = true;
            }
        }
        if (avail >= 2 && p[1] == '#') {
            std::size_t i = 2;
            bool hex = false;
            if (i < avail && p[i] == 'x') {
                hex = true;
                ++i;
            }
            const std::size_t digitsFrom = i;
            while (i < avail && i < 32
                && ((p[i] >= '0' && p[i] <= '9')
                    || (hex && ((p[i] >= 'a' && p[i] <= 'f') || (p[i] >= 'A' && p[i] <= 'F')))))
                ++i;
            if (i < avail && i < 32)
                return p[i] == ';' && i > digitsFrom ? 1 : 0;
            return i >= 32 ? 0 : -1;
        }
        if (avail < 2)
            return -1;
        return undecided ? -1 : 0;
    }

    void process(const char* p, std::size_t n, std::string& out, bool last)
    {
        std::size_t i = 0;
        std::size_t emitted = 0; // p[emitted, i) is still to be copied
        std::size_t hold = n; // where the held-back tail starts
        auto lineAt = [&](std::size_t pos) { return m_line + std::count(p + emitted, p + pos, '\n') + m_linesInOut; };
        m_linesInOut = 0;
        while (i < n) {
            if (m_state == State::Text) {
                const char* q = p + i;
                const char* end = p + n;
                while (q < end && *q != '&' && *q != '<')
                    ++q;
                i = static_cast<std::size_t>(q - p);
                if (i >= n)
                    break;
                const std::size_t avail = n - i;
                if (*q == '<') {
                    if (avail >= 2 && q[1] != '!' && q[1] != '?') {
                        ++i; // an ordinary tag: the common case
                        continue;
                    }
                    if (avail < 9 && !last) {
                        hold = i;
                        break;
                    }
                    if (startsWith(q, avail, "<![CDATA[")) {
                        m_state = State::CData;
                        i += 9;
                    } else if (startsWith(q, avail, "<!--")) {
                        m_state = State::Comment;
                        i += 4;
                    } else if (startsWith(q, avail, "<?")) {
                        m_state = State::Pi;
                        i += 2;
                    } else {
                        ++i;
                    }
                    continue;
                }
                int ref = isReference(q, avail);
                if (ref < 0) {
                    if (!last) {
                        hold = i;
                        break;
                    }
                    ref = 0;
                }
                if (ref == 1) {
                    ++i;
                    continue;
                }
                if (m_escaped == 0)
                    m_firstLine = lineAt(i);
                out.append(p + emitted, i - emitted);
                m_linesInOut += std::count(p + emitted, p + i, '\n');
                out.append("&amp;");
                ++m_escaped;
                ++i;
                emitted = i;
                continue;
            }
            const char* close = m_state == State::CData ? "]]>" : m_state == State::Comment ? "-->" : "?>";
            const std::string_view rest(p + i, n - i);
            const std::size_t at = rest.find(close);
            if (at == std::string_view::npos) {
                const std::size_t keep = std::strlen(close) - 1;
                if (!last && n - i > keep) {
                    hold = n - keep;
                } else if (!last) {
                    hold = i;
                }
                if (last)
                    i = n;
                break;
            }
            i += at + std::strlen(close);
            m_state = State::Text;
        }
        if (last)
            hold = n;
        if (hold < emitted)
            hold = emitted;
        out.append(p + emitted, hold - emitted);
        m_linesInOut += std::count(p + emitted, p + hold, '\n');
        m_line += m_linesInOut;
        m_linesInOut = 0;
        if (hold < n)
            m_pending.assign(p + hold, n - hold);
    }

    std::string m_pending;
    State m_state = State::Text;
    qint64 m_line = 1;
    qint64 m_linesInOut = 0;
    std::size_t m_escaped = 0;
    qint64 m_firstLine = 0;
};

/// Appends `item` to `items`; its position.
template <typename T> int append(std::vector<T>& items, T item)
{
    items.push_back(std::move(item));
    return static_cast<int>(items.size() - 1);
}

/// The child elements whose text is a field of a metric, region, system tree node, location group or
/// location (other children are ignored, or handled by XmlParser::startElement).
template <typename T> using TextFields = std::pair<std::u16string_view, QString T::*>;
constexpr TextFields<CubeMetric> MetricFields[] = { { u"disp_name", &CubeMetric::dispName },
    { u"uniq_name", &CubeMetric::uniqName }, { u"dtype", &CubeMetric::dtype }, { u"uom", &CubeMetric::uom },
    { u"val", &CubeMetric::val }, { u"url", &CubeMetric::url }, { u"descr", &CubeMetric::descr } };
constexpr TextFields<CubeRegion> RegionFields[]
    = { { u"name", &CubeRegion::name }, { u"mangled_name", &CubeRegion::mangled },
          { u"paradigm", &CubeRegion::paradigm }, { u"role", &CubeRegion::role }, { u"descr", &CubeRegion::descr } };
constexpr TextFields<SysNode> SysNodeFields[] = { { u"name", &SysNode::name }, { u"class", &SysNode::cls } };
constexpr TextFields<LocGroup> GroupFields[]
    = { { u"name", &LocGroup::name }, { u"rank", &LocGroup::rankText }, { u"type", &LocGroup::type } };
constexpr TextFields<Location> LocationFields[]
    = { { u"name", &Location::name }, { u"rank", &Location::rankText }, { u"type", &Location::type } };

// ---- the XML parser --------------------------------------------------------------------------------

/// Streams CUBE XML (3 or 4) into a CubeDocument, including CUBE 3 <severity> matrices.
class XmlParser {
public:
    XmlParser(ByteSource& source, CubeDocument& doc, Progress& progress, const QString& member)
        : m_source(source)
        , m_doc(doc)
        , m_progress(progress)
        , m_member(member)
    {
        m_raw.resize(ChunkSize);
    }

    void parse()
    {
        m_stack.push_back({ Kind::Document });
        while (!m_done) {
            switch (next()) {
            case QXmlStreamReader::StartElement:
                startElement();
                break;
            case QXmlStreamReader::EndElement:
                endElement();
                break;
            case QXmlStreamReader::Characters:
                characters();
                break;
            case QXmlStreamReader::EndDocument:
                if (!m_done)
                    xmlFail(QStringLiteral("the document ends without a <cube> element"));
                break;
            default:
                break;
            }
        }
        finalizeStructure(m_doc, m_member);
    }

    XmlParseStats stats() const
    {
        return { m_filter.escaped(), m_filter.firstLine(), m_shortRows, m_firstShortRow, m_longRows, m_firstLongRow };
    }

private:
    enum class Kind {
        Document,
        Cube,
        Doc,
        Mirrors,
        Metrics,
        Metric,
        Program,
        Region,
        Cnode,
        System,
        SysNode,
        Group,
        Location,
        Topologies,
        Cart,
        Severity,
        Matrix,
        Row,
        Text,
        Ignored
    };
    struct Frame {
        Kind kind;
        int index = -1;
        QString* text = nullptr;
        int matrixMetric = -1;
    };

    QString here() const
    {
        return QStringLiteral("%1, column %2").arg(where(m_member, m_xml.lineNumber())).arg(m_xml.columnNumber());
    }

    [[noreturn]] void xmlFail(const QString& message) const
    {
        parseFail(QStringLiteral("%1: %2").arg(here(), message), m_xml.lineNumber());
    }

    void feed()
    {
        throwIfCancelled(m_progress);
        const std::size_t n = m_source.read(m_raw.data(), m_raw.size());
        m_filtered.clear();
        m_filter.push(m_raw.data(), n, m_filtered, n == 0);
        if (n == 0)
            m_sourceDone = true;
        if (!m_filtered.empty())
            m_xml.addData(QByteArray(m_filtered.data(), static_cast<qsizetype>(m_filtered.size())));
    }

    QXmlStreamReader::TokenType next()
    {
        while (true) {
            const auto token = m_xml.readNext();
            if (token != QXmlStreamReader::Invalid)
                return token;
            if (m_xml.error() == QXmlStreamReader::PrematureEndOfDocumentError) {
                if (!m_sourceDone) {
                    feed();
                    continue;
                }
                xmlFail(QStringLiteral("the XML ends inside <%1> (truncated file?)").arg(openElementName()));
            }
            xmlFail(QStringLiteral("malformed XML: %1").arg(m_xml.errorString()));
        }
    }

    QString openElementName() const
    {
        return m_openNames.isEmpty() ? QStringLiteral("the document") : m_openNames.last();
    }

    QStringView attr(const char* name) const { return m_xml.attributes().value(QLatin1StringView(name)); }

    qint64 intAttr(const char* name, const char* what, bool required = true, qint64 fallback = -1) const
    {
        if (!m_xml.attributes().hasAttribute(QLatin1StringView(name))) {
            if (required)
                xmlFail(QStringLiteral("<%1> has no %2 attribute (expected %3)")
                            .arg(m_xml.name(), QLatin1String(name), QLatin1String(what)));
            return fallback;
        }
        bool ok = false;
        const qint64 v = parseInteger(attr(name), &ok);
        if (!ok)
            xmlFail(QStringLiteral("<%1 %2=\"%3\">: expected %4")
                        .arg(m_xml.name(), QLatin1String(name), attr(name).left(40), QLatin1String(what)));
        return v;
    }

    /// The position of the metric or cnode (`what`) whose id the attribute `name` holds (`expected` says
    /// what it must hold).
    int reference(const char* name, const char* expected, const char* what, const QHash<qint64, int>& byId) const
    {
        const qint64 id = intAttr(name, expected);
        const auto it = byId.constFind(id);
        if (it == byId.cend())
            xmlFail(QStringLiteral("<%1 %2=\"%3\">: no %4 has this id")
                        .arg(m_xml.name(), QLatin1String(name))
                        .arg(id)
                        .arg(QLatin1String(what)));
        return it.value();
    }

    void unknown()
    {
        if (m_doc.unknownElements.size() < 5)
            m_doc.unknownElements << QStringLiteral("<%1> in <%2> (line %3)")
                                         .arg(m_xml.name(), openElementName())
                                         .arg(m_xml.lineNumber());
        else if (m_doc.unknownElements.size() == 5)
            m_doc.unknownElements << QStringLiteral("...");
    }

    void startElement()
    {
        const QStringView n = m_xml.name();
        if (m_stack.size() > MaxDepth)
            xmlFail(QStringLiteral("<%1> is nested more than %2 elements deep (expected a call tree of at most about "
                                   "%2 levels)")
                        .arg(n)
                        .arg(MaxDepth));
        const Frame top = m_stack.back();
        Frame f { Kind::Ignored };
        auto text = [&](QString& target) {
            f.kind = Kind::Text;
            f.text = &target;
            m_text.clear();
        };
        // A child element whose text fills a field of `target`, looked up in `fields`.
        auto textField = [&](auto& target, const auto& fields) {
            for (const auto& [element, field] : fields)
                if (n == QStringView(element)) {
                    text(target.*field);
                    return true;
                }
            return false;
        };
        switch (top.kind) {
        case Kind::Document:
            if (n != u"cube")
                xmlFail(QStringLiteral("expected the root element <cube>, found <%1>").arg(n));
            startCube();
            f.kind = Kind::Cube;
            break;
        case Kind::Cube:
            if (n == u"attr") {
                m_doc.attrs.emplace_back(attr("key").toString(), attr("value").toString());
            } else if (n == u"doc") {
                f.kind = Kind::Doc;
            } else if (n == u"metrics") {
                f.kind = Kind::Metrics;
            } else if (n == u"program") {
                f.kind = Kind::Program;
            } else if (n == u"system") {
                if (m_doc.finalized)
                    xmlFail(QStringLiteral("<system> after <severity> (expected the system tree first)"));
                f.kind = Kind::System;
            } else if (n == u"severity") {
                finalizeStructure(m_doc, m_member);
                m_doc.hasSeverity = true;
                f.kind = Kind::Severity;
            } else {
                unknown();
            }
            break;
        case Kind::Doc:
            if (n == u"mirrors")
                f.kind = Kind::Mirrors;
            break;
        case Kind::Mirrors:
            if (n == u"murl") {
                m_doc.mirrors.append(QString());
                text(m_doc.mirrors.last());
            }
            break;
        case Kind::Metrics:
            if (n == u"metric") {
                f.kind = Kind::Metric;
                f.index = newMetric(-1);
            } else {
                unknown();
            }
            break;
        case Kind::Metric: {
            auto& m = m_doc.metrics[static_cast<std::size_t>(top.index)];
            if (n == u"metric") {
                f.kind = Kind::Metric;
                f.index = newMetric(top.index);
            } else if (!textField(m, MetricFields) && n.startsWith(u"cubepl")) {
                text(m.cubepl);
            }
            break;
        }
        case Kind::Program:
            if (n == u"region") {
                f.kind = Kind::Region;
                f.index = newRegion();
            } else if (n == u"cnode") {
                f.kind = Kind::Cnode;
                f.index = newCnode(-1);
            } else {
                unknown();
            }
            break;
        case Kind::Region: {
            textField(m_doc.regions[static_cast<std::size_t>(top.index)], RegionFields);
            break;
        }
        case Kind::Cnode:
            if (n == u"cnode") {
                f.kind = Kind::Cnode;
                f.index = newCnode(top.index);
            } else if (n == u"parameter") {
                addParameter(top.index);
            } else if (n != u"attr") {
                unknown();
            }
            break;
        case Kind::System:
        case Kind::SysNode:
            if (n == u"systemtreenode" || n == u"machine" || (n == u"node" && top.kind == Kind::SysNode)) {
                f.kind = Kind::SysNode;
                f.index = newSysNode(
                    top.kind == Kind::SysNode ? top.index : -1, n == u"systemtreenode" ? QString() : n.toString());
            } else if (n == u"locationgroup" || n == u"process") {
                f.kind = Kind::Group;
                f.index = newGroup(top.kind == Kind::SysNode ? top.index : -1, n == u"process");
            } else if (n == u"topologies" && top.kind == Kind::System) {
                f.kind = Kind::Topologies;
            } else if (top.kind == Kind::SysNode) {
                textField(m_doc.sysNodes[static_cast<std::size_t>(top.index)], SysNodeFields);
            } else {
                unknown();
            }
            break;
        case Kind::Group:
            if (n == u"location" || n == u"thread") {
                f.kind = Kind::Location;
                f.index = newLocation(top.index, n == u"thread");
            } else {
                textField(m_doc.groups[static_cast<std::size_t>(top.index)], GroupFields);
            }
            break;
        case Kind::Location:
            textField(m_doc.locations[static_cast<std::size_t>(top.index)], LocationFields);
            break;
        case Kind::Topologies:
            if (n == u"cart") {
                f.kind = Kind::Cart;
                const QString name = attr("name").toString();
                m_doc.topologies << (name.isEmpty() ? QStringLiteral("(unnamed)") : name) + QStringLiteral(":");
                m_doc.carts.emplace_back();
                m_doc.carts.back().name = name;
            }
            break;
        case Kind::Cart:
            if (n == u"dim" && !m_doc.topologies.isEmpty()) {
                QString& t = m_doc.topologies.last();
                t += (t.endsWith(QLatin1Char(':')) ? QStringLiteral(" ") : QStringLiteral(" x "))
                    + attr("size").toString();
                if (attr("periodic") == u"true")
                    t += QStringLiteral(" (periodic)");
                CubeCart::Dim d;
                d.name = attr("name").toString();
                d.size = intAttr("size", "the number of coordinates along the dimension");
                if (d.size < 1)
                    xmlFail(QStringLiteral("<dim size=\"%1\">: expected a positive size").arg(d.size));
                d.periodic = attr("periodic") == u"true";
                m_doc.carts.back().dims.push_back(d);
            } else if (n == u"coord") {
                CubeCart::Coord c;
                c.line = m_xml.lineNumber();
                static const std::pair<const char*, CubeCart::Coord::Of> keys[] = {
                    { "locId", CubeCart::Coord::Of::Location },
                    { "thrdId", CubeCart::Coord::Of::Location },
                    { "procId", CubeCart::Coord::Of::Process },
                    { "nodeId", CubeCart::Coord::Of::Node },
                    { "machId", CubeCart::Coord::Of::Machine },
                };
                for (const auto& [key, of] : keys)
                    if (m_xml.attributes().hasAttribute(QLatin1StringView(key))) {
                        c.of = of;
                        c.id = intAttr(key, "the id of what the coordinates place");
                        break;
                    }
                if (c.id < 0)
                    xmlFail(QStringLiteral("<coord> has no locId, thrdId or procId attribute (expected the id of the "
                                           "location it places)"));
                auto& coords = m_doc.carts.back().coords;
                coords.push_back(std::move(c));
                text(coords.back().text);
            }
            break;
        case Kind::Severity:
            if (n == u"matrix") {
                f.kind = Kind::Matrix;
                f.matrixMetric = reference("metricId", "the id of a metric", "metric", m_doc.metricById);
            } else {
                unknown();
            }
            break;
        case Kind::Matrix:
            if (n == u"row") {
                f.kind = Kind::Row;
                f.index = reference("cnodeId", "the id of a cnode", "cnode", m_doc.cnodeById);
                f.matrixMetric = top.matrixMetric;
                m_rowText.clear();
                m_rowLine = m_xml.lineNumber();
            } else {
                unknown();
            }
            break;
        case Kind::Text:
        case Kind::Row:
        case Kind::Ignored:
            break;
        }
        m_stack.push_back(f);
        m_openNames.append(n.toString());
    }

    void endElement()
    {
        const Frame f = m_stack.back();
        m_stack.pop_back();
        m_openNames.removeLast();
        switch (f.kind) {
        case Kind::Text:
            *f.text = std::move(m_text);
            m_text = QString();
            break;
        case Kind::Row:
            storeRow(f.matrixMetric, f.index);
            break;
        case Kind::Cube:
            m_done = true;
            break;
        default:
            break;
        }
    }

    void characters()
    {
        const Kind k = m_stack.back().kind;
        if (k == Kind::Text) {
            m_text += m_xml.text();
        } else if (k == Kind::Row) {
            const QStringView t = m_xml.text();
            const std::size_t at = m_rowText.size();
            m_rowText.resize(at + static_cast<std::size_t>(t.size()));
            char* out = m_rowText.data() + at;
            for (const QChar c : t)
                *out++ = c.unicode() < 128 ? static_cast<char>(c.unicode()) : '?';
        }
    }

    void startCube()
    {
        const QString version = attr("version").toString().trimmed();
        m_doc.version = version;
        bool ok = false;
        const int major = QStringView(version).left(version.indexOf(QLatin1Char('.'))).toInt(&ok);
        if (!ok || (major != 3 && major != 4))
            xmlFail(QStringLiteral("<cube version=\"%1\">: unsupported version (expected 3.x or 4.x)").arg(version));
        m_doc.major = major;
    }

    int newMetric(int parent)
    {
        if (m_doc.finalized)
            xmlFail(QStringLiteral("<metric> after <severity> (expected the metric tree first)"));
        CubeMetric m;
        m.id = intAttr("id", "a numeric metric id");
        m.parent = parent;
        m.line = m_xml.lineNumber();
        m.typeText = attr("type").toString().trimmed().toUpper();
        if (m.typeText.isEmpty() && parent >= 0)
            m.typeText = m_doc.metrics[static_cast<std::size_t>(parent)].typeText; // docs/FORMATS.md 5.2
        return append(m_doc.metrics, std::move(m));
    }

    int newRegion()
    {
        CubeRegion r;
        r.id = intAttr("id", "a numeric region id");
        r.line = m_xml.lineNumber();
        r.mod = attr("mod").toString();
        r.beginText = attr("begin").toString();
        r.endText = attr("end").toString();
        return append(m_doc.regions, std::move(r));
    }

    int newCnode(int parent)
    {
        if (m_doc.finalized)
            xmlFail(QStringLiteral("<cnode> after <severity> (expected the call tree first)"));
        CubeCnode c;
        c.id = intAttr("id", "a numeric cnode id");
        c.calleeId = intAttr("calleeId", "the id of the called region");
        c.xmlLine = m_xml.lineNumber();
        c.parent = parent;
        c.callLine = attr("line").toString();
        c.mod = attr("mod").toString();
        const int index = append(m_doc.cnodes, std::move(c));
        if (parent >= 0)
            m_doc.cnodes[static_cast<std::size_t>(parent)].children.push_back(index);
        return index;
    }

    void addParameter(int cnode)
    {
        const QString key = attr("parkey").toString();
        const QString value = attr("parvalue").toString();
        m_doc.cnodes[static_cast<std::size_t>(cnode)].params << QStringLiteral("<%1> = <%2>").arg(key, value);
    }

    int newSysNode(int parent, const QString& cls)
    {
        SysNode s;
        s.parent = parent;
        s.cls = cls;
        return append(m_doc.sysNodes, std::move(s));
    }

    int newGroup(int sysNode, bool cube3)
    {
        LocGroup g;
        g.id = intAttr("Id", "a numeric Id", false, -1);
        if (g.id < 0)
            g.id = intAttr("id", "a numeric Id", false, -1);
        g.line = m_xml.lineNumber();
        g.sysNode = sysNode;
        if (cube3)
            g.type = QStringLiteral("process");
        return append(m_doc.groups, std::move(g));
    }

    int newLocation(int group, bool cube3)
    {
        if (m_doc.finalized)
            xmlFail(QStringLiteral("a location after <severity> (expected the system tree first)"));
        Location l;
        l.id = intAttr("Id", "a numeric location Id", false, std::numeric_limits<qint64>::min());
        if (l.id == std::numeric_limits<qint64>::min())
            l.id = intAttr("id", "a numeric location Id");
        l.line = m_xml.lineNumber();
        l.group = group;
        if (cube3)
            l.type = QStringLiteral("thread");
        return append(m_doc.locations, std::move(l));
    }

    void storeRow(int metricIndex, int cnode)
    {
        auto& m = m_doc.metrics[static_cast<std::size_t>(metricIndex)];
        const std::size_t nL = m_doc.locations.size();
        if (m.dataSource.isEmpty())
            m.dataSource = QStringLiteral("<severity>");
        allocateStored(m_doc, m);
        auto& seen = m_rowsSeen[metricIndex];
        if (seen.empty())
            seen.assign(m_doc.cnodes.size(), false);
        if (seen[static_cast<std::size_t>(cnode)])
            parseFail(QStringLiteral("%1: a second <row> for cnode %2 in the matrix of metric %3 (expected one row per "
                                     "cnode)")
                          .arg(where(m_member, m_rowLine))
                          .arg(m_doc.cnodes[static_cast<std::size_t>(cnode)].id)
                          .arg(m.id),
                m_rowLine);
        seen[static_cast<std::size_t>(cnode)] = true;
        double* out = m.stored.data() + static_cast<std::size_t>(cnode) * nL;
        const char* p = m_rowText.data();
        const char* end = p + m_rowText.size();
        std::size_t count = 0;
        while (true) {
            while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
                ++p;
            if (p >= end)
                break;
            const char* tokenStart = p;
            const char* tokenEnd = p;
            while (tokenEnd < end && *tokenEnd != ' ' && *tokenEnd != '\n' && *tokenEnd != '\t' && *tokenEnd != '\r')
                ++tokenEnd;
            textnumber::NumberRange range;
            const auto parsed = textnumber::parseDouble(
                std::string_view(tokenStart, static_cast<std::size_t>(tokenEnd - tokenStart)), &range);
            if (!parsed || range != textnumber::NumberRange::InRange) {
                parseFail(QStringLiteral("%1: value %2 of the row of cnode %3 (metric %4) is '%5' (expected a number)")
                              .arg(where(m_member, m_rowLine))
                              .arg(count + 1)
                              .arg(m_doc.cnodes[static_cast<std::size_t>(cnode)].id)
                              .arg(m.id)
                              .arg(QString::fromLatin1(tokenStart, std::min<qsizetype>(tokenEnd - tokenStart, 40))),
                    m_rowLine);
            }
            if (count < nL)
                out[count] = *parsed;
            ++count;
            p = tokenEnd;
        }
        // CubeLib reads a short row as zeros for the missing threads (test1.2/empty.cube has a row with one
        // value for 32 threads): so do we, with a warning. Values beyond the threads belong to nobody.
        if (count < nL && m_shortRows++ == 0)
            m_firstShortRow = m_rowLine;
        if (count > nL && m_longRows++ == 0)
            m_firstLongRow = m_rowLine;
    }

    ByteSource& m_source;
    CubeDocument& m_doc;
    Progress& m_progress;
    QString m_member;
    QXmlStreamReader m_xml;
    AmpersandFilter m_filter;
    std::vector<char> m_raw;
    std::string m_filtered;
    bool m_sourceDone = false;
    bool m_done = false;
    std::vector<Frame> m_stack;
    QStringList m_openNames;
    QString m_text;
    std::string m_rowText;
    qint64 m_rowLine = 0;
    std::map<int, std::vector<bool>> m_rowsSeen;
    std::size_t m_shortRows = 0;
    qint64 m_firstShortRow = 0;
    std::size_t m_longRows = 0;
    qint64 m_firstLongRow = 0;
};

} // namespace

XmlParseStats parseXml(ByteSource& source, CubeDocument& doc, Progress& progress, const QString& member)
{
    XmlParser parser(source, doc, progress, member);
    parser.parse();
    return parser.stats();
}

void ampersandWarning(const XmlParseStats& stats, const QString& member, QStringList& warnings)
{
    if (stats.escapedAmpersands == 0)
        return;
    warnings << QStringLiteral("%1%2 bare '&' character(s) (not XML; first at line %3) were read as '&amp;'")
                    .arg(member.isEmpty() ? QString() : member + QStringLiteral(": "))
                    .arg(stats.escapedAmpersands)
                    .arg(stats.firstEscapeLine);
}

} // namespace parallax::cube
