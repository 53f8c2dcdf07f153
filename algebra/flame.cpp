// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/flame.h"

#include "algebra/statistics.h"

#include <QHash>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace parallax {

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

/// A node's child named `name`, or -1.
struct ChildIndex {
    QHash<QPair<int, QString>, int> map;
    int find(int parent, const QString& name) const { return map.value(qMakePair(parent, name), -1); }
    void insert(int parent, const QString& name, int node) { map.insert(qMakePair(parent, name), node); }
};

/// Adds a node under `parent` (-1: a root) named `name`, or returns the existing one.
int childFor(std::vector<FlameTree::Node>& nodes, ChildIndex& index, int parent, const QString& name, bool* created)
{
    const int existing = index.find(parent, name);
    *created = existing < 0;
    if (existing >= 0)
        return existing;
    FlameTree::Node n;
    n.name = name;
    n.parent = parent;
    const int id = static_cast<int>(nodes.size());
    nodes.push_back(n);
    index.insert(parent, name, id);
    return id;
}

} // namespace

// ---- FlameTree ----

FlameTree FlameTree::fromNodes(std::vector<Node> nodes, bool callPaths)
{
    FlameTree t;
    t.m_nodes = std::move(nodes);
    t.m_callPaths = callPaths;
    for (std::size_t i = 0; i < t.m_nodes.size(); ++i) {
        Node& n = t.m_nodes[i];
        n.children.clear();
        if (n.parent < 0) {
            n.depth = 0;
            t.m_roots.push_back(static_cast<int>(i));
        } else {
            Node& p = t.m_nodes[at(n.parent)];
            n.depth = p.depth + 1;
            p.children.push_back(static_cast<int>(i));
        }
    }
    return t;
}

