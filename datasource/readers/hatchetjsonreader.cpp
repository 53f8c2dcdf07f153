// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Hatchet JSON reader: the GraphFrame JSON of GraphFrame.to_json() and Hatchet's literal form.
//
// GraphFrame JSON: {"graph": [{"<id>": {"data": {"name", "type", ...}, "children": [ids]}, ...},
// ...], "dataframe": [{"node": id, "name", <metric columns>, maybe "rank"/"thread"}, ...],
// "dataframe_indices": ["node", ...], "exclusive_metrics": [...], "inclusive_metrics": [...]}.
// Literal: [{"frame": {"name", "type"}, "metrics": {"time (inc)": x, "time": y}, "children":
// [...]}, ...].
//
// What the model gets
// -------------------
// * Call tree: graph nodes (or literal frames) named by data.name / frame.name. Roots are the
//   graph nodes that are nobody's child, in id order. A node reached a second time (Hatchet graphs
//   may be DAGs) is kept under its first parent only, with a warning, so nothing is counted twice.
//   Sibling nodes with the same name stay separate events; the later ones are named
//   "name [node <id>]" (literal: "name [frame <k>]"). Call paths and flat events follow
//   CallTreeEvents (flat inclusive over the outermost nodes).
// * Metrics: an inclusive metric "X (inc)" and an exclusive metric "X" are one model metric "X"
//   (Hatchet's naming). A lone exclusive metric gets its inclusive values from the tree (excl plus
//   the children's incl); a lone inclusive metric "X (inc)" becomes "X" with excl = incl minus the
//   children's incl. Without the metric lists (or in the literal form), numeric columns other than
//   node/rank/thread/nid are metrics, "... (inc)" inclusive. Units are unknown ("").
// * Threads: the dataframe's "rank" and "thread" columns give ThreadKey(rank, 0, thread); without
//   them there is one thread (0, 0, 0). A node is present on a thread when the dataframe has a row
//   for it or for one of its descendants (then with zeros of its own); two rows for one node and thread are summed
//   (warning). Rows naming no graph node are reported in a warning.
// * Calls and subrs are 0 (a GraphFrame has no call counts unless a metric holds them; such a
//   metric stays an ordinary metric).
// * Metadata: "Hatchet form" (graphframe or literal), "Hatchet dataframe_indices", "Hatchet
//   exclusive_metrics", "Hatchet inclusive_metrics", "Hatchet graph nodes".
// Errors name the file, the line of the first occurrence of the offending key and the JSON path.

#include "datasource/readers/hatchetjsonreader.h"

#include "datasource/model/trialbuilder.h"
#include "datasource/readers/calltreeevents.h"
#include "datasource/readers/jsoninput.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <map>

namespace parallax {

namespace {

QStringList stringList(const QJsonValue& v)
{
    QStringList out;
    for (const QJsonValue x : v.toArray())
        if (x.isString())
            out << x.toString();
    return out;
}

/// Exclusive/inclusive column pairs -> model metrics.
struct MetricColumns {
    QString name;
    QString exclColumn; // empty: derived
    QString inclColumn; // empty: derived
};

std::vector<MetricColumns> pairColumns(const QStringList& exclusive, const QStringList& inclusive)
{
    std::vector<MetricColumns> out;
    QStringList incl = inclusive;
    for (const QString& e : exclusive) {
        MetricColumns m { e, e, {} };
        const QString partner = e + QStringLiteral(" (inc)");
        if (incl.removeOne(partner))
            m.inclColumn = partner;
        out.push_back(m);
    }
    for (const QString& i : incl) {
        QString base = i;
        if (base.endsWith(QLatin1String(" (inc)")))
            base.chop(6);
        out.push_back({ base, {}, i });
    }
    return out;
}

class Assembler {
public:
    Assembler(TrialBuilder& builder, QStringList& warnings, Progress& progress)
        : m_builder(builder)
        , m_warnings(warnings)
        , m_progress(progress)
    {
    }

    CallTreeEvents& tree() { return m_tree; }

