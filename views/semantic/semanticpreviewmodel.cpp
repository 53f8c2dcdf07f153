// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/semantic/semanticpreviewmodel.h"

#include "views/common/valueformatter.h"

#include <QBrush>
#include <QFont>
#include <QHash>
#include <cmath>
#include <functional>
#include <limits>

namespace parallax {

using namespace parallax::semantic;

namespace {

/// Entities in tree order (roots, each followed by its subtree) with their depth.
std::vector<std::pair<int, int>> treeOrder(const SemanticProfile& p)
{
    std::vector<std::pair<int, int>> order;
    std::function<void(int, int)> visit = [&](int r, int depth) {
        order.emplace_back(r, depth);
        for (int c : p.entity(r).children)
            visit(c, depth + 1);
    };
    for (int r : p.roots())
        visit(r, 0);
    return order;
}

std::vector<double> totals(const SemanticProfile& p, int r, Quantity q)
{
    std::vector<double> v(p.metricCount(), 0.0);
    for (std::size_t m = 0; m < p.metricCount(); ++m)
        v[m] = p.scoped(r, MetricId(m), q, Scope::total());
    return v;
}

std::vector<double> attributed(const SemanticProfile& p)
{
    std::vector<double> v(p.metricCount(), 0.0);
    for (std::size_t r = 0; r < p.entities().size(); ++r)
        for (std::size_t m = 0; m < p.metricCount(); ++m)
            v[m] += p.scoped(static_cast<int>(r), MetricId(m), Quantity::Own, Scope::total());
    return v;
}

/// A row's entity fields; where it is and its numbers are the caller's.
PreviewRow entityRow(const ResolvedEntity& e, int depth)
{
    PreviewRow row;
    row.id = e.id;
    row.name = e.name;
    row.kind = e.kind;
    row.depth = depth;
    row.estimate = e.estimate;
    return row;
}

} // namespace

std::shared_ptr<const PreviewData> PreviewData::make(const SemanticProfile* before, const SemanticProfile& after)
{
    auto data = std::make_shared<PreviewData>();
    const Trial& trial = after.trial();
    data->metrics = trial.metrics();
    data->threads = trial.threadCount();
    data->sourceTotal.assign(trial.metricCount(), 0.0);
    for (std::size_t m = 0; m < trial.metricCount(); ++m)
        for (std::size_t t = 0; t < trial.threadCount(); ++t)
            data->sourceTotal[m] += after.sourceTotal(ThreadIndex(t), MetricId(m));
    data->afterAttributed = attributed(after);
    data->haveBefore = before != nullptr;
    if (before)
        data->beforeAttributed = attributed(*before);
    else
        data->beforeAttributed.assign(trial.metricCount(), 0.0);

    QHash<QString, std::size_t> byId;
    for (const auto& [r, depth] : treeOrder(after)) {
        const ResolvedEntity& e = after.entity(r);
        PreviewRow row = entityRow(e, depth);
        row.inAfter = true;
        row.aggregated = e.aggregatedMember;
        row.after = totals(after, r, Quantity::Roll);
        row.before.assign(trial.metricCount(), 0.0);
        byId.insert(e.id, data->rows.size());
        data->rows.push_back(std::move(row));
    }
    if (before) {
        for (const auto& [r, depth] : treeOrder(*before)) {
            const ResolvedEntity& e = before->entity(r);
            const auto it = byId.constFind(e.id);
            if (it != byId.cend()) {
                PreviewRow& row = data->rows[*it];
                row.inBefore = true;
                row.before = totals(*before, r, Quantity::Roll);
                row.estimate = row.estimate || e.estimate;
                continue;
            }
            PreviewRow row = entityRow(e, depth);
            row.inBefore = true;
            row.before = totals(*before, r, Quantity::Roll);
            row.after.assign(trial.metricCount(), 0.0);
            data->rows.push_back(std::move(row));
        }
    }
    return data;
}

SemanticPreviewModel::SemanticPreviewModel(QObject* parent)
    : QAbstractTableModel(parent)
    , m_locale(groupingLocale())
{
}

void SemanticPreviewModel::setPreview(std::shared_ptr<const PreviewData> data)
{
    beginResetModel();
    m_data = std::move(data);
    if (m_data && m_metric >= static_cast<int>(m_data->metrics.size()))
        m_metric = 0;
    endResetModel();
}

void SemanticPreviewModel::refresh() { emitCellsChanged(this, true); }

void SemanticPreviewModel::setMetric(int metric)
{
    if (metric == m_metric)
        return;
    m_metric = metric;
    refresh();
}

void SemanticPreviewModel::setValueScope(ValueScope scope)
{
    if (scope == m_scope)
        return;
    m_scope = scope;
    refresh();
}

void SemanticPreviewModel::setTimeUnit(TimeUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    refresh();
}

int SemanticPreviewModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_data ? 0 : static_cast<int>(m_data->rows.size());
}

int SemanticPreviewModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

double SemanticPreviewModel::scoped(double total) const
{
    if (m_scope == ValueScope::Total || !m_data || m_data->threads == 0)
        return total;
    return total / static_cast<double>(m_data->threads);
}

double SemanticPreviewModel::metricValue(const std::vector<double>& values) const
{
    const auto m = static_cast<std::size_t>(m_metric);
    return scoped(m < values.size() ? values[m] : 0.0);
}

int SemanticPreviewModel::findRow(const QString& id) const
{
    if (!m_data)
        return -1;
    for (std::size_t i = 0; i < m_data->rows.size(); ++i)
        if (m_data->rows[i].id == id)
            return static_cast<int>(i);
    return -1;
}

