// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/browsecommand.h"

#include "algebra/cubespace.h"
#include "algebra/units.h"
#include "app/cli/algebracommand.h"
#include "app/cli/commandline.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>
#include <limits>

namespace parallax {

using namespace cli;

namespace {

/// "0-15,32": thread indices (0-based, in the trial's thread order); nullopt on a malformed spec.
std::optional<std::vector<std::size_t>> parseThreadSpec(const QString& spec, std::size_t threads, QString* error)
{
    std::vector<std::size_t> out;
    for (const QString& part : spec.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList ends = part.trimmed().split(QLatin1Char('-'));
        bool ok1 = false;
        bool ok2 = true;
        const qlonglong lo = ends.value(0).toLongLong(&ok1);
        const qlonglong hi = ends.size() == 2 ? ends[1].toLongLong(&ok2) : lo;
        if (ends.size() > 2 || !ok1 || !ok2 || lo < 0 || hi < lo) {
            *error = QStringLiteral("'%1' in --threads is not an index or a range a-b").arg(part);
            return std::nullopt;
        }
        if (static_cast<std::size_t>(hi) >= threads) {
            *error = QStringLiteral("--threads %1: the trial has threads 0-%2").arg(part).arg(threads - 1);
            return std::nullopt;
        }
        for (qlonglong t = lo; t <= hi; ++t)
            out.push_back(static_cast<std::size_t>(t));
    }
    if (out.empty()) {
        *error = QStringLiteral("--threads names no thread");
        return std::nullopt;
    }
    return out;
}

struct Visible {
    int item;
    int level; ///< indentation
};

/// The items a tree view shows: roots, and the children of expanded items.
std::vector<Visible> visibleItems(const CubeSpace& space, CubePane pane, const CubePaneState& state)
{
    std::vector<Visible> out;
    auto walk = [&](int i, int level, auto&& self) -> void {
        out.push_back({ i, level });
        if (state.isExpanded(i))
            for (int c : space.item(pane, i).children)
                self(c, level + 1, self);
    };
    for (int r : space.roots(pane))
        walk(r, 0, walk);
    return out;
}

QString valueText(const CubeSpace& space, CubePane pane, int item, double v, const CubeState& state)
{
    if (std::isnan(v))
        return QStringLiteral("—");
    // The unit of the values is the first selected metric's (the metric pane: the item's own).
    int metricItem = pane == CubePane::Metric           ? item
        : state.pane(CubePane::Metric).selected.empty() ? -1
                                                        : state.pane(CubePane::Metric).selected.front();
    const int ref = metricItem < 0 ? -1 : space.item(CubePane::Metric, metricItem).ref;
    if (ref < 0)
        return formatNumber(v);
    return formatMetricValue(v, space.trial().metrics()[static_cast<std::size_t>(ref)], TimeUnit::Milliseconds);
}

QString modeText(double v)
{
    if (std::isnan(v))
        return QStringLiteral("—");
    return QLocale().toString(v, 'f', 2) + QStringLiteral(" %");
}

} // namespace

int runBrowseCommand(const QStringList& args)
{
    Command cmd(QStringLiteral("browse"), QStringLiteral("PATH"),
        QStringLiteral("The CUBE view of a profile: the metric tree, the call tree and the system tree (machine,\n"
                       "node, process, thread) for one selection. An item's value sums over the selections of the\n"
                       "panes to its left and over everything in the panes to its right; a collapsed item shows\n"
                       "its inclusive value, an expanded one its own (exclusive) value, so the values a tree shows\n"
                       "add up to its root."));
    const auto metric = cmd.add({ QStringLiteral("metric") },
        QStringLiteral("Select this metric (repeatable; default: the first metric tree's root)."), QStringLiteral("M"));
    const auto call = cmd.add({ QStringLiteral("call") },
        QStringLiteral("Select this call path, 'a => b' or a region name (repeatable; default: the first root)."),
        QStringLiteral("NAME"));
    const auto threads = cmd.add({ QStringLiteral("threads") },
        QStringLiteral("Select these locations by thread index, e.g. 0-15,32 (default: all)."), QStringLiteral("SPEC"));
    const auto expand = cmd.add({ QStringLiteral("expand") },
        QStringLiteral("Expand the items above this depth in every pane: none (default), all, or a depth."),
        QStringLiteral("none|all|DEPTH"));
    const auto mode = cmd.add({ QStringLiteral("mode") },
        QStringLiteral("Also print each value in this mode: %1.").arg(cubeModeNames().join(QStringLiteral(", "))),
        QStringLiteral("MODE"));
    const auto external = cmd.add({ QStringLiteral("external") },
        QStringLiteral("The trial External % refers to (a path or db:ID)."), QStringLiteral("OTHER"));
    const auto order = cmd.add({ QStringLiteral("order") },
        QStringLiteral("The panes from left to right (default metric,call,system)."), QStringLiteral("A,B,C"));
    const auto flat
        = cmd.add({ QStringLiteral("flat") }, QStringLiteral("The flat region list instead of the call tree."));
    const auto json = cmd.add({ QStringLiteral("json") }, QStringLiteral("Print one JSON object."));
    const auto format = cmd.add({ QStringLiteral("format") },
        QStringLiteral("Read with this reader instead of detecting the format."), QStringLiteral("NAME"));
    const auto db = cmd.add({ QStringLiteral("db") },
        QStringLiteral("The database for db:ID operands (default $PARALLAX_DB or the default database)."),
        QStringLiteral("LOCATION"));
    cmd.addArgument(QStringLiteral("PATH"), QStringLiteral("A profile in any format Parallax reads, or db:ID."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    if (!cmd.checkReader(cmd.value(format)))
        return ExitUsage;
    if (cmd.positional().size() != 1)
        return cmd.usageError(QStringLiteral("give one PATH (a profile directory or file, or db:ID)"));
    if (!cmd.checkOperand(cmd.positional().first()))
        return ExitUsage;

    CubeState state;
    if (cmd.isSet(order)) {
        const QStringList names = cmd.value(order).split(QLatin1Char(','));
        std::array<bool, 3> seen {};
        if (names.size() != 3)
            return cmd.usageError(QStringLiteral("--order takes the three panes metric, call and system, e.g. "
                                                 "call,metric,system"));
        for (int k = 0; k < 3; ++k) {
            const auto p = cubePaneFromName(names[k].trimmed());
            if (!p || seen[CubeSpace::index(*p)])
                return cmd.usageError(QStringLiteral("--order: '%1' is not one of metric, call, system, or is "
                                                     "given twice")
                                          .arg(names[k]));
            seen[CubeSpace::index(*p)] = true;
            state.order[static_cast<std::size_t>(k)] = *p;
        }
    }
    CubeMode valueMode = CubeMode::Absolute;
    if (cmd.isSet(mode)) {
        const auto m = cubeModeFromName(cmd.value(mode));
        if (!m)
            return cmd.usageError(QStringLiteral("--mode takes %1, not '%2'")
                                      .arg(cubeModeNames().join(QStringLiteral(", ")), cmd.value(mode)));
        valueMode = *m;
    }
    int depth = 0;
    if (cmd.isSet(expand)) {
        const QString e = cmd.value(expand);
        if (e == QLatin1String("all"))
            depth = std::numeric_limits<int>::max();
        else if (e != QLatin1String("none")) {
            const auto d = cmd.integer(QStringLiteral("--expand"), e, 0, 1000);
            if (!d)
                return ExitUsage;
            depth = static_cast<int>(*d);
        }
    }
    if (valueMode == CubeMode::External && !cmd.isSet(external))
        return cmd.usageError(QStringLiteral("--mode external needs --external OTHER"));

    QString error;
    const auto trial = loadTrialOperand(cmd.positional().first(), cmd.value(db), cmd.value(format), &error);
    if (!trial)
        return failure(error);
    if (trial->metricCount() == 0)
        return failure(QStringLiteral("%1 has no metrics").arg(cmd.positional().first()));
    const CubeSpace space(trial, cmd.isSet(flat) ? CubeSpace::CallView::Flat : CubeSpace::CallView::Tree);
    {
        const CubeState defaults = CubeState::defaults(space);
        state.panes = defaults.panes;
    }
    auto select = [&](CubePane pane, const QStringList& names, const char* what) -> bool {
        if (names.isEmpty())
            return true;
        auto& sel = state.pane(pane).selected;
        sel.clear();
        for (const QString& n : names) {
            const int i = space.find(pane, n);
            if (i < 0) {
                error = QStringLiteral("%1 has no %2 '%3'").arg(cmd.positional().first(), QLatin1String(what), n);
                return false;
            }
            sel.push_back(i);
        }
        return true;
    };
    if (!select(CubePane::Metric, cmd.values(metric), "metric")
        || !select(CubePane::Call, cmd.values(call), "call path"))
        return failure(error);
    if (cmd.isSet(threads)) {
        const auto list = parseThreadSpec(cmd.value(threads), trial->threadCount(), &error);
        if (!list)
            return cmd.usageError(error);
        auto& sel = state.pane(CubePane::System).selected;
        sel.clear();
        for (std::size_t t : *list)
            sel.push_back(space.itemOfThread(ThreadIndex(t)));
    }
    for (const CubePane p : { CubePane::Metric, CubePane::Call, CubePane::System })
        for (std::size_t i = 0; i < space.size(p); ++i)
            if (space.item(p, static_cast<int>(i)).depth < depth
                && !space.item(p, static_cast<int>(i)).children.empty())
                state.pane(p).setExpanded(static_cast<int>(i), true);

    double externalRoot = std::numeric_limits<double>::quiet_NaN();
    if (cmd.isSet(external)) {
        const auto other = loadTrialOperand(cmd.value(external), cmd.value(db), QString(), &error);
        if (!other)
            return failure(error);
        const CubeSpace ext(other);
        const auto& sel = state.pane(CubePane::Metric).selected;
        const int ref = sel.empty() ? -1 : space.item(CubePane::Metric, sel.front()).ref;
        if (ref >= 0) {
            // The metric root's name: External % compares the whole of the same metric tree.
            const int root = space.item(CubePane::Metric, space.rootOf(CubePane::Metric, sel.front())).ref;
            externalRoot = ext.metricRootTotal(trial->metrics()[static_cast<std::size_t>(root < 0 ? ref : root)].name);
        }
    }

    const CubeValues values = computeCube(space, state);
    if (cmd.isSet(json)) {
        QJsonObject o;
        o.insert(QStringLiteral("trial"), trial->name());
        QJsonArray orderJson;
        for (CubePane p : state.order)
            orderJson.append(cubePaneName(p));
        o.insert(QStringLiteral("order"), orderJson);
        o.insert(QStringLiteral("mode"), cubeModeName(valueMode));
        o.insert(QStringLiteral("call_view"), cmd.isSet(flat) ? QStringLiteral("flat") : QStringLiteral("tree"));
        auto number = [](double v) { return std::isnan(v) ? QJsonValue() : QJsonValue(v); };
        o.insert(QStringLiteral("metric_root"), number(values.metricRoot));
        if (cmd.isSet(external))
            o.insert(QStringLiteral("external_root"), number(externalRoot));
        QJsonObject panes;
        for (const CubePane p : state.order) {
            QJsonArray items;
            const auto& ps = state.pane(p);
            for (const Visible& vi : visibleItems(space, p, ps)) {
                const CubeSpace::Item& it = space.item(p, vi.item);
                QJsonObject j;
                j.insert(QStringLiteral("id"), vi.item);
                j.insert(QStringLiteral("name"), space.label(p, vi.item));
                if (space.path(p, vi.item) != space.label(p, vi.item))
                    j.insert(QStringLiteral("path"), space.path(p, vi.item));
                j.insert(QStringLiteral("parent"), it.parent < 0 ? QJsonValue() : QJsonValue(it.parent));
                j.insert(QStringLiteral("depth"), it.depth);
                if (p == CubePane::System)
                    j.insert(QStringLiteral("level"), space.systemLevel(vi.item));
                j.insert(QStringLiteral("state"),
                    it.children.empty()          ? QStringLiteral("leaf")
                        : ps.isExpanded(vi.item) ? QStringLiteral("expanded")
                                                 : QStringLiteral("collapsed"));
                j.insert(QStringLiteral("selected"),
                    std::find(ps.selected.begin(), ps.selected.end(), vi.item) != ps.selected.end());
                j.insert(QStringLiteral("value"), number(values.value(p, vi.item, state)));
                j.insert(QStringLiteral("mode_value"),
                    number(cubeModeValue(space, state, values, p, vi.item, valueMode, externalRoot)));
                items.append(j);
            }
            panes.insert(cubePaneName(p), items);
        }
        o.insert(QStringLiteral("panes"), panes);
        printOut(QJsonDocument(o).toJson(QJsonDocument::Indented));
        return ExitSuccess;
    }

    QString out;
    for (const CubePane p : state.order) {
        const auto& ps = state.pane(p);
        out += QStringLiteral("%1 pane%2\n")
                   .arg(cubePaneName(p).left(1).toUpper() + cubePaneName(p).mid(1),
                       valueMode == CubeMode::Absolute ? QString()
                                                       : QStringLiteral(" (value, %1)").arg(cubeModeLabel(valueMode)));
        for (const Visible& vi : visibleItems(space, p, ps)) {
            const CubeSpace::Item& it = space.item(p, vi.item);
            const bool selected = std::find(ps.selected.begin(), ps.selected.end(), vi.item) != ps.selected.end();
            const QString marker = it.children.empty() ? QStringLiteral("  ")
                : ps.isExpanded(vi.item)               ? QStringLiteral("- ")
                                                       : QStringLiteral("+ ");
            QString line
                = QStringLiteral("%1%2 %3%4")
                      .arg(selected ? QStringLiteral("*") : QStringLiteral(" "))
                      .arg(valueText(space, p, vi.item, values.value(p, vi.item, state), state), 16)
                      .arg(QString(qsizetype(vi.level) * 2, QLatin1Char(' ')) + marker, space.label(p, vi.item));
            if (valueMode != CubeMode::Absolute)
                line.insert(17,
                    QStringLiteral("  %1").arg(
                        modeText(cubeModeValue(space, state, values, p, vi.item, valueMode, externalRoot)), 10));
            out += line + QLatin1Char('\n');
        }
        out += QLatin1Char('\n');
    }
    out += QStringLiteral("* selected; + collapsed (inclusive value); - expanded (own value); — no reference.\n");
    printOut(out);
    return ExitSuccess;
}

} // namespace parallax
