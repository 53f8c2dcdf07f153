// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/semantic/semanticprofilemodel.h"

#include "views/common/valueformatter.h"
#include "views/semantic/semanticformat.h"
#include "views/viewsetup.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>
#include <QSet>
#include <cmath>
#include <limits>

namespace parallax {

using namespace parallax::semantic;

namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

QString percentText(double p)
{
    if (std::isnan(p))
        return {};
    return groupingLocale().toString(p, 'f', 2) + QStringLiteral(" %");
}

// Short, so that the number columns keep their width; the tooltip says why (aggregated).
const QString notAggregated = QStringLiteral("n/a");
} // namespace

SemanticProfileModel::SemanticProfileModel(QObject* parent)
    : NodeTreeModel(parent)
{
}

void SemanticProfileModel::setProfile(ProfilePtr profile)
{
    QString metricName;
    if (m_profile && m_metric.index() < m_profile->trial().metricCount())
        metricName = m_profile->trial().metric(m_metric).name;
    m_profile = std::move(profile);
    if (m_profile) {
        const Trial& trial = m_profile->trial();
        const MetricId byName = metricName.isEmpty() ? MetricId() : trial.findMetric(metricName);
        m_metric = byName.isValid() ? byName : MetricId(0u);
        if (m_scope.kind == Scope::Kind::Thread
            && (!m_scope.thread.isValid() || m_scope.thread.index() >= trial.threadCount()))
            m_scope = Scope::mean();
    }
    rebuild();
}

void SemanticProfileModel::setMetric(MetricId metric)
{
    if (m_profile && metric.index() >= m_profile->trial().metricCount())
        return;
    m_metric = metric;
    recompute();
    emitAllChanged();
}

void SemanticProfileModel::setScope(const Scope& scope)
{
    m_scope = scope;
    if (m_profile && m_scope.kind == Scope::Kind::Thread
        && (!m_scope.thread.isValid() || m_scope.thread.index() >= m_profile->threadCount()))
        m_scope = Scope::mean();
    recompute();
    emitAllChanged();
}

void SemanticProfileModel::setTimeUnit(TimeUnit unit)
{
    m_unit = unit;
    emitAllChanged();
}

void SemanticProfileModel::setGroupByAttribute(const QString& key)
{
    if (key == m_groupKey)
        return;
    m_groupKey = key;
    rebuild();
}

QStringList SemanticProfileModel::attributeKeys() const
{
    if (!m_profile)
        return {};
    QSet<QString> keys;
    for (const ResolvedEntity& e : m_profile->entities())
        for (auto it = e.attrs.cbegin(); it != e.attrs.cend(); ++it)
            keys.insert(it.key());
    QStringList list(keys.begin(), keys.end());
    list.sort();
    return list;
}

int SemanticProfileModel::addRow(Node node, int parent)
{
    const int id = addNode(parent);
    m_nodes.push_back(node);
    return id;
}

void SemanticProfileModel::rebuild()
{
    beginResetModel();
    m_decimals.clear();
    m_nodes.clear();
    clearNodes();
    m_groups.clear();
    m_entityNode.clear();
    if (m_profile) {
        const SemanticProfile& p = *m_profile;
        m_entityNode.assign(p.entities().size(), -1);
        // The row of an entity (in the tree, or as a member of a group).
        auto addEntityRow = [&](RowKind kind, int r, int parentNode) {
            Node node;
            node.kind = kind;
            node.entity = r;
            node.aggregated = p.entity(r).aggregatedMember;
            const int id = addRow(node, parentNode);
            m_entityNode[static_cast<std::size_t>(r)] = id;
            return id;
        };
        if (m_groupKey.isEmpty()) {
            // Does an entity with children hold own values anywhere (any thread, any metric)?
            auto hasOwn = [&p](int r) {
                for (std::size_t m = 0; m < p.metricCount(); ++m)
                    for (std::size_t t = 0; t < p.threadCount(); ++t)
                        if (p.own(r, ThreadIndex(t), MetricId(m)) != 0)
                            return true;
                return false;
            };
            std::vector<std::pair<int, int>> stack; // (entity, parent node)
            for (auto it = p.roots().rbegin(); it != p.roots().rend(); ++it)
                stack.push_back({ *it, -1 });
            // Depth first, children in model order (a stack of reversed children).
            while (!stack.empty()) {
                const auto [r, parentNode] = stack.back();
                stack.pop_back();
                const int id = addEntityRow(RowKind::Entity, r, parentNode);
                const ResolvedEntity& e = p.entity(r);
                if (!e.children.empty() && hasOwn(r)) {
                    Node self;
                    self.kind = RowKind::Self;
                    self.entity = r;
                    addRow(self, id);
                }
                for (auto c = e.children.rbegin(); c != e.children.rend(); ++c)
                    stack.push_back({ *c, id });
            }
        } else {
            m_groups = semantic::groupByAttribute(p, m_groupKey, m_metric, m_scope);
            for (std::size_t g = 0; g < m_groups.size(); ++g) {
                Node group;
                group.kind = RowKind::Group;
                group.group = static_cast<int>(g);
                const int gid = addRow(group, NoNode);
                for (int r : m_groups[g].entities)
                    addEntityRow(RowKind::GroupMember, r, gid);
            }
        }
    }
    recompute();
    endResetModel();
}

