// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// What the parts of the Databases dock share (databasepanel.cpp: the tree; uploadqueue.cpp,
// uploaddialog.cpp, metadataeditor.cpp): the metadata keys that place a trial, and how a
// database is named to the user.

#include <QString>

namespace parallax::databasepanel {

/// The primary_metadata entries that place a trial in the application tree.
inline const QString ApplicationKey = QStringLiteral("Application");
inline const QString ExperimentKey = QStringLiteral("Experiment");

/// "Default database (PATH)" for the default SQLite file, else the location without password.
QString displayLocation(const QString& location);

} // namespace parallax::databasepanel
