// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/gui/databasepanel.h"

#include "app/gui/databasepanelshared.h"
#include "app/gui/historylauncher.h"
#include "app/gui/loadjob.h"
#include "datasource/readers/progress.h"
#include "perfdb/databaselocation.h"
#include "views/common/job.h"
#include "views/userevents/trialmanagermodel.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDragMoveEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QPushButton>
#include <QStandardItemModel>
#include <QStyle>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>
#include <set>

namespace parallax {

namespace {

enum Kind { DatabaseKind = 1, ApplicationKind, ExperimentKind, TrialKind, ViewsKind, ViewKind, NoteKind };
constexpr int KindRole = Qt::UserRole + 1;
constexpr int LocationRole = Qt::UserRole + 2;
constexpr int TrialIdRole = Qt::UserRole + 3;
/// The application or experiment a node stands for ("" for "(no application)"), a view's name.
constexpr int ValueRole = Qt::UserRole + 4;
constexpr int ViewIdRole = Qt::UserRole + 5;

QString quoted(const QString& text)
{
    return text.contains(QLatin1Char(' ')) || text.isEmpty() ? QLatin1Char('"') + text + QLatin1Char('"') : text;
}

/// Local files and directories in dropped data (from a file manager).
QStringList localPaths(const QMimeData* data)
{
    QStringList paths;
    if (!data || !data->hasUrls())
        return paths;
    const QList<QUrl> urls = data->urls();
    for (const QUrl& url : urls)
        if (url.isLocalFile() && !url.toLocalFile().isEmpty())
            paths.append(url.toLocalFile());
    return paths;
}

QList<QStandardItem*> trialRow(const QString& location, const perfdb::TrialInfo& t, bool withPlace)
{
    auto* item = new QStandardItem(QStringLiteral("%1  [%2]").arg(t.name).arg(t.id));
    item->setData(TrialKind, KindRole);
    item->setData(location, LocationRole);
    item->setData(t.id, TrialIdRole);
    QString place;
    if (withPlace)
        place = QObject::tr("%1 › %2\n")
                    .arg(t.application.isEmpty() ? QObject::tr("(no application)") : t.application,
                        t.experiment.isEmpty() ? QObject::tr("(no experiment)") : t.experiment);
    item->setToolTip(place
        + QObject::tr("Trial %1: %2 threads on %3 nodes; metrics %4; %5%6")
              .arg(t.id)
              .arg(t.threads)
              .arg(t.nodes)
              .arg(t.metrics.join(QLatin1String(", ")), t.dataSource,
                  t.uploaded.isEmpty() ? QString() : QObject::tr("; uploaded %1").arg(t.uploaded)));
    auto* threads = new QStandardItem(QString::number(t.threads));
    threads->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return { item, threads };
}

QStandardItem* noteItem(const QString& text)
{
    auto* note = new QStandardItem(text);
    note->setData(NoteKind, KindRole);
    note->setFlags(Qt::ItemIsEnabled);
    QFont font = note->font();
    font.setItalic(true);
    note->setFont(font);
    note->setForeground(QPalette().brush(QPalette::Disabled, QPalette::Text));
    return note;
}

} // namespace

QString databasepanel::displayLocation(const QString& location)
{
    return location == defaultDatabasePath() ? QObject::tr("Default database (%1)").arg(location)
                                             : displayableLocation(location);
}

using namespace databasepanel;

DatabasePanel::DatabasePanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new QStandardItemModel(this))
    , m_view(new QTreeView(this))
    , m_search(new QLineEdit(this))
    , m_searchInfo(new QLabel(this))
    , m_searchTimer(new QTimer(this))
    , m_loadJob(new LoadJob(this))
{
    m_model->setHorizontalHeaderLabels({ tr("Database"), tr("Threads") });
    m_view->setModel(m_model);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setIndentation(14); // four levels deep in a narrow dock
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_view->setToolTip(tr("Double-click a trial to open it; right-click for more.\n"
                          "Drop a trial from the Trials dock, or a profile directory from a file manager, on a "
                          "database, application or experiment to upload it there."));
    // Drops are handled here (eventFilter), not by the model: they start uploads.
    m_view->setDragDropMode(QAbstractItemView::DropOnly);
    m_view->setDropIndicatorShown(false);
    m_view->viewport()->setAcceptDrops(true);
    m_view->viewport()->installEventFilter(this);
    connect(m_view, &QWidget::customContextMenuRequested, this, &DatabasePanel::showMenu);
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex& index) { openItem(itemFor(index)); });
    auto rememberViews = [this](const QModelIndex& index, bool expanded) {
        const QStandardItem* item = itemFor(index);
        if (!item)
            return;
        const QString location = item->data(LocationRole).toString();
        if (item->data(KindRole).toInt() == ViewsKind) {
            m_viewsExpanded[location] = expanded;
        } else if (item->data(KindRole).toInt() == ViewKind) {
            if (expanded)
                m_expandedViews[location].insert(item->data(ViewIdRole).toLongLong());
            else
                m_expandedViews[location].erase(item->data(ViewIdRole).toLongLong());
        }
    };
    connect(
        m_view, &QTreeView::expanded, this, [rememberViews](const QModelIndex& index) { rememberViews(index, true); });
    connect(m_view, &QTreeView::collapsed, this,
        [rememberViews](const QModelIndex& index) { rememberViews(index, false); });

    m_search->setObjectName(QStringLiteral("databaseSearch"));
    m_search->setPlaceholderText(tr("Search: key=value, view:NAME, name text"));
    m_search->setClearButtonEnabled(true);
    m_search->setToolTip(
        tr("<p>Filters the trials of every database. Terms are separated by spaces and all must hold:</p>"
           "<table>"
           "<tr><td><tt>key=value</tt></td><td>the metadata entry <i>key</i> is exactly <i>value</i>, "
           "e.g. <tt>Application=LULESH</tt>, <tt>Experiment=\"weak scaling\"</tt></td></tr>"
           "<tr><td><tt>view:NAME</tt></td><td>a trial the TAUdb view <i>NAME</i> selects, e.g. "
           "<tt>view:\"All Trials\"</tt></td></tr>"
           "<tr><td><i>other text</i></td><td>the trial's name contains it (any case)</td></tr>"
           "</table>"
           "<p>Quote text with spaces. Clear the field to list every trial again.</p>"));
    m_searchTimer->setSingleShot(true);
    m_searchTimer->setInterval(300);
    connect(m_search, &QLineEdit::textChanged, m_searchTimer, qOverload<>(&QTimer::start));
    connect(m_searchTimer, &QTimer::timeout, this, &DatabasePanel::applySearch);
    m_searchInfo->setObjectName(QStringLiteral("databaseSearchInfo"));
    m_searchInfo->setWordWrap(true);
    m_searchInfo->setVisible(false);
    m_searchInfo->setForegroundRole(QPalette::PlaceholderText);
    m_searchInfo->setContentsMargins(4, 0, 4, 0);

    // Small buttons: the dock is narrow and the search field needs the room.
    auto* connectButton = new QToolButton(this);
    connectButton->setText(QStringLiteral("+"));
    connectButton->setAutoRaise(true);
    connectButton->setToolTip(
        tr("Connect to a database: an SQLite file or a PostgreSQL server (postgresql://user@host:port/db)"));
    connect(connectButton, &QToolButton::clicked, this, &DatabasePanel::connectDialog);
    auto* refreshButton = new QToolButton(this);
    refreshButton->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
    refreshButton->setAutoRaise(true);
    refreshButton->setToolTip(tr("List the trials of every database again"));
    connect(refreshButton, &QToolButton::clicked, this, [this] {
        for (const QString& location : locations())
            refresh(location);
    });
    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->setSpacing(2);
    top->addWidget(m_search, 1);
    top->addWidget(connectButton);
    top->addWidget(refreshButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(m_searchInfo);
    layout->addWidget(m_view, 1);

    // A profile dropped from a file manager is loaded first (off the GUI thread), then uploaded.
    connect(m_loadJob, &LoadJob::progress, this, [this](const QString& stage, qint64 done, qint64 total) {
        Q_EMIT progress(stage, done, total);
        updateProgressDialog(stage, done, total);
    });
    connect(m_loadJob, &LoadJob::loaded, this, [this](std::shared_ptr<const Trial> trial, const QString& path, qint64) {
        closeProgressDialog();
        Q_EMIT fileLoaded(trial, path);
        PendingUpload pending;
        pending.trial = std::move(trial);
        pending.target = m_loadTarget;
        askUpload(pending);
    });
    connect(m_loadJob, &LoadJob::failed, this, [this](const QString& message, const QString&) {
        closeProgressDialog();
        Q_EMIT failed(message);
        Q_EMIT uploadCancelled(m_loadTarget.location);
        uploadFinished();
    });
    connect(m_loadJob, &LoadJob::cancelled, this, [this](const QString& path) {
        closeProgressDialog();
        Q_EMIT message(tr("Loading %1 cancelled; nothing was uploaded").arg(QDir::toNativeSeparators(path)));
        Q_EMIT uploadCancelled(m_loadTarget.location);
        uploadFinished();
    });
}

