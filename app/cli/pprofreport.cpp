// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/pprofreport.h"

#include "datasource/model/names.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>

namespace parallax {

namespace {

/// One row of a pprof function table (pprof's p_prof_elem).
struct Row {
    std::uint32_t func = 0; // index into the byte-ordered name list
    double numcalls = 0;
    double numsubrs = 0;
    double usec = 0;
    double cumusec = 0;
    double stddeviation = 0;
};

using Compare = int (*)(const Row&, const Row&, int sign);

int cmpValue(double l, double r, int sign)
{
    if (l < r)
        return sign;
    if (l > r)
        return -sign;
    return 0;
}

int msecCmp(const Row& a, const Row& b, int sign) { return cmpValue(a.usec, b.usec, sign); }
int cumMsecCmp(const Row& a, const Row& b, int sign) { return cmpValue(a.cumusec, b.cumusec, sign); }
int callCmp(const Row& a, const Row& b, int sign) { return cmpValue(a.numcalls, b.numcalls, sign); }
int subrCmp(const Row& a, const Row& b, int sign) { return cmpValue(a.numsubrs, b.numsubrs, sign); }
int stdDevCmp(const Row& a, const Row& b, int sign) { return cmpValue(a.stddeviation, b.stddeviation, sign); }
int msecPerCallCmp(const Row& a, const Row& b, int sign)
{
    if (a.numcalls == 0)
        return sign;
    if (b.numcalls == 0)
        return -sign;
    return cmpValue(a.usec / a.numcalls, b.usec / b.numcalls, sign);
}
int cumMsecPerCallCmp(const Row& a, const Row& b, int sign)
{
    if (a.numcalls == 0)
        return sign;
    if (b.numcalls == 0)
        return -sign;
    return cmpValue(a.cumusec / a.numcalls, b.cumusec / b.numcalls, sign);
}

/// The merge sort of glibc's qsort() (msort_with_tmp), reproduced so that ties and pprof's
/// inconsistent per-call comparators order rows exactly as pprof does on Linux.
void glibcMergeSort(Row* b, std::size_t n, Row* tmp, Compare cmp, int sign)
{
    if (n <= 1)
        return;
    std::size_t n1 = n / 2;
    std::size_t n2 = n - n1;
    Row* b1 = b;
    Row* b2 = b + n1;
    glibcMergeSort(b1, n1, tmp, cmp, sign);
    glibcMergeSort(b2, n2, tmp, cmp, sign);
    Row* t = tmp;
    while (n1 > 0 && n2 > 0) {
        if (cmp(*b1, *b2, sign) <= 0) {
            *t++ = *b1++;
            --n1;
        } else {
            *t++ = *b2++;
            --n2;
        }
    }
    if (n1 > 0)
        std::copy(b1, b1 + n1, t);
    std::copy(tmp, tmp + (n - n2), b);
}

void sortRows(std::vector<Row>& rows, Compare cmp, int sign)
{
    std::vector<Row> tmp(rows.size());
    glibcMergeSort(rows.data(), rows.size(), tmp.data(), cmp, sign);
}

template <typename... Args> void appendf(std::string& out, const char* format, Args... args)
{
    char buf[512];
    const int n = std::snprintf(buf, sizeof buf, format, args...);
    if (n < 0)
        return;
    if (static_cast<std::size_t>(n) < sizeof buf) {
        out.append(buf, static_cast<std::size_t>(n));
        return;
    }
    std::string big(static_cast<std::size_t>(n) + 1, '\0');
    std::snprintf(big.data(), big.size(), format, args...);
    out.append(big.data(), static_cast<std::size_t>(n));
}

const char* const Dashes = "---------------------------------------------------------------------------------------\n";

struct UserEventTotals {
    double numevents = 0;
    double maxvalue = 0;
    double minvalue = 0;
    double meanvalue = 0;
    double sumsqr = 0;
};

class Report {
public:
    Report(const Trial& trial, const PprofOptions& options)
        : m_trial(trial)
        , m_opt(options)
        , m_metric(
              options.metric.isValid() && options.metric.index() < trial.metricCount() ? options.metric.index() : 0)
    {
        m_time = trial.metricCount() > 0 && pprofUsesTimeFormat(trial.metric(MetricId(m_metric)));
        switch (options.sort) {
        case PprofOptions::Sort::Inclusive:
            m_cmp = cumMsecCmp;
            break;
        case PprofOptions::Sort::Exclusive:
            m_cmp = msecCmp;
            break;
        case PprofOptions::Sort::Calls:
            m_cmp = callCmp;
            break;
        case PprofOptions::Sort::Subroutines:
            m_cmp = subrCmp;
            break;
        case PprofOptions::Sort::ExclusivePerCall:
            m_cmp = msecPerCallCmp;
            break;
        case PprofOptions::Sort::InclusivePerCall:
            m_cmp = cumMsecPerCallCmp;
            break;
        case PprofOptions::Sort::StdDev:
            m_cmp = stdDevCmp;
            break;
        }
        m_sign = options.reverse ? -1 : 1;
    }

