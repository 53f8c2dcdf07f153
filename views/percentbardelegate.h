// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QStyledItemDelegate>

namespace parallax {

/// Draws a percentage (0..100, read from `role`: SortRole for percent columns, a model's percent
/// role for value columns) as a bar behind the cell's text, so that the hot spots of a long table
/// stand out before anyone reads a number.
class PercentBarDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit PercentBarDelegate(QObject* parent = nullptr, int role = -1);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    int m_role;
};

} // namespace parallax
