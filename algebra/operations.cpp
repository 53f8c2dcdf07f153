// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/operations.h"

#include "algebra/contenthash.h"
#include "algebra/operationplan.h"
#include "algebra/parallelfor.h"
#include "datasource/model/trialbuilder.h"

#include <QDateTime>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <new>
#include <type_traits>

#ifndef PARALLAX_VERSION_STRING
#define PARALLAX_VERSION_STRING "unknown"
#endif

namespace parallax {

using namespace detail;

namespace {

/// Per-worker scratch: a dense slot per result event, zeroed on first touch.
struct Scratch {
    std::vector<double> val;
    std::vector<Mask> mask;
    std::vector<std::uint64_t> touched;
    std::vector<double> aval;
    std::vector<Mask> amask;
    std::vector<std::uint64_t> atouched;
    std::vector<double> out;
    std::vector<Mask> eventOr; // OR of the masks of the cells this worker emitted
    // The output row is assembled here and copied once into exactly sized vectors.
    std::vector<EventId> rowEvents;
    std::vector<double> rowCalls, rowSubrs, rowExcl, rowIncl;
    std::vector<AtomicEventId> atomicEvents;
    std::vector<double> atomicColumns[AtomicFields];
    std::size_t disagreements = 0;
    double maxDisagreement = 0;
    bool ready = false;
};

class Engine {
public:
    explicit Engine(Plan& plan)
        : p(plan)
        , n(plan.n())
        , M(plan.metrics.size())
        , F(2 + 2 * plan.metrics.size())
        , E(plan.events.keys.size())
        , A(plan.atomicKeys.size())
        , T(plan.threads.threads.size())
    {
    }

    std::shared_ptr<const Trial> run();

private:
    void buildContributions();
    void computeDefinedMasks();
    void finishEventMasks(const std::vector<Scratch>& scratch);
    template <Op op> void processThread(std::size_t t, Scratch& s);
    template <Op op> void processAtomic(std::size_t t, Scratch& s);
    void processBlock(std::size_t begin, std::size_t end, Scratch& s);
    void combineInterval(const double* base, Mask mask, Scratch& s);
    void buildThreadMetadata(TrialBuilder& builder);
    void buildTrialMetadata(TrialBuilder& builder);
    std::vector<QStringList> eventGroups() const;
    void setSourceLocations(TrialBuilder& builder) const;
    QString resultName() const;

