// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/semantic/semanticinspectormodel.h"

#include "views/common/valueformatter.h"

#include <QApplication>
#include <QBrush>
#include <QFont>
#include <QIcon>
#include <QStyle>
#include <algorithm>
#include <cmath>
#include <limits>

namespace parallax {

using namespace parallax::semantic;

namespace {

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

QColor warningBackground() { return QColor(0xff, 0xe8, 0xa8); }
QColor warningText() { return QColor(0x8a, 0x4b, 0x00); }
QColor noteBackground() { return QColor(0xdc, 0xeb, 0xfa); }
QColor noteText() { return QColor(0x1f, 0x4e, 0x79); }

QString entityLabel(const ResolvedEntity& e) { return e.id; }

} // namespace

std::shared_ptr<const InspectorSnapshot> InspectorSnapshot::make(const ProfilePtr& profile)
{
    auto snapshot = std::make_shared<InspectorSnapshot>();
    snapshot->profile = profile;
    if (!profile)
        return snapshot;
    const Trial& trial = profile->trial();
    const std::size_t metrics = trial.metricCount();
    snapshot->eventTotals.assign(metrics, std::vector<double>(trial.eventCount(), 0.0));
    snapshot->sourceTotals.assign(metrics, 0.0);
    for (std::size_t t = 0; t < trial.threadCount(); ++t) {
        const RowView row = trial.row(ThreadIndex(t));
        for (std::size_t m = 0; m < metrics; ++m) {
            std::vector<double>& totals = snapshot->eventTotals[m];
            for (std::size_t i = 0; i < row.size(); ++i)
                totals[row.events[i].index()] += row.exclusive(m, i);
            snapshot->sourceTotals[m] += profile->sourceTotal(ThreadIndex(t), MetricId(m));
        }
    }
    return snapshot;
}

SemanticInspectorModel::SemanticInspectorModel(QObject* parent)
    : NodeTreeModel(parent)
    , m_locale(groupingLocale())
{
}

SemanticInspectorModel::~SemanticInspectorModel() = default;

void SemanticInspectorModel::setSnapshot(std::shared_ptr<const InspectorSnapshot> snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    if (m_snapshot && m_snapshot->profile && m_metric.index() >= m_snapshot->profile->metricCount())
        m_metric = MetricId(0u);
    rebuild();
    endResetModel();
}

void SemanticInspectorModel::setProfile(const ProfilePtr& profile) { setSnapshot(InspectorSnapshot::make(profile)); }

ProfilePtr SemanticInspectorModel::profile() const { return m_snapshot ? m_snapshot->profile : nullptr; }

void SemanticInspectorModel::setMetric(MetricId metric)
{
    if (metric == m_metric)
        return;
    m_metric = metric;
    valuesChanged();
}

void SemanticInspectorModel::setValueScope(ValueScope scope)
{
    if (scope == m_scope)
        return;
    m_scope = scope;
    valuesChanged();
}

void SemanticInspectorModel::setTimeUnit(TimeUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    valuesChanged();
}

void SemanticInspectorModel::valuesChanged()
{
    // Every row of every level: the tree keeps its expanded rows (no reset).
    emitAllDataChanged();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

int SemanticInspectorModel::addRow(Node node, int parent)
{
    const int id = addNode(parent);
    m_nodes.push_back(node);
    return id;
}

void SemanticInspectorModel::rebuild()
{
    m_nodes.clear();
    clearNodes();
    m_associationWarnings.clear();
    m_modelWarnings.clear();
    m_unmappedEvents.clear();
    const ProfilePtr p = profile();
    if (!p)
        return;
    const Model& model = p->model();
    const auto& reports = p->associationReports();
    m_associationWarnings.assign(model.associations.size(), {});
    const auto& warnings = p->warnings();
    for (std::size_t w = 0; w < warnings.size(); ++w) {
        int found = -1;
        if (!warnings[w].association.isEmpty())
            for (std::size_t a = 0; a < model.associations.size() && found < 0; ++a)
                if (model.associations[a].id == warnings[w].association)
                    found = static_cast<int>(a);
        if (found >= 0)
            m_associationWarnings[static_cast<std::size_t>(found)].push_back(static_cast<int>(w));
        else
            m_modelWarnings.push_back(static_cast<int>(w));
    }

    auto addEvent = [&](int parent, int association, EventId e) {
        Node n;
        n.kind = RowKind::Event;
        n.association = association;
        n.event = e;
        const int id = addRow(n, parent);
        const std::vector<int> edges = p->edgesOf(e);
        if (edges.size() > 1) {
            for (int edge : edges) {
                Node c;
                c.kind = RowKind::Edge;
                c.association = association;
                c.event = e;
                c.edge = edge;
                addRow(c, id);
            }
        }
    };

    for (std::size_t a = 0; a < model.associations.size(); ++a) {
        Node n;
        n.kind = RowKind::Association;
        n.association = static_cast<int>(a);
        const int id = addRow(n, NoNode);
        for (int w : m_associationWarnings[a]) {
            Node c;
            c.kind = RowKind::Warning;
            c.association = static_cast<int>(a);
            c.warning = w;
            addRow(c, id);
        }
        if (a < reports.size()) {
            for (EventId e : reports[a].events)
                addEvent(id, static_cast<int>(a), e);
            for (EventId e : reports[a].shadowed) {
                Node c;
                c.kind = RowKind::Shadowed;
                c.association = static_cast<int>(a);
                c.event = e;
                addRow(c, id);
            }
        }
    }

    // (unmapped): the source events whose edge has no association.
    for (const Edge& edge : p->edges())
        if (edge.association < 0)
            m_unmappedEvents.push_back(edge.event);
    Node u;
    u.kind = RowKind::Unmapped;
    const int unmapped = addRow(u, NoNode);
    for (EventId e : m_unmappedEvents)
        addEvent(unmapped, -1, e);

    if (!m_modelWarnings.empty()) {
        Node mw;
        mw.kind = RowKind::ModelWarnings;
        const int id = addRow(mw, NoNode);
        for (int w : m_modelWarnings) {
            Node c;
            c.kind = RowKind::Warning;
            c.warning = w;
            addRow(c, id);
        }
    }
}

const SemanticInspectorModel::Node* SemanticInspectorModel::nodeOf(const QModelIndex& index) const
{
    if (!index.isValid())
        return nullptr;
    const auto id = static_cast<std::size_t>(index.internalId());
    return id < m_nodes.size() ? &m_nodes[id] : nullptr;
}

int SemanticInspectorModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant SemanticInspectorModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    const ProfilePtr p = profile();
    const bool haveMetric = p && m_metric.index() < p->metricCount();
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Name:
            return tr("Association / event");
        case Selector:
            return tr("Selector");
        case Policy:
            return tr("Policy");
        case Priority:
            return tr("Priority");
        case Events:
            return tr("Events");
        case Targets:
            return tr("Targets");
        case Weights:
            return tr("Weights w(e,r)");
        case Classification:
            return tr("Table 2");
        case Value: {
            const QString scope = m_scope == ValueScope::Total ? tr("total") : tr("mean");
            if (!haveMetric)
                return tr("Value (%1)").arg(scope);
            const QString unit = unitLabel(p->trial().metric(m_metric), m_unit);
            return unit.isEmpty() ? tr("Value (%1)").arg(scope) : tr("Value (%1, %2)").arg(scope, unit);
        }
        case Percent:
            return tr("% of total");
        case Warnings:
            return tr("Warnings");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Events:
            return tr("Source events the association won (highest priority among the associations that match them)");
        case Weights:
            return tr("The share w(e,r) of an event's value that goes to each target entity; Σ_r w(e,r) = 1 per event");
        case Classification:
            return tr("The kinds of the connected components of the event–entity graph the "
                      "association's "
                      "edges are in: 1:1 one-to-one, 1:n one-to-many, n:1 many-to-one, n:m many-to-many");
        case Value:
            return m_scope == ValueScope::Total ? tr("Σ over threads and edges of w(e,r)·excl(t,e)")
                                                : tr("Σ over edges of w(e,r)·excl(t,e), mean over all threads");
        case Percent:
            return tr("Share of everything the model attributes (Σ of the source events' exclusive values); the "
                      "associations and (unmapped) add up to 100 %");
        }
    }
    if (role == Qt::TextAlignmentRole
        && (section == Priority || section == Events || section == Value || section == Percent))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

