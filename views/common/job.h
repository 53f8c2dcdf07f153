// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QString>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace parallax {

/// The thread pool the views' background work runs on (Job, runInBackground, releaseInBackground):
/// one thread per core, apart from Qt's global pool. Qt 6.4's raster paint engine splits big
/// drawing and image scaling into tasks on the global pool and waits for them on the GUI thread, so
/// a layout of 131,072 threads computing there made every paint meanwhile wait for a free thread:
/// the 200 ms "sort" stall of issue 18 §4, with 3 ms of GUI-thread CPU in it. The work's own
/// parallelFor and QtConcurrent maps still use the global pool (only idle threads of it: see
/// algebra/parallelfor.h), so a paint finds a thread there.
inline QThreadPool* viewWorkPool()
{
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool; // never deleted: workers may still run at exit
        p->setMaxThreadCount(std::max(1, QThread::idealThreadCount()));
        return p;
    }();
    return pool;
}

/// A background computation whose result a view shows (KDAB hotspot's JobTracker, for
/// QtConcurrent): start() runs `work` on viewWorkPool() and delivers its result to
/// `done` on the GUI thread (the owner's thread). Starting again supersedes the running run: it
/// is asked to cancel (the flag `work` receives) and its result is dropped, as is the result of a
/// run cancel() stopped or that outlives its owner.
///
///     Job<std::shared_ptr<const Layout>> m_job { this };
///     m_job.start([request](const std::atomic_bool& cancel) { return build(request, &cancel); },
///                 [this](std::shared_ptr<const Layout> layout) { apply(std::move(layout)); });
///
/// The work must own copies of everything it reads (it may outlive the request's sources).
template <typename T> class Job {
public:
    using Cancel = std::atomic_bool;

    explicit Job(QObject* owner)
        : m_watcher(new QFutureWatcher<T>(owner))
    {
        QObject::connect(m_watcher, &QFutureWatcherBase::finished, m_watcher, [this] { deliver(); });
    }
    ~Job()
    {
        cancel();
        QObject::disconnect(m_watcher, nullptr, nullptr, nullptr);
    }
    Job(const Job&) = delete;
    Job& operator=(const Job&) = delete;

    /// Runs `work(const std::atomic_bool& cancel) -> T` in the background, then `done(T)` on the
    /// owner's thread unless superseded or cancelled first. Returns the run's generation.
    template <typename Work> std::uint64_t start(Work work, std::function<void(T)> done)
    {
        auto flag = begin(std::move(done));
        m_watcher->setFuture(QtConcurrent::run(viewWorkPool(), [work = std::move(work), flag] { return work(*flag); }));
        return ++m_generation;
    }

    /// Reports a run's progress: a step in [0, maximum] and a text, which arrive on the GUI thread
    /// (followProgress()).
    using Progress = std::function<void(int step, const QString& text)>;

    /// Like start(), for `work(const std::atomic_bool& cancel, const Progress& progress) -> T`
    /// that reports its steps (a progress bar follows them through followProgress()).
    template <typename Work> std::uint64_t startWithProgress(int maximum, Work work, std::function<void(T)> done)
    {
        auto flag = begin(std::move(done));
        m_watcher->setFuture(
            QtConcurrent::run(viewWorkPool(), [work = std::move(work), flag, maximum](QPromise<T>& promise) {
                promise.setProgressRange(0, maximum);
                const Progress progress
                    = [&promise](int step, const QString& text) { promise.setProgressValueAndText(step, text); };
                promise.addResult(work(*flag, progress));
            }));
        return ++m_generation;
    }

    /// Asks the running computation to stop and drops its result.
    void cancel()
    {
        if (m_cancel)
            m_cancel->store(true);
        m_cancel.reset();
        m_running = false;
        m_done = nullptr;
    }

    /// Asks the running computation to stop, drops its result and blocks until it has ended (an
    /// owner's destructor: nothing runs on after it).
    void cancelAndWait()
    {
        cancel();
        m_watcher->waitForFinished();
    }

    /// Calls `value(int step)` and `text(const QString&)` on `context`'s thread as the runs started
    /// with startWithProgress() report progress.
    template <typename ValueSlot, typename TextSlot>
    void followProgress(QObject* context, ValueSlot value, TextSlot text)
    {
        QObject::connect(m_watcher, &QFutureWatcherBase::progressValueChanged, context, std::move(value));
        QObject::connect(m_watcher, &QFutureWatcherBase::progressTextChanged, context, std::move(text));
    }

    /// Whether a run's result is still to come.
    bool isRunning() const { return m_running; }
    /// Counts start() calls: the generation of the newest run.
    std::uint64_t generation() const { return m_generation; }
    /// Blocks until the running computation ends and delivers its result now (headless rendering
    /// without an event loop).
    void waitAndDeliver()
    {
        if (!m_running)
            return;
        m_watcher->waitForFinished();
        deliver();
    }
    /// The watcher of the current run, for progress signals (progressValueChanged, ...).
    QFutureWatcherBase* watcher() const { return m_watcher; }

private:
    /// Supersedes the running computation; returns the new run's cancel flag.
    std::shared_ptr<Cancel> begin(std::function<void(T)> done)
    {
        cancel();
        auto flag = std::make_shared<Cancel>(false);
        m_cancel = flag;
        m_done = std::move(done);
        m_running = true;
        // setFuture() then forgets the previous future: its finished signal no longer arrives.
        return flag;
    }

    void deliver()
    {
        if (!m_running)
            return;
        m_running = false;
        m_cancel.reset();
        auto done = std::move(m_done);
        m_done = nullptr;
        if (done)
            done(m_watcher->result());
    }

    QFutureWatcher<T>* m_watcher;
    std::shared_ptr<Cancel> m_cancel;
    std::function<void(T)> m_done;
    std::uint64_t m_generation = 0;
    bool m_running = false;
};

/// A background computation whose every result counts (a database request, a file read): runs
/// `work() -> T` on viewWorkPool() and calls `done(T)` on `context`'s thread when it ends,
/// unless `context` is gone by then. Unlike Job<T>, runs started one after the other all deliver.
/// Returns the run's future, for an owner that must wait for its runs before it goes.
template <typename Work, typename Done> auto runInBackground(QObject* context, Work work, Done done)
{
    using T = std::invoke_result_t<Work>;
    auto* watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, done = std::move(done)]() mutable {
        watcher->deleteLater();
        done(watcher->result());
    });
    QFuture<T> future = QtConcurrent::run(viewWorkPool(), std::move(work));
    watcher->setFuture(future);
    return future;
}

/// Drops a reference on a worker of viewWorkPool() instead of here: when it is the last,
/// the object is freed there. The last reference to a big result (an overview layout or its bars
/// of 131,072 threads: ~10⁵ allocations) would otherwise free on the GUI thread, a pause of
/// 100 ms and more when a new layout replaces it (issue 18 §4).
///
///     releaseInBackground(std::exchange(m_layout, std::move(layout)));
template <typename T> void releaseInBackground(std::shared_ptr<T> reference)
{
    if (reference)
        viewWorkPool()->start([reference = std::move(reference)]() mutable { reference.reset(); });
}

} // namespace parallax
