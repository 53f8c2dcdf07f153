// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/matching.h"

#include "algebra/enumnames.h"
#include "datasource/model/names.h"

#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <map>

namespace parallax {

namespace {

QString canonicalOf(const QString& text) { return QString::fromStdString(names::canonical(text.toStdString())); }

/// Removes parameter blocks "[ <p> = <v> ... ]" (TAU parameter profiling).
QString withoutParameterBlocks(QString s)
{
    qsizetype from = 0;
    while (true) {
        const qsizetype open = s.indexOf(QLatin1Char('['), from);
        if (open < 0)
            break;
        qsizetype k = open + 1;
        while (k < s.size() && s.at(k).isSpace())
            ++k;
        if (k >= s.size() || s.at(k) != QLatin1Char('<')) {
            from = open + 1;
            continue;
        }
        const qsizetype close = s.indexOf(QLatin1Char(']'), k);
        if (close < 0)
            break;
        s.remove(open, close + 1 - open);
        from = open;
    }
    return s.simplified();
}

/// "int foo(int) C" -> "int foo(int)": a single word after the last ')' is a language tag.
QString withoutLanguageTag(const QString& s)
{
    const qsizetype close = s.lastIndexOf(QLatin1Char(')'));
    if (close < 0)
        return s;
    const QString tail = s.mid(close + 1).trimmed();
    if (tail.isEmpty() || tail.contains(QLatin1Char(' ')))
        return s;
    return s.left(close + 1);
}

/// "int ns::foo<int, 2>(int, char **)" -> "ns::foo<int, 2>": the identifier before the argument list.
QString routineIdentifier(const QString& s)
{
    if (!s.endsWith(QLatin1Char(')')))
        return s;
    int depth = 0;
    qsizetype open = -1;
    for (qsizetype i = s.size() - 1; i >= 0; --i) {
        if (s.at(i) == QLatin1Char(')'))
            ++depth;
        else if (s.at(i) == QLatin1Char('(') && --depth == 0) {
            open = i;
            break;
        }
    }
    if (open <= 0)
        return s;
    const QString before = s.left(open).trimmed();
    if (before.isEmpty())
        return s;
    // Walk back over the identifier; spaces inside template brackets belong to it.
    int angle = 0;
    qsizetype start = before.size();
    while (start > 0) {
        const QChar c = before.at(start - 1);
        if (c == QLatin1Char('>'))
            ++angle;
        else if (c == QLatin1Char('<') && angle > 0)
            --angle;
        else if (c.isSpace() && angle == 0)
            break;
        --start;
    }
    if (angle != 0) // unbalanced (e.g. "operator>"): the last word
        start = before.lastIndexOf(QLatin1Char(' ')) + 1;
    QString id = before.mid(start);
    while (!id.isEmpty() && (id.front() == QLatin1Char('*') || id.front() == QLatin1Char('&')))
        id.remove(0, 1);
    return id.isEmpty() ? s : id;
}

bool keptVerbatim(const QString& component)
{
    return component.startsWith(QLatin1Char('.')) || component.startsWith(QLatin1Char('['))
        || component.contains(QLatin1String("openmp"), Qt::CaseInsensitive);
}

/// The policy `table` names `name` (any case, '-' for '_').
template <typename Policy, std::size_t N>
std::optional<Policy> policyFromName(const std::array<EnumName<Policy>, N>& table, QStringView name)
{
    QString n = name.toString();
    n.replace(QLatin1Char('-'), QLatin1Char('_'));
    return enumFromName(table, n, Qt::CaseInsensitive);
}

constexpr auto eventMatchPolicyNames = std::to_array<EnumName<EventMatchPolicy>>({ { EventMatchPolicy::Exact, "EXACT" },
    { EventMatchPolicy::NoSource, "NO_SOURCE" }, { EventMatchPolicy::Routine, "ROUTINE" } });

constexpr auto threadSetRelationNames = std::to_array<EnumName<ThreadSetRelation>>(
    { { ThreadSetRelation::Identical, "IDENTICAL" }, { ThreadSetRelation::Subset, "SUBSET" },
        { ThreadSetRelation::Overlap, "OVERLAP" }, { ThreadSetRelation::Disjoint, "DISJOINT" } });

constexpr auto threadPolicyNames = std::to_array<EnumName<ThreadPolicy>>({ { ThreadPolicy::Strict, "STRICT" },
    { ThreadPolicy::UnionByKey, "UNION_BY_KEY" }, { ThreadPolicy::CollapseProcess, "COLLAPSE_PROCESS" },
    { ThreadPolicy::CollapseAll, "COLLAPSE_ALL" }, { ThreadPolicy::MapByOrder, "MAP_BY_ORDER" } });

QString keyString(const ThreadKey& k) { return QStringLiteral("(%1,%2,%3)").arg(k.node).arg(k.context).arg(k.thread); }

} // namespace

QString eventMatchPolicyName(EventMatchPolicy policy) { return enumName(eventMatchPolicyNames, policy); }

std::optional<EventMatchPolicy> eventMatchPolicyFromName(QStringView name)
{
    return policyFromName(eventMatchPolicyNames, name);
}

QString EventMatching::toString() const
{
    QString s = eventMatchPolicyName(policy);
    if (!rename.isEmpty()) {
        QStringList pairs;
        for (auto it = rename.cbegin(); it != rename.cend(); ++it)
            pairs << it.key() + QStringLiteral("->") + it.value();
        pairs.sort();
        s += QStringLiteral("+RENAME{") + pairs.join(QLatin1Char(',')) + QLatin1Char('}');
    }
    return s;
}

QString matchComponent(const QString& component, EventMatchPolicy policy)
{
    if (policy == EventMatchPolicy::Exact)
        return component;
    if (policy == EventMatchPolicy::Routine && keptVerbatim(component))
        return component;
    QString s = QString::fromStdString(names::withoutSourceLocation(component.toStdString()));
    if (policy == EventMatchPolicy::Routine)
        s = routineIdentifier(withoutLanguageTag(withoutParameterBlocks(s)));
    s = s.simplified();
    return s.isEmpty() ? component : s;
}

QString matchKey(const QString& canonicalName, const EventMatching& matching)
{
    if (matching.policy == EventMatchPolicy::Exact && matching.rename.isEmpty())
        return canonicalName;
    const std::string name = canonicalName.toStdString(); // the components are views into it
    const auto parts = names::callPathComponents(name);
    QStringList out;
    out.reserve(static_cast<qsizetype>(parts.size()));
    for (const auto part : parts) {
        QString c
            = matchComponent(QString::fromUtf8(part.data(), static_cast<qsizetype>(part.size())), matching.policy);
        const auto renamed = matching.rename.constFind(c);
        if (renamed != matching.rename.cend())
            c = renamed.value();
        out << c;
    }
    return canonicalOf(out.join(QLatin1String(" => ")));
}

bool isDroppedByRoutine(const Trial& trial, EventId e)
{
    static const QString param = QStringLiteral("TAU_PARAM");
    if (trial.eventInGroup(e, param))
        return true;
    const EventId leaf = trial.event(e).leaf;
    return leaf.isValid() && leaf != e && trial.eventInGroup(leaf, param);
}

EventMatch matchEvents(
    const std::vector<const Trial*>& operands, const EventMatching& matching, const std::vector<bool>& include)
{
    EventMatch result;
    result.map.resize(operands.size());
    QHash<QString, std::uint32_t> index;
    const bool exact = matching.policy == EventMatchPolicy::Exact && matching.rename.isEmpty();
    for (std::size_t i = 0; i < operands.size(); ++i) {
        const Trial& trial = *operands[i];
        auto& map = result.map[i];
        map.assign(trial.eventCount(), EventMatch::Dropped);
        if (!include.empty() && !include[i])
            continue;
        // Collisions are only possible when names are transformed.
        std::map<std::uint32_t, QStringList> sources;
        for (std::size_t e = 0; e < trial.eventCount(); ++e) {
            const IntervalEvent& event = trial.event(EventId(e));
            if (matching.policy == EventMatchPolicy::Routine && isDroppedByRoutine(trial, EventId(e))) {
                ++result.dropped;
                continue;
            }
            const QString key = exact ? event.name : matchKey(event.name, matching);
            auto it = index.constFind(key);
            std::uint32_t r;
            if (it == index.cend()) {
                r = static_cast<std::uint32_t>(result.keys.size());
                index.insert(key, r);
                result.keys.push_back(key);
                result.rawNames.push_back(exact ? (event.rawName.isEmpty() ? event.name : event.rawName) : key);
            } else {
                r = it.value();
            }
            map[e] = r;
            if (!exact)
                sources[r].append(event.name);
        }
        for (const auto& [r, names] : sources)
            if (names.size() > 1)
                result.collisions << QStringLiteral("operand %1 '%2': %3 <= %4")
                                         .arg(i + 1)
                                         .arg(trial.name(), result.keys[r], names.join(QLatin1String(" | ")));
    }
    return result;
}

QString threadSetRelationName(ThreadSetRelation relation) { return enumName(threadSetRelationNames, relation); }

QString threadPolicyName(ThreadPolicy policy) { return enumName(threadPolicyNames, policy); }

std::optional<ThreadPolicy> threadPolicyFromName(QStringView name) { return policyFromName(threadPolicyNames, name); }

ThreadSetRelation classifyThreadSets(const std::vector<std::vector<ThreadKey>>& sets)
{
    if (sets.size() <= 1)
        return ThreadSetRelation::Identical;
    if (std::all_of(sets.begin() + 1, sets.end(), [&](const auto& s) { return s == sets.front(); }))
        return ThreadSetRelation::Identical;
    for (const auto& candidate : sets) {
        const bool containsAll = std::all_of(sets.begin(), sets.end(),
            [&](const auto& s) { return std::includes(candidate.begin(), candidate.end(), s.begin(), s.end()); });
        if (containsAll)
            return ThreadSetRelation::Subset;
    }
    for (std::size_t a = 0; a < sets.size(); ++a)
        for (std::size_t b = a + 1; b < sets.size(); ++b) {
            auto x = sets[a].begin(), y = sets[b].begin();
            while (x != sets[a].end() && y != sets[b].end()) {
                if (*x == *y)
                    return ThreadSetRelation::Overlap;
                if (*x < *y)
                    ++x;
                else
                    ++y;
            }
        }
    return ThreadSetRelation::Disjoint;
}

bool ThreadMapping::isIdentity(std::size_t operand, const Trial& trial) const
{
    const auto& m = map[operand];
    for (std::size_t s = 0; s < m.size(); ++s)
        if (threads[m[s]] != trial.threadKey(ThreadIndex(s)))
            return false;
    return true;
}

QStringList ThreadMapping::describe(const std::vector<const Trial*>& operands, std::size_t maxPairs) const
{
    QStringList out;
    out << QStringLiteral("thread_relation=") + threadSetRelationName(relation);
    out << QStringLiteral("thread_policy=")
            + (applied == ThreadPolicy::Strict ? QStringLiteral("BY_KEY") : threadPolicyName(applied));
    for (std::size_t i = 0; i < operands.size() && i < map.size(); ++i) {
        if (isIdentity(i, *operands[i]))
            continue;
        QStringList pairs;
        const auto& m = map[i];
        for (std::size_t s = 0; s < m.size() && s < maxPairs; ++s)
            pairs << keyString(operands[i]->threadKey(ThreadIndex(s))) + QStringLiteral("->")
                    + keyString(threads[m[s]]);
        QString line = QStringLiteral("thread_map[%1]=").arg(i + 1) + pairs.join(QLatin1Char(';'));
        if (m.size() > maxPairs)
            line += QStringLiteral(";...(+%1 more, by the policy's rule)").arg(m.size() - maxPairs);
        out << line;
    }
    return out;
}

namespace {

/// Unites the given per-operand key lists (each sorted, duplicates allowed after a collapse) by
/// key; map[i][s] indexes the sorted union. Linear: merges and walks instead of searching.
ThreadMapping uniteByKey(const std::vector<std::vector<ThreadKey>>& keysPerOperand)
{
    ThreadMapping m;
    for (const auto& keys : keysPerOperand) {
        std::vector<ThreadKey> merged;
        merged.reserve(m.threads.size() + keys.size());
        std::set_union(m.threads.begin(), m.threads.end(), keys.begin(), keys.end(), std::back_inserter(merged));
        merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
        m.threads = std::move(merged);
    }
    m.map.resize(keysPerOperand.size());
    for (std::size_t i = 0; i < keysPerOperand.size(); ++i) {
        const auto& keys = keysPerOperand[i];
        m.map[i].resize(keys.size());
        std::size_t r = 0;
        for (std::size_t s = 0; s < keys.size(); ++s) {
            while (m.threads[r] < keys[s])
                ++r;
            m.map[i][s] = static_cast<std::uint32_t>(r);
        }
    }
    return m;
}

std::vector<ThreadKey> sortedUnique(std::vector<ThreadKey> keys)
{
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
}

QString relationError(ThreadSetRelation relation, const std::vector<const Trial*>& operands, const QString& when)
{
    QStringList sizes;
    for (const Trial* t : operands)
        sizes << QStringLiteral("'%1' has %2").arg(t->name()).arg(t->threadCount());
    return QStringLiteral("the thread sets of the operands are %1%2 (%3 threads); choose a thread policy: "
                          "UNION_BY_KEY, COLLAPSE_PROCESS, COLLAPSE_ALL or MAP_BY_ORDER")
        .arg(relation == ThreadSetRelation::Overlap ? QStringLiteral("overlapping") : QStringLiteral("disjoint"), when,
            sizes.join(QLatin1String(", ")));
}

} // namespace

std::optional<ThreadMapping> mapThreads(
    const std::vector<const Trial*>& operands, ThreadPolicy policy, QString* error, bool force)
{
    std::vector<std::vector<ThreadKey>> sets;
    sets.reserve(operands.size());
    for (const Trial* t : operands)
        sets.push_back(t->threads()); // sorted by TrialBuilder
    const ThreadSetRelation relation = classifyThreadSets(sets);
    const bool agree = relation == ThreadSetRelation::Identical || relation == ThreadSetRelation::Subset;
    if (agree && !(force && policy != ThreadPolicy::Strict && policy != ThreadPolicy::UnionByKey)) {
        ThreadMapping m = uniteByKey(sets);
        m.relation = relation;
        return m;
    }
    switch (policy) {
    case ThreadPolicy::Strict:
        if (error)
            *error = relationError(relation, operands, QString());
        return std::nullopt;
    case ThreadPolicy::UnionByKey: {
        ThreadMapping m = uniteByKey(sets);
        m.relation = relation;
        m.applied = policy;
        return m;
    }
    case ThreadPolicy::CollapseProcess: {
        std::vector<std::vector<ThreadKey>> collapsed = sets;
        for (auto& keys : collapsed)
            for (auto& k : keys)
                k.thread = 0;
        std::vector<std::vector<ThreadKey>> unique;
        unique.reserve(collapsed.size());
        for (const auto& keys : collapsed)
            unique.push_back(sortedUnique(keys));
        const ThreadSetRelation again = classifyThreadSets(unique);
        if (again == ThreadSetRelation::Overlap || again == ThreadSetRelation::Disjoint) {
            if (error)
                *error = relationError(again, operands, QStringLiteral(" even after COLLAPSE_PROCESS"));
            return std::nullopt;
        }
        ThreadMapping m = uniteByKey(collapsed);
        m.relation = relation;
        m.applied = policy;
        return m;
    }
    case ThreadPolicy::CollapseAll: {
        ThreadMapping m;
        m.relation = relation;
        m.applied = policy;
        m.threads = { ThreadKey { 0, 0, 0 } };
        m.map.resize(operands.size());
        for (std::size_t i = 0; i < operands.size(); ++i)
            m.map[i].assign(operands[i]->threadCount(), 0u);
        return m;
    }
    case ThreadPolicy::MapByOrder: {
        std::size_t reference = 0;
        for (std::size_t i = 1; i < operands.size(); ++i)
            if (sets[i].size() > sets[reference].size())
                reference = i;
        ThreadMapping m;
        m.relation = relation;
        m.applied = policy;
        m.threads = sets[reference];
        m.map.resize(operands.size());
        for (std::size_t i = 0; i < operands.size(); ++i) {
            m.map[i].resize(sets[i].size());
            for (std::size_t s = 0; s < sets[i].size(); ++s)
                m.map[i][s] = static_cast<std::uint32_t>(s);
        }
        return m;
    }
    }
    return std::nullopt;
}

} // namespace parallax
