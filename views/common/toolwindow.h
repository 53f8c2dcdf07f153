// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QMargins>
#include <QSize>
#include <QString>
#include <functional>

class QBoxLayout;
class QHBoxLayout;
class QMainWindow;
class QVBoxLayout;
class QWidget;

namespace parallax {

// What the tool windows (the comparison and the semantic views, each a QMainWindow of its own)
// share: how they open, their central layout, and rendering once their layout has settled.

/// Makes `window` delete itself when closed and, with a parent, a window of its own; then shows it.
void showToolWindow(QMainWindow* window, QWidget* parent);
/// A central widget for `window` with the tool windows' margins; returns its layout (put the
/// controls and the tabs in it).
QVBoxLayout* addCentralLayout(QMainWindow* window);
/// A widget's column: a row of controls on top, then what the caller adds to the column.
struct ControlBarLayout {
    QVBoxLayout* column;
    QHBoxLayout* controls;
};
/// Lays `widget` out as a column without margins, `spacing` apart, that starts with a row of
/// controls (`controlMargins` inside it): the layout of the charts.
ControlBarLayout addControlBar(QWidget* widget, int spacing, const QMargins& controlMargins = {});
/// Adds `widget` to a control bar, after a label (its mnemonic names the widget; none when
/// `label` is empty).
void addLabelled(QBoxLayout* layout, const QString& label, QWidget* widget);
/// After `delayMs` (column widths and sizes settle through the event loop) resizes `window` to
/// `size` (when valid), lays it out, and calls done(render()): the image's error or "".
void renderWhenSettled(QWidget* window, const QSize& size, int delayMs, std::function<QString()> render,
    std::function<void(const QString&)> done);

} // namespace parallax
