// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/charts/chartstyle.h"

#include "views/charts/chartexport.h"
#include "views/common/valueformatter.h"
#include "views/viewsetup.h"

#include <QFileInfo>
#include <QPalette>
#include <QSvgGenerator>

namespace parallax {

namespace {

void styleAxis(QCPAxis* axis, const QPalette& palette)
{
    const QColor text = palette.color(QPalette::WindowText);
    QColor grid = palette.color(QPalette::Mid);
    grid.setAlpha(110);
    QColor subGrid = grid;
    subGrid.setAlpha(50);
    axis->setBasePen(QPen(text, 1));
    axis->setTickPen(QPen(text, 1));
    axis->setSubTickPen(QPen(text, 1));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    axis->grid()->setSubGridPen(QPen(subGrid, 1, Qt::DotLine));
    axis->grid()->setZeroLinePen(QPen(grid, 1));
    axis->setSelectedTickLabelColor(palette.color(QPalette::Highlight));
    axis->setSelectedLabelColor(palette.color(QPalette::Highlight));
}

void styleLayout(QCPLayout* layout, const QPalette& palette)
{
    for (int i = 0; i < layout->elementCount(); ++i) {
        QCPLayoutElement* element = layout->elementAt(i);
        if (auto* text = qobject_cast<QCPTextElement*>(element))
            text->setTextColor(palette.color(QPalette::WindowText));
        else if (auto* legend = qobject_cast<QCPLegend*>(element)) {
            legend->setBrush(palette.brush(QPalette::Base));
            legend->setBorderPen(QPen(palette.color(QPalette::Mid)));
            legend->setTextColor(palette.color(QPalette::Text));
        } else if (auto* sub = qobject_cast<QCPLayout*>(element))
            styleLayout(sub, palette);
    }
}

} // namespace

void ChartStyle::apply(QCustomPlot* plot)
{
    const QPalette palette = plot->palette();
    plot->setBackground(palette.brush(QPalette::Window));
    plot->setLocale(locale());
    for (QCPAxisRect* rect : plot->axisRects()) {
        rect->setBackground(palette.brush(QPalette::Base));
        for (QCPAxis* axis : rect->axes())
            styleAxis(axis, palette);
    }
    styleLayout(plot->plotLayout(), palette);
    if (plot->legend) {
        plot->legend->setBrush(palette.brush(QPalette::Base));
        plot->legend->setTextColor(palette.color(QPalette::Text));
    }
}

QCPTextElement* ChartStyle::addTitle(QCustomPlot* plot)
{
    plot->plotLayout()->insertRow(0);
    return addTitle(plot, 0);
}

QCPTextElement* ChartStyle::addTitle(QCustomPlot* plot, int row)
{
    // A bold title over a caption line in normal weight, both in one cell of the plot layout.
    auto* grid = new QCPLayoutGrid;
    plot->plotLayout()->addElement(row, 0, grid);
    grid->setRowSpacing(0);
    auto* title = new QCPTextElement(plot, QString(), boldFont(plot->font()));
    title->setMargins(QMargins(8, 6, 8, 0));
    auto* caption = new QCPTextElement(plot, QString(), plot->font());
    caption->setMargins(QMargins(8, 2, 8, 0));
    grid->addElement(0, 0, title);
    grid->addElement(1, 0, caption);
    const QColor text = plot->palette().color(QPalette::WindowText);
    title->setTextColor(text);
    caption->setTextColor(text);
    return title;
}

void ChartStyle::placeLegendBeside(QCustomPlot* plot, QCPAxisRect* rect, int row)
{
    QCPLegend* legend = plot->legend;
    rect->insetLayout()->take(legend);
    QCPLayoutGrid* grid = plot->plotLayout();
    auto* side = new QCPLayoutGrid;
    grid->addElement(row, 1, side);
    side->addElement(0, 0, legend);
    side->addElement(1, 0, new QCPLayoutElement(plot));
    side->setRowStretchFactor(0, 0.001);
    side->setRowStretchFactor(1, 1);
    side->setMargins(QMargins(4, 0, 10, 0));
    legend->setMargins(QMargins(8, 4, 8, 4));
    grid->setColumnStretchFactor(0, 1);
    grid->setColumnStretchFactor(1, 0.001);
}

void ChartStyle::setTitle(QCPTextElement* element, const QString& title, const QString& subtitle)
{
    element->setText(title);
    auto* grid = qobject_cast<QCPLayoutGrid*>(element->layout());
    if (!grid || grid->rowCount() < 2)
        return;
    if (auto* caption = qobject_cast<QCPTextElement*>(grid->element(1, 0))) {
        caption->setText(subtitle);
        caption->setVisible(!subtitle.isEmpty());
    }
}

QLocale ChartStyle::locale() { return groupingLocale(); }

QColor ChartStyle::highlightColor(const QPalette& palette) { return palette.color(QPalette::Highlight); }

QColor ChartStyle::referenceColor(const QPalette& palette) { return palette.color(QPalette::Text); }

QString ChartStyle::exportPlot(QCustomPlot* plot, const QString& fileName, int width, int height)
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    const int w = width > 0 ? width : plot->width();
    const int h = height > 0 ? height : plot->height();
    if (suffix == QLatin1String("png") || suffix.isEmpty()) {
        if (!plot->savePng(fileName, w, h, 1.0, -1, 96))
            return QObject::tr("%1: cannot write PNG").arg(fileName);
        return {};
    }
    if (suffix == QLatin1String("pdf")) {
        if (!plot->savePdf(fileName, w, h, QCP::epNoCosmetic))
            return QObject::tr("%1: cannot write PDF").arg(fileName);
        return {};
    }
    if (suffix == QLatin1String("svg")) {
        // Draw through QCPPainter so the SVG holds vectors, not a screenshot.
        QSvgGenerator svg;
        svg.setFileName(fileName);
        svg.setSize(QSize(w, h));
        svg.setViewBox(QRect(0, 0, w, h));
        // Fonts are in points: the screen's resolution keeps their size relative to the chart.
        svg.setResolution(plot->logicalDpiX());
        svg.setTitle(plot->window()->windowTitle());
        QCPPainter painter;
        if (!painter.begin(&svg))
            return QObject::tr("%1: cannot write SVG").arg(fileName);
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        plot->toPainter(&painter, w, h);
        painter.end();
        return {};
    }
    return QObject::tr("%1: unknown image type '%2' (use .png, .svg or .pdf)").arg(fileName, suffix);
}

bool ChartStyle::exportPlotInteractively(QCustomPlot* plot, QWidget* parent, const QString& suggestedName)
{
    return exportInteractively(parent, QObject::tr("Export Chart"), suggestedName, [plot](QString fileName) {
        if (QFileInfo(fileName).suffix().isEmpty())
            fileName += QLatin1String(".png");
        return exportPlot(plot, fileName);
    });
}

} // namespace parallax
