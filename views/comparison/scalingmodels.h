// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/flame.h"
#include "algebra/perfmodel.h"
#include "views/comparison/scalingbuilder.h"

#include <QColor>
#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

namespace parallax {

/// What the per-call-path models of a scaling study fit (docs/SEMANTICS.md §10.6).
struct ScalingModelRequest {
    /// "threads" (each run's thread count) or a metadata key with a numeric value in every run.
    QString parameter = QStringLiteral("threads");
    QString metric; ///< empty: the first of the snapshot's metrics
    /// The value the table shows and sorts by (the flame graph always uses the inclusive models).
    ScalingValue value = ScalingValue::Exclusive;
    ScalingStatistic statistic = ScalingStatistic::Mean;
    double target = 65536;
    /// The modeler and the number of terms besides c0 (ModelOptions; 2 with the Basic modeler only).
    ModelerKind modeler = ModelerKind::Basic;
    int terms = 1;

    ModelOptions modelOptions() const
    {
        ModelOptions o;
        o.modeler = modeler;
        o.maxTerms = modeler == ModelerKind::Basic ? terms : 1;
        return o;
    }
};

/// One call path's two models (inclusive and exclusive) and what they say at the target.
struct CallPathModel {
    /// The call path as the runs name it (" => " components, or a flat event name), its last component.
    QString path;
    QString label;
    int parent = -1;
    std::vector<int> children;
    int depth = 0;
    /// No run has an event of this path (a prefix of deeper paths only): no values, no models.
    bool synthetic = false;

    struct Side {
        std::vector<ModelPoint> points; ///< by p ascending; the runs with the same p are repetitions
        PerformanceModel model;
        /// The measured value at the study's largest parameter value (the mean of its repetitions, or
        /// their median with ModelMeasure::Median); NaN when the path did not run there.
        double measured = std::numeric_limits<double>::quiet_NaN();
        double predicted = std::numeric_limits<double>::quiet_NaN(); ///< f(target)
        double growth = std::numeric_limits<double>::quiet_NaN(); ///< predicted / measured
    };
    Side inclusive;
    Side exclusive;
    const Side& side(ScalingValue v) const { return v == ScalingValue::Inclusive ? inclusive : exclusive; }
};

/// The models of every call path of a scaling study.
struct ScalingModelSet {
    ScalingModelRequest request;
    QString metric; ///< the metric fitted
    QString parameterName; ///< "p" for threads, else the key (the formulas' variable)
    std::vector<double> parameterValues; ///< the distinct parameter values, ascending
    double largest = 0; ///< the largest parameter value
    std::vector<CallPathModel> rows; ///< parents before children
    std::vector<int> roots;
    /// The non-synthetic row with the largest predicted value (request.value) at the target; -1 if none.
    int top = -1;
    /// Why nothing was fitted (a parameter that does not vary, a missing metadata key); empty if fitted.
    QString error;
    bool cancelled = false;
};

class ScalingModels {
public:
    /// Fits the models of every call path (slow for many paths: call it on a worker thread). The call
    /// paths are the union of the runs' call trees (algebra/calltree.h: the " => " paths and their
    /// prefixes) and of the runs' flat events that are no component of a call path (all of them in a
    /// flat profile; a Caliper root region without children). `progress(done, total)` is called
    /// after each batch of rows; a set `cancel` stops early (cancelled = true).
    static std::shared_ptr<const ScalingModelSet> build(const ScalingSnapshot& snapshot,
        const ScalingModelRequest& request, const std::atomic_bool* cancel = nullptr,
        const std::function<void(int done, int total)>& progress = {});

    /// The same models predicted at another target (predictions, growths and the top row again; no refit).
    static std::shared_ptr<const ScalingModelSet> retarget(const ScalingModelSet& set, double target);

    /// The parameters the study can be modelled over: "threads" when the runs' thread counts differ,
    /// then every metadata key with a numeric value in every run and at least two distinct values,
    /// keys naming a process count (mpi.world.size, …ranks, …procs, …size) first.
    static QStringList parameters(const ScalingSnapshot& snapshot);
    /// A run's value of the parameter; NaN when it has none (or it is not a number).
    static double parameterValue(const Trial& trial, const QString& parameter);

    /// The growth colour (docs/SEMANTICS.md §10.6): the diverging map at t = log₁₀(growth) / 2 clamped
    /// to [−1, 1] — white at growth 1, full red at ×100 or more, full blue at ÷100 or less (and at a
    /// prediction ≤ 0); grey when there is no growth (not measured at the largest parameter value).
    static QColor growthColour(double growth);

    /// The flame tree of the predicted inclusive values at the target (negative predictions count as
    /// 0; a synthetic row is the sum of its children), its self value the predicted exclusive value
    /// clamped to [0, inclusive]. Node i of the tree is row i of the set.
    static std::shared_ptr<const FlameTree> predictedFlameTree(const ScalingModelSet& set);
};

} // namespace parallax
