// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/cube/topologyview.h"

#include "views/charts/colors.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLinearGradient>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QSlider>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace parallax {

namespace {
constexpr int LegendWidth = 90;
constexpr QRgb Empty = 0xffe8e8e8;
} // namespace

/// Draws the cell image scaled to fit (cells stay square), and the legend.
class TopologyCanvas : public QWidget {
public:
    explicit TopologyCanvas(TopologyView* view)
        : m_view(view)
    {
        setMouseTracking(true);
        setMinimumSize(200, 150);
    }

    /// Where the cell image is drawn.
    QRectF imageRect() const
    {
        const QImage& img = m_view->m_image;
        if (img.isNull())
            return {};
        const QRectF area(8, 8, width() - LegendWidth - 24, height() - 16);
        const double scale = std::min(area.width() / img.width(), area.height() / img.height());
        const QSizeF size(img.width() * scale, img.height() * scale);
        return { area.topLeft(), size };
    }

    /// The cell under a widget point, or (-1, -1).
    QPoint cellAt(QPointF p) const
    {
        const QRectF r = imageRect();
        if (!r.contains(p))
            return { -1, -1 };
        const QImage& img = m_view->m_image;
        const int x = std::clamp(static_cast<int>((p.x() - r.left()) / r.width() * img.width()), 0, img.width() - 1);
        const int y = std::clamp(static_cast<int>((p.y() - r.top()) / r.height() * img.height()), 0, img.height() - 1);
        return { x, y };
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.fillRect(rect(), palette().base());
        const QImage& img = m_view->m_image;
        if (img.isNull()) {
            p.drawText(rect(), Qt::AlignCenter, tr("No locations"));
            return;
        }
        const QRectF r = imageRect();
        // Nearest-neighbour scaling: every cell a crisp block, however many there are.
        p.setRenderHint(QPainter::SmoothPixmapTransform, false);
        p.drawImage(r, img);
        p.setPen(palette().mid().color());
        // Cell borders while cells are big enough to tell apart.
        const double cell = r.width() / img.width();
        if (cell >= 6) {
            p.setPen(QPen(palette().base().color(), 1));
            for (int x = 1; x < img.width(); ++x)
                p.drawLine(QPointF(r.left() + x * cell, r.top()), QPointF(r.left() + x * cell, r.bottom()));
            for (int y = 1; y < img.height(); ++y)
                p.drawLine(QPointF(r.left(), r.top() + y * cell), QPointF(r.right(), r.top() + y * cell));
            p.setPen(palette().mid().color());
        }
        p.drawRect(r);
        // Legend: next to the picture, the colour scale from min to max.
        const QRectF bar(
            std::min(width() - LegendWidth - 8.0, r.right() + 16), 24, 16, std::max(40.0, height() - 56.0));
        QLinearGradient g(bar.bottomLeft(), bar.topLeft());
        for (int i = 0; i <= 10; ++i)
            g.setColorAt(i / 10.0, sequentialColor(i / 10.0));
        p.fillRect(bar, g);
        p.drawRect(bar);
        p.setPen(palette().text().color());
        const QLocale locale;
        p.drawText(QPointF(bar.right() + 4, bar.top() + 8), locale.toString(m_view->m_max, 'g', 4));
        p.drawText(QPointF(bar.right() + 4, bar.bottom()), locale.toString(m_view->m_min, 'g', 4));
        p.drawText(QPointF(bar.left(), 16), tr("max"));
        p.drawText(QPointF(bar.left(), bar.bottom() + 16), tr("min"));
    }

