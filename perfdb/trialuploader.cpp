// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "perfdb/trialuploader.h"

#include "datasource/readers/readerregistry.h"
#include "perfdb/dbexception.h"
#include "perfdb/timername.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <algorithm>

namespace parallax::perfdb {

namespace {

constexpr qint64 ProgressStep = 4096;

QString jsonArray(const QStringList& values)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(values)).toJson(QJsonDocument::Compact));
}

/// TAUdb data_source table id for the reader that produced the trial, from the reader registry
/// (Parallax writes table ids, not the Java constants: docs/FORMATS.md 7.1).
int dataSourceFor(const Trial& trial)
{
    const Provenance& p = trial.provenance();
    if (p.operation != QLatin1String("read"))
        return ReaderRegistry::NoTaudbDataSource;
    return ReaderRegistry::instance().taudbDataSource(p.reader);
}

/// secondary_metadata ids are UUIDs (TAUdb: VARCHAR). Ours share a random prefix per upload and end
/// in a sequence number, so ordering a trial's rows by id gives back the model's order.
class UuidSequence {
public:
    UuidSequence()
    {
        QRandomGenerator* random = QRandomGenerator::system();
        m_prefix = QStringLiteral("%1-%2-4%3-%4-")
                       .arg(random->generate(), 8, 16, QLatin1Char('0'))
                       .arg(random->generate() & 0xffffu, 4, 16, QLatin1Char('0'))
                       .arg(random->generate() & 0xfffu, 3, 16, QLatin1Char('0'))
                       .arg(0x8000u | (random->generate() & 0x3fffu), 4, 16, QLatin1Char('0'));
    }
    QString next() { return m_prefix + QStringLiteral("%1").arg(m_next++, 12, 16, QLatin1Char('0')); }

private:
    QString m_prefix;
    qulonglong m_next = 0;
};

} // namespace

TrialUploader::TrialUploader(SqlDatabase& db, const Trial& trial, const UploadOptions& options, Progress& progress)
    : m_db(db)
    , m_trial(trial)
    , m_options(options)
    , m_progress(progress)
{
}

qint64 TrialUploader::run()
{
    insertTrial();
    insertMetrics();
    insertTimers();
    insertThreads();
    insertGroupsAndParameters();
    insertCallPaths();
    insertCallData();
    insertDerivedThreads();
    insertValues();
    insertCounters();
    insertMetadata();
    stage(QStringLiteral("indexes"), 0);
    m_db.finishPartitions();
    // The Application/Experiment views TAU's loader makes for -a/-x (docs/FORMATS.md 7.2); last, as
    // on PostgreSQL it locks taudb_view until the commit.
    stage(QStringLiteral("views"), 0);
    m_db.addApplicationViews(m_options.application, m_options.experiment);
    // A cancel during the last stage must still win over the commit.
    if (m_progress.isCancelled())
        throw DbException(QStringLiteral("upload cancelled"), DbException::Kind::Cancelled);
    return m_trialId;
}

void TrialUploader::stage(const QString& name, qint64 total)
{
    if (m_progress.isCancelled())
        throw DbException(QStringLiteral("upload cancelled"), DbException::Kind::Cancelled);
    m_stageRows = 0;
    m_progress.setStage(QStringLiteral("Uploading: ") + name, total);
}

void TrialUploader::countRow()
{
    ++m_rows;
    if (m_options.failAfterRows > 0 && m_rows >= m_options.failAfterRows)
        throw DbException(QStringLiteral("simulated failure after %1 rows").arg(m_rows));
    if (++m_stageRows % ProgressStep == 0) {
        m_progress.advance(ProgressStep);
        if (m_progress.isCancelled())
            throw DbException(QStringLiteral("upload cancelled"), DbException::Kind::Cancelled);
    }
}

void TrialUploader::endRow(BulkWriter& writer)
{
    writer.endRow();
    countRow();
}

