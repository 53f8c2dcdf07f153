// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/inforeport.h"

#include "algebra/statistics.h"
#include "algebra/units.h"
#include "datasource/model/pooledatomics.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace parallax {

namespace {

struct Facts {
    std::size_t flat = 0;
    std::size_t callPaths = 0;
    std::vector<std::pair<EventId, double>> top;
};

Facts collect(const Trial& trial, int top)
{
    Facts f;
    for (const auto& e : trial.events())
        (e.isCallPath() ? f.callPaths : f.flat)++;
    if (trial.metricCount() > 0) {
        const auto stats = TrialStatistics::of(trial);
        for (std::size_t e = 0; e < trial.eventCount(); ++e) {
            if (trial.event(EventId(e)).isCallPath())
                continue;
            f.top.emplace_back(EventId(e), stats->stat(EventId(e), MetricId(0u), ValueKind::Exclusive).meanAll);
        }
        std::stable_sort(f.top.begin(), f.top.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        if (f.top.size() > static_cast<std::size_t>(top))
            f.top.resize(static_cast<std::size_t>(top));
    }
    return f;
}

QStringList groupNames(const Trial& trial)
{
    QStringList groups;
    for (std::size_t g = 0; g < trial.groupCount(); ++g)
        groups << trial.groupName(GroupId(g));
    groups.sort();
    return groups;
}

} // namespace

QByteArray infoJson(const Trial& trial, const QString& format, int top)
{
    const Facts f = collect(trial, top);
    QJsonObject o;
    o.insert(QStringLiteral("format"), format);
    o.insert(QStringLiteral("name"), trial.name());
    o.insert(QStringLiteral("source"), trial.provenance().source);
    o.insert(QStringLiteral("threads"), static_cast<qint64>(trial.threadCount()));
    o.insert(QStringLiteral("nodes"), static_cast<qint64>(trial.nodeCount()));
    QJsonArray metrics;
    QJsonArray units;
    for (const auto& m : trial.metrics()) {
        metrics.append(m.name);
        units.append(m.unit);
    }
    o.insert(QStringLiteral("metrics"), metrics);
    o.insert(QStringLiteral("units"), units);
    o.insert(QStringLiteral("events"), static_cast<qint64>(f.flat));
    o.insert(QStringLiteral("callpaths"), static_cast<qint64>(f.callPaths));
    o.insert(QStringLiteral("user_events"), static_cast<qint64>(trial.atomicEventCount()));
    // The (thread, user event) cells whose record was pooled from several records of the source.
    QJsonArray pooled;
    for (const PooledAtomicCell& cell : trial.pooledAtomicCells().cells()) {
        QJsonObject item;
        item.insert(QStringLiteral("event"), trial.atomicEvent(cell.event).name);
        item.insert(QStringLiteral("thread"), trial.threadKey(cell.thread).toString());
        item.insert(QStringLiteral("pooled_records"), static_cast<qint64>(cell.records));
        pooled.append(item);
    }
    o.insert(QStringLiteral("pooled_user_events"), pooled);
    o.insert(QStringLiteral("groups"), QJsonArray::fromStringList(groupNames(trial)));
    QJsonArray topArray;
    for (const auto& [e, v] : f.top) {
        QJsonObject item;
        item.insert(QStringLiteral("name"), trial.event(e).name);
        item.insert(QStringLiteral("value"), v);
        topArray.append(item);
    }
    o.insert(QStringLiteral("top_exclusive"), topArray);
    QJsonObject metadata;
    for (const auto& entry : trial.metadata())
        metadata.insert(trial.strings().get(entry.key), trial.strings().get(entry.value));
    o.insert(QStringLiteral("metadata"), metadata);
    o.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(trial.warnings()));
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

QString infoText(const Trial& trial, const QString& format, int top)
{
    const Facts f = collect(trial, top);
    QString out;
    out += QStringLiteral("Trial:        %1\n").arg(trial.name());
    out += QStringLiteral("Source:       %1\n").arg(trial.provenance().source);
    out += QStringLiteral("Format:       %1\n").arg(format);
    out += QStringLiteral("Threads:      %1 on %2\n")
               .arg(trial.threadCount())
               .arg(countText(trial.nodeCount(), QStringLiteral("node"), QStringLiteral("nodes")));
    QStringList metrics;
    for (const auto& m : trial.metrics()) {
        // The stored unit as the GUI names it ("µs", not the files' "us").
        const QString stored = unitLabel(m, TimeUnit::Microseconds);
        metrics << (stored.isEmpty() ? m.name : QStringLiteral("%1 (%2)").arg(m.name, stored));
    }
    out += QStringLiteral("Metrics:      %1\n").arg(metrics.join(QStringLiteral(", ")));
    out += QStringLiteral("Events:       %1 flat, %2 call paths\n").arg(f.flat).arg(f.callPaths);
    out += QStringLiteral("User events:  %1\n").arg(trial.atomicEventCount());
    const PooledAtomicCells& pooled = trial.pooledAtomicCells();
    if (!pooled.empty()) {
        // Where the numbers of a user event come from several records of the profile (pooled).
        constexpr std::size_t shown = 20;
        const auto& cells = pooled.cells();
        out += QStringLiteral("Pooled user events: %1 (several records of one user event on one thread, "
                              "pooled into one: counts summed, min of the minima, max of the maxima, "
                              "count-weighted mean, sums of squares added)\n")
                   .arg(countText(cells.size(), QStringLiteral("cell"), QStringLiteral("cells")));
        for (std::size_t i = 0; i < cells.size() && i < shown; ++i)
            out += QStringLiteral("  thread %1  %2 pooled  %3\n")
                       .arg(trial.threadKey(cells[i].thread).toString(), -10)
                       .arg(countText(cells[i].records, QStringLiteral("record"), QStringLiteral("records")))
                       .arg(trial.atomicEvent(cells[i].event).name);
        if (cells.size() > shown)
            out += QStringLiteral("  ... and %1 more (--json lists them all)\n").arg(cells.size() - shown);
    }
    out += QStringLiteral("Groups:       %1\n").arg(groupNames(trial).join(QStringLiteral(", ")));
    out += QStringLiteral("Metadata:     %1\n")
               .arg(countText(
                   trial.metadata().size(), QStringLiteral("trial-wide key"), QStringLiteral("trial-wide keys")));
    if (!f.top.empty()) {
        // The GUI's number format and units: time in ms, counters with SI prefixes.
        const Metric& m = trial.metric(MetricId(0u));
        const QLocale locale(QLocale::English, QLocale::UnitedStates);
        const QString unit = unitLabel(m, TimeUnit::Milliseconds);
        out += QStringLiteral("Top events by mean exclusive %1%2:\n")
                   .arg(m.name, unit.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(unit));
        // One decimals count for the column, as the GUI's tables: small values keep their digits.
        std::vector<double> values;
        for (const auto& [e, v] : f.top)
            values.push_back(v);
        const int decimals = columnDecimals(values, m.isTime(), TimeUnit::Milliseconds);
        for (const auto& [e, v] : f.top)
            out += QStringLiteral("  %1  %2\n")
                       .arg(formatMetricValue(v, m, TimeUnit::Milliseconds, locale, decimals), 16)
                       .arg(trial.event(e).name);
    }
    if (trial.warnings().isEmpty()) {
        out += QStringLiteral("Warnings:     none\n");
    } else {
        out += QStringLiteral("Warnings:     %1\n").arg(trial.warnings().size());
        for (const QString& w : trial.warnings())
            out += QStringLiteral("  - %1\n").arg(w);
    }
    return out;
}

} // namespace parallax
