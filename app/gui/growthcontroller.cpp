// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/gui/growthcontroller.h"

#include "views/comparison/growthoverlay.h"
#include "views/comparison/scalingbuilder.h"
#include "views/selectionstate.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolButton>
#include <cmath>

namespace parallax {

GrowthController::GrowthController(SelectionState* state, QStatusBar* bar, QWidget* dialogParent)
    : QObject(dialogParent)
    , m_state(state)
    , m_dialogParent(dialogParent)
    , m_progress(new QProgressBar(bar))
    , m_cancel(new QToolButton(bar))
    , m_label(new QLabel(bar))
{
    m_progress->setMaximumWidth(220);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(true);
    m_progress->setVisible(false);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop fitting the growth models"));
    m_cancel->setVisible(false);
    m_label->setTextFormat(Qt::RichText);
    m_label->setVisible(false);
    bar->addPermanentWidget(m_label);
    bar->addPermanentWidget(m_progress);
    bar->addPermanentWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, this, [this] {
        m_fitJob.cancel();
        m_readJob.cancel();
        setBusy(false);
    });
    connect(m_label, &QLabel::linkActivated, this, [this] { clear(); });
    connect(m_state, &SelectionState::growthChanged, this, &GrowthController::updateLabel);
    m_fitJob.followProgress(
        this, [this](int step) { m_progress->setValue(step); },
        [this](const QString& text) { m_progress->setFormat(text); });
}

GrowthController::~GrowthController()
{
    m_fitJob.cancelAndWait();
    m_readJob.cancelAndWait();
}

void GrowthController::ask(const std::vector<TrialPtr>& runs)
{
    if (runs.size() < 2)
        return;
    ScalingSnapshot runsOnly; // the parameters need the runs' metadata only
    runsOnly.trials = runs;
    const QStringList parameters = ScalingModels::parameters(runsOnly);
    if (parameters.isEmpty()) {
        QMessageBox::information(m_dialogParent, tr("Growth at Scale"),
            tr("The selected runs have no parameter to model them over: their thread counts are equal and no numeric "
               "metadata key differs between them."));
        return;
    }
    QDialog dialog(m_dialogParent);
    dialog.setWindowTitle(tr("Growth at Scale from %n Trial(s)", nullptr, static_cast<int>(runs.size())));
    auto* parameter = new QComboBox(&dialog);
    parameter->addItems(parameters);
    parameter->setToolTip(tr("The parameter p of the models: each run's thread count, or a metadata key with a number "
                             "in every run (process counts first)"));
    auto* target = new QSpinBox(&dialog);
    target->setRange(1, 1000000000);
    target->setGroupSeparatorShown(true);
    target->setValue(65536);
    target->setToolTip(tr("Predict every call path's value at this parameter value P"));
    auto* value = new QComboBox(&dialog);
    value->addItem(tr("Exclusive (the call path's own time)"), static_cast<int>(ScalingValue::Exclusive));
    value->addItem(tr("Inclusive (with its callees)"), static_cast<int>(ScalingValue::Inclusive));
    value->setToolTip(tr("The value the call tree's Model and Growth columns and the CUBE browser show; the flame "
                         "graph's frames are inclusive, so it colours by the inclusive growth"));
    auto* form = new QFormLayout(&dialog);
    form->addRow(new QLabel(tr("Fit Extra-P's model of every call path over the runs and show how much each grows "
                               "from the largest run to P (docs/SEMANTICS.md §10.6)."),
        &dialog));
    form->addRow(tr("Parameter:"), parameter);
    form->addRow(tr("Predict at P ="), target);
    form->addRow(tr("Value:"), value);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return;
    ScalingModelRequest request;
    request.parameter = parameter->currentText();
    request.target = target->value();
    request.value = static_cast<ScalingValue>(value->currentData().toInt());
    fit(runs, request);
}

