// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/userevents/usereventchart.h"

#include "algebra/units.h"
#include "views/charts/chartexport.h"
#include "views/charts/chartstyle.h"
#include "views/charts/colors.h"
#include "views/charts/qcustomplotwrapper.h"
#include "views/charts/threadaxisticker.h"
#include "views/charts/valueaxisticker.h"
#include "views/common/toolwindow.h"
#include "views/selectionstate.h"
#include "views/userevents/usereventsmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax {

namespace {

constexpr UserEventChart::Field allFields[]
    = { UserEventChart::Field::Count, UserEventChart::Field::Max, UserEventChart::Field::Min,
          UserEventChart::Field::Mean, UserEventChart::Field::StdDev, UserEventChart::Field::Total };

TrialStatistics::AtomicField atomicField(UserEventChart::Field field)
{
    switch (field) {
    case UserEventChart::Field::Count:
        return TrialStatistics::Count;
    case UserEventChart::Field::Max:
        return TrialStatistics::Max;
    case UserEventChart::Field::Min:
        return TrialStatistics::Min;
    case UserEventChart::Field::Mean:
        return TrialStatistics::Mean;
    case UserEventChart::Field::Total:
        return TrialStatistics::Total;
    case UserEventChart::Field::StdDev:
        break;
    }
    return TrialStatistics::StdDev;
}

} // namespace

UserEventChart::Reference UserEventChart::makeReference(QCustomPlot* plot, Qt::PenStyle style)
{
    Reference ref;
    ref.line = new QCPItemStraightLine(plot);
    ref.line->setPen(QPen(Qt::black, 1.5, style));
    ref.line->setClipToAxisRect(true);
    ref.label = new QCPItemText(plot);
    ref.label->setClipToAxisRect(true);
    ref.label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    ref.label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    ref.label->position->setTypeY(QCPItemPosition::ptPlotCoords);
    ref.label->setPadding(QMargins(4, 1, 4, 1));
    return ref;
}

UserEventChart::UserEventChart(SelectionState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
{
    const auto [layout, bar] = addControlBar(this, 4);
    m_eventCombo = new QComboBox(this);
    m_eventCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_eventCombo->setMinimumContentsLength(30);
    m_eventCombo->setToolTip(tr("The user event shown across threads"));
    m_fieldCombo = new QComboBox(this);
    for (Field f : allFields)
        m_fieldCombo->addItem(fieldName(f), static_cast<int>(f));
    m_fieldCombo->setCurrentIndex(static_cast<int>(m_field));
    m_fieldCombo->setToolTip(tr("The per-thread value the bars show"));
    m_sortBox = new QCheckBox(tr("Sort by value"), this);
    m_sortBox->setToolTip(tr("Order the bars by value, largest first, instead of by thread"));
    bar->addWidget(new QLabel(tr("User event:"), this));
    bar->addWidget(m_eventCombo, 1);
    bar->addWidget(m_fieldCombo);
    bar->addWidget(m_sortBox);
    bar->addWidget(newExportButton(this, tr("Save the chart as PNG, SVG or PDF"), [this] {
        const QString name
            = m_event.isValid() && m_trial ? m_trial->atomicEvent(m_event).name : QStringLiteral("user-event");
        ChartStyle::exportPlotInteractively(m_plot, this, imageFileName(name));
    }));

    m_plot = new QCustomPlot(this);
    m_plot->setMinimumSize(200, 150);
    m_plot->setAntialiasedElements(QCP::aeNone);
    m_plot->setAntialiasedElement(QCP::aeItems, true);
    m_plot->setAntialiasedElement(QCP::aeAxes, false);
    m_title = ChartStyle::addTitle(m_plot);
    m_threadTicker = QSharedPointer<ThreadAxisTicker>::create();
    m_valueTicker = QSharedPointer<ValueAxisTicker>::create();
    m_plot->xAxis->setTicker(m_threadTicker);
    m_plot->yAxis->setTicker(m_valueTicker);
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->xAxis->setLabel(tr("Thread (n,c,t)"));
    m_bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_bars->setWidthType(QCPBars::wtPlotCoords);
    m_bars->setWidth(0.8);
    m_bars->setSelectable(QCP::stNone);
    m_selectedBar = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_selectedBar->setWidthType(QCPBars::wtPlotCoords);
    m_selectedBar->setWidth(0.8);
    m_selectedBar->setSelectable(QCP::stNone);
    m_mean = makeReference(m_plot, Qt::DashLine);
    m_min = makeReference(m_plot, Qt::DotLine);
    m_max = makeReference(m_plot, Qt::DotLine);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->setMouseTracking(true);
    m_plot->installEventFilter(this);
    layout->addWidget(m_plot, 1);
    ChartStyle::apply(m_plot);

    connect(m_eventCombo, &QComboBox::activated, this, [this](int row) {
        if (row >= 0)
            setUserEvent(AtomicEventId(m_eventCombo->itemData(row).toUInt()));
    });
    connect(m_fieldCombo, &QComboBox::activated, this,
        [this](int row) { setField(static_cast<Field>(m_fieldCombo->itemData(row).toInt())); });
    connect(m_sortBox, &QCheckBox::toggled, this, &UserEventChart::setSortedByValue);
    connect(m_plot, &QCustomPlot::mouseMove, this, &UserEventChart::showToolTip);
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) { m_pressPos = event->position(); });
    connect(m_plot, &QCustomPlot::mouseRelease, this, &UserEventChart::selectAt);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) {
        if (!m_order.empty())
            m_plot->xAxis->setRange(-0.6, static_cast<double>(m_order.size()) - 0.4);
        m_plot->replot();
    });
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] { updateTicks(); });

    if (m_state) {
        connect(m_state, &SelectionState::trialChanged, this, &UserEventChart::onTrialChanged);
        connect(m_state, &SelectionState::threadSelected, this, &UserEventChart::updateHighlight);
    }
    onTrialChanged();
}

