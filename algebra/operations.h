// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/matching.h"
#include "algebra/presence.h"
#include "datasource/model/trial.h"

#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace parallax {

// The cross-experiment algebra (docs/SEMANTICS.md 4): pure functions, trials in, a new trial out.
//
// Every result is an ordinary Trial (provenance operation "diff", "ratio", "mean", "merge",
// "min", "max", "stddev" or "remap", so Trial::isDerived() is true): it goes through every view,
// the database, the writers and the next operation. Common rules:
//   - Union: the result's metrics (by exact name), interval events (by the `match` key, call
//     paths included, so the union of events is the union of call trees), atomic events (by
//     normalised name) and threads (by the `threads` policy) are the union of the operands'.
//   - Absence: an absent cell contributes 0 (CUBE semantics), except to the present-only mean
//     and present-only summaries. A result cell is present iff some operand had it; its presence
//     mask is kept (see Presence, which also says how the markers are saved).
//   - Each operator works cell by cell on excl and incl separately, so inclusive(A-B) =
//     inclusive(A) - inclusive(B) exactly; the result's values are never clamped (a diff has
//     negative values, and TrialBuilder adds no warning for them).
//   - Provenance: operands as "name [content hash]", and options "key=value" with every option
//     spelled out, the thread relation and any non-identity thread mapping, event-name
//     collisions, metadata keys that differ between operands ("metadata[i]=key=value"), the
//     Parallax version and the UTC time. Result warnings list collisions and merge disagreements.
//   - Metadata: trial-wide keys identical in all operands stay; per-thread keys stay where all
//     operand threads mapped to a result thread agree (merge: the first operand with the thread).
//     "Parallax operation" holds the operation and operands, "Parallax provenance" the options
//     above one per line (minus the time), so both survive the writers and the database;
//     "Parallax non-additive" = "true" marks results whose values must not be rolled up (ratio,
//     present-only mean, min, max, stddev).
//   - TAU's SumExclSqr column is not carried into results.

/// Treatment of absent cells by mean() and summary().
enum class AbsentCells {
    /// Absent counts as 0 and the denominator is the number of operands N (default; CUBE).
    AsZero,
    /// Only operands where the cell is present count (mean divides by their number k).
    Skip,
};

/// A metric (or atomic event) that more than one merge operand has.
enum class MergeConflict {
    /// Default: the merge fails and lists the names.
    Error,
    /// The last operand that has it supplies the whole metric; cells that only earlier
    /// operands had become absent for it (never a cell-wise mix of runs).
    LastWins,
    /// Extension of docs/SEMANTICS.md 4.3, the mirror of LastWins: the first operand supplies it.
    FirstWins,
};

struct AlgebraOptions {
    /// Event matching (default EXACT).
    EventMatching match;
    /// Thread-set policy for OVERLAP/DISJOINT sets (default Strict: an error).
    ThreadPolicy threads = ThreadPolicy::Strict;
    /// mean() and summary() only.
    AbsentCells absent = AbsentCells::AsZero;
    /// merge() only: conflicts between metrics.
    MergeConflict conflict = MergeConflict::Error;
    /// merge() only: conflicts between atomic (user) events; unset = the same as `conflict`.
    std::optional<MergeConflict> atomicConflict;
    /// The result's name; empty: generated, e.g. "diff(A, B)".
    QString name;
    /// Worker threads; 0: one per core.
    int workers = 0;
};

/// A result trial or an error message (nothing is created on error).
class AlgebraResult {
public:
    AlgebraResult(std::shared_ptr<const Trial> trial)
        : m_trial(std::move(trial))
    {
    }
    static AlgebraResult failure(const QString& message)
    {
        AlgebraResult r(nullptr);
        r.m_error = message;
        return r;
    }
    bool ok() const { return m_trial != nullptr; }
    explicit operator bool() const { return ok(); }
    const std::shared_ptr<const Trial>& trial() const { return m_trial; }
    const QString& error() const { return m_error; }

private:
    std::shared_ptr<const Trial> m_trial;
    QString m_error;
};

/// diff(A, B) = A - B on excl, incl, calls and subrs (docs/SEMANTICS.md 4.3, 4.6: A is the baseline,
/// B the candidate; positive = the candidate got cheaper). Atomic events: field-wise on count,
/// min, max, mean and sd (each operand's sd first), sumsqr dropped (0), the sd delta stored
/// explicitly (AtomicRow::stdDev); a right-only record is negated.
AlgebraResult difference(const Trial& a, const Trial& b, const AlgebraOptions& options = {});

/// ratio(A, B) = A / B cell-wise in IEEE arithmetic (x/0 = +-inf, 0/0 = NaN), also for calls,
/// subrs and atomic fields. Units become "" (dimensionless); flagged non-additive.
AlgebraResult ratio(const Trial& a, const Trial& b, const AlgebraOptions& options = {});

/// mean(X1..Xn) = (sum Xi) / n, or with AbsentCells::Skip sum Xi / k(cell) (flagged
/// non-additive). Calls and subrs likewise. Atomic events are pooled: count = sum n / N,
/// mean = sum(n * mean) / sum n, min/max over the present operands, sumsqr = sum sumsqr / N (so
/// the sd is the pooled sd), N = n or k. 1 <= n <= 64.
AlgebraResult mean(const std::vector<std::shared_ptr<const Trial>>& operands, const AlgebraOptions& options = {});

/// merge(X1..Xn): the union of the metrics, each metric taken whole from exactly one operand
/// (MergeConflict decides when several have it); values are copied unchanged. Calls and subrs
/// come from the first operand where the cell is present; disagreements are counted in a
/// warning (number of cells and the largest absolute difference). An operand that supplies no
/// metric contributes no cells. Atomic events follow the same conflict rule (atomicConflict).
AlgebraResult merge(const std::vector<std::shared_ptr<const Trial>>& operands, const AlgebraOptions& options = {});

/// Cross-run statistics (docs/SEMANTICS.md 4.3 "deferred" operators, with the same union and mask
/// rules): cell-wise over the operands on excl, incl, calls and subrs; population standard
/// deviation (0 when the count <= 1). AbsentCells::AsZero (default) counts an absent cell as 0,
/// Skip uses the present operands only. Atomic events: the statistic field-wise on count, min,
/// max, mean and sd (sd stored explicitly). All three are flagged non-additive.
enum class Summary { Minimum, Maximum, StdDev };
AlgebraResult summary(
    const std::vector<std::shared_ptr<const Trial>>& operands, Summary statistic, const AlgebraOptions& options = {});

/// The unary "remap": collapses one trial's threads with ThreadPolicy::CollapseProcess or
/// CollapseAll (summing excl, incl, calls and subrs; atomic records pooled).
AlgebraResult remapThreads(const Trial& trial, ThreadPolicy policy, const AlgebraOptions& options = {});

/// What an algebra command does before its operation (parallax-cli and the Python module): an
/// explicit CollapseProcess or CollapseAll in `policy` collapses every operand's threads with
/// remapThreads, whatever the thread sets are (docs/SEMANTICS.md 4.5 consults the policy only for
/// overlapping or disjoint sets; asking for it is asking for the aggregate). Any other policy leaves
/// the operands as they are. False with `*error` set when a collapse fails (operands unchanged).
bool collapseOperandThreads(std::vector<std::shared_ptr<const Trial>>& operands, ThreadPolicy policy, QString* error);

/// False for results of ratio, present-only mean and summaries (their values must not be rolled
/// up or summed over events); true otherwise.
bool isAdditive(const Trial& trial);

/// The Parallax version recorded in provenance.
QString parallaxVersion();

} // namespace parallax
