// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/cube/cubepanemodel.h"

#include "algebra/units.h"
#include "views/charts/colors.h"
#include "views/common/valueformatter.h"
#include "views/comparison/comparisonformat.h"
#include "views/comparison/growthoverlay.h"

#include <QBrush>
#include <QLocale>
#include <algorithm>
#include <cmath>

namespace parallax {

namespace {

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

CubePaneModel::CubePaneModel(CubePane pane, QObject* parent)
    : QAbstractItemModel(parent)
    , m_pane(pane)
{
}

void CubePaneModel::setSpace(std::shared_ptr<const CubeSpace> space)
{
    beginResetModel();
    m_space = std::move(space);
    m_values.reset();
    m_boxes.clear();
    m_rows.clear();
    m_rowOf.assign(m_space ? m_space->size(m_pane) : 0, -1);
    m_growthRows.assign(m_rowOf.size(), -2);
    endResetModel();
}

void CubePaneModel::setGrowth(std::shared_ptr<const GrowthOverlay> growth)
{
    if (m_pane != CubePane::Call || growth == m_growth)
        return;
    const int column = m_showDistribution ? DistributionColumn + 1 : DistributionColumn;
    if (m_growth && !growth) {
        beginRemoveColumns({}, column, column);
        m_growth.reset();
        endRemoveColumns();
        return;
    }
    const bool adding = !m_growth;
    if (adding)
        beginInsertColumns({}, column, column);
    m_growth = std::move(growth);
    std::fill(m_growthRows.begin(), m_growthRows.end(), -2);
    if (adding)
        endInsertColumns();
    else
        refreshAll();
    Q_EMIT headerDataChanged(Qt::Horizontal, column, column);
}

int CubePaneModel::growthColumn() const
{
    if (!m_growth)
        return -1;
    return m_showDistribution ? DistributionColumn + 1 : DistributionColumn;
}

const CallPathModel* CubePaneModel::growthRow(int item) const
{
    if (!m_growth || !m_space)
        return nullptr;
    // The call path's name: "a => b" in the tree view, the region's name in the flat view.
    return m_growth->cachedFind(m_growthRows, item, [&] { return m_space->path(m_pane, item); });
}

QVariant CubePaneModel::growthData(int item, int role) const
{
    const CallPathModel* row = growthRow(item);
    const double growth = row ? row->side(m_growth->value()).growth : std::nan("");
    switch (role) {
    case Qt::DisplayRole:
        return GrowthOverlay::growthText(growth);
    case Qt::TextAlignmentRole:
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole:
        return row ? QVariant(ScalingModels::growthColour(growth)) : QVariant();
    case Qt::ForegroundRole:
        return row ? QVariant(tintedTextColor(ScalingModels::growthColour(growth))) : QVariant();
    case Qt::ToolTipRole:
        return row ? m_space->path(m_pane, item) + QLatin1Char('\n')
                + m_growth->explain(*row, m_growth->value(), m_space->trial(), m_timeUnit)
                   : tr("No model of this call path (%1)").arg(m_growth->description());
    default:
        return {};
    }
}

void CubePaneModel::setValues(std::shared_ptr<const CubeValues> values, const CubeState& state, double externalRoot)
{
    m_values = std::move(values);
    m_state = state;
    m_externalRoot = externalRoot;
    computeDecimals();
    if (m_sort == Sort::ValueDescending || m_hideBelow > 0)
        relayout();
    else
        refreshAll();
}

void CubePaneModel::refreshAll()
{
    // A range of more than one index repaints the whole viewport (QAbstractItemView::dataChanged),
    // the rows below the top level included.
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

void CubePaneModel::setMode(CubeMode mode)
{
    if (m_mode == mode)
        return;
    m_mode = mode;
    relayout();
}

void CubePaneModel::setSort(Sort sort)
{
    if (m_sort == sort)
        return;
    m_sort = sort;
    relayout();
}

void CubePaneModel::setScale(Scale scale)
{
    m_scale = scale;
    refreshAll();
}

void CubePaneModel::setHideBelow(double percent)
{
    if (m_hideBelow == percent)
        return;
    m_hideBelow = percent;
    relayout();
}

void CubePaneModel::setBoxes(QHash<int, BoxStats> boxes)
{
    m_boxes = std::move(boxes);
    if (m_showDistribution)
        refreshAll();
}

void CubePaneModel::setTimeUnit(TimeUnit unit)
{
    if (m_timeUnit == unit)
        return;
    m_timeUnit = unit;
    refreshAll();
}

void CubePaneModel::setShowDistribution(bool on)
{
    if (m_showDistribution == on)
        return;
    beginResetModel();
    m_showDistribution = on;
    endResetModel();
}

void CubePaneModel::relayout()
{
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<int> items;
    items.reserve(static_cast<std::size_t>(before.size()));
    for (const QModelIndex& i : before)
        items.push_back(itemOf(i));
    m_rows.clear();
    std::fill(m_rowOf.begin(), m_rowOf.end(), -1);
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype k = 0; k < before.size(); ++k) {
        const int item = items[static_cast<std::size_t>(k)];
        // An item hidden now (or under a hidden parent) loses its index.
        bool shown = item >= 0;
        for (int i = item; shown && i >= 0; i = m_space->item(m_pane, i).parent)
            shown = !hidden(i);
        after << (shown ? indexOfItem(item, before[k].column()) : QModelIndex());
    }
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

const std::vector<int>& CubePaneModel::rows(int parentItem) const
{
    const auto it = m_rows.constFind(parentItem);
    if (it != m_rows.cend())
        return it.value();
    std::vector<int> list;
    if (m_space) {
        const std::vector<int>& all
            = parentItem < 0 ? m_space->roots(m_pane) : m_space->item(m_pane, parentItem).children;
        list.reserve(all.size());
        for (int c : all)
            if (!hidden(c))
                list.push_back(c);
        if (m_sort == Sort::ValueDescending && m_values) {
            std::stable_sort(list.begin(), list.end(), [this](int a, int b) {
                const double va = shownValue(a);
                const double vb = shownValue(b);
                return (std::isnan(vb) ? -HUGE_VAL : vb) < (std::isnan(va) ? -HUGE_VAL : va);
            });
        } else if (m_sort == Sort::Name) {
            std::stable_sort(list.begin(), list.end(), [this](int a, int b) {
                return m_space->label(m_pane, a).compare(m_space->label(m_pane, b), Qt::CaseInsensitive) < 0;
            });
        }
        for (std::size_t r = 0; r < list.size(); ++r)
            m_rowOf[static_cast<std::size_t>(list[r])] = static_cast<int>(r);
    }
    return m_rows.insert(parentItem, list).value();
}

bool CubePaneModel::hidden(int item) const
{
    if (m_hideBelow <= 0 || !m_values || m_space->item(m_pane, item).parent < 0)
        return false;
    const double s = share(item, false);
    return !std::isnan(s) && std::abs(s) * 100.0 < m_hideBelow;
}

double CubePaneModel::shownValue(int item) const
{
    if (!m_values)
        return NaN;
    const bool expanded = m_state.pane(m_pane).isExpanded(item);
    const auto p = CubeSpace::index(m_pane);
    if (!expanded)
        return m_values->inclusive[p][static_cast<std::size_t>(item)];
    double v = m_values->exclusive[p][static_cast<std::size_t>(item)];
    if (m_hideBelow > 0)
        for (int c : m_space->item(m_pane, item).children)
            if (hidden(c))
                v += m_values->inclusive[p][static_cast<std::size_t>(c)];
    return v;
}

double CubePaneModel::modeValue(int item) const
{
    if (!m_values)
        return NaN;
    return cubeModeValue(*m_space, m_state, *m_values, m_pane, item, m_mode, m_externalRoot, shownValue(item));
}

double CubePaneModel::share(int item, bool shown) const
{
    // The reference: the mode's, or the item's own root for absolute values. The colour uses the
    // value shown; hiding compares the collapsed (inclusive) value, so an item does not vanish when
    // it is expanded.
    const auto p = CubeSpace::index(m_pane);
    const double v = shown ? shownValue(item) : m_values->inclusive[p][static_cast<std::size_t>(item)];
    const CubeMode mode
        = m_mode == CubeMode::Absolute || m_mode == CubeMode::PeerDistribution ? CubeMode::OwnRoot : m_mode;
    const double pct = cubeModeValue(*m_space, m_state, *m_values, m_pane, item, mode, m_externalRoot, v);
    return std::isnan(pct) ? NaN : std::clamp(pct / 100.0, -1.0, 1.0);
}

QString CubePaneModel::valueText(int item) const
{
    if (!m_values)
        return QString();
    const double v = m_mode == CubeMode::Absolute ? shownValue(item) : modeValue(item);
    if (std::isnan(v))
        return QStringLiteral("—");
    if (m_mode != CubeMode::Absolute)
        return withoutNegativeZero(QLocale().toString(v, 'f', 2)) + QStringLiteral(" %");
    // The unit is the selected metric's (the metric pane: the item's own).
    int metricItem = m_pane == CubePane::Metric ? item : -1;
    if (metricItem < 0 && !m_state.pane(CubePane::Metric).selected.empty())
        metricItem = m_state.pane(CubePane::Metric).selected.front();
    const int ref = metricItem < 0 ? -1 : m_space->item(CubePane::Metric, metricItem).ref;
    if (ref < 0)
        return formatNumber(v);
    const Metric& metric = m_space->trial().metrics()[static_cast<std::size_t>(ref)];
    if (metric.isTime() || std::abs(v) >= 1e6)
        return formatMetricValue(v, metric, m_timeUnit);
    // Other units (CUBE's seconds, bytes, counts): one number of decimals per column, from the
    // largest value it holds (the metric pane: per metric tree), so 0.002 sits beside 3.100.
    const int decimals = metric.unit == QLatin1String("count")
        ? 0
        : m_decimals.value(m_pane == CubePane::Metric ? m_space->rootOf(m_pane, item) : -1, 3);
    return withoutNegativeZero(QLocale().toString(v, 'f', decimals));
}

void CubePaneModel::computeDecimals()
{
    // 3 significant digits of the largest value: 4.71 -> 3 decimals, 2,576 -> 0, 0.05 -> 5.
    m_decimals.clear();
    if (!m_values)
        return;
    const auto& incl = m_values->inclusive[CubeSpace::index(m_pane)];
    auto decimalsFor = [](double largest) {
        if (!(largest > 0) || !std::isfinite(largest))
            return 3;
        return std::clamp(3 - static_cast<int>(std::floor(std::log10(largest))), 0, 6);
    };
    if (m_pane == CubePane::Metric) {
        std::vector<double> largest(incl.size(), 0.0);
        for (std::size_t i = 0; i < incl.size(); ++i) {
            const auto r = static_cast<std::size_t>(m_space->rootOf(m_pane, static_cast<int>(i)));
            if (std::isfinite(incl[i]))
                largest[r] = std::max(largest[r], std::abs(incl[i]));
        }
        for (int r : m_space->roots(m_pane))
            m_decimals.insert(r, decimalsFor(largest[static_cast<std::size_t>(r)]));
        return;
    }
    double largest = 0;
    for (double v : incl)
        if (std::isfinite(v))
            largest = std::max(largest, std::abs(v));
    m_decimals.insert(-1, decimalsFor(largest));
}

QModelIndex CubePaneModel::indexOfItem(int item, int column) const
{
    if (!m_space || item < 0 || static_cast<std::size_t>(item) >= m_space->size(m_pane))
        return {};
    const int parentItem = m_space->item(m_pane, item).parent;
    if (parentItem >= 0 && !indexOfItem(parentItem).isValid())
        return {};
    rows(parentItem);
    const int row = m_rowOf[static_cast<std::size_t>(item)];
    if (row < 0)
        return {};
    return createIndex(row, column, quintptr(item) + 1);
}

int CubePaneModel::itemOf(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<int>(index.internalId() - 1) : -1;
}

QModelIndex CubePaneModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!m_space || row < 0 || column < 0 || column >= columnCount(parent))
        return {};
    const std::vector<int>& list = rows(itemOf(parent));
    if (static_cast<std::size_t>(row) >= list.size())
        return {};
    return createIndex(row, column, quintptr(list[static_cast<std::size_t>(row)]) + 1);
}

QModelIndex CubePaneModel::parent(const QModelIndex& child) const
{
    const int item = itemOf(child);
    if (item < 0)
        return {};
    const int p = m_space->item(m_pane, item).parent;
    return p < 0 ? QModelIndex() : indexOfItem(p, 0);
}

int CubePaneModel::rowCount(const QModelIndex& parent) const
{
    if (!m_space || (parent.isValid() && parent.column() != 0))
        return 0;
    return static_cast<int>(rows(itemOf(parent)).size());
}

int CubePaneModel::columnCount(const QModelIndex&) const { return (m_showDistribution ? 3 : 2) + (m_growth ? 1 : 0); }

QVariant CubePaneModel::data(const QModelIndex& index, int role) const
{
    const int item = itemOf(index);
    if (item < 0)
        return {};
    if (index.column() == growthColumn() && role != ItemRole)
        return growthData(item, role);
    switch (role) {
    case ItemRole:
        return item;
    case ShareRole:
        return m_values ? share(item, true) : NaN;
    case BoxRole: {
        const auto it = m_boxes.constFind(item);
        return it == m_boxes.cend() ? QVariant() : QVariant::fromValue(it.value());
    }
    case Qt::DisplayRole:
        if (index.column() == ValueColumn)
            return valueText(item);
        if (index.column() == NameColumn)
            return m_space->label(m_pane, item);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == ValueColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::DecorationRole: {
        if (index.column() != ValueColumn || !m_values)
            return {};
        // The severity colour of the value (docs/SEMANTICS.md §6): its share of the reference.
        const double s = share(item, true);
        if (std::isnan(s))
            return QColor(Qt::transparent);
        const double a = std::abs(s);
        const double t = m_scale == Scale::Quadratic ? a * a
            : m_scale == Scale::Exponential          ? (std::exp(4.0 * a) - 1.0) / (std::exp(4.0) - 1.0)
                                                     : a;
        return s < 0 ? divergingColor(-t)
                     : (m_space->trial().provenance().operation == QLatin1String("diff") ? divergingColor(t)
                                                                                         : sequentialColor(t));
    }
    case Qt::ToolTipRole: {
        QString tip = m_space->path(m_pane, item);
        if (m_pane == CubePane::Metric) {
            const int ref = m_space->item(m_pane, item).ref;
            if (ref >= 0) {
                const auto& info = m_space->metricInfo(MetricId(static_cast<std::size_t>(ref)));
                const Metric& metric = m_space->trial().metrics()[static_cast<std::size_t>(ref)];
                tip = QStringLiteral("<b>%1</b> (%2)")
                          .arg(metric.name.toHtmlEscaped(),
                              metric.unit.isEmpty() ? tr("no unit") : metric.unit.toHtmlEscaped());
                if (!info.description.isEmpty())
                    tip += QStringLiteral("<br>") + info.description.toHtmlEscaped();
                if (!info.url.isEmpty())
                    tip += QStringLiteral("<br>") + info.url.toHtmlEscaped();
                if (metric.derived)
                    tip += QStringLiteral("<br>= ") + metric.expression.toHtmlEscaped();
            } else {
                tip = tr("Derived metrics (no value of their own)");
            }
        } else if (m_pane == CubePane::Call) {
            const CubeSpace::RegionInfo r = m_space->regionInfo(item);
            tip += QStringLiteral("\n") + tr("Kind: %1").arg(r.kind);
            if (!r.file.isEmpty())
                tip += QStringLiteral("\n") + tr("Source: %1, line %2").arg(r.file).arg(r.line);
            if (const CallPathModel* row = growthRow(item))
                tip += QStringLiteral("\n") + m_growth->explain(*row, m_growth->value(), m_space->trial(), m_timeUnit);
        } else if (m_pane == CubePane::System) {
            tip = QStringLiteral("%1 (%2)").arg(m_space->label(m_pane, item), m_space->systemLevel(item));
        }
        if (m_values) {
            const bool expanded = m_state.pane(m_pane).isExpanded(item);
            tip += QStringLiteral("\n")
                + tr("%1: %2 (%3)")
                      .arg(m_mode == CubeMode::Absolute ? tr("Value") : cubeModeLabel(m_mode), valueText(item),
                          expanded ? tr("expanded: own value") : tr("collapsed: inclusive value"));
        }
        return m_pane == CubePane::Metric ? QVariant(tip.replace(QLatin1Char('\n'), QStringLiteral("<br>"))) : tip;
    }
    default:
        return {};
    }
}

QVariant CubePaneModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (section == growthColumn() && (role == Qt::DisplayRole || role == Qt::ToolTipRole))
        return role == Qt::DisplayRole
            ? tr("Growth at %1").arg(groupingLocale().toString(m_growth->target(), 'f', 0))
            : tr("Growth = the call path's model predicted at P / measured at the largest run: %1 "
                 "(docs/SEMANTICS.md §10.6); the model is in the tooltips")
                  .arg(m_growth->description());
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ValueColumn:
        return m_mode == CubeMode::Absolute ? tr("Value") : cubeModeLabel(m_mode);
    case NameColumn:
        return m_pane == CubePane::Metric ? tr("Metric") : m_pane == CubePane::Call ? tr("Call path") : tr("Location");
    case DistributionColumn:
        return tr("Across locations");
    default:
        return {};
    }
}

} // namespace parallax
