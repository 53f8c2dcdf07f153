// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "perfdb/sqldatabase.h"

#include "perfdb/dbexception.h"
#include "perfdb/trialloader.h"
#include "perfdb/trialuploader.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QStringList>
#include <algorithm>
#include <limits>
#include <new>

// Static libraries drop an unreferenced resource initialiser: register perfdb/sql/perfdb.qrc here.
static void initialisePerfdbResources() { Q_INIT_RESOURCE(perfdb); }

namespace parallax::perfdb {

namespace {

/// One step of the Parallax schema's history: what turns version-1 into `version`. Opening an
/// older Parallax database runs every newer step, then records the version, in one transaction.
struct MigrationStep {
    int version;
    const char* description;
    void (*apply)(SqlDatabase& db);
};

const MigrationStep Migrations[] = {
    // Version 0 had TAUdb's tables and parallax_schema_version only.
    { 1,
        "Parallax side tables (parallax_trial, parallax_metric, parallax_event, parallax_counter, "
        "parallax_counter_value)",
        [](SqlDatabase& db) {
            db.execScript(SqlDatabase::script(db.dialect() == SqlDatabase::Dialect::Sqlite
                    ? QStringLiteral("parallax-sqlite.sql")
                    : QStringLiteral("parallax-postgresql.sql")));
        } },
    { 2, "PostgreSQL: timer_call_data and timer_value partitioned by call-data id, one partition per trial",
        [](SqlDatabase& db) {
            if (db.dialect() != SqlDatabase::Dialect::Postgres)
                return; // nothing changes on SQLite
            // The compatibility views would follow the renamed tables: drop and make them again.
            db.dropCompatibilityViews();
            db.execScript(SqlDatabase::script(QStringLiteral("parallax-postgresql-partitions.sql")));
            db.createCompatibilityViews();
        } },
    { 3, "SEAA semantic models (parallax_semantic_model, parallax_trial_semantic_model)",
        [](SqlDatabase& db) {
            db.execScript(SqlDatabase::script(db.dialect() == SqlDatabase::Dialect::Sqlite
                    ? QStringLiteral("parallax-semantic-sqlite.sql")
                    : QStringLiteral("parallax-semantic-postgresql.sql")));
        } },
    { 4,
        "A TAUdb that TAU's reader reads right: sums of squares in counter_value, no counter_value rows "
        "for derived threads, views SQLite 3.7 parses, Application/Experiment views",
        [](SqlDatabase& db) {
            db.dropCompatibilityViews();
            db.createCompatibilityViews();
            db.convertUserEventsForTau();
        } },
};

/// TAUdb's compatibility views, dependants first.
const char* const CompatibilityViews[] = { "interval_location_profile", "interval_total_summary",
    "interval_mean_summary", "interval_event_value", "interval_event", "atomic_total_summary", "atomic_mean_summary",
    "atomic_location_profile", "atomic_event_value", "atomic_event" };

/// Builds a WHERE clause from fixed SQL fragments; every value goes into the parameters.
class Conditions {
public:
    explicit Conditions(SqlParams& params)
        : m_params(params)
    {
    }
    std::string param(const SqlValue& value)
    {
        m_params.push_back(value);
        // Appended, not "$" + to_string(): GCC 12 warns falsely (-Wrestrict) on the latter.
        std::string name(1, '$');
        name += std::to_string(m_params.size());
        return name;
    }

private:
    SqlParams& m_params;
};

std::string join(const std::vector<std::string>& parts, const char* separator)
{
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0)
            out += separator;
        out += "(" + parts[i] + ")";
    }
    return out;
}

} // namespace

QByteArray SqlDatabase::script(const QString& name)
{
    static const bool once = (initialisePerfdbResources(), true);
    (void)once;
    QFile file(QStringLiteral(":/perfdb/sql/") + name);
    if (!file.open(QIODevice::ReadOnly))
        throw DbException(QStringLiteral("the schema script %1 is missing from the build").arg(name));
    return file.readAll();
}

QString SqlDatabase::dialectName() const
{
    return dialect() == Dialect::Sqlite ? QStringLiteral("sqlite") : QStringLiteral("postgresql");
}

DbResult<Done> SqlDatabase::transaction(bool write, const std::function<void()>& body)
{
    try {
        begin(write);
        body();
        commit();
        return Done {};
    } catch (const DbException& e) {
        rollback();
        return error(e.message());
    } catch (const std::bad_alloc&) {
        rollback();
        return error(QStringLiteral("out of memory"));
    }
}

