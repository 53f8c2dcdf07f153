// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The Databases dock's Upload dialog: trial, application, experiment, name.
#include "app/gui/databasepanel.h"
#include "app/gui/databasepanelshared.h"
#include "perfdb/databaselocation.h"
#include "views/userevents/trialmanagermodel.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <memory>

namespace parallax {

using namespace databasepanel;

void DatabasePanel::askUpload(const PendingUpload& pending)
{
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("uploadDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Upload to Database"));
    auto* form = new QFormLayout(dialog);

    auto* trialCombo = new QComboBox(dialog);
    trialCombo->setObjectName(QStringLiteral("trial"));
    if (pending.trial) {
        trialCombo->addItem(pending.trial->name());
        trialCombo->setEnabled(false);
    } else if (m_trials) {
        for (int id : m_trials->trialIds())
            trialCombo->addItem(m_trials->trial(id)->name(), id);
    }
    auto* summary = new QLabel(dialog);
    summary->setForegroundRole(QPalette::PlaceholderText);
    auto* database = new QComboBox(dialog);
    database->setObjectName(QStringLiteral("database"));
    database->setEditable(true);
    database->addItems(locations());
    if (!pending.target.location.isEmpty()) {
        if (database->findText(pending.target.location) < 0)
            database->addItem(pending.target.location);
        database->setCurrentText(pending.target.location);
    }
    database->setToolTip(tr("An SQLite file or postgresql://user@host:port/db"));
    database->setMinimumContentsLength(36);
    auto* application = new QLineEdit(dialog);
    application->setObjectName(QStringLiteral("application"));
    auto* experiment = new QLineEdit(dialog);
    experiment->setObjectName(QStringLiteral("experiment"));
    auto* name = new QLineEdit(dialog);
    name->setObjectName(QStringLiteral("name"));
    application->setToolTip(
        tr("Stored as the trial's \"Application\" metadata; the database tree groups trials by it"));
    experiment->setToolTip(tr("Stored as the trial's \"Experiment\" metadata"));

    // The chosen trial: the dropped one, or one of the open trials.
    auto chosen = std::make_shared<std::shared_ptr<const Trial>>(pending.trial);
    const UploadTarget target = pending.target;
    auto choose = [this, chosen, trialCombo, summary, application, experiment, name, target] {
        if (!chosen->get() || trialCombo->isEnabled())
            *chosen = m_trials && trialCombo->currentIndex() >= 0 ? m_trials->trial(trialCombo->currentData().toInt())
                                                                  : nullptr;
        const Trial* t = chosen->get();
        if (!t) {
            summary->setText(tr("No trial is open: open or drop a profile first"));
            return;
        }
        const QLocale locale;
        auto count = [&](std::size_t n, const QString& one, const QString& many) {
            return n == 1 ? one : many.arg(locale.toString(static_cast<qulonglong>(n)));
        };
        summary->setText(QStringList { count(t->threadCount(), tr("1 thread"), tr("%1 threads")),
            count(t->eventCount(), tr("1 event"), tr("%1 events")),
            count(t->metricCount(), tr("1 metric"), tr("%1 metrics")) }
                             .join(QLatin1String(", ")));
        summary->setToolTip(t->provenance().source);
        // The node it was dropped on decides; otherwise the trial's own metadata.
        application->setText(target.application.value_or(t->metadataValue(ApplicationKey)));
        experiment->setText(target.experiment.value_or(t->metadataValue(ExperimentKey)));
        name->setText(t->name());
    };
    choose();
    connect(trialCombo, &QComboBox::currentIndexChanged, dialog, choose);

    form->addRow(tr("Trial:"), trialCombo);
    form->addRow(QString(), summary);
    form->addRow(tr("Database:"), database);
    form->addRow(tr("Application:"), application);
    form->addRow(tr("Experiment:"), experiment);
    form->addRow(tr("Trial name:"), name);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    QPushButton* ok = buttons->button(QDialogButtonBox::Ok);
    ok->setText(tr("Upload"));
    auto updateOk
        = [ok, database, chosen] { ok->setEnabled(chosen->get() && !database->currentText().trimmed().isEmpty()); };
    updateOk();
    connect(database, &QComboBox::currentTextChanged, dialog, updateOk);
    connect(trialCombo, &QComboBox::currentIndexChanged, dialog, updateOk);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(dialog, &QDialog::finished, this,
        [this, dialog, chosen, database, application, experiment, name, target](int result) {
            const QString location = database->currentText().trimmed();
            if (result != QDialog::Accepted || !chosen->get() || location.isEmpty()) {
                Q_EMIT uploadCancelled(target.location);
                uploadFinished();
                return;
            }
            perfdb::UploadOptions options;
            options.application = application->text().trimmed();
            options.experiment = experiment->text().trimmed();
            options.name = name->text().trimmed();
            dialog->hide();
            addDatabase(location);
            startUpload(*chosen, location, options);
        });
    dialog->open();
    name->setFocus();
}

} // namespace parallax
