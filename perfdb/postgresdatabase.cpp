// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "perfdb/postgresdatabase.h"

#include "perfdb/dbexception.h"

#include <QRegularExpression>
#include <QStringList>
#include <QtEndian>
#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <libpq-fe.h>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace parallax::perfdb {

namespace {

// Type oids (pg_type.dat); fixed since PostgreSQL 7.
constexpr Oid BoolOid = 16;
constexpr Oid NameOid = 19;
constexpr Oid Int8Oid = 20;
constexpr Oid Int2Oid = 21;
constexpr Oid Int4Oid = 23;
constexpr Oid TextOid = 25;
constexpr Oid OidOid = 26;
constexpr Oid Float4Oid = 700;
constexpr Oid Float8Oid = 701;
constexpr Oid UnknownOid = 705;
constexpr Oid BpcharOid = 1042;
constexpr Oid VarcharOid = 1043;

constexpr std::size_t CopyBuffer = 1 << 20;

struct ResultDeleter {
    void operator()(PGresult* result) const { PQclear(result); }
};
using Result = std::unique_ptr<PGresult, ResultDeleter>;

bool isInteger(Oid type) { return type == Int2Oid || type == Int4Oid || type == Int8Oid || type == OidOid; }

bool isFloat(Oid type) { return type == Float4Oid || type == Float8Oid; }

bool isText(Oid type)
{
    return type == TextOid || type == VarcharOid || type == BpcharOid || type == NameOid || type == UnknownOid;
}

/// Shortest text that reads back as the same double (std::to_chars), in PostgreSQL's spelling
/// for the special values.
void appendDouble(std::string& out, double value)
{
    if (std::isnan(value)) {
        out += "NaN";
        return;
    }
    if (std::isinf(value)) {
        out += value > 0 ? "Infinity" : "-Infinity";
        return;
    }
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    out.append(buffer, end);
}

void appendInt(std::string& out, qint64 value)
{
    char buffer[24];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    out.append(buffer, end);
}

qint64 truncated(double value)
{
    if (!std::isfinite(value))
        return 0;
    return static_cast<qint64>(std::clamp(std::trunc(value), -9.2e18, 9.2e18));
}

/// A big-endian integer of PostgreSQL's binary format, at any alignment.
template <typename T> T readBigEndian(const char* bytes) { return qFromBigEndian<T>(bytes); }

template <typename T> void appendBigEndian(std::string& out, T value)
{
    char bytes[sizeof(T)];
    qToBigEndian<T>(value, bytes);
    out.append(bytes, sizeof bytes);
}

qint64 binaryInt(Oid type, const char* value)
{
    switch (type) {
    case Int2Oid:
        return readBigEndian<qint16>(value);
    case Int4Oid:
    case OidOid:
        return readBigEndian<qint32>(value);
    case Int8Oid:
        return readBigEndian<qint64>(value);
    case BoolOid:
        return value[0] ? 1 : 0;
    default:
        throw DbException(QStringLiteral("cannot read a column of type %1 as a number").arg(type));
    }
}

/// The error of a failed statement (`result`, or the connection's last error without one): the
/// server's message; when the connection is gone (a server restart, pg_terminate_backend, a cut
/// network), first saying so, since libpq's words for it vary (docs/FORMATS.md 7.7).
QString errorOf(PGconn* conn, const PGresult* result)
{
    QString message = result ? QString::fromUtf8(PQresultErrorMessage(result)).trimmed() : QString();
    if (message.isEmpty())
        message = QString::fromUtf8(PQerrorMessage(conn)).trimmed();
    if (PQstatus(conn) != CONNECTION_OK)
        return QStringLiteral("lost the connection to the PostgreSQL server (%1)").arg(message.simplified());
    return message;
}

/// libpq's last error on the connection, as a DbException.
[[noreturn]] void throwConnectionError(PGconn* conn) { throw DbException(errorOf(conn, nullptr)); }

/// Collects the results that follow the end of a COPY; throws the first error among them.
void finishCopy(PGconn* conn)
{
    QString message;
    while (PGresult* result = PQgetResult(conn)) {
        if (PQresultStatus(result) != PGRES_COMMAND_OK && message.isEmpty())
            message = errorOf(conn, result);
        PQclear(result);
    }
    if (!message.isEmpty())
        throw DbException(message);
}

/// Query rows from one PGresult in text format (PostgreSQL 12+ prints doubles in their
/// shortest exact form, and std::from_chars reads them back bit for bit).
class PostgresRows : public SqlRows {
public:
    explicit PostgresRows(Result result)
        : m_result(std::move(result))
        , m_count(PQntuples(m_result.get()))
    {
    }
    bool next() override { return ++m_row < m_count; }
    bool isNull(int column) const override { return PQgetisnull(m_result.get(), m_row, column); }
    qint64 toInt(int column) const override
    {
        if (isNull(column))
            return 0;
        const char* value = PQgetvalue(m_result.get(), m_row, column);
        const int length = PQgetlength(m_result.get(), m_row, column);
        if (length == 1 && (value[0] == 't' || value[0] == 'f'))
            return value[0] == 't' ? 1 : 0;
        qint64 out = 0;
        const auto parsed = std::from_chars(value, value + length, out);
        if (parsed.ec == std::errc() && parsed.ptr == value + length)
            return out;
        return truncated(toDouble(column));
    }
    double toDouble(int column) const override
    {
        if (isNull(column))
            return 0.0;
        const char* value = PQgetvalue(m_result.get(), m_row, column);
        const int length = PQgetlength(m_result.get(), m_row, column);
        double out = 0;
        std::from_chars(value, value + length, out);
        return out;
    }
    QString toText(int column) const override
    {
        if (isNull(column))
            return QString(QLatin1String(""));
        return QString::fromUtf8(PQgetvalue(m_result.get(), m_row, column), PQgetlength(m_result.get(), m_row, column));
    }

private:
    Result m_result;
    int m_row = -1;
    int m_count = 0;
};

/// The rows of COPY (query) TO STDOUT in binary format, parsed as they arrive: no result
/// set is built, so big reads cost little more than the server's scan. Column types come
/// from describing the query once.
class PostgresCopyRows : public SqlRows {
public:
    PostgresCopyRows(PGconn* conn, std::vector<Oid> types, bool endTransaction)
        : m_conn(conn)
        , m_endTransaction(endTransaction)
        , m_types(std::move(types))
        , m_fields(m_types.size())
        , m_lengths(m_types.size())
    {
    }
    ~PostgresCopyRows() override
    {
        release();
        if (!m_done) {
            // Stopped early (an error or a cancel): ask the server to stop, then drain.
            if (PGcancel* cancel = PQgetCancel(m_conn)) {
                char message[256];
                PQcancel(cancel, message, sizeof message);
                PQfreeCancel(cancel);
            }
            char* buffer = nullptr;
            while (PQgetCopyData(m_conn, &buffer, 0) >= 0)
                PQfreemem(buffer);
            while (PGresult* result = PQgetResult(m_conn))
                PQclear(result);
        }
        if (m_endTransaction)
            PQclear(PQexec(m_conn, "ROLLBACK"));
    }
    bool next() override
    {
        while (!m_done) {
            release();
            const int size = PQgetCopyData(m_conn, &m_buffer, 0);
            if (size == -1) {
                m_done = true;
                finishCopy(m_conn);
                return false;
            }
            if (size < 0) {
                m_done = true;
                throwConnectionError(m_conn);
            }
            const char* at = m_buffer;
            const char* end = m_buffer + size;
            if (!m_headerSeen) {
                // PGCOPY\n\377\r\n\0, flags, header extension length and bytes.
                if (size < 19)
                    throw DbException(QStringLiteral("bad binary COPY header"));
                const qint32 extension = readBigEndian<qint32>(at + 15);
                at += 19 + extension;
                m_headerSeen = true;
            }
            if (end - at < 2)
                throw DbException(QStringLiteral("short binary COPY row"));
            const qint16 count = readBigEndian<qint16>(at);
            at += 2;
            if (count == -1)
                continue; // trailer; the end follows
            if (count != static_cast<qint16>(m_types.size()))
                throw DbException(
                    QStringLiteral("binary COPY row has %1 fields, expected %2").arg(count).arg(m_types.size()));
            for (std::size_t i = 0; i < m_types.size(); ++i) {
                if (end - at < 4)
                    throw DbException(QStringLiteral("short binary COPY row"));
                const qint32 length = readBigEndian<qint32>(at);
                at += 4;
                m_lengths[i] = length;
                m_fields[i] = at;
                if (length > 0) {
                    if (end - at < length)
                        throw DbException(QStringLiteral("short binary COPY row"));
                    at += length;
                }
            }
            return true;
        }
        return false;
    }
    bool isNull(int column) const override { return m_lengths[static_cast<std::size_t>(column)] < 0; }
    qint64 toInt(int column) const override
    {
        if (isNull(column))
            return 0;
        const Oid type = m_types[static_cast<std::size_t>(column)];
        if (isFloat(type))
            return truncated(toDouble(column));
        return binaryInt(type, m_fields[static_cast<std::size_t>(column)]);
    }
    double toDouble(int column) const override
    {
        if (isNull(column))
            return 0.0;
        const Oid type = m_types[static_cast<std::size_t>(column)];
        const char* value = m_fields[static_cast<std::size_t>(column)];
        if (type == Float8Oid)
            return std::bit_cast<double>(readBigEndian<quint64>(value));
        if (type == Float4Oid)
            return static_cast<double>(std::bit_cast<float>(readBigEndian<quint32>(value)));
        return static_cast<double>(binaryInt(type, value));
    }
    QString toText(int column) const override
    {
        if (isNull(column))
            return QString(QLatin1String(""));
        const Oid type = m_types[static_cast<std::size_t>(column)];
        if (isInteger(type) || type == BoolOid)
            return QString::number(toInt(column));
        if (isFloat(type))
            return QString::number(toDouble(column), 'g', 17);
        return QString::fromUtf8(
            m_fields[static_cast<std::size_t>(column)], m_lengths[static_cast<std::size_t>(column)]);
    }

private:
    void release()
    {
        if (m_buffer)
            PQfreemem(m_buffer);
        m_buffer = nullptr;
    }

