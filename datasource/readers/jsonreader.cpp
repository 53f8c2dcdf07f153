// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/jsonreader.h"

#include "datasource/model/trialbuilder.h"
#include "datasource/readers/gzipinput.h"
#include "datasource/readers/rowassembler.h"
#include "datasource/readers/textnumber.h"

#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <new>
#include <optional>
#include <set>
#include <string>

namespace parallax {

namespace {

constexpr std::size_t ChunkSize = 1 << 20;
/// Longer number tokens are refused (the writer's longest is 24 characters).
constexpr std::size_t MaxNumberLength = 512;

/// A syntax or structure error: where (line, column, byte) and what was expected.
ParseError jsonFailure(qint64 line, qint64 column, qint64 offset, const QString& message)
{
    return ParseError { QStringLiteral("column %1 (byte %2): %3").arg(column).arg(offset).arg(message), line, offset };
}

/// The bytes of a file, streamed in chunks, with the line, column and byte offset of the next one.
class JsonByteStream {
public:
    JsonByteStream(QFile& file, Progress& progress)
        : m_file(file)
        , m_progress(progress)
    {
        m_buffer.resize(ChunkSize);
    }

    /// The next byte (0..255) without consuming it; -1 at the end of the file.
    int peek()
    {
        if (m_pos == m_end && !fill())
            return -1;
        return static_cast<unsigned char>(m_buffer[m_pos]);
    }
    int get()
    {
        const int c = peek();
        if (c < 0)
            return c;
        ++m_pos;
        if (c == '\n') {
            ++m_line;
            m_lineStart = offset();
        }
        return c;
    }
    qint64 offset() const { return m_base + static_cast<qint64>(m_pos); }
    qint64 line() const { return m_line; }
    qint64 column() const { return offset() - m_lineStart + 1; }

private:
    bool fill()
    {
        if (m_progress.isCancelled())
            throw Cancelled {};
        m_base += static_cast<qint64>(m_end);
        m_pos = m_end = 0;
        const qint64 n = m_file.read(m_buffer.data(), static_cast<qint64>(m_buffer.size()));
        if (n < 0)
            throw jsonFailure(m_line, column(), offset(), QStringLiteral("read failed: %1").arg(m_file.errorString()));
        if (n == 0)
            return false;
        m_end = static_cast<std::size_t>(n);
        m_progress.advance(n);
        return true;
    }

    QFile& m_file;
    Progress& m_progress;
    std::vector<char> m_buffer;
    std::size_t m_pos = 0;
    std::size_t m_end = 0;
    qint64 m_base = 0;
    qint64 m_line = 1;
    qint64 m_lineStart = 0;
};

QString describe(int c)
{
    if (c < 0)
        return QStringLiteral("the end of the file");
    if (c >= 0x20 && c < 0x7F)
        return QStringLiteral("'%1'").arg(QChar(c));
    return QStringLiteral("byte 0x%1").arg(c, 2, 16, QLatin1Char('0'));
}

/// A context for the messages of JsonTokens ("in " + "a metric"): a std::string, mostly short enough
/// to need no allocation.
std::string messageContext(const char* before, const char* what, const char* after = "")
{
    std::string out(before);
    out.append(what).append(after);
    return out;
}

/// A pull tokenizer over JsonByteStream with the few value readers the schema needs.
class JsonTokens {
public:
    JsonTokens(QFile& file, Progress& progress)
        : m_in(file, progress)
    {
    }

    [[noreturn]] void fail(const QString& message) const
    {
        throw jsonFailure(m_in.line(), m_in.column(), m_in.offset(), message);
    }

    int peekToken()
    {
        for (;;) {
            const int c = m_in.peek();
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
                m_in.get();
            else
                return c;
        }
    }
    void expect(char c, const char* context)
    {
        const int got = peekToken();
        if (got != c)
            fail(QStringLiteral("expected '%1' %2, found %3")
                     .arg(QString(QLatin1Char(c)), QLatin1String(context), describe(got)));
        m_in.get();
    }
    bool atEnd() { return peekToken() < 0; }

    /// Object members: call with first = true, then again until it returns false.
    bool nextKey(bool& first, QString& key, const char* context)
    {
        int c = peekToken();
        if (c == '}') {
            m_in.get();
            return false;
        }
        if (!first) {
            if (c != ',')
                fail(QStringLiteral("expected ',' or '}' %1, found %2").arg(QLatin1String(context), describe(c)));
            m_in.get();
            c = peekToken();
        }
        first = false;
        if (c != '"')
            fail(QStringLiteral("expected a key (a string) %1, found %2").arg(QLatin1String(context), describe(c)));
        key = string();
        expect(':', "after a key");
        return true;
    }
    /// An object `what` ("a metric"): '{', then each member's key to `member(key)`, which reads the
    /// value and returns true, or returns false for a key it does not take (an error saying "`unknown`
    /// key ... in `what`").
    template <typename Member> void object(const char* what, Member&& member, const char* unknown = "unknown")
    {
        const std::string in = messageContext("in ", what);
        expect('{', messageContext("(", what, ")").c_str());
        bool first = true;
        QString key;
        while (nextKey(first, key, in.c_str()))
            if (!member(key))
                fail(QStringLiteral("%1 key \"%2\" in %3")
                         .arg(QLatin1String(unknown), key.left(60), QLatin1String(what)));
    }
    /// Array elements: call with first = true, then again until it returns false.
    bool nextElement(bool& first, const char* context)
    {
        const int c = peekToken();
        if (c == ']') {
            m_in.get();
            return false;
        }
        if (!first) {
            if (c != ',')
                fail(QStringLiteral("expected ',' or ']' %1, found %2").arg(QLatin1String(context), describe(c)));
            m_in.get();
        }
        first = false;
        return true;
    }

