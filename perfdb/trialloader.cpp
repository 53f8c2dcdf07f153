#include "perfdb/trialloader.h"

#include "datasource/model/trialbuilder.h"
#include "perfdb/dbexception.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <thread>

namespace parallax::perfdb {

namespace {

    constexpr qint64 CancelPoll = 65536;

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

    /// Maps database ids to small indexes: a plain vector when the ids are dense (as Parallax writes
    /// them), a hash otherwise.
    class IdMap {
    public:
        void build(const std::vector<std::pair<qint64, std::uint32_t>>& pairs)
        {
            if (pairs.empty())
                return;
            qint64 low = pairs.front().first;
            qint64 high = low;
            for (const auto& [id, index] : pairs) {
                low = std::min(low, id);
                high = std::max(high, id);
            }
            const auto span = static_cast<quint64>(high - low);
            if (span < 4 * pairs.size() + 4096) {
                m_base = low;
                m_dense.assign(static_cast<std::size_t>(span + 1), Missing);
                for (const auto& [id, index] : pairs)
                    m_dense[static_cast<std::size_t>(id - low)] = index;
            } else {
                m_hashed = true;
                for (const auto& [id, index] : pairs)
                    m_hash.insert(id, index);
            }
        }
        /// The index of an id, or Missing.
        std::uint32_t find(qint64 id) const
        {
            if (m_hashed)
                return m_hash.value(id, Missing);
            if (id < m_base || id - m_base >= static_cast<qint64>(m_dense.size()))
                return Missing;
            return m_dense[static_cast<std::size_t>(id - m_base)];
        }
        static constexpr std::uint32_t Missing = std::numeric_limits<std::uint32_t>::max();

