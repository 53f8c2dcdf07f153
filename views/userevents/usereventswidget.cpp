// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/userevents/usereventswidget.h"

#include "views/selectionstate.h"
#include "views/userevents/usereventchart.h"
#include "views/userevents/usereventsmodel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

namespace parallax {

namespace {

constexpr RowMode modes[] = { RowMode::Thread, RowMode::MeanAll, RowMode::MeanPresent, RowMode::Total, RowMode::Min,
    RowMode::Max, RowMode::StdDevAll, RowMode::StdDevPresent };

} // namespace

UserEventsWidget::UserEventsWidget(SelectionState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
{
    m_model = new UserEventsModel(this);
    auto* view = new QTreeView;
    ViewSetupOptions options;
    options.placeholder = tr("Search user events…");
    options.countNoun = tr("user event");
    options.countNounPlural = tr("user events");
    options.sortColumn = UserEventsModel::Name;
    options.sortOrder = Qt::AscendingOrder;
    m_table = setupTreeView(view, m_model, options);
    // The names take the spare width, not the last column.
    view->header()->setStretchLastSection(false);
    fitNameColumn(view, UserEventsModel::Name, 240);

    m_modeCombo = new QComboBox(this);
    for (RowMode mode : modes) {
        const QString name = mode == RowMode::Thread ? tr("Selected thread") : UserEventsModel::rowModeName(mode);
        m_modeCombo->addItem(name, static_cast<int>(mode));
    }
    m_modeCombo->setCurrentIndex(m_modeCombo->findData(static_cast<int>(m_mode)));
    m_modeCombo->setToolTip(tr("Values of the selected thread, or a statistic across threads"));
    m_threadLabel = new QLabel(this);
    m_threadLabel->setForegroundRole(QPalette::PlaceholderText);

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    auto* showLabel = new QLabel(tr("&Show:"), top);
    showLabel->setBuddy(m_modeCombo);
    bar->addWidget(showLabel);
    bar->addWidget(m_modeCombo);
    bar->addWidget(m_threadLabel, 1);
    topLayout->addLayout(bar);
    topLayout->addWidget(m_table.widget, 1);

    m_chart = new UserEventChart(state, this);
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->addWidget(top);
    m_splitter->addWidget(m_chart);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6); // as the Statistics tab: no control touches the edge
    layout->addWidget(m_splitter);

    connect(m_modeCombo, &QComboBox::activated, this,
        [this](int row) { setRowMode(static_cast<RowMode>(m_modeCombo->itemData(row).toInt())); });
    connect(
        view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &UserEventsWidget::onCurrentRowChanged);
    connect(m_chart, &UserEventChart::userEventChanged, this, &UserEventsWidget::selectRowOf);
    if (m_state) {
        connect(m_state, &SelectionState::trialChanged, this, &UserEventsWidget::onTrialChanged);
        connect(m_state, &SelectionState::threadSelected, this, [this] {
            if (m_mode == RowMode::Thread)
                applyMode();
        });
    }
    onTrialChanged();
}

UserEventsWidget::~UserEventsWidget() = default;

void UserEventsWidget::setRowMode(RowMode mode)
{
    m_mode = mode;
    m_modeCombo->setCurrentIndex(m_modeCombo->findData(static_cast<int>(mode)));
    applyMode();
}

void UserEventsWidget::onTrialChanged()
{
    m_model->setTrial(m_state ? m_state->trial() : nullptr);
    applyMode();
    for (int column = 0; column < UserEventsModel::ColumnCount; ++column)
        m_table.view->resizeColumnToContents(column);
}

void UserEventsWidget::applyMode()
{
    const std::shared_ptr<const Trial>& trial = m_model->trial();
    const AtomicEventId current = m_chart->userEvent();
    ThreadIndex thread;
    bool chosen = false;
    if (m_mode == RowMode::Thread && trial && trial->threadCount() > 0) {
        thread = m_state ? m_state->thread() : ThreadIndex();
        chosen = thread.isValid() && thread.index() < trial->threadCount();
        if (!chosen)
            thread = ThreadIndex(0u);
        m_model->setRowMode(RowMode::Thread, thread);
    } else {
        m_model->setRowMode(m_mode == RowMode::Thread ? RowMode::MeanAll : m_mode);
    }
    // Entering or leaving a thread resets the model: open the context rows and find the row again.
    m_table.view->expandAll();
    selectRowOf(current);
    if (!thread.isValid())
        m_threadLabel->clear();
    else if (chosen)
        m_threadLabel->setText(tr("thread %1").arg(trial->threadKey(thread).toString()));
    else
        m_threadLabel->setText(
            tr("thread %1 (select a thread in any view to change)").arg(trial->threadKey(thread).toString()));
}

void UserEventsWidget::onCurrentRowChanged()
{
    const QModelIndex current = m_table.view->currentIndex();
    if (!current.isValid())
        return;
    const QModelIndex source = m_table.proxy->mapToSource(current.siblingAtColumn(0));
    AtomicEventId event = m_model->atomicEventAt(source);
    // A synthetic parent has no values of its own: chart its first context event.
    if (!event.isValid() && m_model->rowCount(source) > 0)
        event = m_model->atomicEventAt(m_model->index(0, 0, source));
    if (event.isValid())
        m_chart->setUserEvent(event);
}

void UserEventsWidget::selectRowOf(AtomicEventId event)
{
    const QModelIndex source = m_model->indexOf(event);
    if (!source.isValid())
        return;
    const QModelIndex proxy = m_table.proxy->mapFromSource(source);
    if (!proxy.isValid() || proxy == m_table.view->currentIndex().siblingAtColumn(0))
        return;
    m_table.view->selectionModel()->setCurrentIndex(
        proxy, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table.view->scrollTo(proxy);
}

} // namespace parallax
