// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>
#include <functional>
#include <span>

class QWidget;

namespace parallax {

class ComparisonWindow;
class MainWindow;
class HistoryView;
class ScalingView;
class SelectionState;
class SemanticWindow;

/// The window a view lives in, i.e. the launch option the view needs.
enum class RenderWindow { Main, Compare, Scaling, Semantic, History };

/// Where the main window puts a view's widget.
enum class ViewPlacement {
    Tab, ///< a tab of the central tab widget (in the table's order; Ctrl+1, Ctrl+2... in the View menu)
    Dock, ///< a dock on the right, tabified with the other docks of the table
    Shell, ///< a widget the main window makes and wires itself (the Databases dock)
    None, ///< no widget of its own: another view's widget shown differently, a dialog, another window
};

/// One headless rendering: `parallax --render NAME [ARGUMENT] --out FILE [--size WxH]`.
struct RenderRequest {
    QString argument; ///< the event NAME or thread N,C,T of the views that take one
    QString fileName; ///< PNG, SVG or PDF by suffix
    QSize size; ///< invalid: the current size
    std::function<void(const QString&)> done; ///< an empty string or the error, possibly later
    QString quantity; ///< --quantity of the communication matrix ("" = its default)
    QString context; ///< --context of the communication matrix ("" = all contexts)
};

/// The window a render function draws from: the one of its RenderWindow is set.
struct RenderTarget {
    MainWindow* main = nullptr;
    ComparisonWindow* comparison = nullptr;
    ScalingView* scaling = nullptr;
    SemanticWindow* semantic = nullptr;
    HistoryView* history = nullptr;
};

/// One view of the registry: its name for --render and --tab, its line of --help, where the main
/// window places it and how it is made, and how it is drawn headless.
struct ViewInfo {
    RenderWindow window;
    const char* name; ///< as typed after --render
    const char* argument; ///< "" or the argument the view takes first ("NAME", "N,C,T")
    const char* alias; ///< "" or another accepted name
    const char* description; ///< one line for --help
    // The main window's views:
    const char* tab; ///< the name --tab and the View menu select it by; "" if none
    const char* title; ///< the tab's or dock's title ("" for None)
    ViewPlacement placement;
    QWidget* (*create)(SelectionState* state); ///< Tab and Dock: makes the widget
    // Every view:
    void (*render)(const RenderTarget& target, const RenderRequest& request);
};
/// The name the --render side of the registry goes by (tests and launchers).
using RenderViewInfo = ViewInfo;

/// The registry: every view, in the order --help lists them (and the main window's tabs and docks
/// are made in). Adding a view is one entry here (docs/HACKING.md).
std::span<const ViewInfo> renderViews();

/// The view a --render name means (case-insensitive, aliases included); nullptr if none.
const ViewInfo* findRenderView(const QString& name);
/// The main-window view --tab NAME selects (its tab name, name or alias); nullptr if none.
const ViewInfo* findTabView(const QString& name);

/// The names of one window's views, "overview, table, ..." (arguments included: "event NAME").
QString renderViewNames(RenderWindow window);
/// How a window is opened on the command line ("PATH", "--compare A B", ...).
QString renderWindowLaunch(RenderWindow window);
/// The names --tab accepts, "overview, statistics, ... or databases" (with "overview (default)"
/// when `markDefault`).
QString tabViewNames(bool markDefault = false);

/// The "Views for --render" section of `parallax --help`, generated from the registry.
QString renderViewsHelp();

} // namespace parallax
