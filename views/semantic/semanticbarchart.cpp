// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/semantic/semanticbarchart.h"

#include "views/charts/chartexport.h"
#include "views/charts/chartstyle.h"
#include "views/charts/qcustomplotwrapper.h"
#include "views/charts/valueaxisticker.h"
#include "views/semantic/semanticformat.h"
#include "views/semantic/semanticlevelbox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

namespace parallax {

using namespace parallax::semantic;

namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

QString percent(double p, const QLocale& locale)
{
    return std::isnan(p) ? QString()
                         : locale.toString(p, 'f', p != 0 && std::abs(p) < 0.1 ? 3 : 1) + QStringLiteral(" %");
}

QString elide(const QString& text, int max)
{
    return text.size() <= max ? text : text.left(max - 1) + QStringLiteral("…");
}
} // namespace

SemanticBarChart::SemanticBarChart(QWidget* parent)
    : SemanticLevelView(SemanticLevelBox::LeavesAt::First, tr("&Bars:"),
        tr("Which entities are bars: a level of the entity tree (entities above it show their own value as "
           "\"(self)\"), or the leaves"),
        parent)
{
    m_mappingBox = new QCheckBox(tr("With mapping"), this);
    m_mappingBox->setChecked(true);
    m_mappingBox->setToolTip(tr("Checked: one bar per semantic entity. Unchecked: the same trial as raw events (the "
                                "source set), each with the entity it maps to. The title shows both totals."));
    m_controls->addWidget(m_mappingBox);
    m_controls->addStretch(1);
    m_controls->addWidget(newExportButton(this, tr("Save the chart as PNG, SVG or PDF"),
        [this] { ChartStyle::exportPlotInteractively(m_plot, this, QStringLiteral("semantic-bars.png")); }));

    m_plot = new QCustomPlot(this);
    m_plot->setMinimumSize(300, 200);
    m_plot->setAntialiasedElements(QCP::aeNone);
    m_plot->setAntialiasedElement(QCP::aeItems, true);
    m_title = ChartStyle::addTitle(m_plot);
    auto valueTicker = QSharedPointer<ValueAxisTicker>::create();
    valueTicker->setTickCount(4);
    m_plot->xAxis->setTicker(valueTicker);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->yAxis->setSubTicks(false);
    m_plot->setMouseTracking(true);
    m_layout->addWidget(m_plot, 1);
    ChartStyle::apply(m_plot);

    connect(m_mappingBox, &QCheckBox::toggled, this, &SemanticBarChart::setWithMapping);
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const int i = barAt(event->position());
        if (i < 0) {
            QToolTip::hideText();
            return;
        }
        QToolTip::showText(event->globalPosition().toPoint(), toolTip(m_bars[static_cast<std::size_t>(i)]), m_plot);
    });
    connect(m_plot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
        const int i = barAt(event->position());
        if (i < 0)
            return;
        const Bar& b = m_bars[static_cast<std::size_t>(i)];
        if (b.entity >= 0)
            Q_EMIT entityClicked(b.entity);
        else if (b.event.isValid())
            Q_EMIT eventClicked(b.event);
    });
    rebuild();
}

void SemanticBarChart::resetForProfile()
{
    if (m_profile && m_scope.kind == Scope::Kind::Thread
        && (!m_scope.thread.isValid() || m_scope.thread.index() >= m_profile->threadCount()))
        m_scope = Scope::mean();
    m_highlight = -1;
}

void SemanticBarChart::setScope(const Scope& scope)
{
    m_scope = scope;
    rebuild();
}

void SemanticBarChart::setWithMapping(bool with)
{
    m_withMapping = with;
    {
        const QSignalBlocker block(m_mappingBox);
        m_mappingBox->setChecked(with);
    }
    m_levelBox->setEnabled(with);
    rebuild();
}

void SemanticBarChart::setMaxBars(int bars)
{
    m_maxBars = std::max(2, bars);
    rebuild();
}

void SemanticBarChart::highlightEntity(int entity)
{
    if (entity == m_highlight)
        return;
    m_highlight = entity;
    rebuild();
}

