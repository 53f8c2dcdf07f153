// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/csvreader.h"

#include "datasource/model/trialbuilder.h"
#include "datasource/readers/csvlayout.h"
#include "datasource/readers/gzipinput.h"
#include "datasource/readers/rowassembler.h"
#include "datasource/readers/textnumber.h"

#include <QFile>
#include <QFileInfo>
#include <array>
#include <map>
#include <new>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

namespace parallax {

namespace {

constexpr std::size_t ChunkSize = 1 << 20;
/// A record longer than this is refused rather than buffered.
constexpr std::size_t MaxRecordBytes = std::size_t(256) << 20;
/// Metrics are found by a linear search: bound them (far beyond any real profile).
constexpr std::size_t MaxMetrics = 4096;

QString shown(std::string_view text)
{
    QString s = QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
    if (s.size() > 60)
        s = s.left(60) + QStringLiteral("...");
    return QLatin1Char('\'') + s + QLatin1Char('\'');
}

/// Splits a CSV file into records, streaming it in chunks. Fields are views into the chunk, or into
/// a scratch buffer for quoted fields; they stay valid until the next call of next().
class CsvRecords {
public:
    CsvRecords(QFile& file, Progress& progress)
        : m_file(file)
        , m_progress(progress)
    {
        m_buffer.resize(ChunkSize);
    }

    /// Reads the next non-blank record; false at the end of the file.
    bool next()
    {
        for (;;) {
            if (!parseRecord())
                return false;
            if (m_fields.size() == 1 && m_fields[0].size == 0 && !m_fields[0].quoted)
                continue; // a blank line
            return true;
        }
    }

    qint64 line() const { return m_recordLine; }
    std::size_t size() const { return m_fields.size(); }
    std::string_view field(std::size_t i) const
    {
        const Field& f = m_fields[i];
        return f.quoted ? std::string_view(m_scratch.data() + f.offset, f.size)
                        : std::string_view(m_buffer.data() + f.offset, f.size);
    }
    bool quoted(std::size_t i) const { return m_fields[i].quoted; }

private:
    struct Field {
        std::size_t offset;
        std::size_t size;
        bool quoted;
    };

    /// Makes at least one more byte available after `m_end` (moving the unparsed tail of the
    /// buffer to its front first). False at the end of the file.
    bool fill()
    {
        if (m_eof)
            return false;
        if (m_progress.isCancelled())
            throw Cancelled {};
        if (m_start > 0) {
            std::memmove(m_buffer.data(), m_buffer.data() + m_start, m_end - m_start);
            m_end -= m_start;
            m_start = 0;
        }
        if (m_end == m_buffer.size()) {
            if (m_buffer.size() >= MaxRecordBytes)
                throw ParseError::atLine(
                    m_nextLine, QStringLiteral("a record longer than 256 MiB; is this a CSV file?"));
            m_buffer.resize(m_buffer.size() * 2);
        }
        const qint64 n = m_file.read(m_buffer.data() + m_end, static_cast<qint64>(m_buffer.size() - m_end));
        if (n < 0)
            throw ParseError::atLine(m_nextLine, QStringLiteral("read failed: %1").arg(m_file.errorString()));
        if (n == 0) {
            m_eof = true;
            return false;
        }
        if (m_first) {
            m_first = false;
            if (n >= 3 && std::memcmp(m_buffer.data() + m_end, "\xEF\xBB\xBF", 3) == 0) {
                m_start += 3; // a UTF-8 byte order mark
            }
        }
        m_end += static_cast<std::size_t>(n);
        m_progress.advance(n);
        return true;
    }

    /// Parses one record starting at m_start; restarts from scratch when the buffer runs out in
    /// the middle of it (after reading more).
    bool parseRecord()
    {
        for (;;) {
            if (m_start == m_end && !fill())
                return false;
            const int outcome = tryParse();
            if (outcome > 0)
                return true;
            // Need more bytes: fill() keeps [m_start, m_end) and appends.
            fill();
        }
    }

