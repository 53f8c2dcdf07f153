// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "views/selectionstate.h"

#include <QPointer>

class QObject;
class QWidget;

namespace parallax {

/// The base (a mixin next to the QWidget base) of every view that follows a SelectionState, in
/// the spirit of KCachegrind's TraceItemView: the view receives one `doUpdate(changes)` with the
/// OR of everything that changed since its last update, at most once per event-loop turn, instead
/// of connecting to each of SelectionState's signals and keeping its own timer and dirty flag.
///
///     class MyChart : public QWidget, public SelectionView {
///         MyChart(SelectionState* s, QWidget* p) : QWidget(p), SelectionView(this, s, SelectionChange::Trial | ...)
///         { scheduleUpdate(); }
///         void doUpdate(SelectionChanges changes) override { ... redraw ... }
///     };
///
/// A view that must react at once to part of a change (a highlight) overrides selectionChanged()
/// and calls scheduleUpdate() for the rest. updateNow() runs a pending update at once (headless
/// rendering and painting call it).
///
/// A view that is a hidden widget of a window on screen (a tab in the background, a closed dock)
/// keeps its update pending until it is shown: nothing computes for a view nobody sees (issue 18 §4, a 131,072-thread
/// trial would cost seconds per hidden view). updateNow() still updates a hidden view.
class SelectionView {
public:
    /// `owner` is the QObject (the view itself) whose lifetime bounds the connection and the
    /// queued update; `interest` the changes that schedule an update by default.
    SelectionView(QObject* owner, SelectionState* state, SelectionChanges interest);
    virtual ~SelectionView();
    SelectionView(const SelectionView&) = delete;
    SelectionView& operator=(const SelectionView&) = delete;

    SelectionState* selection() const { return m_state; }

    /// Marks the view out of date (`changes` are ORed into the next doUpdate()) and queues one
    /// update for the next event-loop turn unless one is already queued.
    void scheduleUpdate(SelectionChanges changes = SelectionChange::View);
    /// Runs a pending update now and waits for its background part (finishUpdate()): before
    /// grab()/render() without an event loop, and in tests. A no-op when up to date.
    void updateNow();
    bool isUpdatePending() const { return m_dirty; }

protected:
    /// Called at once for every change of the selection; the default schedules an update when
    /// the change touches `interest`.
    virtual void selectionChanged(SelectionChanges changes);
    /// Brings the view up to date; `changes` is everything scheduled since the last update.
    virtual void doUpdate(SelectionChanges changes) = 0;
    /// Called by updateNow() after doUpdate(): a view that computes in the background waits here.
    virtual void finishUpdate() { }
    /// Whether doUpdate() runs from updateNow() (must finish synchronously) rather than from the
    /// queued update of the event loop.
    bool isUpdatingNow() const { return m_now; }
    /// Runs a pending update as the queued call would (not "now"): a paint brings it forward.
    void updatePending();

    SelectionChanges interest() const { return m_interest; }

private:
    /// Queues the pending update for the next event-loop turn (once).
    void queueUpdate();

    QObject* m_owner;
    /// The owner when it is a widget: its update waits until it is visible.
    QWidget* m_widget = nullptr;
    SelectionState* m_state;
    SelectionChanges m_interest;
    SelectionChanges m_pending;
    bool m_dirty = false;
    bool m_queued = false;
    bool m_now = false;
};

} // namespace parallax
