// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// Parallax's JSON trial documents ("format": "parallax-trial", written by JsonWriter; the schema
/// is documented in jsonwriter.cpp). The text is read by a streaming tokenizer, never held whole,
/// so there is no size limit beyond memory for the trial itself. Errors give the line, the column
/// and the byte offset, and what was expected. Other JSON (Caliper, Hatchet, ...) is not sniffed.
class JsonReader : public Reader {
public:
    JsonReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
};

} // namespace parallax
