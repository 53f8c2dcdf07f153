// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QStringList>
#include <QWidget>

class QListWidget;

namespace parallax {

/// What the main window shows before a trial is open: the ways in (a profile directory or file,
/// the bundled sample, a database) and the recent files, instead of an empty overview.
class StartPage : public QWidget {
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);

    /// The recent files, newest first (the File ▸ Open Recent list).
    void setRecentFiles(const QStringList& paths);

Q_SIGNALS:
    void openDirectoryRequested();
    void openFileRequested();
    void openSampleRequested();
    void openDatabaseRequested();
    void openRecentRequested(const QString& path);

private:
    QListWidget* m_recent;
};

} // namespace parallax