    Plan& p;
    const std::size_t n, M, F, E, A, T;
    std::vector<std::uint32_t> m_start;
    std::vector<Contribution> m_contribs;
    std::vector<Mask> m_eventMask;
    std::vector<Mask> m_definedMask;
    std::vector<Mask> m_threadMask;
    std::vector<IntervalRow> m_rows;
    std::vector<AtomicRow> m_atomicRows;
    std::vector<std::vector<std::pair<EventId, Mask>>> m_exceptions;
};

void Engine::buildContributions()
{
    m_start.assign(T + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::uint32_t r : p.threads.map[i])
            ++m_start[r + 1];
    for (std::size_t t = 0; t < T; ++t)
        m_start[t + 1] += m_start[t];
    m_contribs.resize(m_start[T]);
    std::vector<std::uint32_t> fill(m_start.begin(), m_start.end() - 1);
    m_threadMask.assign(T, 0);
    for (std::size_t i = 0; i < n; ++i) {
        const auto& map = p.threads.map[i];
        for (std::size_t s = 0; s < map.size(); ++s) {
            m_contribs[fill[map[s]]++] = { static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(s) };
            if (p.contributes[i])
                m_threadMask[map[s]] |= bit(i);
        }
    }
}

void Engine::computeDefinedMasks()
{
    // The operands whose event table has each event. Cells are checked against this reference
    // during the main pass (one pass over the data); the true event mask, the OR of the cells'
    // masks, is collected there too, and finishEventMasks() prunes the exceptions it makes
    // unnecessary (a cell mask that equals definedMask & threadMask also equals eventMask &
    // threadMask, because cellMask <= eventMask <= definedMask).
    m_definedMask.assign(E, 0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::uint32_t r : p.events.map[i])
            if (r != Dropped)
                m_definedMask[r] |= bit(i);
}

void Engine::finishEventMasks(const std::vector<Scratch>& scratch)
{
    m_eventMask.assign(E, 0);
    for (const Scratch& s : scratch)
        for (std::size_t r = 0; r < s.eventOr.size(); ++r)
            m_eventMask[r] |= s.eventOr[r];
    for (std::size_t r = 0; r < E; ++r)
        if (m_eventMask[r] == 0) // an event without any cell: the operands that define it
            m_eventMask[r] = m_definedMask[r];
    for (std::size_t t = 0; t < T; ++t) {
        auto& ex = m_exceptions[t];
        ex.erase(
            std::remove_if(ex.begin(), ex.end(),
                [&](const auto& cell) { return cell.second == (m_eventMask[cell.first.index()] & m_threadMask[t]); }),
            ex.end());
    }
}

void Engine::combineInterval(const double* base, Mask mask, Scratch& s)
{
    double* out = s.out.data();
    const int k = std::popcount(mask);
    const bool skip = p.options.absent == AbsentCells::Skip;
    switch (p.op) {
    case Op::Diff:
        for (std::size_t f = 0; f < F; ++f)
            out[f] = base[f] - base[F + f];
        return;
    case Op::Ratio:
        for (std::size_t f = 0; f < F; ++f)
            out[f] = base[f] / base[F + f];
        return;
    case Op::Remap:
        std::memcpy(out, base, F * sizeof(double));
        return;
    case Op::Mean: {
        const double d = skip ? static_cast<double>(k) : static_cast<double>(n);
        for (std::size_t f = 0; f < F; ++f) {
            double sum = 0;
            for (std::size_t i = 0; i < n; ++i)
                sum += base[i * F + f];
            out[f] = sum / d;
        }
        return;
    }
    case Op::Merge: {
        const std::size_t first = static_cast<std::size_t>(std::countr_zero(mask));
        out[0] = base[first * F];
        out[1] = base[first * F + 1];
        for (std::size_t i = first + 1; i < n; ++i) {
            if (!(mask & bit(i)))
                continue;
            const double dc = std::abs(base[i * F] - out[0]);
            const double ds = std::abs(base[i * F + 1] - out[1]);
            if (dc != 0 || ds != 0) {
                ++s.disagreements;
                s.maxDisagreement = std::max({ s.maxDisagreement, dc, ds });
            }
        }
        for (std::size_t f = 2; f < F; ++f) {
            double sum = 0;
            for (std::size_t i = 0; i < n; ++i)
                sum += base[i * F + f];
            out[f] = sum;
        }
        return;
    }
    case Op::Min:
    case Op::Max:
    case Op::StdDev:
        for (std::size_t f = 0; f < F; ++f) {
            double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0;
            std::size_t count = 0;
            for (std::size_t i = 0; i < n; ++i) {
                if (skip && !(mask & bit(i)))
                    continue;
                const double x = base[i * F + f];
                lo = std::min(lo, x);
                hi = std::max(hi, x);
                sum += x;
                ++count;
            }
            if (p.op == Op::Min)
                out[f] = lo;
            else if (p.op == Op::Max)
                out[f] = hi;
            else if (count <= 1)
                out[f] = 0;
            else {
                const double mean = sum / static_cast<double>(count);
                double dev = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    if (skip && !(mask & bit(i)))
                        continue;
                    const double d = base[i * F + f] - mean;
                    dev += d * d;
                }
                out[f] = std::sqrt(dev / static_cast<double>(count));
            }
        }
        return;
    }
}

template <Op op> void Engine::processThread(std::size_t t, Scratch& s)
{
    const std::size_t stride = n * F;
    for (std::uint32_t c = m_start[t]; c < m_start[t + 1]; ++c) {
        const Contribution& con = m_contribs[c];
        const std::size_t i = con.operand;
        if (!p.contributes[i])
            continue;
        const RowView row = p.operands[i]->row(ThreadIndex(con.thread));
        const std::size_t len = row.size();
        const Mask b = bit(i);
        // Raw pointers: the stores into the scratch must not make the compiler reload them.
        const std::uint32_t* const emap = p.events.map[i].data();
        const std::int32_t* const mmap = p.metricMap[i].data();
        const std::size_t opMetrics = p.metricMap[i].size();
        const EventId* const events = row.events.data();
        const CountView callsIn = row.calls;
        const CountView subrsIn = row.subrs;
        const double* const exclIn = row.excl.data();
        const InclView inclIn = row.incl;
        double* const val = s.val.data();
        Mask* const masks = s.mask.data();
        std::uint64_t* const touched = s.touched.data();
        for (std::size_t k = 0; k < len; ++k) {
            const std::uint32_t r = emap[events[k].index()];
            if (r == Dropped)
                continue;
            double* const base = val + r * stride;
            if (masks[r] == 0) {
                std::fill(base, base + stride, 0.0);
                touched[r >> 6] |= std::uint64_t(1) << (r & 63);
            }
            masks[r] |= b;
            double* const v = base + i * F;
            v[0] += callsIn[k];
            v[1] += subrsIn[k];
            for (std::size_t m = 0; m < opMetrics; ++m) {
                const std::int32_t mr = mmap[m];
                if (mr < 0)
                    continue;
                v[2 + static_cast<std::size_t>(mr)] += exclIn[m * len + k];
                v[2 + M + static_cast<std::size_t>(mr)] += inclIn[m * len + k];
            }
        }
    }
    std::size_t cells = 0;
    for (std::uint64_t w : s.touched)
        cells += static_cast<std::size_t>(std::popcount(w));
    EventId* events = s.rowEvents.data();
    double* calls = s.rowCalls.data();
    double* subrs = s.rowSubrs.data();
    double* excl = s.rowExcl.data();
    double* incl = s.rowIncl.data();
    const Mask threadMask = m_threadMask[t];
    std::size_t j = 0;
    for (std::size_t w = 0; w < s.touched.size(); ++w) {
        std::uint64_t bits = s.touched[w];
        s.touched[w] = 0;
        while (bits) {
            const std::size_t r = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
            bits &= bits - 1;
            const Mask mask = s.mask[r];
            s.mask[r] = 0;
            const double* base = s.val.data() + r * stride;
            double* o = s.out.data();
            if constexpr (op == Op::Diff) {
                for (std::size_t f = 0; f < F; ++f)
                    o[f] = base[f] - base[F + f];
            } else if constexpr (op == Op::Mean) {
                const double d = p.options.absent == AbsentCells::Skip ? std::popcount(mask) : static_cast<double>(n);
                for (std::size_t f = 0; f < F; ++f) {
                    double sum = 0;
                    for (std::size_t i = 0; i < n; ++i)
                        sum += base[i * F + f];
                    o[f] = sum / d;
                }
            } else {
                combineInterval(base, mask, s);
            }
            events[j] = EventId(static_cast<std::uint32_t>(r));
            calls[j] = o[0];
            subrs[j] = o[1];
            for (std::size_t m = 0; m < M; ++m) {
                excl[m * cells + j] = o[2 + m];
                incl[m * cells + j] = o[2 + M + m];
            }
            s.eventOr[r] |= mask;
            if (n > 1 && mask != (m_definedMask[r] & threadMask))
                m_exceptions[t].emplace_back(EventId(static_cast<std::uint32_t>(r)), mask);
            ++j;
        }
    }
    IntervalRow& out = m_rows[t];
    out.events.assign(events, events + cells);
    out.calls.assign(calls, calls + cells);
    out.subrs.assign(subrs, subrs + cells);
    out.excl.assign(excl, excl + M * cells);
    out.incl.assign(incl, incl + M * cells);
}

template <Op op> void Engine::processAtomic(std::size_t t, Scratch& s)
{
    if (A == 0)
        return;
    const std::size_t stride = n * AtomicFields;
    bool anyExplicit = false;
    for (std::uint32_t c = m_start[t]; c < m_start[t + 1]; ++c) {
        const Contribution& con = m_contribs[c];
        const std::size_t i = con.operand;
        const AtomicRow& row = p.operands[i]->atomicRow(ThreadIndex(con.thread));
        const auto& amap = p.atomicMap[i];
        const Mask b = bit(i);
        for (std::size_t k = 0; k < row.size(); ++k) {
            const std::uint32_t r = amap[row.events[k].index()];
            if (r == Dropped)
                continue;
            double* base = s.aval.data() + r * stride;
            if (s.amask[r] == 0) {
                std::fill(base, base + stride, 0.0);
                s.atouched[r >> 6] |= std::uint64_t(1) << (r & 63);
            }
            double* v = base + i * AtomicFields;
            if (!(s.amask[r] & b)) {
                v[ACount] = row.count[k];
                v[AMax] = row.max[k];
                v[AMin] = row.min[k];
                v[AMean] = row.mean[k];
                v[ASumSqr] = row.sumSquares[k];
                v[ASd] = row.stddev(k);
                v[AExplicit] = row.stdDev.empty() ? 0.0 : 1.0;
            } else {
                // Several records of one operand on one result thread (collapse): pooled.
                const double n1 = v[ACount], n2 = row.count[k], total = n1 + n2;
                v[AMean] = total != 0 ? (v[AMean] * n1 + row.mean[k] * n2) / total : 0.0;
                v[ACount] = total;
                v[AMax] = std::max(v[AMax], row.max[k]);
                v[AMin] = std::min(v[AMin], row.min[k]);
                v[ASumSqr] += row.sumSquares[k];
                v[ASd] = formulaSd(v[ACount], v[AMean], v[ASumSqr]);
                v[AExplicit] = 0.0;
            }
            s.amask[r] |= b;
        }
    }
    std::size_t records = 0;
    for (std::uint64_t w : s.atouched)
        records += static_cast<std::size_t>(std::popcount(w));
    if (records == 0)
        return;
    s.atomicEvents.clear();
    for (auto& column : s.atomicColumns)
        column.clear();
    const bool skip = p.options.absent == AbsentCells::Skip;
    for (std::size_t w = 0; w < s.atouched.size(); ++w) {
        std::uint64_t bits = s.atouched[w];
        s.atouched[w] = 0;
        while (bits) {
            const std::size_t r = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
            bits &= bits - 1;
            const Mask mask = s.amask[r];
            s.amask[r] = 0;
            const double* base = s.aval.data() + r * stride;
            double o[AtomicFields] = {};
            auto fieldWise = [&](auto&& combine) {
                for (int f : { ACount, AMax, AMin, AMean, ASd })
                    o[f] = combine(f);
                o[ASumSqr] = 0;
                o[AExplicit] = 1;
            };
            auto x = [&](std::size_t i, int f) { return base[i * AtomicFields + static_cast<std::size_t>(f)]; };
            const int k = std::popcount(mask);
            switch (op) {
            case Op::Diff:
                fieldWise([&](int f) { return x(0, f) - x(1, f); });
                break;
            case Op::Ratio:
                fieldWise([&](int f) { return x(0, f) / x(1, f); });
                break;
            case Op::Merge:
            case Op::Remap: {
                const std::size_t i = static_cast<std::size_t>(std::countr_zero(mask));
                for (int f = 0; f < AtomicFields; ++f)
                    o[f] = x(i, f);
                break;
            }
            case Op::Mean: {
                const double d = skip ? k : static_cast<double>(n);
                double count = 0, weighted = 0, sumSqr = 0, sd = 0, means = 0;
                double lo = std::numeric_limits<double>::infinity(), hi = -lo;
                bool explicitSd = false;
                for (std::size_t i = 0; i < n; ++i) {
                    if (!(mask & bit(i)))
                        continue;
                    count += x(i, ACount);
                    weighted += x(i, ACount) * x(i, AMean);
                    means += x(i, AMean);
                    sumSqr += x(i, ASumSqr);
                    sd += x(i, ASd);
                    lo = std::min(lo, x(i, AMin));
                    hi = std::max(hi, x(i, AMax));
                    explicitSd = explicitSd || x(i, AExplicit) != 0;
                }
                o[ACount] = count / d;
                o[AMean] = count != 0 ? weighted / count : means / k;
                o[AMin] = lo;
                o[AMax] = hi;
                o[ASumSqr] = sumSqr / d;
                o[ASd] = explicitSd ? sd / d : formulaSd(o[ACount], o[AMean], o[ASumSqr]);
                o[AExplicit] = explicitSd ? 1 : 0;
                break;
            }
            case Op::Min:
            case Op::Max:
            case Op::StdDev:
                fieldWise([&](int f) {
                    double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0;
                    std::size_t count = 0;
                    for (std::size_t i = 0; i < n; ++i) {
                        if (skip && !(mask & bit(i)))
                            continue;
                        lo = std::min(lo, x(i, f));
                        hi = std::max(hi, x(i, f));
                        sum += x(i, f);
                        ++count;
                    }
                    if (op == Op::Min)
                        return lo;
                    if (op == Op::Max)
                        return hi;
                    if (count <= 1)
                        return 0.0;
                    const double mean = sum / static_cast<double>(count);
                    double dev = 0;
                    for (std::size_t i = 0; i < n; ++i)
                        if (!skip || (mask & bit(i)))
                            dev += (x(i, f) - mean) * (x(i, f) - mean);
                    return std::sqrt(dev / static_cast<double>(count));
                });
                break;
            }
            s.atomicEvents.push_back(AtomicEventId(static_cast<std::uint32_t>(r)));
            for (int f = 0; f < AtomicFields; ++f)
                s.atomicColumns[f].push_back(o[f]);
            anyExplicit = anyExplicit || o[AExplicit] != 0;
        }
    }
    AtomicRow& out = m_atomicRows[t];
    out.events.assign(s.atomicEvents.begin(), s.atomicEvents.end());
    out.count.assign(s.atomicColumns[ACount].begin(), s.atomicColumns[ACount].end());
    out.max.assign(s.atomicColumns[AMax].begin(), s.atomicColumns[AMax].end());
    out.min.assign(s.atomicColumns[AMin].begin(), s.atomicColumns[AMin].end());
    out.mean.assign(s.atomicColumns[AMean].begin(), s.atomicColumns[AMean].end());
    out.sumSquares.assign(s.atomicColumns[ASumSqr].begin(), s.atomicColumns[ASumSqr].end());
    if (anyExplicit)
        out.stdDev.assign(s.atomicColumns[ASd].begin(), s.atomicColumns[ASd].end());
}

void Engine::processBlock(std::size_t begin, std::size_t end, Scratch& s)
{
    auto loop = [&](auto tag) {
        constexpr Op op = decltype(tag)::value;
        for (std::size_t t = begin; t < end; ++t) {
            processThread<op>(t, s);
            processAtomic<op>(t, s);
        }
    };
    switch (p.op) {
    case Op::Diff:
        return loop(std::integral_constant<Op, Op::Diff>());
    case Op::Ratio:
        return loop(std::integral_constant<Op, Op::Ratio>());
    case Op::Mean:
        return loop(std::integral_constant<Op, Op::Mean>());
    case Op::Merge:
        return loop(std::integral_constant<Op, Op::Merge>());
    case Op::Min:
        return loop(std::integral_constant<Op, Op::Min>());
    case Op::Max:
        return loop(std::integral_constant<Op, Op::Max>());
    case Op::StdDev:
        return loop(std::integral_constant<Op, Op::StdDev>());
    case Op::Remap:
        return loop(std::integral_constant<Op, Op::Remap>());
    }
}

/// A result event keeps the source location of the first operand event matched to it that has one
/// (docs/SEMANTICS.md §12); it is recorded unless the result's name already carries the same one
/// (a matching policy may have stripped it from the name).
void Engine::setSourceLocations(TrialBuilder& builder) const
{
    std::vector<bool> done(E, false);
    for (std::size_t i = 0; i < n; ++i) {
        const Trial& t = *p.operands[i];
        const auto& map = p.events.map[i];
        for (std::size_t e = 0; e < map.size(); ++e) {
            if (map[e] == Dropped || done[map[e]])
                continue;
            const std::optional<SourceLocation> location = sourceLocationOf(t, EventId(e));
            if (!location)
                continue;
            done[map[e]] = true;
            if (parseSourceLocation(p.events.keys[map[e]]) != location)
                builder.setSourceLocation(EventId(map[e]), *location);
        }
    }
}

std::vector<QStringList> Engine::eventGroups() const
{
    std::vector<QStringList> groups(E);
    for (std::size_t i = 0; i < n; ++i) {
        const Trial& t = *p.operands[i];
        const auto& map = p.events.map[i];
        for (std::size_t e = 0; e < map.size(); ++e) {
            if (map[e] == Dropped)
                continue;
            QStringList& g = groups[map[e]];
            for (GroupId gid : t.event(EventId(e)).groups) {
                const QString& name = t.groupName(gid);
                if (!Presence::isPresenceGroup(name) && !g.contains(name))
                    g.append(name);
            }
        }
    }
    if (n > 1)
        for (std::size_t r = 0; r < E; ++r) {
            const QString marker = Presence::groupFor(m_eventMask[r], n);
            if (!marker.isEmpty())
                groups[r].append(marker);
        }
    return groups;
}

void Engine::buildThreadMetadata(TrialBuilder& builder)
{
    // String ids are per trial: translate operand ids to result ids, and keys between operands,
    // through lazily filled tables so each distinct string is hashed once.
    const StringId unknown(StringId::InvalidValue - 1);
    StringPool& pool = builder.strings();
    std::vector<std::vector<StringId>> toResult(n);
    std::vector<std::vector<std::int8_t>> resultKey(n); // -1 unknown, 0 no, 1 yes
    std::vector<std::vector<std::vector<StringId>>> keyIn(n, std::vector<std::vector<StringId>>(n));
    for (std::size_t i = 0; i < n; ++i) {
        toResult[i].assign(p.operands[i]->strings().size(), StringId());
        resultKey[i].assign(p.operands[i]->strings().size(), -1);
    }
    auto translate = [&](std::size_t i, StringId id) {
        StringId& slot = toResult[i][id.index()];
        if (!slot.isValid())
            slot = pool.intern(p.operands[i]->strings().get(id));
        return slot;
    };
    auto keyOf = [&](std::size_t from, StringId key, std::size_t to) {
        auto& table = keyIn[from][to];
        if (table.empty())
            table.assign(p.operands[from]->strings().size(), unknown);
        StringId& slot = table[key.index()];
        if (slot == unknown)
            slot = p.operands[to]->strings().find(p.operands[from]->strings().get(key));
        return slot;
    };
    for (std::size_t t = 0; t < T; ++t) {
        const std::uint32_t b = m_start[t], e = m_start[t + 1];
        if (b == e)
            continue;
        // Merge: the first operand that supplied the thread; otherwise what all sources agree on.
        const Contribution& first = m_contribs[b];
        const Trial& ft = *p.operands[first.operand];
        std::vector<MetadataEntry> entries;
        entries.reserve(ft.threadMetadata(ThreadIndex(first.thread)).size());
        for (const MetadataEntry& entry : ft.threadMetadata(ThreadIndex(first.thread))) {
            std::int8_t& isResult = resultKey[first.operand][entry.key.index()];
            if (isResult < 0)
                isResult = isResultKey(ft.strings().get(entry.key)) ? 1 : 0;
            if (isResult)
                continue;
            bool agreed = true;
            if (p.op != Op::Merge) {
                const QString& value = ft.strings().get(entry.value);
                for (std::uint32_t c = b + 1; c < e && agreed; ++c) {
                    const std::size_t other = m_contribs[c].operand;
                    const Trial& ot = *p.operands[other];
                    const StringId k = other == first.operand ? entry.key : keyOf(first.operand, entry.key, other);
                    agreed = false;
                    if (!k.isValid())
                        break;
                    for (const MetadataEntry& candidate : ot.threadMetadata(ThreadIndex(m_contribs[c].thread)))
                        if (candidate.key == k) {
                            agreed = ot.strings().get(candidate.value) == value;
                            break;
                        }
                }
            }
            if (agreed)
                entries.push_back({ translate(first.operand, entry.key), translate(first.operand, entry.value) });
        }
        if (!entries.empty())
            builder.setThreadMetadataEntries(ThreadIndex(t), std::move(entries));
    }
}

void Engine::buildTrialMetadata(TrialBuilder& builder)
{
    auto valueOf = [](const Trial& t, const QString& key, QString* value) {
        const StringId k = t.strings().find(key);
        if (!k.isValid())
            return false;
        for (const MetadataEntry& e : t.metadata())
            if (e.key == k) {
                *value = t.strings().get(e.value);
                return true;
            }
        return false;
    };
    QStringList differing;
    for (std::size_t i = 0; i < n; ++i) {
        const Trial& t = *p.operands[i];
        for (const MetadataEntry& entry : t.metadata()) {
            const QString& key = t.strings().get(entry.key);
            if (isResultKey(key))
                continue;
            const QString& value = t.strings().get(entry.value);
            bool same = true;
            for (std::size_t j = 0; j < n && same; ++j) {
                QString other;
                same = valueOf(*p.operands[j], key, &other) && other == value;
            }
            if (same) {
                if (i == 0)
                    builder.addMetadata(key, value);
            } else {
                differing << QStringLiteral("metadata[%1]=%2=%3").arg(i + 1).arg(key, value);
            }
        }
    }
    p.provenanceOptions << differing;
}

QString Engine::resultName() const
{
    if (!p.options.name.isEmpty())
        return p.options.name;
    QStringList names;
    for (const Trial* t : p.operands)
        names << t->name();
    if (names.size() > 4)
        return QStringLiteral("%1(%2, ..., %3; %4 trials)")
            .arg(opName(p.op), names.front(), names.back())
            .arg(names.size());
    return QStringLiteral("%1(%2)").arg(opName(p.op), names.join(QLatin1String(", ")));
}

std::shared_ptr<const Trial> Engine::run()
{
    buildContributions();
    computeDefinedMasks();
    m_rows.resize(T);
    m_atomicRows.resize(T);
    m_exceptions.resize(T);
    const std::size_t workers = parallelWorkers(T, 64, p.options.workers);
    std::vector<Scratch> scratch(workers);
    parallelFor(T, 64, p.options.workers, [&](std::size_t begin, std::size_t end, std::size_t w) {
        Scratch& s = scratch[w];
        if (!s.ready) {
            s.ready = true;
            s.val.resize(E * n * F);
            s.mask.assign(E, 0);
            s.touched.assign((E + 63) / 64, 0);
            s.aval.resize(A * n * AtomicFields);
            s.amask.assign(A, 0);
            s.atouched.assign((A + 63) / 64, 0);
            s.out.resize(F);
            s.eventOr.assign(E, 0);
            s.rowEvents.resize(E);
            s.rowCalls.resize(E);
            s.rowSubrs.resize(E);
            s.rowExcl.resize(E * M);
            s.rowIncl.resize(E * M);
        }
        processBlock(begin, end, s);
    });
    finishEventMasks(scratch);
    std::size_t disagreements = 0;
    double maxDisagreement = 0;
    for (const Scratch& s : scratch) {
        disagreements += s.disagreements;
        maxDisagreement = std::max(maxDisagreement, s.maxDisagreement);
    }
    if (disagreements > 0)
        p.warnings << QStringLiteral("calls or subrs differ between operands in %1 cells (largest difference %2); "
                                     "taken from the first operand with the cell")
                          .arg(disagreements)
                          .arg(maxDisagreement);

    TrialBuilder builder(resultName());
    for (const Metric& m : p.metrics)
        builder.addMetric(m);
    const auto groups = eventGroups();
    for (std::size_t r = 0; r < E; ++r) {
        const EventId id = builder.addEvent(p.events.keys[r], groups[r], p.events.rawNames[r]);
        if (id.index() != r) // cannot happen: keys are canonical and distinct
            qFatal("algebra: event key '%s' is not canonical", qPrintable(p.events.keys[r]));
    }
    setSourceLocations(builder);
    for (std::size_t r = 0; r < A; ++r)
        builder.addAtomicEvent(p.atomicKeys[r], p.atomicRaw[r]);
    for (const ThreadKey& key : p.threads.threads)
        builder.addThread(key);
    builder.setIntervalRows(std::move(m_rows));
    builder.setAtomicRows(std::move(m_atomicRows));
    buildThreadMetadata(builder);
    buildTrialMetadata(builder);

    std::shared_ptr<const Presence> presence;
    if (n > 1) {
        presence = std::make_shared<const Presence>(n, m_eventMask, m_threadMask, std::move(m_exceptions));
        presence->encode(builder, p.events.keys);
    } else {
        presence = std::make_shared<const Presence>();
    }

    Provenance provenance;
    provenance.operation = opName(p.op);
    for (const Trial* t : p.operands)
        provenance.operands << QStringLiteral("%1 [%2]").arg(t->name(), contentHash(*t));
    QStringList& o = provenance.options;
    o << contentHashAlgorithmOption();
    o << QStringLiteral("match=") + p.options.match.toString();
    o << QStringLiteral("threads=") + threadPolicyName(p.options.threads);
    o << p.threads.describe(p.operands);
    if (p.op == Op::Mean || p.op == Op::Min || p.op == Op::Max || p.op == Op::StdDev)
        o << QStringLiteral("absent=")
                + (p.options.absent == AbsentCells::AsZero ? QStringLiteral("AS_ZERO") : QStringLiteral("SKIP"));
    if (p.op == Op::Merge) {
        o << QStringLiteral("conflict=") + conflictName(p.options.conflict);
        o << QStringLiteral("atomic_conflict=") + conflictName(p.options.atomicConflict.value_or(p.options.conflict));
    }
    o << QStringLiteral("additive=") + (p.additive ? QStringLiteral("true") : QStringLiteral("false"));
    if (p.events.dropped > 0)
        o << QStringLiteral("dropped_events=%1").arg(p.events.dropped);
    for (const QString& c : p.events.collisions) {
        o << QStringLiteral("collision=") + c;
        p.warnings << QStringLiteral("events summed under %1 matching: %2")
                          .arg(eventMatchPolicyName(p.options.match.policy), c);
    }
    o << p.provenanceOptions;
    for (const QString& w : p.warnings)
        o << QStringLiteral("warning=") + w;
    o << QStringLiteral("version=") + parallaxVersion();
    // A copy in the metadata, which writers and the database keep (without the time, so that the
    // same operation on the same operands gives the same content).
    QStringList persisted = o;
    persisted.prepend(QStringLiteral("op=") + provenance.operation);
    o << QStringLiteral("time=") + QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    builder.setProvenance(provenance);
    builder.addMetadata(
        operationKey(), QStringLiteral("%1 of %2").arg(opName(p.op), provenance.operands.join(QLatin1String(", "))));
    builder.addMetadata(provenanceKey(), persisted.join(QLatin1Char('\n')));
    if (!p.additive)
        builder.addMetadata(nonAdditiveKey(), QStringLiteral("true"));
    for (const QString& w : p.warnings)
        builder.addWarning(w);

    std::shared_ptr<Trial> trial = builder.build();
    trial->cached<Presence>([&](const Trial&) { return presence; });
    return trial;
}

AlgebraResult execute(Op op, std::vector<const Trial*> operands, const AlgebraOptions& options)
{
    const QString name = opName(op);
    if (operands.empty())
        return AlgebraResult::failure(QStringLiteral("%1: no operands").arg(name));
    if (operands.size() > Presence::MaxOperands)
        return AlgebraResult::failure(QStringLiteral("%1: %2 operands; at most %3 are supported")
                                          .arg(name)
                                          .arg(operands.size())
                                          .arg(Presence::MaxOperands));
    for (const Trial* t : operands)
        if (!t)
            return AlgebraResult::failure(QStringLiteral("%1: a null operand").arg(name));
    Plan p;
    p.op = op;
    p.options = options;
    p.operands = std::move(operands);
    p.additive = !(op == Op::Ratio || op == Op::Min || op == Op::Max || op == Op::StdDev
        || (op == Op::Mean && options.absent == AbsentCells::Skip));
    QString error;
    const bool metricsOk = op == Op::Merge ? planMergeMetrics(p, &error) : planMetricUnion(p, &error);
    if (!metricsOk || !planAtomic(p, &error))
        return AlgebraResult::failure(QStringLiteral("%1: %2").arg(name, error));
    if (op == Op::Ratio)
        for (Metric& m : p.metrics)
            m.unit.clear();
    auto threads = mapThreads(p.operands, options.threads, &error, op == Op::Remap);
    if (!threads)
        return AlgebraResult::failure(QStringLiteral("%1: %2").arg(name, error));
    p.threads = std::move(*threads);
    p.events = matchEvents(p.operands, options.match, p.contributes);
    Engine engine(p);
    return engine.run();
}

std::vector<const Trial*> raw(const std::vector<std::shared_ptr<const Trial>>& operands)
{
    std::vector<const Trial*> out;
    out.reserve(operands.size());
    for (const auto& t : operands)
        out.push_back(t.get());
    return out;
}

} // namespace