DatabasePanel::~DatabasePanel()
{
    // Workers report back into this object: stop the cancellable ones (an upload rolls back) and
    // wait for all of them.
    for (const auto& weak : m_progresses)
        if (const auto p = weak.lock())
            p->cancel();
    for (auto& future : m_futures)
        future.waitForFinished();
}

void DatabasePanel::setTrialSource(TrialManagerModel* trials) { m_trials = trials; }

QAbstractItemModel* DatabasePanel::model() const { return m_model; }

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

QStandardItem* DatabasePanel::itemFor(const QModelIndex& index) const
{
    return index.isValid() && index.model() == m_model ? m_model->itemFromIndex(index.siblingAtColumn(0)) : nullptr;
}

QModelIndex DatabasePanel::indexForTrial(const QString& location, qint64 id) const
{
    const QStandardItem* db = databaseItem(location);
    if (!db)
        return {};
    for (int a = 0; a < db->rowCount(); ++a) {
        const QStandardItem* app = db->child(a);
        if (app->data(KindRole).toInt() != ApplicationKind)
            continue;
        for (int e = 0; e < app->rowCount(); ++e) {
            const QStandardItem* exp = app->child(e);
            for (int t = 0; t < exp->rowCount(); ++t)
                if (exp->child(t)->data(TrialIdRole).toLongLong() == id)
                    return exp->child(t)->index();
        }
    }
    return {};
}

