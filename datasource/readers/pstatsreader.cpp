// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Python pstats reader (hatchet/MANIFEST.md: cprofile-hatchet-pstats).
//
// The bytes
// ---------
// cProfile.Profile.dump_stats(), profile.Profile.dump_stats() and pstats.Stats.dump_stats() all write
// marshal.dump(stats): one Python dict, in the marshal format of the Python that wrote it (version 2
// for Python 2; 3 or 4 for Python 3, which adds FLAG_REF (0x80 on the type code) with 'r'
// back-references and the short ASCII string types). The file is small (a few bytes per function
// and caller edge) and marshal refers back to earlier objects, so it is read whole and decoded by a
// small marshal decoder of our own: dict '{' ... '0', tuple '(' (i32 count) and ')' (u8 count),
// list '[', set '<' / frozenset '>', int 'i' (i32) and 'I' (i64, Python 2), long 'l' (i32 signed digit
// count, then 15-bit digits; kept as a double), float 'g' (binary double) and 'f' (u8 length + text),
// complex 'x'/'y' (skipped), strings 's' (bytes, UTF-8 assumed), 'u' and 't' (UTF-8), 'a'/'A' (ASCII,
// i32 length), 'z'/'Z' (ASCII, u8 length), Python 2 interned-string references 'R' (index into the
// strings read with 't'), Python 3 FLAG_REF / 'r' (index into every flagged object in the order they
// begin; a container's slot is reserved before its items, as CPython does), None 'N', True 'T', False
// 'F', StopIteration 'S', Ellipsis '.'. Every read is bounds-checked; a count larger than the bytes
// left, an unknown type code, a reference to an object not yet read, nesting deeper than 100 levels
// or data ending early is an error giving the byte offset and what was expected. Bytes after the dict
// are kept out with a warning.
//
// The stats dict (what pstats.Stats.load_stats accepts)
// ------------------------------------------------------
//   (file, line, funcname) -> (cc, nc, tt, ct, callers)
// cc = primitive (non-recursive) calls, nc = all calls, tt = time in the function itself (s),
// ct = cumulative time including callees (s; recursion counted once), callers =
//   {(file, line, funcname) of a caller -> (nc, cc, tt, ct) of the callee's calls from that caller}
// Note the swapped order in the caller tuples: cProfile writes (nc, cc, ...) there (its
// snapshot_stats), but (cc, nc, ...) in the entry itself. The pure-Python `profile` module (and
// Python 2's) writes a bare call count instead of the tuple.
//
// What the model gets
// -------------------
// * One thread (0,0,0); one metric TIME in microseconds (seconds x 10^6, as TAU's TIME).
// * Event names: "funcname [{file} {line}]", TAU's source-location form, so the NO_SOURCE and
//   ROUTINE matching policies (docs/SEMANTICS.md 1.9) reduce it to the bare function name and pprof-style
//   views show "funcname". Built-ins (file "~", line 0, e.g. "<method 'disable' of
//   '_lsprof.Profiler' objects>", "<built-in method builtins.next>") keep their name alone, as
//   pstats prints them. Hatchet shows the same functions as "g pstats_reader_test.py".
// * Flat event per function: exclusive = tt, inclusive = ct, calls = nc, subrs = the calls it made
//   to profiled functions (the sum of nc over the edges where it is the caller). Primitive calls cc
//   are kept in trial metadata "pstats primitive calls: <event name>" for the functions where cc
//   differs from nc (recursive ones); absent means cc = nc. Group TAU_DEFAULT.
// * Call-path event "caller => callee" per caller edge, with the edge's own values: calls = nc,
//   exclusive = tt, inclusive = ct (so, as in pstats, ct of a recursive edge includes the inner
//   activations), subrs 0. Group TAU_CALLPATH. The callers are not rooted paths: each function is a
//   call-tree root with its callees one level below (like gprof's arcs). Edges given as a bare count
//   have calls only and zero times (with a warning).
// * Trial metadata: "pstats functions", "pstats files" (distinct files, "~" counted), "pstats total
//   time (s)" (the sum of tt, pstats' total_tt) and "pstats marshal" (Python 2 or 3 dialect).
// * Warnings: non-finite numbers (stored as 0), negative times, "=>" inside a name (written "= >"),
//   two keys with the same event name (summed), callers that are not profiled functions.

