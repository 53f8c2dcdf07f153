// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/callgraph/callgraphwidget.h"

#include "algebra/calltree.h"
#include "algebra/statistics.h"
#include "algebra/units.h"
#include "views/callgraph/callgraphedgeitem.h"
#include "views/callgraph/callgraphview.h"
#include "views/callgraph/dotrunner.h"
#include "views/charts/colors.h"
#include "views/selectionstate.h"
#include "views/statisticsmodel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QPdfWriter>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QSvgGenerator>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax {

namespace {

constexpr int threadSource = 100;
constexpr int selectedMetric = -1;

const ValueType sizeTypes[] = { ValueType::Inclusive, ValueType::Exclusive, ValueType::Calls, ValueType::Subroutines,
    ValueType::InclusivePerCall, ValueType::ExclusivePerCall };

std::size_t at(int i) { return static_cast<std::size_t>(i); }

QPixmap legendPixmap(bool change)
{
    QPixmap pixmap(96, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    for (int x = 0; x < pixmap.width(); ++x) {
        const double t = static_cast<double>(x) / (pixmap.width() - 1);
        // Change: regression (red) on the left, improvement (blue) on the right.
        painter.setPen(change ? divergingColor(1.0 - 2.0 * t) : sequentialColor(t));
        painter.drawLine(x, 0, x, pixmap.height() - 1);
    }
    painter.setPen(QColor(0x80, 0x80, 0x80));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(pixmap.rect().adjusted(0, 0, -1, -1));
    return pixmap;
}

} // namespace

CallGraphWidget::CallGraphWidget(SelectionState* state, QWidget* parent)
    : QWidget(parent)
    , SelectionView(this, state, {})
    , m_state(state)
    , m_dot(new DotRunner(this))
    , m_scene(new QGraphicsScene(this))
    , m_view(new CallGraphView(this))
    , m_stack(new QStackedWidget(this))
    , m_message(new QLabel(this))
    , m_status(new QLabel(this))
    , m_info(new QLabel(this))
    , m_legend(new QLabel(this))
    , m_legendLow(new QLabel(tr("least"), this))
    , m_legendHigh(new QLabel(tr("most"), this))
    , m_source(new QComboBox(this))
    , m_orientationCombo(new QComboBox(this))
    , m_sizeTypeCombo(new QComboBox(this))
    , m_sizeMetricCombo(new QComboBox(this))
    , m_colorTypeCombo(new QComboBox(this))
    , m_colorMetricCombo(new QComboBox(this))
    , m_search(new QLineEdit(this))
    , m_matches(new QLabel(this))
    , m_showCombo(new QComboBox(this))
    , m_nodesSpin(new QSpinBox(this))
    , m_depthSpin(new QSpinBox(this))
    , m_moreButton(new QToolButton(this))
{
    setWindowTitle(tr("Call Graph"));
    m_view->setScene(m_scene);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setMargin(24);
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_message);

    // Controls: where values come from, what sets width and colour.
    for (int s = 0; s < StatisticCount; ++s)
        m_source->addItem(statisticName(static_cast<Statistic>(s)), s);
    m_source->addItem(tr("Selected thread"), threadSource);
    m_source->setToolTip(tr("Values are a statistic across threads, or those of the thread selected in any window"));
    for (ValueType type : sizeTypes) {
        m_sizeTypeCombo->addItem(valueTypeName(type), static_cast<int>(type));
        m_colorTypeCombo->addItem(valueTypeName(type), static_cast<int>(type));
    }
    m_sizeTypeCombo->setToolTip(tr("The value that sets the width of the boxes"));
    m_colorTypeCombo->setToolTip(tr("The value that sets the colour of the boxes (darker red = more)"));
    m_sizeMetricCombo->setToolTip(tr("The metric of the width value"));
    m_colorMetricCombo->setToolTip(tr("The metric of the colour value"));
    m_orientationCombo->addItem(tr("Automatic"), static_cast<int>(Orientation::Automatic));
    m_orientationCombo->addItem(tr("Top to bottom"), static_cast<int>(Orientation::TopToBottom));
    m_orientationCombo->addItem(tr("Left to right"), static_cast<int>(Orientation::LeftToRight));
    m_orientationCombo->setToolTip(tr("Direction of the call layers; Automatic picks the one that shows the graph "
                                      "larger in the view"));
    m_search->setPlaceholderText(tr("Find routine…"));
    m_search->setClearButtonEnabled(true);
    m_search->setToolTip(tr("Highlights the routines whose name contains the text; Enter centres the next one"));
    m_matches->setForegroundRole(QPalette::PlaceholderText);

