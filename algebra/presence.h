// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QString>
#include <bit>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace parallax {

class TrialBuilder;

/// Presence markers of an algebra result (docs/SEMANTICS.md 4.2): for every interval cell, event and
/// thread, the set of operands in which it was present, as a bit mask (bit i = operand i; with two
/// operands bit 0 is the left operand A and bit 1 the right operand B).
///
/// A result cell is present iff its mask is non-empty; an event's mask is the OR of its cells'
/// masks (the operands that defined it when it has no cell); a thread's mask holds the operands
/// that had a thread mapped to it. Measured trials have no markers (operandCount() == 0).
///
/// Storage and persistence: a cell's mask is eventMask(e) & threadMask(t) unless listed as an
/// exception, so the table is small (no exceptions at all when events are missing from whole
/// operands or threads from whole operands). The table is kept in the result trial itself, so it
/// survives the TAU writer and the database wherever groups and metadata survive:
///   - trial metadata "Parallax presence operands" = N, and "Parallax presence events" = one line
///     "<hex mask>\t<event name>" per event not present in every operand;
///   - per-thread metadata "Parallax presence" = "<hex mask>" on every thread when some thread is
///     missing from an operand, and "Parallax presence cells" = lines "<hex mask>\t<event name>"
///     (the exceptions) on every thread when any thread has exceptions;
///   - human-visible event groups: PARALLAX_LEFT_ONLY (◀) / PARALLAX_RIGHT_ONLY (▶) with two
///     operands, PARALLAX_PARTIAL ("k of N") with more.
/// The operator that builds a result puts the decoded table into the trial's cache, so of() costs
/// nothing for fresh results; a loaded trial is decoded once on first use.
class Presence {
public:
    using Mask = std::uint64_t;
    /// Masks have one bit per operand, so n-ary operators take at most 64 operands.
    static constexpr std::size_t MaxOperands = 64;

    enum class Marker {
        Absent, ///< mask 0
        All, ///< present in every operand ("both" for two operands)
        LeftOnly, ///< two operands, only the left (◀)
        RightOnly, ///< two operands, only the right (▶)
        Partial, ///< more than two operands, present in some ("k of N")
    };

    /// The markers of a trial (cached on it; thread-safe). Empty for a trial without markers.
    static std::shared_ptr<const Presence> of(const Trial& trial);

    Presence() = default;
    /// Used by the algebra: per-event and per-thread masks, and per thread the cells whose mask
    /// differs from eventMask & threadMask, sorted by event id.
    Presence(std::size_t operands, std::vector<Mask> events, std::vector<Mask> threads,
        std::vector<std::vector<std::pair<EventId, Mask>>> exceptions);

    std::size_t operandCount() const { return m_operands; }
    bool isEmpty() const { return m_operands == 0; }
    /// The mask with a bit for every operand.
    Mask fullMask() const { return m_operands >= 64 ? ~Mask(0) : (Mask(1) << m_operands) - 1; }

    Mask eventMask(EventId e) const { return e.index() < m_events.size() ? m_events[e.index()] : 0; }
    Mask threadMask(ThreadIndex t) const { return t.index() < m_threads.size() ? m_threads[t.index()] : 0; }
    /// The cell's mask; 0 when the cell is absent from the trial.
    Mask cellMask(const Trial& trial, ThreadIndex t, EventId e) const;
    /// The mask of the cell at position i of thread t's row (no lookup of the event).
    Mask cellMaskAt(const Trial& trial, ThreadIndex t, std::size_t i) const;

    Marker marker(Mask mask) const;
    Marker eventMarker(EventId e) const { return marker(eventMask(e)); }
    /// "both", "◀", "▶" for two operands; "k of N" otherwise; "" for absent or without markers.
    QString label(Mask mask) const;
    static int count(Mask mask) { return std::popcount(mask); }

    std::size_t exceptionCount() const;
    const std::vector<std::pair<EventId, Mask>>& exceptions(ThreadIndex t) const { return m_exceptions[t.index()]; }

    /// Metadata keys and group names of the persisted form.
    static QString operandsKey() { return QStringLiteral("Parallax presence operands"); }
    static QString eventsKey() { return QStringLiteral("Parallax presence events"); }
    static QString threadKey() { return QStringLiteral("Parallax presence"); }
    static QString cellsKey() { return QStringLiteral("Parallax presence cells"); }
    /// The group that marks an event with this mask ("" when present everywhere).
    static QString groupFor(Mask mask, std::size_t operands);
    /// True for the groups and metadata keys above (an operation drops its operands' markers).
    static bool isPresenceGroup(const QString& group);
    static bool isPresenceKey(const QString& key);

    /// Writes the persisted form into a builder whose events are `eventNames` (by id) and whose
    /// threads are in index order. Groups are not added here (the caller adds groupFor()).
    void encode(TrialBuilder& builder, const std::vector<QString>& eventNames) const;
    /// Reads the persisted form back (used by of()).
    static std::shared_ptr<const Presence> decode(const Trial& trial);

private:
    std::size_t m_operands = 0;
    std::vector<Mask> m_events;
    std::vector<Mask> m_threads;
    std::vector<std::vector<std::pair<EventId, Mask>>> m_exceptions;
};

} // namespace parallax
