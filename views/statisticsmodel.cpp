// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/statisticsmodel.h"

#include "algebra/statistics.h"
#include "algebra/values.h"
#include "views/common/valueformatter.h"

#include <cmath>
#include <limits>

namespace parallax {

namespace {

bool isNumeric(int column) { return column != StatisticsModel::Name && column != StatisticsModel::Groups; }

/// The value column of a model column (the value columns run Exclusive..InclusivePerCall).
std::optional<ValueColumn> valueColumn(int column) { return valueColumnAt(column, StatisticsModel::Exclusive); }

/// Blank cells sort after every number in descending order (the usual one).
constexpr double blankSortValue = -std::numeric_limits<double>::infinity();

} // namespace

Statistic statisticOf(RowMode mode)
{
    switch (mode) {
    case RowMode::MeanPresent:
        return Statistic::MeanPresent;
    case RowMode::Total:
        return Statistic::Total;
    case RowMode::Min:
        return Statistic::Min;
    case RowMode::Max:
        return Statistic::Max;
    case RowMode::StdDevAll:
        return Statistic::StdDevAll;
    case RowMode::StdDevPresent:
        return Statistic::StdDevPresent;
    default:
        return Statistic::MeanAll;
    }
}

std::optional<double> shownCellValue(
    const Trial& trial, const TrialStatistics& stats, ThreadIndex t, std::size_t cell, MetricId m, ValueType type)
{
    if ((type == ValueType::ExclusivePerCall || type == ValueType::InclusivePerCall) && !(trial.row(t).calls[cell] > 0))
        return std::nullopt;
    return cellValue(trial, stats, t, cell, m, type);
}

QString threadsPresentText(double present, std::size_t threads, const QLocale& locale)
{
    return QStringLiteral("%1 / %2").arg(
        locale.toString(static_cast<qlonglong>(present)), locale.toString(static_cast<qlonglong>(threads)));
}

StatisticsModel::StatisticsModel(QObject* parent)
    : QAbstractTableModel(parent)
    , m_locale(groupingLocale(QLocale()))
{
}

StatisticsModel::StatisticsModel(
    std::shared_ptr<const Trial> trial, MetricId metric, RowMode mode, ThreadIndex thread, QObject* parent)
    : QAbstractTableModel(parent)
    , m_mode(mode)
    , m_thread(thread)
    , m_locale(groupingLocale(QLocale()))
{
    setTrial(std::move(trial), metric);
}

StatisticsModel::~StatisticsModel() = default;

void StatisticsModel::setTrial(std::shared_ptr<const Trial> trial, MetricId metric)
{
    beginResetModel();
    m_trial = std::move(trial);
    m_stats = m_trial ? TrialStatistics::of(*m_trial) : nullptr;
    if (m_trial && (!metric.isValid() || metric.index() >= m_trial->metricCount()))
        metric = m_trial->metricCount() > 0 ? MetricId(0u) : MetricId();
    m_metric = metric;
    if (m_mode == RowMode::Thread && (!m_trial || !m_thread.isValid() || m_thread.index() >= m_trial->threadCount()))
        m_mode = RowMode::MeanAll;
    rebuildRows();
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void StatisticsModel::setMetric(MetricId metric)
{
    if (!m_trial || !metric.isValid() || metric.index() >= m_trial->metricCount() || metric == m_metric)
        return;
    m_metric = metric;
    m_decimals.clear();
    emitCellsChanged(this, true);
}

void StatisticsModel::setRowMode(RowMode mode, ThreadIndex thread)
{
    if (mode == RowMode::Thread && (!m_trial || !thread.isValid() || thread.index() >= m_trial->threadCount()))
        return;
    if (mode != RowMode::Thread)
        thread = ThreadIndex();
    if (mode == m_mode && thread == m_thread)
        return;
    const bool rowsChange = mode == RowMode::Thread || m_mode == RowMode::Thread;
    if (rowsChange) {
        beginResetModel();
        m_mode = mode;
        m_thread = thread;
        rebuildRows();
        endResetModel();
    } else {
        m_mode = mode;
        m_thread = thread;
        m_decimals.clear();
        emitCellsChanged(this);
    }
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void StatisticsModel::setIncludeCallPaths(bool include)
{
    if (include == m_includeCallPaths)
        return;
    beginResetModel();
    m_includeCallPaths = include;
    rebuildRows();
    endResetModel();
}

void StatisticsModel::setEventFilter(std::function<bool(EventId)> filter)
{
    beginResetModel();
    m_filter = std::move(filter);
    rebuildRows();
    endResetModel();
}

void StatisticsModel::setLocale(const QLocale& locale)
{
    m_locale = groupingLocale(locale);
    emitCellsChanged(this);
}

int StatisticsModel::rowOf(EventId event) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i] == event)
            return static_cast<int>(i);
    return -1;
}

