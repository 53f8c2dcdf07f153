// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/cubespace.h"

#include "algebra/calltree.h"
#include "algebra/enumnames.h"
#include "algebra/parallelfor.h"

#include <QHash>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax {

namespace {

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

struct ModeEntry {
    CubeMode mode;
    const char* name;
    const char* label;
};

constexpr std::array<ModeEntry, 11> Modes { {
    { CubeMode::Absolute, "absolute", "Absolute" },
    { CubeMode::OwnRoot, "ownroot", "Own root %" },
    { CubeMode::MetricRoot, "metricroot", "Metric root %" },
    { CubeMode::MetricSelection, "metricselection", "Metric selection %" },
    { CubeMode::CallRoot, "callroot", "Call root %" },
    { CubeMode::CallSelection, "callselection", "Call selection %" },
    { CubeMode::SystemRoot, "systemroot", "System root %" },
    { CubeMode::SystemSelection, "systemselection", "System selection %" },
    { CubeMode::Peer, "peer", "Peer %" },
    { CubeMode::PeerDistribution, "peerdistribution", "Peer distribution" },
    { CubeMode::External, "external", "External %" },
} };

constexpr std::array<EnumName<CubePane>, 3> PaneNames { {
    { CubePane::Metric, "metric" },
    { CubePane::Call, "call" },
    { CubePane::System, "system" },
} };

/// System tree levels, outermost first.
enum Level : std::uint8_t { Machine, Node, Process, Context, Location };
const char* const LevelNames[] = { "machine", "node", "process", "context", "thread" };

/// A pane's contribution as a linear functional over the trial's cells.
struct MetricWeights {
    std::vector<double> mu; ///< by model metric
    /// Whether the selection holds a metric (not only folders): else nothing is measured and the
    /// other panes have no value (docs/SEMANTICS.md §6 [D]).
    bool any = false;
};
struct CallWeights {
    std::vector<double> excl; ///< by event: weight on the exclusive value
    std::vector<double> incl; ///< by event: weight on the inclusive value
    std::vector<EventId> events; ///< the events with a non-zero weight
};
struct SystemWeights {
    std::vector<double> sigma; ///< by thread
};

} // namespace

QString cubeModeName(CubeMode mode) { return QString::fromLatin1(Modes[static_cast<std::size_t>(mode)].name); }

QString cubeModeLabel(CubeMode mode) { return QString::fromLatin1(Modes[static_cast<std::size_t>(mode)].label); }

std::optional<CubeMode> cubeModeFromName(const QString& name)
{
    for (const ModeEntry& m : Modes)
        if (name.compare(QLatin1String(m.name), Qt::CaseInsensitive) == 0
            || name.compare(QLatin1String(m.label), Qt::CaseInsensitive) == 0)
            return m.mode;
    return std::nullopt;
}

QStringList cubeModeNames()
{
    QStringList names;
    for (const ModeEntry& m : Modes)
        names << QString::fromLatin1(m.name);
    return names;
}

QString cubePaneName(CubePane pane) { return enumName(PaneNames, pane); }

std::optional<CubePane> cubePaneFromName(const QString& name)
{
    return enumFromName(PaneNames, name, Qt::CaseInsensitive);
}

// ---------------------------------------------------------------------------------------------
// The trees

CubeSpace::CubeSpace(TrialPtr trial, CallView callView)
    : m_trial(std::move(trial))
    , m_callView(callView)
    , m_tree(CallTree::of(*m_trial))
{
    buildMetricTree();
    buildCallTree();
    buildSystemTree();
    for (const CubePane p : { CubePane::Metric, CubePane::Call, CubePane::System })
        finish(p);

    computeRootTotals();
}

int CubeSpace::addItem(CubePane pane, int parent, int ref)
{
    auto& items = m_items[index(pane)];
    const int id = static_cast<int>(items.size());
    Item item;
    item.parent = parent;
    item.ref = ref;
    if (parent >= 0) {
        item.depth = items[static_cast<std::size_t>(parent)].depth + 1;
        items[static_cast<std::size_t>(parent)].children.push_back(id);
    } else {
        m_roots[index(pane)].push_back(id);
    }
    items.push_back(std::move(item));
    return id;
}