void DatabasePanel::addDatabase(const QString& location)
{
    if (databaseItem(location))
        return;
    auto* item = new QStandardItem(displayLocation(location));
    item->setData(DatabaseKind, KindRole);
    item->setData(location, LocationRole);
    item->setToolTip(displayableLocation(location));
    item->setIcon(style()->standardIcon(QStyle::SP_DriveHDIcon));
    m_model->appendRow({ item, new QStandardItem });
    refresh(location);
}

void DatabasePanel::run(const QString& location, const QString& what,
    const std::function<QString(perfdb::Database&)>& work, const std::function<void()>& done,
    const std::function<void(const QString&)>& onError)
{
    ++m_running;
    Q_EMIT busy(true);
    Q_EMIT progress(what, 0, 0);
    const QFuture<QString> future = runInBackground(
        this,
        [location, work]() -> QString {
            try {
                // A connection of its own, on this worker thread.
                auto db = perfdb::Database::open(location);
                if (!db)
                    return db.error().toString();
                return work(*db.value());
            } catch (const std::exception& e) {
                // perfdb reports errors as values; this is the last line for std::bad_alloc and friends.
                return displayableLocation(location) + QStringLiteral(": ") + QString::fromLocal8Bit(e.what());
            }
        },
        [this, done, onError](const QString& error) {
            if (--m_running == 0 && !m_uploading && m_queue.empty())
                Q_EMIT busy(false);
            if (!error.isEmpty()) {
                if (onError)
                    onError(error);
                else
                    Q_EMIT failed(error);
                return;
            }
            if (done)
                done();
        });
    std::erase_if(m_futures, [](const QFuture<QString>& f) { return f.isFinished(); });
    m_futures.push_back(future);
}