    /// 1: a whole record parsed; 0: the buffer ended first (and the file has more).
    int tryParse()
    {
        const bool atEof = m_eof;
        m_fields.clear();
        m_scratch.clear();
        const char* const base = m_buffer.data();
        std::size_t p = m_start;
        qint64 newlines = 0;
        for (;;) {
            // White space before an opening quote is not part of the field (", \"a, b\"").
            std::size_t s = p;
            while (s < m_end && (base[s] == ' ' || base[s] == '\t'))
                ++s;
            if (s == m_end && s > p && !atEof)
                return 0;
            if (s < m_end && base[s] == '"') {
                p = s + 1;
                const std::size_t offset = m_scratch.size();
                for (;;) {
                    const void* q = p < m_end ? std::memchr(base + p, '"', m_end - p) : nullptr;
                    if (!q) {
                        if (!atEof)
                            return 0;
                        throw ParseError::atLine(
                            m_nextLine, QStringLiteral("a quoted field is not closed before the end of the file"));
                    }
                    const std::size_t at = static_cast<std::size_t>(static_cast<const char*>(q) - base);
                    for (std::size_t k = p; k < at; ++k)
                        newlines += base[k] == '\n' ? 1 : 0;
                    m_scratch.append(base + p, at - p);
                    if (at + 1 == m_end && !atEof)
                        return 0;
                    if (at + 1 < m_end && base[at + 1] == '"') {
                        m_scratch += '"';
                        p = at + 2;
                        continue;
                    }
                    p = at + 1;
                    break;
                }
                m_fields.push_back({ offset, m_scratch.size() - offset, true });
                while (p < m_end && (base[p] == ' ' || base[p] == '\t'))
                    ++p;
                if (p == m_end && !atEof)
                    return 0;
                if (p < m_end && base[p] != ',' && base[p] != '\n' && base[p] != '\r')
                    throw ParseError::atLine(m_nextLine + newlines,
                        QStringLiteral("expected a comma or the end of the line after the closing quote of field %1, "
                                       "found %2")
                            .arg(m_fields.size())
                            .arg(shown(std::string_view(base + p, 1))));
            } else {
                std::size_t q = p;
                while (q < m_end) {
                    const char c = base[q];
                    if (c == ',' || c == '\n' || c == '\r')
                        break;
                    ++q;
                }
                if (q == m_end && !atEof)
                    return 0;
                // Unquoted fields are trimmed (a hand-written "1, main" means "main").
                std::size_t b = p, e = q;
                while (b < e && (base[b] == ' ' || base[b] == '\t'))
                    ++b;
                while (e > b && (base[e - 1] == ' ' || base[e - 1] == '\t'))
                    --e;
                m_fields.push_back({ b, e - b, false });
                p = q;
            }
            if (p == m_end) { // the last record, without a line end
                m_start = p;
                m_recordLine = m_nextLine;
                m_nextLine += newlines + 1;
                return 1;
            }
            const char c = base[p];
            if (c == ',') {
                ++p;
                continue;
            }
            if (c == '\r') {
                if (p + 1 == m_end && !atEof)
                    return 0;
                p += (p + 1 < m_end && base[p + 1] == '\n') ? 2 : 1;
            } else {
                ++p; // '\n'
            }
            m_start = p;
            m_recordLine = m_nextLine;
            m_nextLine += newlines + 1;
            return 1;
        }
    }

    QFile& m_file;
    Progress& m_progress;
    std::vector<char> m_buffer;
    std::size_t m_start = 0;
    std::size_t m_end = 0;
    bool m_eof = false;
    bool m_first = true;
    qint64 m_nextLine = 1;
    qint64 m_recordLine = 0;
    std::vector<Field> m_fields;
    std::string m_scratch;
};

using namespace csv;

/// Header names (lower case) of each column; the first is the canonical one.
const std::array<std::vector<std::string_view>, ColumnCount>& columnNames()
{
    static const std::array<std::vector<std::string_view>, ColumnCount> names = { {
        { "kind" },
        { "node", "rank" },
        { "context" },
        { "thread" },
        { "event", "name", "function", "timer" },
        { "groups", "group" },
        { "metric" },
        { "units", "unit" },
        { "exclusive", "excl", "exclusive_time" },
        { "inclusive", "incl", "inclusive_time" },
        { "calls", "numcalls", "ncalls" },
        { "subroutines", "subrs", "numsubrs", "child_calls" },
        { "sum_exclusive_squared" },
        { "count" },
        { "max" },
        { "min" },
        { "mean" },
        { "sum_squares" },
        { "stddev" },
        { "name" },
        { "value" },
        { "time (inc)" },
        { "time" },
        { "nid" },
    } };
    return names;
}

std::string lowerTrimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view> {}(s); }
};

