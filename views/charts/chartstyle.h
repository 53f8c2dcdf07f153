// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "views/charts/qcustomplotwrapper.h"

#include <QColor>
#include <QLocale>
#include <QString>

class QPalette;
class QWidget;

namespace parallax {

/// The look and the export of every QCustomPlot chart: colours from the widget's palette (so a
/// dark theme is readable), a title row, a locale with digit grouping, and PNG/SVG/PDF export of
/// the plot alone (vector output for SVG and PDF).
class ChartStyle {
public:
    /// Axis, grid, tick-label, legend and title colours from the plot's palette. Call again on
    /// QEvent::PaletteChange.
    static void apply(QCustomPlot* plot);

    /// Inserts a title row above the axis rect: a bold title over a caption line. Returns the title
    /// element (owned by the plot); pass it to setTitle().
    static QCPTextElement* addTitle(QCustomPlot* plot);
    /// The same title and caption in the empty cell (row, 0) of the plot layout (charts with
    /// several axis rects, each under its own title).
    static QCPTextElement* addTitle(QCustomPlot* plot, int row);
    /// Sets the title and the caption line under it (hidden when empty).
    static void setTitle(QCPTextElement* element, const QString& title, const QString& subtitle = {});
    /// Moves the plot's legend out of `rect` into a column to the right of it (in row `row` of the
    /// plot layout), at the top of its cell instead of spread over the chart's height.
    static void placeLegendBeside(QCustomPlot* plot, QCPAxisRect* rect, int row);

    /// The locale charts format numbers with: the system locale, with digit grouping on (the C
    /// locale becomes US English, as in the tables).
    static QLocale locale();

    /// The bar colour of a highlighted (selected) item.
    static QColor highlightColor(const QPalette& palette);
    /// The colour of reference lines (mean, min, max) that reads on the plot background.
    static QColor referenceColor(const QPalette& palette);

    /// Writes the plot to PNG, SVG or PDF, chosen by the suffix. Width and height 0 use the
    /// widget's size. Returns an empty string or what went wrong.
    static QString exportPlot(QCustomPlot* plot, const QString& fileName, int width = 0, int height = 0);
    /// Asks for a file name, exports, and reports failure in a message box.
    static bool exportPlotInteractively(QCustomPlot* plot, QWidget* parent, const QString& suggestedName);
};

} // namespace parallax
