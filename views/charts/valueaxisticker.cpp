// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/charts/valueaxisticker.h"

#include <algorithm>
#include <cmath>

namespace parallax {

void ValueAxisTicker::setMetric(std::optional<Metric> metric, TimeUnit unit)
{
    m_metric = std::move(metric);
    m_unit = unit;
}

QString ValueAxisTicker::label(double value, const QLocale& locale) const
{
    // Ticks at 0 come out as tiny residues like 1e-13 after range arithmetic.
    if (std::abs(value) < 1e-12)
        value = 0;
    if (m_metric && m_metric->isTime())
        return formatMetricValue(value, *m_metric, m_unit, locale);
    return formatNumber(value, locale);
}

QString ValueAxisTicker::getTickLabel(double tick, const QLocale& locale, QChar, int) { return label(tick, locale); }

QStringList ValueAxisTicker::labels(const QVector<double>& ticks, const QLocale& locale) const
{
    if (ticks.size() < 2 || (m_metric && m_metric->isTime() && m_unit == TimeUnit::HoursMinutesSeconds)) {
        QStringList out;
        for (double tick : ticks)
            out << label(tick, locale);
        return out;
    }
    // Ticks and step in the unit the labels show.
    double scale = 1;
    if (m_metric && m_metric->isTime())
        scale = m_unit == TimeUnit::Milliseconds ? 1e-3 : m_unit == TimeUnit::Seconds ? 1e-6 : 1.0;
    double largest = 0;
    double step = 0;
    for (qsizetype i = 0; i < ticks.size(); ++i) {
        largest = std::max(largest, std::abs(ticks[i] * scale));
        if (i > 0) {
            const double d = std::abs(ticks[i] - ticks[i - 1]) * scale;
            step = step == 0 ? d : std::min(step, d);
        }
    }
    // One SI prefix for a counter axis reaching a million.
    QString prefix;
    if (!(m_metric && m_metric->isTime()) && largest >= 1e6) {
        static const char* const prefixes[] = { "M", "G", "T", "P", "E" };
        const int index = std::clamp(static_cast<int>(std::floor(std::log10(largest) / 3)) - 2, 0, 4);
        const double unit = std::pow(10.0, 3 * (index + 2));
        scale /= unit;
        step /= unit;
        prefix = QLatin1Char(' ') + QLatin1String(prefixes[index]);
    }
    // As many decimals as the step needs: a step of 0.25 needs 2, of 5,000 none.
    int decimals = 0;
    while (decimals < 9 && step > 0) {
        const double scaled = step * std::pow(10.0, decimals);
        if (std::abs(scaled - std::round(scaled)) <= 1e-6 * scaled)
            break;
        ++decimals;
    }
    QStringList out;
    for (double tick : ticks) {
        double v = tick * scale;
        if (std::abs(v) < step * 1e-9)
            v = 0;
        out << withoutNegativeZero(locale.toString(v, 'f', decimals)) + (v == 0 ? QString() : prefix);
    }
    return out;
}

QVector<QString> ValueAxisTicker::createLabelVector(const QVector<double>& ticks, const QLocale& locale, QChar, int)
{
    const QStringList out = labels(ticks, locale);
    return QVector<QString>(out.begin(), out.end());
}

} // namespace parallax