void CubeSpace::buildMetricTree()
{
    const Trial& t = *m_trial;
    m_metricInfo.assign(t.metricCount(), MetricInfo {});
    // Parents from the CUBE reader's metadata: "uniq_name U; parent P; type T; dtype D; uom X;
    // val V; url L; description" (docs/FORMATS.md 5). The description is the rest.
    std::vector<int> parentOf(t.metricCount(), -1);
    for (std::size_t m = 0; m < t.metricCount(); ++m) {
        const QString text = t.metadataValue(QStringLiteral("CUBE metric ") + t.metrics()[m].name);
        if (text.isNull())
            continue;
        MetricInfo& info = m_metricInfo[m];
        const QStringList parts = text.split(QStringLiteral("; "));
        qsizetype k = 0;
        auto take = [&](const char* key, QString* out) {
            const QString prefix = QLatin1String(key) + QLatin1Char(' ');
            if (k < parts.size() && (parts[k].startsWith(prefix) || parts[k] == QLatin1String(key))) {
                if (out)
                    *out = parts[k].mid(prefix.size());
                ++k;
                return true;
            }
            return false;
        };
        take("uniq_name", &info.uniqueName);
        QString parent;
        if (take("parent", &parent)) {
            const MetricId p = t.findMetric(parent);
            if (p.isValid() && p.index() != m)
                parentOf[m] = static_cast<int>(p.index());
        }
        take("type", &info.kind);
        take("dtype", nullptr);
        take("uom", nullptr);
        take("val", nullptr);
        take("url", &info.url);
        info.description = parts.mid(k).join(QStringLiteral("; "));
    }
    // A parent must come before its children and the parent chain must end: metrics are added
    // depth first from the roots; a metric on a cycle (a broken file) becomes a root.
    std::vector<std::vector<int>> children(t.metricCount());
    std::vector<int> roots;
    std::vector<int> derived;
    for (std::size_t m = 0; m < t.metricCount(); ++m) {
        int p = parentOf[m];
        for (std::size_t steps = 0; p >= 0 && steps <= t.metricCount(); ++steps)
            p = parentOf[static_cast<std::size_t>(p)];
        if (p >= 0)
            parentOf[m] = -1; // on a cycle
    }
    for (std::size_t m = 0; m < t.metricCount(); ++m) {
        if (parentOf[m] >= 0)
            children[static_cast<std::size_t>(parentOf[m])].push_back(static_cast<int>(m));
        else if (t.metrics()[m].derived)
            derived.push_back(static_cast<int>(m));
        else
            roots.push_back(static_cast<int>(m));
    }
    auto add = [&](int parentItem, int m, auto&& self) -> void {
        const int id = addItem(CubePane::Metric, parentItem, m);
        for (int c : children[static_cast<std::size_t>(m)])
            self(id, c, self);
    };
    for (int m : roots)
        add(-1, m, add);
    if (!derived.empty()) {
        const int folder = addItem(CubePane::Metric, -1, -1);
        for (int m : derived)
            add(folder, m, add);
    }
}

void CubeSpace::buildCallTree()
{
    const Trial& t = *m_trial;
    m_itemOfEvent.assign(t.eventCount(), -1);
    if (m_callView == CallView::Tree) {
        // Items are the call tree's nodes, in its order (a parent always precedes its children).
        for (std::size_t n = 0; n < m_tree->nodes().size(); ++n) {
            const CallTree::Node& node = m_tree->nodes()[n];
            addItem(CubePane::Call, node.parent, static_cast<int>(n));
            if (node.event.isValid())
                m_itemOfEvent[node.event.index()] = static_cast<int>(n);
        }
        // The deeper occurrences of each root's region (not in a depth-limited tree, whose nodes
        // are suffixes rather than rooted paths).
        const auto& nodes = m_tree->nodes();
        m_deeperOutermost.resize(nodes.size());
        m_deeperAll.resize(nodes.size());
        if (m_tree->isTruncated())
            return;
        QHash<QString, int> rootOfLabel;
        for (int r : m_tree->roots())
            if (nodes[static_cast<std::size_t>(r)].event.isValid())
                rootOfLabel.insert(nodes[static_cast<std::size_t>(r)].label, r);
        for (std::size_t n = 0; n < nodes.size(); ++n) {
            const CallTree::Node& node = nodes[n];
            if (node.parent < 0 || !node.event.isValid())
                continue;
            const auto it = rootOfLabel.constFind(node.label);
            if (it == rootOfLabel.cend())
                continue;
            const auto root = static_cast<std::size_t>(it.value());
            m_deeperAll[root].push_back(static_cast<int>(n));
            bool outermost = true;
            for (int p = node.parent; p >= 0 && outermost; p = nodes[static_cast<std::size_t>(p)].parent)
                outermost = nodes[static_cast<std::size_t>(p)].label != node.label;
            if (outermost)
                m_deeperOutermost[root].push_back(static_cast<int>(n));
        }
        return;
    }
    for (std::size_t e = 0; e < t.eventCount(); ++e)
        if (!t.events()[e].isCallPath())
            m_itemOfEvent[e] = addItem(CubePane::Call, -1, static_cast<int>(e));
}