void TrialUploader::insertTrial()
{
    stage(QStringLiteral("trial"), 1);
    int contexts = 0;
    int threads = 0;
    for (const ThreadKey& key : m_trial.threads()) {
        contexts = std::max(contexts, key.context + 1);
        threads = std::max(threads, key.thread + 1);
    }
    const QString name = m_options.name.isEmpty() ? m_trial.name() : m_options.name;
    auto rows = m_db.query("INSERT INTO trial (name, data_source, node_count, contexts_per_node, threads_per_context, "
                           "total_threads) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        { name.isNull() ? QString(QLatin1String("")) : name, dataSourceFor(m_trial),
            static_cast<qint64>(m_trial.nodeCount()), contexts, threads, static_cast<qint64>(m_trial.threadCount()) });
    if (!rows->next())
        throw DbException(QStringLiteral("the new trial row returned no id"));
    m_trialId = rows->toInt(0);
    rows.reset();
    countRow();
}

void TrialUploader::insertMetrics()
{
    const std::size_t count = m_trial.metricCount();
    stage(QStringLiteral("metrics"), static_cast<qint64>(count));
    IdBlock ids = m_db.reserveIds("metric", static_cast<qint64>(count));
    {
        auto writer = m_db.bulkInsert("metric", { "id", "trial", "name", "derived" }, BulkWriter::Format::Text);
        for (const Metric& metric : m_trial.metrics()) {
            m_metricIds.push_back(ids.next());
            writer->addInt(m_metricIds.back());
            writer->addInt(m_trialId);
            writer->addText(metric.name);
            writer->addBool(metric.derived);
            endRow(*writer);
        }
        writer->finish();
    }
    auto writer = m_db.bulkInsert(
        "parallax_metric", { "metric", "unit", "expression", "higher_is_better" }, BulkWriter::Format::Text);
    for (std::size_t m = 0; m < count; ++m) {
        const Metric& metric = m_trial.metrics()[m];
        writer->addInt(m_metricIds[m]);
        writer->addText(metric.unit.isNull() ? QString(QLatin1String("")) : metric.unit);
        if (metric.expression.isNull())
            writer->addNull();
        else
            writer->addText(metric.expression);
        writer->addBool(metric.higherIsBetter);
        endRow(*writer);
    }
    writer->finish();
}

int TrialUploader::timerFor(const QString& name)
{
    const auto it = m_timerIndex.constFind(name);
    if (it != m_timerIndex.cend())
        return it.value();
    const int index = static_cast<int>(m_timerNames.size());
    m_timerNames.append(name);
    m_timerIndex.insert(name, index);
    m_timerIsEvent.push_back(false);
    return index;
}

void TrialUploader::insertTimers()
{
    // Flat events first, in event order; then the timers of call-path components that are not
    // flat events themselves (ParaProf skips those nodes; Parallax creates the timer: 7.4 step 6).
    for (const IntervalEvent& event : m_trial.events()) {
        if (event.isCallPath())
            continue;
        m_timerIsEvent[static_cast<std::size_t>(timerFor(event.name))] = true;
    }
    for (const IntervalEvent& event : m_trial.events()) {
        if (!event.isCallPath())
            continue;
        for (const QString& component : event.name.split(QStringLiteral(" => ")))
            timerFor(component);
    }
    // A timer whose name carries no `[{file} ...]` block gets the event's other source location
    // (recorded by the reader, or HPCToolkit's file:line): docs/FORMATS.md 7.4.
    QHash<QString, SourceLocation> locations;
    for (std::size_t e = 0; e < m_trial.eventCount(); ++e) {
        const QString& name = m_trial.event(EventId(e)).name;
        const qsizetype arrow = name.lastIndexOf(QLatin1String(" => "));
        const QString leaf = arrow < 0 ? name : name.mid(arrow + 4);
        if (locations.contains(leaf))
            continue;
        if (const auto location = sourceLocationOf(m_trial, EventId(e)))
            locations.insert(leaf, *location);
    }
    stage(QStringLiteral("timers"), m_timerNames.size());
    IdBlock ids = m_db.reserveIds("timer", m_timerNames.size());
    auto writer = m_db.bulkInsert("timer",
        { "id", "trial", "name", "short_name", "source_file", "line_number", "line_number_end", "column_number",
            "column_number_end" },
        BulkWriter::Format::Text);
    for (const QString& name : std::as_const(m_timerNames)) {
        const TimerName parsed(name);
        m_timerIds.push_back(ids.next());
        writer->addInt(m_timerIds.back());
        writer->addInt(m_trialId);
        writer->addText(name);
        writer->addText(parsed.shortName());
        const auto location = locations.constFind(name);
        if (parsed.hasSourceFile() || location == locations.cend()) {
            if (parsed.hasSourceFile())
                writer->addText(parsed.sourceFile());
            else
                writer->addNull();
            writer->addInt(parsed.line());
            writer->addInt(parsed.lineEnd());
            writer->addInt(parsed.column());
            writer->addInt(parsed.columnEnd());
        } else {
            writer->addText(location->file);
            writer->addInt(location->beginLine);
            writer->addInt(location->endLine);
            writer->addInt(location->beginColumn);
            writer->addInt(location->endColumn);
        }
        endRow(*writer);
    }
    writer->finish();
}

