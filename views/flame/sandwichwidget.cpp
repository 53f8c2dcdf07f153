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
    m_butterfly->setColumnCount(3);
    m_butterfly->setHeaderLabels({ tr("Callers and callees"), tr("Inclusive"), tr("Own") });
    m_butterfly->setRootIsDecorated(true);
    m_butterfly->header()->setSectionResizeMode(0, QHeaderView::Stretch);

    auto* flames = new QSplitter(Qt::Vertical, this);
    flames->addWidget(m_callers);
    flames->addWidget(m_callees);
    auto* split = new QSplitter(Qt::Horizontal, this);
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

SandwichWidget::~SandwichWidget() { m_job.cancelAndWait(); }

SandwichWidget* SandwichWidget::open(SelectionState* state, const QString& routine, QWidget* parent)
{
    auto* w = new SandwichWidget(state, routine, parent);
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
    m_job.start(
        [trial, metric, routine = m_routine](const std::atomic_bool&) {
            return std::make_shared<const Sandwich>(sandwichOf(FlameTree::of(*trial, metric), routine));
        },
        [this](std::shared_ptr<const Sandwich> s) { showSandwich(std::move(s)); });
}

void SandwichWidget::showSandwich(std::shared_ptr<const Sandwich> sandwich)
{
    m_sandwich = std::move(sandwich);
    m_butterfly->clear();
    const TrialPtr trial = selection()->trial();
    if (!m_sandwich || !trial || m_sandwich->occurrences == 0) {
        m_title->setText(
            tr("<b>%1</b> does not occur in the call paths of this trial.").arg(m_routine.toHtmlEscaped()));
        m_callers->showTree(nullptr);
        m_callees->showTree(nullptr);
        return;
    }
    const MetricId m = selection()->metric().isValid() ? selection()->metric() : MetricId(std::size_t(0));
    auto value = [&](double v) -> QString {
        return formatMetricValue(v, trial->metric(m), selection()->timeUnit()) + QLatin1Char(' ')
            + unitLabel(trial->metric(m), selection()->timeUnit());
    };
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

} // namespace parallax
