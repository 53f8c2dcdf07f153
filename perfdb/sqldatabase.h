// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "perfdb/bulkwriter.h"
#include "perfdb/database.h"
#include "perfdb/idblock.h"
#include "perfdb/sqlrows.h"
#include "perfdb/sqlvalue.h"

#include <functional>
#include <string>
#include <string_view>

namespace parallax::perfdb {

/// The dialect-independent half of a database: schema creation and migration, upload, load and
/// management, written once over a few primitives that SqliteDatabase and PostgresDatabase
/// implement. Every statement uses $1..$n parameters; SQL text never contains user data.
/// The primitives throw DbException; the public methods catch it, roll back and return a DbError.
class SqlDatabase : public Database {
public:
    enum class Dialect { Sqlite, Postgres };
    /// The newest Parallax schema this code writes and reads (parallax_schema_version).
    static constexpr int CurrentSchemaVersion = 4;

    int schemaVersion() const override { return m_schemaVersion; }
    DbResult<qint64> uploadTrial(const Trial& trial, const UploadOptions& options, Progress& progress) override;
    DbResult<std::shared_ptr<Trial>> loadTrial(qint64 id, Progress& progress) override;
    DbResult<std::vector<TrialInfo>> listTrials(const TrialFilter& filter = {}) override;
    DbResult<TrialInfo> trialInfo(qint64 id) override;
    DbResult<Done> renameTrial(qint64 id, const QString& name) override;
    DbResult<Done> deleteTrial(qint64 id) override;
    DbResult<Done> setMetadata(qint64 id, const QString& name, const QString& value) override;
    DbResult<Done> updateMetadata(qint64 id, const std::vector<std::pair<QString, QString>>& changes) override;
    DbResult<std::vector<std::pair<QString, QString>>> trialMetadata(qint64 id) override;
    DbResult<std::vector<View>> views() override;
    DbResult<SemanticModelVersion> saveSemanticModel(
        const QString& name, const QByteArray& json, const QString& comment = {}) override;
    DbResult<std::vector<SemanticModelInfo>> semanticModels() override;
    DbResult<StoredSemanticModel> semanticModel(qint64 id) override;
    DbResult<StoredSemanticModel> semanticModelByName(const QString& name, int version = 0) override;
    DbResult<Done> attachSemanticModel(qint64 trialId, qint64 modelId) override;
    DbResult<Done> detachSemanticModel(qint64 trialId, qint64 modelId) override;
    DbResult<std::vector<StoredSemanticModel>> semanticModelsOfTrial(qint64 trialId) override;
    DbResult<Done> deleteSemanticModel(qint64 id, bool force = false) override;
    DbResult<std::vector<DerivedTrialValues>> derivedValues(const std::vector<qint64>& trials, const QString& metric,
        DerivedColumn column, const std::vector<int>& codes, const QString& metadataKey = {}) override;
    TransferStats lastTransfer() const override { return m_lastTransfer; }

