// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// _parallax.Trial: a read-only handle on a trial and the columns parallax/__init__.py turns into
// pandas objects. Every per-cell value leaves here as a NumPy array (no Python object per cell);
// loops over threads and cells run with the GIL released.
#include "algebra/calltree.h"
#include "algebra/flame.h"
#include "algebra/statistics.h"
#include "datasource/writers/writerregistry.h"
#include "python/src/binding.h"

#include <QTextStream>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <pybind11/stl.h>
#include <utility>
#include <variant>

namespace parallax::python {

namespace {

py::dict metadataDict(const Trial& trial, const std::vector<MetadataEntry>& entries)
{
    py::dict out;
    for (const MetadataEntry& e : entries)
        out[toPy(trial.strings().get(e.key))] = toPy(trial.strings().get(e.value));
    return out;
}

/// The value columns a dataframe asks for: per metric exclusive and inclusive, then calls and subroutines.
struct CellRequest {
    std::vector<MetricId> metrics;
    bool exclusive = true;
    bool inclusive = true;
    bool calls = true;
    bool subroutines = true;
    bool callpaths = true;
    std::size_t metricColumns() const { return metrics.size() * ((exclusive ? 1 : 0) + (inclusive ? 1 : 0)); }
};

/// Calls f(thread, row, i) for every cell the keep mask keeps, thread by thread.
template <typename F> void forEachCell(const Trial& trial, const std::vector<char>& keep, F&& f)
{
    for (std::size_t t = 0; t < trial.threadCount(); ++t) {
        const RowView row = trial.row(ThreadIndex(static_cast<std::uint32_t>(t)));
        for (std::size_t i = 0; i < row.size(); ++i)
            if (keep[row.events[i].index()] != 0)
                f(t, row, i);
    }
}

/// The count columns (calls, subroutines) as one block (column c of cell i at [c * cells + i]) in the
/// narrowest type that holds every value of them: uint32 (whole numbers in its range: TAU's counts),
/// int64 (whole, e.g. a diff's negative counts) or float64 (a mean's). One type for both, so pandas
/// keeps them as one block and never consolidates (copies) them.
using CountBlock = std::variant<std::vector<std::uint32_t>, std::vector<std::int64_t>, std::vector<double>>;

CountBlock countBlock(
    const Trial& trial, const std::vector<char>& keep, std::size_t n, const std::vector<CountView RowView::*>& columns)
{
    constexpr double Int64Limit = 9223372036854775808.0; // 2^63
    bool whole = true;
    bool unsigned32 = true;
    forEachCell(trial, keep, [&](std::size_t, const RowView& row, std::size_t i) {
        for (const auto column : columns) {
            const double v = (row.*column)[i];
            if (!(v >= -Int64Limit && v < Int64Limit) || v != std::trunc(v))
                whole = false;
            else if (v < 0 || v > double(std::numeric_limits<std::uint32_t>::max()))
                unsigned32 = false;
        }
    });
    const auto fill = [&]<typename T>(std::vector<T> out) {
        out.resize(n * columns.size());
        std::size_t k = 0;
        forEachCell(trial, keep, [&](std::size_t, const RowView& row, std::size_t i) {
            for (std::size_t c = 0; c < columns.size(); ++c)
                out[c * n + k] = static_cast<T>((row.*columns[c])[i]);
            ++k;
        });
        return CountBlock(std::move(out));
    };
    if (!whole)
        return fill(std::vector<double>());
    return unsigned32 ? fill(std::vector<std::uint32_t>()) : fill(std::vector<std::int64_t>());
}

/// Every present (thread, event) cell the request keeps, in thread order: the number of cells of each
/// thread, the event indices, the metric values column-major (column c of cell i at [c * cells + i],
/// pandas' own layout of a block: per metric exclusive and inclusive as asked) and the calls and
/// subroutines asked for as countBlock() makes them. Counts rather than a thread index per cell: the
/// index's codes are repeated per thread in Python, in their final integer type.
py::tuple cells(const Trial& trial, const CellRequest& request)
{
    std::vector<std::int64_t> threads(trial.threadCount(), 0);
    std::vector<std::int32_t> events;
    std::vector<double> values;
    std::vector<CountView RowView::*> countColumns;
    if (request.calls)
        countColumns.push_back(&RowView::calls);
    if (request.subroutines)
        countColumns.push_back(&RowView::subrs);
    CountBlock counts;
    const bool narrowEvents = trial.eventCount() < std::size_t(std::numeric_limits<std::int16_t>::max());
    std::vector<std::int16_t> events16;
    std::size_t n = 0;
    const std::size_t columns = request.metricColumns();
    {
        py::gil_scoped_release release;
        std::vector<char> keep(trial.eventCount(), 1);
        if (!request.callpaths)
            for (std::size_t e = 0; e < trial.eventCount(); ++e)
                keep[e] = trial.event(EventId(static_cast<std::uint32_t>(e))).isCallPath() ? 0 : 1;
        forEachCell(trial, keep, [&](std::size_t t, const RowView&, std::size_t) {
            ++threads[t];
            ++n;
        });
        events.reserve(n);
        values.resize(n * columns);
        std::size_t k = 0;
        forEachCell(trial, keep, [&](std::size_t, const RowView& row, std::size_t i) {
            events.push_back(static_cast<std::int32_t>(row.events[i].index()));
            std::size_t c = 0;
            for (const MetricId m : request.metrics) {
                if (request.exclusive)
                    values[(c++) * n + k] = row.exclusive(m.index(), i);
                if (request.inclusive)
                    values[(c++) * n + k] = row.inclusive(m.index(), i);
            }
            ++k;
        });
        // The event codes in int16 when they fit (the type pandas keeps them in: _frames._codes_dtype),
        // before the counts are made, so the int32 copy and the counts are never alive together.
        if (narrowEvents) {
            events16.assign(events.begin(), events.end());
            std::vector<std::int32_t>().swap(events);
        }
        counts = countBlock(trial, keep, n, countColumns);
    }
    py::array countArray = std::visit(
        [](auto&& block) -> py::array { return toArray(std::forward<decltype(block)>(block)); }, std::move(counts));
    py::array eventArray = narrowEvents ? py::array(toArray(std::move(events16))) : toArray(std::move(events));
    return py::make_tuple(toArray(std::move(threads)), std::move(eventArray), toMatrix(std::move(values), columns, n),
        countArray.reshape({ static_cast<py::ssize_t>(countColumns.size()), static_cast<py::ssize_t>(n) }));
}

/// Every (thread, user event) record, as cells() gives them: records per thread, user event indices,
/// and count, max, min, mean, sd, sum of squares.
py::tuple userCells(const Trial& trial)
{
    std::vector<std::int64_t> threads(trial.threadCount(), 0);
    std::vector<std::int32_t> events;
    std::vector<double> values;
    std::size_t n = 0;
    constexpr std::size_t Fields = 6;
    {
        py::gil_scoped_release release;
        for (std::size_t t = 0; t < trial.threadCount(); ++t)
            n += trial.atomicRow(ThreadIndex(static_cast<std::uint32_t>(t))).size();
        events.reserve(n);
        values.resize(n * Fields);
        std::size_t k = 0;
        for (std::size_t t = 0; t < trial.threadCount(); ++t) {
            const AtomicRow& row = trial.atomicRow(ThreadIndex(static_cast<std::uint32_t>(t)));
            for (std::size_t i = 0; i < row.size(); ++i, ++k) {
                ++threads[t];
                events.push_back(static_cast<std::int32_t>(row.events[i].index()));
                const std::array<double, Fields> v
                    = { row.count[i], row.max[i], row.min[i], row.mean[i], row.stddev(i), row.sumSquares[i] };
                for (std::size_t f = 0; f < Fields; ++f)
                    values[f * n + k] = v[f];
            }
        }
    }
    return py::make_tuple(
        toArray(std::move(threads)), toArray(std::move(events)), toMatrix(std::move(values), Fields, n));
}

/// The statistics kernel's figures (algebra/statistics.h), one row per event: for each value kind
/// asked for, mean (absent = 0), mean over present threads, total, min, max, sd (absent = 0), sd over
/// present threads and the number of present threads.
constexpr std::size_t StatFields = 8;
py::array_t<double> statistics(const Trial& trial, MetricId metric, const std::vector<int>& kinds)
{
    std::vector<double> values;
    const std::size_t columns = kinds.size() * StatFields;
    {
        py::gil_scoped_release release;
        const auto stats = TrialStatistics::of(trial);
        values.resize(trial.eventCount() * columns);
        for (std::size_t e = 0; e < trial.eventCount(); ++e) {
            for (std::size_t k = 0; k < kinds.size(); ++k) {
                const Stat& s
                    = stats->stat(EventId(static_cast<std::uint32_t>(e)), metric, static_cast<ValueKind>(kinds[k]));
                const std::array<double, StatFields> v = { s.meanAll, s.meanPresent, s.total, s.min, s.max, s.sdAll,
                    s.sdPresent, static_cast<double>(s.present) };
                std::copy(
                    v.begin(), v.end(), values.begin() + static_cast<std::ptrdiff_t>(e * columns + k * StatFields));
            }
        }
    }
    return toMatrix(std::move(values), trial.eventCount(), columns);
}

/// The call tree (algebra/calltree.h): per node its label, event (-1 synthetic) and parent (-1 root).
py::tuple callTree(const Trial& trial)
{
    std::shared_ptr<const CallTree> tree;
    {
        py::gil_scoped_release release;
        tree = CallTree::of(trial);
    }
    py::list labels;
    std::vector<std::int32_t> events;
    std::vector<std::int32_t> parents;
    for (const CallTree::Node& node : tree->nodes()) {
        labels.append(toPy(node.label));
        events.push_back(node.isSynthetic() ? -1 : static_cast<std::int32_t>(node.event.index()));
        parents.push_back(node.parent);
    }
    return py::make_tuple(labels, toArray(std::move(events)), toArray(std::move(parents)));
}

QString folded(const Trial& trial, MetricId metric, int statistic, const py::object& thread)
{
    FlameSource source;
    source.statistic = static_cast<Statistic>(statistic);
    if (!thread.is_none()) {
        const auto key = thread.cast<std::array<int, 3>>();
        source.thread = trial.findThread(ThreadKey { key[0], key[1], key[2] });
        if (!source.thread.isValid())
            throw Failure { QStringLiteral("the trial has no thread %1,%2,%3").arg(key[0]).arg(key[1]).arg(key[2]) };
    }
    py::gil_scoped_release release;
    QString text;
    QTextStream out(&text);
    writeFolded(FlameTree::of(trial, metric, source), out);
    out.flush();
    return text;
}

} // namespace

MetricId metricArgument(const Trial& trial, const py::object& metric)
{
    if (metric.is_none())
        return MetricId(0u);
    if (py::isinstance<py::int_>(metric)) {
        const auto i = metric.cast<long long>();
        if (i < 0 || static_cast<std::size_t>(i) >= trial.metricCount())
            throw Failure { QStringLiteral("metric index %1 out of range (the trial has %2 metrics)")
                                .arg(i)
                                .arg(trial.metricCount()) };
        return MetricId(static_cast<std::uint32_t>(i));
    }
    const QString name = toQ(metric.cast<std::string>());
    const MetricId m = trial.findMetric(name);
    if (!m.isValid()) {
        QStringList names;
        for (const Metric& each : trial.metrics())
            names << each.name;
        throw Failure {
            QStringLiteral("the trial has no metric '%1' (it has %2)").arg(name, names.join(QStringLiteral(", ")))
        };
    }
    return m;
}

void addTrial(py::module_& m)
{
    py::class_<TrialHandle, std::shared_ptr<TrialHandle>>(m, "Trial",
        "One run (a trial): threads, events, metrics and their values. Immutable. Made by "
        "parallax.open(), the algebra or the database; parallax.Trial adds the pandas views.")
        .def_property_readonly(
            "name", [](const TrialHandle& h) { return toPy(h.trial->name()); }, "The trial's name.")
        .def_property_readonly(
            "source", [](const TrialHandle& h) { return toPy(h.trial->provenance().source); },
            "Where the trial was read from (a path), empty for a result of the algebra.")
        .def_property_readonly(
            "provenance",
            [](const TrialHandle& h) {
                const Provenance& p = h.trial->provenance();
                py::dict d;
                d["operation"] = toPy(p.operation);
                d["source"] = toPy(p.source);
                d["reader"] = toPy(p.reader);
                d["operands"] = toPy(p.operands);
                d["options"] = toPy(p.options);
                return d;
            },
            "Where the trial came from: operation ('read', 'diff', ...), source, reader, operands, options.")
        .def_property_readonly(
            "warnings", [](const TrialHandle& h) { return toPy(h.trial->warnings()); },
            "The reader's (or the operation's) warnings, as text.")
        .def_property_readonly(
            "metrics",
            [](const TrialHandle& h) {
                py::list out;
                for (const Metric& metric : h.trial->metrics())
                    out.append(toPy(metric.name));
                return out;
            },
            "The metric names, in the trial's order.")
        .def_property_readonly(
            "units",
            [](const TrialHandle& h) {
                py::list out;
                for (const Metric& metric : h.trial->metrics())
                    out.append(toPy(metric.unit));
                return out;
            },
            "The metrics' units ('us' for time, 'count', '' when unknown), as `metrics`.")
        .def_property_readonly(
            "threads",
            [](const TrialHandle& h) {
                py::list out;
                for (const ThreadKey& k : h.trial->threads())
                    out.append(py::make_tuple(k.node, k.context, k.thread));
                return out;
            },
            "The threads as (node, context, thread) tuples, in the trial's order.")
        .def_property_readonly(
            "metadata", [](const TrialHandle& h) { return metadataDict(*h.trial, h.trial->metadata()); },
            "The trial-wide metadata as a dict.")
        .def(
            "thread_metadata",
            [](const TrialHandle& h, int node, int context, int thread) {
                const ThreadIndex t = h.trial->findThread(ThreadKey { node, context, thread });
                if (!t.isValid())
                    throw Failure {
                        QStringLiteral("the trial has no thread %1,%2,%3").arg(node).arg(context).arg(thread)
                    };
                return metadataDict(*h.trial, h.trial->threadMetadata(t));
            },
            py::arg("node"), py::arg("context"), py::arg("thread"),
            "The metadata of one thread (its own keys only; trial.metadata has the trial-wide ones).")
        .def(
            "_events",
            [](const TrialHandle& h) {
                const Trial& t = *h.trial;
                py::list names;
                py::list groups;
                std::vector<std::int32_t> parent;
                std::vector<std::int32_t> leaf;
                std::vector<std::int32_t> depth;
                for (const IntervalEvent& e : t.events()) {
                    names.append(toPy(e.name));
                    groups.append(toPy(t.groupNames(e)));
                    parent.push_back(e.parent.isValid() ? static_cast<std::int32_t>(e.parent.index()) : -1);
                    leaf.push_back(e.leaf.isValid() ? static_cast<std::int32_t>(e.leaf.index()) : -1);
                    depth.push_back(e.depth);
                }
                return py::make_tuple(
                    names, groups, toArray(std::move(parent)), toArray(std::move(leaf)), toArray(std::move(depth)));
            },
            "(names, groups, parent, leaf, depth) of the interval events; -1 where there is none.")
        .def(
            "_user_events",
            [](const TrialHandle& h) {
                py::list names;
                py::list bases;
                py::list contexts;
                for (const AtomicEvent& e : h.trial->atomicEvents()) {
                    names.append(toPy(e.name));
                    bases.append(toPy(e.baseName));
                    contexts.append(toPy(e.context));
                }
                return py::make_tuple(names, bases, contexts);
            },
            "(names, base names, contexts) of the user (atomic) events.")
        .def(
            "_cells",
            [](const TrialHandle& h, const std::vector<int>& metrics, bool exclusive, bool inclusive, bool calls,
                bool subroutines, bool callpaths) {
                CellRequest r;
                for (const int i : metrics)
                    r.metrics.push_back(metricArgument(*h.trial, py::int_(i)));
                r.exclusive = exclusive;
                r.inclusive = inclusive;
                r.calls = calls;
                r.subroutines = subroutines;
                r.callpaths = callpaths;
                return cells(*h.trial, r);
            },
            py::arg("metrics"), py::arg("exclusive"), py::arg("inclusive"), py::arg("calls"), py::arg("subroutines"),
            py::arg("callpaths"),
            "(cells per thread, event index, values, counts) of every present cell: "
            "the values[columns, cells] per metric exclusive and inclusive (as asked); counts[columns, cells] of the "
            "calls and subroutines asked for, uint32, int64 or float64 (the narrowest that holds every value).")
        .def(
            "_user_cells", [](const TrialHandle& h) { return userCells(*h.trial); },
            "(records per thread, user event index, values[6, records]): count, max, min, mean, sd, sum of squares.")
        .def(
            "_statistics",
            [](const TrialHandle& h, const py::object& metric, const std::vector<int>& kinds) {
                for (const int k : kinds)
                    if (k < 0 || k > static_cast<int>(ValueKind::InclusivePerCall))
                        throw Failure { QStringLiteral("no value kind %1").arg(k) };
                return statistics(*h.trial, metricArgument(*h.trial, metric), kinds);
            },
            py::arg("metric"), py::arg("kinds"),
            "values[events, kinds * 8]: mean, mean_present, total, min, max, sd, sd_present, present per kind.")
        .def(
            "_call_tree", [](const TrialHandle& h) { return callTree(*h.trial); },
            "(labels, event index or -1, parent node or -1) of the call tree's nodes, parents first.")
        .def(
            "_folded",
            [](const TrialHandle& h, const py::object& metric, int statistic, const py::object& thread) {
                if (statistic < 0 || statistic >= StatisticCount)
                    throw Failure { QStringLiteral("no statistic %1").arg(statistic) };
                return toPy(folded(*h.trial, metricArgument(*h.trial, metric), statistic, thread));
            },
            py::arg("metric"), py::arg("statistic"), py::arg("thread"),
            "Folded stacks (flamegraph.pl's input) of one metric, a statistic across threads or one thread.")
        .def(
            "write",
            [](const TrialHandle& h, const std::string& path, const std::string& format) {
                QString error;
                {
                    py::gil_scoped_release release;
                    error = WriterRegistry::instance().write(*h.trial, toQ(path), toQ(format));
                }
                if (!error.isEmpty())
                    throw Failure { error };
            },
            py::arg("path"), py::arg("format") = std::string(),
            "Writes the trial: the format from the path's suffix (a directory: TAU profiles), or `format` "
            "(see parallax.formats(writers=True)).")
        .def_property_readonly(
            "cell_count", [](const TrialHandle& h) { return h.trial->cellCount(); },
            "The number of present (thread, event) cells.");
}

} // namespace parallax::python
