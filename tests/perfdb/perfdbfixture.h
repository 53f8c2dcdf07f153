// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The shared fixture of the experiment-database tests (tests/perfdb/tst_perfdb_*.cpp): a fresh
// database per test on both backends (a "sqlite" row = a temporary file, a "postgresql" row = a
// schema in a database on the server PARALLAX_TEST_PG_URI names; ./test.sh starts one, and the
// PostgreSQL rows fail, never skip, without it), an exact comparison of two trials, and the odd
// trial and semantic model several tests store.
#pragma once

#include "algebra/semanticprofile.h"
#include "perfdb/database.h"
#include "perfdb/sqldatabase.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace parallax::test {

/// The error of a result, or nothing (QVERIFY2 evaluates its message even when the check passes).
template <typename T> QByteArray why(const perfdb::DbResult<T>& result)
{
    return result.ok() ? QByteArray() : result.error().toString().toUtf8();
}

inline const char* const NoServer = "PARALLAX_TEST_PG_URI is not set: run ./test.sh, which starts a PostgreSQL server";

/// Eight random hex digits, for names on the shared test server that no other run uses.
QString randomTag();

/// Turns a fresh Parallax database into a plain TAUdb, as TAU's own tools create one: TAUdb's
/// tables (unpartitioned on PostgreSQL), static rows and views, and nothing of Parallax.
/// Returns what went wrong, or an empty string.
QString makePlainTaudb(perfdb::SqlDatabase& db);

/// A synthetic trial of a few thousand cells (64 threads, 60 events and their call paths, 2 metrics, 4
/// user events): its upload writes about 2 MB to the database. Seeds give different values.
std::shared_ptr<Trial> mediumTrial(std::uint64_t seed = 18);

/// Everything a trial holds, compared exactly; returns the first difference or an empty string.
QString modelDifference(const Trial& a, const Trial& b);

/// Stores a trial and loads it back on the same connection; returns what went wrong (the upload,
/// the load or the first difference, see modelDifference) or an empty string. The new id in `id`.
QString roundTripDifference(
    perfdb::Database& db, const Trial& trial, const perfdb::UploadOptions& options = {}, qint64* id = nullptr);

/// The first column of the first row of a query, as an integer; -1 when there is no row.
qint64 scalar(perfdb::SqlDatabase& db, const std::string& sql, const perfdb::SqlParams& params = {});

/// Strings that break naive SQL, COPY text format or encodings.
extern const QStringList OddStrings;

/// A multi-metric trial with odd names everywhere and the awkward cases of the model: a present
/// cell with 0 calls, fractional calls, extreme doubles, SumExclSqr on one thread only, a call
/// path whose prefix and middle component are not events, per-thread and trial-wide metadata.
std::shared_ptr<Trial> oddTrial();

/// A small semantic model over tau2/tau-profiles-wrap-params (docs/SEMANTICS.md 5.6): the parameterised
/// dgemm timers by size under "BLAS calls", the MPI group as one entity. `extra` adds version 2's
/// association for foo().
QByteArray wrapModel(bool extra);

/// Parses a stored model and attributes a trial with it; null (and a warning) on any error.
semantic::ProfilePtr attributeStored(const QByteArray& json, const TrialPtr& trial);

/// The databases of one test executable: a test class derives from this (its initTestCase() and
/// cleanupTestCase() are the fixture's).
class PerfdbFixture : public QObject {
    Q_OBJECT

protected:
    /// A new empty database for one test: a temporary SQLite file, or a new schema on the server
    /// (empty when the server is not set or refuses).
    QString freshLocation(const QString& backend);
    /// The data of a test that runs on both backends: a column "backend" and a row for each; with
    /// `column`, a second column of that name and a row for every backend and value.
    static void backends(const char* column = nullptr, const std::vector<const char*>& values = {});
    /// The row count of every TAUdb and Parallax table the database has.
    static std::map<QString, qint64> tableCounts(perfdb::SqlDatabase& db);

    QString m_pgServer;

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

private:
    QString m_pgPrefix;
    QStringList m_pgDatabases;
    QTemporaryDir m_temp;
    int m_count = 0;
};

} // namespace parallax::test

// The macros' arguments name the variables they declare, so they cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)

/// In a test of a PerfdbFixture with a "backend" column: `location`, a fresh database there opened
/// as `db` (a perfdb::Database&) and `sql_db` (the same as a perfdb::SqlDatabase&).
#define OPEN_FRESH(db)                                                                                                 \
    QFETCH(QString, backend);                                                                                          \
    const QString location = freshLocation(backend);                                                                   \
    QVERIFY2(!location.isEmpty(), NoServer);                                                                           \
    auto opened_##db = perfdb::Database::open(location);                                                               \
    QVERIFY2(opened_##db.ok(), why(opened_##db).constData());                                                          \
    perfdb::Database& db = *opened_##db.value();                                                                       \
    perfdb::SqlDatabase& sql_##db = dynamic_cast<perfdb::SqlDatabase&>(db);                                            \
    (void)sql_##db

/// OPEN_FRESH, then that database made a plain TAUdb (makePlainTaudb) and opened again as
/// `foreign` (a perfdb::SqlDatabase& of schema version 0, as a TAUdb TAU's tools made).
#define OPEN_FRESH_TAUDB(foreign)                                                                                      \
    OPEN_FRESH(fresh_##foreign);                                                                                       \
    QCOMPARE(makePlainTaudb(sql_fresh_##foreign), QString());                                                          \
    auto reopened_##foreign = perfdb::Database::open(location);                                                        \
    QVERIFY2(reopened_##foreign.ok(), why(reopened_##foreign).constData());                                            \
    auto& foreign = dynamic_cast<perfdb::SqlDatabase&>(*reopened_##foreign.value());                                   \
    QCOMPARE(foreign.schemaVersion(), 0)

// NOLINTEND(bugprone-macro-parentheses)