double SemanticInspectorModel::eventTotal(EventId e) const
{
    if (!m_snapshot || m_metric.index() >= m_snapshot->eventTotals.size())
        return 0;
    const auto& totals = m_snapshot->eventTotals[m_metric.index()];
    return e.index() < totals.size() ? totals[e.index()] : 0;
}

double SemanticInspectorModel::rawValue(const Node& node) const
{
    const ProfilePtr p = profile();
    if (!p || m_metric.index() >= p->metricCount())
        return NaN;
    double v = NaN;
    switch (node.kind) {
    case RowKind::Association: {
        const auto& reports = p->associationReports();
        const auto a = static_cast<std::size_t>(node.association);
        v = a < reports.size() && m_metric.index() < reports[a].contributed.size()
            ? reports[a].contributed[m_metric.index()]
            : 0;
        break;
    }
    case RowKind::Unmapped:
        v = 0;
        for (EventId e : m_unmappedEvents)
            v += eventTotal(e);
        break;
    case RowKind::Event:
        // All edges of an event come from the one association that won it: Σw = 1.
        v = eventTotal(node.event);
        break;
    case RowKind::Edge:
        v = p->edges()[static_cast<std::size_t>(node.edge)].weight * eventTotal(node.event);
        break;
    case RowKind::ModelWarnings:
    case RowKind::Warning:
    case RowKind::Shadowed:
        return NaN;
    }
    if (m_scope == ValueScope::Mean)
        v = p->threadCount() ? v / static_cast<double>(p->threadCount()) : 0;
    return v;
}

