// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QLayout>
#include <QList>

namespace parallax {

/// A layout that places its items left to right at their size hints and wraps onto a new line
/// when the width runs out, so a narrow dock shows every control whole on two or three lines
/// instead of clipping them ("Metric: TI", "xport…"). Items stay at their size hints: a control is
/// never narrower than its text. An item added with a stretch flag (addStretchItem) takes the
/// rest of its line (a search field, a note).
class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr, int hSpacing = 6, int vSpacing = 4);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    /// Inserts a widget before position `index` (appends when index is out of range).
    void insertWidget(int index, QWidget* widget);
    /// Adds a widget that takes the remaining width of its line (at least its minimum size hint).
    void addStretchWidget(QWidget* widget);
    /// Starts a new line before the next item (a group of controls kept together below).
    void addLineBreak();

    int count() const override;
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    struct Entry {
        QLayoutItem* item = nullptr;
        bool stretch = false;
        bool breakBefore = false;
    };
    int doLayout(const QRect& rect, bool apply) const;

    QList<Entry> m_entries;
    int m_hSpacing;
    int m_vSpacing;
    bool m_pendingBreak = false;
};

} // namespace parallax
