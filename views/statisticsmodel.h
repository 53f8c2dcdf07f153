// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/values.h"
#include "datasource/model/trial.h"
#include "views/common/valueformatter.h"
#include "views/viewsetup.h"

#include <QAbstractTableModel>
#include <QLocale>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace parallax {

class TrialStatistics;

/// Which value of each event a StatisticsModel shows: a statistic across threads (docs/SEMANTICS.md 2)
/// or the values of one thread.
enum class RowMode {
    MeanAll, ///< total / N, absent threads count as 0 (the default)
    MeanPresent, ///< total / |P|
    Total,
    Min,
    Max,
    StdDevAll, ///< population sd over all N threads, absent = 0
    StdDevPresent, ///< population sd over the present threads
    Thread, ///< the cells of one thread
};

/// The statistic a row mode shows (MeanAll for RowMode::Thread).
Statistic statisticOf(RowMode mode);

/// The value of the present cell at position `cell` of thread t's row as the tables, the call tree
/// and the call graph show it: none (blank, not 0) for a per-call value of a cell without calls.
std::optional<double> shownCellValue(
    const Trial& trial, const TrialStatistics& stats, ThreadIndex t, std::size_t cell, MetricId m, ValueType type);

/// The "threads present" cell of the tables: "5 / 8" (present of all threads).
QString threadsPresentText(double present, std::size_t threads, const QLocale& locale);

/// Explains a row mode in a tooltip: "Mean over all 8 threads (absent = 0)", "Minimum over the 5
/// of 8 threads where it ran", ... `where` ends the present-thread phrases ("where it ran");
/// `threadLabel` names the thread of RowMode::Thread; `pooled` describes Total as pooled samples.
QString describeRowMode(RowMode mode, std::size_t threads, std::size_t present, const QString& where,
    const QString& threadLabel, bool pooled = false);

/// One row per interval event (flat and call-path) of a trial, for one metric and one row mode.
/// Numbers come from TrialStatistics; only the single-thread mode reads cells directly.
/// DisplayRole is formatted text, SortRole the raw double (µs for time metrics), ToolTipRole
/// explains the number.
class StatisticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Exclusive,
        Inclusive,
        ExclusivePercent,
        InclusivePercent,
        Calls,
        Subroutines,
        ExclusivePerCall,
        InclusivePerCall,
        /// Load imbalance of the exclusive values across all threads (docs/SEMANTICS.md 2.1), the
        /// same whatever row mode is shown.
        MaxOverMean,
        ImbalancePercent, ///< 100 × (max − mean) / max
        LostTime, ///< max − mean (Stat::lostTime), in the time unit: the imbalance sorts' tie-break
        CoefficientOfVariation, ///< sd / mean (all threads)
        MaxThread, ///< the thread holding the max (SortRole: its ThreadIndex)
        ThreadsPresent,
        Groups,
        ColumnCount
    };
    static bool isImbalanceColumn(int column) { return column >= MaxOverMean && column <= MaxThread; }
    /// The EventId index of the row (an unsigned int) for navigation.
    static constexpr int EventRole = SortRole + 1;

    explicit StatisticsModel(QObject* parent = nullptr);
    StatisticsModel(std::shared_ptr<const Trial> trial, MetricId metric, RowMode mode = RowMode::MeanAll,
        ThreadIndex thread = ThreadIndex(), QObject* parent = nullptr);
    ~StatisticsModel() override;

    /// Replaces the trial (resets the model). An invalid metric selects the first one.
    void setTrial(std::shared_ptr<const Trial> trial, MetricId metric = MetricId());
    const std::shared_ptr<const Trial>& trial() const { return m_trial; }

    void setMetric(MetricId metric);
    MetricId metric() const { return m_metric; }

    /// The thread is used by RowMode::Thread only. Switching between statistics keeps the rows
    /// (dataChanged); entering, leaving or changing the thread resets the model, because a thread
    /// shows only the events present on it.
    void setRowMode(RowMode mode, ThreadIndex thread = ThreadIndex());
    RowMode rowMode() const { return m_mode; }
    ThreadIndex thread() const { return m_thread; }

    /// Whether call-path events ("a => b") get rows; on by default.
    void setIncludeCallPaths(bool include);
    bool includeCallPaths() const { return m_includeCallPaths; }

    /// Events the filter rejects get no row (group legend, name filter); an empty filter shows all.
    void setEventFilter(std::function<bool(EventId)> filter);

    /// Locale for the formatted numbers (defaults to the system locale, with digit grouping).
    void setLocale(const QLocale& locale);

    EventId eventAt(int row) const { return m_rows[static_cast<std::size_t>(row)]; }
    /// Row of an event, or -1 when it has none.
    int rowOf(EventId event) const;

    static QString rowModeName(RowMode mode);

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuildRows();
    bool isTime() const;
    bool isStatisticRow() const { return m_mode != RowMode::Thread; }
    bool isSpreadRow() const;
    std::optional<double> value(std::size_t row, int column) const;
    QString display(std::size_t row, int column) const;
    /// The one decimals count of a value column over its rows (valueColumnDecimals), cached.
    int decimalsOf(int column) const;
    bool fractionalRows() const;
    QString toolTip(std::size_t row, int column) const;
    QString imbalanceToolTip(EventId e) const;
    QString rawText(double value, bool metricValue) const;
    QString modeDescription(std::size_t present) const;
    QString threadLabel() const;

    std::shared_ptr<const Trial> m_trial;
    std::shared_ptr<const TrialStatistics> m_stats;
    MetricId m_metric;
    RowMode m_mode = RowMode::MeanAll;
    ThreadIndex m_thread;
    bool m_includeCallPaths = true;
    std::function<bool(EventId)> m_filter;
    QLocale m_locale;
    std::vector<EventId> m_rows;
    /// Thread mode: the position of each row's cell in the thread's IntervalRow.
    std::vector<std::size_t> m_cells;
    /// decimalsOf() per column; cleared by a change of rows, metric or mode.
    ColumnDecimalsCache m_decimals;
};

} // namespace parallax
