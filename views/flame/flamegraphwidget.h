// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/flame.h"
#include "views/common/job.h"
#include "views/common/selectionview.h"

#include <QColor>
#include <QImage>
#include <QWidget>
#include <cstdint>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace parallax {

class FlameCanvas;
struct CallPathModel;

/// The flame graph (root at the bottom) or icicle (root at the top) of the current trial's call
/// tree (algebra/flame.h, docs/SEMANTICS.md §8): a frame's width is its inclusive value of the
/// selected metric for a statistic across threads or one thread; siblings by value or by name.
/// Frames are coloured by event (the colours of every other view), by group (MPI, OpenMP, I/O,
/// the rest), by their own share of their value ("self heat") or by their imbalance across threads
/// (max / mean of the call path). Click a frame to zoom into it and select its event everywhere; the
/// breadcrumbs above go back. Search highlights the matching frames and says what share of the
/// whole they carry. Frames narrower than a pixel are merged into one grey sliver per parent.
///
/// The tree is built in the background; the GUI thread lays out and paints only the frames.
class FlameGraphWidget : public QWidget, public SelectionView {
    Q_OBJECT
public:
    enum class Style : std::uint8_t { Flame, Icicle };
    /// Change: the differential flame graph's Δ = A − B (blue = B cheaper, red = B dearer).
    /// Custom: colours given per node with setNodeColours() (the scaling models' growth at P).
    /// Growth: each frame's inclusive growth at scale P from the models attached to the SelectionState
    /// (SelectionState::growth(), docs/SEMANTICS.md §10.6), grey without a model; offered while attached.
    enum class Colouring : std::uint8_t { Event, Group, SelfHeat, Imbalance, Change, Custom, Growth };
    /// A statistic across threads, or the thread selected in any window.
    enum class Source : std::uint8_t { Mean, Total, Min, Max, SelectedThread };

    explicit FlameGraphWidget(SelectionState* state, QWidget* parent = nullptr);
    ~FlameGraphWidget() override;

    /// The differential flame graph (docs/SEMANTICS.md §8): the union call tree of A and B aligned
    /// by the comparison's event matching, frames as wide as A, B or the larger of the two, coloured by
    /// Δ = A − B; frames of one run only are hatched and marked ◀ (only in A) or ▶ (only in B). The
    /// widget's SelectionState holds A (its metric and thread choose the values). Null B: one trial.
    void setComparison(TrialPtr b, const EventMatching& matching);
    void setDiffWidth(FlameWidth width);
    FlameWidth diffWidth() const { return m_diffWidth; }
    /// Changes below this |Δ%| are drawn neutral.
    void setChangeThreshold(double percent);
    /// How deep a changed frame's colour is: by |Δ| over the largest |Δ| shown, or by |Δ%| (a 100 %
    /// change or more is full colour; a frame of one run only is full colour). For a metric where
    /// higher is better (docs/SEMANTICS.md 4.6) a positive Δ is a regression and drawn red.
    enum class ChangeScale : std::uint8_t { Delta, Percent };
    void setChangeScale(ChangeScale scale, bool higherIsBetter = false);
    ChangeScale changeScale() const { return m_changeScale; }
    bool higherIsBetter() const { return m_higherIsBetter; }
    /// Shows or hides the Shape choice of a comparison (the stacked layout fixes it).
    void setShapeChoiceVisible(bool visible);
    const DiffFlameTree* diffTree() const { return m_computed.diff.get(); }

    /// Shows a given tree instead of the trial's (the sandwich's callers and callees): no background
    /// computation; the statistic and recursion controls are hidden. Null: back to the trial's tree.
    void showTree(std::shared_ptr<const FlameTree> tree);
    /// The same with a differential tree (the sandwich of a comparison): coloured by change.
    void showDiffTree(std::shared_ptr<const DiffFlameTree> diff);

    /// Colours of the nodes of a tree given with showTree() and a line per node added to the frame's
    /// tip (e.g. the scaling models' growth at a target scale, docs/SEMANTICS.md §10.6); selects
    /// Colouring::Custom, offered as `name` in the colour choice. Node i takes colours[i] (grey if
    /// missing). A new showTree() keeps them; showTree(nullptr) drops them.
    void setNodeColours(std::vector<QColor> colours, std::vector<QString> notes, const QString& name);

    void setStyle(Style style);
    Style style() const { return m_style; }
    void setColouring(Colouring colouring);
    void setSource(Source source);
    void setOrder(FlameOrder order);
    void setMergeRecursion(bool merge);
    /// Zooms into a FlameTree node (-1: the whole tree).
    void zoomTo(int node);
    int zoomNode() const { return m_zoom; }
    /// Highlights frames whose routine contains `text`; returns their share of the shown tree.
    void search(const QString& text);
    const FlameSearchResult& searchResult() const { return m_found; }

