// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// CallGraphWidget's layout half: the dot source of the shown subset (orientation, fan-out
// staggering, labels), the Graphviz run and the scene built from dot's plain output. The widget's
// controls, selection and export are in callgraphwidget.cpp.
#include "algebra/calltree.h"
#include "algebra/statistics.h"
#include "algebra/units.h"
#include "views/callgraph/callgraphedgeitem.h"
#include "views/callgraph/callgraphnodeitem.h"
#include "views/callgraph/callgraphview.h"
#include "views/callgraph/callgraphwidget.h"
#include "views/callgraph/dotplainlayout.h"
#include "views/callgraph/dotrunner.h"
#include "views/charts/colors.h"
#include "views/selectionstate.h"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QLabel>
#include <QStackedWidget>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax {

namespace {

constexpr double pointsPerInch = 72.0;
constexpr double minBoxWidth = 60.0;
constexpr double maxBoxWidth = 320.0;
constexpr double sceneMargin = 16.0;
/// Box labels keep the end of longer routine names (the full name is in the tooltip and the info).
constexpr int labelLength = 28;

std::size_t at(int i) { return static_cast<std::size_t>(i); }

QFont nodeFont(const QFont& base)
{
    QFont font = base;
    font.setPixelSize(12);
    return font;
}

QFont edgeFont(const QFont& base)
{
    QFont font = base;
    font.setPixelSize(10);
    return font;
}

QString nodeName(int node) { return QStringLiteral("n%1").arg(node); }

int nodeFromName(const QString& name)
{
    bool ok = false;
    const int node = name.mid(1).toInt(&ok);
    return ok && name.startsWith(QLatin1Char('n')) ? node : -1;
}

} // namespace

CallGraphWidget::Orientation CallGraphWidget::chooseOrientation(const CallGraph& graph, const std::vector<bool>& shown,
    const std::vector<double>& widths, double height, const std::vector<int>& minlen) const
{
    // Layers by breadth-first search from the routines nobody calls (all of them when every
    // routine is in a cycle), as dot's ranks roughly are.
    const std::size_t n = graph.nodes().size();
    std::vector<std::vector<std::pair<int, int>>> callees(n); // (callee, ranks apart)
    std::vector<int> callers(n, 0);
    for (std::size_t e = 0; e < graph.edges().size(); ++e) {
        const CallGraph::Edge& edge = graph.edges()[e];
        if (!shown[at(edge.from)] || !shown[at(edge.to)] || edge.from == edge.to)
            continue;
        callees[at(edge.from)].emplace_back(edge.to, minlen[e]);
        ++callers[at(edge.to)];
    }
    std::vector<int> layer(n, -1);
    std::vector<int> queue;
    for (std::size_t i = 0; i < n; ++i)
        if (shown[i] && callers[i] == 0) {
            layer[i] = 0;
            queue.push_back(static_cast<int>(i));
        }
    for (std::size_t k = 0; k < queue.size(); ++k)
        for (const auto& [c, apart] : callees[at(queue[k])])
            if (layer[at(c)] < 0) {
                layer[at(c)] = layer[at(queue[k])] + apart;
                queue.push_back(c);
            }
    int layers = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (shown[i]) {
            layer[i] = std::max(layer[i], 0);
            layers = std::max(layers, layer[i] + 1);
        }
    std::vector<double> sumWidth(at(layers), 0.0);
    std::vector<double> maxWidth(at(layers), 0.0);
    std::vector<int> count(at(layers), 0);
    for (std::size_t i = 0; i < n; ++i) {
        if (!shown[i])
            continue;
        sumWidth[at(layer[i])] += widths[i] + 0.3 * pointsPerInch;
        maxWidth[at(layer[i])] = std::max(maxWidth[at(layer[i])], widths[i]);
        ++count[at(layer[i])];
    }
    // The extent of either drawing, then the one that fits the view at the larger scale.
    const double tbWidth = *std::max_element(sumWidth.begin(), sumWidth.end());
    const double tbHeight = layers * (height + 0.55 * pointsPerInch);
    const double lrWidth = std::accumulate(maxWidth.begin(), maxWidth.end(), 0.0) + layers * 0.8 * pointsPerInch;
    const double lrHeight = *std::max_element(count.begin(), count.end()) * (height + 0.12 * pointsPerInch);
    QSizeF viewport = m_view->viewport()->size();
    if (viewport.width() < 200 || viewport.height() < 150)
        viewport = QSizeF(1000, 650);
    // Fitting never magnifies, so when both fit at 100 % the classic top-down drawing wins.
    const double tb = std::min({ viewport.width() / tbWidth, viewport.height() / tbHeight, 1.0 });
    const double lr = std::min({ viewport.width() / lrWidth, viewport.height() / lrHeight, 1.0 });
    return lr > tb * 1.1 ? Orientation::LeftToRight : Orientation::TopToBottom;
}

