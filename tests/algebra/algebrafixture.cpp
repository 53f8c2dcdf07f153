// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The shared fixture of the algebra tests; see algebrafixture.h.
#include "tests/algebra/algebrafixture.h"

#include "datasource/model/trialbuilder.h"
#include "datasource/synth/splitmix.h"
#include "tests/common/testutil.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace parallax::test {

bool near(double a, double b, double tol)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b))
        return a == b;
    return std::abs(a - b) <= tol * std::max({ 1.0, std::abs(a), std::abs(b) });
}

std::optional<double> cell(
    const Trial& trial, const ThreadKey& key, const QString& event, Field field, const QString& metric)
{
    const ThreadIndex t = trial.findThread(key);
    const EventId e = trial.findEvent(event);
    if (!t.isValid() || !e.isValid())
        return std::nullopt;
    const RowView row = trial.row(t);
    const auto i = row.find(e);
    if (i < 0)
        return std::nullopt;
    const auto k = static_cast<std::size_t>(i);
    const std::size_t m = metric.isEmpty() ? 0 : trial.findMetric(metric).index();
    switch (field) {
    case Field::Excl:
        return row.exclusive(m, k);
    case Field::Incl:
        return row.inclusive(m, k);
    case Field::Calls:
        return row.calls[k];
    case Field::Subrs:
        return row.subrs[k];
    }
    return std::nullopt;
}

std::shared_ptr<Trial> treeTrial(const QString& name, const std::vector<std::pair<ThreadKey, Tree>>& threads,
    const QString& metric, const QString& unit)
{
    TrialBuilder b(name);
    b.addMetric({ metric, unit });
    for (const auto& [key, tree] : threads) {
        const ThreadIndex t = b.addThread(key);
        for (const auto& [path, excl] : tree) {
            double incl = excl;
            double subrs = 0;
            const QString prefix = path + QStringLiteral(" => ");
            for (const auto& [other, v] : tree)
                if (other.startsWith(prefix)) {
                    incl += v;
                    if (!other.mid(prefix.size()).contains(QLatin1String(" => ")))
                        ++subrs;
                }
            const double x[] = { excl }, in[] = { incl };
            b.addInterval(t, b.addEvent(path), 1, subrs, x, in);
        }
    }
    return b.build();
}

TrialP cubeA()
{
    return treeTrial(QStringLiteral("A"),
        { { R0,
              { { QStringLiteral("main"), 1 }, { QStringLiteral("main => solve"), 10 },
                  { QStringLiteral("main => solve => MPI_Recv"), 4 }, { QStringLiteral("main => io"), 3 } } },
            { R1,
                { { QStringLiteral("main"), 1 }, { QStringLiteral("main => solve"), 12 },
                    { QStringLiteral("main => solve => MPI_Recv"), 2 }, { QStringLiteral("main => io"), 0.5 } } } });
}

TrialP cubeB()
{
    return treeTrial(QStringLiteral("B"),
        { { R0,
              { { QStringLiteral("main"), 1 }, { QStringLiteral("main => solve"), 8 },
                  { QStringLiteral("main => solve => MPI_Recv"), 1 },
                  { QStringLiteral("main => solve => compute_new"), 1 } } },
            { R1,
                { { QStringLiteral("main"), 1 }, { QStringLiteral("main => solve"), 8.5 },
                    { QStringLiteral("main => solve => MPI_Recv"), 0.5 },
                    { QStringLiteral("main => solve => compute_new"), 1 } } } });
}

TrialP cubeC()
{
    return treeTrial(QStringLiteral("C"),
        { { R0,
              { { QStringLiteral("main"), 1 }, { QStringLiteral("main => solve"), 9 },
                  { QStringLiteral("main => solve => MPI_Recv"), 2 },
                  { QStringLiteral("main => solve => compute_new"), 0.5 }, { QStringLiteral("main => init"), 0.25 } } },
            { R1,
                { { QStringLiteral("main"), 1 }, { QStringLiteral("main => solve"), 9 },
                    { QStringLiteral("main => solve => MPI_Recv"), 1 },
                    { QStringLiteral("main => solve => compute_new"), 0.5 },
                    { QStringLiteral("main => init"), 0.25 } } } });
}

double total(const Trial& trial, Field field, const QString& metric)
{
    const std::size_t m = metric.isEmpty() ? 0 : trial.findMetric(metric).index();
    double sum = 0;
    for (std::size_t t = 0; t < trial.threadCount(); ++t) {
        const RowView row = trial.row(ThreadIndex(t));
        for (std::size_t i = 0; i < row.size(); ++i)
            sum += field == Field::Excl ? row.exclusive(m, i)
                : field == Field::Incl  ? row.inclusive(m, i)
                : field == Field::Calls ? row.calls[i]
                                        : row.subrs[i];
    }
    return sum;
}

