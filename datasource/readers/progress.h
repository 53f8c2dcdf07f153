// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>
#include <atomic>
#include <functional>
#include <mutex>

namespace parallax {

/// Progress of a long job, shared between the worker threads and whoever watches.
/// Workers call advance(); the callback is throttled (at most every ~50 ms) and may be called
/// from any thread. cancel() may be called from any thread; workers poll isCancelled().
class Progress {
public:
    using Callback = std::function<void(const QString& stage, qint64 done, qint64 total)>;

    Progress() = default;
    explicit Progress(Callback callback);

    void setStage(const QString& stage, qint64 total);
    void advance(qint64 steps = 1);
    void cancel() { m_cancelled.store(true); }
    bool isCancelled() const { return m_cancelled.load(std::memory_order_relaxed); }
    qint64 done() const { return m_done.load(); }
    qint64 total() const { return m_total.load(); }
    QString stage() const;

private:
    void notify(bool force);

    Callback m_callback;
    mutable std::mutex m_mutex;
    QString m_stage;
    std::atomic<qint64> m_done { 0 };
    std::atomic<qint64> m_total { 0 };
    std::atomic<qint64> m_lastNotifyMs { 0 };
    std::atomic<bool> m_cancelled { false };
};

} // namespace parallax
