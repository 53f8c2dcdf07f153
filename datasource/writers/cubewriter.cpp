// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The CUBE 4 writer (docs/FORMATS.md 5.4). The file is built so that the CUBE reader
// (readers/cubeassembler.cpp) gives back the trial's call-path cells exactly:
//
// * Call tree. Every call-path event "a => b => c" is a cnode under the cnodes of its prefixes (a
//   prefix that is no event becomes a cnode with zero values). A flat event is a root cnode when it
//   is the first component of a call path, or when it is the leaf of no call path (a trial without
//   call paths is a forest of roots); other flat events are not written (the reader rebuilds them
//   from the cnodes). Siblings follow event ids, so a trial read from CUBE keeps its cnode order and
//   its event order. One region per leaf name; its mod, begin and end are the leaf's sourceLocationOf
//   (docs/SEMANTICS.md §12; "", -1, -1 without one).
// * Metrics. One CUBE metric per model metric, in the metric tree and with the uniq_name, type,
//   dtype, uom, url and description the CUBE reader left in "CUBE metric NAME"; otherwise INCLUSIVE
//   (as Score-P's time), DOUBLE, uom from the unit (us -> usec: values are not rescaled). Calls are
//   the Visits metric: the model's own when it has one (uniq_name "visits" or name "Visits"), else
//   an added EXCLUSIVE "Visits" (UINT64 when every count is a whole number).
// * The other value. An INCLUSIVE metric stores incl; the reader derives excl = incl - sum of the
//   children's incl (an EXCLUSIVE one the reverse). The writer repeats that computation in the
//   reader's order; when any present cell differs (TAU measures both values; algebra results), the
//   metric's other value is written too, as the metric "<uniq_name>:parallax-other" (disp_name
//   "NAME (exclusive)" or "(inclusive)") that the reader folds back into NAME.
// * System tree. Per thread, "CUBE system path" gives the system tree nodes, "CUBE process" and
//   "CUBE thread" the names of the location group and location; without them the tree is the
//   trial's name (machine) -> Hostname (node, when recorded) -> "rank N" -> "thread T". A location
//   group per (path, process name, node); location Ids follow the trial's thread order, so the
//   reader's context numbering gives the same ThreadKeys (contexts 0..k of one node and thread).
//   The carts the reader kept ("CUBE topology K", per location "CUBE coordinates K") are written
//   back as <topologies>, with <coord locId> per location that has coordinates.
// * Trial metadata becomes <attr>s (except the keys "CUBE ..." that the reader writes itself);
//   "CUBE misc NAME" becomes the member NAME again.

#include "datasource/writers/cubewriter.h"

#include "datasource/model/names.h"
#include "datasource/readers/cubedocument.h"
#include "datasource/writers/savefile.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QXmlStreamWriter>
#include <algorithm>
#include <archive.h>
#include <archive_entry.h>
#include <cmath>
#include <cstring>
#include <ctime>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <tuple>

namespace parallax {

namespace {

const QLatin1String Sep(" => ");

/// What the CUBE reader kept of a metric ("CUBE metric NAME", docs/FORMATS.md 5.3).
struct MetricInfo {
    QString uniq, parent, type, dtype, uom, val, url, descr;
};

MetricInfo parseMetricInfo(const QString& text)
{
    MetricInfo info;
    if (text.isEmpty())
        return info;
    const QStringList parts = text.split(QStringLiteral("; "));
    QString* fields[] = { &info.uniq, &info.parent, &info.type, &info.dtype, &info.uom, &info.val, &info.url };
    static const char* const keys[] = { "uniq_name ", "parent ", "type ", "dtype ", "uom ", "val ", "url " };
    std::size_t k = 0;
    qsizetype i = 0;
    for (; i < parts.size(); ++i) {
        bool matched = false;
        for (; k < std::size(keys) && !matched; ++k)
            if (parts[i].startsWith(QLatin1String(keys[k]))) {
                *fields[k] = parts[i].mid(qsizetype(std::strlen(keys[k]))).trimmed();
                matched = true;
            }
        if (!matched)
            break;
    }
    info.descr = parts.mid(i).join(QStringLiteral("; "));
    return info;
}

QString uomOfUnit(const QString& unit)
{
    if (unit == QLatin1String("us"))
        return QStringLiteral("usec");
    if (unit == QLatin1String("count"))
        return QStringLiteral("occ");
    return unit;
}

/// Plain dtypes the writer can store: name, bytes, signed, integer.
struct DType {
    const char* name;
    int size;
    bool isSigned;
    bool integer;
};
constexpr DType DTypes[] = { { "DOUBLE", 8, true, false }, { "FLOAT", 8, true, false }, { "MINDOUBLE", 8, true, false },
    { "MAXDOUBLE", 8, true, false }, { "UINT64", 8, false, true }, { "INT64", 8, true, true },
    { "INTEGER", 8, true, true }, { "UINT32", 4, false, true }, { "INT32", 4, true, true },
    { "UINT16", 2, false, true }, { "INT16", 2, true, true }, { "UINT8", 1, false, true }, { "INT8", 1, true, true } };

const DType* findDType(const QString& name)
{
    const QString upper = name.trimmed().toUpper();
    for (const DType& d : DTypes)
        if (upper == QLatin1String(d.name))
            return &d;
    return nullptr;
}

bool fits(const DType& d, double v)
{
    if (!d.integer)
        return true;
    if (!std::isfinite(v) || v != std::floor(v))
        return false;
    if (d.size == 8)
        return d.isSigned ? v >= -9.2e18 && v <= 9.2e18 : v >= 0 && v <= 1.8e19;
    const double bits = 8.0 * d.size;
    const double lo = d.isSigned ? -std::ldexp(1.0, int(bits) - 1) : 0.0;
    const double hi = d.isSigned ? std::ldexp(1.0, int(bits) - 1) - 1 : std::ldexp(1.0, int(bits)) - 1;
    return v >= lo && v <= hi;
}

void appendValue(QByteArray& out, const DType& d, double v)
{
    char bytes[8];
    if (!d.integer) {
        std::memcpy(bytes, &v, 8);
    } else if (d.isSigned) {
        const auto i = static_cast<qint64>(v);
        std::memcpy(bytes, &i, 8); // little-endian host: the low bytes come first
    } else {
        const auto u = static_cast<quint64>(v);
        std::memcpy(bytes, &u, 8);
    }
    out.append(bytes, d.size);
}

struct Cnode {
    QString leaf;
    int parent = -1;
    std::vector<int> children;
    EventId event; // invalid for a prefix that is no event
    std::uint32_t order = 0;
    int region = -1;
    int position = -1; // pre-order index = XML id
};

/// What one written metric stores, per (cnode, location).
enum class Stored { Excl, Incl, Calls };

struct OutMetric {
    QString disp, uniq, type, dtype, uom, val, url, descr;
    QString parentName;
    int parent = -1;
    std::vector<int> children;
    std::size_t model = 0;
    Stored stored = Stored::Excl;
    bool nonAdditive = false;
    bool otherOf = false; // the ":parallax-other" metric of `model`
    int id = -1;
};

class Builder {
public:
    explicit Builder(const Trial& trial)
        : m_trial(trial)
    {
    }