void SemanticProfileModel::recompute()
{
    if (!m_profile) {
        return;
    }
    const SemanticProfile& p = *m_profile;
    const MetricId m = m_metric;
    const Scope& s = m_scope;
    const double top = semanticview::scopeTop(p, m, s);
    if (!m_groupKey.isEmpty())
        m_groups = semantic::groupByAttribute(p, m_groupKey, m, s);
    double groupSum = 0;
    for (const AttributeGroup& g : m_groups)
        groupSum += g.own;
    for (std::size_t id = 0; id < m_nodes.size(); ++id) {
        Node& n = m_nodes[id];
        switch (n.kind) {
        case RowKind::Entity: {
            n.own = p.scoped(n.entity, m, Quantity::Own, s);
            n.value = p.scoped(n.entity, m, Quantity::Roll, s);
            n.calls = p.scoped(n.entity, m, Quantity::Calls, s);
            n.percentTotal = p.percentOfTotal(n.entity, m, s);
            n.percentParent = p.percentOfParent(n.entity, m, s);
            n.inclusive = p.inclusiveDerivable(n.entity) ? p.scoped(n.entity, m, Quantity::Inclusive, s) : nan;
            break;
        }
        case RowKind::Self: {
            n.own = p.scoped(n.entity, m, Quantity::Own, s);
            n.value = n.own;
            n.calls = p.scoped(n.entity, m, Quantity::Calls, s);
            n.percentTotal = top != 0
                ? 100.0 * (s.kind == Scope::Kind::Mean ? n.own * static_cast<double>(p.threadCount()) : n.own) / top
                : nan;
            const double roll = p.scoped(n.entity, m, Quantity::Roll, s);
            n.percentParent = roll != 0 ? 100.0 * n.own / roll : nan;
            n.inclusive = nan;
            break;
        }
        case RowKind::Group: {
            const AttributeGroup& g = m_groups[static_cast<std::size_t>(n.group)];
            n.own = g.own;
            n.value = g.own;
            double calls = 0;
            for (int r : g.entities)
                calls += p.scoped(r, m, Quantity::Calls, s);
            n.calls = calls;
            const double scaled = s.kind == Scope::Kind::Mean ? g.own * static_cast<double>(p.threadCount()) : g.own;
            n.percentTotal = top != 0 ? 100.0 * scaled / top : nan;
            n.percentParent = groupSum != 0 ? 100.0 * g.own / groupSum : nan;
            n.inclusive = nan;
            break;
        }
        case RowKind::GroupMember: {
            // Groups sum own values, so members show theirs.
            n.own = p.scoped(n.entity, m, Quantity::Own, s);
            n.value = n.own;
            n.calls = p.scoped(n.entity, m, Quantity::Calls, s);
            const double scaled = s.kind == Scope::Kind::Mean ? n.own * static_cast<double>(p.threadCount()) : n.own;
            n.percentTotal = top != 0 ? 100.0 * scaled / top : nan;
            const AttributeGroup& g = m_groups[static_cast<std::size_t>(
                m_nodes[static_cast<std::size_t>(parentNode(static_cast<int>(id)))].group)];
            n.percentParent = g.own != 0 ? 100.0 * n.own / g.own : nan;
            n.inclusive = nan;
            break;
        }
        }
    }
}

void SemanticProfileModel::emitAllChanged()
{
    m_decimals.clear();
    emitAllDataChanged();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

const SemanticProfileModel::Node* SemanticProfileModel::nodeAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this)
        return nullptr;
    const auto id = static_cast<std::size_t>(index.internalId());
    return id < m_nodes.size() ? &m_nodes[id] : nullptr;
}

SemanticProfileModel::RowKind SemanticProfileModel::rowKind(const QModelIndex& index) const
{
    const Node* n = nodeAt(index);
    return n ? n->kind : RowKind::Entity;
}

int SemanticProfileModel::entityAt(const QModelIndex& index) const
{
    const Node* n = nodeAt(index);
    return n ? n->entity : -1;
}

QModelIndex SemanticProfileModel::indexOfEntity(int entity) const
{
    if (entity < 0 || static_cast<std::size_t>(entity) >= m_entityNode.size())
        return {};
    const int id = m_entityNode[static_cast<std::size_t>(entity)];
    if (id < 0)
        return {};
    return createNodeIndex(id);
}

int SemanticProfileModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QString SemanticProfileModel::formatValue(double value, int column) const
{
    if (std::isnan(value))
        return {};
    return semanticview::formatValue(m_profile.get(), m_metric, m_unit, value, decimalsOf(column));
}

int SemanticProfileModel::decimalsOf(int column) const
{
    return m_decimals.of(column, [&] {
        std::vector<double> values;
        values.reserve(m_nodes.size());
        for (const Node& n : m_nodes) {
            const double v = column == Own ? n.own
                : column == Inclusive      ? n.inclusive
                : column == Calls          ? n.calls
                                           : n.value;
            if (!n.aggregated && std::isfinite(v))
                values.push_back(v);
        }
        if (column == Calls)
            return columnDecimals(values, false, m_unit);
        return semanticview::columnDecimals(m_profile.get(), m_metric, m_unit, values);
    });
}

double SemanticProfileModel::number(const QModelIndex& index) const
{
    const Node* n = nodeAt(index);
    if (!n)
        return nan;
    const bool na = n->aggregated;
    switch (index.column()) {
    case Own:
        return na ? nan : n->own;
    case Value:
        return na && n->value == 0 ? nan : n->value;
    case Calls:
        return na ? nan : n->calls;
    case PercentTotal:
        return na && n->value == 0 ? nan : n->percentTotal;
    case PercentParent:
        return na && n->value == 0 ? nan : n->percentParent;
    case Inclusive:
        return n->inclusive;
    default:
        return nan;
    }
}

