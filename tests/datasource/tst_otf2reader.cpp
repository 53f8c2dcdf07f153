// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The OTF2 reader against the facts of ../shared/data/otf2/*/MANIFEST.md (pipit's ping-pong traces,
// fastotf2's sample, the OTF2 integrity-test trace), against an oracle that recomputes inclusive and
// exclusive time from the ENTER/LEAVE lines of `otf2-print`, and the window rule of
// docs/SEMANTICS.md 1.10 (whole trace = no window, adjacent windows add up, a window inside one region).
#include "datasource/readers/otf2reader.h"
#include "datasource/readers/readerregistry.h"
#include "tests/common/readertest.h"
#include "tests/common/testutil.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <map>

using namespace parallax;
using namespace parallax::test;

namespace {

QString pingPong() { return dataPath(QStringLiteral("otf2/pipit/ping-pong-otf2")); }
QString pingPongPapi() { return dataPath(QStringLiteral("otf2/pipit/ping-pong-otf2-papi")); }
QString fastOtf2() { return dataPath(QStringLiteral("otf2/fastotf2/simple-mi300-example-run")); }
QString integrity() { return dataPath(QStringLiteral("otf2/otf2-integrity-test/OTF2_Integrity_trace_1")); }

std::shared_ptr<Trial> readWindow(const QString& path, const QStringList& window = {})
{
    ReadOptions options;
    options.formatOptions = window;
    return mustReadWith(Otf2Reader(), path, options);
}

double metadata(const Trial& t, const QString& key) { return t.metadataValue(key).toDouble(); }

/// Ticks (at the trace's timer resolution) as the reader's microseconds.
double us(const Trial& t, double ticks)
{
    return ticks * 1e6 / metadata(t, QStringLiteral("OTF2 timer resolution (ticks/s)"));
}

/// Per location (in order of id) and region name: {inclusive ticks, exclusive ticks, visits}, computed
/// from otf2-print's ENTER/LEAVE lines with a stack of our own (recursion counted once in inclusive).
struct OracleCell {
    double incl = 0;
    double excl = 0;
    double visits = 0;
    /// Counters (METRIC lines' values, accumulated from the start): value at the leave minus value
    /// at the enter, and that minus the children's.
    std::map<QString, double> counterIncl;
    std::map<QString, double> counterExcl;
};
std::map<quint64, std::map<QString, OracleCell>> oracle(const QString& anchor)
{
    QProcess p;
    p.start(QStringLiteral(PARALLAX_OTF2_PRINT), { anchor });
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return {};
    struct Open {
        QString region;
        quint64 enter;
        quint64 children;
        std::map<QString, double> counterEnter;
        std::map<QString, double> counterChildren;
    };
    std::map<quint64, std::vector<Open>> stacks;
    std::map<quint64, std::map<QString, double>> counters; // per location: the latest METRIC values
    std::map<quint64, std::map<QString, OracleCell>> out;
    static const QRegularExpression line(
        QStringLiteral(R"re(^(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "(.*)" <\d+>)re"));
    static const QRegularExpression metric(
        QStringLiteral("^METRIC\\s+(\\d+)\\s+\\d+\\s+Metric: \\d+, \\d+ Values: (.*)"));
    // ("PAPI_TOT_CYC" <0>; UINT64; 98850)
    static const QRegularExpression value(QStringLiteral("\\(\"([^\"]*)\" <\\d+>; UINT64; (\\d+)\\)"));
    for (const QByteArray& raw : p.readAllStandardOutput().split('\n')) {
        const QString text = QString::fromUtf8(raw);
        if (const auto mm = metric.match(text); mm.hasMatch()) {
            for (auto it = value.globalMatch(mm.captured(2)); it.hasNext();) {
                const auto v = it.next();
                counters[mm.captured(1).toULongLong()][v.captured(1)] = v.captured(2).toDouble();
            }
            continue;
        }
        const auto m = line.match(text);
        if (!m.hasMatch())
            continue;
        const quint64 loc = m.captured(2).toULongLong();
        const quint64 t = m.captured(3).toULongLong();
        auto& stack = stacks[loc];
        if (m.captured(1) == QLatin1String("ENTER")) {
            stack.push_back({ m.captured(4), t, 0, counters[loc], {} });
            ++out[loc][m.captured(4)].visits;
            continue;
        }
        const Open o = stack.back();
        stack.pop_back();
        const double incl = static_cast<double>(t - o.enter);
        OracleCell& c = out[loc][o.region];
        c.excl += incl - static_cast<double>(o.children);
        const bool outermost
            = std::none_of(stack.begin(), stack.end(), [&](const Open& x) { return x.region == o.region; });
        if (outermost)
            c.incl += incl;
        for (const auto& [name, now] : counters[loc]) {
            const double counted = now - o.counterEnter.at(name);
            const auto children = o.counterChildren.find(name);
            c.counterExcl[name] += counted - (children == o.counterChildren.end() ? 0.0 : children->second);
            if (outermost)
                c.counterIncl[name] += counted;
            if (!stack.empty())
                stack.back().counterChildren[name] += counted;
        }
        if (!stack.empty())
            stack.back().children += t - o.enter;
    }
    return out;
}

/// The flat events (not call paths) of a trial.
QStringList flatEvents(const Trial& t)
{
    QStringList names;
    for (const IntervalEvent& e : t.events())
        if (!e.name.contains(QLatin1String(" => ")))
            names << e.name;
    return names;
}

/// The thread of each location, in order of location id (as the reader numbers them).
ThreadIndex threadOfLocation(const Trial& t, quint64 location)
{
    for (std::size_t i = 0; i < t.threadCount(); ++i)
        if (t.metadataValue(QStringLiteral("OTF2 location id"), ThreadIndex(static_cast<quint32>(i))).toULongLong()
            == location)
            return ThreadIndex(static_cast<quint32>(i));
    return {};
}

} // namespace

