// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/units.h"
#include "views/common/job.h"
#include "views/comparison/scalingmodels.h"

#include <QWidget>
#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QSortFilterProxyModel;
class QSpinBox;
class QStandardItemModel;
class QTreeView;

namespace parallax {

class FlameGraphWidget;
class SelectionState;

/// The scaling window's "Models per call path" page (issue 17 §2, docs/SEMANTICS.md §10.6): Extra-P's
/// model of every call path of the runs (ScalingModels, fitted in a background job with a progress
/// bar) over a parameter (the thread count or a numeric metadata key), as a call tree with columns
/// model (Extra-P's Basic or Refining modeler, one or two terms), SMAPE, adjusted R², the value measured at the largest
/// parameter value, the value predicted at a target P and growth = predicted / measured; rows coloured by growth (blue
/// shrinks, red grows, log scale) and siblings sorted by the prediction, so the call path that dominates at P is on top
/// (and named above the tree, its row selected). Below, a flame graph of the predicted inclusive
/// values at P coloured by the same growth.
class ScalingModelsView : public QWidget {
    Q_OBJECT
public:
    enum Column { PathColumn, ModelColumn, SmapeColumn, R2Column, MeasuredColumn, PredictedColumn, GrowthColumn };

    explicit ScalingModelsView(QWidget* parent = nullptr);
    ~ScalingModelsView() override;

    /// The runs' statistics (ScalingView's snapshot); starts fitting.
    void setSnapshot(std::shared_ptr<const ScalingSnapshot> snapshot);
    /// Blocks until the models are fitted and shown (tests, headless rendering).
    void waitForResult();
    bool isComputing() const { return m_job.isRunning(); }

    bool setParameter(const QString& parameter);
    QString parameter() const;
    QStringList parameters() const;
    bool setMetric(const QString& metric);
    void setValue(ScalingValue value);
    ScalingValue value() const { return m_request.value; }
    void setStatistic(ScalingStatistic statistic);
    /// Extra-P's modeler (Basic or Refining) and the terms besides c0 (1, or 2 with the Basic modeler):
    /// refit in the background (docs/SEMANTICS.md §10.7, §10.8).
    void setModeler(ModelerKind modeler);
    ModelerKind modeler() const { return m_request.modeler; }
    void setTerms(int terms);
    int terms() const { return m_request.terms; }
    void setTarget(int target);
    int target() const;
    /// A flat list of every call path (full path names) instead of the tree.
    void setFlat(bool flat);

    /// The models shown (null before the first fit).
    const ScalingModelSet* modelSet() const { return m_set.get(); }
    /// The call path that dominates at the target (the top row); empty if none.
    QString topPath() const;
    QTreeView* tree() const { return m_tree; }
    /// The tree's item model (before sorting): column PathColumn holds the call path in Qt::UserRole + 1.
    QStandardItemModel* itemModel() const { return m_model; }
    FlameGraphWidget* flame() const { return m_flame; }
    QLabel* summary() const { return m_summary; }
    /// The error shown instead of the models (a parameter that does not vary); empty if none.
    QString message() const { return m_set ? m_set->error : QString(); }

    QString exportImage(const QString& fileName);

Q_SIGNALS:
    /// New models are shown.
    void ready();

private:
    void refit();
    void show(std::shared_ptr<const ScalingModelSet> set);
    void fillTree();
    void fillFlame();
    QString formatValue(double value) const;

    std::shared_ptr<const ScalingSnapshot> m_snapshot;
    std::shared_ptr<const ScalingModelSet> m_set;
    ScalingModelRequest m_request;
    Job<std::shared_ptr<const ScalingModelSet>> m_job { this };
    TimeUnit m_unit = TimeUnit::Seconds;
    bool m_flat = false;

    QComboBox* m_parameterBox;
    QComboBox* m_metricBox;
    QComboBox* m_valueBox;
    QComboBox* m_statisticBox;
    QComboBox* m_modelerBox;
    QComboBox* m_termsBox;
    QSpinBox* m_targetBox;
    QCheckBox* m_flatBox;
    QProgressBar* m_progress;
    QLabel* m_summary;
    QStandardItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_tree;
    SelectionState* m_state;
    FlameGraphWidget* m_flame;
    QLabel* m_legend;
};

} // namespace parallax