    void run()
    {
        m_fromCube = !m_trial.metadataValue(QStringLiteral("CUBE format version")).isNull();
        for (std::size_t t = 0; t < m_trial.threadCount(); ++t)
            for (const QString& part : m_trial.metadataValue(QStringLiteral("CUBE system path"), ThreadIndex(t))
                                           .split(QStringLiteral(" | "), Qt::SkipEmptyParts))
                m_systemClassKeys.insert(QStringLiteral("CUBE ") + part.section(QStringLiteral(": "), 0, 0));
        buildCallTree();
        buildMetrics();
    }

    QByteArray anchor() const;
    /// The .index and .data members of metric `k` (empty when every value is 0 or VOID).
    std::pair<QByteArray, QByteArray> data(const OutMetric& m) const;
    const std::vector<OutMetric>& metrics() const { return m_metrics; }

private:
    void buildCallTree();
    void buildMetrics();
    void derive(std::size_t model, bool inclusive, std::size_t t, std::vector<double>& values,
        std::vector<double>& derived) const;
    bool consistent(std::size_t model, bool inclusive) const;
    /// Whether CubeLib can hold every value of the metric in `dtype`: the stored ones and the other
    /// values it derives from them along the call tree in that type's arithmetic (an unsigned type
    /// wraps a negative exclusive value around: 1 - 14 became 65523 in a UINT16 metric).
    bool fitsDType(std::size_t model, bool inclusive, const DType& dtype) const;
    /// The value a cnode stores; `additive` subtracts the deeper cnodes of a root that holds flat totals.
    double cell(int cnode, std::size_t t, Stored what, std::size_t metric, bool additive = true) const;
    /// The cell of the cnode's event.
    double ownCell(int cnode, std::size_t t, Stored what, std::size_t metric) const;
    std::vector<int> enumeration(bool inclusive) const;
    void writeMetric(QXmlStreamWriter& xml, int k) const;
    void writeCnode(QXmlStreamWriter& xml, int c) const;
    void writeSystem(QXmlStreamWriter& xml) const;
    void writeTopologies(QXmlStreamWriter& xml) const;
    bool isReaderKey(const QString& key) const;

