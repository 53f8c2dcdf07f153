// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/progress.h"

#include <QDateTime>

namespace parallax {

Progress::Progress(Callback callback)
    : m_callback(std::move(callback))
{
}

void Progress::setStage(const QString& stage, qint64 total)
{
    {
        std::lock_guard lock(m_mutex);
        m_stage = stage;
    }
    m_total = total;
    m_done = 0;
    notify(true);
}

void Progress::advance(qint64 steps)
{
    m_done.fetch_add(steps, std::memory_order_relaxed);
    notify(false);
}

QString Progress::stage() const
{
    std::lock_guard lock(m_mutex);
    return m_stage;
}

void Progress::notify(bool force)
{
    if (!m_callback)
        return;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    qint64 last = m_lastNotifyMs.load();
    if (!force && now - last < 50)
        return;
    if (!m_lastNotifyMs.compare_exchange_strong(last, now) && !force)
        return;
    m_callback(stage(), m_done.load(), m_total.load());
}

} // namespace parallax
