// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QScopeGuard>
#include <QThread>
#include <QThreadPool>
#include <utility>

namespace parallax {

/// Runs `wait` (a QtConcurrent::blockingMap, or anything else that sleeps until work on Qt's global
/// pool is done) so that it cannot deadlock when the calling thread is itself a pool thread (a
/// reader or the algebra run inside a QtConcurrent job): while it waits, the calling thread gives
/// its place in the pool back (QThreadPool::releaseThread, as Qt's documentation advises for a pool
/// thread that goes to sleep) and takes it again after. Without this, maxThreadCount() jobs each
/// waiting for a map would leave no thread to run the maps. The sleeping thread uses no core, so
/// the pool still runs at most maxThreadCount() busy threads.
template <typename Wait> void waitInPool(Wait&& wait)
{
    QThreadPool* pool = QThreadPool::globalInstance();
    const bool pooled = pool->contains(QThread::currentThread());
    if (pooled)
        pool->releaseThread();
    const auto retake = qScopeGuard([&] {
        if (pooled)
            pool->reserveThread();
    });
    std::forward<Wait>(wait)();
}

} // namespace parallax