#include "datasource/readers/pstatsreader.h"

#include "datasource/model/names.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/gzipinput.h"
#include "datasource/readers/textnumber.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <charconv>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

namespace parallax {

namespace {

/// Far beyond any real dump (cProfile of a large program: a few MB).
constexpr qint64 MaxFileBytes = qint64(1) << 30;
constexpr int MaxDepth = 100;

struct Value;
using ValuePtr = std::shared_ptr<const Value>;

struct Value {
    enum class Kind { None, Bool, Int, Float, String, Tuple, List, Set, Dict, Other };
    Kind kind = Kind::None;
    /// Byte offset of the type code.
    qint64 offset = 0;
    double number = 0;
    QString text;
    /// Tuple, list and set items; for a dict key0, value0, key1, value1, ...
    std::vector<ValuePtr> items;

    bool isNumber() const { return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool; }
};

QString describe(const Value& v)
{
    switch (v.kind) {
    case Value::Kind::None:
        return QStringLiteral("None");
    case Value::Kind::Bool:
        return QStringLiteral("a bool");
    case Value::Kind::Int:
        return QStringLiteral("the int %1").arg(v.number, 0, 'g', 17);
    case Value::Kind::Float:
        return QStringLiteral("the float %1").arg(v.number, 0, 'g', 17);
    case Value::Kind::String:
        return QStringLiteral("the string '%1'").arg(v.text.left(60));
    case Value::Kind::Tuple:
        return QStringLiteral("a tuple of %1").arg(v.items.size());
    case Value::Kind::List:
        return QStringLiteral("a list");
    case Value::Kind::Set:
        return QStringLiteral("a set");
    case Value::Kind::Dict:
        return QStringLiteral("a dict");
    case Value::Kind::Other:
        break;
    }
    return QStringLiteral("another object");
}

/// Decodes Python's marshal format (the subset a stats dict uses, and the other simple types).
class MarshalDecoder {
public:
    explicit MarshalDecoder(const QByteArray& data)
        : m_data(reinterpret_cast<const unsigned char*>(data.constData()))
        , m_size(data.size())
    {
    }

