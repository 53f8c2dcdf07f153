// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Writer round trips: read (or synthesize) a trial, write it as TAU profiles, read it back, compare.
#include "datasource/synth/synth.h"
#include "datasource/writers/tausnapshotwriter.h"
#include "datasource/writers/tauwriter.h"
#include "tests/common/readertest.h"
#include "tests/common/testutil.h"

#include <QTemporaryDir>

using namespace parallax;
using namespace parallax::test;

namespace {

void compareTrials(const Trial& a, const Trial& b)
{
    compareMetrics(a, b);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(a.threads(), b.threads());
    compareEvents(a, b, true);
    if (QTest::currentTestFailed())
        return;
    for (std::size_t t = 0; t < a.threadCount(); ++t) {
        const RowView ra = a.row(ThreadIndex(t));
        const RowView rb = b.row(ThreadIndex(t));
        QCOMPARE(ra.events, rb.events);
        QCOMPARE(ra.calls, rb.calls);
        QCOMPARE(ra.subrs, rb.subrs);
        QCOMPARE(ra.excl, rb.excl);
        QCOMPARE(ra.incl, rb.incl);
        QCOMPARE(ra.exclSqr, rb.exclSqr);
        const AtomicRow& aa = a.atomicRow(ThreadIndex(t));
        const AtomicRow& ab = b.atomicRow(ThreadIndex(t));
        QCOMPARE(aa.events, ab.events);
        QCOMPARE(aa.count, ab.count);
        QCOMPARE(aa.max, ab.max);
        QCOMPARE(aa.min, ab.min);
        QCOMPARE(aa.mean, ab.mean);
        QCOMPARE(aa.sumSquares, ab.sumSquares);
        QCOMPARE(a.threadMetadata(ThreadIndex(t)).size(), b.threadMetadata(ThreadIndex(t)).size());
        for (const auto& e : a.threadMetadata(ThreadIndex(t)))
            QCOMPARE(b.metadataValue(a.strings().get(e.key), ThreadIndex(t)), a.strings().get(e.value));
    }
    QCOMPARE(a.atomicEventCount(), b.atomicEventCount());
    for (std::size_t u = 0; u < a.atomicEventCount(); ++u)
        QCOMPARE(a.atomicEvent(AtomicEventId(u)).name, b.atomicEvent(AtomicEventId(u)).name);
    QCOMPARE(a.metadata().size(), b.metadata().size());
    for (const auto& e : a.metadata())
        QCOMPARE(b.metadataValue(a.strings().get(e.key)), a.strings().get(e.value));
}

/// The cells of row `ra` of trial `a` and row `rb` of trial `b` are the same, matched by event name
/// (readers number events differently), every metric by name.
void compareRowsByName(const Trial& a, const RowView& ra, const Trial& b, const RowView& rb)
{
    QCOMPARE(ra.size(), rb.size());
    for (std::size_t m = 0; m < a.metricCount(); ++m) {
        const MetricId other = b.findMetric(a.metric(MetricId(m)).name);
        QVERIFY(other.isValid());
        for (std::size_t i = 0; i < ra.size(); ++i) {
            const EventId e = b.findEvent(a.event(ra.events[i]).name);
            QVERIFY2(e.isValid(), qPrintable(a.event(ra.events[i]).name));
            const auto k = rb.find(e);
            QVERIFY(k >= 0);
            const auto j = static_cast<std::size_t>(k);
            QCOMPARE(ra.exclusive(m, i), rb.exclusive(other.index(), j));
            QCOMPARE(ra.inclusive(m, i), rb.inclusive(other.index(), j));
            QCOMPARE(ra.calls[i], rb.calls[j]);
            QCOMPARE(ra.subrs[i], rb.subrs[j]);
        }
    }
}

} // namespace

