// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The algebra on generated trials: its properties (docs/SEMANTICS.md 4.8), presence markers that
// survive saving, the content hash of provenance, and parallelFor inside pool jobs.
#include "algebra/contenthash.h"
#include "algebra/derivedmetric.h"
#include "algebra/operations.h"
#include "algebra/parallelfor.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/writers/tauwriter.h"
#include "tests/algebra/algebrafixture.h"
#include "tests/common/testutil.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <xxhash.h>

using namespace parallax;
using namespace parallax::test;

class TestAlgebraProperties : public QObject {
    Q_OBJECT
private Q_SLOTS:
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
                const RowView row = ab->row(ThreadIndex(t));
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
            const RowView row = d.row(ThreadIndex(t));
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
        jobs.reserve(static_cast<std::size_t>(poolSize));
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
};

QTEST_GUILESS_MAIN(TestAlgebraProperties)
#include "tst_algebra_properties.moc"