    auto button = [this](const QString& text, const QString& tip, auto slot) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, slot);
        return b;
    };

    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(new QLabel(tr("Values:"), this));
    controls->addWidget(m_source);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(tr("Width:"), this));
    controls->addWidget(m_sizeTypeCombo);
    controls->addWidget(m_sizeMetricCombo);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(tr("Colour:"), this));
    controls->addWidget(m_colorTypeCombo);
    controls->addWidget(m_colorMetricCombo);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(tr("Layout:"), this));
    controls->addWidget(m_orientationCombo);
    controls->addStretch(1);

    // Which routines: the hot part (default), the selection's neighbourhood, or all.
    m_showCombo->addItem(tr("Hot part"), static_cast<int>(CallGraphFocus::Mode::Hot));
    m_showCombo->addItem(tr("Around the selection"), static_cast<int>(CallGraphFocus::Mode::Neighbourhood));
    m_showCombo->addItem(tr("All routines"), static_cast<int>(CallGraphFocus::Mode::All));
    m_showCombo->setToolTip(tr("Hot part: the hottest path and the routines carrying 90 % of the exclusive time, each "
                               "with its heaviest callers. Around the selection: the selected routine's callers and "
                               "callees, Levels deep. All: every routine, the largest first, up to Nodes."));
    m_nodesSpin->setRange(5, 5000);
    m_nodesSpin->setValue(m_focus.maxNodes);
    m_nodesSpin->setToolTip(tr("At most this many routines (about 50 stay legible on a screen)"));
    m_depthSpin->setRange(1, 8);
    m_depthSpin->setValue(m_focus.depth);
    m_depthSpin->setToolTip(tr("Around the selection: how many caller and callee levels"));
    m_moreButton->setText(tr("Show More"));
    m_moreButton->setToolTip(tr("Show 25 more routines"));
    m_moreButton->setAutoRaise(true);

    auto* tools = new QHBoxLayout;
    tools->setContentsMargins(0, 0, 0, 0);
    tools->addWidget(new QLabel(tr("Show:"), this));
    tools->addWidget(m_showCombo);
    tools->addWidget(new QLabel(tr("Nodes:"), this));
    tools->addWidget(m_nodesSpin);
    tools->addWidget(new QLabel(tr("Levels:"), this));
    tools->addWidget(m_depthSpin);
    tools->addWidget(m_moreButton);
    tools->addSpacing(8);
    tools->addWidget(m_search, 1);
    tools->addWidget(m_matches);
    tools->addSpacing(8);
    tools->addWidget(button(QStringLiteral("−"), tr("Zoom out (-, Ctrl+wheel)"), &CallGraphWidget::zoomOut));
    tools->addWidget(button(QStringLiteral("+"), tr("Zoom in (+, Ctrl+wheel)"), &CallGraphWidget::zoomIn));
    tools->addWidget(button(tr("Fit"), tr("Show the whole graph"), &CallGraphWidget::fitToView));
    tools->addWidget(button(tr("100%"), tr("Actual size"), [this] { m_view->resetZoom(); }));
    tools->addWidget(
        button(tr("Export…"), tr("Export the whole graph as PNG, SVG or PDF"), &CallGraphWidget::exportInteractively));

    m_legend->setPixmap(legendPixmap(false));
    m_legend->setToolTip(tr("Colour scale: light = least, dark red = most"));
    m_info->setWordWrap(true);
    m_info->setForegroundRole(QPalette::PlaceholderText);
    m_status->setForegroundRole(QPalette::PlaceholderText);
    // The description on its own row: a word-wrapped label in a row beside others gets one line's
    // height and is cut off.
    auto* bottom = new QHBoxLayout;
    bottom->setContentsMargins(0, 0, 0, 0);
    bottom->addStretch(1);
    bottom->addWidget(m_status);
    bottom->addWidget(m_legendLow);
    bottom->addWidget(m_legend);
    bottom->addWidget(m_legendHigh);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(controls);
    layout->addLayout(tools);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_info);
    layout->addLayout(bottom);

    connect(m_dot, &DotRunner::finished, this, &CallGraphWidget::onLayoutReady);
    connect(m_dot, &DotRunner::failed, this, &CallGraphWidget::onLayoutFailed);
    connect(m_view, &CallGraphView::nodeClicked, this, [this](int node) {
        if (node < 0 || at(node) >= m_graph.nodes().size())
            return;
        highlightNode(node, false);
        const EventId event = m_graph.nodes()[at(node)].event;
        if (event.isValid() && m_state) {
            m_activating = true;
            m_state->selectEvent(event);
            m_activating = false;
        }
    });
    connect(m_view, &CallGraphView::backgroundClicked, this, [this] { highlightNode(-1, false); });
    connect(m_view, &CallGraphView::nodeContextMenu, this, &CallGraphWidget::showNodeMenu);
    connect(m_showCombo, &QComboBox::activated, this,
        [this] { setFocusMode(static_cast<CallGraphFocus::Mode>(m_showCombo->currentData().toInt())); });
    connect(m_nodesSpin, &QSpinBox::editingFinished, this, [this] { setMaximumNodes(m_nodesSpin->value()); });
    connect(m_nodesSpin, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_nodesSpin->hasFocus()) // the arrows, not typing
            setMaximumNodes(v);
    });
    connect(m_depthSpin, &QSpinBox::valueChanged, this, [this](int v) {
        if (v == m_focus.depth)
            return;
        m_focus.depth = v;
        if (m_focus.mode == CallGraphFocus::Mode::Neighbourhood)
            scheduleLayout();
    });
    connect(m_moreButton, &QToolButton::clicked, this, [this] { setMaximumNodes(m_focus.maxNodes + 25); });

    connect(m_source, &QComboBox::activated, this, [this] {
        const int data = m_source->currentData().toInt();
        if (data == threadSource)
            setFollowSelectedThread(true);
        else {
            m_followThread = false;
            setStatistic(static_cast<Statistic>(data));
        }
    });
    auto metricOf = [](QComboBox* combo) {
        const int data = combo->currentData().toInt();
        return data == selectedMetric ? MetricId() : MetricId(static_cast<std::uint32_t>(data));
    };
    connect(m_sizeTypeCombo, &QComboBox::activated, this, [this, metricOf] {
        setSizeValue(static_cast<ValueType>(m_sizeTypeCombo->currentData().toInt()), metricOf(m_sizeMetricCombo));
    });
    connect(m_sizeMetricCombo, &QComboBox::activated, this, [this, metricOf] {
        setSizeValue(static_cast<ValueType>(m_sizeTypeCombo->currentData().toInt()), metricOf(m_sizeMetricCombo));
    });
    connect(m_colorTypeCombo, &QComboBox::activated, this, [this, metricOf] {
        setColorValue(static_cast<ValueType>(m_colorTypeCombo->currentData().toInt()), metricOf(m_colorMetricCombo));
    });
    connect(m_colorMetricCombo, &QComboBox::activated, this, [this, metricOf] {
        setColorValue(static_cast<ValueType>(m_colorTypeCombo->currentData().toInt()), metricOf(m_colorMetricCombo));
    });
    connect(m_orientationCombo, &QComboBox::activated, this,
        [this] { setOrientation(static_cast<Orientation>(m_orientationCombo->currentData().toInt())); });
    connect(m_search, &QLineEdit::textChanged, this, &CallGraphWidget::applySearch);
    connect(m_search, &QLineEdit::returnPressed, this, &CallGraphWidget::nextMatch);

    syncControls();
    syncFocusControls();
    onTrialChanged();
}

