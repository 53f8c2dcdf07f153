// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/otf2reader.h"
#include "views/common/job.h"
#include "views/common/selectionview.h"

#include <QImage>
#include <QWidget>
#include <memory>

class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace parallax {

class TimelineStrip;

/// The Timeline tab (issue 19 §3) of a trial read from an OTF2 trace: one row per location, time
/// left to right, each bin coloured by the region that spent the most exclusive time in it
/// (readOtf2Timeline, computed in a background job). Drag across it (or type the From/To seconds) to
/// choose a window, and Open Window as Trial reads the profile of that window (the otf2 reader's
/// from= and to= options, docs/SEMANTICS.md 1.10) as a new trial for the application
/// (trialDerived), to look at or to compare with another window. Other trials show a note.
class TimelineView : public QWidget, public SelectionView {
    Q_OBJECT
public:
    explicit TimelineView(SelectionState* state, QWidget* parent = nullptr);
    ~TimelineView() override;

    static constexpr std::size_t Bins = 800;

    /// The time line drawn; null for a trial that is not an OTF2 trace, or before it is computed.
    const Otf2Timeline* timeline() const { return m_timeline.get(); }
    /// The chosen window in seconds since the trace start.
    void setWindow(double from, double to);
    double windowFrom() const;
    double windowTo() const;
    /// Reads the profile of the window (in the background) and emits trialDerived.
    void openWindow();
    /// Blocks until openWindow's profile is read and trialDerived emitted (tests).
    void waitForWindow() { m_windowJob.waitAndDeliver(); }
    TimelineStrip* strip() const { return m_strip; }
    bool isComputing() const { return m_job.isRunning(); }
    QString exportImage(const QString& fileName);

Q_SIGNALS:
    void trialDerived(const TrialPtr& trial, const QString& description);
    void operationFailed(const QString& message);

protected:
    void doUpdate(SelectionChanges changes) override;
    void finishUpdate() override;
    void showEvent(QShowEvent* event) override;

private:
    struct Computed {
        std::shared_ptr<const Otf2Timeline> timeline;
        QImage image; ///< TimelineStrip::imageOf(timeline), made on the worker
        QString error;
    };
    struct Window {
        TrialPtr trial;
        QString error;
        QString description;
    };
    void start();
    void present(Computed computed);

    std::shared_ptr<const Otf2Timeline> m_timeline;
    Job<Computed> m_job { this };
    Job<Window> m_windowJob { this };
    QString m_anchor; ///< the trace the shown trial was read from; empty for other trials
    bool m_stale = true;
    TimelineStrip* m_strip = nullptr;
    QDoubleSpinBox* m_from = nullptr;
    QDoubleSpinBox* m_to = nullptr;
    QPushButton* m_open = nullptr;
    QLabel* m_legend = nullptr;
    QLabel* m_status = nullptr;
};

/// The painted strip of TimelineView: locations × bins as an image scaled to the widget, a time
/// axis, and the chosen window shaded; a drag chooses a window (windowDragged).
class TimelineStrip : public QWidget {
    Q_OBJECT
public:
    explicit TimelineStrip(QWidget* parent = nullptr);
    /// The picture of a time line: one pixel per bin and row, at most MaxRows rows (with more
    /// locations, row r shows location r × locations / rows). Made off the GUI thread.
    static QImage imageOf(const Otf2Timeline& timeline);
    static constexpr int MaxRows = 2048;
    void setTimeline(std::shared_ptr<const Otf2Timeline> timeline, QImage image);
    void setWindow(double from, double to);
    /// The x pixel of a time (seconds since the trace start), and back.
    int xOf(double seconds) const;
    double secondsAt(int x) const;
    /// The colour of region index `region` (-1: idle).
    static QColor regionColor(const Otf2Timeline& timeline, int region);
    QSize minimumSizeHint() const override { return { 300, 120 }; }

Q_SIGNALS:
    void windowDragged(double from, double to);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    QRect plotRect() const;
    std::shared_ptr<const Otf2Timeline> m_timeline;
    QImage m_image; ///< imageOf(m_timeline)
    double m_from = 0;
    double m_to = 0;
    int m_pressX = -1;
};

} // namespace parallax