void SqlDatabase::initialise()
{
    // Look first without the write lock (a read-only database opens fine); create or migrate
    // under it, checking again, so that two clients opening an empty database do not collide.
    auto detect = [this](int& version) {
        const bool taudb = tableExists("schema_version");
        if (!taudb) {
            if (tableExists("trial"))
                throw DbException(QStringLiteral("this database has a legacy PerfDMF schema (a trial table but no "
                                                 "TAUdb schema_version), which Parallax cannot open"));
            return false;
        }
        version = 0;
        if (tableExists("parallax_schema_version")) {
            auto rows = query("SELECT MAX(version) FROM parallax_schema_version");
            if (rows->next() && !rows->isNull(0))
                version = static_cast<int>(rows->toInt(0));
        }
        if (version > CurrentSchemaVersion)
            throw DbException(QStringLiteral("was written by a newer Parallax (schema %1, this one reads up to %2)")
                                  .arg(version)
                                  .arg(CurrentSchemaVersion));
        return true;
    };
    int version = 0;
    bool exists = false;
    bool parallax = false;
    // A foreign TAUdb whose side tables an older Parallax added (schema < 4 layout): its Parallax
    // trials are converted as the migration to 4 converts them; it stays foreign.
    bool oldSideTables = false;
    try {
        begin(false);
        exists = detect(version);
        parallax = exists && tableExists("parallax_schema_version");
        oldSideTables = exists && !parallax && tableExists("parallax_counter_value");
        commit();
    } catch (...) {
        rollback();
        throw;
    }
    if (!exists || (parallax && version < CurrentSchemaVersion) || oldSideTables) {
        try {
            begin(true);
            lockSchema();
            exists = detect(version);
            parallax = exists && tableExists("parallax_schema_version");
            oldSideTables = exists && !parallax && tableExists("parallax_counter_value");
            if (!exists)
                createSchema();
            else if (parallax && version < CurrentSchemaVersion)
                migrate(version);
            else if (oldSideTables)
                convertUserEventsForTau();
            commit();
        } catch (...) {
            rollback();
            throw;
        }
        if (!exists || parallax) {
            parallax = true;
            version = CurrentSchemaVersion;
        }
    }
    m_schemaVersion = parallax ? version : 0;
    m_parallaxTables = tableExists("parallax_trial") && tableExists("parallax_event")
        && tableExists("parallax_counter_deviation") && tableExists("parallax_metric")
        && tableExists("parallax_counter") && semanticTablesExist();
}

bool SqlDatabase::semanticTablesExist()
{
    return tableExists("parallax_semantic_model") && tableExists("parallax_trial_semantic_model");
}

void SqlDatabase::createSchema()
{
    execScript(script(dialectName() + QStringLiteral(".sql")));
    if (dialect() == Dialect::Postgres)
        execScript(script(QStringLiteral("parallax-postgresql-partitions.sql")));
    execScript(script(QStringLiteral("static-rows.sql")));
    createCompatibilityViews();
    execScript(script(QStringLiteral("parallax-") + dialectName() + QStringLiteral(".sql")));
    execScript(script(QStringLiteral("parallax-semantic-") + dialectName() + QStringLiteral(".sql")));
    execScript("CREATE TABLE parallax_schema_version (version INTEGER NOT NULL)");
    exec("INSERT INTO parallax_schema_version (version) VALUES ($1)", { CurrentSchemaVersion });
}

void SqlDatabase::migrate(int fromVersion)
{
    for (const MigrationStep& step : Migrations)
        if (step.version > fromVersion)
            step.apply(*this);
    if (exec("UPDATE parallax_schema_version SET version = $1", { CurrentSchemaVersion }) == 0)
        exec("INSERT INTO parallax_schema_version (version) VALUES ($1)", { CurrentSchemaVersion });
}

void SqlDatabase::createCompatibilityViews()
{
    execScript(script(QStringLiteral("views.sql")));
    execScript(script(QStringLiteral("interval-event-") + dialectName() + QStringLiteral(".sql")));
}

void SqlDatabase::dropCompatibilityViews()
{
    for (const char* view : CompatibilityViews)
        execScript(QByteArray("DROP VIEW IF EXISTS ") + view);
}

