// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/statistics.h"
#include "datasource/model/trial.h"

#include <QSharedPointer>
#include <QWidget>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QCPBars;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;
class QCustomPlot;
class QMouseEvent;

namespace parallax {

class SelectionState;
class ThreadAxisTicker;
class ValueAxisTicker;

/// A bar chart of one user event across threads (ParaProf's user event window): one bar per
/// thread for a chosen field (count, max, min, mean, std. dev. or total = count × mean), with
/// reference lines at the mean over all threads (absent = 0) and at the min and max over the
/// threads where it was recorded. Threads without the event have no bar. All bars are one
/// QCPBars plottable; the "n,c,t" labels thin out to what fits and come back on zoom.
///
/// Follows the SelectionState: the trial, and the selected thread, whose bar is highlighted;
/// clicking a bar selects that thread everywhere.
class UserEventChart : public QWidget {
    Q_OBJECT
public:
    enum class Field { Count, Max, Min, Mean, StdDev, Total };
    Q_ENUM(Field)

    explicit UserEventChart(SelectionState* state, QWidget* parent = nullptr);
    ~UserEventChart() override;

    /// The user event shown; an invalid id shows an empty chart with a hint.
    void setUserEvent(AtomicEventId event);
    AtomicEventId userEvent() const { return m_event; }

    void setField(Field field);
    Field field() const { return m_field; }
    static QString fieldName(Field field);

    /// Orders the bars by value (largest first, threads without the event last) instead of by thread.
    void setSortedByValue(bool sorted);
    bool isSortedByValue() const { return m_sorted; }

    /// The shown value per thread (indexed by ThreadIndex), nullopt where the event is absent.
    const std::vector<std::optional<double>>& values() const { return built().m_values; }
    /// The statistics of the chosen field across threads (the reference lines).
    Stat fieldStatistics() const;

    QCustomPlot* plot() const { return built().m_plot; }
    /// Writes the chart to PNG, SVG or PDF (by suffix); returns an empty string or the error.
    QString exportImage(const QString& fileName, int width = 0, int height = 0);

Q_SIGNALS:
    void userEventChanged(parallax::AtomicEventId event);
    void fieldChanged(parallax::UserEventChart::Field field);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void onTrialChanged();
    void fillEventCombo();
    /// Rebuilds the bars now when the chart is visible, else when it is shown or read (values(),
    /// plot(), exportImage()): the build is O(threads), a hidden chart waits (issue 18 §4).
    void rebuild();
    void rebuildNow();
    /// This chart, brought up to date.
    const UserEventChart& built() const;
    void updateHighlight();
    void updateTicks();
    void showToolTip(QMouseEvent* event);
    void selectAt(QMouseEvent* event);
    /// Bar position under a pixel x, or -1.
    int positionAt(double x) const;
    std::optional<double> threadValue(ThreadIndex thread) const;
    QString format(double value) const;

    SelectionState* m_state;
    std::shared_ptr<const Trial> m_trial;
    AtomicEventId m_event;
    Field m_field = Field::Mean;
    bool m_sorted = false;
    std::vector<std::optional<double>> m_values;
    /// Thread shown at each bar position.
    std::vector<ThreadIndex> m_order;
    /// Whether the bars wait for a rebuild (the chart was hidden when it was asked for).
    bool m_stale = false;
    /// Width in pixels of the widest thread label.
    int m_labelWidth = 0;

    QComboBox* m_eventCombo = nullptr;
    QComboBox* m_fieldCombo = nullptr;
    QCheckBox* m_sortBox = nullptr;
    QCustomPlot* m_plot = nullptr;
    QCPTextElement* m_title = nullptr;
    QCPBars* m_bars = nullptr;
    QCPBars* m_selectedBar = nullptr;
    QSharedPointer<ThreadAxisTicker> m_threadTicker;
    QSharedPointer<ValueAxisTicker> m_valueTicker;
    struct Reference {
        QCPItemStraightLine* line = nullptr;
        QCPItemText* label = nullptr;
    };
    static Reference makeReference(QCustomPlot* plot, Qt::PenStyle style);
    QPointF m_pressPos;
    Reference m_mean;
    Reference m_min;
    Reference m_max;
};

} // namespace parallax
