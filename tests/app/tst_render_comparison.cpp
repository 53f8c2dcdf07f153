// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The headless renderer of the comparison views (parallax --compare A B --render compare-NAME and
// parallax --scaling A B --render scaling): every view of real trials becomes a non-blank image of
// the requested size, without a display server.
#include "datasource/writers/tauwriter.h"
#include "tests/app/guirun.h"
#include "tests/common/nightlyruns.h"
#include "tests/common/testutil.h"

#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <random>

using namespace parallax::test;

namespace {

/// Two runs made of the cpi ranks 0 and 1, each as a one-thread TAU profile directory.
QStringList cpiRuns(const QTemporaryDir& dir)
{
    const QString source = dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"));
    QStringList runs;
    for (int rank : { 0, 1 }) {
        const QString run = dir.filePath(QStringLiteral("cpi-rank%1").arg(rank));
        QDir().mkpath(run);
        QFile::copy(source + QStringLiteral("/profile.%1.0.0").arg(rank), run + QStringLiteral("/profile.0.0.0"));
        runs << run;
    }
    return runs;
}

/// Twenty nightly runs (tests/common/nightlyruns.h) as TAU profile directories, with metadata Date.
QStringList nightlyRuns(const QTemporaryDir& dir)
{
    std::mt19937_64 random(7);
    QStringList runs;
    for (int night = 1; night <= 20; ++night) {
        const QString run = dir.filePath(QStringLiteral("night%1").arg(night));
        QDir().mkpath(run);
        if (parallax::TauWriter::write(*nightlyTrial(night, random), run).isEmpty())
            runs << run;
    }
    return runs;
}

} // namespace

