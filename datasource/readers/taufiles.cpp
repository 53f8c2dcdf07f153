// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/taufiles.h"

#include "datasource/readers/metadataparser.h"
#include "datasource/readers/textnumber.h"

#include <QThread>
#include <QtConcurrent/QtConcurrentRun>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace parallax::taufiles {

namespace {

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

/// The blank-separated numbers of a line after the name, parsed into v[0..max).
struct Fields {
    int count = 0; // max + 1 when there are more
    int bad = -1; // the first field that is no number
    std::string_view badToken;
};

Fields parseFields(std::string_view s, double* v, int max)
{
    Fields f;
    const char* p = s.data();
    const char* const end = p + s.size();
    while (true) {
        while (p < end && isBlank(*p))
            ++p;
        if (p == end)
            return f;
        const char* const start = p;
        // A plain integer of up to 15 digits (most of TAU's fields) is converted here, exactly;
        // anything else goes to std::from_chars.
        std::uint64_t x = 0;
        bool digits = true;
        while (p < end && !isBlank(*p)) {
            const auto d = static_cast<unsigned>(*p - '0');
            digits = digits && d <= 9;
            x = x * 10 + d;
            ++p;
        }
        if (f.count == max) {
            f.count = max + 1;
            return f;
        }
        const std::string_view token(start, static_cast<std::size_t>(p - start));
        if (digits && token.size() <= 15)
            v[f.count] = static_cast<double>(x);
        else if (!parseNumber(token, v[f.count]) && f.bad < 0) {
            f.bad = f.count;
            f.badToken = token;
        }
        ++f.count;
    }
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

/// A TAU metadata block's top-level attributes, interned, for the files of a trial: most files
/// repeat most attributes byte for byte (only the rank, pid, timestamps... differ), so an
/// `<attribute>...</attribute>` chunk equal to the one at the same position in the worker's
/// previous file reuses its ids without parsing (docs/FORMATS.md 1.3).
class MetadataChunks {
public:
    struct Attribute {
        std::uint32_t key = 0;
        std::uint32_t value = 0;
        bool context = false;
        bool metricName = false; // "Metric Name" without a timer context: names the metric
    };

    explicit MetadataChunks(ConcurrentStrings& strings)
        : m_strings(strings)
    {
    }

    /// The attributes of `xml` ("<metadata>...</metadata>"), or false when the block is not a plain
    /// sequence of well-formed chunks (nested attributes, comments, malformed XML): then the caller
    /// parses it whole, with parseTauMetadata's error reporting.
    bool read(std::string_view xml, std::vector<Attribute>& out, std::string& metricValue)
    {
        constexpr std::string_view open = "<metadata>";
        constexpr std::string_view close = "</metadata>";
        constexpr std::string_view chunkOpen = "<attribute>";
        constexpr std::string_view chunkClose = "</attribute>";
        if (xml.substr(0, open.size()) != open || xml.size() < open.size() + close.size()
            || xml.substr(xml.size() - close.size()) != close)
            return false;
        std::string_view rest = xml.substr(open.size(), xml.size() - open.size() - close.size());
        std::size_t index = 0;
        out.clear();
        while (true) {
            while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t'))
                rest.remove_prefix(1);
            if (rest.empty())
                return true;
            if (index >= m_chunks.size())
                m_chunks.resize(index + 1);
            Chunk& cached = m_chunks[index++];
            // A cached chunk holds one "</attribute>", at its end: when the text starts with it,
            // the chunk here ends at the same place and is the same.
            if (cached.valid && rest.substr(0, cached.text.size()) == cached.text) {
                rest.remove_prefix(cached.text.size());
            } else {
                if (rest.substr(0, chunkOpen.size()) != chunkOpen)
                    return false;
                const auto end = rest.find(chunkClose);
                if (end == std::string_view::npos
                    || rest.substr(chunkOpen.size(), end - chunkOpen.size()).find(chunkOpen) != std::string_view::npos)
                    return false; // nested attributes: the whole-block parser handles them
                const std::string_view chunk = rest.substr(0, end + chunkClose.size());
                rest.remove_prefix(chunk.size());
                if (!parseChunk(chunk, cached))
                    return false;
            }
            for (const Attribute& attr : cached.attributes) {
                out.push_back(attr);
                if (attr.metricName)
                    metricValue = cached.metricValue;
            }
        }
    }

private:
    struct Chunk {
        bool valid = false;
        std::string text;
        std::vector<Attribute> attributes;
        std::string metricValue;
    };

    bool parseChunk(std::string_view chunk, Chunk& cached)
    {
        cached.valid = false;
        cached.attributes.clear();
        cached.text.assign(chunk);
        // TAU's usual form needs no XML parser: <attribute><name>K</name><value>V</value></attribute>
        // with no markup or entity inside K and V.
        constexpr std::string_view head = "<attribute><name>";
        constexpr std::string_view middle = "</name><value>";
        constexpr std::string_view tail = "</value></attribute>";
        const auto plain = [](std::string_view t) { return t.find_first_of("<&") == std::string_view::npos; };
        MetadataAttribute attr;
        if (chunk.substr(0, head.size()) == head && chunk.size() >= head.size() + tail.size()
            && chunk.substr(chunk.size() - tail.size()) == tail) {
            const std::string_view inner = chunk.substr(head.size(), chunk.size() - head.size() - tail.size());
            const auto mid = inner.find(middle);
            if (mid != std::string_view::npos && plain(inner.substr(0, mid))
                && plain(inner.substr(mid + middle.size()))) {
                attr.key.assign(inner.substr(0, mid));
                attr.value.assign(inner.substr(mid + middle.size()));
                add(attr, cached);
                cached.valid = true;
                return true;
            }
        }
        std::string wrapped = "<metadata>";
        wrapped.append(chunk);
        wrapped.append("</metadata>");
        const MetadataParseResult parsed = parseTauMetadata(wrapped);
        if (!parsed.error.empty())
            return false;
        for (const auto& a : parsed.attributes)
            add(a, cached);
        cached.valid = true;
        return true;
    }

    void add(const MetadataAttribute& attr, Chunk& cached)
    {
        Attribute a;
        a.context = attr.hasTimerContext;
        if (attr.key == "Metric Name" && !attr.hasTimerContext) {
            a.metricName = true;
            cached.metricValue = attr.value;
        } else {
            a.key = m_strings.intern(attr.key);
            a.value = m_strings.intern(attr.value);
        }
        cached.attributes.push_back(a);
    }

    ConcurrentStrings& m_strings;
    std::vector<Chunk> m_chunks;
};

/// What one parsing thread keeps from file to file: name caches, the read buffer, the metadata
/// chunks of the previous file.
struct Worker {
    explicit Worker(Shared& s)
        : shared(s)
        , events(s.events)
        , atomics(s.atomics)
        , metadata(s.strings)
    {
    }
    Shared& shared;
    LocalEvents events;
    LocalEvents atomics;
    MetadataChunks metadata;
    std::vector<MetadataChunks::Attribute> attributes;
    std::vector<std::uint32_t> seen; // stamp per temporary event id: duplicate names in one file
    std::vector<std::uint32_t> keyStamp; // per string id: the file that last had the key...
    std::vector<std::uint32_t> keyPosition; // ...and its place in that file's metadata
    std::uint32_t stamp = 0;
    std::vector<char> buffer;
    IntervalRow row; // the file being parsed, reused from file to file
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs; // the metadata being read, likewise
    std::string metric; // the metric name of the previous file...
    std::uint32_t metricId = 0; // ...and its id in the string table
};

/// Reads a file into `buffer` with open(2)/read(2), reusing the buffer from file to file; false
/// (errno set) when it cannot. A binary file shows a NUL byte at once: when the first `head` bytes
/// hold one, the rest is not read (docs/FORMATS.md 11).
bool readProfileFile(const QByteArray& path, std::vector<char>& buffer, std::size_t& size, std::size_t head)
{
    const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    size = 0;
    bool ok = true;
    bool checked = false;
    while (true) {
        if (buffer.size() - size < 4096)
            buffer.resize(std::max<std::size_t>(buffer.size() * 2, 2 * head));
        const ssize_t got = ::read(fd, buffer.data() + size, buffer.size() - size);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            ok = false;
            break;
        }
        if (got == 0)
            break;
        size += static_cast<std::size_t>(got);
        if (!checked && size >= head) {
            checked = true;
            if (std::memchr(buffer.data(), '\0', head)) {
                size = head;
                break;
            }
        }
    }
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return ok;
}

class FileParser {
public:
    explicit FileParser(Worker& worker)
        : m_shared(worker.shared)
        , m_worker(worker)
        , m_events(worker.events)
        , m_atomics(worker.atomics)
        , m_seen(worker.seen)
        , m_stamp(++worker.stamp)
    {
    }

