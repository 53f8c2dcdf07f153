// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"
#include "datasource/readers/progress.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

namespace parallax::perfdb {

/// What went wrong with a database operation: where (the database location) and what.
struct DbError {
    QString location;
    QString message;
    QString toString() const { return location.isEmpty() ? message : location + QStringLiteral(": ") + message; }
};

/// A value or a DbError.
template <typename T> class DbResult {
public:
    DbResult(T value)
        : m_data(std::move(value))
    {
    }
    DbResult(DbError error)
        : m_data(std::move(error))
    {
    }
    bool ok() const { return std::holds_alternative<T>(m_data); }
    explicit operator bool() const { return ok(); }
    const T& value() const { return std::get<T>(m_data); }
    T& value() { return std::get<T>(m_data); }
    const DbError& error() const { return std::get<DbError>(m_data); }

private:
    std::variant<T, DbError> m_data;
};

struct Done { };

/// One trial as the database lists it.
struct TrialInfo {
    qint64 id = 0;
    QString name;
    QString application; ///< primary_metadata "Application" (empty when not set)
    QString experiment; ///< primary_metadata "Experiment"
    qint64 threads = 0; ///< total_threads
    qint64 nodes = 0;
    QStringList metrics;
    QString dataSource; ///< data_source name ("TAU profiles", ...)
    QString uploaded; ///< primary_metadata "Parallax Upload Time" (ISO 8601 UTC), empty for foreign trials
};

/// A TAUdb view (saved metadata filter), a tree through `parent`.
struct View {
    qint64 id = 0;
    qint64 parent = 0; ///< 0 for a top-level view
    QString name;
    QString conjoin; ///< "and" or "or"
};

/// Which trials `listTrials` returns; empty fields match everything. Metadata conditions are exact
/// matches on primary_metadata (name = value), all of which must hold.
struct TrialFilter {
    QString application;
    QString experiment;
    QString nameContains;
    std::vector<std::pair<QString, QString>> metadata;
    qint64 view = 0; ///< a taudb_view id: only trials its parameters select
};

struct UploadOptions {
    QString application; ///< stored as primary_metadata "Application"
    QString experiment; ///< stored as primary_metadata "Experiment"
    QString name; ///< trial name; empty uses the trial's own name
    /// Testing only: fail (and roll back) after this many inserted rows; 0 = never.
    qint64 failAfterRows = 0;
};

/// One stored version of a SEAA semantic model (docs/SEMANTICS.md 5.6). The database keeps the model
/// file's JSON text as it was saved; the application parses and validates it (perfdb stores text).
struct SemanticModelInfo {
    qint64 id = 0;
    QString name;
    int version = 0; ///< 1, 2, ... per name; a version never changes
    QString created; ///< ISO 8601 UTC ("2026-11-22T10:15:00Z")
    QString comment;
    qint64 attachedTrials = 0; ///< how many trials it is attached to
    QString attached; ///< semanticModelsOfTrial only: when it was attached (ISO 8601 UTC)
};

/// A stored model with its JSON text.
struct StoredSemanticModel {
    SemanticModelInfo info;
    QByteArray json;
};

/// What saveSemanticModel stored: the row id and the version it got.
struct SemanticModelVersion {
    qint64 id = 0;
    int version = 0;
};

/// Figures of the last upload or load, for progress reports and benchmarks.
struct TransferStats {
    qint64 rows = 0;
    double seconds = 0;
};

/// The column of derived rows derivedValues reads: timer_value's exclusive or inclusive value of the
/// metric, or timer_call_data's calls.
enum class DerivedColumn { Exclusive, Inclusive, Calls };

/// One trial's stored derived rows (TAUdb's derived threads -1...-7, docs/FORMATS.md 2.1) of one
/// metric and column, per interval event: what a history over many trials needs without loading
/// them (docs/SEMANTICS.md §9).
struct DerivedTrialValues {
    qint64 trial = 0;
    QString name; ///< the trial's name
    /// Written by Parallax (a parallax_trial row): its derived rows are DerivedStatistics' values
    /// exactly. A foreign trial's rows are what TAU's loader computed; use them with care.
    bool parallax = false;
    QStringList metrics; ///< the trial's metric names in order (loadTrial's order)
    bool hasMetric = false; ///< the trial has the requested metric
    bool higherIsBetter = false; ///< parallax_metric says so
    /// The trial-wide metadata value of the requested key as loadTrial's trial would give it
    /// (primary_metadata other than the upload's own keys, else secondary_metadata without a
    /// thread); empty when there is none.
    QString metadataValue;
    /// Every interval event, named as loadTrial names it (call paths joined with " => "), in the
    /// trial's order (each name once).
    QStringList events;
    /// values[k][e]: the row of derived thread codes[k] for event e; NaN where there is none (the
    /// event never ran, or the trial lacks the metric).
    std::vector<std::vector<double>> values;
};

/// The experiment database: TAUdb's schema (docs/FORMATS.md 7) on SQLite (embedded, the default) or
/// PostgreSQL (shared). One Database object is one connection and belongs to the thread that
/// opened it; open another one on another thread. Every statement is parameterised.
class Database {
public:
    virtual ~Database() = default;