FlameTree FlameTree::of(const Trial& trial, MetricId metric, FlameSource source, bool mergeRecursion)
{
    const auto callTree = CallTree::of(trial);
    const auto stats = TrialStatistics::of(trial);
    const auto& cnodes = callTree->nodes();
    const std::size_t n = cnodes.size();
    std::vector<double> incl(n, 0.0);
    std::vector<double> excl(n, 0.0);
    std::vector<bool> hasData(n, false);
    const bool validMetric = metric.isValid() && metric.index() < trial.metricCount();
    for (std::size_t i = 0; i < n && validMetric; ++i) {
        const EventId e = cnodes[i].event;
        if (!e.isValid())
            continue;
        std::optional<double> vi;
        std::optional<double> ve;
        if (source.thread.isValid()) {
            vi = threadValue(trial, *stats, source.thread, e, metric, ValueType::Inclusive);
            ve = threadValue(trial, *stats, source.thread, e, metric, ValueType::Exclusive);
        } else {
            vi = statisticValue(trial, *stats, e, metric, ValueType::Inclusive, source.statistic);
            ve = statisticValue(trial, *stats, e, metric, ValueType::Exclusive, source.statistic);
        }
        hasData[i] = vi.has_value() || ve.has_value();
        incl[i] = vi.value_or(0.0);
        excl[i] = ve.value_or(0.0);
    }
    // A synthetic node (a path prefix that is not itself an event) is the sum of its children.
    // Children have larger ids than their parents, so one backward pass adds bottom up.
    for (std::size_t i = n; i-- > 0;) {
        if (cnodes[i].event.isValid())
            continue;
        double sum = 0;
        for (int c : cnodes[i].children)
            sum += incl[at(c)];
        incl[i] = sum;
    }
    std::vector<double> own(n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        own[i] = callTree->ownValue(static_cast<int>(i), excl[i], [&](int c) -> std::optional<double> {
            return hasData[at(c)] || !cnodes[at(c)].event.isValid() ? std::optional<double>(incl[at(c)]) : std::nullopt;
        });

    std::vector<Node> nodes;
    nodes.reserve(n);
    std::vector<int> mapped(n, -1);
    ChildIndex index;
    // Call-tree nodes come parent first (CallTree creates a parent before its children).
    for (std::size_t i = 0; i < n; ++i) {
        const CallTree::Node& c = cnodes[i];
        const int parent = c.parent < 0 ? -1 : mapped[at(c.parent)];
        if (mergeRecursion && parent >= 0 && nodes[at(parent)].name == c.label) {
            mapped[i] = parent;
            nodes[at(parent)].self += own[i];
            continue;
        }
        bool created = false;
        const int id = childFor(nodes, index, parent, c.label, &created);
        Node& node = nodes[at(id)];
        if (created)
            node.event = c.event;
        else
            node.event = EventId(); // two paths merged into one node
        node.inclusive += incl[i];
        node.self += own[i];
        mapped[i] = id;
    }
    FlameTree t = fromNodes(std::move(nodes),
        std::any_of(
            trial.events().begin(), trial.events().end(), [](const IntervalEvent& e) { return e.isCallPath(); }));
    t.m_truncated = callTree->isTruncated();
    return t;
}

double FlameTree::total() const
{
    double sum = 0;
    for (int r : m_roots)
        sum += std::max(0.0, m_nodes[at(r)].inclusive);
    return sum;
}

QStringList FlameTree::path(int node) const
{
    QStringList out;
    for (int i = node; i >= 0; i = m_nodes[at(i)].parent)
        out.prepend(m_nodes[at(i)].name);
    return out;
}

// ---- layout ----

namespace {

bool nameLess(const QString& a, const QString& b)
{
    const int c = a.compare(b, Qt::CaseInsensitive);
    return c != 0 ? c < 0 : a < b;
}

} // namespace

FlameLayout layoutFlame(const FlameTree& tree, const FlameLayoutOptions& options)
{
    FlameLayout out;
    const auto& nodes = tree.nodes();
    auto widthOf = [&](int i) { return std::max(0.0, nodes[at(i)].inclusive); };
    std::vector<int> tops;
    int baseDepth = 0;
    if (options.zoom >= 0 && at(options.zoom) < nodes.size()) {
        const double w = widthOf(options.zoom);
        std::vector<int> chain;
        for (int p = nodes[at(options.zoom)].parent; p >= 0; p = nodes[at(p)].parent)
            chain.push_back(p);
        std::reverse(chain.begin(), chain.end());
        for (int c : chain) {
            FlameFrame f;
            f.node = c;
            f.parent = out.frames.empty() ? -1 : static_cast<int>(out.frames.size()) - 1;
            f.depth = baseDepth++;
            f.width = w;
            f.breadcrumb = true;
            out.frames.push_back(f);
        }
        tops.push_back(options.zoom);
        out.width = w;
    } else {
        tops = tree.roots();
        for (int r : tops)
            out.width += widthOf(r);
    }
    auto sorted = [&](std::vector<int> ids) {
        if (options.order == FlameOrder::ByName)
            std::stable_sort(
                ids.begin(), ids.end(), [&](int a, int b) { return nameLess(nodes[at(a)].name, nodes[at(b)].name); });
        else
            std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) {
                const double wa = widthOf(a);
                const double wb = widthOf(b);
                return wa != wb ? wa > wb : nameLess(nodes[at(a)].name, nodes[at(b)].name);
            });
        return ids;
    };

    // Places `ids` from x on, scaled by `scale`, under parent frame `parentFrame` at `depth`, then
    // their children breadth-wise through a work list (no recursion: trees can be deep).
    struct Pending {
        int frame;
    };
    std::vector<Pending> work;
    auto place = [&](const std::vector<int>& ids, double x, double scale, int parentFrame, int depth) {
        double sliverWidth = 0;
        int sliverCount = 0;
        for (int id : sorted(ids)) {
            const double w = widthOf(id) * scale;
            if (options.minWidth > 0 && w < options.minWidth) {
                sliverWidth += w;
                ++sliverCount;
                continue;
            }
            FlameFrame f;
            f.node = id;
            f.parent = parentFrame;
            f.depth = depth;
            f.x = x;
            f.width = w;
            x += w;
            work.push_back({ static_cast<int>(out.frames.size()) });
            out.frames.push_back(f);
        }
        if (sliverCount > 0) {
            FlameFrame f;
            f.parent = parentFrame;
            f.depth = depth;
            f.x = x;
            f.width = sliverWidth;
            f.sliver = true;
            f.merged = sliverCount;
            out.frames.push_back(f);
        }
    };
    place(tops, 0.0, 1.0, out.frames.empty() ? -1 : static_cast<int>(out.frames.size()) - 1, baseDepth);
    for (std::size_t k = 0; k < work.size(); ++k) {
        const int fi = work[k].frame;
        const FlameFrame f = out.frames[at(fi)];
        const auto& children = nodes[at(f.node)].children;
        if (children.empty())
            continue;
        double sum = 0;
        for (int c : children)
            sum += widthOf(c);
        double scale = f.node >= 0 && widthOf(f.node) > 0 ? f.width / widthOf(f.node) : 0.0;
        if (sum * scale > f.width * (1 + 1e-12)) {
            out.frames[at(fi)].childrenScaled = true;
            scale = sum > 0 ? f.width / sum : 0.0;
        }
        place(children, f.x, scale, fi, f.depth + 1);
    }
    for (const FlameFrame& f : out.frames)
        out.depth = std::max(out.depth, f.depth + 1);
    return out;
}

