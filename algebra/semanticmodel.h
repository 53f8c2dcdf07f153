// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QByteArray>
#include <QMap>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <optional>
#include <variant>
#include <vector>

namespace parallax::semantic {

/// A semantic attribute value (docs/SEMANTICS.md 5.2): a number, a string, or a reference to a key of
/// the viewed trial's trial-wide metadata, resolved when a trial is attributed.
struct AttrValue {
    enum class Kind { Number, String, Metadata };
    Kind kind = Kind::String;
    double number = 0;
    QString text; ///< the string, or the metadata key

    static AttrValue fromNumber(double v) { return { Kind::Number, v, {} }; }
    static AttrValue fromString(const QString& s) { return { Kind::String, 0, s }; }
    static AttrValue fromMetadata(const QString& key) { return { Kind::Metadata, 0, key }; }
    bool operator==(const AttrValue& o) const
    {
        return kind == o.kind && (kind == Kind::Number ? number == o.number : text == o.text);
    }
    /// "500", "text", or "{metadata: key}".
    QString toString() const;
};

using Attributes = QMap<QString, AttrValue>;

/// A semantic entity: {id (unique), kind, name, parent?, attrs}.
struct Entity {
    QString id;
    QString kind;
    QString name;
    QString parent; ///< empty for a root
    Attributes attrs;
};

enum class Policy { Direct, Aggregate, Amortize, Weighted };
QString policyName(Policy p); ///< "DIRECT", "AGGREGATE", "AMORTIZE", "WEIGHTED"

enum class SelectorKind { Exact, Regex, PathRegex, Group, CallPathParent };
QString selectorKindName(SelectorKind k); ///< the JSON key: "exact", "regex", ...

struct Selector {
    SelectorKind kind = SelectorKind::Exact;
    QString value;
    /// Compiled, implicitly anchored to the whole subject (regex and path_regex).
    QRegularExpression regex;
};

/// An entity template: strings may hold {0}..{9} (the match and its captures) and {{ / }}.
struct EntityTemplate {
    QString id;
    QString kind;
    QString name;
    QString parent;
    QMap<QString, QString> attrs;
};

struct Target {
    QStringList ids; ///< one or more entity ids, when not a template
    std::optional<EntityTemplate> entityTemplate;
};

struct Association {
    QString id;
    int priority = 0;
    Selector select;
    Target target;
    Policy policy = Policy::Direct;
    QString weightAttr; ///< WEIGHTED only
    QString collection; ///< embedded | external | posthoc; no effect on numbers
    int line = 0; ///< where it starts in the model file (0 when built in code)
};

enum class SourceSet { Flat, CallPath };

/// A semantic model (docs/SEMANTICS.md 5.2, file format 5.6).
struct Model {
    QString name;
    QString description;
    SourceSet source = SourceSet::Flat;
    std::vector<Entity> entities;
    std::vector<Association> associations;

    const Entity* findEntity(const QString& id) const;
    /// True when every map it defines is linear (docs/SEMANTICS.md 5.5): no WEIGHTED association takes a
    /// weight from trial metadata.
    bool isLinear() const;
};

/// Where a model is wrong: the line (1-based, 0 when unknown), the JSON key path and what is wrong.
struct ModelError {
    QString file;
    int line = 0;
    QString key;
    QString message;
    QString toString() const;
};

/// Parses and validates a model (docs/SEMANTICS.md 5.6). Load errors: invalid JSON, unknown keys,
/// missing or mistyped fields, duplicate ids, a dangling parent, a hierarchy cycle, an invalid
/// regular expression, path_regex / callpath_parent in flat mode, WEIGHTED without weight_attr.
std::variant<Model, ModelError> parseModel(const QByteArray& json, const QString& fileName = {});
std::variant<Model, ModelError> loadModelFile(const QString& path);

/// Checks a model built in code the same way parseModel checks a file (empty = valid).
std::optional<ModelError> validateModel(const Model& model);

/// The model as a file (docs/SEMANTICS.md 5.6), indented; parseModel(toJson(m)) gives m back.
QByteArray toJson(const Model& model);

/// Compiles a selector's regular expression (anchored); false and a message when it is invalid.
bool compileSelector(Selector& selector, QString* error = nullptr);

} // namespace parallax::semantic
