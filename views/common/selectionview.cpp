// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/common/selectionview.h"

#include <QMetaObject>

namespace parallax {

SelectionView::SelectionView(QObject* owner, SelectionState* state, SelectionChanges interest)
    : m_owner(owner)
    , m_state(state)
    , m_interest(interest)
{
    if (m_state)
        QObject::connect(m_state, &SelectionState::changed, m_owner,
            [this](SelectionChanges changes) { selectionChanged(changes); });
}

SelectionView::~SelectionView() = default;

void SelectionView::selectionChanged(SelectionChanges changes)
{
    if (changes & m_interest)
        scheduleUpdate(changes & m_interest);
}

void SelectionView::scheduleUpdate(SelectionChanges changes)
{
    m_pending |= changes;
    m_dirty = true;
    if (m_queued)
        return;
    m_queued = true;
    // The owner is the context: a view destroyed before the next turn drops the call.
    QMetaObject::invokeMethod(
        m_owner,
        [this] {
            m_queued = false;
            updatePending();
        },
        Qt::QueuedConnection);
}

void SelectionView::updateNow()
{
    m_now = true;
    updatePending();
    m_now = false;
    finishUpdate();
}

void SelectionView::updatePending()
{
    if (!m_dirty)
        return;
    const SelectionChanges changes = m_pending;
    m_pending = {};
    m_dirty = false;
    doUpdate(changes);
}

} // namespace parallax
