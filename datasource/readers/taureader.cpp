// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/taureader.h"

#include "datasource/model/names.h"
#include "datasource/model/poolwait.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/metadataparser.h"
#include "datasource/readers/textnumber.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>
#include <QtConcurrent/QtConcurrentMap>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

namespace parallax {

namespace {

struct StringViewHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
};

using StringIndex = std::unordered_map<std::string, std::uint32_t, StringViewHash, std::equal_to<>>;

/// Interns strings from many worker threads; ids are dense in order of first insertion.
class ConcurrentStrings {
public:
    std::uint32_t intern(std::string_view s)
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_index.find(s);
        if (it != m_index.end())
            return it->second;
        const auto id = static_cast<std::uint32_t>(m_strings.size());
        m_strings.emplace_back(s);
        m_index.emplace(std::string(s), id);
        return id;
    }
    const std::string& get(std::uint32_t id) const { return m_strings[id]; }
    std::size_t size() const { return m_strings.size(); }

private:
    std::mutex m_mutex;
    StringIndex m_index;
    std::deque<std::string> m_strings;
};

/// Event names shared by all files of a trial: canonical name -> temporary id, with the first
/// raw spelling and every distinct GROUP string seen.
class EventTable {
public:
    struct Entry {
        std::string canonical;
        std::string raw;
        std::vector<std::string> groupStrings;
    };

    std::uint32_t intern(std::string_view raw, std::string_view groups)
    {
        std::string canonical = names::canonical(raw);
        std::lock_guard lock(m_mutex);
        auto it = m_index.find(canonical);
        std::uint32_t id;
        if (it == m_index.end()) {
            id = static_cast<std::uint32_t>(m_entries.size());
            m_entries.push_back({ canonical, std::string(raw), {} });
            m_index.emplace(std::move(canonical), id);
        } else {
            id = it->second;
        }
        addGroupsLocked(id, groups);
        return id;
    }

    void addGroups(std::uint32_t id, std::string_view groups)
    {
        std::lock_guard lock(m_mutex);
        addGroupsLocked(id, groups);
    }

    const std::deque<Entry>& entries() const { return m_entries; }

private:
    void addGroupsLocked(std::uint32_t id, std::string_view groups)
    {
        if (groups.empty())
            return;
        auto& g = m_entries[id].groupStrings;
        if (std::find(g.begin(), g.end(), groups) == g.end())
            g.emplace_back(groups);
    }

    std::mutex m_mutex;
    StringIndex m_index;
    std::deque<Entry> m_entries;
};

/// Per-worker cache in front of an EventTable: raw name -> (id, groups last seen).
class LocalEvents {
public:
    explicit LocalEvents(EventTable& table)
        : m_table(table)
    {
    }

    /// `position` is the line's index among the file's event lines: files of one trial mostly list
    /// events in the same order, so comparing with the name seen at that position last time
    /// usually saves hashing the name.
    std::uint32_t lookup(std::string_view raw, std::string_view groups, std::size_t position)
    {
        if (position < m_byPosition.size()) {
            const auto& [name, cached] = m_byPosition[position];
            if (cached && name == raw && cached->second.groups == groups)
                return cached->second.id;
        }
        const std::uint32_t id = lookup(raw, groups);
        if (position < (1u << 20)) {
            if (position >= m_byPosition.size())
                m_byPosition.resize(position + 1);
            const auto it = m_cache.find(raw);
            m_byPosition[position] = { it->first, &*it };
        }
        return id;
    }

    std::uint32_t lookup(std::string_view raw, std::string_view groups)
    {
        const auto it = m_cache.find(raw);
        if (it != m_cache.end()) {
            if (it->second.groups != groups) {
                m_table.addGroups(it->second.id, groups);
                it->second.groups.assign(groups);
            }
            return it->second.id;
        }
        const std::uint32_t id = m_table.intern(raw, groups);
        m_cache.emplace(std::string(raw), Cached { id, std::string(groups) });
        return id;
    }

private:
    struct Cached {
        std::uint32_t id;
        std::string groups;
    };
    using Cache = std::unordered_map<std::string, Cached, StringViewHash, std::equal_to<>>;
    EventTable& m_table;
    Cache m_cache;
    std::vector<std::pair<std::string_view, Cache::value_type*>> m_byPosition; // views into m_cache keys
};

struct FileWork {
    ThreadKey key;
    QString path;
};

struct FileResult {
    ThreadKey key;
    QString path;
    bool failed = false;
    ReadError error;
    std::string metricName;
    IntervalRow row; // temporary event ids
    AtomicRow atomicRow; // temporary atomic ids
    std::vector<std::pair<std::uint32_t, std::uint32_t>> metadata; // (key, value) in the string table
    std::vector<std::uint32_t> contextKeys;
    std::vector<std::string> duplicateNames;
    std::size_t duplicateAtomics = 0;
    std::size_t negativeValues = 0;
    std::string firstNegative;
    std::size_t nonFiniteValues = 0; // NaN or infinite numbers, kept as read
    std::string firstNonFinite;
    std::size_t negativeCounts = 0; // negative calls, subrs or numevents, kept as read
    std::string firstNegativeCount;
    QStringList warnings;
};

struct Shared {
    EventTable events;
    EventTable atomics;
    ConcurrentStrings strings;
};

