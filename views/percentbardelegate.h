// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QPalette>
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

    /// The opaque colour of the bar on a palette: the highlight mixed into the base, strong enough to
    /// be seen on a dark base and light enough (dark base: dark enough) for the text on top to keep its
    /// contrast (lightness difference >= 100 of 255 to the text).
    static QColor barColor(const QPalette& palette, bool selected);

private:
    int m_role;
};

} // namespace parallax
