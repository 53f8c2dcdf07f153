// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"
#include "perfdb/database.h"
#include "perfdb/trialsearch.h"

#include <QDialog>
#include <QFuture>
#include <QPointer>
#include <QStringList>
#include <QWidget>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

class QAbstractItemModel;
class QLabel;
class QLineEdit;
class QMenu;
class QMimeData;
class QModelIndex;
class QProgressDialog;
class QStandardItem;
class QStandardItemModel;
class QTimer;
class QTreeView;

namespace parallax {

class HistoryView;
class LoadJob;
class Progress;
class TrialManagerModel;

/// Where an upload goes: a database, and the application and experiment to suggest (those of the
/// node a trial was dropped on; unset means "take them from the trial's metadata").
struct UploadTarget {
    QString location;
    std::optional<QString> application;
    std::optional<QString> experiment;
};

/// The search of the Databases dock (perfdb/trialsearch.h).
using perfdb::TrialSearch;

/// The experiment databases in the trial manager: each connected database (the default SQLite
/// file first, then PostgreSQL servers or other files the user added) with its trials grouped by
/// application and experiment, and its TAUdb views with the trials they select. Every database
/// operation runs as a job on a worker thread with a connection of its own (a connection belongs
/// to the thread that opened it); results come back to the GUI thread.
///
/// Uploads (from the Upload dialog, from a loaded trial dragged out of the Trials dock, or from a
/// profile directory dropped from a file manager) go through one queue, one at a time, each with a
/// progress dialog whose Cancel rolls the upload back.
class DatabasePanel : public QWidget {
    Q_OBJECT
public:
    explicit DatabasePanel(QWidget* parent = nullptr);
    ~DatabasePanel() override;

    /// The loaded trials (the Trials dock): what can be dragged here and offered for upload.
    void setTrialSource(TrialManagerModel* trials);

    /// Adds a database location (SQLite path or postgresql:// URI) and lists its trials.
    void addDatabase(const QString& location);
    QStringList locations() const;
    /// Uploads a trial to a database without asking, reporting progress; refreshes the database
    /// and selects the new trial when done.
    void upload(std::shared_ptr<const Trial> trial, const QString& location, const perfdb::UploadOptions& options);
    /// Asks where and under which application, experiment and name to store a trial (the Upload
    /// dialog, prefilled from `target` and the trial's metadata), then uploads it.
    void uploadInteractively(std::shared_ptr<const Trial> trial, const UploadTarget& target = {});
    /// Loads a profile file or directory off the GUI thread, then uploads it like
    /// uploadInteractively().
    void uploadPath(const QString& path, const UploadTarget& target);
    /// Lists a database's trials again (through the current search); selects trial `select` if
    /// it is listed.
    void refresh(const QString& location, qint64 select = 0);
    /// Loads a stored trial off the GUI thread; trialLoaded() or failed() follows.
    void openTrial(const QString& location, qint64 id);
    /// Reads a stored trial's metadata off the GUI thread and opens the metadata editor on it.
    void editMetadata(const QString& location, qint64 id);
    /// Reads the first trial's metrics and metadata keys off the GUI thread, asks for the key to order
    /// the runs by, then opens the performance history of the trials the tree shows under a node (its
    /// application and experiment, through the active search; historyOpened() follows).
    void openHistoryOf(const UploadTarget& target);
    /// Cancels the file load or upload in progress (as its progress dialog's Cancel does); a
    /// cancelled upload rolls back and leaves nothing of the trial.
    void cancelUpload();

    /// Whether a drop of `data` on `index` (of model()) would start an upload.
    bool canDrop(const QMimeData* data, const QModelIndex& index) const;
    /// What a drop does: trials of the Trials dock are uploaded, profile files and directories
    /// (text/uri-list) are loaded and then uploaded, to the database of `index`, with the
    /// application and experiment of the node. Returns false when there is nothing to upload.
    bool dropMimeData(const QMimeData* data, const QModelIndex& index);

    /// Sets the search text (as typed into the search field) and filters every database at once.
    void setSearchText(const QString& text);
    QString searchText() const;

