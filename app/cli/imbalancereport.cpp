// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/imbalancereport.h"

#include "algebra/statistics.h"
#include "algebra/units.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace parallax {

namespace {

struct Row {
    EventId event;
    const Stat* stat = nullptr;
    double key = 0;
};

std::vector<Row> rows(const Trial& trial, const TrialStatistics& stats, const ImbalanceOptions& o)
{
    std::vector<Row> out;
    for (std::size_t e = 0; e < trial.eventCount(); ++e) {
        const EventId id(e);
        if (!o.callPaths && trial.event(id).isCallPath())
            continue;
        const Stat& s = stats.stat(id, o.metric, ValueKind::Exclusive);
        if (s.present == 0)
            continue;
        const double key = o.sort == QLatin1String("maxmean") ? s.maxOverMean
            : o.sort == QLatin1String("imbalance")            ? s.imbalance
            : o.sort == QLatin1String("cv")                   ? s.cv
                                                              : s.lostTime();
        out.push_back({ id, &s, key });
    }
    // Ties (every routine on 1 of N threads has max/mean N) go to the larger lost time, as in the
    // statistics table (docs/SEMANTICS.md 2.1).
    std::stable_sort(out.begin(), out.end(), [](const Row& a, const Row& b) {
        return a.key > b.key || (a.key == b.key && a.stat->lostTime() > b.stat->lostTime());
    });
    if (o.top > 0 && out.size() > static_cast<std::size_t>(o.top))
        out.resize(static_cast<std::size_t>(o.top));
    return out;
}

} // namespace

QStringList imbalanceSortKeys()
{
    return { QStringLiteral("lost"), QStringLiteral("maxmean"), QStringLiteral("imbalance"), QStringLiteral("cv") };
}

QByteArray imbalanceJson(const Trial& trial, const ImbalanceOptions& options)
{
    const auto stats = TrialStatistics::of(trial);
    const Metric& metric = trial.metric(options.metric);
    QJsonObject o;
    o.insert(QStringLiteral("trial"), trial.name());
    o.insert(QStringLiteral("metric"), metric.name);
    o.insert(QStringLiteral("unit"), metric.unit);
    o.insert(QStringLiteral("threads"), static_cast<qint64>(trial.threadCount()));
    o.insert(QStringLiteral("value"), QStringLiteral("exclusive"));
    o.insert(QStringLiteral("sort"), options.sort);
    QJsonArray events;
    for (const Row& r : rows(trial, *stats, options)) {
        const Stat& s = *r.stat;
        QJsonObject e;
        e.insert(QStringLiteral("name"), trial.event(r.event).name);
        e.insert(QStringLiteral("mean"), s.meanAll);
        e.insert(QStringLiteral("max"), s.max);
        e.insert(QStringLiteral("max_thread"), trial.threadKey(s.maxThread).toString());
        e.insert(QStringLiteral("sd"), s.sdAll);
        e.insert(QStringLiteral("max_over_mean"), s.maxOverMean);
        e.insert(QStringLiteral("imbalance"), s.imbalance);
        e.insert(QStringLiteral("cv"), s.cv);
        e.insert(QStringLiteral("lost_time"), s.lostTime());
        e.insert(QStringLiteral("present"), static_cast<qint64>(s.present));
        events.append(e);
    }
    o.insert(QStringLiteral("events"), events);
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

QString imbalanceText(const Trial& trial, const ImbalanceOptions& options)
{
    const auto stats = TrialStatistics::of(trial);
    const Metric& metric = trial.metric(options.metric);
    // The GUI's number format and units (the statistics table's): time in ms, counters with SI
    // prefixes, one decimals count per column so small means keep their digits.
    const QString unit = unitLabel(metric, TimeUnit::Milliseconds);
    const QLocale locale(QLocale::English, QLocale::UnitedStates);
    const std::vector<Row> shown = rows(trial, *stats, options);
    std::vector<double> means;
    std::vector<double> maxima;
    std::vector<double> lost;
    for (const Row& r : shown) {
        means.push_back(r.stat->meanAll);
        maxima.push_back(r.stat->max);
        lost.push_back(r.stat->lostTime());
    }
    const int meanDecimals = columnDecimals(means, metric.isTime(), TimeUnit::Milliseconds);
    const int maxDecimals = columnDecimals(maxima, metric.isTime(), TimeUnit::Milliseconds);
    const int lostDecimals = columnDecimals(lost, metric.isTime(), TimeUnit::Milliseconds);
    QString out = QStringLiteral("Load imbalance of exclusive %1%2 over %3 threads (mean and sd over all threads, "
                                 "absent = 0), sorted by %4:\n")
                      .arg(metric.name, unit.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(unit))
                      .arg(trial.threadCount())
                      .arg(options.sort);
    out += QStringLiteral("%1 %2 %3 %4 %5 %6 %7  %8\n")
               .arg(QStringLiteral("Mean"), 16)
               .arg(QStringLiteral("Max"), 16)
               .arg(QStringLiteral("Max thread"), 12)
               .arg(QStringLiteral("Max/Mean"), 9)
               .arg(QStringLiteral("Imbal %"), 8)
               .arg(QStringLiteral("CV"), 7)
               .arg(QStringLiteral("Lost time"), 16)
               .arg(QStringLiteral("Name"));
    for (const Row& r : shown) {
        const Stat& s = *r.stat;
        out += QStringLiteral("%1 %2 %3 %4 %5 %6 %7  %8\n")
                   .arg(formatMetricValue(s.meanAll, metric, TimeUnit::Milliseconds, locale, meanDecimals), 16)
                   .arg(formatMetricValue(s.max, metric, TimeUnit::Milliseconds, locale, maxDecimals), 16)
                   .arg(trial.threadKey(s.maxThread).toString(), 12)
                   .arg(s.maxOverMean, 9, 'f', 3)
                   .arg(100.0 * s.imbalance, 8, 'f', 2)
                   .arg(s.cv, 7, 'f', 3)
                   .arg(formatMetricValue(s.lostTime(), metric, TimeUnit::Milliseconds, locale, lostDecimals), 16)
                   .arg(trial.event(r.event).name);
    }
    return out;
}

} // namespace parallax
