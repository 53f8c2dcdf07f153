// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/comparison/comparisonflamepage.h"

#include "views/flame/sandwichwidget.h"
#include "views/selectionstate.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace parallax {

ComparisonFlamePage::ComparisonFlamePage(QWidget* parent)
    : QWidget(parent)
    , m_state(new SelectionState(this))
    , m_arrangementBox(new QComboBox(this))
    , m_note(new QLabel(this))
    , m_labelA(new QLabel(this))
    , m_labelB(new QLabel(this))
    , m_pageB(new QWidget(this))
    , m_flame(new FlameGraphWidget(m_state, this))
{
    m_arrangementBox->addItem(tr("One graph, Δ as colour"), static_cast<int>(Arrangement::Differential));
    m_arrangementBox->addItem(tr("Stacked: A above B"), static_cast<int>(Arrangement::Stacked));
    m_arrangementBox->setToolTip(tr("One differential flame graph of the union call tree, or A's and B's flame "
                                    "graphs one above the other, zoomed together"));
    m_note->setWordWrap(true);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    for (QLabel* l : { m_labelA, m_labelB }) {
        l->setTextFormat(Qt::RichText);
        l->setContentsMargins(4, 0, 4, 0);
    }

    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 0, 4, 0);
    top->addWidget(new QLabel(tr("Layout:"), this));
    top->addWidget(m_arrangementBox);
    top->addWidget(m_note, 1);

    auto* pageA = new QWidget(this);
    auto* layoutA = new QVBoxLayout(pageA);
    layoutA->setContentsMargins(0, 0, 0, 0);
    layoutA->setSpacing(0);
    layoutA->addWidget(m_labelA);
    layoutA->addWidget(m_flame, 1);
    auto* layoutB = new QVBoxLayout(m_pageB);
    layoutB->setContentsMargins(0, 0, 0, 0);
    layoutB->setSpacing(0);
    layoutB->addWidget(m_labelB);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(pageA);
    split->addWidget(m_pageB);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(top);
    layout->addWidget(split, 1);

    connect(m_arrangementBox, &QComboBox::activated, this,
        [this] { setArrangement(static_cast<Arrangement>(m_arrangementBox->currentData().toInt())); });
    connect(m_flame, &FlameGraphWidget::zoomChanged, this, [this](int node) { syncZoom(m_flame, node); });
    connectFlame(m_flame);
    setArrangement(Arrangement::Differential);
}

void ComparisonFlamePage::connectFlame(FlameGraphWidget* f)
{
    connect(f, &FlameGraphWidget::sandwichRequested, this, [this](const QString& key) { openSandwich(key); });
    connect(f, &FlameGraphWidget::frameActivated, this, [this, f](int node) {
        if (f->tree() && node >= 0)
            Q_EMIT frameActivated(f->tree()->path(node));
    });
}

void ComparisonFlamePage::ensureFlameB()
{
    if (m_flameB)
        return;
    // Made when first stacked: a hidden second graph would compute its tree for nothing.
    m_flameB = new FlameGraphWidget(m_state, m_pageB);
    m_pageB->layout()->addWidget(m_flameB);
    m_flameB->setShapeChoiceVisible(false); // B's graph has B's shape
    m_flameB->setDiffWidth(FlameWidth::B);
    m_flameB->setSource(m_source);
    m_flameB->setChangeScale(m_flame->changeScale(), m_flame->higherIsBetter());
    if (m_b)
        m_flameB->setComparison(m_b, m_matching);
    connect(m_flameB, &FlameGraphWidget::zoomChanged, this, [this](int node) { syncZoom(m_flameB, node); });
    // Computed after A's graph was zoomed: it takes that zoom.
    connect(m_flameB, &FlameGraphWidget::shown, this, [this] { syncZoom(m_flame, m_flame->zoomNode()); });
    connectFlame(m_flameB);
}

ComparisonFlamePage::~ComparisonFlamePage() = default;

SandwichWidget* ComparisonFlamePage::lastSandwich() const { return m_sandwich; }