    ValuePtr readObject(int depth)
    {
        const qint64 start = m_pos;
        if (depth > MaxDepth)
            throw ParseError::at(start, QStringLiteral("objects nested deeper than %1 levels").arg(MaxDepth));
        need(1, "a type code");
        const unsigned char code = m_data[m_pos++];
        const bool flagged = (code & 0x80) != 0;
        const char type = static_cast<char>(code & 0x7f);
        if (type == 'r') {
            m_python3 = true;
            const qint64 index = i32("a reference index");
            if (index < 0 || index >= static_cast<qint64>(m_refs.size()))
                throw ParseError::at(start,
                    QStringLiteral("reference %1 to an object that was not read (%2 so far)")
                        .arg(index)
                        .arg(m_refs.size()));
            if (!m_refs[static_cast<std::size_t>(index)])
                throw ParseError::at(
                    start, QStringLiteral("reference %1 to an object that is still being read").arg(index));
            return m_refs[static_cast<std::size_t>(index)];
        }
        if (type == 'R') {
            m_python2 = true;
            const qint64 index = i32("an interned-string index");
            if (index < 0 || index >= static_cast<qint64>(m_interned.size()))
                throw ParseError::at(start,
                    QStringLiteral("string reference %1 to a string that was not read (%2 so far)")
                        .arg(index)
                        .arg(m_interned.size()));
            return m_interned[static_cast<std::size_t>(index)];
        }
        std::size_t slot = 0;
        if (flagged) {
            m_python3 = true;
            slot = m_refs.size();
            m_refs.push_back(nullptr);
        }
        auto v = std::make_shared<Value>();
        v->offset = start;
        switch (type) {
        case 'N':
            break;
        case 'T':
        case 'F':
            v->kind = Value::Kind::Bool;
            v->number = type == 'T' ? 1 : 0;
            break;
        case 'S':
        case '.':
            v->kind = Value::Kind::Other;
            break;
        case 'i':
            v->kind = Value::Kind::Int;
            v->number = static_cast<double>(i32("an int"));
            break;
        case 'I':
            m_python2 = true;
            v->kind = Value::Kind::Int;
            need(8, "a 64-bit int");
            v->number = static_cast<double>(static_cast<std::int64_t>(le(8)));
            break;
        case 'l':
            v->kind = Value::Kind::Int;
            v->number = readLong();
            break;
        case 'g':
            v->kind = Value::Kind::Float;
            v->number = binaryFloat();
            break;
        case 'f':
            v->kind = Value::Kind::Float;
            v->number = textFloat();
            break;
        case 'y':
            v->kind = Value::Kind::Other;
            binaryFloat();
            binaryFloat();
            break;
        case 'x':
            v->kind = Value::Kind::Other;
            textFloat();
            textFloat();
            break;
        case 's':
        case 't':
        case 'u':
        case 'a':
        case 'A':
        case 'z':
        case 'Z': {
            if (type == 's' || type == 't')
                m_bytesStrings = true;
            if (type == 'a' || type == 'A' || type == 'z' || type == 'Z')
                m_python3 = true;
            const qint64 length = (type == 'z' || type == 'Z') ? u8("a string length") : i32("a string length");
            if (length < 0 || length > m_size - m_pos)
                throw ParseError::at(start,
                    QStringLiteral("a string of %1 bytes does not fit in the %2 bytes left")
                        .arg(length)
                        .arg(m_size - m_pos));
            const char* p = reinterpret_cast<const char*>(m_data + m_pos);
            const bool ascii = type == 'a' || type == 'A' || type == 'z' || type == 'Z';
            v->kind = Value::Kind::String;
            v->text = ascii ? QString::fromLatin1(p, length) : QString::fromUtf8(p, length);
            m_pos += length;
            break;
        }
        case '(':
        case ')':
        case '[':
        case '<':
        case '>': {
            if (type == ')')
                m_python3 = true;
            const qint64 count = type == ')' ? u8("a tuple size") : i32("a container size");
            // Every item takes at least one byte.
            if (count < 0 || count > m_size - m_pos)
                throw ParseError::at(start,
                    QStringLiteral("a container of %1 items does not fit in the %2 bytes left")
                        .arg(count)
                        .arg(m_size - m_pos));
            v->kind = type == '(' || type == ')' ? Value::Kind::Tuple
                : type == '['                    ? Value::Kind::List
                                                 : Value::Kind::Set;
            v->items.reserve(static_cast<std::size_t>(std::min<qint64>(count, 4096)));
            for (qint64 i = 0; i < count; ++i)
                v->items.push_back(readObject(depth + 1));
            break;
        }
        case '{': {
            v->kind = Value::Kind::Dict;
            while (true) {
                need(1, "a dict key or the dict end '0'");
                if (m_data[m_pos] == '0') {
                    ++m_pos;
                    break;
                }
                v->items.push_back(readObject(depth + 1));
                v->items.push_back(readObject(depth + 1));
            }
            break;
        }
        default:
            throw ParseError::at(start,
                QStringLiteral("unknown or unsupported marshal type code 0x%1 ('%2')")
                    .arg(code, 2, 16, QLatin1Char('0'))
                    .arg(code >= 0x20 && code < 0x7f ? QString(QLatin1Char(type)) : QStringLiteral("?")));
        }
        if (flagged)
            m_refs[slot] = v;
        if (type == 't')
            m_interned.push_back(v);
        return v;
    }

