// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/cube/cubebrowser.h"

#include "algebra/calltree.h"
#include "algebra/cut.h"
#include "algebra/units.h"
#include "views/charts/colors.h"
#include "views/common/flowlayout.h"
#include "views/comparison/growthoverlay.h"
#include "views/cube/boxplotdelegate.h"
#include "views/cube/distributionpanel.h"
#include "views/cube/topologyview.h"
#include "views/selectionstate.h"
#include "views/source/showsource.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace parallax {

namespace {

constexpr std::array<CubePane, 3> Panes { CubePane::Metric, CubePane::Call, CubePane::System };

/// The six pane orders, as the order combo lists them.
const std::array<std::array<CubePane, 3>, 6> Orders { {
    { CubePane::Metric, CubePane::Call, CubePane::System },
    { CubePane::Metric, CubePane::System, CubePane::Call },
    { CubePane::Call, CubePane::Metric, CubePane::System },
    { CubePane::Call, CubePane::System, CubePane::Metric },
    { CubePane::System, CubePane::Metric, CubePane::Call },
    { CubePane::System, CubePane::Call, CubePane::Metric },
} };

QString paneTitle(CubePane p)
{
    switch (p) {
    case CubePane::Metric:
        return CubeBrowser::tr("Metric tree");
    case CubePane::Call:
        return CubeBrowser::tr("Call tree");
    case CubePane::System:
        return CubeBrowser::tr("System tree");
    }
    return {};
}

/// Call items whose rows are shown (roots and the children of expanded items), at most `limit`.
std::vector<int> shownItems(const CubeSpace& space, CubePane pane, const CubePaneState& state, std::size_t limit)
{
    std::vector<int> out;
    std::vector<int> stack(space.roots(pane).rbegin(), space.roots(pane).rend());
    while (!stack.empty() && out.size() < limit) {
        const int i = stack.back();
        stack.pop_back();
        out.push_back(i);
        if (state.isExpanded(i)) {
            const auto& c = space.item(pane, i).children;
            stack.insert(stack.end(), c.rbegin(), c.rend());
        }
    }
    return out;
}

constexpr std::size_t MaxBoxes = 2000;

} // namespace

