// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/charts/chartexport.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QToolButton>
#include <QWidget>

namespace parallax {

QString exportWidget(QWidget* widget, const QString& fileName)
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    const QSize size = widget->size();
    const auto renderTo = [&](QPaintDevice* device, const QString& kind) {
        QPainter painter;
        if (!painter.begin(device))
            return QStringLiteral("%1: cannot write %2").arg(fileName, kind);
        widget->render(&painter);
        painter.end();
        return QString();
    };
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(fileName);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(widget->windowTitle());
        return renderTo(&svg, QStringLiteral("SVG"));
    }
    if (suffix == QLatin1String("pdf")) {
        QPdfWriter pdf(fileName);
        pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(72);
        return renderTo(&pdf, QStringLiteral("PDF"));
    }
    if (suffix == QLatin1String("png") || suffix.isEmpty()) {
        if (!widget->grab().save(fileName, "PNG"))
            return QStringLiteral("%1: cannot write PNG").arg(fileName);
        return {};
    }
    return QStringLiteral("%1: unknown image type '%2' (use .png, .svg or .pdf)").arg(fileName, suffix);
}

bool exportInteractively(QWidget* parent, const QString& title, const QString& suggestedName,
    const std::function<QString(const QString&)>& write)
{
    const QString fileName = QFileDialog::getSaveFileName(
        parent, title, suggestedName, QObject::tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"));
    if (fileName.isEmpty())
        return false;
    const QString error = write(fileName);
    if (!error.isEmpty()) {
        QMessageBox::warning(parent, title, error);
        return false;
    }
    return true;
}

bool exportWidgetInteractively(QWidget* widget, QWidget* parent, const QString& suggestedName)
{
    return exportInteractively(parent, QObject::tr("Export Image"), suggestedName,
        [widget](const QString& fileName) { return exportWidget(widget, fileName); });
}

QToolButton* newExportButton(QWidget* parent, const QString& toolTip, std::function<void()> exportNow)
{
    auto* button = new QToolButton(parent);
    button->setText(QObject::tr("Export…"));
    button->setToolTip(toolTip);
    QObject::connect(button, &QToolButton::clicked, parent, std::move(exportNow));
    return button;
}

QString imageFileName(QString name)
{
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")), QStringLiteral("-"));
    return name + QLatin1String(".png");
}

} // namespace parallax
