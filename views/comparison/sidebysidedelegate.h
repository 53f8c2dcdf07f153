// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QStyledItemDelegate>

namespace parallax {

/// Paints the "A and B" column of a ComparisonModel: A's bar (baseline colour) over B's bar
/// (candidate colour) on one scale, from ComparisonModel::BarARole and BarBRole. An absent value
/// draws nothing, so a missing bar reads as "did not run".
class SideBySideBarDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit SideBySideBarDelegate(QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace parallax
