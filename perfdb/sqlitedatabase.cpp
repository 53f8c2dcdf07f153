// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "perfdb/sqlitedatabase.h"

#include "perfdb/dbexception.h"

#include <QFile>
#include <QFileInfo>
#include <QUrl>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <unistd.h>

namespace parallax::perfdb {

namespace {

/// What the connection's last error means for the user where SQLite's own words are vague or name no
/// cause ("disk I/O error", "attempt to write a readonly database"), else nothing.
QString meaningOf(sqlite3* db)
{
    const int code = sqlite3_extended_errcode(db);
    const int systemError = sqlite3_system_errno(db);
    switch (code & 0xff) {
    case SQLITE_FULL:
        return QStringLiteral("the disk is full");
    case SQLITE_IOERR:
        if (systemError == ENOSPC)
            return QStringLiteral("the disk is full");
        if (systemError == EDQUOT)
            return QStringLiteral("the disk quota is exceeded");
        if (systemError == EFBIG)
            return QStringLiteral("file too large: the file system or the file size limit (ulimit -f) does not let "
                                  "the database grow");
        // SQLite reads errno only after rolling back, which may have changed it (a failed commit
        // reports 0); a short write under a file size limit is then almost surely that limit.
        if (code == SQLITE_IOERR_WRITE && systemError == 0) {
            rlimit limit {};
            if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
                return QStringLiteral("file too large: the file size limit (ulimit -f) of %1 bytes does not let the "
                                      "database grow")
                    .arg(static_cast<qulonglong>(limit.rlim_cur));
        }
        return systemError != 0 ? QStringLiteral("input/output error: %1").arg(qt_error_string(systemError))
                                : QString();
    case SQLITE_READONLY:
        switch (code) {
        case SQLITE_READONLY_DIRECTORY:
        case SQLITE_READONLY_CANTINIT:
            return QStringLiteral("read-only: the database's folder is not writable, so SQLite cannot create its "
                                  "write-ahead log and shared-memory files (-wal, -shm) beside it");
        case SQLITE_READONLY_DBMOVED:
            return QStringLiteral("the database file was moved or deleted while it was open");
        default:
            return QStringLiteral("the database file is read-only (no permission to write it)");
        }
    case SQLITE_CANTOPEN:
        if (systemError == EACCES || systemError == EROFS || systemError == EPERM)
            return QStringLiteral("cannot open or create the file, or its -wal and -shm files: %1 (is it or its "
                                  "folder read-only?)")
                .arg(qt_error_string(systemError));
        return systemError != 0 ? QStringLiteral("cannot open the file: %1").arg(qt_error_string(systemError))
                                : QString();
    case SQLITE_CORRUPT:
        return QStringLiteral("the database file is corrupt (restore it from a backup; sqlite3's .recover may "
                              "save what is left)");
    case SQLITE_NOTADB:
        return QStringLiteral("the file is not an SQLite database, or its header is damaged");
    default:
        return {};
    }
}

/// SQLite's `message` of the connection's last error, after its meaning where meaningOf() knows one.
QString explained(sqlite3* db, const QString& message)
{
    const QString meaning = meaningOf(db);
    return meaning.isEmpty() ? message : meaning + QStringLiteral(" (SQLite: ") + message + QLatin1Char(')');
}

QString messageOf(sqlite3* db) { return explained(db, QString::fromUtf8(sqlite3_errmsg(db))); }

void bindValue(sqlite3* db, sqlite3_stmt* statement, int index, const SqlValue& value)
{
    int rc = SQLITE_OK;
    switch (value.type()) {
    case SqlValue::Type::Null:
        rc = sqlite3_bind_null(statement, index);
        break;
    case SqlValue::Type::Int:
        rc = sqlite3_bind_int64(statement, index, value.toInt());
        break;
    case SqlValue::Type::Double:
        rc = sqlite3_bind_double(statement, index, value.toDouble());
        break;
    case SqlValue::Type::Text: {
        const QByteArray utf8 = value.toText().toUtf8();
        rc = sqlite3_bind_text(statement, index, utf8.constData(), static_cast<int>(utf8.size()), SQLITE_TRANSIENT);
        break;
    }
    }
    if (rc != SQLITE_OK)
        throw DbException(messageOf(db));
}

/// Rows of a prepared statement; resets (or finalizes) it when done.
class SqliteRows : public SqlRows {
public:
    SqliteRows(sqlite3* db, sqlite3_stmt* statement, bool owned)
        : m_db(db)
        , m_statement(statement)
        , m_owned(owned)
    {
    }
    ~SqliteRows() override
    {
        if (m_owned)
            sqlite3_finalize(m_statement);
        else
            sqlite3_reset(m_statement);
    }
    bool next() override
    {
        if (m_done)
            return false;
        const int rc = sqlite3_step(m_statement);
        if (rc == SQLITE_ROW)
            return true;
        m_done = true;
        if (rc == SQLITE_DONE)
            return false;
        throw DbException(messageOf(m_db));
    }
    bool isNull(int column) const override { return sqlite3_column_type(m_statement, column) == SQLITE_NULL; }
    qint64 toInt(int column) const override { return sqlite3_column_int64(m_statement, column); }
    double toDouble(int column) const override { return sqlite3_column_double(m_statement, column); }
    QString toText(int column) const override
    {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(m_statement, column));
        return QString::fromUtf8(text, sqlite3_column_bytes(m_statement, column));
    }

private:
    sqlite3* m_db;
    sqlite3_stmt* m_statement;
    bool m_owned;
    bool m_done = false;
};

/// Rows go out in multi-row INSERT statements (INSERT ... VALUES (...), (...), ...): one
/// sqlite3_step per batch instead of per row, which measured 2-3x faster on 3.3 M rows (SQLite's
/// per-statement cost, and AUTOINCREMENT's sqlite_sequence update, are paid once per batch).
/// Values wait in a small buffer until their batch is full; the rest goes row by row at finish().
class SqliteBulkWriter : public BulkWriter {
public:
    SqliteBulkWriter(
        SqliteDatabase& db, sqlite3* handle, const std::string& table, const std::vector<std::string_view>& columns)
        : m_db(db)
        , m_handle(handle)
        , m_columns(static_cast<int>(columns.size()))
        , m_batchRows(std::clamp(4000 / std::max(1, m_columns), 1, 256))
        , m_single(statement(table, columns, 1))
        , m_batch(m_batchRows > 1 ? statement(table, columns, m_batchRows) : m_single)
    {
        m_values.reserve(static_cast<std::size_t>(m_batchRows) * static_cast<std::size_t>(m_columns));
    }
    ~SqliteBulkWriter() override
    {
        release(m_single);
        if (m_batch.statement != m_single.statement)
            release(m_batch);
    }
    void addNull() override { m_values.push_back({ Value::Null, 0, 0, {} }); }
    void addInt(qint64 value) override { m_values.push_back({ Value::Int, value, 0, {} }); }
    void addDouble(double value) override { m_values.push_back({ Value::Double, 0, value, {} }); }
    void addBool(bool value) override { m_values.push_back({ Value::Int, value ? 1 : 0, 0, {} }); }
    void addText(const QString& value) override { m_values.push_back({ Value::Text, 0, 0, value.toUtf8() }); }
    void endRow() override
    {
        if (m_values.size() != static_cast<std::size_t>(m_rows + 1) * static_cast<std::size_t>(m_columns))
            throw DbException(QStringLiteral("a row has the wrong number of values"));
        if (++m_rows == m_batchRows)
            flush(m_batch, 0, m_rows);
    }
    void finish() override
    {
        for (int row = 0; row < m_rows; ++row)
            flush(m_single, row, 1);
        m_values.clear();
        m_rows = 0;
    }

private:
    struct Value {
        enum Type { Null, Int, Double, Text } type;
        qint64 integer;
        double real;
        QByteArray text;
    };
    struct Statement {
        sqlite3_stmt* statement = nullptr;
        bool owned = false;
    };

