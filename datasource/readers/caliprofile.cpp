// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Caliper profiles to the model (docs/FORMATS.md 6.3), shared by the .cali and json-split readers.
//
// What the model gets
// -------------------
// * Regions. The region tree (context-tree nodes of nested attributes in .cali; the hierarchy
//   column's nodes in json-split) becomes call-path events "main => lulesh.cycle => ...", as TAU
//   names them (group TAU_CALLPATH plus the region attribute, e.g. "function", "loop",
//   "mpi.function"); a root region is a flat event of one component. Every region name is also a
//   flat event holding docs/SEMANTICS.md 1.4's flat values: exclusive values summed over all regions of
//   that name, inclusive values summed over the outermost ones only. Region names are normalised
//   like event names (white space collapsed; "=>" inside a name becomes "= >", as the CUBE reader
//   does) and an empty name becomes "(unnamed)"; two sibling regions with the same name are one
//   region (their values are summed, with a warning).
// * Unattributed time. A record without a region (Caliper's time outside every annotation,
//   `path=null` in json-split) is the flat event "(unattributed)", never dropped.
// * Order. `Node order` (min#min#aggregate.slot, or any *aggregate.slot) orders the events (the
//   smallest value over the records of a region) and is not a metric. Without it, events come in
//   tree (file) order and "(unattributed)" last.
// * Threads. mpi.rank r becomes thread (r, 0, 0); a profile without mpi.rank is one thread (0,0,0).
//   Records without mpi.rank in a profile that has it are counted on rank 0, with a warning.
// * Metrics. Time is the metric "time": `sum#time.duration` (alias "time") is its exclusive value,
//   `inclusive#sum#time.duration` (alias "time (inc)") its inclusive one. When only one of the two
//   is given, the other follows from the tree: incl = excl + sum of the children's incl, or
//   excl = incl - sum of the children's incl. The unit comes from attribute.unit ("sec" -> "sec",
//   "usec" -> "us"); without one, integer-typed time (old Caliper, json-split with whole values
//   only) is "us" and floating-point time "sec". Values stay in that unit.
// * Cross-rank region profiles (spot / Thicket: min/max/avg/sum#inclusive#sum#time.duration, alias
//   Min/Max/Avg time/rank and Total time) have no per-rank rows: the file is one aggregate thread
//   (0,0,0) whose "time" inclusive value is "Total time" (the sum over ranks); min, max and avg per
//   rank are kept as the source's statistics (Trial::providedStatistics: derived ids -4 min, -5 max,
//   -1 mean over the ranks that ran the region, -2 total), inclusive values of "time" on the
//   call-path events (a root's is its flat event) and on the flat event of a name that only one
//   region has; the other cells (exclusive, other metrics, calls) are NaN because the source gives
//   none. The same op#sum#time.duration columns fill the exclusive side. A root region whose name
//   also occurs deeper keeps its own statistics while its thread cells hold the flat totals (warned).
// * "Caliper regions" and "Caliper records" (metadata) count the regions and the ctx records / data
//   rows read.
// * Other numeric attributes / value columns are metrics named by their alias (else their name),
//   unit from attribute.unit ("count" for count). Names starting with min#, max#, avg# or any#
//   (RAJAPerf's BlockSize, Bytes/Rep, Flops/Rep, Iterations/Rep, Kernels/Rep, ProblemSize, Reps;
//   Caliper's per-record min/max/avg#time.duration) are not additive: excl = incl = the stored
//   value; flat events take the minimum (min#) or the maximum (others) over their regions. They are
//   listed in the metadata "Caliper non-additive metrics". Other metrics are additive, with the
//   inclusive value computed along the tree unless an "inclusive#<name>" column gives it.
// * Hidden attributes (Caliper internals such as avg.sum# / avg.count#) are not loaded; their names
//   are listed in "Caliper hidden attributes".
// * Calls and subrs: Caliper region profiles record no call counts, so both are 0.
// * Presence. A region is present on a thread when a record names it or one of its descendants
//   (an ancestor without a record gets exclusive 0 and the children's inclusive sum).
// * Globals become trial metadata as written, plus "Caliper format", "Caliper profile" and the lists
//   above.

#include "datasource/readers/caliprofile.h"

#include <QHash>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace parallax {

