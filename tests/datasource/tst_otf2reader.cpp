// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The OTF2 reader against the facts of ../shared/data/otf2/*/MANIFEST.md (pipit's ping-pong traces,
// fastotf2's sample, the OTF2 integrity-test trace), against an oracle that recomputes inclusive and
// exclusive time from the ENTER/LEAVE lines of `otf2-print`, and the window rule of
// docs/SEMANTICS.md 1.10 (whole trace = no window, adjacent windows add up, a window inside one region).
#include "datasource/readers/otf2reader.h"
#include "datasource/readers/readerregistry.h"
#include "tests/common/readertest.h"
#include "tests/common/testutil.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <otf2/otf2.h>
#include <tuple>

using namespace parallax;
using namespace parallax::test;

namespace {

QString pingPong() { return dataPath(QStringLiteral("otf2/pipit/ping-pong-otf2")); }
QString pingPongPapi() { return dataPath(QStringLiteral("otf2/pipit/ping-pong-otf2-papi")); }
QString fastOtf2() { return dataPath(QStringLiteral("otf2/fastotf2/simple-mi300-example-run")); }
QString integrity() { return dataPath(QStringLiteral("otf2/otf2-integrity-test/OTF2_Integrity_trace_1")); }

std::shared_ptr<Trial> readWindow(const QString& path, const QStringList& window = {})
{
    ReadOptions options;
    options.formatOptions = window;
    return mustReadWith(Otf2Reader(), path, options);
}

double metadata(const Trial& t, const QString& key) { return t.metadataValue(key).toDouble(); }

/// Ticks (at the trace's timer resolution) as the reader's microseconds.
double us(const Trial& t, double ticks)
{
    return ticks * 1e6 / metadata(t, QStringLiteral("OTF2 timer resolution (ticks/s)"));
}

/// Per location (in order of id) and region name: {inclusive ticks, exclusive ticks, visits}, computed
/// from otf2-print's ENTER/LEAVE lines with a stack of our own (recursion counted once in inclusive).
struct OracleCell {
    double incl = 0;
    double excl = 0;
    double visits = 0;
    /// Counters (METRIC lines' values, accumulated from the start): value at the leave minus value
    /// at the enter, and that minus the children's.
    std::map<QString, double> counterIncl;
    std::map<QString, double> counterExcl;
};
std::map<quint64, std::map<QString, OracleCell>> oracle(const QString& anchor)
{
    QProcess p;
    p.start(QStringLiteral(PARALLAX_OTF2_PRINT), { anchor });
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return {};
    struct Open {
        QString region;
        quint64 enter;
        quint64 children;
        std::map<QString, double> counterEnter;
        std::map<QString, double> counterChildren;
    };
    std::map<quint64, std::vector<Open>> stacks;
    std::map<quint64, std::map<QString, double>> counters; // per location: the latest METRIC values
    std::map<quint64, std::map<QString, OracleCell>> out;
    static const QRegularExpression line(
        QStringLiteral(R"re(^(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "(.*)" <\d+>)re"));
    static const QRegularExpression metric(
        QStringLiteral("^METRIC\\s+(\\d+)\\s+\\d+\\s+Metric: \\d+, \\d+ Values: (.*)"));
    // ("PAPI_TOT_CYC" <0>; UINT64; 98850)
    static const QRegularExpression value(QStringLiteral("\\(\"([^\"]*)\" <\\d+>; UINT64; (\\d+)\\)"));
    for (const QByteArray& raw : p.readAllStandardOutput().split('\n')) {
        const QString text = QString::fromUtf8(raw);
        if (const auto mm = metric.match(text); mm.hasMatch()) {
            for (auto it = value.globalMatch(mm.captured(2)); it.hasNext();) {
                const auto v = it.next();
                counters[mm.captured(1).toULongLong()][v.captured(1)] = v.captured(2).toDouble();
            }
            continue;
        }
        const auto m = line.match(text);
        if (!m.hasMatch())
            continue;
        const quint64 loc = m.captured(2).toULongLong();
        const quint64 t = m.captured(3).toULongLong();
        auto& stack = stacks[loc];
        if (m.captured(1) == QLatin1String("ENTER")) {
            stack.push_back({ m.captured(4), t, 0, counters[loc], {} });
            ++out[loc][m.captured(4)].visits;
            continue;
        }
        const Open o = stack.back();
        stack.pop_back();
        const double incl = static_cast<double>(t - o.enter);
        OracleCell& c = out[loc][o.region];
        c.excl += incl - static_cast<double>(o.children);
        const bool outermost
            = std::none_of(stack.begin(), stack.end(), [&](const Open& x) { return x.region == o.region; });
        if (outermost)
            c.incl += incl;
        for (const auto& [name, now] : counters[loc]) {
            const double counted = now - o.counterEnter.at(name);
            const auto children = o.counterChildren.find(name);
            c.counterExcl[name] += counted - (children == o.counterChildren.end() ? 0.0 : children->second);
            if (outermost)
                c.counterIncl[name] += counted;
            if (!stack.empty())
                stack.back().counterChildren[name] += counted;
        }
        if (!stack.empty())
            stack.back().children += t - o.enter;
    }
    return out;
}

/// The flat events (not call paths) of a trial.
QStringList flatEvents(const Trial& t)
{
    QStringList names;
    for (const IntervalEvent& e : t.events())
        if (!e.name.contains(QLatin1String(" => ")))
            names << e.name;
    return names;
}

/// The thread of each location, in order of location id (as the reader numbers them).
ThreadIndex threadOfLocation(const Trial& t, quint64 location)
{
    for (std::size_t i = 0; i < t.threadCount(); ++i)
        if (t.metadataValue(QStringLiteral("OTF2 location id"), ThreadIndex(static_cast<quint32>(i))).toULongLong()
            == location)
            return ThreadIndex(static_cast<quint32>(i));
    return {};
}

/// A 3-rank trace written with the OTF2 writer API whose MPI collectives are known (docs/SEMANTICS.md
/// 1.10): each location r (world rank r, its own location group) calls, 100 ticks apart, with the
/// bytes Score-P records (scorep_mpi_coll.inc.c) for a block of b bytes on n ranks:
///   MPI_Bcast (root 0, b = 800), MPI_Allreduce (b = 64), MPI_Gather (root 1, b = 40), MPI_Barrier,
///   MPI_Scan (b = 16), MPI_Alltoall (b = 24), MPI_Reduce (root 2, b = 32), MPI_Gather on a
///   communicator of world ranks {2, 0} (root 0 = world rank 2, b = 100; rank 1 is not in it and
///   calls nothing), MPI_Allreduce on communicator 7 (not defined), and at tick 10,000 a second
///   MPI_Bcast (b = 1,600). Writes DIR/traces.otf2.
enum CollRegion : std::uint32_t { CMain, CBcast, CAllreduce, CGather, CBarrier, CScan, CAlltoall, CReduce, CRegions };
constexpr std::uint64_t SecondBcast = 10000;

OTF2_FlushType preFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp postFlush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }

