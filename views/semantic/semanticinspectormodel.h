// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/semanticprofile.h"
#include "algebra/units.h"
#include "views/common/treemodel.h"
#include "views/viewsetup.h"

#include <QLocale>
#include <memory>
#include <vector>

namespace parallax {

/// What the mapping inspector shows, computed off the GUI thread: the attributed profile and, per
/// metric, each event's exclusive value summed over the threads (what its edges distribute).
struct InspectorSnapshot {
    semantic::ProfilePtr profile;
    /// [metric][event index]: Σ over threads of excl(t, e, m).
    std::vector<std::vector<double>> eventTotals;
    /// [metric]: Σ over threads and the source set of excl: what the model attributes in all.
    std::vector<double> sourceTotals;

    /// Builds the snapshot of a profile: one pass over the trial's cells (call it in a job).
    static std::shared_ptr<const InspectorSnapshot> make(const semantic::ProfilePtr& profile);
};

/// The mapping inspector's tree (docs/SEMANTICS.md 5.2, 5.3): one top-level row per association of the
/// model, in file order, then `(unmapped)`, then (when there are any) the model-wide warnings.
///
/// An association row shows its selector, policy, priority, the number of source events it won,
/// its target entities, its weights, the Table-2 classification(s) of the components its edges are
/// in and what it contributed (absolute and % of everything the model attributes). Its children
/// are its warnings (first), the events it won (each with its targets and weights w(e,r); an event
/// with several edges has one child per edge) and the events it matched but lost to a
/// higher-priority association ("matched twice"). Rows with warnings are highlighted and carry the
/// messages in the Warnings column and under WarningRole.
///
/// DisplayRole is text, SortRole the raw number, ToolTipRole explains the row.
class SemanticInspectorModel : public NodeTreeModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Selector,
        Policy,
        Priority,
        Events,
        Targets,
        Weights,
        Classification,
        Value,
        Percent,
        Warnings,
        ColumnCount
    };
    enum class RowKind { Association, Unmapped, ModelWarnings, Warning, Event, Shadowed, Edge };
    /// How values are summed over the threads.
    enum class ValueScope { Total, Mean };

    /// The RowKind of a row (int).
    static constexpr int KindRole = SortRole + 1;
    /// The warnings of a row (QStringList; empty when none): an association's own, or the message
    /// of a warning row.
    static constexpr int WarningRole = SortRole + 2;
    /// The association index in the model (int; -1 for unmapped and model rows).
    static constexpr int AssociationRole = SortRole + 3;
    /// The event (its index as int) of event, shadowed and edge rows; -1 otherwise.
    static constexpr int EventRole = SortRole + 4;
    /// Whether a row has a warning that is more than a note (bool): the rows the inspector opens expanded.
    static constexpr int ProblemRole = SortRole + 5;

    explicit SemanticInspectorModel(QObject* parent = nullptr);
    ~SemanticInspectorModel() override;

    /// A new profile (resets the model). setProfile() builds the snapshot on the calling thread
    /// (tests, small trials); the inspector widget builds it in a job and calls setSnapshot().
    void setSnapshot(std::shared_ptr<const InspectorSnapshot> snapshot);
    void setProfile(const semantic::ProfilePtr& profile);
    const std::shared_ptr<const InspectorSnapshot>& snapshot() const { return m_snapshot; }
    semantic::ProfilePtr profile() const;

    void setMetric(MetricId metric);
    MetricId metric() const { return m_metric; }
    void setValueScope(ValueScope scope);
    ValueScope valueScope() const { return m_scope; }
    void setTimeUnit(TimeUnit unit);
    TimeUnit timeUnit() const { return m_unit; }

    /// The top-level row of an association (by id), of (unmapped), and of the model-wide warnings
    /// (invalid when there are none).
    QModelIndex associationIndex(const QString& id) const;
    QModelIndex unmappedIndex() const;
    QModelIndex modelWarningsIndex() const;
    /// The number of warnings (all associations and model-wide; notes included).
    int warningCount() const;
    /// A row's value in the metric's unit (µs for time), summed or averaged over the threads.
    double value(const QModelIndex& index) const;

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    /// What a row (a tree node) shows.
    struct Node {
        RowKind kind = RowKind::Association;
        int association = -1;
        EventId event;
        int edge = -1;
        int warning = -1; ///< index into the profile's warnings (Warning rows)
    };
    void rebuild();
    void valuesChanged();
    int addRow(Node node, int parent);
    const Node* nodeOf(const QModelIndex& index) const;
    QVariant display(const Node& node, int column) const;
    QVariant sortValue(const Node& node, int column) const;
    QString toolTip(const Node& node, int column) const;
    QStringList warningsOf(const Node& node) const;
    QString warningMessage(int warning) const;
    bool onlyNotes(const Node& node) const;
    QString selectorText(int association) const;
    QString targetsText(const Node& node) const;
    QString weightsText(const Node& node) const;
    QString classificationText(const Node& node) const;
    double rawValue(const Node& node) const;
    double eventTotal(EventId e) const;
    QString formatValue(double v) const;
    int eventCount(const Node& node) const;

    std::shared_ptr<const InspectorSnapshot> m_snapshot;
    std::vector<Node> m_nodes; ///< by tree node
    /// Per association: the indices of its warnings in the profile.
    std::vector<std::vector<int>> m_associationWarnings;
    std::vector<int> m_modelWarnings;
    std::vector<EventId> m_unmappedEvents;
    MetricId m_metric { 0u };
    ValueScope m_scope = ValueScope::Total;
    TimeUnit m_unit = TimeUnit::Milliseconds;
    QLocale m_locale;
};

} // namespace parallax
