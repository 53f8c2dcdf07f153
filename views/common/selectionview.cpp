// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/common/selectionview.h"

#include <QEvent>
#include <QMetaObject>
#include <QWidget>
#include <functional>
#include <utility>

namespace parallax {

namespace {

/// Runs `shown` when the widget it filters is shown.
class ShowFilter : public QObject {
public:
    ShowFilter(QWidget* widget, std::function<void()> shown)
        : QObject(widget)
        , m_shown(std::move(shown))
    {
        widget->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Show && watched == parent())
            m_shown();
        return false;
    }

private:
    std::function<void()> m_shown;
};

} // namespace

SelectionView::SelectionView(QObject* owner, SelectionState* state, SelectionChanges interest)
    : m_owner(owner)
    , m_state(state)
    , m_interest(interest)
{
    if (m_owner && m_owner->isWidgetType()) {
        m_widget = static_cast<QWidget*>(m_owner);
        new ShowFilter(m_widget, [this] {
            if (m_dirty)
                queueUpdate();
        });
    }
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
    queueUpdate();
}

void SelectionView::queueUpdate()
{
    if (m_queued)
        return;
    m_queued = true;
    // The owner is the context: a view destroyed before the next turn drops the call.
    QMetaObject::invokeMethod(
        m_owner,
        [this] {
            m_queued = false;
            // A hidden view of a window on screen (a background tab, a closed dock) stays out of
            // date; its show event queues the update again. A window not shown at all (headless
            // use, tests) updates as before.
            if (m_widget && !m_widget->isVisible() && m_widget->window()->isVisible())
                return;
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
