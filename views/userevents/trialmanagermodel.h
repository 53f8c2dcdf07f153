// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"
#include "views/common/treemodel.h"

#include <QLatin1String>
#include <map>
#include <memory>
#include <vector>

namespace parallax {

/// The tree of open trials: source groups at the top ("Files" for now; database connections
/// will be further groups), their trials below, and each trial's metrics below the trial.
///
/// A trial is known by the id addTrial() returns. Ids are never reused while the model lives, so
/// a stale id simply finds nothing. TrialRole gives the id on trial and metric rows (-1 on group
/// rows), MetricRole the MetricId index on metric rows (-1 elsewhere), KindRole the row kind.
///
/// Trial and metric rows can be dragged: the mime data (TrialMimeType) carries the trial ids and
/// names this model's identity, so that a drop target in the same window resolves them with
/// trialIdsFromMimeData(); a drop from another model or process resolves to nothing.
class TrialManagerModel : public NodeTreeModel {
    Q_OBJECT
public:
    enum Kind { GroupKind, TrialKind, MetricKind };
    static constexpr int TrialRole = Qt::UserRole + 10;
    static constexpr int MetricRole = Qt::UserRole + 11;
    static constexpr int KindRole = Qt::UserRole + 12;
    /// The group every file-loaded trial goes to; it exists from the start.
    static constexpr int FilesGroup = 0;
    /// The mime type of dragged trials.
    static constexpr QLatin1String TrialMimeType { "application/x-parallax-trial" };

    explicit TrialManagerModel(QObject* parent = nullptr);
    ~TrialManagerModel() override;

    /// Adds a top-level group (a database connection, say) and returns its id.
    int addGroup(const QString& name, const QString& toolTip = {});
    /// Adds a trial under a group (Files by default) and returns its id, or -1 for a null trial or
    /// an unknown group.
    int addTrial(std::shared_ptr<const Trial> trial, int group = FilesGroup);
    /// Removes a trial and its metric rows; false when the id is unknown.
    bool removeTrial(int id);
    /// The trial of an id, or null.
    std::shared_ptr<const Trial> trial(int id) const;
    /// Ids of all open trials, in display order.
    std::vector<int> trialIds() const;

    /// The trial id of a trial or metric row, -1 otherwise.
    int trialIdForIndex(const QModelIndex& index) const;
    /// The trial of a trial or metric row (of this model), null otherwise.
    std::shared_ptr<const Trial> trialForIndex(const QModelIndex& index) const;
    /// The metric of a metric row, invalid otherwise.
    MetricId metricForIndex(const QModelIndex& index) const;
    QModelIndex indexForTrial(int id) const;
    QModelIndex indexForMetric(int id, MetricId metric) const;
    QModelIndex indexForGroup(int group) const;
    /// The ids of the trials a drag from this model carries, in drag order without duplicates;
    /// empty for data that did not come from this model (another model, another process).
    std::vector<int> trialIdsFromMimeData(const QMimeData* data) const;

    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QStringList mimeTypes() const override;
    /// TrialMimeType with the trials of the trial and metric rows, and their names as text/plain.
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    Qt::DropActions supportedDragActions() const override;

private:
    struct Group {
        int id = 0;
        QString name;
        QString toolTip;
        int node = NoNode;
    };
    struct Entry {
        std::shared_ptr<const Trial> trial;
        int group = 0;
        int node = NoNode;
    };
    /// What a row (a tree node) is: a group, a trial or one of its metrics (`id`: the group's or
    /// the trial's id). A removed trial's nodes are not reused: a stale index finds no trial.
    struct Row {
        Kind kind;
        int id;
    };

    int addRow(Kind kind, int id, int parent);
    const Row* rowAt(const QModelIndex& index) const;
    int groupRow(int group) const;
    QString trialToolTip(const Trial& trial) const;

    std::vector<Group> m_groups;
    std::map<int, Entry> m_trials;
    std::vector<Row> m_rows; ///< by tree node
    int m_nextTrial = 0;
    int m_nextGroup = 0;
};

} // namespace parallax
