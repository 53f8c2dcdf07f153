// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/units.h"
#include "algebra/values.h"

#include <QLocale>
#include <QString>
#include <optional>
#include <vector>

namespace parallax {

// The one table of the value columns and the one number format of the views: the statistics
// table, the call tree and the comparison tables take their headers, tooltips, value types and
// number formatting from here (docs/SEMANTICS.md 2 defines the values).

/// The locale every table, chart and summary prints numbers with: `locale` with digit grouping on
/// (1,234,567), and English (United States) in place of the C locale, which prints 1234567
/// without separators — nobody reads profiles that way.
QLocale groupingLocale(QLocale locale = QLocale());

/// The pprof value columns the statistics table and the call tree share, in their order: one per
/// value type (algebra/values.h), so a column is the value type it shows.
using ValueColumn = ValueType;
inline constexpr int ValueColumnCount = ValueTypeCount;

/// The value column of a model's column, for a model whose value columns run from `first` on in
/// ValueColumn's order; nullopt for its other columns.
std::optional<ValueColumn> valueColumnAt(int column, int first);

/// A value column's header: its name followed by `unit` (" (ms)") for the columns in the
/// metric's unit, "Excl %", "Calls" ... for the others.
QString valueColumnHeader(ValueColumn column, const QString& unit);
/// A unit as a header or title appends it: " (ms)"; empty for no unit.
QString unitSuffix(const QString& unit);
/// A value column's header tooltip: what the column is, of the metric named `metric`, with `where`
/// saying which value over the threads it is ("Mean", "mean over all 8 threads", a thread).
QString valueColumnToolTip(ValueColumn column, const QString& metric, const QString& where);

/// A value as its column shows it: percentages with two decimals, the values in the metric's unit
/// by formatMetricValue (time in `unit`), calls by formatNumber. `fractional` (a column of means
/// or deviations, whose counts are rarely whole) gives every count below a million two decimals,
/// so the column shares its decimals (2.00 beside 4.75, not 2 beside 4.75).
/// `decimals` >= 0 (valueColumnDecimals) gives every value of the column those decimals.
QString formatValue(ValueColumn column, double value, const Metric& metric, TimeUnit unit, const QLocale& locale,
    bool fractional = false, int decimals = -1);
/// The one decimals count of a value column holding `values` (columnDecimals of algebra/units.h:
/// the smallest non-zero value keeps 2 significant digits); -1 for percentages, which keep two
/// decimals, and for h:m:s. `fractional` as for formatValue: counts get at least two decimals.
int valueColumnDecimals(ValueColumn column, const std::vector<double>& values, const Metric& metric, TimeUnit unit,
    bool fractional = false);
/// The decimals of a model's value columns, each computed once (by `compute`, e.g. from
/// valueColumnDecimals) on the first cell shown; a model clears it when its rows, metric,
/// statistic or unit change.
class ColumnDecimalsCache {
public:
    void clear() { m_decimals.clear(); }
    template <typename Compute> int of(int column, Compute compute) const
    {
        if (column < 0)
            return -1;
        const auto at = static_cast<std::size_t>(column);
        if (m_decimals.size() <= at)
            m_decimals.resize(at + 1);
        if (!m_decimals[at])
            m_decimals[at] = compute();
        return *m_decimals[at];
    }

private:
    mutable std::vector<std::optional<int>> m_decimals;
};

/// A number as a tooltip writes it exactly (12 significant digits), without grouping.
QString rawNumber(double value);
/// rawNumber() with the metric's own unit ("1234.5 µs" for time) when `metricValue`.
QString rawValueText(double value, const Metric& metric, bool metricValue);

} // namespace parallax
