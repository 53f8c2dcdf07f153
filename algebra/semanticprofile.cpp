// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/semanticprofile.h"

#include "algebra/enumnames.h"
#include "algebra/parallelfor.h"

#include <QHash>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace parallax::semantic {

namespace {

constexpr auto classificationNames = std::to_array<EnumName<Classification>>(
    { { Classification::OneToOne, "one-to-one" }, { Classification::OneToMany, "one-to-many" },
        { Classification::ManyToOne, "many-to-one" }, { Classification::ManyToMany, "many-to-many" } });

constexpr auto classificationShorts = std::to_array<EnumName<Classification>>(
    { { Classification::OneToOne, "1:1" }, { Classification::OneToMany, "1:n" }, { Classification::ManyToOne, "n:1" },
        { Classification::ManyToMany, "n:m" } });

} // namespace

QString classificationName(Classification c) { return enumName(classificationNames, c); }

QString classificationShort(Classification c) { return enumName(classificationShorts, c); }

SemanticProfile::SemanticProfile(const Model& model, TrialPtr trial)
    : m_model(model)
    , m_trial(std::move(trial))
{
}

int SemanticProfile::findEntity(const QString& id) const
{
    for (std::size_t r = 0; r < m_entities.size(); ++r)
        if (m_entities[r].id == id)
            return static_cast<int>(r);
    return -1;
}

std::vector<int> SemanticProfile::edgesOf(EventId e) const
{
    std::vector<int> out;
    if (e.index() + 1 >= m_edgeStart.size())
        return out;
    for (int i = m_edgeStart[e.index()]; i < m_edgeStart[e.index() + 1]; ++i)
        out.push_back(i);
    return out;
}

double SemanticProfile::value(int r, ThreadIndex t, MetricId m, Quantity q) const
{
    switch (q) {
    case Quantity::Own:
        return own(r, t, m);
    case Quantity::Roll:
        return roll(r, t, m);
    case Quantity::Calls:
        return calls(r, t);
    case Quantity::Subroutines:
        return subroutines(r, t);
    case Quantity::Inclusive:
        return inclusive(r, t, m);
    }
    return 0;
}

Stat SemanticProfile::stat(int r, MetricId m, Quantity q) const
{
    Stat s;
    const std::size_t n = m_threads;
    if (q == Quantity::Inclusive && !inclusiveDerivable(r)) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        s.total = s.meanAll = s.meanPresent = s.min = s.max = s.sdAll = s.sdPresent = nan;
        return s;
    }
    double sum = 0;
    std::size_t present = 0;
    for (std::size_t t = 0; t < n; ++t) {
        const ThreadIndex ti(t);
        const bool here
            = q == Quantity::Roll || q == Quantity::Inclusive ? subtreePresent(r, ti) : this->present(r, ti);
        if (!here)
            continue;
        const double v = value(r, ti, m, q);
        sum += v;
        if (present == 0 || v < s.min) {
            s.min = v;
            s.minThread = ti;
        }
        if (present == 0 || v > s.max) {
            s.max = v;
            s.maxThread = ti;
        }
        ++present;
    }
    s.total = sum;
    s.present = present;
    s.meanAll = n ? sum / static_cast<double>(n) : 0;
    s.meanPresent = present ? sum / static_cast<double>(present) : 0;
    double sqAll = 0, sqPresent = 0;
    for (std::size_t t = 0; t < n; ++t) {
        const ThreadIndex ti(t);
        const bool here
            = q == Quantity::Roll || q == Quantity::Inclusive ? subtreePresent(r, ti) : this->present(r, ti);
        const double v = here ? value(r, ti, m, q) : 0;
        sqAll += (v - s.meanAll) * (v - s.meanAll);
        if (here)
            sqPresent += (v - s.meanPresent) * (v - s.meanPresent);
    }
    s.sdAll = n > 1 ? std::sqrt(sqAll / static_cast<double>(n)) : 0;
    s.sdPresent = present > 1 ? std::sqrt(sqPresent / static_cast<double>(present)) : 0;
    return s;
}

double SemanticProfile::scoped(int r, MetricId m, Quantity q, const Scope& scope) const
{
    if (scope.kind == Scope::Kind::Thread)
        return value(r, scope.thread, m, q);
    if (q == Quantity::Inclusive && !inclusiveDerivable(r))
        return std::numeric_limits<double>::quiet_NaN();
    double sum = 0;
    for (std::size_t t = 0; t < m_threads; ++t)
        sum += value(r, ThreadIndex(t), m, q);
    if (scope.kind == Scope::Kind::Total)
        return sum;
    return m_threads ? sum / static_cast<double>(m_threads) : 0;
}

double SemanticProfile::percentOfTotal(int r, MetricId m, const Scope& scope) const
{
    double top = 0;
    if (scope.kind == Scope::Kind::Thread) {
        top = threadTop(scope.thread, m);
    } else {
        for (std::size_t t = 0; t < m_threads; ++t)
            top += threadTop(ThreadIndex(t), m);
    }
    const double v
        = scope.kind == Scope::Kind::Thread ? roll(r, scope.thread, m) : scoped(r, m, Quantity::Roll, Scope::total());
    return top != 0 ? 100.0 * v / top : std::numeric_limits<double>::quiet_NaN();
}

