// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/values.h"
#include "datasource/model/trial.h"
#include "views/common/selectionview.h"

#include <QSharedPointer>
#include <QWidget>
#include <optional>
#include <vector>

class QCPBars;
class QCPItemText;
class QCPTextElement;
class QCustomPlot;
class QLabel;
class QMouseEvent;
class QSpinBox;

namespace parallax {

class ValueAxisTicker;

/// The distribution across threads of one interval event's value (ParaProf's histogram window):
/// the SelectionState's event, metric, value type and time unit, in 1–100 equal-width bins.
/// Threads without a value (the event did not run there, or per-call values without calls) are
/// left out and counted in the caption. The bin of the selected thread is highlighted.
class HistogramWidget : public QWidget, public SelectionView {
    Q_OBJECT
public:
    static constexpr int MinBins = 1;
    static constexpr int MaxBins = 100;
    static constexpr int DefaultBins = 10;

    /// Equal-width bins from low to low + width × counts.size(). The largest value falls into the
    /// last bin. When all values are equal the range is widened around them so that they sit in
    /// the middle bin.
    struct Bins {
        double low = 0;
        double width = 0;
        std::vector<int> counts;
        double high() const { return low + width * static_cast<double>(counts.size()); }
        /// The bin of a value (clamped to the range).
        int binOf(double value) const;
    };
    static Bins computeBins(const std::vector<double>& values, int binCount);

    explicit HistogramWidget(SelectionState* state, QWidget* parent = nullptr);
    ~HistogramWidget() override;

    /// Clamped to MinBins..MaxBins.
    void setBinCount(int bins);
    int binCount() const { return m_binCount; }

    const Bins& bins() const { return m_bins; }
    /// Threads with a value, and those without one.
    std::size_t presentThreads() const { return m_present.size(); }
    std::size_t absentThreads() const { return m_absent; }
    /// The caption under the title ("12 of 16 threads have this event · …").
    QString caption() const { return m_caption; }

    QCustomPlot* plot() const { return m_plot; }
    /// Writes the chart to PNG, SVG or PDF (by suffix); returns an empty string or the error.
    QString exportImage(const QString& fileName, int width = 0, int height = 0);

Q_SIGNALS:
    void binCountChanged(int bins);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// The histogram follows every change at once (one pass over the threads).
    void selectionChanged(SelectionChanges changes) override;
    void doUpdate(SelectionChanges) override { rebuild(); }
    void rebuild();
    void updateHighlight();
    void showToolTip(QMouseEvent* event);
    QString axisTitle() const;
    QString format(double value) const;
    QString formatWithUnit(double value) const;

    SelectionState* m_state;
    int m_binCount = DefaultBins;
    Bins m_bins;
    /// (thread, value) of the threads with a value.
    std::vector<std::pair<ThreadIndex, double>> m_present;
    std::size_t m_absent = 0;
    QString m_caption;

    QSpinBox* m_binBox = nullptr;
    QCustomPlot* m_plot = nullptr;
    QCPTextElement* m_title = nullptr;
    QCPBars* m_bars = nullptr;
    QCPBars* m_selectedBar = nullptr;
    QCPItemText* m_selectedLabel = nullptr;
    QSharedPointer<ValueAxisTicker> m_valueTicker;
};

} // namespace parallax