class LineCursor {
public:
    explicit LineCursor(std::string_view text)
        : m_text(text)
    {
    }
    bool next(std::string_view& line)
    {
        if (m_pos >= m_text.size())
            return false;
        const auto nl = m_text.find('\n', m_pos);
        const auto end = nl == std::string_view::npos ? m_text.size() : nl;
        line = m_text.substr(m_pos, end - m_pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        m_lineStart = m_pos;
        m_pos = nl == std::string_view::npos ? m_text.size() : nl + 1;
        ++m_lineNo;
        return true;
    }
    qint64 lineNo() const { return m_lineNo; }
    std::size_t lineStart() const { return m_lineStart; }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
    std::size_t m_lineStart = 0;
    qint64 m_lineNo = 0;
};

bool isBlank(char c) { return c == ' ' || c == '\t'; }

/// A number field: textnumber::parseDouble (std::from_chars; out-of-range text reads as strtod
/// reads it, +-inf or +-0).
bool parseNumber(std::string_view token, double& out)
{
    const auto v = textnumber::parseDouble(token);
    if (v)
        out = *v;
    return v.has_value();
}

/// Splits on blanks into at most `max` tokens; returns the count (max + 1 when there are more).
int tokenize(std::string_view s, std::string_view* tokens, int max)
{
    int n = 0;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && isBlank(s[i]))
            ++i;
        if (i >= s.size())
            break;
        std::size_t j = i;
        while (j < s.size() && !isBlank(s[j]))
            ++j;
        if (n == max)
            return max + 1;
        tokens[n++] = s.substr(i, j - i);
        i = j;
    }
    return n;
}

/// Position of the last `GROUP="` in the line, or npos. string_view::rfind would memcmp at every
/// position from the end; '=' is rare in a line, so memrchr finds the candidates directly.
std::size_t findGroupAttribute(std::string_view line)
{
    std::size_t end = line.size();
    while (end > 0) {
        const void* hit = memrchr(line.data(), '=', end);
        if (!hit)
            return std::string_view::npos;
        const auto eq = static_cast<std::size_t>(static_cast<const char*>(hit) - line.data());
        if (eq >= 5 && eq + 1 < line.size() && line[eq + 1] == '"' && line.substr(eq - 5, 5) == "GROUP")
            return eq - 5;
        end = eq;
    }
    return std::string_view::npos;
}

std::string quoteForMessage(std::string_view s)
{
    std::string out(s.substr(0, 60));
    for (auto& c : out)
        if (static_cast<unsigned char>(c) < 0x20)
            c = '?';
    if (s.size() > 60)
        out += "...";
    return "'" + out + "'";
}

bool parseLeadingInt(std::string_view line, long long& value, std::string_view& rest)
{
    std::size_t i = 0;
    while (i < line.size() && isBlank(line[i]))
        ++i;
    const auto [ptr, ec] = std::from_chars(line.data() + i, line.data() + line.size(), value);
    if (ec != std::errc() || ptr == line.data() + i)
        return false;
    rest = std::string_view(ptr, static_cast<std::size_t>(line.data() + line.size() - ptr));
    while (!rest.empty() && isBlank(rest.front()))
        rest.remove_prefix(1);
    return true;
}

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString metricFromLineOne(std::string_view line)
{
    const auto multi = line.find("_MULTI_");
    if (multi != std::string_view::npos)
        return QString::fromUtf8(line.substr(multi + 7).data(), static_cast<qsizetype>(line.size() - multi - 7));
    if (line.find("hw_counters") != std::string_view::npos)
        return QStringLiteral("Hardware Counter");
    return QStringLiteral("Time");
}

class FileParser {
public:
    FileParser(Shared& shared, LocalEvents& events, LocalEvents& atomics, std::vector<std::uint32_t>& seenStamp,
        std::uint32_t stamp)
        : m_shared(shared)
        , m_events(events)
        , m_atomics(atomics)
        , m_seen(seenStamp)
        , m_stamp(stamp)
    {
    }

    void parse(const FileWork& work, FileResult& result)
    {
        result.key = work.key;
        result.path = work.path;
        QFile file(work.path);
        if (!file.open(QIODevice::ReadOnly)) {
            fail(result, 0, QStringLiteral("cannot open: %1").arg(file.errorString()));
            return;
        }
        // A binary file shows a NUL byte at once: the first 64 KiB decide before the rest is read
        // (docs/FORMATS.md 11). Most profiles fit in them; a larger one is read on into one buffer.
        constexpr qint64 Head = qint64 { 64 } * 1024;
        QByteArray bytes = file.read(Head);
        if (bytes.size() == Head && !bytes.contains('\0')) {
            const qint64 size = std::max(file.size(), Head);
            bytes.resize(size);
            const qint64 got = file.read(bytes.data() + Head, size - Head);
            bytes.resize(Head + std::max<qint64>(got, 0));
            bytes += file.readAll(); // what a growing file added meanwhile
        }
        const std::string_view text(bytes.constData(), static_cast<std::size_t>(bytes.size()));
        if (text.empty()) {
            fail(result, 0, QStringLiteral("the file is empty; expected '<count> templated_functions' on line 1"));
            return;
        }
        const auto nul = text.find('\0');
        if (nul != std::string_view::npos) {
            result.failed = true;
            result.error = ReadError { work.path, 0, static_cast<qint64>(nul),
                QStringLiteral("binary data (a NUL byte); a TAU profile is text") };
            return;
        }
        parseText(text, result);
    }

private:
    void fail(FileResult& result, qint64 line, const QString& message)
    {
        result.failed = true;
        result.error = ReadError { result.path, line, -1, message };
    }

