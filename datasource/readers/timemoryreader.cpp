// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// timemory tree JSON reader.
//
// The file: {"timemory": {"<COMPONENT>": {properties, type, description, unit_value, unit_repr,
// mpi_size, thread_count, process_count, upcxx_size, "mpi": [rank][k] = tree}}}, where a tree is a
// record {"node": {hash, prefix, tid[], pid[], depth, is_dummy, inclusive: {entry, stats},
// exclusive: {entry, stats}}, "children": [records]} and stats = {sum, count, min, max, sqr, mean,
// stddev} of the per-lap values, in unit_repr units.
//
// What the model gets
// -------------------
// * Metrics: one per component, named by its key ("WALL_CLOCK"); unit from unit_repr ("sec" stays
//   "sec", "usec" becomes "us", others as written).
// * Threads: tree k of rank r is ThreadKey(r, 0, k). timemory's tree output has already combined
//   the threads of a process: a record's "tid" lists the threads that contributed (the sample's
//   ranks have one tree each, thread 0 at the root and threads 1 and 2 below), so values cannot be
//   split per thread; the tids and pids are kept as per-thread metadata "timemory tid" / "timemory
//   pid" (the union over the tree's records) and the component's thread_count as trial metadata.
// * Call tree: each record is a node named by its prefix (leading ">>> " and "|_" decorations
//   removed). Records of all components and trees are merged by path, so one component's tree and
//   another's share events. incl = inclusive.stats.sum, excl = exclusive.stats.sum, calls =
//   inclusive.stats.count (the laps over all contributing threads; entry.laps counts one thread).
//   Without stats, entry.repr_data and entry.laps are used. Values are kept as written; a node whose
//   inclusive value is below the sum of its children's (the sample's root "unknown-hash=0" has 0
//   while its children hold 58.6 s) is reported in a warning.
// * The per-lap statistics become atomic events "<COMPONENT> per call : <call path>" (count, min,
//   max, mean, sum of squares = stats.sqr) on the thread, TAU's context-event form. The model
//   derives the population standard deviation from them; timemory's "stddev" is the sample one
//   (larger by sqrt(n / (n - 1))) and is not stored.
// * Trial metadata per component: "timemory <COMPONENT> <field>" for description, type,
//   unit_repr, mpi_size, process_count, thread_count, upcxx_size.
// Errors name the file, the line of the first occurrence of the offending key and the JSON path.

#include "datasource/readers/timemoryreader.h"

#include "datasource/model/trialbuilder.h"
#include "datasource/readers/calltreeevents.h"
#include "datasource/readers/jsoninput.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>
#include <QSet>
#include <map>

