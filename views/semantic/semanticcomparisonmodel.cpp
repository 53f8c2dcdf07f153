// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/semantic/semanticcomparisonmodel.h"

#include "views/comparison/comparisonformat.h"

#include <QBrush>
#include <QFont>
#include <algorithm>
#include <cmath>
#include <limits>

namespace parallax {

using namespace parallax::semantic;

SemanticComparisonModel::SemanticComparisonModel(QObject* parent)
    : QAbstractTableModel(parent)
    , m_locale(groupingLocale())
{
}

void SemanticComparisonModel::setRows(std::vector<SemanticComparisonRow> rows, const Metric& metric, bool haveMapped)
{
    beginResetModel();
    m_rows = std::move(rows);
    std::stable_sort(m_rows.begin(), m_rows.end(), [](const SemanticComparisonRow& x, const SemanticComparisonRow& y) {
        return std::abs(x.diff.diff) > std::abs(y.diff.diff);
    });
    m_metric = metric;
    m_haveMapped = haveMapped;
    m_decimals.clear();
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

int SemanticComparisonModel::findRow(const QString& id) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].diff.id == id)
            return static_cast<int>(i);
    return -1;
}

void SemanticComparisonModel::setTimeUnit(TimeUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    m_decimals.clear();
    emitCellsChanged(this, true);
}

QString SemanticComparisonModel::number(double value, bool sign) const
{
    return compareNumber(value, m_metric, CompareValue::Exclusive, m_unit, m_locale, sign);
}

QString SemanticComparisonModel::cellNumber(double value, int column, bool sign) const
{
    const int decimals = m_decimals.of(column, [&] {
        std::vector<double> values;
        for (const SemanticComparisonRow& row : m_rows) {
            const DiffRow& d = row.diff;
            if (column == ValueA && d.inA)
                values.push_back(d.a);
            else if (column == ValueB && d.inB)
                values.push_back(d.b);
            else if (column == Delta)
                values.push_back(d.diff);
            else if (column == MappedDiff && row.haveMapped)
                values.push_back(row.mapped);
        }
        return valueColumnDecimals(ValueColumn::Exclusive, values, m_metric, m_unit);
    });
    return compareNumber(value, m_metric, CompareValue::Exclusive, m_unit, m_locale, sign, decimals);
}

QString SemanticComparisonModel::unit() const { return compareUnit(m_metric, CompareValue::Exclusive, m_unit); }

QString SemanticComparisonModel::deltaPercentText(double a, double b, const QLocale& locale)
{
    if (a == 0 && b == 0)
        return {};
    if (a == 0)
        return tr("new");
    if (b == 0 && a > 0)
        return tr("removed");
    // The one signed-change format: "+0.03 %", never "-0.0 %".
    return formatPercentChange(100.0 * (a - b) / a, locale);
}

int SemanticComparisonModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int SemanticComparisonModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SemanticComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    const QString u = unit();
    const QString suffix = unitSuffix(u);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Entity:
            return tr("Entity");
        case Presence:
            return tr("Presence");
        case ValueA:
        case ValueB:
        case Delta:
            return comparePartHeader(static_cast<ComparePart>(section - ValueA), suffix);
        case DeltaPercent:
            return tr("Δ%");
        case Estimate:
            return tr("Est.");
        case MappedDiff:
            return QString(tr("S(A − B)") + suffix);
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ValueA:
            return tr("Roll-up of the entity in A (the baseline), attributed with A's own weights");
        case ValueB:
            return tr("Roll-up of the entity in B (the candidate), attributed with B's own weights");
        case Delta:
            return tr("A − B at entity level (semantic diff); positive: B is cheaper");
        case DeltaPercent:
            return tr("100·(A − B)/A; \"new\" when A = 0 < B, \"removed\" when B = 0 < A");
        case Estimate:
            return tr("≈: the value rests on AMORTIZE or WEIGHTED shares (an estimate)");
        case MappedDiff:
            return tr("The entity in the difference trial A − B attributed through the same (linear) model: equals Δ");
        }
    }
    if (role == Qt::TextAlignmentRole && section >= ValueA && section != Estimate)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant SemanticComparisonModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const SemanticComparisonRow& row = m_rows[static_cast<std::size_t>(index.row())];
    const DiffRow& d = row.diff;
    const QString name = d.name.isEmpty() ? d.id : d.name;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Entity:
            return name;
        case Presence:
            return presenceText(d.inA, d.inB);
        case ValueA:
            return d.inA ? cellNumber(d.a, ValueA) : QStringLiteral("—");
        case ValueB:
            return d.inB ? cellNumber(d.b, ValueB) : QStringLiteral("—");
        case Delta:
            return cellNumber(d.diff, Delta, true);
        case DeltaPercent:
            return deltaPercentText(d.a, d.b, m_locale);
        case Estimate:
            return d.estimate ? QStringLiteral("≈") : QString();
        case MappedDiff:
            return row.haveMapped ? cellNumber(row.mapped, MappedDiff, true) : QString();
        }
        return {};
    case SortRole:
        switch (index.column()) {
        case Entity:
            return name;
        case Presence:
            return (d.inA ? 1 : 0) + (d.inB ? 2 : 0);
        case ValueA:
            return d.a;
        case ValueB:
            return d.b;
        case Delta:
            return d.diff;
        case DeltaPercent:
            return d.a != 0 ? 100.0 * (d.a - d.b) / d.a : (d.b != 0 ? std::numeric_limits<double>::infinity() : 0.0);
        case Estimate:
            return d.estimate ? 1 : 0;
        case MappedDiff:
            return row.haveMapped ? row.mapped : -std::numeric_limits<double>::infinity();
        }
        return {};
    case MagnitudeRole:
        return std::abs(d.diff);
    case Qt::ToolTipRole: {
        QStringList lines;
        lines << tr("%1 (id %2%3)").arg(name, d.id, d.kind.isEmpty() ? QString() : tr(", kind %1").arg(d.kind));
        lines << tr("A = %1, B = %2").arg(d.inA ? number(d.a) : tr("absent"), d.inB ? number(d.b) : tr("absent"));
        if (d.diff != 0)
            lines << tr("Δ = %1 %2: %3").arg(number(d.diff, true), unit(), deltaMeaning(m_metric, d.diff > 0));
        if (d.estimate)
            lines << tr("≈ an estimate (AMORTIZE or WEIGHTED shares)");
        if (row.haveMapped)
            lines << tr("S(A − B) = %1 (the difference trial attributed through the same model)")
                         .arg(number(row.mapped, true));
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::TextAlignmentRole:
        if (index.column() >= ValueA && index.column() != Estimate)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        if (index.column() == Estimate)
            return Qt::AlignCenter;
        return {};
    case Qt::ForegroundRole:
        if ((index.column() == Delta || index.column() == DeltaPercent) && d.diff != 0)
            return QBrush(
                d.diff * improvementSign(m_metric.higherIsBetter) > 0 ? improvementColor() : regressionColor());
        return {};
    case Qt::FontRole:
        if (index.column() == Delta && d.diff != 0)
            return boldFont();
        return {};
    default:
        return {};
    }
}

} // namespace parallax