void CallGraphWidget::selectionChanged(SelectionChanges changes)
{
    if (changes & SelectionChange::Trial) {
        onTrialChanged(); // lays out anew whatever else changed
        return;
    }
    if (changes & SelectionChange::Metric) {
        if (!m_sizeMetric.isValid())
            scheduleLayout();
        else if (!m_colorMetric.isValid())
            recolour();
    }
    if (changes & (SelectionChange::TimeUnit | SelectionChange::Filters))
        scheduleLayout();
    if ((changes & SelectionChange::Thread) && m_followThread)
        scheduleLayout();
    if (changes & SelectionChange::Event) {
        if (m_focus.mode == CallGraphFocus::Mode::Neighbourhood && m_trial) {
            // Around the selection: the graph follows it.
            const int node = m_graph.nodeOfEvent(*m_trial, m_state->event());
            const QString name = node >= 0 ? m_graph.nodes()[at(node)].name : QString();
            if (!name.isEmpty() && name != m_centreName) {
                m_centreName = name;
                scheduleLayout();
            }
        }
        onEventSelected(m_state->event());
    }
}

void CallGraphWidget::doUpdate(SelectionChanges) { startLayout(); }

CallGraphWidget::~CallGraphWidget() = default;

void CallGraphWidget::setStatistic(Statistic statistic)
{
    const bool changed = statistic != m_statistic || m_followThread;
    m_statistic = statistic;
    m_followThread = false;
    syncControls();
    if (changed)
        scheduleLayout();
}

void CallGraphWidget::setFollowSelectedThread(bool follow)
{
    if (follow == m_followThread)
        return;
    m_followThread = follow;
    syncControls();
    scheduleLayout();
}

void CallGraphWidget::setSizeValue(ValueType type, MetricId metric)
{
    if (type == m_sizeType && metric == m_sizeMetric)
        return;
    m_sizeType = type;
    m_sizeMetric = metric;
    syncControls();
    scheduleLayout();
}

void CallGraphWidget::setColorValue(ValueType type, MetricId metric)
{
    if (type == m_colorType && metric == m_colorMetric)
        return;
    m_colorType = type;
    m_colorMetric = metric;
    syncControls();
    recolour();
}

