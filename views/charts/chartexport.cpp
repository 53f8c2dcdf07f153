// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/charts/chartexport.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>

namespace parallax {

QString exportWidget(QWidget* widget, const QString& fileName)
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    const QSize size = widget->size();
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(fileName);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(widget->windowTitle());
        QPainter painter;
        if (!painter.begin(&svg))
            return QStringLiteral("%1: cannot write SVG").arg(fileName);
        widget->render(&painter);
        painter.end();
        return {};
    }
    if (suffix == QLatin1String("pdf")) {
        QPdfWriter pdf(fileName);
        pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(72);
        QPainter painter;
        if (!painter.begin(&pdf))
            return QStringLiteral("%1: cannot write PDF").arg(fileName);
        widget->render(&painter);
        painter.end();
        return {};
    }
    if (suffix == QLatin1String("png") || suffix.isEmpty()) {
        if (!widget->grab().save(fileName, "PNG"))
            return QStringLiteral("%1: cannot write PNG").arg(fileName);
        return {};
    }
    return QStringLiteral("%1: unknown image type '%2' (use .png, .svg or .pdf)").arg(fileName, suffix);
}

bool exportWidgetInteractively(QWidget* widget, QWidget* parent, const QString& suggestedName)
{
    const QString fileName = QFileDialog::getSaveFileName(parent, QObject::tr("Export Image"), suggestedName,
        QObject::tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"));
    if (fileName.isEmpty())
        return false;
    const QString error = exportWidget(widget, fileName);
    if (!error.isEmpty()) {
        QMessageBox::warning(parent, QObject::tr("Export Image"), error);
        return false;
    }
    return true;
}

} // namespace parallax
