// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/statistics.h"
#include "datasource/model/pooledatomics.h"
#include "datasource/model/trial.h"
#include "views/common/treemodel.h"
#include "views/statisticsmodel.h"
#include "views/viewsetup.h"

#include <QLocale>
#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace parallax {

class TrialStatistics;

/// A user event's field on thread t as the table and the chart show it: the count, min, max,
/// mean, std. dev. or total (count × mean) of its samples there; none where it was not recorded
/// (and for SumSquares).
std::optional<double> atomicThreadValue(
    const Trial& trial, ThreadIndex t, AtomicEventId u, TrialStatistics::AtomicField field);

/// The user (atomic) events of a trial as a tree: one top-level row per event name, with its
/// context events ("name : path") as children showing the path. A name that occurs only with
/// contexts still gets a top-level row, a grey synthetic one without values.
///
/// Values are for one thread or a statistic across threads (RowMode, as in StatisticsModel). In
/// the statistic modes each column is that statistic of the per-thread field (the mean row's Max
/// is the mean over threads of each thread's max), except RowMode::Total, which pools all samples
/// of all threads into one record (docs/SEMANTICS.md 1.5: Σn, the smallest min, the largest max, the
/// n-weighted mean, the pooled std. dev., Σ n·mean).
///
/// DisplayRole is formatted text, SortRole the raw double (blank cells sort as -inf), ToolTipRole
/// explains the number, AtomicEventRole the AtomicEventId index (null for synthetic rows). Each
/// numeric column shows its values with one precision chosen from them (plainColumnDecimals of
/// algebra/columnformat.h): counts as whole numbers, fractions with the same decimals down the column.
///
/// The Pooled column flags a row whose numbers come from a record the reader pooled from several
/// records of the source (pooledAtomicCells of datasource/model/pooledatomics.h): "⚠ ×N" on a
/// thread (N records), "⚠ on K threads" across threads; its tooltip says how the records were
/// pooled. Its SortRole is N (a thread) or K (across threads), 0 when not pooled.
class UserEventsModel : public NodeTreeModel {
    Q_OBJECT
public:
    enum Column { Name, Count, Min, Max, Mean, StdDev, Total, ThreadsPresent, Pooled, ColumnCount };
    /// The AtomicEventId index (unsigned int) of a row; a null QVariant on synthetic rows.
    static constexpr int AtomicEventRole = SortRole + 1;
    /// The full event name ("name : context" on context rows).
    static constexpr int FullNameRole = SortRole + 2;

    explicit UserEventsModel(QObject* parent = nullptr);
    UserEventsModel(std::shared_ptr<const Trial> trial, RowMode mode = RowMode::MeanAll,
        ThreadIndex thread = ThreadIndex(), QObject* parent = nullptr);
    ~UserEventsModel() override;

    /// Replaces the trial (resets the model). A thread mode without a valid thread of the new
    /// trial falls back to RowMode::MeanAll.
    void setTrial(std::shared_ptr<const Trial> trial);
    const std::shared_ptr<const Trial>& trial() const { return m_trial; }

    /// Switching between statistics keeps the rows (dataChanged); entering, leaving or changing
    /// the thread resets the model, because a thread shows only the user events recorded on it.
    /// RowMode::Thread with an invalid thread is ignored.
    void setRowMode(RowMode mode, ThreadIndex thread = ThreadIndex());
    RowMode rowMode() const { return m_mode; }
    ThreadIndex thread() const { return m_thread; }

    void setLocale(const QLocale& locale);

    /// The user event of an index (invalid for a synthetic row).
    AtomicEventId atomicEventAt(const QModelIndex& index) const;
    /// The index (column 0) showing a user event, or an invalid index when it has no row.
    QModelIndex indexOf(AtomicEventId event) const;
    /// The value shown in a cell; nullopt when blank (and for the Pooled column).
    std::optional<double> value(AtomicEventId event, int column) const;
    /// The Pooled column's number for an event: the records pooled into its cell on the shown
    /// thread (RowMode::Thread), else the number of threads where its record was pooled; 0 when none.
    std::size_t pooled(AtomicEventId event) const;
    /// The decimals a numeric column shows (one precision for the whole column).
    int columnDecimals(int column) const { return m_decimals[static_cast<std::size_t>(column)]; }

    static QString rowModeName(RowMode mode);

    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    /// One top-level row: an event name, its context-free record (if any) and its contexts.
    struct Node {
        QString name;
        AtomicEventId own;
        std::vector<AtomicEventId> contexts;
    };
    /// What a row (a tree node) shows: its name's top-level row, or one of its contexts.
    struct Shown {
        std::size_t name = 0;
        AtomicEventId event;
        bool context = false;
    };

    void rebuild();
    void chooseDecimals();
    QString pooledText(AtomicEventId event) const;
    QString pooledToolTip(AtomicEventId event) const;
    AtomicEventId eventOf(const QModelIndex& index) const;
    const Node& nodeOf(const QModelIndex& index) const;
    bool isContextRow(const QModelIndex& index) const;
    QString display(const QModelIndex& index) const;
    QString toolTip(const QModelIndex& index) const;
    QString nameToolTip(const QModelIndex& index) const;
    QString valueToolTip(AtomicEventId event, int column) const;
    QString threadLabel(ThreadIndex thread) const;
    QString modeDescription(std::size_t present) const;
    QString fieldName(int column) const;
    QString number(double value, int column) const;

    std::shared_ptr<const Trial> m_trial;
    std::shared_ptr<const TrialStatistics> m_stats;
    const PooledAtomicCells* m_pooled = nullptr; ///< of m_trial
    std::array<int, ColumnCount> m_decimals {};
    RowMode m_mode = RowMode::MeanAll;
    ThreadIndex m_thread;
    QLocale m_locale;
    std::vector<Node> m_nodes;
    std::vector<Shown> m_shown; ///< by tree node
};

} // namespace parallax