    /// The tree and layout shown (null / empty until computed).
    const FlameTree* tree() const { return m_tree.get(); }
    const FlameLayout& flameLayout() const { return m_layout; }
    /// The message shown instead of the graph (no trial, no call paths); empty while it is shown.
    QString message() const;
    /// Waits for the background computation (headless rendering and tests; updateNow() starts a
    /// pending one and waits for it).
    void finishComputing();
    /// The frame at a point of the canvas, -1 if none.
    int frameAt(const QPoint& canvasPos) const;
    /// The canvas rectangle of a frame (for tests: click and hover).
    QRectF frameRect(int frame) const;
    /// Whether a node's frame is outlined as the main window's selected event (its call path, or
    /// every call path of the selected routine).
    bool isSelectedNode(int node) const
    {
        return node >= 0 && static_cast<std::size_t>(node) < m_selected.size()
            && m_selected[static_cast<std::size_t>(node)];
    }
    /// The colour a frame is painted with.
    QColor frameColour(int frame) const;
    Colouring colouring() const { return m_colouring; }
    /// The growth model row of a FlameTree node (its call path's, by name); nullptr without one.
    const CallPathModel* growthRow(int node) const;
    QWidget* canvas() const;

    /// The whole view as vector SVG, PDF or PNG by suffix; empty string or the error.
    QString exportImage(const QString& fileName, const QSize& size = {}) const;

Q_SIGNALS:
    /// A new tree is laid out and painted.
    void shown();
    /// "Sandwich of ROUTINE" in a frame's context menu (in a comparison: the routine's match key).
    void sandwichRequested(const QString& routine);
    /// The zoomed node changed (-1: the whole tree), by a click, the breadcrumbs or zoomTo().
    void zoomChanged(int node);
    /// A frame was clicked (its FlameTree node).
    void frameActivated(int node);

protected:
    void doUpdate(SelectionChanges changes) override;
    void finishUpdate() override { finishComputing(); }

private:
    friend class FlameCanvas;
    struct Computed {
        std::shared_ptr<const FlameTree> tree;
        std::vector<QColor> eventColours; ///< by node: the routine's colour in every view
        std::vector<QColor> groupColours; ///< by node
        std::vector<double> imbalance; ///< by node: max / mean across threads (NaN: none)
        std::shared_ptr<const DiffFlameTree> diff; ///< the comparison's tree (tree aliases it)
        double maxDelta = 0; ///< the largest |Δ| of the comparison
    };
    void rebuild();
    void relayout();
    void updateBreadcrumbs();
    void updateInfo();
    QString frameTip(int frame) const;
    void paintFrames(QPainter& painter, const QRectF& area) const;
    void onFrameClicked(int frame);
    void showFrameMenu(int frame, const QPoint& globalPos);
    /// Event and group colours of a tree's nodes (`trial`'s flat events; thread-safe).
    static void colourNodes(const TrialPtr& trial, Computed& c);
    /// Shows a computed tree given from outside (showTree, showDiffTree).
    void showFixed(Computed c);
    void followSelectedEvent();
    /// Offers (or withdraws) the Growth colouring as models are attached (or cleared).
    void followGrowth();

    Style m_style = Style::Flame;
    Colouring m_colouring = Colouring::Event;
    Source m_source = Source::Mean;
    FlameOrder m_order = FlameOrder::ByValue;
    bool m_mergeRecursion = false;
    int m_zoom = -1;
    QString m_searchText;
    FlameSearchResult m_found;
    std::vector<std::uint8_t> m_match; ///< by node
    std::vector<std::uint8_t> m_selected; ///< by node: the main selection's event
    std::shared_ptr<const FlameTree> m_tree;
    TrialPtr m_trialOfTree; ///< the trial of m_tree (a new trial resets the zoom)
    QStringList m_keptZoom; ///< the zoomed call path to find in a continuing trial's tree
    Computed m_computed;
    FlameLayout m_layout;
    double m_layoutPixels = 0; ///< the canvas width the slivers were merged for
    QString m_message;
    TrialPtr m_compareB;
    EventMatching m_matching;
    FlameWidth m_diffWidth = FlameWidth::Max;
    double m_threshold = 0;
    ChangeScale m_changeScale = ChangeScale::Delta;
    bool m_higherIsBetter = false;
    bool m_shapeChoice = true;
    bool m_fixed = false; ///< showTree(): the tree is given, not computed
    std::vector<QColor> m_customColours; ///< by node (setNodeColours)
    std::vector<QString> m_customNotes; ///< by node: a line of the frame's tip
    /// By node: its growth model row, -1 none, -2 not looked up yet (frames look theirs up as painted).
    mutable std::vector<int> m_growthRows;
    Job<Computed> m_job { this };

    QComboBox* m_styleCombo;
    QComboBox* m_sourceCombo;
    QComboBox* m_orderCombo;
    QComboBox* m_colourCombo;
    QCheckBox* m_recursion;
    QLabel* m_shapeLabel;
    QComboBox* m_shapeCombo;
    QLabel* m_thresholdLabel;
    QDoubleSpinBox* m_thresholdSpin;
    QWidget* m_comparisonControls = nullptr; ///< Shape (comparison only)
    QWidget* m_thresholdBox = nullptr; ///< Hide |Δ%| < (comparison only)
    QLineEdit* m_search;
    QLabel* m_matches;
    QToolButton* m_reset;
    QLabel* m_crumbs;
    FlameCanvas* m_canvas;
    QLabel* m_info;
};

} // namespace parallax
