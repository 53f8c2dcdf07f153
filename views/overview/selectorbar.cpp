// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/overview/selectorbar.h"

#include "views/common/flowlayout.h"
#include "views/selectionstate.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <utility>

namespace parallax {

namespace {

/// A label and its control kept together on one line of the flow layout.
QWidget* labelled(QWidget* parent, const QString& label, QWidget* control)
{
    auto* group = new QWidget(parent);
    auto* row = new QHBoxLayout(group);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(4);
    auto* title = new QLabel(label, group);
    title->setBuddy(control);
    row->addWidget(title);
    control->setParent(group);
    row->addWidget(control);
    return group;
}

QComboBox* addBox(FlowLayout* layout, QWidget* parent, const QString& label, QWidget** groupOut)
{
    auto* box = new QComboBox(parent);
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    *groupOut = labelled(parent, label, box);
    layout->addWidget(*groupOut);
    return box;
}

} // namespace

SelectorBar::SelectorBar(SelectionState* state, int selectors, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
{
    // A narrow dock wraps the controls onto more lines; none is ever clipped.
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    m_layout = new FlowLayout(this, 8, 4);
    m_layout->setContentsMargins(4, 2, 4, 2);
    if (selectors & MetricSelector) {
        m_metric = addBox(m_layout, this, tr("&Metric:"), &m_metricGroup);
        connect(m_metric, &QComboBox::activated, this, [this](int index) {
            if (index >= 0)
                m_state->setMetric(MetricId(static_cast<std::uint32_t>(index)));
        });
    }
    if (selectors & ValueSelector) {
        m_value = addBox(m_layout, this, tr("&Value:"), &m_valueGroup);
        for (int i = 0; i < ValueTypeCount; ++i)
            m_value->addItem(valueTypeName(static_cast<ValueType>(i)), i);
        connect(m_value, &QComboBox::activated, this,
            [this](int index) { m_state->setValueType(static_cast<ValueType>(m_value->itemData(index).toInt())); });
    }
    if (selectors & UnitSelector) {
        m_unit = addBox(m_layout, this, tr("&Unit:"), &m_unitGroup);
        const TimeUnit units[]
            = { TimeUnit::Microseconds, TimeUnit::Milliseconds, TimeUnit::Seconds, TimeUnit::HoursMinutesSeconds };
        const QString shortNames[] = { tr("µs"), tr("ms"), tr("s"), tr("h:m:s") };
        for (int i = 0; i < 4; ++i) {
            m_unit->addItem(shortNames[i], static_cast<int>(units[i]));
            m_unit->setItemData(i, timeUnitName(units[i]), Qt::ToolTipRole);
        }
        connect(m_unit, &QComboBox::activated, this,
            [this](int index) { m_state->setTimeUnit(static_cast<TimeUnit>(m_unit->itemData(index).toInt())); });
    }
    connect(m_state, &SelectionState::trialChanged, this, [this] {
        fillMetrics();
        syncFromState();
    });
    connect(m_state, &SelectionState::metricChanged, this, &SelectorBar::syncFromState);
    connect(m_state, &SelectionState::valueTypeChanged, this, &SelectorBar::syncFromState);
    connect(m_state, &SelectionState::timeUnitChanged, this, &SelectorBar::syncFromState);
    fillMetrics();
    syncFromState();
}

void SelectorBar::addWidget(QWidget* widget, const QString& label)
{
    m_layout->addWidget(label.isEmpty() ? widget : labelled(this, label, widget));
}

void SelectorBar::setSelectorVisible(Selector selector, bool visible)
{
    for (const auto& [which, group] :
        { std::pair { MetricSelector, m_metricGroup }, { ValueSelector, m_valueGroup }, { UnitSelector, m_unitGroup } })
        if ((selector & which) && group)
            group->setVisible(visible);
}

void SelectorBar::fillMetrics()
{
    if (!m_metric)
        return;
    const QSignalBlocker block(m_metric);
    m_metric->clear();
    if (const auto& trial = m_state->trial())
        for (const Metric& metric : trial->metrics())
            m_metric->addItem(metric.name);
    m_metric->setEnabled(m_metric->count() > 1);
}

void SelectorBar::syncFromState()
{
    if (m_metric) {
        const QSignalBlocker block(m_metric);
        const MetricId metric = m_state->metric();
        m_metric->setCurrentIndex(metric.isValid() ? static_cast<int>(metric.index()) : -1);
    }
    if (m_value) {
        const QSignalBlocker block(m_value);
        m_value->setCurrentIndex(m_value->findData(static_cast<int>(m_state->valueType())));
    }
    if (m_unit) {
        const QSignalBlocker block(m_unit);
        m_unit->setCurrentIndex(m_unit->findData(static_cast<int>(m_state->timeUnit())));
        const auto& trial = m_state->trial();
        const MetricId metric = m_state->metric();
        const bool time = trial && metric.isValid() && trial->metric(metric).isTime();
        m_unit->setEnabled(time);
    }
}

} // namespace parallax
