// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Parallax JSON trial schema, version 1 (written by JsonWriter, read by JsonReader).
//
// {
//   "format": "parallax-trial",            first key, so a reader can tell from the first bytes
//   "version": 1,
//   "name": "trial name",
//   "provenance": {"operation": "difference", "source": "", "reader": "", "operands": ["a", "b"],
//                  "options": []},           derived trials only (a measured trial gets the
//                                            provenance of the file it is read from)
//   "warnings": ["..."],
//   "metadata": {"key": "value", ...},     trial-wide, in order
//   "metrics": [{"name": "TIME", "units": "us", "derived": false, "expression": "",
//                "higher_is_better": false}, ...],
//   "groups": ["TAU_DEFAULT", ...],        every group, in group id order
//   "events": [{"name": "main => f", "raw_name": "main  => f", "groups": ["TAU_CALLPATH"]}, ...]
//                                          interval events in id order; raw_name only when it
//                                          differs from name (the canonical name)
//   "atomic_events": [{"name": "...", "raw_name": "..."}, ...],
//   "threads": [{"node": 0, "context": 0, "thread": 0, "metadata": {"k": "v"}}, ...]
//                                          metadata only when the thread has some
//   "intervals": [                         one entry per event with at least one present cell
//     {"event": 3,                         index into "events"
//      "threads": [0, 2],                  optional: the thread indices the arrays run over
//                                          (written when under half the threads have the event);
//                                          without it the arrays run over all threads
//      "calls": [...], "subroutines": [...],
//      "exclusive": [[... metric 0 ...], [... metric 1 ...]], "inclusive": [[...], ...],
//      "sum_exclusive_squared": [[...], ...]}   only when some thread has TAU's SumExclSqr
//   ],                                     null = the event did not run on that thread
//   "atomics": [{"event": 0, "threads": [...], "count": [...], "max": [...], "min": [...],
//                "mean": [...], "sum_squares": [...], "stddev": [...]}, ...]
//                                          stddev only when some thread's records carry an
//                                          explicit standard deviation (algebra results)
//   "statistics": [{"name": "mean_all", "derived_id": -6, "intervals": ROW, "atomics": AROW}],
//   "time_series": [{"thread": 0, "snapshots": [{"name": "final", "timestamp": 1234,
//                                                "intervals": ROW, "atomics": AROW}]}]
// }
// ROW  = {"events": [event indices], "calls": [...], "subroutines": [...],
//         "exclusive": [[per metric]], "inclusive": [[...]], "sum_exclusive_squared": [[...]]?}
// AROW = {"events": [atomic event indices], "count": [...], "max": [...], "min": [...],
//         "mean": [...], "sum_squares": [...], "stddev": [...]?}
//
// Keys appear in this order (the reader streams and needs metrics, events and threads before the
// values that refer to them). Numbers are written in the shortest form that reads back to the same
// double; NaN and infinities as the strings "NaN", "Infinity", "-Infinity". Strings are UTF-8;
// control characters and unpaired UTF-16 surrogates are written as \u escapes so they survive.
// Writing the same trial always gives the same bytes.
#include "datasource/writers/jsonwriter.h"

#include "datasource/readers/textnumber.h"
#include "datasource/writers/savefile.h"

#include <QSaveFile>
#include <string>

