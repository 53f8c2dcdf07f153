// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/history.h"
#include "algebra/units.h"
#include "datasource/model/trial.h"
#include "views/common/job.h"

#include <QWidget>
#include <atomic>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

class QComboBox;
class QCPGraph;
class QCPLegend;
class QCPTextElement;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QMouseEvent;
class QSpinBox;
class QTableWidget;

namespace parallax {

/// Where a history's runs come from: files opened together or a database's trials. The view asks
/// `compute` for the history whenever the user changes an option, in a background job; the source
/// owns its runs (loaded trials, or a database location and ids) and must be callable from a worker
/// thread.
struct HistorySource {
    QString description; ///< what the runs are ("30 runs of nightly/cpu"), shown above the chart
    QString orderKey; ///< the key the runs are ordered by
    std::vector<Metric> metrics; ///< the metrics offered (the first run's)
    std::function<HistoryResult(const HistoryOptions& options, const std::atomic_bool& cancel)> compute;
    /// The trial of a run, for its comparison (called on a worker thread): empty when every run
    /// carries its trial; null with `error` set when it cannot be read.
    std::function<std::shared_ptr<const Trial>(const HistoryInput& run, QString* error)> trialOf;
};

/// The performance history of a set of runs (issue 17 §1, docs/SEMANTICS.md §9): per event a line of
/// the chosen statistic against the runs in order, the min–max band across threads of the selected
/// event, the change points (▲ a regression, ▼ an improvement, with Δ% and p) and a movers table
/// (overall change, largest step between consecutive runs, change points). Hovering a point shows
/// the run; clicking it asks for the comparison of that run with the previous one or with the chosen
/// baseline (compareRequested(); the application opens the comparison window).
class HistoryView : public QWidget {
    Q_OBJECT
public:
    explicit HistoryView(HistorySource source, QWidget* parent = nullptr);
    ~HistoryView() override;

    /// Opens the view as a top-level window that deletes itself when closed.
    static HistoryView* open(HistorySource source, QWidget* parent = nullptr);

    bool isComputing() const { return m_job.isRunning(); }
    /// Blocks until the history is computed and drawn (tests, headless rendering).
    void waitForResult();
    /// The history drawn; null before the first result or after an error.
    const History* history() const { return m_history.get(); }
    /// The error of the last computation; empty when it worked.
    QString error() const { return m_error; }

    HistoryOptions options() const;
    /// Recomputes with these options (the controls follow).
    void setOptions(const HistoryOptions& options);
    void setTimeUnit(TimeUnit unit);

    /// The event whose band and change points are drawn in full (a row of the movers table).
    QString selectedEvent() const { return m_selected; }
    void selectEvent(const QString& event);
    /// The run (index into history()->runs) every clicked point is compared with; -1 (the
    /// default): the first run of the point before the clicked one.
    void setBaseline(int run);
    int baseline() const { return m_baseline; }
    /// What a click on point `point` (history()->points; a point is the runs sharing one order
    /// value) does: emits compareRequested(baseline run, the point's first run); false when there is
    /// nothing to compare it with (the first point without a baseline, the baseline itself).
    bool requestComparison(int point);
    /// The point of any drawn series nearest to a position of the plot (within 10 px), and its
    /// series; -1 if none.
    int pointAt(const QPointF& position, QString* event = nullptr) const;

    QCustomPlot* plot() const { return m_plot; }
    QTableWidget* movers() const { return m_movers; }
    /// Writes the whole view as PNG, SVG or PDF; empty or the error.
    QString exportImage(const QString& fileName);

Q_SIGNALS:
    /// The history is computed and drawn (or the error shown).
    void ready();
    /// The user clicked run `run`: compare it (B) with run `baseline` (A). Indices into history()->runs.
    void compareRequested(int baseline, int run);

private:
    void recompute();
    void onFinished(const HistoryResult& result);
    void fillMovers();
    void fillBaselines();
    void replot();
    void showToolTip(QMouseEvent* event);
    void onPlotClick(QMouseEvent* event);
    const HistorySeries* series(const QString& event) const;
    /// The run a click on `point` is compared with (the chosen baseline, or the previous point's first run); -1 if
    /// none.
    int baselineOf(int point) const;
    const Metric* metric() const;
    QString formatValue(double value) const;

    HistorySource m_source;
    std::shared_ptr<const History> m_history;
    QString m_error;
    Job<HistoryResult> m_job { this };
    TimeUnit m_unit = TimeUnit::Milliseconds;
    QString m_selected;
    int m_baseline = -1;

    QLabel* m_runs;
    QComboBox* m_metricBox;
    QComboBox* m_valueBox;
    QComboBox* m_statisticBox;
    QComboBox* m_unitBox;
    QSpinBox* m_topBox;
    QLineEdit* m_eventsEdit;
    QDoubleSpinBox* m_effectBox;
    QComboBox* m_baselineBox;
    QCustomPlot* m_plot;
    QCPTextElement* m_title;
    QCPLegend* m_legend;
    QTableWidget* m_movers;
    QLabel* m_definition;
    /// The events' lines (not the bands and markers), for hovering and clicking.
    std::vector<std::pair<QCPGraph*, QString>> m_lines;
};

} // namespace parallax
