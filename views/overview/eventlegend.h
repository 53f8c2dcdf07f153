// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QListWidget>
#include <vector>

namespace parallax {

/// The overview's colour legend: the top N events of the bars (by their share of the mean bar) with
/// their colours, and one "other" line for the rest, so that the colours of a trial with hundreds of
/// events can be read. Clicking an entry emits eventClicked.
class EventLegend : public QListWidget {
    Q_OBJECT
public:
    explicit EventLegend(QWidget* parent = nullptr);

    /// `events` in bar order with their values (the mean bar's segments) and colours.
    struct Entry {
        EventId event;
        QString name;
        double value = 0;
        QRgb color = 0;
    };
    void setEntries(std::vector<Entry> entries, int top = 15);
    /// The events listed by name (the "other" line not included).
    int listedCount() const { return m_listed; }
    /// How many events the "other" line stands for (0 when there is none).
    int otherCount() const { return m_other; }

Q_SIGNALS:
    void eventClicked(parallax::EventId event);

private:
    int m_listed = 0;
    int m_other = 0;
};

} // namespace parallax