void SqlDatabase::convertUserEventsForTau()
{
    // parallax_counter_deviation is made by the side-table script (idempotent).
    execScript(script(QStringLiteral("parallax-") + dialectName() + QStringLiteral(".sql")));
    if (!tableExists("parallax_counter_value") || !tableExists("parallax_trial"))
        return;
    // 1. Explicit deviations. The old loader took a thread's stored deviations as explicit when
    //    one of them differed from the deviation of the exact sum of squares; keep exactly those.
    {
        struct Record {
            qint64 counter;
            bool null;
            double sd;
        };
        std::vector<std::pair<qint64, std::vector<Record>>> explicitThreads;
        std::vector<Record> records;
        qint64 thread = -1;
        bool anyExplicit = false;
        auto flush = [&] {
            if (anyExplicit)
                explicitThreads.emplace_back(thread, std::move(records));
            records.clear();
            anyExplicit = false;
        };
        const double nan = std::numeric_limits<double>::quiet_NaN();
        auto rows = query("SELECT v.thread, v.counter, v.sample_count, v.mean_value, v.standard_deviation, "
                          "s.sum_squares FROM counter_value v JOIN thread h ON h.id = v.thread "
                          "JOIN parallax_trial p ON p.trial = h.trial "
                          "JOIN parallax_counter_value s ON s.counter = v.counter AND s.thread = v.thread "
                          "WHERE h.thread_index >= 0 ORDER BY v.thread, v.counter");
        while (rows->next()) {
            if (rows->toInt(0) != thread) {
                flush();
                thread = rows->toInt(0);
            }
            const auto value = [&](int column) { return rows->isNull(column) ? nan : rows->toDouble(column); };
            const AtomicRow probe { { AtomicEventId(0u) }, { value(2) }, {}, {}, { value(3) }, { value(5) }, {} };
            const bool null = rows->isNull(4);
            const double sd = null ? nan : rows->toDouble(4);
            anyExplicit = anyExplicit || (!null && sd != probe.stddev(0));
            records.push_back({ rows->toInt(1), null, sd });
        }
        flush();
        rows.reset();
        for (const auto& [id, threadRecords] : explicitThreads)
            for (const Record& r : threadRecords)
                exec("INSERT INTO parallax_counter_deviation (counter, thread, standard_deviation) VALUES ($1, $2, $3)",
                    { r.counter, id, r.null ? SqlValue() : SqlValue(r.sd) });
    }
    // 2. The sum of squares into counter_value.standard_deviation: the exact one where the old side
    //    table has it, else the one the old loader derived from the deviation.
    exec("UPDATE counter_value SET standard_deviation = sample_count * (standard_deviation * standard_deviation "
         "+ mean_value * mean_value) WHERE thread IN (SELECT h.id FROM thread h JOIN parallax_trial p "
         "ON p.trial = h.trial WHERE h.thread_index >= 0) AND NOT EXISTS (SELECT 1 FROM parallax_counter_value s "
         "WHERE s.counter = counter_value.counter AND s.thread = counter_value.thread)");
    exec("UPDATE counter_value SET standard_deviation = (SELECT MAX(s.sum_squares) FROM parallax_counter_value s "
         "WHERE s.counter = counter_value.counter AND s.thread = counter_value.thread) WHERE EXISTS (SELECT 1 "
         "FROM parallax_counter_value s WHERE s.counter = counter_value.counter AND s.thread = counter_value.thread)");
    // 3. No counter_value rows for derived threads: TAU's reader makes a thread of each.
    exec("DELETE FROM counter_value WHERE thread IN (SELECT h.id FROM thread h JOIN parallax_trial p "
         "ON p.trial = h.trial WHERE h.thread_index < 0)");
    execScript("DROP TABLE parallax_counter_value");
    // 4. The Application/Experiment views TAU's loader would have made.
    std::vector<std::pair<QString, QString>> applications;
    {
        auto rows = query("SELECT (SELECT MIN(m.value) FROM primary_metadata m WHERE m.trial = p.trial "
                          "AND m.name = 'Application'), (SELECT MIN(m.value) FROM primary_metadata m "
                          "WHERE m.trial = p.trial AND m.name = 'Experiment') FROM parallax_trial p ORDER BY p.trial");
        while (rows->next())
            if (!rows->isNull(0))
                applications.emplace_back(rows->toText(0), rows->isNull(1) ? QString() : rows->toText(1));
    }
    for (const auto& [application, experiment] : applications)
        addApplicationViews(application, experiment);
}

void SqlDatabase::addApplicationViews(const QString& application, const QString& experiment)
{
    if (application.isEmpty())
        return;
    // Two uploads of one new application must not both make its view: serialise the writers of
    // taudb_view until the commit (SQLite already did with BEGIN IMMEDIATE; readers go on).
    if (dialect() == Dialect::Postgres)
        exec("LOCK TABLE taudb_view IN SHARE ROW EXCLUSIVE MODE");
    // As LoadTrial.saveTrial (tau2 tools/src/perfdmf/src/loader/LoadTrial.java) does it.
    auto insertView = [&](const SqlValue& parent, const QString& name) {
        auto rows = query(
            "INSERT INTO taudb_view (parent, name, conjoin) VALUES ($1, $2, 'and') RETURNING id", { parent, name });
        if (!rows->next())
            throw DbException(QStringLiteral("the new view \"%1\" returned no id").arg(name));
        return rows->toInt(0);
    };
    auto insertRule = [&](qint64 view, const QString& key, const QString& value) {
        exec("INSERT INTO taudb_view_parameter (taudb_view, table_name, column_name, operator, value) "
             "VALUES ($1, 'primary_metadata', $2, '=', $3)",
            { view, key, value });
    };
    const QString applicationView = QStringLiteral("Application-") + application;
    qint64 parent = 0;
    bool created = false;
    {
        auto rows
            = query("SELECT id FROM taudb_view WHERE parent IS NULL AND name = $1 ORDER BY id", { applicationView });
        if (rows->next())
            parent = rows->toInt(0);
    }
    if (parent == 0) {
        parent = insertView(SqlValue(), applicationView);
        insertRule(parent, QStringLiteral("Application"), application);
        created = true;
    }
    if (experiment.isEmpty())
        return;
    const QString experimentView = QStringLiteral("Experiment-") + experiment;
    if (query("SELECT id FROM taudb_view WHERE parent = $1 AND name = $2", { parent, experimentView })->next())
        return;
    const qint64 view = insertView(parent, experimentView);
    // TAU's loader keeps adding to one rule list: an Experiment view made together with its
    // Application view repeats the Application rule (the same selection, as a sub-view's trials
    // also pass its parent's rules).
    if (created)
        insertRule(view, QStringLiteral("Application"), application);
    insertRule(view, QStringLiteral("Experiment"), experiment);
}

void SqlDatabase::ensureParallaxTables()
{
    // A foreign TAUdb gets the side tables with its first Parallax upload (same transaction); it
    // stays foreign otherwise (no parallax_schema_version). So does its first semantic model.
    execScript(script(QStringLiteral("parallax-") + dialectName() + QStringLiteral(".sql")));
    execScript(script(QStringLiteral("parallax-semantic-") + dialectName() + QStringLiteral(".sql")));
}