void CallGraphWidget::setColorMode(ColorMode mode)
{
    if (mode == m_colorMode)
        return;
    m_colorMode = mode;
    const bool change = mode == ColorMode::Change;
    m_legend->setPixmap(legendPixmap(change));
    m_legendLow->setText(change ? tr("regression") : tr("least"));
    m_legendHigh->setText(change ? tr("improvement") : tr("most"));
    m_legend->setToolTip(change ? tr("Colour scale: red = regression, white = no change, blue = improvement; "
                                     "intensity by the size of the change")
                                : tr("Colour scale: light = least, dark red = most"));
    m_colorTypeCombo->setToolTip(change ? tr("The change that sets the colour of the boxes (blue = improvement, red = "
                                             "regression)")
                                        : tr("The value that sets the colour of the boxes (darker red = more)"));
    // Widths follow |value| in Change mode.
    scheduleLayout();
}

void CallGraphWidget::setDotExecutable(const QString& program)
{
    m_dot->setExecutable(program);
    scheduleLayout();
}

void CallGraphWidget::setOrientation(Orientation orientation)
{
    if (orientation == m_orientation)
        return;
    m_orientation = orientation;
    m_fitAfterLayout = true;
    syncControls();
    scheduleLayout();
}

void CallGraphWidget::setMaximumNodes(int count)
{
    count = std::max(1, count);
    if (count == m_focus.maxNodes)
        return;
    m_focus.maxNodes = count;
    m_fitAfterLayout = true;
    syncFocusControls();
    scheduleLayout();
}

void CallGraphWidget::setFocus(const CallGraphFocus& focus)
{
    m_focus = focus;
    m_focus.maxNodes = std::max(1, m_focus.maxNodes);
    m_fitAfterLayout = true;
    syncFocusControls();
    scheduleLayout();
}

void CallGraphWidget::setFocusMode(CallGraphFocus::Mode mode)
{
    if (mode == CallGraphFocus::Mode::Neighbourhood && m_centreName.isEmpty() && m_trial && m_state) {
        const int node = m_graph.nodeOfEvent(*m_trial, m_state->event());
        if (node >= 0)
            m_centreName = m_graph.nodes()[at(node)].name;
    }
    if (mode == CallGraphFocus::Mode::Hot)
        m_pinnedNames.clear(); // back to the hot part as it is
    m_focus.mode = mode;
    m_fitAfterLayout = true;
    syncFocusControls();
    scheduleLayout();
}

void CallGraphWidget::syncFocusControls()
{
    const QSignalBlocker a(m_showCombo);
    const QSignalBlocker b(m_nodesSpin);
    const QSignalBlocker c(m_depthSpin);
    m_showCombo->setCurrentIndex(m_showCombo->findData(static_cast<int>(m_focus.mode)));
    m_nodesSpin->setValue(m_focus.maxNodes);
    m_depthSpin->setValue(m_focus.depth);
    m_depthSpin->setEnabled(m_focus.mode == CallGraphFocus::Mode::Neighbourhood);
}

void CallGraphWidget::expandCallers(int node)
{
    if (node < 0 || at(node) >= m_graph.nodes().size())
        return;
    for (const CallGraph::Edge& e : m_graph.edges())
        if (e.to == node && !m_pinnedNames.contains(m_graph.nodes()[at(e.from)].name))
            m_pinnedNames << m_graph.nodes()[at(e.from)].name;
    scheduleLayout();
}

void CallGraphWidget::expandCallees(int node)
{
    if (node < 0 || at(node) >= m_graph.nodes().size())
        return;
    for (const CallGraph::Edge& e : m_graph.edges())
        if (e.from == node && !m_pinnedNames.contains(m_graph.nodes()[at(e.to)].name))
            m_pinnedNames << m_graph.nodes()[at(e.to)].name;
    scheduleLayout();
}

void CallGraphWidget::focusOn(int node)
{
    if (node < 0 || at(node) >= m_graph.nodes().size())
        return;
    m_centreName = m_graph.nodes()[at(node)].name;
    m_pinnedNames.clear();
    setFocusMode(CallGraphFocus::Mode::Neighbourhood);
}

void CallGraphWidget::showNodeMenu(int node, const QPoint& globalPos)
{
    if (node < 0 || at(node) >= m_graph.nodes().size())
        return;
    int callers = 0;
    int callees = 0;
    for (const CallGraph::Edge& e : m_graph.edges()) {
        if (e.from == e.to)
            continue;
        if (e.to == node && !m_shown[at(e.from)])
            ++callers;
        if (e.from == node && !m_shown[at(e.to)])
            ++callees;
    }
    QMenu menu(this);
    menu.addAction(tr("Expand Callers (%1 hidden)").arg(callers), this, [this, node] { expandCallers(node); })
        ->setEnabled(callers > 0);
    menu.addAction(tr("Expand Callees (%1 hidden)").arg(callees), this, [this, node] { expandCallees(node); })
        ->setEnabled(callees > 0);
    menu.addSeparator();
    menu.addAction(tr("Focus Here"), this, [this, node] { focusOn(node); });
    menu.addAction(tr("Show the Hot Part"), this, [this] { setFocusMode(CallGraphFocus::Mode::Hot); });
    menu.exec(globalPos);
}

