// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// parallax-cli pprof against the output of TAU's current pprof (tests/data/pprof/tau, see its
// README for the tau2 commit), output derived by hand, and the facts of docs/FORMATS.md 2.2.
#include "app/cli/pprofreport.h"
#include "tests/common/testutil.h"

#include <QTemporaryDir>

using namespace parallax;
using namespace parallax::test;

namespace {

QStringList lines(const std::string& text) { return QString::fromStdString(text).split(QLatin1Char('\n')); }

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
            qPrintable(
                QStringLiteral("line %1:\n  got      [%2]\n  expected [%3]").arg(i + 1).arg(actual[i], expected[i])));
    QCOMPARE(actual.size(), expected.size());
}

/// The options of a pprof command line as TAU's getopt("acbdf:lmeivn:prstx") reads them; the
/// words after the options are node numbers. Only what the stored cases use.
PprofOptions optionsFromArgs(const QString& args)
{
    PprofOptions o;
    const QStringList words = args.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    qsizetype i = 0;
    for (; i < words.size() && words[i].startsWith(QLatin1Char('-')); ++i) {
        const QString& w = words[i];
        for (qsizetype k = 1; k < w.size(); ++k) {
            switch (w[k].toLatin1()) {
            case 'a':
                o.showLocations = true;
                break;
            case 'c':
                o.sort = PprofOptions::Sort::Calls;
                break;
            case 'b':
                o.sort = PprofOptions::Sort::Subroutines;
                break;
            case 'm':
                o.sort = PprofOptions::Sort::Exclusive;
                break;
            case 't':
                o.sort = PprofOptions::Sort::Inclusive;
                break;
            case 'e':
                o.sort = PprofOptions::Sort::ExclusivePerCall;
                break;
            case 'i':
                o.sort = PprofOptions::Sort::InclusivePerCall;
                break;
            case 'v':
                o.sort = PprofOptions::Sort::StdDev;
                break;
            case 'r':
                o.reverse = true;
                break;
            case 's':
                o.summaryOnly = true;
                break;
            case 'p':
                o.plainMsec = true;
                break;
            case 'l':
                o.list = true;
                break;
            case 'x':
                o.minMax = true;
                break;
            case 'n':
                o.max = k + 1 < w.size() ? w.mid(k + 1).toInt() : words[++i].toInt();
                k = w.size();
                break;
            default:
                qFatal("unexpected pprof option in cases.txt: %s", qPrintable(w));
            }
        }
    }
    for (; i < words.size(); ++i)
        o.nodes.push_back(words[i].toInt());
    return o;
}

} // namespace

