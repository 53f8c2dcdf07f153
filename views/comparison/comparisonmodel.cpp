// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/comparison/comparisonmodel.h"

#include "views/comparison/comparisonformat.h"

#include <QBrush>
#include <QFont>
#include <algorithm>
#include <cmath>
#include <limits>

namespace parallax {

namespace {

constexpr double blankSortValue = -std::numeric_limits<double>::infinity();

const ComparisonEntry& emptyEntry()
{
    static const ComparisonEntry entry;
    return entry;
}

bool isNumeric(int column) { return column != ComparisonModel::Name && column != ComparisonModel::Marker; }

// The value columns run ValueA..DeltaPercent in ComparePart's order.
static_assert(ComparisonModel::DeltaPercent - ComparisonModel::ValueA == static_cast<int>(ComparePart::DeltaPercent));

} // namespace

ComparisonModel::ComparisonModel(QObject* parent)
    : QAbstractTableModel(parent)
    , m_locale(groupingLocale())
{
}

template <typename Change> void ComparisonModel::resetRows(Change change, bool header)
{
    beginResetModel();
    change();
    rebuild();
    m_decimals.clear();
    endResetModel();
    if (header)
        Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void ComparisonModel::setSnapshot(std::shared_ptr<const ComparisonSnapshot> snapshot)
{
    resetRows(
        [&] {
            m_snapshot = std::move(snapshot);
            m_values.reset();
        },
        true);
}

void ComparisonModel::setValues(std::shared_ptr<const ComparisonValues> values)
{
    resetRows([&] { m_values = std::move(values); }, true);
}

void ComparisonModel::setValue(CompareValue value)
{
    if (value != m_value)
        resetRows([&] { m_value = value; }, true);
}

void ComparisonModel::setIncludeCallPaths(bool include)
{
    if (include != m_includeCallPaths)
        resetRows([&] { m_includeCallPaths = include; }, false);
}

void ComparisonModel::setMinimumDifference(double threshold, bool percent)
{
    threshold = std::max(0.0, threshold);
    if (threshold == m_threshold && percent == m_percent)
        return;
    resetRows(
        [&] {
            m_threshold = threshold;
            m_percent = percent;
        },
        false);
}

void ComparisonModel::setTimeUnit(TimeUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    m_decimals.clear();
    emitCellsChanged(this, true);
}

void ComparisonModel::setLocale(const QLocale& locale)
{
    m_locale = groupingLocale(locale);
    emitCellsChanged(this);
}

int ComparisonModel::decimalsOf(int column) const
{
    const Metric* m = metric();
    if (!m || !m_values || column < ValueA || column > Delta)
        return -1;
    return m_decimals.of(column, [&] {
        std::vector<const ComparisonEntry*> entries;
        entries.reserve(m_rows.size());
        for (int k : m_rows)
            entries.push_back(&m_values->entries[static_cast<std::size_t>(k)]);
        return comparePartDecimals(entries, static_cast<ComparePart>(column - ValueA), *m, m_value, m_unit);
    });
}

int ComparisonModel::rowOf(int event) const
{
    const auto it = std::find(m_rows.begin(), m_rows.end(), event);
    return it == m_rows.end() ? -1 : static_cast<int>(it - m_rows.begin());
}

const ComparisonEntry& ComparisonModel::entryAt(int row) const
{
    if (!m_values || row < 0 || static_cast<std::size_t>(row) >= m_rows.size())
        return emptyEntry();
    return m_values->entries[static_cast<std::size_t>(m_rows[static_cast<std::size_t>(row)])];
}

const Metric* ComparisonModel::metric() const
{
    if (!m_snapshot || !m_values || m_snapshot->metrics.empty())
        return nullptr;
    const auto m = static_cast<std::size_t>(
        std::clamp(m_values->query.metric, 0, static_cast<int>(m_snapshot->metrics.size()) - 1));
    return &m_snapshot->metrics[m].metric;
}

void ComparisonModel::setColourBy(ColourBy by)
{
    if (by == m_colourBy)
        return;
    m_colourBy = by;
    if (rowCount() > 0)
        Q_EMIT dataChanged(
            index(0, Delta), index(rowCount() - 1, DeltaPercent), { Qt::BackgroundRole, Qt::ForegroundRole });
}

void ComparisonModel::rebuild()
{
    m_rows.clear();
    m_maxValue = 0;
    m_maxDelta = 0;
    m_unfiltered = 0;
    if (!m_snapshot || !m_values || m_values->entries.size() != m_snapshot->events.size())
        return;
    for (std::size_t k = 0; k < m_snapshot->events.size(); ++k) {
        const ComparisonEvent& event = m_snapshot->events[k];
        const ComparisonEntry& entry = m_values->entries[k];
        if (event.isCallPath() && !m_includeCallPaths)
            continue;
        if (!entry.inA && !entry.inB)
            continue; // ran in neither (on this thread)
        ++m_unfiltered;
        if (m_threshold > 0) {
            const double magnitude
                = m_percent ? std::fabs(entry.relative(m_value).percent) : std::fabs(entry.delta(m_value));
            if (!(magnitude >= m_threshold))
                continue;
        }
        m_rows.push_back(static_cast<int>(k));
        m_maxValue = std::max({ m_maxValue, entry.valueA(m_value), entry.valueB(m_value) });
        m_maxDelta = std::max(m_maxDelta, std::fabs(entry.delta(m_value)));
    }
}

int ComparisonModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    const Metric* m = metric();
    const QString unit = m ? compareUnit(*m, m_value, m_unit) : QString();
    const QString suffix = unitSuffix(unit);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Name:
            return tr("Event");
        case Marker:
            return tr("In");
        case ValueA:
        case ValueB:
        case Delta:
        case DeltaPercent:
            return comparePartHeader(static_cast<ComparePart>(section - ValueA), suffix);
        case Bars:
            return tr("A and B");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        const QString a = m_snapshot && m_snapshot->a ? m_snapshot->a->name() : QString();
        const QString b = m_snapshot && m_snapshot->b ? m_snapshot->b->name() : QString();
        switch (section) {
        case Name:
            return tr("The event (matched across the runs by the match policy)");
        case Marker:
            return tr("Where the event ran: ◀ only in A (the baseline), ▶ only in B (the candidate), blank: both");
        case ValueA:
            return tr("The baseline A: %1").arg(a);
        case ValueB:
            return tr("The candidate B: %1").arg(b);
        case Delta:
            return m ? tr("Δ = A − B. Positive: %1; negative: %2").arg(deltaMeaning(*m, true), deltaMeaning(*m, false))
                     : QString();
        case DeltaPercent:
            return m ? tr("Δ% = 100·(A − B)/A: the change relative to the baseline A. Positive: %1; negative: %2. "
                          "\"new\" when A is 0, \"removed\" when B is 0. The cell colour's intensity is |Δ%|.")
                           .arg(deltaMeaning(*m, true), deltaMeaning(*m, false))
                     : QString();
        case Bars:
            return tr("A (grey, top) and B (orange, bottom) on one scale");
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(
            Qt::Alignment(isNumeric(section) ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter));
    return {};
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || !m_snapshot || !m_values)
        return {};
    const int row = index.row();
    const int column = index.column();
    const int k = m_rows[static_cast<std::size_t>(row)];
    const ComparisonEvent& event = m_snapshot->events[static_cast<std::size_t>(k)];
    const ComparisonEntry& entry = m_values->entries[static_cast<std::size_t>(k)];
    const Metric* m = metric();
    const double a = entry.valueA(m_value);
    const double b = entry.valueB(m_value);
    const double delta = entry.delta(m_value);
    const RelativeDifference relative = entry.relative(m_value);
    const double sign = improvementSign(m && m->higherIsBetter);

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Name:
            return event.name;
        case Marker:
            return presenceText(entry.inA, entry.inB);
        case ValueA:
        case ValueB:
        case Delta:
        case DeltaPercent:
            if (m)
                return comparePartText(entry, static_cast<ComparePart>(column - ValueA), *m, m_value, m_unit, m_locale,
                    decimalsOf(column));
            return column == DeltaPercent ? relative.text(m_locale) : column == Delta ? QString() : QStringLiteral("—");
        default:
            return {};
        }
    case SortRole:
    case MagnitudeRole: {
        const bool magnitude = role == MagnitudeRole;
        switch (column) {
        case Name:
            return event.name;
        case Marker:
            return static_cast<int>(entry.inA) * 2 + static_cast<int>(entry.inB);
        case ValueA:
            return entry.inA ? a : blankSortValue;
        case ValueB:
            return entry.inB ? b : blankSortValue;
        case Delta:
            return magnitude ? std::fabs(delta) : delta;
        case DeltaPercent:
            if (relative.kind == RelativeDifference::Blank)
                return magnitude ? 0.0 : blankSortValue;
            return magnitude ? std::fabs(relative.percent) : relative.percent;
        case Bars:
            return std::max(a, b);
        default:
            return {};
        }
    }
    case EventRole:
        return k;
    case BarARole:
        if (!entry.inA || m_maxValue <= 0)
            return {};
        return std::clamp(a / m_maxValue, 0.0, 1.0);
    case BarBRole:
        if (!entry.inB || m_maxValue <= 0)
            return {};
        return std::clamp(b / m_maxValue, 0.0, 1.0);
    case ChangeRole:
        return m_maxDelta > 0 ? sign * delta / m_maxDelta : 0.0;
    case Qt::BackgroundRole:
        // Intensity by Δ% (issue 14: a large relative change is deep whatever its absolute size) or
        // by Δ over the largest |Δ| shown, as the user chose.
        if ((column == Delta || column == DeltaPercent) && delta != 0)
            return QBrush(changeTint(tintChange(entry, m_value, sign, m_colourBy, m_maxDelta)));
        return {};
    case Qt::ForegroundRole:
        if (column == Marker)
            return QBrush(entry.inA ? regressionColor().darker(110) : improvementColor());
        if ((column == Delta || column == DeltaPercent) && delta != 0)
            return QBrush(tintedTextColor(changeTint(tintChange(entry, m_value, sign, m_colourBy, m_maxDelta))));
        return {};
    case Qt::FontRole:
        if (column == Marker && entry.inA != entry.inB)
            return boldFont();
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(
            Qt::Alignment(isNumeric(column) ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter));
    case Qt::ToolTipRole:
        return toolTip(row, column);
    default:
        return {};
    }
}

