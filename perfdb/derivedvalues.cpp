// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// SqlDatabase::derivedValues: the stored derived rows of many trials at once (docs/FORMATS.md 2.1),
// for a history that does not load the trials (docs/SEMANTICS.md §9). Both dialects run the same
// statements; ids go in as parameters ($1...$n), never as text.
#include "datasource/model/names.h"
#include "perfdb/dbexception.h"
#include "perfdb/sqldatabase.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <algorithm>
#include <limits>

namespace parallax::perfdb {

namespace {

/// Trial ids per statement: well below SQLite's 32,766 and PostgreSQL's 65,535 parameters.
constexpr std::size_t Batch = 500;

/// "$first,...,$(first+count-1)"
std::string placeholders(std::size_t first, std::size_t count)
{
    std::string s;
    for (std::size_t i = 0; i < count; ++i) {
        if (i > 0)
            s += ',';
        s += '$' + std::to_string(first + i);
    }
    return s;
}

struct Node {
    qint64 timer = 0;
    qint64 parent = -1;
    QString name; ///< null until computed
};

struct TrialState {
    std::size_t index = 0; ///< in the result
    QSet<QString> hidden; ///< primary_metadata keys the upload added (parallax_trial.hidden_keys)
    QHash<qint64, QString> timers;
    QHash<qint64, Node> nodes; ///< by timer_callpath id
    std::vector<qint64> nodeOrder; ///< the events' nodes in the model's order
    QHash<qint64, std::size_t> eventOfNode;
    qint64 metricId = -1;
    bool primaryFound = false;
};

/// A node's name as TrialLoader::nodeName makes it: the timer names along the parents joined with " => ".
const QString& nodeName(TrialState& t, qint64 id, int depth = 0)
{
    Node& node = t.nodes[id];
    if (!node.name.isNull())
        return node.name;
    const QString leaf = t.timers.value(node.timer);
    const auto parent = t.nodes.constFind(node.parent);
    if (node.parent < 0 || parent == t.nodes.cend() || depth > 10000) {
        node.name = leaf;
    } else {
        const QString prefix = nodeName(t, node.parent, depth + 1);
        t.nodes[id].name = prefix + QStringLiteral(" => ") + leaf;
    }
    return t.nodes[id].name;
}

} // namespace

DbResult<std::vector<DerivedTrialValues>> SqlDatabase::derivedValues(const std::vector<qint64>& trials,
    const QString& metric, DerivedColumn column, const std::vector<int>& codes, const QString& metadataKey)
{
    std::vector<DerivedTrialValues> out(trials.size());
    QHash<qint64, TrialState> state;
    for (std::size_t i = 0; i < trials.size(); ++i) {
        out[i].trial = trials[i];
        state[trials[i]].index = i;
    }
    const auto result = transaction(false, [&] {
        const bool parallaxTrial = tableExists("parallax_trial");
        const bool parallaxMetric = tableExists("parallax_metric");
        const bool parallaxEvent = tableExists("parallax_event");
        for (std::size_t from = 0; from < trials.size(); from += Batch) {
            const std::size_t count = std::min(Batch, trials.size() - from);
            SqlParams ids;
            for (std::size_t i = from; i < from + count; ++i)
                ids.emplace_back(trials[i]);
            const std::string in = " IN (" + placeholders(1, count) + ")";
            auto withKey = [&](const QString& key) {
                SqlParams p = ids;
                p.emplace_back(key);
                return p;
            };
            const std::string keyParam = "$" + std::to_string(count + 1);

            auto rows = query("SELECT id, name FROM trial WHERE id" + in, ids);
            QSet<qint64> found;
            while (rows->next()) {
                found.insert(rows->toInt(0));
                out[state[rows->toInt(0)].index].name = rows->toText(1);
            }
            for (std::size_t i = from; i < from + count; ++i)
                if (!found.contains(trials[i]))
                    throw DbException(QStringLiteral("there is no trial %1").arg(trials[i]));
            if (parallaxTrial) {
                rows = query("SELECT trial, hidden_keys FROM parallax_trial WHERE trial" + in, ids);
                while (rows->next()) {
                    TrialState& t = state[rows->toInt(0)];
                    out[t.index].parallax = true;
                    for (const auto v : QJsonDocument::fromJson(rows->toText(1).toUtf8()).array())
                        t.hidden.insert(v.toString());
                }
            }
            rows = parallaxMetric
                ? query("SELECT m.trial, m.id, m.name, p.higher_is_better FROM metric m "
                        "LEFT JOIN parallax_metric p ON p.metric = m.id WHERE m.trial"
                        + in + " ORDER BY m.trial, m.id",
                    ids)
                : query("SELECT trial, id, name FROM metric WHERE trial" + in + " ORDER BY trial, id", ids);
            while (rows->next()) {
                TrialState& t = state[rows->toInt(0)];
                DerivedTrialValues& v = out[t.index];
                const QString name = rows->toText(2);
                v.metrics.append(name);
                if (name == metric && t.metricId < 0) {
                    t.metricId = rows->toInt(1);
                    v.hasMetric = true;
                    v.higherIsBetter = parallaxMetric && !rows->isNull(3) && rows->toInt(3) != 0;
                }
            }
            rows = query("SELECT id, trial, name FROM timer WHERE trial" + in, ids);
            while (rows->next())
                state[rows->toInt(1)].timers.insert(rows->toInt(0), rows->toText(2));
            rows = query("SELECT c.id, c.timer, c.parent, t.trial FROM timer_callpath c JOIN timer t ON c.timer = t.id "
                         "WHERE t.trial"
                    + in + " ORDER BY c.id",
                ids);
            while (rows->next()) {
                TrialState& t = state[rows->toInt(3)];
                t.nodes.insert(rows->toInt(0), Node { rows->toInt(1), rows->isNull(2) ? -1 : rows->toInt(2), {} });
                t.nodeOrder.push_back(rows->toInt(0)); // a foreign trial: every node, in id order
            }
            if (parallaxEvent) {
                // A Parallax trial: the model's events in their order (parallax_event).
                QSet<qint64> reset;
                rows = query(
                    "SELECT trial, timer_callpath FROM parallax_event WHERE trial" + in + " ORDER BY trial, position",
                    ids);
                while (rows->next()) {
                    TrialState& t = state[rows->toInt(0)];
                    if (!out[t.index].parallax)
                        continue;
                    if (!reset.contains(rows->toInt(0))) {
                        reset.insert(rows->toInt(0));
                        t.nodeOrder.clear();
                    }
                    t.nodeOrder.push_back(rows->toInt(1));
                }
            }
            // The derived rows (thread_index < 0) of the chosen column.
            if (column == DerivedColumn::Calls)
                rows = query("SELECT h.trial, h.thread_index, d.timer_callpath, d.calls FROM thread h "
                             "JOIN timer_call_data d ON d.thread = h.id WHERE h.thread_index < 0 AND h.trial"
                        + in,
                    ids);
            else {
                std::string sql = "SELECT h.trial, h.thread_index, d.timer_callpath, ";
                sql += column == DerivedColumn::Exclusive ? "v.exclusive_value" : "v.inclusive_value";
                sql += " FROM thread h JOIN timer_call_data d ON d.thread = h.id "
                       "JOIN timer_value v ON v.timer_call_data = d.id JOIN metric m ON m.id = v.metric "
                       "WHERE h.thread_index < 0 AND m.name = ";
                sql += keyParam;
                sql += " AND h.trial";
                sql += in;
                rows = query(sql, withKey(metric));
            }
            // Name the events first (the rows refer to their nodes).
            for (std::size_t i = from; i < from + count; ++i) {
                TrialState& t = state[trials[i]];
                DerivedTrialValues& v = out[t.index];
                QSet<QString> seen;
                for (qint64 node : t.nodeOrder) {
                    if (!t.nodes.contains(node))
                        throw DbException(
                            QStringLiteral("trial %1: an event refers to a missing call-path node").arg(trials[i]));
                    const QString name = QString::fromStdString(names::canonical(nodeName(t, node).toStdString()));
                    if (seen.contains(name))
                        continue; // loadTrial's builder merges them; findEvent finds the first
                    seen.insert(name);
                    t.eventOfNode.insert(node, static_cast<std::size_t>(v.events.size()));
                    v.events.append(name);
                }
                v.values.assign(codes.size(),
                    std::vector<double>(
                        static_cast<std::size_t>(v.events.size()), std::numeric_limits<double>::quiet_NaN()));
            }
            while (rows->next()) {
                TrialState& t = state[rows->toInt(0)];
                DerivedTrialValues& v = out[t.index];
                if (column == DerivedColumn::Calls && !v.hasMetric)
                    continue;
                const int code = static_cast<int>(rows->toInt(1));
                const auto event = t.eventOfNode.constFind(rows->toInt(2));
                if (event == t.eventOfNode.cend())
                    continue;
                // A NULL value: NaN in a trial Parallax wrote (SQLite stores NaN as NULL), else 0.
                const double x = rows->isNull(3) ? (v.parallax ? std::numeric_limits<double>::quiet_NaN() : 0.0)
                                                 : rows->toDouble(3);
                for (std::size_t k = 0; k < codes.size(); ++k) // a code may be asked for twice
                    if (codes[k] == code)
                        v.values[k][event.value()] = x;
            }
            if (!metadataKey.isEmpty()) {
                std::string primary = "SELECT trial, value FROM primary_metadata WHERE name = ";
                primary += keyParam;
                primary += " AND trial";
                primary += in;
                rows = query(primary, withKey(metadataKey));
                while (rows->next()) {
                    TrialState& t = state[rows->toInt(0)];
                    if (t.hidden.contains(metadataKey) || t.primaryFound)
                        continue;
                    t.primaryFound = true;
                    out[t.index].metadataValue = rows->toText(1);
                }
                std::string secondary = "SELECT trial, value FROM secondary_metadata WHERE thread IS NULL AND name = ";
                secondary += keyParam;
                secondary += " AND trial";
                secondary += in;
                secondary += " ORDER BY trial, id";
                rows = query(secondary, withKey(metadataKey));
                QSet<qint64> taken;
                while (rows->next()) {
                    TrialState& t = state[rows->toInt(0)];
                    if (t.primaryFound || taken.contains(rows->toInt(0)))
                        continue;
                    taken.insert(rows->toInt(0));
                    out[t.index].metadataValue = rows->toText(1);
                }
            }
            // Free what the batch needed.
            for (std::size_t i = from; i < from + count; ++i) {
                TrialState& t = state[trials[i]];
                t.timers.clear();
                t.nodes.clear();
                t.eventOfNode.clear();
                t.nodeOrder.clear();
            }
        }
    });
    if (!result.ok())
        return result.error();
    return out;
}

} // namespace parallax::perfdb