    void parseText(std::string_view text, FileResult& result)
    {
        LineCursor cursor(text);
        std::string_view line;
        cursor.next(line);
        long long nFunc = 0;
        std::string_view type;
        if (!parseLeadingInt(line, nFunc, type) || type.substr(0, 19) != "templated_functions") {
            fail(result, 1,
                QStringLiteral("expected '<count> templated_functions[_MULTI_<metric>]', found %1")
                    .arg(qs(quoteForMessage(line))));
            return;
        }
        if (nFunc < 0) {
            fail(result, 1, QStringLiteral("the event count %1 is negative").arg(nFunc));
            return;
        }
        QString metric = metricFromLineOne(type);

        // Line 2: the column header with the metadata block, or (very old files) an event line.
        if (!cursor.next(line)) {
            fail(result, 2,
                QStringLiteral("the file ends after line 1; expected the column header '# Name Calls Subrs Excl Incl "
                               "ProfileCalls'"));
            return;
        }
        bool haveLine = false;
        bool sumExclSqr = false;
        if (!line.empty() && line.front() == '#') {
            constexpr std::string_view header = "# Name Calls Subrs Excl Incl ";
            if (line.substr(0, header.size()) != header) {
                fail(result, 2,
                    QStringLiteral(
                        "expected the column header '# Name Calls Subrs Excl Incl [SumExclSqr] ProfileCalls', found %1")
                        .arg(qs(quoteForMessage(line))));
                return;
            }
            const std::string_view tail = line.substr(header.size());
            if (tail.substr(0, 23) == "SumExclSqr ProfileCalls")
                sumExclSqr = true;
            else if (tail.substr(0, 12) != "ProfileCalls") {
                fail(result, 2,
                    QStringLiteral(
                        "expected 'ProfileCalls' or 'SumExclSqr ProfileCalls' after the Incl column, found %1")
                        .arg(qs(quoteForMessage(tail))));
                return;
            }
            const auto mdStart = line.find("<metadata>");
            if (mdStart != std::string_view::npos) {
                const auto mdEnd = line.find("</metadata>", mdStart);
                const std::string_view xml = line.substr(
                    mdStart, mdEnd == std::string_view::npos ? std::string_view::npos : mdEnd + 11 - mdStart);
                const auto parsed = parseTauMetadata(xml);
                if (!parsed.error.empty() || mdEnd == std::string_view::npos) {
                    result.warnings << QStringLiteral("%1:2: metadata block is malformed at byte %2 of the line (%3); "
                                                      "kept the %4 attributes read before it")
                                           .arg(result.path)
                                           .arg(static_cast<qint64>(mdStart) + static_cast<qint64>(parsed.errorOffset))
                                           .arg(parsed.error.empty() ? QStringLiteral("no </metadata>")
                                                                     : qs(parsed.error))
                                           .arg(parsed.attributes.size());
                }
                for (const auto& attr : parsed.attributes) {
                    if (attr.key == "Metric Name" && !attr.hasTimerContext) {
                        metric = qs(attr.value);
                        continue;
                    }
                    const auto k = m_shared.strings.intern(attr.key);
                    result.metadata.emplace_back(k, m_shared.strings.intern(attr.value));
                    if (attr.hasTimerContext)
                        result.contextKeys.push_back(k);
                }
            }
        } else {
            haveLine = true; // old format: line 2 is already the first event line
        }
        result.metricName = metric.toStdString();

        const int numFields = sumExclSqr ? 6 : 5;
        const std::size_t reserve
            = static_cast<std::size_t>(std::min<long long>(nFunc, static_cast<long long>(text.size() / 8 + 1)));
        IntervalRow& row = result.row;
        row.events.reserve(reserve);
        row.calls.reserve(reserve);
        row.subrs.reserve(reserve);
        row.excl.reserve(reserve);
        row.incl.reserve(reserve);
        if (sumExclSqr)
            row.exclSqr.reserve(reserve);

        for (long long i = 0; i < nFunc; ++i) {
            if (!haveLine && !cursor.next(line)) {
                fail(result, cursor.lineNo() + 1,
                    QStringLiteral("the file ends after %1 of the %2 event lines announced on line 1 (truncated file, "
                                   "or a wrong count on line 1)")
                        .arg(i)
                        .arg(nFunc));
                return;
            }
            haveLine = false;
            if (!parseEventLine(line, cursor.lineNo(), numFields, i, nFunc, result))
                return;
            // Historical per-call lines (ProfileCalls > 0) follow the event line: skip them.
            const double profileCalls = m_lastProfileCalls;
            for (double k = 0; k < profileCalls; ++k) {
                if (!cursor.next(line)) {
                    fail(result, cursor.lineNo() + 1,
                        QStringLiteral(
                            "the file ends inside the %1 per-call lines (ProfileCalls) of the event on line %2")
                            .arg(profileCalls)
                            .arg(cursor.lineNo()));
                    return;
                }
            }
        }

        // "<n> aggregates", then n lines to skip.
        if (!cursor.next(line)) {
            fail(result, cursor.lineNo() + 1,
                QStringLiteral("the file ends after the %1 event lines; expected '0 aggregates' (truncated file?)")
                    .arg(nFunc));
            return;
        }
        long long nAggr = 0;
        std::string_view word;
        if (!parseLeadingInt(line, nAggr, word) || word.substr(0, 10) != "aggregates") {
            const bool looksLikeEvent = !line.empty() && line.front() == '"';
            fail(result, cursor.lineNo(),
                looksLikeEvent ? QStringLiteral("expected '<n> aggregates' after the %1 event lines announced on line "
                                                "1, found another event line: the count on line 1 is too small")
                                     .arg(nFunc)
                               : QStringLiteral("expected '<n> aggregates', found %1").arg(qs(quoteForMessage(line))));
            return;
        }
        if (nAggr > 0)
            result.warnings << QStringLiteral(
                "%1:%2: %3 aggregate lines skipped (TAU never wrote aggregates; Parallax does not read them)")
                                   .arg(result.path)
                                   .arg(cursor.lineNo())
                                   .arg(nAggr);
        for (long long k = 0; k < nAggr; ++k)
            if (!cursor.next(line))
                break;

        // Optional user events.
        while (cursor.next(line)) {
            if (line.find_first_not_of(" \t") == std::string_view::npos)
                continue;
            long long nUser = 0;
            if (!parseLeadingInt(line, nUser, word) || word.substr(0, 10) != "userevents") {
                fail(result, cursor.lineNo(),
                    QStringLiteral("expected '<n> userevents' or the end of the file, found %1")
                        .arg(qs(quoteForMessage(line))));
                return;
            }
            if (nUser < 0) {
                fail(result, cursor.lineNo(), QStringLiteral("the user event count %1 is negative").arg(nUser));
                return;
            }
            if (!cursor.next(line) || line.substr(0, 11) != "# eventname") {
                fail(result, cursor.lineNo(),
                    QStringLiteral(
                        "expected the header '# eventname numevents max min mean sumsqr' after '%1 userevents'")
                        .arg(nUser));
                return;
            }
            for (long long k = 0; k < nUser; ++k) {
                if (!cursor.next(line)) {
                    fail(result, cursor.lineNo() + 1,
                        QStringLiteral(
                            "the file ends after %1 of the %2 user event lines (truncated file, or a wrong count)")
                            .arg(k)
                            .arg(nUser));
                    return;
                }
                if (!parseUserEventLine(line, cursor.lineNo(), result))
                    return;
            }
            while (cursor.next(line)) {
                if (line.find_first_not_of(" \t") != std::string_view::npos) {
                    fail(result, cursor.lineNo(),
                        QStringLiteral(
                            "unexpected text after the %1 user event lines: %2 (is the user event count wrong?)")
                            .arg(nUser)
                            .arg(qs(quoteForMessage(line))));
                    return;
                }
            }
        }
    }