std::shared_ptr<Progress> DatabasePanel::makeProgress()
{
    // Called on the worker thread; the destructor waits for every worker, so `this` outlives it.
    auto reporter = std::make_shared<Progress>([this](const QString& stage, qint64 done, qint64 total) {
        QMetaObject::invokeMethod(
            this,
            [this, stage, done, total] {
                Q_EMIT progress(stage, done, total);
                updateProgressDialog(stage, done, total);
            },
            Qt::QueuedConnection);
    });
    std::erase_if(m_progresses, [](const std::weak_ptr<Progress>& p) { return p.expired(); });
    m_progresses.push_back(reporter);
    return reporter;
}

void DatabasePanel::refresh(const QString& location, qint64 select)
{
    const quint64 generation = ++m_listGeneration[location];
    const TrialSearch search = m_activeSearch;
    auto listing = std::make_shared<perfdb::TrialListing>();
    run(
        location, tr("Listing %1").arg(displayableLocation(location)),
        [search, listing](perfdb::Database& db) -> QString {
            auto listed = perfdb::searchTrials(db, search);
            if (!listed)
                return listed.error().toString();
            *listing = std::move(listed.value());
            return {};
        },
        [this, location, listing, generation, select] {
            if (m_listGeneration[location] != generation)
                return; // a newer listing (another search) is on its way
            m_listError.erase(location);
            QStandardItem* item = databaseItem(location);
            if (!item)
                return;
            fill(item, *listing);
            if (select != 0) {
                const QModelIndex index = indexForTrial(location, select);
                if (index.isValid()) {
                    m_view->setCurrentIndex(index);
                    m_view->scrollTo(index);
                }
            }
            Q_EMIT listed(location);
        },
        [this, location, generation](const QString& error) {
            if (m_listGeneration[location] != generation)
                return;
            QStandardItem* item = databaseItem(location);
            if (item) {
                item->removeRows(0, item->rowCount());
                item->setText(tr("%1 — unavailable").arg(displayLocation(location)));
                item->setToolTip(error);
                item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
            }
            // Say it once, not at every keystroke of a search.
            if (m_listError[location] != error) {
                m_listError[location] = error;
                Q_EMIT failed(error);
            }
            Q_EMIT listed(location);
        });
}

