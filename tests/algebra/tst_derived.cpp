// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Derived metrics against docs/SEMANTICS.md 3: grammar, errors with positions, IEEE and PARAPROF
// modes, evaluation on excl and incl, statistics of derived values, definition files, real data.
#include "algebra/derivedmetric.h"
#include "algebra/statistics.h"
#include "datasource/model/trialbuilder.h"
#include "tests/common/testutil.h"

#include <QTemporaryDir>
#include <cmath>
#include <limits>

using namespace parallax;
using namespace parallax::test;

namespace {

using TrialP = std::shared_ptr<const Trial>;
constexpr double Inf = std::numeric_limits<double>::infinity();

bool same(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b))
        return a == b;
    return std::abs(a - b) <= 1e-9 * std::max({ 1.0, std::abs(a), std::abs(b) });
}

/// Evaluates an expression over named values; NaN sentinel when it does not parse.
double eval(const QString& text, const QStringList& names, const std::vector<double>& values,
    DerivedMode mode = DerivedMode::Ieee)
{
    const auto e = MetricExpression::parse(text, mode);
    if (!e)
        return -12345;
    std::vector<double> args;
    for (const QString& m : e->metrics())
        args.push_back(values[static_cast<std::size_t>(names.indexOf(m))]);
    return e->evaluate(args);
}

/// The parse error of an expression (position and message).
ExpressionError errorOf(const QString& text, DerivedMode mode = DerivedMode::Ieee)
{
    ExpressionError e;
    if (MetricExpression::parse(text, mode, &e))
        e.message = QStringLiteral("<parsed>");
    return e;
}

/// One thread per value pair; metric values as given for one event "compute".
TrialP literalTrial(const QStringList& metrics, const std::vector<std::vector<std::pair<double, double>>>& threads)
{
    TrialBuilder b(QStringLiteral("literal"));
    for (const QString& m : metrics)
        b.addMetric({ m, m == QLatin1String("TIME") ? QStringLiteral("us") : QStringLiteral("count") });
    const EventId e = b.addEvent(QStringLiteral("compute"));
    for (std::size_t t = 0; t < threads.size(); ++t) {
        std::vector<double> excl, incl;
        for (const auto& [x, i] : threads[t]) {
            excl.push_back(x);
            incl.push_back(i);
        }
        b.addInterval(b.addThread({ static_cast<int>(t), 0, 0 }), e, 3, 1, excl, incl);
    }
    return b.build();
}

double value(const Trial& trial, const QString& metric, bool inclusive, std::size_t thread = 0,
    const QString& event = QStringLiteral("compute"))
{
    const MetricId m = trial.findMetric(metric);
    const RowView row = trial.row(ThreadIndex(thread));
    const auto i = row.find(trial.findEvent(event));
    if (!m.isValid() || i < 0)
        return -12345;
    return inclusive ? row.inclusive(m.index(), static_cast<std::size_t>(i))
                     : row.exclusive(m.index(), static_cast<std::size_t>(i));
}

} // namespace