QStringList CallGraphWidget::hotPathNames() const
{
    QStringList names;
    for (int n : m_hotPath)
        names << m_graph.nodes()[at(n)].name;
    return names;
}

int CallGraphWidget::labelledEdgeCount() const
{
    int count = 0;
    for (const CallGraphEdgeItem* item : m_edgeItems)
        count += item && !item->label().isEmpty() ? 1 : 0;
    return count;
}

bool CallGraphWidget::isLayoutRunning() const { return m_dot->isRunning() || isUpdatePending(); }

QString CallGraphWidget::message() const
{
    return m_stack->currentWidget() == m_message ? m_message->text() : QString();
}

void CallGraphWidget::relayout() { scheduleLayout(); }

void CallGraphWidget::zoomIn() { m_view->zoomBy(1.25); }

void CallGraphWidget::zoomOut() { m_view->zoomBy(1 / 1.25); }

void CallGraphWidget::fitToView() { m_view->fitAll(); }

void CallGraphWidget::onTrialChanged()
{
    m_trial = m_state ? m_state->trial() : nullptr;
    m_pinnedNames.clear(); // routines added to another trial's graph
    // Metric choices of another trial mean nothing here.
    if (m_trial && m_sizeMetric.isValid() && m_sizeMetric.index() >= m_trial->metricCount())
        m_sizeMetric = MetricId();
    if (m_trial && m_colorMetric.isValid() && m_colorMetric.index() >= m_trial->metricCount())
        m_colorMetric = MetricId();
    // The old graph's nodes refer to the old trial's events: never let a click select them.
    m_dot->cancel();
    clearScene();
    m_graph = CallGraph();
    m_selectedNode = -1;
    m_fitAfterLayout = true;
    populateMetricCombos();
    syncControls();
    scheduleLayout();
}

void CallGraphWidget::populateMetricCombos()
{
    for (QComboBox* combo : { m_sizeMetricCombo, m_colorMetricCombo }) {
        const QSignalBlocker blocker(combo);
        combo->clear();
        combo->addItem(tr("Selected metric"), selectedMetric);
        if (m_trial)
            for (std::size_t m = 0; m < m_trial->metricCount(); ++m)
                combo->addItem(m_trial->metrics()[m].name, static_cast<int>(m));
        combo->setVisible(m_trial && m_trial->metricCount() > 1);
    }
}

void CallGraphWidget::syncControls()
{
    auto select = [](QComboBox* combo, int data) {
        const QSignalBlocker blocker(combo);
        const int i = combo->findData(data);
        if (i >= 0)
            combo->setCurrentIndex(i);
    };
    select(m_source, m_followThread ? threadSource : static_cast<int>(m_statistic));
    select(m_orientationCombo, static_cast<int>(m_orientation));
    select(m_sizeTypeCombo, static_cast<int>(m_sizeType));
    select(m_colorTypeCombo, static_cast<int>(m_colorType));
    select(m_sizeMetricCombo, m_sizeMetric.isValid() ? static_cast<int>(m_sizeMetric.index()) : selectedMetric);
    select(m_colorMetricCombo, m_colorMetric.isValid() ? static_cast<int>(m_colorMetric.index()) : selectedMetric);
}

MetricId CallGraphWidget::sizeMetric() const
{
    if (m_sizeMetric.isValid())
        return m_sizeMetric;
    return m_state && m_state->metric().isValid() ? m_state->metric()
        : m_trial && m_trial->metricCount() > 0   ? MetricId(0u)
                                                  : MetricId();
}

MetricId CallGraphWidget::colorMetric() const
{
    if (m_colorMetric.isValid())
        return m_colorMetric;
    return m_state && m_state->metric().isValid() ? m_state->metric()
        : m_trial && m_trial->metricCount() > 0   ? MetricId(0u)
                                                  : MetricId();
}

bool CallGraphWidget::usesThread() const
{
    return m_followThread && m_state && m_state->thread().isValid() && m_trial
        && m_state->thread().index() < m_trial->threadCount();
}

