// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>

namespace parallax {

/// What `parallax --semantic MODEL|builtin:NAME PATH [--render semantic-bars|semantic-tree|
/// semantic-matrix --out FILE]` asked for.
struct SemanticLaunch {
    /// A model file (JSON) or "builtin:NAME".
    QString model;
    /// The trial to read with the ReaderRegistry.
    QString path;
    /// A reader name, empty for detection.
    QString format;
    /// "semantic-bars", "semantic-tree" or "semantic-matrix"; empty opens the window.
    QString render;
    QString out;
    /// "WIDTHxHEIGHT"; empty for 1400x900.
    QString size;
    /// Optional display choices: a metric name, and "mean", "total" or a thread "N,C,T".
    QString metric;
    QString scope;
};

/// The render targets, for --help texts.
QString semanticRenderTargets();

/// Reads the trial off the GUI thread, opens a SemanticWindow (or renders one view to launch.out
/// and quits) and runs the event loop. Exit code: 0, 1 when the trial cannot be read, has not the
/// metric or thread asked for, the model cannot be used or the view cannot be rendered, 2 for bad
/// arguments (app/cli/commandline.h); errors go to stderr as "parallax: …".
int runSemanticLaunch(const SemanticLaunch& launch);

} // namespace parallax
