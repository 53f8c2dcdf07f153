// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/synth/synth.h"

#include "datasource/model/trialbuilder.h"
#include "datasource/synth/splitmix.h"

#include <QDateTime>
#include <QTimeZone>
#include <QtConcurrent/QtConcurrentMap>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax {

namespace {

using Random = SplitMix64;

const char* const MpiRoutines[] = { "MPI_Allreduce()", "MPI_Send()", "MPI_Recv()", "MPI_Isend()", "MPI_Irecv()",
    "MPI_Wait()", "MPI_Waitall()", "MPI_Bcast()", "MPI_Reduce()", "MPI_Barrier()", "MPI_Alltoall()", "MPI_Alltoallv()",
    "MPI_Allgather()", "MPI_Gather()", "MPI_Scatter()", "MPI_Comm_rank()", "MPI_Comm_size()", "MPI_Comm_split()",
    "MPI_Comm_dup()", "MPI_Sendrecv()", "MPI_File_open()", "MPI_File_write_at_all()", "MPI_File_read_at_all()",
    "MPI_File_close()", "MPI_Test()", "MPI_Testall()", "MPI_Probe()", "MPI_Iprobe()", "MPI_Type_commit()",
    "MPI_Type_free()", "MPI_Win_fence()", "MPI_Put()", "MPI_Get()", "MPI_Ibcast()", "MPI_Iallreduce()", "MPI_Scan()",
    "MPI_Exscan()", "MPI_Init()", "MPI_Finalize()" };
const char* const Classes[] = { "Solver", "Mesh", "HaloExchange", "Assembler", "Preconditioner", "Timestepper",
    "Particles", "FluxCalculator", "EquationOfState", "LinearSystem", "Checkpoint", "Diagnostics" };
const char* const Methods[] = { "assemble", "solve", "apply", "update", "compute", "exchange", "refine", "interpolate",
    "integrate", "project", "reduce", "pack", "unpack", "advance", "evaluate", "write" };
const char* const Arguments[]
    = { "(int)", "(double, int)", "(const Vector &)", "()", "(double *, int)", "(const Field &, double)" };
const char* const FortranRoutines[] = { "FLUX_X", "FLUX_Y", "FLUX_Z", "RHSF", "INTEGRATE", "GETRATES", "TRANSPORT",
    "BOUNDARY", "SMOOTH", "RESTRICT", "PROLONG" };
const char* const UserEventNames[]
    = { "Message size for all-reduce", "Message size sent to all nodes", "Message size for broadcast", "Bytes Read",
          "Bytes Written", "Memory Footprint (VmRSS) (KB)", "Heap Memory Used (KB) at exit",
          "Message size received from all nodes", "Message size for reduce", "MPI-IO Bytes Written" };

QString flatName(int i, Random& rng)
{
    const int kind = i % 4;
    if (kind == 0 || kind == 2) {
        const int n = static_cast<int>(std::size(MpiRoutines));
        const int k = (i / 2) % n;
        if (i / 2 < n)
            return QString::fromLatin1(MpiRoutines[k]);
    }
    if (kind == 3) {
        const char* r = FortranRoutines[rng.below(static_cast<int>(std::size(FortranRoutines)))];
        const int line = 10 + rng.below(2000);
        return QStringLiteral("Loop: %1_%2 [{%3.f90} {%4,7}-{%5,12}]")
            .arg(QLatin1String(r))
            .arg(i)
            .arg(QString::fromLatin1(r).toLower())
            .arg(line)
            .arg(line + 5 + rng.below(80));
    }
    const char* c = Classes[rng.below(static_cast<int>(std::size(Classes)))];
    const char* m = Methods[rng.below(static_cast<int>(std::size(Methods)))];
    const char* a = Arguments[rng.below(static_cast<int>(std::size(Arguments)))];
    const int line = 20 + rng.below(3000);
    return QStringLiteral("void %1::%2_%3%4 C [{%5.cpp} {%6,1}-{%7,1}]")
        .arg(QLatin1String(c), QLatin1String(m))
        .arg(i)
        .arg(QLatin1String(a), QString::fromLatin1(c).toLower())
        .arg(line)
        .arg(line + 3 + rng.below(200));
}

const char* const ReturnTypes[] = { "void", "int", "double", "bool", "std::size_t" };
const char* const CFunctions[] = { "pack_buffer", "unpack_buffer", "read_input", "write_checkpoint", "hash_keys",
    "sort_indices", "init_random", "timer_tick" };
const char* const CArguments[]
    = { "(double *, int)", "(const char *, int *)", "(void *, size_t)", "(int, int, double *)" };
const char* const Templates[] = { "std::vector<double>", "Field<3>", "Kernel<double, 4>", "std::array<int, 3>" };

/// A routine name as TAU's PDT instrumentation writes it: signature, then the source range.
QString pdtName(int i, Random& rng)
{
    const int line = 20 + rng.below(3000);
    const int end = line + 3 + rng.below(200);
    const int kind = i % 5;
    if (kind == 1) { // C
        const char* f = CFunctions[rng.below(static_cast<int>(std::size(CFunctions)))];
        return QStringLiteral("%1 %2_%3%4 C [{%2.c} {%5,1}-{%6,1}]")
            .arg(QLatin1String(ReturnTypes[rng.below(2)]), QLatin1String(f))
            .arg(i)
            .arg(QLatin1String(CArguments[rng.below(static_cast<int>(std::size(CArguments)))]))
            .arg(line)
            .arg(end);
    }
    if (kind == 3) { // Fortran module procedure
        const char* r = FortranRoutines[rng.below(static_cast<int>(std::size(FortranRoutines)))];
        return QStringLiteral("%1_MOD::%2_%3 [{%4.f90} {%5,7}-{%6,24}]")
            .arg(QString::fromLatin1(Classes[rng.below(static_cast<int>(std::size(Classes)))]).toUpper(),
                QLatin1String(r))
            .arg(i)
            .arg(QString::fromLatin1(r).toLower())
            .arg(line)
            .arg(end);
    }
    const char* c = Classes[rng.below(static_cast<int>(std::size(Classes)))];
    const char* m = Methods[rng.below(static_cast<int>(std::size(Methods)))];
    if (kind == 4) { // C++ template member
        const char* t = Templates[rng.below(static_cast<int>(std::size(Templates)))];
        return QStringLiteral("%1 %2<%3>::%4_%5<%3>(const %1 &, int) C [{%6.hpp} {%7,3}-{%8,3}]")
            .arg(QLatin1String(t), QLatin1String(c), QLatin1String(rng.below(2) == 0 ? "double" : "float"),
                QLatin1String(m))
            .arg(i)
            .arg(QString::fromLatin1(c).toLower())
            .arg(line)
            .arg(end);
    }
    return QStringLiteral("%1 %2::%3_%4%5 C [{%6.cpp} {%7,1}-{%8,1}]")
        .arg(QLatin1String(ReturnTypes[rng.below(static_cast<int>(std::size(ReturnTypes)))]), QLatin1String(c),
            QLatin1String(m))
        .arg(i)
        .arg(QLatin1String(Arguments[rng.below(static_cast<int>(std::size(Arguments)))]),
            QString::fromLatin1(c).toLower())
        .arg(line)
        .arg(end);
}

/// The name of flat event i: MPI routines on even i while they last, the rest user routines.
QString eventName(int i, bool realistic, Random& rng)
{
    if (!realistic)
        return flatName(i, rng);
    const int n = static_cast<int>(std::size(MpiRoutines));
    if (i % 2 == 0 && i / 2 < n)
        return QString::fromLatin1(MpiRoutines[i / 2]);
    return pdtName(i, rng);
}

const char* const SpackPrefix = "/global/common/software/spack/opt/spack/cray-sles15-zen3/gcc-12.2.0/";

/// A Spack-built TAU's configure line, as long as real ones are: the rpath of every dependency.
QString tauConfig(const QString& tau)
{
    const char* const deps[] = { "pdt-3.25.1", "binutils-2.40", "libdwarf-20180129", "libelf-0.8.13", "libunwind-1.6.2",
        "otf2-3.0.3", "zlib-1.2.13", "hwloc-2.9.1", "papi-7.0.1" };
    auto dep = [](const char* name) -> QString {
        return QLatin1String(SpackPrefix) + QLatin1String(name) + QStringLiteral("-abcdefghijklmnopqrstuvwxyz012345");
    };
    QString config = QStringLiteral(" -prefix=") + tau + QStringLiteral(" -arch=craycnl");
    const char* const flags[] = { "pdt", "bfd", "dwarf", "elf", "unwind", "otf" }; // TAU's configure options
    for (std::size_t d = 0; d < std::size(flags); ++d)
        config += QStringLiteral(" -%1=%2").arg(QLatin1String(flags[d]), dep(deps[d]));
    config += QStringLiteral(" -mpi -c++=CC -cc=cc -fortran=gfortran -useropt=-O2\\ -g");
    config += QStringLiteral("\\ -Wl,-rpath,") + tau + QStringLiteral("/lib");
    for (const char* d : deps)
        config += QStringLiteral("\\ -Wl,-rpath,") + dep(d) + QStringLiteral("/lib");
    for (const char* lib : { "/opt/cray/pe/mpich/8.1.25/ofi/gnu/9.1/lib", "/opt/cray/pe/pmi/6.1.10/lib",
             "/opt/cray/libfabric/1.15.2.0/lib64" })
        config += QStringLiteral("\\ -Wl,-rpath,") + QLatin1String(lib);
    return config;
}

/// The trial-wide part of the metadata block TAU writes into every profile (key set of a TAU 2.29 MPI
/// run on a Cray XC, tau2/tau-profiles-callpath-cpi-4rank), with values of a plausible machine.
void addTauMetadata(TrialBuilder& builder, int depth)
{
    const std::pair<const char*, const char*> common[] = { { "CPU Cores", "64" }, { "CPU MHz", "2450.000" },
        { "CPU Type", "AMD EPYC 7763 64-Core Processor" }, { "CPU Vendor", "AuthenticAMD" },
        { "CWD", "/scratch/user/run" }, { "Cache Size", "512 KB" }, { "Command Line", "./synth_app -n 1000" },
        { "Executable", "/scratch/user/synth_app" }, { "Memory Size", "263842296 kB" }, { "OMP_CHUNK_SIZE", "1" },
        { "OMP_DYNAMIC", "off" }, { "OMP_MAX_THREADS", "1" }, { "OMP_NESTED", "off" }, { "OMP_NUM_PROCS", "128" },
        { "OMP_SCHEDULE", "STATIC" }, { "OS Machine", "x86_64" }, { "OS Name", "Linux" },
        { "OS Release", "5.14.21-150400.24.46_12.0.73-cray_shasta_c" },
        { "OS Version", "#1 SMP Tue Jan 24 10:32:04 UTC 2023 (1a41e5b)" }, { "TAU Architecture", "default" },
        { "TAU Version", "2.35" }, { "TAU_BFD_LOOKUP", "on" }, { "TAU_CALLSITE_DEPTH", "1" },
        { "TAU_COMM_MATRIX", "off" }, { "TAU_COMPENSATE", "off" }, { "TAU_MAX_THREADS", "128" },
        { "TAU_PROFILE", "on" }, { "TAU_PROFILE_FORMAT", "profile" }, { "TAU_SAMPLING", "off" },
        { "TAU_THROTTLE", "on" }, { "TAU_THROTTLE_NUMCALLS", "100000" }, { "TAU_THROTTLE_PERCALL", "10" },
        { "TAU_TRACE", "off" } };
    for (const auto& [key, value] : common)
        builder.addMetadata(QString::fromLatin1(key), QString::fromLatin1(value));
    const QString tau = QLatin1String(SpackPrefix) + QStringLiteral("tau-2.35-qmx7c4zkd2yyfhv5wcsmv3gwrnj3lf2e");
    builder.addMetadata(QStringLiteral("TAU Config"), tauConfig(tau));
    builder.addMetadata(QStringLiteral("TAU Makefile"), tau + QStringLiteral("/craycnl/lib/Makefile.tau-gnu-mpi-pdt"));
    builder.addMetadata(QStringLiteral("TAU_CALLPATH"), depth > 0 ? QStringLiteral("on") : QStringLiteral("off"));
    builder.addMetadata(QStringLiteral("TAU_CALLPATH_DEPTH"), QString::number(depth > 0 ? depth : 2));
}

/// The per-rank part of TAU's metadata block: host names, MPI rank, process ids, timestamps.
void addTauThreadMetadata(TrialBuilder& builder, ThreadIndex ti, const ThreadKey& key, qint64 start)
{
    const QString host = QStringLiteral("nid%1").arg(key.node / 64, 6, 10, QLatin1Char('0'));
    builder.addThreadMetadata(ti, QStringLiteral("Hostname"), host);
    builder.addThreadMetadata(ti, QStringLiteral("Node Name"), host);
    builder.addThreadMetadata(ti, QStringLiteral("MPI Processor Name"), host);
    builder.addThreadMetadata(ti, QStringLiteral("MPI Rank"), QString::number(key.node));
    builder.addThreadMetadata(ti, QStringLiteral("pid"), QString::number(40000 + key.node));
    builder.addThreadMetadata(ti, QStringLiteral("tid"), QString::number(40000 + key.node + key.thread));
    builder.addThreadMetadata(ti, QStringLiteral("Starting Timestamp"), QString::number(start));
    builder.addThreadMetadata(ti, QStringLiteral("Timestamp"), QString::number(start + 123456789));
    builder.addThreadMetadata(ti, QStringLiteral("Ending Timestamp"), QString::number(start + 123456812));
    builder.addThreadMetadata(ti, QStringLiteral("Local Time"),
        QDateTime::fromMSecsSinceEpoch(start / 1000, QTimeZone::utc()).toString(Qt::ISODate));
}

QStringList groupsFor(const QString& name)
{
    if (name.startsWith(QLatin1String("MPI_")))
        return { QStringLiteral("MPI") };
    if (name.startsWith(QLatin1String("Loop:")))
        return { QStringLiteral("TAU_USER"), QStringLiteral("TAU_LOOP") };
    return { QStringLiteral("TAU_USER") };
}

} // namespace