// ---- search ----

FlameSearchResult searchFlame(const FlameTree& tree, const QString& text, int within)
{
    return searchFlame(
        tree, [&](const QString& name) { return name.contains(text, Qt::CaseInsensitive); }, within);
}

FlameSearchResult searchFlame(const FlameTree& tree, const std::function<bool(const QString&)>& matches, int within)
{
    FlameSearchResult r;
    const auto& nodes = tree.nodes();
    std::vector<int> stack;
    double whole = 0;
    if (within >= 0 && at(within) < nodes.size()) {
        stack.push_back(within);
        whole = std::max(0.0, nodes[at(within)].inclusive);
    } else {
        stack.assign(tree.roots().rbegin(), tree.roots().rend());
        whole = tree.total();
    }
    // Depth first, with whether a match is above on the current path.
    std::vector<std::pair<int, bool>> work; // (node, under a match)
    work.reserve(stack.size());
    for (int s : stack)
        work.emplace_back(s, false);
    while (!work.empty()) {
        const auto [i, covered] = work.back();
        work.pop_back();
        const bool hit = matches(nodes[at(i)].name);
        if (hit) {
            r.nodes.push_back(i);
            if (!covered)
                r.value += std::max(0.0, nodes[at(i)].inclusive);
        }
        const auto& ch = nodes[at(i)].children;
        for (auto it = ch.rbegin(); it != ch.rend(); ++it)
            work.emplace_back(*it, covered || hit);
    }
    std::sort(r.nodes.begin(), r.nodes.end());
    r.share = whole > 0 ? r.value / whole : 0.0;
    return r;
}

// ---- folded stacks ----

QString foldedFrameName(const QString& name)
{
    QString s = name;
    s.replace(QLatin1Char(';'), QLatin1Char(':'));
    s.replace(QLatin1Char('\r'), QLatin1Char(' '));
    s.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return s;
}

QString foldedValue(double value)
{
    if (!std::isfinite(value))
        return QStringLiteral("0");
    if (value == std::floor(value) && std::fabs(value) < 9.0e15)
        return QString::number(static_cast<qint64>(value));
    QString s = QString::number(value, 'f', 6);
    while (s.endsWith(QLatin1Char('0')))
        s.chop(1);
    if (s.endsWith(QLatin1Char('.')))
        s.chop(1);
    if (s == QLatin1String("-0"))
        s = QStringLiteral("0");
    return s;
}

namespace {

/// Walks the tree depth first, children in tree order, calling `line(node, prefix)` with the
/// folded path of the node.
template <typename F> void walkFolded(const FlameTree& tree, F&& line)
{
    std::vector<std::pair<int, QString>> work;
    for (auto it = tree.roots().rbegin(); it != tree.roots().rend(); ++it)
        work.emplace_back(*it, QString());
    while (!work.empty()) {
        auto [i, prefix] = work.back();
        work.pop_back();
        const auto& n = tree.node(i);
        QString path = prefix.isEmpty() ? foldedFrameName(n.name) : prefix + QLatin1Char(';') + foldedFrameName(n.name);
        line(i, path);
        for (auto it = n.children.rbegin(); it != n.children.rend(); ++it)
            work.emplace_back(*it, path);
    }
}

} // namespace

void writeFolded(const FlameTree& tree, QTextStream& out)
{
    walkFolded(tree, [&](int i, const QString& path) {
        const double v = tree.node(i).self;
        if (v != 0 && std::isfinite(v))
            out << path << ' ' << foldedValue(v) << '\n';
    });
}

// ---- differential ----

double DiffFlameTree::deltaPercent(int node) const
{
    const double va = a(node).inclusive;
    return va != 0 ? 100.0 * (va - b(node).inclusive) / va : std::numeric_limits<double>::quiet_NaN();
}

