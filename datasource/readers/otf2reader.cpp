// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// OTF2 trace reader (docs/FORMATS.md, section OTF2; the window rule is docs/SEMANTICS.md 1.10).
//
// 0. Before the library reads a definition file (global or a location's), DefinitionFileCheck walks
//    its records and refuses counts the records cannot hold: the library allocates what they claim.
// 1. The global definitions (strings, regions, system tree, location groups, locations, clock
//    properties, metrics, groups and communicators) are read once with a global definition reader.
//    Tolerant: a location whose group is undefined becomes a rank of its own, missing clock
//    properties mean 1 tick = 1 us (with a warning), location ids may be sparse.
// 2. Every location is replayed on a worker (QtConcurrent over the locations). The OTF2 reader is
//    not safe for concurrent use, so each worker opens its own OTF2_Reader on the anchor file,
//    selects its one location, reads that location's local definitions (the mapping tables) and
//    then its events. Enter/Leave drive a stack; each frame knows its call-path node (a trie of
//    (parent, region)); a Leave adds the frame's time (clipped to the window) to the node and, for
//    the outermost activation of a region, to the region's flat event. Messages and collectives
//    (MpiCollectiveEnd) become TAU's user events (collectiveSample: SEMANTICS 1.10's table).
// 3. The thread of a location: node = the position of its location group among the groups (by
//    reference), thread = the location's index within its group; context 0.

#include "datasource/readers/otf2reader.h"

#include "datasource/readers/gzipinput.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentMap>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdarg>
#include <filesystem>
#include <map>
#include <optional>
#include <otf2/otf2.h>
#include <unordered_map>

namespace parallax {

namespace {

constexpr std::uint64_t Undefined = ~std::uint64_t(0);

QString otf2Error(OTF2_ErrorCode code)
{
    return QStringLiteral("%1 (%2)").arg(
        QString::fromUtf8(OTF2_Error_GetName(code)), QString::fromUtf8(OTF2_Error_GetDescription(code)));
}

struct Region {
    std::uint64_t name = Undefined;
    OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
};
struct LocationDef {
    std::uint64_t ref = 0;
    std::uint64_t name = Undefined;
    std::uint64_t group = Undefined;
    std::uint64_t events = 0;
};
struct GroupDef {
    std::uint64_t name = Undefined;
    std::uint64_t parent = Undefined;
};
struct SystemNode {
    std::uint64_t name = Undefined;
    std::uint64_t className = Undefined;
    std::uint64_t parent = Undefined;
};

struct Definitions {
    std::unordered_map<std::uint64_t, std::string> strings;
    std::unordered_map<std::uint64_t, Region> regions;
    std::vector<LocationDef> locations;
    std::map<std::uint64_t, GroupDef> locationGroups;
    std::map<std::uint64_t, SystemNode> systemTree;
    /// Group members (OTF2 Group definitions) and the group of each communicator.
    std::unordered_map<std::uint64_t, std::vector<std::uint64_t>> groupMembers;
    std::unordered_map<std::uint64_t, OTF2_GroupType> groupTypes;
    std::unordered_map<std::uint64_t, std::uint64_t> commGroup;
    /// The MPI locations group (paradigm MPI, type COMM_LOCATIONS): member i is the location of world rank i.
    std::vector<std::uint64_t> mpiLocations;
    std::vector<std::string> metricMembers;
    /// Metric members by reference, and the members of each metric class (or instance, by its class).
    struct Member {
        std::string name;
        OTF2_MetricMode mode = OTF2_METRIC_ACCUMULATED_START;
    };
    std::unordered_map<std::uint64_t, Member> members;
    std::unordered_map<std::uint64_t, std::pair<std::vector<std::uint64_t>, OTF2_MetricOccurrence>> metricClasses;
    std::unordered_map<std::uint64_t, std::uint64_t> metricInstances;
    /// The counters read as metrics (SEMANTICS 1.10): the members of strictly synchronous classes
    /// whose values accumulate from the start (PAPI counters as Score-P records them). countersOf
    /// maps a metric (class or instance) reference to the counter index of each of its values (-1:
    /// not read).
    std::vector<std::string> counters;
    std::unordered_map<std::uint64_t, std::vector<int>> countersOf;
    bool haveClock = false;
    std::uint64_t resolution = 1000000;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;

    QString string(std::uint64_t ref) const
    {
        const auto it = strings.find(ref);
        return it == strings.end() ? QString() : QString::fromStdString(it->second);
    }
    /// The MPI_COMM_WORLD rank of `rank` in communicator `comm` (rank as is when not resolvable).
    std::uint64_t worldRank(std::uint64_t comm, std::uint64_t rank) const
    {
        const auto c = commGroup.find(comm);
        if (c == commGroup.end())
            return rank;
        const auto g = groupMembers.find(c->second);
        if (g == groupMembers.end() || rank >= g->second.size())
            return rank;
        const auto t = groupTypes.find(c->second);
        return t != groupTypes.end() && t->second == OTF2_GROUP_TYPE_COMM_GROUP ? g->second[rank] : rank;
    }
    /// The number of ranks of communicator `comm` (its group's members); 0 when not defined.
    std::uint64_t commSize(std::uint64_t comm) const
    {
        const auto c = commGroup.find(comm);
        const auto g = c == commGroup.end() ? groupMembers.end() : groupMembers.find(c->second);
        return g == groupMembers.end() ? 0 : g->second.size();
    }
    /// The MPI_COMM_WORLD rank of a location (its position in the MPI locations group); Undefined if none.
    std::uint64_t worldRankOf(std::uint64_t location) const
    {
        const auto it = std::find(mpiLocations.begin(), mpiLocations.end(), location);
        return it == mpiLocations.end() ? Undefined : static_cast<std::uint64_t>(it - mpiLocations.begin());
    }
};

OTF2_CallbackCode defs(void* u, auto&& f)
{
    f(*static_cast<Definitions*>(u));
    return OTF2_CALLBACK_SUCCESS;
}

void registerDefinitionCallbacks(OTF2_GlobalDefReaderCallbacks* cb)
{
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, [](void* u, OTF2_StringRef self, const char* s) {
        return defs(u, [&](Definitions& d) { d.strings[self] = s ? s : ""; });
    });
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb,
        [](void* u, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef, OTF2_RegionRole,
            OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t, uint32_t) {
            return defs(u, [&](Definitions& d) { d.regions[self] = Region { name, paradigm }; });
        });
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb,
        [](void* u, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType, uint64_t events,
            OTF2_LocationGroupRef group) {
            return defs(u, [&](Definitions& d) { d.locations.push_back({ self, name, group, events }); });
        });
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb,
        [](void* u, OTF2_LocationGroupRef self, OTF2_StringRef name, OTF2_LocationGroupType,
            OTF2_SystemTreeNodeRef parent, OTF2_LocationGroupRef) {
            return defs(u, [&](Definitions& d) { d.locationGroups[self] = GroupDef { name, parent }; });
        });
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb,
        [](void* u, OTF2_SystemTreeNodeRef self, OTF2_StringRef name, OTF2_StringRef className,
            OTF2_SystemTreeNodeRef parent) {
            return defs(u, [&](Definitions& d) { d.systemTree[self] = SystemNode { name, className, parent }; });
        });
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(
        cb, [](void* u, uint64_t resolution, uint64_t offset, uint64_t length, uint64_t) {
            return defs(u, [&](Definitions& d) {
                d.haveClock = resolution > 0;
                d.resolution = resolution > 0 ? resolution : d.resolution;
                d.offset = offset;
                d.length = length;
            });
        });
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb,
        [](void* u, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type, OTF2_Paradigm paradigm, OTF2_GroupFlag,
            uint32_t n, const uint64_t* members) {
            return defs(u, [&](Definitions& d) {
                d.groupMembers[self].assign(members, members + n);
                d.groupTypes[self] = type;
                if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS && paradigm == OTF2_PARADIGM_MPI)
                    d.mpiLocations.assign(members, members + n);
            });
        });
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(
        cb, [](void* u, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef group, OTF2_CommRef, OTF2_CommFlag) {
            return defs(u, [&](Definitions& d) { d.commGroup[self] = group; });
        });
    OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(cb,
        [](void* u, OTF2_MetricMemberRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_MetricType,
            OTF2_MetricMode mode, OTF2_Type, OTF2_Base, int64_t, OTF2_StringRef) {
            return defs(u, [&](Definitions& d) {
                d.metricMembers.push_back(d.strings[name]);
                d.members[self] = { d.strings[name], mode };
            });
        });
    OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(cb,
        [](void* u, OTF2_MetricRef self, uint8_t n, const OTF2_MetricMemberRef* members,
            OTF2_MetricOccurrence occurrence, OTF2_RecorderKind) {
            return defs(u, [&](Definitions& d) {
                d.metricClasses[self] = { std::vector<std::uint64_t>(members, members + n), occurrence };
            });
        });
    OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(
        cb, [](void* u, OTF2_MetricRef self, OTF2_MetricRef metricClass, OTF2_LocationRef, OTF2_MetricScope, uint64_t) {
            return defs(u, [&](Definitions& d) { d.metricInstances[self] = metricClass; });
        });
}

