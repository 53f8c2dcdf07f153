// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/overview/valuetext.h"

namespace parallax {

QString valueUnit(const Metric& metric, ValueType type, TimeUnit unit)
{
    if (isPercent(type))
        return QStringLiteral("%");
    if (isMetricValued(type))
        return unitLabel(metric, unit);
    return {};
}

QString valueText(double value, const Metric& metric, ValueType type, TimeUnit unit, const QLocale& locale)
{
    if (isPercent(type))
        return locale.toString(value, 'f', 2) + QStringLiteral(" %");
    if (!isMetricValued(type))
        return formatNumber(value, locale);
    const QString number = formatMetricValue(value, metric, unit, locale);
    // h:m:s values carry their unit in their shape.
    const QString suffix
        = metric.isTime() && unit == TimeUnit::HoursMinutesSeconds ? QString() : unitLabel(metric, unit);
    return suffix.isEmpty() ? number : number + QLatin1Char(' ') + suffix;
}

QString valueText(
    double value, const Metric& metric, ValueType type, TimeUnit unit, const QLocale& locale, int decimals)
{
    if (decimals < 0 || isPercent(type) || (metric.isTime() && unit == TimeUnit::HoursMinutesSeconds))
        return valueText(value, metric, type, unit, locale);
    if (!isMetricValued(type))
        return formatCount(value, locale, decimals);
    const QString number = formatMetricValue(value, metric, unit, locale, decimals);
    const QString suffix = unitLabel(metric, unit);
    return suffix.isEmpty() ? number : number + QLatin1Char(' ') + suffix;
}

int listDecimals(const std::vector<double>& values, const Metric& metric, ValueType type, TimeUnit unit)
{
    if (isPercent(type))
        return -1;
    return columnDecimals(values, isMetricValued(type) && metric.isTime(), unit);
}

QString absentText() { return QStringLiteral("—"); }

ValueType stackableValueType(ValueType type)
{
    switch (type) {
    case ValueType::Exclusive:
    case ValueType::ExclusivePercent:
    case ValueType::Calls:
    case ValueType::Subroutines:
        return type;
    case ValueType::InclusivePercent:
        return ValueType::ExclusivePercent;
    case ValueType::Inclusive:
    case ValueType::ExclusivePerCall:
    case ValueType::InclusivePerCall:
        return ValueType::Exclusive;
    }
    return ValueType::Exclusive;
}

} // namespace parallax
