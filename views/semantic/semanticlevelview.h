// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/semanticprofile.h"
#include "algebra/units.h"
#include "views/semantic/semanticlevelbox.h"

#include <QWidget>

class QHBoxLayout;
class QVBoxLayout;

namespace parallax {

/// The base of the semantic charts that show one metric of a semantic profile at a level of its
/// entity tree, the bar chart and the matrix: the profile, the metric, the time unit and the
/// level with the SemanticLevelBox that chooses it. A chart gives its drawing (rebuild()); each
/// of these settings rebuilds it.
class SemanticLevelView : public QWidget {
    Q_OBJECT
public:
    void setProfile(semantic::ProfilePtr profile);
    const semantic::ProfilePtr& profile() const { return m_profile; }
    void setMetric(MetricId metric);
    MetricId metric() const { return m_metric; }
    void setTimeUnit(TimeUnit unit);
    TimeUnit timeUnit() const { return m_unit; }
    /// Tree level of the entities shown: 0 = top level, 1, 2, ...; negative = the leaves (the
    /// default).
    void setLevel(int depth);
    int level() const { return m_level; }

protected:
    /// Lays the view out: a control bar on top that starts with the level box (the first child
    /// widget, leaves listed first or last) under `levelLabel`; the chart adds its own controls
    /// to m_controls and itself to m_layout, under the bar.
    SemanticLevelView(
        SemanticLevelBox::LeavesAt leavesAt, const QString& levelLabel, const QString& levelToolTip, QWidget* parent);

    /// A new profile (the metric is already valid for it): the chart drops what belonged to the
    /// previous one. Called before the levels are refilled and the chart rebuilt.
    virtual void resetForProfile() { }
    /// Draws the chart anew from the settings.
    virtual void rebuild() = 0;
    /// Lists the profile's levels in the level box, keeping the level when the profile has it.
    void fillLevels();
    /// A value of the metric in the time unit ("12.5 ms").
    QString format(double value) const;

    semantic::ProfilePtr m_profile;
    MetricId m_metric { 0u };
    TimeUnit m_unit = TimeUnit::Milliseconds;
    int m_level = -1;
    SemanticLevelBox* m_levelBox = nullptr;
    QVBoxLayout* m_layout = nullptr;
    QHBoxLayout* m_controls = nullptr;
};

} // namespace parallax