double SemanticInspectorModel::value(const QModelIndex& index) const
{
    const Node* n = nodeOf(index);
    return n ? rawValue(*n) : NaN;
}

QString SemanticInspectorModel::formatValue(double v) const
{
    if (std::isnan(v))
        return {};
    const ProfilePtr p = profile();
    return formatMetricValue(v, p->trial().metric(m_metric), m_unit, m_locale);
}

QString SemanticInspectorModel::selectorText(int association) const
{
    const Association& a = profile()->model().associations[static_cast<std::size_t>(association)];
    return QStringLiteral("%1: %2").arg(selectorKindName(a.select.kind), a.select.value);
}

int SemanticInspectorModel::eventCount(const Node& node) const
{
    if (node.kind == RowKind::Unmapped)
        return static_cast<int>(m_unmappedEvents.size());
    if (node.kind != RowKind::Association)
        return -1;
    const auto& reports = profile()->associationReports();
    const auto a = static_cast<std::size_t>(node.association);
    return a < reports.size() ? static_cast<int>(reports[a].events.size()) : 0;
}

QString SemanticInspectorModel::targetsText(const Node& node) const
{
    const ProfilePtr p = profile();
    QStringList ids;
    switch (node.kind) {
    case RowKind::Association: {
        const auto a = static_cast<std::size_t>(node.association);
        const auto& reports = p->associationReports();
        if (a < reports.size() && !reports[a].targets.empty()) {
            for (int r : reports[a].targets)
                ids << entityLabel(p->entity(r));
        } else {
            // Nothing matched: what the rule would target.
            const Association& as = p->model().associations[a];
            if (as.target.entityTemplate)
                return tr("template %1").arg(as.target.entityTemplate->id);
            return as.target.ids.join(QStringLiteral(", "));
        }
        break;
    }
    case RowKind::Unmapped:
        return QStringLiteral("(unmapped)");
    case RowKind::Event:
        for (int edge : p->edgesOf(node.event))
            ids << entityLabel(p->entity(p->edges()[static_cast<std::size_t>(edge)].entity));
        break;
    case RowKind::Edge:
        return entityLabel(p->entity(p->edges()[static_cast<std::size_t>(node.edge)].entity));
    case RowKind::Shadowed: {
        const std::vector<int> edges = p->edgesOf(node.event);
        if (!edges.empty()) {
            const int winner = p->edges()[static_cast<std::size_t>(edges.front())].association;
            return winner >= 0 ? tr("won by '%1'").arg(p->model().associations[static_cast<std::size_t>(winner)].id)
                               : QString();
        }
        return {};
    }
    case RowKind::ModelWarnings:
    case RowKind::Warning:
        return {};
    }
    constexpr int shown = 4;
    if (ids.size() <= shown)
        return ids.join(QStringLiteral(", "));
    return tr("%1 entities: %2, …").arg(ids.size()).arg(ids.mid(0, shown).join(QStringLiteral(", ")));
}

