// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The Databases dock (app/gui/databasepanel) on a temporary SQLite database: a trial dragged from
// the Trials dock and a profile directory dropped from a file manager are uploaded through the
// same dialog, off the GUI thread; Cancel rolls an upload back; the metadata editor saves in one
// transaction and moves the trial in the tree; the search filters every database's tree.
#include "app/gui/databasepanel.h"
#include "datasource/synth/synth.h"
#include "perfdb/database.h"
#include "tests/common/testutil.h"
#include "views/userevents/trialmanagermodel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QDragMoveEvent>
#include <QDropEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>
#include <QUrl>
#include <map>
#include <memory>

using namespace parallax;
using namespace parallax::test;

namespace {

constexpr int Timeout = 60000;

std::vector<perfdb::TrialInfo> storedTrials(const QString& location, const perfdb::TrialFilter& filter = {})
{
    auto db = perfdb::Database::open(location);
    if (!db) {
        qWarning("%s", qPrintable(db.error().toString()));
        return {};
    }
    auto listed = db.value()->listTrials(filter);
    if (!listed) {
        qWarning("%s", qPrintable(listed.error().toString()));
        return {};
    }
    return listed.value();
}

/// The database's TAUdb views as "parent name > name" (top-level views without a parent part).
QStringList storedViews(const QString& location)
{
    QStringList out;
    auto db = perfdb::Database::open(location);
    if (!db)
        return out;
    const auto views = db.value()->views();
    if (!views)
        return out;
    for (const perfdb::View& view : views.value()) {
        QString parent;
        for (const perfdb::View& other : views.value())
            if (other.id == view.parent)
                parent = other.name + QStringLiteral(" > ");
        out << parent + view.name;
    }
    return out;
}

std::map<QString, QString> storedMetadata(const QString& location, qint64 id)
{
    std::map<QString, QString> out;
    auto db = perfdb::Database::open(location);
    if (!db)
        return out;
    auto entries = db.value()->trialMetadata(id);
    if (!entries)
        return out;
    for (const auto& [key, value] : entries.value())
        out[key] = value;
    return out;
}

/// The first index below `parent` whose text starts with `text` (depth-first).
QModelIndex findText(const QAbstractItemModel* model, const QString& text, const QModelIndex& parent = {})
{
    for (int r = 0; r < model->rowCount(parent); ++r) {
        const QModelIndex index = model->index(r, 0, parent);
        if (index.data().toString().startsWith(text))
            return index;
        const QModelIndex below = findText(model, text, index);
        if (below.isValid())
            return below;
    }
    return {};
}

/// A visible child widget of a type and object name (dialogs of earlier tests may linger hidden
/// until their deleteLater runs).
template <typename T> T* visibleChild(QObject* parent, const QString& name)
{
    const QList<T*> found = parent->findChildren<T*>(name);
    for (T* w : found)
        if (w->isVisible())
            return w;
    return nullptr;
}

template <typename T> T* waitForVisible(QObject* parent, const QString& name)
{
    T* found = nullptr;
    if (!QTest::qWaitFor([&] { return (found = visibleChild<T>(parent, name)) != nullptr; }, Timeout))
        return nullptr;
    return found;
}

/// Drags `data` over `index` of the panel's tree and drops it there, as a drag from the Trials dock
/// or a file manager does; true when the drop was accepted.
bool dragAndDrop(DatabasePanel& panel, const QMimeData* data, const QModelIndex& index)
{
    QWidget* viewport = panel.view()->viewport();
    panel.view()->scrollTo(index);
    const QPoint pos = panel.view()->visualRect(index).center();
    QDragEnterEvent enter(pos, Qt::CopyAction, data, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(viewport, &enter);
    if (!enter.isAccepted())
        return false;
    QDragMoveEvent move(pos, Qt::CopyAction, data, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(viewport, &move);
    if (!move.isAccepted())
        return false;
    QDropEvent drop(QPointF(pos), Qt::CopyAction, data, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(viewport, &drop);
    return drop.isAccepted();
}

void clickButton(QDialog* dialog, QDialogButtonBox::StandardButton which)
{
    auto* box = dialog->findChild<QDialogButtonBox*>();
    QVERIFY(box && box->button(which));
    box->button(which)->click();
}

} // namespace

class TestDatabasePanel : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<TrialManagerModel> m_trials;
    std::unique_ptr<DatabasePanel> m_panel;
    int m_openmp = -1; ///< id in m_trials
    qint64 m_openmpId = 0; ///< ids in the database
    qint64 m_cpiId = 0;

    QModelIndex databaseIndex() const { return m_panel->model()->index(0, 0); }

    /// Sets the search and waits until the database's tree shows it.
    bool search(const QString& text)
    {
        QSignalSpy listed(m_panel.get(), &DatabasePanel::listed);
        m_panel->setSearchText(text);
        return listed.wait(Timeout) || listed.count() > 0;
    }

    int trialsUnder(const QModelIndex& parent) const
    {
        int n = 0;
        const QAbstractItemModel* model = m_panel->model();
        for (int r = 0; r < model->rowCount(parent); ++r) {
            const QModelIndex index = model->index(r, 0, parent);
            n += index.data().toString().contains(QLatin1String("  [")) ? 1 : trialsUnder(index);
        }
        return n;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(QStringLiteral("panel.sqlite"));
        m_trials = std::make_unique<TrialManagerModel>();
        new QAbstractItemModelTester(
            m_trials.get(), QAbstractItemModelTester::FailureReportingMode::QtTest, m_trials.get());
        m_panel = std::make_unique<DatabasePanel>();
        new QAbstractItemModelTester(
            m_panel->model(), QAbstractItemModelTester::FailureReportingMode::QtTest, m_panel.get());
        m_panel->setTrialSource(m_trials.get());
        m_panel->resize(520, 640);
        m_panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
        QSignalSpy listed(m_panel.get(), &DatabasePanel::listed);
        m_panel->addDatabase(m_db);
        QVERIFY(listed.wait(Timeout));
        QVERIFY(databaseIndex().data().toString().contains(QLatin1String("0 trials")));

        auto trial = mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-openmp-2thread")));
        QVERIFY(trial);
        m_openmp = m_trials->addTrial(trial);
    }

    void parsesSearch()
    {
        const TrialSearch s = TrialSearch::parse(
            QStringLiteral(R"(Application=LULESH Experiment="weak scaling" view:"All Trials" cpi "a=b"  =x)"));
        QCOMPARE(s.metadata.size(), std::size_t(2));
        QCOMPARE(s.metadata[0], std::make_pair(QStringLiteral("Application"), QStringLiteral("LULESH")));
        QCOMPARE(s.metadata[1], std::make_pair(QStringLiteral("Experiment"), QStringLiteral("weak scaling")));
        QCOMPARE(s.views, QStringList { QStringLiteral("All Trials") });
        QCOMPARE(s.nameWords, (QStringList { QStringLiteral("cpi"), QStringLiteral("a=b"), QStringLiteral("=x") }));
        QVERIFY(TrialSearch::parse(QStringLiteral("   ")).isEmpty());
        QVERIFY(TrialSearch::parse(QString()).isEmpty());
    }

    void trialMimeData()
    {
        std::unique_ptr<QMimeData> data(m_trials->mimeData({ m_trials->indexForTrial(m_openmp) }));
        QVERIFY(data);
        QVERIFY(data->hasFormat(TrialManagerModel::TrialMimeType));
        QCOMPARE(m_trials->trialIdsFromMimeData(data.get()), std::vector<int> { m_openmp });
        QVERIFY(m_trials->flags(m_trials->indexForTrial(m_openmp)) & Qt::ItemIsDragEnabled);
        QVERIFY(!(m_trials->flags(m_trials->indexForGroup(TrialManagerModel::FilesGroup)) & Qt::ItemIsDragEnabled));
        // Ids mean something to their own model only.
        TrialManagerModel other;
        other.addTrial(m_trials->trial(m_openmp));
        QVERIFY(other.trialIdsFromMimeData(data.get()).empty());
        // Plain text is nothing to upload.
        QMimeData text;
        text.setText(QStringLiteral("hello"));
        QVERIFY(!m_panel->canDrop(&text, databaseIndex()));
        QVERIFY(!dragAndDrop(*m_panel, &text, databaseIndex()));
    }

    void dropTrialOnDatabase()
    {
        const auto trial = m_trials->trial(m_openmp);
        std::unique_ptr<QMimeData> data(m_trials->mimeData({ m_trials->indexForTrial(m_openmp) }));
        QSignalSpy uploaded(m_panel.get(), &DatabasePanel::uploaded);
        QVERIFY(dragAndDrop(*m_panel, data.get(), databaseIndex()));

        auto* dialog = waitForVisible<QDialog>(m_panel.get(), QStringLiteral("uploadDialog"));
        QVERIFY(dialog);
        // Prefilled: the database dropped on, the trial's name and metadata.
        QCOMPARE(dialog->findChild<QComboBox*>(QStringLiteral("database"))->currentText(), m_db);
        QCOMPARE(dialog->findChild<QLineEdit*>(QStringLiteral("name"))->text(), trial->name());
        QCOMPARE(dialog->findChild<QLineEdit*>(QStringLiteral("application"))->text(),
            trial->metadataValue(QStringLiteral("Application")));
        dialog->findChild<QLineEdit*>(QStringLiteral("application"))->setText(QStringLiteral("openmp"));
        dialog->findChild<QLineEdit*>(QStringLiteral("experiment"))->setText(QStringLiteral("two threads"));
        clickButton(dialog, QDialogButtonBox::Ok);

        QVERIFY(uploaded.count() == 1 || uploaded.wait(Timeout));
        QCOMPARE(uploaded.at(0).at(0).toString(), m_db);
        m_openmpId = uploaded.at(0).at(1).toLongLong();
        QVERIFY(m_openmpId > 0);
        // The tree is listed again and the new trial selected.
        QTRY_VERIFY_WITH_TIMEOUT(m_panel->indexForTrial(m_db, m_openmpId).isValid(), Timeout);
        QTRY_COMPARE_WITH_TIMEOUT(m_panel->view()->currentIndex(), m_panel->indexForTrial(m_db, m_openmpId), Timeout);
        const QModelIndex node = m_panel->indexForTrial(m_db, m_openmpId);
        QCOMPARE(node.parent().data().toString(), QStringLiteral("two threads"));
        QCOMPARE(node.parent().parent().data().toString(), QStringLiteral("openmp"));

        const auto stored = storedTrials(m_db);
        QCOMPARE(stored.size(), std::size_t(1));
        QCOMPARE(stored[0].id, m_openmpId);
        QCOMPARE(stored[0].name, trial->name());
        QCOMPARE(stored[0].application, QStringLiteral("openmp"));
        QCOMPARE(stored[0].experiment, QStringLiteral("two threads"));
        QCOMPARE(stored[0].threads, qint64(2));
        // The upload made the views TAU's loader makes for -a/-x, so ParaProf's tree shows it there.
        QCOMPARE(storedViews(m_db),
            QStringList({ QStringLiteral("All Trials"), QStringLiteral("Application-openmp"),
                QStringLiteral("Application-openmp > Experiment-two threads") }));
    }

    void dropOnExperimentPrefillsIt()
    {
        const QModelIndex experiment = findText(m_panel->model(), QStringLiteral("two threads"), databaseIndex());
        QVERIFY(experiment.isValid());
        std::unique_ptr<QMimeData> data(m_trials->mimeData({ m_trials->indexForTrial(m_openmp) }));
        QSignalSpy cancelled(m_panel.get(), &DatabasePanel::uploadCancelled);
        QVERIFY(dragAndDrop(*m_panel, data.get(), experiment));
        auto* dialog = waitForVisible<QDialog>(m_panel.get(), QStringLiteral("uploadDialog"));
        QVERIFY(dialog);
        QCOMPARE(dialog->findChild<QLineEdit*>(QStringLiteral("application"))->text(), QStringLiteral("openmp"));
        QCOMPARE(dialog->findChild<QLineEdit*>(QStringLiteral("experiment"))->text(), QStringLiteral("two threads"));
        clickButton(dialog, QDialogButtonBox::Cancel);
        QVERIFY(cancelled.count() == 1 || cancelled.wait(Timeout));
        QCOMPARE(storedTrials(m_db).size(), std::size_t(1));
        QTRY_VERIFY_WITH_TIMEOUT(!m_panel->isBusy(), Timeout);
    }

    void uploadOffersTheOpenTrials()
    {
        // The "Upload…" entry of a database node: the dialog offers every open trial.
        UploadTarget target;
        target.location = m_db;
        target.application = QStringLiteral("openmp");
        QSignalSpy cancelled(m_panel.get(), &DatabasePanel::uploadCancelled);
        m_panel->uploadInteractively(nullptr, target);
        auto* dialog = waitForVisible<QDialog>(m_panel.get(), QStringLiteral("uploadDialog"));
        QVERIFY(dialog);
        auto* trial = dialog->findChild<QComboBox*>(QStringLiteral("trial"));
        QVERIFY(trial->isEnabled());
        QCOMPARE(trial->count(), static_cast<int>(m_trials->trialIds().size()));
        QCOMPARE(trial->currentText(), m_trials->trial(m_openmp)->name());
        QCOMPARE(dialog->findChild<QLineEdit*>(QStringLiteral("application"))->text(), QStringLiteral("openmp"));
        clickButton(dialog, QDialogButtonBox::Cancel);
        QVERIFY(cancelled.count() == 1 || cancelled.wait(Timeout));
        QCOMPARE(storedTrials(m_db).size(), std::size_t(1));
    }

    void dropDirectoryLoadsThenUploads()
    {
        const QString path = dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"));
        QMimeData data;
        data.setUrls({ QUrl::fromLocalFile(path) });
        QVERIFY(m_panel->canDrop(&data, databaseIndex()));
        QSignalSpy loaded(m_panel.get(), &DatabasePanel::fileLoaded);
        QSignalSpy uploaded(m_panel.get(), &DatabasePanel::uploaded);
        QVERIFY(dragAndDrop(*m_panel, &data, databaseIndex()));

        // Loaded off the GUI thread first, then the same dialog.
        auto* dialog = waitForVisible<QDialog>(m_panel.get(), QStringLiteral("uploadDialog"));
        QVERIFY(dialog);
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(loaded.at(0).at(1).toString(), path);
        const auto trial = loaded.at(0).at(0).value<std::shared_ptr<const Trial>>();
        QVERIFY(trial);
        QCOMPARE(trial->threadCount(), std::size_t(4));
        QCOMPARE(dialog->findChild<QLineEdit*>(QStringLiteral("name"))->text(), trial->name());
        dialog->findChild<QLineEdit*>(QStringLiteral("application"))->setText(QStringLiteral("cpi"));
        dialog->findChild<QLineEdit*>(QStringLiteral("experiment"))->setText(QStringLiteral("callpath"));
        clickButton(dialog, QDialogButtonBox::Ok);

        QVERIFY(uploaded.count() == 1 || uploaded.wait(Timeout));
        m_cpiId = uploaded.at(0).at(1).toLongLong();
        QTRY_COMPARE_WITH_TIMEOUT(m_panel->view()->currentIndex(), m_panel->indexForTrial(m_db, m_cpiId), Timeout);
        QVERIFY(m_panel->view()->currentIndex().isValid());
        perfdb::TrialFilter filter;
        filter.application = QStringLiteral("cpi");
        const auto stored = storedTrials(m_db, filter);
        QCOMPARE(stored.size(), std::size_t(1));
        QCOMPARE(stored[0].id, m_cpiId);
        QCOMPARE(stored[0].threads, qint64(4));
        QCOMPARE(storedTrials(m_db).size(), std::size_t(2));
    }

    void cancelBeforeTheFirstRow()
    {
        std::unique_ptr<QMimeData> data(m_trials->mimeData({ m_trials->indexForTrial(m_openmp) }));
        QSignalSpy cancelled(m_panel.get(), &DatabasePanel::uploadCancelled);
        QSignalSpy uploaded(m_panel.get(), &DatabasePanel::uploaded);
        QVERIFY(dragAndDrop(*m_panel, data.get(), databaseIndex()));
        auto* dialog = waitForVisible<QDialog>(m_panel.get(), QStringLiteral("uploadDialog"));
        QVERIFY(dialog);
        dialog->findChild<QLineEdit*>(QStringLiteral("name"))->setText(QStringLiteral("cancelled early"));
        clickButton(dialog, QDialogButtonBox::Ok);
        // The upload has started on a worker; its progress dialog's Cancel stops it.
        const QList<QProgressDialog*> progress
            = m_panel->findChildren<QProgressDialog*>(QStringLiteral("uploadProgress"));
        QProgressDialog* current = nullptr;
        for (QProgressDialog* p : progress)
            if (!p->wasCanceled() && p->labelText().contains(QLatin1String("cancelled early")))
                current = p;
        QVERIFY(current);
        auto* cancel = current->findChild<QPushButton*>();
        QVERIFY(cancel);
        cancel->click();
        QVERIFY(cancelled.count() == 1 || cancelled.wait(Timeout));
        QCOMPARE(uploaded.count(), 0);
        perfdb::TrialFilter filter;
        filter.nameContains = QStringLiteral("cancelled early");
        QVERIFY(storedTrials(m_db, filter).empty());
        QCOMPARE(storedTrials(m_db).size(), std::size_t(2));
    }

    void cancelMidUploadRollsBack()
    {
        // Big enough that the upload is still writing rows when the Cancel arrives: 8,192 threads x
        // 100 events (the real samples upload in milliseconds).
        SynthOptions options;
        options.threads = 8192;
        options.events = 100;
        const int big = m_trials->addTrial(synthesizeTrial(options));
        std::unique_ptr<QMimeData> data(m_trials->mimeData({ m_trials->indexForTrial(big) }));
        QSignalSpy cancelled(m_panel.get(), &DatabasePanel::uploadCancelled);
        QSignalSpy uploaded(m_panel.get(), &DatabasePanel::uploaded);
        QString cancelledAt;
        // Press Cancel in the progress dialog once rows are being written.
        const auto connection
            = connect(m_panel.get(), &DatabasePanel::progress, this, [&](const QString& stage, qint64 done, qint64) {
                  if (!cancelledAt.isEmpty() || !stage.startsWith(QLatin1String("Uploading: ")) || done <= 0)
                      return;
                  QProgressDialog* dialog = nullptr;
                  const QList<QProgressDialog*> all
                      = m_panel->findChildren<QProgressDialog*>(QStringLiteral("uploadProgress"));
                  for (QProgressDialog* p : all)
                      if (!p->wasCanceled())
                          dialog = p;
                  if (!dialog)
                      return;
                  cancelledAt = QStringLiteral("%1 (%2 rows)").arg(stage).arg(done);
                  dialog->findChild<QPushButton*>()->click();
              });
        QVERIFY(dragAndDrop(*m_panel, data.get(), databaseIndex()));
        auto* dialog = waitForVisible<QDialog>(m_panel.get(), QStringLiteral("uploadDialog"));
        QVERIFY(dialog);
        dialog->findChild<QLineEdit*>(QStringLiteral("name"))->setText(QStringLiteral("cancelled midway"));
        clickButton(dialog, QDialogButtonBox::Ok);
        QVERIFY(cancelled.count() == 1 || cancelled.wait(Timeout));
        disconnect(connection);
        qInfo("cancelled at %s", qPrintable(cancelledAt));
        QVERIFY(!cancelledAt.isEmpty());
        QCOMPARE(uploaded.count(), 0);
        perfdb::TrialFilter filter;
        filter.nameContains = QStringLiteral("cancelled midway");
        QVERIFY(storedTrials(m_db, filter).empty());
        QCOMPARE(storedTrials(m_db).size(), std::size_t(2));
        m_trials->removeTrial(big);
        QTRY_VERIFY_WITH_TIMEOUT(!m_panel->isBusy(), Timeout);
    }

    void editMetadata()
    {
        const auto before = storedMetadata(m_db, m_openmpId);
        QVERIFY(before.size() > 5);
        QCOMPARE(before.at(QStringLiteral("Application")), QStringLiteral("openmp"));
        QSignalSpy shown(m_panel.get(), &DatabasePanel::metadataEditorShown);
        QSignalSpy saved(m_panel.get(), &DatabasePanel::metadataSaved);
        m_panel->editMetadata(m_db, m_openmpId);
        QVERIFY(shown.count() == 1 || shown.wait(Timeout));
        auto* dialog = waitForVisible<QDialog>(m_panel.get(), QStringLiteral("metadataDialog"));
        QVERIFY(dialog);
        auto* table = dialog->findChild<QTableWidget*>(QStringLiteral("metadataTable"));
        QVERIFY(table);
        QCOMPARE(table->rowCount(), static_cast<int>(before.size()));
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("Application"));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("openmp"));
        QCOMPARE(table->item(1, 0)->text(), QStringLiteral("Experiment"));
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("two threads"));

