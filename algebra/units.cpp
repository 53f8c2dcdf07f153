// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/units.h"

#include "algebra/enumnames.h"

#include <algorithm>
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

QString withoutNegativeZero(QString text)
{
    if (!text.startsWith(QLatin1Char('-')))
        return text;
    for (qsizetype i = 1; i < text.size(); ++i)
        if (text[i].isDigit() && text[i] != QLatin1Char('0'))
            return text;
    return text.mid(1);
}

QString formatNumber(double value, const QLocale& locale)
{
    if (!std::isfinite(value))
        return locale.toString(value);
    if (value == std::floor(value) && std::fabs(value) < 9.0e15)
        return locale.toString(static_cast<qlonglong>(value));
    // Small fractions keep 3 significant digits in fixed notation (0.000944, never 9.44E-04);
    // below 1e-9 they read 0.00.
    if (std::fabs(value) < 0.01 && std::fabs(value) >= 1e-9) {
        const int decimals = 2 - static_cast<int>(std::floor(std::log10(std::fabs(value))));
        return withoutNegativeZero(locale.toString(value, 'f', decimals));
    }
    return withoutNegativeZero(locale.toString(value, 'f', 2));
}

QString formatSi(double value, const QLocale& locale)
{
    const double a = std::fabs(value);
    if (!std::isfinite(value) || a < 1e6)
        return formatNumber(value, locale);
    static const char* const prefixes[] = { "M", "G", "T", "P", "E" };
    int exponent = 6;
    int index = 0;
    while (index < 4 && a >= std::pow(10.0, exponent + 3)) {
        exponent += 3;
        ++index;
    }
    double scaled = value / std::pow(10.0, exponent);
    // 4 significant digits: 1.234, 12.34, 123.4; a value rounding up to 1000 moves to the next prefix.
    int decimals = std::fabs(scaled) >= 100 ? 1 : std::fabs(scaled) >= 10 ? 2 : 3;
    if (index < 4 && std::fabs(std::round(scaled * std::pow(10.0, decimals))) >= 1000 * std::pow(10.0, decimals)) {
        scaled /= 1000;
        ++index;
        decimals = 3;
    }
    return locale.toString(scaled, 'f', decimals) + QLatin1Char(' ') + QLatin1String(prefixes[index]);
}

QString formatPercentChange(double percent, const QLocale& locale)
{
    if (!std::isfinite(percent))
        return locale.toString(percent) + QStringLiteral(" %");
    // Small changes keep two decimals ("+0.03 %") instead of reading "0.0 %"; below 0.005 % the
    // change rounds to "0.0 %", without a sign.
    const bool small = std::fabs(percent) < 0.05 && std::fabs(percent) >= 0.005;
    const QString number = withoutNegativeZero(locale.toString(percent, 'f', small ? 2 : 1));
    const bool positive = !number.startsWith(QLatin1Char('-')) && percent > 0;
    return (positive ? QStringLiteral("+") : QString()) + number + QStringLiteral(" %");
}

QString formatBytes(double bytes, const QLocale& locale)
{
    static const char* const prefixes[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
    if (!(std::abs(bytes) >= 1024))
        return formatNumber(bytes, locale) + QStringLiteral(" B");
    int p = -1;
    while (std::abs(bytes) >= 1024 && p < 4) {
        bytes /= 1024;
        ++p;
    }
    return locale.toString(bytes, 'f', 1) + QLatin1Char(' ') + QLatin1String(prefixes[p]);
}

QString countText(qulonglong count, const QString& singular, const QString& plural)
{
    return QString::number(count) + QLatin1Char(' ') + (count == 1 ? singular : plural);
}

int columnDecimals(const std::vector<double>& values, bool time, TimeUnit unit)
{
    if (time && unit == TimeUnit::HoursMinutesSeconds)
        return -1;
    double scale = 1;
    int base = 2;
    int most = time ? 3 : 6;
    if (time && unit == TimeUnit::Milliseconds) {
        scale = 1e-3;
        base = 3;
        most = 6;
    } else if (time && unit == TimeUnit::Seconds) {
        scale = 1e-6;
        base = 3;
        most = 9;
    }
    // The column's values in the unit shown, without zeros, counters that take an SI prefix,
    // rounding noise (1e-9 of the largest) and what no allowed decimals can show.
    std::vector<double> shown;
    double largest = 0;
    bool whole = true;
    for (double v : values) {
        if (!std::isfinite(v) || v == 0)
            continue;
        const double a = std::fabs(v) * scale;
        if (!time && a >= 1e6)
            continue;
        whole = whole && v == std::floor(v);
        largest = std::max(largest, a);
        shown.push_back(a);
    }
    if (whole && (!time || unit == TimeUnit::Microseconds))
        return 0;
    const double floorValue = std::max(largest * 1e-9, 0.5 * std::pow(10.0, -most));
    // The fewest decimals from the default on at which every value either keeps 2 significant
    // digits (0.00094, 0.012) or is shown exactly (0.001 for 1 µs in ms, not 0.0010).
    for (int d = base; d < most; ++d) {
        const double twoDigits = std::pow(10.0, 1 - d);
        const double factor = std::pow(10.0, d);
        const bool enough = std::all_of(shown.begin(), shown.end(), [&](double a) {
            if (a < floorValue || a >= twoDigits)
                return true;
            const double scaled = a * factor;
            return std::fabs(scaled - std::round(scaled)) <= 1e-6 * scaled;
        });
        if (enough)
            return d;
    }
    return most;
}

QString formatCount(double value, const QLocale& locale, int decimals)
{
    if (decimals < 0 || !std::isfinite(value) || std::fabs(value) >= 1e6)
        return formatSi(value, locale);
    return withoutNegativeZero(locale.toString(value, 'f', decimals));
}

QString formatMetricValue(double value, const Metric& metric, TimeUnit unit, const QLocale& locale, int decimals)
{
    if (decimals < 0)
        return formatMetricValue(value, metric, unit, locale);
    if (!metric.isTime())
        return formatCount(value, locale, decimals);
    switch (unit) {
    case TimeUnit::Microseconds:
        return withoutNegativeZero(locale.toString(value, 'f', decimals));
    case TimeUnit::Milliseconds:
        return withoutNegativeZero(locale.toString(value / 1e3, 'f', decimals));
    case TimeUnit::Seconds:
        return withoutNegativeZero(locale.toString(value / 1e6, 'f', decimals));
    case TimeUnit::HoursMinutesSeconds:
        break;
    }
    return formatMetricValue(value, metric, unit, locale);
}

QString formatMetricValue(double value, const Metric& metric, TimeUnit unit, const QLocale& locale)
{
    if (!metric.isTime())
        return formatSi(value, locale);
    switch (unit) {
    case TimeUnit::Microseconds:
        return formatNumber(value, locale);
    case TimeUnit::Milliseconds:
        return withoutNegativeZero(locale.toString(value / 1e3, 'f', 3));
    case TimeUnit::Seconds:
        return withoutNegativeZero(locale.toString(value / 1e6, 'f', 3));
    case TimeUnit::HoursMinutesSeconds: {
        const QString text = formatHms(value / 1e6);
        return text == QStringLiteral("-0:0:0.0") ? text.mid(1) : text;
    }
    }
    return {};
}

} // namespace parallax
