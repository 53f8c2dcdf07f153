// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "app/gui/launchsupport.h"
#include "datasource/model/trial.h"
#include "views/common/job.h"
#include "views/comparison/scalingmodels.h"

#include <QObject>
#include <QStringList>
#include <memory>
#include <vector>

class QLabel;
class QProgressBar;
class QStatusBar;
class QToolButton;
class QWidget;

namespace parallax {

class GrowthOverlay;
class SelectionState;

/// The models of a scaling study fitted for the main window, and the run it shows them on.
struct GrowthFit {
    std::shared_ptr<const GrowthOverlay> overlay;
    TrialPtr largest; ///< the run with the largest parameter value
    QString error;
    bool cancelled = false;
};

/// "Growth at scale P" in the main window (issue 17 §2, docs/SEMANTICS.md §10.6): asks for the parameter,
/// the target P and the value, fits every call path's models over the chosen runs on a worker (progress
/// and Cancel in the status bar, as the scaling window's page fits them), then has the main window show
/// the run with the largest parameter value and attaches the models to the SelectionState, where the call
/// tree, the flame graph and the CUBE browser show them. The status bar says what is shown, with Clear.
class GrowthController : public QObject {
    Q_OBJECT
public:
    GrowthController(SelectionState* state, QStatusBar* bar, QWidget* dialogParent);
    ~GrowthController() override;

    /// Asks for the parameter, P and the value (a dialog), then fits().
    void ask(const std::vector<TrialPtr>& runs);
    /// Fits the models of `runs` (an empty request.parameter: the first of ScalingModels::parameters).
    void fit(std::vector<TrialPtr> runs, const ScalingModelRequest& request);
    /// Reads the runs off the GUI thread (runsRead()), then fits().
    void openRuns(const QStringList& paths, const QString& format, const ScalingModelRequest& request);
    /// Detaches the models from the views.
    void clear();
    bool isFitting() const { return m_fitJob.isRunning() || m_readJob.isRunning(); }
    /// Fits on the calling thread's worker and waits (tests): the result is delivered before it returns.
    void waitForResult();

    /// The work of fit(), on any thread: statistics of the runs, the parameter, the models, the largest run.
    static GrowthFit compute(const std::vector<TrialPtr>& runs, ScalingModelRequest request,
        const std::atomic_bool* cancel = nullptr, const std::function<void(int, const QString&)>& progress = {});

Q_SIGNALS:
    /// openRuns() read these (the main window lists them in the Trials dock).
    void runsRead(const std::vector<parallax::TrialPtr>& runs);
    /// The models are fitted: the main window shows this run; the models are attached right after.
    void showRun(const parallax::TrialPtr& run);
    /// The models are on the views.
    void attached();
    /// Reading or fitting failed (the message says why).
    void failed(const QString& message);

private:
    void deliver(const GrowthFit& fit);
    void setBusy(bool busy, const QString& text = {});
    void updateLabel();

    SelectionState* m_state;
    QWidget* m_dialogParent;
    QProgressBar* m_progress;
    QToolButton* m_cancel;
    QLabel* m_label;
    Job<GrowthFit> m_fitJob { this };
    Job<LoadedTrials> m_readJob { this };
    ScalingModelRequest m_pending; ///< the request of openRuns() while the runs are read
};

} // namespace parallax
