// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The snapshot parser (docs/FORMATS.md 4): the elements of the <profile_xml> fragments of one input
// (threads, metadata, definitions scoped by thread, profiles, derived profiles) over the XML layer
// of snapshotxml. The reader (snapshotreader.cpp) assembles the parsed inputs into a trial.
#include "datasource/readers/snapshotparser.h"

#include "datasource/readers/snapshotstream.h"
#include "datasource/readers/snapshotxml.h"
#include "datasource/readers/textnumber.h"

#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace parallax::snapshot {

namespace {

constexpr int MaxMetadataDepth = 64;

/// File-local id -> temporary id: dense for the small, packed ids TAU writes, hashed otherwise
/// (so that a few huge ids cannot make every scope allocate a large table).
class IdMap {
public:
    std::uint32_t find(std::uint64_t id) const
    {
        if (id < m_dense.size() && m_dense[id] != None)
            return m_dense[id];
        if (m_sparse.empty())
            return None;
        const auto it = m_sparse.find(id);
        return it == m_sparse.end() ? None : it->second;
    }
    void set(std::uint64_t id, std::uint32_t value)
    {
        ++m_count;
        if (id < std::max<std::uint64_t>(1024, 4 * m_count)) {
            if (id >= m_dense.size())
                m_dense.resize(id + 1, None);
            m_dense[id] = value;
        } else {
            m_sparse[id] = value;
        }
    }

private:
    std::uint64_t m_count = 0;
    std::vector<std::uint32_t> m_dense;
    std::unordered_map<std::uint64_t, std::uint32_t> m_sparse;
};

enum class Kind { Metric, Event, Atomic };

/// The definitions of one thread id (or "*"): they accumulate over fragments (docs/FORMATS.md 4.2).
struct Scope {
    IdMap ids[3];
    /// Per kind: temporary id -> the first file id defining it, to spot two ids with one name.
    std::unordered_map<std::uint32_t, std::uint64_t> firstId[3];
};

struct MetaEntry {
    QString key;
    QString value;
    bool context = false;
};

/// "N.C.T" or "N.C.T.PID" (TAU's thread ids) -> key.
bool parseThreadId(QStringView id, ThreadKey& key)
{
    const auto parts = id.split(QLatin1Char('.'));
    if (parts.size() != 3 && parts.size() != 4)
        return false;
    int v[3];
    for (int i = 0; i < 3; ++i) {
        bool ok = false;
        v[i] = parts[i].toInt(&ok);
        if (!ok || v[i] < 0 || parts[i].startsWith(QLatin1Char('+')))
            return false;
    }
    key = { v[0], v[1], v[2] };
    return true;
}

QStringList splitGroups(const QString& groups)
{
    QStringList out;
    for (const QString& part : groups.split(QLatin1Char('|'))) {
        const QString g = part.trimmed();
        if (!g.isEmpty() && !out.contains(g))
            out << g;
    }
    return out;
}

class SnapshotParser : public SnapshotXml {
public:
    SnapshotParser(SnapshotStream& stream, Names& names, Progress& progress, InputResult& result)
        : SnapshotXml(stream, progress, result)
        , m_names(names)
    {
    }

