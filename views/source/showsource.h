// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/ids.h"

#include <QObject>

class QAction;
class QMenu;

namespace parallax {

class SelectionState;

/// The "Show Source" requests of one selection state (one per main window): the context menus of
/// the views emit them through addShowSourceAction(), the source browser opens the event's file
/// and brings itself to the front.
class SourceRequests : public QObject {
    Q_OBJECT
public:
    /// The state's request object (made on first use, a child of the state).
    static SourceRequests* of(SelectionState* state);
    using QObject::QObject;

Q_SIGNALS:
    void showSource(parallax::EventId event);
};

/// Adds "Show Source" to a context menu when `event` has a source location (docs/SEMANTICS.md §12):
/// it selects the event and asks the source browser to show it. The one helper every view's menu
/// uses. Returns the action, or nullptr when the event has no location.
QAction* addShowSourceAction(QMenu* menu, SelectionState* state, EventId event);

} // namespace parallax