    /// Values of one dataframe row (or literal frame) for a model node on a thread.
    void add(const ThreadKey& key, std::size_t node, const QJsonObject& row)
    {
        auto [it, added] = m_threadIndex.emplace(key, m_threadKeys.size());
        if (added) {
            m_threadKeys.push_back(key);
            m_values.emplace_back();
        }
        auto& values = m_values[it->second];
        auto& cell = values[node];
        if (cell.present)
            ++m_duplicates;
        cell.present = true;
        cell.excl.resize(m_metrics.size(), 0.0);
        cell.incl.resize(m_metrics.size(), 0.0);
        for (std::size_t m = 0; m < m_metrics.size(); ++m) {
            if (!m_metrics[m].exclColumn.isEmpty())
                cell.excl[m] += row.value(m_metrics[m].exclColumn).toDouble();
            if (!m_metrics[m].inclColumn.isEmpty())
                cell.incl[m] += row.value(m_metrics[m].inclColumn).toDouble();
        }
    }

    void setMetrics(std::vector<MetricColumns> metrics) { m_metrics = std::move(metrics); }

    void finish()
    {
        const std::size_t M = m_metrics.size();
        m_tree.setMetricCount(M);
        for (const MetricColumns& m : m_metrics)
            m_builder.addMetric(Metric(m.name, QString()));
        if (m_threadKeys.empty()) {
            m_threadKeys.push_back(ThreadKey {});
            m_values.emplace_back();
        }
        std::vector<ThreadIndex> threads;
        for (const ThreadKey& k : m_threadKeys)
            threads.push_back(m_builder.addThread(k));
        QString error;
        if (!m_tree.createEvents(m_builder, m_warnings, error))
            throw ParseError::at(0, error);
        std::vector<IntervalRow> rows(m_threadKeys.size());
        CallTreeEvents::ThreadValues values;
        for (std::size_t t = 0; t < m_threadKeys.size(); ++t) {
            if (m_progress.isCancelled())
                throw Cancelled {};
            values.reset(m_tree.nodeCount(), M);
            for (const auto& [node, cell] : m_values[t]) {
                values.present[node] = 1;
                for (std::size_t m = 0; m < M; ++m) {
                    values.excl[node * M + m] = cell.excl[m];
                    values.incl[node * M + m] = cell.incl[m];
                }
            }
            // A node whose descendant has a row ran too (with nothing of its own).
            for (std::size_t n = m_tree.nodeCount(); n-- > 0;)
                if (values.present[n] && m_tree.parent(n) != CallTreeEvents::NoParent)
                    values.present[m_tree.parent(n)] = 1;
            // Derive the missing side per metric.
            for (std::size_t m = 0; m < M; ++m) {
                if (!m_metrics[m].exclColumn.isEmpty() && !m_metrics[m].inclColumn.isEmpty())
                    continue;
                CallTreeEvents::ThreadValues one;
                one.reset(m_tree.nodeCount(), 1);
                for (std::size_t n = 0; n < m_tree.nodeCount(); ++n) {
                    one.excl[n] = values.excl[n * M + m];
                    one.incl[n] = values.incl[n * M + m];
                }
                if (m_metrics[m].inclColumn.isEmpty())
                    deriveInclusive(one);
                else
                    deriveExclusive(one);
                for (std::size_t n = 0; n < m_tree.nodeCount(); ++n) {
                    values.excl[n * M + m] = one.excl[n];
                    values.incl[n * M + m] = one.incl[n];
                }
            }
            rows[threads[t].index()] = m_tree.makeRow(values);
        }
        m_builder.setIntervalRows(std::move(rows));
        if (m_duplicates > 0)
            m_warnings << QStringLiteral("%1 dataframe row(s) repeat a node and thread of an earlier row; their values "
                                         "were summed")
                              .arg(m_duplicates);
    }

private:
    struct Cell {
        bool present = false;
        std::vector<double> excl, incl;
    };

    void deriveInclusive(CallTreeEvents::ThreadValues& v) const
    {
        const std::size_t n = m_tree.nodeCount();
        for (std::size_t i = 0; i < n; ++i)
            v.incl[i] = v.excl[i];
        for (std::size_t i = n; i-- > 0;)
            if (m_tree.parent(i) != CallTreeEvents::NoParent)
                v.incl[m_tree.parent(i)] += v.incl[i];
    }

    void deriveExclusive(CallTreeEvents::ThreadValues& v) const
    {
        const std::size_t n = m_tree.nodeCount();
        for (std::size_t i = 0; i < n; ++i)
            v.excl[i] = v.incl[i];
        for (std::size_t i = 0; i < n; ++i)
            if (m_tree.parent(i) != CallTreeEvents::NoParent)
                v.excl[m_tree.parent(i)] -= v.incl[i];
    }

