// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/charts/threadaxisticker.h"

#include <algorithm>
#include <cmath>

namespace parallax {

ThreadAxisTicker::ThreadAxisTicker() { setTickStepStrategy(tssMeetTickCount); }

double ThreadAxisTicker::stepFor(double span, int maxLabels)
{
    const double exact = span / std::max(1, maxLabels);
    if (exact <= 1)
        return 1;
    // The smallest 1-2-5 whole number that keeps the labels apart.
    double magnitude = std::pow(10.0, std::floor(std::log10(exact)));
    for (;;) {
        for (double factor : { 1.0, 2.0, 5.0 }) {
            if (factor * magnitude >= exact)
                return factor * magnitude;
        }
        magnitude *= 10;
    }
}

double ThreadAxisTicker::getTickStep(const QCPRange& range) { return stepFor(range.size(), tickCount()); }

int ThreadAxisTicker::getSubTickCount(double) { return 0; }

QString ThreadAxisTicker::getTickLabel(double tick, const QLocale&, QChar, int)
{
    const auto i = static_cast<qsizetype>(std::llround(tick));
    if (std::abs(tick - static_cast<double>(i)) > 1e-6 || i < 0 || i >= m_labels.size())
        return {};
    return m_labels[i];
}

QVector<double> ThreadAxisTicker::createTickVector(double tickStep, const QCPRange& range)
{
    QVector<double> ticks;
    if (m_labels.isEmpty() || tickStep < 1)
        return ticks;
    const double first = std::max(0.0, std::ceil(range.lower / tickStep) * tickStep);
    const double last = std::min(static_cast<double>(m_labels.size() - 1), range.upper);
    for (double tick = first; tick <= last + 1e-9; tick += tickStep)
        ticks.append(tick);
    return ticks;
}

} // namespace parallax
