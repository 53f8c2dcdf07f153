// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The TAU snapshot / merged XML reader against tau2/tauprofile-xml-merged (MANIFEST.md, docs/FORMATS.md 4),
// its gzip variant, a hand-written multi-snapshot fixture, and bad input (truncated, corrupt,
// unknown ids, missing attributes).
#include "algebra/statistics.h"
#include "datasource/model/pooledatomics.h"
#include "datasource/readers/snapshotreader.h"
#include "tests/common/readertest.h"
#include "tests/common/testutil.h"

#include <QTemporaryDir>
#include <cmath>
#include <zlib.h>

using namespace parallax;
using namespace parallax::test;

namespace {

QString mergedPath() { return dataPath(QStringLiteral("tau2/tauprofile-xml-merged/tauprofile.xml")); }

QByteArray readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

/// gzip with zlib; `members` > 1 splits the data into that many concatenated gzip members.
void gzipTo(const QString& path, const QByteArray& data, int members = 1)
{
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    const qsizetype step = data.size() / members + 1;
    for (qsizetype from = 0; from < data.size(); from += step) {
        const QByteArray part = data.mid(from, step);
        z_stream z {};
        QCOMPARE(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
        QByteArray buf(static_cast<qsizetype>(deflateBound(&z, static_cast<uLong>(part.size()))) + 64, '\0');
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(part.constData()));
        z.avail_in = static_cast<uInt>(part.size());
        z.next_out = reinterpret_cast<Bytef*>(buf.data());
        z.avail_out = static_cast<uInt>(buf.size());
        QCOMPARE(deflate(&z, Z_FINISH), Z_STREAM_END);
        buf.truncate(static_cast<qsizetype>(z.total_out));
        deflateEnd(&z);
        out.write(buf);
    }
}

TrialResult readSnapshot(const QString& path, int threads = 0)
{
    return readWith(SnapshotReader(), path, withThreads(threads));
}

std::shared_ptr<Trial> mustRead(const QString& path, int threads = 0)
{
    return mustReadWith(SnapshotReader(), path, withThreads(threads));
}

struct Cell {
    double calls = -1, subrs = -1, excl = -1, incl = -1;
};

Cell cellOf(const RowView& row, EventId e)
{
    const auto i = row.find(e);
    if (i < 0)
        return {};
    const auto k = static_cast<std::size_t>(i);
    return { row.calls[k], row.subrs[k], row.exclusive(0, k), row.inclusive(0, k) };
}

Cell cellOf(const Trial& trial, int node, const QString& event)
{
    return cellOf(trial.row(trial.findThread({ node, 0, 0 })), trial.findEvent(event));
}

struct UserCell {
    double count = -1, max = -1, min = -1, mean = -1, sumSquares = -1;
};

UserCell userCellOf(const AtomicRow& row, AtomicEventId e)
{
    const auto i = row.find(e);
    if (i < 0)
        return {};
    const auto k = static_cast<std::size_t>(i);
    return { row.count[k], row.max[k], row.min[k], row.mean[k], row.sumSquares[k] };
}

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

bool sameRow(const RowView& a, const RowView& b)
{
    if (a.events != b.events || a.excl.size() != b.excl.size() || a.incl.size() != b.incl.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!same(a.calls[i], b.calls[i]) || !same(a.subrs[i], b.subrs[i]))
            return false;
    for (std::size_t i = 0; i < a.excl.size(); ++i)
        if (!same(a.excl[i], b.excl[i]) || !same(a.incl[i], b.incl[i]))
            return false;
    return true;
}

bool sameRow(const AtomicRow& a, const AtomicRow& b)
{
    if (a.events != b.events)
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!same(a.count[i], b.count[i]) || !same(a.max[i], b.max[i]) || !same(a.min[i], b.min[i])
            || !same(a.mean[i], b.mean[i]) || !same(a.sumSquares[i], b.sumSquares[i]))
            return false;
    return true;
}

void compareTrials(const Trial& a, const Trial& b)
{
    QCOMPARE(a.threads(), b.threads());
    QCOMPARE(a.metricCount(), b.metricCount());
    QCOMPARE(a.eventCount(), b.eventCount());
    for (std::size_t e = 0; e < a.eventCount(); ++e) {
        QCOMPARE(a.events()[e].name, b.events()[e].name);
        QCOMPARE(a.events()[e].rawName, b.events()[e].rawName);
        QCOMPARE(a.events()[e].groups, b.events()[e].groups);
    }
    QCOMPARE(a.atomicEventCount(), b.atomicEventCount());
    for (std::size_t e = 0; e < a.atomicEventCount(); ++e)
        QCOMPARE(a.atomicEvents()[e].name, b.atomicEvents()[e].name);
    for (std::size_t t = 0; t < a.threadCount(); ++t) {
        QVERIFY(sameRow(a.row(ThreadIndex(t)), b.row(ThreadIndex(t))));
        QVERIFY(sameRow(a.atomicRow(ThreadIndex(t)), b.atomicRow(ThreadIndex(t))));
        QCOMPARE(a.threadMetadata(ThreadIndex(t)).size(), b.threadMetadata(ThreadIndex(t)).size());
        for (std::size_t k = 0; k < a.threadMetadata(ThreadIndex(t)).size(); ++k) {
            QCOMPARE(a.strings().get(a.threadMetadata(ThreadIndex(t))[k].key),
                b.strings().get(b.threadMetadata(ThreadIndex(t))[k].key));
            QCOMPARE(a.strings().get(a.threadMetadata(ThreadIndex(t))[k].value),
                b.strings().get(b.threadMetadata(ThreadIndex(t))[k].value));
        }
    }
    QCOMPARE(a.metadata().size(), b.metadata().size());
    for (std::size_t k = 0; k < a.metadata().size(); ++k) {
        QCOMPARE(a.strings().get(a.metadata()[k].key), b.strings().get(b.metadata()[k].key));
        QCOMPARE(a.strings().get(a.metadata()[k].value), b.strings().get(b.metadata()[k].value));
    }
    QCOMPARE(a.providedStatistics().size(), b.providedStatistics().size());
    for (std::size_t p = 0; p < a.providedStatistics().size(); ++p) {
        QCOMPARE(a.providedStatistics()[p].name, b.providedStatistics()[p].name);
        QCOMPARE(a.providedStatistics()[p].derivedId, b.providedStatistics()[p].derivedId);
        QVERIFY(sameRow(a.providedStatistics()[p].row, b.providedStatistics()[p].row));
        QVERIFY(sameRow(a.providedStatistics()[p].atomicRow, b.providedStatistics()[p].atomicRow));
    }
    QCOMPARE(a.warnings(), b.warnings());
}