    const Trial& m_trial;
    std::vector<Cnode> m_cnodes; // in pre-order after buildCallTree()
    std::vector<int> m_roots;
    std::vector<QString> m_regions;
    std::vector<QString> m_regionParadigm;
    std::vector<SourceLocation> m_regionLocation; // mod, begin, end (docs/SEMANTICS.md §12)
    std::vector<OutMetric> m_metrics;
    std::vector<int> m_metricRoots;
    /// Per cnode and thread: the cell's position in the thread's row, or -1.
    std::vector<std::vector<std::ptrdiff_t>> m_cellAt;
    /// Roots that hold flat totals: the deeper cnodes with their leaf, and whether each is outermost.
    std::map<int, std::vector<std::pair<int, bool>>> m_deeper;
    /// "CUBE <class>" for the classes of the system paths (the reader's per-class name keys).
    QSet<QString> m_systemClassKeys;
    /// The trial came from a CUBE file: its location and group names are in the metadata, even empty.
    bool m_fromCube = false;
};

void Builder::buildCallTree()
{
    std::vector<Cnode> nodes;
    QHash<QString, int> byPath;
    QSet<QString> leavesOfPaths;
    auto nodeFor = [&](const QString& path, const QString& leaf, int parent) {
        const auto it = byPath.constFind(path);
        if (it != byPath.cend())
            return it.value();
        Cnode c;
        c.leaf = leaf;
        c.parent = parent;
        nodes.push_back(c);
        const int id = int(nodes.size()) - 1;
        byPath.insert(path, id);
        return id;
    };
    for (std::size_t e = 0; e < m_trial.eventCount(); ++e) {
        const IntervalEvent& event = m_trial.event(EventId(e));
        if (!event.isCallPath())
            continue;
        const QStringList parts = event.name.split(Sep);
        QString path;
        int parent = -1;
        for (qsizetype i = 0; i < parts.size(); ++i) {
            path = i == 0 ? parts[0] : path + Sep + parts[i];
            parent = nodeFor(path, parts[i], parent);
        }
        nodes[std::size_t(parent)].event = EventId(e);
        leavesOfPaths.insert(parts.back());
    }
    for (std::size_t e = 0; e < m_trial.eventCount(); ++e) {
        const IntervalEvent& event = m_trial.event(EventId(e));
        if (event.isCallPath())
            continue;
        const auto it = byPath.constFind(event.name);
        if (it != byPath.cend())
            nodes[std::size_t(it.value())].event = EventId(e);
        else if (!leavesOfPaths.contains(event.name))
            nodes[std::size_t(nodeFor(event.name, event.name, -1))].event = EventId(e);
    }
    // Sibling order: the least event id in the subtree.
    std::vector<std::uint32_t> order(nodes.size(), std::numeric_limits<std::uint32_t>::max());
    for (std::size_t i = nodes.size(); i-- > 0;) {
        if (nodes[i].event.isValid())
            order[i] = std::min(order[i], std::uint32_t(nodes[i].event.index()));
        if (nodes[i].parent >= 0) {
            auto& p = order[std::size_t(nodes[i].parent)];
            p = std::min(p, order[i]);
        }
    }
    // Children are created after their parents, so the reverse pass above saw every child first.
    std::vector<std::vector<int>> children(nodes.size());
    std::vector<int> roots;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        (nodes[i].parent < 0 ? roots : children[std::size_t(nodes[i].parent)]).push_back(int(i));
    auto byOrder = [&](int a, int b) { return order[std::size_t(a)] < order[std::size_t(b)]; };
    std::stable_sort(roots.begin(), roots.end(), byOrder);
    for (auto& c : children)
        std::stable_sort(c.begin(), c.end(), byOrder);
    // Pre-order numbering.
    std::vector<int> stack(roots.rbegin(), roots.rend());
    m_cnodes.reserve(nodes.size());
    std::vector<int> newIndex(nodes.size(), -1);
    while (!stack.empty()) {
        const int n = stack.back();
        stack.pop_back();
        newIndex[std::size_t(n)] = int(m_cnodes.size());
        Cnode c = nodes[std::size_t(n)];
        c.parent = c.parent >= 0 ? newIndex[std::size_t(c.parent)] : -1;
        c.position = int(m_cnodes.size());
        m_cnodes.push_back(c);
        const auto& kids = children[std::size_t(n)];
        for (auto it = kids.rbegin(); it != kids.rend(); ++it)
            stack.push_back(*it);
    }
    for (std::size_t i = 0; i < m_cnodes.size(); ++i) {
        if (m_cnodes[i].parent >= 0)
            m_cnodes[std::size_t(m_cnodes[i].parent)].children.push_back(int(i));
        else
            m_roots.push_back(int(i));
    }
    // Regions by leaf name; the paradigm is the event's first group of its own.
    QHash<QString, int> regionOf;
    for (Cnode& c : m_cnodes) {
        auto it = regionOf.constFind(c.leaf);
        if (it == regionOf.cend()) {
            it = regionOf.insert(c.leaf, int(m_regions.size()));
            m_regions.push_back(c.leaf);
            QString paradigm;
            EventId source = m_trial.findEvent(c.leaf);
            if (!source.isValid())
                source = c.event;
            if (source.isValid())
                for (const GroupId g : m_trial.event(source).groups) {
                    const QString& group = m_trial.groupName(g);
                    if (group != QLatin1String("TAU_CALLPATH") && group != QLatin1String("TAU_PARAM")) {
                        paradigm = group;
                        break;
                    }
                }
            m_regionParadigm.push_back(paradigm);
            m_regionLocation.push_back(
                source.isValid() ? sourceLocationOf(m_trial, source).value_or(SourceLocation()) : SourceLocation());
        }
        c.region = it.value();
    }
    // A root whose leaf also occurs deeper holds, as a flat event, the flat totals over all those cnodes
    // (docs/SEMANTICS.md 1.4; the CUBE reader's convention too): the root cnode gets the totals minus the
    // deeper cnodes (exclusive values and calls), minus the outermost deeper ones (inclusive values).
    {
        QHash<QString, int> rootOf;
        for (const int r : m_roots)
            rootOf.insert(m_cnodes[std::size_t(r)].leaf, r);
        std::vector<int> active(m_cnodes.size(), 0); // open cnodes with the leaf of root r, per root
        std::vector<int> path;
        for (std::size_t c = 0; c < m_cnodes.size(); ++c) {
            while (!path.empty() && path.back() != m_cnodes[c].parent) {
                const auto it = rootOf.constFind(m_cnodes[std::size_t(path.back())].leaf);
                if (it != rootOf.cend())
                    --active[std::size_t(it.value())];
                path.pop_back();
            }
            const auto it = rootOf.constFind(m_cnodes[c].leaf);
            if (it != rootOf.cend()) {
                const int r = it.value();
                if (int(c) != r && m_cnodes[c].event.isValid())
                    m_deeper[r].push_back({ int(c), active[std::size_t(r)] == 0 });
                ++active[std::size_t(r)];
            }
            path.push_back(int(c));
        }
    }
    // Where each cnode's cell is in each thread's row.
    m_cellAt.assign(m_cnodes.size(), std::vector<std::ptrdiff_t>(m_trial.threadCount(), -1));
    for (std::size_t c = 0; c < m_cnodes.size(); ++c)
        if (m_cnodes[c].event.isValid())
            for (std::size_t t = 0; t < m_trial.threadCount(); ++t)
                m_cellAt[c][t] = m_trial.row(ThreadIndex(t)).find(m_cnodes[c].event);
}

double Builder::cell(int cnode, std::size_t t, Stored what, std::size_t metric, bool additive) const
{
    double value = ownCell(cnode, t, what, metric);
    const auto it = additive ? m_deeper.find(cnode) : m_deeper.end();
    if (it != m_deeper.end())
        for (const auto& [deeper, outermost] : it->second)
            if (what != Stored::Incl || outermost)
                value -= ownCell(deeper, t, what, metric);
    return value;
}

double Builder::ownCell(int cnode, std::size_t t, Stored what, std::size_t metric) const
{
    const std::ptrdiff_t i = m_cellAt[std::size_t(cnode)][t];
    if (i < 0)
        return 0.0;
    const RowView row = m_trial.row(ThreadIndex(t));
    switch (what) {
    case Stored::Excl:
        return row.exclusive(metric, std::size_t(i));
    case Stored::Incl:
        return row.inclusive(metric, std::size_t(i));
    case Stored::Calls:
        return row.calls[std::size_t(i)];
    }
    return 0.0;
}

/// The stored values of thread t (incl for an INCLUSIVE metric, else excl) and the other values a reader
/// derives from them, in its order (cnodes from last to first, each added to or subtracted from its
/// parent), into `values` and `derived`.
void Builder::derive(
    std::size_t model, bool inclusive, std::size_t t, std::vector<double>& values, std::vector<double>& derived) const
{
    const std::size_t nC = m_cnodes.size();
    const Stored stored = inclusive ? Stored::Incl : Stored::Excl;
    values.resize(nC);
    derived.resize(nC);
    for (std::size_t c = 0; c < nC; ++c)
        values[c] = derived[c] = cell(int(c), t, stored, model);
    for (std::size_t c = nC; c-- > 0;) {
        const int p = m_cnodes[c].parent;
        if (p < 0)
            continue;
        if (inclusive)
            derived[std::size_t(p)] -= values[c];
        else
            derived[std::size_t(p)] += derived[c];
    }
}

/// Whether the reader, given the stored value, computes the other value of every present cell exactly.
bool Builder::consistent(std::size_t model, bool inclusive) const
{
    const Stored other = inclusive ? Stored::Excl : Stored::Incl;
    std::vector<double> values;
    std::vector<double> derived;
    for (std::size_t t = 0; t < m_trial.threadCount(); ++t) {
        derive(model, inclusive, t, values, derived);
        for (std::size_t c = 0; c < m_cnodes.size(); ++c)
            if (m_cellAt[c][t] >= 0) {
                const double want = cell(int(c), t, other, model);
                if (!(derived[c] == want || (std::isnan(derived[c]) && std::isnan(want))))
                    return false;
            }
    }
    return true;
}

bool Builder::fitsDType(std::size_t model, bool inclusive, const DType& dtype) const
{
    if (!dtype.integer)
        return true;
    std::vector<double> values;
    std::vector<double> derived;
    for (std::size_t t = 0; t < m_trial.threadCount(); ++t) {
        derive(model, inclusive, t, values, derived);
        for (std::size_t c = 0; c < m_cnodes.size(); ++c)
            if (!fits(dtype, values[c]) || !fits(dtype, derived[c]))
                return false;
    }
    return true;
}

void Builder::buildMetrics()
{
    QSet<QString> uniqs;
    auto uniqueName = [&](QString base) {
        if (base.isEmpty())
            base = QStringLiteral("metric");
        QString name = base;
        for (int n = 2; uniqs.contains(name); ++n)
            name = QStringLiteral("%1_%2").arg(base).arg(n);
        uniqs.insert(name);
        return name;
    };
    const QStringList nonAdditive = m_trial.metadataValue(QStringLiteral("CUBE non-additive metrics"))
                                        .split(QStringLiteral(", "), Qt::SkipEmptyParts);
    bool hasVisits = false;
    std::vector<OutMetric> others;
    for (std::size_t k = 0; k < m_trial.metricCount(); ++k) {
        const Metric& metric = m_trial.metric(MetricId(k));
        const MetricInfo info = parseMetricInfo(m_trial.metadataValue(QStringLiteral("CUBE metric ") + metric.name));
        OutMetric m;
        m.model = k;
        m.disp = metric.name;
        QString uniq = info.uniq;
        if (uniq.isEmpty()) {
            uniq = metric.name.toLower();
            for (QChar& ch : uniq)
                if (!ch.isLetterOrNumber())
                    ch = QLatin1Char('_');
        }
        m.uniq = uniqueName(uniq);
        m.parentName = info.parent;
        m.uom = !info.uom.isEmpty() && cube::unitOfUom(info.uom) == metric.unit ? info.uom : uomOfUnit(metric.unit);
        m.val = info.val;
        m.url = info.url;
        m.descr = info.descr;
        if (m.descr.isEmpty() && metric.derived)
            m.descr = QStringLiteral("derived in Parallax: %1").arg(metric.expression);
        m.nonAdditive = nonAdditive.contains(metric.name);
        const DType* dtype = findDType(info.dtype);
        if (m.nonAdditive) {
            const bool minimum = (dtype && QLatin1String(dtype->name) == QLatin1String("MINDOUBLE"))
                || (!dtype && metric.name.endsWith(QLatin1String("(min)")));
            m.dtype = QLatin1String(minimum ? "MINDOUBLE" : "MAXDOUBLE");
            m.type = info.type.isEmpty() ? QStringLiteral("EXCLUSIVE") : info.type;
            m.stored = Stored::Excl;
        } else {
            m.type = info.type == QLatin1String("EXCLUSIVE") || info.type == QLatin1String("SIMPLE")
                    || info.type == QLatin1String("INCLUSIVE")
                ? info.type
                : QStringLiteral("INCLUSIVE");
            const bool inclusive = m.type == QLatin1String("INCLUSIVE");
            m.stored = inclusive ? Stored::Incl : Stored::Excl;
            // The recorded dtype when every value, stored or derived by CubeLib, fits it; else DOUBLE.
            const bool ok = dtype && QLatin1String(dtype->name) != QLatin1String("MINDOUBLE")
                && QLatin1String(dtype->name) != QLatin1String("MAXDOUBLE") && fitsDType(k, inclusive, *dtype);
            m.dtype = ok ? QLatin1String(dtype->name) : QStringLiteral("DOUBLE");
            if (!consistent(k, inclusive)) {
                OutMetric o = m;
                o.otherOf = true;
                o.uniq = m.uniq + QLatin1String(CubeWriter::OtherValueSuffix);
                uniqs.insert(o.uniq);
                o.disp = m.disp + (inclusive ? QStringLiteral(" (exclusive)") : QStringLiteral(" (inclusive)"));
                o.type = inclusive ? QStringLiteral("EXCLUSIVE") : QStringLiteral("INCLUSIVE");
                o.stored = inclusive ? Stored::Excl : Stored::Incl;
                o.dtype = QStringLiteral("DOUBLE");
                o.parentName.clear();
                o.val.clear();
                o.descr = QStringLiteral("The %1 value of %2 as the source gave it (Parallax writes it where the call "
                                         "tree does not give it exactly)")
                              .arg(inclusive ? QStringLiteral("exclusive") : QStringLiteral("inclusive"), m.disp);
                others.push_back(o);
            }
        }
        if (m.uniq.compare(QLatin1String("visits"), Qt::CaseInsensitive) == 0
            || metric.name.compare(QLatin1String("visits"), Qt::CaseInsensitive) == 0)
            hasVisits = true;
        m_metrics.push_back(m);
    }
    bool anyCalls = false;
    for (std::size_t t = 0; t < m_trial.threadCount() && !anyCalls; ++t)
        for (const double calls : m_trial.row(ThreadIndex(t)).calls)
            anyCalls = anyCalls || calls != 0;
    if (!hasVisits && anyCalls && !m_cnodes.empty()) {
        OutMetric v;
        v.disp = QStringLiteral("Visits");
        v.uniq = uniqueName(QStringLiteral("visits"));
        v.type = QStringLiteral("EXCLUSIVE");
        v.uom = QStringLiteral("occ");
        v.stored = Stored::Calls;
        v.descr = QStringLiteral("Number of visits");
        const DType& u64 = *findDType(QStringLiteral("UINT64"));
        bool whole = true;
        for (std::size_t c = 0; whole && c < m_cnodes.size(); ++c)
            for (std::size_t t = 0; whole && t < m_trial.threadCount(); ++t)
                whole = fits(u64, cell(int(c), t, Stored::Calls, 0));
        v.dtype = whole ? QStringLiteral("UINT64") : QStringLiteral("DOUBLE");
        m_metrics.push_back(v); // after the trial's metrics: their order (and metric 0, the views' default) stays
    }
    for (auto& o : others)
        m_metrics.push_back(o);
    // The metric tree: parents by model name (a parent the trial does not have makes a root).
    QHash<QString, int> byName;
    for (std::size_t i = 0; i < m_metrics.size(); ++i)
        if (!m_metrics[i].otherOf)
            byName.insert(m_metrics[i].disp, int(i));
    for (std::size_t i = 0; i < m_metrics.size(); ++i) {
        const int p = m_metrics[i].parentName.isEmpty() ? -1 : byName.value(m_metrics[i].parentName, -1);
        if (p >= 0 && std::size_t(p) < i) {
            m_metrics[i].parent = p;
            m_metrics[std::size_t(p)].children.push_back(int(i));
        } else {
            m_metricRoots.push_back(int(i));
        }
    }
    // Ids in pre-order, so the reader's metric order is this one.
    int next = 0;
    std::vector<int> stack(m_metricRoots.rbegin(), m_metricRoots.rend());
    while (!stack.empty()) {
        const int k = stack.back();
        stack.pop_back();
        m_metrics[std::size_t(k)].id = next++;
        const auto& kids = m_metrics[std::size_t(k)].children;
        for (auto it = kids.rbegin(); it != kids.rend(); ++it)
            stack.push_back(*it);
    }
}

/// Row order of a metric's values (docs/FORMATS.md 5.3): pre-order (= cnode ids) for EXCLUSIVE and
/// SIMPLE, the sibling-block order for INCLUSIVE.
std::vector<int> Builder::enumeration(bool inclusive) const
{
    std::vector<int> order;
    order.reserve(m_cnodes.size());
    if (!inclusive) {
        order.resize(m_cnodes.size());
        std::iota(order.begin(), order.end(), 0);
        return order;
    }
    for (const int r : m_roots) {
        order.push_back(r);
        for (const int child : m_cnodes[std::size_t(r)].children)
            order.push_back(child);
        std::vector<std::pair<int, std::size_t>> stack { { r, 0 } };
        while (!stack.empty()) {
            auto& [node, nextChild] = stack.back();
            const auto& children = m_cnodes[std::size_t(node)].children;
            if (nextChild >= children.size()) {
                stack.pop_back();
                continue;
            }
            const int child = children[nextChild++];
            for (const int grandchild : m_cnodes[std::size_t(child)].children)
                order.push_back(grandchild);
            stack.emplace_back(child, 0);
        }
    }
    return order;
}

std::pair<QByteArray, QByteArray> Builder::data(const OutMetric& m) const
{
    if (m.val.compare(QLatin1String("VOID"), Qt::CaseInsensitive) == 0)
        return {};
    const DType& dtype = *findDType(m.dtype);
    const std::size_t nT = m_trial.threadCount();
    std::vector<quint32> rows;
    QByteArray values("CUBEX.DATA");
    const std::vector<int> order = enumeration(m.type == QLatin1String("INCLUSIVE"));
    std::vector<double> row(nT);
    for (std::size_t r = 0; r < order.size(); ++r) {
        bool any = false;
        for (std::size_t t = 0; t < nT; ++t) {
            row[t] = cell(order[r], t, m.stored, m.model, !m.nonAdditive);
            any = any || row[t] != 0;
        }
        if (!any)
            continue;
        rows.push_back(quint32(r));
        for (std::size_t t = 0; t < nT; ++t)
            appendValue(values, dtype, row[t]);
    }
    if (rows.empty())
        return {};
    QByteArray index("CUBEX.INDEX");
    const quint32 one = 1;
    const quint16 version = 0;
    const char sparse = 1;
    const auto n = quint32(rows.size());
    index.append(reinterpret_cast<const char*>(&one), 4);
    index.append(reinterpret_cast<const char*>(&version), 2);
    index.append(sparse);
    index.append(reinterpret_cast<const char*>(&n), 4);
    index.append(reinterpret_cast<const char*>(rows.data()), qsizetype(rows.size()) * 4);
    return { index, values };
}

void textElement(QXmlStreamWriter& xml, const char* name, const QString& text)
{
    xml.writeTextElement(QLatin1String(name), text);
}

/// Ends the open start tag with ">", so that the element is never written as <name/>: CubeLib's
/// anchor.xml scanner (a lexer of fixed tokens, not an XML parser) takes the empty-element form only
/// for <attr/>, <dim/> and <parameter/>.
void closeStartTag(QXmlStreamWriter& xml) { xml.writeCharacters(QString()); }

void Builder::writeMetric(QXmlStreamWriter& xml, int k) const
{
    const OutMetric& m = m_metrics[std::size_t(k)];
    xml.writeStartElement(QStringLiteral("metric"));
    xml.writeAttribute(QStringLiteral("id"), QString::number(m.id));
    xml.writeAttribute(QStringLiteral("type"), m.type);
    textElement(xml, "disp_name", m.disp);
    textElement(xml, "uniq_name", m.uniq);
    textElement(xml, "dtype", m.dtype);
    textElement(xml, "uom", m.uom);
    if (!m.val.isEmpty())
        textElement(xml, "val", m.val);
    textElement(xml, "url", m.url);
    textElement(xml, "descr", m.descr);
    for (const int child : m.children)
        writeMetric(xml, child);
    xml.writeEndElement();
}

void Builder::writeCnode(QXmlStreamWriter& xml, int root) const
{
    // Iterative: call trees can be deeper than the stack allows recursion.
    std::vector<std::pair<int, std::size_t>> stack { { root, 0 } };
    auto open = [&](int c) {
        xml.writeStartElement(QStringLiteral("cnode"));
        xml.writeAttribute(QStringLiteral("id"), QString::number(c));
        xml.writeAttribute(QStringLiteral("calleeId"), QString::number(m_cnodes[std::size_t(c)].region));
        if (m_cnodes[std::size_t(c)].children.empty())
            closeStartTag(xml); // a leaf is <cnode ...></cnode>: CubeLib's parser takes no <cnode/>
    };
    open(root);
    while (!stack.empty()) {
        auto& [c, next] = stack.back();
        const auto& children = m_cnodes[std::size_t(c)].children;
        if (next >= children.size()) {
            xml.writeEndElement();
            stack.pop_back();
            continue;
        }
        const int child = children[next++];
        open(child);
        stack.emplace_back(child, 0);
    }
}

void Builder::writeSystem(QXmlStreamWriter& xml) const
{
    // System tree nodes by (parent, class, name); location groups by (node, name, rank, type).
    struct SysNode {
        QString cls, name;
        std::vector<int> children;
        std::vector<int> groups;
    };
    struct Group {
        QString name, type;
        int rank = 0;
        std::vector<std::size_t> locations;
    };
    std::vector<SysNode> nodes;
    std::vector<int> roots;
    std::map<std::tuple<int, QString, QString>, int> nodeIndex;
    std::vector<Group> groups;
    std::map<std::tuple<int, QString, int, QString>, int> groupIndex;
    const QString machine = m_trial.name().isEmpty() ? QStringLiteral("machine") : m_trial.name();
    for (std::size_t t = 0; t < m_trial.threadCount(); ++t) {
        const ThreadIndex ti(t);
        const ThreadKey& key = m_trial.threadKey(ti);
        std::vector<std::pair<QString, QString>> chain;
        const QString path = m_trial.metadataValue(QStringLiteral("CUBE system path"), ti);
        if (!path.isEmpty()) {
            for (const QString& part : path.split(QStringLiteral(" | "))) {
                const qsizetype colon = part.indexOf(QLatin1String(": "));
                chain.emplace_back(
                    colon < 0 ? QStringLiteral("node") : part.left(colon), colon < 0 ? part : part.mid(colon + 2));
            }
        } else {
            chain.emplace_back(QStringLiteral("machine"), machine);
            const QString host = m_trial.metadataValue(QStringLiteral("Hostname"), ti);
            if (!host.isEmpty())
                chain.emplace_back(QStringLiteral("node"), host);
        }
        int parent = -1;
        for (const auto& [cls, name] : chain) {
            const auto k = std::make_tuple(parent, cls, name);
            auto it = nodeIndex.find(k);
            if (it == nodeIndex.end()) {
                nodes.push_back({ cls, name, {}, {} });
                const int id = int(nodes.size()) - 1;
                (parent < 0 ? roots : nodes[std::size_t(parent)].children).push_back(id);
                it = nodeIndex.emplace(k, id).first;
            }
            parent = it->second;
        }
        QString groupName = m_trial.metadataValue(QStringLiteral("CUBE process"), ti);
        if (groupName.isNull() && !m_fromCube)
            groupName = QStringLiteral("rank %1").arg(key.node);
        QString groupType = m_trial.metadataValue(QStringLiteral("CUBE location group type"), ti);
        if (groupType.isEmpty())
            groupType = QStringLiteral("process");
        const auto gk = std::make_tuple(parent, groupName, key.node, groupType);
        auto git = groupIndex.find(gk);
        if (git == groupIndex.end()) {
            groups.push_back({ groupName, groupType, key.node, {} });
            git = groupIndex.emplace(gk, int(groups.size()) - 1).first;
            nodes[std::size_t(parent)].groups.push_back(git->second);
        }
        groups[std::size_t(git->second)].locations.push_back(t);
    }
    std::function<void(int)> writeNode = [&](int n) {
        const SysNode& node = nodes[std::size_t(n)];
        xml.writeStartElement(QStringLiteral("systemtreenode"));
        xml.writeAttribute(QStringLiteral("Id"), QString::number(n));
        textElement(xml, "name", node.name);
        textElement(xml, "class", node.cls);
        for (const int g : node.groups) {
            const Group& group = groups[std::size_t(g)];
            xml.writeStartElement(QStringLiteral("locationgroup"));
            xml.writeAttribute(QStringLiteral("Id"), QString::number(g));
            textElement(xml, "name", group.name);
            textElement(xml, "rank", QString::number(group.rank));
            textElement(xml, "type", group.type);
            for (const std::size_t t : group.locations) {
                const ThreadIndex ti(t);
                const ThreadKey& key = m_trial.threadKey(ti);
                QString name = m_trial.metadataValue(QStringLiteral("CUBE thread"), ti);
                if (name.isNull() && !m_fromCube)
                    name = key.context == 0 ? QStringLiteral("thread %1").arg(key.thread)
                                            : QStringLiteral("context %1 thread %2").arg(key.context).arg(key.thread);
                QString type = m_trial.metadataValue(QStringLiteral("CUBE location type"), ti);
                if (type.isEmpty())
                    type = QStringLiteral("thread");
                xml.writeStartElement(QStringLiteral("location"));
                xml.writeAttribute(QStringLiteral("Id"), QString::number(t));
                textElement(xml, "name", name);
                textElement(xml, "rank", QString::number(key.thread));
                textElement(xml, "type", type);
                xml.writeEndElement();
            }
            xml.writeEndElement();
        }
        for (const int child : node.children)
            writeNode(child);
        xml.writeEndElement();
    };
    xml.writeStartElement(QStringLiteral("system"));
    for (const int r : roots)
        writeNode(r);
    writeTopologies(xml);
    xml.writeEndElement();
}

void Builder::writeTopologies(QXmlStreamWriter& xml) const
{
    // The carts the reader kept (docs/FORMATS.md 5.3): "CUBE topology K" (JSON: name, dims) and per
    // location "CUBE coordinates K"; location Ids are thread indices here.
    bool open = false;
    for (int k = 0;; ++k) {
        const QString json = m_trial.metadataValue(QStringLiteral("CUBE topology %1").arg(k));
        if (json.isNull())
            break;
        const QJsonObject cart = QJsonDocument::fromJson(json.toUtf8()).object();
        const QJsonArray dims = cart.value(QStringLiteral("dims")).toArray();
        if (dims.isEmpty())
            continue;
        if (!open) {
            xml.writeStartElement(QStringLiteral("topologies"));
            open = true;
        }
        xml.writeStartElement(QStringLiteral("cart"));
        if (const QString name = cart.value(QStringLiteral("name")).toString(); !name.isEmpty())
            xml.writeAttribute(QStringLiteral("name"), name);
        xml.writeAttribute(QStringLiteral("ndims"), QString::number(dims.size()));
        for (const auto& d : dims) {
            const QJsonObject dim = d.toObject();
            xml.writeStartElement(QStringLiteral("dim"));
            if (const QString name = dim.value(QStringLiteral("name")).toString(); !name.isEmpty())
                xml.writeAttribute(QStringLiteral("name"), name);
            xml.writeAttribute(QStringLiteral("size"), QString::number(dim.value(QStringLiteral("size")).toInteger()));
            xml.writeAttribute(QStringLiteral("periodic"),
                dim.value(QStringLiteral("periodic")).toBool() ? QStringLiteral("true") : QStringLiteral("false"));
            xml.writeEndElement();
        }
        const QString key = QStringLiteral("CUBE coordinates %1").arg(k);
        for (std::size_t t = 0; t < m_trial.threadCount(); ++t) {
            const QString coords = m_trial.metadataValue(key, ThreadIndex(t));
            if (coords.isEmpty())
                continue;
            xml.writeStartElement(QStringLiteral("coord"));
            xml.writeAttribute(QStringLiteral("locId"), QString::number(t));
            xml.writeCharacters(coords);
            xml.writeEndElement();
        }
        xml.writeEndElement();
    }
    if (open)
        xml.writeEndElement();
}

/// Metadata the CUBE reader makes of the file's structure (docs/FORMATS.md 5.3): not written as <attr>s.
bool Builder::isReaderKey(const QString& key) const
{
    static const QSet<QString> exact { QStringLiteral("CUBE format version"), QStringLiteral("CUBE mirrors"),
        QStringLiteral("CUBE regions"), QStringLiteral("CUBE cnodes"), QStringLiteral("CUBE topologies"),
        QStringLiteral("CUBE non-additive metrics"), QStringLiteral("CUBE misc members"),
        QStringLiteral("CUBE system path"), QStringLiteral("CUBE process"), QStringLiteral("CUBE thread"),
        QStringLiteral("CUBE location type"), QStringLiteral("CUBE location group type") };
    return exact.contains(key) || key.startsWith(QLatin1String("CUBE metric "))
        || key.startsWith(QLatin1String("CUBE topology ")) || key.startsWith(QLatin1String("CUBE coordinates "))
        || key.startsWith(QLatin1String("CUBE misc ")) || m_systemClassKeys.contains(key);
}

QByteArray Builder::anchor() const
{
    QByteArray out;
    QXmlStreamWriter xml(&out);
    xml.setAutoFormatting(true);
    xml.setAutoFormattingIndent(0);
    xml.writeStartDocument();
    xml.writeStartElement(QStringLiteral("cube"));
    xml.writeAttribute(QStringLiteral("version"), QStringLiteral("4.4"));
    const StringPool& strings = m_trial.strings();
    bool aggregation = false;
    for (const MetadataEntry& e : m_trial.metadata()) {
        const QString& key = strings.get(e.key);
        if (isReaderKey(key))
            continue;
        aggregation = aggregation || key == QLatin1String("CUBE_CT_AGGR");
        xml.writeEmptyElement(QStringLiteral("attr"));
        xml.writeAttribute(QStringLiteral("key"), key);
        xml.writeAttribute(QStringLiteral("value"), strings.get(e.value));
    }
    if (!aggregation) {
        xml.writeEmptyElement(QStringLiteral("attr"));
        xml.writeAttribute(QStringLiteral("key"), QStringLiteral("CUBE_CT_AGGR"));
        xml.writeAttribute(QStringLiteral("value"), QStringLiteral("SUM"));
    }
    const QString mirrors = m_trial.metadataValue(QStringLiteral("CUBE mirrors"));
    xml.writeStartElement(QStringLiteral("doc"));
    xml.writeStartElement(QStringLiteral("mirrors"));
    closeStartTag(xml); // <mirrors></mirrors> when there are none: CubeLib's parser takes no <mirrors/>
    for (const QString& murl : mirrors.split(QStringLiteral("; "), Qt::SkipEmptyParts))
        textElement(xml, "murl", murl);
    xml.writeEndElement();
    xml.writeEndElement();
    xml.writeStartElement(QStringLiteral("metrics"));
    for (const int r : m_metricRoots)
        writeMetric(xml, r);
    xml.writeEndElement();
    xml.writeStartElement(QStringLiteral("program"));
    for (std::size_t r = 0; r < m_regions.size(); ++r) {
        xml.writeStartElement(QStringLiteral("region"));
        xml.writeAttribute(QStringLiteral("id"), QString::number(r));
        const SourceLocation& location = m_regionLocation[r];
        xml.writeAttribute(QStringLiteral("mod"), location.file);
        xml.writeAttribute(QStringLiteral("begin"), QString::number(location.beginLine > 0 ? location.beginLine : -1));
        xml.writeAttribute(QStringLiteral("end"), QString::number(location.endLine > 0 ? location.endLine : -1));
        textElement(xml, "name", m_regions[r]);
        textElement(xml, "mangled_name", m_regions[r]);
        textElement(xml, "paradigm", m_regionParadigm[r]);
        textElement(xml, "role", QStringLiteral("function"));
        textElement(xml, "url", QString());
        textElement(xml, "descr", QString());
        xml.writeEndElement();
    }
    for (const int r : m_roots)
        writeCnode(xml, r);
    xml.writeEndElement();
    writeSystem(xml);
    xml.writeEndElement();
    xml.writeEndDocument();
    return out;
}

/// libarchive's output callback: into the QSaveFile.
la_ssize_t toSaveFile(struct archive*, void* client, const void* buffer, size_t length)
{
    auto* file = static_cast<QSaveFile*>(client);
    const qint64 n = file->write(static_cast<const char*>(buffer), qint64(length));
    return n == qint64(length) ? la_ssize_t(n) : -1;
}

} // namespace

QString CubeWriter::write(const Trial& trial, const QString& path)
{
    if (trial.metricCount() == 0)
        return QStringLiteral("%1: the trial has no metric to write").arg(path);
    Builder builder(trial);
    builder.run();
    const std::time_t now = std::time(nullptr);
    return writeSaved(path, [&](QSaveFile& file) {
        std::unique_ptr<struct archive, int (*)(struct archive*)> a(archive_write_new(), archive_write_free);
        if (!a)
            throw WriteFailure { QStringLiteral("libarchive: out of memory") };
        auto check = [&](int status, const char* what) {
            if (status < ARCHIVE_WARN)
                throw WriteFailure { QStringLiteral("%1: %2").arg(
                    QLatin1String(what), QString::fromUtf8(archive_error_string(a.get()))) };
        };
        check(archive_write_set_format_pax_restricted(a.get()), "tar format");
        check(archive_write_open(a.get(), &file, nullptr, &toSaveFile, nullptr), "open");
        auto member = [&](const QString& name, const QByteArray& bytes) {
            std::unique_ptr<struct archive_entry, void (*)(struct archive_entry*)> entry(
                archive_entry_new(), archive_entry_free);
            archive_entry_set_pathname_utf8(entry.get(), name.toUtf8().constData());
            archive_entry_set_size(entry.get(), bytes.size());
            archive_entry_set_filetype(entry.get(), AE_IFREG);
            archive_entry_set_perm(entry.get(), 0644);
            archive_entry_set_mtime(entry.get(), now, 0);
            check(archive_write_header(a.get(), entry.get()), "member header");
            if (archive_write_data(a.get(), bytes.constData(), std::size_t(bytes.size())) != bytes.size())
                throw WriteFailure {
                    QStringLiteral("writing member %1: %2").arg(name, QString::fromUtf8(archive_error_string(a.get())))
                };
        };
        member(QStringLiteral("anchor.xml"), builder.anchor());
        for (const OutMetric& m : builder.metrics()) {
            const auto [index, data] = builder.data(m);
            if (index.isEmpty())
                continue;
            member(QStringLiteral("%1.index").arg(m.id), index);
            member(QStringLiteral("%1.data").arg(m.id), data);
        }
        const StringPool& strings = trial.strings();
        for (const MetadataEntry& e : trial.metadata()) {
            const QString& key = strings.get(e.key);
            if (key.startsWith(QLatin1String("CUBE misc ")) && key != QLatin1String("CUBE misc members"))
                member(key.mid(10), strings.get(e.value).toUtf8());
        }
        check(archive_write_close(a.get()), "close");
    });
}

} // namespace parallax
