// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/flame/flamegraphwidget.h"

#include "algebra/statistics.h"
#include "algebra/units.h"
#include "views/charts/chartexport.h"
#include "views/charts/colors.h"
#include "views/common/flowlayout.h"
#include "views/comparison/growthoverlay.h"
#include "views/selectionstate.h"
#include "views/source/showsource.h"

#include <QCheckBox>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>

namespace parallax {

namespace {

constexpr int frameHeight = 18;
constexpr double labelMinWidth = 24.0;

std::size_t at(int i) { return static_cast<std::size_t>(i); }

/// A group's colour: MPI blue, OpenMP green, I/O orange, everything else a neutral purple-grey.
QColor groupColour(const QStringList& groups, const QString& name)
{
    auto has = [&](const char* key) {
        return std::any_of(groups.begin(), groups.end(),
            [&](const QString& g) { return g.contains(QLatin1String(key), Qt::CaseInsensitive); });
    };
    if (has("MPI") || name.startsWith(QLatin1String("MPI_")))
        return { 0x42, 0x85, 0xc8 };
    if (has("OPENMP") || has("OMP") || name.contains(QLatin1String("$omp")) || name.startsWith(QLatin1String("OpenMP")))
        return { 0x4c, 0xaf, 0x50 };
    if (has("IO") || has("I/O") || name.startsWith(QLatin1String("fopen")) || name.startsWith(QLatin1String("write"))
        || name.startsWith(QLatin1String("read")))
        return { 0xf5, 0x9b, 0x2e };
    return { 0xa8, 0x9a, 0xc0 };
}

/// Dark or light text, whichever reads on `fill`.
QColor textOn(const QColor& fill)
{
    const double l = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return l > 0.55 ? QColor(0x20, 0x20, 0x20) : QColor(Qt::white);
}

QColor faded(const QColor& c, double keep)
{
    return QColor::fromRgbF(static_cast<float>(c.redF() * keep + (1 - keep)),
        static_cast<float>(c.greenF() * keep + (1 - keep)), static_cast<float>(c.blueF() * keep + (1 - keep)));
}

double maxAbsDelta(const DiffFlameTree& d)
{
    double m = 0;
    for (std::size_t i = 0; i < d.tree().nodes().size(); ++i)
        m = std::max(m, std::abs(d.delta(static_cast<int>(i))));
    return m;
}

} // namespace

/// The painted frames: sized to the tree's depth (scrolls when deep), hover tooltips, clicks.
class FlameCanvas : public QWidget {
public:
    explicit FlameCanvas(FlameGraphWidget* owner)
        : QWidget(owner)
        , m_owner(owner)
    {
        setMouseTracking(true);
        setAttribute(Qt::WA_OpaquePaintEvent);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }
    QRectF area() const { return QRectF(rect()); }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        painter.fillRect(rect(), palette().color(QPalette::Base));
        m_owner->paintFrames(painter, area());
    }
    void resizeEvent(QResizeEvent* event) override
    {
        QWidget::resizeEvent(event);
        // Slivers depend on what a pixel is worth.
        if (std::abs(width() - m_owner->m_layoutPixels) > 0.5)
            m_owner->relayout();
    }
    bool event(QEvent* e) override
    {
        if (e->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(e);
            const int f = m_owner->frameAt(help->pos());
            if (f >= 0)
                QToolTip::showText(help->globalPos(), m_owner->frameTip(f), this);
            else
                QToolTip::hideText();
            return true;
        }
        return QWidget::event(e);
    }
    void mouseMoveEvent(QMouseEvent* e) override
    {
        setCursor(m_owner->frameAt(e->position().toPoint()) >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    }
    void mouseReleaseEvent(QMouseEvent* e) override
    {
        if (e->button() == Qt::LeftButton)
            m_owner->onFrameClicked(m_owner->frameAt(e->position().toPoint()));
    }
    void contextMenuEvent(QContextMenuEvent* e) override
    {
        const int f = m_owner->frameAt(e->pos());
        if (f >= 0)
            m_owner->showFrameMenu(f, e->globalPos());
    }

private:
    FlameGraphWidget* m_owner;
};

FlameGraphWidget::FlameGraphWidget(SelectionState* state, QWidget* parent)
    : QWidget(parent)
    , SelectionView(this, state,
          SelectionChange::Trial | SelectionChange::Metric | SelectionChange::Thread | SelectionChange::TimeUnit
              | SelectionChange::Event | SelectionChange::Growth)
    , m_styleCombo(new QComboBox(this))
    , m_sourceCombo(new QComboBox(this))
    , m_orderCombo(new QComboBox(this))
    , m_colourCombo(new QComboBox(this))
    , m_recursion(new QCheckBox(tr("Merge recursion"), this))
    , m_shapeLabel(new QLabel(tr("Shape:"), this))
    , m_shapeCombo(new QComboBox(this))
    , m_thresholdLabel(new QLabel(tr("Hide |Δ%| <"), this))
    , m_thresholdSpin(new QDoubleSpinBox(this))
    , m_search(new QLineEdit(this))
    , m_matches(new QLabel(this))
    , m_reset(new QToolButton(this))
    , m_crumbs(new QLabel(this))
    , m_canvas(new FlameCanvas(this))
    , m_info(new QLabel(this))
{
    setWindowTitle(tr("Flame Graph"));
    m_styleCombo->addItem(tr("Flame"), static_cast<int>(Style::Flame));
    m_styleCombo->addItem(tr("Icicle"), static_cast<int>(Style::Icicle));
    m_styleCombo->setToolTip(tr("Flame: the root at the bottom, callees above. Icicle: the root at the top."));
    m_sourceCombo->addItem(statisticName(Statistic::MeanAll), static_cast<int>(Source::Mean));
    m_sourceCombo->addItem(statisticName(Statistic::Total), static_cast<int>(Source::Total));
    m_sourceCombo->addItem(statisticName(Statistic::Min), static_cast<int>(Source::Min));
    m_sourceCombo->addItem(statisticName(Statistic::Max), static_cast<int>(Source::Max));
    m_sourceCombo->addItem(tr("Selected thread"), static_cast<int>(Source::SelectedThread));
    m_sourceCombo->setToolTip(tr("Frame widths: the inclusive value of each call path for this statistic across "
                                 "threads, or on the thread selected in any window"));
    m_orderCombo->addItem(tr("By value"), static_cast<int>(FlameOrder::ByValue));
    m_orderCombo->addItem(tr("By name"), static_cast<int>(FlameOrder::ByName));
    m_orderCombo->setToolTip(tr("The order of sibling frames"));
    m_colourCombo->addItem(tr("Event"), static_cast<int>(Colouring::Event));
    m_colourCombo->addItem(tr("Group"), static_cast<int>(Colouring::Group));
    m_colourCombo->addItem(tr("Self heat"), static_cast<int>(Colouring::SelfHeat));
    m_colourCombo->addItem(tr("Imbalance"), static_cast<int>(Colouring::Imbalance));
    m_colourCombo->setToolTip(tr("Event: each routine's colour in every view. Group: MPI blue, OpenMP green, I/O "
                                 "orange, the rest grey. Self heat: the frame's own share of its value (dark red = "
                                 "all its own). Imbalance: max / mean across threads of the call path (dark red = "
                                 "2x and more)."));
    m_recursion->setToolTip(tr("Fold a routine that calls itself directly into one frame"));
    m_shapeCombo->addItem(tr("max(A, B)"), static_cast<int>(FlameWidth::Max));
    m_shapeCombo->addItem(tr("A"), static_cast<int>(FlameWidth::A));
    m_shapeCombo->addItem(tr("B"), static_cast<int>(FlameWidth::B));
    m_shapeCombo->setToolTip(tr("Frame widths: the larger of A and B, A's, or B's (\"B as the shape, Δ as the "
                                "colour\")"));
    m_thresholdSpin->setRange(0, 1000);
    m_thresholdSpin->setSuffix(QStringLiteral(" %"));
    m_thresholdSpin->setToolTip(tr("Changes smaller than this share of A's value are drawn neutral"));

    m_search->setPlaceholderText(tr("Search routines…"));
    m_search->setClearButtonEnabled(true);
    m_matches->setForegroundRole(QPalette::PlaceholderText);
    m_reset->setText(tr("Reset Zoom"));
    m_reset->setAutoRaise(true);
    m_reset->setEnabled(false);
    m_crumbs->setTextFormat(Qt::RichText);
    m_crumbs->setTextInteractionFlags(Qt::LinksAccessibleByMouse);
    m_info->setWordWrap(true);
    m_info->setForegroundRole(QPalette::PlaceholderText);

    // The controls wrap onto a second row in a narrow window (the comparison window is 900 pixels).
    auto* controls = new FlowLayout;
    auto labelled = [this](QLabel* label, QWidget* w) {
        auto* box = new QWidget(this);
        auto* h = new QHBoxLayout(box);
        h->setContentsMargins(0, 0, 0, 0);
        h->setSpacing(4);
        if (label)
            h->addWidget(label);
        h->addWidget(w);
        return box;
    };
    controls->addWidget(m_styleCombo);
    controls->addWidget(labelled(new QLabel(tr("Width:"), this), m_sourceCombo));
    controls->addWidget(labelled(new QLabel(tr("Order:"), this), m_orderCombo));
    controls->addWidget(labelled(new QLabel(tr("Colour:"), this), m_colourCombo));
    controls->addWidget(m_recursion);
    m_comparisonControls = labelled(m_shapeLabel, m_shapeCombo);
    m_thresholdBox = labelled(m_thresholdLabel, m_thresholdSpin);
    controls->addWidget(m_comparisonControls);
    controls->addWidget(m_thresholdBox);
    m_search->setMinimumWidth(180);
    controls->addWidget(labelled(nullptr, m_search));
    controls->addWidget(m_matches);
    controls->addWidget(m_reset);

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_canvas);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::StyledPanel);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(controls);
    layout->addWidget(m_crumbs);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_info);

    connect(m_styleCombo, &QComboBox::activated, this,
        [this] { setStyle(static_cast<Style>(m_styleCombo->currentData().toInt())); });
    connect(m_sourceCombo, &QComboBox::activated, this,
        [this] { setSource(static_cast<Source>(m_sourceCombo->currentData().toInt())); });
    connect(m_orderCombo, &QComboBox::activated, this,
        [this] { setOrder(static_cast<FlameOrder>(m_orderCombo->currentData().toInt())); });
    connect(m_colourCombo, &QComboBox::activated, this,
        [this] { setColouring(static_cast<Colouring>(m_colourCombo->currentData().toInt())); });
    connect(m_recursion, &QCheckBox::toggled, this, &FlameGraphWidget::setMergeRecursion);
    connect(m_search, &QLineEdit::textChanged, this, &FlameGraphWidget::search);
    connect(m_shapeCombo, &QComboBox::activated, this,
        [this] { setDiffWidth(static_cast<FlameWidth>(m_shapeCombo->currentData().toInt())); });
    connect(m_thresholdSpin, &QDoubleSpinBox::valueChanged, this, &FlameGraphWidget::setChangeThreshold);
    connect(m_reset, &QToolButton::clicked, this, [this] { zoomTo(-1); });
    connect(m_crumbs, &QLabel::linkActivated, this, [this](const QString& link) { zoomTo(link.toInt()); });
    m_comparisonControls->setVisible(false);
    m_thresholdBox->setVisible(false);
    scheduleUpdate(SelectionChange::Trial);
}