void writeCollectiveTrace(const QString& dir)
{
    static OTF2_FlushCallbacks flush = { preFlush, postFlush };
    OTF2_Archive* archive = OTF2_Archive_Open(QFile::encodeName(dir).constData(), "traces", OTF2_FILEMODE_WRITE,
        std::uint64_t(1) << 20, std::uint64_t(4) << 20, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive);
    OTF2_Archive_OpenEvtFiles(archive);
    constexpr std::uint64_t n = 3;
    for (std::uint64_t r = 0; r < n; ++r) {
        OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, r);
        std::uint64_t t = 0;
        auto call = [&](CollRegion region, OTF2_CollectiveOp op, OTF2_CommRef comm, std::uint32_t root,
                        std::uint64_t sent, std::uint64_t received) {
            OTF2_EvtWriter_Enter(w, nullptr, t += 10, region);
            OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t += 10);
            OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, t += 50, op, comm, root, sent, received);
            OTF2_EvtWriter_Leave(w, nullptr, t += 30, region);
        };
        const auto none = OTF2_COLLECTIVE_ROOT_NONE;
        OTF2_EvtWriter_Enter(w, nullptr, t, CMain);
        call(CBcast, OTF2_COLLECTIVE_OP_BCAST, 0, 0, r == 0 ? n * 800 : 0, 800);
        call(CAllreduce, OTF2_COLLECTIVE_OP_ALLREDUCE, 0, none, n * 64, n * 64);
        call(CGather, OTF2_COLLECTIVE_OP_GATHER, 0, 1, 40, r == 1 ? n * 40 : 0);
        call(CBarrier, OTF2_COLLECTIVE_OP_BARRIER, 0, none, 0, 0);
        call(CScan, OTF2_COLLECTIVE_OP_SCAN, 0, none, (n - r) * 16, (r + 1) * 16);
        call(CAlltoall, OTF2_COLLECTIVE_OP_ALLTOALL, 0, none, n * 24, n * 24);
        call(CReduce, OTF2_COLLECTIVE_OP_REDUCE, 0, 2, 32, r == 2 ? n * 32 : 0);
        if (r != 1)
            call(CGather, OTF2_COLLECTIVE_OP_GATHER, 1, 0, 100, r == 2 ? 2 * 100 : 0);
        call(CAllreduce, OTF2_COLLECTIVE_OP_ALLREDUCE, 7, none, n * 8, n * 8);
        t = SecondBcast - 70;
        call(CBcast, OTF2_COLLECTIVE_OP_BCAST, 0, 0, r == 0 ? n * 1600 : 0, 1600);
        OTF2_EvtWriter_Leave(w, nullptr, t += 10, CMain);
        OTF2_Archive_CloseEvtWriter(archive, w);
    }
    OTF2_Archive_CloseEvtFiles(archive);
    OTF2_Archive_OpenDefFiles(archive);
    for (std::uint64_t r = 0; r < n; ++r)
        OTF2_Archive_CloseDefWriter(archive, OTF2_Archive_GetDefWriter(archive, r));
    OTF2_Archive_CloseDefFiles(archive);
    OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive);
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000, 0, SecondBcast + 100, OTF2_UNDEFINED_TIMESTAMP);
    const char* names[] = { "main", "MPI_Bcast", "MPI_Allreduce", "MPI_Gather", "MPI_Barrier", "MPI_Scan",
        "MPI_Alltoall", "MPI_Reduce", "machine", "rank", "thread", "" };
    for (std::uint32_t i = 0; i < std::size(names); ++i)
        OTF2_GlobalDefWriter_WriteString(g, i, names[i]);
    for (std::uint32_t r = 0; r < CRegions; ++r)
        OTF2_GlobalDefWriter_WriteRegion(g, r, r, r, 11, OTF2_REGION_ROLE_FUNCTION,
            r == CMain ? OTF2_PARADIGM_USER : OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, 11, 0, 0);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 8, 8, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (std::uint32_t r = 0; r < n; ++r)
        OTF2_GlobalDefWriter_WriteLocationGroup(
            g, r, 9, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
    for (std::uint32_t r = 0; r < n; ++r)
        OTF2_GlobalDefWriter_WriteLocation(g, r, 10, OTF2_LOCATION_TYPE_CPU_THREAD, 0, r);
    const std::uint64_t world[] = { 0, 1, 2 };
    const std::uint64_t pair[] = { 2, 0 };
    OTF2_GlobalDefWriter_WriteGroup(
        g, 0, 11, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 3, world);
    OTF2_GlobalDefWriter_WriteGroup(
        g, 1, 11, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 3, world);
    OTF2_GlobalDefWriter_WriteGroup(
        g, 2, 11, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 2, pair);
    OTF2_GlobalDefWriter_WriteComm(g, 0, 11, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    OTF2_GlobalDefWriter_WriteComm(g, 1, 11, 2, 0, OTF2_COMM_FLAG_NONE);
    OTF2_Archive_CloseGlobalDefWriter(archive, g);
    OTF2_Archive_Close(archive);
}

/// A 3-rank trace of point-to-point messages whose MPI ranks are not the order of the location
/// groups: location (and group) L is node L, and MPI_COMM_WORLD's locations are {2, 0, 1}, so world
/// rank w is location PeerLocation[w]. World rank w sends 2 messages of 100 × (w + 1) bytes to world
/// rank w + 1 (mod 3) and receives them from w - 1. Writes DIR/traces.otf2.
constexpr std::uint64_t PeerLocation[] = { 2, 0, 1 };

void writeMessageTrace(const QString& dir)
{
    static OTF2_FlushCallbacks flush = { preFlush, postFlush };
    OTF2_Archive* archive = OTF2_Archive_Open(QFile::encodeName(dir).constData(), "traces", OTF2_FILEMODE_WRITE,
        std::uint64_t(1) << 20, std::uint64_t(4) << 20, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive);
    OTF2_Archive_OpenEvtFiles(archive);
    constexpr std::uint32_t n = 3;
    for (std::uint32_t w = 0; w < n; ++w) {
        OTF2_EvtWriter* writer = OTF2_Archive_GetEvtWriter(archive, PeerLocation[w]);
        std::uint64_t t = 0;
        OTF2_EvtWriter_Enter(writer, nullptr, t, 0);
        for (int m = 0; m < 2; ++m) {
            OTF2_EvtWriter_MpiSend(writer, nullptr, t += 10, (w + 1) % n, 0, 7, std::uint64_t(100) * (w + 1));
            OTF2_EvtWriter_MpiRecv(
                writer, nullptr, t += 10, (w + n - 1) % n, 0, 7, std::uint64_t(100) * ((w + n - 1) % n + 1));
        }
        OTF2_EvtWriter_Leave(writer, nullptr, t += 10, 0);
        OTF2_Archive_CloseEvtWriter(archive, writer);
    }
    OTF2_Archive_CloseEvtFiles(archive);
    OTF2_Archive_OpenDefFiles(archive);
    for (std::uint64_t l = 0; l < n; ++l)
        OTF2_Archive_CloseDefWriter(archive, OTF2_Archive_GetDefWriter(archive, l));
    OTF2_Archive_CloseDefFiles(archive);
    OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive);
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000, 0, 100, OTF2_UNDEFINED_TIMESTAMP);
    const char* names[] = { "main", "machine", "rank", "thread", "" };
    for (std::uint32_t i = 0; i < std::size(names); ++i)
        OTF2_GlobalDefWriter_WriteString(g, i, names[i]);
    OTF2_GlobalDefWriter_WriteRegion(
        g, 0, 0, 0, 4, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, 4, 0, 0);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 1, 1, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (std::uint32_t l = 0; l < n; ++l)
        OTF2_GlobalDefWriter_WriteLocationGroup(
            g, l, 2, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
    for (std::uint32_t l = 0; l < n; ++l)
        OTF2_GlobalDefWriter_WriteLocation(g, l, 3, OTF2_LOCATION_TYPE_CPU_THREAD, 0, l);
    const std::uint64_t world[] = { 0, 1, 2 };
    OTF2_GlobalDefWriter_WriteGroup(
        g, 0, 4, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 3, PeerLocation);
    OTF2_GlobalDefWriter_WriteGroup(
        g, 1, 4, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 3, world);
    OTF2_GlobalDefWriter_WriteComm(g, 0, 4, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    OTF2_Archive_CloseGlobalDefWriter(archive, g);
    OTF2_Archive_Close(archive);
}

/// Per location: the MPI_COLLECTIVE_END lines of `otf2-print` as (operation, sent, received).
std::map<quint64, std::vector<std::tuple<QString, double, double>>> collectiveEnds(const QString& anchor)
{
    QProcess p;
    p.start(QStringLiteral(PARALLAX_OTF2_PRINT), { anchor });
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return {};
    // MPI_COLLECTIVE_END  0  80  Operation: BCAST, Communicator: "" <0>, Root: 0, Sent: 2400, Received: 800
    static const QRegularExpression line(
        QStringLiteral(R"re(^MPI_COLLECTIVE_END\s+(\d+)\s+\d+\s+Operation: (\w+),.*Sent: (\d+), Received: (\d+))re"));
    std::map<quint64, std::vector<std::tuple<QString, double, double>>> out;
    for (const QByteArray& raw : p.readAllStandardOutput().split('\n'))
        if (const auto m = line.match(QString::fromUtf8(raw)); m.hasMatch())
            out[m.captured(1).toULongLong()].emplace_back(
                m.captured(2), m.captured(3).toDouble(), m.captured(4).toDouble());
    return out;
}

/// The count and sum of one user event of a thread; {0, 0} when the thread has none.
std::pair<double, double> userEvent(const Trial& t, ThreadIndex thread, const QString& name)
{
    const AtomicEventId e = t.findAtomicEvent(name);
    if (!e.isValid())
        return { 0, 0 };
    const AtomicRow& row = t.atomicRow(thread);
    const auto i = row.find(e);
    if (i < 0)
        return { 0, 0 };
    return { row.count[std::size_t(i)], row.count[std::size_t(i)] * row.mean[std::size_t(i)] };
}
} // namespace

