// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Change points of a performance history (issue 17 §1, docs/SEMANTICS.md §9): the energy statistic
// against hand-computed values, the O(n²) split search against the direct formula, planted level
// shifts found where they are, a noisy flat series left alone, two shifts, the minimum effect.
#include "algebra/changepoint.h"

#include <QTest>
#include <cmath>
#include <random>

using namespace parallax;

namespace {

/// A level of `base` with relative noise `sd` (normal, fixed seed), multiplied by `factor` from `from` on.
std::vector<double> series(int n, double base, double sd, std::uint64_t seed, int from = -1, double factor = 1.0)
{
    std::mt19937_64 random(seed);
    std::normal_distribution<double> noise(0.0, sd);
    std::vector<double> v;
    v.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        v.push_back(base * (1.0 + noise(random)) * (from >= 0 && i >= from ? factor : 1.0));
    return v;
}

} // namespace

class TestChangePoint : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void energyStatisticByHand()
    {
        // [1 1 5 5] split in the middle: between 4·|1−5| = 16, within 0: E = 2·16/4 = 8, Q = 4/4·8 = 8.
        const std::vector<double> x { 1, 1, 5, 5 };
        QCOMPARE(energyStatistic(x, 2), 8.0);
        // [1 2 4] at 1: between |1−2| + |1−4| = 4, right |2−4| = 2: E = 2·4/2 − 2/1 = 2, Q = 2/3·2.
        const std::vector<double> y { 1, 2, 4 };
        QVERIFY(std::abs(energyStatistic(y, 1) - 4.0 / 3.0) < 1e-12);
        QCOMPARE(energyStatistic(y, 0), 0.0);
    }

    void plantedRegressionIsFound()
    {
        // 30 nightly runs, 1 % noise, 8 % slower from run 14 (index 13) on.
        const auto v = series(30, 100.0, 0.01, 7, 13, 1.08);
        const ChangePointResult r = detectChangePoints(v);
        QCOMPARE(r.changes.size(), std::size_t(1));
        const ChangePoint& c = r.changes.front();
        QCOMPARE(c.index, 13);
        QVERIFY2(std::abs(c.percent - 8.0) < 1.5, qPrintable(QString::number(c.percent)));
        QCOMPARE(c.pValue, 1.0 / 200); // no shuffle splits as well
        // The segment means are the plain means of the two sides.
        double before = 0;
        for (int i = 0; i < 13; ++i)
            before += v[std::size_t(i)];
        QVERIFY(std::abs(c.before - before / 13) < 1e-9);
        // The noise is the spread within the levels: about 1 % of 100 (and 108).
        QVERIFY2(r.noise > 0.5 && r.noise < 1.6, qPrintable(QString::number(r.noise)));
    }

    void flatNoiseHasNoChange()
    {
        for (std::uint64_t seed : { 1u, 2u, 3u }) {
            const auto v = series(30, 50.0, 0.02, seed);
            const ChangePointResult r = detectChangePoints(v);
            QVERIFY2(r.changes.empty(),
                qPrintable(QStringLiteral("seed %1: change at %2 (%3 %)")
                               .arg(seed)
                               .arg(r.changes.empty() ? -1 : r.changes.front().index)
                               .arg(r.changes.empty() ? 0 : r.changes.front().percent)));
        }
    }

    void twoShiftsAndNaN()
    {
        // Up by 20 % at 10, back down at 20; a missing run (NaN) at 5 keeps the indices.
        auto v = series(30, 10.0, 0.01, 11, 10, 1.2);
        for (int i = 20; i < 30; ++i)
            v[std::size_t(i)] /= 1.2;
        v[5] = std::nan("");
        const ChangePointResult r = detectChangePoints(v);
        QCOMPARE(r.changes.size(), std::size_t(2));
        QCOMPARE(r.changes[0].index, 10);
        QCOMPARE(r.changes[1].index, 20);
        QVERIFY(r.changes[0].percent > 15 && r.changes[1].percent < -12);
    }

    void minimumEffectAndShortSeries()
    {
        // A 0.5 % step in a noiseless series is significant but below a 1 % minimum effect.
        std::vector<double> v(20, 100.0);
        for (int i = 10; i < 20; ++i)
            v[std::size_t(i)] = 100.5;
        QCOMPARE(detectChangePoints(v).changes.size(), std::size_t(0));
        ChangePointOptions any;
        any.minEffectPercent = 0;
        const auto r = detectChangePoints(v, any);
        QCOMPARE(r.changes.size(), std::size_t(1));
        QCOMPARE(r.changes.front().index, 10);
        QCOMPARE(r.noise, 0.0);
        // Fewer points than two minimum segments: nothing to split.
        const std::vector<double> few { 1, 1, 9, 9, 9 };
        QVERIFY(detectChangePoints(few).changes.empty());
    }

    void repeatNoiseDecides()
    {
        // docs/SEMANTICS.md §9's example: 12 points, each the mean of 3 runs, 100 then 103 from point
        // 6. The permutation test alone finds the step; against repeats scattered with σ = 5 its
        // z = 3 / (5·√(1/18 + 1/18)) = 1.8, p = erfc(1.8/√2) = 0.0719 > 0.05: no change point, and the
        // noise reported is σ. With σ = 1 (z = 5.4) the step stays, with the shuffles' p.
        std::vector<double> v(12, 100.0);
        for (int i = 6; i < 12; ++i)
            v[std::size_t(i)] = 103.0;
        QCOMPARE(detectChangePoints(v).changes.size(), std::size_t(1));
        RepeatNoise noisy;
        noisy.sigma = 5;
        noisy.runs.assign(12, 3);
        const auto r = detectChangePoints(v, {}, &noisy);
        QVERIFY(r.changes.empty());
        QVERIFY(r.noiseFromRepeats);
        QCOMPARE(r.noise, 5.0);
        RepeatNoise quiet = noisy;
        quiet.sigma = 1;
        const auto q = detectChangePoints(v, {}, &quiet);
        QCOMPARE(q.changes.size(), std::size_t(1));
        QCOMPARE(q.changes.front().index, 6);
        QVERIFY(q.changes.front().pValue <= 0.02); // the shuffles' p (1 or 2 in 200), far above the z-test's
        // The z-test's p at the boundary: with σ = 5 but 4 runs per point, z = 3/(5·√(2/24)) = 2.078,
        // p = 0.0377 ≤ 0.05: significant again, with the larger p of the two tests.
        RepeatNoise more = noisy;
        more.runs.assign(12, 4);
        const auto m = detectChangePoints(v, {}, &more);
        QCOMPARE(m.changes.size(), std::size_t(1));
        QVERIFY(
            std::abs(m.changes.front().pValue - std::erfc(3.0 / (5.0 * std::sqrt(2.0 / 24)) / std::sqrt(2.0))) < 1e-12);
    }
};

QTEST_GUILESS_MAIN(TestChangePoint)
#include "tst_changepoint.moc"
