// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QSet>
#include <QStringList>
#include <QTest>
#include <cmath>

namespace parallax::test {

inline bool closeTo(double a, double b, double rel = 1e-9)
{
    return std::fabs(a - b) <= rel * std::max({ 1.0, std::fabs(a), std::fabs(b) });
}

/// docs/SEMANTICS.md 1.4 on every thread and metric: for call-tree nodes incl = excl + sum of the
/// children's incl and subrs = sum of the children's calls; for other flat events excl (calls) =
/// the sum over the nodes with that leaf and incl = the sum over the outermost ones. Metrics named
/// in `skipMetrics` (non-additive ones, such as CUBE's minima and maxima) are not checked.
inline void checkTreeConsistency(const Trial& t, double rel = 1e-9, const QStringList& skipMetrics = {})
{
    std::vector<std::vector<EventId>> children(t.eventCount());
    QSet<QString> roots;
    for (std::size_t e = 0; e < t.eventCount(); ++e) {
        const auto& ev = t.event(EventId(e));
        if (!ev.isCallPath())
            continue;
        QVERIFY2(ev.parent.isValid(), qPrintable(ev.name));
        QVERIFY2(ev.leaf.isValid(), qPrintable(ev.name));
        children[ev.parent.index()].push_back(EventId(e));
        roots.insert(ev.name.left(ev.name.indexOf(QLatin1String(" => "))));
    }
    for (std::size_t th = 0; th < t.threadCount(); ++th) {
        const RowView row = t.row(ThreadIndex(th));
        for (std::size_t i = 0; i < row.size(); ++i) {
            const EventId p = row.events[i];
            const auto& pe = t.event(p);
            const bool treeNode = pe.isCallPath() || roots.contains(pe.name);
            for (std::size_t m = 0; m < t.metricCount(); ++m) {
                if (skipMetrics.contains(t.metric(MetricId(m)).name))
                    continue;
                if (treeNode) {
                    double sum = row.exclusive(m, i);
                    for (EventId c : children[p.index()]) {
                        const auto k = row.find(c);
                        if (k >= 0)
                            sum += row.inclusive(m, static_cast<std::size_t>(k));
                    }
                    QVERIFY2(closeTo(row.inclusive(m, i), sum, rel),
                        qPrintable(QStringLiteral("%1 thread %2: incl %3 != excl + children %4")
                                       .arg(pe.name, t.threadKey(ThreadIndex(th)).toString())
                                       .arg(row.inclusive(m, i), 0, 'g', 17)
                                       .arg(sum, 0, 'g', 17)));
                } else {
                    double ex = 0, in = 0;
                    for (std::size_t j = 0; j < row.size(); ++j) {
                        const auto& q = t.event(row.events[j]);
                        if (!q.isCallPath() || q.name.mid(q.name.lastIndexOf(QLatin1String(" => ")) + 4) != pe.name)
                            continue;
                        ex += row.exclusive(m, j);
                        if (q.name.split(QStringLiteral(" => ")).count(pe.name) == 1)
                            in += row.inclusive(m, j);
                    }
                    QVERIFY2(closeTo(row.exclusive(m, i), ex, rel), qPrintable(pe.name));
                    QVERIFY2(closeTo(row.inclusive(m, i), in, rel), qPrintable(pe.name));
                }
            }
            if (treeNode) {
                double calls = 0;
                for (EventId c : children[p.index()]) {
                    const auto k = row.find(c);
                    if (k >= 0)
                        calls += row.calls[static_cast<std::size_t>(k)];
                }
                QVERIFY2(closeTo(row.subrs[i], calls), qPrintable(pe.name));
            }
        }
    }
}

} // namespace parallax::test