FlameGraphWidget::~FlameGraphWidget() { m_job.cancelAndWait(); }

QWidget* FlameGraphWidget::canvas() const { return m_canvas; }

QString FlameGraphWidget::message() const { return m_message; }

void FlameGraphWidget::setComparison(TrialPtr b, const EventMatching& matching)
{
    m_compareB = std::move(b);
    m_matching = matching;
    const bool on = m_compareB != nullptr;
    m_comparisonControls->setVisible(on && m_shapeChoice);
    m_thresholdBox->setVisible(on);
    const int change = m_colourCombo->findData(static_cast<int>(Colouring::Change));
    if (on && change < 0)
        m_colourCombo->addItem(tr("Change (Δ)"), static_cast<int>(Colouring::Change));
    else if (!on && change >= 0)
        m_colourCombo->removeItem(change);
    setColouring(on ? Colouring::Change : Colouring::Event);
    m_zoom = -1;
    rebuild();
}

void FlameGraphWidget::setDiffWidth(FlameWidth width)
{
    if (width == m_diffWidth)
        return;
    m_diffWidth = width;
    m_shapeCombo->setCurrentIndex(m_shapeCombo->findData(static_cast<int>(width)));
    if (m_compareB)
        rebuild();
}

void FlameGraphWidget::setChangeScale(ChangeScale scale, bool higherIsBetter)
{
    m_changeScale = scale;
    m_higherIsBetter = higherIsBetter;
    m_canvas->update();
}

