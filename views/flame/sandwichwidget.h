// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/flame.h"
#include "views/common/job.h"
#include "views/common/selectionview.h"
#include "views/flame/flamegraphwidget.h"

#include <QWidget>
#include <memory>

class QLabel;
class QSplitter;
class QTreeWidget;

namespace parallax {

/// The sandwich of one routine (speedscope's and Firefox's view, docs/SEMANTICS.md §8): merged over
/// every call path it appears in, its callers as a flame growing upwards from it (the callers'
/// callers above), its callees as an icicle below it, and its total in the middle; beside them the
/// butterfly table of its direct callers and callees with their inclusive and own contributions.
/// Follows the selection's trial and metric (the mean over threads). In a comparison (setComparison)
/// the selection's trial is A: both runs' sandwiches of the routine's match key are merged into
/// differential trees coloured by Δ = A − B, and the butterfly table shows A, B, Δ and Δ%.
class SandwichWidget : public QWidget, public SelectionView {
    Q_OBJECT
public:
    SandwichWidget(SelectionState* state, const QString& routine, QWidget* parent = nullptr);
    ~SandwichWidget() override;

    /// Opens it as a window of its own that deletes itself when closed.
    static SandwichWidget* open(SelectionState* state, const QString& routine, QWidget* parent,
        TrialPtr compareWith = nullptr, const EventMatching& matching = {});

    /// Compares the selection's trial (A) with B: `routine` is then a match key. Null B: one trial.
    void setComparison(TrialPtr b, const EventMatching& matching);
    const DiffSandwich* diffSandwich() const { return m_diff.get(); }
    /// The colour scale of the comparison's frames (FlameGraphWidget::setChangeScale).
    void setChangeScale(FlameGraphWidget::ChangeScale scale, bool higherIsBetter);

    const QString& routine() const { return m_routine; }
    const Sandwich* sandwich() const { return m_sandwich.get(); }
    FlameGraphWidget* callers() const { return m_callers; }
    FlameGraphWidget* callees() const { return m_callees; }
    QTreeWidget* butterfly() const { return m_butterfly; }
    /// Waits for the computation (headless rendering and tests).
    void finishComputing()
    {
        m_job.waitAndDeliver();
        m_diffJob.waitAndDeliver();
    }

protected:
    void doUpdate(SelectionChanges changes) override;
    void finishUpdate() override { finishComputing(); }

private:
    void showSandwich(std::shared_ptr<const Sandwich> sandwich);
    void showDiffSandwich(std::shared_ptr<const DiffSandwich> diff);
    QString valueText(double v) const;

    QString m_routine;
    std::shared_ptr<const Sandwich> m_sandwich;
    std::shared_ptr<const DiffSandwich> m_diff;
    TrialPtr m_compareB;
    EventMatching m_matching;
    QLabel* m_title;
    FlameGraphWidget* m_callers;
    FlameGraphWidget* m_callees;
    QTreeWidget* m_butterfly;
    QSplitter* m_split = nullptr;
    Job<std::shared_ptr<const Sandwich>> m_job { this };
    Job<std::shared_ptr<const DiffSandwich>> m_diffJob { this };
};

} // namespace parallax