CubeBrowser::CubeBrowser(SelectionState* state, QWidget* parent)
    : QWidget(parent)
    , SelectionView(this, state,
          SelectionChange::Trial | SelectionChange::Event | SelectionChange::Thread | SelectionChange::ThreadSet
              | SelectionChange::TimeUnit | SelectionChange::Growth)
{
    auto* layout = new QVBoxLayout(this);
    auto* bar = new FlowLayout;
    m_order = new QComboBox;
    for (const auto& order : Orders) {
        QStringList names;
        for (CubePane p : order)
            names << paneTitle(p).section(QLatin1Char(' '), 0, 0);
        m_order->addItem(names.join(QStringLiteral(" | ")));
    }
    m_order->setToolTip(tr("The order of the panes: each pane sums over the selections of the panes to its left and "
                           "over everything in the panes to its right"));
    m_flat = new QCheckBox(tr("Flat region list"));
    m_flat->setToolTip(tr("Show the regions (flat events) instead of the call tree"));
    m_scale = new QComboBox;
    m_scale->addItems({ tr("Linear"), tr("Quadratic"), tr("Exponential") });
    m_scale->setToolTip(tr("How a value's share of its mode's reference becomes a colour"));
    m_hide = new QDoubleSpinBox;
    m_hide->setRange(0, 100);
    m_hide->setDecimals(1);
    m_hide->setSuffix(QStringLiteral(" %"));
    m_hide->setSpecialValueText(tr("off"));
    m_hide->setToolTip(tr("Hide items whose share is below this; their values stay in their parent's, so what is "
                          "shown still adds up"));
    m_find = new QLineEdit;
    m_find->setPlaceholderText(tr("Find in the trees…"));
    m_find->setClearButtonEnabled(true);
    m_legend = new QLabel;
    m_external = new QComboBox;
    m_external->setToolTip(tr("The trial the External % mode refers to: each value as a percentage of that trial's "
                              "total of the same metric"));
    m_external->addItem(tr("none"));
    auto labelled = [](const QString& text, QWidget* w) {
        auto* box = new QWidget;
        auto* h = new QHBoxLayout(box);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(new QLabel(text));
        h->addWidget(w);
        return box;
    };
    bar->addWidget(labelled(tr("Panes:"), m_order));
    bar->addWidget(m_flat);
    bar->addWidget(labelled(tr("Colour scale:"), m_scale));
    bar->addWidget(labelled(tr("Hide below:"), m_hide));
    bar->addWidget(labelled(tr("External:"), m_external));
    bar->addWidget(m_find);
    bar->addWidget(m_legend);
    layout->addLayout(bar);
    m_growthLegend = new QLabel;
    m_growthLegend->setTextFormat(Qt::RichText);
    m_growthLegend->setWordWrap(true);
    m_growthLegend->setVisible(false);
    layout->addWidget(m_growthLegend);

    m_splitter = new QSplitter(Qt::Horizontal);
    for (CubePane p : Panes) {
        m_panes[CubeSpace::index(p)] = makePane(p);
        m_splitter->addWidget(m_panes[CubeSpace::index(p)].box);
    }
    // The call tree's names and box plots need the most room.
    m_splitter->setSizes({ 300, 560, 380 });
    // Below the panes: the selection's values across the locations.
    m_locationTabs = new QTabWidget;
    m_topology = new TopologyView;
    m_distribution = new DistributionPanel;
    m_locationTabs->addTab(m_topology, tr("Topology"));
    m_locationTabs->addTab(m_distribution, tr("Distribution"));
    auto* vertical = new QSplitter(Qt::Vertical);
    vertical->addWidget(m_splitter);
    vertical->addWidget(m_locationTabs);
    vertical->setSizes({ 600, 300 });
    layout->addWidget(vertical, 1);
    connect(this, &CubeBrowser::valuesShown, this, &CubeBrowser::showLocations);
    connect(m_topology, &TopologyView::threadClicked, this, [this](ThreadIndex t) {
        if (m_space)
            selectItem(CubePane::System, m_space->itemOfThread(t));
    });
    m_info = new QLabel;
    m_info->setWordWrap(true);
    m_info->setOpenExternalLinks(true);
    m_info->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_status = new QLabel;
    layout->addWidget(m_info);
    layout->addWidget(m_status);

    connect(m_order, &QComboBox::currentIndexChanged, this,
        [this](int i) { setOrder(Orders[static_cast<std::size_t>(std::clamp(i, 0, 5))]); });
    connect(m_flat, &QCheckBox::toggled, this, [this](bool on) { setFlat(on); });
    connect(m_scale, &QComboBox::currentIndexChanged, this, [this](int i) {
        for (auto& pane : m_panes)
            pane.model->setScale(static_cast<CubePaneModel::Scale>(i));
        updateLegend();
    });
    connect(m_hide, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        for (auto& pane : m_panes)
            pane.model->setHideBelow(v);
    });
    connect(m_find, &QLineEdit::returnPressed, this, [this] { find(m_find->text()); });
    connect(m_external, &QComboBox::activated, this, [this](int i) {
        setExternalTrial(i > 0 && static_cast<std::size_t>(i - 1) < m_externalTrials.size()
                ? m_externalTrials[static_cast<std::size_t>(i - 1)]
                : nullptr);
    });
    updateLegend();
    scheduleUpdate(SelectionChange::Trial);
}

CubeBrowser::~CubeBrowser()
{
    m_spaceJob.cancelAndWait();
    m_valuesJob.cancelAndWait();
    m_boxesJob.cancelAndWait();
    m_externalJob.cancelAndWait();
    m_operationJob.cancelAndWait();
}

void CubeBrowser::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refreshExternalTrials(); // trials opened since
}

void CubeBrowser::setTrialSource(std::function<std::vector<TrialPtr>()> source)
{
    m_trialSource = std::move(source);
    refreshExternalTrials();
}

void CubeBrowser::refreshExternalTrials()
{
    m_externalTrials.clear();
    if (m_trialSource)
        for (const TrialPtr& t : m_trialSource())
            if (t && t != selection()->trial())
                m_externalTrials.push_back(t);
    const QSignalBlocker block(m_external);
    m_external->clear();
    m_external->addItem(tr("none"));
    int current = 0;
    for (std::size_t i = 0; i < m_externalTrials.size(); ++i) {
        m_external->addItem(m_externalTrials[i]->name());
        if (m_externalTrials[i] == m_externalTrial)
            current = static_cast<int>(i) + 1;
    }
    m_external->setCurrentIndex(current);
    if (current == 0 && m_externalTrial)
        setExternalTrial(nullptr);
}

void CubeBrowser::setExternalTrial(TrialPtr trial)
{
    m_externalTrial = std::move(trial);
    computeExternalRoot();
}

