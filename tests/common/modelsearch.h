// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QAbstractItemModel>
#include <QString>

namespace parallax::test {

/// The row under `parent` (invalid: the top level) whose column 0 reads `name`, or an invalid index.
inline QModelIndex childNamed(const QAbstractItemModel& model, const QModelIndex& parent, const QString& name)
{
    for (int row = 0; row < model.rowCount(parent); ++row) {
        const QModelIndex index = model.index(row, 0, parent);
        if (index.data().toString() == name)
            return index;
    }
    return {};
}

} // namespace parallax::test
