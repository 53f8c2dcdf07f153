// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/source/showsource.h"

#include "datasource/model/sourcelocation.h"
#include "views/selectionstate.h"

#include <QMenu>

namespace parallax {

SourceRequests* SourceRequests::of(SelectionState* state)
{
    auto* requests = state->findChild<SourceRequests*>(QString(), Qt::FindDirectChildrenOnly);
    return requests ? requests : new SourceRequests(state);
}

QAction* addShowSourceAction(QMenu* menu, SelectionState* state, EventId event)
{
    const auto& trial = state->trial();
    if (!trial || !event.isValid() || event.index() >= trial->eventCount())
        return nullptr;
    // One event looked up: the menu never waits for the index of all events.
    const auto location = sourceLocationOf(*trial, event);
    if (!location)
        return nullptr;
    const QString where = location->beginLine > 0
        ? QStringLiteral("%1:%2").arg(location->file.section(QLatin1Char('/'), -1)).arg(location->beginLine)
        : location->file.section(QLatin1Char('/'), -1);
    return menu->addAction(QObject::tr("Show Source (%1)").arg(where), state, [state, event] {
        state->selectEvent(event);
        Q_EMIT SourceRequests::of(state)->showSource(event);
    });
}

} // namespace parallax
