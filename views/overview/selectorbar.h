// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QWidget>

class QComboBox;

namespace parallax {

class FlowLayout;
class SelectionState;

/// A row (wrapping onto more lines when narrow) of combo boxes bound to the SelectionState: metric, value type and time
/// unit. Changing a box sets the state; a change of the state (from any window) updates the boxes. Owners add their own
/// controls with addWidget().
class SelectorBar : public QWidget {
    Q_OBJECT
public:
    enum Selector { MetricSelector = 1, ValueSelector = 2, UnitSelector = 4, AllSelectors = 7 };

    explicit SelectorBar(SelectionState* state, int selectors = AllSelectors, QWidget* parent = nullptr);

    /// Adds a control after the selectors (with an optional label before it).
    void addWidget(QWidget* widget, const QString& label = {});

    /// Hides or shows one selector with its label (when the main window offers it globally).
    void setSelectorVisible(Selector selector, bool visible);

    QComboBox* metricBox() const { return m_metric; }
    QComboBox* valueBox() const { return m_value; }
    QComboBox* unitBox() const { return m_unit; }

private:
    void fillMetrics();
    void syncFromState();

    SelectionState* m_state;
    FlowLayout* m_layout = nullptr;
    QComboBox* m_metric = nullptr;
    QComboBox* m_value = nullptr;
    QComboBox* m_unit = nullptr;
    QWidget* m_metricGroup = nullptr; ///< the label and the box, shown and hidden together
    QWidget* m_valueGroup = nullptr;
    QWidget* m_unitGroup = nullptr;
};

} // namespace parallax