QByteArray CallGraphWidget::dotSource(const CallGraph& graph, std::vector<bool>& shown, int& hidden)
{
    const QFontMetricsF fm(nodeFont(font()));
    const MetricId metric = sizeMetric();
    const auto& nodes = graph.nodes();

    std::vector<std::optional<double>> size(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i)
        size[i] = valueOf(nodes[i].event, metric, m_sizeType);
    // Change mode: a difference of either sign is as large as its magnitude.
    auto magnitude = [this](const std::optional<double>& v) -> std::optional<double> {
        if (v && m_colorMode == ColorMode::Change)
            return std::fabs(*v);
        return v;
    };

    // A readable graph: the hot part, the selection's neighbourhood or the largest routines, at most
    // m_focus.maxNodes (views/callgraph/callgraph.h); a graph that small is shown whole in the hot mode.
    CallGraphFocus focus = m_focus;
    focus.centre = m_centreName.isEmpty() ? -1 : graph.nodeOf(m_centreName);
    if (focus.mode == CallGraphFocus::Mode::Neighbourhood && focus.centre < 0)
        focus.mode = CallGraphFocus::Mode::Hot; // nothing selected yet
    for (const QString& name : m_pinnedNames)
        focus.pinned.push_back(graph.nodeOf(name));
    const auto nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> inclusive(nodes.size(), nan);
    std::vector<double> exclusive(nodes.size(), nan);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        inclusive[i] = magnitude(valueOf(nodes[i].event, metric, ValueType::Inclusive)).value_or(nan);
        exclusive[i] = magnitude(valueOf(nodes[i].event, metric, ValueType::Exclusive)).value_or(nan);
    }
    std::vector<double> edgeWeight(graph.edges().size(), nan);
    for (std::size_t e = 0; e < graph.edges().size(); ++e)
        edgeWeight[e] = magnitude(edgeValue(graph.edges()[e], metric, ValueType::Inclusive)).value_or(nan);
    if (focus.mode == CallGraphFocus::Mode::Hot && nodes.size() <= at(focus.maxNodes))
        focus.mode = CallGraphFocus::Mode::All;
    m_pendingSubset = selectCallGraph(graph, inclusive, exclusive, edgeWeight, focus);
    shown = m_pendingSubset.shown;
    hidden = static_cast<int>(nodes.size()) - m_pendingSubset.shownCount;
    double maxSize = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (shown[i] && size[i])
            maxSize = std::max(maxSize, *magnitude(size[i]));

    const double height = 2 * fm.height() + 10;
    std::vector<double> widths(nodes.size(), 0.0);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (!shown[i])
            continue;
        const QString label = CallGraph::shortName(nodes[i].name, labelLength);
        const QString value = size[i] ? formatValue(*size[i], metric, m_sizeType) : QString();
        const double text = std::max(fm.horizontalAdvance(label), fm.horizontalAdvance(value)) + 16;
        const double t = maxSize > 0 && size[i] ? std::clamp(*magnitude(size[i]) / maxSize, 0.0, 1.0) : 0.0;
        widths[i] = std::max(text, minBoxWidth + (maxBoxWidth - minBoxWidth) * t);
    }
    // A routine calling many others (a wide fan-out that would make one very long layer): its
    // callees that have no other caller are staggered over up to four layers, as Graphviz's
    // unflatten -l does for leaves.
    std::vector<int> minlen(graph.edges().size(), 1);
    {
        std::vector<int> shownIn(nodes.size(), 0);
        for (const CallGraph::Edge& edge : graph.edges())
            if (shown[at(edge.from)] && shown[at(edge.to)] && edge.from != edge.to)
                ++shownIn[at(edge.to)];
        std::vector<std::vector<std::size_t>> fanOut(nodes.size());
        for (std::size_t e = 0; e < graph.edges().size(); ++e) {
            const CallGraph::Edge& edge = graph.edges()[e];
            if (shown[at(edge.from)] && shown[at(edge.to)] && edge.from != edge.to && shownIn[at(edge.to)] == 1)
                fanOut[at(edge.from)].push_back(e);
        }
        for (const auto& edges : fanOut) {
            if (edges.size() <= 6)
                continue;
            const std::size_t stagger = std::min<std::size_t>(4, (edges.size() + 5) / 6);
            for (std::size_t k = 0; k < edges.size(); ++k)
                minlen[edges[k]] = 1 + static_cast<int>(k % stagger);
        }
    }
    m_pendingOrientation = m_orientation == Orientation::Automatic
        ? chooseOrientation(graph, shown, widths, height, minlen)
        : m_orientation;

    QByteArray dot;
    dot += "digraph callgraph {\n";
    dot += m_pendingOrientation == Orientation::LeftToRight ? "  graph [rankdir=LR, nodesep=0.12, ranksep=0.8"
                                                            : "  graph [rankdir=TB, nodesep=0.3, ranksep=0.55";
    dot += ", splines=true, outputorder=edgesfirst];\n";
    dot += "  node [shape=box, fixedsize=true, label=\"\"];\n";
    dot += "  edge [arrowsize=1, fontname=\"Helvetica\", fontsize=10];\n";
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (!shown[i])
            continue;
        dot += QStringLiteral("  %1 [width=%2, height=%3];\n")
                   .arg(nodeName(static_cast<int>(i)))
                   .arg(widths[i] / pointsPerInch, 0, 'f', 3)
                   .arg(height / pointsPerInch, 0, 'f', 3)
                   .toUtf8();
    }
    const QLocale locale;
    for (std::size_t e = 0; e < graph.edges().size(); ++e) {
        const CallGraph::Edge& edge = graph.edges()[e];
        if (!shown[at(edge.from)] || !shown[at(edge.to)])
            continue;
        const auto calls = edgeValue(edge, metric, ValueType::Calls);
        QStringList attributes;
        if (calls)
            attributes << QStringLiteral("label=\"%1\"").arg(formatNumber(*calls, locale));
        if (minlen[e] > 1)
            attributes << QStringLiteral("minlen=%1").arg(minlen[e]);
        QString line = QStringLiteral("  %1 -> %2").arg(nodeName(edge.from), nodeName(edge.to));
        if (!attributes.isEmpty())
            line += QStringLiteral(" [%1]").arg(attributes.join(QStringLiteral(", ")));
        dot += line.toUtf8() + ";\n";
    }
    dot += "}\n";
    return dot;
}