/// Chooses the counters read as metrics (Definitions::counters) once the definitions are read.
void chooseCounters(Definitions& d)
{
    std::map<std::uint64_t, int> index; // member reference -> counter
    std::map<std::uint64_t, const std::pair<std::vector<std::uint64_t>, OTF2_MetricOccurrence>*> classes([&] {
        std::map<std::uint64_t, const std::pair<std::vector<std::uint64_t>, OTF2_MetricOccurrence>*> c;
        for (const auto& [ref, def] : d.metricClasses)
            c[ref] = &def;
        return c;
    }());
    for (const auto& [ref, def] : classes) {
        std::vector<int> columns;
        for (const std::uint64_t member : def->first) {
            const auto m = d.members.find(member);
            const bool read = def->second == OTF2_METRIC_SYNCHRONOUS_STRICT && m != d.members.end()
                && m->second.mode == OTF2_METRIC_ACCUMULATED_START;
            if (read && !index.contains(member)) {
                index[member] = static_cast<int>(d.counters.size());
                d.counters.push_back(m->second.name);
            }
            columns.push_back(read ? index[member] : -1);
        }
        d.countersOf[ref] = columns;
    }
    for (const auto& [instance, cls] : d.metricInstances)
        if (const auto it = d.countersOf.find(cls); it != d.countersOf.end())
            d.countersOf.try_emplace(instance, it->second);
}

/// Accumulated values of one flat event or call-path node of one location: time in ticks, and
/// the counters' inclusive and exclusive values (empty without counters).
struct Acc {
    double calls = 0;
    double subrs = 0;
    std::uint64_t incl = 0;
    std::uint64_t excl = 0;
    std::vector<double> counterIncl;
    std::vector<double> counterExcl;
};
struct PathNode {
    std::uint64_t region = 0;
    std::uint32_t parent = 0;
    Acc acc;
};
struct Frame {
    std::uint64_t region;
    std::uint32_t node;
    std::uint64_t enter;
    std::uint64_t children = 0;
    bool counted;
};
struct MessageStats {
    double count = 0;
    double sum = 0;
    double sumSquares = 0;
    double min = 0;
    double max = 0;
    void add(double v)
    {
        min = count == 0 ? v : std::min(min, v);
        max = count == 0 ? v : std::max(max, v);
        ++count;
        sum += v;
        sumSquares += v * v;
    }
};

/// TAU's user event for an MPI collective operation (tau2 src/Profile/TauCAPI.cpp, TAU_GEN_EVENT);
/// nullptr where TAU's MPI wrapper records none (barrier, exscan, alltoallw, handle operations).
const char* collectiveEventName(OTF2_CollectiveOp op)
{
    switch (op) {
    case OTF2_COLLECTIVE_OP_BCAST:
        return "Message size for broadcast";
    case OTF2_COLLECTIVE_OP_GATHER:
        return "Message size for gather";
    case OTF2_COLLECTIVE_OP_GATHERV:
        return "Message size for gatherv";
    case OTF2_COLLECTIVE_OP_SCATTER:
        return "Message size for scatter";
    case OTF2_COLLECTIVE_OP_SCATTERV:
        return "Message size for scatterv";
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
        return "Message size for all-gather";
    case OTF2_COLLECTIVE_OP_ALLTOALL:
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
        return "Message size for all-to-all";
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
        return "Message size for all-reduce";
    case OTF2_COLLECTIVE_OP_REDUCE:
        return "Message size for reduce";
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
        return "Message size for reduce-scatter";
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
        return "Message size for reduce-scatter-block";
    case OTF2_COLLECTIVE_OP_SCAN:
        return "Message size for scan";
    default:
        return nullptr;
    }
}

