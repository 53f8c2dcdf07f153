// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "perfdb/trialloader.h"

#include "datasource/model/trialbuilder.h"
#include "perfdb/dbexception.h"
#include "perfdb/timername.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <thread>

namespace parallax::perfdb {

namespace {

constexpr qint64 ProgressStep = 65536;

QStringList fromJsonArray(const QString& text)
{
    QStringList out;
    const QJsonArray array = QJsonDocument::fromJson(text.toUtf8()).array();
    for (const auto& value : array)
        out.append(value.toString());
    return out;
}

/// Where a timer_call_data row's cell lives: thread and position in that thread's row.
struct CellSlot {
    std::uint32_t thread = 0;
    std::uint32_t position = 0;
};

/// One thread's cells while loading: values cell-major ([cell][metric]), transposed at the end.
struct ThreadCells {
    std::vector<EventId> events;
    std::vector<double> calls;
    std::vector<double> subrs;
    std::vector<double> excl;
    std::vector<double> incl;
    std::vector<double> squares;
    bool hasSquares = false;
};

/// The timer_call_data ids of the loaded cells, sorted, with their places; values are matched to
/// them by walking forward (the value rows come in id order) or by a binary search otherwise.
struct CellList {
    std::vector<qint64> ids;
    std::vector<CellSlot> places;
    std::size_t cursor = 0;

