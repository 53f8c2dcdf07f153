// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/semanticbuiltin.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <algorithm>
#include <map>

namespace parallax::semantic {

const std::vector<BuiltinModel>& builtinModels()
{
    static const std::vector<BuiltinModel> models {
        { QStringLiteral("group"), QStringLiteral("By TAU group"),
            QStringLiteral("One entity per TAU group; an event in several groups goes to the most specific one.") },
        { QStringLiteral("layer"), QStringLiteral("By software layer"),
            QStringLiteral("MPI, OpenMP, I/O, accelerator, runtime and user code, from event names and groups.") },
        { QStringLiteral("phase"), QStringLiteral("By phase"),
            QStringLiteral("TAU phase profiles: one entity per phase, nested like the phases.") },
        { QStringLiteral("parameter"), QStringLiteral("By parameter value"),
            QStringLiteral("TAU parameter profiles: one entity per parameter value under its routine.") },
        { QStringLiteral("file"), QStringLiteral("By source file"),
            QStringLiteral("One entity per source file named in [{file} ...] event locations.") },
    };
    return models;
}

namespace {

Association association(const QString& id, int priority, SelectorKind kind, const QString& value, const QString& target)
{
    Association a;
    a.id = id;
    a.priority = priority;
    a.select.kind = kind;
    a.select.value = value;
    compileSelector(a.select);
    a.target.ids << target;
    a.policy = Policy::Direct;
    a.collection = QStringLiteral("posthoc");
    return a;
}

Association templated(const QString& id, int priority, const QString& regex, const EntityTemplate& t)
{
    Association a;
    a.id = id;
    a.priority = priority;
    a.select.kind = SelectorKind::Regex;
    a.select.value = regex;
    compileSelector(a.select);
    a.target.entityTemplate = t;
    a.policy = Policy::Direct;
    a.collection = QStringLiteral("posthoc");
    return a;
}

std::vector<EventId> flatEvents(const Trial& trial)
{
    std::vector<EventId> out;
    for (std::size_t i = 0; i < trial.eventCount(); ++i)
        if (!trial.event(EventId(i)).isCallPath())
            out.push_back(EventId(i));
    return out;
}

Model groupModel(const Trial& trial)
{
    Model m;
    m.name = QStringLiteral("By TAU group");
    m.description = builtinModels()[0].description;
    // Events per group (flat events only), to rank groups from specific to general.
    std::map<QString, int> counts;
    for (EventId e : flatEvents(trial))
        for (GroupId g : trial.event(e).groups)
            ++counts[trial.groupName(g)];
    std::vector<std::pair<QString, int>> groups(counts.begin(), counts.end());
    std::sort(groups.begin(), groups.end(),
        [](const auto& a, const auto& b) { return a.second != b.second ? a.second < b.second : a.first < b.first; });
    const int n = static_cast<int>(groups.size());
    for (int i = 0; i < n; ++i) {
        const QString& g = groups[static_cast<std::size_t>(i)].first;
        const QString id = QStringLiteral("group:") + g;
        m.entities.push_back({ id, QStringLiteral("group"), g, {}, {} });
        // Distinct priorities: the most specific group (fewest events) wins; never a tie.
        m.associations.push_back(association(QStringLiteral("group ") + g, n - i, SelectorKind::Group, g, id));
    }
    return m;
}

Model layerModel(const Trial& trial)
{
    Model m;
    m.name = QStringLiteral("By software layer");
    m.description = builtinModels()[1].description;
    struct Layer {
        const char* id;
        const char* name;
    };
    const Layer layers[] = { { "layer:mpi", "MPI" }, { "layer:openmp", "OpenMP" }, { "layer:io", "I/O" },
        { "layer:accelerator", "Accelerator" }, { "layer:runtime", "Runtime" }, { "layer:user", "User code" } };
    for (const Layer& l : layers)
        m.entities.push_back(
            { QString::fromLatin1(l.id), QStringLiteral("layer"), QString::fromLatin1(l.name), {}, {} });
    // Highest priority first; every priority distinct, so no event can be claimed twice.
    struct Rule {
        const char* id;
        SelectorKind kind;
        const char* value;
        const char* target;
    };
    const Rule rules[] = {
        { "MPI-IO", SelectorKind::Regex, "P?MPI_File_\\w+.*", "layer:io" },
        { "I/O group", SelectorKind::Group, "TAU_IO", "layer:io" },
        { "I/O libraries", SelectorKind::Regex,
            "(?:ADIOS|adios_?|adios2|H5[A-Z]|h5|nc_|ncmpi_|NetCDF|HDF5|PnetCDF|SIONlib|sion_).*", "layer:io" },
        { "POSIX I/O", SelectorKind::Regex,
            "(?:[\\w\\s\\*]*\\s)?(?:f?open|open64|fopen64|f?close|f?read|f?write|pread|pwrite|pread64|pwrite64|readv|"
            "writev|"
            "lseek|lseek64|fseek|fsync|fdatasync|fflush|fgets|fputs|fprintf|fscanf|aio_\\w+)\\s*\\(.*",
            "layer:io" },
        { "MPI group", SelectorKind::Group, "MPI", "layer:mpi" },
        { "MPI", SelectorKind::Regex, "P?MPI_\\w+.*", "layer:mpi" },
        { "OpenMP group", SelectorKind::Group, "OpenMP", "layer:openmp" },
        { "OpenMP", SelectorKind::Regex,
            "(?:omp_\\w+|GOMP_\\w+|__kmp\\w*|__kmpc\\w*|OpenMP.*|.*\\$omp.*|.*\\bparallel (?:begin|fork|region)\\b.*|"
            "\\.omp_fn.*|.*\\[OpenMP\\].*)",
            "layer:openmp" },
        { "accelerator", SelectorKind::Regex,
            "(?:cuda\\w*|cu[A-Z]\\w*|nccl\\w*|hip[A-Z]\\w*|roctx\\w*|cl[A-Z][a-z]\\w*|omp_target\\w*|CUDA.*|HIP.*|"
            "OpenCL.*)(?:\\s*\\(.*)?",
            "layer:accelerator" },
        { "runtime", SelectorKind::Regex,
            "(?:TAU_\\w+.*|\\.TAU (?!application).*|pthread_\\w+.*|(?:void\\s*\\*?\\s*)?(?:malloc|calloc|realloc|free|"
            "posix_memalign|memalign|valloc|mmap|munmap)\\s*\\(.*|sleep\\s*\\(.*|usleep\\s*\\(.*|std::\\w+.*)",
            "layer:runtime" },
        { "user code", SelectorKind::Regex, ".*", "layer:user" },
    };
    // Keep the rules that match something in this trial (so built-ins raise no "matched nothing"
    // warnings); the catch-all always stays.
    QSet<QString> groups;
    for (std::size_t g = 0; g < trial.groupCount(); ++g)
        groups.insert(trial.groupName(GroupId(g)));
    const std::vector<EventId> flat = flatEvents(trial);
    int priority = static_cast<int>(std::size(rules));
    for (const Rule& r : rules) {
        Association a = association(
            QString::fromLatin1(r.id), priority--, r.kind, QString::fromLatin1(r.value), QString::fromLatin1(r.target));
        bool used = QLatin1String(r.id) == QLatin1String("user code");
        for (std::size_t i = 0; !used && i < flat.size(); ++i) {
            if (r.kind == SelectorKind::Group)
                used = groups.contains(a.select.value) && trial.eventInGroup(flat[i], a.select.value);
            else
                used = a.select.regex.match(trial.event(flat[i]).name).hasMatch();
        }
        if (used)
            m.associations.push_back(a);
    }
    // Only the layers some kept rule feeds (user code always).
    std::vector<Entity> kept;
    for (const Entity& e : m.entities) {
        bool fed = e.id == QLatin1String("layer:user");
        for (const Association& a : m.associations)
            fed = fed || a.target.ids.contains(e.id);
        if (fed)
            kept.push_back(e);
    }
    m.entities = kept;
    return m;
}

Model phaseModel(const Trial& trial)
{
    Model m;
    m.name = QStringLiteral("By phase");
    m.description = builtinModels()[2].description;
    m.source = SourceSet::CallPath;
    const QString phaseGroup = QStringLiteral("TAU_PHASE");
    QSet<QString> phases;
    std::vector<QString> order;
    for (EventId e : flatEvents(trial))
        if (trial.eventInGroup(e, phaseGroup)) {
            phases.insert(trial.event(e).name);
            order.push_back(trial.event(e).name);
        }
    // Nesting: "Q => P" with both phases makes Q a parent of P. A phase entered from several
    // phases (an "IO Phase" inside every iteration) goes under their common parent, if they have one.
    QHash<QString, QSet<QString>> parents;
    for (std::size_t i = 0; i < trial.eventCount(); ++i) {
        const IntervalEvent& e = trial.event(EventId(i));
        if (!e.isCallPath())
            continue;
        const QStringList parts = e.name.split(QStringLiteral(" => "));
        const QString& leaf = parts.last();
        if (!phases.contains(leaf))
            continue;
        for (qsizetype k = parts.size() - 2; k >= 0; --k)
            if (phases.contains(parts[k]) && parts[k] != leaf) {
                parents[leaf].insert(parts[k]);
                break;
            }
    }
    QHash<QString, QString> parent;
    for (auto it = parents.cbegin(); it != parents.cend(); ++it)
        if (it->size() == 1)
            parent.insert(it.key(), *it->cbegin());
    for (auto it = parents.cbegin(); it != parents.cend(); ++it) {
        if (it->size() <= 1)
            continue;
        QSet<QString> grand;
        for (const QString& q : *it)
            grand.insert(parent.value(q));
        if (grand.size() == 1 && !grand.cbegin()->isEmpty() && *grand.cbegin() != it.key())
            parent.insert(it.key(), *grand.cbegin());
    }
    // Roots first, so that files read naturally.
    std::stable_sort(order.begin(), order.end(),
        [&](const QString& a, const QString& b) { return !parent.contains(a) && parent.contains(b); });
    int n = 0;
    for (const QString& p : order) {
        const QString id = QStringLiteral("phase:") + p;
        m.entities.push_back({ id, QStringLiteral("phase"), p,
            parent.contains(p) ? QStringLiteral("phase:") + parent.value(p) : QString(), {} });
        // A phase's own timer, wherever it is called from, is the phase itself (priority 1); every
        // event called directly in phase P belongs to P (priority 0).
        m.associations.push_back(association(QStringLiteral("phase %1").arg(++n), 1, SelectorKind::Exact, p, id));
        m.associations.push_back(
            association(QStringLiteral("in phase %1").arg(n), 0, SelectorKind::CallPathParent, p, id));
    }
    return m;
}

const QRegularExpression& parameterPattern()
{
    static const QRegularExpression re(QStringLiteral("^(.+?) \\[ <(.+?)> = <(.*)> \\]$"));
    return re;
}

Model parameterModel(const Trial& trial)
{
    Model m;
    m.name = QStringLiteral("By parameter value");
    m.description = builtinModels()[3].description
        + QStringLiteral(
            " TAU's parameter timers measure their routine's time a second time; the base timer of such a "
            "routine goes to the entity \"(also measured by parameter timers)\" so that the routine is not "
            "counted twice.");
    QSet<QString> routines;
    std::vector<QString> order;
    for (EventId e : flatEvents(trial)) {
        const QRegularExpressionMatch match = parameterPattern().match(trial.event(e).name);
        if (match.hasMatch() && !routines.contains(match.captured(1))) {
            routines.insert(match.captured(1));
            order.push_back(match.captured(1));
        }
    }
    const QString duplicate = QStringLiteral("(also measured by parameter timers)");
    if (!order.empty())
        m.entities.push_back({ duplicate, QStringLiteral("duplicate"), duplicate, {}, {} });
    int n = 0;
    for (const QString& r : order) {
        m.entities.push_back({ QStringLiteral("routine:") + r, QStringLiteral("routine"), r, {}, {} });
        m.associations.push_back(
            association(QStringLiteral("base timer %1").arg(++n), 2, SelectorKind::Exact, r, duplicate));
    }
    m.associations.push_back(
        templated(QStringLiteral("parameter values"), 1, QStringLiteral("(.+?) \\[ <(.+?)> = <(.*)> \\]"),
            EntityTemplate { QStringLiteral("param:{1} [{2} = {3}]"), QStringLiteral("parameter"),
                QStringLiteral("{2} = {3}"), QStringLiteral("routine:{1}"),
                { { QStringLiteral("parameter"), QStringLiteral("{2}") },
                    { QStringLiteral("value"), QStringLiteral("{3}") } } }));
    m.associations.push_back(templated(QStringLiteral("routines"), 0, QStringLiteral("(.+)"),
        EntityTemplate { QStringLiteral("routine:{1}"), QStringLiteral("routine"), QStringLiteral("{1}"), {}, {} }));
    return m;
}

Model fileModel(const Trial&)
{
    Model m;
    m.name = QStringLiteral("By source file");
    m.description = builtinModels()[4].description;
    m.associations.push_back(templated(QStringLiteral("source file"), 0, QStringLiteral(".*\\[\\{([^}]+)\\}.*"),
        EntityTemplate { QStringLiteral("file:{1}"), QStringLiteral("file"), QStringLiteral("{1}"), {}, {} }));
    return m;
}

} // namespace

std::optional<Model> makeBuiltinModel(const QString& name, const Trial& trial)
{
    if (name == QLatin1String("group"))
        return groupModel(trial);
    if (name == QLatin1String("layer"))
        return layerModel(trial);
    if (name == QLatin1String("phase"))
        return phaseModel(trial);
    if (name == QLatin1String("parameter"))
        return parameterModel(trial);
    if (name == QLatin1String("file"))
        return fileModel(trial);
    return std::nullopt;
}

} // namespace parallax::semantic