class TestOtf2Reader : public QObject {
    Q_OBJECT
private slots:
    void detection()
    {
        const ReaderRegistry& registry = ReaderRegistry::instance();
        QCOMPARE(registry.detect(pingPong())->name(), QStringLiteral("otf2"));
        QCOMPARE(registry.detect(pingPong() + QStringLiteral("/traces.otf2"))->name(), QStringLiteral("otf2"));
        QCOMPARE(Otf2Reader().sniff(pingPong() + QStringLiteral("/traces.def")), 0);
    }

    void pingPongManifest()
    {
        const auto t = readWindow(pingPong());
        QVERIFY(t);
        QCOMPARE(t->threadCount(), std::size_t(2));
        QCOMPARE(metadata(*t, QStringLiteral("OTF2 events")), 120.0);
        QCOMPARE(t->metadataValue(QStringLiteral("OTF2 creator")), QStringLiteral("Score-P 7.1"));
        QCOMPARE(metadata(*t, QStringLiteral("OTF2 timer resolution (ticks/s)")), 2095197216.0);
        // MANIFEST: inclusive / exclusive ticks per rank.
        const struct {
            const char* region;
            double incl[2];
            double excl[2];
            double visits;
        } facts[] = {
            { "int main(int, char**)", { 417443455, 418089722 }, { 4995746, 6245348 }, 1 },
            { "MPI_Init", { 404995511, 405637613 }, { 404995511, 405637613 }, 1 },
            { "MPI_Send", { 3709060, 3607517 }, { 3709060, 3607517 }, 8 },
            { "MPI_Recv", { 3614228, 2499468 }, { 3614228, 2499468 }, 8 },
            { "MPI_Finalize", { 123344, 94508 }, { 123344, 94508 }, 1 },
            { "MPI_Comm_size", { 3178, 3034 }, { 3178, 3034 }, 1 },
            { "MPI_Comm_rank", { 2388, 2234 }, { 2388, 2234 }, 1 },
        };
        for (int rank = 0; rank < 2; ++rank) {
            const ThreadIndex ti = t->findThread(ThreadKey { rank, 0, 0 });
            QVERIFY(ti.isValid());
            for (const auto& f : facts) {
                const QString region = QString::fromLatin1(f.region);
                QVERIFY2(near(fieldOf(*t, ti, region, Field::Incl), us(*t, f.incl[rank])), f.region);
                QVERIFY2(near(fieldOf(*t, ti, region, Field::Excl), us(*t, f.excl[rank])), f.region);
                QCOMPARE(fieldOf(*t, ti, region, Field::Calls), f.visits);
            }
            QCOMPARE(fieldOf(*t, ti, QStringLiteral("int main(int, char**)"), Field::Subrs), 20.0);
            QVERIFY(near(fieldOf(*t, ti, QStringLiteral("int main(int, char**) => MPI_Send"), Field::Excl),
                us(*t, rank == 0 ? 3709060 : 3607517)));
            // 8 messages, 4,177,920 bytes per direction.
            const int peer = 1 - rank;
            for (const QString& name : { QStringLiteral("Message size sent to node %1").arg(peer),
                     QStringLiteral("Message size received from node %1").arg(peer) }) {
                const AtomicEventId e = t->findAtomicEvent(name);
                QVERIFY2(e.isValid(), qPrintable(name));
                const AtomicRow& row = t->atomicRow(ti);
                const auto i = row.find(e);
                QVERIFY(i >= 0);
                QCOMPARE(row.count[std::size_t(i)], 8.0);
                QCOMPARE(row.count[std::size_t(i)] * row.mean[std::size_t(i)], 4177920.0);
                QCOMPARE(row.min[std::size_t(i)] <= 16384.0 && row.max[std::size_t(i)] >= 16384.0, true);
            }
        }
        QVERIFY(t->warnings().isEmpty());
    }

