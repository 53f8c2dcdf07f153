// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// gprof text reader (docs/FORMATS.md 6.1).
//
// What the model gets
// -------------------
// * Reports. A file may hold several complete reports (tau2/gprof-wrf/gprof.out holds two); a
//   report starts at a flat profile or a call graph when the current report already has one (GNU
//   prints the flat profile first, BSD and AIX the call graph; either order makes one report).
//   Report k (0-based) becomes thread (k, 0, 0): gprof profiles one process, so separate reports
//   are separate processes (or runs). A file with more than one report gets a warning saying so.
// * Metric. One metric "TIME", unit "us" (TAU's convention, docs/SEMANTICS.md 1.2): gprof seconds x 10^6.
// * Flat events, one per function name (flat-profile rows and call-graph primary lines):
//     excl  = self seconds of the flat profile (of the primary line when the flat profile does not
//             list the function);
//     incl  = excl + children seconds of the call-graph primary line; = excl for a function that
//             has no call-graph entry (flat-only files: incl = excl);
//     calls = the "called" field of the primary line, all of it: "a+b" gives a + b (every
//             invocation, recursive ones included, as TAU counts calls; ParaProf's 0 for "a+b" is
//             not copied); else the flat profile's calls; 0 when both are blank;
//     subrs = the sum of the calls on the entry's child lines (calls into cycle members included).
//   Functions named only as a parent or child (e.g. "__gmon_start__ [426]" in gnu2.prof, which has
//   no entry of its own) become events without a cell, so that the arc events have a parent.
// * Call-path events "caller => callee", one per call-graph arc (TAU's depth-2 edges, as ParaProf
//   builds them): excl = the arc's self seconds, incl = self + children, calls = the arc's calls
//   (the a of "a/b", or the bare number of an arc inside a cycle), subrs = 0. Every arc is printed
//   twice (child line of the caller, parent line of the callee); the child line is used, a parent
//   line only for an arc that no child line gives (a caller without an entry of its own).
//   "<spontaneous>" is not an arc: those functions are listed in the thread metadata
//   "gprof spontaneous".
// * Cycles. A member's name loses its " <cycle N>" tag, so the flat profile and the call graph name
//   it alike; it joins the group GPROF_CYCLE and its values are those of its own entry. The cycle as
//   a whole is the flat event "<cycle N as a whole>" (group GPROF_CYCLE) with excl = 0 (its self time
//   is the members' self time, already counted there, so the sum of exclusive times stays the
//   program's time), incl = self + children of its entry, calls = a + b of its "called" field,
//   subrs = 0. Its member lines are membership, not calls, and its parent lines repeat arcs that the
//   members' entries already give: neither becomes a call-path event. The members are listed in the
//   thread metadata "gprof cycle N".
// * Groups TAU_DEFAULT for every event, TAU_CALLPATH for arcs, GPROF_CYCLE as above.
// * Names are kept as written (trimmed; white space collapsed by the model), except: a "=>" inside a
//   name becomes "= >" (it would split a call path; with a warning), and the format option
//   "fixnames" removes a leading ".*" or "." (AIX) and a trailing "_" (Fortran). Two entries or rows
//   with one name (static functions of different files) are summed, with a warning.
// * Metadata (per thread, trial-wide when equal): sample period, flat and call-graph totals, the
//   per-call unit, the numbers of flat rows and call-graph entries, cycles, spontaneous functions;
//   trial-wide "gprof names" and "gprof reports".
// The explanatory blurbs, the "Index by function name" and anything outside the two tables are
// skipped. Inside a table every line must parse; otherwise the read fails naming the line.

#include "datasource/readers/gprofreader.h"

#include "datasource/model/trialbuilder.h"
#include "datasource/readers/gzipinput.h"
#include "datasource/readers/textnumber.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <cmath>
#include <cstring>
#include <map>
#include <vector>

namespace parallax {

namespace {

constexpr std::size_t ChunkSize = std::size_t { 256 } * 1024;
/// Longest line accepted: far above any real function name, it bounds what a corrupt file costs.
constexpr qsizetype MaxLineLength = qsizetype { 4 } * 1024 * 1024;
const QString CycleGroup = QStringLiteral("GPROF_CYCLE");

[[noreturn]] void fail(qint64 line, const QString& message) { throw ParseError { message, line, -1 }; }

/// Splits the decompressed bytes into lines (without "\n" or "\r\n"), counting them.
class LineSource {
public:
    explicit LineSource(GzipInput& input)
        : m_input(input)
    {
    }