/// The sample TAU's MPI wrapper (tau2 src/Profile/TauMpi.c) records for one collective call, from
/// the bytes Score-P writes into MpiCollectiveEnd (scorep_mpi_coll.inc.c): docs/SEMANTICS.md 1.10.
/// `ranks` is the communicator's size (0: unknown), `isRoot` whether this location is the root.
/// nullopt: no sample (TAU records none, or the size it needs is unknown).
std::optional<double> collectiveSample(
    OTF2_CollectiveOp op, std::uint64_t ranks, bool isRoot, std::uint64_t sent, std::uint64_t received)
{
    const auto s = static_cast<double>(sent);
    const auto r = static_cast<double>(received);
    const auto n = static_cast<double>(ranks);
    switch (op) {
    case OTF2_COLLECTIVE_OP_BCAST:
    case OTF2_COLLECTIVE_OP_SCATTER:
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
        return r; // every rank receives the block (all blocks for allgatherv)
    case OTF2_COLLECTIVE_OP_REDUCE:
        return s; // every rank sends its block
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
        return s + r;
    case OTF2_COLLECTIVE_OP_GATHERV:
        return isRoot ? std::optional<double>(r) : std::nullopt;
    case OTF2_COLLECTIVE_OP_SCATTERV:
        return isRoot ? std::optional<double>(s) : std::nullopt;
    case OTF2_COLLECTIVE_OP_GATHER:
        return isRoot && ranks > 0 ? std::optional<double>(r / n) : std::nullopt;
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
        return ranks > 0 ? std::optional<double>(r / n) : std::nullopt;
    case OTF2_COLLECTIVE_OP_ALLTOALL:
        return ranks > 0 ? std::optional<double>((s + r) / n) : std::nullopt;
    case OTF2_COLLECTIVE_OP_SCAN:
        return ranks > 0 ? std::optional<double>((s + r) / (n + 1)) : std::nullopt;
    default:
        return std::nullopt;
    }
}

/// The replay of one location (see the top of this file).
struct Replay {
    const Definitions* defs = nullptr;
    std::uint64_t from = 0;
    std::uint64_t to = Undefined;
    std::vector<PathNode> nodes { PathNode {} }; // node 0: the root (no region)
    std::unordered_map<std::uint64_t, std::uint32_t> children; // (parent << 32 | region) -> node
    std::unordered_map<std::uint64_t, Acc> flat;
    std::unordered_map<std::uint64_t, int> active; // open activations per region
    std::vector<Frame> stack;
    std::map<std::pair<int, std::uint64_t>, MessageStats> messages; // (0 sent / 1 received, peer)
    std::map<std::string, MessageStats> collectives; // by TAU's event name
    std::uint64_t worldRank = Undefined; // this location's MPI_COMM_WORLD rank (Undefined: not an MPI rank)
    std::uint64_t unsizedCollectives = 0; // collectives whose sample needs an undefined communicator's size
    std::uint64_t events = 0; // records read
    std::uint64_t steps = 0;
    std::uint64_t last = 0;
    std::uint64_t metricRecords = 0; // records of metrics not read as counters
    // The counters (Definitions::counters): their latest values, their values as the window opened
    // and closed (the last record before `from` and before `to`), and per open frame its values at
    // the enter and its children's inclusive counts (2 per counter, stack order).
    std::size_t counterCount = 0;
    std::vector<double> counter;
    std::vector<double> atFrom;
    std::vector<double> atTo;
    bool pastFrom = false;
    bool pastTo = false;
    std::vector<double> frameCounters;
    qint64 mismatched = 0;
    // The timeline (readOtf2Timeline): `binCount` bins over [from, to); per bin the ticks each region
    // spent on top of the stack (its exclusive time), from the previous event to this one.
    std::size_t binCount = 0;
    std::vector<std::unordered_map<std::uint64_t, std::uint64_t>> binTime;
    std::uint64_t previous = Undefined;
    const std::atomic<bool>* cancelled = nullptr;
    std::optional<ParseError> error;

    std::uint64_t clip(std::uint64_t t) const { return std::clamp(t, from, std::max(from, to)); }
    bool inside(std::uint64_t t) const { return t >= from && t < to; }