namespace {

/// Call-path names may hold this many characters in all (a corrupt, very deep tree is refused).
constexpr qint64 MaxPathCharacters = qint64(1) << 27;

const QString Unattributed = QStringLiteral("(unattributed)");

enum class Role { Skip, Order, Metric, Stat };
enum class Combine { Sum, Min, Max };

/// Statistic rows a region profile may provide, in ProvidedStatistic order.
enum Stat { StatMin = 0, StatMax = 1, StatAvg = 2, StatTotal = 3, StatCount = 4 };
constexpr int StatDerivedId[StatCount] = { -4, -5, -1, -2 };

struct ColumnRole {
    Role role = Role::Skip;
    int metric = -1;
    bool inclusive = false;
    int stat = -1;
};

struct MetricInfo {
    QString name;
    QString unit;
    Combine combine = Combine::Sum;
    bool additive = true;
    bool exclClaimed = false;
    bool inclClaimed = false;
};

bool isTimeExclusive(const QString& n)
{
    return n == QLatin1String("sum#time.duration") || n == QLatin1String("time.duration") || n == QLatin1String("time");
}

bool isTimeInclusive(const QString& n)
{
    return n == QLatin1String("inclusive#sum#time.duration") || n == QLatin1String("inclusive#time.duration")
        || n == QLatin1String("time (inc)");
}

/// min/max/avg/sum over ranks of the per-rank exclusive or inclusive time, by name or (json-split,
/// where the column is named by its alias) by Caliper's spot aliases, which are inclusive.
bool timeAggregate(const QString& name, int& stat, bool& inclusive)
{
    static const char* const ops[] = { "min#", "max#", "avg#", "sum#" };
    for (int s = 0; s < 4; ++s) {
        if (!name.startsWith(QLatin1String(ops[s])))
            continue;
        const QString rest = name.mid(4);
        if (rest == QLatin1String("sum#time.duration") || rest == QLatin1String("inclusive#sum#time.duration")) {
            stat = s;
            inclusive = rest.startsWith(QLatin1String("inclusive#"));
            return true;
        }
    }
    static const char* const aliases[] = { "Min time/rank", "Max time/rank", "Avg time/rank", "Total time" };
    for (int s = 0; s < 4; ++s) {
        if (name == QLatin1String(aliases[s])) {
            stat = s;
            inclusive = true;
            return true;
        }
    }
    return false;
}

bool isOrder(const CaliProfile::Column& c)
{
    return c.name.endsWith(QLatin1String("aggregate.slot")) || c.name == QLatin1String("Node order")
        || c.alias == QLatin1String("Node order");
}

QString modelUnit(const QString& unit)
{
    QString u = unit.trimmed();
    if (u == QLatin1String("sec") || u == QLatin1String("s") || u == QLatin1String("seconds"))
        return QStringLiteral("sec");
    if (u == QLatin1String("usec") || u == QLatin1String("us") || u == QStringLiteral("µs"))
        return QStringLiteral("us");
    return u;
}

/// A region name as an event-name component (names::canonical would otherwise split or merge it).
QString componentName(const QString& raw)
{
    QString name = raw.simplified();
    name.replace(QLatin1String("=>"), QLatin1String("= >"));
    return name.isEmpty() ? QStringLiteral("(unnamed)") : name;
}

class Assembler {
public:
    Assembler(CaliProfile& profile, TrialBuilder& builder, QStringList& warnings, Progress& progress)
        : m_p(profile)
        , m_builder(builder)
        , m_warnings(warnings)
        , m_progress(progress)
    {
    }

    void run()
    {
        classifyColumns();
        canonicaliseRegions();
        scanRecords();
        addThreads();
        addEvents();
        computeOutermost();
        buildRows();
        addStatistics();
        addMetadata();
    }

private:
    void checkCancel() const
    {
        if (m_progress.isCancelled())
            throw Cancelled {};
    }

    int newMetric(const QString& wanted, const QString& unit, bool additive, Combine combine)
    {
        QString name = wanted.isEmpty() ? QStringLiteral("(unnamed)") : wanted;
        auto taken = [&](const QString& n) {
            return std::any_of(m_metrics.begin(), m_metrics.end(), [&](const MetricInfo& m) { return m.name == n; });
        };
        for (int k = 2; taken(name); ++k)
            name = wanted + QStringLiteral(" (%1)").arg(k);
        MetricInfo m;
        m.name = name;
        m.unit = unit;
        m.additive = additive;
        m.combine = combine;
        m_metrics.push_back(m);
        return static_cast<int>(m_metrics.size() - 1);
    }