    QString string()
    {
        expect('"', "(a string)");
        QString out;
        std::string run;
        auto flush = [&] {
            if (!run.empty()) {
                out += QString::fromUtf8(run.data(), static_cast<qsizetype>(run.size()));
                run.clear();
            }
        };
        for (;;) {
            const int c = m_in.get();
            if (c < 0)
                fail(QStringLiteral("the file ends inside a string"));
            if (c == '"')
                break;
            if (c < 0x20)
                fail(QStringLiteral("a control character (%1) inside a string; expected it escaped").arg(describe(c)));
            if (c != '\\') {
                run += static_cast<char>(c);
                continue;
            }
            const int e = m_in.get();
            switch (e) {
            case '"':
                run += '"';
                break;
            case '\\':
                run += '\\';
                break;
            case '/':
                run += '/';
                break;
            case 'b':
                run += '\b';
                break;
            case 'f':
                run += '\f';
                break;
            case 'n':
                run += '\n';
                break;
            case 'r':
                run += '\r';
                break;
            case 't':
                run += '\t';
                break;
            case 'u': {
                char16_t unit = 0;
                for (int k = 0; k < 4; ++k) {
                    const int h = m_in.get();
                    int v = -1;
                    if (h >= '0' && h <= '9')
                        v = h - '0';
                    else if (h >= 'a' && h <= 'f')
                        v = h - 'a' + 10;
                    else if (h >= 'A' && h <= 'F')
                        v = h - 'A' + 10;
                    if (v < 0)
                        fail(QStringLiteral("expected four hex digits after \\u, found %1").arg(describe(h)));
                    unit = static_cast<char16_t>(unit * 16 + v);
                }
                flush();
                out += QChar(unit); // surrogates are kept as UTF-16 units, paired or not
                break;
            }
            default:
                fail(QStringLiteral("unknown escape \\%1 in a string").arg(e < 0 ? QString() : describe(e)));
            }
        }
        flush();
        return out;
    }

    void literal(const char* word)
    {
        for (const char* p = word; *p; ++p) {
            const int c = m_in.get();
            if (c != *p)
                fail(QStringLiteral("expected %1").arg(QLatin1String(word)));
        }
    }

    bool boolean()
    {
        const int c = peekToken();
        if (c == 't') {
            literal("true");
            return true;
        }
        if (c == 'f') {
            literal("false");
            return false;
        }
        fail(QStringLiteral("expected true or false, found %1").arg(describe(c)));
    }

    /// A number, or one of the strings "NaN", "Infinity", "-Infinity".
    double number()
    {
        const int c = peekToken();
        if (c == '"') {
            const QString s = string();
            if (s == QLatin1String("NaN"))
                return std::numeric_limits<double>::quiet_NaN();
            if (s == QLatin1String("Infinity"))
                return std::numeric_limits<double>::infinity();
            if (s == QLatin1String("-Infinity"))
                return -std::numeric_limits<double>::infinity();
            fail(QStringLiteral("expected a number or \"NaN\", \"Infinity\", \"-Infinity\", found the string \"%1\"")
                     .arg(s.left(40)));
        }
        const std::string_view token = numberToken();
        const auto v = textnumber::parseDouble(token);
        if (!v)
            fail(QStringLiteral("'%1' is not a number")
                     .arg(QLatin1String(token.data(), static_cast<qsizetype>(token.size()))));
        return *v;
    }
    std::optional<double> numberOrNull()
    {
        if (peekToken() == 'n') {
            literal("null");
            return std::nullopt;
        }
        return number();
    }
    qint64 integer(qint64 min, qint64 max, const char* what)
    {
        const int c = peekToken();
        if (c != '-' && !(c >= '0' && c <= '9'))
            fail(QStringLiteral("expected %1 (a whole number), found %2").arg(QLatin1String(what), describe(c)));
        const std::string_view token = numberToken();
        const auto v = textnumber::parseInt<qint64>(token);
        if (!v || *v < min || *v > max)
            fail(QStringLiteral("expected %1 (a whole number from %2 to %3), found %4")
                     .arg(QLatin1String(what))
                     .arg(min)
                     .arg(max)
                     .arg(QLatin1String(token.data(), static_cast<qsizetype>(token.size()))));
        return *v;
    }

private:
    std::string_view numberToken()
    {
        const int first = peekToken();
        if (first != '-' && !(first >= '0' && first <= '9'))
            fail(QStringLiteral("expected a number, found %1").arg(describe(first)));
        m_number.clear();
        for (;;) {
            const int c = m_in.peek();
            if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'))
                break;
            if (m_number.size() >= MaxNumberLength)
                fail(QStringLiteral("a number longer than %1 characters").arg(MaxNumberLength));
            m_number += static_cast<char>(m_in.get());
        }
        return m_number;
    }