    std::uint32_t child(std::uint32_t parent, std::uint64_t region)
    {
        const std::uint64_t key = (std::uint64_t(parent) << 32) ^ region;
        const auto [it, added] = children.try_emplace(key, static_cast<std::uint32_t>(nodes.size()));
        if (added)
            nodes.push_back(PathNode { region, parent, {} });
        return it->second;
    }
    void enter(std::uint64_t t, std::uint64_t region)
    {
        const std::uint32_t parent = stack.empty() ? 0 : stack.back().node;
        const std::uint32_t node = child(parent, region);
        const bool counted = inside(t);
        if (counted) {
            ++nodes[node].acc.calls;
            ++flat[region].calls;
            if (!stack.empty()) {
                ++nodes[parent].acc.subrs;
                ++flat[stack.back().region].subrs;
            }
        }
        ++active[region];
        stack.push_back(Frame { region, node, t, 0, counted });
        if (counterCount > 0) {
            frameCounters.insert(frameCounters.end(), counter.begin(), counter.end());
            frameCounters.insert(frameCounters.end(), counterCount, 0.0);
        }
    }
    /// A frame's counters at its leave at `t` (SEMANTICS 1.10): the value as the frame (or the
    /// window) began to the value as it (or the window) ended, nothing outside the window.
    void leaveCounters(const Frame& f, std::uint64_t t, Acc& node, Acc& flatAcc, bool outermost)
    {
        const std::size_t k = counterCount;
        const double* fc = &frameCounters[stack.size() * 2 * k];
        const bool outside = t <= from || (to != Undefined && f.enter >= to);
        node.counterIncl.resize(k);
        node.counterExcl.resize(k);
        flatAcc.counterIncl.resize(k);
        flatAcc.counterExcl.resize(k);
        for (std::size_t c = 0; c < k; ++c) {
            const double begin = f.enter >= from ? fc[c] : (pastFrom ? atFrom[c] : counter[c]);
            const double end = to == Undefined || t <= to ? counter[c] : (pastTo ? atTo[c] : counter[c]);
            const double incl = outside ? 0.0 : std::max(0.0, end - begin);
            const double excl = std::max(0.0, incl - fc[k + c]);
            node.counterIncl[c] += incl;
            node.counterExcl[c] += excl;
            flatAcc.counterExcl[c] += excl;
            if (outermost)
                flatAcc.counterIncl[c] += incl;
            if (!stack.empty())
                frameCounters[(stack.size() - 1) * 2 * k + k + c] += incl;
        }
        frameCounters.resize(stack.size() * 2 * k);
    }
    void sample(
        std::uint64_t t, std::uint64_t metric, std::uint8_t n, const OTF2_Type* types, const OTF2_MetricValue* values)
    {
        const auto columns = defs->countersOf.find(metric);
        if (columns == defs->countersOf.end() || counterCount == 0) {
            ++metricRecords;
            return;
        }
        if (!pastFrom && t > from) {
            atFrom = counter;
            pastFrom = true;
        }
        if (!pastTo && to != Undefined && t > to) {
            atTo = counter;
            pastTo = true;
        }
        bool unread = false;
        for (std::size_t i = 0; i < n; ++i) {
            const int c = i < columns->second.size() ? columns->second[i] : -1;
            if (c < 0) {
                unread = true;
                continue;
            }
            const OTF2_MetricValue v = values[i];
            counter[static_cast<std::size_t>(c)] = types[i] == OTF2_TYPE_DOUBLE ? v.floating_point
                : types[i] == OTF2_TYPE_INT64                                   ? static_cast<double>(v.signed_int)
                                                                                : static_cast<double>(v.unsigned_int);
        }
        metricRecords += unread ? 1 : 0;
    }
    void leave(std::uint64_t t, std::uint64_t region)
    {
        if (stack.empty()) {
            ++mismatched;
            return;
        }
        if (stack.back().region != region)
            ++mismatched;
        const Frame f = stack.back();
        stack.pop_back();
        const std::uint64_t begin = clip(f.enter);
        const std::uint64_t end = std::max(begin, clip(t));
        const std::uint64_t incl = end - begin;
        const std::uint64_t excl = incl >= f.children ? incl - f.children : 0;
        Acc& n = nodes[f.node].acc;
        n.incl += incl;
        n.excl += excl;
        Acc& r = flat[f.region];
        r.excl += excl;
        const bool outermost = --active[f.region] == 0;
        if (outermost)
            r.incl += incl;
        if (!stack.empty())
            stack.back().children += incl;
        if (counterCount > 0)
            leaveCounters(f, t, n, r, outermost);
    }
    void message(int direction, std::uint64_t t, std::uint64_t comm, std::uint64_t peer, std::uint64_t bytes)
    {
        if (inside(t))
            messages[{ direction, defs->worldRank(comm, peer) }].add(static_cast<double>(bytes));
    }
    /// An MpiCollectiveEnd: TAU's sample for the operation (collectiveSample) when `t` is in the window.
    void collective(std::uint64_t t, OTF2_CollectiveOp op, std::uint64_t comm, std::uint32_t root, std::uint64_t sent,
        std::uint64_t received)
    {
        const char* name = collectiveEventName(op);
        if (!name || !inside(t))
            return;
        const bool isRoot = worldRank != Undefined && defs->worldRank(comm, root) == worldRank;
        const std::uint64_t ranks = defs->commSize(comm);
        if (const auto v = collectiveSample(op, ranks, isRoot, sent, received))
            collectives[name].add(*v);
        else if (ranks == 0 && collectiveSample(op, 1, isRoot, sent, received))
            ++unsizedCollectives; // a sample only the communicator's size is missing for
    }
    /// The top region's time from the previous event to `t`, spread over the bins it covers.
    void spend(std::uint64_t t)
    {
        if (binCount > 0 && previous != Undefined && !stack.empty() && t > previous && to != Undefined) {
            const std::uint64_t begin = clip(previous);
            const std::uint64_t end = clip(t);
            const double span = static_cast<double>(to - from) / static_cast<double>(binCount);
            for (std::uint64_t a = begin; a < end;) {
                const auto bin = std::min(binCount - 1, static_cast<std::size_t>(static_cast<double>(a - from) / span));
                const auto binEnd = std::max(a + 1,
                    std::min(end, from + static_cast<std::uint64_t>(std::ceil(static_cast<double>(bin + 1) * span))));
                binTime[bin][stack.back().region] += binEnd - a;
                a = binEnd;
            }
        }
        previous = t;
    }
    OTF2_CallbackCode step(std::uint64_t t)
    {
        last = std::max(last, t);
        if ((++steps & 0xffff) == 0 && cancelled->load(std::memory_order_relaxed))
            return OTF2_CALLBACK_INTERRUPT;
        return OTF2_CALLBACK_SUCCESS;
    }
};

Replay& replayOf(void* u) { return *static_cast<Replay*>(u); }

void registerEventCallbacks(OTF2_GlobalEvtReaderCallbacks* cb)
{
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(
        cb, [](OTF2_LocationRef, OTF2_TimeStamp t, void* u, OTF2_AttributeList*, OTF2_RegionRef region) {
            replayOf(u).spend(t);
            replayOf(u).enter(t, region);
            return replayOf(u).step(t);
        });
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(
        cb, [](OTF2_LocationRef, OTF2_TimeStamp t, void* u, OTF2_AttributeList*, OTF2_RegionRef region) {
            replayOf(u).spend(t);
            replayOf(u).leave(t, region);
            return replayOf(u).step(t);
        });
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb,
        [](OTF2_LocationRef, OTF2_TimeStamp t, void* u, OTF2_AttributeList*, uint32_t peer, OTF2_CommRef comm, uint32_t,
            uint64_t bytes) {
            replayOf(u).message(0, t, comm, peer, bytes);
            return replayOf(u).step(t);
        });
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(cb,
        [](OTF2_LocationRef, OTF2_TimeStamp t, void* u, OTF2_AttributeList*, uint32_t peer, OTF2_CommRef comm, uint32_t,
            uint64_t bytes, uint64_t) {
            replayOf(u).message(0, t, comm, peer, bytes);
            return replayOf(u).step(t);
        });
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb,
        [](OTF2_LocationRef, OTF2_TimeStamp t, void* u, OTF2_AttributeList*, uint32_t peer, OTF2_CommRef comm, uint32_t,
            uint64_t bytes) {
            replayOf(u).message(1, t, comm, peer, bytes);
            return replayOf(u).step(t);
        });
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(cb,
        [](OTF2_LocationRef, OTF2_TimeStamp t, void* u, OTF2_AttributeList*, uint32_t peer, OTF2_CommRef comm, uint32_t,
            uint64_t bytes, uint64_t) {
            replayOf(u).message(1, t, comm, peer, bytes);
            return replayOf(u).step(t);
        });
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb,
        [](OTF2_LocationRef, OTF2_TimeStamp t, void* u, OTF2_AttributeList*, OTF2_CollectiveOp op, OTF2_CommRef comm,
            uint32_t root, uint64_t sent, uint64_t received) {
            replayOf(u).collective(t, op, comm, root, sent, received);
            return replayOf(u).step(t);
        });
    OTF2_GlobalEvtReaderCallbacks_SetMetricCallback(cb,
        [](OTF2_LocationRef, OTF2_TimeStamp t, void* u, OTF2_AttributeList*, OTF2_MetricRef metric, uint8_t n,
            const OTF2_Type* types, const OTF2_MetricValue* values) {
            replayOf(u).sample(t, metric, n, types, values);
            return replayOf(u).step(t);
        });
    OTF2_GlobalEvtReaderCallbacks_SetUnknownCallback(
        cb, [](OTF2_LocationRef, OTF2_TimeStamp t, void* u, OTF2_AttributeList*) { return replayOf(u).step(t); });
}

