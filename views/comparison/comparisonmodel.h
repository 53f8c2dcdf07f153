// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/units.h"
#include "views/common/valueformatter.h"
#include "views/comparison/comparisonbuilder.h"
#include "views/comparison/comparisonformat.h"
#include "views/viewsetup.h"

#include <QAbstractTableModel>
#include <QLocale>
#include <memory>
#include <vector>

namespace parallax {

/// The side-by-side table of a comparison: one row per event (flat, optionally call paths too) with
/// A's and B's value, Δ = A − B, Δ% = 100·(A−B)/A (docs/SEMANTICS.md 4.6), the presence marker and a
/// column drawn as a pair of bars (SideBySideBarDelegate). Rows can be limited to a minimum
/// difference, absolute or relative.
///
/// The numbers are precomputed (ComparisonValues, on a worker thread for one thread's values);
/// the model only picks and formats them. DisplayRole is text, SortRole the raw number (µs for
/// time; absent values and "new" sort below every number), ToolTipRole explains the number.
class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Marker, ValueA, ValueB, Delta, DeltaPercent, Bars, ColumnCount };
    /// The comparison event index (int) of the row.
    static constexpr int EventRole = SortRole + 1;
    /// |Δ| and |Δ%| on the difference columns, SortRole elsewhere: sorting by the size of a change.
    static constexpr int MagnitudeRole = SortRole + 2;
    /// A's and B's value as a fraction (0..1) of the largest value shown; no value when absent.
    static constexpr int BarARole = SortRole + 3;
    static constexpr int BarBRole = SortRole + 4;
    /// The change in [-1, 1] relative to the largest |Δ| shown, positive = improvement.
    static constexpr int ChangeRole = SortRole + 5;

    explicit ComparisonModel(QObject* parent = nullptr);

    /// A new comparison (resets the model); the values follow with setValues().
    void setSnapshot(std::shared_ptr<const ComparisonSnapshot> snapshot);
    const std::shared_ptr<const ComparisonSnapshot>& snapshot() const { return m_snapshot; }
    /// New numbers (another metric or thread choice); must belong to the snapshot.
    void setValues(std::shared_ptr<const ComparisonValues> values);
    const std::shared_ptr<const ComparisonValues>& values() const { return m_values; }

    void setValue(CompareValue value);
    CompareValue value() const { return m_value; }
    /// Whether call-path events ("a => b") get rows; off by default.
    void setIncludeCallPaths(bool include);
    bool includeCallPaths() const { return m_includeCallPaths; }
    /// Only rows with |Δ| >= threshold (in the metric's own unit, µs for time) or, with percent,
    /// |Δ%| >= threshold ("new" and "removed" pass). 0 shows all rows.
    void setMinimumDifference(double threshold, bool percent);
    double minimumDifference() const { return m_threshold; }
    bool isPercentThreshold() const { return m_percent; }
    void setTimeUnit(TimeUnit unit);
    TimeUnit timeUnit() const { return m_unit; }
    /// Locale for the formatted numbers (with digit grouping, groupingLocale()).
    void setLocale(const QLocale& locale);
    /// How the Δ and Δ% cells are tinted (by Δ% by default).
    void setColourBy(ColourBy by);
    ColourBy colourBy() const { return m_colourBy; }

    /// The comparison event of a row, and the row of an event (-1 when filtered out).
    int eventAt(int row) const { return m_rows[static_cast<std::size_t>(row)]; }
    int rowOf(int event) const;
    /// The shown entry of a row.
    const ComparisonEntry& entryAt(int row) const;
    /// The metric shown (null before the first snapshot).
    const Metric* metric() const;
    /// Largest A or B value and largest |Δ| over the shown rows (the scales of the bars).
    double maximumValue() const { return m_maxValue; }
    double maximumDelta() const { return m_maxDelta; }
    /// Rows before the minimum-difference filter.
    int unfilteredRowCount() const { return m_unfiltered; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    /// A change of which rows there are: `change()` and rebuild() between beginResetModel() and
    /// endResetModel(); with `header`, the headers (unit, run names) change too.
    template <typename Change> void resetRows(Change change, bool header);
    void rebuild();
    QString toolTip(int row, int column) const;
    QString sourceText(bool baseline) const;

    std::shared_ptr<const ComparisonSnapshot> m_snapshot;
    std::shared_ptr<const ComparisonValues> m_values;
    CompareValue m_value = CompareValue::Exclusive;
    bool m_includeCallPaths = false;
    double m_threshold = 0;
    bool m_percent = false;
    TimeUnit m_unit = TimeUnit::Milliseconds;
    QLocale m_locale;
    std::vector<int> m_rows;
    /// The decimals of the A, B and Δ columns over the rows (comparePartDecimals).
    ColumnDecimalsCache m_decimals;
    int decimalsOf(int column) const;
    double m_maxValue = 0;
    double m_maxDelta = 0;
    int m_unfiltered = 0;
    ColourBy m_colourBy = ColourBy::Percent;
};

} // namespace parallax