    qint64 position() const { return m_pos; }
    /// "Python 3", "Python 2" or "" when the bytes do not tell.
    QString dialect() const
    {
        if (m_python3)
            return QStringLiteral("Python 3 (marshal version 3 or later)");
        if (m_python2 || m_bytesStrings)
            return QStringLiteral("Python 2 (marshal version 2)");
        return {};
    }

private:
    void need(qint64 n, const char* what) const
    {
        if (m_size - m_pos < n)
            throw ParseError::at(m_pos,
                QStringLiteral("the data ends at byte %1 while reading %2 (%3 more bytes expected)")
                    .arg(m_size)
                    .arg(QLatin1String(what))
                    .arg(n - (m_size - m_pos)));
    }
    std::uint64_t le(int bytes)
    {
        std::uint64_t v = 0;
        for (int i = 0; i < bytes; ++i)
            v |= std::uint64_t(m_data[m_pos + i]) << (8 * i);
        m_pos += bytes;
        return v;
    }
    qint64 u8(const char* what)
    {
        need(1, what);
        return m_data[m_pos++];
    }
    qint64 i32(const char* what)
    {
        need(4, what);
        return static_cast<std::int32_t>(static_cast<std::uint32_t>(le(4)));
    }
    double binaryFloat()
    {
        need(8, "a binary float");
        const std::uint64_t bits = le(8);
        double d;
        std::memcpy(&d, &bits, 8);
        return d;
    }
    double textFloat()
    {
        const qint64 start = m_pos;
        const qint64 n = u8("a float length");
        need(n, "a float");
        const char* p = reinterpret_cast<const char*>(m_data + m_pos);
        textnumber::NumberRange range;
        const auto parsed = textnumber::parseDouble(std::string_view(p, static_cast<std::size_t>(n)), &range);
        if (!parsed || range != textnumber::NumberRange::InRange)
            throw ParseError::at(
                start, QStringLiteral("'%1' is not a float").arg(QString::fromLatin1(p, static_cast<qsizetype>(n))));
        m_pos += n;
        return *parsed;
    }
    double readLong()
    {
        const qint64 start = m_pos - 1;
        const qint64 n = i32("a long size");
        const qint64 digits = n < 0 ? -n : n;
        if (digits > (m_size - m_pos) / 2)
            throw ParseError::at(start,
                QStringLiteral("a long of %1 digits does not fit in the %2 bytes left")
                    .arg(digits)
                    .arg(m_size - m_pos));
        double value = 0;
        double scale = 1;
        for (qint64 i = 0; i < digits; ++i) {
            const auto d = static_cast<unsigned>(le(2));
            if (d >= 1u << 15)
                throw ParseError::at(m_pos - 2, QStringLiteral("long digit %1 is out of range (0..32767)").arg(d));
            value += d * scale;
            scale *= 32768.0;
        }
        return n < 0 ? -value : value;
    }

    const unsigned char* m_data;
    qint64 m_size;
    qint64 m_pos = 0;
    std::vector<ValuePtr> m_refs;
    std::vector<ValuePtr> m_interned;
    bool m_python3 = false;
    bool m_python2 = false;
    bool m_bytesStrings = false;
};

struct FunctionKey {
    QString file;
    qint64 line = 0;
    QString function;
};

FunctionKey functionKey(const ValuePtr& v, const char* role)
{
    const bool ok = v->kind == Value::Kind::Tuple && v->items.size() == 3 && v->items[0]->kind == Value::Kind::String
        && v->items[1]->kind == Value::Kind::Int && v->items[2]->kind == Value::Kind::String;
    if (!ok)
        throw ParseError::at(v->offset,
            QStringLiteral("expected a (file, line, function name) tuple as %1, found %2")
                .arg(QLatin1String(role), describe(*v)));
    return { v->items[0]->text, static_cast<qint64>(v->items[1]->number), v->items[2]->text };
}

/// The event name of a function (see the top of this file).
QString eventName(const FunctionKey& key, int& arrows)
{
    QString function = key.function;
    QString file = key.file;
    if (function.contains(QLatin1String("=>")) || file.contains(QLatin1String("=>"))) {
        ++arrows;
        function.replace(QLatin1String("=>"), QLatin1String("= >"));
        file.replace(QLatin1String("=>"), QLatin1String("= >"));
    }
    if (key.file == QLatin1String("~") && key.line == 0)
        return function;
    return QStringLiteral("%1 [{%2} {%3}]").arg(function, file).arg(key.line);
}

struct Edge {
    std::size_t caller = 0;
    QString callerName;
    double calls = 0;
    double tt = 0;
    double ct = 0;
};

struct Function {
    QString name;
    QString file;
    double cc = 0;
    double nc = 0;
    double tt = 0;
    double ct = 0;
    double subrs = 0;
    std::vector<Edge> edges;
};

class Assembler {
public:
    Assembler(TrialBuilder& builder, QStringList& warnings, qint64 fileSize)
        : m_builder(builder)
        , m_warnings(warnings)
        , m_edgeBudget(fileSize + 100000)
    {
    }