    QTreeView* view() const { return m_view; }
    QAbstractItemModel* model() const;
    /// The index of a stored trial in the application tree (invalid when not listed).
    QModelIndex indexForTrial(const QString& location, qint64 id) const;
    /// True while any database job runs or an upload is queued.
    bool isBusy() const { return m_running > 0 || m_uploading || !m_queue.empty(); }

Q_SIGNALS:
    /// A trial was loaded from a database and should be opened in the views.
    void trialLoaded(std::shared_ptr<const parallax::Trial> trial, const QString& source);
    /// A profile dropped here was loaded from a file (before its upload): add it to the open trials.
    void fileLoaded(std::shared_ptr<const parallax::Trial> trial, const QString& path);
    void progress(const QString& stage, qint64 done, qint64 total);
    void busy(bool running);
    void message(const QString& text);
    void failed(const QString& message);
    /// A database's tree was filled again (after a refresh or a search).
    void listed(const QString& location);
    void uploaded(const QString& location, qint64 id);
    /// An upload was cancelled (and rolled back) or its file failed to load.
    void uploadCancelled(const QString& location);
    /// The metadata editor is open (for screenshots and tests).
    void metadataEditorShown(QDialog* dialog);
    void metadataSaved(const QString& location, qint64 id);
    /// A history window was opened from the menu (for tests).
    void historyOpened(parallax::HistoryView* view);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct PendingUpload {
        std::shared_ptr<const Trial> trial;
        QString path; ///< load this first when there is no trial
        UploadTarget target;
        bool ask = true; ///< show the Upload dialog
        bool chooseTrial = false; ///< no trial yet: the dialog offers the open trials
        perfdb::UploadOptions options; ///< when not asking
    };

    void showMenu(const QPoint& pos);
    void openItem(QStandardItem* item);
    void connectDialog();
    void fill(QStandardItem* dbItem, const perfdb::TrialListing& listing);
    QStandardItem* databaseItem(const QString& location) const;
    QStandardItem* itemFor(const QModelIndex& index) const;
    UploadTarget targetFor(const QStandardItem* item) const;
    void addUploadMenu(QMenu& menu, const UploadTarget& target);
    /// Runs `work` with a connection of its own on a worker thread, then `done` on the GUI thread
    /// (or `onError` with the message; without it, failed() is emitted).
    void run(const QString& location, const QString& what, const std::function<QString(perfdb::Database&)>& work,
        const std::function<void()>& done = {}, const std::function<void(const QString&)>& onError = {});
    /// A Progress whose reports reach progress() (and the current progress dialog) on the GUI thread.
    std::shared_ptr<Progress> makeProgress();

    void enqueue(PendingUpload pending);
    void processQueue();
    void askUpload(const PendingUpload& pending);
    void startUpload(
        const std::shared_ptr<const Trial>& trial, const QString& location, const perfdb::UploadOptions& options);
    void uploadFinished();
    void showProgressDialog(const QString& title);
    void updateProgressDialog(const QString& stage, qint64 done, qint64 total);
    void closeProgressDialog();
    void showMetadataEditor(const QString& location, const perfdb::TrialInfo& info,
        const std::vector<std::pair<QString, QString>>& entries);
    void applySearch();

    QStandardItemModel* m_model;
    QTreeView* m_view;
    QLineEdit* m_search;
    QLabel* m_searchInfo;
    QTimer* m_searchTimer;
    TrialSearch m_activeSearch;
    QPointer<TrialManagerModel> m_trials;
    LoadJob* m_loadJob;
    int m_running = 0;
    /// Per database: the generation of its newest listing (older results are dropped), the error
    /// it last showed, whether its views node and which views were expanded (kept across listings).
    std::map<QString, quint64> m_listGeneration;
    std::map<QString, QString> m_listError;
    std::map<QString, bool> m_viewsExpanded;
    std::map<QString, std::set<qint64>> m_expandedViews;

    std::deque<PendingUpload> m_queue;
    bool m_uploading = false; ///< a queued upload is being loaded, asked for or stored
    UploadTarget m_loadTarget; ///< where the file being loaded goes
    QPointer<QProgressDialog> m_progressDialog;
    QString m_progressTitle; ///< the first line of the progress dialog (what is loaded or uploaded where)
    std::shared_ptr<Progress> m_uploadProgress; ///< of the upload in progress

    /// Every worker that may still run, and the Progress of the cancellable ones: cancelled and
    /// waited for on destruction, since workers report back into this object.
    std::vector<QFuture<QString>> m_futures;
    std::vector<std::weak_ptr<Progress>> m_progresses;
};

} // namespace parallax
