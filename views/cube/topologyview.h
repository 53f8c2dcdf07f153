// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/topology.h"

#include <QImage>
#include <QWidget>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSlider;

namespace parallax {

class TopologyCanvas;

/// A heat map of the locations on a topology (algebra/topology.h): one cell per grid position,
/// coloured by the value of the thread(s) placed there (the largest when several share it), drawn
/// into one QImage so 131,072 locations cost one blit. 3D grids show one z-slice (a slider) or the
/// orthographic projection along z (each (x, y) column's largest value); it opens on the slice of
/// the first placed thread. Hover names the location
/// and its value; a click emits threadClicked.
class TopologyView : public QWidget {
    Q_OBJECT
public:
    explicit TopologyView(QWidget* parent = nullptr);

    /// The trial whose topologies are offered (recomputed when it changes).
    void setTrial(const TrialPtr& trial);
    /// Per-thread values (by thread index; NaN = no value) and what they are ("time of main").
    void setValues(std::vector<double> byThread, const QString& what);
    /// The selected set of threads (a cluster; by thread index, empty for none): their cells keep
    /// their colour and get an outline, every other placed cell is faded.
    void setMarkedThreads(const std::vector<ThreadIndex>& threads);
    /// Whether the cell shows (or holds) a marked thread.
    bool isCellMarked(int x, int y) const;
    /// Cells of the current slice or projection holding a marked thread.
    std::size_t markedCellCount() const;
    void setTopology(int index);
    void setSlice(int z);
    void setProjection(bool on);
    /// Adds (or replaces) the user's grid, "X x Y x Z [ORDER]" (a 0 size is computed, ORDER a
    /// permutation of xyz from the fastest axis, default xyz; algebra/topology.h userGrid), and shows
    /// it. False with `error` set for a bad specification.
    bool setUserGrid(const QString& spec, QString* error = nullptr);

    const std::vector<Topology>& topologies() const { return m_topologies; }
    int topologyIndex() const { return m_current; }
    const Topology* topology() const;
    /// The image of the current slice or projection: one pixel per cell (dims.x x dims.y).
    const QImage& cellImage() const { return m_image; }
    /// The thread shown at a cell of the current slice or projection, or an invalid index.
    ThreadIndex threadAt(int x, int y) const;
    /// The widget point at the centre of a cell (tests click there).
    QPoint cellCentre(int x, int y) const;
    QWidget* canvas() const;
    double minimum() const { return m_min; }
    double maximum() const { return m_max; }

Q_SIGNALS:
    void threadClicked(ThreadIndex thread);

private:
    friend class TopologyCanvas;
    void rebuild();
    void updateControls();
    int firstSlice() const;
    void fillCombo();
    QString tip(int x, int y) const;

    TrialPtr m_trial;
    std::vector<Topology> m_topologies;
    int m_current = -1;
    int m_slice = 0;
    bool m_projection = false;
    std::vector<double> m_values;
    std::vector<char> m_markedThreads; ///< by thread index; empty: no set selected
    std::vector<char> m_markedCells; ///< by cell of the image
    QString m_what;
    QImage m_image;
    std::vector<int> m_shown; ///< by cell of the image: the thread shown, -1 for none
    std::vector<int> m_count; ///< by cell: threads placed there
    double m_min = 0, m_max = 0;

    QComboBox* m_combo = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_sliceLabel = nullptr;
    QCheckBox* m_project = nullptr;
    QLineEdit* m_grid = nullptr;
    QLabel* m_title = nullptr;
    TopologyCanvas* m_canvas = nullptr;
};

} // namespace parallax