void FlameGraphWidget::setShapeChoiceVisible(bool visible)
{
    m_shapeChoice = visible;
    m_comparisonControls->setVisible(visible && m_compareB);
}

void FlameGraphWidget::setChangeThreshold(double percent)
{
    m_threshold = std::max(0.0, percent);
    if (std::abs(m_thresholdSpin->value() - m_threshold) > 1e-12)
        m_thresholdSpin->setValue(m_threshold);
    m_canvas->update();
}

void FlameGraphWidget::showTree(std::shared_ptr<const FlameTree> tree)
{
    if (!tree) {
        m_job.cancel();
        m_fixed = false;
        m_customColours.clear();
        m_customNotes.clear();
        m_sourceCombo->setEnabled(true);
        m_recursion->setEnabled(true);
        rebuild();
        return;
    }
    Computed c;
    c.tree = std::move(tree);
    showFixed(std::move(c));
}

void FlameGraphWidget::showDiffTree(std::shared_ptr<const DiffFlameTree> diff)
{
    if (!diff) {
        showTree(nullptr);
        return;
    }
    Computed c;
    c.diff = std::move(diff);
    c.tree = std::shared_ptr<const FlameTree>(c.diff, &c.diff->tree());
    c.maxDelta = maxAbsDelta(*c.diff);
    showFixed(std::move(c));
    setColouring(Colouring::Change);
}

