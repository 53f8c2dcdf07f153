// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/userevents/trialmanagermodel.h"

#include <QCoreApplication>
#include <QDataStream>
#include <QIODevice>
#include <QLocale>
#include <QMimeData>
#include <algorithm>

namespace parallax {

TrialManagerModel::TrialManagerModel(QObject* parent)
    : QAbstractItemModel(parent)
{
    m_groups.push_back(Group { m_nextGroup++, tr("Files"), tr("Trials opened from files and directories"), {} });
}

TrialManagerModel::~TrialManagerModel() = default;

int TrialManagerModel::addGroup(const QString& name, const QString& toolTip)
{
    const int row = static_cast<int>(m_groups.size());
    beginInsertRows(QModelIndex(), row, row);
    m_groups.push_back(Group { m_nextGroup++, name, toolTip, {} });
    endInsertRows();
    return m_groups.back().id;
}

int TrialManagerModel::addTrial(std::shared_ptr<const Trial> trial, int group)
{
    const int gRow = groupRow(group);
    if (!trial || gRow < 0)
        return -1;
    Group& g = m_groups[static_cast<std::size_t>(gRow)];
    const int id = m_nextTrial++;
    const int row = static_cast<int>(g.trials.size());
    beginInsertRows(index(gRow, 0), row, row);
    m_trials.emplace(id, Entry { std::move(trial), group });
    g.trials.push_back(id);
    endInsertRows();
    return id;
}

bool TrialManagerModel::removeTrial(int id)
{
    const auto it = m_trials.find(id);
    if (it == m_trials.end())
        return false;
    const int gRow = groupRow(it->second.group);
    Group& g = m_groups[static_cast<std::size_t>(gRow)];
    const int row = trialRow(id);
    beginRemoveRows(index(gRow, 0), row, row);
    g.trials.erase(g.trials.begin() + row);
    m_trials.erase(it);
    endRemoveRows();
    return true;
}

std::shared_ptr<const Trial> TrialManagerModel::trial(int id) const
{
    const auto it = m_trials.find(id);
    return it == m_trials.end() ? nullptr : it->second.trial;
}

std::vector<int> TrialManagerModel::trialIds() const
{
    std::vector<int> ids;
    for (const Group& g : m_groups)
        ids.insert(ids.end(), g.trials.begin(), g.trials.end());
    return ids;
}

int TrialManagerModel::groupRow(int group) const
{
    for (std::size_t i = 0; i < m_groups.size(); ++i)
        if (m_groups[i].id == group)
            return static_cast<int>(i);
    return -1;
}

int TrialManagerModel::trialRow(int id) const
{
    const auto it = m_trials.find(id);
    if (it == m_trials.end())
        return -1;
    const std::vector<int>& trials = m_groups[static_cast<std::size_t>(groupRow(it->second.group))].trials;
    const auto pos = std::find(trials.begin(), trials.end(), id);
    return pos == trials.end() ? -1 : static_cast<int>(pos - trials.begin());
}

int TrialManagerModel::trialIdForIndex(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this || kindOf(index) == GroupKind)
        return -1;
    return idOf(index);
}

std::shared_ptr<const Trial> TrialManagerModel::trialForIndex(const QModelIndex& index) const
{
    const int id = trialIdForIndex(index);
    return id < 0 ? nullptr : trial(id);
}

MetricId TrialManagerModel::metricForIndex(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this || kindOf(index) != MetricKind)
        return {};
    return MetricId(static_cast<std::uint32_t>(index.row()));
}

QModelIndex TrialManagerModel::indexForGroup(int group) const
{
    const int row = groupRow(group);
    return row < 0 ? QModelIndex() : createIndex(row, 0, makeId(GroupKind, group));
}

QModelIndex TrialManagerModel::indexForTrial(int id) const
{
    const int row = trialRow(id);
    return row < 0 ? QModelIndex() : createIndex(row, 0, makeId(TrialKind, id));
}

QModelIndex TrialManagerModel::indexForMetric(int id, MetricId metric) const
{
    const auto t = trial(id);
    if (!t || !metric.isValid() || metric.index() >= t->metricCount())
        return {};
    return createIndex(static_cast<int>(metric.index()), 0, makeId(MetricKind, id));
}

QModelIndex TrialManagerModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, makeId(GroupKind, m_groups[static_cast<std::size_t>(row)].id));
    switch (kindOf(parent)) {
    case GroupKind: {
        const Group& g = m_groups[static_cast<std::size_t>(groupRow(idOf(parent)))];
        return createIndex(row, column, makeId(TrialKind, g.trials[static_cast<std::size_t>(row)]));
    }
    case TrialKind:
        return createIndex(row, column, makeId(MetricKind, idOf(parent)));
    case MetricKind:
        break;
    }
    return {};
}

QModelIndex TrialManagerModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    switch (kindOf(child)) {
    case GroupKind:
        return {};
    case TrialKind: {
        const auto it = m_trials.find(idOf(child));
        return it == m_trials.end() ? QModelIndex() : indexForGroup(it->second.group);
    }
    case MetricKind:
        return indexForTrial(idOf(child));
    }
    return {};
}

int TrialManagerModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_groups.size());
    if (parent.column() != 0)
        return 0;
    switch (kindOf(parent)) {
    case GroupKind: {
        const int row = groupRow(idOf(parent));
        return row < 0 ? 0 : static_cast<int>(m_groups[static_cast<std::size_t>(row)].trials.size());
    }
    case TrialKind: {
        const auto t = trial(idOf(parent));
        return t ? static_cast<int>(t->metricCount()) : 0;
    }
    case MetricKind:
        return 0;
    }
    return 0;
}