    void run()
    {
        Token t = next();
        if (t == Token::StartDocument)
            t = next();
        if (!ok())
            return;
        if (t != Token::StartElement || m_stack.size() != 1) {
            failHere(QStringLiteral("expected a <profile_xml> fragment"));
            return;
        }
        bool sawFragment = false;
        while (ok()) {
            t = next();
            switch (t) {
            case Token::StartElement:
                if (m_stack.back() == QLatin1String("profile_xml")) {
                    sawFragment = true;
                    parseFragment();
                } else if (!sawFragment) {
                    failAtTag(
                        QStringLiteral("expected <profile_xml>, found <%1>: not a TAU snapshot or merged XML profile")
                            .arg(m_stack.back()));
                } else {
                    unknownElement();
                }
                break;
            case Token::Characters:
                if (!m_xml.isWhitespace())
                    fail(firstNonSpace(m_tokenStart, m_xml.text()),
                        QStringLiteral("unexpected text %1 between fragments: expected <profile_xml>")
                            .arg(quoted(m_xml.text().trimmed(), 60)));
                break;
            case Token::ProcessingInstruction: // the end of the input
                t = next();
                if (ok() && (t != Token::EndElement || !m_stack.empty())) {
                    failHere(QStringLiteral("unexpected <?%1?> in the input").arg(SnapshotStreamEndMarker));
                    return;
                }
                t = next(); // EndDocument, or an error for content after a stray root end tag
                if (!ok())
                    return;
                if (!sawFragment)
                    fail({ m_stream.inputNewlines() + 1, 0 },
                        QStringLiteral("no <profile_xml> fragment: not a TAU snapshot or merged XML profile"), true);
                return;
            case Token::EndElement:
                failHere(QStringLiteral("unexpected end tag </%1>: expected <profile_xml>").arg(SnapshotStreamRoot));
                return;
            default:
                break;
            }
        }
    }

private:
    ThreadData& threadFor(const ThreadKey& key)
    {
        const auto [it, added] = m_threadIndex.emplace(key, m_result.threads.size());
        if (added) {
            m_result.threads.emplace_back();
            m_result.threads.back().key = key;
        }
        return m_result.threads[it->second];
    }

    void parseFragment()
    {
        readContent(
            [&](const QString& name) {
                if (name == QLatin1String("thread"))
                    parseThread();
                else if (name == QLatin1String("definitions"))
                    parseDefinitions();
                else if (name == QLatin1String("profile"))
                    parseProfile();
                else if (name == QLatin1String("derivedentity"))
                    parseDerivedEntity();
                else if (name.endsWith(QLatin1String("derivedprofile")))
                    parseDerivedProfile();
                else
                    unknownElement();
            },
            [&] {
                if (!m_xml.isWhitespace() && !m_warnedText) {
                    m_warnedText = true;
                    m_result.warnings << QStringLiteral("%1:%2: text %3 directly inside <profile_xml> was ignored")
                                             .arg(m_result.path)
                                             .arg(m_tokenStart.line)
                                             .arg(quoted(m_xml.text().trimmed(), 60));
                }
            });
    }

    void parseThread()
    {
        const QString id
            = requiredAttribute(QLatin1StringView("id"), QStringLiteral("thread"), QStringLiteral("id=\"N.C.T.PID\""));
        if (!ok())
            return;
        ThreadKey key;
        const auto attrs = m_xml.attributes();
        int v[3];
        bool all = true;
        const QLatin1StringView fields[]
            = { QLatin1StringView("node"), QLatin1StringView("context"), QLatin1StringView("thread") };
        for (int i = 0; i < 3; ++i) {
            const QStringView s = attrs.value(fields[i]);
            bool okInt = false;
            v[i] = s.trimmed().toInt(&okInt);
            if (!s.isNull() && (!okInt || v[i] < 0)) {
                failAtTag(
                    QStringLiteral("<thread %1=%2>: expected a non-negative integer").arg(fields[i], quoted(s, 60)));
                return;
            }
            all = all && okInt;
        }
        if (all)
            key = { v[0], v[1], v[2] };
        else if (!parseThreadId(id, key)) {
            failAtTag(
                QStringLiteral("<thread id=%1> lacks node, context and thread attributes, and the id is not N.C.T.PID")
                    .arg(quoted(id, 60)));
            return;
        }
        const auto [it, added] = m_idKeys.emplace(id, key);
        if (!added && it->second != key) {
            failAtTag(QStringLiteral("thread id %1 is declared as thread %2 and as thread %3")
                          .arg(quoted(id, 60), it->second.toString(), key.toString()));
            return;
        }
        ThreadData& thread = threadFor(key);
        const std::size_t index = static_cast<std::size_t>(&thread - m_result.threads.data());
        readContent(
            [&](const QString& name) {
                if (name == QLatin1String("metadata"))
                    parseMetadata(index);
                else
                    unknownElement();
            },
            [] {});
    }

