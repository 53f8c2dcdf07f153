// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"
#include "views/statisticsmodel.h"
#include "views/viewsetup.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QSplitter;

namespace parallax {

class SelectionState;
class UserEventChart;
class UserEventsModel;

/// The user events window: the UserEventsModel table (per thread or a statistic across threads)
/// above a UserEventChart of the current row's user event. Follows the SelectionState: the trial,
/// and in "Selected thread" mode the selected thread (thread 0 until one is selected).
class UserEventsWidget : public QWidget {
    Q_OBJECT
public:
    explicit UserEventsWidget(SelectionState* state, QWidget* parent = nullptr);
    ~UserEventsWidget() override;

    UserEventsModel* model() const { return m_model; }
    UserEventChart* chart() const { return m_chart; }
    const ViewSetup& table() const { return m_table; }

    /// Shows the values of the selected thread (RowMode::Thread) or a statistic across threads.
    void setRowMode(RowMode mode);
    RowMode rowMode() const { return m_mode; }

private:
    void onTrialChanged();
    void applyMode();
    void onCurrentRowChanged();
    void selectRowOf(AtomicEventId event);

    SelectionState* m_state;
    RowMode m_mode = RowMode::MeanAll;
    UserEventsModel* m_model = nullptr;
    ViewSetup m_table;
    UserEventChart* m_chart = nullptr;
    QComboBox* m_modeCombo = nullptr;
    QLabel* m_threadLabel = nullptr;
    QSplitter* m_splitter = nullptr;
};

} // namespace parallax
