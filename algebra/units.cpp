// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/units.h"

#include "algebra/enumnames.h"

#include <cmath>

namespace parallax {

namespace {

constexpr auto timeUnitNames = std::to_array<EnumName<TimeUnit>>(
    { { TimeUnit::Microseconds, "Microseconds" }, { TimeUnit::Milliseconds, "Milliseconds" },
        { TimeUnit::Seconds, "Seconds" }, { TimeUnit::HoursMinutesSeconds, "Hours:Minutes:Seconds" } });

constexpr auto timeUnitLabels = std::to_array<EnumName<TimeUnit>>({ { TimeUnit::Microseconds, "µs" },
    { TimeUnit::Milliseconds, "ms" }, { TimeUnit::Seconds, "s" }, { TimeUnit::HoursMinutesSeconds, "h:m:s" } });

} // namespace

QString timeUnitName(TimeUnit unit) { return enumName(timeUnitNames, unit); }

QString unitLabel(const Metric& metric, TimeUnit unit)
{
    if (!metric.isTime())
        return metric.unit == QLatin1String("count") ? QString() : metric.unit;
    return enumName(timeUnitLabels, unit);
}

QString formatHms(double seconds)
{
    const bool negative = seconds < 0;
    // Round to whole milliseconds first (ties to even), then split.
    const double ms = std::nearbyint(std::fabs(seconds) * 1000.0);
    const auto total = static_cast<long long>(ms);
    const long long h = total / 3600000;
    const long long m = (total % 3600000) / 60000;
    const long long s = (total % 60000) / 1000;
    const long long frac = total % 1000;
    QString fraction = QStringLiteral("%1").arg(frac, 3, 10, QLatin1Char('0'));
    while (fraction.size() > 1 && fraction.endsWith(QLatin1Char('0')))
        fraction.chop(1);
    return QStringLiteral("%1%2:%3:%4.%5")
        .arg(negative ? QStringLiteral("-") : QString())
        .arg(h)
        .arg(m)
        .arg(s)
        .arg(fraction);
}

QString formatNumber(double value, const QLocale& locale)
{
    if (!std::isfinite(value))
        return locale.toString(value);
    if (value == std::floor(value) && std::fabs(value) < 9.0e15)
        return locale.toString(static_cast<qlonglong>(value));
    if (value != 0 && std::fabs(value) < 0.01)
        return locale.toString(value, 'g', 3);
    return locale.toString(value, 'f', 2);
}

QString formatMetricValue(double value, const Metric& metric, TimeUnit unit, const QLocale& locale)
{
    if (!metric.isTime())
        return formatNumber(value, locale);
    switch (unit) {
    case TimeUnit::Microseconds:
        return formatNumber(value, locale);
    case TimeUnit::Milliseconds: {
        const double ms = value / 1e3;
        if (ms != 0 && std::fabs(ms) < 0.001)
            return locale.toString(ms, 'g', 3);
        return locale.toString(ms, 'f', 3);
    }
    case TimeUnit::Seconds: {
        const double s = value / 1e6;
        if (s != 0 && std::fabs(s) < 0.001)
            return locale.toString(s, 'g', 3);
        return locale.toString(s, 'f', 3);
    }
    case TimeUnit::HoursMinutesSeconds:
        return formatHms(value / 1e6);
    }
    return {};
}

} // namespace parallax