namespace {

/// The trees of A and B for the same metric (by name) and the same source (B's thread of the same
/// (node, context, thread)); a B without that metric or thread contributes zeros.
std::pair<FlameTree, FlameTree> treesOf(const Trial& a, const Trial& b, MetricId metricA, FlameSource source)
{
    MetricId metricB;
    if (metricA.isValid() && metricA.index() < a.metricCount())
        metricB = b.findMetric(a.metric(metricA).name);
    FlameSource sourceB = source;
    if (source.thread.isValid()) // the same (node, context, thread) in B
        sourceB.thread
            = source.thread.index() < a.threadCount() ? b.findThread(a.threadKey(source.thread)) : ThreadIndex();
    const bool bThreadMissing = source.thread.isValid() && !sourceB.thread.isValid();
    FlameTree ta = FlameTree::of(a, metricA, source);
    FlameTree tb = bThreadMissing || !metricB.isValid() ? FlameTree::of(b, MetricId(), sourceB)
                                                        : FlameTree::of(b, metricB, sourceB);
    return { std::move(ta), std::move(tb) };
}

/// Remembers each name's match key (a routine's name recurs along many paths).
class KeyCache {
public:
    explicit KeyCache(const EventMatching& matching)
        : m_matching(matching)
    {
    }
    const QString& operator()(const QString& name)
    {
        auto known = m_keys.constFind(name);
        if (known == m_keys.cend()) {
            QString k = matchComponent(name, m_matching.policy);
            known = m_keys.insert(name, m_matching.rename.value(k, k));
        }
        return known.value();
    }

private:
    const EventMatching& m_matching;
    QHash<QString, QString> m_keys;
};

} // namespace

DiffFlameTree DiffFlameTree::of(const Trial& a, const Trial& b, MetricId metricA, FlameSource source,
    const EventMatching& matching, FlameWidth width)
{
    const auto [ta, tb] = treesOf(a, b, metricA, source);
    return ofTrees(ta, tb, matching, width, &a, &b);
}

DiffFlameTree DiffFlameTree::ofTrees(const FlameTree& ta, const FlameTree& tb, const EventMatching& matching,
    FlameWidth width, const Trial* a, const Trial* b)
{
    DiffFlameTree d;
    d.m_width = width;
    std::vector<FlameTree::Node> nodes;
    ChildIndex index;
    std::vector<Side> sa;
    std::vector<Side> sb;
    KeyCache keyOf(matching);
    auto merge = [&](const Trial* trial, const FlameTree& t, bool isA) {
        std::vector<int> mapped(t.nodes().size(), -1);
        std::vector<bool> dropped(t.nodes().size(), false);
        for (std::size_t i = 0; i < t.nodes().size(); ++i) {
            const auto& n = t.nodes()[i];
            if (n.parent >= 0 && dropped[at(n.parent)]) {
                dropped[i] = true;
                continue;
            }
            if (trial && matching.policy == EventMatchPolicy::Routine && n.event.isValid()
                && isDroppedByRoutine(*trial, n.event)) {
                dropped[i] = true;
                continue;
            }
            bool created = false;
            const int id = childFor(nodes, index, n.parent < 0 ? -1 : mapped[at(n.parent)], keyOf(n.name), &created);
            if (created) {
                sa.emplace_back();
                sb.emplace_back();
            }
            Side& s = isA ? sa[at(id)] : sb[at(id)];
            s.present = true;
            s.inclusive += n.inclusive;
            s.self += n.self;
            mapped[i] = id;
        }
    };
    merge(a, ta, true);
    merge(b, tb, false);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const Side& x = sa[i];
        const Side& y = sb[i];
        switch (width) {
        case FlameWidth::A:
            nodes[i].inclusive = x.inclusive;
            nodes[i].self = x.self;
            break;
        case FlameWidth::B:
            nodes[i].inclusive = y.inclusive;
            nodes[i].self = y.self;
            break;
        case FlameWidth::Max:
            nodes[i].inclusive = std::max(x.inclusive, y.inclusive);
            nodes[i].self = std::max(x.self, y.self);
            break;
        }
    }
    // Nodes were appended as they were met: a parent always before its children.
    d.m_tree = FlameTree::fromNodes(std::move(nodes), ta.hasCallPaths() || tb.hasCallPaths());
    d.m_a = std::move(sa);
    d.m_b = std::move(sb);
    return d;
}

void DiffFlameTree::writeFolded(QTextStream& out) const
{
    walkFolded(m_tree, [&](int i, const QString& path) {
        const double va = a(i).self;
        const double vb = b(i).self;
        if ((va != 0 && std::isfinite(va)) || (vb != 0 && std::isfinite(vb)))
            out << path << ' ' << foldedValue(va) << ' ' << foldedValue(vb) << '\n';
    });
}