UserEventChart::~UserEventChart() = default;

QString UserEventChart::fieldName(Field field)
{
    switch (field) {
    case Field::Count:
        return tr("Number of samples");
    case Field::Max:
        return tr("Max value");
    case Field::Min:
        return tr("Min value");
    case Field::Mean:
        return tr("Mean value");
    case Field::StdDev:
        return tr("Std. dev.");
    case Field::Total:
        return tr("Total (count × mean)");
    }
    return {};
}

void UserEventChart::onTrialChanged()
{
    m_trial = m_state ? m_state->trial() : nullptr;
    fillEventCombo();
    // A new trial has other user events: start at its first one rather than at an empty chart.
    m_event = AtomicEventId();
    setUserEvent(m_trial && m_trial->atomicEventCount() > 0 ? AtomicEventId(0u) : AtomicEventId());
    rebuild();
}

void UserEventChart::fillEventCombo()
{
    m_eventCombo->clear();
    if (!m_trial)
        return;
    for (std::size_t i = 0; i < m_trial->atomicEventCount(); ++i)
        m_eventCombo->addItem(m_trial->atomicEvent(AtomicEventId(i)).name, static_cast<uint>(i));
}

void UserEventChart::setUserEvent(AtomicEventId event)
{
    if (m_trial && event.isValid() && event.index() >= m_trial->atomicEventCount())
        event = AtomicEventId();
    if (event == m_event)
        return;
    m_event = event;
    m_eventCombo->setCurrentIndex(event.isValid() ? m_eventCombo->findData(event.index()) : -1);
    rebuild();
    Q_EMIT userEventChanged(event);
}

void UserEventChart::setField(Field field)
{
    if (field == m_field)
        return;
    m_field = field;
    m_fieldCombo->setCurrentIndex(m_fieldCombo->findData(static_cast<int>(field)));
    rebuild();
    Q_EMIT fieldChanged(field);
}

void UserEventChart::setSortedByValue(bool sorted)
{
    if (sorted == m_sorted)
        return;
    m_sorted = sorted;
    m_sortBox->setChecked(sorted);
    rebuild();
}

std::optional<double> UserEventChart::threadValue(ThreadIndex thread) const
{
    return atomicThreadValue(*m_trial, thread, m_event, atomicField(m_field));
}

Stat UserEventChart::fieldStatistics() const
{
    if (!m_trial || !m_event.isValid())
        return {};
    return TrialStatistics::of(*m_trial)->atomicStat(m_event, atomicField(m_field));
}

QString UserEventChart::format(double value) const { return m_valueTicker->label(value, ChartStyle::locale()); }

void UserEventChart::rebuild()
{
    m_stale = true;
    if (isVisible())
        rebuildNow();
}

const UserEventChart& UserEventChart::built() const
{
    if (m_stale)
        const_cast<UserEventChart*>(this)->rebuildNow();
    return *this;
}

void UserEventChart::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        rebuildNow();
}