class TestOtf2Reader : public QObject {
    Q_OBJECT
private slots:
    void detection()
    {
        const ReaderRegistry& registry = ReaderRegistry::instance();
        QCOMPARE(registry.detect(pingPong())->name(), QStringLiteral("otf2"));
        QCOMPARE(registry.detect(pingPong() + QStringLiteral("/traces.otf2"))->name(), QStringLiteral("otf2"));
        QCOMPARE(Otf2Reader().sniff(pingPong() + QStringLiteral("/traces.def")), 0);
    }

    void pingPongManifest()
    {
        const auto t = readWindow(pingPong());
        QVERIFY(t);
        QCOMPARE(t->threadCount(), std::size_t(2));
        QCOMPARE(metadata(*t, QStringLiteral("OTF2 events")), 120.0);
        QCOMPARE(t->metadataValue(QStringLiteral("OTF2 creator")), QStringLiteral("Score-P 7.1"));
        QCOMPARE(metadata(*t, QStringLiteral("OTF2 timer resolution (ticks/s)")), 2095197216.0);
        // MANIFEST: inclusive / exclusive ticks per rank.
        const struct {
            const char* region;
            double incl[2];
            double excl[2];
            double visits;
        } facts[] = {
            { "int main(int, char**)", { 417443455, 418089722 }, { 4995746, 6245348 }, 1 },
            { "MPI_Init", { 404995511, 405637613 }, { 404995511, 405637613 }, 1 },
            { "MPI_Send", { 3709060, 3607517 }, { 3709060, 3607517 }, 8 },
            { "MPI_Recv", { 3614228, 2499468 }, { 3614228, 2499468 }, 8 },
            { "MPI_Finalize", { 123344, 94508 }, { 123344, 94508 }, 1 },
            { "MPI_Comm_size", { 3178, 3034 }, { 3178, 3034 }, 1 },
            { "MPI_Comm_rank", { 2388, 2234 }, { 2388, 2234 }, 1 },
        };
        for (int rank = 0; rank < 2; ++rank) {
            const ThreadIndex ti = t->findThread(ThreadKey { rank, 0, 0 });
            QVERIFY(ti.isValid());
            for (const auto& f : facts) {
                const QString region = QString::fromLatin1(f.region);
                QVERIFY2(near(fieldOf(*t, ti, region, Field::Incl), us(*t, f.incl[rank])), f.region);
                QVERIFY2(near(fieldOf(*t, ti, region, Field::Excl), us(*t, f.excl[rank])), f.region);
                QCOMPARE(fieldOf(*t, ti, region, Field::Calls), f.visits);
            }
            QCOMPARE(fieldOf(*t, ti, QStringLiteral("int main(int, char**)"), Field::Subrs), 20.0);
            QVERIFY(near(fieldOf(*t, ti, QStringLiteral("int main(int, char**) => MPI_Send"), Field::Excl),
                us(*t, rank == 0 ? 3709060 : 3607517)));
            // 8 messages, 4,177,920 bytes per direction.
            const int peer = 1 - rank;
            for (const QString& name : { QStringLiteral("Message size sent to node %1").arg(peer),
                     QStringLiteral("Message size received from node %1").arg(peer) }) {
                const AtomicEventId e = t->findAtomicEvent(name);
                QVERIFY2(e.isValid(), qPrintable(name));
                const AtomicRow& row = t->atomicRow(ti);
                const auto i = row.find(e);
                QVERIFY(i >= 0);
                QCOMPARE(row.count[std::size_t(i)], 8.0);
                QCOMPARE(row.count[std::size_t(i)] * row.mean[std::size_t(i)], 4177920.0);
                QCOMPARE(row.min[std::size_t(i)] <= 16384.0 && row.max[std::size_t(i)] >= 16384.0, true);
            }
        }
        QVERIFY(t->warnings().isEmpty());
    }

