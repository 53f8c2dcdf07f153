// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QLocale>
#include <QString>

namespace parallax {

/// How time values (metric unit "us") are shown.
enum class TimeUnit { Microseconds, Milliseconds, Seconds, HoursMinutesSeconds };

QString timeUnitName(TimeUnit unit);
/// Unit suffix for axis titles and headers ("µs", "ms", "s", "h:m:s"; the metric's unit otherwise).
QString unitLabel(const Metric& metric, TimeUnit unit);

/// docs/SEMANTICS.md 2 H:M:S rule: |x| rounded to 0.001 s (ties to even) before splitting, no zero
/// padding, 1-3 fraction digits (at least one), leading '-' for negatives. 3725.5 -> "1:2:5.5".
QString formatHms(double seconds);

/// A metric value (stored in the metric's unit: µs for time) formatted for display.
QString formatMetricValue(double value, const Metric& metric, TimeUnit unit, const QLocale& locale = QLocale());
/// A plain number: integers with digit grouping, small fractions with 3 significant digits.
QString formatNumber(double value, const QLocale& locale = QLocale());

} // namespace parallax