    bool event(QEvent* e) override
    {
        if (e->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(e);
            const QPoint c = cellAt(help->pos());
            const QString text = c.x() >= 0 ? m_view->tip(c.x(), c.y()) : QString();
            if (text.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(help->globalPos(), text, this);
            return true;
        }
        return QWidget::event(e);
    }

    void mousePressEvent(QMouseEvent* e) override
    {
        const QPoint c = cellAt(e->position());
        if (c.x() < 0)
            return;
        const ThreadIndex t = m_view->threadAt(c.x(), c.y());
        if (t.isValid())
            Q_EMIT m_view->threadClicked(t);
    }

private:
    TopologyView* m_view;
};

TopologyView::TopologyView(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    m_combo = new QComboBox;
    m_combo->setToolTip(tr("Where the locations sit: the file's topologies, the machine's coordinates, or a grid "
                           "by thread index"));
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setToolTip(tr("The z-slice shown"));
    m_sliceLabel = new QLabel;
    m_project = new QCheckBox(tr("Project along z"));
    m_project->setToolTip(tr("Show each (x, y) column's largest value over all z instead of one slice"));
    m_title = new QLabel;
    bar->addWidget(new QLabel(tr("Topology:")));
    bar->addWidget(m_combo, 1);
    bar->addWidget(m_sliceLabel);
    bar->addWidget(m_slider, 1);
    bar->addWidget(m_project);
    m_grid = new QLineEdit;
    m_grid->setPlaceholderText(tr("Grid, e.g. 64x0x1 yxz"));
    m_grid->setToolTip(tr("Your own grid by thread index: sizes X x Y x Z (0 = computed) and the order of the axes "
                          "from the fastest (xyz: along x first). Enter adds it to the topologies."));
    m_grid->setMaximumWidth(180);
    bar->addWidget(m_grid);
    layout->addLayout(bar);
    layout->addWidget(m_title);
    m_canvas = new TopologyCanvas(this);
    layout->addWidget(m_canvas, 1);
    connect(m_combo, &QComboBox::currentIndexChanged, this, &TopologyView::setTopology);
    connect(m_slider, &QSlider::valueChanged, this, &TopologyView::setSlice);
    connect(m_project, &QCheckBox::toggled, this, &TopologyView::setProjection);
    connect(m_grid, &QLineEdit::returnPressed, this, [this] {
        QString error;
        if (!setUserGrid(m_grid->text(), &error))
            m_title->setText(error);
    });
    updateControls();
}

QWidget* TopologyView::canvas() const { return m_canvas; }

const Topology* TopologyView::topology() const
{
    return m_current >= 0 && static_cast<std::size_t>(m_current) < m_topologies.size()
        ? &m_topologies[static_cast<std::size_t>(m_current)]
        : nullptr;
}

void TopologyView::setTrial(const TrialPtr& trial)
{
    if (trial == m_trial)
        return;
    m_trial = trial;
    m_markedThreads.clear();
    m_topologies = trial ? parallax::topologies(*trial) : std::vector<Topology> {};
    m_current = m_topologies.empty() ? -1 : 0;
    m_slice = firstSlice();
    fillCombo();
    m_values.clear();
    updateControls();
    rebuild();
}

void TopologyView::setValues(std::vector<double> byThread, const QString& what)
{
    m_values = std::move(byThread);
    m_what = what;
    rebuild();
}

void TopologyView::setTopology(int index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= m_topologies.size())
        return;
    m_current = index;
    m_slice = firstSlice();
    if (m_combo->currentIndex() != index) {
        const QSignalBlocker block(m_combo);
        m_combo->setCurrentIndex(index);
    }
    updateControls();
    rebuild();
}

bool TopologyView::setUserGrid(const QString& spec, QString* error)
{
    static const QRegularExpression form(
        QStringLiteral("^\\s*(\\d+)\\s*[xX*]\\s*(\\d+)(?:\\s*[xX*]\\s*(\\d+))?\\s*([xyzXYZ]{3})?\\s*$"));
    const auto m = form.match(spec);
    if (!m.hasMatch() || !m_trial) {
        if (error)
            *error = tr("grid '%1': expected sizes like 64x0x1 and optionally an order like yxz").arg(spec);
        return false;
    }
    const std::array<int, 3> dims { m.captured(1).toInt(), m.captured(2).toInt(),
        m.captured(3).isEmpty() ? 1 : m.captured(3).toInt() };
    const QString order = m.captured(4).isEmpty() ? QStringLiteral("xyz") : m.captured(4);
    QString why;
    auto grid = userGrid(*m_trial, dims, order, &why);
    if (!grid) {
        if (error)
            *error = tr("grid '%1': %2").arg(spec, why);
        return false;
    }
    auto it = std::find_if(
        m_topologies.begin(), m_topologies.end(), [](const Topology& t) { return t.source == Topology::Source::User; });
    if (it == m_topologies.end())
        it = m_topologies.insert(m_topologies.end(), std::move(*grid));
    else
        *it = std::move(*grid);
    const int index = static_cast<int>(it - m_topologies.begin());
    fillCombo();
    setTopology(index);
    return true;
}

