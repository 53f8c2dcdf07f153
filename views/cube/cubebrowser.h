// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/cubespace.h"
#include "algebra/operations.h"
#include "views/common/job.h"
#include "views/common/selectionview.h"
#include "views/cube/cubepanemodel.h"

#include <QHash>
#include <QWidget>
#include <array>
#include <functional>
#include <limits>
#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QTabWidget;
class QTreeView;

namespace parallax {

class DistributionPanel;
class TopologyView;

/// CubeGUI's browser on the current trial (docs/SEMANTICS.md §6): the metric tree, the call tree (or
/// the flat region list) and the system tree in three coupled panes, in an order the user picks.
/// An item's value sums over the selections of the panes to its left and everything to its right;
/// expanding an item switches it from its inclusive to its own value, so what a pane shows adds up
/// to its roots. Each pane has its value mode; values are coloured by their share of the mode's
/// reference (linear, quadratic or exponential scale); items below a threshold can be hidden, their
/// values staying in their parent's. The call pane shows each row's distribution across the
/// locations as a box plot.
///
/// Linked to the main window: selecting a call path selects its event, selecting a location selects
/// its thread, and the other way round. The trees and values are computed in the background; the GUI
/// thread only reads the finished values.
class CubeBrowser : public QWidget, public SelectionView {
    Q_OBJECT
public:
    explicit CubeBrowser(SelectionState* state, QWidget* parent = nullptr);
    ~CubeBrowser() override;

    CubePaneModel* model(CubePane pane) const { return m_panes[CubeSpace::index(pane)].model; }
    QTreeView* tree(CubePane pane) const { return m_panes[CubeSpace::index(pane)].tree; }
    const CubeState& state() const { return m_state; }
    const CubeSpace* space() const { return m_space.get(); }
    void setOrder(const std::array<CubePane, 3>& order);
    void setMode(CubePane pane, CubeMode mode);
    void setFlat(bool flat);
    /// Selects one item of a pane (as a click would).
    void selectItem(CubePane pane, int item);
    /// Expands every item of a pane down to `depth` levels.
    void expandToDepth(CubePane pane, int depth);
    /// Waits for the running computations (headless rendering and tests).
    void finishComputing();
    /// Where the "External %" mode finds the other open trials (the main window's trial list).
    void setTrialSource(std::function<std::vector<TrialPtr>()> source);
    /// The trial External % refers to (null: none, the mode shows —).
    void setExternalTrial(TrialPtr trial);
    /// Below the panes: the locations of the selection on a topology, and the selected call row's
    /// distribution across them (views/cube/topologyview.h, distributionpanel.h).
    TopologyView* topologyView() const { return m_topology; }
    DistributionPanel* distributionPanel() const { return m_distribution; }
    QTabWidget* locationTabs() const { return m_locationTabs; }

    /// CubeLib's cube_cut and cube_part on the browsed trial (algebra/cut.h), as the panes' context
    /// menus offer them; each computes a new trial in the background and emits trialDerived():
    /// "Re-root Here" on a call item (the call path; in the flat view every call path ending in the
    /// region), "Prune" on call items (their subtrees folded into their parents' own values), "Keep
    /// Only These" on system items (the threads under them).
    void reRoot(int callItem);
    void prune(const std::vector<int>& callItems);
    void keepOnly(const std::vector<int>& systemItems);
    /// The event of a call-pane item (a flat event, or a call-tree node's); invalid for none.
    EventId callEvent(int item) const;
    /// The threads under system items, ascending and once each.
    std::vector<std::size_t> threadsUnder(const std::vector<int>& systemItems) const;

Q_SIGNALS:
    /// The values of the current state are shown.
    void valuesShown();
    /// A trial made by reRoot(), prune() or keepOnly() (the main window adds it to the Trials dock).
    void trialDerived(const parallax::TrialPtr& trial, const QString& description);
    /// reRoot(), prune() or keepOnly() failed (the algebra's message).
    void operationFailed(const QString& message);

protected:
    void doUpdate(SelectionChanges changes) override;
    void finishUpdate() override { finishComputing(); }
    void showEvent(QShowEvent* event) override;

private:
    struct Pane {
        QWidget* box = nullptr;
        QLabel* title = nullptr;
        QComboBox* mode = nullptr;
        QComboBox* sort = nullptr;
        QTreeView* tree = nullptr;
        CubePaneModel* model = nullptr;
    };
    struct Computed {
        std::shared_ptr<const CubeValues> values;
        CubeState state;
        /// Every location's value of the first selected call path when the system pane is not the
        /// rightmost (else the system pane's values are these); for the topology and distribution.
        std::vector<double> locations;
    };
    /// Box plots by call item and state (item * 2 + expanded), for one metric selection.
    struct Boxes {
        QHash<int, BoxStats> byKey;
        QString metricKey;
    };

    Pane makePane(CubePane pane);
    void buildSpace();
    void setSpace(std::shared_ptr<const CubeSpace> space);
    void recompute();
    void showComputed(const Computed& computed);
    void computeBoxes();
    void showBoxes();
    QString metricKey() const;
    void refreshExternalTrials();
    void computeExternalRoot();
    void onSelection(CubePane pane);
    void onExpanded(CubePane pane, const QModelIndex& index, bool expanded);
    void followMainSelection(SelectionChanges changes);
    void find(const QString& text);
    void updateInfo();
    void updateLegend();
    void showLocations();
    void showContextMenu(CubePane pane, const QPoint& pos);
    void runOperation(const QString& description, std::function<AlgebraResult()> work);
    /// The items of `pane` a context menu acts on: the selection if the clicked item is in it, else
    /// the clicked item.
    std::vector<int> contextItems(CubePane pane, int clicked) const;

    std::array<Pane, 3> m_panes;
    QSplitter* m_splitter = nullptr;
    QComboBox* m_order = nullptr;
    QCheckBox* m_flat = nullptr;
    QComboBox* m_scale = nullptr;
    QDoubleSpinBox* m_hide = nullptr;
    QLineEdit* m_find = nullptr;
    QLabel* m_legend = nullptr;
    QLabel* m_growthLegend = nullptr; ///< what the call pane's Growth column shows, while it does
    QComboBox* m_external = nullptr;
    QLabel* m_info = nullptr;
    QLabel* m_status = nullptr;
    QTabWidget* m_locationTabs = nullptr;
    TopologyView* m_topology = nullptr;
    DistributionPanel* m_distribution = nullptr;

    std::shared_ptr<const CubeSpace> m_space;
    CubeState m_state;
    bool m_applying = false; ///< the browser itself changes the trees' selection or expansion
    Job<std::shared_ptr<const CubeSpace>> m_spaceJob { this };
    Job<Computed> m_valuesJob { this };
    Job<Boxes> m_boxesJob { this };
    std::shared_ptr<const CubeValues> m_values; ///< the values shown, of m_valuesState
    CubeState m_valuesState;
    std::vector<double> m_locations; ///< Computed::locations of the values shown
    Boxes m_boxes; ///< computed box plots (cleared when the metric selection changes)
    std::function<std::vector<TrialPtr>()> m_trialSource;
    std::vector<TrialPtr> m_externalTrials; ///< the trials of m_external's entries (after "none")
    TrialPtr m_externalTrial;
    double m_externalRoot = std::numeric_limits<double>::quiet_NaN();
    Job<double> m_externalJob { this };
    Job<std::shared_ptr<const AlgebraResult>> m_operationJob { this };
};

} // namespace parallax