    JsonByteStream m_in;
    std::string m_number;
};

/// Keys of the document in the order they must come.
const char* const TopKeys[] = { "format", "version", "name", "provenance", "warnings", "metadata", "metrics", "groups",
    "events", "atomic_events", "threads", "intervals", "atomics", "statistics", "time_series" };

class JsonLoader {
public:
    JsonLoader(const QString& path, QFile& file, Progress& progress)
        : m_path(path)
        , m_json(file, progress)
        , m_builder(QFileInfo(path).fileName())
    {
    }

    std::shared_ptr<Trial> load()
    {
        m_json.expect('{', "at the start of a Parallax JSON trial");
        bool first = true;
        QString key;
        int last = -1;
        while (m_json.nextKey(first, key, "in the document")) {
            int rank = -1;
            for (int i = 0; i < int(std::size(TopKeys)); ++i)
                if (key == QLatin1String(TopKeys[i]))
                    rank = i;
            if (rank < 0)
                m_json.fail(QStringLiteral("unknown key \"%1\" in the document").arg(key.left(60)));
            if (rank <= last)
                m_json.fail(
                    QStringLiteral("the key \"%1\" is repeated or out of order; the order is %2").arg(key, keyOrder()));
            if (last < 0 && rank != 0)
                m_json.fail(QStringLiteral("expected \"format\": \"parallax-trial\" as the first key, found \"%1\"")
                                .arg(key.left(60)));
            if (last == 0 && rank != 1)
                m_json.fail(QStringLiteral("expected \"version\" after \"format\", found \"%1\"").arg(key.left(60)));
            last = rank;
            member(rank);
        }
        if (last < 1)
            m_json.fail(QStringLiteral("the document ends before its \"format\" and \"version\""));
        if (!m_json.atEnd())
            m_json.fail(QStringLiteral("expected the end of the file after the document"));
        return finish();
    }

private:
    static QString keyOrder()
    {
        QStringList keys;
        for (const char* k : TopKeys)
            keys << QLatin1String(k);
        return keys.join(QStringLiteral(", "));
    }

    void member(int rank)
    {
        switch (rank) {
        case 0: {
            const QString format = m_json.string();
            if (format != QLatin1String("parallax-trial"))
                m_json.fail(QStringLiteral("the format is \"%1\"; expected \"parallax-trial\"").arg(format.left(60)));
            break;
        }
        case 1: {
            const qint64 version = m_json.integer(0, std::numeric_limits<qint64>::max(), "the version");
            if (version != 1)
                m_json.fail(QStringLiteral("version %1; this reader understands version 1").arg(version));
            break;
        }
        case 2:
            m_builder.setName(m_json.string());
            break;
        case 3:
            provenance();
            break;
        case 4:
            for (const QString& w : strings("in \"warnings\""))
                m_builder.addWarning(w);
            break;
        case 5:
            metadata([&](const QString& k, const QString& v) { m_builder.addMetadata(k, v); });
            break;
        case 6:
            metrics();
            break;
        case 7:
            for (const QString& g : strings("in \"groups\""))
                m_builder.addGroup(g);
            break;
        case 8:
            events();
            break;
        case 9:
            atomicEvents();
            break;
        case 10:
            threads();
            break;
        case 11:
            perEvent(false);
            break;
        case 12:
            perEvent(true);
            break;
        case 13:
            statistics();
            break;
        case 14:
            timeSeries();
            break;
        }
    }

    QStringList strings(const char* context)
    {
        QStringList out;
        m_json.expect('[', context);
        bool first = true;
        while (m_json.nextElement(first, context))
            out << m_json.string();
        return out;
    }

    template <typename Add> void metadata(const Add& add)
    {
        m_json.expect('{', "(a metadata object)");
        bool first = true;
        QString key;
        while (m_json.nextKey(first, key, "in a metadata object"))
            add(key, m_json.string());
    }

    void provenance()
    {
        m_json.object("the provenance", [&](const QString& key) {
            if (key == QLatin1String("operation"))
                m_provenance.operation = m_json.string();
            else if (key == QLatin1String("source"))
                m_provenance.source = m_json.string();
            else if (key == QLatin1String("reader"))
                m_provenance.reader = m_json.string();
            else if (key == QLatin1String("operands"))
                m_provenance.operands = strings("in \"operands\"");
            else if (key == QLatin1String("options"))
                m_provenance.options = strings("in \"options\"");
            else
                return false;
            return true;
        });
        m_hasProvenance = true;
    }