    void parseMetadata(std::size_t threadIndex)
    {
        std::vector<MetaEntry> entries;
        readContent(
            [&](const QString& name) {
                if (name == QLatin1String("attribute"))
                    parseAttribute(0, entries);
                else
                    unknownElement();
            },
            [] {});
        ThreadData& thread = m_result.threads[threadIndex];
        for (auto& entry : entries) {
            if (entry.context)
                thread.contextKeys.insert(entry.key);
            auto existing = std::find_if(
                thread.metadata.begin(), thread.metadata.end(), [&](const auto& kv) { return kv.first == entry.key; });
            if (existing != thread.metadata.end())
                existing->second = std::move(entry.value); // a later block wins (rank 0 is written twice)
            else
                thread.metadata.emplace_back(std::move(entry.key), std::move(entry.value));
        }
    }

    /// One <attribute> (docs/FORMATS.md 1.3): nested objects give "parent/child" keys, arrays "[a, b]",
    /// as the TAU profile reader does.
    void parseAttribute(int depth, std::vector<MetaEntry>& out)
    {
        if (depth > MaxMetadataDepth) {
            failAtTag(QStringLiteral("metadata nested deeper than %1 levels").arg(MaxMetadataDepth));
            return;
        }
        QString name;
        bool haveName = false;
        bool context = false;
        QString text;
        QStringList array;
        bool isArray = false;
        std::vector<MetaEntry> nested;
        bool haveNested = false;
        readContent(
            [&](const QString& child) {
                if (child == QLatin1String("name")) {
                    name = readText();
                    haveName = true;
                } else if (child == QLatin1String("timer_context")) {
                    context = true;
                    skipElement();
                } else if (child == QLatin1String("call_number") || child == QLatin1String("timestamp")) {
                    skipElement();
                } else if (child == QLatin1String("value")) {
                    readContent(
                        [&](const QString& v) {
                            if (v == QLatin1String("attribute")) {
                                haveNested = true;
                                parseAttribute(depth + 1, nested);
                            } else if (v == QLatin1String("array_element")) {
                                array << readText();
                                isArray = true;
                            } else {
                                unknownElement();
                            }
                        },
                        [&] { text += m_xml.text(); });
                } else {
                    unknownElement();
                }
            },
            [] {});
        if (!ok())
            return;
        if (!haveName) {
            if (!m_warnedNameless) {
                m_warnedNameless = true;
                m_result.warnings << QStringLiteral("%1:%2: a metadata <attribute> without <name> was ignored")
                                         .arg(m_result.path)
                                         .arg(m_xml.lineNumber());
            }
            return;
        }
        for (auto& n : nested)
            out.push_back({ name + QLatin1Char('/') + n.key, std::move(n.value), context || n.context });
        if (isArray)
            out.push_back({ name, QLatin1Char('[') + array.join(QStringLiteral(", ")) + QLatin1Char(']'), context });
        else if (!haveNested)
            out.push_back({ name, text, context });
    }

    void parseDefinitions()
    {
        const QString scopeName = requiredAttribute(QLatin1StringView("thread"), QStringLiteral("definitions"),
            QStringLiteral("thread=\"N.C.T.PID\" or thread=\"*\""));
        if (!ok())
            return;
        Scope& scope = m_scopes[scopeName];
        readContent(
            [&](const QString& name) {
                if (name == QLatin1String("metric"))
                    parseDefinition(scope, scopeName, Kind::Metric, name);
                else if (name == QLatin1String("event"))
                    parseDefinition(scope, scopeName, Kind::Event, name);
                else if (name == QLatin1String("userevent"))
                    parseDefinition(scope, scopeName, Kind::Atomic, name);
                else
                    unknownElement();
            },
            [] {});
    }

