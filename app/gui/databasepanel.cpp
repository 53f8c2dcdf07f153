#include "app/gui/databasepanel.h"

#include "perfdb/databaselocation.h"

#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLineEdit>
#include <QPointer>
#include <QMenu>
#include <QMessageBox>
#include <QStandardItemModel>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <map>

namespace parallax {

namespace {

enum Kind { DatabaseKind = 1, ApplicationKind, ExperimentKind, TrialKind };
constexpr int KindRole = Qt::UserRole + 1;
constexpr int LocationRole = Qt::UserRole + 2;
constexpr int TrialIdRole = Qt::UserRole + 3;

QString displayLocation(const QString& location)
{
    return location == defaultDatabasePath() ? QObject::tr("Default database (%1)").arg(location) : location;
}

} // namespace

DatabasePanel::DatabasePanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new QStandardItemModel(this))
    , m_view(new QTreeView(this))
{
    m_model->setHorizontalHeaderLabels({ tr("Database"), tr("Threads") });
    m_view->setModel(m_model);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_view->setToolTip(tr("Double-click a trial to open it; right-click for more"));
    connect(m_view, &QWidget::customContextMenuRequested, this, &DatabasePanel::showMenu);
    connect(m_view, &QTreeView::activated, this,
        [this](const QModelIndex& index) { openItem(m_model->itemFromIndex(index.siblingAtColumn(0))); });

    auto* connectButton = new QToolButton(this);
    connectButton->setText(tr("Connect…"));
    connectButton->setToolTip(tr("Add a database: an SQLite file or a PostgreSQL server (postgresql://user@host:port/db)"));
    connect(connectButton, &QToolButton::clicked, this, &DatabasePanel::connectDialog);
    auto* refreshButton = new QToolButton(this);
    refreshButton->setText(tr("Refresh"));
    connect(refreshButton, &QToolButton::clicked, this, [this] {
        for (const QString& location : locations())
            refresh(location);
    });
    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(connectButton);
    buttons->addWidget(refreshButton);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(m_view, 1);
}

QStringList DatabasePanel::locations() const
{
    QStringList out;
    for (int r = 0; r < m_model->rowCount(); ++r)
        out << m_model->item(r)->data(LocationRole).toString();
    return out;
}

QStandardItem* DatabasePanel::databaseItem(const QString& location) const
{
    for (int r = 0; r < m_model->rowCount(); ++r)
        if (m_model->item(r)->data(LocationRole).toString() == location)
            return m_model->item(r);
    return nullptr;
}

void DatabasePanel::addDatabase(const QString& location)
{
    if (databaseItem(location))
        return;
    auto* item = new QStandardItem(displayLocation(location));
    item->setData(DatabaseKind, KindRole);
    item->setData(location, LocationRole);
    item->setToolTip(location);
    m_model->appendRow({ item, new QStandardItem });
    refresh(location);
}

void DatabasePanel::run(const QString& location, const QString& what, std::function<QString(perfdb::Database&)> work,
    std::function<void()> done)
{
    ++m_running;
    Q_EMIT busy(true);
    Q_EMIT progress(what, 0, 0);
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, done] {
        watcher->deleteLater();
        const QString error = watcher->result();
        if (--m_running == 0)
            Q_EMIT busy(false);
        if (!error.isEmpty()) {
            Q_EMIT failed(error);
            return;
        }
        if (done)
            done();
    });
    watcher->setFuture(QtConcurrent::run([location, work]() -> QString {
        // A connection of its own, on this worker thread.
        auto db = perfdb::Database::open(location);
        if (!db)
            return db.error().toString();
        return work(*db.value());
    }));
}

void DatabasePanel::refresh(const QString& location)
{
    auto trials = std::make_shared<std::vector<perfdb::TrialInfo>>();
    run(location, tr("Listing %1").arg(location),
        [trials](perfdb::Database& db) -> QString {
            auto listed = db.listTrials();
            if (!listed)
                return listed.error().toString();
            *trials = std::move(listed.value());
            return {};
        },
        [this, location, trials] {
            if (QStandardItem* item = databaseItem(location))
                fill(item, *trials);
        });
}

void DatabasePanel::fill(QStandardItem* dbItem, const std::vector<perfdb::TrialInfo>& trials)
{
    dbItem->removeRows(0, dbItem->rowCount());
    // Application -> experiment -> trial, as in ParaProf's manager.
    std::map<QString, std::map<QString, std::vector<const perfdb::TrialInfo*>>> tree;
    for (const auto& t : trials)
        tree[t.application.isEmpty() ? tr("(no application)") : t.application]
            [t.experiment.isEmpty() ? tr("(no experiment)") : t.experiment]
                .push_back(&t);
    const QString location = dbItem->data(LocationRole).toString();
    for (const auto& [app, experiments] : tree) {
        auto* appItem = new QStandardItem(app);
        appItem->setData(ApplicationKind, KindRole);
        appItem->setData(location, LocationRole);
        for (const auto& [exp, list] : experiments) {
            auto* expItem = new QStandardItem(exp);
            expItem->setData(ExperimentKind, KindRole);
            expItem->setData(location, LocationRole);
            for (const perfdb::TrialInfo* t : list) {
                auto* trialItem = new QStandardItem(QStringLiteral("%1  [%2]").arg(t->name).arg(t->id));
                trialItem->setData(TrialKind, KindRole);
                trialItem->setData(location, LocationRole);
                trialItem->setData(t->id, TrialIdRole);
                trialItem->setToolTip(tr("Trial %1: %2 threads on %3 nodes; metrics %4; %5%6")
                                          .arg(t->id)
                                          .arg(t->threads)
                                          .arg(t->nodes)
                                          .arg(t->metrics.join(QLatin1String(", ")), t->dataSource,
                                              t->uploaded.isEmpty() ? QString() : tr("; uploaded %1").arg(t->uploaded)));
                auto* threads = new QStandardItem(QString::number(t->threads));
                threads->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                expItem->appendRow({ trialItem, threads });
            }
            appItem->appendRow({ expItem, new QStandardItem });
        }
        dbItem->appendRow({ appItem, new QStandardItem });
    }
    dbItem->setText(QStringLiteral("%1 — %2").arg(displayLocation(location)).arg(tr("%n trial(s)", nullptr, static_cast<int>(trials.size()))));
    m_view->expandRecursively(dbItem->index());
}