    void sort()
    {
        if (std::is_sorted(ids.begin(), ids.end()))
            return;
        std::vector<std::uint32_t> order(ids.size());
        for (std::uint32_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(), [&](auto a, auto b) { return ids[a] < ids[b]; });
        std::vector<qint64> sortedIds(ids.size());
        std::vector<CellSlot> sortedPlaces(ids.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            sortedIds[i] = ids[order[i]];
            sortedPlaces[i] = places[order[i]];
        }
        ids = std::move(sortedIds);
        places = std::move(sortedPlaces);
    }
    /// The place of a cell id, or nullptr when it is not one of the trial's cells.
    const CellSlot* find(qint64 id)
    {
        if (cursor < ids.size() && ids[cursor] == id)
            return &places[cursor];
        if (cursor + 1 < ids.size() && ids[cursor + 1] == id)
            return &places[++cursor];
        const auto it = std::lower_bound(ids.begin(), ids.end(), id);
        if (it == ids.end() || *it != id)
            return nullptr;
        cursor = static_cast<std::size_t>(it - ids.begin());
        return &places[cursor];
    }
};

/// Values read by the parallel stream, indexed by (cell id - first id) * metrics + metric.
struct DenseValues {
    std::vector<double> excl;
    std::vector<double> incl;
    std::vector<double> squares;
    std::vector<std::uint8_t> flags; ///< 1: a value row was read, 2: it had a SumExclSqr
};

/// Metric-major copy ([metric][cell]) of a cell-major array ([cell][metric]).
std::vector<double> transposed(std::vector<double>& cellMajor, std::size_t cells, std::size_t metrics)
{
    if (metrics <= 1)
        return std::move(cellMajor);
    std::vector<double> out(cellMajor.size());
    for (std::size_t i = 0; i < cells; ++i)
        for (std::size_t m = 0; m < metrics; ++m)
            out[m * cells + i] = cellMajor[i * metrics + m];
    return out;
}

const char* const CellsById = "SELECT id, thread, timer_callpath, calls, subroutines FROM timer_call_data "
                              "WHERE id BETWEEN $1 AND $2";
const char* const CellsByThread = "SELECT id, thread, timer_callpath, calls, subroutines FROM timer_call_data "
                                  "WHERE thread BETWEEN $1 AND $2";
const char* const ValuesById = "SELECT timer_call_data, metric, exclusive_value, inclusive_value, "
                               "sum_exclusive_squared FROM timer_value WHERE timer_call_data BETWEEN $1 AND $2";

} // namespace

TrialLoader::TrialLoader(SqlDatabase& db, qint64 id, Progress& progress)
    : m_db(db)
    , m_id(id)
    , m_progress(progress)
{
}

TrialLoader::~TrialLoader() = default;

void TrialLoader::stage(const QString& name)
{
    if (m_progress.isCancelled())
        throw DbException(QStringLiteral("loading cancelled"), DbException::Kind::Cancelled);
    m_progress.setStage(QStringLiteral("Loading: ") + name, 0);
}

void TrialLoader::countRow()
{
    if (++m_rows % ProgressStep != 0)
        return;
    m_progress.advance(ProgressStep);
    if (m_progress.isCancelled())
        throw DbException(QStringLiteral("loading cancelled"), DbException::Kind::Cancelled);
}

std::shared_ptr<Trial> TrialLoader::run()
{
    stage(QStringLiteral("structure"));
    loadTrial();
    loadMetrics();
    loadThreads();
    loadEvents();
    stage(QStringLiteral("call data"));
    loadCells();
    stage(QStringLiteral("user events"));
    loadUserEvents();
    stage(QStringLiteral("metadata"));
    loadMetadata();
    stage(QStringLiteral("building the trial"));
    return m_builder->build();
}

double TrialLoader::value(const SqlRows& rows, int column) const
{
    // A NULL reads as 0: ask about NULL only then (one call less per value on the hot path).
    const double x = rows.toDouble(column);
    return x == 0 && rows.isNull(column) ? m_nullValue : x;
}

void TrialLoader::loadTrial()
{
    auto rows = m_db.query("SELECT name FROM trial WHERE id = $1", { m_id });
    if (!rows->next())
        throw DbException(QStringLiteral("there is no trial %1").arg(m_id));
    m_builder = std::make_unique<TrialBuilder>(rows->toText(0));
    rows.reset();
    Provenance provenance;
    provenance.operation = QStringLiteral("read");
    provenance.reader = QStringLiteral("perfdb");
    provenance.source = m_db.location() + QLatin1Char('#') + QString::number(m_id);
    m_builder->setProvenance(provenance);

    // Written by Parallax? Then parallax_trial has the exact groups and metadata keys.
    if (!m_db.tableExists("parallax_trial"))
        return;
    rows = m_db.query("SELECT groups, metadata_keys, hidden_keys, call_data_first, call_data_last "
                      "FROM parallax_trial WHERE trial = $1",
        { m_id });
    if (!rows->next())
        return;
    m_ours = true;
    for (const QString& group : fromJsonArray(rows->toText(0)))
        m_builder->addGroup(group);
    m_metadataKeys = fromJsonArray(rows->toText(1));
    m_hiddenKeys = fromJsonArray(rows->toText(2));
    m_cellRange = !rows->isNull(3) && !rows->isNull(4);
    m_firstCell = rows->toInt(3);
    m_lastCell = rows->toInt(4);
    // SQLite stores NaN as NULL; in a trial Parallax wrote, a NULL value can only be a NaN.
    m_nullValue = std::numeric_limits<double>::quiet_NaN();
}

void TrialLoader::loadMetrics()
{
    auto rows = m_ours
        ? m_db.query("SELECT m.id, m.name, m.derived, p.unit, p.expression, p.higher_is_better "
                     "FROM metric m LEFT JOIN parallax_metric p ON p.metric = m.id "
                     "WHERE m.trial = $1 ORDER BY m.id",
            { m_id })
        : m_db.query("SELECT m.id, m.name, m.derived FROM metric m WHERE m.trial = $1 ORDER BY m.id", { m_id });
    std::vector<std::pair<qint64, std::uint32_t>> ids;
    while (rows->next()) {
        Metric metric;
        metric.name = rows->toText(1);
        metric.derived = !rows->isNull(2) && rows->toInt(2) != 0;
        if (m_ours && !rows->isNull(3)) {
            metric.unit = rows->toText(3);
            if (!rows->isNull(4))
                metric.expression = rows->toText(4);
            metric.higherIsBetter = rows->toInt(5) != 0;
        } else {
            // The TAU reader's rule (docs/FORMATS.md 1.1).
            metric.unit = metric.name.toUpper().contains(QLatin1String("TIME")) ? QStringLiteral("us")
                                                                                : QStringLiteral("count");
        }
        ids.emplace_back(rows->toInt(0), static_cast<std::uint32_t>(ids.size()));
        m_builder->addMetric(metric);
    }
    m_metrics = ids.size();
    m_metricIndex.build(ids);
}

void TrialLoader::loadThreads()
{
    // Real threads (thread_index >= 0), in (node, context, thread) order, so the builder keeps them
    // as they come.
    auto rows = m_db.query("SELECT id, node_rank, context_rank, thread_rank FROM thread "
                           "WHERE trial = $1 AND thread_index >= 0 ORDER BY node_rank, context_rank, thread_rank, id",
        { m_id });
    std::vector<std::pair<qint64, std::uint32_t>> ids;
    while (rows->next()) {
        const qint64 id = rows->toInt(0);
        const ThreadIndex t = m_builder->addThread(
            { static_cast<int>(rows->toInt(1)), static_cast<int>(rows->toInt(2)), static_cast<int>(rows->toInt(3)) });
        ids.emplace_back(id, t.index());
        m_firstThread = ids.size() == 1 ? id : std::min(m_firstThread, id);
        m_lastThread = ids.size() == 1 ? id : std::max(m_lastThread, id);
    }
    m_threads = m_builder->threadCount();
    m_threadIndex.build(ids);
}

const QString& TrialLoader::nodeName(std::size_t i, int depth)
{
    // Names re-joined with " => " along the timer_callpath parents.
    Node& node = m_nodes[i];
    if (!node.name.isNull())
        return node.name;
    const QString leaf = m_timerNames.value(node.timer);
    const auto parent = m_nodeIndex.constFind(node.parent);
    if (node.parent < 0 || parent == m_nodeIndex.cend() || depth > 10000)
        node.name = leaf;
    else
        node.name = nodeName(parent.value(), depth + 1) + QStringLiteral(" => ") + leaf;
    return node.name;
}

void TrialLoader::loadEvents()
{
    {
        // A timer whose name has no [{file} ...] block but whose row has a location (the uploader
        // writes the event's other location there, docs/FORMATS.md 7.4) gives it to its events.
        auto rows = m_db.query("SELECT id, name, source_file, line_number, line_number_end, column_number, "
                               "column_number_end FROM timer WHERE trial = $1",
            { m_id });
        while (rows->next()) {
            const qint64 timer = rows->toInt(0);
            const QString name = rows->toText(1);
            m_timerNames.insert(timer, name);
            if (rows->isNull(2) || rows->toText(2).isEmpty() || TimerName(name).hasSourceFile())
                continue;
            SourceLocation location;
            location.file = rows->toText(2);
            const auto number = [&](int column) { return rows->isNull(column) ? 0 : int(rows->toInt(column)); };
            location.beginLine = number(3);
            location.endLine = number(4);
            location.beginColumn = number(5);
            location.endColumn = number(6);
            m_timerLocations.insert(timer, location);
        }
    }
    {
        auto rows = m_db.query("SELECT c.id, c.timer, c.parent FROM timer_callpath c JOIN timer t ON c.timer = t.id "
                               "WHERE t.trial = $1 ORDER BY c.id",
            { m_id });
        while (rows->next()) {
            Node node;
            node.id = rows->toInt(0);
            node.timer = rows->toInt(1);
            node.parent = rows->isNull(2) ? -1 : rows->toInt(2);
            m_nodeIndex.insert(node.id, m_nodes.size());
            m_nodes.push_back(node);
        }
    }
    if (m_ours) {
        // The model's events in id order, with raw names and exact groups (parallax_event).
        auto rows = m_db.query("SELECT timer_callpath, raw_name, groups FROM parallax_event WHERE trial = $1 "
                               "ORDER BY position",
            { m_id });
        while (rows->next()) {
            const auto node = m_nodeIndex.constFind(rows->toInt(0));
            if (node == m_nodeIndex.cend())
                throw DbException(QStringLiteral("trial %1: an event refers to a missing call-path node").arg(m_id));
            const QString raw = rows->isNull(1) ? QString() : rows->toText(1);
            m_nodes[node.value()].event
                = m_builder->addEvent(nodeName(node.value()), fromJsonArray(rows->toText(2)), raw);
        }
        setSourceLocations();
        return;
    }
    // A foreign trial: every node is an event; flat timers carry timer_group, call paths get
    // TAU_CALLPATH and their leaf timer's groups.
    QHash<qint64, QStringList> groups;
    auto rows = m_db.query(
        "SELECT g.timer, g.group_name FROM timer_group g JOIN timer t ON g.timer = t.id WHERE t.trial = $1", { m_id });
    while (rows->next())
        groups[rows->toInt(0)].append(rows->toText(1));
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        QStringList eventGroups = groups.value(m_nodes[i].timer);
        if (m_nodes[i].parent >= 0 && !eventGroups.contains(QLatin1String("TAU_CALLPATH")))
            eventGroups.prepend(QStringLiteral("TAU_CALLPATH"));
        m_nodes[i].event = m_builder->addEvent(nodeName(i), eventGroups);
    }
    setSourceLocations();
}