    void metrics()
    {
        m_json.expect('[', "(the metrics)");
        bool first = true;
        while (m_json.nextElement(first, "in \"metrics\"")) {
            Metric metric;
            m_json.object("a metric", [&](const QString& key) {
                if (key == QLatin1String("name"))
                    metric.name = m_json.string();
                else if (key == QLatin1String("units"))
                    metric.unit = m_json.string();
                else if (key == QLatin1String("derived"))
                    metric.derived = m_json.boolean();
                else if (key == QLatin1String("expression"))
                    metric.expression = m_json.string();
                else if (key == QLatin1String("higher_is_better"))
                    metric.higherIsBetter = m_json.boolean();
                else
                    return false;
                return true;
            });
            if (m_metricCount >= 4096)
                m_json.fail(QStringLiteral("more than 4096 metrics"));
            if (m_builder.addMetric(metric).index() != m_metricCount)
                m_json.fail(QStringLiteral("metric %1 has the name of an earlier metric (\"%2\")")
                                .arg(m_metricCount)
                                .arg(metric.name.left(60)));
            ++m_metricCount;
        }
    }

    /// An event or atomic event object `what`: its name and raw name (the name when not given), and
    /// its "groups" where `groups` is given (another key is an error).
    std::pair<QString, QString> eventNames(const char* what, QStringList* groups)
    {
        QString name, raw;
        bool hasRaw = false;
        m_json.object(what, [&](const QString& key) {
            if (key == QLatin1String("name"))
                name = m_json.string();
            else if (key == QLatin1String("raw_name")) {
                raw = m_json.string();
                hasRaw = true;
            } else if (groups && key == QLatin1String("groups"))
                *groups = strings("in the groups of an event");
            else
                return false;
            return true;
        });
        return { name, hasRaw ? raw : name };
    }

    void events()
    {
        m_json.expect('[', "(the events)");
        bool first = true;
        while (m_json.nextElement(first, "in \"events\"")) {
            QStringList groups;
            const auto [name, raw] = eventNames("an event", &groups);
            if (m_builder.addEvent(name, groups, raw).index() != m_eventCount)
                m_json.fail(QStringLiteral("event %1 (\"%2\") has the name of an earlier event")
                                .arg(m_eventCount)
                                .arg(name.left(60)));
            ++m_eventCount;
        }
    }

    void atomicEvents()
    {
        m_json.expect('[', "(the atomic events)");
        bool first = true;
        while (m_json.nextElement(first, "in \"atomic_events\"")) {
            const auto [name, raw] = eventNames("an atomic event", nullptr);
            if (m_builder.addAtomicEvent(name, raw).index() != m_atomicCount)
                m_json.fail(QStringLiteral("atomic event %1 (\"%2\") has the name of an earlier one")
                                .arg(m_atomicCount)
                                .arg(name.left(60)));
            ++m_atomicCount;
        }
    }

    void threads()
    {
        m_json.expect('[', "(the threads)");
        bool first = true;
        while (m_json.nextElement(first, "in \"threads\"")) {
            ThreadKey k;
            std::vector<MetadataEntry> entries;
            constexpr qint64 lo = std::numeric_limits<int>::min();
            constexpr qint64 hi = std::numeric_limits<int>::max();
            m_json.object("a thread", [&](const QString& key) {
                if (key == QLatin1String("node"))
                    k.node = static_cast<int>(m_json.integer(lo, hi, "a node"));
                else if (key == QLatin1String("context"))
                    k.context = static_cast<int>(m_json.integer(lo, hi, "a context"));
                else if (key == QLatin1String("thread"))
                    k.thread = static_cast<int>(m_json.integer(lo, hi, "a thread"));
                else if (key == QLatin1String("metadata"))
                    metadata([&](const QString& mk, const QString& mv) {
                        StringPool& pool = m_builder.strings();
                        const StringId id = pool.intern(mk);
                        entries.push_back({ id, pool.intern(mv) });
                        m_builder.forcePerThreadKey(id);
                    });
                else
                    return false;
                return true;
            });
            const ThreadIndex t = m_builder.addThread(k);
            if (t.index() != m_rows.size())
                m_json.fail(QStringLiteral("thread %1 appears twice").arg(k.toString()));
            m_rows.emplace_back();
            m_atomicRows.emplace_back();
            m_keys.push_back(k);
            if (!entries.empty())
                m_builder.setThreadMetadataEntries(t, std::move(entries));
        }
    }

    /// One column of an entry: a value per domain position, or null.
    struct Column {
        std::vector<double> values;
        std::vector<std::uint8_t> present;
        bool given = false;
    };