QString SemanticInspectorModel::weightsText(const Node& node) const
{
    const ProfilePtr p = profile();
    auto weight = [this](double w) { return m_locale.toString(w, 'g', 4); };
    switch (node.kind) {
    case RowKind::Association: {
        const Association& a = p->model().associations[static_cast<std::size_t>(node.association)];
        switch (a.policy) {
        case semantic::Policy::Direct:
            return QStringLiteral("1");
        case semantic::Policy::Amortize:
            return tr("1/%1 each").arg(a.target.ids.size());
        case semantic::Policy::Weighted:
            return tr("%1(r) / Σ %1").arg(a.weightAttr);
        case semantic::Policy::Aggregate:
            return tr("1 to the aggregate");
        }
        return {};
    }
    case RowKind::Unmapped:
        return QStringLiteral("1");
    case RowKind::Event: {
        QStringList ws;
        const std::vector<int> edges = p->edgesOf(node.event);
        for (std::size_t i = 0; i < edges.size() && i < 6; ++i)
            ws << weight(p->edges()[static_cast<std::size_t>(edges[i])].weight);
        if (edges.size() > 6)
            ws << QStringLiteral("…");
        return ws.join(QStringLiteral(", "));
    }
    case RowKind::Edge:
        return weight(p->edges()[static_cast<std::size_t>(node.edge)].weight);
    default:
        return {};
    }
}

QString SemanticInspectorModel::classificationText(const Node& node) const
{
    const ProfilePtr p = profile();
    switch (node.kind) {
    case RowKind::Association: {
        const auto& reports = p->associationReports();
        const auto a = static_cast<std::size_t>(node.association);
        if (a >= reports.size())
            return {};
        QStringList kinds;
        for (semantic::Classification c : reports[a].classifications)
            kinds << classificationShort(c);
        return kinds.join(QStringLiteral(", "));
    }
    case RowKind::Event:
    case RowKind::Edge: {
        const std::vector<int> edges
            = node.kind == RowKind::Edge ? std::vector<int> { node.edge } : p->edgesOf(node.event);
        for (int edge : edges) {
            const int comp = p->entity(p->edges()[static_cast<std::size_t>(edge)].entity).component;
            if (comp >= 0)
                return classificationShort(p->components()[static_cast<std::size_t>(comp)].kind);
        }
        return {};
    }
    default:
        return {};
    }
}

QString SemanticInspectorModel::warningMessage(int warning) const
{
    const Warning& w = profile()->warnings()[static_cast<std::size_t>(warning)];
    return w.note ? tr("note: %1").arg(w.message) : w.message;
}

