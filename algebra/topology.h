// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// Where a trial's locations sit: Cartesian grids for the topology view (issue 15, docs/SEMANTICS.md
// §6). Sources, in the order topologies() returns them:
// * the CUBE <cart> topologies the reader keeps (trial metadata "CUBE topology K" and per-thread
//   "CUBE coordinates K", docs/FORMATS.md §5), more than 3 dims folded into z (row-major);
// * TAU's physical coordinates per thread (what TAU's metadata module records): Cray
//   network coordinates CRAY_PMI_X/Y/Z; the Cray cabinet position CRAY_TOPO_COLUMN_ID, ROW_ID,
//   CAGE_ID, SLOT_ID, NODE_ID as x = column, y = cage · slots + slot, z = row · nodes + node; Blue
//   Gene torus coordinates "BGL Coords", "BGP Coords", "BGQ Coords" ("(x,y,z)"); extents are the
//   largest coordinate + 1;
// * the default: a near-square 2D grid by thread index (columns = ceil(sqrt(n))).
// userGrid() builds the grid a user chooses. Several threads may share a cell (ranks of one node).

#include "datasource/model/trial.h"

#include <QString>
#include <QStringList>
#include <array>
#include <optional>
#include <vector>

namespace parallax {

struct Topology {
    enum class Source : std::uint8_t { Cube, Physical, User, Default };
    QString name;
    Source source = Source::Default;
    /// Extent of x, y, z (each >= 1).
    std::array<int, 3> dims { 1, 1, 1 };
    std::array<QString, 3> axisNames; ///< "" when the source names none
    std::array<bool, 3> periodic { false, false, false };
    /// By thread index: the cell, or {-1, -1, -1} when the topology does not place the thread.
    std::vector<std::array<int, 3>> coords;

    std::size_t cellCount() const
    {
        return static_cast<std::size_t>(dims[0]) * static_cast<std::size_t>(dims[1])
            * static_cast<std::size_t>(dims[2]);
    }
    bool placed(ThreadIndex t) const { return coords[t.index()][0] >= 0; }
    /// x + dims.x · (y + dims.y · z), or -1 when the thread is not placed.
    long long cellOf(ThreadIndex t) const
    {
        const auto& c = coords[t.index()];
        if (c[0] < 0)
            return -1;
        return c[0] + static_cast<long long>(dims[0]) * (c[1] + static_cast<long long>(dims[1]) * c[2]);
    }
    std::size_t placedCount() const;
};

/// Every topology of a trial: the CUBE ones, the physical ones, and last the default grid (always
/// present, so the result is never empty for a trial with threads).
std::vector<Topology> topologies(const Trial& trial);

/// The near-square 2D grid by thread index.
Topology defaultGrid(const Trial& trial);

/// A grid the user chooses: `dims` (a 0 is computed from the thread count and the others) and
/// `order`, a permutation of "xyz" naming the axes from the fastest-varying (e.g. "xyz": thread i at
/// x = i mod X; "yxz": down the columns first). nullopt with `error` set for a bad order or dims
/// too small for the threads.
std::optional<Topology> userGrid(
    const Trial& trial, std::array<int, 3> dims, const QString& order, QString* error = nullptr);

} // namespace parallax
