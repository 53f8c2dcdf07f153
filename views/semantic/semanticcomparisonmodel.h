// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/semanticprofile.h"
#include "algebra/units.h"
#include "views/common/valueformatter.h"
#include "views/viewsetup.h"

#include <QAbstractTableModel>
#include <QLocale>
#include <vector>

namespace parallax {

/// One entity row of a semantic comparison, with (when the model is linear and the check is on)
/// the entity's value in the attributed difference trial S(A − B).
struct SemanticComparisonRow {
    semantic::DiffRow diff;
    bool haveMapped = false;
    double mapped = 0; ///< S(A − B) for the entity (0 when absent from the diff's profile)
};

/// The table of SemanticComparison: entity, presence (only in A / only in B), A, B, Δ = A − B,
/// Δ% = 100·(A−B)/A (docs/SEMANTICS.md 4.6: "new" when A = 0 < B, "removed" when B = 0 < A), the
/// estimate badge "≈", and S(A−B) when the diff trial is attributed too. Rows come sorted by |Δ|,
/// largest first. DisplayRole is text, SortRole the raw number, ToolTipRole explains the row.
class SemanticComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Entity, Presence, ValueA, ValueB, Delta, DeltaPercent, Estimate, MappedDiff, ColumnCount };
    /// |Δ| on every column (int role for "sort by size of change").
    static constexpr int MagnitudeRole = SortRole + 1;

    explicit SemanticComparisonModel(QObject* parent = nullptr);

    /// New rows (sorted here by |Δ|, ties in the given order) in a metric's unit.
    void setRows(std::vector<SemanticComparisonRow> rows, const Metric& metric, bool haveMapped);
    const std::vector<SemanticComparisonRow>& rows() const { return m_rows; }
    const Metric& metric() const { return m_metric; }
    bool hasMapped() const { return m_haveMapped; }
    int findRow(const QString& id) const;
    void setTimeUnit(TimeUnit unit);
    TimeUnit timeUnit() const { return m_unit; }
    /// "12.500" in the current unit (no unit suffix); sign adds "+" to positive values.
    QString number(double value, bool sign = false) const;
    /// A cell of a value column (ValueA, ValueB, Delta, MappedDiff) with the column's one decimals
    /// count, so small values keep 2 significant digits.
    QString cellNumber(double value, int column, bool sign = false) const;
    /// The display unit ("ms", "count", ...).
    QString unit() const;
    /// Δ% of docs/SEMANTICS.md 4.6 as text ("+20.0 %", "new", "removed", "" when both are 0).
    static QString deltaPercentText(double a, double b, const QLocale& locale);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<SemanticComparisonRow> m_rows;
    /// The decimals of each value column (valueColumnDecimals).
    ColumnDecimalsCache m_decimals;
    Metric m_metric;
    bool m_haveMapped = false;
    TimeUnit m_unit = TimeUnit::Milliseconds;
    QLocale m_locale;
};

} // namespace parallax
