// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/statisticspanel.h"

#include "views/callgraph/calltreemodel.h"
#include "views/common/callpathelide.h"
#include "views/common/columnfit.h"
#include "views/common/threadfinder.h"
#include "views/comparison/growthoverlay.h"
#include "views/percentbardelegate.h"
#include "views/selectionstate.h"
#include "views/source/showsource.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <optional>

namespace parallax {

namespace {

constexpr int ModeRole = Qt::UserRole;
constexpr int ThreadRole = Qt::UserRole + 1;
/// Up to this many threads the mode combo lists each thread; beyond it the thread finder picks one.
constexpr std::size_t MaxThreadEntries = 64;

} // namespace

StatisticsPanel::StatisticsPanel(SelectionState* state, QWidget* parent)
    : QWidget(parent)
    , SelectionView(this, state, {})
    , m_state(state)
    , m_flatModel(new StatisticsModel(this))
    , m_treeModel(new CallTreeModel(this))
    , m_stack(new QStackedWidget(this))
    , m_modeCombo(new QComboBox(this))
    , m_threadFinder(new ThreadFinder(this))
    , m_threadLabel(new QLabel(this))
    , m_treeButton(new QToolButton(this))
    , m_callPathsButton(new QToolButton(this))
    , m_note(new QLabel(this))
{
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Show:"), this));
    m_modeCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_modeCombo->setMaxVisibleItems(24);
    m_modeCombo->setToolTip(tr("A statistic across threads, or one thread's values"));
    controls->addWidget(m_modeCombo);
    controls->addWidget(m_threadFinder);
    controls->addWidget(m_threadLabel);
    m_treeButton->setText(tr("Call Tree"));
    m_treeButton->setCheckable(true);
    m_treeButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_treeButton->setToolTip(tr("Show the call tree built from call-path events instead of the flat list; "
                                "a collapsed node's Value is inclusive, an expanded one's exclusive (as in CUBE)"));
    controls->addWidget(m_treeButton);
    // Flat events by default, as ParaProf hides TAU_CALLPATH: a list mixing "a" with "x => a"
    // counts the same time twice and its Excl % column sums far over 100 %.
    m_callPathsButton->setText(tr("Show Call Paths (a => b)"));
    m_callPathsButton->setCheckable(true);
    m_callPathsButton->setChecked(false);
    m_callPathsButton->setToolTip(tr("Also list the call-path events (\"a => b\") beside the flat events. Their time "
                                     "is already in the flat events, so the Excl % column then sums to more than "
                                     "100 %."));
    m_flatModel->setIncludeCallPaths(false);
    controls->addWidget(m_callPathsButton);
    controls->addWidget(m_note, 1);
    m_note->setStyleSheet(QStringLiteral("color: palette(mid);"));

    // The flat table and the call tree: searched by name, largest value first, long names elided.
    const auto setUpTable = [](QAbstractItemModel* model, int nameColumn, int sortColumn, const QString& placeholder,
                                const QString& noun, const QString& nouns) {
        ViewSetupOptions options { nameColumn, placeholder, sortColumn, Qt::DescendingOrder, noun, nouns, true };
        ViewSetup setup = setupTreeView(new QTreeView, model, options);
        setup.view->setTextElideMode(Qt::ElideMiddle);
        // The name takes the width the numbers leave; the numbers keep their size.
        setup.view->header()->setStretchLastSection(false);
        fitNameColumn(setup.view, nameColumn, 240);
        return setup;
    };
    m_flat = setUpTable(m_flatModel, StatisticsModel::Name, StatisticsModel::Exclusive, tr("Search events (Ctrl+F)…"),
        tr("event"), tr("events"));
    m_flat.view->setItemDelegateForColumn(StatisticsModel::Name, new CallPathNameDelegate(m_flat.view));
    // The groups are in the Groups dock and each name's tooltip; the header menu shows the columns.
    m_flat.view->header()->hideSection(StatisticsModel::Groups);
    // Subroutine calls are rarely read first; the header menu shows the column.
    m_flat.view->header()->hideSection(StatisticsModel::Subroutines);
    auto* bars = new PercentBarDelegate(m_flat.view);
    m_flat.view->setItemDelegateForColumn(StatisticsModel::ExclusivePercent, bars);
    m_flat.view->setItemDelegateForColumn(StatisticsModel::InclusivePercent, bars);

    m_tree = setUpTable(m_treeModel, CallTreeModel::Name, CallTreeModel::Value, tr("Search the call tree (Ctrl+F)…"),
        tr("call-tree root"), tr("call-tree roots"));
    m_tree.view->setRootIsDecorated(true);
    // "Show Source" on events and call paths with a source location (docs/SEMANTICS.md §12).
    for (const auto& [view, eventRole] : { std::pair { m_flat.view, StatisticsModel::EventRole },
             std::pair { m_tree.view, CallTreeModel::EventRole } }) {
        const int role = eventRole; // clang (clang-tidy) cannot capture a structured binding
        extendViewMenu(view, [state, role](QMenu* menu, const QModelIndex& index) {
            const QVariant event = index.data(role);
            if (event.isValid())
                addShowSourceAction(menu, state, EventId(event.toUInt()));
        });
    }
    auto* valueBars = new PercentBarDelegate(m_tree.view, CallTreeModel::PercentRole);
    m_tree.view->setItemDelegateForColumn(CallTreeModel::Value, valueBars);
    m_tree.view->setItemDelegateForColumn(CallTreeModel::ExclusivePercent, new PercentBarDelegate(m_tree.view));
    m_tree.view->setItemDelegateForColumn(CallTreeModel::InclusivePercent, new PercentBarDelegate(m_tree.view));
    // CUBE value modes: the model needs to know what is expanded.
    connect(m_tree.view, &QTreeView::expanded, m_treeModel,
        [this](const QModelIndex& i) { m_treeModel->setExpanded(m_tree.proxy->mapToSource(i), true); });
    connect(m_tree.view, &QTreeView::collapsed, m_treeModel,
        [this](const QModelIndex& i) { m_treeModel->setExpanded(m_tree.proxy->mapToSource(i), false); });

    m_stack->addWidget(m_flat.widget);
    m_stack->addWidget(m_tree.widget);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(controls);
    layout->addWidget(m_stack, 1);

    connect(m_modeCombo, &QComboBox::currentIndexChanged, this, &StatisticsPanel::applyMode);
    connect(
        m_threadFinder, &ThreadFinder::threadChosen, this, [this](ThreadIndex t) { setRowMode(RowMode::Thread, t); });
    connect(m_treeButton, &QToolButton::toggled, this, &StatisticsPanel::setTreeMode);
    connect(m_callPathsButton, &QToolButton::toggled, this, [this](bool on) {
        m_flatModel->setIncludeCallPaths(on);
        resizeFlatColumns();
    });
    for (QTreeView* view : { m_flat.view, m_tree.view }) {
        connect(view, &QTreeView::activated, this, [this](const QModelIndex& index) {
            activate(index);
            // Double-click or Enter: the event across all threads (the main window opens its dock).
            if (m_state->event().isValid())
                Q_EMIT eventActivated(m_state->event());
        });
        connect(view, &QTreeView::clicked, this, &StatisticsPanel::activate);
    }
    onTrialChanged();
}

void StatisticsPanel::selectionChanged(SelectionChanges changes)
{
    if (changes & SelectionChange::Trial) {
        onTrialChanged(); // takes the trial's metric, unit and filters too
        return;
    }
    if (changes & SelectionChange::Metric) {
        m_flatModel->setMetric(m_state->metric());
        m_treeModel->setMetric(m_state->metric());
        resizeFlatColumns();
    }
    if (changes & SelectionChange::TimeUnit)
        m_treeModel->setTimeUnit(m_state->timeUnit());
    if (changes & SelectionChange::Filters)
        applyFilter();
    if (changes & SelectionChange::Event)
        onEventSelected(m_state->event());
    if (changes & SelectionChange::Growth)
        applyGrowth();
    if (changes & SelectionChange::Thread) {
        // Choosing a thread elsewhere (overview label, thread window) shows it here when the
        // table already shows a thread.
        const ThreadIndex t = m_state->thread();
        if (t.isValid() && m_flatModel->rowMode() == RowMode::Thread && m_flatModel->thread() != t)
            setRowMode(RowMode::Thread, t);
    }
}

void StatisticsPanel::onTrialChanged()
{
    const auto& trial = m_state->trial();
    // A newer state of the same run (live monitoring) keeps the statistic shown (a thread by its
    // n,c,t) and where the tables were scrolled to.
    const bool continues = m_state->trialContinuesPrevious();
    const RowMode keptMode = m_flatModel->rowMode();
    const std::optional<ThreadKey> keptThread = keptMode == RowMode::Thread && m_flatModel->trial()
            && m_flatModel->thread().index() < m_flatModel->trial()->threadCount()
        ? std::optional(m_flatModel->trial()->threadKey(m_flatModel->thread()))
        : std::nullopt;
    const int keptFlat = m_flat.view->verticalScrollBar()->value();
    const int keptTree = m_tree.view->verticalScrollBar()->value();
    {
        const QSignalBlocker a(m_modeCombo);
        fillModeCombo();
    }
    m_flatModel->setRowMode(RowMode::MeanAll);
    m_flatModel->setTrial(trial, m_state->metric());
    m_treeModel->setTrial(trial, m_state->metric());
    m_treeModel->setStatistic(Statistic::MeanAll);
    m_treeModel->setTimeUnit(m_state->timeUnit());
    applyFilter();
    applyGrowth();
    bool hasPaths = false;
    if (trial)
        for (const auto& e : trial->events())
            hasPaths = hasPaths || e.isCallPath();
    m_treeButton->setEnabled(hasPaths);
    if (!hasPaths && isTreeMode())
        setTreeMode(false);
    m_threadLabel->setVisible(false);
    resizeFlatColumns();
    if (m_tree.view->model()->rowCount() > 0)
        m_tree.view->expandToDepth(0);
    if (continues && trial) {
        if (keptMode != RowMode::Thread)
            setRowMode(keptMode);
        else if (keptThread && trial->findThread(*keptThread).isValid())
            setRowMode(RowMode::Thread, trial->findThread(*keptThread));
        // After the window has re-selected the user's event (whose row the tables scroll to):
        // the same place as before.
        QTimer::singleShot(0, this, [this, keptFlat, keptTree] {
            m_flat.view->verticalScrollBar()->setValue(keptFlat);
            m_tree.view->verticalScrollBar()->setValue(keptTree);
        });
    }
}

void StatisticsPanel::fillModeCombo()
{
    m_modeCombo->clear();
    const RowMode modes[] = { RowMode::MeanAll, RowMode::MeanPresent, RowMode::Min, RowMode::Max, RowMode::StdDevAll,
        RowMode::StdDevPresent, RowMode::Total }; // as inStatisticOrder()
    for (RowMode mode : modes) {
        m_modeCombo->addItem(StatisticsModel::rowModeName(mode));
        const int i = m_modeCombo->count() - 1;
        m_modeCombo->setItemData(i, static_cast<int>(mode), ModeRole);
        m_modeCombo->setItemData(i, -1, ThreadRole);
    }
    m_modeCombo->setItemData(
        0, tr("Mean over all threads; a thread where the event did not run counts as 0"), Qt::ToolTipRole);
    m_modeCombo->setItemData(1, tr("Mean over the threads where the event ran"), Qt::ToolTipRole);
    const auto& trial = m_state->trial();
    const std::size_t threads = trial ? trial->threadCount() : 0;
    m_threadFinder->setTrial(trial);
    m_pickedThread = 0;
    m_modeCombo->setEnabled(trial != nullptr);
    if (threads == 0)
        return;
    m_modeCombo->insertSeparator(m_modeCombo->count());
    if (threads <= MaxThreadEntries) {
        for (std::size_t t = 0; t < threads; ++t) {
            m_modeCombo->addItem(tr("Thread %1").arg(trial->threadKey(ThreadIndex(t)).toString()));
            const int i = m_modeCombo->count() - 1;
            m_modeCombo->setItemData(i, static_cast<int>(RowMode::Thread), ModeRole);
            m_modeCombo->setItemData(i, static_cast<int>(t), ThreadRole);
        }
    } else {
        // Thousands of threads do not belong in a menu: one entry, and the thread finder picks one.
        m_modeCombo->addItem(tr("Thread… (%1 threads)").arg(threads));
        const int i = m_modeCombo->count() - 1;
        m_modeCombo->setItemData(i, static_cast<int>(RowMode::Thread), ModeRole);
        m_modeCombo->setItemData(i, -1, ThreadRole);
    }
}

void StatisticsPanel::setRowMode(RowMode mode, ThreadIndex thread)
{
    const auto& trial = m_state->trial();
    if (!trial)
        return;
    for (int i = 0; i < m_modeCombo->count(); ++i) {
        if (m_modeCombo->itemData(i, ModeRole).toInt() != static_cast<int>(mode))
            continue;
        const int t = m_modeCombo->itemData(i, ThreadRole).toInt();
        if (mode == RowMode::Thread && t >= 0 && static_cast<std::uint32_t>(t) != thread.index())
            continue;
        if (mode == RowMode::Thread && t < 0)
            m_pickedThread = thread.index();
        m_modeCombo->setCurrentIndex(i);
        applyMode();
        return;
    }
}

void StatisticsPanel::applyMode()
{
    const int index = m_modeCombo->currentIndex();
    const auto& trial = m_state->trial();
    if (index < 0 || !trial)
        return;
    const auto mode = static_cast<RowMode>(m_modeCombo->itemData(index, ModeRole).toInt());
    int thread = m_modeCombo->itemData(index, ThreadRole).toInt();
    const bool picked = mode == RowMode::Thread && thread < 0;
    m_threadLabel->setVisible(picked);
    if (picked)
        thread = static_cast<int>(m_pickedThread);
    const ThreadIndex t = mode == RowMode::Thread ? ThreadIndex(static_cast<std::size_t>(thread)) : ThreadIndex();
    if (t.isValid())
        m_threadLabel->setText(tr(" n,c,t %1 ").arg(trial->threadKey(t).toString()));
    m_flatModel->setRowMode(mode, t);
    if (t.isValid())
        m_treeModel->setThread(t);
    else
        m_treeModel->setStatistic(statisticOf(mode));
    updateNote();
    resizeFlatColumns();
}

void StatisticsPanel::applyFilter()
{
    SelectionState* state = m_state;
    const bool filtering
        = !state->hiddenGroups().isEmpty() || state->onlyGroup().isValid() || !state->nameFilter().isEmpty();
    if (filtering) {
        m_flatModel->setEventFilter([state](EventId e) { return state->isEventVisible(e); });
        m_treeModel->setEventFilter([state](EventId e) { return state->isEventVisible(e); });
        m_tree.view->expandAll();
    } else {
        m_flatModel->setEventFilter({});
        m_treeModel->setEventFilter({});
        m_tree.view->expandToDepth(0);
    }
}

void StatisticsPanel::applyGrowth()
{
    // The Model and Growth columns are shown while growth models are attached (the header menu shows
    // them without: empty, their tooltip says how to get them).
    const auto& growth = m_state->growth();
    m_treeModel->setGrowth(growth);
    QHeaderView* header = m_tree.view->header();
    for (int column : { CallTreeModel::GrowthModel, CallTreeModel::Growth })
        header->setSectionHidden(column, !growth);
    if (growth && isTreeMode())
        setTreeMode(true); // fits the columns to their new contents
    updateNote();
}

void StatisticsPanel::updateNote()
{
    // The call tree's notes: paths cut at TAU_CALLPATH_DEPTH, and what the Model and Growth columns show.
    QStringList notes;
    if (isTreeMode() && m_treeModel->isTruncated())
        notes << m_treeModel->truncationNote();
    if (isTreeMode() && m_state->growth())
        notes << tr("Model and Growth: %1 (Clear in the View menu).").arg(m_state->growth()->description());
    m_note->setText(notes.join(QLatin1Char(' ')));
}

void StatisticsPanel::setTreeMode(bool tree)
{
    if (m_treeButton->isChecked() != tree) {
        const QSignalBlocker blocker(m_treeButton);
        m_treeButton->setChecked(tree);
    }
    m_stack->setCurrentIndex(tree ? 1 : 0);
    m_callPathsButton->setEnabled(!tree);
    updateNote();
    if (tree) {
        QTreeView* view = m_tree.view;
        for (int column = CallTreeModel::Value; column < CallTreeModel::ColumnCount; ++column)
            view->resizeColumnToContents(column);
        // A model's formula can be long: its tooltip has all of it.
        view->setColumnWidth(CallTreeModel::GrowthModel, std::min(view->columnWidth(CallTreeModel::GrowthModel), 330));
    }
}

void StatisticsPanel::setShowCallPaths(bool show) { m_callPathsButton->setChecked(show); }

bool StatisticsPanel::showsCallPaths() const { return m_callPathsButton->isChecked(); }

bool StatisticsPanel::isTreeMode() const { return m_stack->currentIndex() == 1; }

QTreeView* StatisticsPanel::currentView() const { return isTreeMode() ? m_tree.view : m_flat.view; }

void StatisticsPanel::focusSearch()
{
    QLineEdit* search = isTreeMode() ? m_tree.search : m_flat.search;
    search->setFocus(Qt::ShortcutFocusReason);
    search->selectAll();
}

QString StatisticsPanel::suggestedCsvName() const
{
    const auto& trial = m_state->trial();
    if (!trial)
        return QStringLiteral("parallax.csv");
    QString mode = StatisticsModel::rowModeName(m_flatModel->rowMode());
    if (m_flatModel->rowMode() == RowMode::Thread)
        mode += QLatin1Char('-') + trial->threadKey(m_flatModel->thread()).toString();
    QString name = QStringLiteral("%1-%2-%3%4.csv")
                       .arg(trial->name(), trial->metric(m_flatModel->metric()).name, mode,
                           isTreeMode() ? QStringLiteral("-tree") : QString());
    name.replace(QLatin1Char(' '), QLatin1Char('_'));
    name.remove(QLatin1Char('('));
    name.remove(QLatin1Char(')'));
    name.replace(QLatin1Char(','), QLatin1Char('.'));
    return name;
}

void StatisticsPanel::activate(const QModelIndex& proxyIndex)
{
    if (!proxyIndex.isValid())
        return;
    const QVariant e = proxyIndex.sibling(proxyIndex.row(), 0).data(StatisticsModel::EventRole);
    if (isTreeMode()) {
        const QVariant te = proxyIndex.sibling(proxyIndex.row(), 0).data(CallTreeModel::EventRole);
        if (te.isValid())
            m_state->selectEvent(EventId(te.toUInt()));
        return;
    }
    if (e.isValid())
        m_state->selectEvent(EventId(e.toUInt()));
}

void StatisticsPanel::onEventSelected(EventId event)
{
    if (!event.isValid())
        return;
    // Highlight the row of the event and scroll to it, in both views.
    const int row = m_flatModel->rowOf(event);
    if (row >= 0) {
        const QModelIndex index = m_flat.proxy->mapFromSource(m_flatModel->index(row, 0));
        if (index.isValid() && m_flat.view->currentIndex().row() != index.row()) {
            m_flat.view->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_flat.view->scrollTo(index);
        }
    }
    const QModelIndex treeSource = m_treeModel->indexOfEvent(event);
    if (treeSource.isValid()) {
        const QModelIndex index = m_tree.proxy->mapFromSource(treeSource);
        if (index.isValid() && m_tree.view->currentIndex() != index) {
            m_tree.view->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_tree.view->scrollTo(index);
        }
    }
}

void StatisticsPanel::resizeFlatColumns()
{
    // Numbers at their content width; the Name column takes the rest (fitNameColumn), and names too long
    // for it are shortened keeping their leaf (CallPathNameDelegate).
    QTreeView* view = m_flat.view;
    const QHeaderView* header = view->header();
    for (int column = StatisticsModel::Exclusive; column < StatisticsModel::ColumnCount; ++column)
        if (!header->isSectionHidden(column))
            fitColumnToContent(view, column);
    view->setColumnWidth(StatisticsModel::Groups, std::min(view->columnWidth(StatisticsModel::Groups), 160));
}

} // namespace parallax
