// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The columns of Parallax's CSV layout, shared by the writer that writes them and the reader that reads
// them (the layout is described at the top of datasource/writers/csvwriter.cpp).
#pragma once

namespace parallax::csv {

/// The 21 columns of the layout in file order (ParallaxColumnCount of them), then the columns of a
/// Hatchet dataframe that the reader also takes (up to ColumnCount).
enum Column {
    Kind,
    Node,
    Context,
    ThreadCol,
    Event,
    Groups,
    MetricCol,
    Units,
    Exclusive,
    Inclusive,
    Calls,
    Subroutines,
    SumExclSqr,
    Count,
    Max,
    Min,
    Mean,
    SumSquares,
    StdDev,
    Name,
    Value,
    ParallaxColumnCount,
    // Hatchet's dataframe
    HatchetTimeInc = ParallaxColumnCount,
    HatchetTime,
    HatchetNid,
    ColumnCount
};

} // namespace parallax::csv
