// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/flame/sandwichwidget.h"

#include "algebra/units.h"
#include "views/flame/flamegraphwidget.h"
#include "views/selectionstate.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace parallax {

SandwichWidget::SandwichWidget(SelectionState* state, const QString& routine, QWidget* parent)
    : QWidget(parent)
    , SelectionView(this, state, SelectionChange::Trial | SelectionChange::Metric | SelectionChange::TimeUnit)
    , m_routine(routine)
    , m_title(new QLabel(this))
    , m_callers(new FlameGraphWidget(state, this))
    , m_callees(new FlameGraphWidget(state, this))
    , m_butterfly(new QTreeWidget(this))
{
    setWindowTitle(tr("Sandwich — %1").arg(routine));
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::RichText);
    m_callers->setStyle(FlameGraphWidget::Style::Flame); // the callers grow upwards from the routine
    m_callees->setStyle(FlameGraphWidget::Style::Icicle); // the callees hang below it
    m_butterfly->setRootIsDecorated(true);
    m_butterfly->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_butterfly->header()->setStretchLastSection(false);

    auto* flames = new QSplitter(Qt::Vertical, this);
    flames->addWidget(m_callers);
    flames->addWidget(m_callees);
    m_split = new QSplitter(Qt::Horizontal, this);
    auto* split = m_split;
    split->addWidget(flames);
    split->addWidget(m_butterfly);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    m_butterfly->setMinimumWidth(320);
    split->setSizes({ 900, 420 });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(split, 1);
    scheduleUpdate(SelectionChange::Trial);
}

SandwichWidget::~SandwichWidget()
{
    m_job.cancelAndWait();
    m_diffJob.cancelAndWait();
}

void SandwichWidget::setComparison(TrialPtr b, const EventMatching& matching)
{
    m_compareB = std::move(b);
    m_matching = matching;
    // Four number columns: the table takes more of the width.
    m_split->setSizes(m_compareB ? QList<int> { 760, 600 } : QList<int> { 900, 420 });
    scheduleUpdate(SelectionChange::Trial);
}

void SandwichWidget::setChangeScale(FlameGraphWidget::ChangeScale scale, bool higherIsBetter)
{
    m_callers->setChangeScale(scale, higherIsBetter);
    m_callees->setChangeScale(scale, higherIsBetter);
}

QString SandwichWidget::valueText(double v) const
{
    const TrialPtr trial = selection()->trial();
    const MetricId m = selection()->metric().isValid() ? selection()->metric() : MetricId(std::size_t(0));
    return formatMetricValue(v, trial->metric(m), selection()->timeUnit()) + QLatin1Char(' ')
        + unitLabel(trial->metric(m), selection()->timeUnit());
}

SandwichWidget* SandwichWidget::open(
    SelectionState* state, const QString& routine, QWidget* parent, TrialPtr compareWith, const EventMatching& matching)
{
    auto* w = new SandwichWidget(state, routine, parent);
    if (compareWith) {
        w->setComparison(std::move(compareWith), matching);
        w->setWindowTitle(tr("Sandwich — %1 — A vs B").arg(routine));
    }
    w->setWindowFlag(Qt::Window);
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->resize(1200, 800);
    w->show();
    return w;
}

void SandwichWidget::doUpdate(SelectionChanges)
{
    const TrialPtr trial = selection()->trial();
    if (!trial || trial->metricCount() == 0) {
        showSandwich(nullptr);
        return;
    }
    const MetricId metric = selection()->metric().isValid() ? selection()->metric() : MetricId(std::size_t(0));
    m_title->setText(tr("Computing the sandwich of %1…").arg(m_routine.toHtmlEscaped()));
    if (m_compareB) {
        m_job.cancel();
        m_diffJob.start(
            [trial, b = m_compareB, metric, key = m_routine, matching = m_matching](const std::atomic_bool&) {
                return std::make_shared<const DiffSandwich>(
                    diffSandwichOf(*trial, *b, metric, key, FlameSource {}, matching, FlameWidth::Max));
            },
            [this](std::shared_ptr<const DiffSandwich> d) { showDiffSandwich(std::move(d)); });
        return;
    }
    m_diffJob.cancel();
    m_job.start(
        [trial, metric, routine = m_routine](const std::atomic_bool&) {
            return std::make_shared<const Sandwich>(sandwichOf(FlameTree::of(*trial, metric), routine));
        },
        [this](std::shared_ptr<const Sandwich> s) { showSandwich(std::move(s)); });
}