void TrialLoader::setSourceLocations()
{
    if (m_timerLocations.isEmpty())
        return;
    for (const Node& node : m_nodes) {
        const auto location = m_timerLocations.constFind(node.timer);
        if (node.event.isValid() && location != m_timerLocations.cend())
            m_builder->setSourceLocation(node.event, location.value());
    }
}

void TrialLoader::loadCells()
{
    std::vector<std::pair<qint64, std::uint32_t>> nodeEvents;
    for (const Node& node : m_nodes)
        if (node.event.isValid())
            nodeEvents.emplace_back(node.id, node.event.index());
    IdMap eventOfNode;
    eventOfNode.build(nodeEvents);
    const std::size_t metrics = m_metrics;

    // Two ordered scans instead of a join: the cells (one id range for a trial Parallax wrote,
    // the trial's thread range otherwise), then their values by timer_call_data id. When the
    // backend can read twice at once (PostgreSQL), the values of a Parallax trial are read on a
    // second connection and thread, into arrays indexed by cell id, while this one reads the cells.
    DenseValues dense;
    const qint64 span = m_cellRange ? m_lastCell - m_firstCell + 1 : 0;
    std::unique_ptr<SqlRows> parallel;
    const auto bound = 2 * static_cast<quint64>(m_threads) * std::max<quint64>(m_nodes.size(), 1);
    if (span > 0 && metrics > 0 && static_cast<quint64>(span) <= bound)
        parallel = m_db.parallelStream(ValuesById, { m_firstCell, m_lastCell });
    std::thread reader;
    QString readerError;
    std::atomic<bool> stop { false };
    if (parallel) {
        const std::size_t size = static_cast<std::size_t>(span) * metrics;
        dense.excl.assign(size, 0.0);
        dense.incl.assign(size, 0.0);
        dense.squares.assign(size, 0.0);
        dense.flags.assign(size, 0);
        reader = std::thread([&] {
            try {
                SqlRows& rows = *parallel;
                while (!stop.load(std::memory_order_relaxed) && rows.next()) {
                    const qint64 id = rows.toInt(0);
                    const std::uint32_t metric = m_metricIndex.find(rows.toInt(1));
                    if (id < m_firstCell || id > m_lastCell || metric == IdMap::Missing)
                        continue;
                    const std::size_t at = static_cast<std::size_t>(id - m_firstCell) * metrics + metric;
                    dense.excl[at] = value(rows, 2);
                    dense.incl[at] = value(rows, 3);
                    dense.flags[at] = 1;
                    if (!rows.isNull(4)) {
                        dense.squares[at] = rows.toDouble(4);
                        dense.flags[at] = 3;
                    }
                }
            } catch (const DbException& e) {
                readerError = e.message();
            }
        });
    }
    // The reader thread is joined (and its connection released) whatever happens below.
    struct Join {
        std::thread& thread;
        std::atomic<bool>& stop;
        std::unique_ptr<SqlRows>& rows;
        ~Join()
        {
            stop = true;
            if (thread.joinable())
                thread.join();
            rows.reset();
        }
    } join { reader, stop, parallel };

    std::vector<ThreadCells> cells(m_threads);
    CellList list;
    if (span > 0 && static_cast<quint64>(span) <= bound) {
        list.ids.reserve(static_cast<std::size_t>(span));
        list.places.reserve(static_cast<std::size_t>(span));
    }
    if (m_threads > 0) {
        auto rows = m_cellRange ? m_db.stream(CellsById, { m_firstCell, m_lastCell })
                                : m_db.stream(CellsByThread, { m_firstThread, m_lastThread });
        while (rows->next()) {
            countRow();
            const std::uint32_t thread = m_threadIndex.find(rows->toInt(1));
            const std::uint32_t event = eventOfNode.find(rows->toInt(2));
            if (thread == IdMap::Missing || event == IdMap::Missing)
                continue;
            ThreadCells& c = cells[thread];
            list.ids.push_back(rows->toInt(0));
            list.places.push_back({ thread, static_cast<std::uint32_t>(c.events.size()) });
            c.events.push_back(EventId(event));
            c.calls.push_back(rows->toDouble(3)); // NULL reads as 0
            c.subrs.push_back(rows->toDouble(4));
        }
    }
    for (ThreadCells& c : cells) {
        c.excl.assign(c.events.size() * metrics, 0.0);
        c.incl.assign(c.events.size() * metrics, 0.0);
        c.squares.assign(c.events.size() * metrics, 0.0);
    }

    stage(QStringLiteral("values"));
    if (parallel) {
        if (reader.joinable())
            reader.join();
        parallel.reset();
        if (!readerError.isEmpty())
            throw DbException(readerError);
        for (std::size_t k = 0; k < list.ids.size(); ++k) {
            const CellSlot& slot = list.places[k];
            ThreadCells& c = cells[slot.thread];
            const std::size_t from = static_cast<std::size_t>(list.ids[k] - m_firstCell) * metrics;
            const std::size_t to = static_cast<std::size_t>(slot.position) * metrics;
            for (std::size_t m = 0; m < metrics; ++m) {
                if (!(dense.flags[from + m] & 1))
                    continue;
                c.excl[to + m] = dense.excl[from + m];
                c.incl[to + m] = dense.incl[from + m];
                if (dense.flags[from + m] & 2) {
                    c.squares[to + m] = dense.squares[from + m];
                    c.hasSquares = true;
                }
            }
        }
        m_rows += static_cast<qint64>(list.ids.size() * metrics);
        dense = DenseValues();
    } else if (!list.ids.empty()) {
        list.sort();
        auto rows = valueRows(list.ids.front(), list.ids.back());
        while (rows->next()) {
            countRow();
            const CellSlot* slot = list.find(rows->toInt(0));
            const std::uint32_t metric = slot ? m_metricIndex.find(rows->toInt(1)) : IdMap::Missing;
            if (metric == IdMap::Missing)
                continue;
            ThreadCells& c = cells[slot->thread];
            const std::size_t at = static_cast<std::size_t>(slot->position) * metrics + metric;
            c.excl[at] = value(*rows, 2);
            c.incl[at] = value(*rows, 3);
            if (!rows->isNull(4)) {
                c.squares[at] = rows->toDouble(4);
                c.hasSquares = true;
            }
        }
    }
    list = CellList();

    std::vector<IntervalRow> intervalRows(m_threads);
    for (std::size_t t = 0; t < m_threads; ++t) {
        ThreadCells& c = cells[t];
        IntervalRow& row = intervalRows[t];
        const std::size_t n = c.events.size();
        row.events = std::move(c.events);
        row.calls = std::move(c.calls);
        row.subrs = std::move(c.subrs);
        row.excl = transposed(c.excl, n, metrics);
        row.incl = transposed(c.incl, n, metrics);
        if (c.hasSquares)
            row.exclSqr = transposed(c.squares, n, metrics);
        c = ThreadCells();
    }
    m_builder->setIntervalRows(std::move(intervalRows));
}