    void parse(const FileWork& work, FileResult& result)
    {
        m_work = &work;
        // A binary file shows a NUL byte at once: the first 64 KiB decide before the rest is read
        // (docs/FORMATS.md 11). Most profiles fit in them; a larger one is read on into one buffer.
        constexpr std::size_t Head = std::size_t { 64 } * 1024;
        std::vector<char>& buffer = m_worker.buffer;
        std::size_t size = 0;
        if (!readProfileFile(work.nativePath, buffer, size, Head)) {
            fail(result, 0, QStringLiteral("cannot read: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
            return;
        }
        const std::string_view text(buffer.data(), size);
        if (text.empty()) {
            fail(result, 0, QStringLiteral("the file is empty; expected '<count> templated_functions' on line 1"));
            return;
        }
        const auto nul = text.find('\0');
        if (nul != std::string_view::npos) {
            result.failed = true;
            result.note().error = ReadError { work.path(), 0, static_cast<qint64>(nul),
                QStringLiteral("binary data (a NUL byte); a TAU profile is text") };
            return;
        }
        parseText(text, result);
    }

private:
    void fail(FileResult& result, qint64 line, const QString& message)
    {
        result.failed = true;
        result.note().error = ReadError { m_work->path(), line, -1, message };
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
                std::string metricValue;
                auto& attributes = m_worker.attributes;
                if (mdEnd != std::string_view::npos && m_worker.metadata.read(xml, attributes, metricValue)) {
                    for (const auto& attr : attributes) {
                        if (attr.metricName)
                            metric = QString::fromStdString(metricValue);
                        else
                            addMetadata(attr.key, attr.value, attr.context, result);
                    }
                } else {
                    const auto parsed = parseTauMetadata(xml);
                    if (!parsed.error.empty() || mdEnd == std::string_view::npos) {
                        result.note().warnings
                            << QStringLiteral("%1:2: metadata block is malformed at byte %2 of the line (%3); "
                                              "kept the %4 attributes read before it")
                                   .arg(m_work->path())
                                   .arg(static_cast<qint64>(mdStart) + static_cast<qint64>(parsed.errorOffset))
                                   .arg(parsed.error.empty() ? QStringLiteral("no </metadata>") : qs(parsed.error))
                                   .arg(parsed.attributes.size());
                    }
                    for (const auto& attr : parsed.attributes) {
                        if (attr.key == "Metric Name" && !attr.hasTimerContext)
                            metric = qs(attr.value);
                        else
                            addMetadata(m_shared.strings.intern(attr.key), m_shared.strings.intern(attr.value),
                                attr.hasTimerContext, result);
                    }
                }
            }
        } else {
            haveLine = true; // old format: line 2 is already the first event line
        }
        // Exactly as many pairs as the file has: the scratch vector is reused, the copy is kept.
        result.metadata.assign(m_worker.pairs.begin(), m_worker.pairs.end());
        std::string metricUtf8 = metric.toStdString();
        if (m_worker.metric != metricUtf8 || m_worker.stamp == 1) {
            m_worker.metricId = m_shared.strings.intern(metricUtf8);
            m_worker.metric = std::move(metricUtf8);
        }
        result.metricName = m_worker.metricId;

        const int numFields = sumExclSqr ? 6 : 5;
        const std::size_t reserve
            = static_cast<std::size_t>(std::min<long long>(nFunc, static_cast<long long>(text.size() / 8 + 1)));
        IntervalRow& row = m_worker.row;
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
            result.note().warnings << QStringLiteral(
                "%1:%2: %3 aggregate lines skipped (TAU never wrote aggregates; Parallax does not read them)")
                                          .arg(m_work->path())
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
            // Exactly the records announced, when the rest of the text can hold them (a record's
            // line has at least 12 bytes): a user event row stays as large as its records until
            // the trial is freed.
            const std::size_t room = (text.size() - cursor.lineStart()) / 12 + 1;
            result.atomicRow.reserve(
                result.atomicRow.size() + std::min(static_cast<std::size_t>(nUser), room)); // nUser >= 0 here
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

    /// A metadata entry of this file; a key given twice keeps its last value.
    void addMetadata(std::uint32_t key, std::uint32_t value, bool context, FileResult& result)
    {
        auto& metadata = m_worker.pairs;
        auto& stamp = m_worker.keyStamp;
        auto& position = m_worker.keyPosition;
        if (key >= stamp.size()) {
            stamp.resize(std::max<std::size_t>(key + 1, stamp.size() * 2), 0);
            position.resize(stamp.size(), 0);
        }
        if (stamp[key] == m_stamp) {
            metadata[position[key]].second = value;
        } else {
            stamp[key] = m_stamp;
            position[key] = static_cast<std::uint32_t>(metadata.size());
            metadata.emplace_back(key, value);
        }
        if (context)
            result.note().contextKeys.push_back(key);
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
        double v[6];
        const Fields fields = parseFields(line.substr(closing + 1, fieldsEnd - closing - 1), v, numFields);
        static const char* const names5[] = { "Calls", "Subrs", "Excl", "Incl", "ProfileCalls" };
        static const char* const names6[] = { "Calls", "Subrs", "Excl", "Incl", "SumExclSqr", "ProfileCalls" };
        const char* const* fieldNames = numFields == 6 ? names6 : names5;
        if (fields.count != numFields) {
            fail(result, lineNo,
                QStringLiteral("expected %1 numbers after the name (%2), found %3")
                    .arg(numFields)
                    .arg(numFields == 6 ? QStringLiteral("Calls Subrs Excl Incl SumExclSqr ProfileCalls")
                                        : QStringLiteral("Calls Subrs Excl Incl ProfileCalls"))
                    .arg(fields.count > numFields ? QStringLiteral("more") : QString::number(fields.count)));
            return false;
        }
        if (fields.bad >= 0) {
            fail(result, lineNo,
                QStringLiteral("expected a number for %1, found %2")
                    .arg(QLatin1String(fieldNames[fields.bad]), qs(quoteForMessage(fields.badToken))));
            return false;
        }
        const std::uint32_t id = m_events.lookup(raw, groups, static_cast<std::size_t>(index));
        if (id >= m_seen.size())
            m_seen.resize(std::max<std::size_t>(id + 1, m_seen.size() * 2), 0);
        if (m_seen[id] == m_stamp)
            result.note().duplicateNames.emplace_back(names::canonical(raw));
        m_seen[id] = m_stamp;
        IntervalRow& row = m_worker.row;
        row.events.push_back(EventId(id));
        row.calls.push_back(v[0]);
        row.subrs.push_back(v[1]);
        row.excl.push_back(v[2]);
        row.incl.push_back(v[3]);
        if (numFields == 6)
            row.exclSqr.push_back(v[4]);
        m_lastProfileCalls = v[numFields - 1];
        if (v[2] < 0 || v[3] < 0) {
            FileNotes& notes = result.note();
            if (notes.negativeValues == 0)
                notes.firstNegative = "line " + std::to_string(lineNo) + " " + names::canonical(raw);
            ++notes.negativeValues;
        }
        // Nearly every line has finite values and non-negative counts: one test instead of the loop.
        double sum = 0;
        for (int k = 0; k < numFields; ++k)
            sum += v[k] * 0.0; // NaN exactly when some v[k] is NaN or infinite
        if (sum != 0.0 || v[0] < 0 || v[1] < 0)
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
                FileNotes& notes = result.note();
                if (notes.nonFiniteValues == 0)
                    notes.firstNonFinite
                        = "line " + std::to_string(lineNo) + " '" + names::canonical(raw) + "' " + fieldNames[k];
                ++notes.nonFiniteValues;
            } else if (k < countFields && v[k] < 0) {
                FileNotes& notes = result.note();
                if (notes.negativeCounts == 0)
                    notes.firstNegativeCount
                        = "line " + std::to_string(lineNo) + " '" + names::canonical(raw) + "' " + fieldNames[k];
                ++notes.negativeCounts;
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
        double v[5];
        const Fields fields = parseFields(line.substr(closing + 1), v, 5);
        if (fields.count != 5) {
            fail(result, lineNo,
                QStringLiteral("expected 5 numbers after the user event name (numevents max min mean sumsqr), found %1")
                    .arg(fields.count > 5 ? QStringLiteral("more") : QString::number(fields.count)));
            return false;
        }
        static const char* const fieldNames[] = { "numevents", "max", "min", "mean", "sumsqr" };
        if (fields.bad >= 0) {
            fail(result, lineNo,
                QStringLiteral("expected a number for %1, found %2")
                    .arg(QLatin1String(fieldNames[fields.bad]), qs(quoteForMessage(fields.badToken))));
            return false;
        }
        AtomicRow& row = result.atomicRow;
        const std::uint32_t id = m_atomics.lookup(raw, {});
        if (std::find(row.events.begin(), row.events.end(), AtomicEventId(id)) != row.events.end())
            ++result.note().duplicateAtomics;
        row.append(AtomicEventId(id), v[0], v[1], v[2], v[3], v[4]);
        noteOddities(v, fieldNames, 5, 1, lineNo, raw, result);
        return true;
    }

    Shared& m_shared;
    Worker& m_worker;
    LocalEvents& m_events;
    LocalEvents& m_atomics;
    std::vector<std::uint32_t>& m_seen;
    std::uint32_t m_stamp;
    const FileWork* m_work = nullptr;
    double m_lastProfileCalls = 0;
};

} // namespace

QString metricFromLineOne(std::string_view line)
{
    const auto multi = line.find("_MULTI_");
    if (multi != std::string_view::npos)
        return QString::fromUtf8(line.substr(multi + 7).data(), static_cast<qsizetype>(line.size() - multi - 7));
    if (line.find("hw_counters") != std::string_view::npos)
        return QStringLiteral("Hardware Counter");
    return QStringLiteral("Time");
}

std::vector<FileWork> listProfiles(const QString& dir)
{
    // A file that cannot be opened is reported by the parse, never skipped silently.
    constexpr std::string_view prefix = "profile.";
    std::vector<FileWork> files;
    ThreadKey key;
    for (QByteArray& path :
        directoryFiles(dir, [&](std::string_view name) { return parseThreadFileName(name, prefix, key); })) {
        const std::string_view name(path.constData() + path.lastIndexOf('/') + 1);
        parseThreadFileName(name, prefix, key);
        files.push_back({ key, std::move(path) });
    }
    std::sort(files.begin(), files.end(), [](const FileWork& a, const FileWork& b) { return a.key < b.key; });
    return files;
}

std::vector<FileResult> parseFiles(const std::vector<FileWork>& files, Shared& shared, const ReadOptions& options,
    Progress& progress, std::vector<RowStore::Writer>* writers, std::vector<IntervalRow>* rows)
{
    std::vector<FileResult> results(files.size());
    // Most files' metadata differs from the others' in a few values (pid, tid, time stamps).
    shared.strings.reserve(shared.strings.size() + files.size() * 4);
    if (!writers && rows)
        rows->assign(files.size(), IntervalRow());
    std::atomic<std::size_t> next { 0 };
    const int workers = std::max(1,
        std::min<int>(
            options.threads > 0 ? options.threads : QThread::idealThreadCount(), static_cast<int>(files.size())));
    if (writers) {
        writers->clear();
        for (int w = 0; w < workers; ++w)
            writers->emplace_back(1);
    }
    auto work = [&](int w) {
        Worker worker(shared);
        while (!progress.isCancelled()) {
            const std::size_t i = next.fetch_add(1);
            if (i >= files.size())
                break;
            FileResult& result = results[i];
            IntervalRow& row = worker.row;
            for (auto* column : { &row.calls, &row.subrs, &row.excl, &row.incl, &row.exclSqr })
                column->clear();
            row.events.clear();
            worker.pairs.clear();
            FileParser parser(worker);
            parser.parse(files[i], result);
            if (!result.failed) {
                if (writers) {
                    result.slot = (*writers)[static_cast<std::size_t>(w)].append(row);
                    result.packed = true;
                } else if (rows) {
                    (*rows)[i] = std::move(row);
                    row = IntervalRow();
                }
            }
            progress.advance();
        }
    };
    std::vector<QFuture<void>> futures;
    for (int w = 1; w < workers; ++w)
        futures.push_back(QtConcurrent::run(work, w));
    work(0); // the calling thread works too
    for (auto& f : futures)
        f.waitForFinished();
    return results;
}

} // namespace parallax::taufiles
