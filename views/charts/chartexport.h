// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>

class QWidget;

namespace parallax {

/// Renders a widget (any chart or view) to PNG, SVG or PDF, chosen by the file suffix. Works
/// without a display (offscreen platform). Returns an empty string or what went wrong.
QString exportWidget(QWidget* widget, const QString& fileName);

/// Asks for a file name (PNG, SVG, PDF) and exports; shows a message box on failure.
bool exportWidgetInteractively(QWidget* widget, QWidget* parent, const QString& suggestedName);

} // namespace parallax