QString SemanticBarChart::title() const
{
    if (!m_title)
        return {};
    QString text = m_title->text();
    if (auto* grid = qobject_cast<QCPLayoutGrid*>(m_title->layout()); grid && grid->rowCount() > 1)
        if (auto* caption = qobject_cast<QCPTextElement*>(grid->element(1, 0)))
            text += QLatin1Char('\n') + caption->text();
    return text;
}

void SemanticBarChart::rebuild()
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_bars.clear();
    m_totalWith = 0;
    m_totalWithout = 0;
    const QLocale locale = ChartStyle::locale();
    if (!m_profile || m_metric.index() >= m_profile->metricCount()) {
        ChartStyle::setTitle(m_title, tr("No semantic profile"));
        m_plot->replot();
        return;
    }
    const SemanticProfile& p = *m_profile;
    const Trial& trial = p.trial();
    const MetricId m = m_metric;
    const double top = semanticview::scopeTop(p, m, m_scope);
    // % of total: Σ roll / Σ T on the mean and total (SemanticProfile::percentOfTotal).
    const double scale = m_scope.kind == Scope::Kind::Mean ? static_cast<double>(p.threadCount()) : 1.0;
    auto pctTotal = [&](double v) { return top != 0 ? 100.0 * v * scale / top : nan; };

    m_totalWith = semanticview::attributedTotal(p, m, m_scope);
    for (EventId e : p.sourceEvents())
        m_totalWithout += semanticview::eventExclusive(trial, e, m, m_scope);

    std::vector<Bar> all;
    int hidden = 0;
    if (m_withMapping) {
        for (const semanticview::Slice& s : semanticview::cut(p, m_level)) {
            Bar b;
            b.entity = s.entity;
            b.self = s.self;
            b.label = s.label;
            b.color = s.color;
            b.value = semanticview::sliceValue(p, s, m, m_scope);
            if (b.value == 0) {
                ++hidden;
                continue;
            }
            b.percentTotal = pctTotal(b.value);
            const ResolvedEntity& e = p.entity(s.entity);
            if (s.self) {
                const double roll = p.scoped(s.entity, m, Quantity::Roll, m_scope);
                b.percentParent = roll != 0 ? 100.0 * b.value / roll : nan;
            } else {
                b.percentParent = e.parent >= 0 ? p.percentOfParent(s.entity, m, m_scope) : nan;
            }
            b.badge = semanticview::policyBadge(e);
            all.push_back(std::move(b));
        }
    } else {
        for (EventId e : p.sourceEvents()) {
            Bar b;
            b.event = e;
            b.label = trial.event(e).name;
            b.value = semanticview::eventExclusive(trial, e, m, m_scope);
            if (b.value == 0) {
                ++hidden;
                continue;
            }
            b.percentTotal = pctTotal(b.value);
            b.percentParent = nan;
            QStringList targets;
            for (int edge : p.edgesOf(e)) {
                const int r = p.edges()[static_cast<std::size_t>(edge)].entity;
                if (r >= 0)
                    targets << p.entity(r).name;
            }
            b.badge = QStringLiteral("→ ") + elide(targets.join(QStringLiteral(", ")), 40);
            b.color = QColor(0x8c, 0x9d, 0xb5);
            all.push_back(std::move(b));
        }
    }
    std::stable_sort(all.begin(), all.end(), [](const Bar& a, const Bar& b) { return a.value > b.value; });
    if (static_cast<int>(all.size()) > m_maxBars) {
        Bar rest;
        rest.rest = true;
        const auto keep = static_cast<std::size_t>(m_maxBars - 1);
        for (std::size_t i = keep; i < all.size(); ++i)
            rest.value += all[i].value;
        rest.label = tr("(%n more)", nullptr, static_cast<int>(all.size() - keep));
        rest.percentTotal = pctTotal(rest.value);
        rest.percentParent = nan;
        rest.color = QColor(0xc8, 0xc8, 0xc8);
        all.resize(keep);
        all.push_back(std::move(rest));
    }
    m_bars = std::move(all);

    // Title: both totals, so that a user sees that mapping conserves.
    const double diff = std::abs(m_totalWith - m_totalWithout);
    const bool agree = diff <= 1e-9 * std::max({ 1.0, std::abs(m_totalWith), std::abs(m_totalWithout) });
    const QString title = tr("Σ with mapping = %1  ·  without = %2  %3")
                              .arg(format(m_totalWith), format(m_totalWithout),
                                  agree ? tr("(equal)") : tr("(differ by %1!)").arg(format(diff)));
    QString what = m_withMapping ? (m_level < 0 ? tr("leaf entities") : tr("entities at level %1").arg(m_level + 1))
                                 : tr("raw events without mapping");
    // On two lines: one would be cut at the chart's usual width (beside the Profile table).
    QString caption = tr("%1 — %2, %3\n%4, sorted by value")
                          .arg(p.model().name.isEmpty() ? tr("semantic model") : p.model().name, trial.metric(m).name,
                              semanticview::scopeText(trial, m_scope), what);
    if (hidden > 0)
        caption += tr("; %n with no value not shown", nullptr, hidden);
    ChartStyle::setTitle(m_title, title, caption);

    const int n = static_cast<int>(m_bars.size());
    m_labelWidths.clear();
    m_labelItems.clear();
    m_labelParts.clear();
    auto textTicker = QSharedPointer<QCPAxisTickerText>::create();
    double lo = 0;
    double hi = 0;
    const QPen highlightPen(ChartStyle::highlightColor(palette()), 2.5);
    // The bars' value texts share one decimals count, as a table column (0.0045 beside 2,462.0008).
    std::vector<double> shown;
    shown.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        shown.push_back(m_bars[static_cast<std::size_t>(i)].value);
    const int decimals = semanticview::columnDecimals(profile().get(), metric(), timeUnit(), shown);
    for (int i = 0; i < n; ++i) {
        const Bar& b = m_bars[static_cast<std::size_t>(i)];
        const double key = n - i; // largest at the top
        QString label = elide(b.label, 42);
        if (b.entity >= 0) {
            const QString badge = semanticview::shortBadge(p.entity(b.entity));
            if (!badge.isEmpty())
                label += QLatin1Char(' ') + badge;
        }
        textTicker->addTick(key, label);
        auto* bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
        bars->setWidth(0.72);
        bars->setSelectable(QCP::stNone);
        bars->setAntialiased(false);
        bars->setBrush(b.color);
        const bool highlighted = m_highlight >= 0 && b.entity == m_highlight;
        bars->setPen(highlighted ? highlightPen : QPen(b.color.darker(130)));
        bars->addData(key, b.value);
        lo = std::min(lo, b.value);
        hi = std::max(hi, b.value);

        QStringList parts { semanticview::formatValue(profile().get(), metric(), timeUnit(), b.value, decimals) };
        if (!std::isnan(b.percentTotal))
            parts << tr("%1 of total").arg(percent(b.percentTotal, locale));
        if (!std::isnan(b.percentParent))
            parts << tr("%1 of parent").arg(percent(b.percentParent, locale));
        if (!b.badge.isEmpty())
            parts << b.badge;
        auto* text = new QCPItemText(m_plot);
        text->setClipToAxisRect(false);
        text->position->setAxes(m_plot->xAxis, m_plot->yAxis);
        text->position->setCoords(std::max(0.0, b.value), key);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        text->setPadding(QMargins(5, 0, 0, 0));
        text->setText(parts.join(QStringLiteral("  ·  ")));
        text->setColor(palette().color(QPalette::WindowText));
        QFont font = m_plot->font();
        font.setPointSizeF(font.pointSizeF() * 0.9);
        text->setFont(font);
        m_labelWidths.push_back(QFontMetrics(font).horizontalAdvance(text->text()) + 12);
        m_labelItems.push_back(text);
        m_labelParts.push_back(parts);
    }
    m_plot->yAxis->setTicker(textTicker);
    m_plot->yAxis->setRange(0.4, std::max(1, n) + 0.6);
    if (hi - lo <= 0)
        hi = lo + 1;
    m_low = lo;
    m_high = hi;
    fitValueRange(0);
    auto* ticker = static_cast<ValueAxisTicker*>(m_plot->xAxis->ticker().data());
    ticker->setMetric(trial.metric(m), m_unit);
    m_plot->xAxis->setLabel(tr("%1 (%2)").arg(trial.metric(m).name, unitLabel(trial.metric(m), m_unit)));
    m_plot->replot();
}

