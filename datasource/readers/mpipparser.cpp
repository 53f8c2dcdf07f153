// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// mpiP report parser (docs/FORMATS.md 6.2; mpiP 3.x text reports): the lines of a report into an
// mpip::Report. The trial is built by mpipassembler.cpp.
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
//
// Errors: a missing `@ mpiP` first line, a row with the wrong number of fields or a field that is
// not a number (or not finite, or beyond 1e60 in magnitude, so that no sum overflows), a statistics row naming a call
// site not in the Callsites section, a task or (site, rank) or (site, level) listed twice, a missing MPI Time or
// Callsite Time statistics section, and a report that stops before `@--- End of Report` (a truncated file) name the
// file and the line.
#include "datasource/readers/gzipinput.h"
#include "datasource/readers/mpipreport.h"
#include "datasource/readers/reader.h"
#include "datasource/readers/textnumber.h"

#include <cmath>
#include <limits>
#include <optional>
#include <string_view>

namespace parallax::mpip {

namespace {

constexpr std::size_t ChunkSize = std::size_t { 256 } * 1024;
constexpr std::size_t MaxLineBytes = 1 << 20;
constexpr int MaxRank = 1 << 24;
constexpr int MaxLevel = 4096;
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
        const std::optional<double> parsed = textnumber::parseDoubleInRange(m_tokens[i]);
        if (!parsed)
            fail(QStringLiteral("expected a number for %1 (field %2), found '%3'")
                     .arg(QLatin1String(what))
                     .arg(i + 1)
                     .arg(text(m_tokens[i])));
        const double v = *parsed;
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
        const std::optional<qint64> v = textnumber::parseIntStrict<qint64>(m_tokens[i]);
        if (!v || *v < 0 || *v > max)
            fail(QStringLiteral("expected %1 (a whole number 0..%2, field %3), found '%4'")
                     .arg(QLatin1String(what))
                     .arg(max)
                     .arg(i + 1)
                     .arg(text(m_tokens[i])));
        return *v;
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
        const std::optional<qint64> v = textnumber::parseIntStrict<qint64>(s);
        return v && *v >= 0;
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
            frame.line = *textnumber::parseIntStrict<qint64>(m_tokens[3]);
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

} // namespace

void parseReport(GzipInput& input, Progress& progress, Report& report, QStringList& warnings)
{
    Parser parser(report);
    const LineEnd end = forEachLine(input, progress, ChunkSize, MaxLineBytes,
        [&](std::string_view line, qint64 number) { parser.line(line, number); });
    qint64 last = end.lines;
    if (!end.tail.empty())
        parser.line(std::string_view(end.tail), ++last);
    if (input.cutShort())
        warnings << QStringLiteral("the gzip data ends early (truncated file)");
    parser.finish(last);
}

} // namespace parallax::mpip