void CubeBrowser::computeExternalRoot()
{
    // V_ext: the external trial's total of the selected metric's tree root, by name (docs/SEMANTICS.md §6).
    m_externalRoot = std::numeric_limits<double>::quiet_NaN();
    const auto& sel = m_state.pane(CubePane::Metric).selected;
    if (!m_externalTrial || !m_space || sel.empty()) {
        m_externalJob.cancel();
        if (m_values)
            for (CubePane p : Panes)
                model(p)->setValues(m_values, m_valuesState, m_externalRoot);
        return;
    }
    const int root = m_space->item(CubePane::Metric, m_space->rootOf(CubePane::Metric, sel.front())).ref;
    const QString name = root < 0 ? QString() : m_space->trial().metrics()[static_cast<std::size_t>(root)].name;
    m_externalJob.start(
        [ext = m_externalTrial, name](const std::atomic_bool&) { return CubeSpace(ext).metricRootTotal(name); },
        [this](double v) {
            m_externalRoot = v;
            if (m_values)
                for (CubePane p : Panes)
                    model(p)->setValues(m_values, m_valuesState, m_externalRoot);
        });
}

CubeBrowser::Pane CubeBrowser::makePane(CubePane p)
{
    Pane pane;
    pane.box = new QWidget;
    auto* v = new QVBoxLayout(pane.box);
    v->setContentsMargins(0, 0, 0, 0);
    auto* head = new QHBoxLayout;
    pane.title = new QLabel(QStringLiteral("<b>%1</b>").arg(paneTitle(p)));
    pane.mode = new QComboBox;
    for (int m = 0; m <= static_cast<int>(CubeMode::External); ++m) {
        const auto mode = static_cast<CubeMode>(m);
        if ((mode == CubeMode::Peer || mode == CubeMode::PeerDistribution) && p != CubePane::System)
            continue;
        pane.mode->addItem(cubeModeLabel(mode), m);
    }
    pane.mode->setToolTip(tr("What the values show: absolute, or a percentage of a reference (docs: the CUBE view's "
                             "value modes); — where a mode has no reference in this pane's position"));
    pane.sort = new QComboBox;
    pane.sort->addItems({ tr("Tree order"), tr("By value"), tr("By name") });
    head->addWidget(pane.title);
    head->addStretch(1);
    head->addWidget(pane.mode);
    head->addWidget(pane.sort);
    v->addLayout(head);
    pane.tree = new QTreeView;
    pane.model = new CubePaneModel(p, this);
    pane.tree->setModel(pane.model);
    pane.tree->setUniformRowHeights(true);
    pane.tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    pane.tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    pane.tree->setTreePosition(CubePaneModel::NameColumn);
    pane.tree->header()->setStretchLastSection(p != CubePane::Call);
    pane.tree->header()->setSectionResizeMode(CubePaneModel::ValueColumn, QHeaderView::ResizeToContents);
    if (p == CubePane::Call) {
        pane.model->setShowDistribution(true);
        pane.tree->setItemDelegateForColumn(CubePaneModel::DistributionColumn, new BoxPlotDelegate(pane.tree));
        pane.tree->header()->setSectionResizeMode(CubePaneModel::NameColumn, QHeaderView::Stretch);
        pane.tree->header()->setSectionResizeMode(CubePaneModel::DistributionColumn, QHeaderView::Fixed);
        pane.tree->header()->resizeSection(CubePaneModel::DistributionColumn, 170);
        pane.tree->header()->setStretchLastSection(false);
    }
    v->addWidget(pane.tree, 1);

    connect(pane.mode, &QComboBox::currentIndexChanged, this, [this, p](int) {
        const Pane& me = m_panes[CubeSpace::index(p)];
        me.model->setMode(static_cast<CubeMode>(me.mode->currentData().toInt()));
    });
    connect(pane.sort, &QComboBox::currentIndexChanged, this,
        [this, p](int i) { m_panes[CubeSpace::index(p)].model->setSort(static_cast<CubePaneModel::Sort>(i)); });
    connect(pane.tree, &QTreeView::expanded, this, [this, p](const QModelIndex& i) { onExpanded(p, i, true); });
    connect(pane.tree, &QTreeView::collapsed, this, [this, p](const QModelIndex& i) { onExpanded(p, i, false); });
    connect(pane.tree->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this, p] { onSelection(p); });
    if (p != CubePane::Metric) {
        pane.tree->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(pane.tree, &QWidget::customContextMenuRequested, this,
            [this, p](const QPoint& pos) { showContextMenu(p, pos); });
    }
    return pane;
}

