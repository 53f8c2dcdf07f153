// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// CSV and JSON writers and readers: every sample and a trial with every awkward case written, read
// back and compared field by field, bit for bit; write -> read -> write gives the same bytes; the
// readers' errors name the line (and, for JSON, the column and byte); plain and Hatchet CSV.
#include "algebra/operations.h"
#include "algebra/presence.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/csvreader.h"
#include "datasource/readers/jsonreader.h"
#include "datasource/writers/csvwriter.h"
#include "datasource/writers/jsonwriter.h"
#include "datasource/writers/writerregistry.h"
#include "tests/common/testutil.h"

#include <QTemporaryDir>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

using namespace parallax;
using namespace parallax::test;

namespace {

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
constexpr double Inf = std::numeric_limits<double>::infinity();

/// Bit for bit, except that any NaN equals any NaN (the formats write NaN without its payload).
/// Equal columns (ColumnView, CountView or vector of doubles), NaN equal to NaN.
template <typename A, typename B> bool same(const A& a, const B& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(std::isnan(a[i]) && std::isnan(b[i]))
            && std::bit_cast<std::uint64_t>(a[i]) != std::bit_cast<std::uint64_t>(b[i]))
            return false;
    return true;
}

QStringList groupNames(const Trial& t, const IntervalEvent& e)
{
    QStringList out;
    for (const GroupId g : e.groups)
        out << t.groupName(g);
    return out;
}

QString eventName(const Trial& t, EventId e) { return e.isValid() ? t.event(e).name : QStringLiteral("<none>"); }

QStringList metadataOf(const Trial& t, const std::vector<MetadataEntry>& entries)
{
    QStringList out;
    for (const MetadataEntry& e : entries)
        out << t.strings().get(e.key) << t.strings().get(e.value);
    return out;
}

QString rowDifference(const RowView& x, const RowView& y)
{
    if (x.events != y.events)
        return QStringLiteral("present events");
    if (!same(x.calls, y.calls) || !same(x.subrs, y.subrs))
        return QStringLiteral("calls or subroutines");
    if (!same(x.excl, y.excl))
        return QStringLiteral("exclusive values");
    if (!same(x.incl, y.incl))
        return QStringLiteral("inclusive values");
    if (!same(x.exclSqr, y.exclSqr))
        return QStringLiteral("SumExclSqr");
    return {};
}

QString atomicDifference(const AtomicRow& x, const AtomicRow& y)
{
    if (x.events != y.events)
        return QStringLiteral("atomic events");
    if (!same(x.count, y.count) || !same(x.max, y.max) || !same(x.min, y.min) || !same(x.mean, y.mean)
        || !same(x.sumSquares, y.sumSquares))
        return QStringLiteral("atomic values");
    if (!same(x.stdDev, y.stdDev))
        return QStringLiteral("explicit standard deviations");
    return {};
}

