// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/gui/startpage.h"

#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace parallax {

StartPage::StartPage(QWidget* parent)
    : QWidget(parent)
    , m_recent(new QListWidget(this))
{
    setObjectName(QStringLiteral("startPage"));
    auto* outer = new QHBoxLayout(this);
    outer->addStretch(1);
    auto* column = new QVBoxLayout;
    column->setSpacing(10);
    outer->addLayout(column, 3);
    outer->addStretch(1);

    auto* title = new QLabel(tr("<h1>Parallax</h1>"), this);
    column->addStretch(1);
    column->addWidget(title);
    auto* intro = new QLabel(tr("Open a parallel profile to see where the time goes: TAU profiles and packed "
                                "profiles, CUBE, HPCToolkit, Caliper, gprof, mpiP and more. You can also drop a "
                                "profile directory or file on this window."),
        this);
    intro->setWordWrap(true);
    column->addWidget(intro);

    const auto addButton = [this, column](const QIcon& icon, const QString& text, const QString& tip) {
        auto* button = new QPushButton(icon, text, this);
        button->setToolTip(tip);
        button->setMinimumHeight(32);
        column->addWidget(button);
        return button;
    };
    connect(addButton(QIcon(QStringLiteral(":/icons/open.svg")), tr("Open a Profile &Directory…"),
                tr("TAU profile.N.C.T files, MULTI__ metric directories, HPCToolkit databases (Ctrl+O)")),
        &QPushButton::clicked, this, &StartPage::openDirectoryRequested);
    connect(addButton(style()->standardIcon(QStyle::SP_FileIcon), tr("Open a Profile &File…"),
                tr("A packed profile (.ppk), a CUBE file, a Caliper or JSON profile, gprof output… (Ctrl+Shift+O)")),
        &QPushButton::clicked, this, &StartPage::openFileRequested);
    connect(addButton(style()->standardIcon(QStyle::SP_DriveHDIcon), tr("Open the &Experiment Database"),
                tr("The trials stored in the default SQLite database or a PostgreSQL server (the Databases dock)")),
        &QPushButton::clicked, this, &StartPage::openDatabaseRequested);
    connect(addButton(QIcon(QStringLiteral(":/icons/parallax.svg")), tr("Try the Bundled &Sample"),
                tr("A 4-rank MPI run of cpi measured with TAU, shipped with Parallax")),
        &QPushButton::clicked, this, &StartPage::openSampleRequested);

    auto* recentTitle = new QLabel(tr("<b>Recent</b>"), this);
    column->addSpacing(8);
    column->addWidget(recentTitle);
    m_recent->setToolTip(tr("Double-click (or Enter) to open"));
    m_recent->setMaximumHeight(180);
    column->addWidget(m_recent);
    connect(m_recent, &QListWidget::itemActivated, this,
        [this](QListWidgetItem* item) { Q_EMIT openRecentRequested(item->data(Qt::UserRole).toString()); });
    auto* help
        = new QLabel(tr("Help ▸ User Guide explains the views; Help ▸ Keyboard Shortcuts lists the keys."), this);
    help->setForegroundRole(QPalette::PlaceholderText);
    help->setWordWrap(true);
    column->addWidget(help);
    column->addStretch(2);
    setRecentFiles({});
}

void StartPage::setRecentFiles(const QStringList& paths)
{
    m_recent->clear();
    for (const QString& path : paths) {
        auto* item = new QListWidgetItem(
            QStringLiteral("%1 — %2").arg(QFileInfo(path).fileName(), QDir::toNativeSeparators(path)), m_recent);
        item->setData(Qt::UserRole, path);
        item->setToolTip(QDir::toNativeSeparators(path));
    }
    if (paths.isEmpty()) {
        auto* none = new QListWidgetItem(tr("No recent profiles yet"), m_recent);
        none->setFlags(Qt::NoItemFlags);
    }
}

} // namespace parallax
