// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// mpiP report reader (docs/FORMATS.md 6.2; mpiP 3.x text reports).
//
// The report
// ----------
// `@ mpiP`, then `@ key : value` header lines (Command, Version, MPIP Build date, Start time, Stop
// time, Timer Used, MPIP env var, Collector Rank/PID, Final Output Dir, Report generation, one
// `MPI Task Assignment : <rank> <host>` per task), then sections, each introduced by
// `@--- <title> ---...` between rules of dashes, with one column-header line and rows:
//   MPI Time (seconds)                      Task AppTime MPITime MPI%           (`*` = total)
//   Callsites: N                            ID Lev File/Address [Line] Parent_Funct MPI_Call
//   Aggregate Time (top twenty, ...)        Call Site Time App% MPI% [COV]      (milliseconds)
//   Aggregate Sent Message Size (...)       Call Site Count Total Avrg Sent%    (bytes)
//   Aggregate I/O Size (...)                Call Site Count Total Avrg I/O%     (bytes)
//   Callsite Time statistics (all, ms): M   Name Site Rank Count Max Mean Min App% MPI%
//   Callsite Message Sent statistics (...)  Name Site Rank Count Max Mean Min Sum
//   Callsite I/O statistics (...)           Name Site Rank Count Max Mean Min Sum
//   End of Report
// In the statistics sections rank `*` rows aggregate the rank rows of one site. A call site has one
// row per stack level: Lev 0 is the frame that called MPI (its file/line is the MPI call), Lev 1 its
// caller, and so on. A frame whose source is unknown has an address and no line. The MPI call is
// written without its "MPI_" prefix (on the Lev 0 row; deeper rows may repeat it or leave it out).
// Parent function names may contain blanks (demangled C++), so a callsite row is split from both
// ends. The file is read as a stream of lines (plain or gzip, through GzipInput).
//
// What the model gets
// -------------------
// * Threads: one per MPI task, (rank, 0, 0). A rank that has statistics rows but no MPI Time row is
//   added too, with a warning. Per-thread metadata "Hostname" from the task assignment (trial-wide
//   when every task ran on the same host, TrialBuilder's rule).
// * Metric TIME in microseconds (AppTime s x 10^6, callsite ms x 10^3).
// * ".MpiP.Application" (ParaProf's name; group TAU_DEFAULT): inclusive = the task's AppTime, which
//   is per task and more precise than ParaProf's stop - start; exclusive = AppTime - the sum of the
//   task's callsite times (kept as computed when rounding makes it negative, with a warning);
//   calls 1; subrs = the task's MPI calls.
// * One call-path event per call site: its frames from the outermost (highest Lev) to Lev 0, each
//   written "Parent_Funct [{file} {line}]" (or "Parent_Funct [{address}]"), then "MPI_<call>", e.g.
//   "timestep [{heat2d.c} {210}] => exchange_halo [{heat2d.c} {120}] => MPI_Isend". The brackets
//   are TAU's source-location form, so the NO_SOURCE policy (docs/SEMANTICS.md 1.9) gives the plain
//   "timestep => exchange_halo => MPI_Isend" and pprof-style names omit them. Per task: calls =
//   Count, exclusive = inclusive = Count x Mean (the report gives no exact total; Mean has 3
//   significant digits), subrs 0. Groups MPI, TAU_CALLPATH. The frame prefixes are not events
//   (synthetic call-tree nodes): mpiP measures only the MPI calls. Call sites whose paths come out
//   identical are one event (values summed, with a warning).
// * One flat event "MPI_<call>" per MPI function (group MPI): per task the sums over its call sites.
// * User events per call site and task (the call path as the context, TAU's "event : context" form):
//     "Call duration (us) : <path>"       n = Count, max/min/mean = Max/Min/Mean x 10^3,
//     "Message size sent : <path>"        from Callsite Message Sent statistics (bytes),
//     "I/O size : <path>"                 from Callsite I/O statistics (bytes),
//   with sumsqr = n x mean^2 (the report gives no spread, so the standard deviation reads 0, as in
//   ParaProf). The Sum column is checked against Count x Mean.
// * `*` rows are not threads: each is checked against its rank rows (count equal; max, min, mean
//   and sum within the report's 3-digit rounding), the `*` row of MPI Time against the sums, each
//   task's MPITime against its callsite times, and the aggregate (top-twenty) tables against the
//   statistics. Any disagreement is a warning (one per section, with the count and the first case).
// * Trial metadata: "mpiP <key>" for each header line ("MPIP " dropped from the key: "mpiP Build
//   date", "mpiP env var"), "mpiP tasks", "mpiP callsites".
// * Not read (each with a warning, never silently): concise statistics without a Rank column,
//   sections of other titles (e.g. mpiP 3.5's collective/point-to-point histograms).
//
// Errors: a missing `@ mpiP` first line, a row with the wrong number of fields or a field that is
// not a number (or not finite, or beyond 1e60 in magnitude, so that no sum overflows), a statistics row naming a call
// site not in the Callsites section, a task or (site, rank) or (site, level) listed twice, a missing MPI Time or
// Callsite Time statistics section, and a report that stops before `@--- End of Report` (a truncated file) name the
// file and the line.

#include "datasource/readers/mpipreader.h"

#include "datasource/model/names.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/gzipinput.h"
#include "datasource/readers/textnumber.h"

#include <QFileInfo>
#include <QHash>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <new>
#include <string_view>
#include <vector>

