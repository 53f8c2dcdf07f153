// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The main window's live monitoring (issue 19 §2): a LiveMonitor's trials in the Trials dock and the
// views, the user's choices kept across updates.
#include "app/gui/livemonitor.h"
#include "app/gui/mainwindow.h"
#include "views/selectionstate.h"
#include "views/userevents/trialmanagermodel.h"

#include <QLabel>
#include <QStatusBar>
#include <QTimer>
#include <QTreeView>
#include <optional>

namespace parallax {

void MainWindow::monitorDirectory(const QString& directory, const QString& format)
{
    delete m_live;
    m_live = new LiveMonitor(directory, format, this);
    m_liveTrialId = -1;
    if (!m_liveLabel) {
        m_liveLabel = new QLabel(this);
        m_liveLabel->setToolTip(tr("Parallax follows this directory: each complete update of its files is read"));
        statusBar()->addPermanentWidget(m_liveLabel);
    }
    m_liveLabel->setText(m_live->statusText());
    m_liveLabel->show();
    connect(m_live, &LiveMonitor::statusChanged, m_liveLabel, &QLabel::setText);
    connect(m_live, &LiveMonitor::updated, this, &MainWindow::showLiveTrial);
}

void MainWindow::showLiveTrial(const std::shared_ptr<const Trial>& trial)
{
    const std::shared_ptr<const Trial> shown = m_state->trial();
    const bool first = m_liveTrialId < 0;
    const bool following = first || (shown && m_trials->trial(m_liveTrialId) == shown);
    // What the user looks at, by name, to find again in the new trial.
    QString metric;
    QString event;
    std::optional<ThreadKey> thread;
    if (!first && following) {
        if (m_state->metric().isValid())
            metric = shown->metric(m_state->metric()).name;
        if (m_state->event().isValid())
            event = shown->event(m_state->event()).name;
        if (m_state->thread().isValid())
            thread = shown->threadKey(m_state->thread());
    }
    if (!first)
        m_trials->removeTrial(m_liveTrialId);
    m_liveTrialId = m_trials->addTrial(trial);
    if (!following)
        return; // the user is looking at another trial: the list has the new one
    {
        const QSignalBlocker block(m_trialView->selectionModel());
        m_trialView->expand(m_trials->indexForGroup(TrialManagerModel::FilesGroup));
        m_trialView->setCurrentIndex(m_trials->indexForTrial(m_liveTrialId));
    }
    showTrial(trial, !first); // a newer state of the same run: the views keep scroll positions and zoom
    if (!metric.isEmpty()) {
        const MetricId m = trial->findMetric(metric);
        if (m.isValid())
            m_state->setMetric(m);
    }
    if (!event.isEmpty()) {
        const EventId e = trial->findEvent(event);
        if (e.isValid())
            m_state->selectEvent(e);
    }
    if (thread) {
        const ThreadIndex t = trial->findThread(*thread);
        if (t.isValid())
            m_state->selectThread(t);
    }
    m_statusLabel->setText(tr("Live: %1 updated at %2, %3 threads")
                               .arg(trial->name(), m_live ? m_live->lastUpdate().time().toString() : QString())
                               .arg(trial->threadCount()));
    if (first)
        QTimer::singleShot(0, this, &MainWindow::trialShown);
}

} // namespace parallax