    void parseDefinition(Scope& scope, const QString& scopeName, Kind kind, const QString& element)
    {
        const Position at = m_elementStart;
        const auto id = idAttribute(QLatin1StringView("id"), element);
        if (!id)
            return;
        QString name;
        bool haveName = false;
        QString groups;
        readContent(
            [&](const QString& child) {
                if (child == QLatin1String("name")) {
                    name = readText();
                    haveName = true;
                } else if (child == QLatin1String("group") && kind == Kind::Event) {
                    groups = readText();
                } else if (child == QLatin1String("units") && kind == Kind::Metric) {
                    readText(); // TAU writes "unknown"; the unit follows from the name (docs/FORMATS.md 1.1)
                } else {
                    unknownElement();
                }
            },
            [] {});
        if (!ok())
            return;
        if (!haveName) {
            fail(at, QStringLiteral("<%1 id=\"%2\"> has no <name>").arg(element).arg(*id));
            return;
        }
        const int k = static_cast<int>(kind);
        NameTable& table = kind == Kind::Metric ? m_names.metrics
            : kind == Kind::Event               ? m_names.events
                                                : m_names.atomics;
        const std::uint32_t temp = table.intern(name, splitGroups(groups));
        const std::uint32_t existing = scope.ids[k].find(*id);
        if (existing != None && existing != temp) {
            fail(at,
                QStringLiteral("<%1 id=\"%2\"> is defined twice for thread %3, as %4 and as %5")
                    .arg(element)
                    .arg(*id)
                    .arg(quoted(scopeName, 60), quoted(table.raw(existing), 60), quoted(name, 60)));
            return;
        }
        if (existing == None) {
            scope.ids[k].set(*id, temp);
            m_result.order[k].push_back(temp);
            const auto [it, added] = scope.firstId[k].emplace(temp, *id);
            if (!added) {
                ++m_result.sameNameDefinitions[k];
                if (m_result.sameNameExamples.size() < 3)
                    m_result.sameNameExamples << QStringLiteral("%1 ids %2 and %3 are both %4")
                                                     .arg(element)
                                                     .arg(it->second)
                                                     .arg(*id)
                                                     .arg(quoted(name, 60));
            }
        }
    }

    const Scope* findScope(const QString& name) const
    {
        const auto it = m_scopes.find(name);
        return it == m_scopes.end() ? nullptr : &it->second;
    }

    static std::uint32_t lookup(const Scope* own, const Scope* global, Kind kind, std::uint64_t id)
    {
        const int k = static_cast<int>(kind);
        std::uint32_t temp = own ? own->ids[k].find(id) : None;
        if (temp == None && global)
            temp = global->ids[k].find(id);
        return temp;
    }

    void parseProfile()
    {
        const QString threadId = requiredAttribute(
            QLatin1StringView("thread"), QStringLiteral("profile"), QStringLiteral("thread=\"N.C.T.PID\""));
        if (!ok())
            return;
        ThreadKey key;
        const auto known = m_idKeys.find(threadId);
        if (known != m_idKeys.end()) {
            key = known->second;
        } else if (!parseThreadId(threadId, key)) {
            failAtTag(QStringLiteral(
                "<profile thread=%1> names a thread that no <thread> element declares, and the id is not N.C.T.PID")
                          .arg(quoted(threadId, 60)));
            return;
        }
        const std::size_t index = static_cast<std::size_t>(&threadFor(key) - m_result.threads.data());
        const Scope* own = findScope(threadId);
        const Scope* global = findScope(QStringLiteral("*"));
        Snapshot snapshot;
        readContent(
            [&](const QString& name) {
                if (name == QLatin1String("name")) {
                    snapshot.name = readText();
                } else if (name == QLatin1String("timestamp")) {
                    const Position at = m_elementStart;
                    const QString text = readText();
                    bool okTime = false;
                    snapshot.timestamp = text.trimmed().toLongLong(&okTime);
                    if (!okTime && ok())
                        fail(at,
                            QStringLiteral(
                                "<timestamp>%1</timestamp>: expected microseconds since the epoch as an integer")
                                .arg(text.left(40)));
                } else if (name == QLatin1String("interval_data")) {
                    parseIntervalData(snapshot, own, global, threadId, false);
                } else if (name == QLatin1String("atomic_data")) {
                    parseAtomicData(snapshot, own, global, threadId, false);
                } else {
                    unknownElement();
                }
            },
            [] {});
        if (ok())
            m_result.threads[index].snapshots.push_back(std::move(snapshot));
    }

