// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The per-interval table of a snapshot series (algebra/snapshotseries.h, docs/SEMANTICS.md 1.11) and
// `parallax-cli snapshots`. ../shared/data has no TAU profile with several snapshots per thread (the
// snapshot-format sample, tau2/tauprofile-xml-merged, has one), so the series is made from it: each
// thread's real profile stays its final snapshot, and two earlier snapshots are inserted before it
// whose values are the final ones scaled by a fraction that depends on the event (so the intervals
// differ from event to event). Every expected number is computed here from Trial::timeSeries.
#include "algebra/snapshotseries.h"
#include "algebra/statistics.h"
#include "tests/common/clirunner.h"
#include "tests/common/testutil.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

/// The share of the final value that snapshot k (0 or 1) of event `id` holds.
double share(int k, int id) { return k == 0 ? ((id % 3) + 1) / 5.0 : ((id % 3) + 1) / 5.0 + ((id % 2) + 1) / 5.0; }

/// The merged sample with two earlier snapshots before each thread's profile.
QByteArray withEarlierSnapshots(const QByteArray& sample)
{
    static const QRegularExpression profile(
        QStringLiteral("<profile thread=\"([^\"]+)\">\\s*<timestamp>(\\d+)</timestamp>\\s*<interval_data "
                       "metrics=\"0 \">\\n(.*?)</interval_data>"),
        QRegularExpression::DotMatchesEverythingOption);
    const QString text = QString::fromLatin1(sample);
    QString out;
    qsizetype done = 0;
    for (auto it = profile.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += text.mid(done, m.capturedStart() - done);
        const qint64 timestamp = m.captured(2).toLongLong();
        for (int k = 0; k < 2; ++k) {
            out += QStringLiteral("<profile thread=\"%1\">\n<name>iteration %2</name>\n<timestamp>%3</timestamp>\n"
                                  "<interval_data metrics=\"0 \">\n")
                       .arg(m.captured(1))
                       .arg(k + 1)
                       .arg(timestamp - qint64 { 2 - k } * 1000000);
            for (const QString& line : m.captured(3).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
                const QStringList f = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
                const int id = f[0].toInt();
                QStringList scaled { f[0] };
                for (int c = 1; c < f.size(); ++c)
                    scaled << QString::number(f[c].toDouble() * share(k, id), 'g', 17);
                out += scaled.join(QLatin1Char(' ')) + QLatin1Char('\n');
            }
            out += QStringLiteral("</interval_data>\n<atomic_data>\n</atomic_data>\n</profile>\n\n");
        }
        out += m.captured(0);
        done = m.capturedEnd();
    }
    return (out + text.mid(done)).toLatin1();
}

/// The exclusive value of `e` (metric 0) in a row; 0 when absent.
double exclIn(const IntervalRow& row, EventId e)
{
    const std::ptrdiff_t i = row.find(e);
    return i < 0 ? 0.0 : row.exclusive(0, static_cast<std::size_t>(i));
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::max(std::abs(a), std::abs(b))); }

} // namespace

class TestSnapshotSeries : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_path;
    std::shared_ptr<Trial> m_trial;