    void classifyColumns()
    {
        const auto& cols = m_p.columns;
        m_roles.assign(cols.size(), {});
        int time = -1;
        auto timeMetric = [&]() {
            if (time < 0) {
                time = newMetric(QStringLiteral("time"), QString(), true, Combine::Sum);
                m_timeMetric = time;
            }
            return time;
        };
        std::vector<std::size_t> timeColumns;
        // Pass 1: order, hidden, time and its cross-rank statistics.
        for (std::size_t c = 0; c < cols.size(); ++c) {
            const auto& col = cols[c];
            ColumnRole& role = m_roles[c];
            if (isOrder(col)) {
                role.role = Role::Order;
                continue;
            }
            if (col.hidden) {
                m_hidden << col.name;
                role.role = Role::Skip;
                continue;
            }
            int stat = -1;
            bool inclusive = false;
            if (isTimeExclusive(col.name) || isTimeInclusive(col.name)) {
                inclusive = isTimeInclusive(col.name);
                MetricInfo& m = m_metrics[static_cast<std::size_t>(timeMetric())];
                bool& claimed = inclusive ? m.inclClaimed : m.exclClaimed;
                if (claimed)
                    continue; // becomes a metric of its own in pass 2
                claimed = true;
                role = { Role::Metric, time, inclusive, -1 };
                timeColumns.push_back(c);
            } else if (timeAggregate(col.name, stat, inclusive)) {
                timeMetric();
                role = { Role::Stat, time, inclusive, stat };
                m_statNames[stat]
                    = m_statNames[stat].isEmpty() ? (col.alias.isEmpty() ? col.name : col.alias) : m_statNames[stat];
                m_hasStat[stat] = true;
                m_aggregate = true;
                timeColumns.push_back(c);
            }
        }
        // The sums over ranks are the aggregate thread's values when no per-rank time is given.
        if (time >= 0) {
            MetricInfo& m = m_metrics[static_cast<std::size_t>(time)];
            for (std::size_t c = 0; c < cols.size(); ++c) {
                ColumnRole& role = m_roles[c];
                if (role.role != Role::Stat || role.stat != StatTotal)
                    continue;
                bool& claimed = role.inclusive ? m.inclClaimed : m.exclClaimed;
                if (!claimed) {
                    claimed = true;
                    m_totalFillsThread[c] = true;
                }
            }
            QString unit;
            bool integral = true;
            for (std::size_t c : timeColumns) {
                if (unit.isEmpty())
                    unit = modelUnit(cols[c].unit);
                integral = integral && cols[c].integral;
            }
            m.unit = !unit.isEmpty() ? unit : integral ? QStringLiteral("us") : QStringLiteral("sec");
        }
        // Pass 2: every other value column is a metric; "inclusive#X" pairs with X.
        QHash<QString, int> byBase;
        for (std::size_t c = 0; c < cols.size(); ++c) {
            const auto& col = cols[c];
            ColumnRole& role = m_roles[c];
            if (role.role != Role::Skip || col.hidden)
                continue;
            const bool inclusive = col.name.startsWith(QLatin1String("inclusive#"));
            const QString base = inclusive ? col.name.mid(10) : col.name;
            int metric = byBase.value(base, -1);
            if (metric >= 0) {
                MetricInfo& m = m_metrics[static_cast<std::size_t>(metric)];
                bool& claimed = inclusive ? m.inclClaimed : m.exclClaimed;
                if (!claimed && m.additive) {
                    claimed = true;
                    role = { Role::Metric, metric, inclusive, -1 };
                    continue;
                }
            }
            const bool additive = !(base.startsWith(QLatin1String("min#")) || base.startsWith(QLatin1String("max#"))
                || base.startsWith(QLatin1String("avg#")) || base.startsWith(QLatin1String("any#")));
            const Combine combine = additive             ? Combine::Sum
                : base.startsWith(QLatin1String("min#")) ? Combine::Min
                                                         : Combine::Max;
            QString unit = modelUnit(col.unit);
            if (unit.isEmpty() && base == QLatin1String("count"))
                unit = QStringLiteral("count");
            metric = newMetric(col.alias.isEmpty() ? base : col.alias, unit, additive, combine);
            MetricInfo& m = m_metrics[static_cast<std::size_t>(metric)];
            (inclusive ? m.inclClaimed : m.exclClaimed) = true;
            if (!byBase.contains(base))
                byBase.insert(base, metric);
            role = { Role::Metric, metric, inclusive && additive, -1 };
            if (!additive)
                m_nonAdditive << m.name;
        }
        for (const MetricInfo& m : m_metrics)
            m_builder.addMetric(Metric(m.name, m.unit));
        m_M = m_metrics.size();
    }

    /// Sibling regions with the same (normalised) name are one region.
    void canonicaliseRegions()
    {
        const std::size_t R = m_p.regions.size();
        m_canon.assign(R, -1);
        m_parent.assign(R, -1);
        m_leaf.assign(R, QString());
        QHash<QPair<int, QString>, int> index;
        std::size_t merged = 0;
        for (std::size_t r = 0; r < R; ++r) {
            auto& region = m_p.regions[r];
            if (region.parent >= static_cast<int>(r) || region.parent < -1)
                throw ParseError::atLine(0,
                    QStringLiteral("region %1 ('%2') has the parent %3, which is not an earlier region")
                        .arg(r)
                        .arg(region.name)
                        .arg(region.parent));
            const int parent = region.parent < 0 ? -1 : m_canon[static_cast<std::size_t>(region.parent)];
            const QString leaf = componentName(region.name);
            const auto key = qMakePair(parent, leaf);
            const auto it = index.constFind(key);
            if (it != index.cend()) {
                m_canon[r] = it.value();
                auto& groups = m_p.regions[static_cast<std::size_t>(it.value())].groups;
                for (const QString& g : region.groups)
                    if (!groups.contains(g))
                        groups << g;
                ++merged;
                continue;
            }
            m_canon[r] = static_cast<int>(r);
            m_parent[r] = parent;
            m_leaf[r] = leaf;
            index.insert(key, static_cast<int>(r));
        }
        if (merged > 0)
            m_warnings
                << QStringLiteral("%1 region(s) have the same name as a sibling; each was merged with it").arg(merged);
        m_R = R;
    }