bool SemanticInspectorModel::onlyNotes(const Node& node) const
{
    const ProfilePtr p = profile();
    auto isNote = [&](int w) { return p->warnings()[static_cast<std::size_t>(w)].note; };
    switch (node.kind) {
    case RowKind::Association: {
        const auto& ws = m_associationWarnings[static_cast<std::size_t>(node.association)];
        return !ws.empty() && std::all_of(ws.begin(), ws.end(), isNote);
    }
    case RowKind::ModelWarnings:
        return !m_modelWarnings.empty() && std::all_of(m_modelWarnings.begin(), m_modelWarnings.end(), isNote);
    case RowKind::Warning:
        return isNote(node.warning);
    case RowKind::Shadowed:
        return true; // resolved by priority: a note
    default:
        return false;
    }
}

QStringList SemanticInspectorModel::warningsOf(const Node& node) const
{
    const ProfilePtr p = profile();
    QStringList out;
    if (!p)
        return out;
    switch (node.kind) {
    case RowKind::Association:
        for (int w : m_associationWarnings[static_cast<std::size_t>(node.association)])
            out << warningMessage(w);
        break;
    case RowKind::ModelWarnings:
        for (int w : m_modelWarnings)
            out << warningMessage(w);
        break;
    case RowKind::Warning:
        out << warningMessage(node.warning);
        break;
    case RowKind::Shadowed:
        out << tr("matched twice: %1").arg(targetsText(node));
        break;
    default:
        break;
    }
    return out;
}

QVariant SemanticInspectorModel::display(const Node& node, int column) const
{
    const ProfilePtr p = profile();
    const Model& model = p->model();
    const Association* a
        = node.association >= 0 ? &model.associations[static_cast<std::size_t>(node.association)] : nullptr;
    switch (column) {
    case Name:
        switch (node.kind) {
        case RowKind::Association:
            return a->id;
        case RowKind::Unmapped:
            return QStringLiteral("(unmapped)");
        case RowKind::ModelWarnings:
            return tr("(model-wide warnings)");
        case RowKind::Warning:
            return warningMessage(node.warning);
        case RowKind::Event:
        case RowKind::Shadowed:
            return p->trial().event(node.event).name;
        case RowKind::Edge:
            return QString(
                QStringLiteral("→ ") + p->entity(p->edges()[static_cast<std::size_t>(node.edge)].entity).name);
        }
        return {};
    case Selector:
        if (node.kind == RowKind::Association)
            return selectorText(node.association);
        if (node.kind == RowKind::Unmapped)
            return tr("no association matches");
        return {};
    case Policy:
        if (node.kind == RowKind::Association)
            return QString(policyName(a->policy)
                + (a->policy == semantic::Policy::Amortize || a->policy == semantic::Policy::Weighted
                        ? QStringLiteral(" ≈")
                        : QString()));
        if (node.kind == RowKind::Shadowed)
            return tr("lost");
        return {};
    case Priority:
        if (node.kind == RowKind::Association)
            return a->priority;
        return {};
    case Events: {
        const int n = eventCount(node);
        if (n < 0)
            return {};
        if (node.kind == RowKind::Association) {
            const auto shadowed = p->associationReports()[static_cast<std::size_t>(node.association)].shadowed.size();
            if (shadowed)
                return tr("%1 (+%2 lost)").arg(n).arg(shadowed);
        }
        return n;
    }
    case Targets:
        return targetsText(node);
    case Weights:
        return weightsText(node);
    case Classification:
        return classificationText(node);
    case Value:
        return formatValue(rawValue(node));
    case Percent: {
        const double v = rawValue(node);
        const double total
            = m_snapshot->sourceTotals.size() > m_metric.index() ? m_snapshot->sourceTotals[m_metric.index()] : 0;
        if (std::isnan(v) || total == 0)
            return {};
        const double all
            = m_scope == ValueScope::Mean && p->threadCount() ? v * static_cast<double>(p->threadCount()) : v;
        return QString(m_locale.toString(100.0 * all / total, 'f', 2) + QStringLiteral(" %"));
    }
    case Warnings: {
        const QStringList w = warningsOf(node);
        if (node.kind == RowKind::Warning)
            return tr("warning");
        if (w.size() > 1)
            return tr("%1 warnings: %2").arg(w.size()).arg(w.join(QStringLiteral("; ")));
        return w.value(0);
    }
    }
    return {};
}

