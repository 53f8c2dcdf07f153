// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The cross-experiment algebra against docs/SEMANTICS.md 4 (worked examples, identities, thread
// policies, matching), on literal trials, generated trials and the real samples.
#include "algebra/contenthash.h"
#include "algebra/derivedmetric.h"
#include "algebra/operations.h"
#include "algebra/parallelfor.h"
#include "algebra/statistics.h"
#include "algebra/units.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/writers/tauwriter.h"
#include "tests/common/testutil.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <xxhash.h>

using namespace parallax;
using namespace parallax::test;

namespace {

using TrialP = std::shared_ptr<const Trial>;
constexpr double Inf = std::numeric_limits<double>::infinity();

bool near(double a, double b, double tol = 1e-9)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b))
        return a == b;
    return std::abs(a - b) <= tol * std::max({ 1.0, std::abs(a), std::abs(b) });
}

enum class Field { Excl, Incl, Calls, Subrs };

/// A cell value by thread key and event name; nullopt when absent.
std::optional<double> cell(
    const Trial& trial, const ThreadKey& key, const QString& event, Field field, const QString& metric = QString())
{
    const ThreadIndex t = trial.findThread(key);
    const EventId e = trial.findEvent(event);
    if (!t.isValid() || !e.isValid())
        return std::nullopt;
    const IntervalRow& row = trial.row(t);
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

#define CHECK_CELL(trial, key, event, field, expected)                                                                 \
    do {                                                                                                               \
        const auto v_ = cell((trial), (key), QStringLiteral(event), (field));                                          \
        QVERIFY2(v_.has_value(), "absent cell: " event);                                                               \
        QVERIFY2(near(*v_, (expected)), qPrintable(QStringLiteral(event ": %1, expected %2").arg(*v_).arg(expected))); \
    } while (0)

/// A call tree per thread: "a => b" paths with their exclusive values. Inclusive is the subtree
/// sum, calls are 1 and subrs the number of children, so the trial is consistent.
using Tree = std::vector<std::pair<QString, double>>;

std::shared_ptr<Trial> treeTrial(const QString& name, const std::vector<std::pair<ThreadKey, Tree>>& threads,
    const QString& metric = QStringLiteral("time"), const QString& unit = QStringLiteral("sec"))
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

const ThreadKey R0 { 0, 0, 0 };
const ThreadKey R1 { 1, 0, 0 };

/// docs/SEMANTICS.md 4.7(a): trials A and B, ranks 0 and 1.
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

/// docs/SEMANTICS.md 4.7(d): trial C.
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

/// Sum of a value over all cells (all threads, all events) of one metric.
double total(const Trial& trial, Field field, const QString& metric = QString())
{
    const std::size_t m = metric.isEmpty() ? 0 : trial.findMetric(metric).index();
    double sum = 0;
    for (std::size_t t = 0; t < trial.threadCount(); ++t) {
        const IntervalRow& row = trial.row(ThreadIndex(t));
        for (std::size_t i = 0; i < row.size(); ++i)
            sum += field == Field::Excl ? row.exclusive(m, i)
                : field == Field::Incl  ? row.inclusive(m, i)
                : field == Field::Calls ? row.calls[i]
                                        : row.subrs[i];
    }
    return sum;
}

/// Cell-wise comparison by thread key, event name and metric name: y == sign * x, same cells.
bool sameCells(const Trial& x, const Trial& y, double sign, QString* why, double tol = 1e-9)
{
    if (x.cellCount() != y.cellCount()) {
        *why = QStringLiteral("cell counts %1 and %2").arg(x.cellCount()).arg(y.cellCount());
        return false;
    }
    for (std::size_t t = 0; t < x.threadCount(); ++t) {
        const ThreadKey& key = x.threadKey(ThreadIndex(t));
        const IntervalRow& row = x.row(ThreadIndex(t));
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

/// One thread of a real trial as a single-thread run keyed (0,0,0).
std::shared_ptr<Trial> threadAsRun(const Trial& in, std::size_t thread, const QString& name)
{
    TrialBuilder b(name);
    for (const Metric& m : in.metrics())
        b.addMetric(m);
    for (const IntervalEvent& e : in.events()) {
        QStringList groups;
        for (GroupId g : e.groups)
            groups << in.groupName(g);
        b.addEvent(e.name, groups, e.rawName);
    }
    for (const AtomicEvent& e : in.atomicEvents())
        b.addAtomicEvent(e.name, e.rawName);
    const ThreadIndex t = b.addThread({ 0, 0, 0 });
    b.setIntervalRows({ in.row(ThreadIndex(thread)) });
    b.setAtomicRows({ in.atomicRow(ThreadIndex(thread)) });
    for (const MetadataEntry& e : in.metadata())
        b.addMetadata(in.strings().get(e.key), in.strings().get(e.value));
    for (const MetadataEntry& e : in.threadMetadata(ThreadIndex(thread)))
        b.addThreadMetadata(t, in.strings().get(e.key), in.strings().get(e.value));
    return b.build();
}

/// splitmix64, for generated trials that are the same on every platform.
class Random {
public:
    explicit Random(std::uint64_t seed)
        : m_state(seed)
    {
    }
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
    bool chance(double p) { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0) < p; }

private:
    std::uint64_t m_state;
};

/// A random consistent trial: a call tree of `events` paths under "main", cells present with
/// probability `presence` (main always), values multiples of 1/4 (exact in diff and mean), user
/// events on some threads.
std::shared_ptr<Trial> randomTrial(std::uint64_t seed, const std::vector<ThreadKey>& threads, int events,
    const QStringList& metrics, double presence = 0.8, const QString& name = QString())
{
    Random rng(seed);
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

const std::vector<ThreadKey> FourThreads { { 0, 0, 0 }, { 0, 0, 1 }, { 1, 0, 0 }, { 1, 0, 1 } };

TrialP cpi()
{
    static TrialP trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
    return trial;
}

} // namespace

class TestAlgebra : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cubeDiff()
    {
        // docs/SEMANTICS.md 4.7(a): diff has 5 nodes; solve incl (4, 4); root incl 7 + 4.5 = 11.5.
        const auto a = cubeA(), b = cubeB();
        QCOMPARE(inclOf(*a, 0, QStringLiteral("main")) + inclOf(*a, 1, QStringLiteral("main")), 33.5);
        QCOMPARE(inclOf(*b, 0, QStringLiteral("main")) + inclOf(*b, 1, QStringLiteral("main")), 22.0);
        const AlgebraResult r = difference(*a, *b);
        QVERIFY2(r, qPrintable(r.error()));
        const Trial& d = *r.trial();
        QCOMPARE(d.eventCount(), std::size_t(5));
        QVERIFY(d.isDerived());
        QCOMPARE(d.provenance().operation, QStringLiteral("diff"));
        QCOMPARE(d.name(), QStringLiteral("diff(A, B)"));
        CHECK_CELL(d, R0, "main", Field::Excl, 0);
        CHECK_CELL(d, R1, "main", Field::Excl, 0);
        CHECK_CELL(d, R0, "main => solve", Field::Excl, 2);
        CHECK_CELL(d, R1, "main => solve", Field::Excl, 3.5);
        CHECK_CELL(d, R0, "main => solve => MPI_Recv", Field::Excl, 3);
        CHECK_CELL(d, R1, "main => solve => MPI_Recv", Field::Excl, 1.5);
        CHECK_CELL(d, R0, "main => io", Field::Excl, 3);
        CHECK_CELL(d, R1, "main => io", Field::Excl, 0.5);
        CHECK_CELL(d, R0, "main => solve => compute_new", Field::Excl, -1);
        CHECK_CELL(d, R1, "main => solve => compute_new", Field::Excl, -1);
        CHECK_CELL(d, R0, "main => solve", Field::Incl, 4); // 14 - 10
        CHECK_CELL(d, R1, "main => solve", Field::Incl, 4);
        CHECK_CELL(d, R0, "main", Field::Incl, 7);
        CHECK_CELL(d, R1, "main", Field::Incl, 4.5);
        // Calls: A - B, so a left-only cell keeps +1 and a right-only cell gets -1.
        CHECK_CELL(d, R0, "main => io", Field::Calls, 1);
        CHECK_CELL(d, R0, "main => solve => compute_new", Field::Calls, -1);
        CHECK_CELL(d, R0, "main => solve", Field::Subrs, -1); // 1 child vs 2
        CHECK_CELL(d, R0, "main", Field::Subrs, 1); // solve and io vs solve
        const double root
            = *cell(d, R0, QStringLiteral("main"), Field::Incl) + *cell(d, R1, QStringLiteral("main"), Field::Incl);
        QCOMPARE(root, 11.5);
        QVERIFY(std::abs(100.0
                        * (*cell(d, R0, QStringLiteral("main => io"), Field::Incl)
                            + *cell(d, R1, QStringLiteral("main => io"), Field::Incl))
                        / root
                    - 30.43)
            < 5e-3);
        // Consistent operands give a consistent result: incl = excl + children's incl.
        QCOMPARE(*cell(d, R0, QStringLiteral("main"), Field::Incl),
            *cell(d, R0, QStringLiteral("main"), Field::Excl)
                + *cell(d, R0, QStringLiteral("main => solve"), Field::Incl)
                + *cell(d, R0, QStringLiteral("main => io"), Field::Incl));
        // Negative values are accepted without any warning.
        QVERIFY2(d.warnings().isEmpty(), qPrintable(d.warnings().join(QLatin1Char('\n'))));
        QVERIFY(isAdditive(d));
        QCOMPARE(d.metric(MetricId(0u)).unit, QStringLiteral("sec"));

        // Markers: 3 both, io only left, compute_new only right.
        const auto presence = Presence::of(d);
        QCOMPARE(presence->operandCount(), std::size_t(2));
        auto marker = [&](const char* name) { return presence->eventMarker(d.findEvent(QString::fromLatin1(name))); };
        QCOMPARE(marker("main"), Presence::Marker::All);
        QCOMPARE(marker("main => solve"), Presence::Marker::All);
        QCOMPARE(marker("main => solve => MPI_Recv"), Presence::Marker::All);
        QCOMPARE(marker("main => io"), Presence::Marker::LeftOnly);
        QCOMPARE(marker("main => solve => compute_new"), Presence::Marker::RightOnly);
        QCOMPARE(
            presence->label(presence->eventMask(d.findEvent(QStringLiteral("main => io")))), QStringLiteral("\u25C0"));
        QCOMPARE(presence->cellMask(d, d.findThread(R1), d.findEvent(QStringLiteral("main => solve => compute_new"))),
            Presence::Mask(2));
        QCOMPARE(presence->cellMask(d, d.findThread(R1), d.findEvent(QStringLiteral("main"))), Presence::Mask(3));
        QCOMPARE(presence->exceptionCount(), std::size_t(0));
        // The persisted form: groups and metadata.
        QVERIFY(d.eventInGroup(d.findEvent(QStringLiteral("main => io")), QStringLiteral("PARALLAX_LEFT_ONLY")));
        QVERIFY(d.eventInGroup(
            d.findEvent(QStringLiteral("main => solve => compute_new")), QStringLiteral("PARALLAX_RIGHT_ONLY")));
        QVERIFY(!d.eventInGroup(d.findEvent(QStringLiteral("main")), QStringLiteral("PARALLAX_LEFT_ONLY")));
        QCOMPARE(d.metadataValue(Presence::operandsKey()), QStringLiteral("2"));
        // Provenance: operands with content hashes, every option spelled out.
        QCOMPARE(d.provenance().operands.size(), 2);
        QVERIFY(d.provenance().operands[0].startsWith(QStringLiteral("A [")));
        QCOMPARE(d.provenance().operands[0], QStringLiteral("A [%1]").arg(contentHash(*a)));
        QVERIFY(d.provenance().options.contains(QStringLiteral("match=EXACT")));
        QVERIFY(d.provenance().options.contains(QStringLiteral("threads=STRICT")));
        QVERIFY(d.provenance().options.contains(QStringLiteral("thread_relation=IDENTICAL")));
        QVERIFY(d.provenance().options.contains(QStringLiteral("version=") + parallaxVersion()));
        QVERIFY(contentHash(*a) != contentHash(*b));
        QCOMPARE(contentHash(*a), contentHash(*cubeA())); // content, not identity
    }

    void cubeMean()
    {
        const AlgebraResult r = mean({ cubeA(), cubeB() });
        QVERIFY2(r, qPrintable(r.error()));
        const Trial& m = *r.trial();
        QCOMPARE(m.provenance().operation, QStringLiteral("mean"));
        CHECK_CELL(m, R0, "main", Field::Excl, 1);
        CHECK_CELL(m, R0, "main => solve", Field::Excl, 9);
        CHECK_CELL(m, R1, "main => solve", Field::Excl, 10.25);
        CHECK_CELL(m, R0, "main => solve => MPI_Recv", Field::Excl, 2.5);
        CHECK_CELL(m, R1, "main => solve => MPI_Recv", Field::Excl, 1.25);
        CHECK_CELL(m, R0, "main => io", Field::Excl, 1.5);
        CHECK_CELL(m, R1, "main => io", Field::Excl, 0.25);
        CHECK_CELL(m, R0, "main => solve => compute_new", Field::Excl, 0.5);
        CHECK_CELL(m, R0, "main", Field::Incl, 14.5);
        CHECK_CELL(m, R1, "main", Field::Incl, 13.25);
        CHECK_CELL(m, R0, "main => io", Field::Calls, 0.5); // calls are means too
        QCOMPARE(total(m, Field::Excl), 27.75);
        QVERIFY(isAdditive(m));
    }

    void presentOnlyMean()
    {
        // docs/SEMANTICS.md 4.7(e): io = (3, 0.5), compute_new = (1, 1); incl main (14.5, 13.25) but
        // sum excl (16.5, 14.0): flagged non-additive.
        AlgebraOptions o;
        o.absent = AbsentCells::Skip;
        const AlgebraResult r = mean({ cubeA(), cubeB() }, o);
        QVERIFY2(r, qPrintable(r.error()));
        const Trial& m = *r.trial();
        CHECK_CELL(m, R0, "main => io", Field::Excl, 3);
        CHECK_CELL(m, R1, "main => io", Field::Excl, 0.5);
        CHECK_CELL(m, R0, "main => solve => compute_new", Field::Excl, 1);
        CHECK_CELL(m, R1, "main => solve => compute_new", Field::Excl, 1);
        CHECK_CELL(m, R0, "main", Field::Incl, 14.5);
        CHECK_CELL(m, R1, "main", Field::Incl, 13.25);
        double excl0 = 0, excl1 = 0;
        for (std::size_t i = 0; i < m.row(m.findThread(R0)).size(); ++i)
            excl0 += m.row(m.findThread(R0)).exclusive(0, i);
        for (std::size_t i = 0; i < m.row(m.findThread(R1)).size(); ++i)
            excl1 += m.row(m.findThread(R1)).exclusive(0, i);
        QCOMPARE(excl0, 16.5);
        QCOMPARE(excl1, 14.0);
        QVERIFY(!isAdditive(m));
        QCOMPARE(m.metadataValue(QStringLiteral("Parallax non-additive")), QStringLiteral("true"));
        QVERIFY(m.provenance().options.contains(QStringLiteral("absent=SKIP")));
        QVERIFY(m.provenance().options.contains(QStringLiteral("additive=false")));
    }

    void hatchetPair()
    {
        // docs/SEMANTICS.md 4.7(b), one thread.
        const auto left = treeTrial(QStringLiteral("left"),
            { { R0,
                { { QStringLiteral("A"), 0 }, { QStringLiteral("A => B"), 5 }, { QStringLiteral("A => B => C"), 5 },
                    { QStringLiteral("A => E"), 10 }, { QStringLiteral("A => E => F"), 9 },
                    { QStringLiteral("A => H"), 10 } } } });
        const auto right = treeTrial(QStringLiteral("right"),
            { { R0,
                { { QStringLiteral("A"), 0 }, { QStringLiteral("A => B"), 0 }, { QStringLiteral("A => B => C"), 5 },
                    { QStringLiteral("A => B => D"), 5 }, { QStringLiteral("A => E"), 10 },
                    { QStringLiteral("A => E => F"), 9 }, { QStringLiteral("A => E => G"), 9 } } } });
        QCOMPARE(inclOf(*left, 0, QStringLiteral("A")), 39.0);
        QCOMPARE(inclOf(*right, 0, QStringLiteral("A")), 38.0);
        QCOMPARE(inclOf(*left, 0, QStringLiteral("A => E")), 19.0);
        QCOMPARE(inclOf(*right, 0, QStringLiteral("A => E")), 28.0);
        const AlgebraResult r = difference(*left, *right);
        QVERIFY2(r, qPrintable(r.error()));
        const Trial& d = *r.trial();
        QCOMPARE(d.eventCount(), std::size_t(8));
        const char* const nodes[]
            = { "A", "A => B", "A => B => C", "A => B => D", "A => E", "A => E => F", "A => E => G", "A => H" };
        const double excl[] = { 0, 5, 0, -5, 0, 0, -9, 10 };
        const double incl[] = { 1, 0, 0, -5, -9, 0, -9, 10 };
        const Presence::Marker markers[] = { Presence::Marker::All, Presence::Marker::All, Presence::Marker::All,
            Presence::Marker::RightOnly, Presence::Marker::All, Presence::Marker::All, Presence::Marker::RightOnly,
            Presence::Marker::LeftOnly };
        const auto presence = Presence::of(d);
        double sumExcl = 0;
        int both = 0, leftOnly = 0, rightOnly = 0;
        for (int i = 0; i < 8; ++i) {
            const QString name = QString::fromLatin1(nodes[i]);
            QVERIFY2(near(*cell(d, R0, name, Field::Excl), excl[i]), nodes[i]);
            QVERIFY2(near(*cell(d, R0, name, Field::Incl), incl[i]), nodes[i]);
            QCOMPARE(presence->eventMarker(d.findEvent(name)), markers[i]);
            sumExcl += excl[i];
            const auto mk = presence->eventMarker(d.findEvent(name));
            both += mk == Presence::Marker::All;
            leftOnly += mk == Presence::Marker::LeftOnly;
            rightOnly += mk == Presence::Marker::RightOnly;
        }
        QCOMPARE(sumExcl, 1.0); // = 39 - 38 = diff incl of the root
        QCOMPARE(both, 5);
        QCOMPARE(leftOnly, 1);
        QCOMPARE(rightOnly, 2);

        const AlgebraResult q = ratio(*left, *right);
        QVERIFY2(q, qPrintable(q.error()));
        const Trial& rt = *q.trial();
        const double rexcl[] = { std::nan(""), Inf, 1, 0, 1, 1, 0, Inf };
        const double rincl[] = { 39.0 / 38.0, 1, 1, 0, 19.0 / 28.0, 1, 0, Inf };
        for (int i = 0; i < 8; ++i) {
            const QString name = QString::fromLatin1(nodes[i]);
            QVERIFY2(near(*cell(rt, R0, name, Field::Excl), rexcl[i]), nodes[i]);
            QVERIFY2(near(*cell(rt, R0, name, Field::Incl), rincl[i]), nodes[i]);
        }
        QVERIFY(std::abs(*cell(rt, R0, QStringLiteral("A"), Field::Incl) - 1.0263) < 5e-5);
        QVERIFY(std::abs(*cell(rt, R0, QStringLiteral("A => E"), Field::Incl) - 0.6786) < 5e-5);
        QVERIFY(!isAdditive(rt));
        QCOMPARE(rt.metric(MetricId(0u)).unit, QString()); // a ratio has no unit
        QCOMPARE(rt.provenance().operation, QStringLiteral("ratio"));
    }

    void identities()
    {
        // docs/SEMANTICS.md 4.7(c) on the real cpi sample: diff(X,X) = 0 everywhere with every marker
        // BOTH; mean(X,X,X,X) = X.
        const TrialP x = cpi();
        QVERIFY(x);
        const AlgebraResult r = difference(*x, *x);
        QVERIFY2(r, qPrintable(r.error()));
        const Trial& d = *r.trial();
        QCOMPARE(d.metricCount(), x->metricCount());
        QCOMPARE(d.eventCount(), x->eventCount());
        QCOMPARE(d.threads(), x->threads());
        QCOMPARE(d.cellCount(), x->cellCount());
        QCOMPARE(d.atomicEventCount(), x->atomicEventCount());
        const auto presence = Presence::of(d);
        for (std::size_t t = 0; t < d.threadCount(); ++t) {
            const IntervalRow& row = d.row(ThreadIndex(t));
            for (std::size_t i = 0; i < row.size(); ++i) {
                QCOMPARE(row.calls[i], 0.0);
                QCOMPARE(row.subrs[i], 0.0);
                QCOMPARE(row.exclusive(0, i), 0.0);
                QCOMPARE(row.inclusive(0, i), 0.0);
                QCOMPARE(presence->marker(presence->cellMaskAt(d, ThreadIndex(t), i)), Presence::Marker::All);
            }
            const AtomicRow& atomic = d.atomicRow(ThreadIndex(t));
            QCOMPARE(atomic.size(), x->atomicRow(ThreadIndex(t)).size());
            for (std::size_t i = 0; i < atomic.size(); ++i) {
                QCOMPARE(atomic.count[i], 0.0);
                QCOMPARE(atomic.mean[i], 0.0);
                QCOMPARE(atomic.stddev(i), 0.0);
            }
        }
        for (std::size_t e = 0; e < d.eventCount(); ++e)
            QCOMPARE(presence->eventMarker(EventId(e)), Presence::Marker::All);
        QVERIFY(d.warnings().isEmpty());
        QVERIFY(d.metadataValue(Presence::eventsKey()).isEmpty());
        // Metadata identical in both operands stays trial-wide; per-thread metadata survives.
        QCOMPARE(d.metadataValue(QStringLiteral("TAU_CALLPATH_DEPTH")),
            x->metadataValue(QStringLiteral("TAU_CALLPATH_DEPTH")));
        QVERIFY(!d.metadataValue(QStringLiteral("Parallax operation")).isEmpty());

        const AlgebraResult m = mean({ x, x, x, x });
        QVERIFY2(m, qPrintable(m.error()));
        QString why;
        QVERIFY2(sameCells(*x, *m.trial(), 1.0, &why), qPrintable(why));
        QVERIFY2(sameCells(*m.trial(), *x, 1.0, &why), qPrintable(why));
        const AtomicRow& ua = x->atomicRow(ThreadIndex(0u));
        const AtomicRow& ub = m.trial()->atomicRow(ThreadIndex(0u));
        for (std::size_t i = 0; i < ua.size(); ++i) {
            QCOMPARE(ub.count[i], ua.count[i]);
            QCOMPARE(ub.mean[i], ua.mean[i]);
            QCOMPARE(ub.sumSquares[i], ua.sumSquares[i]);
            QCOMPARE(ub.stddev(i), ua.stddev(i));
        }
    }

    void composition()
    {
        // docs/SEMANTICS.md 4.7(d): diff(mean(A,B), C), and linearity with mean(diff(A,C), diff(B,C)).
        const auto a = cubeA(), b = cubeB(), c = cubeC();
        const AlgebraResult m = mean({ a, b });
        QVERIFY(m);
        const AlgebraResult r = difference(*m.trial(), *c);
        QVERIFY2(r, qPrintable(r.error()));
        const Trial& d = *r.trial();
        CHECK_CELL(d, R0, "main", Field::Excl, 0);
        CHECK_CELL(d, R1, "main", Field::Excl, 0);
        CHECK_CELL(d, R0, "main => solve", Field::Excl, 0);
        CHECK_CELL(d, R1, "main => solve", Field::Excl, 1.25);
        CHECK_CELL(d, R0, "main => solve => MPI_Recv", Field::Excl, 0.5);
        CHECK_CELL(d, R1, "main => solve => MPI_Recv", Field::Excl, 0.25);
        CHECK_CELL(d, R0, "main => io", Field::Excl, 1.5);
        CHECK_CELL(d, R1, "main => io", Field::Excl, 0.25);
        CHECK_CELL(d, R0, "main => solve => compute_new", Field::Excl, 0);
        CHECK_CELL(d, R0, "main => init", Field::Excl, -0.25);
        CHECK_CELL(d, R1, "main => init", Field::Excl, -0.25);
        CHECK_CELL(d, R0, "main", Field::Incl, 1.75);
        CHECK_CELL(d, R1, "main", Field::Incl, 1.5);
        QCOMPARE(inclOf(*c, 0, QStringLiteral("main")) + inclOf(*c, 1, QStringLiteral("main")), 24.5);
        QCOMPARE(*cell(d, R0, QStringLiteral("main"), Field::Incl) + *cell(d, R1, QStringLiteral("main"), Field::Incl),
            27.75 - 24.5);
        const AlgebraResult ac = difference(*a, *c), bc = difference(*b, *c);
        const AlgebraResult other = mean({ ac.trial(), bc.trial() });
        QVERIFY(other);
        QString why;
        QVERIFY2(sameCells(d, *other.trial(), 1.0, &why), qPrintable(why));
        // Markers of a composed result describe its own operands: init is only in C.
        QCOMPARE(
            Presence::of(d)->eventMarker(d.findEvent(QStringLiteral("main => init"))), Presence::Marker::RightOnly);
        QCOMPARE(Presence::of(d)->eventMarker(d.findEvent(QStringLiteral("main => io"))), Presence::Marker::LeftOnly);
    }

    void mergeMetrics()
    {
        // docs/SEMANTICS.md 4.7(f).
        const auto a = cubeA();
        const auto fp = treeTrial(QStringLiteral("R"),
            { { R0,
                  { { QStringLiteral("main"), 100 }, { QStringLiteral("main => solve"), 1000 },
                      { QStringLiteral("main => solve => MPI_Recv"), 4 }, { QStringLiteral("main => io"), 30 } } },
                { R1,
                    { { QStringLiteral("main"), 100 }, { QStringLiteral("main => solve"), 1200 },
                        { QStringLiteral("main => solve => MPI_Recv"), 2 }, { QStringLiteral("main => io"), 5 } } } },
            QStringLiteral("PAPI_FP_OPS"), QStringLiteral("count"));
        const AlgebraResult r = merge({ a, fp });
        QVERIFY2(r, qPrintable(r.error()));
        const Trial& m = *r.trial();
        QCOMPARE(m.metricCount(), std::size_t(2));
        QCOMPARE(m.metric(MetricId(0u)).name, QStringLiteral("time"));
        QCOMPARE(m.metric(MetricId(1u)).name, QStringLiteral("PAPI_FP_OPS"));
        QCOMPARE(m.metric(MetricId(1u)).unit, QStringLiteral("count"));
        QCOMPARE(*cell(m, R1, QStringLiteral("main => solve"), Field::Excl, QStringLiteral("time")), 12.0);
        QCOMPARE(*cell(m, R1, QStringLiteral("main => solve"), Field::Excl, QStringLiteral("PAPI_FP_OPS")), 1200.0);
        QCOMPARE(*cell(m, R0, QStringLiteral("main"), Field::Incl, QStringLiteral("PAPI_FP_OPS")), 1134.0);
        QVERIFY(m.warnings().isEmpty()); // calls and subrs agree
        QCOMPARE(m.provenance().operation, QStringLiteral("merge"));
        QVERIFY(m.provenance().options.contains(QStringLiteral("conflict=ERROR")));

        // R also has "time": an error by default, naming the metric.
        TrialBuilder rb(QStringLiteral("R2"));
        rb.addMetric({ QStringLiteral("time"), QStringLiteral("sec") });
        rb.addMetric({ QStringLiteral("PAPI_FP_OPS"), QStringLiteral("count") });
        for (const ThreadKey& key : { R0, R1 }) {
            const ThreadIndex t = rb.addThread(key);
            const double x[] = { 2, 200 }, in[] = { 7, 700 };
            rb.addInterval(t, rb.addEvent(QStringLiteral("main")), 1, 1, x, in);
            const double sx[] = { 5, 500 };
            rb.addInterval(t, rb.addEvent(QStringLiteral("main => solve")), 1, 0, sx, sx);
        }
        const TrialP r2 = rb.build();
        const AlgebraResult fails = merge({ a, r2 });
        QVERIFY(!fails);
        QVERIFY2(fails.error().contains(QStringLiteral("time")) && fails.error().contains(QStringLiteral("LAST_WINS")),
            qPrintable(fails.error()));
        // LAST_WINS: time is R2's entirely; A supplies no metric, so io (A only) is absent.
        AlgebraOptions o;
        o.conflict = MergeConflict::LastWins;
        const AlgebraResult last = merge({ a, r2 }, o);
        QVERIFY2(last, qPrintable(last.error()));
        const Trial& l = *last.trial();
        QCOMPARE(l.metricCount(), std::size_t(2));
        QVERIFY(!cell(l, R0, QStringLiteral("main => io"), Field::Excl));
        QCOMPARE(*cell(l, R0, QStringLiteral("main"), Field::Excl, QStringLiteral("time")), 2.0);
        QCOMPARE(*cell(l, R0, QStringLiteral("main => solve"), Field::Incl, QStringLiteral("time")), 5.0);
        QVERIFY(l.provenance().options.contains(QStringLiteral("merge_source[time]=2")));
        QVERIFY(l.warnings().join(QLatin1Char(' ')).contains(QStringLiteral("supplies no metric")));
        // FIRST_WINS: time is A's (never a cell-wise mix); R2 supplies PAPI_FP_OPS, so io is
        // present with PAPI_FP_OPS 0 and calls/subrs disagreements are reported.
        o.conflict = MergeConflict::FirstWins;
        const AlgebraResult first = merge({ a, r2 }, o);
        QVERIFY2(first, qPrintable(first.error()));
        const Trial& f = *first.trial();
        QCOMPARE(*cell(f, R0, QStringLiteral("main => io"), Field::Excl, QStringLiteral("time")), 3.0);
        QCOMPARE(*cell(f, R0, QStringLiteral("main => io"), Field::Excl, QStringLiteral("PAPI_FP_OPS")), 0.0);
        QCOMPARE(*cell(f, R0, QStringLiteral("main => solve"), Field::Excl, QStringLiteral("time")), 10.0);
        QCOMPARE(*cell(f, R0, QStringLiteral("main => solve"), Field::Excl, QStringLiteral("PAPI_FP_OPS")), 500.0);
        QCOMPARE(*cell(f, R0, QStringLiteral("main"), Field::Subrs), 2.0); // from A, the first operand with the cell
        QVERIFY2(f.warnings().join(QLatin1Char(' ')).contains(QStringLiteral("differ between operands in 4 cells")),
            qPrintable(f.warnings().join(QLatin1Char('\n'))));
    }

    void mergeOfDisjointMetricsKeepsEveryValue()
    {
        const auto a = randomTrial(11, FourThreads, 30, { QStringLiteral("T1"), QStringLiteral("T2") });
        const auto b = randomTrial(12, FourThreads, 30, { QStringLiteral("T3") });
        // Both runs have the same user events: an error by default, like a shared metric.
        const AlgebraResult conflict = merge({ a, b });
        QVERIFY(!conflict);
        QVERIFY2(conflict.error().contains(QStringLiteral("atomic events")), qPrintable(conflict.error()));
        AlgebraOptions o;
        o.atomicConflict = MergeConflict::LastWins;
        const AlgebraResult r = merge({ a, b }, o);
        QVERIFY2(r, qPrintable(r.error()));
        const Trial& m = *r.trial();
        QCOMPARE(m.metricCount(), std::size_t(3));
        for (const TrialP& src : { TrialP(a), TrialP(b) })
            for (std::size_t t = 0; t < src->threadCount(); ++t) {
                const IntervalRow& row = src->row(ThreadIndex(t));
                for (std::size_t i = 0; i < row.size(); ++i)
                    for (std::size_t k = 0; k < src->metricCount(); ++k) {
                        const QString& metric = src->metric(MetricId(k)).name;
                        const QString& name = src->event(row.events[i]).name;
                        QCOMPARE(
                            *cell(m, src->threadKey(ThreadIndex(t)), name, Field::Excl, metric), row.exclusive(k, i));
                        QCOMPARE(
                            *cell(m, src->threadKey(ThreadIndex(t)), name, Field::Incl, metric), row.inclusive(k, i));
                    }
            }
        // LAST_WINS for atomic events: B's records, whole.
        for (std::size_t t = 0; t < b->threadCount(); ++t) {
            const AtomicRow& src = b->atomicRow(ThreadIndex(t));
            const AtomicRow& dst = m.atomicRow(m.findThread(b->threadKey(ThreadIndex(t))));
            QCOMPARE(dst.size(), src.size());
            for (std::size_t i = 0; i < src.size(); ++i)
                QCOMPARE(dst.count[i], src.count[i]);
        }
    }

    void atomicEvents()
    {
        // docs/SEMANTICS.md 1.5 / 4.3: diff field-wise on n, min, max, mean, sd; mean pooled.
        auto make = [](const QString& name, double n, double max, double min, double mean, double sumsqr) {
            TrialBuilder b(name);
            b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
            const ThreadIndex t = b.addThread({ 0, 0, 0 });
            const double v[] = { 1 };
            b.addInterval(t, b.addEvent(QStringLiteral("main")), 1, 0, v, v);
            b.addAtomic(t, b.addAtomicEvent(QStringLiteral("Message size for broadcast")), n, max, min, mean, sumsqr);
            if (name == QLatin1String("B"))
                b.addAtomic(t, b.addAtomicEvent(QStringLiteral("Bytes Read")), 2, 10, 6, 8, 136);
            return TrialP(b.build());
        };
        const TrialP a = make(QStringLiteral("A"), 64, 4096, 4, 72.875, 16808256);
        const TrialP b = make(QStringLiteral("B"), 1, 4, 4, 4, 16);
        QVERIFY(std::abs(a->atomicRow(ThreadIndex(0u)).stddev(0) - 507.265) < 1e-3);
        const AlgebraResult d = difference(*a, *b);
        QVERIFY2(d, qPrintable(d.error()));
        const Trial& dt = *d.trial();
        const AtomicRow& row = dt.atomicRow(ThreadIndex(0u));
        QCOMPARE(row.size(), std::size_t(2));
        const auto i
            = static_cast<std::size_t>(row.find(dt.findAtomicEvent(QStringLiteral("Message size for broadcast"))));
        QCOMPARE(row.count[i], 63.0);
        QCOMPARE(row.max[i], 4092.0);
        QCOMPARE(row.min[i], 0.0);
        QCOMPARE(row.mean[i], 68.875);
        QCOMPARE(row.sumSquares[i], 0.0); // dropped
        QVERIFY(std::abs(row.stddev(i) - 507.265) < 1e-3); // sd(A) - sd(B) = 507.265 - 0
        const auto j = static_cast<std::size_t>(row.find(dt.findAtomicEvent(QStringLiteral("Bytes Read"))));
        QCOMPARE(row.count[j], -2.0); // right-only: negated
        QCOMPARE(row.mean[j], -8.0);
        QCOMPARE(row.stddev(j), -2.0);

        const AlgebraResult m = mean({ a, b });
        QVERIFY2(m, qPrintable(m.error()));
        const AtomicRow& mr = m.trial()->atomicRow(ThreadIndex(0u));
        const auto k = static_cast<std::size_t>(
            mr.find(m.trial()->findAtomicEvent(QStringLiteral("Message size for broadcast"))));
        QCOMPARE(mr.count[k], 32.5);
        QVERIFY(near(mr.mean[k], 4668.0 / 65));
        QCOMPARE(mr.min[k], 4.0);
        QCOMPARE(mr.max[k], 4096.0);
        QCOMPARE(mr.sumSquares[k], 16808272.0 / 2);
        QVERIFY(std::abs(mr.stddev(k) - 503.420) < 1e-3); // the pooled sd
        QVERIFY(mr.stdDev.empty());

        // Merge: the same conflict rule as metrics.
        const AlgebraResult fails = merge({ a, b });
        QVERIFY(!fails); // TIME is in both
        AlgebraOptions o;
        o.conflict = MergeConflict::LastWins;
        o.atomicConflict = MergeConflict::FirstWins;
        const AlgebraResult mg = merge({ a, b }, o);
        QVERIFY2(mg, qPrintable(mg.error()));
        const AtomicRow& g = mg.trial()->atomicRow(ThreadIndex(0u));
        const auto gi = static_cast<std::size_t>(
            g.find(mg.trial()->findAtomicEvent(QStringLiteral("Message size for broadcast"))));
        QCOMPARE(g.count[gi], 64.0); // the first operand's, whole
        QCOMPARE(g.sumSquares[gi], 16808256.0);
    }

    void summaries()
    {
        // Cross-run min / max / stddev with the union and mask rules.
        const auto a = cubeA(), b = cubeB();
        const AlgebraResult lo = summary({ a, b }, Summary::Minimum);
        const AlgebraResult hi = summary({ a, b }, Summary::Maximum);
        const AlgebraResult sd = summary({ a, b }, Summary::StdDev);
        QVERIFY(lo && hi && sd);
        CHECK_CELL(*lo.trial(), R1, "main => solve", Field::Excl, 8.5);
        CHECK_CELL(*hi.trial(), R1, "main => solve", Field::Excl, 12);
        CHECK_CELL(*sd.trial(), R1, "main => solve", Field::Excl, 1.75);
        CHECK_CELL(*lo.trial(), R0, "main => io", Field::Excl, 0); // absent counts as 0
        CHECK_CELL(*sd.trial(), R0, "main => io", Field::Excl, 1.5);
        CHECK_CELL(*hi.trial(), R0, "main", Field::Incl, 18);
        QCOMPARE(lo.trial()->provenance().operation, QStringLiteral("min"));
        QCOMPARE(sd.trial()->provenance().operation, QStringLiteral("stddev"));
        QVERIFY(!isAdditive(*lo.trial()) && !isAdditive(*hi.trial()) && !isAdditive(*sd.trial()));
        AlgebraOptions skip;
        skip.absent = AbsentCells::Skip;
        const AlgebraResult lo2 = summary({ a, b }, Summary::Minimum, skip);
        const AlgebraResult sd2 = summary({ a, b }, Summary::StdDev, skip);
        CHECK_CELL(*lo2.trial(), R0, "main => io", Field::Excl, 3); // over the present operands
        CHECK_CELL(*sd2.trial(), R0, "main => io", Field::Excl, 0); // one value
        QCOMPARE(Presence::of(*lo.trial())->eventMarker(lo.trial()->findEvent(QStringLiteral("main => io"))),
            Presence::Marker::LeftOnly);
    }

    void s3dMeanOfSixteenRuns()
    {
        // docs/SEMANTICS.md 2 golden data as 16 single-thread runs: the mean of the runs is the mean of
        // the threads, 2025.0034375 s = 0:33:45.003; min, max and the population sd likewise.
        const double s[] = { 2020.588, 2049.899, 2045.356, 1998.833, 2034.705, 2054.211, 2056.913, 2006.531, 2032.193,
            2050.019, 2047.034, 2006.013, 1992.337, 2012.386, 2016.167, 1976.87 };
        std::vector<TrialP> runs;
        for (int i = 0; i < 16; ++i) {
            TrialBuilder b(QStringLiteral("s3d-%1").arg(i));
            b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
            const double v[] = { s[i] * 1e6 };
            b.addInterval(b.addThread({ 0, 0, 0 }), b.addEvent(QStringLiteral("INT_RTE")), 1, 0, v, v);
            runs.push_back(b.build());
        }
        const AlgebraResult m = mean(runs);
        QVERIFY2(m, qPrintable(m.error()));
        const double meanUs = *cell(*m.trial(), R0, QStringLiteral("INT_RTE"), Field::Excl);
        QVERIFY(near(meanUs / 1e6, 2025.0034375));
        QCOMPARE(formatHms(meanUs / 1e6), QStringLiteral("0:33:45.003"));
        QVERIFY(m.trial()->name().contains(QStringLiteral("16 trials")));
        QCOMPARE(
            *cell(*summary(runs, Summary::Minimum).trial(), R0, QStringLiteral("INT_RTE"), Field::Excl) / 1e6, 1976.87);
        QCOMPARE(*cell(*summary(runs, Summary::Maximum).trial(), R0, QStringLiteral("INT_RTE"), Field::Excl) / 1e6,
            2056.913);
        const double sd
            = *cell(*summary(runs, Summary::StdDev).trial(), R0, QStringLiteral("INT_RTE"), Field::Excl) / 1e6;
        QVERIFY2(std::abs(sd - 23.9657) < 5e-5, qPrintable(QString::number(sd, 'g', 10)));
    }

    void realRanksAsTwoRuns()
    {
        // Ranks 0 and 1 of the real cpi sample as two single-thread runs.
        const TrialP x = cpi();
        QVERIFY(x);
        const TrialP r0 = threadAsRun(*x, 0, QStringLiteral("rank0"));
        const TrialP r1 = threadAsRun(*x, 1, QStringLiteral("rank1"));
        const AlgebraResult r = difference(*r0, *r1);
        QVERIFY2(r, qPrintable(r.error()));
        const Trial& d = *r.trial();
        QCOMPARE(d.threadCount(), std::size_t(1));
        QCOMPARE(d.eventCount(), x->eventCount());
        CHECK_CELL(d, R0, "MPI_File_open()", Field::Excl, 27490 - 26904);
        CHECK_CELL(d, R0, ".TAU application => MPI_Finalize() => MPI_File_open()", Field::Excl, 586);
        CHECK_CELL(d, R0, ".TAU application", Field::Excl, 449 - 419);
        CHECK_CELL(d, R0, ".TAU application", Field::Incl, 51781 - 55329);
        CHECK_CELL(d, R0, "MPI_Finalize()", Field::Excl, 4458 - 4894);
        CHECK_CELL(d, R0, "MPI_Finalize()", Field::Incl, 32304 - 32754);
        CHECK_CELL(d, R0, "MPI_Bcast()", Field::Excl, 218 - 333);
        CHECK_CELL(d, R0, "MPI_Init()", Field::Calls, 0);
        // Sum of flat exclusive = root inclusive on every rank, so also for the diff.
        double flat = 0;
        const IntervalRow& row = d.row(ThreadIndex(0u));
        for (std::size_t i = 0; i < row.size(); ++i)
            if (!d.event(row.events[i]).isCallPath())
                flat += row.exclusive(0, i);
        QCOMPARE(flat, -3548.0);
        QVERIFY2(d.warnings().isEmpty(), qPrintable(d.warnings().join(QLatin1Char('\n'))));
        const auto presence = Presence::of(d);
        for (std::size_t e = 0; e < d.eventCount(); ++e)
            QCOMPARE(presence->eventMarker(EventId(e)), Presence::Marker::All);
        QVERIFY(d.eventInGroup(
            d.findEvent(QStringLiteral(".TAU application => MPI_Init()")), QStringLiteral("TAU_CALLPATH")));
        QCOMPARE(d.metric(MetricId(0u)).name, QStringLiteral("TIME"));
        // Statistics of a derived trial work like any other.
        const Stat& st = TrialStatistics::of(d)->stat(
            d.findEvent(QStringLiteral("MPI_Finalize()")), MetricId(0u), ValueKind::Exclusive);
        QCOMPARE(st.total, -436.0);
        // User events: the same records on both ranks give 0.
        const AtomicRow& u = d.atomicRow(ThreadIndex(0u));
        QCOMPARE(u.size(), std::size_t(2));
        QCOMPARE(u.count[0], 0.0);

        const AlgebraResult m = mean({ r0, r1 });
        QVERIFY(m);
        CHECK_CELL(*m.trial(), R0, "MPI_File_open()", Field::Excl, (27490 + 26904) / 2.0);
        // The four ranks as four runs: the mean of runs equals the across-thread mean (27118.5),
        // the population sd of runs the across-thread sd (221.692).
        std::vector<TrialP> four;
        for (std::size_t t = 0; t < 4; ++t)
            four.push_back(threadAsRun(*x, t, QStringLiteral("rank%1").arg(t)));
        CHECK_CELL(*mean(four).trial(), R0, "MPI_File_open()", Field::Excl, 27118.5);
        const double sd
            = *cell(*summary(four, Summary::StdDev).trial(), R0, QStringLiteral("MPI_File_open()"), Field::Excl);
        QVERIFY(std::abs(sd - 221.692) < 1e-3);
        const Stat& across = TrialStatistics::of(*x)->stat(
            x->findEvent(QStringLiteral("MPI_File_open()")), MetricId(0u), ValueKind::Exclusive);
        QVERIFY(near(sd, across.sdAll));
    }

    void threadPolicies()
    {
        // docs/SEMANTICS.md 4.5 example: P and Q overlap.
        auto make = [](const QString& name, const std::vector<std::pair<ThreadKey, double>>& values) {
            TrialBuilder b(name);
            b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
            const EventId solve = b.addEvent(QStringLiteral("solve"));
            for (const auto& [key, v] : values) {
                const double x[] = { v };
                b.addInterval(b.addThread(key), solve, 1, 0, x, x);
            }
            return TrialP(b.build());
        };
        const TrialP p = make(
            QStringLiteral("P"), { { { 0, 0, 0 }, 4 }, { { 0, 0, 1 }, 3 }, { { 1, 0, 0 }, 5 }, { { 1, 0, 1 }, 2 } });
        const TrialP q = make(
            QStringLiteral("Q"), { { { 0, 0, 0 }, 3 }, { { 1, 0, 0 }, 3 }, { { 2, 0, 0 }, 2 }, { { 3, 0, 0 }, 2 } });
        QCOMPARE(classifyThreadSets({ p->threads(), q->threads() }), ThreadSetRelation::Overlap);
        const AlgebraResult strict = difference(*p, *q);
        QVERIFY(!strict);
        QVERIFY2(strict.error().contains(QStringLiteral("overlapping"))
                && strict.error().contains(QStringLiteral("COLLAPSE_PROCESS")),
            qPrintable(strict.error()));

        auto values = [](const Trial& t) {
            std::vector<double> v;
            for (std::size_t i = 0; i < t.threadCount(); ++i)
                v.push_back(t.row(ThreadIndex(i)).size() ? t.row(ThreadIndex(i)).exclusive(0, 0) : std::nan(""));
            return v;
        };
        AlgebraOptions o;
        o.threads = ThreadPolicy::CollapseProcess;
        const AlgebraResult cp = difference(*p, *q, o);
        QVERIFY2(cp, qPrintable(cp.error()));
        QCOMPARE(
            cp.trial()->threads(), (std::vector<ThreadKey> { { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 0 } }));
        QCOMPARE(values(*cp.trial()), (std::vector<double> { 4, 4, -2, -2 }));
        QVERIFY(cp.trial()->provenance().options.contains(QStringLiteral("thread_relation=OVERLAP")));
        QVERIFY(cp.trial()->provenance().options.contains(QStringLiteral("thread_policy=COLLAPSE_PROCESS")));
        QVERIFY(cp.trial()->provenance().options.contains(
            QStringLiteral("thread_map[1]=(0,0,0)->(0,0,0);(0,0,1)->(0,0,0);(1,0,0)->(1,0,0);(1,0,1)->(1,0,0)")));
        // Threads 2 and 3 exist only in Q: the thread markers say so, and the cells follow.
        const auto presence = Presence::of(*cp.trial());
        QCOMPARE(presence->threadMask(ThreadIndex(2u)), Presence::Mask(2));
        QCOMPARE(presence->cellMask(*cp.trial(), ThreadIndex(2u), cp.trial()->findEvent(QStringLiteral("solve"))),
            Presence::Mask(2));
        QCOMPARE(presence->cellMask(*cp.trial(), ThreadIndex(0u), cp.trial()->findEvent(QStringLiteral("solve"))),
            Presence::Mask(3));

        o.threads = ThreadPolicy::MapByOrder;
        const AlgebraResult mo = difference(*p, *q, o);
        QVERIFY2(mo, qPrintable(mo.error()));
        QCOMPARE(mo.trial()->threads(), p->threads()); // the tie goes to P
        QCOMPARE(values(*mo.trial()), (std::vector<double> { 1, 0, 3, 0 }));
        QVERIFY(mo.trial()->provenance().options.contains(
            QStringLiteral("thread_map[2]=(0,0,0)->(0,0,0);(1,0,0)->(0,0,1);(2,0,0)->(1,0,0);(3,0,0)->(1,0,1)")));
        // The mapping is also in the metadata, which survives saving.
        const QStringList persisted
            = mo.trial()->metadataValue(QStringLiteral("Parallax provenance")).split(QLatin1Char('\n'));
        QVERIFY(persisted.contains(QStringLiteral("op=diff")));
        QVERIFY(persisted.contains(QStringLiteral("thread_policy=MAP_BY_ORDER")));
        QVERIFY(persisted.contains(
            QStringLiteral("thread_map[2]=(0,0,0)->(0,0,0);(1,0,0)->(0,0,1);(2,0,0)->(1,0,0);(3,0,0)->(1,0,1)")));

        o.threads = ThreadPolicy::CollapseAll;
        const AlgebraResult ca = difference(*p, *q, o);
        QVERIFY2(ca, qPrintable(ca.error()));
        QCOMPARE(values(*ca.trial()), (std::vector<double> { 4 }));

        o.threads = ThreadPolicy::UnionByKey;
        const AlgebraResult ub = difference(*p, *q, o);
        QVERIFY2(ub, qPrintable(ub.error()));
        QCOMPARE(ub.trial()->threadCount(), std::size_t(6));
        for (const AlgebraResult* r : { &cp, &mo, &ca, &ub })
            QCOMPARE(total(*r->trial(), Field::Excl), 4.0); // totals are invariant under every policy
    }

    void realThreadSetMismatch()
    {
        // cpi (ranks 0..3) against the OpenMP sample ((0,0,0), (0,0,1)): the sets overlap.
        const TrialP x = cpi();
        const TrialP omp = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-openmp-2thread")));
        QVERIFY(x && omp);
        QVERIFY(!difference(*x, *omp));
        const double expected = total(*x, Field::Excl) - total(*omp, Field::Excl);
        const ThreadPolicy policies[] = { ThreadPolicy::UnionByKey, ThreadPolicy::CollapseProcess,
            ThreadPolicy::CollapseAll, ThreadPolicy::MapByOrder };
        const std::size_t threads[] = { 5, 4, 1, 4 };
        for (int i = 0; i < 4; ++i) {
            AlgebraOptions o;
            o.threads = policies[i];
            const AlgebraResult r = difference(*x, *omp, o);
            QVERIFY2(r, qPrintable(r.error()));
            QCOMPARE(r.trial()->threadCount(), threads[i]);
            QVERIFY(near(total(*r.trial(), Field::Excl), expected));
            QVERIFY(near(total(*r.trial(), Field::Calls), total(*x, Field::Calls) - total(*omp, Field::Calls)));
            QVERIFY(r.trial()->warnings().isEmpty());
        }
        // COLLAPSE_PROCESS sums the two OpenMP threads into (0,0,0): main (thread 0 only) and the
        // OpenMP region (both threads) are right-only events.
        AlgebraOptions o;
        o.threads = ThreadPolicy::CollapseProcess;
        const TrialP cp = difference(*x, *omp, o).trial();
        CHECK_CELL(*cp, R0, ".TAU application", Field::Excl, 449.0 - 1460610);
        CHECK_CELL(*cp, R0, "compute OpenMP region", Field::Excl, -(1080268.0 + 1120473));
        CHECK_CELL(*cp, R0, "int main(int, char **) [{matmult.c} {134,1}-{207,1}]", Field::Incl, -2586970);
        QVERIFY(!cell(*cp, R1, QStringLiteral("compute OpenMP region"), Field::Excl));
        // SUBSET needs no policy: the four ranks against rank 0 alone; ranks 1..3 are left-only.
        const TrialP r0 = threadAsRun(*x, 0, QStringLiteral("rank0"));
        const AlgebraResult sub = difference(*x, *r0);
        QVERIFY2(sub, qPrintable(sub.error()));
        QCOMPARE(sub.trial()->threadCount(), std::size_t(4));
        QVERIFY(sub.trial()->provenance().options.contains(QStringLiteral("thread_relation=SUBSET")));
        CHECK_CELL(*sub.trial(), R0, "MPI_File_open()", Field::Excl, 0);
        CHECK_CELL(*sub.trial(), R1, "MPI_File_open()", Field::Excl, 26904);
        const auto presence = Presence::of(*sub.trial());
        QCOMPARE(presence->threadMask(ThreadIndex(0u)), Presence::Mask(3));
        QCOMPARE(presence->threadMask(ThreadIndex(1u)), Presence::Mask(1));
        QCOMPARE(presence->cellMask(
                     *sub.trial(), ThreadIndex(1u), sub.trial()->findEvent(QStringLiteral("MPI_File_open()"))),
            Presence::Mask(1));
        QCOMPARE(
            presence->eventMarker(sub.trial()->findEvent(QStringLiteral("MPI_File_open()"))), Presence::Marker::All);
        // Remap: one trial collapsed on its own keeps every total.
        const AlgebraResult all = remapThreads(*x, ThreadPolicy::CollapseAll);
        QVERIFY2(all, qPrintable(all.error()));
        QCOMPARE(all.trial()->threadCount(), std::size_t(1));
        QCOMPARE(total(*all.trial(), Field::Excl), total(*x, Field::Excl));
        CHECK_CELL(*all.trial(), R0, "MPI_File_open()", Field::Excl, 27490 + 26904 + 27029 + 27051);
        QCOMPARE(all.trial()->provenance().operation, QStringLiteral("remap"));
        QCOMPARE(all.trial()->atomicRow(ThreadIndex(0u)).count[0], 4.0); // pooled
        QVERIFY(!remapThreads(*x, ThreadPolicy::MapByOrder));
    }

    void normalisedNames()
    {
        // docs/SEMANTICS.md 1.9 worked strings.
        const QString foo = QStringLiteral("int foo(int) C [{foo.c} {3,1}-{7,1}]");
        QCOMPARE(matchComponent(foo, EventMatchPolicy::Exact), foo);
        QCOMPARE(matchComponent(foo, EventMatchPolicy::NoSource), QStringLiteral("int foo(int) C"));
        QCOMPARE(matchComponent(foo, EventMatchPolicy::Routine), QStringLiteral("foo"));
        const QString wrap = QStringLiteral("int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}] [ <size> = <100> ]");
        QCOMPARE(matchComponent(wrap, EventMatchPolicy::NoSource),
            QStringLiteral("int __wrap_dgemm(int) C [ <size> = <100> ]"));
        QCOMPARE(
            matchComponent(QStringLiteral("foo [{foo.c} {12}]"), EventMatchPolicy::NoSource), QStringLiteral("foo"));
        QCOMPARE(matchComponent(QStringLiteral("MPI_Init()"), EventMatchPolicy::Routine), QStringLiteral("MPI_Init"));
        QCOMPARE(matchComponent(QStringLiteral("void Solver::solve_3(const Vector &) C [{solver.cpp} {20,1}-{90,1}]"),
                     EventMatchPolicy::Routine),
            QStringLiteral("Solver::solve_3"));
        QCOMPARE(matchComponent(
                     QStringLiteral("std::map<int, int> ns::f<a, b>(int, char **) C++"), EventMatchPolicy::Routine),
            QStringLiteral("ns::f<a, b>"));
        QCOMPARE(matchComponent(QStringLiteral("int *alloc(int)"), EventMatchPolicy::Routine), QStringLiteral("alloc"));
        QCOMPARE(matchComponent(QStringLiteral(".TAU application"), EventMatchPolicy::Routine),
            QStringLiteral(".TAU application"));
        QCOMPARE(matchComponent(QStringLiteral("[SAMPLE] foo [{foo.c} {12}]"), EventMatchPolicy::Routine),
            QStringLiteral("[SAMPLE] foo [{foo.c} {12}]"));
        QCOMPARE(matchComponent(QStringLiteral("OpenMP_PARALLEL_REGION: f(int) [OPENMP]"), EventMatchPolicy::Routine),
            QStringLiteral("OpenMP_PARALLEL_REGION: f(int) [OPENMP]"));
        QCOMPARE(
            matchComponent(QStringLiteral("Loop: FLUX_X_3 [{flux_x.f90} {10,7}-{20,12}]"), EventMatchPolicy::Routine),
            QStringLiteral("Loop: FLUX_X_3"));
        EventMatching routine;
        routine.policy = EventMatchPolicy::Routine;
        QCOMPARE(
            matchKey(QStringLiteral(
                         "int main(int, char **) C [{main.c} {5,1}-{17,1}] => int foo(int) C [{foo.c} {3,1}-{7,1}]"),
                routine),
            QStringLiteral("main => foo"));
        routine.rename.insert(QStringLiteral("foo"), QStringLiteral("bar"));
        QCOMPARE(matchKey(QStringLiteral("int main(int, char **) C => int foo(int) C"), routine),
            QStringLiteral("main => bar"));
        QCOMPARE(*eventMatchPolicyFromName(u"no-source"), EventMatchPolicy::NoSource);
        QCOMPARE(*threadPolicyFromName(u"collapse_all"), ThreadPolicy::CollapseAll);
        QVERIFY(!threadPolicyFromName(u"sideways"));
    }

    void sourceAgainstCompilerInstrumentation()
    {
        // The real wrap sample (PDT names with source locations and parameter timers) against a
        // compiler-instrumented run of the same program that has bare routine names.
        const TrialP wrap = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")));
        QVERIFY(wrap);
        const TrialP rank0 = threadAsRun(*wrap, 0, QStringLiteral("pdt"));
        TrialBuilder b(QStringLiteral("compiler"));
        b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
        const ThreadIndex t = b.addThread({ 0, 0, 0 });
        const std::pair<const char*, double> rows[] = { { "main", 60 }, { "MPI_Init()", 1047000 }, { "foo", 20 },
            { "__wrap_dgemm", 70 }, { "MPI_Finalize()", 2000 } };
        for (const auto& [name, v] : rows) {
            const double x[] = { v };
            b.addInterval(t, b.addEvent(QString::fromLatin1(name)), 1, 0, x, x);
        }
        const TrialP compiler = b.build();
        // EXACT: nothing but the MPI routines matches.
        const AlgebraResult exact = difference(*rank0, *compiler);
        QVERIFY(exact);
        QCOMPARE(exact.trial()->eventCount(), std::size_t(8 + 3));
        // ROUTINE: every routine matches; the three TAU_PARAM timers are dropped.
        AlgebraOptions o;
        o.match.policy = EventMatchPolicy::Routine;
        const AlgebraResult r = difference(*rank0, *compiler, o);
        QVERIFY2(r, qPrintable(r.error()));
        const Trial& d = *r.trial();
        QCOMPARE(d.eventCount(), std::size_t(5));
        const auto presence = Presence::of(d);
        for (std::size_t e = 0; e < d.eventCount(); ++e)
            QCOMPARE(presence->eventMarker(EventId(e)), Presence::Marker::All);
        CHECK_CELL(d, R0, "__wrap_dgemm", Field::Excl, 58 - 70);
        CHECK_CELL(d, R0, "__wrap_dgemm", Field::Calls, 3 - 1);
        CHECK_CELL(d, R0, "main", Field::Excl, 51 - 60);
        CHECK_CELL(d, R0, "MPI_Init", Field::Excl, 1047345 - 1047000);
        CHECK_CELL(d, R0, "foo", Field::Excl, 15 - 20);
        QVERIFY(d.provenance().options.contains(QStringLiteral("match=ROUTINE")));
        QVERIFY(d.provenance().options.contains(QStringLiteral("dropped_events=3")));
        QVERIFY(d.warnings().isEmpty()); // no collisions: the parameter timers are dropped, not summed
        // Two real ranks under ROUTINE: the base timer re-measured by its parameter timers counts once.
        const AlgebraResult ranks = difference(*rank0, *threadAsRun(*wrap, 1, QStringLiteral("rank1")), o);
        QVERIFY(ranks);
        CHECK_CELL(*ranks.trial(), R0, "__wrap_dgemm", Field::Excl, 58 - 64);
        QCOMPARE(ranks.trial()->eventCount(), std::size_t(5));

        // NO_SOURCE collisions in one trial are summed, recorded and warned about.
        TrialBuilder c(QStringLiteral("moved"));
        c.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
        const ThreadIndex ct = c.addThread({ 0, 0, 0 });
        const double x1[] = { 5 }, x2[] = { 7 };
        c.addInterval(ct, c.addEvent(QStringLiteral("foo [{a.c} {1,1}-{2,1}]")), 1, 0, x1, x1);
        c.addInterval(ct, c.addEvent(QStringLiteral("foo [{b.c} {9,1}-{12,1}]")), 2, 0, x2, x2);
        const TrialP moved = c.build();
        AlgebraOptions ns;
        ns.match.policy = EventMatchPolicy::NoSource;
        const AlgebraResult col = difference(*moved, *compiler, ns);
        QVERIFY2(col, qPrintable(col.error()));
        CHECK_CELL(*col.trial(), R0, "foo", Field::Excl, 12 - 20);
        CHECK_CELL(*col.trial(), R0, "foo", Field::Calls, 3 - 1);
        QVERIFY(col.trial()
                    ->warnings()
                    .join(QLatin1Char(' '))
                    .contains(QStringLiteral("foo <= foo [{a.c} {1,1}-{2,1}] | foo [{b.c} {9,1}-{12,1}]")));
        QVERIFY(col.trial()->provenance().options.join(QLatin1Char('\n')).contains(QStringLiteral("collision=")));
    }

    void propertiesOnGeneratedTrials()
    {
        const QStringList metrics { QStringLiteral("TIME"), QStringLiteral("PAPI_TOT_CYC") };
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            const auto a = randomTrial(seed * 3, FourThreads, 40, metrics);
            const auto b = randomTrial(seed * 3 + 1, FourThreads, 40, metrics);
            const auto c = randomTrial(seed * 3 + 2, FourThreads, 40, metrics);
            const TrialP ab = difference(*a, *b).trial(), ba = difference(*b, *a).trial();
            QVERIFY(ab && ba);
            QString why;
            // Linearity: diff(A,B) = -diff(B,A), with the markers mirrored.
            QVERIFY2(sameCells(*ab, *ba, -1.0, &why), qPrintable(why));
            const auto pab = Presence::of(*ab), pba = Presence::of(*ba);
            for (std::size_t t = 0; t < ab->threadCount(); ++t) {
                const IntervalRow& row = ab->row(ThreadIndex(t));
                for (std::size_t i = 0; i < row.size(); ++i) {
                    const Presence::Mask m1 = pab->cellMaskAt(*ab, ThreadIndex(t), i);
                    const Presence::Mask m2 = pba->cellMask(*ba, ba->findThread(ab->threadKey(ThreadIndex(t))),
                        ba->findEvent(ab->event(row.events[i]).name));
                    QCOMPARE(m2, ((m1 & 1) << 1) | ((m1 & 2) >> 1));
                    // The mask is exactly "present in A" / "present in B".
                    const bool inA
                        = cell(*a, ab->threadKey(ThreadIndex(t)), ab->event(row.events[i]).name, Field::Calls)
                              .has_value();
                    const bool inB
                        = cell(*b, ab->threadKey(ThreadIndex(t)), ab->event(row.events[i]).name, Field::Calls)
                              .has_value();
                    QCOMPARE(m1, Presence::Mask((inA ? 1 : 0) | (inB ? 2 : 0)));
                }
            }
            // Conservation of totals, per metric and for calls.
            for (const QString& m : metrics) {
                QVERIFY(near(total(*ab, Field::Excl, m), total(*a, Field::Excl, m) - total(*b, Field::Excl, m)));
                QVERIFY(near(total(*ab, Field::Incl, m), total(*a, Field::Incl, m) - total(*b, Field::Incl, m)));
            }
            QVERIFY(near(total(*ab, Field::Calls), total(*a, Field::Calls) - total(*b, Field::Calls)));
            const TrialP mab = mean({ a, b }).trial();
            QVERIFY(near(total(*mab, Field::Excl), (total(*a, Field::Excl) + total(*b, Field::Excl)) / 2));
            // Composition: diff(mean(A,B), C) = mean(diff(A,C), diff(B,C)).
            const TrialP left = difference(*mab, *c).trial();
            const TrialP right = mean({ difference(*a, *c).trial(), difference(*b, *c).trial() }).trial();
            QVERIFY2(sameCells(*left, *right, 1.0, &why), qPrintable(why));
            // Identities.
            const TrialP aa = difference(*a, *a).trial();
            QCOMPARE(total(*aa, Field::Excl), 0.0);
            QCOMPARE(aa->cellCount(), a->cellCount());
            QVERIFY2(sameCells(*a, *mean({ a, a, a, a }).trial(), 1.0, &why), qPrintable(why));
            // Thread policies keep totals: A on FourThreads against B on ranks 0..3.
            const auto q = randomTrial(seed + 100, { { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 0 } }, 40, metrics);
            for (ThreadPolicy policy : { ThreadPolicy::UnionByKey, ThreadPolicy::CollapseProcess,
                     ThreadPolicy::CollapseAll, ThreadPolicy::MapByOrder }) {
                AlgebraOptions o;
                o.threads = policy;
                const AlgebraResult r = difference(*a, *q, o);
                QVERIFY2(r, qPrintable(r.error()));
                for (const QString& m : metrics)
                    QVERIFY(
                        near(total(*r.trial(), Field::Excl, m), total(*a, Field::Excl, m) - total(*q, Field::Excl, m)));
                QVERIFY(near(total(*r.trial(), Field::Subrs), total(*a, Field::Subrs) - total(*q, Field::Subrs)));
            }
            // Workers do not change the result.
            AlgebraOptions one;
            one.workers = 1;
            QCOMPARE(contentHash(*difference(*a, *b, one).trial()), contentHash(*ab));
        }
    }

    void presenceSurvivesSaving()
    {
        // Cells present on some threads only, a thread present on one side, one-sided events: the
        // markers written into groups and metadata come back from a TAU profile directory.
        const auto a = randomTrial(41, FourThreads, 25, { QStringLiteral("TIME") }, 0.6, QStringLiteral("a"));
        const auto b = randomTrial(
            42, { { 0, 0, 0 }, { 0, 0, 1 }, { 1, 0, 0 } }, 25, { QStringLiteral("TIME") }, 0.6, QStringLiteral("b"));
        const AlgebraResult r = difference(*a, *b);
        QVERIFY2(r, qPrintable(r.error()));
        const Trial& d = *r.trial();
        const auto presence = Presence::of(d);
        QVERIFY(presence->exceptionCount() > 0);
        QVERIFY(presence->threadMask(d.findThread({ 1, 0, 1 })) == 1);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString error = TauWriter::write(d, dir.path());
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const auto loaded = mustLoad(dir.path());
        QVERIFY(loaded);
        const auto back = Presence::of(*loaded);
        QCOMPARE(back->operandCount(), std::size_t(2));
        QCOMPARE(loaded->cellCount(), d.cellCount());
        for (std::size_t t = 0; t < d.threadCount(); ++t) {
            const ThreadIndex lt = loaded->findThread(d.threadKey(ThreadIndex(t)));
            QCOMPARE(back->threadMask(lt), presence->threadMask(ThreadIndex(t)));
            const IntervalRow& row = d.row(ThreadIndex(t));
            for (std::size_t i = 0; i < row.size(); ++i) {
                const EventId le = loaded->findEvent(d.event(row.events[i]).name);
                QCOMPARE(back->cellMask(*loaded, lt, le), presence->cellMaskAt(d, ThreadIndex(t), i));
            }
        }
        for (std::size_t e = 0; e < d.eventCount(); ++e)
            QCOMPARE(back->eventMask(loaded->findEvent(d.event(EventId(e)).name)), presence->eventMask(EventId(e)));
        // The result can be an operand again: its markers do not leak into the next result.
        const AlgebraResult again = difference(*a, *loaded);
        QVERIFY2(again, qPrintable(again.error()));
        const Trial& t2 = *again.trial();
        const auto p2 = Presence::of(t2);
        for (std::size_t e = 0; e < t2.eventCount(); ++e) {
            const bool left = t2.eventInGroup(EventId(e), QStringLiteral("PARALLAX_LEFT_ONLY"));
            const bool right = t2.eventInGroup(EventId(e), QStringLiteral("PARALLAX_RIGHT_ONLY"));
            QCOMPARE(left, p2->eventMarker(EventId(e)) == Presence::Marker::LeftOnly);
            QCOMPARE(right, p2->eventMarker(EventId(e)) == Presence::Marker::RightOnly);
        }
    }

    void contentHashAlgorithms()
    {
        // The hash is XXH3-64 of the content in the documented order: for a trial with nothing in
        // it, four empty lists (metrics, events, atomic events, metadata) and an empty list of
        // thread digests, i.e. five zero 64-bit lengths.
        const TrialP empty = TrialBuilder(QStringLiteral("empty")).build();
        QVERIFY(empty);
        const unsigned char zeros[40] = {};
        QCOMPARE(
            contentHash(*empty), QStringLiteral("%1").arg(XXH3_64bits(zeros, sizeof zeros), 16, 16, QLatin1Char('0')));
        QCOMPARE(contentHashAlgorithm(), QStringLiteral("xxh3-64"));

        // A new result names its algorithm, and its operands compare under it.
        const TrialP a = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-openmp-2thread")));
        const TrialP b = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")));
        QVERIFY(a && b);
        AlgebraOptions union_;
        union_.threads = ThreadPolicy::UnionByKey;
        const AlgebraResult d = difference(*a, *b, union_);
        QVERIFY2(d, qPrintable(d.error()));
        const Provenance& p = d.trial()->provenance();
        QVERIFY(p.options.contains(QStringLiteral("content_hash_algorithm=xxh3-64")));
        QCOMPARE(p.operands[0], QStringLiteral("%1 [%2]").arg(a->name(), contentHash(*a)));
        QCOMPARE(operandMatches(p, 0, *a), std::optional<bool>(true));
        QCOMPARE(operandMatches(p, 1, *b), std::optional<bool>(true));
        QCOMPARE(operandMatches(p, 0, *b), std::optional<bool>(false));
        QCOMPARE(operandMatches(p, 2, *a), std::optional<bool>());
        // Derived metrics too.
        const AlgebraResult derived = deriveMetric(*a, QStringLiteral("TWICE = \"TIME\" * 2"));
        QVERIFY2(derived, qPrintable(derived.error()));
        QVERIFY(derived.trial()->provenance().options.contains(contentHashAlgorithmOption()));
        QCOMPARE(operandMatches(derived.trial()->provenance(), 0, *a), std::optional<bool>(true));
        // An algorithm this version does not know: no verdict.
        Provenance unknown = p;
        unknown.options.replaceInStrings(QStringLiteral("=xxh3-64"), QStringLiteral("=sha-999"));
        QCOMPARE(operandMatches(unknown, 0, *a), std::optional<bool>());

        // A result written by Parallax before the algorithm was recorded (the same diff, saved as
        // JSON by the build of commit 4def1ac): its hashes were Parallax's former mixer, and
        // they still match the same files, through the former function.
        const TrialP old
            = mustLoad(QStringLiteral(PARALLAX_SOURCE_DIR "/tests/data/provenance/diff-openmp-wrap-before-xxh3.json"));
        QVERIFY(old);
        const Provenance& q = old->provenance();
        QCOMPARE(q.operation, QStringLiteral("diff"));
        QVERIFY(!q.options.join(QLatin1Char(' ')).contains(QLatin1String("content_hash_algorithm")));
        QCOMPARE(q.operands.size(), 2);
        QVERIFY(!q.operands[0].contains(contentHash(*a))); // not XXH3: the old function is needed
        QCOMPARE(operandMatches(q, 0, *a), std::optional<bool>(true));
        QCOMPARE(operandMatches(q, 1, *b), std::optional<bool>(true));
        QCOMPARE(operandMatches(q, 0, *b), std::optional<bool>(false));
        QCOMPARE(operandMatches(q, 1, *a), std::optional<bool>(false));
        // A changed file no longer matches, under either algorithm.
        const TrialP changed = difference(*a, *a, union_).trial();
        QCOMPARE(operandMatches(q, 0, *changed), std::optional<bool>(false));
        QCOMPARE(operandMatches(p, 0, *changed), std::optional<bool>(false));
    }

    void parallelForInsidePoolJobs()
    {
        // Every thread of Qt's global pool runs a QtConcurrent job that itself calls parallelFor
        // (directly, and through the algebra). The nested calls must finish with the right results
        // and never run more bodies at once than the pool has threads (the std::thread version ran
        // a core's worth of extra threads per job).
        QThreadPool* pool = QThreadPool::globalInstance();
        const int poolSize = pool->maxThreadCount();
        const auto a = randomTrial(7, FourThreads, 60, { QStringLiteral("TIME") });
        const auto b = randomTrial(8, FourThreads, 60, { QStringLiteral("TIME") });
        AlgebraOptions sequential;
        sequential.workers = 1;
        const QString expectedHash = contentHash(*difference(*a, *b, sequential).trial());
        constexpr std::size_t N = 20000;
        const double expectedSum = double(N) * (N - 1) / 2;

        std::atomic<int> inside { 0 }, most { 0 };
        std::vector<QFuture<bool>> jobs;
        for (int j = 0; j < poolSize; ++j)
            jobs.push_back(QtConcurrent::run([&] {
                std::vector<double> partial(parallelWorkers(N, 100, 0), 0.0);
                parallelFor(N, 100, 0, [&](std::size_t begin, std::size_t end, std::size_t worker) {
                    const int now = ++inside;
                    int seen = most.load();
                    while (now > seen && !most.compare_exchange_weak(seen, now)) { }
                    for (std::size_t i = begin; i < end; ++i)
                        partial[worker] += double(i);
                    QThread::usleep(200);
                    --inside;
                });
                double sum = 0;
                for (double p : partial)
                    sum += p;
                const AlgebraResult d = difference(*a, *b); // workers = 0: parallel inside the job
                return sum == expectedSum && d && contentHash(*d.trial()) == expectedHash;
            }));
        QElapsedTimer clock;
        clock.start();
        for (auto& job : jobs) {
            while (!job.isFinished() && clock.elapsed() < 120000)
                QThread::msleep(5);
            QVERIFY2(job.isFinished(), "a parallelFor inside a pool job did not finish (deadlock)");
            QVERIFY(job.result());
        }
        QVERIFY2(most.load() <= poolSize,
            qPrintable(QStringLiteral("%1 bodies ran at once on a pool of %2").arg(most.load()).arg(poolSize)));

        // A pool of one thread, taken by the job: the nested call runs on the job's thread alone.
        const int saved = pool->maxThreadCount();
        pool->setMaxThreadCount(1);
        std::atomic<std::size_t> covered { 0 };
        auto single = QtConcurrent::run([&] {
            const QThread* self = QThread::currentThread();
            bool sameThread = true;
            parallelFor(N, 7, 0, [&](std::size_t begin, std::size_t end, std::size_t) {
                sameThread = sameThread && QThread::currentThread() == self;
                covered += end - begin;
            });
            return sameThread;
        });
        clock.restart();
        while (!single.isFinished() && clock.elapsed() < 60000)
            QThread::msleep(5);
        pool->setMaxThreadCount(saved);
        QVERIFY2(single.isFinished(), "a parallelFor on a full pool of one thread did not finish");
        QVERIFY(single.result());
        QCOMPARE(covered.load(), N);
    }

    void errors()
    {
        const auto a = cubeA();
        QVERIFY(!mean({}));
        std::vector<TrialP> many(65, a);
        const AlgebraResult tooMany = mean(many);
        QVERIFY(!tooMany);
        QVERIFY(tooMany.error().contains(QStringLiteral("64")));
        QVERIFY(mean(std::vector<TrialP>(64, a)));
        const auto sec = treeTrial(QStringLiteral("X"), { { R0, { { QStringLiteral("main"), 1 } } } },
            QStringLiteral("time"), QStringLiteral("us"));
        const AlgebraResult units = difference(*a, *sec);
        QVERIFY(!units);
        QVERIFY2(units.error().contains(QStringLiteral("unit")), qPrintable(units.error()));
    }
};

QTEST_GUILESS_MAIN(TestAlgebra)
#include "tst_algebra.moc"
