// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/ids.h"

#include <cstdint>
#include <vector>

namespace parallax {

/// A (thread, user event) cell whose record was pooled from more than one record of the source
/// (a user event line repeated in a TAU profile, a user event defined twice under one name in a
/// snapshot or ppk file...). The cell holds the pooled record (docs/SEMANTICS.md 1.5: counts
/// summed, the smallest min, the largest max, the count-weighted mean, the sums of squares added);
/// `records` says how many records went into it (2 or more).
struct PooledAtomicCell {
    ThreadIndex thread;
    AtomicEventId event;
    std::uint32_t records = 0;
};

/// The cells of a trial that TrialBuilder::build() pooled from several records, sorted by
/// (thread, event): Trial::pooledAtomicCells(), filled by the builder while it pools the rows (every
/// reader's rows go through it). Empty for a trial whose every cell came from one record, which is
/// the usual case, and for a trial made without the builder seeing the duplicates (the database,
/// the algebra).
class PooledAtomicCells {
public:
    PooledAtomicCells() = default;
    explicit PooledAtomicCells(std::vector<PooledAtomicCell> cells);

    const std::vector<PooledAtomicCell>& cells() const { return m_cells; }
    bool empty() const { return m_cells.empty(); }
    /// How many records went into the cell (thread, event); 0 when it is not a pooled cell (absent,
    /// or read from one record).
    std::uint32_t records(ThreadIndex thread, AtomicEventId event) const;
    /// The pooled cells of one user event, by thread.
    std::vector<PooledAtomicCell> cellsOf(AtomicEventId event) const;

private:
    std::vector<PooledAtomicCell> m_cells;
};

} // namespace parallax
