// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/perfmodel.h"
#include "algebra/units.h"
#include "views/common/job.h"
#include "views/comparison/scalingbuilder.h"

#include <QWidget>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QCPAxisRect;
class QCPLegend;
class QCPTextElement;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;
class QTabWidget;

namespace parallax {

class ScalingModelsView;

/// A scaling study of N >= 2 runs of the same code at different thread counts (e.g. 2, 4, 8 …
/// ranks), ordered by thread count: for the events picked in a list (default: the five largest
/// by inclusive time in the smallest run), the time T(P) against the number of threads P and the
/// relative efficiency E(P) = T(P0)·P0 / (T(P)·P) against the smallest run P0, as two QCustomPlot
/// line charts on a log2 thread axis. The definitions are written under the charts; hovering a
/// point explains it. Statistics are computed in a QtConcurrent job. Each event's T(P) also gets
/// Extra-P's performance model (algebra/perfmodel.h, docs/SEMANTICS.md §10; runs with the same P are
/// repetitions): its curve dashed, extrapolated to a target P, with its formula, SMAPE, adjusted R² and
/// the prediction at the target in a table under the charts.
class ScalingView : public QWidget {
    Q_OBJECT
public:
    explicit ScalingView(std::vector<std::shared_ptr<const Trial>> trials, QWidget* parent = nullptr);
    ~ScalingView() override;

    /// Opens a scaling study as a top-level window that deletes itself when closed.
    static ScalingView* open(std::vector<std::shared_ptr<const Trial>> trials, QWidget* parent = nullptr);

    bool isComputing() const { return m_job.isRunning(); }
    /// Blocks until the statistics are computed and the charts drawn (tests, headless rendering).
    void waitForResult();
    const std::shared_ptr<const ScalingSnapshot>& snapshot() const { return m_snapshot; }

    /// The events drawn (flat event names).
    QStringList selectedEvents() const;
    void setSelectedEvents(const QStringList& events);
    bool setMetric(const QString& name);
    QString metric() const;
    void setValue(ScalingValue value);
    void setStatistic(ScalingStatistic statistic);
    void setTimeUnit(TimeUnit unit);
    /// The series drawn for an event (empty when it is not selected).
    std::vector<ScalingPoint> series(const QString& event) const;

    /// The Extra-P model of an event's T(P) drawn (invalid when the event is not drawn or models are off).
    PerformanceModel model(const QString& event) const;
    /// Shows or hides the models; the target P the curves are extrapolated to (default: 4 × the largest P).
    void setShowModels(bool show);
    void setTarget(int threads);
    int target() const;

    /// Both charts live in one plot (so their thread axes line up): the time axis rect on top, the
    /// efficiency axis rect below, the legend to the right of the time chart.
    QCustomPlot* plot() const { return m_plot; }
    QCPAxisRect* timeRect() const { return m_timeRect; }
    QCPAxisRect* efficiencyRect() const { return m_efficiencyRect; }
    /// The "Models per call path" tab (views/comparison/scalingmodelsview.h); showModelsPage() raises it.
    ScalingModelsView* modelsPage() const { return m_modelsPage; }
    void showModelsPage();

    /// Writes the whole view (list, charts, definitions) as PNG, SVG or PDF; empty or the error.
    QString exportImage(const QString& fileName);

Q_SIGNALS:
    /// The statistics are ready and the charts drawn.
    void ready();

private:
    void onFinished(std::shared_ptr<const ScalingSnapshot> snapshot);
    void fillLists();
    void replot();
    void showToolTip(QMouseEvent* event);
    QString formatTime(double value) const;

    std::vector<std::shared_ptr<const Trial>> m_trials;
    std::shared_ptr<const ScalingSnapshot> m_snapshot;
    Job<std::shared_ptr<const ScalingSnapshot>> m_job { this };
    ScalingValue m_value = ScalingValue::Inclusive;
    ScalingStatistic m_statistic = ScalingStatistic::Mean;
    TimeUnit m_unit = TimeUnit::Milliseconds;

    QLabel* m_runs;
    QComboBox* m_metricBox;
    QComboBox* m_valueBox;
    QComboBox* m_statisticBox;
    QComboBox* m_unitBox;
    QLineEdit* m_search;
    QListWidget* m_events;
    QCustomPlot* m_plot;
    QCPAxisRect* m_timeRect;
    QCPAxisRect* m_efficiencyRect;
    QCPLegend* m_legend;
    QCPTextElement* m_timeTitle;
    QCPTextElement* m_efficiencyTitle;
    QLabel* m_definition;
    QCheckBox* m_modelBox;
    QSpinBox* m_targetBox;
    QLabel* m_modelTable;
    QTabWidget* m_tabs;
    ScalingModelsView* m_modelsPage;
    /// The models of the drawn events, by m_graphEvents' order.
    std::vector<PerformanceModel> m_models;
    /// Per drawn event (graphs 2i: time, 2i+1: efficiency): the event name.
    std::vector<QString> m_graphEvents;
};

} // namespace parallax
