// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QLocale>
#include <QString>
#include <vector>

namespace parallax {

/// How time values (metric unit "us") are shown.
enum class TimeUnit { Microseconds, Milliseconds, Seconds, HoursMinutesSeconds };

QString timeUnitName(TimeUnit unit);
/// Unit suffix for axis titles and headers ("µs", "ms", "s", "h:m:s"; the metric's unit otherwise).
QString unitLabel(const Metric& metric, TimeUnit unit);

/// docs/SEMANTICS.md 2 H:M:S rule: |x| rounded to 0.001 s (ties to even) before splitting, no zero
/// padding, 1-3 fraction digits (at least one), leading '-' for negatives. 3725.5 -> "1:2:5.5".
QString formatHms(double seconds);

// The one number format of Parallax (docs/SEMANTICS.md 2): every table, chart axis, tooltip and
// the CLI's text output write numbers with these functions. JSON keeps full precision.

/// A metric value (stored in the metric's unit: µs for time) formatted for display. Time in ms or
/// s always has 3 decimals, so the values of a column share their decimals (0.001, 0.012, not
/// 0.000944 beside 0.012); counters (metrics that are not time) of 1,000,000 and more are scaled
/// with an SI prefix by formatSi ("318.7 G"). Never a negative zero.
QString formatMetricValue(double value, const Metric& metric, TimeUnit unit, const QLocale& locale = QLocale());
/// formatMetricValue with the decimals of a column (columnDecimals): every value of the column
/// shows `decimals` decimals in `unit` (counters below 1,000,000; larger ones keep their SI
/// prefix); `decimals` < 0 is formatMetricValue's default.
QString formatMetricValue(double value, const Metric& metric, TimeUnit unit, const QLocale& locale, int decimals);
/// The one decimals count of a column of `values` (in the metric's own unit: µs for time) shown
/// in `unit`: the default (3 for ms and s; 2 for µs and counters with fractions, 0 for whole
/// numbers) or more, the fewest at which every non-zero |value| keeps 2 significant digits or
/// shows exactly (0.00057, 0.00094 and 0.01200 ms in one column, never 0.000; 1 µs stays 0.001
/// ms). At most 6 decimals in ms (a nanosecond), 9 in s, 3 in µs and 6 for counters; values
/// below 1e-9 of the column's largest (rounding noise) are not considered. `time`: the values are
/// times (µs). -1 for h:m:s, which has its own shape.
int columnDecimals(const std::vector<double>& values, bool time, TimeUnit unit);
/// A count (not a time) with `decimals` decimals below 1,000,000 and formatSi's prefix above;
/// `decimals` < 0 is formatNumber.
QString formatCount(double value, const QLocale& locale, int decimals);
/// A plain number: integers with digit grouping, small fractions with 3 significant digits.
QString formatNumber(double value, const QLocale& locale = QLocale());
/// A large count with an SI prefix and 4 significant digits: 318734123833.88 -> "318.7 G",
/// 1.5e6 -> "1.500 M"; below 1,000,000 formatNumber's text.
QString formatSi(double value, const QLocale& locale = QLocale());
/// A size in bytes: "1,008 B" below 1 KiB, else one decimal and a binary prefix ("311.3 MiB").
QString formatBytes(double bytes, const QLocale& locale = QLocale());
/// A change in percent with its sign: "+0.03 %", "-13,993.0 %", "0.0 %" (never "-0.0 %"):
/// one decimal, two for changes under 0.05 %.
QString formatPercentChange(double percent, const QLocale& locale = QLocale());
/// `text` without the sign of a negative zero ("-0.000" -> "0.000").
QString withoutNegativeZero(QString text);
/// "1 metric", "2 metrics": `count` and the singular or plural noun.
QString countText(qulonglong count, const QString& singular, const QString& plural);

} // namespace parallax