void StatisticsModel::rebuildRows()
{
    m_decimals.clear();
    m_rows.clear();
    m_cells.clear();
    if (!m_trial)
        return;
    if (m_mode == RowMode::Thread) {
        // Only the events that ran on this thread: "did not run" is not a row of zeros.
        const RowView row = m_trial->row(m_thread);
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (!m_includeCallPaths && m_trial->event(row.events[i]).isCallPath())
                continue;
            if (m_filter && !m_filter(row.events[i]))
                continue;
            m_rows.push_back(row.events[i]);
            m_cells.push_back(i);
        }
        return;
    }
    m_rows.reserve(m_trial->eventCount());
    for (std::size_t e = 0; e < m_trial->eventCount(); ++e) {
        const EventId id(e);
        if (!m_includeCallPaths && m_trial->event(id).isCallPath())
            continue;
        if (m_filter && !m_filter(id))
            continue;
        m_rows.push_back(id);
    }
}

bool StatisticsModel::isTime() const { return m_trial && m_metric.isValid() && m_trial->metric(m_metric).isTime(); }

bool StatisticsModel::isSpreadRow() const
{
    return m_mode == RowMode::Min || m_mode == RowMode::Max || m_mode == RowMode::StdDevAll
        || m_mode == RowMode::StdDevPresent;
}

QString StatisticsModel::rowModeName(RowMode mode)
{
    switch (mode) {
    case RowMode::MeanAll:
        return tr("Mean");
    case RowMode::MeanPresent:
        return tr("Mean (present)");
    case RowMode::Total:
        return tr("Total");
    case RowMode::Min:
        return tr("Min");
    case RowMode::Max:
        return tr("Max");
    case RowMode::StdDevAll:
        return tr("Std. Dev.");
    case RowMode::StdDevPresent:
        return tr("Std. Dev. (present)");
    case RowMode::Thread:
        return tr("Thread");
    }
    return {};
}

int StatisticsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int StatisticsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

std::optional<double> StatisticsModel::value(std::size_t row, int column) const
{
    const EventId e = m_rows[row];
    const MetricId m = m_metric;
    if (column == ThreadsPresent)
        return static_cast<double>(m_stats->stat(e, m, ValueKind::Calls).present);
    if (isImbalanceColumn(column)) {
        const Stat& s = m_stats->stat(e, m, ValueKind::Exclusive);
        if (s.present == 0)
            return std::nullopt;
        switch (column) {
        case MaxOverMean:
            return s.maxOverMean;
        case ImbalancePercent:
            return 100.0 * s.imbalance;
        case LostTime:
            return s.lostTime();
        case CoefficientOfVariation:
            return s.cv;
        default:
            return static_cast<double>(s.maxThread.index());
        }
    }
    const std::optional<ValueColumn> shown = valueColumn(column);
    if (!shown)
        return std::nullopt;
    const ValueType type = *shown;
    // One definition of every number (algebra/values.h) for the table, the trees and the charts.
    if (m_mode == RowMode::Thread)
        return shownCellValue(*m_trial, *m_stats, m_thread, m_cells[row], m, type);
    return statisticValue(*m_trial, *m_stats, e, m, type, statisticOf(m_mode));
}

QString StatisticsModel::display(std::size_t row, int column) const
{
    const EventId e = m_rows[row];
    if (column == Name)
        return m_trial->event(e).name;
    if (column == Groups) {
        QStringList names;
        for (GroupId g : m_trial->event(e).groups)
            names.append(m_trial->groupName(g));
        return names.join(QLatin1String(", "));
    }
    const std::optional<double> v = value(row, column);
    if (!v)
        return {};
    if (column == ThreadsPresent)
        return threadsPresentText(*v, m_trial->threadCount(), m_locale);
    if (column == MaxThread)
        return m_trial->threadKey(ThreadIndex(static_cast<std::size_t>(*v))).toString();
    if (column == MaxOverMean || column == CoefficientOfVariation)
        return m_locale.toString(*v, 'f', 2);
    if (column == LostTime)
        return formatValue(
            ValueColumn::Exclusive, *v, m_trial->metric(m_metric), TimeUnit::Milliseconds, m_locale, true);
    if (column == ImbalancePercent)
        return formatValue(
            ValueColumn::ExclusivePercent, *v, m_trial->metric(m_metric), TimeUnit::Milliseconds, m_locale);
    // Time in ms, as the header says, with one decimals count per column.
    return formatValue(*valueColumn(column), *v, m_trial->metric(m_metric), TimeUnit::Milliseconds, m_locale,
        fractionalRows(), decimalsOf(column));
}

