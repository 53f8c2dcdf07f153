// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/userevents/trialmanagermodel.h"

#include "algebra/units.h"

#include <QCoreApplication>
#include <QDataStream>
#include <QIODevice>
#include <QLocale>
#include <QMimeData>
#include <algorithm>

namespace parallax {

TrialManagerModel::TrialManagerModel(QObject* parent)
    : NodeTreeModel(parent)
{
    const int id = m_nextGroup++;
    m_groups.push_back(
        Group { id, tr("Files"), tr("Trials opened from files and directories"), addRow(GroupKind, id, NoNode) });
}

TrialManagerModel::~TrialManagerModel() = default;

int TrialManagerModel::addRow(Kind kind, int id, int parent)
{
    const int node = addNode(parent);
    m_rows.push_back(Row { kind, id });
    return node;
}

const TrialManagerModel::Row* TrialManagerModel::rowAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this)
        return nullptr;
    return &m_rows[static_cast<std::size_t>(nodeOfIndex(index))];
}

int TrialManagerModel::addGroup(const QString& name, const QString& toolTip)
{
    const int row = static_cast<int>(m_groups.size());
    beginInsertRows(QModelIndex(), row, row);
    const int id = m_nextGroup++;
    m_groups.push_back(Group { id, name, toolTip, addRow(GroupKind, id, NoNode) });
    endInsertRows();
    return id;
}

int TrialManagerModel::addTrial(std::shared_ptr<const Trial> trial, int group)
{
    const int gRow = groupRow(group);
    if (!trial || gRow < 0)
        return -1;
    const int groupNode = m_groups[static_cast<std::size_t>(gRow)].node;
    const int id = m_nextTrial++;
    const int row = static_cast<int>(childNodes(groupNode)->size());
    beginInsertRows(index(gRow, 0), row, row);
    const int node = addRow(TrialKind, id, groupNode);
    for (std::size_t m = 0; m < trial->metricCount(); ++m)
        addRow(MetricKind, id, node);
    m_trials.emplace(id, Entry { std::move(trial), group, node });
    endInsertRows();
    return id;
}

bool TrialManagerModel::removeTrial(int id)
{
    const auto it = m_trials.find(id);
    if (it == m_trials.end())
        return false;
    const int node = it->second.node;
    const int row = rowOfNode(node);
    beginRemoveRows(createNodeIndex(parentNode(node)), row, row);
    removeNode(node);
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
        for (int node : *childNodes(g.node))
            ids.push_back(m_rows[static_cast<std::size_t>(node)].id);
    return ids;
}

int TrialManagerModel::groupRow(int group) const
{
    for (std::size_t i = 0; i < m_groups.size(); ++i)
        if (m_groups[i].id == group)
            return static_cast<int>(i);
    return -1;
}

int TrialManagerModel::trialIdForIndex(const QModelIndex& index) const
{
    const Row* row = rowAt(index);
    return !row || row->kind == GroupKind ? -1 : row->id;
}

std::shared_ptr<const Trial> TrialManagerModel::trialForIndex(const QModelIndex& index) const
{
    const int id = trialIdForIndex(index);
    return id < 0 ? nullptr : trial(id);
}

MetricId TrialManagerModel::metricForIndex(const QModelIndex& index) const
{
    const Row* row = rowAt(index);
    if (!row || row->kind != MetricKind)
        return {};
    return MetricId(static_cast<std::uint32_t>(index.row()));
}

QModelIndex TrialManagerModel::indexForGroup(int group) const
{
    const int row = groupRow(group);
    return row < 0 ? QModelIndex() : createNodeIndex(m_groups[static_cast<std::size_t>(row)].node);
}

QModelIndex TrialManagerModel::indexForTrial(int id) const
{
    const auto it = m_trials.find(id);
    return it == m_trials.end() ? QModelIndex() : createNodeIndex(it->second.node);
}

QModelIndex TrialManagerModel::indexForMetric(int id, MetricId metric) const
{
    const auto it = m_trials.find(id);
    if (it == m_trials.end() || !metric.isValid())
        return {};
    const std::vector<int>& metrics = *childNodes(it->second.node);
    return metric.index() < metrics.size() ? createNodeIndex(metrics[metric.index()]) : QModelIndex();
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
    const Row& row = m_rows[static_cast<std::size_t>(nodeOfIndex(index))];
    const Kind kind = row.kind;
    if (role == KindRole)
        return static_cast<int>(kind);
    if (role == TrialRole)
        return kind == GroupKind ? -1 : row.id;
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
    const auto t = trial(row.id);
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
        // The unit as every view names it: "µs" for time as stored, not the files' "us".
        const QString unit = unitLabel(metric, TimeUnit::Microseconds);
        if (!unit.isEmpty())
            tip += QLatin1Char('\n') + tr("Unit: %1").arg(unit);
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
    const Row* row = rowAt(index);
    if (row && row->kind != GroupKind)
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
