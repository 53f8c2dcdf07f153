// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The headless renderer of the semantic views (parallax --semantic MODEL PATH --render
// semantic-bars|semantic-tree|semantic-matrix --out FILE): each view of a real trial through a model
// file becomes a non-blank image of the requested size, without a display server; bad models and
// views are reported, not crashed on.
#include "tests/app/guirun.h"
#include "tests/common/testutil.h"

#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>

using namespace parallax::test;

namespace {

const QString modelFile = QStringLiteral(PARALLAX_SOURCE_DIR "/tests/data/semantic/workflow-model.json");

struct Run {
    int code = -1;
    QString error;
};

Run run(const QStringList& arguments)
{
    const GuiRun r = runGui(arguments);
    return { r.code, QString::fromLocal8Bit(r.err) };
}

} // namespace

class TestRenderSemantic : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void views_data()
    {
        QTest::addColumn<QString>("view");
        QTest::addColumn<QString>("scope");
        QTest::newRow("bars") << QStringLiteral("semantic-bars") << QStringLiteral("mean");
        QTest::newRow("bars-thread") << QStringLiteral("semantic-bars") << QStringLiteral("3,0,0");
        QTest::newRow("tree") << QStringLiteral("semantic-tree") << QStringLiteral("total");
        QTest::newRow("matrix") << QStringLiteral("semantic-matrix") << QStringLiteral("mean");
        QTest::newRow("inspector") << QStringLiteral("semantic-inspector") << QStringLiteral("mean");
        QTest::newRow("rules") << QStringLiteral("semantic-rules") << QStringLiteral("total");
    }

    void views()
    {
        QFETCH(QString, view);
        QFETCH(QString, scope);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("view.png"));
        const Run r = run({ QStringLiteral("--semantic"), modelFile,
            dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")), QStringLiteral("--semantic-scope"),
            scope, QStringLiteral("--render"), view, QStringLiteral("--out"), out, QStringLiteral("--size"),
            QStringLiteral("1000x700") });
        QVERIFY2(r.code == 0, qPrintable(r.error));
        const QString problem = renderedImageProblem(out, QSize(1000, 700), 8);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(QFileInfo(out).size() > 10000);
    }

    void errorsAreReported()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("x.png"));
        const QString trial = dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank"));
        // A configuration error (two associations of one priority match an event).
        Run r = run({ QStringLiteral("--semantic"),
            QStringLiteral(PARALLAX_SOURCE_DIR "/tests/data/semantic/broken-model.json"), trial,
            QStringLiteral("--render"), QStringLiteral("semantic-bars"), QStringLiteral("--out"), out });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.error.contains(QStringLiteral("parallax:")), qPrintable(r.error));
        QVERIFY(!QFileInfo::exists(out));
        // An unknown view, a missing model file.
        r = run({ QStringLiteral("--semantic"), modelFile, trial, QStringLiteral("--render"),
            QStringLiteral("semantic-pie"), QStringLiteral("--out"), out });
        QCOMPARE(r.code, 2);
        r = run({ QStringLiteral("--semantic"), QStringLiteral("/no/such/model.json"), trial,
            QStringLiteral("--render"), QStringLiteral("semantic-tree"), QStringLiteral("--out"), out });
        QCOMPARE(r.code, 1);
        QVERIFY(r.error.contains(QStringLiteral("model.json")));
    }
};

QTEST_MAIN(TestRenderSemantic)
#include "tst_render_semantic.moc"