/// Everything a trial holds, compared exactly; the first difference, or an empty string. The
/// provenance is compared only for derived trials (a measured one names the file it was read from).
QString trialDifference(const Trial& a, const Trial& b)
{
    if (a.name() != b.name())
        return QStringLiteral("trial name '%1' != '%2'").arg(a.name(), b.name());
    if (a.isDerived() || b.isDerived()) {
        const Provenance& p = a.provenance();
        const Provenance& q = b.provenance();
        if (p.operation != q.operation || p.source != q.source || p.reader != q.reader || p.operands != q.operands
            || p.options != q.options)
            return QStringLiteral("provenance %1 != %2").arg(p.operation, q.operation);
    }
    if (a.warnings() != b.warnings())
        return QStringLiteral("warnings: %1 != %2").arg(a.warnings().join(u'|'), b.warnings().join(u'|'));
    if (a.metricCount() != b.metricCount())
        return QStringLiteral("metric count %1 != %2").arg(a.metricCount()).arg(b.metricCount());
    for (std::size_t m = 0; m < a.metricCount(); ++m) {
        const Metric& x = a.metric(MetricId(m));
        const Metric& y = b.metric(MetricId(m));
        if (x.name != y.name || x.unit != y.unit || x.derived != y.derived || x.expression != y.expression
            || x.higherIsBetter != y.higherIsBetter)
            return QStringLiteral("metric %1: %2 [%3] != %4 [%5]").arg(m).arg(x.name, x.unit, y.name, y.unit);
    }
    if (a.threads() != b.threads())
        return QStringLiteral("threads");
    if (a.groupCount() != b.groupCount())
        return QStringLiteral("group count %1 != %2").arg(a.groupCount()).arg(b.groupCount());
    for (std::size_t g = 0; g < a.groupCount(); ++g)
        if (a.groupName(GroupId(g)) != b.groupName(GroupId(g)))
            return QStringLiteral("group %1: %2 != %3").arg(g).arg(a.groupName(GroupId(g)), b.groupName(GroupId(g)));
    if (a.eventCount() != b.eventCount())
        return QStringLiteral("event count %1 != %2").arg(a.eventCount()).arg(b.eventCount());
    for (std::size_t e = 0; e < a.eventCount(); ++e) {
        const IntervalEvent& x = a.event(EventId(e));
        const IntervalEvent& y = b.event(EventId(e));
        if (x.name != y.name)
            return QStringLiteral("event %1: %2 != %3").arg(e).arg(x.name, y.name);
        if (x.rawName != y.rawName)
            return QStringLiteral("event %1: raw name '%2' != '%3'").arg(x.name, x.rawName, y.rawName);
        if (groupNames(a, x) != groupNames(b, y))
            return QStringLiteral("event %1: groups %2 != %3")
                .arg(x.name, groupNames(a, x).join(u'|'), groupNames(b, y).join(u'|'));
        if (x.depth != y.depth || x.parent != y.parent || x.leaf != y.leaf
            || eventName(a, x.parent) != eventName(b, y.parent) || eventName(a, x.leaf) != eventName(b, y.leaf))
            return QStringLiteral("event %1: depth, parent or leaf").arg(x.name);
    }
    if (a.atomicEventCount() != b.atomicEventCount())
        return QStringLiteral("atomic event count %1 != %2").arg(a.atomicEventCount()).arg(b.atomicEventCount());
    for (std::size_t u = 0; u < a.atomicEventCount(); ++u) {
        const AtomicEvent& x = a.atomicEvent(AtomicEventId(u));
        const AtomicEvent& y = b.atomicEvent(AtomicEventId(u));
        if (x.name != y.name || x.rawName != y.rawName || x.baseName != y.baseName || x.context != y.context)
            return QStringLiteral("atomic event %1: '%2' ('%3') != '%4' ('%5')")
                .arg(u)
                .arg(x.name, x.rawName, y.name, y.rawName);
    }
    for (std::size_t t = 0; t < a.threadCount(); ++t) {
        const ThreadIndex i(t);
        const QString where = a.threadKey(i).toString();
        QString d = rowDifference(a.row(i), b.row(i));
        if (!d.isEmpty())
            return QStringLiteral("thread %1: %2").arg(where, d);
        d = atomicDifference(a.atomicRow(i), b.atomicRow(i));
        if (!d.isEmpty())
            return QStringLiteral("thread %1: %2").arg(where, d);
        if (metadataOf(a, a.threadMetadata(i)) != metadataOf(b, b.threadMetadata(i)))
            return QStringLiteral("metadata of thread %1").arg(where);
    }
    if (metadataOf(a, a.metadata()) != metadataOf(b, b.metadata()))
        return QStringLiteral("trial-wide metadata");
    if (a.providedStatistics().size() != b.providedStatistics().size())
        return QStringLiteral("provided statistics count");
    for (std::size_t s = 0; s < a.providedStatistics().size(); ++s) {
        const ProvidedStatistic& x = a.providedStatistics()[s];
        const ProvidedStatistic& y = b.providedStatistics()[s];
        if (x.name != y.name || x.derivedId != y.derivedId)
            return QStringLiteral("provided statistic %1: %2 (%3) != %4 (%5)")
                .arg(s)
                .arg(x.name)
                .arg(x.derivedId)
                .arg(y.name)
                .arg(y.derivedId);
        QString d = rowDifference(x.row, y.row);
        if (d.isEmpty())
            d = atomicDifference(x.atomicRow, y.atomicRow);
        if (!d.isEmpty())
            return QStringLiteral("provided statistic %1: %2").arg(x.name, d);
    }
    if (a.hasTimeSeries() != b.hasTimeSeries())
        return QStringLiteral("time series presence");
    if (a.hasTimeSeries()) {
        for (std::size_t t = 0; t < a.threadCount(); ++t) {
            const auto& x = a.timeSeries(ThreadIndex(t));
            const auto& y = b.timeSeries(ThreadIndex(t));
            if (x.size() != y.size())
                return QStringLiteral("thread %1: snapshot count").arg(t);
            for (std::size_t i = 0; i < x.size(); ++i) {
                if (x[i].name != y[i].name || x[i].timestamp != y[i].timestamp)
                    return QStringLiteral("thread %1: snapshot %2 name or timestamp").arg(t).arg(i);
                QString d = rowDifference(x[i].row, y[i].row);
                if (d.isEmpty())
                    d = atomicDifference(x[i].atomicRow, y[i].atomicRow);
                if (!d.isEmpty())
                    return QStringLiteral("thread %1: snapshot %2: %3").arg(t).arg(i).arg(d);
            }
        }
    }
    return {};
}

/// The error of a failed read, for QVERIFY2 (which evaluates its message even on success).
QByteArray why(const TrialResult& result) { return result.ok() ? QByteArray() : result.error().toString().toUtf8(); }

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

using WriteFn = QString (*)(const Trial&, const QString&);

struct Format {
    QString suffix;
    WriteFn write;
    QString reader;
};

Format formatNamed(const QString& name)
{
    if (name == QLatin1String("csv"))
        return { QStringLiteral(".csv"), &CsvWriter::write, QStringLiteral("csv") };
    return { QStringLiteral(".json"), &JsonWriter::write, QStringLiteral("json") };
}

TrialResult readAs(const QString& path, const QString& format)
{
    Progress progress;
    return ReaderRegistry::instance().read(path, ReadOptions {}, progress, format);
}

