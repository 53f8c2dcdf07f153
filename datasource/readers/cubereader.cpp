// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// CUBE reader (docs/FORMATS.md 5; docs/SEMANTICS.md 1.3, 1.4).
//
// What the model gets
// -------------------
// A CUBE severity s(metric, cnode, location) lives on three trees. Parallax flattens them like this:
//
// * Metrics. Every CUBE metric that stores values becomes one model Metric: EXCLUSIVE, INCLUSIVE and
//   SIMPLE metrics in CUBE 4, every metric in CUBE 3 (VOID ones too; they are all zero). The name is
//   the disp_name; names that occur twice get " (<uniq_name>)" appended. The unit comes from uom: sec
//   -> "sec", occ -> "count", bytes -> "bytes", usec -> "us", anything else as written. Values stay
//   in that unit. Derived metrics (POSTDERIVED, PREDERIVED_*: a CubePL expression, no data) and the
//   dtypes SCALE_FUNC and unknown ones are skipped with a warning (an error under
//   ReadOptions::strict). Composite dtypes become one metric per part, named "<name> (<part>)", in
//   the layout CubeLib writes (and pycubexr reads): RATE (main, duration: f64 each), COMPLEX (re, im),
//   TAU_ATOMIC (count: u32, then min, max, sum, sum of squares: f64), NDOUBLES(n) (parts 1..n) and
//   HISTOGRAM(n) (min, max, bin 1..bin n). Their min/max parts are non-additive (as MINDOUBLE/MAXDOUBLE
//   below); the others add up. The part metrics follow all declared metrics.
// * Metric tree. Stored values are inclusive along the metric tree (docs/FORMATS.md 5.1: "Time" already
//   contains its children "Execution", "Overhead", ...). Each model metric holds its stored value,
//   i.e. what CUBE shows for a collapsed metric; the metric-exclusive value (stored minus children)
//   is not materialised. The tree itself is kept as trial metadata "CUBE metric <name>" (parent,
//   uniq_name, type, dtype, uom, url with "@mirror@" expanded to the first <murl>, description), as
//   display information only (docs/SEMANTICS.md 1.2).
// * Call tree. Each cnode becomes the call-path event "root => child => ... => leaf" (a root is a
//   flat event of one component). The leaf name is the region name, with " [ <key> = <value> ]"
//   for cnode parameters (TAU's parameter form, group TAU_PARAM). A region whose one-letter
//   <mangled_name> the producer's C++ demangler turned into a type name ("a" -> "signed char", as
//   Score-P does) is named by its mangled name, with a warning. Distinct regions (name, mod,
//   begin, end) that share a name keep it for the first region in document order; the others are
//   named "name [{mod} {begin}-{end}]" (TAU's source-location form), with a warning. Sibling cnodes
//   whose paths come out identical (the same region called from several call sites or lines) are
//   one event: exclusive, inclusive, calls and subrs are summed, with a warning.
//   Per cnode c, location t and additive metric m:
//     - EXCLUSIVE metrics (and every CUBE 3 metric, and SIMPLE ones): stored = excl(c);
//       incl(c) = excl(c) + sum of incl over the children of c.
//     - INCLUSIVE metrics (Score-P "time"): stored = incl(c); excl(c) = incl(c) - sum of incl over the
//       children of c. Rounding can leave tiny negative exclusive values; they are kept as computed.
//     - calls(c) = the exclusive value of the Visits metric (uniq_name "visits", else disp_name
//       "Visits"); subrs(c) = the sum of calls over the children of c. Without a Visits metric calls
//       and subrs are 0 (with a warning).
//   Non-additive metrics (dtype MINDOUBLE / MAXDOUBLE, e.g. Score-P min_time / max_time: the least or
//   greatest inclusive time of one visit of that call path) are not summed over the call tree:
//   excl = incl = the stored value of the cnode. CUBE's own view of a collapsed node (the minimum or
//   maximum over the subtree) mixes different call paths and is not reproduced; merged events take the
//   minimum (maximum) over their cnodes that ran. The names are listed in the trial metadata key
//   "CUBE non-additive metrics": sums of them over threads or events mean nothing.
// * Flat events. Each leaf name is also a flat event holding docs/SEMANTICS.md 1.4's flat values over all
//   cnodes with that leaf: excl, calls and subrs summed; incl summed over the outermost such cnodes
//   (no ancestor with the same leaf), so recursion is not counted twice. A call-tree root is its own
//   flat event; if its region also occurs deeper in the tree, that event holds the flat totals (with a
//   warning). Regions that no cnode calls become no event (their count is in "CUBE regions").
// * Presence. CUBE stores a dense matrix, zero where nothing happened. A cell (cnode, location) is
//   present when any stored value of the cnode on that location is non-zero, or a child is present;
//   an event is present on a thread when one of its cnodes is. All-zero rows are therefore absent.
// * System tree. Each location becomes ThreadKey(process rank, 0, thread rank). A location whose key
//   is already taken (e.g. accelerator or metric locations reusing a rank) takes the next free
//   context, with a warning. The names of the system tree nodes (per class: "CUBE machine",
//   "CUBE node", ...), of the location group ("CUBE process") and of the location ("CUBE thread") are
//   per-thread metadata; keys equal on all threads move to the trial (TrialBuilder's rule). CUBE
//   <attr> pairs are trial metadata as written. Topology coordinates are not kept (names and sizes
//   are, in "CUBE topologies").
//
// How the bytes are read
// ----------------------
// * XML (CUBE 3 .cube, .cube.gz, and anchor.xml) is parsed incrementally with QXmlStreamReader, fed
//   in 256 KiB chunks through a filter that escapes a bare '&' (one that does not start &amp; &lt;
//   &gt; &quot; &apos; or a character reference) as &amp; outside CDATA, comments and processing
//   instructions. Real writers leave such '&'s raw (docs/FORMATS.md 5.1); each load that needed it gets one
//   warning with the count and the first line. Escaping does not change line numbers.
// * .cube.gz is inflated with zlib in chunks (concatenated gzip members are one stream).
// * .cubex is read with libarchive straight from the tar, never extracted. anchor.xml is usually the
//   last member, and a .data member can come before its .index, so: pass 1 parses anchor.xml, keeps
//   the (small) .index members and decodes every .data member whose index and anchor are known; if
//   any .data member came too early, pass 2 re-reads the archive for those members only. .index and
//   .data follow docs/FORMATS.md 5.3 (byte order from the index mark; SPARSE and DENSE; row ids are
//   positions in the per-metric enumeration: pre-order for EXCLUSIVE, sibling blocks for INCLUSIVE,
//   id order for SIMPLE). "ZCUBEX.DATA" is: i64 entry count n, n x (i64 uncompressed position, i64
//   compressed position, i64 compressed size), then the zlib streams in order, which inflate to the
//   plain rows (checked on Score-P 1.3's files in ../shared/data/extrap/cubeset/multi_parameter: one
//   stream per row, little-endian). Those files also hold anchor.xml gzip-compressed inside the tar;
//   a member that starts with the gzip magic is inflated while it is parsed.
//
// * CUBE 3 <severity> rows hold one value per thread in thread Id order; a row with fewer values is
//   padded with zeros (as CubeLib does; test1.2/empty.cube has one), with a warning. More values than
//   threads, non-zero .data rows beyond the index, and members of unknown metrics are data that
//   belongs nowhere: a warning, an error under ReadOptions::strict. A .data member may end in zero
//   rows beyond its index (test0.0.cubex); those are ignored silently.
// * Limits, so that a corrupt file cannot exhaust memory: the dense value arrays (cnodes x locations
//   per metric with data) may hold 16 Mi values plus 16 per byte of the file (x32 for gzip), the
//   trial's cells likewise; at most 4096 metrics; call-path names up to 2^27 characters in all. Real
//   profiles stay far below; beyond them the read fails and says why.
//
// Errors name the file, the member, and the XML line or the byte offset in the member, and say what
// was expected there.

#include "datasource/readers/cubereader.h"

#include "datasource/model/names.h"
#include "datasource/model/poolwait.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/gzipinput.h"
#include "datasource/readers/textnumber.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QStringDecoder>
#include <QThread>
#include <QXmlStreamReader>
#include <QtConcurrent/QtConcurrentMap>
#include <QtEndian>
#include <algorithm>
#include <archive.h>
#include <archive_entry.h>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <zlib.h>

namespace parallax {

namespace {

/// Bytes read from a file or archive member at a time.
constexpr std::size_t ChunkSize = 256 * 1024;
/// Misc members up to this size whose bytes are UTF-8 text are kept as trial metadata.
constexpr qint64 MaxKeptMiscMember = 64 * 1024;
/// Budget for the call-path names (characters over all cnodes): far above any real profile, it
/// stops a pathological tree (a fuzzer's 50,000 nested cnodes) from needing gigabytes of names.
constexpr qint64 MaxPathCharacters = qint64(1) << 27;
/// Upper bound on cnodes x locations: beyond it the dense value arrays could not be allocated.
constexpr qint64 MaxCells = qint64(1) << 31;
/// Far beyond any real metric tree (Scalasca's has ~200); it bounds the builder's linear metric search.
constexpr std::size_t MaxMetrics = 4096;
/// Parts of one composite value (NDOUBLES(n), HISTOGRAM(n)) that become metrics of their own.
constexpr int MaxComponents = 256;

/// A failure somewhere in the file. `message` is complete (member, position, what was expected).

[[noreturn]] void fail(const QString& message, qint64 line = 0, qint64 offset = -1)
{
    throw ParseError { message, line, offset };
}

// ---- the document ------------------------------------------------------------------------------

enum class MetricKind { Exclusive, Inclusive, Simple, Derived };
enum class ValueType { Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64, Double, Unsupported };

int valueSize(ValueType t)
{
    switch (t) {
    case ValueType::Int8:
    case ValueType::UInt8:
        return 1;
    case ValueType::Int16:
    case ValueType::UInt16:
        return 2;
    case ValueType::Int32:
    case ValueType::UInt32:
        return 4;
    case ValueType::Int64:
    case ValueType::UInt64:
    case ValueType::Double:
        return 8;
    case ValueType::Unsupported:
        break;
    }
    return 0;
}

struct CubeMetric {
    qint64 id = -1;
    int parent = -1;
    qint64 line = 0;
    QString dispName, uniqName, dtype, uom, val, url, descr, typeText, cubepl;
    MetricKind kind = MetricKind::Exclusive;
    ValueType valueType = ValueType::Double;
    bool nonAdditive = false;
    bool minimum = false;
    /// Becomes a model metric (stores values, supported dtype).
    bool imported = false;
    /// A composite dtype (RATE, COMPLEX, TAU_ATOMIC, NDOUBLES(n), HISTOGRAM(n)): each value is a record
    /// of `recordSize` bytes whose parts become model metrics of their own (componentMetrics, indices
    /// into CubeDocument::metrics, appended by classifyMetrics).
    struct Component {
        QString part;
        int offset;
        ValueType type;
        int extremum; // 0 additive, -1 minimum, +1 maximum
    };
    std::vector<Component> components;
    int recordSize = 0;
    std::vector<int> componentMetrics;
    /// The composite metric a component metric belongs to (index into CubeDocument::metrics), or -1.
    int compositeOf = -1;
    std::size_t modelIndex = 0;
    QString modelName;
    /// Stored values, [cnode position * locations + location column]; empty means all zero.
    std::vector<double> stored;
    /// Where the values came from ("anchor.xml", "3.data"), for duplicate detection.
    QString dataSource;
};

struct CubeRegion {
    qint64 id = -1;
    qint64 line = 0;
    QString name, mangled, mod, paradigm, role, descr;
    QString beginText, endText;
    qint64 begin = -1;
    qint64 end = -1;
};

struct CubeCnode {
    qint64 id = -1;
    qint64 calleeId = -1;
    int region = -1;
    int parent = -1;
    std::vector<int> children;
    qint64 xmlLine = 0;
    QString callLine, mod;
    QStringList params;
};

struct SysNode {
    QString cls, name;
    int parent = -1;
};

struct LocGroup {
    qint64 id = -1;
    qint64 line = 0;
    QString name, type, rankText;
    int sysNode = -1;
};

struct Location {
    qint64 id = -1;
    qint64 line = 0;
    QString name, type, rankText;
    int group = -1;
};

struct CubeDocument {
    QString version;
    int major = 0;
    std::vector<std::pair<QString, QString>> attrs;
    QStringList mirrors;
    std::vector<CubeMetric> metrics;
    std::vector<CubeRegion> regions;
    std::vector<CubeCnode> cnodes; // document order = depth-first pre-order
    std::vector<SysNode> sysNodes;
    std::vector<LocGroup> groups;
    std::vector<Location> locations; // sorted by Id after finalize()
    QStringList topologies;
    QStringList unknownElements;
    bool hasSeverity = false;
    bool finalized = false;
    /// Values this reader may hold in dense arrays (see allocateStored), and those allocated so far.
    qint64 cellBudget = qint64(1) << 24;
    qint64 cellsAllocated = 0;
    QHash<qint64, int> metricById;
    QHash<qint64, int> cnodeById;