bool StatisticsModel::fractionalRows() const
{
    // Means and deviations are fractional counts: their columns share two decimals.
    return m_mode == RowMode::MeanAll || m_mode == RowMode::MeanPresent || m_mode == RowMode::StdDevAll
        || m_mode == RowMode::StdDevPresent;
}

int StatisticsModel::decimalsOf(int column) const
{
    return m_decimals.of(column, [&] {
        std::vector<double> values;
        values.reserve(m_rows.size());
        for (std::size_t row = 0; row < m_rows.size(); ++row)
            if (const std::optional<double> v = value(row, column))
                values.push_back(*v);
        return valueColumnDecimals(
            *valueColumn(column), values, m_trial->metric(m_metric), TimeUnit::Milliseconds, fractionalRows());
    });
}

QString StatisticsModel::rawText(double value, bool metricValue) const
{
    return rawValueText(value, m_trial->metric(m_metric), metricValue);
}

QString StatisticsModel::threadLabel() const { return tr("thread %1").arg(m_trial->threadKey(m_thread).toString()); }

QString describeRowMode(RowMode mode, std::size_t threads, std::size_t present, const QString& where,
    const QString& threadLabel, bool pooled)
{
    const auto n = static_cast<qulonglong>(threads);
    const auto p = static_cast<qulonglong>(present);
    switch (mode) {
    case RowMode::MeanAll:
        return StatisticsModel::tr("Mean over all %1 (absent = 0)")
            .arg(countText(n, StatisticsModel::tr("thread"), StatisticsModel::tr("threads")));
    case RowMode::MeanPresent:
        return StatisticsModel::tr("Mean over the %1 of %2 threads %3").arg(p).arg(n).arg(where);
    case RowMode::Total:
        return (pooled ? StatisticsModel::tr("All samples of the %1 of %2 threads %3")
                       : StatisticsModel::tr("Total over the %1 of %2 threads %3"))
            .arg(p)
            .arg(n)
            .arg(where);
    case RowMode::Min:
        return StatisticsModel::tr("Minimum over the %1 of %2 threads %3").arg(p).arg(n).arg(where);
    case RowMode::Max:
        return StatisticsModel::tr("Maximum over the %1 of %2 threads %3").arg(p).arg(n).arg(where);
    case RowMode::StdDevAll:
        return StatisticsModel::tr("Population standard deviation over all %1 (absent = 0)")
            .arg(countText(n, StatisticsModel::tr("thread"), StatisticsModel::tr("threads")));
    case RowMode::StdDevPresent:
        return StatisticsModel::tr("Population standard deviation over the %1 of %2 threads %3")
            .arg(p)
            .arg(n)
            .arg(where);
    case RowMode::Thread:
        return StatisticsModel::tr("Value on %1").arg(threadLabel);
    }
    return {};
}

QString StatisticsModel::modeDescription(std::size_t present) const
{
    return describeRowMode(m_mode, m_trial->threadCount(), present, tr("where it ran"),
        m_mode == RowMode::Thread ? threadLabel() : QString());
}

