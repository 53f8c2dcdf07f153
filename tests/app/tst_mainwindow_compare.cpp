// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The main window's ways into a comparison, as a user takes them: two trials open, one dragged
// onto the other in the Trials dock opens a comparison window with the dragged one as A. And the
// trials the CUBE browser derives (Re-root Here, Prune, Keep Only These) joining the Trials dock.
#include "app/gui/mainwindow.h"
#include "datasource/readers/readerregistry.h"
#include "perfdb/database.h"
#include "tests/common/testutil.h"
#include "views/comparison/comparisonwindow.h"
#include "views/cube/cubebrowser.h"
#include "views/semantic/semanticwindow.h"
#include "views/userevents/trialmanagermodel.h"

#include <QApplication>
#include <QDropEvent>
#include <QFile>
#include <QMimeData>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace parallax;
using namespace parallax::test;

class TestMainWindowCompare : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// A trial opened from a database starts its semantic view with the model attached to it there
    /// (db model attach), computed on load.
    void semanticViewOfStoredTrial()
    {
        QTemporaryDir dir;
        const QString location = dir.filePath(QStringLiteral("semantic.sqlite"));
        qint64 id = 0;
        {
            auto db = perfdb::Database::open(location);
            QVERIFY2(db, db ? "" : qPrintable(db.error().toString()));
            Progress progress;
            auto read = ReaderRegistry::instance().read(
                dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")), ReadOptions {}, progress);
            QVERIFY(read);
            perfdb::UploadOptions upload;
            upload.application = QStringLiteral("app");
            upload.experiment = QStringLiteral("exp");
            auto uploaded = db.value()->uploadTrial(*read.value(), upload, progress);
            QVERIFY2(uploaded, uploaded ? "" : qPrintable(uploaded.error().toString()));
            id = uploaded.value();
            QFile model(QStringLiteral(PARALLAX_SOURCE_DIR "/tests/data/semantic/workflow-io.json"));
            QVERIFY(model.open(QIODevice::ReadOnly));
            auto saved = db.value()->saveSemanticModel(QStringLiteral("workflow io"), model.readAll(), QString());
            QVERIFY(saved);
            QVERIFY(db.value()->attachSemanticModel(id, saved.value().id));
        }
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QSignalSpy shown(&window, &MainWindow::trialShown);
        window.openFromDatabase(location, id);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 20000);
        const auto trial = window.trial();
        QVERIFY(trial);
        window.openSemanticView(trial);
        SemanticWindow* semantic = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((semantic = window.findChild<SemanticWindow*>()) != nullptr ||
                [&] {
                    for (QWidget* w : QApplication::topLevelWidgets())
                        if (auto* s = qobject_cast<SemanticWindow*>(w))
                            semantic = s;
                    return semantic != nullptr;
                }(),
            20000);
        semantic->waitForResult();
        QVERIFY(semantic->profile());
        QCOMPARE(semantic->profile()->model().name, QStringLiteral("workflow: communication and output"));
        QVERIFY(semantic->profile()->findEntity(QStringLiteral("adios:close")) >= 0);
        semantic->close();
    }

    /// "Re-root Here" in the CUBE browser: the new trial is listed in the Trials dock under Files,
    /// becomes the current trial, and the browser shows its call tree.
    void cubeCutJoinsTheTrials()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QSignalSpy shown(&window, &MainWindow::trialShown);
        window.openPath(dataPath(QStringLiteral("cube/scalasca-cube3/kojak-example-ctest-pomp.cube")));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 20000);
        const auto source = window.trial();
        QVERIFY(window.selectTab(QStringLiteral("cube")));
        auto* cube = qobject_cast<CubeBrowser*>(window.viewWidget(QStringLiteral("cube")));
        QVERIFY(cube);
        cube->finishComputing();
        QVERIFY(cube->space());
        const int p2p = cube->space()->find(CubePane::Call, QStringLiteral("main => parallel => p2p"));
        QVERIFY(p2p >= 0);
        cube->reRoot(p2p);
        cube->finishComputing();
        QVERIFY(window.trial() != source);
        QCOMPARE(window.trial()->provenance().operation, QStringLiteral("cut"));

        TrialManagerModel* model = nullptr;
        for (QTreeView* candidate : window.findChildren<QTreeView*>())
            if (auto* m = qobject_cast<TrialManagerModel*>(candidate->model()))
                model = m;
        QVERIFY(model);
        const QModelIndex files = model->indexForGroup(TrialManagerModel::FilesGroup);
        QCOMPARE(model->rowCount(files), 2);
        QCOMPARE(model->trialForIndex(model->index(1, 0, files)), window.trial());
        // The browser now browses the new trial: one call root, p2p.
        cube->updateNow();
        cube->finishComputing();
        QCOMPARE(cube->space()->roots(CubePane::Call).size(), std::size_t(1));
        QCOMPARE(
            cube->space()->label(CubePane::Call, cube->space()->roots(CubePane::Call).front()), QStringLiteral("p2p"));
        const QString dir = qEnvironmentVariable("PARALLAX_TEST_SCREENSHOTS");
        if (!dir.isEmpty())
            QVERIFY(window.grab().save(dir + QStringLiteral("/cube-reroot.png")));
    }

    void dragTrialOntoTrial()
    {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QSignalSpy shown(&window, &MainWindow::trialShown);
        window.openPath(dataPath(QStringLiteral("tau2/ppk/ring-2rank.ppk")));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 20000);
        window.openPath(dataPath(QStringLiteral("tau2/ppk/ring-8rank.ppk")));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, 20000);

        QTreeView* view = nullptr;
        TrialManagerModel* model = nullptr;
        for (QTreeView* candidate : window.findChildren<QTreeView*>())
            if (auto* m = qobject_cast<TrialManagerModel*>(candidate->model())) {
                view = candidate;
                model = m;
            }
        QVERIFY(view && model);
        QModelIndex ring2;
        QModelIndex ring8;
        for (int g = 0; g < model->rowCount(); ++g)
            for (int r = 0; r < model->rowCount(model->index(g, 0)); ++r) {
                const QModelIndex index = model->index(r, 0, model->index(g, 0));
                const auto trial = model->trialForIndex(index);
                if (trial && trial->name() == QLatin1String("ring-2rank.ppk"))
                    ring2 = index;
                if (trial && trial->name() == QLatin1String("ring-8rank.ppk"))
                    ring8 = index;
            }
        QVERIFY(ring2.isValid() && ring8.isValid());

        // Drag ring-8rank onto ring-2rank: enter, move over the target, drop.
        std::unique_ptr<QMimeData> mime(model->mimeData({ ring8 }));
        const QPoint target = view->visualRect(ring2).center();
        QDragEnterEvent enter(target, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &enter);
        QVERIFY(enter.isAccepted());
        QDragMoveEvent move(target, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &move);
        QVERIFY(move.isAccepted());
        QDropEvent drop(QPointF(target), Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &drop);

        ComparisonWindow* comparison = nullptr;
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* c = qobject_cast<ComparisonWindow*>(w))
                comparison = c;
        QVERIFY(comparison);
        QCOMPARE(comparison->trialA()->name(), QStringLiteral("ring-8rank.ppk"));
        QCOMPARE(comparison->trialB()->name(), QStringLiteral("ring-2rank.ppk"));
        comparison->waitForResult();
        QVERIFY2(comparison->snapshot(), qPrintable(comparison->errorMessage()));

        // Dropping a trial onto itself compares nothing.
        QDragMoveEvent self(
            view->visualRect(ring8).center(), Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &self);
        QVERIFY(!self.isAccepted());
        comparison->close();
    }
};

QTEST_MAIN(TestMainWindowCompare)
#include "tst_mainwindow_compare.moc"
