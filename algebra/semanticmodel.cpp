// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/semanticmodel.h"

#include "algebra/enumnames.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <cmath>

namespace parallax::semantic {

QString AttrValue::toString() const
{
    switch (kind) {
    case Kind::Number:
        return QString::number(number, 'g', 15);
    case Kind::String:
        return text;
    case Kind::Metadata:
        return QStringLiteral("{metadata: %1}").arg(text);
    }
    return {};
}

namespace {

constexpr auto policyNames = std::to_array<EnumName<Policy>>({ { Policy::Direct, "DIRECT" },
    { Policy::Aggregate, "AGGREGATE" }, { Policy::Amortize, "AMORTIZE" }, { Policy::Weighted, "WEIGHTED" } });

constexpr auto selectorKindNames = std::to_array<EnumName<SelectorKind>>(
    { { SelectorKind::Exact, "exact" }, { SelectorKind::Regex, "regex" }, { SelectorKind::PathRegex, "path_regex" },
        { SelectorKind::Group, "group" }, { SelectorKind::CallPathParent, "callpath_parent" } });

} // namespace

QString policyName(Policy p) { return enumName(policyNames, p); }

QString selectorKindName(SelectorKind k) { return enumName(selectorKindNames, k); }

const Entity* Model::findEntity(const QString& id) const
{
    for (const Entity& e : entities)
        if (e.id == id)
            return &e;
    return nullptr;
}

bool Model::isLinear() const
{
    for (const Association& a : associations) {
        if (a.policy != Policy::Weighted)
            continue;
        // Weights come from the targets' attribute; any metadata reference makes the map trial-specific.
        auto metadataWeight = [&](const Attributes& attrs) {
            const auto it = attrs.constFind(a.weightAttr);
            return it != attrs.cend() && it->kind == AttrValue::Kind::Metadata;
        };
        if (a.target.entityTemplate)
            return false; // template attributes are strings from the match; treat as trial-specific
        for (const QString& id : a.target.ids)
            if (const Entity* e = findEntity(id); e && metadataWeight(e->attrs))
                return false;
    }
    return true;
}

QString ModelError::toString() const
{
    QString where = file.isEmpty() ? QStringLiteral("semantic model") : file;
    if (line > 0)
        where += QStringLiteral(":%1").arg(line);
    if (!key.isEmpty())
        where += QStringLiteral(": %1").arg(key);
    return QStringLiteral("%1: %2").arg(where, message);
}

bool compileSelector(Selector& selector, QString* error)
{
    if (selector.kind != SelectorKind::Regex && selector.kind != SelectorKind::PathRegex)
        return true;
    selector.regex = QRegularExpression(QRegularExpression::anchoredPattern(selector.value));
    if (!selector.regex.isValid()) {
        if (error)
            *error = QStringLiteral("invalid regular expression '%1': %2 at offset %3")
                         .arg(selector.value, selector.regex.errorString())
                         .arg(selector.regex.patternErrorOffset());
        return false;
    }
    selector.regex.optimize();
    return true;
}

namespace {

/// Finds lines in the raw file for error messages (QJsonDocument does not keep positions).
class LineFinder {
public:
    explicit LineFinder(const QByteArray& json)
        : m_json(json)
    {
    }
    int lineAt(qsizetype offset) const
    {
        if (offset < 0)
            return 0;
        return static_cast<int>(m_json.left(offset).count('\n')) + 1;
    }
    /// Offset of `"key"` followed by a colon, at or after `from`; -1 when absent.
    qsizetype findKey(const QString& key, qsizetype from) const
    {
        const QByteArray quoted = QJsonDocument(QJsonArray { key }).toJson(QJsonDocument::Compact).mid(1).chopped(1);
        qsizetype pos = from < 0 ? 0 : from;
        while ((pos = m_json.indexOf(quoted, pos)) >= 0) {
            qsizetype after = pos + quoted.size();
            while (after < m_json.size()
                && (m_json[after] == ' ' || m_json[after] == '\t' || m_json[after] == '\n' || m_json[after] == '\r'))
                ++after;
            if (after < m_json.size() && m_json[after] == ':')
                return pos;
            pos += quoted.size();
        }
        return -1;
    }
    /// Offset of `"id": "<value>"` at or after `from`.
    qsizetype findId(const QString& value, qsizetype from) const
    {
        qsizetype pos = from;
        while ((pos = findKey(QStringLiteral("id"), pos)) >= 0) {
            const qsizetype colon = m_json.indexOf(':', pos);
            qsizetype v = colon + 1;
            while (
                v < m_json.size() && (m_json[v] == ' ' || m_json[v] == '\t' || m_json[v] == '\n' || m_json[v] == '\r'))
                ++v;
            const QByteArray quoted
                = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact).mid(1).chopped(1);
            if (m_json.mid(v, quoted.size()) == quoted)
                return pos;
            pos = colon;
        }
        return -1;
    }

private:
    const QByteArray& m_json;
};

struct ParseContext {
    QString file;
    const LineFinder* lines = nullptr;
    std::optional<ModelError> error;

