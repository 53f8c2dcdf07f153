// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// What the reader tests (tests/datasource/tst_<reader>.cpp) share: reading with one reader, the
// value of a cell, warnings, file bytes and lines, and the comparison of metrics and events.
#pragma once

#include "datasource/model/trial.h"
#include "datasource/readers/reader.h"

#include <QFile>
#include <QString>
#include <QStringList>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

namespace parallax::test {

/// What fieldOf() gives when the thread, the event or its cell is absent: no reader gives it, so
/// a comparison with it fails loudly.
constexpr double Absent = -1e300;

inline ReadOptions withThreads(int threads)
{
    ReadOptions options;
    options.threads = threads;
    return options;
}

/// Reads `path` with `reader` (not by detection).
inline TrialResult readWith(const Reader& reader, const QString& path, const ReadOptions& options = {})
{
    Progress progress;
    return reader.read(path, options, progress);
}

/// The trial of a read that must succeed; nullptr, with the error as a warning, otherwise (QVERIFY it).
inline std::shared_ptr<Trial> trialOf(const TrialResult& result)
{
    if (!result.ok()) {
        qWarning("%s", qPrintable(result.error().toString()));
        return nullptr;
    }
    return result.value();
}

inline std::shared_ptr<Trial> mustReadWith(const Reader& reader, const QString& path, const ReadOptions& options = {})
{
    return trialOf(readWith(reader, path, options));
}

enum class Field { Excl, Incl, Calls, Subrs };

/// "excl", "incl", "calls" or "subrs" (anything else: exclusive).
inline Field fieldNamed(const char* what)
{
    if (std::strcmp(what, "calls") == 0)
        return Field::Calls;
    if (std::strcmp(what, "subrs") == 0)
        return Field::Subrs;
    return std::strcmp(what, "incl") == 0 ? Field::Incl : Field::Excl;
}

/// A field of an event's cell on thread `ti` (exclusive and inclusive of `metric`); Absent when the
/// thread, the event or the cell is missing.
inline double fieldOf(const Trial& t, ThreadIndex ti, const QString& event, Field field, std::size_t metric = 0)
{
    const EventId e = t.findEvent(event);
    if (!ti.isValid() || !e.isValid())
        return Absent;
    const RowView row = t.row(ti);
    const auto i = row.find(e);
    if (i < 0)
        return Absent;
    const auto k = static_cast<std::size_t>(i);
    switch (field) {
    case Field::Excl:
        return row.exclusive(metric, k);
    case Field::Incl:
        return row.inclusive(metric, k);
    case Field::Calls:
        return row.calls[k];
    case Field::Subrs:
        return row.subrs[k];
    }
    return Absent;
}

/// Equal within `rel` of the larger magnitude (at least 1).
inline bool near(double a, double b, double rel = 1e-9)
{
    return std::fabs(a - b) <= rel * std::max({ 1.0, std::fabs(a), std::fabs(b) });
}

/// The number of call-path events (`callPaths`) or flat events.
inline std::size_t countEvents(const Trial& t, bool callPaths)
{
    std::size_t n = 0;
    for (const auto& e : t.events())
        n += e.isCallPath() == callPaths ? 1 : 0;
    return n;
}

inline bool hasWarning(const Trial& t, const QString& part)
{
    for (const QString& w : t.warnings())
        if (w.contains(part))
            return true;
    return false;
}

/// The bytes of a file; empty when it cannot be read.
inline QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

/// Writes `bytes` to `path` (replacing it), failing the test when it cannot.
inline void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(bytes), bytes.size());
}

/// The line (1-based) of the first occurrence of `needle` in `text`; -1 when absent.
inline qint64 lineOf(const QByteArray& text, const QByteArray& needle)
{
    const qsizetype at = text.indexOf(needle);
    return at < 0 ? -1 : text.left(at).count('\n') + 1;
}

/// The metrics of two trials: the same names and units, in the same order.
inline void compareMetrics(const Trial& a, const Trial& b)
{
    QCOMPARE(a.metricCount(), b.metricCount());
    for (std::size_t m = 0; m < a.metricCount(); ++m) {
        QCOMPARE(a.metric(MetricId(m)).name, b.metric(MetricId(m)).name);
        QCOMPARE(a.metric(MetricId(m)).unit, b.metric(MetricId(m)).unit);
    }
}

/// The group names of `groups`, sorted when `sorted`.
inline QStringList groupNames(const Trial& t, const std::vector<GroupId>& groups, bool sorted = false)
{
    QStringList out;
    for (auto g : groups)
        out << t.groupName(g);
    if (sorted)
        out.sort();
    return out;
}

/// The interval events of two trials: the same names, raw names, depths, parents, leaves and
/// groups, in the same order; the groups as sets when `groupsAsSets` (TAU files do not keep their order).
inline void compareEvents(const Trial& a, const Trial& b, bool groupsAsSets = false)
{
    QCOMPARE(a.eventCount(), b.eventCount());
    for (std::size_t e = 0; e < a.eventCount(); ++e) {
        const IntervalEvent& ea = a.event(EventId(e));
        const IntervalEvent& eb = b.event(EventId(e));
        QCOMPARE(ea.name, eb.name);
        QCOMPARE(ea.rawName, eb.rawName);
        QCOMPARE(ea.depth, eb.depth);
        QCOMPARE(ea.parent, eb.parent);
        QCOMPARE(ea.leaf, eb.leaf);
        QCOMPARE(groupNames(a, ea.groups, groupsAsSets), groupNames(b, eb.groups, groupsAsSets));
    }
}

} // namespace parallax::test
