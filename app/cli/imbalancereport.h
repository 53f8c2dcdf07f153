// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QByteArray>
#include <QString>

namespace parallax {

/// What `parallax-cli imbalance` lists: the load imbalance of every event's exclusive value of one
/// metric across the threads (docs/SEMANTICS.md 2.1), from the statistics kernel.
struct ImbalanceOptions {
    MetricId metric { 0u };
    /// Sort key: "lost" (max − mean, the time perfect balance saves; the default), "maxmean",
    /// "imbalance" ((max − mean) / max) or "cv".
    QString sort = QStringLiteral("lost");
    int top = 20; ///< rows printed (0: all)
    bool callPaths = false; ///< also list call-path events
};

/// The sort keys `--sort` accepts.
QStringList imbalanceSortKeys();
/// One JSON object: trial, metric, unit, threads, and an "events" array sorted as asked.
QByteArray imbalanceJson(const Trial& trial, const ImbalanceOptions& options);
/// The same as a text table.
QString imbalanceText(const Trial& trial, const ImbalanceOptions& options);

} // namespace parallax