    void papiVariant()
    {
        const auto t = readWindow(pingPongPapi());
        QVERIFY(t);
        QCOMPARE(metadata(*t, QStringLiteral("OTF2 events")), 204.0);
        QVERIFY(near(inclOf(*t, 0, QStringLiteral("int main(int, char**)")), us(*t, 451476474)));
        QVERIFY(near(inclOf(*t, 1, QStringLiteral("int main(int, char**)")), us(*t, 451335198)));
        // The three PAPI counters become metrics (SEMANTICS 1.10): main's inclusive count is the last
        // record of each location minus the one at main's enter (MANIFEST: the first record of
        // location 0 is TOT_CYC 98,850, the last of location 1 is 60,301,260).
        QCOMPARE(t->metrics().size(), std::size_t(4));
        QCOMPARE(t->metric(MetricId(1u)).name, QStringLiteral("PAPI_TOT_CYC"));
        QCOMPARE(t->metric(MetricId(1u)).unit, QStringLiteral("count"));
        QVERIFY(t->warnings().isEmpty());
        const ThreadIndex rank1 = threadOfLocation(*t, 1);
        QCOMPARE(fieldOf(*t, rank1, QStringLiteral("int main(int, char**)"), Field::Incl, 1), 60301260.0 - 139945.0);
    }

    void fastOtf2Sample()
    {
        const auto t = readWindow(fastOtf2());
        QVERIFY(t);
        QCOMPARE(t->threadCount(), std::size_t(32));
        QCOMPARE(metadata(*t, QStringLiteral("OTF2 events")), 72670.0);
        const ThreadIndex master = threadOfLocation(*t, 0);
        QVERIFY(master.isValid());
        QVERIFY(near(fieldOf(*t, master, QStringLiteral("hipEventSynchronize"), Field::Excl), us(*t, 23545715641.0)));
        QCOMPARE(fieldOf(*t, master, QStringLiteral("hipEventSynchronize"), Field::Calls), 2.0);
        // Location ids beyond 32 bits survive.
        QVERIFY(threadOfLocation(*t, quint64(31) << 32).isValid());
    }

    void integrityTrace()
    {
        const auto t = readWindow(integrity());
        QVERIFY(t);
        QCOMPARE(t->threadCount(), std::size_t(4));
        QCOMPARE(metadata(*t, QStringLiteral("OTF2 events")), 480000.0);
        QVERIFY(hasWarning(*t, QStringLiteral("no clock properties")));
        QVERIFY(hasWarning(*t, QStringLiteral("not defined")));
        for (quint64 loc : { 0, 1, 4, 9 })
            QVERIFY(threadOfLocation(*t, loc).isValid());
    }

