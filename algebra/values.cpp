// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/values.h"

#include "algebra/enumnames.h"

#include <QCoreApplication>
#include <algorithm>

namespace parallax {

namespace {

constexpr auto valueTypeNames
    = std::to_array<EnumName<ValueType>>({ { ValueType::Exclusive, "Exclusive" }, { ValueType::Inclusive, "Inclusive" },
        { ValueType::ExclusivePercent, "Exclusive %" }, { ValueType::InclusivePercent, "Inclusive %" },
        { ValueType::Calls, "Calls" }, { ValueType::Subroutines, "Subroutines" },
        { ValueType::ExclusivePerCall, "Exclusive per call" }, { ValueType::InclusivePerCall, "Inclusive per call" } });
static_assert(valueTypeNames.size() == ValueTypeCount);

constexpr auto statisticNames
    = std::to_array<EnumName<Statistic>>({ { Statistic::MeanAll, "Mean" }, { Statistic::MeanPresent, "Mean (present)" },
        { Statistic::Total, "Total" }, { Statistic::Min, "Min" }, { Statistic::Max, "Max" },
        { Statistic::StdDevAll, "Std. Dev." }, { Statistic::StdDevPresent, "Std. Dev. (present)" } });
static_assert(statisticNames.size() == StatisticCount);

} // namespace

QString valueTypeName(ValueType type) { return enumName(valueTypeNames, type); }

std::vector<Statistic> inStatisticOrder(std::initializer_list<Statistic> wanted)
{
    static constexpr Statistic order[] = { Statistic::MeanAll, Statistic::MeanPresent, Statistic::Min, Statistic::Max,
        Statistic::StdDevAll, Statistic::StdDevPresent, Statistic::Total };
    std::vector<Statistic> rows;
    for (Statistic s : order)
        if (std::find(wanted.begin(), wanted.end(), s) != wanted.end())
            rows.push_back(s);
    return rows;
}

QString statisticName(Statistic statistic) { return enumName(statisticNames, statistic); }

bool isMetricValued(ValueType type)
{
    return type == ValueType::Exclusive || type == ValueType::Inclusive || type == ValueType::ExclusivePerCall
        || type == ValueType::InclusivePerCall;
}

bool isPercent(ValueType type) { return type == ValueType::ExclusivePercent || type == ValueType::InclusivePercent; }

double cellValue(
    const Trial& trial, const TrialStatistics& stats, ThreadIndex t, std::size_t i, MetricId m, ValueType type)
{
    return cellValue(trial.row(t), stats, t, i, m, type);
}

double cellValue(
    const RowView& row, const TrialStatistics& stats, ThreadIndex t, std::size_t i, MetricId m, ValueType type)
{
    const std::size_t mi = m.index();
    switch (type) {
    case ValueType::Exclusive:
        return row.exclusive(mi, i);
    case ValueType::Inclusive:
        return row.inclusive(mi, i);
    case ValueType::ExclusivePercent:
        return stats.threadPercent(row.exclusive(mi, i), t, m);
    case ValueType::InclusivePercent:
        return stats.threadPercent(row.inclusive(mi, i), t, m);
    case ValueType::Calls:
        return row.calls[i];
    case ValueType::Subroutines:
        return row.subrs[i];
    case ValueType::ExclusivePerCall:
        return row.calls[i] != 0 ? row.exclusive(mi, i) / row.calls[i] : 0.0;
    case ValueType::InclusivePerCall:
        return row.calls[i] != 0 ? row.inclusive(mi, i) / row.calls[i] : 0.0;
    }
    return 0.0;
}

std::optional<double> threadValue(
    const Trial& trial, const TrialStatistics& stats, ThreadIndex t, EventId e, MetricId m, ValueType type)
{
    const RowView row = trial.row(t);
    const auto i = row.find(e);
    if (i < 0)
        return std::nullopt;
    return cellValue(row, stats, t, static_cast<std::size_t>(i), m, type);
}

namespace {

double pick(const Stat& s, Statistic statistic)
{
    switch (statistic) {
    case Statistic::MeanAll:
        return s.meanAll;
    case Statistic::MeanPresent:
        return s.meanPresent;
    case Statistic::Total:
        return s.total;
    case Statistic::Min:
        return s.min;
    case Statistic::Max:
        return s.max;
    case Statistic::StdDevAll:
        return s.sdAll;
    case Statistic::StdDevPresent:
        return s.sdPresent;
    }
    return 0.0;
}

bool isSpread(Statistic s)
{
    return s == Statistic::Min || s == Statistic::Max || s == Statistic::StdDevAll || s == Statistic::StdDevPresent;
}

} // namespace

std::optional<double> statisticValue(
    const Trial& trial, const TrialStatistics& stats, EventId e, MetricId m, ValueType type, Statistic statistic)
{
    (void)trial;
    const Stat& excl = stats.stat(e, m, ValueKind::Exclusive);
    if (excl.present == 0 && (statistic == Statistic::Min || statistic == Statistic::Max))
        return std::nullopt;
    switch (type) {
    case ValueType::Exclusive:
        return pick(excl, statistic);
    case ValueType::Inclusive:
        return pick(stats.stat(e, m, ValueKind::Inclusive), statistic);
    case ValueType::Calls:
        return pick(stats.stat(e, m, ValueKind::Calls), statistic);
    case ValueType::Subroutines:
        return pick(stats.stat(e, m, ValueKind::Subroutines), statistic);
    case ValueType::ExclusivePercent:
        if (isSpread(statistic))
            return std::nullopt;
        return stats.totalPercent(e, m, ValueKind::Exclusive);
    case ValueType::InclusivePercent:
        if (isSpread(statistic))
            return std::nullopt;
        return stats.totalPercent(e, m, ValueKind::Inclusive);
    case ValueType::ExclusivePerCall:
    case ValueType::InclusivePerCall: {
        const bool exclusive = type == ValueType::ExclusivePerCall;
        if (isSpread(statistic)) {
            const Stat& pc = stats.stat(e, m, exclusive ? ValueKind::ExclusivePerCall : ValueKind::InclusivePerCall);
            if (pc.present == 0)
                return std::nullopt;
            return pick(pc, statistic);
        }
        const double calls = stats.stat(e, m, ValueKind::Calls).total;
        if (calls == 0)
            return std::nullopt;
        return stats.stat(e, m, exclusive ? ValueKind::Exclusive : ValueKind::Inclusive).total / calls;
    }
    }
    return std::nullopt;
}

} // namespace parallax