QString StatisticsModel::toolTip(std::size_t row, int column) const
{
    const EventId e = m_rows[row];
    const IntervalEvent& event = m_trial->event(e);
    const MetricId m = m_metric;
    const QString metricName = m_trial->metric(m).name;

    if (column == Name) {
        QString tip = event.name;
        if (!event.rawName.isEmpty() && event.rawName != event.name)
            tip += QLatin1Char('\n') + tr("As written in the profile: \"%1\"").arg(event.rawName);
        tip += QLatin1Char('\n')
            + (event.isCallPath() ? tr("Call path of depth %1").arg(event.depth) : tr("Flat event"));
        return tip;
    }
    if (column == Groups)
        return display(row, column).isEmpty() ? tr("No groups") : tr("Groups: %1").arg(display(row, column));

    const Stat& calls = m_stats->stat(e, m, ValueKind::Calls);
    if (column == ThreadsPresent)
        return tr("Present (ran) on %1 of %2 threads").arg(calls.present).arg(m_trial->threadCount());
    if (isImbalanceColumn(column))
        return imbalanceToolTip(e);

    const std::optional<double> v = value(row, column);
    const bool excl = column == Exclusive || column == ExclusivePercent || column == ExclusivePerCall;
    const QString what = excl ? tr("exclusive %1").arg(metricName) : tr("inclusive %1").arg(metricName);
    const ValueKind kind = excl ? ValueKind::Exclusive : ValueKind::Inclusive;

    switch (column) {
    case Exclusive:
    case Inclusive: {
        const Stat& s = m_stats->stat(e, m, kind);
        QString tip = modeDescription(s.present) + QStringLiteral(" of ") + what + QStringLiteral(": ")
            + (v ? rawText(*v, true) : tr("undefined (never ran)"));
        if (m_mode == RowMode::MeanAll || m_mode == RowMode::MeanPresent) {
            const std::size_t divisor = m_mode == RowMode::MeanAll ? m_trial->threadCount() : s.present;
            tip += QLatin1Char('\n') + tr("= total %1 / %2").arg(rawText(s.total, true)).arg(divisor);
        }
        return tip;
    }
    case ExclusivePercent:
    case InclusivePercent: {
        if (!v)
            return tr("Percent is not defined on the %1 row").arg(rowModeName(m_mode));
        if (m_mode == RowMode::Thread) {
            const RowView cells = m_trial->row(m_thread);
            const std::size_t i = m_cells[row];
            const double cell = excl ? cells.exclusive(m.index(), i) : cells.inclusive(m.index(), i);
            return tr("100 × %1 / %2 (the top inclusive value of %3) = %4 %")
                .arg(rawText(cell, true), rawText(m_stats->threadTopInclusive(m_thread, m), true), threadLabel(),
                    rawNumber(*v));
        }
        const double total = m_stats->stat(e, m, kind).total;
        return tr("100 × total %1 / D %2 = %3 %\nD is the sum over all threads of each thread's top inclusive %4; "
                  "the same on the total and mean rows")
            .arg(rawText(total, true), rawText(m_stats->sumTopInclusive(m), true), rawNumber(*v), metricName);
    }
    case Calls:
    case Subroutines: {
        const Stat& s = column == Calls ? calls : m_stats->stat(e, m, ValueKind::Subroutines);
        const QString name = column == Calls ? tr("calls") : tr("subroutine calls");
        return modeDescription(s.present) + QStringLiteral(" of ") + name + QStringLiteral(": ")
            + (v ? rawNumber(*v) : tr("undefined (never ran)"));
    }
    case ExclusivePerCall:
    case InclusivePerCall: {
        if (m_mode == RowMode::Thread) {
            if (!v)
                return tr("No calls on %1").arg(threadLabel());
            const RowView cells = m_trial->row(m_thread);
            const std::size_t i = m_cells[row];
            const double cell = excl ? cells.exclusive(m.index(), i) : cells.inclusive(m.index(), i);
            return tr("%1 / %2 calls on %3 = %4")
                .arg(rawText(cell, true), rawNumber(cells.calls[i]), threadLabel(), rawText(*v, true));
        }
        if (isSpreadRow()) {
            const Stat& s = m_stats->stat(e, m, excl ? ValueKind::ExclusivePerCall : ValueKind::InclusivePerCall);
            if (!v)
                return tr("No thread called it");
            return tr("%1 of %2 per call, over the %3 threads with calls > 0: %4")
                .arg(rowModeName(m_mode), what)
                .arg(s.present)
                .arg(rawText(*v, true));
        }
        const double total = m_stats->stat(e, m, kind).total;
        if (!v)
            return tr("No calls: per-call value undefined");
        return tr("Σ %1 / Σ calls = %2 / %3 = %4\n(the same on the total and mean rows)")
            .arg(what, rawText(total, true), rawNumber(calls.total), rawText(*v, true));
    }
    default:
        return {};
    }
}