std::optional<double> CallGraphWidget::valueOf(EventId event, MetricId metric, ValueType type) const
{
    if (!m_trial || !event.isValid() || !metric.isValid())
        return std::nullopt;
    const auto stats = TrialStatistics::of(*m_trial);
    if (!usesThread())
        return statisticValue(*m_trial, *stats, event, metric, type, m_statistic);
    const ThreadIndex t = m_state->thread();
    const auto i = m_trial->row(t).find(event);
    if (i < 0)
        return std::nullopt;
    return shownCellValue(*m_trial, *stats, t, static_cast<std::size_t>(i), metric, type);
}

std::optional<double> CallGraphWidget::edgeValue(const CallGraph::Edge& edge, MetricId metric, ValueType type) const
{
    if (edge.paths.empty())
        return std::nullopt;
    if (edge.paths.size() == 1)
        return valueOf(edge.paths.front(), metric, type);
    // Several call paths end with the same caller => callee pair (different callers further up):
    // the edge carries their sum; per-call values are the summed value over the summed calls.
    auto sum = [&](ValueType t) -> std::optional<double> {
        std::optional<double> total;
        for (EventId path : edge.paths)
            if (const auto v = valueOf(path, metric, t))
                total = total.value_or(0) + *v;
        return total;
    };
    if (type == ValueType::ExclusivePerCall || type == ValueType::InclusivePerCall) {
        const auto v = sum(type == ValueType::ExclusivePerCall ? ValueType::Exclusive : ValueType::Inclusive);
        const auto calls = sum(ValueType::Calls);
        if (!v || !calls || !(*calls > 0))
            return std::nullopt;
        return *v / *calls;
    }
    return sum(type);
}

QString CallGraphWidget::formatValue(double value, MetricId metric, ValueType type) const
{
    const QLocale locale;
    if (isPercent(type))
        return locale.toString(value, 'f', 2) + QStringLiteral(" %");
    if (isMetricValued(type) && m_trial && metric.isValid()) {
        const Metric& m = m_trial->metric(metric);
        const TimeUnit unit = m_state ? m_state->timeUnit() : TimeUnit::Milliseconds;
        const QString label = unitLabel(m, unit);
        const QString text = formatMetricValue(value, m, unit, locale);
        return label.isEmpty() || unit == TimeUnit::HoursMinutesSeconds ? text : text + QLatin1Char(' ') + label;
    }
    if (type == ValueType::Calls)
        return tr("%1 calls").arg(formatNumber(value, locale));
    if (type == ValueType::Subroutines)
        return tr("%1 subrs").arg(formatNumber(value, locale));
    return formatNumber(value, locale);
}

QString CallGraphWidget::describeValue(MetricId metric, ValueType type) const
{
    QString text = valueTypeName(type).toLower();
    if (isMetricValued(type) && m_trial && metric.isValid())
        text += QLatin1Char(' ') + m_trial->metric(metric).name;
    return text;
}

QString CallGraphWidget::sourceName() const
{
    if (usesThread())
        return tr("thread %1").arg(m_trial->threadKey(m_state->thread()).toString());
    QString name = statisticName(m_statistic).toLower();
    if (m_followThread)
        name += tr(" (no thread selected)");
    return name;
}

void CallGraphWidget::scheduleLayout() { scheduleUpdate(); }

void CallGraphWidget::clearScene()
{
    m_scene->clear();
    m_nodeItems.clear();
    m_edgeItems.clear();
    m_nodeItemCount = 0;
    m_edgeItemCount = 0;
}

void CallGraphWidget::showMessage(const QString& message)
{
    m_dot->cancel();
    clearScene();
    m_graph = CallGraph();
    m_shown.clear();
    m_selectedNode = -1;
    m_message->setText(message);
    m_stack->setCurrentWidget(m_message);
    m_status->clear();
    m_info->clear();
    m_matches->clear();
    Q_EMIT layoutFinished(false);
}

