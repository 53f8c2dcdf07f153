// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "views/semantic/semanticlevelview.h"

#include <vector>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QCPItemText;
class QCPTextElement;
class QMouseEvent;

namespace parallax {

/// The semantic bar chart (issue 5): one horizontal bar per entity at a chosen level of the entity
/// tree (or the leaves), sorted by value, each labelled with its value, % of total, % of parent and
/// the badge of the policy that produced it. "Without mapping" shows the same trial as its raw
/// source events (flat events, or call paths for a call-path model), each with the entity it maps
/// to; the chart title always shows both totals, Σ with mapping and Σ without, which agree
/// (conservation, docs/SEMANTICS.md 5.3). More bars than setMaxBars() are summed into one "(n more)" bar
/// so that the total stays visible.
class SemanticBarChart : public SemanticLevelView {
    Q_OBJECT
public:
    /// One bar, top to bottom.
    struct Bar {
        QString label;
        double value = 0;
        double percentTotal = 0; ///< NaN when T = 0
        double percentParent = 0; ///< NaN for roots, raw events and the rest bar
        QString badge; ///< policy badge, or "→ entity" for raw events
        int entity = -1; ///< the entity (mapped view), -1 otherwise
        bool self = false; ///< the (self) part of entity
        EventId event; ///< the raw event (unmapped view)
        bool rest = false; ///< the "(n more)" bar
        QColor color;
    };

    explicit SemanticBarChart(QWidget* parent = nullptr);

    void setScope(const semantic::Scope& scope);
    /// True: entities; false: the raw source events of the same trial.
    void setWithMapping(bool with);
    bool withMapping() const { return m_withMapping; }
    /// At most this many bars; the rest are summed into one bar (default 24).
    void setMaxBars(int bars);
    /// Outlines an entity's bar (-1 clears).
    void highlightEntity(int entity);

    const std::vector<Bar>& bars() const { return m_bars; }
    /// Σ of the bars with mapping (all entities' own values) and without (all source events' excl).
    double totalWithMapping() const { return m_totalWith; }
    double totalWithoutMapping() const { return m_totalWithout; }
    /// The chart's title and caption as shown.
    QString title() const;
    /// The label text beside bar `i` as shown (tests).
    QString barLabel(std::size_t i) const;
    /// How many pixels the widest bar label reaches past the chart's right edge (0 when all fit).
    int labelOverflow() const;
    QCustomPlot* plot() const { return m_plot; }
    /// Writes the plot to PNG, SVG or PDF (by suffix); size 0: the widget's size.
    QString exportImage(const QString& fileName, int width = 0, int height = 0) const;

Q_SIGNALS:
    /// A bar of an entity (or its (self) part) was clicked.
    void entityClicked(int entity);
    /// A raw event's bar was clicked (without mapping).
    void eventClicked(parallax::EventId event);

private:
    void resetForProfile() override;
    void rebuild() override;
    QString toolTip(const Bar& bar) const;
    int barAt(const QPointF& pos) const;
    /// Sets the value range so that every bar's label fits right of it (plotWidth 0: the widget's).
    void fitValueRange(int plotWidth);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    semantic::Scope m_scope = semantic::Scope::mean();
    bool m_withMapping = true;
    int m_maxBars = 24;
    int m_highlight = -1;
    std::vector<Bar> m_bars;
    double m_totalWith = 0;
    double m_totalWithout = 0;
    std::vector<int> m_labelWidths;
    /// Each bar's label and its parts (value, % of total, % of parent, badge): a narrow chart drops
    /// trailing parts rather than cut the label at its edge (the tooltip has them all).
    std::vector<QCPItemText*> m_labelItems;
    std::vector<QStringList> m_labelParts;
    double m_low = 0;
    double m_high = 1;

    QCheckBox* m_mappingBox = nullptr;
    QCustomPlot* m_plot = nullptr;
    QCPTextElement* m_title = nullptr;
};

} // namespace parallax
