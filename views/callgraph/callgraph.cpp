// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/callgraph/callgraph.h"

#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax {

namespace {

const QLatin1String separator(" => ");

} // namespace

CallGraph::CallGraph(const Trial& trial, const std::function<bool(EventId)>& visible)
{
    QHash<QString, bool> shown;
    auto isShown = [&](const QString& name) {
        if (!visible)
            return true;
        const auto it = shown.constFind(name);
        if (it != shown.cend())
            return it.value();
        const EventId flat = trial.findEvent(name);
        const bool on = !flat.isValid() || visible(flat);
        shown.insert(name, on);
        return on;
    };
    auto nodeFor = [&](const QString& name) {
        const auto it = m_byName.constFind(name);
        if (it != m_byName.cend())
            return it.value();
        const int id = static_cast<int>(m_nodes.size());
        m_nodes.push_back({ name, trial.findEvent(name) });
        m_byName.insert(name, id);
        return id;
    };
    QHash<QPair<int, int>, int> edgeIndex;
    for (std::size_t i = 0; i < trial.eventCount(); ++i) {
        const EventId e(i);
        const IntervalEvent& event = trial.event(e);
        if (!event.isCallPath())
            continue;
        m_hasCallPaths = true;
        const QStringList parts = event.name.split(separator);
        int previous = -1;
        for (qsizetype k = 0; k < parts.size(); ++k) {
            if (!isShown(parts[k])) {
                previous = -1;
                continue;
            }
            const int node = nodeFor(parts[k]);
            if (previous >= 0) {
                const QPair<int, int> key(previous, node);
                auto it = edgeIndex.find(key);
                if (it == edgeIndex.end()) {
                    it = edgeIndex.insert(key, static_cast<int>(m_edges.size()));
                    m_edges.push_back({ previous, node, {} });
                }
                if (k == parts.size() - 1)
                    m_edges[static_cast<std::size_t>(it.value())].paths.push_back(e);
            }
            previous = node;
        }
    }
}

int CallGraph::nodeOfEvent(const Trial& trial, EventId event) const
{
    if (!event.isValid() || event.index() >= trial.eventCount())
        return -1;
    const QString& name = trial.event(event).name;
    const qsizetype sep = name.lastIndexOf(separator);
    return nodeOf(sep < 0 ? name : name.mid(sep + separator.size()));
}

QString CallGraph::shortName(const QString& name, int maxLength)
{
    static const QRegularExpression location(QStringLiteral("\\s*\\[\\{[^\\]]*\\]"));
    static const QRegularExpression parameters(QStringLiteral("\\s*\\[\\s*<[^\\]]*\\]"));
    QString text = name;
    text.remove(location);
    text.remove(parameters);
    text = text.simplified();
    if (text.isEmpty())
        text = name.simplified();
    // "int ns::foo(int, double) C" -> "ns::foo": drop the return type, the arguments and the
    // language tag. Names starting with '.' or '[' (".TAU application", "[SAMPLE] ...") are kept.
    const qsizetype paren = text.indexOf(QLatin1Char('('));
    if (paren > 0 && !text.startsWith(QLatin1Char('.')) && !text.startsWith(QLatin1Char('['))) {
        int depth = 0;
        qsizetype begin = 0;
        for (qsizetype i = paren - 1; i >= 0; --i) {
            const QChar c = text[i];
            if (c == QLatin1Char('>'))
                ++depth;
            else if (c == QLatin1Char('<'))
                --depth;
            else if (c == QLatin1Char(' ') && depth <= 0 && i < paren - 1) {
                begin = i + 1;
                break;
            }
        }
        const QString routine = text.mid(begin, paren - begin).trimmed();
        if (!routine.isEmpty())
            text = routine;
    }
    // The end of a qualified name says most ("...::update"), so long names lose their start.
    if (text.size() > maxLength && maxLength > 1)
        text = QChar(0x2026) + text.right(maxLength - 1);
    return text;
}

