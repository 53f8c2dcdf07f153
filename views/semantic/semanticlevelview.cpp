// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/semantic/semanticlevelview.h"

#include "views/common/toolwindow.h"
#include "views/semantic/semanticformat.h"

#include <QHBoxLayout>
#include <QVBoxLayout>

namespace parallax {

SemanticLevelView::SemanticLevelView(
    SemanticLevelBox::LeavesAt leavesAt, const QString& levelLabel, const QString& levelToolTip, QWidget* parent)
    : QWidget(parent)
    , m_levelBox(new SemanticLevelBox(leavesAt, this))
{
    const ControlBarLayout column = addControlBar(this, 2, QMargins(4, 0, 4, 0));
    m_layout = column.column;
    m_controls = column.controls;
    m_levelBox->setToolTip(levelToolTip);
    addLabelled(m_controls, levelLabel, m_levelBox);
    m_controls->addSpacing(8);
    connect(m_levelBox, &SemanticLevelBox::levelChosen, this, &SemanticLevelView::setLevel);
}

void SemanticLevelView::setProfile(semantic::ProfilePtr profile)
{
    m_profile = std::move(profile);
    if (m_profile && m_metric.index() >= m_profile->metricCount())
        m_metric = MetricId(0u);
    resetForProfile();
    fillLevels();
    rebuild();
}

void SemanticLevelView::setMetric(MetricId metric)
{
    m_metric = metric;
    rebuild();
}

void SemanticLevelView::setTimeUnit(TimeUnit unit)
{
    m_unit = unit;
    rebuild();
}

void SemanticLevelView::setLevel(int depth)
{
    m_level = depth < 0 ? -1 : depth;
    m_levelBox->select(m_level);
    rebuild();
}

void SemanticLevelView::fillLevels() { m_level = m_levelBox->fill(m_profile.get(), m_level); }

QString SemanticLevelView::format(double value) const
{
    return semanticview::formatValue(m_profile.get(), m_metric, m_unit, value);
}

} // namespace parallax
