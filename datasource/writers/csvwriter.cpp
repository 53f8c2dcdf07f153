// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Parallax CSV layout (written by CsvWriter, read by CsvReader).
//
// One RFC 4180 table, UTF-8, "\n" line ends, with this header and 21 columns on every row:
//
//   kind,node,context,thread,event,groups,metric,units,exclusive,inclusive,calls,subroutines,
//   sum_exclusive_squared,count,max,min,mean,sum_squares,stddev,name,value
//
// The `kind` column says what a row is and which columns it uses (the others are empty):
//
//   trial           name=format value="parallax-csv 1" (first row); name=name value=trial name
//   provenance      name=operation|source|reader|operand|option, value (derived trials only: a
//                   measured trial gets the provenance of the file it is read from)
//   warning         value = one warning of the trial
//   metadata        name = key, value (trial-wide, in order)
//   metric          metric, units, name = flags ("derived", "higher-is-better", joined by '|'),
//                   value = the expression of a derived metric (in metric order)
//   group           name (every group, in group id order, used or not)
//   event           event (canonical name), groups (see below), value = the source spelling when it
//                   differs from the name (in event id order)
//   atomic-event    event, value = the source spelling when it differs (in atomic event id order)
//   thread          node,context,thread (every thread, in order)
//   thread-metadata node,context,thread,name = key, value (in order)
//   interval        node,context,thread,event,metric,exclusive,inclusive,calls,subroutines and
//                   sum_exclusive_squared (only on threads that have TAU's SumExclSqr column):
//                   one row per present cell and metric; a trial without metrics has one row per
//                   cell with empty metric, exclusive and inclusive
//   atomic          node,context,thread,event,count,max,min,mean,sum_squares, and stddev on the
//                   threads whose records carry an explicit standard deviation (algebra results)
//   statistic       name, value = ParaProf's derived-thread id; the statistic-interval and
//                   statistic-atomic rows after it (name repeats the statistic) are its cells
//   snapshot        node,context,thread, name, value = timestamp (us since the epoch); the
//                   snapshot-interval and snapshot-atomic rows after it are its cells
//
// Fields are quoted when they hold a comma, a quote, CR, LF, or white space at either end (the
// reader trims unquoted fields). `groups` joins group names with '|', escaping '\' and '|' inside
// a name with '\'. Numbers are written in the shortest form that reads back to the same double
// (std::to_chars), non-finite ones as nan, inf, -inf. Writing the same trial always gives the same
// bytes, so write -> read -> write is byte-identical.
//
// What the reader does with other CSV (a hand-written table of interval values, Hatchet's
// dataframe CSV) is described in csvreader.h.
#include "datasource/writers/csvwriter.h"

#include "datasource/readers/csvlayout.h"
#include "datasource/readers/textnumber.h"
#include "datasource/writers/savefile.h"

#include <QSaveFile>
#include <string>

