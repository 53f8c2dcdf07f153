// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/flame.h"
#include "views/common/job.h"
#include "views/common/selectionview.h"

#include <QWidget>
#include <memory>

class QLabel;
class QTreeWidget;

namespace parallax {

class FlameGraphWidget;

/// The sandwich of one routine (speedscope's and Firefox's view, docs/SEMANTICS.md §8): merged over
/// every call path it appears in, its callers as a flame growing upwards from it (the callers'
/// callers above), its callees as an icicle below it, and its total in the middle; beside them the
/// butterfly table of its direct callers and callees with their inclusive and own contributions.
/// Follows the selection's trial and metric (the mean over threads).
class SandwichWidget : public QWidget, public SelectionView {
    Q_OBJECT
public:
    SandwichWidget(SelectionState* state, const QString& routine, QWidget* parent = nullptr);
    ~SandwichWidget() override;

    /// Opens it as a window of its own that deletes itself when closed.
    static SandwichWidget* open(SelectionState* state, const QString& routine, QWidget* parent);

    const QString& routine() const { return m_routine; }
    const Sandwich* sandwich() const { return m_sandwich.get(); }
    FlameGraphWidget* callers() const { return m_callers; }
    FlameGraphWidget* callees() const { return m_callees; }
    QTreeWidget* butterfly() const { return m_butterfly; }
    /// Waits for the computation (headless rendering and tests).
    void finishComputing() { m_job.waitAndDeliver(); }

protected:
    void doUpdate(SelectionChanges changes) override;
    void finishUpdate() override { finishComputing(); }

private:
    void showSandwich(std::shared_ptr<const Sandwich> sandwich);

    QString m_routine;
    std::shared_ptr<const Sandwich> m_sandwich;
    QLabel* m_title;
    FlameGraphWidget* m_callers;
    FlameGraphWidget* m_callees;
    QTreeWidget* m_butterfly;
    Job<std::shared_ptr<const Sandwich>> m_job { this };
};

} // namespace parallax
