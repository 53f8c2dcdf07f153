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
class QCPGraph;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace parallax {

/// The Clusters view (PerfExplorer's cluster analysis, docs/SEMANTICS.md §11): the threads of the
/// trial clustered by their per-event profile (k-means or Ward; k given or the best silhouette of a
/// range; raw, share or z-score rows), a PCA scatter of the threads coloured by cluster, a table of
/// the clusters (size, share, representative thread, silhouette) and the current cluster's mean
/// profile as bars of its top events. The clustering runs in a background job with progress and
/// Cancel. A click on a table row or a scatter point selects that cluster's threads in every view
/// (SelectionState::selectThreads); a scatter point also selects its thread.
class ClusterView : public QWidget, public SelectionView {
    Q_OBJECT
public:
    explicit ClusterView(SelectionState* state, QWidget* parent = nullptr);
    ~ClusterView() override;

    /// One clustering: the matrix it ran on and its result (null before the first).
    struct Output {
        TrialPtr trial;
        std::shared_ptr<const ProfileMatrix> matrix;
        std::shared_ptr<const ClusterResult> result;
        QString error;
        double seconds = 0; ///< wall time of the matrix, the clustering and the PCA
    };

    // The controls (each starts a new clustering when the view is shown).
    void setMethod(ClusterMethod method);
    /// k clusters; 0: the k of the range with the largest silhouette.
    void setK(int k);
    void setKRange(int lo, int hi);
    void setNormalisation(ClusterNormalisation normalisation);
    void setInclusive(bool inclusive);
    void setCallPaths(bool callPaths);

    /// Whether a clustering is being computed.
    bool isComputing() const { return m_job.isRunning(); }
    /// Stops the running clustering (the Cancel button).
    void cancel();
    /// The clustering shown (empty before the first).
    const Output& output() const { return m_output; }
    /// The cluster whose profile is shown (-1: none).
    int currentCluster() const { return m_current; }
    /// Makes a cluster current and selects its threads in SelectionState (as a click on its row).
    void selectCluster(int cluster);
    /// The thread members of a cluster, by thread index ascending.
    std::vector<ThreadIndex> clusterThreads(int cluster) const;
    /// The widget point of a thread's scatter point (tests click there); (-1, -1) when not shown.
    QPoint scatterPosition(ThreadIndex thread) const;

    QTableWidget* clusterTable() const { return m_table; }
    QCustomPlot* scatterPlot() const { return m_scatter; }
    QCustomPlot* profilePlot() const { return m_profile; }
    QLabel* statusLabel() const { return m_status; }

    /// Brings the view up to date (waiting for the clustering) and writes it to PNG, SVG or PDF.
    QString exportImage(const QString& fileName);

Q_SIGNALS:
    /// A clustering finished and is shown.
    void clusteringShown();

protected:
    void doUpdate(SelectionChanges changes) override;
    void finishUpdate() override;
    void selectionChanged(SelectionChanges changes) override;
    void showEvent(QShowEvent* event) override;

private:
    void start();
    void present(Output output);
    void fillTable();
    void drawScatter();
    void styleScatter();
    void drawProfile();
    void scatterClicked(QCPGraph* graph, int dataIndex);
    void readControls();

    ClusterOptions m_options;
    ProfileMatrixOptions m_matrixOptions;
    Output m_output;
    Job<Output> m_job { this };
    bool m_stale = true;
    int m_current = -1;
    /// Per scatter graph (one per cluster): the thread of each data point, in the graph's order.
    std::vector<std::vector<std::uint32_t>> m_pointThreads;
    std::vector<QCPGraph*> m_graphs;
    QCPGraph* m_threadMark = nullptr;

    QComboBox* m_method = nullptr;
    QComboBox* m_kMode = nullptr;
    QSpinBox* m_k = nullptr;
    QSpinBox* m_kMin = nullptr;
    QSpinBox* m_kMax = nullptr;
    QComboBox* m_metric = nullptr;
    QComboBox* m_value = nullptr;
    QComboBox* m_normalisation = nullptr;
    QCheckBox* m_callPaths = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
    QLabel* m_status = nullptr;
    QCustomPlot* m_scatter = nullptr;
    QTableWidget* m_table = nullptr;
    QCustomPlot* m_profile = nullptr;
};

} // namespace parallax