DbResult<qint64> SqlDatabase::uploadTrial(const Trial& trial, const UploadOptions& options, Progress& progress)
{
    QElapsedTimer timer;
    timer.start();
    qint64 id = 0;
    qint64 rows = 0;
    const bool addTables = !m_parallaxTables;
    const auto result = transaction(true, [&] {
        if (addTables)
            ensureParallaxTables();
        TrialUploader uploader(*this, trial, options, progress);
        try {
            id = uploader.run();
        } catch (...) {
            rows = uploader.rows();
            throw;
        }
        rows = uploader.rows();
        progress.setStage(QStringLiteral("Uploading: committing"), 0);
    });
    m_lastTransfer = { rows, static_cast<double>(timer.nsecsElapsed()) / 1e9 };
    if (!result.ok())
        return result.error();
    if (addTables)
        m_parallaxTables = true;
    return id;
}

DbResult<std::shared_ptr<Trial>> SqlDatabase::loadTrial(qint64 id, Progress& progress)
{
    QElapsedTimer timer;
    timer.start();
    std::shared_ptr<Trial> trial;
    qint64 rows = 0;
    const auto result = transaction(false, [&] {
        TrialLoader loader(*this, id, progress);
        trial = loader.run();
        rows = loader.rows();
    });
    m_lastTransfer = { rows, static_cast<double>(timer.nsecsElapsed()) / 1e9 };
    if (!result.ok())
        return result.error();
    return trial;
}

std::vector<TrialInfo> SqlDatabase::selectTrials(const std::string& where, const SqlParams& params)
{
    std::string sql = "SELECT t.id, t.name, t.total_threads, t.node_count, s.name, "
                      "(SELECT MIN(m.value) FROM primary_metadata m WHERE m.trial = t.id AND m.name = 'Application'), "
                      "(SELECT MIN(m.value) FROM primary_metadata m WHERE m.trial = t.id AND m.name = 'Experiment'), "
                      "(SELECT MIN(m.value) FROM primary_metadata m WHERE m.trial = t.id "
                      "AND m.name = 'Parallax Upload Time') "
                      "FROM trial t LEFT JOIN data_source s ON s.id = t.data_source";
    if (!where.empty())
        sql += " WHERE " + where;
    sql += " ORDER BY t.id";
    std::vector<TrialInfo> infos;
    QHash<qint64, std::size_t> index;
    {
        auto rows = query(sql, params);
        while (rows->next()) {
            TrialInfo info;
            info.id = rows->toInt(0);
            info.name = rows->toText(1);
            info.threads = rows->toInt(2);
            info.nodes = rows->toInt(3);
            info.dataSource = rows->toText(4);
            info.application = rows->toText(5);
            info.experiment = rows->toText(6);
            info.uploaded = rows->toText(7);
            index.insert(info.id, infos.size());
            infos.push_back(std::move(info));
        }
    }
    if (infos.empty())
        return infos;
    auto rows = infos.size() == 1
        ? query("SELECT trial, name FROM metric WHERE trial = $1 ORDER BY id", { infos[0].id })
        : query("SELECT trial, name FROM metric ORDER BY trial, id");
    while (rows->next()) {
        const auto it = index.constFind(rows->toInt(0));
        if (it != index.cend())
            infos[it.value()].metrics.append(rows->toText(1));
    }
    return infos;
}