    PGconn* m_conn;
    bool m_endTransaction;
    std::vector<Oid> m_types;
    std::vector<const char*> m_fields;
    std::vector<qint32> m_lengths;
    char* m_buffer = nullptr;
    bool m_headerSeen = false;
    bool m_done = false;
};

/// COPY table (columns) FROM STDIN: text format with PostgreSQL's escapes, or binary for tables of
/// numbers (half the server's parsing time). Values are converted to each column's real type, so a
/// foreign TAUdb with INT calls columns gets integers (truncated, as TAU's loader does).
class PostgresCopyWriter : public BulkWriter {
public:
    PostgresCopyWriter(PGconn* conn, const std::string& table, const std::vector<std::string_view>& columns,
        std::vector<Oid> types, bool binary, bool freeze)
        : m_conn(conn)
        , m_types(std::move(types))
        , m_binary(binary)
    {
        std::string sql = "COPY " + table + " (";
        for (std::size_t i = 0; i < columns.size(); ++i) {
            if (i > 0)
                sql += ", ";
            sql += columns[i];
        }
        sql += ") FROM STDIN WITH (FORMAT ";
        sql += m_binary ? "binary" : "text";
        // A table made in this transaction can take its rows frozen: no hint bits to set and
        // no freezing vacuum later.
        sql += freeze ? ", FREEZE)" : ")";
        Result result(PQexec(m_conn, sql.c_str()));
        if (PQresultStatus(result.get()) != PGRES_COPY_IN)
            throw DbException(errorOf(m_conn, result.get()));
        m_open = true;
        m_buffer.reserve(CopyBuffer + 4096);
        if (m_binary) {
            static const char header[] = "PGCOPY\n\377\r\n";
            m_buffer.append(header, 11);
            appendBigEndian<qint32>(m_buffer, 0); // flags
            appendBigEndian<qint32>(m_buffer, 0); // header extension
        }
    }
    ~PostgresCopyWriter() override
    {
        if (!m_open)
            return;
        // Abandoned (an error or a cancel while writing): end the COPY with an error, which aborts
        // the transaction; the caller rolls back.
        PQputCopyEnd(m_conn, "upload abandoned");
        while (PGresult* result = PQgetResult(m_conn))
            PQclear(result);
    }
    void addNull() override
    {
        if (m_binary) {
            field();
            appendBigEndian<qint32>(m_buffer, -1);
        } else {
            field();
            m_buffer += "\\N";
        }
    }
    void addInt(qint64 value) override
    {
        const Oid type = field();
        if (isFloat(type))
            return writeDouble(type, static_cast<double>(value));
        writeInt(type, value);
    }
    void addDouble(double value) override
    {
        const Oid type = field();
        if (isInteger(type) || type == BoolOid)
            return writeInt(type, truncated(value));
        writeDouble(type, value);
    }
    void addBool(bool value) override
    {
        const Oid type = field();
        if (type == BoolOid) {
            if (m_binary) {
                appendBigEndian<qint32>(m_buffer, 1);
                m_buffer += value ? '\1' : '\0';
            } else {
                m_buffer += value ? 't' : 'f';
            }
            return;
        }
        writeInt(type, value ? 1 : 0);
    }
    void addText(const QString& value) override
    {
        const Oid type = field();
        const QByteArray utf8 = value.toUtf8();
        if (m_binary) {
            if (!isText(type))
                throw DbException(QStringLiteral("binary COPY of text into a column of type %1").arg(type));
            appendBigEndian<qint32>(m_buffer, static_cast<qint32>(utf8.size()));
            m_buffer.append(utf8.constData(), static_cast<std::size_t>(utf8.size()));
            return;
        }
        // COPY text format: backslash, tab, newline and carriage return are escaped; \N is NULL.
        for (char c : utf8) {
            switch (c) {
            case '\\':
                m_buffer += "\\\\";
                break;
            case '\t':
                m_buffer += "\\t";
                break;
            case '\n':
                m_buffer += "\\n";
                break;
            case '\r':
                m_buffer += "\\r";
                break;
            default:
                m_buffer += c;
            }
        }
    }
    void endRow() override
    {
        if (m_column != m_types.size())
            throw DbException(QStringLiteral("a COPY row has %1 of %2 values").arg(m_column).arg(m_types.size()));
        if (!m_binary)
            m_buffer += '\n';
        m_column = 0;
        if (m_buffer.size() >= CopyBuffer)
            flush();
    }
    void finish() override
    {
        if (m_binary)
            appendBigEndian<qint16>(m_buffer, -1);
        flush();
        m_open = false;
        if (PQputCopyEnd(m_conn, nullptr) != 1)
            throwConnectionError(m_conn);
        finishCopy(m_conn);
    }

private:
    /// Starts the next field (separator or field count) and returns its column type.
    Oid field()
    {
        if (m_column >= m_types.size())
            throw DbException(QStringLiteral("a COPY row has more than %1 values").arg(m_types.size()));
        if (m_binary) {
            if (m_column == 0)
                appendBigEndian<qint16>(m_buffer, static_cast<qint16>(m_types.size()));
        } else if (m_column > 0) {
            m_buffer += '\t';
        }
        return m_types[m_column++];
    }
    void writeInt(Oid type, qint64 value)
    {
        if (!m_binary) {
            if (type == BoolOid)
                m_buffer += value != 0 ? 't' : 'f';
            else
                appendInt(m_buffer, value);
            return;
        }
        switch (type) {
        case Int2Oid:
            appendBigEndian<qint32>(m_buffer, 2);
            appendBigEndian<qint16>(m_buffer, static_cast<qint16>(value));
            break;
        case Int4Oid:
        case OidOid:
            appendBigEndian<qint32>(m_buffer, 4);
            appendBigEndian<qint32>(m_buffer, static_cast<qint32>(value));
            break;
        case Int8Oid:
            appendBigEndian<qint32>(m_buffer, 8);
            appendBigEndian<qint64>(m_buffer, value);
            break;
        case BoolOid:
            appendBigEndian<qint32>(m_buffer, 1);
            m_buffer += value != 0 ? '\1' : '\0';
            break;
        default:
            throw DbException(QStringLiteral("binary COPY of an integer into a column of type %1").arg(type));
        }
    }
    void writeDouble(Oid type, double value)
    {
        if (!m_binary) {
            appendDouble(m_buffer, value);
            return;
        }
        if (type == Float8Oid) {
            appendBigEndian<qint32>(m_buffer, 8);
            appendBigEndian<quint64>(m_buffer, std::bit_cast<quint64>(value));
        } else if (type == Float4Oid) {
            appendBigEndian<qint32>(m_buffer, 4);
            appendBigEndian<quint32>(m_buffer, std::bit_cast<quint32>(static_cast<float>(value)));
        } else {
            throw DbException(QStringLiteral("binary COPY of a double into a column of type %1").arg(type));
        }
    }
    void flush()
    {
        if (m_buffer.empty())
            return;
        if (PQputCopyData(m_conn, m_buffer.data(), static_cast<int>(m_buffer.size())) != 1)
            throwConnectionError(m_conn);
        m_buffer.clear();
    }