void DatabasePanel::fill(QStandardItem* dbItem, const perfdb::TrialListing& listing)
{
    dbItem->removeRows(0, dbItem->rowCount());
    const QString location = dbItem->data(LocationRole).toString();
    dbItem->setToolTip(location);
    dbItem->setIcon(style()->standardIcon(QStyle::SP_DriveHDIcon));
    const QIcon folder = style()->standardIcon(QStyle::SP_DirIcon);
    const QIcon file = style()->standardIcon(QStyle::SP_FileIcon);
    // Application -> experiment -> trial, as in ParaProf's manager, in the order people read.
    struct Order {
        bool operator()(const QString& a, const QString& b) const
        {
            const int c = QString::compare(a, b, Qt::CaseInsensitive);
            return c != 0 ? c < 0 : a < b;
        }
    };
    std::map<QString, std::map<QString, std::vector<const perfdb::TrialInfo*>, Order>, Order> tree;
    for (const auto& t : listing.trials)
        tree[t.application][t.experiment].push_back(&t);
    std::vector<QStandardItem*> expand;
    // An application or experiment folder: a drop target for uploads under its value.
    auto folderItem = [&](const QString& value, const QString& unnamed, int kind, const QString& toolTip) {
        auto* item = new QStandardItem(value.isEmpty() ? unnamed : value);
        item->setData(kind, KindRole);
        item->setData(location, LocationRole);
        item->setData(value, ValueRole);
        item->setIcon(folder);
        item->setToolTip(toolTip);
        return item;
    };
    for (const auto& [app, experiments] : tree) {
        auto* appItem = folderItem(app, tr("(no application)"), ApplicationKind,
            tr("Application %1: drop a trial here to upload it under this application").arg(quoted(app)));
        for (const auto& [exp, list] : experiments) {
            auto* expItem = folderItem(exp, tr("(no experiment)"), ExperimentKind,
                tr("Experiment %1 of %2: drop a trial here to upload it under this experiment")
                    .arg(quoted(exp), quoted(app)));
            for (const perfdb::TrialInfo* t : list) {
                QList<QStandardItem*> row = trialRow(location, *t, false);
                row.front()->setIcon(file);
                expItem->appendRow(row);
            }
            appItem->appendRow({ expItem, new QStandardItem });
            expand.push_back(expItem);
        }
        dbItem->appendRow({ appItem, new QStandardItem });
        expand.push_back(appItem);
    }
    const QLocale locale;
    const auto count = static_cast<int>(listing.trials.size());
    QString summary;
    if (!listing.missingViews.isEmpty()) {
        summary = tr("no view named %1").arg(quoted(listing.missingViews.first()));
        dbItem->appendRow(noteItem(tr("This database has no view named %1").arg(quoted(listing.missingViews.first()))));
    } else if (listing.searching) {
        summary = count == 1 ? tr("1 matching trial") : tr("%1 matching trials").arg(locale.toString(count));
        if (count == 0)
            dbItem->appendRow(noteItem(tr("No trial matches the search")));
    } else {
        summary = count == 1 ? tr("1 trial") : tr("%1 trials").arg(locale.toString(count));
    }
    dbItem->setText(QStringLiteral("%1 — %2").arg(displayLocation(location), summary));

    // The TAUdb views (saved metadata filters) of this database, as a tree through their parents.
    QStandardItem* viewsItem = nullptr;
    if (!listing.views.empty()) {
        viewsItem = new QStandardItem(tr("TAUdb Views"));
        viewsItem->setData(ViewsKind, KindRole);
        viewsItem->setData(location, LocationRole);
        viewsItem->setIcon(style()->standardIcon(QStyle::SP_FileDialogDetailedView));
        const QIcon viewIcon = style()->standardIcon(QStyle::SP_FileDialogContentsView);
        viewsItem->setToolTip(tr("The saved metadata filters (TAUdb views) of this database, each with the trials it "
                                 "selects; right-click one to filter every database by it"));
        std::map<qint64, QStandardItem*> items;
        std::map<qint64, qint64> parents;
        for (const perfdb::View& v : listing.views) {
            const auto trials = listing.viewTrials.find(v.id);
            const auto error = listing.viewErrors.find(v.id);
            QString text = v.name;
            if (error != listing.viewErrors.end())
                text = tr("%1 — cannot be applied").arg(v.name);
            else if (trials != listing.viewTrials.end())
                text = QStringLiteral("%1 (%2)").arg(
                    v.name, locale.toString(static_cast<qulonglong>(trials->second.size())));
            auto* item = new QStandardItem(text);
            item->setIcon(viewIcon);
            item->setData(ViewKind, KindRole);
            item->setData(location, LocationRole);
            item->setData(v.id, ViewIdRole);
            item->setData(v.name, ValueRole);
            item->setToolTip(error != listing.viewErrors.end()
                    ? error->second
                    : tr("View %1 (%2): its conditions are joined with %3%4")
                          .arg(quoted(v.name))
                          .arg(v.id)
                          .arg(v.conjoin.toUpper(), v.parent != 0 ? tr(", within its parent view") : QString()));
            if (trials != listing.viewTrials.end())
                for (const perfdb::TrialInfo& t : trials->second) {
                    QList<QStandardItem*> row = trialRow(location, t, true);
                    row.front()->setIcon(file);
                    item->appendRow(row);
                }
            items[v.id] = item;
            parents[v.id] = v.parent;
        }
        for (const perfdb::View& v : listing.views) {
            // Under its parent, unless the parents form a cycle (the database allows it).
            bool nested = items.contains(v.parent);
            for (qint64 p = v.parent, steps = 0; nested && p != 0; p = parents.contains(p) ? parents[p] : 0)
                if (p == v.id || ++steps > static_cast<qint64>(parents.size()))
                    nested = false;
            QStandardItem* parent = nested ? items[v.parent] : viewsItem;
            // Insert views before the parent's trials.
            int row = 0;
            while (row < parent->rowCount() && parent->child(row)->data(KindRole).toInt() == ViewKind)
                ++row;
            parent->insertRow(row, { items[v.id], new QStandardItem });
        }
        dbItem->appendRow({ viewsItem, new QStandardItem });
    }

    m_view->expand(dbItem->index());
    for (QStandardItem* item : expand)
        m_view->expand(item->index());
    if (viewsItem) {
        // The views node starts open (each view, with its trials, closed).
        const auto open = m_viewsExpanded.find(location);
        m_view->setExpanded(viewsItem->index(), open == m_viewsExpanded.end() || open->second);
        const std::set<qint64> expanded = m_expandedViews[location];
        std::function<void(QStandardItem*)> reopen = [&](QStandardItem* parent) {
            for (int r = 0; r < parent->rowCount(); ++r) {
                QStandardItem* child = parent->child(r);
                if (child->data(KindRole).toInt() != ViewKind)
                    continue;
                if (expanded.contains(child->data(ViewIdRole).toLongLong()))
                    m_view->expand(child->index());
                reopen(child);
            }
        };
        reopen(viewsItem);
    }
}

