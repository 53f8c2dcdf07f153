// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QString>
#include <optional>
#include <utility>

namespace parallax {

/// Whole-file JSON input for the readers of small JSON profiles (timemory, Hatchet, pyinstrument).
/// QJsonDocument builds the whole document in memory (about 16 bytes per value on top of the
/// text) and refuses nesting deeper than 1024 arrays/objects ("too deeply nested document"), so
/// files above MaxBytes are refused with a clear error rather than exhausting memory.
class JsonInput {
public:
    static constexpr qint64 MaxBytes = qint64(512) << 20;

    /// Reads and parses `path`. On failure the error names the file, the byte offset and the
    /// 1-based line, and what QJsonDocument expected there.
    /// `text` (optional) receives the file's bytes, for locating errors found after parsing.
    static std::optional<ReadError> load(
        const QString& path, QJsonDocument& document, Progress& progress, QByteArray* text = nullptr);

    /// The first `max` bytes of a regular file (empty when it cannot be read).
    static QByteArray head(const QString& path, qint64 max = 4096);
    /// The JSON text starts with '{' (after white space and a UTF-8 BOM).
    static bool startsWithObject(const QByteArray& head);
    /// The JSON text starts with '['.
    static bool startsWithArray(const QByteArray& head);
    /// The first object key of the document (its first string after the opening '{'), or empty.
    static QByteArray firstKey(const QByteArray& head);
    /// The line (1-based) of byte offset `offset` in `text`.
    static qint64 lineOf(const QByteArray& text, qint64 offset);
    /// A JSON scalar as metadata text: strings as they are, numbers in their shortest form,
    /// true/false; empty for null, arrays and objects.
    static QString scalarText(const QJsonValue& v);
    /// Where a structural error is reported: the byte offset of the first occurrence of `"key"`
    /// (or 0 when the key is absent).
    static qint64 offsetOfKey(const QByteArray& text, const QByteArray& key);
};

/// The guarded read of a whole-file JSON format: loads `path` (JsonInput::load, whose error is
/// returned as it is), then runs body(document, text, builder, warnings) under guardedRead(), an
/// error's line found from its byte offset in the text.
template <typename Body>
TrialResult readJsonDocument(const Reader& reader, const QString& path, Progress& progress, Body&& body)
{
    QJsonDocument document;
    QByteArray text;
    if (auto error = JsonInput::load(path, document, progress, &text))
        return *error;
    TrialBuilder builder(QFileInfo(path).fileName());
    QStringList warnings;
    const ReadJob job { path, {}, QStringLiteral("out of memory"), {},
        [&text](qint64 offset) { return JsonInput::lineOf(text, offset); } };
    return guardedRead(reader, job, builder, warnings,
        [&] { return body(std::as_const(document), std::as_const(text), builder, warnings); });
}

} // namespace parallax
