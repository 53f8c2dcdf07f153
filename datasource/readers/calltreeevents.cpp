// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/calltreeevents.h"

#include "datasource/model/names.h"
#include "datasource/model/trialbuilder.h"

#include <algorithm>
#include <map>

namespace parallax {

namespace {

/// The component as the model will spell it: "=>" (the call-path separator) written "= >",
/// white space collapsed (rule W), never empty.
QString cleanComponent(const QString& raw, bool& cut)
{
    QString s = raw.size() > CallTreeEvents::MaxComponentLength ? raw.left(CallTreeEvents::MaxComponentLength) : raw;
    cut = raw.size() > CallTreeEvents::MaxComponentLength;
    s.replace(QLatin1String("=>"), QLatin1String("= >"));
    s = QString::fromStdString(names::canonical(s.toStdString()));
    if (s.isEmpty())
        s = QStringLiteral("<unnamed>");
    return s;
}

} // namespace

CallTreeEvents::CallTreeEvents(std::size_t metricCount)
    : m_metricCount(metricCount)
{
}

std::size_t CallTreeEvents::addNode(
    std::size_t parent, const QString& name, const QString& distinguisher, const QStringList& groups)
{
    m_nodes.push_back({ parent, name, distinguisher, groups });
    return m_nodes.size() - 1;
}

bool CallTreeEvents::createEvents(TrialBuilder& builder, QStringList& warnings, QString& error)
{
    const std::size_t n = m_nodes.size();
    m_pathEvent.assign(n, EventId());
    m_flatEvent.assign(n, EventId());
    m_component.assign(n, QString());
    m_outermost.assign(n, 1);
    std::vector<QString> paths(n);
    // (parent's path event, component) -> the distinguishers already seen with that name.
    std::map<std::pair<std::uint32_t, QString>, QStringList> siblings;
    std::vector<char> used; // path events that already have a node
    qint64 pathChars = 0;
    std::size_t renamed = 0, merged = 0, cutNames = 0;
    QStringList mergedExamples;
    const QStringList callPathGroup { QStringLiteral("TAU_CALLPATH") };
    for (std::size_t i = 0; i < n; ++i) {
        Node& node = m_nodes[i];
        bool cut = false;
        QString component = cleanComponent(node.name, cut);
        cutNames += cut ? 1 : 0;
        if (node.parent != NoParent && node.parent >= i)
            node.parent = NoParent; // not pre-order: treat as a root rather than read out of bounds
        const bool root = node.parent == NoParent;
        const std::uint32_t parentKey = root ? UINT32_MAX : m_pathEvent[node.parent].index();
        QStringList& seen = siblings[{ parentKey, component }];
        if (!seen.isEmpty() && !seen.contains(node.distinguisher) && !node.distinguisher.isEmpty()) {
            seen.append(node.distinguisher);
            bool dummy = false;
            component = cleanComponent(component + QStringLiteral(" [") + node.distinguisher + QLatin1Char(']'), dummy);
            ++renamed;
        } else if (seen.isEmpty()) {
            seen.append(node.distinguisher);
        }
        m_component[i] = component;
        m_flatEvent[i] = builder.addEvent(component, node.groups);
        if (root) {
            paths[i] = component;
            m_pathEvent[i] = m_flatEvent[i];
        } else {
            paths[i] = paths[node.parent] + QStringLiteral(" => ") + component;
            pathChars += paths[i].size();
            if (pathChars > MaxPathCharacters) {
                error = QStringLiteral("the call-path names need more than %1 characters (call tree too deep: node %2 "
                                       "is at depth %3)")
                            .arg(MaxPathCharacters)
                            .arg(i)
                            .arg(paths[i].count(QLatin1String(" => ")) + 1);
                return false;
            }
            m_pathEvent[i] = builder.addEvent(paths[i], callPathGroup + node.groups);
        }
        const std::size_t e = m_pathEvent[i].index();
        if (used.size() <= e)
            used.resize(e + 1, 0);
        if (used[e] && !root) {
            ++merged;
            if (mergedExamples.size() < 3)
                mergedExamples << paths[i];
        }
        used[e] = 1;
        node.name.clear();
        node.distinguisher.clear();
        node.groups.clear();
    }
    // Only the parents' paths were needed; free them before the outermost pass.
    std::vector<QString>().swap(paths);
    // Outermost flags: a node is outermost for its flat event when no ancestor has the same one.
    std::size_t eventCount = 0;
    for (std::size_t i = 0; i < n; ++i)
        eventCount = std::max(
            { eventCount, std::size_t(m_flatEvent[i].index()) + 1, std::size_t(m_pathEvent[i].index()) + 1 });
    std::vector<int> active(eventCount, 0);
    std::vector<std::size_t> stack;
    std::size_t recursive = 0;
    std::vector<char> rootFlat(eventCount, 0), deepFlat(eventCount, 0);
    for (std::size_t i = 0; i < n; ++i)
        (m_nodes[i].parent == NoParent ? rootFlat : deepFlat)[m_flatEvent[i].index()] = 1;
    std::size_t rootsDeeper = 0;
    for (std::size_t e = 0; e < eventCount; ++e)
        rootsDeeper += rootFlat[e] && deepFlat[e] ? 1 : 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t parent = m_nodes[i].parent;
        while (!stack.empty() && stack.back() != parent) {
            --active[m_flatEvent[stack.back()].index()];
            stack.pop_back();
        }
        const std::size_t f = m_flatEvent[i].index();
        m_outermost[i] = active[f] == 0 ? 1 : 0;
        recursive += m_outermost[i] ? 0 : 1;
        ++active[f];
        stack.push_back(i);
    }
    m_slot.assign(eventCount, -1);
    if (renamed > 0)
        warnings << QStringLiteral("%1 call-tree node(s) have the name of an earlier sibling but are different "
                                   "(another frame or source line); they were named \"name [what differs]\"")
                        .arg(renamed);
    if (merged > 0)
        warnings << QStringLiteral("%1 call-tree node(s) have the same call path as an earlier node; their values "
                                   "were summed into one event (e.g. %2)")
                        .arg(merged)
                        .arg(mergedExamples.join(QStringLiteral("; ")));
    if (rootsDeeper > 0)
        warnings << QStringLiteral(
            "%1 call-tree root(s) also occur deeper in the call tree; their events hold the flat "
            "totals, not the root alone")
                        .arg(rootsDeeper);
    if (cutNames > 0)
        warnings
            << QStringLiteral("%1 name(s) longer than %2 characters were cut").arg(cutNames).arg(MaxComponentLength);
    (void)recursive;
    return true;
}

