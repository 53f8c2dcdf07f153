// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Metric data types and the .index/.data members of a .cubex (docs/FORMATS.md 5.2, 5.3), part of the
// CUBE reader (cubereader.cpp).
//
// * Data types: CubeLib's plain types and their aliases become one metric each; the composite dtypes
//   RATE, COMPLEX, TAU_ATOMIC, NDOUBLES(n) and HISTOGRAM(n) one metric per part, in the layout CubeLib
//   writes (and pycubexr reads); SCALE_FUNC and unknown types are skipped with a warning.
// * .index and .data follow docs/FORMATS.md 5.3 (byte order from the index mark; SPARSE and DENSE; row
//   ids are positions in the per-metric enumeration: pre-order for EXCLUSIVE, sibling blocks for
//   INCLUSIVE, id order for SIMPLE). "ZCUBEX.DATA" is: i64 entry count n, n x (i64 uncompressed
//   position, i64 compressed position, i64 compressed size), then the zlib streams in order, which
//   inflate to the plain rows (checked on Score-P 1.3's files in
//   ../shared/data/extrap/cubeset/multi_parameter: one stream per row, little-endian).
// * Non-zero .data rows beyond the index are data that belongs nowhere: a warning (an error under
//   ReadOptions::strict, which the caller applies). A .data member may end in zero rows beyond its
//   index (test0.0.cubex); those are ignored silently.
//
// Errors name the member and the byte offset (in the archive when the tar layout makes it certain).

#include "datasource/readers/cubedata.h"

#include "datasource/readers/cubearchive.h"

#include <QtEndian>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <memory>
#include <numeric>
#include <string>
#include <type_traits>
#include <zlib.h>