void CubeBrowser::doUpdate(SelectionChanges changes)
{
    for (auto& pane : m_panes)
        pane.model->setTimeUnit(selection()->timeUnit());
    if (changes & SelectionChange::Growth) {
        // Growth at scale P: a column of the call pane (docs/SEMANTICS.md §10.6).
        CubePaneModel* calls = model(CubePane::Call);
        calls->setGrowth(selection()->growth());
        if (calls->growthColumn() >= 0)
            tree(CubePane::Call)->header()->setSectionResizeMode(calls->growthColumn(), QHeaderView::ResizeToContents);
        const GrowthOverlay* growth = selection()->growth().get();
        m_growthLegend->setVisible(growth != nullptr);
        if (growth)
            m_growthLegend->setText(tr("<b>Growth column: %1</b> %2")
                                        .arg(growth->description().toHtmlEscaped(), GrowthOverlay::legendHtml()));
    }
    if (changes & SelectionChange::Trial) {
        refreshExternalTrials();
        buildSpace();
        return;
    }
    followMainSelection(changes);
}

void CubeBrowser::buildSpace()
{
    const auto trial = selection()->trial();
    if (!trial) {
        m_spaceJob.cancel();
        m_valuesJob.cancel();
        setSpace(nullptr);
        return;
    }
    const auto view = m_flat->isChecked() ? CubeSpace::CallView::Flat : CubeSpace::CallView::Tree;
    m_status->setText(tr("Building the trees of %1…").arg(trial->name()));
    m_spaceJob.start([trial, view](const std::atomic_bool&) { return std::make_shared<const CubeSpace>(trial, view); },
        [this](std::shared_ptr<const CubeSpace> space) { setSpace(std::move(space)); });
    if (isUpdatingNow())
        m_spaceJob.waitAndDeliver();
}