/// Opens the anchor file; a ParseError naming it when OTF2 refuses.
struct OpenReader {
    OTF2_Reader* reader = nullptr;
    explicit OpenReader(const QString& anchor)
    {
        // The library prints its errors to stderr by default; the reader reports them itself.
        static const bool quiet = [] {
            OTF2_Error_RegisterCallback([](void*, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char*,
                                            va_list) { return code; },
                nullptr);
            return true;
        }();
        (void)quiet;
        if (!anchor.endsWith(QLatin1String(".otf2")))
            throw ParseError(QStringLiteral("expected an OTF2 anchor file (*.otf2)"), 0, -1, anchor);
        reader = OTF2_Reader_Open(QFile::encodeName(anchor).constData());
        if (!reader)
            throw ParseError(QStringLiteral("expected an OTF2 anchor file; OTF2 cannot open it"), 0, -1, anchor);
        // A constructor that throws runs no destructor: close here, or the archive leaks.
        const OTF2_ErrorCode setup = OTF2_Reader_SetSerialCollectiveCallbacks(reader);
        if (setup != OTF2_SUCCESS) {
            OTF2_Reader_Close(reader);
            reader = nullptr;
            check(setup, "setting up the reader", anchor);
        }
    }
    ~OpenReader()
    {
        if (reader)
            OTF2_Reader_Close(reader);
    }
    OpenReader(const OpenReader&) = delete;
    OpenReader& operator=(const OpenReader&) = delete;
    static void check(OTF2_ErrorCode code, const char* what, const QString& file)
    {
        if (code != OTF2_SUCCESS)
            throw ParseError(
                QStringLiteral("OTF2 error while %1: %2").arg(QLatin1String(what), otf2Error(code)), 0, -1, file);
    }
};

/// The record-level checks libotf2 lacks (docs/FORMATS.md, OTF2): it allocates what a Group record
/// claims (numberOfMembers, 32 bits: up to 32 GiB) or a local MappingTable claims (an ID map's size,
/// 64 bits) before it reads the members, so a hostile definition file would make it allocate without
/// bound. Walks a definition file's chunks and records the way the library does (a chunk: header
/// record 3, endianness byte, two 8-byte event numbers, records, then 0 = end of chunk and padding to
/// the chunk size, or 2 = end of file; a record: type byte, length byte or 0xff and an 8-byte length,
/// then the payload) and refuses, naming the file and the byte, a record that does not fit in its
/// chunk and a count larger than the bytes left in its record (every member takes at least one byte).
class DefinitionFileCheck {
public:
    DefinitionFileCheck(const QString& file, std::uint64_t chunkSize, bool local)
        : m_file(file)
        , m_chunkSize(std::max<std::uint64_t>(chunkSize, 1))
        , m_local(local)
    {
    }
    void run()
    {
        QFile f(m_file);
        if (!f.open(QIODevice::ReadOnly))
            return; // not there (or not a POSIX archive): the library reports it
        const uchar* map = f.map(0, f.size());
        const QByteArray all = map ? QByteArray() : f.readAll();
        m_data = map ? map : reinterpret_cast<const uchar*>(all.constData());
        m_size = static_cast<std::uint64_t>(map ? f.size() : all.size());
        walk();
    }

private:
    // Internal records; any other type (also a chunk header inside a chunk) is a record with a length,
    // which the library skips when it does not know it.
    enum : std::uint8_t { EndOfChunk = 0, EndOfFile = 2, ChunkHeader = 3 };
    enum : std::uint8_t { MappingTable = 5, String = 10, Group = 18 };

    static QString recordKind(std::uint8_t type)
    {
        if (type == String)
            return QStringLiteral("a string");
        if (type == Group)
            return QStringLiteral("a group");
        return QStringLiteral("a record of type %1").arg(type);
    }

    [[noreturn]] void fail(std::uint64_t at, const QString& what) const
    {
        throw ParseError(what, 0, static_cast<qint64>(at), m_file); // shown as "FILE (byte AT): WHAT"
    }
    /// An OTF2 compressed unsigned integer at p (a byte count n, then n bytes; 0xff: all ones);
    /// nullopt when it is malformed or passes `end` (the library then reports it).
    std::optional<std::uint64_t> compressed(std::uint64_t& p, std::uint64_t end, int maxBytes) const
    {
        if (p >= end)
            return std::nullopt;
        const int n = m_data[p++];
        if (n == 0xff)
            return maxBytes == 8 ? ~std::uint64_t(0) : (std::uint64_t(1) << (8 * maxBytes)) - 1;
        if (n > maxBytes || p + static_cast<std::uint64_t>(n) > end)
            return std::nullopt;
        std::uint64_t v = 0;
        for (int i = 0; i < n; ++i) {
            const std::uint64_t byte = m_data[p + static_cast<std::uint64_t>(m_littleEndian ? i : n - 1 - i)];
            v |= byte << (8 * i);
        }
        p += static_cast<std::uint64_t>(n);
        return v;
    }
    /// A count at p in the record [start, end) must fit into the bytes after it.
    void checkCount(std::uint64_t p, std::uint64_t start, std::uint64_t end, int maxBytes, const char* what) const
    {
        const std::uint64_t at = p;
        const auto count = compressed(p, end, maxBytes);
        if (count && *count > end - p)
            fail(at,
                QStringLiteral("%1 of %2 entries in a record of %3 bytes")
                    .arg(QLatin1String(what))
                    .arg(*count)
                    .arg(end - start));
    }
    void walk()
    {
        std::uint64_t chunk = 0;
        std::uint64_t p = 0;
        while (p < m_size) {
            const std::uint64_t at = p;
            const std::uint8_t type = m_data[p++];
            const std::uint64_t chunkEnd
                = std::min(m_size, chunk > ~std::uint64_t(0) - m_chunkSize ? m_size : chunk + m_chunkSize);
            if (type == EndOfFile)
                return;
            if (type == EndOfChunk) {
                chunk = chunkEnd;
                p = chunkEnd;
                continue;
            }
            if (type == ChunkHeader && at == chunk) {
                if (p < m_size)
                    m_littleEndian = m_data[p] == 0x42;
                p += 17;
                continue;
            }
            if (p >= chunkEnd)
                return; // the library reports a truncated record
            std::uint64_t length = m_data[p++];
            if (length == 0xff) {
                if (p + 8 > chunkEnd)
                    return;
                length = 0;
                for (int i = 0; i < 8; ++i)
                    length |= std::uint64_t(m_data[p + static_cast<std::uint64_t>(m_littleEndian ? i : 7 - i)])
                        << (8 * i);
                p += 8;
            }
            if (length > chunkEnd - p)
                fail(at,
                    QStringLiteral("%1 of %2 bytes in a file of %3 bytes")
                        .arg(recordKind(type))
                        .arg(length)
                        .arg(m_size));
            const std::uint64_t end = p + length;
            if (type == Group) {
                std::uint64_t q = p;
                // self, name (compressed 32-bit), the pre-1.2 group type (one byte), numberOfMembers
                if (compressed(q, end, 4) && compressed(q, end, 4) && q < end)
                    checkCount(q + 1, p, end, 4, "a group");
            } else if (type == MappingTable && m_local) {
                checkCount(p + 1, p, end, 8, "an ID map"); // after the mapping type byte
            }
            p = end;
        }
    }

