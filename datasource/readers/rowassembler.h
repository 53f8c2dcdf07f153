// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

namespace parallax {

/// Bit-for-bit equality of two doubles, except that every NaN equals every NaN.
inline bool sameDouble(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

/// Finds a cell by its event id in a row built in any order: an append for ids in increasing order
/// (the usual case), a binary search while the ids stay sorted, a hash map once they do not.
class CellIndex {
public:
    /// The position of `id`, adding it at the end when new (`created` says which).
    std::size_t findOrAdd(std::uint32_t id, bool& created)
    {
        created = false;
        const std::size_t n = m_ids.size();
        if (n > 0 && m_ids.back() == id)
            return n - 1;
        if (!m_map && (n == 0 || id > m_ids.back())) {
            m_ids.push_back(id);
            created = true;
            return n;
        }
        if (!m_map) {
            const auto it = std::lower_bound(m_ids.begin(), m_ids.end(), id);
            if (it != m_ids.end() && *it == id)
                return static_cast<std::size_t>(it - m_ids.begin());
            m_map = std::make_unique<std::unordered_map<std::uint32_t, std::uint32_t>>();
            for (std::size_t i = 0; i < n; ++i)
                m_map->emplace(m_ids[i], static_cast<std::uint32_t>(i));
        }
        const auto [it, inserted] = m_map->emplace(id, static_cast<std::uint32_t>(n));
        if (!inserted)
            return it->second;
        m_ids.push_back(id);
        created = true;
        return n;
    }
    std::size_t size() const { return m_ids.size(); }
    std::uint32_t id(std::size_t i) const { return m_ids[i]; }

private:
    std::vector<std::uint32_t> m_ids;
    std::unique_ptr<std::unordered_map<std::uint32_t, std::uint32_t>> m_map;
};

/// Collects the interval cells of one row (a thread, a provided statistic or a snapshot) in any
/// order, remembering which values were given, and turns them into an IntervalRow.
class IntervalAssembler {
public:
    enum Flag : std::uint8_t { CallsSet = 1, SubrsSet = 2, ExclSet = 1, InclSet = 2, SqrSet = 4 };

    std::size_t cell(EventId e, bool& created)
    {
        const std::size_t i = m_index.findOrAdd(e.index(), created);
        if (created) {
            m_calls.push_back(0);
            m_subrs.push_back(0);
            m_flags.push_back(0);
        }
        return i;
    }
    std::size_t size() const { return m_index.size(); }
    EventId event(std::size_t i) const { return EventId(m_index.id(i)); }

    bool hasCalls(std::size_t i) const { return m_flags[i] & CallsSet; }
    bool hasSubrs(std::size_t i) const { return m_flags[i] & SubrsSet; }
    double calls(std::size_t i) const { return m_calls[i]; }
    double subrs(std::size_t i) const { return m_subrs[i]; }
    void setCalls(std::size_t i, double v)
    {
        m_calls[i] = v;
        m_flags[i] |= CallsSet;
    }
    void setSubrs(std::size_t i, double v)
    {
        m_subrs[i] = v;
        m_flags[i] |= SubrsSet;
    }

    std::uint8_t metricFlags(std::size_t m, std::size_t i) const
    {
        return m < m_metrics.size() && i < m_metrics[m].flags.size() ? m_metrics[m].flags[i] : 0;
    }
    void setExclusive(std::size_t m, std::size_t i, double v) { set(m, i, v, &PerMetric::excl, ExclSet); }
    void setInclusive(std::size_t m, std::size_t i, double v) { set(m, i, v, &PerMetric::incl, InclSet); }
    void setSumExclSqr(std::size_t m, std::size_t i, double v)
    {
        set(m, i, v, &PerMetric::sqr, SqrSet);
        m_hasSqr = true;
    }
    bool hasSumExclSqr() const { return m_hasSqr; }

    /// The row with `metrics` metrics; values not given are 0. Cells stay in insertion order
    /// (TrialBuilder sorts them).
    IntervalRow finish(std::size_t metrics)
    {
        IntervalRow row;
        const std::size_t n = size();
        row.events.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            row.events.push_back(event(i));
        row.calls = std::move(m_calls);
        row.subrs = std::move(m_subrs);
        row.excl.assign(metrics * n, 0.0);
        row.incl.assign(metrics * n, 0.0);
        if (m_hasSqr && n > 0)
            row.exclSqr.assign(metrics * n, 0.0);
        for (std::size_t m = 0; m < metrics && m < m_metrics.size(); ++m) {
            const PerMetric& pm = m_metrics[m];
            std::copy(pm.excl.begin(), pm.excl.end(), row.excl.begin() + static_cast<std::ptrdiff_t>(m * n));
            std::copy(pm.incl.begin(), pm.incl.end(), row.incl.begin() + static_cast<std::ptrdiff_t>(m * n));
            if (!row.exclSqr.empty())
                std::copy(pm.sqr.begin(), pm.sqr.end(), row.exclSqr.begin() + static_cast<std::ptrdiff_t>(m * n));
        }
        m_metrics.clear();
        return row;
    }

private:
    struct PerMetric {
        std::vector<double> excl, incl, sqr;
        std::vector<std::uint8_t> flags;
    };
    void set(std::size_t m, std::size_t i, double v, std::vector<double> PerMetric::*member, std::uint8_t flag)
    {
        if (m >= m_metrics.size())
            m_metrics.resize(m + 1);
        PerMetric& pm = m_metrics[m];
        if (pm.flags.size() <= i) {
            const std::size_t n = std::max(i + 1, size());
            pm.excl.resize(n, 0.0);
            pm.incl.resize(n, 0.0);
            pm.sqr.resize(n, 0.0);
            pm.flags.resize(n, 0);
        }
        (pm.*member)[i] = v;
        pm.flags[i] |= flag;
    }

    CellIndex m_index;
    std::vector<double> m_calls, m_subrs;
    std::vector<std::uint8_t> m_flags;
    std::vector<PerMetric> m_metrics;
    bool m_hasSqr = false;
};

/// The same for atomic records.
class AtomicAssembler {
public:
    /// Adds a record; false when the row already has one for this event.
    bool add(AtomicEventId e, double count, double max, double min, double mean, double sumSquares)
    {
        bool created = false;
        m_index.findOrAdd(e.index(), created);
        if (!created)
            return false;
        m_row.append(e, count, max, min, mean, sumSquares);
        m_hasStdDev.push_back(0);
        m_stdDev.push_back(0);
        return true;
    }
    /// Sets the explicit standard deviation of the last record added.
    void setStdDev(double sd)
    {
        m_stdDev.back() = sd;
        m_hasStdDev.back() = 1;
        m_anyStdDev = true;
    }
    std::size_t size() const { return m_row.size(); }

    /// The row; when some record had an explicit deviation, the others get the one their sum of
    /// squares gives, so every record keeps its value.
    AtomicRow finish()
    {
        if (m_anyStdDev) {
            for (std::size_t i = 0; i < m_row.size(); ++i)
                if (!m_hasStdDev[i])
                    m_stdDev[i] = m_row.stddev(i);
            m_row.stdDev = std::move(m_stdDev);
        }
        return std::move(m_row);
    }

private:
    CellIndex m_index;
    AtomicRow m_row;
    std::vector<double> m_stdDev;
    std::vector<std::uint8_t> m_hasStdDev;
    bool m_anyStdDev = false;
};

} // namespace parallax