    PGconn* m_conn;
    std::vector<Oid> m_types;
    bool m_binary;
    bool m_open = false;
    std::size_t m_column = 0;
    std::string m_buffer;
};

/// Keeps the parameter texts alive for PQexecParams.
class Parameters {
public:
    explicit Parameters(const SqlParams& params)
    {
        m_texts.reserve(params.size());
        for (const SqlValue& value : params) {
            std::string text;
            switch (value.type()) {
            case SqlValue::Type::Null:
                break;
            case SqlValue::Type::Int:
                appendInt(text, value.toInt());
                break;
            case SqlValue::Type::Double:
                appendDouble(text, value.toDouble());
                break;
            case SqlValue::Type::Text: {
                const QByteArray utf8 = value.toText().toUtf8();
                text.assign(utf8.constData(), static_cast<std::size_t>(utf8.size()));
                break;
            }
            }
            m_texts.push_back(std::move(text));
        }
        for (std::size_t i = 0; i < params.size(); ++i)
            m_values.push_back(params[i].isNull() ? nullptr : m_texts[i].c_str());
    }
    int count() const { return static_cast<int>(m_values.size()); }
    const char* const* values() const { return m_values.data(); }

private:
    std::vector<std::string> m_texts;
    std::vector<const char*> m_values;
};

void ignoreNotice(void*, const char*) { }

/// Runs one parameterised statement on a connection; returns the number of rows it changed.
qint64 execOn(PGconn* conn, const std::string& sql, const SqlParams& params)
{
    const Parameters parameters(params);
    Result result(
        PQexecParams(conn, sql.c_str(), parameters.count(), nullptr, parameters.values(), nullptr, nullptr, 0));
    const ExecStatusType status = PQresultStatus(result.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
        throw DbException(errorOf(conn, result.get()));
    const char* changed = PQcmdTuples(result.get());
    qint64 count = 0;
    std::from_chars(changed, changed + std::strlen(changed), count);
    return count;
}

/// COPY (query) TO STDOUT in binary: the fastest way out of PostgreSQL (no result set is
/// built, numbers need no text parsing). COPY takes no parameters. An integer goes into the
/// SQL as a literal that Parallax formats itself (digits only, nothing a user typed): the
/// planner then sees the range and, with the partition's statistics (finishPartitions), reads
/// a whole trial's partition sequentially instead of through its index, about 20 % less server
/// time per stream. Text and doubles travel through a parameterised set_config() into a
/// transaction-local setting that the query reads back once with current_setting().
std::unique_ptr<SqlRows> copyOut(PGconn* conn, std::string_view sql, const SqlParams& params, bool endTransaction)
{
    static const QRegularExpression placeholder(QStringLiteral(R"(\$(\d+))"));
    const QString text = QString::fromUtf8(sql.data(), static_cast<qsizetype>(sql.size()));
    QString rewritten;
    qsizetype from = 0;
    for (auto it = placeholder.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        const std::size_t index = match.captured(1).toULongLong();
        if (index < 1 || index > params.size() || params[index - 1].isNull())
            throw DbException(QStringLiteral("stream parameter $%1 has no value").arg(index));
        const SqlValue::Type type = params[index - 1].type();
        rewritten += text.mid(from, match.capturedStart() - from);
        from = match.capturedEnd();
        if (type == SqlValue::Type::Int) {
            rewritten += QStringLiteral("CAST(%1 AS BIGINT)").arg(params[index - 1].toInt());
            continue;
        }
        const char* sqlType = type == SqlValue::Type::Double ? "DOUBLE PRECISION" : "TEXT";
        // A scalar subquery: evaluated once (an InitPlan), not once per row.
        rewritten += QStringLiteral("(SELECT CAST(current_setting('parallax.p%1') AS %2))")
                         .arg(index)
                         .arg(QLatin1String(sqlType));
    }
    rewritten += text.mid(from);
    for (std::size_t i = 0; i < params.size(); ++i) {
        const SqlValue& value = params[i];
        if (value.type() == SqlValue::Type::Int)
            continue;
        const QString setting
            = value.type() == SqlValue::Type::Double ? QString::number(value.toDouble(), 'g', 17) : value.toText();
        execOn(conn, "SELECT set_config($1, $2, true)", { QStringLiteral("parallax.p%1").arg(i + 1), setting });
    }
    const QByteArray query = rewritten.toUtf8();
    std::vector<Oid> types;
    {
        const QByteArray describe = "SELECT * FROM (" + query + ") parallax_described LIMIT 0";
        Result result(PQexec(conn, describe.constData()));
        if (PQresultStatus(result.get()) != PGRES_TUPLES_OK)
            throw DbException(errorOf(conn, result.get()));
        for (int i = 0; i < PQnfields(result.get()); ++i)
            types.push_back(PQftype(result.get(), i));
    }
    const QByteArray copy = "COPY (" + query + ") TO STDOUT WITH (FORMAT binary)";
    Result result(PQexec(conn, copy.constData()));
    if (PQresultStatus(result.get()) != PGRES_COPY_OUT)
        throw DbException(errorOf(conn, result.get()));
    return std::make_unique<PostgresCopyRows>(conn, std::move(types), endTransaction);
}

/// A parsed connection: libpq's own parser (PQconninfoParse: URIs and keyword/value strings,
/// percent-decoding, quoting) gives the options given; Parallax edits that list and writes it
/// back as a keyword/value string, never rewriting the text itself.
class ConnectionOptions {
public:
    static ConnectionOptions parse(const QString& connection)
    {
        const QByteArray text = connection.trimmed().toUtf8();
        char* error = nullptr;
        PQconninfoOption* options = PQconninfoParse(text.constData(), &error);
        if (!options) {
            const QString message
                = error ? QString::fromUtf8(error).trimmed() : QStringLiteral("out of memory parsing it");
            if (error)
                PQfreemem(error);
            throw DbException(QStringLiteral("invalid PostgreSQL connection string: ") + redactQuoted(message));
        }
        ConnectionOptions out;
        for (const PQconninfoOption* o = options; o->keyword; ++o)
            if (o->val)
                out.m_options.emplace_back(o->keyword, o->val);
        PQconninfoFree(options);
        return out;
    }

    ConnectionOptions without(const char* keyword) const
    {
        ConnectionOptions out = *this;
        std::erase_if(out.m_options, [&](const auto& o) { return o.first == keyword; });
        return out;
    }

    /// With `keyword` set to `value`; "options" (server command-line options) are appended to
    /// any given, so a later -c wins and the user's own stay.
    ConnectionOptions with(const char* keyword, const QString& value) const
    {
        ConnectionOptions out = without(keyword);
        std::string v = value.toStdString();
        if (std::strcmp(keyword, "options") == 0)
            if (const std::string* old = find(keyword); old && !old->empty())
                v = *old + ' ' + v;
        out.m_options.emplace_back(keyword, std::move(v));
        return out;
    }

    const std::string* find(const char* keyword) const
    {
        for (const auto& [k, v] : m_options)
            if (k == keyword)
                return &v;
        return nullptr;
    }

    /// keyword='value' pairs, '\\' and '\'' escaped (PostgreSQL manual 34.1.1.1).
    QString toString() const
    {
        std::string out;
        for (const auto& [k, v] : m_options) {
            if (!out.empty())
                out += ' ';
            out += k + "='";
            for (const char c : v) {
                if (c == '\\' || c == '\'')
                    out += '\\';
                out += c;
            }
            out += '\'';
        }
        return QString::fromStdString(out);
    }

    /// `message` with the password of this connection and PGPASSWORD's replaced by "***". libpq
    /// does not print passwords; this keeps it so whatever a server or a later libpq says.
    /// Secrets shorter than 4 characters are left (replacing them would garble the message).
    QString scrub(QString message) const
    {
        QStringList secrets;
        if (const std::string* password = find("password"))
            secrets << QString::fromStdString(*password);
        secrets << qEnvironmentVariable("PGPASSWORD");
        for (const QString& secret : std::as_const(secrets))
            if (secret.size() >= 4)
                message.replace(secret, QStringLiteral("***"));
        return message;
    }

private:
    /// libpq's parse errors quote the offending text ("invalid percent-encoded token: \"...\"",
    /// "missing \"=\" after \"...\""), which may be (part of) a password: every quoted fragment
    /// that is not a libpq keyword or a single character becomes "...".
    static QString redactQuoted(const QString& message)
    {
        static const QStringList keywords = [] {
            QStringList out;
            if (PQconninfoOption* defaults = PQconndefaults()) {
                for (const PQconninfoOption* o = defaults; o->keyword; ++o)
                    out << QString::fromUtf8(o->keyword);
                PQconninfoFree(defaults);
            }
            return out;
        }();
        QString out;
        qsizetype at = 0;
        while (at < message.size()) {
            const qsizetype open = message.indexOf(QLatin1Char('"'), at);
            const qsizetype close = open < 0 ? -1 : message.indexOf(QLatin1Char('"'), open + 1);
            if (open < 0) {
                out += message.mid(at);
                break;
            }
            if (close < 0) { // an unterminated quote: nothing after it is shown
                out += message.mid(at, open - at + 1) + QStringLiteral("...");
                break;
            }
            const QString fragment = message.mid(open + 1, close - open - 1);
            out += message.mid(at, open - at + 1);
            out += fragment.size() <= 1 || keywords.contains(fragment) ? fragment : QStringLiteral("...");
            out += QLatin1Char('"');
            at = close + 1;
        }
        return out;
    }

    std::vector<std::pair<std::string, std::string>> m_options;
};

/// Connects with the settings every Parallax connection uses. libpq parses the connection
/// string itself (PQconnectdbParams with expand_dbname); it is checked with PQconninfoParse
/// first so that a malformed string gets an error without its password, and every libpq
/// message is scrubbed of the password it was given (string or PGPASSWORD).
PGconn* connect(const QString& connection)
{
    const ConnectionOptions options = ConnectionOptions::parse(connection);
    const QByteArray conninfo = connection.trimmed().toUtf8();
    const char* keywords[] = { "dbname", "fallback_application_name", "client_encoding", nullptr };
    const char* values[] = { conninfo.constData(), "parallax", "UTF8", nullptr };
    PGconn* conn = PQconnectdbParams(keywords, values, 1);
    if (!conn)
        throw DbException(QStringLiteral("out of memory connecting to PostgreSQL"));
    if (PQstatus(conn) != CONNECTION_OK || PQsetClientEncoding(conn, "UTF8") != 0) {
        const QString message = options.scrub(QString::fromUtf8(PQerrorMessage(conn)).trimmed());
        PQfinish(conn);
        throw DbException(message);
    }
    PQsetNoticeProcessor(conn, ignoreNotice, nullptr);
    // Shortest exact text for doubles (PostgreSQL 12+ does so for any value > 0).
    Result result(PQexec(conn, "SET extra_float_digits = 3"));
    return conn;
}

} // namespace

PostgresDatabase::~PostgresDatabase()
{
    if (m_helper)
        PQfinish(m_helper);
    if (m_conn) {
        rollback();
        PQfinish(m_conn);
    }
}

QString PostgresDatabase::withoutPassword(const QString& connection)
{
    try {
        return ConnectionOptions::parse(connection).without("password").toString();
    } catch (const DbException&) {
        // Unparsable: nothing of it is shown, since libpq cannot tell where a password would be.
        return QStringLiteral("(a malformed PostgreSQL connection string)");
    }
}

QString PostgresDatabase::withDatabase(const QString& connection, const QString& database)
{
    return ConnectionOptions::parse(connection).with("dbname", database).toString();
}

namespace {

DbResult<Done> administer(const QString& connection, const QString& database, const char* verb)
{
    PGconn* conn = nullptr;
    auto fail = [&](const QString& message) {
        if (conn)
            PQfinish(conn);
        return DbError { PostgresDatabase::withoutPassword(connection), message };
    };
    try {
        conn = connect(connection);
    } catch (const DbException& e) {
        return fail(e.message());
    }
    const QByteArray name = database.toUtf8();
    char* identifier = PQescapeIdentifier(conn, name.constData(), static_cast<std::size_t>(name.size()));
    if (!identifier)
        return fail(QString::fromUtf8(PQerrorMessage(conn)).trimmed());
    const std::string sql = std::string(verb) + identifier;
    PQfreemem(identifier);
    Result result(PQexec(conn, sql.c_str()));
    if (PQresultStatus(result.get()) != PGRES_COMMAND_OK)
        return fail(QString::fromUtf8(PQresultErrorMessage(result.get())).trimmed());
    result.reset();
    PQfinish(conn);
    return Done {};
}

} // namespace

DbResult<Done> PostgresDatabase::createDatabase(const QString& connection, const QString& database)
{
    return administer(connection, database, "CREATE DATABASE ");
}

DbResult<Done> PostgresDatabase::dropDatabase(const QString& connection, const QString& database)
{
    return administer(connection, database, "DROP DATABASE IF EXISTS ");
}

DbResult<Done> PostgresDatabase::createSchema(const QString& connection, const QString& schema)
{
    return administer(connection, schema, "CREATE SCHEMA ");
}

QString PostgresDatabase::withSchema(const QString& connection, const QString& schema)
{
    // search_path takes identifiers: double-quoted, '"' doubled, so capitals, spaces and quotes
    // survive. In libpq's "options" a blank separates arguments and '\' escapes (libpq 34.1.2).
    QString identifier = schema;
    identifier.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    QString argument = QStringLiteral("-csearch_path=\"") + identifier + QLatin1Char('"');
    QString escaped;
    for (const QChar c : argument) {
        if (c == QLatin1Char('\\') || c.isSpace())
            escaped += QLatin1Char('\\');
        escaped += c;
    }
    return ConnectionOptions::parse(connection).with("options", escaped).toString();
}

std::unique_ptr<PostgresDatabase> PostgresDatabase::open(const QString& connection)
{
    std::unique_ptr<PostgresDatabase> db(new PostgresDatabase);
    db->m_location = withoutPassword(connection);
    db->m_connection = connection;
    db->m_conn = connect(connection);
    db->initialise();
    return db;
}

qint64 PostgresDatabase::exec(std::string_view sql, const SqlParams& params)
{
    return execOn(m_conn, std::string(sql), params);
}

std::unique_ptr<SqlRows> PostgresDatabase::query(std::string_view sql, const SqlParams& params)
{
    const std::string text(sql);
    const Parameters parameters(params);
    Result result(
        PQexecParams(m_conn, text.c_str(), parameters.count(), nullptr, parameters.values(), nullptr, nullptr, 0));
    const ExecStatusType status = PQresultStatus(result.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
        throw DbException(errorOf(m_conn, result.get()));
    return std::make_unique<PostgresRows>(std::move(result));
}

std::unique_ptr<SqlRows> PostgresDatabase::stream(std::string_view sql, const SqlParams& params)
{
    return copyOut(m_conn, sql, params, false);
}

std::unique_ptr<SqlRows> PostgresDatabase::parallelStream(std::string_view sql, const SqlParams& params)
{
    // A helper connection reads in the same snapshot as this transaction (pg_export_snapshot), so
    // the server scans two tables at once, on two cores.
    if (m_helper && PQstatus(m_helper) != CONNECTION_OK) {
        PQfinish(m_helper);
        m_helper = nullptr;
    }
    if (!m_helper)
        m_helper = connect(m_connection);
    auto rows = query("SELECT pg_export_snapshot()");
    const QString snapshot = rows->next() ? rows->toText(0) : QString();
    rows.reset();
    // SET TRANSACTION SNAPSHOT takes no parameter; the id is the server's own, checked anyway.
    static const QRegularExpression snapshotId(QStringLiteral("^[0-9A-Fa-f-]+$"));
    if (!snapshotId.match(snapshot).hasMatch())
        throw DbException(QStringLiteral("unexpected snapshot id \"%1\"").arg(snapshot));
    try {
        try {
            execOn(m_helper, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", {});
        } catch (const DbException&) {
            // A helper that was cut while it was idle says so only now: connect it again, once.
            if (PQstatus(m_helper) == CONNECTION_OK)
                throw;
            PQfinish(m_helper);
            m_helper = nullptr;
            m_helper = connect(m_connection);
            execOn(m_helper, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", {});
        }
        execOn(m_helper, "SET TRANSACTION SNAPSHOT '" + snapshot.toStdString() + "'", {});
        return copyOut(m_helper, sql, params, true);
    } catch (...) {
        PQclear(PQexec(m_helper, "ROLLBACK"));
        throw;
    }
}

void PostgresDatabase::execScript(const QByteArray& script)
{
    Result result(PQexec(m_conn, script.constData()));
    const ExecStatusType status = PQresultStatus(result.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
        throw DbException(errorOf(m_conn, result.get()));
}

void PostgresDatabase::begin(bool write)
{
    // A connection lost since the last transaction (a server restart, pg_terminate_backend) is
    // made again: between transactions there is nothing to lose (docs/FORMATS.md 7.7).
    if (PQstatus(m_conn) != CONNECTION_OK) {
        PGconn* fresh = connect(m_connection);
        PQfinish(m_conn);
        m_conn = fresh;
        m_idLockHeld = false;
        // The helper most likely went the same way, unnoticed while it was idle.
        if (m_helper)
            PQfinish(m_helper);
        m_helper = nullptr;
    }
    // Reads see one snapshot across their several queries.
    execScript(write ? "BEGIN" : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
}

void PostgresDatabase::commit()
{
    m_pendingPartitions.clear();
    Result result(PQexec(m_conn, "COMMIT"));
    if (PQresultStatus(result.get()) != PGRES_COMMAND_OK)
        throw DbException(errorOf(m_conn, result.get()));
    // COMMIT of a failed transaction reports ROLLBACK instead of an error.
    if (std::strcmp(PQcmdStatus(result.get()), "ROLLBACK") == 0)
        throw DbException(QStringLiteral("the transaction was rolled back"));
}

void PostgresDatabase::rollback()
{
    m_pendingPartitions.clear();
    if (m_conn && PQtransactionStatus(m_conn) != PQTRANS_IDLE)
        PQclear(PQexec(m_conn, "ROLLBACK"));
    // An error inside reserveIds() may have left its session-level lock held.
    if (m_conn && m_idLockHeld) {
        PQclear(PQexec(m_conn, "SELECT pg_advisory_unlock_all()"));
        m_idLockHeld = false;
    }
}

std::unique_ptr<BulkWriter> PostgresDatabase::bulkInsert(
    std::string_view table, const std::vector<std::string_view>& columns, BulkWriter::Format format)
{
    const std::string name(table);
    auto known = m_columns.find(name);
    if (known == m_columns.end()) {
        std::vector<std::pair<std::string, unsigned int>> types;
        auto rows = query("SELECT attname, atttypid FROM pg_attribute WHERE attrelid = CAST($1 AS regclass) "
                          "AND attnum > 0 AND NOT attisdropped",
            { QString::fromStdString(name) });
        while (rows->next())
            types.emplace_back(rows->toText(0).toStdString(), static_cast<unsigned int>(rows->toInt(1)));
        known = m_columns.emplace(name, std::move(types)).first;
    }
    std::vector<Oid> types;
    bool binary = format == BulkWriter::Format::Binary;
    for (std::string_view column : columns) {
        const auto it = std::find_if(
            known->second.begin(), known->second.end(), [&](const auto& c) { return c.first == column; });
        if (it == known->second.end())
            throw DbException(QStringLiteral("table %1 has no column %2")
                                  .arg(QString::fromStdString(name), QString::fromUtf8(column.data(), column.size())));
        types.push_back(it->second);
        // Binary COPY needs an encoder for every column type; anything else goes as text.
        if (!isInteger(it->second) && !isFloat(it->second) && !isText(it->second) && it->second != BoolOid)
            binary = false;
    }
    const bool fresh = std::any_of(m_pendingPartitions.begin(), m_pendingPartitions.end(),
        [&](const PendingPartition& p) { return p.name == name; });
    return std::make_unique<PostgresCopyWriter>(m_conn, name, columns, std::move(types), binary, fresh);
}

IdBlock PostgresDatabase::reserveIds(std::string_view table, qint64 count)
{
    IdBlock block;
    if (count <= 0)
        return block;
    const std::string name(table);
    auto sequence = m_sequences.find(name);
    if (sequence == m_sequences.end()) {
        auto rows = query("SELECT pg_get_serial_sequence($1, 'id')", { QString::fromStdString(name) });
        if (!rows->next() || rows->isNull(0))
            throw DbException(QStringLiteral("table %1 has no id sequence").arg(QString::fromStdString(name)));
        sequence = m_sequences.emplace(name, rows->toText(0).toStdString()).first;
    }
    const QString sequenceName = QString::fromStdString(sequence->second);
    if (isPartitioned(name)) {
        // A partitioned table has no default partition, so only Parallax uploads add rows to it,
        // and they all reserve under this session lock: one nextval and one setval then give a
        // block nobody else gets, instead of `count` nextval calls (about 1 s per 3 M ids).
        m_idLockHeld = true;
        exec("SELECT pg_advisory_lock(7035417232)");
        auto rows = query("SELECT s.v, setval(CAST($1 AS regclass), s.v + $2 - 1), pg_advisory_unlock(7035417232) "
                          "FROM (SELECT nextval(CAST($1 AS regclass)) AS v) s",
            { sequenceName, count });
        if (!rows->next())
            throw DbException(QStringLiteral("cannot reserve ids"));
        m_idLockHeld = false;
        block.addRange(rows->toInt(0), count);
        return block;
    }
    // Take ids from the table's own sequence, so other writers (another Parallax, TAU's loader)
    // never collide with ours. A block is usable when its ids are consecutive; another session
    // taking ids at the same moment splits it, and then smaller blocks are asked for (the ids in
    // a split block are left unused, as a rolled-back insert leaves them).
    qint64 remaining = count;
    qint64 chunk = std::min<qint64>(count, 1 << 22);
    while (remaining > 0) {
        const qint64 n = std::min(chunk, remaining);
        auto rows = query("SELECT MIN(v), MAX(v) FROM (SELECT nextval(CAST($1 AS regclass)) AS v "
                          "FROM generate_series(1, $2)) s",
            { sequenceName, n });
        if (!rows->next())
            throw DbException(QStringLiteral("cannot reserve ids"));
        const qint64 first = rows->toInt(0);
        const qint64 last = rows->toInt(1);
        if (last - first + 1 == n) {
            block.addRange(first, n);
            remaining -= n;
        } else {
            chunk = std::max<qint64>(1, n / 16);
        }
    }
    return block;
}

bool PostgresDatabase::isPartitioned(const std::string& table)
{
    auto known = m_partitioned.find(table);
    if (known == m_partitioned.end()) {
        auto rows = query(
            "SELECT relkind = 'p' FROM pg_class WHERE oid = to_regclass($1)", { QString::fromStdString(table) });
        known = m_partitioned.emplace(table, rows->next() && rows->toInt(0) != 0).first;
    }
    return known->second;
}

std::string PostgresDatabase::partitionFor(std::string_view table, qint64 trial, qint64 first, qint64 last)
{
    std::string parent(table);
    if (!isPartitioned(parent))
        return parent;
    const char* key = parent == "timer_call_data" ? "id" : parent == "timer_value" ? "timer_call_data" : nullptr;
    if (!key)
        throw DbException(QStringLiteral("no partition key for %1").arg(QString::fromStdString(parent)));
    // Names and bounds are numbers Parallax made, not user data. The CHECK is the partition's
    // bound in the form ATTACH PARTITION looks for, so attaching needs no validating scan.
    std::string name = parent + "_t" + std::to_string(trial);
    const std::string from = std::to_string(first);
    const std::string to = std::to_string(last + 1);
    execScript(
        QByteArray::fromStdString("CREATE TABLE " + name + " (LIKE " + parent + " INCLUDING DEFAULTS, CONSTRAINT "
            + name + "_range CHECK (" + key + " >= " + from + " AND " + key + " < " + to + "))"));
    m_pendingPartitions.push_back({ parent, name, key, from, to });
    return name;
}

void PostgresDatabase::finishPartitions()
{
    if (m_pendingPartitions.empty())
        return;
    // ATTACH builds the parent's indexes on the new table, each with one sort: far cheaper than
    // keeping three B-trees up to date row by row during the COPY. It locks the parent in SHARE
    // UPDATE EXCLUSIVE mode until commit: readers go on, another upload's ATTACH waits.
    exec("SET LOCAL maintenance_work_mem = '256MB'");
    for (const PendingPartition& p : m_pendingPartitions)
        execScript(QByteArray::fromStdString("ALTER TABLE " + p.parent + " ATTACH PARTITION " + p.name
            + " FOR VALUES FROM (" + p.from + ") TO (" + p.to + ")"));
    // Statistics of the partition key at once, not when autovacuum comes by: a load right after
    // the upload then reads the trial's partition sequentially (copyOut), not through its index.
    // The planner needs only the row count and the key's range, which a sample of 300 rows gives
    // in a few milliseconds (the default sample of 30,000 rows took 0.15-0.3 s per 3.3 M rows).
    // An ANALYZE of some columns leaves autovacuum's count of changed rows as it is, so autovacuum
    // still analyses the whole partition with the default sample later.
    exec("SET LOCAL default_statistics_target = 1");
    for (const PendingPartition& p : m_pendingPartitions)
        execScript(QByteArray::fromStdString("ANALYZE " + p.name + " (" + p.key + ")"));
    exec("SET LOCAL default_statistics_target = DEFAULT");
    m_pendingPartitions.clear();
}

void PostgresDatabase::dropPartitions(qint64 trial)
{
    // Parent by parent in the order uploads attach them (no lock-order inversion).
    for (const std::string parent : { "timer_call_data", "timer_value" }) {
        if (!isPartitioned(parent))
            continue;
        const std::string name = parent + "_t" + std::to_string(trial);
        if (tableExists(name))
            execScript(QByteArray::fromStdString("DROP TABLE " + name));
    }
}

bool PostgresDatabase::tableExists(std::string_view table)
{
    auto rows = query("SELECT to_regclass($1) IS NOT NULL",
        { QString::fromUtf8(table.data(), static_cast<qsizetype>(table.size())) });
    return rows->next() && rows->toInt(0) != 0;
}

void PostgresDatabase::lockSchema()
{
    // One client at a time creates or migrates the schema; the lock ends with the transaction.
    exec("SELECT pg_advisory_xact_lock(7035417231)");
}

QString PostgresDatabase::columnType(std::string_view table, std::string_view column)
{
    auto rows = query("SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = to_regclass($1) "
                      "AND attname = $2 AND attnum > 0 AND NOT attisdropped",
        { QString::fromUtf8(table.data(), static_cast<qsizetype>(table.size())),
            QString::fromUtf8(column.data(), static_cast<qsizetype>(column.size())) });
    return rows->next() ? rows->toText(0).toLower() : QString();
}

} // namespace parallax::perfdb