namespace parallax {

namespace {

void appendEscapedUnit(std::string& out, char16_t u)
{
    static const char hex[] = "0123456789abcdef";
    out += "\\u";
    out += hex[(u >> 12) & 0xF];
    out += hex[(u >> 8) & 0xF];
    out += hex[(u >> 4) & 0xF];
    out += hex[u & 0xF];
}

/// A JSON string literal for `s`.
void appendString(std::string& out, const QString& s)
{
    out += '"';
    const qsizetype n = s.size();
    const char16_t* p = reinterpret_cast<const char16_t*>(s.utf16());
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t u = p[i];
        if (u < 0x80) {
            switch (u) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (u < 0x20 || u == 0x7F)
                    appendEscapedUnit(out, u);
                else
                    out += static_cast<char>(u);
            }
        } else if (u < 0x800) {
            out += static_cast<char>(0xC0 | (u >> 6));
            out += static_cast<char>(0x80 | (u & 0x3F));
        } else if (u >= 0xD800 && u <= 0xDBFF && i + 1 < n && p[i + 1] >= 0xDC00 && p[i + 1] <= 0xDFFF) {
            const char32_t c = 0x10000 + ((char32_t(u) - 0xD800) << 10) + (char32_t(p[i + 1]) - 0xDC00);
            ++i;
            out += static_cast<char>(0xF0 | (c >> 18));
            out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else if (u >= 0xD800 && u <= 0xDFFF) {
            appendEscapedUnit(out, u); // unpaired surrogate: no UTF-8 for it
        } else {
            out += static_cast<char>(0xE0 | (u >> 12));
            out += static_cast<char>(0x80 | ((u >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (u & 0x3F));
        }
    }
    out += '"';
}

class JsonOut : public BufferedOut {
public:
    explicit JsonOut(QSaveFile& file)
        : BufferedOut(file)
    {
    }
    JsonOut& raw(const char* text)
    {
        m_buffer += text;
        return *this;
    }
    JsonOut& str(const QString& s)
    {
        appendString(m_buffer, s);
        return *this;
    }
    JsonOut& num(double v)
    {
        textnumber::appendDouble(m_buffer, v, true);
        return *this;
    }
    template <typename Int> JsonOut& integer(Int v)
    {
        textnumber::appendInt(m_buffer, v);
        return *this;
    }
};

class TrialJson {
public:
    TrialJson(const Trial& trial, JsonOut& out)
        : m_trial(trial)
        , m_out(out)
    {
    }

    void write()
    {
        const Trial& trial = m_trial;
        JsonOut& o = m_out;
        o.raw("{\"format\": \"parallax-trial\",\n\"version\": 1,\n\"name\": ").str(trial.name()).raw(",\n");
        if (trial.isDerived()) {
            const Provenance& p = trial.provenance();
            o.raw("\"provenance\": {\"operation\": ").str(p.operation);
            o.raw(", \"source\": ").str(p.source).raw(", \"reader\": ").str(p.reader);
            o.raw(", \"operands\": ");
            strings(p.operands);
            o.raw(", \"options\": ");
            strings(p.options);
            o.raw("},\n");
        }
        o.raw("\"warnings\": ");
        strings(trial.warnings());
        o.raw(",\n\"metadata\": ");
        metadata(trial.metadata());
        o.raw(",\n\"metrics\": [");
        for (std::size_t m = 0; m < trial.metricCount(); ++m) {
            const Metric& metric = trial.metric(MetricId(m));
            o.raw(m ? ",\n  " : "\n  ").raw("{\"name\": ").str(metric.name).raw(", \"units\": ").str(metric.unit);
            o.raw(", \"derived\": ").raw(metric.derived ? "true" : "false");
            o.raw(", \"expression\": ").str(metric.expression);
            o.raw(", \"higher_is_better\": ").raw(metric.higherIsBetter ? "true" : "false").raw("}");
        }
        o.raw("],\n\"groups\": [");
        for (std::size_t g = 0; g < trial.groupCount(); ++g)
            o.raw(g ? ",\n  " : "\n  ").str(trial.groupName(GroupId(g)));
        o.raw("],\n\"events\": [");
        for (std::size_t i = 0; i < trial.eventCount(); ++i) {
            const IntervalEvent& e = trial.event(EventId(i));
            eventNames(i, e);
            o.raw(", \"groups\": [");
            for (std::size_t g = 0; g < e.groups.size(); ++g)
                o.raw(g ? ", " : "").str(trial.groupName(e.groups[g]));
            o.raw("]}");
            o.maybeFlush();
        }
        o.raw("],\n\"atomic_events\": [");
        for (std::size_t i = 0; i < trial.atomicEventCount(); ++i) {
            eventNames(i, trial.atomicEvent(AtomicEventId(i)));
            o.raw("}");
            o.maybeFlush();
        }
        o.raw("],\n\"threads\": [");
        for (std::size_t t = 0; t < trial.threadCount(); ++t) {
            const ThreadKey& k = trial.threadKey(ThreadIndex(t));
            o.raw(t ? ",\n  " : "\n  ").raw("{\"node\": ").integer(k.node);
            o.raw(", \"context\": ").integer(k.context).raw(", \"thread\": ").integer(k.thread);
            if (!trial.threadMetadata(ThreadIndex(t)).empty()) {
                o.raw(", \"metadata\": ");
                metadata(trial.threadMetadata(ThreadIndex(t)));
            }
            o.raw("}");
            o.maybeFlush();
        }
        o.raw("],\n\"intervals\": [");
        intervals();
        o.raw("],\n\"atomics\": [");
        atomics();
        o.raw("],\n\"statistics\": [");
        bool first = true;
        for (const ProvidedStatistic& s : trial.providedStatistics()) {
            o.raw(first ? "\n  " : ",\n  ")
                .raw("{\"name\": ")
                .str(s.name)
                .raw(", \"derived_id\": ")
                .integer(s.derivedId);
            o.raw(",\n   \"intervals\": ");
            row(s.row);
            o.raw(",\n   \"atomics\": ");
            atomicRow(s.atomicRow);
            o.raw("}");
            first = false;
        }
        o.raw("],\n\"time_series\": [");
        first = true;
        if (trial.hasTimeSeries()) {
            for (std::size_t t = 0; t < trial.threadCount(); ++t) {
                const auto& series = trial.timeSeries(ThreadIndex(t));
                if (series.empty())
                    continue;
                o.raw(first ? "\n  " : ",\n  ").raw("{\"thread\": ").integer(t).raw(", \"snapshots\": [");
                first = false;
                for (std::size_t i = 0; i < series.size(); ++i) {
                    const ProfileSnapshot& s = series[i];
                    o.raw(i ? ",\n    " : "\n    ").raw("{\"name\": ").str(s.name);
                    o.raw(", \"timestamp\": ").integer(s.timestamp).raw(",\n     \"intervals\": ");
                    row(s.row);
                    o.raw(",\n     \"atomics\": ");
                    atomicRow(s.atomicRow);
                    o.raw("}");
                    o.maybeFlush();
                }
                o.raw("]}");
            }
        }
        o.raw("]}\n");
        o.flush();
    }

private:
    void strings(const QStringList& list)
    {
        m_out.raw("[");
        for (qsizetype i = 0; i < list.size(); ++i)
            m_out.raw(i ? ", " : "").str(list[i]);
        m_out.raw("]");
    }

    /// The start of element `i` of "events" or "atomic_events": its name, and its raw name when that
    /// differs.
    template <typename Event> void eventNames(std::size_t i, const Event& e)
    {
        m_out.raw(i ? ",\n  " : "\n  ").raw("{\"name\": ").str(e.name);
        if (e.rawName != e.name)
            m_out.raw(", \"raw_name\": ").str(e.rawName);
    }

    void metadata(const std::vector<MetadataEntry>& entries)
    {
        const StringPool& pool = m_trial.strings();
        m_out.raw("{");
        for (std::size_t i = 0; i < entries.size(); ++i) {
            m_out.raw(i ? ",\n  " : "\n  ").str(pool.get(entries[i].key)).raw(": ").str(pool.get(entries[i].value));
            m_out.maybeFlush();
        }
        m_out.raw(entries.empty() ? "}" : "\n}");
    }

    /// A column of values over the threads (or the listed ones): the value at each thread's cell
    /// of the current event, null where it has none.
    template <typename Value>
    void column(const char* key, const std::vector<std::uint32_t>& threads, const std::vector<std::ptrdiff_t>& cells,
        const Value& value)
    {
        m_out.raw(key).raw("[");
        std::string& b = m_out.buffer();
        for (std::size_t k = 0; k < threads.size(); ++k) {
            if (k)
                b += ',';
            const std::ptrdiff_t i = cells[k];
            if (i < 0)
                b += "null";
            else
                textnumber::appendDouble(b, value(threads[k], static_cast<std::size_t>(i)), true);
            m_out.maybeFlush();
        }
        m_out.raw("]");
    }

    /// The per-event entries shared by intervals and atomics: the thread list (all threads or
    /// those with a cell) and the cell position on each.
    template <typename Row, typename GetRow, typename Body>
    void perEvent(std::size_t eventCount, const GetRow& getRow, const Body& body)
    {
        const std::size_t threads = m_trial.threadCount();
        // Rows are sorted by event id: walk them with one cursor per thread.
        std::vector<std::size_t> cursor(threads, 0);
        std::vector<std::ptrdiff_t> at(threads);
        std::vector<std::uint32_t> all(threads);
        for (std::size_t t = 0; t < threads; ++t)
            all[t] = static_cast<std::uint32_t>(t);
        bool first = true;
        std::vector<std::uint32_t> listed;
        std::vector<std::ptrdiff_t> listedAt;
        for (std::size_t e = 0; e < eventCount; ++e) {
            std::size_t present = 0;
            for (std::size_t t = 0; t < threads; ++t) {
                const Row& row = getRow(t);
                std::size_t& c = cursor[t];
                while (c < row.size() && row.events[c].index() < e)
                    ++c;
                at[t] = c < row.size() && row.events[c].index() == e ? static_cast<std::ptrdiff_t>(c) : -1;
                present += at[t] >= 0 ? 1 : 0;
            }
            if (present == 0)
                continue;
            m_out.raw(first ? "\n  " : ",\n  ").raw("{\"event\": ").integer(e);
            first = false;
            if (present * 2 < threads) {
                listed.clear();
                listedAt.clear();
                for (std::size_t t = 0; t < threads; ++t)
                    if (at[t] >= 0) {
                        listed.push_back(static_cast<std::uint32_t>(t));
                        listedAt.push_back(at[t]);
                    }
                m_out.raw(", \"threads\": [");
                for (std::size_t k = 0; k < listed.size(); ++k)
                    m_out.raw(k ? "," : "").integer(listed[k]);
                m_out.raw("]");
                body(listed, listedAt);
            } else {
                body(all, at);
            }
            m_out.raw("}");
            m_out.maybeFlush();
        }
    }

    void intervals()
    {
        const Trial& trial = m_trial;
        const std::size_t metrics = trial.metricCount();
        bool anySqr = false;
        for (std::size_t t = 0; t < trial.threadCount(); ++t)
            anySqr = anySqr || !trial.row(ThreadIndex(t)).exclSqr.empty();
        auto rowOf = [&](std::size_t t) { return trial.row(ThreadIndex(t)); };
        perEvent<RowView>(trial.eventCount(), rowOf, [&](const auto& threads, const auto& cells) {
            column(
                ",\n   \"calls\": ", threads, cells, [&](std::size_t t, std::size_t i) { return rowOf(t).calls[i]; });
            column(",\n   \"subroutines\": ", threads, cells,
                [&](std::size_t t, std::size_t i) { return rowOf(t).subrs[i]; });
            auto perMetric = [&](const char* key, auto member) {
                m_out.raw(key).raw("[");
                for (std::size_t m = 0; m < metrics; ++m)
                    column(m ? ",\n    " : "", threads, cells, [&](std::size_t t, std::size_t i) {
                        const RowView r = rowOf(t);
                        return (r.*member)[m * r.size() + i];
                    });
                m_out.raw("]");
            };
            perMetric(",\n   \"exclusive\": ", &RowView::excl);
            perMetric(",\n   \"inclusive\": ", &RowView::incl);
            if (anySqr) {
                // Threads without the column have no value: null, like an absent cell.
                m_out.raw(",\n   \"sum_exclusive_squared\": [");
                for (std::size_t m = 0; m < metrics; ++m) {
                    m_out.raw(m ? ",\n    [" : "[");
                    std::string& b = m_out.buffer();
                    for (std::size_t k = 0; k < threads.size(); ++k) {
                        if (k)
                            b += ',';
                        const RowView r = rowOf(threads[k]);
                        if (cells[k] < 0 || r.exclSqr.empty())
                            b += "null";
                        else
                            textnumber::appendDouble(
                                b, r.exclSqr[m * r.size() + static_cast<std::size_t>(cells[k])], true);
                    }
                    m_out.raw("]");
                }
                m_out.raw("]");
            }
        });
    }

    void atomics()
    {
        const Trial& trial = m_trial;
        bool anySd = false;
        for (std::size_t t = 0; t < trial.threadCount(); ++t) {
            const AtomicRow& r = trial.atomicRow(ThreadIndex(t));
            anySd = anySd || (!r.stdDev.empty() && r.stdDev.size() == r.size());
        }
        auto rowOf = [&](std::size_t t) -> const AtomicRow& { return trial.atomicRow(ThreadIndex(t)); };
        perEvent<AtomicRow>(trial.atomicEventCount(), rowOf, [&](const auto& threads, const auto& cells) {
            auto field = [&](const char* key, std::vector<double> AtomicRow::*member) {
                column(key, threads, cells, [&](std::size_t t, std::size_t i) { return (rowOf(t).*member)[i]; });
            };
            field(",\n   \"count\": ", &AtomicRow::count);
            field(",\n   \"max\": ", &AtomicRow::max);
            field(",\n   \"min\": ", &AtomicRow::min);
            field(",\n   \"mean\": ", &AtomicRow::mean);
            field(",\n   \"sum_squares\": ", &AtomicRow::sumSquares);
            if (anySd) {
                m_out.raw(",\n   \"stddev\": [");
                std::string& b = m_out.buffer();
                for (std::size_t k = 0; k < threads.size(); ++k) {
                    if (k)
                        b += ',';
                    const AtomicRow& r = rowOf(threads[k]);
                    if (cells[k] < 0 || r.stdDev.size() != r.size())
                        b += "null";
                    else
                        textnumber::appendDouble(b, r.stdDev[static_cast<std::size_t>(cells[k])], true);
                }
                m_out.raw("]");
            }
        });
    }

    /// `n` values of a column (ColumnView or CountView) from position `first`.
    template <typename Column> void values(const char* key, const Column& v, std::size_t first, std::size_t n)
    {
        m_out.raw(key).raw("[");
        std::string& b = m_out.buffer();
        for (std::size_t i = 0; i < n; ++i) {
            if (i)
                b += ',';
            textnumber::appendDouble(b, v[first + i], true);
        }
        m_out.raw("]");
        m_out.maybeFlush();
    }

    /// The start of a row object: {"events": [the event indices]
    template <typename Events> void rowEvents(const Events& events)
    {
        m_out.raw("{\"events\": [");
        for (std::size_t i = 0; i < events.size(); ++i)
            m_out.raw(i ? "," : "").integer(events[i].index());
        m_out.raw("]");
    }

    void row(const RowView& r)
    {
        const std::size_t n = r.size();
        const std::size_t metrics = m_trial.metricCount();
        rowEvents(r.events);
        values(", \"calls\": ", r.calls, 0, n);
        values(", \"subroutines\": ", r.subrs, 0, n);
        auto perMetric = [&](const char* key, const auto& v) {
            m_out.raw(key).raw("[");
            for (std::size_t m = 0; m < metrics; ++m)
                values(m ? ", " : "", v, m * n, n);
            m_out.raw("]");
        };
        perMetric(", \"exclusive\": ", r.excl);
        perMetric(", \"inclusive\": ", r.incl);
        if (!r.exclSqr.empty())
            perMetric(", \"sum_exclusive_squared\": ", r.exclSqr);
        m_out.raw("}");
    }

    void atomicRow(const AtomicRow& r)
    {
        const std::size_t n = r.size();
        rowEvents(r.events);
        values(", \"count\": ", r.count, 0, n);
        values(", \"max\": ", r.max, 0, n);
        values(", \"min\": ", r.min, 0, n);
        values(", \"mean\": ", r.mean, 0, n);
        values(", \"sum_squares\": ", r.sumSquares, 0, n);
        if (!r.stdDev.empty() && r.stdDev.size() == n)
            values(", \"stddev\": ", r.stdDev, 0, n);
        m_out.raw("}");
    }

    const Trial& m_trial;
    JsonOut& m_out;
};

} // namespace

QString JsonWriter::write(const Trial& trial, const QString& file)
{
    return writeSaved(file, [&](QSaveFile& save) {
        JsonOut out(save);
        TrialJson(trial, out).write();
    });
}

} // namespace parallax
