#pragma once

#include <QStyledItemDelegate>

namespace parallax {

/// Draws a percentage (the SortRole value, 0..100) as a bar behind the cell's text, so that the
/// hot spots of a long table stand out before anyone reads a number.
class PercentBarDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit PercentBarDelegate(QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace parallax