QVariant SemanticInspectorModel::sortValue(const Node& node, int column) const
{
    switch (column) {
    case Priority:
        return node.kind == RowKind::Association
            ? profile()->model().associations[static_cast<std::size_t>(node.association)].priority
            : std::numeric_limits<int>::min();
    case Events:
        return eventCount(node);
    case Value:
    case Percent: {
        const double v = rawValue(node);
        return std::isnan(v) ? -std::numeric_limits<double>::infinity() : v;
    }
    case Warnings:
        return warningsOf(node).size();
    default: {
        const QVariant d = display(node, column);
        return d.toString();
    }
    }
}

QString SemanticInspectorModel::toolTip(const Node& node, int column) const
{
    const ProfilePtr p = profile();
    const Model& model = p->model();
    QStringList lines;
    switch (node.kind) {
    case RowKind::Association: {
        const Association& a = model.associations[static_cast<std::size_t>(node.association)];
        const AssociationReport& r = p->associationReports()[static_cast<std::size_t>(node.association)];
        lines << tr("Association '%1'%2").arg(a.id, a.line > 0 ? tr(" (line %1)").arg(a.line) : QString());
        lines << tr("Selector %1, policy %2, priority %3")
                     .arg(selectorText(node.association), policyName(a.policy))
                     .arg(a.priority);
        if (a.policy == semantic::Policy::Amortize || a.policy == semantic::Policy::Weighted)
            lines << tr("≈ Its shares are estimates (no per-instance data).");
        lines << tr("Won %n source event(s)", nullptr, static_cast<int>(r.events.size()));
        if (!r.shadowed.empty())
            lines << tr("Matched %n more event(s) that a higher-priority association won", nullptr,
                static_cast<int>(r.shadowed.size()));
        if (column == Classification) {
            QStringList kinds;
            for (semantic::Classification c : r.classifications)
                kinds << classificationName(c);
            lines << tr("Components: %1").arg(kinds.isEmpty() ? tr("none") : kinds.join(QStringLiteral(", ")));
        }
        if (column == Targets && !r.targets.empty()) {
            QStringList names;
            for (int t : r.targets)
                names << QStringLiteral("%1 (%2)").arg(p->entity(t).id, p->entity(t).name);
            lines << tr("Targets: %1").arg(names.join(QStringLiteral(", ")));
        }
        if (!std::isnan(rawValue(node)))
            lines << tr("Contributed %1").arg(formatValue(rawValue(node)));
        break;
    }
    case RowKind::Unmapped:
        lines << tr("%n source event(s) that no association matches go to the built-in root (unmapped)", nullptr,
            static_cast<int>(m_unmappedEvents.size()));
        break;
    case RowKind::ModelWarnings:
    case RowKind::Warning:
        break;
    case RowKind::Event: {
        lines << p->trial().event(node.event).name;
        for (int edge : p->edgesOf(node.event)) {
            const Edge& e = p->edges()[static_cast<std::size_t>(edge)];
            lines << tr("→ %1 (%2): w = %3, %4")
                         .arg(p->entity(e.entity).id, p->entity(e.entity).name, m_locale.toString(e.weight, 'g', 6),
                             formatValue(e.weight * eventTotal(node.event)
                                 / (m_scope == ValueScope::Mean && p->threadCount()
                                         ? static_cast<double>(p->threadCount())
                                         : 1.0)));
        }
        break;
    }
    case RowKind::Edge: {
        const Edge& e = p->edges()[static_cast<std::size_t>(node.edge)];
        lines << tr("%1 → %2 (%3): w = %4")
                     .arg(p->trial().event(node.event).name, p->entity(e.entity).id, p->entity(e.entity).name,
                         m_locale.toString(e.weight, 'g', 6));
        break;
    }
    case RowKind::Shadowed:
        lines << tr("'%1' also matches this association, but %2 (a higher priority applies).")
                     .arg(p->trial().event(node.event).name, targetsText(node));
        break;
    }
    const QStringList w = warningsOf(node);
    for (const QString& s : w)
        lines << QStringLiteral("⚠ ") + s;
    return lines.join(QLatin1Char('\n'));
}

