// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// Shared by the Caliper fuzz targets: the model's invariants for a trial that read.
#include "datasource/model/trial.h"

#include <QDir>
#include <QFileInfo>
#include <QString>
#include <cmath>
#include <cstdlib>

namespace parallax::fuzz {

/// tmpfs when there is one: rewriting a file thousands of times a second on ext4 is slow.
inline QString scratchBase()
{
    return QFileInfo(QStringLiteral("/dev/shm")).isWritable() ? QStringLiteral("/dev/shm") : QDir::tempPath();
}

inline void checkTrial(const Trial& t)
{
    const std::size_t metrics = t.metricCount();
    for (std::size_t i = 0; i < t.threadCount(); ++i) {
        const IntervalRow& row = t.row(ThreadIndex(i));
        const std::size_t n = row.size();
        if (row.calls.size() != n || row.subrs.size() != n || row.excl.size() != n * metrics
            || row.incl.size() != n * metrics)
            std::abort();
        for (std::size_t k = 1; k < n; ++k)
            if (!(row.events[k - 1] < row.events[k]))
                std::abort(); // sorted, no duplicate cells
        for (std::size_t k = 0; k < n; ++k)
            if (row.events[k].index() >= t.eventCount())
                std::abort();
        const ThreadKey& key = t.threadKey(ThreadIndex(i));
        if (key.node < 0 || key.context < 0 || key.thread < 0)
            std::abort();
    }
    for (const auto& e : t.events())
        if (e.isCallPath() && !e.parent.isValid())
            std::abort(); // every call path's prefix is an event too
    for (const auto& s : t.providedStatistics()) {
        const std::size_t n = s.row.size();
        if (s.row.excl.size() != n * metrics || s.row.incl.size() != n * metrics)
            std::abort();
        for (std::size_t k = 0; k < n; ++k)
            if (s.row.events[k].index() >= t.eventCount())
                std::abort();
    }
}

} // namespace parallax::fuzz