UploadTarget DatabasePanel::targetFor(const QStandardItem* item) const
{
    UploadTarget target;
    if (!item)
        return target;
    target.location = item->data(LocationRole).toString();
    const QStandardItem* node = item;
    if (node->data(KindRole).toInt() == TrialKind && node->parent()
        && node->parent()->data(KindRole).toInt() == ExperimentKind)
        node = node->parent(); // a trial of an experiment: its experiment
    switch (node->data(KindRole).toInt()) {
    case ExperimentKind:
        target.experiment = node->data(ValueRole).toString();
        if (node->parent())
            target.application = node->parent()->data(ValueRole).toString();
        break;
    case ApplicationKind:
        target.application = node->data(ValueRole).toString();
        break;
    default:
        break;
    }
    return target;
}

bool DatabasePanel::canDrop(const QMimeData* data, const QModelIndex& index) const
{
    const QStandardItem* item = itemFor(index);
    if (!item || item->data(LocationRole).toString().isEmpty())
        return false;
    if (m_trials && !m_trials->trialIdsFromMimeData(data).empty())
        return true;
    return !localPaths(data).isEmpty();
}

bool DatabasePanel::dropMimeData(const QMimeData* data, const QModelIndex& index)
{
    if (!canDrop(data, index))
        return false;
    const UploadTarget target = targetFor(itemFor(index));
    const std::vector<int> ids = m_trials ? m_trials->trialIdsFromMimeData(data) : std::vector<int>();
    if (!ids.empty()) {
        for (int id : ids) {
            PendingUpload pending;
            pending.trial = m_trials->trial(id);
            pending.target = target;
            enqueue(std::move(pending));
        }
        return true;
    }
    for (const QString& path : localPaths(data))
        uploadPath(path, target);
    return true;
}

