// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/matching.h"
#include "datasource/model/trial.h"
#include "views/flame/flamegraphwidget.h"

#include <QPointer>
#include <QStringList>
#include <QWidget>

class QComboBox;
class QLabel;
class QSplitter;

namespace parallax {

class SandwichWidget;
class SelectionState;

/// The comparison window's "Flame graph" tab (issue 16, section 2): the differential flame graph of
/// A and B (views/flame/flamegraphwidget.h), or the two runs stacked — A's shape above, B's below,
/// both coloured by Δ and zoomed together (their union trees have the same nodes, so a zoom into a
/// frame of one zooms the other into the same call path). A frame's context menu opens the sandwich
/// of its routine in the comparison; a click on a frame reports its call path (frameActivated) so
/// the window shows it in its other tabs.
class ComparisonFlamePage : public QWidget {
    Q_OBJECT
public:
    enum class Arrangement { Differential, Stacked };

    explicit ComparisonFlamePage(QWidget* parent = nullptr);
    ~ComparisonFlamePage() override;

    /// The runs (names for the stacked labels) and the comparison's event matching.
    void setRuns(TrialPtr a, TrialPtr b, const EventMatching& matching, const QString& nameA, const QString& nameB);
    /// A's metric of the comparison; whether higher is better decides the colour of a sign.
    void setMetric(MetricId inA, bool higherIsBetter);
    /// The statistic, or one thread of A (the same thread of B is compared).
    void setSource(FlameGraphWidget::Source source, ThreadIndex threadOfA = {});
    void setChangeScale(FlameGraphWidget::ChangeScale scale);
    void setArrangement(Arrangement arrangement);
    Arrangement arrangement() const { return m_arrangement; }

    /// The differential graph, or A's in the stacked arrangement.
    FlameGraphWidget* flame() const { return m_flame; }
    /// B's graph of the stacked arrangement (made when first stacked; null before).
    FlameGraphWidget* flameB() const { return m_flameB; }
    SelectionState* selection() const { return m_state; }
    /// Computes what is pending and waits (headless rendering, tests).
    void updateNow();
    /// Opens the sandwich of a routine (its match key) in the comparison, as a window of its own;
    /// what a frame's "Sandwich of" does. Null before the runs are set.
    SandwichWidget* openSandwich(const QString& key);
    /// The sandwich window last opened (null once closed).
    SandwichWidget* lastSandwich() const;

Q_SIGNALS:
    /// A frame was clicked: its call path of match keys from the root.
    void frameActivated(const QStringList& path);

private:
    void ensureFlameB();
    void connectFlame(FlameGraphWidget* f);
    void syncZoom(FlameGraphWidget* from, int node);

    SelectionState* m_state;
    TrialPtr m_b;
    EventMatching m_matching;
    Arrangement m_arrangement = Arrangement::Differential;
    FlameWidth m_shape = FlameWidth::Max; ///< the differential graph's Shape choice
    FlameGraphWidget::Source m_source = FlameGraphWidget::Source::Mean;
    QComboBox* m_arrangementBox;
    QLabel* m_note;
    QLabel* m_labelA;
    QLabel* m_labelB;
    QWidget* m_pageB;
    FlameGraphWidget* m_flame;
    FlameGraphWidget* m_flameB = nullptr;
    QPointer<SandwichWidget> m_sandwich;
};

} // namespace parallax
