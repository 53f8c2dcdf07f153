// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>
#include <QStringList>

namespace parallax {

class ComparisonWindow;

/// What `parallax --compare A B` and `parallax --scaling A B C …` asked for.
struct ComparisonLaunch {
    enum class Mode { Compare, Scaling };
    Mode mode = Mode::Compare;
    /// Trials to read with the ReaderRegistry (A then B for a comparison).
    QStringList paths;
    /// A reader name for every path, empty for detection.
    QString format;
    /// Headless rendering: a view of the Compare or Scaling window (app/gui/viewregistry.h);
    /// empty opens the window.
    QString render;
    /// The view's argument (compare-sandwich NAME).
    QString argument;
    QString out;
    /// "WIDTHxHEIGHT" for the rendered window; empty for 1400x900.
    QString size;
};

/// Applies the user's remembered comparison choices (QSettings "comparison/colourBy") to a window
/// the user opened and remembers what they choose there from now on.
void rememberComparisonChoices(ComparisonWindow* window);

/// The render targets a launch accepts, for --help texts.
QString comparisonRenderTargets();

/// Reads the trials off the GUI thread, then opens a ComparisonWindow or a ScalingView (or renders
/// it to launch.out and quits), and runs the application's event loop. Returns the exit code:
/// 0, 1 when a trial cannot be read or a view cannot be rendered, 2 for bad arguments. Errors are
/// printed to stderr as "parallax: …".
int runComparisonLaunch(const ComparisonLaunch& launch);

} // namespace parallax