class TestDerived : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void grammar()
    {
        const QStringList n { QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("PAPI FP"),
            QStringLiteral("x.y:z") };
        const std::vector<double> v { 3, 5, 8, 2 };
        QCOMPARE(eval(QStringLiteral("2 + 3 * 4"), n, v), 14.0);
        QCOMPARE(eval(QStringLiteral("(2 + 3) * 4"), n, v), 20.0);
        QCOMPARE(eval(QStringLiteral("8 - 3 - 2"), n, v), 3.0); // left-associative
        QCOMPARE(eval(QStringLiteral("8 / 4 / 2"), n, v), 1.0);
        QCOMPARE(eval(QStringLiteral("-2 * 3"), n, v), -6.0);
        QCOMPARE(eval(QStringLiteral("A - -B"), n, v), 8.0);
        QCOMPARE(eval(QStringLiteral(".5 + 1e3 + 2.5E-1 + 1.5e+1"), n, v), 1015.75);
        QCOMPARE(eval(QStringLiteral("\"PAPI FP\" / x.y:z"), n, v), 4.0);
        QCOMPARE(eval(QStringLiteral("\"A\"*\"B\""), n, v), 15.0);
        QCOMPARE(eval(QStringLiteral("A*A + B"), n, v), 14.0);
        const auto e = MetricExpression::parse(QStringLiteral("PAPI_FP_INS / TIME"), DerivedMode::Ieee);
        QVERIFY(e);
        QCOMPARE(e->autoName(), QStringLiteral("(PAPI_FP_INS/TIME)"));
        QCOMPARE(e->metrics(), (QStringList { QStringLiteral("PAPI_FP_INS"), QStringLiteral("TIME") }));
        QCOMPARE(e->metricPosition(1), qsizetype(14));
        QCOMPARE(MetricExpression::parse(QStringLiteral(" \"PAPI_FP_OPS\" / \"TIME\" "), DerivedMode::Ieee)->autoName(),
            QStringLiteral("(PAPI_FP_OPS/TIME)"));
    }

    void parseErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("mode");
        QTest::addColumn<qsizetype>("position");
        QTest::addColumn<QString>("message");
        const int ieee = static_cast<int>(DerivedMode::Ieee), pp = static_cast<int>(DerivedMode::ParaProf);
        QTest::newRow("empty") << QString() << ieee << qsizetype(0) << QStringLiteral("empty expression");
        QTest::newRow("blank") << QStringLiteral("   ") << ieee << qsizetype(0) << QStringLiteral("empty expression");
        QTest::newRow("dangling operator")
            << QStringLiteral("A +") << ieee << qsizetype(3)
            << QStringLiteral("expected a metric name, a number or '(' but found the end of the expression");
        QTest::newRow("unclosed")
            << QStringLiteral("(A + B") << ieee << qsizetype(6)
            << QStringLiteral("expected ')' to close the '(' at column 1 but found the end of the expression");
        QTest::newRow("unmatched") << QStringLiteral("A + B)") << ieee << qsizetype(5)
                                   << QStringLiteral("unmatched ')'");
        QTest::newRow("two operators") << QStringLiteral("A * * B") << ieee << qsizetype(4)
                                       << QStringLiteral("expected a metric name, a number or '(' but found '*'");
        QTest::newRow("two operands")
            << QStringLiteral("TIME PAPI") << ieee << qsizetype(5)
            << QStringLiteral(
                   "expected an operator (+ - * /) or the end of the expression but found the metric 'PAPI'");
        QTest::newRow("unterminated quote") << QStringLiteral("A / \"PAPI") << ieee << qsizetype(4)
                                            << QStringLiteral("unterminated quoted metric name (no closing '\"')");
        QTest::newRow("empty quotes") << QStringLiteral("\"\" + 1") << ieee << qsizetype(0)
                                      << QStringLiteral("empty metric name \"\"");
        QTest::newRow("digit after dot") << QStringLiteral("1. + A") << ieee << qsizetype(2)
                                         << QStringLiteral("expected a digit after '.'");
        QTest::newRow("exponent") << QStringLiteral("2e+ * A") << ieee << qsizetype(3)
                                  << QStringLiteral("expected the digits of the exponent");
        QTest::newRow("empty parentheses")
            << QStringLiteral("A * ()") << ieee << qsizetype(5)
            << QStringLiteral("expected a metric name, a number or '(' but found ')' (empty parentheses)");
        QTest::newRow("bad character") << QStringLiteral("A % B") << ieee << qsizetype(2)
                                       << QStringLiteral(
                                              "unexpected character '%' (quote metric names that contain it)");
        QTest::newRow("number then name")
            << QStringLiteral("2TIME") << ieee << qsizetype(1)
            << QStringLiteral(
                   "expected an operator (+ - * /) or the end of the expression but found the metric 'TIME'");
        QTest::newRow("double unary") << QStringLiteral("--A") << ieee << qsizetype(1)
                                      << QStringLiteral("expected a metric name, a number or '(' but found '-'");
        QTest::newRow("paraprof unary") << QStringLiteral("B * -A") << pp << qsizetype(4)
                                        << QStringLiteral("unary minus is not allowed in PARAPROF mode");
    }

    void parseErrors()
    {
        QFETCH(QString, text);
        QFETCH(int, mode);
        QFETCH(qsizetype, position);
        QFETCH(QString, message);
        const ExpressionError e = errorOf(text, static_cast<DerivedMode>(mode));
        QCOMPARE(e.message, message);
        QCOMPARE(e.position, position);
        QCOMPARE(e.toString(), QStringLiteral("column %1: %2").arg(position + 1).arg(message));
    }

    void modes()
    {
        // docs/SEMANTICS.md 3, table of modes.
        const QStringList n { QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C"), QStringLiteral("Z") };
        const std::vector<double> v { 3, 5, 4, 0 };
        QCOMPARE(eval(QStringLiteral("A - B"), n, v), -2.0);
        QCOMPARE(eval(QStringLiteral("A - B"), n, v, DerivedMode::ParaProf), 0.0);
        QCOMPARE(eval(QStringLiteral("A - B + C"), n, v), 2.0);
        QCOMPARE(eval(QStringLiteral("A - B + C"), n, v, DerivedMode::ParaProf), 4.0);
        QCOMPARE(eval(QStringLiteral("A / Z"), n, v), Inf);
        QCOMPARE(eval(QStringLiteral("A / Z"), n, v, DerivedMode::ParaProf), 0.0);
        QVERIFY(std::isnan(eval(QStringLiteral("Z / Z"), n, v)));
        QCOMPARE(eval(QStringLiteral("Z / Z"), n, v, DerivedMode::ParaProf), 0.0);
        QCOMPARE(eval(QStringLiteral("-A"), n, v), -3.0);
        QVERIFY(!MetricExpression::parse(QStringLiteral("-A"), DerivedMode::ParaProf));
        QCOMPARE(eval(QStringLiteral("B - A"), n, v, DerivedMode::ParaProf), 2.0);
        QCOMPARE(eval(QStringLiteral("1e308 * 10"), n, v), Inf);
        QCOMPARE(eval(QStringLiteral("1e308 * 10"), n, v, DerivedMode::ParaProf), 0.0); // any other non-finite -> 0
        QCOMPARE(eval(QStringLiteral("A / Z + 1"), n, v, DerivedMode::ParaProf), 1.0);
        QCOMPARE(*derivedModeFromName(u"paraprof"), DerivedMode::ParaProf);
        QCOMPARE(derivedModeName(DerivedMode::Ieee), QStringLiteral("IEEE"));
    }

    void definitions()
    {
        auto def = parseDefinition(QStringLiteral("FLOPS = \"PAPI_FP_OPS\" / \"TIME\""));
        QVERIFY(def);
        QCOMPARE(def->name, QStringLiteral("FLOPS"));
        QCOMPARE(def->expression, QStringLiteral(" \"PAPI_FP_OPS\" / \"TIME\""));
        QCOMPARE(def->expressionOffset, qsizetype(7));
        def = parseDefinition(QStringLiteral("\"GFLOP/s\" = PAPI_FP_INS / (TIME * 1000)"));
        QVERIFY(def);
        QCOMPARE(def->name, QStringLiteral("GFLOP/s"));
        def = parseDefinition(QStringLiteral("\"a = b\" [1/s] = A / B"));
        QVERIFY(def);
        QCOMPARE(def->name, QStringLiteral("a = b")); // "=" inside quotes does not split
        QCOMPARE(def->unit, QStringLiteral("1/s"));
        QCOMPARE(def->expression, QStringLiteral(" A / B"));
        def = parseDefinition(QStringLiteral("PAPI_FP_INS / TIME"));
        QVERIFY(def);
        QVERIFY(def->name.isEmpty());
        ExpressionError e;
        QVERIFY(!parseDefinition(QStringLiteral("GFLOP/s = A / B"), &e));
        QCOMPARE(e.position, qsizetype(5));
        QCOMPARE(e.message,
            QStringLiteral("expected '=' after the metric name but found '/' (quote names with spaces or operators)"));
        QVERIFY(!parseDefinition(QStringLiteral(" = A"), &e));
        QCOMPARE(e.message, QStringLiteral("expected a metric name before '='"));
        QCOMPARE(e.position, qsizetype(1));
        QVERIFY(!parseDefinition(QStringLiteral("X [ms = A"), &e));
        QCOMPARE(e.message, QStringLiteral("expected ']' to close the unit"));
    }

    void workedExample()
    {
        // docs/SEMANTICS.md 3: TIME 2.0e6/2.5e6 us, PAPI_FP_INS 4.0e9/4.5e9.
        const TrialP trial = literalTrial(
            { QStringLiteral("TIME"), QStringLiteral("PAPI_FP_INS") }, { { { 2.0e6, 2.5e6 }, { 4.0e9, 4.5e9 } } });
        const AlgebraResult g = deriveMetric(*trial, QStringLiteral("\"GFLOP/s\" = PAPI_FP_INS / (TIME * 1000)"));
        QVERIFY2(g, qPrintable(g.error()));
        const Trial& t = *g.trial();
        QCOMPARE(t.metricCount(), std::size_t(3));
        QCOMPARE(value(t, QStringLiteral("GFLOP/s"), false), 2.0);
        QCOMPARE(value(t, QStringLiteral("GFLOP/s"), true), 1.8);
        const Metric& m = t.metric(t.findMetric(QStringLiteral("GFLOP/s")));
        QVERIFY(m.derived);
        QCOMPARE(m.unit, QString());
        QCOMPARE(m.expression, QStringLiteral("PAPI_FP_INS / (TIME * 1000)"));
        QCOMPARE(t.provenance().operation, QStringLiteral("derive"));
        QVERIFY(t.isDerived());
        QVERIFY(t.provenance().options.contains(QStringLiteral("mode=IEEE")));
        QVERIFY(t.provenance().options.contains(QStringLiteral("metric[GFLOP/s]=PAPI_FP_INS / (TIME * 1000)")));
        // The operands are untouched, calls and subrs unchanged.
        QCOMPARE(value(t, QStringLiteral("TIME"), true), 2.5e6);
        QCOMPARE(t.row(ThreadIndex(0u)).calls[0], 3.0);
        QCOMPARE(t.row(ThreadIndex(0u)).subrs[0], 1.0);
        const AlgebraResult mf = deriveMetric(*trial, QStringLiteral("MFLOPS = PAPI_FP_INS / TIME"));
        QVERIFY(mf);
        QCOMPARE(value(*mf.trial(), QStringLiteral("MFLOPS"), false), 2000.0);
        QCOMPARE(value(*mf.trial(), QStringLiteral("MFLOPS"), true), 1800.0);
        // Without a name: "(" + the expression without quotes and white space + ")".
        const AlgebraResult unnamed = deriveMetric(*trial, QStringLiteral("PAPI_FP_INS / TIME"));
        QVERIFY(unnamed);
        QVERIFY(unnamed.trial()->findMetric(QStringLiteral("(PAPI_FP_INS/TIME)")).isValid());
        // PARAPROF mode is recorded.
        const AlgebraResult pp = deriveMetric(*trial, QStringLiteral("D = TIME - PAPI_FP_INS"), DerivedMode::ParaProf);
        QVERIFY(pp);
        QCOMPARE(value(*pp.trial(), QStringLiteral("D"), false), 0.0);
        QVERIFY(pp.trial()->provenance().options.contains(QStringLiteral("mode=PARAPROF")));
        const AlgebraResult ieee = deriveMetric(*trial, QStringLiteral("D = TIME - PAPI_FP_INS"));
        QCOMPARE(value(*ieee.trial(), QStringLiteral("D"), false), 2.0e6 - 4.0e9);
    }

    void statisticsFromDerivedValues()
    {
        // docs/SEMANTICS.md 3: A = (2, 6), B = (1, 2) -> A/B = (2, 3), mean 2.5 (not 8/3).
        const TrialP trial = literalTrial(
            { QStringLiteral("A"), QStringLiteral("B") }, { { { 2, 2 }, { 1, 1 } }, { { 6, 6 }, { 2, 2 } } });
        const AlgebraResult r = deriveMetric(*trial, QStringLiteral("R = A / B"));
        QVERIFY(r);
        const Trial& t = *r.trial();
        QCOMPARE(value(t, QStringLiteral("R"), false, 0), 2.0);
        QCOMPARE(value(t, QStringLiteral("R"), false, 1), 3.0);
        const Stat& s = TrialStatistics::of(t)->stat(
            t.findEvent(QStringLiteral("compute")), t.findMetric(QStringLiteral("R")), ValueKind::Exclusive);
        QCOMPARE(s.meanAll, 2.5);
        QVERIFY(std::abs(s.meanAll - 8.0 / 3.0) > 0.1);
    }

    void absentCellsStayAbsent()
    {
        TrialBuilder b(QStringLiteral("sparse"));
        b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
        b.addMetric({ QStringLiteral("CYC"), QStringLiteral("count") });
        const EventId main = b.addEvent(QStringLiteral("main"));
        const EventId io = b.addEvent(QStringLiteral("io"));
        const double x[] = { 10, 30 }, y[] = { 0, 7 };
        const ThreadIndex t0 = b.addThread({ 0, 0, 0 });
        const ThreadIndex t1 = b.addThread({ 1, 0, 0 });
        b.addInterval(t0, main, 1, 1, x, x);
        b.addInterval(t0, io, 1, 0, y, y);
        b.addInterval(t1, main, 1, 0, x, x);
        const TrialP trial = b.build();
        const AlgebraResult r = deriveMetric(*trial, QStringLiteral("CPT = CYC / TIME"));
        QVERIFY(r);
        const Trial& t = *r.trial();
        QCOMPARE(t.row(ThreadIndex(1u)).size(), std::size_t(1));
        QCOMPARE(t.row(ThreadIndex(1u)).find(t.findEvent(QStringLiteral("io"))), std::ptrdiff_t(-1));
        QCOMPARE(value(t, QStringLiteral("CPT"), false, 0, QStringLiteral("main")), 3.0);
        QCOMPARE(value(t, QStringLiteral("CPT"), false, 0, QStringLiteral("io")), Inf); // 7 / 0 in IEEE
        QCOMPARE(t.cellCount(), trial->cellCount());
        // IEEE keeps non-finite values and says how many there are.
        QVERIFY2(t.warnings().join(QLatin1Char(' ')).contains(QStringLiteral("'CPT': 2 non-finite values")),
            qPrintable(t.warnings().join(QLatin1Char('\n'))));
        const AlgebraResult pp = deriveMetric(*trial, QStringLiteral("CPT = CYC / TIME"), DerivedMode::ParaProf);
        QCOMPARE(value(*pp.trial(), QStringLiteral("CPT"), false, 0, QStringLiteral("io")), 0.0);
        QVERIFY(pp.trial()->warnings().isEmpty());
    }

    void definitionErrors()
    {
        const TrialP trial
            = literalTrial({ QStringLiteral("TIME"), QStringLiteral("PAPI_FP_INS") }, { { { 2, 2 }, { 4, 4 } } });
        AlgebraResult r = deriveMetric(*trial, QStringLiteral("X = TIME / PAPI_FP_OPS"));
        QVERIFY(!r);
        QCOMPARE(r.error(),
            QStringLiteral("derive: column 12: unknown metric 'PAPI_FP_OPS' (the trial has: TIME, PAPI_FP_INS)"));
        r = deriveMetric(*trial, QStringLiteral("TIME = PAPI_FP_INS * 2"));
        QVERIFY(!r);
        QVERIFY2(r.error().contains(QStringLiteral("name collision: the trial already has a metric 'TIME'")),
            qPrintable(r.error()));
        r = deriveMetric(*trial, QStringLiteral("X = (TIME"));
        QVERIFY(!r);
        QCOMPARE(r.error(),
            QStringLiteral(
                "derive: column 10: expected ')' to close the '(' at column 5 but found the end of the expression"));
        r = deriveMetric(*trial, QStringLiteral("X ="));
        QVERIFY(!r);
        QVERIFY2(r.error().contains(QStringLiteral("empty expression")), qPrintable(r.error()));
        // Several definitions: forward references are fine, cycles and duplicates are not.
        std::vector<DerivedMetricDefinition> defs(2);
        defs[0].name = QStringLiteral("B");
        defs[0].expression = QStringLiteral("A * 2");
        defs[1].name = QStringLiteral("A");
        defs[1].expression = QStringLiteral("TIME / 1000");
        r = deriveMetrics(*trial, defs);
        QVERIFY2(r, qPrintable(r.error()));
        QCOMPARE(value(*r.trial(), QStringLiteral("B"), false), 0.004);
        QCOMPARE(r.trial()->metric(MetricId(2u)).name, QStringLiteral("B")); // the order given
        defs[1].expression = QStringLiteral("B + TIME");
        r = deriveMetrics(*trial, defs);
        QVERIFY(!r);
        QVERIFY2(r.error().contains(QStringLiteral("reference cycle: B -> A -> B")), qPrintable(r.error()));
        defs[1].name = QStringLiteral("B");
        defs[1].expression = QStringLiteral("TIME");
        r = deriveMetrics(*trial, defs);
        QVERIFY(!r);
        QVERIFY2(r.error().contains(QStringLiteral("'B' is defined twice")), qPrintable(r.error()));
        QVERIFY(!deriveMetric(*trial, QStringLiteral("S = S + 1")));
    }

    void definitionFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("metrics.txt"));
        writeText(path,
            "# Derived metrics for the cpi sample\n"
            "\n"
            "\"TIME (ms)\" [ms] = TIME / 1000   # milliseconds\n"
            "PER_CALL = \"TIME (ms)\" * 1000 / 1\n"
            "   \"#hash\" = TIME - TIME  # a quoted # is part of the name\n");
        const TrialP trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        const AlgebraResult r = deriveMetricsFromFile(*trial, path);
        QVERIFY2(r, qPrintable(r.error()));
        const Trial& t = *r.trial();
        QCOMPARE(t.metricCount(), std::size_t(4));
        QCOMPARE(t.metric(MetricId(1u)).name, QStringLiteral("TIME (ms)"));
        QCOMPARE(t.metric(MetricId(1u)).unit, QStringLiteral("ms"));
        QCOMPARE(t.metric(MetricId(3u)).name, QStringLiteral("#hash"));
        QCOMPARE(value(t, QStringLiteral("TIME (ms)"), false, 0, QStringLiteral("MPI_File_open()")), 27.49);
        QCOMPARE(value(t, QStringLiteral("TIME (ms)"), true, 1, QStringLiteral(".TAU application")), 55.329);
        QCOMPARE(value(t, QStringLiteral("PER_CALL"), false, 0, QStringLiteral("MPI_File_open()")), 27490.0);
        QCOMPARE(value(t, QStringLiteral("#hash"), false, 2, QStringLiteral("MPI_File_open()")), 0.0);
        // Statistics come from the derived per-thread values.
        const Stat& s = TrialStatistics::of(t)->stat(
            t.findEvent(QStringLiteral("MPI_File_open()")), MetricId(1u), ValueKind::Exclusive);
        QVERIFY(same(s.meanAll, 27.1185));
        // Everything else is kept: events, threads, user events, metadata.
        QCOMPARE(t.eventCount(), trial->eventCount());
        QCOMPARE(t.threads(), trial->threads());
        QCOMPARE(t.atomicEventCount(), trial->atomicEventCount());
        QCOMPARE(t.metadataValue(QStringLiteral("TAU_CALLPATH_DEPTH")),
            trial->metadataValue(QStringLiteral("TAU_CALLPATH_DEPTH")));
        QVERIFY(t.eventInGroup(t.findEvent(QStringLiteral("MPI_Init()")), QStringLiteral("MPI")));

        // An error names the file and the line.
        writeText(path, "OK = TIME * 2\n# comment\nBAD = TIME * / 2\n");
        const AlgebraResult bad = deriveMetricsFromFile(*trial, path);
        QVERIFY(!bad);
        QCOMPARE(bad.error(),
            path + QStringLiteral(": line 3, column 14: expected a metric name, a number or '(' but found '/'"));
        writeText(path, "OK = TIME * 2\nX = NOPE + 1\n");
        const AlgebraResult unknown = deriveMetricsFromFile(*trial, path);
        QVERIFY(!unknown);
        QVERIFY2(unknown.error().contains(QStringLiteral("line 2, column 5: unknown metric 'NOPE'")),
            qPrintable(unknown.error()));
        QVERIFY(!deriveMetricsFromFile(*trial, dir.filePath(QStringLiteral("missing.txt"))));
    }

    void derivedOnAlgebraResult()
    {
        // A derived metric on a diff keeps the diff's presence markers; PARAPROF clamps the
        // negative differences to 0 while IEEE keeps them.
        const TrialP trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QVERIFY(trial);
        TrialBuilder b(QStringLiteral("small"));
        b.addMetric({ QStringLiteral("TIME"), QStringLiteral("us") });
        const double v[] = { 1000 };
        b.addInterval(b.addThread({ 0, 0, 0 }), b.addEvent(QStringLiteral("MPI_File_open()")), 1, 0, v, v);
        const TrialP small = b.build();
        const AlgebraResult d = difference(*trial, *small);
        QVERIFY2(d, qPrintable(d.error()));
        const AlgebraResult ieee = deriveMetric(*d.trial(), QStringLiteral("MS = TIME / 1000"));
        QVERIFY(ieee);
        QCOMPARE(value(*ieee.trial(), QStringLiteral("MS"), false, 0, QStringLiteral("MPI_File_open()")), 26.49);
        const auto presence = Presence::of(*ieee.trial());
        QCOMPARE(presence->operandCount(), std::size_t(2));
        QCOMPARE(
            presence->eventMarker(ieee.trial()->findEvent(QStringLiteral("MPI_Init()"))), Presence::Marker::LeftOnly);
        QCOMPARE(presence->threadMask(ThreadIndex(1u)), Presence::Mask(1));
        const AlgebraResult neg = deriveMetric(*d.trial(), QStringLiteral("N = 0 - TIME"), DerivedMode::ParaProf);
        QVERIFY(neg);
        QCOMPARE(value(*neg.trial(), QStringLiteral("N"), false, 0, QStringLiteral("MPI_File_open()")), 0.0);
        const AlgebraResult negIeee = deriveMetric(*d.trial(), QStringLiteral("N = 0 - TIME"));
        QCOMPARE(value(*negIeee.trial(), QStringLiteral("N"), false, 0, QStringLiteral("MPI_File_open()")), -26490.0);
    }

    void realMultiMetric()
    {
        // The multi-metric sample (xgc, 16 ranks, 5 PAPI counters) is a ParaProf packed file.
        const auto result = load(dataPath(QStringLiteral("tau2/ppk/xgc-5metrics-16rank.ppk")));
        QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().toString()));
        const TrialP trial = result.value();
        const MetricId fp = trial->findMetric(QStringLiteral("PAPI_FP_INS"));
        const MetricId cyc = trial->findMetric(QStringLiteral("PAPI_TOT_CYC"));
        QVERIFY(fp.isValid() && cyc.isValid());
        const AlgebraResult r = deriveMetric(*trial, QStringLiteral("FPC = PAPI_FP_INS / PAPI_TOT_CYC"));
        QVERIFY2(r, qPrintable(r.error()));
        const Trial& t = *r.trial();
        const MetricId fpc = t.findMetric(QStringLiteral("FPC"));
        std::size_t checked = 0;
        for (std::size_t th = 0; th < t.threadCount(); ++th) {
            const RowView row = t.row(ThreadIndex(th));
            for (std::size_t i = 0; i < row.size(); ++i) {
                QVERIFY(
                    same(row.exclusive(fpc.index(), i), row.exclusive(fp.index(), i) / row.exclusive(cyc.index(), i)));
                QVERIFY(
                    same(row.inclusive(fpc.index(), i), row.inclusive(fp.index(), i) / row.inclusive(cyc.index(), i)));
                ++checked;
            }
        }
        QCOMPARE(checked, trial->cellCount());
        // Statistics come from the per-thread ratios: the mean over threads of FPC, computed here.
        const auto stats = TrialStatistics::of(t);
        const EventId top = t.row(ThreadIndex(0u)).events.front();
        double sum = 0;
        for (std::size_t th = 0; th < t.threadCount(); ++th) {
            const RowView row = t.row(ThreadIndex(th));
            const auto i = row.find(top);
            if (i >= 0)
                sum += row.exclusive(fpc.index(), static_cast<std::size_t>(i));
        }
        QVERIFY(same(stats->stat(top, fpc, ValueKind::Exclusive).meanAll, sum / static_cast<double>(t.threadCount())));
        QVERIFY(t.metric(fpc).derived);
    }
};

QTEST_GUILESS_MAIN(TestDerived)
#include "tst_derived.moc"