    Statement statement(const std::string& table, const std::vector<std::string_view>& columns, int rows)
    {
        std::string sql = "INSERT INTO " + table + " (";
        std::string row = "(";
        for (std::size_t i = 0; i < columns.size(); ++i) {
            sql += i > 0 ? ", " : "";
            sql += columns[i];
            row += i > 0 ? ", ?" : "?";
        }
        sql += ") VALUES ";
        row += ")";
        for (int r = 0; r < rows; ++r) {
            sql += r > 0 ? ", " : "";
            sql += row;
        }
        Statement s;
        s.statement = m_db.prepare(sql, s.owned);
        return s;
    }
    void release(const Statement& s)
    {
        if (s.owned)
            sqlite3_finalize(s.statement);
        else
            sqlite3_reset(s.statement);
    }
    /// Binds `rows` buffered rows starting at `firstRow` and runs the statement.
    void flush(const Statement& s, int firstRow, int rows)
    {
        const std::size_t first = static_cast<std::size_t>(firstRow) * static_cast<std::size_t>(m_columns);
        const int count = rows * m_columns;
        for (int i = 0; i < count; ++i) {
            const Value& v = m_values[first + static_cast<std::size_t>(i)];
            int rc = SQLITE_OK;
            switch (v.type) {
            case Value::Null:
                rc = sqlite3_bind_null(s.statement, i + 1);
                break;
            case Value::Int:
                rc = sqlite3_bind_int64(s.statement, i + 1, v.integer);
                break;
            case Value::Double:
                rc = sqlite3_bind_double(s.statement, i + 1, v.real);
                break;
            case Value::Text:
                rc = sqlite3_bind_text(
                    s.statement, i + 1, v.text.constData(), static_cast<int>(v.text.size()), SQLITE_STATIC);
                break;
            }
            if (rc != SQLITE_OK)
                throw DbException(messageOf(m_handle));
        }
        const int rc = sqlite3_step(s.statement);
        const QString message = rc == SQLITE_DONE ? QString() : messageOf(m_handle);
        sqlite3_reset(s.statement);
        if (rc != SQLITE_DONE)
            throw DbException(message);
        if (&s == &m_batch) {
            m_values.clear();
            m_rows = 0;
        }
    }