void CubeSpace::buildSystemTree()
{
    const Trial& t = *m_trial;
    const std::size_t n = t.threadCount();
    m_itemOfThread.assign(n, -1);
    bool contexts = false;
    for (const ThreadKey& k : t.threads())
        contexts = contexts || k.context != 0;

    // Groups above the process: the CUBE system tree path ("class: name | class: name ..."), else
    // the host name a TAU or mpiP profile records.
    const QString pathKey = QStringLiteral("CUBE system path");
    const QString hostKey = QStringLiteral("Hostname");
    QHash<QString, int> groups; // "<parent item>\x1f<name>" -> item
    auto group = [&](int parent, const QString& label, std::uint8_t level) {
        const QString key = QString::number(parent) + QChar(0x1f) + label;
        const auto it = groups.constFind(key);
        if (it != groups.cend())
            return it.value();
        const int id = addItem(CubePane::System, parent, -1);
        m_groupLabels.resize(static_cast<std::size_t>(id) + 1);
        m_systemLevel.resize(static_cast<std::size_t>(id) + 1);
        m_groupLabels[static_cast<std::size_t>(id)] = label;
        m_systemLevel[static_cast<std::size_t>(id)] = level;
        groups.insert(key, id);
        return id;
    };
    for (std::size_t i = 0; i < n; ++i) {
        const ThreadIndex th(i);
        const ThreadKey& key = t.threadKey(th);
        int parent = -1;
        const QString path = t.metadataValue(pathKey, th);
        if (!path.isEmpty()) {
            const QStringList parts = path.split(QStringLiteral(" | "));
            for (const QString& part : parts) {
                const qsizetype colon = part.indexOf(QLatin1String(": "));
                const QString cls = colon < 0 ? QString() : part.left(colon);
                const QString name = colon < 0 ? part : part.mid(colon + 2);
                parent = group(parent, name, cls == QLatin1String("machine") ? Machine : Node);
            }
        } else {
            // One machine above everything, as in CUBE, so the system pane has one root.
            parent = group(parent, t.name().isEmpty() ? QStringLiteral("machine") : t.name(), Machine);
            const QString host = t.metadataValue(hostKey, th);
            if (!host.isEmpty())
                parent = group(parent, host, Node);
        }
        QString process = t.metadataValue(QStringLiteral("CUBE process"), th);
        if (process.isEmpty())
            process = QStringLiteral("rank %1").arg(key.node);
        parent = group(parent, process + QChar(0x1e) + QString::number(key.node), Process);
        if (contexts)
            parent = group(parent, QStringLiteral("context %1").arg(key.context), Context);
        const int id = addItem(CubePane::System, parent, static_cast<int>(i));
        m_groupLabels.resize(static_cast<std::size_t>(id) + 1);
        m_systemLevel.resize(static_cast<std::size_t>(id) + 1);
        m_systemLevel[static_cast<std::size_t>(id)] = Location;
        m_itemOfThread[i] = id;
    }
    // Process labels carried their rank to keep equal names apart; drop it.
    for (QString& label : m_groupLabels) {
        const qsizetype sep = label.indexOf(QChar(0x1e));
        if (sep >= 0)
            label.truncate(sep);
    }
}

void CubeSpace::finish(CubePane pane)
{
    auto& levels = m_levels[index(pane)];
    for (std::size_t i = 0; i < m_items[index(pane)].size(); ++i) {
        const int d = m_items[index(pane)][i].depth;
        if (levels.size() <= static_cast<std::size_t>(d))
            levels.resize(static_cast<std::size_t>(d) + 1);
        levels[static_cast<std::size_t>(d)].push_back(static_cast<int>(i));
    }
}

QString CubeSpace::label(CubePane pane, int i) const
{
    const Item& it = item(pane, i);
    switch (pane) {
    case CubePane::Metric:
        return it.ref < 0 ? QStringLiteral("Derived") : m_trial->metrics()[static_cast<std::size_t>(it.ref)].name;
    case CubePane::Call:
        if (m_callView == CallView::Flat)
            return m_trial->events()[static_cast<std::size_t>(it.ref)].name;
        return m_tree->nodes()[static_cast<std::size_t>(it.ref)].label;
    case CubePane::System:
        if (it.ref < 0)
            return m_groupLabels[static_cast<std::size_t>(i)];
        {
            const ThreadIndex th(static_cast<std::size_t>(it.ref));
            const QString name = m_trial->metadataValue(QStringLiteral("CUBE thread"), th);
            const ThreadKey& k = m_trial->threadKey(th);
            return (name.isEmpty() ? QStringLiteral("thread %1").arg(k.thread) : name)
                + QStringLiteral(" (%1)").arg(k.toString());
        }
    }
    return {};
}

QString CubeSpace::path(CubePane pane, int i) const
{
    const Item& it = item(pane, i);
    if (pane == CubePane::Call && m_callView == CallView::Tree) {
        const CallTree::Node& n = m_tree->nodes()[static_cast<std::size_t>(it.ref)];
        if (n.event.isValid())
            return m_trial->event(n.event).name;
        QStringList parts;
        for (int p = i; p >= 0; p = item(pane, p).parent)
            parts.prepend(m_tree->nodes()[static_cast<std::size_t>(item(pane, p).ref)].label);
        return parts.join(QStringLiteral(" => "));
    }
    if (pane == CubePane::System && it.ref >= 0)
        return m_trial->threadKey(ThreadIndex(static_cast<std::size_t>(it.ref))).toString();
    return label(pane, i);
}

QString CubeSpace::systemLevel(int i) const
{
    return QString::fromLatin1(LevelNames[m_systemLevel[static_cast<std::size_t>(i)]]);
}

int CubeSpace::rootOf(CubePane pane, int i) const
{
    while (item(pane, i).parent >= 0)
        i = item(pane, i).parent;
    return i;
}

int CubeSpace::find(CubePane pane, const QString& name) const
{
    for (int i = 0; i < static_cast<int>(size(pane)); ++i)
        if (path(pane, i) == name)
            return i;
    for (int i = 0; i < static_cast<int>(size(pane)); ++i)
        if (label(pane, i) == name)
            return i;
    return -1;
}