void TrialUploader::insertThreads()
{
    const std::size_t count = m_trial.threadCount();
    stage(QStringLiteral("threads"), static_cast<qint64>(count));
    qint64 contexts = 1;
    qint64 threads = 1;
    for (const ThreadKey& key : m_trial.threads()) {
        contexts = std::max<qint64>(contexts, key.context + 1);
        threads = std::max<qint64>(threads, key.thread + 1);
    }
    IdBlock ids = m_db.reserveIds("thread", static_cast<qint64>(count));
    auto writer = m_db.bulkInsert("thread",
        { "id", "trial", "node_rank", "context_rank", "thread_rank", "thread_index" }, BulkWriter::Format::Binary);
    for (const ThreadKey& key : m_trial.threads()) {
        m_threadIds.push_back(ids.next());
        writer->addInt(m_threadIds.back());
        writer->addInt(m_trialId);
        writer->addInt(key.node);
        writer->addInt(key.context);
        writer->addInt(key.thread);
        // thread_index = n*C*T + c*T + t (docs/FORMATS.md 7.2)
        writer->addInt(key.node * contexts * threads + key.context * threads + key.thread);
        endRow(*writer);
    }
    writer->finish();
}

void TrialUploader::insertGroupsAndParameters()
{
    stage(QStringLiteral("groups"), 0);
    {
        auto writer = m_db.bulkInsert("timer_group", { "timer", "group_name" }, BulkWriter::Format::Text);
        for (const IntervalEvent& event : m_trial.events()) {
            if (event.isCallPath())
                continue;
            const qint64 timer = m_timerIds[static_cast<std::size_t>(m_timerIndex.value(event.name))];
            for (GroupId g : event.groups) {
                writer->addInt(timer);
                writer->addText(m_trial.groupName(g));
                endRow(*writer);
            }
        }
        writer->finish();
    }
    stage(QStringLiteral("parameters"), 0);
    auto writer = m_db.bulkInsert(
        "timer_parameter", { "timer", "parameter_name", "parameter_value" }, BulkWriter::Format::Text);
    for (qsizetype i = 0; i < m_timerNames.size(); ++i) {
        if (!m_timerIsEvent[static_cast<std::size_t>(i)])
            continue;
        const TimerName parsed(m_timerNames[i]);
        for (const auto& [name, value] : parsed.parameters()) {
            writer->addInt(m_timerIds[static_cast<std::size_t>(i)]);
            writer->addText(name);
            writer->addText(value);
            endRow(*writer);
        }
    }
    writer->finish();
}