AlgebraResult difference(const Trial& a, const Trial& b, const AlgebraOptions& options)
{
    return execute(Op::Diff, { &a, &b }, options);
}

AlgebraResult ratio(const Trial& a, const Trial& b, const AlgebraOptions& options)
{
    return execute(Op::Ratio, { &a, &b }, options);
}

AlgebraResult mean(const std::vector<std::shared_ptr<const Trial>>& operands, const AlgebraOptions& options)
{
    return execute(Op::Mean, raw(operands), options);
}

AlgebraResult merge(const std::vector<std::shared_ptr<const Trial>>& operands, const AlgebraOptions& options)
{
    return execute(Op::Merge, raw(operands), options);
}

AlgebraResult summary(
    const std::vector<std::shared_ptr<const Trial>>& operands, Summary statistic, const AlgebraOptions& options)
{
    const Op op = statistic == Summary::Minimum ? Op::Min : statistic == Summary::Maximum ? Op::Max : Op::StdDev;
    return execute(op, raw(operands), options);
}

AlgebraResult remapThreads(const Trial& trial, ThreadPolicy policy, const AlgebraOptions& options)
{
    if (policy != ThreadPolicy::CollapseProcess && policy != ThreadPolicy::CollapseAll)
        return AlgebraResult::failure(
            QStringLiteral("remap: the policy must be COLLAPSE_PROCESS or COLLAPSE_ALL, not %1")
                .arg(threadPolicyName(policy)));
    AlgebraOptions o = options;
    o.threads = policy;
    return execute(Op::Remap, { &trial }, o);
}

bool collapseOperandThreads(std::vector<std::shared_ptr<const Trial>>& operands, ThreadPolicy policy, QString* error)
{
    if (policy != ThreadPolicy::CollapseProcess && policy != ThreadPolicy::CollapseAll)
        return true;
    std::vector<std::shared_ptr<const Trial>> collapsed;
    collapsed.reserve(operands.size());
    for (const auto& operand : operands) {
        const AlgebraResult r = remapThreads(*operand, policy);
        if (!r) {
            if (error)
                *error = r.error();
            return false;
        }
        collapsed.push_back(r.trial());
    }
    operands = std::move(collapsed);
    return true;
}

bool isAdditive(const Trial& trial) { return trial.metadataValue(nonAdditiveKey()) != QLatin1String("true"); }

QString parallaxVersion() { return QStringLiteral(PARALLAX_VERSION_STRING); }

} // namespace parallax
