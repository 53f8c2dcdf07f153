// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/overview/overviewbuilder.h"

#include "algebra/parallelfor.h"
#include "algebra/statistics.h"
#include "views/charts/colors.h"
#include "views/overview/valuetext.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace parallax {

namespace {

struct Cell {
    std::int32_t rank;
    double value;
};

/// The values of one row as segments in value units: stacked modes accumulate from the origin
/// (positive values right, negative left), unstacked keeps the raw value in x1 for a second
/// pass that knows the column widths.
struct RowBuilder {
    OverviewMode mode;
    const std::vector<EventId>& order;

    /// Writes the row's segments, one per cell, to `out` (none when it is null); returns the sum of
    /// the values and (for stacked bars) the positive and negative extents.
    double add(const std::vector<Cell>& cells, double& positive, double& negative, BarSegment* out) const
    {
        double total = 0;
        positive = 0;
        negative = 0;
        double magnitude = 0;
        for (const Cell& c : cells)
            magnitude += std::fabs(c.value);
        double cumulative = 0;
        for (const Cell& c : cells) {
            BarSegment s;
            s.key = order[static_cast<std::size_t>(c.rank)].index();
            const double v = c.value;
            total += v;
            switch (mode) {
            case OverviewMode::Stacked:
                if (v >= 0) {
                    s.x0 = static_cast<float>(positive);
                    positive += v;
                    s.x1 = static_cast<float>(positive);
                } else {
                    s.x1 = static_cast<float>(negative);
                    negative += v;
                    s.x0 = static_cast<float>(negative);
                }
                break;
            case OverviewMode::Normalised:
                s.x0 = magnitude > 0 ? static_cast<float>(cumulative / magnitude) : 0.0f;
                cumulative += std::fabs(v);
                s.x1 = magnitude > 0 ? static_cast<float>(cumulative / magnitude) : 0.0f;
                break;
            case OverviewMode::Unstacked:
                s.x0 = 0;
                s.x1 = static_cast<float>(v);
                break;
            }
            if (out)
                *out++ = s;
        }
        return total;
    }

    /// add() for `row`, its segments placed at `first` in `segments` (which has room for them), or
    /// the sums alone for a row without segments (`withSegments` false).
    double addRow(BarRow& row, const std::vector<Cell>& cells, double& positive, double& negative,
        std::vector<BarSegment>& segments, std::size_t first, bool withSegments = true) const
    {
        row.firstSegment = withSegments ? static_cast<std::uint32_t>(first) : 0;
        row.segmentCount = withSegments ? static_cast<std::uint32_t>(cells.size()) : 0;
        return add(cells, positive, negative, withSegments ? segments.data() + first : nullptr);
    }
};

bool cancelled(const std::atomic_bool* cancel) { return cancel && cancel->load(std::memory_order_relaxed); }

} // namespace

bool OverviewBuilder::isStackable(const Trial& trial, EventId event)
{
    const IntervalEvent& e = trial.event(event);
    return !e.isCallPath() || !e.leaf.isValid();
}

std::vector<Statistic> OverviewBuilder::statisticRows(bool withTotal)
{
    if (withTotal)
        return inStatisticOrder(
            { Statistic::MeanAll, Statistic::Min, Statistic::Max, Statistic::StdDevAll, Statistic::Total });
    return inStatisticOrder({ Statistic::MeanAll, Statistic::Min, Statistic::Max, Statistic::StdDevAll });
}

QString OverviewBuilder::rowLabel(Statistic statistic)
{
    switch (statistic) {
    case Statistic::Min:
        return QObject::tr("Min thread");
    case Statistic::Max:
        return QObject::tr("Max thread");
    default:
        return statisticName(statistic);
    }
}

