// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The headless renderer (parallax --render VIEW --out FILE), as the docs and CI use it: every view
// of a real trial becomes a non-blank image of the requested size, without a display server.
#include "app/gui/viewregistry.h"
#include "parallax_version.h"
#include "tests/app/guirun.h"
#include "tests/common/testutil.h"

#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>

using namespace parallax::test;

class TestRender : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void views_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("minColours");
        const QString cpi = dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"));
        auto row
            = [&](const char* name, QStringList args, int colours) { QTest::newRow(name) << (args << cpi) << colours; };
        row("overview", { QStringLiteral("--render"), QStringLiteral("overview") }, 8);
        row("table", { QStringLiteral("--render"), QStringLiteral("table") }, 4);
        row("tree", { QStringLiteral("--render"), QStringLiteral("tree") }, 4);
        row("callgraph", { QStringLiteral("--render"), QStringLiteral("callgraph") }, 6);
        row("flame", { QStringLiteral("--render"), QStringLiteral("flame") }, 6);
        row("icicle", { QStringLiteral("--render"), QStringLiteral("icicle") }, 6);
        row("sandwich", { QStringLiteral("--render"), QStringLiteral("sandwich"), QStringLiteral("MPI_Finalize()") },
            4);
        row("userevents", { QStringLiteral("--render"), QStringLiteral("userevents") }, 4);
        row("summary", { QStringLiteral("--render"), QStringLiteral("summary") }, 4);
        row("event", { QStringLiteral("--render"), QStringLiteral("event"), QStringLiteral("MPI_File_open()") }, 4);
        row("thread", { QStringLiteral("--render"), QStringLiteral("thread"), QStringLiteral("1,0,0") }, 6);
        row("histogram", { QStringLiteral("--render"), QStringLiteral("histogram"), QStringLiteral("MPI_File_open()") },
            4);
        row("topology", { QStringLiteral("--render"), QStringLiteral("topology") }, 4);
        row("distribution", { QStringLiteral("--render"), QStringLiteral("distribution") }, 4);
        row("clusters", { QStringLiteral("--render"), QStringLiteral("clusters") }, 6);
        row("correlation", { QStringLiteral("--render"), QStringLiteral("correlation") }, 6);
        row("timeseries", { QStringLiteral("--render"), QStringLiteral("timeseries") }, 6);
        row("advisor", { QStringLiteral("--render"), QStringLiteral("advisor") }, 4);
        row("advisor-baseline", { QStringLiteral("--render"), QStringLiteral("advisor"), cpi }, 4);
    }

    /// The OTF2 time line of a real trace: a PNG of the requested size with its regions' colours.
    void timelineOfATrace()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("timeline.png"));
        const GuiRun r = runGui({ QStringLiteral("--render"), QStringLiteral("timeline"), QStringLiteral("--out"), out,
            QStringLiteral("--size"), QStringLiteral("1000x500"),
            dataPath(QStringLiteral("otf2/pipit/ping-pong-otf2")) });
        QVERIFY2(r.code == 0, r.err.constData());
        const QString problem = renderedImageProblem(out, QSize(1000, 500), 6);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    /// The Clusters and Correlation views of a real trial with more ranks (WRF, 16 ranks): a PNG
    /// of the requested size with the clusters' and the heat map's colours.
    void clusterViewsOfManyRanks()
    {
        for (const char* view : { "clusters", "correlation" }) {
            QTemporaryDir dir;
            const QString out = dir.filePath(QStringLiteral("view.png"));
            const GuiRun r = runGui({ QStringLiteral("--render"), QLatin1String(view), QStringLiteral("--out"), out,
                QStringLiteral("--size"), QStringLiteral("1200x800"),
                dataPath(QStringLiteral("tau2/ppk/wrf-callpath-16rank.ppk")) });
            QVERIFY2(r.code == 0, r.err.constData());
            const QString problem = renderedImageProblem(out, QSize(1200, 800), 12);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
    }

    /// The source browser (issue 20 §1): the wrap example's profile alone in a directory, its
    /// sources found through --source-root; an event without a location is an error.
    void sourceBrowser()
    {
        QTemporaryDir dir;
        const QString wrap = dataPath(QStringLiteral("tau2/tau-profiles-wrap-params"));
        QVERIFY(QFile::copy(wrap + QStringLiteral("/profile.0.0.0"), dir.filePath(QStringLiteral("profile.0.0.0"))));
        const QString out = dir.filePath(QStringLiteral("source.png"));
        GuiRun r = runGui({ QStringLiteral("--render"), QStringLiteral("source"), QStringLiteral("--event"),
            QStringLiteral("int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]"), QStringLiteral("--source-root"), wrap,
            QStringLiteral("--out"), out, QStringLiteral("--size"), QStringLiteral("900x400"), dir.path() });
        QVERIFY2(r.code == 0, r.err.constData());
        const QString problem = renderedImageProblem(out, QSize(900, 400), 6);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        r = runGui({ QStringLiteral("--render"), QStringLiteral("source"), QStringLiteral("MPI_Init()"),
            QStringLiteral("--out"), out, dir.path() });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("has no source location"), r.err.constData());
    }

    /// The communication matrix (issue 20 §3) of the merged TAU XML sample: every quantity, one
    /// context; an unknown context and a bad quantity are errors.
    void commMatrix()
    {
        QTemporaryDir dir;
        const QString xml = dataPath(QStringLiteral("tau2/tauprofile-xml-merged/tauprofile.xml"));
        const QString out = dir.filePath(QStringLiteral("commmatrix.png"));
        for (const char* quantity : { "bytes", "messages", "mean" }) {
            const GuiRun r = runGui({ QStringLiteral("--render"), QStringLiteral("commmatrix"),
                QStringLiteral("--quantity"), QLatin1String(quantity), QStringLiteral("--context"),
                QStringLiteral("se halo tracers => MPI_Isend()"), QStringLiteral("--out"), out,
                QStringLiteral("--size"), QStringLiteral("1000x700"), xml });
            QVERIFY2(r.code == 0, r.err.constData());
            const QString problem = renderedImageProblem(out, QSize(1000, 700), 8);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        GuiRun r = runGui({ QStringLiteral("--render"), QStringLiteral("commmatrix"), QStringLiteral("--context"),
            QStringLiteral("nowhere"), QStringLiteral("--out"), out, xml });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("no message context 'nowhere'"), r.err.constData());
        r = runGui({ QStringLiteral("--render"), QStringLiteral("commmatrix"), QStringLiteral("--quantity"),
            QStringLiteral("volume"), QStringLiteral("--out"), out, xml });
        QCOMPARE(r.code, 1);
        r = runGui({ QStringLiteral("--render"), QStringLiteral("table"), QStringLiteral("--quantity"),
            QStringLiteral("mean"), QStringLiteral("--out"), out, xml });
        QCOMPARE(r.code, 2); // --quantity belongs to commmatrix
    }

    /// A Score-P profile: its regions' mod and begin lines (anchor.xml of pycubexr's time.p4 sample:
    /// main in BC_MPI_1728244556_966016.input.prep.opari.cpp at line 387, F_0 at 60, MODEL_1 at 329)
    /// open the source browser; the file is written here with those lines.
    void sourceBrowserScorep()
    {
        QTemporaryDir dir;
        QByteArray text;
        for (int line = 1; line <= 420; ++line) {
            if (line == 60)
                text += "template <typename T> void F_0(unsigned long n, unsigned long m)\n";
            else if (line == 329)
                text += "void MODEL_1(unsigned long a, unsigned long b, int c, int d)\n";
            else if (line == 387)
                text += "int main(int argc, char** argv)\n";
            else
                text += "    // line " + QByteArray::number(line) + "\n";
        }
        writeText(dir.filePath(QStringLiteral("BC_MPI_1728244556_966016.input.prep.opari.cpp")), text);
        const QString out = dir.filePath(QStringLiteral("source.png"));
        const GuiRun r = runGui({ QStringLiteral("--render"), QStringLiteral("source"), QStringLiteral("--event"),
            QStringLiteral("main"), QStringLiteral("--source-root"), dir.path(), QStringLiteral("--out"), out,
            QStringLiteral("--size"), QStringLiteral("900x400"),
            dataPath(QStringLiteral("cube/pycubexr/time.p4.n2000.x1.r0/profile.cubex")) });
        QVERIFY2(r.code == 0, r.err.constData());
        const QString problem = renderedImageProblem(out, QSize(900, 400), 6);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void views()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, minColours);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("view.png"));
        const GuiRun r = runGui(
            arguments << QStringLiteral("--out") << out << QStringLiteral("--size") << QStringLiteral("900x600"));
        QVERIFY2(r.code == 0, r.err.constData());
        const QString problem = renderedImageProblem(out, QSize(900, 600), minColours);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void errorsAreReported()
    {
        QTemporaryDir dir;
        const GuiRun r = runGui({ QStringLiteral("--render"), QStringLiteral("event"), QStringLiteral("NoSuchEvent"),
            QStringLiteral("--out"), dir.filePath(QStringLiteral("x.png")),
            dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")) });
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("no event named 'NoSuchEvent'"));
    }

    void svgAndPdf()
    {
        QTemporaryDir dir;
        for (const char* suffix : { "svg", "pdf" }) {
            const QString out = dir.filePath(QStringLiteral("overview.") + QLatin1String(suffix));
            const GuiRun r = runGui({ QStringLiteral("--render"), QStringLiteral("overview"), QStringLiteral("--out"),
                out, dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")) });
            QCOMPARE(r.code, 0);
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray head = f.read(8);
            QVERIFY(head.startsWith(suffix == std::string("svg") ? "<?xml" : "%PDF"));
        }
    }

    /// --help lists every view of the table the render dispatch uses, with its description, and
    /// works without a display; --version prints the version of project().
    void helpAndVersion()
    {
        const GuiRun r = runGui({ QStringLiteral("--help") }, false);
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("Usage: parallax [options] [PATH]\n"), r.out.constData());
        const QByteArray views = r.out.mid(r.out.indexOf("Views for --render"));
        QVERIFY(!views.isEmpty());
        int listed = 0;
        for (const QByteArray& line : views.split('\n'))
            listed += line.startsWith("  ") ? 1 : 0;
        QCOMPARE(listed, static_cast<int>(parallax::renderViews().size()));
        for (const parallax::RenderViewInfo& v : parallax::renderViews()) {
            QByteArray row = "  " + QByteArray(v.name);
            if (*v.argument)
                row += ' ' + QByteArray(v.argument);
            QVERIFY2(views.contains(QByteArray(row + ' ')), v.name);
            QVERIFY2(views.contains(QByteArray(v.description)), v.name);
        }
        QVERIFY(r.out.contains("Exit status: 0 success, 1 the work failed"));
        QCOMPARE(runGui({ QStringLiteral("-h") }, false).out, r.out);
        const GuiRun version = runGui({ QStringLiteral("--version") }, false);
        QCOMPARE(version.code, 0);
        QCOMPARE(version.out, QByteArray("parallax " PARALLAX_VERSION "\n"));
    }

    void renderViewNamesAreDispatched_data()
    {
        QTest::addColumn<QString>("name");
        for (const parallax::RenderViewInfo& v : parallax::renderViews())
            QTest::newRow(v.name) << QString::fromLatin1(v.name);
    }

    /// Every name of the table is accepted by the launch of its window (which then asks for
    /// --out), and refused with any other window's launch: the table is the dispatch.
    void renderViewNamesAreDispatched()
    {
        QFETCH(QString, name);
        const parallax::RenderViewInfo* info = parallax::findRenderView(name);
        QVERIFY(info);
        const QString cpi = dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"));
        const QMap<parallax::RenderWindow, QStringList> launches {
            { parallax::RenderWindow::Main, { cpi } },
            { parallax::RenderWindow::Compare, { QStringLiteral("--compare"), cpi, cpi } },
            { parallax::RenderWindow::Scaling, { QStringLiteral("--scaling"), cpi, cpi } },
            { parallax::RenderWindow::Semantic,
                { QStringLiteral("--semantic"), QStringLiteral("builtin:layer"), cpi } },
        };
        for (auto it = launches.cbegin(); it != launches.cend(); ++it) {
            QStringList args = it.value();
            args << QStringLiteral("--render") << name;
            if (*info->argument)
                args.prepend(QStringLiteral("x")); // the view's argument (the first positional)
            const GuiRun r = runGui(args);
            QCOMPARE(r.code, 2);
            if (it.key() == info->window)
                QVERIFY2(r.err.contains("--render needs --out FILE"), r.err.constData());
            else
                QVERIFY2(r.err.contains("is a view of"), r.err.constData());
        }
    }

    void usageErrors()
    {
        const QString cpi = dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"));
        GuiRun r = runGui({ QStringLiteral("--no-such-option"), cpi });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("Unknown option 'no-such-option'"), r.err.constData());
        r = runGui({ QStringLiteral("--render"), QStringLiteral("pie"), QStringLiteral("--out"),
            QStringLiteral("x.png"), cpi });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("unknown view 'pie'") && r.err.contains("histogram NAME"), r.err.constData());
        r = runGui(
            { QStringLiteral("--render=overview"), QStringLiteral("--size=wide"), QStringLiteral("--out=x.png"), cpi });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--size: 'wide'"), r.err.constData());
        r = runGui({ QStringLiteral("--id"), QStringLiteral("seven") });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--id: 'seven'"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestRender)
#include "tst_render.moc"