double SemanticPreviewModel::beforeValue(int row) const
{
    return metricValue(m_data->rows[static_cast<std::size_t>(row)].before);
}

double SemanticPreviewModel::afterValue(int row) const
{
    return metricValue(m_data->rows[static_cast<std::size_t>(row)].after);
}

double SemanticPreviewModel::sourceTotal() const { return m_data ? metricValue(m_data->sourceTotal) : 0; }

double SemanticPreviewModel::attributedBefore() const { return m_data ? metricValue(m_data->beforeAttributed) : 0; }

double SemanticPreviewModel::attributedAfter() const { return m_data ? metricValue(m_data->afterAttributed) : 0; }

QString SemanticPreviewModel::formatted(double value) const
{
    if (!m_data || m_metric >= static_cast<int>(m_data->metrics.size()))
        return m_locale.toString(value);
    const Metric& metric = m_data->metrics[static_cast<std::size_t>(m_metric)];
    const QString unit = unitLabel(metric, m_unit);
    const QString number = formatMetricValue(value, metric, m_unit, m_locale);
    return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

QVariant SemanticPreviewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    QString unit;
    if (m_data && m_metric < static_cast<int>(m_data->metrics.size()))
        unit = unitLabel(m_data->metrics[static_cast<std::size_t>(m_metric)], m_unit);
    const QString suffix = unitSuffix(unit);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Entity:
            return tr("Entity");
        case Kind:
            return tr("Kind");
        case Before:
            return QString(tr("Before") + suffix);
        case After:
            return QString(tr("After") + suffix);
        case Change:
            return QString(tr("Change") + suffix);
        case ChangePercent:
            return tr("Change %");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Before:
            return tr("Roll-up under the model in use (the last one applied)");
        case After:
            return tr("Roll-up under the model in the editor; nothing is applied until Apply");
        case Change:
            return tr("After − before");
        case ChangePercent:
            return tr("100·(after − before)/before");
        }
    }
    if (role == Qt::TextAlignmentRole && section >= Before)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant SemanticPreviewModel::data(const QModelIndex& index, int role) const
{
    if (!m_data || !index.isValid() || index.row() >= rowCount())
        return {};
    const PreviewRow& row = m_data->rows[static_cast<std::size_t>(index.row())];
    const double before = beforeValue(index.row());
    const double after = afterValue(index.row());
    const double change = after - before;
    const bool changed = std::abs(change) > 1e-12 * std::max(1.0, std::max(std::abs(before), std::abs(after)))
        || row.inBefore != row.inAfter;
    const double percent = before != 0 ? 100.0 * change / before : std::numeric_limits<double>::quiet_NaN();
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Entity:
            return QString(QStringLiteral("    ").repeated(row.depth) + (row.name.isEmpty() ? row.id : row.name)
                + (row.estimate ? QStringLiteral(" ≈") : QString()));
        case Kind:
            return row.kind;
        case Before:
            if (!row.inBefore)
                return m_data->haveBefore ? tr("— (new)") : tr("—");
            return formatMetricValue(before, m_data->metrics[static_cast<std::size_t>(m_metric)], m_unit, m_locale);
        case After:
            if (!row.inAfter)
                return tr("— (removed)");
            if (row.aggregated)
                return tr("n/a (aggregated)");
            return formatMetricValue(after, m_data->metrics[static_cast<std::size_t>(m_metric)], m_unit, m_locale);
        case Change: {
            if (!m_data->haveBefore)
                return {};
            const QString text
                = formatMetricValue(change, m_data->metrics[static_cast<std::size_t>(m_metric)], m_unit, m_locale);
            return change > 0 ? QString(QLatin1Char('+') + text) : text;
        }
        case ChangePercent:
            if (!m_data->haveBefore || std::isnan(percent) || !changed)
                return {};
            return QString((percent > 0 ? QStringLiteral("+") : QString())
                + m_locale.toString(percent, 'f', std::abs(percent) < 1 ? 3 : 1) + QStringLiteral(" %"));
        }
        return {};
    case SortRole:
        switch (index.column()) {
        case Entity:
            return row.name.isEmpty() ? row.id : row.name;
        case Kind:
            return row.kind;
        case Before:
            return before;
        case After:
            return after;
        case Change:
            return change;
        case ChangePercent:
            return std::isnan(percent) ? -std::numeric_limits<double>::infinity() : percent;
        }
        return {};
    case Qt::ToolTipRole: {
        QStringList lines;
        lines << tr("%1 (id %2, kind %3)").arg(row.name, row.id, row.kind.isEmpty() ? tr("none") : row.kind);
        lines << tr("Before: %1").arg(row.inBefore ? formatted(before) : tr("not in the applied model"));
        lines << tr("After: %1").arg(row.inAfter ? formatted(after) : tr("not in the edited model"));
        if (row.estimate)
            lines << tr("≈ an estimate: AMORTIZE or WEIGHTED shares");
        if (row.aggregated)
            lines << tr("A member of an aggregate: its share is not known (the aggregate carries it)");
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::TextAlignmentRole:
        if (index.column() >= Before)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::FontRole:
        if (changed)
            return boldFont();
        return {};
    case Qt::ForegroundRole:
        if (index.column() == Change || index.column() == ChangePercent) {
            if (change > 0)
                return QBrush(QColor(0x1a, 0x6b, 0x1a));
            if (change < 0)
                return QBrush(QColor(0xb0, 0x20, 0x20));
        }
        if (!row.inAfter)
            return QBrush(QColor(0x80, 0x80, 0x80));
        return {};
    default:
        return {};
    }
}

} // namespace parallax
