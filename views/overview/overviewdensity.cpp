// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/overview/overviewdensity.h"

#include "algebra/parallelfor.h"
#include "algebra/statistics.h"
#include "views/overview/valuetext.h"

#include <QObject>
#include <algorithm>
#include <atomic>
#include <limits>

namespace parallax {

namespace {

/// The density rows' bars, in the layout's scale and mode: per run, each event's mean segment
/// length (signed: left of the origin is negative), stacked in the layout's event order from the
/// origin (unstacked: in the event's column), and the range of the run's bar ends as a whisker.
/// Stacked: the lengths are the runs' mean values (`mean`, row-major) in the layout's scale, so the
/// thread rows need no segments; the other modes average the thread rows' segments (O(threads ×
/// their segments)). On the density's worker.
std::shared_ptr<const BarListData> drawDensity(const OverviewLayout& layout,
    const std::vector<OverviewDensity::Row>& runs, const std::vector<std::int32_t>& rank,
    const std::vector<double>& means)
{
    const BarListData& source = *layout.bars;
    const std::size_t pinned = layout.statistics.size();
    auto bars = std::make_shared<BarListData>();
    bars->colors = source.colors;
    bars->guides = source.guides;
    bars->origin = source.origin;
    bars->labelAlignment = source.labelAlignment;
    bars->pinnedRows = pinned;
    bars->itemHeight = OverviewDensity::RowPixels;
    for (std::size_t r = 0; r < pinned && r < source.rows.size(); ++r) {
        BarRow row = source.rows[r];
        const std::uint32_t first = row.firstSegment;
        row.firstSegment = static_cast<std::uint32_t>(bars->segments.size());
        bars->segments.insert(
            bars->segments.end(), source.segments.begin() + first, source.segments.begin() + first + row.segmentCount);
        bars->rows.push_back(std::move(row));
    }
    bars->ranges.assign(pinned, { 0.0f, 0.0f });
    const std::size_t events = layout.order.size();
    const bool unstacked = layout.mode == OverviewMode::Unstacked;
    const bool fromMeans = layout.mode == OverviewMode::Stacked;
    std::vector<double> length(events);
    std::vector<float> column(events);
    for (std::size_t d = 0; d < runs.size(); ++d) {
        const OverviewDensity::Row& run = runs[d];
        std::fill(length.begin(), length.end(), 0.0);
        float lo = std::numeric_limits<float>::infinity();
        float hi = -std::numeric_limits<float>::infinity();
        if (fromMeans)
            for (std::size_t i = 0; i < events; ++i)
                length[i] = means[d * events + i] / layout.valueSpan;
        for (std::size_t r = pinned + run.firstRow; r < pinned + run.lastRow; ++r) {
            const BarRow& row = source.rows[r];
            lo = std::min(lo, row.end);
            hi = std::max(hi, row.end);
            if (fromMeans)
                continue;
            for (std::uint32_t k = row.firstSegment; k < row.firstSegment + row.segmentCount; ++k) {
                const BarSegment& s = source.segments[k];
                const std::int32_t e = s.key < rank.size() ? rank[s.key] : -1;
                if (e < 0)
                    continue;
                const auto i = static_cast<std::size_t>(e);
                column[i] = s.x0;
                length[i] += s.x0 < bars->origin && !unstacked ? s.x0 - s.x1 : s.x1 - s.x0;
            }
        }
        BarRow row;
        row.label = layout.trial->threadKey(ThreadIndex(source.rows[pinned + run.firstRow].id)).toString();
        row.id = static_cast<std::uint32_t>(bars->rows.size() - pinned);
        row.firstSegment = static_cast<std::uint32_t>(bars->segments.size());
        double positive = bars->origin;
        double negative = bars->origin;
        const auto n = static_cast<double>(run.threadCount());
        for (std::size_t i = 0; i < events; ++i) {
            const double mean = fromMeans ? length[i] : length[i] / n;
            if (mean == 0)
                continue;
            BarSegment s;
            s.key = layout.order[i].index();
            if (unstacked) {
                s.x0 = column[i];
                s.x1 = static_cast<float>(column[i] + mean);
            } else if (mean > 0) {
                s.x0 = static_cast<float>(positive);
                positive += mean;
                s.x1 = static_cast<float>(positive);
            } else {
                s.x1 = static_cast<float>(negative);
                negative += mean;
                s.x0 = static_cast<float>(negative);
            }
            row.end = std::max(row.end, s.x1);
            bars->segments.push_back(s);
        }
        row.segmentCount = static_cast<std::uint32_t>(bars->segments.size()) - row.firstSegment;
        row.end = std::max(row.end, bars->origin);
        bars->rows.push_back(std::move(row));
        bars->ranges.emplace_back(lo, hi);
    }
    return bars;
}

} // namespace

std::shared_ptr<const OverviewDensity> OverviewDensity::build(
    const std::shared_ptr<const OverviewLayout>& layout, int pixelRows, const std::atomic_bool* cancel)
{
    if (!layout || !layout->trial || pixelRows <= 0 || !layout->metric.isValid())
        return nullptr;
    const Trial& trial = *layout->trial;
    const std::size_t threads = layout->rowOfThread.size();
    if (threads == 0)
        return nullptr;
    // Thread at each thread row (the rows after the statistic rows, in sort order).
    const std::size_t firstThreadRow = layout->statistics.size();
    std::vector<ThreadIndex> threadAt(threads);
    for (std::size_t t = 0; t < threads; ++t) {
        const int row = layout->rowOfThread[t];
        if (row < 0 || static_cast<std::size_t>(row) < firstThreadRow
            || static_cast<std::size_t>(row) - firstThreadRow >= threads)
            return nullptr;
        threadAt[static_cast<std::size_t>(row) - firstThreadRow] = ThreadIndex(t);
    }
    const auto stats = TrialStatistics::of(trial);
    auto density = std::make_shared<OverviewDensity>();
    density->layout = layout;
    const std::size_t rowCount = std::min(threads, static_cast<std::size_t>(pixelRows));
    const std::size_t events = layout->order.size();
    std::vector<std::int32_t> rank(trial.eventCount(), -1);
    for (std::size_t r = 0; r < events; ++r)
        rank[layout->order[r].index()] = static_cast<std::int32_t>(r);
    density->rows.resize(rowCount);
    density->min.assign(rowCount * events, std::numeric_limits<double>::infinity());
    density->mean.assign(rowCount * events, 0.0);
    density->max.assign(rowCount * events, -std::numeric_limits<double>::infinity());
    // Density rows are independent: in blocks on the pool's threads (parallelFor), each worker with
    // its own presence counts.
    constexpr std::size_t Block = 8;
    std::vector<std::vector<std::size_t>> presentOf(parallelWorkers(rowCount, Block, 0));
    std::atomic_bool stopped { false };
    parallelFor(rowCount, Block, 0, [&](std::size_t from, std::size_t to, std::size_t worker) {
        std::vector<std::size_t>& present = presentOf[worker];
        present.resize(events);
        for (std::size_t d = from; d < to; ++d) {
            if (stopped.load(std::memory_order_relaxed) || (cancel && cancel->load(std::memory_order_relaxed))) {
                stopped = true;
                return;
            }
            // Equal shares: row d covers [d·T/R, (d+1)·T/R).
            Row& row = density->rows[d];
            row.firstRow = d * threads / rowCount;
            row.lastRow = (d + 1) * threads / rowCount;
            std::fill(present.begin(), present.end(), 0);
            double* mn = density->min.data() + d * events;
            double* sum = density->mean.data() + d * events;
            double* mx = density->max.data() + d * events;
            for (std::size_t r = row.firstRow; r < row.lastRow; ++r) {
                const ThreadIndex ti = threadAt[r];
                const RowView data = trial.row(ti);
                for (std::size_t i = 0; i < data.size(); ++i) {
                    const std::int32_t k = rank[data.events[i].index()];
                    if (k < 0)
                        continue;
                    const auto e = static_cast<std::size_t>(k);
                    const double v = cellValue(data, *stats, ti, i, layout->metric, layout->valueType);
                    mn[e] = std::min(mn[e], v);
                    mx[e] = std::max(mx[e], v);
                    sum[e] += v;
                    ++present[e];
                }
            }
            const std::size_t n = row.threadCount();
            for (std::size_t e = 0; e < events; ++e) {
                // A thread without the event has a 0-length segment: it takes part as 0.
                if (present[e] < n) {
                    mn[e] = std::min(mn[e], 0.0);
                    mx[e] = std::max(mx[e], 0.0);
                }
                sum[e] /= static_cast<double>(n);
            }
        }
    });
    if (stopped)
        return nullptr;
    density->bars = drawDensity(*layout, density->rows, rank, density->mean);
    return density;
}

std::optional<std::size_t> OverviewDensity::densityRow(int barRow) const
{
    if (!layout || barRow < 0)
        return std::nullopt;
    const std::size_t pinned = layout->statistics.size();
    const auto r = static_cast<std::size_t>(barRow);
    if (r < pinned || r - pinned >= rows.size())
        return std::nullopt;
    return r - pinned;
}

std::size_t OverviewDensity::eventIndex(EventId event) const
{
    if (layout)
        for (std::size_t i = 0; i < layout->order.size(); ++i)
            if (layout->order[i] == event)
                return i;
    return eventCount();
}

QString OverviewDensity::toolTip(std::size_t row, std::size_t event, TimeUnit unit, const QLocale& locale) const
{
    if (!layout || row >= rows.size())
        return {};
    const Trial& trial = *layout->trial;
    const std::size_t firstThreadRow = layout->statistics.size();
    const Row& r = rows[row];
    // The thread shown at a thread row: the layout's row ids (O(1), for hovering on the GUI thread).
    const auto threadAt = [&](std::size_t at) {
        const std::size_t barRow = firstThreadRow + at;
        return layout->bars && barRow < layout->bars->rows.size() ? ThreadIndex(layout->bars->rows[barRow].id)
                                                                  : ThreadIndex();
    };
    const ThreadIndex first = threadAt(r.firstRow);
    const ThreadIndex last = threadAt(r.lastRow - 1);
    QString text = QObject::tr("Threads %1 … %2 (%3 threads, rows %4–%5)")
                       .arg(first.isValid() ? trial.threadKey(first).toString() : QString(),
                           last.isValid() ? trial.threadKey(last).toString() : QString(),
                           locale.toString(static_cast<qulonglong>(r.threadCount())),
                           locale.toString(static_cast<qulonglong>(r.firstRow) + 1),
                           locale.toString(static_cast<qulonglong>(r.lastRow)));
    if (event >= eventCount())
        return text;
    const Metric& metric = trial.metric(layout->metric);
    const std::size_t i = index(row, event);
    const auto fmt = [&](double v) { return valueText(v, metric, layout->valueType, unit, locale); };
    return text + QLatin1Char('\n')
        + QObject::tr("%1: min %2, mean %3, max %4")
              .arg(trial.event(layout->order[event]).name, fmt(min[i]), fmt(mean[i]), fmt(max[i]));
}

} // namespace parallax