QString text(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

/// Splits a groups field at '|' ('\' escapes '\' and '|').
QStringList splitGroups(std::string_view field)
{
    QStringList groups;
    std::string current;
    bool any = false;
    for (std::size_t i = 0; i < field.size(); ++i) {
        const char c = field[i];
        if (c == '\\' && i + 1 < field.size()) {
            current += field[++i];
            any = true;
        } else if (c == '|') {
            groups << text(current);
            current.clear();
            any = true;
        } else {
            current += c;
            any = true;
        }
    }
    if (any)
        groups << text(current);
    return groups;
}

enum class Shape { Parallax, Plain, Hatchet };

class CsvLoader {
public:
    CsvLoader(const QString& path, QFile& file, Progress& progress)
        : m_path(path)
        , m_records(file, progress)
        , m_builder(QFileInfo(path).fileName())
    {
    }

    std::shared_ptr<Trial> load()
    {
        if (!m_records.next())
            throw ParseError::atLine(1, QStringLiteral("the file is empty; expected a header row naming the columns"));
        header();
        while (m_records.next()) {
            if (m_records.size() != m_columnCount)
                fail(QStringLiteral("expected %1 fields like the header, found %2")
                         .arg(m_columnCount)
                         .arg(m_records.size()));
            if (m_shape == Shape::Hatchet)
                hatchetRow();
            else if (m_shape == Shape::Plain)
                plainRow();
            else
                record();
        }
        return finish();
    }

private:
    [[noreturn]] void fail(const QString& message) const { throw ParseError::atLine(m_records.line(), message); }

    void header()
    {
        m_columnCount = m_records.size();
        m_columns.fill(-1);
        std::vector<std::string> names;
        for (std::size_t i = 0; i < m_columnCount; ++i)
            names.push_back(lowerTrimmed(m_records.field(i)));
        auto has = [&](std::string_view n) { return std::find(names.begin(), names.end(), n) != names.end(); };
        if (has("nid") && has("rank") && has("time (inc)") && has("time") && has("name") && !has("kind")) {
            m_shape = Shape::Hatchet;
            for (std::size_t i = 0; i < m_columnCount; ++i) {
                const std::string& n = names[i];
                const int c = n == "rank" ? Node
                    : n == "name"         ? Event
                    : n == "time (inc)"   ? HatchetTimeInc
                    : n == "time"         ? HatchetTime
                    : n == "nid"          ? HatchetNid
                                          : -1;
                if (c >= 0 && m_columns[c] < 0)
                    m_columns[c] = static_cast<int>(i);
            }
            return;
        }
        const auto& known = columnNames();
        for (std::size_t i = 0; i < m_columnCount; ++i) {
            for (int c = 0; c < HatchetTimeInc; ++c) {
                // "name" is the event in a plain table, the key/value name in ours.
                if (c == Event && names[i] == "name" && (has("kind") || has("event")))
                    continue;
                const auto& aliases = known[static_cast<std::size_t>(c)];
                if (std::find(aliases.begin(), aliases.end(), names[i]) != aliases.end()) {
                    if (m_columns[c] >= 0)
                        fail(QStringLiteral("the header names the column '%1' twice").arg(text(names[i])));
                    m_columns[c] = static_cast<int>(i);
                    break;
                }
            }
        }
        m_shape = m_columns[Kind] >= 0 ? Shape::Parallax : Shape::Plain;
        if (m_columns[Event] < 0)
            fail(QStringLiteral("the header has no 'event' column; expected a header row such as "
                                "node,context,thread,event,metric,exclusive,inclusive,calls,subroutines"));
    }

    std::string_view field(Column c) const
    {
        const int i = m_columns[c];
        return i < 0 ? std::string_view() : m_records.field(static_cast<std::size_t>(i));
    }
    bool given(Column c) const
    {
        return !field(c).empty() || (m_columns[c] >= 0 && m_records.quoted(static_cast<std::size_t>(m_columns[c])));
    }
    QString columnName(Column c) const { return text(columnNames()[c].front()); }

    double number(Column c) const
    {
        const std::string_view f = field(c);
        const auto v = textnumber::parseDouble(f);
        if (!v)
            fail(QStringLiteral("column '%1': expected a number, found %2")
                     .arg(columnName(c), f.empty() ? QStringLiteral("nothing") : shown(f)));
        return *v;
    }

    template <typename Int> Int integer(Column c, Int fallback) const
    {
        const std::string_view f = field(c);
        if (f.empty())
            return fallback;
        const auto v = textnumber::parseInt<Int>(f);
        if (!v)
            fail(QStringLiteral("column '%1': expected a whole number, found %2").arg(columnName(c), shown(f)));
        return *v;
    }

    ThreadKey key() const { return { integer<int>(Node, 0), integer<int>(Context, 0), integer<int>(ThreadCol, 0) }; }

    ThreadIndex thread()
    {
        const ThreadKey k = key();
        if (m_lastThread.isValid() && k == m_lastKey)
            return m_lastThread;
        const ThreadIndex t = m_builder.addThread(k);
        if (t.index() >= m_rows.size()) {
            m_rows.resize(t.index() + 1);
            m_atomicRows.resize(t.index() + 1);
            m_threadMetadata.resize(t.index() + 1);
            m_series.resize(t.index() + 1);
        }
        m_lastKey = k;
        m_lastThread = t;
        return t;
    }
    IntervalAssembler& threadRows(ThreadIndex t) { return m_rows[t.index()]; }
    QString threadDescription() const { return QStringLiteral("thread ") + m_lastKey.toString(); }

    EventId event()
    {
        const std::string_view name = field(Event);
        const std::string_view groups = field(Groups);
        auto it = m_events.find(name);
        if (it == m_events.end()) {
            const EventId id = m_builder.addEvent(text(name), splitGroups(groups));
            it = m_events.emplace(std::string(name), EventEntry { id, std::string(groups) }).first;
        } else if (!groups.empty() && it->second.groups != groups) {
            m_builder.addEvent(text(name), splitGroups(groups));
            it->second.groups = std::string(groups);
        }
        return it->second.id;
    }

    AtomicEventId atomicEvent()
    {
        const std::string_view name = field(Event);
        auto it = m_atomicEvents.find(name);
        if (it == m_atomicEvents.end())
            it = m_atomicEvents.emplace(std::string(name), m_builder.addAtomicEvent(text(name))).first;
        return it->second;
    }

    struct MetricInfo {
        std::string key;
        Metric metric;
        bool unitGiven = false;
    };

    std::size_t metric(std::string_view name, std::string_view units)
    {
        std::size_t m = m_lastMetric;
        if (m >= m_metrics.size() || m_metrics[m].key != name) {
            m = 0;
            while (m < m_metrics.size() && m_metrics[m].key != name)
                ++m;
            if (m == m_metrics.size()) {
                if (m_metrics.size() >= MaxMetrics)
                    fail(QStringLiteral("more than %1 metrics").arg(MaxMetrics));
                MetricInfo info;
                info.key = std::string(name);
                info.metric.name = text(name);
                m_metrics.push_back(std::move(info));
            }
            m_lastMetric = m;
        }
        MetricInfo& info = m_metrics[m];
        if (!units.empty()) {
            const QString unit = text(units);
            if (info.unitGiven && info.metric.unit != unit)
                fail(QStringLiteral("metric %1 has the unit '%2' here but '%3' before")
                         .arg(shown(name), unit, info.metric.unit));
            info.metric.unit = unit;
            info.unitGiven = true;
        }
        return m;
    }

    /// An interval row into `rows` (a thread, a statistic or a snapshot).
    void interval(IntervalAssembler& rows, const QString& where)
    {
        const EventId e = event();
        const std::string_view metricName = field(MetricCol);
        const bool hasExcl = given(Exclusive);
        const bool hasIncl = given(Inclusive);
        bool created = false;
        if (metricName.empty() && !hasExcl && !hasIncl) {
            // A cell without metric values (a trial without metrics).
            const std::size_t i = rows.cell(e, created);
            callsAndSubrs(rows, i, where);
            return;
        }
        if (!hasExcl && !hasIncl)
            fail(QStringLiteral("expected an exclusive or an inclusive value"));
        const double excl = hasExcl ? number(Exclusive) : number(Inclusive);
        const double incl = hasIncl ? number(Inclusive) : excl;
        // An empty metric name is the metric declared with that name, else the default TIME.
        bool emptyDeclared = false;
        for (const MetricInfo& info : m_metrics)
            emptyDeclared = emptyDeclared || info.key.empty();
        const std::size_t m
            = metric(metricName.empty() && !emptyDeclared ? std::string_view("TIME") : metricName, field(Units));
        const std::size_t i = rows.cell(e, created);
        if (rows.metricFlags(m, i) & IntervalAssembler::ExclSet)
            fail(QStringLiteral("%1, event %2, metric %3: given twice")
                     .arg(where, shown(field(Event)), m_metrics[m].metric.name));
        rows.setExclusive(m, i, excl);
        rows.setInclusive(m, i, incl);
        if (given(SumExclSqr))
            rows.setSumExclSqr(m, i, number(SumExclSqr));
        callsAndSubrs(rows, i, where);
    }

    void callsAndSubrs(IntervalAssembler& rows, std::size_t i, const QString& where)
    {
        if (given(Calls)) {
            const double v = number(Calls);
            if (rows.hasCalls(i) && !sameDouble(rows.calls(i), v))
                fail(QStringLiteral("%1, event %2: %3 calls here, %4 on an earlier row of the same cell")
                         .arg(where, shown(field(Event)))
                         .arg(v)
                         .arg(rows.calls(i)));
            rows.setCalls(i, v);
        }
        if (given(Subroutines)) {
            const double v = number(Subroutines);
            if (rows.hasSubrs(i) && !sameDouble(rows.subrs(i), v))
                fail(QStringLiteral("%1, event %2: %3 subroutines here, %4 on an earlier row of the same cell")
                         .arg(where, shown(field(Event)))
                         .arg(v)
                         .arg(rows.subrs(i)));
            rows.setSubrs(i, v);
        }
    }

    void atomic(AtomicAssembler& rows, const QString& where)
    {
        const AtomicEventId e = atomicEvent();
        const double count = number(Count);
        const double mean = number(Mean);
        const double max = given(Max) ? number(Max) : mean;
        const double min = given(Min) ? number(Min) : mean;
        const bool hasSd = given(StdDev);
        const double sd = hasSd ? number(StdDev) : 0.0;
        const double sumSquares = given(SumSquares) ? number(SumSquares) : count * (sd * sd + mean * mean);
        if (!rows.add(e, count, max, min, mean, sumSquares))
            fail(QStringLiteral("%1, atomic event %2: given twice").arg(where, shown(field(Event))));
        if (hasSd)
            rows.setStdDev(sd);
    }

    QString nameField() const { return text(field(Name)); }
    QString valueField() const { return text(field(Value)); }

    void record()
    {
        const std::string_view kind = field(Kind);
        if (kind == "interval") {
            const ThreadIndex t = thread();
            interval(threadRows(t), threadDescription());
        } else if (kind == "atomic") {
            const ThreadIndex t = thread();
            atomic(m_atomicRows[t.index()], threadDescription());
        } else if (kind == "event") {
            const QString name = text(field(Event));
            const QString raw = field(Value).empty() ? name : valueField();
            const EventId id = m_builder.addEvent(name, splitGroups(field(Groups)), raw);
            m_events.emplace(std::string(field(Event)), EventEntry { id, std::string(field(Groups)) });
        } else if (kind == "atomic-event") {
            const QString name = text(field(Event));
            const AtomicEventId id = m_builder.addAtomicEvent(name, field(Value).empty() ? name : valueField());
            m_atomicEvents.emplace(std::string(field(Event)), id);
        } else if (kind == "thread") {
            thread();
        } else if (kind == "thread-metadata") {
            const ThreadIndex t = thread();
            StringPool& strings = m_builder.strings();
            const StringId k = strings.intern(nameField());
            m_threadMetadata[t.index()].push_back({ k, strings.intern(valueField()) });
            m_forced.push_back(k);
        } else if (kind == "metadata") {
            m_builder.addMetadata(nameField(), valueField());
        } else if (kind == "metric") {
            const std::size_t m = metric(field(MetricCol), {});
            MetricInfo& info = m_metrics[m];
            info.metric.unit = text(field(Units));
            info.unitGiven = true;
            for (const QString& flag : nameField().split(u'|', Qt::SkipEmptyParts)) {
                if (flag == QLatin1String("derived"))
                    info.metric.derived = true;
                else if (flag == QLatin1String("higher-is-better"))
                    info.metric.higherIsBetter = true;
                else
                    fail(QStringLiteral("unknown metric flag '%1'; expected derived or higher-is-better").arg(flag));
            }
            info.metric.expression = valueField();
        } else if (kind == "group") {
            m_builder.addGroup(nameField());
        } else if (kind == "trial") {
            const std::string_view name = field(Name);
            if (name == "format") {
                if (field(Value) != "parallax-csv 1")
                    fail(QStringLiteral("this file is %1; this reader understands parallax-csv 1")
                             .arg(shown(field(Value))));
            } else if (name == "name") {
                m_builder.setName(valueField());
            } else {
                fail(QStringLiteral("unknown trial field %1; expected format or name").arg(shown(name)));
            }
        } else if (kind == "provenance") {
            const std::string_view name = field(Name);
            m_hasProvenance = true;
            if (name == "operation")
                m_provenance.operation = valueField();
            else if (name == "source")
                m_provenance.source = valueField();
            else if (name == "reader")
                m_provenance.reader = valueField();
            else if (name == "operand")
                m_provenance.operands << valueField();
            else if (name == "option")
                m_provenance.options << valueField();
            else
                fail(
                    QStringLiteral("unknown provenance field %1; expected operation, source, reader, operand or option")
                        .arg(shown(name)));
        } else if (kind == "warning") {
            m_warnings << valueField();
        } else if (kind == "statistic") {
            Statistic s;
            s.name = nameField();
            s.derivedId = integer<int>(Value, 0);
            m_statistics.push_back(std::move(s));
        } else if (kind == "statistic-interval" || kind == "statistic-atomic") {
            if (m_statistics.empty() || m_statistics.back().name != nameField())
                fail(QStringLiteral("a %1 row must follow the statistic row named %2")
                         .arg(text(kind), shown(field(Name))));
            Statistic& s = m_statistics.back();
            const QString where = QStringLiteral("statistic '%1'").arg(s.name);
            if (kind == "statistic-interval")
                interval(s.rows, where);
            else
                atomic(s.atomics, where);
        } else if (kind == "snapshot") {
            const ThreadIndex t = thread();
            Snapshot s;
            s.name = nameField();
            s.timestamp = integer<qint64>(Value, 0);
            m_series[t.index()].push_back(std::move(s));
            m_hasSeries = true;
            m_snapshotThread = t;
        } else if (kind == "snapshot-interval" || kind == "snapshot-atomic") {
            const ThreadIndex t = thread();
            if (!m_snapshotThread.isValid() || t != m_snapshotThread)
                fail(QStringLiteral("a %1 row must follow a snapshot row of the same thread").arg(text(kind)));
            Snapshot& s = m_series[t.index()].back();
            const QString where = QStringLiteral("snapshot '%1' of thread %2").arg(s.name, m_lastKey.toString());
            if (kind == "snapshot-interval")
                interval(s.rows, where);
            else
                atomic(s.atomics, where);
        } else {
            fail(QStringLiteral("unknown kind %1; expected interval, atomic, event, atomic-event, thread, "
                                "thread-metadata, metadata, metric, group, trial, provenance, warning, statistic, "
                                "statistic-interval, statistic-atomic, snapshot, snapshot-interval or "
                                "snapshot-atomic")
                     .arg(shown(kind)));
        }
    }

    void plainRow()
    {
        const ThreadIndex t = thread();
        interval(threadRows(t), threadDescription());
    }

    void hatchetRow()
    {
        HatchetRow row;
        row.rank = integer<int>(Node, 0);
        row.nid = integer<qint64>(HatchetNid, 0);
        row.name = text(field(Event));
        row.line = m_records.line();
        row.time = number(HatchetTime);
        row.timeInc = number(HatchetTimeInc);
        if (m_hatchetNids[row.name].insert(row.nid).second && m_hatchetNids[row.name].size() == 1)
            m_hatchetNames.push_back(row.name);
        m_hatchet.push_back(std::move(row));
    }

    void finishHatchet()
    {
        // Names first in order of appearance, then (name, nid) pairs in nid order per name.
        std::map<std::pair<QString, qint64>, EventId> ids;
        for (const QString& name : m_hatchetNames) {
            const auto& nids = m_hatchetNids[name];
            for (const qint64 nid : nids)
                ids[{ name, nid }]
                    = m_builder.addEvent(nids.size() == 1 ? name : QStringLiteral("%1 [nid %2]").arg(name).arg(nid));
        }
        const std::size_t m = metric("time", "us");
        for (const HatchetRow& row : m_hatchet) {
            const ThreadIndex t = m_builder.addThread({ row.rank, 0, 0 });
            if (t.index() >= m_rows.size()) {
                m_rows.resize(t.index() + 1);
                m_atomicRows.resize(t.index() + 1);
                m_threadMetadata.resize(t.index() + 1);
                m_series.resize(t.index() + 1);
            }
            bool created = false;
            const EventId e = ids[{ row.name, row.nid }];
            const std::size_t i = m_rows[t.index()].cell(e, created);
            if (!created)
                throw ParseError::atLine(row.line,
                    QStringLiteral("rank %1 has node %2 (nid %3) twice").arg(row.rank).arg(row.name).arg(row.nid));
            m_rows[t.index()].setExclusive(m, i, row.time);
            m_rows[t.index()].setInclusive(m, i, row.timeInc);
        }
    }

    std::shared_ptr<Trial> finish()
    {
        if (m_shape == Shape::Hatchet)
            finishHatchet();
        const std::size_t metrics = m_metrics.size();
        for (MetricInfo& info : m_metrics) {
            if (!info.unitGiven && info.metric.name == QLatin1String("TIME"))
                info.metric.unit = QStringLiteral("us");
            m_builder.addMetric(info.metric);
        }
        const std::size_t threads = m_builder.threadCount();
        m_rows.resize(threads);
        m_atomicRows.resize(threads);
        m_threadMetadata.resize(threads);
        m_series.resize(threads);
        std::vector<IntervalRow> rows;
        std::vector<AtomicRow> atomicRows;
        rows.reserve(threads);
        atomicRows.reserve(threads);
        for (std::size_t t = 0; t < threads; ++t) {
            rows.push_back(m_rows[t].finish(metrics));
            atomicRows.push_back(m_atomicRows[t].finish());
            m_rows[t] = {};
            m_atomicRows[t] = {};
        }
        m_builder.setIntervalRows(std::move(rows));
        m_builder.setAtomicRows(std::move(atomicRows));
        for (const StringId k : m_forced)
            m_builder.forcePerThreadKey(k);
        for (std::size_t t = 0; t < threads; ++t)
            if (!m_threadMetadata[t].empty())
                m_builder.setThreadMetadataEntries(ThreadIndex(t), std::move(m_threadMetadata[t]));
        for (Statistic& s : m_statistics) {
            ProvidedStatistic statistic;
            statistic.name = s.name;
            statistic.derivedId = s.derivedId;
            statistic.row = s.rows.finish(metrics);
            statistic.atomicRow = s.atomics.finish();
            m_builder.addProvidedStatistic(std::move(statistic));
        }
        if (m_hasSeries) {
            for (std::size_t t = 0; t < threads; ++t) {
                std::vector<ProfileSnapshot> series;
                for (Snapshot& s : m_series[t]) {
                    ProfileSnapshot snapshot;
                    snapshot.name = s.name;
                    snapshot.timestamp = s.timestamp;
                    snapshot.row = s.rows.finish(metrics);
                    snapshot.atomicRow = s.atomics.finish();
                    series.push_back(std::move(snapshot));
                }
                if (!series.empty())
                    m_builder.setTimeSeries(ThreadIndex(t), std::move(series));
            }
        }
        for (const QString& w : std::as_const(m_warnings))
            m_builder.addWarning(w);
        if (!m_hasProvenance || m_provenance.operation == QLatin1String("read")) {
            m_provenance = Provenance {};
            m_provenance.operation = QStringLiteral("read");
            m_provenance.source = QFileInfo(m_path).absoluteFilePath();
            m_provenance.reader = QStringLiteral("csv");
        }
        m_builder.setProvenance(m_provenance);
        return m_builder.build();
    }

    struct EventEntry {
        EventId id;
        std::string groups;
    };
    struct Statistic {
        QString name;
        int derivedId = 0;
        IntervalAssembler rows;
        AtomicAssembler atomics;
    };
    struct Snapshot {
        QString name;
        qint64 timestamp = 0;
        IntervalAssembler rows;
        AtomicAssembler atomics;
    };
    struct HatchetRow {
        int rank = 0;
        qint64 nid = 0;
        QString name;
        qint64 line = 0;
        double time = 0;
        double timeInc = 0;
    };

    QString m_path;
    CsvRecords m_records;
    TrialBuilder m_builder;
    Shape m_shape = Shape::Plain;
    std::size_t m_columnCount = 0;
    std::array<int, ColumnCount> m_columns {};

    ThreadKey m_lastKey;
    ThreadIndex m_lastThread;
    std::size_t m_lastMetric = 0;
    std::unordered_map<std::string, EventEntry, StringHash, std::equal_to<>> m_events;
    std::unordered_map<std::string, AtomicEventId, StringHash, std::equal_to<>> m_atomicEvents;
    std::vector<MetricInfo> m_metrics;
    std::vector<IntervalAssembler> m_rows;
    std::vector<AtomicAssembler> m_atomicRows;
    std::vector<std::vector<MetadataEntry>> m_threadMetadata;
    std::vector<StringId> m_forced;
    std::vector<Statistic> m_statistics;
    std::vector<std::vector<Snapshot>> m_series;
    ThreadIndex m_snapshotThread;
    bool m_hasSeries = false;
    QStringList m_warnings;
    Provenance m_provenance;
    bool m_hasProvenance = false;
    std::vector<HatchetRow> m_hatchet;
    std::map<QString, std::set<qint64>> m_hatchetNids;
    std::vector<QString> m_hatchetNames;
};

} // namespace

CsvReader::CsvReader()
    : Reader({ QStringLiteral("csv"), QStringLiteral("CSV table of profile values"), { QStringLiteral("*.csv") } })
{
}

int CsvReader::sniff(const QString& path) const
{
    QByteArray head = fileHead(path, 4096).value_or(QByteArray());
    if (head.startsWith("\xEF\xBB\xBF"))
        head.remove(0, 3);
    if (head.startsWith("kind,node,context,thread,event,"))
        return 100;
    if (!path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
        return 0;
    const qsizetype eol = head.indexOf('\n');
    const QByteArray first = (eol < 0 ? head : head.left(eol)).toLower();
    QList<QByteArray> columns = first.split(',');
    for (QByteArray& c : columns)
        c = c.trimmed();
    if (columns.contains("nid") && columns.contains("rank") && columns.contains("time (inc)"))
        return 60;
    for (const char* name : { "event", "name", "function", "timer" })
        if (columns.contains(name))
            return 60;
    return 0;
}

TrialResult CsvReader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    (void)options;
    return readWithLoader<CsvLoader>(path, progress, QStringLiteral("a directory; a CSV table is one file"),
        QStringLiteral("Reading CSV"), QStringLiteral("out of memory while reading the CSV table"));
}

} // namespace parallax