void CallGraphWidget::startLayout()
{
    if (!m_trial) {
        showMessage(tr("No trial is open."));
        return;
    }
    CallGraph graph(*m_trial, [this](EventId e) { return !m_state || m_state->isEventVisible(e); });
    if (!graph.hasCallPaths()) {
        const QString who = m_trialLabel.isEmpty() ? tr("The trial \"%1\" has").arg(m_trial->name()) : m_trialLabel;
        showMessage(tr("%1 no call-path events (\"a => b\"), so there is no call graph.\n\n"
                       "TAU records them with TAU_CALLPATH=1 (and TAU_CALLPATH_DEPTH to choose the depth).")
                        .arg(who));
        return;
    }
    if (graph.nodes().empty()) {
        showMessage(tr("Every routine of the call graph is hidden by the current group and name filters."));
        return;
    }
    if (m_dot->executable().isEmpty()) {
        showMessage(tr("The call graph is laid out by Graphviz, but its \"dot\" program was not found in PATH.\n\n"
                       "Install Graphviz (for example \"apt install graphviz\") and reopen this view."));
        return;
    }
    // The scene keeps showing the previous graph until the new layout arrives, so the graph the
    // items refer to is replaced only then.
    const QByteArray source = dotSource(graph, m_pendingShown, m_pendingHidden);
    m_pendingGraph = std::move(graph);
    m_status->setText(tr("Laying out…"));
    m_dot->start(source);
}

