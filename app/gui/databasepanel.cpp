// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/gui/databasepanel.h"

#include "app/gui/loadjob.h"
#include "datasource/readers/progress.h"
#include "perfdb/databaselocation.h"
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
#include <QFutureWatcher>
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
#include <QtConcurrent/QtConcurrentRun>
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

    const QString ApplicationKey = QStringLiteral("Application");
    const QString ExperimentKey = QStringLiteral("Experiment");

    QString displayLocation(const QString& location)
    {
        return location == defaultDatabasePath() ? QObject::tr("Default database (%1)").arg(location)
                                                 : displayableLocation(location);
    }

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

    /// The TrialInfo of every listing, filtered by the search: its metadata terms and first name
    /// word go to listTrials(); more words and views (several views intersect) are applied here,
    /// on the worker thread.
    struct SearchRunner {
        perfdb::Database& db;
        const TrialSearch& search;
        std::vector<qint64> viewIds; ///< of the view: terms

        perfdb::DbResult<std::vector<perfdb::TrialInfo>> list(qint64 extraView) const
        {
            perfdb::TrialFilter filter;
            filter.metadata = search.metadata;
            if (!search.nameWords.isEmpty())
                filter.nameContains = search.nameWords.first();
            std::vector<qint64> views = viewIds;
            if (extraView != 0)
                views.push_back(extraView);
            filter.view = views.empty() ? 0 : views.front();
            auto listed = db.listTrials(filter);
            if (!listed)
                return listed.error();
            std::vector<perfdb::TrialInfo> trials = std::move(listed.value());
            for (std::size_t i = 1; i < views.size(); ++i) {
                filter.view = views[i];
                auto more = db.listTrials(filter);
                if (!more)
                    return more.error();
                std::set<qint64> ids;
                for (const auto& t : more.value())
                    ids.insert(t.id);
                std::erase_if(trials, [&](const perfdb::TrialInfo& t) { return !ids.contains(t.id); });
            }
            std::erase_if(trials, [&](const perfdb::TrialInfo& t) {
                return std::any_of(search.nameWords.begin(), search.nameWords.end(),
                    [&](const QString& word) { return !t.name.contains(word, Qt::CaseInsensitive); });
            });
            return trials;
        }
    };

    /// What the search means, in words, under the search field.
    QString describe(const TrialSearch& search)
    {
        QStringList parts;
        for (const auto& [key, value] : search.metadata)
            parts.append(QObject::tr("%1 = %2").arg(quoted(key), quoted(value)));
        for (const QString& word : search.nameWords)
            parts.append(QObject::tr("name contains %1").arg(quoted(word)));
        for (const QString& view : search.views)
            parts.append(QObject::tr("in view %1").arg(quoted(view)));
        return QObject::tr("Trials where %1").arg(parts.join(QObject::tr(" and ")));
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

TrialSearch TrialSearch::parse(const QString& text)
{
    TrialSearch search;
    QString term;
    qsizetype separator = -1; // of the first '=' outside quotes
    bool started = false;
    bool quotedStart = false;
    bool inQuotes = false;
    auto flush = [&] {
        if (!started)
            return;
        if (separator > 0) {
            const QString key = term.left(separator).trimmed();
            if (!key.isEmpty())
                search.metadata.emplace_back(key, term.mid(separator + 1));
            else
                search.nameWords.append(term);
        } else if (!quotedStart && term.startsWith(QLatin1String("view:"), Qt::CaseInsensitive) && separator < 0) {
            const QString view = term.mid(5).trimmed();
            if (!view.isEmpty())
                search.views.append(view);
        } else if (!term.isEmpty()) {
            search.nameWords.append(term);
        }
        term.clear();
        separator = -1;
        started = quotedStart = false;
    };
    for (const QChar c : text) {
        if (c == QLatin1Char('"')) {
            if (!started)
                quotedStart = true;
            started = true;
            inQuotes = !inQuotes;
            continue;
        }
        if (!inQuotes && c.isSpace()) {
            flush();
            continue;
        }
        if (!inQuotes && c == QLatin1Char('=') && separator < 0)
            separator = term.size();
        term += c;
        started = true;
    }
    flush();
    return search;
}

struct DatabasePanel::Listing {
    std::vector<perfdb::TrialInfo> trials;
    std::vector<perfdb::View> views;
    std::map<qint64, std::vector<perfdb::TrialInfo>> viewTrials;
    std::map<qint64, QString> viewErrors;
    QStringList missingViews; ///< view: terms that name no view of this database
    bool searching = false;
};

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
        askUpload(std::move(pending));
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

void DatabasePanel::run(const QString& location, const QString& what, std::function<QString(perfdb::Database&)> work,
    std::function<void()> done, std::function<void(const QString&)> onError)
{
    ++m_running;
    Q_EMIT busy(true);
    Q_EMIT progress(what, 0, 0);
    auto* watcher = new QFutureWatcher<QString>(this);
    const QFuture<QString> future = QtConcurrent::run([location, work]() -> QString {
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
    });
    std::erase_if(m_futures, [](const QFuture<QString>& f) { return f.isFinished(); });
    m_futures.push_back(future);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, done, onError] {
        watcher->deleteLater();
        const QString error = watcher->result();
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
    watcher->setFuture(future);
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
    auto listing = std::make_shared<Listing>();
    run(
        location, tr("Listing %1").arg(displayableLocation(location)),
        [search, listing](perfdb::Database& db) -> QString {
            listing->searching = !search.isEmpty();
            auto views = db.views();
            if (views)
                listing->views = std::move(views.value());
            SearchRunner runner { db, search, {} };
            for (const QString& name : search.views) {
                const auto it = std::find_if(listing->views.begin(), listing->views.end(),
                    [&](const perfdb::View& v) { return v.name.compare(name, Qt::CaseInsensitive) == 0; });
                if (it == listing->views.end())
                    listing->missingViews.append(name);
                else
                    runner.viewIds.push_back(it->id);
            }
            if (!listing->missingViews.isEmpty())
                return {}; // nothing in this database can match
            auto listed = runner.list(0);
            if (!listed)
                return listed.error().toString();
            listing->trials = std::move(listed.value());
            // Each TAUdb view with the trials it selects (through the search too).
            for (const perfdb::View& v : listing->views) {
                auto selected = runner.list(v.id);
                if (selected)
                    listing->viewTrials[v.id] = std::move(selected.value());
                else
                    listing->viewErrors[v.id] = selected.error().message;
            }
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

void DatabasePanel::fill(QStandardItem* dbItem, const Listing& listing)
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
    for (const auto& [app, experiments] : tree) {
        auto* appItem = new QStandardItem(app.isEmpty() ? tr("(no application)") : app);
        appItem->setData(ApplicationKind, KindRole);
        appItem->setData(location, LocationRole);
        appItem->setData(app, ValueRole);
        appItem->setIcon(folder);
        appItem->setToolTip(
            tr("Application %1: drop a trial here to upload it under this application").arg(quoted(app)));
        for (const auto& [exp, list] : experiments) {
            auto* expItem = new QStandardItem(exp.isEmpty() ? tr("(no experiment)") : exp);
            expItem->setData(ExperimentKind, KindRole);
            expItem->setData(location, LocationRole);
            expItem->setData(exp, ValueRole);
            expItem->setIcon(folder);
            expItem->setToolTip(tr("Experiment %1 of %2: drop a trial here to upload it under this experiment")
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

void DatabasePanel::upload(
    std::shared_ptr<const Trial> trial, const QString& location, const perfdb::UploadOptions& options)
{
    if (!trial)
        return;
    addDatabase(location);
    PendingUpload pending;
    pending.trial = std::move(trial);
    pending.target.location = location;
    pending.ask = false;
    pending.options = options;
    enqueue(std::move(pending));
}

void DatabasePanel::uploadInteractively(std::shared_ptr<const Trial> trial, const UploadTarget& target)
{
    PendingUpload pending;
    pending.trial = std::move(trial);
    pending.chooseTrial = !pending.trial;
    pending.target = target;
    enqueue(std::move(pending));
}

void DatabasePanel::uploadPath(const QString& path, const UploadTarget& target)
{
    PendingUpload pending;
    pending.path = path;
    pending.target = target;
    enqueue(std::move(pending));
}

void DatabasePanel::enqueue(PendingUpload pending)
{
    m_queue.push_back(std::move(pending));
    processQueue();
}

void DatabasePanel::processQueue()
{
    if (m_uploading || m_queue.empty())
        return;
    PendingUpload next = std::move(m_queue.front());
    m_queue.pop_front();
    m_uploading = true;
    Q_EMIT busy(true);
    if (!next.trial && !next.chooseTrial) {
        m_loadTarget = next.target;
        showProgressDialog(tr("Loading %1…").arg(QDir::toNativeSeparators(next.path)));
        m_loadJob->start(next.path);
        return;
    }
    if (next.ask)
        askUpload(std::move(next));
    else
        startUpload(next.trial, next.target.location, next.options);
}

void DatabasePanel::uploadFinished()
{
    m_uploading = false;
    m_uploadProgress.reset();
    if (m_queue.empty() && m_running == 0)
        Q_EMIT busy(false);
    // The next one after this turn of the event loop: the finished one's dialogs are gone by then.
    QTimer::singleShot(0, this, &DatabasePanel::processQueue);
}

void DatabasePanel::cancelUpload()
{
    if (m_loadJob->isRunning())
        m_loadJob->cancel();
    if (m_uploadProgress)
        m_uploadProgress->cancel();
}

void DatabasePanel::askUpload(PendingUpload pending)
{
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("uploadDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Upload to Database"));
    auto* form = new QFormLayout(dialog);

    auto* trialCombo = new QComboBox(dialog);
    trialCombo->setObjectName(QStringLiteral("trial"));
    if (pending.trial) {
        trialCombo->addItem(pending.trial->name());
        trialCombo->setEnabled(false);
    } else if (m_trials) {
        for (int id : m_trials->trialIds())
            trialCombo->addItem(m_trials->trial(id)->name(), id);
    }
    auto* summary = new QLabel(dialog);
    summary->setForegroundRole(QPalette::PlaceholderText);
    auto* database = new QComboBox(dialog);
    database->setObjectName(QStringLiteral("database"));
    database->setEditable(true);
    database->addItems(locations());
    if (!pending.target.location.isEmpty()) {
        if (database->findText(pending.target.location) < 0)
            database->addItem(pending.target.location);
        database->setCurrentText(pending.target.location);
    }
    database->setToolTip(tr("An SQLite file or postgresql://user@host:port/db"));
    database->setMinimumContentsLength(36);
    auto* application = new QLineEdit(dialog);
    application->setObjectName(QStringLiteral("application"));
    auto* experiment = new QLineEdit(dialog);
    experiment->setObjectName(QStringLiteral("experiment"));
    auto* name = new QLineEdit(dialog);
    name->setObjectName(QStringLiteral("name"));
    application->setToolTip(
        tr("Stored as the trial's \"Application\" metadata; the database tree groups trials by it"));
    experiment->setToolTip(tr("Stored as the trial's \"Experiment\" metadata"));

    // The chosen trial: the dropped one, or one of the open trials.
    auto chosen = std::make_shared<std::shared_ptr<const Trial>>(pending.trial);
    const UploadTarget target = pending.target;
    auto choose = [this, chosen, trialCombo, summary, application, experiment, name, target] {
        if (!chosen->get() || trialCombo->isEnabled())
            *chosen = m_trials && trialCombo->currentIndex() >= 0 ? m_trials->trial(trialCombo->currentData().toInt())
                                                                  : nullptr;
        const Trial* t = chosen->get();
        if (!t) {
            summary->setText(tr("No trial is open: open or drop a profile first"));
            return;
        }
        const QLocale locale;
        auto count = [&](std::size_t n, const QString& one, const QString& many) {
            return n == 1 ? one : many.arg(locale.toString(static_cast<qulonglong>(n)));
        };
        summary->setText(QStringList { count(t->threadCount(), tr("1 thread"), tr("%1 threads")),
            count(t->eventCount(), tr("1 event"), tr("%1 events")),
            count(t->metricCount(), tr("1 metric"), tr("%1 metrics")) }
                             .join(QLatin1String(", ")));
        summary->setToolTip(t->provenance().source);
        // The node it was dropped on decides; otherwise the trial's own metadata.
        application->setText(target.application.value_or(t->metadataValue(ApplicationKey)));
        experiment->setText(target.experiment.value_or(t->metadataValue(ExperimentKey)));
        name->setText(t->name());
    };
    choose();
    connect(trialCombo, &QComboBox::currentIndexChanged, dialog, choose);

    form->addRow(tr("Trial:"), trialCombo);
    form->addRow(QString(), summary);
    form->addRow(tr("Database:"), database);
    form->addRow(tr("Application:"), application);
    form->addRow(tr("Experiment:"), experiment);
    form->addRow(tr("Trial name:"), name);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    QPushButton* ok = buttons->button(QDialogButtonBox::Ok);
    ok->setText(tr("Upload"));
    auto updateOk
        = [ok, database, chosen] { ok->setEnabled(chosen->get() && !database->currentText().trimmed().isEmpty()); };
    updateOk();
    connect(database, &QComboBox::currentTextChanged, dialog, updateOk);
    connect(trialCombo, &QComboBox::currentIndexChanged, dialog, updateOk);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(dialog, &QDialog::finished, this,
        [this, dialog, chosen, database, application, experiment, name, target](int result) {
            const QString location = database->currentText().trimmed();
            if (result != QDialog::Accepted || !chosen->get() || location.isEmpty()) {
                Q_EMIT uploadCancelled(target.location);
                uploadFinished();
                return;
            }
            perfdb::UploadOptions options;
            options.application = application->text().trimmed();
            options.experiment = experiment->text().trimmed();
            options.name = name->text().trimmed();
            dialog->hide();
            addDatabase(location);
            startUpload(*chosen, location, options);
        });
    dialog->open();
    name->setFocus();
}

void DatabasePanel::startUpload(
    std::shared_ptr<const Trial> trial, const QString& location, const perfdb::UploadOptions& options)
{
    const QString trialName = options.name.isEmpty() ? trial->name() : options.name;
    auto progress = makeProgress();
    m_uploadProgress = progress;
    auto id = std::make_shared<qint64>(0);
    showProgressDialog(tr("Uploading %1 to %2…").arg(trialName, displayLocation(location)));
    run(
        location, tr("Uploading %1").arg(trialName),
        [trial, options, progress, id](perfdb::Database& db) -> QString {
            const auto stored = db.uploadTrial(*trial, options, *progress);
            if (!stored)
                return stored.error().toString();
            *id = stored.value();
            return {};
        },
        [this, location, id] {
            closeProgressDialog();
            Q_EMIT message(tr("Stored as trial %1 in %2").arg(*id).arg(displayableLocation(location)));
            refresh(location, *id);
            Q_EMIT uploaded(location, *id);
            uploadFinished();
        },
        [this, location, progress](const QString& error) {
            closeProgressDialog();
            if (progress->isCancelled()) {
                // The upload is one transaction: a cancel rolls it back.
                Q_EMIT message(tr("Upload to %1 cancelled; nothing was stored").arg(displayableLocation(location)));
                Q_EMIT uploadCancelled(location);
            } else {
                Q_EMIT failed(error);
            }
            uploadFinished();
        });
}

void DatabasePanel::showProgressDialog(const QString& title)
{
    closeProgressDialog();
    auto* dialog = new QProgressDialog(this);
    dialog->setObjectName(QStringLiteral("uploadProgress"));
    dialog->setWindowTitle(tr("Database"));
    // Not modal: a modal QProgressDialog processes events inside setValue(), and the rest of the
    // window has no reason to wait.
    dialog->setWindowModality(Qt::NonModal);
    dialog->setAutoClose(false);
    dialog->setAutoReset(false);
    dialog->setMinimumDuration(300);
    dialog->setMinimumWidth(420);
    dialog->setRange(0, 0);
    m_progressTitle = title;
    dialog->setLabelText(title);
    connect(dialog, &QProgressDialog::canceled, this, &DatabasePanel::cancelUpload);
    m_progressDialog = dialog;
}

void DatabasePanel::updateProgressDialog(const QString& stage, qint64 done, qint64 total)
{
    if (!m_progressDialog || m_progressDialog->wasCanceled())
        return;
    const QLocale locale;
    QString text = m_progressTitle + QLatin1Char('\n') + stage;
    if (total > 0)
        text += tr(" (%1 of %2)").arg(locale.toString(done), locale.toString(total));
    m_progressDialog->setLabelText(text);
    const qint64 scale = total > 1000000 ? total / 1000000 + 1 : 1;
    m_progressDialog->setMaximum(total > 0 ? static_cast<int>(total / scale) : 0);
    m_progressDialog->setValue(total > 0 ? static_cast<int>(std::min(done, total) / scale) : 0);
}

void DatabasePanel::closeProgressDialog()
{
    if (!m_progressDialog)
        return;
    QProgressDialog* dialog = m_progressDialog;
    m_progressDialog = nullptr;
    // Closing a progress dialog cancels it: this one has finished.
    disconnect(dialog, &QProgressDialog::canceled, this, &DatabasePanel::cancelUpload);
    dialog->hide();
    dialog->deleteLater();
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

void DatabasePanel::editMetadata(const QString& location, qint64 id)
{
    auto info = std::make_shared<perfdb::TrialInfo>();
    auto entries = std::make_shared<std::vector<std::pair<QString, QString>>>();
    run(
        location, tr("Reading the metadata of trial %1").arg(id),
        [id, info, entries](perfdb::Database& db) -> QString {
            auto i = db.trialInfo(id);
            if (!i)
                return i.error().toString();
            *info = std::move(i.value());
            auto m = db.trialMetadata(id);
            if (!m)
                return m.error().toString();
            *entries = std::move(m.value());
            return {};
        },
        [this, location, info, entries] { showMetadataEditor(location, *info, *entries); });
}

void DatabasePanel::showMetadataEditor(
    const QString& location, const perfdb::TrialInfo& info, const std::vector<std::pair<QString, QString>>& entries)
{
    const qint64 id = info.id;
    std::map<QString, QString> original;
    for (const auto& [key, value] : entries)
        original.emplace(key, value.isNull() ? QString(QLatin1String("")) : value);

    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("metadataDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Edit Metadata — %1").arg(info.name));
    dialog->resize(680, 520);
    auto* layout = new QVBoxLayout(dialog);

    auto* header = new QLabel(tr("<b>%1</b> — trial %2 in %3")
                                  .arg(info.name.toHtmlEscaped())
                                  .arg(id)
                                  .arg(displayLocation(location).toHtmlEscaped()),
        dialog);
    header->setWordWrap(true);
    header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(header);
    auto* hint = new QLabel(tr("Application and Experiment place the trial in the database tree (empty: none). "
                               "Double-click a cell to change it; the changes are saved together when you press Save."),
        dialog);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(hint);

    auto* filter = new QLineEdit(dialog);
    filter->setObjectName(QStringLiteral("metadataFilter"));
    filter->setPlaceholderText(tr("Filter keys and values"));
    filter->setClearButtonEnabled(true);
    layout->addWidget(filter);

    auto* table = new QTableWidget(0, 2, dialog);
    table->setObjectName(QStringLiteral("metadataTable"));
    table->setHorizontalHeaderLabels({ tr("Key"), tr("Value") });
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->setTextElideMode(Qt::ElideMiddle);
    table->setEditTriggers(
        QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed);
    // Rows read from the database remember what they held (OriginalRole on both cells), so that
    // changes can be shown before they are saved.
    constexpr int OriginalRole = Qt::UserRole + 1;
    auto addRow = [table](const QString& key, const QString& value, bool pinned, bool stored) {
        const int row = table->rowCount();
        table->insertRow(row);
        auto* keyItem = new QTableWidgetItem(key);
        auto* valueItem = new QTableWidgetItem(value);
        valueItem->setToolTip(value);
        if (stored) {
            keyItem->setData(OriginalRole, key);
            valueItem->setData(OriginalRole, value);
        }
        if (pinned) {
            // Application and Experiment stay: an empty value removes the entry instead.
            keyItem->setFlags(keyItem->flags() & ~Qt::ItemIsEditable);
            QFont bold = keyItem->font();
            bold.setBold(true);
            keyItem->setFont(bold);
            keyItem->setData(Qt::UserRole, true);
            keyItem->setToolTip(tr("Where the trial is listed in the database tree; changing it moves the trial"));
        }
        table->setItem(row, 0, keyItem);
        table->setItem(row, 1, valueItem);
        return row;
    };
    const QString none = QLatin1String("");
    addRow(ApplicationKey, original.contains(ApplicationKey) ? original[ApplicationKey] : none, true, true);
    addRow(ExperimentKey, original.contains(ExperimentKey) ? original[ExperimentKey] : none, true, true);
    for (const auto& [key, value] : original)
        if (key != ApplicationKey && key != ExperimentKey)
            addRow(key, value, false, true);
    table->resizeColumnToContents(0);
    table->setColumnWidth(0, std::clamp(table->columnWidth(0) + 12, 140, 280));
    layout->addWidget(table, 1);

    auto* add = new QPushButton(tr("&Add"), dialog);
    add->setObjectName(QStringLiteral("addMetadata"));
    add->setToolTip(tr("Add a key/value entry"));
    auto* remove = new QPushButton(tr("&Remove"), dialog);
    remove->setObjectName(QStringLiteral("removeMetadata"));
    remove->setToolTip(tr("Remove the selected entries"));
    remove->setEnabled(false);
    auto* count = new QLabel(dialog);
    count->setObjectName(QStringLiteral("metadataCount"));
    count->setForegroundRole(QPalette::PlaceholderText);
    auto removed = std::make_shared<int>(0);
    auto updateCount = [table, count, removed] {
        // Tint what Save would change, and count it.
        QColor tint = table->palette().color(QPalette::Highlight);
        tint.setAlpha(64);
        int changed = 0;
        const QSignalBlocker blocker(table);
        for (int r = 0; r < table->rowCount(); ++r) {
            QTableWidgetItem* key = table->item(r, 0);
            QTableWidgetItem* value = table->item(r, 1);
            if (!key || !value)
                continue;
            const QVariant was = value->data(OriginalRole);
            const bool isChanged = was.isValid()
                ? key->text() != key->data(OriginalRole).toString() || value->text() != was.toString()
                : !key->text().isEmpty() || !value->text().isEmpty();
            changed += isChanged ? 1 : 0;
            const QBrush brush = isChanged ? QBrush(tint) : QBrush();
            key->setBackground(brush);
            value->setBackground(brush);
            value->setToolTip(!isChanged ? value->text()
                    : was.isValid()      ? tr("%1\n(was: %2)").arg(value->text(), was.toString())
                                         : tr("%1\n(new entry)").arg(value->text()));
        }
        QString text = table->rowCount() == 1 ? tr("1 entry") : tr("%1 entries").arg(table->rowCount());
        if (changed > 0 || *removed > 0)
            text += tr(" · %1 changed, %2 removed").arg(changed).arg(*removed);
        count->setText(text);
    };
    updateCount();
    connect(table, &QTableWidget::itemChanged, count, updateCount);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, dialog);
    auto* row = new QHBoxLayout;
    row->addWidget(add);
    row->addWidget(remove);
    row->addSpacing(8);
    row->addWidget(count);
    row->addStretch(1);
    row->addWidget(buttons);
    layout->addLayout(row);

    connect(filter, &QLineEdit::textChanged, table, [table](const QString& text) {
        for (int r = 0; r < table->rowCount(); ++r) {
            bool match = text.isEmpty();
            for (int c = 0; c < 2 && !match; ++c)
                match = table->item(r, c) && table->item(r, c)->text().contains(text, Qt::CaseInsensitive);
            table->setRowHidden(r, !match);
        }
    });
    connect(add, &QPushButton::clicked, table, [table, filter, addRow, updateCount] {
        filter->clear();
        const int r = addRow(QString(), QString(), false, false);
        updateCount();
        table->scrollToBottom();
        table->setCurrentCell(r, 0);
        table->editItem(table->item(r, 0));
    });
    auto pinned = [table](int r) { return table->item(r, 0) && table->item(r, 0)->data(Qt::UserRole).toBool(); };
    connect(table, &QTableWidget::itemSelectionChanged, remove, [table, remove, pinned] {
        const QModelIndexList rows = table->selectionModel()->selectedRows();
        remove->setEnabled(
            std::any_of(rows.begin(), rows.end(), [&](const QModelIndex& i) { return !pinned(i.row()); }));
    });
    connect(remove, &QPushButton::clicked, table, [table, pinned, updateCount, removed] {
        QList<int> rows;
        const QModelIndexList selected = table->selectionModel()->selectedRows();
        for (const QModelIndex& index : selected)
            if (!pinned(index.row()))
                rows.append(index.row());
        std::sort(rows.begin(), rows.end(), std::greater<>());
        for (int r : rows) {
            if (table->item(r, 0) && table->item(r, 0)->data(OriginalRole).isValid())
                ++*removed;
            table->removeRow(r);
        }
        updateCount();
    });
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dialog, [=, this] {
        // The table as it is now, checked, against what the database holds.
        std::map<QString, QString> edited;
        for (int r = 0; r < table->rowCount(); ++r) {
            const QString key = table->item(r, 0) ? table->item(r, 0)->text().trimmed() : QString();
            QString value = table->item(r, 1) ? table->item(r, 1)->text() : QString();
            if (value.isNull())
                value = QLatin1String("");
            if (pinned(r)) {
                if (!value.trimmed().isEmpty())
                    edited[key] = value.trimmed();
                continue;
            }
            if (key.isEmpty()) {
                if (value.isEmpty())
                    continue; // an added row left empty
                QMessageBox::warning(dialog, tr("Edit Metadata"), tr("Row %1 has a value but no key.").arg(r + 1));
                table->setCurrentCell(r, 0);
                return;
            }
            if (edited.contains(key) || key == ApplicationKey || key == ExperimentKey) {
                QMessageBox::warning(dialog, tr("Edit Metadata"), tr("The key \"%1\" appears twice.").arg(key));
                table->setCurrentCell(r, 0);
                return;
            }
            edited[key] = value;
        }
        std::vector<std::pair<QString, QString>> changes;
        for (const auto& [key, value] : original)
            if (!edited.contains(key))
                changes.emplace_back(key, QString()); // null: remove
        for (const auto& [key, value] : edited) {
            const auto it = original.find(key);
            if (it == original.end() || it->second != value)
                changes.emplace_back(key, value);
        }
        if (changes.empty()) {
            dialog->accept();
            return;
        }
        // One transaction on a worker thread; the dialog waits, and stays open if it fails.
        dialog->setEnabled(false);
        buttons->button(QDialogButtonBox::Save)->setText(tr("Saving…"));
        const QPointer<QDialog> guard(dialog);
        run(
            location, tr("Saving the metadata of trial %1").arg(id),
            [id, changes](perfdb::Database& db) -> QString {
                const auto r = db.updateMetadata(id, changes);
                return r ? QString() : r.error().message;
            },
            [this, guard, location, id] {
                if (guard)
                    guard->accept();
                Q_EMIT message(tr("Saved the metadata of trial %1 in %2").arg(id).arg(displayableLocation(location)));
                Q_EMIT metadataSaved(location, id);
                refresh(location, id);
            },
            [this, guard, buttons, location, id](const QString& error) {
                QWidget* parent = guard ? static_cast<QWidget*>(guard.data()) : this;
                if (guard) {
                    guard->setEnabled(true);
                    buttons->button(QDialogButtonBox::Save)->setText(tr("Save"));
                }
                QMessageBox::warning(parent, tr("Edit Metadata"),
                    tr("Could not save the metadata of trial %1 in the database %2:\n\n%3\n\nNothing was changed.")
                        .arg(id)
                        .arg(displayLocation(location), error));
            });
    });
    dialog->open();
    table->setFocus();
    Q_EMIT metadataEditorShown(dialog);
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
    m_searchInfo->setText(m_activeSearch.isEmpty() ? QString() : describe(m_activeSearch));
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
