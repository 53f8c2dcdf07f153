// parallax-cli pprof against output derived by hand and the facts of FORMATS.md 2.2.
#include "app/cli/pprofreport.h"
#include "tests/common/testutil.h"

using namespace parallax;
using namespace parallax::test;

namespace {

QStringList lines(const std::string& text)
{
    return QString::fromStdString(text).split(QLatin1Char('\n'));
}

QStringList expectedLines(const QString& file)
{
    QFile f(QStringLiteral(PARALLAX_SOURCE_DIR "/tests/data/pprof/") + file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
}

void compareLineByLine(const QStringList& actual, const QStringList& expected)
{
    QVERIFY(!expected.isEmpty());
    for (qsizetype i = 0; i < std::min(actual.size(), expected.size()); ++i)
        QVERIFY2(actual[i] == expected[i],
            qPrintable(QStringLiteral("line %1:\n  got      [%2]\n  expected [%3]").arg(i + 1).arg(actual[i], expected[i])));
    QCOMPARE(actual.size(), expected.size());
}

} // namespace

class TestPprof : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void handDerivedProfile2()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("cubelib/test/test28/profile2")));
        QVERIFY(trial);
        compareLineByLine(lines(pprofReport(*trial, {})), expectedLines(QStringLiteral("test28-profile2.txt")));
        PprofOptions s;
        s.summaryOnly = true;
        compareLineByLine(lines(pprofReport(*trial, s)), expectedLines(QStringLiteral("test28-profile2-s.txt")));
    }

    void cpiExcerpt()
    {
        // FORMATS.md 2.2, hatchet/tau-cpi-mpi node 0.
        const auto trial = mustLoad(dataPath(QStringLiteral("hatchet/tau-cpi-mpi")));
        QVERIFY(trial);
        const QStringList out = lines(pprofReport(*trial, {}));
        const QStringList expected = {
            QStringLiteral("NODE 0;CONTEXT 0;THREAD 0:"),
            QStringLiteral("---------------------------------------------------------------------------------------"),
            QStringLiteral("%Time    Exclusive    Inclusive       #Call      #Subrs  Inclusive Name"),
            QStringLiteral("              msec   total msec                          usec/call "),
            QStringLiteral("---------------------------------------------------------------------------------------"),
            QStringLiteral("100.0        0.449           51           1           7      51781 .TAU application"),
            QStringLiteral(" 62.4            4           32           1           4      32304 .TAU application => MPI_Finalize() "),
            // FORMATS.md's excerpt leaves this tie out; pprof prints it (byte order after the call path).
            QStringLiteral(" 62.4            4           32           1           4      32304 MPI_Finalize() "),
            QStringLiteral(" 53.1           27           27           1           0      27490 .TAU application => MPI_Finalize() => MPI_File_open()"),
        };
        QCOMPARE(out.mid(2, expected.size()), expected);
        // Four thread tables with user events, then total and mean summaries; no user-event summary.
        QCOMPARE(out.count(QStringLiteral("USER EVENTS Profile :NODE 3, CONTEXT 0, THREAD 0")), 1);
        QVERIFY(out.contains(QStringLiteral("         1          4          4          4          0  Message size for broadcast")));
        const auto total = out.indexOf(QStringLiteral("FUNCTION SUMMARY (total):"));
        const auto mean = out.indexOf(QStringLiteral("FUNCTION SUMMARY (mean):"));
        QVERIFY(total > 0 && mean > total);
        // Total row of the root: excl 1706 µs -> "1" msec (truncated), incl D = 214047 µs -> "214",
        // 4 calls, 28 subrs, 214047/4 = 53511.75 -> 53512 per call.
        QCOMPARE(out[total + 5], QStringLiteral("100.0            1          214           4          28      53512 .TAU application"));
        // Mean: everything divided by the 4 files: excl 426.5 µs -> %9.3G of 0.4265 ms.
        QCOMPARE(out[mean + 5], QStringLiteral("100.0        0.426           53           1           7      53512 .TAU application"));
    }

    void timeFormatting()
    {
        QCOMPARE(pprofTimeString(449, false), std::string("       0.449"));
        QCOMPARE(pprofTimeString(24.3, false), std::string("      0.0243"));
        QCOMPARE(pprofTimeString(4458, false), std::string("           4"));
        QCOMPARE(pprofTimeString(51781, false), std::string("          51"));
        QCOMPARE(pprofTimeString(20007991, false), std::string("      20,007"));
        QCOMPARE(pprofTimeString(75500000, false), std::string("    1:15.500"));
        QCOMPARE(pprofTimeString(3600e6 + 61.5e6, false), std::string(" 1:01:01.500"));
        QCOMPARE(pprofTimeString(-5, false), std::string("      -0.005"));
        // -p: plain msec with 0/1/2/3 decimals.
        QCOMPARE(pprofTimeString(123456, true), std::string("         123"));
        QCOMPARE(pprofTimeString(12345, true), std::string("        12.3"));
        QCOMPARE(pprofTimeString(1234, true), std::string("        1.23"));
        QCOMPARE(pprofTimeString(123, true), std::string("       0.123"));
    }

    void counterFormat()
    {
        // "BGP Timers" is not a TIME metric for pprof: %10.4G counts, "Count/Call" header.
        const auto trial = mustLoad(dataPath(QStringLiteral("cubelib/test/test28/profile1")));
        QVERIFY(trial);
        const QStringList out = lines(pprofReport(*trial, {}));
        QCOMPARE(out[4], QStringLiteral("%Time   Exclusive   Inclusive       #Call      #Subrs Count/Call Name"));
        QCOMPARE(out[7], QStringLiteral("100.0   1.886E+05   3.115E+09           1          22 3115316613 S3D "));
        QVERIFY(out.contains(QStringLiteral(" 20.3   4.783E+08   6.327E+08    1.35E+06     2.8E+06        469 RATX_I ")));
        // -a keeps the source locations.
        PprofOptions a;
        a.showLocations = true;
        QVERIFY(lines(pprofReport(*trial, a)).contains(
            QStringLiteral("100.0   1.886E+05   3.115E+09           1          22 3115316613 S3D [{main.pp.f90} {4,3}-{130,17}]")));
    }

    void sortOptionsAndTopN()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("cubelib/test/test28/profile2")));
        QVERIFY(trial);
        auto names = [&](const PprofOptions& o) {
            QStringList result;
            const QStringList out = lines(pprofReport(*trial, o));
            for (qsizetype i = 7; i < out.size() && !out[i].isEmpty(); ++i)
                result << out[i].mid(67);
            return result;
        };
        PprofOptions m;
        m.sort = PprofOptions::Sort::Exclusive;
        QCOMPARE(names(m).first(), QStringLiteral("f3() (sleeps 3 sec)")); // 6002109 exclusive
        QCOMPARE(names(m).last(), QStringLiteral("main() (calls f1, f5)")); // 98
        PprofOptions c;
        c.sort = PprofOptions::Sort::Calls;
        QCOMPARE(names(c).mid(0, 2), (QStringList { QStringLiteral("f2() (sleeps 2 sec, calls f3)"), QStringLiteral("f3() (sleeps 3 sec)") }));
        PprofOptions r;
        r.reverse = true;
        QCOMPARE(names(r).first(), QStringLiteral("main() (calls f1, f5) => f1() (sleeps 1 sec, calls f2, f4) => f2() (sleeps 2 sec, calls f3) => f3() (sleeps 3 sec)"));
        QCOMPARE(names(r).last(), QStringLiteral("main() (calls f1, f5)"));
        PprofOptions n;
        n.max = 3;
        const QStringList top = names(n);
        QCOMPARE(top.size(), 4);
        QCOMPARE(top.last(), QStringLiteral("-others-"));
        const QStringList out = lines(pprofReport(*trial, n));
        // Others: the 10 remaining rows: excl 38012700 µs, incl 60021124 µs (1 min 0.021 s), 12 calls,
        // 6 subrs, 5001760 µs per call; %Time 300.0 exceeds 100.
        QCOMPARE(out[10], QStringLiteral("300.0       38,012     1:00.021          12           6    5001760 -others-"));
        PprofOptions b;
        b.sort = PprofOptions::Sort::Subroutines;
        QCOMPARE(names(b).size(), 13);
        PprofOptions e;
        e.sort = PprofOptions::Sort::ExclusivePerCall;
        QCOMPARE(names(e).first(), QStringLiteral("f5() (sleeps 5 sec)"));
        PprofOptions i;
        i.sort = PprofOptions::Sort::InclusivePerCall;
        QCOMPARE(names(i).first(), QStringLiteral("main() (calls f1, f5)"));
    }

    void listNames()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")));
        QVERIFY(trial);
        PprofOptions l;
        l.list = true;
        const QStringList out = lines(pprofReport(*trial, l));
        QCOMPARE(out.first(), QStringLiteral("Reading Profile files in profile.*"));
        // Byte order; locations dropped, so the three parameter timers keep distinct names.
        QVERIFY(out.contains(QStringLiteral("int __wrap_dgemm(int) C [ <size> = <100> ] ")));
        QVERIFY(out.contains(QStringLiteral("MPI_Init() ")));
        QStringList sorted = out.mid(1, out.size() - 2);
        QStringList copy = sorted;
        std::sort(copy.begin(), copy.end(), [](const QString& a, const QString& b) { return a.toUtf8() < b.toUtf8(); });
        QCOMPARE(sorted, copy);
    }

    void userEventsLikePprof()
    {
        // pprof prints every user event of the files it read on each thread that has user
        // events: zeros where the thread has none, and its default max DBL_MIN (2.225E-308)
        // where all samples are <= 0 ("ADIOS total size" 101 0 0 0 0 on every rank).
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")));
        QVERIFY(trial);
        const QStringList out = lines(pprofReport(*trial, {}));
        const auto first = out.indexOf(QStringLiteral("USER EVENTS Profile :NODE 0, CONTEXT 0, THREAD 0"));
        const auto second = out.indexOf(QStringLiteral("USER EVENTS Profile :NODE 1, CONTEXT 0, THREAD 0"));
        QVERIFY(first > 0 && second > first);
        const QStringList node0 = out.mid(first, second - first);
        QVERIFY(node0.contains(QStringLiteral("       101 2.225E-308          0          0          0  ADIOS total size")));
        QVERIFY(node0.contains(QStringLiteral("         0          0          0          0          0  [GROUP=MAX_MARKER] ADIOS data size")));
        // Rank 1's "Message size for broadcast" 64 4096 4 72.875 16808256: sd 507.3.
        QVERIFY(out.contains(QStringLiteral("        64       4096          4      72.88      507.3  Message size for broadcast")));
        // All user-event tables list the same events (the union over the files).
        QCOMPARE(out.count(QStringLiteral("       101 2.225E-308          0          0          0  ADIOS total size")), 8);
    }

    void nodeSelection()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        PprofOptions o;
        o.nodes = { 2 };
        const QStringList out = lines(pprofReport(*trial, o));
        QVERIFY(out.contains(QStringLiteral("NODE 2;CONTEXT 0;THREAD 0:")));
        QVERIFY(!out.contains(QStringLiteral("NODE 0;CONTEXT 0;THREAD 0:")));
        QVERIFY(!out.contains(QStringLiteral("FUNCTION SUMMARY (total):"))); // one file read
    }
};

QTEST_GUILESS_MAIN(TestPprof)
#include "tst_pprof.moc"