double SemanticProfile::percentOfParent(int r, MetricId m, const Scope& scope) const
{
    const int p = entity(r).parent;
    if (p < 0)
        return std::numeric_limits<double>::quiet_NaN();
    const Scope s = scope.kind == Scope::Kind::Thread ? scope : Scope::total();
    const double parent = scoped(p, m, Quantity::Roll, s);
    return parent != 0 ? 100.0 * scoped(r, m, Quantity::Roll, s) / parent : std::numeric_limits<double>::quiet_NaN();
}

double SemanticProfile::conservationError() const
{
    double worst = 0;
    auto rel = [](double a, double b) {
        const double scale = std::max({ std::abs(a), std::abs(b), 1e-300 });
        return std::abs(a - b) / scale;
    };
    for (std::size_t t = 0; t < m_threads; ++t) {
        const ThreadIndex ti(t);
        for (std::size_t m = 0; m < m_metrics; ++m) {
            double sum = 0;
            for (std::size_t r = 0; r < m_entities.size(); ++r)
                sum += own(static_cast<int>(r), ti, MetricId(m));
            if (sum != 0 || sourceTotal(ti, MetricId(m)) != 0)
                worst = std::max(worst, rel(sum, sourceTotal(ti, MetricId(m))));
        }
        double calls = 0, subrs = 0;
        for (std::size_t r = 0; r < m_entities.size(); ++r) {
            calls += this->calls(static_cast<int>(r), ti);
            subrs += subroutines(static_cast<int>(r), ti);
        }
        if (calls != 0 || sourceCalls(ti) != 0)
            worst = std::max(worst, rel(calls, sourceCalls(ti)));
        if (subrs != 0 || sourceSubroutines(ti) != 0)
            worst = std::max(worst, rel(subrs, sourceSubroutines(ti)));
    }
    return worst;
}

// ---- attribution --------------------------------------------------------------------------------

namespace {

/// Substitutes {0}..{9} (the match and its captures) and {{ / }} in a template string.
QString substitute(const QString& pattern, const QStringList& captures)
{
    QString out;
    out.reserve(pattern.size());
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const QChar c = pattern[i];
        if (c == QLatin1Char('{') && i + 1 < pattern.size() && pattern[i + 1] == QLatin1Char('{')) {
            out += QLatin1Char('{');
            ++i;
        } else if (c == QLatin1Char('}') && i + 1 < pattern.size() && pattern[i + 1] == QLatin1Char('}')) {
            out += QLatin1Char('}');
            ++i;
        } else if (c == QLatin1Char('{') && i + 2 < pattern.size() && pattern[i + 1].isDigit()
            && pattern[i + 2] == QLatin1Char('}')) {
            out += captures.value(pattern[i + 1].digitValue());
            i += 2;
        } else {
            out += c;
        }
    }
    return out;
}

/// A captured string that parses fully as a decimal number is a number (docs/SEMANTICS.md 5.2).
AttrValue templateValue(const QString& text)
{
    static const QRegularExpression decimal(QStringLiteral("^[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?$"));
    if (decimal.match(text).hasMatch()) {
        bool ok = false;
        const double v = text.toDouble(&ok);
        if (ok)
            return AttrValue::fromNumber(v);
    }
    return AttrValue::fromString(text);
}

struct Match {
    int association = -1;
    QStringList captures;
};

} // namespace

class Attributor {
public:
    Attributor(const Model& model, TrialPtr trial, const AttributeOptions& options)
        : m_profile(std::make_shared<SemanticProfile>(model, std::move(trial)))
        , m_options(options)
        , m_model(m_profile->m_model)
        , m_trial(*m_profile->m_trial)
    {
    }

    std::variant<ProfilePtr, AttributionError> run()
    {
        if (auto error = validateModel(m_model))
            return AttributionError { error->toString() };
        declareEntities();
        chooseSourceEvents();
        if (!matchEvents())
            return AttributionError { m_error };
        if (!resolveHierarchy())
            return AttributionError { m_error };
        classify();
        addWarnings();
        computeValues();
        return std::shared_ptr<const SemanticProfile>(m_profile);
    }

private:
    using Origin = ResolvedEntity::Origin;

    bool fail(const QString& message)
    {
        if (m_error.isEmpty())
            m_error = message;
        return false;
    }

    int addEntity(ResolvedEntity e, const QString& parentId)
    {
        const int index = static_cast<int>(m_profile->m_entities.size());
        m_index.insert(e.id, index);
        m_profile->m_entities.push_back(std::move(e));
        m_parentIds.push_back(parentId);
        return index;
    }

    void declareEntities()
    {
        for (const Entity& d : m_model.entities) {
            ResolvedEntity e;
            e.id = d.id;
            e.kind = d.kind;
            e.name = d.name.isEmpty() ? d.id : d.name;
            e.origin = Origin::Declared;
            for (auto it = d.attrs.cbegin(); it != d.attrs.cend(); ++it)
                e.attrs.insert(it.key(), resolveAttr(it.value(), d.id, it.key()));
            addEntity(std::move(e), d.parent);
        }
    }