    void column(Column& c, std::size_t expected, const char* name, bool nullable = true)
    {
        if (c.given)
            m_json.fail(QStringLiteral("\"%1\" appears twice in one entry").arg(QLatin1String(name)));
        c.given = true;
        c.values.assign(expected, 0.0);
        c.present.assign(expected, 0);
        m_json.expect('[', name);
        bool first = true;
        std::size_t k = 0;
        while (m_json.nextElement(first, name)) {
            if (k >= expected)
                m_json.fail(QStringLiteral("\"%1\" has more than %2 values").arg(QLatin1String(name)).arg(expected));
            const auto v = nullable ? m_json.numberOrNull() : std::optional<double>(m_json.number());
            if (v) {
                c.values[k] = *v;
                c.present[k] = 1;
            }
            ++k;
        }
        if (k != expected)
            m_json.fail(
                QStringLiteral("\"%1\" has %2 values; expected %3").arg(QLatin1String(name)).arg(k).arg(expected));
    }

    void metricColumns(std::vector<Column>& columns, std::size_t expected, const char* name, bool nullable = true)
    {
        if (!columns.empty())
            m_json.fail(QStringLiteral("\"%1\" appears twice in one entry").arg(QLatin1String(name)));
        m_json.expect('[', name);
        bool first = true;
        while (m_json.nextElement(first, name)) {
            if (columns.size() >= m_metricCount)
                m_json.fail(QStringLiteral("\"%1\" has more than %2 arrays (one per metric)")
                                .arg(QLatin1String(name))
                                .arg(m_metricCount));
            columns.emplace_back();
            column(columns.back(), expected, name, nullable);
        }
        if (columns.size() != m_metricCount)
            m_json.fail(QStringLiteral("\"%1\" has %2 arrays; expected one per metric (%3)")
                            .arg(QLatin1String(name))
                            .arg(columns.size())
                            .arg(m_metricCount));
    }

    std::vector<std::uint32_t> indexList(std::size_t limit, const char* name, bool increasing)
    {
        std::vector<std::uint32_t> out;
        m_json.expect('[', name);
        bool first = true;
        while (m_json.nextElement(first, name)) {
            if (limit == 0)
                m_json.fail(QStringLiteral("\"%1\" refers to an index, but there are none").arg(QLatin1String(name)));
            const auto i = static_cast<std::uint32_t>(m_json.integer(0, qint64(limit) - 1, name));
            if (increasing && !out.empty() && i <= out.back())
                m_json.fail(QStringLiteral("\"%1\" must increase").arg(QLatin1String(name)));
            out.push_back(i);
        }
        return out;
    }

    /// The columns of an interval entry or row.
    struct IntervalColumns {
        Column calls, subrs;
        std::vector<Column> excl, incl, sqr;
        bool sqrGiven = false;
    };
    /// The columns of an atomic entry or row.
    struct AtomicColumns {
        Column count, max, min, mean, sumSquares, stdDev;
    };

    /// Reads the column named `key` of `n` values into `c`; false when `key` is no interval column.
    bool intervalColumn(IntervalColumns& c, const QString& key, std::size_t n, bool nullable)
    {
        if (key == QLatin1String("calls"))
            column(c.calls, n, "calls", nullable);
        else if (key == QLatin1String("subroutines"))
            column(c.subrs, n, "subroutines", nullable);
        else if (key == QLatin1String("exclusive"))
            metricColumns(c.excl, n, "exclusive", nullable);
        else if (key == QLatin1String("inclusive"))
            metricColumns(c.incl, n, "inclusive", nullable);
        else if (key == QLatin1String("sum_exclusive_squared")) {
            metricColumns(c.sqr, n, "sum_exclusive_squared", nullable);
            c.sqrGiven = true;
        } else
            return false;
        return true;
    }

    /// Reads the column named `key` of `n` values into `c`; false when `key` is no atomic column.
    bool atomicColumn(AtomicColumns& c, const QString& key, std::size_t n, bool nullable)
    {
        for (const auto& [target, name] : { std::pair<Column*, const char*> { &c.count, "count" }, { &c.max, "max" },
                 { &c.min, "min" }, { &c.mean, "mean" }, { &c.sumSquares, "sum_squares" }, { &c.stdDev, "stddev" } })
            if (key == QLatin1String(name)) {
                column(*target, n, name, nullable);
                return true;
            }
        return false;
    }

