// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QWidget>
#include <vector>

class QCustomPlot;
class QLabel;
class QSpinBox;

namespace parallax {

/// The distribution of one call row's values across the locations (issue 15 §2): a histogram and
/// the values sorted in increasing order (hpcviewer's "sorted plot"), with the box-plot figures
/// (algebra/cubespace.h boxStats) in a line above. NaN values (no value) are left out.
class DistributionPanel : public QWidget {
    Q_OBJECT
public:
    explicit DistributionPanel(QWidget* parent = nullptr);

    void setValues(std::vector<double> byThread, const QString& what);
    void setBins(int bins);

    /// Threads per histogram bin (the bars drawn); they sum to the threads with a value.
    const std::vector<std::size_t>& binCounts() const { return m_counts; }
    double binLow() const { return m_low; }
    double binWidth() const { return m_width; }
    /// The sorted values drawn.
    const std::vector<double>& sortedValues() const { return m_sorted; }
    QCustomPlot* histogramPlot() const { return m_histogram; }
    QCustomPlot* sortedPlot() const { return m_sortedPlot; }

private:
    void rebuild();

    std::vector<double> m_values;
    QString m_what;
    std::vector<double> m_sorted;
    std::vector<std::size_t> m_counts;
    double m_low = 0, m_width = 1;
    QLabel* m_summary = nullptr;
    QSpinBox* m_bins = nullptr;
    QCustomPlot* m_histogram = nullptr;
    QCustomPlot* m_sortedPlot = nullptr;
};

} // namespace parallax