void SemanticBarChart::fitValueRange(int plotWidth)
{
    // Room right of every bar for its label: with the range [lo, U] and W pixels, a bar of value v
    // ends at (v − lo)/(U − lo)·W, and its label needs L more pixels.
    const int margin = m_plot->width() - m_plot->axisRect()->width();
    const double w = std::max(100, (plotWidth > 0 ? plotWidth : m_plot->width()) - std::max(margin, 150));
    const double lo = m_low < 0 ? m_low * 1.1 : 0;
    // Labels that cannot fit even beside a short bar keep only their first parts (the value first).
    for (std::size_t i = 0; i < m_labelItems.size() && i < m_labelParts.size(); ++i) {
        const QFontMetrics metrics(m_labelItems[i]->font());
        QStringList parts = m_labelParts[i];
        QString text = parts.join(QStringLiteral("  ·  "));
        while (parts.size() > 1 && metrics.horizontalAdvance(text) + 12 > w - 60) {
            parts.removeLast();
            text = parts.join(QStringLiteral("  ·  "));
        }
        m_labelItems[i]->setText(text);
        m_labelWidths[i] = metrics.horizontalAdvance(text) + 12;
    }
    double upper = m_high * 1.05;
    for (std::size_t i = 0; i < m_bars.size() && i < m_labelWidths.size(); ++i) {
        const double free = w - m_labelWidths[i];
        if (free > 40)
            upper = std::max(upper, lo + (std::max(0.0, m_bars[i].value) - lo) * w / free);
        else
            upper = std::max(upper, m_high * 3);
    }
    m_plot->xAxis->setRange(lo, upper);
}