    // Primitives, used by TrialUploader and TrialLoader.
    virtual Dialect dialect() const = 0;
    /// Runs one statement; returns the number of rows it changed.
    virtual qint64 exec(std::string_view sql, const SqlParams& params = {}) = 0;
    virtual std::unique_ptr<SqlRows> query(std::string_view sql, const SqlParams& params = {}) = 0;
    /// Like query() for results too big to hold at once (PostgreSQL: binary COPY TO STDOUT, parsed
    /// as it arrives). Only inside a transaction; every parameter must be non-NULL.
    virtual std::unique_ptr<SqlRows> stream(std::string_view sql, const SqlParams& params = {}) = 0;
    /// A second stream in the same snapshot as the current read transaction, to be read on another
    /// thread while this connection does other work (PostgreSQL: a helper connection importing the
    /// snapshot). nullptr when the backend has none (SQLite: reads are fast enough in sequence).
    virtual std::unique_ptr<SqlRows> parallelStream(std::string_view, const SqlParams& = {}) { return nullptr; }
    /// Runs a script of several statements without parameters (the DDL in perfdb/sql).
    virtual void execScript(const QByteArray& script) = 0;
    /// Starts a transaction: `write` takes the write lock at once (SQLite BEGIN IMMEDIATE).
    virtual void begin(bool write) = 0;
    virtual void commit() = 0;
    /// Rolls back if a transaction is open; never throws.
    virtual void rollback() = 0;
    virtual std::unique_ptr<BulkWriter> bulkInsert(
        std::string_view table, const std::vector<std::string_view>& columns, BulkWriter::Format format)
        = 0;
    /// Reserves `count` new ids of a table's id column inside the current write transaction.
    virtual IdBlock reserveIds(std::string_view table, qint64 count) = 0;
    virtual bool tableExists(std::string_view table) = 0;
    /// The declared type of a column, lower case ("integer", "character varying", "varchar"...),
    /// or empty when the table has no such column: TAUdb's dialects and versions differ.
    virtual QString columnType(std::string_view table, std::string_view column) = 0;
    /// Where one trial's bulk rows of `table` go when their partition key (timer_call_data: id,
    /// timer_value: timer_call_data) lies in [first, last]: on PostgreSQL's partitioned layout a
    /// fresh table without indexes that finishPartitions() indexes and attaches; else `table`.
    virtual std::string partitionFor(std::string_view table, qint64 trial, qint64 first, qint64 last)
    {
        (void)trial;
        (void)first;
        (void)last;
        return std::string(table);
    }
    /// Indexes and attaches the tables partitionFor() made in this transaction.
    virtual void finishPartitions() { }
    /// Drops the partitions that hold only this trial's rows (deleteTrial, before the DELETEs).
    virtual void dropPartitions(qint64 trial) { (void)trial; }

    /// True when the parallax_ side tables exist (always for a Parallax schema; added to a foreign
    /// TAUdb by its first upload).
    bool hasParallaxTables() const { return m_parallaxTables; }
    /// The resource text of one of the perfdb/sql scripts.
    static QByteArray script(const QString& name);

    // Schema pieces, inside a write transaction (creation, migration, upload).
    /// Creates TAUdb's compatibility views (views.sql and interval-event-<dialect>.sql).
    void createCompatibilityViews();
    /// Drops them where they exist.
    void dropCompatibilityViews();
    /// Schema 4 (docs/FORMATS.md 7.2), for the Parallax trials of a database written before it: their
    /// counter_value rows get the sum of squares in standard_deviation (from the old
    /// parallax_counter_value, which is dropped), explicit deviations of algebra results move to
    /// parallax_counter_deviation, the rows of derived threads are deleted, and each trial with an
    /// Application gets the Application/Experiment views. Nothing to do without parallax_counter_value.
    void convertUserEventsForTau();
    /// The taudb_view rows TAU's loader makes for `-a APP -x EXP` (docs/FORMATS.md 7.2): a top-level
    /// view "Application-APP" selecting primary_metadata Application = APP, and under it
    /// "Experiment-EXP" selecting Experiment = EXP; each only when no view of that name exists
    /// there. Nothing without an application.
    void addApplicationViews(const QString& application, const QString& experiment);

protected:
    /// Detects the schema: creates it in an empty database, migrates an older Parallax schema,
    /// refuses a newer one. Throws DbException.
    void initialise();
    /// Serialises schema creation and migration between clients (inside a write transaction).
    virtual void lockSchema() { }
    /// A name for the dialect's DDL files ("sqlite" or "postgresql").
    QString dialectName() const;

private:
    /// Runs `body` in a transaction; commits, or rolls back on DbException and returns its message.
    DbResult<Done> transaction(bool write, const std::function<void()>& body);
    DbError error(const QString& message) const { return DbError { location(), message }; }
    void createSchema();
    void migrate(int fromVersion);
    void ensureParallaxTables();
    bool semanticTablesExist();
    std::vector<TrialInfo> selectTrials(const std::string& where, const SqlParams& params);
    /// The semantic-model rows matching `where` (fixed SQL over the alias m), with their JSON text
    /// when `withJson`.
    std::vector<StoredSemanticModel> selectSemanticModels(
        const std::string& where, const SqlParams& params, bool withJson);
    /// A timestamp column as ISO 8601 UTC text on both dialects.
    std::string isoTimestamp(const std::string& column) const;
    std::string viewCondition(qint64 view, SqlParams& params);

    int m_schemaVersion = 0;
    bool m_parallaxTables = false;
    TransferStats m_lastTransfer;
};

} // namespace parallax::perfdb