    private:
        qint64 m_base = 0;
        std::vector<std::uint32_t> m_dense;
        bool m_hashed = false;
        QHash<qint64, std::uint32_t> m_hash;
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
        /// The slot of a cell id, or nullptr when it is not one of the trial's cells.
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

} // namespace

TrialLoader::TrialLoader(SqlDatabase& db, qint64 id, Progress& progress)
    : m_db(db)
    , m_id(id)
    , m_progress(progress)
{
}

void TrialLoader::checkCancel() const
{
    if (m_progress.isCancelled())
        throw DbException(QStringLiteral("loading cancelled"), DbException::Kind::Cancelled);
}

std::shared_ptr<Trial> TrialLoader::run()
{
    m_progress.setStage(QStringLiteral("Loading: structure"), 0);
    QString trialName;
    {
        auto rows = m_db.query("SELECT name FROM trial WHERE id = $1", { m_id });
        if (!rows->next())
            throw DbException(QStringLiteral("there is no trial %1").arg(m_id));
        trialName = rows->toText(0);
    }
    TrialBuilder builder(trialName);
    Provenance provenance;
    provenance.operation = QStringLiteral("read");
    provenance.reader = QStringLiteral("perfdb");
    provenance.source = m_db.location() + QLatin1Char('#') + QString::number(m_id);
    builder.setProvenance(provenance);

    // Written by Parallax? Then parallax_trial has the exact groups and metadata keys.
    const bool sideTables = m_db.tableExists("parallax_trial");
    bool ours = false;
    bool cellRange = false;
    qint64 firstCell = 0;
    qint64 lastCell = 0;
    QStringList metadataKeys;
    QStringList hiddenKeys;
    if (sideTables) {
        auto rows = m_db.query("SELECT groups, metadata_keys, hidden_keys, call_data_first, call_data_last "
                               "FROM parallax_trial WHERE trial = $1",
            { m_id });
        if (rows->next()) {
            ours = true;
            for (const QString& group : fromJsonArray(rows->toText(0)))
                builder.addGroup(group);
            metadataKeys = fromJsonArray(rows->toText(1));
            hiddenKeys = fromJsonArray(rows->toText(2));
            cellRange = !rows->isNull(3) && !rows->isNull(4);
            firstCell = rows->toInt(3);
            lastCell = rows->toInt(4);
        }
    }
    // SQLite stores NaN as NULL; in a trial Parallax wrote, a NULL value can only be a NaN.
    const double nullValue = ours ? std::numeric_limits<double>::quiet_NaN() : 0.0;

    // Metrics, in id order.
    QHash<qint64, std::size_t> metricIndex;
    {
        auto rows = ours
            ? m_db.query("SELECT m.id, m.name, m.derived, p.unit, p.expression, p.higher_is_better "
                         "FROM metric m LEFT JOIN parallax_metric p ON p.metric = m.id "
                         "WHERE m.trial = $1 ORDER BY m.id",
                { m_id })
            : m_db.query("SELECT m.id, m.name, m.derived FROM metric m WHERE m.trial = $1 ORDER BY m.id", { m_id });
        while (rows->next()) {
            Metric metric;
            metric.name = rows->toText(1);
            metric.derived = !rows->isNull(2) && rows->toInt(2) != 0;
            if (ours && !rows->isNull(3)) {
                metric.unit = rows->toText(3);
                if (!rows->isNull(4))
                    metric.expression = rows->toText(4);
                metric.higherIsBetter = rows->toInt(5) != 0;
            } else {
                // The TAU reader's rule (FORMATS.md 1.1).
                metric.unit = metric.name.toUpper().contains(QLatin1String("TIME")) ? QStringLiteral("us")
                                                                                    : QStringLiteral("count");
            }
            metricIndex.insert(rows->toInt(0), metricIndex.size());
            builder.addMetric(metric);
        }
    }
    const std::size_t metrics = static_cast<std::size_t>(metricIndex.size());

    // Real threads (thread_index >= 0), in (node, context, thread) order.
    std::vector<std::pair<qint64, std::uint32_t>> threadIds;
    qint64 firstThreadId = std::numeric_limits<qint64>::max();
    qint64 lastThreadId = std::numeric_limits<qint64>::min();
    {
        auto rows
            = m_db.query("SELECT id, node_rank, context_rank, thread_rank FROM thread "
                         "WHERE trial = $1 AND thread_index >= 0 ORDER BY node_rank, context_rank, thread_rank, id",
                { m_id });
        while (rows->next()) {
            const qint64 id = rows->toInt(0);
            const ThreadIndex t = builder.addThread({ static_cast<int>(rows->toInt(1)),
                static_cast<int>(rows->toInt(2)), static_cast<int>(rows->toInt(3)) });
            threadIds.emplace_back(id, t.index());
            firstThreadId = std::min(firstThreadId, id);
            lastThreadId = std::max(lastThreadId, id);
        }
    }
    const std::size_t threads = builder.threadCount();
    IdMap threadIndex;
    threadIndex.build(threadIds);

    // Timers and the call-path tree; names re-joined with " => " from the parents.
    QHash<qint64, QString> timerNames;
    {
        auto rows = m_db.query("SELECT id, name FROM timer WHERE trial = $1", { m_id });
        while (rows->next())
            timerNames.insert(rows->toInt(0), rows->toText(1));
    }
    struct Node {
        qint64 id = 0;
        qint64 timer = 0;
        qint64 parent = -1;
        QString name;
        EventId event;
    };
    std::vector<Node> nodes;
    QHash<qint64, std::size_t> nodeIndex;
    {
        auto rows = m_db.query("SELECT c.id, c.timer, c.parent FROM timer_callpath c JOIN timer t ON c.timer = t.id "
                               "WHERE t.trial = $1 ORDER BY c.id",
            { m_id });
        while (rows->next()) {
            Node node;
            node.id = rows->toInt(0);
            node.timer = rows->toInt(1);
            node.parent = rows->isNull(2) ? -1 : rows->toInt(2);
            nodeIndex.insert(node.id, nodes.size());
            nodes.push_back(node);
        }
    }
    std::function<const QString&(std::size_t, int)> nodeName = [&](std::size_t i, int depth) -> const QString& {
        Node& node = nodes[i];
        if (!node.name.isNull())
            return node.name;
        const QString leaf = timerNames.value(node.timer);
        const auto parent = nodeIndex.constFind(node.parent);
        if (node.parent < 0 || parent == nodeIndex.cend() || depth > 10000)
            node.name = leaf;
        else
            node.name = nodeName(parent.value(), depth + 1) + QStringLiteral(" => ") + leaf;
        return node.name;
    };

    if (ours) {
        auto rows = m_db.query("SELECT timer_callpath, raw_name, groups FROM parallax_event WHERE trial = $1 "
                               "ORDER BY position",
            { m_id });
        while (rows->next()) {
            const auto node = nodeIndex.constFind(rows->toInt(0));
            if (node == nodeIndex.cend())
                throw DbException(QStringLiteral("trial %1: an event refers to a missing call-path node").arg(m_id));
            const QString raw = rows->isNull(1) ? QString() : rows->toText(1);
            nodes[node.value()].event
                = builder.addEvent(nodeName(node.value(), 0), fromJsonArray(rows->toText(2)), raw);
        }
    } else {
        // A foreign trial: every node is an event; flat timers carry timer_group, call paths get
        // TAU_CALLPATH and their leaf timer's groups.
        QHash<qint64, QStringList> groups;
        auto rows = m_db.query("SELECT g.timer, g.group_name FROM timer_group g JOIN timer t ON g.timer = t.id "
                               "WHERE t.trial = $1",
            { m_id });
        while (rows->next())
            groups[rows->toInt(0)].append(rows->toText(1));
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            QStringList eventGroups = groups.value(nodes[i].timer);
            if (nodes[i].parent >= 0 && !eventGroups.contains(QLatin1String("TAU_CALLPATH")))
                eventGroups.prepend(QStringLiteral("TAU_CALLPATH"));
            nodes[i].event = builder.addEvent(nodeName(i, 0), eventGroups);
        }
    }

