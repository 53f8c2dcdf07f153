// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "views/common/job.h"
#include "views/overview/barchartview.h"
#include "views/overview/overviewbuilder.h"
#include "views/overview/overviewdensity.h"

#include <QPoint>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;

namespace parallax {

class EventLegend;
class ThreadFinder;

/// ParaProf's main data window: one horizontal bar per thread (labelled n,c,t) under pinned rows
/// for the mean, std. dev., min, max and total, for the SelectionState's metric and value type.
/// Each event has its stable colour (eventColor) and the same place in every bar (largest mean
/// first). Stacked, unstacked or normalised; threads sorted by id, by the selected event or by the
/// bar's sum. Clicking a segment selects its event (eventActivated), clicking a thread label selects
/// the thread (threadActivated); the selected event is outlined in every bar. Follows the
/// SelectionState's filters. The layout is computed off the paint path, in a background job for big
/// trials, and only the visible rows are painted, so 16,384 threads stay smooth.
class OverviewWidget : public BarChartView {
    Q_OBJECT
public:
    explicit OverviewWidget(SelectionState* state, QWidget* parent = nullptr);
    ~OverviewWidget() override;

    void setMode(OverviewMode mode);
    OverviewMode mode() const { return m_mode; }
    void setSort(OverviewSort sort, bool descending = false);
    OverviewSort sort() const { return m_sort; }
    bool sortDescending() const { return m_descending; }
    /// The Total row (own scale: it is N times the mean); on by default.
    void setShowTotal(bool show);
    /// Each bar's sum printed after its end; on by default.
    void setShowValues(bool show);
    /// Trials with more (thread, event) cells than this are laid out in a background job
    /// (default 100,000); smaller ones synchronously.
    void setAsyncThreshold(std::size_t cells);

    // updateNow() (SelectionView) applies pending changes now, waiting for a background layout:
    // call it before grab() or render() when no event loop runs (headless rendering of a big trial).
    /// Whether a background layout is being computed.
    bool isComputing() const { return m_job.isRunning(); }

    /// Thread density (docs/SEMANTICS.md 2.2): nullopt (the default, and again after a new trial)
    /// chooses it when the trial has more threads than the chart has pixel rows for density rows;
    /// true or false forces it (the "Thread density" check box).
    void setDensity(std::optional<bool> on);
    /// Whether density rows are wanted (shown once computed).
    bool densityWanted() const;
    /// Whether the rows shown are density rows.
    bool isDensityShown() const;
    /// The density shown or last computed (nullptr before the first one).
    const std::shared_ptr<const OverviewDensity>& density() const { return m_density; }
    /// How many density rows the chart's current height holds.
    int densityPixelRows() const;

    /// The layout shown (nullptr before the first one).
    const std::shared_ptr<const OverviewLayout>& overviewLayout() const { return m_layout; }
    /// Row of a thread in the bar list (in density mode: its density row), -1 when unknown.
    int rowOfThread(ThreadIndex thread) const;
    /// The thread of a row (invalid for statistic rows).
    ThreadIndex threadAtRow(int row) const;
    /// The statistic of a pinned row.
    std::optional<Statistic> statisticAtRow(int row) const;
    /// The thread a pinned row shows (the "Min thread" and "Max thread" rows), invalid otherwise.
    ThreadIndex threadOfStatisticRow(int row) const;
    /// The event of a segment (index into barList()->data()->segments).
    EventId eventOfSegment(int segment) const;
    /// The "go to thread n,c,t" field.
    ThreadFinder* threadFinder() const { return m_threadFinder; }
    /// The colour legend beside the bars.
    EventLegend* legend() const { return m_legend; }

Q_SIGNALS:
    /// A segment was clicked: its event is now selected (open its Event window).
    void eventActivated(parallax::EventId event);
    /// A thread label was clicked (or Enter pressed on it): the thread is now selected.
    void threadActivated(parallax::ThreadIndex thread);
    /// A statistic row's label was clicked (open the mean/std. dev./... pseudo-thread window).
    void statisticActivated(parallax::Statistic statistic);
    /// A new layout is shown.
    void layoutChanged();

private:
    /// Whether the shown layout belongs to the state's trial (ids of another trial must not leak).
    bool isCurrent() const;
    void selectionChanged(SelectionChanges changes) override;
    void doUpdate(SelectionChanges changes) override;
    void finishUpdate() override;
    void apply(std::shared_ptr<const OverviewLayout> layout);
    /// Marks the rows of the selected set of threads (a cluster).
    void applyThreadSet();
    void applySelection(bool scroll);
    void updateTitle();
    void updateLegend();
    /// Shows the layout's thread rows or its density rows (computing them on a worker once per
    /// layout and height).
    void showBars();
    bool eventFilter(QObject* watched, QEvent* event) override;
    OverviewRequest makeRequest() const;
    /// densityWanted() for a layout of `threads` thread rows under `pinned` statistic rows (also
    /// before that layout exists: whether it will need its thread rows' segments).
    bool densityWantedFor(std::size_t threads, std::size_t pinned) const;
    /// How many density rows fit under `pinned` statistic rows at the chart's current height.
    int densityPixelRows(std::size_t pinned) const;
    QString toolTip(int row, int segment) const override;
    /// A segment: selects its event; a label: selects its thread (or opens a statistic row).
    void activateSegment(int row, int segment) override;
    void activate(int row) override;

    QComboBox* m_modeBox = nullptr;
    QComboBox* m_sortBox = nullptr;
    QCheckBox* m_descendingBox = nullptr;
    QCheckBox* m_densityBox = nullptr;
    Job<std::shared_ptr<const OverviewDensity>> m_densityJob { this };
    std::shared_ptr<const OverviewDensity> m_density;
    std::optional<bool> m_densityChoice;
    /// The scroll position to restore when a continuing trial's bars arrive.
    std::optional<QPoint> m_keptScroll;
    ThreadFinder* m_threadFinder = nullptr;
    EventLegend* m_legend = nullptr;
    Job<std::shared_ptr<const OverviewLayout>> m_job { this };
    std::shared_ptr<const OverviewLayout> m_layout;
    OverviewMode m_mode = OverviewMode::Stacked;
    OverviewSort m_sort = OverviewSort::ThreadId;
    bool m_descending = false;
    bool m_showTotal = true;
    bool m_showValues = true;
    std::size_t m_asyncThreshold = 100000;
};

} // namespace parallax
