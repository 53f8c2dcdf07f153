// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QWidget>
#include <vector>

class QLabel;

namespace parallax {

class BarListWidget;
class ComparisonModel;

/// The "Signed difference" tab: one bar per event of a ComparisonModel's rows (same metric, value,
/// threads, call-path and minimum-difference choices), growing right for Δ = A − B > 0 and left for
/// Δ < 0 around a zero axis, sorted by Δ. Colour: the diverging map, blue = improvement, red =
/// regression, intensity by |Δ| relative to the largest change. The legend above spells out the
/// sign convention of docs/SEMANTICS.md 4.6 (A = baseline, B = candidate). Drawn with the virtualised
/// BarListWidget, so thousands of call paths scroll smoothly.
class SignedDifferenceView : public QWidget {
    Q_OBJECT
public:
    explicit SignedDifferenceView(ComparisonModel* model, QWidget* parent = nullptr);

    BarListWidget* barList() const { return m_bars; }
    /// The comparison events of the bars, top to bottom.
    const std::vector<int>& shownEvents() const { return m_events; }
    /// The legend's sentences (left and right side), for tests and exports.
    QString leftLegend() const;
    QString rightLegend() const;

Q_SIGNALS:
    /// A bar or its label was clicked (a comparison event index).
    void eventActivated(int event);

private:
    void rebuild();
    QString toolTip(int row) const;

    ComparisonModel* m_model;
    BarListWidget* m_bars;
    QLabel* m_left;
    QLabel* m_right;
    QLabel* m_scale;
    QLabel* m_note;
    std::vector<int> m_events;
};

} // namespace parallax
