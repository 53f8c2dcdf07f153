// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QString>
#include <QStringList>
#include <memory>

namespace parallax {

/// The name and time (µs since the epoch, 0: unknown) of one snapshot.
struct SnapshotStamp {
    QString name;
    qint64 timestamp = 0;
};

/// A run's newer profile appended to the older one as its next snapshot (docs/SEMANTICS.md 1.11):
/// the trial of `latest` (its definitions, rows, metadata and warnings) whose every thread's time
/// series is `previous`'s series, or `previous`'s profile as one snapshot stamped `previousStamp`,
/// followed by `latest`'s profile stamped `latestStamp` ("update N" when its name is empty).
/// Events, user events and metrics are matched by name (an event only `previous` has keeps its
/// place); a thread only `latest` has starts with empty snapshots so the indexes stay aligned.
/// Meant for cumulative profiles of one run (TAU's dumps): the live directory's updates and a set
/// of trials ordered by a metadata time key. `provenanceOptions` are added to latest's provenance.
std::shared_ptr<const Trial> appendSnapshot(const Trial& previous, const Trial& latest,
    const SnapshotStamp& previousStamp, const SnapshotStamp& latestStamp, const QStringList& provenanceOptions);

} // namespace parallax