CallGraphSubset selectCallGraph(const CallGraph& graph, const std::vector<double>& inclusive,
    const std::vector<double>& exclusive, const std::vector<double>& edgeWeight, const CallGraphFocus& focus)
{
    const std::size_t n = graph.nodes().size();
    const auto& edges = graph.edges();
    auto value = [](const std::vector<double>& v, std::size_t i) {
        return i < v.size() && std::isfinite(v[i]) ? std::max(0.0, v[i]) : 0.0;
    };
    auto incl = [&](int i) { return value(inclusive, static_cast<std::size_t>(i)); };
    auto weight = [&](std::size_t e) {
        // An edge without values (only inside longer paths) weighs as its callee.
        return e < edgeWeight.size() && std::isfinite(edgeWeight[e]) ? std::max(0.0, edgeWeight[e]) : incl(edges[e].to);
    };
    std::vector<std::vector<std::size_t>> in(n);
    std::vector<std::vector<std::size_t>> out(n);
    for (std::size_t e = 0; e < edges.size(); ++e) {
        if (edges[e].from == edges[e].to)
            continue; // direct recursion leads nowhere
        out[static_cast<std::size_t>(edges[e].from)].push_back(e);
        in[static_cast<std::size_t>(edges[e].to)].push_back(e);
    }

    CallGraphSubset s;
    s.shown.assign(n, false);
    if (n == 0)
        return s;
    const int cap = std::max(1, focus.maxNodes);
    auto show = [&](int i) {
        if (!s.shown[static_cast<std::size_t>(i)]) {
            s.shown[static_cast<std::size_t>(i)] = true;
            ++s.shownCount;
        }
    };

    // The hottest path: from the heaviest root down the heaviest edges, never revisiting a routine.
    int start = -1;
    for (std::size_t i = 0; i < n; ++i)
        if (in[i].empty() && (start < 0 || incl(static_cast<int>(i)) > incl(start)))
            start = static_cast<int>(i);
    if (start < 0) // every routine has a caller (recursion through the root): the heaviest one
        for (std::size_t i = 0; i < n; ++i)
            if (start < 0 || incl(static_cast<int>(i)) > incl(start))
                start = static_cast<int>(i);
    {
        std::vector<bool> onPath(n, false);
        for (int at = start; at >= 0 && static_cast<std::size_t>(at) < n;) {
            onPath[static_cast<std::size_t>(at)] = true;
            s.hotPath.push_back(at);
            std::size_t best = edges.size();
            for (std::size_t e : out[static_cast<std::size_t>(at)])
                if (!onPath[static_cast<std::size_t>(edges[e].to)] && weight(e) > 0
                    && (best == edges.size() || weight(e) > weight(best)))
                    best = e;
            if (best == edges.size())
                break;
            s.hotEdges.push_back(static_cast<int>(best));
            at = edges[best].to;
        }
    }

    std::vector<int> byInclusive(n);
    std::iota(byInclusive.begin(), byInclusive.end(), 0);
    std::stable_sort(byInclusive.begin(), byInclusive.end(), [&](int a, int b) { return incl(a) > incl(b); });

    switch (focus.mode) {
    case CallGraphFocus::Mode::All:
        for (std::size_t k = 0; k < n && k < static_cast<std::size_t>(cap); ++k)
            show(byInclusive[k]);
        break;
    case CallGraphFocus::Mode::Neighbourhood: {
        if (focus.centre < 0 || static_cast<std::size_t>(focus.centre) >= n)
            break;
        // Breadth first over callers and callees; nearer levels first, the heaviest first in each.
        std::vector<int> level { focus.centre };
        std::vector<bool> seen(n, false);
        seen[static_cast<std::size_t>(focus.centre)] = true;
        for (int d = 0; d <= focus.depth && !level.empty() && s.shownCount < cap; ++d) {
            std::stable_sort(level.begin(), level.end(), [&](int a, int b) { return incl(a) > incl(b); });
            std::vector<int> next;
            for (int i : level) {
                if (s.shownCount >= cap)
                    break;
                show(i);
                for (const auto* list : { &in[static_cast<std::size_t>(i)], &out[static_cast<std::size_t>(i)] })
                    for (std::size_t e : *list) {
                        const int other = edges[e].from == i ? edges[e].to : edges[e].from;
                        if (!seen[static_cast<std::size_t>(other)]) {
                            seen[static_cast<std::size_t>(other)] = true;
                            next.push_back(other);
                        }
                    }
            }
            level = std::move(next);
        }
        break;
    }
    case CallGraphFocus::Mode::Hot: {
        // The heaviest caller of each routine, to connect a hot routine to the graph.
        std::vector<int> caller(n, -1);
        for (std::size_t i = 0; i < n; ++i) {
            std::size_t best = edges.size();
            for (std::size_t e : in[i])
                if (best == edges.size() || weight(e) > weight(best))
                    best = e;
            if (best != edges.size())
                caller[i] = edges[best].from;
        }
        double total = 0;
        for (std::size_t i = 0; i < n; ++i)
            total += value(exclusive, i);
        double covered = 0;
        auto add = [&](int i) {
            if (!s.shown[static_cast<std::size_t>(i)])
                covered += value(exclusive, static_cast<std::size_t>(i));
            show(i);
        };
        for (int i : s.hotPath)
            if (s.shownCount < cap)
                add(i);
        std::vector<int> byExclusive(n);
        std::iota(byExclusive.begin(), byExclusive.end(), 0);
        std::stable_sort(byExclusive.begin(), byExclusive.end(), [&](int a, int b) {
            return value(exclusive, static_cast<std::size_t>(a)) > value(exclusive, static_cast<std::size_t>(b));
        });
        std::vector<int> stamp(n, -1); // the routine whose chain a node is in
        for (int i : byExclusive) {
            if (covered >= focus.coverage * total || s.shownCount >= cap
                || value(exclusive, static_cast<std::size_t>(i)) <= 0)
                break;
            // The routine with its callers up to one already shown (or a root).
            std::vector<int> chain;
            for (int c = i; c >= 0 && !s.shown[static_cast<std::size_t>(c)] && stamp[static_cast<std::size_t>(c)] != i;
                 c = caller[static_cast<std::size_t>(c)]) {
                chain.push_back(c);
                stamp[static_cast<std::size_t>(c)] = i;
            }
            if (s.shownCount + static_cast<int>(chain.size()) > cap)
                continue; // too far from the shown part: a smaller routine may still fit
            for (int c : chain)
                add(c);
        }
        break;
    }
    }
    for (int p : focus.pinned)
        if (p >= 0 && static_cast<std::size_t>(p) < n)
            show(p);

    double total = 0;
    double covered = 0;
    for (std::size_t i = 0; i < n; ++i) {
        total += value(exclusive, i);
        if (s.shown[i])
            covered += value(exclusive, i);
    }
    s.coveredShare = total > 0 ? covered / total : std::nan("");
    return s;
}

} // namespace parallax
