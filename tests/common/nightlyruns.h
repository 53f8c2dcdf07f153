// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trialbuilder.h"

#include <QString>
#include <memory>
#include <random>

namespace parallax::test {

/// Night `night` (1-based) of a nightly run with 4 ranks (issue 17's "done when"): main => solve
/// (planted: 8 % slower from night 14 on) and main => MPI_Allreduce(), 1 % noise. The date is its
/// metadata "Date" (ISO text, so the order is textual), 2026-10-NN.
inline std::shared_ptr<Trial> nightlyTrial(int night, std::mt19937_64& random)
{
    std::normal_distribution<double> noise(0.0, 0.01);
    TrialBuilder b(QStringLiteral("night %1").arg(night));
    b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
    const EventId main = b.addEvent(QStringLiteral("main"), { QStringLiteral("TAU_DEFAULT") });
    const EventId solve = b.addEvent(QStringLiteral("solve"), { QStringLiteral("TAU_USER") });
    const EventId reduce = b.addEvent(QStringLiteral("MPI_Allreduce()"), { QStringLiteral("MPI") });
    const EventId mainSolve = b.addEvent(QStringLiteral("main => solve"), { QStringLiteral("TAU_USER") });
    const EventId mainReduce = b.addEvent(QStringLiteral("main => MPI_Allreduce()"), { QStringLiteral("MPI") });
    for (int rank = 0; rank < 4; ++rank) {
        const ThreadIndex t = b.addThread({ rank, 0, 0 });
        const double s = 2.0e6 * (1.0 + 0.05 * rank) * (1.0 + noise(random)) * (night >= 14 ? 1.08 : 1.0);
        const double r = 0.5e6 * (1.0 + noise(random));
        const double own = 0.1e6;
        const double one[1] = { own };
        const double total[1] = { own + s + r };
        b.addInterval(t, main, 1, 2, one, total);
        const double sv[1] = { s };
        const double rv[1] = { r };
        b.addInterval(t, solve, 10, 0, sv, sv);
        b.addInterval(t, mainSolve, 10, 0, sv, sv);
        b.addInterval(t, reduce, 10, 0, rv, rv);
        b.addInterval(t, mainReduce, 10, 0, rv, rv);
    }
    b.addMetadata(QStringLiteral("Date"), QStringLiteral("2026-10-%1").arg(night, 2, 10, QLatin1Char('0')));
    return b.build();
}

} // namespace parallax::test
