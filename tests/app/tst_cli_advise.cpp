// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// `parallax-cli advise` (issue 20 §2): the worked example of docs/SEMANTICS.md 7.2 written as TAU
// profiles and advised, the files it writes parsed back (and merged), --rules, the thresholds as
// options, the overhead against a baseline, the real samples, and the usage errors.
#include "algebra/advisor.h"
#include "algebra/instrumentationfiles.h"
#include "datasource/writers/tauwriter.h"
#include "tests/common/advisorexample.h"
#include "tests/common/clirunner.h"
#include "tests/common/testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace parallax;
using namespace parallax::test;

namespace {

/// SEMANTICS 7.2's example plus main, a throttled event and a call path, as TAU profiles. `scale`
/// multiplies qux's and main's time (a "full" run against a "selective" baseline).
QString writeExample(const QString& dir, double scale = 1)
{
    std::vector<AdvisorCell> cells = workedExampleCells(scale, QStringLiteral("int qux(int) C [{qux.c} {3,1}-{9,1}]"));
    cells.push_back(mainCell(scale));
    cells.push_back({ QStringLiteral("tiny [THROTTLED]"), { 100, 100 }, { 10, 10 } });
    cells.push_back(
        { QStringLiteral("main => bar"), { 150000, 150000 }, { 3.0e6, 3.0e6 }, { QStringLiteral("TAU_CALLPATH") } });
    const QString error = TauWriter::write(*advisorTrial(cells, QStringLiteral("example")), dir);
    if (!error.isEmpty())
        qWarning("%s", qPrintable(error));
    return dir;
}

QJsonObject runJson(const QStringList& args)
{
    const CliRun r = runCli(QStringList { QStringLiteral("advise") } + args + QStringList { QStringLiteral("--json") });
    if (r.exitCode != 0)
        qWarning("%s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

QStringList names(const QJsonObject& doc)
{
    QStringList out;
    for (const QJsonValue s : doc.value(QLatin1String("suggestions")).toArray())
        out << s.toObject().value(QLatin1String("name")).toString();
    return out;
}

QString readText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestCliAdvise : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void workedExampleAndFiles()
    {
        QTemporaryDir tmp;
        const QString dir = writeExample(tmp.filePath(QStringLiteral("full")));
        const QString tau = tmp.filePath(QStringLiteral("select.tau"));
        const QString filt = tmp.filePath(QStringLiteral("scorep.filt"));
        const QJsonObject doc
            = runJson({ dir, QStringLiteral("--tau-select"), tau, QStringLiteral("--scorep-filter"), filt });
        // qux at the ≥ boundary (lightweight), tiny always (throttled); foo only under --present-only.
        QCOMPARE(names(doc), (QStringList { QStringLiteral("int qux(int) C"), QStringLiteral("tiny") }));
        const QJsonArray s = doc.value(QLatin1String("suggestions")).toArray();
        QCOMPARE(s[0].toObject().value(QLatin1String("meanCalls")).toDouble(), 100000.0);
        QCOMPARE(s[0].toObject().value(QLatin1String("usPerCall")).toDouble(), 5.0);
        QCOMPARE(
            s[1].toObject().value(QLatin1String("reasons")).toArray().first().toString(), QStringLiteral("throttled"));
        QCOMPARE(doc.value(QLatin1String("throttled")).toArray().size(), 1);
        // 7 regions written: 6 flat + the call path; 6 flat regions → 24 bytes a visit.
        const QJsonObject trace = doc.value(QLatin1String("trace")).toObject();
        QCOMPARE(trace.value(QLatin1String("regions")).toInt(), 6);
        QCOMPARE(trace.value(QLatin1String("bytesPerVisit")).toDouble(), 24.0);
        const double visits = 2 + 300000 + 100000 + 180000 + 200000 + 200;
        QCOMPARE(trace.value(QLatin1String("totalBefore")).toDouble(), visits * 24);
        QCOMPARE(trace.value(QLatin1String("totalAfter")).toDouble(), (visits - 200000 - 200) * 24);

        // The TAU file as SEMANTICS 7.2 prints it, parsed back.
        const QString tauText = readText(tau);
        QCOMPARE(tauText, QStringLiteral("\nBEGIN_EXCLUDE_LIST\nint qux(int) C\ntiny\nEND_EXCLUDE_LIST\n"));
        QString error;
        QCOMPARE(parseTauSelectFile(tauText, &error).exclude,
            (QStringList { QStringLiteral("int qux(int) C"), QStringLiteral("tiny") }));
        QVERIFY(error.isEmpty());
        // The Score-P filter parsed back excludes what Score-P would call these regions, nothing else.
        const ScorepFilter f = parseScorepFilter(readText(filt), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (const char* name : { "qux", "int qux(int)", "qux(int)", "tiny" })
            QVERIFY2(scorepFilterExcludes(f, QString::fromLatin1(name)), name);
        for (const char* name : { "bar", "main", "quxx", "foo" })
            QVERIFY2(!scorepFilterExcludes(f, QString::fromLatin1(name)), name);

        // --present-only adds foo; thresholds as options (N = 150000, X = 20 → bar).
        QCOMPARE(names(runJson({ dir, QStringLiteral("--present-only") })),
            (QStringList { QStringLiteral("foo"), QStringLiteral("int qux(int) C"), QStringLiteral("tiny") }));
        QCOMPARE(names(runJson({ dir, QStringLiteral("--min-calls"), QStringLiteral("150000"),
                     QStringLiteral("--max-us-per-call"), QStringLiteral("20") })),
            (QStringList { QStringLiteral("bar"), QStringLiteral("tiny") }));

        // --merge keeps the user's file and appends what is new; --rules reads its lists.
        const QString mine = tmp.filePath(QStringLiteral("mine.tau"));
        writeText(mine,
            "BEGIN_EXCLUDE_LIST\nbaz\ntiny\nEND_EXCLUDE_LIST\nBEGIN_INCLUDE_LIST\nint qux(int) C\nEND_INCLUDE_LIST\n");
        const QByteArray before = readText(mine).toUtf8();
        const CliRun merged = runCli(
            { QStringLiteral("advise"), dir, QStringLiteral("--tau-select"), mine, QStringLiteral("--merge") });
        QCOMPARE(merged.exitCode, 0);
        QVERIFY(merged.err.contains("includes 'int qux(int) C'"));
        QCOMPARE(readText(mine).toUtf8(), before); // qux is included, tiny already excluded: nothing new
        const QJsonObject withRules = runJson({ dir, QStringLiteral("--rules"), mine });
        QCOMPARE(names(withRules), (QStringList { QStringLiteral("baz"), QStringLiteral("tiny") }));
        QCOMPARE(withRules.value(QLatin1String("kept")).toArray().first().toString(), QStringLiteral("int qux(int) C"));
        // A Score-P filter as rules: the flat events it excludes are added.
        const QString rulesFilt = tmp.filePath(QStringLiteral("rules.filt"));
        writeText(rulesFilt, "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE ba*\nSCOREP_REGION_NAMES_END\n");
        QCOMPARE(names(runJson({ dir, QStringLiteral("--rules"), rulesFilt })),
            (QStringList { QStringLiteral("bar"), QStringLiteral("baz"), QStringLiteral("int qux(int) C"),
                QStringLiteral("tiny") }));
        // File rules: the events located in the file (a CUBE region's mod, cubelib test0.0's MANIFEST:
        // main, foo and bar in /ICL/CUBE/example.c) are excluded; the Score-P form matches the recorded path.
        const QString cube = dataPath(QStringLiteral("cubelib/test/test0.0/test0.0.cubex"));
        const QString fileRules = tmp.filePath(QStringLiteral("files.tau"));
        writeText(fileRules, "BEGIN_FILE_EXCLUDE_LIST\nexample.c\nEND_FILE_EXCLUDE_LIST\n");
        const QStringList all { QStringLiteral("bar"), QStringLiteral("foo"), QStringLiteral("main") };
        const auto sorted = [](QStringList list) {
            list.sort();
            return list;
        };
        QCOMPARE(sorted(names(runJson({ cube, QStringLiteral("--rules"), fileRules }))), all);
        writeText(fileRules, "BEGIN_FILE_INCLUDE_LIST\nother.c\nEND_FILE_INCLUDE_LIST\n");
        QCOMPARE(sorted(names(runJson({ cube, QStringLiteral("--rules"), fileRules }))), all);
        writeText(fileRules, "BEGIN_FILE_EXCLUDE_LIST\nother*.c\nEND_FILE_EXCLUDE_LIST\n");
        QVERIFY(!names(runJson({ cube, QStringLiteral("--rules"), fileRules })).contains(QStringLiteral("foo")));
        const QString fileFilter = tmp.filePath(QStringLiteral("files.filt"));
        writeText(fileFilter, "SCOREP_FILE_NAMES_BEGIN\n  EXCLUDE */CUBE/*.c\nSCOREP_FILE_NAMES_END\n");
        QCOMPARE(sorted(names(runJson({ cube, QStringLiteral("--rules"), fileFilter }))), all);
        // --exclude adds a routine.
        QCOMPARE(names(runJson({ dir, QStringLiteral("--exclude"), QStringLiteral("main") })).size(), 3);
    }

    void overheadAgainstBaseline()
    {
        QTemporaryDir tmp;
        const QString full = writeExample(tmp.filePath(QStringLiteral("full")), 1.5);
        const QString base = writeExample(tmp.filePath(QStringLiteral("base")), 1.0);
        const QJsonObject doc = runJson({ full, QStringLiteral("--baseline"), base });
        const QJsonObject o = doc.value(QLatin1String("overhead")).toObject();
        QCOMPARE(o.value(QLatin1String("total")).toDouble(), 0.5); // main 1.5e7 against 1e7
        QCOMPARE(o.value(QLatin1String("totalInstrumented")).toDouble(), 1.5e7);
        bool sawQux = false;
        for (const QJsonValue v : o.value(QLatin1String("regions")).toArray()) {
            const QJsonObject r = v.toObject();
            const QString name = r.value(QLatin1String("name")).toString();
            const double expected
                = name == QLatin1String("main") || name.startsWith(QLatin1String("int qux")) ? 0.5 : 0.0;
            QCOMPARE(r.value(QLatin1String("overhead")).toDouble(), expected);
            sawQux = sawQux || name.startsWith(QLatin1String("int qux"));
        }
        QVERIFY(sawQux);
        // Same calls in both runs: the per-call cost is unknown (null), so is the time saved.
        QVERIFY(o.value(QLatin1String("usPerCall")).isNull());
        // Given a per-call cost: qux's 200000 visits over 2 threads × 0.25 µs.
        const QJsonObject cost = runJson({ full, QStringLiteral("--call-overhead-us"), QStringLiteral("0.25") });
        QCOMPARE(cost.value(QLatin1String("suggestions"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QLatin1String("timeSavedUs"))
                     .toDouble(),
            25000.0);
        // The text form names the pairs.
        const CliRun text = runCli({ QStringLiteral("advise"), full, QStringLiteral("--baseline"), base });
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("Overhead against"));
        QVERIFY(text.out.contains("+50.0 %"));
    }

    void realSample()
    {
        // The cpi sample records TAU's throttle settings; nothing is lightweight at the defaults.
        const QJsonObject doc = runJson({ dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")) });
        const QJsonObject th = doc.value(QLatin1String("throttle")).toObject();
        QCOMPARE(th.value(QLatin1String("TAU_THROTTLE")).toString(), QStringLiteral("on"));
        QCOMPARE(th.value(QLatin1String("TAU_THROTTLE_NUMCALLS")).toString(), QStringLiteral("100000"));
        QCOMPARE(th.value(QLatin1String("TAU_THROTTLE_PERCALL")).toString(), QStringLiteral("10"));
        QVERIFY(names(doc).isEmpty());
        QCOMPARE(doc.value(QLatin1String("threads")).toInt(), 4);
        // A CUBE profile from Score-P (time in seconds, visits as calls): at the defaults nothing is
        // lightweight; with X = 50 µs "iteration" (about 45 µs a visit) is, "main" (about 50.5) is not.
        const QString cubePath = dataPath(QStringLiteral("tau2/cube-scorep-cpi/profile.cubex"));
        QVERIFY(names(runJson({ cubePath })).isEmpty());
        const QJsonObject cube = runJson({ cubePath, QStringLiteral("--max-us-per-call"), QStringLiteral("50") });
        QCOMPARE(names(cube), QStringList { QStringLiteral("iteration") });
        const auto trial = mustLoad(cubePath);
        QVERIFY(trial);
        const EventId it = trial->findEvent(QStringLiteral("iteration"));
        QVERIFY(it.isValid());
        double visits = 0;
        for (std::size_t t = 0; t < trial->threadCount(); ++t) {
            const RowView row = trial->row(ThreadIndex(static_cast<std::uint32_t>(t)));
            if (const auto i = row.find(it); i >= 0)
                visits += row.calls[static_cast<std::size_t>(i)];
        }
        const QJsonObject s = cube.value(QLatin1String("suggestions")).toArray().first().toObject();
        QCOMPARE(s.value(QLatin1String("visits")).toDouble(), visits);
        const QJsonObject trace = cube.value(QLatin1String("trace")).toObject();
        QCOMPARE(
            trace.value(QLatin1String("totalBefore")).toDouble() - trace.value(QLatin1String("totalAfter")).toDouble(),
            visits * 24);
        const double perCall = s.value(QLatin1String("usPerCall")).toDouble();
        QVERIFY2(perCall > 10 && perCall <= 50, qPrintable(QString::number(perCall)));
    }

    void usageErrors()
    {
        QCOMPARE(runCli({ QStringLiteral("advise") }).exitCode, 2);
        QCOMPARE(runCli({ QStringLiteral("advise"), QStringLiteral("x"), QStringLiteral("--merge") }).exitCode, 2);
        QCOMPARE(runCli({ QStringLiteral("advise"), QStringLiteral("x"), QStringLiteral("--min-calls"),
                            QStringLiteral("-3") })
                     .exitCode,
            2);
        QCOMPARE(runCli({ QStringLiteral("advise"), QStringLiteral("/nonexistent/trial") }).exitCode, 1);
        QTemporaryDir tmp;
        const QString dir = writeExample(tmp.filePath(QStringLiteral("t")));
        const QString bad = tmp.filePath(QStringLiteral("bad.tau"));
        writeText(bad, "BEGIN_EXCLUDE_LIST\nfoo\n");
        const CliRun r = runCli({ QStringLiteral("advise"), dir, QStringLiteral("--rules"), bad });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("not closed"));
    }
};

QTEST_GUILESS_MAIN(TestCliAdvise)
#include "tst_cli_advise.moc"