    AttrValue resolveAttr(const AttrValue& v, const QString& entity, const QString& key)
    {
        if (v.kind != AttrValue::Kind::Metadata)
            return v;
        const QString value = m_trial.metadataValue(v.text);
        if (value.isNull()) {
            m_unresolved.insert(entity + QLatin1Char('\n') + key, v.text);
            return v; // stays a reference; a WEIGHTED weight on it is an error
        }
        return templateValue(value.trimmed());
    }

    void chooseSourceEvents()
    {
        const auto& events = m_trial.events();
        std::vector<char> isLeafOfPath(events.size(), 0);
        bool anyPath = false;
        for (const IntervalEvent& e : events) {
            if (e.isCallPath()) {
                anyPath = true;
                if (e.leaf.isValid())
                    isLeafOfPath[e.leaf.index()] = 1;
            }
        }
        for (std::size_t i = 0; i < events.size(); ++i) {
            const IntervalEvent& e = events[i];
            bool take = false;
            if (m_model.source == SourceSet::Flat)
                take = !e.isCallPath();
            else // every call path, and the flat events no path ends in (the roots)
                take = e.isCallPath() || !anyPath || !isLeafOfPath[i];
            if (take)
                m_profile->m_sourceEvents.push_back(EventId(i));
        }
    }

    /// The matches of one association for an event (captures[0] = the whole match).
    bool matches(const Association& a, EventId id, const QString& subject, const QString& path,
        const QString& parentComponent, QStringList& captures) const
    {
        switch (a.select.kind) {
        case SelectorKind::Exact:
            if (subject != a.select.value)
                return false;
            captures = { subject };
            return true;
        case SelectorKind::Regex:
        case SelectorKind::PathRegex: {
            const QRegularExpressionMatch m
                = a.select.regex.match(a.select.kind == SelectorKind::Regex ? subject : path);
            if (!m.hasMatch())
                return false;
            captures = m.capturedTexts();
            return true;
        }
        case SelectorKind::Group: {
            const IntervalEvent& e = m_trial.event(id);
            bool in = m_trial.eventInGroup(id, a.select.value);
            if (!in && e.leaf.isValid() && e.leaf != id)
                in = m_trial.eventInGroup(e.leaf, a.select.value);
            if (!in)
                return false;
            captures = { subject };
            return true;
        }
        case SelectorKind::CallPathParent:
            if (parentComponent.isEmpty() || parentComponent != a.select.value)
                return false;
            captures = { subject };
            return true;
        }
        return false;
    }

    bool matchEvents()
    {
        const auto& associations = m_model.associations;
        m_profile->m_reports.assign(associations.size(), AssociationReport {});
        m_matchedAny.assign(associations.size(), 0);
        QHash<QString, std::vector<int>> exact;
        QHash<QString, std::vector<int>> group;
        std::vector<int> others;
        for (std::size_t i = 0; i < associations.size(); ++i) {
            const Association& a = associations[i];
            if (a.select.kind == SelectorKind::Exact)
                exact[a.select.value].push_back(static_cast<int>(i));
            else
                others.push_back(static_cast<int>(i));
        }
        (void)group;
        const std::size_t eventCount = m_trial.eventCount();
        std::vector<std::vector<Edge>> edgesByEvent(eventCount);
        m_inSource.assign(eventCount, 0);
        for (EventId id : m_profile->m_sourceEvents)
            m_inSource[id.index()] = 1;

        for (EventId id : m_profile->m_sourceEvents) {
            const QString& path = m_trial.event(id).name;
            QString subject = path, parentComponent;
            if (m_model.source == SourceSet::CallPath) {
                const qsizetype sep = path.lastIndexOf(QLatin1String(" => "));
                if (sep >= 0) {
                    subject = path.mid(sep + 4);
                    const QString before = path.left(sep);
                    const qsizetype sep2 = before.lastIndexOf(QLatin1String(" => "));
                    parentComponent = sep2 >= 0 ? before.mid(sep2 + 4) : before;
                }
            }
            std::vector<Match> found;
            QStringList captures;
            auto consider = [&](int ai) {
                if (matches(associations[static_cast<std::size_t>(ai)], id, subject, path, parentComponent, captures))
                    found.push_back({ ai, captures });
            };
            if (const auto it = exact.constFind(subject); it != exact.cend())
                for (int ai : *it)
                    consider(ai);
            for (int ai : others)
                consider(ai);
            std::sort(found.begin(), found.end(),
                [](const Match& x, const Match& y) { return x.association < y.association; });
            for (const Match& m : found)
                m_matchedAny[static_cast<std::size_t>(m.association)] = 1;
            if (found.empty()) {
                edgesByEvent[id.index()].push_back({ id, unmappedEntity(), 1.0, -1 });
                continue;
            }
            int best = std::numeric_limits<int>::min();
            for (const Match& m : found)
                best = std::max(best, associations[static_cast<std::size_t>(m.association)].priority);
            std::vector<const Match*> winners;
            for (const Match& m : found) {
                if (associations[static_cast<std::size_t>(m.association)].priority == best)
                    winners.push_back(&m);
                else
                    m_profile->m_reports[static_cast<std::size_t>(m.association)].shadowed.push_back(id);
            }
            if (winners.size() > 1) {
                QStringList ids;
                for (const Match* m : winners)
                    ids << associations[static_cast<std::size_t>(m->association)].id;
                return fail(
                    QStringLiteral("configuration error: event '%1' is matched by %2 associations of priority %3 (%4); "
                                   "give one of them a higher priority or narrow its selector")
                        .arg(path)
                        .arg(winners.size())
                        .arg(best)
                        .arg(ids.join(QStringLiteral(", "))));
            }
            const Match& win = *winners.front();
            const Association& a = associations[static_cast<std::size_t>(win.association)];
            m_profile->m_reports[static_cast<std::size_t>(win.association)].events.push_back(id);
            std::vector<Edge> edges;
            if (!edgesFor(a, win, id, edges))
                return false;
            edgesByEvent[id.index()] = std::move(edges);
        }
        // Flatten.
        auto& profile = *m_profile;
        profile.m_edgeStart.assign(eventCount + 1, 0);
        for (std::size_t e = 0; e < eventCount; ++e) {
            profile.m_edgeStart[e] = static_cast<int>(profile.m_edges.size());
            for (const Edge& edge : edgesByEvent[e]) {
                if (edge.association >= 0) {
                    auto& report = profile.m_reports[static_cast<std::size_t>(edge.association)];
                    report.edges.push_back(static_cast<int>(profile.m_edges.size()));
                    if (std::find(report.targets.begin(), report.targets.end(), edge.entity) == report.targets.end())
                        report.targets.push_back(edge.entity);
                    ResolvedEntity& target = profile.m_entities[static_cast<std::size_t>(edge.entity)];
                    const Policy p = m_model.associations[static_cast<std::size_t>(edge.association)].policy;
                    target.policies |= 1u << static_cast<unsigned>(p);
                    if (p == Policy::Amortize || p == Policy::Weighted)
                        target.estimate = true;
                }
                profile.m_edges.push_back(edge);
            }
        }
        profile.m_edgeStart[eventCount] = static_cast<int>(profile.m_edges.size());
        return true;
    }