int TrialUploader::nodeFor(int parent, int timer)
{
    const quint64 key = (static_cast<quint64>(static_cast<quint32>(parent + 1)) << 32) | static_cast<quint32>(timer);
    const auto it = m_nodeIndex.constFind(key);
    if (it != m_nodeIndex.cend())
        return it.value();
    const int index = static_cast<int>(m_nodes.size());
    m_nodes.push_back({ timer, parent });
    m_nodeIndex.insert(key, index);
    return index;
}

void TrialUploader::insertCallPaths()
{
    // Every flat timer is a root; a call path "a => b => c" is the node whose chain of timers is
    // a, b, c (docs/FORMATS.md 7.4 step 6). Parents are created before their children.
    for (int timer = 0; timer < m_timerNames.size(); ++timer)
        nodeFor(-1, timer);
    m_eventNode.resize(m_trial.eventCount(), -1);
    for (std::size_t e = 0; e < m_trial.eventCount(); ++e) {
        const IntervalEvent& event = m_trial.event(EventId(e));
        int node = -1;
        for (const QString& component : event.name.split(QStringLiteral(" => ")))
            node = nodeFor(node, m_timerIndex.value(component));
        m_eventNode[e] = node;
    }
    stage(QStringLiteral("call paths"), static_cast<qint64>(m_nodes.size()));
    IdBlock ids = m_db.reserveIds("timer_callpath", static_cast<qint64>(m_nodes.size()));
    {
        auto writer = m_db.bulkInsert("timer_callpath", { "id", "timer", "parent" }, BulkWriter::Format::Binary);
        for (const Node& node : m_nodes) {
            m_nodeIds.push_back(ids.next());
            writer->addInt(m_nodeIds.back());
            writer->addInt(m_timerIds[static_cast<std::size_t>(node.timer)]);
            if (node.parent < 0)
                writer->addNull();
            else
                writer->addInt(m_nodeIds[static_cast<std::size_t>(node.parent)]);
            endRow(*writer);
        }
        writer->finish();
    }
    // The model's events on their nodes: position, raw name, exact groups (parallax_event).
    auto writer = m_db.bulkInsert(
        "parallax_event", { "timer_callpath", "trial", "position", "raw_name", "groups" }, BulkWriter::Format::Text);
    for (std::size_t e = 0; e < m_trial.eventCount(); ++e) {
        const IntervalEvent& event = m_trial.event(EventId(e));
        writer->addInt(m_nodeIds[static_cast<std::size_t>(m_eventNode[e])]);
        writer->addInt(m_trialId);
        writer->addInt(static_cast<qint64>(e));
        if (event.rawName == event.name)
            writer->addNull();
        else
            writer->addText(event.rawName);
        writer->addText(jsonArray(m_trial.groupNames(event)));
        endRow(*writer);
    }
    writer->finish();
}

void TrialUploader::insertCallData()
{
    // Every present cell, also those with 0 calls: TAUdb writes calls > 0 only, but presence must
    // round-trip ("did not run" is not "ran for 0").
    const qint64 cells = static_cast<qint64>(m_trial.cellCount());
    stage(QStringLiteral("call data"), cells);
    // The derived threads' cells too, in one block: one id range per trial, so that on PostgreSQL
    // all of a trial's call data and values fit in one partition.
    m_statistics = std::make_unique<DerivedStatistics>(m_trial);
    qint64 present = 0;
    for (std::size_t e = 0; e < m_trial.eventCount(); ++e)
        present += m_statistics->present(EventId(e)) > 0 ? 1 : 0;
    const qint64 derived = present * static_cast<qint64>(DerivedStatistics::CodeCount);
    IdBlock all = m_db.reserveIds("timer_call_data", cells + derived);
    m_callDataTable = "timer_call_data";
    m_valueTable = "timer_value";
    if (all.contiguous() && cells + derived > 0) {
        m_callDataTable = m_db.partitionFor("timer_call_data", m_trialId, all.smallest(), all.largest());
        m_valueTable = m_db.partitionFor("timer_value", m_trialId, all.smallest(), all.largest());
    }
    m_callDataIds = all.take(cells);
    m_derivedCallDataIds = all.take(derived);
    IdBlock ids = m_callDataIds;
    auto writer = m_db.bulkInsert(
        m_callDataTable, { "id", "timer_callpath", "thread", "calls", "subroutines" }, BulkWriter::Format::Binary);
    for (std::size_t t = 0; t < m_trial.threadCount(); ++t) {
        const RowView row = m_trial.row(ThreadIndex(t));
        const qint64 thread = m_threadIds[t];
        for (std::size_t i = 0; i < row.size(); ++i) {
            writer->addInt(ids.next());
            writer->addInt(m_nodeIds[static_cast<std::size_t>(m_eventNode[row.events[i].index()])]);
            writer->addInt(thread);
            writer->addDouble(row.calls[i]);
            writer->addDouble(row.subrs[i]);
            endRow(*writer);
        }
    }
    writer->finish();
}

