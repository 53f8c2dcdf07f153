// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/units.h"
#include "algebra/values.h"
#include "views/common/selectionview.h"
#include "views/overview/barlistdata.h"

#include <QWidget>

namespace parallax {

class BarListWidget;
class SelectorBar;

/// The base of ParaProf's bar charts, the overview and the Event and Thread windows: a selector bar
/// (metric, value type, unit, the chart's own choices, Export…) above a BarListWidget that
/// follows a SelectionState. A chart gives its bars (doUpdate), their tooltips and what a click on
/// a row does; the base owns the widgets and the wiring.
class BarChartView : public QWidget, public SelectionView {
    Q_OBJECT
public:
    ~BarChartView() override;

    BarListWidget* barList() const { return m_bars; }
    SelectorBar* selectorBar() const { return m_selectors; }
    /// The text printed at the end of a row's bar (after updateNow()).
    QString textAt(int row) const;
    /// The label of a row ("Mean", "Min thread", "3,0,0", an event name).
    QString labelAt(int row) const;
    /// Brings the chart up to date and writes it to an image file (PNG, SVG or PDF by suffix);
    /// returns an empty string or the error.
    QString exportImage(const QString& fileName);

protected:
    /// The chart follows the trial and the selector bar's metric, value type and time unit, and
    /// what `interest` adds; `exportName` is the file name Export… proposes ("event.png").
    BarChartView(SelectionState* state, SelectionChanges interest, const QString& exportName, QWidget* parent);

    /// Adds Export… at the end of the selector bar, after the chart's own controls.
    void addExportButton();
    /// The tooltip of a bar's segment.
    virtual QString toolTip(int row, int segment) const = 0;
    /// A row's label was clicked, or Enter pressed on it.
    virtual void activate(int row) = 0;
    /// A row's bar was clicked (`segment`: the segment under the mouse, -1 for none); the
    /// default activates the row.
    virtual void activateSegment(int row, int segment);
    /// The event a context menu at a row and segment is about (its "Show Source"): the segment's
    /// event by default (segments are keyed by EventId), invalid for none.
    virtual EventId menuEventAt(int row, int segment) const;
    /// The bars are about to be painted: the default brings a pending update forward as the queued
    /// call would run it, so a big trial still computes on a worker (opening the Event window of
    /// 131,072 threads computed them on the GUI thread, issue 18 §4).
    virtual void beforePaint();
    /// No bars: an empty chart with a placeholder text.
    void showPlaceholder(const QString& text);
    /// Marks a row selected (-1: none), scrolling to it when `scroll`.
    void selectRow(int row, bool scroll);
    /// The value part of a title: "Exclusive (ms)", "Calls", "Exclusive %".
    static QString valueTitle(const Metric& metric, ValueType type, TimeUnit unit);

    SelectionState* m_state;
    SelectorBar* m_selectors = nullptr;
    BarListWidget* m_bars = nullptr;

private:
    QString m_exportName;
};

/// Places values on a bar's axis [0, 1]: 0 at the smallest value (or at 0), 1 at the largest
/// (or at 0), so that negative values (a difference) grow left of the origin.
class BarScale {
public:
    /// `lo` and `hi`: the smallest and the largest value shown.
    BarScale(double lo, double hi);
    float origin() const { return m_origin; }
    /// Gives `bar` one segment from the origin to `value` (with the colour key `key`).
    void addSegment(BarListData& data, BarRow& bar, double value, std::uint32_t key) const;

private:
    double m_lo;
    double m_span;
    float m_origin;
};

} // namespace parallax