CubeSpace::RegionInfo CubeSpace::regionInfo(int callItem) const
{
    RegionInfo r;
    const QString name = label(CubePane::Call, callItem);
    const int ref = item(CubePane::Call, callItem).ref;
    EventId e;
    if (m_callView == CallView::Flat)
        e = EventId(static_cast<std::size_t>(ref));
    else
        e = m_tree->nodes()[static_cast<std::size_t>(ref)].event;
    const QStringList groups = e.isValid() ? m_trial->groupNames(m_trial->event(e)) : QStringList();
    auto inGroup = [&](const char* g) { return groups.contains(QLatin1String(g)); };
    if (CallTree::isSampleLabel(name))
        r.kind = QStringLiteral("sample");
    else if (name.startsWith(QLatin1String("Loop:")))
        r.kind = QStringLiteral("loop");
    else if (inGroup("TAU_PHASE"))
        r.kind = QStringLiteral("phase");
    else if (inGroup("TAU_PARAM") || (name.contains(QLatin1String(" [ ")) && name.endsWith(QLatin1String(" ]"))))
        r.kind = QStringLiteral("parameter");
    else if (name.startsWith(QLatin1String("MPI_")) || inGroup("MPI"))
        r.kind = QStringLiteral("MPI");
    else if (name.startsWith(QLatin1String("OpenMP_")) || name.startsWith(QLatin1String("!$omp")) || inGroup("OpenMP"))
        r.kind = QStringLiteral("OpenMP");
    else if (inGroup("TAU_IO") || name.startsWith(QLatin1String("read(")) || name.startsWith(QLatin1String("write(")))
        r.kind = QStringLiteral("I/O");
    else
        r.kind = QStringLiteral("function");
    // TAU: "name [{file} {line,col}-{line,col}]" or "[{file} {line}]"; CUBE/OPARI: "... @file:line".
    static const QRegularExpression tau(QStringLiteral(R"(\[\{([^}]*)\}\s*\{(\d+))"));
    static const QRegularExpression opari(QStringLiteral(R"(@([^\s:@]+):(\d+))"));
    if (const auto m = tau.match(name); m.hasMatch()) {
        r.file = m.captured(1);
        r.line = m.captured(2).toInt();
    } else if (const auto o = opari.match(name); o.hasMatch()) {
        r.file = o.captured(1);
        r.line = o.captured(2).toInt();
    }
    return r;
}

const std::vector<int>& CubeSpace::deeperOutermost(int item) const
{
    static const std::vector<int> none;
    return static_cast<std::size_t>(item) < m_deeperOutermost.size() ? m_deeperOutermost[static_cast<std::size_t>(item)]
                                                                     : none;
}

const std::vector<int>& CubeSpace::deeperAll(int item) const
{
    static const std::vector<int> none;
    return static_cast<std::size_t>(item) < m_deeperAll.size() ? m_deeperAll[static_cast<std::size_t>(item)] : none;
}

int CubeSpace::itemOfThread(ThreadIndex t) const
{
    return t.index() < m_itemOfThread.size() ? m_itemOfThread[t.index()] : -1;
}

int CubeSpace::itemOfEvent(EventId e) const { return e.index() < m_itemOfEvent.size() ? m_itemOfEvent[e.index()] : -1; }

double CubeSpace::metricRootTotal(MetricId m) const
{
    if (!m.isValid() || m.index() >= m_rootTotals.size())
        return NaN;
    // The root of the metric's tree.
    for (std::size_t i = 0; i < size(CubePane::Metric); ++i) {
        if (m_items[0][i].ref != static_cast<int>(m.index()))
            continue;
        const int root = m_items[0][static_cast<std::size_t>(rootOf(CubePane::Metric, static_cast<int>(i)))].ref;
        return root < 0 ? NaN : m_rootTotals[static_cast<std::size_t>(root)];
    }
    return NaN;
}

double CubeSpace::metricRootTotal(const QString& metricName) const
{
    return metricRootTotal(m_trial->findMetric(metricName));
}

// ---------------------------------------------------------------------------------------------
// State

void CubePaneState::setExpanded(int i, bool on)
{
    if (static_cast<std::size_t>(i) >= expanded.size()) {
        if (!on)
            return;
        expanded.resize(static_cast<std::size_t>(i) + 1, 0);
    }
    expanded[static_cast<std::size_t>(i)] = on ? 1 : 0;
}

int CubeState::position(CubePane p) const
{
    for (int k = 0; k < 3; ++k)
        if (order[static_cast<std::size_t>(k)] == p)
            return k;
    return 0;
}

CubeState CubeState::defaults(const CubeSpace& space)
{
    CubeState s;
    if (!space.roots(CubePane::Metric).empty())
        s.pane(CubePane::Metric).selected = { space.roots(CubePane::Metric).front() };
    if (!space.roots(CubePane::Call).empty())
        s.pane(CubePane::Call).selected = { space.roots(CubePane::Call).front() };
    s.pane(CubePane::System).selected = space.roots(CubePane::System);
    return s;
}

// ---------------------------------------------------------------------------------------------
// Values