class TestRenderComparison : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void views_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("view");
        QTest::addColumn<int>("minColours");
        QTest::newRow("sidebyside") << QStringLiteral("--compare") << QStringLiteral("compare-sidebyside") << 8;
        QTest::newRow("signed") << QStringLiteral("--compare") << QStringLiteral("compare-signed") << 8;
        QTest::newRow("tree") << QStringLiteral("--compare") << QStringLiteral("compare-tree") << 8;
        QTest::newRow("callgraph") << QStringLiteral("--compare") << QStringLiteral("compare-callgraph") << 8;
        QTest::newRow("flame") << QStringLiteral("--compare") << QStringLiteral("compare-flame") << 8;
        QTest::newRow("flame-stacked") << QStringLiteral("--compare") << QStringLiteral("compare-flame-stacked") << 8;
        // The view's argument (the routine) comes first, then A and B.
        QTest::newRow("sandwich") << QStringLiteral("--compare") << QStringLiteral("compare-sandwich MPI_Init()") << 8;
        QTest::newRow("summary") << QStringLiteral("--compare") << QStringLiteral("compare-summary") << 8;
        QTest::newRow("scaling") << QStringLiteral("--scaling") << QStringLiteral("scaling") << 8;
        QTest::newRow("history") << QStringLiteral("--history") << QStringLiteral("history") << 8;
        // The models per call path of LULESH at 27…343 ranks (Caliper).
        QTest::newRow("scaling-models") << QStringLiteral("--scaling") << QStringLiteral("scaling-models") << 8;
        QTest::newRow("scaling-models-flame")
            << QStringLiteral("--scaling") << QStringLiteral("scaling-models-flame") << 4;
    }

    void views()
    {
        QFETCH(QString, mode);
        QFETCH(QString, view);
        QFETCH(int, minColours);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("view.png"));
        QStringList arguments { mode };
        const QString argument = view.section(QLatin1Char(' '), 1);
        view = view.section(QLatin1Char(' '), 0, 0);
        if (!argument.isEmpty())
            arguments << argument;
        if (mode == QLatin1String("--compare"))
            arguments << cpiRuns(dir);
        else if (mode == QLatin1String("--history"))
            arguments << QStringLiteral("--order-by") << QStringLiteral("Date") << nightlyRuns(dir);
        else if (view.startsWith(QLatin1String("scaling-models")))
            for (const char* n : { "27", "64", "125", "216", "343" })
                arguments << dataPath(QStringLiteral("thicket/mpi_scaling_cali/%1_cores.cali").arg(QLatin1String(n)));
        else
            arguments << dataPath(QStringLiteral("tau2/ppk/ring-8rank.ppk"))
                      << dataPath(QStringLiteral("tau2/ppk/ring-2rank.ppk"));
        arguments << QStringLiteral("--render") << view << QStringLiteral("--out") << out << QStringLiteral("--size")
                  << QStringLiteral("900x600");
        const GuiRun r = runGui(arguments);
        QVERIFY2(r.code == 0, r.err.constData());
        const QString problem = renderedImageProblem(out, QSize(900, 600), minColours);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void errorsAreReported()
    {
        QTemporaryDir dir;
        const QStringList runs = cpiRuns(dir);
        auto run = [](const QStringList& arguments) {
            const GuiRun r = runGui(arguments);
            return std::make_pair(r.code, r.err);
        };
        const QString out = dir.filePath(QStringLiteral("x.png"));
        auto [code, err] = run({ QStringLiteral("--compare"), runs[0], QStringLiteral("--render"),
            QStringLiteral("compare-summary"), QStringLiteral("--out"), out });
        QCOMPARE(code, 2);
        QVERIFY(err.contains("--compare needs two trials"));
        std::tie(code, err) = run({ QStringLiteral("--compare"), runs[0], runs[1], QStringLiteral("--render"),
            QStringLiteral("compare-nothing"), QStringLiteral("--out"), out });
        QCOMPARE(code, 2);
        QVERIFY(err.contains("unknown view 'compare-nothing'"));
        std::tie(code, err) = run({ QStringLiteral("--compare"), runs[0], dir.filePath(QStringLiteral("missing")),
            QStringLiteral("--render"), QStringLiteral("compare-summary"), QStringLiteral("--out"), out });
        QCOMPARE(code, 1);
        QVERIFY(err.contains("missing"));
        // A sandwich of a routine neither run calls, and one without its routine.
        std::tie(code, err) = run({ QStringLiteral("--compare"), QStringLiteral("no_such_routine"), runs[0], runs[1],
            QStringLiteral("--render"), QStringLiteral("compare-sandwich"), QStringLiteral("--out"), out });
        QCOMPARE(code, 1);
        QVERIFY2(err.contains("no routine named 'no_such_routine' in the call paths of either run"), err.constData());
        std::tie(code, err) = run({ QStringLiteral("--compare"), QStringLiteral("--render"),
            QStringLiteral("compare-sandwich"), QStringLiteral("--out"), out });
        QCOMPARE(code, 2);
        QVERIFY2(err.contains("needs its argument"), err.constData());
        // The history: without its order, and ordered by a key the runs do not have.
        std::tie(code, err) = run({ QStringLiteral("--history"), runs[0], runs[1], QStringLiteral("--render"),
            QStringLiteral("history"), QStringLiteral("--out"), out });
        QCOMPARE(code, 2);
        QVERIFY2(err.contains("--history needs --order-by KEY"), err.constData());
        std::tie(code, err) = run({ QStringLiteral("--history"), QStringLiteral("--order-by"), QStringLiteral("Build"),
            runs[0], runs[1], QStringLiteral("--render"), QStringLiteral("history"), QStringLiteral("--out"), out });
        QCOMPARE(code, 1);
        QVERIFY2(err.contains("has no metadata 'Build' to order it by"), err.constData());
        // Models over runs whose parameter does not vary: the reason, not an image.
        const QString ring = dataPath(QStringLiteral("tau2/ppk/ring-2rank.ppk"));
        std::tie(code, err) = run({ QStringLiteral("--scaling"), ring, ring, QStringLiteral("--render"),
            QStringLiteral("scaling-models"), QStringLiteral("--out"), out });
        QCOMPARE(code, 1);
        QVERIFY2(err.contains("nothing scales"), err.constData());
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_GUILESS_MAIN(TestRenderComparison)
#include "tst_render_comparison.moc"
