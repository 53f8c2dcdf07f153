// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The instrumentation advisor against docs/SEMANTICS.md 7: the OpenUH score (Table 1), the
// lightweight rule's 2-thread example, throttling, overhead, the trace-size estimate, and the two
// file formats written and parsed back; then the real TAU samples.
#include "algebra/advisor.h"
#include "algebra/instrumentationfiles.h"
#include "datasource/model/trialbuilder.h"
#include "tests/common/advisorexample.h"
#include "tests/common/testutil.h"

#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

/// SEMANTICS 7.2's example.
std::shared_ptr<Trial> workedExample() { return advisorTrial(workedExampleCells()); }

QStringList names(const Advice& a)
{
    QStringList out;
    for (const Suggestion& s : a.suggestions)
        out << s.name;
    return out;
}

/// A trial of (name, calls, incl µs) on threads (node, 0, 0) of the given nodes.
std::shared_ptr<Trial> simpleTrial(const QString& trialName,
    const std::vector<std::tuple<QString, double, double>>& events, int nodes, const QStringList& groups0 = {})
{
    TrialBuilder b(trialName);
    b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
    std::vector<EventId> ids;
    for (std::size_t i = 0; i < events.size(); ++i)
        ids.push_back(b.addEvent(std::get<0>(events[i]), i == 0 ? groups0 : QStringList {}));
    for (int n = 0; n < nodes; ++n) {
        const ThreadIndex t = b.addThread({ n, 0, 0 });
        for (std::size_t i = 0; i < events.size(); ++i) {
            const double v[] = { std::get<2>(events[i]) };
            b.addInterval(t, ids[i], std::get<1>(events[i]), 0, v, v);
        }
    }
    return b.build();
}

} // namespace