QString SemanticBarChart::barLabel(std::size_t i) const
{
    return i < m_labelItems.size() ? m_labelItems[i]->text() : QString();
}

int SemanticBarChart::labelOverflow() const
{
    int overflow = 0;
    for (QCPItemText* item : m_labelItems)
        overflow = std::max(overflow, static_cast<int>(std::ceil(item->right->pixelPosition().x())) - m_plot->width());
    return overflow;
}

void SemanticBarChart::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitValueRange(0);
    m_plot->replot();
}

int SemanticBarChart::barAt(const QPointF& pos) const
{
    if (m_bars.empty() || !m_plot->axisRect()->rect().contains(pos.toPoint()))
        return -1;
    const double key = m_plot->yAxis->pixelToCoord(pos.y());
    const int n = static_cast<int>(m_bars.size());
    const int i = n - static_cast<int>(std::lround(key));
    if (i < 0 || i >= n || std::abs(key - std::round(key)) > 0.4)
        return -1;
    return i;
}

QString SemanticBarChart::toolTip(const Bar& b) const
{
    const QLocale locale = ChartStyle::locale();
    QString text = QStringLiteral("<b>%1</b><br>%2").arg(b.label.toHtmlEscaped(), format(b.value));
    if (!std::isnan(b.percentTotal))
        text += tr("<br>%1 of total").arg(percent(b.percentTotal, locale));
    if (!std::isnan(b.percentParent))
        text += tr("<br>%1 of parent").arg(percent(b.percentParent, locale));
    if (!b.badge.isEmpty())
        text += QStringLiteral("<br>") + b.badge.toHtmlEscaped();
    if (b.self)
        text += tr("<br>(self): the entity's own value; its children are separate bars");
    if (b.entity >= 0 && m_profile && m_profile->entity(b.entity).estimate)
        text += tr("<br>≈ an estimate: AMORTIZE or WEIGHTED shares of one-to-many mappings");
    if (b.entity >= 0 && m_profile && m_profile->entity(b.entity).isAggregate())
        text += tr("<br>AGGREGATE: the cost of a set of entities, not split among them");
    if (b.rest)
        text += tr("<br>the sum of the smaller bars");
    return text;
}

QString SemanticBarChart::exportImage(const QString& fileName, int width, int height) const
{
    auto* self = const_cast<SemanticBarChart*>(this);
    if (width > 0)
        self->fitValueRange(width);
    QString error = ChartStyle::exportPlot(m_plot, fileName, width, height);
    self->fitValueRange(0);
    return error;
}

} // namespace parallax