std::string SqlDatabase::viewCondition(qint64 view, SqlParams& params)
{
    struct ViewRow {
        qint64 parent = 0;
        QString conjoin;
    };
    QHash<qint64, ViewRow> views;
    {
        auto rows = query("SELECT id, parent, conjoin FROM taudb_view");
        while (rows->next())
            views.insert(rows->toInt(0), { rows->isNull(1) ? 0 : rows->toInt(1), rows->toText(2) });
    }
    struct Parameter {
        QString table;
        QString column;
        QString op;
        QString value;
    };
    QHash<qint64, std::vector<Parameter>> parameters;
    {
        auto rows = query("SELECT taudb_view, table_name, column_name, operator, value FROM taudb_view_parameter");
        while (rows->next())
            parameters[rows->toInt(0)].push_back(
                { rows->toText(1), rows->toText(2), rows->toText(3), rows->toText(4) });
    }
    // Operators and trial columns come from the database: map them onto fixed SQL, never paste them.
    static const QHash<QString, const char*> operators {
        { QStringLiteral("="), "=" },
        { QStringLiteral("=="), "=" },
        { QStringLiteral("!="), "<>" },
        { QStringLiteral("<>"), "<>" },
        { QStringLiteral("<"), "<" },
        { QStringLiteral("<="), "<=" },
        { QStringLiteral(">"), ">" },
        { QStringLiteral(">="), ">=" },
        { QStringLiteral("like"), "LIKE" },
        { QStringLiteral("not like"), "NOT LIKE" },
        { QStringLiteral("ilike"), "ILIKE" },
        { QStringLiteral("not ilike"), "NOT ILIKE" },
    };
    static const QHash<QString, const char*> trialColumns {
        { QStringLiteral("id"), "t.id" },
        { QStringLiteral("name"), "t.name" },
        { QStringLiteral("data_source"), "t.data_source" },
        { QStringLiteral("node_count"), "t.node_count" },
        { QStringLiteral("contexts_per_node"), "t.contexts_per_node" },
        { QStringLiteral("threads_per_context"), "t.threads_per_context" },
        { QStringLiteral("total_threads"), "t.total_threads" },
    };
    Conditions conditions(params);
    auto compare = [&](const std::string& lhs, const std::string& op, const std::string& rhs) {
        if (op == "ILIKE")
            return "LOWER(" + lhs + ") LIKE LOWER(" + rhs + ")";
        if (op == "NOT ILIKE")
            return "LOWER(" + lhs + ") NOT LIKE LOWER(" + rhs + ")";
        return lhs + " " + op + " " + rhs;
    };
    std::vector<std::string> chain;
    QList<qint64> seen;
    for (qint64 id = view; id != 0;) {
        if (seen.contains(id))
            throw DbException(QStringLiteral("view %1: its parents form a cycle").arg(view));
        seen.append(id);
        const auto it = views.constFind(id);
        if (it == views.cend())
            throw DbException(QStringLiteral("there is no view %1").arg(id));
        std::vector<std::string> parts;
        for (const Parameter& p : parameters.value(id)) {
            const auto op = operators.constFind(p.op.trimmed().toLower());
            if (op == operators.cend())
                throw DbException(QStringLiteral("view %1: unsupported operator \"%2\"").arg(id).arg(p.op));
            const std::string sqlOp = op.value();
            const bool like = sqlOp.find("LIKE") != std::string::npos;
            const QString table = p.table.trimmed().toLower();
            if (table == QLatin1String("trial")) {
                const auto column = trialColumns.constFind(p.column.trimmed().toLower());
                if (column == trialColumns.cend())
                    throw DbException(QStringLiteral("view %1: unsupported trial column \"%2\"").arg(id).arg(p.column));
                const std::string lhs = column.value();
                const bool numeric = lhs != "t.name";
                if (like)
                    parts.push_back(
                        compare(numeric ? "CAST(" + lhs + " AS VARCHAR)" : lhs, sqlOp, conditions.param(p.value)));
                else if (numeric)
                    parts.push_back(compare(lhs, sqlOp, "CAST(" + conditions.param(p.value) + " AS DOUBLE PRECISION)"));
                else
                    parts.push_back(compare(lhs, sqlOp, conditions.param(p.value)));
            } else if (table == QLatin1String("primary_metadata") || table == QLatin1String("secondary_metadata")) {
                // column_name holds the metadata key (docs/FORMATS.md 7.2).
                const std::string from
                    = table == QLatin1String("primary_metadata") ? "primary_metadata" : "secondary_metadata";
                const std::string key = conditions.param(p.column);
                std::string exists = "EXISTS (SELECT 1 FROM ";
                exists.append(from).append(" m WHERE m.trial = t.id AND m.name = ").append(key).append(" AND ");
                exists.append(compare("m.value", sqlOp, conditions.param(p.value))).append(")");
                parts.push_back(std::move(exists));
            } else {
                throw DbException(QStringLiteral("view %1: unsupported table \"%2\"").arg(id).arg(p.table));
            }
        }
        const bool any = it.value().conjoin.trimmed().toLower() == QLatin1String("or");
        if (!parts.empty())
            chain.push_back(join(parts, any ? " OR " : " AND "));
        id = it.value().parent;
    }
    return chain.empty() ? std::string("1 = 1") : join(chain, " AND ");
}

DbResult<std::vector<TrialInfo>> SqlDatabase::listTrials(const TrialFilter& filter)
{
    std::vector<TrialInfo> infos;
    const auto result = transaction(false, [&] {
        SqlParams params;
        Conditions conditions(params);
        std::vector<std::string> where;
        auto metadata = [&](const SqlValue& key, const QString& value) {
            where.push_back("EXISTS (SELECT 1 FROM primary_metadata m WHERE m.trial = t.id AND m.name = "
                + conditions.param(key) + " AND m.value = " + conditions.param(value) + ")");
        };
        if (!filter.application.isEmpty())
            metadata(QStringLiteral("Application"), filter.application);
        if (!filter.experiment.isEmpty())
            metadata(QStringLiteral("Experiment"), filter.experiment);
        for (const auto& [key, value] : filter.metadata)
            metadata(key, value);
        if (filter.view != 0)
            where.push_back(viewCondition(filter.view, params));
        infos = selectTrials(join(where, " AND "), params);
        if (!filter.nameContains.isEmpty()) {
            // A plain substring test, case-insensitive, in C++: no LIKE wildcards to escape.
            std::erase_if(infos,
                [&](const TrialInfo& info) { return !info.name.contains(filter.nameContains, Qt::CaseInsensitive); });
        }
    });
    if (!result.ok())
        return result.error();
    return infos;
}

DbResult<TrialInfo> SqlDatabase::trialInfo(qint64 id)
{
    std::vector<TrialInfo> infos;
    const auto result = transaction(false, [&] { infos = selectTrials("t.id = $1", { id }); });
    if (!result.ok())
        return result.error();
    if (infos.empty())
        return error(QStringLiteral("there is no trial %1").arg(id));
    return infos.front();
}

