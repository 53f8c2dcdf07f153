// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/gui/helpdialogs.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace parallax {

namespace {

void collectShortcuts(const QMenu* menu, const QString& path, QStringList& rows)
{
    for (const QAction* action : menu->actions()) {
        if (action->isSeparator())
            continue;
        const QString name = path + QStringLiteral(" ▸ ") + QString(action->text()).remove(QLatin1Char('&'));
        if (action->menu()) {
            collectShortcuts(action->menu(), name, rows);
            continue;
        }
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts())
            keys << key.toString(QKeySequence::NativeText);
        if (!keys.isEmpty())
            rows << name + QLatin1Char('\t') + keys.join(QStringLiteral(", "));
    }
}

QDialog* helpDialog(QWidget* parent, const QString& title, QWidget* content, const QSize& size)
{
    auto* dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(content, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    dialog->resize(size);
    return dialog;
}

} // namespace

QString userGuideMarkdown(const QString& readme)
{
    const qsizetype begin = readme.indexOf(QStringLiteral("\n## The GUI"));
    if (begin < 0)
        return readme;
    qsizetype end = readme.indexOf(QStringLiteral("\n## "), begin + 1);
    if (end < 0)
        end = readme.size();
    QStringList lines;
    // Screenshots are in the installed README (share/doc/parallax); the guide keeps the text.
    static const QRegularExpression image(QStringLiteral(R"(^\s*(\|\s*)?!\[)"));
    static const QRegularExpression imageTableHeader(QStringLiteral(R"(^\s*\|(\s*\|)+\s*$|^\s*\|(-+\|)+\s*$)"));
    for (const QString& line : readme.mid(begin + 1, end - begin - 1).split(QLatin1Char('\n'))) {
        if (image.match(line).hasMatch() || imageTableHeader.match(line).hasMatch())
            continue;
        lines << line;
    }
    return QStringLiteral("# Parallax user guide\n\n") + lines.join(QLatin1Char('\n'));
}

QStringList keyboardShortcuts(const QMenuBar* menus)
{
    QStringList rows;
    if (menus)
        for (const QAction* action : menus->actions())
            if (action->menu())
                collectShortcuts(action->menu(), QString(action->text()).remove(QLatin1Char('&')), rows);
    const QString copy = QKeySequence(QKeySequence::Copy).toString(QKeySequence::NativeText);
    rows << QObject::tr("Any table: copy the selected rows as tab-separated text") + QLatin1Char('\t') + copy
         << QObject::tr("Any table or chart: open the selected event or thread") + QLatin1Char('\t')
            + QObject::tr("Enter, double-click")
         << QObject::tr("Charts: scroll, jump to the first or last row") + QLatin1Char('\t')
            + QObject::tr("Up, Down, Page Up, Page Down, Home, End")
         << QObject::tr("Call graph: zoom") + QLatin1Char('\t') + QObject::tr("Ctrl+wheel, +, -");
    return rows;
}

void showUserGuide(QWidget* parent)
{
    QFile file(QStringLiteral(":/guide/README.md"));
    QString text = file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    auto* browser = new QTextBrowser;
    browser->setOpenExternalLinks(true);
    if (text.isEmpty())
        browser->setPlainText(QObject::tr("The user guide is the README (share/doc/parallax/README.md)."));
    else
        browser->setMarkdown(userGuideMarkdown(text));
    helpDialog(parent, QObject::tr("Parallax User Guide"), browser, QSize(820, 760))->show();
}

void showKeyboardShortcuts(const QMenuBar* menus, QWidget* parent)
{
    const QStringList rows = keyboardShortcuts(menus);
    auto* table = new QTableWidget(static_cast<int>(rows.size()), 2);
    table->setHorizontalHeaderLabels({ QObject::tr("Command"), QObject::tr("Keys") });
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (int row = 0; row < rows.size(); ++row) {
        const QStringList cells = rows[row].split(QLatin1Char('\t'));
        for (int column = 0; column < 2; ++column)
            table->setItem(row, column, new QTableWidgetItem(cells.value(column)));
    }
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    helpDialog(parent, QObject::tr("Keyboard Shortcuts"), table, QSize(640, 520))->show();
}

} // namespace parallax