    bool next(QString& line)
    {
        for (;;) {
            const qsizetype nl = m_buffer.indexOf('\n', m_scan);
            if (nl >= 0) {
                take(nl);
                m_pos = nl + 1;
                m_scan = m_pos;
                line = m_line;
                return true;
            }
            m_scan = m_buffer.size();
            if (m_eof) {
                if (m_pos >= m_buffer.size())
                    return false;
                take(m_buffer.size());
                m_pos = m_scan = m_buffer.size();
                m_unterminated = true;
                line = m_line;
                return true;
            }
            if (m_pos > 0) {
                m_buffer.remove(0, m_pos);
                m_scan -= m_pos;
                m_pos = 0;
            }
            if (m_buffer.size() > MaxLineLength)
                fail(
                    m_number + 1, QStringLiteral("line longer than %1 bytes (expected gprof text)").arg(MaxLineLength));
            const qsizetype old = m_buffer.size();
            m_buffer.resize(old + static_cast<qsizetype>(ChunkSize));
            const qint64 n = m_input.read(m_buffer.data() + old, ChunkSize);
            if (n < 0)
                throw ParseError { m_input.error(), 0, m_input.errorOffset() };
            m_buffer.resize(old + static_cast<qsizetype>(n));
            if (n == 0)
                m_eof = true;
        }
    }

    qint64 number() const { return m_number; }
    /// The last line had no "\n" (the file ends inside a line).
    bool unterminated() const { return m_unterminated; }
    bool binary() const { return m_binary; }

private:
    void take(qsizetype end)
    {
        qsizetype stop = end;
        if (stop > m_pos && m_buffer[stop - 1] == '\r')
            --stop;
        const char* begin = m_buffer.constData() + m_pos;
        const qsizetype size = stop - m_pos;
        if (!m_binary && std::memchr(begin, '\0', static_cast<std::size_t>(size)))
            m_binary = true;
        m_line = QString::fromUtf8(begin, size);
        ++m_number;
    }

