// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>
#include <QToolButton>
#include <functional>

class QWidget;

namespace parallax {

/// Renders a widget (any chart or view) to PNG, SVG or PDF, chosen by the file suffix. Works
/// without a display (offscreen platform). Returns an empty string or what went wrong.
QString exportWidget(QWidget* widget, const QString& fileName);

/// Asks for a file name (PNG, SVG, PDF) in a dialog titled `title`, writes it with `write` (which
/// returns an empty string or what went wrong) and shows a message box on failure.
bool exportInteractively(QWidget* parent, const QString& title, const QString& suggestedName,
    const std::function<QString(const QString&)>& write);

/// Asks for a file name (PNG, SVG, PDF) and exports; shows a message box on failure.
bool exportWidgetInteractively(QWidget* widget, QWidget* parent, const QString& suggestedName);

/// The "Export…" button of a view's control bar, owned by `parent`: `toolTip` says what it saves,
/// a click calls `exportNow` (which typically asks for a file name and exports).
QToolButton* newExportButton(QWidget* parent, const QString& toolTip, std::function<void()> exportNow);
/// A file name for an image of something named `name`: characters other than letters, digits,
/// '_', '.' and '-' become '-', and ".png" is appended.
QString imageFileName(QString name);

} // namespace parallax
