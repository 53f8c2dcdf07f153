// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/timeline/timelineview.h"

#include "datasource/readers/readerregistry.h"
#include "views/charts/chartexport.h"
#include "views/charts/colors.h"
#include "views/common/flowlayout.h"
#include "views/selectionstate.h"

#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax {

namespace {

constexpr int LeftMargin = 150;
constexpr int BottomMargin = 34;

QString seconds(double s) { return QLocale().toString(s, 'f', 4) + QStringLiteral(" s"); }

} // namespace

// ---- TimelineStrip ----

TimelineStrip::TimelineStrip(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(false);
    setCursor(Qt::CrossCursor);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

QColor TimelineStrip::regionColor(const Otf2Timeline& timeline, int region)
{
    return region < 0 ? QColor(0xee, 0xee, 0xee) : eventColor(timeline.regions[static_cast<std::size_t>(region)]);
}

QImage TimelineStrip::imageOf(const Otf2Timeline& timeline)
{
    if (timeline.locations.empty() || timeline.bins == 0)
        return {};
    const std::size_t locations = timeline.locations.size();
    const auto rows = static_cast<int>(std::min<std::size_t>(locations, MaxRows));
    const auto bins = static_cast<int>(timeline.bins);
    QImage image(bins, rows, QImage::Format_RGB32);
    for (int r = 0; r < rows; ++r) {
        const std::size_t location = static_cast<std::size_t>(r) * locations / static_cast<std::size_t>(rows);
        for (int b = 0; b < bins; ++b)
            image.setPixelColor(
                b, r, regionColor(timeline, timeline.dominant[location * timeline.bins + static_cast<std::size_t>(b)]));
    }
    return image;
}

void TimelineStrip::setTimeline(std::shared_ptr<const Otf2Timeline> timeline, QImage image)
{
    m_timeline = std::move(timeline);
    m_image = std::move(image);
    update();
}

void TimelineStrip::setWindow(double from, double to)
{
    m_from = from;
    m_to = to;
    update();
}

QRect TimelineStrip::plotRect() const { return rect().adjusted(LeftMargin, 4, -8, -BottomMargin); }

int TimelineStrip::xOf(double s) const
{
    const QRect p = plotRect();
    const double length = m_timeline && m_timeline->seconds > 0 ? m_timeline->seconds : 1.0;
    return p.left() + static_cast<int>(std::lround(s / length * p.width()));
}

double TimelineStrip::secondsAt(int x) const
{
    const QRect p = plotRect();
    const double length = m_timeline && m_timeline->seconds > 0 ? m_timeline->seconds : 1.0;
    return std::clamp(static_cast<double>(x - p.left()) / std::max(1, p.width()) * length, 0.0, length);
}

void TimelineStrip::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    if (m_image.isNull())
        return;
    const QRect p = plotRect();
    painter.drawImage(p, m_image); // scaled: many locations share a pixel row, a bin may span several pixels
    // Location names where a row is tall enough to read one.
    const auto rows = static_cast<int>(m_timeline->locations.size());
    const double rowHeight = static_cast<double>(p.height()) / rows;
    painter.setPen(palette().text().color());
    const QFontMetrics fm(font());
    const int every = std::max(1, static_cast<int>(std::ceil(fm.height() / rowHeight)));
    for (int r = 0; r < rows; r += every) {
        const QRect label(0, p.top() + static_cast<int>(r * rowHeight), LeftMargin - 6,
            std::max(fm.height(), static_cast<int>(rowHeight)));
        painter.drawText(label, Qt::AlignRight | Qt::AlignVCenter,
            fm.elidedText(QStringLiteral("%1 %2").arg(r).arg(m_timeline->locations[static_cast<std::size_t>(r)]),
                Qt::ElideRight, LeftMargin - 8));
    }
    // The time axis: about one label per 110 pixels, at round steps.
    const double length = m_timeline->seconds;
    const double raw = length / std::max(1.0, p.width() / 110.0);
    const double magnitude = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-12))));
    double step = magnitude;
    for (const double m : { 1.0, 2.0, 5.0, 10.0 })
        if (m * magnitude >= raw) {
            step = m * magnitude;
            break;
        }
    for (double t = 0; t <= length + step * 1e-9; t += step) {
        const int x = xOf(t);
        painter.drawLine(x, p.bottom() + 1, x, p.bottom() + 5);
        painter.drawText(QRect(x - 50, p.bottom() + 6, 100, fm.height()), Qt::AlignHCenter,
            QLocale().toString(t, 'g', 6) + QStringLiteral(" s"));
    }
    painter.drawText(QRect(p.left(), p.bottom() + 6 + fm.height(), p.width(), fm.height()), Qt::AlignHCenter,
        tr("seconds since the trace start"));
    // The chosen window.
    if (m_to > m_from && (m_from > 0 || m_to < length)) { // the whole trace needs no shading
        const QRect w(QPoint(xOf(m_from), p.top()), QPoint(xOf(m_to), p.bottom()));
        painter.fillRect(w, QColor(30, 100, 220, 60));
        painter.setPen(QPen(QColor(30, 100, 220), 2));
        painter.drawRect(w);
    }
}