std::shared_ptr<Trial> synthesizeTrial(const SynthOptions& o)
{
    const int nEvents = std::max(1, o.events);
    const int nThreads = std::max(1, o.threads);
    const int nMetrics = std::max(1, o.metrics);
    const int depth = o.callpathDepth >= 2 ? o.callpathDepth : 0;
    const int nGroups = std::clamp(o.groups, 1, nThreads);
    Random rng(o.seed);

    TrialBuilder builder(QStringLiteral("synth-%1x%2").arg(nThreads).arg(nEvents));
    const char* const metricNames[]
        = { "TIME", "PAPI_TOT_CYC", "PAPI_TOT_INS", "PAPI_FP_OPS", "PAPI_L1_DCM", "PAPI_L2_TCM", "PAPI_BR_MSP" };
    for (int m = 0; m < nMetrics; ++m) {
        const QString name = m < static_cast<int>(std::size(metricNames)) ? QString::fromLatin1(metricNames[m])
                                                                          : QStringLiteral("PAPI_NATIVE_%1").arg(m);
        Metric metric;
        metric.name = name;
        metric.unit = m == 0 ? QStringLiteral("us") : QStringLiteral("count");
        builder.addMetric(metric);
    }

    // The program's call tree (the same on every thread): node 0 is ".TAU application".
    std::vector<QString> names(static_cast<std::size_t>(nEvents));
    std::vector<int> parent(static_cast<std::size_t>(nEvents), -1);
    std::vector<int> level(static_cast<std::size_t>(nEvents), 1);
    names[0] = QStringLiteral(".TAU application");
    for (int i = 1; i < nEvents; ++i) {
        QString n;
        do {
            n = eventName(i, o.realistic, rng);
        } while (std::find(names.begin(), names.begin() + i, n) != names.begin() + i);
        names[static_cast<std::size_t>(i)] = n;
        // Parents come from earlier nodes no deeper than depth-1 (so every path fits the depth).
        int p = 0;
        const int maxLevel = std::max(1, (depth > 0 ? depth : 3) - 1);
        for (int tries = 0; tries < 4; ++tries) {
            const int cand = rng.below(i);
            if (level[static_cast<std::size_t>(cand)] <= maxLevel
                && !names[static_cast<std::size_t>(cand)].startsWith(QLatin1String("MPI_"))) {
                p = cand;
                break;
            }
        }
        parent[static_cast<std::size_t>(i)] = p;
        level[static_cast<std::size_t>(i)] = level[static_cast<std::size_t>(p)] + 1;
    }
    std::vector<EventId> flatIds(static_cast<std::size_t>(nEvents));
    for (int i = 0; i < nEvents; ++i)
        flatIds[static_cast<std::size_t>(i)] = builder.addEvent(names[static_cast<std::size_t>(i)],
            i == 0 ? QStringList { QStringLiteral("TAU_DEFAULT") } : groupsFor(names[static_cast<std::size_t>(i)]));
    std::vector<EventId> pathIds(static_cast<std::size_t>(nEvents));
    if (depth > 0) {
        for (int i = 1; i < nEvents; ++i) {
            QString path = names[static_cast<std::size_t>(i)];
            for (int p = parent[static_cast<std::size_t>(i)]; p >= 0; p = parent[static_cast<std::size_t>(p)])
                path = names[static_cast<std::size_t>(p)] + QStringLiteral(" => ") + path;
            QStringList groups = groupsFor(names[static_cast<std::size_t>(i)]);
            groups.prepend(QStringLiteral("TAU_CALLPATH"));
            pathIds[static_cast<std::size_t>(i)] = builder.addEvent(path, groups);
        }
    }

    // Per-event base cost (µs) and calls; threads vary around it (load imbalance).
    std::vector<double> baseExcl(static_cast<std::size_t>(nEvents));
    std::vector<double> baseCalls(static_cast<std::size_t>(nEvents));
    for (int i = 0; i < nEvents; ++i) {
        baseExcl[static_cast<std::size_t>(i)] = std::floor(std::pow(10.0, 2.0 + 5.0 * rng.uniform()));
        baseCalls[static_cast<std::size_t>(i)] = i == 0 ? 1.0 : std::floor(std::pow(10.0, 4.0 * rng.uniform())) + 1.0;
    }
    std::vector<double> metricFactor(static_cast<std::size_t>(nMetrics));
    for (int m = 0; m < nMetrics; ++m)
        metricFactor[static_cast<std::size_t>(m)] = m == 0 ? 1.0 : 500.0 + 3000.0 * rng.uniform();

    const int nUser = std::clamp(o.userEvents, 0, 1000);
    std::vector<AtomicEventId> userIds;
    for (int u = 0; u < nUser; ++u) {
        QString name = u < static_cast<int>(std::size(UserEventNames)) ? QString::fromLatin1(UserEventNames[u])
                                                                       : QStringLiteral("User counter %1").arg(u);
        if (u % 3 == 2 && nEvents > 1)
            name += QStringLiteral(" : .TAU application => ") + names[1];
        userIds.push_back(builder.addAtomicEvent(name));
    }

    std::vector<ThreadIndex> threads;
    for (int t = 0; t < nThreads; ++t) {
        const int perNode = std::max(1, o.threadsPerNode);
        threads.push_back(builder.addThread({ t / perNode, 0, t % perNode }));
    }

    // The time series (snapshots > 1): snapshot k of 0..K-1 holds each event's exclusive value and
    // calls scaled by ((k + 1) / K)^p, p by event (0.5, 1, 2 or 4: some routines run early, some
    // late), the call tree's sums rebuilt from them; user-event counts grow linearly. The last
    // snapshot is the profile ("final", as TAU names it).
    const int nSnapshots = std::max(1, o.snapshots);
    std::vector<std::vector<ProfileSnapshot>> series(nSnapshots > 1 ? static_cast<std::size_t>(nThreads) : 0);
    auto snapshotsOf = [&](int t, const std::vector<double>& excl, const std::vector<double>& calls,
                           const AtomicRow& atomics, const auto& makeRow) {
        static constexpr double Powers[] = { 0.5, 1.0, 2.0, 4.0 };
        const qint64 start = 1700000000000000LL + static_cast<qint64>(t / std::max(1, o.threadsPerNode)) * 37;
        std::vector<ProfileSnapshot> snaps(static_cast<std::size_t>(nSnapshots));
        std::vector<double> ex(excl.size()), ca(calls.size());
        for (int k = 0; k < nSnapshots; ++k) {
            ProfileSnapshot& s = snaps[static_cast<std::size_t>(k)];
            const double done = static_cast<double>(k + 1) / nSnapshots;
            s.name = k + 1 == nSnapshots ? QStringLiteral("final") : QStringLiteral("iteration %1").arg(k + 1);
            s.timestamp = start + static_cast<qint64>(123456789.0 * done);
            for (std::size_t i = 0; i < excl.size(); ++i) {
                const double f = k + 1 == nSnapshots ? 1.0 : std::pow(done, i == 0 ? 1.0 : Powers[i % 4]);
                ex[i] = std::floor(excl[i] * f);
                ca[i] = std::ceil(calls[i] * f);
            }
            s.row = makeRow(ex, ca);
            for (std::size_t u = 0; u < atomics.size(); ++u) {
                const double count = std::ceil(atomics.count[u] * done);
                s.atomicRow.append(atomics.events[u], count, atomics.max[u], atomics.min[u], atomics.mean[u],
                    atomics.sumSquares[u] * count / atomics.count[u]);
            }
        }
        return snaps;
    };

    // Rows are generated in parallel; each thread has its own random stream.
    std::vector<IntervalRow> rows(static_cast<std::size_t>(nThreads));
    std::vector<AtomicRow> atomicRows(static_cast<std::size_t>(nThreads));
    std::vector<int> order(static_cast<std::size_t>(nThreads));
    std::iota(order.begin(), order.end(), 0);
    QtConcurrent::blockingMap(order, [&](int t) {
        Random r(o.seed * 1000003ull + static_cast<std::uint64_t>(t) * 7919ull + 17ull);
        const double imbalance = 0.8 + 0.4 * r.uniform();
        const int group = static_cast<int>(static_cast<long long>(t) * nGroups / nThreads);
        std::vector<double> excl(static_cast<std::size_t>(nEvents)), calls(static_cast<std::size_t>(nEvents)),
            subrs(static_cast<std::size_t>(nEvents), 0.0);
        for (int i = 0; i < nEvents; ++i) {
            const double planted = nGroups > 1 && i >= 1 && i % nGroups == group ? 4.0 : 1.0;
            excl[static_cast<std::size_t>(i)]
                = std::floor(baseExcl[static_cast<std::size_t>(i)] * planted * imbalance * (0.9 + 0.2 * r.uniform()));
            calls[static_cast<std::size_t>(i)] = baseCalls[static_cast<std::size_t>(i)];
        }
        // One cumulative profile from exclusive values and calls: inclusive values and subroutine
        // calls follow from the call tree, so they add up in every snapshot.
        auto makeRow = [&](const std::vector<double>& ex, const std::vector<double>& ca) {
            std::vector<double> in = ex;
            std::fill(subrs.begin(), subrs.end(), 0.0);
            for (int i = nEvents - 1; i > 0; --i) {
                const int p = parent[static_cast<std::size_t>(i)];
                in[static_cast<std::size_t>(p)] += in[static_cast<std::size_t>(i)];
                subrs[static_cast<std::size_t>(p)] += ca[static_cast<std::size_t>(i)];
            }
            IntervalRow row;
            const std::size_t cells = static_cast<std::size_t>(depth > 0 ? 2 * nEvents - 1 : nEvents);
            row.events.reserve(cells);
            auto push = [&](EventId id, int i) {
                row.events.push_back(id);
                row.calls.push_back(ca[static_cast<std::size_t>(i)]);
                row.subrs.push_back(subrs[static_cast<std::size_t>(i)]);
            };
            for (int i = 0; i < nEvents; ++i)
                push(flatIds[static_cast<std::size_t>(i)], i);
            if (depth > 0)
                for (int i = 1; i < nEvents; ++i)
                    push(pathIds[static_cast<std::size_t>(i)], i);
            const std::size_t n = row.events.size();
            row.excl.resize(n * static_cast<std::size_t>(nMetrics));
            row.incl.resize(n * static_cast<std::size_t>(nMetrics));
            for (int m = 0; m < nMetrics; ++m) {
                const double f = metricFactor[static_cast<std::size_t>(m)];
                for (std::size_t k = 0; k < n; ++k) {
                    const int i = k < static_cast<std::size_t>(nEvents) ? static_cast<int>(k)
                                                                        : static_cast<int>(k) - nEvents + 1;
                    row.excl[static_cast<std::size_t>(m) * n + k] = std::floor(ex[static_cast<std::size_t>(i)] * f);
                    row.incl[static_cast<std::size_t>(m) * n + k] = std::floor(in[static_cast<std::size_t>(i)] * f);
                }
            }
            return row;
        };
        rows[static_cast<std::size_t>(t)] = makeRow(excl, calls);
        AtomicRow& arow = atomicRows[static_cast<std::size_t>(t)];
        for (std::size_t u = 0; u < userIds.size(); ++u) {
            const double count = 1 + std::floor(200 * r.uniform());
            const double min = 4 + std::floor(10 * r.uniform());
            const double max = min + std::floor(1e5 * r.uniform());
            const double mean = min + (max - min) * (0.2 + 0.3 * r.uniform());
            arow.append(userIds[u], count, max, min, mean, count * (mean * mean + (max - min) * (max - min) / 16.0));
        }
        if (nSnapshots > 1)
            series[static_cast<std::size_t>(t)] = snapshotsOf(t, excl, calls, arow, makeRow);
    });
    builder.setIntervalRows(std::move(rows));
    builder.setAtomicRows(std::move(atomicRows));
    for (std::size_t t = 0; t < series.size(); ++t)
        builder.setTimeSeries(threads[t], std::move(series[t]));

    for (int t = 0; t < nThreads; ++t) {
        const ThreadKey& key = { t / std::max(1, o.threadsPerNode), 0, t % std::max(1, o.threadsPerNode) };
        const ThreadIndex ti = threads[static_cast<std::size_t>(t)];
        const qint64 start = 1700000000000000LL + static_cast<qint64>(key.node) * 37;
        if (o.realistic) {
            addTauThreadMetadata(builder, ti, key, start);
            continue;
        }
        builder.addThreadMetadata(
            ti, QStringLiteral("Hostname"), QStringLiteral("nid%1").arg(key.node / 64, 5, 10, QLatin1Char('0')));
        builder.addThreadMetadata(ti, QStringLiteral("pid"), QString::number(40000 + key.node));
        builder.addThreadMetadata(ti, QStringLiteral("tid"), QString::number(40000 + key.node + key.thread));
        builder.addThreadMetadata(ti, QStringLiteral("Starting Timestamp"), QString::number(start));
        builder.addThreadMetadata(ti, QStringLiteral("Timestamp"), QString::number(start + 123456789));
        if (nGroups > 1)
            builder.addThreadMetadata(
                ti, QStringLiteral("Synth group"), QString::number(static_cast<long long>(t) * nGroups / nThreads));
    }
    if (o.realistic) {
        addTauMetadata(builder, depth);
    } else {
        builder.addMetadata(QStringLiteral("CPU Cores"), QStringLiteral("64"));
        builder.addMetadata(QStringLiteral("CPU Type"), QStringLiteral("AMD EPYC 7763 64-Core Processor"));
        builder.addMetadata(QStringLiteral("OS Name"), QStringLiteral("Linux"));
        builder.addMetadata(QStringLiteral("OS Release"), QStringLiteral("5.14.21"));
        builder.addMetadata(QStringLiteral("Command Line"), QStringLiteral("./synth_app -n 1000"));
        builder.addMetadata(QStringLiteral("Executable"), QStringLiteral("/scratch/user/synth_app"));
        builder.addMetadata(QStringLiteral("TAU Version"), QStringLiteral("2.35"));
        builder.addMetadata(QStringLiteral("TAU_CALLPATH"), depth > 0 ? QStringLiteral("on") : QStringLiteral("off"));
        builder.addMetadata(QStringLiteral("TAU_CALLPATH_DEPTH"), QString::number(depth > 0 ? depth : 2));
    }
    builder.addMetadata(QStringLiteral("Synthesized by"),
        QStringLiteral(
            "parallax-cli synth --threads %1 --events %2 --callpath-depth %3 --metrics %4 --user-events %5 --seed %6")
                .arg(nThreads)
                .arg(nEvents)
                .arg(depth)
                .arg(nMetrics)
                .arg(nUser)
                .arg(o.seed)
            + (nGroups > 1 ? QStringLiteral(" --groups %1").arg(nGroups) : QString())
            + (o.realistic ? QStringLiteral(" --realistic") : QString())
            + (nSnapshots > 1 ? QStringLiteral(" --snapshots %1").arg(nSnapshots) : QString()));
    Provenance p;
    p.operation = QStringLiteral("synth");
    p.options << QStringLiteral("seed=%1").arg(o.seed);
    if (o.realistic)
        p.options << QStringLiteral("realistic");
    builder.setProvenance(p);
    return builder.build();
}

} // namespace parallax