void TopologyView::fillCombo()
{
    const QSignalBlocker block(m_combo);
    m_combo->clear();
    for (const auto& t : m_topologies)
        m_combo->addItem(QStringLiteral("%1 (%2 x %3 x %4)").arg(t.name).arg(t.dims[0]).arg(t.dims[1]).arg(t.dims[2]));
    m_combo->setCurrentIndex(m_current);
}

int TopologyView::firstSlice() const
{
    // The slice of the first placed thread, so a sparse 3D grid (a machine's coordinates) opens on
    // something.
    if (const Topology* t = topology())
        for (const auto& c : t->coords)
            if (c[0] >= 0)
                return c[2];
    return 0;
}

void TopologyView::setSlice(int z)
{
    const Topology* t = topology();
    if (!t)
        return;
    m_slice = std::clamp(z, 0, t->dims[2] - 1);
    if (m_slider->value() != m_slice) {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(m_slice);
    }
    updateControls();
    rebuild();
}

void TopologyView::setProjection(bool on)
{
    m_projection = on;
    if (m_project->isChecked() != on) {
        const QSignalBlocker block(m_project);
        m_project->setChecked(on);
    }
    updateControls();
    rebuild();
}

void TopologyView::updateControls()
{
    const Topology* t = topology();
    const bool deep = t && t->dims[2] > 1;
    m_slider->setVisible(deep);
    m_sliceLabel->setVisible(deep);
    m_project->setVisible(deep);
    if (!deep)
        return;
    const QSignalBlocker block(m_slider);
    m_slider->setRange(0, t->dims[2] - 1);
    m_slider->setValue(m_slice);
    m_slider->setEnabled(!m_projection);
    const QString axis = t->axisNames[2].isEmpty() ? QStringLiteral("z") : t->axisNames[2];
    m_sliceLabel->setText(tr("%1 = %2 of %3").arg(axis).arg(m_slice).arg(t->dims[2] - 1));
}

void TopologyView::rebuild()
{
    const Topology* t = topology();
    if (!t) {
        m_image = QImage();
        m_canvas->update();
        return;
    }
    const int w = t->dims[0];
    const int h = t->dims[1];
    const auto cells = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
    m_shown.assign(cells, -1);
    m_count.assign(cells, 0);
    m_markedCells.assign(m_markedThreads.empty() ? 0 : cells, 0);
    std::vector<double> value(cells, std::numeric_limits<double>::quiet_NaN());
    // One pass over the threads: each placed one in the slice (or any slice when projecting) puts
    // its value into its cell, the largest winning.
    m_min = std::numeric_limits<double>::infinity();
    m_max = -std::numeric_limits<double>::infinity();
    const std::size_t n = t->coords.size();
    for (std::size_t i = 0; i < n; ++i) {
        const auto& c = t->coords[i];
        if (c[0] < 0 || (!m_projection && c[2] != m_slice))
            continue;
        const std::size_t cell = static_cast<std::size_t>(c[0]) + static_cast<std::size_t>(w) * c[1];
        const double v = i < m_values.size() ? m_values[i] : std::numeric_limits<double>::quiet_NaN();
        ++m_count[cell];
        if (!m_markedThreads.empty() && i < m_markedThreads.size() && m_markedThreads[i])
            m_markedCells[cell] = 1;
        if (m_shown[cell] < 0 || (!std::isnan(v) && (std::isnan(value[cell]) || v > value[cell]))) {
            m_shown[cell] = static_cast<int>(i);
            value[cell] = v;
        }
    }
    // The colour scale spans every placed thread (all slices), so slices compare.
    for (std::size_t i = 0; i < n && i < m_values.size(); ++i)
        if (t->coords[i][0] >= 0 && !std::isnan(m_values[i])) {
            m_min = std::min(m_min, m_values[i]);
            m_max = std::max(m_max, m_values[i]);
        }
    if (m_min > m_max)
        m_min = m_max = 0;
    m_image = QImage(w, h, QImage::Format_RGB32);
    const double span = m_max - m_min;
    for (int y = 0; y < h; ++y) {
        auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(y));
        for (int x = 0; x < w; ++x) {
            const std::size_t cell = static_cast<std::size_t>(x) + static_cast<std::size_t>(w) * y;
            const double v = value[cell];
            if (m_shown[cell] < 0)
                line[x] = Empty;
            else if (std::isnan(v))
                line[x] = 0xffbdbdbd;
            else
                line[x] = sequentialColor(span > 0 ? (v - m_min) / span : 0.5).rgb();
            // A selected set: its cells stand out, the others fade towards the background.
            if (!m_markedCells.empty() && m_shown[cell] >= 0 && !m_markedCells[cell]) {
                const QRgb c = line[x];
                line[x] = qRgb((qRed(c) + 3 * 0xf2) / 4, (qGreen(c) + 3 * 0xf2) / 4, (qBlue(c) + 3 * 0xf2) / 4);
            }
        }
    }
    const QLocale locale;
    m_title->setText(
        tr("%1 — %2 of %3 locations placed; %4 x %5 cells%6")
            .arg(m_what.isEmpty() ? tr("no values") : m_what)
            .arg(
                locale.toString(static_cast<qulonglong>(t->placedCount())), locale.toString(static_cast<qulonglong>(n)))
            .arg(w)
            .arg(h)
            .arg(t->dims[2] > 1 ? (m_projection ? tr(", largest over z") : tr(", one z-slice")) : QString())
        + (m_markedThreads.empty() ? QString()
                                   : tr(" · %1 selected threads bright")
                                         .arg(locale.toString(static_cast<qulonglong>(
                                             std::count(m_markedThreads.begin(), m_markedThreads.end(), char(1)))))));
    m_canvas->update();
}