    bool fail(qsizetype offset, const QString& key, const QString& message)
    {
        if (!error)
            error = ModelError { file, lines ? lines->lineAt(offset) : 0, key, message };
        return false;
    }
};

bool checkKeys(ParseContext& ctx, const QJsonObject& o, std::initializer_list<const char*> allowedKeys,
    const QString& path, qsizetype at)
{
    QSet<QString> allowed;
    for (const char* key : allowedKeys)
        allowed.insert(QString::fromLatin1(key));
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!allowed.contains(it.key())) {
            QStringList known(allowed.begin(), allowed.end());
            known.sort();
            const qsizetype keyAt = ctx.lines ? ctx.lines->findKey(it.key(), at) : -1;
            return ctx.fail(keyAt >= 0 ? keyAt : at, path + QLatin1Char('.') + it.key(),
                QStringLiteral("unknown key '%1' (expected one of: %2)")
                    .arg(it.key(), known.join(QStringLiteral(", "))));
        }
    }
    return true;
}

bool readString(ParseContext& ctx, const QJsonObject& o, const QString& key, const QString& path, qsizetype at,
    QString& out, bool required)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined()) {
        if (required)
            return ctx.fail(at, path + QLatin1Char('.') + key, QStringLiteral("missing required key '%1'").arg(key));
        return true;
    }
    if (!v.isString())
        return ctx.fail(at, path + QLatin1Char('.') + key, QStringLiteral("'%1' must be a string").arg(key));
    out = v.toString();
    if (required && out.isEmpty())
        return ctx.fail(at, path + QLatin1Char('.') + key, QStringLiteral("'%1' must not be empty").arg(key));
    return true;
}

bool readAttrs(ParseContext& ctx, const QJsonValue& v, const QString& path, qsizetype at, Attributes& out)
{
    if (v.isUndefined())
        return true;
    if (!v.isObject())
        return ctx.fail(at, path, QStringLiteral("'attrs' must be an object"));
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QJsonValue a = it.value();
        if (a.isDouble()) {
            out.insert(it.key(), AttrValue::fromNumber(a.toDouble()));
        } else if (a.isString()) {
            out.insert(it.key(), AttrValue::fromString(a.toString()));
        } else if (a.isObject() && a.toObject().size() == 1
            && a.toObject().value(QStringLiteral("metadata")).isString()) {
            out.insert(it.key(), AttrValue::fromMetadata(a.toObject().value(QStringLiteral("metadata")).toString()));
        } else {
            return ctx.fail(at, path + QLatin1Char('.') + it.key(),
                QStringLiteral("an attribute value must be a number, a string or {\"metadata\": KEY}"));
        }
    }
    return true;
}

