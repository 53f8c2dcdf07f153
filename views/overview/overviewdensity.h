// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "views/overview/overviewbuilder.h"

#include <QLocale>
#include <QString>
#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

namespace parallax {

/// The overview's thread density mode (docs/SEMANTICS.md 2.2): when a trial has more threads than
/// the chart has pixel rows, one density row summarises a run of consecutive thread rows (in the
/// overview's current sort order) by the min, mean and max of each event over those threads.
struct OverviewDensity {
    /// One density row: thread rows [firstRow, lastRow) of the layout's thread part (0 is the first
    /// thread row after the statistic rows).
    struct Row {
        std::size_t firstRow = 0;
        std::size_t lastRow = 0;
        std::size_t threadCount() const { return lastRow - firstRow; }
    };
    /// The layout it summarises (same trial, metric, value type and event order).
    std::shared_ptr<const OverviewLayout> layout;
    std::vector<Row> rows;
    /// Per row and event (row-major, events in layout->order): an event absent on a thread counts
    /// as 0, as an absent segment in its bar does.
    std::vector<double> min;
    std::vector<double> mean;
    std::vector<double> max;
    /// What the overview draws (docs/SEMANTICS.md 2.2): the layout's statistic rows (pinned), then
    /// one compact row per density row: the stacked per-event means in the layout's bar coordinates,
    /// a whisker over the range of the run's thread bar ends (ranges), labelled by its first thread.
    std::shared_ptr<const BarListData> bars;

    /// Height in pixels of a drawn density row.
    static constexpr int RowPixels = 3;
    /// How many density rows fill `height` pixels of the chart (at least 1).
    static int pixelRowsFor(int height) { return height / RowPixels > 1 ? height / RowPixels : 1; }

    std::size_t eventCount() const { return layout ? layout->order.size() : 0; }
    std::size_t index(std::size_t row, std::size_t event) const { return row * eventCount() + event; }

    /// Whether the overview starts in density mode: more threads than pixel rows for them.
    static bool wanted(std::size_t threads, int pixelRows)
    {
        return pixelRows > 0 && threads > static_cast<std::size_t>(pixelRows);
    }
    /// Splits the layout's thread rows into at most pixelRows runs of (nearly) equal size and
    /// computes their aggregates; O(threads × their events), so it runs on a worker. nullptr when
    /// cancelled or the layout has no thread rows.
    static std::shared_ptr<const OverviewDensity> build(
        const std::shared_ptr<const OverviewLayout>& layout, int pixelRows, const std::atomic_bool* cancel = nullptr);
    /// The hover text of a density row and event: the thread range (first and last thread's n,c,t
    /// label and their number) and the event's min/mean/max, or only the range when event is past
    /// the event count.
    QString toolTip(std::size_t row, std::size_t event, TimeUnit unit, const QLocale& locale) const;
    /// The density row of a row of bars (nullopt for the pinned statistic rows).
    std::optional<std::size_t> densityRow(int barRow) const;
    /// The index in layout->order of an event, or eventCount() when it is not shown.
    std::size_t eventIndex(EventId event) const;
};

} // namespace parallax
