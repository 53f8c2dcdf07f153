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

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

private:
    std::optional<Metric> m_metric;
    TimeUnit m_unit = TimeUnit::Milliseconds;
};

} // namespace parallax