// ---- sandwich ----

Sandwich sandwichOf(const FlameTree& tree, const QString& routine)
{
    return sandwichOf(
        tree, [&routine](const QString& name) { return name == routine; }, routine);
}

Sandwich sandwichOf(const FlameTree& tree, const std::function<bool(const QString&)>& isRoutine, const QString& routine)
{
    Sandwich s;
    s.routine = routine;
    const auto& nodes = tree.nodes();
    std::vector<FlameTree::Node> callers;
    std::vector<FlameTree::Node> callees;
    ChildIndex callerIndex;
    ChildIndex calleeIndex;
    bool created = false;
    const int callerRoot = childFor(callers, callerIndex, -1, routine, &created);
    const int calleeRoot = childFor(callees, calleeIndex, -1, routine, &created);
    double outermostSelf = 0;
    // Depth first with the number of occurrences of the routine above (recursion).
    std::vector<std::pair<int, int>> work; // (node, occurrences above)
    for (auto it = tree.roots().rbegin(); it != tree.roots().rend(); ++it)
        work.emplace_back(*it, 0);
    while (!work.empty()) {
        const auto [i, above] = work.back();
        work.pop_back();
        const auto& n = nodes[at(i)];
        const bool hit = isRoutine(n.name);
        if (hit) {
            ++s.occurrences;
            s.self += n.self;
            if (above == 0) {
                s.inclusive += n.inclusive;
                outermostSelf += n.self;
                // Callers: walk up, the routine's inclusive reaching each caller chain.
                int into = callerRoot;
                for (int p = n.parent; p >= 0; p = nodes[at(p)].parent) {
                    into = childFor(callers, callerIndex, into, nodes[at(p)].name, &created);
                    callers[at(into)].inclusive += n.inclusive;
                }
                // Callees: the occurrence's subtree merged by name path under the root.
                std::vector<std::pair<int, int>> sub; // (tree node, callee node)
                for (int c : n.children)
                    sub.emplace_back(c, calleeRoot);
                while (!sub.empty()) {
                    const auto [ti, parent] = sub.back();
                    sub.pop_back();
                    const int ci = childFor(callees, calleeIndex, parent, nodes[at(ti)].name, &created);
                    callees[at(ci)].inclusive += nodes[at(ti)].inclusive;
                    callees[at(ci)].self += nodes[at(ti)].self;
                    for (int c : nodes[at(ti)].children)
                        sub.emplace_back(c, ci);
                }
            }
        }
        for (auto it = n.children.rbegin(); it != n.children.rend(); ++it)
            work.emplace_back(*it, above + (hit ? 1 : 0));
    }
    if (s.occurrences == 0)
        return s;
    callers[at(callerRoot)].inclusive = s.inclusive;
    callees[at(calleeRoot)].inclusive = s.inclusive;
    // The callees' root keeps the outermost occurrences' own values (nested ones are its children).
    callees[at(calleeRoot)].self = outermostSelf;
    // The callers' own values: what reached a caller chain and ends there (no further caller).
    std::vector<double> up(callers.size(), 0.0);
    for (const auto& c : callers)
        if (c.parent >= 0)
            up[at(c.parent)] += c.inclusive;
    for (std::size_t i = 0; i < callers.size(); ++i)
        callers[i].self = callers[i].inclusive - up[i];
    s.callers = FlameTree::fromNodes(std::move(callers));
    s.callees = FlameTree::fromNodes(std::move(callees));
    return s;
}

DiffSandwich diffSandwichOf(const Trial& a, const Trial& b, MetricId metricA, const QString& key, FlameSource source,
    const EventMatching& matching, FlameWidth width)
{
    const auto [ta, tb] = treesOf(a, b, metricA, source);
    KeyCache keyOf(matching);
    auto isRoutine = [&](const QString& name) { return keyOf(name) == key; };
    DiffSandwich d;
    d.routine = key;
    d.a = sandwichOf(ta, isRoutine, key);
    d.b = sandwichOf(tb, isRoutine, key);
    d.callers = DiffFlameTree::ofTrees(d.a.callers, d.b.callers, matching, width);
    d.callees = DiffFlameTree::ofTrees(d.a.callees, d.b.callees, matching, width);
    return d;
}

} // namespace parallax