bool readEntity(ParseContext& ctx, const QJsonValue& v, const QString& path, qsizetype at, Entity& e)
{
    if (!v.isObject())
        return ctx.fail(at, path, QStringLiteral("an entity must be an object"));
    const QJsonObject o = v.toObject();
    if (!readString(ctx, o, QStringLiteral("id"), path, at, e.id, true))
        return false;
    const qsizetype here = ctx.lines ? std::max(at, ctx.lines->findId(e.id, at)) : at;
    if (!checkKeys(ctx, o, { "id", "kind", "name", "parent", "attrs" }, path, here))
        return false;
    if (!readString(ctx, o, QStringLiteral("kind"), path, here, e.kind, false)
        || !readString(ctx, o, QStringLiteral("name"), path, here, e.name, false)
        || !readString(ctx, o, QStringLiteral("parent"), path, here, e.parent, false)
        || !readAttrs(ctx, o.value(QStringLiteral("attrs")), path + QStringLiteral(".attrs"), here, e.attrs))
        return false;
    if (e.name.isEmpty())
        e.name = e.id;
    return true;
}

bool readTemplate(ParseContext& ctx, const QJsonValue& v, const QString& path, qsizetype at, EntityTemplate& t)
{
    if (!v.isObject())
        return ctx.fail(at, path, QStringLiteral("a template must be an object"));
    const QJsonObject o = v.toObject();
    if (!checkKeys(ctx, o, { "id", "kind", "name", "parent", "attrs" }, path, at)
        || !readString(ctx, o, QStringLiteral("id"), path, at, t.id, true)
        || !readString(ctx, o, QStringLiteral("kind"), path, at, t.kind, false)
        || !readString(ctx, o, QStringLiteral("name"), path, at, t.name, false)
        || !readString(ctx, o, QStringLiteral("parent"), path, at, t.parent, false))
        return false;
    const QJsonValue attrs = o.value(QStringLiteral("attrs"));
    if (!attrs.isUndefined()) {
        if (!attrs.isObject())
            return ctx.fail(at, path + QStringLiteral(".attrs"), QStringLiteral("'attrs' must be an object"));
        const QJsonObject ao = attrs.toObject();
        for (auto it = ao.begin(); it != ao.end(); ++it) {
            if (it.value().isString())
                t.attrs.insert(it.key(), it.value().toString());
            else if (it.value().isDouble())
                t.attrs.insert(it.key(), QString::number(it.value().toDouble(), 'g', 17));
            else
                return ctx.fail(at, path + QStringLiteral(".attrs.") + it.key(),
                    QStringLiteral("a template attribute must be a string (with {1}... captures) or a number"));
        }
    }
    if (t.name.isEmpty())
        t.name = t.id;
    return true;
}