    void run(const ValuePtr& top, const QString& dialect)
    {
        if (top->kind != Value::Kind::Dict)
            throw ParseError::at(top->offset,
                QStringLiteral("expected the stats dict ('{') of a pstats dump, found %1").arg(describe(*top)));
        const std::size_t n = top->items.size() / 2;
        m_functions.reserve(n);
        QHash<QString, std::size_t> byName;
        for (std::size_t i = 0; i < n; ++i) {
            const FunctionKey key = functionKey(top->items[2 * i], "a stats key");
            const ValuePtr& entry = top->items[2 * i + 1];
            const bool ok = entry->kind == Value::Kind::Tuple && entry->items.size() == 5 && entry->items[0]->isNumber()
                && entry->items[1]->isNumber() && entry->items[2]->isNumber() && entry->items[3]->isNumber()
                && entry->items[4]->kind == Value::Kind::Dict;
            if (!ok)
                throw ParseError::at(entry->offset,
                    QStringLiteral("expected the (primitive calls, calls, tottime, cumtime, callers dict) tuple of "
                                   "'%1', found %2")
                        .arg(key.function, describe(*entry)));
            Function f;
            f.name = eventName(key, m_arrows);
            f.file = key.file;
            f.cc = number(*entry->items[0], false);
            f.nc = number(*entry->items[1], false);
            f.tt = number(*entry->items[2], true);
            f.ct = number(*entry->items[3], true);
            if (byName.contains(f.name))
                m_duplicates << f.name;
            else
                byName.insert(f.name, m_functions.size());
            m_functions.push_back(std::move(f));
        }
        // Callers, once every function is known.
        for (std::size_t i = 0; i < n; ++i) {
            const Value& callers = *top->items[2 * i + 1]->items[4];
            const std::size_t edges = callers.items.size() / 2;
            m_edgeBudget -= static_cast<qint64>(edges);
            if (m_edgeBudget < 0)
                throw ParseError::at(callers.offset,
                    QStringLiteral("more caller entries than the file can hold (callers dicts shared by reference?)"));
            for (std::size_t k = 0; k < edges; ++k) {
                const FunctionKey key = functionKey(callers.items[2 * k], "a caller key");
                const ValuePtr& value = callers.items[2 * k + 1];
                Edge e;
                e.callerName = eventName(key, m_arrows);
                if (value->kind == Value::Kind::Tuple && value->items.size() == 4 && value->items[0]->isNumber()
                    && value->items[1]->isNumber() && value->items[2]->isNumber() && value->items[3]->isNumber()) {
                    e.calls = number(*value->items[0], false);
                    e.tt = number(*value->items[2], true);
                    e.ct = number(*value->items[3], true);
                } else if (value->kind == Value::Kind::Int) {
                    e.calls = number(*value, false);
                    ++m_countOnlyEdges;
                } else {
                    throw ParseError::at(value->offset,
                        QStringLiteral("expected the (calls, primitive calls, tottime, cumtime) tuple or a call count "
                                       "of the caller '%1' of '%2', found %3")
                            .arg(key.function, m_functions[i].name, describe(*value)));
                }
                const auto it = byName.constFind(e.callerName);
                if (it == byName.cend()) {
                    ++m_unknownCallers;
                    e.caller = std::size_t(-1);
                } else {
                    e.caller = it.value();
                    m_functions[e.caller].subrs += e.calls;
                }
                m_functions[i].edges.push_back(std::move(e));
            }
        }
        build(dialect);
    }

private:
    double number(const Value& v, bool time)
    {
        double d = v.number;
        if (!std::isfinite(d)) {
            ++m_nonFinite;
            return 0;
        }
        if (d < 0)
            ++m_negative;
        return time ? d * 1e6 : d;
    }