    QString m_file;
    std::uint64_t m_chunkSize;
    bool m_local;
    const uchar* m_data = nullptr;
    std::uint64_t m_size = 0;
    bool m_littleEndian = true;
};

/// The definition file `file` checked (DefinitionFileCheck) before libotf2 reads it.
void checkDefinitionFile(const QString& file, OTF2_Reader* reader, bool local)
{
    uint64_t eventChunk = 0;
    uint64_t definitionChunk = 0;
    if (OTF2_Reader_GetChunkSize(reader, &eventChunk, &definitionChunk) == OTF2_SUCCESS)
        DefinitionFileCheck(file, definitionChunk, local).run();
}

/// Replays one location with a reader of its own; errors go to replay.error.
void replayLocation(const QString& anchor, std::uint64_t location, Replay& replay)
{
    try {
        OpenReader r(anchor);
        OpenReader::check(OTF2_Reader_SelectLocation(r.reader, location), "selecting a location", anchor);
        const QFileInfo info(anchor);
        checkDefinitionFile(
            info.dir().filePath(info.completeBaseName() + QStringLiteral("/%1.def").arg(location)), r.reader, true);
        const bool localDefs = OTF2_Reader_OpenDefFiles(r.reader) == OTF2_SUCCESS;
        OpenReader::check(OTF2_Reader_OpenEvtFiles(r.reader), "opening the event files", anchor);
        if (localDefs) {
            if (OTF2_DefReader* d = OTF2_Reader_GetDefReader(r.reader, location)) {
                uint64_t read = 0;
                OTF2_Reader_ReadAllLocalDefinitions(r.reader, d, &read);
                OTF2_Reader_CloseDefReader(r.reader, d);
            }
            OTF2_Reader_CloseDefFiles(r.reader);
        }
        OTF2_EvtReader* evt = OTF2_Reader_GetEvtReader(r.reader, location);
        if (!evt)
            throw ParseError(QStringLiteral("no event reader for location %1").arg(location), 0, -1, anchor);
        OTF2_GlobalEvtReader* global = OTF2_Reader_GetGlobalEvtReader(r.reader);
        OTF2_GlobalEvtReaderCallbacks* cb = OTF2_GlobalEvtReaderCallbacks_New();
        registerEventCallbacks(cb);
        OTF2_Reader_RegisterGlobalEvtCallbacks(r.reader, global, cb, &replay);
        OTF2_GlobalEvtReaderCallbacks_Delete(cb);
        uint64_t read = 0;
        const OTF2_ErrorCode code = OTF2_Reader_ReadAllGlobalEvents(r.reader, global, &read);
        replay.events = read;
        OTF2_Reader_CloseGlobalEvtReader(r.reader, global);
        OTF2_Reader_CloseEvtFiles(r.reader);
        if (code != OTF2_SUCCESS && code != OTF2_ERROR_INTERRUPTED_BY_CALLBACK)
            throw ParseError(
                QStringLiteral("OTF2 error reading the events of location %1: %2").arg(location).arg(otf2Error(code)),
                0, -1, anchor);
        // Regions still open at the end of the stream close at the last event.
        replay.spend(replay.last);
        while (!replay.stack.empty())
            replay.leave(replay.last, replay.stack.back().region);
    } catch (const ParseError& e) {
        replay.error = e;
    }
}

/// The global definitions of the trace behind `anchor` (after DefinitionFileCheck), its creator and
/// OTF2 version; throws ParseError.
void readGlobalDefinitions(
    const QString& anchor, Definitions& d, QString* creator, uint8_t* major, uint8_t* minor, uint8_t* bugfix)
{
    OpenReader r(anchor);
    checkDefinitionFile(anchor.chopped(5) + QStringLiteral(".def"), r.reader, false);
    OTF2_GlobalDefReader* g = OTF2_Reader_GetGlobalDefReader(r.reader);
    if (!g)
        throw ParseError(
            QStringLiteral("expected the global definitions (*.def next to the anchor file)"), 0, -1, anchor);
    OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
    registerDefinitionCallbacks(cb);
    OTF2_Reader_RegisterGlobalDefCallbacks(r.reader, g, cb, &d);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    uint64_t read = 0;
    OpenReader::check(
        OTF2_Reader_ReadAllGlobalDefinitions(r.reader, g, &read), "reading the global definitions", anchor);
    char* c = nullptr;
    if (OTF2_Reader_GetCreator(r.reader, &c) == OTF2_SUCCESS && c) {
        *creator = QString::fromUtf8(c);
        free(c); // NOLINT(cppcoreguidelines-no-malloc): OTF2 allocates it with malloc
    }
    OTF2_Reader_GetVersion(r.reader, major, minor, bugfix);
}

/// Replays every location of the trace (d.locations, sorted) on the worker threads, each with a
/// reader of its own, over the window [from, to) and, with `bins` > 0, into a time line of that many
/// bins; the profile and the time line share it. Errors stay in each Replay::error.
std::vector<Replay> replayAll(const QString& anchor, const Definitions& d, std::uint64_t from, std::uint64_t to,
    std::size_t bins, Progress& progress)
{
    progress.setStage(QStringLiteral("Replaying OTF2 events"), static_cast<qint64>(d.locations.size()));
    std::atomic<bool> cancelled { false };
    std::vector<Replay> replays(d.locations.size());
    std::vector<std::size_t> indices(d.locations.size());
    for (std::size_t i = 0; i < indices.size(); ++i) {
        indices[i] = i;
        Replay& r = replays[i];
        r.defs = &d;
        r.from = from;
        r.to = to;
        r.cancelled = &cancelled;
        r.counterCount = d.counters.size();
        r.counter.assign(d.counters.size(), 0.0);
        r.binCount = bins;
        r.binTime.resize(bins);
        r.worldRank = d.worldRankOf(d.locations[i].ref);
    }
    QtConcurrent::blockingMap(indices, [&](std::size_t i) { replayLocation(anchor, d.locations[i].ref, replays[i]); });
    for (Replay& r : replays)
        r.cancelled = nullptr; // the flag is this function's
    throwIfCancelled(progress);
    return replays;
}

/// "0.25" (seconds) or "123ticks" as ticks since the trace start.
std::uint64_t windowTicks(const QString& value, const Definitions& d, const QString& option)
{
    bool ok = false;
    if (value.endsWith(QLatin1String("ticks"))) {
        const qulonglong ticks = value.chopped(5).trimmed().toULongLong(&ok);
        if (ok)
            return ticks;
    } else {
        const double seconds = value.toDouble(&ok);
        if (ok && std::isfinite(seconds) && seconds >= 0)
            return static_cast<std::uint64_t>(std::llround(seconds * static_cast<double>(d.resolution)));
    }
    throw ParseError(
        QStringLiteral("format option %1: expected seconds since the trace start (e.g. 0.25) or ticks (e.g. "
                       "1000ticks), found %2")
            .arg(option, quoted(value)));
}

