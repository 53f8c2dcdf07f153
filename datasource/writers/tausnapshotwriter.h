// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QString>

namespace parallax {

/// Writes a trial as TAU snapshot profiles (TAU_PROFILE_FORMAT=snapshot, docs/FORMATS.md 4): one
/// snapshot.N.C.T file per thread, one <profile_xml> fragment per snapshot of the thread's time series
/// (Trial::timeSeries; its final profile alone when it has none), every metric in each fragment.
/// The first fragment defines the thread, its metadata, the metrics and every event and user event the
/// thread's snapshots use; each later fragment holds one <profile>. Reading the result gives the same
/// trial and the same series.
class TauSnapshotWriter {
public:
    /// Returns an empty string on success, else what went wrong (naming the file).
    static QString write(const Trial& trial, const QString& directory);
};

} // namespace parallax
