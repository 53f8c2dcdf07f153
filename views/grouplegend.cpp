// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/grouplegend.h"

#include "views/selectionstate.h"

#include <QListWidget>
#include <QMenu>
#include <QVBoxLayout>

namespace parallax {

namespace {
constexpr int GroupRole = Qt::UserRole;
}

GroupLegend::GroupLegend(SelectionState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_list(new QListWidget(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_list);
    m_list->setContextMenuPolicy(Qt::CustomContextMenu);
    m_list->setToolTip(tr("Uncheck a group to hide its events in every view; right-click for more"));
    connect(m_list, &QListWidget::itemChanged, this, &GroupLegend::onItemChanged);
    connect(m_list, &QWidget::customContextMenuRequested, this, &GroupLegend::showMenu);
    connect(m_state, &SelectionState::trialChanged, this, &GroupLegend::rebuild);
    connect(m_state, &SelectionState::filtersChanged, this, &GroupLegend::syncChecks);
    rebuild();
}

void GroupLegend::rebuild()
{
    m_updating = true;
    m_list->clear();
    const auto& trial = m_state->trial();
    if (trial) {
        std::vector<std::size_t> counts(trial->groupCount(), 0);
        for (const auto& e : trial->events())
            for (GroupId g : e.groups)
                ++counts[g.index()];
        std::vector<std::size_t> order(trial->groupCount());
        for (std::size_t g = 0; g < order.size(); ++g)
            order[g] = g;
        std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return trial->groupName(GroupId(a)) < trial->groupName(GroupId(b)); });
        for (std::size_t g : order) {
            auto* item = new QListWidgetItem(tr("%1 (%2)").arg(trial->groupName(GroupId(g))).arg(counts[g]), m_list);
            item->setData(GroupRole, static_cast<uint>(g));
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Checked);
        }
    }
    m_updating = false;
    syncChecks();
}

void GroupLegend::syncChecks()
{
    m_updating = true;
    const GroupId only = m_state->onlyGroup();
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem* item = m_list->item(i);
        const auto g = item->data(GroupRole).toUInt();
        const bool visible = !m_state->hiddenGroups().contains(g) && (!only.isValid() || only.index() == g);
        item->setCheckState(visible ? Qt::Checked : Qt::Unchecked);
        QFont font = item->font();
        font.setBold(only.isValid() && only.index() == g);
        item->setFont(font);
    }
    m_updating = false;
}

void GroupLegend::onItemChanged(QListWidgetItem* item)
{
    if (m_updating)
        return;
    const GroupId g(item->data(GroupRole).toUInt());
    if (m_state->onlyGroup().isValid())
        m_state->showOnlyGroup(GroupId());
    m_state->hideGroup(g, item->checkState() != Qt::Checked);
}

void GroupLegend::showMenu(const QPoint& pos)
{
    QListWidgetItem* item = m_list->itemAt(pos);
    QMenu menu(this);
    if (item) {
        const GroupId g(item->data(GroupRole).toUInt());
        menu.addAction(tr("Show only this group"), this, [this, g] {
            m_state->clearFilters();
            m_state->showOnlyGroup(g);
        });
        menu.addAction(tr("Hide this group"), this, [this, g] { m_state->hideGroup(g, true); });
    }
    menu.addAction(tr("Show all groups"), this, [this] {
        const QString name = m_state->nameFilter();
        m_state->clearFilters();
        if (!name.isEmpty())
            m_state->setNameFilter(name);
    });
    menu.exec(m_list->viewport()->mapToGlobal(pos));
}

} // namespace parallax
