// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "perfdb/sqldatabase.h"

#include <string>
#include <unordered_map>

struct sqlite3;
struct sqlite3_stmt;

namespace parallax::perfdb {

/// The embedded backend: one SQLite file through the sqlite3 C API, WAL journal (a GUI and a CLI
/// can share the file), 10 s busy timeout, foreign keys on, prepared statements cached. Ids of new
/// rows are handed out by the uploader under the write lock (BEGIN IMMEDIATE), so bulk rows need
/// no last_insert_rowid() round trip.
class SqliteDatabase : public SqlDatabase {
public:
    ~SqliteDatabase() override;

    /// Opens or creates the file (and its folder) and the schema. Throws DbException.
    static std::unique_ptr<SqliteDatabase> open(const QString& path);

    QString backend() const override { return QStringLiteral("sqlite"); }
    QString location() const override { return m_path; }

    Dialect dialect() const override { return Dialect::Sqlite; }
    qint64 exec(std::string_view sql, const SqlParams& params = {}) override;
    std::unique_ptr<SqlRows> query(std::string_view sql, const SqlParams& params = {}) override;
    std::unique_ptr<SqlRows> stream(std::string_view sql, const SqlParams& params = {}) override;
    void execScript(const QByteArray& script) override;
    void begin(bool write) override;
    void commit() override;
    void rollback() override;
    std::unique_ptr<BulkWriter> bulkInsert(
        std::string_view table, const std::vector<std::string_view>& columns, BulkWriter::Format format) override;
    IdBlock reserveIds(std::string_view table, qint64 count) override;
    bool tableExists(std::string_view table) override;
    QString columnType(std::string_view table, std::string_view column) override;

    /// The message of the connection's last error.
    QString lastError() const;
    /// A prepared statement, from the cache when it is not in use; `owned` says the caller must
    /// finalize it (it was busy in the cache).
    sqlite3_stmt* prepare(std::string_view sql, bool& owned);
    void bind(sqlite3_stmt* statement, const SqlParams& params);

private:
    explicit SqliteDatabase(const QString& path);
    /// sqlite3_open_v2 of `file` (a path, or a file: URI with SQLITE_OPEN_URI) into m_db. Throws DbException.
    void connect(const QByteArray& file, int flags);

    QString m_path;
    sqlite3* m_db = nullptr;
    std::unordered_map<std::string, sqlite3_stmt*> m_statements;
    std::unordered_map<std::string, qint64> m_nextIds; ///< per table, inside the current transaction
    bool m_inTransaction = false;
    bool m_readOnly = false; ///< SQLite opened the file read-only (the user may not write it)
};

} // namespace parallax::perfdb
