// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <vector>

namespace parallax {

// Matching of events and threads across trials (docs/SEMANTICS.md 1.9, 4.4, 4.5). Used by the algebra
// operators; public so that a comparison view or the CLI can show what will be matched.

/// How interval events of different trials are identified. Each policy works per call-path
/// component, after name normalisation W, so a path's key contains its parent's key.
enum class EventMatchPolicy {
    /// The normalised name (default).
    Exact,
    /// Source-location blocks removed: "[{file} {l,c}-{l,c}]" and "[{file} {l}]".
    NoSource,
    /// Like tau_diff: NoSource, then parameter blocks "[ <p> = <v> ]" removed, a trailing language
    /// tag ("C", "C++", "Fortran"...) dropped, and only the routine identifier kept (no return
    /// type, no argument list), so "int foo(int) C [{foo.c} {3,1}-{7,1}]" and a compiler-
    /// instrumented "foo" match. Components starting with '.' or '[' and OpenMP region names stay
    /// verbatim. Events in group TAU_PARAM are dropped (they re-measure their base timer).
    Routine,
};

/// The event-matching option of the algebra ("match").
struct EventMatching {
    EventMatchPolicy policy = EventMatchPolicy::Exact;
    /// RENAME: a table old -> new applied to each component after the policy.
    QHash<QString, QString> rename;

    /// "EXACT", "NO_SOURCE", "ROUTINE", plus "+RENAME{old->new,...}" (for provenance).
    QString toString() const;
};

QString eventMatchPolicyName(EventMatchPolicy policy);
/// Parses "EXACT", "NO_SOURCE" or "ROUTINE" (case-insensitive; '-' works like '_').
std::optional<EventMatchPolicy> eventMatchPolicyFromName(QStringView name);

/// The key of one call-path component under a policy (no RENAME). An empty result never happens:
/// a component that would become empty keeps its normalised spelling.
QString matchComponent(const QString& component, EventMatchPolicy policy);
/// The key of a canonical event name: each component mapped, then renamed, joined with " => ".
QString matchKey(const QString& canonicalName, const EventMatching& matching);
/// True when the Routine policy drops this event (it or its leaf is in group TAU_PARAM).
bool isDroppedByRoutine(const Trial& trial, EventId e);

/// The interval events of several trials matched to one list of keys (the result's events).
struct EventMatch {
    static constexpr std::uint32_t Dropped = 0xffffffffu;
    /// The result's events, in order of first appearance (operand 0's order, then new ones of
    /// operand 1, ...). For EXACT these are the operands' canonical names.
    std::vector<QString> keys;
    /// The source spelling of each key: the first operand's rawName under EXACT, the key otherwise.
    std::vector<QString> rawNames;
    /// [operand][operand's event index] -> index into keys, or Dropped.
    std::vector<std::vector<std::uint32_t>> map;
    /// Several events of one trial mapped to one key (their cells are summed), as
    /// "operand 2 'B': key <= name | name".
    QStringList collisions;
    /// Events dropped (Routine: TAU_PARAM).
    std::size_t dropped = 0;
};

/// Matches the events of the operands. Operands with include[i] == false (when given) contribute
/// no keys; their map entries are all Dropped.
EventMatch matchEvents(
    const std::vector<const Trial*>& operands, const EventMatching& matching, const std::vector<bool>& include = {});

/// How the operands' thread sets relate (docs/SEMANTICS.md 4.5).
enum class ThreadSetRelation {
    Identical, ///< all sets are equal
    Subset, ///< one operand's set contains all others
    Overlap, ///< none contains all others, and some share a thread
    Disjoint, ///< no two share a thread
};

/// What to do when the thread sets OVERLAP or are DISJOINT ("threads" option). IDENTICAL and
/// SUBSET sets are always united by key; the policy is not consulted for them.
enum class ThreadPolicy {
    /// Default: OVERLAP and DISJOINT are errors that name the policies below.
    Strict,
    /// Keep the union of (node, context, thread) keys anyway; missing threads contribute 0.
    UnionByKey,
    /// Sum each operand's threads per (node, context) into (node, context, 0), then classify
    /// again; still OVERLAP or DISJOINT after that is an error.
    CollapseProcess,
    /// Sum all threads of each operand into (0, 0, 0).
    CollapseAll,
    /// The keys of the operand with the most threads (ties: the first), sorted, are the
    /// reference; the i-th thread (sorted) of every other operand maps to the i-th reference key.
    MapByOrder,
};

QString threadSetRelationName(ThreadSetRelation relation);
QString threadPolicyName(ThreadPolicy policy);
/// Parses "STRICT", "UNION_BY_KEY", "COLLAPSE_PROCESS", "COLLAPSE_ALL" or "MAP_BY_ORDER".
std::optional<ThreadPolicy> threadPolicyFromName(QStringView name);

/// The result's threads and where every operand thread goes.
struct ThreadMapping {
    ThreadSetRelation relation = ThreadSetRelation::Identical; ///< of the operands' own sets
    ThreadPolicy applied = ThreadPolicy::Strict; ///< Strict: united by key without a policy
    std::vector<ThreadKey> threads; ///< the result's threads, sorted
    /// [operand][operand's thread index] -> index into threads.
    std::vector<std::vector<std::uint32_t>> map;

    /// True when every thread of the operand keeps its own key.
    bool isIdentity(std::size_t operand, const Trial& trial) const;
    /// "relation=OVERLAP", "policy=COLLAPSE_PROCESS" and, per operand with a non-identity mapping,
    /// "thread_map[i]=(n,c,t)->(n,c,t);..." (at most maxPairs pairs, then "...(+k more)").
    QStringList describe(const std::vector<const Trial*>& operands, std::size_t maxPairs = 256) const;
};

ThreadSetRelation classifyThreadSets(const std::vector<std::vector<ThreadKey>>& sortedSets);

/// Maps the operands' threads under a policy. Returns nullopt and sets *error for OVERLAP or
/// DISJOINT sets under Strict (and after CollapseProcess). With `force`, CollapseProcess,
/// CollapseAll and MapByOrder apply even to IDENTICAL or SUBSET sets (the unary "remap").
std::optional<ThreadMapping> mapThreads(
    const std::vector<const Trial*>& operands, ThreadPolicy policy, QString* error, bool force = false);

} // namespace parallax