class TestAdvisor : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void openUhTable1()
    {
        // SEMANTICS 7.1, Table 1 (NPB BT-OMP). The C column counts instrumented callees; the helpers
        // h1..h14 (W = 1, called outside loops) are instrumented leaves that make up those counts.
        StaticCallGraph g;
        const std::pair<const char*, double> procs[] = { { "matvecsub", 23 }, { "binvchrs", 240 }, { "binvrhs", 115 },
            { "matmul_sub", 27 }, { "lhsinit", 57 }, { "exact_solution", 23 }, { "adi", 45 }, { "x_solve", 278 },
            { "y_solve", 278 }, { "z_solve", 278 }, { "main", 459 } };
        for (const auto& [n, w] : procs)
            g.procedures.push_back({ QString::fromLatin1(n), w });
        for (int k = 1; k <= 14; ++k)
            g.procedures.push_back({ QStringLiteral("h%1").arg(k), 1 });
        const auto call = [&](const char* a, const QString& b, int l) {
            g.calls.push_back({ QString::fromLatin1(a), b, l });
        };
        for (const char* solve : { "x_solve", "y_solve", "z_solve" }) {
            for (const char* leaf : { "matvecsub", "binvchrs", "binvrhs", "matmul_sub", "lhsinit" })
                call(solve, QString::fromLatin1(leaf), 3); // skipped callees: not counted in C
            for (int k = 1; k <= 10; ++k)
                call(solve, QStringLiteral("h%1").arg(k), 0);
            call("adi", QString::fromLatin1(solve), 0);
        }
        call("adi", QStringLiteral("h1"), 0);
        call("adi", QStringLiteral("h2"), 0);
        call("main", QStringLiteral("exact_solution"), 4);
        call("main", QStringLiteral("adi"), 1);
        for (int k = 1; k <= 13; ++k)
            call("main", QStringLiteral("h%1").arg(k), 0);
        const std::vector<OpenUhScore> s = openUhScores(g);
        QHash<QString, OpenUhScore> by;
        for (const OpenUhScore& x : s)
            by.insert(x.name, x);
        const struct {
            const char* name;
            int l;
            double loop;
            int c;
            double callsite;
            double score;
            bool instrument;
        } table[] = {
            { "matvecsub", 3, 198656, 0, 0, 198679, false },
            { "binvchrs", 3, 198656, 0, 0, 198896, false },
            { "binvrhs", 3, 198656, 0, 0, 198771, false },
            { "matmul_sub", 3, 198656, 0, 0, 198683, false },
            { "lhsinit", 3, 198656, 0, 0, 198713, false },
            { "exact_solution", 4, 196608, 0, 0, 196631, false },
            { "adi", 1, 202752, 5, 20971520, 21174317, true },
            { "x_solve", 0, 204800, 10, 41943040, 42148118, true },
            { "y_solve", 0, 204800, 10, 41943040, 42148118, true },
            { "z_solve", 0, 204800, 10, 41943040, 42148118, true },
            { "main", 0, 204800, 14, 58720256, 58925515, true },
        };
        for (const auto& row : table) {
            const OpenUhScore& x = by.value(QString::fromLatin1(row.name));
            QCOMPARE(x.loopDepth, row.l);
            QCOMPARE(x.loop, row.loop);
            QCOMPARE(x.instrumentedCallees, row.c);
            QCOMPARE(x.callsite, row.callsite);
            QCOMPARE(x.score, row.score);
            QCOMPARE(x.instrument, row.instrument);
        }
        QCOMPARE(by.value(QStringLiteral("main")).score, 58925515.0);
    }

    void openUhPropagationAndCycles()
    {
        // FT-OMP: cffz (W 65, L 1) calls only the skipped ftz2 (W 116, L 3): C = 0, 202817, skipped.
        StaticCallGraph ft;
        ft.procedures
            = { { QStringLiteral("cffz"), 65 }, { QStringLiteral("ftz2"), 116 }, { QStringLiteral("main"), 10 } };
        ft.calls = { { QStringLiteral("main"), QStringLiteral("cffz"), 1 },
            { QStringLiteral("cffz"), QStringLiteral("ftz2"), 3 } };
        const auto s = openUhScores(ft);
        QCOMPARE(s[1].score, 198772.0);
        QVERIFY(!s[1].instrument);
        QCOMPARE(s[0].instrumentedCallees, 0);
        QCOMPARE(s[0].score, 202817.0);
        QVERIFY(!s[0].instrument);
        // main calls only the skipped cffz: W + loop = 10 + 204800 ≥ T, instrumented at the boundary.
        QCOMPARE(s[2].score, 204810.0);
        QVERIFY(s[2].instrument);
        // [D] a cycle: a and b call each other inside depth-3 loops; each counts the other as
        // instrumented (C = 1), so both are, though each alone would be skipped.
        StaticCallGraph cyc;
        cyc.procedures = { { QStringLiteral("a"), 10 }, { QStringLiteral("b"), 10 } };
        cyc.calls
            = { { QStringLiteral("a"), QStringLiteral("b"), 3 }, { QStringLiteral("b"), QStringLiteral("a"), 3 } };
        for (const OpenUhScore& x : openUhScores(cyc)) {
            QCOMPARE(x.instrumentedCallees, 1);
            QCOMPARE(x.score, 10 + 4194304.0 + 97 * 2048.0);
            QVERIFY(x.instrument);
        }
        // The JSON form read from the metadata.
        QString error;
        const auto g = parseStaticCallGraph(
            R"({"procedures": {"cffz": 65, "ftz2": 116}, "calls": [["cffz", "ftz2", 3]]})", &error);
        QVERIFY2(g, qPrintable(error));
        QCOMPARE(g->calls.size(), std::size_t(1));
        QVERIFY(!parseStaticCallGraph(R"({"procedures": {"a": 1}, "calls": [["a", "zz", 1]]})", &error));
        QVERIFY(error.contains(QLatin1String("zz")));
    }

    void openUhFromMetadata()
    {
        TrialBuilder b(QStringLiteral("meta"));
        b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
        const EventId cffz = b.addEvent(QStringLiteral("void cffz(int) C [{ft.c} {10,1}-{40,1}]"));
        const EventId main = b.addEvent(QStringLiteral("main"));
        const ThreadIndex t = b.addThread({ 0, 0, 0 });
        const double v[] = { 5 };
        b.addInterval(t, cffz, 10, 0, v, v);
        b.addInterval(t, main, 1, 1, v, v);
        b.addMetadata(QLatin1String(StaticCallGraphKey),
            QStringLiteral(
                R"({"procedures": {"cffz": 65, "ftz2": 116, "main": 10}, "calls": [["main", "cffz", 1], ["cffz", "ftz2", 3]]})"));
        const Advice a = advise(*b.build(), nullptr, {});
        QCOMPARE(a.openUh.size(), std::size_t(3));
        QCOMPARE(names(a), QStringList { QStringLiteral("void cffz(int) C") });
        QCOMPARE(a.suggestions[0].reasons, unsigned(ReasonOpenUh));
        QVERIFY(a.suggestions[0].why.contains(QLatin1String("202817")));
    }

    void lightweightWorkedExample()
    {
        const auto trial = workedExample();
        const Advice a = advise(*trial, nullptr, {});
        QCOMPARE(names(a), QStringList { QStringLiteral("qux") }); // the ≥ boundary
        const Suggestion& q = a.suggestions[0];
        QCOMPARE(q.meanCalls, 100000.0);
        QCOMPARE(q.microsPerCall, 5.0);
        QCOMPARE(q.reasons, unsigned(ReasonLightweight));
        QCOMPARE(q.visits, 200000.0);
        QVERIFY(std::isnan(q.timeSavedMicros)); // no baseline, no per-call cost given
        QCOMPARE(tauExcludeBlock(a.excludeNames()), QStringLiteral("\nBEGIN_EXCLUDE_LIST\nqux\nEND_EXCLUDE_LIST\n"));

        AdvisorOptions present;
        present.rule.presentOnlyMean = true;
        const Advice p = advise(*trial, nullptr, present);
        QCOMPARE(names(p), (QStringList { QStringLiteral("foo"), QStringLiteral("qux") }));
        QCOMPARE(p.suggestions[0].meanCalls, 180000.0);

        // Thresholds are settings: N = 150000 and X = 20 list bar (150000 calls, 20 µs) alone.
        AdvisorOptions bar;
        bar.rule.minCalls = 150000;
        bar.rule.maxMicrosPerCall = 20;
        QCOMPARE(names(advise(*trial, nullptr, bar)), QStringList { QStringLiteral("bar") });
        // A call cost gives the time saved: 200000 visits / 2 threads × 0.5 µs.
        AdvisorOptions cost;
        cost.callOverheadMicros = 0.5;
        QCOMPARE(advise(*trial, nullptr, cost).suggestions[0].timeSavedMicros, 50000.0);
    }

    void throttledAndUserEvents()
    {
        TrialBuilder b(QStringLiteral("throttled"));
        b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
        const EventId t1 = b.addEvent(QStringLiteral("int tiny(int) C [{t.c} {3,1}-{7,1}] [THROTTLED]"));
        const EventId t2
            = b.addEvent(QStringLiteral("small"), { QStringLiteral("TAU_USER"), QStringLiteral("TAU_DISABLE") });
        const EventId big = b.addEvent(QStringLiteral("solve"));
        const EventId cp = b.addEvent(QStringLiteral("solve => small"));
        const ThreadIndex t = b.addThread({ 0, 0, 0 });
        const double v[] = { 1000 };
        for (const EventId e : { t1, t2, big, cp })
            b.addInterval(t, e, 10, 0, v, v);
        b.addMetadata(QStringLiteral("TAU_THROTTLE"), QStringLiteral("on"));
        b.addMetadata(QStringLiteral("TAU_THROTTLE_NUMCALLS"), QStringLiteral("100000"));
        b.addMetadata(QStringLiteral("TAU_THROTTLE_PERCALL"), QStringLiteral("10"));
        const auto trial = b.build();
        QVERIFY(isThrottled(*trial, t1));
        QVERIFY(isThrottled(*trial, t2));
        QVERIFY(!isThrottled(*trial, big));
        AdvisorOptions o;
        o.userExclude = { QStringLiteral("solve"), QStringLiteral("not_in_trial") };
        o.keep = { QStringLiteral("small") };
        const Advice a = advise(*trial, nullptr, o);
        QCOMPARE(a.throttle.throttle, QStringLiteral("on"));
        QCOMPARE(a.throttle.numCalls, QStringLiteral("100000"));
        QCOMPARE(a.throttle.perCall, QStringLiteral("10"));
        QCOMPARE(names(a), (QStringList { QStringLiteral("int tiny(int) C"), QStringLiteral("solve") }));
        QCOMPARE(a.suggestions[0].reasons, unsigned(ReasonThrottled));
        QCOMPARE(a.suggestions[1].reasons, unsigned(ReasonUser));
        QCOMPARE(a.kept, QStringList { QStringLiteral("small") });
        QCOMPARE(a.unknownUserNames, QStringList { QStringLiteral("not_in_trial") });
        QCOMPARE(a.throttledWarnings.size(), 2);
        QVERIFY(a.throttledWarnings[0].contains(QLatin1String("callers")));
        QVERIFY(a.throttledWarnings[0].contains(QLatin1String("NUMCALLS 100000")));
        // The user's unknown name still goes into the files; call paths never do.
        QCOMPARE(a.excludeNames(),
            (QStringList {
                QStringLiteral("int tiny(int) C"), QStringLiteral("solve"), QStringLiteral("not_in_trial") }));
        QCOMPARE(a.excludeNames(ReasonThrottled), QStringList { QStringLiteral("int tiny(int) C") });
        QCOMPARE(a.suggestions[0].scorep,
            (QStringList { QStringLiteral("tiny"), QStringLiteral("tiny(*)"), QStringLiteral("*\\ tiny(*)") }));
    }

    void tauSelectFileRoundTrip()
    {
        TauSelectFile f;
        f.exclude = { QStringLiteral("zeta"), QStringLiteral("int foo(int) C"), QStringLiteral("Zeta"),
            QStringLiteral("zeta") };
        f.include = { QStringLiteral("main") };
        f.fileExclude = { QStringLiteral("*.h") };
        const QString text = writeTauSelectFile(f);
        QVERIFY(text.startsWith(QLatin1String("\nBEGIN_EXCLUDE_LIST\nZeta\nint foo(int) C\nzeta\nEND_EXCLUDE_LIST\n")));
        QString error;
        const TauSelectFile back = parseTauSelectFile(text, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(back.exclude,
            (QStringList { QStringLiteral("Zeta"), QStringLiteral("int foo(int) C"), QStringLiteral("zeta") }));
        QCOMPARE(back.include, QStringList { QStringLiteral("main") });
        QCOMPARE(back.fileExclude, QStringList { QStringLiteral("*.h") });

        // Merging: the old text stays; only new names are appended; an included name is a conflict.
        const QString existing
            = QStringLiteral("# mine\nBEGIN_EXCLUDE_LIST\nold\nEND_EXCLUDE_LIST\n"
                             "BEGIN_INCLUDE_LIST\nmain\nEND_INCLUDE_LIST\n"
                             "BEGIN_INSTRUMENT_SECTION\nloops routine=\"#\"\nEND_INSTRUMENT_SECTION\n");
        QStringList conflicts;
        const QString merged = mergeTauSelectFile(
            existing, { QStringLiteral("new"), QStringLiteral("old"), QStringLiteral("main") }, &conflicts, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(merged.startsWith(existing));
        QCOMPARE(merged.mid(existing.size()), QStringLiteral("\nBEGIN_EXCLUDE_LIST\nnew\nEND_EXCLUDE_LIST\n"));
        QCOMPARE(conflicts, QStringList { QStringLiteral("main") });
        const TauSelectFile m = parseTauSelectFile(merged, &error);
        QCOMPARE(m.exclude, (QStringList { QStringLiteral("old"), QStringLiteral("new") }));
        QCOMPARE(m.other.size(), 3);
        QCOMPARE(mergeTauSelectFile(merged, { QStringLiteral("new") }), merged); // nothing new: unchanged

        // Errors name the line.
        parseTauSelectFile(QStringLiteral("BEGIN_EXCLUDE_LIST\nfoo\n"), &error);
        QVERIFY(error.contains(QLatin1String("not closed")));
        error.clear();
        parseTauSelectFile(QStringLiteral("foo\n"), &error);
        QVERIFY(error.contains(QLatin1String("line 1")));
    }

    void scorepFilterRoundTrip()
    {
        const QStringList patterns = scorepPatterns(QStringLiteral("void ns::op*(int) C"));
        const QString text = writeScorepFilter(patterns + scorepPatterns(QStringLiteral("plain")),
            { QStringLiteral("_Z3fooi") }, { QStringLiteral("keep me") });
        QVERIFY(text.startsWith(QLatin1String("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE\n")));
        QVERIFY(text.endsWith(QLatin1String("SCOREP_REGION_NAMES_END\n")));
        QVERIFY(text.contains(QLatin1String("    *\\ ns::op\\*(*)\n")));
        QVERIFY(text.contains(QLatin1String("  EXCLUDE MANGLED\n    _Z3fooi\n")));
        QVERIFY(text.contains(QLatin1String("  INCLUDE\n    keep\\ me\n")));
        QString error;
        const ScorepFilter f = parseScorepFilter(text, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(f.regions.size(), std::size_t(3));
        QVERIFY(f.regions[1].mangled);
        QCOMPARE(f.regions[2].patterns, QStringList { QStringLiteral("keep\\ me") });
        // What the filter excludes, as Score-P would match the region names.
        QVERIFY(scorepFilterExcludes(f, QStringLiteral("plain")));
        QVERIFY(scorepFilterExcludes(f, QStringLiteral("ns::op*")));
        QVERIFY(scorepFilterExcludes(f, QStringLiteral("ns::op*(int)")));
        QVERIFY(scorepFilterExcludes(f, QStringLiteral("void ns::op*(int)")));
        QVERIFY(!scorepFilterExcludes(f, QStringLiteral("ns::opX(int)"))); // the '*' of the name is literal
        QVERIFY(!scorepFilterExcludes(f, QStringLiteral("plainer")));
        QVERIFY(scorepFilterExcludes(f, QStringLiteral("foo(int)"), QStringLiteral("_Z3fooi")));
        QVERIFY(!scorepFilterExcludes(f, QStringLiteral("keep me"))); // the INCLUDE rule comes last and wins
        // Comments, several names on a line, a file block.
        const ScorepFilter g = parseScorepFilter(
            QStringLiteral("# c\nSCOREP_FILE_NAMES_BEGIN EXCLUDE */lib/* SCOREP_FILE_NAMES_END\n"
                           "SCOREP_REGION_NAMES_BEGIN\nEXCLUDE a b # comment\n c[0-9]\nSCOREP_REGION_NAMES_END\n"),
            &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(g.files.size(), std::size_t(1));
        QCOMPARE(g.regions[0].patterns,
            (QStringList { QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c[0-9]") }));
        QVERIFY(scorepFilterExcludes(g, QStringLiteral("c7")));
        QVERIFY(!scorepFilterExcludes(g, QStringLiteral("cx")));
        parseScorepFilter(QStringLiteral("SCOREP_REGION_NAMES_BEGIN\nfoo\nSCOREP_REGION_NAMES_END\n"), &error);
        QVERIFY(error.contains(QLatin1String("line 2")));
    }

    void traceEstimate()
    {
        // OTF2_EventSizeEstimator (OTF2 3.0): Enter/Leave of 1, 255, 65536 and 1e6 regions take
        // 2, 3, 4 and 5 bytes, a timestamp 9 (docs/SEMANTICS.md 7.5).
        QCOMPARE(1 + otf2RegionRefBytes(1), 2);
        QCOMPARE(1 + otf2RegionRefBytes(255), 3);
        QCOMPARE(1 + otf2RegionRefBytes(256), 3);
        QCOMPARE(1 + otf2RegionRefBytes(65536), 4);
        QCOMPARE(1 + otf2RegionRefBytes(1000000), 5);
        QCOMPARE(bytesPerVisit(100), 24.0); // scorep-score's 24 bytes a visit of a small program
        QCOMPARE(bytesPerVisit(70000), 28.0);
        // Two processes: node 0 with two threads, node 1 with one; call paths do not count.
        TrialBuilder b(QStringLiteral("trace"));
        b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
        const EventId main = b.addEvent(QStringLiteral("main"));
        const EventId leaf = b.addEvent(QStringLiteral("leaf"));
        const EventId path = b.addEvent(QStringLiteral("main => leaf"));
        const double v[] = { 1 };
        const double big[] = { 1e6 };
        for (const ThreadKey k : { ThreadKey { 0, 0, 0 }, ThreadKey { 0, 0, 1 }, ThreadKey { 1, 0, 0 } }) {
            const ThreadIndex t = b.addThread(k);
            b.addInterval(t, main, 1, 200000, big, big);
            b.addInterval(t, leaf, 200000, 0, v, v);
            b.addInterval(t, path, 200000, 0, v, v);
        }
        const Advice a = advise(*b.build(), nullptr, {});
        QCOMPARE(names(a), QStringList { QStringLiteral("leaf") });
        QCOMPARE(a.trace.regions, std::size_t(2));
        QCOMPARE(a.trace.processes, (std::vector<std::int32_t> { 0, 1 }));
        QCOMPARE(a.trace.before, (std::vector<double> { 2 * 200001 * 24.0, 200001 * 24.0 }));
        QCOMPARE(a.trace.after, (std::vector<double> { 2 * 24.0, 24.0 }));
        QCOMPARE(a.trace.totalBefore, 3 * 200001 * 24.0);
        QCOMPARE(a.trace.maxAfter, 48.0);
        QCOMPARE(a.suggestions[0].traceBytes, 600000 * 24.0);
    }

    void overheadAgainstBaseline()
    {
        // Full: main 1,300 µs with leaf 300,000 calls, 500 µs; baseline: main 1,000, leaf 200;
        // compute is only in the baseline, init only in the full run.
        const auto full = simpleTrial(QStringLiteral("full"),
            { { QStringLiteral("main"), 1, 1300 }, { QStringLiteral("leaf"), 300000, 500 },
                { QStringLiteral("init"), 1, 10 } },
            2);
        const auto base = simpleTrial(QStringLiteral("base"),
            { { QStringLiteral("main"), 1, 1000 }, { QStringLiteral("leaf"), 1000, 200 },
                { QStringLiteral("compute"), 1, 5 } },
            2);
        const Advice a = advise(*full, base.get(), {});
        QVERIFY(a.overhead);
        const OverheadReport& o = *a.overhead;
        QCOMPARE(o.totalInstrumented, 1300.0);
        QCOMPARE(o.totalBaseline, 1000.0);
        QCOMPARE(o.total, 0.3);
        QCOMPARE(o.visitsInstrumented, 2 * 300002.0);
        QCOMPARE(o.visitsBaseline, 2 * 1002.0);
        QCOMPARE(o.perCallMicros, 600.0 / (2 * 300002.0 - 2 * 1002.0));
        QCOMPARE(o.rows.size(), std::size_t(4));
        QCOMPARE(o.rows[0].name, QStringLiteral("main")); // the largest T_instr − T_base first
        QCOMPARE(o.rows[0].overhead, 0.3);
        QCOMPARE(o.rows[1].name, QStringLiteral("leaf"));
        QCOMPARE(o.rows[1].overhead, 1.5);
        QCOMPARE(o.rows[1].calls, 300000.0);
        QVERIFY(std::isnan(o.rows[2].overhead) && std::isnan(o.rows[3].overhead));
        QVERIFY(std::isnan(o.rows[2].baseline) != std::isnan(o.rows[3].baseline));
        // leaf is lightweight (300000 calls, 1/600 µs a call): the time saved uses the per-call cost.
        QCOMPARE(names(a), QStringList { QStringLiteral("leaf") });
        QCOMPARE(a.suggestions[0].timeSavedMicros, 600000 / 2.0 * o.perCallMicros);
        // Against itself every overhead is 0.
        const Advice self = advise(*full, full.get(), {});
        QCOMPARE(self.overhead->total, 0.0);
        for (const OverheadRow& r : self.overhead->rows)
            QCOMPARE(r.overhead, 0.0);
        QVERIFY(std::isnan(self.overhead->perCallMicros));
    }

    void realSamples()
    {
        // The TAU samples record TAU_THROTTLE in their metadata (tau2/MANIFEST.md); none has a
        // throttled event, so the list comes from the lightweight rule alone.
        for (const char* dir : { "tau2/tau-profiles-callpath-cpi-4rank", "tau2/tau-profiles-openmp-2thread",
                 "tau2/tau-profiles-wrap-params" }) {
            const auto trial = mustLoad(dataPath(QString::fromLatin1(dir)));
            QVERIFY(trial);
            AdvisorOptions o;
            o.rule.minCalls = 1; // low enough that the small samples list something
            o.rule.maxMicrosPerCall = 1000;
            const Advice a = advise(*trial, nullptr, o);
            QCOMPARE(a.throttle.throttle, QStringLiteral("on"));
            QCOMPARE(a.throttle.numCalls, QStringLiteral("100000"));
            QCOMPARE(a.throttle.perCall, QStringLiteral("10"));
            QVERIFY(a.throttledWarnings.isEmpty());
            // The rule recomputed from the rows: mean calls over all threads ≥ 1, mean incl / mean
            // calls ≤ 1000 µs.
            const MetricId m = trial->findMetric(QStringLiteral("TIME"));
            QVERIFY(m.isValid());
            QStringList expected;
            double visits = 0;
            std::size_t regions = 0;
            for (std::size_t e = 0; e < trial->eventCount(); ++e) {
                if (trial->events()[e].isCallPath())
                    continue;
                ++regions;
                double calls = 0;
                double incl = 0;
                for (std::size_t t = 0; t < trial->threadCount(); ++t) {
                    const RowView row = trial->row(ThreadIndex(static_cast<std::uint32_t>(t)));
                    const auto i = row.find(EventId(static_cast<std::uint32_t>(e)));
                    if (i >= 0) {
                        calls += row.calls[static_cast<std::size_t>(i)];
                        incl += row.inclusive(m.index(), static_cast<std::size_t>(i));
                    }
                }
                visits += calls;
                const double n = static_cast<double>(trial->threadCount());
                if (calls / n >= 1 && incl / calls <= 1000)
                    expected << excludeListName(trial->events()[e].name);
            }
            expected.removeDuplicates();
            expected.sort();
            QStringList got = names(a);
            got.sort();
            QCOMPARE(got, expected);
            // The OpenMP sample's routines run once for a second: nothing there; the others list some.
            QCOMPARE(got.isEmpty(), QByteArray(dir).contains("openmp"));
            QCOMPARE(a.trace.regions, regions);
            QCOMPARE(a.trace.totalBefore, visits * bytesPerVisit(regions));
            QCOMPARE(a.trace.totalAfter < a.trace.totalBefore, !got.isEmpty());
            // The exclude file parses back to the list.
            const TauSelectFile back = parseTauSelectFile(tauExcludeBlock(a.excludeNames()));
            QStringList sorted = back.exclude;
            sorted.sort();
            QCOMPARE(sorted, expected);
            for (const QString& n : back.exclude)
                QVERIFY2(!n.contains(QLatin1String("[{")), qPrintable(n)); // no source locations
        }
        // With the defaults (N = 100000) the small cpi run has nothing lightweight.
        const auto cpi = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(advise(*cpi, nullptr, {}).suggestions.empty());
    }
};

QTEST_GUILESS_MAIN(TestAdvisor)
#include "tst_advisor.moc"