class TestPprof : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sameAsTauPprof_data()
    {
        // tests/data/pprof/tau/cases.txt: sample directory|pprof options|file with TAU's output.
        QTest::addColumn<QString>("dir");
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("expected");
        QFile cases(QStringLiteral(PARALLAX_SOURCE_DIR "/tests/data/pprof/tau/cases.txt"));
        QVERIFY(cases.open(QIODevice::ReadOnly));
        int n = 0;
        for (const QByteArray& line : cases.readAll().split('\n')) {
            const QList<QByteArray> fields = line.split('|');
            if (fields.size() != 3)
                continue;
            const QString dir = QString::fromUtf8(fields[0]);
            const QString args = QString::fromUtf8(fields[1]);
            QTest::newRow(qPrintable(dir + QStringLiteral(" [") + args + QLatin1Char(']')))
                << dir << args << QString::fromUtf8(fields[2]);
            ++n;
        }
        QVERIFY(n >= 18);
    }

    void sameAsTauPprof()
    {
        QFETCH(QString, dir);
        QFETCH(QString, args);
        QFETCH(QString, expected);
        const auto trial = mustLoad(dataPath(dir));
        QVERIFY(trial);
        QString error;
        const std::string out = pprofReport(*trial, optionsFromArgs(args), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        compareLineByLine(lines(out), expectedLines(QStringLiteral("tau/") + expected));
        // Byte for byte, the last newline included.
        QFile f(QStringLiteral(PARALLAX_SOURCE_DIR "/tests/data/pprof/tau/") + expected);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QByteArray::fromStdString(out), f.readAll());
    }

    void missingFirstNodeFailsLikePprof()
    {
        // pprof opens profile.N.0.0 of the first node number given; without it (node 3 of a
        // single-thread directory) it prints its first line and fails. Later missing nodes are
        // skipped silently.
        const auto trial = mustLoad(dataPath(QStringLiteral("cubelib/test/test28/profile2")));
        QVERIFY(trial);
        QString error;
        PprofOptions o;
        o.nodes = { 3, 0 };
        QCOMPARE(pprofReport(*trial, o, &error), std::string("Reading Profile files in profile.*\n"));
        QVERIFY2(error.contains(QStringLiteral("profile.3.0.0")), qPrintable(error));
        o.nodes = { 0, 3 };
        error.clear();
        PprofOptions plain;
        QCOMPARE(pprofReport(*trial, o, &error), pprofReport(*trial, plain));
        QVERIFY(error.isEmpty());
    }

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
        // docs/FORMATS.md 2.2, hatchet/tau-cpi-mpi node 0.
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
            QStringLiteral(" 62.4            4           32           1           4      32304 .TAU application => "
                           "MPI_Finalize() "),
            // docs/FORMATS.md's excerpt leaves this tie out; pprof prints it (byte order after the call path).
            QStringLiteral(" 62.4            4           32           1           4      32304 MPI_Finalize() "),
            QStringLiteral(" 53.1           27           27           1           0      27490 .TAU application => "
                           "MPI_Finalize() => MPI_File_open()"),
        };
        QCOMPARE(out.mid(2, expected.size()), expected);
        // Four thread tables with user events, then total and mean summaries; no user-event summary.
        QCOMPARE(out.count(QStringLiteral("USER EVENTS Profile :NODE 3, CONTEXT 0, THREAD 0")), 1);
        QVERIFY(out.contains(
            QStringLiteral("         1          4          4          4          0  Message size for broadcast")));
        const auto total = out.indexOf(QStringLiteral("FUNCTION SUMMARY (total):"));
        const auto mean = out.indexOf(QStringLiteral("FUNCTION SUMMARY (mean):"));
        QVERIFY(total > 0 && mean > total);
        // Total row of the root: excl 1706 µs -> "1" msec (truncated), incl D = 214047 µs -> "214",
        // 4 calls, 28 subrs, 214047/4 = 53511.75 -> 53512 per call.
        QCOMPARE(out[total + 5],
            QStringLiteral("100.0            1          214           4          28      53512 .TAU application"));
        // Mean: everything divided by the 4 files: excl 426.5 µs -> %9.3G of 0.4265 ms.
        QCOMPARE(out[mean + 5],
            QStringLiteral("100.0        0.426           53           1           7      53512 .TAU application"));
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
        QVERIFY(
            out.contains(QStringLiteral(" 20.3   4.783E+08   6.327E+08    1.35E+06     2.8E+06        469 RATX_I ")));
        // -a keeps the source locations.
        PprofOptions a;
        a.showLocations = true;
        QVERIFY(lines(pprofReport(*trial, a))
                    .contains(QStringLiteral("100.0   1.886E+05   3.115E+09           1          22 3115316613 S3D "
                                             "[{main.pp.f90} {4,3}-{130,17}]")));
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
        QCOMPARE(names(c).mid(0, 2),
            (QStringList { QStringLiteral("f2() (sleeps 2 sec, calls f3)"), QStringLiteral("f3() (sleeps 3 sec)") }));
        PprofOptions r;
        r.reverse = true;
        QCOMPARE(names(r).first(),
            QStringLiteral("main() (calls f1, f5) => f1() (sleeps 1 sec, calls f2, f4) => f2() (sleeps 2 sec, calls "
                           "f3) => f3() (sleeps 3 sec)"));
        QCOMPARE(names(r).last(), QStringLiteral("main() (calls f1, f5)"));
        PprofOptions n;
        n.max = 3;
        const QStringList top = names(n);
        QCOMPARE(top.size(), 4);
        QCOMPARE(top.last(), QStringLiteral("-others-"));
        const QStringList out = lines(pprofReport(*trial, n));
        // Others: the 10 remaining rows: excl 38012700 µs, incl 60021124 µs (1 min 0.021 s), 12 calls,
        // 6 subrs, 5001760 µs per call; %Time 300.0 exceeds 100.
        QCOMPARE(
            out[10], QStringLiteral("300.0       38,012     1:00.021          12           6    5001760 -others-"));
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
        // Current pprof starts a user event's maximum at -DBL_MAX, so "ADIOS total size" (101
        // samples, all 0, on every rank) prints max 0, and it skips in a thread's table the user
        // events without samples on that thread (rank 0's "[GROUP=MAX_MARKER] ADIOS data size").
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")));
        QVERIFY(trial);
        const QStringList out = lines(pprofReport(*trial, {}));
        const auto first = out.indexOf(QStringLiteral("USER EVENTS Profile :NODE 0, CONTEXT 0, THREAD 0"));
        const auto second = out.indexOf(QStringLiteral("USER EVENTS Profile :NODE 1, CONTEXT 0, THREAD 0"));
        QVERIFY(first > 0 && second > first);
        const QStringList node0 = out.mid(first, second - first);
        QVERIFY(
            node0.contains(QStringLiteral("       101          0          0          0          0  ADIOS total size")));
        for (const QString& line : node0)
            QVERIFY2(!line.startsWith(QStringLiteral("         0 "))
                    && !line.endsWith(QStringLiteral("[GROUP=MAX_MARKER] ADIOS data size")),
                qPrintable(line));
        // ... which other ranks do record.
        QCOMPARE(
            out.filter(QRegularExpression(QStringLiteral("^ +[1-9][0-9]* .*  \\[GROUP=MAX_MARKER\\] ADIOS data size$")))
                .size(),
            4); // ranks 2 to 5
        QCOMPARE(out.filter(QStringLiteral("E-308")).size(), 0);
        // Rank 1's "Message size for broadcast" 64 4096 4 72.875 16808256: sd 507.3.
        QVERIFY(out.contains(
            QStringLiteral("        64       4096          4      72.88      507.3  Message size for broadcast")));
        QCOMPARE(
            out.count(QStringLiteral("       101          0          0          0          0  ADIOS total size")), 8);
    }

    void userEventExtremesLikeTauMacros()
    {
        // An event whose samples are all negative keeps its true maximum (not DBL_MIN, not 0),
        // an event with zero samples has no row, and a thread with user-event records but no
        // samples still prints the (empty) table.
        QTemporaryDir dir;
        const QByteArray header
            = "# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>Metric Name</name>"
              "<value>TIME</value></attribute></metadata>\n";
        writeText(dir.filePath(QStringLiteral("profile.0.0.0")),
            QByteArrayLiteral("1 templated_functions_MULTI_TIME\n") + header
                + "\"main\" 1 0 10 10 0 GROUP=\"TAU_DEFAULT\"\n0 aggregates\n3 userevents\n"
                  "# eventname numevents max min mean sumsqr\n"
                  "\"neg\" 2 -1 -3 -2 10\n\"none\" 0 0 0 0 0\n\"pos\" 1 5 5 5 25\n");
        writeText(dir.filePath(QStringLiteral("profile.1.0.0")),
            QByteArrayLiteral("1 templated_functions_MULTI_TIME\n") + header
                + "\"main\" 1 0 20 20 0 GROUP=\"TAU_DEFAULT\"\n0 aggregates\n1 userevents\n"
                  "# eventname numevents max min mean sumsqr\n\"none\" 0 0 0 0 0\n");
        const auto trial = mustLoad(dir.path());
        QVERIFY(trial);
        const QStringList out = lines(pprofReport(*trial, {}));
        const QString dashes
            = QStringLiteral("---------------------------------------------------------------------------------------");
        const QString head = QStringLiteral("NumSamples   MaxValue   MinValue  MeanValue  Std. Dev.  Event Name");
        auto table = [&](int node) {
            const auto at = out.indexOf(QStringLiteral("USER EVENTS Profile :NODE %1, CONTEXT 0, THREAD 0").arg(node));
            return at < 0 ? QStringList() : out.mid(at, 6);
        };
        QCOMPARE(table(0),
            (QStringList { QStringLiteral("USER EVENTS Profile :NODE 0, CONTEXT 0, THREAD 0"), dashes, head, dashes,
                QStringLiteral("         2         -1         -3         -2          1  neg"),
                QStringLiteral("         1          5          5          5          0  pos") }));
        QCOMPARE(table(1).mid(0, 5),
            (QStringList {
                QStringLiteral("USER EVENTS Profile :NODE 1, CONTEXT 0, THREAD 0"), dashes, head, dashes, dashes }));
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