DbResult<Done> SqlDatabase::renameTrial(qint64 id, const QString& name)
{
    return transaction(true, [&] {
        if (exec("UPDATE trial SET name = $1 WHERE id = $2", { name.isNull() ? QString(QLatin1String("")) : name, id })
            == 0)
            throw DbException(QStringLiteral("there is no trial %1").arg(id));
    });
}

DbResult<Done> SqlDatabase::deleteTrial(qint64 id)
{
    return transaction(true, [&] {
        if (!query("SELECT id FROM trial WHERE id = $1", { id })->next())
            throw DbException(QStringLiteral("there is no trial %1").arg(id));
        // time_range rows hang off call data and metadata: note them before those go.
        std::vector<qint64> ranges;
        {
            auto rows = query("SELECT time_range FROM secondary_metadata WHERE trial = $1 AND time_range IS NOT NULL "
                              "UNION SELECT d.time_range FROM timer_call_data d JOIN thread h ON d.thread = h.id "
                              "WHERE h.trial = $1 AND d.time_range IS NOT NULL",
                { id });
            while (rows->next())
                ranges.push_back(rows->toInt(0));
        }
        const bool side = tableExists("parallax_trial");
        if (tableExists("parallax_trial_semantic_model"))
            exec("DELETE FROM parallax_trial_semantic_model WHERE trial = $1", { id });
        // A trial's own partitions go at once; the DELETEs below then find none of its cells.
        dropPartitions(id);
        // Children before parents, every table a trial has rows in.
        exec("DELETE FROM timer_value WHERE timer_call_data IN (SELECT d.id FROM timer_call_data d "
             "JOIN thread h ON d.thread = h.id WHERE h.trial = $1)",
            { id });
        exec("DELETE FROM timer_call_data WHERE thread IN (SELECT id FROM thread WHERE trial = $1)", { id });
        if (side) {
            if (tableExists("parallax_counter_deviation"))
                exec(
                    "DELETE FROM parallax_counter_deviation WHERE counter IN (SELECT id FROM counter WHERE trial = $1)",
                    { id });
            if (tableExists("parallax_counter_value")) // schema < 4, before its migration
                exec("DELETE FROM parallax_counter_value WHERE counter IN (SELECT id FROM counter WHERE trial = $1)",
                    { id });
            exec("DELETE FROM parallax_counter WHERE counter IN (SELECT id FROM counter WHERE trial = $1)", { id });
        }
        exec("DELETE FROM counter_value WHERE counter IN (SELECT id FROM counter WHERE trial = $1) "
             "OR thread IN (SELECT id FROM thread WHERE trial = $1)",
            { id });
        exec("DELETE FROM counter WHERE trial = $1", { id });
        exec("DELETE FROM secondary_metadata WHERE trial = $1", { id });
        exec("DELETE FROM primary_metadata WHERE trial = $1", { id });
        if (side) {
            exec("DELETE FROM parallax_event WHERE trial = $1", { id });
            exec("DELETE FROM parallax_metric WHERE metric IN (SELECT id FROM metric WHERE trial = $1)", { id });
            exec("DELETE FROM parallax_trial WHERE trial = $1", { id });
        }
        exec("DELETE FROM timer_parameter WHERE timer IN (SELECT id FROM timer WHERE trial = $1)", { id });
        exec("DELETE FROM timer_group WHERE timer IN (SELECT id FROM timer WHERE trial = $1)", { id });
        exec("DELETE FROM timer_callpath WHERE timer IN (SELECT id FROM timer WHERE trial = $1)", { id });
        exec("DELETE FROM timer WHERE trial = $1", { id });
        if (tableExists("analysis_settings"))
            exec("DELETE FROM analysis_settings WHERE trial = $1 OR metric IN (SELECT id FROM metric WHERE trial = $1)",
                { id });
        exec("DELETE FROM metric WHERE trial = $1", { id });
        exec("DELETE FROM thread WHERE trial = $1", { id });
        exec("DELETE FROM trial WHERE id = $1", { id });
        for (qint64 range : ranges)
            exec("DELETE FROM time_range WHERE id = $1", { range });
    });
}

DbResult<Done> SqlDatabase::setMetadata(qint64 id, const QString& name, const QString& value)
{
    return updateMetadata(id, { { name, value } });
}

DbResult<Done> SqlDatabase::updateMetadata(qint64 id, const std::vector<std::pair<QString, QString>>& changes)
{
    return transaction(true, [&] {
        if (!query("SELECT id FROM trial WHERE id = $1", { id })->next())
            throw DbException(QStringLiteral("there is no trial %1").arg(id));
        for (const auto& [name, value] : changes) {
            if (value.isNull()) {
                exec("DELETE FROM primary_metadata WHERE trial = $1 AND name = $2", { id, name });
                continue;
            }
            if (exec("UPDATE primary_metadata SET value = $3 WHERE trial = $1 AND name = $2", { id, name, value }) == 0)
                exec("INSERT INTO primary_metadata (trial, name, value) VALUES ($1, $2, $3)", { id, name, value });
        }
    });
}

