// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QColor>
#include <QString>

namespace parallax {

/// One colour per event name, the same in every window, trial and run (a fixed hash of the name
/// into a palette of well-separated colours, not qHash, whose seed changes per process).
QColor eventColor(const QString& name);
/// Sequential colour map for magnitudes, t in [0, 1] (light to dark red).
QColor sequentialColor(double t);
/// Diverging colour map for signed differences, t in [-1, 1] (blue - white - red).
QColor divergingColor(double t);

} // namespace parallax
