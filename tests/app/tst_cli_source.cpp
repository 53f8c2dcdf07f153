// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// `parallax-cli source` (issue 20 §1): the per-line costs against the statistics kernel, finding
// the file through the trial's directory, --root and --remap, the annotated listing, the errors.
#include "algebra/sourcecost.h"
#include "tests/common/clirunner.h"
#include "tests/common/testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <tuple>

using namespace parallax;
using namespace parallax::test;

namespace {

const QString WrapDir = dataPath(QStringLiteral("tau2/tau-profiles-wrap-params"));

QJsonObject runJson(const QStringList& args)
{
    const CliRun run = runCli(args);
    if (run.exitCode != 0)
        qWarning("%s", run.err.constData());
    return QJsonDocument::fromJson(run.out).object();
}

} // namespace

class TestCliSource : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void costsAreTheStatistics()
    {
        const auto trial = mustLoad(WrapDir);
        QVERIFY(trial);
        const auto stats = TrialStatistics::of(*trial);
        for (const auto& [name, statistic] : { std::pair { "mean", Statistic::MeanAll },
                 std::pair { "total", Statistic::Total }, std::pair { "max", Statistic::Max } }) {
            const QJsonObject out = runJson({ QStringLiteral("source"), WrapDir, QStringLiteral("--file"),
                QStringLiteral("wb.c"), QStringLiteral("--statistic"), QLatin1String(name), QStringLiteral("--json") });
            QCOMPARE(out.value(QStringLiteral("path")).toString(), QDir(WrapDir).filePath(QStringLiteral("wb.c")));
            const QJsonArray events = out.value(QStringLiteral("events")).toArray();
            QCOMPARE(events.size(), 4);
            for (const auto& v : events) {
                const QJsonObject e = v.toObject();
                const EventId id = trial->findEvent(e.value(QStringLiteral("event")).toString());
                QVERIFY(id.isValid());
                QCOMPARE(e.value(QStringLiteral("exclusive")).toDouble(),
                    *statisticValue(*trial, *stats, id, MetricId(0u), ValueType::Exclusive, statistic));
                QCOMPARE(e.value(QStringLiteral("inclusive")).toDouble(),
                    *statisticValue(*trial, *stats, id, MetricId(0u), ValueType::Inclusive, statistic));
                QCOMPARE(e.value(QStringLiteral("location")).toObject().value(QStringLiteral("beginLine")).toInt(), 5);
                QCOMPARE(e.value(QStringLiteral("location")).toObject().value(QStringLiteral("endLine")).toInt(), 11);
            }
        }
    }

    // A CUBE profile's regions (mod/begin/end, not their names): cubelib test0.0 (MANIFEST: main, foo,
    // bar in /ICL/CUBE/example.c at lines 21-100, 1-10, 11-20; exclusive Time main [4, 0], foo [5, 9]).
    void cubeRegions()
    {
        const QString cube = dataPath(QStringLiteral("cubelib/test/test0.0/test0.0.cubex"));
        const QJsonArray files
            = runJson({ QStringLiteral("source"), cube, QStringLiteral("--list"), QStringLiteral("--json") })
                  .value(QStringLiteral("files"))
                  .toArray();
        QCOMPARE(files.size(), 1);
        QCOMPARE(files[0].toObject().value(QStringLiteral("file")).toString(), QStringLiteral("/ICL/CUBE/example.c"));
        QCOMPARE(files[0].toObject().value(QStringLiteral("events")).toInt(), 3);

        QTemporaryDir tmp;
        QByteArray text;
        for (int line = 1; line <= 100; ++line)
            text += "/* line " + QByteArray::number(line) + " */\n";
        writeText(tmp.filePath(QStringLiteral("example.c")), text);
        const QJsonObject out = runJson({ QStringLiteral("source"), cube, QStringLiteral("--file"),
            QStringLiteral("example.c"), QStringLiteral("--remap"), QStringLiteral("/ICL/CUBE=") + tmp.path(),
            QStringLiteral("--statistic"), QStringLiteral("total"), QStringLiteral("--json") });
        QCOMPARE(out.value(QStringLiteral("path")).toString(), tmp.filePath(QStringLiteral("example.c")));
        const QJsonArray events = out.value(QStringLiteral("events")).toArray();
        QCOMPARE(events.size(), 3);
        const std::map<QString, std::tuple<int, int, double>> expected { { QStringLiteral("foo"), { 1, 10, 5 + 9 } },
            { QStringLiteral("bar"), { 11, 20, 0 } }, { QStringLiteral("main"), { 21, 100, 4 + 0 } } };
        for (const auto& v : events) {
            const QJsonObject e = v.toObject();
            const auto it = expected.find(e.value(QStringLiteral("event")).toString());
            QVERIFY(it != expected.end());
            const auto& [begin, end, exclusive] = it->second;
            QCOMPARE(e.value(QStringLiteral("location")).toObject().value(QStringLiteral("beginLine")).toInt(), begin);
            QCOMPARE(e.value(QStringLiteral("location")).toObject().value(QStringLiteral("endLine")).toInt(), end);
            QCOMPARE(e.value(QStringLiteral("exclusive")).toDouble(), exclusive);
        }
    }

    void listAndAnnotate()
    {
        const CliRun list = runCli({ QStringLiteral("source"), WrapDir, QStringLiteral("--list") });
        QCOMPARE(list.exitCode, 0);
        QCOMPARE(list.out, QByteArray("1\tfoo.c\n1\tmain.c\n4\twb.c\n"));
        const CliRun annotated = runCli({ QStringLiteral("source"), WrapDir, QStringLiteral("--event"),
            QStringLiteral("int foo(int) C [{foo.c} {3,1}-{7,1}]"), QStringLiteral("--statistic"),
            QStringLiteral("total"), QStringLiteral("--annotate") });
        QCOMPARE(annotated.exitCode, 0);
        const QStringList lines = QString::fromUtf8(annotated.out).split(QLatin1Char('\n'));
        // foo: 15 + 21 µs on the two ranks, at line 3 of foo.c ("int foo(int x)").
        const auto line3 = std::find_if(
            lines.begin(), lines.end(), [](const QString& l) { return l.trimmed().startsWith(QLatin1String("3 ")); });
        QVERIFY(line3 != lines.end());
        QVERIFY2(line3->contains(QLatin1String("36")) && line3->endsWith(QLatin1String("| int foo(int x)")),
            qPrintable(*line3));
    }

    // The profile alone in a directory: the file is found through --root, or an absolute recorded
    // path through --remap; else the paths tried are reported.
    void rootAndRemap()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString run = tmp.filePath(QStringLiteral("run"));
        QDir().mkpath(run);
        QVERIFY(QFile::copy(
            QDir(WrapDir).filePath(QStringLiteral("profile.0.0.0")), run + QStringLiteral("/profile.0.0.0")));
        const QStringList base { QStringLiteral("source"), run, QStringLiteral("--file"), QStringLiteral("main.c"),
            QStringLiteral("--json") };
        QJsonObject out = runJson(base);
        QCOMPARE(out.value(QStringLiteral("found")).toBool(), false);
        QCOMPARE(out.value(QStringLiteral("tried")).toArray().first().toString(), run + QStringLiteral("/main.c"));
        out = runJson(base + QStringList { QStringLiteral("--root"), WrapDir });
        QCOMPARE(out.value(QStringLiteral("path")).toString(), QDir(WrapDir).filePath(QStringLiteral("main.c")));

        // The sampling ppk records /home/users/khuck/src/tau2/examples/mm/matmult_initialize.c.
        writeText(tmp.filePath(QStringLiteral("mm/matmult_initialize.c")), QByteArray("void init(void)\n{\n}\n"));
        const QString ppk = dataPath(QStringLiteral("tau2/ppk/matmult-openmp-24thread-samples.ppk"));
        out = runJson({ QStringLiteral("source"), ppk, QStringLiteral("--file"),
            QStringLiteral("/home/users/khuck/src/tau2/examples/mm/matmult_initialize.c"), QStringLiteral("--remap"),
            QStringLiteral("/home/users/khuck/src/tau2/examples/mm=") + tmp.filePath(QStringLiteral("mm")),
            QStringLiteral("--json") });
        QCOMPARE(out.value(QStringLiteral("path")).toString(), tmp.filePath(QStringLiteral("mm/matmult_initialize.c")));
        QVERIFY(!out.value(QStringLiteral("events")).toArray().isEmpty());
    }

    void errors()
    {
        CliRun run
            = runCli({ QStringLiteral("source"), WrapDir, QStringLiteral("--event"), QStringLiteral("MPI_Init()") });
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("no source location"));
        run = runCli({ QStringLiteral("source"), WrapDir, QStringLiteral("--file"), QStringLiteral("nothere.c") });
        QCOMPARE(run.exitCode, 1);
        run = runCli({ QStringLiteral("source"), WrapDir });
        QCOMPARE(run.exitCode, 2);
        run = runCli({ QStringLiteral("source"), WrapDir, QStringLiteral("--list"), QStringLiteral("--remap"),
            QStringLiteral("nothing") });
        QCOMPARE(run.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliSource)
#include "tst_cli_source.moc"
