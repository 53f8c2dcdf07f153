// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/semantic/semanticlevelbox.h"

#include "views/semantic/semanticformat.h"

#include <algorithm>

namespace parallax {

SemanticLevelBox::SemanticLevelBox(LeavesAt leaves, QWidget* parent)
    : QComboBox(parent)
    , m_leaves(leaves)
{
    connect(this, &QComboBox::activated, this, [this] { Q_EMIT levelChosen(currentData().toInt()); });
}

int SemanticLevelBox::fill(const semantic::SemanticProfile* profile, int level)
{
    const QSignalBlocker block(this);
    clear();
    const int depth = profile ? semanticview::maxDepth(*profile) : 0;
    if (m_leaves == LeavesAt::First)
        addItem(tr("Leaves"), -1);
    for (int d = 0; d <= depth; ++d)
        addItem(d == 0 ? tr("Top level") : tr("Level %1").arg(d + 1), d);
    if (m_leaves == LeavesAt::Last)
        addItem(tr("Leaves"), -1);
    if (level > depth)
        level = -1;
    setCurrentIndex(std::max(0, findData(level)));
    return level;
}

void SemanticLevelBox::select(int level)
{
    const QSignalBlocker block(this);
    const int i = findData(level);
    if (i >= 0)
        setCurrentIndex(i);
}

} // namespace parallax