    bool parseEventLine(
        std::string_view line, qint64 lineNo, int numFields, long long index, long long count, FileResult& result)
    {
        if (line.empty() || line.front() != '"') {
            if (line.substr(0, 1) >= "0" && line.substr(0, 1) <= "9"
                && line.find("aggregates") != std::string_view::npos) {
                fail(result, lineNo,
                    QStringLiteral(
                        "found '%1' after %2 event lines, but line 1 announces %3: the count on line 1 is too large")
                        .arg(qs(std::string(line)))
                        .arg(index)
                        .arg(count));
            } else {
                fail(result, lineNo,
                    QStringLiteral("expected event line %1 of %2 to start with a quoted name, found %3")
                        .arg(index + 1)
                        .arg(count)
                        .arg(qs(quoteForMessage(line))));
            }
            return false;
        }
        const auto groupPos = findGroupAttribute(line);
        std::size_t closing;
        if (groupPos != std::string_view::npos && groupPos > 0)
            closing = line.rfind('"', groupPos - 1);
        else
            closing = line.rfind('"');
        if (closing == 0 || closing == std::string_view::npos) {
            fail(result, lineNo,
                QStringLiteral("unterminated quote in the event name: expected '\"name\" calls subrs excl incl ...'"));
            return false;
        }
        const std::string_view raw = line.substr(1, closing - 1);
        const std::size_t fieldsEnd = groupPos == std::string_view::npos || groupPos < closing ? line.size() : groupPos;
        std::string_view groups;
        if (groupPos != std::string_view::npos && groupPos > closing) {
            const std::size_t gStart = groupPos + 7;
            const auto gEnd = line.find('"', gStart);
            if (gEnd == std::string_view::npos) {
                fail(result, lineNo, QStringLiteral("unterminated quote in GROUP=\"...\""));
                return false;
            }
            groups = line.substr(gStart, gEnd - gStart);
        }
        std::string_view tokens[8];
        const int n = tokenize(line.substr(closing + 1, fieldsEnd - closing - 1), tokens, 7);
        static const char* const names5[] = { "Calls", "Subrs", "Excl", "Incl", "ProfileCalls" };
        static const char* const names6[] = { "Calls", "Subrs", "Excl", "Incl", "SumExclSqr", "ProfileCalls" };
        const char* const* fieldNames = numFields == 6 ? names6 : names5;
        if (n != numFields) {
            fail(result, lineNo,
                QStringLiteral("expected %1 numbers after the name (%2), found %3")
                    .arg(numFields)
                    .arg(numFields == 6 ? QStringLiteral("Calls Subrs Excl Incl SumExclSqr ProfileCalls")
                                        : QStringLiteral("Calls Subrs Excl Incl ProfileCalls"))
                    .arg(n > numFields ? QStringLiteral("more") : QString::number(n)));
            return false;
        }
        double v[6] = {};
        for (int k = 0; k < numFields; ++k) {
            if (!parseNumber(tokens[k], v[k])) {
                fail(result, lineNo,
                    QStringLiteral("expected a number for %1, found %2")
                        .arg(QLatin1String(fieldNames[k]), qs(quoteForMessage(tokens[k]))));
                return false;
            }
        }
        const std::uint32_t id = m_events.lookup(raw, groups, static_cast<std::size_t>(index));
        if (id >= m_seen.size())
            m_seen.resize(std::max<std::size_t>(id + 1, m_seen.size() * 2), 0);
        if (m_seen[id] == m_stamp)
            result.duplicateNames.emplace_back(names::canonical(raw));
        m_seen[id] = m_stamp;
        IntervalRow& row = result.row;
        row.events.push_back(EventId(id));
        row.calls.push_back(v[0]);
        row.subrs.push_back(v[1]);
        row.excl.push_back(v[2]);
        row.incl.push_back(v[3]);
        if (numFields == 6)
            row.exclSqr.push_back(v[4]);
        m_lastProfileCalls = v[numFields - 1];
        if (v[2] < 0 || v[3] < 0) {
            if (result.negativeValues == 0)
                result.firstNegative = "line " + std::to_string(lineNo) + " " + names::canonical(raw);
            ++result.negativeValues;
        }
        noteOddities(v, fieldNames, numFields, 2, lineNo, raw, result);
        return true;
    }