QString ComparisonModel::sourceText(bool baseline) const
{
    if (!m_snapshot || !m_values)
        return {};
    const Trial& trial = baseline ? *m_snapshot->a : *m_snapshot->b;
    const QString name = (baseline ? tr("A (baseline) ") : tr("B (candidate) ")) + trial.name();
    const qulonglong threads = trial.threadCount();
    switch (m_values->query.source) {
    case CompareSource::Mean:
        return tr("mean over the %1 threads of %2 (absent = 0)").arg(threads).arg(name);
    case CompareSource::Total:
        return tr("total over the %1 threads of %2").arg(threads).arg(name);
    case CompareSource::Thread: {
        const auto t = static_cast<std::size_t>(m_values->query.thread);
        const QString key = t < m_snapshot->threads.size() ? m_snapshot->threads[t].toString() : QString();
        return tr("thread %1 of %2").arg(key, name);
    }
    }
    return {};
}

QString ComparisonModel::toolTip(int row, int column) const
{
    const int k = m_rows[static_cast<std::size_t>(row)];
    const ComparisonEvent& event = m_snapshot->events[static_cast<std::size_t>(k)];
    const ComparisonEntry& entry = m_values->entries[static_cast<std::size_t>(k)];
    const Metric* m = metric();
    if (!m)
        return event.name;
    QString what = compareValueName(m_value);
    if (m_value != CompareValue::Calls)
        what += QLatin1Char(' ') + m->name;
    const double a = entry.valueA(m_value);
    const double b = entry.valueB(m_value);
    const double delta = entry.delta(m_value);
    auto text = [&](double v) { return compareText(v, *m, m_value, m_unit, m_locale); };
    switch (column) {
    case Name:
    case Marker: {
        QString tip = event.name;
        if (entry.inA && !entry.inB)
            tip += QLatin1Char('\n') + tr("◀ Ran only in A (the baseline): removed in B");
        else if (entry.inB && !entry.inA)
            tip += QLatin1Char('\n') + tr("▶ Ran only in B (the candidate): new in B");
        else
            tip += QLatin1Char('\n') + tr("Ran in both runs");
        if (event.inA.size() > 1 || event.inB.size() > 1)
            tip += QLatin1Char('\n') + tr("Several events of one run match this name; their values are summed");
        return tip;
    }
    case ValueA:
        return entry.inA ? tr("%1 of %2,\n%3: %4").arg(what, event.name, sourceText(true), text(a))
                         : tr("%1 did not run in A (shown as —, counted as 0 in Δ)").arg(event.name);
    case ValueB:
        return entry.inB ? tr("%1 of %2,\n%3: %4").arg(what, event.name, sourceText(false), text(b))
                         : tr("%1 did not run in B (shown as —, counted as 0 in Δ)").arg(event.name);
    case Delta:
    case Bars: {
        QString tip
            = tr("%1 of %2\nA = %3\nB = %4\nΔ = A − B = %5")
                  .arg(what, event.name, text(a), text(b), compareText(delta, *m, m_value, m_unit, m_locale, true));
        if (delta != 0)
            tip += QLatin1Char('\n') + deltaMeaning(*m, delta > 0);
        return tip;
    }
    case DeltaPercent: {
        const RelativeDifference r = entry.relative(m_value);
        switch (r.kind) {
        case RelativeDifference::Value:
            return tr("Δ% = 100·(A − B)/A = 100·(%1 − %2)/%1 = %3\n%4")
                .arg(text(a), text(b), r.text(m_locale), delta != 0 ? deltaMeaning(*m, delta > 0) : tr("no change"));
        case RelativeDifference::New:
            return tr("A is 0 and B is not: new in B (%1)").arg(text(b));
        case RelativeDifference::Removed:
            return tr("B is 0: removed in B (Δ% = 100 %)");
        case RelativeDifference::Blank:
            return tr("Both are 0");
        }
        return {};
    }
    default:
        return {};
    }
}

} // namespace parallax