    GzipInput& m_input;
    QByteArray m_buffer;
    qsizetype m_pos = 0;
    qsizetype m_scan = 0;
    bool m_eof = false;
    bool m_unterminated = false;
    bool m_binary = false;
    qint64 m_number = 0;
    QString m_line;
};

// ---- tokens ------------------------------------------------------------------------------------

struct Token {
    qsizetype begin = 0;
    qsizetype end = 0;
};

bool isBlank(QChar c)
{
    return c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\f') || c == QLatin1Char('\v')
        || c == QLatin1Char('\r');
}

/// The white-space separated tokens of the first `max` (all when 0) fields.
std::vector<Token> tokenize(const QString& line, std::size_t max = 0)
{
    std::vector<Token> tokens;
    qsizetype i = 0;
    const qsizetype n = line.size();
    while (i < n) {
        while (i < n && isBlank(line[i]))
            ++i;
        if (i >= n)
            break;
        const qsizetype begin = i;
        while (i < n && !isBlank(line[i]))
            ++i;
        tokens.push_back({ begin, i });
        if (max > 0 && tokens.size() >= max)
            break;
    }
    return tokens;
}

bool allDigits(QStringView s)
{
    if (s.isEmpty())
        return false;
    for (QChar c : s)
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return false;
    return true;
}

/// gprof's times and percentages: digits with one '.' ("0.00", "100.0", ".5").
bool isDecimal(QStringView s)
{
    const qsizetype dot = s.indexOf(QLatin1Char('.'));
    if (dot < 0)
        return false;
    const QStringView a = s.left(dot);
    const QStringView b = s.mid(dot + 1);
    return (a.isEmpty() || allDigits(a)) && (b.isEmpty() || allDigits(b)) && !(a.isEmpty() && b.isEmpty());
}

/// A "called" field: "7", "1/2" (arc calls / callee's total), "1+3" (plain + recursive calls).
enum class CallForm { None, Plain, Slash, Plus };

CallForm callForm(QStringView s)
{
    if (allDigits(s))
        return CallForm::Plain;
    for (const auto& [sep, form] :
        { std::pair { QLatin1Char('/'), CallForm::Slash }, std::pair { QLatin1Char('+'), CallForm::Plus } }) {
        const qsizetype at = s.indexOf(sep);
        if (at > 0 && allDigits(s.left(at)) && allDigits(s.mid(at + 1)))
            return form;
    }
    return CallForm::None;
}

double number(QStringView s, qint64 line)
{
    const QByteArray text = s.toLatin1();
    const auto parsed
        = textnumber::parseDouble(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    const double v = parsed.value_or(0.0);
    if (!parsed || !std::isfinite(v) || !std::isfinite(v * 1e6))
        fail(line, QStringLiteral("number %1 is out of range").arg(quoted(s)));
    return v;
}

QStringView view(const QString& line, const Token& t) { return QStringView(line).mid(t.begin, t.end - t.begin); }

// ---- names -------------------------------------------------------------------------------------

struct Name {
    QString name;
    int cycle = -1; // "name <cycle N>": N
    bool cycleWhole = false; // "<cycle N as a whole>"
    bool spontaneous = false;
};

/// Splits "name <cycle N> [index]" (index required when `needIndex`, else optional, also as "(N)").
Name parseName(QStringView text, qint64 line, bool needIndex)
{
    Name out;
    QStringView s = text.trimmed();
    if (s == QLatin1String("<spontaneous>")) {
        out.spontaneous = true;
        return out;
    }
    bool indexed = false;
    if (s.endsWith(QLatin1Char(']')) || (!needIndex && s.endsWith(QLatin1Char(')')))) {
        const QChar open = s.endsWith(QLatin1Char(']')) ? QLatin1Char('[') : QLatin1Char('(');
        const qsizetype at = s.lastIndexOf(open);
        if (at >= 0 && allDigits(s.mid(at + 1, s.size() - at - 2))
            && (open == QLatin1Char('[') || (at > 0 && isBlank(s[at - 1])))) {
            s = s.left(at).trimmed();
            indexed = true;
        }
    }
    if (needIndex && !indexed)
        fail(line,
            QStringLiteral("expected a function name followed by its index '[N]', found %1")
                .arg(quoted(text.trimmed())));
    if (s.startsWith(QLatin1String("<cycle ")) && s.endsWith(QLatin1String(" as a whole>"))) {
        const QStringView n = s.mid(7, s.size() - 7 - 12);
        if (allDigits(n) && n.size() < 9) {
            out.cycleWhole = true;
            out.cycle = n.toInt();
            out.name = s.toString();
            return out;
        }
    }
    if (s.endsWith(QLatin1Char('>'))) {
        const qsizetype at = s.lastIndexOf(QLatin1String(" <cycle "));
        if (at > 0) {
            const QStringView n = s.mid(at + 8, s.size() - at - 9);
            if (allDigits(n) && n.size() < 9) {
                out.cycle = n.toInt();
                s = s.left(at).trimmed();
            }
        }
    }
    if (s.isEmpty())
        fail(line, QStringLiteral("expected a function name, found %1").arg(quoted(text.trimmed())));
    out.name = s.toString();
    return out;
}

// ---- one report --------------------------------------------------------------------------------

struct FlatRow {
    QString name;
    double self = 0;
    double calls = 0;
    bool hasCalls = false;
};

struct GraphLine {
    bool primary = false;
    double self = 0;
    double children = 0;
    CallForm form = CallForm::None;
    double a = 0;
    double b = 0;
    Name name;
    qint64 line = 0;
};

struct Entry {
    Name name;
    double self = 0;
    double children = 0;
    bool hasCalls = false;
    double calls = 0;
    double subrs = 0;
    qint64 line = 0;
};

struct Arc {
    double self = 0;
    double children = 0;
    double calls = 0;
    int count = 0;
};

using ArcKey = std::pair<QString, QString>;

/// Names in order of first appearance, each once.
struct UniqueList {
    QStringList names;
    QSet<QString> seen;
    void add(const QString& name)
    {
        if (!seen.contains(name)) {
            seen.insert(name);
            names << name;
        }
    }
};

struct Report {
    qint64 firstLine = 0;
    bool hasFlat = false;
    bool hasGraph = false;
    QString samplePeriod;
    QString perCallUnit;
    QString flatTotal;
    QString graphTotal;
    std::vector<FlatRow> flat;
    std::vector<Entry> entries;
    std::map<ArcKey, Arc> childArcs;
    std::map<ArcKey, Arc> parentArcs;
    std::map<int, UniqueList> cycles;
    UniqueList spontaneous;
};

/// The flat-profile column header: " time   seconds   seconds    calls  ms/call  ms/call  name".
bool isFlatHeader(QStringView t)
{
    return t.startsWith(QLatin1String("time")) && t.contains(QLatin1String("seconds"))
        && t.endsWith(QLatin1String("name"));
}

/// The call-graph column header: GNU "index % time self children called name", BSD/AIX
/// "index  %time    self descendents  called+self    name    index".
bool isGraphHeader(QStringView t)
{
    if (!t.startsWith(QLatin1String("index")))
        return false;
    const qsizetype time = t.indexOf(QLatin1String("time"));
    const qsizetype self = t.indexOf(QLatin1String("self"));
    const qsizetype name = t.indexOf(QLatin1String("name"));
    const bool kids = t.contains(QLatin1String("children")) || t.contains(QLatin1String("descendents"))
        || t.contains(QLatin1String("descendants"));
    return t.contains(QLatin1Char('%')) && time > 0 && self > time && kids && t.contains(QLatin1String("called"))
        && name > self;
}

bool isSeparator(QStringView t)
{
    if (t.size() < 3)
        return false;
    for (QChar c : t)
        if (c != QLatin1Char('-'))
            return false;
    return true;
}

class Parser {
public:
    Parser(bool fixNames, Progress& progress)
        : m_fixNames(fixNames)
        , m_progress(progress)
    {
    }

    void parse(LineSource& source)
    {
        QString line;
        while (source.next(line)) {
            m_line = source.number();
            if ((m_line & 0xfff) == 0 && m_progress.isCancelled())
                throw Cancelled {};
            // NUL bytes inside a report are kept with a warning; before any, the file is binary,
            // and scanning on for a header would read all of it (docs/FORMATS.md 11).
            if (m_reports.empty() && source.binary())
                throw ParseError { QStringLiteral("binary data (a NUL byte) before any gprof header; gprof output is "
                                                  "text (expected a line 'Flat profile:' or a call-graph header)"),
                    m_line, -1 };
            handle(line);
        }
        if (m_state == State::GraphTable) {
            finishEntry();
            if (m_lastGraphLine > 0 && !m_lastWasSeparator)
                m_warnings << QStringLiteral("the call graph ends at line %1 without its closing dashed line (is the "
                                             "file truncated?)")
                                  .arg(m_lastGraphLine);
        }
        if (m_state == State::FlatRows && source.unterminated())
            m_warnings << QStringLiteral("the file ends inside the flat profile, without a final newline (is it "
                                         "truncated?)");
        if (source.binary())
            m_warnings << QStringLiteral("the file contains NUL bytes; is it text?");
        if (m_reports.empty())
            throw ParseError { QStringLiteral("no gprof flat profile or call graph found (expected a line 'Flat "
                                              "profile:' or a call-graph header 'index % time self children "
                                              "called name')"),
                0, -1 };
    }

    std::vector<Report>& reports() { return m_reports; }
    QStringList& warnings() { return m_warnings; }
    int renamedArrows() const { return m_renamedArrows; }

private:
    enum class State { Outside, FlatHeader, FlatRows, GraphPreamble, GraphTable, Index };

    Report& current() { return m_reports.back(); }

    void newReport()
    {
        m_reports.emplace_back();
        current().firstLine = m_line;
    }

    QString cleanName(QString name)
    {
        if (name.contains(QLatin1String("=>"))) {
            name.replace(QLatin1String("=>"), QLatin1String("= >"));
            ++m_renamedArrows;
        }
        if (!m_fixNames)
            return name;
        QString fixed = name;
        if (fixed.startsWith(QLatin1String(".*")))
            fixed.remove(0, 2);
        else if (fixed.startsWith(QLatin1Char('.')))
            fixed.remove(0, 1);
        if (fixed.size() > 1 && fixed.endsWith(QLatin1Char('_')))
            fixed.chop(1);
        return fixed.trimmed().isEmpty() ? name : fixed;
    }

    /// A line that opens a section; returns whether it was one. GNU gprof prints "Flat profile:"
    /// then the call graph; BSD and AIX gprof print the call graph first and the flat profile with
    /// its column header only, so a flat profile joins a report that has none yet.
    bool sectionStart(QStringView t)
    {
        if (t.startsWith(QLatin1String("Flat profile"))) {
            if (m_reports.empty() || current().hasFlat)
                newReport();
            current().hasFlat = true;
            m_state = State::FlatHeader;
            return true;
        }
        if (isFlatHeader(t) && m_state != State::FlatRows) {
            if (m_state != State::FlatHeader && (m_reports.empty() || current().hasFlat))
                newReport();
            current().hasFlat = true;
            flatHeader(t);
            return true;
        }
        if (t.startsWith(QLatin1String("Call graph"))) {
            if (m_reports.empty() || current().hasGraph)
                newReport();
            current().hasGraph = true;
            m_state = State::GraphPreamble;
            return true;
        }
        if (isGraphHeader(t)) {
            if (m_state != State::GraphPreamble && (m_reports.empty() || current().hasGraph))
                newReport();
            current().hasGraph = true;
            startTable();
            return true;
        }
        if (t.startsWith(QLatin1String("Index by function name"))) {
            m_state = State::Index;
            return true;
        }
        if (t.contains(QLatin1String("granularity:")))
            granularity(t);
        return false;
    }

    void flatHeader(QStringView t)
    {
        const QString header = t.toString();
        const auto tokens = tokenize(header);
        if (tokens.size() >= 2 && view(header, tokens[tokens.size() - 2]).endsWith(QLatin1String("/call")))
            current().perCallUnit = view(header, tokens[tokens.size() - 2]).toString();
        m_pendingTotal.clear(); // a BSD flat profile's granularity line; its total is the last cumulative time
        m_state = State::FlatRows;
    }

    void startTable()
    {
        m_state = State::GraphTable;
        m_tableLines = 0;
        m_entry.clear();
        m_lastWasSeparator = false;
        if (!m_pendingTotal.isEmpty())
            current().graphTotal = m_pendingTotal;
        m_pendingTotal.clear();
    }

    /// GNU/BSD "granularity: each sample hit covers 4 byte(s) for 0.78% of 1.29 seconds", AIX
    /// "ngranularity: Each sample hit covers 4 bytes. Time: 3.76 seconds": the time the call graph
    /// (or the BSD flat profile that follows) accounts for.
    void granularity(QStringView t)
    {
        qsizetype at = t.lastIndexOf(QLatin1String(" of "));
        qsizetype skip = 4;
        if (at < 0) {
            at = t.lastIndexOf(QLatin1String("Time:"));
            skip = 5;
        }
        if (at < 0)
            return;
        const QStringView rest = t.mid(at + skip).trimmed();
        const qsizetype space = rest.indexOf(QLatin1Char(' '));
        if (space > 0 && isDecimal(rest.left(space)))
            m_pendingTotal = rest.left(space).toString();
    }

    void handle(const QString& line)
    {
        const QStringView t = QStringView(line).trimmed();
        switch (m_state) {
        case State::Outside:
        case State::Index:
        case State::GraphPreamble:
            sectionStart(t);
            return;
        case State::FlatHeader:
            if (sectionStart(t))
                return;
            if (t.startsWith(QLatin1String("Each sample counts as "))) {
                QStringView period = t.mid(22);
                if (period.endsWith(QLatin1Char('.')))
                    period.chop(1);
                current().samplePeriod = period.toString();
                if (!period.endsWith(QLatin1String("seconds")))
                    m_warnings << QStringLiteral("line %1: samples count as %2, not seconds; the times are read as "
                                                 "seconds all the same")
                                      .arg(m_line)
                                      .arg(quoted(period));
            }
            return;
        case State::FlatRows:
            if (t.isEmpty()) {
                m_state = State::Outside;
                return;
            }
            if (sectionStart(t))
                return;
            flatRow(line);
            return;
        case State::GraphTable:
            graphLine(line, t);
            return;
        }
    }

    void flatRow(const QString& line)
    {
        const auto tokens = tokenize(line);
        auto tok = [&](std::size_t i) { return view(line, tokens[i]); };
        if (tokens.size() < 4 || !(isDecimal(tok(0)) || allDigits(tok(0))) || !isDecimal(tok(1)) || !isDecimal(tok(2)))
            fail(m_line,
                QStringLiteral("expected a flat-profile row (% time, cumulative seconds, self seconds, [calls, "
                               "self/call, total/call,] name), found %1")
                    .arg(quoted(QStringView(line).trimmed())));
        FlatRow row;
        number(tok(0), m_line);
        current().flatTotal = tok(1).toString();
        number(tok(1), m_line);
        row.self = number(tok(2), m_line);
        std::size_t i = 3;
        if (i + 1 < tokens.size() && allDigits(tok(i))) {
            row.calls = number(tok(i), m_line);
            row.hasCalls = true;
            ++i;
        }
        for (int k = 0; k < 2 && i + 1 < tokens.size() && isDecimal(tok(i)); ++k)
            number(tok(i++), m_line);
        const Name name = parseName(QStringView(line).mid(tokens[i].begin), m_line, false);
        if (name.spontaneous || name.cycleWhole)
            fail(m_line,
                QStringLiteral("expected a function name in the flat profile, found %1")
                    .arg(quoted(name.spontaneous ? QStringLiteral("<spontaneous>") : name.name)));
        row.name = cleanName(name.name);
        current().flat.push_back(std::move(row));
    }

    void graphLine(const QString& line, QStringView t)
    {
        if (t.isEmpty()) {
            if (m_tableLines > 0 || !m_entry.empty()) {
                finishEntry();
                m_state = State::Outside;
            }
            return;
        }
        if (isSeparator(t)) {
            finishEntry();
            m_lastWasSeparator = true;
            m_lastGraphLine = m_line;
            return;
        }
        if (m_tableLines == 0 && m_entry.empty()
            && (t.contains(QLatin1String("called/total")) || t.contains(QLatin1String("called+self")))) {
            return; // the BSD header's extra lines
        }
        if (t.startsWith(QLatin1String("Flat profile")) || t.startsWith(QLatin1String("Call graph"))
            || t.startsWith(QLatin1String("Index by function name")) || isGraphHeader(t) || isFlatHeader(t)) {
            finishEntry();
            m_state = State::Outside;
            sectionStart(t);
            return;
        }
        m_lastWasSeparator = false;
        m_lastGraphLine = m_line;
        ++m_tableLines;
        m_entry.push_back(parseGraphLine(line));
    }

    GraphLine parseGraphLine(const QString& line)
    {
        const auto tokens = tokenize(line);
        auto tok = [&](std::size_t i) { return view(line, tokens[i]); };
        GraphLine g;
        g.line = m_line;
        std::size_t i = 0;
        if (tok(0).startsWith(QLatin1Char('['))) {
            g.primary = true;
            const QStringView index = tok(0);
            if (!index.endsWith(QLatin1Char(']')) || !allDigits(index.mid(1, index.size() - 2)))
                fail(m_line, QStringLiteral("expected a call-graph index '[N]', found %1").arg(quoted(index)));
            if (tokens.size() < 5 || !(isDecimal(tok(1)) || allDigits(tok(1))) || !isDecimal(tok(2))
                || !isDecimal(tok(3)))
                fail(m_line,
                    QStringLiteral("expected a primary line '[index] % time self children [called] name [index]', "
                                   "found %1")
                        .arg(quoted(QStringView(line).trimmed())));
            number(tok(1), m_line);
            g.self = number(tok(2), m_line);
            g.children = number(tok(3), m_line);
            i = 4;
        } else if (isDecimal(tok(0))) {
            if (tokens.size() < 3 || !isDecimal(tok(1)))
                fail(m_line,
                    QStringLiteral("expected a parent or child line 'self children called name [index]', found %1")
                        .arg(quoted(QStringView(line).trimmed())));
            g.self = number(tok(0), m_line);
            g.children = number(tok(1), m_line);
            i = 2;
        }
        if (i + 1 < tokens.size()) {
            g.form = callForm(tok(i));
            if (g.form != CallForm::None) {
                const QStringView c = tok(i);
                const qsizetype sep = g.form == CallForm::Plain
                    ? c.size()
                    : c.indexOf(g.form == CallForm::Slash ? QLatin1Char('/') : QLatin1Char('+'));
                g.a = number(c.left(sep), m_line);
                if (g.form != CallForm::Plain)
                    g.b = number(c.mid(sep + 1), m_line);
                ++i;
            }
        }
        if (i >= tokens.size())
            fail(m_line,
                QStringLiteral("expected a function name after the numbers, found %1")
                    .arg(quoted(QStringView(line).trimmed())));
        g.name = parseName(QStringView(line).mid(tokens[i].begin), m_line, true);
        if (g.name.spontaneous && (g.primary || i > 0))
            fail(m_line,
                QStringLiteral("'<spontaneous>' stands alone on a parent line (found numbers or an index beside it)"));
        if (!g.name.spontaneous)
            g.name.name = g.name.cycleWhole ? g.name.name : cleanName(g.name.name);
        return g;
    }

    void finishEntry()
    {
        if (m_entry.empty())
            return;
        std::vector<GraphLine> lines;
        lines.swap(m_entry);
        std::size_t primary = lines.size();
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (!lines[i].primary)
                continue;
            if (primary < lines.size())
                fail(lines[i].line,
                    QStringLiteral("a second primary line '[N] ...' in one call-graph entry (expected a dashed line "
                                   "between entries)"));
            primary = i;
        }
        if (primary == lines.size())
            fail(lines.front().line,
                QStringLiteral("this call-graph entry has no primary line (expected '[index] % time self children "
                               "called name [index]' between the parents and the children)"));
        Report& r = current();
        const GraphLine& p = lines[primary];
        Entry e;
        e.name = p.name;
        e.self = p.self;
        e.children = p.children;
        e.line = p.line;
        e.hasCalls = p.form != CallForm::None;
        e.calls = p.form == CallForm::Plus ? p.a + p.b : p.a;
        for (std::size_t i = 0; i < primary; ++i) {
            const GraphLine& g = lines[i];
            if (g.name.spontaneous) {
                if (!e.name.cycleWhole)
                    r.spontaneous.add(e.name.name);
                continue;
            }
            if (e.name.cycleWhole)
                continue; // repeats the arcs into the members (their entries give them)
            addArc(r.parentArcs, g.name.name, e.name.name, g);
        }
        for (std::size_t i = primary + 1; i < lines.size(); ++i) {
            const GraphLine& g = lines[i];
            if (g.name.spontaneous)
                fail(g.line, QStringLiteral("'<spontaneous>' below the primary line (expected it among the parents)"));
            if (e.name.cycleWhole) {
                r.cycles[e.name.cycle].add(g.name.name);
                continue;
            }
            e.subrs += arcCalls(g);
            addArc(r.childArcs, e.name.name, g.name.name, g);
        }
        if (e.name.cycle >= 0 && !e.name.cycleWhole)
            r.cycles[e.name.cycle].add(e.name.name);
        r.entries.push_back(std::move(e));
    }

    static double arcCalls(const GraphLine& g) { return g.form == CallForm::Plus ? g.a + g.b : g.a; }

    static void addArc(std::map<ArcKey, Arc>& arcs, const QString& from, const QString& to, const GraphLine& g)
    {
        Arc& arc = arcs[{ from, to }];
        arc.self += g.self;
        arc.children += g.children;
        arc.calls += arcCalls(g);
        ++arc.count;
    }

    bool m_fixNames;
    Progress& m_progress;
    State m_state = State::Outside;
    qint64 m_line = 0;
    std::vector<Report> m_reports;
    std::vector<GraphLine> m_entry;
    qint64 m_tableLines = 0;
    qint64 m_lastGraphLine = 0;
    bool m_lastWasSeparator = false;
    QString m_pendingTotal;
    int m_renamedArrows = 0;
    QStringList m_warnings;
};

// ---- the trial ---------------------------------------------------------------------------------

struct Function {
    bool inFlat = false;
    double flatSelf = 0;
    double flatCalls = 0;
    bool flatHasCalls = false;
    int flatRows = 0;
    bool inGraph = false;
    const Entry* entry = nullptr;
    double graphSelf = 0;
    double graphChildren = 0;
    double graphCalls = 0;
    bool graphHasCalls = false;
    double subrs = 0;
    int entries = 0;
    bool cycleMember = false;
    bool cycleWhole = false;
};

void buildReport(TrialBuilder& builder, const Report& r, ThreadIndex thread, QStringList& warnings, int reportNo)
{
    const QStringList defaultGroup { QStringLiteral("TAU_DEFAULT") };
    const QStringList pathGroups { QStringLiteral("TAU_DEFAULT"), QStringLiteral("TAU_CALLPATH") };
    QHash<QString, Function> functions;
    QStringList order;
    auto function = [&](const QString& name) -> Function& {
        auto it = functions.find(name);
        if (it == functions.end()) {
            order << name;
            it = functions.insert(name, Function {});
        }
        return it.value();
    };
    for (const FlatRow& row : r.flat) {
        Function& f = function(row.name);
        f.inFlat = true;
        f.flatSelf += row.self;
        f.flatCalls += row.calls;
        f.flatHasCalls = f.flatHasCalls || row.hasCalls;
        ++f.flatRows;
    }
    for (const Entry& e : r.entries) {
        Function& f = function(e.name.name);
        f.inGraph = true;
        f.graphSelf += e.self;
        f.graphChildren += e.children;
        f.graphCalls += e.calls;
        f.graphHasCalls = f.graphHasCalls || e.hasCalls;
        f.subrs += e.subrs;
        f.cycleWhole = e.name.cycleWhole;
        f.cycleMember = f.cycleMember || (e.name.cycle >= 0 && !e.name.cycleWhole);
        ++f.entries;
    }
    QStringList repeated;
    for (const QString& name : std::as_const(order)) {
        const Function& f = functions[name];
        if (f.flatRows > 1 || f.entries > 1)
            repeated << quoted(name);
    }
    const QString prefix = reportNo >= 0 ? QStringLiteral("report %1: ").arg(reportNo + 1) : QString();
    if (!repeated.isEmpty())
        warnings << prefix
                + QStringLiteral("%1 function name(s) occur in more than one flat-profile row or call-graph entry "
                                 "(different functions with one name?); their values were summed: %2")
                      .arg(repeated.size())
                      .arg(repeated.mid(0, 10).join(QStringLiteral(", "))
                          + (repeated.size() > 10 ? QStringLiteral(", ...") : QString()));

    constexpr double Us = 1e6;
    for (const QString& name : std::as_const(order)) {
        const Function& f = functions[name];
        QStringList groups = defaultGroup;
        if (f.cycleMember || f.cycleWhole)
            groups << CycleGroup;
        const EventId id = builder.addEvent(name, groups);
        double excl = f.inFlat ? f.flatSelf : f.graphSelf;
        double incl = f.inGraph ? excl + f.graphChildren : excl;
        if (f.cycleWhole) {
            excl = 0;
            incl = f.graphSelf + f.graphChildren;
        }
        const double calls = f.inGraph && f.graphHasCalls ? f.graphCalls : f.flatCalls;
        const double e[] = { excl * Us };
        const double i[] = { incl * Us };
        builder.addInterval(thread, id, calls, f.cycleWhole ? 0.0 : f.subrs, e, i);
    }
    std::map<ArcKey, Arc> arcs = r.childArcs;
    for (const auto& [key, arc] : r.parentArcs)
        arcs.emplace(key, arc); // only where the caller's entry does not list it (no entry, or inconsistent)
    int twice = 0;
    for (const auto& [key, arc] : arcs) {
        for (const QString& end : { key.first, key.second })
            if (!functions.contains(end)) {
                function(end);
                builder.addEvent(end, defaultGroup);
            }
        if (arc.count > 1)
            ++twice;
        const EventId id = builder.addEvent(key.first + QStringLiteral(" => ") + key.second, pathGroups);
        const double e[] = { arc.self * Us };
        const double i[] = { (arc.self + arc.children) * Us };
        builder.addInterval(thread, id, arc.calls, 0.0, e, i);
    }
    if (twice > 0)
        warnings << prefix
                + QStringLiteral("%1 call-graph arc(s) are listed more than once by one caller; their values were "
                                 "summed")
                      .arg(twice);

    // Metadata of this report (trial-wide when all reports agree).
    if (!r.samplePeriod.isEmpty())
        builder.addThreadMetadata(thread, QStringLiteral("gprof sample period"), r.samplePeriod);
    if (!r.perCallUnit.isEmpty())
        builder.addThreadMetadata(thread, QStringLiteral("gprof flat profile per-call unit"), r.perCallUnit);
    if (!r.flatTotal.isEmpty())
        builder.addThreadMetadata(thread, QStringLiteral("gprof flat profile total seconds"), r.flatTotal);
    if (!r.graphTotal.isEmpty())
        builder.addThreadMetadata(thread, QStringLiteral("gprof call graph total seconds"), r.graphTotal);
    QStringList sections;
    if (r.hasFlat)
        sections << QStringLiteral("flat profile");
    if (r.hasGraph)
        sections << QStringLiteral("call graph");
    builder.addThreadMetadata(thread, QStringLiteral("gprof sections"), sections.join(QStringLiteral(", ")));
    if (r.hasFlat)
        builder.addThreadMetadata(thread, QStringLiteral("gprof flat profile rows"), QString::number(r.flat.size()));
    if (r.hasGraph)
        builder.addThreadMetadata(
            thread, QStringLiteral("gprof call graph entries"), QString::number(r.entries.size()));
    if (!r.spontaneous.names.isEmpty())
        builder.addThreadMetadata(
            thread, QStringLiteral("gprof spontaneous"), r.spontaneous.names.join(QStringLiteral(", ")));
    for (const auto& [cycle, members] : r.cycles)
        builder.addThreadMetadata(
            thread, QStringLiteral("gprof cycle %1").arg(cycle), members.names.join(QStringLiteral(", ")));
    if (r.flat.empty() && r.entries.empty())
        warnings << prefix + QStringLiteral("the report starting at line %1 lists no function").arg(r.firstLine);
}

} // namespace

GprofReader::GprofReader()
    : Reader({ QStringLiteral("gprof"), QStringLiteral("gprof text output (GNU, AIX, BSD)"),
        { QStringLiteral("*.gprof"), QStringLiteral("*.prof"), QStringLiteral("gprof*.out"),
            QStringLiteral("gprof*.txt") } })
{
}

int GprofReader::sniff(const QString& path) const
{
    const auto head = fileHead(path, qint64 { 16 } * 1024);
    if (!head)
        return 0;
    int score = 0;
    const auto lines = head->split('\n');
    for (const QByteArray& raw : lines) {
        const QByteArray t = raw.trimmed();
        if (t.startsWith("Flat profile:") || t.startsWith("Call graph (explanation follows)"))
            return 100;
        if (isGraphHeader(QString::fromLatin1(t)))
            return 95;
        if (t.startsWith("granularity: each sample hit covers") || t.startsWith("Each sample counts as"))
            score = std::max(score, 80);
    }
    const QString lower = QFileInfo(path).fileName().toLower();
    if (score == 0 && (lower.endsWith(QLatin1String(".gprof")) || lower.startsWith(QLatin1String("gprof"))))
        score = 20; // so that read() explains what is wrong with it
    return score;
}

TrialResult GprofReader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    const ReadJob job { path, {}, QStringLiteral("out of memory (the file is too large, or corrupt)"),
        options.formatOptions };
    const QString notAFile = QStringLiteral("not a file; gprof output is one text file");
    return guardedFileRead(
        *this, job, notAFile, [&](TrialBuilder& builder, QStringList& warnings) -> std::optional<ReadError> {
            bool fixNames = false;
            for (const QString& option : options.formatOptions) {
                if (option == QLatin1String("fixnames"))
                    fixNames = true;
                else
                    warnings << QStringLiteral(
                        "reader option %1 is not known to the gprof reader (known: fixnames); ignored")
                                    .arg(quoted(option));
            }
            progress.setStage(QStringLiteral("Reading gprof text"), QFileInfo(path).size());
            GzipInput input(progress, ChunkSize);
            input.openOrThrow(path);
            LineSource source(input);
            Parser parser(fixNames, progress);
            parser.parse(source);
            if (input.cutShort())
                warnings << QStringLiteral("the gzip stream is cut short (no end marker): the file may be truncated");
            warnings << parser.warnings();
            if (parser.renamedArrows() > 0)
                warnings << QStringLiteral(
                    "%1 name(s) contain '=>', which separates call-path components; it was written "
                    "'= >'")
                                .arg(parser.renamedArrows());
            auto& reports = parser.reports();
            progress.setStage(QStringLiteral("Building the trial"), 0);
            Metric time(QStringLiteral("TIME"), QStringLiteral("us"));
            builder.addMetric(time);
            if (reports.size() > 1) {
                QStringList starts;
                for (const Report& r : reports)
                    starts << QString::number(r.firstLine);
                warnings << QStringLiteral("the file holds %1 gprof reports (starting at lines %2); report 1 is thread "
                                           "0,0,0, report 2 is thread 1,0,0, and so on")
                                .arg(reports.size())
                                .arg(starts.join(QStringLiteral(", ")));
            }
            for (std::size_t k = 0; k < reports.size(); ++k) {
                const ThreadIndex t = builder.addThread({ static_cast<int>(k), 0, 0 });
                buildReport(builder, reports[k], t, warnings, reports.size() > 1 ? static_cast<int>(k) : -1);
            }
            builder.addMetadata(QStringLiteral("gprof names"),
                fixNames ? QStringLiteral("fixed (leading '.' or '.*' and trailing '_' removed)")
                         : QStringLiteral("as written"));
            builder.addMetadata(QStringLiteral("gprof reports"), QString::number(reports.size()));
            return std::nullopt;
        });
}

} // namespace parallax