bool sameCells(const Trial& x, const Trial& y, double sign, QString* why, double tol)
{
    if (x.cellCount() != y.cellCount()) {
        *why = QStringLiteral("cell counts %1 and %2").arg(x.cellCount()).arg(y.cellCount());
        return false;
    }
    for (std::size_t t = 0; t < x.threadCount(); ++t) {
        const ThreadKey& key = x.threadKey(ThreadIndex(t));
        const RowView row = x.row(ThreadIndex(t));
        for (std::size_t i = 0; i < row.size(); ++i) {
            const QString& name = x.event(row.events[i]).name;
            for (Field f : { Field::Calls, Field::Subrs }) {
                const auto v = cell(y, key, name, f);
                const double expected = sign * (f == Field::Calls ? row.calls[i] : row.subrs[i]);
                if (!v || !near(*v, expected, tol)) {
                    *why = QStringLiteral("%1 on %2: calls/subrs %3, expected %4")
                               .arg(name, key.toString())
                               .arg(v ? *v : -1)
                               .arg(expected);
                    return false;
                }
            }
            for (std::size_t m = 0; m < x.metricCount(); ++m) {
                const QString& metric = x.metric(MetricId(m)).name;
                for (Field f : { Field::Excl, Field::Incl }) {
                    const auto v = cell(y, key, name, f, metric);
                    const double expected = sign * (f == Field::Excl ? row.exclusive(m, i) : row.inclusive(m, i));
                    if (!v || !near(*v, expected, tol)) {
                        *why = QStringLiteral("%1 on %2 (%3): %4, expected %5")
                                   .arg(name, key.toString(), metric)
                                   .arg(v ? *v : -1)
                                   .arg(expected);
                        return false;
                    }
                }
            }
        }
    }
    return true;
}

std::shared_ptr<Trial> threadAsRun(const Trial& in, std::size_t thread, const QString& name)
{
    TrialBuilder b(name);
    b.addDefinitionsOf(in);
    const ThreadIndex t = b.addThread({ 0, 0, 0 });
    b.setIntervalRows({ in.row(ThreadIndex(thread)).toRow() });
    b.setAtomicRows({ in.atomicRow(ThreadIndex(thread)) });
    for (const MetadataEntry& e : in.metadata())
        b.addMetadata(in.strings().get(e.key), in.strings().get(e.value));
    for (const MetadataEntry& e : in.threadMetadata(ThreadIndex(thread)))
        b.addThreadMetadata(t, in.strings().get(e.key), in.strings().get(e.value));
    return b.build();
}

std::shared_ptr<Trial> randomTrial(std::uint64_t seed, const std::vector<ThreadKey>& threads, int events,
    const QStringList& metrics, double presence, const QString& name)
{
    SplitMix64 rng(seed);
    TrialBuilder b(name.isEmpty() ? QStringLiteral("random-%1").arg(seed) : name);
    for (const QString& m : metrics)
        b.addMetric({ m, QStringLiteral("us") });
    std::vector<QString> paths { QStringLiteral("main") };
    for (int i = 1; i < events; ++i)
        paths.push_back(
            paths[static_cast<std::size_t>(rng.below(i))] + QStringLiteral(" => f%1").arg(rng.below(3 * events)));
    std::sort(paths.begin(), paths.end());
    paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
    const AtomicEventId u1 = b.addAtomicEvent(QStringLiteral("Message size"));
    const AtomicEventId u2 = b.addAtomicEvent(QStringLiteral("Bytes : main => f1"));
    for (const ThreadKey& key : threads) {
        const ThreadIndex t = b.addThread(key);
        std::map<QString, std::vector<double>> excl;
        for (const QString& p : paths)
            if (p == QLatin1String("main") || rng.chance(presence)) {
                std::vector<double> v;
                v.reserve(static_cast<std::size_t>(metrics.size()));
                for (int m = 0; m < metrics.size(); ++m)
                    v.push_back(rng.below(4000) / 4.0);
                excl[p] = v;
            }
        for (const auto& [p, v] : excl) {
            std::vector<double> incl = v;
            double subrs = 0;
            const QString prefix = p + QStringLiteral(" => ");
            for (const auto& [q, w] : excl)
                if (q.startsWith(prefix)) {
                    for (std::size_t m = 0; m < incl.size(); ++m)
                        incl[m] += w[m];
                    subrs += 1;
                }
            b.addInterval(t, b.addEvent(p), 1 + rng.below(50), subrs, v, incl);
        }
        for (AtomicEventId u : { u1, u2 })
            if (rng.chance(0.7)) {
                const double n = 1 + rng.below(20), lo = rng.below(10), hi = lo + rng.below(100), mean = (lo + hi) / 2;
                b.addAtomic(t, u, n, hi, lo, mean, n * (mean * mean + 4));
            }
    }
    return b.build();
}

TrialP cpi()
{
    static TrialP trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
    return trial;
}

} // namespace parallax::test
