// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "views/charts/chartexport.h"

#include <QCoreApplication>
#include <QLayout>
#include <QSize>
#include <QString>
#include <QWidget>

namespace parallax::semanticview {

/// Renders a semantic widget to an image file (PNG, SVG or PDF by suffix) at `size` (invalid: its
/// current size), also when it has never been shown: a hidden top-level widget is shown off screen
/// for the grab so that its layouts and charts have their real geometry. Returns an empty string
/// or what went wrong (headless --render semantic-*).
inline QString renderWidgetToFile(QWidget* widget, const QString& fileName, const QSize& size)
{
    if (size.isValid())
        widget->resize(size);
    const bool showOffscreen = widget->isWindow() && !widget->isVisible();
    const bool hadAttribute = widget->testAttribute(Qt::WA_DontShowOnScreen);
    if (showOffscreen) {
        widget->setAttribute(Qt::WA_DontShowOnScreen, true);
        widget->show();
    }
    widget->ensurePolished();
    if (widget->layout())
        widget->layout()->activate();
    // Deliver the pending resize and layout events before grabbing.
    QCoreApplication::sendPostedEvents();
    if (size.isValid() && widget->size() != size)
        widget->resize(size);
    QString error = exportWidget(widget, fileName);
    if (showOffscreen) {
        widget->hide();
        widget->setAttribute(Qt::WA_DontShowOnScreen, hadAttribute);
    }
    return error;
}

} // namespace parallax::semanticview