class TestTauWriter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTripSamples_data()
    {
        QTest::addColumn<QString>("dir");
        for (const char* d : { "tau2/tau-profiles-callpath-cpi-4rank", "tau2/tau-profiles-workflow-xmain-8rank",
                 "tau2/tau-profiles-openmp-2thread", "tau2/tau-profiles-wrap-params", "cubelib/test/test28/profile1",
                 "cubelib/test/test28/profile2" })
            QTest::newRow(d) << QString::fromLatin1(d);
    }
    void roundTripSamples()
    {
        QFETCH(QString, dir);
        const auto original = mustLoad(dataPath(dir));
        QVERIFY(original);
        QTemporaryDir out;
        QCOMPARE(TauWriter::write(*original, out.path()), QString());
        const auto again = mustLoad(out.path());
        QVERIFY(again);
        compareTrials(*original, *again);
    }

    void roundTripMultiMetricSynth()
    {
        SynthOptions o;
        o.threads = 6;
        o.events = 30;
        o.callpathDepth = 3;
        o.metrics = 3;
        o.userEvents = 4;
        o.threadsPerNode = 2;
        o.seed = 42;
        const auto trial = synthesizeTrial(o);
        QTemporaryDir out;
        QCOMPARE(TauWriter::write(*trial, out.path()), QString());
        QVERIFY(QFileInfo::exists(out.filePath(QStringLiteral("MULTI__TIME/profile.2.0.1"))));
        QVERIFY(QFileInfo::exists(out.filePath(QStringLiteral("MULTI__PAPI_TOT_CYC/profile.0.0.0"))));
        const auto again = mustLoad(out.path());
        QVERIFY(again);
        // Metric directories are read in name order; compare metric by metric name.
        QCOMPARE(again->metricCount(), std::size_t(3));
        QCOMPARE(again->threads(), trial->threads());
        for (std::size_t m = 0; m < trial->metricCount(); ++m) {
            const MetricId other = again->findMetric(trial->metric(MetricId(m)).name);
            QVERIFY(other.isValid());
            for (std::size_t t = 0; t < trial->threadCount(); ++t) {
                const RowView a = trial->row(ThreadIndex(t));
                const RowView b = again->row(ThreadIndex(t));
                QCOMPARE(a.size(), b.size());
                for (std::size_t i = 0; i < a.size(); ++i) {
                    // The reader numbers events in name order; match cells by name.
                    const EventId e = again->findEvent(trial->event(a.events[i]).name);
                    QVERIFY(e.isValid());
                    const auto k = b.find(e);
                    QVERIFY(k >= 0);
                    QCOMPARE(a.exclusive(m, i), b.exclusive(other.index(), static_cast<std::size_t>(k)));
                    QCOMPARE(a.inclusive(m, i), b.inclusive(other.index(), static_cast<std::size_t>(k)));
                    QCOMPARE(a.calls[i], b.calls[static_cast<std::size_t>(k)]);
                    QCOMPARE(a.subrs[i], b.subrs[static_cast<std::size_t>(k)]);
                }
            }
        }
        QVERIFY(again->warnings().isEmpty());
    }

    void snapshotRoundTripSamples_data() { roundTripSamples_data(); }
    void snapshotRoundTripSamples()
    {
        // The snapshot writer with one snapshot per thread (the profile, named "final").
        QFETCH(QString, dir);
        const auto original = mustLoad(dataPath(dir));
        QVERIFY(original);
        QTemporaryDir out;
        QCOMPARE(TauSnapshotWriter::write(*original, out.path()), QString());
        const auto again = mustLoad(out.path());
        QVERIFY(again);
        QCOMPARE(again->provenance().reader, QStringLiteral("snapshot"));
        QCOMPARE(again->threads(), original->threads());
        QCOMPARE(again->eventCount(), original->eventCount());
        QCOMPARE(again->atomicEventCount(), original->atomicEventCount());
        for (std::size_t t = 0; t < original->threadCount(); ++t) {
            compareRowsByName(*original, original->row(ThreadIndex(t)), *again, again->row(ThreadIndex(t)));
            if (QTest::currentTestFailed())
                return;
            QCOMPARE(again->atomicRow(ThreadIndex(t)).size(), original->atomicRow(ThreadIndex(t)).size());
        }
    }

    void snapshotSeriesSynth()
    {
        // synth --snapshots: every snapshot reads back as written, every snapshot's call tree adds up
        // (the root's inclusive value is the sum of the flat exclusive values), and the values grow.
        SynthOptions o;
        o.threads = 6;
        o.events = 25;
        o.callpathDepth = 3;
        o.metrics = 2;
        o.userEvents = 3;
        o.snapshots = 5;
        o.realistic = true;
        const auto trial = synthesizeTrial(o);
        QVERIFY(trial->hasTimeSeries());
        QTemporaryDir out;
        QCOMPARE(TauSnapshotWriter::write(*trial, out.path()), QString());
        QVERIFY(QFileInfo::exists(out.filePath(QStringLiteral("snapshot.5.0.0"))));
        const auto again = mustLoad(out.path());
        QVERIFY(again);
        QVERIFY(again->warnings().isEmpty());
        const EventId root = trial->findEvent(QStringLiteral(".TAU application"));
        QVERIFY(root.isValid());
        for (std::size_t ti = 0; ti < trial->threadCount(); ++ti) {
            const ThreadIndex t(ti);
            const auto& written = trial->timeSeries(t);
            const auto& read = again->timeSeries(t);
            QCOMPARE(read.size(), std::size_t(5));
            QCOMPARE(written.size(), std::size_t(5));
            QCOMPARE(read.back().name, QStringLiteral("final"));
            QCOMPARE(read.front().name, QStringLiteral("iteration 1"));
            double previousRoot = 0;
            for (std::size_t k = 0; k < read.size(); ++k) {
                QCOMPARE(read[k].timestamp, written[k].timestamp);
                compareRowsByName(*trial, written[k].row, *again, read[k].row);
                if (QTest::currentTestFailed())
                    return;
                QCOMPARE(read[k].atomicRow.count, written[k].atomicRow.count);
                const RowView row = written[k].row;
                double flat = 0;
                for (std::size_t c = 0; c < row.size(); ++c)
                    if (!trial->event(row.events[c]).isCallPath())
                        flat += row.exclusive(0, c);
                const double rootIncl = row.inclusive(0, static_cast<std::size_t>(row.find(root)));
                QCOMPARE(rootIncl, flat);
                QVERIFY(rootIncl > previousRoot);
                previousRoot = rootIncl;
            }
            compareRowsByName(*trial, written.back().row, *trial, trial->row(t));
        }
    }

    void realisticSynthReadsBack()
    {
        SynthOptions o;
        o.threads = 8;
        o.events = 41;
        o.callpathDepth = 2;
        o.realistic = true;
        const auto trial = synthesizeTrial(o);
        QTemporaryDir out;
        QCOMPARE(TauWriter::write(*trial, out.path()), QString());
        const auto again = mustLoad(out.path());
        QVERIFY(again);
        QVERIFY(again->warnings().isEmpty());
        // Every routine reads back under its PDT name, and every shape PDT writes is among them.
        QCOMPARE(again->eventCount(), trial->eventCount());
        int c = 0, cpp = 0, templates = 0, fortran = 0;
        for (std::size_t e = 0; e < trial->eventCount(); ++e) {
            const QString& name = trial->event(EventId(e)).name;
            QVERIFY2(again->findEvent(name).isValid(), qPrintable(name));
            if (trial->event(EventId(e)).isCallPath())
                continue;
            c += name.contains(QLatin1String(") C [{")) && name.contains(QLatin1String(".c} {")) ? 1 : 0;
            cpp += name.contains(QLatin1String("::")) && name.contains(QLatin1String(".cpp} {")) ? 1 : 0;
            templates += name.contains(QLatin1Char('<')) && name.contains(QLatin1String(".hpp} {")) ? 1 : 0;
            fortran += name.contains(QLatin1String("_MOD::")) && name.contains(QLatin1String(".f90} {")) ? 1 : 0;
        }
        QVERIFY(c > 0 && cpp > 0 && templates > 0 && fortran > 0);
        // TAU's metadata block: about 40 keys in each file, read back key by key.
        for (std::size_t t = 0; t < trial->threadCount(); ++t) {
            QVERIFY(trial->metadata().size() + trial->threadMetadata(ThreadIndex(t)).size() >= 40);
            for (const auto& e : trial->threadMetadata(ThreadIndex(t)))
                QCOMPARE(
                    again->metadataValue(trial->strings().get(e.key), ThreadIndex(t)), trial->strings().get(e.value));
        }
        for (const auto& e : trial->metadata())
            QCOMPARE(again->metadataValue(trial->strings().get(e.key)), trial->strings().get(e.value));
        QCOMPARE(again->metadataValue(QStringLiteral("MPI Rank"), ThreadIndex(std::size_t(5))), QStringLiteral("5"));
        // And the TAU round trip of what was read is exact.
        QTemporaryDir out2;
        QCOMPARE(TauWriter::write(*again, out2.path()), QString());
        const auto third = mustLoad(out2.path());
        QVERIFY(third);
        compareTrials(*again, *third);
        // Without the option, none of it: the historical names and the short metadata block.
        o.realistic = false;
        const auto plain = synthesizeTrial(o);
        QVERIFY(plain->metadata().size() < 20);
        for (std::size_t e = 0; e < plain->eventCount(); ++e)
            QVERIFY(!plain->event(EventId(e)).name.contains(QLatin1String(".hpp}")));
    }

    void synthIsDeterministic()
    {
        SynthOptions o;
        o.threads = 3;
        o.events = 12;
        o.callpathDepth = 2;
        const auto a = synthesizeTrial(o);
        const auto b = synthesizeTrial(o);
        compareTrials(*a, *b);
        // Inclusive of the root equals the sum of flat exclusive times on every thread.
        const EventId root = a->findEvent(QStringLiteral(".TAU application"));
        for (std::size_t t = 0; t < a->threadCount(); ++t) {
            const RowView row = a->row(ThreadIndex(t));
            double sum = 0;
            for (std::size_t i = 0; i < row.size(); ++i)
                if (!a->event(row.events[i]).isCallPath())
                    sum += row.exclusive(0, i);
            QCOMPARE(row.inclusive(0, static_cast<std::size_t>(row.find(root))), sum);
        }
    }

    void multiDirectoryName()
    {
        QCOMPARE(TauWriter::multiDirectoryName(QStringLiteral("BGP Timers")), QStringLiteral("MULTI__BGP_Timers"));
        QCOMPARE(TauWriter::multiDirectoryName(QStringLiteral("a/b:c=d")), QStringLiteral("MULTI__a_b_c_d"));
    }
};

QTEST_GUILESS_MAIN(TestTauWriter)
#include "tst_tauwriter.moc"