    /// An entry of "intervals" (atomic = false) or "atomics".
    void perEvent(bool atomic)
    {
        const char* context = atomic ? "in \"atomics\"" : "in \"intervals\"";
        m_json.expect('[', context);
        bool first = true;
        std::vector<std::uint8_t> seen(atomic ? m_atomicCount : m_eventCount, 0);
        while (m_json.nextElement(first, context)) {
            m_json.expect('{', "(an entry)");
            bool firstKey = true;
            QString key;
            if (!m_json.nextKey(firstKey, key, "in an entry") || key != QLatin1String("event"))
                m_json.fail(QStringLiteral("expected \"event\" as the first key of an entry"));
            const std::size_t limit = atomic ? m_atomicCount : m_eventCount;
            if (limit == 0)
                m_json.fail(QStringLiteral("an entry, but there are no events"));
            const auto e = static_cast<std::uint32_t>(m_json.integer(0, qint64(limit) - 1, "an event index"));
            if (seen[e])
                m_json.fail(QStringLiteral("a second entry for event %1").arg(e));
            seen[e] = 1;
            std::vector<std::uint32_t> domain;
            bool listed = false;
            IntervalColumns intervals;
            AtomicColumns atomics;
            while (m_json.nextKey(firstKey, key, "in an entry")) {
                if (key == QLatin1String("threads")) {
                    if (listed || intervals.calls.given || atomics.count.given || !intervals.excl.empty()
                        || !intervals.incl.empty())
                        m_json.fail(QStringLiteral("\"threads\" must come right after \"event\""));
                    domain = indexList(m_rows.size(), "threads", true);
                    listed = true;
                    continue;
                }
                if (!listed) {
                    domain.resize(m_rows.size());
                    for (std::size_t t = 0; t < domain.size(); ++t)
                        domain[t] = static_cast<std::uint32_t>(t);
                    listed = true;
                }
                const std::size_t n = domain.size();
                if (!(atomic ? atomicColumn(atomics, key, n, true) : intervalColumn(intervals, key, n, true)))
                    m_json.fail(QStringLiteral("unknown key \"%1\" in an entry").arg(key.left(60)));
            }
            if (!listed) {
                domain.resize(m_rows.size());
                for (std::size_t t = 0; t < domain.size(); ++t)
                    domain[t] = static_cast<std::uint32_t>(t);
            }
            if (atomic)
                commitAtomics(AtomicEventId(e), domain, atomics);
            else
                commitIntervals(EventId(e), domain, intervals);
        }
    }

    void requireColumn(const Column& c, const char* name)
    {
        if (!c.given)
            m_json.fail(QStringLiteral("the entry ends without \"%1\"").arg(QLatin1String(name)));
    }

    void commitIntervals(EventId e, const std::vector<std::uint32_t>& domain, const IntervalColumns& columns)
    {
        const auto& [calls, subrs, excl, incl, sqrColumns, sqrGiven] = columns;
        const std::vector<Column>* sqr = sqrGiven ? &sqrColumns : nullptr;
        requireColumn(calls, "calls");
        requireColumn(subrs, "subroutines");
        if (m_metricCount > 0 && excl.empty())
            m_json.fail(QStringLiteral("the entry ends without \"exclusive\""));
        if (m_metricCount > 0 && incl.empty())
            m_json.fail(QStringLiteral("the entry ends without \"inclusive\""));
        for (std::size_t k = 0; k < domain.size(); ++k) {
            const bool present = calls.present[k];
            auto check = [&](const Column& c, const char* name) {
                if (c.present[k] != present)
                    m_json.fail(
                        QStringLiteral("event %1, thread %2: \"calls\" is %3 but \"%4\" is not")
                            .arg(e.index())
                            .arg(m_keys[domain[k]].toString(),
                                present ? QStringLiteral("given") : QStringLiteral("null"), QLatin1String(name)));
            };
            check(subrs, "subroutines");
            for (std::size_t m = 0; m < m_metricCount; ++m) {
                check(excl[m], "exclusive");
                check(incl[m], "inclusive");
                if (sqr && (*sqr)[m].present[k] && !present)
                    m_json.fail(QStringLiteral("event %1, thread %2: \"sum_exclusive_squared\" without a cell")
                                    .arg(e.index())
                                    .arg(m_keys[domain[k]].toString()));
            }
            if (!present)
                continue;
            IntervalAssembler& row = m_rows[domain[k]];
            bool created = false;
            const std::size_t i = row.cell(e, created);
            row.setCalls(i, calls.values[k]);
            row.setSubrs(i, subrs.values[k]);
            for (std::size_t m = 0; m < m_metricCount; ++m) {
                row.setExclusive(m, i, excl[m].values[k]);
                row.setInclusive(m, i, incl[m].values[k]);
                if (sqr && (*sqr)[m].present[k])
                    row.setSumExclSqr(m, i, (*sqr)[m].values[k]);
            }
        }
    }

    void commitAtomics(AtomicEventId e, const std::vector<std::uint32_t>& domain, const AtomicColumns& columns)
    {
        const auto& [count, max, min, mean, sumSquares, stdDev] = columns;
        requireColumn(count, "count");
        requireColumn(max, "max");
        requireColumn(min, "min");
        requireColumn(mean, "mean");
        requireColumn(sumSquares, "sum_squares");
        for (std::size_t k = 0; k < domain.size(); ++k) {
            const bool present = count.present[k];
            for (const auto& [c, name] : { std::pair<const Column*, const char*> { &max, "max" }, { &min, "min" },
                     { &mean, "mean" }, { &sumSquares, "sum_squares" } })
                if (c->present[k] != present)
                    m_json.fail(
                        QStringLiteral("atomic event %1, thread %2: \"count\" is %3 but \"%4\" is not")
                            .arg(e.index())
                            .arg(m_keys[domain[k]].toString(),
                                present ? QStringLiteral("given") : QStringLiteral("null"), QLatin1String(name)));
            if (stdDev.given && stdDev.present[k] && !present)
                m_json.fail(QStringLiteral("atomic event %1, thread %2: \"stddev\" without a record")
                                .arg(e.index())
                                .arg(m_keys[domain[k]].toString()));
            if (!present)
                continue;
            AtomicAssembler& row = m_atomicRows[domain[k]];
            row.add(e, count.values[k], max.values[k], min.values[k], mean.values[k], sumSquares.values[k]);
            if (stdDev.given && stdDev.present[k])
                row.setStdDev(stdDev.values[k]);
        }
    }