void TopologyView::setMarkedThreads(const std::vector<ThreadIndex>& threads)
{
    std::vector<char> marked;
    if (!threads.empty() && m_trial) {
        marked.assign(m_trial->threadCount(), 0);
        for (ThreadIndex t : threads)
            if (t.isValid() && t.index() < marked.size())
                marked[t.index()] = 1;
    }
    if (marked == m_markedThreads)
        return;
    m_markedThreads = std::move(marked);
    rebuild();
}

bool TopologyView::isCellMarked(int x, int y) const
{
    if (m_markedCells.empty() || x < 0 || y < 0 || x >= m_image.width() || y >= m_image.height())
        return false;
    return m_markedCells[static_cast<std::size_t>(x) + static_cast<std::size_t>(m_image.width()) * y] != 0;
}

std::size_t TopologyView::markedCellCount() const
{
    return static_cast<std::size_t>(std::count(m_markedCells.begin(), m_markedCells.end(), char(1)));
}

ThreadIndex TopologyView::threadAt(int x, int y) const
{
    if (m_image.isNull() || x < 0 || y < 0 || x >= m_image.width() || y >= m_image.height())
        return {};
    const int i = m_shown[static_cast<std::size_t>(x) + static_cast<std::size_t>(m_image.width()) * y];
    return i < 0 ? ThreadIndex() : ThreadIndex(static_cast<std::size_t>(i));
}

QPoint TopologyView::cellCentre(int x, int y) const
{
    const QRectF r = m_canvas->imageRect();
    if (r.isEmpty())
        return {};
    return QPointF(
        r.left() + (x + 0.5) * r.width() / m_image.width(), r.top() + (y + 0.5) * r.height() / m_image.height())
        .toPoint();
}

QString TopologyView::tip(int x, int y) const
{
    const ThreadIndex t = threadAt(x, y);
    const Topology* topo = topology();
    if (!t.isValid() || !topo || !m_trial)
        return {};
    const std::size_t cell = static_cast<std::size_t>(x) + static_cast<std::size_t>(m_image.width()) * y;
    const double v = t.index() < m_values.size() ? m_values[t.index()] : std::numeric_limits<double>::quiet_NaN();
    const auto& c = topo->coords[t.index()];
    QString name = m_trial->metadataValue(QStringLiteral("CUBE thread"), t);
    if (name.isEmpty())
        name = m_trial->metadataValue(QStringLiteral("Hostname"), t);
    QString text
        = tr("<b>%1</b><br>thread %2 at (%3, %4, %5)<br>%6: %7")
              .arg(name.isEmpty() ? tr("Thread %1").arg(m_trial->threadKey(t).toString()) : name.toHtmlEscaped(),
                  m_trial->threadKey(t).toString())
              .arg(c[0])
              .arg(c[1])
              .arg(c[2])
              .arg(m_what.toHtmlEscaped(), std::isnan(v) ? QStringLiteral("—") : QLocale().toString(v, 'g', 6));
    if (m_count[cell] > 1)
        text += tr("<br>%1 locations share this cell; the largest value is shown").arg(m_count[cell]);
    return text;
}

} // namespace parallax
