#pragma once

#include "perfdb/sqldatabase.h"

#include <memory>

namespace parallax::perfdb {

/// Rebuilds a Trial from the database inside the caller's read transaction. A trial written by
/// Parallax (it has a parallax_trial row) comes back exactly as uploaded; a foreign TAUdb trial
/// (written by TAU's Java loader: FORMATS.md 7.4) is read with TAUdb's own conventions, e.g.
/// counter_value.standard_deviation holding the sum of squares. Derived threads are skipped.
class TrialLoader {
public:
    TrialLoader(SqlDatabase& db, qint64 id, Progress& progress);

    /// Throws DbException.
    std::shared_ptr<Trial> run();
    qint64 rows() const { return m_rows; }

private:
    void checkCancel() const;

    SqlDatabase& m_db;
    qint64 m_id;
    Progress& m_progress;
    qint64 m_rows = 0;
};

} // namespace parallax::perfdb
