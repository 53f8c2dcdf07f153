// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/verdict.h"

#include "algebra/statistics.h"
#include "algebra/units.h"

#include <QLocale>
#include <QSet>
#include <QStringList>
#include <cmath>
#include <optional>

namespace parallax {

namespace {

struct Sample {
    double mean = 0;
    double se = 0;
    bool seKnown = false;
};

/// Mean and standard error (sample standard deviation / sqrt(n)) of `xs`.
Sample sampleOf(const std::vector<double>& xs)
{
    Sample s;
    if (xs.empty())
        return s;
    double sum = 0;
    for (double x : xs)
        sum += x;
    const auto n = static_cast<double>(xs.size());
    s.mean = sum / n;
    if (xs.size() < 2)
        return s;
    double squares = 0;
    for (double x : xs)
        squares += (x - s.mean) * (x - s.mean);
    s.se = std::sqrt(squares / (n - 1)) / std::sqrt(n);
    s.seKnown = true;
    return s;
}

std::optional<MetricId> findMetric(const Trial& trial, const QString& name)
{
    if (trial.metricCount() == 0)
        return std::nullopt;
    if (name.isEmpty())
        return MetricId(0u);
    for (std::size_t m = 0; m < trial.metricCount(); ++m)
        if (trial.metric(MetricId(m)).name == name)
            return MetricId(m);
    return std::nullopt;
}

/// The top-level event of a run: the root of the call tree (a flat event that no call path has as
/// a callee) with the largest mean inclusive value; names in parentheses such as Caliper's
/// "(unattributed)" are not code and are left out unless nothing else is left.
std::optional<EventId> topLevelEvent(const Trial& trial, MetricId m)
{
    QSet<QString> callees;
    for (const auto& event : trial.events()) {
        if (!event.isCallPath())
            continue;
        const QStringList parts = event.name.split(QStringLiteral(" => "));
        for (qsizetype i = 1; i < parts.size(); ++i)
            callees.insert(parts[i].trimmed());
    }
    const auto stats = TrialStatistics::of(trial);
    std::optional<EventId> best;
    std::optional<EventId> bestAny;
    double bestValue = -1;
    double bestAnyValue = -1;
    for (std::size_t e = 0; e < trial.eventCount(); ++e) {
        const auto& event = trial.event(EventId(e));
        if (event.isCallPath() || callees.contains(event.name))
            continue;
        const double incl = stats->stat(EventId(e), m, ValueKind::Inclusive).meanAll;
        if (incl > bestAnyValue) {
            bestAnyValue = incl;
            bestAny = EventId(e);
        }
        if (!event.name.startsWith(QLatin1Char('(')) && incl > bestValue) {
            bestValue = incl;
            best = EventId(e);
        }
    }
    return best ? best : bestAny;
}

struct Run {
    QString event;
    std::vector<double> values;
};

/// Per run: the top-level event's inclusive value on each thread (0 where it did not run).
std::vector<Run> perThread(const std::vector<std::shared_ptr<const Trial>>& runs, const QString& metric)
{
    std::vector<Run> result;
    for (const auto& run : runs) {
        if (!run)
            continue;
        const auto m = findMetric(*run, metric);
        if (!m)
            continue;
        const auto top = topLevelEvent(*run, *m);
        Run r;
        if (top)
            r.event = run->event(*top).name;
        r.values.reserve(run->threadCount());
        for (std::size_t t = 0; t < run->threadCount(); ++t) {
            double value = 0;
            if (top) {
                const auto& row = run->row(ThreadIndex(t));
                const auto i = row.find(*top);
                if (i >= 0)
                    value = row.inclusive(m->index(), static_cast<std::size_t>(i));
            }
            r.values.push_back(value);
        }
        result.push_back(std::move(r));
    }
    return result;
}

/// One side's mean and standard error: over the runs' means when there are several runs, else
/// over the threads.
Sample sideOf(const std::vector<Run>& runs)
{
    if (runs.size() == 1)
        return sampleOf(runs.front().values);
    std::vector<double> means;
    means.reserve(runs.size());
    for (const auto& run : runs)
        means.push_back(sampleOf(run.values).mean);
    return sampleOf(means);
}

/// Time-like: TAU time (µs) or a metric in seconds or named for time (Caliper's "time" in sec).
bool timeLike(const Metric& metric)
{
    static const QStringList units { QStringLiteral("s"), QStringLiteral("sec"), QStringLiteral("seconds"),
        QStringLiteral("ms"), QStringLiteral("ns") };
    return metric.isTime() || units.contains(metric.unit.toLower())
        || metric.name.contains(QLatin1String("time"), Qt::CaseInsensitive);
}

QString amount(const SpeedupVerdict& v, double value)
{
    const QLocale locale = QLocale(QLocale::English, QLocale::UnitedStates);
    const Metric metric(v.metric, v.unit);
    const QString number = formatMetricValue(value, metric, TimeUnit::Milliseconds, locale);
    const QString unit = unitLabel(metric, TimeUnit::Milliseconds);
    return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

} // namespace

SpeedupVerdict speedupVerdict(const std::vector<std::shared_ptr<const Trial>>& a,
    const std::vector<std::shared_ptr<const Trial>>& b, const QString& metric)
{
    SpeedupVerdict v;
    const auto runsA = perThread(a, metric);
    const auto runsB = perThread(b, metric);
    if (runsA.empty() || runsB.empty())
        return v;
    const Trial& first = *a.front();
    const MetricId m = findMetric(first, metric).value_or(MetricId(0u));
    v.metric = first.metric(m).name;
    v.unit = first.metric(m).unit;
    v.time = first.metric(m).isTime();
    v.higherIsBetter = first.metric(m).higherIsBetter;
    v.timeLike = timeLike(first.metric(m));
    v.event = runsA.front().event;
    v.threadsA = runsA.front().values.size();
    v.threadsB = runsB.front().values.size();
    v.runsA = runsA.size();
    v.runsB = runsB.size();
    v.fromRuns = v.runsA > 1 || v.runsB > 1;
    const Sample sa = sideOf(runsA);
    const Sample sb = sideOf(runsB);
    v.meanA = sa.mean;
    v.meanB = sb.mean;
    v.seA = sa.se;
    v.seB = sb.se;
    v.speedUp = v.meanB > 0 ? v.meanA / v.meanB : 0.0;
    v.noiseKnown = sa.seKnown && sb.seKnown;
    v.noise = v.noiseKnown ? 2.0 * std::sqrt(sa.se * sa.se + sb.se * sb.se) : 0.0;
    return v;
}

QString verdictHeadline(const SpeedupVerdict& v)
{
    if (!v.valid())
        return QStringLiteral("No speed-up: %1 has no top-level %2 value")
            .arg(v.meanA > 0 ? QStringLiteral("B") : QStringLiteral("A"),
                v.metric.isEmpty() ? QStringLiteral("metric") : v.metric);
    const QLocale locale = QLocale(QLocale::English, QLocale::UnitedStates);
    const bool bSmaller = v.speedUp >= 1.0;
    const double factor = bSmaller ? v.speedUp : 1.0 / v.speedUp;
    const QString word = v.timeLike ? (bSmaller ? QStringLiteral("faster") : QStringLiteral("slower"))
                                    : (bSmaller ? QStringLiteral("lower") : QStringLiteral("higher"));
    QString text = v.speedUp == 1.0 ? QStringLiteral("B equals A (S = 1.00)")
                                    : QStringLiteral("B is %1× %2 than A").arg(locale.toString(factor, 'f', 2), word);
    const QString difference = amount(v, std::abs(v.difference()));
    if (!v.noiseKnown)
        return text
            + QStringLiteral(" (difference %1; noise unknown: a side has one thread and one run)").arg(difference);
    const QString noise = amount(v, v.noise);
    if (v.exceedsNoise())
        return text + QStringLiteral(": the difference %1 exceeds the run-to-run noise (± %2)").arg(difference, noise);
    return text
        + QStringLiteral(", within noise: the difference %1 is inside the run-to-run noise (± %2)")
              .arg(difference, noise);
}

QString verdictDefinition(const SpeedupVerdict& v)
{
    const QString what = v.event.isEmpty() ? QStringLiteral("the top-level event") : v.event;
    QString text
        = QStringLiteral("Speed-up S = T_A / T_B = %1 / %2, T = total inclusive %3 of the top-level event (%4), "
                         "mean over threads")
              .arg(amount(v, v.meanA), amount(v, v.meanB), v.metric, what);
    if (v.fromRuns)
        text += QStringLiteral(" and over runs (%1 run%2 of A, %3 run%4 of B)")
                    .arg(v.runsA)
                    .arg(v.runsA == 1 ? QString() : QStringLiteral("s"))
                    .arg(v.runsB)
                    .arg(v.runsB == 1 ? QString() : QStringLiteral("s"));
    text += QStringLiteral(". Noise = 2 × the standard error of T_A − T_B, from the %1.")
                .arg(v.fromRuns ? QStringLiteral("spread between repeated runs")
                                : QStringLiteral("thread-to-thread spread (%1 of A, %2 of B)")
                                      .arg(countText(v.threadsA, QStringLiteral("thread"), QStringLiteral("threads")),
                                          countText(v.threadsB, QStringLiteral("thread"), QStringLiteral("threads"))));
    return text;
}

QString verdictShortDefinition(const SpeedupVerdict& v)
{
    return QStringLiteral(
        "S = T_A / T_B = %1 / %2: the top-level event's inclusive %3 per thread, mean over threads%4; "
        "noise = 2 standard errors (%5).")
        .arg(amount(v, v.meanA), amount(v, v.meanB), v.metric, v.fromRuns ? QStringLiteral(" and runs") : QString(),
            v.fromRuns ? QStringLiteral("spread between runs") : QStringLiteral("thread-to-thread spread"));
}

} // namespace parallax