    void parseDerivedEntity()
    {
        requiredAttribute(QLatin1StringView("id"), QStringLiteral("derivedentity"),
            QStringLiteral("id=\"total\", id=\"mean_all\", ..."));
        readContent([&](const QString&) { unknownElement(); }, [] {});
    }

    void parseDerivedProfile()
    {
        const QString element = m_stack.back();
        Derived derived;
        derived.entity = requiredAttribute(
            QLatin1StringView("derivedentity"), element, QStringLiteral("derivedentity=\"total\", \"mean_all\", ..."));
        if (!ok())
            return;
        const Scope* global = findScope(QStringLiteral("*"));
        readContent(
            [&](const QString& name) {
                if (name == QLatin1String("derivedinterval_data") || name == QLatin1String("interval_data"))
                    parseIntervalData(derived.data, nullptr, global, QStringLiteral("*"), true);
                else if (name == QLatin1String("derivedatomic_data") || name == QLatin1String("atomic_data"))
                    parseAtomicData(derived.data, nullptr, global, QStringLiteral("*"), true);
                else
                    unknownElement();
            },
            [] {});
        if (ok())
            m_result.derived.push_back(std::move(derived));
    }

    void parseIntervalData(
        Snapshot& snapshot, const Scope* own, const Scope* global, const QString& threadId, bool derived)
    {
        const QString element = m_stack.back();
        if (snapshot.haveInterval) {
            failAtTag(QStringLiteral("a second <%1> in one profile: expected one").arg(element));
            return;
        }
        snapshot.haveInterval = true;
        const QStringView list = m_xml.attributes().value(QLatin1StringView("metrics"));
        if (list.isNull()) {
            failAtTag(QStringLiteral("<%1> without the attribute metrics: expected metrics=\"0 1 ...\" (the metric "
                                     "ids of the value columns)")
                          .arg(element));
            return;
        }
        for (const QStringView part : list.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            bool okId = false;
            const qulonglong id = part.toULongLong(&okId);
            const std::uint32_t temp = okId ? lookup(own, global, Kind::Metric, id) : None;
            if (temp == None) {
                failAtTag(okId ? QStringLiteral("unknown metric id %1 in <%2 metrics=%3>: no <metric id=\"%1\"> in "
                                                "the definitions for thread %4 or '*'")
                                     .arg(id)
                                     .arg(element, quoted(list, 60), quoted(threadId, 60))
                               : QStringLiteral("<%1 metrics=%2>: expected metric ids (non-negative integers)")
                                     .arg(element, quoted(list, 60)));
                return;
            }
            if (std::find(snapshot.metrics.begin(), snapshot.metrics.end(), temp) != snapshot.metrics.end()) {
                failAtTag(
                    QStringLiteral("<%1 metrics=%2> lists metric %3 twice").arg(element, quoted(list, 60)).arg(id));
                return;
            }
            snapshot.metrics.push_back(temp);
        }
        DataText& data = m_data;
        readData(data);
        if (!ok())
            return;
        const std::size_t k = snapshot.metrics.size();
        const std::size_t want = 3 + 2 * k;
        IntervalRow& row = snapshot.row;
        const auto lines = static_cast<std::size_t>(std::count(data.text.begin(), data.text.end(), '\n')) + 1;
        row.events.reserve(lines);
        row.calls.reserve(lines);
        row.subrs.reserve(lines);
        row.excl.reserve(lines * k);
        row.incl.reserve(lines * k);
        double values[2];
        forEachRow(data, [&](std::size_t offset) {
            if (m_tokens.size() != want) {
                fail(data.positionOf(offset),
                    QStringLiteral("expected %1 numbers in a row of <%2> (event id, calls, subrs, then exclusive "
                                   "and inclusive for each of the %3 metric(s)), found %4")
                        .arg(want)
                        .arg(element)
                        .arg(k)
                        .arg(m_tokens.size()));
                return;
            }
            const std::optional<std::uint64_t> parsedId = textnumber::parseIntStrict<std::uint64_t>(m_tokens[0]);
            if (!parsedId) {
                fail(data.positionOf(offset),
                    QStringLiteral("expected an event id (a non-negative integer) in <%1>, found %2")
                        .arg(element, quoted(m_tokens[0], 60)));
                return;
            }
            const std::uint64_t id = *parsedId;
            const std::uint32_t temp = lookup(own, global, Kind::Event, id);
            if (temp == None) {
                fail(data.positionOf(offset),
                    QStringLiteral(
                        "unknown event id %1 in <%2>: no <event id=\"%1\"> in the definitions for thread %3%4")
                        .arg(id)
                        .arg(element, quoted(threadId, 60), own ? QStringLiteral(" or '*'") : QString()));
                return;
            }
            static const char* const fieldNames[] = { "calls", "subrs", "exclusive", "inclusive" };
            for (int f = 0; f < 2; ++f) {
                const std::optional<double> value = textnumber::parseDouble(m_tokens[1 + f]);
                if (!value) {
                    fail(data.positionOf(offset),
                        QStringLiteral("expected a number for %1 of event %2, found %3")
                            .arg(QLatin1String(fieldNames[f]))
                            .arg(id)
                            .arg(quoted(m_tokens[1 + f], 60)));
                    return;
                }
                values[f] = *value;
            }
            const std::size_t base = row.excl.size();
            row.excl.resize(base + k);
            row.incl.resize(base + k);
            bool negative = values[0] < 0 || values[1] < 0;
            for (std::size_t c = 0; c < k; ++c) {
                for (int f = 0; f < 2; ++f) {
                    const std::string_view token = m_tokens[3 + 2 * c + static_cast<std::size_t>(f)];
                    const std::optional<double> parsed = textnumber::parseDouble(token);
                    if (!parsed) {
                        fail(data.positionOf(offset),
                            QStringLiteral("expected a number for %1 (metric column %2) of event %3, found %4")
                                .arg(QLatin1String(fieldNames[2 + f]))
                                .arg(c)
                                .arg(id)
                                .arg(quoted(token, 60)));
                        return;
                    }
                    const double v = *parsed;
                    (f == 0 ? row.excl : row.incl)[base + c] = v;
                    negative = negative || v < 0;
                }
            }
            if (derived) {
                // A negative count in a derived row means "unknown" (docs/FORMATS.md 4.3).
                for (double& v : values)
                    if (v < 0)
                        v = std::numeric_limits<double>::quiet_NaN();
            } else if (negative) {
                if (m_result.negativeValues++ == 0)
                    m_result.firstNegative = QStringLiteral("%1:%2 (event id %3, thread %4)")
                                                 .arg(QFileInfo(m_result.path).fileName())
                                                 .arg(data.positionOf(offset).line)
                                                 .arg(id)
                                                 .arg(quoted(threadId, 60));
            }
            row.events.push_back(EventId(temp));
            row.calls.push_back(values[0]);
            row.subrs.push_back(values[1]);
        });
    }

