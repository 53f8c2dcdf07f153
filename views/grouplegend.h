// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QWidget>

class QListWidget;
class QListWidgetItem;

namespace parallax {

class SelectionState;

/// The group legend: every group of the trial with its event count and a check box. Unchecking
/// hides the group's events in every view; the context menu offers "Show only this group" and
/// "Show all groups". All through SelectionState, so every view filters the same way.
class GroupLegend : public QWidget {
    Q_OBJECT
public:
    explicit GroupLegend(SelectionState* state, QWidget* parent = nullptr);

private:
    void rebuild();
    void syncChecks();
    void onItemChanged(QListWidgetItem* item);
    void showMenu(const QPoint& pos);

    SelectionState* m_state;
    QListWidget* m_list;
    bool m_updating = false;
};

} // namespace parallax
