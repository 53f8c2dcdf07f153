// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/userevents/usereventsmodel.h"

#include "algebra/columnformat.h"
#include "algebra/statistics.h"
#include "algebra/units.h"
#include "views/common/valueformatter.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QHash>
#include <QPalette>
#include <cmath>
#include <limits>

namespace parallax {

namespace {

/// Blank cells sort after every number in descending order (the usual one).
constexpr double blankSortValue = -std::numeric_limits<double>::infinity();

TrialStatistics::AtomicField fieldOf(int column)
{
    switch (column) {
    case UserEventsModel::Count:
        return TrialStatistics::Count;
    case UserEventsModel::Min:
        return TrialStatistics::Min;
    case UserEventsModel::Max:
        return TrialStatistics::Max;
    case UserEventsModel::Mean:
        return TrialStatistics::Mean;
    case UserEventsModel::Total:
        return TrialStatistics::Total;
    default:
        return TrialStatistics::StdDev;
    }
}

} // namespace

std::optional<double> atomicThreadValue(
    const Trial& trial, ThreadIndex t, AtomicEventId u, TrialStatistics::AtomicField field)
{
    const AtomicRow& row = trial.atomicRow(t);
    const std::ptrdiff_t found = row.find(u);
    if (found < 0)
        return std::nullopt;
    const auto i = static_cast<std::size_t>(found);
    switch (field) {
    case TrialStatistics::Count:
        return row.count[i];
    case TrialStatistics::Min:
        return row.min[i];
    case TrialStatistics::Max:
        return row.max[i];
    case TrialStatistics::Mean:
        return row.mean[i];
    case TrialStatistics::StdDev:
        return row.stddev(i);
    case TrialStatistics::Total:
        return row.count[i] * row.mean[i];
    case TrialStatistics::SumSquares:
        break;
    }
    return std::nullopt;
}

UserEventsModel::UserEventsModel(QObject* parent)
    : NodeTreeModel(parent)
    , m_locale(groupingLocale(QLocale()))
{
}

UserEventsModel::UserEventsModel(std::shared_ptr<const Trial> trial, RowMode mode, ThreadIndex thread, QObject* parent)
    : NodeTreeModel(parent)
    , m_mode(mode)
    , m_thread(thread)
    , m_locale(groupingLocale(QLocale()))
{
    setTrial(std::move(trial));
}

UserEventsModel::~UserEventsModel() = default;

void UserEventsModel::setTrial(std::shared_ptr<const Trial> trial)
{
    beginResetModel();
    m_trial = std::move(trial);
    m_stats = m_trial ? TrialStatistics::of(*m_trial) : nullptr;
    m_pooled = m_trial ? &m_trial->pooledAtomicCells() : nullptr;
    if (m_mode == RowMode::Thread && (!m_trial || !m_thread.isValid() || m_thread.index() >= m_trial->threadCount())) {
        m_mode = RowMode::MeanAll;
        m_thread = ThreadIndex();
    }
    rebuild();
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void UserEventsModel::setRowMode(RowMode mode, ThreadIndex thread)
{
    if (mode == RowMode::Thread && (!m_trial || !thread.isValid() || thread.index() >= m_trial->threadCount()))
        return;
    if (mode != RowMode::Thread)
        thread = ThreadIndex();
    if (mode == m_mode && thread == m_thread)
        return;
    if (mode == RowMode::Thread || m_mode == RowMode::Thread) {
        beginResetModel();
        m_mode = mode;
        m_thread = thread;
        rebuild();
        endResetModel();
    } else {
        m_mode = mode;
        m_thread = thread;
        chooseDecimals();
        emitAllDataChanged();
    }
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void UserEventsModel::setLocale(const QLocale& locale)
{
    beginResetModel();
    m_locale = groupingLocale(locale);
    endResetModel();
}

void UserEventsModel::rebuild()
{
    m_nodes.clear();
    m_shown.clear();
    clearNodes();
    if (!m_trial)
        return;
    const AtomicRow* row = m_mode == RowMode::Thread ? &m_trial->atomicRow(m_thread) : nullptr;
    // A thread shows only what was recorded on it: "no samples" is not a row of zeros.
    auto shown = [row](AtomicEventId u) { return !row || row->find(u) >= 0; };

    QHash<QString, std::size_t> byName;
    auto nodeFor = [&](const QString& name) -> Node& {
        const auto it = byName.constFind(name);
        if (it != byName.cend())
            return m_nodes[it.value()];
        byName.insert(name, m_nodes.size());
        m_nodes.push_back(Node { name, AtomicEventId(), {} });
        return m_nodes.back();
    };
    for (std::size_t i = 0; i < m_trial->atomicEventCount(); ++i) {
        const AtomicEventId u(i);
        if (!shown(u))
            continue;
        const AtomicEvent& event = m_trial->atomicEvent(u);
        Node& node = nodeFor(event.baseName);
        if (event.hasContext())
            node.contexts.push_back(u);
        else
            node.own = u;
    }
    // The rows: each name, its contexts below it (node numbers follow m_shown).
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        const int top = addNode(NoNode);
        m_shown.push_back(Shown { i, m_nodes[i].own, false });
        for (AtomicEventId context : m_nodes[i].contexts) {
            addNode(top);
            m_shown.push_back(Shown { i, context, true });
        }
    }
    chooseDecimals();
}

void UserEventsModel::chooseDecimals()
{
    m_decimals.fill(0);
    if (!m_trial)
        return;
    // One precision per column, from the values the column shows in this mode.
    for (int column = Count; column <= Total; ++column) {
        std::vector<double> values;
        values.reserve(m_shown.size());
        for (const Shown& shown : m_shown)
            if (shown.event.isValid())
                if (const std::optional<double> v = value(shown.event, column))
                    values.push_back(*v);
        m_decimals[static_cast<std::size_t>(column)] = plainColumnDecimals(values);
    }
}

std::size_t UserEventsModel::pooled(AtomicEventId u) const
{
    if (!m_pooled || m_pooled->empty() || !u.isValid())
        return 0;
    if (m_mode == RowMode::Thread)
        return m_pooled->records(m_thread, u);
    return m_pooled->cellsOf(u).size();
}

QString UserEventsModel::pooledText(AtomicEventId u) const
{
    const std::size_t n = pooled(u);
    if (n == 0)
        return {};
    // "⚠ ×3": three records on this thread; "⚠ on 4 threads": pooled somewhere on four threads.
    if (m_mode == RowMode::Thread)
        return QStringLiteral("\u26A0 \u00D7%1").arg(n);
    return QStringLiteral("\u26A0 ") + tr("on %1").arg(countText(n, tr("thread"), tr("threads")));
}

QString UserEventsModel::pooledToolTip(AtomicEventId u) const
{
    const std::size_t n = pooled(u);
    if (n == 0)
        return m_mode == RowMode::Thread ? tr("Read from one record on %1").arg(threadLabel(m_thread))
                                         : tr("Read from one record on every thread");
    const QString how = tr("The records were pooled into one: counts summed, the smallest of the records' "
                           "minima, the largest of their maxima, the count-weighted mean, the sums of squares "
                           "added (so the std. dev. is that of all their samples).");
    if (m_mode == RowMode::Thread)
        return tr("The profile holds %1 records of this user event on %2; the numbers of this row are "
                  "their pooled record.")
                   .arg(n)
                   .arg(threadLabel(m_thread))
            + QLatin1Char('\n') + how;
    const std::vector<PooledAtomicCell> cells = m_pooled->cellsOf(u);
    QStringList where;
    for (std::size_t i = 0; i < cells.size() && i < 8; ++i)
        where << tr("%1 records on %2").arg(cells[i].records).arg(threadLabel(cells[i].thread));
    if (cells.size() > 8)
        where << QStringLiteral("\u2026");
    return tr("On %1 of %2 threads the profile holds several records of this user event; the statistics "
              "of this row use their pooled record there (%3).")
               .arg(cells.size())
               .arg(m_trial->threadCount())
               .arg(where.join(QStringLiteral(", ")))
        + QLatin1Char('\n') + how;
}

QString UserEventsModel::rowModeName(RowMode mode)
{
    // The same names as the statistics table, except that a user event's total pools its samples.
    return mode == RowMode::Total ? tr("Total (all samples)") : StatisticsModel::rowModeName(mode);
}

int UserEventsModel::columnCount(const QModelIndex&) const { return ColumnCount; }

const UserEventsModel::Node& UserEventsModel::nodeOf(const QModelIndex& index) const
{
    return m_nodes[m_shown[static_cast<std::size_t>(nodeOfIndex(index))].name];
}

bool UserEventsModel::isContextRow(const QModelIndex& index) const
{
    return m_shown[static_cast<std::size_t>(nodeOfIndex(index))].context;
}

AtomicEventId UserEventsModel::eventOf(const QModelIndex& index) const
{
    return m_shown[static_cast<std::size_t>(nodeOfIndex(index))].event;
}

AtomicEventId UserEventsModel::atomicEventAt(const QModelIndex& index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || index.model() != this)
        return {};
    return eventOf(index);
}

QModelIndex UserEventsModel::indexOf(AtomicEventId event) const
{
    if (!m_trial || !event.isValid() || event.index() >= m_trial->atomicEventCount())
        return {};
    for (std::size_t n = 0; n < m_shown.size(); ++n)
        if (m_shown[n].event == event)
            return createNodeIndex(static_cast<int>(n));
    return {};
}

std::optional<double> UserEventsModel::value(AtomicEventId u, int column) const
{
    if (!m_trial || !u.isValid() || u.index() >= m_trial->atomicEventCount() || column <= Name || column >= Pooled)
        return std::nullopt;
    const Stat& count = m_stats->atomicStat(u, TrialStatistics::Count);
    if (column == ThreadsPresent)
        return static_cast<double>(count.present);

    if (m_mode == RowMode::Thread)
        return atomicThreadValue(*m_trial, m_thread, u, fieldOf(column));

    if (m_mode == RowMode::Total) {
        // All samples of all threads pooled into one record (docs/SEMANTICS.md 1.5).
        if (count.present == 0)
            return std::nullopt;
        const double n = count.total;
        const double sum = m_stats->atomicStat(u, TrialStatistics::Total).total;
        switch (column) {
        case Count:
            return n;
        case Min:
            return m_stats->atomicStat(u, TrialStatistics::Min).min;
        case Max:
            return m_stats->atomicStat(u, TrialStatistics::Max).max;
        case Mean:
            return n > 0 ? std::optional<double>(sum / n) : std::nullopt;
        case StdDev: {
            if (n <= 1)
                return 0.0;
            const double mean = sum / n;
            return std::sqrt(
                std::max(0.0, m_stats->atomicStat(u, TrialStatistics::SumSquares).total / n - mean * mean));
        }
        case Total:
            return sum;
        default:
            return std::nullopt;
        }
    }

    const Stat& s = m_stats->atomicStat(u, fieldOf(column));
    switch (m_mode) {
    case RowMode::MeanAll:
        return s.meanAll;
    case RowMode::MeanPresent:
        return s.present > 0 ? std::optional<double>(s.meanPresent) : std::nullopt;
    case RowMode::Min:
        return s.present > 0 ? std::optional<double>(s.min) : std::nullopt;
    case RowMode::Max:
        return s.present > 0 ? std::optional<double>(s.max) : std::nullopt;
    case RowMode::StdDevAll:
        return s.sdAll;
    case RowMode::StdDevPresent:
        return s.sdPresent;
    case RowMode::Total:
    case RowMode::Thread:
        break;
    }
    return std::nullopt;
}

QString UserEventsModel::number(double value, int column) const
{
    // One precision per column (chooseDecimals); the tooltip has the exact value.
    return formatFixed(value, columnDecimals(column), m_locale);
}

QString UserEventsModel::display(const QModelIndex& index) const
{
    const int column = index.column();
    const AtomicEventId u = eventOf(index);
    if (column == Name) {
        if (!isContextRow(index))
            return nodeOf(index).name;
        return m_trial->atomicEvent(u).context;
    }
    if (column == Pooled)
        return pooledText(u);
    const std::optional<double> v = value(u, column);
    if (!v)
        return {};
    if (column == ThreadsPresent)
        return threadsPresentText(*v, m_trial->threadCount(), m_locale);
    return number(*v, column);
}

QString UserEventsModel::threadLabel(ThreadIndex thread) const
{
    return tr("thread %1").arg(m_trial->threadKey(thread).toString());
}

QString UserEventsModel::modeDescription(std::size_t present) const
{
    return describeRowMode(m_mode, m_trial->threadCount(), present, tr("where it was recorded"),
        m_mode == RowMode::Thread ? threadLabel(m_thread) : QString(), true);
}

QString UserEventsModel::fieldName(int column) const
{
    switch (column) {
    case Count:
        return tr("number of samples");
    case Min:
        return tr("smallest sample");
    case Max:
        return tr("largest sample");
    case Mean:
        return tr("mean sample");
    case StdDev:
        return tr("std. dev. of the samples");
    case Total:
        return tr("sum of the samples (count × mean)");
    default:
        return {};
    }
}

QString UserEventsModel::nameToolTip(const QModelIndex& index) const
{
    const Node& node = nodeOf(index);
    const AtomicEventId u = eventOf(index);
    if (isContextRow(index)) {
        const AtomicEvent& event = m_trial->atomicEvent(u);
        QString tip = event.name + QLatin1Char('\n')
            + tr("Context event: \"%1\" recorded in %2").arg(event.baseName, event.context);
        if (!event.rawName.isEmpty() && event.rawName != event.name)
            tip += QLatin1Char('\n') + tr("As written in the profile: \"%1\"").arg(event.rawName);
        return tip;
    }
    QString tip = node.name;
    if (!u.isValid()) {
        tip += QLatin1Char('\n')
            + (m_mode == RowMode::Thread
                    ? tr("No record without a context on %1; its context events are below").arg(threadLabel(m_thread))
                    : tr("Recorded only with a context; its context events are below"));
    } else {
        const AtomicEvent& event = m_trial->atomicEvent(u);
        if (!event.rawName.isEmpty() && event.rawName != event.name)
            tip += QLatin1Char('\n') + tr("As written in the profile: \"%1\"").arg(event.rawName);
    }
    if (!node.contexts.empty())
        tip += QLatin1Char('\n') + tr("%n context event(s) below", nullptr, static_cast<int>(node.contexts.size()));
    return tip;
}

QString UserEventsModel::valueToolTip(AtomicEventId u, int column) const
{
    if (column == Pooled)
        return pooledToolTip(u);
    const Stat& count = m_stats->atomicStat(u, TrialStatistics::Count);
    const std::size_t threads = m_trial->threadCount();
    if (column == ThreadsPresent)
        return tr("Recorded on %1 of %2 threads").arg(count.present).arg(threads);
    const std::optional<double> v = value(u, column);

    if (m_mode == RowMode::Thread) {
        const QString thread = threadLabel(m_thread);
        const AtomicRow& row = m_trial->atomicRow(m_thread);
        const std::ptrdiff_t found = row.find(u);
        if (found < 0 || !v)
            return tr("Not recorded on %1").arg(thread);
        const auto i = static_cast<std::size_t>(found);
        switch (column) {
        case Count:
            return tr("%1 samples on %2").arg(rawNumber(*v), thread);
        case Min:
            return tr("Smallest sample on %1: %2").arg(thread, rawNumber(*v));
        case Max:
            return tr("Largest sample on %1: %2").arg(thread, rawNumber(*v));
        case Mean:
            return tr("Mean of the %1 samples on %2: %3").arg(rawNumber(row.count[i]), thread, rawNumber(*v));
        case StdDev:
            if (row.count[i] <= 1)
                return tr("Population std. dev. of the samples on %1: 0 (fewer than two samples)").arg(thread);
            return tr("Population std. dev. of the %1 samples on %2: sqrt(sumsqr / n − mean²) = "
                      "sqrt(%3 / %1 − %4²) = %5")
                .arg(rawNumber(row.count[i]), thread, rawNumber(row.sumSquares[i]), rawNumber(row.mean[i]),
                    rawNumber(*v));
        case Total:
            return tr("Sum of the samples on %1: count × mean = %2 × %3 = %4")
                .arg(thread, rawNumber(row.count[i]), rawNumber(row.mean[i]), rawNumber(*v));
        default:
            return {};
        }
    }

    if (!v)
        return tr("Not recorded on any thread");

    if (m_mode == RowMode::Total) {
        const QString all = modeDescription(count.present);
        const double sum = m_stats->atomicStat(u, TrialStatistics::Total).total;
        switch (column) {
        case Count:
            return tr("%1, pooled: Σ count = %2").arg(all, rawNumber(*v));
        case Min: {
            const Stat& s = m_stats->atomicStat(u, TrialStatistics::Min);
            return tr("Smallest sample on any thread: %1 (on %2)").arg(rawNumber(*v), threadLabel(s.minThread));
        }
        case Max: {
            const Stat& s = m_stats->atomicStat(u, TrialStatistics::Max);
            return tr("Largest sample on any thread: %1 (on %2)").arg(rawNumber(*v), threadLabel(s.maxThread));
        }
        case Mean:
            return tr("%1, pooled: Σ (count × mean) / Σ count = %2 / %3 = %4")
                .arg(all, rawNumber(sum), rawNumber(count.total), rawNumber(*v));
        case StdDev:
            return tr("%1, pooled: sqrt(Σ sumsqr / Σ count − mean²) = sqrt(%2 / %3 − %4²) = %5")
                .arg(all, rawNumber(m_stats->atomicStat(u, TrialStatistics::SumSquares).total), rawNumber(count.total),
                    rawNumber(count.total > 0 ? sum / count.total : 0), rawNumber(*v));
        case Total:
            return tr("%1: Σ (count × mean) = %2").arg(all, rawNumber(*v));
        default:
            return {};
        }
    }

    const Stat& s = m_stats->atomicStat(u, fieldOf(column));
    QString tip = tr("%1 of the per-thread %2: %3").arg(modeDescription(s.present), fieldName(column), rawNumber(*v));
    if (m_mode == RowMode::MeanAll)
        tip += QLatin1Char('\n') + tr("= total %1 / %2").arg(rawNumber(s.total)).arg(threads);
    else if (m_mode == RowMode::MeanPresent)
        tip += QLatin1Char('\n') + tr("= total %1 / %2").arg(rawNumber(s.total)).arg(s.present);
    else if (m_mode == RowMode::Min && s.minThread.isValid())
        tip += QLatin1Char('\n') + tr("on %1").arg(threadLabel(s.minThread));
    else if (m_mode == RowMode::Max && s.maxThread.isValid())
        tip += QLatin1Char('\n') + tr("on %1").arg(threadLabel(s.maxThread));
    return tip;
}

QString UserEventsModel::toolTip(const QModelIndex& index) const
{
    if (index.column() == Name)
        return nameToolTip(index);
    const AtomicEventId u = eventOf(index);
    if (!u.isValid())
        return m_mode == RowMode::Thread
            ? tr("No record without a context on %1: see the context events below").arg(threadLabel(m_thread))
            : tr("No record without a context: this name occurs only with a context (see the rows below)");
    return valueToolTip(u, index.column());
}

QVariant UserEventsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_trial)
        return {};
    const int column = index.column();
    const AtomicEventId u = eventOf(index);
    switch (role) {
    case Qt::DisplayRole:
        return display(index);
    case SortRole: {
        if (column == Name)
            return display(index);
        if (column == Pooled)
            return static_cast<double>(pooled(u));
        const std::optional<double> v = value(u, column);
        return v ? *v : blankSortValue;
    }
    case Qt::ToolTipRole:
        return toolTip(index);
    case Qt::TextAlignmentRole:
        return column == Name ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                              : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        // Synthetic parents are grey, like synthetic call-tree nodes.
        if (!u.isValid())
            return QBrush(QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text));
        return {};
    case Qt::FontRole:
        if (!u.isValid() && column == Name) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case AtomicEventRole:
        return u.isValid() ? QVariant(u.index()) : QVariant();
    case FullNameRole:
        return u.isValid() ? m_trial->atomicEvent(u).name : nodeOf(index).name;
    default:
        return {};
    }
}

