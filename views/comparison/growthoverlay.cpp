// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/comparison/growthoverlay.h"

#include "views/common/valueformatter.h"

#include <QObject>
#include <cmath>

namespace parallax {

GrowthOverlay::GrowthOverlay(std::shared_ptr<const ScalingModelSet> set, std::size_t runs, QString shownRun)
    : m_set(std::move(set))
    , m_runs(runs)
    , m_shownRun(std::move(shownRun))
{
    m_byPath.reserve(static_cast<qsizetype>(m_set->rows.size()));
    for (std::size_t i = 0; i < m_set->rows.size(); ++i)
        m_byPath.insert(m_set->rows[i].path, static_cast<int>(i));
}

const CallPathModel* GrowthOverlay::find(const QString& path) const
{
    const auto it = m_byPath.constFind(path);
    if (it == m_byPath.cend())
        return nullptr;
    const CallPathModel& row = m_set->rows[static_cast<std::size_t>(it.value())];
    return row.synthetic ? nullptr : &row;
}

QString GrowthOverlay::description(ScalingValue shown) const
{
    const QLocale locale = groupingLocale();
    return QObject::tr("growth at P = %1 over %2 runs, parameter %3 (%4 %5)")
        .arg(locale.toString(target(), 'f', 0))
        .arg(m_runs)
        .arg(m_set->request.parameter,
            shown == ScalingValue::Inclusive ? QObject::tr("inclusive") : QObject::tr("exclusive"), m_set->metric);
}

QString GrowthOverlay::formulaText(const CallPathModel::Side& side) const
{
    return side.model.valid ? side.model.formula(m_set->parameterName, 3) : QStringLiteral("—");
}

QString GrowthOverlay::growthText(double growth)
{
    if (std::isnan(growth))
        return QStringLiteral("—");
    if (growth <= 0)
        return QObject::tr("≤ 0 (vanishes)");
    const QLocale locale = groupingLocale();
    return QStringLiteral("×") + (growth < 100 ? locale.toString(growth, 'g', 3) : locale.toString(growth, 'f', 0));
}

QString GrowthOverlay::explain(const CallPathModel& row, ScalingValue value, const Trial& trial, TimeUnit unit) const
{
    const MetricId m = trial.findMetric(m_set->metric);
    const Metric* metric = m.isValid() ? &trial.metric(m) : nullptr;
    const CallPathModel::Side& s = row.side(value);
    if (!s.model.valid)
        return QObject::tr("No model (no run measured this call path itself)");
    const QLocale locale = groupingLocale();
    auto text = [&](double v) {
        if (!std::isfinite(v))
            return QStringLiteral("—");
        return metric ? formatMetricValue(v, *metric, unit, locale) + QLatin1Char(' ') + unitLabel(*metric, unit)
                      : locale.toString(v, 'g', 6);
    };
    const QString p = m_set->parameterName;
    return QObject::tr("%1 model: %2\nPredicted at %3 = %4: %5; measured at %3 = %6: %7; growth %8")
        .arg(value == ScalingValue::Inclusive ? QObject::tr("Inclusive") : QObject::tr("Exclusive"),
            s.model.formula(p, 4), p, locale.toString(target(), 'f', 0), text(s.predicted),
            locale.toString(m_set->largest, 'f', 0), text(s.measured), growthText(s.growth));
}

QString GrowthOverlay::legendHtml()
{
    QString swatches;
    for (double g : { 0.01, 0.1, 1.0, 10.0, 100.0 })
        swatches += QStringLiteral("<span style=\"background:%1; color:#202020\">&nbsp;%2&nbsp;</span> ")
                        .arg(ScalingModels::growthColour(g).name(), growthText(g));
    return swatches;
}

} // namespace parallax