GrowthFit GrowthController::compute(const std::vector<TrialPtr>& runs, ScalingModelRequest request,
    const std::atomic_bool* cancel, const std::function<void(int, const QString&)>& progress)
{
    GrowthFit fit;
    if (progress)
        progress(0, tr("Statistics of %n run(s)…", nullptr, static_cast<int>(runs.size())));
    const auto snapshot = ScalingBuilder::build(runs);
    if (cancel && cancel->load()) {
        fit.cancelled = true;
        return fit;
    }
    if (request.parameter.isEmpty()) {
        const QStringList parameters = ScalingModels::parameters(*snapshot);
        if (parameters.isEmpty()) {
            fit.error = tr("the runs have no parameter to model them over (equal thread counts, no numeric metadata "
                           "key that differs)");
            return fit;
        }
        request.parameter = parameters.front();
    }
    const auto set = ScalingModels::build(*snapshot, request, cancel, [&progress](int done, int total) {
        if (progress)
            progress(
                total > 0 ? 1000 * done / total : 1000, tr("Fitting models: %1 of %2 call paths").arg(done).arg(total));
    });
    if (set->cancelled) {
        fit.cancelled = true;
        return fit;
    }
    if (!set->error.isEmpty()) {
        fit.error = set->error;
        return fit;
    }
    double largest = -std::numeric_limits<double>::infinity();
    for (const TrialPtr& run : snapshot->trials) {
        const double p = ScalingModels::parameterValue(*run, request.parameter);
        if (p > largest) {
            largest = p;
            fit.largest = run;
        }
    }
    fit.overlay = std::make_shared<const GrowthOverlay>(set, runs.size(), fit.largest->name());
    return fit;
}

void GrowthController::fit(std::vector<TrialPtr> runs, const ScalingModelRequest& request)
{
    setBusy(true, tr("Statistics of %n run(s)…", nullptr, static_cast<int>(runs.size())));
    m_fitJob.startWithProgress(
        1000,
        [runs = std::move(runs), request](
            const std::atomic_bool& cancel, const auto& progress) { return compute(runs, request, &cancel, progress); },
        [this](const GrowthFit& fit) { deliver(fit); });
}

void GrowthController::openRuns(const QStringList& paths, const QString& format, const ScalingModelRequest& request)
{
    m_pending = request;
    setBusy(true, tr("Reading %n run(s)…", nullptr, static_cast<int>(paths.size())));
    m_readJob.start([paths, format](const std::atomic_bool&) { return readTrials(paths, format); },
        [this](const LoadedTrials& loaded) {
            if (!loaded.error.isEmpty()) {
                setBusy(false);
                Q_EMIT failed(loaded.error);
                return;
            }
            Q_EMIT runsRead(loaded.trials);
            fit(loaded.trials, m_pending);
        });
}

void GrowthController::waitForResult()
{
    m_readJob.waitAndDeliver();
    m_fitJob.waitAndDeliver();
}

void GrowthController::deliver(const GrowthFit& fit)
{
    setBusy(false);
    if (fit.cancelled)
        return;
    if (!fit.error.isEmpty()) {
        Q_EMIT failed(tr("Growth at scale: %1").arg(fit.error));
        return;
    }
    Q_EMIT showRun(fit.largest);
    m_state->setGrowth(fit.overlay);
    Q_EMIT attached();
}

void GrowthController::clear() { m_state->setGrowth(nullptr); }

void GrowthController::setBusy(bool busy, const QString& text)
{
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    if (busy) {
        m_progress->setValue(0);
        m_progress->setFormat(text);
    }
}

void GrowthController::updateLabel()
{
    const GrowthOverlay* growth = m_state->growth().get();
    m_label->setVisible(growth != nullptr);
    if (growth)
        m_label->setText(tr("Showing %1 <a href=\"#clear\">Clear</a>").arg(growth->description().toHtmlEscaped()));
}

} // namespace parallax