    std::string run(QString* error)
    {
        std::string out;
        appendf(out, "Reading Profile files in %s.*\n", m_opt.prefix.c_str());
        if (!m_opt.nodes.empty() && !hasThread(ThreadKey { m_opt.nodes.front(), 0, 0 })) {
            // pprof opens profile.N.0.0 of the first node number to learn the format, and
            // without it takes the directory for an old static profile and fails.
            if (error)
                *error = QStringLiteral(
                    "pprof: no thread %1.0.0 (no file %2.%1.0.0): pprof needs the first node number given to exist")
                             .arg(m_opt.nodes.front())
                             .arg(QString::fromStdString(m_opt.prefix));
            return out;
        }
        selectThreads();
        buildNames();
        if (m_opt.list) {
            for (const auto& n : m_funcNames) {
                out += n;
                out += '\n';
            }
            return out;
        }
        out.reserve(m_opt.summaryOnly ? 4096 : m_threads.size() * (m_funcNames.size() * 100 + 512));
        std::vector<Row> rows(m_funcNames.size());
        for (std::size_t k = 0; k < m_threads.size(); ++k)
            processThread(k, rows, out);
        if (m_filesProcessed > 0)
            printSummary(out);
        return out;
    }

private:
    bool hasThread(const ThreadKey& key) const
    {
        for (std::size_t t = 0; t < m_trial.threadCount(); ++t)
            if (m_trial.threadKey(ThreadIndex(t)) == key)
                return true;
        return false;
    }

    void selectThreads()
    {
        if (m_opt.nodes.empty()) {
            for (std::size_t t = 0; t < m_trial.threadCount(); ++t)
                m_threads.push_back(ThreadIndex(t));
            return;
        }
        for (int node : m_opt.nodes)
            for (std::size_t t = 0; t < m_trial.threadCount(); ++t)
                if (m_trial.threadKey(ThreadIndex(t)).node == node)
                    m_threads.push_back(ThreadIndex(t));
    }

    void buildNames()
    {
        // pprof's function set: the union of its normalised names over the threads it reads,
        // in strcmp order; events sharing a normalised name are summed, as pprof does.
        std::vector<char> used(m_trial.eventCount(), 0);
        std::vector<char> usedAtomic(m_trial.atomicEventCount(), 0);
        for (ThreadIndex t : m_threads) {
            for (EventId e : m_trial.row(t).events)
                used[e.index()] = 1;
            for (AtomicEventId u : m_trial.atomicRow(t).events)
                usedAtomic[u.index()] = 1;
        }
        std::map<std::string, std::uint32_t> index;
        std::vector<std::string> perEvent(m_trial.eventCount());
        for (std::size_t e = 0; e < m_trial.eventCount(); ++e) {
            if (!used[e])
                continue;
            const IntervalEvent& ev = m_trial.event(EventId(e));
            perEvent[e]
                = names::pprofName((ev.rawName.isEmpty() ? ev.name : ev.rawName).toStdString(), m_opt.showLocations);
            index.emplace(perEvent[e], 0);
        }
        std::uint32_t i = 0;
        for (auto& [name, id] : index) {
            id = i++;
            m_funcNames.push_back(name);
        }
        m_funcOf.assign(m_trial.eventCount(), 0);
        for (std::size_t e = 0; e < m_trial.eventCount(); ++e)
            if (used[e])
                m_funcOf[e] = index[perEvent[e]];

        std::map<std::string, std::uint32_t> uindex;
        std::vector<std::string> perAtomic(m_trial.atomicEventCount());
        for (std::size_t u = 0; u < m_trial.atomicEventCount(); ++u) {
            if (!usedAtomic[u])
                continue;
            const AtomicEvent& ev = m_trial.atomicEvent(AtomicEventId(u));
            perAtomic[u]
                = names::pprofName((ev.rawName.isEmpty() ? ev.name : ev.rawName).toStdString(), m_opt.showLocations);
            uindex.emplace(perAtomic[u], 0);
        }
        i = 0;
        for (auto& [name, id] : uindex) {
            id = i++;
            m_userNames.push_back(name);
        }
        m_userOf.assign(m_trial.atomicEventCount(), 0);
        for (std::size_t u = 0; u < m_trial.atomicEventCount(); ++u)
            if (usedAtomic[u])
                m_userOf[u] = uindex[perAtomic[u]];

        for (std::size_t t = 0; t < m_trial.threadCount(); ++t)
            if (!m_trial.row(ThreadIndex(t)).exclSqr.empty())
                m_profileStats = true;
    }