QString CallTreeEvents::pathName(std::size_t node) const
{
    QStringList parts;
    for (std::size_t i = node; i != NoParent && parts.size() <= static_cast<qsizetype>(m_nodes.size());
         i = m_nodes[i].parent)
        parts.prepend(m_component[i]);
    return parts.join(QStringLiteral(" => "));
}

void CallTreeEvents::exclusiveFromInclusive(ThreadValues& values) const
{
    const std::size_t M = m_metricCount;
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        for (std::size_t m = 0; m < M; ++m)
            values.excl[i * M + m] = values.incl[i * M + m];
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        const std::size_t p = m_nodes[i].parent;
        if (p == NoParent)
            continue;
        for (std::size_t m = 0; m < M; ++m)
            values.excl[p * M + m] -= values.incl[i * M + m];
    }
}

void CallTreeEvents::inclusiveFromExclusive(ThreadValues& values) const
{
    const std::size_t M = m_metricCount;
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        for (std::size_t m = 0; m < M; ++m)
            values.incl[i * M + m] = values.excl[i * M + m];
    // Children come after their parents, so a reverse sweep sees every subtree complete.
    for (std::size_t i = m_nodes.size(); i-- > 0;) {
        const std::size_t p = m_nodes[i].parent;
        if (p == NoParent)
            continue;
        for (std::size_t m = 0; m < M; ++m)
            values.incl[p * M + m] += values.incl[i * M + m];
    }
}

IntervalRow CallTreeEvents::makeRow(const ThreadValues& values)
{
    const std::size_t M = m_metricCount;
    const std::size_t n = m_nodes.size();
    // subrs of a node = sum of its children's calls (of present children).
    std::vector<double> subrs(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t p = m_nodes[i].parent;
        if (p != NoParent && values.present[i])
            subrs[p] += values.calls[i];
    }
    std::vector<std::uint32_t> events;
    struct Cell {
        double calls = 0, subrs = 0;
    };
    std::vector<Cell> cells;
    std::vector<double> excl, incl; // cell-major while accumulating: [cell * M + m]
    auto slotOf = [&](EventId e) {
        int& s = m_slot[e.index()];
        if (s < 0) {
            s = static_cast<int>(events.size());
            events.push_back(e.index());
            cells.push_back({});
            excl.resize(excl.size() + M, 0.0);
            incl.resize(incl.size() + M, 0.0);
        }
        return static_cast<std::size_t>(s);
    };
    for (std::size_t i = 0; i < n; ++i) {
        if (!values.present[i])
            continue;
        const bool root = m_pathEvent[i] == m_flatEvent[i];
        // The path event (for a root: the flat event, counted once below).
        if (!root) {
            const std::size_t s = slotOf(m_pathEvent[i]);
            cells[s].calls += values.calls[i];
            cells[s].subrs += subrs[i];
            for (std::size_t m = 0; m < M; ++m) {
                excl[s * M + m] += values.excl[i * M + m];
                incl[s * M + m] += values.incl[i * M + m];
            }
        }
        const std::size_t s = slotOf(m_flatEvent[i]);
        cells[s].calls += values.calls[i];
        cells[s].subrs += subrs[i];
        for (std::size_t m = 0; m < M; ++m) {
            excl[s * M + m] += values.excl[i * M + m];
            if (m_outermost[i])
                incl[s * M + m] += values.incl[i * M + m];
        }
    }
    // Sort the cells by event id and lay the values out metric-major.
    std::vector<std::size_t> order(events.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return events[a] < events[b]; });
    IntervalRow row;
    const std::size_t c = events.size();
    row.events.resize(c);
    row.calls.resize(c);
    row.subrs.resize(c);
    row.excl.assign(c * M, 0.0);
    row.incl.assign(c * M, 0.0);
    for (std::size_t k = 0; k < c; ++k) {
        const std::size_t s = order[k];
        row.events[k] = EventId(events[s]);
        row.calls[k] = cells[s].calls;
        row.subrs[k] = cells[s].subrs;
        for (std::size_t m = 0; m < M; ++m) {
            row.excl[m * c + k] = excl[s * M + m];
            row.incl[m * c + k] = incl[s * M + m];
        }
    }
    for (std::uint32_t e : events)
        m_slot[e] = -1;
    return row;
}

} // namespace parallax