    TrialBuilder& m_builder;
    QStringList& m_warnings;
    Progress& m_progress;
    CallTreeEvents m_tree { 0 };
    std::vector<MetricColumns> m_metrics;
    std::map<ThreadKey, std::size_t> m_threadIndex;
    std::vector<ThreadKey> m_threadKeys;
    std::vector<std::map<std::size_t, Cell>> m_values;
    std::size_t m_duplicates = 0;
};

bool isReserved(const QString& column)
{
    return column == QLatin1String("node") || column == QLatin1String("rank") || column == QLatin1String("thread")
        || column == QLatin1String("nid");
}

void readGraphFrame(
    const QJsonObject& top, const QByteArray& text, TrialBuilder& builder, QStringList& warnings, Progress& progress)
{
    const QJsonValue graph = top.value(QLatin1String("graph"));
    const QJsonValue frame = top.value(QLatin1String("dataframe"));
    if (!graph.isArray())
        throw ParseError::at(JsonInput::offsetOfKey(text, "graph"),
            QStringLiteral("expected \"graph\" to be an array of "
                           "{\"<id>\": {\"data\", \"children\"}} objects"));
    if (!frame.isArray())
        throw ParseError::at(JsonInput::offsetOfKey(text, "dataframe"),
            QStringLiteral("expected \"dataframe\" to be an "
                           "array of row objects"));
    // All graph nodes by id.
    struct GraphNode {
        QString name;
        std::vector<qint64> children;
    };
    std::map<qint64, GraphNode> nodes;
    std::map<qint64, int> parents;
    const QJsonArray parts = graph.toArray();
    for (qsizetype p = 0; p < parts.size(); ++p) {
        if (!parts[p].isObject())
            throw ParseError::at(
                JsonInput::offsetOfKey(text, "graph"), QStringLiteral("graph[%1]: expected an object").arg(p));
        const QJsonObject part = parts[p].toObject();
        for (auto it = part.constBegin(); it != part.constEnd(); ++it) {
            bool ok = false;
            const qint64 id = it.key().toLongLong(&ok);
            const QJsonObject body = it.value().toObject();
            if (!ok || !it.value().isObject())
                throw ParseError::at(JsonInput::offsetOfKey(text, it.key().toUtf8()),
                    QStringLiteral("graph[%1].\"%2\": expected a numeric node id with a {\"data\", \"children\"} "
                                   "object")
                        .arg(p)
                        .arg(it.key()));
            if (nodes.count(id))
                throw ParseError::at(JsonInput::offsetOfKey(text, it.key().toUtf8()),
                    QStringLiteral("graph node %1 is defined twice").arg(id));
            GraphNode node;
            const QJsonValue name = body.value(QLatin1String("data")).toObject().value(QLatin1String("name"));
            node.name = name.isString() ? name.toString()
                : name.isDouble()       ? QString::number(name.toDouble())
                                        : QString();
            for (const QJsonValue c : body.value(QLatin1String("children")).toArray()) {
                if (!c.isDouble() && !c.isString())
                    throw ParseError::at(JsonInput::offsetOfKey(text, it.key().toUtf8()),
                        QStringLiteral("graph node %1: expected children to be node ids").arg(id));
                const qint64 child = c.isDouble() ? c.toInteger() : c.toString().toLongLong();
                node.children.push_back(child);
                ++parents[child];
            }
            nodes.emplace(id, std::move(node));
        }
    }
    Assembler assembler(builder, warnings, progress);
    std::map<qint64, std::size_t> modelOf;
    std::size_t revisits = 0, dangling = 0;
    for (const auto& [rootId, rootNode] : nodes) {
        if (parents.count(rootId))
            continue;
        std::vector<std::pair<qint64, std::size_t>> stack { { rootId, CallTreeEvents::NoParent } };
        while (!stack.empty()) {
            const auto [id, parent] = stack.back();
            stack.pop_back();
            const auto it = nodes.find(id);
            if (it == nodes.end()) {
                ++dangling;
                continue;
            }
            if (modelOf.count(id)) {
                ++revisits;
                continue;
            }
            const std::size_t model
                = assembler.tree().addNode(parent, it->second.name, QStringLiteral("node %1").arg(id));
            modelOf.emplace(id, model);
            for (auto c = it->second.children.rbegin(); c != it->second.children.rend(); ++c)
                stack.emplace_back(*c, model);
        }
    }
    // Nodes only reachable through a cycle.
    std::size_t unreachable = nodes.size() - modelOf.size();
    if (revisits > 0)
        warnings << QStringLiteral("%1 graph edge(s) lead to a node already placed under another parent (a DAG or a "
                                   "cycle); the node was kept under its first parent only")
                        .arg(revisits);
    if (dangling > 0)
        warnings << QStringLiteral("%1 graph edge(s) name a node that is not defined").arg(dangling);
    if (unreachable > 0)
        warnings
            << QStringLiteral("%1 graph node(s) are only reachable through a cycle and were not read").arg(unreachable);

    // Metrics.
    const QJsonArray rows = frame.toArray();
    QStringList exclusive = stringList(top.value(QLatin1String("exclusive_metrics")));
    QStringList inclusive = stringList(top.value(QLatin1String("inclusive_metrics")));
    if (exclusive.isEmpty() && inclusive.isEmpty()) {
        QStringList seen;
        for (const QJsonValue r : rows) {
            const QJsonObject row = r.toObject(); // one object: iterators of two temporaries never meet
            for (auto it = row.constBegin(); it != row.constEnd(); ++it)
                if (it.value().isDouble() && !isReserved(it.key()) && !seen.contains(it.key()))
                    seen << it.key();
        }
        for (const QString& c : seen)
            (c.endsWith(QLatin1String(" (inc)")) ? inclusive : exclusive) << c;
    }
    assembler.setMetrics(pairColumns(exclusive, inclusive));
    std::size_t orphans = 0;
    for (qsizetype r = 0; r < rows.size(); ++r) {
        if (!rows[r].isObject())
            throw ParseError::at(JsonInput::offsetOfKey(text, "dataframe"),
                QStringLiteral("dataframe[%1]: expected a row object").arg(r));
        const QJsonObject row = rows[r].toObject();
        const QJsonValue nodeValue = row.value(QLatin1String("node"));
        if (!nodeValue.isDouble() && !nodeValue.isString())
            throw ParseError::at(
                JsonInput::offsetOfKey(text, "node"), QStringLiteral("dataframe[%1]: expected a \"node\" id").arg(r));
        const qint64 id = nodeValue.isDouble() ? nodeValue.toInteger() : nodeValue.toString().toLongLong();
        const auto it = modelOf.find(id);
        if (it == modelOf.end()) {
            ++orphans;
            continue;
        }
        auto intOf = [&](const char* column) {
            const double v = row.value(QLatin1String(column)).toDouble();
            return v >= 0 && v <= INT32_MAX ? static_cast<int>(v) : 0;
        };
        assembler.add(ThreadKey { intOf("rank"), 0, intOf("thread") }, it->second, row);
    }
    if (orphans > 0)
        warnings << QStringLiteral("%1 dataframe row(s) name a node that is not in the graph; they were not read")
                        .arg(orphans);
    assembler.finish();
    builder.addMetadata(QStringLiteral("Hatchet form"), QStringLiteral("graphframe"));
    builder.addMetadata(QStringLiteral("Hatchet graph nodes"), QString::number(nodes.size()));
    builder.addMetadata(QStringLiteral("Hatchet dataframe rows"), QString::number(rows.size()));
    builder.addMetadata(QStringLiteral("Hatchet dataframe_indices"),
        stringList(top.value(QLatin1String("dataframe_indices"))).join(QStringLiteral(", ")));
    builder.addMetadata(QStringLiteral("Hatchet exclusive_metrics"), exclusive.join(QStringLiteral(", ")));
    builder.addMetadata(QStringLiteral("Hatchet inclusive_metrics"), inclusive.join(QStringLiteral(", ")));
}

void readLiteral(
    const QJsonArray& roots, const QByteArray& text, TrialBuilder& builder, QStringList& warnings, Progress& progress)
{
    // Metric columns: every numeric key of any "metrics" object.
    QStringList exclusive, inclusive;
    struct Pending {
        QJsonValue frame;
        std::size_t parent;
        QString where;
    };
    std::vector<Pending> stack;
    for (qsizetype i = roots.size(); i-- > 0;)
        stack.push_back({ roots[i], CallTreeEvents::NoParent, QStringLiteral("[%1]").arg(i) });
    std::vector<std::pair<std::size_t, QJsonObject>> metricsOf;
    Assembler assembler(builder, warnings, progress);
    std::size_t count = 0;
    while (!stack.empty()) {
        Pending p = std::move(stack.back());
        stack.pop_back();
        const QJsonObject f = p.frame.toObject();
        const QJsonValue frame = f.value(QLatin1String("frame"));
        if (!p.frame.isObject() || !frame.isObject())
            throw ParseError::at(JsonInput::offsetOfKey(text, "frame"),
                QStringLiteral("%1: expected {\"frame\": {\"name\": ...}, \"metrics\": {...}, \"children\": [...]}")
                    .arg(p.where));
        const QJsonValue name = frame.toObject().value(QLatin1String("name"));
        const std::size_t node = assembler.tree().addNode(
            p.parent, name.isString() ? name.toString() : QString(), QStringLiteral("frame %1").arg(count++));
        const QJsonObject metrics = f.value(QLatin1String("metrics")).toObject();
        for (auto it = metrics.constBegin(); it != metrics.constEnd(); ++it)
            if (it.value().isDouble() && !exclusive.contains(it.key()) && !inclusive.contains(it.key()))
                (it.key().endsWith(QLatin1String(" (inc)")) ? inclusive : exclusive) << it.key();
        metricsOf.emplace_back(node, metrics);
        const QJsonValue children = f.value(QLatin1String("children"));
        if (!children.isUndefined() && !children.isArray())
            throw ParseError::at(JsonInput::offsetOfKey(text, "children"),
                QStringLiteral("%1: expected \"children\" to be an array").arg(p.where));
        const QJsonArray kids = children.toArray();
        for (qsizetype k = kids.size(); k-- > 0;)
            stack.push_back({ kids[k], node, p.where + QStringLiteral(".children[%1]").arg(k) });
    }
    assembler.setMetrics(pairColumns(exclusive, inclusive));
    for (const auto& [node, metrics] : metricsOf)
        assembler.add(ThreadKey {}, node, metrics);
    assembler.finish();
    builder.addMetadata(QStringLiteral("Hatchet form"), QStringLiteral("literal"));
    builder.addMetadata(QStringLiteral("Hatchet exclusive_metrics"), exclusive.join(QStringLiteral(", ")));
    builder.addMetadata(QStringLiteral("Hatchet inclusive_metrics"), inclusive.join(QStringLiteral(", ")));
}

} // namespace

HatchetJsonReader::HatchetJsonReader()
    : Reader(
        { QStringLiteral("hatchet-json"), QStringLiteral("Hatchet GraphFrame JSON"), { QStringLiteral("*.json") } })
{
}

int HatchetJsonReader::sniff(const QString& path) const
{
    const QByteArray head = JsonInput::head(path);
    if (JsonInput::startsWithObject(head)) {
        if (JsonInput::firstKey(head) == "graph" && head.contains("\"children\""))
            return 100;
        if (head.contains("\"graph\"") && head.contains("\"dataframe\""))
            return 90;
        return 0;
    }
    if (JsonInput::startsWithArray(head)) {
        // The literal form: [{"frame": {...}, "metrics": {...}, ...
        qsizetype i = head.indexOf('{');
        const qsizetype frame = head.indexOf("\"frame\"");
        if (i >= 0 && frame > i && frame - i < 64)
            return 90;
    }
    return 0;
}

TrialResult HatchetJsonReader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    (void)options;
    return readJsonDocument(*this, path, progress,
        [&](const QJsonDocument& doc, const QByteArray& text, TrialBuilder& builder,
            QStringList& warnings) -> std::optional<ReadError> {
            if (doc.isObject())
                readGraphFrame(doc.object(), text, builder, warnings, progress);
            else if (doc.isArray())
                readLiteral(doc.array(), text, builder, warnings, progress);
            else
                throw ParseError::at(0,
                    QStringLiteral("expected a Hatchet GraphFrame object (graph, dataframe, ...) or a "
                                   "literal list of frames"));
            return std::nullopt;
        });
}

} // namespace parallax
