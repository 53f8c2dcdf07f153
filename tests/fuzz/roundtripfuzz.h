// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The round-trip fuzz check shared by the writer/reader pairs (CSV, JSON).
#pragma once

#include "datasource/readers/reader.h"
#include "tests/fuzz/fuzzscratch.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cstdint>
#include <cstdlib>

namespace parallax::fuzz {

inline QByteArray bytesOf(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Any bytes as a file with `suffix` ("csv") must give a trial or a ReadError, never a crash; a
/// trial that reads must survive the writer, read back with the same shape and write the same bytes.
template <typename ReaderT, typename WriterT>
int roundTripOneInput(const std::uint8_t* data, std::size_t size, const char* suffix)
{
    static QTemporaryDir dir(scratchBase() + QStringLiteral("/parallax-fuzz-%1-XXXXXX").arg(QLatin1String(suffix)));
    static const ReaderT reader;
    const QString input = dir.filePath(QStringLiteral("input.%1").arg(QLatin1String(suffix)));
    {
        QFile f(input);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            std::abort();
        f.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size));
    }
    Progress progress;
    reader.sniff(input);
    const TrialResult result = reader.read(input, ReadOptions {}, progress);
    if (!result.ok()) {
        if (result.error().message.isEmpty())
            std::abort(); // every error must say what was expected
        return 0;
    }
    const Trial& t = *result.value();
    double sum = 0;
    for (std::size_t i = 0; i < t.threadCount(); ++i) {
        for (double v : t.row(ThreadIndex(i)).incl)
            sum += v;
        for (double v : t.atomicRow(ThreadIndex(i)).sumSquares)
            sum += v;
    }
    (void)sum;
    // Written and read back: the same shape, and writing that gives the same bytes.
    const QString first = dir.filePath(QStringLiteral("first.%1").arg(QLatin1String(suffix)));
    const QString second = dir.filePath(QStringLiteral("second.%1").arg(QLatin1String(suffix)));
    if (!WriterT::write(t, first).isEmpty())
        std::abort();
    const TrialResult again = reader.read(first, ReadOptions {}, progress);
    if (!again.ok())
        std::abort();
    const Trial& u = *again.value();
    if (u.threadCount() != t.threadCount() || u.eventCount() != t.eventCount()
        || u.atomicEventCount() != t.atomicEventCount() || u.metricCount() != t.metricCount()
        || u.groupCount() != t.groupCount() || u.cellCount() != t.cellCount())
        std::abort();
    if (!WriterT::write(u, second).isEmpty() || bytesOf(first) != bytesOf(second))
        std::abort();
    return 0;
}

} // namespace parallax::fuzz
