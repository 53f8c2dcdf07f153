// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/units.h"
#include "views/comparison/scalingmodels.h"

#include <QHash>
#include <QString>
#include <memory>
#include <vector>

namespace parallax {

/// "Growth at scale P" in the main window's views (issue 17 §2, docs/SEMANTICS.md §10.6): the
/// per-call-path models of N runs (ScalingModels::build, the scaling window's models) attached to the
/// SelectionState, so the call tree, the flame graph and the CUBE browser show each call path's model
/// and its growth = predicted at P / measured at the largest run. A view finds a node's row by the
/// node's " => " path, the name ScalingModels gives it. Immutable; made off the GUI thread.
class GrowthOverlay {
public:
    /// `runs`: how many runs were fitted; `shownRun`: the name of the run the main window shows.
    GrowthOverlay(std::shared_ptr<const ScalingModelSet> set, std::size_t runs, QString shownRun);

    const ScalingModelSet& set() const { return *m_set; }
    const std::shared_ptr<const ScalingModelSet>& setPtr() const { return m_set; }
    std::size_t runs() const { return m_runs; }
    const QString& shownRun() const { return m_shownRun; }
    /// The value the columns and the CUBE pane show (the request's; the flame graph's frames are inclusive).
    ScalingValue value() const { return m_set->request.value; }
    double target() const { return m_set->request.target; }

    /// The row of a call path (" => " components; a flat event's name), nullptr when the models have no
    /// row of that path or the row has no model (a prefix no run measured).
    const CallPathModel* find(const QString& path) const;
    /// find() for element `i` of a view (a tree node, a flame node, a CUBE item) whose path `pathOf()` gives,
    /// looked up once and kept in `cache` (by element: -2 not looked up yet, -1 none, else the row), so a
    /// view looks up only the elements it shows. Nullptr for an `i` outside the cache.
    template <typename PathOf> const CallPathModel* cachedFind(std::vector<int>& cache, int i, PathOf pathOf) const
    {
        if (i < 0 || static_cast<std::size_t>(i) >= cache.size())
            return nullptr;
        int& row = cache[static_cast<std::size_t>(i)];
        if (row == -2) {
            const CallPathModel* found = find(pathOf());
            row = found ? static_cast<int>(found - m_set->rows.data()) : -1;
        }
        return row >= 0 ? &m_set->rows[static_cast<std::size_t>(row)] : nullptr;
    }

    /// What is shown, for a legend or the status bar: "growth at P = 65,536 over 5 runs, parameter
    /// mpi.world.size (exclusive time)"; of the value the columns show, or of `value`.
    QString description() const { return description(value()); }
    QString description(ScalingValue shown) const;
    /// The model of one side with 3 significant digits ("—" without one).
    QString formulaText(const CallPathModel::Side& side) const;
    /// "×943,159", "×1.52", "≤ 0 (vanishes)" or "—" (no growth).
    static QString growthText(double growth);
    /// A tooltip's lines for one side of a row: the model, the prediction at P, the measured value at the
    /// largest run and the growth, values in the unit of `trial`'s metric of the models shown in `unit`.
    QString explain(const CallPathModel& row, ScalingValue value, const Trial& trial, TimeUnit unit) const;
    /// A line of coloured swatches "÷100 … ×100" for legends (HTML).
    static QString legendHtml();

private:
    std::shared_ptr<const ScalingModelSet> m_set;
    QHash<QString, int> m_byPath;
    std::size_t m_runs;
    QString m_shownRun;
};

} // namespace parallax