    void papiVariant()
    {
        const auto t = readWindow(pingPongPapi());
        QVERIFY(t);
        QCOMPARE(metadata(*t, QStringLiteral("OTF2 events")), 204.0);
        QVERIFY(near(inclOf(*t, 0, QStringLiteral("int main(int, char**)")), us(*t, 451476474)));
        QVERIFY(near(inclOf(*t, 1, QStringLiteral("int main(int, char**)")), us(*t, 451335198)));
        // The three PAPI counters become metrics (SEMANTICS 1.10): main's inclusive count is the last
        // record of each location minus the one at main's enter (MANIFEST: the first record of
        // location 0 is TOT_CYC 98,850, the last of location 1 is 60,301,260).
        QCOMPARE(t->metrics().size(), std::size_t(4));
        QCOMPARE(t->metric(MetricId(1u)).name, QStringLiteral("PAPI_TOT_CYC"));
        QCOMPARE(t->metric(MetricId(1u)).unit, QStringLiteral("count"));
        QVERIFY(t->warnings().isEmpty());
        const ThreadIndex rank1 = threadOfLocation(*t, 1);
        QCOMPARE(fieldOf(*t, rank1, QStringLiteral("int main(int, char**)"), Field::Incl, 1), 60301260.0 - 139945.0);
    }

