// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/semanticprofile.h"
#include "algebra/units.h"

#include <QColor>
#include <QString>
#include <vector>

namespace parallax {

/// Shared vocabulary of the SEAA views (docs/SEMANTICS.md 5): badges, scope names, entity colours and the
/// "cut" of the entity tree that the bar chart and the matrix stack.
namespace semanticview {

/// "DIRECT", "AMORTIZE ≈", "WEIGHTED ≈", "AGGREGATE" for the policies whose edges end at an
/// entity (ResolvedEntity::policies bits), joined by ", "; "(unmapped)" for the unmapped root.
QString policyBadge(const semantic::ResolvedEntity& entity);
/// The shortest badge for a bar label: "≈" for estimates, "Σ" for aggregates, "" otherwise.
QString shortBadge(const semantic::ResolvedEntity& entity);

/// "thread 0,0,1", "mean over 8 threads", "total over 8 threads".
QString scopeText(const Trial& trial, const semantic::Scope& scope);

/// The colour of an entity: a stable hash of its id (as event colours), grey for (unmapped).
QColor entityColor(const semantic::ResolvedEntity& entity);

/// Depth of every entity in the tree (roots are 0).
std::vector<int> entityDepths(const semantic::SemanticProfile& profile);
/// The deepest level of the entity tree.
int maxDepth(const semantic::SemanticProfile& profile);
/// A value of metric `m` of the profile's trial, in `unit` for time (groupingLocale()); a plain
/// number when there is no profile or it lacks the metric.
QString formatValue(const semantic::SemanticProfile* profile, MetricId m, TimeUnit unit, double value);
/// formatValue with a column's one decimals count (columnDecimals); < 0 is formatValue's.
QString formatValue(const semantic::SemanticProfile* profile, MetricId m, TimeUnit unit, double value, int decimals);
/// The decimals of a column of `values` of metric `m` (columnDecimals of algebra/units.h).
int columnDecimals(
    const semantic::SemanticProfile* profile, MetricId m, TimeUnit unit, const std::vector<double>& values);

/// One part of a cut: an entity's roll-up, or (self) its own value when its children are shown
/// as separate parts.
struct Slice {
    int entity = -1;
    bool self = false;
    QString label; ///< the entity's name, "name (self)" for self parts
    QColor color;
};

/// The parts at tree level `depth` (0 = roots; negative = the leaves): every entity at that
/// depth or a leaf above it with its roll-up, and every entity above it that has children with
/// its own value as "(self)". The parts partition the attributed total, so their sum equals
/// the sum over the source set (conservation, docs/SEMANTICS.md 5.3). Members of an aggregate are
/// left out (their share is not known; the aggregate carries it).
std::vector<Slice> cut(const semantic::SemanticProfile& profile, int depth);

/// A slice's value on one thread.
double sliceValue(const semantic::SemanticProfile& p, const Slice& s, ThreadIndex t, MetricId m);
/// A slice's value for a scope (thread, mean, total).
double sliceValue(const semantic::SemanticProfile& p, const Slice& s, MetricId m, const semantic::Scope& scope);

/// Σ over the source set of excl for a scope: the total "without mapping".
double sourceTotal(const semantic::SemanticProfile& p, MetricId m, const semantic::Scope& scope);
/// Σ over all entities of own for a scope: the total "with mapping".
double attributedTotal(const semantic::SemanticProfile& p, MetricId m, const semantic::Scope& scope);
/// T for a scope: the thread's top inclusive value, or its sum over threads (mean and total
/// percentages are Σ roll / Σ T).
double scopeTop(const semantic::SemanticProfile& p, MetricId m, const semantic::Scope& scope);
/// Σ over threads of a raw source event's excl for a scope (mean over all threads).
double eventExclusive(const Trial& trial, EventId e, MetricId m, const semantic::Scope& scope);

/// The source event that gives an entity (or its subtree) most of its value, for linking a
/// selected entity to the event views; invalid when none.
EventId dominantEvent(const semantic::SemanticProfile& p, int entity, MetricId m);
/// Every source event that gives an entity or its subtree a share.
std::vector<EventId> contributingEvents(const semantic::SemanticProfile& p, int entity);

} // namespace semanticview

} // namespace parallax
