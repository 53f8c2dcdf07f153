// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/matching.h"
#include "datasource/model/trial.h"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <vector>

namespace parallax {

// The instrumentation advisor (docs/SEMANTICS.md 7): which routines to leave uninstrumented, why,
// what that saves, and what instrumentation cost against a baseline run. Pure functions over trials;
// parallax-cli advise and the Advisor view show the same Advice.

// ---- 7.1 the OpenUH score -------------------------------------------------------------------------

/// A procedure's static attributes: W = 5·(basic blocks) + statements + call sites.
struct StaticProcedure {
    QString name;
    double weight = 0; ///< W
};

/// One call site: caller calls callee at loop-nest depth L inside the caller.
struct StaticCallSite {
    QString caller;
    QString callee;
    int loopDepth = 0;
};

struct StaticCallGraph {
    std::vector<StaticProcedure> procedures;
    std::vector<StaticCallSite> calls;
    bool isEmpty() const { return procedures.empty(); }
};

/// The trial-wide metadata key whose value is a static call graph as JSON (docs/SEMANTICS.md 7.1):
/// {"procedures": {"main": 459, ...}, "calls": [["main", "adi", 1], ...]}.
inline constexpr const char* StaticCallGraphKey = "OpenUH static call graph";

/// Reads the JSON form; nullopt and *error when it is not that form (a call naming an unknown
/// procedure, a negative W or L).
std::optional<StaticCallGraph> parseStaticCallGraph(const QByteArray& json, QString* error);

/// One procedure's score and decision.
struct OpenUhScore {
    QString name;
    double weight = 0; ///< W
    int loopDepth = 0; ///< L: the deepest call site calling it (0 without a caller)
    double loop = 0; ///< (100 - L) · 2048
    int instrumentedCallees = 0; ///< C
    double callsite = 0; ///< C · 2048²
    double score = 0; ///< W + callsite + loop
    bool instrument = false; ///< score ≥ T
};

inline constexpr double OpenUhDefaultThreshold = 204800; ///< T = 100 · 2048

/// Scores every procedure bottom-up (callees first; inside a strongly connected component the other
/// members count as instrumented), in the order of graph.procedures.
std::vector<OpenUhScore> openUhScores(const StaticCallGraph& graph, double threshold = OpenUhDefaultThreshold);

// ---- 7.2 the lightweight rule, 1.6 throttling, the user's choice --------------------------------

/// The thresholds of the lightweight rule (settings in the GUI, options of parallax-cli advise).
struct LightweightRule {
    double minCalls = 100000; ///< N: mean calls ≥ N
    double maxMicrosPerCall = 10; ///< X: mean incl / mean calls ≤ X µs
    bool presentOnlyMean = false; ///< the mean over the threads where the event ran instead of all
};

/// Why a routine is suggested (a bit set).
enum AdviceReason : unsigned {
    ReasonLightweight = 1u, ///< SEMANTICS 7.2
    ReasonThrottled = 2u, ///< SEMANTICS 1.6: TAU stopped measuring it; its time went to its callers
    ReasonUser = 4u, ///< selected by the user (a view's selection, --exclude, a --rules exclude list)
    ReasonOpenUh = 8u, ///< the OpenUH score is below T (SEMANTICS 7.1)
};

struct AdvisorOptions {
    LightweightRule rule;
    /// Event names (flat, canonical or exclude-list spelling) the user adds to the exclude list.
    QStringList userExclude;
    /// Names never to exclude (a --rules include list): they are reported as kept.
    QStringList keep;
    /// Matching of the instrumented trial against the baseline (SEMANTICS 7.3).
    EventMatching matching;
    /// The cost of one measured call in µs, for the time saved; when unset it is estimated from the
    /// baseline (SEMANTICS 7.3), and without a baseline the time saved is unknown (NaN).
    std::optional<double> callOverheadMicros;
    double openUhThreshold = OpenUhDefaultThreshold;
};

/// One suggested routine (a flat event of the trial).
struct Suggestion {
    EventId event;
    QString name; ///< the exclude-list spelling: the flat name without source blocks and " [THROTTLED]"
    QStringList scorep; ///< the Score-P filter patterns (escaped; "_Z..." names: the mangled name), SEMANTICS 7.4
    unsigned reasons = 0; ///< AdviceReason bits
    QString why; ///< one sentence per reason, for the table and the CLI
    double meanCalls = 0; ///< the rule's mean (all threads, or present-only)
    double meanInclusiveMicros = 0;
    double microsPerCall = 0; ///< meanInclusive / meanCalls (NaN when no calls)
    double visits = 0; ///< calls summed over threads: what the filter removes
    double traceBytes = 0; ///< visits × bytes per visit (SEMANTICS 7.5)
    double timeSavedMicros = 0; ///< mean per thread: visits/N × call overhead (NaN when unknown)
};

/// TAU's throttle settings as the trial's metadata recorded them (empty strings when absent).
struct ThrottleSettings {
    QString throttle; ///< TAU_THROTTLE ("on"/"off")
    QString numCalls; ///< TAU_THROTTLE_NUMCALLS
    QString perCall; ///< TAU_THROTTLE_PERCALL (µs)
    bool recorded() const { return !throttle.isEmpty() || !numCalls.isEmpty() || !perCall.isEmpty(); }
};

// ---- 7.3 overhead against a baseline -------------------------------------------------------------

/// One matched region: its inclusive time (mean over all threads, µs) in both runs.
struct OverheadRow {
    QString name; ///< the match key
    double instrumented = 0; ///< T_instr (NaN when the region is only in the baseline)
    double baseline = 0; ///< T_base (NaN when only in the instrumented run)
    double overhead = 0; ///< (T_instr − T_base) / T_base; NaN when either is missing or T_base = 0
    double calls = 0; ///< mean calls in the instrumented run
};

struct OverheadReport {
    QString baselineName;
    double totalInstrumented = 0; ///< T_instr: the mean over threads of each thread's largest inclusive value
    double totalBaseline = 0;
    double total = 0; ///< (T_instr − T_base) / T_base (NaN when T_base = 0)
    double visitsInstrumented = 0; ///< calls of flat events summed over threads
    double visitsBaseline = 0;
    /// µs per measured call: (Σ_t T_instr(t) − Σ_t T_base(t)) / (V_instr − V_base); NaN when V_instr ≤ V_base.
    double perCallMicros = 0;
    std::vector<OverheadRow> rows; ///< sorted by overhead × T_base, largest first (regions in both), then the rest
    QStringList collisions; ///< from the matching
};

// ---- 7.5 the trace-size estimate -----------------------------------------------------------------

struct TraceEstimate {
    std::size_t regions = 0; ///< R: the flat events (region definitions)
    double bytesPerVisit = 0; ///< 2·9 + 2·(2 + bytes(R − 1))
    std::vector<std::int32_t> processes; ///< the node numbers, ascending
    std::vector<double> before; ///< bytes per process without the filter
    std::vector<double> after; ///< with the suggestions excluded
    double totalBefore = 0;
    double totalAfter = 0;
    double maxBefore = 0; ///< max_buf: the largest process
    double maxAfter = 0;
};

/// OTF2's compressed size of a region reference among R definitions: 1 + the bytes of R − 1.
int otf2RegionRefBytes(std::size_t regions);
/// Bytes of one visit (Enter + Leave with their timestamps) among R region definitions.
double bytesPerVisit(std::size_t regions);

// ---- the whole advice ----------------------------------------------------------------------------

struct Advice {
    QString trialName;
    QString metricName; ///< the time metric the rule used (TIME, else the first time metric)
    double metricToMicros = 1; ///< factor from the metric's unit to µs
    std::size_t threads = 0;
    LightweightRule rule;
    ThrottleSettings throttle;
    std::vector<Suggestion> suggestions; ///< sorted by exclude-list name, bytewise
    QStringList throttledWarnings; ///< one line per throttled event: its time moved to its callers
    QStringList kept; ///< names the rules would list but the keep list holds
    QStringList unknownUserNames; ///< user names that match no flat event (still listed in the files)
    TraceEstimate trace;
    std::optional<OverheadReport> overhead;
    std::vector<OpenUhScore> openUh; ///< when the metadata carries a static call graph
    QStringList warnings;