/// Strings that break naive CSV or JSON writers.
const QStringList OddStrings = {
    QStringLiteral("comma, inside"),
    QStringLiteral("it's \"quoted\""),
    QStringLiteral("new\nline\r\nand CR\r"),
    QStringLiteral("tab\there"),
    QStringLiteral("back\\slash | pipe \\| "),
    QString::fromUtf8("non-ASCII: Größe, 漢字, 😀"),
    QStringLiteral("  leading and trailing  "),
    QStringLiteral("control \x01\x1f and \x7f"),
    QStringLiteral("nan"),
    QStringLiteral("-inf"),
    QStringLiteral("{\"json\": [1, 2]}"),
};

/// A multi-metric trial with the awkward cases of the model.
std::shared_ptr<Trial> awkwardTrial()
{
    TrialBuilder builder(QStringLiteral("awkward ") + OddStrings.join(u' '));
    builder.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
    builder.addMetric(Metric(OddStrings[0], QStringLiteral("count")));
    Metric derived(QStringLiteral("(PAPI/TIME)"), QString());
    derived.derived = true;
    derived.expression = QStringLiteral("\"PAPI\" / TIME");
    derived.higherIsBetter = true;
    builder.addMetric(derived);
    builder.addGroup(QStringLiteral("unused group ") + OddStrings[4]);
    builder.addMetadata(QStringLiteral("Application"), OddStrings[2]);
    for (const QString& odd : OddStrings)
        builder.addMetadata(QStringLiteral("key ") + odd, odd);

    std::vector<EventId> events;
    events.push_back(builder.addEvent(QStringLiteral(".TAU application"), { QStringLiteral("TAU_DEFAULT") }));
    for (const QString& odd : OddStrings)
        events.push_back(
            builder.addEvent(odd, { QStringLiteral("TAU_USER"), odd.trimmed() }, odd + QStringLiteral("  ")));
    events.push_back(builder.addEvent(QStringLiteral(".TAU application => ") + OddStrings[1],
        { QStringLiteral("TAU_CALLPATH") }, QStringLiteral(".TAU application   => ") + OddStrings[1]));
    events.push_back(builder.addEvent(QStringLiteral(".TAU application => missing middle => x"), {}));
    builder.addEvent(QStringLiteral("declared but never run"), { QStringLiteral("TAU_USER") });

    const AtomicEventId u0 = builder.addAtomicEvent(QStringLiteral("Message size : ") + OddStrings[0]);
    const AtomicEventId u1 = builder.addAtomicEvent(QStringLiteral("Heap "), QStringLiteral("Heap  "));
    builder.addAtomicEvent(QStringLiteral("never recorded"));

    const double values[] = { 0.0, -0.0, 1.0, -1.5, 0.1, 1e-310, -4.9e-324, 1.7976931348623157e308, NaN, Inf, -Inf,
        123456789.123456789, 3.0e-7, -2.5e15 };
    const std::size_t nv = std::size(values);
    const std::vector<ThreadKey> keys = { { 0, 0, 0 }, { 0, 0, 1 }, { 1, 0, 0 }, { 3, 2, 7 }, { 4, 0, 0 } };
    std::vector<ThreadIndex> threads;
    threads.reserve(keys.size());
    for (const ThreadKey& k : keys)
        threads.push_back(builder.addThread(k));
    std::vector<IntervalRow> rows(keys.size());
    std::vector<AtomicRow> atomics(keys.size());
    const std::size_t metrics = 3;
    for (std::size_t t = 0; t < keys.size(); ++t) {
        if (t == 4)
            continue; // a thread with no cells at all
        IntervalRow& row = rows[t];
        for (std::size_t i = 0; i < events.size(); ++i) {
            if ((i + t) % 4 == 3)
                continue; // absent cells
            row.events.push_back(events[i]);
            row.calls.push_back(i == 2 ? 0.0 : values[(i + t) % nv]);
            row.subrs.push_back(values[(i * 3 + t) % nv]);
        }
        const std::size_t n = row.events.size();
        for (std::size_t m = 0; m < metrics; ++m)
            for (std::size_t i = 0; i < n; ++i) {
                row.excl.push_back(values[(i + m * 5 + t) % nv]);
                row.incl.push_back(values[(i * 7 + m + t) % nv]);
            }
        if (t == 1) // SumExclSqr on one thread only
            for (std::size_t k = 0; k < metrics * n; ++k)
                row.exclSqr.push_back(values[(k + 2) % nv]);
        AtomicRow& a = atomics[t];
        a.events = { u0, u1 };
        a.count = { 3.0, values[t % nv] };
        a.max = { 10.0, -1.0 };
        a.min = { -10.0, NaN };
        a.mean = { 0.25, values[(t + 5) % nv] };
        a.sumSquares = { 301.0, 0.0 };
        if (t == 2)
            a.stdDev = { -0.5, Inf }; // explicit deviations (a difference of deviations)
    }
    builder.setIntervalRows(std::move(rows));
    builder.setAtomicRows(std::move(atomics));
    builder.addThreadMetadata(threads[0], QStringLiteral("Hostname"), QStringLiteral("n0"), true);
    builder.addThreadMetadata(threads[0], OddStrings[3], OddStrings[5], true);
    builder.addThreadMetadata(threads[2], QStringLiteral("Hostname"), QStringLiteral("n1, with comma"), true);
    builder.addThreadMetadata(threads[3], QStringLiteral("empty value"), QString(), true);

    ProvidedStatistic mean;
    mean.name = QStringLiteral("mean_all");
    mean.derivedId = -6;
    mean.row.events = { events[0], events[2] };
    mean.row.calls = { 1.0, NaN };
    mean.row.subrs = { 2.0, 0.0 };
    mean.row.excl = { 1.0, -2.0, 3.0, 4.0, 5.0, 6.0 };
    mean.row.incl = { 1.5, -Inf, 3.5, 4.5, 5.5, 6.5 };
    mean.row.exclSqr = { 7.0, 8.0, 9.0, 10.0, 11.0, 12.0 };
    mean.atomicRow.events = { u1 };
    mean.atomicRow.count = { 2.5 };
    mean.atomicRow.max = { 3.0 };
    mean.atomicRow.min = { -3.0 };
    mean.atomicRow.mean = { 0.0 };
    mean.atomicRow.sumSquares = { 18.0 };
    mean.atomicRow.stdDev = { 1.25 };
    builder.addProvidedStatistic(std::move(mean));
    ProvidedStatistic empty;
    empty.name = OddStrings[0];
    builder.addProvidedStatistic(std::move(empty));

    for (std::size_t t : { std::size_t(0), std::size_t(2) }) {
        std::vector<ProfileSnapshot> series;
        for (int s = 0; s < 3; ++s) {
            ProfileSnapshot snapshot;
            snapshot.name = s == 2 ? QStringLiteral("final") : OddStrings[static_cast<std::size_t>(s)];
            snapshot.timestamp = s == 1 ? -5 : qint64(1700000000000000) + s;
            snapshot.row.events = { events[0] };
            snapshot.row.calls = { double(s) };
            snapshot.row.subrs = { 0.0 };
            snapshot.row.excl = { double(s) * 0.1, -0.0, NaN };
            snapshot.row.incl = { double(s) * 0.2, 1.0, Inf };
            if (s == 1)
                snapshot.row.exclSqr = { 1.0, 2.0, 3.0 };
            snapshot.atomicRow.events = { u0 };
            snapshot.atomicRow.count = { 1.0 };
            snapshot.atomicRow.max = { 2.0 };
            snapshot.atomicRow.min = { 2.0 };
            snapshot.atomicRow.mean = { 2.0 };
            snapshot.atomicRow.sumSquares = { 4.0 };
            series.push_back(std::move(snapshot));
        }
        builder.setTimeSeries(threads[t], std::move(series));
    }
    builder.addWarning(QStringLiteral("a warning, with a comma"));
    builder.addWarning(OddStrings[2]);
    Provenance provenance;
    provenance.operation = QStringLiteral("difference");
    provenance.source = OddStrings[0];
    provenance.operands = { QStringLiteral("a.ppk"), OddStrings[2] };
    provenance.options = { QStringLiteral("--keep"), QString() };
    builder.setProvenance(provenance);
    return builder.build();
}

} // namespace