void TimelineStrip::mousePressEvent(QMouseEvent* event)
{
    if (!m_timeline || event->button() != Qt::LeftButton)
        return;
    m_pressX = event->position().toPoint().x();
}

void TimelineStrip::mouseMoveEvent(QMouseEvent* event)
{
    if (m_pressX < 0)
        return;
    const int x = event->position().toPoint().x();
    setWindow(secondsAt(std::min(m_pressX, x)), secondsAt(std::max(m_pressX, x)));
}

void TimelineStrip::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_pressX < 0)
        return;
    const int x = event->position().toPoint().x();
    const double a = secondsAt(std::min(m_pressX, x));
    const double b = secondsAt(std::max(m_pressX, x));
    m_pressX = -1;
    if (b > a) {
        setWindow(a, b);
        Q_EMIT windowDragged(a, b);
    }
}

// ---- TimelineView ----

TimelineView::TimelineView(SelectionState* state, QWidget* parent)
    : QWidget(parent)
    , SelectionView(this, state, SelectionChange::Trial)
{
    auto* layout = new QVBoxLayout(this);
    auto* bar = new FlowLayout;
    m_from = new QDoubleSpinBox;
    m_to = new QDoubleSpinBox;
    for (QDoubleSpinBox* box : { m_from, m_to }) {
        box->setDecimals(6);
        box->setSuffix(QStringLiteral(" s"));
        box->setRange(0, 0);
        box->setToolTip(tr("The window, in seconds since the trace start; or drag across the time line"));
    }
    m_open = new QPushButton(tr("Open Window as Trial"));
    m_open->setToolTip(tr("Read the profile of the window (regions open at its edges count their time inside it) "
                          "as a new trial; open two and compare them"));
    m_open->setEnabled(false);
    bar->addWidget(new QLabel(tr("Window:")));
    bar->addWidget(m_from);
    bar->addWidget(new QLabel(tr("to")));
    bar->addWidget(m_to);
    bar->addWidget(m_open);
    bar->addWidget(newExportButton(this, tr("Save the view as PNG, SVG or PDF"),
        [this] { exportWidgetInteractively(this, this, QStringLiteral("timeline.png")); }));
    layout->addLayout(bar);
    m_strip = new TimelineStrip;
    layout->addWidget(m_strip, 1);
    m_legend = new QLabel;
    m_legend->setWordWrap(true);
    layout->addWidget(m_legend);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    connect(m_strip, &TimelineStrip::windowDragged, this, [this](double a, double b) { setWindow(a, b); });
    auto follow = [this] { m_strip->setWindow(m_from->value(), m_to->value()); };
    connect(m_from, &QDoubleSpinBox::valueChanged, this, follow);
    connect(m_to, &QDoubleSpinBox::valueChanged, this, follow);
    connect(m_open, &QPushButton::clicked, this, &TimelineView::openWindow);
    if (state->trial())
        scheduleUpdate(SelectionChange::Trial);
}

TimelineView::~TimelineView()
{
    m_job.cancelAndWait();
    m_windowJob.cancelAndWait();
}

void TimelineView::setWindow(double from, double to)
{
    const QSignalBlocker a(m_from);
    const QSignalBlocker b(m_to);
    m_from->setValue(std::min(from, to));
    m_to->setValue(std::max(from, to));
    m_strip->setWindow(m_from->value(), m_to->value());
}

double TimelineView::windowFrom() const { return m_from->value(); }

double TimelineView::windowTo() const { return m_to->value(); }

void TimelineView::doUpdate(SelectionChanges changes)
{
    if (changes & SelectionChange::Trial) {
        const TrialPtr& trial = selection()->trial();
        const QString anchor
            = trial && trial->provenance().reader == QLatin1String("otf2") ? trial->provenance().source : QString();
        if (anchor != m_anchor || anchor.isEmpty()) {
            m_job.cancel();
            m_anchor = anchor;
            present({});
            m_stale = !anchor.isEmpty();
        }
    }
    if (!m_stale || (!isVisible() && !isUpdatingNow()))
        return;
    start();
}

