// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/source/sourceview.h"

#include "views/selectionstate.h"
#include "views/source/showsource.h"
#include "views/source/sourceeditor.h"
#include "views/source/sourcehighlighter.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

namespace parallax {

namespace {

/// The largest file the browser reads (a source file is far smaller; this bounds a wrong one).
constexpr qint64 MaxSourceBytes = qint64(256) << 20;

std::shared_ptr<const SourceLoad> readSource(const std::shared_ptr<const Trial>& trial, const QString& recorded,
    MetricId metric, Statistic statistic, const SourceSearch& search, const QString& shownPath, const QFont& font,
    QThread* guiThread, const std::atomic_bool& cancel)
{
    auto result = std::make_shared<SourceLoad>();
    result->recorded = recorded;
    result->costs = std::make_shared<const SourceFileCosts>(sourceFileCosts(*trial, recorded, metric, statistic));
    result->lookup = locateSourceFile(*result->costs, search);
    if (result->lookup.path.isEmpty() || cancel)
        return result;
    if (result->lookup.path == shownPath) {
        result->reused = true;
        return result;
    }
    QFile f(result->lookup.path);
    if (f.size() > MaxSourceBytes) {
        result->error = QObject::tr("%1 is larger than 256 MiB").arg(result->lookup.path);
        return result;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        result->error = f.errorString();
        return result;
    }
    QString text = QString::fromUtf8(f.readAll());
    text.replace(QLatin1String("\r\n"), QLatin1String("\n"));
    if (cancel)
        return result;
    result->document = SourceEditor::buildDocument(text, result->lookup.path, font, guiThread);
    return result;
}

} // namespace

SourceView::SourceView(SelectionState* state, QWidget* parent)
    : QWidget(parent)
    , SelectionView(this, state,
          SelectionChange::Trial | SelectionChange::Metric | SelectionChange::TimeUnit | SelectionChange::Event)
    , m_title(new QLabel(this))
    , m_message(new QLabel(this))
    , m_statisticBox(new QComboBox(this))
    , m_locate(new QPushButton(tr("Locate…"), this))
    , m_editor(new SourceEditor(this))
{
    setObjectName(QStringLiteral("sourceView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bar->addWidget(m_title, 1);
    bar->addWidget(new QLabel(tr("Gutter: line, exclusive, inclusive of"), this));
    for (Statistic s : { Statistic::MeanAll, Statistic::Total, Statistic::Max, Statistic::Min })
        m_statisticBox->addItem(statisticName(s), static_cast<int>(s));
    bar->addWidget(m_statisticBox);
    layout->addLayout(bar);
    auto* messageRow = new QHBoxLayout;
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    messageRow->addWidget(m_message, 1);
    messageRow->addWidget(m_locate);
    m_locate->setToolTip(tr("Choose the directory that holds the file: it becomes a path remapping for this trial"));
    m_locate->hide();
    layout->addLayout(messageRow);
    layout->addWidget(m_editor, 1);
    m_message->setText(tr("Select an event with a source location, or choose Show Source from a context menu."));
    connect(m_statisticBox, &QComboBox::activated, this,
        [this](int i) { setStatistic(static_cast<Statistic>(m_statisticBox->itemData(i).toInt())); });
    connect(m_locate, &QPushButton::clicked, this, &SourceView::askLocate);
    connect(m_editor, &SourceEditor::eventClicked, this, [this](EventId e) { selection()->selectEvent(e); });
    connect(SourceRequests::of(state), &SourceRequests::showSource, this, [this] { reveal(); });
}

SourceView::~SourceView() { m_job.cancelAndWait(); }

void SourceView::setSearchStore(SearchStore store)
{
    m_store = std::move(store);
    m_searchTrial = nullptr; // read again for the current trial
    scheduleUpdate(SelectionChange::Trial);
}

void SourceView::setStatistic(Statistic statistic)
{
    m_statistic = statistic;
    m_statisticBox->setCurrentIndex(m_statisticBox->findData(static_cast<int>(statistic)));
    scheduleUpdate(SelectionChange::Metric);
}

QString SourceView::message() const { return m_message->text(); }

void SourceView::doUpdate(SelectionChanges changes)
{
    const auto& trial = selection()->trial();
    if (!trial) {
        m_job.cancel();
        m_editor->clearSource();
        m_editor->setCosts(nullptr, nullptr, selection()->timeUnit());
        m_recorded.clear();
        m_path.clear();
        m_title->clear();
        return;
    }
    if (changes.testFlag(SelectionChange::Trial) || m_searchTrial != trial.get()) {
        m_searchTrial = trial.get();
        m_search = m_store.load ? m_store.load(*trial) : SourceSearch {};
        if (const QString own = trialSourceRoot(trial->provenance().source); !own.isEmpty())
            m_search.roots.prepend(own);
        if (changes.testFlag(SelectionChange::Trial)) {
            m_recorded.clear();
            m_path.clear();
            m_editor->clearSource();
        }
    }
    const EventId e = selection()->event();
    if (e.isValid() && e.index() < trial->eventCount()) {
        // One event looked up here; the index of all events is built on the worker.
        if (const auto loc = sourceLocationOf(*trial, e)) {
            m_recorded = loc->file;
            m_regionFirst = loc->beginLine;
            m_regionLast = loc->endLine;
        } else if (m_recorded.isEmpty()) {
            m_message->setText(tr("%1 has no source location.").arg(trial->event(e).name));
        }
    }
    if (!m_recorded.isEmpty())
        load();
}

void SourceView::load()
{
    m_job.start(
        [trial = selection()->trial(), recorded = m_recorded, metric = selection()->metric(), statistic = m_statistic,
            search = m_search, shown = m_path, font = m_editor->font(),
            gui = thread()](const std::atomic_bool& cancel) {
            return readSource(trial, recorded, metric, statistic, search, shown, font, gui, cancel);
        },
        [this](const std::shared_ptr<const SourceLoad>& result) { apply(result); });
}

void SourceView::apply(const std::shared_ptr<const SourceLoad>& result)
{
    if (!result || result->recorded != m_recorded)
        return;
    m_tried = result->lookup.tried;
    const bool found = !result->lookup.path.isEmpty() && result->error.isEmpty();
    m_locate->setVisible(!found);
    if (!found) {
        m_path.clear();
        m_editor->clearSource();
        m_title->setText(m_recorded);
        m_message->setText(result->error.isEmpty()
                ? tr("%1 was not found. Looked at: %2. Locate… the directory that holds it.")
                      .arg(m_recorded, result->lookup.tried.join(QStringLiteral(", ")))
                : tr("%1 cannot be read: %2").arg(result->lookup.path, result->error));
        m_editor->setCosts(result->costs, selection()->trial(), selection()->timeUnit());
        return;
    }
    if (!result->reused) {
        m_path = result->lookup.path;
        m_editor->setSource(result->document);
    }
    m_editor->setCosts(result->costs, selection()->trial(), selection()->timeUnit());
    m_editor->markRegion(m_regionFirst, m_regionLast);
    m_title->setText(QStringLiteral("<b>%1</b>").arg(m_path.toHtmlEscaped()));
    const Metric& metric = selection()->trial()->metric(result->costs->metric);
    m_message->setText(tr("%1 event(s) located in %2; lines %3–%4 marked. The gutter: %5 (%6), %7 over threads.")
                           .arg(result->costs->events.size())
                           .arg(m_recorded)
                           .arg(m_regionFirst)
                           .arg(m_regionLast)
                           .arg(metric.name, unitLabel(metric, selection()->timeUnit()), statisticName(m_statistic)));
}

void SourceView::locate(const QString& directory)
{
    const auto& trial = selection()->trial();
    if (!trial || m_recorded.isEmpty() || directory.isEmpty())
        return;
    SourceSearch stored = m_store.load ? m_store.load(*trial) : SourceSearch {};
    const QString recordedDir = QFileInfo(QDir::fromNativeSeparators(m_recorded)).path();
    if (QDir::isAbsolutePath(m_recorded)) {
        stored.remaps.emplace_back(recordedDir, directory);
        m_search.remaps.emplace_back(recordedDir, directory);
    } else {
        stored.roots << directory;
        m_search.roots << directory;
    }
    if (m_store.save)
        m_store.save(*trial, stored);
    load();
}

void SourceView::askLocate()
{
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Locate the directory of %1").arg(m_recorded.section(QLatin1Char('/'), -1)));
    if (!dir.isEmpty())
        locate(dir);
}

void SourceView::reveal()
{
    // Bring this view's tab or dock to the front.
    for (QWidget* w = this; w && w->parentWidget(); w = w->parentWidget()) {
        if (auto* stack = qobject_cast<QStackedWidget*>(w->parentWidget()))
            if (auto* tabs = qobject_cast<QTabWidget*>(stack->parentWidget())) {
                tabs->setCurrentWidget(w);
                break;
            }
        if (auto* dock = qobject_cast<QDockWidget*>(w->parentWidget())) {
            dock->show();
            dock->raise();
            break;
        }
    }
}

} // namespace parallax