void DatabasePanel::openItem(QStandardItem* item)
{
    if (!item || item->data(KindRole).toInt() != TrialKind)
        return;
    openTrial(item->data(LocationRole).toString(), item->data(TrialIdRole).toLongLong());
}

void DatabasePanel::openTrial(const QString& location, qint64 id)
{
    auto trial = std::make_shared<std::shared_ptr<Trial>>();
    QPointer<DatabasePanel> self(this);
    run(location, tr("Loading trial %1").arg(id),
        [trial, id, self](perfdb::Database& db) -> QString {
            Progress progress([self](const QString& stage, qint64 done, qint64 total) {
                if (self)
                    QMetaObject::invokeMethod(self, [self, stage, done, total] { Q_EMIT self->progress(stage, done, total); }, Qt::QueuedConnection);
            });
            auto loaded = db.loadTrial(id, progress);
            if (!loaded)
                return loaded.error().toString();
            *trial = std::move(loaded.value());
            return {};
        },
        [this, trial, location, id] { Q_EMIT trialLoaded(*trial, QStringLiteral("%1#%2").arg(location).arg(id)); });
}

void DatabasePanel::upload(std::shared_ptr<const Trial> trial, const QString& location, const perfdb::UploadOptions& options)
{
    QPointer<DatabasePanel> self(this);
    auto id = std::make_shared<qint64>(0);
    run(location, tr("Uploading %1").arg(trial->name()),
        [trial, options, self, id](perfdb::Database& db) -> QString {
            Progress progress([self](const QString& stage, qint64 done, qint64 total) {
                if (self)
                    QMetaObject::invokeMethod(self, [self, stage, done, total] { Q_EMIT self->progress(stage, done, total); }, Qt::QueuedConnection);
            });
            const auto stored = db.uploadTrial(*trial, options, progress);
            if (!stored)
                return stored.error().toString();
            *id = stored.value();
            return {};
        },
        [this, location, id] {
            Q_EMIT message(tr("Stored as trial %1 in %2").arg(*id).arg(location));
            refresh(location);
        });
}

void DatabasePanel::connectDialog()
{
    bool ok = false;
    const QString location = QInputDialog::getText(this, tr("Connect to a Database"),
        tr("An SQLite file, or a PostgreSQL server as postgresql://user@host:port/db\n"
           "(the password comes from PGPASSWORD or ~/.pgpass; Parallax does not store it):"),
        QLineEdit::Normal, QString(), &ok);
    if (ok && !location.trimmed().isEmpty())
        addDatabase(location.trimmed());
}

void DatabasePanel::showMenu(const QPoint& pos)
{
    const QModelIndex index = m_view->indexAt(pos).siblingAtColumn(0);
    QStandardItem* item = index.isValid() ? m_model->itemFromIndex(index) : nullptr;
    QMenu menu(this);
    if (item && item->data(KindRole).toInt() == TrialKind) {
        const QString location = item->data(LocationRole).toString();
        const qint64 id = item->data(TrialIdRole).toLongLong();
        menu.addAction(tr("Open"), this, [this, item] { openItem(item); });
        menu.addAction(tr("Rename…"), this, [this, location, id, item] {
            bool ok = false;
            const QString current = item->text().section(QStringLiteral("  ["), 0, 0);
            const QString name = QInputDialog::getText(this, tr("Rename Trial"), tr("New name:"), QLineEdit::Normal, current, &ok);
            if (!ok || name.isEmpty())
                return;
            run(location, tr("Renaming trial %1").arg(id),
                [id, name](perfdb::Database& db) -> QString {
                    const auto r = db.renameTrial(id, name);
                    return r ? QString() : r.error().toString();
                },
                [this, location] { refresh(location); });
        });
        menu.addAction(tr("Delete…"), this, [this, location, id, item] {
            if (QMessageBox::question(this, tr("Delete Trial"),
                    tr("Delete trial %1 (%2) and all its data from %3?").arg(id).arg(item->text(), location))
                != QMessageBox::Yes)
                return;
            run(location, tr("Deleting trial %1").arg(id),
                [id](perfdb::Database& db) -> QString {
                    const auto r = db.deleteTrial(id);
                    return r ? QString() : r.error().toString();
                },
                [this, location] { refresh(location); });
        });
    }
    if (item) {
        const QString location = item->data(LocationRole).toString();
        menu.addAction(tr("Refresh"), this, [this, location] { refresh(location); });
    }
    menu.addAction(tr("Connect to a Database…"), this, &DatabasePanel::connectDialog);
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

} // namespace parallax