void FlameGraphWidget::showFixed(Computed c)
{
    m_job.cancel();
    m_fixed = true;
    m_sourceCombo->setEnabled(false);
    m_recursion->setEnabled(false);
    const bool diff = c.diff != nullptr;
    const int change = m_colourCombo->findData(static_cast<int>(Colouring::Change));
    if (diff && change < 0)
        m_colourCombo->addItem(tr("Change (Δ)"), static_cast<int>(Colouring::Change));
    colourNodes(selection()->trial(), c);
    c.imbalance.assign(c.tree->nodes().size(), std::nan(""));
    m_computed = std::move(c);
    m_tree = m_computed.tree;
    m_growthRows.assign(m_tree->nodes().size(), -2);
    m_message.clear();
    m_zoom = -1;
    relayout();
    search(m_searchText);
    Q_EMIT shown();
}

void FlameGraphWidget::colourNodes(const TrialPtr& trial, Computed& c)
{
    const auto& nodes = c.tree->nodes();
    c.eventColours.resize(nodes.size());
    c.groupColours.resize(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const EventId flat = trial ? trial->findEvent(nodes[i].name) : EventId();
        c.eventColours[i] = flat.isValid() ? eventColor(*trial, flat) : eventColor(nodes[i].name);
        c.groupColours[i]
            = groupColour(flat.isValid() ? trial->groupNames(trial->event(flat)) : QStringList(), nodes[i].name);
    }
}

void FlameGraphWidget::setNodeColours(std::vector<QColor> colours, std::vector<QString> notes, const QString& name)
{
    m_customColours = std::move(colours);
    m_customNotes = std::move(notes);
    const int index = m_colourCombo->findData(static_cast<int>(Colouring::Custom));
    if (index < 0)
        m_colourCombo->addItem(name, static_cast<int>(Colouring::Custom));
    else
        m_colourCombo->setItemText(index, name);
    setColouring(Colouring::Custom);
}

const CallPathModel* FlameGraphWidget::growthRow(int node) const
{
    const GrowthOverlay* growth = selection()->growth().get();
    if (!growth || !m_tree)
        return nullptr;
    return growth->cachedFind(m_growthRows, node, [&] { return m_tree->path(node).join(QStringLiteral(" => ")); });
}

void FlameGraphWidget::followGrowth()
{
    std::fill(m_growthRows.begin(), m_growthRows.end(), -2);
    const bool on = selection()->growth() != nullptr;
    const int index = m_colourCombo->findData(static_cast<int>(Colouring::Growth));
    if (on && index < 0) {
        m_colourCombo->addItem(tr("Growth at P"), static_cast<int>(Colouring::Growth));
        // Wide enough for the new entry (the flow layout sized the box for the first ones).
        m_colourCombo->setMinimumWidth(m_colourCombo->sizeHint().width());
    } else if (!on && index >= 0)
        m_colourCombo->removeItem(index);
    // Attaching models asks to see them; clearing them goes back to the event colours.
    if (on)
        setColouring(Colouring::Growth);
    else if (m_colouring == Colouring::Growth)
        setColouring(Colouring::Event);
    updateInfo();
}

void FlameGraphWidget::showFrameMenu(int frame, const QPoint& globalPos)
{
    const FlameFrame f = m_layout.frames[at(frame)];
    if (f.sliver || f.node < 0 || !m_tree)
        return;
    const QString routine = m_tree->node(f.node).name;
    QMenu menu(this);
    menu.addAction(tr("Zoom Here"), this, [this, node = f.node] { zoomTo(node); });
    menu.addAction(tr("Reset Zoom"), this, [this] { zoomTo(-1); })->setEnabled(m_zoom >= 0);
    if (m_fixed) { // the sandwich is of a trial's whole tree
        menu.exec(globalPos);
        return;
    }
    menu.addSeparator();
    addShowSourceAction(&menu, selection(), m_tree->node(f.node).event);
    menu.addAction(tr("Sandwich of %1").arg(routine.size() > 60 ? routine.left(57) + QStringLiteral("…") : routine),
        this, [this, routine] { Q_EMIT sandwichRequested(routine); });
    menu.exec(globalPos);
}

void FlameGraphWidget::setStyle(Style style)
{
    m_style = style;
    m_styleCombo->setCurrentIndex(m_styleCombo->findData(static_cast<int>(style)));
    m_canvas->update();
}

void FlameGraphWidget::setColouring(Colouring colouring)
{
    m_colouring = colouring;
    m_colourCombo->setCurrentIndex(m_colourCombo->findData(static_cast<int>(colouring)));
    updateInfo(); // the growth legend
    m_canvas->update();
}

void FlameGraphWidget::setSource(Source source)
{
    if (source == m_source)
        return;
    m_source = source;
    m_sourceCombo->setCurrentIndex(m_sourceCombo->findData(static_cast<int>(source)));
    rebuild();
}

void FlameGraphWidget::setOrder(FlameOrder order)
{
    m_order = order;
    m_orderCombo->setCurrentIndex(m_orderCombo->findData(static_cast<int>(order)));
    relayout();
}

void FlameGraphWidget::setMergeRecursion(bool merge)
{
    if (merge == m_mergeRecursion)
        return;
    m_mergeRecursion = merge;
    m_recursion->setChecked(merge);
    rebuild();
}