    /// docs/SEMANTICS.md 1.4 keeps odd values as they are but reports them: NaN or infinite numbers,
    /// and negative counts (the first `countFields` fields are counts).
    static void noteOddities(const double* v, const char* const* fieldNames, int n, int countFields, qint64 lineNo,
        std::string_view raw, FileResult& result)
    {
        for (int k = 0; k < n; ++k) {
            if (!std::isfinite(v[k])) {
                if (result.nonFiniteValues == 0)
                    result.firstNonFinite
                        = "line " + std::to_string(lineNo) + " '" + names::canonical(raw) + "' " + fieldNames[k];
                ++result.nonFiniteValues;
            } else if (k < countFields && v[k] < 0) {
                if (result.negativeCounts == 0)
                    result.firstNegativeCount
                        = "line " + std::to_string(lineNo) + " '" + names::canonical(raw) + "' " + fieldNames[k];
                ++result.negativeCounts;
            }
        }
    }

    bool parseUserEventLine(std::string_view line, qint64 lineNo, FileResult& result)
    {
        if (line.empty() || line.front() != '"') {
            fail(result, lineNo,
                QStringLiteral("expected a user event line '\"name\" numevents max min mean sumsqr', found %1")
                    .arg(qs(quoteForMessage(line))));
            return false;
        }
        const auto closing = line.rfind('"');
        if (closing == 0) {
            fail(result, lineNo, QStringLiteral("unterminated quote in the user event name"));
            return false;
        }
        const std::string_view raw = line.substr(1, closing - 1);
        std::string_view tokens[6];
        const int n = tokenize(line.substr(closing + 1), tokens, 5);
        if (n != 5) {
            fail(result, lineNo,
                QStringLiteral("expected 5 numbers after the user event name (numevents max min mean sumsqr), found %1")
                    .arg(n > 5 ? QStringLiteral("more") : QString::number(n)));
            return false;
        }
        static const char* const fieldNames[] = { "numevents", "max", "min", "mean", "sumsqr" };
        double v[5];
        for (int k = 0; k < 5; ++k) {
            if (!parseNumber(tokens[k], v[k])) {
                fail(result, lineNo,
                    QStringLiteral("expected a number for %1, found %2")
                        .arg(QLatin1String(fieldNames[k]), qs(quoteForMessage(tokens[k]))));
                return false;
            }
        }
        AtomicRow& row = result.atomicRow;
        const std::uint32_t id = m_atomics.lookup(raw, {});
        if (std::find(row.events.begin(), row.events.end(), AtomicEventId(id)) != row.events.end())
            ++result.duplicateAtomics;
        row.append(AtomicEventId(id), v[0], v[1], v[2], v[3], v[4]);
        noteOddities(v, fieldNames, 5, 1, lineNo, raw, result);
        return true;
    }

    Shared& m_shared;
    LocalEvents& m_events;
    LocalEvents& m_atomics;
    std::vector<std::uint32_t>& m_seen;
    std::uint32_t m_stamp;
    double m_lastProfileCalls = 0;
};

struct MetricDir {
    QString label; // "" for a single-metric directory, else the MULTI__ directory name
    std::vector<FileWork> files;
};

std::vector<FileWork> listProfiles(const QDir& dir)
{
    std::vector<FileWork> files;
    const QStringList entries = dir.entryList({ QStringLiteral("profile.*") }, QDir::Files | QDir::Readable);
    for (const QString& name : entries) {
        ThreadKey key;
        if (TauReader::parseProfileFileName(name, key))
            files.push_back({ key, dir.filePath(name) });
    }
    std::sort(files.begin(), files.end(), [](const FileWork& a, const FileWork& b) { return a.key < b.key; });
    return files;
}

/// Parses all files of one metric directory in parallel.
std::vector<FileResult> parseFiles(
    const std::vector<FileWork>& files, Shared& shared, const ReadOptions& options, Progress& progress)
{
    std::vector<FileResult> results(files.size());
    std::atomic<std::size_t> next { 0 };
    const int workers = std::max(1,
        std::min<int>(
            options.threads > 0 ? options.threads : QThread::idealThreadCount(), static_cast<int>(files.size())));
    auto work = [&]() {
        LocalEvents events(shared.events);
        LocalEvents atomics(shared.atomics);
        std::vector<std::uint32_t> seen;
        std::uint32_t stamp = 0;
        while (!progress.isCancelled()) {
            const std::size_t i = next.fetch_add(1);
            if (i >= files.size())
                break;
            FileParser parser(shared, events, atomics, seen, ++stamp);
            parser.parse(files[i], results[i]);
            progress.advance();
        }
    };
    std::vector<QFuture<void>> futures;
    for (int w = 1; w < workers; ++w)
        futures.push_back(QtConcurrent::run(work));
    work(); // the calling thread works too
    for (auto& f : futures)
        f.waitForFinished();
    return results;
}

QString fileLabel(const QString& path)
{
    const QFileInfo info(path);
    return info.dir().dirName() + QLatin1Char('/') + info.fileName();
}

} // namespace

bool TauReader::parseProfileFileName(const QString& fileName, ThreadKey& key)
{
    return parseThreadFileName(fileName, QLatin1StringView("profile."), key);
}

QString TauReader::metricNameFromHeader(const QString& firstLine)
{
    const QByteArray utf8 = firstLine.toUtf8();
    return metricFromLineOne(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())));
}

TauReader::TauReader()
    : Reader({ QStringLiteral("tau"), QStringLiteral("TAU profile directory (profile.N.C.T, MULTI__*)"),
        { QStringLiteral("profile.*.*.*") } })
{
}