QString anchorOf(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isDir())
        return path;
    // Every reader is asked about every directory opened, a 131,072-file TAU directory too: the
    // entries' names are compared as they are read (no wildcard matching, no sorting of them all).
    QStringList anchors;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(path.toStdString(), error)) {
        const std::string name = entry.path().filename().string();
        if (name.size() > 5 && name.compare(name.size() - 5, 5, ".otf2") == 0 && entry.is_regular_file(error))
            anchors.append(QString::fromStdString(entry.path().string()));
    }
    if (anchors.isEmpty())
        return {};
    std::sort(anchors.begin(), anchors.end()); // by name, as before
    return anchors.first();
}

} // namespace

Otf2Reader::Otf2Reader()
    : Reader({ QStringLiteral("otf2"), QStringLiteral("OTF2 trace (Score-P), profiled by replay"),
        { QStringLiteral("*.otf2") } })
{
}

int Otf2Reader::sniff(const QString& path) const
{
    const QString anchor = anchorOf(path);
    if (anchor.isEmpty() || !anchor.endsWith(QLatin1String(".otf2")))
        return 0;
    const auto head = fileHead(anchor, 6);
    return head && head->size() == 6 && head->mid(1, 5) == QByteArrayLiteral("BOTF2") ? 100 : 0;
}

TrialResult Otf2Reader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    const QString anchor = anchorOf(path);
    const ReadJob job(anchor.isEmpty() ? path : anchor, {}, QStringLiteral("out of memory"), options.formatOptions);
    if (anchor.isEmpty())
        return ReadError { path, 0, -1, QStringLiteral("expected an OTF2 anchor file (*.otf2) in the directory") };
    TrialBuilder builder(QFileInfo(anchor).completeBaseName());
    QStringList warnings;
    return guardedRead(*this, job, builder, warnings, [&] {
        Definitions d;
        QString creator;
        uint8_t major = 0, minor = 0, bugfix = 0;
        readGlobalDefinitions(anchor, d, &creator, &major, &minor, &bugfix);
        if (!d.haveClock)
            warnings << QStringLiteral("no clock properties: timestamps are taken as microseconds");
        chooseCounters(d);
        std::uint64_t from = d.offset;
        std::uint64_t to = Undefined;
        for (const QString& o : options.formatOptions) {
            const qsizetype eq = o.indexOf(QLatin1Char('='));
            const QString key = o.left(eq);
            if (eq > 0 && key == QLatin1String("from"))
                from = d.offset + windowTicks(o.mid(eq + 1), d, o);
            else if (eq > 0 && key == QLatin1String("to"))
                to = d.offset + windowTicks(o.mid(eq + 1), d, o);
            else
                warnings
                    << QStringLiteral("unknown format option %1 (the otf2 reader knows from= and to=)").arg(quoted(o));
        }
        if (to != Undefined && to < from)
            throw ParseError(QStringLiteral("the window ends before it starts (to < from)"));

        // Threads: node = position of the location group, thread = index within it.
        std::map<std::uint64_t, int> groupIndex;
        for (const auto& [ref, g] : d.locationGroups)
            groupIndex.emplace(ref, static_cast<int>(groupIndex.size()));
        std::sort(d.locations.begin(), d.locations.end(),
            [](const LocationDef& a, const LocationDef& b) { return a.ref < b.ref; });
        std::map<std::uint64_t, int> undefinedGroups;
        for (const LocationDef& l : d.locations)
            if (!groupIndex.contains(l.group)) {
                undefinedGroups.try_emplace(l.group, 0);
                groupIndex.emplace(l.group, static_cast<int>(groupIndex.size()));
            }
        if (!undefinedGroups.empty())
            warnings << QStringLiteral("%1 location group(s) referred to by locations are not defined; each is "
                                       "taken as a rank of its own")
                            .arg(undefinedGroups.size());

        std::vector<Replay> replays = replayAll(anchor, d, from, to, 0, progress);

        const MetricId time = builder.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
        (void)time;
        for (const std::string& c : d.counters)
            builder.addMetric(Metric(QString::fromStdString(c), QStringLiteral("count")));
        const std::size_t counters = d.counters.size();
        const double toMicro = 1e6 / static_cast<double>(d.resolution);
        auto regionName = [&](std::uint64_t region) {
            const auto it = d.regions.find(region);
            const QString name = it == d.regions.end() ? QString() : d.string(it->second.name);
            return name.isEmpty() ? QStringLiteral("region %1").arg(region) : name;
        };
        auto regionGroup = [&](std::uint64_t region) {
            const auto it = d.regions.find(region);
            return it != d.regions.end() && it->second.paradigm == OTF2_PARADIGM_MPI ? QStringLiteral("MPI")
                                                                                     : QStringLiteral("TAU_DEFAULT");
        };
        // A message's peer is a world rank; the events name the node of the location at that rank
        // (the communication matrix's axes are the threads' nodes), or the rank when it has none.
        auto peerNode = [&](std::uint64_t worldRank) -> std::uint64_t {
            if (worldRank >= d.mpiLocations.size())
                return worldRank;
            const std::uint64_t location = d.mpiLocations[worldRank];
            const auto l = std::lower_bound(d.locations.begin(), d.locations.end(), location,
                [](const LocationDef& a, std::uint64_t ref) { return a.ref < ref; });
            if (l == d.locations.end() || l->ref != location)
                return worldRank;
            return static_cast<std::uint64_t>(groupIndex[l->group]);
        };
        std::map<std::uint64_t, int> perGroup;
        qint64 mismatched = 0;
        std::uint64_t unsizedCollectives = 0;
        std::uint64_t metricRecords = 0;
        std::uint64_t events = 0;
        for (std::size_t i = 0; i < d.locations.size(); ++i) {
            const LocationDef& l = d.locations[i];
            Replay& r = replays[i];
            if (r.error)
                throw *r.error;
            mismatched += r.mismatched;
            metricRecords += r.metricRecords;
            events += r.events;
            const ThreadIndex t = builder.addThread(ThreadKey { groupIndex[l.group], 0, perGroup[l.group]++ });
            builder.addThreadMetadata(t, QStringLiteral("OTF2 location"), d.string(l.name));
            builder.addThreadMetadata(t, QStringLiteral("OTF2 location id"), QString::number(l.ref), true);
            std::vector<double> excl(1 + counters);
            std::vector<double> incl(1 + counters);
            auto add = [&](EventId e, const Acc& a) {
                excl[0] = static_cast<double>(a.excl) * toMicro;
                incl[0] = static_cast<double>(a.incl) * toMicro;
                for (std::size_t c = 0; c < counters; ++c) {
                    excl[1 + c] = c < a.counterExcl.size() ? a.counterExcl[c] : 0.0;
                    incl[1 + c] = c < a.counterIncl.size() ? a.counterIncl[c] : 0.0;
                }
                builder.addInterval(t, e, a.calls, a.subrs, excl, incl);
            };
            for (const auto& [region, a] : r.flat)
                if (a.calls > 0 || a.incl > 0)
                    add(builder.addEvent(regionName(region), { regionGroup(region) }), a);
            std::vector<QString> paths(r.nodes.size());
            for (std::size_t n = 1; n < r.nodes.size(); ++n) {
                const PathNode& node = r.nodes[n];
                paths[n] = node.parent == 0 ? regionName(node.region)
                                            : paths[node.parent] + QStringLiteral(" => ") + regionName(node.region);
                if (node.parent != 0 && (node.acc.calls > 0 || node.acc.incl > 0))
                    add(builder.addEvent(paths[n], { QStringLiteral("TAU_CALLPATH") }), node.acc);
            }
            for (const auto& [key, m] : r.messages) {
                const QString name = key.first == 0
                    ? QStringLiteral("Message size sent to node %1").arg(peerNode(key.second))
                    : QStringLiteral("Message size received from node %1").arg(peerNode(key.second));
                builder.addAtomic(
                    t, builder.addAtomicEvent(name), m.count, m.max, m.min, m.sum / m.count, m.sumSquares);
            }
            for (const auto& [name, m] : r.collectives)
                builder.addAtomic(t, builder.addAtomicEvent(QString::fromStdString(name)), m.count, m.max, m.min,
                    m.sum / m.count, m.sumSquares);
            unsizedCollectives += r.unsizedCollectives;
            progress.advance();
        }
        if (mismatched > 0)
            warnings << QStringLiteral("%1 Leave event(s) did not match the innermost open region").arg(mismatched);
        if (unsizedCollectives > 0)
            warnings << QStringLiteral("%1 MPI collective(s) on communicators without a defined group: their "
                                       "message sizes need the communicator's size and are not recorded")
                            .arg(unsizedCollectives);
        if (metricRecords > 0)
            warnings << QStringLiteral("%1 metric record(s) of %2 are not read: only strictly synchronous "
                                       "counters accumulated from the start become metrics")
                            .arg(metricRecords)
                            .arg(QString::fromStdString([&] {
                                std::string s;
                                for (const std::string& m : d.metricMembers)
                                    if (std::find(d.counters.begin(), d.counters.end(), m) == d.counters.end())
                                        s += (s.empty() ? "" : ", ") + m;
                                return s.empty() ? std::string("the read metrics' classes") : s;
                            }()));
        builder.addMetadata(QStringLiteral("OTF2 creator"), creator);
        builder.addMetadata(
            QStringLiteral("OTF2 version"), QStringLiteral("%1.%2.%3").arg(major).arg(minor).arg(bugfix));
        builder.addMetadata(QStringLiteral("OTF2 timer resolution (ticks/s)"), QString::number(d.resolution));
        builder.addMetadata(QStringLiteral("OTF2 global offset (ticks)"), QString::number(d.offset));
        builder.addMetadata(QStringLiteral("OTF2 trace length (ticks)"), QString::number(d.length));
        builder.addMetadata(QStringLiteral("OTF2 events"), QString::number(events));
        builder.addMetadata(QStringLiteral("OTF2 window (ticks since start)"),
            QStringLiteral("%1-%2")
                .arg(from - d.offset)
                .arg(to == Undefined ? QStringLiteral("end") : QString::number(to - d.offset)));
        for (const auto& [ref, n] : d.systemTree)
            builder.addMetadata(QStringLiteral("OTF2 system tree %1").arg(d.string(n.className)), d.string(n.name));
    });
}

