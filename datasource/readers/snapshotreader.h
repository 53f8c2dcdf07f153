// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// TAU snapshot and merged XML profiles (docs/FORMATS.md 4): a directory of snapshot.N.C.T files
/// (TAU_PROFILE_FORMAT=snapshot, parsed in parallel) or one tauprofile.xml[.gz] (merged). Each
/// input is a concatenation of <profile_xml> fragments; it is streamed through QXmlStreamReader
/// (inflated in chunks when gzip), never held whole.
///
/// - The last snapshot of a thread is its profile; when a thread has several, all of them are
///   kept as Trial::timeSeries().
/// - The derived blocks of merged files (total, mean, stddev, min, max) are kept as they are in
///   Trial::providedStatistics(), not recomputed.
/// - Definitions are scoped by thread ("*" for all threads) and accumulate across fragments.
///   Names are canonical (docs/FORMATS.md 1.4); events or user events defined twice under one name
///   are merged (their records summed or pooled, with a warning).
/// - Errors name the file, the line and the byte offset (in the uncompressed stream for gzip).
class SnapshotReader : public Reader {
public:
    SnapshotReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
    /// One snapshot.N.C.T file read on its own (the trial named after its directory), every thread
    /// keeping its snapshots as its time series even when it has one: the live directory re-reads
    /// only the files that changed and joins the threads (datasource/live/threadmerge.h).
    TrialResult readFile(const QString& file, const ReadOptions& options, Progress& progress) const;

    /// True for "snapshot.N.C.T" with non-negative integers; fills the key.
    static bool parseSnapshotFileName(const QString& fileName, ThreadKey& key);
    /// ParaProf's derived-thread id for a derived entity name of merged XML (docs/FORMATS.md 4.3):
    /// total -2, mean_no_null -1, stddev_no_null -3, min_no_null -4, max_no_null -5, mean_all -6,
    /// stddev_all -7; 0 for any other name.
    static int derivedThreadId(const QString& entity);
};

} // namespace parallax
