// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "views/semantic/semanticformat.h"
#include "views/semantic/semanticlevelview.h"

#include <QList>
#include <QString>
#include <optional>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;

namespace parallax {

class SemanticMatrixCanvas;

/// The matrix's value axis: ticks within [0, maximum] and their labels. Normalized: 0, 25 ... 100 %;
/// otherwise round values in `metric`'s display unit `unit` by ValueAxisTicker (25,000 not
/// 25,000.000; never 62,623.672), plain numbers without a metric. `maximum` in the metric's unit.
std::pair<QVector<double>, QVector<QString>> semanticMatrixTicks(
    double maximum, const std::optional<Metric>& metric, TimeUnit unit, bool normalized);

/// The entity × thread matrix (issue 5): one stacked bar per thread, coloured by entity (a cut of
/// the entity tree: a level, or the leaves, with "(self)" parts), entities in a legend. Drawn with
/// QPainter in a scroll area: at "fit" width, when there are more threads than pixel columns, each
/// column shows the mean of the threads it covers (so 16,384 threads stay interactive); at a fixed
/// bar width it scrolls. Hovering explains a segment; clicking selects the thread and the entity.
class SemanticMatrixView : public SemanticLevelView {
    Q_OBJECT
public:
    explicit SemanticMatrixView(QWidget* parent = nullptr);

    /// Bars as shares of each thread's total (100 %) instead of absolute values.
    void setNormalized(bool normalized);
    bool normalized() const { return m_normalized; }
    /// Pixels per thread; 0 fits all threads into the width (aggregating per pixel column).
    void setBarWidth(int pixels);
    int barWidth() const { return m_barWidth; }
    /// The value axis' ticks and labels as drawn (semanticMatrixTicks of the largest bar).
    std::pair<QVector<double>, QVector<QString>> valueAxis() const;
    /// The largest bar's value (the top of the value axis), in the metric's unit.
    double valueMaximum() const;
    /// Marks a thread (invalid clears).
    void highlightThread(ThreadIndex thread);

    /// The stacked parts, bottom to top (largest total first), and their colours.
    const std::vector<semanticview::Slice>& slices() const { return m_slices; }
    /// A part's value on a thread (the per-thread matrix the bars are drawn from).
    double value(std::size_t slice, ThreadIndex thread) const { return m_values[slice * m_threads + thread.index()]; }
    std::size_t threadCount() const { return m_threads; }
    /// The drawing area (for tests and rendering).
    QWidget* canvas() const;
    /// How many threads one pixel column shows in the last paint (1 when not aggregated).
    double threadsPerColumn() const;
    /// Writes the whole view (legend and bars) to PNG, SVG or PDF by suffix.
    QString exportImage(const QString& fileName);

Q_SIGNALS:
    void threadClicked(parallax::ThreadIndex thread);
    void entityClicked(int entity);

private:
    friend class SemanticMatrixCanvas;

    /// The matrix's value axis: ticks within [0, maximum] and their labels. Normalized: 0, 25 ... 100 %;
    /// otherwise round values in `metric`'s display unit `unit` by ValueAxisTicker (25,000 not
    /// 25,000.000; never 62,623.672), plain numbers without a metric. `maximum` in the metric's unit.
    std::pair<QVector<double>, QVector<QString>> semanticMatrixTicks(
        double maximum, const std::optional<Metric>& metric, TimeUnit unit, bool normalized);
    void resetForProfile() override;
    void rebuild() override;

    bool m_normalized = false;
    int m_barWidth = 0;
    ThreadIndex m_highlight;
    std::vector<semanticview::Slice> m_slices;
    std::vector<double> m_values; ///< slice-major: [slice * threads + thread]
    std::vector<double> m_threadTotals;
    std::size_t m_threads = 0;

    QComboBox* m_widthBox = nullptr;
    QCheckBox* m_normalizedBox = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_legend = nullptr;
    SemanticMatrixCanvas* m_canvas = nullptr;
};

} // namespace parallax
