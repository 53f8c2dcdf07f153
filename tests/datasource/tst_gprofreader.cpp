// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The gprof text reader against the facts in ../shared/data/gprof2dot/MANIFEST.md,
// ../shared/data/tau2/MANIFEST.md (gprof-wrf) and docs/FORMATS.md 6.1, plus hand-made and damaged inputs.
#include "datasource/readers/gprofreader.h"
#include "tests/common/readertest.h"
#include "tests/common/testutil.h"

#include <QTemporaryDir>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

QString prof(const char* name) { return dataPath(QStringLiteral("gprof2dot/prof/") + QLatin1String(name)); }
QString wrf() { return dataPath(QStringLiteral("tau2/gprof-wrf/gprof.out")); }

ReadOptions withFormatOptions(const QStringList& formatOptions)
{
    ReadOptions options;
    options.formatOptions = formatOptions;
    return options;
}

TrialResult readGprof(const QString& path, const QStringList& formatOptions = {})
{
    return readWith(GprofReader(), path, withFormatOptions(formatOptions));
}

std::shared_ptr<Trial> mustRead(const QString& path, const QStringList& formatOptions = {})
{
    return mustReadWith(GprofReader(), path, withFormatOptions(formatOptions));
}

double value(const Trial& t, const QString& event, Field field, int node = 0)
{
    return fieldOf(t, t.findThread({ node, 0, 0 }), event, field);
}

double excl(const Trial& t, const char* e, int node = 0) { return value(t, QString::fromUtf8(e), Field::Excl, node); }
double incl(const Trial& t, const char* e, int node = 0) { return value(t, QString::fromUtf8(e), Field::Incl, node); }
double calls(const Trial& t, const char* e, int node = 0) { return value(t, QString::fromUtf8(e), Field::Calls, node); }
double subrs(const Trial& t, const char* e, int node = 0) { return value(t, QString::fromUtf8(e), Field::Subrs, node); }

/// Equal within 1e-6 of |b| (at least 1).
bool nearly(double a, double b) { return std::fabs(a - b) <= 1e-6 * std::max(1.0, std::fabs(b)); }

double sumFlatExclusive(const Trial& t, int node = 0)
{
    const ThreadIndex ti = t.findThread({ node, 0, 0 });
    const RowView row = t.row(ti);
    double sum = 0;
    for (std::size_t i = 0; i < row.size(); ++i)
        if (!t.event(row.events[i]).isCallPath())
            sum += row.exclusive(0, i);
    return sum;
}

} // namespace

class TestGprofReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void detection()
    {
        const auto& registry = ReaderRegistry::instance();
        for (const QString& path :
            { prof("val3_gprof.prof"), prof("gnu2.prof"), prof("cycle.prof"), prof("zeros.prof"), wrf() }) {
            const Reader* r = registry.detect(path);
            QVERIFY2(r && r->name() == QLatin1String("gprof"), qPrintable(path));
        }
        QCOMPARE(GprofReader().sniff(prof("val3_gprof.prof")), 100);
        QCOMPARE(GprofReader().sniff(prof("cycle.prof")), 95);
        QCOMPARE(GprofReader().sniff(dataPath(QStringLiteral("hatchet/tau-cpi-mpi/profile.0.0.0"))), 0);
        QCOMPARE(GprofReader().sniff(dataPath(QStringLiteral("hatchet/gprof2dot-cpi/callgrind.dot.64042.0.1"))), 0);
    }

    void val3()
    {
        const auto t = mustRead(prof("val3_gprof.prof"));
        QVERIFY(t);
        QVERIFY2(t->warnings().isEmpty(), qPrintable(t->warnings().join(QLatin1Char('\n'))));
        QCOMPARE(t->threadCount(), std::size_t(1));
        QCOMPARE(t->threadKey(ThreadIndex(0u)), (ThreadKey { 0, 0, 0 }));
        QCOMPARE(t->metricCount(), std::size_t(1));
        QCOMPARE(t->metric(MetricId(0u)).name, QStringLiteral("TIME"));
        QCOMPARE(t->metric(MetricId(0u)).unit, QStringLiteral("us"));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof sample period")), QStringLiteral("0.01 seconds"));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof flat profile per-call unit")), QStringLiteral("s/call"));
        // Flat profile: cycfn2 67.63 % 3.50 s 2 calls; cycfn1 33.13 % 1.71 s 2 calls; total 5.21 s.
        QCOMPARE(excl(*t, "cycfn2"), 3500000.0);
        QCOMPARE(calls(*t, "cycfn2"), 2.0);
        QCOMPARE(excl(*t, "cycfn1"), 1710000.0);
        QCOMPARE(calls(*t, "cycfn1"), 2.0);
        QVERIFY(nearly(sumFlatExclusive(*t), 5210000.0));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof flat profile total seconds")), QStringLiteral("5.21"));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof flat profile rows")), QStringLiteral("2"));
        // The percentages are gprof's from unrounded times: within 0.5 % of self / total.
        QVERIFY(std::fabs(100.0 * 3.50 / 5.21 - 67.63) < 0.5);
        QVERIFY(std::fabs(100.0 * excl(*t, "cycfn1") / sumFlatExclusive(*t) - 33.13) < 0.5);
        // Call graph: <cycle 1 as a whole> [1] 100 % self 5.21 called 1+3, members cycfn2 [3], cycfn1 [4].
        QCOMPARE(t->metadataValue(QStringLiteral("gprof call graph total seconds")), QStringLiteral("5.21"));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof call graph entries")), QStringLiteral("4"));
        QCOMPARE(excl(*t, "<cycle 1 as a whole>"), 0.0);
        QCOMPARE(incl(*t, "<cycle 1 as a whole>"), 5210000.0);
        QCOMPARE(calls(*t, "<cycle 1 as a whole>"), 4.0);
        QCOMPARE(t->metadataValue(QStringLiteral("gprof cycle 1")), QStringLiteral("cycfn2, cycfn1"));
        QVERIFY(t->eventInGroup(t->findEvent(QStringLiteral("cycfn2")), QStringLiteral("GPROF_CYCLE")));
        QVERIFY(t->eventInGroup(t->findEvent(QStringLiteral("<cycle 1 as a whole>")), QStringLiteral("GPROF_CYCLE")));
        QVERIFY(!t->eventInGroup(t->findEvent(QStringLiteral("main")), QStringLiteral("GPROF_CYCLE")));
        // main [2] <spontaneous>, 100 %, children 5.21.
        QCOMPARE(t->metadataValue(QStringLiteral("gprof spontaneous")), QStringLiteral("main"));
        QCOMPARE(excl(*t, "main"), 0.0);
        QCOMPARE(incl(*t, "main"), 5210000.0);
        QCOMPARE(subrs(*t, "main"), 1.0);
        // Arcs: main -> cycfn2 (5.21 s, 1/1), and the calls inside the cycle.
        QCOMPARE(countEvents(*t, false), std::size_t(4));
        QCOMPARE(countEvents(*t, true), std::size_t(3));
        QCOMPARE(incl(*t, "main => cycfn2"), 5210000.0);
        QCOMPARE(excl(*t, "main => cycfn2"), 5210000.0);
        QCOMPARE(calls(*t, "main => cycfn2"), 1.0);
        QCOMPARE(calls(*t, "cycfn2 => cycfn1"), 2.0);
        QCOMPARE(calls(*t, "cycfn1 => cycfn2"), 1.0);
        QCOMPARE(incl(*t, "cycfn1 => cycfn2"), 0.0);
        QVERIFY(t->eventInGroup(t->findEvent(QStringLiteral("main => cycfn2")), QStringLiteral("TAU_CALLPATH")));
        // Call paths link to their flat events.
        const IntervalEvent& arc = t->event(t->findEvent(QStringLiteral("main => cycfn2")));
        QCOMPARE(arc.parent, t->findEvent(QStringLiteral("main")));
        QCOMPARE(arc.leaf, t->findEvent(QStringLiteral("cycfn2")));
        QCOMPARE(subrs(*t, "cycfn2"), 2.0);
        QCOMPARE(incl(*t, "cycfn2"), 3500000.0);
    }

    void gnu2()
    {
        const auto t = mustRead(prof("gnu2.prof"));
        QVERIFY(t);
        QVERIFY2(t->warnings().isEmpty(), qPrintable(t->warnings().join(QLatin1Char('\n'))));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof flat profile rows")), QStringLiteral("90"));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof call graph entries")), QStringLiteral("92"));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof flat profile total seconds")), QStringLiteral("1.93"));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof call graph total seconds")), QStringLiteral("1.29"));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof flat profile per-call unit")), QStringLiteral("ms/call"));
        // Σ self over the 90 rows is the last cumulative time, up to gprof's rounding.
        QVERIFY(std::fabs(sumFlatExclusive(*t) - 1930000.0) <= 10000.0);
        // Top: write 34.20 % 0.66 s 131073 calls, then __mcount_internal 0.50 s (no calls), mcount,
        // vfprintf 0.11 s 292411 calls.
        QCOMPARE(excl(*t, "write"), 660000.0);
        QCOMPARE(calls(*t, "write"), 131073.0);
        QCOMPARE(excl(*t, "__mcount_internal"), 500000.0);
        QCOMPARE(calls(*t, "__mcount_internal"), 0.0);
        QCOMPARE(incl(*t, "__mcount_internal"), 500000.0); // flat only: incl = excl
        QCOMPARE(excl(*t, "mcount"), 140000.0);
        QCOMPARE(excl(*t, "vfprintf"), 110000.0);
        QCOMPARE(calls(*t, "vfprintf"), 292411.0);
        double top = 0;
        QString topName;
        const RowView row = t->row(ThreadIndex(0u));
        for (std::size_t i = 0; i < row.size(); ++i)
            if (!t->event(row.events[i]).isCallPath() && row.exclusive(0, i) > top) {
                top = row.exclusive(0, i);
                topName = t->event(row.events[i]).name;
            }
        QCOMPARE(topName, QStringLiteral("write"));
        QVERIFY(std::fabs(100.0 * 0.66 / 1.93 - 34.20) < 0.5);
        // fparse [1] 100 %: 0.01 self + 1.28 children, called 1/1 from main [2].
        QCOMPARE(excl(*t, "fparse"), 10000.0);
        QCOMPARE(incl(*t, "fparse"), 1290000.0);
        QCOMPARE(calls(*t, "fparse"), 1.0);
        QCOMPARE(excl(*t, "main => fparse"), 10000.0);
        QCOMPARE(incl(*t, "main => fparse"), 1290000.0);
        QCOMPARE(calls(*t, "main => fparse"), 1.0);
        // fparse's children: 30288 + 30289 + 1 + 1 calls.
        QCOMPARE(subrs(*t, "fparse"), 60579.0);
        // Several <spontaneous> entries.
        const QStringList spontaneous
            = t->metadataValue(QStringLiteral("gprof spontaneous")).split(QStringLiteral(", "));
        QCOMPARE(spontaneous,
            (QStringList {
                QStringLiteral("__libc_start_main"), QStringLiteral("profil"), QStringLiteral("__syscall_error_1") }));
        // The cycle: <cycle 1 as a whole> [34] 90871+2 with realloc and realloc_hook_ini.
        QCOMPARE(calls(*t, "<cycle 1 as a whole>"), 90873.0);
        QCOMPARE(t->metadataValue(QStringLiteral("gprof cycle 1")), QStringLiteral("realloc, realloc_hook_ini"));
        QCOMPARE(calls(*t, "realloc"), 90872.0);
        QCOMPARE(calls(*t, "realloc => realloc_hook_ini"), 1.0);
        // __gmon_start__ [426] has no entry: an event without a cell, parent of its arc.
        const EventId gmon = t->findEvent(QStringLiteral("__gmon_start__"));
        QVERIFY(gmon.isValid());
        QCOMPARE(row.find(gmon), std::ptrdiff_t(-1));
        QCOMPARE(calls(*t, "__gmon_start__ => atexit"), 1.0);
        QCOMPARE(t->event(t->findEvent(QStringLiteral("__gmon_start__ => atexit"))).parent, gmon);
        // Every arc once, however often it is printed.
        for (const auto& e : t->events())
            if (e.isCallPath())
                QVERIFY2(e.parent.isValid() && e.leaf.isValid(), qPrintable(e.name));
    }

    void gnu2FlatOnly()
    {
        // The flat profile alone (everything before the call graph): 90 events, incl = excl.
        const QByteArray bytes = fileBytes(prof("gnu2.prof"));
        const qsizetype cut = bytes.indexOf("\t\t     Call graph");
        QVERIFY(cut > 0);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("flat.txt"));
        writeText(path, bytes.left(cut));
        const auto t = mustRead(path);
        QVERIFY(t);
        QCOMPARE(countEvents(*t, false), std::size_t(90));
        QCOMPARE(countEvents(*t, true), std::size_t(0));
        QCOMPARE(excl(*t, "dumparray"), 20000.0);
        QCOMPARE(incl(*t, "dumparray"), 20000.0);
        QCOMPARE(calls(*t, "dumparray"), 1.0);
        QCOMPARE(subrs(*t, "dumparray"), 0.0);
        QCOMPARE(t->metadataValue(QStringLiteral("gprof sections")), QStringLiteral("flat profile"));
    }

    void cycleBsd()
    {
        const auto t = mustRead(prof("cycle.prof"));
        QVERIFY(t);
        QVERIFY2(t->warnings().isEmpty(), qPrintable(t->warnings().join(QLatin1Char('\n'))));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof sections")), QStringLiteral("call graph"));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof call graph entries")), QStringLiteral("6"));
        // start [1]: 100 %, 0.00 self, 1.93 children, <spontaneous>.
        QCOMPARE(excl(*t, "start"), 0.0);
        QCOMPARE(incl(*t, "start"), 1930000.0);
        QCOMPARE(calls(*t, "start"), 0.0);
        QCOMPARE(t->metadataValue(QStringLiteral("gprof spontaneous")), QStringLiteral("start"));
        // main [2]: 0.16 self, 1.77 children.
        QCOMPARE(excl(*t, "main"), 160000.0);
        QCOMPARE(incl(*t, "main"), 1930000.0);
        QCOMPARE(incl(*t, "start => main"), 1930000.0);
        // <cycle 1 as a whole> [3]: 91.71 %, 1.77 s, called 1+5; members b [4] and a [5].
        QCOMPARE(incl(*t, "<cycle 1 as a whole>"), 1770000.0);
        QCOMPARE(excl(*t, "<cycle 1 as a whole>"), 0.0);
        QCOMPARE(calls(*t, "<cycle 1 as a whole>"), 6.0);
        QCOMPARE(t->metadataValue(QStringLiteral("gprof cycle 1")), QStringLiteral("b, a"));
        // b <cycle 1> [4]: 52.85 %, 1.02 s, 3 calls; a <cycle 1> [5]: 38.86 %, 0.75 s, 3 calls.
        QCOMPARE(excl(*t, "b"), 1020000.0);
        QCOMPARE(calls(*t, "b"), 3.0);
        QCOMPARE(excl(*t, "a"), 750000.0);
        QCOMPARE(calls(*t, "a"), 3.0);
        QVERIFY(std::fabs(100.0 * 1.02 / 1.93 - 52.85) < 0.01);
        QVERIFY(std::fabs(100.0 * 0.75 / 1.93 - 38.86) < 0.01);
        // c [6]: 0 s, 6 calls: 3/6 from a, 3/6 from b.
        QCOMPARE(excl(*t, "c"), 0.0);
        QCOMPARE(calls(*t, "c"), 6.0);
        QCOMPARE(calls(*t, "a => c"), 3.0);
        QCOMPARE(calls(*t, "b => c"), 3.0);
        QCOMPARE(calls(*t, "b => a"), 2.0);
        QCOMPARE(calls(*t, "a => b"), 3.0);
        QCOMPARE(subrs(*t, "b"), 5.0);
        QCOMPARE(countEvents(*t, false), std::size_t(6));
        QCOMPARE(countEvents(*t, true), std::size_t(6));
        // Σ exclusive = the program's time (the cycle's self is not counted twice).
        QVERIFY(nearly(sumFlatExclusive(*t), 1930000.0));
    }

    void zeros()
    {
        const auto t = mustRead(prof("zeros.prof"));
        QVERIFY(t);
        const RowView row = t->row(ThreadIndex(0u));
        QCOMPARE(row.size(), std::size_t(12));
        for (std::size_t i = 0; i < row.size(); ++i) {
            QCOMPARE(row.exclusive(0, i), 0.0);
            QCOMPARE(row.inclusive(0, i), 0.0);
            QVERIFY(std::isfinite(row.calls[i]));
        }
        QCOMPARE(calls(*t, "b"), 0.0);
        QCOMPARE(calls(*t, "a"), 1.0);
        QCOMPARE(calls(*t, "c"), 6.0);
    }

    void wrfTwoReports()
    {
        const auto t = mustRead(wrf());
        QVERIFY(t);
        QCOMPARE(t->threadCount(), std::size_t(2));
        QVERIFY(t->findThread({ 1, 0, 0 }).isValid());
        QVERIFY(hasWarning(*t, QStringLiteral("2 gprof reports (starting at lines 1, 7621)")));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof reports")), QStringLiteral("2"));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof call graph total seconds")), QStringLiteral("421.15"));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof flat profile total seconds")), QStringLiteral("421.15"));
        for (int node = 0; node < 2; ++node) {
            // Top flat entry: .__module_advect_em_NMOD_advect_scalar_pd, 9.93 %, 41.81 s, 750 calls.
            QCOMPARE(excl(*t, ".__module_advect_em_NMOD_advect_scalar_pd", node), 41810000.0);
            QCOMPARE(calls(*t, ".__module_advect_em_NMOD_advect_scalar_pd", node), 750.0);
            const RowView row = t->row(t->findThread({ node, 0, 0 }));
            double top = 0;
            EventId topEvent;
            for (std::size_t i = 0; i < row.size(); ++i)
                if (!t->event(row.events[i]).isCallPath() && row.exclusive(0, i) > top) {
                    top = row.exclusive(0, i);
                    topEvent = row.events[i];
                }
            QCOMPARE(t->event(topEvent).name, QStringLiteral(".__module_advect_em_NMOD_advect_scalar_pd"));
            QVERIFY(std::fabs(100.0 * 41.81 / 421.15 - 9.93) < 0.01);
            // [1] .wrf, <spontaneous>, 96.6 %, children 406.80 s.
            QCOMPARE(excl(*t, ".wrf", node), 0.0);
            QCOMPARE(incl(*t, ".wrf", node), 406800000.0);
            QVERIFY(std::fabs(100.0 * 406.80 / 421.15 - 96.6) < 0.05);
            QCOMPARE(incl(*t, ".wrf => .__module_wrf_top_NMOD_wrf_run", node), 404530000.0);
        }
        QVERIFY(t->metadataValue(QStringLiteral("gprof spontaneous")).startsWith(QStringLiteral(".wrf")));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof names")), QStringLiteral("as written"));
    }

    void fixNames()
    {
        const auto t = mustRead(wrf(), { QStringLiteral("fixnames") });
        QVERIFY(t);
        QCOMPARE(excl(*t, "__module_advect_em_NMOD_advect_scalar_pd"), 41810000.0);
        QCOMPARE(incl(*t, "wrf"), 406800000.0);
        QVERIFY(t->findEvent(QStringLiteral("solve_em_stub_in_solve_interface")).isValid());
        QVERIFY(t->findEvent(QStringLiteral("solve_interface => solve_em_stub_in_solve_interface")).isValid());
        for (const auto& e : t->events())
            QVERIFY2(
                !e.name.startsWith(QLatin1Char('.')) && !e.name.contains(QLatin1String(" => .")), qPrintable(e.name));
        QVERIFY(t->metadataValue(QStringLiteral("gprof names")).startsWith(QStringLiteral("fixed")));

        // Fortran's trailing '_' goes too; an unknown option is a warning.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fortran.txt"));
        writeText(path,
            "Flat profile:\n\nEach sample counts as 0.01 seconds.\n"
            "  %   cumulative   self              self     total\n"
            " time   seconds   seconds    calls  ms/call  ms/call  name\n"
            " 100.00      0.02     0.02        1    20.00    20.00  compute_\n"
            "  0.00      0.02     0.00        1     0.00    20.00  .main\n\n");
        const auto fixed = mustRead(path, { QStringLiteral("fixnames"), QStringLiteral("bogus") });
        QVERIFY(fixed);
        QCOMPARE(excl(*fixed, "compute"), 20000.0);
        QVERIFY(fixed->findEvent(QStringLiteral("main")).isValid());
        QVERIFY(hasWarning(*fixed, QStringLiteral("'bogus' is not known")));
        const auto plain = mustRead(path);
        QVERIFY(plain);
        QCOMPARE(excl(*plain, "compute_"), 20000.0);
        QVERIFY(plain->findEvent(QStringLiteral(".main")).isValid());
        QVERIFY(plain->warnings().isEmpty());
    }

    void smallFixtures()
    {
        QTemporaryDir dir;
        // Direct recursion "1+5", a C++ name with blanks, CRLF line ends, a brief (-b) report without blurbs.
        const QString path = dir.filePath(QStringLiteral("gmon.txt"));
        writeText(path,
            "Flat profile:\r\n\r\nEach sample counts as 0.01 seconds.\r\n"
            "  %   cumulative   self              self     total\r\n"
            " time   seconds   seconds    calls  us/call  us/call  name\r\n"
            " 75.00      0.03     0.03        6  5000.00  5000.00  fib(int, char const*)\r\n"
            " 25.00      0.04     0.01                             frame_dummy\r\n"
            "\r\n"
            "\t\t     Call graph\r\n\r\n"
            "granularity: each sample hit covers 2 byte(s) for 25.00% of 0.04 seconds\r\n\r\n"
            "index % time    self  children    called     name\r\n"
            "                                   5             fib(int, char const*) [1]\r\n"
            "                0.03    0.00       1/1           main [2]\r\n"
            "[1]     75.0    0.03    0.00       1+5       fib(int, char const*) [1]\r\n"
            "                                   5             fib(int, char const*) [1]\r\n"
            "-----------------------------------------------\r\n"
            "                                                 <spontaneous>\r\n"
            "[2]     75.0    0.00    0.03                 main [2]\r\n"
            "                0.03    0.00       1/1           fib(int, char const*) [1]\r\n"
            "-----------------------------------------------\r\n"
            "\r\n"
            "Index by function name\r\n\r\n   [1] fib(int, char const*)   [2] main\r\n");
        const auto t = mustRead(path);
        QVERIFY(t);
        QVERIFY2(t->warnings().isEmpty(), qPrintable(t->warnings().join(QLatin1Char('\n'))));
        QCOMPARE(calls(*t, "fib(int, char const*)"), 6.0);
        QCOMPARE(subrs(*t, "fib(int, char const*)"), 5.0);
        QCOMPARE(calls(*t, "fib(int, char const*) => fib(int, char const*)"), 5.0);
        QCOMPARE(incl(*t, "main => fib(int, char const*)"), 30000.0);
        QCOMPARE(excl(*t, "frame_dummy"), 10000.0);
        QCOMPARE(t->metadataValue(QStringLiteral("gprof flat profile per-call unit")), QStringLiteral("us/call"));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof call graph total seconds")), QStringLiteral("0.04"));

        // A name holding "=>" cannot split a call path; two rows with one name are summed.
        const QString odd = dir.filePath(QStringLiteral("odd.txt"));
        writeText(odd,
            "Flat profile:\n\nEach sample counts as 0.01 seconds.\n"
            " time   seconds   seconds    calls  ms/call  ms/call  name\n"
            " 50.00      0.01     0.01        1    10.00    10.00  a=>b\n"
            " 25.00      0.02     0.01        2     5.00     5.00  twice\n"
            " 25.00      0.03     0.01        3     3.33     3.33  twice\n");
        const auto o = mustRead(odd);
        QVERIFY(o);
        QCOMPARE(excl(*o, "a= >b"), 10000.0);
        QCOMPARE(excl(*o, "twice"), 20000.0);
        QCOMPARE(calls(*o, "twice"), 5.0);
        QVERIFY(hasWarning(*o, QStringLiteral("contain '=>'")));
        QVERIFY(hasWarning(*o, QStringLiteral("'twice'")));
        for (const auto& e : o->events())
            QVERIFY(!e.isCallPath());
    }

    void bsdOrder()
    {
        // BSD/AIX order: call graph first (three-line header, blank line), then the flat profile with
        // its column header only; one report.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("aix.txt"));
        writeText(path,
            "call graph profile:\n  The sum of self and descendents is the major sort\n\n"
            "ngranularity: Each sample hit covers 4 bytes. Time: 3.76 seconds\n\n"
            "                                  called/total       parents\n"
            "index  %time    self descendents  called+self    name    \tindex\n"
            "                                  called/total       children\n\n"
            "                                                    <spontaneous>\n"
            "[1]     97.6    0.00        3.67                   .__start [1]\n"
            "                0.10        3.57       1/1           .main [2]\n"
            "-----------------------------------------------\n"
            "                0.10        3.57       1/1           .__start [1]\n"
            "[2]     97.6    0.10        3.57       1         .main [2]\n"
            "-----------------------------------------------\n\n"
            "\f\n"
            "granularity: each sample hit covers 4 byte(s) for 0.27% of 3.76 seconds\n\n"
            "  %   cumulative   self              self     total\n"
            " time   seconds   seconds    calls  ms/call  ms/call  name\n"
            " 97.3      3.66     3.66                             .work [3]\n"
            "  2.7      3.76     0.10        1   100.00  3670.00  .main [2]\n\n");
        const auto t = mustRead(path);
        QVERIFY(t);
        QCOMPARE(t->threadCount(), std::size_t(1));
        QVERIFY2(t->warnings().isEmpty(), qPrintable(t->warnings().join(QLatin1Char('\n'))));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof call graph total seconds")), QStringLiteral("3.76"));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof flat profile total seconds")), QStringLiteral("3.76"));
        QCOMPARE(t->metadataValue(QStringLiteral("gprof sections")), QStringLiteral("flat profile, call graph"));
        QCOMPARE(excl(*t, ".main"), 100000.0);
        QCOMPARE(incl(*t, ".main"), 3670000.0);
        QCOMPARE(calls(*t, ".main"), 1.0);
        QCOMPARE(excl(*t, ".work"), 3660000.0);
        QCOMPARE(incl(*t, ".__start => .main"), 3670000.0);
        const auto fixed = mustRead(path, { QStringLiteral("fixnames") });
        QVERIFY(fixed);
        QCOMPARE(incl(*fixed, "__start => main"), 3670000.0);
        QCOMPARE(excl(*fixed, "work"), 3660000.0);
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<qint64>("line");
        QTest::addColumn<QString>("expected");
        const QByteArray val3 = fileBytes(prof("val3_gprof.prof"));
        const QByteArray gnu2 = fileBytes(prof("gnu2.prof"));
        QVERIFY(!val3.isEmpty() && !gnu2.isEmpty());

        // Truncated inside a call-graph line ("0.00    1.2" with no name).
        const qsizetype cut = gnu2.indexOf("                0.00    1.29       1/1           main [2]");
        QTest::newRow("truncated in a line")
            << gnu2.left(cut + 26) << lineOf(gnu2, "0.00    1.29       1/1           main [2]")
            << QStringLiteral("expected a parent or child line");
        // Truncated inside a name: the index is missing.
        const qsizetype cut2 = gnu2.indexOf("parse [4]\n");
        QTest::newRow("truncated in a name") << gnu2.left(cut2 + 7) << lineOf(gnu2, "parse [4]\n")
                                             << QStringLiteral("expected a function name followed by its index");
        // A corrupted number in the flat profile.
        QByteArray corrupt = val3;
        corrupt.replace(" 67.63      3.50     3.50", " 67.63      3.50     3#50");
        QTest::newRow("corrupted flat row") << corrupt << qint64(6) << QStringLiteral("expected a flat-profile row");
        // Bytes of garbage in the call graph.
        QByteArray garbage = val3;
        garbage.replace(
            "                3.50    0.00       2             cycfn2 <cycle 1> [3]", "\x01\x02\xff\xfe garbage");
        QTest::newRow("garbage in the call graph")
            << garbage << lineOf(val3, "                3.50    0.00       2             cycfn2 <cycle 1> [3]")
            << QStringLiteral("expected a function name followed by its index");
        // Wrong structure: an entry without its primary line, and one with two.
        QByteArray noPrimary = val3;
        noPrimary.replace("[2]    100.0    0.00    5.21                 main [2]\n", "");
        QTest::newRow("entry without primary line")
            << noPrimary << lineOf(val3, "                                                 <spontaneous>")
            << QStringLiteral("no primary line");
        QByteArray twoPrimaries = val3;
        twoPrimaries.replace(
            "-----------------------------------------------\n                                   1             cycfn1",
            "                                   1             cycfn1");
        QTest::newRow("two primary lines")
            << twoPrimaries << lineOf(val3, "[3]     67.1") - 1 << QStringLiteral("a second primary line");
        QByteArray spontaneousChild = val3;
        spontaneousChild.replace("                5.21    0.00       1/1           cycfn2 <cycle 1> [3]\n",
            "                                                 <spontaneous>\n");
        QTest::newRow("spontaneous child")
            << spontaneousChild << qint64(48) << QStringLiteral("below the primary line");
        QByteArray overflow = val3;
        const QByteArray huge = QByteArray(" 67.63      3.50     ") + QByteArray(400, '9') + QByteArray(".5");
        overflow.replace(" 67.63      3.50     3.50", huge);
        QTest::newRow("number out of range") << overflow << qint64(6) << QStringLiteral("out of range");
        QTest::newRow("not gprof") << QByteArray("hello\nworld\n") << qint64(0)
                                   << QStringLiteral("no gprof flat profile");
        QTest::newRow("empty") << QByteArray() << qint64(0) << QStringLiteral("no gprof flat profile");
    }

    void badInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(qint64, line);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.prof"));
        writeText(path, bytes);
        const auto result = readGprof(path);
        QVERIFY2(!result.ok(), "a damaged file must not read");
        const ReadError& e = result.error();
        QCOMPARE(e.file, path);
        QVERIFY2(e.message.contains(expected), qPrintable(e.toString()));
        QCOMPARE(e.line, line);
        QVERIFY(e.toString().startsWith(path));
    }

    void truncatedAtLineEnd()
    {
        // Cut after a whole line of the call graph: the entries read so far are kept, with a warning.
        const QByteArray val3 = fileBytes(prof("val3_gprof.prof"));
        const qsizetype cut = val3.indexOf(
            "-----------------------------------------------\n                                   1             cycfn1");
        QVERIFY(cut > 0);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cut.prof"));
        writeText(path, val3.left(cut));
        const auto t = mustRead(path);
        QVERIFY(t);
        QVERIFY2(hasWarning(*t, QStringLiteral("without its closing dashed line")),
            qPrintable(t->warnings().join(QLatin1Char('\n'))));
        QCOMPARE(incl(*t, "main"), 5210000.0);
    }

    void cancelled()
    {
        ReadOptions options;
        Progress progress;
        progress.cancel();
        const auto result = GprofReader().read(wrf(), options, progress);
        QVERIFY(!result.ok());
        QVERIFY(result.error().message.contains(QStringLiteral("cancelled")));
    }
};

QTEST_GUILESS_MAIN(TestGprofReader)
#include "tst_gprofreader.moc"
