// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "views/common/selectionview.h"
#include "views/statisticsmodel.h"
#include "views/viewsetup.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QStackedWidget;
class QToolButton;
class QTreeView;

namespace parallax {

class CallTreeModel;
class ThreadFinder;

/// The Statistics tab: pprof-style columns for a statistic across threads or one thread, flat or
/// as the call tree (CUBE-style value column), following the SelectionState (metric, time unit,
/// filters, selected event and thread) and selecting events in it.
class StatisticsPanel : public QWidget, public SelectionView {
    Q_OBJECT
public:
    explicit StatisticsPanel(SelectionState* state, QWidget* parent = nullptr);

    /// Flat table (false) or call tree (true).
    void setTreeMode(bool tree);
    bool isTreeMode() const;
    /// The flat table lists call-path events ("a => b") besides flat events (off by default).
    void setShowCallPaths(bool show);
    bool showsCallPaths() const;
    /// A statistic across threads, or RowMode::Thread with the thread to show.
    void setRowMode(RowMode mode, ThreadIndex thread = ThreadIndex());

    /// The view on screen (flat table or tree), for CSV export and Ctrl+C.
    QTreeView* currentView() const;
    /// The "go to thread n,c,t" field beside the Show selector.
    ThreadFinder* threadFinder() const { return m_threadFinder; }
    /// The Show selector.
    QComboBox* modeCombo() const { return m_modeCombo; }
    StatisticsModel* flatModel() const { return m_flatModel; }
    CallTreeModel* treeModel() const { return m_treeModel; }
    void focusSearch();
    /// A file name describing what is shown ("trial-TIME-Mean.csv").
    QString suggestedCsvName() const;

Q_SIGNALS:
    /// An event row was activated (double-click or Enter): show it across all threads.
    void eventActivated(EventId event);

private:
    /// The tables follow every change at once (their models are cheap to re-point).
    void selectionChanged(SelectionChanges changes) override;
    void doUpdate(SelectionChanges) override { }
    void onTrialChanged();
    void fillModeCombo();
    void applyMode();
    void applyFilter();
    void applyGrowth();
    void updateNote();
    void onEventSelected(EventId event);
    void activate(const QModelIndex& proxyIndex);
    void resizeFlatColumns();

    SelectionState* m_state;
    StatisticsModel* m_flatModel;
    CallTreeModel* m_treeModel;
    ViewSetup m_flat;
    ViewSetup m_tree;
    QStackedWidget* m_stack;
    QComboBox* m_modeCombo;
    /// "Go to thread n,c,t" with a completer: the thread of the "Thread…" entry on big trials.
    ThreadFinder* m_threadFinder;
    std::size_t m_pickedThread = 0;
    QLabel* m_threadLabel;
    QToolButton* m_treeButton;
    QToolButton* m_callPathsButton;
    QLabel* m_note;
};

} // namespace parallax