/// The 1-based line of the n-th (0-based) occurrence of `needle`, and its byte offset.
std::pair<qint64, qint64> whereIs(const QByteArray& text, const QByteArray& needle, int occurrence = 0)
{
    qsizetype at = -1;
    for (int i = 0; i <= occurrence; ++i)
        at = text.indexOf(needle, at + 1);
    if (at < 0)
        return { -1, -1 };
    return { text.left(at).count('\n') + 1, at };
}

// ---- the multi-snapshot fixture: 2 threads x 3 snapshots, definitions added as they appear ----

double rootExcl(int thread, int snapshot) { return 100.0 * (snapshot + 1) + thread; }
double rootIncl(int thread, int snapshot) { return 1000.0 * (snapshot + 1) + 10 * thread; }

QByteArray snapshotFile(int thread)
{
    const QByteArray id = QByteArray("0.0.") + QByteArray::number(thread) + ".4242";
    QByteArray out;
    out += "<profile_xml>\n\n<thread id=\"" + id + "\" node=\"0\" context=\"0\" thread=\"" + QByteArray::number(thread)
        + "\">\n";
    out += "<metadata>\n<attribute><name>Hostname</name><value>node-a</value></attribute>\n";
    out += "<attribute><name>tid</name><value>" + QByteArray::number(thread) + "</value></attribute>\n";
    out += "<attribute><name>Loop</name><timer_context>.TAU application</timer_context><call_number>1</call_number>"
           "<timestamp>5</timestamp><value>same</value></attribute>\n";
    out += "</metadata>\n</thread>\n\n<definitions thread=\"" + id + "\">\n";
    out += "<metric id=\"0\"><name>TIME</name><units>unknown</units></metric>\n</definitions>\n";
    const char* names[] = { "iteration 1", "iteration 2", "final" };
    for (int s = 0; s < 3; ++s) {
        if (s > 0)
            out += "<profile_xml>\n";
        if (s == 0)
            out += "\n<definitions thread=\"" + id
                + "\">\n<event id=\"0\"><name>.TAU application </name><group>TAU_DEFAULT</group></event>\n"
                  "<event id=\"1\"><name>compute  [{x.c} {1,1}]  "
                  "</name><group>TAU_USER</group></event>\n</definitions>\n";
        if (s == 1) {
            out += "\n<definitions thread=\"" + id
                + "\">\n<event id=\"2\"><name>MPI_Send() </name><group>MPI</group></event>\n</definitions>\n";
            out += "\n<definitions thread=\"" + id
                + "\">\n<userevent id=\"0\"><name>Message size sent to all nodes</name></userevent>\n</definitions>\n";
        }
        out += "\n<profile thread=\"" + id + "\">\n<name>" + names[s] + "</name>\n<timestamp>"
            + QByteArray::number(1000000LL * (s + 1) + thread) + "</timestamp>\n<interval_data metrics=\"0 \">\n";
        out += "0 1 " + QByteArray::number(s + 1) + " " + QByteArray::number(rootExcl(thread, s)) + " "
            + QByteArray::number(rootIncl(thread, s)) + " \n";
        out += "1 " + QByteArray::number(s + 1) + " 0 " + QByteArray::number(rootIncl(thread, s) - rootExcl(thread, s))
            + " " + QByteArray::number(rootIncl(thread, s) - rootExcl(thread, s)) + " \n";
        if (s >= 1)
            out += "2 " + QByteArray::number(s) + " 0 0.5 0.5 \n";
        out += "</interval_data>\n<atomic_data>\n";
        if (s >= 1)
            out += "0 " + QByteArray::number(4 * s) + " 64 8 " + QByteArray::number(16 * s) + " 4096\n";
        out += "</atomic_data>\n</profile>\n\n</profile_xml>\n";
    }
    return out;
}

/// The merged sample with one substitution (the n-th occurrence of `from`).
QByteArray spoilt(const QByteArray& text, const QByteArray& from, const QByteArray& to, int occurrence = 0)
{
    qsizetype at = -1;
    for (int i = 0; i <= occurrence; ++i)
        at = text.indexOf(from, at + 1);
    if (at < 0)
        return {};
    QByteArray out = text;
    out.replace(at, from.size(), to);
    return out;
}

} // namespace

