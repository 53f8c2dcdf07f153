// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// What the CUBE reader's tests share (tst_cubereader, tst_cubereader_pycubexr,
// tst_cubereader_handmade): the sample paths, reading with CubeReader, cells of a trial by event and
// metric name, sums over the call tree, the docs/SEMANTICS.md 1.4 check for the additive metrics, and
// file and archive helpers.

#include "datasource/readers/cubereader.h"
#include "tests/common/gzipdata.h"
#include "tests/common/minitar.h"
#include "tests/common/readertest.h"
#include "tests/common/testutil.h"
#include "tests/common/treecheck.h"

#include <QFile>
#include <QSet>
#include <QTest>
#include <cmath>

namespace parallax::test {

inline QString scorep() { return dataPath(QStringLiteral("tau2/cube-scorep-cpi/profile.cubex")); }

inline QString cubelib(const char* relative)
{
    return dataPath(QStringLiteral("cubelib/test/") + QLatin1String(relative));
}

inline QString pycubexr(const char* relative)
{
    return dataPath(QStringLiteral("cube/pycubexr/") + QLatin1String(relative));
}

inline QString cube3(const char* relative)
{
    return dataPath(QStringLiteral("cube/scalasca-cube3/") + QLatin1String(relative));
}

inline TrialResult readCube(const QString& path, bool strict = false, int threads = 0)
{
    ReadOptions options;
    options.strict = strict;
    options.threads = threads;
    Progress progress;
    return CubeReader().read(path, options, progress);
}

inline std::shared_ptr<Trial> mustRead(const QString& path, int threads = 0)
{
    auto result = readCube(path, false, threads);
    if (!result.ok()) {
        qWarning("%s", qPrintable(result.error().toString()));
        return nullptr;
    }
    return result.value();
}

inline QString describe(const TrialResult& result)
{
    return result.ok() ? QStringLiteral("a trial") : result.error().toString();
}

/// A cell value: inclusive or exclusive of `metric`, or the calls/subrs when metric is "calls"/"subrs".
inline double cell(const Trial& t, ThreadKey key, const QString& event, const QString& metric, bool inclusive = false)
{
    const ThreadIndex ti = t.findThread(key);
    if (metric == QLatin1String("calls"))
        return fieldOf(t, ti, event, Field::Calls);
    if (metric == QLatin1String("subrs"))
        return fieldOf(t, ti, event, Field::Subrs);
    const MetricId m = t.findMetric(metric);
    if (!m.isValid())
        return Absent;
    return fieldOf(t, ti, event, inclusive ? Field::Incl : Field::Excl, m.index());
}

inline double excl(const Trial& t, int node, const QString& event, const QString& metric)
{
    return cell(t, { node, 0, 0 }, event, metric, false);
}

inline double incl(const Trial& t, int node, const QString& event, const QString& metric)
{
    return cell(t, { node, 0, 0 }, event, metric, true);
}

/// Σ over threads and over the call-tree nodes (roots and call paths; not flat events that are not
/// roots) of value(row, i): every cnode once. Without call paths, every event counts when
/// `flatWithoutPaths`, none otherwise.
template <typename Value> double treeSum(const Trial& t, bool flatWithoutPaths, const Value& value)
{
    QSet<QString> roots;
    for (const auto& e : t.events())
        if (e.isCallPath())
            roots.insert(e.name.left(e.name.indexOf(QLatin1String(" => "))));
    const bool all = flatWithoutPaths && roots.isEmpty();
    double sum = 0;
    for (std::size_t th = 0; th < t.threadCount(); ++th) {
        const RowView row = t.row(ThreadIndex(th));
        for (std::size_t i = 0; i < row.size(); ++i) {
            const auto& e = t.event(row.events[i]);
            if (e.isCallPath() || all || roots.contains(e.name))
                sum += value(row, i);
        }
    }
    return sum;
}

/// treeSum() of the exclusive values of a metric (NaN when there is no such metric).
inline double cnodeSum(const Trial& t, const QString& metric)
{
    const MetricId m = t.findMetric(metric);
    if (!m.isValid())
        return std::nan("");
    return treeSum(t, true, [&](const RowView& row, std::size_t i) { return row.exclusive(m.index(), i); });
}

/// treeSum() of the calls.
inline double callsSum(const Trial& t)
{
    return treeSum(t, false, [](const RowView& row, std::size_t i) { return row.calls[i]; });
}

inline QStringList metricNames(const Trial& t)
{
    QStringList names;
    for (const Metric& m : t.metrics())
        names << m.name;
    return names;
}

/// docs/SEMANTICS.md 1.4 on every thread (tests/common/treecheck.h), for every additive metric: the
/// metrics listed in "CUBE non-additive metrics" (minima and maxima) are left out.
inline void checkConsistency(const Trial& t)
{
    checkTreeConsistency(t, 1e-9,
        t.metadataValue(QStringLiteral("CUBE non-additive metrics")).split(QStringLiteral(", "), Qt::SkipEmptyParts));
}

inline TarMember* member(QList<TarMember>& members, const QString& name)
{
    for (auto& m : members)
        if (m.name == name)
            return &m;
    return nullptr;
}

inline const TarMember* member(const QList<TarMember>& members, const QString& name)
{
    for (const auto& m : members)
        if (m.name == name)
            return &m;
    return nullptr;
}

} // namespace parallax::test