    /// Opens (and for SQLite creates) a database:
    /// - "postgresql://user@host:port/db", "postgres://...", or a libpq keyword string
    ///   ("host=/tmp port=5432 dbname=x") -> PostgreSQL (password from the URI, PGPASSWORD or
    ///   ~/.pgpass; Parallax never stores one);
    /// - anything else is an SQLite file path ("sqlite:" prefix optional); an empty string is the
    ///   default database (defaultDatabasePath(), created with its folder on first use).
    /// The schema is created when the database is empty, an older Parallax schema is migrated in
    /// one transaction, and a newer one is refused with a clear message.
    static DbResult<std::unique_ptr<Database>> open(const QString& location);

    virtual QString backend() const = 0; ///< "sqlite" or "postgresql"
    virtual QString location() const = 0; ///< file path or connection string without password
    /// The Parallax schema version of this database (parallax_schema_version), 0 for a foreign TAUdb.
    virtual int schemaVersion() const = 0;

    /// Stores a trial in one transaction, in the order docs/FORMATS.md 7.4 gives; a failure or a
    /// cancel (progress.cancel()) leaves no trace. Returns the new trial id.
    virtual DbResult<qint64> uploadTrial(const Trial& trial, const UploadOptions& options, Progress& progress) = 0;
    /// Loads a trial back: the same threads, events, call paths, groups, metrics, values (exactly
    /// equal doubles), user events and metadata as were uploaded.
    virtual DbResult<std::shared_ptr<Trial>> loadTrial(qint64 id, Progress& progress) = 0;

    virtual DbResult<std::vector<TrialInfo>> listTrials(const TrialFilter& filter = {}) = 0;
    virtual DbResult<TrialInfo> trialInfo(qint64 id) = 0;
    virtual DbResult<Done> renameTrial(qint64 id, const QString& name) = 0;
    /// Deletes a trial and all its rows (also its semantic-model attachments) in one transaction.
    virtual DbResult<Done> deleteTrial(qint64 id) = 0;
    /// Sets (or with a null value removes) a primary_metadata entry of a trial.
    virtual DbResult<Done> setMetadata(qint64 id, const QString& name, const QString& value) = 0;
    /// Applies several setMetadata changes (name, value; a null value removes the entry) in one
    /// transaction: all of them, or none when one fails.
    virtual DbResult<Done> updateMetadata(qint64 id, const std::vector<std::pair<QString, QString>>& changes) = 0;
    /// A trial's primary_metadata entries (name, value), ordered by name: its trial-wide metadata and
    /// the entries the upload added (Application, Experiment, Parallax Upload Time).
    virtual DbResult<std::vector<std::pair<QString, QString>>> trialMetadata(qint64 id) = 0;

    virtual DbResult<std::vector<View>> views() = 0;

    // SEAA semantic models (parallax_semantic_model, parallax_trial_semantic_model). A foreign
    // TAUdb gets the tables with its first save, like with its first upload.

    /// Stores a model's JSON text (validated by the caller) as the next version of `name`: 1 for a
    /// new name, else the highest stored version + 1. Versions are never changed in place.
    virtual DbResult<SemanticModelVersion> saveSemanticModel(
        const QString& name, const QByteArray& json, const QString& comment = {})
        = 0;
    /// Every stored model version, ordered by name and version, with its attached-trial count.
    virtual DbResult<std::vector<SemanticModelInfo>> semanticModels() = 0;
    virtual DbResult<StoredSemanticModel> semanticModel(qint64 id) = 0;
    /// A model by name: `version` 0 is the latest.
    virtual DbResult<StoredSemanticModel> semanticModelByName(const QString& name, int version = 0) = 0;
    /// Attaches a model version to a trial; attaching it again changes nothing.
    virtual DbResult<Done> attachSemanticModel(qint64 trialId, qint64 modelId) = 0;
    /// Fails when the model is not attached to the trial.
    virtual DbResult<Done> detachSemanticModel(qint64 trialId, qint64 modelId) = 0;
    /// The models attached to a trial, in the order they were attached (info.attached is set).
    virtual DbResult<std::vector<StoredSemanticModel>> semanticModelsOfTrial(qint64 trialId) = 0;
    /// Deletes a model version. One that is attached to a trial is refused (the message names the
    /// trials) unless `force`, which detaches it from every trial first, in the same transaction.
    virtual DbResult<Done> deleteSemanticModel(qint64 id, bool force = false) = 0;

    /// The stored derived rows `codes` (each one of -1...-7) of `column` of the metric named `metric`
    /// for every interval event of each trial in `trials` (in that order), with the trials' metadata
    /// value of `metadataKey` (may be empty): a handful of queries for all the trials together
    /// (batches of a few hundred ids), never one per trial and event. Fails naming a missing trial.
    virtual DbResult<std::vector<DerivedTrialValues>> derivedValues(const std::vector<qint64>& trials,
        const QString& metric, DerivedColumn column, const std::vector<int>& codes, const QString& metadataKey = {})
        = 0;

    /// Figures of the last upload or load.
    virtual TransferStats lastTransfer() const = 0;
};

/// True for "postgresql://", "postgres://" and libpq keyword strings ("host=... dbname=...").
bool isPostgresLocation(const QString& location);

} // namespace parallax::perfdb
