// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// MainWindow's windows over other trials: comparisons (with a dialog, by drag and drop), derived
// metrics and the trials they make, semantic views, the growth at scale of several runs. The window itself, its views,
// docks, actions and loading are in mainwindow.cpp.
#include "algebra/derivedmetric.h"
#include "algebra/snapshotseries.h"
#include "app/gui/comparisonlauncher.h"
#include "app/gui/databasepanel.h"
#include "app/gui/growthcontroller.h"
#include "app/gui/historylauncher.h"
#include "app/gui/mainwindow.h"
#include "datasource/readers/readerregistry.h"
#include "views/comparison/comparisonwindow.h"
#include "views/derived/derivedmetricdialog.h"
#include "views/selectionstate.h"
#include "views/semantic/semanticwindow.h"
#include "views/userevents/trialmanagermodel.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDropEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QStatusBar>
#include <QTreeView>

namespace parallax {

std::vector<std::shared_ptr<const Trial>> MainWindow::openTrials() const
{
    std::vector<std::shared_ptr<const Trial>> out;
    for (int g = 0; g < m_trials->rowCount(); ++g) {
        const QModelIndex group = m_trials->index(g, 0);
        for (int r = 0; r < m_trials->rowCount(group); ++r)
            if (auto t = m_trials->trialForIndex(m_trials->index(r, 0, group)))
                out.push_back(std::move(t));
    }
    return out;
}

void MainWindow::compareTrials(std::shared_ptr<const Trial> a, std::shared_ptr<const Trial> b)
{
    if (!a || !b)
        return;
    rememberComparisonChoices(ComparisonWindow::open(std::move(a), std::move(b), {}, this));
}

QString MainWindow::chooseOrderKey(const std::vector<std::shared_ptr<const Trial>>& trials, const QString& title)
{
    // The keys every trial has, the likeliest order first.
    QStringList keys;
    for (const MetadataEntry& entry : trials.front()->metadata()) {
        const QString key = trials.front()->strings().get(entry.key);
        if (std::all_of(
                trials.begin(), trials.end(), [&key](const auto& t) { return !t->metadataValue(key).isEmpty(); }))
            keys << key;
    }
    keys.sort(Qt::CaseInsensitive);
    if (keys.isEmpty()) {
        QMessageBox::information(
            this, title, tr("The selected trials have no metadata key in common to order them by."));
        return {};
    }
    const auto date = keys.indexOf(QStringLiteral("Date"));
    bool ok = false;
    const QString key = QInputDialog::getItem(this, title, tr("Order the trials by the metadata key:"), keys,
        date >= 0 ? static_cast<int>(date) : 0, true, &ok);
    return ok ? key.trimmed() : QString();
}

void MainWindow::openHistoryOfTrials(const std::vector<std::shared_ptr<const Trial>>& trials)
{
    if (trials.size() < 2)
        return;
    const QString key = chooseOrderKey(trials, tr("Performance History"));
    if (key.isEmpty())
        return;
    QStringList labels;
    for (const auto& t : trials)
        labels << t->name();
    openHistory(historyOfTrials(trials, labels, key), this);
}

void MainWindow::openSnapshotsOfTrials(const std::vector<std::shared_ptr<const Trial>>& trials, QString key)
{
    if (trials.size() < 2)
        return;
    if (key.isEmpty())
        key = chooseOrderKey(trials, tr("Time Series"));
    if (key.isEmpty())
        return;
    // One run's cumulative profiles as the snapshots of one trial (docs/SEMANTICS.md 1.11), made off
    // the GUI thread; the Time Series tab shows it.
    m_progressBar->setVisible(true);
    m_progressBar->setRange(0, 0);
    runInBackground(
        this, [trials, key] { return snapshotsOfTrials(trials, key); },
        [this, key, count = trials.size()](const AlgebraResult& result) {
            m_progressBar->setVisible(false);
            if (!result) {
                m_statusLabel->setText(result.error());
                Q_EMIT loadFailed(result.error());
                if (m_interactive)
                    QMessageBox::warning(this, tr("Time Series"), result.error());
                return;
            }
            addDerivedTrial(result.trial(), tr("Added the time series of %1 trials ordered by %2").arg(count).arg(key));
            selectTab(QStringLiteral("timeseries"));
        });
}

void MainWindow::openGrowth(const QStringList& paths, const QString& format, const ScalingModelRequest& request)
{
    m_growthLaunch = true;
    m_growth->openRuns(paths, format, request);
}

void MainWindow::openForComparison(std::shared_ptr<const Trial> baseline)
{
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Open a Profile to Compare with %1").arg(baseline->name()), m_lastDirectory);
    if (dir.isEmpty())
        return;
    // The next trial that finishes loading is the candidate B.
    m_compareBaseline = std::move(baseline);
    openPath(dir);
}

void MainWindow::compareDialog()
{
    const auto trials = openTrials();
    if (trials.size() < 2) {
        QMessageBox::information(this, tr("Compare Trials"),
            tr("Open two trials first (files or database trials), or use File › Open for Comparison…"));
        return;
    }
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Compare Trials"));
    auto* form = new QFormLayout(&dialog);
    auto* a = new QComboBox;
    auto* b = new QComboBox;
    for (const auto& t : trials) {
        a->addItem(t->name());
        b->addItem(t->name());
    }
    b->setCurrentIndex(1);
    form->addRow(tr("Baseline (A):"), a);
    form->addRow(tr("Candidate (B):"), b);
    form->addRow(new QLabel(tr("Δ = A − B: positive means B is cheaper (an improvement).")));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;
    compareTrials(
        trials[static_cast<std::size_t>(a->currentIndex())], trials[static_cast<std::size_t>(b->currentIndex())]);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_trialView->viewport()
        && (event->type() == QEvent::DragEnter || event->type() == QEvent::DragMove || event->type() == QEvent::Drop)) {
        auto* drag = static_cast<QDropEvent*>(event);
        const std::vector<int> ids = m_trials->trialIdsFromMimeData(drag->mimeData());
        const auto target = m_trials->trialForIndex(m_trialView->indexAt(drag->position().toPoint()));
        const auto source = ids.size() == 1 ? m_trials->trial(ids.front()) : nullptr;
        const bool usable = source && target && source != target;
        if (event->type() == QEvent::DragEnter) {
            // Accept the drag as a whole; the move events say where a drop would compare.
            if (!ids.empty()) {
                drag->acceptProposedAction();
                return true;
            }
            return false;
        }
        if (event->type() == QEvent::DragMove) {
            if (usable)
                drag->acceptProposedAction();
            else
                drag->ignore();
            return true;
        }
        if (usable) {
            drag->acceptProposedAction();
            compareTrials(source, target);
        }
        return true;
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::deriveMetricDialog(const std::shared_ptr<const Trial>& source)
{
    DerivedMetricDialog dialog(source, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const auto definitions = dialog.definitions();
    const DerivedMode mode = dialog.mode();
    // The new trial (a copy with the extra metrics) is computed off the GUI thread.
    m_progressBar->setVisible(true);
    m_progressBar->setRange(0, 0);
    runInBackground(
        this, [source, definitions, mode] { return deriveMetrics(*source, definitions, mode); },
        [this](const AlgebraResult& result) {
            m_progressBar->setVisible(false);
            if (!result) {
                m_statusLabel->setText(result.error());
                if (m_interactive)
                    QMessageBox::warning(this, tr("Derive a Metric"), result.error());
                return;
            }
            addDerivedTrial(result.trial(),
                tr("Added %1 — the metric is in the Metric selector of every view")
                    .arg(result.trial()->metric(MetricId(result.trial()->metricCount() - 1)).name));
        });
}

void MainWindow::addDerivedTrial(const std::shared_ptr<const Trial>& trial, const QString& message)
{
    const int id = m_trials->addTrial(trial);
    m_trialView->expand(m_trials->indexForGroup(TrialManagerModel::FilesGroup));
    m_trialView->setCurrentIndex(m_trials->indexForTrial(id));
    m_trialView->expand(m_trials->indexForTrial(id));
    showTrial(trial);
    m_statusLabel->setText(message);
}

void MainWindow::openSemanticView(const std::shared_ptr<const Trial>& trial)
{
    if (!trial)
        return;
    // A trial from an experiment database opens with the newest semantic model attached to it
    // (db model attach): its semantic profile is computed on load. Others start with a chooser.
    const Provenance& p = trial->provenance();
    if (p.reader != QLatin1String("perfdb") || !p.source.contains(QLatin1Char('#'))) {
        SemanticWindow::open(trial, m_state, {}, this);
        return;
    }
    const QString location = p.source.section(QLatin1Char('#'), 0, -2);
    const qint64 id = p.source.section(QLatin1Char('#'), -1).toLongLong();
    struct Attached {
        QByteArray json;
        QString name;
        QString error;
    };
    runInBackground(
        this,
        [location, id] {
            Attached out;
            auto db = perfdb::Database::open(location);
            if (!db) {
                out.error = db.error().toString();
                return out;
            }
            auto models = db.value()->semanticModelsOfTrial(id);
            if (!models) {
                out.error = models.error().toString();
                return out;
            }
            if (!models.value().empty()) {
                const perfdb::StoredSemanticModel& newest = models.value().back();
                out.json = newest.json;
                out.name = QStringLiteral("%1@%2 (attached)").arg(newest.info.name).arg(newest.info.version);
            }
            return out;
        },
        [this, trial](const Attached& attached) {
            SemanticModelSource source;
            if (!attached.json.isEmpty()) {
                auto parsed = semantic::parseModel(attached.json, attached.name);
                if (auto* model = std::get_if<semantic::Model>(&parsed)) {
                    source.kind = SemanticModelSource::Kind::Given;
                    source.name = attached.name;
                    source.model = *model;
                } else {
                    statusBar()->showMessage(std::get<semantic::ModelError>(parsed).toString(), 10000);
                }
            } else if (!attached.error.isEmpty()) {
                statusBar()->showMessage(attached.error, 10000);
            }
            SemanticWindow::open(trial, m_state, source, this);
        });
}

} // namespace parallax
