// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/commmatrix.h"
#include "views/common/job.h"
#include "views/common/selectionview.h"

#include <QImage>
#include <QWidget>
#include <memory>
#include <optional>
#include <utility>

class QCheckBox;
class QComboBox;
class QLabel;

namespace parallax {

class CommMatrixPlot;

/// The Communication tab (issue 20 §3): the sender × receiver heat map of the point-to-point
/// messages a trial recorded (algebra/commmatrix.h, docs/SEMANTICS.md 13) — bytes, messages or
/// mean size, for all contexts or one call-path context, as sent or as received — with a colour
/// scale (linear or log), the row and column sums as bars along the edges, a tooltip per cell and
/// a click that selects the sender's thread (and the pair as the selected threads). The matrix
/// and its picture are made in a background job; painting only draws the finished image.
class CommMatrixView : public QWidget, public SelectionView {
    Q_OBJECT
public:
    explicit CommMatrixView(SelectionState* state, QWidget* parent = nullptr);
    ~CommMatrixView() override;

    /// The matrix shown; null before it is computed or for a trial without message events.
    const CommMatrix* matrix() const { return m_matrix.get(); }
    CommQuantity quantity() const;
    /// "" for all contexts.
    QString context() const;
    CommSide side() const;
    bool logScale() const;
    void setQuantity(CommQuantity quantity);
    /// False when the trial has no such context.
    bool setContext(const QString& context);
    void setSide(CommSide side);
    void setLogScale(bool on);
    /// The contexts the box offers (after the first computation).
    QStringList contexts() const { return m_contexts; }
    CommMatrixPlot* plot() const { return m_plot; }
    /// The status line: what is shown, or why nothing is.
    QString message() const;
    bool isComputing() const { return m_job.isRunning(); }
    /// Writes the shown matrix as CSV (commMatrixCsv); an empty string or what went wrong.
    QString exportCsv(const QString& fileName) const;

protected:
    void doUpdate(SelectionChanges changes) override;
    void finishUpdate() override;
    void showEvent(QShowEvent* event) override;

private:
    struct Computed {
        std::shared_ptr<const CommMatrix> matrix;
        QImage image;
        QStringList contexts;
        bool hasEvents = false;
    };
    void start();
    void present(Computed computed);
    void selectCell(std::size_t sender, std::size_t receiver);
    void exportCsvInteractively();

    std::shared_ptr<const CommMatrix> m_matrix;
    QStringList m_contexts;
    Job<Computed> m_job { this };
    bool m_stale = true;
    bool m_hasEvents = false;
    QComboBox* m_quantity = nullptr;
    QComboBox* m_context = nullptr;
    QComboBox* m_side = nullptr;
    QCheckBox* m_log = nullptr;
    CommMatrixPlot* m_plot = nullptr;
    QLabel* m_status = nullptr;
};

/// The painted part of CommMatrixView: the heat map image scaled into a square, rank labels, the
/// row sums (right) and column sums (below) as bars, and the colour legend.
class CommMatrixPlot : public QWidget {
    Q_OBJECT
public:
    explicit CommMatrixPlot(QWidget* parent = nullptr);

    /// The largest side of the heat map image; more ranks share a pixel (its largest value).
    static constexpr int MaxImageSide = 2048;
    /// The picture of `matrix`'s `quantity`: one pixel per cell up to MaxImageSide ranks, empty
    /// cells in a light grey; made off the GUI thread.
    static QImage imageOf(const CommMatrix& matrix, CommQuantity quantity, bool logScale);
    /// The colour of a value between `lo` and `hi` (log scale: of its logarithm).
    static QColor colorOf(double value, double lo, double hi, bool logScale);

    void setMatrix(std::shared_ptr<const CommMatrix> matrix, QImage image, CommQuantity quantity, bool logScale);
    /// The heat map shown (imageOf of the view's matrix).
    const QImage& image() const { return m_image; }
    /// The node whose row is outlined (the selected thread's); -1 for none.
    void setHighlightedNode(int node);
    /// The cell (sender, receiver) under a point of the widget, if any.
    std::optional<std::pair<std::size_t, std::size_t>> cellAt(QPoint point) const;
    /// The centre of a cell in widget coordinates.
    QPoint pointOf(std::size_t sender, std::size_t receiver) const;
    /// The tooltip of the cell under `point`: sender, receiver, bytes, messages, mean size.
    QString toolTipAt(QPoint point) const;
    QSize minimumSizeHint() const override { return { 320, 260 }; }

Q_SIGNALS:
    void cellClicked(std::size_t sender, std::size_t receiver);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    /// The square the matrix is drawn in.
    QRect matrixRect() const;
    void paintLegend(QPainter& painter, const QRect& area) const;

    std::shared_ptr<const CommMatrix> m_matrix;
    QImage m_image;
    CommQuantity m_quantity = CommQuantity::Bytes;
    bool m_log = false;
    int m_highlightedNode = -1;
    std::optional<std::pair<std::size_t, std::size_t>> m_hover;
};

} // namespace parallax
