// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/jsoninput.h"

#include "datasource/readers/gzipinput.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonParseError>
#include <QLocale>
#include <algorithm>

namespace parallax {

namespace {

qsizetype skipSpace(const QByteArray& text, qsizetype i)
{
    if (i == 0 && text.startsWith("\xEF\xBB\xBF"))
        i = 3;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        ++i;
    return i;
}

} // namespace

std::optional<ReadError> JsonInput::load(
    const QString& path, QJsonDocument& document, Progress& progress, QByteArray* textOut)
{
    const QFileInfo info(path);
    if (!info.isFile())
        return ReadError { path, 0, -1, QStringLiteral("not a file (expected one JSON file)") };
    if (info.size() > MaxBytes)
        return ReadError { path, 0, -1,
            QStringLiteral("the file is %1 bytes; JSON profiles are parsed in memory with QJsonDocument (a DOM of the "
                           "whole document, nesting limited to 1024 levels), and files above %2 bytes are refused")
                .arg(info.size())
                .arg(MaxBytes) };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError { path, 0, -1, QStringLiteral("cannot open: %1").arg(file.errorString()) };
    progress.setStage(QStringLiteral("Parsing JSON"), info.size());
    // Every JSON profile is an object or an array: anything else is refused from its first bytes,
    // before the whole file is read (docs/FORMATS.md 11).
    const QByteArray head = file.peek(4096);
    const qsizetype start = skipSpace(head, 0);
    if (start < head.size() && head[start] != '{' && head[start] != '[')
        return ReadError { path, lineOf(head, start), start,
            QStringLiteral("invalid JSON: expected an object '{' or an array '[', found byte 0x%1")
                .arg(static_cast<unsigned char>(head[start]), 2, 16, QLatin1Char('0')) };
    const QByteArray text = file.readAll();
    if (text.size() != info.size() && file.error() != QFileDevice::NoError)
        return ReadError { path, 0, text.size(), QStringLiteral("read error: %1").arg(file.errorString()) };
    QJsonParseError error;
    document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError) {
        const qint64 offset = std::clamp<qint64>(error.offset, 0, text.size());
        QString message = QStringLiteral("invalid JSON: %1").arg(error.errorString());
        if (error.error == QJsonParseError::DeepNesting)
            message += QStringLiteral(" (QJsonDocument accepts at most 1024 nested arrays/objects)");
        else if (error.error == QJsonParseError::DocumentTooLarge)
            message += QStringLiteral(" (beyond what QJsonDocument can hold)");
        return ReadError { path, lineOf(text, offset), offset, message };
    }
    progress.advance(info.size());
    if (textOut)
        *textOut = text;
    return std::nullopt;
}

QByteArray JsonInput::head(const QString& path, qint64 max) { return fileHead(path, max).value_or(QByteArray()); }

bool JsonInput::startsWithObject(const QByteArray& head)
{
    const qsizetype i = skipSpace(head, 0);
    return i < head.size() && head[i] == '{';
}

bool JsonInput::startsWithArray(const QByteArray& head)
{
    const qsizetype i = skipSpace(head, 0);
    return i < head.size() && head[i] == '[';
}

QByteArray JsonInput::firstKey(const QByteArray& head)
{
    qsizetype i = skipSpace(head, 0);
    if (i >= head.size() || head[i] != '{')
        return {};
    i = skipSpace(head, i + 1);
    if (i >= head.size() || head[i] != '"')
        return {};
    const qsizetype end = head.indexOf('"', i + 1);
    if (end < 0 || end - i > 256)
        return {};
    return head.mid(i + 1, end - i - 1);
}

qint64 JsonInput::lineOf(const QByteArray& text, qint64 offset)
{
    const qint64 end = std::clamp<qint64>(offset, 0, text.size());
    return 1 + std::count(text.constBegin(), text.constBegin() + end, '\n');
}

} // namespace parallax

namespace parallax {

qint64 JsonInput::offsetOfKey(const QByteArray& text, const QByteArray& key)
{
    const qsizetype at = text.indexOf(QByteArray('"' + key + '"'));
    return at < 0 ? 0 : at;
}

QString JsonInput::scalarText(const QJsonValue& v)
{
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', QLocale::FloatingPointShortest);
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return {};
}

} // namespace parallax
