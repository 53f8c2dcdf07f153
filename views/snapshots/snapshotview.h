// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/snapshotseries.h"
#include "views/common/job.h"
#include "views/common/selectionview.h"

#include <QWidget>
#include <memory>
#include <vector>

class QComboBox;
class QCPColorMap;
class QCPItemRect;
class QCustomPlot;
class QLabel;
class QMouseEvent;
class QResizeEvent;
class QPushButton;
class QSpinBox;

namespace parallax {

class ThreadFinder;

/// The Time Series view (issue 19 §1, docs/SEMANTICS.md 1.11) of a trial with snapshots (TAU
/// snapshot profiles): per interval between consecutive snapshots, the chosen metric's exclusive
/// value of the largest events as stacked areas or lines, for the mean over the threads or one
/// thread; below, one event's thread × interval heat map (many threads share a pixel row: their
/// mean). A range of intervals (click, shift-click, or the From/To boxes) is shaded, and "Open as
/// trial" makes the profile of that range with the algebra (intervalProfile) and hands it to the
/// application (trialDerived), so every other view shows the profile of the chosen time window.
/// Everything over all threads is computed in a background job.
class SnapshotView : public QWidget, public SelectionView {
    Q_OBJECT
public:
    explicit SnapshotView(SelectionState* state, QWidget* parent = nullptr);
    ~SnapshotView() override;

    /// What the job computes for the trial, metric, thread choice and event shown.
    struct Output {
        TrialPtr trial;
        MetricId metric;
        ThreadIndex thread; ///< invalid: the mean
        SnapshotSeriesTable table;
        /// The heat map of `event`, binned to at most MaxHeatRows rows of threads (bin means).
        EventId event;
        std::size_t heatRows = 0;
        std::size_t threadsPerRow = 1;
        std::vector<double> heat; ///< heat[row * intervals + interval]
        double heatMin = 0;
        double heatMax = 0;
    };
    static constexpr std::size_t MaxHeatRows = 1024;

    enum class Style { Stacked, Lines };
    void setStyle(Style style);
    /// The mean over the threads (an invalid index) or one thread.
    void setThread(ThreadIndex thread);
    /// A statistic over the threads per interval (docs/SEMANTICS.md 1.11); min, max and std. dev.
    /// switch the chart to lines, since they do not add up.
    void setStatistic(Statistic statistic);
    /// The intervals first..last (clamped to the series) shaded as the selected range.
    void setRange(int first, int last);
    int rangeFirst() const;
    int rangeLast() const;
    /// Makes the profile of the selected range (in the background) and emits trialDerived.
    void openRange();

    const Output& output() const { return m_output; }
    /// The events drawn as series, in drawing order (the largest first), without "other".
    const std::vector<EventId>& shownEvents() const { return m_shown; }
    QCustomPlot* chart() const { return m_chart; }
    QCustomPlot* heatMap() const { return m_heat; }
    bool isComputing() const { return m_job.isRunning(); }
    /// Blocks until the range's profile is made and trialDerived emitted (tests).
    void waitForRange() { m_rangeJob.waitAndDeliver(); }
    QString exportImage(const QString& fileName);

Q_SIGNALS:
    /// The profile of a range of intervals, a new trial for the application to open.
    void trialDerived(const TrialPtr& trial, const QString& description);
    void operationFailed(const QString& message);

protected:
    void doUpdate(SelectionChanges changes) override;
    void finishUpdate() override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void start();
    void present(Output output);
    void draw();
    void drawHeat();
    void drawRange();
    void chartClicked(QMouseEvent* event);

    Output m_output;
    Job<Output> m_job { this };
    struct Derived {
        TrialPtr trial;
        QString error;
        QString description;
    };
    Job<Derived> m_rangeJob { this };
    bool m_stale = true;
    /// The thread "One thread" shows (invalid until one is chosen).
    ThreadIndex m_pendingThread;
    TrialPtr m_threadTrial; ///< the trial m_pendingThread belongs to
    std::vector<EventId> m_shown;
    QComboBox* m_who = nullptr;
    ThreadFinder* m_finder = nullptr;
    QComboBox* m_style = nullptr;
    QSpinBox* m_count = nullptr;
    QSpinBox* m_from = nullptr;
    QSpinBox* m_to = nullptr;
    QPushButton* m_open = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_heatTitle = nullptr;
    QCustomPlot* m_chart = nullptr;
    QCPItemRect* m_rangeRect = nullptr;
    QCustomPlot* m_heat = nullptr;
    QCPColorMap* m_map = nullptr;
    QCPItemRect* m_heatRect = nullptr;
};

} // namespace parallax