class TestSnapshotReader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void mergedSampleCounts()
    {
        const auto trial = mustRead(mergedPath());
        QVERIFY(trial);
        // MANIFEST: MPAS-Ocean, 8 ranks, TIME, 79 interval events, 217 atomic events (217 definitions;
        // two names repeat, ids 0/1 and 6/7, so 215 distinct user events after merging by name).
        QCOMPARE(trial->threadCount(), std::size_t(8));
        for (int n = 0; n < 8; ++n)
            QCOMPARE(trial->threadKey(ThreadIndex(static_cast<std::size_t>(n))), (ThreadKey { n, 0, 0 }));
        QCOMPARE(trial->metricCount(), std::size_t(1));
        QCOMPARE(trial->metric(MetricId(0u)).name, QStringLiteral("TIME"));
        QCOMPARE(trial->metric(MetricId(0u)).unit, QStringLiteral("us"));
        QCOMPARE(trial->eventCount(), std::size_t(79));
        QCOMPARE(trial->atomicEventCount(), std::size_t(215));
        QVERIFY(trial->findAtomicEvent(QStringLiteral("MPI-IO Bytes Read")).isValid());
        QVERIFY(trial->findAtomicEvent(QStringLiteral("nEdges : ocn_tend_tracer => adv")).isValid());
        QCOMPARE(trial->groupCount(), std::size_t(2));
        QVERIFY(trial->eventInGroup(trial->findEvent(QStringLiteral("MPI_Allreduce()")), QStringLiteral("MPI")));
        QVERIFY(trial->eventInGroup(trial->findEvent(QStringLiteral(".TAU application")), QStringLiteral("TAU_USER")));
        QVERIFY(!trial->hasTimeSeries());
        QVERIFY(trial->timeSeries(ThreadIndex(0u)).empty());
        QCOMPARE(trial->provenance().reader, QStringLiteral("snapshot"));
        // Rows per rank: interval_data and atomic_data line counts of the file.
        const std::size_t intervalRows[] = { 78, 76, 75, 75, 75, 75, 75, 75 };
        const std::size_t atomicRows[] = { 168, 147, 145, 120, 120, 129, 121, 134 };
        for (std::size_t t = 0; t < 8; ++t) {
            QCOMPARE(trial->row(ThreadIndex(t)).size(), intervalRows[t]);
            // Rank 0 has both ids 0 and 6 and their twins 1 and 7: two records are pooled.
            QCOMPARE(trial->atomicRow(ThreadIndex(t)).size(), atomicRows[t] - (t == 0 ? 2 : 0));
        }
        // The merge by name is reported, not silent.
        const QString warnings = trial->warnings().join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(QStringLiteral("0 event and 2 user event definition(s) repeat a name")),
            qPrintable(warnings));
        QVERIFY2(warnings.contains(
                     QStringLiteral("2 user event record(s) of events defined twice under one name were pooled")),
            qPrintable(warnings));
    }

    void mergedSampleValues()
    {
        const auto trial = mustRead(mergedPath());
        QVERIFY(trial);
        // By hand from the XML text. Rank 0, line 2342: "0 1 451 4760 17049753" (docs/FORMATS.md 4.3).
        Cell c = cellOf(*trial, 0, QStringLiteral(".TAU application"));
        QCOMPARE(c.calls, 1.0);
        QCOMPARE(c.subrs, 451.0);
        QCOMPARE(c.excl, 4760.0);
        QCOMPARE(c.incl, 17049753.0);
        // Rank 1, line 346: "0 1 243 1519 17050695"; line 347: "1 266 0 365206 365206".
        c = cellOf(*trial, 1, QStringLiteral(".TAU application"));
        QCOMPARE(c.subrs, 243.0);
        QCOMPARE(c.excl, 1519.0);
        QCOMPARE(c.incl, 17050695.0);
        c = cellOf(*trial, 1, QStringLiteral("MPI_Allreduce()"));
        QCOMPARE(c.calls, 266.0);
        QCOMPARE(c.excl, 365206.0);
        QCOMPARE(c.incl, 365206.0);
        // Rank 7, line 1856: "1 266 0 380290 380290"; vadv (id 78) on rank 1, line 421: "78 480 0 49823 49823".
        QCOMPARE(cellOf(*trial, 7, QStringLiteral("MPI_Allreduce()")).excl, 380290.0);
        c = cellOf(*trial, 1, QStringLiteral("vadv"));
        QCOMPARE(c.calls, 480.0);
        QCOMPARE(c.excl, 49823.0);
        // User events: rank 1, line 428: "12 266 280 4 39.44360902255639 2255792" (max before min).
        const ThreadIndex r1 = trial->findThread({ 1, 0, 0 });
        UserCell u
            = userCellOf(trial->atomicRow(r1), trial->findAtomicEvent(QStringLiteral("Message size for all-reduce")));
        QCOMPARE(u.count, 266.0);
        QCOMPARE(u.max, 280.0);
        QCOMPARE(u.min, 4.0);
        QCOMPARE(u.mean, 39.44360902255639);
        QCOMPARE(u.sumSquares, 2255792.0);
        // Line 424: "0 62 920640 0 14849.03225806452 847578009600" (MPI-IO Bytes Read, id 0).
        u = userCellOf(trial->atomicRow(r1), trial->findAtomicEvent(QStringLiteral("MPI-IO Bytes Read")));
        QCOMPARE(u.count, 62.0);
        QCOMPARE(u.max, 920640.0);
        QCOMPARE(u.min, 0.0);
        QCOMPARE(u.mean, 14849.03225806452);
        QCOMPARE(u.sumSquares, 847578009600.0);
        // Rank 0 has ids 0 and 1, both "MPI-IO Bytes Read" (lines 2422-2423): pooled.
        u = userCellOf(trial->atomicRow(trial->findThread({ 0, 0, 0 })),
            trial->findAtomicEvent(QStringLiteral("MPI-IO Bytes Read")));
        QCOMPARE(u.count, 64.0);
        QCOMPARE(u.max, 920640.0);
        QCOMPARE(u.min, 262144.0 < 320.0 ? 262144.0 : 320.0);
        QCOMPARE(u.mean, (2 * 262144.0 + 62 * 130668.3225806452) / 64);
        QCOMPARE(u.sumSquares, 137438953472.0 + 4299739063504.0);
        // The trial names the pooled cells: on rank 0 only, "MPI-IO Bytes Read" (ids 0 and 1) and
        // "MPI-IO Read Bandwidth (MB/s)" (ids 6 and 7), 2 records each.
        const PooledAtomicCells& pooled = trial->pooledAtomicCells();
        QCOMPARE(pooled.cells().size(), std::size_t(2));
        const ThreadIndex r0 = trial->findThread({ 0, 0, 0 });
        QCOMPARE(pooled.records(r0, trial->findAtomicEvent(QStringLiteral("MPI-IO Bytes Read"))), 2u);
        QCOMPARE(pooled.records(r0, trial->findAtomicEvent(QStringLiteral("MPI-IO Read Bandwidth (MB/s)"))), 2u);
        QCOMPARE(pooled.records(r1, trial->findAtomicEvent(QStringLiteral("MPI-IO Bytes Read"))), 0u);
        // A context event name with an entity: "nEdges : ocn_tend_tracer =&gt; adv".
        const AtomicEventId ctx = trial->findAtomicEvent(QStringLiteral("nEdges : ocn_tend_tracer => adv"));
        QCOMPARE(trial->atomicEvent(ctx).baseName, QStringLiteral("nEdges"));
        QCOMPARE(trial->atomicEvent(ctx).context, QStringLiteral("ocn_tend_tracer => adv"));
    }

    void mergedSampleMetadata()
    {
        const auto trial = mustRead(mergedPath());
        QVERIFY(trial);
        const ThreadIndex r0 = trial->findThread({ 0, 0, 0 });
        const ThreadIndex r1 = trial->findThread({ 1, 0, 0 });
        const ThreadIndex r5 = trial->findThread({ 5, 0, 0 });
        // Per-rank keys stay per thread (docs/FORMATS.md 1.3).
        QCOMPARE(trial->metadataValue(QStringLiteral("nCells"), r1), QStringLiteral("349"));
        QCOMPARE(trial->metadataValue(QStringLiteral("nEdges"), r1), QStringLiteral("1129"));
        QCOMPARE(trial->metadataValue(QStringLiteral("pid"), r1), QStringLiteral("20497"));
        QCOMPARE(trial->metadataValue(QStringLiteral("pid"), r0), QStringLiteral("20496"));
        QCOMPARE(trial->metadataValue(QStringLiteral("Starting Timestamp"), r1), QStringLiteral("1386218871842346"));
        QCOMPARE(trial->metadataValue(QStringLiteral("nCells"), r5).isEmpty(), false);
        for (std::size_t t = 0; t < 8; ++t) {
            bool hasPid = false;
            for (const auto& entry : trial->threadMetadata(ThreadIndex(t)))
                hasPid = hasPid || trial->strings().get(entry.key) == QLatin1String("pid");
            QVERIFY(hasPid);
        }
        // Keys only rank 0 has are trial-wide (ParaProf's rule): the full block of the last fragment.
        bool trialWideCores = false;
        for (const auto& entry : trial->metadata())
            trialWideCores = trialWideCores
                || (trial->strings().get(entry.key) == QLatin1String("CPU Cores")
                    && trial->strings().get(entry.value) == QLatin1String("6"));
        QVERIFY(trialWideCores);
        QCOMPARE(trial->metadataValue(QStringLiteral("Hostname")), QStringLiteral("manticore.nic.uoregon.edu"));
        // Only in rank 0's second <thread> block (lines 2596-2863): both blocks are merged.
        QCOMPARE(trial->metadataValue(QStringLiteral("TAU_PRECOMPUTE")), QStringLiteral("on"));
        QCOMPARE(trial->metadataValue(QStringLiteral("TAU Profile Merge Time")), QStringLiteral("0.001324 seconds"));
    }

    void mergedProvidedStatistics()
    {
        const auto trial = mustRead(mergedPath());
        QVERIFY(trial);
        const auto& provided = trial->providedStatistics();
        QCOMPARE(provided.size(), std::size_t(7));
        QStringList names;
        for (const auto& p : provided)
            names << p.name;
        QCOMPARE(names,
            (QStringList { QStringLiteral("total"), QStringLiteral("mean_all"), QStringLiteral("mean_no_null"),
                QStringLiteral("stddev_all"), QStringLiteral("stddev_no_null"), QStringLiteral("min_no_null"),
                QStringLiteral("max_no_null") }));
        for (int id = -7; id <= -1; ++id)
            QVERIFY(trial->providedStatistic(id));
        QCOMPARE(trial->providedStatistic(-2)->name, QStringLiteral("total"));
        QCOMPARE(trial->providedStatistic(-6)->name, QStringLiteral("mean_all"));
        QCOMPARE(trial->providedStatistic(-4)->name, QStringLiteral("min_no_null"));
        // "total" row for event 0, line 2870: "0 8 2074 14172 136389498"; no atomic block there.
        const ProvidedStatistic* total = trial->providedStatistic(-2);
        Cell c = cellOf(total->row, trial->findEvent(QStringLiteral(".TAU application")));
        QCOMPARE(c.calls, 8.0);
        QCOMPARE(c.subrs, 2074.0);
        QCOMPARE(c.excl, 14172.0);
        QCOMPARE(c.incl, 136389498.0);
        QCOMPARE(total->row.size(), std::size_t(79));
        QCOMPARE(total->atomicRow.size(), std::size_t(0));
        // mean_all, line 2958: "0 1 259.25 1771.5 17048687.25".
        c = cellOf(trial->providedStatistic(-6)->row, trial->findEvent(QStringLiteral(".TAU application")));
        QCOMPARE(c.subrs, 259.25);
        QCOMPARE(c.incl, 17048687.25);
        // min_no_null, line 4187: "1 266 -1 20578 20578": a negative count is unknown.
        c = cellOf(trial->providedStatistic(-4)->row, trial->findEvent(QStringLiteral("MPI_Allreduce()")));
        QCOMPARE(c.calls, 266.0);
        QVERIFY(std::isnan(c.subrs));
        QCOMPARE(c.excl, 20578.0);
        // Atomic: mean_all, line 3049 "12 266 ..." is for "Message size for all-reduce".
        const AtomicRow& meanAll = trial->providedStatistic(-6)->atomicRow;
        QCOMPARE(meanAll.size(), std::size_t(215));
        // Ids 0 and 1 share a name: the file's per-id values cannot be one value per name.
        const UserCell twin = userCellOf(meanAll, trial->findAtomicEvent(QStringLiteral("MPI-IO Bytes Read")));
        QVERIFY(std::isnan(twin.count) && std::isnan(twin.mean));
        QVERIFY(trial->warnings()
                    .join(QLatin1Char('\n'))
                    .contains(QStringLiteral("'MPI-IO Bytes Read', 'MPI-IO Read Bandwidth (MB/s)'")));
    }

    /// The file's derived rows against Parallax's own statistics, wherever both are defined.
    void providedAgreeWithParallaxStatistics()
    {
        const auto trial = mustRead(mergedPath());
        QVERIFY(trial);
        const auto stats = TrialStatistics::of(*trial);
        const ValueKind kinds[]
            = { ValueKind::Calls, ValueKind::Subroutines, ValueKind::Exclusive, ValueKind::Inclusive };
        int compared = 0;
        for (const auto& p : trial->providedStatistics()) {
            const IntervalRow& row = p.row;
            for (std::size_t i = 0; i < row.size(); ++i) {
                const double given[] = { row.calls[i], row.subrs[i], row.exclusive(0, i), row.inclusive(0, i) };
                for (int k = 0; k < 4; ++k) {
                    if (std::isnan(given[k]))
                        continue;
                    const Stat& s = stats->stat(row.events[i], MetricId(0u), kinds[k]);
                    double ours = 0;
                    switch (p.derivedId) {
                    case -1:
                        ours = s.meanPresent;
                        break;
                    case -2:
                        ours = s.total;
                        break;
                    case -3:
                        ours = s.sdPresent;
                        break;
                    case -4:
                        ours = s.min;
                        break;
                    case -5:
                        ours = s.max;
                        break;
                    case -6:
                        ours = s.meanAll;
                        break;
                    case -7:
                        ours = s.sdAll;
                        break;
                    default:
                        QFAIL("unexpected derived id");
                    }
                    // TAU prints %.16G; sds go through a cancelling sqrt(E[x^2] - mean^2).
                    const double tolerance = (p.derivedId == -3 || p.derivedId == -7)
                        ? 1e-6 * std::max(1.0, s.max)
                        : 1e-9 * std::max(1.0, std::abs(ours));
                    QVERIFY2(std::abs(ours - given[k]) <= tolerance,
                        qPrintable(QStringLiteral("%1 %2 field %3: file %4, Parallax %5")
                                       .arg(p.name, trial->event(row.events[i]).name)
                                       .arg(k)
                                       .arg(given[k], 0, 'g', 17)
                                       .arg(ours, 0, 'g', 17)));
                    ++compared;
                }
            }
        }
        QCOMPARE(compared, 7 * 79 * 4 - 53); // min_no_null leaves 53 subrs unknown (-1)
    }

    void gzipReadsIdentically()
    {
        QTemporaryDir dir;
        const QByteArray text = readAll(mergedPath());
        QCOMPARE(text.size(), qsizetype(176448));
        const QString gz = dir.filePath(QStringLiteral("tauprofile.xml.gz"));
        gzipTo(gz, text);
        const QString twoMembers = dir.filePath(QStringLiteral("two.xml.gz"));
        gzipTo(twoMembers, text, 2);
        const auto plain = mustRead(mergedPath());
        const auto compressed = mustRead(gz);
        const auto concatenated = mustRead(twoMembers);
        QVERIFY(plain && compressed && concatenated);
        compareTrials(*plain, *compressed);
        compareTrials(*plain, *concatenated);
        QCOMPARE(SnapshotReader().sniff(gz), 100);
        QCOMPARE(ReaderRegistry::instance().detect(gz)->name(), QStringLiteral("snapshot"));
    }

    void singleThreadedReadIsTheSame()
    {
        const auto parallel = mustRead(mergedPath(), 0);
        const auto serial = mustRead(mergedPath(), 1);
        QVERIFY(parallel && serial);
        compareTrials(*parallel, *serial);
    }

    void multiSnapshotFixture()
    {
        QTemporaryDir dir;
        for (int t = 0; t < 2; ++t)
            writeText(dir.filePath(QStringLiteral("snapshot.0.0.%1").arg(t)), snapshotFile(t));
        for (const QString& path : { dir.path(), dir.filePath(QStringLiteral("snapshot.0.0.1")) }) {
            QCOMPARE(SnapshotReader().sniff(path), 100);
            QCOMPARE(ReaderRegistry::instance().detect(path)->name(), QStringLiteral("snapshot"));
            const auto trial = mustLoad(path);
            QVERIFY(trial);
            QCOMPARE(trial->threadCount(), std::size_t(2));
            QCOMPARE(trial->eventCount(), std::size_t(3));
            QCOMPARE(trial->atomicEventCount(), std::size_t(1));
            // Canonical names (trailing type " " and runs of spaces), raw names kept.
            const EventId root = trial->findEvent(QStringLiteral(".TAU application"));
            const EventId compute = trial->findEvent(QStringLiteral("compute [{x.c} {1,1}]"));
            const EventId send = trial->findEvent(QStringLiteral("MPI_Send()"));
            QVERIFY(root.isValid() && compute.isValid() && send.isValid());
            QCOMPARE(trial->event(compute).rawName, QStringLiteral("compute  [{x.c} {1,1}]  "));
            QVERIFY(trial->eventInGroup(send, QStringLiteral("MPI")));
            QVERIFY(trial->hasTimeSeries());
            for (int t = 0; t < 2; ++t) {
                const ThreadIndex ti = trial->findThread({ 0, 0, t });
                QVERIFY(ti.isValid());
                // The last snapshot is the profile.
                const Cell last = cellOf(trial->row(ti), root);
                QCOMPARE(last.subrs, 3.0);
                QCOMPARE(last.excl, rootExcl(t, 2));
                QCOMPARE(last.incl, rootIncl(t, 2));
                QCOMPARE(cellOf(trial->row(ti), send).calls, 2.0);
                QCOMPARE(userCellOf(trial->atomicRow(ti),
                             trial->findAtomicEvent(QStringLiteral("Message size sent to all nodes")))
                             .count,
                    8.0);
                // The series: 3 points, oldest first, named and stamped.
                const auto& series = trial->timeSeries(ti);
                QCOMPARE(series.size(), std::size_t(3));
                const QString names[]
                    = { QStringLiteral("iteration 1"), QStringLiteral("iteration 2"), QStringLiteral("final") };
                for (int s = 0; s < 3; ++s) {
                    QCOMPARE(series[static_cast<std::size_t>(s)].name, names[s]);
                    QCOMPARE(series[static_cast<std::size_t>(s)].timestamp, 1000000LL * (s + 1) + t);
                    const Cell point = cellOf(series[static_cast<std::size_t>(s)].row, root);
                    QCOMPARE(point.excl, rootExcl(t, s));
                    QCOMPARE(point.incl, rootIncl(t, s));
                    QCOMPARE(cellOf(series[static_cast<std::size_t>(s)].row, compute).calls, double(s + 1));
                    // MPI_Send and the user event are defined by the second snapshot.
                    QCOMPARE(series[static_cast<std::size_t>(s)].row.find(send) >= 0, s >= 1);
                    QCOMPARE(series[static_cast<std::size_t>(s)].atomicRow.size(), std::size_t(s >= 1 ? 1 : 0));
                }
                QVERIFY(sameRow(series.back().row, trial->row(ti)));
                QVERIFY(sameRow(series.back().atomicRow, trial->atomicRow(ti)));
                QCOMPARE(trial->metadataValue(QStringLiteral("tid"), ti), QString::number(t));
            }
            // Same value on both threads: trial-wide; a key with a timer context stays per thread.
            QCOMPARE(trial->metadataValue(QStringLiteral("Hostname")), QStringLiteral("node-a"));
            bool loopTrialWide = false;
            for (const auto& entry : trial->metadata())
                loopTrialWide = loopTrialWide || trial->strings().get(entry.key) == QLatin1String("Loop");
            QVERIFY(!loopTrialWide);
            QCOMPARE(
                trial->metadataValue(QStringLiteral("Loop"), trial->findThread({ 0, 0, 1 })), QStringLiteral("same"));
            QVERIFY(trial->providedStatistics().empty());
        }
    }

    void directoryWithABadFile()
    {
        // As for profile.N.C.T: an unreadable file is skipped with a warning, or fatal when strict.
        QTemporaryDir dir;
        for (int t = 0; t < 2; ++t)
            writeText(dir.filePath(QStringLiteral("snapshot.0.0.%1").arg(t)), snapshotFile(t));
        const QByteArray bad
            = snapshotFile(2).replace("<interval_data metrics=\"0 \">\n0 1 2", "<interval_data metrics=\"0 \">\n0 1 ?");
        writeText(dir.filePath(QStringLiteral("snapshot.0.0.2")), bad);
        const auto trial = mustLoad(dir.path());
        QVERIFY(trial);
        QCOMPARE(trial->threadCount(), std::size_t(2));
        QVERIFY(trial->warnings()
                    .join(QLatin1Char('\n'))
                    .contains(QStringLiteral("skipped 1 unreadable snapshot file(s)")));
        const auto strict = load(dir.path(), true);
        QVERIFY(!strict.ok());
        QCOMPARE(strict.error().file, dir.filePath(QStringLiteral("snapshot.0.0.2")));
        const auto [line, offset] = whereIs(bad, "0 1 ?");
        QCOMPARE(strict.error().line, line);
        QCOMPARE(strict.error().byteOffset, qint64(offset));
        QVERIFY2(strict.error().message.contains(QStringLiteral("expected a number for subrs of event 0, found '?'")),
            qPrintable(strict.error().toString()));
        // The same thread in two files cannot be merged.
        QTemporaryDir twice;
        writeText(twice.filePath(QStringLiteral("snapshot.0.0.0")), snapshotFile(0));
        writeText(twice.filePath(QStringLiteral("snapshot.0.0.1")), snapshotFile(0));
        const auto duplicated = load(twice.path());
        QVERIFY(!duplicated.ok());
        QVERIFY2(duplicated.error().message.contains(QStringLiteral("thread 0,0,0 is also in")),
            qPrintable(duplicated.error().toString()));
    }

    /// Score-P's TAU snapshot writer: several threads in one fragment, no <metadata>, ids per thread.
    void severalThreadsInOneFragment()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("snapshot.3.0.0"));
        writeText(path, R"(<?xml version="1.0" encoding="UTF-8"?>
<profile_xml>
<thread id="3.0.0.0" node="3" context="0" thread="0">
</thread>

<definitions thread="3.0.0.0">
<metric id="0"><name>TIME</name>
<units>ms</units>
</metric>
</definitions>

<definitions thread="3.0.0.0">
<event id="0"><name>main</name><group>TAU_DEFAULT</group></event>
</definitions>
<profile thread="3.0.0.0">
<name>final</name>
<interval_data metrics="0">
0 1 0 5 5
</interval_data>
<atomic_data>
</atomic_data>
</profile>

<thread id="3.0.1.0" node="3" context="0" thread="1">
</thread>

<definitions thread="3.0.1.0">
<metric id="0"><name>TIME</name>
<units>ms</units>
</metric>
</definitions>

<definitions thread="3.0.1.0">
<event id="0"><name>worker</name><group>TAU_DEFAULT</group></event>
<event id="1"><name>main</name><group>TAU_DEFAULT</group></event>
</definitions>
<profile thread="3.0.1.0">
<name>final</name>
<interval_data metrics="0">
0 2 0 7 7
1 1 2 1 8
</interval_data>
<atomic_data>
</atomic_data>
</profile>

</profile_xml>
)");
        const auto trial = mustRead(path);
        QVERIFY(trial);
        QCOMPARE(trial->threadCount(), std::size_t(2));
        QCOMPARE(trial->eventCount(), std::size_t(2));
        QVERIFY(!trial->hasTimeSeries());
        // Ids are per thread: id 0 is main on thread 0 and worker on thread 1.
        QCOMPARE(
            cellOf(trial->row(trial->findThread({ 3, 0, 0 })), trial->findEvent(QStringLiteral("main"))).excl, 5.0);
        QCOMPARE(
            cellOf(trial->row(trial->findThread({ 3, 0, 1 })), trial->findEvent(QStringLiteral("worker"))).excl, 7.0);
        QCOMPARE(
            cellOf(trial->row(trial->findThread({ 3, 0, 1 })), trial->findEvent(QStringLiteral("main"))).incl, 8.0);
    }

    void sniffing()
    {
        const SnapshotReader reader;
        QCOMPARE(reader.sniff(mergedPath()), 100);
        QCOMPARE(ReaderRegistry::instance().detect(mergedPath())->name(), QStringLiteral("snapshot"));
        QTemporaryDir dir;
        const QString other = dir.filePath(QStringLiteral("other.xml"));
        writeText(other, "<?xml version=\"1.0\"?>\n<cube version=\"3.0\">\n</cube>\n");
        QCOMPARE(reader.sniff(other), 0);
        const QString declared = dir.filePath(QStringLiteral("declared.xml"));
        writeText(declared, "<?xml version=\"1.0\"?><profile_xml>\n</profile_xml>\n");
        QCOMPARE(reader.sniff(declared), 100);
        // Named like one but empty: read() says what is wrong.
        const QString empty = dir.filePath(QStringLiteral("tauprofile.xml"));
        writeText(empty, "");
        QCOMPARE(reader.sniff(empty), 50);
        Progress progress;
        const auto result = reader.read(empty, {}, progress);
        QVERIFY(!result.ok());
        QVERIFY2(result.error().message.contains(QStringLiteral("no <profile_xml> fragment")),
            qPrintable(result.error().toString()));
        QCOMPARE(reader.sniff(dataPath(QStringLiteral("tau2/tau-profiles-wrap-params"))), 0);
        QCOMPARE(reader.sniff(dataPath(QStringLiteral("tau2/tau-profiles-wrap-params/profile.0.0.0"))), 0);
        ThreadKey key;
        QVERIFY(SnapshotReader::parseSnapshotFileName(QStringLiteral("snapshot.12.0.3"), key));
        QCOMPARE(key, (ThreadKey { 12, 0, 3 }));
        QVERIFY(!SnapshotReader::parseSnapshotFileName(QStringLiteral("snapshot.1.0"), key));
        QVERIFY(!SnapshotReader::parseSnapshotFileName(QStringLiteral("snapshot.-1.0.0"), key));
        QCOMPARE(SnapshotReader::derivedThreadId(QStringLiteral("stddev_all")), -7);
        QCOMPARE(SnapshotReader::derivedThreadId(QStringLiteral("median")), 0);
    }

    void progressAndCancel()
    {
        qint64 readTotal = 0;
        QStringList stages;
        Progress progress([&](const QString& stage, qint64 done, qint64 total) {
            if (stages.isEmpty() || stages.back() != stage)
                stages << stage;
            if (stage == QLatin1String("Reading TAU snapshot XML")) {
                readTotal = total;
                QVERIFY(done <= total);
            }
        });
        QVERIFY(SnapshotReader().read(mergedPath(), {}, progress).ok());
        // Progress counts the bytes of the file.
        QCOMPARE(readTotal, qint64(176448));
        QCOMPARE(
            stages, (QStringList { QStringLiteral("Reading TAU snapshot XML"), QStringLiteral("Building the trial") }));
        Progress cancelled;
        cancelled.cancel();
        const auto result = SnapshotReader().read(mergedPath(), {}, cancelled);
        QVERIFY(!result.ok());
        QCOMPARE(result.error().message, QStringLiteral("cancelled"));
    }

    void directoryWithTheMergedFile()
    {
        // The sample's folder opens as its tauprofile.xml.
        const QString folder = dataPath(QStringLiteral("tau2/tauprofile-xml-merged"));
        QCOMPARE(SnapshotReader().sniff(folder), 100);
        QCOMPARE(ReaderRegistry::instance().detect(folder)->name(), QStringLiteral("snapshot"));
        const auto trial = mustLoad(folder);
        QVERIFY(trial);
        QCOMPARE(trial->threadCount(), std::size_t(8));
        QCOMPARE(trial->provenance().source, QFileInfo(mergedPath()).absoluteFilePath());
    }

    // ---- bad input -----------------------------------------------------------------------------

    void truncatedSample_data()
    {
        QTest::addColumn<qsizetype>("cut");
        QTest::addColumn<bool>("gzip");
        for (const qsizetype cut : { qsizetype(1), qsizetype(7), qsizetype(100), qsizetype(5000), qsizetype(12345),
                 qsizetype(40000), qsizetype(88888), qsizetype(120001), qsizetype(176000), qsizetype(176448 - 5) }) {
            QTest::addRow("plain-%lld", static_cast<long long>(cut)) << cut << false;
            QTest::addRow("gzip-%lld", static_cast<long long>(cut)) << cut << true;
        }
    }

    void truncatedSample()
    {
        QFETCH(qsizetype, cut);
        QFETCH(bool, gzip);
        QTemporaryDir dir;
        const QByteArray text = readAll(mergedPath()).left(cut);
        const QString path
            = dir.filePath(QStringLiteral("tauprofile.xml") + (gzip ? QStringLiteral(".gz") : QString()));
        if (gzip)
            gzipTo(path, text);
        else
            writeText(path, text);
        const auto result = readSnapshot(path);
        QVERIFY(!result.ok());
        const ReadError& e = result.error();
        QCOMPARE(e.file, path);
        QVERIFY2(e.message.contains(QStringLiteral("truncated file")), qPrintable(e.toString()));
        // At the end of what is there: the last line, and the byte after the last one.
        QCOMPARE(e.line, text.count('\n') + 1);
        QCOMPARE(e.byteOffset, qint64(cut));
        if (gzip)
            QVERIFY2(e.message.contains(QStringLiteral("uncompressed stream")), qPrintable(e.toString()));
    }

    void truncatedGzipStream()
    {
        // The compressed file itself cut short: the gzip stream and the XML both end early.
        QTemporaryDir dir;
        const QString full = dir.filePath(QStringLiteral("full.xml.gz"));
        gzipTo(full, readAll(mergedPath()));
        const QByteArray compressed = readAll(full);
        const QString path = dir.filePath(QStringLiteral("cut.xml.gz"));
        writeText(path, compressed.left(compressed.size() / 2));
        const auto result = readSnapshot(path);
        QVERIFY(!result.ok());
        QVERIFY2(result.error().message.contains(QStringLiteral("gzip stream is cut short")),
            qPrintable(result.error().toString()));
        QVERIFY(result.error().line > 1);
        // Only the 8-byte trailer missing: the XML is complete, the checksum unverified.
        writeText(path, compressed.left(compressed.size() - 8));
        const auto trial = mustRead(path);
        QVERIFY(trial);
        QVERIFY(
            trial->warnings().join(QLatin1Char('\n')).contains(QStringLiteral("cut short after the last fragment")));
        // Corrupt compressed bytes.
        QByteArray bad = compressed;
        for (qsizetype i = 1000; i < 1100; ++i)
            bad[i] = static_cast<char>(bad[i] ^ 0x5a);
        writeText(path, bad);
        const auto corrupt = readSnapshot(path);
        QVERIFY(!corrupt.ok());
        QVERIFY2(corrupt.error().message.contains(QStringLiteral("corrupt gzip data")),
            qPrintable(corrupt.error().toString()));
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<int>("occurrence");
        QTest::addColumn<QByteArray>("at"); // where the error must point: this text in the spoilt file
        QTest::addColumn<QString>("message");
        QTest::newRow("corrupt end tag") << QByteArray("</interval_data>") << QByteArray("</interval_dat>") << 3
                                         << QByteArray("</interval_dat>")
                                         << QStringLiteral(
                                                "malformed XML inside <profile_xml> <profile> <interval_data>");
        QTest::newRow("corrupt start tag") << QByteArray("<atomic_data>") << QByteArray("<atomic data>") << 2
                                           << QByteArray("<atomic data>") << QStringLiteral("malformed XML");
        QTest::newRow("unknown event id")
            << QByteArray("\n3 1380 0 110927 110927") << QByteArray("\n99 1380 0 110927 110927") << 0
            << QByteArray("99 1380 0 110927 110927")
            << QStringLiteral("unknown event id 99 in <interval_data>: no <event id=\"99\"> in the definitions for "
                              "thread '1.0.0.20497' or '*'");
        QTest::newRow("unknown user event id")
            << QByteArray("\n12 266 280 4 39.44360902255639 2255792")
            << QByteArray("\n300 266 280 4 39.44360902255639 2255792") << 0 << QByteArray("300 266 280 4")
            << QStringLiteral("unknown user event id 300");
        QTest::newRow("unknown metric id") << QByteArray("metrics=\"0 \"") << QByteArray("metrics=\"0 2 \"") << 4
                                           << QByteArray("metrics=\"0 2 \"") << QStringLiteral("unknown metric id 2");
        QTest::newRow("short row") << QByteArray("\n2 29 0 612 612") << QByteArray("\n2 29 0 612") << 0
                                   << QByteArray("2 29 0 612")
                                   << QStringLiteral("expected 5 numbers in a row of <interval_data>");
        QTest::newRow("not a number")
            << QByteArray("\n2 29 0 612 612") << QByteArray("\n2 29 0 6x2 612") << 0 << QByteArray("2 29 0 6x2 612")
            << QStringLiteral("expected a number for exclusive (metric column 0) of event 2, found '6x2'");
        QTest::newRow("event without id")
            << QByteArray("<event id=\"5\">") << QByteArray("<event>") << 0 << QByteArray("<event>")
            << QStringLiteral("<event> without the attribute id");
        QTest::newRow("event without name")
            << QByteArray("<event id=\"5\"><name>MPI_Comm_dup()</name>") << QByteArray("<event id=\"5\">") << 0
            << QByteArray("<event id=\"5\">") << QStringLiteral("<event id=\"5\"> has no <name>");
        QTest::newRow("profile without thread")
            << QByteArray("<profile thread=\"3.0.0.20499\">") << QByteArray("<profile>") << 0 << QByteArray("<profile>")
            << QStringLiteral("<profile> without the attribute thread");
        QTest::newRow("interval_data without metrics")
            << QByteArray("<interval_data metrics=\"0 \">") << QByteArray("<interval_data>") << 2
            << QByteArray("<interval_data>") << QStringLiteral("without the attribute metrics");
        QTest::newRow("event redefined")
            << QByteArray("<event id=\"6\">") << QByteArray("<event id=\"5\">") << 0
            << QByteArray("<event id=\"5\"><name>MPI_Comm_free")
            << QStringLiteral("is defined twice for thread '*', as 'MPI_Comm_dup()' and as 'MPI_Comm_free()'");
        QTest::newRow("thread without id")
            << QByteArray("<thread id=\"4.0.0.20500\"") << QByteArray("<thread") << 0
            << QByteArray("<thread node=\"4\"") << QStringLiteral("<thread> without the attribute id");
        QTest::newRow("bad node") << QByteArray("node=\"4\"") << QByteArray("node=\"-4\"") << 0
                                  << QByteArray("<thread id=\"4.0.0.20500\"")
                                  << QStringLiteral("<thread node='-4'>: expected a non-negative integer");
        QTest::newRow("text between fragments")
            << QByteArray("</profile_xml>\n<profile_xml>") << QByteArray("</profile_xml>\nhello<profile_xml>") << 0
            << QByteArray("hello") << QStringLiteral("unexpected text 'hello' between fragments");
        QTest::newRow("undeclared thread")
            << QByteArray("<profile thread=\"3.0.0.20499\">") << QByteArray("<profile thread=\"rank three\">") << 0
            << QByteArray("<profile thread=\"rank three\">")
            << QStringLiteral("names a thread that no <thread> element declares");
        QTest::newRow("bad timestamp") << QByteArray("<timestamp>1386218888893413</timestamp>")
                                       << QByteArray("<timestamp>soon</timestamp>") << 0
                                       << QByteArray("<timestamp>soon")
                                       << QStringLiteral("expected microseconds since the epoch");
        QTest::newRow("stray ampersand") << QByteArray("<name>MPI_Recv()</name>")
                                         << QByteArray("<name>MPI_Recv() & co</name>") << 0 << QByteArray(" co</name>")
                                         << QStringLiteral("malformed XML");
    }

    void badInput()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(int, occurrence);
        QFETCH(QByteArray, at);
        QFETCH(QString, message);
        const QByteArray text = spoilt(readAll(mergedPath()), from, to, occurrence);
        QVERIFY(!text.isEmpty());
        QTemporaryDir dir;
        for (const bool gzip : { false, true }) {
            const QString path = dir.filePath(gzip ? QStringLiteral("bad.xml.gz") : QStringLiteral("bad.xml"));
            if (gzip)
                gzipTo(path, text);
            else
                writeText(path, text);
            const auto result = readSnapshot(path);
            QVERIFY(!result.ok());
            const ReadError& e = result.error();
            QCOMPARE(e.file, path);
            QVERIFY2(e.message.contains(message), qPrintable(e.toString()));
            // The line of the spoilt spot, and a byte offset on that line at or before the spot's end.
            const auto [line, offset] = whereIs(text, at);
            QVERIFY(line > 0);
            QVERIFY2(e.line == line,
                qPrintable(QStringLiteral("line %1, expected %2: %3").arg(e.line).arg(line).arg(e.toString())));
            if (at.startsWith('<') && !message.startsWith(QStringLiteral("malformed XML")))
                QVERIFY2(e.byteOffset == offset,
                    qPrintable(
                        QStringLiteral("byte %1, expected %2: %3").arg(e.byteOffset).arg(offset).arg(e.toString())));
            const qsizetype lineStart = text.lastIndexOf('\n', offset) + 1;
            QVERIFY2(e.byteOffset >= lineStart && e.byteOffset <= offset + at.size() + 1,
                qPrintable(QStringLiteral("byte %1, expected within [%2, %3]")
                               .arg(e.byteOffset)
                               .arg(lineStart)
                               .arg(offset + at.size() + 1)));
        }
    }

    void rowErrorsPointAtTheRow()
    {
        // Data rows are located exactly: the byte offset is the row's first byte.
        const QByteArray text = spoilt(readAll(mergedPath()), "\n45 1 1 3346 ", "\n45 1 X 3346 ");
        QVERIFY(!text.isEmpty());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.xml"));
        writeText(path, text);
        const auto result = readSnapshot(path);
        QVERIFY(!result.ok());
        const auto [line, offset] = whereIs(text, "45 1 X 3346 ");
        QCOMPARE(result.error().line, line);
        QCOMPARE(result.error().byteOffset, qint64(offset));
        QVERIFY2(result.error().message.contains(QStringLiteral("expected a number for subrs of event 45, found 'X'")),
            qPrintable(result.error().toString()));
    }

    void unknownElementsAreSkippedWithOneWarning()
    {
        QByteArray text = readAll(mergedPath());
        text = spoilt(text, "<timestamp>", "<extra a=\"1\"><deeper>text</deeper></extra><timestamp>", 0);
        text = spoilt(text, "<timestamp>", "<extra/><timestamp>", 3);
        text = spoilt(text, "</metadata>", "<other_block>x</other_block></metadata>", 1);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("extra.xml"));
        writeText(path, text);
        const auto trial = mustRead(path);
        QVERIFY(trial);
        const auto plain = mustRead(mergedPath());
        QCOMPARE(trial->cellCount(), plain->cellCount());
        QCOMPARE(trial->warnings().filter(QStringLiteral("<extra>")).size(), 1);
        QCOMPARE(trial->warnings().filter(QStringLiteral("<other_block>")).size(), 1);
        QCOMPARE(trial->warnings().size(), plain->warnings().size() + 2);
    }

    void fuzzedSamplesNeverCrash()
    {
        // A cheap in-suite stand-in for the libFuzzer target: flipped and deleted bytes everywhere.
        const QByteArray text = readAll(mergedPath());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("f.xml"));
        int errors = 0;
        for (qsizetype i = 0; i < text.size(); i += 997) {
            QByteArray bad = text;
            if (i % 2)
                bad[i] = static_cast<char>(bad[i] ^ 0x20);
            else
                bad.remove(i, 3);
            writeText(path, bad);
            const auto result = readSnapshot(path, 1);
            if (!result.ok()) {
                ++errors;
                QVERIFY(!result.error().message.isEmpty());
                QVERIFY(result.error().line > 0);
                QVERIFY(result.error().byteOffset >= 0);
            }
        }
        QVERIFY(errors > 20);
    }
};

QTEST_GUILESS_MAIN(TestSnapshotReader)
#include "tst_snapshotreader.moc"