    void processThread(std::size_t k, std::vector<Row>& rows, std::string& out)
    {
        const ThreadIndex t = m_threads[k];
        const RowView src = m_trial.row(t);
        const std::size_t numf = m_funcNames.size();
        for (std::size_t f = 0; f < numf; ++f)
            rows[f] = Row { static_cast<std::uint32_t>(f), 0, 0, 0, 0, 0 };
        const std::size_t n = src.size();
        const bool sqr = !src.exclSqr.empty();
        for (std::size_t i = 0; i < n; ++i) {
            Row& r = rows[m_funcOf[src.events[i].index()]];
            const double calls = src.calls[i];
            const double excl = src.excl[m_metric * n + i];
            r.numcalls += calls;
            r.numsubrs += src.subrs[i];
            r.usec += excl;
            r.cumusec += src.incl[m_metric * n + i];
            if (sqr) {
                const double s = src.exclSqr[m_metric * n + i];
                r.stddeviation += std::sqrt(std::fabs((s / calls) - ((excl / calls) * (excl / calls))));
            }
        }
        // The thread's top-level function: the largest inclusive value (pprof starts from 0).
        double maxCum = 0.0;
        std::size_t top = m_topLevel;
        for (std::size_t f = 0; f < numf; ++f) {
            if (rows[f].cumusec > maxCum) {
                top = f;
                maxCum = rows[f].cumusec;
            }
        }
        m_topLevel = top;
        if (m_filesProcessed == 0) {
            m_total.assign(numf, Row {});
            m_min = rows;
            m_max = rows;
            for (std::size_t f = 0; f < numf; ++f)
                m_total[f].func = static_cast<std::uint32_t>(f);
            m_totalTotal = 0.0;
            m_maxTotal = m_minTotal = numf > 0 ? rows[top].cumusec : 0.0;
        }
        for (std::size_t f = 0; f < numf; ++f) {
            const Row& r = rows[f];
            Row& tot = m_total[f];
            tot.usec += r.usec;
            tot.cumusec += r.cumusec;
            tot.numcalls += r.numcalls;
            tot.numsubrs += r.numsubrs;
            tot.stddeviation += r.stddeviation;
            Row& mn = m_min[f];
            Row& mx = m_max[f];
            if (mn.usec > r.usec)
                mn.usec = r.usec;
            if (mn.cumusec > r.cumusec)
                mn.cumusec = r.cumusec;
            if (mn.numcalls > r.numcalls)
                mn.numcalls = r.numcalls;
            if (mn.numsubrs > r.numsubrs)
                mn.numsubrs = r.numsubrs;
            if (mn.stddeviation > r.stddeviation)
                mn.stddeviation = r.stddeviation;
            if (mx.usec < r.usec)
                mx.usec = r.usec;
            if (mx.cumusec < r.cumusec)
                mx.cumusec = r.cumusec;
            if (mx.numcalls < r.numcalls)
                mx.numcalls = r.numcalls;
            if (mx.numsubrs < r.numsubrs)
                mx.numsubrs = r.numsubrs;
            if (mx.stddeviation < r.stddeviation)
                mx.stddeviation = r.stddeviation;
        }
        const double total = numf > 0 ? rows[top].cumusec : 0.0;
        m_totalTotal += total;
        if (m_minTotal > total)
            m_minTotal = total;
        if (m_maxTotal < total)
            m_maxTotal = total;

        if (!m_opt.summaryOnly) {
            const ThreadKey& key = m_trial.threadKey(t);
            sortRows(rows, m_cmp, m_sign);
            appendf(out, "\nNODE %d;CONTEXT %d;THREAD %d:\n", key.node, key.context, key.thread);
            printFuncTab(rows, total, out);
            printUserEvents(t, out);
        }
        ++m_filesProcessed;
    }