    /// A row object `what` ("a row", "an atomic row"): "events" first (distinct indices below
    /// `count`), then the keys `take(key, n)` reads (false: an unknown key). Returns the indices.
    template <typename Take> std::vector<std::uint32_t> rowObject(std::size_t count, const char* what, Take&& take)
    {
        const std::string in = messageContext("in ", what);
        m_json.expect('{', messageContext("(", what, ")").c_str());
        bool firstKey = true;
        QString key;
        if (!m_json.nextKey(firstKey, key, in.c_str()) || key != QLatin1String("events"))
            m_json.fail(QStringLiteral("expected \"events\" as the first key of %1").arg(QLatin1String(what)));
        std::vector<std::uint32_t> ids = indexList(count, "events", false);
        uniqueIds(ids);
        while (m_json.nextKey(firstKey, key, in.c_str()))
            if (!take(key, ids.size()))
                m_json.fail(QStringLiteral("unknown key \"%1\" in %2").arg(key.left(60), QLatin1String(what)));
        return ids;
    }

    /// ROW: {"events": [...], "calls": [...], ...} for a statistic or a snapshot.
    IntervalRow row()
    {
        IntervalColumns c;
        const std::vector<std::uint32_t> ids = rowObject(
            m_eventCount, "a row", [&](const QString& key, std::size_t n) { return intervalColumn(c, key, n, false); });
        const auto& [calls, subrs, excl, incl, sqr, sqrGiven] = c;
        if (!calls.given || !subrs.given || (m_metricCount > 0 && (excl.empty() || incl.empty())))
            m_json.fail(QStringLiteral("a row needs \"calls\", \"subroutines\", \"exclusive\" and \"inclusive\""));
        IntervalRow r;
        for (const auto id : ids)
            r.events.push_back(EventId(id));
        r.calls = calls.values;
        r.subrs = subrs.values;
        for (std::size_t m = 0; m < m_metricCount; ++m) {
            r.excl.insert(r.excl.end(), excl[m].values.begin(), excl[m].values.end());
            r.incl.insert(r.incl.end(), incl[m].values.begin(), incl[m].values.end());
            if (!sqr.empty())
                r.exclSqr.insert(r.exclSqr.end(), sqr[m].values.begin(), sqr[m].values.end());
        }
        return r;
    }

    AtomicRow atomicRow()
    {
        AtomicColumns c;
        const std::vector<std::uint32_t> ids = rowObject(m_atomicCount, "an atomic row",
            [&](const QString& key, std::size_t n) { return atomicColumn(c, key, n, false); });
        const auto& [count, max, min, mean, sumSquares, stdDev] = c;
        if (!count.given || !max.given || !min.given || !mean.given || !sumSquares.given)
            m_json.fail(
                QStringLiteral("an atomic row needs \"count\", \"max\", \"min\", \"mean\" and \"sum_squares\""));
        AtomicRow r;
        for (const auto id : ids)
            r.events.push_back(AtomicEventId(id));
        r.count = count.values;
        r.max = max.values;
        r.min = min.values;
        r.mean = mean.values;
        r.sumSquares = sumSquares.values;
        if (stdDev.given && !ids.empty())
            r.stdDev = stdDev.values;
        return r;
    }

    /// A statistic or a snapshot `what` ("a statistic", "a snapshot"): "name", "intervals",
    /// "atomics" (once each) and the key `other(key, rows)` reads (false: an unexpected key).
    template <typename Rows, typename Other> Rows namedRows(const char* what, Other&& other)
    {
        Rows s;
        bool hasRow = false, hasAtomic = false;
        m_json.object(
            what,
            [&](const QString& key) {
                if (key == QLatin1String("name"))
                    s.name = m_json.string();
                else if (other(key, s))
                    return true;
                else if (key == QLatin1String("intervals") && !hasRow) {
                    s.row = row();
                    hasRow = true;
                } else if (key == QLatin1String("atomics") && !hasAtomic) {
                    s.atomicRow = atomicRow();
                    hasAtomic = true;
                } else
                    return false;
                return true;
            },
            "unexpected");
        return s;
    }

    void uniqueIds(std::vector<std::uint32_t> ids)
    {
        std::sort(ids.begin(), ids.end());
        if (std::adjacent_find(ids.begin(), ids.end()) != ids.end())
            m_json.fail(QStringLiteral("a row lists an event twice"));
    }

