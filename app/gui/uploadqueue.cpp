// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The Databases dock's uploads: the queue (one upload at a time), the job and its progress dialog.
#include "app/gui/databasepanel.h"
#include "app/gui/databasepanelshared.h"
#include "app/gui/loadjob.h"
#include "datasource/readers/progress.h"
#include "perfdb/databaselocation.h"
#include "views/userevents/trialmanagermodel.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QProgressDialog>
#include <QTimer>
#include <algorithm>
#include <memory>

namespace parallax {

using namespace databasepanel;

void DatabasePanel::upload(
    std::shared_ptr<const Trial> trial, const QString& location, const perfdb::UploadOptions& options)
{
    if (!trial)
        return;
    addDatabase(location);
    PendingUpload pending;
    pending.trial = std::move(trial);
    pending.target.location = location;
    pending.ask = false;
    pending.options = options;
    enqueue(std::move(pending));
}

void DatabasePanel::uploadInteractively(std::shared_ptr<const Trial> trial, const UploadTarget& target)
{
    PendingUpload pending;
    pending.trial = std::move(trial);
    pending.chooseTrial = !pending.trial;
    pending.target = target;
    enqueue(std::move(pending));
}

void DatabasePanel::uploadPath(const QString& path, const UploadTarget& target)
{
    PendingUpload pending;
    pending.path = path;
    pending.target = target;
    enqueue(std::move(pending));
}

void DatabasePanel::enqueue(PendingUpload pending)
{
    m_queue.push_back(std::move(pending));
    processQueue();
}

void DatabasePanel::processQueue()
{
    if (m_uploading || m_queue.empty())
        return;
    PendingUpload next = std::move(m_queue.front());
    m_queue.pop_front();
    m_uploading = true;
    Q_EMIT busy(true);
    if (!next.trial && !next.chooseTrial) {
        m_loadTarget = next.target;
        showProgressDialog(tr("Loading %1…").arg(QDir::toNativeSeparators(next.path)));
        m_loadJob->start(next.path);
        return;
    }
    if (next.ask)
        askUpload(next);
    else
        startUpload(next.trial, next.target.location, next.options);
}

void DatabasePanel::uploadFinished()
{
    m_uploading = false;
    m_uploadProgress.reset();
    if (m_queue.empty() && m_running == 0)
        Q_EMIT busy(false);
    // The next one after this turn of the event loop: the finished one's dialogs are gone by then.
    QTimer::singleShot(0, this, &DatabasePanel::processQueue);
}

void DatabasePanel::cancelUpload()
{
    if (m_loadJob->isRunning())
        m_loadJob->cancel();
    if (m_uploadProgress)
        m_uploadProgress->cancel();
}

void DatabasePanel::startUpload(
    const std::shared_ptr<const Trial>& trial, const QString& location, const perfdb::UploadOptions& options)
{
    const QString trialName = options.name.isEmpty() ? trial->name() : options.name;
    auto progress = makeProgress();
    m_uploadProgress = progress;
    auto id = std::make_shared<qint64>(0);
    showProgressDialog(tr("Uploading %1 to %2…").arg(trialName, displayLocation(location)));
    run(
        location, tr("Uploading %1").arg(trialName),
        [trial, options, progress, id](perfdb::Database& db) -> QString {
            const auto stored = db.uploadTrial(*trial, options, *progress);
            if (!stored)
                return stored.error().toString();
            *id = stored.value();
            return {};
        },
        [this, location, id] {
            closeProgressDialog();
            Q_EMIT message(tr("Stored as trial %1 in %2").arg(*id).arg(displayableLocation(location)));
            refresh(location, *id);
            Q_EMIT uploaded(location, *id);
            uploadFinished();
        },
        [this, location, progress](const QString& error) {
            closeProgressDialog();
            if (progress->isCancelled()) {
                // The upload is one transaction: a cancel rolls it back.
                Q_EMIT message(tr("Upload to %1 cancelled; nothing was stored").arg(displayableLocation(location)));
                Q_EMIT uploadCancelled(location);
            } else {
                Q_EMIT failed(error);
            }
            uploadFinished();
        });
}

void DatabasePanel::showProgressDialog(const QString& title)
{
    closeProgressDialog();
    auto* dialog = new QProgressDialog(this);
    dialog->setObjectName(QStringLiteral("uploadProgress"));
    dialog->setWindowTitle(tr("Database"));
    // Not modal: a modal QProgressDialog processes events inside setValue(), and the rest of the
    // window has no reason to wait.
    dialog->setWindowModality(Qt::NonModal);
    dialog->setAutoClose(false);
    dialog->setAutoReset(false);
    dialog->setMinimumDuration(300);
    dialog->setMinimumWidth(420);
    dialog->setRange(0, 0);
    m_progressTitle = title;
    dialog->setLabelText(title);
    connect(dialog, &QProgressDialog::canceled, this, &DatabasePanel::cancelUpload);
    m_progressDialog = dialog;
}

void DatabasePanel::updateProgressDialog(const QString& stage, qint64 done, qint64 total)
{
    if (!m_progressDialog || m_progressDialog->wasCanceled())
        return;
    const QLocale locale;
    QString text = m_progressTitle + QLatin1Char('\n') + stage;
    if (total > 0)
        text += tr(" (%1 of %2)").arg(locale.toString(done), locale.toString(total));
    m_progressDialog->setLabelText(text);
    const qint64 scale = total > 1000000 ? total / 1000000 + 1 : 1;
    m_progressDialog->setMaximum(total > 0 ? static_cast<int>(total / scale) : 0);
    m_progressDialog->setValue(total > 0 ? static_cast<int>(std::min(done, total) / scale) : 0);
}

void DatabasePanel::closeProgressDialog()
{
    if (!m_progressDialog)
        return;
    QProgressDialog* dialog = m_progressDialog;
    m_progressDialog = nullptr;
    // Closing a progress dialog cancels it: this one has finished.
    disconnect(dialog, &QProgressDialog::canceled, this, &DatabasePanel::cancelUpload);
    dialog->hide();
    dialog->deleteLater();
}

} // namespace parallax
