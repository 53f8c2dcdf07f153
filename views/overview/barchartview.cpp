// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/overview/barchartview.h"

#include "views/charts/chartexport.h"
#include "views/common/valueformatter.h"
#include "views/overview/barlistwidget.h"
#include "views/overview/selectorbar.h"
#include "views/overview/valuetext.h"
#include "views/source/showsource.h"

#include <QVBoxLayout>
#include <algorithm>

namespace parallax {

BarChartView::BarChartView(SelectionState* state, SelectionChanges interest, const QString& exportName, QWidget* parent)
    : QWidget(parent)
    , SelectionView(this, state,
          interest | SelectionChange::Trial | SelectionChange::Metric | SelectionChange::ValueType
              | SelectionChange::TimeUnit)
    , m_state(state)
    , m_exportName(exportName)
{
    m_selectors = new SelectorBar(state, SelectorBar::AllSelectors, this);
    m_bars = new BarListWidget(this);
    m_bars->setExportName(exportName);
    m_bars->setToolTipProvider([this](int row, int segment) { return toolTip(row, segment); });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_selectors);
    layout->addWidget(m_bars, 1);

    connect(m_bars, &BarListWidget::aboutToPaint, this, [this] { beforePaint(); });
    connect(m_bars, &BarListWidget::labelClicked, this, [this](int row) { activate(row); });
    connect(
        m_bars, &BarListWidget::segmentClicked, this, [this](int row, int segment) { activateSegment(row, segment); });
    connect(m_bars, &BarListWidget::rowActivated, this, [this](int row) { activate(row); });
    m_bars->setMenuExtension(
        [this](QMenu* menu, int row, int segment) { addShowSourceAction(menu, m_state, menuEventAt(row, segment)); });
}

EventId BarChartView::menuEventAt(int, int segment) const
{
    const auto& data = m_bars->data();
    if (!data || segment < 0 || static_cast<std::size_t>(segment) >= data->segments.size()
        || data->segments[static_cast<std::size_t>(segment)].key == BarSegment::NoKey)
        return {};
    return EventId(data->segments[static_cast<std::size_t>(segment)].key);
}

BarChartView::~BarChartView() = default;

void BarChartView::activateSegment(int row, int) { activate(row); }

void BarChartView::beforePaint() { updatePending(); }

void BarChartView::addExportButton()
{
    m_selectors->addWidget(newExportButton(this, tr("Save the chart as PNG, SVG or PDF"),
        [this] { exportWidgetInteractively(m_bars->viewport(), this, m_exportName); }));
}

QString BarChartView::textAt(int row) const
{
    const auto& data = m_bars->data();
    if (!data || row < 0 || static_cast<std::size_t>(row) >= data->rows.size())
        return {};
    return data->rows[static_cast<std::size_t>(row)].text;
}

QString BarChartView::labelAt(int row) const
{
    const auto& data = m_bars->data();
    if (!data || row < 0 || static_cast<std::size_t>(row) >= data->rows.size())
        return {};
    return data->rows[static_cast<std::size_t>(row)].label;
}

QString BarChartView::exportImage(const QString& fileName)
{
    updateNow();
    return m_bars->exportImage(fileName);
}

void BarChartView::showPlaceholder(const QString& text)
{
    m_bars->setTitle({});
    m_bars->setPlaceholderText(text);
    m_bars->setData(std::make_shared<BarListData>());
}

void BarChartView::selectRow(int row, bool scroll)
{
    m_bars->setSelectedRow(row);
    if (scroll && row >= 0) {
        m_bars->setCurrentRow(row);
        m_bars->scrollToRow(row);
    }
}

QString BarChartView::valueTitle(const Metric& metric, ValueType type, TimeUnit unit)
{
    const QString unitText = valueUnit(metric, type, unit);
    return valueTypeName(type) + (unitText == QLatin1String("%") ? QString() : unitSuffix(unitText));
}

BarScale::BarScale(double lo, double hi)
    : m_lo(std::min(lo, 0.0))
    , m_span(std::max(hi, 0.0) - m_lo > 0 ? std::max(hi, 0.0) - m_lo : 1.0)
    , m_origin(static_cast<float>(-m_lo / m_span))
{
}

void BarScale::addSegment(BarListData& data, BarRow& bar, double value, std::uint32_t key) const
{
    const auto x = static_cast<float>((value - m_lo) / m_span);
    bar.firstSegment = static_cast<std::uint32_t>(data.segments.size());
    data.segments.push_back({ std::min(m_origin, x), std::max(m_origin, x), key });
    bar.segmentCount = 1;
    bar.end = std::max(m_origin, x);
}

} // namespace parallax
