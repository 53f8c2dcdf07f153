// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QColor>
#include <QPalette>
#include <QString>
#include <vector>

namespace parallax {

/// One colour per event name, the same in every window, trial and run (a fixed hash of the name
/// into a palette of well-separated colours, not qHash, whose seed changes per process).
QColor eventColor(const QString& name);
/// The colour of an event of a trial, the same in every window of that trial: the 20 largest flat
/// events (mean exclusive value of the first metric, the overview's default order) take the 20 hues
/// of a qualitative palette in an order where neighbours differ in hue and lightness, so adjacent
/// segments of a stacked bar are told apart; the others (and call paths) keep eventColor(name).
/// Computed once per trial.
QColor eventColor(const Trial& trial, EventId event);
/// The palette of eventColor(trial, event) in rank order.
const std::vector<QRgb>& rankedPalette();
/// A link colour that reads on the palette's window: the palette's own Link when its lightness differs
/// from the window's by at least 100 (of 255), else a light blue on dark windows (Qt's default link
/// blue on a dark theme is nearly invisible) or a dark blue on light ones.
QColor readableLinkColor(const QPalette& palette);
/// Sequential colour map for magnitudes, t in [0, 1] (light to dark red).
QColor sequentialColor(double t);
/// Diverging colour map for signed differences, t in [-1, 1] (blue - white - red).
QColor divergingColor(double t);

} // namespace parallax
