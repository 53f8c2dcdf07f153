// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// What the Clusters and Correlation views share: their metric selector and the columns' means.

#include "algebra/cluster.h"

#include <QComboBox>
#include <QSignalBlocker>
#include <vector>

namespace parallax {

/// Refills a metric selector with the trial's metrics (item data: the metric index) and, when
/// `allMetrics` is not empty and the trial has several, a last item of that text (data -1).
inline void fillMetricBox(QComboBox* box, const TrialPtr& trial, const QString& allMetrics = {})
{
    const QSignalBlocker block(box);
    box->clear();
    if (!trial)
        return;
    for (std::size_t m = 0; m < trial->metricCount(); ++m)
        box->addItem(trial->metric(MetricId(m)).name, static_cast<int>(m));
    if (!allMetrics.isEmpty() && trial->metricCount() > 1)
        box->addItem(allMetrics, -1);
}

/// The mean over the threads of each column's raw value.
inline std::vector<double> columnMeans(const ProfileMatrix& m)
{
    std::vector<double> mean(m.cols, 0.0);
    for (std::size_t row = 0; row < m.rows; ++row)
        for (std::size_t c = 0; c < m.cols; ++c)
            mean[c] += m.raw[row * m.cols + c];
    for (double& v : mean)
        v /= static_cast<double>(std::max<std::size_t>(m.rows, 1));
    return mean;
}

} // namespace parallax