void ComparisonFlamePage::setRuns(
    TrialPtr a, TrialPtr b, const EventMatching& matching, const QString& nameA, const QString& nameB)
{
    m_b = std::move(b);
    m_matching = matching;
    m_labelA->setText(tr("<b>A</b> — %1: frame width = A's value").arg(nameA.toHtmlEscaped()));
    m_labelB->setText(tr("<b>B</b> — %1: frame width = B's value").arg(nameB.toHtmlEscaped()));
    if (m_state->trial() != a)
        m_state->setTrial(std::move(a));
    m_flame->setComparison(m_b, matching);
    if (m_flameB)
        m_flameB->setComparison(m_b, matching);
}

void ComparisonFlamePage::setMetric(MetricId inA, bool higherIsBetter)
{
    if (inA.isValid())
        m_state->setMetric(inA);
    for (FlameGraphWidget* f : { m_flame, m_flameB })
        if (f)
            f->setChangeScale(f->changeScale(), higherIsBetter);
}

void ComparisonFlamePage::setSource(FlameGraphWidget::Source source, ThreadIndex threadOfA)
{
    m_source = source;
    if (source == FlameGraphWidget::Source::SelectedThread)
        m_state->selectThread(threadOfA);
    m_flame->setSource(source);
    if (m_flameB)
        m_flameB->setSource(source);
}

void ComparisonFlamePage::setChangeScale(FlameGraphWidget::ChangeScale scale)
{
    for (FlameGraphWidget* f : { m_flame, m_flameB })
        if (f)
            f->setChangeScale(scale, f->higherIsBetter());
}

void ComparisonFlamePage::setArrangement(Arrangement arrangement)
{
    const bool stacked = arrangement == Arrangement::Stacked;
    if (stacked && m_arrangement != Arrangement::Stacked)
        m_shape = m_flame->diffWidth();
    m_arrangement = arrangement;
    if (stacked)
        ensureFlameB();
    m_arrangementBox->setCurrentIndex(m_arrangementBox->findData(static_cast<int>(arrangement)));
    m_flame->setShapeChoiceVisible(!stacked);
    m_flame->setDiffWidth(stacked ? FlameWidth::A : m_shape);
    m_labelA->setVisible(stacked);
    m_pageB->setVisible(stacked);
    m_note->setText(stacked
            ? tr("A's flame graph above B's: frames of the union call tree, coloured by Δ = A − B (blue = B "
                 "cheaper, red = B dearer); a zoom in either graph zooms both. Hatched ◀/▶: only in A / only in B.")
            : tr("The union of both call trees: frame width = Shape (the larger of A and B by default), colour = "
                 "Δ = A − B (blue = B cheaper, red = B dearer); hatched ◀/▶ frames ran only in A / only in B. "
                 "Click a frame to zoom and show it in the other tabs."));
    if (stacked)
        syncZoom(m_flame, m_flame->zoomNode());
}

void ComparisonFlamePage::syncZoom(FlameGraphWidget* from, int node)
{
    if (m_arrangement != Arrangement::Stacked)
        return;
    FlameGraphWidget* to = from == m_flame ? m_flameB : m_flame;
    if (!to)
        return;
    // Both show the union tree of the same runs: node numbers are the same call paths.
    if (to->tree() && from->tree() && to->tree()->nodes().size() == from->tree()->nodes().size()
        && to->zoomNode() != node)
        to->zoomTo(node);
}

void ComparisonFlamePage::updateNow()
{
    m_flame->updateNow();
    if (m_flameB && m_arrangement == Arrangement::Stacked)
        m_flameB->updateNow();
}

SandwichWidget* ComparisonFlamePage::openSandwich(const QString& key)
{
    if (!m_b)
        return nullptr;
    m_sandwich = SandwichWidget::open(m_state, key, window(), m_b, m_matching);
    m_sandwich->setChangeScale(m_flame->changeScale(), m_flame->higherIsBetter());
    return m_sandwich;
}

} // namespace parallax