    SqliteDatabase& m_db;
    sqlite3* m_handle;
    int m_columns;
    int m_batchRows;
    Statement m_single;
    Statement m_batch;
    std::vector<Value> m_values;
    int m_rows = 0;
};

} // namespace

SqliteDatabase::SqliteDatabase(const QString& path)
    : m_path(path)
{
}

SqliteDatabase::~SqliteDatabase()
{
    rollback();
    for (auto& [sql, statement] : m_statements)
        sqlite3_finalize(statement);
    sqlite3_close_v2(m_db);
}

std::unique_ptr<SqliteDatabase> SqliteDatabase::open(const QString& path)
{
    std::unique_ptr<SqliteDatabase> db(new SqliteDatabase(path));
    try {
        db->connect(path.toUtf8(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    } catch (const DbException&) {
        // SQLite's errno is that of its last try (reading a file that does not exist); the cause
        // of a failed creation is the folder, asked with this thread's own credentials.
        const QString folder = QFileInfo(path).absolutePath();
        if (QFileInfo::exists(path)
            || faccessat(AT_FDCWD, QFile::encodeName(folder).constData(), W_OK | X_OK, AT_EACCESS) == 0)
            throw;
        throw DbException(QStringLiteral("cannot create the database file: its folder %1 is not writable (%2)")
                              .arg(folder, qt_error_string(errno)));
    }
    // SQLite opens a file it may not write read-only: reading works, every write is refused at its
    // begin() (docs/FORMATS.md 7.7), and the journal mode, a write, is left as it is. Without a
    // -wal or -journal file beside it the file holds the whole database: it is then read as an
    // immutable file, so that not even the shared-memory file of the write-ahead log (-shm) is
    // made, which a read-only folder would refuse and a writable one would keep.
    db->m_readOnly = sqlite3_db_readonly(db->m_db, "main") == 1;
    if (db->m_readOnly && !QFileInfo::exists(path + QStringLiteral("-wal"))
        && !QFileInfo::exists(path + QStringLiteral("-journal"))) {
        sqlite3_close_v2(db->m_db);
        db->m_db = nullptr;
        db->connect(
            "file:" + QUrl::toPercentEncoding(path, "/") + "?immutable=1", SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
    }
    // WAL and a busy timeout let a GUI and a CLI share the file; NORMAL sync is safe in WAL mode
    // (a power cut may lose the last commit, never corrupt); the WAL is trimmed after checkpoints.
    sqlite3_busy_timeout(db->m_db, 10000);
    if (!db->m_readOnly)
        db->execScript("PRAGMA journal_mode = WAL;");
    db->execScript("PRAGMA synchronous = NORMAL;"
                   "PRAGMA foreign_keys = ON;"
                   "PRAGMA cache_size = -65536;"
                   "PRAGMA temp_store = MEMORY;"
                   "PRAGMA journal_size_limit = 67108864;");
    db->initialise();
    return db;
}

void SqliteDatabase::connect(const QByteArray& file, int flags)
{
    if (sqlite3_open_v2(file.constData(), &m_db, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK)
        throw DbException(m_db ? messageOf(m_db) : QStringLiteral("out of memory opening the database"));
    sqlite3_extended_result_codes(m_db, 1);
}

QString SqliteDatabase::lastError() const { return messageOf(m_db); }

sqlite3_stmt* SqliteDatabase::prepare(std::string_view sql, bool& owned)
{
    const std::string key(sql);
    const auto it = m_statements.find(key);
    owned = false;
    if (it != m_statements.end() && !sqlite3_stmt_busy(it->second))
        return it->second;
    sqlite3_stmt* statement = nullptr;
    const int rc = sqlite3_prepare_v3(
        m_db, key.data(), static_cast<int>(key.size()), SQLITE_PREPARE_PERSISTENT, &statement, nullptr);
    if (rc != SQLITE_OK)
        throw DbException(lastError());
    if (it == m_statements.end())
        m_statements.emplace(key, statement);
    else
        owned = true;
    return statement;
}

void SqliteDatabase::bind(sqlite3_stmt* statement, const SqlParams& params)
{
    // Statements are written with $1..$n (the PostgreSQL spelling); SQLite takes them as named
    // parameters, numbered in order of first appearance, so map each name to its value.
    const int count = sqlite3_bind_parameter_count(statement);
    for (int i = 1; i <= count; ++i) {
        const char* name = sqlite3_bind_parameter_name(statement, i);
        std::size_t index = 0;
        if (!name || name[0] != '$'
            || std::from_chars(name + 1, name + std::char_traits<char>::length(name), index).ec != std::errc()
            || index < 1 || index > params.size())
            throw DbException(QStringLiteral("statement parameter %1 has no value").arg(QString::fromUtf8(name)));
        bindValue(m_db, statement, i, params[index - 1]);
    }
}

qint64 SqliteDatabase::exec(std::string_view sql, const SqlParams& params)
{
    bool owned = false;
    sqlite3_stmt* statement = prepare(sql, owned);
    SqliteRows rows(m_db, statement, owned);
    bind(statement, params);
    while (rows.next()) { }
    return sqlite3_changes64(m_db);
}

std::unique_ptr<SqlRows> SqliteDatabase::query(std::string_view sql, const SqlParams& params)
{
    bool owned = false;
    sqlite3_stmt* statement = prepare(sql, owned);
    auto rows = std::make_unique<SqliteRows>(m_db, statement, owned);
    bind(statement, params);
    return rows;
}

std::unique_ptr<SqlRows> SqliteDatabase::stream(std::string_view sql, const SqlParams& params)
{
    return query(sql, params);
}

void SqliteDatabase::execScript(const QByteArray& script)
{
    char* message = nullptr;
    if (sqlite3_exec(m_db, script.constData(), nullptr, nullptr, &message) != SQLITE_OK) {
        const QString text = message ? explained(m_db, QString::fromUtf8(message)) : lastError();
        sqlite3_free(message);
        throw DbException(text);
    }
}

void SqliteDatabase::begin(bool write)
{
    m_nextIds.clear();
    if (write && m_readOnly)
        throw DbException(QStringLiteral("the database file is read-only (no permission to write it), so nothing "
                                         "can be stored or changed in it"));
    execScript(write ? "BEGIN IMMEDIATE" : "BEGIN");
    m_inTransaction = true;
}

void SqliteDatabase::commit()
{
    m_nextIds.clear();
    execScript("COMMIT");
    m_inTransaction = false;
}

void SqliteDatabase::rollback()
{
    m_nextIds.clear();
    m_inTransaction = false;
    if (m_db && !sqlite3_get_autocommit(m_db))
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
}

std::unique_ptr<BulkWriter> SqliteDatabase::bulkInsert(
    std::string_view table, const std::vector<std::string_view>& columns, BulkWriter::Format)
{
    return std::make_unique<SqliteBulkWriter>(*this, m_db, std::string(table), columns);
}

IdBlock SqliteDatabase::reserveIds(std::string_view table, qint64 count)
{
    // Under BEGIN IMMEDIATE nobody else writes: the next ids follow the largest ever handed out
    // (AUTOINCREMENT's sqlite_sequence, which an explicit id also advances).
    const std::string key(table);
    auto it = m_nextIds.find(key);
    if (it == m_nextIds.end()) {
        qint64 last = 0;
        {
            auto rows = query("SELECT MAX(id) FROM " + key);
            if (rows->next())
                last = rows->toInt(0);
        }
        if (tableExists("sqlite_sequence")) {
            auto rows = query("SELECT seq FROM sqlite_sequence WHERE name = $1", { QString::fromStdString(key) });
            if (rows->next())
                last = std::max(last, rows->toInt(0));
        }
        it = m_nextIds.emplace(key, last + 1).first;
    }
    IdBlock block;
    block.addRange(it->second, count);
    it->second += count;
    return block;
}

bool SqliteDatabase::tableExists(std::string_view table)
{
    auto rows = query("SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = $1",
        { QString::fromUtf8(table.data(), static_cast<qsizetype>(table.size())) });
    return rows->next();
}

QString SqliteDatabase::columnType(std::string_view table, std::string_view column)
{
    auto rows = query("SELECT type FROM pragma_table_info($1) WHERE name = $2",
        { QString::fromUtf8(table.data(), static_cast<qsizetype>(table.size())),
            QString::fromUtf8(column.data(), static_cast<qsizetype>(column.size())) });
    return rows->next() ? rows->toText(0).toLower() : QString();
}

} // namespace parallax::perfdb