    void oracle_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::newRow("ping-pong") << pingPong() + QStringLiteral("/traces.otf2");
        QTest::newRow("papi") << pingPongPapi() + QStringLiteral("/traces.otf2");
        QTest::newRow("fastotf2") << fastOtf2() + QStringLiteral("/traces.otf2");
        QTest::newRow("integrity") << integrity() + QStringLiteral("/TestTrace.otf2");
    }
    void oracle()
    {
        QFETCH(QString, trace);
        const auto expected = ::oracle(trace);
        QVERIFY(!expected.empty());
        const auto t = readWindow(trace);
        QVERIFY(t);
        std::size_t compared = 0;
        std::size_t countersCompared = 0;
        for (const auto& [loc, regions] : expected) {
            const ThreadIndex ti = threadOfLocation(*t, loc);
            QVERIFY(ti.isValid());
            for (const auto& [region, c] : regions) {
                QVERIFY2(near(fieldOf(*t, ti, region, Field::Incl), us(*t, c.incl)), qPrintable(region));
                QVERIFY2(near(fieldOf(*t, ti, region, Field::Excl), us(*t, c.excl)), qPrintable(region));
                QCOMPARE(fieldOf(*t, ti, region, Field::Calls), c.visits);
                // The PAPI counters, exactly (they are whole numbers).
                for (const auto& [name, counted] : c.counterIncl) {
                    const MetricId m = t->findMetric(name);
                    QVERIFY2(m.isValid(), qPrintable(name));
                    QCOMPARE(fieldOf(*t, ti, region, Field::Incl, m.index()), counted);
                    QCOMPARE(fieldOf(*t, ti, region, Field::Excl, m.index()), c.counterExcl.at(name));
                    ++countersCompared;
                }
                ++compared;
            }
        }
        QVERIFY(compared >= 4);
        // Only the PAPI trace has counters (3 of them on each of 2 locations' 7 regions).
        QCOMPARE(countersCompared, std::size_t(t->metricCount() > 1 ? 42 : 0));
    }

    void windowWholeEqualsNone()
    {
        const auto all = readWindow(pingPong());
        const auto whole = readWindow(pingPong(), { QStringLiteral("from=0"), QStringLiteral("to=1000") });
        QVERIFY(all && whole);
        compareEvents(*all, *whole);
        for (std::size_t i = 0; i < all->threadCount(); ++i)
            for (const QString& e : flatEvents(*all))
                for (Field f : { Field::Excl, Field::Incl, Field::Calls, Field::Subrs })
                    QCOMPARE(fieldOf(*whole, ThreadIndex(static_cast<quint32>(i)), e, f),
                        fieldOf(*all, ThreadIndex(static_cast<quint32>(i)), e, f));
    }

    void adjacentWindowsAddUp_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<QString>("cut");
        QTest::newRow("ping-pong seconds") << pingPong() << QStringLiteral("0.1995");
        QTest::newRow("ping-pong ticks") << pingPong() << QStringLiteral("300000000ticks");
        QTest::newRow("integrity ticks") << integrity() << QStringLiteral("100001ticks");
        QTest::newRow("papi seconds") << pingPongPapi() << QStringLiteral("0.1995");
    }
    void adjacentWindowsAddUp()
    {
        QFETCH(QString, trace);
        QFETCH(QString, cut);
        const auto all = readWindow(trace);
        const auto a = readWindow(trace, { QStringLiteral("to=") + cut });
        const auto b = readWindow(trace, { QStringLiteral("from=") + cut });
        QVERIFY(all && a && b);
        auto value = [](const Trial& t, ThreadIndex ti, const QString& e, Field f, std::size_t m = 0) {
            const double v = fieldOf(t, ti, e, f, m);
            return v == Absent ? 0.0 : v;
        };
        bool split = false;
        for (std::size_t i = 0; i < all->threadCount(); ++i) {
            const ThreadIndex ti(i);
            for (const IntervalEvent& ev : all->events()) {
                const double whole = value(*all, ti, ev.name, Field::Excl);
                const double left = value(*a, ti, ev.name, Field::Excl);
                const double right = value(*b, ti, ev.name, Field::Excl);
                QVERIFY2(near(left + right, whole, 1e-12), qPrintable(ev.name));
                QCOMPARE(value(*a, ti, ev.name, Field::Calls) + value(*b, ti, ev.name, Field::Calls),
                    value(*all, ti, ev.name, Field::Calls));
                split = split || (left > 0 && right > 0);
                // Counters too: a region open at the cut counts up to the last record before it on the
                // left and from there on the right (SEMANTICS 1.10), so the two add up exactly.
                for (std::size_t m = 1; m < all->metricCount(); ++m)
                    for (Field f : { Field::Excl, Field::Incl })
                        QCOMPARE(value(*a, ti, ev.name, f, m) + value(*b, ti, ev.name, f, m),
                            value(*all, ti, ev.name, f, m));
            }
        }
        QVERIFY(split); // the cut falls inside at least one region
    }

    void windowInsideOneRegion()
    {
        // MPI_Init runs from about 0.0000 s to 0.193 s on both ranks; a window of 0.05 s inside it.
        const auto t = readWindow(pingPong(), { QStringLiteral("from=0.1"), QStringLiteral("to=0.15") });
        QVERIFY(t);
        const double length = std::llround(0.15 * 2095197216.0) - std::llround(0.1 * 2095197216.0);
        for (int rank = 0; rank < 2; ++rank) {
            QVERIFY(near(exclOf(*t, rank, QStringLiteral("MPI_Init")), us(*t, length)));
            QVERIFY(near(inclOf(*t, rank, QStringLiteral("int main(int, char**)")), us(*t, length)));
            QCOMPARE(exclOf(*t, rank, QStringLiteral("int main(int, char**)")), 0.0);
            // Entered before the window: no calls counted.
            QCOMPARE(
                fieldOf(*t, t->findThread(ThreadKey { rank, 0, 0 }), QStringLiteral("MPI_Init"), Field::Calls), 0.0);
        }
        QVERIFY(!t->findAtomicEvent(QStringLiteral("Message size sent to node 1")).isValid());
    }

    void badInput()
    {
        QTemporaryDir dir;
        const QString fake = dir.filePath(QStringLiteral("fake.otf2"));
        writeFile(fake,
            QByteArray("\x03"
                       "BOTF2 this is not an anchor file",
                33));
        const TrialResult r = readWith(Otf2Reader(), fake);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().file, fake);
        QVERIFY2(r.error().message.contains(QLatin1String("OTF2")), qPrintable(r.error().message));

        const TrialResult empty = readWith(Otf2Reader(), dir.path() + QStringLiteral("/none"));
        QVERIFY(!empty.ok());
        QVERIFY(empty.error().message.contains(QLatin1String("anchor")));

        ReadOptions bad;
        bad.formatOptions = { QStringLiteral("from=soon") };
        const TrialResult option = readWith(Otf2Reader(), pingPong(), bad);
        QVERIFY(!option.ok());
        QVERIFY(option.error().message.contains(QLatin1String("from=soon")));

        bad.formatOptions = { QStringLiteral("from=0.2"), QStringLiteral("to=0.1") };
        QVERIFY(!readWith(Otf2Reader(), pingPong(), bad).ok());
    }
};

// Debian's libotf2 3.0.2 leaks the archive it began to open when OTF2_Reader_Open fails on a file
// that is no anchor (badInput): it returns NULL, so there is nothing to close. Without frame
// pointers in the library, LeakSanitizer (the asan-core run) sees only its module.
extern "C" const char*
__lsan_default_suppressions() // NOLINT(bugprone-reserved-identifier,readability-identifier-naming): LSan hook
{
    return "leak:libopen-trace-format2.so\n";
}

QTEST_GUILESS_MAIN(TestOtf2Reader)
#include "tst_otf2reader.moc"
