// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Matching across runs (docs/SEMANTICS.md 4.4, 4.5 and 1.9): thread policies, real ranks and thread sets
// that differ, normalised event names, source against compiler instrumentation, many runs.
#include "algebra/operations.h"
#include "algebra/statistics.h"
#include "algebra/units.h"
#include "datasource/model/trialbuilder.h"
#include "tests/algebra/algebrafixture.h"
#include "tests/common/testutil.h"

#include <cmath>
#include <map>

using namespace parallax;
using namespace parallax::test;

class TestAlgebraMatching : public QObject {
    Q_OBJECT
private Q_SLOTS:
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
        const RowView row = d.row(ThreadIndex(0u));
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
};

QTEST_GUILESS_MAIN(TestAlgebraMatching)
#include "tst_algebra_matching.moc"