DbResult<std::vector<std::pair<QString, QString>>> SqlDatabase::trialMetadata(qint64 id)
{
    std::vector<std::pair<QString, QString>> out;
    const auto result = transaction(false, [&] {
        if (!query("SELECT id FROM trial WHERE id = $1", { id })->next())
            throw DbException(QStringLiteral("there is no trial %1").arg(id));
        auto rows = query("SELECT name, value FROM primary_metadata WHERE trial = $1 ORDER BY name, value", { id });
        while (rows->next())
            out.emplace_back(rows->toText(0), rows->toText(1));
    });
    if (!result.ok())
        return result.error();
    return out;
}

DbResult<std::vector<View>> SqlDatabase::views()
{
    std::vector<View> out;
    const auto result = transaction(false, [&] {
        auto rows = query("SELECT id, parent, name, conjoin FROM taudb_view ORDER BY id");
        while (rows->next())
            out.push_back({ rows->toInt(0), rows->isNull(1) ? 0 : rows->toInt(1), rows->toText(2), rows->toText(3) });
    });
    if (!result.ok())
        return result.error();
    return out;
}

// SEAA semantic models ------------------------------------------------------------------------

std::string SqlDatabase::isoTimestamp(const std::string& column) const
{
    // SQLite keeps the ISO text it was given; PostgreSQL's timestamptz prints per DateStyle and
    // TimeZone, so format it in UTC explicitly.
    if (dialect() == Dialect::Sqlite)
        return column;
    return "to_char(" + column + " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')";
}

std::vector<StoredSemanticModel> SqlDatabase::selectSemanticModels(
    const std::string& where, const SqlParams& params, bool withJson)
{
    std::vector<StoredSemanticModel> out;
    if (!semanticTablesExist())
        return out; // a foreign TAUdb before its first save
    std::string sql = "SELECT m.id, m.name, m.version, " + isoTimestamp("m.created")
        + ", m.comment, (SELECT COUNT(*) FROM parallax_trial_semantic_model a WHERE a.model = m.id)";
    if (withJson)
        sql += ", m.json";
    sql += " FROM parallax_semantic_model m";
    if (!where.empty())
        sql += " WHERE " + where;
    auto rows = query(sql, params);
    while (rows->next()) {
        StoredSemanticModel model;
        model.info.id = rows->toInt(0);
        model.info.name = rows->toText(1);
        model.info.version = static_cast<int>(rows->toInt(2));
        model.info.created = rows->toText(3);
        model.info.comment = rows->toText(4);
        model.info.attachedTrials = rows->toInt(5);
        if (withJson)
            model.json = rows->toText(6).toUtf8();
        out.push_back(std::move(model));
    }
    // Sorted here, not by ORDER BY: the two servers collate names differently.
    std::sort(out.begin(), out.end(), [](const StoredSemanticModel& a, const StoredSemanticModel& b) {
        const int byName = QString::compare(a.info.name, b.info.name);
        return byName != 0 ? byName < 0 : a.info.version < b.info.version;
    });
    return out;
}

DbResult<SemanticModelVersion> SqlDatabase::saveSemanticModel(
    const QString& name, const QByteArray& json, const QString& comment)
{
    if (name.trimmed().isEmpty())
        return error(QStringLiteral("a semantic model needs a name"));
    if (json.trimmed().isEmpty())
        return error(QStringLiteral("semantic model \"%1\": the JSON text is empty").arg(name));
    SemanticModelVersion saved;
    bool addedTables = false;
    const auto result = transaction(true, [&] {
        addedTables = false;
        if (!semanticTablesExist()) {
            ensureParallaxTables(); // a foreign TAUdb: the side tables, as its first upload adds them
            addedTables = true;
        }
        // Two clients saving the same name must not both take MAX + 1: serialise the writers (SQLite
        // already did with BEGIN IMMEDIATE; readers go on).
        if (dialect() == Dialect::Postgres)
            exec("LOCK TABLE parallax_semantic_model IN SHARE ROW EXCLUSIVE MODE");
        {
            auto rows
                = query("SELECT COALESCE(MAX(version), 0) FROM parallax_semantic_model WHERE name = $1", { name });
            saved.version = static_cast<int>((rows->next() ? rows->toInt(0) : 0) + 1);
        }
        const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
        auto rows = query("INSERT INTO parallax_semantic_model (name, version, json, created, comment) "
                          "VALUES ($1, $2, $3, $4, $5) RETURNING id",
            { name, saved.version, QString::fromUtf8(json), now, comment.isEmpty() ? QString() : comment });
        if (!rows->next())
            throw DbException(QStringLiteral("semantic model \"%1\": the database returned no id").arg(name));
        saved.id = rows->toInt(0);
    });
    if (!result.ok())
        return result.error();
    if (addedTables)
        m_parallaxTables = true;
    return saved;
}

DbResult<std::vector<SemanticModelInfo>> SqlDatabase::semanticModels()
{
    std::vector<SemanticModelInfo> out;
    const auto result = transaction(false, [&] {
        for (StoredSemanticModel& model : selectSemanticModels({}, {}, false))
            out.push_back(std::move(model.info));
    });
    if (!result.ok())
        return result.error();
    return out;
}

DbResult<StoredSemanticModel> SqlDatabase::semanticModel(qint64 id)
{
    std::vector<StoredSemanticModel> found;
    const auto result = transaction(false, [&] { found = selectSemanticModels("m.id = $1", { id }, true); });
    if (!result.ok())
        return result.error();
    if (found.empty())
        return error(QStringLiteral("there is no semantic model %1").arg(id));
    return found.front();
}