void TrialUploader::insertDerivedThreads()
{
    stage(QStringLiteral("derived threads"), 0);
    IdBlock threadIds = m_db.reserveIds("thread", DerivedStatistics::CodeCount);
    {
        auto writer = m_db.bulkInsert("thread",
            { "id", "trial", "node_rank", "context_rank", "thread_rank", "thread_index" }, BulkWriter::Format::Binary);
        for (int code : DerivedStatistics::Codes) {
            m_derivedThreadIds.push_back(threadIds.next());
            writer->addInt(m_derivedThreadIds.back());
            writer->addInt(m_trialId);
            for (int column = 0; column < 4; ++column)
                writer->addInt(code);
            endRow(*writer);
        }
        writer->finish();
    }
    IdBlock ids = m_derivedCallDataIds;
    auto writer = m_db.bulkInsert(
        m_callDataTable, { "id", "timer_callpath", "thread", "calls", "subroutines" }, BulkWriter::Format::Binary);
    for (std::size_t c = 0; c < DerivedStatistics::CodeCount; ++c) {
        const int code = DerivedStatistics::Codes[c];
        for (std::size_t e = 0; e < m_trial.eventCount(); ++e) {
            const EventId event(e);
            if (m_statistics->present(event) == 0)
                continue;
            writer->addInt(ids.next());
            writer->addInt(m_nodeIds[static_cast<std::size_t>(m_eventNode[e])]);
            writer->addInt(m_derivedThreadIds[c]);
            writer->addDouble(m_statistics->calls(code, event));
            writer->addDouble(m_statistics->subrs(code, event));
            endRow(*writer);
        }
    }
    writer->finish();
}

void TrialUploader::insertValues()
{
    const std::size_t metrics = m_trial.metricCount();
    stage(QStringLiteral("values"), static_cast<qint64>(m_trial.cellCount()) * static_cast<qint64>(metrics));
    IdBlock ids = m_callDataIds;
    auto writer = m_db.bulkInsert(m_valueTable,
        { "timer_call_data", "metric", "inclusive_value", "exclusive_value", "inclusive_percent", "exclusive_percent",
            "sum_exclusive_squared" },
        BulkWriter::Format::Binary);
    std::vector<double> top(metrics);
    for (std::size_t t = 0; t < m_trial.threadCount(); ++t) {
        const RowView row = m_trial.row(ThreadIndex(t));
        const std::size_t n = row.size();
        // Percent of the thread's largest inclusive value (docs/FORMATS.md 2.1), 0-100.
        for (std::size_t m = 0; m < metrics; ++m)
            top[m] = m_statistics->threadMaxInclusive(ThreadIndex(t), m);
        const bool squares = !row.exclSqr.empty();
        for (std::size_t i = 0; i < n; ++i) {
            const qint64 id = ids.next();
            for (std::size_t m = 0; m < metrics; ++m) {
                const double incl = row.inclusive(m, i);
                const double excl = row.exclusive(m, i);
                writer->addInt(id);
                writer->addInt(m_metricIds[m]);
                writer->addDouble(incl);
                writer->addDouble(excl);
                writer->addDouble(top[m] != 0 ? incl / top[m] * 100.0 : 0.0);
                writer->addDouble(top[m] != 0 ? excl / top[m] * 100.0 : 0.0);
                if (squares)
                    writer->addDouble(row.exclSqr[m * n + i]);
                else
                    writer->addNull();
                endRow(*writer);
            }
        }
    }
    IdBlock derived = m_derivedCallDataIds;
    for (int code : DerivedStatistics::Codes) {
        for (std::size_t e = 0; e < m_trial.eventCount(); ++e) {
            const EventId event(e);
            if (m_statistics->present(event) == 0)
                continue;
            const qint64 id = derived.next();
            for (std::size_t m = 0; m < metrics; ++m) {
                writer->addInt(id);
                writer->addInt(m_metricIds[m]);
                writer->addDouble(m_statistics->inclusive(code, event, m));
                writer->addDouble(m_statistics->exclusive(code, event, m));
                writer->addDouble(m_statistics->inclusivePercent(code, event, m));
                writer->addDouble(m_statistics->exclusivePercent(code, event, m));
                writer->addNull();
                endRow(*writer);
            }
        }
    }
    writer->finish();
}

