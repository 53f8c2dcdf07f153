// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The Databases dock's metadata editor: a stored trial's primary_metadata, saved in one transaction.
#include "app/gui/databasepanel.h"
#include "app/gui/databasepanelshared.h"
#include "perfdb/databaselocation.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <memory>
#include <vector>

namespace parallax {

using namespace databasepanel;

void DatabasePanel::editMetadata(const QString& location, qint64 id)
{
    auto info = std::make_shared<perfdb::TrialInfo>();
    auto entries = std::make_shared<std::vector<std::pair<QString, QString>>>();
    run(
        location, tr("Reading the metadata of trial %1").arg(id),
        [id, info, entries](perfdb::Database& db) -> QString {
            auto i = db.trialInfo(id);
            if (!i)
                return i.error().toString();
            *info = std::move(i.value());
            auto m = db.trialMetadata(id);
            if (!m)
                return m.error().toString();
            *entries = std::move(m.value());
            return {};
        },
        [this, location, info, entries] { showMetadataEditor(location, *info, *entries); });
}

void DatabasePanel::showMetadataEditor(
    const QString& location, const perfdb::TrialInfo& info, const std::vector<std::pair<QString, QString>>& entries)
{
    const qint64 id = info.id;
    std::map<QString, QString> original;
    for (const auto& [key, value] : entries)
        original.emplace(key, value.isNull() ? QString(QLatin1String("")) : value);

    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("metadataDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Edit Metadata — %1").arg(info.name));
    dialog->resize(680, 520);
    auto* layout = new QVBoxLayout(dialog);

    auto* header = new QLabel(tr("<b>%1</b> — trial %2 in %3")
                                  .arg(info.name.toHtmlEscaped())
                                  .arg(id)
                                  .arg(displayLocation(location).toHtmlEscaped()),
        dialog);
    header->setWordWrap(true);
    header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(header);
    auto* hint = new QLabel(tr("Application and Experiment place the trial in the database tree (empty: none). "
                               "Double-click a cell to change it; the changes are saved together when you press Save."),
        dialog);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(hint);

    auto* filter = new QLineEdit(dialog);
    filter->setObjectName(QStringLiteral("metadataFilter"));
    filter->setPlaceholderText(tr("Filter keys and values"));
    filter->setClearButtonEnabled(true);
    layout->addWidget(filter);

    auto* table = new QTableWidget(0, 2, dialog);
    table->setObjectName(QStringLiteral("metadataTable"));
    table->setHorizontalHeaderLabels({ tr("Key"), tr("Value") });
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->setTextElideMode(Qt::ElideMiddle);
    table->setEditTriggers(
        QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed);
    // Rows read from the database remember what they held (OriginalRole on both cells), so that
    // changes can be shown before they are saved.
    constexpr int OriginalRole = Qt::UserRole + 1;
    auto addRow = [table](const QString& key, const QString& value, bool pinned, bool stored) {
        const int row = table->rowCount();
        table->insertRow(row);
        auto* keyItem = new QTableWidgetItem(key);
        auto* valueItem = new QTableWidgetItem(value);
        valueItem->setToolTip(value);
        if (stored) {
            keyItem->setData(OriginalRole, key);
            valueItem->setData(OriginalRole, value);
        }
        if (pinned) {
            // Application and Experiment stay: an empty value removes the entry instead.
            keyItem->setFlags(keyItem->flags() & ~Qt::ItemIsEditable);
            QFont bold = keyItem->font();
            bold.setBold(true);
            keyItem->setFont(bold);
            keyItem->setData(Qt::UserRole, true);
            keyItem->setToolTip(tr("Where the trial is listed in the database tree; changing it moves the trial"));
        }
        table->setItem(row, 0, keyItem);
        table->setItem(row, 1, valueItem);
        return row;
    };
    const QString none = QLatin1String("");
    addRow(ApplicationKey, original.contains(ApplicationKey) ? original[ApplicationKey] : none, true, true);
    addRow(ExperimentKey, original.contains(ExperimentKey) ? original[ExperimentKey] : none, true, true);
    for (const auto& [key, value] : original)
        if (key != ApplicationKey && key != ExperimentKey)
            addRow(key, value, false, true);
    table->resizeColumnToContents(0);
    table->setColumnWidth(0, std::clamp(table->columnWidth(0) + 12, 140, 280));
    layout->addWidget(table, 1);

