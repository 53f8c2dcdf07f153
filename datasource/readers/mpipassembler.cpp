// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// mpiP trial assembly (docs/FORMATS.md 6.2): an mpip::Report (mpipparser.cpp) into a trial.
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
#include "datasource/model/names.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/mpipreport.h"
#include "datasource/readers/reader.h"

#include <QHash>
#include <algorithm>
#include <cmath>
#include <map>

namespace parallax::mpip {

namespace {

/// Values in the report have 3 significant digits (%.3g): each is within 0.5 % of the truth, so two
/// that should agree may differ by about 1 %.
constexpr double Rounding = 0.011;

bool agree(double a, double b) { return std::fabs(a - b) <= Rounding * std::max(std::fabs(a), std::fabs(b)) + 1e-12; }

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

} // namespace

void assembleTrial(Report& report, TrialBuilder& builder, QStringList& warnings, Progress& progress)
{
    Assembler(report, builder, warnings, progress).run();
}

} // namespace parallax::mpip
