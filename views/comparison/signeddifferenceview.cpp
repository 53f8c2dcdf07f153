// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/comparison/signeddifferenceview.h"

#include "views/comparison/comparisonformat.h"
#include "views/comparison/comparisonmodel.h"
#include "views/overview/barlistwidget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax {

namespace {

/// The colour scale of the legend: Δ from −max (left) to +max (right); `sign` = improvementSign.
QPixmap gradientPixmap(double sign)
{
    QPixmap pixmap(140, 14);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    const int w = pixmap.width();
    for (int x = 0; x < w; ++x) {
        // -1 at the left end, +1 at the right end, in Δ terms.
        const double delta = 2.0 * x / (w - 1) - 1.0;
        painter.setPen(changeColor(sign * delta));
        painter.drawLine(x, 0, x, pixmap.height() - 1);
    }
    painter.setPen(QColor(0x80, 0x80, 0x80));
    painter.drawLine(w / 2, 0, w / 2, pixmap.height() - 1);
    painter.drawRect(pixmap.rect().adjusted(0, 0, -1, -1));
    return pixmap;
}

} // namespace

SignedDifferenceView::SignedDifferenceView(ComparisonModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_bars(new BarListWidget(this))
    , m_left(new QLabel(this))
    , m_right(new QLabel(this))
    , m_scale(new QLabel(this))
    , m_note(new QLabel(this))
{
    m_bars->setPlaceholderText(tr("No events to show (check the minimum difference)"));
    m_bars->setExportName(QStringLiteral("signed-difference.png"));
    m_bars->setMaxLabelFraction(0.35);
    m_bars->setToolTipProvider([this](int row, int) { return toolTip(row); });
    m_left->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_left->setTextFormat(Qt::RichText);
    m_right->setTextFormat(Qt::RichText);
    // Wrapped rather than widening the window when the view is narrow.
    m_left->setWordWrap(true);
    m_right->setWordWrap(true);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    m_note->setWordWrap(true);

    auto* legend = new QHBoxLayout;
    legend->setContentsMargins(6, 2, 6, 0);
    legend->addWidget(m_left, 1);
    legend->addWidget(m_scale);
    legend->addWidget(m_right, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(legend);
    m_note->setContentsMargins(6, 0, 6, 2);
    m_note->setAlignment(Qt::AlignHCenter);
    layout->addWidget(m_note);
    layout->addWidget(m_bars, 1);

    auto activate = [this](int row) {
        if (row >= 0 && static_cast<std::size_t>(row) < m_events.size())
            Q_EMIT eventActivated(m_events[static_cast<std::size_t>(row)]);
    };
    connect(m_bars, &BarListWidget::segmentClicked, this, [activate](int row, int) { activate(row); });
    connect(m_bars, &BarListWidget::labelClicked, this, activate);
    connect(m_bars, &BarListWidget::rowActivated, this, activate);
    connect(m_model, &QAbstractItemModel::modelReset, this, &SignedDifferenceView::rebuild);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &SignedDifferenceView::rebuild);
    connect(m_model, &QAbstractItemModel::headerDataChanged, this, &SignedDifferenceView::rebuild);
    rebuild();
}

QString SignedDifferenceView::leftLegend() const { return m_left->text(); }

QString SignedDifferenceView::rightLegend() const { return m_right->text(); }

void SignedDifferenceView::rebuild()
{
    m_events.clear();
    const Metric* metric = m_model->metric();
    const auto& snapshot = m_model->snapshot();
    const CompareValue value = m_model->value();
    const TimeUnit unit = m_model->timeUnit();
    const QLocale locale = groupingLocale();
    if (!metric || !snapshot) {
        m_bars->setData(nullptr);
        m_bars->setTitle({});
        m_left->clear();
        m_right->clear();
        m_scale->clear();
        m_note->clear();
        return;
    }
    const double sign = improvementSign(metric->higherIsBetter);

    // Legend: the sign convention of docs/SEMANTICS.md 4.6 in words, on the side where the bars grow.
    auto side = [&](bool positive) {
        const bool improvement = positive != metric->higherIsBetter;
        const QColor colour = improvement ? improvementColor() : regressionColor();
        const QString arrow = positive ? QStringLiteral("right ▶") : QStringLiteral("◀ left");
        const QString text = tr("%1: Δ %2 0, <b>%3</b>")
                                 .arg(arrow, positive ? QStringLiteral(">") : QStringLiteral("&lt;"),
                                     deltaMeaning(*metric, positive).toHtmlEscaped());
        return QStringLiteral("<span style=\"color:%1\">%2</span>").arg(colour.name(), text);
    };
    m_left->setText(side(false));
    m_right->setText(side(true));
    m_scale->setPixmap(gradientPixmap(sign));

    const int rows = m_model->rowCount();
    std::vector<int> order(static_cast<std::size_t>(rows));
    std::iota(order.begin(), order.end(), 0);
    // Largest Δ at the top: improvements first for lower-is-better metrics.
    std::stable_sort(order.begin(), order.end(),
        [&](int x, int y) { return m_model->entryAt(x).delta(value) > m_model->entryAt(y).delta(value); });
    double lo = 0;
    double hi = 0;
    for (int row : order) {
        const double d = m_model->entryAt(row).delta(value);
        lo = std::min(lo, d);
        hi = std::max(hi, d);
    }
    const double maxAbs = std::max(-lo, hi);
    if (hi - lo <= 0)
        hi = lo + 1;
    auto x = [&](double d) { return static_cast<float>((d - lo) / (hi - lo)); };

    auto data = std::make_shared<BarListData>();
    data->labelAlignment = Qt::AlignLeft;
    data->origin = x(0);
    data->rows.reserve(order.size());
    data->segments.reserve(order.size());
    data->colors.reserve(order.size());
    for (int row : order) {
        const int event = m_model->eventAt(row);
        const ComparisonEntry& entry = m_model->entryAt(row);
        const double d = entry.delta(value);
        BarRow r;
        const QString marker = presenceText(entry.inA, entry.inB);
        r.label = snapshot->events[static_cast<std::size_t>(event)].name;
        if (!marker.isEmpty())
            r.label = marker.left(1) + QLatin1Char(' ') + r.label;
        r.text = compareText(d, *metric, value, unit, locale, true);
        const RelativeDifference relative = entry.relative(value);
        if (relative.kind != RelativeDifference::Blank)
            r.text += QStringLiteral("  (") + relative.text(locale) + QLatin1Char(')');
        r.id = static_cast<std::uint32_t>(event);
        r.firstSegment = static_cast<std::uint32_t>(data->segments.size());
        r.segmentCount = 1;
        BarSegment segment;
        segment.x0 = data->origin;
        segment.x1 = x(d);
        segment.key = static_cast<std::uint32_t>(data->colors.size());
        r.end = std::max(segment.x0, segment.x1);
        // Small changes stay visible: intensity starts at a quarter of the scale.
        const double t = maxAbs > 0 ? sign * d / maxAbs : 0.0;
        data->colors.push_back(changeColor(std::copysign(0.3 + 0.7 * std::fabs(t), t)).rgb());
        data->segments.push_back(segment);
        data->rows.push_back(std::move(r));
        m_events.push_back(event);
    }
    m_bars->setData(std::move(data));

    const QString unitText = compareUnit(*metric, value, unit);
    QString what = compareValueName(value);
    if (value != CompareValue::Calls)
        what += QLatin1Char(' ') + metric->name;
    what += unitSuffix(unitText);
    QString source;
    if (const auto& values = m_model->values()) {
        source = compareSourceName(values->query.source).toLower();
        if (values->query.source == CompareSource::Thread
            && static_cast<std::size_t>(values->query.thread) < snapshot->threads.size())
            source = tr("thread %1").arg(snapshot->threads[static_cast<std::size_t>(values->query.thread)].toString());
    }
    m_bars->setTitle(tr("Δ = A − B of %1, %2 — %3, sorted by Δ; positive = B cheaper")
                         .arg(what, source, countText(static_cast<qulonglong>(rows), tr("event"), tr("events"))));
    m_note->setText(
        tr("A = baseline \"%1\", B = candidate \"%2\". Colour intensity = |Δ| relative to the largest "
           "change (%3). ◀/▶ before a name: the event ran only in A / only in B.")
            .arg(snapshot->a->name(), snapshot->b->name(), compareText(maxAbs, *metric, value, unit, locale)));
}

QString SignedDifferenceView::toolTip(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_events.size())
        return {};
    const int modelRow = m_model->rowOf(m_events[static_cast<std::size_t>(row)]);
    if (modelRow < 0)
        return {};
    return m_model->index(modelRow, ComparisonModel::Delta).data(Qt::ToolTipRole).toString();
}

} // namespace parallax