bool readAssociation(ParseContext& ctx, const QJsonValue& v, const QString& path, qsizetype at, Association& a)
{
    if (!v.isObject())
        return ctx.fail(at, path, QStringLiteral("an association must be an object"));
    const QJsonObject o = v.toObject();
    if (!readString(ctx, o, QStringLiteral("id"), path, at, a.id, true))
        return false;
    const qsizetype here = ctx.lines ? std::max(at, ctx.lines->findId(a.id, at)) : at;
    a.line = ctx.lines ? ctx.lines->lineAt(here) : 0;
    if (!checkKeys(ctx, o, { "id", "priority", "select", "target", "policy", "weight_attr", "collection" }, path, here))
        return false;
    const QJsonValue priority = o.value(QStringLiteral("priority"));
    if (!priority.isUndefined()) {
        if (!priority.isDouble() || priority.toDouble() != std::floor(priority.toDouble()))
            return ctx.fail(here, path + QStringLiteral(".priority"), QStringLiteral("'priority' must be an integer"));
        a.priority = priority.toInt();
    }
    // Selector: an object with exactly one key.
    const QJsonValue select = o.value(QStringLiteral("select"));
    if (!select.isObject() || select.toObject().size() != 1)
        return ctx.fail(here, path + QStringLiteral(".select"),
            QStringLiteral("'select' must be an object with one of exact, regex, path_regex, group, callpath_parent"));
    const QString kind = select.toObject().begin().key();
    const QJsonValue selValue = select.toObject().begin().value();
    const std::optional<SelectorKind> selectorKind = enumFromName(selectorKindNames, kind);
    if (!selectorKind)
        return ctx.fail(ctx.lines ? std::max(here, ctx.lines->findKey(kind, here)) : here,
            path + QStringLiteral(".select.") + kind,
            QStringLiteral("unknown selector '%1' (expected exact, regex, path_regex, group or callpath_parent)")
                .arg(kind));
    if (!selValue.isString() || selValue.toString().isEmpty())
        return ctx.fail(here, path + QStringLiteral(".select.") + kind,
            QStringLiteral("the selector value must be a non-empty string"));
    a.select.kind = *selectorKind;
    a.select.value = selValue.toString();
    QString regexError;
    if (!compileSelector(a.select, &regexError))
        return ctx.fail(here, path + QStringLiteral(".select.") + kind, regexError);
    // Target: an id, a list of ids, or {"template": {...}}.
    const QJsonValue target = o.value(QStringLiteral("target"));
    if (target.isString()) {
        a.target.ids << target.toString();
    } else if (target.isArray()) {
        for (const auto& id : target.toArray()) {
            if (!id.isString())
                return ctx.fail(here, path + QStringLiteral(".target"),
                    QStringLiteral("a target list must hold entity ids (strings)"));
            a.target.ids << id.toString();
        }
        if (a.target.ids.isEmpty())
            return ctx.fail(here, path + QStringLiteral(".target"), QStringLiteral("the target list is empty"));
    } else if (target.isObject()) {
        const QJsonObject t = target.toObject();
        if (!checkKeys(ctx, t, { "template" }, path + QStringLiteral(".target"), here))
            return false;
        EntityTemplate tmpl;
        if (!readTemplate(
                ctx, t.value(QStringLiteral("template")), path + QStringLiteral(".target.template"), here, tmpl))
            return false;
        a.target.entityTemplate = tmpl;
    } else {
        return ctx.fail(here, path + QStringLiteral(".target"),
            QStringLiteral("'target' must be an entity id, a list of ids or {\"template\": {...}}"));
    }
    QString policy = QStringLiteral("DIRECT");
    if (!readString(ctx, o, QStringLiteral("policy"), path, here, policy, false))
        return false;
    const std::optional<Policy> policyValue = enumFromName(policyNames, policy);
    if (!policyValue)
        return ctx.fail(here, path + QStringLiteral(".policy"),
            QStringLiteral("unknown policy '%1' (expected DIRECT, AGGREGATE, AMORTIZE or WEIGHTED)").arg(policy));
    a.policy = *policyValue;
    if (!readString(ctx, o, QStringLiteral("weight_attr"), path, here, a.weightAttr, false)
        || !readString(ctx, o, QStringLiteral("collection"), path, here, a.collection, false))
        return false;
    if (!a.collection.isEmpty() && a.collection != QLatin1String("embedded")
        && a.collection != QLatin1String("external") && a.collection != QLatin1String("posthoc"))
        return ctx.fail(here, path + QStringLiteral(".collection"),
            QStringLiteral("'collection' must be embedded, external or posthoc"));
    return true;
}

} // namespace

