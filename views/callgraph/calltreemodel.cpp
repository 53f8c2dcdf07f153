// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/callgraph/calltreemodel.h"

#include "algebra/calltree.h"
#include "algebra/statistics.h"
#include "views/common/valueformatter.h"
#include "views/comparison/comparisonformat.h"
#include "views/comparison/growthoverlay.h"
#include "views/statisticsmodel.h"

#include <QAbstractProxyModel>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <algorithm>
#include <cmath>
#include <limits>

namespace parallax {

namespace {

/// The value column of a model column (the value columns run Exclusive..InclusivePerCall).
std::optional<ValueColumn> valueColumn(int column) { return valueColumnAt(column, CallTreeModel::Exclusive); }

/// Blank cells sort after every number in descending order (the usual one).
constexpr double blankSortValue = -std::numeric_limits<double>::infinity();

std::size_t at(int i) { return static_cast<std::size_t>(i); }

} // namespace

CallTreeModel::CallTreeModel(QObject* parent)
    : TreeModel(parent)
    , m_locale(groupingLocale(QLocale()))
{
}

CallTreeModel::~CallTreeModel() = default;

void CallTreeModel::setTrial(std::shared_ptr<const Trial> trial, MetricId metric)
{
    beginResetModel();
    m_trial = std::move(trial);
    m_stats = m_trial ? TrialStatistics::of(*m_trial) : nullptr;
    m_tree = m_trial ? CallTree::of(*m_trial) : nullptr;
    if (m_trial && (!metric.isValid() || metric.index() >= m_trial->metricCount()))
        metric = m_trial->metricCount() > 0 ? MetricId(0u) : MetricId();
    m_metric = m_trial ? metric : MetricId();
    if (!m_trial || (m_thread.isValid() && m_thread.index() >= m_trial->threadCount()))
        m_thread = ThreadIndex();
    m_expanded.assign(m_tree ? m_tree->nodes().size() : 0, false);
    m_growthRows.assign(m_tree ? m_tree->nodes().size() : 0, -2);
    rebuild();
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void CallTreeModel::setMetric(MetricId metric)
{
    if (!m_trial || !metric.isValid() || metric.index() >= m_trial->metricCount() || metric == m_metric)
        return;
    m_metric = metric;
    m_decimals.clear();
    emitAllDataChanged();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void CallTreeModel::setStatistic(Statistic statistic)
{
    if (!m_thread.isValid()) {
        if (statistic == m_statistic)
            return;
        m_statistic = statistic;
        m_decimals.clear();
        emitAllDataChanged();
    } else {
        beginResetModel();
        m_statistic = statistic;
        m_thread = ThreadIndex();
        rebuild();
        endResetModel();
    }
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void CallTreeModel::setThread(ThreadIndex thread)
{
    if (thread.isValid() && (!m_trial || thread.index() >= m_trial->threadCount()))
        return;
    if (thread == m_thread)
        return;
    beginResetModel();
    m_thread = thread;
    rebuild();
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void CallTreeModel::setTimeUnit(TimeUnit unit)
{
    if (unit == m_timeUnit)
        return;
    m_timeUnit = unit;
    m_decimals.clear();
    emitAllDataChanged();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void CallTreeModel::setLocale(const QLocale& locale)
{
    m_locale = groupingLocale(locale);
    m_decimals.clear();
    emitAllDataChanged();
}

void CallTreeModel::setGrowth(std::shared_ptr<const GrowthOverlay> growth)
{
    m_growth = std::move(growth);
    std::fill(m_growthRows.begin(), m_growthRows.end(), -2);
    emitAllDataChanged();
    Q_EMIT headerDataChanged(Qt::Horizontal, GrowthModel, Growth);
}

QString CallTreeModel::nodePath(int node) const
{
    const CallTree::Node& n = m_tree->nodes()[at(node)];
    if (n.event.isValid())
        return m_trial->event(n.event).name;
    return n.parent >= 0 ? nodePath(n.parent) + QStringLiteral(" => ") + n.label : n.label;
}

const CallPathModel* CallTreeModel::growthRow(int node) const
{
    if (!m_growth || !m_tree)
        return nullptr;
    return m_growth->cachedFind(m_growthRows, node, [&] { return nodePath(node); });
}

QVariant CallTreeModel::growthData(int node, int column, int role) const
{
    const CallPathModel* row = growthRow(node);
    const CallPathModel::Side* side = row ? &row->side(m_growth->value()) : nullptr;
    switch (role) {
    case Qt::DisplayRole:
        if (!m_growth)
            return {};
        if (!side)
            return QStringLiteral("—");
        return column == GrowthModel ? m_growth->formulaText(*side) : GrowthOverlay::growthText(side->growth);
    case SortRole: {
        const double v = !side ? std::nan("") : column == GrowthModel ? side->predicted : side->growth;
        return std::isnan(v) ? blankSortValue : v;
    }
    case Qt::ToolTipRole:
        if (!m_growth)
            return tr("No growth models: select two or more runs of a scaling study in the Trials dock, then Growth "
                      "at Scale from the Selected Trials…");
        if (!row)
            return tr("No model: no run of the study measured this call path (%1)").arg(m_growth->description());
        return m_growth->explain(*row, m_growth->value(), *m_trial, m_timeUnit);
    case Qt::BackgroundRole:
        if (column == Growth && side)
            return ScalingModels::growthColour(side->growth);
        return {};
    case Qt::ForegroundRole:
        if (column == Growth && side)
            return tintedTextColor(ScalingModels::growthColour(side->growth));
        return {};
    case Qt::TextAlignmentRole:
        return column == GrowthModel ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                     : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

bool CallTreeModel::isTruncated() const { return m_tree && m_tree->isTruncated(); }

QString CallTreeModel::truncationNote() const
{
    if (!isTruncated())
        return {};
    return tr("Call paths were recorded with TAU_CALLPATH_DEPTH = %1, and some reach that depth: top-level rows may "
              "be depth-limited suffixes of longer paths rather than true roots, so the tree is not rooted and its "
              "rows do not add up to the program total (use the flat profile for totals).")
        .arg(m_tree->callPathDepthLimit());
}

void CallTreeModel::setEventFilter(std::function<bool(EventId)> filter)
{
    beginResetModel();
    m_filter = std::move(filter);
    rebuild();
    endResetModel();
}

void CallTreeModel::rebuild()
{
    m_decimals.clear();
    m_children.clear();
    m_roots.clear();
    m_row.clear();
    m_cell.clear();
    if (!m_tree)
        return;
    const auto& nodes = m_tree->nodes();
    const std::size_t n = nodes.size();
    std::vector<bool> keep(n, true);
    if (m_thread.isValid()) {
        // Only what ran on this thread: "did not run" is not a row of zeros. A parent is created
        // before its children, so one backward pass sees every child before its parent.
        const RowView row = m_trial->row(m_thread);
        m_cell.assign(n, -1);
        for (std::size_t i = 0; i < n; ++i)
            if (nodes[i].event.isValid())
                m_cell[i] = row.find(nodes[i].event);
        std::vector<bool> any(n, false);
        for (std::size_t i = n; i-- > 0;) {
            any[i] = any[i] || m_cell[i] >= 0;
            if (any[i] && nodes[i].parent >= 0)
                any[at(nodes[i].parent)] = true;
        }
        keep = std::move(any);
    }
    if (m_filter) {
        // Group and name filters: a node stays when its event passes or a descendant's does, so the
        // path to every visible node remains.
        std::vector<bool> visible(n, false);
        for (std::size_t i = n; i-- > 0;) {
            visible[i] = visible[i] || (nodes[i].event.isValid() && m_filter(nodes[i].event));
            if (visible[i] && nodes[i].parent >= 0)
                visible[at(nodes[i].parent)] = true;
        }
        for (std::size_t i = 0; i < n; ++i)
            keep[i] = keep[i] && visible[i];
    }
    m_children.resize(n);
    m_row.assign(n, -1);
    for (std::size_t i = 0; i < n; ++i) {
        for (int c : nodes[i].children) {
            if (!keep[at(c)])
                continue;
            m_row[at(c)] = static_cast<int>(m_children[i].size());
            m_children[i].push_back(c);
        }
    }
    for (int r : m_tree->roots()) {
        if (!keep[at(r)])
            continue;
        m_row[at(r)] = static_cast<int>(m_roots.size());
        m_roots.push_back(r);
    }
}

QModelIndex CallTreeModel::indexOfNode(int node) const
{
    if (node < 0 || at(node) >= m_row.size() || m_row[at(node)] < 0)
        return {};
    return createIndex(m_row[at(node)], 0, static_cast<quintptr>(node));
}

QModelIndex CallTreeModel::indexOfEvent(EventId event) const
{
    if (!m_tree || !event.isValid())
        return {};
    return indexOfNode(m_tree->nodeOf(event));
}

int CallTreeModel::nodeAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this)
        return -1;
    return static_cast<int>(index.internalId());
}

bool CallTreeModel::isExpanded(int node) const
{
    return node >= 0 && at(node) < m_expanded.size() && m_expanded[at(node)];
}

void CallTreeModel::setExpanded(const QModelIndex& viewIndex, bool expanded)
{
    QModelIndex index = viewIndex;
    // The view usually shows a sort/filter proxy (or a chain of them) over this model.
    while (index.isValid() && index.model() != this) {
        const auto* proxy = qobject_cast<const QAbstractProxyModel*>(index.model());
        if (!proxy)
            return;
        index = proxy->mapToSource(index);
    }
    const int node = nodeAt(index);
    if (node < 0 || m_expanded[at(node)] == expanded)
        return;
    m_expanded[at(node)] = expanded;
    const QModelIndex value = index.siblingAtColumn(Value);
    Q_EMIT dataChanged(value, value);
}

const IntervalEvent* CallTreeModel::eventOf(int node) const
{
    const EventId e = m_tree->nodes()[at(node)].event;
    return e.isValid() ? &m_trial->event(e) : nullptr;
}

bool CallTreeModel::isTime() const { return m_trial && m_metric.isValid() && m_trial->metric(m_metric).isTime(); }

std::optional<double> CallTreeModel::value(int node, int column) const
{
    const CallTree::Node& n = m_tree->nodes()[at(node)];
    if (n.isSynthetic() || !m_metric.isValid() || column == Name)
        return std::nullopt;
    if (column == Value) {
        if (isExpanded(node))
            return ownValue(node);
        column = Inclusive;
    }
    const ValueType type = *valueColumn(column);
    if (!m_thread.isValid())
        return statisticValue(*m_trial, *m_stats, n.event, m_metric, type, m_statistic);
    const std::ptrdiff_t cell = m_cell[at(node)];
    if (cell < 0)
        return std::nullopt;
    return shownCellValue(*m_trial, *m_stats, m_thread, static_cast<std::size_t>(cell), m_metric, type);
}

bool CallTreeModel::isNonAdditive() const
{
    if (!m_trial || !m_metric.isValid())
        return false;
    const QStringList names = m_trial->metadataValue(QStringLiteral("CUBE non-additive metrics"))
                                  .split(QStringLiteral(", "), Qt::SkipEmptyParts);
    return names.contains(m_trial->metric(m_metric).name);
}

std::optional<double> CallTreeModel::mismatch(int node) const
{
    const auto& nodes = m_tree->nodes();
    const bool additive = m_thread.isValid() || m_statistic == Statistic::MeanAll
        || m_statistic == Statistic::MeanPresent || m_statistic == Statistic::Total;
    if (!additive || isNonAdditive() || nodes[at(node)].children.empty())
        return std::nullopt;
    const std::optional<double> own = ownValue(node);
    const std::optional<double> inclusive = value(node, Inclusive);
    if (!own || !inclusive)
        return std::nullopt;
    double sum = *own;
    double magnitude = std::fabs(*own);
    for (int c : nodes[at(node)].children) {
        const double v = value(c, Inclusive).value_or(0.0);
        sum += v;
        magnitude += std::fabs(v);
    }
    const double difference = sum - *inclusive;
    if (std::fabs(difference) <= 1e-6 * std::max(std::fabs(*inclusive), magnitude) + 1e-9)
        return std::nullopt;
    return difference;
}

bool CallTreeModel::hasSampledChildren(int node) const { return m_tree->hasSampleBreakdown(node); }

double CallTreeModel::sampledChildren(int node, int inclusiveColumn) const
{
    return m_tree->sampleBreakdown(node, [&](int c) { return value(c, inclusiveColumn); });
}

std::optional<double> CallTreeModel::ownValue(int node, int exclusiveColumn) const
{
    const std::optional<double> exclusive = value(node, exclusiveColumn);
    // Minima, maxima and deviations do not add up over the tree: nothing to subtract there.
    const bool additive = m_thread.isValid() || m_statistic == Statistic::MeanAll
        || m_statistic == Statistic::MeanPresent || m_statistic == Statistic::Total;
    if (!exclusive || !additive || !hasSampledChildren(node))
        return exclusive;
    const int inclusiveColumn = exclusiveColumn == Exclusive ? Inclusive : InclusivePercent;
    return m_tree->ownValue(node, *exclusive, [&](int c) { return value(c, inclusiveColumn); });
}

QString CallTreeModel::display(int node, int column) const
{
    if (column == Name)
        return m_tree->nodes()[at(node)].label;
    const std::optional<double> v = value(node, column);
    if (!v)
        return {};
    // Value is exclusive or inclusive: in the metric's unit either way.
    const ValueColumn shown = column == Value ? ValueColumn::Inclusive : *valueColumn(column);
    return formatValue(shown, *v, m_trial->metric(m_metric), m_timeUnit, m_locale, fractional(), decimalsOf(column));
}

bool CallTreeModel::fractional() const
{
    // Means and deviations over threads are fractional counts: the column shares two decimals.
    return !isThreadMode()
        && (m_statistic == Statistic::MeanAll || m_statistic == Statistic::MeanPresent
            || m_statistic == Statistic::StdDevAll || m_statistic == Statistic::StdDevPresent);
}

int CallTreeModel::decimalsOf(int column) const
{
    return m_decimals.of(column, [&] {
        // Over every node the tree can show, expanded or not: expanding keeps the decimals.
        std::vector<double> values;
        for (std::size_t node = 0; node < m_row.size(); ++node)
            if (m_row[node] >= 0)
                if (const std::optional<double> v = value(static_cast<int>(node), column))
                    values.push_back(*v);
        const ValueColumn shown = column == Value ? ValueColumn::Inclusive : *valueColumn(column);
        return valueColumnDecimals(shown, values, m_trial->metric(m_metric), m_timeUnit, fractional());
    });
}

QString CallTreeModel::rawText(double v, bool metricValue) const
{
    return rawValueText(v, m_trial->metric(m_metric), metricValue);
}

QString CallTreeModel::sourceDescription() const
{
    if (!m_trial)
        return {};
    if (m_thread.isValid())
        return tr("on thread %1").arg(m_trial->threadKey(m_thread).toString());
    const auto n = static_cast<qulonglong>(m_trial->threadCount());
    switch (m_statistic) {
    case Statistic::MeanAll:
        return tr("mean over all %1 threads (absent = 0)").arg(n);
    case Statistic::MeanPresent:
        return tr("mean over the threads where it ran");
    case Statistic::Total:
        return tr("total over all %1 threads").arg(n);
    case Statistic::Min:
        return tr("minimum over the threads where it ran");
    case Statistic::Max:
        return tr("maximum over the threads where it ran");
    case Statistic::StdDevAll:
        return tr("standard deviation over all %1 threads (absent = 0)").arg(n);
    case Statistic::StdDevPresent:
        return tr("standard deviation over the threads where it ran");
    }
    return {};
}

QString CallTreeModel::toolTip(int node, int column) const
{
    const CallTree::Node& n = m_tree->nodes()[at(node)];
    const IntervalEvent* event = eventOf(node);
    if (column == Name) {
        QString tip;
        if (event) {
            tip = event->name + QLatin1Char('\n')
                + (event->isCallPath() ? tr("Call path of depth %1").arg(event->depth) : tr("Flat event"));
        } else {
            tip = n.label + QLatin1Char('\n')
                + tr("Synthetic node: this path prefix is not itself an event in the profile (it only appears "
                     "inside longer call paths), so it has no values");
        }
        if (n.sampleBreakdown)
            tip += QLatin1String("\n\n")
                + tr("Sampled (EBS) breakdown of the parent's exclusive time: these samples were taken while "
                     "the parent itself ran, so the parent's expanded value is its exclusive time less this row.");
        if (n.parent < 0 && isTruncated())
            tip += QLatin1String("\n\n") + truncationNote();
        return tip;
    }
    if (!event)
        return tr("Synthetic node: no values");
    const std::optional<double> v = value(node, column);
    const QString metricName = m_trial->metric(m_metric).name;
    const QString where = sourceDescription();
    const QString undefined = m_thread.isValid() ? tr("undefined (did not run or no calls)") : tr("undefined");
    auto valueText = [&](bool metricValue) { return v ? rawText(*v, metricValue) : undefined; };
    switch (column) {
    case Value: {
        const bool expanded = isExpanded(node);
        QString note;
        if (const auto off = expanded ? mismatch(node) : std::nullopt)
            note = QLatin1String("\n\n")
                + tr("The profile's numbers do not add up here: own + the children's inclusive values exceed the "
                     "inclusive value by %1 (callees without call-path records, timer or sampling granularity, "
                     "recursion, or a metric that is not a sum).")
                      .arg(rawText(*off, true));
        if (expanded && hasSampledChildren(node)) {
            const auto exclusive = value(node, Exclusive);
            return tr("Expanded: own %1 %2: %3\n= exclusive %4 less %5 broken down by the sampled "
                      "[CONTEXT]/[SAMPLE] rows below (TAU's event-based sampling attributes the samples of this "
                      "node's own time to them; they are not callees). Own + the children's inclusive values = "
                      "inclusive.%6")
                       .arg(metricName, where, valueText(true), exclusive ? rawText(*exclusive, true) : undefined,
                           rawText(sampledChildren(node), true),
                           v && *v < 0 ? tr("\nNegative: the samples exceed the measured exclusive time (sampling "
                                            "granularity); the profile says so, Parallax does not hide it.")
                                       : QString())
                + note;
        }
        if (expanded && isNonAdditive())
            return tr("Expanded: %1 %2: %3\n%1 is a minimum or maximum over visits (the profile says it does not "
                      "add up): the children's values are not parts of it.")
                .arg(metricName, where, valueText(true));
        if (expanded)
            return tr("Expanded: exclusive %1 %2: %3\nThe rest of its inclusive value is shown by its children; "
                      "collapse the row to see the inclusive value.")
                       .arg(metricName, where, valueText(true))
                + note;
        QString tip = tr("Collapsed: inclusive %1 %2: %3\n(the node and everything it called)")
                          .arg(metricName, where, valueText(true));
        if (!m_children[at(node)].empty())
            tip += QLatin1Char('\n') + tr("Expand the row to see its exclusive value.");
        return tip;
    }
    case Exclusive:
        return tr("Exclusive %1 %2: %3\n(spent in this call path itself, not in what it called)")
            .arg(metricName, where, valueText(true));
    case Inclusive:
        return tr("Inclusive %1 %2: %3\n(spent in this call path and everything it called)")
            .arg(metricName, where, valueText(true));
    case ExclusivePercent:
    case InclusivePercent: {
        const QString what = column == ExclusivePercent ? tr("exclusive") : tr("inclusive");
        if (!v)
            return tr("Percent is not defined for the %1").arg(statisticName(m_statistic));
        if (m_thread.isValid())
            return tr("100 × %1 %2 / the thread's top inclusive %3 (%4) = %5 %")
                .arg(what, metricName, metricName, rawText(m_stats->threadTopInclusive(m_thread, m_metric), true),
                    rawNumber(*v));
        return tr("100 × total %1 %2 / D = %3 %\nD is the sum over all threads of each thread's top inclusive %4")
            .arg(what, metricName, rawNumber(*v), metricName);
    }
    case Calls:
        return tr("Calls of this call path %1: %2").arg(where, valueText(false));
    case Subroutines:
        return tr("Calls made from this call path to other events %1: %2").arg(where, valueText(false));
    case ExclusivePerCall:
    case InclusivePerCall: {
        const QString what = column == ExclusivePerCall ? tr("Exclusive") : tr("Inclusive");
        return tr("%1 %2 per call %3: %4").arg(what, metricName, where, valueText(true));
    }
    default:
        return {};
    }
}

const std::vector<int>* CallTreeModel::childNodes(int node) const
{
    if (!m_tree)
        return nullptr;
    return node == NoNode ? &m_roots : &m_children[at(node)];
}

int CallTreeModel::parentNode(int node) const { return m_tree->nodes()[at(node)].parent; }

int CallTreeModel::rowOfNode(int node) const { return m_row[at(node)]; }

int CallTreeModel::columnCount(const QModelIndex& parent) const
{
    Q_UNUSED(parent);
    return ColumnCount;
}

QVariant CallTreeModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_trial)
        return {};
    const int node = nodeAt(index);
    const int column = index.column();
    const bool synthetic = m_tree->nodes()[at(node)].isSynthetic();
    // A synthetic row is grey in every column, the growth columns too.
    if ((column == GrowthModel || column == Growth) && !(synthetic && role == Qt::ForegroundRole))
        return growthData(node, column, role);
    switch (role) {
    case Qt::DisplayRole:
        return display(node, column);
    case SortRole: {
        if (column == Name)
            return display(node, column);
        const std::optional<double> v = value(node, column);
        return v ? *v : blankSortValue;
    }
    case Qt::ToolTipRole:
        return toolTip(node, column);
    case Qt::TextAlignmentRole:
        return column == Name ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                              : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (synthetic)
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::FontRole:
        if (synthetic && column == Name) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case EventRole:
        if (synthetic)
            return {};
        return m_tree->nodes()[at(node)].event.index();
    case NodeRole:
        return node;
    case PercentRole: {
        if (column != Value && column != Exclusive && column != Inclusive)
            return {};
        const bool exclusive = column == Exclusive || (column == Value && isExpanded(node));
        const std::optional<double> percent = column == Value && exclusive
            ? ownValue(node, ExclusivePercent)
            : value(node, exclusive ? ExclusivePercent : InclusivePercent);
        return percent ? QVariant(*percent) : QVariant();
    }
    default:
        return {};
    }
}

// The value columns run Exclusive..InclusivePerCall in ValueColumn's order.
static_assert(CallTreeModel::InclusivePerCall - CallTreeModel::Exclusive == ValueColumnCount - 1);

QVariant CallTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    QString unit;
    if (isTime())
        unit = unitSuffix(unitLabel(m_trial->metric(m_metric), m_timeUnit));
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Name:
            return isTruncated() ? tr("Name (truncated paths)") : tr("Name");
        case Value:
            return QString(tr("Value") + unit);
        case GrowthModel:
            return m_growth ? tr("Model f(%1)").arg(m_growth->set().parameterName) : tr("Model");
        case Growth:
            return m_growth ? tr("Growth at %1").arg(groupingLocale().toString(m_growth->target(), 'f', 0))
                            : tr("Growth at P");
        default:
            return valueColumnHeader(*valueColumn(section), unit);
        }
    }
    if (role == Qt::TextAlignmentRole)
        return section == Name || section == GrowthModel ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                         : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        const QString metricName = m_trial && m_metric.isValid() ? m_trial->metric(m_metric).name : tr("the metric");
        const QString where = sourceDescription();
        switch (section) {
        case Name: {
            QString tip = tr("The call tree built from the call-path events (\"a => b\"); grey rows are path prefixes "
                             "that are not events themselves");
            if (isTruncated())
                tip += QLatin1String("\n\n") + truncationNote();
            return tip;
        }
        case Value:
            return tr("%1 %2, as CUBE shows it: a collapsed row shows its inclusive value, an expanded row its "
                      "exclusive value (its children show the rest)")
                .arg(metricName, where);
        case GrowthModel:
        case Growth: {
            const QString what = m_growth ? m_growth->description() : tr("no growth models attached");
            return section == GrowthModel
                ? tr("Each call path's Extra-P model over the runs of the scaling study (%1); sorted by its "
                     "prediction at P (docs/SEMANTICS.md §10.6)")
                      .arg(what)
                : tr("Growth = the model's prediction at P / the value measured at the largest run (%1): red grows, "
                     "blue shrinks, on a log scale")
                      .arg(what);
        }
        default:
            return valueColumnToolTip(*valueColumn(section), metricName, where);
        }
    }
    return {};
}

} // namespace parallax
