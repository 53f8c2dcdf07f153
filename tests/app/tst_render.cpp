// The headless renderer (parallax --render VIEW --out FILE), as the docs and CI use it: every view
// of a real trial becomes a non-blank image of the requested size, without a display server.
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
        auto row = [&](const char* name, QStringList args, int colours) { QTest::newRow(name) << (args << cpi) << colours; };
        row("overview", { QStringLiteral("--render"), QStringLiteral("overview") }, 8);
        row("table", { QStringLiteral("--render"), QStringLiteral("table") }, 4);
        row("tree", { QStringLiteral("--render"), QStringLiteral("tree") }, 4);
        row("callgraph", { QStringLiteral("--render"), QStringLiteral("callgraph") }, 6);
        row("userevents", { QStringLiteral("--render"), QStringLiteral("userevents") }, 4);
        row("summary", { QStringLiteral("--render"), QStringLiteral("summary") }, 4);
        row("event", { QStringLiteral("--render"), QStringLiteral("event"), QStringLiteral("MPI_File_open()") }, 4);
        row("thread", { QStringLiteral("--render"), QStringLiteral("thread"), QStringLiteral("1,0,0") }, 6);
        row("histogram", { QStringLiteral("--render"), QStringLiteral("histogram"), QStringLiteral("MPI_File_open()") }, 4);
    }

    void views()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, minColours);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("view.png"));
        QProcess p;
        p.start(QStringLiteral(PARALLAX_GUI), arguments << QStringLiteral("--out") << out << QStringLiteral("--size") << QStringLiteral("900x600"));
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QImage image(out);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(900, 600));
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() >= minColours, qPrintable(QStringLiteral("only %1 colours").arg(colours.size())));
    }

    void errorsAreReported()
    {
        QTemporaryDir dir;
        QProcess p;
        p.start(QStringLiteral(PARALLAX_GUI),
            { QStringLiteral("--render"), QStringLiteral("event"), QStringLiteral("NoSuchEvent"), QStringLiteral("--out"),
                dir.filePath(QStringLiteral("x.png")), dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")) });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(p.readAllStandardError().contains("no event named 'NoSuchEvent'"));
    }

    void svgAndPdf()
    {
        QTemporaryDir dir;
        for (const char* suffix : { "svg", "pdf" }) {
            const QString out = dir.filePath(QStringLiteral("overview.") + QLatin1String(suffix));
            QProcess p;
            p.start(QStringLiteral(PARALLAX_GUI), { QStringLiteral("--render"), QStringLiteral("overview"), QStringLiteral("--out"), out,
                                                      dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")) });
            QVERIFY(p.waitForFinished(60000));
            QCOMPARE(p.exitCode(), 0);
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray head = f.read(8);
            QVERIFY(head.startsWith(suffix == std::string("svg") ? "<?xml" : "%PDF"));
        }
    }
};

QTEST_GUILESS_MAIN(TestRender)
#include "tst_render.moc"