    void fastOtf2Sample()
    {
        const auto t = readWindow(fastOtf2());
        QVERIFY(t);
        QCOMPARE(t->threadCount(), std::size_t(32));
        QCOMPARE(metadata(*t, QStringLiteral("OTF2 events")), 72670.0);
        const ThreadIndex master = threadOfLocation(*t, 0);
        QVERIFY(master.isValid());
        QVERIFY(near(fieldOf(*t, master, QStringLiteral("hipEventSynchronize"), Field::Excl), us(*t, 23545715641.0)));
        QCOMPARE(fieldOf(*t, master, QStringLiteral("hipEventSynchronize"), Field::Calls), 2.0);
        // Location ids beyond 32 bits survive.
        QVERIFY(threadOfLocation(*t, quint64(31) << 32).isValid());
    }

    void integrityTrace()
    {
        const auto t = readWindow(integrity());
        QVERIFY(t);
        QCOMPARE(t->threadCount(), std::size_t(4));
        QCOMPARE(metadata(*t, QStringLiteral("OTF2 events")), 480000.0);
        QVERIFY(hasWarning(*t, QStringLiteral("no clock properties")));
        QVERIFY(hasWarning(*t, QStringLiteral("not defined")));
        for (quint64 loc : { 0, 1, 4, 9 })
            QVERIFY(threadOfLocation(*t, loc).isValid());
    }