QString StatisticsModel::imbalanceToolTip(EventId e) const
{
    const Stat& s = m_stats->stat(e, m_metric, ValueKind::Exclusive);
    const QString metricName = m_trial->metric(m_metric).name;
    if (s.present == 0)
        return tr("Never ran: no imbalance");
    const auto n = static_cast<qulonglong>(m_trial->threadCount());
    return tr("Load imbalance of exclusive %1 across all %2 threads (absent = 0), whatever the Show selector "
              "says:\nmax %3 on thread %4, mean %5, std. dev. %6\nmax / mean = %7 (1 = balanced)\n"
              "(max − mean) / max = %8 % (the share of the slowest thread's time that balancing would save)\n"
              "coefficient of variation sd / mean = %9\n"
              "lost time max − mean = %10 (what the other threads wait for the slowest one)")
        .arg(metricName)
        .arg(n)
        .arg(rawText(s.max, true), m_trial->threadKey(s.maxThread).toString(), rawText(s.meanAll, true),
            rawText(s.sdAll, true), rawNumber(s.maxOverMean), rawNumber(100.0 * s.imbalance), rawNumber(s.cv),
            rawText(s.lostTime(), true));
}

QVariant StatisticsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_trial)
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case SortRole: {
        if (column == Name || column == Groups)
            return display(row, column);
        const std::optional<double> v = value(row, column);
        return v ? *v : blankSortValue;
    }
    case TieBreakRole:
        // The imbalance ratios tie (every routine on 1 of N threads has max/mean N): the one costing
        // the most lost time first (docs/SEMANTICS.md 2.1).
        if (column == MaxOverMean || column == ImbalancePercent || column == CoefficientOfVariation)
            return value(row, LostTime).value_or(blankSortValue);
        return {};
    case Qt::ToolTipRole:
        return toolTip(row, column);
    case Qt::TextAlignmentRole:
        return isNumeric(column) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                 : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case EventRole:
        return m_rows[row].index();
    default:
        return {};
    }
}

// The value columns run Exclusive..InclusivePerCall in ValueColumn's order.
static_assert(StatisticsModel::InclusivePerCall - StatisticsModel::Exclusive == ValueColumnCount - 1);

QVariant StatisticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    const QString unit = isTime() ? QStringLiteral(" (ms)") : QString();
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Name:
            return tr("Name");
        case ThreadsPresent:
            return tr("Threads");
        case Groups:
            return tr("Groups");
        case MaxOverMean:
            return tr("Max/Mean");
        case ImbalancePercent:
            return tr("Imbalance %");
        case LostTime:
            return QString(tr("Lost time") + unit);
        case CoefficientOfVariation:
            return tr("CV");
        case MaxThread:
            return tr("Max Thread");
        default:
            return valueColumnHeader(*valueColumn(section), unit);
        }
    }
    if (role == Qt::TextAlignmentRole)
        return isNumeric(section) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                  : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        const QString metricName = m_trial && m_metric.isValid() ? m_trial->metric(m_metric).name : tr("the metric");
        const QString row = m_mode == RowMode::Thread && m_trial ? threadLabel() : rowModeName(m_mode);
        switch (section) {
        case Name:
            return tr("Interval event: a flat routine, or a call path \"a => b\"");
        case ThreadsPresent:
            return tr("Threads on which the event ran, of all threads");
        case Groups:
            return tr("TAU groups of the event");
        case MaxOverMean:
            return tr("Load imbalance: max / mean of the exclusive %1 over all threads (absent = 0); 1 is perfect "
                      "balance. Sort by it to find the most imbalanced routine.")
                .arg(metricName);
        case ImbalancePercent:
            return tr("Load imbalance: 100 × (max − mean) / max of the exclusive %1 over all threads: the share of the "
                      "slowest thread's time that perfect balance would save")
                .arg(metricName);
        case LostTime:
            return tr("Lost time: max − mean of the exclusive %1 over all threads (absent = 0), the time the other "
                      "threads wait for the slowest one. Sort by it to find the routine costing the most waiting; "
                      "the Max/Mean, Imbalance % and CV sorts break their ties by it.")
                .arg(metricName);
        case CoefficientOfVariation:
            return tr("Coefficient of variation of the exclusive %1: std. dev. / mean over all threads (absent = 0)")
                .arg(metricName);
        case MaxThread:
            return tr("The thread (n,c,t) with the largest exclusive %1").arg(metricName);
        default:
            return valueColumnToolTip(*valueColumn(section), metricName, row);
        }
    }
    return {};
}

} // namespace parallax
