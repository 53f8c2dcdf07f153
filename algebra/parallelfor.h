// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QThreadPool>
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>

namespace parallax {

/// The number of workers parallelFor may use for `count` indices in blocks of `block`: `workers`
/// when positive, else the size of Qt's global thread pool (one per core unless the application
/// changed it), never more than the number of blocks.
inline std::size_t parallelWorkers(std::size_t count, std::size_t block, int workers)
{
    block = std::max<std::size_t>(1, block);
    const std::size_t blocks = (count + block - 1) / block;
    const std::size_t n = workers > 0
        ? static_cast<std::size_t>(workers)
        : static_cast<std::size_t>(std::max(1, QThreadPool::globalInstance()->maxThreadCount()));
    return std::max<std::size_t>(1, std::min(n, blocks));
}

/// Runs body(begin, end, worker) over [0, count) in blocks of `block` indices, on the calling thread
/// and on up to parallelWorkers(...) - 1 helpers from QThreadPool::globalInstance(). Blocks are
/// handed out dynamically, so uneven rows balance.
///
/// The helpers share the pool with QtConcurrent: a helper is started only with QThreadPool::tryStart,
/// i.e. only when the pool has an idle thread (or may make one below maxThreadCount), so a
/// parallelFor inside a QtConcurrent job (or inside another parallelFor) never oversubscribes the
/// machine, and it never waits for a task still queued behind busy threads: the calling thread takes
/// every block no helper took, and waits only for helpers that are already running. With no idle
/// thread it simply runs everything itself.
///
/// Worker indices are 0 (the calling thread) ..parallelWorkers(...)-1, so callers may keep per-worker
/// scratch in a vector of that size; some indices may go unused. Returns parallelWorkers(...).
/// The first exception thrown by the body is rethrown on the calling thread once every helper stopped.
template <typename Body> std::size_t parallelFor(std::size_t count, std::size_t block, int workers, Body&& body)
{
    block = std::max<std::size_t>(1, block);
    const std::size_t blocks = (count + block - 1) / block;
    const std::size_t n = parallelWorkers(count, block, workers);
    if (blocks == 0)
        return n;

    struct Shared {
        std::atomic<std::size_t> next { 0 };
        std::atomic<bool> failed { false };
        std::exception_ptr failure;
        std::mutex mutex;
        std::condition_variable done;
        std::size_t running = 0; ///< helpers started and not finished (guarded by mutex)
    } shared;

    auto run = [&](std::size_t worker) {
        try {
            for (std::size_t b = shared.next++; b < blocks && !shared.failed; b = shared.next++)
                body(b * block, std::min(count, (b + 1) * block), worker);
        } catch (...) {
            if (!shared.failed.exchange(true))
                shared.failure = std::current_exception();
        }
    };

    QThreadPool* pool = QThreadPool::globalInstance();
    for (std::size_t w = 1; w < n && shared.next.load() < blocks; ++w) {
        {
            const std::lock_guard lock(shared.mutex);
            ++shared.running;
        }
        const bool started = pool->tryStart([&shared, &run, w] {
            run(w);
            const std::lock_guard lock(shared.mutex);
            if (--shared.running == 0)
                shared.done.notify_all();
        });
        if (!started) {
            const std::lock_guard lock(shared.mutex);
            --shared.running;
            break; // no idle thread: the calling thread does the rest
        }
    }
    run(0);
    {
        std::unique_lock lock(shared.mutex);
        shared.done.wait(lock, [&] { return shared.running == 0; });
    }
    if (shared.failure)
        std::rethrow_exception(shared.failure);
    return n;
}

} // namespace parallax