namespace {

/// The metric functional of a selection: collapsed = the metric, expanded = the metric less its
/// children (values are inclusive along the metric tree, docs/FORMATS.md 5.1).
MetricWeights metricWeights(const CubeSpace& s, const CubePaneState& st)
{
    MetricWeights w;
    w.mu.assign(s.trial().metricCount(), 0.0);
    auto add = [&](int i, bool expanded, double coef, auto&& self) -> void {
        const CubeSpace::Item& it = s.item(CubePane::Metric, i);
        if (it.ref < 0) // a folder ("Derived"): its metrics have units of their own, no sum
            return;
        w.any = true;
        w.mu[static_cast<std::size_t>(it.ref)] += coef;
        if (expanded)
            for (int c : it.children)
                self(c, false, -coef, self);
    };
    for (int i : st.selected)
        add(i, st.isExpanded(i), 1.0, add);
    return w;
}

/// The call functional: collapsed = inclusive (a synthetic node: its children's), expanded = own
/// value (exclusive less the sampled breakdown, docs/SEMANTICS.md 6.1). `all` = every item's own
/// value, which is the roots' inclusive sum in a consistent tree and the exclusive total of a flat one.
CallWeights callWeights(const CubeSpace& s, const CubePaneState* st)
{
    const Trial& t = s.trial();
    CallWeights w;
    w.excl.assign(t.eventCount(), 0.0);
    w.incl.assign(t.eventCount(), 0.0);
    const bool flat = s.callView() == CubeSpace::CallView::Flat;
    const auto& nodes = s.callTree().nodes();
    auto add = [&](int i, bool expanded, double coef, auto&& self) -> void {
        const CubeSpace::Item& it = s.item(CubePane::Call, i);
        if (flat) {
            (expanded ? w.excl : w.incl)[static_cast<std::size_t>(it.ref)] += coef;
            return;
        }
        const CallTree::Node& n = nodes[static_cast<std::size_t>(it.ref)];
        if (!n.event.isValid()) {
            if (!expanded)
                for (int c : it.children)
                    self(c, false, coef, self);
            return;
        }
        auto eventOf
            = [&](int item) { return nodes[static_cast<std::size_t>(s.item(CubePane::Call, item).ref)].event.index(); };
        if (!expanded) {
            w.incl[n.event.index()] += coef;
            for (int d : s.deeperOutermost(i))
                w.incl[eventOf(d)] -= coef;
            return;
        }
        w.excl[n.event.index()] += coef;
        for (int d : s.deeperAll(i))
            w.excl[eventOf(d)] -= coef;
        for (int c : it.children)
            if (nodes[static_cast<std::size_t>(s.item(CubePane::Call, c).ref)].sampleBreakdown)
                self(c, false, -coef, self);
    };
    if (st) {
        for (int i : st->selected)
            add(i, st->isExpanded(i), 1.0, add);
    } else {
        for (int i = 0; i < static_cast<int>(s.size(CubePane::Call)); ++i)
            add(i, true, 1.0, add);
    }
    for (std::size_t e = 0; e < t.eventCount(); ++e)
        if (w.excl[e] != 0 || w.incl[e] != 0)
            w.events.emplace_back(e);
    return w;
}

SystemWeights systemWeights(const CubeSpace& s, const CubePaneState* st)
{
    SystemWeights w;
    w.sigma.assign(s.trial().threadCount(), st ? 0.0 : 1.0);
    if (!st)
        return w;
    auto add = [&](int i, bool expanded, auto&& self) -> void {
        const CubeSpace::Item& it = s.item(CubePane::System, i);
        if (it.ref >= 0) {
            w.sigma[static_cast<std::size_t>(it.ref)] += 1.0;
            return;
        }
        if (!expanded)
            for (int c : it.children)
                self(c, false, self);
    };
    for (int i : st->selected)
        add(i, st->isExpanded(i), add);
    return w;
}

/// Σ over a thread's cells of metric m of the call weights times the values.
double cellSum(const RowView& row, std::size_t m, const CallWeights& cw)
{
    double sum = 0;
    for (std::size_t i = 0; i < row.size(); ++i) {
        const std::size_t e = row.events[i].index();
        const double we = cw.excl[e];
        const double wi = cw.incl[e];
        if (we != 0)
            sum += we * row.exclusive(m, i);
        if (wi != 0)
            sum += wi * row.inclusive(m, i);
    }
    return sum;
}

/// Σ over a thread's cells of the call weights times the metric weights. A selection of a few call
/// paths looks their cells up (binary search) instead of reading the whole row.
double threadValue(const RowView& row, const MetricWeights& mw, const CallWeights& cw)
{
    double v = 0;
    if (cw.events.size() * 16 < row.size()) {
        for (const EventId e : cw.events) {
            const std::ptrdiff_t i = row.find(e);
            if (i < 0)
                continue;
            const auto k = static_cast<std::size_t>(i);
            for (std::size_t m = 0; m < mw.mu.size(); ++m)
                if (mw.mu[m] != 0)
                    v += mw.mu[m]
                        * (cw.excl[e.index()] * row.exclusive(m, k) + cw.incl[e.index()] * row.inclusive(m, k));
        }
        return v;
    }
    for (std::size_t m = 0; m < mw.mu.size(); ++m)
        if (mw.mu[m] != 0)
            v += mw.mu[m] * cellSum(row, m, cw);
    return v;
}

constexpr std::size_t ThreadBlock = 256;

} // namespace

