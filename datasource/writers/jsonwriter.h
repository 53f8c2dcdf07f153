// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QString>

namespace parallax {

/// Writes a trial as one JSON document ("format": "parallax-trial", version 1; the schema is
/// documented at the top of jsonwriter.cpp). The text is streamed, never built as a whole, so a
/// 16,384-thread trial costs no more memory than its file buffer. JsonReader reads it back exactly.
class JsonWriter {
public:
    /// Returns an empty string on success, else what went wrong (naming the file). The file is
    /// written under a temporary name and renamed, so a failure leaves no partial file.
    static QString write(const Trial& trial, const QString& file);
};

} // namespace parallax