    /// The exclude-list names of the suggestions with any of the reason bits, plus the unknown user names.
    QStringList excludeNames(unsigned reasons = ~0u) const;
    /// The Score-P patterns: demangled ones (escaped) and, for names that look mangled ("_Z..."), mangled.
    QStringList scorepPatterns(unsigned reasons = ~0u) const;
    QStringList scorepMangled(unsigned reasons = ~0u) const;
    /// Visits, trace bytes and time saved (mean per thread) of the suggestions with a reason (the
    /// preview of what each rule removes).
    double visitsRemoved(unsigned reasons = ~0u) const;
    double timeSavedMicros(unsigned reasons = ~0u) const;
};

/// The exclude-list spelling of an event name (SEMANTICS 7.2): source-location blocks removed,
/// a trailing "[THROTTLED]" removed, whitespace simplified.
QString excludeListName(const QString& eventName);
/// The Score-P patterns of an exclude-list name, escaped (SEMANTICS 7.4).
QStringList scorepPatterns(const QString& excludeName);
/// True for a throttled event (SEMANTICS 1.6): group TAU_DISABLE or a name ending in "[THROTTLED]".
bool isThrottled(const Trial& trial, EventId e);
ThrottleSettings throttleSettings(const Trial& trial);

/// "lightweight, throttled, user, OpenUH" for the bits set.
QString reasonText(unsigned reasons);

/// What one rule removes (the preview): the suggestions that carry its reason.
struct RulePreview {
    unsigned reason = 0;
    int routines = 0;
    double visits = 0;
    double traceBytes = 0;
    double timeSavedMicros = 0; ///< mean per thread (NaN when the call cost is unknown)
};
/// One preview per reason that has suggestions, then the whole filter (reason = all bits).
std::vector<RulePreview> rulePreviews(const Advice& advice);

/// The TAU file of SEMANTICS 7.2 for the advice (tauExcludeBlock of excludeNames()).
QString tauSelectText(const Advice& advice);
/// The Score-P filter file of SEMANTICS 7.4 for the advice.
QString scorepFilterText(const Advice& advice);

/// The advice for `trial`, with `baseline` (may be null) for the overhead.
Advice advise(const Trial& trial, const Trial* baseline, const AdvisorOptions& options);

} // namespace parallax
