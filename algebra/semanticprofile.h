// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/semanticmodel.h"
#include "algebra/statistics.h"
#include "datasource/model/trial.h"

#include <memory>
#include <variant>
#include <vector>

namespace parallax::semantic {

/// Table 2 of docs/SEMANTICS.md 5.1, applied to each connected component of the event–entity graph.
enum class Classification { OneToOne, OneToMany, ManyToOne, ManyToMany };
QString classificationName(Classification c); ///< "one-to-one", "one-to-many", ...
QString classificationShort(Classification c); ///< "1:1", "1:n", "n:1", "n:m"

/// An entity of an attributed trial: declared in the model, made by a template, the synthetic
/// entity of an AGGREGATE association, or the built-in root `(unmapped)`.
struct ResolvedEntity {
    enum class Origin { Declared, Template, Aggregate, Unmapped };
    QString id;
    QString kind;
    QString name;
    Origin origin = Origin::Declared;
    int parent = -1;
    std::vector<int> children;
    /// Attribute values with metadata references resolved against the trial.
    Attributes attrs;
    /// AGGREGATE: the member entities of this synthetic entity.
    std::vector<int> members;
    /// A member of an aggregate: its share of those events is not known ("n/a (aggregated)").
    bool aggregatedMember = false;
    /// Bit i set when an edge of Policy(i) ends here.
    unsigned policies = 0;
    /// Its values rest on an estimate (AMORTIZE or WEIGHTED shares): shown with "≈".
    bool estimate = false;
    /// Index into SemanticProfile::components(), -1 for (unmapped) and entities without events.
    int component = -1;
    bool isUnmapped() const { return origin == Origin::Unmapped; }
    bool isAggregate() const { return origin == Origin::Aggregate; }
};

/// One attribution edge: a source event gives `weight` of its values to an entity.
struct Edge {
    EventId event;
    int entity = -1;
    double weight = 1;
    int association = -1; ///< index in the model; -1 for the (unmapped) edge
};

struct Component {
    std::vector<EventId> events;
    std::vector<int> entities; ///< for AGGREGATE, the members (they count towards |R|)
    Classification kind = Classification::OneToOne;
};

/// What one association did on this trial (for the mapping inspector).
struct AssociationReport {
    std::vector<EventId> events; ///< the source events it won
    std::vector<int> targets; ///< entities it gave values to
    std::vector<int> edges; ///< indices into SemanticProfile::edges()
    std::vector<Classification> classifications; ///< of the components its edges are in (distinct)
    std::vector<double> contributed; ///< per metric: Σ over threads and edges of w·excl
    std::vector<EventId> shadowed; ///< events it matched but a higher-priority association won
};

struct Warning {
    QString association; ///< empty for model-wide warnings
    QString message;
    /// A note rather than a problem: events matched by several associations, resolved by priority.
    bool note = false;
};

struct AttributionError {
    QString message;
};

struct AttributeOptions {
    int workers = 0; ///< threads for the per-thread sums; 0 = one per core
};

/// Which value of an entity.
enum class Quantity { Own, Roll, Calls, Subroutines, Inclusive };

/// A thread, or a statistic over all threads (docs/SEMANTICS.md 5.4).
struct Scope {
    enum class Kind { Thread, Mean, Total };
    Kind kind = Kind::Mean;
    ThreadIndex thread;
    static Scope ofThread(ThreadIndex t) { return { Kind::Thread, t }; }
    static Scope mean() { return { Kind::Mean, {} }; }
    static Scope total() { return { Kind::Total, {} }; }
};

/// The semantic profile of one trial through one model: per thread and metric, each entity's own
/// value (docs/SEMANTICS.md 5.3), roll-up, calls, subroutines and (where derivable) inclusive value.
class SemanticProfile {
public:
    const Model& model() const { return m_model; }
    const Trial& trial() const { return *m_trial; }
    TrialPtr trialPtr() const { return m_trial; }

    const std::vector<ResolvedEntity>& entities() const { return m_entities; }
    const ResolvedEntity& entity(int r) const { return m_entities[static_cast<std::size_t>(r)]; }
    int findEntity(const QString& id) const;
    int unmappedEntity() const { return m_unmapped; }
    const std::vector<int>& roots() const { return m_roots; }
    /// Entities children-first (every child before its parent).
    const std::vector<int>& postOrder() const { return m_postOrder; }

    const std::vector<EventId>& sourceEvents() const { return m_sourceEvents; }
    const std::vector<Edge>& edges() const { return m_edges; }
    /// Edges of a source event (indices into edges()); empty for events outside the source set.
    std::vector<int> edgesOf(EventId e) const;
    const std::vector<Component>& components() const { return m_components; }
    const std::vector<AssociationReport>& associationReports() const { return m_reports; }
    const std::vector<Warning>& warnings() const { return m_warnings; }

    std::size_t threadCount() const { return m_threads; }
    std::size_t metricCount() const { return m_metrics; }

