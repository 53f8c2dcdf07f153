// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/overview/eventlegend.h"

#include <QPainter>
#include <QPixmap>
#include <algorithm>
#include <cmath>

namespace parallax {

namespace {

constexpr int EventIdRole = Qt::UserRole;

QIcon swatch(QColor color, const QColor& frame)
{
    QPixmap pixmap(14, 14);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setPen(frame);
    painter.setBrush(color);
    painter.drawRect(0, 0, 13, 13);
    return QIcon(pixmap);
}

} // namespace

EventLegend::EventLegend(QWidget* parent)
    : QListWidget(parent)
{
    setSelectionMode(QAbstractItemView::NoSelection);
    setTextElideMode(Qt::ElideMiddle);
    setUniformItemSizes(true);
    setToolTip(tr("The colours of the largest events of the mean bar; the rest are summed as \"other\""));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Expanding);
    setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('M')) * 16);
    setMaximumWidth(fontMetrics().horizontalAdvance(QLatin1Char('M')) * 26);
    connect(this, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const QVariant id = item->data(EventIdRole);
        if (id.isValid())
            Q_EMIT eventClicked(EventId(id.toUInt()));
    });
}

void EventLegend::setEntries(std::vector<Entry> entries, int top)
{
    clear();
    double sum = 0;
    for (const Entry& e : entries)
        sum += std::fabs(e.value);
    std::stable_sort(entries.begin(), entries.end(),
        [](const Entry& a, const Entry& b) { return std::fabs(a.value) > std::fabs(b.value); });
    const QColor frame = palette().color(QPalette::Text);
    const auto share = [&](double v) {
        return sum > 0 ? QStringLiteral("%1 %").arg(locale().toString(100.0 * std::fabs(v) / sum, 'f', 1)) : QString();
    };
    m_listed = static_cast<int>(std::min<std::size_t>(entries.size(), static_cast<std::size_t>(std::max(top, 0))));
    for (int i = 0; i < m_listed; ++i) {
        const Entry& e = entries[static_cast<std::size_t>(i)];
        auto* item
            = new QListWidgetItem(swatch(QColor(e.color), frame), share(e.value) + QStringLiteral("  ") + e.name);
        item->setData(EventIdRole, e.event.index());
        item->setToolTip(tr("%1\n%2 of the mean bar; click to select it").arg(e.name, share(e.value)));
        addItem(item);
    }
    m_other = static_cast<int>(entries.size()) - m_listed;
    if (m_other > 0) {
        double rest = 0;
        for (std::size_t i = static_cast<std::size_t>(m_listed); i < entries.size(); ++i)
            rest += std::fabs(entries[i].value);
        auto* item = new QListWidgetItem(swatch(palette().color(QPalette::Mid), frame),
            share(rest) + QStringLiteral("  ") + tr("other (%1 events)").arg(m_other));
        item->setToolTip(
            tr("%1 smaller events, each in its own colour in the bars (hover a segment for its name)").arg(m_other));
        addItem(item);
    }
}

} // namespace parallax