void CubeBrowser::setSpace(std::shared_ptr<const CubeSpace> space)
{
    m_space = std::move(space);
    m_values.reset();
    m_boxes = Boxes {};
    const auto order = m_state.order;
    m_state = m_space ? CubeState::defaults(*m_space) : CubeState {};
    m_state.order = order;
    m_applying = true;
    for (auto& pane : m_panes)
        pane.model->setSpace(m_space);
    if (m_space) {
        for (CubePane p : Panes) {
            const auto& sel = m_state.pane(p).selected;
            QItemSelection s;
            for (int i : sel) {
                const QModelIndex idx = model(p)->indexOfItem(i, 0);
                s.select(idx, idx.siblingAtColumn(model(p)->columnCount() - 1));
            }
            tree(p)->selectionModel()->select(s, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            if (!sel.empty())
                tree(p)->selectionModel()->setCurrentIndex(
                    model(p)->indexOfItem(sel.front(), 0), QItemSelectionModel::NoUpdate);
        }
    }
    m_applying = false;
    if (!m_space) {
        m_status->setText(tr("No trial"));
        m_info->clear();
        return;
    }
    followMainSelection(SelectionChange::Event | SelectionChange::Thread);
    recompute();
}

void CubeBrowser::recompute()
{
    if (!m_space)
        return;
    auto space = m_space;
    const CubeState state = m_state;
    auto previous = m_values;
    const CubeState previousState = m_valuesState;
    m_status->setText(tr("Computing…"));
    m_valuesJob.start(
        [space, state, previous, previousState](const std::atomic_bool&) {
            Computed c;
            c.state = state;
            c.values = std::make_shared<const CubeValues>(
                computeCube(*space, state, previous.get(), previous ? &previousState : nullptr));
            const auto& calls = state.pane(CubePane::Call).selected;
            if (state.position(CubePane::System) != 2 && !calls.empty())
                c.locations = cubeLocationValues(*space, state, calls.front());
            return c;
        },
        [this](const Computed& c) { showComputed(c); });
}

void CubeBrowser::showLocations()
{
    if (!m_space || !m_values)
        return;
    const Trial& trial = m_space->trial();
    m_topology->setTrial(m_space->trialPtr());
    const auto& calls = m_valuesState.pane(CubePane::Call).selected;
    const auto& metrics = m_valuesState.pane(CubePane::Metric).selected;
    std::vector<double> values;
    if (m_valuesState.position(CubePane::System) == 2) {
        // Rightmost, the system pane already holds every location's value under the selections.
        const auto& inclusive = m_values->inclusive[CubeSpace::index(CubePane::System)];
        values.assign(trial.threadCount(), std::numeric_limits<double>::quiet_NaN());
        for (std::size_t t = 0; t < values.size(); ++t) {
            const int item = m_space->itemOfThread(ThreadIndex(t));
            if (item >= 0)
                values[t] = inclusive[static_cast<std::size_t>(item)];
        }
    } else {
        values = m_locations; // computed with the values, off the GUI thread
    }
    auto names = [this](CubePane p, const std::vector<int>& items) {
        if (items.empty())
            return QString();
        const QString first = m_space->label(p, items.front());
        return items.size() == 1 ? first : tr("%1 (+%2 more)").arg(first).arg(items.size() - 1);
    };
    const QString what = tr("%1 of %2").arg(names(CubePane::Metric, metrics), names(CubePane::Call, calls));
    m_topology->setValues(values, what);
    m_topology->setMarkedThreads(selection()->selectedThreads());
    m_distribution->setValues(std::move(values), what);
}

void CubeBrowser::finishComputing()
{
    // An update still pending (the tab was hidden until now) starts its computations first;
    // updateNow() comes back here to wait for them.
    if (isUpdatePending()) {
        updateNow();
        return;
    }
    m_spaceJob.waitAndDeliver();
    m_valuesJob.waitAndDeliver();
    m_boxesJob.waitAndDeliver();
    m_externalJob.waitAndDeliver();
    m_operationJob.waitAndDeliver();
}

void CubeBrowser::showComputed(const Computed& c)
{
    m_values = c.values;
    m_valuesState = c.state;
    m_locations = c.locations;
    for (CubePane p : Panes)
        model(p)->setValues(c.values, c.state, m_externalRoot);
    updateInfo();
    const Trial& t = m_space->trial();
    m_status->setText(
        tr("%1: %2, %3, %4. Collapsed items show inclusive values, expanded items their own value.")
            .arg(t.name(), countText(t.metricCount(), tr("metric"), tr("metrics")),
                countText(m_space->size(CubePane::Call),
                    m_space->callView() == CubeSpace::CallView::Flat ? tr("region") : tr("call-tree item"),
                    m_space->callView() == CubeSpace::CallView::Flat ? tr("regions") : tr("call-tree items")),
                countText(t.threadCount(), tr("location"), tr("locations"))));
    Q_EMIT valuesShown();
    computeBoxes();
}

QString CubeBrowser::metricKey() const
{
    // What a call row's distribution depends on besides the row: the metric selection and the
    // selected metrics' states.
    QString key;
    for (int i : m_state.pane(CubePane::Metric).selected)
        key += QString::number(i) + (m_state.pane(CubePane::Metric).isExpanded(i) ? u'e' : u'c');
    return key;
}

void CubeBrowser::computeBoxes()
{
    if (!m_space)
        return;
    const QString key = metricKey();
    if (key != m_boxes.metricKey)
        m_boxes = Boxes { {}, key };
    // The rows shown whose box plot is missing, in the background; the cached ones at once.
    std::vector<std::pair<int, int>> missing; // (item, cache key)
    for (int item : shownItems(*m_space, CubePane::Call, m_state.pane(CubePane::Call), MaxBoxes)) {
        const int k = item * 2 + (m_state.pane(CubePane::Call).isExpanded(item) ? 1 : 0);
        if (!m_boxes.byKey.contains(k))
            missing.emplace_back(item, k);
    }
    showBoxes();
    if (missing.empty())
        return;
    auto space = m_space;
    const CubeState state = m_state;
    m_boxesJob.start(
        [space, state, missing, key](const std::atomic_bool& cancel) {
            Boxes b;
            b.metricKey = key;
            for (const auto& [item, k] : missing) {
                if (cancel)
                    break;
                b.byKey.insert(k, boxStats(cubeLocationValues(*space, state, item)));
            }
            return b;
        },
        [this](const Boxes& b) {
            if (b.metricKey != m_boxes.metricKey)
                return;
            m_boxes.byKey.insert(b.byKey);
            showBoxes();
        });
}

void CubeBrowser::showBoxes()
{
    QHash<int, BoxStats> byItem;
    double low = 0;
    double high = 0;
    for (auto it = m_boxes.byKey.cbegin(); it != m_boxes.byKey.cend(); ++it) {
        const int item = it.key() / 2;
        if ((it.key() % 2 == 1) != m_state.pane(CubePane::Call).isExpanded(item))
            continue;
        byItem.insert(item, it.value());
        low = std::min(low, it.value().min);
        high = std::max(high, it.value().max);
    }
    auto* delegate = qobject_cast<BoxPlotDelegate*>(
        tree(CubePane::Call)->itemDelegateForColumn(CubePaneModel::DistributionColumn));
    if (delegate)
        delegate->setRange(low, high);
    model(CubePane::Call)->setBoxes(std::move(byItem));
}

void CubeBrowser::onSelection(CubePane p)
{
    if (m_applying || !m_space)
        return;
    std::vector<int> items;
    for (const QModelIndex& i : tree(p)->selectionModel()->selectedRows(0))
        items.push_back(model(p)->itemOf(i));
    if (items.empty())
        return; // a pane always has a selection (the last one stays)
    m_state.pane(p).selected = items;
    if (p == CubePane::Metric && m_externalTrial)
        computeExternalRoot();
    // Linked to the main window: a call path selects its event, a location its thread.
    if (p == CubePane::Call) {
        const EventId e = callEvent(items.front());
        if (e.isValid() && e != selection()->event())
            selection()->selectEvent(e);
    } else if (p == CubePane::System) {
        const int ref = m_space->item(p, items.front()).ref;
        if (ref >= 0 && ThreadIndex(static_cast<std::size_t>(ref)) != selection()->thread())
            selection()->selectThread(ThreadIndex(static_cast<std::size_t>(ref)));
    }
    recompute();
}

void CubeBrowser::onExpanded(CubePane p, const QModelIndex& index, bool expanded)
{
    const int item = model(p)->itemOf(index);
    if (item < 0)
        return;
    m_state.pane(p).setExpanded(item, expanded);
    if (!m_applying)
        recompute();
}

void CubeBrowser::selectItem(CubePane p, int item)
{
    if (!m_space || item < 0)
        return;
    for (int a = m_space->item(p, item).parent; a >= 0; a = m_space->item(p, a).parent)
        if (!m_state.pane(p).isExpanded(a)) {
            m_state.pane(p).setExpanded(a, true);
            const bool applying = m_applying;
            m_applying = true;
            // Parents first: an index exists only below expanded, shown parents.
            std::vector<int> chain;
            for (int c = a; c >= 0; c = m_space->item(p, c).parent)
                chain.insert(chain.begin(), c);
            for (int c : chain)
                tree(p)->expand(model(p)->indexOfItem(c, 0));
            m_applying = applying;
        }
    const QModelIndex idx = model(p)->indexOfItem(item, 0);
    if (!idx.isValid())
        return;
    tree(p)->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    tree(p)->scrollTo(idx);
}

void CubeBrowser::expandToDepth(CubePane p, int depth)
{
    if (!m_space)
        return;
    m_applying = true;
    for (std::size_t i = 0; i < m_space->size(p); ++i) {
        const auto& it = m_space->item(p, static_cast<int>(i));
        if (it.depth < depth && !it.children.empty()) {
            m_state.pane(p).setExpanded(static_cast<int>(i), true);
            tree(p)->expand(model(p)->indexOfItem(static_cast<int>(i), 0));
        }
    }
    m_applying = false;
    recompute();
}

void CubeBrowser::followMainSelection(SelectionChanges changes)
{
    if (!m_space)
        return;
    if (changes & SelectionChange::Event) {
        const EventId e = selection()->event();
        int item = e.isValid() ? m_space->itemOfEvent(e) : -1;
        if (item < 0 && e.isValid()) // a flat event of a call-path trial: its first call-tree node
            item = m_space->find(CubePane::Call, m_space->trial().event(e).name);
        const auto& sel = m_state.pane(CubePane::Call).selected;
        if (item >= 0 && std::find(sel.begin(), sel.end(), item) == sel.end())
            selectItem(CubePane::Call, item);
    }
    if (changes & SelectionChange::ThreadSet)
        m_topology->setMarkedThreads(selection()->selectedThreads());
    if (changes & SelectionChange::Thread) {
        const ThreadIndex t = selection()->thread();
        const int item = t.isValid() ? m_space->itemOfThread(t) : -1;
        const auto& sel = m_state.pane(CubePane::System).selected;
        if (item >= 0 && std::find(sel.begin(), sel.end(), item) == sel.end())
            selectItem(CubePane::System, item);
    }
}

void CubeBrowser::setOrder(const std::array<CubePane, 3>& order)
{
    m_state.order = order;
    for (int k = 0; k < 3; ++k)
        m_splitter->insertWidget(k, m_panes[CubeSpace::index(order[static_cast<std::size_t>(k)])].box);
    const auto it = std::find(Orders.begin(), Orders.end(), order);
    if (it != Orders.end() && m_order->currentIndex() != int(it - Orders.begin())) {
        const QSignalBlocker block(m_order);
        m_order->setCurrentIndex(int(it - Orders.begin()));
    }
    recompute();
}

void CubeBrowser::setMode(CubePane p, CubeMode mode)
{
    QComboBox* combo = m_panes[CubeSpace::index(p)].mode;
    const int i = combo->findData(static_cast<int>(mode));
    if (i >= 0)
        combo->setCurrentIndex(i);
}

void CubeBrowser::setFlat(bool flat)
{
    if (m_flat->isChecked() != flat) {
        m_flat->setChecked(flat); // toggled() comes back here
        return;
    }
    buildSpace();
}

void CubeBrowser::find(const QString& text)
{
    if (!m_space || text.isEmpty())
        return;
    for (CubePane p : { CubePane::Call, CubePane::Metric, CubePane::System }) {
        const auto& sel = m_state.pane(p).selected;
        const int start = sel.empty() ? -1 : sel.front();
        const int n = static_cast<int>(m_space->size(p));
        for (int k = 1; k <= n; ++k) {
            const int i = (start + k + n) % n;
            if (m_space->label(p, i).contains(text, Qt::CaseInsensitive)) {
                selectItem(p, i);
                return;
            }
        }
    }
    m_status->setText(tr("No item named like '%1'").arg(text));
}

void CubeBrowser::updateInfo()
{
    const auto& sel = m_state.pane(CubePane::Metric).selected;
    if (!m_space || sel.empty()) {
        m_info->clear();
        return;
    }
    const int ref = m_space->item(CubePane::Metric, sel.front()).ref;
    if (ref < 0) {
        m_info->setText(tr("Derived metrics: select one of them"));
        return;
    }
    const Metric& metric = m_space->trial().metrics()[static_cast<std::size_t>(ref)];
    const auto& info = m_space->metricInfo(MetricId(static_cast<std::size_t>(ref)));
    QString text = QStringLiteral("<b>%1</b>").arg(metric.name.toHtmlEscaped());
    const QString unit = unitLabel(metric, selection()->timeUnit());
    if (!unit.isEmpty())
        text += QStringLiteral(" (%1)").arg(unit.toHtmlEscaped());
    if (!info.description.isEmpty())
        text += QStringLiteral(": ") + info.description.toHtmlEscaped();
    if (!info.url.isEmpty())
        text += QStringLiteral(" — <a href=\"%1\">%2</a>").arg(info.url.toHtmlEscaped(), tr("documentation"));
    if (m_state.pane(CubePane::Metric).isExpanded(sel.front()))
        text += tr(" — expanded: its own part, without its child metrics");
    m_info->setText(text);
}

void CubeBrowser::updateLegend()
{
    // The colour scale: share of the reference from 0 to 100 %.
    const int w = 120;
    const int h = 12;
    const qreal dpr = devicePixelRatioF();
    QPixmap pm(QSize(w + 90, h + 2) * dpr);
    pm.setDevicePixelRatio(dpr);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    const int scale = m_scale->currentIndex();
    for (int x = 0; x < w; ++x) {
        const double a = double(x) / (w - 1);
        const double t = scale == 1 ? a * a : scale == 2 ? (std::exp(4.0 * a) - 1.0) / (std::exp(4.0) - 1.0) : a;
        p.fillRect(QRect(x + 24, 1, 1, h), sequentialColor(t));
    }
    p.setPen(palette().color(QPalette::WindowText));
    p.drawRect(QRect(24, 1, w, h - 1));
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    p.setFont(f);
    p.drawText(QRect(0, 0, 22, h + 2), Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("0"));
    p.drawText(QRect(w + 28, 0, 60, h + 2), Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("100 %"));
    p.end();
    m_legend->setPixmap(pm);
    m_legend->setToolTip(tr("Colour of a value by its share of the mode's reference (of its tree's root for absolute "
                            "values); negative values of a difference in blue"));
}

std::vector<int> CubeBrowser::contextItems(CubePane p, int clicked) const
{
    const auto& selected = m_state.pane(p).selected;
    if (std::find(selected.begin(), selected.end(), clicked) != selected.end())
        return selected;
    return { clicked };
}

void CubeBrowser::showContextMenu(CubePane p, const QPoint& pos)
{
    if (!m_space)
        return;
    const int clicked = model(p)->itemOf(tree(p)->indexAt(pos));
    if (clicked < 0)
        return;
    const std::vector<int> items = contextItems(p, clicked);
    QMenu menu(this);
    if (p == CubePane::Call) {
        if (addShowSourceAction(&menu, selection(), callEvent(clicked)))
            menu.addSeparator();
        const bool flat = m_space->callView() == CubeSpace::CallView::Flat;
        QAction* root = menu.addAction(tr("Re-root Here"), this, [this, clicked] { reRoot(clicked); });
        root->setToolTip(flat
                ? tr("A new trial whose call tree starts at every call path of %1").arg(m_space->label(p, clicked))
                : tr("A new trial whose call tree is the subtree of %1").arg(m_space->path(p, clicked)));
        const bool anyRoot
            = !flat && std::any_of(items.begin(), items.end(), [&](int i) { return m_space->item(p, i).parent < 0; });
        QAction* cut = menu.addAction(items.size() == 1 ? tr("Prune") : tr("Prune the %1 Selected").arg(items.size()),
            this, [this, items] { prune(items); });
        cut->setEnabled(!anyRoot);
        cut->setToolTip(anyRoot ? tr("A root has no parent to fold its time into")
                                : tr("A new trial without these subtrees; their inclusive values become their "
                                     "parents' own values"));
    } else {
        const std::size_t threads = threadsUnder(items).size();
        menu.addAction(
            tr("Keep Only These (%1)")
                .arg(threads == 1 ? tr("1 thread") : tr("%1 threads").arg(QLocale().toString(qulonglong(threads)))),
            this, [this, items] { keepOnly(items); });
    }
    menu.setToolTipsVisible(true);
    menu.exec(tree(p)->viewport()->mapToGlobal(pos));
}

EventId CubeBrowser::callEvent(int item) const
{
    const int ref = m_space->item(CubePane::Call, item).ref;
    if (ref < 0)
        return {};
    return m_space->callView() == CubeSpace::CallView::Flat
        ? EventId(static_cast<std::size_t>(ref))
        : m_space->callTree().nodes()[static_cast<std::size_t>(ref)].event;
}

std::vector<std::size_t> CubeBrowser::threadsUnder(const std::vector<int>& systemItems) const
{
    std::vector<std::size_t> out;
    if (!m_space)
        return out;
    std::vector<int> stack(systemItems.begin(), systemItems.end());
    while (!stack.empty()) {
        const int i = stack.back();
        stack.pop_back();
        if (i < 0 || static_cast<std::size_t>(i) >= m_space->size(CubePane::System))
            continue;
        const auto& item = m_space->item(CubePane::System, i);
        if (item.ref >= 0)
            out.push_back(static_cast<std::size_t>(item.ref));
        stack.insert(stack.end(), item.children.begin(), item.children.end());
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

void CubeBrowser::reRoot(int callItem)
{
    if (!m_space || callItem < 0 || static_cast<std::size_t>(callItem) >= m_space->size(CubePane::Call))
        return;
    const QString root = m_space->path(CubePane::Call, callItem);
    AlgebraOptions options;
    options.name = tr("%1 re-rooted at %2").arg(m_space->trial().name(), root);
    runOperation(
        options.name, [trial = m_space->trialPtr(), root, options] { return cutCallTree(*trial, root, {}, options); });
}

void CubeBrowser::prune(const std::vector<int>& callItems)
{
    if (!m_space || callItems.empty())
        return;
    QStringList names;
    for (int i : callItems)
        if (i >= 0 && static_cast<std::size_t>(i) < m_space->size(CubePane::Call))
            names << m_space->path(CubePane::Call, i);
    // A subtree inside another pruned one goes with it.
    names.removeDuplicates();
    QStringList outermost;
    for (const QString& n : names)
        if (std::none_of(names.begin(), names.end(),
                [&](const QString& o) { return o != n && n.startsWith(o + QStringLiteral(" => ")); }))
            outermost << n;
    AlgebraOptions options;
    options.name = tr("%1 without %2").arg(m_space->trial().name(), outermost.join(QStringLiteral(", ")));
    runOperation(options.name,
        [trial = m_space->trialPtr(), outermost, options] { return cutCallTree(*trial, {}, outermost, options); });
}

void CubeBrowser::keepOnly(const std::vector<int>& systemItems)
{
    if (!m_space)
        return;
    const std::vector<std::size_t> threads = threadsUnder(systemItems);
    if (threads.empty())
        return;
    // "0-15,32": the ascending runs of thread indices.
    QStringList runs;
    for (std::size_t i = 0; i < threads.size();) {
        std::size_t j = i;
        while (j + 1 < threads.size() && threads[j + 1] == threads[j] + 1)
            ++j;
        runs << (i == j ? QString::number(threads[i]) : QStringLiteral("%1-%2").arg(threads[i]).arg(threads[j]));
        i = j + 1;
    }
    const QString spec = runs.join(QLatin1Char(','));
    AlgebraOptions options;
    options.name = tr("%1, threads %2").arg(m_space->trial().name(), spec);
    runOperation(options.name,
        [trial = m_space->trialPtr(), spec, options] { return selectThreads(*trial, spec, {}, {}, options); });
}

void CubeBrowser::runOperation(const QString& description, std::function<AlgebraResult()> work)
{
    m_status->setText(tr("Computing %1…").arg(description));
    m_operationJob.start(
        [work = std::move(work)](const std::atomic_bool&) { return std::make_shared<const AlgebraResult>(work()); },
        [this, description](const std::shared_ptr<const AlgebraResult>& result) {
            if (!result || !*result) {
                const QString message = result ? result->error() : tr("%1 failed").arg(description);
                m_status->setText(message);
                Q_EMIT operationFailed(message);
                return;
            }
            m_status->setText(tr("Added %1 to the trials").arg(result->trial()->name()));
            Q_EMIT trialDerived(result->trial(), description);
        });
}

} // namespace parallax