bool DatabasePanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_view->viewport())
        return QWidget::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::DragEnter: {
        auto* e = static_cast<QDragEnterEvent*>(event);
        const bool ours = (m_trials && !m_trials->trialIdsFromMimeData(e->mimeData()).empty())
            || !localPaths(e->mimeData()).isEmpty();
        if (ours)
            e->acceptProposedAction();
        else
            e->ignore();
        return true;
    }
    case QEvent::DragMove: {
        auto* e = static_cast<QDragMoveEvent*>(event);
        const QModelIndex index = m_view->indexAt(e->position().toPoint());
        if (canDrop(e->mimeData(), index)) {
            e->setDropAction(Qt::CopyAction);
            e->accept();
            // Show where the trial will go.
            m_view->setCurrentIndex(index.siblingAtColumn(0));
        } else {
            e->ignore();
        }
        return true;
    }
    case QEvent::DragLeave:
        return true;
    case QEvent::Drop: {
        auto* e = static_cast<QDropEvent*>(event);
        if (dropMimeData(e->mimeData(), m_view->indexAt(e->position().toPoint()))) {
            e->setDropAction(Qt::CopyAction);
            e->accept();
        } else {
            e->ignore();
        }
        return true;
    }
    default:
        return QWidget::eventFilter(watched, event);
    }
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
    auto progress = makeProgress();
    run(
        location, tr("Loading trial %1").arg(id),
        [trial, id, progress](perfdb::Database& db) -> QString {
            auto loaded = db.loadTrial(id, *progress);
            if (!loaded)
                return loaded.error().toString();
            *trial = std::move(loaded.value());
            return {};
        },
        [this, trial, location, id] { Q_EMIT trialLoaded(*trial, QStringLiteral("%1#%2").arg(location).arg(id)); });
}

void DatabasePanel::setSearchText(const QString& text)
{
    m_search->setText(text);
    m_searchTimer->stop();
    applySearch();
}

QString DatabasePanel::searchText() const { return m_search->text(); }

void DatabasePanel::applySearch()
{
    m_activeSearch = TrialSearch::parse(m_search->text());
    m_searchInfo->setVisible(!m_activeSearch.isEmpty());
    m_searchInfo->setText(m_activeSearch.isEmpty() ? QString() : m_activeSearch.describe());
    for (const QString& location : locations())
        refresh(location);
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

void DatabasePanel::addUploadMenu(QMenu& menu, const UploadTarget& target)
{
    QAction* upload = menu.addAction(tr("Upload…"), this, [this, target] { uploadInteractively(nullptr, target); });
    const bool open = m_trials && !m_trials->trialIds().empty();
    upload->setEnabled(open);
    if (!open)
        upload->setText(tr("Upload… (no trial is open)"));
    menu.addAction(tr("Upload a Profile Directory…"), this, [this, target] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Upload a Profile Directory"));
        if (!dir.isEmpty())
            uploadPath(dir, target);
    });
    menu.addSeparator();
}

void DatabasePanel::openHistoryOf(const UploadTarget& target)
{
    // The trials the tree shows under the node: the node's application and experiment, through the
    // active search. The first one's metrics and metadata keys (the metric box, the order keys
    // offered) are read in the background; the history itself is computed by the window.
    const perfdb::TrialSearch search
        = withMetadata(m_activeSearch, target.application.value_or(QString()), target.experiment.value_or(QString()));
    auto metrics = std::make_shared<std::vector<Metric>>();
    auto keys = std::make_shared<QStringList>();
    run(
        target.location, tr("Reading the trials of %1").arg(search.describe()),
        [search, metrics, keys](perfdb::Database& db) -> QString {
            const auto listing = perfdb::searchTrials(db, search);
            if (!listing)
                return listing.error().toString();
            const auto& trials = listing.value().trials;
            if (trials.size() < 2)
                return tr("%1: %2; a history needs at least two")
                    .arg(search.describe(), countText(trials.size(), tr("trial"), tr("trials")));
            Progress progress;
            const auto first = db.loadTrial(trials.front().id, progress);
            if (!first)
                return first.error().toString();
            const Trial& trial = *first.value();
            *metrics = trial.metrics();
            for (const MetadataEntry& entry : trial.metadata())
                keys->append(trial.strings().get(entry.key));
            keys->sort(Qt::CaseInsensitive);
            return {};
        },
        [this, location = target.location, search, metrics, keys] {
            QStringList items { QStringLiteral("upload"), QStringLiteral("id") };
            items += *keys;
            int current = 0;
            for (const QString& preferred : { QStringLiteral("Date"), QStringLiteral("date"), QStringLiteral("Build") })
                if (const auto at = items.indexOf(preferred); at >= 0) {
                    current = static_cast<int>(at);
                    break;
                }
            bool ok = false;
            const QString key = QInputDialog::getItem(this, tr("Performance History"),
                tr("Order the runs by (a metadata key, 'upload' for the upload time, 'id'):"), items, current, true,
                &ok);
            if (!ok || key.trimmed().isEmpty())
                return;
            Q_EMIT historyOpened(openHistory(historyOfDatabase(location, search, key.trimmed(), *metrics), window()));
        });
}

