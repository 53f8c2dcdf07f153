// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>
#include <QStringList>
#include <span>

namespace parallax {

/// Every view `parallax --render VIEW --out FILE` draws. The table behind renderViews() is the one
/// place these are named: the GUI's --help lists it, the command line is checked against it, and
/// each window's render dispatch switches over this enum.
enum class RenderView {
    // The main window (a trial: PATH, or --db/--id).
    Overview,
    Table,
    Tree,
    CallGraph,
    UserEvents,
    Summary,
    Event,
    Thread,
    Histogram,
    Databases,
    Metadata,
    // The comparison window (--compare A B).
    CompareSideBySide,
    CompareSigned,
    CompareTree,
    CompareCallGraph,
    CompareSummary,
    // The scaling view (--scaling A B C...).
    Scaling,
    // The semantic window (--semantic MODEL PATH).
    SemanticBars,
    SemanticTree,
    SemanticMatrix,
    SemanticInspector,
    SemanticRules,
};

/// The window a view is drawn from, i.e. the launch option the view needs.
enum class RenderWindow { Main, Compare, Scaling, Semantic };

struct RenderViewInfo {
    RenderView view;
    RenderWindow window;
    const char* name; ///< as typed after --render
    const char* argument; ///< "" or the argument the view takes first ("NAME", "N,C,T")
    const char* alias; ///< "" or another accepted name
    const char* description; ///< one line for --help
};

/// The table, in the order --help lists it.
std::span<const RenderViewInfo> renderViews();

/// The view a --render name means (case-insensitive, aliases included); nullptr if none.
const RenderViewInfo* findRenderView(const QString& name);
const RenderViewInfo& renderViewInfo(RenderView view);

/// The names of one window's views, "overview, table, ..." (arguments included: "event NAME").
QString renderViewNames(RenderWindow window);
/// How a window is opened on the command line ("PATH", "--compare A B", ...).
QString renderWindowLaunch(RenderWindow window);

/// The "Views for --render" section of `parallax --help`, generated from the table.
QString renderViewsHelp();

} // namespace parallax