void TimelineView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        scheduleUpdate(SelectionChange::View);
}

void TimelineView::finishUpdate() { m_job.waitAndDeliver(); }

void TimelineView::start()
{
    m_stale = false;
    const QString anchor = m_anchor;
    m_status->setText(tr("Replaying %1 into a time line…").arg(QFileInfo(anchor).fileName()));
    m_job.start(
        [anchor](const std::atomic_bool&) {
            Progress progress;
            Computed out;
            auto line = readOtf2Timeline(anchor, Bins, progress);
            if (line) {
                out.timeline = std::make_shared<const Otf2Timeline>(std::move(line.value()));
                out.image = TimelineStrip::imageOf(*out.timeline);
            } else
                out.error = line.error().toString();
            return out;
        },
        [this](Computed computed) { present(std::move(computed)); });
}

void TimelineView::present(Computed computed)
{
    m_timeline = std::move(computed.timeline);
    m_strip->setTimeline(m_timeline, std::move(computed.image));
    m_open->setEnabled(m_timeline != nullptr);
    m_legend->clear();
    if (!m_timeline) {
        m_status->setText(!computed.error.isEmpty() ? computed.error
                : m_anchor.isEmpty()
                ? tr("The time line shows traces: open an OTF2 trace (Score-P's traces.otf2) to choose a window on it.")
                : QString());
        return;
    }
    const Otf2Timeline& line = *m_timeline;
    {
        const QSignalBlocker a(m_from);
        const QSignalBlocker b(m_to);
        m_from->setRange(0, line.seconds);
        m_to->setRange(0, line.seconds);
        m_from->setValue(0);
        m_to->setValue(line.seconds);
    }
    m_strip->setWindow(0, line.seconds);
    // The legend: the regions that dominate the most bins.
    std::vector<std::size_t> bins(line.regions.size(), 0);
    for (const int r : line.dominant)
        if (r >= 0)
            ++bins[static_cast<std::size_t>(r)];
    std::vector<std::size_t> order(line.regions.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return bins[a] > bins[b]; });
    QStringList items;
    for (std::size_t i = 0; i < order.size() && i < 12 && bins[order[i]] > 0; ++i)
        items << QStringLiteral("<span style=\"color:%1\">■</span> %2")
                     .arg(TimelineStrip::regionColor(line, static_cast<int>(order[i])).name(),
                         line.regions[order[i]].toHtmlEscaped());
    m_legend->setText(items.join(QStringLiteral(" &nbsp; ")));
    m_status->setText(tr("%1 locations over %2; each bin (%3) is coloured by the region with the most exclusive "
                         "time in it. Drag across the time line to choose a window.")
                          .arg(line.locations.size())
                          .arg(seconds(line.seconds), seconds(line.seconds / static_cast<double>(line.bins))));
}

void TimelineView::openWindow()
{
    if (!m_timeline)
        return;
    const QString anchor = m_timeline->anchor;
    const double from = m_from->value();
    const double to = m_to->value();
    const QString description
        = tr("the profile of %1 to %2 of %3").arg(seconds(from), seconds(to), QFileInfo(anchor).fileName());
    m_status->setText(tr("Reading %1…").arg(description));
    m_windowJob.start(
        [anchor, from, to, description](const std::atomic_bool&) {
            ReadOptions options;
            options.useCache = false;
            options.formatOptions
                = { QStringLiteral("from=%1").arg(from, 0, 'g', 17), QStringLiteral("to=%1").arg(to, 0, 'g', 17) };
            Progress progress;
            Window w;
            w.description = description;
            auto read = ReaderRegistry::instance().read(anchor, options, progress, QStringLiteral("otf2"));
            if (read) {
                auto trial = read.value();
                w.trial = trial;
            } else {
                w.error = read.error().toString();
            }
            return w;
        },
        [this](const Window& w) {
            if (!w.trial) {
                m_status->setText(w.error);
                Q_EMIT operationFailed(w.error);
                return;
            }
            m_status->setText(tr("Opened %1").arg(w.description));
            Q_EMIT trialDerived(w.trial, w.description);
        });
}

QString TimelineView::exportImage(const QString& fileName)
{
    updateNow();
    return exportWidget(this, fileName);
}

} // namespace parallax
