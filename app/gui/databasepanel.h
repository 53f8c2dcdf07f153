#pragma once

#include "datasource/model/trial.h"
#include "perfdb/database.h"

#include <QWidget>

#include <functional>
#include <memory>

class QStandardItem;
class QStandardItemModel;
class QTreeView;

namespace parallax {

/// The experiment databases in the trial manager: each connected database (the default SQLite
/// file first, then PostgreSQL servers or other files the user added) with its trials grouped by
/// application and experiment. Every database operation runs as a job on a worker thread with a
/// connection of its own (a connection belongs to the thread that opened it); results come back
/// to the GUI thread.
class DatabasePanel : public QWidget {
    Q_OBJECT
public:
    explicit DatabasePanel(QWidget* parent = nullptr);

    /// Adds a database location (SQLite path or postgresql:// URI) and lists its trials.
    void addDatabase(const QString& location);
    QStringList locations() const;
    /// Uploads a trial to a database, reporting progress; refreshes the database when done.
    void upload(std::shared_ptr<const Trial> trial, const QString& location, const perfdb::UploadOptions& options);
    /// Lists a database's trials again.
    void refresh(const QString& location);
    /// Loads a stored trial off the GUI thread; trialLoaded() or failed() follows.
    void openTrial(const QString& location, qint64 id);

Q_SIGNALS:
    /// A trial was loaded from a database and should be opened in the views.
    void trialLoaded(std::shared_ptr<const parallax::Trial> trial, const QString& source);
    void progress(const QString& stage, qint64 done, qint64 total);
    void busy(bool running);
    void message(const QString& text);
    void failed(const QString& message);

private:
    void showMenu(const QPoint& pos);
    void openItem(QStandardItem* item);
    void connectDialog();
    void fill(QStandardItem* dbItem, const std::vector<perfdb::TrialInfo>& trials);
    QStandardItem* databaseItem(const QString& location) const;
    /// Runs `work` with a connection of its own on a worker thread, then `done` on the GUI thread.
    void run(const QString& location, const QString& what, std::function<QString(perfdb::Database&)> work,
        std::function<void()> done = {});

    QStandardItemModel* m_model;
    QTreeView* m_view;
    int m_running = 0;
};

} // namespace parallax