    void printUserEvents(ThreadIndex t, std::string& out)
    {
        const AtomicRow& src = m_trial.atomicRow(t);
        if (src.size() == 0)
            return;
        // pprof resets every user event of its database to user_event_data() for each file, with
        // max -DBL_MAX and min DBL_MAX, and adds the file's records with operator+=; an event
        // whose samples are all 0 thus prints max 0.
        std::vector<UserEventTotals> values(m_userNames.size(),
            UserEventTotals { 0, std::numeric_limits<double>::lowest(), std::numeric_limits<double>::max(), 0, 0 });
        for (std::size_t i = 0; i < src.size(); ++i) {
            UserEventTotals& v = values[m_userOf[src.events[i].index()]];
            const UserEventTotals x { src.count[i], src.max[i], src.min[i], src.mean[i], src.sumSquares[i] };
            // TAU_MAX and TAU_MIN, not std::max/min: they differ on NaN and on -0 against 0.
            v.maxvalue = v.maxvalue > x.maxvalue ? v.maxvalue : x.maxvalue;
            v.minvalue = v.minvalue < x.minvalue ? v.minvalue : x.minvalue;
            v.meanvalue = v.numevents + x.numevents != 0
                ? (v.meanvalue * v.numevents + x.meanvalue * x.numevents) / (v.numevents + x.numevents)
                : 0;
            v.numevents += x.numevents;
            v.sumsqr += x.sumsqr;
        }
        out += Dashes;
        const ThreadKey& key = m_trial.threadKey(t);
        appendf(out, "\nUSER EVENTS Profile :NODE %d, CONTEXT %d, THREAD %d\n", key.node, key.context, key.thread);
        out += Dashes;
        out += "NumSamples   MaxValue   MinValue  MeanValue  Std. Dev.  Event Name\n";
        out += Dashes;
        for (std::size_t u = 0; u < m_userNames.size(); ++u) {
            const UserEventTotals& v = values[u];
            // Events without samples on this thread (recorded by other threads, or with 0
            // samples here) get no row: pprof's `numevents == 0` -> `continue`.
            if (v.numevents == 0)
                continue;
            const double sd = std::sqrt(std::fabs((v.sumsqr / v.numevents) - (v.meanvalue * v.meanvalue)));
            appendf(out, "%10.4G %10.4G %10.4G %10.4G %10.4G  %s\n", v.numevents, v.maxvalue, v.minvalue, v.meanvalue,
                sd, m_userNames[u].c_str());
        }
        out += Dashes;
    }

    void printRowValues(const Row& r, double total, const char* name, std::string& out)
    {
        if (r.cumusec > 0.0) {
            if (m_time) {
                appendf(out, "%5.1f %s %s %11G %11G %10.0f ", r.cumusec / total * 100.0,
                    pprofTimeString(r.usec, m_opt.plainMsec).c_str(),
                    pprofTimeString(r.cumusec, m_opt.plainMsec).c_str(), r.numcalls, r.numsubrs,
                    r.cumusec / r.numcalls);
            } else {
                appendf(out, "%5.1f  %10.4G  %10.4G %11G %11G %10.0f ", r.cumusec / total * 100.0, r.usec, r.cumusec,
                    r.numcalls, r.numsubrs, r.cumusec / r.numcalls);
            }
        } else {
            appendf(out, "  0.0            0            0 %11G %11G          0 ", r.numcalls, r.numsubrs);
        }
        if (m_profileStats)
            appendf(out, "%10.4G ", r.stddeviation);
        out += name;
        out += '\n';
    }

    void printFuncTab(const std::vector<Row>& tab, double total, std::string& out)
    {
        const std::size_t numf = tab.size();
        const std::size_t max = m_opt.max < 0 ? 0 : static_cast<std::size_t>(m_opt.max);
        Row others;
        for (std::size_t i = max; i < numf; ++i) {
            others.numcalls += tab[i].numcalls;
            others.numsubrs += tab[i].numsubrs;
            others.usec += tab[i].usec;
            others.cumusec += tab[i].cumusec;
            others.stddeviation += tab[i].stddeviation;
        }
        out += Dashes;
        if (m_time) {
            out += "%Time    Exclusive    Inclusive       #Call      #Subrs  Inclusive ";
            if (m_profileStats)
                out += "  Standard ";
            out += "Name\n              msec   total msec                          usec/call ";
            if (m_profileStats)
                out += " deviation ";
        } else {
            out += "%Time   Exclusive   Inclusive       #Call      #Subrs Count/Call ";
            if (m_profileStats)
                out += "  Standard ";
            out += "Name\n           counts total counts                            ";
            if (m_profileStats)
                out += "  deviation ";
        }
        out += '\n';
        out += Dashes;
        for (std::size_t i = 0; i < numf && i < max; ++i)
            if (tab[i].numcalls > 0)
                printRowValues(tab[i], total, m_funcNames[tab[i].func].c_str(), out);
        if (others.numcalls > 0)
            printRowValues(others, total, "-others-", out);
    }

