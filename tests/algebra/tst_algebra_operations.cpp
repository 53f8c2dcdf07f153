// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The algebra's operations against docs/SEMANTICS.md 4: the worked examples of 4.7 (diff, mean,
// composition, summaries), a real pair of samples, the identities, merging metrics, user events
// and the errors.
#include "algebra/contenthash.h"
#include "algebra/operations.h"
#include "algebra/units.h"
#include "datasource/model/trialbuilder.h"
#include "tests/algebra/algebrafixture.h"
#include "tests/common/testutil.h"

#include <cmath>

using namespace parallax;
using namespace parallax::test;

class TestAlgebraOperations : public QObject {
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
            const RowView row = d.row(ThreadIndex(t));
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
                const RowView row = src->row(ThreadIndex(t));
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

QTEST_GUILESS_MAIN(TestAlgebraOperations)
#include "tst_algebra_operations.moc"
