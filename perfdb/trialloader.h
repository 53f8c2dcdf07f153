// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/sourcelocation.h"
#include "perfdb/idmap.h"
#include "perfdb/sqldatabase.h"

#include <QHash>
#include <memory>
#include <vector>

namespace parallax {
class TrialBuilder;
}

namespace parallax::perfdb {

/// Rebuilds a Trial from the database inside the caller's read transaction. A trial written by
/// Parallax (it has a parallax_trial row) comes back exactly as uploaded; a foreign TAUdb trial
/// (written by TAU's Java loader: docs/FORMATS.md 7.4) is read with TAUdb's own conventions, e.g.
/// counter_value.standard_deviation holding the sum of squares. Derived threads are skipped.
class TrialLoader {
public:
    TrialLoader(SqlDatabase& db, qint64 id, Progress& progress);
    ~TrialLoader();

    /// Throws DbException.
    std::shared_ptr<Trial> run();
    qint64 rows() const { return m_rows; }

private:
    struct Node {
        qint64 id = 0;
        qint64 timer = 0;
        qint64 parent = -1;
        QString name;
        EventId event;
    };

    void loadTrial();
    void loadMetrics();
    void loadThreads();
    void loadEvents();
    /// Gives each event the source location of its node's timer row (m_timerLocations).
    void setSourceLocations();
    const QString& nodeName(std::size_t node, int depth = 0);
    void loadCells();
    /// The timer_value rows of the cells firstCell..lastCell (and maybe others, which the caller skips).
    std::unique_ptr<SqlRows> valueRows(qint64 firstCell, qint64 lastCell);
    void loadUserEvents();
    void loadMetadata();
    void stage(const QString& name);
    /// A value column: NULL reads as m_nullValue.
    double value(const SqlRows& rows, int column) const;
    /// Counts a read row; every so often reports progress and polls for a cancel.
    void countRow();

    SqlDatabase& m_db;
    qint64 m_id;
    Progress& m_progress;
    qint64 m_rows = 0;
    std::unique_ptr<TrialBuilder> m_builder;

    bool m_ours = false; ///< written by Parallax (a parallax_trial row)
    bool m_cellRange = false; ///< m_firstCell..m_lastCell hold the real-thread call data ids
    qint64 m_firstCell = 0;
    qint64 m_lastCell = 0;
    QStringList m_metadataKeys;
    QStringList m_hiddenKeys;
    double m_nullValue = 0; ///< what a NULL value reads as

    IdMap m_metricIndex;
    std::size_t m_metrics = 0;
    IdMap m_threadIndex;
    std::size_t m_threads = 0;
    qint64 m_firstThread = 0;
    qint64 m_lastThread = -1;
    QHash<qint64, QString> m_timerNames;
    /// Timers whose row holds a source location that their name does not carry.
    QHash<qint64, SourceLocation> m_timerLocations;
    std::vector<Node> m_nodes;
    QHash<qint64, std::size_t> m_nodeIndex;
};

} // namespace parallax::perfdb