int TrialManagerModel::columnCount(const QModelIndex&) const { return 1; }

QString TrialManagerModel::trialToolTip(const Trial& trial) const
{
    const Provenance& p = trial.provenance();
    QStringList lines;
    lines.append(trial.name());
    if (!p.source.isEmpty())
        lines.append(tr("Source: %1").arg(p.source));
    if (!p.reader.isEmpty())
        lines.append(tr("Format: %1").arg(p.reader));
    if (trial.isDerived() && !p.operation.isEmpty())
        lines.append(tr("Derived: %1 of %2").arg(p.operation, p.operands.join(QLatin1String(", "))));
    const QLocale locale;
    lines.append(tr("%1 threads on %2 nodes, %3 metrics, %4 events, %5 user events")
                     .arg(locale.toString(static_cast<qulonglong>(trial.threadCount())),
                         locale.toString(static_cast<qulonglong>(trial.nodeCount())),
                         locale.toString(static_cast<qulonglong>(trial.metricCount())),
                         locale.toString(static_cast<qulonglong>(trial.eventCount())),
                         locale.toString(static_cast<qulonglong>(trial.atomicEventCount()))));
    if (!trial.warnings().isEmpty())
        lines.append(tr("%n reader warning(s)", nullptr, static_cast<int>(trial.warnings().size())));
    return lines.join(QLatin1Char('\n'));
}

QVariant TrialManagerModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Kind kind = kindOf(index);
    if (role == KindRole)
        return static_cast<int>(kind);
    if (role == TrialRole)
        return kind == GroupKind ? -1 : idOf(index);
    if (role == MetricRole)
        return kind == MetricKind ? index.row() : -1;
    if (kind == GroupKind) {
        const Group& g = m_groups[static_cast<std::size_t>(index.row())];
        if (role == Qt::DisplayRole)
            return g.name;
        if (role == Qt::ToolTipRole)
            return g.toolTip.isEmpty() ? g.name : g.toolTip;
        return {};
    }
    const auto t = trial(idOf(index));
    if (!t)
        return {};
    if (kind == TrialKind) {
        if (role == Qt::DisplayRole)
            return t->name();
        if (role == Qt::ToolTipRole)
            return trialToolTip(*t);
        return {};
    }
    const Metric& metric = t->metric(MetricId(static_cast<std::uint32_t>(index.row())));
    if (role == Qt::DisplayRole)
        return metric.name;
    if (role == Qt::ToolTipRole) {
        QString tip = tr("Metric %1 of %2").arg(metric.name, t->name());
        if (!metric.unit.isEmpty())
            tip += QLatin1Char('\n') + tr("Unit: %1").arg(metric.unit);
        if (metric.derived)
            tip += QLatin1Char('\n') + tr("Derived: %1").arg(metric.expression);
        return tip;
    }
    return {};
}

QVariant TrialManagerModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && section == 0 && role == Qt::DisplayRole)
        return tr("Trials");
    return {};
}

Qt::ItemFlags TrialManagerModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractItemModel::flags(index);
    if (index.isValid() && kindOf(index) != GroupKind)
        f |= Qt::ItemIsDragEnabled;
    return f;
}

QStringList TrialManagerModel::mimeTypes() const { return { TrialMimeType, QStringLiteral("text/plain") }; }

Qt::DropActions TrialManagerModel::supportedDragActions() const { return Qt::CopyAction; }

QMimeData* TrialManagerModel::mimeData(const QModelIndexList& indexes) const
{
    std::vector<int> ids;
    for (const QModelIndex& index : indexes) {
        const int id = trialIdForIndex(index);
        if (id >= 0 && std::find(ids.begin(), ids.end(), id) == ids.end())
            ids.push_back(id);
    }
    if (ids.empty())
        return nullptr;
    // Ids mean something only to this model: the payload says whose they are.
    QByteArray payload;
    QDataStream out(&payload, QIODevice::WriteOnly);
    out << static_cast<qint64>(QCoreApplication::applicationPid())
        << static_cast<quint64>(reinterpret_cast<quintptr>(this)) << static_cast<quint32>(ids.size());
    QStringList names;
    for (int id : ids) {
        out << static_cast<qint32>(id);
        names.append(trial(id)->name());
    }
    auto* data = new QMimeData;
    data->setData(TrialMimeType, payload);
    data->setText(names.join(QLatin1Char('\n')));
    return data;
}

std::vector<int> TrialManagerModel::trialIdsFromMimeData(const QMimeData* data) const
{
    if (!data || !data->hasFormat(TrialMimeType))
        return {};
    const QByteArray payload = data->data(TrialMimeType);
    QDataStream in(payload);
    qint64 pid = 0;
    quint64 model = 0;
    quint32 count = 0;
    in >> pid >> model >> count;
    if (in.status() != QDataStream::Ok || pid != QCoreApplication::applicationPid()
        || model != static_cast<quint64>(reinterpret_cast<quintptr>(this)))
        return {};
    std::vector<int> ids;
    for (quint32 i = 0; i < count && in.status() == QDataStream::Ok; ++i) {
        qint32 id = -1;
        in >> id;
        // A trial closed since the drag started finds nothing.
        if (in.status() == QDataStream::Ok && trial(id) && std::find(ids.begin(), ids.end(), id) == ids.end())
            ids.push_back(id);
    }
    return ids;
}

} // namespace parallax