namespace parallax::cube {

namespace {

/// Parts of one composite value (NDOUBLES(n), HISTOGRAM(n)) that become metrics of their own.
constexpr int MaxComponents = 256;

/// A T stored at p, in the other byte order when `swap`.
template <typename T> T load(const char* p, bool swap)
{
    T v;
    std::memcpy(&v, p, sizeof(T));
    if constexpr (sizeof(T) > 1) {
        if (swap) {
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

template <typename T> double loadAsDouble(const char* p, bool swap) { return static_cast<double>(load<T>(p, swap)); }

/// The size and the decoder of a plain value type.
struct Layout {
    int size;
    double (*decode)(const char* p, bool swap);
};
template <typename T> constexpr Layout layoutOf() { return { static_cast<int>(sizeof(T)), &loadAsDouble<T> }; }
/// In the order of ValueType.
constexpr Layout Layouts[] = { layoutOf<std::int8_t>(), layoutOf<std::uint8_t>(), layoutOf<std::int16_t>(),
    layoutOf<std::uint16_t>(), layoutOf<std::int32_t>(), layoutOf<std::uint32_t>(), layoutOf<std::int64_t>(),
    layoutOf<std::uint64_t>(), layoutOf<double>(), { 0, nullptr } };
static_assert(std::size(Layouts) == static_cast<std::size_t>(ValueType::Unsupported) + 1);

int valueSize(ValueType t) { return Layouts[static_cast<std::size_t>(t)].size; }

/// The value of type `t` at p (0 for an unsupported type).
double decodeValue(const char* p, ValueType t, bool swap)
{
    const Layout& layout = Layouts[static_cast<std::size_t>(t)];
    return layout.decode ? layout.decode(p, swap) : 0.0;
}

/// Sets kind, value type and import flag from the XML strings; returns a warning for a metric that
/// cannot be imported (empty when it can).
QString classifyMetric(CubeMetric& m, int major)
{
    const QString& t = m.typeText;
    // EXCLUSIVE, no type, every metric before CUBE 4, and (CubeLib's default) an unknown type.
    m.kind = MetricKind::Exclusive;
    if (major >= 4 && t == QLatin1String("INCLUSIVE"))
        m.kind = MetricKind::Inclusive;
    else if (major >= 4 && t == QLatin1String("SIMPLE"))
        m.kind = MetricKind::Simple;
    else if (major >= 4
        && (t == QLatin1String("POSTDERIVED") || t == QLatin1String("PREDERIVED_INCLUSIVE")
            || t == QLatin1String("PREDERIVED_EXCLUSIVE") || t == QLatin1String("DERIVED")))
        m.kind = MetricKind::Derived;
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

// ---- call-tree enumerations (docs/FORMATS.md 5.3) ----------------------------------------------

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

// ---- .index / .data members ----------------------------------------------------------------------

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
        const qint64 payload
            = static_cast<qint64>(m_values) * static_cast<qint64>(m_size) + static_cast<qint64>(m_carry.size());
        if (!m_carry.empty())
            parseFail(
                QStringLiteral("member %1 holds %2 bytes of values, not a whole number of %3-byte %4 values (size "
                               "mismatch; truncated?)")
                    .arg(quoted(m_member))
                    .arg(payload)
                    .arg(m_size)
                    .arg(m_metric.dtype.trimmed()),
                0, payloadStart + payload);
        if (m_values < m_expectedValues)
            parseFail(
                QStringLiteral("member %1 ends after %2 of %3 rows (expected %3 rows x %4 locations x %5 bytes = %6 "
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
    void value(const char* p)
    {
        if (m_metric.componentMetrics.empty()) {
            store(m_metric, decodeValue(p, m_metric.valueType, m_index.swap));
        } else {
            bool nonZero = false;
            for (std::size_t k = 0; k < m_metric.components.size(); ++k) {
                const double v
                    = decodeValue(p + m_metric.components[k].offset, m_metric.components[k].type, m_index.swap);
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

} // namespace

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
            parseFail(QStringLiteral("metric %1 of type %2 would make more than %3 metrics (corrupt file?)")
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

IndexInfo parseIndex(const QByteArray& bytes, const QString& member, std::size_t cnodes, QStringList& warnings)
{
    static constexpr char Magic[] = "CUBEX.INDEX";
    if (bytes.size() < 18)
        parseFail(QStringLiteral("member %1 has %2 byte(s) (expected at least the 18-byte index header)")
                      .arg(quoted(member))
                      .arg(bytes.size()),
            0, bytes.size());
    const char* p = bytes.constData();
    if (std::memcmp(p, Magic, 11) != 0)
        parseFail(QStringLiteral("member %1 byte 0: expected the marker 'CUBEX.INDEX', found '%2'")
                      .arg(quoted(member), QString::fromLatin1(QByteArray(p, 11).toHex(' '))),
            0, 0);
    IndexInfo info;
    const std::uint32_t mark = load<std::uint32_t>(p + 11, false);
    if (mark == 0x01000000u)
        info.swap = true;
    else if (mark != 1)
        parseFail(QStringLiteral("member %1 byte 11: the byte-order mark is 0x%2 (expected the u32 1)")
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
            parseFail(QStringLiteral("member %1 is a DENSE index of %2 bytes (expected exactly 18: size mismatch)")
                          .arg(quoted(member))
                          .arg(bytes.size()),
                0, 18);
        return info;
    }
    if (format != 1)
        parseFail(QStringLiteral("member %1 byte 17: index format %2 is not supported (expected 1 = SPARSE or 3 = "
                                 "DENSE%3)")
                      .arg(quoted(member))
                      .arg(format)
                      .arg(format == 2 ? QStringLiteral("; 2 = BITVECTOR was never supported by CUBE") : QString()),
            0, 17);
    info.sparse = true;
    if (bytes.size() < 22)
        parseFail(
            QStringLiteral("member %1 ends after %2 bytes (expected the u32 row count of a SPARSE index at byte 18)")
                .arg(quoted(member))
                .arg(bytes.size()),
            0, bytes.size());
    const std::uint32_t n = load<std::uint32_t>(p + 18, info.swap);
    const qint64 expected = 22 + 4 * qint64(n);
    if (bytes.size() != expected)
        parseFail(
            QStringLiteral("member %1 has %2 bytes, but its SPARSE header announces %3 row ids (expected %4 bytes: "
                           "size mismatch)")
                .arg(quoted(member))
                .arg(bytes.size())
                .arg(n)
                .arg(expected),
            0, 18);
    info.rows.resize(n);
    std::vector<bool> seen(cnodes, false);
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t row = load<std::uint32_t>(p + 22 + 4 * qint64(i), info.swap);
        if (row >= cnodes)
            parseFail(QStringLiteral("member %1 byte %2: row id %3 is not a cnode of the call tree (expected 0..%4)")
                          .arg(quoted(member))
                          .arg(22 + 4 * qint64(i))
                          .arg(row)
                          .arg(qint64(cnodes) - 1),
                0, 22 + 4 * qint64(i));
        if (seen[row])
            parseFail(QStringLiteral("member %1 byte %2: row id %3 is listed twice (expected each cnode once)")
                          .arg(quoted(member))
                          .arg(22 + 4 * qint64(i))
                          .arg(row),
                0, 22 + 4 * qint64(i));
        seen[row] = true;
        info.rows[i] = row;
    }
    return info;
}

void decodeDataMember(ArchiveReader& reader, CubeDocument& doc, CubeMetric& metric, const IndexInfo& index,
    const QString& member, QStringList& warnings)
{
    if (!metric.dataSource.isEmpty())
        parseFail(QStringLiteral("member %1: metric %2 already has values from %3 (expected one source)")
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
        parseFail(
            QStringLiteral("member %1 byte 0: expected the marker 'CUBEX.DATA' or 'ZCUBEX.DATA', found '%2'")
                .arg(quoted(member), QString::fromLatin1(QByteArray(head.data(), qsizetype(head.size())).toHex(' '))),
            0, reader.archiveOffset(0));
    // Compressed (docs/FORMATS.md 5.3 ✘): see the top of this file.
    std::vector<char> all;
    while (const std::size_t n = reader.read(buffer.data(), buffer.size()))
        all.insert(all.end(), buffer.data(), buffer.data() + n);
    auto i64 = [&](std::size_t at) { return load<std::int64_t>(all.data() + at, index.swap); };
    if (all.size() < 8)
        parseFail(QStringLiteral("member %1 ends at byte %2 (expected the i64 entry count of compressed data)")
                      .arg(quoted(member))
                      .arg(11 + all.size()),
            0, reader.archiveOffset(11 + qint64(all.size())));
    const qint64 entries = i64(0);
    if (entries < 0 || entries > qint64(all.size() / 24))
        parseFail(QStringLiteral("member %1 byte 11: %2 compressed entries cannot fit in %3 bytes (corrupt header)")
                      .arg(quoted(member))
                      .arg(entries)
                      .arg(all.size()),
            0, reader.archiveOffset(11));
    std::size_t at = 8 + 24 * static_cast<std::size_t>(entries);
    z_stream z {};
    if (inflateInit(&z) != Z_OK)
        parseFail(QStringLiteral("cannot initialise zlib"));
    std::unique_ptr<z_stream, void (*)(z_stream*)> guard(&z, [](z_stream* s) { inflateEnd(s); });
    for (qint64 e = 0; e < entries; ++e) {
        const qint64 compressed = i64(8 + 24 * static_cast<std::size_t>(e) + 16);
        if (compressed == 0)
            continue;
        if (compressed < 0 || static_cast<std::size_t>(compressed) > all.size() - at)
            parseFail(
                QStringLiteral("member %1: compressed entry %2 of %3 bytes runs past the end of the member (%4 bytes "
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
            parseFail(QStringLiteral("member %1: compressed entry %2 does not inflate (%3)")
                          .arg(quoted(member))
                          .arg(e + 1)
                          .arg(z.msg ? QString::fromLatin1(z.msg) : QStringLiteral("zlib error %1").arg(rc)),
                0, reader.archiveOffset(11 + qint64(at)));
        at += static_cast<std::size_t>(compressed);
    }
    decoder.finish(11, warnings);
}

} // namespace parallax::cube