    void printSummary(std::string& out)
    {
        if (m_filesProcessed > 1 || m_opt.summaryOnly) {
            sortRows(m_total, m_cmp, m_sign);
            out += "\nFUNCTION SUMMARY (total):\n";
            printFuncTab(m_total, m_totalTotal, out);
            if (m_opt.minMax) {
                sortRows(m_min, m_cmp, m_sign);
                out += "\nFUNCTION SUMMARY (min):\n";
                printFuncTab(m_min, m_minTotal, out);
                sortRows(m_max, m_cmp, m_sign);
                out += "\nFUNCTION SUMMARY (max):\n";
                printFuncTab(m_max, m_maxTotal, out);
            }
            const double n = static_cast<double>(m_filesProcessed);
            for (Row& r : m_total) {
                r.numcalls /= n;
                r.numsubrs /= n;
                r.usec /= n;
                r.cumusec /= n;
            }
            m_totalTotal /= n;
            sortRows(m_total, m_cmp, m_sign);
            out += "\nFUNCTION SUMMARY (mean):\n";
            printFuncTab(m_total, m_totalTotal, out);
        }
    }

    const Trial& m_trial;
    const PprofOptions& m_opt;
    std::size_t m_metric;
    bool m_time = true;
    bool m_profileStats = false;
    Compare m_cmp = cumMsecCmp;
    int m_sign = 1;
    std::vector<ThreadIndex> m_threads;
    std::vector<std::string> m_funcNames;
    std::vector<std::uint32_t> m_funcOf;
    std::vector<std::string> m_userNames;
    std::vector<std::uint32_t> m_userOf;
    std::vector<Row> m_total, m_min, m_max;
    double m_totalTotal = 0, m_minTotal = 0, m_maxTotal = 0;
    std::size_t m_topLevel = 0;
    std::size_t m_filesProcessed = 0;
};

} // namespace

bool pprofUsesTimeFormat(const Metric& metric)
{
    if (metric.name == QLatin1String("Time"))
        return true;
    // Current pprof upper-cases the token with toupper() in the C locale (ASCII letters only)
    // before the test ("Score-P uses Time").
    QString firstWord = metric.name.section(QLatin1Char(' '), 0, 0);
    for (QChar& c : firstWord)
        if (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
            c = QChar(c.unicode() - 'a' + 'A');
    return firstWord.contains(QLatin1String("TIME"));
}

std::string pprofTimeString(double ti, bool plainMsec)
{
    char buf[64];
    if (!plainMsec) {
        const long msec = static_cast<long>(std::fmod(ti / 1.0e3, 1.0e3));
        const long sec = static_cast<long>(std::fmod(ti / 1.0e6, 60.0));
        const long min = static_cast<long>(std::fmod(ti / 60.0e6, 60.0));
        const long hour = static_cast<long>(ti / 36.0e8);
        if (ti < 1.0e3)
            std::snprintf(buf, sizeof buf, "   %9.3G", ti / 1.0e3);
        else if (hour)
            std::snprintf(buf, sizeof buf, "%2ld:%02ld:%02ld.%03ld", hour, min, sec, msec);
        else if (min)
            std::snprintf(buf, sizeof buf, "   %2ld:%02ld.%03ld", min, sec, msec);
        else if (sec)
            std::snprintf(buf, sizeof buf, "      %2ld,%03ld", sec, msec);
        else
            std::snprintf(buf, sizeof buf, "         %3ld", msec);
    } else if (ti >= 1.0e5) {
        std::snprintf(buf, sizeof buf, "%12.0f", ti / 1.0e3);
    } else if (ti >= 1.0e4) {
        std::snprintf(buf, sizeof buf, "%12.1f", ti / 1.0e3);
    } else if (ti >= 1.0e3) {
        std::snprintf(buf, sizeof buf, "%12.2f", ti / 1.0e3);
    } else {
        std::snprintf(buf, sizeof buf, "%12.3f", ti / 1.0e3);
    }
    return buf;
}

std::string pprofReport(const Trial& trial, const PprofOptions& options, QString* error)
{
    Report report(trial, options);
    return report.run(error);
}

} // namespace parallax