void CallGraphWidget::onLayoutFailed(const QString& message)
{
    showMessage(tr("The call graph could not be laid out.\n\n%1").arg(message));
}

void CallGraphWidget::onLayoutReady(const DotPlainLayout& layout)
{
    clearScene();
    m_graph = std::move(m_pendingGraph);
    m_pendingGraph = CallGraph();
    m_shown = std::move(m_pendingShown);
    m_hiddenByCap = m_pendingHidden;
    m_hotPath = std::move(m_pendingSubset.hotPath);
    m_hotEdges = std::move(m_pendingSubset.hotEdges);
    m_covered = m_pendingSubset.coveredShare;
    m_effectiveOrientation = m_pendingOrientation;
    const auto& nodes = m_graph.nodes();
    m_nodeItems.assign(nodes.size(), nullptr);
    m_edgeItems.assign(m_graph.edges().size(), nullptr);
    const QFont font = nodeFont(this->font());
    const QFont labelFont = edgeFont(this->font());
    const MetricId metric = sizeMetric();

    for (const DotPlainLayout::Node& n : layout.nodes()) {
        const int node = nodeFromName(n.name);
        if (node < 0 || at(node) >= nodes.size())
            continue;
        auto* item = new CallGraphNodeItem(node, n.rect);
        const auto value = valueOf(nodes[at(node)].event, metric, m_sizeType);
        item->setFont(font);
        item->setText(CallGraph::shortName(nodes[at(node)].name, labelLength),
            value ? formatValue(*value, metric, m_sizeType) : QString());
        item->setAcceptedMouseButtons(Qt::NoButton);
        m_scene->addItem(item);
        m_nodeItems[at(node)] = item;
        ++m_nodeItemCount;
    }

    QHash<QPair<int, int>, int> edgeOf;
    for (std::size_t e = 0; e < m_graph.edges().size(); ++e)
        edgeOf.insert({ m_graph.edges()[e].from, m_graph.edges()[e].to }, static_cast<int>(e));
    double maxIncl = 0;
    std::vector<std::optional<double>> incl(m_graph.edges().size());
    for (std::size_t e = 0; e < m_graph.edges().size(); ++e) {
        incl[e] = edgeValue(m_graph.edges()[e], metric, ValueType::Inclusive);
        if (incl[e] && m_colorMode == ColorMode::Change)
            incl[e] = std::fabs(*incl[e]);
        if (incl[e])
            maxIncl = std::max(maxIncl, *incl[e]);
    }
    for (const DotPlainLayout::Edge& de : layout.edges()) {
        const int e = edgeOf.value({ nodeFromName(de.tail), nodeFromName(de.head) }, -1);
        if (e < 0)
            continue;
        auto* item = new CallGraphEdgeItem(e, de.points);
        const CallGraph::Edge& edge = m_graph.edges()[at(e)];
        const double t = maxIncl > 0 && incl[at(e)] ? std::clamp(*incl[at(e)] / maxIncl, 0.0, 1.0) : 0.0;
        item->setWidth(1.0 + 3.0 * std::sqrt(t));
        item->setDashed(edge.paths.empty());
        if (!de.label.isEmpty())
            item->setLabel(de.label, de.labelPos, labelFont);
        item->setAcceptedMouseButtons(Qt::NoButton);
        QString tip = nodes[at(edge.from)].name + QStringLiteral("\n  → ") + nodes[at(edge.to)].name;
        if (edge.paths.empty()) {
            tip += QLatin1String("\n\n")
                + tr("Only seen inside longer call paths: the profile has no event for this pair, "
                     "so the edge has no values.");
        } else {
            const auto calls = edgeValue(edge, metric, ValueType::Calls);
            tip += QLatin1String("\n\n")
                + tr("Calls (%1): %2").arg(sourceName(), calls ? formatNumber(*calls) : tr("—"));
            if (incl[at(e)])
                tip += QLatin1Char('\n')
                    + tr("Inclusive %1: %2")
                          .arg(m_trial->metric(metric).name, formatValue(*incl[at(e)], metric, ValueType::Inclusive));
            tip += QLatin1Char('\n')
                + (edge.paths.size() == 1 ? tr("From the call path %1").arg(m_trial->event(edge.paths.front()).name)
                                          : tr("Sum over %1 call paths ending with this pair").arg(edge.paths.size()));
        }
        item->setToolTip(tip);
        m_scene->addItem(item);
        m_edgeItems[at(e)] = item;
        ++m_edgeItemCount;
    }
    // The hottest path, when the layout shows it whole.
    const bool wholePath = std::all_of(m_hotPath.begin(), m_hotPath.end(), [&](int n) { return m_nodeItems[at(n)]; });
    if (wholePath && m_hotPath.size() > 1) {
        for (int n : m_hotPath)
            m_nodeItems[at(n)]->setHotPath(true);
        for (int e : m_hotEdges)
            if (m_edgeItems[at(e)])
                m_edgeItems[at(e)]->setHotPath(true);
    }
    // Labels only where they fit: the heaviest edges first, none over a box or another label.
    std::vector<CallGraphEdgeItem*> labelled;
    for (CallGraphEdgeItem* item : m_edgeItems)
        if (item && !item->labelRect().isNull())
            labelled.push_back(item);
    std::stable_sort(labelled.begin(), labelled.end(), [&](const CallGraphEdgeItem* a, const CallGraphEdgeItem* b) {
        return incl[at(a->edge())].value_or(0) > incl[at(b->edge())].value_or(0);
    });
    std::vector<QRectF> taken;
    for (const CallGraphNodeItem* node : m_nodeItems)
        if (node)
            taken.push_back(node->boundingRect());
    const QFont noLabelFont = edgeFont(this->font());
    for (CallGraphEdgeItem* item : labelled) {
        const QRectF r = item->labelRect();
        if (std::any_of(taken.begin(), taken.end(), [&](const QRectF& t) { return t.intersects(r); }))
            item->setLabel(QString(), QPointF(), noLabelFont);
        else
            taken.push_back(r);
    }
    m_scene->setSceneRect(m_scene->itemsBoundingRect().adjusted(-sceneMargin, -sceneMargin, sceneMargin, sceneMargin));
    m_stack->setCurrentWidget(m_view);
    m_status->clear();

    recolour();
    applySearch();
    const int selected = m_state ? m_graph.nodeOfEvent(*m_trial, m_state->event()) : -1;
    m_selectedNode = -1;
    if (m_fitAfterLayout || selected < 0)
        m_view->fitAll();
    m_fitAfterLayout = false;
    highlightNode(selected, selected >= 0);
    updateInfo();
    Q_EMIT layoutFinished(true);
}

} // namespace parallax
