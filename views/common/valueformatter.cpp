// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/common/valueformatter.h"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace parallax {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("ValueColumns", text); }

/// One row of the table.
struct ValueColumnInfo {
    const char* header;
    /// %1: the metric's name, %2: which value over the threads.
    const char* toolTip;
};

// In ValueColumn's order.
constexpr ValueColumnInfo valueColumns[ValueColumnCount] = {
    { QT_TRANSLATE_NOOP("ValueColumns", "Exclusive"),
        QT_TRANSLATE_NOOP("ValueColumns", "Exclusive %1: spent in the event itself, not in what it called (%2)") },
    { QT_TRANSLATE_NOOP("ValueColumns", "Inclusive"),
        QT_TRANSLATE_NOOP("ValueColumns", "Inclusive %1: spent in the event and everything it called (%2)") },
    { QT_TRANSLATE_NOOP("ValueColumns", "Excl %"),
        QT_TRANSLATE_NOOP("ValueColumns",
            "Percent of the top inclusive %1 (per thread), or of the sum of the threads' top inclusive values on "
            "the total and mean rows; not shown on min, max and std. dev. rows") },
    { QT_TRANSLATE_NOOP("ValueColumns", "Incl %"),
        QT_TRANSLATE_NOOP("ValueColumns",
            "Percent of the top inclusive %1 (per thread), or of the sum of the threads' top inclusive values on "
            "the total and mean rows; not shown on min, max and std. dev. rows") },
    { QT_TRANSLATE_NOOP("ValueColumns", "Calls"), QT_TRANSLATE_NOOP("ValueColumns", "Number of calls (%2)") },
    { QT_TRANSLATE_NOOP("ValueColumns", "Subrs"),
        QT_TRANSLATE_NOOP("ValueColumns", "Number of calls made from the event to other events (%2)") },
    { QT_TRANSLATE_NOOP("ValueColumns", "Excl/call"), QT_TRANSLATE_NOOP("ValueColumns", "Exclusive %1 per call (%2)") },
    { QT_TRANSLATE_NOOP("ValueColumns", "Incl/call"), QT_TRANSLATE_NOOP("ValueColumns", "Inclusive %1 per call (%2)") },
};

const ValueColumnInfo& info(ValueColumn column) { return valueColumns[static_cast<int>(column)]; }

} // namespace

QLocale groupingLocale(QLocale locale)
{
    if (locale.language() == QLocale::C)
        locale = QLocale(QLocale::English, QLocale::UnitedStates);
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale;
}

std::optional<ValueColumn> valueColumnAt(int column, int first)
{
    if (column < first || column >= first + ValueColumnCount)
        return std::nullopt;
    return static_cast<ValueColumn>(column - first);
}

QString valueColumnHeader(ValueColumn column, const QString& unit)
{
    const QString name = tr(info(column).header);
    return isMetricValued(column) ? name + unit : name;
}

QString unitSuffix(const QString& unit)
{
    return unit.isEmpty() ? QString() : QStringLiteral(" (") + unit + QLatin1Char(')');
}

QString valueColumnToolTip(ValueColumn column, const QString& metric, const QString& where)
{
    // Not arg(): a tooltip may lack %1, and the metric's name is inserted last, never re-read.
    return tr(info(column).toolTip).replace(QLatin1String("%2"), where).replace(QLatin1String("%1"), metric);
}

int valueColumnDecimals(
    ValueColumn column, const std::vector<double>& values, const Metric& metric, TimeUnit unit, bool fractional)
{
    const ValueType type = column;
    if (isPercent(type))
        return -1;
    const bool time = isMetricValued(type) && metric.isTime();
    const int decimals = columnDecimals(values, time, unit);
    return fractional && !time ? std::max(decimals, 2) : decimals;
}

QString formatValue(ValueColumn column, double value, const Metric& metric, TimeUnit unit, const QLocale& locale,
    bool fractional, int decimals)
{
    const ValueType type = column;
    if (isPercent(type))
        return withoutNegativeZero(locale.toString(value, 'f', 2));
    if (decimals >= 0)
        return isMetricValued(type) ? formatMetricValue(value, metric, unit, locale, decimals)
                                    : formatCount(value, locale, decimals);
    const bool count = !isMetricValued(type) || !metric.isTime();
    if (fractional && count && std::isfinite(value) && std::fabs(value) < 1e6
        && (value == 0 || std::fabs(value) >= 0.01))
        return withoutNegativeZero(locale.toString(value, 'f', 2));
    if (isMetricValued(type))
        return formatMetricValue(value, metric, unit, locale);
    return formatNumber(value, locale);
}

QString rawNumber(double value) { return QString::number(value, 'g', 12); }

QString rawValueText(double value, const Metric& metric, bool metricValue)
{
    if (!metricValue)
        return rawNumber(value);
    if (metric.isTime())
        return rawNumber(value) + QStringLiteral(" µs");
    if (metric.unit.isEmpty() || metric.unit == QLatin1String("count"))
        return rawNumber(value);
    return rawNumber(value) + QLatin1Char(' ') + metric.unit;
}

} // namespace parallax