void TrialUploader::insertCounters()
{
    const std::size_t count = m_trial.atomicEventCount();
    stage(QStringLiteral("user events"), static_cast<qint64>(count));
    IdBlock ids = m_db.reserveIds("counter", static_cast<qint64>(count));
    {
        auto writer = m_db.bulkInsert("counter", { "id", "trial", "name" }, BulkWriter::Format::Text);
        for (const AtomicEvent& event : m_trial.atomicEvents()) {
            m_counterIds.push_back(ids.next());
            writer->addInt(m_counterIds.back());
            writer->addInt(m_trialId);
            writer->addText(event.name);
            endRow(*writer);
        }
        writer->finish();
    }
    {
        auto writer = m_db.bulkInsert("parallax_counter", { "counter", "raw_name" }, BulkWriter::Format::Text);
        for (std::size_t u = 0; u < count; ++u) {
            const AtomicEvent& event = m_trial.atomicEvent(AtomicEventId(u));
            if (event.rawName == event.name)
                continue;
            writer->addInt(m_counterIds[u]);
            writer->addText(event.rawName);
            endRow(*writer);
        }
        writer->finish();
    }
    stage(QStringLiteral("user event values"), 0);
    {
        // Real threads only, with the sum of squares in standard_deviation, as TAU's loader writes
        // them: TAU's reader makes a thread of every counter_value row and reads that column as
        // the sum of squares (docs/FORMATS.md 7.2).
        auto writer = m_db.bulkInsert("counter_value",
            { "counter", "timer_callpath", "thread", "sample_count", "maximum_value", "minimum_value", "mean_value",
                "standard_deviation" },
            BulkWriter::Format::Binary);
        for (std::size_t t = 0; t < m_trial.threadCount(); ++t) {
            const AtomicRow& row = m_trial.atomicRow(ThreadIndex(t));
            for (std::size_t i = 0; i < row.size(); ++i) {
                writer->addInt(m_counterIds[row.events[i].index()]);
                writer->addNull();
                writer->addInt(m_threadIds[t]);
                writer->addDouble(row.count[i]);
                writer->addDouble(row.max[i]);
                writer->addDouble(row.min[i]);
                writer->addDouble(row.mean[i]);
                writer->addDouble(row.sumSquares[i]);
                endRow(*writer);
            }
        }
        writer->finish();
    }
    // Explicit deviations (algebra results), which no sum of squares gives back.
    auto writer = m_db.bulkInsert(
        "parallax_counter_deviation", { "counter", "thread", "standard_deviation" }, BulkWriter::Format::Binary);
    for (std::size_t t = 0; t < m_trial.threadCount(); ++t) {
        const AtomicRow& row = m_trial.atomicRow(ThreadIndex(t));
        if (row.stdDev.empty())
            continue;
        for (std::size_t i = 0; i < row.size(); ++i) {
            writer->addInt(m_counterIds[row.events[i].index()]);
            writer->addInt(m_threadIds[t]);
            writer->addDouble(row.stddev(i));
            endRow(*writer);
        }
    }
    writer->finish();
}