int TauReader::sniff(const QString& path) const
{
    const QFileInfo info(path);
    ThreadKey key;
    if (info.isFile())
        return parseProfileFileName(info.fileName(), key) ? 90 : 0;
    if (!info.isDir())
        return 0;
    const QDir dir(path);
    for (const QString& name : dir.entryList({ QStringLiteral("profile.*") }, QDir::Files))
        if (parseProfileFileName(name, key))
            return 100;
    // Case-sensitive (QDir matches name filters case-insensitively by default): Extra-P's scaling
    // sets have "multi_parameter/" folders of CUBE profiles, which are no TAU metric directories.
    if (!dir.entryList({ QStringLiteral("MULTI_*") }, QDir::Dirs | QDir::NoDotAndDotDot | QDir::CaseSensitive)
             .isEmpty())
        return 100;
    return 1; // any directory: TAU is the directory format, and its error says what is missing
}

TrialResult TauReader::read(const QString& inputPath, const ReadOptions& options, Progress& progress) const
{
    QFileInfo info(inputPath);
    QString path = inputPath;
    if (info.isFile()) {
        ThreadKey key;
        if (!parseProfileFileName(info.fileName(), key))
            return ReadError { inputPath, 0, -1,
                QStringLiteral("not a TAU profile file: expected a name like profile.0.0.0") };
        path = info.absolutePath(); // a profile file stands for its whole directory
        info = QFileInfo(path);
    }
    if (!info.isDir())
        return ReadError { path, 0, -1, QStringLiteral("not a directory") };
    const QDir dir(path);

    // Discover the metric directories (docs/FORMATS.md 1.1).
    std::vector<MetricDir> metricDirs;
    std::vector<FileWork> single = listProfiles(dir);
    if (!single.empty()) {
        metricDirs.push_back({ QString(), std::move(single) });
    } else {
        QStringList multi = dir.entryList(
            { QStringLiteral("MULTI_*") }, QDir::Dirs | QDir::NoDotAndDotDot | QDir::CaseSensitive, QDir::Name);
        for (const QString& sub : multi) {
            auto files = listProfiles(QDir(dir.filePath(sub)));
            if (files.empty())
                return ReadError { dir.filePath(sub), 0, -1,
                    QStringLiteral("metric directory without profile.N.C.T files") };
            metricDirs.push_back({ sub, std::move(files) });
        }
    }
    if (metricDirs.empty()) {
        const QStringList all = dir.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
        if (all.isEmpty())
            return ReadError { path, 0, -1,
                QStringLiteral("the directory is empty; expected TAU profile files profile.N.C.T or MULTI__<metric> "
                               "directories") };
        QStringList shown = all.mid(0, 5);
        return ReadError { path, 0, -1,
            QStringLiteral("no TAU profiles here: expected files named profile.N.C.T (N, C, T non-negative integers) "
                           "or MULTI__<metric> directories; found %1%2")
                .arg(shown.join(QStringLiteral(", ")), all.size() > 5 ? QStringLiteral(", ...") : QString()) };
    }

    qint64 totalFiles = 0;
    for (const auto& md : metricDirs)
        totalFiles += static_cast<qint64>(md.files.size());
    progress.setStage(QStringLiteral("Reading TAU profiles"), totalFiles);

    Shared shared;
    std::vector<std::vector<FileResult>> results;
    for (const auto& md : metricDirs) {
        results.push_back(parseFiles(md.files, shared, options, progress));
        if (progress.isCancelled())
            return ReadError { path, 0, -1, QStringLiteral("cancelled") };
    }

    TrialBuilder builder(QFileInfo(path).fileName().isEmpty() ? path : QFileInfo(path).fileName());
    QStringList warnings;

    // Failed files: fatal in strict mode or when nothing is left, else skipped with a warning.
    std::set<ThreadKey> dropped;
    for (const auto& dirResults : results) {
        for (const auto& r : dirResults) {
            if (!r.failed)
                continue;
            if (options.strict)
                return r.error;
            dropped.insert(r.key);
        }
    }
    // Metric names: one per directory, all directories distinct.
    std::vector<QString> metricNames;
    for (std::size_t d = 0; d < results.size(); ++d) {
        QString name;
        QString namedBy;
        for (const auto& r : results[d]) {
            if (r.failed)
                continue;
            const QString m = qs(r.metricName);
            if (name.isNull()) {
                name = m;
                namedBy = r.path;
            } else if (m != name) {
                return ReadError { QFileInfo(r.path).absolutePath(), 0, -1,
                    QStringLiteral(
                        "a mix of metrics that cannot be merged into one trial: %1 measures '%2' but %3 measures '%4'")
                        .arg(fileLabel(namedBy), name, fileLabel(r.path), m) };
            }
        }
        for (std::size_t e = 0; e < metricNames.size(); ++e) {
            if (!name.isNull() && metricNames[e] == name)
                return ReadError { path, 0, -1,
                    QStringLiteral("a mix of metrics that cannot be merged: %1 and %2 both hold metric '%3'")
                        .arg(metricDirs[e].label, metricDirs[d].label, name) };
        }
        metricNames.push_back(name);
    }
    // Thread sets must agree across metric directories.
    if (results.size() > 1) {
        std::set<ThreadKey> first;
        for (const auto& f : metricDirs[0].files)
            first.insert(f.key);
        for (std::size_t d = 1; d < metricDirs.size(); ++d) {
            std::set<ThreadKey> keys;
            for (const auto& f : metricDirs[d].files)
                keys.insert(f.key);
            if (keys != first) {
                std::vector<ThreadKey> diff;
                std::set_symmetric_difference(
                    first.begin(), first.end(), keys.begin(), keys.end(), std::back_inserter(diff));
                const ThreadKey k = diff.front();
                const bool inFirst = first.count(k) > 0;
                return ReadError { path, 0, -1,
                    QStringLiteral("a mix of metrics that cannot be merged: %1 has profile.%2.%3.%4 but %5 does not")
                        .arg(inFirst ? metricDirs[0].label : metricDirs[d].label)
                        .arg(k.node)
                        .arg(k.context)
                        .arg(k.thread)
                        .arg(inFirst ? metricDirs[d].label : metricDirs[0].label) };
            }
        }
    }
    std::size_t goodThreads = 0;
    for (const auto& r : results[0])
        if (!dropped.count(r.key))
            ++goodThreads;
    if (goodThreads == 0) {
        for (const auto& r : results[0])
            if (r.failed)
                return r.error;
    }
    if (!dropped.empty()) {
        QStringList reasons;
        for (const auto& dirResults : results)
            for (const auto& r : dirResults)
                if (r.failed)
                    reasons << r.error.toString();
        warnings << QStringLiteral("skipped %1 unreadable profile file(s); the trial has the other %2 thread(s): %3")
                        .arg(reasons.size())
                        .arg(goodThreads)
                        .arg(reasons.mid(0, 10).join(QStringLiteral("; "))
                            + (reasons.size() > 10 ? QStringLiteral("; ...") : QString()));
    }

    for (const QString& m : metricNames) {
        Metric metric;
        metric.name = m.isNull() ? QStringLiteral("Time") : m;
        metric.unit
            = metric.name.toUpper().contains(QLatin1String("TIME")) ? QStringLiteral("us") : QStringLiteral("count");
        builder.addMetric(metric);
    }

    // Event ids follow first appearance, scanning the files in thread order: deterministic, and
    // rows that list events in the same order as earlier files need no sorting.
    progress.setStage(QStringLiteral("Building the trial"), 0);
    const auto& eventEntries = shared.events.entries();
    std::vector<EventId> remap(eventEntries.size());
    for (const auto& dirResults : results)
        for (const auto& r : dirResults) {
            if (r.failed)
                continue;
            for (EventId temp : r.row.events) {
                if (remap[temp.index()].isValid())
                    continue;
                const auto& e = eventEntries[temp.index()];
                QStringList groups;
                for (const auto& g : e.groupStrings)
                    for (const QString& part : qs(g).split(QLatin1Char('|')))
                        if (!part.trimmed().isEmpty() && !groups.contains(part.trimmed()))
                            groups << part.trimmed();
                remap[temp.index()] = builder.addEvent(qs(e.canonical), groups, qs(e.raw));
            }
        }
    const auto& atomicEntries = shared.atomics.entries();
    std::vector<AtomicEventId> atomicRemap(atomicEntries.size());
    for (const auto& r : results[0]) {
        if (r.failed)
            continue;
        for (AtomicEventId temp : r.atomicRow.events)
            if (!atomicRemap[temp.index()].isValid())
                atomicRemap[temp.index()] = builder.addAtomicEvent(
                    qs(atomicEntries[temp.index()].canonical), qs(atomicEntries[temp.index()].raw));
    }

    // Remap and sort every row (in parallel), then merge the metric directories.
    for (auto& dirResults : results) {
        waitInPool([&] {
            QtConcurrent::blockingMap(dirResults, [&](FileResult& r) {
                if (r.failed)
                    return;
                for (auto& e : r.row.events)
                    e = remap[e.index()];
                normaliseIntervalRow(r.row, 1);
                for (auto& e : r.atomicRow.events)
                    e = atomicRemap[e.index()];
            });
        });
    }

    const std::size_t metricCount = results.size();
    std::vector<IntervalRow> rows;
    std::vector<AtomicRow> atomicRows;
    std::vector<ThreadIndex> threadOf(results[0].size());
    rows.reserve(goodThreads);
    std::size_t missingMetricCells = 0;
    std::size_t duplicateFiles = 0;
    QStringList duplicateExamples;
    std::size_t negativeFiles = 0;
    std::size_t negativeTotal = 0;
    QString negativeExample;
    std::size_t nonFiniteFiles = 0;
    std::size_t nonFiniteTotal = 0;
    QString nonFiniteExample;
    std::size_t negativeCountFiles = 0;
    std::size_t negativeCountTotal = 0;
    QString negativeCountExample;
    std::size_t duplicateAtomicTotal = 0;
    for (std::size_t i = 0; i < results[0].size(); ++i) {
        FileResult& base = results[0][i];
        if (dropped.count(base.key))
            continue;
        threadOf[i] = builder.addThread(base.key);
        for (std::size_t d = 0; d < metricCount; ++d) {
            const FileResult& r = results[d][i];
            warnings << r.warnings;
            if (!r.duplicateNames.empty()) {
                ++duplicateFiles;
                if (duplicateExamples.size() < 5)
                    duplicateExamples << fileLabel(r.path) + QStringLiteral(" '") + qs(r.duplicateNames.front())
                            + QLatin1Char('\'');
            }
            if (r.negativeValues > 0) {
                ++negativeFiles;
                negativeTotal += r.negativeValues;
                if (negativeExample.isEmpty())
                    negativeExample = fileLabel(r.path) + QLatin1Char(' ') + qs(r.firstNegative);
            }
            if (r.nonFiniteValues > 0) {
                ++nonFiniteFiles;
                nonFiniteTotal += r.nonFiniteValues;
                if (nonFiniteExample.isEmpty())
                    nonFiniteExample = fileLabel(r.path) + QLatin1Char(' ') + qs(r.firstNonFinite);
            }
            if (r.negativeCounts > 0) {
                ++negativeCountFiles;
                negativeCountTotal += r.negativeCounts;
                if (negativeCountExample.isEmpty())
                    negativeCountExample = fileLabel(r.path) + QLatin1Char(' ') + qs(r.firstNegativeCount);
            }
        }
        duplicateAtomicTotal += base.duplicateAtomics;
        if (metricCount == 1) {
            rows.push_back(std::move(base.row));
        } else {
            // Union of the cells of every metric; calls and subrs from the first metric holding the cell.
            std::vector<EventId> all;
            for (std::size_t d = 0; d < metricCount; ++d)
                all.insert(all.end(), results[d][i].row.events.begin(), results[d][i].row.events.end());
            std::sort(all.begin(), all.end());
            all.erase(std::unique(all.begin(), all.end()), all.end());
            IntervalRow merged;
            const std::size_t n = all.size();
            merged.events = all;
            merged.calls.assign(n, 0.0);
            merged.subrs.assign(n, 0.0);
            merged.excl.assign(n * metricCount, 0.0);
            merged.incl.assign(n * metricCount, 0.0);
            std::vector<bool> haveCalls(n, false);
            for (std::size_t d = 0; d < metricCount; ++d)
                if (!results[d][i].row.exclSqr.empty())
                    merged.exclSqr.assign(n * metricCount, 0.0);
            for (std::size_t d = 0; d < metricCount; ++d) {
                const IntervalRow& src = results[d][i].row;
                std::size_t k = 0;
                for (std::size_t c = 0; c < n; ++c) {
                    if (k < src.events.size() && src.events[k] == all[c]) {
                        merged.excl[d * n + c] = src.excl[k];
                        merged.incl[d * n + c] = src.incl[k];
                        if (!src.exclSqr.empty())
                            merged.exclSqr[d * n + c] = src.exclSqr[k];
                        if (!haveCalls[c]) {
                            merged.calls[c] = src.calls[k];
                            merged.subrs[c] = src.subrs[k];
                            haveCalls[c] = true;
                        }
                        ++k;
                    } else {
                        ++missingMetricCells;
                    }
                }
            }
            rows.push_back(std::move(merged));
        }
        atomicRows.push_back(std::move(base.atomicRow));
    }
    builder.setIntervalRows(std::move(rows));
    builder.setAtomicRows(std::move(atomicRows));

    // Metadata of the first metric directory; keys with a timer context stay per thread.
    std::vector<StringId> stringMap(shared.strings.size());
    auto poolId = [&](std::uint32_t temp) {
        if (!stringMap[temp].isValid())
            stringMap[temp] = builder.strings().intern(qs(shared.strings.get(temp)));
        return stringMap[temp];
    };
    for (std::size_t i = 0; i < results[0].size(); ++i) {
        const FileResult& r = results[0][i];
        if (dropped.count(r.key))
            continue;
        std::vector<MetadataEntry> entries;
        entries.reserve(r.metadata.size());
        for (const auto& [k, v] : r.metadata) {
            const MetadataEntry entry { poolId(k), poolId(v) };
            auto existing = std::find_if(
                entries.begin(), entries.end(), [&](const MetadataEntry& e) { return e.key == entry.key; });
            if (existing != entries.end())
                existing->value = entry.value;
            else
                entries.push_back(entry);
        }
        for (auto k : r.contextKeys)
            builder.forcePerThreadKey(poolId(k));
        builder.setThreadMetadataEntries(threadOf[i], std::move(entries));
    }

    if (duplicateFiles > 0)
        warnings << QStringLiteral(
            "duplicate event names were summed in %1 file(s) (excl, incl, calls, subrs), e.g. %2")
                        .arg(duplicateFiles)
                        .arg(duplicateExamples.join(QStringLiteral(", ")));
    if (duplicateAtomicTotal > 0)
        warnings << QStringLiteral(
            "%1 duplicate user event records were merged (pooled count, min, max, mean, sum of squares)")
                        .arg(duplicateAtomicTotal);
    // A result of the algebra (a difference, a ratio) has negative values, negative counts, NaN
    // and infinities by design (docs/SEMANTICS.md 3): its metadata names the operation, and then they
    // are no oddity worth a warning.
    bool algebraResult = false;
    if (negativeTotal > 0 || nonFiniteTotal > 0 || negativeCountTotal > 0) {
        const StringId operation = builder.strings().find(QStringLiteral("Parallax operation"));
        for (std::size_t i = 0; i < results[0].size() && !algebraResult && operation.isValid(); ++i)
            for (const auto& [k, v] : results[0][i].metadata)
                if (poolId(k) == operation) {
                    algebraResult = true;
                    break;
                }
    }
    if (negativeTotal > 0 && !algebraResult)
        warnings << QStringLiteral(
            "%1 negative exclusive or inclusive value(s) in %2 file(s), kept as they are (first: %3)")
                        .arg(negativeTotal)
                        .arg(negativeFiles)
                        .arg(negativeExample);
    if (nonFiniteTotal > 0 && !algebraResult)
        warnings << QStringLiteral("%1 NaN or infinite value(s) in %2 file(s), kept as they are (first: %3)")
                        .arg(nonFiniteTotal)
                        .arg(nonFiniteFiles)
                        .arg(nonFiniteExample);
    if (negativeCountTotal > 0 && !algebraResult)
        warnings << QStringLiteral(
            "%1 negative count(s) (calls, subrs or numevents) in %2 file(s), kept as they are (first: %3)")
                        .arg(negativeCountTotal)
                        .arg(negativeCountFiles)
                        .arg(negativeCountExample);
    if (missingMetricCells > 0)
        warnings << QStringLiteral(
            "%1 (thread, event) cell(s) are missing from some metric directories; their values there are 0")
                        .arg(missingMetricCells);
    return finishRead(*this, ReadJob { path }, builder, warnings);
}

} // namespace parallax
