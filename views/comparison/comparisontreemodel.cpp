// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/comparison/comparisontreemodel.h"

#include "views/comparison/comparisonformat.h"

#include <QBrush>
#include <QFont>
#include <QPalette>
#include <algorithm>
#include <cmath>
#include <limits>

namespace parallax {

namespace {

constexpr double blankSortValue = -std::numeric_limits<double>::infinity();

bool isInclusive(int column)
{
    return column >= ComparisonTreeModel::InclusiveA && column <= ComparisonTreeModel::InclusivePercent;
}

/// 0 A, 1 B, 2 Δ, 3 Δ% within a value group (ComparePart's order).
int part(int column)
{
    return isInclusive(column) ? column - ComparisonTreeModel::InclusiveA : column - ComparisonTreeModel::ExclusiveA;
}

} // namespace

ComparisonTreeModel::ComparisonTreeModel(QObject* parent)
    : TreeModel(parent)
    , m_locale(groupingLocale())
{
}

void ComparisonTreeModel::setSnapshot(std::shared_ptr<const ComparisonSnapshot> snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_values.reset();
    rebuild();
    endResetModel();
}

void ComparisonTreeModel::setValues(std::shared_ptr<const ComparisonValues> values)
{
    // Same tree, new numbers: the rows (and the view's expansion state) stay.
    m_values = std::move(values);
    rebuild();
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    // dataChanged of the top level does not reach the children; a layout change repaints all.
    Q_EMIT layoutAboutToBeChanged();
    Q_EMIT layoutChanged();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void ComparisonTreeModel::setTimeUnit(TimeUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    m_decimals.clear();
    Q_EMIT layoutAboutToBeChanged();
    Q_EMIT layoutChanged();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void ComparisonTreeModel::rebuild()
{
    m_decimals.clear();
    m_row.clear();
    m_maxDelta[0] = m_maxDelta[1] = 0;
    if (!m_snapshot || !m_snapshot->tree)
        return;
    const auto& nodes = m_snapshot->tree->nodes();
    m_row.assign(nodes.size(), 0);
    for (std::size_t i = 0; i < m_snapshot->tree->roots().size(); ++i)
        m_row[static_cast<std::size_t>(m_snapshot->tree->roots()[i])] = static_cast<int>(i);
    for (const CallTree::Node& node : nodes)
        for (std::size_t i = 0; i < node.children.size(); ++i)
            m_row[static_cast<std::size_t>(node.children[i])] = static_cast<int>(i);
    m_shown.assign(nodes.size(), std::nullopt);
    if (!m_values)
        return;
    const CallTree& tree = *m_snapshot->tree;
    for (std::size_t n = 0; n < nodes.size(); ++n) {
        const ComparisonEntry* measured = measuredEntryOf(static_cast<int>(n));
        if (!measured)
            continue;
        ComparisonEntry shown = *measured;
        // The one own-value rule of the tree views (CallTree::ownValue, docs/SEMANTICS.md 6.1): the
        // sampling children break down the exclusive time, for A and for B (so for Δ too). Mean,
        // total and one thread are all sums over threads: the rule holds for each.
        const int node = static_cast<int>(n);
        if (tree.hasSampleBreakdown(node)) {
            const auto exclusive = static_cast<std::size_t>(CompareValue::Exclusive);
            auto inclusiveOf = [&](bool a) {
                return [this, a](int c) -> std::optional<double> {
                    const ComparisonEntry* e = measuredEntryOf(c);
                    if (!e)
                        return std::nullopt;
                    return a ? e->valueA(CompareValue::Inclusive) : e->valueB(CompareValue::Inclusive);
                };
            };
            shown.a[exclusive] = tree.ownValue(node, measured->a[exclusive], inclusiveOf(true));
            shown.b[exclusive] = tree.ownValue(node, measured->b[exclusive], inclusiveOf(false));
        }
        m_maxDelta[0] = std::max(m_maxDelta[0], std::fabs(shown.delta(CompareValue::Inclusive)));
        m_maxDelta[1] = std::max(m_maxDelta[1], std::fabs(shown.delta(CompareValue::Exclusive)));
        m_shown[n] = shown;
    }
}

bool ComparisonTreeModel::hasSampleBreakdown(int node) const
{
    return m_snapshot && m_snapshot->tree && node >= 0
        && static_cast<std::size_t>(node) < m_snapshot->tree->nodes().size()
        && m_snapshot->tree->hasSampleBreakdown(node);
}

void ComparisonTreeModel::setColourBy(ColourBy by)
{
    if (by == m_colourBy)
        return;
    m_colourBy = by;
    Q_EMIT layoutAboutToBeChanged();
    Q_EMIT layoutChanged();
}

int ComparisonTreeModel::decimalsOf(int column) const
{
    const Metric* m = metric();
    if (!m || !m_values || !m_snapshot || !m_snapshot->tree || column < InclusiveA)
        return -1;
    return m_decimals.of(column, [&] {
        std::vector<const ComparisonEntry*> entries;
        for (std::size_t n = 0; n < m_snapshot->tree->nodes().size(); ++n)
            if (const ComparisonEntry* entry = entryOf(static_cast<int>(n)))
                entries.push_back(entry);
        return comparePartDecimals(entries, static_cast<ComparePart>(part(column)), *m,
            isInclusive(column) ? CompareValue::Inclusive : CompareValue::Exclusive, m_unit);
    });
}

int ComparisonTreeModel::eventOfNode(int node) const
{
    if (!m_snapshot || !m_snapshot->tree || node < 0
        || static_cast<std::size_t>(node) >= m_snapshot->tree->nodes().size())
        return -1;
    const EventId e = m_snapshot->tree->nodes()[static_cast<std::size_t>(node)].event;
    if (!e.isValid() || e.index() >= m_snapshot->eventOfDiff.size())
        return -1;
    return m_snapshot->eventOfDiff[e.index()];
}

const ComparisonEntry* ComparisonTreeModel::entryOf(int node) const
{
    if (node < 0 || static_cast<std::size_t>(node) >= m_shown.size() || !m_shown[static_cast<std::size_t>(node)])
        return nullptr;
    return &*m_shown[static_cast<std::size_t>(node)];
}

const ComparisonEntry* ComparisonTreeModel::measuredEntryOf(int node) const
{
    const int event = eventOfNode(node);
    if (event < 0 || !m_values || static_cast<std::size_t>(event) >= m_values->entries.size())
        return nullptr;
    return &m_values->entries[static_cast<std::size_t>(event)];
}

const Metric* ComparisonTreeModel::metric() const
{
    if (!m_snapshot || !m_values || m_values->query.metric < 0
        || static_cast<std::size_t>(m_values->query.metric) >= m_snapshot->metrics.size())
        return nullptr;
    return &m_snapshot->metrics[static_cast<std::size_t>(m_values->query.metric)].metric;
}

QModelIndex ComparisonTreeModel::indexOfEvent(int event) const
{
    if (!m_snapshot || !m_snapshot->tree || event < 0 || static_cast<std::size_t>(event) >= m_snapshot->events.size())
        return {};
    const EventId e = m_snapshot->events[static_cast<std::size_t>(event)].diff;
    const int node = e.isValid() ? m_snapshot->tree->nodeOf(e) : -1;
    if (node < 0)
        return {};
    return createIndex(m_row[static_cast<std::size_t>(node)], 0, static_cast<quintptr>(node));
}

const std::vector<int>* ComparisonTreeModel::childNodes(int node) const
{
    if (!m_snapshot || !m_snapshot->tree)
        return nullptr;
    const auto& tree = *m_snapshot->tree;
    return node == NoNode ? &tree.roots() : &tree.nodes()[static_cast<std::size_t>(node)].children;
}

int ComparisonTreeModel::parentNode(int node) const
{
    return m_snapshot->tree->nodes()[static_cast<std::size_t>(node)].parent;
}

int ComparisonTreeModel::rowOfNode(int node) const { return m_row[static_cast<std::size_t>(node)]; }

int ComparisonTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant ComparisonTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    const Metric* m = metric();
    const QString unit = m ? compareUnit(*m, CompareValue::Inclusive, m_unit) : QString();
    const QString suffix = unitSuffix(unit);
    if (role == Qt::DisplayRole) {
        if (section == Name)
            return tr("Call path");
        if (section == Marker)
            return tr("In");
        const QString group = isInclusive(section) ? tr("Incl.") : tr("Excl.");
        switch (part(section)) {
        case 0:
            return QString(group + QStringLiteral(" A") + suffix);
        case 1:
            return QString(group + QStringLiteral(" B") + suffix);
        case 2:
            return QString(group + QStringLiteral(" Δ") + suffix);
        case 3:
            return QString(group + QStringLiteral(" Δ %"));
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        if (section == Name)
            return tr("The union of both runs' call trees");
        if (section == Marker)
            return tr("◀ only in A (the baseline), ▶ only in B (the candidate), blank: both");
        const QString group = isInclusive(section) ? tr("Inclusive") : tr("Exclusive");
        switch (part(section)) {
        case 0:
            return isInclusive(section)
                ? tr("%1 value in A (the baseline)").arg(group)
                : tr("Exclusive (own) value in A (the baseline); under TAU sampling the [CONTEXT]/[SAMPLE] children "
                     "break the exclusive time down, so own + children = inclusive");
        case 1:
            return tr("%1 value in B (the candidate)").arg(group);
        case 2:
            return tr("%1 Δ = A − B; blue = improvement, red = regression").arg(group);
        case 3:
            return tr("%1 Δ% = 100·(A − B)/A").arg(group);
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(
            Qt::Alignment(section <= Marker ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter));
    return {};
}

QVariant ComparisonTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_snapshot || !m_snapshot->tree)
        return {};
    const int node = static_cast<int>(index.internalId());
    const CallTree::Node& n = m_snapshot->tree->nodes()[static_cast<std::size_t>(node)];
    const int column = index.column();
    const ComparisonEntry* entry = entryOf(node);
    const Metric* m = metric();
    const CompareValue value = isInclusive(column) ? CompareValue::Inclusive : CompareValue::Exclusive;
    const int p = column >= InclusiveA ? part(column) : -1;

    switch (role) {
    case Qt::DisplayRole:
        if (column == Name)
            return n.label;
        if (!entry || !m)
            return {};
        if (column == Marker)
            return presenceText(entry->inA, entry->inB);
        return comparePartText(*entry, static_cast<ComparePart>(p), *m, value, m_unit, m_locale, decimalsOf(column));
    case SortRole:
        if (column == Name)
            return n.label;
        if (!entry)
            return blankSortValue;
        if (column == Marker)
            return static_cast<int>(entry->inA) * 2 + static_cast<int>(entry->inB);
        switch (p) {
        case 0:
            return entry->inA ? entry->valueA(value) : blankSortValue;
        case 1:
            return entry->inB ? entry->valueB(value) : blankSortValue;
        case 2:
            return entry->delta(value);
        case 3: {
            const RelativeDifference r = entry->relative(value);
            return r.kind == RelativeDifference::Blank ? blankSortValue : r.percent;
        }
        default:
            return {};
        }
    case EventRole: {
        const int event = eventOfNode(node);
        return event >= 0 ? QVariant(event) : QVariant();
    }
    case NodeRole:
        return node;
    case Qt::BackgroundRole: {
        if (!entry || !m || (p != 2 && p != 3))
            return {};
        if (entry->delta(value) == 0)
            return {};
        // Intensity by Δ% or Δ (the user's choice, issue 14), as in the flat tables.
        return QBrush(changeTint(tint(*entry, value)));
    }
    case Qt::ForegroundRole:
        if (!entry)
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        if (column == Marker)
            return QBrush(entry->inA ? regressionColor() : improvementColor());
        if ((p == 2 || p == 3) && entry->delta(value) != 0)
            return QBrush(tintedTextColor(changeTint(tint(*entry, value))));
        return {};
    case Qt::FontRole:
        if (column == Marker && entry && entry->inA != entry->inB)
            return boldFont();
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(
            Qt::Alignment(column <= Marker ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ToolTipRole:
        return toolTip(node, column);
    default:
        return {};
    }
}

double ComparisonTreeModel::tint(const ComparisonEntry& entry, CompareValue value) const
{
    const Metric* m = metric();
    return tintChange(entry, value, improvementSign(m && m->higherIsBetter), m_colourBy,
        m_maxDelta[value == CompareValue::Inclusive ? 0 : 1]);
}

QString ComparisonTreeModel::toolTip(int node, int column) const
{
    const CallTree::Node& n = m_snapshot->tree->nodes()[static_cast<std::size_t>(node)];
    const int event = eventOfNode(node);
    const QString path = event >= 0 ? m_snapshot->events[static_cast<std::size_t>(event)].name : n.label;
    const ComparisonEntry* entry = entryOf(node);
    const Metric* m = metric();
    if (!entry || !m)
        return tr("%1\nNo event of this call path in either run (a prefix of longer paths), so no values.").arg(path);
    if (column == Name || column == Marker) {
        QString tip = path;
        if (entry->inA && !entry->inB)
            tip += QLatin1Char('\n') + tr("◀ Ran only in A (the baseline)");
        else if (entry->inB && !entry->inA)
            tip += QLatin1Char('\n') + tr("▶ Ran only in B (the candidate)");
        return tip;
    }
    const CompareValue value = isInclusive(column) ? CompareValue::Inclusive : CompareValue::Exclusive;
    auto text = [&](double v, bool sign = false) { return compareText(v, *m, value, m_unit, m_locale, sign); };
    const double delta = entry->delta(value);
    QString tip = tr("%1 %2 of %3\nA = %4\nB = %5\nΔ = A − B = %6")
                      .arg(compareValueName(value), m->name, path,
                          entry->inA ? text(entry->valueA(value)) : tr("— (did not run)"),
                          entry->inB ? text(entry->valueB(value)) : tr("— (did not run)"), text(delta, true));
    const RelativeDifference r = entry->relative(value);
    if (r.kind != RelativeDifference::Blank)
        tip += QLatin1Char('\n') + tr("Δ% = 100·(A − B)/A = %1").arg(r.text(m_locale));
    if (delta != 0)
        tip += QLatin1Char('\n') + deltaMeaning(*m, delta > 0);
    if (value == CompareValue::Exclusive && hasSampleBreakdown(node)) {
        const ComparisonEntry* measured = measuredEntryOf(node);
        tip += QLatin1String("\n\n")
            + tr("Own value: the exclusive time less the sampled (EBS) [CONTEXT]/[SAMPLE] rows below, which break "
                 "it down by samples, so own + children = inclusive (measured exclusive: A = %1, B = %2).")
                  .arg(text(measured->valueA(value)), text(measured->valueB(value)));
    }
    return tip;
}

} // namespace parallax