void CubeSpace::computeRootTotals()
{
    // V(metric; all call paths; all threads) for every metric: the references of Metric root % and
    // External %.
    const Trial& t = *m_trial;
    const CallWeights cw = callWeights(*this, nullptr);
    const std::size_t nMetrics = t.metricCount();
    std::vector<std::vector<double>> partial(parallelWorkers(t.threadCount(), ThreadBlock, 0));
    parallelFor(t.threadCount(), ThreadBlock, 0, [&](std::size_t begin, std::size_t end, std::size_t worker) {
        auto& b = partial[worker];
        b.resize(nMetrics, 0.0);
        for (std::size_t th = begin; th < end; ++th) {
            const RowView row = t.row(ThreadIndex(th));
            for (std::size_t m = 0; m < nMetrics; ++m)
                b[m] += cellSum(row, m, cw);
        }
    });
    m_rootTotals.assign(nMetrics, 0.0);
    for (const auto& p : partial)
        for (std::size_t m = 0; m < p.size(); ++m)
            m_rootTotals[m] += p[m];
}

namespace {

/// Whether a pane's contribution as an input of the others is the same in both states: its
/// selection, and the expansion state of each selected item.
bool sameSelection(const CubeState& a, const CubeState& b, CubePane p)
{
    const CubePaneState& x = a.pane(p);
    const CubePaneState& y = b.pane(p);
    if (x.selected != y.selected)
        return false;
    for (int i : x.selected)
        if (x.isExpanded(i) != y.isExpanded(i))
            return false;
    return true;
}

} // namespace

bool cubePaneInputsEqual(const CubeState& a, const CubeState& b, CubePane pane)
{
    if (a.order != b.order)
        return false;
    // The metric selection is an input of every pane (docs/SEMANTICS.md §6 [D]); the call and system
    // selections of the panes left of this one.
    if (pane != CubePane::Metric && !sameSelection(a, b, CubePane::Metric))
        return false;
    for (const CubePane p : { CubePane::Call, CubePane::System })
        if (p != pane && a.position(p) < a.position(pane) && !sameSelection(a, b, p))
            return false;
    return true;
}

