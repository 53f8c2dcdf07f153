// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// What the launchers of the windows other than the main one (comparisonlauncher,
// semanticlauncher) share: reading the trials off the GUI thread, the --size option, errors on
// stderr, and rendering a registry view then quitting.

#include "datasource/model/trial.h"

#include <QSize>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

namespace parallax {

struct RenderTarget;
enum class RenderWindow;

/// Trials read with the ReaderRegistry, or the first error.
struct LoadedTrials {
    std::vector<std::shared_ptr<const Trial>> trials;
    QString error;
};

/// Reads every path in order (on the calling thread); stops at the first error.
LoadedTrials readTrials(const QStringList& paths, const QString& format);

/// When the trials could not be read: prints the error (and shows it in a message box when
/// `interactive`), quits the event loop with 1 and returns true.
bool quitOnLoadError(const LoadedTrials& loaded, bool interactive);

/// "parallax: MESSAGE" on stderr.
void printLaunchError(const QString& message);

/// With PARALLAX_TIMINGS set (benchmarks, docs/HACKING.md): "parallax: timing: WHAT after N ms" on
/// stderr, N the time since the process started (the kernel's start time, so loading the program
/// counts), for what a user waits for rather than the whole process (which also waits for a
/// background cache write before it exits).
void reportTiming(const char* what);

/// --size WIDTHxHEIGHT (at least 200x150); an empty text gives 1400x900. False when malformed.
bool parseLaunchSize(const QString& text, QSize* size);

/// Checks --render (when given: a view of `window`, with --out) and --size (into `size`) as the
/// launch of `option` ("--compare", "--semantic"...) takes them; prints the error and returns 2
/// (bad arguments), or returns 0. `expected` names the views accepted, for the message.
int checkLaunchOptions(const QString& render, const QString& out, RenderWindow window, const QString& option,
    const QString& expected, const QString& sizeText, QSize* size);

/// Renders the registry view `name` of the window in `target` to `out`, then quits the event
/// loop with 0, or 1 after printing the error.
void renderAndQuit(const QString& name, const RenderTarget& target, const QString& out, const QSize& size,
    const QString& argument = {});

} // namespace parallax