    int unmappedEntity()
    {
        if (m_profile->m_unmapped < 0) {
            ResolvedEntity e;
            e.id = QStringLiteral("(unmapped)");
            e.kind = QStringLiteral("unmapped");
            e.name = QStringLiteral("(unmapped)");
            e.origin = Origin::Unmapped;
            m_profile->m_unmapped = addEntity(std::move(e), {});
        }
        return m_profile->m_unmapped;
    }

    bool instantiate(const Association& a, const QStringList& captures, EventId event, int& out)
    {
        const EntityTemplate& t = *a.target.entityTemplate;
        const QString id = substitute(t.id, captures);
        if (id.isEmpty())
            return fail(QStringLiteral("association '%1': its template gives an empty entity id for event '%2'")
                            .arg(a.id, m_trial.event(event).name));
        if (id == QLatin1String("(unmapped)"))
            return fail(QStringLiteral("association '%1': a template cannot create '(unmapped)'").arg(a.id));
        Attributes attrs;
        for (auto it = t.attrs.cbegin(); it != t.attrs.cend(); ++it)
            attrs.insert(it.key(), templateValue(substitute(it.value(), captures)));
        const auto found = m_index.constFind(id);
        if (found == m_index.cend()) {
            ResolvedEntity e;
            e.id = id;
            e.kind = substitute(t.kind, captures);
            e.name = t.name.isEmpty() ? id : substitute(t.name, captures);
            e.origin = Origin::Template;
            e.attrs = attrs;
            out = addEntity(std::move(e), substitute(t.parent, captures));
            return true;
        }
        out = found.value();
        ResolvedEntity& e = m_profile->m_entities[static_cast<std::size_t>(out)];
        if (e.origin == Origin::Unmapped || e.origin == Origin::Aggregate)
            return fail(QStringLiteral("association '%1': template id '%2' names a built-in entity").arg(a.id, id));
        for (auto it = attrs.cbegin(); it != attrs.cend(); ++it) {
            const auto have = e.attrs.constFind(it.key());
            if (have == e.attrs.cend())
                e.attrs.insert(it.key(), it.value());
            else if (!(have.value() == it.value()))
                return fail(QStringLiteral(
                    "association '%1': event '%2' gives entity '%3' attribute %4 = %5, but it already has %6")
                                .arg(a.id, m_trial.event(event).name, id, it.key(), it.value().toString(),
                                    have.value().toString()));
        }
        return true;
    }

