// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the mpiP reader: any bytes must give a trial or a ReadError that names the
// file, never a crash. size % 4 == 3: the bytes are gzip-compressed into a .mpiP.gz; otherwise they
// are the report itself (.mpiP). Seeds: tests/data/mpip/*.mpiP (see tests/fuzz/mpipreader.dict).
#include "datasource/readers/mpipreader.h"
#include "tests/fuzz/fuzzscratch.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <zlib.h>

using namespace parallax;
using parallax::fuzz::gzip;
using parallax::fuzz::scratchBase;

namespace {

/// The model's invariants for a trial that read.
void check(const Trial& t)
{
    const std::size_t metrics = t.metricCount();
    if (metrics != 1 || t.threadCount() == 0)
        std::abort();
    for (std::size_t i = 0; i < t.threadCount(); ++i) {
        const IntervalRow& row = t.row(ThreadIndex(i));
        const std::size_t n = row.size();
        if (row.calls.size() != n || row.subrs.size() != n || row.excl.size() != n * metrics
            || row.incl.size() != n * metrics)
            std::abort();
        for (std::size_t k = 1; k < n; ++k)
            if (!(row.events[k - 1] < row.events[k]))
                std::abort(); // sorted, no duplicate cells
        for (std::size_t k = 0; k < n; ++k)
            if (row.events[k].index() >= t.eventCount() || !std::isfinite(row.incl[k]) || !std::isfinite(row.excl[k]))
                std::abort();
        const AtomicRow& atomics = t.atomicRow(ThreadIndex(i));
        for (std::size_t k = 0; k < atomics.size(); ++k)
            if (atomics.events[k].index() >= t.atomicEventCount())
                std::abort();
        const ThreadKey& key = t.threadKey(ThreadIndex(i));
        if (key.node < 0 || key.context != 0 || key.thread != 0)
            std::abort();
    }
    for (const auto& e : t.events())
        if (e.isCallPath() && !e.leaf.isValid())
            std::abort(); // every call site ends in its flat MPI event
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static QTemporaryDir dir(scratchBase() + QStringLiteral("/parallax-fuzz-mpip-XXXXXX"));
    static const MpipReader reader;
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const bool compressed = size % 4 == 3;
    const QString input = dir.filePath(compressed ? QStringLiteral("input.mpiP.gz") : QStringLiteral("input.mpiP"));
    {
        QFile f(input);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            std::abort();
        f.write(compressed ? gzip(bytes) : bytes);
    }
    ReadOptions options;
    options.threads = 1;
    Progress progress;
    reader.sniff(input);
    const TrialResult result = reader.read(input, options, progress);
    if (!result.ok()) {
        // Every error names the file and says what was expected.
        if (result.error().message.isEmpty() || result.error().file != input)
            std::abort();
        return 0;
    }
    check(*result.value());
    return 0;
}
