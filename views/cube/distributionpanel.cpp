// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/cube/distributionpanel.h"

#include "algebra/cubespace.h"
#include "views/charts/colors.h"
#include "views/charts/qcustomplotwrapper.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace parallax {

DistributionPanel::DistributionPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_bins = new QSpinBox;
    m_bins->setRange(2, 200);
    m_bins->setValue(40);
    m_bins->setToolTip(tr("Number of histogram bins"));
    bar->addWidget(m_summary, 1);
    bar->addWidget(new QLabel(tr("Bins:")));
    bar->addWidget(m_bins);
    layout->addLayout(bar);
    auto* plots = new QHBoxLayout;
    m_histogram = new QCustomPlot;
    m_sortedPlot = new QCustomPlot;
    for (QCustomPlot* p : { m_histogram, m_sortedPlot }) {
        p->setMinimumSize(200, 150);
        plots->addWidget(p, 1);
    }
    m_histogram->xAxis->setLabel(tr("value"));
    m_histogram->yAxis->setLabel(tr("locations"));
    m_sortedPlot->xAxis->setLabel(tr("locations, sorted by value"));
    m_sortedPlot->yAxis->setLabel(tr("value"));
    layout->addLayout(plots, 1);
    connect(m_bins, &QSpinBox::valueChanged, this, &DistributionPanel::setBins);
}

void DistributionPanel::setValues(std::vector<double> byThread, const QString& what)
{
    m_values = std::move(byThread);
    m_what = what;
    rebuild();
}

void DistributionPanel::setBins(int bins)
{
    if (m_bins->value() != bins)
        m_bins->setValue(bins); // comes back here through valueChanged
    else
        rebuild();
}

void DistributionPanel::rebuild()
{
    m_sorted.clear();
    m_sorted.reserve(m_values.size());
    for (double v : m_values)
        if (!std::isnan(v))
            m_sorted.push_back(v);
    std::sort(m_sorted.begin(), m_sorted.end());
    const int bins = m_bins->value();
    m_counts.assign(static_cast<std::size_t>(bins), 0);
    m_histogram->clearPlottables();
    m_sortedPlot->clearPlottables();
    const QLocale locale;
    if (m_sorted.empty()) {
        m_summary->setText(tr("%1: no values").arg(m_what));
        m_histogram->replot();
        m_sortedPlot->replot();
        return;
    }
    const double low = m_sorted.front();
    const double high = m_sorted.back();
    m_low = low;
    m_width = high > low ? (high - low) / bins : 1.0;
    for (double v : m_sorted) {
        const auto b = std::min<std::size_t>(
            static_cast<std::size_t>(bins - 1), high > low ? static_cast<std::size_t>((v - low) / m_width) : 0);
        ++m_counts[b];
    }
    const BoxStats s = boxStats(m_sorted);
    m_summary->setText(
        tr("<b>%1</b> across %2 locations: min %3, Q1 %4, median %5, Q3 %6, max %7, mean %8; %9 "
           "outlier(s) beyond 1.5 IQR")
            .arg(m_what.toHtmlEscaped(), locale.toString(static_cast<qulonglong>(s.count)),
                locale.toString(s.min, 'g', 5), locale.toString(s.q1, 'g', 5), locale.toString(s.median, 'g', 5),
                locale.toString(s.q3, 'g', 5), locale.toString(s.max, 'g', 5), locale.toString(s.mean, 'g', 5))
            .arg(s.outliers));
    const QColor colour = sequentialColor(0.7);
    {
        QVector<double> x, y;
        for (int b = 0; b < bins; ++b) {
            x << low + (b + 0.5) * m_width;
            y << static_cast<double>(m_counts[static_cast<std::size_t>(b)]);
        }
        auto* bars = new QCPBars(m_histogram->xAxis, m_histogram->yAxis);
        bars->setWidth(m_width);
        bars->setData(x, y, true);
        bars->setBrush(colour);
        bars->setPen(QPen(colour.darker(130)));
        m_histogram->xAxis->setRange(low - m_width, high + m_width);
        m_histogram->yAxis->setRange(0, *std::max_element(y.begin(), y.end()) * 1.05 + 1);
    }
    {
        // At most ~4,000 points: every k-th sorted value (the first and last always), enough for
        // the curve's shape at any width.
        const std::size_t n = m_sorted.size();
        const std::size_t step = std::max<std::size_t>(1, n / 4000);
        QVector<double> x, y;
        for (std::size_t i = 0; i < n; i += step) {
            x << static_cast<double>(i);
            y << m_sorted[i];
        }
        if (x.back() != static_cast<double>(n - 1)) {
            x << static_cast<double>(n - 1);
            y << m_sorted.back();
        }
        auto* graph = m_sortedPlot->addGraph();
        graph->setData(x, y, true);
        graph->setPen(QPen(colour.darker(150), 1.5));
        m_sortedPlot->xAxis->setRange(0, std::max<double>(1, static_cast<double>(n - 1)));
        const double pad = high > low ? (high - low) * 0.05 : std::max(1.0, std::abs(high) * 0.05);
        m_sortedPlot->yAxis->setRange(low - pad, high + pad);
    }
    m_histogram->replot();
    m_sortedPlot->replot();
}

} // namespace parallax