void UserEventChart::rebuildNow()
{
    m_stale = false;
    m_values.clear();
    m_order.clear();
    m_bars->data()->clear();
    m_selectedBar->data()->clear();
    for (const Reference* ref : { &m_mean, &m_min, &m_max }) {
        ref->line->setVisible(false);
        ref->label->setVisible(false);
    }
    if (!m_trial || !m_event.isValid()) {
        ChartStyle::setTitle(m_title, tr("No user event"),
            m_trial ? tr("This trial has no user events") : tr("Open a trial to see its user events"));
        m_threadTicker->setLabels({});
        m_plot->xAxis->setRange(0, 1);
        m_plot->yAxis->setRange(0, 1);
        m_plot->replot();
        return;
    }

    const std::size_t threads = m_trial->threadCount();
    m_values.resize(threads);
    for (std::size_t t = 0; t < threads; ++t)
        m_values[t] = threadValue(ThreadIndex(t));
    m_order.resize(threads);
    for (std::size_t t = 0; t < threads; ++t)
        m_order[t] = ThreadIndex(t);
    if (m_sorted) {
        std::stable_sort(m_order.begin(), m_order.end(), [this](ThreadIndex a, ThreadIndex b) {
            const auto& va = m_values[a.index()];
            const auto& vb = m_values[b.index()];
            if (va.has_value() != vb.has_value())
                return va.has_value();
            return va && *va > *vb;
        });
    }

    QStringList labels;
    labels.reserve(static_cast<qsizetype>(threads));
    QVector<double> keys;
    QVector<double> values;
    keys.reserve(static_cast<qsizetype>(threads));
    values.reserve(static_cast<qsizetype>(threads));
    double low = 0;
    double high = 0;
    for (std::size_t p = 0; p < m_order.size(); ++p) {
        labels.append(m_trial->threadKey(m_order[p]).toString());
        const auto& v = m_values[m_order[p].index()];
        if (!v)
            continue;
        keys.append(static_cast<double>(p));
        values.append(*v);
        low = std::min(low, *v);
        high = std::max(high, *v);
    }
    m_bars->setData(keys, values, true);
    m_threadTicker->setLabels(labels);
    const QFontMetrics metrics(m_plot->xAxis->tickLabelFont());
    m_labelWidth = 0;
    for (const QString& label : std::as_const(labels))
        m_labelWidth = std::max(m_labelWidth, metrics.horizontalAdvance(label));

    const QPalette palette = m_plot->palette();
    const AtomicEvent& event = m_trial->atomicEvent(m_event);
    const QColor color = eventColor(event.baseName);
    m_bars->setPen(Qt::NoPen);
    m_bars->setBrush(color);

    m_selectedBar->setPen(QPen(ChartStyle::highlightColor(palette).darker(130), 1));
    m_selectedBar->setBrush(ChartStyle::highlightColor(palette));

    const Stat s = fieldStatistics();
    struct Line {
        Reference* ref;
        double value;
        QString text;
    };
    std::vector<Line> lines;
    lines.push_back({ &m_mean, s.meanAll, tr("mean %1").arg(format(s.meanAll)) });
    if (s.present > 0) {
        lines.push_back({ &m_max, s.max, tr("max %1").arg(format(s.max)) });
        lines.push_back({ &m_min, s.min, tr("min %1").arg(format(s.min)) });
    }
    const QColor reference = ChartStyle::referenceColor(palette);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        Line& line = lines[i];
        QStringList merged { line.text };
        // Equal lines share one label instead of printing on top of each other.
        bool duplicate = false;
        for (std::size_t j = 0; j < i; ++j)
            duplicate = duplicate || lines[j].value == line.value;
        if (duplicate)
            continue;
        for (std::size_t j = i + 1; j < lines.size(); ++j)
            if (lines[j].value == line.value)
                merged.append(lines[j].text.section(QLatin1Char(' '), 0, 0));
        QPen pen = line.ref->line->pen();
        pen.setColor(reference);
        line.ref->line->setPen(pen);
        line.ref->line->point1->setCoords(0, line.value);
        line.ref->line->point2->setCoords(1, line.value);
        line.ref->line->setVisible(true);
        line.ref->label->setText(merged.size() > 1 ? merged.join(QLatin1String(" = ")) : line.text);
        line.ref->label->setColor(reference);
        QColor back = palette.color(QPalette::Base);
        back.setAlpha(200);
        line.ref->label->setBrush(back);
        line.ref->label->position->setCoords(0.995, line.value);
        line.ref->label->setVisible(true);
    }
    const std::size_t present = s.present;
    ChartStyle::setTitle(m_title, event.name,
        tr("%1 per thread · recorded on %2 of %3 threads · mean over all threads (absent = 0) %4")
            .arg(fieldName(m_field))
            .arg(present)
            .arg(threads)
            .arg(format(s.meanAll)));
    m_valueTicker->setMetric(std::nullopt, TimeUnit::Microseconds);
    m_plot->yAxis->setLabel(fieldName(m_field));
    const double span = high - low;
    const double pad = span > 0 ? span * 0.08 : (high != 0 ? std::abs(high) * 0.08 : 1.0);
    m_plot->yAxis->setRange(low < 0 ? low - pad : 0.0, high > 0 ? high + pad : (low < 0 ? 0.0 : 1.0));
    m_plot->xAxis->setRange(-0.6, static_cast<double>(threads) - 0.4);
    updateTicks();
    updateHighlight();
}