    std::size_t cellCount() const { return cnodes.size() * locations.size(); }
};

QString where(const QString& member, qint64 line)
{
    return member.isEmpty() ? QStringLiteral("line %1").arg(line) : QStringLiteral("%1 line %2").arg(member).arg(line);
}

qint64 parseInteger(QStringView text, bool* ok) { return text.trimmed().toLongLong(ok); }

/// Checks ids, resolves callees, orders locations by Id. Called once the structure is complete
/// (before the first CUBE 3 severity row, or at the end of the XML).
void finalizeStructure(CubeDocument& doc, const QString& member)
{
    if (doc.finalized)
        return;
    doc.finalized = true;
    if (doc.metrics.size() > MaxMetrics)
        fail(QStringLiteral("%1 metrics: more than this reader accepts (%2; corrupt file?)")
                 .arg(doc.metrics.size())
                 .arg(MaxMetrics));
    for (std::size_t i = 0; i < doc.metrics.size(); ++i) {
        const auto& m = doc.metrics[i];
        if (doc.metricById.contains(m.id))
            fail(QStringLiteral("%1: metric id %2 is defined twice (expected unique metric ids)")
                     .arg(where(member, m.line))
                     .arg(m.id),
                m.line);
        doc.metricById.insert(m.id, static_cast<int>(i));
    }
    QHash<qint64, int> regionById;
    for (std::size_t i = 0; i < doc.regions.size(); ++i) {
        auto& r = doc.regions[i];
        if (regionById.contains(r.id))
            fail(QStringLiteral("%1: region id %2 is defined twice (expected unique region ids)")
                     .arg(where(member, r.line))
                     .arg(r.id),
                r.line);
        regionById.insert(r.id, static_cast<int>(i));
        bool ok = false;
        r.begin = parseInteger(r.beginText, &ok);
        if (!ok)
            r.begin = -1;
        r.end = parseInteger(r.endText, &ok);
        if (!ok)
            r.end = -1;
    }
    for (std::size_t i = 0; i < doc.cnodes.size(); ++i) {
        auto& c = doc.cnodes[i];
        if (doc.cnodeById.contains(c.id))
            fail(QStringLiteral("%1: cnode id %2 is defined twice (expected unique cnode ids)")
                     .arg(where(member, c.xmlLine))
                     .arg(c.id),
                c.xmlLine);
        doc.cnodeById.insert(c.id, static_cast<int>(i));
        const auto it = regionById.constFind(c.calleeId);
        if (it == regionById.cend())
            fail(QStringLiteral("%1: cnode %2 calls region %3, which is not defined (expected the id of a "
                                "<region>)")
                     .arg(where(member, c.xmlLine))
                     .arg(c.id)
                     .arg(c.calleeId),
                c.xmlLine);
        c.region = it.value();
    }
    std::stable_sort(
        doc.locations.begin(), doc.locations.end(), [](const Location& a, const Location& b) { return a.id < b.id; });
    for (std::size_t i = 1; i < doc.locations.size(); ++i)
        if (doc.locations[i].id == doc.locations[i - 1].id)
            fail(QStringLiteral("%1: location (thread) Id %2 is defined twice (expected unique Ids)")
                     .arg(where(member, doc.locations[i].line))
                     .arg(doc.locations[i].id),
                doc.locations[i].line);
    if (static_cast<qint64>(doc.cnodes.size()) * static_cast<qint64>(doc.locations.size()) > MaxCells)
        fail(QStringLiteral("%1 cnodes x %2 locations is more than this reader can hold")
                 .arg(doc.cnodes.size())
                 .arg(doc.locations.size()));
}

/// Gives a metric its dense value array (cnodes x locations, zero). The total is bounded by
/// CubeDocument::cellBudget, which grows with the file size: a real file stores (or lists) its values,
/// so only a corrupt one can ask for much more memory than its own size.
void allocateStored(CubeDocument& doc, CubeMetric& m)
{
    if (!m.stored.empty())
        return;
    const auto cells = static_cast<qint64>(doc.cellCount());
    if (doc.cellsAllocated + cells > doc.cellBudget)
        fail(QStringLiteral("the values of %1 metric(s) need %2 cnodes x %3 locations each, more than this reader "
                            "allows for a file of this size (corrupt file, or too large a profile)")
                 .arg(doc.cellsAllocated / std::max<qint64>(cells, 1) + 1)
                 .arg(doc.cnodes.size())
                 .arg(doc.locations.size()));
    doc.cellsAllocated += cells;
    m.stored.assign(static_cast<std::size_t>(cells), 0.0);
}

// ---- byte sources --------------------------------------------------------------------------------

class ByteSource {
public:
    virtual ~ByteSource() = default;
    /// Up to `max` bytes; 0 at the end. Throws ParseError.
    virtual std::size_t read(char* dst, std::size_t max) = 0;
};

/// A file, inflated when it starts with the gzip magic (GzipInput), with its errors as ParseError.
class FileSource : public ByteSource {
public:
    FileSource(const QString& path, Progress& progress)
        : m_progress(progress)
        , m_input(progress, ChunkSize)
    {
        const QString error = m_input.open(path);
        if (!error.isEmpty())
            fail(error);
    }

    bool isGzip() const { return m_input.isGzip(); }
    bool cutShort() const { return m_input.cutShort(); }
    qint64 trailingGarbage() const { return m_input.trailingGarbage(); }

    std::size_t read(char* dst, std::size_t max) override
    {
        if (m_progress.isCancelled())
            throw Cancelled {};
        const qint64 n = m_input.read(dst, max);
        if (n < 0)
            fail(m_input.error(), 0, m_input.errorOffset());
        return static_cast<std::size_t>(n);
    }

private:
    Progress& m_progress;
    GzipInput m_input;
};

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

    std::size_t escapedAmpersands() const { return m_filter.escaped(); }
    qint64 firstEscapeLine() const { return m_filter.firstLine(); }
    /// Severity rows with fewer (more) values than threads, and the line of the first one.
    std::size_t shortRows() const { return m_shortRows; }
    qint64 firstShortRow() const { return m_firstShortRow; }
    std::size_t longRows() const { return m_longRows; }
    qint64 firstLongRow() const { return m_firstLongRow; }

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
        fail(QStringLiteral("%1: %2").arg(here(), message), m_xml.lineNumber());
    }