namespace {

std::optional<ModelError> validate(
    const Model& m, const QString& file, const LineFinder* lines, qsizetype entitiesAt, qsizetype associationsAt)
{
    auto error = [&](qsizetype at, const QString& key, const QString& message) {
        return ModelError { file, lines ? lines->lineAt(at) : 0, key, message };
    };
    auto entityAt = [&](const QString& id) { return lines ? std::max(entitiesAt, lines->findId(id, entitiesAt)) : 0; };
    QHash<QString, int> index;
    for (std::size_t i = 0; i < m.entities.size(); ++i) {
        const Entity& e = m.entities[i];
        if (e.id == QLatin1String("(unmapped)"))
            return error(entityAt(e.id), QStringLiteral("entities[%1].id").arg(i),
                QStringLiteral("'(unmapped)' is the built-in entity of unmatched events and cannot be declared"));
        if (index.contains(e.id))
            return error(lines ? lines->findId(e.id, entityAt(e.id) + 1) : 0, QStringLiteral("entities[%1].id").arg(i),
                QStringLiteral("duplicate entity id '%1'").arg(e.id));
        index.insert(e.id, static_cast<int>(i));
    }
    for (std::size_t i = 0; i < m.entities.size(); ++i) {
        const Entity& e = m.entities[i];
        if (!e.parent.isEmpty() && !index.contains(e.parent))
            return error(entityAt(e.id), QStringLiteral("entities[%1].parent").arg(i),
                QStringLiteral("entity '%1' has parent '%2', which is not declared").arg(e.id, e.parent));
        // Cycle: walk up at most n steps.
        QString p = e.parent;
        for (std::size_t steps = 0; !p.isEmpty(); ++steps) {
            if (p == e.id || steps > m.entities.size())
                return error(entityAt(e.id), QStringLiteral("entities[%1].parent").arg(i),
                    QStringLiteral("entity '%1' is its own ancestor (hierarchy cycle)").arg(e.id));
            p = m.entities[static_cast<std::size_t>(index.value(p))].parent;
        }
    }
    QSet<QString> associationIds;
    for (std::size_t i = 0; i < m.associations.size(); ++i) {
        const Association& a = m.associations[i];
        const qsizetype at = lines ? std::max(associationsAt, lines->findId(a.id, associationsAt)) : 0;
        const QString path = QStringLiteral("associations[%1]").arg(i);
        if (associationIds.contains(a.id))
            return error(lines ? lines->findId(a.id, at + 1) : 0, path + QStringLiteral(".id"),
                QStringLiteral("duplicate association id '%1'").arg(a.id));
        associationIds.insert(a.id);
        if (m.source == SourceSet::Flat
            && (a.select.kind == SelectorKind::PathRegex || a.select.kind == SelectorKind::CallPathParent))
            return error(at, path + QStringLiteral(".select"),
                QStringLiteral("'%1' needs call paths: set \"source\": \"callpath\"")
                    .arg(selectorKindName(a.select.kind)));
        for (const QString& id : a.target.ids)
            if (!index.contains(id))
                return error(at, path + QStringLiteral(".target"),
                    QStringLiteral("target '%1' is not a declared entity").arg(id));
        if (a.policy == Policy::Direct && !a.target.entityTemplate && a.target.ids.size() != 1)
            return error(at, path + QStringLiteral(".policy"),
                QStringLiteral("DIRECT needs exactly one target entity, this association has %1")
                    .arg(a.target.ids.size()));
        if (a.policy == Policy::Weighted) {
            if (a.weightAttr.isEmpty())
                return error(at, path + QStringLiteral(".weight_attr"), QStringLiteral("WEIGHTED needs 'weight_attr'"));
            for (const QString& id : a.target.ids) {
                const Entity& e = m.entities[static_cast<std::size_t>(index.value(id))];
                const auto it = e.attrs.constFind(a.weightAttr);
                if (it == e.attrs.cend())
                    return error(at, path + QStringLiteral(".weight_attr"),
                        QStringLiteral("target '%1' has no attribute '%2'").arg(id, a.weightAttr));
                if (it->kind == AttrValue::Kind::String)
                    return error(at, path + QStringLiteral(".weight_attr"),
                        QStringLiteral("attribute '%1' of '%2' is a string, not a number").arg(a.weightAttr, id));
                if (it->kind == AttrValue::Kind::Number && !(it->number >= 0))
                    return error(at, path + QStringLiteral(".weight_attr"),
                        QStringLiteral("weight '%1' of '%2' is negative").arg(a.weightAttr, id));
            }
        } else if (!a.weightAttr.isEmpty()) {
            return error(
                at, path + QStringLiteral(".weight_attr"), QStringLiteral("'weight_attr' is only for WEIGHTED"));
        }
        if (a.target.entityTemplate && a.policy != Policy::Direct)
            return error(at, path + QStringLiteral(".policy"),
                QStringLiteral("a template target creates one entity per event, so its policy must be DIRECT"));
        if (a.select.kind == SelectorKind::Regex || a.select.kind == SelectorKind::PathRegex) {
            if (!a.select.regex.isValid()) {
                Selector copy = a.select;
                QString message;
                compileSelector(copy, &message);
                return error(at, path + QStringLiteral(".select"), message);
            }
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<ModelError> validateModel(const Model& model) { return validate(model, {}, nullptr, 0, 0); }

std::variant<Model, ModelError> parseModel(const QByteArray& json, const QString& fileName)
{
    const LineFinder lines(json);
    ParseContext ctx { fileName, &lines, std::nullopt };
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const qsizetype offset = parseError.offset;
        const qsizetype lineStart = json.lastIndexOf('\n', offset > 0 ? offset - 1 : 0) + 1;
        return ModelError { fileName, lines.lineAt(offset), {},
            QStringLiteral("invalid JSON at column %1: %2").arg(offset - lineStart + 1).arg(parseError.errorString()) };
    }
    if (!doc.isObject())
        return ModelError { fileName, 1, {}, QStringLiteral("a semantic model must be a JSON object") };
    const QJsonObject root = doc.object();
    Model m;
    if (!checkKeys(ctx, root, { "format", "version", "name", "description", "source", "entities", "associations" },
            QStringLiteral("model"), 0))
        return *ctx.error;
    if (root.value(QStringLiteral("format")).toString() != QLatin1String("parallax-semantic-model"))
        return ModelError { fileName, lines.lineAt(lines.findKey(QStringLiteral("format"), 0)),
            QStringLiteral("format"), QStringLiteral("expected \"format\": \"parallax-semantic-model\"") };
    if (root.value(QStringLiteral("version")).toInt(-1) != 1)
        return ModelError { fileName, lines.lineAt(lines.findKey(QStringLiteral("version"), 0)),
            QStringLiteral("version"), QStringLiteral("unsupported version (this Parallax reads version 1)") };
    if (!readString(ctx, root, QStringLiteral("name"), QStringLiteral("model"), 0, m.name, false)
        || !readString(ctx, root, QStringLiteral("description"), QStringLiteral("model"), 0, m.description, false))
        return *ctx.error;
    QString source = QStringLiteral("flat");
    if (!readString(ctx, root, QStringLiteral("source"), QStringLiteral("model"),
            lines.findKey(QStringLiteral("source"), 0), source, false))
        return *ctx.error;
    if (source == QLatin1String("flat"))
        m.source = SourceSet::Flat;
    else if (source == QLatin1String("callpath"))
        m.source = SourceSet::CallPath;
    else
        return ModelError { fileName, lines.lineAt(lines.findKey(QStringLiteral("source"), 0)),
            QStringLiteral("source"),
            QStringLiteral("'source' must be \"flat\" or \"callpath\", not '%1'").arg(source) };

    const qsizetype entitiesAt = std::max<qsizetype>(0, lines.findKey(QStringLiteral("entities"), 0));
    const qsizetype associationsAt = std::max<qsizetype>(0, lines.findKey(QStringLiteral("associations"), 0));
    const QJsonValue entities = root.value(QStringLiteral("entities"));
    if (!entities.isUndefined() && !entities.isArray())
        return ModelError { fileName, lines.lineAt(entitiesAt), QStringLiteral("entities"),
            QStringLiteral("'entities' must be an array") };
    qsizetype cursor = entitiesAt;
    for (qsizetype i = 0; i < entities.toArray().size(); ++i) {
        Entity e;
        if (!readEntity(ctx, entities.toArray().at(i), QStringLiteral("entities[%1]").arg(i), cursor, e))
            return *ctx.error;
        cursor = std::max(cursor, lines.findId(e.id, cursor));
        m.entities.push_back(std::move(e));
    }
    const QJsonValue associations = root.value(QStringLiteral("associations"));
    if (!associations.isArray())
        return ModelError { fileName, lines.lineAt(associationsAt), QStringLiteral("associations"),
            QStringLiteral("'associations' must be an array") };
    cursor = associationsAt;
    for (qsizetype i = 0; i < associations.toArray().size(); ++i) {
        Association a;
        if (!readAssociation(ctx, associations.toArray().at(i), QStringLiteral("associations[%1]").arg(i), cursor, a))
            return *ctx.error;
        cursor = std::max(cursor, lines.findId(a.id, cursor));
        m.associations.push_back(std::move(a));
    }
    if (auto error = validate(m, fileName, &lines, entitiesAt, associationsAt))
        return *error;
    return m;
}

std::variant<Model, ModelError> loadModelFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return ModelError { path, 0, {}, f.errorString() };
    return parseModel(f.readAll(), path);
}

namespace {

QJsonValue attrToJson(const AttrValue& v)
{
    switch (v.kind) {
    case AttrValue::Kind::Number:
        return v.number;
    case AttrValue::Kind::String:
        return v.text;
    case AttrValue::Kind::Metadata:
        return QJsonObject { { QStringLiteral("metadata"), v.text } };
    }
    return {};
}

QJsonObject entityToJson(const Entity& e)
{
    QJsonObject o { { QStringLiteral("id"), e.id } };
    if (!e.kind.isEmpty())
        o.insert(QStringLiteral("kind"), e.kind);
    o.insert(QStringLiteral("name"), e.name);
    if (!e.parent.isEmpty())
        o.insert(QStringLiteral("parent"), e.parent);
    if (!e.attrs.isEmpty()) {
        QJsonObject attrs;
        for (auto it = e.attrs.cbegin(); it != e.attrs.cend(); ++it)
            attrs.insert(it.key(), attrToJson(it.value()));
        o.insert(QStringLiteral("attrs"), attrs);
    }
    return o;
}

} // namespace

QByteArray toJson(const Model& model)
{
    QJsonObject root { { QStringLiteral("format"), QStringLiteral("parallax-semantic-model") },
        { QStringLiteral("version"), 1 }, { QStringLiteral("name"), model.name },
        { QStringLiteral("source"),
            model.source == SourceSet::Flat ? QStringLiteral("flat") : QStringLiteral("callpath") } };
    if (!model.description.isEmpty())
        root.insert(QStringLiteral("description"), model.description);
    QJsonArray entities;
    for (const Entity& e : model.entities)
        entities.append(entityToJson(e));
    root.insert(QStringLiteral("entities"), entities);
    QJsonArray associations;
    for (const Association& a : model.associations) {
        QJsonObject o { { QStringLiteral("id"), a.id } };
        if (a.priority != 0)
            o.insert(QStringLiteral("priority"), a.priority);
        o.insert(QStringLiteral("select"), QJsonObject { { selectorKindName(a.select.kind), a.select.value } });
        if (a.target.entityTemplate) {
            const EntityTemplate& t = *a.target.entityTemplate;
            QJsonObject tj { { QStringLiteral("id"), t.id }, { QStringLiteral("name"), t.name } };
            if (!t.kind.isEmpty())
                tj.insert(QStringLiteral("kind"), t.kind);
            if (!t.parent.isEmpty())
                tj.insert(QStringLiteral("parent"), t.parent);
            if (!t.attrs.isEmpty()) {
                QJsonObject attrs;
                for (auto it = t.attrs.cbegin(); it != t.attrs.cend(); ++it)
                    attrs.insert(it.key(), it.value());
                tj.insert(QStringLiteral("attrs"), attrs);
            }
            o.insert(QStringLiteral("target"), QJsonObject { { QStringLiteral("template"), tj } });
        } else if (a.target.ids.size() == 1) {
            o.insert(QStringLiteral("target"), a.target.ids.front());
        } else {
            o.insert(QStringLiteral("target"), QJsonArray::fromStringList(a.target.ids));
        }
        o.insert(QStringLiteral("policy"), policyName(a.policy));
        if (!a.weightAttr.isEmpty())
            o.insert(QStringLiteral("weight_attr"), a.weightAttr);
        if (!a.collection.isEmpty())
            o.insert(QStringLiteral("collection"), a.collection);
        associations.append(o);
    }
    root.insert(QStringLiteral("associations"), associations);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace parallax::semantic