void SandwichWidget::showSandwich(std::shared_ptr<const Sandwich> sandwich)
{
    m_sandwich = std::move(sandwich);
    m_diff.reset();
    m_butterfly->clear();
    m_butterfly->setColumnCount(3);
    m_butterfly->setHeaderLabels({ tr("Callers and callees"), tr("Inclusive"), tr("Own") });
    const TrialPtr trial = selection()->trial();
    if (!m_sandwich || !trial || m_sandwich->occurrences == 0) {
        m_title->setText(
            tr("<b>%1</b> does not occur in the call paths of this trial.").arg(m_routine.toHtmlEscaped()));
        m_callers->showTree(nullptr);
        m_callees->showTree(nullptr);
        return;
    }
    const MetricId m = selection()->metric().isValid() ? selection()->metric() : MetricId(std::size_t(0));
    auto value = [this](double v) { return valueText(v); };
    m_title->setText(tr("<b>%1</b> — in %2 call paths; inclusive %3, own %4 (%5, mean over threads). Callers above "
                        "(their callers further up), callees below.")
                         .arg(m_routine.toHtmlEscaped())
                         .arg(m_sandwich->occurrences)
                         .arg(value(m_sandwich->inclusive), value(m_sandwich->self), trial->metric(m).name));
    m_callers->showTree(std::make_shared<const FlameTree>(m_sandwich->callers));
    m_callees->showTree(std::make_shared<const FlameTree>(m_sandwich->callees));
    // The butterfly: the first level of each tree under the routine.
    // A caller's own value is no part of the routine: only the callees have an Own column.
    auto section = [&](const QString& title, const FlameTree& tree, bool own) {
        auto* top = new QTreeWidgetItem(m_butterfly, { title });
        QFont bold = top->font(0);
        bold.setBold(true);
        top->setFont(0, bold);
        for (int root : tree.roots())
            for (int child : tree.node(root).children) {
                const FlameTree::Node& n = tree.node(child);
                auto* item = new QTreeWidgetItem(top, { n.name, value(n.inclusive), own ? value(n.self) : tr("—") });
                item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
                item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
                item->setToolTip(0, n.name);
            }
        top->setExpanded(true);
    };
    section(tr("Callers"), m_sandwich->callers, false);
    section(tr("Callees"), m_sandwich->callees, true);
    m_butterfly->resizeColumnToContents(1);
    m_butterfly->resizeColumnToContents(2);
}

void SandwichWidget::showDiffSandwich(std::shared_ptr<const DiffSandwich> diff)
{
    m_diff = std::move(diff);
    m_sandwich.reset();
    m_butterfly->clear();
    const TrialPtr trial = selection()->trial();
    if (!m_diff || !trial || (m_diff->a.occurrences == 0 && m_diff->b.occurrences == 0)) {
        m_title->setText(
            tr("<b>%1</b> does not occur in the call paths of either run.").arg(m_routine.toHtmlEscaped()));
        m_callers->showTree(nullptr);
        m_callees->showTree(nullptr);
        return;
    }
    const MetricId m = selection()->metric().isValid() ? selection()->metric() : MetricId(std::size_t(0));
    auto percent = [](double a, double b) -> QString {
        return a != 0 ? formatPercentChange(100.0 * (a - b) / a) : QStringLiteral("—");
    };
    const Sandwich& a = m_diff->a;
    const Sandwich& b = m_diff->b;
    m_title->setText(tr("<b>%1</b> — A: in %2 call paths, inclusive %3; B: in %4 call paths, inclusive %5; "
                        "Δ = A − B: %6 (%7) (%8, mean over threads). Callers above, callees below; blue = B "
                        "cheaper, red = B dearer, ◀ only in A, ▶ only in B.")
                         .arg(m_routine.toHtmlEscaped())
                         .arg(a.occurrences)
                         .arg(valueText(a.inclusive))
                         .arg(b.occurrences)
                         .arg(valueText(b.inclusive), valueText(a.inclusive - b.inclusive),
                             percent(a.inclusive, b.inclusive), trial->metric(m).name));
    m_callers->showDiffTree(std::shared_ptr<const DiffFlameTree>(m_diff, &m_diff->callers));
    m_callees->showDiffTree(std::shared_ptr<const DiffFlameTree>(m_diff, &m_diff->callees));
    m_butterfly->setColumnCount(5);
    m_butterfly->setHeaderLabels({ tr("Callers and callees"), tr("A"), tr("B"), tr("Δ = A − B"), tr("Δ%") });
    auto section = [&](const QString& title, const DiffFlameTree& d) {
        auto* top = new QTreeWidgetItem(m_butterfly, { title });
        QFont bold = top->font(0);
        bold.setBold(true);
        top->setFont(0, bold);
        const FlameTree& tree = d.tree();
        for (int root : tree.roots())
            for (int child : tree.node(root).children) {
                const auto& sa = d.a(child);
                const auto& sb = d.b(child);
                const QString marker = d.onlyInA(child) ? QStringLiteral("◀ ")
                    : d.onlyInB(child)                  ? QStringLiteral("▶ ")
                                                        : QString();
                auto* item = new QTreeWidgetItem(top,
                    { marker + tree.node(child).name, sa.present ? valueText(sa.inclusive) : tr("—"),
                        sb.present ? valueText(sb.inclusive) : tr("—"), valueText(d.delta(child)),
                        percent(sa.inclusive, sb.inclusive) });
                for (int col = 1; col < 5; ++col)
                    item->setTextAlignment(col, Qt::AlignRight | Qt::AlignVCenter);
                item->setToolTip(0, tree.node(child).name);
            }
        top->setExpanded(true);
    };
    section(tr("Callers"), m_diff->callers);
    section(tr("Callees"), m_diff->callees);
    for (int col = 1; col < 5; ++col)
        m_butterfly->resizeColumnToContents(col);
}

} // namespace parallax
