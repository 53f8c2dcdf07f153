// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "perfdb/sqldatabase.h"

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

typedef struct pg_conn PGconn;

namespace parallax::perfdb {

/// The shared backend: PostgreSQL through libpq. Every statement goes through PQexecParams with
/// $n parameters; bulk rows through COPY ... FROM STDIN (text format, or binary for tables of
/// numbers); new ids come from the tables' own sequences, reserved in blocks, so concurrent uploads
/// never collide and none sees another's uncommitted rows. Large reads use binary COPY TO STDOUT.
class PostgresDatabase : public SqlDatabase {
public:
    ~PostgresDatabase() override;

    /// Connects ("postgresql://..." URI or libpq keyword string; the password comes from it,
    /// PGPASSWORD or ~/.pgpass) and creates or checks the schema. Throws DbException.
    static std::unique_ptr<PostgresDatabase> open(const QString& connection);

    QString backend() const override { return QStringLiteral("postgresql"); }
    QString location() const override { return m_location; }

    Dialect dialect() const override { return Dialect::Postgres; }
    qint64 exec(std::string_view sql, const SqlParams& params = {}) override;
    std::unique_ptr<SqlRows> query(std::string_view sql, const SqlParams& params = {}) override;
    std::unique_ptr<SqlRows> stream(std::string_view sql, const SqlParams& params = {}) override;
    std::unique_ptr<SqlRows> parallelStream(std::string_view sql, const SqlParams& params = {}) override;
    void execScript(const QByteArray& script) override;
    void begin(bool write) override;
    void commit() override;
    void rollback() override;
    std::unique_ptr<BulkWriter> bulkInsert(
        std::string_view table, const std::vector<std::string_view>& columns, BulkWriter::Format format) override;
    IdBlock reserveIds(std::string_view table, qint64 count) override;
    bool tableExists(std::string_view table) override;
    QString columnType(std::string_view table, std::string_view column) override;
    std::string partitionFor(std::string_view table, qint64 trial, qint64 first, qint64 last) override;
    void finishPartitions() override;
    void dropPartitions(qint64 trial) override;

    /// The connection string without its password, for messages and Trial provenance.
    static QString withoutPassword(const QString& connection);
    /// The same server with another database name (URI path or dbname keyword replaced).
    static QString withDatabase(const QString& connection, const QString& database);
    /// Administration (tests, `db init` on a fresh server): CREATE or DROP DATABASE through the
    /// server's `connection`. These statements take no parameters, so the name is quoted with
    /// PQescapeIdentifier.
    static DbResult<Done> createDatabase(const QString& connection, const QString& database);
    static DbResult<Done> dropDatabase(const QString& connection, const QString& database);
    /// CREATE SCHEMA in the connection's database; with "options=-csearch_path=NAME" in the
    /// connection string, Parallax then keeps its tables in that schema.
    static DbResult<Done> createSchema(const QString& connection, const QString& schema);
    /// The connection string with search_path set to `schema` (libpq "options").
    static QString withSchema(const QString& connection, const QString& schema);

protected:
    void lockSchema() override;

private:
    PostgresDatabase() = default;
    /// True for Parallax's partitioned timer_call_data and timer_value (schema 2).
    bool isPartitioned(const std::string& table);

    struct PendingPartition {
        std::string parent;
        std::string name;
        std::string key; ///< the partition key column
        std::string from;
        std::string to;
    };

    PGconn* m_conn = nullptr;
    PGconn* m_helper = nullptr; ///< second connection for parallelStream(), opened on first use
    QString m_connection; ///< as given (with any password: kept in memory for the helper only)
    QString m_location;
    std::unordered_map<std::string, std::string> m_sequences; ///< table -> its id sequence
    std::unordered_map<std::string, bool> m_partitioned; ///< table -> partitioned (relkind p)
    std::vector<PendingPartition> m_pendingPartitions; ///< made by partitionFor() in this transaction
    bool m_idLockHeld = false; ///< reserveIds() holds its session-level advisory lock
    std::unordered_map<std::string, std::vector<std::pair<std::string, unsigned int>>> m_columns; ///< name, type oid
};

} // namespace parallax::perfdb
