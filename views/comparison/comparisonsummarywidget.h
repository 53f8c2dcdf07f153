// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "views/viewsetup.h"

#include <QWidget>
#include <vector>

class QCheckBox;
class QLabel;
class QStandardItemModel;
class QTreeView;
class QTreeWidget;

namespace parallax {

class ComparisonModel;

/// The "Summary" tab: both runs' facts and trial-wide metadata side by side (differing keys
/// highlighted), each run's total time for the comparison's metric, the speed-up S = T_A / T_B
/// with its definition written out, and the ten largest improvements and regressions (events with
/// Δ and Δ%) among the rows of the ComparisonModel (same metric, value, threads and filters).
class ComparisonSummaryWidget : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonSummaryWidget(ComparisonModel* model, QWidget* parent = nullptr);

    /// How many events the top lists hold (default 10).
    static constexpr int TopCount = 10;

    /// Metadata keys whose values differ (or that only one run has), sorted.
    QStringList differingMetadataKeys() const;
    /// Comparison events of the top lists, best first: the largest improvements (Δ > 0 for
    /// lower-is-better metrics) and the largest regressions.
    const std::vector<int>& topImprovements() const { return m_improvements; }
    const std::vector<int>& topRegressions() const { return m_regressions; }
    /// S = T_A / T_B for the comparison's metric (0 when T_B is 0).
    double speedUp() const { return m_speedUp; }
    QTreeView* metadataView() const { return m_metadata.view; }
    QTreeWidget* runsTable() const { return m_runs; }
    /// Fills the tab again from the model (e.g. after another "Colour by").
    void refresh() { rebuild(); }

private:
    void rebuild();
    void fillMetadata();
    void fillTop(QTreeWidget* tree, const std::vector<int>& rows);

    ComparisonModel* m_model;
    QLabel* m_title;
    QTreeWidget* m_runs;
    QLabel* m_speedUpLabel;
    QLabel* m_definition;
    QLabel* m_improvementsTitle;
    QLabel* m_regressionsTitle;
    QTreeWidget* m_improvementsTree;
    QTreeWidget* m_regressionsTree;
    QStandardItemModel* m_metadataModel;
    ViewSetup m_metadata;
    QCheckBox* m_onlyDiffering;
    QLabel* m_metadataCount;
    std::vector<int> m_improvements;
    std::vector<int> m_regressions;
    double m_speedUp = 0;
};

} // namespace parallax