    bool edgesFor(const Association& a, const Match& match, EventId event, std::vector<Edge>& edges)
    {
        const int ai = match.association;
        if (a.target.entityTemplate) {
            int r = -1;
            if (!instantiate(a, match.captures, event, r))
                return false;
            edges.push_back({ event, r, 1.0, ai });
            return true;
        }
        std::vector<int> targets;
        for (const QString& id : a.target.ids) {
            const auto it = m_index.constFind(id);
            if (it == m_index.cend())
                return fail(QStringLiteral("association '%1': target '%2' is not an entity").arg(a.id, id));
            if (std::find(targets.begin(), targets.end(), it.value()) == targets.end())
                targets.push_back(it.value());
        }
        switch (a.policy) {
        case Policy::Direct:
            if (targets.size() != 1)
                return fail(QStringLiteral("association '%1': DIRECT needs exactly one target, it has %2")
                                .arg(a.id)
                                .arg(targets.size()));
            edges.push_back({ event, targets.front(), 1.0, ai });
            return true;
        case Policy::Amortize:
            for (int r : targets)
                edges.push_back({ event, r, 1.0 / static_cast<double>(targets.size()), ai });
            return true;
        case Policy::Weighted: {
            std::vector<double> weights;
            double sum = 0;
            for (int r : targets) {
                const ResolvedEntity& e = m_profile->m_entities[static_cast<std::size_t>(r)];
                const auto it = e.attrs.constFind(a.weightAttr);
                if (it == e.attrs.cend())
                    return fail(QStringLiteral("association '%1': target '%2' has no weight attribute '%3'")
                                    .arg(a.id, e.id, a.weightAttr));
                if (it->kind == AttrValue::Kind::Metadata)
                    return fail(
                        QStringLiteral("association '%1': the weight of '%2' comes from trial metadata '%3', which "
                                       "this trial does not hold trial-wide%4. WEIGHTED with trial-specific weights "
                                       "is not linear: attribute each measured trial with its own weights and "
                                       "compare the semantic profiles")
                            .arg(a.id, e.id, it->text,
                                m_trial.isDerived() ? QStringLiteral(" (it is a derived trial: ")
                                        + m_trial.provenance().operation + QStringLiteral(")")
                                                    : QString()));
                if (it->kind != AttrValue::Kind::Number)
                    return fail(QStringLiteral("association '%1': weight '%2' of '%3' is not a number ('%4')")
                                    .arg(a.id, a.weightAttr, e.id, it->text));
                if (!(it->number >= 0) || !std::isfinite(it->number))
                    return fail(
                        QStringLiteral("association '%1': weight '%2' of '%3' is %4; weights must be finite and >= 0")
                            .arg(a.id, a.weightAttr, e.id)
                            .arg(it->number));
                weights.push_back(it->number);
                sum += it->number;
            }
            if (!(sum > 0))
                return fail(QStringLiteral("association '%1': the weights '%2' of its targets sum to 0")
                                .arg(a.id, a.weightAttr));
            for (std::size_t i = 0; i < targets.size(); ++i)
                edges.push_back({ event, targets[i], weights[i] / sum, ai });
            return true;
        }
        case Policy::Aggregate: {
            std::vector<int> members = targets;
            std::sort(members.begin(), members.end());
            QStringList ids;
            for (int r : members)
                ids << m_profile->m_entities[static_cast<std::size_t>(r)].id;
            const QString id = QStringLiteral("{") + ids.join(QStringLiteral(", ")) + QStringLiteral("}");
            int aggregate = -1;
            if (const auto it = m_index.constFind(id); it != m_index.cend()) {
                aggregate = it.value();
            } else {
                ResolvedEntity e;
                e.id = id;
                e.kind = QStringLiteral("aggregate");
                e.name = id;
                e.origin = Origin::Aggregate;
                e.members = members;
                // Under the members' common parent, if they share one.
                QString parent = m_parentIds[static_cast<std::size_t>(members.front())];
                for (int r : members)
                    if (m_parentIds[static_cast<std::size_t>(r)] != parent)
                        parent.clear();
                aggregate = addEntity(std::move(e), parent);
                for (int r : members)
                    m_profile->m_entities[static_cast<std::size_t>(r)].aggregatedMember = true;
            }
            edges.push_back({ event, aggregate, 1.0, ai });
            return true;
        }
        }
        return fail(QStringLiteral("association '%1': unknown policy").arg(a.id));
    }

    bool resolveHierarchy()
    {
        auto& entities = m_profile->m_entities;
        unmappedEntity(); // always there, so that conservation can be read off the rows
        m_parentIds.resize(entities.size());
        for (std::size_t r = 0; r < entities.size(); ++r) {
            const QString& parentId = m_parentIds[r];
            if (parentId.isEmpty())
                continue;
            const auto it = m_index.constFind(parentId);
            if (it == m_index.cend())
                return fail(
                    QStringLiteral("entity '%1' has parent '%2', which no entity declares or a template creates")
                        .arg(entities[r].id, parentId));
            entities[r].parent = it.value();
        }
        // Cycles (templates can make them) and the orders.
        for (std::size_t r = 0; r < entities.size(); ++r) {
            int p = entities[r].parent;
            for (std::size_t steps = 0; p >= 0; ++steps) {
                if (p == static_cast<int>(r) || steps > entities.size())
                    return fail(
                        QStringLiteral("entity '%1' is its own ancestor (hierarchy cycle)").arg(entities[r].id));
                p = entities[static_cast<std::size_t>(p)].parent;
            }
        }
        for (std::size_t r = 0; r < entities.size(); ++r) {
            if (entities[r].parent >= 0)
                entities[static_cast<std::size_t>(entities[r].parent)].children.push_back(static_cast<int>(r));
            else
                m_profile->m_roots.push_back(static_cast<int>(r));
        }
        // Post-order by an explicit stack.
        std::vector<std::pair<int, std::size_t>> stack;
        for (int root : m_profile->m_roots) {
            stack.emplace_back(root, 0);
            while (!stack.empty()) {
                auto& [r, next] = stack.back();
                const auto& kids = entities[static_cast<std::size_t>(r)].children;
                if (next < kids.size()) {
                    const int child = kids[next++];
                    stack.emplace_back(child, 0);
                } else {
                    m_profile->m_postOrder.push_back(r);
                    stack.pop_back();
                }
            }
        }
        return true;
    }

