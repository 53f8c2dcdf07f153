// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the TAU snapshot / merged XML reader: any bytes (plain or gzip) as
// tauprofile.xml must give a trial or a ReadError with a message and a position, never a crash.
// An input starting with byte 0x01 is split at the next 0x01 into snapshot.0.0.0 and
// snapshot.0.0.1 of one directory, which exercises the parallel, multi-file path.
#include "tests/fuzz/fuzzharness.h"

#include <cstring>

using namespace parallax;

namespace {

double touch(const RowView& row, const AtomicRow& atomics)
{
    double sum = 0;
    for (double v : row.incl)
        sum += v;
    for (double v : row.calls)
        sum += v;
    for (std::size_t i = 0; i < atomics.size(); ++i)
        sum += atomics.stddev(i) + atomics.mean[i];
    // Rows are sorted by id and hold one cell per id.
    for (std::size_t i = 1; i < row.size(); ++i)
        if (!(row.events[i - 1] < row.events[i]))
            std::abort();
    return sum;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QDir dir(fuzz::scratchDir("snapshot").path());
    const char* bytes = reinterpret_cast<const char*>(data);
    QString input;
    if (size > 0 && data[0] == 0x01) {
        const QString sub = dir.filePath(QStringLiteral("snapshots"));
        QDir().mkpath(sub);
        const void* split = std::memchr(bytes + 1, 0x01, size - 1);
        const std::size_t first
            = split ? static_cast<std::size_t>(static_cast<const char*>(split) - bytes - 1) : size - 1;
        fuzz::writeFile(sub + QStringLiteral("/snapshot.0.0.0"), QByteArray(bytes + 1, static_cast<qsizetype>(first)));
        const std::size_t rest = split ? size - 2 - first : 0;
        fuzz::writeFile(sub + QStringLiteral("/snapshot.0.0.1"),
            QByteArray(split ? static_cast<const char*>(split) + 1 : bytes, static_cast<qsizetype>(rest)));
        input = sub;
    } else {
        input = dir.filePath(QStringLiteral("tauprofile.xml"));
        fuzz::writeFile(input, fuzz::bytesOf(data, size));
    }
    // Every error must say what was expected, and where.
    fuzz::Read how { ReadOptions {}, fuzz::Names::AnyFile };
    how.options.threads = size % 2 ? 1 : 2;
    const auto result = fuzz::readChecked(fuzz::reader("snapshot"), input, how);
    if (!result)
        return 0;
    // Touch everything a view would: rows, user events, metadata, provided statistics, the series.
    const Trial& t = *result;
    double sum = 0;
    for (std::size_t i = 0; i < t.threadCount(); ++i) {
        const ThreadIndex ti(i);
        sum += touch(t.row(ti), t.atomicRow(ti));
        for (const auto& point : t.timeSeries(ti))
            sum += touch(point.row, point.atomicRow);
        for (const auto& entry : t.threadMetadata(ti))
            sum += static_cast<double>(t.strings().get(entry.key).size() + t.strings().get(entry.value).size());
        for (const EventId e : t.row(ti).events)
            if (e.index() >= t.eventCount())
                std::abort();
        for (const AtomicEventId e : t.atomicRow(ti).events)
            if (e.index() >= t.atomicEventCount())
                std::abort();
    }
    for (const auto& p : t.providedStatistics())
        sum += touch(p.row, p.atomicRow);
    for (const auto& e : t.events())
        sum += static_cast<double>(e.name.size() + e.groups.size());
    (void)sum;
    return 0;
}
