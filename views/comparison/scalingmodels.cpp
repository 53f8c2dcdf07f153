// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/comparison/scalingmodels.h"

#include "datasource/readers/textnumber.h"
#include "views/charts/colors.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <algorithm>
#include <cmath>

namespace parallax {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

/// The union of the runs' call trees: every " => " path and its prefixes (algebra/calltree.h), and the
/// flat events that are no component of a call path. Parents before children.
void addRows(const Trial& trial, ScalingModelSet& set, QHash<QString, int>& byPath)
{
    // The components of the run's call paths: a flat event that is one of them is the sum of its call
    // paths (TAU's flat profile) and no row of its own; a flat event that is none (a Caliper root region
    // without children, e.g. LULESH's MPI_Comm_split) is a root.
    QSet<QString> components;
    for (const auto& e : trial.events())
        if (e.isCallPath())
            for (const QString& c : e.name.split(QStringLiteral(" => ")))
                components.insert(c);
    auto rowFor = [&](const QString& path, auto&& self) -> int {
        const auto it = byPath.constFind(path);
        if (it != byPath.cend())
            return it.value();
        const qsizetype sep = path.lastIndexOf(QLatin1String(" => "));
        CallPathModel row;
        row.path = path;
        row.label = sep < 0 ? path : path.mid(sep + 4);
        if (sep >= 0) {
            row.parent = self(path.left(sep), self);
            row.depth = set.rows[static_cast<std::size_t>(row.parent)].depth + 1;
        }
        const int id = static_cast<int>(set.rows.size());
        set.rows.push_back(std::move(row));
        const int parent = set.rows.back().parent;
        if (parent >= 0)
            set.rows[static_cast<std::size_t>(parent)].children.push_back(id);
        else
            set.roots.push_back(id);
        byPath.insert(path, id);
        return id;
    };
    for (const auto& e : trial.events())
        if (e.isCallPath() || !components.contains(e.name))
            rowFor(e.name, rowFor);
}

void addPoint(std::vector<ModelPoint>& points, double p, double value)
{
    auto it = std::find_if(points.begin(), points.end(), [p](const ModelPoint& q) { return q.p == p; });
    if (it == points.end())
        points.push_back(ModelPoint { p, { value } });
    else
        it->values.push_back(value);
}

int processCountRank(const QString& key)
{
    static const QRegularExpression exact(QStringLiteral("(world\\.size|mpi.*size|ranks?|n?procs?|processes|nodes)$"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression loose(
        QStringLiteral("(size|count|threads)"), QRegularExpression::CaseInsensitiveOption);
    return exact.match(key).hasMatch() ? 0 : loose.match(key).hasMatch() ? 1 : 2;
}

} // namespace

double ScalingModels::parameterValue(const Trial& trial, const QString& parameter)
{
    if (parameter == QLatin1String("threads"))
        return static_cast<double>(trial.threadCount());
    const QString text = trial.metadataValue(parameter);
    if (text.isNull())
        return nan;
    const auto v = textnumber::parseDoubleInRange(text.trimmed().toStdString());
    return v && std::isfinite(*v) ? *v : nan;
}

QStringList ScalingModels::parameters(const ScalingSnapshot& snapshot)
{
    QStringList result;
    if (snapshot.trials.empty())
        return result;
    auto varies = [&](const QString& parameter) {
        std::vector<double> values;
        for (const auto& t : snapshot.trials) {
            const double v = parameterValue(*t, parameter);
            if (std::isnan(v))
                return false;
            if (std::find(values.begin(), values.end(), v) == values.end())
                values.push_back(v);
        }
        return values.size() >= 2;
    };
    if (varies(QStringLiteral("threads")))
        result.append(QStringLiteral("threads"));
    const Trial& first = *snapshot.trials.front();
    QStringList keys;
    for (const MetadataEntry& m : first.metadata()) {
        const QString& key = first.strings().get(m.key);
        if (key != QLatin1String("threads") && !keys.contains(key) && varies(key))
            keys.append(key);
    }
    std::stable_sort(keys.begin(), keys.end(),
        [](const QString& a, const QString& b) { return processCountRank(a) < processCountRank(b); });
    return result + keys;
}

std::shared_ptr<const ScalingModelSet> ScalingModels::build(const ScalingSnapshot& snapshot,
    const ScalingModelRequest& request, const std::atomic_bool* cancel,
    const std::function<void(int done, int total)>& progress)
{
    auto set = std::make_shared<ScalingModelSet>();
    set->request = request;
    set->metric = request.metric.isEmpty() && !snapshot.metrics.isEmpty() ? snapshot.metrics.front() : request.metric;
    const bool byThreads = request.parameter == QLatin1String("threads");
    set->parameterName = byThreads ? QStringLiteral("p") : request.parameter;
    if (snapshot.trials.size() < 2) {
        set->error = QObject::tr("a scaling model needs at least two runs");
        return set;
    }
    if (set->metric.isEmpty()) {
        set->error = QObject::tr("the runs have no metric in common");
        return set;
    }
    std::vector<double> p(snapshot.trials.size());
    for (std::size_t r = 0; r < snapshot.trials.size(); ++r) {
        const Trial& t = *snapshot.trials[r];
        p[r] = parameterValue(t, request.parameter);
        if (std::isnan(p[r])) {
            set->error = QObject::tr("run '%1' has no numeric metadata value '%2'").arg(t.name(), request.parameter);
            return set;
        }
        if (std::find(set->parameterValues.begin(), set->parameterValues.end(), p[r]) == set->parameterValues.end())
            set->parameterValues.push_back(p[r]);
    }
    std::sort(set->parameterValues.begin(), set->parameterValues.end());
    if (set->parameterValues.size() < 2) {
        set->error = byThreads ? QObject::tr("every run has %1 threads: nothing scales (choose a metadata key as "
                                             "the parameter, e.g. the MPI size)")
                                     .arg(set->parameterValues.front())
                               : QObject::tr("every run has %1 = %2: nothing scales")
                                     .arg(request.parameter)
                                     .arg(set->parameterValues.front());
        return set;
    }
    set->largest = set->parameterValues.back();

    QHash<QString, int> byPath;
    for (const auto& t : snapshot.trials)
        addRows(*t, *set, byPath);
    for (CallPathModel& row : set->rows) {
        row.synthetic = true;
        for (std::size_t r = 0; r < snapshot.trials.size(); ++r) {
            const Trial& t = *snapshot.trials[r];
            const EventId e = t.findEvent(row.path);
            const MetricId m = t.findMetric(set->metric);
            if (!e.isValid() || !m.isValid())
                continue;
            row.synthetic = false;
            const TrialStatistics& stats = *snapshot.stats[r];
            for (const auto kind : { ValueKind::Inclusive, ValueKind::Exclusive }) {
                const Stat& s = stats.stat(e, m, kind);
                if (s.present == 0)
                    continue;
                const double v = request.statistic == ScalingStatistic::Mean ? s.meanAll : s.max;
                addPoint(kind == ValueKind::Inclusive ? row.inclusive.points : row.exclusive.points, p[r], v);
            }
        }
        for (auto* side : { &row.inclusive, &row.exclusive })
            std::sort(side->points.begin(), side->points.end(),
                [](const ModelPoint& a, const ModelPoint& b) { return a.p < b.p; });
    }

    // Fit in batches (the predictions are made by retarget()), so that progress and cancellation are seen between them.
    std::vector<CallPathModel::Side*> sides;
    for (CallPathModel& row : set->rows)
        if (!row.synthetic) {
            sides.push_back(&row.inclusive);
            sides.push_back(&row.exclusive);
        }
    const ModelOptions options = request.modelOptions();
    const std::size_t batch = 256;
    for (std::size_t begin = 0; begin < sides.size(); begin += batch) {
        if (cancel && cancel->load()) {
            set->cancelled = true;
            return set;
        }
        const std::size_t end = std::min(sides.size(), begin + batch);
        std::vector<std::vector<ModelPoint>> series;
        series.reserve(end - begin);
        for (std::size_t i = begin; i < end; ++i)
            series.push_back(sides[i]->points);
        const auto models = fitPerformanceModels(series, options);
        for (std::size_t i = begin; i < end; ++i) {
            CallPathModel::Side& s = *sides[i];
            s.model = models[i - begin];
            for (const ModelPoint& q : s.points)
                if (q.p == set->largest)
                    s.measured = measureOf(q, options.measure);
        }
        if (progress)
            progress(static_cast<int>(end / 2), static_cast<int>(sides.size() / 2));
    }

    return retarget(*set, request.target);
}

std::shared_ptr<const ScalingModelSet> ScalingModels::retarget(const ScalingModelSet& from, double target)
{
    auto set = std::make_shared<ScalingModelSet>(from);
    set->request.target = target;
    set->top = -1;
    double best = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < set->rows.size(); ++i) {
        CallPathModel& row = set->rows[i];
        for (auto* s : { &row.inclusive, &row.exclusive }) {
            s->predicted = s->model.valid ? s->model.evaluate(target) : nan;
            s->growth = s->measured > 0 ? s->predicted / s->measured : nan;
        }
        const double v = row.side(set->request.value).predicted;
        if (!row.synthetic && std::isfinite(v) && v > best) {
            best = v;
            set->top = static_cast<int>(i);
        }
    }
    return set;
}

QColor ScalingModels::growthColour(double growth)
{
    if (std::isnan(growth))
        return { 0xd0, 0xd0, 0xd0 };
    if (growth <= 0)
        return divergingColor(-1.0);
    return divergingColor(std::clamp(std::log10(growth) / 2.0, -1.0, 1.0));
}

std::shared_ptr<const FlameTree> ScalingModels::predictedFlameTree(const ScalingModelSet& set)
{
    std::vector<FlameTree::Node> nodes(set.rows.size());
    bool callPaths = false;
    for (std::size_t i = 0; i < set.rows.size(); ++i) {
        const CallPathModel& row = set.rows[i];
        FlameTree::Node& n = nodes[i];
        n.name = row.label;
        n.parent = row.parent;
        callPaths = callPaths || row.parent >= 0;
        if (!row.synthetic) {
            const double inclusive = row.inclusive.predicted;
            n.inclusive = std::isfinite(inclusive) ? std::max(0.0, inclusive) : 0.0;
            const double self = row.exclusive.predicted;
            n.self = std::isfinite(self) ? std::clamp(self, 0.0, n.inclusive) : 0.0;
        }
    }
    // A synthetic row is as wide as its children (children come after their parents).
    for (std::size_t i = set.rows.size(); i-- > 0;)
        if (set.rows[i].synthetic)
            for (int c : set.rows[i].children)
                nodes[i].inclusive += nodes[static_cast<std::size_t>(c)].inclusive;
    return std::make_shared<const FlameTree>(FlameTree::fromNodes(std::move(nodes), callPaths));
}

} // namespace parallax
