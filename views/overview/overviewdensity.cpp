// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/overview/overviewdensity.h"

#include "algebra/statistics.h"
#include "views/overview/valuetext.h"

#include <QObject>
#include <algorithm>
#include <limits>

namespace parallax {

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
    std::vector<std::size_t> present(events);
    for (std::size_t d = 0; d < rowCount; ++d) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return nullptr;
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
                const double v = cellValue(trial, *stats, ti, i, layout->metric, layout->valueType);
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
    return density;
}

QString OverviewDensity::toolTip(std::size_t row, std::size_t event, TimeUnit unit, const QLocale& locale) const
{
    if (!layout || row >= rows.size())
        return {};
    const Trial& trial = *layout->trial;
    const std::size_t firstThreadRow = layout->statistics.size();
    const Row& r = rows[row];
    // The thread shown at a thread row: rowOfThread's inverse for just the two ends.
    ThreadIndex first;
    ThreadIndex last;
    for (std::size_t t = 0; t < layout->rowOfThread.size(); ++t) {
        const auto at = static_cast<std::size_t>(layout->rowOfThread[t]) - firstThreadRow;
        if (at == r.firstRow)
            first = ThreadIndex(t);
        if (at + 1 == r.lastRow)
            last = ThreadIndex(t);
    }
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