void DatabasePanel::showMenu(const QPoint& pos)
{
    QStandardItem* item = itemFor(m_view->indexAt(pos));
    QMenu menu(this);
    const int kind = item ? item->data(KindRole).toInt() : 0;
    if (kind == TrialKind) {
        const QString location = item->data(LocationRole).toString();
        const qint64 id = item->data(TrialIdRole).toLongLong();
        const QString current = item->text().section(QStringLiteral("  ["), 0, 0);
        menu.addAction(tr("Open"), this, [this, location, id] { openTrial(location, id); });
        menu.addAction(tr("Edit Metadata…"), this, [this, location, id] { editMetadata(location, id); });
        menu.addAction(tr("Rename…"), this, [this, location, id, current] {
            bool ok = false;
            const QString name
                = QInputDialog::getText(this, tr("Rename Trial"), tr("New name:"), QLineEdit::Normal, current, &ok);
            if (!ok || name.isEmpty())
                return;
            run(
                location, tr("Renaming trial %1").arg(id),
                [id, name](perfdb::Database& db) -> QString {
                    const auto r = db.renameTrial(id, name);
                    return r ? QString() : r.error().toString();
                },
                [this, location, id] { refresh(location, id); });
        });
        menu.addAction(tr("Delete…"), this, [this, location, id, current] {
            if (QMessageBox::question(this, tr("Delete Trial"),
                    tr("Delete trial %1 (%2) and all its data from %3?")
                        .arg(id)
                        .arg(current, displayableLocation(location)))
                != QMessageBox::Yes)
                return;
            run(
                location, tr("Deleting trial %1").arg(id),
                [id](perfdb::Database& db) -> QString {
                    const auto r = db.deleteTrial(id);
                    return r ? QString() : r.error().toString();
                },
                [this, location] { refresh(location); });
        });
        menu.addSeparator();
    } else if (kind == ViewKind) {
        const QString name = item->data(ValueRole).toString();
        menu.addAction(tr("Filter by This View"), this, [this, name] {
            QString text = m_search->text().trimmed();
            const QString term = QStringLiteral("view:") + quoted(name);
            if (!text.contains(term))
                text = text.isEmpty() ? term : text + QLatin1Char(' ') + term;
            setSearchText(text);
        });
        menu.addSeparator();
    } else if (kind == DatabaseKind || kind == ApplicationKind || kind == ExperimentKind) {
        addUploadMenu(menu, targetFor(item));
        // The history of the trials under the node (through the search, if one is active).
        if (kind != DatabaseKind || !m_activeSearch.isEmpty()) {
            const UploadTarget target = targetFor(item);
            menu.addAction(
                kind == DatabaseKind ? tr("Performance History of the Search Results…") : tr("Performance History…"),
                this, [this, target] { openHistoryOf(target); });
            menu.addSeparator();
        }
    }
    if (item) {
        const QString location = item->data(LocationRole).toString();
        if (!location.isEmpty())
            menu.addAction(tr("Refresh"), this, [this, location] { refresh(location); });
    }
    if (!m_search->text().isEmpty())
        menu.addAction(tr("Clear the Search"), this, [this] { setSearchText(QString()); });
    menu.addAction(tr("Connect to a Database…"), this, &DatabasePanel::connectDialog);
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

} // namespace parallax