void FlameGraphWidget::doUpdate(SelectionChanges changes)
{
    if (changes & SelectionChange::Growth)
        followGrowth();
    if (changes & (SelectionChange::Trial | SelectionChange::Metric)
        || ((changes & SelectionChange::Thread) && m_source == Source::SelectedThread))
        rebuild();
    else if (changes & SelectionChange::Event)
        followSelectedEvent();
    else
        m_canvas->update();
}

void FlameGraphWidget::rebuild()
{
    if (m_fixed)
        return;
    const TrialPtr trial = selection()->trial();
    m_job.cancel();
    if (!trial || trial->metricCount() == 0) {
        m_tree.reset();
        m_layout = {};
        m_message = tr("No trial is open.");
        updateInfo();
        m_canvas->update();
        return;
    }
    FlameSource source;
    switch (m_source) {
    case Source::Mean:
        source.statistic = Statistic::MeanAll;
        break;
    case Source::Total:
        source.statistic = Statistic::Total;
        break;
    case Source::Min:
        source.statistic = Statistic::Min;
        break;
    case Source::Max:
        source.statistic = Statistic::Max;
        break;
    case Source::SelectedThread:
        source.thread = selection()->thread();
        break;
    }
    const MetricId metric = selection()->metric().isValid() ? selection()->metric() : MetricId(std::size_t(0));
    const bool merge = m_mergeRecursion;
    if (trial != m_trialOfTree) {
        // A newer state of the same run (live monitoring) zooms into the same call path again.
        m_keptZoom
            = selection()->trialContinuesPrevious() && m_tree && m_zoom >= 0 ? m_tree->path(m_zoom) : QStringList();
        m_zoom = -1;
    }
    m_trialOfTree = trial;
    m_job.start(
        [trial, metric, source, merge, b = m_compareB, matching = m_matching, width = m_diffWidth](
            const std::atomic_bool& cancel) {
            Computed c;
            if (b) {
                c.diff = std::make_shared<const DiffFlameTree>(
                    DiffFlameTree::of(*trial, *b, metric, source, matching, width));
                c.tree = std::shared_ptr<const FlameTree>(c.diff, &c.diff->tree());
                c.maxDelta = maxAbsDelta(*c.diff);
            } else {
                c.tree = std::make_shared<const FlameTree>(FlameTree::of(*trial, metric, source, merge));
            }
            colourNodes(trial, c);
            const auto& nodes = c.tree->nodes();
            const auto stats = TrialStatistics::of(*trial);
            c.imbalance.assign(nodes.size(), std::nan(""));
            for (std::size_t i = 0; i < nodes.size() && !cancel; ++i) {
                const FlameTree::Node& n = nodes[i];
                if (n.event.isValid()) {
                    const auto max
                        = statisticValue(*trial, *stats, n.event, metric, ValueType::Inclusive, Statistic::Max);
                    const auto mean
                        = statisticValue(*trial, *stats, n.event, metric, ValueType::Inclusive, Statistic::MeanAll);
                    if (max && mean && *mean > 0)
                        c.imbalance[i] = *max / *mean;
                }
            }
            return c;
        },
        [this](Computed c) {
            m_computed = std::move(c);
            m_tree = m_computed.tree;
            m_growthRows.assign(m_tree->nodes().size(), -2);
            m_message = m_tree->hasCallPaths()
                ? QString()
                : tr("The trial \"%1\" has no call paths (\"a => b\"): the flame graph shows each routine as a root "
                     "of its own. TAU records call paths with TAU_CALLPATH=1.")
                      .arg(selection()->trial()->name());
            if (m_zoom >= static_cast<int>(m_tree->nodes().size()))
                m_zoom = -1;
            for (int i = 0; !m_keptZoom.isEmpty() && i < static_cast<int>(m_tree->nodes().size()); ++i)
                if (m_tree->nodes()[static_cast<std::size_t>(i)].name == m_keptZoom.back()
                    && m_tree->path(i) == m_keptZoom)
                    m_zoom = i;
            if (!m_keptZoom.isEmpty())
                Q_EMIT zoomChanged(m_zoom);
            m_keptZoom.clear();
            relayout();
            followSelectedEvent();
            search(m_searchText);
            Q_EMIT shown();
        });
}

void FlameGraphWidget::finishComputing() { m_job.waitAndDeliver(); }

void FlameGraphWidget::relayout()
{
    if (!m_tree) {
        m_layout = {};
        m_canvas->update();
        return;
    }
    FlameLayoutOptions o;
    o.order = m_order;
    o.zoom = m_zoom;
    m_layoutPixels = std::max(1, m_canvas->width());
    const double whole = m_zoom >= 0 ? m_tree->node(m_zoom).inclusive : m_tree->total();
    o.minWidth = whole > 0 ? whole / m_layoutPixels : 0;
    m_layout = layoutFlame(*m_tree, o);
    m_canvas->setMinimumHeight(m_layout.depth * frameHeight + 2);
    m_reset->setEnabled(m_zoom >= 0);
    updateBreadcrumbs();
    updateInfo();
    m_canvas->update();
}