QVariant UserEventsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Name:
            return tr("Name");
        case Count:
            return tr("Count");
        case Min:
            return tr("Min");
        case Max:
            return tr("Max");
        case Mean:
            return tr("Mean");
        case StdDev:
            return tr("Std. Dev.");
        case Total:
            return tr("Total");
        case ThreadsPresent:
            return tr("Threads");
        case Pooled:
            return tr("Pooled");
        }
    }
    if (role == Qt::TextAlignmentRole)
        return section == Name ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                               : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        if (section == Name)
            return tr("User event; context events (\"name : path\") are nested under their name and show the path");
        if (section == ThreadsPresent)
            return tr("Threads on which the user event was recorded, of all threads");
        if (section == Pooled)
            return tr("\u26A0 where the profile holds several records of the user event on one thread and "
                      "the numbers come from their pooled record: \u00D7N records on a thread, or on how "
                      "many threads that happened");
        const QString field = fieldName(section);
        if (m_mode == RowMode::Thread && m_trial && m_thread.isValid())
            return tr("The %1 on %2").arg(field, threadLabel(m_thread));
        if (m_mode == RowMode::Total)
            return tr("The %1, with the samples of all threads pooled into one record").arg(field);
        return tr("%1 of the per-thread %2").arg(rowModeName(m_mode), field);
    }
    return {};
}

} // namespace parallax