    void build(const QString& dialect)
    {
        const ThreadIndex thread = m_builder.addThread({ 0, 0, 0 });
        const QStringList flatGroups { QStringLiteral("TAU_DEFAULT") };
        const QStringList pathGroups { QStringLiteral("TAU_CALLPATH") };
        double totalTt = 0;
        QSet<QString> files;
        for (const Function& f : m_functions) {
            const EventId e = m_builder.addEvent(f.name, flatGroups);
            const double excl = f.tt;
            const double incl = f.ct;
            m_builder.addInterval(
                thread, e, f.nc, f.subrs, std::span<const double>(&excl, 1), std::span<const double>(&incl, 1));
            totalTt += f.tt;
            files.insert(f.file);
            if (f.cc != f.nc)
                m_builder.addMetadata(QStringLiteral("pstats primitive calls: ")
                        + QString::fromStdString(names::canonical(f.name.toStdString())),
                    QString::number(f.cc, 'g', 17));
        }
        for (const Function& f : m_functions) {
            for (const Edge& edge : f.edges) {
                const EventId e = m_builder.addEvent(edge.callerName + QStringLiteral(" => ") + f.name, pathGroups);
                m_builder.addInterval(thread, e, edge.calls, 0, std::span<const double>(&edge.tt, 1),
                    std::span<const double>(&edge.ct, 1));
            }
        }
        m_builder.addMetadata(QStringLiteral("pstats functions"), QString::number(m_functions.size()));
        m_builder.addMetadata(QStringLiteral("pstats files"), QString::number(files.size()));
        m_builder.addMetadata(QStringLiteral("pstats total time (s)"), QString::number(totalTt / 1e6, 'g', 15));
        if (!dialect.isEmpty())
            m_builder.addMetadata(QStringLiteral("pstats marshal"), dialect);
        if (m_functions.empty())
            m_warnings << QStringLiteral("the stats dict is empty: no function was profiled");
        if (m_nonFinite > 0)
            m_warnings
                << QStringLiteral("%1 values were not finite (NaN or infinite) and are stored as 0").arg(m_nonFinite);
        if (m_negative > 0)
            m_warnings << QStringLiteral("%1 values are negative (kept as written)").arg(m_negative);
        if (m_arrows > 0)
            m_warnings << QStringLiteral("%1 function or file names contain '=>'; it is written '= >' so that they are "
                                         "not taken for call paths")
                              .arg(m_arrows);
        if (!m_duplicates.isEmpty())
            m_warnings << QStringLiteral(
                "%1 functions have the same event name as another one and are summed with it: %2")
                              .arg(m_duplicates.size())
                              .arg(m_duplicates.mid(0, 5).join(QStringLiteral("; ")));
        if (m_unknownCallers > 0)
            m_warnings << QStringLiteral("%1 caller entries name a function that has no stats entry; their caller => "
                                         "callee events are kept")
                              .arg(m_unknownCallers);
        if (m_countOnlyEdges > 0)
            m_warnings << QStringLiteral("%1 caller entries give a call count only (profile module): their caller => "
                                         "callee events have calls but no times")
                              .arg(m_countOnlyEdges);
    }

