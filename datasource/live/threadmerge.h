// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QString>
#include <memory>
#include <vector>

namespace parallax {

/// How one trial's ids map onto another's (a trial being built from it).
struct TrialIdMap {
    std::vector<EventId> events; ///< source event -> event
    std::vector<AtomicEventId> atomics; ///< source user event -> user event
    std::vector<std::ptrdiff_t> metrics; ///< metric -> the source's metric column, or -1 (values 0)
};

/// `row` (a source row with `sourceMetrics` metric columns) in the ids of `map`; unsorted.
IntervalRow remapRow(const RowView& row, const TrialIdMap& map, std::size_t sourceMetrics);
AtomicRow remapAtomics(const AtomicRow& row, const TrialIdMap& map);

/// The threads of several trials of one source joined into one trial named `name` (issue 19 §2: the
/// live directory reads each changed profile.N.C.T or snapshot.N.C.T file on its own, then joins them).
/// It is the trial the reader builds from all the files at once, given `parts` in file order
/// (TauReader::readFile, SnapshotReader::readFile): metrics, events (with their groups and raw names)
/// and user events unified by name, ids in order of first appearance part by part (the readers' rule:
/// first appearance scanning the files in thread order); threads sorted by key; each thread's
/// metadata as the part gives it, the trial-wide keys chosen again over all threads (a key a part
/// keeps per thread, such as one with a timer context, stays per thread); time series for every
/// thread when some thread has more than one snapshot, else none; provided statistics (the last of
/// a name kept); the parts' warnings, each once, those that differ only in a leading count summed
/// ("2 duplicate user event records were merged ..."; others, with per-file examples, stay one per
/// file). A thread in two parts is an error (`error` says
/// which, the result is null).
std::shared_ptr<Trial> mergeThreads(
    const QString& name, const Provenance& provenance, const std::vector<const Trial*>& parts, QString* error);

} // namespace parallax
