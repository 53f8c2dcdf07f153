// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/units.h"
#include "views/common/valueformatter.h"
#include "views/comparison/comparisonbuilder.h"

#include <QColor>
#include <QLocale>
#include <QString>

namespace parallax {

// Formatting and colours shared by the comparison views, so that every tab writes a number, a sign
// and a change the same way.

/// The value column (views/common/valueformatter.h) of a compared value: its value type,
/// name and number format.
constexpr ValueColumn valueColumnOf(CompareValue value)
{
    switch (value) {
    case CompareValue::Exclusive:
        return ValueColumn::Exclusive;
    case CompareValue::Inclusive:
        return ValueColumn::Inclusive;
    case CompareValue::Calls:
        return ValueColumn::Calls;
    }
    return ValueColumn::Exclusive;
}

/// The unit a value is shown in: "ms" for time metrics (by the time unit), the metric's unit for
/// other metrics, "" for calls.
QString compareUnit(const Metric& metric, CompareValue value, TimeUnit unit);
/// A value as text without its unit ("27.490"); `sign` prefixes "+" to positive values.
/// `decimals` >= 0 (comparePartDecimals) gives every value of a column the same decimals.
QString compareNumber(double value, const Metric& metric, CompareValue valueType, TimeUnit unit, const QLocale& locale,
    bool sign = false, int decimals = -1);
/// A value with its unit ("27.490 ms"); `sign` prefixes "+" to positive values.
QString compareText(double value, const Metric& metric, CompareValue valueType, TimeUnit unit, const QLocale& locale,
    bool sign = false);
/// A display-unit amount (e.g. 1.5 with ms) back in the metric's own unit (1500 µs).
double fromDisplayUnit(double amount, const Metric& metric, CompareValue value, TimeUnit unit);

/// +1 when a positive Δ = A − B is an improvement (the metric's lower is better), −1 otherwise
/// (docs/SEMANTICS.md 4.6: for higher-is-better metrics the colours swap).
inline double improvementSign(bool higherIsBetter) { return higherIsBetter ? -1.0 : 1.0; }
/// The colour of a change: `improvement` in [-1, 1], positive = improvement (blue), negative =
/// regression (red), intensity by magnitude, near-white at 0 (the diverging map of views/charts).
QColor changeColor(double improvement);
/// The background of a Δ or Δ% cell for a change in [-1, 1] (positive = improvement): from a light
/// tint for a small change to the saturated hue at ±1, so the direction and the size show.
QColor changeTint(double change);
/// The change a Δ or Δ% cell is tinted by: Δ% / 100 clamped to [-1, 1] (a 100 % change or more is
/// full colour, "new" is -1, "removed" +1), times `sign` (improvementSign()), so that a −13,993 %
/// regression is deep red whatever the other rows' absolute Δ.
double relativeChange(const RelativeDifference& relative, double sign);
/// The text colour on a tinted cell: near-black on a light tint, white on a saturated one (a
/// −13,993 % regression is full red, its text must stay readable).
QColor tintedTextColor(const QColor& background);

/// What the tint of the Δ and Δ% cells measures: the comparison toolbar's "Colour by" choice,
/// remembered in the settings ("comparison/colourBy": "percent" or "delta").
enum class ColourBy {
    /// relativeChange(): a 100 % change or more is full colour, whatever its absolute size.
    Percent,
    /// Δ over the largest |Δ| shown: the rows that cost or save the most time are the deepest.
    Delta,
};
QString colourByKey(ColourBy by);
ColourBy colourByFromKey(const QString& key);
/// The change (in [-1, 1], positive = improvement) a Δ or Δ% cell of `entry` is tinted by:
/// relativeChange() for ColourBy::Percent, sign·Δ/maxDelta for ColourBy::Delta.
double tintChange(const ComparisonEntry& entry, CompareValue value, double sign, ColourBy by, double maxDelta);
/// The saturated hue of improvements and of regressions (text, legends).
QColor improvementColor();
QColor regressionColor();
/// The bar colours of the two runs.
QColor baselineColor();
QColor candidateColor();

/// "faster"/"slower" for time metrics, "lower"/"higher" otherwise: what B is compared with A when
/// Δ = A − B is positive (`positive` true) or negative.
QString comparedWord(const Metric& metric, bool positive);
/// "B faster than A (improvement)" and friends: the meaning of a Δ of that sign.
QString deltaMeaning(const Metric& metric, bool positive);

/// The four numbers of a compared value in the tables, in their column order.
enum class ComparePart { A, B, Delta, DeltaPercent };
/// A compared value's column header: "A", "B" and "Δ = A − B" followed by `suffix` (the unit,
/// unitSuffix()), "Δ %".
QString comparePartHeader(ComparePart part, const QString& suffix);
/// A compared value's cell text: A and B in the display unit ("—" where the event did not run),
/// Δ = A − B with its sign, Δ% as RelativeDifference writes it.
QString comparePartText(const ComparisonEntry& entry, ComparePart part, const Metric& metric, CompareValue value,
    TimeUnit unit, const QLocale& locale, int decimals = -1);
/// The one decimals count of the column of `part` (A, B or Δ) over `entries` (valueColumnDecimals:
/// the smallest non-zero value keeps 2 significant digits); -1 for Δ%.
int comparePartDecimals(const std::vector<const ComparisonEntry*>& entries, ComparePart part, const Metric& metric,
    CompareValue value, TimeUnit unit);

/// The presence marker of docs/SEMANTICS.md 4.2 for a row: "◀ only A", "▶ only B" or "" (both).
QString presenceText(bool inA, bool inB);

} // namespace parallax