    /// Ranks, order and the provided statistics (per region, not per thread).
    void scanRecords()
    {
        const std::size_t slotCount = m_R + 1; // + unattributed
        m_order.assign(slotCount, std::numeric_limits<double>::quiet_NaN());
        for (int s = 0; s < StatCount; ++s)
            if (m_hasStat[s]) {
                m_statIncl[s].assign(slotCount, std::numeric_limits<double>::quiet_NaN());
                m_statExcl[s].assign(slotCount, std::numeric_limits<double>::quiet_NaN());
            }
        std::size_t repeatedStats = 0;
        for (auto& rec : m_p.records) {
            if (rec.region >= static_cast<int>(m_R) || rec.region < -1)
                throw ParseError::atLine(
                    rec.line, QStringLiteral("record names region %1, which does not exist").arg(rec.region));
            if (std::size_t(rec.first) + rec.count > m_p.values.size())
                throw ParseError::atLine(rec.line, QStringLiteral("record values out of range"));
            const std::size_t slot
                = rec.region < 0 ? m_R : static_cast<std::size_t>(m_canon[static_cast<std::size_t>(rec.region)]);
            if (rec.rank >= 0)
                m_hasRank = true;
            for (std::uint32_t k = 0; k < rec.count; ++k) {
                const std::uint32_t c = m_p.valueColumns[rec.first + k];
                if (c >= m_roles.size())
                    throw ParseError::atLine(rec.line, QStringLiteral("record value of unknown column %1").arg(c));
                const double v = m_p.values[rec.first + k];
                const ColumnRole& role = m_roles[c];
                if (role.role == Role::Order) {
                    if (!(m_order[slot] <= v))
                        m_order[slot] = v;
                } else if (role.role == Role::Stat) {
                    double& dst = (role.inclusive ? m_statIncl : m_statExcl)[role.stat][slot];
                    if (!std::isnan(dst) && dst != v)
                        ++repeatedStats;
                    dst = v;
                }
            }
        }
        if (repeatedStats > 0)
            m_warnings << QStringLiteral("%1 cross-rank statistic value(s) are given twice for one region with "
                                         "different values; the last one is kept")
                              .arg(repeatedStats);
    }

    void addThreads()
    {
        std::vector<qint64> ranks;
        std::size_t rankless = 0;
        for (const auto& rec : m_p.records) {
            if (rec.rank >= 0)
                ranks.push_back(rec.rank);
            else
                ++rankless;
        }
        std::sort(ranks.begin(), ranks.end());
        ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
        if (ranks.empty() || (rankless > 0 && ranks.front() != 0))
            ranks.insert(ranks.begin(), 0);
        if (m_hasRank && rankless > 0)
            m_warnings << QStringLiteral(
                "%1 record(s) have no mpi.rank while others have one; they are counted on rank 0")
                              .arg(rankless);
        for (qint64 r : ranks) {
            if (r > std::numeric_limits<int>::max())
                throw ParseError::atLine(0, QStringLiteral("mpi.rank %1 is out of range").arg(r));
            m_builder.addThread(ThreadKey { static_cast<int>(r), 0, 0 });
        }
        m_ranks = std::move(ranks);
        m_threadOfRecord.resize(m_p.records.size());
        for (std::size_t i = 0; i < m_p.records.size(); ++i) {
            const qint64 rank = std::max<qint64>(0, m_p.records[i].rank);
            m_threadOfRecord[i]
                = static_cast<std::uint32_t>(std::lower_bound(m_ranks.begin(), m_ranks.end(), rank) - m_ranks.begin());
        }
    }

    /// A leaf name's source location is its regions' when they all have the same one (a function
    /// sampled at different lines in different call paths has none); its flat event and every call
    /// path ending in it get it, so that the location is one per leaf name as in TAUdb's timer rows
    /// (docs/SEMANTICS.md §12).
    void locate(EventId flat, const SourceLocation& location)
    {
        const auto [it, added] = m_locations.try_emplace(flat.index(), location);
        if (!added && it->second != location)
            it->second = SourceLocation();
    }