std::unique_ptr<SqlRows> TrialLoader::valueRows(qint64 firstCell, qint64 lastCell)
{
    if (m_cellRange && m_db.dialect() == SqlDatabase::Dialect::Sqlite) {
        // SQLite gives the timer_value rows of one upload consecutive rowids, in cell order: find
        // the range with two index probes, then read the table in rowid order instead of going
        // through the index (rows of other cells in the range are skipped by the caller).
        auto range = m_db.query("SELECT (SELECT MIN(rowid) FROM timer_value WHERE timer_call_data = $1), "
                                "(SELECT MAX(rowid) FROM timer_value WHERE timer_call_data = $2)",
            { firstCell, lastCell });
        if (range->next() && !range->isNull(0) && !range->isNull(1)) {
            const qint64 first = range->toInt(0);
            const qint64 last = range->toInt(1);
            range.reset();
            return m_db.stream("SELECT timer_call_data, metric, exclusive_value, inclusive_value, "
                               "sum_exclusive_squared FROM timer_value WHERE rowid BETWEEN $1 AND $2",
                { first, last });
        }
    }
    return m_db.stream(ValuesById, { firstCell, lastCell });
}

void TrialLoader::loadUserEvents()
{
    // TAUdb counters and their values on real threads.
    QHash<qint64, AtomicEventId> counters;
    {
        auto rows = m_ours
            ? m_db.query("SELECT c.id, c.name, p.raw_name FROM counter c "
                         "LEFT JOIN parallax_counter p ON p.counter = c.id WHERE c.trial = $1 ORDER BY c.id",
                { m_id })
            : m_db.query("SELECT c.id, c.name FROM counter c WHERE c.trial = $1 ORDER BY c.id", { m_id });
        while (rows->next()) {
            const QString raw = m_ours && !rows->isNull(2) ? rows->toText(2) : QString();
            counters.insert(rows->toInt(0), m_builder->addAtomicEvent(rows->toText(1), raw));
        }
    }
    std::vector<AtomicRow> atomicRows(m_threads);
    // counter_value.standard_deviation is the sum of squares, in a TAU trial and in a Parallax one
    // alike (docs/FORMATS.md 7.2); a Parallax trial keeps explicit deviations (algebra results) in
    // parallax_counter_deviation, for every record of the threads that have them.
    std::vector<std::vector<double>> sds(m_threads); ///< explicit deviations, per record
    std::vector<std::vector<char>> hasSd(m_threads); ///< whether the record has one
    std::vector<char> anyExplicit(m_threads, 0);
    if (!counters.isEmpty()) {
        auto rows = m_ours
            ? m_db.stream("SELECT v.counter, v.thread, v.sample_count, v.maximum_value, v.minimum_value, "
                          "v.mean_value, v.standard_deviation, d.standard_deviation, d.thread FROM counter_value v "
                          "LEFT JOIN parallax_counter_deviation d ON d.counter = v.counter AND d.thread = v.thread "
                          "WHERE v.counter IN (SELECT id FROM counter WHERE trial = $1)",
                { m_id })
            : m_db.stream("SELECT v.counter, v.thread, v.sample_count, v.maximum_value, v.minimum_value, "
                          "v.mean_value, v.standard_deviation FROM counter_value v "
                          "WHERE v.counter IN (SELECT id FROM counter WHERE trial = $1)",
                { m_id });
        while (rows->next()) {
            countRow();
            const std::uint32_t thread = m_threadIndex.find(rows->toInt(1));
            const auto counter = counters.constFind(rows->toInt(0));
            if (thread == IdMap::Missing || counter == counters.cend())
                continue;
            const auto value = [&](int column) { return rows->isNull(column) ? m_nullValue : rows->toDouble(column); };
            const bool explicitSd = m_ours && !rows->isNull(8);
            AtomicRow& row = atomicRows[thread];
            row.events.push_back(counter.value());
            row.count.push_back(value(2));
            row.max.push_back(value(3));
            row.min.push_back(value(4));
            row.mean.push_back(value(5));
            row.sumSquares.push_back(value(6));
            sds[thread].push_back(explicitSd ? value(7) : 0.0);
            hasSd[thread].push_back(explicitSd ? 1 : 0);
            anyExplicit[thread] = anyExplicit[thread] || explicitSd;
        }
        for (std::size_t t = 0; t < atomicRows.size(); ++t) {
            if (!anyExplicit[t])
                continue;
            AtomicRow& row = atomicRows[t];
            // A record without one (none is written so) gets the deviation of its sum of squares.
            for (std::size_t i = 0; i < row.size(); ++i)
                if (!hasSd[t][i])
                    sds[t][i] = row.stddev(i);
            row.stdDev = std::move(sds[t]);
        }
    }
    m_builder->setAtomicRows(std::move(atomicRows));
}