    // Call data and values: one scan over the trial's threads.
    checkCancel();
    m_progress.setStage(QStringLiteral("Loading: call data"), 0);
    std::vector<ThreadCells> cells(threads);
    std::vector<std::pair<qint64, std::uint32_t>> nodeEvents;
    for (const Node& node : nodes)
        if (node.event.isValid())
            nodeEvents.emplace_back(node.id, node.event.index());
    IdMap eventOfNode;
    eventOfNode.build(nodeEvents);
    std::vector<std::pair<qint64, std::uint32_t>> metricIds;
    for (auto it = metricIndex.cbegin(); it != metricIndex.cend(); ++it)
        metricIds.emplace_back(it.key(), static_cast<std::uint32_t>(it.value()));
    IdMap metricOf;
    metricOf.build(metricIds);
    // Two ordered scans instead of a join: the cells (one id range for a trial Parallax wrote,
    // the trial's thread range otherwise), then their values by timer_call_data id. When the
    // backend can read twice at once (PostgreSQL), the values of a Parallax trial are read on a
    // second connection and thread into arrays indexed by cell id, while this one reads the cells.
    const char* valuesSql = "SELECT timer_call_data, metric, exclusive_value, inclusive_value, "
                            "sum_exclusive_squared FROM timer_value WHERE timer_call_data BETWEEN $1 AND $2";
    struct Dense {
        std::vector<double> excl;
        std::vector<double> incl;
        std::vector<double> squares;
        std::vector<std::uint8_t> flags; ///< 1: a value row was read, 2: it had a SumExclSqr
    } dense;
    const qint64 span = cellRange ? lastCell - firstCell + 1 : 0;
    std::unique_ptr<SqlRows> parallel;
    if (cellRange && span > 0 && metrics > 0
        && static_cast<quint64>(span) <= 2 * static_cast<quint64>(threads) * std::max<std::size_t>(nodes.size(), 1))
        parallel = m_db.parallelStream(valuesSql, { firstCell, lastCell });
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
                    const std::uint32_t metric = metricOf.find(rows.toInt(1));
                    if (id < firstCell || id > lastCell || metric == IdMap::Missing)
                        continue;
                    const std::size_t at = static_cast<std::size_t>(id - firstCell) * metrics + metric;
                    dense.excl[at] = rows.isNull(2) ? nullValue : rows.toDouble(2);
                    dense.incl[at] = rows.isNull(3) ? nullValue : rows.toDouble(3);
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
    // The reader thread must be joined (and its connection released) whatever happens here.
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
    CellList list;
    if (threads > 0) {
        auto rows = cellRange
            ? m_db.stream("SELECT id, thread, timer_callpath, calls, subroutines FROM timer_call_data "
                          "WHERE id BETWEEN $1 AND $2",
                { firstCell, lastCell })
            : m_db.stream("SELECT id, thread, timer_callpath, calls, subroutines FROM timer_call_data "
                          "WHERE thread BETWEEN $1 AND $2",
                { firstThreadId, lastThreadId });
        while (rows->next()) {
            if (++m_rows % CancelPoll == 0) {
                m_progress.advance(CancelPoll);
                checkCancel();
            }
            const std::uint32_t thread = threadIndex.find(rows->toInt(1));
            const std::uint32_t event = eventOfNode.find(rows->toInt(2));
            if (thread == IdMap::Missing || event == IdMap::Missing)
                continue;
            ThreadCells& c = cells[thread];
            list.ids.push_back(rows->toInt(0));
            list.places.push_back({ thread, static_cast<std::uint32_t>(c.events.size()) });
            c.events.push_back(EventId(event));
            c.calls.push_back(rows->isNull(3) ? 0.0 : rows->toDouble(3));
            c.subrs.push_back(rows->isNull(4) ? 0.0 : rows->toDouble(4));
        }
    }
    for (ThreadCells& c : cells) {
        c.excl.assign(c.events.size() * metrics, 0.0);
        c.incl.assign(c.events.size() * metrics, 0.0);
        c.squares.assign(c.events.size() * metrics, 0.0);
    }
    checkCancel();
    m_progress.setStage(QStringLiteral("Loading: values"), 0);
    if (parallel) {
        if (reader.joinable())
            reader.join();
        parallel.reset();
        if (!readerError.isEmpty())
            throw DbException(readerError);
        for (std::size_t k = 0; k < list.ids.size(); ++k) {
            const CellSlot& slot = list.places[k];
            ThreadCells& c = cells[slot.thread];
            const std::size_t from = static_cast<std::size_t>(list.ids[k] - firstCell) * metrics;
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
        dense = Dense();
    } else if (!list.ids.empty()) {
        list.sort();
        auto rows = m_db.stream(valuesSql, { list.ids.front(), list.ids.back() });
        while (rows->next()) {
            if (++m_rows % CancelPoll == 0) {
                m_progress.advance(CancelPoll);
                checkCancel();
            }
            const CellSlot* slot = list.find(rows->toInt(0));
            const std::uint32_t metric = slot ? metricOf.find(rows->toInt(1)) : IdMap::Missing;
            if (metric == IdMap::Missing)
                continue;
            ThreadCells& c = cells[slot->thread];
            const std::size_t at = static_cast<std::size_t>(slot->position) * metrics + metric;
            c.excl[at] = rows->isNull(2) ? nullValue : rows->toDouble(2);
            c.incl[at] = rows->isNull(3) ? nullValue : rows->toDouble(3);
            if (!rows->isNull(4)) {
                c.squares[at] = rows->toDouble(4);
                c.hasSquares = true;
            }
        }
    }
    list = CellList();
    std::vector<IntervalRow> intervalRows(threads);
    for (std::size_t t = 0; t < threads; ++t) {
        ThreadCells& c = cells[t];
        IntervalRow& row = intervalRows[t];
        const std::size_t n = c.events.size();
        row.events = std::move(c.events);
        row.calls = std::move(c.calls);
        row.subrs = std::move(c.subrs);
        auto transpose = [&](std::vector<double>& cellMajor) {
            if (metrics <= 1)
                return std::move(cellMajor);
            std::vector<double> out(cellMajor.size());
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t m = 0; m < metrics; ++m)
                    out[m * n + i] = cellMajor[i * metrics + m];
            return out;
        };
        row.excl = transpose(c.excl);
        row.incl = transpose(c.incl);
        if (c.hasSquares)
            row.exclSqr = transpose(c.squares);
        cells[t] = ThreadCells();
    }
    builder.setIntervalRows(std::move(intervalRows));

