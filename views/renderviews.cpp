// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/renderviews.h"

#include <algorithm>
#include <iterator>

namespace parallax {

namespace {

    constexpr RenderViewInfo table[] = {
        { RenderView::Overview, RenderWindow::Main, "overview", "", "",
            "one stacked bar per thread under the mean, min, max and total rows" },
        { RenderView::Table, RenderWindow::Main, "table", "", "statistics",
            "the Statistics tab: pprof-style columns per event" },
        { RenderView::Tree, RenderWindow::Main, "tree", "", "", "the Statistics tab as a call tree" },
        { RenderView::CallGraph, RenderWindow::Main, "callgraph", "", "", "the call graph laid out by Graphviz dot" },
        { RenderView::UserEvents, RenderWindow::Main, "userevents", "", "", "the User Events tab" },
        { RenderView::Summary, RenderWindow::Main, "summary", "", "",
            "the Summary tab: source, threads, metrics, warnings, metadata" },
        { RenderView::Event, RenderWindow::Main, "event", "NAME", "", "one event across all threads" },
        { RenderView::Thread, RenderWindow::Main, "thread", "N,C,T", "", "all events of one thread" },
        { RenderView::Histogram, RenderWindow::Main, "histogram", "NAME", "",
            "the distribution of one event across threads" },
        { RenderView::Databases, RenderWindow::Main, "databases", "", "", "the Databases dock (with --search)" },
        { RenderView::Metadata, RenderWindow::Main, "metadata", "", "", "the metadata editor of the --db/--id trial" },
        { RenderView::CompareSideBySide, RenderWindow::Compare, "compare-sidebyside", "", "",
            "A's and B's bars per event with Δ and Δ%" },
        { RenderView::CompareSigned, RenderWindow::Compare, "compare-signed", "", "",
            "the signed difference around zero (blue: B cheaper, red: regression)" },
        { RenderView::CompareTree, RenderWindow::Compare, "compare-tree", "", "",
            "the union call tree with A, B, Δ and Δ%" },
        { RenderView::CompareCallGraph, RenderWindow::Compare, "compare-callgraph", "", "",
            "the difference's call graph, coloured by change" },
        { RenderView::CompareSummary, RenderWindow::Compare, "compare-summary", "", "",
            "metadata side by side, speed-up, top improvements and regressions" },
        { RenderView::Scaling, RenderWindow::Scaling, "scaling", "", "",
            "time and relative efficiency against the smallest run, per event" },
        { RenderView::SemanticBars, RenderWindow::Semantic, "semantic-bars", "", "",
            "the semantic profile as a sorted bar chart" },
        { RenderView::SemanticTree, RenderWindow::Semantic, "semantic-tree", "", "",
            "the entity tree with values, policies and mapping classes" },
        { RenderView::SemanticMatrix, RenderWindow::Semantic, "semantic-matrix", "", "",
            "one stacked bar per thread coloured by entity" },
        { RenderView::SemanticInspector, RenderWindow::Semantic, "semantic-inspector", "", "",
            "the mapping inspector: associations, events, weights, warnings" },
        { RenderView::SemanticRules, RenderWindow::Semantic, "semantic-rules", "", "",
            "the model's JSON in the rule editor" },
    };

    QString displayName(const RenderViewInfo& v)
    {
        QString s = QLatin1String(v.name);
        if (*v.argument)
            s += QLatin1Char(' ') + QLatin1String(v.argument);
        return s;
    }

} // namespace

std::span<const RenderViewInfo> renderViews() { return table; }

const RenderViewInfo* findRenderView(const QString& name)
{
    for (const RenderViewInfo& v : table)
        if (name.compare(QLatin1String(v.name), Qt::CaseInsensitive) == 0
            || (*v.alias && name.compare(QLatin1String(v.alias), Qt::CaseInsensitive) == 0))
            return &v;
    return nullptr;
}

const RenderViewInfo& renderViewInfo(RenderView view)
{
    return *std::find_if(
        std::begin(table), std::end(table), [view](const RenderViewInfo& v) { return v.view == view; });
}

QString renderViewNames(RenderWindow window)
{
    QStringList names;
    for (const RenderViewInfo& v : table)
        if (v.window == window)
            names << displayName(v);
    return names.join(QStringLiteral(", "));
}

QString renderWindowLaunch(RenderWindow window)
{
    switch (window) {
    case RenderWindow::Main:
        return QStringLiteral("PATH (or --db LOCATION --id N)");
    case RenderWindow::Compare:
        return QStringLiteral("--compare A B");
    case RenderWindow::Scaling:
        return QStringLiteral("--scaling A B C...");
    case RenderWindow::Semantic:
        return QStringLiteral("--semantic MODEL PATH");
    }
    return {};
}

QString renderViewsHelp()
{
    int width = 0;
    for (const RenderViewInfo& v : table)
        width = std::max(width, static_cast<int>(displayName(v).size()));
    QString text = QStringLiteral("Views for --render VIEW --out FILE (PNG, SVG or PDF by the suffix):\n");
    bool first = true;
    RenderWindow window = RenderWindow::Main;
    for (const RenderViewInfo& v : table) {
        if (first || v.window != window)
            text += QStringLiteral(" with %1:\n").arg(renderWindowLaunch(v.window));
        first = false;
        window = v.window;
        QString description = QString::fromUtf8(v.description);
        if (*v.alias)
            description += QStringLiteral(" (also '%1')").arg(QLatin1String(v.alias));
        text += QStringLiteral("  %1  %2\n").arg(displayName(v), -width).arg(description);
    }
    return text;
}

} // namespace parallax