void UserEventChart::updateTicks()
{
    const int count = m_threadTicker->labels().size();
    if (count == 0)
        return;
    const QFontMetrics metrics(m_plot->xAxis->tickLabelFont());
    const int labelWidth = m_labelWidth + 12;
    // The axis rect's margins are those of the last layout; the widget width is current.
    const QMargins margins = m_plot->axisRect()->margins();
    const int axisWidth = std::max(50, m_plot->width() - margins.left() - margins.right());
    const double visible = std::min(static_cast<double>(count), m_plot->xAxis->range().size());
    const double horizontalFit = axisWidth / static_cast<double>(labelWidth);
    // Gaps between bars narrower than a few pixels only make moiré.
    const double barWidth = axisWidth / std::max(1.0, visible) < 4 ? 1.0 : 0.8;
    m_bars->setWidth(barWidth);
    m_selectedBar->setWidth(barWidth);
    // Horizontal labels while every visible bar gets one; otherwise vertical labels, thinned out.
    if (visible <= horizontalFit) {
        m_plot->xAxis->setTickLabelRotation(0);
        m_threadTicker->setTickCount(std::max(1, static_cast<int>(horizontalFit)));
    } else {
        m_plot->xAxis->setTickLabelRotation(-90);
        m_threadTicker->setTickCount(std::max(1, axisWidth / (metrics.height() + 6)));
    }
}

void UserEventChart::updateHighlight()
{
    m_selectedBar->data()->clear();
    const ThreadIndex selected = m_state ? m_state->thread() : ThreadIndex();
    if (m_trial && selected.isValid() && selected.index() < m_values.size() && m_values[selected.index()]) {
        const auto it = std::find(m_order.begin(), m_order.end(), selected);
        if (it != m_order.end())
            m_selectedBar->addData(static_cast<double>(it - m_order.begin()), *m_values[selected.index()]);
    }
    m_plot->replot();
}

int UserEventChart::positionAt(double x) const
{
    const double key = m_plot->xAxis->pixelToCoord(x);
    const long position = std::lround(key);
    if (position < 0 || static_cast<std::size_t>(position) >= m_order.size() || std::abs(key - position) > 0.45)
        return -1;
    return static_cast<int>(position);
}

void UserEventChart::showToolTip(QMouseEvent* event)
{
    const QPointF pos = event->position();
    const int position = m_plot->axisRect()->rect().contains(pos.toPoint()) ? positionAt(pos.x()) : -1;
    if (position < 0 || !m_trial) {
        QToolTip::hideText();
        return;
    }
    const ThreadIndex thread = m_order[static_cast<std::size_t>(position)];
    const auto& v = m_values[thread.index()];
    const QString key = m_trial->threadKey(thread).toString();
    const QString text = v
        ? tr("Thread %1\n%2: %3").arg(key, fieldName(m_field), ChartStyle::locale().toString(*v, 'g', 12))
        : tr("Thread %1\nnot recorded on this thread").arg(key);
    QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

void UserEventChart::selectAt(QMouseEvent* event)
{
    if (!m_state || event->button() != Qt::LeftButton)
        return;
    const QPointF pos = event->position();
    // A release after dragging the range is not a click on a bar.
    if ((pos - m_pressPos).manhattanLength() > 4 || !m_plot->axisRect()->rect().contains(pos.toPoint()))
        return;
    const int position = positionAt(pos.x());
    if (position >= 0)
        m_state->selectThread(m_order[static_cast<std::size_t>(position)]);
}

QString UserEventChart::exportImage(const QString& fileName, int width, int height)
{
    return ChartStyle::exportPlot(plot(), fileName, width, height);
}

bool UserEventChart::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot && event->type() == QEvent::Resize)
        updateTicks();
    // The plot's own palette event: the chart's arrives before the children have the new palette.
    if (watched == m_plot && event->type() == QEvent::PaletteChange) {
        ChartStyle::apply(m_plot);
        rebuild();
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace parallax