void TrialLoader::loadMetadata()
{
    // primary_metadata is trial-wide (without the keys the upload added); secondary_metadata rows
    // with a thread are per-thread, in the order of their ids (the model's order for a trial
    // Parallax wrote).
    {
        QHash<QString, QString> primary;
        QStringList order;
        auto rows = m_db.query("SELECT name, value FROM primary_metadata WHERE trial = $1 ORDER BY name", { m_id });
        while (rows->next()) {
            const QString key = rows->toText(0);
            if (m_hiddenKeys.contains(key) || primary.contains(key))
                continue;
            primary.insert(key, rows->toText(1));
            order.append(key);
        }
        // The model's keys in the model's order, then keys set since (setMetadata) by name.
        for (const QString& key : std::as_const(m_metadataKeys))
            if (primary.contains(key))
                m_builder->addMetadata(key, primary.value(key));
        for (const QString& key : std::as_const(order))
            if (!m_metadataKeys.contains(key))
                m_builder->addMetadata(key, primary.value(key));
    }
    auto rows = m_db.stream(
        "SELECT thread, name, value FROM secondary_metadata WHERE trial = $1 ORDER BY thread, id", { m_id });
    while (rows->next()) {
        countRow();
        const QString value = rows->toText(2);
        if (rows->isNull(0)) {
            m_builder->addMetadata(rows->toText(1), value);
            continue;
        }
        const std::uint32_t thread = m_threadIndex.find(rows->toInt(0));
        if (thread != IdMap::Missing)
            m_builder->addThreadMetadata(ThreadIndex(thread), rows->toText(1), value, true);
    }
}

} // namespace parallax::perfdb
