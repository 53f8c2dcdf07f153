// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Statistics against docs/SEMANTICS.md section 2, on literal trials and the real cpi sample.
#include "algebra/statistics.h"
#include "algebra/units.h"
#include "algebra/values.h"
#include "datasource/model/trialbuilder.h"
#include "tests/common/testutil.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

bool near(double a, double b, double tol = 1e-9)
{
    return std::abs(a - b) <= tol * std::max({ 1.0, std::abs(a), std::abs(b) });
}

} // namespace

class TestStatistics : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void presentOnThreeOfFour()
    {
        // docs/SEMANTICS.md 2: e present on 3 of 4 threads with values 10, 20, 30.
        TrialBuilder b(QStringLiteral("literal"));
        b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
        const EventId root = b.addEvent(QStringLiteral("root"));
        const EventId e = b.addEvent(QStringLiteral("e"));
        const double values[] = { 10, 20, 30 };
        for (int t = 0; t < 4; ++t) {
            const ThreadIndex ti = b.addThread({ t, 0, 0 });
            const double top[] = { 100 };
            b.addInterval(ti, root, 1, 1, top, top);
            if (t < 3) {
                const double v[] = { values[t] };
                b.addInterval(ti, e, 2, 0, v, v);
            }
        }
        const auto trial = b.build();
        const auto stats = TrialStatistics::of(*trial);
        QCOMPARE(stats.get(), TrialStatistics::of(*trial).get()); // cached per trial
        const Stat& s = stats->stat(e, MetricId(0u), ValueKind::Exclusive);
        QCOMPARE(s.total, 60.0);
        QCOMPARE(s.meanAll, 15.0);
        QCOMPARE(s.meanPresent, 20.0);
        QCOMPARE(s.min, 10.0);
        QCOMPARE(s.max, 30.0);
        QVERIFY(near(s.sdAll, 11.180339887498949));
        QVERIFY(near(s.sdPresent, 8.16496580927726));
        QCOMPARE(s.present, std::size_t(3));
        QCOMPARE(stats->stat(e, MetricId(0u), ValueKind::Calls).total, 6.0);
        const Stat& pc = stats->stat(e, MetricId(0u), ValueKind::ExclusivePerCall);
        QCOMPARE(pc.min, 5.0);
        QCOMPARE(pc.max, 15.0);
        QCOMPARE(pc.present, std::size_t(3));
        QCOMPARE(pc.meanAll, pc.meanPresent); // per-call figures only exist where calls > 0
        QCOMPARE(s.minThread, ThreadIndex(0u));
        QCOMPARE(s.maxThread, ThreadIndex(2u));
        // docs/SEMANTICS.md 2.1: max/mean = 30/15, (max - mean)/max = 15/30, CV = 11.1803/15.
        QCOMPARE(s.maxOverMean, 2.0);
        QCOMPARE(s.imbalance, 0.5);
        QVERIFY(near(s.cv, 11.180339887498949 / 15));
        QCOMPARE(stats->sumTopInclusive(MetricId(0u)), 400.0);
        QCOMPARE(stats->totalPercent(e, MetricId(0u), ValueKind::Exclusive), 15.0);
    }

    void percentExample()
    {
        // T(0) = 100, T(1) = 80; event excl 20 and 30 -> 20 %, 37.5 %, and 50/180 on the total row.
        TrialBuilder b(QStringLiteral("percent"));
        b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
        const EventId root = b.addEvent(QStringLiteral("root"));
        const EventId e = b.addEvent(QStringLiteral("e"));
        const double tops[] = { 100, 80 };
        const double vals[] = { 20, 30 };
        for (int t = 0; t < 2; ++t) {
            const ThreadIndex ti = b.addThread({ t, 0, 0 });
            b.addInterval(ti, root, 1, 1, std::span(&tops[t], 1), std::span(&tops[t], 1));
            b.addInterval(ti, e, 1, 0, std::span(&vals[t], 1), std::span(&vals[t], 1));
        }
        const auto trial = b.build();
        const auto stats = TrialStatistics::of(*trial);
        QCOMPARE(stats->threadPercent(20, ThreadIndex(0u), MetricId(0u)), 20.0);
        QCOMPARE(stats->threadPercent(30, ThreadIndex(1u), MetricId(0u)), 37.5);
        QVERIFY(near(stats->totalPercent(e, MetricId(0u), ValueKind::Exclusive), 100.0 * 50 / 180));
    }

    void s3dGolden()
    {
        // docs/SEMANTICS.md 2: S3D INT_RTE exclusive TIME on 16 threads (seconds, stored in µs).
        const double s[] = { 2020.588, 2049.899, 2045.356, 1998.833, 2034.705, 2054.211, 2056.913, 2006.531, 2032.193,
            2050.019, 2047.034, 2006.013, 1992.337, 2012.386, 2016.167, 1976.87 };
        TrialBuilder b(QStringLiteral("s3d"));
        b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
        const EventId e = b.addEvent(QStringLiteral("INT_RTE"));
        for (int t = 0; t < 16; ++t) {
            const double v[] = { s[t] * 1e6 };
            b.addInterval(b.addThread({ t, 0, 0 }), e, 1, 0, v, v);
        }
        const auto trial = b.build();
        const Stat& st = TrialStatistics::of(*trial)->stat(e, MetricId(0u), ValueKind::Exclusive);
        QVERIFY(near(st.meanAll / 1e6, 2025.0034375));
        QVERIFY(near(st.total / 1e6, 32400.055));
        QCOMPARE(st.min / 1e6, 1976.87);
        QCOMPARE(st.max / 1e6, 2056.913);
        QCOMPARE(trial->threadKey(st.minThread), (ThreadKey { 15, 0, 0 }));
        QCOMPARE(trial->threadKey(st.maxThread), (ThreadKey { 6, 0, 0 }));
        QVERIFY(std::abs(st.sdAll / 1e6 - 23.9657) < 5e-5);
        QCOMPARE(st.sdAll, st.sdPresent);
    }

    void hmsRule()
    {
        // docs/SEMANTICS.md 2: the H:M:S rule reproduces the 16 golden strings and the mean.
        const double s[] = { 2020.588, 2049.899, 2045.356, 1998.833, 2034.705, 2054.211, 2056.913, 2006.531, 2032.193,
            2050.019, 2047.034, 2006.013, 1992.337, 2012.386, 2016.167, 1976.87 };
        const char* const golden[] = { "0:33:40.588", "0:34:9.899", "0:34:5.356", "0:33:18.833", "0:33:54.705",
            "0:34:14.211", "0:34:16.913", "0:33:26.531", "0:33:52.193", "0:34:10.019", "0:34:7.034", "0:33:26.013",
            "0:33:12.337", "0:33:32.386", "0:33:36.167", "0:32:56.87" };
        for (int i = 0; i < 16; ++i)
            QCOMPARE(formatHms(s[i]), QString::fromLatin1(golden[i]));
        QCOMPARE(formatHms(2025.0034375), QStringLiteral("0:33:45.003"));
        QCOMPARE(formatHms(3600), QStringLiteral("1:0:0.0"));
        QCOMPARE(formatHms(45), QStringLiteral("0:0:45.0"));
        QCOMPARE(formatHms(3725.5), QStringLiteral("1:2:5.5"));
        QCOMPARE(formatHms(59.9996), QStringLiteral("0:1:0.0")); // [D] rounding before splitting
        QCOMPARE(formatHms(-45), QStringLiteral("-0:0:45.0"));
        const Metric time(QStringLiteral("TIME"), QStringLiteral("us"));
        QCOMPARE(formatMetricValue(2025.0034375e6, time, TimeUnit::HoursMinutesSeconds), QStringLiteral("0:33:45.003"));
        QCOMPARE(formatMetricValue(27490, time, TimeUnit::Milliseconds, QLocale::c()), QStringLiteral("27.490"));
    }

    // Issue 14: one number format. A time column shares its decimals, counters take SI prefixes,
    // changes carry their sign and never read "-0.0 %".
    void oneNumberFormat()
    {
        const QLocale en(QLocale::English, QLocale::UnitedStates);
        const Metric time(QStringLiteral("TIME"), QStringLiteral("us"));
        // 0.944 µs, 0.57 µs and 12 µs in ms: three decimals each (was 0.000944, 0.00057, 0.012).
        QCOMPARE(formatMetricValue(0.944, time, TimeUnit::Milliseconds, en), QStringLiteral("0.001"));
        QCOMPARE(formatMetricValue(0.57, time, TimeUnit::Milliseconds, en), QStringLiteral("0.001"));
        QCOMPARE(formatMetricValue(12, time, TimeUnit::Milliseconds, en), QStringLiteral("0.012"));
        QCOMPARE(formatMetricValue(25e6, time, TimeUnit::Milliseconds, en), QStringLiteral("25,000.000"));
        // Never a negative zero.
        QCOMPARE(formatMetricValue(-0.1, time, TimeUnit::Milliseconds, en), QStringLiteral("0.000"));
        QCOMPARE(formatMetricValue(-0.1, time, TimeUnit::Seconds, en), QStringLiteral("0.000"));
        QCOMPARE(formatMetricValue(-1e-12, time, TimeUnit::Microseconds, en), QStringLiteral("0.00"));
        QCOMPARE(formatNumber(0.000944, en), QStringLiteral("0.000944"));
        QCOMPARE(withoutNegativeZero(QStringLiteral("-0.00")), QStringLiteral("0.00"));
        QCOMPARE(withoutNegativeZero(QStringLiteral("-0.01")), QStringLiteral("-0.01"));
        QCOMPARE(formatPercentChange(0.03, en), QStringLiteral("+0.03 %"));
        QCOMPARE(formatPercentChange(-0.001, en), QStringLiteral("0.0 %"));
        QCOMPARE(formatPercentChange(-13993, en), QStringLiteral("-13,993.0 %"));
        QCOMPARE(formatPercentChange(20, en), QStringLiteral("+20.0 %"));
        QCOMPARE(countText(1, QStringLiteral("metric"), QStringLiteral("metrics")), QStringLiteral("1 metric"));
        QCOMPARE(countText(5, QStringLiteral("metric"), QStringLiteral("metrics")), QStringLiteral("5 metrics"));

        // SI prefixes for counters (the issue's example, then the real PAPI counters of XGC).
        const Metric cycles(QStringLiteral("PAPI_TOT_CYC"), QStringLiteral("count"));
        QCOMPARE(formatMetricValue(318734123833.88, cycles, TimeUnit::Milliseconds, en), QStringLiteral("318.7 G"));
        QCOMPARE(formatSi(999999.4, en), QStringLiteral("999,999.40"));
        QCOMPARE(formatSi(1.5e6, en), QStringLiteral("1.500 M"));
        QCOMPARE(formatSi(999.96e6, en), QStringLiteral("1.000 G"));
        QCOMPARE(formatSi(-2.5e12, en), QStringLiteral("-2.500 T"));
        const auto xgc = mustLoad(dataPath(QStringLiteral("tau2/ppk/xgc-5metrics-16rank.ppk")));
        QVERIFY(xgc);
        const auto stats = TrialStatistics::of(*xgc);
        int counters = 0;
        for (std::size_t m = 0; m < xgc->metricCount(); ++m) {
            const Metric& metric = xgc->metric(MetricId(m));
            if (metric.isTime())
                continue;
            ++counters;
            const double total = stats->sumTopInclusive(MetricId(m));
            QVERIFY2(total >= 1e6, qPrintable(metric.name));
            const QString text = formatMetricValue(total, metric, TimeUnit::Milliseconds, en);
            // Four significant digits and a prefix: "318.7 G", and the value read back is within
            // half a unit of the last digit.
            const QRegularExpression si(QStringLiteral("^(-?\\d{1,3}\\.\\d+) ([MGTPE])$"));
            const auto match = si.match(text);
            QVERIFY2(match.hasMatch(), qPrintable(metric.name + QStringLiteral(": ") + text));
            QCOMPARE(QString(match.captured(1)).remove(QLatin1Char('.')).remove(QLatin1Char('-')).size(), 4);
            const double scale = std::pow(10.0, 6 + 3 * QStringLiteral("MGTPE").indexOf(match.captured(2)));
            const QString digits = match.captured(1);
            const auto decimals = digits.size() - digits.indexOf(QLatin1Char('.')) - 1;
            const double halfUnit = 0.5 * scale * std::pow(10.0, -static_cast<double>(decimals));
            QVERIFY2(std::abs(digits.toDouble() * scale - total) <= halfUnit * 1.0001, qPrintable(text));
        }
        QVERIFY(counters >= 4);
    }

    void valuesOnStatisticRows()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        const auto stats = TrialStatistics::of(*trial);
        const EventId open = trial->findEvent(QStringLiteral("MPI_File_open()"));
        const MetricId m(0u);
        QCOMPARE(*statisticValue(*trial, *stats, open, m, ValueType::Exclusive, Statistic::MeanAll), 27118.5);
        QVERIFY(!statisticValue(*trial, *stats, open, m, ValueType::ExclusivePercent, Statistic::Min)); // not shown
        QVERIFY(
            std::abs(*statisticValue(*trial, *stats, open, m, ValueType::ExclusivePercent, Statistic::Total) - 50.68)
            < 5e-3);
        QCOMPARE(*statisticValue(*trial, *stats, open, m, ValueType::ExclusivePerCall, Statistic::Total), 27118.5);
        QCOMPARE(*statisticValue(*trial, *stats, open, m, ValueType::ExclusivePerCall, Statistic::Min), 26904.0);
        QCOMPARE(*threadValue(*trial, *stats, ThreadIndex(0u), open, m, ValueType::Exclusive), 27490.0);
        QVERIFY(std::abs(*threadValue(*trial, *stats, ThreadIndex(0u), open, m, ValueType::ExclusivePercent) - 53.089)
            < 1e-3);
    }

    /// The imbalance figures of every event of the 8-rank workflow trial against Python's own
    /// statistics module reading the TAU profile.N.0.0 files itself (not through Parallax's reader).
    void imbalanceAgainstPython()
    {
        const QString dir = dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank"));
        const char* script = R"PY(
import json, os, re, statistics, sys
d = sys.argv[1]
files = sorted((f for f in os.listdir(d) if f.startswith('profile.')), key=lambda f: [int(x) for x in f.split('.')[1:]])
values = {}
for i, f in enumerate(files):
    lines = open(os.path.join(d, f), encoding='utf-8', errors='replace').read().split('\n')
    n = int(lines[0].split()[0])
    for line in lines[2:2 + n]:
        m = re.match(r'"(.*)"\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)', line)
        values.setdefault(' '.join(m.group(1).split()), {})[i] = float(m.group(4))
out = {}
for name, per in values.items():
    v = [per.get(i, 0.0) for i in range(len(files))]
    mean = statistics.fmean(v)
    mx = max(per.values())
    sd = statistics.pstdev(v)
    out[name] = {'maxmean': mx / mean if mean else 0.0, 'imbalance': (mx - mean) / mx if mx else 0.0,
                 'cv': sd / mean if mean else 0.0, 'maxthread': min(i for i in per if per[i] == mx)}
print(json.dumps({'threads': len(files), 'events': out}))
)PY";
        QProcess python;
        python.start(QStringLiteral("/usr/bin/python3"), { QStringLiteral("-c"), QString::fromUtf8(script), dir });
        QVERIFY(python.waitForFinished(60000));
        QCOMPARE(python.exitCode(), 0);
        const QJsonObject oracle = QJsonDocument::fromJson(python.readAllStandardOutput()).object();
        const QJsonObject events = oracle.value(QStringLiteral("events")).toObject();
        const auto trial = mustLoad(dir);
        QVERIFY(trial);
        QCOMPARE(oracle.value(QStringLiteral("threads")).toInt(), int(trial->threadCount()));
        QCOMPARE(std::size_t(events.size()), trial->eventCount());
        const auto stats = TrialStatistics::of(*trial);
        int compared = 0;
        double worst = 0; // the largest max/mean, to see the data is not balanced everywhere
        for (std::size_t e = 0; e < trial->eventCount(); ++e) {
            const QString name = trial->event(EventId(e)).name.simplified();
            QVERIFY2(events.contains(name), qPrintable(name));
            const QJsonObject o = events.value(name).toObject();
            const Stat& s = stats->stat(EventId(e), MetricId(0u), ValueKind::Exclusive);
            QVERIFY2(near(s.maxOverMean, o.value(QStringLiteral("maxmean")).toDouble(), 1e-12), qPrintable(name));
            QVERIFY2(near(s.imbalance, o.value(QStringLiteral("imbalance")).toDouble(), 1e-12), qPrintable(name));
            QVERIFY2(near(s.cv, o.value(QStringLiteral("cv")).toDouble(), 1e-9), qPrintable(name));
            QCOMPARE(int(s.maxThread.index()), o.value(QStringLiteral("maxthread")).toInt());
            worst = std::max(worst, s.maxOverMean);
            ++compared;
        }
        QVERIFY(compared > 20);
        QVERIFY(worst > 1.5);
    }

    void realCpi()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        const auto stats = TrialStatistics::of(*trial);
        const MetricId m(0u);
        const Stat& fin = stats->stat(trial->findEvent(QStringLiteral("MPI_Finalize()")), m, ValueKind::Exclusive);
        QCOMPARE(fin.total, 19161.0);
        QCOMPARE(fin.meanAll, 4790.25);
        QVERIFY(std::abs(fin.sdAll - 191.875) < 1e-3); // 191.87545...: the document rounds
        QCOMPARE(fin.min, 4458.0);
        QCOMPARE(fin.max, 4906.0);
        const EventId open = trial->findEvent(QStringLiteral("MPI_File_open()"));
        const Stat& fo = stats->stat(open, m, ValueKind::Exclusive);
        QCOMPARE(fo.meanAll, 27118.5);
        QVERIFY(std::abs(fo.sdAll - 221.692) < 1e-3);
        const Stat& root = stats->stat(trial->findEvent(QStringLiteral(".TAU application")), m, ValueKind::Exclusive);
        QCOMPARE(root.meanAll, 426.5);
        QCOMPARE(stats->stat(trial->findEvent(QStringLiteral(".TAU application")), m, ValueKind::Inclusive).meanAll,
            53511.75);
        QCOMPARE(stats->sumTopInclusive(m), 214047.0);
        QVERIFY(std::abs(stats->threadPercent(27490, ThreadIndex(0u), m) - 53.09) < 5e-3);
        QVERIFY(std::abs(stats->totalPercent(open, m, ValueKind::Exclusive) - 50.68) < 5e-3);
        QVERIFY(std::abs(100.0 * 4458 / 51781 - 8.6093) < 1e-4);
        QVERIFY(
            std::abs(stats->totalPercent(trial->findEvent(QStringLiteral("MPI_Finalize()")), m, ValueKind::Exclusive)
                - 8.9518)
            < 1e-4);
    }

    void atomicPooled()
    {
        // docs/SEMANTICS.md 1.5: pooled with "1 4 4 4 16" gives n 65, mean 71.8154, sd 503.420.
        TrialBuilder b(QStringLiteral("atomic"));
        b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
        const ThreadIndex t = b.addThread({ 0, 0, 0 });
        const AtomicEventId u = b.addAtomicEvent(QStringLiteral("Message size for broadcast"));
        b.addAtomic(t, u, 64, 4096, 4, 72.875, 16808256);
        b.addAtomic(t, u, 1, 4, 4, 4, 16);
        const auto trial = b.build();
        const AtomicRow& row = trial->atomicRow(t);
        QCOMPARE(row.size(), std::size_t(1));
        QCOMPARE(row.count[0], 65.0);
        QCOMPARE(row.min[0], 4.0);
        QCOMPARE(row.max[0], 4096.0);
        QVERIFY(near(row.mean[0], 4668.0 / 65));
        QCOMPARE(row.sumSquares[0], 16808272.0);
        QVERIFY(std::abs(row.stddev(0) - 503.420) < 1e-3);
        const Stat& n = TrialStatistics::of(*trial)->atomicStat(u, TrialStatistics::Count);
        QCOMPARE(n.total, 65.0);
        QVERIFY(trial->warnings().join(QString()).contains(QStringLiteral("pooled")));
    }
    void derivedRowFigures()
    {
        // The figures TAUdb's derived threads and the user-event views take from the kernel:
        // docs/FORMATS.md 2.1's one-pass std. dev. on docs/SEMANTICS.md 2's 10, 20, 30 (3 of 4 threads),
        // the raw largest inclusive value of a thread whose values are all negative, and the
        // user-event total n*mean and pooled sum of squares (docs/SEMANTICS.md 1.5).
        TrialBuilder b(QStringLiteral("kernel"));
        b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
        const EventId e = b.addEvent(QStringLiteral("e"));
        const EventId f = b.addEvent(QStringLiteral("f"));
        const AtomicEventId u = b.addAtomicEvent(QStringLiteral("bytes"));
        const double values[] = { 10, 20, 30 };
        for (int t = 0; t < 4; ++t) {
            const ThreadIndex ti = b.addThread({ t, 0, 0 });
            if (t < 3) {
                const double v[] = { values[t] };
                b.addInterval(ti, e, 1, 0, v, v);
            } else {
                const double v[] = { -5 }, w[] = { -3 };
                b.addInterval(ti, e, 1, 0, v, v);
                b.addInterval(ti, f, 1, 0, w, w);
            }
        }
        b.addAtomic(ThreadIndex(0u), u, 4, 20, 5, 10, 500);
        b.addAtomic(ThreadIndex(2u), u, 2, 30, 20, 25, 1300);
        const auto trial = b.build();
        const auto stats = TrialStatistics::of(*trial);
        const Stat& s = stats->stat(f, MetricId(0u), ValueKind::Exclusive);
        QCOMPARE(s.sumSquares, 9.0);
        const Stat& x = stats->stat(e, MetricId(0u), ValueKind::Exclusive);
        QCOMPARE(x.sumSquares, 1425.0);
        QCOMPARE(x.total, 55.0);
        QCOMPARE(x.min, -5.0);
        QCOMPARE(x.minThread, ThreadIndex(3u));
        // sqrt(|1425/4 - 13.75^2|) = sqrt(167.1875)
        QVERIFY(near(oneShotStdDev(x, 4), std::sqrt(1425.0 / 4 - 13.75 * 13.75)));
        QVERIFY(near(oneShotStdDev(x, 4), x.sdAll));
        QCOMPARE(oneShotStdDev(x, 1), 0.0);
        QCOMPARE(oneShotStdDev(s, s.present), 0.0);
        QCOMPARE(stats->threadTopInclusive(ThreadIndex(3u), MetricId(0u)), 0.0);
        QCOMPARE(stats->threadMaxInclusive(ThreadIndex(3u), MetricId(0u)), -3.0);
        QCOMPARE(stats->threadMaxInclusive(ThreadIndex(1u), MetricId(0u)), 20.0);
        QCOMPARE(stats->sumMaxInclusive(MetricId(0u)), 10.0 + 20 + 30 - 3);
        QCOMPARE(stats->sumTopInclusive(MetricId(0u)), 60.0);
        const Stat& total = stats->atomicStat(u, TrialStatistics::Total);
        QCOMPARE(total.total, 90.0);
        QCOMPARE(total.present, std::size_t(2));
        QCOMPARE(total.min, 40.0);
        QCOMPARE(total.max, 50.0);
        QCOMPARE(total.maxThread, ThreadIndex(2u));
        QCOMPARE(total.meanAll, 22.5);
        QCOMPARE(total.meanPresent, 45.0);
        QCOMPARE(total.sdPresent, 5.0);
        QCOMPARE(stats->atomicStat(u, TrialStatistics::SumSquares).total, 1800.0);
        QCOMPARE(stats->atomicStat(u, TrialStatistics::Count).total, 6.0);
    }
};

QTEST_GUILESS_MAIN(TestStatistics)
#include "tst_statistics.moc"
