// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// bench_otf2: the OTF2 reader's replay speed (issue 19 §3: >= 20 M events/s on 2 cores). Generates a
// trace with the OTF2 writer API (L locations, 2 MPI-rank-like location groups; each location a
// loop of nested regions main => iter => {compute => kernel, MPI_Send, MPI_Recv}, a Leave for every
// Enter), then reads it with the `otf2` reader (median of N runs) and prints JSON lines: events,
// events per second, locations, the machine's load. A benchmark: no assertions on time.
//   bench_otf2 [--events N] [--locations L] [--runs R] [DIR]   (default 10,000,000 events, 8, 3,
//                                                                a temporary directory)
#include "datasource/readers/otf2reader.h"
#include "tests/bench/benchutil.h"

#include <QCoreApplication>
#include <QTemporaryDir>
#include <QThread>
#include <otf2/otf2.h>

using namespace parallax;

namespace {

OTF2_FlushType preFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp postFlush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }
OTF2_FlushCallbacks flushCallbacks = { preFlush, postFlush };

enum Region : std::uint32_t { Main, Iter, Compute, Kernel, Send, Recv, RegionCount };

/// Writes the trace; returns the number of events written.
std::uint64_t generate(const QString& dir, std::uint64_t events, std::uint32_t locations)
{
    OTF2_Archive* archive = OTF2_Archive_Open(QFile::encodeName(dir).constData(), "traces", OTF2_FILEMODE_WRITE,
        std::uint64_t(1) << 20, std::uint64_t(4) << 20, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    OTF2_Archive_SetFlushCallbacks(archive, &flushCallbacks, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive);
    OTF2_Archive_OpenEvtFiles(archive);
    // One iteration: iter, compute, kernel, MPI_Send, MPI_Recv, each entered and left = 10 events.
    const std::uint64_t perLocation = events / locations;
    const std::uint64_t iterations = perLocation > 4 ? (perLocation - 2) / 10 : 1;
    std::uint64_t written = 0;
    std::uint64_t end = 0;
    for (std::uint32_t l = 0; l < locations; ++l) {
        OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, l);
        std::uint64_t t = 1000 + l;
        OTF2_EvtWriter_Enter(w, nullptr, t++, Main);
        for (std::uint64_t i = 0; i < iterations; ++i) {
            OTF2_EvtWriter_Enter(w, nullptr, t += 3, Iter);
            OTF2_EvtWriter_Enter(w, nullptr, t += 1, Compute);
            OTF2_EvtWriter_Enter(w, nullptr, t += 2, Kernel);
            OTF2_EvtWriter_Leave(w, nullptr, t += 7 + (i % 5), Kernel);
            OTF2_EvtWriter_Leave(w, nullptr, t += 1, Compute);
            OTF2_EvtWriter_Enter(w, nullptr, t += 1, Send);
            OTF2_EvtWriter_Leave(w, nullptr, t += 2, Send);
            OTF2_EvtWriter_Enter(w, nullptr, t += 1, Recv);
            OTF2_EvtWriter_Leave(w, nullptr, t += 3, Recv);
            OTF2_EvtWriter_Leave(w, nullptr, t += 1, Iter);
        }
        OTF2_EvtWriter_Leave(w, nullptr, t++, Main);
        written += 2 + iterations * 10;
        end = std::max(end, t);
        OTF2_Archive_CloseEvtWriter(archive, w);
    }
    OTF2_Archive_CloseEvtFiles(archive);
    OTF2_Archive_OpenDefFiles(archive);
    for (std::uint32_t l = 0; l < locations; ++l)
        OTF2_Archive_CloseDefWriter(archive, OTF2_Archive_GetDefWriter(archive, l));
    OTF2_Archive_CloseDefFiles(archive);
    OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive);
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, end + 1, OTF2_UNDEFINED_TIMESTAMP);
    const char* names[] = { "main", "iter", "compute", "kernel", "MPI_Send", "MPI_Recv" };
    std::uint32_t s = 0;
    OTF2_GlobalDefWriter_WriteString(g, s++, "");
    for (std::uint32_t r = 0; r < RegionCount; ++r) {
        OTF2_GlobalDefWriter_WriteString(g, s, names[r]);
        OTF2_GlobalDefWriter_WriteRegion(g, r, s, s, 0, OTF2_REGION_ROLE_FUNCTION,
            r >= Send ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, 0, 0, 0);
        ++s;
    }
    const std::uint32_t machine = s++;
    OTF2_GlobalDefWriter_WriteString(g, machine, "machine");
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, machine, machine, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (std::uint32_t rank = 0; rank < 2; ++rank) {
        OTF2_GlobalDefWriter_WriteString(g, s, rank == 0 ? "rank 0" : "rank 1");
        OTF2_GlobalDefWriter_WriteLocationGroup(
            g, rank, s++, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
    }
    OTF2_GlobalDefWriter_WriteString(g, s, "thread");
    for (std::uint32_t l = 0; l < locations; ++l)
        OTF2_GlobalDefWriter_WriteLocation(g, l, s, OTF2_LOCATION_TYPE_CPU_THREAD, 2 + iterations * 10, l % 2);
    OTF2_Archive_CloseGlobalDefWriter(archive, g);
    OTF2_Archive_Close(archive);
    return written;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    std::uint64_t events = 10000000;
    std::uint32_t locations = 8;
    int runs = 3;
    QString dir;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--events") && i + 1 < args.size())
            events = args[++i].toULongLong();
        else if (args[i] == QLatin1String("--locations") && i + 1 < args.size())
            locations = std::max(1u, args[++i].toUInt());
        else if (args[i] == QLatin1String("--runs") && i + 1 < args.size())
            runs = std::max(1, args[++i].toInt());
        else
            dir = args[i];
    }
    QTemporaryDir temp;
    if (dir.isEmpty())
        dir = temp.path();
    QElapsedTimer timer;
    timer.start();
    const std::uint64_t written = generate(dir, events, locations);
    std::printf("{\"stage\": \"generate\", \"events\": %llu, \"locations\": %u, \"ms\": %.1f}\n",
        static_cast<unsigned long long>(written), locations, static_cast<double>(timer.nsecsElapsed()) / 1e6);
    const double loadBefore = bench::loadAverage();
    Otf2Reader reader;
    double read = 0;
    const double ms = bench::timeMedian(runs, [&] {
        Progress progress;
        const TrialResult r = reader.read(dir + QStringLiteral("/traces.otf2"), {}, progress);
        if (!r.ok()) {
            std::fprintf(stderr, "%s\n", qPrintable(r.error().toString()));
            std::exit(1);
        }
        read = r.value()->metadataValue(QStringLiteral("OTF2 events")).toDouble();
    });
    std::printf("{\"stage\": \"replay\", \"events\": %.0f, \"median_ms\": %.1f, \"events_per_s\": %.0f, "
                "\"runs\": %d, \"threads\": %d, \"load_before\": %.2f, \"load_after\": %.2f}\n",
        read, ms, read / (ms / 1e3), runs, QThread::idealThreadCount(), loadBefore, bench::loadAverage());
    return 0;
}