std::shared_ptr<const OverviewLayout> OverviewBuilder::build(
    const OverviewRequest& request, const std::atomic_bool* cancel)
{
    auto layout = std::make_shared<OverviewLayout>();
    auto bars = std::make_shared<BarListData>();
    layout->trial = request.trial;
    layout->mode = request.mode;
    layout->metric = request.metric;
    if (!request.trial || !request.metric.isValid() || request.metric.index() >= request.trial->metricCount()) {
        layout->bars = bars;
        return layout;
    }
    const Trial& trial = *request.trial;
    const auto stats = TrialStatistics::of(trial);
    if (cancelled(cancel))
        return nullptr;
    const MetricId m = request.metric;
    const ValueType type
        = request.mode == OverviewMode::Unstacked ? request.valueType : stackableValueType(request.valueType);
    layout->valueType = type;
    const Metric& metric = trial.metric(m);

    // Segment order: events by their mean, largest first, so colours line up from bar to bar.
    const std::size_t eventCount = trial.eventCount();
    std::vector<double> mean;
    std::vector<EventId>& order = layout->order;
    for (std::size_t i = 0; i < eventCount; ++i) {
        const EventId e(i);
        const bool shown = request.visible.empty() ? isStackable(trial, e) : request.visible[i] != 0;
        if (shown)
            order.push_back(e);
    }
    mean.resize(eventCount, 0.0);
    for (EventId e : order)
        mean[e.index()] = statisticValue(trial, *stats, e, m, type, Statistic::MeanAll).value_or(0.0);
    EventId sortEvent = request.sortEvent;
    if (request.sort == OverviewSort::Imbalance) {
        // The time perfect balance would save, max - mean, ranks the events; the most imbalanced one
        // orders the threads and its segments come first.
        double worst = -std::numeric_limits<double>::infinity();
        for (EventId e : order) {
            const double excess = statisticValue(trial, *stats, e, m, type, Statistic::Max).value_or(0.0)
                - statisticValue(trial, *stats, e, m, type, Statistic::MeanAll).value_or(0.0);
            if (excess > worst) {
                worst = excess;
                sortEvent = e;
            }
        }
        if (sortEvent.isValid() && !order.empty())
            mean[sortEvent.index()] = std::numeric_limits<double>::infinity();
        layout->imbalanceEvent = sortEvent;
    }
    std::stable_sort(order.begin(), order.end(), [&](EventId a, EventId b) {
        return mean[a.index()] > mean[b.index()] || (mean[a.index()] == mean[b.index()] && a < b);
    });
    std::vector<std::int32_t> rank(eventCount, -1);
    for (std::size_t r = 0; r < order.size(); ++r)
        rank[order[r].index()] = static_cast<std::int32_t>(r);
    bars->colors.assign(eventCount, 0xff808080u);
    for (EventId e : order)
        bars->colors[e.index()] = eventColor(trial, e).rgb();

    const bool unstacked = request.mode == OverviewMode::Unstacked;
    layout->statistics = statisticRows(request.showTotal && !unstacked);
    const std::size_t statRows = layout->statistics.size();
    const std::size_t threads = trial.threadCount();
    const bool compact = !request.threadSegments && request.mode == OverviewMode::Stacked;
    layout->threadSegments = !compact;
    bars->segments.reserve((compact ? 0 : trial.cellCount()) + statRows * order.size());
    RowBuilder builder { request.mode, order };

    std::vector<BarRow> statistics(statRows);
    std::vector<BarRow> threadRows(threads);
    std::vector<double> statTotals(statRows), threadTotals(threads);
    std::vector<double> sortKey(threads, std::numeric_limits<double>::quiet_NaN());
    double lo = 0;
    double hi = 0;
    std::vector<Cell> cells;
    cells.reserve(order.size());

    // Statistic rows first. Min and Max rows are filled with their thread's bar below; the Total
    // row is a number only (N times the mean would need a scale of its own no other row shares).
    layout->statisticThreads.assign(statRows, ThreadIndex());
    for (std::size_t s = 0; s < statRows; ++s) {
        const Statistic statistic = layout->statistics[s];
        cells.clear();
        // Unstacked columns are independent bars: there each column's minimum is honest.
        const bool threadRow = !unstacked && OverviewBuilder::isThreadRow(statistic);
        const bool drawn = !threadRow && statistic != Statistic::Total;
        double sum = 0;
        for (std::size_t r = 0; r < order.size(); ++r) {
            if (const auto v = statisticValue(trial, *stats, order[r], m, type, statistic)) {
                sum += *v;
                if (drawn)
                    cells.push_back({ static_cast<std::int32_t>(r), *v });
            }
        }
        BarRow& row = statistics[s];
        row.label = unstacked ? statisticName(statistic) : rowLabel(statistic);
        row.kind = BarRowKind::Summary;
        row.id = static_cast<std::uint32_t>(statistic);
        double positive = 0;
        double negative = 0;
        const std::size_t first = bars->segments.size();
        bars->segments.resize(first + cells.size());
        builder.addRow(row, cells, positive, negative, bars->segments, first);
        statTotals[s] = sum;
        lo = std::min(lo, negative);
        hi = std::max(hi, positive);
    }

    // One row per thread; cells come sorted by event id and are put in segment order. The rows'
    // segment counts come first, so that every thread has its place in the segments, then the rows
    // are built in blocks on the pool's threads (131,072 threads × 101 events: 0.6 s on one core).
    const bool keyed = (request.sort == OverviewSort::SelectedEvent || request.sort == OverviewSort::Imbalance)
        && sortEvent.isValid() && sortEvent.index() < eventCount;
    constexpr std::size_t ThreadBlock = 512;
    std::vector<std::size_t> firstSegment(threads + 1, 0);
    parallelFor(compact ? 0 : threads, ThreadBlock * 8, 0, [&](std::size_t from, std::size_t to, std::size_t) {
        for (std::size_t t = from; t < to; ++t) {
            const RowView data = trial.row(ThreadIndex(t));
            std::size_t n = 0;
            for (std::size_t i = 0; i < data.size(); ++i)
                n += rank[data.events[i].index()] >= 0 ? 1 : 0;
            firstSegment[t + 1] = n;
        }
    });
    firstSegment[0] = bars->segments.size();
    std::partial_sum(firstSegment.begin(), firstSegment.end(), firstSegment.begin());
    bars->segments.resize(firstSegment[threads]);
    const std::size_t workers = parallelWorkers(threads, ThreadBlock, 0);
    std::vector<std::vector<Cell>> cellsOf(workers);
    std::vector<double> loOf(workers, 0.0);
    std::vector<double> hiOf(workers, 0.0);
    // Without segments a row's end is its positive extent, kept here until the scale is known.
    std::vector<float> positiveEnd(compact ? threads : 0);
    // A thread's shown cells in segment order.
    const auto gather = [&](ThreadIndex ti, std::vector<Cell>& row) {
        const RowView data = trial.row(ti);
        row.clear();
        for (std::size_t i = 0; i < data.size(); ++i) {
            const std::int32_t r = rank[data.events[i].index()];
            if (r >= 0)
                row.push_back({ r, cellValue(data, *stats, ti, i, m, type) });
        }
        std::sort(row.begin(), row.end(), [](const Cell& a, const Cell& b) { return a.rank < b.rank; });
        return data;
    };
    std::atomic_bool stopped { false };
    parallelFor(threads, ThreadBlock, 0, [&](std::size_t from, std::size_t to, std::size_t worker) {
        if (stopped.load(std::memory_order_relaxed) || cancelled(cancel)) {
            stopped = true;
            return;
        }
        std::vector<Cell>& row = cellsOf[worker];
        for (std::size_t t = from; t < to; ++t) {
            const ThreadIndex ti(t);
            const RowView data = gather(ti, row);
            if (keyed) {
                const auto i = data.find(sortEvent);
                if (i >= 0)
                    sortKey[t] = cellValue(data, *stats, ti, static_cast<std::size_t>(i), m, type);
            }
            BarRow& bar = threadRows[t];
            bar.label = trial.threadKey(ti).toString();
            bar.id = static_cast<std::uint32_t>(t);
            double positive = 0;
            double negative = 0;
            threadTotals[t] = builder.addRow(bar, row, positive, negative, bars->segments, firstSegment[t], !compact);
            if (compact)
                positiveEnd[t] = static_cast<float>(positive); // as a segment's x1 would hold it
            loOf[worker] = std::min(loOf[worker], negative);
            hiOf[worker] = std::max(hiOf[worker], positive);
            if (request.sort == OverviewSort::BarTotal)
                sortKey[t] = threadTotals[t];
        }
    });
    if (stopped || cancelled(cancel))
        return nullptr;
    lo = std::min(lo, *std::min_element(loOf.begin(), loOf.end()));
    hi = std::max(hi, *std::max_element(hiOf.begin(), hiOf.end()));

    // The Min and Max rows are the shortest and the longest thread bar (by the sum of the bar), as
    // that thread has it: a stack of per-event minima or maxima is no thread's bar.
    if (threads > 0 && !unstacked) {
        std::size_t shortest = 0;
        std::size_t longest = 0;
        for (std::size_t t = 1; t < threads; ++t) {
            if (threadTotals[t] < threadTotals[shortest])
                shortest = t;
            if (threadTotals[t] > threadTotals[longest])
                longest = t;
        }
        for (std::size_t s = 0; s < statRows; ++s) {
            const Statistic statistic = layout->statistics[s];
            if (!OverviewBuilder::isThreadRow(statistic))
                continue;
            const std::size_t t = statistic == Statistic::Min ? shortest : longest;
            BarRow& row = statistics[s];
            const BarRow& source = threadRows[t];
            row.firstSegment = static_cast<std::uint32_t>(bars->segments.size());
            if (compact) {
                // The thread rows have no segments: this row's are built again from the trial.
                double positive = 0;
                double negative = 0;
                gather(ThreadIndex(t), cells);
                bars->segments.resize(row.firstSegment + cells.size());
                builder.addRow(row, cells, positive, negative, bars->segments, row.firstSegment);
            } else {
                for (std::uint32_t k = source.firstSegment; k < source.firstSegment + source.segmentCount; ++k) {
                    const BarSegment copy = bars->segments[k]; // push_back may reallocate
                    bars->segments.push_back(copy);
                }
                row.segmentCount = source.segmentCount;
            }
            statTotals[s] = threadTotals[t];
            layout->statisticThreads[s] = ThreadIndex(t);
        }
    }

    // From value units to bar coordinates.
    auto& segments = bars->segments;
    const auto scaleRows
        = [&segments](std::vector<BarRow>& rows, std::size_t from, std::size_t to, double a, double b) {
              const double span = b - a > 0 ? b - a : 1.0;
              for (std::size_t i = from; i < to; ++i)
                  for (std::uint32_t k = rows[i].firstSegment; k < rows[i].firstSegment + rows[i].segmentCount; ++k) {
                      segments[k].x0 = static_cast<float>((segments[k].x0 - a) / span);
                      segments[k].x1 = static_cast<float>((segments[k].x1 - a) / span);
                  }
          };
    if (request.mode == OverviewMode::Stacked) {
        scaleRows(statistics, 0, statRows, lo, hi);
        parallelFor(threads, ThreadBlock * 8, 0,
            [&](std::size_t from, std::size_t to, std::size_t) { scaleRows(threadRows, from, to, lo, hi); });
        bars->origin = hi - lo > 0 ? static_cast<float>(-lo / (hi - lo)) : 0.0f;
        layout->valueLow = lo;
        layout->valueSpan = hi - lo > 0 ? hi - lo : 1.0;
    } else if (unstacked) {
        // Column widths follow each event's largest magnitude over all rows.
        std::vector<double> columnMax(order.size(), 0.0);
        for (const BarSegment& s : segments) {
            const std::int32_t r = rank[s.key];
            columnMax[static_cast<std::size_t>(r)]
                = std::max(columnMax[static_cast<std::size_t>(r)], std::fabs(static_cast<double>(s.x1)));
        }
        const double sum = std::accumulate(columnMax.begin(), columnMax.end(), 0.0);
        const std::size_t columns = static_cast<std::size_t>(
            std::count_if(columnMax.begin(), columnMax.end(), [](double v) { return v > 0; }));
        const double gap = columns > 1 ? std::min(0.004, 0.15 / static_cast<double>(columns)) : 0.0;
        const double usable = 1.0 - gap * static_cast<double>(columns > 0 ? columns - 1 : 0);
        std::vector<double> start(order.size(), 0.0);
        std::vector<double> width(order.size(), 0.0);
        double x = 0;
        for (std::size_t r = 0; r < order.size(); ++r) {
            start[r] = x;
            if (columnMax[r] <= 0 || sum <= 0)
                continue;
            width[r] = usable * columnMax[r] / sum;
            x += width[r] + gap;
            if (x < 1.0)
                bars->guides.push_back(static_cast<float>(x - gap / 2));
        }
        for (BarSegment& s : segments) {
            const auto r = static_cast<std::size_t>(rank[s.key]);
            const double fraction = columnMax[r] > 0 ? std::fabs(static_cast<double>(s.x1)) / columnMax[r] : 0.0;
            s.x0 = static_cast<float>(start[r]);
            s.x1 = static_cast<float>(start[r] + fraction * width[r]);
        }
    }

    // Row ends and texts.
    const auto finishRow = [&](BarRow& row, double total, const QLocale& locale) {
        row.end = bars->origin;
        for (std::uint32_t k = row.firstSegment; k < row.firstSegment + row.segmentCount; ++k)
            row.end = std::max(row.end, segments[k].x1);
        if (request.showValues && !unstacked)
            row.text = valueText(total, metric, type, request.timeUnit, locale);
    };
    for (std::size_t s = 0; s < statRows; ++s) {
        finishRow(statistics[s], statTotals[s], request.locale);
        const Statistic statistic = layout->statistics[s];
        if (statistic == Statistic::Total && !unstacked)
            statistics[s].text = QObject::tr("Σ %1 over %2 threads (number only, not drawn to scale)")
                                     .arg(valueText(statTotals[s], metric, type, request.timeUnit, request.locale))
                                     .arg(request.locale.toString(static_cast<qulonglong>(threads)));
        else if (OverviewBuilder::isThreadRow(statistic) && layout->statisticThreads[s].isValid()
            && !statistics[s].text.isEmpty())
            statistics[s].text += QStringLiteral("  (%1)").arg(trial.threadKey(layout->statisticThreads[s]).toString());
        else if (statistic == Statistic::StdDevAll && !unstacked && !statistics[s].text.isEmpty() && threads > 0) {
            // The segments are each event's deviation; their sum is not the deviation of the bars.
            double mean = 0;
            for (double v : threadTotals)
                mean += v;
            mean /= static_cast<double>(threads);
            double deviation = 0;
            for (double v : threadTotals)
                deviation += (v - mean) * (v - mean);
            deviation = std::sqrt(deviation / static_cast<double>(threads));
            statistics[s].text
                = QObject::tr("Σ of the events' %1; of the bars %2")
                      .arg(statistics[s].text, valueText(deviation, metric, type, request.timeUnit, request.locale));
        }
    }
    parallelFor(threads, ThreadBlock, 0, [&](std::size_t from, std::size_t to, std::size_t) {
        if (stopped.load(std::memory_order_relaxed) || cancelled(cancel)) {
            stopped = true;
            return;
        }
        const QLocale locale = request.locale; // each worker formats with its own copy
        for (std::size_t t = from; t < to; ++t) {
            finishRow(threadRows[t], threadTotals[t], locale);
            if (compact && positiveEnd[t] > 0) // where the scaled x1 of its last positive segment would be
                threadRows[t].end = std::max(threadRows[t].end,
                    static_cast<float>((static_cast<double>(positiveEnd[t]) - layout->valueLow) / layout->valueSpan));
        }
    });
    if (stopped)
        return nullptr;

    // Thread order.
    std::vector<std::uint32_t> threadOrder(threads);
    std::iota(threadOrder.begin(), threadOrder.end(), 0u);
    if (request.sort != OverviewSort::ThreadId || request.descending) {
        const bool byValue = request.sort != OverviewSort::ThreadId;
        const bool descending = request.descending;
        std::stable_sort(threadOrder.begin(), threadOrder.end(), [&](std::uint32_t a, std::uint32_t b) {
            if (!byValue)
                return descending ? a > b : a < b;
            const double ka = sortKey[a];
            const double kb = sortKey[b];
            if (std::isnan(ka) || std::isnan(kb))
                return !std::isnan(ka) && std::isnan(kb); // absent last, whatever the direction
            return descending ? ka > kb : ka < kb;
        });
    }

    bars->rows.reserve(statRows + threads);
    for (BarRow& row : statistics)
        bars->rows.push_back(std::move(row));
    layout->rowOfThread.assign(threads, -1);
    layout->rowTotals.reserve(statRows + threads);
    layout->rowTotals.insert(layout->rowTotals.end(), statTotals.begin(), statTotals.end());
    for (std::uint32_t t : threadOrder) {
        layout->rowOfThread[t] = static_cast<int>(bars->rows.size());
        bars->rows.push_back(std::move(threadRows[t]));
        layout->rowTotals.push_back(threadTotals[t]);
    }
    bars->pinnedRows = statRows;
    bars->labelAlignment = Qt::AlignRight;
    layout->bars = std::move(bars);
    return layout;
}

} // namespace parallax