namespace parallax {

namespace {

/// A union call tree of every component and thread, merged by path.
struct Trie {
    struct Node {
        QString name;
        std::map<QString, std::size_t> children; // by name; ordered for a stable pre-order
        std::size_t parent = static_cast<std::size_t>(-1);
        std::size_t firstSeen = 0;
    };
    std::vector<Node> nodes;
    std::size_t child(std::size_t parent, const QString& name)
    {
        auto& kids = parent == static_cast<std::size_t>(-1) ? roots : nodes[parent].children;
        const auto it = kids.find(name);
        if (it != kids.end())
            return it->second;
        const std::size_t index = nodes.size();
        kids.emplace(name, index); // before push_back, which may move the parent's map
        nodes.push_back({ name, {}, parent, index });
        return index;
    }
    std::map<QString, std::size_t> roots;
};

struct Record {
    std::size_t thread;
    std::size_t metric;
    std::size_t node; // trie node
    double incl, excl, calls;
    bool hasStats;
    double count, min, max, mean, sqr;
};

QString cleanPrefix(QString p)
{
    p = p.trimmed();
    if (p.startsWith(QLatin1String(">>>")))
        p = p.mid(3).trimmed();
    while (p.startsWith(QLatin1String("|_")))
        p = p.mid(2).trimmed();
    return p;
}

QString unitOf(const QString& repr)
{
    if (repr == QLatin1String("usec") || repr == QLatin1String("us"))
        return QStringLiteral("us");
    return repr;
}

} // namespace

TimemoryReader::TimemoryReader()
    : Reader({ QStringLiteral("timemory"), QStringLiteral("timemory tree JSON"),
        { QStringLiteral("*.tree.json"), QStringLiteral("*.json") } })
{
}

int TimemoryReader::sniff(const QString& path) const
{
    const QByteArray head = JsonInput::head(path);
    if (!JsonInput::startsWithObject(head))
        return 0;
    if (JsonInput::firstKey(head) == "timemory")
        return 100;
    return 0;
}

TrialResult TimemoryReader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    (void)options;
    return readJsonDocument(*this, path, progress,
        [&](const QJsonDocument& doc, const QByteArray& text, TrialBuilder& builder,
            QStringList& warnings) -> std::optional<ReadError> {
            const QJsonValue tm = doc.object().value(QLatin1String("timemory"));
            if (!doc.isObject() || !tm.isObject())
                throw ParseError::at(
                    0, QStringLiteral("expected a JSON object with a \"timemory\" object (timemory tree JSON)"));
            const QJsonObject components = tm.toObject();
            Trie trie;
            std::vector<Record> records;
            std::map<ThreadKey, std::size_t> threadIndex;
            std::vector<ThreadKey> threadKeys;
            std::vector<QSet<qint64>> tids, pids;
            QStringList metricNames;
            std::size_t duplicates = 0;
            for (auto c = components.constBegin(); c != components.constEnd(); ++c) {
                if (!c.value().isObject())
                    throw ParseError::at(JsonInput::offsetOfKey(text, c.key().toUtf8()),
                        QStringLiteral("timemory.%1: expected a component object").arg(c.key()));
                const QJsonObject comp = c.value().toObject();
                const QJsonValue mpi = comp.value(QLatin1String("mpi"));
                if (!mpi.isArray())
                    throw ParseError::at(JsonInput::offsetOfKey(text, c.key().toUtf8()),
                        QStringLiteral("timemory.%1: expected an \"mpi\" array (one list of trees per rank)")
                            .arg(c.key()));
                const std::size_t metric = static_cast<std::size_t>(metricNames.size());
                metricNames << c.key();
                builder.addMetric(Metric(c.key(), unitOf(comp.value(QLatin1String("unit_repr")).toString())));
                for (const char* field :
                    { "description", "type", "unit_repr", "mpi_size", "process_count", "thread_count", "upcxx_size" }) {
                    const QString v = JsonInput::scalarText(comp.value(QLatin1String(field)));
                    if (!v.isNull())
                        builder.addMetadata(QStringLiteral("timemory %1 %2").arg(c.key(), QLatin1String(field)), v);
                }
                const QJsonArray ranks = mpi.toArray();
                for (qsizetype r = 0; r < ranks.size(); ++r) {
                    if (!ranks[r].isArray())
                        throw ParseError::at(JsonInput::offsetOfKey(text, "mpi"),
                            QStringLiteral("timemory.%1.mpi[%2]: expected an array of trees").arg(c.key()).arg(r));
                    const QJsonArray trees = ranks[r].toArray();
                    for (qsizetype k = 0; k < trees.size(); ++k) {
                        const ThreadKey key { static_cast<int>(std::min<qsizetype>(r, INT32_MAX)), 0,
                            static_cast<int>(std::min<qsizetype>(k, INT32_MAX)) };
                        auto [it, added] = threadIndex.emplace(key, threadKeys.size());
                        if (added) {
                            threadKeys.push_back(key);
                            tids.emplace_back();
                            pids.emplace_back();
                        }
                        const std::size_t thread = it->second;
                        struct Pending {
                            QJsonValue record;
                            std::size_t parent;
                            QString where;
                        };
                        std::vector<Pending> stack { { trees[k], static_cast<std::size_t>(-1),
                            QStringLiteral("timemory.%1.mpi[%2][%3]").arg(c.key()).arg(r).arg(k) } };
                        QSet<std::size_t> seen; // trie nodes of this tree and component, for duplicates
                        while (!stack.empty()) {
                            if (progress.isCancelled())
                                throw Cancelled {};
                            Pending p = std::move(stack.back());
                            stack.pop_back();
                            if (!p.record.isObject() || !p.record.toObject().value(QLatin1String("node")).isObject())
                                throw ParseError::at(JsonInput::offsetOfKey(text, "node"),
                                    QStringLiteral("%1: expected a record {\"node\": {...}, \"children\": [...]}")
                                        .arg(p.where));
                            const QJsonObject rec = p.record.toObject();
                            const QJsonObject node = rec.value(QLatin1String("node")).toObject();
                            const QJsonValue prefix = node.value(QLatin1String("prefix"));
                            if (!prefix.isString())
                                throw ParseError::at(JsonInput::offsetOfKey(text, "prefix"),
                                    QStringLiteral("%1: expected a string \"prefix\" in the node").arg(p.where));
                            const std::size_t n = trie.child(p.parent, cleanPrefix(prefix.toString()));
                            if (seen.contains(n))
                                ++duplicates;
                            seen.insert(n);
                            for (const QJsonValue v : node.value(QLatin1String("tid")).toArray())
                                tids[thread].insert(v.toInteger());
                            for (const QJsonValue v : node.value(QLatin1String("pid")).toArray())
                                pids[thread].insert(v.toInteger());
                            Record out { thread, metric, n, 0, 0, 0, false, 0, 0, 0, 0, 0 };
                            for (const bool inclusive : { true, false }) {
                                const QJsonObject side
                                    = node.value(inclusive ? QLatin1String("inclusive") : QLatin1String("exclusive"))
                                          .toObject();
                                const QJsonValue stats = side.value(QLatin1String("stats"));
                                const QJsonObject entry = side.value(QLatin1String("entry")).toObject();
                                double value = 0;
                                if (stats.isObject() && stats.toObject().value(QLatin1String("sum")).isDouble()) {
                                    const QJsonObject s = stats.toObject();
                                    value = s.value(QLatin1String("sum")).toDouble();
                                    if (inclusive) {
                                        out.hasStats = true;
                                        out.calls = s.value(QLatin1String("count")).toDouble();
                                        out.count = out.calls;
                                        out.min = s.value(QLatin1String("min")).toDouble();
                                        out.max = s.value(QLatin1String("max")).toDouble();
                                        out.mean = s.value(QLatin1String("mean")).toDouble();
                                        out.sqr = s.value(QLatin1String("sqr")).toDouble();
                                    }
                                } else if (entry.value(QLatin1String("repr_data")).isDouble()) {
                                    value = entry.value(QLatin1String("repr_data")).toDouble();
                                    if (inclusive)
                                        out.calls = entry.value(QLatin1String("laps")).toDouble();
                                } else if (!side.isEmpty() || inclusive) {
                                    throw ParseError::at(
                                        JsonInput::offsetOfKey(text, inclusive ? "inclusive" : "exclusive"),
                                        QStringLiteral(
                                            "%1 (%2): expected \"%3\" with \"stats\" {sum, count, ...} or an "
                                            "\"entry\" with repr_data")
                                            .arg(p.where, prefix.toString(),
                                                inclusive ? QStringLiteral("inclusive") : QStringLiteral("exclusive")));
                                }
                                (inclusive ? out.incl : out.excl) = value;
                            }
                            records.push_back(out);
                            const QJsonValue children = rec.value(QLatin1String("children"));
                            if (!children.isUndefined() && !children.isArray())
                                throw ParseError::at(JsonInput::offsetOfKey(text, "children"),
                                    QStringLiteral("%1: expected \"children\" to be an array").arg(p.where));
                            const QJsonArray kids = children.toArray();
                            for (qsizetype i = kids.size(); i-- > 0;)
                                stack.push_back({ kids[i], n, p.where + QStringLiteral(".children[%1]").arg(i) });
                        }
                    }
                }
            }
            if (metricNames.isEmpty())
                throw ParseError::at(
                    JsonInput::offsetOfKey(text, "timemory"), QStringLiteral("no component in \"timemory\""));
            if (duplicates > 0)
                warnings << QStringLiteral(
                    "%1 record(s) repeat the call path of an earlier sibling record; their values "
                    "were summed")
                                .arg(duplicates);

            // The union tree in depth-first pre-order.
            const std::size_t M = static_cast<std::size_t>(metricNames.size());
            CallTreeEvents tree(M);
            std::vector<std::size_t> modelOf(trie.nodes.size());
            std::vector<std::pair<std::size_t, std::size_t>> order; // (trie node, model parent)
            std::vector<std::pair<std::size_t, std::size_t>> dfs;
            for (auto it = trie.roots.rbegin(); it != trie.roots.rend(); ++it)
                dfs.emplace_back(it->second, CallTreeEvents::NoParent);
            while (!dfs.empty()) {
                const auto [t, parent] = dfs.back();
                dfs.pop_back();
                modelOf[t] = tree.addNode(parent, trie.nodes[t].name);
                const auto& kids = trie.nodes[t].children;
                for (auto it = kids.rbegin(); it != kids.rend(); ++it)
                    dfs.emplace_back(it->second, modelOf[t]);
            }
            std::vector<ThreadIndex> threads;
            for (std::size_t t = 0; t < threadKeys.size(); ++t) {
                threads.push_back(builder.addThread(threadKeys[t]));
                auto joined = [](const QSet<qint64>& set) {
                    QList<qint64> list(set.begin(), set.end());
                    std::sort(list.begin(), list.end());
                    QStringList parts;
                    for (qint64 v : list)
                        parts << QString::number(v);
                    return parts.join(QStringLiteral(","));
                };
                if (!tids[t].isEmpty())
                    builder.addThreadMetadata(threads.back(), QStringLiteral("timemory tid"), joined(tids[t]));
                if (!pids[t].isEmpty())
                    builder.addThreadMetadata(threads.back(), QStringLiteral("timemory pid"), joined(pids[t]));
            }
            QString error;
            if (!tree.createEvents(builder, warnings, error))
                throw ParseError::at(0, error);
            // Rows, and the per-call statistics as context events.
            std::vector<std::vector<const Record*>> byThread(threadKeys.size());
            for (const Record& r : records)
                byThread[r.thread].push_back(&r);
            std::vector<IntervalRow> rows(threadKeys.size());
            std::vector<AtomicRow> atomicRows(threadKeys.size());
            CallTreeEvents::ThreadValues values;
            std::size_t belowChildren = 0;
            QString example;
            std::vector<double> childIncl;
            for (std::size_t t = 0; t < threadKeys.size(); ++t) {
                values.reset(tree.nodeCount(), M);
                std::vector<std::size_t> callsMetric(tree.nodeCount(), M);
                for (const Record* r : byThread[t]) {
                    const std::size_t n = modelOf[r->node];
                    values.incl[n * M + r->metric] += r->incl;
                    values.excl[n * M + r->metric] += r->excl;
                    // Calls from the first component that has the node (summed over duplicate records).
                    if (r->metric < callsMetric[n]) {
                        callsMetric[n] = r->metric;
                        values.calls[n] = r->calls;
                    } else if (r->metric == callsMetric[n]) {
                        values.calls[n] += r->calls;
                    }
                    values.present[n] = 1;
                    if (r->hasStats && r->count > 0) {
                        const AtomicEventId a = builder.addAtomicEvent(metricNames[static_cast<qsizetype>(r->metric)]
                            + QStringLiteral(" per call : ") + tree.pathName(n));
                        atomicRows[threads[t].index()].append(a, r->count, r->max, r->min, r->mean, r->sqr);
                    }
                }
                childIncl.assign(tree.nodeCount() * M, 0.0);
                for (std::size_t n = 0; n < tree.nodeCount(); ++n)
                    if (tree.parent(n) != CallTreeEvents::NoParent && values.present[n])
                        for (std::size_t m = 0; m < M; ++m)
                            childIncl[tree.parent(n) * M + m] += values.incl[n * M + m];
                for (std::size_t n = 0; n < tree.nodeCount(); ++n)
                    for (std::size_t m = 0; m < M; ++m)
                        if (values.present[n]
                            && values.incl[n * M + m]
                                < childIncl[n * M + m] - 1e-9 * std::max(1.0, childIncl[n * M + m])) {
                            if (belowChildren++ == 0)
                                example = QStringLiteral("'%1' on thread %2: %3 < %4")
                                              .arg(tree.pathName(n), threadKeys[t].toString())
                                              .arg(values.incl[n * M + m])
                                              .arg(childIncl[n * M + m]);
                        }
                rows[threads[t].index()] = tree.makeRow(values);
            }
            builder.setIntervalRows(std::move(rows));
            builder.setAtomicRows(std::move(atomicRows));
            if (belowChildren > 0)
                warnings << QStringLiteral(
                    "%1 node(s) have an inclusive value below the sum of their children's (kept as "
                    "written), e.g. %2")
                                .arg(belowChildren)
                                .arg(example);
            return std::nullopt;
        });
}

} // namespace parallax