void CallGraphWidget::recolour()
{
    if (m_nodeItems.empty())
        return;
    const MetricId metric = colorMetric();
    const MetricId size = sizeMetric();
    const auto& nodes = m_graph.nodes();
    const bool change = m_colorMode == ColorMode::Change;
    // Change: a positive difference is an improvement unless higher is better (docs/SEMANTICS.md 4.6).
    const double improvementSign = m_trial && metric.isValid() && m_trial->metric(metric).higherIsBetter ? -1.0 : 1.0;
    std::vector<std::optional<double>> values(nodes.size());
    double maxValue = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (!m_nodeItems[i])
            continue;
        values[i] = valueOf(nodes[i].event, metric, m_colorType);
        if (values[i])
            maxValue = std::max(maxValue, change ? std::fabs(*values[i]) : *values[i]);
    }
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        CallGraphNodeItem* item = m_nodeItems[i];
        if (!item)
            continue;
        if (values[i] && change)
            // divergingColor: negative = blue (improvement), positive = red (regression).
            item->setFill(divergingColor(maxValue > 0 ? -improvementSign * *values[i] / maxValue : 0.0));
        else if (values[i])
            item->setFill(sequentialColor(maxValue > 0 ? std::clamp(*values[i] / maxValue, 0.0, 1.0) : 0.0));
        else
            item->setFill(QColor(0xdd, 0xdd, 0xdd));
        const auto sizeValue = valueOf(nodes[i].event, size, m_sizeType);
        QString tip = nodes[i].name + QLatin1String("\n\n");
        tip += tr("Width: %1 (%2) = %3")
                   .arg(describeValue(size, m_sizeType), sourceName(),
                       sizeValue ? formatValue(*sizeValue, size, m_sizeType) : tr("—"));
        tip += QLatin1Char('\n')
            + tr("Colour: %1 (%2) = %3")
                  .arg(describeValue(metric, m_colorType), sourceName(),
                      values[i] ? formatValue(*values[i], metric, m_colorType) : tr("—"));
        if (change && values[i] && *values[i] != 0)
            tip += QLatin1Char('\n')
                + (improvementSign * *values[i] > 0 ? tr("Blue: an improvement (the candidate is cheaper)")
                                                    : tr("Red: a regression (the candidate is more expensive)"));
        if (!nodes[i].event.isValid())
            tip += QLatin1Char('\n') + tr("The profile has no flat event of this name, so it has no values.");
        tip += QLatin1String("\n\n")
            + tr("Click to select it in every window and to highlight its callers and callees.");
        item->setToolTip(tip);
    }
    updateInfo();
}

void CallGraphWidget::onEventSelected(EventId event)
{
    if (!m_trial || m_nodeItems.empty())
        return;
    const int node = m_graph.nodeOfEvent(*m_trial, event);
    highlightNode(node, !m_activating);
}

void CallGraphWidget::highlightNode(int node, bool centre)
{
    if (node >= 0 && (at(node) >= m_nodeItems.size() || !m_nodeItems[at(node)]))
        node = -1;
    m_selectedNode = node;
    applyHighlight();
    if (node >= 0 && centre)
        m_view->centerOn(m_nodeItems[at(node)]);
}

void CallGraphWidget::applyHighlight()
{
    const int selected = m_selectedNode;
    std::vector<bool> neighbour(m_nodeItems.size(), false);
    for (std::size_t e = 0; e < m_edgeItems.size(); ++e) {
        CallGraphEdgeItem* item = m_edgeItems[e];
        if (!item)
            continue;
        const CallGraph::Edge& edge = m_graph.edges()[e];
        const bool touches = selected >= 0 && (edge.from == selected || edge.to == selected);
        if (touches) {
            neighbour[at(edge.from)] = true;
            neighbour[at(edge.to)] = true;
        }
        item->setHighlighted(touches);
        item->setDimmed(selected >= 0 && !touches);
    }
    for (std::size_t i = 0; i < m_nodeItems.size(); ++i) {
        CallGraphNodeItem* item = m_nodeItems[i];
        if (!item)
            continue;
        using Emphasis = CallGraphNodeItem::Emphasis;
        if (selected < 0)
            item->setEmphasis(Emphasis::Normal);
        else if (static_cast<int>(i) == selected)
            item->setEmphasis(Emphasis::Selected);
        else
            item->setEmphasis(neighbour[i] ? Emphasis::Neighbour : Emphasis::Dimmed);
    }
}

void CallGraphWidget::applySearch()
{
    const QString text = m_search->text().trimmed();
    int count = 0;
    for (std::size_t i = 0; i < m_nodeItems.size(); ++i) {
        CallGraphNodeItem* item = m_nodeItems[i];
        if (!item)
            continue;
        const bool match = !text.isEmpty() && m_graph.nodes()[i].name.contains(text, Qt::CaseInsensitive);
        item->setSearchMatch(match);
        count += match ? 1 : 0;
    }
    m_matchCursor = -1;
    if (text.isEmpty())
        m_matches->clear();
    else
        m_matches->setText(count == 1 ? tr("1 match") : tr("%1 matches").arg(count));
}

void CallGraphWidget::nextMatch()
{
    const int n = static_cast<int>(m_nodeItems.size());
    for (int k = 1; k <= n; ++k) {
        const int i = (m_matchCursor + k) % n;
        if (m_nodeItems[at(i)] && m_nodeItems[at(i)]->isSearchMatch()) {
            m_matchCursor = i;
            m_view->centerOn(m_nodeItems[at(i)]);
            return;
        }
    }
}