void FlameGraphWidget::zoomTo(int node)
{
    if (!m_tree || node >= static_cast<int>(m_tree->nodes().size()))
        return;
    const bool changed = node != m_zoom;
    m_zoom = node;
    relayout();
    search(m_searchText);
    if (changed)
        Q_EMIT zoomChanged(node);
}

void FlameGraphWidget::search(const QString& text)
{
    m_searchText = text;
    m_match.clear();
    m_found = {};
    if (m_tree && !text.trimmed().isEmpty()) {
        m_found = searchFlame(*m_tree, text.trimmed(), m_zoom);
        m_match.assign(m_tree->nodes().size(), 0);
        for (int n : m_found.nodes)
            m_match[at(n)] = 1;
        m_matches->setText(tr("%n match(es), %1 % of the shown time", nullptr, static_cast<int>(m_found.nodes.size()))
                               .arg(QLocale().toString(100.0 * m_found.share, 'f', 1)));
    } else {
        m_matches->clear();
    }
    m_canvas->update();
}

void FlameGraphWidget::followSelectedEvent()
{
    m_selected.clear();
    const TrialPtr trial = selection()->trial();
    if (!m_tree || !trial || !selection()->event().isValid()) {
        m_canvas->update();
        return;
    }
    // A call path's frame, or every frame of a routine (its flat event).
    const EventId e = selection()->event();
    const QString name = trial->event(e).name;
    m_selected.assign(m_tree->nodes().size(), 0);
    for (std::size_t i = 0; i < m_tree->nodes().size(); ++i) {
        const FlameTree::Node& n = m_tree->nodes()[i];
        if (n.event == e || n.name == name)
            m_selected[i] = 1;
    }
    m_canvas->update();
}

void FlameGraphWidget::onFrameClicked(int frame)
{
    if (frame < 0 || !m_tree)
        return;
    const FlameFrame f = m_layout.frames[at(frame)]; // a copy: zooming lays out anew
    if (f.sliver || f.node < 0)
        return;
    if (f.breadcrumb || f.node == m_zoom) {
        // An ancestor of the zoomed frame: back to it (the zoomed frame itself: one level up).
        zoomTo(f.node == m_zoom ? m_tree->node(f.node).parent : f.node);
    } else {
        zoomTo(f.node);
    }
    const EventId e = m_tree->node(f.node).event;
    if (e.isValid())
        selection()->selectEvent(e);
    Q_EMIT frameActivated(f.node);
}

void FlameGraphWidget::updateBreadcrumbs()
{
    if (!m_tree || m_zoom < 0) {
        m_crumbs->setText(tr("Whole tree — click a frame to zoom into it"));
        return;
    }
    QStringList parts;
    for (int n = m_zoom; n >= 0; n = m_tree->node(n).parent)
        parts.prepend(QStringLiteral("<a href=\"%1\">%2</a>").arg(n).arg(m_tree->node(n).name.toHtmlEscaped()));
    parts.prepend(QStringLiteral("<a href=\"-1\">%1</a>").arg(tr("All")));
    m_crumbs->setText(parts.join(QStringLiteral(" › ")));
}

void FlameGraphWidget::updateInfo()
{
    if (!m_message.isEmpty() && !m_tree) {
        m_info->setText(m_message);
        return;
    }
    if (!m_tree)
        return;
    const TrialPtr trial = selection()->trial();
    int slivers = 0;
    int merged = 0;
    for (const FlameFrame& f : m_layout.frames)
        if (f.sliver) {
            ++slivers;
            merged += f.merged;
        }
    const MetricId m = selection()->metric().isValid() ? selection()->metric() : MetricId(std::size_t(0));
    QString text = tr("%1 call paths, %2 levels; the whole: %3 %4 of %5 (%6).")
                       .arg(QLocale().toString(static_cast<qulonglong>(m_tree->nodes().size())))
                       .arg(m_layout.depth)
                       .arg(formatMetricValue(m_tree->total(), trial->metric(m), selection()->timeUnit()),
                           unitLabel(trial->metric(m), selection()->timeUnit()), trial->metric(m).name,
                           m_sourceCombo->currentText().toLower());
    if (slivers > 0)
        text += QLatin1Char(' ')
            + tr("%1 frames narrower than a pixel are drawn as %2 grey slivers.").arg(merged).arg(slivers);
    if (m_tree->isTruncated())
        text += QLatin1Char(' ')
            + tr("The call paths were cut at TAU_CALLPATH_DEPTH: roots may be the ends of longer paths, so the "
                 "whole counts some time more than once.");
    if (!m_message.isEmpty())
        text = m_message + QLatin1Char(' ') + text;
    if (const GrowthOverlay* growth = selection()->growth().get(); growth && m_colouring == Colouring::Growth) {
        m_info->setText(text.toHtmlEscaped() + QStringLiteral("<br>")
            + tr("<b>Colour: %1</b>: %2 grey: no model of the call path. The frames keep their measured widths.")
                  .arg(growth->description(ScalingValue::Inclusive).toHtmlEscaped(), GrowthOverlay::legendHtml()));
        return;
    }
    m_info->setText(text);
}