    TrialBuilder& m_builder;
    QStringList& m_warnings;
    qint64 m_edgeBudget;
    std::vector<Function> m_functions;
    QStringList m_duplicates;
    int m_arrows = 0;
    qint64 m_nonFinite = 0;
    qint64 m_negative = 0;
    qint64 m_unknownCallers = 0;
    qint64 m_countOnlyEdges = 0;
};

/// The type code of a dict ('{', possibly with FLAG_REF) followed by a tuple of 3 or the dict end.
int sniffBytes(const QByteArray& head)
{
    if (head.size() < 2)
        return 0;
    const auto b = [&](int i) { return static_cast<unsigned char>(head[i]); };
    if ((b(0) & 0x7f) != '{')
        return 0;
    const int next = b(1) & 0x7f;
    if (next == '0')
        return head.size() == 2 ? 40 : 0;
    if (next == ')')
        return head.size() > 2 && b(2) == 3 ? 90 : 0;
    if (next == '(')
        return head.size() > 5 && b(2) == 3 && b(3) == 0 && b(4) == 0 && b(5) == 0 ? 90 : 0;
    return 0;
}

} // namespace

PstatsReader::PstatsReader()
    : Reader({ QStringLiteral("pstats"), QStringLiteral("Python cProfile/pstats dump"),
        { QStringLiteral("*.pstats"), QStringLiteral("*.prof"), QStringLiteral("*.cprof") } })
{
}

int PstatsReader::sniff(const QString& path) const
{
    const auto head = fileHead(path, 8);
    if (!head)
        return 0;
    const QString lower = QFileInfo(path).fileName().toLower();
    const bool named = lower.endsWith(QLatin1String(".pstats")) || lower.endsWith(QLatin1String(".cprof"));
    const int score = sniffBytes(*head);
    if (score > 0)
        return named ? 100 : score;
    return named ? 30 : 0; // so that read() explains what is wrong with it
}

TrialResult PstatsReader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    (void)options;
    const QFileInfo info(path);
    if (!info.isFile())
        return ReadError { path, 0, -1, QStringLiteral("not a file; a pstats dump is one file") };
    if (info.size() > MaxFileBytes)
        return ReadError { path, 0, -1,
            QStringLiteral("%1 bytes is too large for a pstats dump (at most %2)").arg(info.size()).arg(MaxFileBytes) };
    progress.setStage(QStringLiteral("Reading pstats"), info.size());
    TrialBuilder builder(info.fileName());
    QStringList warnings;
    const ReadJob job { path, {}, QStringLiteral("out of memory (the dump is too large, or corrupt)"), {}, {} };
    return guardedRead(*this, job, builder, warnings, [&]() -> std::optional<ReadError> {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return ReadError { path, 0, -1, QStringLiteral("cannot open: %1").arg(file.errorString()) };
        // The first byte decides before the whole file is read (docs/FORMATS.md 11).
        const QByteArray first = file.peek(1);
        const bool dict = !first.isEmpty() && (static_cast<unsigned char>(first[0]) & 0x7f) == '{';
        const QByteArray data = dict ? file.readAll() : first;
        if (data.isEmpty())
            return ReadError { path, 0, 0, QStringLiteral("empty file; expected a marshal dict ('{') of pstats") };
        if ((static_cast<unsigned char>(data[0]) & 0x7f) != '{')
            return ReadError { path, 0, 0,
                QStringLiteral("expected a marshal dict ('{', byte 0x7b or 0xfb) at the start of a pstats dump, found "
                               "byte 0x%1")
                    .arg(static_cast<unsigned char>(data[0]), 2, 16, QLatin1Char('0')) };
        MarshalDecoder decoder(data);
        const ValuePtr top = decoder.readObject(0);
        if (decoder.position() < data.size())
            warnings << QStringLiteral("%1 bytes after the stats dict (from byte %2) were not read")
                            .arg(data.size() - decoder.position())
                            .arg(decoder.position());
        progress.advance(info.size());
        if (progress.isCancelled())
            return ReadError { path, 0, -1, QStringLiteral("cancelled") };
        builder.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
        Assembler(builder, warnings, data.size()).run(top, decoder.dialect());
        return std::nullopt;
    });
}

} // namespace parallax
