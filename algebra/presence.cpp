// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/presence.h"

#include "datasource/model/trialbuilder.h"

#include <algorithm>

namespace parallax {

namespace {

QString hex(Presence::Mask m) { return QString::number(m, 16); }

/// Parses lines "<hex>\t<name>" into (event id, mask); unknown names are skipped.
std::vector<std::pair<EventId, Presence::Mask>> parseLines(const Trial& trial, const QString& text)
{
    std::vector<std::pair<EventId, Presence::Mask>> out;
    const auto lines = QStringView(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const auto line : lines) {
        const qsizetype tab = line.indexOf(QLatin1Char('\t'));
        if (tab <= 0)
            continue;
        bool ok = false;
        const Presence::Mask mask = line.left(tab).toULongLong(&ok, 16);
        const EventId e = trial.findEvent(line.mid(tab + 1).toString());
        if (ok && e.isValid())
            out.emplace_back(e, mask);
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

Presence::Presence(std::size_t operands, std::vector<Mask> events, std::vector<Mask> threads,
    std::vector<std::vector<std::pair<EventId, Mask>>> exceptions)
    : m_operands(operands)
    , m_events(std::move(events))
    , m_threads(std::move(threads))
    , m_exceptions(std::move(exceptions))
{
    m_exceptions.resize(m_threads.size());
}

std::shared_ptr<const Presence> Presence::of(const Trial& trial)
{
    return trial.cached<Presence>([](const Trial& t) { return decode(t); });
}

Presence::Mask Presence::cellMaskAt(const Trial& trial, ThreadIndex t, std::size_t i) const
{
    if (m_operands == 0)
        return 0;
    const EventId e = trial.row(t).events[i];
    const auto& ex = m_exceptions[t.index()];
    if (!ex.empty()) {
        const auto it = std::lower_bound(ex.begin(), ex.end(), std::pair<EventId, Mask>(e, 0));
        if (it != ex.end() && it->first == e)
            return it->second;
    }
    return eventMask(e) & threadMask(t);
}

Presence::Mask Presence::cellMask(const Trial& trial, ThreadIndex t, EventId e) const
{
    if (m_operands == 0 || !t.isValid() || t.index() >= trial.threadCount())
        return 0;
    const auto i = trial.row(t).find(e);
    return i < 0 ? 0 : cellMaskAt(trial, t, static_cast<std::size_t>(i));
}

Presence::Marker Presence::marker(Mask mask) const
{
    if (mask == 0 || m_operands == 0)
        return Marker::Absent;
    if (mask == fullMask())
        return Marker::All;
    if (m_operands == 2)
        return mask == 1 ? Marker::LeftOnly : Marker::RightOnly;
    return Marker::Partial;
}

QString Presence::label(Mask mask) const
{
    switch (marker(mask)) {
    case Marker::Absent:
        return {};
    case Marker::All:
        return m_operands == 2 ? QStringLiteral("both") : QStringLiteral("%1 of %1").arg(m_operands);
    case Marker::LeftOnly:
        return QStringLiteral("\u25C0");
    case Marker::RightOnly:
        return QStringLiteral("\u25B6");
    case Marker::Partial:
        return QStringLiteral("%1 of %2").arg(count(mask)).arg(m_operands);
    }
    return {};
}

std::size_t Presence::exceptionCount() const
{
    std::size_t n = 0;
    for (const auto& ex : m_exceptions)
        n += ex.size();
    return n;
}

QString Presence::groupFor(Mask mask, std::size_t operands)
{
    const Mask full = operands >= 64 ? ~Mask(0) : (Mask(1) << operands) - 1;
    if (operands < 2 || mask == full || mask == 0)
        return {};
    if (operands == 2)
        return mask == 1 ? QStringLiteral("PARALLAX_LEFT_ONLY") : QStringLiteral("PARALLAX_RIGHT_ONLY");
    return QStringLiteral("PARALLAX_PARTIAL");
}

bool Presence::isPresenceGroup(const QString& group)
{
    return group == QLatin1String("PARALLAX_LEFT_ONLY") || group == QLatin1String("PARALLAX_RIGHT_ONLY")
        || group == QLatin1String("PARALLAX_PARTIAL");
}

bool Presence::isPresenceKey(const QString& key)
{
    return key == operandsKey() || key == eventsKey() || key == threadKey() || key == cellsKey();
}

void Presence::encode(TrialBuilder& builder, const std::vector<QString>& eventNames) const
{
    if (m_operands < 2)
        return;
    const Mask full = fullMask();
    builder.addMetadata(operandsKey(), QString::number(m_operands));
    QString events;
    for (std::size_t e = 0; e < m_events.size() && e < eventNames.size(); ++e)
        if (m_events[e] != full)
            events += hex(m_events[e]) + QLatin1Char('\t') + eventNames[e] + QLatin1Char('\n');
    if (!events.isEmpty())
        builder.addMetadata(eventsKey(), events);
    // Per-thread keys go on every thread (forced per-thread), so that no reader's "common to all
    // threads" rule can turn one thread's value into a trial-wide one.
    const bool threadsDiffer = std::any_of(m_threads.begin(), m_threads.end(), [&](Mask m) { return m != full; });
    const bool anyExceptions = exceptionCount() > 0;
    for (std::size_t t = 0; t < m_threads.size(); ++t) {
        if (threadsDiffer)
            builder.addThreadMetadata(ThreadIndex(t), threadKey(), hex(m_threads[t]), true);
        if (anyExceptions) {
            QString cells;
            for (const auto& [e, mask] : m_exceptions[t])
                cells += hex(mask) + QLatin1Char('\t') + eventNames[e.index()] + QLatin1Char('\n');
            builder.addThreadMetadata(ThreadIndex(t), cellsKey(), cells, true);
        }
    }
}

std::shared_ptr<const Presence> Presence::decode(const Trial& trial)
{
    bool ok = false;
    const std::size_t operands = trial.metadataValue(operandsKey()).toULongLong(&ok);
    if (!ok || operands < 2 || operands > MaxOperands)
        return std::make_shared<const Presence>();
    const Mask full = operands >= 64 ? ~Mask(0) : (Mask(1) << operands) - 1;
    std::vector<Mask> events(trial.eventCount(), full);
    for (const auto& [e, mask] : parseLines(trial, trial.metadataValue(eventsKey())))
        events[e.index()] = mask;
    std::vector<Mask> threads(trial.threadCount(), full);
    std::vector<std::vector<std::pair<EventId, Mask>>> exceptions(trial.threadCount());
    for (std::size_t t = 0; t < trial.threadCount(); ++t) {
        const QString m = trial.metadataValue(threadKey(), ThreadIndex(t));
        if (!m.isEmpty()) {
            const Mask mask = m.toULongLong(&ok, 16);
            if (ok)
                threads[t] = mask;
        }
        const QString cells = trial.metadataValue(cellsKey(), ThreadIndex(t));
        if (!cells.isEmpty())
            exceptions[t] = parseLines(trial, cells);
    }
    return std::make_shared<const Presence>(operands, std::move(events), std::move(threads), std::move(exceptions));
}

} // namespace parallax