    void oracle_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::newRow("ping-pong") << pingPong() + QStringLiteral("/traces.otf2");
        QTest::newRow("papi") << pingPongPapi() + QStringLiteral("/traces.otf2");
        QTest::newRow("fastotf2") << fastOtf2() + QStringLiteral("/traces.otf2");
        QTest::newRow("integrity") << integrity() + QStringLiteral("/TestTrace.otf2");
    }
    void oracle()
    {
        QFETCH(QString, trace);
        const auto expected = ::oracle(trace);
        QVERIFY(!expected.empty());
        const auto t = readWindow(trace);
        QVERIFY(t);
        std::size_t compared = 0;
        std::size_t countersCompared = 0;
        for (const auto& [loc, regions] : expected) {
            const ThreadIndex ti = threadOfLocation(*t, loc);
            QVERIFY(ti.isValid());
            for (const auto& [region, c] : regions) {
                QVERIFY2(near(fieldOf(*t, ti, region, Field::Incl), us(*t, c.incl)), qPrintable(region));
                QVERIFY2(near(fieldOf(*t, ti, region, Field::Excl), us(*t, c.excl)), qPrintable(region));
                QCOMPARE(fieldOf(*t, ti, region, Field::Calls), c.visits);
                // The PAPI counters, exactly (they are whole numbers).
                for (const auto& [name, counted] : c.counterIncl) {
                    const MetricId m = t->findMetric(name);
                    QVERIFY2(m.isValid(), qPrintable(name));
                    QCOMPARE(fieldOf(*t, ti, region, Field::Incl, m.index()), counted);
                    QCOMPARE(fieldOf(*t, ti, region, Field::Excl, m.index()), c.counterExcl.at(name));
                    ++countersCompared;
                }
                ++compared;
            }
        }
        QVERIFY(compared >= 4);
        // Only the PAPI trace has counters (3 of them on each of 2 locations' 7 regions).
        QCOMPARE(countersCompared, std::size_t(t->metricCount() > 1 ? 42 : 0));
    }

    void windowWholeEqualsNone()
    {
        const auto all = readWindow(pingPong());
        const auto whole = readWindow(pingPong(), { QStringLiteral("from=0"), QStringLiteral("to=1000") });
        QVERIFY(all && whole);
        compareEvents(*all, *whole);
        for (std::size_t i = 0; i < all->threadCount(); ++i)
            for (const QString& e : flatEvents(*all))
                for (Field f : { Field::Excl, Field::Incl, Field::Calls, Field::Subrs })
                    QCOMPARE(fieldOf(*whole, ThreadIndex(static_cast<quint32>(i)), e, f),
                        fieldOf(*all, ThreadIndex(static_cast<quint32>(i)), e, f));
    }

    void adjacentWindowsAddUp_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<QString>("cut");
        QTest::newRow("ping-pong seconds") << pingPong() << QStringLiteral("0.1995");
        QTest::newRow("ping-pong ticks") << pingPong() << QStringLiteral("300000000ticks");
        QTest::newRow("integrity ticks") << integrity() << QStringLiteral("100001ticks");
        QTest::newRow("papi seconds") << pingPongPapi() << QStringLiteral("0.1995");
    }
    void adjacentWindowsAddUp()
    {
        QFETCH(QString, trace);
        QFETCH(QString, cut);
        const auto all = readWindow(trace);
        const auto a = readWindow(trace, { QStringLiteral("to=") + cut });
        const auto b = readWindow(trace, { QStringLiteral("from=") + cut });
        QVERIFY(all && a && b);
        auto value = [](const Trial& t, ThreadIndex ti, const QString& e, Field f, std::size_t m = 0) {
            const double v = fieldOf(t, ti, e, f, m);
            return v == Absent ? 0.0 : v;
        };
        bool split = false;
        for (std::size_t i = 0; i < all->threadCount(); ++i) {
            const ThreadIndex ti(i);
            for (const IntervalEvent& ev : all->events()) {
                const double whole = value(*all, ti, ev.name, Field::Excl);
                const double left = value(*a, ti, ev.name, Field::Excl);
                const double right = value(*b, ti, ev.name, Field::Excl);
                QVERIFY2(near(left + right, whole, 1e-12), qPrintable(ev.name));
                QCOMPARE(value(*a, ti, ev.name, Field::Calls) + value(*b, ti, ev.name, Field::Calls),
                    value(*all, ti, ev.name, Field::Calls));
                split = split || (left > 0 && right > 0);
                // Counters too: a region open at the cut counts up to the last record before it on the
                // left and from there on the right (SEMANTICS 1.10), so the two add up exactly.
                for (std::size_t m = 1; m < all->metricCount(); ++m)
                    for (Field f : { Field::Excl, Field::Incl })
                        QCOMPARE(value(*a, ti, ev.name, f, m) + value(*b, ti, ev.name, f, m),
                            value(*all, ti, ev.name, f, m));
            }
        }
        QVERIFY(split); // the cut falls inside at least one region
    }

    void windowInsideOneRegion()
    {
        // MPI_Init runs from about 0.0000 s to 0.193 s on both ranks; a window of 0.05 s inside it.
        const auto t = readWindow(pingPong(), { QStringLiteral("from=0.1"), QStringLiteral("to=0.15") });
        QVERIFY(t);
        const double length = std::llround(0.15 * 2095197216.0) - std::llround(0.1 * 2095197216.0);
        for (int rank = 0; rank < 2; ++rank) {
            QVERIFY(near(exclOf(*t, rank, QStringLiteral("MPI_Init")), us(*t, length)));
            QVERIFY(near(inclOf(*t, rank, QStringLiteral("int main(int, char**)")), us(*t, length)));
            QCOMPARE(exclOf(*t, rank, QStringLiteral("int main(int, char**)")), 0.0);
            // Entered before the window: no calls counted.
            QCOMPARE(
                fieldOf(*t, t->findThread(ThreadKey { rank, 0, 0 }), QStringLiteral("MPI_Init"), Field::Calls), 0.0);
        }
        QVERIFY(!t->findAtomicEvent(QStringLiteral("Message size sent to node 1")).isValid());
    }

    void collectives()
    {
        QTemporaryDir dir;
        writeCollectiveTrace(dir.path());
        const QString anchor = dir.filePath(QStringLiteral("traces.otf2"));
        // otf2-print sees what was written: per location the operations and their bytes.
        const auto ends = collectiveEnds(anchor);
        QCOMPARE(ends.size(), std::size_t(3));
        QCOMPARE(ends.at(0).size(), std::size_t(10));
        QCOMPARE(ends.at(1).size(), std::size_t(9));
        QCOMPARE(std::get<0>(ends.at(0).front()), QStringLiteral("BCAST"));
        QCOMPARE(std::get<1>(ends.at(0).front()), 2400.0);
        QCOMPARE(std::get<2>(ends.at(2).front()), 800.0);

        const auto t = readWindow(anchor);
        QVERIFY(t);
        // {name, rank} -> (count, sum): what TAU's wrapper records for the blocks written above.
        const std::map<std::pair<QString, int>, std::pair<double, double>> expected {
            { { QStringLiteral("Message size for broadcast"), 0 }, { 2, 800 + 1600 } },
            { { QStringLiteral("Message size for broadcast"), 1 }, { 2, 800 + 1600 } },
            { { QStringLiteral("Message size for broadcast"), 2 }, { 2, 800 + 1600 } },
            { { QStringLiteral("Message size for all-reduce"), 0 }, { 1, 64 } },
            { { QStringLiteral("Message size for all-reduce"), 1 }, { 1, 64 } },
            { { QStringLiteral("Message size for all-reduce"), 2 }, { 1, 64 } },
            { { QStringLiteral("Message size for gather"), 0 }, { 0, 0 } }, // root of neither gather
            { { QStringLiteral("Message size for gather"), 1 }, { 1, 40 } }, // root on the world
            { { QStringLiteral("Message size for gather"), 2 }, { 1, 100 } }, // root on {2, 0}
            { { QStringLiteral("Message size for scan"), 0 }, { 1, 16 } },
            { { QStringLiteral("Message size for scan"), 1 }, { 1, 16 } },
            { { QStringLiteral("Message size for scan"), 2 }, { 1, 16 } },
            { { QStringLiteral("Message size for all-to-all"), 0 }, { 1, 48 } },
            { { QStringLiteral("Message size for all-to-all"), 1 }, { 1, 48 } },
            { { QStringLiteral("Message size for all-to-all"), 2 }, { 1, 48 } },
            { { QStringLiteral("Message size for reduce"), 0 }, { 1, 32 } },
            { { QStringLiteral("Message size for reduce"), 1 }, { 1, 32 } },
            { { QStringLiteral("Message size for reduce"), 2 }, { 1, 32 } },
        };
        for (const auto& [key, value] : expected) {
            const ThreadIndex thread = threadOfLocation(*t, static_cast<quint64>(key.second));
            QVERIFY(thread.isValid());
            QCOMPARE(userEvent(*t, thread, key.first), value);
        }
        // The barrier records no size; nothing else is named after a collective.
        std::size_t collectiveEvents = 0;
        for (const AtomicEvent& e : t->atomicEvents())
            collectiveEvents += e.name.startsWith(QLatin1String("Message size for ")) ? 1 : 0;
        QCOMPARE(collectiveEvents, std::size_t(6));
        // The allreduce on the undefined communicator 7: no sample, a warning on each of 3 ranks.
        QCOMPARE(t->warnings().size(), 1);
        QVERIFY2(
            t->warnings().front().startsWith(QLatin1String("3 MPI collective(s)")), qPrintable(t->warnings().front()));
        // The call still counts as time: MPI_Barrier was entered once per rank.
        for (quint64 r = 0; r < 3; ++r)
            QCOMPARE(fieldOf(*t, threadOfLocation(*t, r), QStringLiteral("MPI_Barrier"), Field::Calls), 1.0);
    }

    /// The peer K of "Message size sent to node K" is the node of the peer's location, the axis the
    /// communication matrix shares with the threads, not its MPI rank (docs/SEMANTICS.md 13).
    void messagePeersAreNodes()
    {
        QTemporaryDir dir;
        writeMessageTrace(dir.path());
        const auto t = readWindow(dir.filePath(QStringLiteral("traces.otf2")));
        QVERIFY(t);
        QCOMPARE(t->threadCount(), std::size_t(3));
        for (std::uint64_t w = 0; w < 3; ++w) {
            const ThreadIndex thread = threadOfLocation(*t, PeerLocation[w]);
            QVERIFY(thread.isValid());
            QCOMPARE(t->threadKey(thread).node, int(PeerLocation[w]));
            const std::uint64_t to = PeerLocation[(w + 1) % 3];
            const std::uint64_t from = PeerLocation[(w + 2) % 3];
            QCOMPARE(userEvent(*t, thread, QStringLiteral("Message size sent to node %1").arg(to)),
                std::make_pair(2.0, 200.0 * double(w + 1)));
            QCOMPARE(userEvent(*t, thread, QStringLiteral("Message size received from node %1").arg(from)),
                std::make_pair(2.0, 200.0 * double((w + 2) % 3 + 1)));
            // Nothing named after the world ranks where they differ from the nodes.
            if ((w + 1) % 3 != to)
                QCOMPARE(userEvent(*t, thread, QStringLiteral("Message size sent to node %1").arg((w + 1) % 3)),
                    std::make_pair(0.0, 0.0));
        }
    }

    void collectivesInWindow()
    {
        QTemporaryDir dir;
        writeCollectiveTrace(dir.path());
        const QString anchor = dir.filePath(QStringLiteral("traces.otf2"));
        // The second broadcast ends at SecondBcast - 70 + 70 = SecondBcast: a window ending there
        // leaves it out, one starting there keeps only it (the End's time decides, as for messages).
        const auto before = readWindow(anchor, { QStringLiteral("to=%1ticks").arg(SecondBcast) });
        const auto after = readWindow(anchor, { QStringLiteral("from=%1ticks").arg(SecondBcast) });
        const auto whole = readWindow(anchor);
        QVERIFY(before && after && whole);
        const QString bcast = QStringLiteral("Message size for broadcast");
        for (quint64 r = 0; r < 3; ++r) {
            QCOMPARE(userEvent(*before, threadOfLocation(*before, r), bcast), std::make_pair(1.0, 800.0));
            QCOMPARE(userEvent(*after, threadOfLocation(*after, r), bcast), std::make_pair(1.0, 1600.0));
            // Adjacent windows add up to the whole trace.
            const auto a = userEvent(*before, threadOfLocation(*before, r), bcast);
            const auto b = userEvent(*after, threadOfLocation(*after, r), bcast);
            QCOMPARE(std::make_pair(a.first + b.first, a.second + b.second),
                userEvent(*whole, threadOfLocation(*whole, r), bcast));
        }
        QVERIFY(!after->findAtomicEvent(QStringLiteral("Message size for reduce")).isValid());
    }

    void badInput()
    {
        QTemporaryDir dir;
        const QString fake = dir.filePath(QStringLiteral("fake.otf2"));
        writeFile(fake,
            QByteArray("\x03"
                       "BOTF2 this is not an anchor file",
                33));
        const TrialResult r = readWith(Otf2Reader(), fake);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().file, fake);
        QVERIFY2(r.error().message.contains(QLatin1String("OTF2")), qPrintable(r.error().message));

        const TrialResult empty = readWith(Otf2Reader(), dir.path() + QStringLiteral("/none"));
        QVERIFY(!empty.ok());
        QVERIFY(empty.error().message.contains(QLatin1String("anchor")));

        ReadOptions bad;
        bad.formatOptions = { QStringLiteral("from=soon") };
        const TrialResult option = readWith(Otf2Reader(), pingPong(), bad);
        QVERIFY(!option.ok());
        QVERIFY(option.error().message.contains(QLatin1String("from=soon")));

        bad.formatOptions = { QStringLiteral("from=0.2"), QStringLiteral("to=0.1") };
        QVERIFY(!readWith(Otf2Reader(), pingPong(), bad).ok());
    }
};

// Debian's libotf2 3.0.2 leaks the archive it began to open when OTF2_Reader_Open fails on a file
// that is no anchor (badInput): it returns NULL, so there is nothing to close. Without frame
// pointers in the library, LeakSanitizer (the asan-core run) sees only its module.
extern "C" const char*
__lsan_default_suppressions() // NOLINT(bugprone-reserved-identifier,readability-identifier-naming): LSan hook
{
    return "leak:libopen-trace-format2.so\n";
}

QTEST_GUILESS_MAIN(TestOtf2Reader)
#include "tst_otf2reader.moc"
