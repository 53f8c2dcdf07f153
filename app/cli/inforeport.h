// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QByteArray>
#include <QString>

namespace parallax {

/// `parallax-cli info --json`: one JSON object, a stable interface for scripts (see README).
QByteArray infoJson(const Trial& trial, const QString& format, int top = 10);
/// `parallax-cli info`: the same facts as readable text.
QString infoText(const Trial& trial, const QString& format, int top = 10);

} // namespace parallax
