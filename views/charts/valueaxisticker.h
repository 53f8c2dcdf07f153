// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/units.h"
#include "datasource/model/trial.h"
#include "views/charts/qcustomplotwrapper.h"

#include <optional>

namespace parallax {

/// Tick labels for a value axis in the metric's display unit. Plot data stay in the metric's own
/// unit (µs for time); only the labels are converted (µs, ms, s or h:m:s), so changing the time
/// unit needs no new data. Without a metric the ticks are plain numbers with digit grouping.
class ValueAxisTicker : public QCPAxisTicker {
public:
    ValueAxisTicker() = default;

    /// The metric whose unit the labels use; nullopt for plain numbers (counts, percentages).
    void setMetric(std::optional<Metric> metric, TimeUnit unit);

    /// The label of one value, as on the axis.
    QString label(double value, const QLocale& locale) const;
    /// The labels of ticks spaced `step` apart (in the metric's own unit): as many decimals as the
    /// step needs and no more (25,000 not 25,000.000; 0.5, 1.0, 1.5), counters of a million and
    /// more with one SI prefix for the whole axis (0, 50 G, 100 G).
    QStringList labels(const QVector<double>& ticks, const QLocale& locale) const;

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
    QVector<QString> createLabelVector(
        const QVector<double>& ticks, const QLocale& locale, QChar formatChar, int precision) override;

private:
    std::optional<Metric> m_metric;
    TimeUnit m_unit = TimeUnit::Milliseconds;
};

} // namespace parallax
