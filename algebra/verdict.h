// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QString>
#include <cmath>
#include <memory>
#include <vector>

namespace parallax {

/// The verdict of a comparison of A (baseline) and B (candidate), written first in the comparison
/// window and by `parallax-cli diff`: the speed-up S = T_A / T_B, where T is the top-level event's
/// inclusive value per thread (the root of the call tree with the largest mean inclusive value:
/// main, .TAU application, Caliper's root region) averaged over the threads (and over the runs when
/// several runs of a side are given), and whether |T_A − T_B| exceeds the run-to-run noise.
///
/// The noise is twice the standard error of T_A − T_B (≈ 95 % under a normal model):
/// sqrt(se_A² + se_B²) with se = sample standard deviation / sqrt(n) of the per-run means when a
/// side has several runs, else of the per-thread values (the thread-to-thread spread). With one
/// thread and one run on a side the noise is unknown.
struct SpeedupVerdict {
    /// The metric compared, by name, and its unit as stored (µs for time).
    QString metric;
    QString unit;
    bool time = false;
    /// Time in any unit (TAU's µs, Caliper's seconds): "faster"/"slower" rather than "lower"/"higher".
    bool timeLike = false;
    bool higherIsBetter = false;
    /// The top-level event of A (the flat event with the largest mean inclusive value), for the text.
    QString event;
    double meanA = 0;
    double meanB = 0;
    /// Standard errors of meanA and meanB (0 when unknown).
    double seA = 0;
    double seB = 0;
    /// Threads of the first run of each side, and the runs of each side.
    std::size_t threadsA = 0;
    std::size_t threadsB = 0;
    std::size_t runsA = 1;
    std::size_t runsB = 1;
    /// S = meanA / meanB; 0 when meanB is 0.
    double speedUp = 0;
    /// 2·sqrt(seA² + seB²); valid only when noiseKnown.
    double noise = 0;
    bool noiseKnown = false;
    /// Whether the noise comes from repeated runs (else from the thread-to-thread spread).
    bool fromRuns = false;
    bool valid() const { return meanB > 0 && meanA > 0; }
    double difference() const { return meanA - meanB; }
    /// |meanA − meanB| > noise (false when the noise is unknown).
    bool exceedsNoise() const { return noiseKnown && std::abs(meanA - meanB) > noise; }
};

/// The verdict of runs `a` (one or more runs of the baseline) against runs `b` for the metric
/// named `metric` (empty: each run's first metric). Runs without the metric are left out.
SpeedupVerdict speedupVerdict(const std::vector<std::shared_ptr<const Trial>>& a,
    const std::vector<std::shared_ptr<const Trial>>& b, const QString& metric = {});

/// The verdict as one sentence: "B is 1.27× faster than A: … ; the difference … exceeds the
/// run-to-run noise (± …)" or "… within noise (± …)", numbers in milliseconds for time metrics.
QString verdictHeadline(const SpeedupVerdict& v);
/// How the verdict's numbers are defined (the speed-up and the noise), one sentence each.
QString verdictDefinition(const SpeedupVerdict& v);
/// The definition in one short line (no event name): "S = T_A / T_B = 2,147.778 ms / 2,052.445 ms:
/// the top-level event's inclusive Time per thread, mean over threads; noise = 2 standard errors
/// (thread-to-thread spread)."
QString verdictShortDefinition(const SpeedupVerdict& v);

} // namespace parallax