Result<Otf2Timeline> readOtf2Timeline(const QString& path, std::size_t bins, Progress& progress)
{
    const QString anchor = anchorOf(path);
    if (anchor.isEmpty())
        return ReadError { path, 0, -1, QStringLiteral("expected an OTF2 anchor file (*.otf2) in the directory") };
    if (bins == 0 || bins > 100000)
        return ReadError { path, 0, -1, QStringLiteral("a time line needs 1 to 100,000 bins, not %1").arg(bins) };
    try {
        Definitions d;
        QString creator;
        uint8_t major = 0, minor = 0, bugfix = 0;
        readGlobalDefinitions(anchor, d, &creator, &major, &minor, &bugfix);
        if (!d.haveClock || d.length == 0)
            throw ParseError(
                QStringLiteral("the trace gives no clock properties (its length): no time line"), 0, -1, anchor);
        chooseCounters(d);
        std::sort(d.locations.begin(), d.locations.end(),
            [](const LocationDef& a, const LocationDef& b) { return a.ref < b.ref; });
        std::vector<Replay> replays = replayAll(anchor, d, d.offset, d.offset + d.length, bins, progress);

        Otf2Timeline line;
        line.anchor = anchor;
        line.bins = bins;
        line.seconds = static_cast<double>(d.length) / static_cast<double>(d.resolution);
        std::map<std::uint64_t, int> regionIndex;
        auto regionOf = [&](std::uint64_t region) {
            const auto [it, added] = regionIndex.try_emplace(region, static_cast<int>(line.regions.size()));
            if (added) {
                const auto def = d.regions.find(region);
                const QString name = def == d.regions.end() ? QString() : d.string(def->second.name);
                line.regions.push_back(name.isEmpty() ? QStringLiteral("region %1").arg(region) : name);
            }
            return it->second;
        };
        line.dominant.assign(d.locations.size() * bins, -1);
        line.exclusiveSeconds.resize(d.locations.size());
        for (std::size_t i = 0; i < d.locations.size(); ++i) {
            Replay& r = replays[i];
            if (r.error)
                throw *r.error;
            line.locations.push_back(d.string(d.locations[i].name));
            for (std::size_t b = 0; b < bins; ++b) {
                std::uint64_t best = 0;
                for (const auto& [region, ticks] : r.binTime[b]) {
                    const int index = regionOf(region);
                    line.exclusiveSeconds[i][index] += static_cast<double>(ticks) / static_cast<double>(d.resolution);
                    if (ticks > best || (ticks == best && index < line.dominant[i * bins + b])) {
                        best = ticks;
                        line.dominant[i * bins + b] = index;
                    }
                }
            }
            progress.advance();
        }
        return line;
    } catch (const ParseError& e) {
        return ReadError { e.file.isEmpty() ? anchor : e.file, e.line, e.offset, e.message };
    }
}

} // namespace parallax