    void parseAtomicData(
        Snapshot& snapshot, const Scope* own, const Scope* global, const QString& threadId, bool derived)
    {
        const QString element = m_stack.back();
        if (snapshot.haveAtomic) {
            failAtTag(QStringLiteral("a second <%1> in one profile: expected one").arg(element));
            return;
        }
        snapshot.haveAtomic = true;
        DataText& data = m_data;
        readData(data);
        if (!ok())
            return;
        AtomicRow& row = snapshot.atomicRow;
        forEachRow(data, [&](std::size_t offset) {
            if (m_tokens.size() != 6) {
                fail(data.positionOf(offset),
                    QStringLiteral("expected 6 numbers in a row of <%1> (user event id, numevents, max, min, mean, "
                                   "sumsqr), found %2")
                        .arg(element)
                        .arg(m_tokens.size()));
                return;
            }
            const std::optional<std::uint64_t> parsedId = textnumber::parseIntStrict<std::uint64_t>(m_tokens[0]);
            if (!parsedId) {
                fail(data.positionOf(offset),
                    QStringLiteral("expected a user event id (a non-negative integer) in <%1>, found %2")
                        .arg(element, quoted(m_tokens[0], 60)));
                return;
            }
            const std::uint64_t id = *parsedId;
            const std::uint32_t temp = lookup(own, global, Kind::Atomic, id);
            if (temp == None) {
                fail(data.positionOf(offset),
                    QStringLiteral("unknown user event id %1 in <%2>: no <userevent id=\"%1\"> in the definitions "
                                   "for thread %3%4")
                        .arg(id)
                        .arg(element, quoted(threadId, 60), own ? QStringLiteral(" or '*'") : QString()));
                return;
            }
            static const char* const fieldNames[] = { "numevents", "max", "min", "mean", "sumsqr" };
            double v[5];
            for (int f = 0; f < 5; ++f) {
                const std::optional<double> value = textnumber::parseDouble(m_tokens[1 + static_cast<std::size_t>(f)]);
                if (!value) {
                    fail(data.positionOf(offset),
                        QStringLiteral("expected a number for %1 of user event %2, found %3")
                            .arg(QLatin1String(fieldNames[f]))
                            .arg(id)
                            .arg(quoted(m_tokens[1 + static_cast<std::size_t>(f)], 60)));
                    return;
                }
                v[f] = *value;
            }
            if (derived && v[0] < 0)
                v[0] = std::numeric_limits<double>::quiet_NaN();
            // max before min in the file (docs/FORMATS.md 4.2)
            row.append(AtomicEventId(temp), v[0], v[1], v[2], v[3], v[4]);
        });
    }