    void feed()
    {
        if (m_progress.isCancelled())
            throw Cancelled {};
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
        const Frame top = m_stack.back();
        Frame f { Kind::Ignored };
        auto text = [&](QString& target) {
            f.kind = Kind::Text;
            f.text = &target;
            m_text.clear();
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
            } else if (n == u"disp_name") {
                text(m.dispName);
            } else if (n == u"uniq_name") {
                text(m.uniqName);
            } else if (n == u"dtype") {
                text(m.dtype);
            } else if (n == u"uom") {
                text(m.uom);
            } else if (n == u"val") {
                text(m.val);
            } else if (n == u"url") {
                text(m.url);
            } else if (n == u"descr") {
                text(m.descr);
            } else if (n.startsWith(u"cubepl")) {
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
            auto& r = m_doc.regions[static_cast<std::size_t>(top.index)];
            if (n == u"name")
                text(r.name);
            else if (n == u"mangled_name")
                text(r.mangled);
            else if (n == u"paradigm")
                text(r.paradigm);
            else if (n == u"role")
                text(r.role);
            else if (n == u"descr")
                text(r.descr);
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
                auto& s = m_doc.sysNodes[static_cast<std::size_t>(top.index)];
                if (n == u"name")
                    text(s.name);
                else if (n == u"class")
                    text(s.cls);
            } else {
                unknown();
            }
            break;
        case Kind::Group: {
            auto& g = m_doc.groups[static_cast<std::size_t>(top.index)];
            if (n == u"location" || n == u"thread") {
                f.kind = Kind::Location;
                f.index = newLocation(top.index, n == u"thread");
            } else if (n == u"name") {
                text(g.name);
            } else if (n == u"rank") {
                text(g.rankText);
            } else if (n == u"type") {
                text(g.type);
            }
            break;
        }
        case Kind::Location: {
            auto& l = m_doc.locations[static_cast<std::size_t>(top.index)];
            if (n == u"name")
                text(l.name);
            else if (n == u"rank")
                text(l.rankText);
            else if (n == u"type")
                text(l.type);
            break;
        }
        case Kind::Topologies:
            if (n == u"cart") {
                f.kind = Kind::Cart;
                const QString name = attr("name").toString();
                m_doc.topologies << (name.isEmpty() ? QStringLiteral("(unnamed)") : name) + QStringLiteral(":");
            }
            break;
        case Kind::Cart:
            if (n == u"dim" && !m_doc.topologies.isEmpty()) {
                QString& t = m_doc.topologies.last();
                t += (t.endsWith(QLatin1Char(':')) ? QStringLiteral(" ") : QStringLiteral(" x "))
                    + attr("size").toString();
                if (attr("periodic") == u"true")
                    t += QStringLiteral(" (periodic)");
            }
            break;
        case Kind::Severity:
            if (n == u"matrix") {
                const qint64 id = intAttr("metricId", "the id of a metric");
                const auto it = m_doc.metricById.constFind(id);
                if (it == m_doc.metricById.cend())
                    xmlFail(QStringLiteral("<matrix metricId=\"%1\">: no metric has this id").arg(id));
                f.kind = Kind::Matrix;
                f.matrixMetric = it.value();
            } else {
                unknown();
            }
            break;
        case Kind::Matrix:
            if (n == u"row") {
                const qint64 id = intAttr("cnodeId", "the id of a cnode");
                const auto it = m_doc.cnodeById.constFind(id);
                if (it == m_doc.cnodeById.cend())
                    xmlFail(QStringLiteral("<row cnodeId=\"%1\">: no cnode has this id").arg(id));
                f.kind = Kind::Row;
                f.index = it.value();
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
        m_doc.metrics.push_back(std::move(m));
        return static_cast<int>(m_doc.metrics.size() - 1);
    }

    int newRegion()
    {
        CubeRegion r;
        r.id = intAttr("id", "a numeric region id");
        r.line = m_xml.lineNumber();
        r.mod = attr("mod").toString();
        r.beginText = attr("begin").toString();
        r.endText = attr("end").toString();
        m_doc.regions.push_back(std::move(r));
        return static_cast<int>(m_doc.regions.size() - 1);
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
        const int index = static_cast<int>(m_doc.cnodes.size());
        if (parent >= 0)
            m_doc.cnodes[static_cast<std::size_t>(parent)].children.push_back(index);
        m_doc.cnodes.push_back(std::move(c));
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
        m_doc.sysNodes.push_back(std::move(s));
        return static_cast<int>(m_doc.sysNodes.size() - 1);
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
        m_doc.groups.push_back(std::move(g));
        return static_cast<int>(m_doc.groups.size() - 1);
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
        m_doc.locations.push_back(std::move(l));
        return static_cast<int>(m_doc.locations.size() - 1);
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
            fail(QStringLiteral("%1: a second <row> for cnode %2 in the matrix of metric %3 (expected one row per "
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
                fail(QStringLiteral("%1: value %2 of the row of cnode %3 (metric %4) is '%5' (expected a number)")
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

// ---- metric typing -------------------------------------------------------------------------------

/// Sets kind, value type and import flag from the XML strings; returns a warning for a metric that
/// cannot be imported (empty when it can).
QString classifyMetric(CubeMetric& m, int major)
{
    const QString& t = m.typeText;
    if (major < 4 || t.isEmpty() || t == QLatin1String("EXCLUSIVE"))
        m.kind = MetricKind::Exclusive;
    else if (t == QLatin1String("INCLUSIVE"))
        m.kind = MetricKind::Inclusive;
    else if (t == QLatin1String("SIMPLE"))
        m.kind = MetricKind::Simple;
    else if (t == QLatin1String("POSTDERIVED") || t == QLatin1String("PREDERIVED_INCLUSIVE")
        || t == QLatin1String("PREDERIVED_EXCLUSIVE") || t == QLatin1String("DERIVED"))
        m.kind = MetricKind::Derived;
    else
        m.kind = MetricKind::Exclusive; // CubeLib's default for an unknown type
    if (m.kind == MetricKind::Derived)
        return QStringLiteral("derived metric %1 (%2, CubePL expression) has no stored values and was skipped")
            .arg(quoted(m.dispName.isEmpty() ? m.uniqName : m.dispName), t);
    const QString d = m.dtype.trimmed().toUpper();
    struct Known {
        const char* name;
        ValueType type;
    };
    // CubeLib's type names and their aliases (pycubexr's metric_formats.py lists the same).
    static const Known known[] = { { "INTEGER", ValueType::Int64 }, { "INT64", ValueType::Int64 },
        { "UINT64", ValueType::UInt64 }, { "FLOAT", ValueType::Double }, { "DOUBLE", ValueType::Double },
        { "MINDOUBLE", ValueType::Double }, { "MAXDOUBLE", ValueType::Double }, { "INT32", ValueType::Int32 },
        { "UINT32", ValueType::UInt32 }, { "INT16", ValueType::Int16 }, { "UINT16", ValueType::UInt16 },
        { "INT8", ValueType::Int8 }, { "UINT8", ValueType::UInt8 }, { "CHAR", ValueType::Int8 },
        { "INT", ValueType::Int32 }, { "SIGNED INT", ValueType::Int32 }, { "UNSIGNED INT", ValueType::UInt32 },
        { "SIGNED INTEGER", ValueType::Int64 }, { "UNSIGNED INTEGER", ValueType::UInt64 },
        { "SHORT INT", ValueType::Int16 }, { "SIGNED SHORT INT", ValueType::Int16 },
        { "UNSIGNED SHORT INT", ValueType::UInt16 } };
    m.valueType = ValueType::Unsupported;
    for (const Known& k : known)
        if (d == QLatin1String(k.name))
            m.valueType = k.type;
    if (d.isEmpty())
        m.valueType = ValueType::Double; // CUBE 3 files without <dtype>: text values
    m.nonAdditive = d == QLatin1String("MINDOUBLE") || d == QLatin1String("MAXDOUBLE");
    m.minimum = d == QLatin1String("MINDOUBLE");
    if (m.valueType == ValueType::Unsupported) {
        // Composite types, laid out as CubeLib writes them (and pycubexr reads them).
        using C = CubeMetric::Component;
        std::vector<C> parts;
        const qsizetype open = d.indexOf(QLatin1Char('('));
        const QString base = (open < 0 ? d : d.left(open)).trimmed();
        bool ok = false;
        const int n = open < 0 || !d.endsWith(QLatin1Char(')'))
            ? -1
            : d.mid(open + 1, d.size() - open - 2).trimmed().toInt(&ok);
        if (d == QLatin1String("RATE")) {
            parts = { { QStringLiteral("main"), 0, ValueType::Double, 0 },
                { QStringLiteral("duration"), 8, ValueType::Double, 0 } };
        } else if (d == QLatin1String("COMPLEX")) {
            parts = { { QStringLiteral("re"), 0, ValueType::Double, 0 },
                { QStringLiteral("im"), 8, ValueType::Double, 0 } };
        } else if (d == QLatin1String("TAU_ATOMIC")) {
            parts = { { QStringLiteral("count"), 0, ValueType::UInt32, 0 },
                { QStringLiteral("min"), 4, ValueType::Double, -1 },
                { QStringLiteral("max"), 12, ValueType::Double, 1 },
                { QStringLiteral("sum"), 20, ValueType::Double, 0 },
                { QStringLiteral("sum of squares"), 28, ValueType::Double, 0 } };
        } else if ((base == QLatin1String("NDOUBLES") || base == QLatin1String("HISTOGRAM")) && ok && n > 0
            && n <= MaxComponents) {
            int at = 0;
            if (base == QLatin1String("HISTOGRAM")) {
                parts = { { QStringLiteral("min"), 0, ValueType::Double, -1 },
                    { QStringLiteral("max"), 8, ValueType::Double, 1 } };
                at = 16;
            }
            for (int i = 0; i < n; ++i)
                parts.push_back({ base == QLatin1String("HISTOGRAM") ? QStringLiteral("bin %1").arg(i + 1)
                                                                     : QStringLiteral("%1").arg(i + 1),
                    at + 8 * i, ValueType::Double, 0 });
        }
        if (parts.empty())
            return QStringLiteral("metric %1 has the data type %2, which this reader does not support; it was skipped")
                .arg(quoted(m.dispName.isEmpty() ? m.uniqName : m.dispName), m.dtype.trimmed());
        m.components = std::move(parts);
        const auto& last = m.components.back();
        m.recordSize = last.offset + valueSize(last.type);
        return {};
    }
    m.imported = true;
    return {};
}

// ---- call-tree enumerations (docs/FORMATS.md 5.3) -------------------------------------------------------

/// Data row positions -> cnode positions (document order) for a metric of this kind.
std::vector<int> enumeration(const CubeDocument& doc, MetricKind kind)
{
    const std::size_t n = doc.cnodes.size();
    std::vector<int> order;
    order.reserve(n);
    if (kind == MetricKind::Inclusive) {
        // "Wide search": a root, then all its children, then for each child in turn its children as
        // one block, recursively. Iterative, so deep trees cannot overflow the stack.
        for (std::size_t r = 0; r < n; ++r) {
            if (doc.cnodes[r].parent >= 0)
                continue;
            order.push_back(static_cast<int>(r));
            std::vector<std::pair<int, std::size_t>> stack { { static_cast<int>(r), 0 } };
            for (int child : doc.cnodes[r].children)
                order.push_back(child);
            while (!stack.empty()) {
                auto& [node, next] = stack.back();
                const auto& children = doc.cnodes[static_cast<std::size_t>(node)].children;
                if (next >= children.size()) {
                    stack.pop_back();
                    continue;
                }
                const int child = children[next++];
                for (int grandchild : doc.cnodes[static_cast<std::size_t>(child)].children)
                    order.push_back(grandchild);
                stack.emplace_back(child, 0);
            }
        }
    } else if (kind == MetricKind::Simple) {
        order.resize(n);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return doc.cnodes[static_cast<std::size_t>(a)].id < doc.cnodes[static_cast<std::size_t>(b)].id;
        });
    } else {
        order.resize(n); // document order is depth-first pre-order
        std::iota(order.begin(), order.end(), 0);
    }
    return order;
}

// ---- .index / .data members ------------------------------------------------------------------------

struct IndexInfo {
    bool swap = false;
    bool sparse = false;
    std::vector<std::uint32_t> rows;
};

std::uint32_t loadU32(const char* p, bool swap)
{
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return swap ? qbswap(v) : v;
}

IndexInfo parseIndex(const QByteArray& bytes, const QString& member, std::size_t cnodes, QStringList& warnings)
{
    static constexpr char Magic[] = "CUBEX.INDEX";
    if (bytes.size() < 18)
        fail(QStringLiteral("member %1 has %2 byte(s) (expected at least the 18-byte index header)")
                 .arg(quoted(member))
                 .arg(bytes.size()),
            0, bytes.size());
    const char* p = bytes.constData();
    if (std::memcmp(p, Magic, 11) != 0)
        fail(QStringLiteral("member %1 byte 0: expected the marker 'CUBEX.INDEX', found '%2'")
                 .arg(quoted(member), QString::fromLatin1(QByteArray(p, 11).toHex(' '))),
            0, 0);
    IndexInfo info;
    const std::uint32_t mark = loadU32(p + 11, false);
    if (mark == 0x01000000u)
        info.swap = true;
    else if (mark != 1)
        fail(QStringLiteral("member %1 byte 11: the byte-order mark is 0x%2 (expected the u32 1)")
                 .arg(quoted(member))
                 .arg(mark, 8, 16, QLatin1Char('0')),
            0, 11);
    std::uint16_t version;
    std::memcpy(&version, p + 15, 2);
    if (info.swap)
        version = qbswap(version);
    if (version != 0)
        warnings << QStringLiteral("member %1 has index version %2 (expected 0); read as version 0")
                        .arg(quoted(member))
                        .arg(version);
    const int format = static_cast<unsigned char>(p[17]);
    if (format == 3) {
        if (bytes.size() != 18)
            fail(QStringLiteral("member %1 is a DENSE index of %2 bytes (expected exactly 18: size mismatch)")
                     .arg(quoted(member))
                     .arg(bytes.size()),
                0, 18);
        return info;
    }
    if (format != 1)
        fail(QStringLiteral("member %1 byte 17: index format %2 is not supported (expected 1 = SPARSE or 3 = "
                            "DENSE%3)")
                 .arg(quoted(member))
                 .arg(format)
                 .arg(format == 2 ? QStringLiteral("; 2 = BITVECTOR was never supported by CUBE") : QString()),
            0, 17);
    info.sparse = true;
    if (bytes.size() < 22)
        fail(QStringLiteral("member %1 ends after %2 bytes (expected the u32 row count of a SPARSE index at byte 18)")
                 .arg(quoted(member))
                 .arg(bytes.size()),
            0, bytes.size());
    const std::uint32_t n = loadU32(p + 18, info.swap);
    const qint64 expected = 22 + 4 * qint64(n);
    if (bytes.size() != expected)
        fail(QStringLiteral("member %1 has %2 bytes, but its SPARSE header announces %3 row ids (expected %4 bytes: "
                            "size mismatch)")
                 .arg(quoted(member))
                 .arg(bytes.size())
                 .arg(n)
                 .arg(expected),
            0, 18);
    info.rows.resize(n);
    std::vector<bool> seen(cnodes, false);
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t row = loadU32(p + 22 + 4 * qint64(i), info.swap);
        if (row >= cnodes)
            fail(QStringLiteral("member %1 byte %2: row id %3 is not a cnode of the call tree (expected 0..%4)")
                     .arg(quoted(member))
                     .arg(22 + 4 * qint64(i))
                     .arg(row)
                     .arg(qint64(cnodes) - 1),
                0, 22 + 4 * qint64(i));
        if (seen[row])
            fail(QStringLiteral("member %1 byte %2: row id %3 is listed twice (expected each cnode once)")
                     .arg(quoted(member))
                     .arg(22 + 4 * qint64(i))
                     .arg(row),
                0, 22 + 4 * qint64(i));
        seen[row] = true;
        info.rows[i] = row;
    }
    return info;
}

/// Decodes the rows of one .data member into the metric's stored values, a chunk at a time.
class DataDecoder {
public:
    DataDecoder(CubeDocument& doc, CubeMetric& metric, const IndexInfo& index, const std::vector<int>& order,
        const QString& member)
        : m_doc(doc)
        , m_metric(metric)
        , m_index(index)
        , m_order(order)
        , m_locations(doc.locations.size())
        , m_member(member)
        , m_size(static_cast<std::size_t>(
              metric.componentMetrics.empty() ? valueSize(metric.valueType) : metric.recordSize))
    {
        m_rows = index.sparse ? index.rows.size() : doc.cnodes.size();
        m_expectedValues = m_rows * m_locations;
        if (metric.componentMetrics.empty())
            allocateStored(doc, metric);
        for (int c : metric.componentMetrics)
            allocateStored(doc, doc.metrics[static_cast<std::size_t>(c)]);
    }

    /// `at` is the byte offset of p in the member (for messages).
    void push(const char* p, std::size_t n)
    {
        if (!m_carry.empty()) {
            const std::size_t take = std::min(n, m_size - m_carry.size());
            m_carry.append(p, take);
            p += take;
            n -= take;
            if (m_carry.size() < m_size)
                return;
            value(m_carry.data());
            m_carry.clear();
        }
        const std::size_t whole = n / m_size;
        for (std::size_t i = 0; i < whole; ++i)
            value(p + i * m_size);
        if (n % m_size)
            m_carry.assign(p + whole * m_size, n % m_size);
    }

    /// `payloadStart` is where the values began in the member (after the marker).
    void finish(qint64 payloadStart, QStringList& warnings)
    {
        const qint64 payload = static_cast<qint64>(m_values * m_size + m_carry.size());
        if (!m_carry.empty())
            fail(QStringLiteral("member %1 holds %2 bytes of values, not a whole number of %3-byte %4 values (size "
                                "mismatch; truncated?)")
                     .arg(quoted(m_member))
                     .arg(payload)
                     .arg(m_size)
                     .arg(m_metric.dtype.trimmed()),
                0, payloadStart + payload);
        if (m_values < m_expectedValues)
            fail(QStringLiteral("member %1 ends after %2 of %3 rows (expected %3 rows x %4 locations x %5 bytes = %6 "
                                "bytes of values, found %7: size mismatch)")
                     .arg(quoted(m_member))
                     .arg(m_locations ? m_values / m_locations : 0)
                     .arg(m_rows)
                     .arg(m_locations)
                     .arg(m_size)
                     .arg(m_expectedValues * m_size)
                     .arg(payload),
                0, payloadStart + payload);
        if (m_trailingNonZero > 0)
            warnings << QStringLiteral("member %1 has %2 value(s) after the %3 rows of its index, %4 of them non-zero; "
                                       "they belong to no cnode and were ignored")
                            .arg(quoted(m_member))
                            .arg(m_values - m_expectedValues)
                            .arg(m_rows)
                            .arg(m_trailingNonZero);
    }

    bool trailingNonZero() const { return m_trailingNonZero > 0; }

private:
    template <typename T> T load(const char* p) const
    {
        T v;
        std::memcpy(&v, p, sizeof(T));
        if (m_index.swap) {
            if constexpr (sizeof(T) > 1) {
                using U = std::conditional_t<sizeof(T) == 2, std::uint16_t,
                    std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>;
                U u;
                std::memcpy(&u, p, sizeof(T));
                u = qbswap(u);
                std::memcpy(&v, &u, sizeof(T));
            }
        }
        return v;
    }

    void value(const char* p)
    {
        if (m_metric.componentMetrics.empty()) {
            store(m_metric, decode(p, m_metric.valueType));
        } else {
            bool nonZero = false;
            for (std::size_t k = 0; k < m_metric.components.size(); ++k) {
                const double v = decode(p + m_metric.components[k].offset, m_metric.components[k].type);
                nonZero = nonZero || v != 0 || std::isnan(v);
                if (m_values < m_expectedValues)
                    store(m_doc.metrics[static_cast<std::size_t>(m_metric.componentMetrics[k])], v, false);
            }
            if (m_values >= m_expectedValues && nonZero)
                ++m_trailingNonZero;
            ++m_values;
        }
    }

    void store(CubeMetric& target, double v, bool count = true)
    {
        if (m_values < m_expectedValues) {
            const std::size_t row = m_values / m_locations;
            const std::size_t loc = m_values % m_locations;
            const std::size_t enumerated = m_index.sparse ? m_index.rows[row] : row;
            const auto cnode = static_cast<std::size_t>(m_order[enumerated]);
            target.stored[cnode * m_locations + loc] = v;
        } else if (count && v != 0) { // NaN too
            ++m_trailingNonZero;
        }
        if (count)
            ++m_values;
    }

    double decode(const char* p, ValueType type) const
    {
        double v = 0;
        switch (type) {
        case ValueType::Int8:
            v = load<std::int8_t>(p);
            break;
        case ValueType::UInt8:
            v = load<std::uint8_t>(p);
            break;
        case ValueType::Int16:
            v = load<std::int16_t>(p);
            break;
        case ValueType::UInt16:
            v = load<std::uint16_t>(p);
            break;
        case ValueType::Int32:
            v = load<std::int32_t>(p);
            break;
        case ValueType::UInt32:
            v = load<std::uint32_t>(p);
            break;
        case ValueType::Int64:
            v = static_cast<double>(load<std::int64_t>(p));
            break;
        case ValueType::UInt64:
            v = static_cast<double>(load<std::uint64_t>(p));
            break;
        case ValueType::Double:
            v = load<double>(p);
            break;
        case ValueType::Unsupported:
            break;
        }
        return v;
    }

    CubeDocument& m_doc;
    CubeMetric& m_metric;
    const IndexInfo& m_index;
    const std::vector<int>& m_order;
    std::size_t m_locations;
    QString m_member;
    std::size_t m_size;
    std::size_t m_rows = 0;
    std::size_t m_expectedValues = 0;
    std::size_t m_values = 0;
    std::size_t m_trailingNonZero = 0;
    std::string m_carry;
};

// ---- the archive ---------------------------------------------------------------------------------

struct ArchiveFree {
    void operator()(archive* a) const { archive_read_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveFree>;

QString archiveMessage(archive* a)
{
    const char* s = archive_error_string(a);
    return s ? QString::fromLocal8Bit(s) : QStringLiteral("unknown libarchive error");
}

/// One pass over the members of a .cubex with libarchive.
class ArchiveReader {
public:
    ArchiveReader(const QString& path, Progress& progress)
        : m_archive(archive_read_new())
        , m_progress(progress)
        , m_fileSize(QFileInfo(path).size())
    {
        if (!m_archive)
            fail(QStringLiteral("cannot initialise libarchive"));
        archive_read_support_format_tar(m_archive.get());
        if (archive_read_open_filename(m_archive.get(), QFile::encodeName(path).constData(), 64 * 1024) != ARCHIVE_OK)
            fail(QStringLiteral("cannot open as a tar archive: %1 (expected a complete 512-byte tar header at byte "
                                "0; the file has %2 bytes)")
                     .arg(archiveMessage(m_archive.get()))
                     .arg(QFileInfo(path).size()),
                0, 0);
    }

    archive* handle() const { return m_archive.get(); }

    /// The next member; false at the end of the archive.
    bool next(QString& name, qint64& size, bool& regular)
    {
        if (m_progress.isCancelled())
            throw Cancelled {};
        archive_entry* entry = nullptr;
        const int rc = archive_read_next_header(m_archive.get(), &entry);
        reportProgress();
        if (rc == ARCHIVE_EOF)
            return false;
        if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
            // Where this header should have started: after the previous member's padded data.
            const qint64 at = m_simpleHeader && m_headerPosition >= 0
                ? m_headerPosition + 512 + (std::max<qint64>(m_size, 0) + 511) / 512 * 512
                : archive_read_header_position(m_archive.get());
            if (!m_previous.isEmpty() && at >= 0 && m_fileSize < at)
                fail(QStringLiteral("member %1 runs past the end of the file: its %2 bytes of data start at archive "
                                    "byte %3, but the file has %4 bytes (truncated archive; %5)")
                         .arg(quoted(m_previous))
                         .arg(m_size)
                         .arg(at - (std::max<qint64>(m_size, 0) + 511) / 512 * 512)
                         .arg(m_fileSize)
                         .arg(archiveMessage(m_archive.get())),
                    0, m_fileSize);
            fail(QStringLiteral("%1 (expected a tar header%2%3; the file has %4 bytes)")
                     .arg(archiveMessage(m_archive.get()),
                         m_previous.isEmpty() ? QString() : QStringLiteral(" after member %1").arg(quoted(m_previous)),
                         at >= 0 ? QStringLiteral(" at archive byte %1").arg(at) : QString())
                     .arg(m_fileSize),
                0, at);
        }
        const char* raw = archive_entry_pathname_utf8(entry);
        if (!raw)
            raw = archive_entry_pathname(entry);
        name = raw ? QString::fromUtf8(raw) : QString();
        while (name.startsWith(QLatin1String("./")))
            name.remove(0, 2);
        size = archive_entry_size_is_set(entry) ? archive_entry_size(entry) : -1;
        regular = archive_entry_filetype(entry) == AE_IFREG;
        m_member = name;
        m_previous = name;
        m_size = size;
        m_memberRead = 0;
        m_headerPosition = archive_read_header_position(m_archive.get());
        m_simpleHeader = name.toUtf8().size() < 100
            && (archive_format(m_archive.get()) == ARCHIVE_FORMAT_TAR_USTAR
                || archive_format(m_archive.get()) == ARCHIVE_FORMAT_TAR_GNUTAR);
        return true;
    }

    /// Reads the current member; 0 at its end.
    std::size_t read(char* dst, std::size_t max)
    {
        if (m_progress.isCancelled())
            throw Cancelled {};
        const la_ssize_t n = archive_read_data(m_archive.get(), dst, max);
        reportProgress();
        if (n < 0)
            fail(QStringLiteral("member %1, byte %2: %3 (expected %4 bytes of %5; the file has %6 bytes)")
                     .arg(quoted(m_member))
                     .arg(m_memberRead)
                     .arg(archiveMessage(m_archive.get()))
                     .arg(m_size)
                     .arg(m_member == QLatin1String("anchor.xml") ? QStringLiteral("XML") : QStringLiteral("data"))
                     .arg(m_fileSize),
                0, archiveOffset(m_memberRead));
        m_memberRead += n;
        return static_cast<std::size_t>(n);
    }

    /// The archive offset of a byte of the current member, when the tar header layout makes it
    /// certain (one 512-byte ustar/GNU header); else the offset within the member.
    qint64 archiveOffset(qint64 inMember) const
    {
        return m_simpleHeader && m_headerPosition >= 0 ? m_headerPosition + 512 + inMember : inMember;
    }

    QByteArray readAll(qint64 limit)
    {
        QByteArray out;
        char buffer[65536];
        while (true) {
            const std::size_t n = read(buffer, sizeof buffer);
            if (n == 0)
                break;
            if (out.size() + static_cast<qint64>(n) > limit)
                fail(QStringLiteral("member %1 is larger than %2 bytes (expected a small index)")
                         .arg(quoted(m_member))
                         .arg(limit));
            out.append(buffer, static_cast<qsizetype>(n));
        }
        return out;
    }

private:
    void reportProgress()
    {
        const la_int64_t pos = archive_filter_bytes(m_archive.get(), -1);
        if (pos > m_lastPosition) {
            m_progress.advance(pos - m_lastPosition);
            m_lastPosition = pos;
        }
    }

    ArchivePtr m_archive;
    Progress& m_progress;
    QString m_member;
    QString m_previous;
    qint64 m_fileSize = 0;
    qint64 m_memberRead = 0;
    qint64 m_size = 0;
    qint64 m_headerPosition = -1;
    bool m_simpleHeader = false;
    qint64 m_lastPosition = 0;
};

/// The current archive member, inflated when it starts with the gzip magic: CubeW built with zlib
/// writes anchor.xml gzip-compressed inside the tar (Score-P 1.3, Extra-P's cubeset samples).
/// Concatenated gzip members are one stream, as gunzip reads them.
class ArchiveMemberSource : public ByteSource {
public:
    ArchiveMemberSource(ArchiveReader& reader, const QString& member)
        : m_reader(reader)
        , m_member(member)
        , m_in(ChunkSize)
    {
    }
    ~ArchiveMemberSource() override
    {
        if (m_gzip)
            inflateEnd(&m_z);
    }
    ArchiveMemberSource(const ArchiveMemberSource&) = delete;
    ArchiveMemberSource& operator=(const ArchiveMemberSource&) = delete;

    /// Whether the member was gzip-compressed (known after the first read).
    bool isGzip() const { return m_gzip; }

    std::size_t read(char* dst, std::size_t max) override
    {
        if (!m_started) {
            m_started = true;
            while (m_buffered < 2 && refill(m_buffered)) { }
            if (m_buffered >= 2 && isGzipMagic(m_in.data())) {
                if (inflateInit2(&m_z, 16 + MAX_WBITS) != Z_OK)
                    fail(QStringLiteral("cannot initialise zlib"));
                m_gzip = true;
                m_z.next_in = reinterpret_cast<Bytef*>(m_in.data());
                m_z.avail_in = static_cast<uInt>(m_buffered);
            }
        }
        if (!m_gzip) {
            if (m_taken < m_buffered) {
                const std::size_t n = std::min(max, m_buffered - m_taken);
                std::memcpy(dst, m_in.data() + m_taken, n);
                m_taken += n;
                return n;
            }
            return m_reader.read(dst, max);
        }
        while (true) {
            if (m_z.avail_in == 0 && !m_eof) {
                m_consumed += static_cast<qint64>(m_buffered);
                m_buffered = 0;
                refill(0);
                m_z.next_in = reinterpret_cast<Bytef*>(m_in.data());
                m_z.avail_in = static_cast<uInt>(m_buffered);
            }
            if (m_memberEnded) {
                if (m_z.avail_in == 0)
                    return 0;
                if (m_z.avail_in == 1 && !m_eof) {
                    // One byte of a possible next gzip header: keep it and read on.
                    const char keep = static_cast<char>(*m_z.next_in);
                    m_consumed += static_cast<qint64>(m_buffered) - 1;
                    m_in[0] = keep;
                    m_buffered = 1;
                    refill(1);
                    m_z.next_in = reinterpret_cast<Bytef*>(m_in.data());
                    m_z.avail_in = static_cast<uInt>(m_buffered);
                    continue;
                }
                if (m_z.avail_in >= 2 && isGzipMagic(reinterpret_cast<const char*>(m_z.next_in))) {
                    inflateReset(&m_z);
                    m_memberEnded = false;
                    continue;
                }
                fail(QStringLiteral("member %1, compressed byte %2: data after the end of the gzip stream (expected "
                                    "another gzip member or the end of the member)")
                         .arg(quoted(m_member))
                         .arg(position()),
                    0, m_reader.archiveOffset(position()));
            }
            if (m_z.avail_in == 0)
                fail(QStringLiteral("member %1, compressed byte %2: the gzip stream ends early (truncated member; "
                                    "expected the rest of the compressed data)")
                         .arg(quoted(m_member))
                         .arg(position()),
                    0, m_reader.archiveOffset(position()));
            m_z.next_out = reinterpret_cast<Bytef*>(dst);
            m_z.avail_out = static_cast<uInt>(max);
            const int rc = inflate(&m_z, Z_NO_FLUSH);
            const std::size_t n = max - m_z.avail_out;
            if (rc == Z_STREAM_END)
                m_memberEnded = true;
            else if (rc != Z_OK && rc != Z_BUF_ERROR)
                fail(QStringLiteral("member %1, compressed byte %2: corrupt gzip data (%3)")
                         .arg(quoted(m_member))
                         .arg(position())
                         .arg(m_z.msg ? QString::fromLatin1(m_z.msg) : QStringLiteral("zlib error %1").arg(rc)),
                    0, m_reader.archiveOffset(position()));
            if (n > 0)
                return n;
        }
    }

private:
    /// Appends member bytes to m_in after `from`; false at the end of the member.
    bool refill(std::size_t from)
    {
        const std::size_t n = m_reader.read(m_in.data() + from, m_in.size() - from);
        m_buffered = from + n;
        if (n == 0)
            m_eof = true;
        return n > 0;
    }
    /// The member offset of the next compressed byte.
    qint64 position() const { return m_consumed + static_cast<qint64>(m_buffered) - m_z.avail_in; }

    ArchiveReader& m_reader;
    QString m_member;
    std::vector<char> m_in;
    std::size_t m_buffered = 0;
    std::size_t m_taken = 0;
    qint64 m_consumed = 0;
    bool m_started = false;
    bool m_gzip = false;
    bool m_eof = false;
    bool m_memberEnded = false;
    z_stream m_z {};
};

/// "12.index" -> (12, false), "12.data" -> (12, true); nullopt for other names.
std::optional<std::pair<qint64, bool>> metricMember(const QString& name)
{
    const qsizetype dot = name.indexOf(QLatin1Char('.'));
    if (dot <= 0)
        return std::nullopt;
    const QStringView stem = QStringView(name).left(dot);
    const QStringView suffix = QStringView(name).mid(dot + 1);
    for (const QChar c : stem)
        if (!c.isDigit() || c.unicode() > 127)
            return std::nullopt;
    bool ok = false;
    const qint64 id = stem.toLongLong(&ok);
    if (!ok)
        return std::nullopt;
    if (suffix == u"index")
        return std::pair { id, false };
    if (suffix == u"data")
        return std::pair { id, true };
    return std::nullopt;
}

/// Reads the .data member the archive reader is positioned at.
void decodeDataMember(ArchiveReader& reader, CubeDocument& doc, CubeMetric& metric, const IndexInfo& index,
    const QString& member, QStringList& warnings)
{
    if (!metric.dataSource.isEmpty())
        fail(QStringLiteral("member %1: metric %2 already has values from %3 (expected one source)")
                 .arg(quoted(member), quoted(metric.dispName), metric.dataSource));
    metric.dataSource = member;
    const std::vector<int> order = enumeration(doc, metric.kind);
    DataDecoder decoder(doc, metric, index, order, member);
    std::vector<char> buffer(ChunkSize);
    // The marker: "CUBEX.DATA" (10 bytes) or "ZCUBEX.DATA" (11 bytes).
    std::string head;
    while (head.size() < 11) {
        const std::size_t n = reader.read(buffer.data(), 11 - head.size());
        if (n == 0)
            break;
        head.append(buffer.data(), n);
    }
    if (head.size() >= 10 && std::memcmp(head.data(), "CUBEX.DATA", 10) == 0) {
        if (head.size() > 10)
            decoder.push(head.data() + 10, head.size() - 10);
        while (const std::size_t n = reader.read(buffer.data(), buffer.size()))
            decoder.push(buffer.data(), n);
        decoder.finish(10, warnings);
        return;
    }
    if (head.size() < 11 || std::memcmp(head.data(), "ZCUBEX.DATA", 11) != 0)
        fail(QStringLiteral("member %1 byte 0: expected the marker 'CUBEX.DATA' or 'ZCUBEX.DATA', found '%2'")
                 .arg(quoted(member), QString::fromLatin1(QByteArray(head.data(), qsizetype(head.size())).toHex(' '))),
            0, reader.archiveOffset(0));
    // Compressed (docs/FORMATS.md 5.3 ✘): see the note at the top of this file.
    std::vector<char> all;
    while (const std::size_t n = reader.read(buffer.data(), buffer.size()))
        all.insert(all.end(), buffer.data(), buffer.data() + n);
    auto i64 = [&](std::size_t at) {
        std::uint64_t v;
        std::memcpy(&v, all.data() + at, 8);
        return static_cast<qint64>(index.swap ? qbswap(v) : v);
    };
    if (all.size() < 8)
        fail(QStringLiteral("member %1 ends at byte %2 (expected the i64 entry count of compressed data)")
                 .arg(quoted(member))
                 .arg(11 + all.size()),
            0, reader.archiveOffset(11 + qint64(all.size())));
    const qint64 entries = i64(0);
    if (entries < 0 || entries > qint64(all.size() / 24))
        fail(QStringLiteral("member %1 byte 11: %2 compressed entries cannot fit in %3 bytes (corrupt header)")
                 .arg(quoted(member))
                 .arg(entries)
                 .arg(all.size()),
            0, reader.archiveOffset(11));
    std::size_t at = 8 + 24 * static_cast<std::size_t>(entries);
    z_stream z {};
    if (inflateInit(&z) != Z_OK)
        fail(QStringLiteral("cannot initialise zlib"));
    std::unique_ptr<z_stream, void (*)(z_stream*)> guard(&z, [](z_stream* s) { inflateEnd(s); });
    for (qint64 e = 0; e < entries; ++e) {
        const qint64 compressed = i64(8 + 24 * static_cast<std::size_t>(e) + 16);
        if (compressed == 0)
            continue;
        if (compressed < 0 || static_cast<std::size_t>(compressed) > all.size() - at)
            fail(QStringLiteral("member %1: compressed entry %2 of %3 bytes runs past the end of the member (%4 bytes "
                                "left: size mismatch)")
                     .arg(quoted(member))
                     .arg(e + 1)
                     .arg(compressed)
                     .arg(all.size() - at),
                0, reader.archiveOffset(11 + qint64(at)));
        inflateReset(&z);
        z.next_in = reinterpret_cast<Bytef*>(all.data() + at);
        z.avail_in = static_cast<uInt>(compressed);
        int rc = Z_OK;
        while (rc == Z_OK) {
            z.next_out = reinterpret_cast<Bytef*>(buffer.data());
            z.avail_out = static_cast<uInt>(buffer.size());
            rc = inflate(&z, Z_NO_FLUSH);
            decoder.push(buffer.data(), buffer.size() - z.avail_out);
            if (rc == Z_BUF_ERROR && z.avail_in == 0)
                break;
        }
        if (rc != Z_STREAM_END)
            fail(QStringLiteral("member %1: compressed entry %2 does not inflate (%3)")
                     .arg(quoted(member))
                     .arg(e + 1)
                     .arg(z.msg ? QString::fromLatin1(z.msg) : QStringLiteral("zlib error %1").arg(rc)),
                0, reader.archiveOffset(11 + qint64(at)));
        at += static_cast<std::size_t>(compressed);
    }
    decoder.finish(11, warnings);
}

// ---- building the trial --------------------------------------------------------------------------

QString unitOf(const QString& uom)
{
    const QString u = uom.trimmed().toLower();
    if (u == QLatin1String("sec") || u == QLatin1String("s") || u == QLatin1String("seconds"))
        return QStringLiteral("sec");
    if (u == QLatin1String("usec") || u == QLatin1String("us"))
        return QStringLiteral("us");
    if (u == QLatin1String("occ") || u == QLatin1String("occurrences"))
        return QStringLiteral("count");
    if (u == QLatin1String("bytes") || u == QLatin1String("byte"))
        return QStringLiteral("bytes");
    return uom.trimmed();
}

QString kindName(MetricKind k)
{
    switch (k) {
    case MetricKind::Exclusive:
        return QStringLiteral("EXCLUSIVE");
    case MetricKind::Inclusive:
        return QStringLiteral("INCLUSIVE");
    case MetricKind::Simple:
        return QStringLiteral("SIMPLE");
    case MetricKind::Derived:
        return QStringLiteral("DERIVED");
    }
    return {};
}

class TrialAssembler {
public:
    TrialAssembler(
        CubeDocument& doc, TrialBuilder& builder, QStringList& warnings, Progress& progress, const ReadOptions& options)
        : m_doc(doc)
        , m_builder(builder)
        , m_warnings(warnings)
        , m_progress(progress)
        , m_options(options)
    {
    }

    void run()
    {
        m_nC = m_doc.cnodes.size();
        m_nL = m_doc.locations.size();
        addMetrics();
        addThreads();
        addEvents();
        buildRows();
        addMetadata();
    }

private:
    void addMetrics()
    {
        QHash<QString, int> dispCount;
        for (const auto& m : m_doc.metrics)
            if (m.imported)
                ++dispCount[m.dispName.trimmed()];
        QSet<QString> used;
        for (auto& m : m_doc.metrics) {
            if (!m.imported)
                continue;
            QString name = m.dispName.trimmed();
            if (name.isEmpty())
                name = m.uniqName.trimmed();
            else if (dispCount.value(name) > 1 && !m.uniqName.trimmed().isEmpty())
                name += QStringLiteral(" (%1)").arg(m.uniqName.trimmed());
            if (name.isEmpty())
                name = QStringLiteral("metric %1").arg(m.id);
            if (used.contains(name))
                name += QStringLiteral(" #%1").arg(m.id);
            used.insert(name);
            m.modelName = name;
            m.modelIndex = m_imported.size();
            m_builder.addMetric(Metric(name, unitOf(m.uom)));
            m_imported.push_back(&m);
        }
        // Calls come from Visits.
        for (int pass = 0; pass < 2 && !m_visits; ++pass)
            for (auto* m : m_imported) {
                const bool match = pass == 0
                    ? m->uniqName.trimmed().compare(QLatin1String("visits"), Qt::CaseInsensitive) == 0
                    : m->dispName.trimmed().compare(QLatin1String("visits"), Qt::CaseInsensitive) == 0;
                if (match && !m->nonAdditive) {
                    m_visits = m;
                    break;
                }
            }
        if (!m_visits && m_nC > 0)
            m_warnings << QStringLiteral("no Visits metric: calls and subrs are 0 for every event");
    }

    void addThreads()
    {
        std::map<std::pair<int, int>, int> nextContext;
        QStringList moved;
        m_threads.reserve(m_nL);
        for (std::size_t i = 0; i < m_nL; ++i) {
            const Location& l = m_doc.locations[i];
            const LocGroup* g = l.group >= 0 ? &m_doc.groups[static_cast<std::size_t>(l.group)] : nullptr;
            auto rankOf = [&](const QString& text, qint64 fallback, const char* what) {
                bool ok = false;
                const qint64 v = parseInteger(text, &ok);
                if (ok && v >= 0 && v <= std::numeric_limits<int>::max())
                    return static_cast<int>(v);
                if (!text.trimmed().isEmpty() || fallback < 0)
                    m_warnings << QStringLiteral("location %1: %2 rank '%3' is not a non-negative integer; %4 used")
                                      .arg(l.id)
                                      .arg(QLatin1String(what), text.trimmed().left(20))
                                      .arg(std::clamp<qint64>(fallback, 0, std::numeric_limits<int>::max()));
                return static_cast<int>(std::clamp<qint64>(fallback, 0, std::numeric_limits<int>::max()));
            };
            const int process = g ? rankOf(g->rankText, g->id, "process") : 0;
            const int thread = rankOf(l.rankText, l.id, "thread");
            ThreadKey key { process, 0, thread };
            // Collisions take the next free context of that (process, thread): contexts are only ever
            // assigned here, in order, so one counter per pair finds it without a search.
            int& next = nextContext[{ process, thread }];
            key.context = next++;
            if (key.context > 0 && moved.size() < 5)
                moved << QStringLiteral("location %1 (%2) -> %3").arg(l.id).arg(l.name, key.toString());
            if (key.context > 0)
                ++m_movedThreads;
            const ThreadIndex t = m_builder.addThread(key);
            m_threads.push_back(t);
            // System tree names (docs/SEMANTICS.md 1.3).
            std::vector<const SysNode*> chain;
            for (int s = g ? g->sysNode : -1; s >= 0 && chain.size() < 64;
                 s = m_doc.sysNodes[static_cast<std::size_t>(s)].parent)
                chain.push_back(&m_doc.sysNodes[static_cast<std::size_t>(s)]);
            std::reverse(chain.begin(), chain.end());
            std::map<QString, QString> byClass;
            for (const SysNode* s : chain) {
                const QString cls = s->cls.trimmed().isEmpty() ? QStringLiteral("system tree node") : s->cls.trimmed();
                QString& value = byClass[QStringLiteral("CUBE ") + cls];
                value = value.isEmpty() ? s->name : value + QStringLiteral(" / ") + s->name;
            }
            for (const auto& [k, v] : byClass)
                m_builder.addThreadMetadata(t, k, v);
            if (g) {
                m_builder.addThreadMetadata(t, QStringLiteral("CUBE process"), g->name);
                if (!g->type.isEmpty() && g->type != QLatin1String("process"))
                    m_builder.addThreadMetadata(t, QStringLiteral("CUBE location group type"), g->type);
            }
            m_builder.addThreadMetadata(t, QStringLiteral("CUBE thread"), l.name);
            if (!l.type.isEmpty() && l.type != QLatin1String("thread"))
                m_builder.addThreadMetadata(t, QStringLiteral("CUBE location type"), l.type);
        }
        if (m_movedThreads > 0)
            m_warnings << QStringLiteral("%1 location(s) share a (process rank, thread rank) with another and were "
                                         "given the next free context: %2")
                              .arg(m_movedThreads)
                              .arg(moved.join(QStringLiteral("; ")));
    }

    /// Leaf names of regions: the name, disambiguated among distinct regions of the same name.
    std::vector<QString> regionNames()
    {
        const std::size_t nR = m_doc.regions.size();
        std::vector<QString> names(nR);
        std::vector<bool> used(nR, false);
        for (const auto& c : m_doc.cnodes)
            used[static_cast<std::size_t>(c.region)] = true;
        struct Key {
            QString mod;
            qint64 begin, end;
            bool operator==(const Key& o) const { return mod == o.mod && begin == o.begin && end == o.end; }
        };
        QHash<QString, std::vector<std::pair<Key, QString>>> byName; // canonical name -> keys and names
        QStringList renamed;
        std::size_t renamedCount = 0;
        std::size_t arrows = 0;
        QStringList typeCodes;
        std::size_t typeCodeCount = 0;
        for (std::size_t r = 0; r < nR; ++r) {
            if (!used[r])
                continue;
            const CubeRegion& region = m_doc.regions[r];
            QString name = region.name;
            if (isTypeCodeDemangling(region)) {
                name = region.mangled.trimmed();
                if (typeCodes.size() < 4)
                    typeCodes << QStringLiteral("%1 -> %2").arg(quoted(region.name.trimmed()), quoted(name));
                ++typeCodeCount;
            }
            if (name.contains(QLatin1String("=>"))) {
                name.replace(QLatin1String("=>"), QLatin1String("= >"));
                ++arrows;
            }
            if (name.trimmed().isEmpty())
                name = QStringLiteral("(unnamed region %1)").arg(region.id);
            const QString canonical = QString::fromStdString(names::canonical(name.toStdString()));
            auto& keys = byName[canonical];
            const Key key { region.mod, region.begin, region.end };
            const auto it = std::find_if(keys.begin(), keys.end(), [&](const auto& k) { return k.first == key; });
            if (it != keys.end()) {
                names[r] = it->second;
                continue;
            }
            if (!keys.empty()) {
                const QString lines = region.begin < 0 && region.end < 0
                    ? QString()
                    : QStringLiteral(" {%1}-{%2}").arg(region.begin).arg(region.end);
                name += QStringLiteral(" [{%1}%2]").arg(region.mod, lines);
                ++renamedCount;
                if (renamed.size() < 3)
                    renamed << quoted(name);
            }
            keys.emplace_back(key, name);
            names[r] = name;
        }
        if (renamedCount > 0)
            m_warnings << QStringLiteral("%1 region(s) share their name with another region (different module or "
                                         "lines) and were given a source location: %2")
                              .arg(renamedCount)
                              .arg(renamed.join(QStringLiteral(", ")));
        if (arrows > 0)
            m_warnings << QStringLiteral(
                "%1 region name(s) contain '=>', the call-path separator; it was written '= >'")
                              .arg(arrows);
        if (typeCodeCount > 0)
            m_warnings << QStringLiteral("%1 region name(s) are a C++ type that the producer's demangler read from a "
                                         "one-letter <mangled_name>; the mangled name is used: %2")
                              .arg(typeCodeCount)
                              .arg(typeCodes.join(QStringLiteral(", ")));
        return names;
    }

    /// Score-P runs every region name through the C++ demangler, which reads a one-letter name as an
    /// Itanium type code: a function "a" gets the <name> "signed char", "b" gets "bool"
    /// (pycubexr's call_tree_test). Such a <name> is not the function's; its mangled name is.
    static bool isTypeCodeDemangling(const CubeRegion& region)
    {
        const QString mangled = region.mangled.trimmed();
        if (mangled.size() != 1)
            return false;
        static const QHash<QChar, QLatin1String> builtin { { QLatin1Char('v'), QLatin1String("void") },
            { QLatin1Char('w'), QLatin1String("wchar_t") }, { QLatin1Char('b'), QLatin1String("bool") },
            { QLatin1Char('c'), QLatin1String("char") }, { QLatin1Char('a'), QLatin1String("signed char") },
            { QLatin1Char('h'), QLatin1String("unsigned char") }, { QLatin1Char('s'), QLatin1String("short") },
            { QLatin1Char('t'), QLatin1String("unsigned short") }, { QLatin1Char('i'), QLatin1String("int") },
            { QLatin1Char('j'), QLatin1String("unsigned int") }, { QLatin1Char('l'), QLatin1String("long") },
            { QLatin1Char('m'), QLatin1String("unsigned long") }, { QLatin1Char('x'), QLatin1String("long long") },
            { QLatin1Char('y'), QLatin1String("unsigned long long") }, { QLatin1Char('n'), QLatin1String("__int128") },
            { QLatin1Char('o'), QLatin1String("unsigned __int128") }, { QLatin1Char('f'), QLatin1String("float") },
            { QLatin1Char('d'), QLatin1String("double") }, { QLatin1Char('e'), QLatin1String("long double") },
            { QLatin1Char('g'), QLatin1String("__float128") }, { QLatin1Char('z'), QLatin1String("...") } };
        const auto it = builtin.constFind(mangled.front());
        return it != builtin.cend() && region.name.trimmed() == it.value();
    }

    void addEvents()
    {
        const std::vector<QString> regionName = regionNames();
        m_pathEvent.assign(m_nC, EventId());
        m_flatEvent.assign(m_nC, EventId());
        std::vector<QString> paths(m_nC);
        qint64 pathChars = 0;
        for (std::size_t c = 0; c < m_nC; ++c) {
            if (m_progress.isCancelled())
                throw Cancelled {};
            const CubeCnode& cnode = m_doc.cnodes[c];
            const CubeRegion& region = m_doc.regions[static_cast<std::size_t>(cnode.region)];
            QString leaf = regionName[static_cast<std::size_t>(cnode.region)];
            QStringList groups;
            if (!region.paradigm.trimmed().isEmpty())
                groups << region.paradigm.trimmed();
            if (!cnode.params.isEmpty()) {
                QString params = cnode.params.join(QStringLiteral(", "));
                params.replace(QLatin1String("=>"), QLatin1String("= >"));
                leaf += QStringLiteral(" [ %1 ]").arg(params);
                groups << QStringLiteral("TAU_PARAM");
            }
            m_flatEvent[c] = m_builder.addEvent(leaf, groups);
            if (cnode.parent < 0) {
                paths[c] = leaf;
                m_pathEvent[c] = m_flatEvent[c];
            } else {
                paths[c] = paths[static_cast<std::size_t>(cnode.parent)] + QStringLiteral(" => ") + leaf;
                pathChars += paths[c].size();
                if (pathChars > MaxPathCharacters)
                    fail(QStringLiteral("the call-path names need more than %1 characters (call tree too deep for "
                                        "the model: cnode %2 is at depth %3)")
                             .arg(MaxPathCharacters)
                             .arg(cnode.id)
                             .arg(paths[c].count(QLatin1String(" => ")) + 1));
                m_pathEvent[c] = m_builder.addEvent(paths[c], QStringList { QStringLiteral("TAU_CALLPATH") } + groups);
            }
            if (cnode.children.empty())
                paths[c].clear(); // only parents' paths are needed later
        }
        paths.clear();
        // Groups of cnodes per event; flat events use docs/SEMANTICS.md 1.4's rule ("outermost" flags).
        m_eventCount = 0;
        for (std::size_t c = 0; c < m_nC; ++c)
            m_eventCount = std::max(
                { m_eventCount, std::size_t(m_flatEvent[c].index()) + 1, std::size_t(m_pathEvent[c].index()) + 1 });
        m_members.assign(m_eventCount, {});
        std::vector<int> active(m_eventCount, 0);
        std::vector<int> stack;
        std::vector<int> roots(m_eventCount, 0);
        std::vector<bool> deep(m_eventCount, false);
        std::size_t mergedPaths = 0;
        for (std::size_t c = 0; c < m_nC; ++c) {
            const int parent = m_doc.cnodes[c].parent;
            while (!stack.empty() && stack.back() != parent) {
                --active[m_flatEvent[static_cast<std::size_t>(stack.back())].index()];
                stack.pop_back();
            }
            const std::size_t flat = m_flatEvent[c].index();
            m_members[flat].push_back({ static_cast<int>(c), active[flat] == 0 });
            if (parent < 0) {
                if (roots[flat]++ > 0)
                    ++mergedPaths; // two roots with the same leaf
            } else {
                deep[flat] = true;
                auto& members = m_members[m_pathEvent[c].index()];
                if (!members.empty())
                    ++mergedPaths;
                members.push_back({ static_cast<int>(c), true });
            }
            ++active[flat];
            stack.push_back(static_cast<int>(c));
        }
        std::size_t recursive = 0;
        for (std::size_t e = 0; e < m_eventCount; ++e)
            recursive += roots[e] > 0 && deep[e] ? 1 : 0;
        if (recursive > 0)
            m_warnings << QStringLiteral("%1 call-tree root(s) also occur deeper in the call tree; their events hold "
                                         "the flat totals (docs/SEMANTICS.md 1.4), not the root alone")
                              .arg(recursive);
        if (mergedPaths > 0)
            m_warnings << QStringLiteral("%1 cnode(s) have the same call path as an earlier cnode (another call site "
                                         "or line); their values were summed into one event")
                              .arg(mergedPaths);
    }

    /// The values a metric does not store, along the call tree: inclusive values for a metric stored
    /// exclusively, exclusive values for an INCLUSIVE one (see the top of this file).
    std::vector<double> otherValues(const CubeMetric& m) const
    {
        std::vector<double> other(m.stored.begin(), m.stored.end());
        const bool inclusive = m.kind == MetricKind::Inclusive;
        for (std::size_t c = m_nC; c-- > 0;) {
            const int p = m_doc.cnodes[c].parent;
            if (p < 0)
                continue;
            double* dst = other.data() + static_cast<std::size_t>(p) * m_nL;
            if (inclusive) {
                const double* src = m.stored.data() + c * m_nL;
                for (std::size_t l = 0; l < m_nL; ++l)
                    dst[l] -= src[l];
            } else {
                const double* src = other.data() + c * m_nL;
                for (std::size_t l = 0; l < m_nL; ++l)
                    dst[l] += src[l];
            }
        }
        return other;
    }

    /// Locations are processed in blocks of this many: the values of one cnode on a block of locations are
    /// contiguous, so walking events in the outer loop and locations in the inner one stays in cache.
    static constexpr std::size_t Block = 16;

    /// Runs work(first, last) for blocks of locations, on the thread pool when there are several.
    template <typename Work> void forEachBlock(const Work& work)
    {
        std::vector<std::size_t> blocks;
        for (std::size_t l = 0; l < m_nL; l += Block)
            blocks.push_back(l);
        std::atomic<bool> cancelled { false };
        auto guarded = [&](std::size_t first) {
            if (cancelled.load(std::memory_order_relaxed) || m_progress.isCancelled()) {
                cancelled = true;
                return;
            }
            work(first, std::min(first + Block, m_nL));
        };
        if (m_options.threads != 1 && blocks.size() > 1 && QThread::idealThreadCount() > 1)
            waitInPool([&] { QtConcurrent::blockingMap(blocks, guarded); });
        else
            for (std::size_t b : blocks)
                guarded(b);
        if (cancelled || m_progress.isCancelled())
            throw Cancelled {};
    }

    /// Calls cell(members, location, row, position) for every present cell of the locations
    /// [first, last), event by event.
    template <typename Cell>
    void forEachCell(std::vector<IntervalRow>& rows, std::size_t first, std::size_t last, const Cell& cell) const
    {
        constexpr std::uint32_t End = std::numeric_limits<std::uint32_t>::max();
        const std::size_t count = last - first;
        IntervalRow* row[Block];
        std::size_t cursor[Block];
        std::uint32_t next[Block]; // the event at the cursor, End when the row is done
        for (std::size_t j = 0; j < count; ++j) {
            row[j] = &rows[m_threads[first + j].index()];
            cursor[j] = 0;
            next[j] = row[j]->size() ? row[j]->events[0].index() : End;
        }
        for (std::size_t e = 0; e < m_eventCount; ++e) {
            const auto id = static_cast<std::uint32_t>(e);
            for (std::size_t j = 0; j < count; ++j) {
                if (next[j] != id)
                    continue;
                IntervalRow& r = *row[j];
                const std::size_t i = cursor[j]++;
                cell(m_members[e], first + j, r, i);
                next[j] = i + 1 < r.size() ? r.events[i + 1].index() : End;
            }
        }
    }

    /// Presence of every (cnode, location), calls and subrs, and the present events of each thread.
    void computePresence()
    {
        const std::size_t cells = m_nC * m_nL;
        m_present.assign(cells, 0);
        for (const CubeMetric* m : m_imported) {
            if (m->stored.empty())
                continue;
            for (std::size_t i = 0; i < cells; ++i)
                if (m->stored[i] != 0 || std::isnan(m->stored[i]))
                    m_present[i] = 1;
        }
        for (std::size_t c = m_nC; c-- > 0;) {
            const int p = m_doc.cnodes[c].parent;
            if (p < 0)
                continue;
            unsigned char* dst = m_present.data() + static_cast<std::size_t>(p) * m_nL;
            const unsigned char* src = m_present.data() + c * m_nL;
            for (std::size_t l = 0; l < m_nL; ++l)
                dst[l] |= src[l];
        }
        if (m_visits && !m_visits->stored.empty()) {
            if (m_visits->kind == MetricKind::Inclusive) {
                m_visitsExclusive = otherValues(*m_visits);
                m_calls = m_visitsExclusive.data();
            } else {
                m_calls = m_visits->stored.data();
            }
            m_subrs.assign(cells, 0.0);
            for (std::size_t c = 0; c < m_nC; ++c) {
                const int p = m_doc.cnodes[c].parent;
                if (p < 0)
                    continue;
                double* dst = m_subrs.data() + static_cast<std::size_t>(p) * m_nL;
                const double* src = m_calls + c * m_nL;
                for (std::size_t l = 0; l < m_nL; ++l)
                    dst[l] += src[l];
            }
        }
        m_rowEvents.assign(m_nL, {});
        forEachBlock([&](std::size_t first, std::size_t last) {
            unsigned char mark[Block] = {};
            for (std::size_t e = 0; e < m_eventCount; ++e) {
                for (const Member& member : m_members[e]) {
                    const unsigned char* present = m_present.data() + static_cast<std::size_t>(member.cnode) * m_nL;
                    for (std::size_t l = first; l < last; ++l)
                        mark[l - first] |= present[l];
                }
                for (std::size_t l = first; l < last; ++l)
                    if (mark[l - first]) {
                        m_rowEvents[l].push_back(static_cast<std::uint32_t>(e));
                        mark[l - first] = 0;
                    }
            }
        });
        qint64 modelCells = 0;
        for (const auto& events : m_rowEvents)
            modelCells += static_cast<qint64>(events.size());
        if (modelCells * qint64(2 + 2 * m_imported.size()) > 2 * m_doc.cellBudget)
            fail(QStringLiteral("the trial would hold %1 cells x %2 metrics, more than this reader allows for a file "
                                "of this size (corrupt file, or too large a profile)")
                     .arg(modelCells)
                     .arg(m_imported.size()));
    }

    void buildRows()
    {
        computePresence();
        const std::size_t nM = m_imported.size();
        // The values each metric does not store. The model's rows hold every present cell twice per
        // metric, so these arrays (at most one per metric) never dominate the memory used.
        struct Source {
            std::size_t k;
            const CubeMetric* metric;
            const double* excl;
            const double* incl;
        };
        std::vector<std::vector<double>> others;
        std::vector<Source> sources;
        for (std::size_t k = 0; k < nM; ++k) {
            const CubeMetric& m = *m_imported[k];
            if (m.stored.empty())
                continue; // all zero
            Source source { k, &m, m.stored.data(), m.stored.data() };
            if (!m.nonAdditive) {
                others.push_back(otherValues(m));
                (m.kind == MetricKind::Inclusive ? source.excl : source.incl) = others.back().data();
            }
            sources.push_back(source);
        }
        std::vector<IntervalRow> rows(m_builder.threadCount());
        forEachBlock([&](std::size_t first, std::size_t last) {
            for (std::size_t l = first; l < last; ++l) {
                IntervalRow& row = rows[m_threads[l].index()];
                const auto& present = m_rowEvents[l];
                const std::size_t n = present.size();
                row.events.resize(n);
                for (std::size_t i = 0; i < n; ++i)
                    row.events[i] = EventId(present[i]);
                row.calls.assign(n, 0.0);
                row.subrs.assign(n, 0.0);
                row.excl.assign(n * nM, 0.0);
                row.incl.assign(n * nM, 0.0);
                std::vector<std::uint32_t>().swap(m_rowEvents[l]);
            }
            forEachCell(rows, first, last,
                [&](const std::vector<Member>& members, std::size_t l, IntervalRow& row, std::size_t i) {
                    const std::size_t n = row.size();
                    if (m_calls) {
                        double calls = 0, subrs = 0;
                        for (const Member& member : members) {
                            const std::size_t at = static_cast<std::size_t>(member.cnode) * m_nL + l;
                            calls += m_calls[at];
                            subrs += m_subrs[at];
                        }
                        row.calls[i] = calls;
                        row.subrs[i] = subrs;
                    }
                    for (const Source& source : sources) {
                        double ex = 0, in = 0;
                        if (source.metric->nonAdditive) {
                            // Min/max over the cnodes that ran (visited, when Visits is known), else over the
                            // present ones.
                            const bool minimum = source.metric->minimum;
                            bool any = false;
                            for (int pass = 0; pass < 2 && !any; ++pass)
                                for (const Member& member : members) {
                                    const std::size_t at = static_cast<std::size_t>(member.cnode) * m_nL + l;
                                    if (!m_present[at] || (pass == 0 && m_calls && m_calls[at] <= 0))
                                        continue;
                                    const double value = source.excl[at];
                                    ex = !any ? value : minimum ? std::min(ex, value) : std::max(ex, value);
                                    any = true;
                                }
                            in = ex;
                        } else {
                            for (const Member& member : members) {
                                const std::size_t at = static_cast<std::size_t>(member.cnode) * m_nL + l;
                                ex += source.excl[at];
                                if (member.outermost)
                                    in += source.incl[at];
                            }
                        }
                        row.excl[source.k * n + i] = ex;
                        row.incl[source.k * n + i] = in;
                    }
                });
        });
        m_builder.setIntervalRows(std::move(rows));
    }

    void addMetadata()
    {
        for (const auto& [key, value] : m_doc.attrs)
            m_builder.addMetadata(key, value);
        m_builder.addMetadata(QStringLiteral("CUBE format version"), m_doc.version);
        if (!m_doc.mirrors.isEmpty())
            m_builder.addMetadata(QStringLiteral("CUBE mirrors"), m_doc.mirrors.join(QStringLiteral("; ")));
        m_builder.addMetadata(QStringLiteral("CUBE regions"), QString::number(m_doc.regions.size()));
        m_builder.addMetadata(QStringLiteral("CUBE cnodes"), QString::number(m_doc.cnodes.size()));
        if (!m_doc.topologies.isEmpty())
            m_builder.addMetadata(QStringLiteral("CUBE topologies"), m_doc.topologies.join(QStringLiteral("; ")));
        QStringList nonAdditive;
        for (const auto& m : m_doc.metrics) {
            if (!m.imported)
                continue;
            QStringList parts;
            parts << QStringLiteral("uniq_name %1").arg(m.uniqName.trimmed());
            if (m.parent >= 0) {
                const CubeMetric& p = m_doc.metrics[static_cast<std::size_t>(m.parent)];
                parts << QStringLiteral("parent %1").arg(p.imported ? p.modelName : p.dispName.trimmed());
            }
            parts << QStringLiteral("type %1").arg(kindName(m.kind))
                  << QStringLiteral("dtype %1").arg(m.dtype.trimmed()) << QStringLiteral("uom %1").arg(m.uom.trimmed());
            if (!m.val.trimmed().isEmpty())
                parts << QStringLiteral("val %1").arg(m.val.trimmed());
            if (!m.url.trimmed().isEmpty()) {
                // "@mirror@" stands for a <murl> of the document; CubeGUI tries them in order.
                QString url = m.url.trimmed();
                if (!m_doc.mirrors.isEmpty())
                    url.replace(QLatin1String("@mirror@"), m_doc.mirrors.first().trimmed());
                parts << QStringLiteral("url %1").arg(url);
            }
            if (!m.descr.trimmed().isEmpty())
                parts << m.descr.trimmed();
            m_builder.addMetadata(QStringLiteral("CUBE metric ") + m.modelName, parts.join(QStringLiteral("; ")));
            if (m.nonAdditive)
                nonAdditive << m.modelName;
        }
        if (!nonAdditive.isEmpty())
            m_builder.addMetadata(QStringLiteral("CUBE non-additive metrics"), nonAdditive.join(QStringLiteral(", ")));
    }

    struct Member {
        int cnode;
        bool outermost;
    };

    CubeDocument& m_doc;
    TrialBuilder& m_builder;
    QStringList& m_warnings;
    Progress& m_progress;
    const ReadOptions& m_options;
    std::size_t m_nC = 0;
    std::size_t m_nL = 0;
    std::vector<CubeMetric*> m_imported;
    CubeMetric* m_visits = nullptr;
    std::vector<ThreadIndex> m_threads;
    std::size_t m_movedThreads = 0;
    std::vector<EventId> m_pathEvent;
    std::vector<EventId> m_flatEvent;
    std::size_t m_eventCount = 0;
    std::vector<std::vector<Member>> m_members;
    std::vector<unsigned char> m_present;
    std::vector<double> m_visitsExclusive;
    std::vector<std::vector<std::uint32_t>> m_rowEvents;
    const double* m_calls = nullptr;
    std::vector<double> m_subrs;
};

// ---- the two readers -------------------------------------------------------------------------------

/// Warnings that mean data was not imported: errors under ReadOptions::strict.
void dataWarning(QStringList& warnings, const QString& w, const ReadOptions& options)
{
    if (options.strict)
        fail(w + QStringLiteral(" (strict mode)"));
    warnings << w;
}

void classifyMetrics(CubeDocument& doc, QStringList& warnings, const ReadOptions& options)
{
    const std::size_t declared = doc.metrics.size();
    for (std::size_t i = 0; i < declared; ++i) {
        CubeMetric& m = doc.metrics[i];
        const QString w = classifyMetric(m, doc.major);
        if (!w.isEmpty()) {
            if (!m.stored.empty() && m.kind != MetricKind::Derived)
                dataWarning(warnings, w, options);
            else
                warnings << w;
        }
        if (m.components.empty())
            continue;
        if (!m.stored.empty()) {
            // Values of a composite type written as text in CUBE 3 <severity> rows: no layout known.
            m.components.clear();
            dataWarning(warnings,
                QStringLiteral("metric %1 of the composite data type %2 has XML severity rows, which this reader "
                               "cannot split into parts; it was skipped")
                    .arg(quoted(m.dispName.isEmpty() ? m.uniqName : m.dispName), m.dtype.trimmed()),
                options);
            continue;
        }
        if (doc.metrics.size() + m.components.size() > MaxMetrics)
            fail(QStringLiteral("metric %1 of type %2 would make more than %3 metrics (corrupt file?)")
                     .arg(quoted(m.dispName))
                     .arg(m.dtype.trimmed())
                     .arg(MaxMetrics));
        // One metric per part, named "<name> (<part>)", after every declared metric.
        const std::vector<CubeMetric::Component> parts = m.components;
        std::vector<int> indices;
        for (const auto& part : parts) {
            const CubeMetric& whole = doc.metrics[i];
            CubeMetric c;
            c.parent = whole.parent;
            c.line = whole.line;
            c.dispName = QStringLiteral("%1 (%2)").arg(whole.dispName.trimmed(), part.part);
            c.uniqName = QStringLiteral("%1 (%2)").arg(whole.uniqName.trimmed(), part.part);
            c.dtype = QStringLiteral("%1, part %2").arg(whole.dtype.trimmed(), part.part);
            c.uom = part.part == QLatin1String("count") ? QStringLiteral("occ") : whole.uom;
            c.url = whole.url;
            c.descr = whole.descr;
            c.typeText = whole.typeText;
            c.kind = whole.kind;
            c.valueType = part.type;
            c.nonAdditive = part.extremum != 0;
            c.minimum = part.extremum < 0;
            c.imported = true;
            c.compositeOf = static_cast<int>(i);
            indices.push_back(static_cast<int>(doc.metrics.size()));
            doc.metrics.push_back(std::move(c));
        }
        doc.metrics[i].componentMetrics = std::move(indices);
    }
}

void ampersandWarning(const XmlParser& parser, const QString& member, QStringList& warnings)
{
    if (parser.escapedAmpersands() == 0)
        return;
    warnings << QStringLiteral("%1%2 bare '&' character(s) (not XML; first at line %3) were read as '&amp;'")
                    .arg(member.isEmpty() ? QString() : member + QStringLiteral(": "))
                    .arg(parser.escapedAmpersands())
                    .arg(parser.firstEscapeLine());
}

void readXmlFile(
    const QString& path, CubeDocument& doc, QStringList& warnings, Progress& progress, const ReadOptions& options)
{
    FileSource source(path, progress);
    XmlParser parser(source, doc, progress, QString());
    parser.parse();
    ampersandWarning(parser, QString(), warnings);
    if (parser.shortRows() > 0)
        warnings << QStringLiteral("%1 severity row(s) have fewer values than threads (first at line %2); the "
                                   "missing values are 0")
                        .arg(parser.shortRows())
                        .arg(parser.firstShortRow());
    if (parser.longRows() > 0)
        dataWarning(warnings,
            QStringLiteral("%1 severity row(s) have more values than threads (first at line %2); the extra values "
                           "belong to no thread and were ignored")
                .arg(parser.longRows())
                .arg(parser.firstLongRow()),
            options);
    if (source.cutShort())
        warnings << QStringLiteral("the gzip stream is cut short after the end of the XML (no checksum verified)");
    if (source.trailingGarbage() > 0)
        warnings << QStringLiteral("%1 byte(s) of non-gzip data after the compressed stream were ignored")
                        .arg(source.trailingGarbage());
    classifyMetrics(doc, warnings, options);
    if (doc.major == 4 && !doc.hasSeverity)
        warnings << QStringLiteral("CUBE 4 XML outside a .cubex archive: there are no .data members, so every "
                                   "value is 0");
    for (auto& m : doc.metrics)
        if (!m.imported)
            m.stored.clear();
}

void readCubex(const QString& path, CubeDocument& doc, TrialBuilder& builder, QStringList& warnings, Progress& progress,
    const ReadOptions& options)
{
    struct Pending {
        QByteArray index;
        QString indexMember;
        QString dataMember;
        bool dataDone = false;
        bool dataDeferred = false;
    };
    std::map<qint64, Pending> members;
    std::map<qint64, IndexInfo> indexes;
    QStringList misc;
    bool anchor = false;
    QStringList listed;
    auto decodeIfReady = [&](ArchiveReader& reader, qint64 id, Pending& p) {
        const auto it = doc.metricById.constFind(id);
        CubeMetric& metric = doc.metrics[static_cast<std::size_t>(it.value())];
        auto idx = indexes.find(id);
        if (idx == indexes.end())
            idx = indexes.emplace(id, parseIndex(p.index, p.indexMember, doc.cnodes.size(), warnings)).first;
        QStringList dataWarnings;
        decodeDataMember(reader, doc, metric, idx->second, p.dataMember, dataWarnings);
        for (const QString& w : dataWarnings)
            dataWarning(warnings, w, options);
        p.dataDone = true;
    };
    auto usable = [&](qint64 id) {
        const auto it = doc.metricById.constFind(id);
        if (it == doc.metricById.cend())
            return false;
        const CubeMetric& m = doc.metrics[static_cast<std::size_t>(it.value())];
        return m.imported || !m.componentMetrics.empty();
    };

    progress.setStage(QStringLiteral("Reading CUBE archive"), QFileInfo(path).size());
    {
        ArchiveReader reader(path, progress);
        QString name;
        qint64 size = 0;
        bool regular = false;
        while (reader.next(name, size, regular)) {
            if (listed.size() < 8)
                listed << quoted(name);
            if (!regular)
                continue;
            if (name == QLatin1String("anchor.xml")) {
                if (anchor)
                    fail(QStringLiteral("a second member 'anchor.xml' (expected one)"));
                anchor = true;
                ArchiveMemberSource source(reader, name);
                XmlParser parser(source, doc, progress, QStringLiteral("anchor.xml"));
                parser.parse();
                if (source.isGzip())
                    builder.addMetadata(QStringLiteral("CUBE anchor.xml compression"), QStringLiteral("gzip"));
                ampersandWarning(parser, QStringLiteral("anchor.xml"), warnings);
                classifyMetrics(doc, warnings, options);
                // Members seen before the anchor can be checked now.
                for (auto& [id, p] : members)
                    if (!p.dataMember.isEmpty() && !p.dataDone && usable(id))
                        p.dataDeferred = true;
                continue;
            }
            const auto kind = metricMember(name);
            if (!kind) {
                QString entry = QStringLiteral("%1 (%2 bytes)").arg(name).arg(size);
                if (size >= 0 && size <= MaxKeptMiscMember) {
                    const QByteArray bytes = reader.readAll(MaxKeptMiscMember);
                    QStringDecoder decoder(QStringDecoder::Utf8);
                    const QString text = decoder.decode(bytes);
                    if (!decoder.hasError() && !bytes.contains('\0'))
                        builder.addMetadata(QStringLiteral("CUBE misc ") + name, text);
                    else
                        entry += QStringLiteral(", binary, not kept");
                } else {
                    entry += QStringLiteral(", not kept");
                }
                misc << entry;
                continue;
            }
            const auto [id, isData] = *kind;
            Pending& p = members[id];
            if (isData) {
                if (!p.dataMember.isEmpty())
                    fail(QStringLiteral("a second member %1 (expected one per metric)").arg(quoted(name)));
                p.dataMember = name;
                if (anchor && usable(id) && !p.indexMember.isEmpty())
                    decodeIfReady(reader, id, p);
                else if (anchor && usable(id))
                    p.dataDeferred = true;
                else if (!anchor)
                    p.dataDeferred = true;
            } else {
                if (!p.indexMember.isEmpty())
                    fail(QStringLiteral("a second member %1 (expected one per metric)").arg(quoted(name)));
                p.indexMember = name;
                p.index = reader.readAll(qint64(1) << 32);
            }
        }
    }
    if (!anchor)
        fail(QStringLiteral("no member 'anchor.xml' (expected a .cubex tar holding anchor.xml; found %1)")
                 .arg(listed.isEmpty() ? QStringLiteral("no members") : listed.join(QStringLiteral(", "))));

    bool secondPass = false;
    for (auto& [id, p] : members) {
        if (!usable(id)) {
            const auto it = doc.metricById.constFind(id);
            const QString what = p.dataMember.isEmpty() ? p.indexMember : p.dataMember;
            if (it == doc.metricById.cend())
                dataWarning(warnings,
                    QStringLiteral("member %1 belongs to no metric of anchor.xml (no metric id %2); ignored")
                        .arg(quoted(what))
                        .arg(id),
                    options);
            else if (!p.dataMember.isEmpty()) {
                const CubeMetric& m = doc.metrics[static_cast<std::size_t>(it.value())];
                const QString w = QStringLiteral("member %1 belongs to metric %2, which is not imported; ignored")
                                      .arg(quoted(what), quoted(m.dispName));
                if (m.kind == MetricKind::Derived)
                    warnings << w;
                else
                    dataWarning(warnings, w, options);
            }
            p.dataDeferred = false;
            continue;
        }
        if (p.dataMember.isEmpty())
            fail(QStringLiteral("member %1 has no matching '%2.data' (expected both members of a metric)")
                     .arg(quoted(p.indexMember))
                     .arg(id));
        if (p.indexMember.isEmpty())
            fail(QStringLiteral("member %1 has no matching '%2.index' (expected both members of a metric)")
                     .arg(quoted(p.dataMember))
                     .arg(id));
        if (!p.dataDone)
            secondPass = true;
    }
    if (secondPass) {
        progress.setStage(QStringLiteral("Reading CUBE severities"), QFileInfo(path).size());
        ArchiveReader reader(path, progress);
        QString name;
        qint64 size = 0;
        bool regular = false;
        while (reader.next(name, size, regular)) {
            if (!regular)
                continue;
            const auto kind = metricMember(name);
            if (!kind || !kind->second)
                continue;
            auto it = members.find(kind->first);
            if (it == members.end() || it->second.dataDone || !usable(kind->first) || it->second.dataMember != name)
                continue;
            decodeIfReady(reader, kind->first, it->second);
        }
        for (const auto& [id, p] : members)
            if (usable(id) && !p.dataDone)
                fail(QStringLiteral("member %1 was not found again on the second pass over the archive (was the "
                                    "file modified while reading?)")
                         .arg(quoted(p.dataMember)));
    }
    if (!misc.isEmpty())
        builder.addMetadata(QStringLiteral("CUBE misc members"), misc.join(QStringLiteral("; ")));
    for (auto& m : doc.metrics)
        if (!m.imported)
            m.stored.clear();
}

bool isTarHeader(const QByteArray& head) { return head.size() >= 262 && head.mid(257, 5) == "ustar"; }

/// Whether a chunk of XML starts a CUBE document: markup from the first byte (after a UTF-8 byte-order
/// mark and white space) and a <cube version...> tag. Text that only mentions the tag, such as a
/// MANIFEST.md describing a CUBE file, is not CUBE.
bool hasCubeTag(const QByteArray& text)
{
    qsizetype first = text.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    while (first < text.size()
        && (text[first] == ' ' || text[first] == '\t' || text[first] == '\r' || text[first] == '\n'))
        ++first;
    if (first >= text.size() || text[first] != '<')
        return false;
    qsizetype at = 0;
    while ((at = text.indexOf("<cube", at)) >= 0) {
        at += 5;
        qsizetype i = at;
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
            ++i;
        if (i > at && text.mid(i, 7) == "version")
            return true;
    }
    return false;
}

} // namespace

int CubeReader::sniff(const QString& path) const
{
    const QFileInfo info(path);
    if (!info.isFile())
        return 0;
    const QString lower = info.fileName().toLower();
    const bool cubexName = lower.endsWith(QLatin1String(".cubex"));
    const bool cubeName = lower.endsWith(QLatin1String(".cube")) || lower.endsWith(QLatin1String(".cube.gz"));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray head = file.read(4096);
    if (isTarHeader(head)) {
        if (cubexName)
            return 100;
        // A tar under another name: look for anchor.xml among the first members (headers only).
        ArchivePtr a(archive_read_new());
        archive_read_support_format_tar(a.get());
        if (archive_read_open_filename(a.get(), QFile::encodeName(path).constData(), 10240) != ARCHIVE_OK)
            return 0;
        archive_entry* entry = nullptr;
        for (int i = 0; i < 256 && archive_read_next_header(a.get(), &entry) == ARCHIVE_OK; ++i) {
            const char* name = archive_entry_pathname(entry);
            if (name && (std::strcmp(name, "anchor.xml") == 0 || std::strcmp(name, "./anchor.xml") == 0))
                return 95;
        }
        return 0;
    }
    if (head.size() >= 2 && isGzipMagic(head.constData())) {
        z_stream z {};
        if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
            return cubeName ? 30 : 0;
        char out[4096];
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(head.constData()));
        z.avail_in = static_cast<uInt>(head.size());
        z.next_out = reinterpret_cast<Bytef*>(out);
        z.avail_out = sizeof out;
        int rc = Z_OK;
        while (z.avail_out > 0 && rc == Z_OK)
            rc = inflate(&z, Z_NO_FLUSH);
        const QByteArray text(out, static_cast<qsizetype>(sizeof out - z.avail_out));
        inflateEnd(&z);
        if (hasCubeTag(text))
            return 100;
        return cubeName ? 30 : 0;
    }
    if (hasCubeTag(head))
        return 100;
    if (cubexName)
        return 50; // so that read() explains what is wrong with it
    return cubeName ? 40 : 0;
}

TrialResult CubeReader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    const QFileInfo info(path);
    if (!info.isFile())
        return ReadError { path, 0, -1,
            QStringLiteral("not a file; a CUBE profile is one .cubex, .cube or .cube.gz file") };
    TrialBuilder builder(info.fileName());
    QStringList warnings;
    CubeDocument doc;
    const ReadJob job { path, {}, QStringLiteral("out of memory (the profile is too large, or corrupt)"), {}, {} };
    return guardedRead(*this, job, builder, warnings, [&]() -> std::optional<ReadError> {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return ReadError { path, 0, -1, QStringLiteral("cannot open: %1").arg(file.errorString()) };
        const QByteArray head = file.read(512);
        file.close();
        // Dense arrays: 16 Mi values, plus 16 per byte of the file (32 x that for gzip, which
        // compresses XML about tenfold).
        const bool gzipped = head.size() >= 2 && isGzipMagic(head.constData());
        doc.cellBudget = (qint64(1) << 24) + 16 * info.size() * (gzipped ? 32 : 1);
        if (isTarHeader(head)) {
            readCubex(path, doc, builder, warnings, progress, options);
        } else if (info.fileName().toLower().endsWith(QLatin1String(".cubex"))) {
            return ReadError { path, 0, 0,
                QStringLiteral("not a tar archive: no 'ustar' magic at byte 257 (expected a .cubex, a tar holding "
                               "anchor.xml)") };
        } else {
            progress.setStage(QStringLiteral("Reading CUBE XML"), info.size());
            readXmlFile(path, doc, warnings, progress, options);
        }
        if (!doc.unknownElements.isEmpty())
            warnings << QStringLiteral("unknown elements were ignored: %1")
                            .arg(doc.unknownElements.join(QStringLiteral(", ")));
        progress.setStage(QStringLiteral("Building the trial"), 0);
        TrialAssembler(doc, builder, warnings, progress, options).run();
        return std::nullopt;
    });
}

} // namespace parallax