    void classify()
    {
        auto& profile = *m_profile;
        const std::size_t eventCount = m_trial.eventCount();
        const std::size_t nodes = eventCount + profile.m_entities.size();
        std::vector<std::size_t> parent(nodes);
        std::iota(parent.begin(), parent.end(), 0);
        auto find = [&](std::size_t x) {
            while (parent[x] != x) {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            return x;
        };
        auto unite = [&](std::size_t a, std::size_t b) { parent[find(a)] = find(b); };
        std::vector<char> used(nodes, 0);
        for (const Edge& e : profile.m_edges) {
            if (e.association < 0)
                continue; // (unmapped) is not part of the mapping
            const std::size_t ev = e.event.index();
            used[ev] = 1;
            const ResolvedEntity& target = profile.m_entities[static_cast<std::size_t>(e.entity)];
            if (target.isAggregate()) {
                for (int m : target.members) {
                    unite(ev, eventCount + static_cast<std::size_t>(m));
                    used[eventCount + static_cast<std::size_t>(m)] = 1;
                }
            } else {
                unite(ev, eventCount + static_cast<std::size_t>(e.entity));
                used[eventCount + static_cast<std::size_t>(e.entity)] = 1;
            }
        }
        std::map<std::size_t, int> componentOfRoot;
        for (std::size_t x = 0; x < nodes; ++x) {
            if (!used[x])
                continue;
            const std::size_t root = find(x);
            auto [it, inserted] = componentOfRoot.emplace(root, static_cast<int>(profile.m_components.size()));
            if (inserted)
                profile.m_components.emplace_back();
            Component& c = profile.m_components[static_cast<std::size_t>(it->second)];
            if (x < eventCount) {
                c.events.push_back(EventId(x));
            } else {
                c.entities.push_back(static_cast<int>(x - eventCount));
                profile.m_entities[x - eventCount].component = it->second;
            }
        }
        for (Component& c : profile.m_components) {
            const bool manyS = c.events.size() > 1;
            const bool manyR = c.entities.size() > 1;
            c.kind = manyS ? (manyR ? Classification::ManyToMany : Classification::ManyToOne)
                           : (manyR ? Classification::OneToMany : Classification::OneToOne);
        }
        // Aggregates take their members' component.
        for (ResolvedEntity& e : profile.m_entities)
            if (e.isAggregate() && !e.members.empty())
                e.component = profile.m_entities[static_cast<std::size_t>(e.members.front())].component;
        for (auto& report : profile.m_reports) {
            for (int edge : report.edges) {
                const int comp
                    = profile
                          .m_entities[static_cast<std::size_t>(profile.m_edges[static_cast<std::size_t>(edge)].entity)]
                          .component;
                if (comp < 0)
                    continue;
                const Classification k = profile.m_components[static_cast<std::size_t>(comp)].kind;
                if (std::find(report.classifications.begin(), report.classifications.end(), k)
                    == report.classifications.end())
                    report.classifications.push_back(k);
            }
        }
    }

    void addWarnings()
    {
        auto& profile = *m_profile;
        const auto& associations = m_model.associations;
        // Entities that receive per-instance (DIRECT) values from some event.
        std::vector<char> direct(profile.m_entities.size(), 0);
        for (const Edge& e : profile.m_edges)
            if (e.association >= 0 && associations[static_cast<std::size_t>(e.association)].policy == Policy::Direct)
                direct[static_cast<std::size_t>(e.entity)] = 1;
        for (std::size_t i = 0; i < associations.size(); ++i) {
            const Association& a = associations[i];
            const AssociationReport& report = profile.m_reports[i];
            if (!m_matchedAny[i])
                profile.m_warnings.push_back({ a.id,
                    QStringLiteral("selector %1 '%2' matched no event of this trial")
                        .arg(selectorKindName(a.select.kind), a.select.value) });
            if (!report.shadowed.empty()) {
                QStringList names;
                for (std::size_t k = 0; k < report.shadowed.size() && k < 5; ++k)
                    names << QStringLiteral("'%1'").arg(m_trial.event(report.shadowed[k]).name);
                if (report.shadowed.size() > 5)
                    names << QStringLiteral("and %1 more").arg(report.shadowed.size() - 5);
                profile.m_warnings.push_back({ a.id,
                    QStringLiteral("%1 event(s) it matches are matched twice and won by a "
                                   "higher-priority association: %2")
                        .arg(report.shadowed.size())
                        .arg(names.join(QStringLiteral(", "))),
                    true });
            }
            if (a.policy == Policy::Amortize || a.policy == Policy::Aggregate) {
                QStringList withTimers;
                for (int r : report.targets) {
                    const ResolvedEntity& t = profile.m_entities[static_cast<std::size_t>(r)];
                    for (int member : t.isAggregate() ? t.members : std::vector<int> { r })
                        if (direct[static_cast<std::size_t>(member)])
                            withTimers << profile.m_entities[static_cast<std::size_t>(member)].id;
                }
                if (!withTimers.isEmpty())
                    profile.m_warnings.push_back({ a.id,
                        QStringLiteral("%1 is used although per-instance timers exist for %2: "
                                       "prefer those measured values")
                            .arg(a.policy == Policy::Amortize ? QStringLiteral("amortisation")
                                                              : QStringLiteral("aggregation"),
                                withTimers.join(QStringLiteral(", "))) });
            }
        }
        for (auto it = m_unresolved.cbegin(); it != m_unresolved.cend(); ++it) {
            const QStringList parts = it.key().split(QLatin1Char('\n'));
            profile.m_warnings.push_back({ {},
                QStringLiteral("entity '%1' attribute '%2' refers to metadata '%3', which this trial "
                               "does not hold trial-wide")
                    .arg(parts.value(0), parts.value(1), it.value()) });
        }
    }

    void computeValues()
    {
        auto& p = *m_profile;
        const std::size_t T = m_trial.threadCount();
        const std::size_t M = m_trial.metricCount();
        const std::size_t E = p.m_entities.size();
        p.m_threads = T;
        p.m_metrics = M;
        p.m_own.assign(M * E * T, 0.0);
        p.m_calls.assign(E * T, 0.0);
        p.m_subrs.assign(E * T, 0.0);
        p.m_present.assign(E * T, 0);
        p.m_top.assign(M * T, 0.0);
        p.m_sourceTotal.assign(M * T, 0.0);
        p.m_sourceCalls.assign(T, 0.0);
        p.m_sourceSubrs.assign(T, 0.0);
        const std::vector<int>& start = p.m_edgeStart;
        const std::vector<Edge>& edges = p.m_edges;

        // Inclusive: for each entity the events of its subtree, with their summed weights, and
        // of those the top ones (no call-path ancestor also in the set).
        std::vector<std::map<std::uint32_t, double>> subtreeEvents(E);
        for (const Edge& e : edges) {
            for (int r = e.entity; r >= 0; r = p.m_entities[static_cast<std::size_t>(r)].parent)
                subtreeEvents[static_cast<std::size_t>(r)][e.event.index()] += e.weight;
        }
        std::vector<std::vector<std::pair<EventId, double>>> top(E);
        p.m_inclDerivable.assign(E, 0);
        for (std::size_t r = 0; r < E; ++r) {
            const auto& set = subtreeEvents[r];
            if (set.empty())
                continue;
            if (m_model.source == SourceSet::Flat) {
                if (set.size() == 1) {
                    p.m_inclDerivable[r] = 1;
                    top[r].emplace_back(EventId(set.begin()->first), set.begin()->second);
                }
                continue;
            }
            p.m_inclDerivable[r] = 1;
            // Flat leaves of the set's call paths: a path whose prefix is such a flat event that is
            // not itself a source event (phase-rooted "P => e" under "main => P") is covered by it.
            QSet<std::uint32_t> leaves;
            for (const auto& [event, weight] : set) {
                const IntervalEvent& ev = m_trial.event(EventId(event));
                if (ev.isCallPath() && ev.leaf.isValid())
                    leaves.insert(ev.leaf.index());
            }
            for (const auto& [event, weight] : set) {
                bool covered = false;
                for (EventId a = m_trial.event(EventId(event)).parent; a.isValid() && !covered;
                     a = m_trial.event(a).parent)
                    covered = set.count(a.index()) > 0 || (!m_inSource[a.index()] && leaves.contains(a.index()));
                if (!covered)
                    top[r].emplace_back(EventId(event), weight);
            }
        }
        p.m_incl.assign(M * E * T, std::numeric_limits<double>::quiet_NaN());

        const std::size_t A = p.m_reports.size();
        const std::size_t workers = parallelWorkers(T, 256, m_options.workers);
        std::vector<std::vector<double>> contributed(workers, std::vector<double>(A * M, 0.0));
        parallelFor(T, 256, m_options.workers, [&](std::size_t begin, std::size_t end, std::size_t worker) {
            std::vector<double>& mine = contributed[worker];
            for (std::size_t t = begin; t < end; ++t) {
                const ThreadIndex ti(t);
                const RowView row = m_trial.row(ti);
                const std::size_t n = row.size();
                for (std::size_t i = 0; i < n; ++i) {
                    const std::size_t ev = row.events[i].index();
                    for (std::size_t m = 0; m < M; ++m)
                        p.m_top[m * T + t] = std::max(p.m_top[m * T + t], row.incl[m * n + i]);
                    if (!m_inSource[ev])
                        continue;
                    for (std::size_t m = 0; m < M; ++m)
                        p.m_sourceTotal[m * T + t] += row.excl[m * n + i];
                    p.m_sourceCalls[t] += row.calls[i];
                    p.m_sourceSubrs[t] += row.subrs[i];
                    for (int k = start[ev]; k < start[ev + 1]; ++k) {
                        const Edge& edge = edges[static_cast<std::size_t>(k)];
                        const std::size_t r = static_cast<std::size_t>(edge.entity);
                        for (std::size_t m = 0; m < M; ++m)
                            p.m_own[(m * E + r) * T + t] += edge.weight * row.excl[m * n + i];
                        p.m_calls[r * T + t] += edge.weight * row.calls[i];
                        p.m_subrs[r * T + t] += edge.weight * row.subrs[i];
                        p.m_present[r * T + t] = 1;
                        if (edge.association >= 0)
                            for (std::size_t m = 0; m < M; ++m)
                                mine[static_cast<std::size_t>(edge.association) * M + m]
                                    += edge.weight * row.excl[m * n + i];
                    }
                }
                for (std::size_t r = 0; r < E; ++r) {
                    if (!p.m_inclDerivable[r])
                        continue;
                    for (std::size_t m = 0; m < M; ++m) {
                        double v = 0;
                        for (const auto& [event, weight] : top[r]) {
                            const std::ptrdiff_t at = row.find(event);
                            if (at >= 0)
                                v += weight * row.incl[m * n + static_cast<std::size_t>(at)];
                        }
                        p.m_incl[(m * E + r) * T + t] = v;
                    }
                }
            }
        });

        // Roll-up, children first.
        p.m_roll = p.m_own;
        for (std::size_t r = 0; r < E; ++r)
            for (std::size_t t = 0; t < T; ++t)
                if (p.m_present[r * T + t])
                    p.m_present[r * T + t] = 3;
        for (int r : p.m_postOrder) {
            const int parent = p.m_entities[static_cast<std::size_t>(r)].parent;
            if (parent < 0)
                continue;
            const auto rr = static_cast<std::size_t>(r), pp = static_cast<std::size_t>(parent);
            for (std::size_t m = 0; m < M; ++m) {
                const double* src = &p.m_roll[(m * E + rr) * T];
                double* dst = &p.m_roll[(m * E + pp) * T];
                for (std::size_t t = 0; t < T; ++t)
                    dst[t] += src[t];
            }
            for (std::size_t t = 0; t < T; ++t)
                if (p.m_present[rr * T + t])
                    p.m_present[pp * T + t] |= 2;
        }
        // What each association contributed, per metric, over all threads.
        for (std::size_t i = 0; i < A; ++i) {
            p.m_reports[i].contributed.assign(M, 0.0);
            for (const auto& mine : contributed)
                for (std::size_t m = 0; m < M; ++m)
                    p.m_reports[i].contributed[m] += mine[i * M + m];
        }
    }

    std::shared_ptr<SemanticProfile> m_profile;
    AttributeOptions m_options;
    const Model& m_model;
    const Trial& m_trial;
    QHash<QString, int> m_index;
    std::vector<QString> m_parentIds;
    std::vector<char> m_matchedAny;
    std::vector<char> m_inSource;
    QMap<QString, QString> m_unresolved;
    QString m_error;
};

std::variant<ProfilePtr, AttributionError> attribute(
    const Model& model, TrialPtr trial, const AttributeOptions& options)
{
    if (!trial)
        return AttributionError { QStringLiteral("no trial") };
    Attributor attributor(model, std::move(trial), options);
    return attributor.run();
}

std::vector<DiffRow> semanticDifference(
    const SemanticProfile& a, const SemanticProfile& b, const QString& metric, const Scope& scopeA, const Scope& scopeB)
{
    std::vector<DiffRow> rows;
    const MetricId ma = a.trial().findMetric(metric);
    const MetricId mb = b.trial().findMetric(metric);
    QHash<QString, std::size_t> byId;
    auto parentId = [](const SemanticProfile& p, int r) {
        const int parent = p.entity(r).parent;
        return parent >= 0 ? p.entity(parent).id : QString();
    };
    for (std::size_t r = 0; r < a.entities().size(); ++r) {
        const ResolvedEntity& e = a.entity(static_cast<int>(r));
        DiffRow row { e.id, e.name, e.kind, parentId(a, static_cast<int>(r)), true, false,
            ma.isValid() ? a.scoped(static_cast<int>(r), ma, Quantity::Roll, scopeA) : 0.0, 0, 0, e.estimate };
        byId.insert(e.id, rows.size());
        rows.push_back(row);
    }
    for (std::size_t r = 0; r < b.entities().size(); ++r) {
        const ResolvedEntity& e = b.entity(static_cast<int>(r));
        const double v = mb.isValid() ? b.scoped(static_cast<int>(r), mb, Quantity::Roll, scopeB) : 0.0;
        const auto it = byId.constFind(e.id);
        if (it != byId.cend()) {
            rows[*it].inB = true;
            rows[*it].b = v;
            rows[*it].estimate = rows[*it].estimate || e.estimate;
        } else {
            rows.push_back(
                { e.id, e.name, e.kind, parentId(b, static_cast<int>(r)), false, true, 0, v, 0, e.estimate });
        }
    }
    for (DiffRow& row : rows)
        row.diff = row.a - row.b;
    return rows;
}

std::vector<AttributeGroup> groupByAttribute(
    const SemanticProfile& p, const QString& key, MetricId m, const Scope& scope)
{
    std::vector<AttributeGroup> groups;
    QHash<QString, std::size_t> index;
    for (std::size_t r = 0; r < p.entities().size(); ++r) {
        const ResolvedEntity& e = p.entity(static_cast<int>(r));
        const auto it = e.attrs.constFind(key);
        const QString value = it != e.attrs.cend() ? it->toString() : QStringLiteral("(no %1)").arg(key);
        auto slot = index.constFind(value);
        if (slot == index.cend()) {
            slot = index.insert(value, groups.size());
            groups.push_back({ value, 0, {} });
        }
        AttributeGroup& g = groups[slot.value()];
        g.own += p.scoped(static_cast<int>(r), m, Quantity::Own, scope);
        g.entities.push_back(static_cast<int>(r));
    }
    return groups;
}

} // namespace parallax::semantic