        // Change: move it to another application; add an entry; remove one.
        table->item(0, 1)->setText(QStringLiteral("openmp-moved"));
        dialog->findChild<QPushButton*>(QStringLiteral("addMetadata"))->click();
        const int added = table->rowCount() - 1;
        auto* editor = table->viewport()->findChild<QLineEdit*>();
        QVERIFY(editor);
        editor->setText(QStringLiteral("Compiler"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(table->item(added, 0)->text(), QStringLiteral("Compiler"));
        table->item(added, 1)->setText(QStringLiteral("gcc 12.2"));
        const QString removed = table->item(2, 0)->text();
        QVERIFY(!removed.isEmpty());
        table->selectRow(2);
        auto* remove = dialog->findChild<QPushButton*>(QStringLiteral("removeMetadata"));
        QVERIFY(remove->isEnabled());
        remove->click();
        // Application and Experiment cannot be removed.
        table->selectRow(0);
        QVERIFY(!remove->isEnabled());
        // What Save would change is counted (and tinted).
        QVERIFY(dialog->findChild<QLabel*>(QStringLiteral("metadataCount"))
                    ->text()
                    .endsWith(QLatin1String("2 changed, 1 removed")));
        QVERIFY(table->item(0, 1)->background().style() != Qt::NoBrush);
        QCOMPARE(table->item(1, 1)->background().style(), Qt::NoBrush);
        clickButton(dialog, QDialogButtonBox::Save);

        QVERIFY(saved.count() == 1 || saved.wait(Timeout));
        const auto after = storedMetadata(m_db, m_openmpId);
        QCOMPARE(after.at(QStringLiteral("Application")), QStringLiteral("openmp-moved"));
        QCOMPARE(after.at(QStringLiteral("Experiment")), QStringLiteral("two threads"));
        QCOMPARE(after.at(QStringLiteral("Compiler")), QStringLiteral("gcc 12.2"));
        QVERIFY(!after.contains(removed));
        QCOMPARE(after.size(), before.size());
        for (const auto& [key, value] : before)
            if (key != QLatin1String("Application") && key != removed)
                QCOMPARE(after.at(key), value);

        // The tree moved it under its new application, and selects it.
        QTRY_VERIFY_WITH_TIMEOUT(m_panel->indexForTrial(m_db, m_openmpId).parent().parent().data().toString()
                == QLatin1String("openmp-moved"),
            Timeout);
        QStringList applications;
        for (int r = 0; r < m_panel->model()->rowCount(databaseIndex()); ++r)
            applications.append(m_panel->model()->index(r, 0, databaseIndex()).data().toString());
        QVERIFY2(
            applications.contains(QLatin1String("openmp-moved")), qPrintable(applications.join(QLatin1String(", "))));
        QVERIFY2(!applications.contains(QLatin1String("openmp")), qPrintable(applications.join(QLatin1String(", "))));
        QTRY_COMPARE_WITH_TIMEOUT(m_panel->view()->currentIndex(), m_panel->indexForTrial(m_db, m_openmpId), Timeout);
    }

    void searchFiltersTheTree()
    {
        QCOMPARE(trialsUnder(findText(m_panel->model(), QStringLiteral("openmp-moved"), databaseIndex())), 1);
        QVERIFY(findText(m_panel->model(), QStringLiteral("cpi"), databaseIndex()).isValid());

        QVERIFY(search(QStringLiteral("Application=openmp-moved")));
        QVERIFY(databaseIndex().data().toString().contains(QLatin1String("1 matching trial")));
        QVERIFY(findText(m_panel->model(), QStringLiteral("openmp-moved"), databaseIndex()).isValid());
        QVERIFY(!findText(m_panel->model(), QStringLiteral("cpi"), databaseIndex()).isValid());
        QVERIFY(m_panel->indexForTrial(m_db, m_openmpId).isValid());
        QVERIFY(!m_panel->indexForTrial(m_db, m_cpiId).isValid());

        // Several terms: all must hold.
        QVERIFY(search(QStringLiteral("Application=openmp-moved Compiler=\"gcc 12.2\"")));
        QVERIFY(m_panel->indexForTrial(m_db, m_openmpId).isValid());
        QVERIFY(search(QStringLiteral("Application=openmp-moved Compiler=clang")));
        QVERIFY(!m_panel->indexForTrial(m_db, m_openmpId).isValid());
        QVERIFY(findText(m_panel->model(), QStringLiteral("No trial matches"), databaseIndex()).isValid());

        // Plain text: the name contains it.
        QVERIFY(search(QStringLiteral("CALLPATH")));
        QVERIFY(m_panel->indexForTrial(m_db, m_cpiId).isValid());
        QVERIFY(!m_panel->indexForTrial(m_db, m_openmpId).isValid());

        // The TAUdb views of the database are nodes with their trials; view: filters by one.
        QVERIFY(search(QString()));
        const QModelIndex views = findText(m_panel->model(), QStringLiteral("TAUdb Views"), databaseIndex());
        QVERIFY(views.isValid());
        const QModelIndex all = findText(m_panel->model(), QStringLiteral("All Trials"), views);
        QVERIFY(all.isValid());
        QCOMPARE(all.data().toString(), QStringLiteral("All Trials (2)"));
        QCOMPARE(trialsUnder(all), 2);
        QVERIFY(search(QStringLiteral("view:\"all trials\" openmp")));
        QVERIFY(m_panel->indexForTrial(m_db, m_openmpId).isValid());
        QVERIFY(!m_panel->indexForTrial(m_db, m_cpiId).isValid());
        QVERIFY(search(QStringLiteral("view:nosuchview")));
        QVERIFY(databaseIndex().data().toString().contains(QLatin1String("no view named")));
        QCOMPARE(trialsUnder(databaseIndex()), 0);

        // Cleared: the whole tree again.
        QVERIFY(search(QString()));
        QVERIFY(databaseIndex().data().toString().contains(QLatin1String("2 trials")));
        QVERIFY(m_panel->indexForTrial(m_db, m_openmpId).isValid());
        QVERIFY(m_panel->indexForTrial(m_db, m_cpiId).isValid());
    }

    void metadataErrorNamesTheDatabase()
    {
        QSignalSpy shown(m_panel.get(), &DatabasePanel::metadataEditorShown);
        m_panel->editMetadata(m_db, m_cpiId);
        QVERIFY(shown.count() == 1 || shown.wait(Timeout));
        auto* dialog = waitForVisible<QDialog>(m_panel.get(), QStringLiteral("metadataDialog"));
        QVERIFY(dialog);
        // Somebody else deletes the trial meanwhile.
        {
            auto db = perfdb::Database::open(m_db);
            QVERIFY(db);
            QVERIFY(db.value()->deleteTrial(m_cpiId));
        }
        auto* table = dialog->findChild<QTableWidget*>(QStringLiteral("metadataTable"));
        table->item(1, 1)->setText(QStringLiteral("gone"));
        QString shownText;
        QTimer poll;
        connect(&poll, &QTimer::timeout, this, [&] {
            for (QWidget* w : QApplication::topLevelWidgets())
                if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
                    shownText = box->text();
                    box->accept();
                }
        });
        poll.start(20);
        clickButton(dialog, QDialogButtonBox::Save);
        QTRY_VERIFY_WITH_TIMEOUT(!shownText.isEmpty(), Timeout);
        poll.stop();
        QVERIFY2(shownText.contains(m_db), qPrintable(shownText));
        QVERIFY2(shownText.contains(QLatin1String("there is no trial")), qPrintable(shownText));
        // The editor stays open for another try.
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->isEnabled());
        clickButton(dialog, QDialogButtonBox::Cancel);
    }

    void cleanupTestCase()
    {
        m_panel.reset();
        m_trials.reset();
    }
};

QTEST_MAIN(TestDatabasePanel)
#include "tst_databasepanel.moc"