    void addEvents()
    {
        std::vector<bool> used(m_R + 1, false);
        for (const auto& rec : m_p.records)
            used[rec.region < 0 ? m_R : static_cast<std::size_t>(m_canon[static_cast<std::size_t>(rec.region)])] = true;
        // Canonical regions in event order: by Node order, then tree (file) order.
        std::vector<std::size_t> order;
        for (std::size_t r = 0; r < m_R; ++r)
            if (m_canon[r] == static_cast<int>(r))
                order.push_back(r);
        if (used[m_R])
            order.push_back(m_R);
        const double inf = std::numeric_limits<double>::infinity();
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            const double oa = std::isnan(m_order[a]) ? inf : m_order[a];
            const double ob = std::isnan(m_order[b]) ? inf : m_order[b];
            return oa < ob;
        });
        // Paths, parents first (a parent's index is smaller), freed once the children are done.
        std::vector<QString> paths(m_R);
        std::vector<int> pendingChildren(m_R, 0);
        for (std::size_t r = 0; r < m_R; ++r)
            if (m_canon[r] == static_cast<int>(r) && m_parent[r] >= 0)
                ++pendingChildren[static_cast<std::size_t>(m_parent[r])];
        qint64 pathChars = 0;
        for (std::size_t r = 0; r < m_R; ++r) {
            if (m_canon[r] != static_cast<int>(r))
                continue;
            const int p = m_parent[r];
            if (p < 0) {
                paths[r] = m_leaf[r];
            } else {
                paths[r] = paths[static_cast<std::size_t>(p)] + QStringLiteral(" => ") + m_leaf[r];
                pathChars += paths[r].size();
                if (pathChars > MaxPathCharacters)
                    throw ParseError::atLine(0,
                        QStringLiteral("the call-path names need more than %1 characters (region tree too deep "
                                       "for the model)")
                            .arg(MaxPathCharacters));
            }
        }
        m_flatEvent.assign(m_R + 1, EventId());
        m_pathEvent.assign(m_R + 1, EventId());
        for (std::size_t k = 0; k < order.size(); ++k) {
            if ((k & 1023) == 0)
                checkCancel();
            const std::size_t r = order[k];
            if (r == m_R) {
                m_flatEvent[r] = m_pathEvent[r] = m_builder.addEvent(Unattributed);
                continue;
            }
            const QStringList& groups = m_p.regions[r].groups;
            m_flatEvent[r] = m_builder.addEvent(m_leaf[r], groups);
            if (m_parent[r] < 0)
                m_pathEvent[r] = m_flatEvent[r];
            else
                m_pathEvent[r] = m_builder.addEvent(paths[r], QStringList { QStringLiteral("TAU_CALLPATH") } + groups);
            locate(m_flatEvent[r], m_p.regions[r].location);
        }
        for (std::size_t r = 0; r < m_R; ++r) {
            if (!m_flatEvent[r].isValid())
                continue;
            const auto it = m_locations.find(m_flatEvent[r].index());
            if (it != m_locations.end() && !it->second.file.isEmpty()) {
                m_builder.setSourceLocation(m_flatEvent[r], it->second);
                m_builder.setSourceLocation(m_pathEvent[r], it->second);
            }
        }
        std::uint32_t maxEvent = 0;
        for (std::size_t r = 0; r <= m_R; ++r) {
            if (m_flatEvent[r].isValid())
                maxEvent = std::max({ maxEvent, m_flatEvent[r].index() + 1, m_pathEvent[r].index() + 1 });
        }
        m_eventCount = maxEvent;
    }

    /// A region is outermost when no ancestor has its name (docs/SEMANTICS.md 1.4's recursion rule).
    void computeOutermost()
    {
        m_outermost.assign(m_R + 1, true);
        // Children lists (CSR) of canonical regions, then an iterative depth-first walk.
        std::vector<std::uint32_t> start(m_R + 2, 0);
        for (std::size_t r = 0; r < m_R; ++r)
            if (m_canon[r] == static_cast<int>(r) && m_parent[r] >= 0)
                ++start[static_cast<std::size_t>(m_parent[r]) + 1];
        std::partial_sum(start.begin(), start.end(), start.begin());
        std::vector<std::uint32_t> children(start.back());
        std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
        for (std::size_t r = 0; r < m_R; ++r)
            if (m_canon[r] == static_cast<int>(r) && m_parent[r] >= 0)
                children[fill[static_cast<std::size_t>(m_parent[r])]++] = static_cast<std::uint32_t>(r);
        m_regionsOfFlat.assign(m_eventCount, 0);
        for (std::size_t r = 0; r < m_R; ++r)
            if (m_canon[r] == static_cast<int>(r))
                ++m_regionsOfFlat[m_flatEvent[r].index()];
        std::size_t rootsDeeper = 0;
        for (std::size_t r = 0; r < m_R; ++r)
            if (m_canon[r] == static_cast<int>(r) && m_parent[r] < 0 && m_regionsOfFlat[m_flatEvent[r].index()] > 1)
                ++rootsDeeper;
        if (rootsDeeper > 0)
            m_warnings << QStringLiteral("%1 root region(s) also occur deeper in the tree; on the threads their events "
                                         "hold the flat totals, not the root alone")
                              .arg(rootsDeeper);
        std::vector<int> active(m_eventCount, 0);
        struct Frame {
            std::uint32_t region;
            std::uint32_t next;
        };
        std::vector<Frame> stack;
        for (std::size_t root = 0; root < m_R; ++root) {
            if (m_canon[root] != static_cast<int>(root) || m_parent[root] >= 0)
                continue;
            stack.push_back({ static_cast<std::uint32_t>(root), start[root] });
            m_outermost[root] = active[m_flatEvent[root].index()]++ == 0;
            while (!stack.empty()) {
                Frame& f = stack.back();
                if (f.next == start[f.region + 1]) {
                    --active[m_flatEvent[f.region].index()];
                    stack.pop_back();
                    continue;
                }
                const std::uint32_t child = children[f.next++];
                m_outermost[child] = active[m_flatEvent[child].index()]++ == 0;
                stack.push_back({ child, start[child] });
            }
        }
    }

    void buildRows()
    {
        const std::size_t T = m_ranks.size();
        const std::size_t slotCount = m_R + 1;
        const std::size_t M = m_M;
        // Cell budget: 4 Mi cells plus 16 per byte of input, so a corrupt file cannot exhaust memory.
        const double budget = double(1 << 22) + 16.0 * double(std::max<qint64>(0, m_p.sourceBytes));
        if (double(slotCount) * double(std::max<std::size_t>(M, 1)) > budget)
            throw ParseError::atLine(
                0, QStringLiteral("%1 regions x %2 metrics is more than this file can hold").arg(m_R).arg(M));
        // Records grouped by thread (counting sort).
        std::vector<std::uint32_t> start(T + 1, 0);
        for (std::uint32_t t : m_threadOfRecord)
            ++start[t + 1];
        std::partial_sum(start.begin(), start.end(), start.begin());
        std::vector<std::uint32_t> byThread(m_p.records.size());
        {
            std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
            for (std::size_t i = 0; i < m_p.records.size(); ++i)
                byThread[fill[m_threadOfRecord[i]]++] = static_cast<std::uint32_t>(i);
        }
        std::vector<std::uint32_t> stamp(slotCount, 0);
        std::vector<double> excl(slotCount * M), incl(slotCount * M), childSum(slotCount * M);
        std::vector<std::uint8_t> stored(slotCount * M);
        std::vector<std::uint32_t> eventStamp(m_eventCount, 0);
        std::vector<std::uint32_t> eventCell(m_eventCount, 0);
        std::vector<std::size_t> touched;
        std::vector<IntervalRow> rows(T);
        std::size_t repeats = 0;
        double cells = 0;
        m_progress.setStage(QStringLiteral("Building the Caliper trial"), static_cast<qint64>(T));
        for (std::size_t t = 0; t < T; ++t) {
            checkCancel();
            const std::uint32_t mark = static_cast<std::uint32_t>(t + 1);
            touched.clear();
            auto touch = [&](std::size_t s) {
                stamp[s] = mark;
                std::fill_n(excl.begin() + std::ptrdiff_t(s * M), M, 0.0);
                std::fill_n(incl.begin() + std::ptrdiff_t(s * M), M, 0.0);
                std::fill_n(childSum.begin() + std::ptrdiff_t(s * M), M, 0.0);
                std::fill_n(stored.begin() + std::ptrdiff_t(s * M), M, std::uint8_t(0));
                touched.push_back(s);
            };
            for (std::uint32_t k = start[t]; k < start[t + 1]; ++k) {
                const auto& rec = m_p.records[byThread[k]];
                const std::size_t s
                    = rec.region < 0 ? m_R : static_cast<std::size_t>(m_canon[static_cast<std::size_t>(rec.region)]);
                if (stamp[s] != mark)
                    touch(s);
                for (std::uint32_t v = 0; v < rec.count; ++v) {
                    const std::uint32_t c = m_p.valueColumns[rec.first + v];
                    const ColumnRole& role = m_roles[c];
                    bool inclusive = role.inclusive;
                    if (role.role == Role::Stat) {
                        if (!m_totalFillsThread.value(c))
                            continue;
                    } else if (role.role != Role::Metric) {
                        continue;
                    }
                    const double value = m_p.values[rec.first + v];
                    const std::size_t m = static_cast<std::size_t>(role.metric);
                    const MetricInfo& info = m_metrics[m];
                    if (!info.additive)
                        inclusive = false;
                    double& dst = (inclusive ? incl : excl)[s * M + m];
                    std::uint8_t& flag = stored[s * M + m];
                    const std::uint8_t bit = inclusive ? 2 : 1;
                    if (flag & bit) {
                        ++repeats;
                        dst = info.combine == Combine::Sum ? dst + value
                            : info.combine == Combine::Min ? std::min(dst, value)
                                                           : std::max(dst, value);
                    } else {
                        dst = value;
                        flag |= bit;
                    }
                }
            }
            // Ancestors of present regions are present.
            const std::size_t direct = touched.size();
            for (std::size_t i = 0; i < direct; ++i) {
                std::size_t s = touched[i];
                if (s == m_R)
                    continue;
                for (int p = m_parent[s]; p >= 0 && stamp[static_cast<std::size_t>(p)] != mark;
                     p = m_parent[static_cast<std::size_t>(p)])
                    touch(static_cast<std::size_t>(p));
            }
            // Children before parents: a parent's index is smaller.
            std::sort(touched.begin(), touched.end(), std::greater<>());
            IntervalRow& row = rows[t];
            std::vector<double> cellExcl, cellIncl; // [cell][metric] while building
            auto newCell = [&](EventId e) {
                row.events.push_back(e);
                cellExcl.resize(cellExcl.size() + M, 0.0);
                cellIncl.resize(cellIncl.size() + M, 0.0);
                return row.events.size() - 1;
            };
            for (std::size_t s : touched) {
                for (std::size_t m = 0; m < M; ++m) {
                    const std::size_t i = s * M + m;
                    if (!m_metrics[m].additive) {
                        incl[i] = excl[i];
                        continue;
                    }
                    if ((stored[i] & 2) && !(stored[i] & 1))
                        excl[i] = incl[i] - childSum[i];
                    else if (!(stored[i] & 2))
                        incl[i] = excl[i] + childSum[i];
                    if (s < m_R && m_parent[s] >= 0)
                        childSum[static_cast<std::size_t>(m_parent[s]) * M + m] += incl[i];
                }
                // The call-path cell (a root's is its flat cell, below).
                if (s < m_R && m_parent[s] >= 0) {
                    const std::size_t cell = newCell(m_pathEvent[s]);
                    std::copy_n(excl.begin() + std::ptrdiff_t(s * M), M, cellExcl.begin() + std::ptrdiff_t(cell * M));
                    std::copy_n(incl.begin() + std::ptrdiff_t(s * M), M, cellIncl.begin() + std::ptrdiff_t(cell * M));
                }
                // The flat cell: excl summed, incl over outermost regions only.
                const std::uint32_t e = m_flatEvent[s].index();
                const bool first = eventStamp[e] != mark;
                if (first) {
                    eventStamp[e] = mark;
                    eventCell[e] = static_cast<std::uint32_t>(newCell(m_flatEvent[s]));
                }
                const std::size_t cell = eventCell[e];
                for (std::size_t m = 0; m < M; ++m) {
                    double& de = cellExcl[cell * M + m];
                    double& di = cellIncl[cell * M + m];
                    const double ve = excl[s * M + m];
                    const double vi = incl[s * M + m];
                    switch (m_metrics[m].combine) {
                    case Combine::Sum:
                        de += ve;
                        if (m_outermost[s])
                            di += vi;
                        break;
                    case Combine::Min:
                        de = first ? ve : std::min(de, ve);
                        di = first ? vi : std::min(di, vi);
                        break;
                    case Combine::Max:
                        de = first ? ve : std::max(de, ve);
                        di = first ? vi : std::max(di, vi);
                        break;
                    }
                }
            }
            const std::size_t n = row.events.size();
            cells += double(n) * double(std::max<std::size_t>(M, 1));
            if (cells > budget)
                throw ParseError::atLine(0,
                    QStringLiteral("the profile expands to more than %1 values (region tree too deep or too many "
                                   "ranks for this file size)")
                        .arg(budget, 0, 'f', 0));
            row.calls.assign(n, 0.0);
            row.subrs.assign(n, 0.0);
            row.excl.resize(n * M);
            row.incl.resize(n * M);
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t m = 0; m < M; ++m) {
                    row.excl[m * n + i] = cellExcl[i * M + m];
                    row.incl[m * n + i] = cellIncl[i * M + m];
                }
            m_progress.advance();
        }
        if (repeats > 0)
            m_warnings << QStringLiteral("%1 value(s) repeat a (rank, region) pair; they were combined (summed, or the "
                                         "minimum/maximum for non-additive metrics)")
                              .arg(repeats);
        m_builder.setIntervalRows(std::move(rows));
    }

    void addStatistics()
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        static const char* const fallback[StatCount] = { "min", "max", "mean", "total" };
        for (int s = 0; s < StatCount; ++s) {
            if (!m_hasStat[s])
                continue;
            ProvidedStatistic p;
            p.name = m_statNames[s].isEmpty() ? QLatin1String(fallback[s]) : m_statNames[s];
            p.derivedId = StatDerivedId[s];
            // Call-path cells, and the flat cell of a name that only one (non-root) region has.
            std::vector<std::size_t> withValue;
            for (std::size_t r = 0; r <= m_R; ++r)
                if (m_pathEvent[r].isValid() && (!std::isnan(m_statIncl[s][r]) || !std::isnan(m_statExcl[s][r])))
                    withValue.push_back(r);
            std::vector<EventId> events;
            events.reserve(withValue.size());
            for (std::size_t r : withValue)
                events.push_back(m_pathEvent[r]);
            const std::size_t pathCells = withValue.size();
            for (std::size_t k = 0; k < pathCells; ++k) {
                const std::size_t r = withValue[k];
                if (r < m_R && m_parent[r] >= 0 && m_regionsOfFlat[m_flatEvent[r].index()] == 1) {
                    events.push_back(m_flatEvent[r]);
                    withValue.push_back(r);
                }
            }
            const std::size_t n = withValue.size();
            p.row.events = std::move(events);
            p.row.calls.assign(n, nan);
            p.row.subrs.assign(n, nan);
            p.row.excl.assign(n * m_M, nan);
            p.row.incl.assign(n * m_M, nan);
            const std::size_t m = static_cast<std::size_t>(m_timeMetric);
            for (std::size_t i = 0; i < n; ++i) {
                p.row.excl[m * n + i] = m_statExcl[s][withValue[i]];
                p.row.incl[m * n + i] = m_statIncl[s][withValue[i]];
            }
            m_builder.addProvidedStatistic(std::move(p));
        }
    }

    void addMetadata()
    {
        QHash<QString, QString> seen;
        for (const auto& [key, value] : m_p.globals) {
            const auto it = seen.find(key);
            if (it == seen.end()) {
                seen.insert(key, value);
                m_builder.addMetadata(key, value);
            } else if (!it.value().split(QStringLiteral("; ")).contains(value)) {
                it.value() += QStringLiteral("; ") + value;
                m_builder.addMetadata(key, it.value());
            }
        }
        m_builder.addMetadata(QStringLiteral("Caliper format"), m_p.format);
        std::size_t regions = 0;
        for (std::size_t r = 0; r < m_R; ++r)
            regions += m_canon[r] == static_cast<int>(r) ? 1 : 0;
        m_builder.addMetadata(QStringLiteral("Caliper regions"), QString::number(regions));
        m_builder.addMetadata(QStringLiteral("Caliper records"), QString::number(m_p.records.size()));
        m_builder.addMetadata(QStringLiteral("Caliper profile"),
            m_aggregate ? QStringLiteral("cross-rank region profile: one aggregate thread holds the sums over ranks; "
                                         "min/max/avg per rank are provided statistics")
                : m_hasRank ? QStringLiteral("per rank")
                            : QStringLiteral("one process"));
        QStringList attributes;
        for (std::size_t r = 0; r < m_R; ++r)
            if (m_canon[r] == static_cast<int>(r) && !m_p.regions[r].groups.isEmpty()
                && !attributes.contains(m_p.regions[r].groups.front()))
                attributes << m_p.regions[r].groups.front();
        if (!attributes.isEmpty())
            m_builder.addMetadata(QStringLiteral("Caliper region attributes"), attributes.join(QStringLiteral(", ")));
        if (!m_nonAdditive.isEmpty())
            m_builder.addMetadata(
                QStringLiteral("Caliper non-additive metrics"), m_nonAdditive.join(QStringLiteral(", ")));
        if (!m_hidden.isEmpty())
            m_builder.addMetadata(QStringLiteral("Caliper hidden attributes"), m_hidden.join(QStringLiteral(", ")));
    }

    CaliProfile& m_p;
    TrialBuilder& m_builder;
    QStringList& m_warnings;
    Progress& m_progress;

    std::vector<MetricInfo> m_metrics;
    std::size_t m_M = 0;
    std::vector<ColumnRole> m_roles;
    QHash<std::size_t, bool> m_totalFillsThread;
    int m_timeMetric = -1;
    bool m_hasStat[StatCount] = { false, false, false, false };
    QString m_statNames[StatCount];
    bool m_aggregate = false;
    QStringList m_hidden;
    QStringList m_nonAdditive;

    std::size_t m_R = 0;
    std::vector<int> m_canon;
    std::vector<int> m_parent; // canonical parent of a canonical region
    std::vector<QString> m_leaf;
    std::vector<double> m_order;
    std::vector<double> m_statIncl[StatCount];
    std::vector<double> m_statExcl[StatCount];

    bool m_hasRank = false;
    std::vector<qint64> m_ranks;
    std::vector<std::uint32_t> m_threadOfRecord;

    std::vector<EventId> m_flatEvent;
    std::vector<EventId> m_pathEvent;
    std::map<std::uint32_t, SourceLocation> m_locations; // by flat event id (locate)
    std::uint32_t m_eventCount = 0;
    std::vector<bool> m_outermost;
    std::vector<std::uint32_t> m_regionsOfFlat; // canonical regions per flat event
};

} // namespace

QString caliUnattributedName() { return Unattributed; }

void assembleCaliTrial(CaliProfile& profile, TrialBuilder& builder, QStringList& warnings, Progress& progress)
{
    Assembler(profile, builder, warnings, progress).run();
}

} // namespace parallax
