// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QLocale>
#include <QString>
#include <vector>

namespace parallax {

// One precision per column for plain numbers (not a metric's values, which formatMetricValue of
// units.h formats): the user events' counts, sizes and their statistics. A column's values share
// their decimals, chosen from the values themselves, so "16,484.00" never sits above "3,636".

/// The decimals every value of a column of plain numbers is shown with: 0 when every value is a
/// whole number (counts; a product such as 1016 × 16.2244094488189 that misses a whole number by
/// rounding noise counts as whole) or when every fractional value is 1,000,000 or more (cents of a
/// byte count in the millions are noise); otherwise 2, or more when the smallest non-zero |value|
/// is below 0.01, so it keeps 3 significant digits (0.000944 and 0.012 read 0.000944 and 0.012000),
/// at most 9. Infinities and NaN are ignored.
int plainColumnDecimals(const std::vector<double>& values);

/// `value` with exactly `decimals` decimals and the digit grouping of `locale`; never "-0.00".
QString formatFixed(double value, int decimals, const QLocale& locale);

} // namespace parallax
