// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// What every fuzz target shares.
#pragma once

#include <QDir>
#include <QFileInfo>
#include <QString>

namespace parallax::fuzz {

/// tmpfs when there is one: rewriting a file thousands of times a second on ext4 is slow.
inline QString scratchBase()
{
    return QFileInfo(QStringLiteral("/dev/shm")).isWritable() ? QStringLiteral("/dev/shm") : QDir::tempPath();
}

} // namespace parallax::fuzz