namespace parallax {

namespace {

constexpr std::size_t ChunkSize = 256 * 1024;
constexpr std::size_t MaxLineBytes = 1 << 20;
constexpr int MaxRank = 1 << 24;
constexpr int MaxLevel = 4096;
/// Values in the report have 3 significant digits (%.3g): each is within 0.5 % of the truth, so two
/// that should agree may differ by about 1 %.
constexpr double Rounding = 0.011;
constexpr double MaxMagnitude = 1e60;

using Tokens = std::vector<std::string_view>;

void split(std::string_view line, Tokens& out)
{
    out.clear();
    std::size_t i = 0;
    const std::size_t n = line.size();
    while (i < n) {
        while (i < n && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        const std::size_t start = i;
        while (i < n && line[i] != ' ' && line[i] != '\t')
            ++i;
        if (i > start)
            out.push_back(line.substr(start, i - start));
    }
}

QString text(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

/// textnumber::parseDouble; a number beyond the range of a double is refused, as before.
bool parseDouble(std::string_view s, double& v)
{
    textnumber::NumberRange range;
    const auto parsed = textnumber::parseDouble(s, &range);
    if (!parsed || range != textnumber::NumberRange::InRange)
        return false;
    v = *parsed;
    return true;
}

bool parseInt(std::string_view s, qint64& v)
{
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && end == s.data() + s.size();
}

bool agree(double a, double b) { return std::fabs(a - b) <= Rounding * std::max(std::fabs(a), std::fabs(b)) + 1e-12; }

bool isRule(std::string_view line)
{
    if (line.empty())
        return false;
    for (char c : line)
        if (c != '-' && c != ' ' && c != '\t')
            return false;
    return true;
}

bool isBlank(std::string_view line)
{
    for (char c : line)
        if (c != ' ' && c != '\t')
            return false;
    return true;
}

enum class Section {
    None,
    MpiTime,
    Callsites,
    AggregateTime,
    AggregateSent,
    AggregateIo,
    TimeStats,
    SentStats,
    IoStats,
    Skipped,
    End
};

struct Frame {
    QString where;
    qint64 line = -1;
    QString function;
};

struct Callsite {
    qint64 id = 0;
    /// By stack level (sparse: a corrupt level number must not allocate the levels below it).
    std::map<qint64, Frame> frames;
    QString call;
    qint64 lineNo = 0;
};

struct StatRow {
    qint64 site = 0;
    int rank = -1; // -1: the `*` row
    double count = 0;
    double max = 0;
    double mean = 0;
    double min = 0;
    double sum = 0; // size statistics only
    qint64 line = 0;
    QString name;
};

struct TaskTime {
    double app = 0;
    double mpi = 0;
    qint64 line = 0;
};

struct AggregateRow {
    qint64 site = 0;
    double a = 0; // time (ms) or count
    double b = 0; // total bytes
    qint64 line = 0;
};

/// The whole report, parsed; rows are kept as they come and resolved when the report is complete.
struct Report {
    std::vector<std::pair<QString, QString>> header;
    std::map<int, QString> hosts;
    std::map<int, TaskTime> tasks;
    bool hasTaskTotal = false;
    TaskTime taskTotal;
    bool hasMpiTime = false;
    bool hasTimeStats = false;
    qint64 declaredCallsites = -1;
    qint64 callsitesLine = 0;
    std::map<qint64, Callsite> callsites;
    std::vector<StatRow> rows[3]; // time, sent, io
    std::vector<StatRow> stars[3];
    std::vector<AggregateRow> aggregates[3]; // time, sent, io
    QStringList skipped;
    bool ended = false;
};

const char* const StatTitles[3]
    = { "Callsite Time statistics", "Callsite Message Sent statistics", "Callsite I/O statistics" };
const char* const AggregateTitles[3] = { "Aggregate Time", "Aggregate Sent Message Size", "Aggregate I/O Size" };

class Parser {
public:
    explicit Parser(Report& report)
        : m_report(report)
    {
    }

    void line(std::string_view raw, qint64 number)
    {
        m_line = number;
        if (!raw.empty() && raw.back() == '\r')
            raw.remove_suffix(1);
        if (!m_started) {
            if (isBlank(raw))
                return;
            if (raw.substr(0, 6) != "@ mpiP")
                fail(QStringLiteral("expected '@ mpiP', the first line of an mpiP report"));
            m_started = true;
            return;
        }
        if (m_report.ended)
            return; // mpiP ends with a rule; anything after the end is not part of the report
        if (raw.substr(0, 4) == "@---") {
            startSection(raw.substr(4));
            return;
        }
        if (raw.substr(0, 2) == "@ " || raw.substr(0, 2) == "@\t") {
            headerLine(raw.substr(2));
            return;
        }
        if (isBlank(raw) || isRule(raw))
            return;
        switch (m_section) {
        case Section::None:
            fail(QStringLiteral("expected a header line '@ key : value' or a section '@--- title ---'"));
        case Section::Skipped:
            return;
        case Section::End:
            return;
        default:
            break;
        }
        split(raw, m_tokens);
        if (!m_haveColumns) {
            columns();
            m_haveColumns = true;
            return;
        }
        switch (m_section) {
        case Section::MpiTime:
            mpiTimeRow();
            break;
        case Section::Callsites:
            callsiteRow();
            break;
        case Section::AggregateTime:
            aggregateRow(0);
            break;
        case Section::AggregateSent:
            aggregateRow(1);
            break;
        case Section::AggregateIo:
            aggregateRow(2);
            break;
        case Section::TimeStats:
            statRow(0);
            break;
        case Section::SentStats:
            statRow(1);
            break;
        case Section::IoStats:
            statRow(2);
            break;
        default:
            break;
        }
    }

    void finish(qint64 lastLine)
    {
        m_line = lastLine;
        if (!m_started)
            fail(QStringLiteral("empty file; expected '@ mpiP', the first line of an mpiP report"));
        if (!m_report.ended)
            fail(QStringLiteral("the report ends before '@--- End of Report' (the file is truncated)"));
    }

private:
    [[noreturn]] void fail(const QString& message) const { throw ParseError::atLine(m_line, message); }

    void headerLine(std::string_view rest)
    {
        const std::size_t colon = rest.find(':');
        QString key = text(colon == std::string_view::npos ? rest : rest.substr(0, colon)).trimmed();
        const QString value = colon == std::string_view::npos ? QString() : text(rest.substr(colon + 1)).trimmed();
        if (key == QLatin1String("MPI Task Assignment")) {
            const qsizetype space = value.indexOf(QLatin1Char(' '));
            bool ok = false;
            const int rank = value.left(space < 0 ? value.size() : space).toInt(&ok);
            if (!ok || rank < 0 || rank > MaxRank)
                fail(QStringLiteral("expected 'MPI Task Assignment : <rank> <host>', found '%1'").arg(value));
            m_report.hosts[rank] = space < 0 ? QString() : value.mid(space + 1).trimmed();
            return;
        }
        if (key.startsWith(QLatin1String("MPIP "), Qt::CaseInsensitive))
            key = key.mid(5);
        if (key.isEmpty())
            return;
        m_report.header.emplace_back(QStringLiteral("mpiP ") + key, value);
    }

    void startSection(std::string_view rest)
    {
        QString title = text(rest).trimmed();
        while (title.endsWith(QLatin1Char('-')))
            title.chop(1);
        title = title.trimmed();
        m_haveColumns = false;
        m_concise = false;
        m_sectionTitle = title;
        auto starts = [&](const char* prefix) { return title.startsWith(QLatin1String(prefix)); };
        if (starts("MPI Time")) {
            m_section = Section::MpiTime;
            m_report.hasMpiTime = true;
        } else if (starts("Callsites:")) {
            m_section = Section::Callsites;
            bool ok = false;
            m_report.declaredCallsites = title.mid(10).trimmed().toLongLong(&ok);
            if (!ok)
                m_report.declaredCallsites = -1;
            m_report.callsitesLine = m_line;
        } else if (starts(AggregateTitles[1])) {
            m_section = Section::AggregateSent;
        } else if (starts(AggregateTitles[2])) {
            m_section = Section::AggregateIo;
        } else if (starts("Aggregate Time")) {
            m_section = Section::AggregateTime;
        } else if (starts(StatTitles[0])) {
            m_section = Section::TimeStats;
            m_report.hasTimeStats = true;
        } else if (starts(StatTitles[1])) {
            m_section = Section::SentStats;
        } else if (starts(StatTitles[2])) {
            m_section = Section::IoStats;
        } else if (starts("End of Report")) {
            m_section = Section::End;
            m_report.ended = true;
        } else {
            m_section = Section::Skipped;
            m_report.skipped << QStringLiteral("'%1' (line %2)").arg(title).arg(m_line);
        }
    }

    bool columnsAre(std::initializer_list<const char*> expected, std::size_t required) const
    {
        std::size_t i = 0;
        for (const char* e : expected) {
            if (i >= required)
                break;
            if (i >= m_tokens.size() || m_tokens[i] != std::string_view(e))
                return false;
            ++i;
        }
        return true;
    }

    void columns()
    {
        bool ok = true;
        QString expected;
        switch (m_section) {
        case Section::MpiTime:
            ok = columnsAre({ "Task", "AppTime", "MPITime" }, 3);
            expected = QStringLiteral("Task AppTime MPITime MPI%");
            break;
        case Section::Callsites:
            ok = columnsAre({ "ID", "Lev" }, 2);
            expected = QStringLiteral("ID Lev File/Address Line Parent_Funct MPI_Call");
            break;
        case Section::AggregateTime:
            ok = columnsAre({ "Call", "Site", "Time" }, 3);
            expected = QStringLiteral("Call Site Time App% MPI%");
            break;
        case Section::AggregateSent:
        case Section::AggregateIo:
            ok = columnsAre({ "Call", "Site", "Count", "Total" }, 4);
            expected = QStringLiteral("Call Site Count Total Avrg ...");
            break;
        case Section::TimeStats:
        case Section::SentStats:
        case Section::IoStats:
            ok = columnsAre({ "Name", "Site" }, 2);
            expected = QStringLiteral("Name Site Rank Count Max Mean Min ...");
            if (ok && (m_tokens.size() < 3 || m_tokens[2] != "Rank")) {
                // A concise report: one row per site, no per-rank values.
                m_concise = true;
                m_report.skipped
                    << QStringLiteral("'%1' (line %2; concise, without per-rank rows)").arg(m_sectionTitle).arg(m_line);
            }
            break;
        default:
            break;
        }
        if (!ok)
            fail(QStringLiteral("expected the column header '%1' of the section '%2'").arg(expected, m_sectionTitle));
    }

    double number(std::size_t i, const char* what) const
    {
        double v = 0;
        if (!parseDouble(m_tokens[i], v))
            fail(QStringLiteral("expected a number for %1 (field %2), found '%3'")
                     .arg(QLatin1String(what))
                     .arg(i + 1)
                     .arg(text(m_tokens[i])));
        // Far beyond any real report, and small enough that Count x Mean^2 x 10^6 (a duration's
        // sum of squares in us) and sums over millions of rows stay finite.
        if (!std::isfinite(v) || std::fabs(v) > MaxMagnitude)
            fail(QStringLiteral("%1 (field %2) is not a finite number of magnitude at most 1e60: '%3'")
                     .arg(QLatin1String(what))
                     .arg(i + 1)
                     .arg(text(m_tokens[i])));
        return v;
    }

    qint64 integer(std::size_t i, const char* what, qint64 max) const
    {
        qint64 v = 0;
        if (!parseInt(m_tokens[i], v) || v < 0 || v > max)
            fail(QStringLiteral("expected %1 (a whole number 0..%2, field %3), found '%4'")
                     .arg(QLatin1String(what))
                     .arg(max)
                     .arg(i + 1)
                     .arg(text(m_tokens[i])));
        return v;
    }

    /// The rank column: a rank, or -1 for `*`.
    int rank(std::size_t i) const
    {
        if (m_tokens[i] == "*")
            return -1;
        return static_cast<int>(integer(i, "a rank or '*'", MaxRank));
    }

    void expectFields(std::size_t min, std::size_t max, const QString& layout) const
    {
        if (m_tokens.size() < min || m_tokens.size() > max)
            fail(QStringLiteral("expected %1 fields '%2' in the section '%3', found %4")
                     .arg(min == max ? QString::number(min) : QStringLiteral("%1 to %2").arg(min).arg(max), layout,
                         m_sectionTitle)
                     .arg(m_tokens.size()));
    }

    void mpiTimeRow()
    {
        expectFields(3, 4, QStringLiteral("Task AppTime MPITime MPI%"));
        const int task = rank(0);
        TaskTime t { number(1, "AppTime"), number(2, "MPITime"), m_line };
        if (task < 0) {
            m_report.hasTaskTotal = true;
            m_report.taskTotal = t;
            return;
        }
        const auto [it, inserted] = m_report.tasks.emplace(task, t);
        if (!inserted)
            fail(QStringLiteral("task %1 is listed twice in the MPI Time section (first on line %2)")
                     .arg(task)
                     .arg(it->second.line));
    }

    static bool isLineNumber(std::string_view s)
    {
        qint64 v = 0;
        return parseInt(s, v) && v >= 0;
    }

    void callsiteRow()
    {
        if (m_tokens.size() < 4)
            fail(QStringLiteral("expected a call-site row 'ID Lev File/Address [Line] Parent_Funct MPI_Call', found %1 "
                                "fields")
                     .arg(m_tokens.size()));
        const qint64 id = integer(0, "a call-site ID", std::numeric_limits<qint32>::max());
        const qint64 level = integer(1, "a stack level", MaxLevel);
        Callsite& site = m_report.callsites[id];
        if (site.frames.empty()) {
            site.id = id;
            site.lineNo = m_line;
        }
        Frame frame;
        frame.where = text(m_tokens[2]);
        std::size_t first = 3;
        // A line number follows the file unless the frame is an address (no source information).
        if (m_tokens.size() >= 5 && isLineNumber(m_tokens[3])) {
            qint64 v = 0;
            parseInt(m_tokens[3], v);
            frame.line = v;
            first = 4;
        }
        std::size_t last = m_tokens.size(); // one past the function name
        if (level == 0) {
            if (last - first < 2)
                fail(
                    QStringLiteral("expected 'Parent_Funct MPI_Call' after the file and line of call site %1").arg(id));
            site.call = text(m_tokens[last - 1]);
            --last;
        } else if (last - first >= 2 && !site.call.isEmpty() && text(m_tokens[last - 1]) == site.call) {
            --last;
        }
        if (last <= first)
            fail(QStringLiteral("expected the function name of call site %1, level %2").arg(id).arg(level));
        const char* begin = m_tokens[first].data();
        const char* end = m_tokens[last - 1].data() + m_tokens[last - 1].size();
        frame.function = QString::fromUtf8(begin, static_cast<qsizetype>(end - begin));
        if (!site.frames.emplace(level, std::move(frame)).second)
            fail(QStringLiteral("call site %1 has level %2 twice").arg(id).arg(level));
    }

    void aggregateRow(int kind)
    {
        if (kind == 0)
            expectFields(3, 6, QStringLiteral("Call Site Time App% MPI% COV"));
        else
            expectFields(4, 6, QStringLiteral("Call Site Count Total Avrg %"));
        AggregateRow row;
        row.site = integer(1, "a call-site ID", std::numeric_limits<qint32>::max());
        row.a = number(2, kind == 0 ? "Time" : "Count");
        if (kind != 0)
            row.b = number(3, "Total");
        row.line = m_line;
        m_report.aggregates[kind].push_back(row);
    }

    void statRow(int kind)
    {
        if (m_concise)
            return;
        if (kind == 0)
            expectFields(9, 9, QStringLiteral("Name Site Rank Count Max Mean Min App% MPI%"));
        else
            expectFields(8, 8, QStringLiteral("Name Site Rank Count Max Mean Min Sum"));
        StatRow row;
        row.name = text(m_tokens[0]);
        row.site = integer(1, "a call-site ID", std::numeric_limits<qint32>::max());
        row.rank = rank(2);
        row.count = number(3, "Count");
        row.max = number(4, "Max");
        row.mean = number(5, "Mean");
        row.min = number(6, "Min");
        if (kind != 0)
            row.sum = number(7, "Sum");
        if (row.count < 0)
            fail(QStringLiteral("Count is negative"));
        row.line = m_line;
        (row.rank < 0 ? m_report.stars[kind] : m_report.rows[kind]).push_back(std::move(row));
    }

    Report& m_report;
    Tokens m_tokens;
    qint64 m_line = 0;
    bool m_started = false;
    bool m_haveColumns = false;
    bool m_concise = false;
    Section m_section = Section::None;
    QString m_sectionTitle;
};

/// Collects disagreements of one kind: a count and the first case.
struct Mismatch {
    explicit Mismatch(QString description)
        : what(std::move(description))
    {
    }
    QString what;
    qint64 count = 0;
    QString first;
    void add(const QString& c)
    {
        if (count++ == 0)
            first = c;
    }
    void report(QStringList& warnings) const
    {
        if (count > 0)
            warnings << QStringLiteral("%1: %2 disagreement(s); first: %3").arg(what).arg(count).arg(first);
    }
};

QString component(const Frame& f, int& arrows)
{
    QString function = f.function;
    QString where = f.where;
    if (function.contains(QLatin1String("=>")) || where.contains(QLatin1String("=>"))) {
        ++arrows;
        function.replace(QLatin1String("=>"), QLatin1String("= >"));
        where.replace(QLatin1String("=>"), QLatin1String("= >"));
    }
    if (f.line < 0)
        return QStringLiteral("%1 [{%2}]").arg(function, where);
    return QStringLiteral("%1 [{%2} {%3}]").arg(function, where).arg(f.line);
}

QString mpiName(QString call)
{
    call.replace(QLatin1String("=>"), QLatin1String("= >"));
    if (call.startsWith(QLatin1String("MPI_")) || call.startsWith(QLatin1String("PMPI_")))
        return call;
    return QStringLiteral("MPI_") + call;
}

class Assembler {
public:
    Assembler(Report& report, TrialBuilder& builder, QStringList& warnings, Progress& progress)
        : m_report(report)
        , m_builder(builder)
        , m_warnings(warnings)
        , m_progress(progress)
    {
    }

    void run()
    {
        if (!m_report.hasMpiTime)
            throw ParseError::atLine(0, QStringLiteral("no '@--- MPI Time (seconds) ---' section"));
        if (!m_report.hasTimeStats)
            throw ParseError::atLine(0, QStringLiteral("no '@--- Callsite Time statistics ---' section"));
        m_builder.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
        nameCallsites();
        addThreads();
        checkRowsKnown();
        if (m_progress.isCancelled())
            throw Cancelled {};
        addIntervals();
        addAtomics(1, QStringLiteral("Message size sent : "));
        addAtomics(2, QStringLiteral("I/O size : "));
        checkStars();
        checkAggregates();
        addMetadata();
        if (!m_report.skipped.isEmpty())
            m_warnings << QStringLiteral("sections not read: %1").arg(m_report.skipped.join(QStringLiteral(", ")));
        if (m_arrows > 0)
            m_warnings << QStringLiteral("%1 names contain '=>'; it is written '= >' so that they are not taken for "
                                         "call paths")
                              .arg(m_arrows);
    }

private:
    void nameCallsites()
    {
        QHash<QString, qint64> byPath;
        QStringList merged;
        qint64 gaps = 0;
        for (auto& [id, site] : m_report.callsites) {
            QStringList parts;
            if (!site.frames.empty())
                gaps += site.frames.rbegin()->first + 1 - static_cast<qint64>(site.frames.size());
            for (auto it = site.frames.rbegin(); it != site.frames.rend(); ++it)
                parts << component(it->second, m_arrows);
            if (site.call.isEmpty())
                throw ParseError::atLine(
                    site.lineNo, QStringLiteral("call site %1 has no level 0 row (the MPI call)").arg(id));
            const QString flat = mpiName(site.call);
            parts << flat;
            const QString path = parts.join(QStringLiteral(" => "));
            const auto known = byPath.constFind(path);
            if (known != byPath.cend())
                merged << QStringLiteral("%1 and %2").arg(known.value()).arg(id);
            else
                byPath.insert(path, id);
            m_pathEvent[id] = m_builder.addEvent(path, { QStringLiteral("MPI"), QStringLiteral("TAU_CALLPATH") });
            m_flatEvent[id] = m_builder.addEvent(flat, { QStringLiteral("MPI") });
            m_paths[id] = QString::fromStdString(names::canonical(path.toStdString()));
        }
        if (m_report.declaredCallsites >= 0
            && m_report.declaredCallsites != static_cast<qint64>(m_report.callsites.size()))
            m_warnings << QStringLiteral("the Callsites section (line %1) announces %2 call sites but lists %3")
                              .arg(m_report.callsitesLine)
                              .arg(m_report.declaredCallsites)
                              .arg(m_report.callsites.size());
        if (gaps > 0)
            m_warnings << QStringLiteral("%1 stack levels are missing from call sites (the paths skip them)").arg(gaps);
        if (!merged.isEmpty())
            m_warnings << QStringLiteral("call sites with identical call paths are summed into one event: %1")
                              .arg(merged.mid(0, 10).join(QStringLiteral(", ")));
    }

    void addThreads()
    {
        std::map<int, qint64> extra; // rank -> first line
        for (const auto& rows : m_report.rows)
            for (const StatRow& r : rows)
                if (!m_report.tasks.count(r.rank) && !extra.count(r.rank))
                    extra.emplace(r.rank, r.line);
        std::vector<int> ranks;
        for (const auto& [rank, t] : m_report.tasks)
            ranks.push_back(rank);
        for (const auto& [rank, line] : extra)
            ranks.push_back(rank);
        std::sort(ranks.begin(), ranks.end());
        if (ranks.empty())
            throw ParseError::atLine(0, QStringLiteral("the report has no MPI task (no row in the MPI Time section)"));
        for (int r : ranks)
            m_thread[r] = m_builder.addThread({ r, 0, 0 });
        if (!extra.empty())
            m_warnings << QStringLiteral("%1 ranks have statistics but no MPI Time row (first: rank %2, line %3); they "
                                         "have no .MpiP.Application value")
                              .arg(extra.size())
                              .arg(extra.begin()->first)
                              .arg(extra.begin()->second);
        for (const auto& [rank, host] : m_report.hosts) {
            const auto it = m_thread.find(rank);
            if (it != m_thread.end())
                m_builder.addThreadMetadata(it->second, QStringLiteral("Hostname"), host);
        }
    }

    void checkRowsKnown()
    {
        Mismatch names { QStringLiteral("statistics rows whose Name differs from the call site's MPI_Call") };
        for (int kind = 0; kind < 3; ++kind) {
            std::map<std::pair<qint64, int>, qint64> seen;
            for (const auto* rows : { &m_report.rows[kind], &m_report.stars[kind] }) {
                for (const StatRow& r : *rows) {
                    const auto site = m_report.callsites.find(r.site);
                    if (site == m_report.callsites.end())
                        throw ParseError::atLine(
                            r.line, QStringLiteral("call site %1 is not in the Callsites section").arg(r.site));
                    if (site->second.call != r.name && mpiName(site->second.call) != mpiName(r.name))
                        names.add(QStringLiteral("line %1: '%2' for site %3 ('%4')")
                                      .arg(r.line)
                                      .arg(r.name)
                                      .arg(r.site)
                                      .arg(site->second.call));
                    const auto [it, inserted] = seen.emplace(std::make_pair(r.site, r.rank), r.line);
                    if (!inserted)
                        throw ParseError::atLine(r.line,
                            QStringLiteral("site %1, rank %2 is listed twice in '%3' (first on line %4)")
                                .arg(r.site)
                                .arg(r.rank < 0 ? QStringLiteral("*") : QString::number(r.rank))
                                .arg(QLatin1String(StatTitles[kind]))
                                .arg(it->second));
                }
            }
        }
        names.report(m_warnings);
    }

    struct Cell {
        EventId event;
        double calls;
        double time;
    };

    void addIntervals()
    {
        const EventId app = m_builder.addEvent(QStringLiteral(".MpiP.Application"), { QStringLiteral("TAU_DEFAULT") });
        // Cells per rank: call sites and their flat MPI events (summed below).
        std::map<int, std::vector<Cell>> cells;
        std::map<int, std::pair<double, double>> perRank; // rank -> (calls, time us)
        for (const StatRow& r : m_report.rows[0]) {
            const double time = r.count * r.mean * 1e3;
            auto& list = cells[r.rank];
            list.push_back({ m_pathEvent[r.site], r.count, time });
            list.push_back({ m_flatEvent[r.site], r.count, time });
            auto& total = perRank[r.rank];
            total.first += r.count;
            total.second += time;
        }
        Mismatch mpiTime { QStringLiteral("MPITime of a task against the sum of its call-site times") };
        qint64 negative = 0;
        QString firstNegative;
        for (const auto& [rank, thread] : m_thread) {
            const auto task = m_report.tasks.find(rank);
            const auto total = perRank.count(rank) ? perRank[rank] : std::pair<double, double> { 0, 0 };
            if (task != m_report.tasks.end()) {
                const double incl = task->second.app * 1e6;
                const double excl = incl - total.second;
                if (excl < 0 && negative++ == 0)
                    firstNegative = QStringLiteral("rank %1: %2 us").arg(rank).arg(excl);
                m_builder.addInterval(
                    thread, app, 1, total.first, std::span<const double>(&excl, 1), std::span<const double>(&incl, 1));
                if (!agree(task->second.mpi * 1e6, total.second))
                    mpiTime.add(QStringLiteral("rank %1 (line %2): MPITime %3 s, call sites %4 s")
                                    .arg(rank)
                                    .arg(task->second.line)
                                    .arg(task->second.mpi)
                                    .arg(total.second / 1e6));
            }
            auto it = cells.find(rank);
            if (it == cells.end())
                continue;
            auto& list = it->second;
            std::sort(list.begin(), list.end(), [](const Cell& a, const Cell& b) { return a.event < b.event; });
            for (std::size_t i = 0; i < list.size();) {
                Cell sum = list[i];
                std::size_t j = i + 1;
                for (; j < list.size() && list[j].event == sum.event; ++j) {
                    sum.calls += list[j].calls;
                    sum.time += list[j].time;
                }
                m_builder.addInterval(thread, sum.event, sum.calls, 0, std::span<const double>(&sum.time, 1),
                    std::span<const double>(&sum.time, 1));
                i = j;
            }
        }
        mpiTime.report(m_warnings);
        if (negative > 0)
            m_warnings << QStringLiteral(
                "%1 tasks have call-site times above their AppTime, so .MpiP.Application has a "
                "negative exclusive time (kept; rounding of the report); first: %2")
                              .arg(negative)
                              .arg(firstNegative);
        // Time per call.
        addAtomics(0, QStringLiteral("Call duration (us) : "));
    }

    void addAtomics(int kind, const QString& prefix)
    {
        const double scale = kind == 0 ? 1e3 : 1.0;
        QHash<qint64, AtomicEventId> events;
        Mismatch sums { QStringLiteral("Sum against Count x Mean in '%1'").arg(QLatin1String(StatTitles[kind])) };
        for (const StatRow& r : m_report.rows[kind]) {
            auto it = events.find(r.site);
            if (it == events.end())
                it = events.insert(r.site, m_builder.addAtomicEvent(prefix + m_paths[r.site]));
            const double mean = r.mean * scale;
            m_builder.addAtomic(
                m_thread[r.rank], it.value(), r.count, r.max * scale, r.min * scale, mean, r.count * mean * mean);
            if (kind != 0 && !agree(r.sum, r.count * r.mean))
                sums.add(
                    QStringLiteral("line %1: Sum %2, Count x Mean %3").arg(r.line).arg(r.sum).arg(r.count * r.mean));
        }
        sums.report(m_warnings);
    }

    void checkStars()
    {
        for (int kind = 0; kind < 3; ++kind) {
            struct Acc {
                double count = 0, max = -INFINITY, min = INFINITY, total = 0, sum = 0;
            };
            std::map<qint64, Acc> bySite;
            for (const StatRow& r : m_report.rows[kind]) {
                Acc& a = bySite[r.site];
                a.count += r.count;
                a.max = std::max(a.max, r.max);
                a.min = std::min(a.min, r.min);
                a.total += r.count * r.mean;
                a.sum += r.sum;
            }
            Mismatch m {
                QStringLiteral("'*' rows of '%1' against their rank rows").arg(QLatin1String(StatTitles[kind]))
            };
            for (const StatRow& s : m_report.stars[kind]) {
                const auto it = bySite.find(s.site);
                if (it == bySite.end()) {
                    if (s.count != 0)
                        m.add(QStringLiteral("line %1: site %2 has no rank rows").arg(s.line).arg(s.site));
                    continue;
                }
                const Acc& a = it->second;
                QStringList bad;
                if (s.count != a.count)
                    bad << QStringLiteral("Count %1 vs %2").arg(s.count).arg(a.count);
                if (!agree(s.max, a.max))
                    bad << QStringLiteral("Max %1 vs %2").arg(s.max).arg(a.max);
                if (!agree(s.min, a.min))
                    bad << QStringLiteral("Min %1 vs %2").arg(s.min).arg(a.min);
                if (a.count > 0 && !agree(s.mean, a.total / a.count))
                    bad << QStringLiteral("Mean %1 vs %2").arg(s.mean).arg(a.total / a.count);
                if (kind != 0 && !agree(s.sum, a.sum))
                    bad << QStringLiteral("Sum %1 vs %2").arg(s.sum).arg(a.sum);
                if (!bad.isEmpty())
                    m.add(QStringLiteral("line %1 (site %2): %3")
                              .arg(s.line)
                              .arg(s.site)
                              .arg(bad.join(QStringLiteral(", "))));
            }
            m.report(m_warnings);
        }
        if (m_report.hasTaskTotal) {
            double app = 0;
            double mpi = 0;
            for (const auto& [rank, t] : m_report.tasks) {
                app += t.app;
                mpi += t.mpi;
            }
            Mismatch m { QStringLiteral("'*' row of MPI Time against the tasks") };
            if (!agree(app, m_report.taskTotal.app) || !agree(mpi, m_report.taskTotal.mpi))
                m.add(QStringLiteral("line %1: AppTime %2 vs %3, MPITime %4 vs %5")
                          .arg(m_report.taskTotal.line)
                          .arg(m_report.taskTotal.app)
                          .arg(app)
                          .arg(m_report.taskTotal.mpi)
                          .arg(mpi));
            m.report(m_warnings);
        }
    }

    void checkAggregates()
    {
        for (int kind = 0; kind < 3; ++kind) {
            if (m_report.aggregates[kind].empty())
                continue;
            // Time: the site's total ms over ranks; sizes: the site's count and bytes.
            const int source = kind; // aggregate time <- time stats, sent <- sent stats, I/O <- I/O stats
            std::map<qint64, std::pair<double, double>> bySite;
            for (const StatRow& r : m_report.rows[source]) {
                auto& v = bySite[r.site];
                if (kind == 0) {
                    v.first += r.count * r.mean;
                } else {
                    v.first += r.count;
                    v.second += r.count * r.mean;
                }
            }
            Mismatch m {
                QStringLiteral("'%1' against the call-site statistics").arg(QLatin1String(AggregateTitles[kind]))
            };
            for (const AggregateRow& a : m_report.aggregates[kind]) {
                if (!m_report.callsites.count(a.site)) {
                    m.add(QStringLiteral("line %1: site %2 is not in the Callsites section").arg(a.line).arg(a.site));
                    continue;
                }
                const auto v = bySite.count(a.site) ? bySite[a.site] : std::pair<double, double> { 0, 0 };
                if (!agree(a.a, v.first) || (kind != 0 && !agree(a.b, v.second)))
                    m.add(kind == 0 ? QStringLiteral("line %1 (site %2): Time %3 ms vs %4 ms")
                                          .arg(a.line)
                                          .arg(a.site)
                                          .arg(a.a)
                                          .arg(v.first)
                                    : QStringLiteral("line %1 (site %2): Count %3 vs %4, Total %5 vs %6")
                                          .arg(a.line)
                                          .arg(a.site)
                                          .arg(a.a)
                                          .arg(v.first)
                                          .arg(a.b)
                                          .arg(v.second));
            }
            m.report(m_warnings);
        }
    }

    void addMetadata()
    {
        for (const auto& [key, value] : m_report.header)
            m_builder.addMetadata(key, value);
        m_builder.addMetadata(QStringLiteral("mpiP tasks"), QString::number(m_report.tasks.size()));
        m_builder.addMetadata(QStringLiteral("mpiP callsites"), QString::number(m_report.callsites.size()));
    }

    Report& m_report;
    TrialBuilder& m_builder;
    QStringList& m_warnings;
    Progress& m_progress;
    std::map<int, ThreadIndex> m_thread;
    std::map<qint64, EventId> m_pathEvent;
    std::map<qint64, EventId> m_flatEvent;
    std::map<qint64, QString> m_paths;
    int m_arrows = 0;
};

/// Feeds the lines of a (possibly gzipped) file to `onLine`; returns the number of the last line.
template <typename OnLine> qint64 forEachLine(GzipInput& input, const QString& path, Progress& progress, OnLine onLine)
{
    (void)path;
    std::vector<char> buffer(ChunkSize);
    std::string pending;
    qint64 lineNo = 0;
    while (true) {
        if (progress.isCancelled())
            throw Cancelled {};
        const qint64 n = input.read(buffer.data(), buffer.size());
        if (n < 0)
            throw ParseError::atLine(lineNo + 1, input.error(), input.errorOffset());
        if (n == 0)
            break;
        std::string_view chunk(buffer.data(), static_cast<std::size_t>(n));
        while (!chunk.empty()) {
            const std::size_t nl = chunk.find('\n');
            if (nl == std::string_view::npos) {
                pending.append(chunk);
                if (pending.size() > MaxLineBytes)
                    throw ParseError::atLine(
                        lineNo + 1, QStringLiteral("a line longer than %1 bytes").arg(MaxLineBytes));
                break;
            }
            ++lineNo;
            if (pending.empty()) {
                onLine(chunk.substr(0, nl), lineNo);
            } else {
                pending.append(chunk.substr(0, nl));
                if (pending.size() > MaxLineBytes)
                    throw ParseError::atLine(lineNo, QStringLiteral("a line longer than %1 bytes").arg(MaxLineBytes));
                onLine(std::string_view(pending), lineNo);
                pending.clear();
            }
            chunk.remove_prefix(nl + 1);
        }
    }
    if (!pending.empty())
        onLine(std::string_view(pending), ++lineNo);
    return lineNo;
}

} // namespace

int MpipReader::sniff(const QString& path) const
{
    const QFileInfo info(path);
    if (!info.isFile())
        return 0;
    const QString lower = info.fileName().toLower();
    const bool named = lower.endsWith(QLatin1String(".mpip")) || lower.endsWith(QLatin1String(".mpip.gz"));
    Progress progress;
    GzipInput input(progress, 4096);
    if (!input.open(path).isEmpty())
        return 0;
    char head[4096];
    const qint64 n = input.read(head, sizeof head);
    if (n > 0) {
        std::string_view text(head, static_cast<std::size_t>(n));
        std::size_t i = 0;
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
            ++i;
        if (text.substr(i, 6) == "@ mpiP")
            return 100;
    }
    return named ? 40 : 0; // so that read() explains what is wrong with it
}

TrialResult MpipReader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    (void)options;
    const QFileInfo info(path);
    if (!info.isFile())
        return ReadError { path, 0, -1, QStringLiteral("not a file; an mpiP report is one text file") };
    TrialBuilder builder(info.fileName());
    QStringList warnings;
    const ReadJob job { path, {}, QStringLiteral("out of memory (the report is too large, or corrupt)"), {}, {} };
    return guardedRead(*this, job, builder, warnings, [&]() -> std::optional<ReadError> {
        progress.setStage(QStringLiteral("Reading mpiP report"), info.size());
        GzipInput input(progress, ChunkSize);
        const QString openError = input.open(path);
        if (!openError.isEmpty())
            return ReadError { path, 0, -1, openError };
        Report report;
        Parser parser(report);
        const qint64 last = forEachLine(
            input, path, progress, [&](std::string_view line, qint64 number) { parser.line(line, number); });
        if (input.cutShort())
            warnings << QStringLiteral("the gzip data ends early (truncated file)");
        parser.finish(last);
        progress.setStage(QStringLiteral("Building the trial"), 0);
        Assembler(report, builder, warnings, progress).run();
        return std::nullopt;
    });
}

} // namespace parallax
