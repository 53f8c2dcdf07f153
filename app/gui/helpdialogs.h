// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>
#include <QStringList>

class QMenuBar;
class QWidget;

namespace parallax {

/// The user guide shown by Help ▸ User Guide: the README's GUI sections ("## The GUI" up to the
/// command line), without the screenshots. `readme` is the README's Markdown.
QString userGuideMarkdown(const QString& readme);

/// Every shortcut of the menus ("File ▸ Open Directory…  Ctrl+O"), then the keys the views
/// handle themselves (search, copy, history), as rows "where\tkeys".
QStringList keyboardShortcuts(const QMenuBar* menus);

/// Help ▸ User Guide: the README (compiled in as :/guide/README.md) in a text browser.
void showUserGuide(QWidget* parent);
/// Help ▸ Keyboard Shortcuts.
void showKeyboardShortcuts(const QMenuBar* menus, QWidget* parent);

} // namespace parallax