void TrialUploader::insertMetadata()
{
    stage(QStringLiteral("metadata"), 0);
    const StringPool& strings = m_trial.strings();
    const QString application = QStringLiteral("Application");
    const QString experiment = QStringLiteral("Experiment");
    const QString uploadTime = QStringLiteral("Parallax Upload Time");
    const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);

    // Trial-wide metadata -> primary_metadata; Application and Experiment from the options replace
    // the trial's own values. Keys the upload adds are listed in parallax_trial.hidden_keys so that
    // loading gives back exactly the trial's metadata.
    QStringList keys;
    QStringList hidden;
    {
        auto writer = m_db.bulkInsert("primary_metadata", { "trial", "name", "value" }, BulkWriter::Format::Text);
        auto add = [&](const QString& key, const QString& value) {
            writer->addInt(m_trialId);
            writer->addText(key);
            writer->addText(value);
            endRow(*writer);
        };
        for (const MetadataEntry& entry : m_trial.metadata()) {
            const QString& key = strings.get(entry.key);
            QString value = strings.get(entry.value);
            if (key == application && !m_options.application.isEmpty())
                value = m_options.application;
            else if (key == experiment && !m_options.experiment.isEmpty())
                value = m_options.experiment;
            else if (key == uploadTime)
                value = now;
            keys.append(key);
            add(key, value);
        }
        if (!m_options.application.isEmpty() && !keys.contains(application)) {
            hidden.append(application);
            add(application, m_options.application);
        }
        if (!m_options.experiment.isEmpty() && !keys.contains(experiment)) {
            hidden.append(experiment);
            add(experiment, m_options.experiment);
        }
        if (!keys.contains(uploadTime)) {
            hidden.append(uploadTime);
            add(uploadTime, now);
        }
        writer->finish();
    }
    {
        // Per-thread metadata -> secondary_metadata rows with their thread (docs/FORMATS.md 7.4 step 11).
        // Only the columns every TAUdb variant has; TAU's SQLite DDL (docs/FORMATS.md 7.3) numbers the
        // rows itself (INTEGER PRIMARY KEY), the others take a UUID.
        const bool numbered = m_db.columnType("secondary_metadata", "id").startsWith(QLatin1String("int"));
        UuidSequence uuids;
        std::vector<std::string_view> columns { "trial", "thread", "name", "value", "is_array" };
        if (!numbered)
            columns.insert(columns.begin(), "id");
        auto writer = m_db.bulkInsert("secondary_metadata", columns, BulkWriter::Format::Text);
        for (std::size_t t = 0; t < m_trial.threadCount(); ++t) {
            for (const MetadataEntry& entry : m_trial.threadMetadata(ThreadIndex(t))) {
                if (!numbered)
                    writer->addText(uuids.next());
                writer->addInt(m_trialId);
                writer->addInt(m_threadIds[t]);
                writer->addText(strings.get(entry.key));
                writer->addText(strings.get(entry.value));
                writer->addBool(false);
                endRow(*writer);
            }
        }
        writer->finish();
    }
    QStringList groups;
    for (std::size_t g = 0; g < m_trial.groupCount(); ++g)
        groups.append(m_trial.groupName(GroupId(g)));
    const bool cells = m_callDataIds.size() > 0;
    m_db.exec("INSERT INTO parallax_trial (trial, call_data_first, call_data_last, groups, metadata_keys, hidden_keys) "
              "VALUES ($1, $2, $3, $4, $5, $6)",
        { m_trialId, cells ? SqlValue(m_callDataIds.smallest()) : SqlValue(),
            cells ? SqlValue(m_callDataIds.largest()) : SqlValue(), jsonArray(groups), jsonArray(keys),
            jsonArray(hidden) });
    countRow();
}

} // namespace parallax::perfdb