    auto* add = new QPushButton(tr("&Add"), dialog);
    add->setObjectName(QStringLiteral("addMetadata"));
    add->setToolTip(tr("Add a key/value entry"));
    auto* remove = new QPushButton(tr("&Remove"), dialog);
    remove->setObjectName(QStringLiteral("removeMetadata"));
    remove->setToolTip(tr("Remove the selected entries"));
    remove->setEnabled(false);
    auto* count = new QLabel(dialog);
    count->setObjectName(QStringLiteral("metadataCount"));
    count->setForegroundRole(QPalette::PlaceholderText);
    auto removed = std::make_shared<int>(0);
    auto updateCount = [table, count, removed] {
        // Tint what Save would change, and count it.
        QColor tint = table->palette().color(QPalette::Highlight);
        tint.setAlpha(64);
        int changed = 0;
        const QSignalBlocker blocker(table);
        for (int r = 0; r < table->rowCount(); ++r) {
            QTableWidgetItem* key = table->item(r, 0);
            QTableWidgetItem* value = table->item(r, 1);
            if (!key || !value)
                continue;
            const QVariant was = value->data(OriginalRole);
            const bool isChanged = was.isValid()
                ? key->text() != key->data(OriginalRole).toString() || value->text() != was.toString()
                : !key->text().isEmpty() || !value->text().isEmpty();
            changed += isChanged ? 1 : 0;
            const QBrush brush = isChanged ? QBrush(tint) : QBrush();
            key->setBackground(brush);
            value->setBackground(brush);
            value->setToolTip(!isChanged ? value->text()
                    : was.isValid()      ? tr("%1\n(was: %2)").arg(value->text(), was.toString())
                                         : tr("%1\n(new entry)").arg(value->text()));
        }
        QString text = table->rowCount() == 1 ? tr("1 entry") : tr("%1 entries").arg(table->rowCount());
        if (changed > 0 || *removed > 0)
            text += tr(" · %1 changed, %2 removed").arg(changed).arg(*removed);
        count->setText(text);
    };
    updateCount();
    connect(table, &QTableWidget::itemChanged, count, updateCount);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, dialog);
    auto* row = new QHBoxLayout;
    row->addWidget(add);
    row->addWidget(remove);
    row->addSpacing(8);
    row->addWidget(count);
    row->addStretch(1);
    row->addWidget(buttons);
    layout->addLayout(row);

    connect(filter, &QLineEdit::textChanged, table, [table](const QString& text) {
        for (int r = 0; r < table->rowCount(); ++r) {
            bool match = text.isEmpty();
            for (int c = 0; c < 2 && !match; ++c)
                match = table->item(r, c) && table->item(r, c)->text().contains(text, Qt::CaseInsensitive);
            table->setRowHidden(r, !match);
        }
    });
    connect(add, &QPushButton::clicked, table, [table, filter, addRow, updateCount] {
        filter->clear();
        const int r = addRow(QString(), QString(), false, false);
        updateCount();
        table->scrollToBottom();
        table->setCurrentCell(r, 0);
        table->editItem(table->item(r, 0));
    });
    auto pinned = [table](int r) { return table->item(r, 0) && table->item(r, 0)->data(Qt::UserRole).toBool(); };
    connect(table, &QTableWidget::itemSelectionChanged, remove, [table, remove, pinned] {
        const QModelIndexList rows = table->selectionModel()->selectedRows();
        remove->setEnabled(
            std::any_of(rows.begin(), rows.end(), [&](const QModelIndex& i) { return !pinned(i.row()); }));
    });
    connect(remove, &QPushButton::clicked, table, [table, pinned, updateCount, removed] {
        QList<int> rows;
        const QModelIndexList selected = table->selectionModel()->selectedRows();
        for (const QModelIndex& index : selected)
            if (!pinned(index.row()))
                rows.append(index.row());
        std::sort(rows.begin(), rows.end(), std::greater<>());
        for (int r : rows) {
            if (table->item(r, 0) && table->item(r, 0)->data(OriginalRole).isValid())
                ++*removed;
            table->removeRow(r);
        }
        updateCount();
    });
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dialog, [=, this] {
        // The table as it is now, checked, against what the database holds.
        std::map<QString, QString> edited;
        for (int r = 0; r < table->rowCount(); ++r) {
            const QString key = table->item(r, 0) ? table->item(r, 0)->text().trimmed() : QString();
            QString value = table->item(r, 1) ? table->item(r, 1)->text() : QString();
            if (value.isNull())
                value = QLatin1String("");
            if (pinned(r)) {
                if (!value.trimmed().isEmpty())
                    edited[key] = value.trimmed();
                continue;
            }
            if (key.isEmpty()) {
                if (value.isEmpty())
                    continue; // an added row left empty
                QMessageBox::warning(dialog, tr("Edit Metadata"), tr("Row %1 has a value but no key.").arg(r + 1));
                table->setCurrentCell(r, 0);
                return;
            }
            if (edited.contains(key) || key == ApplicationKey || key == ExperimentKey) {
                QMessageBox::warning(dialog, tr("Edit Metadata"), tr("The key \"%1\" appears twice.").arg(key));
                table->setCurrentCell(r, 0);
                return;
            }
            edited[key] = value;
        }
        std::vector<std::pair<QString, QString>> changes;
        for (const auto& [key, value] : original)
            if (!edited.contains(key))
                changes.emplace_back(key, QString()); // null: remove
        for (const auto& [key, value] : edited) {
            const auto it = original.find(key);
            if (it == original.end() || it->second != value)
                changes.emplace_back(key, value);
        }
        if (changes.empty()) {
            dialog->accept();
            return;
        }
        // One transaction on a worker thread; the dialog waits, and stays open if it fails.
        dialog->setEnabled(false);
        buttons->button(QDialogButtonBox::Save)->setText(tr("Saving…"));
        const QPointer<QDialog> guard(dialog);
        run(
            location, tr("Saving the metadata of trial %1").arg(id),
            [id, changes](perfdb::Database& db) -> QString {
                const auto r = db.updateMetadata(id, changes);
                return r ? QString() : r.error().message;
            },
            [this, guard, location, id] {
                if (guard)
                    guard->accept();
                Q_EMIT message(tr("Saved the metadata of trial %1 in %2").arg(id).arg(displayableLocation(location)));
                Q_EMIT metadataSaved(location, id);
                refresh(location, id);
            },
            [this, guard, buttons, location, id](const QString& error) {
                QWidget* parent = guard ? static_cast<QWidget*>(guard.data()) : this;
                if (guard) {
                    guard->setEnabled(true);
                    buttons->button(QDialogButtonBox::Save)->setText(tr("Save"));
                }
                QMessageBox::warning(parent, tr("Edit Metadata"),
                    tr("Could not save the metadata of trial %1 in the database %2:\n\n%3\n\nNothing was changed.")
                        .arg(id)
                        .arg(displayLocation(location), error));
            });
    });
    dialog->open();
    table->setFocus();
    Q_EMIT metadataEditorShown(dialog);
}

} // namespace parallax