QRectF FlameGraphWidget::frameRect(int frame) const
{
    if (frame < 0 || at(frame) >= m_layout.frames.size() || m_layout.width <= 0)
        return {};
    const FlameFrame& f = m_layout.frames[at(frame)];
    const QRectF area = m_canvas->area();
    const double scale = area.width() / m_layout.width;
    const double y = m_style == Style::Icicle ? area.top() + f.depth * frameHeight
                                              : area.bottom() + 1 - (f.depth + 1) * frameHeight;
    return { area.left() + f.x * scale, y, f.width * scale, frameHeight - 1.0 };
}

int FlameGraphWidget::frameAt(const QPoint& pos) const
{
    // Frames are few per level: scan the level under the point.
    for (std::size_t i = 0; i < m_layout.frames.size(); ++i)
        if (frameRect(static_cast<int>(i)).contains(QPointF(pos)))
            return static_cast<int>(i);
    return -1;
}

QColor FlameGraphWidget::frameColour(int frame) const
{
    const FlameFrame& f = m_layout.frames[at(frame)];
    if (f.sliver || f.node < 0 || !m_tree)
        return { 0xb8, 0xb8, 0xb8 };
    const FlameTree::Node& n = m_tree->node(f.node);
    QColor c;
    switch (m_colouring) {
    case Colouring::Event:
        c = at(f.node) < m_computed.eventColours.size() ? m_computed.eventColours[at(f.node)] : QColor(Qt::gray);
        break;
    case Colouring::Group:
        c = at(f.node) < m_computed.groupColours.size() ? m_computed.groupColours[at(f.node)] : QColor(Qt::gray);
        break;
    case Colouring::SelfHeat:
        c = sequentialColor(n.inclusive > 0 ? std::clamp(n.self / n.inclusive, 0.0, 1.0) : 0.0);
        break;
    case Colouring::Change: {
        const DiffFlameTree* d = m_computed.diff.get();
        if (!d) {
            c = QColor(0xd0, 0xd0, 0xd0);
            break;
        }
        const double delta = d->delta(f.node);
        const double pct = d->deltaPercent(f.node);
        const bool small = !std::isnan(pct) && std::abs(pct) < m_threshold;
        // How much better B is, in [-1, 1]: Δ > 0 of a lower-is-better metric is an improvement,
        // blue (the comparison window's diverging map); regressions are red.
        double better = 0;
        if (m_changeScale == ChangeScale::Percent)
            better = std::isnan(pct) ? (delta > 0 ? 1.0 : delta < 0 ? -1.0 : 0.0) : std::clamp(pct / 100.0, -1.0, 1.0);
        else if (m_computed.maxDelta > 0)
            better = std::clamp(delta / m_computed.maxDelta, -1.0, 1.0);
        if (m_higherIsBetter)
            better = -better;
        c = small || better == 0 ? QColor(0xee, 0xee, 0xee) : divergingColor(-better);
        break;
    }
    case Colouring::Custom:
        c = at(f.node) < m_customColours.size() ? m_customColours[at(f.node)] : QColor(0xd0, 0xd0, 0xd0);
        break;
    case Colouring::Growth: {
        // The frame is inclusive: its call path's inclusive growth.
        const CallPathModel* row = growthRow(f.node);
        c = ScalingModels::growthColour(row ? row->inclusive.growth : std::nan(""));
        break;
    }
    case Colouring::Imbalance: {
        const double r = at(f.node) < m_computed.imbalance.size() ? m_computed.imbalance[at(f.node)] : std::nan("");
        c = std::isnan(r) ? QColor(0xd0, 0xd0, 0xd0) : sequentialColor(std::clamp(r - 1.0, 0.0, 1.0));
        break;
    }
    }
    if (f.breadcrumb)
        c = faded(c, 0.45);
    if (!m_match.empty() && !m_match[at(f.node)])
        c = faded(c, 0.3);
    return c;
}