    void statistics()
    {
        m_json.expect('[', "(the statistics)");
        bool first = true;
        while (m_json.nextElement(first, "in \"statistics\""))
            m_builder.addProvidedStatistic(
                namedRows<ProvidedStatistic>("a statistic", [&](const QString& key, ProvidedStatistic& s) {
                    if (key != QLatin1String("derived_id"))
                        return false;
                    s.derivedId = static_cast<int>(m_json.integer(
                        std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), "a derived id"));
                    return true;
                }));
    }

    void timeSeries()
    {
        m_json.expect('[', "(the time series)");
        bool first = true;
        std::vector<std::uint8_t> seen(m_rows.size(), 0);
        while (m_json.nextElement(first, "in \"time_series\"")) {
            m_json.expect('{', "(a thread's series)");
            bool firstKey = true;
            QString key;
            if (!m_json.nextKey(firstKey, key, "in a series") || key != QLatin1String("thread"))
                m_json.fail(QStringLiteral("expected \"thread\" as the first key of a series"));
            if (m_rows.empty())
                m_json.fail(QStringLiteral("a time series, but there are no threads"));
            const auto t = static_cast<std::uint32_t>(m_json.integer(0, qint64(m_rows.size()) - 1, "a thread index"));
            if (seen[t])
                m_json.fail(QStringLiteral("a second series for thread %1").arg(t));
            seen[t] = 1;
            if (!m_json.nextKey(firstKey, key, "in a series") || key != QLatin1String("snapshots"))
                m_json.fail(QStringLiteral("expected \"snapshots\" after \"thread\""));
            std::vector<ProfileSnapshot> series;
            m_json.expect('[', "(the snapshots)");
            bool firstSnapshot = true;
            while (m_json.nextElement(firstSnapshot, "in \"snapshots\""))
                series.push_back(namedRows<ProfileSnapshot>("a snapshot", [&](const QString& k, ProfileSnapshot& s) {
                    if (k != QLatin1String("timestamp"))
                        return false;
                    s.timestamp = m_json.integer(
                        std::numeric_limits<qint64>::min(), std::numeric_limits<qint64>::max(), "a timestamp");
                    return true;
                }));
            if (m_json.nextKey(firstKey, key, "in a series"))
                m_json.fail(QStringLiteral("unexpected key \"%1\" in a series").arg(key.left(60)));
            if (!series.empty())
                m_builder.setTimeSeries(ThreadIndex(t), std::move(series));
        }
    }

    std::shared_ptr<Trial> finish()
    {
        std::vector<IntervalRow> rows;
        std::vector<AtomicRow> atomicRows;
        rows.reserve(m_rows.size());
        atomicRows.reserve(m_rows.size());
        for (std::size_t t = 0; t < m_rows.size(); ++t) {
            rows.push_back(m_rows[t].finish(m_metricCount));
            atomicRows.push_back(m_atomicRows[t].finish());
            m_rows[t] = {};
            m_atomicRows[t] = {};
        }
        m_builder.setIntervalRows(std::move(rows));
        m_builder.setAtomicRows(std::move(atomicRows));
        if (!m_hasProvenance || m_provenance.operation == QLatin1String("read")) {
            m_provenance = Provenance {};
            m_provenance.operation = QStringLiteral("read");
            m_provenance.source = QFileInfo(m_path).absoluteFilePath();
            m_provenance.reader = QStringLiteral("json");
        }
        m_builder.setProvenance(m_provenance);
        return m_builder.build();
    }

    QString m_path;
    JsonTokens m_json;
    TrialBuilder m_builder;
    std::size_t m_metricCount = 0;
    std::size_t m_eventCount = 0;
    std::size_t m_atomicCount = 0;
    std::vector<ThreadKey> m_keys;
    std::vector<IntervalAssembler> m_rows;
    std::vector<AtomicAssembler> m_atomicRows;
    Provenance m_provenance;
    bool m_hasProvenance = false;
};

} // namespace

JsonReader::JsonReader()
    : Reader({ QStringLiteral("json"), QStringLiteral("Parallax JSON trial"), { QStringLiteral("*.json") } })
{
}

int JsonReader::sniff(const QString& path) const
{
    const QByteArray head = fileHead(path, 4096).value_or(QByteArray());
    const qsizetype at = head.indexOf("\"parallax-trial\"");
    if (at < 0)
        return 0;
    // The value of the first key "format", not a string somewhere in another format's data.
    const qsizetype brace = head.indexOf('{');
    return brace >= 0 && brace < at && head.indexOf("\"format\"") >= 0 ? 100 : 0;
}

TrialResult JsonReader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    (void)options;
    return readWithLoader<JsonLoader>(path, progress, QStringLiteral("a directory; a Parallax JSON trial is one file"),
        QStringLiteral("Reading JSON"), QStringLiteral("out of memory while reading the JSON trial"));
}

} // namespace parallax