namespace parallax {

namespace {

using namespace csv;

/// A field as CSV text: quoted when it must be.
std::string csvField(const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    bool quote
        = !utf8.isEmpty() && (utf8.front() == ' ' || utf8.front() == '\t' || utf8.back() == ' ' || utf8.back() == '\t');
    for (const char c : utf8)
        if (c == ',' || c == '"' || c == '\n' || c == '\r')
            quote = true;
    if (!quote)
        return utf8.toStdString();
    std::string out;
    out.reserve(static_cast<std::size_t>(utf8.size()) + 2);
    out += '"';
    for (const char c : utf8) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

QString escapedGroup(const QString& group)
{
    QString out;
    for (const QChar c : group) {
        if (c == u'\\' || c == u'|')
            out += u'\\';
        out += c;
    }
    return out;
}

class CsvOut : public BufferedOut {
public:
    explicit CsvOut(QSaveFile& file)
        : BufferedOut(file)
    {
    }

    /// Starts a row: the kind, then fields in increasing column order, then end().
    void begin(const char* kind)
    {
        m_buffer += kind;
        m_column = 0;
    }
    std::string& at(Column c)
    {
        for (; m_column < c; ++m_column)
            m_buffer += ',';
        return m_buffer;
    }
    void raw(const char* text) { m_buffer += text; }
    void text(Column c, const std::string& csvText) { at(c) += csvText; }
    void text(Column c, const QString& s) { at(c) += csvField(s); }
    void number(Column c, double v) { textnumber::appendDouble(at(c), v); }
    template <typename Int> void integer(Column c, Int v) { textnumber::appendInt(at(c), v); }
    void end()
    {
        at(static_cast<Column>(ParallaxColumnCount - 1));
        m_buffer += '\n';
        maybeFlush();
    }

private:
    int m_column = 0;
};

void threadColumns(CsvOut& out, const ThreadKey& k)
{
    out.integer(Node, k.node);
    out.integer(Context, k.context);
    out.integer(ThreadCol, k.thread);
}

class TrialCsv {
public:
    TrialCsv(const Trial& trial, CsvOut& out)
        : m_trial(trial)
        , m_out(out)
    {
        for (const IntervalEvent& e : trial.events())
            m_eventText.push_back(csvField(e.name));
        for (const AtomicEvent& e : trial.atomicEvents())
            m_atomicText.push_back(csvField(e.name));
        for (const Metric& m : trial.metrics())
            m_metricText.push_back(csvField(m.name));
    }

    void write()
    {
        const Trial& trial = m_trial;
        const StringPool& strings = trial.strings();
        m_out.begin("trial");
        m_out.text(Name, QStringLiteral("format"));
        m_out.text(Value, QStringLiteral("parallax-csv 1"));
        m_out.end();
        m_out.begin("trial");
        m_out.text(Name, QStringLiteral("name"));
        m_out.text(Value, trial.name());
        m_out.end();
        if (trial.isDerived()) {
            const Provenance& p = trial.provenance();
            provenance(QStringLiteral("operation"), p.operation);
            provenance(QStringLiteral("source"), p.source);
            provenance(QStringLiteral("reader"), p.reader);
            for (const QString& operand : p.operands)
                provenance(QStringLiteral("operand"), operand);
            for (const QString& option : p.options)
                provenance(QStringLiteral("option"), option);
        }
        for (const QString& warning : trial.warnings()) {
            m_out.begin("warning");
            m_out.text(Value, warning);
            m_out.end();
        }
        for (const MetadataEntry& e : trial.metadata()) {
            m_out.begin("metadata");
            m_out.text(Name, strings.get(e.key));
            m_out.text(Value, strings.get(e.value));
            m_out.end();
        }
        for (const Metric& m : trial.metrics()) {
            m_out.begin("metric");
            m_out.text(MetricCol, m.name);
            m_out.text(Units, m.unit);
            QStringList flags;
            if (m.derived)
                flags << QStringLiteral("derived");
            if (m.higherIsBetter)
                flags << QStringLiteral("higher-is-better");
            m_out.text(Name, flags.join(u'|'));
            m_out.text(Value, m.expression);
            m_out.end();
        }
        for (std::size_t g = 0; g < trial.groupCount(); ++g) {
            m_out.begin("group");
            m_out.text(Name, trial.groupName(GroupId(g)));
            m_out.end();
        }
        for (std::size_t i = 0; i < trial.eventCount(); ++i) {
            const IntervalEvent& e = trial.event(EventId(i));
            m_out.begin("event");
            m_out.text(Event, m_eventText[i]);
            QStringList groups;
            for (const GroupId g : e.groups)
                groups << escapedGroup(trial.groupName(g));
            m_out.text(Groups, groups.join(u'|'));
            if (e.rawName != e.name)
                m_out.text(Value, e.rawName);
            m_out.end();
        }
        for (std::size_t i = 0; i < trial.atomicEventCount(); ++i) {
            const AtomicEvent& e = trial.atomicEvent(AtomicEventId(i));
            m_out.begin("atomic-event");
            m_out.text(Event, m_atomicText[i]);
            if (e.rawName != e.name)
                m_out.text(Value, e.rawName);
            m_out.end();
        }
        for (std::size_t t = 0; t < trial.threadCount(); ++t) {
            const ThreadKey& k = trial.threadKey(ThreadIndex(t));
            m_out.begin("thread");
            threadColumns(m_out, k);
            m_out.end();
            for (const MetadataEntry& e : trial.threadMetadata(ThreadIndex(t))) {
                m_out.begin("thread-metadata");
                threadColumns(m_out, k);
                m_out.text(Name, strings.get(e.key));
                m_out.text(Value, strings.get(e.value));
                m_out.end();
            }
        }
        for (std::size_t t = 0; t < trial.threadCount(); ++t)
            intervals("interval", &trial.threadKey(ThreadIndex(t)), trial.row(ThreadIndex(t)), nullptr);
        for (std::size_t t = 0; t < trial.threadCount(); ++t)
            atomics("atomic", &trial.threadKey(ThreadIndex(t)), trial.atomicRow(ThreadIndex(t)), nullptr);
        for (const ProvidedStatistic& s : trial.providedStatistics()) {
            m_out.begin("statistic");
            m_out.text(Name, s.name);
            m_out.integer(Value, s.derivedId);
            m_out.end();
            const std::string name = csvField(s.name);
            intervals("statistic-interval", nullptr, s.row, &name);
            atomics("statistic-atomic", nullptr, s.atomicRow, &name);
        }
        if (trial.hasTimeSeries()) {
            for (std::size_t t = 0; t < trial.threadCount(); ++t) {
                const ThreadKey& k = trial.threadKey(ThreadIndex(t));
                for (const ProfileSnapshot& s : trial.timeSeries(ThreadIndex(t))) {
                    m_out.begin("snapshot");
                    threadColumns(m_out, k);
                    m_out.text(Name, s.name);
                    m_out.integer(Value, s.timestamp);
                    m_out.end();
                    intervals("snapshot-interval", &k, s.row, nullptr);
                    atomics("snapshot-atomic", &k, s.atomicRow, nullptr);
                }
            }
        }
        m_out.flush();
    }

private:
    void provenance(const QString& name, const QString& value)
    {
        m_out.begin("provenance");
        m_out.text(Name, name);
        m_out.text(Value, value);
        m_out.end();
    }

    void intervals(const char* kind, const ThreadKey* key, const RowView& row, const std::string* name)
    {
        const std::size_t metrics = m_trial.metricCount();
        const std::size_t n = row.size();
        const bool sqr = !row.exclSqr.empty();
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t e = row.events[i].index();
            for (std::size_t m = 0; m < std::max<std::size_t>(metrics, 1); ++m) {
                m_out.begin(kind);
                if (key)
                    threadColumns(m_out, *key);
                m_out.text(Event, m_eventText[e]);
                if (metrics > 0) {
                    m_out.text(MetricCol, m_metricText[m]);
                    m_out.number(Exclusive, row.excl[m * n + i]);
                    m_out.number(Inclusive, row.incl[m * n + i]);
                }
                m_out.number(Calls, row.calls[i]);
                m_out.number(Subroutines, row.subrs[i]);
                if (sqr && metrics > 0)
                    m_out.number(SumExclSqr, row.exclSqr[m * n + i]);
                if (name)
                    m_out.text(Name, *name);
                m_out.end();
            }
        }
    }

    void atomics(const char* kind, const ThreadKey* key, const AtomicRow& row, const std::string* name)
    {
        const bool sd = row.stdDev.size() == row.size() && row.size() > 0;
        for (std::size_t i = 0; i < row.size(); ++i) {
            m_out.begin(kind);
            if (key)
                threadColumns(m_out, *key);
            m_out.text(Event, m_atomicText[row.events[i].index()]);
            m_out.number(Count, row.count[i]);
            m_out.number(Max, row.max[i]);
            m_out.number(Min, row.min[i]);
            m_out.number(Mean, row.mean[i]);
            m_out.number(SumSquares, row.sumSquares[i]);
            if (sd)
                m_out.number(StdDev, row.stdDev[i]);
            if (name)
                m_out.text(Name, *name);
            m_out.end();
        }
    }

    const Trial& m_trial;
    CsvOut& m_out;
    std::vector<std::string> m_eventText;
    std::vector<std::string> m_atomicText;
    std::vector<std::string> m_metricText;
};

} // namespace

QString CsvWriter::write(const Trial& trial, const QString& file)
{
    return writeSaved(file, [&](QSaveFile& save) {
        CsvOut out(save);
        out.raw("kind,node,context,thread,event,groups,metric,units,exclusive,inclusive,calls,subroutines,"
                "sum_exclusive_squared,count,max,min,mean,sum_squares,stddev,name,value\n");
        TrialCsv(trial, out).write();
    });
}

} // namespace parallax