QVariant SemanticProfileModel::data(const QModelIndex& index, int role) const
{
    const Node* n = nodeAt(index);
    if (!n || !m_profile)
        return {};
    const SemanticProfile& p = *m_profile;
    const int column = index.column();
    const ResolvedEntity* e = n->entity >= 0 ? &p.entity(n->entity) : nullptr;

    if (role == EntityRole)
        return n->entity;
    if (role == RowKindRole)
        return static_cast<int>(n->kind);
    const double v = number(index);
    const bool isNumberColumn = column >= Own && column <= Inclusive;
    const bool notAvailable
        = isNumberColumn && std::isnan(v) && (n->aggregated || (column == Inclusive && (n->kind == RowKind::Entity)));
    if (role == NotAvailableRole)
        return notAvailable;

    if (role == Qt::DisplayRole) {
        switch (column) {
        case Entity:
            if (n->kind == RowKind::Group)
                return m_groups[static_cast<std::size_t>(n->group)].value;
            if (n->kind == RowKind::Self)
                return tr("(self)");
            return e->name;
        case Kind:
            if (n->kind == RowKind::Group)
                return m_groupKey;
            if (n->kind == RowKind::Self)
                return QString();
            return e->kind;
        case Own:
        case Value:
        case Calls:
            if (std::isnan(v))
                return n->aggregated ? notAggregated : QString();
            if (column == Calls) {
                // One decimals count for the column (0 when every count is whole): 0.042 calls
                // per thread keep their digits.
                const bool whole = std::abs(v - std::round(v)) < 1e-9;
                return QString((e && e->estimate && !whole ? QStringLiteral("≈ ") : QString())
                    + formatCount(v, groupingLocale(), decimalsOf(Calls)));
            }
            return QString((e && e->estimate && n->kind != RowKind::Group ? QStringLiteral("≈ ") : QString())
                + formatValue(v, column));
        case PercentTotal:
        case PercentParent:
            if (std::isnan(v))
                return n->aggregated ? notAggregated : QString();
            return percentText(v);
        case Inclusive:
            if (n->kind == RowKind::Entity)
                return std::isnan(v) ? (n->aggregated ? notAggregated : tr("not derivable")) : formatValue(v, column);
            return QString();
        case Policy:
            if (n->kind == RowKind::Group || n->kind == RowKind::Self)
                return QString();
            return semanticview::policyBadge(*e);
        case Classification:
            if (!e || n->kind == RowKind::Self || e->component < 0
                || static_cast<std::size_t>(e->component) >= p.components().size())
                return QString();
            return classificationShort(p.components()[static_cast<std::size_t>(e->component)].kind);
        }
        return {};
    }
    if (role == SortRole) {
        if (isNumberColumn)
            return std::isnan(v) ? -std::numeric_limits<double>::infinity() : v;
        return data(index, Qt::DisplayRole);
    }
    if (role == Qt::TextAlignmentRole) {
        if (isNumberColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role == Qt::ForegroundRole) {
        if (n->kind == RowKind::Self || notAvailable || (e && e->isUnmapped()))
            return QBrush(QColor(0x80, 0x80, 0x80));
        return {};
    }
    if (role == Qt::FontRole) {
        if (n->kind == RowKind::Self || notAvailable) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    }
    if (role == Qt::DecorationRole && column == Entity) {
        if (n->kind == RowKind::Group)
            return {};
        QColor c = semanticview::entityColor(*e);
        return n->kind == RowKind::Self ? c.lighter(135) : c;
    }
    if (role == Qt::ToolTipRole)
        return tooltip(*n, column);
    return {};
}

QString SemanticProfileModel::tooltip(const Node& n, int column) const
{
    const SemanticProfile& p = *m_profile;
    const QString scope = semanticview::scopeText(p.trial(), m_scope);
    const ResolvedEntity* e = n.entity >= 0 ? &p.entity(n.entity) : nullptr;
    if (n.aggregated && column >= Own && column <= Inclusive)
        return tr("n/a (aggregated): %1 is a member of an AGGREGATE: the events mapped to the set went to the "
                  "aggregate entity as a "
                  "whole, so this member's share is not known.")
            .arg(e->name);
    switch (column) {
    case Entity:
        if (n.kind == RowKind::Group)
            return tr("Entities whose attribute %1 = %2 (%n entity(ies)); the value is Σ own, so groups conserve.",
                nullptr, static_cast<int>(m_groups[static_cast<std::size_t>(n.group)].entities.size()))
                .arg(m_groupKey, m_groups[static_cast<std::size_t>(n.group)].value);
        if (n.kind == RowKind::Self)
            return tr("(self): the own value of %1, shown as a child so that the children sum to the parent")
                .arg(e->name);
        {
            QString text = QStringLiteral("<b>%1</b><br>id: %2<br>kind: %3")
                               .arg(e->name.toHtmlEscaped(), e->id.toHtmlEscaped(), e->kind.toHtmlEscaped());
            for (auto it = e->attrs.cbegin(); it != e->attrs.cend(); ++it)
                text += QStringLiteral("<br>%1 = %2")
                            .arg(it.key().toHtmlEscaped(), it.value().toString().toHtmlEscaped());
            if (e->isAggregate())
                text += tr("<br>synthetic entity of an AGGREGATE association");
            if (e->isUnmapped())
                text += tr("<br>events that no association matched");
            return text;
        }
    case Own:
        return tr("own = Σ w(e,r)·excl(e) over the events mapped here, %1").arg(scope);
    case Value:
        if (n.kind == RowKind::Entity)
            return tr("roll-up = own + Σ children's roll-up, %1").arg(scope);
        return tr("%1").arg(scope);
    case Calls:
        return tr("calls = Σ w(e,r)·calls(e), %1%2")
            .arg(scope,
                e && e->estimate ? tr(" — an estimate (AMORTIZE / WEIGHTED shares can be fractional)") : QString());
    case PercentTotal:
        return m_scope.kind == Scope::Kind::Thread ? tr("100 · value / T, T = the thread's top inclusive value")
                                                   : tr("100 · Σ_t value / Σ_t T over all threads");
    case PercentParent:
        if (n.kind == RowKind::Group)
            return tr("share of the sum over all groups");
        return tr("100 · value / the parent's roll-up");
    case Inclusive:
        return tr("incl(r) = Σ w(e,r)·incl(e) over the topmost events of r's subtree; \"not derivable\" without "
                  "call-path data when more than one event contributes");
    case Policy:
        return tr("The policies of the associations whose edges end here; ≈ marks an estimate");
    case Classification:
        if (e && e->component >= 0 && static_cast<std::size_t>(e->component) < p.components().size()) {
            const Component& c = p.components()[static_cast<std::size_t>(e->component)];
            return tr("%1 (Table 2): %n event(s) and %2 entit(ies) in this connected component", nullptr,
                static_cast<int>(c.events.size()))
                .arg(classificationName(c.kind))
                .arg(c.entities.size());
        }
        return {};
    default:
        return {};
    }
}

QVariant SemanticProfileModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    QString unit;
    if (m_profile && m_metric.index() < m_profile->trial().metricCount())
        unit = unitLabel(m_profile->trial().metric(m_metric), m_unit);
    auto withUnit = [&](const QString& title) { return QString(title + unitSuffix(unit)); };
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Entity:
            return m_groupKey.isEmpty() ? tr("Entity") : tr("%1 / entity").arg(m_groupKey);
        case Kind:
            return tr("Kind");
        case Own:
            return withUnit(tr("Own"));
        case Value:
            return withUnit(tr("Roll-up"));
        case Calls:
            return tr("Calls");
        case PercentTotal:
            return tr("% of total");
        case PercentParent:
            return tr("% of parent");
        case Inclusive:
            return withUnit(tr("Inclusive"));
        case Policy:
            return tr("Policy");
        case Classification:
            return tr("Mapping");
        }
    }
    if (role == Qt::ToolTipRole && section == Classification)
        return tr("Mapping kinds: one-to-one, one-to-many, many-to-one, many-to-many");
    return {};
}

} // namespace parallax
