// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "perfdb/derivedstatistics.h"
#include "perfdb/sqldatabase.h"

#include <QHash>
#include <memory>
#include <vector>

namespace parallax::perfdb {

/// Writes one trial in the order of docs/FORMATS.md 7.4, inside the caller's write transaction: trial,
/// metrics, flat timers, threads, groups and parameters, the call-path tree, call data, derived
/// threads -1...-7, timer values, counters and their values, metadata. Bulk rows go through
/// BulkWriter with ids reserved up front, so no row needs a round trip. Polls the progress for a
/// cancel and honours UploadOptions::failAfterRows; both throw DbException (the caller rolls back).
class TrialUploader {
public:
    TrialUploader(SqlDatabase& db, const Trial& trial, const UploadOptions& options, Progress& progress);

    /// Returns the new trial id. Throws DbException.
    qint64 run();
    qint64 rows() const { return m_rows; }

private:
    struct Node {
        int timer = -1;
        int parent = -1;
    };

    void insertTrial();
    void insertMetrics();
    void insertTimers();
    void insertThreads();
    void insertGroupsAndParameters();
    void insertCallPaths();
    void insertCallData();
    void insertDerivedThreads();
    void insertValues();
    void insertCounters();
    void insertMetadata();

    int timerFor(const QString& name);
    int nodeFor(int parent, int timer);
    void stage(const QString& name, qint64 total);
    /// Counts one written row: fails after UploadOptions::failAfterRows, polls for a cancel.
    void countRow();
    void endRow(BulkWriter& writer);

    SqlDatabase& m_db;
    const Trial& m_trial;
    const UploadOptions& m_options;
    Progress& m_progress;
    qint64 m_rows = 0;
    qint64 m_stageRows = 0;
    qint64 m_trialId = 0;

    std::vector<qint64> m_metricIds; ///< per MetricId
    std::vector<qint64> m_threadIds; ///< per ThreadIndex
    std::vector<qint64> m_derivedThreadIds; ///< per DerivedStatistics::Codes position
    QStringList m_timerNames;
    QHash<QString, int> m_timerIndex;
    std::vector<bool> m_timerIsEvent; ///< false for timers made for a missing call-path component
    std::vector<qint64> m_timerIds;
    std::vector<Node> m_nodes;
    QHash<quint64, int> m_nodeIndex;
    std::vector<qint64> m_nodeIds;
    std::vector<int> m_eventNode; ///< per EventId
    IdBlock m_callDataIds; ///< real-thread cells, thread by thread, in row order
    std::string m_callDataTable; ///< timer_call_data, or this trial's partition of it
    std::string m_valueTable; ///< timer_value, or this trial's partition of it
    IdBlock m_derivedCallDataIds; ///< derived cells, code by code, present events in id order
    std::unique_ptr<DerivedStatistics> m_statistics;
    std::vector<qint64> m_counterIds; ///< per AtomicEventId
};

} // namespace parallax::perfdb