    Names& m_names;
    std::map<QString, Scope> m_scopes;
    std::map<QString, ThreadKey> m_idKeys;
    std::map<ThreadKey, std::size_t> m_threadIndex;
    DataText m_data; // reused: one data element at a time
    bool m_warnedText = false;
    bool m_warnedNameless = false;
};

} // namespace

void parseInput(const QString& path, Names& names, Progress& progress, InputResult& result)
{
    result.path = path;
    SnapshotStream stream(path, SnapshotStream::Mode::Wrapped, &progress);
    const QString openError = stream.start();
    if (!openError.isNull()) {
        result.failed = true;
        result.error = ReadError { path, 0, -1, openError };
        return;
    }
    SnapshotParser parser(stream, names, progress, result);
    parser.run();
    if (result.failed) {
        parser.locateFailure();
        return;
    }
    if (stream.cutShort())
        result.warnings << QStringLiteral(
            "%1: the gzip stream is cut short after the last fragment (no end marker, so no checksum was verified)")
                               .arg(path);
    if (stream.trailingBytes() > 0)
        result.warnings << QStringLiteral("%1: %2 byte(s) of non-gzip data after the compressed stream were ignored")
                               .arg(path)
                               .arg(stream.trailingBytes());
}

} // namespace parallax::snapshot