CubeValues computeCube(
    const CubeSpace& space, const CubeState& state, const CubeValues* previous, const CubeState* previousState)
{
    auto reuse = [&](CubePane p) {
        return previous && previousState && cubePaneInputsEqual(state, *previousState, p)
            && previous->inclusive[CubeSpace::index(p)].size() == space.size(p);
    };
    const Trial& t = space.trial();
    CubeValues out;
    const MetricWeights mw = metricWeights(space, state.pane(CubePane::Metric));
    auto callFor = [&](CubePane target) {
        return state.position(CubePane::Call) < state.position(target) ? callWeights(space, &state.pane(CubePane::Call))
                                                                       : callWeights(space, nullptr);
    };
    auto systemFor = [&](CubePane target) {
        return state.position(CubePane::System) < state.position(target)
            ? systemWeights(space, &state.pane(CubePane::System))
            : systemWeights(space, nullptr);
    };
    const std::size_t nThreads = t.threadCount();
    const std::size_t nMetrics = t.metricCount();
    const std::size_t nEvents = t.eventCount();

    // Metric pane: B[m] = Σ_t σ_t Σ_cells (call weights · value of m).
    if (reuse(CubePane::Metric)) {
        out.inclusive[0] = previous->inclusive[0];
        out.exclusive[0] = previous->exclusive[0];
    } else {
        const CallWeights cw = callFor(CubePane::Metric);
        const SystemWeights sw = systemFor(CubePane::Metric);
        std::vector<std::vector<double>> partial(parallelWorkers(nThreads, ThreadBlock, 0));
        parallelFor(nThreads, ThreadBlock, 0, [&](std::size_t begin, std::size_t end, std::size_t worker) {
            auto& b = partial[worker];
            b.resize(nMetrics, 0.0);
            for (std::size_t th = begin; th < end; ++th) {
                if (sw.sigma[th] == 0)
                    continue;
                const RowView row = t.row(ThreadIndex(th));
                for (std::size_t m = 0; m < nMetrics; ++m)
                    b[m] += sw.sigma[th] * cellSum(row, m, cw);
            }
        });
        std::vector<double> b(nMetrics, 0.0);
        for (const auto& p : partial)
            for (std::size_t m = 0; m < p.size(); ++m)
                b[m] += p[m];
        const auto& items = space.items(CubePane::Metric);
        auto& incl = out.inclusive[0];
        auto& excl = out.exclusive[0];
        incl.assign(items.size(), NaN);
        excl.assign(items.size(), NaN);
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (items[i].ref < 0)
                continue;
            incl[i] = b[static_cast<std::size_t>(items[i].ref)];
            double own = incl[i];
            for (int c : items[i].children)
                if (items[static_cast<std::size_t>(c)].ref >= 0)
                    own -= b[static_cast<std::size_t>(items[static_cast<std::size_t>(c)].ref)];
            excl[i] = own;
        }
    }

    // Call pane: per event, Σ_t σ_t Σ_m μ_m (excl, incl).
    if (reuse(CubePane::Call)) {
        out.inclusive[1] = previous->inclusive[1];
        out.exclusive[1] = previous->exclusive[1];
    } else {
        const SystemWeights sw = systemFor(CubePane::Call);
        const std::size_t workers = parallelWorkers(nThreads, ThreadBlock, 0);
        std::vector<std::vector<double>> pe(workers);
        std::vector<std::vector<double>> pi(workers);
        parallelFor(nThreads, ThreadBlock, 0, [&](std::size_t begin, std::size_t end, std::size_t worker) {
            auto& se = pe[worker];
            auto& si = pi[worker];
            se.resize(nEvents, 0.0);
            si.resize(nEvents, 0.0);
            for (std::size_t th = begin; th < end; ++th) {
                const double sigma = sw.sigma[th];
                if (sigma == 0)
                    continue;
                const RowView row = t.row(ThreadIndex(th));
                for (std::size_t m = 0; m < nMetrics; ++m) {
                    const double mu = mw.mu[m] * sigma;
                    if (mu == 0)
                        continue;
                    for (std::size_t i = 0; i < row.size(); ++i) {
                        const std::size_t e = row.events[i].index();
                        se[e] += mu * row.exclusive(m, i);
                        si[e] += mu * row.inclusive(m, i);
                    }
                }
            }
        });
        std::vector<double> se(nEvents, 0.0);
        std::vector<double> si(nEvents, 0.0);
        for (std::size_t w = 0; w < workers; ++w)
            for (std::size_t e = 0; e < pe[w].size(); ++e) {
                se[e] += pe[w][e];
                si[e] += pi[w][e];
            }
        const auto& items = space.items(CubePane::Call);
        auto& incl = out.inclusive[1];
        auto& excl = out.exclusive[1];
        incl.assign(items.size(), 0.0);
        excl.assign(items.size(), 0.0);
        if (space.callView() == CubeSpace::CallView::Flat) {
            for (std::size_t i = 0; i < items.size(); ++i) {
                incl[i] = si[static_cast<std::size_t>(items[i].ref)];
                excl[i] = se[static_cast<std::size_t>(items[i].ref)];
            }
        } else {
            const auto& nodes = space.callTree().nodes();
            // Children follow their parents, so a reverse walk sees every child first.
            for (std::size_t i = items.size(); i-- > 0;) {
                const CallTree::Node& n = nodes[static_cast<std::size_t>(items[i].ref)];
                if (!n.event.isValid()) {
                    for (int c : items[i].children)
                        incl[i] += incl[static_cast<std::size_t>(c)];
                    continue;
                }
                incl[i] = si[n.event.index()];
                double own = se[n.event.index()];
                for (int d : space.deeperOutermost(static_cast<int>(i)))
                    incl[i]
                        -= si[nodes[static_cast<std::size_t>(items[static_cast<std::size_t>(d)].ref)].event.index()];
                for (int d : space.deeperAll(static_cast<int>(i)))
                    own -= se[nodes[static_cast<std::size_t>(items[static_cast<std::size_t>(d)].ref)].event.index()];
                for (int c : items[i].children)
                    if (nodes[static_cast<std::size_t>(items[static_cast<std::size_t>(c)].ref)].sampleBreakdown)
                        own -= incl[static_cast<std::size_t>(c)];
                excl[i] = own;
            }
        }
    }

    // System pane: per thread.
    if (reuse(CubePane::System)) {
        out.inclusive[2] = previous->inclusive[2];
        out.exclusive[2] = previous->exclusive[2];
    } else {
        const CallWeights cw = callFor(CubePane::System);
        std::vector<double> perThread(nThreads, 0.0);
        parallelFor(nThreads, ThreadBlock, 0, [&](std::size_t begin, std::size_t end, std::size_t) {
            for (std::size_t th = begin; th < end; ++th)
                perThread[th] = threadValue(t.row(ThreadIndex(th)), mw, cw);
        });
        const auto& items = space.items(CubePane::System);
        auto& incl = out.inclusive[2];
        auto& excl = out.exclusive[2];
        incl.assign(items.size(), 0.0);
        excl.assign(items.size(), 0.0);
        // Groups are made before their locations, so a reverse walk sees every child first.
        for (std::size_t i = items.size(); i-- > 0;) {
            if (items[i].ref >= 0) {
                incl[i] = excl[i] = perThread[static_cast<std::size_t>(items[i].ref)];
                continue;
            }
            for (int c : items[i].children)
                incl[i] += incl[static_cast<std::size_t>(c)];
        }
    }

    if (!mw.any) // only a folder is selected: no metric, so the call and system panes have no value
        for (const CubePane p : { CubePane::Call, CubePane::System }) {
            out.inclusive[CubeSpace::index(p)].assign(space.size(p), NaN);
            out.exclusive[CubeSpace::index(p)].assign(space.size(p), NaN);
        }
    const auto& sel = state.pane(CubePane::Metric).selected;
    if (!sel.empty()) {
        const int ref = space.item(CubePane::Metric, sel.front()).ref;
        if (ref >= 0)
            out.metricRoot = space.metricRootTotal(MetricId(static_cast<std::size_t>(ref)));
    }
    return out;
}