private Q_SLOTS:
    void initTestCase()
    {
        QFile sample(dataPath(QStringLiteral("tau2/tauprofile-xml-merged/tauprofile.xml")));
        QVERIFY(sample.open(QIODevice::ReadOnly));
        m_path = m_dir.filePath(QStringLiteral("tauprofile.xml"));
        writeText(m_path, withEarlierSnapshots(sample.readAll()));
        m_trial = mustLoad(m_path);
        QVERIFY(m_trial);
        QVERIFY(m_trial->hasTimeSeries());
        QCOMPARE(m_trial->threadCount(), std::size_t(8));
        for (std::size_t t = 0; t < m_trial->threadCount(); ++t)
            QCOMPARE(m_trial->timeSeries(ThreadIndex(t)).size(), std::size_t(3));
    }

    void oneThread()
    {
        for (std::size_t ti = 0; ti < m_trial->threadCount(); ++ti) {
            const ThreadIndex t(ti);
            const auto& series = m_trial->timeSeries(t);
            const SnapshotSeriesTable table = snapshotSeries(*m_trial, MetricId(0u), t);
            QCOMPARE(table.intervals.size(), series.size());
            for (std::size_t i = 0; i < series.size(); ++i) {
                QCOMPARE(table.intervals[i].timestamp, series[i].timestamp);
                QCOMPARE(table.intervals[i].start, i == 0 ? 0 : series[i - 1].timestamp);
            }
            QCOMPARE(table.intervals[0].label, QStringLiteral("iteration 1"));
            QVERIFY(table.events.size() > 10);
            for (std::size_t r = 0; r < table.events.size(); ++r) {
                const EventId e = table.events[r];
                QVERIFY(!m_trial->event(e).isCallPath());
                // The first interval is the first snapshot; the others are differences.
                QVERIFY(near(table.value(r, 0), exclIn(series[0].row, e)));
                for (std::size_t i = 1; i < series.size(); ++i)
                    QVERIFY(near(table.value(r, i), exclIn(series[i].row, e) - exclIn(series[i - 1].row, e)));
                // The intervals add up to the final profile.
                const RowView finalRow = m_trial->row(t);
                const std::ptrdiff_t c = finalRow.find(e);
                QVERIFY(near(table.total(r), c < 0 ? 0.0 : finalRow.exclusive(0, static_cast<std::size_t>(c))));
                if (r > 0)
                    QVERIFY(table.total(r - 1) >= table.total(r));
            }
        }
    }

    void meanOverThreads()
    {
        const SnapshotSeriesTable table = snapshotSeries(*m_trial, MetricId(0u));
        const double n = static_cast<double>(m_trial->threadCount());
        for (std::size_t r = 0; r < table.events.size(); ++r) {
            const EventId e = table.events[r];
            double finalSum = 0;
            for (std::size_t i = 0; i < table.intervals.size(); ++i) {
                double sum = 0;
                for (std::size_t ti = 0; ti < m_trial->threadCount(); ++ti) {
                    const auto& series = m_trial->timeSeries(ThreadIndex(ti));
                    sum += exclIn(series[i].row, e) - (i == 0 ? 0.0 : exclIn(series[i - 1].row, e));
                    if (i + 1 == series.size())
                        finalSum += exclIn(series[i].row, e);
                }
                QVERIFY(near(table.value(r, i), sum / n));
            }
            QVERIFY(near(table.total(r), finalSum / n));
        }
    }

    void statisticsOverThreads()
    {
        // Per interval, each statistic over the threads' own differences, as SEMANTICS 2 defines it
        // (min, max and "present" over the threads that have the event in some snapshot).
        const std::size_t threads = m_trial->threadCount();
        const SnapshotSeriesTable means = snapshotSeries(*m_trial, MetricId(0u));
        bool somePresentOnly = false;
        for (Statistic statistic : { Statistic::Total, Statistic::MeanAll, Statistic::MeanPresent, Statistic::Min,
                 Statistic::Max, Statistic::StdDevAll, Statistic::StdDevPresent }) {
            const SnapshotSeriesTable table = snapshotSeries(*m_trial, MetricId(0u), ThreadIndex(), statistic);
            QCOMPARE(table.statistic, statistic);
            QCOMPARE(table.intervals.size(), std::size_t(3));
            QCOMPARE(table.events.size(), means.events.size());
            for (std::size_t r = 0; r < table.events.size(); ++r) {
                const EventId e = table.events[r];
                for (std::size_t i = 0; i < table.intervals.size(); ++i) {
                    std::vector<double> values; // of the threads that have e
                    for (std::size_t ti = 0; ti < threads; ++ti) {
                        const auto& series = m_trial->timeSeries(ThreadIndex(ti));
                        bool has = false;
                        for (const ProfileSnapshot& snapshot : series)
                            has = has || snapshot.row.find(e) >= 0;
                        if (has)
                            values.push_back(exclIn(series[i].row, e) - (i == 0 ? 0.0 : exclIn(series[i - 1].row, e)));
                    }
                    somePresentOnly = somePresentOnly || values.size() < threads;
                    double sum = 0;
                    for (double v : values)
                        sum += v;
                    const bool all = statistic == Statistic::MeanAll || statistic == Statistic::StdDevAll;
                    const double n = all ? static_cast<double>(threads) : static_cast<double>(values.size());
                    double squares = 0;
                    for (double v : values)
                        squares += (v - sum / n) * (v - sum / n);
                    squares += (n - static_cast<double>(values.size())) * (sum / n) * (sum / n);
                    double expected = 0;
                    switch (statistic) {
                    case Statistic::Total:
                        expected = sum;
                        break;
                    case Statistic::MeanAll:
                    case Statistic::MeanPresent:
                        expected = sum / n;
                        break;
                    case Statistic::Min:
                        expected = *std::min_element(values.begin(), values.end());
                        break;
                    case Statistic::Max:
                        expected = *std::max_element(values.begin(), values.end());
                        break;
                    case Statistic::StdDevAll:
                    case Statistic::StdDevPresent:
                        expected = n > 1 ? std::sqrt(squares / n) : 0.0;
                        break;
                    }
                    QVERIFY2(near(table.value(r, i), expected),
                        qPrintable(QStringLiteral("%1 %2 interval %3: %4, expected %5")
                                       .arg(statisticName(statistic), m_trial->event(e).name)
                                       .arg(i)
                                       .arg(table.value(r, i))
                                       .arg(expected)));
                }
            }
            // The Total's intervals add up to the statistics' total of the final profile.
            if (statistic == Statistic::Total) {
                const auto stats = TrialStatistics::of(*m_trial);
                for (std::size_t r = 0; r < table.events.size(); ++r)
                    QVERIFY(near(table.total(r),
                        statisticValue(
                            *m_trial, *stats, table.events[r], MetricId(0u), ValueType::Exclusive, Statistic::Total)
                            .value_or(0.0)));
            }
        }
        QVERIFY(somePresentOnly); // the sample has events on some threads only: min/max/present differ
    }

    void heatMap()
    {
        // Every thread's row of the heat map is that thread's table for the event.
        const SnapshotSeriesTable mean = snapshotSeries(*m_trial, MetricId(0u));
        const EventId e = mean.events.front();
        const SnapshotHeatMap map = snapshotHeatMap(*m_trial, MetricId(0u), e);
        QCOMPARE(map.threads, m_trial->threadCount());
        QCOMPARE(map.intervals, std::size_t(3));
        QCOMPARE(snapshotCount(*m_trial), std::size_t(3));
        double lo = map.values.front();
        double hi = lo;
        for (std::size_t t = 0; t < map.threads; ++t) {
            const auto& series = m_trial->timeSeries(ThreadIndex(t));
            for (std::size_t i = 0; i < map.intervals; ++i) {
                const double expected = exclIn(series[i].row, e) - (i == 0 ? 0.0 : exclIn(series[i - 1].row, e));
                QVERIFY(near(map.value(t, i), expected));
                lo = std::min(lo, map.value(t, i));
                hi = std::max(hi, map.value(t, i));
            }
        }
        QCOMPARE(map.minimum, lo);
        QCOMPARE(map.maximum, hi);
        QVERIFY(map.maximum > map.minimum);
    }

    void intervalProfiles()
    {
        // The profile of one interval is the difference of the snapshots around it, cell by cell,
        // inclusive and calls included; interval 0 is the first snapshot; the whole range is the
        // final profile.
        for (const auto& [first, last] : { std::pair(1, 1), std::pair(1, 2), std::pair(0, 0), std::pair(0, 2) }) {
            const AlgebraResult r = intervalProfile(*m_trial, first, last);
            QVERIFY2(r.ok(), qPrintable(r.error()));
            const Trial& p = *r.trial();
            QCOMPARE(p.threadCount(), m_trial->threadCount());
            QVERIFY(p.name().contains(first == 0 ? QStringLiteral(" @ ") : QStringLiteral(" .. ")));
            QVERIFY(!p.hasTimeSeries());
            std::size_t checked = 0;
            for (std::size_t ti = 0; ti < m_trial->threadCount(); ++ti) {
                const auto& series = m_trial->timeSeries(ThreadIndex(ti));
                const IntervalRow& end = series[std::size_t(last)].row;
                const IntervalRow* begin = first == 0 ? nullptr : &series[std::size_t(first - 1)].row;
                const ThreadIndex pt = p.findThread(m_trial->threadKey(ThreadIndex(ti)));
                QVERIFY(pt.isValid());
                const RowView row = p.row(pt);
                for (std::size_t c = 0; c < end.size(); ++c) {
                    const EventId re = p.findEvent(m_trial->event(end.events[c]).name);
                    QVERIFY(re.isValid());
                    const std::ptrdiff_t at = row.find(re);
                    QVERIFY(at >= 0);
                    const auto i = static_cast<std::size_t>(at);
                    const std::ptrdiff_t b = begin ? begin->find(end.events[c]) : -1;
                    const auto bi = static_cast<std::size_t>(b);
                    QVERIFY(near(row.exclusive(0, i), end.exclusive(0, c) - (b < 0 ? 0.0 : begin->exclusive(0, bi))));
                    QVERIFY(near(row.inclusive(0, i), end.inclusive(0, c) - (b < 0 ? 0.0 : begin->inclusive(0, bi))));
                    QVERIFY(near(row.calls[i], end.calls[c] - (b < 0 ? 0.0 : begin->calls[bi])));
                    ++checked;
                }
            }
            QVERIFY(checked > 100);
            if (first == 0 && last == 2)
                QCOMPARE(
                    p.metadataValue(QStringLiteral("Parallax operation")).left(12), QStringLiteral("snapshot of "));
        }
        const AlgebraResult bad = intervalProfile(*m_trial, 2, 3);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error(), QStringLiteral("no interval 2..3 in %1: it has 3 snapshots (0..2)").arg(m_trial->name()));
        QVERIFY(!intervalProfile(*m_trial, 2, 1).ok());
    }

    void cli()
    {
        const CliRun run = runCli({ QStringLiteral("snapshots"), m_path, QStringLiteral("--json") });
        QCOMPARE(run.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(doc.value(QStringLiteral("metric")).toString(), QStringLiteral("TIME"));
        QCOMPARE(doc.value(QStringLiteral("values")).toString(), QStringLiteral("mean over 8 threads"));
        QCOMPARE(doc.value(QStringLiteral("intervals")).toArray().size(), 3);
        const QJsonArray events = doc.value(QStringLiteral("events")).toArray();
        QCOMPARE(events.size(), 10);
        const SnapshotSeriesTable table = snapshotSeries(*m_trial, MetricId(0u));
        for (qsizetype r = 0; r < events.size(); ++r) {
            const QJsonObject o = events[r].toObject();
            const auto row = static_cast<std::size_t>(r);
            QCOMPARE(o.value(QStringLiteral("name")).toString(), m_trial->event(table.events[row]).name);
            const QJsonArray v = o.value(QStringLiteral("values")).toArray();
            for (qsizetype i = 0; i < v.size(); ++i)
                QVERIFY(near(v[i].toDouble(), table.value(row, static_cast<std::size_t>(i))));
        }

        // --statistic: the same table as snapshotSeries with that statistic; a bad name is a usage error.
        const CliRun maxRun = runCli({ QStringLiteral("snapshots"), m_path, QStringLiteral("--statistic"),
            QStringLiteral("max"), QStringLiteral("--top"), QStringLiteral("0"), QStringLiteral("--json") });
        QCOMPARE(maxRun.exitCode, 0);
        const QJsonObject maxDoc = QJsonDocument::fromJson(maxRun.out).object();
        QCOMPARE(maxDoc.value(QStringLiteral("statistic")).toString(), QStringLiteral("Max"));
        const SnapshotSeriesTable maxTable = snapshotSeries(*m_trial, MetricId(0u), ThreadIndex(), Statistic::Max);
        const QJsonArray maxEvents = maxDoc.value(QStringLiteral("events")).toArray();
        QCOMPARE(static_cast<std::size_t>(maxEvents.size()), maxTable.events.size());
        for (qsizetype r = 0; r < maxEvents.size(); ++r) {
            const auto row = static_cast<std::size_t>(r);
            const QJsonArray v = maxEvents[r].toObject().value(QStringLiteral("values")).toArray();
            for (qsizetype i = 0; i < v.size(); ++i)
                QVERIFY(near(v[i].toDouble(), maxTable.value(row, static_cast<std::size_t>(i))));
        }
        QCOMPARE(
            runCli({ QStringLiteral("snapshots"), m_path, QStringLiteral("--statistic"), QStringLiteral("median") })
                .exitCode,
            2);
        QCOMPARE(runCli({ QStringLiteral("snapshots"), m_path, QStringLiteral("--statistic"), QStringLiteral("max"),
                            QStringLiteral("--thread"), QStringLiteral("0,0,0") })
                     .exitCode,
            2);

        // One event of one thread: its three intervals, from the thread's own snapshots.
        const ThreadIndex t(3u);
        const EventId e = table.events[1];
        const CliRun one = runCli(
            { QStringLiteral("snapshots"), m_path, QStringLiteral("--thread"), m_trial->threadKey(t).toString(),
                QStringLiteral("--event"), m_trial->event(e).name, QStringLiteral("--json") });
        QCOMPARE(one.exitCode, 0);
        const QJsonArray only = QJsonDocument::fromJson(one.out).object().value(QStringLiteral("events")).toArray();
        QCOMPARE(only.size(), 1);
        const QJsonArray v = only[0].toObject().value(QStringLiteral("values")).toArray();
        const auto& series = m_trial->timeSeries(t);
        QCOMPARE(v.size(), 3);
        for (qsizetype i = 0; i < 3; ++i) {
            const auto k = static_cast<std::size_t>(i);
            QVERIFY(near(v[i].toDouble(), exclIn(series[k].row, e) - (k == 0 ? 0.0 : exclIn(series[k - 1].row, e))));
        }

        // The text table; a trial without snapshots has one interval (with a warning); bad names fail.
        const CliRun text = runCli({ QStringLiteral("snapshots"), m_path });
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("iteration 2"), text.out.constData());
        const CliRun flat = runCli(
            { QStringLiteral("snapshots"), dataPath(QStringLiteral("tau2/tauprofile-xml-merged/tauprofile.xml")) });
        QCOMPARE(flat.exitCode, 0);
        QVERIFY2(flat.err.contains("no snapshots"), flat.err.constData());
        QCOMPARE(
            runCli({ QStringLiteral("snapshots"), m_path, QStringLiteral("--event"), QStringLiteral("nope") }).exitCode,
            1);
        QCOMPARE(
            runCli({ QStringLiteral("snapshots"), m_path, QStringLiteral("--thread"), QStringLiteral("1,2") }).exitCode,
            2);
    }

    void cliRange()
    {
        // --range 1..2 -o FILE.ppk writes the profile of intervals 1 and 2: what reads back is
        // intervalProfile's trial, cell for cell.
        const QString out = m_dir.filePath(QStringLiteral("range.ppk"));
        const CliRun run = runCli({ QStringLiteral("snapshots"), m_path, QStringLiteral("--range"),
            QStringLiteral("1..2"), QStringLiteral("-o"), out, QStringLiteral("--json") });
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(doc.value(QStringLiteral("first")).toInt(), 1);
        QCOMPARE(doc.value(QStringLiteral("last")).toInt(), 2);
        QCOMPARE(doc.value(QStringLiteral("threads")).toInt(), 8);
        const auto written = mustLoad(out);
        QVERIFY(written);
        const AlgebraResult expected = intervalProfile(*m_trial, 1, 2);
        QVERIFY(expected.ok());
        QCOMPARE(written->threadCount(), expected.trial()->threadCount());
        std::size_t checked = 0;
        for (std::size_t t = 0; t < written->threadCount(); ++t) {
            const RowView a = expected.trial()->row(ThreadIndex(t));
            const RowView b = written->row(written->findThread(expected.trial()->threadKey(ThreadIndex(t))));
            QCOMPARE(a.size(), b.size());
            for (std::size_t c = 0; c < a.size(); ++c) {
                const std::ptrdiff_t k = b.find(written->findEvent(expected.trial()->event(a.events[c]).name));
                QVERIFY(k >= 0);
                QVERIFY(near(a.exclusive(0, c), b.exclusive(0, static_cast<std::size_t>(k))));
                ++checked;
            }
        }
        QVERIFY(checked > 100);
        // Out of range, a malformed range, and --range without -o.
        const CliRun past = runCli({ QStringLiteral("snapshots"), m_path, QStringLiteral("--range"),
            QStringLiteral("1..3"), QStringLiteral("-o"), m_dir.filePath(QStringLiteral("x.ppk")) });
        QCOMPARE(past.exitCode, 1);
        QVERIFY2(past.err.contains("it has 3 snapshots (0..2)"), past.err.constData());
        QCOMPARE(runCli({ QStringLiteral("snapshots"), m_path, QStringLiteral("--range"), QStringLiteral("1"),
                            QStringLiteral("-o"), m_dir.filePath(QStringLiteral("y.ppk")) })
                     .exitCode,
            2);
        QCOMPARE(
            runCli({ QStringLiteral("snapshots"), m_path, QStringLiteral("--range"), QStringLiteral("0..1") }).exitCode,
            2);
    }

    void seriesOfTrials()
    {
        // A run's cumulative dumps as separate TAU directories (snapshot k of the sample written whole
        // by --range 0..k), each with its own "Dump time" in every file's metadata, as TAU's dumps
        // carry their time; given out of order, --order-by puts them back into one series whose
        // intervals are the sample's.
        QStringList dirs;
        for (int k = 0; k < 3; ++k) {
            const QString dir = m_dir.filePath(QStringLiteral("dump%1").arg(k));
            const CliRun write = runCli({ QStringLiteral("snapshots"), m_path, QStringLiteral("--range"),
                QStringLiteral("0..%1").arg(k), QStringLiteral("-o"), dir });
            QVERIFY2(write.exitCode == 0, write.err.constData());
            const QStringList files = QDir(dir).entryList({ QStringLiteral("profile.*") }, QDir::Files);
            QCOMPARE(files.size(), 8);
            for (const QString& name : files) {
                QFile f(QDir(dir).filePath(name));
                QVERIFY(f.open(QIODevice::ReadOnly));
                QByteArray text = f.readAll();
                f.close();
                QVERIFY(text.contains("<metadata>"));
                text.replace("<metadata>",
                    QStringLiteral("<metadata><attribute><name>Dump time</name><value>%1</value></attribute>")
                        .arg(100 + 50 * k)
                        .toUtf8());
                QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
                f.write(text);
            }
            dirs << dir;
        }
        const CliRun run
            = runCli({ QStringLiteral("snapshots"), QStringLiteral("--order-by"), QStringLiteral("Dump time"), dirs[2],
                dirs[0], dirs[1], QStringLiteral("--top"), QStringLiteral("0"), QStringLiteral("--json") });
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(run.out).object();
        QVERIFY(doc.value(QStringLiteral("snapshots")).toBool());
        const QJsonArray intervals = doc.value(QStringLiteral("intervals")).toArray();
        QCOMPARE(intervals.size(), 3);
        for (int k = 0; k < 3; ++k) // ordered as numbers: 100, 150, 200
            QCOMPARE(intervals[k].toObject().value(QStringLiteral("label")).toString(), QString::number(100 + 50 * k));
        const SnapshotSeriesTable expected = snapshotSeries(*m_trial, MetricId(0u));
        const QJsonArray events = doc.value(QStringLiteral("events")).toArray();
        QCOMPARE(static_cast<std::size_t>(events.size()), expected.events.size());
        for (qsizetype r = 0; r < events.size(); ++r) {
            const QJsonObject o = events[r].toObject();
            const EventId e = m_trial->findEvent(o.value(QStringLiteral("name")).toString());
            const auto row = static_cast<std::size_t>(
                std::find(expected.events.begin(), expected.events.end(), e) - expected.events.begin());
            QVERIFY(row < expected.events.size());
            const QJsonArray v = o.value(QStringLiteral("values")).toArray();
            for (qsizetype i = 0; i < 3; ++i)
                QVERIFY2(near(v[i].toDouble(), expected.value(row, static_cast<std::size_t>(i))),
                    qPrintable(o.value(QStringLiteral("name")).toString()));
        }
        // A trial without the key, or a single trial, fails naming the problem.
        const CliRun missing = runCli({ QStringLiteral("snapshots"), QStringLiteral("--order-by"),
            QStringLiteral("No such key"), dirs[0], dirs[1] });
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("has no metadata 'No such key'"), missing.err.constData());
        QCOMPARE(
            runCli({ QStringLiteral("snapshots"), QStringLiteral("--order-by"), QStringLiteral("Dump time"), dirs[0] })
                .exitCode,
            2);
    }
};

QTEST_GUILESS_MAIN(TestSnapshotSeries)
#include "tst_snapshotseries.moc"
