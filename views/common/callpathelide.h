// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QStyledItemDelegate>

class QFontMetrics;

namespace parallax {

/// Shortens a call-path name ("a => b => c => leaf") to `width` pixels keeping what a reader
/// needs: the root and the leaf, then as many callers next to the leaf as fit
/// (".TAU application => … => solve => compute()"). When even "… => leaf" is too wide, the leaf
/// itself is elided in its middle. A name without " => " is elided in the middle.
QString elideCallPath(const QString& name, const QFontMetrics& metrics, int width);

/// Paints a name column with elideCallPath(), so that a narrow column keeps the leaf of every
/// call path in sight; the model's tool tip carries the whole name.
class CallPathNameDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace parallax
