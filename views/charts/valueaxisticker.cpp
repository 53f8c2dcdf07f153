// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/charts/valueaxisticker.h"

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
    if (value == std::floor(value) && std::abs(value) < 9.0e15)
        return locale.toString(static_cast<qlonglong>(value));
    return locale.toString(value, 'g', 6);
}

QString ValueAxisTicker::getTickLabel(double tick, const QLocale& locale, QChar, int) { return label(tick, locale); }

} // namespace parallax