double cubeModeValue(const CubeSpace& space, const CubeState& state, const CubeValues& values, CubePane pane, int i,
    CubeMode mode, double externalRoot, std::optional<double> shown)
{
    const double v = shown ? *shown : values.value(pane, i, state);
    if (mode == CubeMode::Absolute)
        return v;
    const int pos = state.position(pane);
    auto reaches = [&](CubePane reference) { return state.position(reference) <= pos; };
    auto selectionSum = [&](CubePane p) {
        double sum = 0;
        for (int s : state.pane(p).selected)
            sum += values.value(p, s, state);
        return sum;
    };
    auto rootsSum = [&](CubePane p) {
        std::vector<int> roots;
        for (int s : state.pane(p).selected) {
            const int r = space.rootOf(p, s);
            if (std::find(roots.begin(), roots.end(), r) == roots.end())
                roots.push_back(r);
        }
        double sum = 0;
        for (int r : roots)
            sum += values.inclusive[CubeSpace::index(p)][static_cast<std::size_t>(r)];
        return roots.empty() ? NaN : sum;
    };
    double reference = NaN;
    switch (mode) {
    case CubeMode::Absolute:
        return v;
    case CubeMode::OwnRoot:
        reference = values.inclusive[CubeSpace::index(pane)][static_cast<std::size_t>(space.rootOf(pane, i))];
        break;
    case CubeMode::MetricRoot:
        // In the metric pane each tree is its own whole (Visits is no part of Time): the item's root.
        if (pane == CubePane::Metric)
            reference = values.inclusive[0][static_cast<std::size_t>(space.rootOf(pane, i))];
        else if (reaches(CubePane::Metric))
            reference = values.metricRoot;
        break;
    case CubeMode::MetricSelection:
        if (reaches(CubePane::Metric))
            reference = selectionSum(CubePane::Metric);
        break;
    case CubeMode::CallRoot:
        if (reaches(CubePane::Call))
            reference = rootsSum(CubePane::Call);
        break;
    case CubeMode::CallSelection:
        if (reaches(CubePane::Call))
            reference = selectionSum(CubePane::Call);
        break;
    case CubeMode::SystemRoot:
        if (reaches(CubePane::System))
            reference = rootsSum(CubePane::System);
        break;
    case CubeMode::SystemSelection:
        if (reaches(CubePane::System))
            reference = selectionSum(CubePane::System);
        break;
    case CubeMode::Peer:
    case CubeMode::PeerDistribution: {
        if (pane != CubePane::System)
            return NaN;
        // The items at x's depth, each in its state (docs/SEMANTICS.md §6).
        const auto& level = space.levels(pane)[static_cast<std::size_t>(space.item(pane, i).depth)];
        double lo = std::numeric_limits<double>::infinity();
        double hi = -lo;
        for (int y : level) {
            const double vy = values.value(pane, y, state);
            lo = std::min(lo, vy);
            hi = std::max(hi, vy);
        }
        if (mode == CubeMode::PeerDistribution)
            return hi == lo ? 100.0 : 100.0 * (v - lo) / (hi - lo);
        reference = hi;
        break;
    }
    case CubeMode::External:
        if (reaches(CubePane::Metric))
            reference = externalRoot;
        break;
    }
    if (std::isnan(reference) || reference == 0)
        return NaN;
    return 100.0 * v / reference;
}

std::vector<double> cubeLocationValues(const CubeSpace& space, const CubeState& state, int callItem)
{
    const Trial& t = space.trial();
    const MetricWeights mw = metricWeights(space, state.pane(CubePane::Metric));
    CubePaneState one;
    one.selected = { callItem };
    one.setExpanded(callItem, state.pane(CubePane::Call).isExpanded(callItem));
    if (!mw.any)
        return std::vector<double>(t.threadCount(), NaN);
    const CallWeights cw = callWeights(space, &one);
    std::vector<double> out(t.threadCount(), 0.0);
    parallelFor(t.threadCount(), ThreadBlock, 0, [&](std::size_t begin, std::size_t end, std::size_t) {
        for (std::size_t th = begin; th < end; ++th)
            out[th] = threadValue(t.row(ThreadIndex(th)), mw, cw);
    });
    return out;
}

BoxStats boxStats(std::vector<double> values)
{
    // Linear time: selections instead of a sort (131,072 locations per row, many rows).
    BoxStats b;
    values.erase(std::remove_if(values.begin(), values.end(), [](double x) { return std::isnan(x); }), values.end());
    b.count = values.size();
    if (values.empty())
        return b;
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    b.min = *lo;
    b.max = *hi;
    auto quantile = [&](double q) {
        const double pos = q * static_cast<double>(values.size() - 1);
        const auto k = static_cast<std::size_t>(std::floor(pos));
        const auto kth = values.begin() + static_cast<std::ptrdiff_t>(k);
        std::nth_element(values.begin(), kth, values.end());
        const double low = *kth;
        if (k + 1 >= values.size() || pos == static_cast<double>(k))
            return low;
        const double high = *std::min_element(kth + 1, values.end());
        return low + (pos - static_cast<double>(k)) * (high - low);
    };
    b.q1 = quantile(0.25);
    b.median = quantile(0.5);
    b.q3 = quantile(0.75);
    b.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
    const double iqr = b.q3 - b.q1;
    const double lowFence = b.q1 - 1.5 * iqr;
    const double highFence = b.q3 + 1.5 * iqr;
    b.lowWhisker = b.max;
    b.highWhisker = b.min;
    for (const double x : values) {
        if (x < lowFence || x > highFence) {
            ++b.outliers;
            continue;
        }
        b.lowWhisker = std::min(b.lowWhisker, x);
        b.highWhisker = std::max(b.highWhisker, x);
    }
    return b;
}

} // namespace parallax