    // User events (TAUdb counters) and their values on real threads.
    checkCancel();
    m_progress.setStage(QStringLiteral("Loading: user events"), 0);
    QHash<qint64, AtomicEventId> counterIndex;
    {
        auto rows = ours
            ? m_db.query("SELECT c.id, c.name, p.raw_name FROM counter c "
                         "LEFT JOIN parallax_counter p ON p.counter = c.id WHERE c.trial = $1 ORDER BY c.id",
                { m_id })
            : m_db.query("SELECT c.id, c.name FROM counter c WHERE c.trial = $1 ORDER BY c.id", { m_id });
        while (rows->next()) {
            const QString raw = ours && !rows->isNull(2) ? rows->toText(2) : QString();
            counterIndex.insert(rows->toInt(0), builder.addAtomicEvent(rows->toText(1), raw));
        }
    }
    std::vector<AtomicRow> atomicRows(threads);
    if (!counterIndex.isEmpty()) {
        auto rows = ours
            ? m_db.stream("SELECT v.counter, v.thread, v.sample_count, v.maximum_value, v.minimum_value, "
                          "v.mean_value, v.standard_deviation, s.sum_squares FROM counter_value v "
                          "LEFT JOIN parallax_counter_value s ON s.counter = v.counter AND s.thread = v.thread "
                          "WHERE v.counter IN (SELECT id FROM counter WHERE trial = $1)",
                { m_id })
            : m_db.stream("SELECT v.counter, v.thread, v.sample_count, v.maximum_value, v.minimum_value, "
                          "v.mean_value, v.standard_deviation FROM counter_value v "
                          "WHERE v.counter IN (SELECT id FROM counter WHERE trial = $1)",
                { m_id });
        while (rows->next()) {
            if (++m_rows % CancelPoll == 0)
                checkCancel();
            const std::uint32_t thread = threadIndex.find(rows->toInt(1));
            const auto counter = counterIndex.constFind(rows->toInt(0));
            if (thread == IdMap::Missing || counter == counterIndex.cend())
                continue;
            const auto value = [&](int column) { return rows->isNull(column) ? nullValue : rows->toDouble(column); };
            const double count = value(2);
            const double mean = value(5);
            double squares = 0;
            if (!ours) {
                // TAU's Java loader stores the sum of squares in standard_deviation (FORMATS.md 7.2).
                squares = value(6);
            } else if (!rows->isNull(7)) {
                squares = rows->toDouble(7);
            } else {
                const double sd = value(6);
                squares = count * (sd * sd + mean * mean);
            }
            AtomicRow& row = atomicRows[thread];
            row.events.push_back(counter.value());
            row.count.push_back(count);
            row.max.push_back(value(3));
            row.min.push_back(value(4));
            row.mean.push_back(mean);
            row.sumSquares.push_back(squares);
        }
    }
    builder.setAtomicRows(std::move(atomicRows));

