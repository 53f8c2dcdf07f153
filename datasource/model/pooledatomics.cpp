// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/model/pooledatomics.h"

#include <algorithm>
#include <iterator>
#include <tuple>

namespace parallax {

namespace {

bool before(const PooledAtomicCell& a, const PooledAtomicCell& b)
{
    return std::tie(a.thread, a.event) < std::tie(b.thread, b.event);
}

} // namespace

PooledAtomicCells::PooledAtomicCells(std::vector<PooledAtomicCell> cells)
    : m_cells(std::move(cells))
{
    std::sort(m_cells.begin(), m_cells.end(), before);
}

std::uint32_t PooledAtomicCells::records(ThreadIndex thread, AtomicEventId event) const
{
    const PooledAtomicCell key { thread, event, 0 };
    const auto it = std::lower_bound(m_cells.begin(), m_cells.end(), key, before);
    return it != m_cells.end() && it->thread == thread && it->event == event ? it->records : 0;
}

std::vector<PooledAtomicCell> PooledAtomicCells::cellsOf(AtomicEventId event) const
{
    std::vector<PooledAtomicCell> out;
    std::copy_if(m_cells.begin(), m_cells.end(), std::back_inserter(out),
        [event](const PooledAtomicCell& c) { return c.event == event; });
    return out;
}

} // namespace parallax