void FlameGraphWidget::paintFrames(QPainter& painter, const QRectF& area) const
{
    if (m_layout.frames.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(
            area, Qt::AlignCenter | Qt::TextWordWrap, m_message.isEmpty() ? tr("Computing the call tree…") : m_message);
        return;
    }
    Q_UNUSED(area);
    QFont font = painter.font();
    font.setPixelSize(11);
    painter.setFont(font);
    const QFontMetricsF fm(font);
    const QColor highlight = palette().color(QPalette::Highlight);
    const QColor matchColour(0xd0, 0x36, 0xc8);
    for (std::size_t i = 0; i < m_layout.frames.size(); ++i) {
        const FlameFrame& f = m_layout.frames[i];
        const QRectF r = frameRect(static_cast<int>(i));
        if (r.width() < 0.25)
            continue;
        const QColor fill = frameColour(static_cast<int>(i));
        const bool match = !m_match.empty() && f.node >= 0 && m_match[at(f.node)];
        painter.fillRect(r, match ? matchColour : fill);
        const DiffFlameTree* d = m_computed.diff.get();
        const bool onlyA = d && f.node >= 0 && d->onlyInA(f.node);
        const bool onlyB = d && f.node >= 0 && d->onlyInB(f.node);
        if (onlyA || onlyB) // one run only: hatched
            painter.fillRect(r, QBrush(QColor(0, 0, 0, 90), onlyA ? Qt::BDiagPattern : Qt::FDiagPattern));
        const bool selected = f.node >= 0 && !m_selected.empty() && m_selected[at(f.node)];
        if (selected) {
            painter.setPen(QPen(highlight, 2.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(r.adjusted(1, 1, -1, -1));
        }
        if (r.width() >= labelMinWidth && !f.sliver && f.node >= 0) {
            painter.setPen(textOn(match ? matchColour : fill));
            const QString prefix = onlyA ? QStringLiteral("◀ ") : onlyB ? QStringLiteral("▶ ") : QString();
            const QString label = fm.elidedText(prefix + m_tree->node(f.node).name, Qt::ElideRight, r.width() - 6);
            if (label.size() > 1)
                painter.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, label);
        }
    }
}

QString FlameGraphWidget::frameTip(int frame) const
{
    const FlameFrame& f = m_layout.frames[at(frame)];
    const TrialPtr trial = selection()->trial();
    if (!trial || !m_tree)
        return {};
    const MetricId m = selection()->metric().isValid() ? selection()->metric() : MetricId(std::size_t(0));
    auto value = [&](double v) { return formatMetricValue(v, trial->metric(m), selection()->timeUnit()); };
    auto percent = [](double part, double whole) {
        return whole > 0 ? QLocale().toString(100.0 * part / whole, 'f', 1) + QStringLiteral(" %")
                         : QStringLiteral("—");
    };
    if (f.sliver)
        return tr("%1 frames narrower than a pixel\n%2 together").arg(f.merged).arg(value(f.width));
    const FlameTree::Node& n = m_tree->node(f.node);
    const double whole = m_tree->total();
    const double parent = n.parent >= 0 ? m_tree->node(n.parent).inclusive : whole;
    QString tip = m_tree->path(f.node).join(QStringLiteral(" => "));
    tip += QLatin1Char('\n')
        + tr("Inclusive: %1 (%2 of the whole, %3 of its caller)")
              .arg(value(n.inclusive), percent(n.inclusive, whole), percent(n.inclusive, parent));
    tip += QLatin1Char('\n') + tr("Own: %1 (%2 of its inclusive)").arg(value(n.self), percent(n.self, n.inclusive));
    if (const DiffFlameTree* d = m_computed.diff.get()) {
        const double pct = d->deltaPercent(f.node);
        tip += QLatin1Char('\n')
            + tr("A: %1   B: %2   Δ = A − B: %3 (%4)")
                  .arg(d->a(f.node).present ? value(d->a(f.node).inclusive) : tr("—"),
                      d->b(f.node).present ? value(d->b(f.node).inclusive) : tr("—"), value(d->delta(f.node)),
                      std::isnan(pct) ? tr("—") : formatPercentChange(pct));
        if (d->onlyInA(f.node))
            tip += QLatin1Char('\n') + tr("◀ ran only in A");
        if (d->onlyInB(f.node))
            tip += QLatin1Char('\n') + tr("▶ ran only in B");
    }
    if (at(f.node) < m_computed.imbalance.size() && !std::isnan(m_computed.imbalance[at(f.node)]))
        tip += QLatin1Char('\n')
            + tr("Imbalance (max / mean across threads): %1")
                  .arg(QLocale().toString(m_computed.imbalance[at(f.node)], 'f', 2));
    if (const GrowthOverlay* growth = selection()->growth().get()) {
        const CallPathModel* row = growthRow(f.node);
        tip += QLatin1Char('\n')
            + (row ? growth->explain(*row, ScalingValue::Inclusive, *trial, selection()->timeUnit())
                   : tr("No growth model of this call path (%1)").arg(growth->description(ScalingValue::Inclusive)));
    }
    if (at(f.node) < m_customNotes.size() && !m_customNotes[at(f.node)].isEmpty())
        tip += QLatin1Char('\n') + m_customNotes[at(f.node)];
    if (f.childrenScaled)
        tip += QLatin1Char('\n')
            + tr("Its callees add up to more than it (%1): drawn scaled to fit.").arg(m_sourceCombo->currentText());
    return tip;
}

QString FlameGraphWidget::exportImage(const QString& fileName, const QSize& size) const
{
    auto* self = const_cast<FlameGraphWidget*>(this);
    if (size.isValid()) {
        self->resize(size);
        if (QLayout* l = self->QWidget::layout())
            l->activate();
    }
    return exportWidget(self, fileName);
}

} // namespace parallax