class TestCsvJson : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void registered()
    {
        QCOMPARE(WriterRegistry::instance().forPath(QStringLiteral("x/out.CSV"))->name, QStringLiteral("csv"));
        QCOMPARE(WriterRegistry::instance().forPath(QStringLiteral("out.json"))->name, QStringLiteral("json"));
        QVERIFY(ReaderRegistry::instance().find(QStringLiteral("csv")));
        QVERIFY(ReaderRegistry::instance().find(QStringLiteral("json")));
    }

    void roundTripSamples_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("format");
        QStringList samples = { QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"),
            QStringLiteral("tau2/tau-profiles-openmp-2thread"),
            QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank"), QStringLiteral("tau2/tau-profiles-wrap-params"),
            QStringLiteral("tau2/tauprofile-xml-merged/tauprofile.xml") };
        const QStringList ppks = QDir(dataPath(QStringLiteral("tau2/ppk")))
                                     .entryList({ QStringLiteral("*.ppk") }, QDir::Files, QDir::Name);
        QVERIFY(ppks.size() >= 7);
        for (const QString& ppk : ppks)
            samples << QStringLiteral("tau2/ppk/") + ppk;
        for (const QString& sample : samples)
            for (const char* format : { "csv", "json" })
                QTest::newRow(qPrintable(sample + QLatin1Char(' ') + QLatin1String(format)))
                    << sample << QString::fromLatin1(format);
    }
    void roundTripSamples()
    {
        QFETCH(QString, sample);
        QFETCH(QString, format);
        const auto original = mustLoad(dataPath(sample));
        QVERIFY(original);
        QVERIFY(roundTrip(*original, format));
    }

    void roundTripAwkward_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("csv") << QStringLiteral("csv");
        QTest::newRow("json") << QStringLiteral("json");
    }
    void roundTripAwkward()
    {
        QFETCH(QString, format);
        const auto trial = awkwardTrial();
        QVERIFY(trial->hasTimeSeries());
        QCOMPARE(trial->providedStatistics().size(), std::size_t(2));
        const auto again = roundTrip(*trial, format);
        QVERIFY(again);
        QCOMPARE(again->provenance().operation, QStringLiteral("difference"));
        QVERIFY(!again->atomicRow(ThreadIndex(2u)).stdDev.empty());
        QCOMPARE(again->atomicRow(ThreadIndex(2u)).stddev(0), -0.5);
    }

    void roundTripWithoutMetrics_data() { roundTripAwkward_data(); }
    void roundTripWithoutMetrics()
    {
        QFETCH(QString, format);
        TrialBuilder builder(QStringLiteral("no metrics"));
        const EventId e = builder.addEvent(QStringLiteral("main"));
        const ThreadIndex t = builder.addThread({ 0, 0, 0 });
        builder.addThread({ 1, 0, 0 });
        builder.addInterval(t, e, 4.0, 2.0, {}, {});
        QVERIFY(roundTrip(*builder.build(), format));
    }

    void roundTripAlgebraResults_data() { roundTripAwkward_data(); }
    void roundTripAlgebraResults()
    {
        // A difference and a mean carry negative values, explicit deviations and presence markers
        // (in groups and metadata): they come back the same, markers included.
        QFETCH(QString, format);
        const auto a = mustLoad(dataPath(QStringLiteral("tau2/ppk/ring-2rank.ppk")));
        const auto b = mustLoad(dataPath(QStringLiteral("tau2/ppk/ring-8rank.ppk")));
        QVERIFY(a && b);
        const AlgebraResult diff = parallax::difference(*a, *b);
        QVERIFY2(diff, qPrintable(diff.error()));
        const AlgebraResult average = mean({ a, b });
        QVERIFY2(average, qPrintable(average.error()));
        bool explicitDeviation = false;
        for (std::size_t t = 0; t < diff.trial()->threadCount(); ++t)
            explicitDeviation = explicitDeviation || !diff.trial()->atomicRow(ThreadIndex(t)).stdDev.empty();
        QVERIFY(explicitDeviation);
        for (const auto& result : { diff.trial(), average.trial() }) {
            const auto again = roundTrip(*result, format);
            QVERIFY(again);
            const auto before = Presence::of(*result);
            const auto after = Presence::of(*again);
            QCOMPARE(after->operandCount(), std::size_t(2));
            QCOMPARE(after->exceptionCount(), before->exceptionCount());
            for (std::size_t e = 0; e < result->eventCount(); ++e)
                QCOMPARE(after->eventMask(EventId(e)), before->eventMask(EventId(e)));
            for (std::size_t t = 0; t < result->threadCount(); ++t) {
                QCOMPARE(after->threadMask(ThreadIndex(t)), before->threadMask(ThreadIndex(t)));
                const RowView row = result->row(ThreadIndex(t));
                for (std::size_t i = 0; i < row.size(); ++i)
                    QCOMPARE(
                        after->cellMaskAt(*again, ThreadIndex(t), i), before->cellMaskAt(*result, ThreadIndex(t), i));
            }
        }
    }

    void sniffing()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-openmp-2thread")));
        QVERIFY(trial);
        const QString csv = m_dir.filePath(QStringLiteral("sniff.csv"));
        const QString json = m_dir.filePath(QStringLiteral("sniff.json"));
        QCOMPARE(CsvWriter::write(*trial, csv), QString());
        QCOMPARE(JsonWriter::write(*trial, json), QString());
        QCOMPARE(ReaderRegistry::instance().detect(csv)->name(), QStringLiteral("csv"));
        QCOMPARE(ReaderRegistry::instance().detect(json)->name(), QStringLiteral("json"));
        // Our CSV is recognised by its header, whatever the file is called.
        const QString renamed = m_dir.filePath(QStringLiteral("sniff.txt"));
        QVERIFY(QFile::copy(csv, renamed));
        QCOMPARE(CsvReader().sniff(renamed), 100);
        // Other JSON formats are left to their readers.
        const JsonReader reader;
        for (const char* other : { "hatchet/json/hatchet-graph-literal.json",
                 "hatchet/caliper-cpi-json/cpi-callpath-profile.json", "hatchet/timemory/wall.tree.json",
                 "hatchet/pyinstrument-hatchet-json/pyinstrument-hatchet-profile.json" })
            QCOMPARE(reader.sniff(dataPath(QString::fromLatin1(other))), 0);
        QCOMPARE(reader.sniff(csv), 0);
        QCOMPARE(CsvReader().sniff(json), 0);
    }

    void plainCsv()
    {
        // What a user writes by hand: some columns, any order and case, spaces after commas.
        const QString path = m_dir.filePath(QStringLiteral("plain.csv"));
        writeText(path,
            "Rank, Event, Exclusive, Inclusive, Calls, Metric, Groups\n"
            "0, main, 1.5, 10, 1, TIME, TAU_USER\n"
            "0, \"solve, inner\", 8.5, 8.5, 100, TIME, TAU_USER|MPI\n"
            "1, main, 2, 11, 1, TIME,\n"
            "1, main, 2000, 22000, 1, PAPI_TOT_CYC,\n"
            "\n"
            "1, \"main => solve, inner\", 9, 9, 100, TIME,\n");
        const auto result = readAs(path, {});
        QVERIFY2(result.ok(), why(result).constData());
        const Trial& t = *result.value();
        QCOMPARE(t.threadCount(), std::size_t(2));
        QCOMPARE(t.metricCount(), std::size_t(2));
        QCOMPARE(t.metric(MetricId(0u)).unit, QStringLiteral("us"));
        QCOMPARE(t.metric(MetricId(1u)).unit, QString());
        QCOMPARE(exclOf(t, 0, QStringLiteral("main")), 1.5);
        QCOMPARE(inclOf(t, 1, QStringLiteral("main"), 1), 22000.0);
        QCOMPARE(exclOf(t, 1, QStringLiteral("main => solve, inner")), 9.0);
        QVERIFY(t.eventInGroup(t.findEvent(QStringLiteral("solve, inner")), QStringLiteral("MPI")));
        QCOMPARE(
            t.event(t.findEvent(QStringLiteral("main => solve, inner"))).parent, t.findEvent(QStringLiteral("main")));
        // Absent cell: thread 1 never ran "solve, inner".
        QVERIFY(t.row(ThreadIndex(1u)).find(t.findEvent(QStringLiteral("solve, inner"))) < 0);
        QCOMPARE(t.provenance().reader, QStringLiteral("csv"));
        QCOMPARE(t.name(), QStringLiteral("plain.csv"));

        // Only an event and one value: everything else defaults.
        const QString minimal = m_dir.filePath(QStringLiteral("minimal.csv"));
        writeText(minimal, "event,exclusive\r\nmain,3\r\nf,-2.5e-3\r\n");
        const auto m = readAs(minimal, {});
        QVERIFY2(m.ok(), why(m).constData());
        QCOMPARE(inclOf(*m.value(), 0, QStringLiteral("f")), -2.5e-3);
        QCOMPARE(m.value()->metric(MetricId(0u)).name, QStringLiteral("TIME"));
    }

    void hatchetCsv()
    {
        const QString path = dataPath(QStringLiteral("hatchet/hpctoolkit-cpi-graphframe.csv"));
        QVERIFY(CsvReader().sniff(path) > 0);
        const auto result = readAs(path, QStringLiteral("csv"));
        QVERIFY2(result.ok(), why(result).constData());
        const Trial& t = *result.value();
        QCOMPARE(t.threadCount(), std::size_t(4));
        QCOMPARE(t.eventCount(), std::size_t(34));
        QCOMPARE(t.cellCount(), std::size_t(136));
        double sum = 0;
        for (std::size_t i = 0; i < t.threadCount(); ++i)
            for (std::size_t k = 0; k < t.row(ThreadIndex(i)).size(); ++k)
                sum += t.row(ThreadIndex(i)).exclusive(0, k);
        QCOMPARE(sum, 3998242.0);
        const double roots[] = { 999238, 999390, 1000306, 999308 };
        for (int rank = 0; rank < 4; ++rank)
            QCOMPARE(inclOf(t, rank, QStringLiteral("<program root>")), roots[rank]);
        QVERIFY(t.findEvent(QStringLiteral("<unknown procedure>")).isValid() == false);
    }

    void badCsv_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("line");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QByteArray() << qint64(1) << QStringLiteral("empty");
        QTest::newRow("no event column") << QByteArray("node,value\n0,1\n") << qint64(1) << QStringLiteral("'event'");
        QTest::newRow("column count") << QByteArray("event,exclusive\nmain,1\nf,2,3\n") << qint64(3)
                                      << QStringLiteral("expected 2 fields");
        QTest::newRow("bad number") << QByteArray("event,exclusive\nmain,1\n\"multi\nline\",1\nf,1.2.3\n") << qint64(5)
                                    << QStringLiteral("column 'exclusive': expected a number, found '1.2.3'");
        QTest::newRow("bad node") << QByteArray("node,event,exclusive\nx,main,1\n") << qint64(2)
                                  << QStringLiteral("column 'node': expected a whole number");
        QTest::newRow("unterminated quote")
            << QByteArray("event,exclusive\nmain,1\n\"f,2\n") << qint64(3) << QStringLiteral("not closed");
        QTest::newRow("text after quote")
            << QByteArray("event,exclusive\n\"f\"x,2\n") << qint64(2) << QStringLiteral("after the closing quote");
        QTest::newRow("twice") << QByteArray("event,exclusive\nmain,1\nmain,2\n") << qint64(3)
                               << QStringLiteral("given twice");
        QTest::newRow("calls differ") << QByteArray("event,metric,exclusive,calls\nmain,A,1,1\nmain,B,1,2\n")
                                      << qint64(3) << QStringLiteral("calls");
        QTest::newRow("no value") << QByteArray("event,metric,exclusive\nmain,A,\n") << qint64(2)
                                  << QStringLiteral("expected an exclusive or an inclusive value");
        QTest::newRow("unknown kind") << QByteArray(
            "kind,node,context,thread,event\ninterval,0,0,0,main\nbogus,0,0,0,x\n")
                                      << qint64(3) << QStringLiteral("unknown kind 'bogus'");
        QTest::newRow("newer format") << QByteArray(
            "kind,node,context,thread,event,name,value\ntrial,,,,,format,parallax-csv 2\n")
                                      << qint64(2) << QStringLiteral("parallax-csv 1");
        QTest::newRow("orphan snapshot row")
            << QByteArray("kind,node,context,thread,event,metric,exclusive\nsnapshot-interval,0,0,0,main,TIME,1\n")
            << qint64(2) << QStringLiteral("must follow a snapshot row");
    }
    void badCsv()
    {
        QFETCH(QByteArray, text);
        QFETCH(qint64, line);
        QFETCH(QString, message);
        const QString path = m_dir.filePath(QStringLiteral("bad.csv"));
        QFile::remove(path);
        writeText(path, text);
        const auto result = readAs(path, QStringLiteral("csv"));
        QVERIFY(!result.ok());
        QCOMPARE(result.error().file, path);
        QVERIFY2(result.error().message.contains(message), qPrintable(result.error().toString()));
        QCOMPARE(result.error().line, line);
    }

    void truncatedFiles_data() { roundTripAwkward_data(); }
    void truncatedFiles()
    {
        // Every prefix of a written file either reads (a CSV cut at a line end) or says where it
        // stopped; none crashes.
        QFETCH(QString, format);
        const Format f = formatNamed(format);
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/ppk/ring-2rank.ppk")));
        QVERIFY(trial);
        const QString full = m_dir.filePath(QStringLiteral("full") + f.suffix);
        QCOMPARE(f.write(*trial, full), QString());
        const QByteArray bytes = fileBytes(full);
        const QString cut = m_dir.filePath(QStringLiteral("cut") + f.suffix);
        int errors = 0;
        for (qsizetype n = 0; n < bytes.size(); n += std::max<qsizetype>(1, bytes.size() / 300)) {
            QFile::remove(cut);
            writeText(cut, bytes.left(n));
            const auto result = readAs(cut, f.reader);
            if (result.ok())
                continue;
            ++errors;
            QVERIFY(!result.error().message.isEmpty());
            if (format == QLatin1String("json") && n > 0) {
                QVERIFY2(
                    result.error().line > 0 && result.error().byteOffset >= 0, qPrintable(result.error().toString()));
                QVERIFY2(
                    result.error().message.startsWith(QLatin1String("column ")), qPrintable(result.error().toString()));
            }
        }
        QVERIFY(errors > 0);
    }

    void badJson_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("line");
        QTest::addColumn<QString>("message");
        const QByteArray head = "{\"format\": \"parallax-trial\",\n\"version\": 1,\n";
        QTest::newRow("not an object") << QByteArray("[1]") << qint64(1) << QStringLiteral("expected '{'");
        QTest::newRow("other format") << QByteArray("{\"format\": \"caliper\"}") << qint64(1)
                                      << QStringLiteral("expected \"parallax-trial\"");
        QTest::newRow("newer version") << QByteArray("{\"format\": \"parallax-trial\",\n\"version\": 2}") << qint64(2)
                                       << QStringLiteral("version 2");
        QTest::newRow("out of order") << head
                + "\"metrics\": [{\"name\": \"TIME\"}],\n\"threads\": [{\"node\": 0}],\n"
                  "\"events\": [{\"name\": \"main\"}]}"
                                      << qint64(5) << QStringLiteral("out of order");
        QTest::newRow("wrong length") << head
                + "\"metrics\": [{\"name\": \"TIME\"}],\n\"events\": [{\"name\": \"main\"}],\n"
                  "\"threads\": [{\"node\": 0}, {\"node\": 1}],\n\"intervals\": [{\"event\": 0,\n \"calls\": [1]}]}"
                                      << qint64(7) << QStringLiteral("\"calls\" has 1 values; expected 2");
        QTest::newRow("bad value") << head
                + "\"metrics\": [{\"name\": \"TIME\"}],\n\"events\": [{\"name\": \"main\"}],\n"
                  "\"threads\": [{\"node\": 0}],\n\"intervals\": [{\"event\": 0,\n \"calls\": [1e]}]}"
                                   << qint64(7) << QStringLiteral("'1e' is not a number");
        QTest::newRow("bad string value") << head
                + "\"metrics\": [{\"name\": \"TIME\"}],\n\"events\": [{\"name\": \"main\"}],\n"
                  "\"threads\": [{\"node\": 0}],\n\"intervals\": [{\"event\": 0,\n \"calls\": [\"nan\"]}]}"
                                          << qint64(7) << QStringLiteral("\"NaN\"");
        QTest::newRow("event index") << head
                + "\"events\": [{\"name\": \"main\"}],\n\"threads\": [{\"node\": 0}],\n"
                  "\"intervals\": [{\"event\": 1}]}"
                                     << qint64(5) << QStringLiteral("an event index");
        QTest::newRow("half a cell") << head
                + "\"metrics\": [{\"name\": \"TIME\"}],\n\"events\": [{\"name\": \"main\"}],\n"
                  "\"threads\": [{\"node\": 0}],\n\"intervals\": [{\"event\": 0, \"calls\": [1], \"subroutines\": "
                  "[null],"
                  " \"exclusive\": [[1]], \"inclusive\": [[1]]}]}"
                                     << qint64(6) << QStringLiteral("\"subroutines\" is not");
        QTest::newRow("duplicate thread")
            << head + "\"threads\": [{\"node\": 0},\n {\"node\": 0}]}" << qint64(4) << QStringLiteral("twice");
        QTest::newRow("trailing garbage")
            << head + "\"name\": \"x\"} x" << qint64(3) << QStringLiteral("end of the file");
        QTest::newRow("raw control") << head + "\"name\": \"a\tb\"}" << qint64(3)
                                     << QStringLiteral("control character");
        QTest::newRow("unknown key") << head + "\"nmae\": \"x\"}" << qint64(3) << QStringLiteral("unknown key");
    }
    void badJson()
    {
        QFETCH(QByteArray, text);
        QFETCH(qint64, line);
        QFETCH(QString, message);
        const QString path = m_dir.filePath(QStringLiteral("bad.json"));
        QFile::remove(path);
        writeText(path, text);
        const auto result = readAs(path, QStringLiteral("json"));
        QVERIFY(!result.ok());
        QVERIFY2(result.error().message.contains(message), qPrintable(result.error().toString()));
        QCOMPARE(result.error().line, line);
        QVERIFY(result.error().byteOffset >= 0);
        QVERIFY2(result.error().toString().startsWith(
                     path + QLatin1Char(':') + QString::number(line) + QStringLiteral(": column ")),
            qPrintable(result.error().toString()));
    }

    void jsonEscapesAndNonFinite()
    {
        // A hand-written document: escapes, surrogate pairs, a lone surrogate, non-finite strings,
        // a sparse thread list.
        const QString path = m_dir.filePath(QStringLiteral("hand.json"));
        writeText(path,
            "{\"format\":\"parallax-trial\",\"version\":1,\"name\":\"a\\u00e9\\ud83d\\ude00\\ud800\\/\\\"\","
            "\"metrics\":[{\"name\":\"TIME\",\"units\":\"us\"}],\"events\":[{\"name\":\"main\"},{\"name\":\"f\"}],"
            "\"threads\":[{\"node\":0},{\"node\":1,\"thread\":2}],"
            "\"intervals\":[{\"event\":1,\"threads\":[1],\"calls\":[2],\"subroutines\":[0],"
            "\"exclusive\":[[\"-Infinity\"]],\"inclusive\":[[\"NaN\"]]}]}");
        const auto result = readAs(path, {});
        QVERIFY2(result.ok(), why(result).constData());
        const Trial& t = *result.value();
        QString expected = QString::fromUtf8("aé😀");
        expected += QChar(char16_t(0xD800));
        expected += QStringLiteral("/\"");
        QCOMPARE(t.name(), expected);
        const ThreadIndex one = t.findThread({ 1, 0, 2 });
        QVERIFY(one.isValid());
        QCOMPARE(t.row(one).size(), std::size_t(1));
        QCOMPARE(t.row(one).exclusive(0, 0), -Inf);
        QVERIFY(std::isnan(t.row(one).inclusive(0, 0)));
        QCOMPARE(t.row(t.findThread({ 0, 0, 0 })).size(), std::size_t(0));
        // The lone surrogate survives a JSON round trip.
        QVERIFY(roundTrip(t, QStringLiteral("json")));
    }