QVariant SemanticInspectorModel::data(const QModelIndex& index, int role) const
{
    const Node* n = nodeOf(index);
    if (!n || !profile())
        return {};
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(*n, column);
    case SortRole:
        return sortValue(*n, column);
    case Qt::ToolTipRole:
        return toolTip(*n, column);
    case KindRole:
        return static_cast<int>(n->kind);
    case WarningRole:
        return warningsOf(*n);
    case ProblemRole:
        return !warningsOf(*n).isEmpty() && !onlyNotes(*n);
    case AssociationRole:
        return n->association;
    case EventRole:
        return n->event.isValid() ? static_cast<int>(n->event.index()) : -1;
    case Qt::TextAlignmentRole:
        if (column == Priority || column == Events || column == Value || column == Percent)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::BackgroundRole:
        if (!warningsOf(*n).isEmpty())
            return QBrush(onlyNotes(*n) ? noteBackground() : warningBackground());
        return {};
    case Qt::ForegroundRole:
        if (!warningsOf(*n).isEmpty())
            return QBrush(onlyNotes(*n) ? noteText() : warningText());
        return {};
    case Qt::FontRole:
        if (n->kind == RowKind::Association || n->kind == RowKind::Unmapped) {
            QFont f;
            f.setBold(true);
            f.setItalic(n->kind == RowKind::Unmapped);
            return f;
        }
        if (n->kind == RowKind::Shadowed) {
            QFont f;
            f.setItalic(true);
            return f;
        }
        return {};
    case Qt::DecorationRole:
        if (column == Name && !warningsOf(*n).isEmpty() && n->kind != RowKind::Shadowed) {
            if (auto* app = qobject_cast<QApplication*>(QCoreApplication::instance()))
                return app->style()->standardIcon(
                    onlyNotes(*n) ? QStyle::SP_MessageBoxInformation : QStyle::SP_MessageBoxWarning);
        }
        return {};
    default:
        return {};
    }
}

QModelIndex SemanticInspectorModel::associationIndex(const QString& id) const
{
    const ProfilePtr p = profile();
    if (!p)
        return {};
    for (std::size_t i = 0; i < topNodes().size(); ++i) {
        const Node& n = m_nodes[static_cast<std::size_t>(topNodes()[i])];
        if (n.kind == RowKind::Association && p->model().associations[static_cast<std::size_t>(n.association)].id == id)
            return index(static_cast<int>(i), 0);
    }
    return {};
}

QModelIndex SemanticInspectorModel::unmappedIndex() const
{
    for (std::size_t i = 0; i < topNodes().size(); ++i)
        if (m_nodes[static_cast<std::size_t>(topNodes()[i])].kind == RowKind::Unmapped)
            return index(static_cast<int>(i), 0);
    return {};
}

QModelIndex SemanticInspectorModel::modelWarningsIndex() const
{
    for (std::size_t i = 0; i < topNodes().size(); ++i)
        if (m_nodes[static_cast<std::size_t>(topNodes()[i])].kind == RowKind::ModelWarnings)
            return index(static_cast<int>(i), 0);
    return {};
}

int SemanticInspectorModel::warningCount() const
{
    const ProfilePtr p = profile();
    return p ? static_cast<int>(p->warnings().size()) : 0;
}

} // namespace parallax
