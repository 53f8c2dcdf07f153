// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/units.h"
#include "algebra/values.h"

#include <QLocale>
#include <QString>
#include <vector>

namespace parallax {

/// A value of a bar chart as text with its unit: "27.490 ms", "53.09 %", "1,024" (calls).
QString valueText(double value, const Metric& metric, ValueType type, TimeUnit unit, const QLocale& locale = QLocale());
/// valueText with the one decimals count of a list of bars (listDecimals); < 0 is valueText's.
QString valueText(
    double value, const Metric& metric, ValueType type, TimeUnit unit, const QLocale& locale, int decimals);
/// The decimals every bar of a list of `values` shows (columnDecimals of algebra/units.h), so
/// small values keep 2 significant digits and the bars share their decimals; -1 for percentages.
int listDecimals(const std::vector<double>& values, const Metric& metric, ValueType type, TimeUnit unit);
/// The unit a value type is shown in ("ms", "%", "" for counts).
QString valueUnit(const Metric& metric, ValueType type, TimeUnit unit);
/// "—": what a chart shows where a value is absent (the event did not run), never 0.
QString absentText();
/// The value type whose values add up along a thread (stacked bars): inclusive and per-call values
/// overlap, so stacking uses the exclusive counterpart.
ValueType stackableValueType(ValueType type);

} // namespace parallax