DbResult<StoredSemanticModel> SqlDatabase::semanticModelByName(const QString& name, int version)
{
    std::vector<StoredSemanticModel> found;
    const auto result = transaction(false, [&] {
        if (version > 0)
            found = selectSemanticModels("m.name = $1 AND m.version = $2", { name, version }, true);
        else
            found = selectSemanticModels("m.name = $1 AND m.version = (SELECT MAX(l.version) FROM "
                                         "parallax_semantic_model l WHERE l.name = $1)",
                { name }, true);
    });
    if (!result.ok())
        return result.error();
    if (found.empty())
        return error(version > 0 ? QStringLiteral("there is no semantic model \"%1\" version %2").arg(name).arg(version)
                                 : QStringLiteral("there is no semantic model \"%1\"").arg(name));
    return found.front();
}

DbResult<Done> SqlDatabase::attachSemanticModel(qint64 trialId, qint64 modelId)
{
    return transaction(true, [&] {
        if (!query("SELECT id FROM trial WHERE id = $1", { trialId })->next())
            throw DbException(QStringLiteral("there is no trial %1").arg(trialId));
        if (!semanticTablesExist()
            || !query("SELECT id FROM parallax_semantic_model WHERE id = $1", { modelId })->next())
            throw DbException(QStringLiteral("there is no semantic model %1").arg(modelId));
        if (query("SELECT 1 FROM parallax_trial_semantic_model WHERE trial = $1 AND model = $2", { trialId, modelId })
                ->next())
            return; // attached already: keep the first attach time
        exec("INSERT INTO parallax_trial_semantic_model (trial, model, attached) VALUES ($1, $2, $3)",
            { trialId, modelId, QDateTime::currentDateTimeUtc().toString(Qt::ISODate) });
    });
}

DbResult<Done> SqlDatabase::detachSemanticModel(qint64 trialId, qint64 modelId)
{
    return transaction(true, [&] {
        if (!semanticTablesExist()
            || exec("DELETE FROM parallax_trial_semantic_model WHERE trial = $1 AND model = $2", { trialId, modelId })
                == 0)
            throw DbException(
                QStringLiteral("semantic model %1 is not attached to trial %2").arg(modelId).arg(trialId));
    });
}

DbResult<std::vector<StoredSemanticModel>> SqlDatabase::semanticModelsOfTrial(qint64 trialId)
{
    std::vector<StoredSemanticModel> out;
    const auto result = transaction(false, [&] {
        if (!query("SELECT id FROM trial WHERE id = $1", { trialId })->next())
            throw DbException(QStringLiteral("there is no trial %1").arg(trialId));
        if (!semanticTablesExist())
            return;
        std::vector<std::pair<qint64, QString>> attached; // model id, attach time, in attach order
        {
            auto rows = query("SELECT model, " + isoTimestamp("attached")
                    + " FROM parallax_trial_semantic_model WHERE trial = $1 ORDER BY attached, model",
                { trialId });
            while (rows->next())
                attached.emplace_back(rows->toInt(0), rows->toText(1));
        }
        const auto models = selectSemanticModels(
            "m.id IN (SELECT model FROM parallax_trial_semantic_model WHERE trial = $1)", { trialId }, true);
        for (const auto& [id, when] : attached) {
            const auto it = std::find_if(
                models.begin(), models.end(), [id = id](const StoredSemanticModel& m) { return m.info.id == id; });
            if (it == models.end())
                continue;
            out.push_back(*it);
            out.back().info.attached = when;
        }
    });
    if (!result.ok())
        return result.error();
    return out;
}

DbResult<Done> SqlDatabase::deleteSemanticModel(qint64 id, bool force)
{
    return transaction(true, [&] {
        if (!semanticTablesExist())
            throw DbException(QStringLiteral("there is no semantic model %1").arg(id));
        QString name;
        qint64 version = 0;
        {
            auto rows = query("SELECT name, version FROM parallax_semantic_model WHERE id = $1", { id });
            if (!rows->next())
                throw DbException(QStringLiteral("there is no semantic model %1").arg(id));
            name = rows->toText(0);
            version = rows->toInt(1);
        }
        QStringList trials;
        {
            auto rows
                = query("SELECT trial FROM parallax_trial_semantic_model WHERE model = $1 ORDER BY trial", { id });
            while (rows->next())
                trials.append(QString::number(rows->toInt(0)));
        }
        if (!trials.isEmpty() && !force)
            throw DbException(QStringLiteral("semantic model \"%1\" version %2 (id %3) is attached to %4: detach it "
                                             "first, or force the delete to detach it everywhere")
                                  .arg(name)
                                  .arg(version)
                                  .arg(id)
                                  .arg(trials.size() == 1 ? QStringLiteral("trial ") + trials.front()
                                                          : QStringLiteral("%1 trials (%2)")
                                                                .arg(trials.size())
                                                                .arg(trials.join(QStringLiteral(", ")))));
        exec("DELETE FROM parallax_trial_semantic_model WHERE model = $1", { id });
        exec("DELETE FROM parallax_semantic_model WHERE id = $1", { id });
    });
}

} // namespace parallax::perfdb