    // Metadata: primary_metadata is trial-wide, secondary_metadata rows with a thread are per-thread.
    checkCancel();
    m_progress.setStage(QStringLiteral("Loading: metadata"), 0);
    {
        QHash<QString, QString> primary;
        QStringList order;
        auto rows = m_db.query("SELECT name, value FROM primary_metadata WHERE trial = $1 ORDER BY name", { m_id });
        while (rows->next()) {
            const QString key = rows->toText(0);
            if (hiddenKeys.contains(key) || primary.contains(key))
                continue;
            primary.insert(key, rows->toText(1));
            order.append(key);
        }
        // The model's keys in the model's order, then keys set since (setMetadata) by name.
        for (const QString& key : std::as_const(metadataKeys))
            if (primary.contains(key))
                builder.addMetadata(key, primary.value(key));
        for (const QString& key : std::as_const(order))
            if (!metadataKeys.contains(key))
                builder.addMetadata(key, primary.value(key));
    }
    {
        auto rows = m_db.stream(
            "SELECT thread, name, value FROM secondary_metadata WHERE trial = $1 ORDER BY thread, id", { m_id });
        while (rows->next()) {
            ++m_rows;
            const QString value = rows->toText(2);
            if (rows->isNull(0)) {
                builder.addMetadata(rows->toText(1), value);
                continue;
            }
            const std::uint32_t thread = threadIndex.find(rows->toInt(0));
            if (thread != IdMap::Missing)
                builder.addThreadMetadata(ThreadIndex(thread), rows->toText(1), value, true);
        }
    }
    checkCancel();
    m_progress.setStage(QStringLiteral("Loading: building the trial"), 0);
    return builder.build();
}

} // namespace parallax::perfdb