    double own(int r, ThreadIndex t, MetricId m) const { return m_own[cell(r, t, m)]; }
    double roll(int r, ThreadIndex t, MetricId m) const { return m_roll[cell(r, t, m)]; }
    double calls(int r, ThreadIndex t) const { return m_calls[cell(r, t)]; }
    double subroutines(int r, ThreadIndex t) const { return m_subrs[cell(r, t)]; }
    /// incl(r) of docs/SEMANTICS.md 5.3; NaN when not derivable for r.
    double inclusive(int r, ThreadIndex t, MetricId m) const { return m_incl[cell(r, t, m)]; }
    bool inclusiveDerivable(int r) const { return m_inclDerivable[static_cast<std::size_t>(r)] != 0; }
    /// A contributing event of r (or, for roll-up, of r's subtree) is present on t.
    bool present(int r, ThreadIndex t) const { return m_present[cell(r, t)] & 1; }
    bool subtreePresent(int r, ThreadIndex t) const { return m_present[cell(r, t)] != 0; }
    double value(int r, ThreadIndex t, MetricId m, Quantity q) const;

    /// T(t,m): the thread's top inclusive value (docs/SEMANTICS.md 2).
    double threadTop(ThreadIndex t, MetricId m) const { return m_top[m.index() * m_threads + t.index()]; }
    /// Σ over the source set of excl(t,e,m): what conservation compares against.
    double sourceTotal(ThreadIndex t, MetricId m) const { return m_sourceTotal[m.index() * m_threads + t.index()]; }
    double sourceCalls(ThreadIndex t) const { return m_sourceCalls[t.index()]; }
    double sourceSubroutines(ThreadIndex t) const { return m_sourceSubrs[t.index()]; }

    /// Statistics of an entity's value across threads, exactly like an event's (docs/SEMANTICS.md 5.4).
    Stat stat(int r, MetricId m, Quantity q) const;
    /// The value for a thread, the mean over all threads, or the total.
    double scoped(int r, MetricId m, Quantity q, const Scope& scope) const;
    /// 100·roll(r)/T(t); on the mean and total: 100·Σ_t roll / Σ_t T(t).
    double percentOfTotal(int r, MetricId m, const Scope& scope) const;
    /// 100·roll(r)/roll(parent); NaN for a root or a zero parent.
    double percentOfParent(int r, MetricId m, const Scope& scope) const;

    /// The largest |Σ own − Σ excl| over threads and metrics, relative to the larger magnitude
    /// (and the same for calls and subrs): 0 up to rounding when attribution conserves.
    double conservationError() const;

    SemanticProfile(const Model& model, TrialPtr trial);

private:
    friend class Attributor;
    std::size_t cell(int r, ThreadIndex t) const { return static_cast<std::size_t>(r) * m_threads + t.index(); }
    std::size_t cell(int r, ThreadIndex t, MetricId m) const
    {
        return (m.index() * m_entities.size() + static_cast<std::size_t>(r)) * m_threads + t.index();
    }

    Model m_model;
    TrialPtr m_trial;
    std::vector<ResolvedEntity> m_entities;
    int m_unmapped = -1;
    std::vector<int> m_roots;
    std::vector<int> m_postOrder;
    std::vector<EventId> m_sourceEvents;
    std::vector<Edge> m_edges;
    std::vector<int> m_edgeStart; ///< per event id: first edge; size eventCount + 1
    std::vector<Component> m_components;
    std::vector<AssociationReport> m_reports;
    std::vector<Warning> m_warnings;
    std::size_t m_threads = 0;
    std::size_t m_metrics = 0;
    std::vector<double> m_own, m_roll, m_incl;
    std::vector<double> m_calls, m_subrs;
    std::vector<std::uint8_t> m_present; ///< bit 0: own, bit 1: subtree
    std::vector<std::uint8_t> m_inclDerivable;
    std::vector<double> m_top, m_sourceTotal, m_sourceCalls, m_sourceSubrs;
};

using ProfilePtr = std::shared_ptr<const SemanticProfile>;

/// Attributes a trial through a model (docs/SEMANTICS.md 5.2–5.4). Errors: two associations of the
/// highest priority match one event (the event and the associations are listed), DIRECT with more
/// than one target, a WEIGHTED weight that is missing, negative or sums to 0 (for example a
/// metadata key the trial does not hold trial-wide, as in every algebra result whose operands
/// differ — docs/SEMANTICS.md 5.5), a template attribute conflicting with a declared one, a template
/// parent that does not exist.
std::variant<ProfilePtr, AttributionError> attribute(
    const Model& model, TrialPtr trial, const AttributeOptions& options = {});

/// One entity row of a semantic comparison.
struct DiffRow {
    QString id;
    QString name;
    QString kind;
    QString parentId;
    bool inA = false;
    bool inB = false;
    double a = 0; ///< roll-up value in A (0 when absent)
    double b = 0;
    double diff = 0; ///< a − b
    bool estimate = false;
};

/// A semantic comparison: each trial attributed with its own weights first, then the difference at
/// entity level (docs/SEMANTICS.md 5.5, example F). Rows are matched by entity id, in A's order, then
/// B's entities missing from A.
std::vector<DiffRow> semanticDifference(const SemanticProfile& a, const SemanticProfile& b, const QString& metric,
    const Scope& scopeA, const Scope& scopeB);

/// Group-by-attribute (the B1 example): Σ own over the entities whose attribute `key` has each
/// value; entities without it form the group "(no KEY)". Sums own values, so the groups conserve.
struct AttributeGroup {
    QString value;
    double own = 0;
    std::vector<int> entities;
};
std::vector<AttributeGroup> groupByAttribute(
    const SemanticProfile& p, const QString& key, MetricId m, const Scope& scope);

} // namespace parallax::semantic