private:
    /// Writes with `format`, reads back with the registry's choice, compares everything; then writes
    /// the trial read back and checks the bytes are the same. Returns the trial read back.
    std::shared_ptr<Trial> roundTrip(const Trial& original, const QString& format)
    {
        const Format f = formatNamed(format);
        const QString first = m_dir.filePath(QStringLiteral("first%1%2").arg(++m_count).arg(f.suffix));
        const QString second = m_dir.filePath(QStringLiteral("second%1%2").arg(m_count).arg(f.suffix));
        const QString error = f.write(original, first);
        if (!error.isEmpty()) {
            qWarning("%s", qPrintable(error));
            return nullptr;
        }
        auto read = readAs(first, {});
        if (!read.ok()) {
            qWarning("%s", qPrintable(read.error().toString()));
            return nullptr;
        }
        if (read.value()->provenance().reader != (original.isDerived() ? original.provenance().reader : f.reader)) {
            qWarning("read by %s", qPrintable(read.value()->provenance().reader));
            return nullptr;
        }
        const QString difference = trialDifference(original, *read.value());
        if (!difference.isEmpty()) {
            qWarning("%s differs after the round trip: %s", qPrintable(format), qPrintable(difference));
            return nullptr;
        }
        if (!f.write(*read.value(), second).isEmpty() || fileBytes(first) != fileBytes(second)) {
            qWarning("write -> read -> write gave other bytes");
            return nullptr;
        }
        return read.value();
    }

    QTemporaryDir m_dir;
    int m_count = 0;
};

QTEST_GUILESS_MAIN(TestCsvJson)
#include "tst_csvjson.moc"
