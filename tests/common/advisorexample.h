// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// The 2-thread trials of the advisor's tests (docs/SEMANTICS.md 7.2's worked example and variants).

#include "datasource/model/trialbuilder.h"

#include <QStringList>
#include <memory>
#include <vector>

namespace parallax::test {

/// One event of a 2-thread trial: calls < 0 means absent on that thread.
struct AdvisorCell {
    QString name;
    double calls[2];
    double incl[2];
    QStringList groups = {};
};

/// A TIME (µs) trial with threads (0,0,0) and (1,0,0); excl = incl.
inline std::shared_ptr<Trial> advisorTrial(
    const std::vector<AdvisorCell>& cells, const QString& name = QStringLiteral("7.2"))
{
    TrialBuilder b(name);
    b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
    const ThreadIndex threads[] = { b.addThread({ 0, 0, 0 }), b.addThread({ 1, 0, 0 }) };
    for (const AdvisorCell& c : cells) {
        const EventId e = b.addEvent(c.name, c.groups);
        for (int t = 0; t < 2; ++t)
            if (c.calls[t] >= 0) {
                const double v[] = { c.incl[t] };
                b.addInterval(threads[t], e, c.calls[t], 0, v, v);
            }
    }
    return b.build();
}

/// SEMANTICS 7.2's table: bar, baz, foo (absent on thread 1), qux (`quxName`, its time × scale).
inline std::vector<AdvisorCell> workedExampleCells(double scale = 1, const QString& quxName = QStringLiteral("qux"))
{
    return {
        { QStringLiteral("bar"), { 150000, 150000 }, { 3.0e6, 3.0e6 } },
        { QStringLiteral("baz"), { 50000, 50000 }, { 5.0e4, 5.0e4 } },
        { QStringLiteral("foo"), { 180000, -1 }, { 9.0e5, 0 } },
        { quxName, { 120000, 80000 }, { 6.0e5 * scale, 4.0e5 * scale } },
    };
}

/// "main", called once per thread, 1e7 µs × scale: the run time.
inline AdvisorCell mainCell(double scale = 1)
{
    return { QStringLiteral("main"), { 1, 1 }, { 1e7 * scale, 1e7 * scale } };
}

} // namespace parallax::test