void CallGraphWidget::updateInfo()
{
    if (!m_trial || m_nodeItems.empty()) {
        m_info->clear();
        return;
    }
    // "50 of 600 routines (the hot part: 37 % of the exclusive time; Show More or a box's menu for
    // the rest)", the hottest path, what width and colour show.
    QString routines = tr("%1 routines").arg(m_nodeItemCount);
    if (m_hiddenByCap > 0) {
        const QString which = m_focus.mode == CallGraphFocus::Mode::Neighbourhood
            ? tr("around %1").arg(CallGraph::shortName(m_centreName))
            : m_focus.mode == CallGraphFocus::Mode::All ? tr("the largest")
                                                        : tr("the hot part");
        const QString share = std::isnan(m_covered)
            ? QString()
            : tr(": %1 % of the exclusive time").arg(QLocale().toString(100.0 * m_covered, 'f', 0));
        routines = tr("%1 of %2 routines (%3%4; Show More or a box's menu for the rest)")
                       .arg(m_nodeItemCount)
                       .arg(m_graph.nodes().size())
                       .arg(which, share);
    }
    QString text = tr("%1, %2 edges (numbers: calls).").arg(routines).arg(m_edgeItemCount);
    if (m_hotPath.size() > 1 && m_nodeItems[at(m_hotPath.front())] && m_nodeItems[at(m_hotPath.back())])
        text += QLatin1Char(' ') + tr("Hottest path in dark red.");
    text += QLatin1Char(' ')
        + tr("Width: %1; colour: %2; values: %3.")
              .arg(describeValue(sizeMetric(), m_sizeType), describeValue(colorMetric(), m_colorType), sourceName());
    const auto tree = CallTree::of(*m_trial);
    if (tree->isTruncated())
        text += QLatin1Char(' ')
            + tr("Call paths are limited to depth %1: caller → callee pairs, not complete paths.")
                  .arg(tree->callPathDepthLimit());
    m_info->setText(text);
}

CallGraphNodeItem* CallGraphWidget::nodeItem(const QString& name) const
{
    const int node = m_graph.nodeOf(name);
    return node >= 0 && at(node) < m_nodeItems.size() ? m_nodeItems[at(node)] : nullptr;
}

bool CallGraphWidget::activateNode(const QString& name)
{
    CallGraphNodeItem* item = nodeItem(name);
    if (!item)
        return false;
    Q_EMIT m_view->nodeClicked(item->node());
    return true;
}

QString CallGraphWidget::selectedNodeName() const
{
    return m_selectedNode >= 0 ? m_graph.nodes()[at(m_selectedNode)].name : QString();
}

QStringList CallGraphWidget::searchMatches() const
{
    QStringList names;
    for (std::size_t i = 0; i < m_nodeItems.size(); ++i)
        if (m_nodeItems[i] && m_nodeItems[i]->isSearchMatch())
            names.append(m_graph.nodes()[i].name);
    return names;
}

QImage CallGraphWidget::renderImage(double scale) const
{
    if (m_nodeItemCount == 0)
        return {};
    const QRectF source = m_scene->sceneRect();
    const QSize size = (source.size() * scale).toSize();
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(palette().color(QPalette::Base));
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    m_scene->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), source);
    painter.end();
    return image;
}

QString CallGraphWidget::exportImage(const QString& fileName) const
{
    if (m_nodeItemCount == 0)
        return tr("%1: there is no call graph to export").arg(fileName);
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    const QRectF source = m_scene->sceneRect();
    if (suffix == QLatin1String("png") || suffix.isEmpty()) {
        if (!renderImage(2.0).save(fileName, "PNG"))
            return tr("%1: cannot write PNG").arg(fileName);
        return {};
    }
    auto paint = [&](QPaintDevice* device, const QRectF& target) {
        QPainter painter;
        if (!painter.begin(device))
            return false;
        painter.fillRect(target, palette().color(QPalette::Base));
        m_scene->render(&painter, target, source);
        painter.end();
        return true;
    };
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(fileName);
        svg.setSize(source.size().toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
        svg.setTitle(windowTitle());
        if (!paint(&svg, QRectF(QPointF(0, 0), source.size())))
            return tr("%1: cannot write SVG").arg(fileName);
        return {};
    }
    if (suffix == QLatin1String("pdf")) {
        QPdfWriter pdf(fileName);
        pdf.setPageSize(QPageSize(source.size(), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(72);
        if (!paint(&pdf, QRectF(QPointF(0, 0), source.size())))
            return tr("%1: cannot write PDF").arg(fileName);
        return {};
    }
    return tr("%1: unknown image type '%2' (use .png, .svg or .pdf)").arg(fileName, suffix);
}

void CallGraphWidget::exportInteractively()
{
    if (m_nodeItemCount == 0) {
        QMessageBox::information(this, tr("Export Call Graph"), tr("There is no call graph to export."));
        return;
    }
    const QString fileName = QFileDialog::getSaveFileName(this, tr("Export Call Graph"),
        QStringLiteral("callgraph.png"), tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"));
    if (fileName.isEmpty())
        return;
    const QString error = exportImage(fileName);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export Call Graph"), error);
}

} // namespace parallax
