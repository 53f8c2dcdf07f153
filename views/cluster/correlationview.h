// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/cluster.h"
#include "views/common/job.h"
#include "views/common/selectionview.h"

#include <QWidget>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QCPColorMap;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace parallax {

/// The Correlation view (docs/SEMANTICS.md §11.6): the event × event correlation across the
/// trial's threads (Pearson or Spearman) as a heat map of the largest events, and the events
/// ranked by how strongly they correlate with the thread's total. Computed in a background job; a
/// click on a ranked event selects it in every view.
class CorrelationView : public QWidget, public SelectionView {
    Q_OBJECT
public:
    explicit CorrelationView(SelectionState* state, QWidget* parent = nullptr);
    ~CorrelationView() override;

    struct Output {
        TrialPtr trial;
        std::shared_ptr<const ProfileMatrix> matrix;
        std::shared_ptr<const CorrelationResult> result;
        QString error;
    };

    void setSpearman(bool spearman);
    bool isSpearman() const;
    /// How many columns (the largest by mean value) the heat map shows.
    void setShownEvents(int count);
    void setInclusive(bool inclusive);

    const Output& output() const { return m_output; }
    /// The matrix columns of the heat map's rows and columns, in order (the first at the top/left).
    const std::vector<std::size_t>& shownColumns() const { return m_shown; }
    /// The heat map's cell (row i, column j of shownColumns()), as drawn.
    double heatMapValue(std::size_t i, std::size_t j) const;
    /// The ranked list: per row, the matrix column.
    const std::vector<std::size_t>& rankedColumns() const { return m_ranked; }
    QTableWidget* rankedTable() const { return m_table; }
    QCustomPlot* heatMap() const { return m_plot; }
    bool isComputing() const { return m_job.isRunning(); }
    QString exportImage(const QString& fileName);

protected:
    void doUpdate(SelectionChanges changes) override;
    void finishUpdate() override;
    void showEvent(QShowEvent* event) override;

private:
    void start();
    void present(Output output);
    void draw();

    Output m_output;
    Job<Output> m_job { this };
    bool m_stale = true;
    std::vector<std::size_t> m_shown;
    std::vector<std::size_t> m_ranked;

    QComboBox* m_method = nullptr;
    QComboBox* m_metric = nullptr;
    QComboBox* m_value = nullptr;
    QCheckBox* m_callPaths = nullptr;
    QSpinBox* m_count = nullptr;
    QLabel* m_status = nullptr;
    QCustomPlot* m_plot = nullptr;
    QCPColorMap* m_map = nullptr;
    QTableWidget* m_table = nullptr;
};

} // namespace parallax
